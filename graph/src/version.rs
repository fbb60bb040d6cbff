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
pub(crate) fn go_quote(s: &str) -> String {
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
mod tests {
    use super::*;

    fn v(s: &str) -> semver::Version {
        match parse_strict(s) {
            Ok(v) => v,
            Err(e) => panic!("{s}: {e}"),
        }
    }

    fn err(s: &str) -> String {
        match parse_strict(s) {
            Ok(v) => panic!("{s} parsed as {v}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn strict_accepts() {
        for s in [
            "0.0.0",
            "1.2.3",
            "10.20.30",
            "1.2.3-alpha",
            "1.2.3-alpha.1",
            "1.2.3-0",
            "1.2.3-0a",
            "1.2.3-a-b.c--",
            "1.2.3--",
            "1.2.3+build",
            "1.2.3+001",
            "1.2.3-rc.1+build.5",
            "1.2.3+a-b",
            "18446744073709551615.0.0",
            "1.0.0-18446744073709551615",
        ] {
            assert_eq!(v(s).to_string(), s);
        }
        let x = v("1.2.3-rc.1+b.2");
        assert_eq!((x.major, x.minor, x.patch), (1, 2, 3));
        assert_eq!(x.pre.as_str(), "rc.1");
        assert_eq!(x.build.as_str(), "b.2");
    }

    #[test]
    fn strict_error_texts() {
        let cases = [
            ("", "Version string empty"),
            ("1", "No Major.Minor.Patch elements found"),
            ("1.2", "No Major.Minor.Patch elements found"),
            (
                "v1.2.3",
                "Invalid character(s) found in major number \"v1\"",
            ),
            (
                "01a.2.3",
                "Invalid character(s) found in major number \"01a\"",
            ),
            (
                "01.2.3",
                "Major number must not contain leading zeroes \"01\"",
            ),
            (
                "1.02.3",
                "Minor number must not contain leading zeroes \"02\"",
            ),
            (
                "1.2.03",
                "Patch number must not contain leading zeroes \"03\"",
            ),
            ("1.x.3", "Invalid character(s) found in minor number \"x\""),
            ("1.2.x", "Invalid character(s) found in patch number \"x\""),
            (
                "1.2.3.4",
                "Invalid character(s) found in patch number \"3.4\"",
            ),
            (
                "1.2.3 ",
                "Invalid character(s) found in patch number \"3 \"",
            ),
            (
                "1.2.3\t",
                "Invalid character(s) found in patch number \"3\\t\"",
            ),
            ("1..3", "strconv.ParseUint: parsing \"\": invalid syntax"),
            (".1.2", "strconv.ParseUint: parsing \"\": invalid syntax"),
            ("1.2.", "strconv.ParseUint: parsing \"\": invalid syntax"),
            ("1.2.-rc", "strconv.ParseUint: parsing \"\": invalid syntax"),
            (
                "18446744073709551616.0.0",
                "strconv.ParseUint: parsing \"18446744073709551616\": value out of range",
            ),
            (
                "1.99999999999999999999.0",
                "strconv.ParseUint: parsing \"99999999999999999999\": value out of range",
            ),
            ("1.2.3-", "Prerelease is empty"),
            ("1.2.3-a..b", "Prerelease is empty"),
            (
                "1.2.3-01",
                "Numeric PreRelease version must not contain leading zeroes \"01\"",
            ),
            (
                "1.2.3-a_b",
                "Invalid character(s) found in prerelease \"a_b\"",
            ),
            (
                "1.0.0-99999999999999999999",
                "strconv.ParseUint: parsing \"99999999999999999999\": value out of range",
            ),
            ("1.2.3+", "Build meta data is empty"),
            ("1.2.3+a..b", "Build meta data is empty"),
            (
                "1.2.3+a+b",
                "Invalid character(s) found in build meta data \"a+b\"",
            ),
            ("1.2.3-é", "Invalid character(s) found in prerelease \"é\""),
            (
                "1.2.3-a\u{200b}",
                "Invalid character(s) found in prerelease \"a\\u200b\"",
            ),
            (
                "1.2.3-\"\\",
                "Invalid character(s) found in prerelease \"\\\"\\\\\"",
            ),
            // Patch is checked before the prerelease.
            (
                "1.2.x-01",
                "Invalid character(s) found in patch number \"x\"",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(err(input), want, "input {input:?}");
        }
    }

    #[test]
    fn tolerant() {
        let ok = [
            ("1", "1.0.0"),
            ("1.2", "1.2.0"),
            ("v1.2.3", "1.2.3"),
            (" v1.2.3\n", "1.2.3"),
            ("01.02.03", "1.2.3"),
            ("00.00.00", "0.0.0"),
            ("1.2.03-rc.1", "1.2.3-rc.1"),
            ("1.2.0-rc", "1.2.0-rc"),
            ("1.2.00-rc", "1.2.0-rc"),
        ];
        for (input, want) in ok {
            match parse_tolerant(input) {
                Ok(got) => assert_eq!(got.to_string(), want, "input {input:?}"),
                Err(e) => panic!("{input:?}: {e}"),
            }
        }
        let bad = [
            (
                "1.2-rc",
                "Short version cannot contain PreRelease/Build meta data",
            ),
            (
                "1+b",
                "Short version cannot contain PreRelease/Build meta data",
            ),
            ("", "strconv.ParseUint: parsing \"\": invalid syntax"),
            (
                "vv1.2.3",
                "Invalid character(s) found in major number \"0v1\"",
            ),
            (
                "1.2.3-01",
                "Numeric PreRelease version must not contain leading zeroes \"01\"",
            ),
            ("a.b", "Invalid character(s) found in major number \"a\""),
            (
                "0a.1.2",
                "Invalid character(s) found in major number \"0a\"",
            ),
        ];
        for (input, want) in bad {
            match parse_tolerant(input) {
                Ok(got) => panic!("{input:?} parsed as {got}"),
                Err(e) => assert_eq!(e.to_string(), want, "input {input:?}"),
            }
        }
    }

    #[test]
    fn compare_ignores_build() {
        use Ordering::*;
        let cases = [
            ("1.0.0", "1.0.0+build", Equal),
            ("1.0.0+a", "1.0.0+b", Equal),
            ("1.0.0-rc.1", "1.0.0", Less),
            ("1.0.0-alpha", "1.0.0-alpha.1", Less),
            ("1.0.0-alpha.1", "1.0.0-alpha.beta", Less),
            ("1.0.0-beta.2", "1.0.0-beta.11", Less),
            ("1.0.0-rc.1", "1.0.0-beta.11", Greater),
            ("1.0.0-1", "1.0.0-a", Less),
            ("1.0.0-B", "1.0.0-a", Less),
            ("2.0.0", "10.0.0", Less),
            ("1.10.0", "1.9.0", Greater),
        ];
        for (a, b, want) in cases {
            assert_eq!(compare(&v(a), &v(b)), want, "{a} vs {b}");
            assert_eq!(compare(&v(b), &v(a)), want.reverse(), "{b} vs {a}");
        }
    }

    #[test]
    fn release_parse() {
        assert_eq!(parse_release(""), Ok(None));
        let r = match parse_release("1.rc-2.0") {
            Ok(Some(r)) => r,
            other => panic!("{other:?}"),
        };
        assert_eq!(r.to_string(), "1.rc-2.0");
        assert_eq!(
            r.identifiers(),
            &[
                ReleaseIdentifier::Numeric(1),
                ReleaseIdentifier::AlphaNumeric("rc-2".into()),
                ReleaseIdentifier::Numeric(0)
            ]
        );
        assert!(matches!(parse_release("12345678901234567890"), Ok(Some(_))));
        let bad = [
            (
                "123456789012345678901",
                "invalid release \"123456789012345678901\": exceeds maximum length of 20 characters",
            ),
            (
                "01",
                "invalid release \"01\": segment 0: Numeric PreRelease version must not contain leading zeroes \"01\"",
            ),
            (
                "a..b_c",
                "invalid release \"a..b_c\": segment 1: Prerelease is empty\nsegment 2: Invalid character(s) found in prerelease \"b_c\"",
            ),
            (
                ".",
                "invalid release \".\": segment 0: Prerelease is empty\nsegment 1: Prerelease is empty",
            ),
            (
                "99999999999999999999",
                "invalid release \"99999999999999999999\": segment 0: strconv.ParseUint: parsing \"99999999999999999999\": value out of range",
            ),
            (
                "1+2",
                "invalid release \"1+2\": segment 0: Invalid character(s) found in prerelease \"1+2\"",
            ),
        ];
        for (input, want) in bad {
            match parse_release(input) {
                Ok(r) => panic!("{input:?} parsed as {r:?}"),
                Err(e) => assert_eq!(e.to_string(), want, "input {input:?}"),
            }
        }
    }

    fn rel(s: &str) -> Release {
        match parse_release(s) {
            Ok(Some(r)) => r,
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn release_compare() {
        use Ordering::*;
        let cases = [
            ("1", "2", Less),
            ("2", "10", Less),
            ("1", "a", Less),
            ("1", "1.0", Less),
            ("alpha", "beta", Less),
            ("1.a", "1.a", Equal),
            ("B", "a", Less),
        ];
        for (a, b, want) in cases {
            assert_eq!(rel(a).compare(&rel(b)), want, "{a} vs {b}");
            assert_eq!(rel(b).compare(&rel(a)), want.reverse(), "{b} vs {a}");
            assert_eq!(rel(a).cmp(&rel(b)), want);
        }
    }

    #[test]
    fn version_release() {
        let a = VersionRelease {
            version: v("1.0.0"),
            release: None,
        };
        let b = VersionRelease {
            version: v("1.0.0+build"),
            release: Some(rel("1")),
        };
        let c = VersionRelease {
            version: v("1.0.0"),
            release: Some(rel("2")),
        };
        let d = VersionRelease {
            version: v("1.0.1-rc.1"),
            release: None,
        };
        assert_eq!(a.compare(&b), Ordering::Less);
        assert_eq!(b.compare(&c), Ordering::Less);
        assert_eq!(c.compare(&d), Ordering::Less);
        assert_eq!(a.compare(&a.clone()), Ordering::Equal);
        assert_eq!(a.to_string(), "1.0.0");
        assert_eq!(b.to_string(), "1.0.0+build-1");
        assert_eq!(c.to_string(), "1.0.0-2");
    }

    #[test]
    fn quote() {
        assert_eq!(go_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(go_quote("\u{0}\u{1b}\u{7f}"), "\"\\x00\\x1b\\x7f\"");
        assert_eq!(
            go_quote("\u{7}\u{8}\u{c}\n\r\t\u{b}"),
            "\"\\a\\b\\f\\n\\r\\t\\v\""
        );
        assert_eq!(go_quote("é☃"), "\"é☃\"");
        assert_eq!(go_quote("\u{a0}\u{feff}"), "\"\\u00a0\\ufeff\"");
        assert_eq!(go_quote("\u{e0001}"), "\"\\U000e0001\"");
        assert_eq!(go_quote("\u{10ffff}\u{fdd0}"), "\"\\U0010ffff\\ufdd0\"");
    }

    mod prop {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2000))]

            #[test]
            fn strict_never_panics_and_roundtrips(s in "[0-9a-zA-Z.+\\-]{0,16}") {
                if let Ok(v) = parse_strict(&s) {
                    prop_assert_eq!(v.to_string(), s);
                }
            }

            #[test]
            fn strict_agrees_with_semver_crate_on_valid(
                maj in 0u64..1000, min in 0u64..1000, pat in 0u64..1000,
                pre in proptest::option::of("[0-9A-Za-z-]{1,4}(\\.[1-9A-Za-z-][0-9A-Za-z-]{0,3}){0,2}"),
            ) {
                let mut s = format!("{maj}.{min}.{pat}");
                if let Some(p) = &pre { s.push('-'); s.push_str(p); }
                let ours = parse_strict(&s);
                let theirs = semver::Version::parse(&s);
                prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{}", s);
                if let (Ok(a), Ok(b)) = (ours, theirs) { prop_assert_eq!(a, b); }
            }

            /// The one-pass reading of plain versions gives what the
            /// general reading gives (versions and errors alike), including
            /// leading zeroes, empty parts and numbers past `u64`.
            #[test]
            fn plain_versions_read_as_the_general_reader_reads_them(
                s in "[0-9]{0,21}(\\.[0-9]{0,21}){0,3}[.a+-]?[0-9]{0,2}",
            ) {
                let general = parse_strict_general(&s);
                if let Some(v) = plain_version(&s) {
                    prop_assert_eq!(Ok(v), general.clone(), "{}", s);
                }
                prop_assert_eq!(parse_strict(&s), general, "{}", s);
            }

            #[test]
            fn tolerant_never_panics(s in "\\PC{0,16}") {
                let _ = parse_tolerant(&s);
                let _ = parse_release(&s);
            }
        }
    }
}
