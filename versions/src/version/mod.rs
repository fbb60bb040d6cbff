//! Semantic versions with the exact semantics of Go's
//! `github.com/blang/semver/v4` (v4.0.0), which OLM and operator-registry use,
//! plus operator-registry's `olm.package` `release` field.
//!
//! Parsed versions are returned as [`semver::Version`] values. Every error's
//! `Display` text is byte-for-byte the message blang (or opm) prints, so it can
//! be shown to users who compare it with `opm` output.

use std::cmp::Ordering;
use std::fmt;

/// An error from parsing a version or a release.
///
/// Its `Display` text is exactly the message that blang/semver v4.0.0 (or
/// operator-registry, for releases) produces for the same input, e.g.
/// `No Major.Minor.Patch elements found` or
/// `Major number must not contain leading zeroes "01"`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct VersionError {
    message: String,
}

impl VersionError {
    fn new(message: impl Into<String>) -> Self {
        VersionError {
            message: message.into(),
        }
    }

    /// The error message (the same text as `Display`).
    pub fn message(&self) -> &str {
        &self.message
    }
}

const ALPHANUM: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789";

/// blang `containsOnly(s, numbers)`: true for the empty string.
fn only_digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}

/// blang `containsOnly(s, alphanum)`: true for the empty string.
fn only_alphanum(s: &str) -> bool {
    s.bytes().all(|b| ALPHANUM.contains(&b))
}

/// blang `hasLeadingZeroes`.
fn has_leading_zeroes(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

/// Go `strconv.ParseUint(s, 10, 64)` for a string already known to contain
/// only ASCII digits, with Go's error text.
fn parse_uint(s: &str) -> Result<u64, VersionError> {
    if s.is_empty() {
        return Err(VersionError::new(format!(
            "strconv.ParseUint: parsing {}: invalid syntax",
            go_quote(s)
        )));
    }
    s.parse::<u64>().map_err(|_| {
        VersionError::new(format!(
            "strconv.ParseUint: parsing {}: value out of range",
            go_quote(s)
        ))
    })
}

/// Go's `strconv.Quote` (what `%q` prints for a string).
///
/// ASCII is handled exactly. For non-ASCII characters Go escapes everything
/// that `unicode.IsPrint` rejects; this uses Rust's standard library (control
/// characters, white space) plus the Unicode 15 format (`Cf`) and private-use
/// (`Co`) lists, so only unassigned code points can be quoted differently.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            '\0'..='\u{1f}' | '\u{7f}' => push_hex(&mut out, "\\x", c, 2),
            _ if go_is_print(c) => out.push(c),
            _ if (c as u32) < 0x10000 => push_hex(&mut out, "\\u", c, 4),
            _ => push_hex(&mut out, "\\U", c, 8),
        }
    }
    out.push('"');
    out
}

/// Appends `prefix` and `c` as `width` lower-case hex digits.
fn push_hex(out: &mut String, prefix: &str, c: char, width: usize) {
    use std::fmt::Write as _;
    // Writing to a String cannot fail.
    let _ = write!(out, "{prefix}{:0width$x}", c as u32);
}

/// Approximation of Go's `unicode.IsPrint` for non-ASCII characters.
fn go_is_print(c: char) -> bool {
    const NOT_PRINT: &[(u32, u32)] = &[
        // Cf (Unicode 15.0)
        (0x00AD, 0x00AD),
        (0x0600, 0x0605),
        (0x061C, 0x061C),
        (0x06DD, 0x06DD),
        (0x070F, 0x070F),
        (0x0890, 0x0891),
        (0x08E2, 0x08E2),
        (0x180E, 0x180E),
        (0x200B, 0x200F),
        (0x202A, 0x202E),
        (0x2060, 0x2064),
        (0x2066, 0x206F),
        (0xFEFF, 0xFEFF),
        (0xFFF9, 0xFFFB),
        (0x110BD, 0x110BD),
        (0x110CD, 0x110CD),
        (0x13430, 0x1343F),
        (0x1BCA0, 0x1BCA3),
        (0x1D173, 0x1D17A),
        (0xE0001, 0xE0001),
        (0xE0020, 0xE007F),
        // Co
        (0xE000, 0xF8FF),
        (0xF0000, 0xFFFFD),
        (0x100000, 0x10FFFD),
        // noncharacters (plus U+nFFFE / U+nFFFF below)
        (0xFDD0, 0xFDEF),
    ];
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let u = c as u32;
    u & 0xFFFE != 0xFFFE && !NOT_PRINT.iter().any(|&(lo, hi)| (lo..=hi).contains(&u))
}

