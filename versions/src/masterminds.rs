//! Version ranges in the grammar of Masterminds/semver v3 (`NewConstraint`), which
//! OLM v1 (operator-controller) uses for a ClusterExtension's `version` field.
//!
//! (Over 800 lines with its tests: under 600 of code; the rest is the spec's
//! table and the oracle property test, kept beside the grammar they check.)
//!
//! This is a different language from the blang ranges OLM v0 uses for
//! `olm.skipRange` (see [`crate::range`]): partial versions and wildcards
//! (`1.2`, `1.x`, `*`), tilde and caret (`~1.2`, `^0.3`), `||` between groups,
//! commas or whitespace between the comparators of a group, hyphen ranges
//! (`1.2 - 1.4`), and prereleases that only match a group that mentions one.
//!
//! ```
//! use olmsat_versions::masterminds::Constraints;
//! let c = Constraints::parse(">=1.2, <2 || ^3.1").unwrap();
//! let v = |s| semver::Version::parse(s).unwrap();
//! assert!(c.matches(&v("1.9.0")));
//! assert!(c.matches(&v("3.4.0")));
//! assert!(!c.matches(&v("2.0.0")));
//! assert!(!c.matches(&v("1.9.1-rc.1"))); // no prerelease in the group
//! ```

use super::version::go_quote;
use std::cmp::Ordering;
use std::fmt;

/// Why a range could not be parsed. `Display` is Masterminds' exact text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConstraintError {
    /// An `||` group that does not follow the grammar, quoted as written
    /// (Go `%q`), e.g. `improper constraint: " foo"` for `1.0.0 || foo`.
    #[error("improper constraint: {}", go_quote(.0))]
    Improper(String),
    /// A comparator that matches the grammar but whose version cannot be
    /// built (a number too large, a wildcard mixed with digits like `1x`, a
    /// prerelease number with a leading zero).
    #[error("constraint parser error")]
    Parser,
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// none or `=`: equal, or tilde when the version has a wildcard.
    TildeOrEqual,
    /// `!=`
    NotEqual,
    /// `>`
    Greater,
    /// `<`
    Less,
    /// `>=` or `=>`
    GreaterEqual,
    /// `<=` or `=<`
    LessEqual,
    /// `~` or `~>`
    Tilde,
    /// `^`
    Caret,
}

impl Op {
    fn from_text(s: &str) -> Option<Op> {
        Some(match s {
            "" | "=" => Op::TildeOrEqual,
            "!=" => Op::NotEqual,
            ">" => Op::Greater,
            "<" => Op::Less,
            ">=" | "=>" => Op::GreaterEqual,
            "<=" | "=<" => Op::LessEqual,
            "~" | "~>" => Op::Tilde,
            "^" => Op::Caret,
            _ => return None,
        })
    }
}

/// Which part of a comparator's version was a wildcard or missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wildcard {
    /// `1.2.3`: exact.
    None,
    /// `1.2`, `1.2.x`: any patch.
    Patch,
    /// `1`, `1.x`: any minor.
    Minor,
    /// `x`, `*`: any version (the major was a wildcard).
    Major,
}

/// One comparator, e.g. `>=1.2` or `~1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparator {
    op: Op,
    /// The version, wildcards zero-filled, build metadata dropped.
    con: semver::Version,
    wildcard: Wildcard,
    /// The operator and version as written (without surrounding space).
    text: String,
}

impl Comparator {
    /// The operator.
    pub fn op(&self) -> Op {
        self.op
    }

    /// The zero-filled version compared against.
    pub fn version(&self) -> &semver::Version {
        &self.con
    }

    /// Which part was a wildcard.
    pub fn wildcard(&self) -> Wildcard {
        self.wildcard
    }

    fn minor_dirty(&self) -> bool {
        self.wildcard == Wildcard::Minor
    }

    fn patch_dirty(&self) -> bool {
        self.wildcard == Wildcard::Patch
    }

