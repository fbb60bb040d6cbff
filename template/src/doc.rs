//! Reading a template's first document: its value as JSON and the lines of the
//! items of its lists (so errors can name the entry at fault).
//!
//! opm decodes templates with apimachinery's YAML-or-JSON decoder and looks at the
//! first document only; so does this module ([`olmsat_catalog::load::split`] splits
//! the text exactly as that decoder does).

use std::fmt;
use std::sync::Arc;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

use olmsat_catalog::load::split::{first_content_line, looks_like_json, split_yaml};
use olmsat_encoding::location::{to_u32, Location};

/// The first document of a template file.
#[derive(Debug, Clone)]
pub struct TemplateDoc {
    /// The document as JSON (YAML converted).
    pub value: Value,
    /// Where the document starts.
    pub location: Location,
    /// Lines of the items of the document's lists (file lines).
    pub lines: Lines,
}

/// The document could not be decoded; the text is the parser's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DecodeError(pub String);

/// File lines of the items of every list in a document, by member path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lines {
    /// For a list: the first line of each item.
    pub items: Vec<u32>,
    /// For a mapping: each member's lines.
    pub members: Vec<(String, Lines)>,
}

impl Lines {
    /// The member named `key`, matched as Go's JSON decoder matches struct
    /// fields: exactly, else ignoring case.
    pub fn member(&self, key: &str) -> Option<&Lines> {
        self.members
            .iter()
            .find(|(k, _)| k == key)
            .or_else(|| {
                self.members
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case(key))
            })
            .map(|(_, l)| l)
    }

    /// The line of item `i` of the list at `path` (0 when unknown).
    pub fn item_line(&self, path: &[&str], i: usize) -> u32 {
        let mut at = self;
        for key in path {
            match at.member(key) {
                Some(l) => at = l,
                None => return 0,
            }
        }
        at.items.get(i).copied().unwrap_or(0)
    }

    fn shift(&mut self, first_line: u32) {
        for l in &mut self.items {
            if *l > 0 {
                *l += first_line - 1;
            }
        }
        for (_, m) in &mut self.members {
            m.shift(first_line);
        }
    }
}

impl<'de> Deserialize<'de> for Lines {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Lines, D::Error> {
        d.deserialize_any(LinesVisitor)
    }
}

struct LinesVisitor;

macro_rules! ignore_scalar {
    ($($name:ident: $ty:ty),*) => {$(
        fn $name<E: de::Error>(self, _: $ty) -> Result<Lines, E> {
            Ok(Lines::default())
        }
    )*};
}

impl<'de> Visitor<'de> for LinesVisitor {
    type Value = Lines;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }
    ignore_scalar!(visit_bool: bool, visit_i64: i64, visit_u64: u64, visit_f64: f64, visit_str: &str);
    fn visit_unit<E: de::Error>(self) -> Result<Lines, E> {
        Ok(Lines::default())
    }
    fn visit_none<E: de::Error>(self) -> Result<Lines, E> {
        Ok(Lines::default())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Lines, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<serde_saphyr::Spanned<IgnoredAny>>()? {
            items.push(to_u32(item.referenced.line() as usize));
        }
        Ok(Lines {
            items,
            members: Vec::new(),
        })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Lines, A::Error> {
        let mut members = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let lines = map.next_value::<Lines>()?;
            members.push((key, lines));
        }
        Ok(Lines {
            items: Vec::new(),
            members,
        })
    }
}

/// A document's value (as serde_json's `Value` reads it) and its [`Lines`], in
/// one pass of the YAML parser.
struct Node {
    value: Value,
    lines: Lines,
}