/// One blang prerelease identifier, validated by blang's `NewPRVersion`.
fn new_pr_version(s: &str) -> Result<ReleaseIdentifier, VersionError> {
    if s.is_empty() {
        return Err(VersionError::new("Prerelease is empty"));
    }
    if only_digits(s) {
        if has_leading_zeroes(s) {
            return Err(VersionError::new(format!(
                "Numeric PreRelease version must not contain leading zeroes {}",
                go_quote(s)
            )));
        }
        Ok(ReleaseIdentifier::Numeric(parse_uint(s)?))
    } else if only_alphanum(s) {
        Ok(ReleaseIdentifier::AlphaNumeric(s.to_string()))
    } else {
        Err(VersionError::new(format!(
            "Invalid character(s) found in prerelease {}",
            go_quote(s)
        )))
    }
}

/// Parses a version exactly like blang/semver v4 `semver.Parse` (strict).
///
/// Accepts `MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]` with no leading `v`, no
/// leading zeros in numeric parts or numeric prerelease identifiers, no empty
/// identifiers, identifiers made of `[0-9A-Za-z-]` only, and numbers that fit
/// in a `u64`.
///
/// # Errors
///
/// A [`VersionError`] with blang's exact message text when `s` is not a valid
/// version.
pub fn parse_strict(s: &str) -> Result<semver::Version, VersionError> {
    match plain_version(s) {
        Some(v) => Ok(v),
        None => parse_strict_general(s),
    }
}

/// The usual case, in one pass over the bytes: `major.minor.patch`, digits
/// only, without leading zeroes, each fitting a `u64`. `None` for anything
/// else, which [`parse_strict_general`] then reads (and words the errors of).
fn plain_version(s: &str) -> Option<semver::Version> {
    let mut parts = [0u64; 3];
    let mut part = 0;
    let mut digits = 0;
    for &c in s.as_bytes() {
        match c {
            b'0'..=b'9' => {
                // A leading zero: the general reader's error.
                if digits == 1 && parts[part] == 0 {
                    return None;
                }
                parts[part] = parts[part]
                    .checked_mul(10)?
                    .checked_add(u64::from(c - b'0'))?;
                digits += 1;
            }
            b'.' if digits > 0 && part < 2 => {
                part += 1;
                digits = 0;
            }
            _ => return None,
        }
    }
    (part == 2 && digits > 0).then(|| semver::Version::new(parts[0], parts[1], parts[2]))
}

