//! YAML and JSON documents of bundle files, each with the file line it starts on.
//!
//! Manifest files are streams of Kubernetes objects: a file whose first non-space
//! byte is `{` is a stream of JSON objects, anything else a YAML stream split on
//! `---` lines (the same rule opm and kubectl use). Metadata files
//! (`annotations.yaml`, `dependencies.yaml`, `properties.yaml`, `bundle.yaml`) are
//! read as one mapping whose members, and the entries of members that are
//! mappings or sequences, keep their lines.
//!
//! Nothing here panics on bad input: invalid UTF-8, invalid YAML or JSON and
//! unexpected shapes all become [`Diagnostic`]s with file, line and column.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;
use serde_saphyr::Spanned;

use olmsat_encoding::limits::MAX_FILE_BYTES;
use olmsat_encoding::location::{to_u32, LineIndex, Location};
use olmsat_encoding::rawjson::{KeyWriter, Transcoded};
use olmsat_encoding::stream::split::{self, Chunk};
use olmsat_encoding::stream::yaml::{is_duplicate_key, options, DuplicateKeys};
use olmsat_findings::diagnostic::{Diagnostic, Rule, Severity};

/// One document of a manifest file.
#[derive(Debug, Clone)]
pub struct Document {
    /// The document as JSON (object keys sorted).
    pub value: Value,
    /// Where it starts (its first line holding content).
    pub location: Location,
    /// 0-based position among the file's non-empty documents.
    pub index: usize,
}

/// Read a file as text: at most [`MAX_FILE_BYTES`], valid UTF-8 (a leading BOM is
/// dropped), no NUL bytes. `name` is what locations show.
pub fn read_text(path: &Path, name: &Arc<str>) -> Result<String, Box<Diagnostic>> {
    let loc = Location::new(name.clone(), 0);
    let bytes = olmsat_io::read_file(path, MAX_FILE_BYTES).map_err(|e| {
        let d = match e {
            olmsat_io::ReadError::TooLarge { size, .. } => Diagnostic::new(
                Rule::FileTooLarge,
                format!(
                    "file is {size} bytes, larger than the {MAX_FILE_BYTES}-byte limit olmsat reads"
                ),
            ),
            olmsat_io::ReadError::NotRegular(kind) => Diagnostic::new(
                Rule::SpecialFileSkipped,
                format!("skipped: a {kind}, not a regular file (olmsat reads regular files only)"),
            ),
            e => Diagnostic::new(Rule::Unreadable, format!("cannot read file: {e}")),
        };
        Box::new(d.at(&loc))
    })?;
    text_of(&bytes, name)
}

/// The bytes of a file as text: valid UTF-8 (a leading BOM is dropped), no
/// NUL bytes. `name` is what locations show.
pub fn text_of(bytes: &[u8], name: &Arc<str>) -> Result<String, Box<Diagnostic>> {
    let loc = Location::new(name.clone(), 0);
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(body) {
        Ok(text) => {
            if let Some(pos) = text.find('\0') {
                let (line, col) = LineIndex::new(text).line_col(pos);
                return Err(Box::new(
                    Diagnostic::new(Rule::NotText, "not a text file (NUL byte)")
                        .at(&loc.at(line, col)),
                ));
            }
            Ok(text.to_owned())
        }
        Err(e) => {
            let valid = &body[..e.valid_up_to()];
            let (line, col) =
                LineIndex::new(std::str::from_utf8(valid).unwrap_or("")).line_col(valid.len());
            Err(Box::new(
                Diagnostic::new(
                    Rule::NotText,
                    format!("invalid UTF-8 at byte {}", e.valid_up_to()),
                )
                .at(&loc.at(line, col)),
            ))
        }
    }
}

/// Split a manifest file into its documents. Empty documents (blank or comments
/// only) are skipped, as kubectl and opm skip them. Every document that cannot be
/// read is reported; the others are still returned.
pub fn documents(file: &Arc<str>, text: &str) -> (Vec<Document>, Vec<Diagnostic>) {
    if split::looks_like_json(text) {
        json_documents(file, text)
    } else {
        yaml_documents(file, text)
    }
}

