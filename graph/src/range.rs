//! Version ranges with the exact semantics of blang/semver v4.0.0
//! `semver.ParseRange`, which OLM uses for `olm.skipRange` and for the
//! `versionRange` of `olm.package.required`.
//!
//! The grammar, as blang implements it:
//!
//! ```text
//! range      := and_set ( "||" and_set )*      ; "||" is its own token
//! and_set    := comparator ( " "+ comparator )* ; AND binds tighter than OR
//! comparator := op version                     ; spaces after an operator are dropped
//! op         := "" | "=" | "==" | "!" | "!=" | ">" | ">=" | "<" | "<="
//! version    := MAJOR.MINOR.PATCH[-pre][+build] (strict), or a wildcard
//!               1.x / 1.x.x / 1.2.x (lowercase x only)
//! ```
//!
//! The parser reproduces blang's preprocessing step by step (`splitAndTrim`,
//! `splitORParts`, `expandWildcardVersion`, `splitComparatorVersion`,
//! `buildVersionRange`), including its quirks:
//!
//! * only the ASCII space separates comparators; a space right after `<`, `>`
//!   or `=` does not, and any token of a single byte is silently dropped (so
//!   `1.0.0 - 2.0.0` means `1.0.0 2.0.0`, which matches nothing);
//! * every comparator that contains the letter `x` anywhere (even in a
//!   prerelease such as `-fix`) goes through wildcard expansion: `>=1.0.0-fix`
//!   and `<1.0.0-fix` still work, but `1.0.0-fix`, `>1.0.0-fix`, `<=1.0.0-fix`
//!   and `!=1.0.0-fix` are errors (`Could not get version from string: "<"`);
//! * `1.x.x` expands like a patch wildcard of `1.0.x` (`>=1.0.0 <1.1.0`);
//! * `!=1.2.x` expands to `<1.2.0 >=1.3.0` in the same AND group, which matches
//!   nothing;
//! * a wildcard with an unknown operator becomes an equality: `~1.x` is
//!   `=1.0.0`, `^1.2.x` is `=1.2.0`;
//! * the operator is everything before the first Unicode decimal digit.
//!
//! Matching uses blang's `Compare`: build metadata is ignored and prereleases
//! are not excluded (`>=1.0.0 <2.0.0` matches `1.5.0-rc.1`).
//!
//! One deliberate difference: blang v4.0.0 accepts an empty AND group
//! (`1.0.0 || || 2.0.0`) and then panics with a nil function call when it is
//! evaluated; this parser rejects it with blang master's error `empty range`
//! (only when the rest of the text is valid, so that every text blang rejects
//! gets blang's own error).

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use crate::version::{self, go_quote};

/// An error from [`Range::parse`]; its `Display` text is exactly blang's
/// message, e.g. `Could not get version from string: "<"`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RangeError {
    message: String,
}

impl RangeError {
    fn new(message: impl Into<String>) -> Self {
        RangeError {
            message: message.into(),
        }
    }

    /// The error message (the same text as `Display`).
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// A comparison operator of a single comparator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// `=`, `==` or no operator: equal (build metadata ignored).
    Eq,
    /// `!` or `!=`: not equal.
    Ne,
    /// `>`: greater than.
    Gt,
    /// `>=`: greater than or equal.
    Ge,
    /// `<`: less than.
    Lt,
    /// `<=`: less than or equal.
    Le,
}

impl Op {
    /// The canonical spelling: `=`, `!=`, `>`, `>=`, `<` or `<=`.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Eq => "=",
            Op::Ne => "!=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Lt => "<",
            Op::Le => "<=",
        }
    }

    /// blang `parseComparator`.
    fn parse(s: &str) -> Option<Op> {
        match s {
            "" | "=" | "==" => Some(Op::Eq),
            "!" | "!=" => Some(Op::Ne),
            ">" => Some(Op::Gt),
            ">=" => Some(Op::Ge),
            "<" => Some(Op::Lt),
            "<=" => Some(Op::Le),
            _ => None,
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One comparator of a range after wildcard expansion, e.g. `>=1.2.0`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Comparator {
    /// The operator.
    pub op: Op,
    /// The version compared against.
    pub version: semver::Version,
}

impl Comparator {
    /// Whether `v` satisfies this comparator (blang `Compare`, build metadata
    /// ignored).
    pub fn matches(&self, v: &semver::Version) -> bool {
        let ord = version::compare(v, &self.version);
        match self.op {
            Op::Eq => ord == Ordering::Equal,
            Op::Ne => ord != Ordering::Equal,
            Op::Gt => ord == Ordering::Greater,
            Op::Ge => ord != Ordering::Less,
            Op::Lt => ord == Ordering::Less,
            Op::Le => ord != Ordering::Greater,
        }
    }
}

impl fmt::Display for Comparator {
    /// The operator followed by the version without build metadata (which
    /// never affects matching).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = &self.version;
        write!(f, "{}{}.{}.{}", self.op, v.major, v.minor, v.patch)?;
        if !v.pre.is_empty() {
            write!(f, "-{}", v.pre)?;
        }
        Ok(())
    }
}

/// A parsed blang/semver v4 range such as `>=1.2.0 <1.3.0 || >3.0.0`.
///
/// It keeps its source text ([`Range::as_str`], `Display`) next to the
/// expanded comparators ([`Range::groups`], [`Range::expanded`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Range {
    text: String,
    groups: Vec<Vec<Comparator>>,
}

impl Range {
    /// Parses `text` exactly as blang/semver v4.0.0 `ParseRange` does, with
    /// blang's error texts (see the module documentation for the quirks kept).
    ///
    /// # Errors
    ///
    /// A [`RangeError`] with blang's exact message when blang rejects `text`,
    /// or `empty range` for a text with an empty `||` group.
    pub fn parse(text: &str) -> Result<Range, RangeError> {
        let (parts, _) = split_and_trim(text);
        let or_parts = split_or_parts(parts)?;
        let expanded = expand_wildcard_version(or_parts)?;
        let mut groups = Vec::with_capacity(expanded.len());
        let mut empty_group = false;
        for group in expanded {
            let mut comparators = Vec::with_capacity(group.len());
            for ap in &group {
                let (op_str, v_str) = split_comparator_version(ap)?;
                let c = build_version_range(op_str, v_str).map_err(|e| {
                    RangeError::new(format!("Could not parse Range {}: {}", go_quote(ap), e))
                })?;
                comparators.push(c);
            }
            empty_group |= comparators.is_empty();
            groups.push(comparators);
        }
        // Reported only once everything else parsed, so that every text blang
        // rejects gets blang's own error.
        if empty_group {
            return Err(RangeError::new("empty range"));
        }
        Ok(Range {
            text: text.to_string(),
            groups,
        })
    }