/// [`parse_strict`] for every input.
fn parse_strict_general(s: &str) -> Result<semver::Version, VersionError> {
    if s.is_empty() {
        return Err(VersionError::new("Version string empty"));
    }
    let mut parts = s.splitn(3, '.');
    let (Some(major_s), Some(minor_s), Some(rest)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(VersionError::new("No Major.Minor.Patch elements found"));
    };

    if !only_digits(major_s) {
        return Err(VersionError::new(format!(
            "Invalid character(s) found in major number {}",
            go_quote(major_s)
        )));
    }
    if has_leading_zeroes(major_s) {
        return Err(VersionError::new(format!(
            "Major number must not contain leading zeroes {}",
            go_quote(major_s)
        )));
    }
    let major = parse_uint(major_s)?;

    if !only_digits(minor_s) {
        return Err(VersionError::new(format!(
            "Invalid character(s) found in minor number {}",
            go_quote(minor_s)
        )));
    }
    if has_leading_zeroes(minor_s) {
        return Err(VersionError::new(format!(
            "Minor number must not contain leading zeroes {}",
            go_quote(minor_s)
        )));
    }
    let minor = parse_uint(minor_s)?;

    let mut patch_s = rest;
    let mut build: Option<&str> = None;
    let mut prerelease: Option<&str> = None;
    if let Some(i) = patch_s.find('+') {
        build = Some(&patch_s[i + 1..]);
        patch_s = &patch_s[..i];
    }
    if let Some(i) = patch_s.find('-') {
        prerelease = Some(&patch_s[i + 1..]);
        patch_s = &patch_s[..i];
    }

    if !only_digits(patch_s) {
        return Err(VersionError::new(format!(
            "Invalid character(s) found in patch number {}",
            go_quote(patch_s)
        )));
    }
    if has_leading_zeroes(patch_s) {
        return Err(VersionError::new(format!(
            "Patch number must not contain leading zeroes {}",
            go_quote(patch_s)
        )));
    }
    let patch = parse_uint(patch_s)?;

    if let Some(pre) = prerelease {
        for id in pre.split('.') {
            new_pr_version(id)?;
        }
    }
    if let Some(b) = build {
        for id in b.split('.') {
            if id.is_empty() {
                return Err(VersionError::new("Build meta data is empty"));
            }
            if !only_alphanum(id) {
                return Err(VersionError::new(format!(
                    "Invalid character(s) found in build meta data {}",
                    go_quote(id)
                )));
            }
        }
    }

    // blang's rules are at least as strict as the semver crate's, so these
    // conversions cannot fail for input that got this far.
    let pre = match prerelease {
        Some(p) => semver::Prerelease::new(p).map_err(|e| VersionError::new(e.to_string()))?,
        None => semver::Prerelease::EMPTY,
    };
    let build = match build {
        Some(b) => semver::BuildMetadata::new(b).map_err(|e| VersionError::new(e.to_string()))?,
        None => semver::BuildMetadata::EMPTY,
    };
    Ok(semver::Version {
        major,
        minor,
        patch,
        pre,
        build,
    })
}

/// Parses a version like blang/semver v4 `semver.ParseTolerant`.
///
/// Trims surrounding white space, removes one leading `v`, strips leading
/// zeros from the major, minor and patch parts, and pads `1` / `1.2` to three
/// parts (a short version must not carry prerelease or build data), then
/// parses strictly with [`parse_strict`].
///
/// # Errors
///
/// A [`VersionError`] with blang's exact message text when `s` is not a valid
/// version even after normalization.
pub fn parse_tolerant(s: &str) -> Result<semver::Version, VersionError> {
    let s = s.trim();
    let s = s.strip_prefix('v').unwrap_or(s);
    let mut parts: Vec<String> = s.splitn(3, '.').map(str::to_string).collect();
    for p in parts.iter_mut() {
        if p.len() > 1 {
            let mut q = p.trim_start_matches('0').to_string();
            if !q.as_bytes().first().is_some_and(|b| b.is_ascii_digit()) {
                q.insert(0, '0');
            }
            *p = q;
        }
    }
    if parts.len() < 3 {
        if parts
            .last()
            .is_some_and(|p| p.contains('+') || p.contains('-'))
        {
            return Err(VersionError::new(
                "Short version cannot contain PreRelease/Build meta data",
            ));
        }
        while parts.len() < 3 {
            parts.push("0".to_string());
        }
    }
    parse_strict(&parts.join("."))
}

/// Compares two versions like blang/semver v4 `Version.Compare`: major, minor,
/// patch, then prerelease precedence. Build metadata is ignored.
pub fn compare(a: &semver::Version, b: &semver::Version) -> Ordering {
    a.cmp_precedence(b)
}

