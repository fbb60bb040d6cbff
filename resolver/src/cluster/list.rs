//! Kubernetes `List` documents too large for one YAML document's budget
//! (`oc get csv -A -o yaml` on a cluster with hundreds of operators), and
//! the parser's budgets in words.
//!
//! A stream of documents (`---`) is read one document at a time, each held
//! to the parser's budget for one document ([`DOCUMENT_NODES`] nodes,
//! [`DOCUMENT_SCALAR_BYTES`] bytes of scalar text). A `List` holds the same
//! objects as its items, so each item is held to that budget instead of the
//! whole List, and the List as a whole to [`LIST_NODES`] nodes and
//! [`LIST_SCALAR_BYTES`] bytes of scalar text (more than the 1 GiB file
//! limit leaves room for in practice).
//!
//! A document over the budget of one document is read again only when it is
//! a List: first counted without keeping anything (is it a List, how large
//! is each item), then read item by item, each item turned into objects
//! before the next is read, so memory holds one item at a time.

use std::sync::Arc;

use olmsat_encoding::location::Location;
use olmsat_encoding::rawjson::Transcoded;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use serde_saphyr::budget::BudgetBreach;
use serde_saphyr::{Budget, Spanned};

use super::{add_object, ClusterError, ClusterState};

/// Nodes (mappings, sequences and scalars) one YAML document, or one item of
/// a List, may hold (the parser's default budget).
pub const DOCUMENT_NODES: usize = 250_000;

/// Bytes of scalar text one YAML document, or one item of a List, may hold
/// (the parser's default budget: 64 MiB).
pub const DOCUMENT_SCALAR_BYTES: usize = 64 << 20;

/// Nodes a List may hold in all: 256 documents' worth.
pub const LIST_NODES: usize = 256 * DOCUMENT_NODES;

/// Bytes of scalar text a List may hold in all (1 GiB, the file limit).
pub const LIST_SCALAR_BYTES: usize = 1 << 30;

/// Parser events a List may hold in all (four per node: room for the ends
/// of mappings and sequences).
const LIST_EVENTS: usize = 4 * LIST_NODES;

/// The budget a List is read under.
fn list_budget() -> Budget {
    let mut b = Budget::default();
    b.max_nodes = LIST_NODES;
    b.max_events = LIST_EVENTS;
    b.max_total_scalar_bytes = LIST_SCALAR_BYTES;
    b
}

fn list_options() -> serde_saphyr::Options {
    let mut opts = serde_saphyr::Options::default();
    opts.budget = Some(list_budget());
    opts
}

/// The budget breach inside `e`, if it is one.
pub(super) fn breach(e: &serde_saphyr::Error) -> Option<&BudgetBreach> {
    match e.without_snippet() {
        serde_saphyr::Error::Budget { breach, .. } => Some(breach),
        serde_saphyr::Error::AliasError { error, .. } => breach(error),
        _ => None,
    }
}

/// Whether a breach is of a budget that grows with the document's size (so
/// that a List within budget item by item may breach it as a whole).
pub(super) fn grows_with_size(b: &BudgetBreach) -> bool {
    matches!(
        b,
        BudgetBreach::Nodes { .. } | BudgetBreach::Events { .. } | BudgetBreach::ScalarBytes { .. }
    )
}