    /// Whether `v` is in the range: some `||` group has all its comparators
    /// satisfied. Prereleases are not excluded.
    pub fn matches(&self, v: &semver::Version) -> bool {
        self.groups
            .iter()
            .any(|group| group.iter().all(|c| c.matches(v)))
    }

    /// The source text the range was parsed from.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The expanded comparators: one inner list (ANDed) per `||` group.
    pub fn groups(&self) -> &[Vec<Comparator>] {
        &self.groups
    }

    /// A normalized form of the range after wildcard expansion, e.g.
    /// `1.2.x || > 3.0.0` gives `>=1.2.0 <1.3.0 || >3.0.0`. Build metadata is left out
    /// (it never affects matching). The text parses back to the same
    /// comparators unless a comparator other than `>=` or `<` has an `x` in
    /// its prerelease (which only blang's quirks can produce, e.g. `~1.0.0-fix`).
    pub fn expanded(&self) -> String {
        self.groups
            .iter()
            .map(|group| {
                group
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join(" || ")
    }
}

impl fmt::Display for Range {
    /// The original source text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl FromStr for Range {
    type Err = RangeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Range::parse(s)
    }
}

/// blang `splitAndTrim`: splits on ASCII spaces, except a space that follows
/// (possibly after other spaces) a `<`, `>` or `=`; drops tokens of one byte;
/// removes the spaces left inside tokens. The flag tells whether a non-empty
/// one-byte token was dropped.
fn split_and_trim(s: &str) -> (Vec<String>, bool) {
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
fn split_or_parts(parts: Vec<String>) -> Result<Vec<Vec<String>>, RangeError> {
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
const ND_ZEROS: &[u32] = &[
    0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
    0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80,
    0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
    0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0,
    0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x11F50, 0x16A60,
    0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E4F0,
    0x1E950, 0x1FBF0,
];

/// Go `unicode.IsDigit`.
fn go_is_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    let u = c as u32;
    ND_ZEROS.iter().any(|&z| (z..z + 10).contains(&u))
}

/// blang `splitComparatorVersion`: the operator is everything before the
/// first decimal digit (trimmed), the version the rest.
fn split_comparator_version(s: &str) -> Result<(&str, &str), RangeError> {
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
fn go_atoi(s: &str) -> Option<i64> {
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
fn expand_wildcard_version(parts: Vec<Vec<String>>) -> Result<Vec<Vec<String>>, RangeError> {
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

/// blang `buildVersionRange`; the error is wrapped by the caller.
fn build_version_range(op_str: &str, v_str: &str) -> Result<Comparator, String> {
    let op = Op::parse(op_str).ok_or_else(|| {
        format!(
            "Could not parse comparator {} in {}",
            go_quote(op_str),
            go_quote(&format!("{op_str}{v_str}"))
        )
    })?;
    let version = version::parse_strict(v_str).map_err(|e| {
        format!(
            "Could not parse version {} in {}: {}",
            go_quote(v_str),
            go_quote(&format!("{op_str}{v_str}")),
            e
        )
    })?;
    Ok(Comparator { op, version })
}

/// Whether `text` parses but blang reads it differently from what its author
/// very likely meant: a one-byte token was dropped (as in the hyphen range
/// `1.0.0 - 2.0.0`), a wildcard has an operator blang does not know (`~1.x`
/// becomes `=1.0.0`), `M.x.x` (blang reads `M.0.x`), or `!=` with a wildcard
/// (blang's expansion matches nothing).
fn misread_by_blang(text: &str) -> bool {
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

/// Suggests a range that blang accepts for a range text that it rejects (or
/// silently misreads, like the hyphen range `1.0.0 - 2.0.0`, `~1.x` or
/// `1.x.x`).
///
/// Handles `v` prefixes (`>=v1.2.3` → `>=1.2.3`), partial versions (`1.2` →
/// `1.2.x`, `>=1.2` → `>=1.2.0`), `~` and `^` ranges (`~1.2.3` → `>=1.2.3
/// <1.3.0`, `^1.2.3` → `>=1.2.3 <2.0.0`), commas (`>=1.0.0, <2.0.0`),
/// hyphen ranges (`1.0.0 - 2.0.0` → `>=1.0.0 <=2.0.0`), `X` / `*` wildcards,
/// `=>` / `=<`, a space between an operator and its version, and versions
/// whose prerelease contains an `x` (`=1.0.0-fix` → `>=1.0.0-fix
/// <1.0.0-fix.0`). Returns `None` when the text is fine as it is or when there
/// is no suggestion (e.g. for `!=1.2.x`, which needs an `||` that blang
/// cannot nest); a returned suggestion always parses with [`Range::parse`].
pub fn hint(text: &str) -> Option<String> {
    if Range::parse(text).is_ok() && !misread_by_blang(text) {
        return None;
    }
    let cleaned = text.replace(',', " ").replace("&&", " ");
    let mut groups = Vec::new();
    for group in cleaned.split("||") {
        let tokens: Vec<&str> = group.split_whitespace().collect();
        if tokens.is_empty() {
            continue;
        }
        let mut out: Vec<String> = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            if i + 2 < tokens.len() && tokens[i + 1] == "-" {
                let low = HintVersion::parse(tokens[i])?;
                let high = HintVersion::parse(tokens[i + 2])?;
                out.extend(low.bounds(HintOp::Ge)?);
                out.extend(high.bounds(HintOp::Le)?);
                i += 3;
                continue;
            }
            let mut token = tokens[i].to_string();
            i += 1;
            while token.chars().all(is_hint_op_char) && i < tokens.len() {
                token.push_str(tokens[i]);
                i += 1;
            }
            out.extend(hint_comparator(&token)?);
        }
        groups.push(out.join(" "));
    }
    if groups.is_empty() {
        return None;
    }
    let suggestion = groups.join(" || ");
    if suggestion != text && Range::parse(&suggestion).is_ok() && !misread_by_blang(&suggestion) {
        Some(suggestion)
    } else {
        None
    }
}

fn is_hint_op_char(c: char) -> bool {
    matches!(c, '<' | '>' | '=' | '!' | '~' | '^')
}

/// Operators understood by [`hint`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HintOp {
    Eq,
    Ne,
    Gt,
    Ge,
    Lt,
    Le,
    Tilde,
    Caret,
}

/// Rewrites one comparator for [`hint`]; keeps it when blang already reads it
/// as written.
fn hint_comparator(token: &str) -> Option<Vec<String>> {
    let op_end = token
        .find(|c: char| !is_hint_op_char(c))
        .unwrap_or(token.len());
    let (op_str, version_str) = token.split_at(op_end);
    if Op::parse(op_str).is_some() && Range::parse(token).is_ok() && !misread_by_blang(token) {
        return Some(vec![token.to_string()]);
    }
    let op = match op_str {
        "" | "=" | "==" => HintOp::Eq,
        "!" | "!=" => HintOp::Ne,
        ">" => HintOp::Gt,
        ">=" | "=>" => HintOp::Ge,
        "<" => HintOp::Lt,
        "<=" | "=<" => HintOp::Le,
        "~" => HintOp::Tilde,
        "^" => HintOp::Caret,
        _ => return None,
    };
    HintVersion::parse(version_str)?.bounds(op)
}

/// A possibly partial version as people write it in npm-style ranges.
#[derive(Debug, Clone, PartialEq, Eq)]
enum HintVersion {
    /// `*`, `x`, `X`.
    Any,
    /// `1`, `1.x`, `1.*`.
    Major(u64),
    /// `1.2`, `1.2.x`.
    Minor(u64, u64),
    /// A full version, prerelease kept, build metadata dropped.
    Full(semver::Version),
}

/// Whether blang's wildcard arithmetic (Go `int`) handles `n + 1` correctly.
fn fits_go_int(n: u64) -> bool {
    n < i64::MAX as u64
}

impl HintVersion {
    fn parse(s: &str) -> Option<HintVersion> {
        let s = s
            .strip_prefix('v')
            .or_else(|| s.strip_prefix('V'))
            .unwrap_or(s);
        let s = s.split('+').next().unwrap_or(s);
        let (core, pre) = match s.find('-') {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        };
        let mut numbers = Vec::new();
        let mut wildcard = false;
        for part in core.split('.') {
            match part {
                "x" | "X" | "*" => wildcard = true,
                _ if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) => {
                    if wildcard {
                        return None;
                    }
                    numbers.push(part.parse::<u64>().ok()?);
                }
                _ => return None,
            }
        }
        if core.split('.').count() > 3 || (pre.is_some() && numbers.len() < 3) {
            return None;
        }
        match numbers.as_slice() {
            [] => Some(HintVersion::Any),
            [major] => Some(HintVersion::Major(*major)),
            [major, minor] => Some(HintVersion::Minor(*major, *minor)),
            [major, minor, patch] => {
                let mut text = format!("{major}.{minor}.{patch}");
                if let Some(p) = pre {
                    text.push('-');
                    text.push_str(p);
                }
                version::parse_strict(&text).ok().map(HintVersion::Full)
            }
            _ => None,
        }
    }

    /// The blang comparators meaning `op self`.
    fn bounds(&self, op: HintOp) -> Option<Vec<String>> {
        let one = |s: String| Some(vec![s]);
        match self {
            HintVersion::Any => match op {
                HintOp::Eq | HintOp::Ge | HintOp::Tilde | HintOp::Caret => {
                    one(">=0.0.0".to_string())
                }
                _ => None,
            },
            HintVersion::Major(m) => {
                let m = *m;
                let low = format!("{m}.0.0");
                let next = format!("{}.0.0", m.checked_add(1)?);
                match op {
                    HintOp::Eq if fits_go_int(m) => one(format!("{m}.x")),
                    HintOp::Ne => None,
                    HintOp::Eq | HintOp::Tilde | HintOp::Caret => {
                        Some(vec![format!(">={low}"), format!("<{next}")])
                    }
                    HintOp::Gt => one(format!(">={next}")),
                    HintOp::Ge => one(format!(">={low}")),
                    HintOp::Lt => one(format!("<{low}")),
                    HintOp::Le => one(format!("<{next}")),
                }
            }
            HintVersion::Minor(m, n) => {
                let (m, n) = (*m, *n);
                let low = format!("{m}.{n}.0");
                let next_minor = format!("{m}.{}.0", n.checked_add(1)?);
                match op {
                    HintOp::Eq if fits_go_int(n) => one(format!("{m}.{n}.x")),
                    HintOp::Ne => None,
                    HintOp::Eq | HintOp::Tilde => {
                        Some(vec![format!(">={low}"), format!("<{next_minor}")])
                    }
                    HintOp::Caret if m > 0 => Some(vec![
                        format!(">={low}"),
                        format!("<{}.0.0", m.checked_add(1)?),
                    ]),
                    HintOp::Caret => Some(vec![format!(">={low}"), format!("<{next_minor}")]),
                    HintOp::Gt => one(format!(">={next_minor}")),
                    HintOp::Ge => one(format!(">={low}")),
                    HintOp::Lt => one(format!("<{low}")),
                    HintOp::Le => one(format!("<{next_minor}")),
                }
            }
            HintVersion::Full(v) => {
                let text = v.to_string();
                // blang sends any comparator containing an `x` through wildcard
                // expansion, which only keeps `>=` and `<` intact. The next
                // version up from `1.0.0-fix` is `1.0.0-fix.0`.
                let has_x = text.contains('x');
                let successor = format!("{text}.0");
                match op {
                    HintOp::Eq if has_x => Some(vec![format!(">={text}"), format!("<{successor}")]),
                    HintOp::Eq => one(text),
                    HintOp::Ne if has_x => None,
                    HintOp::Ne => one(format!("!={text}")),
                    HintOp::Gt if has_x => one(format!(">={successor}")),
                    HintOp::Gt => one(format!(">{text}")),
                    HintOp::Ge => one(format!(">={text}")),
                    HintOp::Lt => one(format!("<{text}")),
                    HintOp::Le if has_x => one(format!("<{successor}")),
                    HintOp::Le => one(format!("<={text}")),
                    HintOp::Tilde => Some(vec![
                        format!(">={text}"),
                        format!("<{}.{}.0", v.major, v.minor.checked_add(1)?),
                    ]),
                    HintOp::Caret => {
                        let upper = if v.major > 0 {
                            format!("{}.0.0", v.major.checked_add(1)?)
                        } else if v.minor > 0 {
                            format!("0.{}.0", v.minor.checked_add(1)?)
                        } else {
                            format!("0.0.{}", v.patch.checked_add(1)?)
                        };
                        Some(vec![format!(">={text}"), format!("<{upper}")])
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ver(s: &str) -> semver::Version {
        match version::parse_strict(s) {
            Ok(v) => v,
            Err(e) => panic!("{s}: {e}"),
        }
    }

    fn range(s: &str) -> Range {
        match Range::parse(s) {
            Ok(r) => r,
            Err(e) => panic!("{s:?}: {e}"),
        }
    }

    fn parse_err(s: &str) -> String {
        match Range::parse(s) {
            Ok(r) => panic!("{s:?} parsed as {}", r.expanded()),
            Err(e) => e.to_string(),
        }
    }

    /// Same comparators, up to build metadata.
    fn same_groups(a: &Range, b: &Range) -> bool {
        a.groups().len() == b.groups().len()
            && a.groups().iter().zip(b.groups()).all(|(x, y)| {
                x.len() == y.len()
                    && x.iter().zip(y).all(|(c, d)| {
                        c.op == d.op && version::compare(&c.version, &d.version) == Ordering::Equal
                    })
            })
    }

    /// (range, expanded form, versions that match, versions that do not)
    type Case = (
        &'static str,
        &'static str,
        &'static [&'static str],
        &'static [&'static str],
    );

    const CASES: &[Case] = &[
        // every operator
        (
            "1.2.3",
            "=1.2.3",
            &["1.2.3", "1.2.3+b"],
            &["1.2.4", "1.2.3-rc.1"],
        ),
        ("=1.2.3", "=1.2.3", &["1.2.3"], &["1.2.2"]),
        ("==1.2.3", "=1.2.3", &["1.2.3"], &["1.2.2"]),
        (
            "!1.2.3",
            "!=1.2.3",
            &["1.2.2", "1.2.3-rc.1"],
            &["1.2.3", "1.2.3+b"],
        ),
        ("!=1.2.3", "!=1.2.3", &["1.2.4"], &["1.2.3"]),
        (
            ">1.2.3",
            ">1.2.3",
            &["1.2.4", "1.2.4-0"],
            &["1.2.3", "1.2.3+b", "1.2.3-rc"],
        ),
        (
            ">=1.2.3",
            ">=1.2.3",
            &["1.2.3", "2.0.0"],
            &["1.2.3-rc.1", "1.2.2"],
        ),
        ("<1.2.3", "<1.2.3", &["1.2.2", "1.2.3-rc.1"], &["1.2.3"]),
        (
            "<=1.2.3",
            "<=1.2.3",
            &["1.2.3", "1.2.3+z", "0.0.0"],
            &["1.2.4-0"],
        ),
        // wildcards
        (
            "1.2.x",
            ">=1.2.0 <1.3.0",
            &["1.2.0", "1.2.9", "1.3.0-rc"],
            &["1.1.9", "1.3.0", "1.2.0-rc"],
        ),
        ("=1.2.x", ">=1.2.0 <1.3.0", &["1.2.5"], &["1.3.0"]),
        ("==1.2.x", ">=1.2.0 <1.3.0", &["1.2.5"], &["1.3.0"]),
        (">1.2.x", ">=1.3.0", &["1.3.0"], &["1.2.9"]),
        (">=1.2.x", ">=1.2.0", &["1.2.0"], &["1.1.9"]),
        ("<1.2.x", "<1.2.0", &["1.1.9"], &["1.2.0"]),
        ("<=1.2.x", "<1.3.0", &["1.2.9"], &["1.3.0"]),
        (
            "!=1.2.x",
            "<1.2.0 >=1.3.0",
            &[],
            &["1.1.0", "1.2.0", "1.3.0"],
        ),
        ("!1.2.x", "<1.2.0 >=1.3.0", &[], &["1.1.0", "1.3.0"]),
        (
            "1.x",
            ">=1.0.0 <2.0.0",
            &["1.0.0", "1.99.0"],
            &["2.0.0", "0.9.0"],
        ),
        (">1.x", ">=2.0.0", &["2.0.0"], &["1.9.9"]),
        (">=1.x", ">=1.0.0", &["1.0.0"], &["0.9.9"]),
        ("<1.x", "<1.0.0", &["0.9.9"], &["1.0.0"]),
        ("<=1.x", "<2.0.0", &["1.9.9"], &["2.0.0"]),
        ("!=1.x", "<1.0.0 >=2.0.0", &[], &["0.1.0", "2.0.0"]),
        ("1.x.x", ">=1.0.0 <1.1.0", &["1.0.5"], &["1.1.0", "1.5.0"]),
        ("1.1.x", ">=1.1.0 <1.2.0", &["1.1.0"], &["1.1.0-beta.1"]),
        (">1.01.x", ">=1.2.0", &["1.2.0"], &["1.1.9"]),
        (">1.+1.x", ">=1.2.0", &["1.2.0"], &["1.1.9"]),
        ("~1.x", "=1.0.0", &["1.0.0"], &["1.5.0"]),
        ("^1.2.x", "=1.2.0", &["1.2.0"], &["1.2.1"]),
        ("x1.0.0", "=1.0.0", &["1.0.0"], &["1.0.1"]),
        (">=1.0.0-a.x", ">=1.0.0-a.0", &["1.0.0-a.0"], &["1.0.0-a"]),
        // x in a prerelease or build
        (
            ">=1.0.0-fix",
            ">=1.0.0-fix",
            &["1.0.0-fix", "1.0.0"],
            &["1.0.0-ab"],
        ),
        ("<1.0.0-fix", "<1.0.0-fix", &["1.0.0-ab"], &["1.0.0-fix"]),
        (">=1.0.0+x", ">=1.0.0", &["1.0.0"], &["0.9.0"]),
        // spaces after operators
        (
            ">= 1.2.3 < 1.3.0",
            ">=1.2.3 <1.3.0",
            &["1.2.3", "1.2.9"],
            &["1.3.0", "1.2.2"],
        ),
        (
            ">=  1.2.3   <   1.3.0 ",
            ">=1.2.3 <1.3.0",
            &["1.2.5"],
            &["1.3.0"],
        ),
        ("> = 1.2.3", ">=1.2.3", &["1.2.3"], &["1.2.2"]),
        ("= 1.2.3", "=1.2.3", &["1.2.3"], &["1.2.2"]),
        (
            "< 1.0.0 !0.0.0",
            "<1.0.0 !=0.0.0",
            &["0.5.0", "0.0.0-1"],
            &["0.0.0", "1.0.0"],
        ),
        ("\t>=1.0.0", ">=1.0.0", &["1.0.0"], &["0.1.0"]),
        // OR
        (
            ">1.0.0 <2.0.0 || >3.0.0 !4.2.1",
            ">1.0.0 <2.0.0 || >3.0.0 !=4.2.1",
            &["1.2.3", "1.9.9", "3.1.1"],
            &["4.2.1", "2.1.1", "1.0.0", "3.0.0"],
        ),
        (
            "<2.0.0 || >=3.0.0",
            "<2.0.0 || >=3.0.0",
            &["1.0.0", "3.0.0"],
            &["2.5.0"],
        ),
        (
            "1.2.x || 1.4.x",
            ">=1.2.0 <1.3.0 || >=1.4.0 <1.5.0",
            &["1.2.1", "1.4.0"],
            &["1.3.0"],
        ),
        // prerelease bounds
        (
            ">=1.2.3-0 <1.3.0",
            ">=1.2.3-0 <1.3.0",
            &["1.2.3-0", "1.2.3-alpha", "1.2.3", "1.3.0-rc"],
            &["1.2.2", "1.3.0"],
        ),
        (
            "<1.2.3-0",
            "<1.2.3-0",
            &["1.2.2", "1.2.2-rc"],
            &["1.2.3-0", "1.2.3"],
        ),
        ("<1.0.0", "<1.0.0", &["1.0.0-rc.1", "0.9.0"], &["1.0.0"]),
        (
            ">=1.0.0 <2.0.0",
            ">=1.0.0 <2.0.0",
            &["1.5.0-rc.1", "1.0.0"],
            &["2.0.0", "1.0.0-rc.1"],
        ),
        (
            ">=1.2.3 <1.3.0 !1.2.3-alpha1",
            ">=1.2.3 <1.3.0 !=1.2.3-alpha1",
            &["1.2.3", "1.2.4"],
            &["1.2.3-alpha1", "1.3.0"],
        ),
        // build metadata ignored
        (
            "=1.2.3+build.1",
            "=1.2.3",
            &["1.2.3", "1.2.3+other"],
            &["1.2.4"],
        ),
        (">1.2.3+b", ">1.2.3", &["1.2.4"], &["1.2.3+c"]),
        // one-byte tokens are dropped by blang
        (
            "1.0.0 - 2.0.0",
            "=1.0.0 =2.0.0",
            &[],
            &["1.0.0", "1.5.0", "2.0.0"],
        ),
        ("1.0.0 | 2.0.0", "=1.0.0 =2.0.0", &[], &["1.0.0"]),
        (">=1.0.0 <", ">=1.0.0", &["5.0.0"], &["0.1.0"]),
        // real skipRanges seen in catalogs
        (">=1.2.3 <1.3.0", ">=1.2.3 <1.3.0", &["1.2.3"], &["1.3.0"]),
        (">=1.2.x <1.3.0", ">=1.2.0 <1.3.0", &["1.2.0"], &["1.3.0"]),
        (
            ">=4.1.0-cee.1 <4.2.0",
            ">=4.1.0-cee.1 <4.2.0",
            &["4.1.0-cee.1", "4.1.5"],
            &["4.1.0-cee.0", "4.2.0"],
        ),
        (
            ">=0.0.0-nightly-2021 <1.0.0",
            ">=0.0.0-nightly-2021 <1.0.0",
            &["0.0.0-nightly-2021", "0.5.0"],
            &["0.0.0-nightly-2020", "1.0.0"],
        ),
    ];

    #[test]
    fn table() {
        for &(text, expanded, yes, no) in CASES {
            let r = range(text);
            assert_eq!(r.expanded(), expanded, "expanded form of {text:?}");
            assert_eq!(r.to_string(), text);
            assert_eq!(r.as_str(), text);
            for v in yes {
                assert!(r.matches(&ver(v)), "{text:?} should match {v}");
            }
            for v in no {
                assert!(!r.matches(&ver(v)), "{text:?} should not match {v}");
            }
            // The normalized form parses back to the same comparators.
            assert!(same_groups(&range(&r.expanded()), &r), "{text:?}");
        }
    }

    #[test]
    fn real_skip_ranges() {
        for s in [
            ">=1.2.3 <1.3.0",
            "<1.2.3",
            ">=1.2.x <1.3.0",
            ">= 1.2.3 < 1.3.0",
            "=1.2.3",
            ">=4.1.0-cee.1 <4.2.0",
            ">=0.0.0-nightly-2021 <1.0.0",
        ] {
            assert!(Range::parse(s).is_ok(), "{s}");
        }
        assert!(Range::parse(">=v1.2.3 <v1.3.0").is_err());
    }

    #[test]
    fn error_texts() {
        let cases = [
            ("", "Last element in range is '||'"),
            ("   ", "Last element in range is '||'"),
            ("||", "First element in range is '||'"),
            ("1.0.0 ||", "Last element in range is '||'"),
            ("|| 1.0.0", "First element in range is '||'"),
            ("1.0.0 || || 2.0.0", "empty range"),
            ("1.0.0 || a || 2.0.0", "empty range"),
            (
                "1.0.0 || || ~2.0.0",
                "Could not parse Range \"~2.0.0\": Could not parse comparator \"~\" in \"~2.0.0\"",
            ),
            (
                ">=v1.2.3",
                "Could not parse Range \">=v1.2.3\": Could not parse comparator \">=v\" in \">=v1.2.3\"",
            ),
            (
                "~1.2",
                "Could not parse Range \"~1.2\": Could not parse comparator \"~\" in \"~1.2\"",
            ),
            (
                "~1.2.3",
                "Could not parse Range \"~1.2.3\": Could not parse comparator \"~\" in \"~1.2.3\"",
            ),
            (
                "^1",
                "Could not parse Range \"^1\": Could not parse comparator \"^\" in \"^1\"",
            ),
            (
                "=>1.0.0",
                "Could not parse Range \"=>1.0.0\": Could not parse comparator \"=>\" in \"=>1.0.0\"",
            ),
            (
                "1.2",
                "Could not parse Range \"1.2\": Could not parse version \"1.2\" in \"1.2\": No Major.Minor.Patch elements found",
            ),
            // one-byte tokens are dropped before anything else
            ("*", "Last element in range is '||'"),
            ("x", "Last element in range is '||'"),
            ("1 || 2.0.0", "First element in range is '||'"),
            (">=*", "Could not get version from string: \">=*\""),
            (
                "1.*",
                "Could not parse Range \"1.*\": Could not parse version \"1.*\" in \"1.*\": No Major.Minor.Patch elements found",
            ),
            ("abc", "Could not get version from string: \"abc\""),
            (
                "1.X",
                "Could not parse Range \"1.X\": Could not parse version \"1.X\" in \"1.X\": No Major.Minor.Patch elements found",
            ),
            (
                "1.2.X",
                "Could not parse Range \"1.2.X\": Could not parse version \"1.2.X\" in \"1.2.X\": Invalid character(s) found in patch number \"X\"",
            ),
            (
                ">=1.0.0,<2.0.0",
                "Could not parse Range \">=1.0.0,<2.0.0\": Could not parse version \"1.0.0,<2.0.0\" in \">=1.0.0,<2.0.0\": Invalid character(s) found in patch number \"0,<2.0.0\"",
            ),
            (
                ">=1.0.0, <2.0.0",
                "Could not parse Range \">=1.0.0,\": Could not parse version \"1.0.0,\" in \">=1.0.0,\": Invalid character(s) found in patch number \"0,\"",
            ),
            (
                ">=01.0.0",
                "Could not parse Range \">=01.0.0\": Could not parse version \"01.0.0\" in \">=01.0.0\": Major number must not contain leading zeroes \"01\"",
            ),
            (
                "<99999999999999999999.0.0",
                "Could not parse Range \"<99999999999999999999.0.0\": Could not parse version \"99999999999999999999.0.0\" in \"<99999999999999999999.0.0\": strconv.ParseUint: parsing \"99999999999999999999\": value out of range",
            ),
            // x anywhere triggers wildcard expansion
            ("1.0.0-fix", "Could not get version from string: \"<\""),
            ("=1.0.0-fix", "Could not get version from string: \"<\""),
            (">1.0.0-fix", "Could not get version from string: \">=\""),
            ("<=1.0.0-fix", "Could not get version from string: \"<\""),
            ("!=1.0.0-fix", "Could not get version from string: \">=\""),
            ("1.0.0+x", "Could not get version from string: \"<\""),
            ("1.2.x.x", "Could not get version from string: \"<\""),
            ("xyz", "Could not get version from string: \"xyz\""),
            (
                "1.x-rc",
                "Could not parse Range \">=1.0-rc.0\": Could not parse version \"1.0-rc.0\" in \">=1.0-rc.0\": Invalid character(s) found in minor number \"0-rc\"",
            ),
            (
                ">1.9223372036854775807.x",
                "Could not parse Range \">=1.-9223372036854775808.0\": Could not parse version \"1.-9223372036854775808.0\" in \">=1.-9223372036854775808.0\": Invalid character(s) found in minor number \"-9223372036854775808\"",
            ),
            (
                ">9223372036854775807.x",
                "Could not parse Range \">=-9223372036854775808.0.0\": Could not parse comparator \">=-\" in \">=-9223372036854775808.0.0\"",
            ),
            (
                ">1.9223372036854775808.x",
                "Could not get version from string: \">=\"",
            ),
            (
                "1.-1.x",
                "Could not parse Range \">=1.-1.0\": Could not parse version \"1.-1.0\" in \">=1.-1.0\": Invalid character(s) found in minor number \"-1\"",
            ),
            // first failing token wins, in blang's order
            (
                ">=1.0.0 <2.0.0 || ~3.0.0",
                "Could not parse Range \"~3.0.0\": Could not parse comparator \"~\" in \"~3.0.0\"",
            ),
            (
                "~1.0.0 || 1.0.0-fix",
                "Could not parse Range \"~1.0.0\": Could not parse comparator \"~\" in \"~1.0.0\"",
            ),
            // wildcard expansion runs over all tokens before any is parsed
            (
                "~1.0.0 || xyz",
                "Could not get version from string: \"xyz\"",
            ),
            // non-ASCII
            (
                ">=1.0.0\t<2.0.0",
                "Could not parse Range \">=1.0.0\\t<2.0.0\": Could not parse version \"1.0.0\\t<2.0.0\" in \">=1.0.0\\t<2.0.0\": Invalid character(s) found in patch number \"0\\t<2.0.0\"",
            ),
            (
                "≥1.0.0",
                "Could not parse Range \"≥1.0.0\": Could not parse comparator \"≥\" in \"≥1.0.0\"",
            ),
            (
                ">=١.0.0",
                "Could not parse Range \">=١.0.0\": Could not parse version \"١.0.0\" in \">=١.0.0\": Invalid character(s) found in major number \"١\"",
            ),
            (
                "²1.0.0",
                "Could not parse Range \"²1.0.0\": Could not parse comparator \"²\" in \"²1.0.0\"",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(parse_err(input), want, "input {input:?}");
        }
    }

    #[test]
    fn nd_table_is_numeric() {
        for &z in ND_ZEROS {
            for u in z..z + 10 {
                let c = char::from_u32(u).map(|c| c.is_numeric());
                assert_eq!(c, Some(true), "U+{u:04X}");
            }
        }
        assert!(!go_is_digit('²'));
        assert!(!go_is_digit('Ⅷ'));
        assert!(go_is_digit('٣'));
    }

    #[test]
    fn atoi() {
        assert_eq!(go_atoi("01"), Some(1));
        assert_eq!(go_atoi("+1"), Some(1));
        assert_eq!(go_atoi("-1"), Some(-1));
        assert_eq!(go_atoi("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(go_atoi("9223372036854775808"), None);
        assert_eq!(go_atoi(""), None);
        assert_eq!(go_atoi("+"), None);
        assert_eq!(go_atoi("1_0"), None);
        assert_eq!(go_atoi("0y"), None);
    }

    #[test]
    fn hints() {
        let cases = [
            (">=v1.2.3 <v1.3.0", ">=1.2.3 <1.3.0"),
            ("v1.2.3", "1.2.3"),
            ("1.2", "1.2.x"),
            ("1", "1.x"),
            (">=1.2", ">=1.2.0"),
            ("<1.2", "<1.2.0"),
            (">1.2", ">=1.3.0"),
            ("<=1.2", "<1.3.0"),
            ("~1.2.3", ">=1.2.3 <1.3.0"),
            ("~1.2", ">=1.2.0 <1.3.0"),
            ("~1", ">=1.0.0 <2.0.0"),
            ("^1.2.3", ">=1.2.3 <2.0.0"),
            ("^0.2.3", ">=0.2.3 <0.3.0"),
            ("^0.0.3", ">=0.0.3 <0.0.4"),
            ("^1", ">=1.0.0 <2.0.0"),
            ("^1.2.3-rc.1", ">=1.2.3-rc.1 <2.0.0"),
            ("~1.x", ">=1.0.0 <2.0.0"),
            (">=1.0.0, <2.0.0", ">=1.0.0 <2.0.0"),
            (">=1.0.0,<2.0.0", ">=1.0.0 <2.0.0"),
            ("1.0.0 - 2.0.0", ">=1.0.0 <=2.0.0"),
            ("1.0 - 2", ">=1.0.0 <3.0.0"),
            ("*", ">=0.0.0"),
            ("1.X", "1.x"),
            ("1.2.*", "1.2.x"),
            ("=>1.0.0", ">=1.0.0"),
            ("=<1.0.0", "<=1.0.0"),
            (">=01.02.03", ">=1.2.3"),
            ("=1.0.0-fix", ">=1.0.0-fix <1.0.0-fix.0"),
            (">1.0.0-fix", ">=1.0.0-fix.0"),
            ("<=1.0.0-fix", "<1.0.0-fix.0"),
            ("v1.2.3+build", "1.2.3"),
            (">=1.0.0 <2.0.0 || ~3.1", ">=1.0.0 <2.0.0 || >=3.1.0 <3.2.0"),
            (">=1.0.0 ||", ">=1.0.0"),
            ("~1.x || 1.0.0 - 1.2.0", ">=1.0.0 <2.0.0 || >=1.0.0 <=1.2.0"),
            ("1.x.x", "1.x"),
            (">=1.0.0 <=1.x.x", ">=1.0.0 <2.0.0"),
            ("V1.2.3", "1.2.3"),
            (">= 1.2 < 2", ">=1.2.0 <2.0.0"),
            ("<= v2", "<3.0.0"),
            (">=1.0.0 && <2.0.0", ">=1.0.0 <2.0.0"),
        ];
        for (input, want) in cases {
            assert_eq!(hint(input).as_deref(), Some(want), "hint for {input:?}");
            assert!(Range::parse(want).is_ok(), "{want}");
        }
        for input in [
            "",
            "||",
            ">=1.0.0 <2.0.0",
            ">= 1.2.3 < 1.3.0",
            "1.2.x",
            "foo",
            "!=1.0.0-fix",
            "!=1.2.x",
            "!1.x",
            "1.x || !=2.x",
            "~>1.2",
            "1.2.3.4",
            ">=1.0.0 <2.0.0 || bar",
        ] {
            assert_eq!(hint(input), None, "hint for {input:?}");
        }
    }

    #[test]
    fn hint_semantics() {
        // The suggestion for `1.0.0 - 2.0.0` includes both ends.
        let r = range(&hint("1.0.0 - 2.0.0").unwrap_or_default());
        assert!(r.matches(&ver("1.0.0")) && r.matches(&ver("2.0.0")));
        assert!(!r.matches(&ver("2.0.1")));
        // `=1.0.0-fix` rewritten still means exactly that version.
        let r = range(&hint("=1.0.0-fix").unwrap_or_default());
        for (v, want) in [
            ("1.0.0-fix", true),
            ("1.0.0-fix+b", true),
            ("1.0.0-fix.0", false),
            ("1.0.0-fiw", false),
            ("1.0.0-fix-", false),
            ("1.0.0", false),
        ] {
            assert_eq!(r.matches(&ver(v)), want, "{v}");
        }
    }

    mod prop {
        use super::*;
        use proptest::prelude::*;

        /// A generated version spec: full version or a wildcard.
        #[derive(Debug, Clone)]
        enum Spec {
            Full(semver::Version, Option<&'static str>),
            PatchWild(u64, u64), // M.m.x
            MinorWild(u64),      // M.x
            DoubleWild(u64),     // M.x.x (blang: M.0.x)
        }

        const OPS: &[&str] = &["", "=", "==", "!", "!=", ">", ">=", "<", "<="];
        const PRES: &[&str] = &["", "alpha", "alpha.1", "beta", "rc.1", "0", "1", "beta.11"];

        fn small_version() -> impl Strategy<Value = semver::Version> {
            (0u64..3, 0u64..3, 0u64..3, proptest::sample::select(PRES)).prop_map(|(a, b, c, p)| {
                let s = if p.is_empty() {
                    format!("{a}.{b}.{c}")
                } else {
                    format!("{a}.{b}.{c}-{p}")
                };
                ver(&s)
            })
        }

        fn spec() -> impl Strategy<Value = Spec> {
            prop_oneof![
                6 => (small_version(), proptest::option::of(proptest::sample::select(&["b1", "build.7"][..])))
                    .prop_map(|(v, b)| Spec::Full(v, b)),
                1 => (0u64..3, 0u64..3).prop_map(|(a, b)| Spec::PatchWild(a, b)),
                1 => (0u64..3).prop_map(Spec::MinorWild),
                1 => (0u64..3).prop_map(Spec::DoubleWild),
            ]
        }

        type Comp = (&'static str, bool, Spec);

        fn comp() -> impl Strategy<Value = Comp> {
            (proptest::sample::select(OPS), any::<bool>(), spec())
        }

        fn ranges() -> impl Strategy<Value = Vec<Vec<Comp>>> {
            proptest::collection::vec(proptest::collection::vec(comp(), 1..=3), 1..=3)
        }

        fn render(groups: &[Vec<Comp>]) -> String {
            groups
                .iter()
                .map(|g| {
                    g.iter()
                        .map(|(op, space, s)| {
                            let v = match s {
                                Spec::Full(v, None) => v.to_string(),
                                Spec::Full(v, Some(b)) => format!("{v}+{b}"),
                                Spec::PatchWild(a, b) => format!("{a}.{b}.x"),
                                Spec::MinorWild(a) => format!("{a}.x"),
                                Spec::DoubleWild(a) => format!("{a}.x.x"),
                            };
                            // A space after an operator is allowed only after <, >, =.
                            let sep = if *space && op.ends_with(['<', '>', '=']) {
                                " "
                            } else {
                                ""
                            };
                            format!("{op}{sep}{v}")
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect::<Vec<_>>()
                .join(" || ")
        }

        fn cmp(a: &semver::Version, b: &semver::Version) -> Ordering {
            a.cmp_precedence(b)
        }

        /// Direct evaluation of one comparator, independent of the parser.
        fn oracle_comp(op: &str, s: &Spec, v: &semver::Version) -> bool {
            let interval = |lo: semver::Version, hi: semver::Version| -> bool {
                let ge_lo = cmp(v, &lo) != Ordering::Less;
                let lt_hi = cmp(v, &hi) == Ordering::Less;
                match op {
                    "" | "=" | "==" => ge_lo && lt_hi,
                    // blang ANDs `<lo` and `>=hi`: never true.
                    "!" | "!=" => false,
                    ">" => !lt_hi,
                    ">=" => ge_lo,
                    "<" => !ge_lo,
                    "<=" => lt_hi,
                    _ => unreachable!(),
                }
            };
            match s {
                Spec::Full(w, _) => {
                    let o = cmp(v, w);
                    match op {
                        "" | "=" | "==" => o == Ordering::Equal,
                        "!" | "!=" => o != Ordering::Equal,
                        ">" => o == Ordering::Greater,
                        ">=" => o != Ordering::Less,
                        "<" => o == Ordering::Less,
                        "<=" => o != Ordering::Greater,
                        _ => unreachable!(),
                    }
                }
                Spec::PatchWild(a, b) => interval(
                    semver::Version::new(*a, *b, 0),
                    semver::Version::new(*a, b + 1, 0),
                ),
                Spec::MinorWild(a) => interval(
                    semver::Version::new(*a, 0, 0),
                    semver::Version::new(a + 1, 0, 0),
                ),
                Spec::DoubleWild(a) => interval(
                    semver::Version::new(*a, 0, 0),
                    semver::Version::new(*a, 1, 0),
                ),
            }
        }

        fn oracle(groups: &[Vec<Comp>], v: &semver::Version) -> bool {
            groups
                .iter()
                .any(|g| g.iter().all(|(op, _, s)| oracle_comp(op, s, v)))
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2000))]

            #[test]
            fn matches_oracle(groups in ranges(), vs in proptest::collection::vec(small_version(), 8)) {
                let text = render(&groups);
                let r = Range::parse(&text);
                prop_assert!(r.is_ok(), "{} -> {:?}", text, r);
                let r = r.unwrap();
                for v in &vs {
                    prop_assert_eq!(r.matches(v), oracle(&groups, v), "{} on {}", text, v);
                }
                // Display round-trips.
                prop_assert_eq!(Range::parse(&r.to_string()), Ok(r.clone()));
                // The expanded form means the same.
                let e = Range::parse(&r.expanded());
                prop_assert!(e.is_ok(), "{}", r.expanded());
                prop_assert!(same_groups(&e.unwrap(), &r), "{}", r.expanded());
            }

            #[test]
            fn parse_and_hint_never_panic(s in "[0-9xX.<>=!|~^v+*, a-z-]{0,24}") {
                let _ = Range::parse(&s);
                if let Some(h) = hint(&s) {
                    prop_assert!(Range::parse(&h).is_ok(), "{} -> {}", s, h);
                }
            }

            #[test]
            fn arbitrary_text_never_panics(s in "\\PC{0,24}") {
                let _ = Range::parse(&s);
                let _ = hint(&s);
            }

            #[test]
            fn npm_style_hints_parse(
                parts in proptest::collection::vec(
                    (
                        proptest::sample::select(&["", "=", ">", ">=", "<", "<=", "~", "^", "=>", "!="][..]),
                        proptest::sample::select(&["", "v", " "][..]),
                        proptest::sample::select(&["1", "0.2", "1.2.3", "0.0.3", "1.x", "1.2.*", "*", "1.2.3-rc.1", "1.0.0-fix", "01.2"][..]),
                    ),
                    1..4,
                ),
                sep in proptest::sample::select(&[" ", ", ", " || ", " - "][..]),
            ) {
                let text = parts
                    .iter()
                    .map(|(op, v, n)| format!("{op}{v}{n}"))
                    .collect::<Vec<_>>()
                    .join(sep);
                if let Some(h) = hint(&text) {
                    prop_assert!(Range::parse(&h).is_ok(), "{} -> {}", text, h);
                    prop_assert!(!misread_by_blang(&h), "{} -> {}", text, h);
                }
            }
        }
    }
}
