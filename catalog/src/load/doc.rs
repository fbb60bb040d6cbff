//! One document of a catalog file, read into its top-level fields as raw JSON.
//!
//! JSON documents borrow their field values from the file text. YAML documents are
//! transcoded to JSON as they are parsed (no tree), and the lines of the items of
//! an `entries` sequence are recorded, so channel entries can point at their line.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

use olmsat_encoding::location::{to_u32, LineCounter, Location};
use olmsat_encoding::rawjson::{fold_eq, JsonWriter, Key, KeyWriter, Transcoded};
use olmsat_findings::diagnostic::{Diagnostic, Rule};

/// A document's top-level members, as JSON, with the 1-based lines (in the file)
/// of the items of its `entries` member when known.
#[derive(Debug)]
pub struct DocFields<'a> {
    /// Members in input order (keys borrowed from JSON text when they can be).
    pub fields: Vec<(Key<'a>, FieldValue<'a>)>,
    /// File line of each `entries` item, when the document has such a sequence.
    pub entry_lines: Vec<u32>,
    /// In a JSON document, the text of each `entries` item (found while
    /// counting their lines, so that they are walked once); empty otherwise.
    pub entry_items: Vec<&'a str>,
    /// Whether the document was read as YAML: opm's decoder then goes through
    /// `sigs.k8s.io/yaml`, which prefixes the errors of decoding the document
    /// (`error unmarshaling JSON: while decoding JSON: `).
    pub from_yaml: bool,
}

/// A member's value.
#[derive(Debug)]
pub enum FieldValue<'a> {
    /// Raw JSON borrowed from the text of a JSON file.
    Raw(&'a RawValue),
    /// JSON text written while reading a YAML document, valid by construction.
    /// It is parsed only where it is used, so that the largest members are read
    /// in a single pass.
    Text(String),
}

impl FieldValue<'_> {
    /// The JSON text.
    pub fn text(&self) -> &str {
        match self {
            FieldValue::Raw(r) => r.get(),
            FieldValue::Text(t) => t,
        }
    }

    /// The value as raw JSON (text is checked on the way).
    pub fn raw(&self) -> Result<&RawValue, serde_json::Error> {
        match self {
            FieldValue::Raw(r) => Ok(r),
            FieldValue::Text(t) => serde_json::from_str(t),
        }
    }
}

/// A document that is not an object: its JSON type (`array`, `string`,
/// `number`, `bool`), its JSON text as opm's decoder saw it, and whether it
/// was read as YAML. Its text is opm's: Go's error with the place in the
/// indented value (`at offset N (indicated by <==)`), behind
/// `sigs.k8s.io/yaml`'s wrapping for a YAML document, and then olmsat's hint
/// on a line of its own.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct NotAnObject {
    /// The JSON type.
    pub kind: &'static str,
    /// The value as JSON text (for a YAML document, as Go's `json.Marshal`
    /// writes the converted value).
    pub data: String,
    /// Whether the document was read as YAML.
    pub from_yaml: bool,
}

impl NotAnObject {
    fn message(&self) -> String {
        let base = format!(
            "json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
            self.kind
        );
        // Go reports an array just inside its `[`, a literal at its end.
        let offset = if self.kind == "array" {
            1
        } else {
            self.data.len()
        };
        let prefix = if self.from_yaml {
            "error unmarshaling JSON: while decoding JSON: "
        } else {
            ""
        };
        let pretty = super::go_value::pretty_error(&base, &self.data, offset);
        format!("{prefix}{pretty}{}", array_hint(self.kind))
    }
}

/// A hint for the common mistakes: a JSON array of blobs, and a file that is
/// no catalog file at all (a stray `README.md` reads as a YAML string).
fn array_hint(kind: &str) -> &'static str {
    match kind {
        "array" => "\n(a catalog file holds objects one after another, not a JSON array)",
        "string" | "number" | "bool" => {
            "\n(not a catalog file: add it to `.indexignore` to leave it out)"
        }
        _ => "",
    }
}

