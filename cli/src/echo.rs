//! Values echoed back in error messages. A CLI error is one line (the exit-code rule), so a value
//! the user passed is shown with its control characters escaped (`\n`, `\t`, `\u{1b}`): a newline
//! inside a flag's value cannot split the message or forge a second line on the terminal.

/// `text` with every control character and Unicode line or paragraph separator escaped as Rust
/// writes it; everything else unchanged.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || c == '\u{2028}' || c == '\u{2029}' {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        for (raw, shown) in [
            ("plain 'text' é", "plain 'text' é"),
            ("a\nb", "a\\nb"),
            ("a\r\n\tb", "a\\r\\n\\tb"),
            ("\u{1b}[31mred", "\\u{1b}[31mred"),
            ("\u{7f}", "\\u{7f}"),
            ("line\u{2028}sep", "line\\u{2028}sep"),
        ] {
            assert_eq!(escape(raw), shown, "{raw:?}");
        }
    }
}