impl Node {
    fn leaf(value: Value) -> Node {
        Node {
            value,
            lines: Lines::default(),
        }
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

/// The key serde_json's `Value` reads as a raw value rather than a member.
const RAW_VALUE_KEY: &str = "$serde_json::private::RawValue";

struct NodeVisitor;

/// Scalars become what serde_json's `Value` makes of them (by its own
/// deserializer for the rare kinds).
macro_rules! node_scalar {
    ($($name:ident: $ty:ty => $de:ident),*) => {$(
        fn $name<E: de::Error>(self, v: $ty) -> Result<Node, E> {
            Value::deserialize(de::value::$de::<E>::new(v)).map(Node::leaf)
        }
    )*};
}

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }
    node_scalar!(
        visit_i128: i128 => I128Deserializer,
        visit_u128: u128 => U128Deserializer,
        visit_char: char => CharDeserializer
    );
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Node, E> {
        Ok(Node::leaf(Value::Bool(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Node, E> {
        Ok(Node::leaf(Value::Number(v.into())))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Node, E> {
        Ok(Node::leaf(Value::Number(v.into())))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Node, E> {
        Ok(Node::leaf(
            serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number),
        ))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Node, E> {
        Ok(Node::leaf(Value::String(v.to_owned())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Node, E> {
        Ok(Node::leaf(Value::String(v)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::leaf(Value::Null))
    }
    fn visit_none<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::leaf(Value::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        Node::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut values = Vec::new();
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<serde_saphyr::Spanned<Node>>()? {
            items.push(to_u32(item.referenced.line() as usize));
            values.push(item.value.value);
        }
        Ok(Node {
            value: Value::Array(values),
            lines: Lines {
                items,
                members: Vec::new(),
            },
        })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut values = serde_json::Map::new();
        let mut members = Vec::new();
        let mut first = true;
        loop {
            // serde_json reads the first key as a `str`, the others as `String`s.
            let key = if first {
                map.next_key_seed(StrKey)?
            } else {
                map.next_key::<String>()?
            };
            let Some(key) = key else { break };
            if first && key == RAW_VALUE_KEY {
                return Err(de::Error::custom("a raw value key"));
            }
            first = false;
            let node = map.next_value::<Node>()?;
            values.insert(key.clone(), node.value);
            members.push((key, node.lines));
        }
        Ok(Node {
            value: Value::Object(values),
            lines: Lines {
                items: Vec::new(),
                members,
            },
        })
    }
}

/// A mapping key read as serde_json reads a map's first key.
struct StrKey;

impl<'de> de::DeserializeSeed<'de> for StrKey {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for StrKey {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }
}

fn yaml_options() -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = olmsat_catalog::load::MAX_DEPTH;
    budget.max_documents = 1;
    let mut opts = serde_saphyr::Options::default();
    opts.budget = Some(budget);
    opts.with_snippet = false;
    opts
}

/// Read the first document of `text` (named `file` in locations). An input with
/// no document at all reads as `null`.
pub fn first_document(file: &str, text: &str) -> Result<TemplateDoc, DecodeError> {
    let file: Arc<str> = Arc::from(file);
    if looks_like_json(text) {
        let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
        let value = match stream.next() {
            Some(Ok(v)) => v,
            Some(Err(e)) => return Err(DecodeError(e.to_string())),
            None => Value::Null,
        };
        let start = text.len() - text.trim_start().len();
        let line = to_u32(text[..start].matches('\n').count()) + 1;
        return Ok(TemplateDoc {
            value,
            location: Location::new(file, line),
            lines: Lines::default(),
        });
    }
    let chunks = split_yaml(text).map_err(|b| {
        DecodeError(format!(
            "line {}: unexpected {:?} after the document separator",
            b.line, b.trailing
        ))
    })?;
    let Some(chunk) = chunks.first() else {
        return Ok(TemplateDoc {
            value: Value::Null,
            location: Location::new(file, 1),
            lines: Lines::default(),
        });
    };
    // One pass reads the value and its lines; a document it declines (an error,
    // or a key serde_json gives a meaning of its own) is read as before: the
    // value alone, for its error text, then the lines.
    let (value, mut lines) =
        match serde_saphyr::from_str_with_options::<Node>(chunk.text, yaml_options()) {
            Ok(node) => (node.value, node.lines),
            Err(_) => {
                let value: Value = serde_saphyr::from_str_with_options(chunk.text, yaml_options())
                    .map_err(|e| DecodeError(e.to_string()))?;
                let lines: Lines = serde_saphyr::from_str_with_options(chunk.text, yaml_options())
                    .unwrap_or_default();
                (value, lines)
            }
        };
    let value = if value.is_null() && olmsat_catalog::load::split::is_blank_or_comments(chunk.text)
    {
        Value::Null
    } else {
        value
    };
    lines.shift(chunk.first_line);
    Ok(TemplateDoc {
        value,
        location: Location::new(file, first_content_line(chunk)),
        lines,
    })
}

/// The member `key` of a JSON object, matched as Go's JSON decoder does: an
/// exact match first, else one ignoring case.
pub fn member<'v>(obj: &'v serde_json::Map<String, Value>, key: &str) -> Option<&'v Value> {
    obj.get(key).or_else(|| {
        obj.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v)
    })
}

/// Go's name for a JSON value's type in unmarshalling errors.
pub fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_entries_and_nested_bundles() {
        let text = "---\nschema: olm.template.basic\nentries:\n- schema: olm.package\n  name: a\n- schema: olm.bundle\n  image: x\n";
        let d = first_document("t.yaml", text).unwrap();
        assert_eq!(d.location.line, 2);
        assert_eq!(d.lines.item_line(&["entries"], 0), 4);
        assert_eq!(d.lines.item_line(&["entries"], 1), 6);
        assert_eq!(d.lines.item_line(&["Entries"], 1), 6);
        let text = "Schema: olm.semver\nStable:\n  Bundles:\n  - Image: a\n  - Image: b\n";
        let d = first_document("t.yaml", text).unwrap();
        assert_eq!(d.lines.item_line(&["stable", "bundles"], 1), 5);
        assert_eq!(d.value["Stable"]["Bundles"][1]["Image"], "b");
    }

    /// The value and lines as two passes read them (the reader before the
    /// one-pass [`Node`]).
    fn two_passes(text: &str) -> Result<(Value, Lines), String> {
        let value: Value =
            serde_saphyr::from_str_with_options(text, yaml_options()).map_err(|e| e.to_string())?;
        let lines: Lines =
            serde_saphyr::from_str_with_options(text, yaml_options()).unwrap_or_default();
        Ok((value, lines))
    }

    fn one_pass(text: &str) -> Option<(Value, Lines)> {
        serde_saphyr::from_str_with_options::<Node>(text, yaml_options())
            .ok()
            .map(|n| (n.value, n.lines))
    }

    /// Where the one pass reads a document, it reads what the two passes read;
    /// where it declines, the two passes run (so errors keep their text).
    fn check_same(text: &str) {
        if let Some(one) = one_pass(text) {
            assert_eq!(Ok(one), two_passes(text), "{text:?}");
        }
    }

    #[test]
    fn one_pass_reads_what_two_passes_read() {
        for text in [
            "a: 1\nb: [1, 2, {c: d}]\n",
            "- x\n- 2\n- 3.5\n- true\n- ~\n- null\n- ''\n-\n",
            "a: .inf\nb: -.Inf\nc: .nan\nd: 1e400\ne: 0x1F\nf: 0o17\ng: 340282366920938463463374607431768211455\n",
            "h: -170141183460469231731687303715884105728\ni: 18446744073709551616\n",
            "base: &b {x: 1, y: [a, b]}\nderived:\n  <<: *b\n  y: [c]\nlist:\n- *b\n- *b\n",
            "1: one\ntrue: yes\n2.5: x\nnull: n\n\"quoted\": q\n? complex\n: v\n",
            "a: !!str 123\nb: !!int \"7\"\nc: !custom x\nd: !!binary aGVsbG8=\n",
            "a: 1\na: 2\n",
            "$serde_json::private::RawValue: '{\"a\":1}'\n",
            "x: $serde_json::private::RawValue\n$serde_json::private::RawValue: 1\n",
            "a: [\n",
            "a: {b: [c, {d: [e, f]}]}\nlist:\n  - - nested\n    - list\n  - k: v\n    l:\n    - m\n",
            "text: |\n  line one\n  line two\nfolded: >\n  a\n  b\n",
            "",
            "# only a comment\n",
            "just a scalar\n",
            "[1, 2, 3]\n",
        ] {
            check_same(text);
        }
    }

    #[test]
    fn one_pass_reads_the_corpus_templates_as_two_passes() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/templates");
        let mut stack = vec![root];
        let mut read = 0;
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    for chunk in split_yaml(&text).unwrap() {
                        assert!(one_pass(chunk.text).is_some(), "{}", path.display());
                        check_same(chunk.text);
                        read += 1;
                    }
                }
            }
        }
        assert!(read > 0);
    }

    mod generated {
        use super::*;
        use proptest::prelude::*;

        fn scalar() -> impl Strategy<Value = String> {
            prop::sample::select(vec![
                "a",
                "1",
                "-2",
                "3.25",
                "1e3",
                ".inf",
                ".nan",
                "true",
                "False",
                "~",
                "null",
                "''",
                "\"q\"",
                "0x10",
                "99999999999999999999",
                "!!str 5",
                "image: x",
                "[]",
                "{}",
            ])
            .prop_map(str::to_owned)
        }

        /// Block YAML of nested maps and lists, `depth` levels down.
        fn node(depth: u32) -> BoxedStrategy<Vec<String>> {
            let leaf = scalar().prop_map(|s| vec![s]).boxed();
            leaf.prop_recursive(depth, 24, 4, |inner| {
                prop_oneof![
                    prop::collection::vec(("[a-cA-C]{1,2}", inner.clone()), 1..4).prop_map(|m| {
                        let mut out = Vec::new();
                        for (k, v) in m {
                            push(&mut out, &format!("{k}:"), v);
                        }
                        out
                    }),
                    prop::collection::vec(inner, 1..4).prop_map(|l| {
                        let mut out = Vec::new();
                        for v in l {
                            push(&mut out, "-", v);
                        }
                        out
                    }),
                ]
            })
            .boxed()
        }

        /// `head` then `value`: inline when it is one line, else indented below.
        fn push(out: &mut Vec<String>, head: &str, value: Vec<String>) {
            if value.len() == 1 && !value[0].ends_with(':') {
                out.push(format!("{head} {}", value[0]));
            } else {
                out.push(head.to_owned());
                out.extend(value.into_iter().map(|l| format!("  {l}")));
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(128))]
            #[test]
            fn one_pass_reads_generated_documents_as_two_passes(lines in node(4)) {
                let text = lines.join("\n") + "\n";
                // The one pass declines only documents the value pass refuses.
                prop_assert!(one_pass(&text).is_some() || two_passes(&text).is_err(), "{}", text);
                check_same(&text);
            }
        }
    }

    #[test]
    fn only_the_first_document() {
        let d = first_document("t", "a: 1\n---\nb: 2\n").unwrap();
        assert_eq!(d.value, serde_json::json!({"a": 1}));
        let d = first_document("t", "{\"a\": 1}\n{\"b\": 2}").unwrap();
        assert_eq!(d.value, serde_json::json!({"a": 1}));
        assert!(first_document("t", "a: [\n").is_err());
        assert_eq!(first_document("t", "").unwrap().value, Value::Null);
    }

    #[test]
    fn go_member_matching() {
        let v = serde_json::json!({"Schema": "x", "schema": "y"});
        assert_eq!(
            member(v.as_object().unwrap(), "schema"),
            Some(&Value::from("y"))
        );
        let v = serde_json::json!({"SCHEMA": "x"});
        assert_eq!(
            member(v.as_object().unwrap(), "schema"),
            Some(&Value::from("x"))
        );
    }
}
