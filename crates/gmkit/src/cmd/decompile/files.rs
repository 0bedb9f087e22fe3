//! File names for code entries written by `decompile -o`.
//!
//! Entry names come from the data file, so they may hold anything: separators, control
//! characters, names that differ only in case, duplicates, names longer than a file name may
//! be. Each entry gets its own file, and the same one on every run:
//!
//! - a name made only of safe characters, not reserved, not too long, and the first (by entry
//!   index) of the names that equal it ignoring case, is kept: `<entry>.gml`;
//! - any other name has its unsafe characters replaced by `_`, is shortened to fit, and gets
//!   its entry index after a `~` (a character no kept name contains): `<safe>~<index>.gml`.

use std::collections::HashMap;

/// Longest file name written, in bytes: under the 255 of common file systems, with room for
/// the temporary name used while writing.
pub const MAX_FILE_NAME: usize = 200;

/// The extension of written files.
const EXT: &str = ".gml";

/// Whether `c` may appear in a kept file name.
fn safe_char(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric() || "_-.@$()[]{}+=,;!#%&'".contains(c)
    } else {
        c.is_alphanumeric()
    }
}

/// Names Windows reserves for devices, with any extension (`CON`, `nul.txt`).
fn reserved(name: &str) -> bool {
    let base = name.split('.').next().unwrap_or("").to_ascii_uppercase();
    matches!(base.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || (base.len() == 4
            && (base.starts_with("COM") || base.starts_with("LPT"))
            && base.as_bytes()[3].is_ascii_digit())
}

/// Whether `name` can be a file stem as it is.
fn clean(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && !name.ends_with('.')
        && name.len() + EXT.len() <= MAX_FILE_NAME
        && name.chars().all(safe_char)
        && !reserved(name)
}

/// `name` with unsafe characters replaced, shortened to leave room for `suffix`.
fn sanitised(name: &str, suffix: &str) -> String {
    let room = MAX_FILE_NAME - EXT.len() - suffix.len();
    let mut s = String::new();
    for (k, c) in name.chars().enumerate() {
        let c = if safe_char(c) && !(k == 0 && c == '.') {
            c
        } else {
            '_'
        };
        if s.len() + c.len_utf8() > room {
            break;
        }
        s.push(c);
    }
    s
}

/// The file name of every entry of `names` (indexed like them): distinct, also ignoring case,
/// at most [`MAX_FILE_NAME`] bytes, and the same for the same list of names.
pub fn file_names<S: AsRef<str>>(names: &[S]) -> Vec<String> {
    let mut first: HashMap<String, usize> = HashMap::new();
    for (i, n) in names.iter().enumerate() {
        let n = n.as_ref();
        if clean(n) {
            first.entry(n.to_lowercase()).or_insert(i);
        }
    }
    names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let n = n.as_ref();
            if clean(n) && first.get(&n.to_lowercase()) == Some(&i) {
                format!("{n}{EXT}")
            } else {
                let suffix = format!("~{i}");
                format!("{}{suffix}{EXT}", sanitised(n, &suffix))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_names_are_kept_and_the_rest_made_distinct() {
        let long = "A".repeat(300);
        let names = [
            "gml_Script_a/b",
            "gml_Script_a_b",
            "gml_Script_a:b",
            "dup",
            "dup",
            "Same",
            "same",
            "CON",
            "nul\0byte../",
            "trail. ",
            "",
            ".hidden",
            long.as_str(),
            "gml_Script_f@gml_Object_o_Create_0",
        ];
        let f = file_names(&names);
        assert_eq!(
            f[..8],
            [
                "gml_Script_a_b~0.gml",
                "gml_Script_a_b.gml",
                "gml_Script_a_b~2.gml",
                "dup.gml",
                "dup~4.gml",
                "Same.gml",
                "same~6.gml",
                "CON~7.gml",
            ]
        );
        assert_eq!(f[8], "nul_byte.._~8.gml");
        assert_eq!(f[9], "trail._~9.gml");
        assert_eq!(f[10], "~10.gml");
        assert_eq!(f[11], "_hidden~11.gml");
        assert_eq!(f[12], format!("{}~12.gml", "A".repeat(MAX_FILE_NAME - 7)));
        assert_eq!(f[13], "gml_Script_f@gml_Object_o_Create_0.gml");
        let mut lower: Vec<String> = f.iter().map(|s| s.to_lowercase()).collect();
        lower.sort();
        lower.dedup();
        assert_eq!(lower.len(), names.len());
        assert!(f.iter().all(|n| n.len() <= MAX_FILE_NAME));
    }
}
