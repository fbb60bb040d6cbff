//! The channel head and the `replaces` chain, computed exactly as opm's
//! `Channel.Head` and `validateReplacesChain` do, and kept as data so that
//! validation, upgrade graphs and the resolver share one computation.
//!
//! - The head is the only entry no `replaces` or `skips` points at (`skipRange`
//!   plays no part).
//! - From the head, `replaces` is followed until the next name is skipped by any
//!   entry of the channel, or is not in the channel (a tail may replace a missing
//!   name). Meeting a name twice is a cycle.
//! - Entries neither on that chain nor skipped by anyone are stranded.

use std::collections::BTreeSet;

// foldhash: fast, and seeded per process like the standard hasher.

use crate::declcfg::ChannelEntry;
use crate::name_index::NameIndex;

/// What is wrong with a channel's graph, with opm's message texts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChainError {
    /// No entry without incoming edges.
    NoHead,
    /// Several entries without incoming edges (sorted names).
    MultipleHeads(Vec<String>),
    /// The replaces chain comes back to a name (the loop, first name repeated last).
    Cycle(Vec<String>),
    /// Entries neither on the chain nor skipped (sorted names).
    Stranded(Vec<String>),
}

impl std::fmt::Display for ChainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChainError::NoHead => f.write_str("no channel head found in graph"),
            ChainError::MultipleHeads(h) => {
                write!(f, "multiple channel heads found in graph: {}", h.join(", "))
            }
            ChainError::Cycle(c) => write!(
                f,
                "detected cycle in replaces chain of upgrade graph: {}",
                c.join(" -> ")
            ),
            ChainError::Stranded(s) => write!(
                f,
                "channel contains one or more stranded bundles: {}",
                s.join(", ")
            ),
        }
    }
}

/// Head, chain and skipped set of one channel.
#[derive(Debug, Clone, Default)]
pub struct ChainAnalysis {
    /// Index (into the entries) of the head, when there is exactly one.
    pub head: Option<usize>,
    /// Entries on the replaces chain from the head, head first (indices).
    pub chain: Vec<usize>,
    /// Every name skipped by some entry of the channel.
    pub skipped: BTreeSet<String>,
    /// Per entry (by index): whether its name is in `skipped`.
    pub skipped_entries: Vec<bool>,
    /// Per entry (by index): the entry its `replaces` names, when that is a
    /// name in the channel (its first entry); `None` for later duplicates.
    pub replaced: Vec<Option<usize>>,
    /// The entries by name (the first of each name).
    pub index: NameIndex,
    /// Entries whose name an earlier entry has (ignored by the analysis), in order.
    pub repeated: Vec<usize>,
    /// The first problem opm would report for this channel's graph.
    pub error: Option<ChainError>,
}

/// Where, relative to an entry, the entry its `replaces` or `skips` names is
/// looked for before the name is looked up: the usual places in channels
/// listed oldest first or newest first.
const NEIGHBOURS: [isize; 4] = [-1, 1, -2, 2];

/// Analyse a channel's entries (names assumed unique; later duplicates are ignored).
///
/// Names are hashed once each: after that the walk works on entry indices.
pub fn analyze(entries: &[ChannelEntry]) -> ChainAnalysis {
    let (index, repeated) = NameIndex::new(entries, |e| &e.name);
    let mut out = walk(entries, &index, &repeated);
    out.index = index;
    out.repeated = repeated;
    out
}

