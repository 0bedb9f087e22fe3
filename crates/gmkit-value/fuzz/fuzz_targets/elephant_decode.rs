//! Fuzzes every Elephant decoder: buffers (current and legacy layouts, with a schema registry),
//! the serde deserializer, tagged JSON output, re-encoding, and export strings.
//!
//! `cargo +nightly fuzz run elephant_decode`
#![no_main]

use gmkit_value::elephant::{self, NoCallbacks, ReadOptions, SchemaRegistry};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn schemas() -> &'static SchemaRegistry {
    static S: OnceLock<SchemaRegistry> = OnceLock::new();
    S.get_or_init(|| {
        SchemaRegistry::from_json_str(
            r#"{"TestConstructor": {"v1": {"a": 204, "b": 9}},
                "D": {"v1": {"a": 1, "b": 1}},
                "AllTypes": {"v3": {"a_u8": 1, "b_s8": 2, "c_u16": 3, "d_s16": 4, "e_u32": 5,
                  "f_s32": 6, "g_f16": 7, "h_f32": 8, "i_f64": 9, "j_bool": 10, "k_string": 11,
                  "l_u64": 12, "m_text": 13, "n_any": 204, "o_array": 205, "p_struct": 206,
                  "q_undef": 207}}}"#,
        )
        .expect("valid schemas")
    })
}

fuzz_target!(|data: &[u8]| {
    let reg = schemas();
    for legacy in [false, true] {
        let opts = ReadOptions {
            schemas: Some(reg),
            legacy_atmc: legacy,
            ..Default::default()
        };
        if let Ok((v, _)) = elephant::read_with(data, &opts, &mut NoCallbacks) {
            let _ = elephant::tagged::to_tagged(&v, Some(reg));
            if let Ok(bytes) = elephant::write(&v) {
                // What we write we must read back.
                let back = elephant::read_with(&bytes, &opts, &mut NoCallbacks)
                    .expect("re-encoded data decodes");
                assert!(back.0 == v, "re-encoded data decodes to the same value");
            }
        }
    }
    let _ = elephant::from_bytes_with::<serde::de::IgnoredAny>(data, Some(reg));
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = elephant::import_string(s);
    }
});