/// A budget breach in words: which limit, its figure, what to do. `what`
/// names what was over it ("the YAML document", "the List").
pub(super) fn breach_words(b: &BudgetBreach, what: &str, budget: &Budget) -> String {
    let split = "split it into several documents (separated by ---) or files";
    match b {
        BudgetBreach::Nodes { .. } => format!(
            "{what} holds more than {} nodes (mappings, sequences and scalars), the most olmsat reads in one; {split}",
            budget.max_nodes
        ),
        BudgetBreach::Events { .. } => format!(
            "{what} holds more than {} YAML parser events, the most olmsat reads in one; {split}",
            budget.max_events
        ),
        BudgetBreach::ScalarBytes { .. } => format!(
            "{what} holds more than {} bytes of scalar text, the most olmsat reads in one; {split}",
            budget.max_total_scalar_bytes
        ),
        BudgetBreach::Depth { .. } => format!(
            "{what} nests mappings and sequences more than {} levels deep, the most olmsat reads; Kubernetes objects are far shallower",
            budget.max_depth
        ),
        BudgetBreach::Aliases { .. } => format!(
            "{what} uses more than {} aliases (*name), the most olmsat reads; Kubernetes dumps use none",
            budget.max_aliases
        ),
        BudgetBreach::Anchors { .. } => format!(
            "{what} defines more than {} anchors (&name), the most olmsat reads; Kubernetes dumps use none",
            budget.max_anchors
        ),
        BudgetBreach::AliasAnchorRatio { aliases, anchors } => format!(
            "{what} uses {aliases} aliases for {anchors} anchors, more than {} per anchor: aliases that expand this much are refused; write the values out",
            budget.alias_anchor_ratio_multiplier
        ),
        BudgetBreach::RecordedAnchorEvents { .. } | BudgetBreach::RecordedAnchorBytes { .. } => {
            format!(
                "{what} has anchors (&name) whose aliases expand to more than {} parser events or {} bytes, the most olmsat reads; write the values out",
                budget.max_recorded_anchor_events, budget.max_recorded_anchor_bytes
            )
        }
        BudgetBreach::MergeKeys { .. } => format!(
            "{what} uses more than {} merge keys (<<), the most olmsat reads",
            budget.max_merge_keys
        ),
        BudgetBreach::Documents { .. } => format!(
            "{what} holds more than {} documents, the most olmsat reads in one",
            budget.max_documents
        ),
        _ => format!("{what} is over a limit of the YAML parser; {split}"),
    }
}

/// The size of one item, counted without keeping it.
#[derive(Default)]
struct Size {
    nodes: usize,
    scalar_bytes: usize,
}

/// Counts a node and everything below it into a [`Size`].
struct Count<'a>(&'a mut Size);

impl<'de> DeserializeSeed<'de> for Count<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl Count<'_> {
    fn scalar<E>(self, bytes: usize) -> Result<(), E> {
        self.0.nodes = self.0.nodes.saturating_add(1);
        self.0.scalar_bytes = self.0.scalar_bytes.saturating_add(bytes);
        Ok(())
    }
}

impl<'de> Visitor<'de> for Count<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any YAML node")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        self.scalar(0)
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        self.scalar(0)
    }
    fn visit_i128<E>(self, _: i128) -> Result<(), E> {
        self.scalar(0)
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        self.scalar(0)
    }
    fn visit_u128<E>(self, _: u128) -> Result<(), E> {
        self.scalar(0)
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        self.scalar(0)
    }
    fn visit_char<E>(self, c: char) -> Result<(), E> {
        self.scalar(c.len_utf8())
    }
    fn visit_str<E>(self, s: &str) -> Result<(), E> {
        self.scalar(s.len())
    }
    fn visit_bytes<E>(self, b: &[u8]) -> Result<(), E> {
        self.scalar(b.len())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        self.scalar(0)
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        self.scalar(0)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.0.nodes = self.0.nodes.saturating_add(1);
        while seq.next_element_seed(Count(self.0))?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.0.nodes = self.0.nodes.saturating_add(1);
        while map.next_key_seed(Count(self.0))?.is_some() {
            map.next_value_seed(Count(self.0))?;
        }
        Ok(())
    }
}

impl<'de> serde::Deserialize<'de> for Size {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Size, D::Error> {
        let mut size = Size::default();
        Count(&mut size).deserialize(d)?;
        Ok(size)
    }
}

/// A top-level key, as far as a List is concerned.
enum Key {
    Kind,
    Items,
    Other,
}