    fn dirty(&self) -> bool {
        self.wildcard != Wildcard::None
    }

    /// Whether `v` satisfies this comparator; `include_pre` says whether its
    /// group mentions a prerelease (otherwise prerelease versions never match).
    fn matches(&self, v: &semver::Version, include_pre: bool) -> bool {
        if !v.pre.is_empty() && !include_pre {
            return false;
        }
        let c = &self.con;
        let cmp = cmp(v, c);
        match self.op {
            Op::TildeOrEqual => {
                if self.dirty() {
                    self.tilde(v)
                } else {
                    cmp == Ordering::Equal
                }
            }
            Op::NotEqual => {
                if self.dirty() {
                    if c.major != v.major {
                        return true;
                    }
                    if c.minor != v.minor && !self.minor_dirty() {
                        return true;
                    } else if self.minor_dirty() {
                        return false;
                    } else if c.patch != v.patch && !self.patch_dirty() {
                        return true;
                    } else if self.patch_dirty() {
                        if !v.pre.is_empty() || !c.pre.is_empty() {
                            return v.pre != c.pre;
                        }
                        return false;
                    }
                }
                cmp != Ordering::Equal
            }
            Op::Greater => {
                if !self.dirty() {
                    return cmp == Ordering::Greater;
                }
                if v.major > c.major {
                    true
                } else if v.major < c.major || self.minor_dirty() {
                    false
                } else if self.patch_dirty() {
                    v.minor > c.minor
                } else {
                    cmp == Ordering::Greater
                }
            }
            Op::Less => cmp == Ordering::Less,
            Op::GreaterEqual => cmp != Ordering::Less,
            Op::LessEqual => {
                if !self.dirty() {
                    return cmp != Ordering::Greater;
                }
                !(v.major > c.major
                    || (v.major == c.major && v.minor > c.minor && !self.minor_dirty()))
            }
            Op::Tilde => self.tilde(v),
            Op::Caret => {
                if cmp == Ordering::Less {
                    return false;
                }
                if c.major > 0 || self.minor_dirty() {
                    return v.major == c.major;
                }
                if v.major > 0 {
                    return false;
                }
                if c.minor > 0 || self.patch_dirty() {
                    return v.minor == c.minor;
                }
                if v.minor > 0 {
                    return false;
                }
                c.patch == v.patch
            }
        }
    }

    fn tilde(&self, v: &semver::Version) -> bool {
        let c = &self.con;
        if cmp(v, c) == Ordering::Less {
            return false;
        }
        if c.major == 0
            && c.minor == 0
            && c.patch == 0
            && !self.minor_dirty()
            && !self.patch_dirty()
        {
            return true;
        }
        if v.major != c.major {
            return false;
        }
        v.minor == c.minor || self.minor_dirty()
    }
}

impl fmt::Display for Comparator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Masterminds' version order: major, minor, patch, then prerelease
/// precedence; build metadata ignored.
fn cmp(a: &semver::Version, b: &semver::Version) -> Ordering {
    a.cmp_precedence(b)
}

/// One `||` group: comparators that must all match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    comparators: Vec<Comparator>,
    /// Whether some comparator has a prerelease (then prerelease versions
    /// may match this group).
    include_pre: bool,
}

impl Group {
    /// The comparators, in written order.
    pub fn comparators(&self) -> &[Comparator] {
        &self.comparators
    }

    /// Whether `v` satisfies every comparator.
    pub fn matches(&self, v: &semver::Version) -> bool {
        self.comparators
            .iter()
            .all(|c| c.matches(v, self.include_pre))
    }
}

/// A parsed Masterminds range: `||` groups of comparators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraints {
    groups: Vec<Group>,
    text: String,
}

