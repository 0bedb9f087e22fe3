//! Spine sprites (sprite type 2).
//!
//! Layout (§4 SPRT): zero padding to 4; [2023.1 non-LTS] a simple list of texture page item
//! pointers; `i32` spine version (1–3); \[v3\] `i32` cache version; `i32` JSON length; `i32` atlas
//! length; `i32` texture count (v2/v3) or texture byte size (v1); then
//! - v1: `i32` atlas width, height; the JSON; the atlas; one texture blob;
//! - v2/v3: the JSON; the atlas; per texture `i32` width, height, then either [2023.1 non-LTS]
//!   an `i32` length only (the pixels live in texture pages), or an `i32` length and the blob.
//!
//! The JSON and atlas texts are stored obfuscated (see [`obfuscate`] / [`deobfuscate`]); the
//! model keeps the stored bytes so an unmodified file rebuilds byte for byte.

use crate::chunks::texture_page_item::{TexturePageItems, TpagRef};
use crate::error::Result;
use crate::read::Reader;
use crate::version::Version;
use crate::write::Writer;
use bytes::Bytes;

/// The body of a Spine sprite.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SpineSprite {
    /// Texture page items of the sprite ([2023.1 non-LTS] only, else `None`).
    pub frames: Option<Vec<Option<TpagRef>>>,
    /// Spine data version (1–3): decides the texture layout and the cache version field.
    pub version: i32,
    /// Cache version (spine version 3 only, normally 1).
    pub cache_version: Option<i32>,
    /// The skeleton JSON as stored (obfuscated; see [`SpineSprite::decode_json`]).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]
    pub json: Bytes,
    /// The atlas text as stored (obfuscated; see [`SpineSprite::decode_atlas`]).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]
    pub atlas: Bytes,
    /// The textures (their layout depends on [`SpineSprite::version`]).
    pub textures: SpineTextures,
}

/// The texture data of a Spine sprite.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SpineTextures {
    /// Spine version 1: one texture blob with the atlas page size.
    Single {
        /// Atlas page width.
        atlas_width: i32,
        /// Atlas page height.
        atlas_height: i32,
        /// The texture file bytes.
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]
        blob: Bytes,
    },
    /// Spine version 2/3: a list of texture entries.
    Entries(Vec<SpineTexture>),
}

impl Default for SpineTextures {
    fn default() -> Self {
        SpineTextures::Entries(Vec::new())
    }
}

/// One texture entry of a version 2/3 Spine sprite.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SpineTexture {
    /// Texture width.
    pub width: i32,
    /// Texture height.
    pub height: i32,
    /// The texture data.
    pub data: SpineTextureData,
}

/// Where a Spine texture's pixels are.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SpineTextureData {
    /// [2023.1 non-LTS] Only the byte length is stored (the pixels live in texture pages).
    Length(i32),
    /// Before 2023.1 (or LTS): the texture file bytes, stored inline after their length.
    Blob(#[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))] Bytes),
}

impl Default for SpineTextureData {
    fn default() -> Self {
        SpineTextureData::Blob(Bytes::new())
    }
}

/// Initial key of the JSON/atlas obfuscation.
const KEY_START: u8 = 42;

fn next_key(k: u8) -> u8 {
    k.wrapping_mul(k.wrapping_add(1))
}

/// Decodes obfuscated Spine text bytes: each byte minus a running 8-bit key that starts at 42
/// and becomes `k·(k+1)` (mod 256) after each byte.
pub fn deobfuscate(stored: &[u8]) -> Vec<u8> {
    let mut k = KEY_START;
    stored
        .iter()
        .map(|&b| {
            let out = b.wrapping_sub(k);
            k = next_key(k);
            out
        })
        .collect()
}

/// Obfuscates plain Spine text bytes for storage (the inverse of [`deobfuscate`]).
pub fn obfuscate(plain: &[u8]) -> Vec<u8> {
    let mut k = KEY_START;
    plain
        .iter()
        .map(|&b| {
            let out = b.wrapping_add(k);
            k = next_key(k);
            out
        })
        .collect()
}

impl SpineSprite {
    /// The skeleton JSON, de-obfuscated.
    pub fn decode_json(&self) -> Vec<u8> {
        deobfuscate(&self.json)
    }
    /// The atlas text, de-obfuscated.
    pub fn decode_atlas(&self) -> Vec<u8> {
        deobfuscate(&self.atlas)
    }
    /// Stores new skeleton JSON text (obfuscating it).
    pub fn set_json(&mut self, plain: &[u8]) {
        self.json = obfuscate(plain).into();
    }
    /// Stores new atlas text (obfuscating it).
    pub fn set_atlas(&mut self, plain: &[u8]) {
        self.atlas = obfuscate(plain).into();
    }
}

/// [2023.1 non-LTS]: a texture page item list precedes the header, and texture entries store
/// only a length.
fn has_tpag_textures(v: &Version) -> bool {
    v.non_lts_at_least(2023, 1)
}