impl<'de> serde::Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a mapping key")
            }
            fn visit_str<E>(self, s: &str) -> Result<Key, E> {
                Ok(match s {
                    "kind" => Key::Kind,
                    "items" => Key::Items,
                    _ => Key::Other,
                })
            }
            fn visit_bool<E>(self, _: bool) -> Result<Key, E> {
                Ok(Key::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Key, E> {
                Ok(Key::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Key, E> {
                Ok(Key::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Key, E> {
                Ok(Key::Other)
            }
            fn visit_unit<E>(self) -> Result<Key, E> {
                Ok(Key::Other)
            }
            fn visit_none<E>(self) -> Result<Key, E> {
                Ok(Key::Other)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Key, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Key::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Key, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Key::Other)
            }
        }
        d.deserialize_any(V)
    }
}

/// A string value, or `None` for anything else.
struct Text(Option<String>);

impl<'de> serde::Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Text;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any value")
            }
            fn visit_str<E>(self, s: &str) -> Result<Text, E> {
                Ok(Text(Some(s.to_owned())))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Text, E> {
                Ok(Text(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Text, E> {
                Ok(Text(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Text, E> {
                Ok(Text(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Text, E> {
                Ok(Text(None))
            }
            fn visit_unit<E>(self) -> Result<Text, E> {
                Ok(Text(None))
            }
            fn visit_none<E>(self) -> Result<Text, E> {
                Ok(Text(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Text, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Text(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Text, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Text(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// The sequence of a List's `items`, each item's line and size; `None`
/// when `items` is not a sequence.
struct Items(Option<Vec<(u64, Size)>>);

impl<'de> serde::Deserialize<'de> for Items {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Items, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Items;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Items, A::Error> {
                let mut out = Vec::new();
                while let Some(item) = seq.next_element::<Spanned<Size>>()? {
                    out.push((item.referenced.line(), item.value));
                }
                Ok(Items(Some(out)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Items, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Items(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<Items, E> {
                Ok(Items(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Items, E> {
                Ok(Items(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Items, E> {
                Ok(Items(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Items, E> {
                Ok(Items(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Items, E> {
                Ok(Items(None))
            }
            fn visit_unit<E>(self) -> Result<Items, E> {
                Ok(Items(None))
            }
            fn visit_none<E>(self) -> Result<Items, E> {
                Ok(Items(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// What the counting pass learns of a document.
#[derive(Default)]
struct Probe {
    kind: Option<String>,
    items: Option<Vec<(u64, Size)>>,
}

/// The message that ends the counting pass early: the document's kind is
/// not a List's.
const NOT_A_LIST: &str = "olmsat: not a List";

impl<'de> serde::Deserialize<'de> for Probe {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Probe, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Probe;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a Kubernetes List")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Probe, A::Error> {
                Err(de::Error::custom(NOT_A_LIST))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Probe, E> {
                Err(E::custom(NOT_A_LIST))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Probe, E> {
                Err(E::custom(NOT_A_LIST))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Probe, E> {
                Err(E::custom(NOT_A_LIST))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Probe, E> {
                Err(E::custom(NOT_A_LIST))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Probe, E> {
                Err(E::custom(NOT_A_LIST))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Probe, E> {
                Err(E::custom(NOT_A_LIST))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Probe, A::Error> {
                let mut probe = Probe::default();
                while let Some(key) = map.next_key::<Key>()? {
                    match key {
                        Key::Kind => {
                            let kind = map.next_value::<Text>()?.0;
                            if !kind.as_deref().is_some_and(|k| k.ends_with("List")) {
                                return Err(de::Error::custom(NOT_A_LIST));
                            }
                            probe.kind = kind;
                        }
                        Key::Items => probe.items = map.next_value::<Items>()?.0,
                        Key::Other => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(probe)
            }
        }
        d.deserialize_any(V)
    }
}

/// Reads a List's items one at a time into the cluster state.
struct ListSeed<'a> {
    state: &'a mut ClusterState,
    loc: &'a Location,
    first_line: u32,
    /// The first item that is not a cluster object olmsat can read.
    failed: &'a mut Option<ClusterError>,
}

/// The message that ends the reading pass at an item olmsat cannot read
/// (the item's error is kept aside).
const ITEM_FAILED: &str = "olmsat: item failed";

impl<'de> DeserializeSeed<'de> for ListSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ListSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a Kubernetes List")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Items => map.next_value_seed(ItemsSeed {
                    state: &mut *self.state,
                    loc: self.loc,
                    first_line: self.first_line,
                    failed: &mut *self.failed,
                })?,
                Key::Kind | Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

struct ItemsSeed<'a> {
    state: &'a mut ClusterState,
    loc: &'a Location,
    first_line: u32,
    failed: &'a mut Option<ClusterError>,
}

impl<'de> DeserializeSeed<'de> for ItemsSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ItemsSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the items of a Kubernetes List")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(item) = seq.next_element::<Spanned<Transcoded>>()? {
            let line = line_of(self.first_line, item.referenced.line());
            let loc = self.loc.at(line, 0);
            let added = serde_json::from_str::<Value>(&item.value.0)
                .map_err(|e| ClusterError {
                    location: loc.clone(),
                    message: e.to_string(),
                })
                .and_then(|v| add_object(self.state, &v, &loc, &[]));
            if let Err(e) = added {
                *self.failed = Some(e);
                return Err(de::Error::custom(ITEM_FAILED));
            }
        }
        Ok(())
    }
}

/// The file line of a line within a document that starts at `first_line`.
fn line_of(first_line: u32, line: u64) -> u32 {
    first_line.saturating_add(u32::try_from(line).unwrap_or(u32::MAX).saturating_sub(1))
}

/// Read a document that breached one document's budget (`breached`) if it
/// is a List whose items are each within that budget: its objects are
/// added to `state`. `Ok(false)` when it is not a List (the breach stands).
///
/// # Errors
///
/// An item over the budget of one document, a List over the budget of a
/// List, YAML that does not parse, or an item olmsat cannot read.
pub(super) fn read_large_list(
    state: &mut ClusterState,
    text: &str,
    file: &Arc<str>,
    first_line: u32,
    loc: &Location,
) -> Result<bool, ClusterError> {
    let budget = list_budget();
    let yaml_error = |e: &serde_saphyr::Error| {
        let mut err = super::yaml_error(e, file, first_line);
        if let Some(b) = breach(e) {
            err.message = format!("invalid YAML: {}", breach_words(b, "the List", &budget));
        }
        err
    };
    let probe: Probe = match serde_saphyr::from_str_with_options(text, list_options()) {
        Ok(p) => p,
        Err(e) if e.to_string().contains(NOT_A_LIST) => return Ok(false),
        Err(e) => return Err(yaml_error(&e)),
    };
    let Some(items) = probe.items.filter(|_| probe.kind.is_some()) else {
        return Ok(false);
    };
    for (i, (line, size)) in items.iter().enumerate() {
        let over = if size.nodes > DOCUMENT_NODES {
            Some(format!(
                "more than {DOCUMENT_NODES} nodes (mappings, sequences and scalars)"
            ))
        } else if size.scalar_bytes > DOCUMENT_SCALAR_BYTES {
            Some(format!(
                "more than {DOCUMENT_SCALAR_BYTES} bytes of scalar text"
            ))
        } else {
            None
        };
        if let Some(over) = over {
            return Err(ClusterError {
                location: loc.at(line_of(first_line, *line), 0),
                message: format!(
                    "invalid YAML: item {} of the List holds {over}, the most olmsat reads in one object; split it into several objects",
                    i + 1
                ),
            });
        }
    }
    let mut failed = None;
    let read = serde_saphyr::with_deserializer_from_str_with_options(text, list_options(), |d| {
        ListSeed {
            state,
            loc,
            first_line,
            failed: &mut failed,
        }
        .deserialize(d)
    });
    match (read, failed) {
        (_, Some(e)) => Err(e),
        (Ok(()), None) => Ok(true),
        (Err(e), None) => Err(yaml_error(&e)),
    }
}
