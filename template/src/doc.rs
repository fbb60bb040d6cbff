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
#[derive(Debug, Clone, Default)]
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
        while let Some(key) = map.next_key::<KeyText>()? {
            let lines = map.next_value::<Lines>()?;
            members.push((key.0, lines));
        }
        Ok(Lines {
            items: Vec::new(),
            members,
        })
    }
}

/// A mapping key of any scalar type, as text.
struct KeyText(String);

impl<'de> Deserialize<'de> for KeyText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<KeyText, D::Error> {
        let v = Value::deserialize(d)?;
        Ok(KeyText(match v {
            Value::String(s) => s,
            other => other.to_string(),
        }))
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
    let value: Value = serde_saphyr::from_str_with_options(chunk.text, yaml_options())
        .map_err(|e| DecodeError(e.to_string()))?;
    let value = if value.is_null() && olmsat_catalog::load::split::is_blank_or_comments(chunk.text)
    {
        Value::Null
    } else {
        value
    };
    let mut lines: Lines =
        serde_saphyr::from_str_with_options(chunk.text, yaml_options()).unwrap_or_default();
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