fn len(r: &Reader, n: u32, what: &'static str) -> Result<usize> {
    usize::try_from(n).map_err(|_| r.invalid(what, "a length that fits in memory", n))
}

impl SpineSprite {
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        r.align(4)?;
        let tpag = has_tpag_textures(r.version());
        let frames = if tpag {
            let n = r.count("spine texture page item", 4)?;
            Some(
                (0..n)
                    .map(|_| TexturePageItems::read_ref(r))
                    .collect::<Result<Vec<_>>>()?,
            )
        } else {
            None
        };
        let at = r.pos();
        let version = r.i32()?;
        if !(1..=3).contains(&version) {
            return Err(r.error_at(at, crate::error::invalid("spine version", "1, 2 or 3", version)));
        }
        let cache_version = if version >= 3 { Some(r.i32()?) } else { None };
        let json_len = r.u32()?;
        let atlas_len = r.u32()?;
        let tex_at = r.pos();
        let tex_word = r.u32()?;
        let (json, atlas, textures);
        if version == 1 {
            let atlas_width = r.i32()?;
            let atlas_height = r.i32()?;
            json = r.bytes(len(r, json_len, "spine JSON length")?, "spine JSON")?;
            atlas = r.bytes(len(r, atlas_len, "spine atlas length")?, "spine atlas")?;
            let blob = r.bytes(len(r, tex_word, "spine texture size")?, "spine texture")?;
            textures = SpineTextures::Single {
                atlas_width,
                atlas_height,
                blob,
            };
        } else {
            json = r.bytes(len(r, json_len, "spine JSON length")?, "spine JSON")?;
            atlas = r.bytes(len(r, atlas_len, "spine atlas length")?, "spine atlas")?;
            let n = tex_word as usize;
            r.check_count(tex_at, "spine texture", n, 12)?;
            let mut list = Vec::with_capacity(n);
            for _ in 0..n {
                let width = r.i32()?;
                let height = r.i32()?;
                let data = if tpag {
                    SpineTextureData::Length(r.i32()?)
                } else {
                    let l = r.u32()?;
                    SpineTextureData::Blob(r.bytes(len(r, l, "spine texture length")?, "spine texture")?)
                };
                list.push(SpineTexture {
                    width,
                    height,
                    data,
                });
            }
            textures = SpineTextures::Entries(list);
        }
        Ok(SpineSprite {
            frames,
            version,
            cache_version,
            json,
            atlas,
            textures,
        })
    }

    pub(crate) fn write(&self, w: &mut Writer) -> Result<()> {
        w.align(4);
        let tpag = has_tpag_textures(w.version());
        match (&self.frames, tpag) {
            (Some(f), true) => {
                w.u32(f.len() as u32);
                for &t in f {
                    TexturePageItems::write_ref(w, t);
                }
            }
            (None, false) => {}
            _ => {
                return Err(w.unwritable(
                    "spine sprite",
                    "texture page items are present exactly in 2023.1+ (non-LTS) files",
                ));
            }
        }
        if !(1..=3).contains(&self.version) || self.cache_version.is_some() != (self.version >= 3) {
            return Err(w.unwritable(
                "spine sprite",
                "version must be 1–3, with a cache version exactly for version 3",
            ));
        }
        w.i32(self.version);
        if let Some(c) = self.cache_version {
            w.i32(c);
        }
        w.u32(u32_len(w, self.json.len())?);
        w.u32(u32_len(w, self.atlas.len())?);
        match (&self.textures, self.version) {
            (
                SpineTextures::Single {
                    atlas_width,
                    atlas_height,
                    blob,
                },
                1,
            ) => {
                w.u32(u32_len(w, blob.len())?);
                w.i32(*atlas_width);
                w.i32(*atlas_height);
                w.bytes(&self.json);
                w.bytes(&self.atlas);
                w.bytes(blob);
            }
            (SpineTextures::Entries(list), 2 | 3) => {
                w.u32(u32_len(w, list.len())?);
                w.bytes(&self.json);
                w.bytes(&self.atlas);
                for t in list {
                    w.i32(t.width);
                    w.i32(t.height);
                    match (&t.data, tpag) {
                        (SpineTextureData::Length(l), true) => w.i32(*l),
                        (SpineTextureData::Blob(b), false) => {
                            w.u32(u32_len(w, b.len())?);
                            w.bytes(b);
                        }
                        _ => {
                            return Err(w.unwritable(
                                "spine texture",
                                "2023.1+ (non-LTS) files store a length only, older ones the blob",
                            ));
                        }
                    }
                }
            }
            _ => {
                return Err(w.unwritable(
                    "spine sprite",
                    "version 1 has a single texture, versions 2/3 a texture list",
                ));
            }
        }
        Ok(())
    }
}

pub(crate) fn u32_len(w: &Writer, n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| w.unwritable("length", format!("{n} does not fit in 32 bits")))
}
