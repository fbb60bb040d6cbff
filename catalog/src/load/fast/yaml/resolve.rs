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
    first == b'~' || GO_YAML_WORDS.contains(&s)
}

/// The boolean and null spellings of go-yaml v2, which opm reads catalogs with
/// (YAML 1.1): each word in lower case, capitalised or upper case. Other
/// spellings (`nO`, `tRUE`) are strings to it. The general parser reads those
/// as booleans too; the fast path follows go-yaml, so that a catalog olmsat or
/// opm writes (such words are written plain) reads back unchanged.
const GO_YAML_WORDS: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
    "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL",
];

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
    serde_saphyr::from_str_with_options::<YamlDoc>(
        text,
        olmsat_encoding::stream::yaml::options(
            olmsat_encoding::stream::yaml::DuplicateKeys::Refuse,
        ),
    )
    .ok()
}

/// Whether JSON needs `c` escaped.
fn escaped_in_json(c: u8) -> bool {
    (c < 0x20) | (c == b'"') | (c == b'\\')
}

/// The position of the first byte JSON needs escaped.
fn first_escaped(b: &[u8]) -> Option<usize> {
    const CHUNK: usize = 16;
    let mut i = 0;
    // Whole chunks needing no escape are skipped with a branch-free test.
    while let Some(chunk) = b
        .get(i..i + CHUNK)
        .and_then(|c| <&[u8; CHUNK]>::try_from(c).ok())
    {
        if chunk.iter().fold(false, |any, &c| any | escaped_in_json(c)) {
            break;
        }
        i += CHUNK;
    }
    b.get(i..)?
        .iter()
        .position(|&c| escaped_in_json(c))
        .map(|k| i + k)
}

/// Append `s` as a JSON string, escaped exactly as serde_json escapes it.
pub(super) fn push_json_str(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let mut rest = s;
    while let Some(k) = first_escaped(rest.as_bytes()) {
        // `k` is at an ASCII byte, so both slices are on character boundaries.
        let (plain, tail) = rest.split_at(k);
        out.push_str(plain);
        let c = tail.as_bytes()[0];
        match c {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => {
                let _ = write!(out, "\\u{c:04x}");
            }
        }
        rest = &tail[1..];
    }
    out.push_str(rest);
    out.push('"');
}
