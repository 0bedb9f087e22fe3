//! How code names a referenced asset the data file gives no name. From 2023.8 code
//! references a room's instance with `pushref.i [roominstance]<id>`; the data file keeps no
//! name for it (the IDE's `inst_…` names are compiled away), so GML text names it
//! `inst_id_<id>`, the instance id in decimal, which the compiler reads back as that reference
//! (from 2024.2, [`crate::features::Features::room_instance_refs`]; before, the id itself).
//! Likewise an asset of a stripped file (no name) is `<kind>_<index>` (`sprite_86`,
//! [`unnamed`]).

use crate::game::AssetKind;

/// The largest id a `pushref` operand holds (24 bits).
const MAX_ID: u32 = 0xFF_FFFF;

/// The GML name of room instance `id`: `inst_id_101392`.
pub fn name(id: u32) -> String {
    format!("inst_id_{id}")
}

/// The room instance id `text` names (`inst_id_` and a decimal id without leading zeros that
/// a `pushref` operand can hold), if it names one.
pub fn id(text: &str) -> Option<u32> {
    decimal_id(text.strip_prefix("inst_id_")?)
}

/// A decimal number without leading zeros that a `pushref` operand can hold.
fn decimal_id(digits: &str) -> Option<u32> {
    if digits.is_empty()
        || digits.len() > 8
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || (digits.len() > 1 && digits.starts_with('0'))
    {
        return None;
    }
    digits.parse().ok().filter(|&v| v <= MAX_ID)
}

/// The prefixes of unnamed assets by kind.
const KINDS: &[(AssetKind, &str)] = &[
    (AssetKind::Object, "object"),
    (AssetKind::Sprite, "sprite"),
    (AssetKind::Sound, "sound"),
    (AssetKind::Room, "room"),
    (AssetKind::Background, "background"),
    (AssetKind::Path, "path"),
    (AssetKind::Font, "font"),
    (AssetKind::Timeline, "timeline"),
    (AssetKind::Shader, "shader"),
    (AssetKind::Sequence, "sequence"),
    (AssetKind::AnimCurve, "animcurve"),
    (AssetKind::ParticleSystem, "particlesystem"),
];

/// The GML name of asset `index` of `kind` when the file gives it none: `sprite_86`
/// (`None` for a kind without one, e.g. scripts).
pub fn unnamed(kind: AssetKind, index: u32) -> Option<String> {
    let (_, p) = KINDS.iter().find(|(k, _)| *k == kind)?;
    Some(format!("{p}_{index}"))
}

/// The asset kind and index an [`unnamed`] name names.
pub fn unnamed_ref(text: &str) -> Option<(AssetKind, u32)> {
    let (p, digits) = text.rsplit_once('_')?;
    let (kind, _) = KINDS.iter().find(|(_, q)| *q == p)?;
    decimal_id(digits).map(|i| (*kind, i))
}

#[cfg(test)]
mod tests {
    #[test]
    fn unnamed_mirrors() {
        use crate::game::AssetKind;
        for k in [
            AssetKind::Object,
            AssetKind::Sprite,
            AssetKind::ParticleSystem,
        ] {
            for v in [0, 86, super::MAX_ID] {
                let n = super::unnamed(k, v).unwrap();
                assert_eq!(super::unnamed_ref(&n), Some((k, v)), "{n}");
            }
        }
        assert_eq!(super::unnamed(AssetKind::Script, 1), None);
        for t in ["sprite_", "sprite_01", "script_3", "spr_3", "sprite_x"] {
            assert_eq!(super::unnamed_ref(t), None, "{t}");
        }
    }

    #[test]
    fn name_and_id_mirror() {
        for v in [0, 7, 100_000, 101_392, super::MAX_ID] {
            assert_eq!(super::id(&super::name(v)), Some(v));
        }
        for t in [
            "inst_id_",
            "inst_id_01",
            "inst_id_12a",
            "inst_id_16777216",
            "inst_4A1B2C3D",
            "inst_7",
            "x_1",
        ] {
            assert_eq!(super::id(t), None, "{t}");
        }
    }
}