fn json_documents(file: &Arc<str>, text: &str) -> (Vec<Document>, Vec<Diagnostic>) {
    let lines = LineIndex::new(text);
    let mut docs = Vec::new();
    let mut diags = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<&RawValue>();
    loop {
        match stream.next() {
            None => break,
            Some(Ok(raw)) => {
                let off = olmsat_encoding::location::offset_in(text, raw.get()).unwrap_or(0);
                let (line, col) = lines.line_col(off);
                let location = Location::new(file.clone(), line).at(line, col);
                match serde_json::from_str::<Value>(raw.get()) {
                    Ok(value) => docs.push(Document {
                        value,
                        location,
                        index: docs.len() + diags.len(),
                    }),
                    Err(e) => diags.push(
                        Diagnostic::new(
                            Rule::ParseError,
                            format!("invalid JSON: {}", strip_position(&e)),
                        )
                        .at(&location),
                    ),
                }
            }
            Some(Err(e)) => {
                let line = to_u32(e.line());
                diags.push(
                    Diagnostic::new(
                        Rule::ParseError,
                        format!("invalid JSON: {}", strip_position(&e)),
                    )
                    .at(&Location::new(file.clone(), line).at(line, to_u32(e.column()))),
                );
                break;
            }
        }
    }
    (docs, diags)
}

fn strip_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_owned(),
        None => s,
    }
}

fn yaml_documents(file: &Arc<str>, text: &str) -> (Vec<Document>, Vec<Diagnostic>) {
    let chunks = match split::split_yaml(text) {
        Ok(c) => c,
        Err(b) => {
            return (
                Vec::new(),
                vec![Diagnostic::new(
                    Rule::ParseError,
                    format!("invalid YAML document separator: {}", b.trailing),
                )
                .at(&Location::new(file.clone(), b.line))],
            )
        }
    };
    let mut docs = Vec::new();
    let mut diags = Vec::new();
    for (index, c) in chunks
        .iter()
        .filter(|c| !split::is_blank_or_comments(c.text))
        .enumerate()
    {
        let location = Location::new(file.clone(), split::first_content_line(c));
        // Straight to a JSON value; documents that do not fit one directly (keys that
        // are not strings, numbers beyond 64 bits) go through the transcoder, which
        // writes them as Go's YAML-to-JSON conversion does.
        if let Ok((value, warn)) = parse_chunk::<Value>(file, c) {
            diags.extend(warn);
            docs.push(Document {
                value,
                location,
                index,
            });
            continue;
        }
        match parse_chunk::<Transcoded>(file, c) {
            Ok((t, warn)) => {
                diags.extend(warn);
                match serde_json::from_str::<Value>(&t.0) {
                    Ok(value) => docs.push(Document {
                        value,
                        location,
                        index,
                    }),
                    Err(e) => diags.push(
                        Diagnostic::new(
                            Rule::ParseError,
                            format!("invalid YAML: {}", strip_position(&e)),
                        )
                        .at(&location),
                    ),
                }
            }
            Err(d) => diags.push(*d),
        }
    }
    (docs, diags)
}

/// Parse one YAML chunk into `T`. A duplicate mapping key is a warning and the
/// last value wins (as with Go's YAML-to-JSON conversion); any other problem is an
/// error at the file line and column where the parser stopped.
///
/// Quoted scalars whose continuation lines are not indented past their key
/// (`description: 'a` / `b'` at the key's column, as some generators write them)
/// are invalid YAML 1.2 but accepted by Go's parser, which opm uses; they are
/// re-indented and read, with a warning.
pub fn parse_chunk<T>(
    file: &Arc<str>,
    c: &Chunk<'_>,
) -> Result<(T, Option<Diagnostic>), Box<Diagnostic>>
where
    T: for<'de> Deserialize<'de>,
{
    match parse_chunk_strict::<T>(file, c) {
        Err(e) if e.message.contains(QUOTED_INDENT_ERROR) => {
            let Some(fixed) = repair_quoted_indentation(c.text) else {
                return Err(e);
            };
            let repaired = Chunk {
                text: &fixed,
                first_line: c.first_line,
                offset: c.offset,
                opened: c.opened,
            };
            match parse_chunk_strict::<T>(file, &repaired) {
                Ok((v, _)) => {
                    let mut w = *e;
                    w.severity = Severity::Warning;
                    w.message = "continuation line of a quoted scalar is not indented past its key (invalid YAML 1.2, accepted by Go's YAML parser); read as if it were".to_owned();
                    Ok((v, Some(w)))
                }
                Err(_) => Err(e),
            }
        }
        other => other,
    }
}

