//! Positions in a list, by name: a hash table of indices into the list, so
//! names are hashed once and never copied. Channels index their entries and
//! packages their bundles with it; graphs of 100,000 entries look names up
//! hundreds of thousands of times.

use std::hash::BuildHasher;

/// The positions of a list's items by name. Of items sharing a name the first
/// is indexed. An index answers only for the list it was built from: asked
/// about a list of another length, it searches that list instead.
#[derive(Debug, Default, Clone)]
pub struct NameIndex {
    table: hashbrown::HashTable<u32>,
    state: foldhash::fast::RandomState,
    len: usize,
}

impl NameIndex {
    /// Index `items` by `name`, returning the index and the positions of items
    /// whose name an earlier item has (in order).
    pub fn new<T>(items: &[T], name: impl Fn(&T) -> &str) -> (NameIndex, Vec<usize>) {
        let state = foldhash::fast::RandomState::default();
        let mut table = hashbrown::HashTable::with_capacity(items.len());
        let mut repeated = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let Ok(pos) = u32::try_from(i) else {
                // Beyond 4 billion items: fall back to searching.
                return (NameIndex::default(), Vec::new());
            };
            let key = name(item);
            let hash = state.hash_one(key);
            match table.entry(
                hash,
                |&j: &u32| name(&items[j as usize]) == key,
                |&j: &u32| state.hash_one(name(&items[j as usize])),
            ) {
                hashbrown::hash_table::Entry::Occupied(_) => repeated.push(i),
                hashbrown::hash_table::Entry::Vacant(v) => {
                    v.insert(pos);
                }
            }
        }
        let len = items.len();
        (NameIndex { table, state, len }, repeated)
    }

    /// Whether the index was built from a list as long as `items` (lookups in
    /// any other list search it item by item).
    pub fn covers<T>(&self, items: &[T]) -> bool {
        self.len == items.len() && (items.is_empty() || !self.table.is_empty())
    }

    /// The position in `items` (the list the index was built from) of the
    /// first item called `key`.
    pub fn find<T>(&self, items: &[T], name: impl Fn(&T) -> &str, key: &str) -> Option<usize> {
        if self.len != items.len() || self.table.is_empty() {
            return items.iter().position(|item| name(item) == key);
        }
        self.table
            .find(self.state.hash_one(key), |&j| {
                items.get(j as usize).is_some_and(|item| name(item) == key)
            })
            .map(|&j| j as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_of_each_name_and_the_repeats() {
        let items = ["b", "a", "b", "c", "a"];
        let (index, repeated) = NameIndex::new(&items, |s| s);
        assert_eq!(repeated, vec![2, 4]);
        for (name, at) in [
            ("b", Some(0)),
            ("a", Some(1)),
            ("c", Some(3)),
            ("d", None),
            ("", None),
        ] {
            assert_eq!(index.find(&items, |s| s, name), at, "{name}");
        }
        // Another list is searched, not looked up.
        let other = ["x", "c"];
        assert_eq!(index.find(&other, |s| s, "c"), Some(1));
        assert_eq!(NameIndex::default().find(&items, |s| s, "c"), Some(3));
    }

    #[test]
    fn many_names() {
        let items: Vec<String> = (0..10_000).map(|i| format!("op.v{i}")).collect();
        let (index, repeated) = NameIndex::new(&items, String::as_str);
        assert!(repeated.is_empty());
        for (i, name) in items.iter().enumerate() {
            assert_eq!(index.find(&items, String::as_str, name), Some(i));
        }
    }
}
