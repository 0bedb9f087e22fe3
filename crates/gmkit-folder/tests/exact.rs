//! Exactness of unpack → pack (issue 15): no value of a file that parses is lost on the way
//! through the folder. F17 (NaN and infinite floats), and the classes the mutation sweep found
//! (`tests/mutation_roundtrip.rs`).

use gmkit_data::serde_support::float::{F32, F64, Width, non_finite_text, parse_text};
use gmkit_folder::roundtrip::{Outcome, round_trip};

/// The JSON text of an `f32` and of an `f64` with these bits.
fn json32(bits: u32) -> String {
    serde_json::to_string(&F32(f32::from_bits(bits))).unwrap()
}
fn json64(bits: u64) -> String {
    serde_json::to_string(&F64(f64::from_bits(bits))).unwrap()
}
fn back32(json: &str) -> u32 {
    serde_json::from_str::<F32>(json).unwrap().0.to_bits()
}
fn back64(json: &str) -> u64 {
    serde_json::from_str::<F64>(json).unwrap().0.to_bits()
}

#[test]
fn non_finite_floats_have_readable_lossless_forms() {
    assert_eq!(json32(f32::NAN.to_bits()), "\"NaN\"");
    assert_eq!(json32(f32::INFINITY.to_bits()), "\"inf\"");
    assert_eq!(json32(f32::NEG_INFINITY.to_bits()), "\"-inf\"");
    assert_eq!(json32(0x7FC0_0001), "\"NaN:0x7FC00001\"");
    assert_eq!(json32(0xFFC0_0000), "\"NaN:0xFFC00000\"", "negative NaN");
    assert_eq!(json32(0x7F80_0001), "\"NaN:0x7F800001\"", "signalling NaN");
    assert_eq!(json64(f64::NAN.to_bits()), "\"NaN\"");
    assert_eq!(json64(0xFFF8_0000_0000_0000), "\"NaN:0xFFF8000000000000\"");
    assert_eq!(json64(f64::NEG_INFINITY.to_bits()), "\"-inf\"");
    // Ordinary numbers are the numbers they were.
    assert_eq!(json32(1.5f32.to_bits()), "1.5");
    assert_eq!(json32((-0.0f32).to_bits()), "-0.0");
    assert_eq!(json64(0.1f64.to_bits()), "0.1");
    for bits in [
        0u32,
        0x8000_0000,
        1,
        0x3DCC_CCCD,
        0x7F7F_FFFF,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0x7FC0_0001,
        0xFFC0_0000,
        0x7F80_0001,
        0xFFFF_FFFF,
    ] {
        assert_eq!(back32(&json32(bits)), bits, "{bits:#x}");
        // Through serde_json's Value too, as the folder does.
        let v = serde_json::to_value(F32(f32::from_bits(bits))).unwrap();
        assert_eq!(serde_json::from_value::<F32>(v).unwrap().0.to_bits(), bits);
    }
    for bits in [
        0u64,
        1 << 63,
        0x7FF8_0000_0000_0001,
        0xFFF8_0000_0000_0000,
        0x7FF0_0000_0000_0001,
    ] {
        assert_eq!(back64(&json64(bits)), bits, "{bits:#x}");
    }
    // Reading is forgiving about case and accepts numbers as text; a non-NaN hex form is refused.
    assert_eq!(back32("\"nan\""), f32::NAN.to_bits());
    assert_eq!(back32("\"nan:0x7fc00002\""), 0x7FC0_0002);
    assert_eq!(back32("\"-Infinity\""), f32::NEG_INFINITY.to_bits());
    assert_eq!(back32("\"2.5\""), 2.5f32.to_bits());
    assert_eq!(back32("3"), 3.0f32.to_bits());
    assert_eq!(
        parse_text("NaN:0x3F800000", Width::F32),
        None,
        "1.0 is not a NaN"
    );
    assert_eq!(
        parse_text("NaN:0x1FFC00000", Width::F32),
        None,
        "too many digits"
    );
    assert_eq!(non_finite_text(1.0f64.to_bits(), Width::F64), None);
    let e = serde_json::from_str::<F32>("\"fast\"")
        .unwrap_err()
        .to_string();
    assert!(e.contains("\"fast\"") && e.contains("NaN:0x"), "{e}");
}

