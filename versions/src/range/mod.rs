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
//!
//! The types and matching are here; blang's preprocessing in `parse`, the
//! suggestions for rejected texts in `hint`.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use super::version;

mod hint;
mod parse;

pub use hint::hint;
use parse::{
    build_version_range, expand_wildcard_version, split_and_trim, split_comparator_version,
    split_or_parts,
};

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
                let c = build_version_range(ap, op_str, v_str)?;
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

    /// For a range of one group that does not contain `v`: the first of its
    /// comparators that `v` fails, i.e. where the range stops below `v` (`<`,
    /// `<=`) or starts above it (`>`, `>=`). `None` when `v` is in the range
    /// or the range has several `||` groups.
    ///
    /// ```
    /// use olmsat_versions::range::Range;
    /// let r = Range::parse(">=1.3.0 <1.4.0").unwrap();
    /// let v = semver::Version::new(1, 4, 2);
    /// assert_eq!(r.failing(&v).map(ToString::to_string).as_deref(), Some("<1.4.0"));
    /// assert!(r.failing(&semver::Version::new(1, 3, 5)).is_none());
    /// ```
    pub fn failing(&self, v: &semver::Version) -> Option<&Comparator> {
        match self.groups.as_slice() {
            [group] => group.iter().find(|c| !c.matches(v)),
            _ => None,
        }
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

#[cfg(test)]
mod tests;
