//! `GEN8`: general information about the game.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::{AssetRef, StringRef};
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The `GEN8` chunk: game name, IDE version, window size, room order and build metadata.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct General {
    /// 1 when the debugger is disabled.
    pub debugger_disabled: u8,
    /// Bytecode version (13–17).
    pub bytecode_version: u8,
    /// Unknown 16-bit field (kept as read).
    pub unknown: u16,
    /// File name of the project.
    pub file_name: StringRef,
    /// Build configuration name.
    pub config: StringRef,
    /// Last object id used in the project.
    pub last_object_id: u32,
    /// Last tile id used in the project.
    pub last_tile_id: u32,
    /// Game id.
    pub game_id: u32,
    /// DirectPlay GUID.
    pub directplay_guid: [u8; 16],
    /// Game name.
    pub name: StringRef,
    /// IDE version: major, minor, release, build.
    pub ide_version: [u32; 4],
    /// Default window width.
    pub window_width: u32,
    /// Default window height.
    pub window_height: u32,
    /// Info flags (fullscreen, sync, ...).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::flags::general_info"))]
    pub info_flags: u32,
    /// Licence CRC32.
    pub licence_crc32: u32,
    /// Licence MD5.
    pub licence_md5: [u8; 16],
    /// Build timestamp (Unix seconds).
    pub timestamp: u64,
    /// Window caption.
    pub display_name: StringRef,
    /// Active targets.
    pub active_targets: u64,
    /// Function classification flags.
    pub function_classifications: u64,
    /// Steam app id.
    pub steam_app_id: i32,
    /// Debugger port (bytecode ≥ 14).
    pub debugger_port: Option<u32>,
    /// Room order (room ids).
    pub room_order: Vec<AssetRef<crate::chunks::room::Room>>,
    /// GMS2 block: random UIDs, FPS, statistics flag, game GUID.
    pub gms2: Option<Gms2Info>,
}

/// The GMS2 part of GEN8.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Gms2Info {
    /// Five 64-bit values derived from the timestamp (kept as read).
    pub random_uids: [u64; 5],
    /// Game speed.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub fps: f32,
    /// Whether the game may send statistics.
    pub allow_statistics: bool,
    /// Game GUID.
    pub game_guid: [u8; 16],
}

impl Chunk for General {
    const NAME: ChunkName = ChunkName(*b"GEN8");

    fn read(r: &mut Reader) -> Result<Self> {
        let mut g = General {
            debugger_disabled: r.u8()?,
            bytecode_version: r.u8()?,
            unknown: r.u16()?,
            file_name: r.string()?,
            config: r.string()?,
            last_object_id: r.u32()?,
            last_tile_id: r.u32()?,
            game_id: r.u32()?,
            directplay_guid: guid(r)?,
            name: r.string()?,
            ide_version: [r.u32()?, r.u32()?, r.u32()?, r.u32()?],
            window_width: r.u32()?,
            window_height: r.u32()?,
            info_flags: r.u32()?,
            licence_crc32: r.u32()?,
            licence_md5: guid(r)?,
            timestamp: r.u64()?,
            display_name: r.string()?,
            active_targets: r.u64()?,
            function_classifications: r.u64()?,
            steam_app_id: r.i32()?,
            ..Default::default()
        };
        if g.bytecode_version >= 14 {
            g.debugger_port = Some(r.u32()?);
        }
        let n = r.count("room order", 4)?;
        g.room_order = super::read_n(r, n, |r| r.i32().map(AssetRef::from_listed))?;
        if g.ide_version[0] >= 2 {
            let mut random_uids = [0u64; 5];
            for v in &mut random_uids {
                *v = r.u64()?;
            }
            g.gms2 = Some(Gms2Info {
                random_uids,
                fps: r.f32()?,
                allow_statistics: r.bool32()?,
                game_guid: guid(r)?,
            });
        }
        Ok(g)
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.u8(self.debugger_disabled);
        w.u8(self.bytecode_version);
        w.u16(self.unknown);
        w.string(self.file_name);
        w.string(self.config);
        w.u32(self.last_object_id);
        w.u32(self.last_tile_id);
        w.u32(self.game_id);
        w.bytes(&self.directplay_guid);
        w.string(self.name);
        for v in self.ide_version {
            w.u32(v);
        }
        w.u32(self.window_width);
        w.u32(self.window_height);
        w.u32(self.info_flags);
        w.u32(self.licence_crc32);
        w.bytes(&self.licence_md5);
        w.u64(self.timestamp);
        w.string(self.display_name);
        w.u64(self.active_targets);
        w.u64(self.function_classifications);
        w.i32(self.steam_app_id);
        if self.bytecode_version >= 14 {
            w.u32(self.debugger_port.unwrap_or(0));
        }
        w.u32(self.room_order.len() as u32);
        for &room in &self.room_order {
            w.i32(room.to_stored(-1));
        }
        if self.ide_version[0] >= 2 {
            let g = self.gms2.clone().unwrap_or_default();
            for v in g.random_uids {
                w.u64(v);
            }
            w.f32(g.fps);
            w.bool32(g.allow_statistics);
            w.bytes(&g.game_guid);
        }
        Ok(())
    }
}

fn guid(r: &mut Reader) -> Result<[u8; 16]> {
    let b = r.bytes_ref(16, "GUID")?;
    let mut out = [0u8; 16];
    out.copy_from_slice(b);
    Ok(out)
}

/// GEN8 is read directly by the version detection (bytecode and IDE version).
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
