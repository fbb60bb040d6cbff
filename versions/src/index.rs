//! A channel's entries by version, to find the entries a blang range matches
//! without testing every entry: one binary search per bound of each of the
//! range's comparator groups, then an exact test of the versions between.
//! Upgrade graphs find each skipRange's edges with it, and validation whether
//! a skipRange matches any other bundle.

use std::cmp::Ordering;

use super::range::{Comparator, Op, Range};
use super::version::compare;

/// Positions (of entries, say) with their versions, sorted by blang
/// precedence, then by position.
#[derive(Debug, Clone, Default)]
pub struct VersionIndex<'v> {
    sorted: Vec<(&'v semver::Version, usize)>,
}

impl<'v> VersionIndex<'v> {
    /// Index `versions`, given as (position, version).
    pub fn new(versions: impl Iterator<Item = (usize, &'v semver::Version)>) -> Self {
        // Room for as many as there can be (the usual case: every entry has
        // a version).
        let mut sorted: Vec<(&semver::Version, usize)> =
            Vec::with_capacity(versions.size_hint().1.unwrap_or(0));
        sorted.extend(versions.map(|(i, v)| (v, i)));
        sorted.sort_by(|a, b| compare(a.0, b.0).then(a.1.cmp(&b.1)));
        VersionIndex { sorted }
    }

    /// The lowest version indexed, by blang precedence.
    pub fn lowest(&self) -> Option<&'v semver::Version> {
        self.sorted.first().map(|(v, _)| *v)
    }

    /// The positions whose version `range` matches, group by group of the
    /// range, each group's in version order. A position matched by several
    /// groups comes once per group.
    pub fn matching<'a>(&'a self, range: &'a Range) -> impl Iterator<Item = usize> + 'a {
        range.groups().iter().flat_map(move |group| {
            let (start, end) = candidate_slice(&self.sorted, group);
            self.sorted[start..end]
                .iter()
                .filter(move |(v, _)| range.matches(v))
                .map(|(_, i)| *i)
        })
    }
}

/// The part of `sorted` (ascending by version) that can satisfy every comparator
/// of `group`: from its tightest lower bound to its tightest upper bound, both
/// inclusive (the caller still checks each version exactly).
fn candidate_slice(sorted: &[(&semver::Version, usize)], group: &[Comparator]) -> (usize, usize) {
    let mut lo: Option<&semver::Version> = None;
    let mut hi: Option<&semver::Version> = None;
    for c in group {
        let v = &c.version;
        if matches!(c.op, Op::Ge | Op::Gt | Op::Eq)
            && lo.is_none_or(|l| compare(v, l) == Ordering::Greater)
        {
            lo = Some(v);
        }
        if matches!(c.op, Op::Le | Op::Lt | Op::Eq)
            && hi.is_none_or(|h| compare(v, h) == Ordering::Less)
        {
            hi = Some(v);
        }
    }
    let start = lo.map_or(0, |l| {
        sorted.partition_point(|(x, _)| compare(x, l) == Ordering::Less)
    });
    let end = hi.map_or(sorted.len(), |h| {
        sorted.partition_point(|(x, _)| compare(x, h) != Ordering::Greater)
    });
    (start, end.max(start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn v(s: &str) -> semver::Version {
        super::super::version::parse_strict(s).expect("version")
    }

    #[test]
    fn matching_finds_what_the_range_matches() {
        let versions: Vec<semver::Version> = ["1.0.0", "1.2.0", "0.9.0", "2.0.0-rc.1", "1.2.0"]
            .iter()
            .map(|s| v(s))
            .collect();
        let index = VersionIndex::new(versions.iter().enumerate());
        let found = |r: &str| -> Vec<usize> {
            let range = Range::parse(r).expect("range");
            index.matching(&range).collect()
        };
        // blang: a prerelease of 2.0.0 is below 2.0.0.
        assert_eq!(found(">=1.0.0 <2.0.0"), vec![0, 1, 4, 3]);
        assert_eq!(found("<1.0.0 || >=1.2.0"), vec![2, 1, 4, 3]);
        assert_eq!(found("1.2.0"), vec![1, 4]);
        assert_eq!(found(">3.0.0"), Vec::<usize>::new());
    }

    proptest! {
        /// Whatever the versions and the range, the index finds exactly the
        /// positions a test of every version finds.
        #[test]
        fn matching_agrees_with_testing_every_version(
            versions in proptest::collection::vec((0u64..4, 0u64..4, 0u64..3, proptest::option::of(0u64..2)), 0..40),
            ops in proptest::collection::vec((0usize..6, 0u64..4, 0u64..4, 0u64..3), 1..4),
            or in any::<bool>(),
        ) {
            let versions: Vec<semver::Version> = versions
                .iter()
                .map(|&(a, b, c, pre)| match pre {
                    Some(p) => v(&format!("{a}.{b}.{c}-rc.{p}")),
                    None => semver::Version::new(a, b, c),
                })
                .collect();
            let words = ["<", "<=", ">", ">=", "=", "!="];
            let parts: Vec<String> = ops
                .iter()
                .map(|&(op, a, b, c)| format!("{}{a}.{b}.{c}", words[op]))
                .collect();
            let text = parts.join(if or { " || " } else { " " });
            let range = Range::parse(&text).expect("range");
            let index = VersionIndex::new(versions.iter().enumerate());
            let mut found: Vec<usize> = index.matching(&range).collect();
            found.sort_unstable();
            found.dedup();
            let expected: Vec<usize> = (0..versions.len())
                .filter(|&i| range.matches(&versions[i]))
                .collect();
            prop_assert_eq!(found, expected, "{}", text);
        }
    }
}
