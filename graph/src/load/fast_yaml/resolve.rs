//! Typing plain scalars and writing JSON text.
//!
//! A plain scalar that could be a number, a boolean or a null is typed by the
//! general parser itself (on a one-line document holding just that scalar), so
//! the typing rules cannot drift from it; every other plain scalar is a string.

use std::fmt::Write as _;

use crate::load::doc::YamlDoc;

/// Whether a plain scalar might resolve to something other than a string, so
/// that it must be resolved by the general parser. Strings with a space, a line
/// break, two dots or any character a number cannot hold are always strings,
/// as is anything starting with a letter other than the null and boolean
/// spellings.
pub(super) fn needs_resolution(s: &str) -> bool {
    let b = s.as_bytes();
    let Some(&first) = b.first() else {
        return true;
    };
    if matches!(first, b'0'..=b'9' | b'+' | b'-' | b'.') {
        let mut dots = 0;
        for &c in b {
            match c {
                b'.' => dots += 1,
                b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'+' | b'-' => {}
                _ => return false,
            }
        }
        return dots < 2;
    }
    first == b'~'
        || (s.len() <= 5
            && ["y", "yes", "n", "no", "true", "false", "on", "off", "null"]
                .iter()
                .any(|w| s.eq_ignore_ascii_case(w)))
}

/// Write a plain scalar as JSON.
pub(super) fn write_plain(out: &mut String, s: &str) -> Option<()> {
    match s {
        "true" | "false" | "null" => out.push_str(s),
        _ if is_small_decimal(s) => out.push_str(s),
        _ if needs_resolution(s) => out.push_str(&resolve_value(s)?),
        _ => push_json_str(out, s),
    }
    Some(())
}

/// `0` or a decimal integer without a leading zero that fits in 18 digits.
fn is_small_decimal(s: &str) -> bool {
    let b = s.as_bytes();
    s == "0"
        || (!b.is_empty() && b.len() <= 18 && b[0] != b'0' && b.iter().all(|c| c.is_ascii_digit()))
}

/// The JSON the general parser makes of the plain scalar `s` as a value.
fn resolve_value(s: &str) -> Option<String> {
    match general(&format!("k: {s}\n"))? {
        YamlDoc::Object { mut fields, .. } if fields.len() == 1 => fields.pop().map(|f| f.1),
        _ => None,
    }
}

/// The name the general parser gives the plain scalar `s` as a mapping key.
pub(super) fn resolve_key(s: &str) -> Option<String> {
    match general(&format!("{s}: 0\n"))? {
        YamlDoc::Object { mut fields, .. } if fields.len() == 1 => fields.pop().map(|f| f.0),
        _ => None,
    }
}

fn general(text: &str) -> Option<YamlDoc> {
    serde_saphyr::from_str_with_options::<YamlDoc>(text, crate::load::yaml_options(false)).ok()
}

/// Append `s` as a JSON string, escaped exactly as serde_json escapes it.
pub(super) fn push_json_str(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let b = s.as_bytes();
    let mut run = 0;
    let mut i = 0;
    while i < b.len() {
        // Skip 16 bytes at a time while none needs escaping.
        if let Some(chunk) = b.get(i..i + 16) {
            let mut special = false;
            for &c in chunk {
                special |= (c < 0x20) | (c == b'"') | (c == b'\\');
            }
            if !special {
                i += 16;
                continue;
            }
        }
        let c = b[i];
        let esc: &str = match c {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\t' => "\\t",
            b'\r' => "\\r",
            0x08 => "\\b",
            0x0c => "\\f",
            0x00..=0x1f => "",
            _ => {
                i += 1;
                continue;
            }
        };
        // `i` is at an ASCII byte, so both slices end on character boundaries.
        out.push_str(&s[run..i]);
        if esc.is_empty() {
            let _ = write!(out, "\\u{c:04x}");
        } else {
            out.push_str(esc);
        }
        i += 1;
        run = i;
    }
    out.push_str(&s[run..]);
    out.push('"');
}