impl Constraints {
    /// Parse a range as Masterminds/semver v3 `NewConstraint` does.
    ///
    /// # Errors
    ///
    /// [`ConstraintError::Improper`] naming the first `||` group (as written,
    /// after hyphen ranges are rewritten) that does not follow the grammar.
    pub fn parse(text: &str) -> Result<Constraints, ConstraintError> {
        let rewritten = rewrite_hyphen_ranges(text);
        let mut groups = Vec::new();
        for segment in rewritten.split("||") {
            let items = scan_segment(segment)
                .ok_or_else(|| ConstraintError::Improper(segment.to_owned()))?;
            let mut comparators = Vec::with_capacity(items.len());
            for item in items {
                comparators.push(build(item)?);
            }
            let include_pre = comparators.iter().any(|c| !c.con.pre.is_empty());
            groups.push(Group {
                comparators,
                include_pre,
            });
        }
        Ok(Constraints {
            groups,
            text: text.to_owned(),
        })
    }

    /// Whether `v` satisfies some group.
    pub fn matches(&self, v: &semver::Version) -> bool {
        self.groups.iter().any(|g| g.matches(v))
    }

    /// The groups, in written order.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// The range as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Constraints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Go's `\s`: space, tab, newline, form feed, carriage return.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r')
}

/// A character of a version number part: Masterminds' class `[0-9|x|X|\*]`
/// (which, as written, also admits `|`).
fn is_num_char(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b'|' | b'x' | b'X' | b'*')
}

fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-'
}

/// The parts of a version as matched by Masterminds' version pattern.
#[derive(Debug, Clone, Copy)]
struct VersionParts<'a> {
    /// Everything matched (with a leading `v`, prerelease and build).
    whole: &'a str,
    major: &'a str,
    /// `.N` or empty.
    minor: &'a str,
    /// `.N` or empty.
    patch: &'a str,
    /// `-pre` or empty.
    pre: &'a str,
}

fn skip_spaces(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && is_space(s[i]) {
        i += 1;
    }
    i
}

/// `[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*` from `i`; the end, or `None`.
fn scan_idents(s: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    while j < s.len() && is_ident_char(s[j]) {
        j += 1;
    }
    if j == i {
        return None;
    }
    loop {
        if j < s.len() && s[j] == b'.' {
            let mut k = j + 1;
            while k < s.len() && is_ident_char(s[k]) {
                k += 1;
            }
            if k > j + 1 {
                j = k;
                continue;
            }
        }
        return Some(j);
    }
}

/// The longest version at `i` (the pattern's optional parts are taken when
/// they match whole); `None` when there is no major number.
fn scan_version(text: &str, i: usize) -> Option<(VersionParts<'_>, usize)> {
    let s = text.as_bytes();
    let start = i;
    let mut j = i;
    if j < s.len() && s[j] == b'v' {
        j += 1;
    }
    let major_start = j;
    while j < s.len() && is_num_char(s[j]) {
        j += 1;
    }
    if j == major_start {
        return None;
    }
    let major = &text[major_start..j];
    let mut dotted = [""; 2];
    for part in &mut dotted {
        if j < s.len() && s[j] == b'.' {
            let mut k = j + 1;
            while k < s.len() && is_num_char(s[k]) {
                k += 1;
            }
            if k > j + 1 {
                *part = &text[j..k];
                j = k;
                continue;
            }
        }
        break;
    }
    let mut pre = "";
    if j < s.len() && s[j] == b'-' {
        if let Some(k) = scan_idents(s, j + 1) {
            pre = &text[j..k];
            j = k;
        }
    }
    if j < s.len() && s[j] == b'+' {
        if let Some(k) = scan_idents(s, j + 1) {
            j = k;
        }
    }
    Some((
        VersionParts {
            whole: &text[start..j],
            major,
            minor: dotted[0],
            patch: dotted[1],
            pre,
        },
        j,
    ))
}