/// The parser's message for an under-indented quoted scalar continuation line.
const QUOTED_INDENT_ERROR: &str = "invalid indentation in multiline quoted scalar";

/// Indent the continuation lines of multi-line quoted scalars in block context
/// one column past the line the scalar starts on, when they are not already.
/// Block scalars (`|`, `>`) and comments are left alone. `None` when nothing
/// changed.
fn repair_quoted_indentation(text: &str) -> Option<String> {
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let mut out = String::with_capacity(text.len() + 64);
    let mut changed = false;
    // Inside a quoted scalar: (quote char, indentation of its first line).
    let mut open: Option<(char, usize)> = None;
    // Inside a block scalar: indentation of the line that introduced it.
    let mut block: Option<usize> = None;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        if let Some((q, key_indent)) = open {
            let mut line_out = line.to_owned();
            if !body.trim().is_empty() && indent(body) <= key_indent {
                line_out = format!("{}{}", " ".repeat(key_indent + 1 - indent(body)), line);
                changed = true;
            }
            out.push_str(&line_out);
            if closing_quote(body, q, 0).is_some() {
                open = None;
            }
            continue;
        }
        out.push_str(line);
        let ind = indent(body);
        if let Some(b) = block {
            if body.trim().is_empty() || ind > b {
                continue;
            }
            block = None;
        }
        let t = body.trim_start();
        if t.starts_with('#') {
            continue;
        }
        // The value part: after `- ` markers and a `key:`.
        let mut v = t;
        while let Some(rest) = v.strip_prefix("- ") {
            v = rest.trim_start();
        }
        if let Some(pos) = value_start(v) {
            v = v[pos..].trim_start();
        }
        if v.starts_with('|') || v.starts_with('>') {
            block = Some(ind);
            continue;
        }
        let Some(q) = v.chars().next().filter(|c| *c == '\'' || *c == '"') else {
            continue;
        };
        if closing_quote(v, q, 1).is_none() {
            open = Some((q, ind));
        }
    }
    changed.then_some(out)
}

/// Where the value of a `key: value` line starts (after `: `), when the line
/// has a plain key.
fn value_start(t: &str) -> Option<usize> {
    if t.starts_with(['\'', '"', '[', '{']) {
        return None;
    }
    let i = t
        .find(": ")
        .or_else(|| t.ends_with(':').then(|| t.len() - 1))?;
    Some(i + 1)
}

/// The byte index of the quote closing a scalar quoted with `q`, searching `s`
/// from byte `from`.
fn closing_quote(s: &str, q: char, from: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = from;
    while i < b.len() {
        let c = b[i];
        if q == '\'' && c == b'\'' {
            if b.get(i + 1) == Some(&b'\'') {
                i += 2;
                continue;
            }
            return Some(i);
        }
        if q == '"' {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'"' {
                return Some(i);
            }
        }
        i += 1;
    }
    None
}

fn parse_chunk_strict<T>(
    file: &Arc<str>,
    c: &Chunk<'_>,
) -> Result<(T, Option<Diagnostic>), Box<Diagnostic>>
where
    T: for<'de> Deserialize<'de>,
{
    match serde_saphyr::from_str_with_options::<T>(c.text, options(DuplicateKeys::Refuse)) {
        Ok(v) => Ok((v, None)),
        Err(e) if is_duplicate_key(&e) => {
            let mut warn = *yaml_error(file, c, &e);
            warn.severity = Severity::Warning;
            warn.message = "duplicate mapping key; the last value is used".to_owned();
            serde_saphyr::from_str_with_options::<T>(c.text, options(DuplicateKeys::LastWins))
                .map(|v| (v, Some(warn)))
                .map_err(|e| yaml_error(file, c, &e))
        }
        Err(e) => Err(yaml_error(file, c, &e)),
    }
}