/// Every float field of the model goes through the lossless helper: a field declared `f32`/`f64`
/// (alone or inside Option, Vec, arrays, pairs) without it would lose NaN again.
#[test]
fn every_float_of_the_model_uses_the_lossless_helper() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../gmkit-data/src/chunks");
    let mut missing = Vec::new();
    let mut seen = 0;
    let mut stack = vec![src];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            for (k, l) in lines.iter().enumerate() {
                let t = l.trim();
                // A field declaration: `name: Type,` or a tuple-variant field `f32,`.
                let is_decl = (t.ends_with(',') && !t.contains('(')
                    || t.contains(": Option<(")
                    || t.contains(": Vec<("))
                    && !t.starts_with("//")
                    && !t.contains(" = ")
                    && !t.contains("=>")
                    && t.split(':')
                        .nth(1)
                        .unwrap_or(t)
                        .split(['<', '>', '(', ')', '[', ']', ';', ',', ' '])
                        .any(|w| w == "f32" || w == "f64")
                    && (t.contains(": ") || t == "f32," || t == "f64,");
                if !is_decl {
                    continue;
                }
                seen += 1;
                let prev = if k > 0 { lines[k - 1] } else { "" };
                if !prev.contains("serde_support::float") {
                    missing.push(format!("{}:{}: {t}", p.display(), k + 1));
                }
            }
        }
    }
    assert!(
        seen > 50,
        "only {seen} float fields found: the scan is broken"
    );
    assert!(
        missing.is_empty(),
        "float fields without `serde(with = \"crate::serde_support::float\")`:\n{}",
        missing.join("\n")
    );
}

/// F17: NaN and ±inf floats (with their payloads) unpack to readable strings and pack back to
/// the same bits.
#[test]
fn f17_nan_and_infinite_floats_survive_unpack_and_pack() {
    let Some(path) = gmkit_testdata::repro_path("round2/unpack-nan-inf-float-null.win") else {
        return;
    };
    let bytes = std::fs::read(&path).unwrap();
    match round_trip(&bytes) {
        Ok(Outcome::Identical) => {}
        other => panic!("{}: {other:?}", path.display()),
    }
    let data = gmkit_data::parse_bytes(bytes).unwrap();
    let folder = gmkit_folder::unpack(&gmkit_folder::Game {
        data,
        audio_groups: Vec::new(),
    })
    .unwrap();
    let all: String = folder
        .files
        .iter()
        .filter(|(p, _)| p.ends_with(".json"))
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .collect();
    // The file's non-finite floats (a rotation and a scale) read as text, not `null`.
    let n = ["\"NaN", "\"inf\"", "\"-inf\""]
        .iter()
        .map(|f| all.matches(f).count())
        .sum::<usize>();
    assert!(
        n >= 2,
        "{n} non-finite floats written as text in the folder's JSON"
    );
}

/// A mutated corpus file (what the sweep's mutant names): `edit` changes its bytes.
fn mutant(name: &str, edit: impl FnOnce(&mut Vec<u8>)) -> Option<Vec<u8>> {
    let mut b = gmkit_testdata::corpus_file(name)?;
    edit(&mut b);
    Some(b)
}

/// Sweep class: a root code entry with a non-zero execution offset lost the instructions
/// before it (its text started there). gamespacerocks.win has one entry, its header's
/// execution offset (the last field) at byte 8236.
#[test]
fn root_code_entry_with_an_execution_offset_keeps_all_its_instructions() {
    let Some(b) = mutant("gamespacerocks.win", |b| {
        b[8236..8240].copy_from_slice(&4u32.to_le_bytes())
    }) else {
        return;
    };
    match round_trip(&b) {
        Ok(Outcome::Identical) => {}
        other => panic!("{other:?}"),
    }
}

/// Sweep class: a `call` whose unused second type nibble is set rebuilt identically from its
/// stored blob but lost the nibble through the assembly text: strict parsing now refuses it, like
/// every other unused bit of an instruction.
#[test]
fn call_with_a_second_type_is_refused_by_strict_parsing() {
    let Some(b) = mutant("runic-blade.win", |b| b[323258] = 0x53) else {
        return;
    };
    match round_trip(&b) {
        Ok(Outcome::NotChecked(why)) => assert!(why.contains("second type of call"), "{why}"),
        other => panic!("{other:?}"),
    }
    let lenient = gmkit_data::parse_bytes_with(
        b.clone(),
        &gmkit_data::ParseOptions {
            lenient: true,
            ..Default::default()
        },
    );
    assert!(lenient.is_ok(), "lenient parsing keeps the chunk as bytes");
}