/// A document read into fields, where it starts and the warning reading it
/// gave, or the error that stopped it.
pub(crate) type DocResult<'a> =
    Result<(DocFields<'a>, Location, Option<Box<Diagnostic>>), Box<Diagnostic>>;

#[cfg(test)]
mod hint_tests {
    use super::NotAnObject;

    #[test]
    fn stray_text_files_are_told_to_be_ignored() {
        let e = NotAnObject {
            kind: "string",
            data: "\"hello\"".into(),
            from_yaml: true,
        };
        assert_eq!(
            e.to_string(),
            "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type map[string]interface {} at offset 7 (indicated by <==)\n\"hello\" <==\n(not a catalog file: add it to `.indexignore` to leave it out)"
        );
        let e = NotAnObject {
            kind: "array",
            data: "[1]".into(),
            from_yaml: false,
        };
        assert_eq!(
            e.to_string(),
            "json: cannot unmarshal array into Go value of type map[string]interface {} at offset 1 (indicated by <==)\n[ <== \n    1\n]\n(a catalog file holds objects one after another, not a JSON array)"
        );
    }
}

/// The error for a document that is not an object, at `loc`.
pub(crate) fn not_object(kind: NotAnObject, loc: &Location) -> Box<Diagnostic> {
    Box::new(Diagnostic::new(Rule::NotAnObject, kind.to_string()).at(loc))
}

/// Make a JSON document's members (borrowed from `file_text`) into fields,
/// finding the line of each `entries` item with `lines`, which must not have
/// been asked about offsets past the document's start.
pub fn json_doc<'a>(
    members: Vec<(Key<'a>, &'a RawValue)>,
    file_text: &str,
    lines: &mut LineCounter<'_>,
) -> DocFields<'a> {
    let mut entry_lines = Vec::new();
    let mut entry_items = Vec::new();
    if let Some((_, entries)) = members.iter().rev().find(|(k, _)| fold_eq(k, "entries")) {
        if let Ok(items) = olmsat_encoding::rawjson::items_of(*entries) {
            let base = entries.get().as_ptr() as usize;
            let entries_off = offset_in(file_text, entries.get());
            entry_lines.reserve(items.len());
            for item in &items {
                let line = entries_off
                    .map(|off| off + (item.as_ptr() as usize - base))
                    .map(|o| lines.line_col(o).0)
                    .unwrap_or(0);
                entry_lines.push(line);
            }
            entry_items = items;
        }
    }
    DocFields {
        fields: members
            .into_iter()
            .map(|(k, v)| (k, FieldValue::Raw(v)))
            .collect(),
        entry_lines,
        entry_items,
        from_yaml: false,
    }
}

pub use olmsat_encoding::location::offset_in;

/// A YAML document as read by serde-saphyr: either its members or what it was
/// instead of a mapping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum YamlDoc {
    /// A mapping.
    Object {
        /// Members, values as JSON text.
        fields: Vec<(String, String)>,
        /// 1-based lines, relative to the document text, of the `entries` items.
        entry_lines: Vec<u32>,
    },
    /// Anything else, by JSON type name, with its JSON text (as Go's
    /// `json.Marshal` writes it; empty for `null`).
    Other(&'static str, String),
}

impl YamlDoc {
    /// Turn into [`DocFields`], shifting entry lines to file lines. A null
    /// document is `Ok(None)`: opm's decoder leaves its object empty, which
    /// then has no schema.
    pub fn into_fields(self, first_line: u32) -> Result<Option<DocFields<'static>>, NotAnObject> {
        match self {
            YamlDoc::Other("null", _) => Ok(None),
            YamlDoc::Other(kind, json) => Err(NotAnObject {
                kind,
                data: serde_json::from_str::<serde_json::Value>(&json)
                    .map(|v| super::go_value::marshal(&v))
                    .unwrap_or(json),
                from_yaml: true,
            }),
            YamlDoc::Object {
                fields,
                entry_lines,
            } => Ok(Some(DocFields {
                fields: fields
                    .into_iter()
                    .map(|(k, v)| (Key::Owned(k), FieldValue::Text(v)))
                    .collect(),
                entry_lines: entry_lines
                    .into_iter()
                    .map(|l| if l == 0 { 0 } else { l + first_line - 1 })
                    .collect(),
                entry_items: Vec::new(),
                from_yaml: true,
            })),
        }
    }
}

impl<'de> Deserialize<'de> for YamlDoc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(DocVisitor)
    }
}

struct DocVisitor;

