//! Text from catalogs, bundles, images and dumps made safe to print on a
//! terminal: control characters are written as escapes, so that a name
//! holding `ESC` or `BEL` cannot retitle, recolour or clear the reader's
//! terminal.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` must be escaped in text that may hold line breaks and tabs.
fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_invisible_format(c)
}

/// Unicode format characters that reorder or hide text (bidirectional
/// overrides and isolates): the "Trojan Source" characters.
fn is_invisible_format(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn escaped(text: &str, also: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(|c| is_unsafe(c) || also(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) || also(c) {
            let n = u32::from(c);
            if n < 0x80 {
                let _ = write!(out, "\\x{n:02x}");
            } else {
                let _ = write!(out, "\\u{{{n:x}}}");
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` with every control character but line feed and tab written as an
/// escape (`\x1b`, `\x07`, `\u{9b}`), and the bidirectional override
/// characters too. Text without them is returned as it is.
///
/// ```
/// assert_eq!(olmsat_io::terminal("a\tb\n"), "a\tb\n");
/// assert_eq!(olmsat_io::terminal("\u{1b}[2J"), "\\x1b[2J");
/// ```
pub fn terminal(text: &str) -> Cow<'_, str> {
    escaped(text, |_| false)
}

/// As [`terminal`], and line feeds and tabs escaped too: for a value printed
/// within one line (a name in a table), so that it cannot forge lines.
///
/// ```
/// assert_eq!(olmsat_io::terminal_line("a\nb"), "a\\x0ab");
/// ```
pub fn terminal_line(text: &str) -> Cow<'_, str> {
    escaped(text, |c| c == '\n' || c == '\t')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_the_rest_kept() {
        assert!(matches!(terminal("plain text ✓"), Cow::Borrowed(_)));
        assert_eq!(
            terminal("\u{0}\u{7f}\u{85}\u{9b}"),
            "\\x00\\x7f\\u{85}\\u{9b}"
        );
        assert_eq!(terminal("a\u{202e}b"), "a\\u{202e}b");
        assert_eq!(terminal("\r"), "\\x0d");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        #[test]
        fn nothing_unsafe_is_left(s in "\\PC*|[\\x00-\\x1f\\x7f-\\u{9f}a]*") {
            let out = terminal(&s);
            proptest::prop_assert!(out.chars().all(|c| !is_unsafe(c)));
            let line = terminal_line(&s);
            proptest::prop_assert!(line.chars().all(|c| !c.is_control()));
        }
    }
}
