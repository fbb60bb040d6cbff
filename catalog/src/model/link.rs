//! Links between a package's channels and bundles: each entry's bundle, and
//! each bundle's channels.

use std::sync::Arc;

// foldhash: fast, and seeded per process like the standard hasher.
use foldhash::{HashMap, HashMapExt};
use rayon::prelude::*;

use super::{Bundle, Channel};
use crate::declcfg::ChannelEntry;

/// Lists at least this long are worked through on all threads.
pub(super) const PARALLEL_ITEMS: usize = 4096;

/// The position in `bundles` (unique names, in name order) of each entry's
/// bundle.
///
/// Channels mostly list entries in version order, which is often name order
/// too: the bundle after the previous entry's is tried first, then the name
/// is found by binary search. A long channel is worked through in slices on
/// all threads.
pub(super) fn entry_bundles(entries: &[ChannelEntry], bundles: &[Bundle]) -> Vec<Option<usize>> {
    debug_assert!(bundles.windows(2).all(|w| w[0].name < w[1].name));
    let find_slice = |slice: &[ChannelEntry]| {
        let mut previous: Option<usize> = None;
        slice
            .iter()
            .map(|e| {
                let next = previous.map(|k| k + 1);
                let found = match next {
                    Some(k) if bundles.get(k).is_some_and(|b| b.name == e.name) => Some(k),
                    _ => {
                        let at = bundles.partition_point(|b| b.name < e.name);
                        bundles
                            .get(at)
                            .is_some_and(|b| b.name == e.name)
                            .then_some(at)
                    }
                };
                previous = found;
                found
            })
            .collect::<Vec<_>>()
    };
    if entries.len() >= PARALLEL_ITEMS {
        entries
            .par_chunks(PARALLEL_ITEMS)
            .map(find_slice)
            .flatten_iter()
            .collect()
    } else {
        find_slice(entries)
    }
}

/// Give each bundle the names of the channels that list it, in channel name
/// order. Bundles listed by the same channels share one list (in a long
/// channel, almost every bundle has the same list as the one before it).
pub(super) fn link_channels(bundles: &mut [Bundle], chans: &[Channel]) {
    // The channels of bundle `i` are `listed[start[i]..start[i + 1]]`.
    let mut start = vec![0usize; bundles.len() + 1];
    for &i in chans
        .iter()
        .flat_map(|ch| ch.entry_bundles.iter().flatten())
    {
        start[i + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut next = start.clone();
    let mut listed = vec![0usize; start[bundles.len()]];
    for (c, ch) in chans.iter().enumerate() {
        for &i in ch.entry_bundles.iter().flatten() {
            listed[next[i]] = c;
            next[i] += 1;
        }
    }
    let names: Vec<&String> = chans.iter().map(|ch| &ch.name).collect();
    let mut shared: HashMap<&[usize], Arc<[String]>> = HashMap::new();
    let mut previous: Option<(&[usize], Arc<[String]>)> = None;
    for (i, b) in bundles.iter_mut().enumerate() {
        let set = &listed[start[i]..start[i + 1]];
        let list = match &previous {
            Some((p, list)) if *p == set => Arc::clone(list),
            _ => {
                let list = shared
                    .entry(set)
                    .or_insert_with(|| set.iter().map(|&c| names[c].clone()).collect());
                Arc::clone(list)
            }
        };
        b.channels = Arc::clone(&list);
        previous = Some((set, list));
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use olmsat_encoding::location::Location;
    use proptest::prelude::*;

    pub(in crate::model) fn named(name: &str) -> Bundle {
        Bundle {
            name: name.to_owned(),
            image: String::new(),
            version: None,
            release: None,
            properties: Vec::new(),
            values: Vec::new(),
            related_images: Vec::new(),
            location: Location::default(),
            channels: Arc::default(),
        }
    }

    pub(in crate::model) fn entry(name: &str) -> ChannelEntry {
        ChannelEntry {
            name: name.to_owned(),
            replaces: None,
            skips: Vec::new(),
            skip_range: None,
            location: Location::default(),
        }
    }

    /// Each entry's bundle by testing every bundle.
    fn entry_bundles_by_search(entries: &[ChannelEntry], bundles: &[Bundle]) -> Vec<Option<usize>> {
        entries
            .iter()
            .map(|e| bundles.iter().position(|b| b.name == e.name))
            .collect()
    }

    proptest! {
        /// Entries find their bundles in any order, and missing ones are
        /// missing.
        #[test]
        fn entries_find_their_bundles(
            names in proptest::collection::btree_set("[a-e]{1,3}", 0..30),
            picks in proptest::collection::vec((any::<bool>(), "[a-e]{1,3}", 0usize..40), 0..40),
        ) {
            let names: Vec<&String> = names.iter().collect();
            let bundles: Vec<Bundle> = names.iter().map(|n| named(n)).collect();
            // An entry is a bundle's name (often the one after the previous
            // entry's) or any name.
            let entries: Vec<ChannelEntry> = picks
                .iter()
                .enumerate()
                .map(|(k, (near, any, at))| match names.len() {
                    0 => entry(any),
                    len if *near => entry(names[(k + at % 3) % len]),
                    len => entry(names[at % len]),
                })
                .collect();
            prop_assert_eq!(
                entry_bundles(&entries, &bundles),
                entry_bundles_by_search(&entries, &bundles)
            );
        }
    }

    #[test]
    fn long_channels_find_their_bundles_in_slices() {
        let names: Vec<String> = (0..3 * PARALLEL_ITEMS)
            .map(|i| format!("b{i:06}"))
            .collect();
        let bundles: Vec<Bundle> = names.iter().map(|n| named(n)).collect();
        // Runs in name order, runs backwards, and names of no bundle.
        let mut entries: Vec<ChannelEntry> = Vec::new();
        for i in 0..names.len() {
            match i % 1000 {
                0..=599 => entries.push(entry(&names[i])),
                600..=899 => entries.push(entry(&names[names.len() - 1 - i])),
                _ => entries.push(entry(&format!("{}x", names[i]))),
            }
        }
        let found = entry_bundles(&entries, &bundles);
        assert_eq!(found, entry_bundles_by_search(&entries, &bundles));
        assert_eq!(found.iter().filter(|f| f.is_none()).count(), 1200);
    }
}