/// One dot-separated identifier of a [`Release`] (a blang prerelease
/// identifier).
///
/// The derived ordering is blang's: numeric identifiers compare numerically and
/// sort before alphanumeric ones, which compare byte-wise.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ReleaseIdentifier {
    /// An identifier made of digits only (no leading zero), e.g. `2`.
    Numeric(u64),
    /// An identifier with at least one letter or hyphen, e.g. `rc1`.
    AlphaNumeric(String),
}

impl fmt::Display for ReleaseIdentifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReleaseIdentifier::Numeric(n) => write!(f, "{n}"),
            ReleaseIdentifier::AlphaNumeric(s) => f.write_str(s),
        }
    }
}

/// The maximum length, in bytes, of an `olm.package` `release` value.
pub const MAX_RELEASE_LEN: usize = 20;

/// A release value from an `olm.package` property (`release` field): a
/// non-empty, dot-separated list of prerelease-style identifiers.
///
/// Build one with [`parse_release`]. It orders with blang's prerelease
/// precedence ([`Release::compare`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Release(Vec<ReleaseIdentifier>);

impl Release {
    /// The identifiers, in order (never empty).
    pub fn identifiers(&self) -> &[ReleaseIdentifier] {
        &self.0
    }

    /// Compares two releases with blang's prerelease precedence: identifier by
    /// identifier, and when one is a prefix of the other the shorter is lower.
    pub fn compare(&self, other: &Release) -> Ordering {
        for (a, b) in self.0.iter().zip(other.0.iter()) {
            match a.cmp(b) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        self.0.len().cmp(&other.0.len())
    }
}

impl PartialOrd for Release {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Release {
    fn cmp(&self, other: &Self) -> Ordering {
        self.compare(other)
    }
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, id) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{id}")?;
        }
        Ok(())
    }
}

/// Parses an `olm.package` `release` value as operator-registry does.
///
/// The empty string means "no release" (`Ok(None)`). A value longer than
/// [`MAX_RELEASE_LEN`] bytes is rejected; otherwise it is split on `.` and
/// every segment is checked like a blang prerelease identifier. All segment
/// errors are reported, one per line, as `segment <i>: <error>` (0-based),
/// under `invalid release "<s>": `.
///
/// # Errors
///
/// A [`VersionError`] with operator-registry's message when `s` is too long or
/// has an invalid segment.
pub fn parse_release(s: &str) -> Result<Option<Release>, VersionError> {
    if s.is_empty() {
        return Ok(None);
    }
    if s.len() > MAX_RELEASE_LEN {
        return Err(VersionError::new(format!(
            "invalid release {}: exceeds maximum length of {} characters",
            go_quote(s),
            MAX_RELEASE_LEN
        )));
    }
    let mut ids = Vec::new();
    let mut errors = Vec::new();
    for (i, seg) in s.split('.').enumerate() {
        match new_pr_version(seg) {
            Ok(id) => ids.push(id),
            Err(e) => errors.push(format!("segment {i}: {e}")),
        }
    }
    if !errors.is_empty() {
        return Err(VersionError::new(format!(
            "invalid release {}: {}",
            go_quote(s),
            errors.join("\n")
        )));
    }
    Ok(Some(Release(ids)))
}

/// A bundle's version together with its optional release, as used by
/// `olm.package` properties that carry a `release` field.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VersionRelease {
    /// The semantic version.
    pub version: semver::Version,
    /// The release, if any.
    pub release: Option<Release>,
}

impl VersionRelease {
    /// Compares by version (blang [`compare`], build metadata ignored), then by
    /// release, where no release sorts before any release.
    pub fn compare(&self, other: &VersionRelease) -> Ordering {
        compare(&self.version, &other.version).then_with(|| match (&self.release, &other.release) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Less,
            (Some(_), None) => Ordering::Greater,
            (Some(a), Some(b)) => a.compare(b),
        })
    }
}

impl fmt::Display for VersionRelease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.release {
            None => write!(f, "{}", self.version),
            Some(r) => write!(f, "{}-{}", self.version, r),
        }
    }
}

#[cfg(test)]
mod tests;