/// The operator at `i` (possibly empty) and where it ends.
fn scan_op(s: &[u8], i: usize) -> Option<(Op, usize)> {
    let mut j = i;
    while j < s.len() && j < i + 2 && matches!(s[j], b'=' | b'!' | b'>' | b'<' | b'~' | b'^') {
        j += 1;
    }
    // Prefer the longest operator; fall back to a one-character one.
    let text = std::str::from_utf8(&s[i..j]).ok()?;
    if let Some(op) = Op::from_text(text) {
        return Some((op, j));
    }
    if j > i + 1 {
        let one = std::str::from_utf8(&s[i..i + 1]).ok()?;
        if let Some(op) = Op::from_text(one) {
            return Some((op, i + 1));
        }
    }
    None
}

/// One comparator as found in a group: its text, operator and version.
struct Item<'a> {
    text: &'a str,
    op: Op,
    version: VersionParts<'a>,
}

/// Check an `||` group against Masterminds' grammar
/// `^\s*OP\s*V\s*((\s+|,\s*)OP\s*V\s*)*$` and split it into comparators.
fn scan_segment(segment: &str) -> Option<Vec<Item<'_>>> {
    let s = segment.as_bytes();
    let mut items = Vec::new();
    let mut i = skip_spaces(s, 0);
    loop {
        let start = i;
        let (op, after_op) = scan_op(s, i)?;
        let v_start = skip_spaces(s, after_op);
        let (version, end) = scan_version(segment, v_start)?;
        items.push(Item {
            text: &segment[start..end],
            op,
            version,
        });
        let after = skip_spaces(s, end);
        if after == s.len() {
            return Some(items);
        }
        if s[after] == b',' {
            i = skip_spaces(s, after + 1);
        } else if after > end {
            i = after;
        } else {
            return None;
        }
    }
}

fn is_x(part: &str) -> bool {
    matches!(part, "x" | "X" | "*")
}

/// A version number as Masterminds' `NewVersion` reads it.
fn number(s: &str) -> Result<u64, ConstraintError> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ConstraintError::Parser);
    }
    s.parse().map_err(|_| ConstraintError::Parser)
}

/// Build a comparator the way Masterminds' `parseConstraint` does: a wildcard
/// or missing part zero-fills the rest (keeping only the prerelease).
fn build(item: Item<'_>) -> Result<Comparator, ConstraintError> {
    let p = item.version;
    let minor = p.minor.strip_prefix('.').unwrap_or("");
    let patch = p.patch.strip_prefix('.').unwrap_or("");
    let (wildcard, major, minor, patch) = if is_x(p.major) {
        (Wildcard::Major, 0, 0, 0)
    } else if is_x(minor) || minor.is_empty() {
        (Wildcard::Minor, number(p.major)?, 0, 0)
    } else if is_x(patch) || patch.is_empty() {
        (Wildcard::Patch, number(p.major)?, number(minor)?, 0)
    } else {
        (
            Wildcard::None,
            number(p.major)?,
            number(minor)?,
            number(patch)?,
        )
    };
    let mut con = semver::Version::new(major, minor, patch);
    if let Some(pre) = p.pre.strip_prefix('-') {
        con.pre = semver::Prerelease::new(pre).map_err(|_| ConstraintError::Parser)?;
    }
    Ok(Comparator {
        op: item.op,
        con,
        wildcard,
        text: item.text.to_owned(),
    })
}

/// Masterminds' `rewriteRange`: every `A - B` (a hyphen between spaces) is
/// replaced by `>= A, <= B`, scanning left to right without overlap.
fn rewrite_hyphen_ranges(text: &str) -> String {
    let s = text.as_bytes();
    let mut out = text.to_owned();
    let mut found: Vec<(String, String)> = Vec::new();
    let mut i = 0;
    while i <= s.len() {
        if let Some((whole, replacement, end)) = hyphen_at(text, i) {
            found.push((whole, replacement));
            i = if end > i { end } else { i + 1 };
        } else {
            i += 1;
        }
    }
    for (whole, replacement) in found {
        if let Some(pos) = out.find(&whole) {
            out.replace_range(pos..pos + whole.len(), &replacement);
        }
    }
    out
}

