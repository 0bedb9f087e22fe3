//! Text from the input as error messages show it: one line, control characters escaped, long
//! text cut. Every crate of gmkit quotes names, paths and snippets through these two functions,
//! so a hostile name can neither break a message over lines nor fill a screen.

/// `text` made printable on one line: control characters (newlines, escapes, NUL, ...) written
/// as `\n`, `\u{1b}`, ...; cut after `max` characters with `…` and the number left out.
pub fn one_line(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max.saturating_mul(4)) + 32);
    for (shown, (at, c)) in text.char_indices().enumerate() {
        if shown >= max {
            let rest = text[at..].chars().count();
            out.push_str(&format!("… ({rest} more characters)"));
            break;
        }
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` in double quotes, escaped like a Rust string (control characters, quotes and
/// backslashes), cut after `max` characters with `…` and the number left out.
pub fn quoted(text: &str, max: usize) -> String {
    let head: String = text.chars().take(max).collect();
    if head.len() < text.len() {
        let rest = text[head.len()..].chars().count();
        format!("{head:?}… ({rest} more characters)")
    } else {
        format!("{head:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_long_text_cut() {
        assert_eq!(one_line("a\nb\u{1b}", 10), "a\\nb\\u{1b}");
        assert_eq!(one_line("abcdef", 3), "abc… (3 more characters)");
        assert_eq!(quoted("a\"b\n", 10), "\"a\\\"b\\n\"");
        assert_eq!(quoted("abcdef", 3), "\"abc\"… (3 more characters)");
    }
}
