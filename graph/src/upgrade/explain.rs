//! Why an OLM v0 walk stops where it does, and why a target is out of reach:
//! the entries that could have taken the bundle and why OLM never offers them,
//! or that no entry could; the nearest point to an unreachable target.

use std::cmp::Ordering;

use petgraph::graph::NodeIndex;

use super::graph::ChannelGraph;
use super::query::{NotOffered, Step};
use super::start::Start;
use olmsat_catalog::declcfg::ChannelEntry;

/// An entry that would take the stuck bundle, and why OLM v0 never offers it.
#[derive(Debug, Clone)]
pub struct Blocked<'m> {
    /// The edge from the stuck bundle to the entry.
    pub step: Step<'m>,
    /// Why OLM v0 never offers the entry.
    pub why: NotOffered<'m>,
    /// For a skipped entry: the entries whose `skips` list it (sorted by name).
    pub skipped_by: Vec<&'m ChannelEntry>,
}

/// Why OLM v0 offers nothing from a bundle.
#[derive(Debug, Clone)]
pub enum Stuck<'m> {
    /// No entry of the channel replaces it, skips it, or has a `skipRange`
    /// containing its version (`has_version` false: it has none to match).
    Untaken {
        /// Whether the bundle has a version `skipRange`s could contain.
        has_version: bool,
    },
    /// Entries would take it, but OLM v0 offers none of them.
    Blocked(Vec<Blocked<'m>>),
}

/// Why a target cannot be reached from a start over any edge.
#[derive(Debug, Clone)]
pub struct Unreachable<'m> {
    /// The reachable bundle closest below the target (highest version not above
    /// it), or `None` when the start itself is nearest.
    pub nearest: Option<NodeIndex>,
    /// Entries from which the target can be reached, lowest version first,
    /// that are above the nearest point (at most [`Unreachable::MAX_LEADS`]):
    /// one of them would need to replace, skip or `skipRange`-match it.
    pub leads: Vec<&'m ChannelEntry>,
}

impl Unreachable<'_> {
    /// Most leads reported.
    pub const MAX_LEADS: usize = 3;
}