/// `\s*(V)\s+-\s+(V)\s*` anchored at `i`.
fn hyphen_at(text: &str, i: usize) -> Option<(String, String, usize)> {
    let s = text.as_bytes();
    if i < s.len() && !text.is_char_boundary(i) {
        return None;
    }
    let a_start = skip_spaces(s, i);
    let (a, a_end) = scan_version(text, a_start)?;
    let dash = skip_spaces(s, a_end);
    if dash == a_end || dash >= s.len() || s[dash] != b'-' {
        return None;
    }
    let b_start = skip_spaces(s, dash + 1);
    if b_start == dash + 1 {
        return None;
    }
    let (b, b_end) = scan_version(text, b_start)?;
    let end = skip_spaces(s, b_end);
    Some((
        text[i..end].to_owned(),
        format!(">= {}, <= {}", a.whole, b.whole),
        end,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn v(s: &str) -> semver::Version {
        semver::Version::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn m(range: &str, version: &str) -> bool {
        Constraints::parse(range)
            .unwrap_or_else(|e| panic!("{range}: {e}"))
            .matches(&v(version))
    }

    fn err(range: &str) -> String {
        match Constraints::parse(range) {
            Ok(c) => panic!("{range} parsed: {c:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn table_from_the_spec() {
        let yes = |r: &str, vs: &[&str]| {
            for x in vs {
                assert!(m(r, x), "{r} should match {x}");
            }
        };
        let no = |r: &str, vs: &[&str]| {
            for x in vs {
                assert!(!m(r, x), "{r} should not match {x}");
            }
        };
        yes("1.2.3", &["1.2.3", "1.2.3+b"]);
        no("1.2.3", &["1.2.4", "1.2.2"]);
        yes("=1.2.3", &["1.2.3"]);
        yes("1.0.0+1", &["1.0.0", "1.0.0+2", "1.0.0+1"]);
        yes("1.2", &["1.2.0", "1.2.9"]);
        no("1.2", &["1.3.0", "1.1.9"]);
        yes("1.2.x", &["1.2.0", "1.2.99"]);
        yes("=1.2", &["1.2.5"]);
        yes("1", &["1.0.0", "1.9.9"]);
        no("1", &["2.0.0", "0.9.0"]);
        yes("1.x", &["1.5.0"]);
        yes("x", &["0.0.0", "9.9.9"]);
        yes("*", &["3.0.0"]);
        no("*", &["3.0.0-rc.1"]);
        no("!=1.2.3", &["1.2.3"]);
        yes("!=1.2.3", &["1.2.4"]);
        no("!=1.2", &["1.2.0", "1.2.7"]);
        yes("!=1.2", &["1.3.0"]);
        no("!=1.x", &["1.0.0", "1.9.0"]);
        yes("!=1.x", &["2.0.0"]);
        yes(">1.2.3", &["1.2.4"]);
        no(">1.2.3", &["1.2.3"]);
        no(">1.2", &["1.2.9"]);
        yes(">1.2", &["1.3.0"]);
        no(">1", &["1.9.9"]);
        yes(">1", &["2.0.0"]);
        yes(">=1.2.x", &["1.2.0", "5.0.0"]);
        no(">=1.2.x", &["1.1.9"]);
        yes("<1.2.3", &["1.2.2"]);
        no("<1.2.3", &["1.2.3"]);
        no("<2", &["2.0.0"]);
        yes("<2", &["1.9.9"]);
        no("<2.x", &["2.0.0"]);
        yes("<=1.2.3", &["1.2.3"]);
        yes("<=2.x", &["2.9.9"]);
        no("<=2.x", &["3.0.0"]);
        yes("<=1.2", &["1.2.9"]);
        no("<=1.2", &["1.3.0"]);
        yes("~1.2.3", &["1.2.3", "1.2.9"]);
        no("~1.2.3", &["1.3.0", "1.2.2"]);
        yes("~1.2", &["1.2.0"]);
        no("~1.2", &["1.3.0"]);
        yes("~1", &["1.0.0", "1.9.0"]);
        no("~1", &["2.0.0"]);
        yes("~0", &["0.9.9"]);
        no("~0", &["1.0.0"]);
        yes("~*", &["7.0.0"]);
        yes("~0.0.0", &["7.0.0"]);
        no("~0.0.0", &["7.0.0-rc.1"]);
        yes("^1.2.3", &["1.2.3", "1.9.0"]);
        no("^1.2.3", &["2.0.0", "1.2.2"]);
        yes("^0.2.3", &["0.2.3", "0.2.9"]);
        no("^0.2.3", &["0.3.0"]);
        yes("^0.0.3", &["0.0.3"]);
        no("^0.0.3", &["0.0.4"]);
        yes("^0", &["0.9.0"]);
        no("^0", &["1.0.0"]);
        yes("^0.0", &["0.0.9"]);
        no("^0.0", &["0.1.0"]);
        // Prereleases match only a group that mentions one.
        no(">=1.0.0", &["1.1.0-rc.1"]);
        yes(">=1.0.0-0", &["1.1.0-rc.1"]);
        yes(">=1.0.0-0 || >=5", &["1.1.0-rc.1"]);
        no(">=5 || >=1.0.0", &["1.1.0-rc.1"]);
        // Separators.
        yes(">=1.0.0 <2.0.0", &["1.5.0"]);
        yes(">=1.0.0, <2.0.0", &["1.5.0"]);
        yes(">= 1.0.0 ,<2.0.0", &["1.5.0"]);
        no(">=1.0.0,<2.0.0", &["2.0.0"]);
        yes("<1.0.0 || >=2.0.0", &["2.1.0", "0.5.0"]);
        no("<1.0.0 >=2.0.0", &["2.1.0", "0.5.0"]);
        yes("v1.2.3", &["1.2.3"]);
        yes(">= 1.2, <= 1.4", &["1.4.0", "1.2.0"]);
        // Hyphen ranges are rewritten to >= A, <= B.
        yes("1.2 - 1.4", &["1.2.0", "1.4.0", "1.4.9"]);
        no("1.2 - 1.4", &["1.5.0", "1.1.0"]);
    }

    #[test]
    fn errors_quote_the_group_as_written() {
        assert_eq!(err("foobar"), r#"improper constraint: "foobar""#);
        assert_eq!(err("1.0.0 || foo"), r#"improper constraint: " foo""#);
        assert_eq!(err(""), r#"improper constraint: """#);
        assert_eq!(err(">=1.0.0 ||"), r#"improper constraint: """#);
        assert_eq!(err(">1<2"), r#"improper constraint: ">1<2""#);
        assert_eq!(err("1.2.3.4"), r#"improper constraint: "1.2.3.4""#);
        assert_eq!(err("==1"), r#"improper constraint: "==1""#);
        assert_eq!(err("1,,2"), r#"improper constraint: "1,,2""#);
        assert_eq!(err("a\tb"), r#"improper constraint: "a\tb""#);
        assert_eq!(err("1x"), "constraint parser error");
        assert_eq!(err("1.2.3-01"), "constraint parser error");
        assert_eq!(err("99999999999999999999"), "constraint parser error");
    }

    #[test]
    fn exposes_its_parts() {
        let c = Constraints::parse(">= 1.2, <2 || ~3").unwrap();
        assert_eq!(c.groups().len(), 2);
        let first = c.groups()[0].comparators();
        assert_eq!(first.len(), 2);
        assert_eq!(first[0].to_string(), ">= 1.2");
        assert_eq!(first[0].op(), Op::GreaterEqual);
        assert_eq!(first[0].wildcard(), Wildcard::Patch);
        assert_eq!(first[1].version(), &v("2.0.0"));
        assert_eq!(c.to_string(), ">= 1.2, <2 || ~3");
    }

    /// A brute-force reading of one comparator over small versions: the
    /// interval it stands for, spelled out by hand from the documented table.
    fn oracle(op: &str, parts: &[u64], x: &semver::Version) -> bool {
        if !x.pre.is_empty() {
            return false;
        }
        let t = (x.major, x.minor, x.patch);
        // [lo, hi) of the written (partial) version.
        let (lo, hi) = match parts.len() {
            1 => ((parts[0], 0, 0), (parts[0] + 1, 0, 0)),
            2 => ((parts[0], parts[1], 0), (parts[0], parts[1] + 1, 0)),
            _ => (
                (parts[0], parts[1], parts[2]),
                (parts[0], parts[1], parts[2] + 1),
            ),
        };
        match op {
            "" | "=" => lo <= t && t < hi,
            "!=" => !(lo <= t && t < hi),
            ">" => t >= hi,
            ">=" => t >= lo,
            "<" => t < lo,
            "<=" => t < hi,
            "~" => {
                let upper = if parts.len() == 1 {
                    (parts[0] + 1, 0, 0)
                } else {
                    (parts[0], parts[1] + 1, 0)
                };
                if parts.iter().all(|p| *p == 0) && parts.len() == 3 {
                    return t >= lo;
                }
                lo <= t && t < upper
            }
            "^" => {
                let upper = if parts[0] > 0 || parts.len() == 1 {
                    (parts[0] + 1, 0, 0)
                } else if parts.len() == 2 || parts[1] > 0 {
                    (0, parts[1] + 1, 0)
                } else {
                    (0, 0, parts[2] + 1)
                };
                lo <= t && t < upper
            }
            _ => unreachable!("op {op}"),
        }
    }

    fn comparator_strategy() -> impl Strategy<Value = (String, Vec<u64>)> {
        (
            prop::sample::select(vec!["", "=", "!=", ">", ">=", "<", "<=", "~", "^"]),
            prop::collection::vec(0u64..3, 1..=3),
        )
            .prop_map(|(op, parts)| (op.to_owned(), parts))
    }

    fn version_strategy() -> impl Strategy<Value = semver::Version> {
        (0u64..4, 0u64..4, 0u64..4, prop::bool::weighted(0.2)).prop_map(|(a, b, c, pre)| {
            let mut x = semver::Version::new(a, b, c);
            if pre {
                x.pre = semver::Prerelease::new("rc.1").unwrap();
            }
            x
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn agrees_with_brute_force(
            groups in prop::collection::vec(prop::collection::vec(comparator_strategy(), 1..3), 1..3),
            probe in version_strategy(),
            comma in any::<bool>(),
        ) {
            let sep = if comma { ", " } else { " " };
            let text = groups
                .iter()
                .map(|g| {
                    g.iter()
                        .map(|(op, parts)| {
                            let p: Vec<String> = parts.iter().map(u64::to_string).collect();
                            format!("{op}{}", p.join("."))
                        })
                        .collect::<Vec<_>>()
                        .join(sep)
                })
                .collect::<Vec<_>>()
                .join(" || ");
            let c = Constraints::parse(&text).unwrap();
            let expected = groups
                .iter()
                .any(|g| g.iter().all(|(op, parts)| oracle(op, parts, &probe)));
            prop_assert_eq!(c.matches(&probe), expected, "{} vs {}", text, probe);
        }

        #[test]
        fn never_panics(text in "[ ,|<>=!~^vxX*0-9.+a-z-]{0,24}", probe in version_strategy()) {
            if let Ok(c) = Constraints::parse(&text) {
                let _ = c.matches(&probe);
            }
        }
    }
}
