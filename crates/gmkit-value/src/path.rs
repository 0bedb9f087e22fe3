//! Paths into a Rust value for serde error messages: field names and `[index]`es from the
//! root (`player.inventory[3].count`), built as an error travels up.

/// Prepends `[i]` (an element index or a non-string map key) to a path.
pub(crate) fn prepend_index(path: &mut String, i: impl std::fmt::Display) {
    if !path.is_empty() && !path.starts_with('[') {
        path.insert(0, '.');
    }
    path.insert_str(0, &format!("[{i}]"));
}

/// Prepends a field (or string map key) name to a path.
pub(crate) fn prepend_field(path: &mut String, name: &str) {
    if !path.is_empty() && !path.starts_with('[') {
        path.insert(0, '.');
    }
    path.insert_str(0, name);
}

/// `"{path}: "`, or nothing for the root.
pub(crate) fn prefix(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!("{path}: ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_like_rust_access() {
        let mut p = String::new();
        prepend_field(&mut p, "count");
        prepend_index(&mut p, 3);
        prepend_field(&mut p, "inventory");
        prepend_field(&mut p, "player");
        assert_eq!(p, "player.inventory[3].count");
        assert_eq!(prefix(&p), "player.inventory[3].count: ");
        assert_eq!(prefix(""), "");
    }
}