fn yaml_error(file: &Arc<str>, c: &Chunk<'_>, e: &serde_saphyr::Error) -> Box<Diagnostic> {
    let (line, col) = match e.location() {
        Some(l) if l.line() > 0 => (
            c.first_line + to_u32(l.line() as usize) - 1,
            to_u32(l.column() as usize),
        ),
        _ => (split::first_content_line(c), 0),
    };
    let mut msg = e.to_string();
    if let Some(i) = msg.find(" at line ") {
        msg.truncate(i);
    }
    Box::new(
        Diagnostic::new(Rule::ParseError, format!("invalid YAML: {msg}")).at(&Location::new(
            file.clone(),
            line,
        )
        .at(line, col)),
    )
}

/// A value of a metadata file with the line it is on.
#[derive(Debug, Clone)]
pub struct Item {
    /// The value as JSON.
    pub value: Value,
    /// Where the value is.
    pub location: Location,
}

/// A member of a metadata file's top-level mapping.
#[derive(Debug, Clone)]
pub enum Node {
    /// A mapping: its members in input order, each with its line.
    Map(Vec<(String, Item)>),
    /// A sequence: its items, each with its line.
    List(Vec<Item>),
    /// A scalar (string, number, boolean or null).
    Scalar(Value),
}

impl Node {
    /// The JSON type name of the node, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Node::Map(_) => "mapping",
            Node::List(_) => "sequence",
            Node::Scalar(Value::String(_)) => "string",
            Node::Scalar(Value::Number(_)) => "number",
            Node::Scalar(Value::Bool(_)) => "boolean",
            Node::Scalar(_) => "null",
        }
    }
}

/// A metadata file: the members of its top-level mapping, in input order.
#[derive(Debug, Clone)]
pub struct MetaFile {
    /// The file (line 0).
    pub location: Location,
    /// Top-level members with the node each holds and its line.
    pub fields: Vec<(String, Node, Location)>,
}

impl MetaFile {
    /// The member called `key` (the last one when repeated).
    pub fn get(&self, key: &str) -> Option<(&Node, &Location)> {
        self.fields
            .iter()
            .rev()
            .find(|(k, _, _)| k == key)
            .map(|(_, n, l)| (n, l))
    }
}

/// Parse a metadata file: its first non-empty YAML document must be a mapping.
/// An empty file gives a mapping with no members. Returns the file and any
/// warnings (duplicate keys).
pub fn meta_file(
    file: &Arc<str>,
    text: &str,
) -> Result<(MetaFile, Vec<Diagnostic>), Box<Diagnostic>> {
    let location = Location::new(file.clone(), 0);
    let chunks = split::split_yaml(text).map_err(|b| {
        Diagnostic::new(
            Rule::ParseError,
            format!("invalid YAML document separator: {}", b.trailing),
        )
        .at(&Location::new(file.clone(), b.line))
    })?;
    let Some(chunk) = chunks.iter().find(|c| !split::is_blank_or_comments(c.text)) else {
        return Ok((
            MetaFile {
                location,
                fields: Vec::new(),
            },
            Vec::new(),
        ));
    };
    let (top, warn) = parse_chunk::<TopLevel>(file, chunk)?;
    let shift = |l: &serde_saphyr::Location| -> Location {
        let line = if l.line() == 0 {
            0
        } else {
            chunk.first_line + to_u32(l.line() as usize) - 1
        };
        Location::new(file.clone(), line).at(line, to_u32(l.column() as usize))
    };
    let item = |s: Spanned<Transcoded>| -> Result<Item, Box<Diagnostic>> {
        let loc = shift(&s.referenced);
        serde_json::from_str::<Value>(&s.value.0)
            .map(|value| Item {
                value,
                location: loc.clone(),
            })
            .map_err(|e| {
                Box::new(Diagnostic::new(Rule::ParseError, format!("invalid YAML: {e}")).at(&loc))
            })
    };
    let members = match top {
        TopLevel::Map(m) => m,
        TopLevel::NotAMap(kind) => {
            return Err(Box::new(
                Diagnostic::new(
                    Rule::NotAnObject,
                    format!("expected a mapping at the top of the file, found a {kind}"),
                )
                .at(&Location::new(
                    file.clone(),
                    split::first_content_line(chunk),
                )),
            ))
        }
    };
    let mut fields = Vec::with_capacity(members.len());
    for (key, spanned) in members {
        let loc = shift(&spanned.referenced);
        let node = match spanned.value {
            RawNode::Map(entries) => Node::Map(
                entries
                    .into_iter()
                    .map(|(k, v)| item(v).map(|i| (k, i)))
                    .collect::<Result<_, _>>()?,
            ),
            RawNode::List(items) => {
                Node::List(items.into_iter().map(item).collect::<Result<_, _>>()?)
            }
            RawNode::Scalar(v) => Node::Scalar(v),
        };
        fields.push((key, node, loc));
    }
    Ok((MetaFile { location, fields }, warn.into_iter().collect()))
}