/// [`analyze`] with the entries indexed.
fn walk(entries: &[ChannelEntry], index: &NameIndex, repeated: &[usize]) -> ChainAnalysis {
    let by_name = |name: &str| index.find(entries, |e| &e.name, name);
    // `first[i]`: entry `i` is the first with its name (later duplicates are ignored).
    let mut first = vec![true; entries.len()];
    for &i in repeated {
        first[i] = false;
    }
    // The entry a `replaces` or `skips` of entry `i` names: channels mostly
    // list entries in version order, so it is usually a neighbour, found
    // without hashing the name. A neighbour that is the first of its name is
    // the entry the index would give.
    let named_near = |i: usize, name: &str| {
        NEIGHBOURS
            .iter()
            .map(|&d| i.wrapping_add_signed(d))
            .find(|&j| first.get(j).copied() == Some(true) && entries[j].name == name)
            .or_else(|| by_name(name))
    };
    // Which entries some `replaces` or `skips` points at, and which are skipped.
    let mut incoming = vec![false; entries.len()];
    let mut skipped_entry = vec![false; entries.len()];
    // The entry each entry's `replaces` names, when it names one.
    let mut replaced: Vec<Option<usize>> = vec![None; entries.len()];
    let mut skipped_names: Vec<&str> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if !first[i] {
            continue;
        }
        if let Some(r) = &e.replaces {
            if let Some(j) = named_near(i, r) {
                incoming[j] = true;
                replaced[i] = Some(j);
            }
        }
        for s in &e.skips {
            if let Some(j) = named_near(i, s) {
                incoming[j] = true;
                skipped_entry[j] = true;
            }
            skipped_names.push(s);
        }
    }
    let mut heads: Vec<usize> = (0..entries.len())
        .filter(|&i| first[i] && !incoming[i])
        .collect();
    // The set is built at once from the sorted names (a name at a time
    // costs a search each).
    skipped_names.sort_unstable();
    skipped_names.dedup();
    let mut out = ChainAnalysis {
        skipped: skipped_names.into_iter().map(str::to_owned).collect(),
        replaced,
        ..ChainAnalysis::default()
    };
    // Later duplicates share their name's flag.
    out.skipped_entries = entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            if first[i] {
                skipped_entry[i]
            } else {
                by_name(&e.name).is_some_and(|j| skipped_entry[j])
            }
        })
        .collect();
    if heads.is_empty() {
        out.error = Some(ChainError::NoHead);
        return out;
    }
    if heads.len() > 1 {
        heads.sort_by(|a, b| entries[*a].name.cmp(&entries[*b].name));
        out.error = Some(ChainError::MultipleHeads(
            heads.iter().map(|&i| entries[i].name.clone()).collect(),
        ));
        return out;
    }
    let head = heads[0];
    out.head = Some(head);
    let mut on_chain = vec![false; entries.len()];
    on_chain[head] = true;
    let mut cur = head;
    loop {
        out.chain.push(cur);
        // A name outside the channel ends the chain (a tail may replace a
        // missing bundle), and so does a skipped one.
        let next = match &entries[cur].replaces {
            Some(_) => out.replaced[cur],
            // No `replaces` reads as the empty name, which an entry may have.
            None => by_name(""),
        };
        let Some(next) = next else {
            break;
        };
        if skipped_entry[next] {
            break;
        }
        let replaces = entries[next].name.as_str();
        if on_chain[next] {
            let from = out
                .chain
                .iter()
                .position(|&i| entries[i].name == replaces)
                .unwrap_or(0);
            let mut cycle: Vec<String> = out.chain[from..]
                .iter()
                .map(|&i| entries[i].name.clone())
                .collect();
            cycle.push(replaces.to_owned());
            out.error = Some(ChainError::Cycle(cycle));
            return out;
        }
        on_chain[next] = true;
        cur = next;
    }
    let stranded: BTreeSet<&str> = (0..entries.len())
        .filter(|&i| first[i] && !on_chain[i] && !out.skipped_entries[i])
        .map(|i| entries[i].name.as_str())
        .collect();
    if !stranded.is_empty() {
        out.error = Some(ChainError::Stranded(
            stranded.into_iter().map(str::to_owned).collect(),
        ));
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use olmsat_encoding::location::Location;
    use std::sync::Arc;

    /// `name<replaces|skip1,skip2` shorthand.
    pub(crate) fn entries(spec: &[&str]) -> Vec<ChannelEntry> {
        spec.iter()
            .map(|s| {
                let (rest, skips) = match s.split_once('|') {
                    Some((r, k)) => (r, k.split(',').map(str::to_owned).collect()),
                    None => (*s, Vec::new()),
                };
                let (name, replaces) = match rest.split_once('<') {
                    Some((n, r)) => (n, Some(r.to_owned())),
                    None => (rest, None),
                };
                ChannelEntry {
                    name: name.to_owned(),
                    replaces,
                    skips,
                    skip_range: None,
                    location: Location::new(Arc::from("t"), 0),
                }
            })
            .collect()
    }

    /// The analysis as first written, by names: the reference the indexed one
    /// is checked against.
    fn analyze_by_names(entries: &[ChannelEntry]) -> ChainAnalysis {
        let mut by_name: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for (i, e) in entries.iter().enumerate() {
            by_name.entry(e.name.as_str()).or_insert(i);
        }
        let unique: Vec<usize> = {
            let mut v: Vec<usize> = by_name.values().copied().collect();
            v.sort_unstable();
            v
        };
        let mut incoming: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let mut skipped = BTreeSet::new();
        for &i in &unique {
            let e = &entries[i];
            if let Some(r) = &e.replaces {
                incoming.insert(r.as_str());
            }
            for s in &e.skips {
                incoming.insert(s.as_str());
                skipped.insert(s.clone());
            }
        }
        let mut heads: Vec<usize> = unique
            .iter()
            .copied()
            .filter(|&i| !incoming.contains(entries[i].name.as_str()))
            .collect();
        let mut out = ChainAnalysis {
            skipped,
            ..ChainAnalysis::default()
        };
        if heads.is_empty() {
            out.error = Some(ChainError::NoHead);
            return out;
        }
        if heads.len() > 1 {
            heads.sort_by(|a, b| entries[*a].name.cmp(&entries[*b].name));
            out.error = Some(ChainError::MultipleHeads(
                heads.iter().map(|&i| entries[i].name.clone()).collect(),
            ));
            return out;
        }
        let head = heads[0];
        out.head = Some(head);
        let mut on_chain: std::collections::HashSet<&str> = std::collections::HashSet::new();
        on_chain.insert(entries[head].name.as_str());
        let mut visited: Vec<&str> = Vec::new();
        let mut cur = Some(head);
        while let Some(ci) = cur {
            out.chain.push(ci);
            let e = &entries[ci];
            visited.push(e.name.as_str());
            let replaces = e.replaces.as_deref().unwrap_or("");
            if out.skipped.contains(replaces) {
                break;
            }
            if on_chain.contains(replaces) {
                let from = visited.iter().position(|n| *n == replaces).unwrap_or(0);
                let mut cycle: Vec<String> =
                    visited[from..].iter().map(|s| s.to_string()).collect();
                cycle.push(replaces.to_owned());
                out.error = Some(ChainError::Cycle(cycle));
                return out;
            }
            on_chain.insert(replaces);
            cur = by_name.get(replaces).copied();
        }
        let stranded: BTreeSet<&str> = unique
            .iter()
            .map(|&i| entries[i].name.as_str())
            .filter(|n| !on_chain.contains(n) && !out.skipped.contains(*n))
            .collect();
        if !stranded.is_empty() {
            out.error = Some(ChainError::Stranded(
                stranded.into_iter().map(str::to_owned).collect(),
            ));
        }
        out
    }

    proptest::proptest! {
        /// On random channels (dangling names, duplicates, cycles, skips), the
        /// indexed analysis finds what the analysis by names finds.
        #[test]
        fn indexed_analysis_agrees_with_names(
            spec in proptest::collection::vec(
                (0u8..12, proptest::option::of(0u8..14), proptest::collection::vec(0u8..14, 0..3)),
                0..14,
            )
        ) {
            let entries: Vec<ChannelEntry> = spec
                .iter()
                .map(|(n, r, k)| ChannelEntry {
                    name: format!("e{n}"),
                    replaces: r.map(|r| format!("e{r}")),
                    skips: k.iter().map(|k| format!("e{k}")).collect(),
                    skip_range: None,
                    location: Location::new(Arc::from("t"), 0),
                })
                .collect();
            let (new, old) = (analyze(&entries), analyze_by_names(&entries));
            proptest::prop_assert_eq!(new.head, old.head);
            proptest::prop_assert_eq!(&new.chain, &old.chain);
            proptest::prop_assert_eq!(&new.skipped, &old.skipped);
            proptest::prop_assert_eq!(&new.error, &old.error);
            let flags: Vec<bool> = entries.iter().map(|e| old.skipped.contains(&e.name)).collect();
            proptest::prop_assert_eq!(new.skipped_entries, flags);
        }
    }

    fn err(spec: &[&str]) -> Option<String> {
        analyze(&entries(spec)).error.map(|e| e.to_string())
    }

    #[test]
    fn skipped_entries_flag_each_entry_by_name() {
        let a = analyze(&entries(&["a", "b<a", "c<b|a,gone"]));
        assert_eq!(a.skipped_entries, vec![true, false, false]);
        assert_eq!(a.skipped.iter().collect::<Vec<_>>(), vec!["a", "gone"]);
        // Flags are set even when the graph has no single head.
        let a = analyze(&entries(&["x|y", "y", "z"]));
        assert!(a.error.is_some());
        assert_eq!(a.skipped_entries, vec![false, true, false]);
    }

    #[test]
    fn linear_chain() {
        let e = entries(&["a", "b<a", "c<b"]);
        let a = analyze(&e);
        assert_eq!(a.head, Some(2));
        assert_eq!(a.chain, vec![2, 1, 0]);
        assert!(a.error.is_none());
    }

    #[test]
    fn tail_may_replace_missing() {
        assert_eq!(err(&["b<a", "c<b"]), None);
    }

    #[test]
    fn multiple_heads_sorted() {
        assert_eq!(
            err(&["z", "a", "m<a"]).as_deref(),
            Some("multiple channel heads found in graph: m, z")
        );
    }

    #[test]
    fn no_head() {
        assert_eq!(
            err(&["a<b", "b<a"]).as_deref(),
            Some("no channel head found in graph")
        );
    }

    #[test]
    fn cycle_below_head() {
        assert_eq!(
            err(&["h<b", "b<c", "c<b"]).as_deref(),
            Some("detected cycle in replaces chain of upgrade graph: b -> c -> b")
        );
    }

    #[test]
    fn skips_end_the_chain_and_unskipped_are_stranded() {
        // c skips b, so the chain stops at c; a is neither on the chain nor skipped.
        assert_eq!(
            err(&["a", "b<a", "c<b|b"]).as_deref(),
            Some("channel contains one or more stranded bundles: a")
        );
        assert_eq!(err(&["a", "b<a", "c<b|a,b"]), None);
    }

    #[test]
    fn skip_range_only_channels_have_many_heads() {
        assert_eq!(
            err(&["a", "b"]).as_deref(),
            Some("multiple channel heads found in graph: a, b")
        );
    }
}