impl<'m> ChannelGraph<'m> {
    /// The entries whose `skips` list node `n`, sorted by name.
    pub fn skipped_by(&self, n: NodeIndex) -> Vec<&'m ChannelEntry> {
        let name = self.node(n).name;
        let mut by: Vec<&'m ChannelEntry> = self
            .channel()
            .entries()
            .iter()
            .filter(|e| e.skips.iter().any(|s| s == name))
            .collect();
        by.sort_by(|a, b| a.name.cmp(&b.name));
        by
    }

    /// Why OLM v0 offers no upgrade from `at`: every graph edge out of it leads
    /// to an entry OLM never offers, or there is no such edge at all.
    pub fn why_stuck(&self, at: &Start) -> Stuck<'m> {
        let blocked: Vec<Blocked<'m>> = self
            .graph_successors(at)
            .into_iter()
            .filter_map(|step| {
                let why = self.not_offered(step.to)?;
                let skipped_by = match why {
                    NotOffered::Skipped(_) => self.skipped_by(step.to),
                    _ => Vec::new(),
                };
                Some(Blocked {
                    step,
                    why,
                    skipped_by,
                })
            })
            .collect();
        if blocked.is_empty() {
            Stuck::Untaken {
                has_version: at.version.is_some(),
            }
        } else {
            Stuck::Blocked(blocked)
        }
    }

    /// The head's version when `start`'s version is above it (nothing in the
    /// channel is newer than the start).
    pub fn newer_than_head(&self, start: &Start) -> Option<&'m semver::Version> {
        let head = self.node(self.head()?).version?;
        let v = start.version.as_ref()?;
        (v.cmp_precedence(head) == Ordering::Greater).then_some(head)
    }

    /// Why `target` is out of reach from `start` over every edge, or `None`
    /// when it can be reached.
    pub fn why_unreachable(&self, start: &Start, target: NodeIndex) -> Option<Unreachable<'m>> {
        if start.node == Some(target) {
            return None;
        }
        let reachable = self.reachable_from(start);
        if reachable.contains(&target) {
            return None;
        }
        let target_version = self.node(target).version;
        let below = |v: Option<&semver::Version>| match (v, target_version) {
            (Some(v), Some(t)) => v.cmp_precedence(t) != Ordering::Greater,
            _ => false,
        };
        let nearest = reachable
            .iter()
            .copied()
            .filter(|n| below(self.node(*n).version))
            .max_by(|a, b| self.version_order(*a, *b));
        let floor = nearest
            .and_then(|n| self.node(n).version)
            .or(start.version.as_ref());
        let reaching = self.reaching(target);
        let mut leads: Vec<(&'m semver::Version, &'m ChannelEntry)> = self
            .node_indices()
            .filter(|n| reaching[n.index()])
            .filter_map(|n| {
                let node = self.node(n);
                let entry = self.entry_of(n)?;
                let v = node.version?;
                let above = floor.is_none_or(|f| v.cmp_precedence(f) == Ordering::Greater);
                above.then_some((v, entry))
            })
            .collect();
        leads.sort_by(|a, b| a.0.cmp_precedence(b.0).then(a.1.name.cmp(&b.1.name)));
        leads.truncate(Unreachable::MAX_LEADS);
        Some(Unreachable {
            nearest,
            leads: leads.into_iter().map(|(_, e)| e).collect(),
        })
    }

    /// The channel entry of node `n`, when it is one.
    pub fn entry_of(&self, n: NodeIndex) -> Option<&'m ChannelEntry> {
        match self.node(n).presence {
            super::graph::Presence::Entry(i) => self.channel().entries().get(i),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::upgrade::fixture::{package, stable};

    fn graph(p: &olmsat_catalog::model::Package) -> ChannelGraph<'_> {
        ChannelGraph::build(p, stable(p))
    }

    #[test]
    fn a_bundle_nothing_takes_is_untaken() {
        let p = package(&["b@1.1.0;>=1.0.0 <1.0.5", "c@1.2.0<b"]);
        let g = graph(&p);
        let s = g.resolve_start("1.0.7").expect("a version");
        assert!(matches!(
            g.why_stuck(&s),
            Stuck::Untaken { has_version: true }
        ));
    }

    #[test]
    fn a_skipped_successor_names_who_skips_it() {
        let p = package(&["a@1.0.0", "b@1.1.0<a", "c@1.2.0<b|b"]);
        let g = graph(&p);
        let s = g.resolve_start("a").expect("a name");
        let Stuck::Blocked(b) = g.why_stuck(&s) else {
            panic!("b is skipped");
        };
        assert_eq!(b.len(), 1);
        assert_eq!(g.node(b[0].step.to).name, "b");
        let by: Vec<&str> = b[0].skipped_by.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(by, ["c"]);
    }

    #[test]
    fn newer_than_head_compares_versions() {
        let p = package(&["a@1.0.0", "b@1.1.0<a"]);
        let g = graph(&p);
        let s = g.resolve_start("2.0.0").expect("a version");
        assert_eq!(
            g.newer_than_head(&s).map(ToString::to_string),
            Some("1.1.0".into())
        );
        let s = g.resolve_start("1.0.5").expect("a version");
        assert_eq!(g.newer_than_head(&s), None);
    }

    #[test]
    fn unreachable_targets_name_the_nearest_point_and_leads() {
        // d's range stops below c's version: from a, nothing leads past c to d.
        let p = package(&[
            "a@1.0.0",
            "b@1.1.0<a",
            "c@1.2.0<b",
            "x@1.3.0",
            "d@1.4.0<x;>=1.0.0 <1.2.0",
        ]);
        let g = graph(&p);
        let s = g.resolve_start("c").expect("a name");
        let d = g.node_index("d").expect("d");
        let u = g.why_unreachable(&s, d).expect("unreachable");
        assert_eq!(u.nearest, None);
        let leads: Vec<&str> = u.leads.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(leads, ["x", "d"]);
        let s = g.resolve_start("a").expect("a name");
        assert!(g.why_unreachable(&s, d).is_none());
    }
}