impl<'de> Visitor<'de> for DocVisitor {
    type Value = YamlDoc;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a mapping")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<YamlDoc, A::Error> {
        let mut fields = Vec::new();
        let mut entry_lines = Vec::new();
        while let Some(key) = map.next_key_seed(KeyWriter)? {
            if fold_eq(&key, "entries") {
                let e: Entries = map.next_value()?;
                entry_lines = e.lines;
                fields.push((key, e.json));
            } else {
                let v: Transcoded = map.next_value()?;
                fields.push((key, v.0));
            }
        }
        Ok(YamlDoc::Object {
            fields,
            entry_lines,
        })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<YamlDoc, A::Error> {
        let mut json = String::new();
        JsonWriter { out: &mut json }.visit_seq(seq)?;
        Ok(YamlDoc::Other("array", json))
    }
    fn visit_unit<E: de::Error>(self) -> Result<YamlDoc, E> {
        Ok(YamlDoc::Other("null", String::new()))
    }
    fn visit_none<E: de::Error>(self) -> Result<YamlDoc, E> {
        Ok(YamlDoc::Other("null", String::new()))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<YamlDoc, E> {
        Ok(YamlDoc::Other("bool", v.to_string()))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<YamlDoc, E> {
        Ok(YamlDoc::Other("number", v.to_string()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<YamlDoc, E> {
        Ok(YamlDoc::Other("number", v.to_string()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<YamlDoc, E> {
        let mut json = String::new();
        JsonWriter { out: &mut json }.visit_f64::<E>(v)?;
        Ok(YamlDoc::Other("number", json))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<YamlDoc, E> {
        let mut json = String::new();
        JsonWriter { out: &mut json }.visit_str::<E>(v)?;
        Ok(YamlDoc::Other("string", json))
    }
}

/// The `entries` member: JSON text plus the line of each sequence item.
struct Entries {
    json: String,
    lines: Vec<u32>,
}

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(EntriesVisitor)
    }
}

struct EntriesVisitor;

macro_rules! forward_scalar {
    ($($name:ident: $ty:ty),*) => {$(
        fn $name<E: de::Error>(self, v: $ty) -> Result<Entries, E> {
            let mut json = String::new();
            JsonWriter { out: &mut json }.$name::<E>(v)?;
            Ok(Entries { json, lines: Vec::new() })
        }
    )*};
}

impl<'de> Visitor<'de> for EntriesVisitor {
    type Value = Entries;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }
    forward_scalar!(visit_bool: bool, visit_i64: i64, visit_u64: u64, visit_f64: f64, visit_str: &str);
    fn visit_unit<E: de::Error>(self) -> Result<Entries, E> {
        Ok(Entries {
            json: "null".into(),
            lines: Vec::new(),
        })
    }
    fn visit_none<E: de::Error>(self) -> Result<Entries, E> {
        self.visit_unit()
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Entries, A::Error> {
        let mut json = String::new();
        JsonWriter { out: &mut json }.visit_map(map)?;
        Ok(Entries {
            json,
            lines: Vec::new(),
        })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Entries, A::Error> {
        let mut json = String::from("[");
        let mut lines = Vec::new();
        while let Some(item) = seq.next_element::<serde_saphyr::Spanned<Transcoded>>()? {
            if !lines.is_empty() {
                json.push(',');
            }
            json.push_str(&item.value.0);
            lines.push(to_u32(item.referenced.line() as usize));
        }
        json.push(']');
        Ok(Entries { json, lines })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_entries_get_lines() {
        let y = "schema: olm.channel\nname: stable\nentries:\n  - name: a\n  - name: b\n    replaces: a\n";
        let d: YamlDoc = serde_saphyr::from_str(y).unwrap();
        let f = d.into_fields(10).unwrap().unwrap();
        assert_eq!(f.entry_lines, vec![13, 14]);
        assert_eq!(
            f.fields[2].1.text(),
            r#"[{"name":"a"},{"name":"b","replaces":"a"}]"#
        );
    }

    #[test]
    fn json_entries_get_lines() {
        let text = "{\n \"schema\": \"olm.channel\",\n \"entries\": [\n  {\"name\": \"a\"},\n  {\"name\": \"b\"}\n ]\n}\n";
        let members: olmsat_encoding::rawjson::JsonItem<'_> = serde_json::from_str(text).unwrap();
        let olmsat_encoding::rawjson::JsonItem::Object(members) = members else {
            panic!("an object")
        };
        let f = json_doc(members, text, &mut LineCounter::new(text));
        assert_eq!(f.entry_lines, vec![4, 5]);
    }

    #[test]
    fn non_mapping_documents_are_named() {
        let d: YamlDoc = serde_saphyr::from_str("- a\n- b\n").unwrap();
        assert!(matches!(d, YamlDoc::Other("array", ref j) if j == r#"["a","b"]"#));
    }
}
