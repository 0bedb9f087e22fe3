//! Helpers shared by the folder tests that read code entries wherever the layout puts them.
#![allow(dead_code)]

use gmkit_folder::Folder;
use serde_json::Value;

/// Every code entry's text with extension `ext` (wherever the layout puts it) and its header.
pub fn entry_texts(f: &Folder, ext: &str) -> Vec<(String, Value)> {
    gmkit_folder::code::entry_files(f, "")
        .into_iter()
        .map(|e| (format!("{}.{ext}", e.stem), e.header))
        .filter(|(p, _)| f.get(p).is_some())
        .collect()
}

/// The header record of the code entry whose text is at `path`.
pub fn header_of(f: &Folder, path: &str) -> Value {
    let stem = path.rsplit_once('.').unwrap().0;
    gmkit_folder::code::entry_files(f, "")
        .into_iter()
        .find(|e| e.stem == stem)
        .unwrap_or_else(|| panic!("no entry for {path}"))
        .header
}
