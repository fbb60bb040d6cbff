//! blang's preprocessing of a range text, step by step: `splitAndTrim`,
//! `splitORParts`, `expandWildcardVersion`, `splitComparatorVersion` and
//! `buildVersionRange`.

use super::super::version::{self, go_quote};
use super::{Comparator, Op, RangeError};

/// blang `splitAndTrim`: splits on ASCII spaces, except a space that follows
/// (possibly after other spaces) a `<`, `>` or `=`; drops tokens of one byte;
/// removes the spaces left inside tokens. The flag tells whether a non-empty
/// one-byte token was dropped.
pub(super) fn split_and_trim(s: &str) -> (Vec<String>, bool) {
    let bytes = s.as_bytes();
    let mut result = Vec::new();
    let mut dropped = false;
    let mut last = 0usize;
    let mut last_char = 0u8;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b' ' && !matches!(last_char, b'>' | b'<' | b'=') {
            // Go: `if last < i-1`.
            if last + 1 < i {
                result.push(&s[last..i]);
            } else if last + 1 == i {
                dropped = true;
            }
            last = i + 1;
        } else if b != b' ' {
            last_char = b;
        }
    }
    // Go: `if last < len(s)-1`.
    if last + 1 < bytes.len() {
        result.push(&s[last..]);
    } else if last + 1 == bytes.len() {
        dropped = true;
    }
    let result = result.into_iter().map(|t| t.replace(' ', "")).collect();
    (result, dropped)
}

/// blang `splitORParts`.
pub(super) fn split_or_parts(parts: Vec<String>) -> Result<Vec<Vec<String>>, RangeError> {
    let mut or_parts = Vec::new();
    let mut current = Vec::new();
    let n = parts.len();
    let mut last = 0usize;
    for (i, p) in parts.into_iter().enumerate() {
        if p == "||" {
            if i == 0 {
                return Err(RangeError::new("First element in range is '||'"));
            }
            or_parts.push(std::mem::take(&mut current));
            last = i + 1;
        } else {
            current.push(p);
        }
    }
    if last == n {
        return Err(RangeError::new("Last element in range is '||'"));
    }
    or_parts.push(current);
    Ok(or_parts)
}

/// Starts of the runs of ten Unicode 15.0 decimal digits (category `Nd`), as
/// Go's `unicode.IsDigit` sees them.
pub(super) const ND_ZEROS: &[u32] = &[
    0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
    0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80,
    0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
    0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0,
    0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x11F50, 0x16A60,
    0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E4F0,
    0x1E950, 0x1FBF0,
];

/// Go `unicode.IsDigit`.
pub(super) fn go_is_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    let u = c as u32;
    ND_ZEROS.iter().any(|&z| (z..z + 10).contains(&u))
}

/// blang `splitComparatorVersion`: the operator is everything before the
/// first decimal digit (trimmed), the version the rest.
pub(super) fn split_comparator_version(s: &str) -> Result<(&str, &str), RangeError> {
    match s.char_indices().find(|&(_, c)| go_is_digit(c)) {
        Some((i, _)) => Ok((s[..i].trim(), &s[i..])),
        None => Err(RangeError::new(format!(
            "Could not get version from string: {}",
            go_quote(s)
        ))),
    }
}

/// blang `wildcardType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WildcardType {
    None,
    Major,
    Minor,
    Patch,
}

/// blang `getWildcardType`.
fn get_wildcard_type(v: &str) -> WildcardType {
    let parts: Vec<&str> = v.split('.').collect();
    if parts.last() != Some(&"x") {
        return WildcardType::None;
    }
    match parts.len() {
        1 => WildcardType::Major,
        2 => WildcardType::Minor,
        3 => WildcardType::Patch,
        _ => WildcardType::None,
    }
}

/// blang `createVersionFromWildcard`.
fn create_version_from_wildcard(v: &str) -> String {
    let v2 = v.replacen(".x.x", ".x", 1);
    let v2 = v2.replacen(".x", ".0", 1);
    if v2.split('.').count() == 2 {
        format!("{v2}.0")
    } else {
        v2
    }
}