/// The top level of a metadata file.
enum TopLevel {
    Map(Vec<(String, Spanned<RawNode>)>),
    NotAMap(&'static str),
}

impl<'de> Deserialize<'de> for TopLevel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TopLevel;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a mapping")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TopLevel, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key_seed(KeyWriter)? {
                    let v: Spanned<RawNode> = map.next_value()?;
                    out.push((k, v));
                }
                Ok(TopLevel::Map(out))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TopLevel, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(TopLevel::NotAMap("sequence"))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<TopLevel, E> {
                Ok(TopLevel::NotAMap("string"))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<TopLevel, E> {
                Ok(TopLevel::NotAMap("boolean"))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<TopLevel, E> {
                Ok(TopLevel::NotAMap("number"))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<TopLevel, E> {
                Ok(TopLevel::NotAMap("number"))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<TopLevel, E> {
                Ok(TopLevel::NotAMap("number"))
            }
            fn visit_unit<E: de::Error>(self) -> Result<TopLevel, E> {
                Ok(TopLevel::Map(Vec::new()))
            }
            fn visit_none<E: de::Error>(self) -> Result<TopLevel, E> {
                Ok(TopLevel::Map(Vec::new()))
            }
        }
        d.deserialize_any(V)
    }
}

/// A top-level member as read: one more level keeps its lines.
enum RawNode {
    Map(Vec<(String, Spanned<Transcoded>)>),
    List(Vec<Spanned<Transcoded>>),
    Scalar(Value),
}

impl<'de> Deserialize<'de> for RawNode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawNode;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawNode, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key_seed(KeyWriter)? {
                    let v: Spanned<Transcoded> = map.next_value()?;
                    out.push((k, v));
                }
                Ok(RawNode::Map(out))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawNode, A::Error> {
                let mut out = Vec::new();
                while let Some(v) = seq.next_element::<Spanned<Transcoded>>()? {
                    out.push(v);
                }
                Ok(RawNode::List(out))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawNode, E> {
                Ok(RawNode::Scalar(Value::String(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<RawNode, E> {
                Ok(RawNode::Scalar(Value::String(v)))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<RawNode, E> {
                Ok(RawNode::Scalar(Value::Bool(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawNode, E> {
                Ok(RawNode::Scalar(Value::from(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawNode, E> {
                Ok(RawNode::Scalar(Value::from(v)))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<RawNode, E> {
                Ok(RawNode::Scalar(
                    serde_json::Number::from_f64(v)
                        .map(Value::Number)
                        .unwrap_or(Value::Null),
                ))
            }
            fn visit_unit<E: de::Error>(self) -> Result<RawNode, E> {
                Ok(RawNode::Scalar(Value::Null))
            }
            fn visit_none<E: de::Error>(self) -> Result<RawNode, E> {
                Ok(RawNode::Scalar(Value::Null))
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<RawNode, D::Error> {
                d.deserialize_any(V)
            }
        }
        d.deserialize_any(V)
    }
}

/// A scalar as the text Go's YAML-to-JSON-to-string conversion would give, or
/// `None` for mappings and sequences. Strings are returned as they are; numbers and
/// booleans as their JSON text; null as the empty string.
pub fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Null => Some(String::new()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::Array(_) | Value::Object(_) => None,
    }
}

/// The JSON type of a value as messages name it.
pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "string",
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::Array(_) => "sequence",
        Value::Object(_) => "mapping",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f() -> Arc<str> {
        Arc::from("f.yaml")
    }

    #[test]
    fn yaml_stream_documents_keep_lines() {
        let (docs, diags) = documents(
            &f(),
            "# c\n---\na: 1\n---\n\n---\n# only\n---\nkind: X\nb: [1]\n",
        );
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].location.line, 3);
        assert_eq!(docs[1].location.line, 9);
        assert_eq!(docs[1].value["kind"], "X");
        assert_eq!(docs[1].index, 1);
    }

    #[test]
    fn invalid_yaml_has_line_and_column() {
        let text = "a: 1\n---\nb:\n  - x\n    y: 2\n";
        let (docs, diags) = documents(&f(), text);
        assert_eq!(docs.len(), 1);
        assert_eq!(diags.len(), 1);
        let loc = diags[0].location.as_ref().unwrap();
        assert!(loc.line >= 3, "{loc}");
        assert!(loc.column > 0, "{loc}");
        assert!(diags[0].message.starts_with("invalid YAML"));
    }

    #[test]
    fn under_indented_quoted_scalars_are_read_with_a_warning() {
        let text = "spec:\n  a:\n    description: 'first line\n    second: line\n    it''s done'\n    type: string\n    other: \"x\n    y\"\n    block: |\n      'not a scalar\n    z: 1\n";
        let (docs, diags) = documents(&f(), text);
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert!(!diags[0].is_error());
        assert_eq!(diags[0].location.as_ref().unwrap().line, 4);
        let a = &docs[0].value["spec"]["a"];
        assert_eq!(a["description"], "first line second: line it's done");
        assert_eq!(a["type"], "string");
        assert_eq!(a["other"], "x y");
        assert_eq!(a["block"], "'not a scalar\n");
        assert_eq!(a["z"], 1);
    }

    #[test]
    fn keys_that_are_not_strings_and_floats() {
        let (docs, diags) = documents(&f(), "1: a\ntrue: b\nf: 1.0\nn: 18446744073709551616\n");
        assert!(diags.is_empty(), "{diags:?}");
        let v = &docs[0].value;
        assert_eq!(v["1"], "a");
        assert_eq!(v["true"], "b");
        assert_eq!(olmsat_catalog::write::gojson::marshal_string(&v["f"]), "1");
    }

    #[test]
    fn json_streams() {
        let (docs, diags) = documents(&f(), "{\"a\":1}\n{\"b\":2}\n");
        assert!(diags.is_empty());
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[1].location.line, 2);
        let (_, diags) = documents(&f(), "{\"a\":1}\n{\"b\":");
        assert_eq!(diags.len(), 1);
    }

    #[test]
    fn meta_file_members_and_items_keep_lines() {
        let text = "---\nannotations:\n  a: x\n  b: 2\nlist:\n  - type: t\n    value: 1\n  - type: u\nname: n\n";
        let (m, w) = meta_file(&f(), text).unwrap();
        assert!(w.is_empty());
        let (Node::Map(entries), _) = m.get("annotations").unwrap() else {
            panic!("not a map")
        };
        assert_eq!(entries[0].0, "a");
        assert_eq!(entries[0].1.location.line, 3);
        assert_eq!(entries[1].1.value, Value::from(2));
        let (Node::List(items), _) = m.get("list").unwrap() else {
            panic!("not a list")
        };
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].location.line, 6);
        assert_eq!(items[1].location.line, 8);
        assert!(matches!(m.get("name"), Some((Node::Scalar(_), _))));
    }

    #[test]
    fn meta_file_errors() {
        let e = meta_file(&f(), "- a\n- b\n").unwrap_err();
        assert!(e.message.contains("found a sequence"), "{e}");
        let e = meta_file(&f(), "a:\n  - x\n   y: 1\n").unwrap_err();
        assert!(e.message.starts_with("invalid YAML"), "{e}");
        let (m, _) = meta_file(&f(), "# nothing\n").unwrap();
        assert!(m.fields.is_empty());
        let (_, w) = meta_file(&f(), "a: 1\na: 2\n").unwrap();
        assert_eq!(w.len(), 1);
    }
}
