//! How code names a room's instance. From 2023.8 code references one with `pushref.i
//! [roominstance]<id>`; the data file keeps no name for it (the IDE's `inst_…` names are
//! compiled away), so GML text names it `inst_<id>`, the instance id in decimal, which the
//! compiler reads back as that reference.

/// The largest id a `pushref` operand holds (24 bits).
const MAX_ID: u32 = 0xFF_FFFF;

/// The GML name of room instance `id`: `inst_101392`.
pub fn name(id: u32) -> String {
    format!("inst_{id}")
}

/// The room instance id `text` names (`inst_` and a decimal id without leading zeros that a
/// `pushref` operand can hold), if it names one.
pub fn id(text: &str) -> Option<u32> {
    let digits = text.strip_prefix("inst_")?;
    if digits.is_empty()
        || digits.len() > 8
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || (digits.len() > 1 && digits.starts_with('0'))
    {
        return None;
    }
    digits.parse().ok().filter(|&v| v <= MAX_ID)
}

#[cfg(test)]
mod tests {
    #[test]
    fn name_and_id_mirror() {
        for v in [0, 7, 100_000, 101_392, super::MAX_ID] {
            assert_eq!(super::id(&super::name(v)), Some(v));
        }
        for t in [
            "inst_",
            "inst_01",
            "inst_12a",
            "inst_16777216",
            "inst_4A1B2C3D",
            "x_1",
        ] {
            assert_eq!(super::id(t), None, "{t}");
        }
    }
}