/// Go `strconv.Atoi` on a 64-bit platform.
pub(super) fn go_atoi(s: &str) -> Option<i64> {
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() {
        return None;
    }
    let mut n: i64 = 0;
    for b in digits.bytes() {
        if !b.is_ascii_digit() {
            return None;
        }
        let d = i64::from(b - b'0');
        n = n.checked_mul(10)?;
        n = if negative {
            n.checked_sub(d)?
        } else {
            n.checked_add(d)?
        };
    }
    Some(n)
}

/// blang `incrementMajorVersion` / `incrementMinorVersion`: adds one (with Go's
/// wrapping `int` arithmetic) to the dot-separated part `index`; `None` where
/// blang returns an error (and then uses the empty string).
fn increment_part(v: &str, index: usize) -> Option<String> {
    let mut parts: Vec<String> = v.split('.').map(str::to_string).collect();
    let part = parts.get_mut(index)?;
    let n = go_atoi(part)?;
    *part = n.wrapping_add(1).to_string();
    Some(parts.join("."))
}

/// blang `expandWildcardVersion`, applied to every token that contains an `x`.
pub(super) fn expand_wildcard_version(
    parts: Vec<Vec<String>>,
) -> Result<Vec<Vec<String>>, RangeError> {
    let mut expanded = Vec::with_capacity(parts.len());
    for group in parts {
        let mut new_parts = Vec::with_capacity(group.len());
        for ap in group {
            if !ap.contains('x') {
                new_parts.push(ap);
                continue;
            }
            let (op_str, v_str) = split_comparator_version(&ap)?;
            let wildcard = get_wildcard_type(v_str);
            let flat = create_version_from_wildcard(v_str);
            let (result_op, increment) = match op_str {
                ">" => (">=", true),
                ">=" => (">=", false),
                "<" => ("<", false),
                "<=" => ("<", true),
                "" | "=" | "==" => {
                    new_parts.push(format!(">={flat}"));
                    ("<", true)
                }
                "!=" | "!" => {
                    new_parts.push(format!("<{flat}"));
                    (">=", true)
                }
                _ => ("", false),
            };
            let result_version = if increment {
                match wildcard {
                    WildcardType::Patch => increment_part(&flat, 1).unwrap_or_default(),
                    WildcardType::Minor => increment_part(&flat, 0).unwrap_or_default(),
                    WildcardType::Major | WildcardType::None => String::new(),
                }
            } else {
                flat
            };
            new_parts.push(format!("{result_op}{result_version}"));
        }
        expanded.push(new_parts);
    }
    Ok(expanded)
}

/// blang `buildVersionRange`, called by `ParseRange` for the comparator
/// `part`; the error is `ParseRange`'s (`Could not parse Range "…": …`).
pub(super) fn build_version_range(
    part: &str,
    op_str: &str,
    v_str: &str,
) -> Result<Comparator, RangeError> {
    let in_range =
        |e: String| RangeError::new(format!("Could not parse Range {}: {}", go_quote(part), e));
    let op = Op::parse(op_str).ok_or_else(|| {
        in_range(format!(
            "Could not parse comparator {} in {}",
            go_quote(op_str),
            go_quote(&format!("{op_str}{v_str}"))
        ))
    })?;
    let version = version::parse_strict(v_str).map_err(|e| {
        in_range(format!(
            "Could not parse version {} in {}: {}",
            go_quote(v_str),
            go_quote(&format!("{op_str}{v_str}")),
            e
        ))
    })?;
    Ok(Comparator { op, version })
}

/// Whether `text` parses but blang reads it differently from what its author
/// very likely meant: a one-byte token was dropped (as in the hyphen range
/// `1.0.0 - 2.0.0`), a wildcard has an operator blang does not know (`~1.x`
/// becomes `=1.0.0`), `M.x.x` (blang reads `M.0.x`), or `!=` with a wildcard
/// (blang's expansion matches nothing).
pub(super) fn misread_by_blang(text: &str) -> bool {
    let (parts, dropped) = split_and_trim(text);
    dropped
        || parts.iter().any(|p| {
            if !p.contains('x') {
                return false;
            }
            let Ok((op, v)) = split_comparator_version(p) else {
                return false;
            };
            let wildcard = get_wildcard_type(v);
            match Op::parse(op) {
                None => true,
                Some(Op::Ne) => wildcard != WildcardType::None,
                Some(_) => wildcard == WildcardType::Patch && v.contains(".x.x"),
            }
        })
}
