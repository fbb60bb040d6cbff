//! The fast JSON reader against the general reader.

use super::*;
use proptest::prelude::*;
use std::sync::Arc;

/// A blob (or the error that stopped it) and the warnings reading it gave.
type Read = (
    Result<Blob, String>,
    Vec<olmsat_findings::diagnostic::Diagnostic>,
);

/// What the general reader makes of the single document `text`: its blob
/// (or error) and warnings; `None` when serde_json refuses it.
fn general(text: &str, reading: BundleReading) -> Option<Read> {
    let file: Arc<str> = Arc::from("f.json");
    let mut lines = LineCounter::new(text);
    let start = text.len() - text.trim_start().len();
    let (line, col) = lines.line_col(start);
    let loc = Location::new(file, line).at(line, col);
    let mut stream = serde_json::Deserializer::from_str(text)
        .into_iter::<olmsat_encoding::rawjson::JsonItem<'_>>();
    let item = stream.next()?.ok()?;
    if stream.next().is_some() {
        return None;
    }
    let mut warnings = Vec::new();
    let blob =
        match crate::load::json_stream::json_item(item, text.trim(), text, &mut lines, loc.clone())
        {
            Ok((fields, loc, _)) => {
                crate::load::blob::to_blob_reading(fields, &loc, &mut warnings, reading)
                    .map_err(|e| e.to_string())
            }
            Err(d) => Err(d.to_string()),
        };
    Some((blob, warnings))
}

/// What the fast reader makes of it, when it reads it.
fn fast(text: &str, reading: BundleReading) -> Option<Read> {
    let file: Arc<str> = Arc::from("f.json");
    let mut lines = LineCounter::new(text);
    let start = text.len() - text.trim_start().len();
    let (line, col) = lines.line_col(start);
    let loc = Location::new(file, line).at(line, col);
    let (doc, end) = read(text, start, 0, &mut lines)?;
    if !text[end..].trim().is_empty() {
        return None;
    }
    Some((Ok(doc.into_blob(&loc, reading)), Vec::new()))
}

/// Every document the fast reader reads, the general reader reads the same.
fn agree(text: &str) -> Result<bool, TestCaseError> {
    let mut read_fast = false;
    for reading in [BundleReading::Full, BundleReading::Graph] {
        if let Some(got) = fast(text, reading) {
            read_fast = true;
            let want = general(text, reading);
            prop_assert_eq!(Some(got), want, "{}", text);
        }
    }
    Ok(read_fast)
}

#[test]
fn reads_the_usual_documents() {
    let bundle = r#"{
"schema": "olm.bundle",
"name": "p.v1.0.0",
"package": "p",
"image": "quay.io/p/bundle:v1.0.0",
"properties": [
    {"type": "olm.package", "value": {"packageName": "p", "version": "1.0.0"}},
    {"type": "olm.gvk", "value": {"group": "g", "kind": "K", "version": "v1"}},
    {"type": "olm.csv.metadata", "value": {"description": "a \"quoted\"\nline\u00e9", "n": [1, -2.5, 0, true, false, null, {}, []]}},
    {"type": "olm.deprecated", "value": {}}
],
"relatedImages": [{"name": "op", "image": "quay.io/p/op:v1"}, {"image": "x"}, {}]
}"#;
    let channel = r#"
{"schema": "olm.channel", "name": "stable", "package": "p", "entries": [
  {"name": "p.v1.0.0"},
  {"name": "p.v1.0.1", "replaces": "p.v1.0.0", "skips": ["a", "b"], "skipRange": ">=0.1.0 <1.0.1"},
  {"name": "p.v1.0.2", "replaces": "", "skips": [], "skipRange": ""},
  {}
], "properties": []}"#;
    for text in [bundle, channel, r#"{"schema":"olm.bundle"}"#] {
        assert!(agree(text).expect("agree"), "read fast: {text}");
    }
}

#[test]
fn declines_what_the_general_reader_must_read() {
    for text in [
        r#"{"name": "a", "schema": "olm.bundle"}"#,
        r#"{"schema": "olm.package", "name": "p"}"#,
        r#"{"schema": "olm.bundle", "Name": "a"}"#,
        r#"{"schema": "olm.bundle", "name": "a", "name": "b"}"#,
        r#"{"schema": "olm.bundle", "name": "a\u0062"}"#,
        r#"{"schema": "olm.bundle", "name": null}"#,
        r#"{"schema": "olm.bundle", "extra": 1}"#,
        r#"{"schema": "olm.bundle", "properties": [{"type": "t", "value": 1e999}]}"#,
        r#"{"schema": "olm.bundle", "properties": [{"type": "t", "value": 1E2}]}"#,
        r#"{"schema": "olm.bundle", "properties": [{"type": "", "value": 1}]}"#,
        r#"{"schema": "olm.bundle", "properties": [{"type": "t", "value": null}]}"#,
        r#"{"schema": "olm.bundle", "properties": [{"type": "t"}]}"#,
        r#"{"schema": "olm.bundle", "properties": [{"type": "t", "value": 01}]}"#,
        r#"{"schema": "olm.bundle", "properties": [{"type": "t", "value": "a	b"}]}"#,
        r#"{"schema": "olm.bundle", "properties": [{"type": "t", "value": "\x"}]}"#,
        r#"{"schema": "olm.bundle", "properties": [{"type": "t", "value": "\u12g4"}]}"#,
        r#"{"schema": "olm.bundle", "properties": [{"type": "t", "value": "\u12"}]}"#,
        r#"{"schema": "olm.bundle", "properties": [{"type": "t", "value": [1,]}]}"#,
        r#"{"schema": "olm.bundle", "properties": null}"#,
        r#"{"schema": "olm.channel", "entries": [null]}"#,
        r#"{"schema": "olm.channel", "entries": [{"name": "a", "skips": null}]}"#,
        r#"{"schema": "olm.bundle", "name": "a""#,
    ] {
        assert!(
            fast(text, BundleReading::Full).is_none(),
            "declined: {text}"
        );
    }
    let deep = format!(
        r#"{{"schema": "olm.bundle", "properties": [{{"type": "t", "value": {}1{}}}]}}"#,
        "[".repeat(98),
        "]".repeat(98)
    );
    assert!(fast(&deep, BundleReading::Full).is_none());
    let fits = deep
        .replace(&"[".repeat(98), &"[".repeat(97))
        .replace(&"]".repeat(98), &"]".repeat(97));
    assert!(agree(&fits).expect("agree"));
}

/// A JSON value as text, in forms serde_json would not write (escapes,
/// exponents, odd spacing), and occasionally not JSON at all.
fn json_text(depth: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        Just("null".to_owned()),
        Just("true".to_owned()),
        Just("false".to_owned()),
        "-?(0|[1-9][0-9]{0,3})(\\.[0-9]{1,3})?([eE][+-]?[0-9]{1,3})?",
        "\"([a-z .<>=-]|\\\\[nt\"/\\\\]|\\\\u00[0-9a-fA-F]{2}|é|\t){0,12}\"",
        Just("\"\\ud800\"".to_owned()),
    ];
    leaf.prop_recursive(depth, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4)
                .prop_map(|v| format!("[{}]", v.join(", "))),
            proptest::collection::vec(("[a-zA-Z]{1,6}", inner), 0..4).prop_map(|v| {
                let m: Vec<String> = v.into_iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
                format!("{{\n  {}\n}}", m.join(",\n  "))
            }),
        ]
    })
    .boxed()
}

/// A string member's value: mostly plain, sometimes escaped, empty or not
/// a string.
fn string_value(plain: u32) -> impl Strategy<Value = String> {
    prop_oneof![
        plain => "\"[a-z0-9.<>= -]{0,10}\"",
        1 => Just("\"a\\u0062\"".to_owned()),
        1 => Just("\"\"".to_owned()),
        1 => Just("null".to_owned()),
        1 => Just("1".to_owned()),
    ]
}

/// How a member's value is usually written.
#[derive(Clone, Copy, Debug)]
enum Shape {
    Str,
    Type,
    Any,
    Properties,
    RelatedImages,
    Entries,
    Skips,
}

const PROPERTY: &[(&str, Shape)] = &[("type", Shape::Type), ("value", Shape::Any)];
const RELATED_IMAGE: &[(&str, Shape)] = &[("name", Shape::Str), ("image", Shape::Str)];
const ENTRY: &[(&str, Shape)] = &[
    ("name", Shape::Str),
    ("replaces", Shape::Str),
    ("skips", Shape::Skips),
    ("skipRange", Shape::Str),
];
const BUNDLE: &[(&str, Shape)] = &[
    ("name", Shape::Str),
    ("package", Shape::Str),
    ("image", Shape::Str),
    ("properties", Shape::Properties),
    ("relatedImages", Shape::RelatedImages),
];
const CHANNEL: &[(&str, Shape)] = &[
    ("name", Shape::Str),
    ("package", Shape::Str),
    ("entries", Shape::Entries),
    ("properties", Shape::Properties),
];

fn list(item: BoxedStrategy<String>, weight: u32) -> BoxedStrategy<String> {
    prop_oneof![
        weight => proptest::collection::vec(item, 0..4)
            .prop_map(|v| format!("[\n  {}\n]", v.join(",\n  "))),
        1 => Just("null".to_owned()),
        1 => Just("{}".to_owned()),
    ]
    .boxed()
}

/// A value of `shape`, or (one time in `weight + 1`) any JSON value.
fn value_of(shape: Shape, weight: u32) -> BoxedStrategy<String> {
    let usual = match shape {
        Shape::Str => string_value(weight * 3).boxed(),
        Shape::Type => prop_oneof![
            Just("\"olm.package\"".to_owned()),
            Just("\"olm.deprecated\"".to_owned()),
            Just("\"olm.gvk\"".to_owned()),
            string_value(weight),
        ]
        .boxed(),
        Shape::Any => json_text(3),
        Shape::Properties => list(object_of(PROPERTY, weight), weight),
        Shape::RelatedImages => list(object_of(RELATED_IMAGE, weight), weight),
        Shape::Entries => list(object_of(ENTRY, weight), weight),
        Shape::Skips => list(string_value(weight).boxed(), weight),
    };
    prop_oneof![weight => usual, 1 => json_text(2)].boxed()
}

/// An object holding some of `fields` in any order, each spelled as usual
/// (or not, one time in `weight + 1`), sometimes with an extra or a
/// repeated member.
fn object_of(fields: &'static [(&'static str, Shape)], weight: u32) -> BoxedStrategy<String> {
    members_of(fields, weight).prop_map(object).boxed()
}

fn members_of(
    fields: &'static [(&'static str, Shape)],
    weight: u32,
) -> BoxedStrategy<Vec<(String, String)>> {
    proptest::sample::subsequence(fields.to_vec(), 0..=fields.len())
        .prop_shuffle()
        .prop_flat_map(move |chosen| {
            let parts: Vec<BoxedStrategy<(String, String)>> = chosen
                .into_iter()
                .map(|(name, shape)| {
                    let spelled = prop_oneof![
                        weight => Just(name.to_owned()),
                        1 => Just(name.to_uppercase()),
                    ];
                    (spelled, value_of(shape, weight)).boxed()
                })
                .collect();
            let extra = prop_oneof![
                weight => Just(None),
                1 => Just(Some(("extra".to_owned(), "1".to_owned()))),
                1 => proptest::sample::select(fields.to_vec())
                    .prop_flat_map(move |(name, shape)| value_of(shape, weight)
                        .prop_map(move |v| Some((name.to_owned(), v)))),
            ];
            (parts, extra)
        })
        .prop_map(|(mut members, extra)| {
            members.extend(extra);
            members
        })
        .boxed()
}

fn object(members: Vec<(String, String)>) -> String {
    let m: Vec<String> = members
        .into_iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    format!("{{{}}}", m.join(", "))
}

/// A bundle or channel document; the larger `weight`, the more often
/// members have their usual form.
fn document(weight: u32) -> impl Strategy<Value = String> {
    let bundle = members_of(BUNDLE, weight).prop_map(|m| ("\"olm.bundle\"".to_owned(), m));
    let channel = members_of(CHANNEL, weight).prop_map(|m| ("\"olm.channel\"".to_owned(), m));
    (prop_oneof![bundle, channel], 0..weight).prop_map(|((schema, members), at)| {
        let mut all = members;
        // The schema comes first, but now and then later.
        let at = if at == 0 { all.len() / 2 } else { 0 };
        all.insert(at, ("schema".to_owned(), schema));
        object(all)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Generated documents: whatever the fast reader reads, it reads as
    /// the general reader does.
    #[test]
    fn agrees_with_the_general_reader(text in document(8)) {
        agree(&text)?;
    }

    /// Damaged documents: the fast reader never accepts what serde_json
    /// refuses, and still agrees on what it reads.
    #[test]
    fn never_accepts_what_serde_json_refuses(
        text in document(40),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), proptest::sample::select(
            vec!["", " ", "\"", "\\", "\\u", "u", ",", ":", "{", "}", "[", "]", "0", "-", "e", "\n", "\u{1}", "n"]
        )), 1..3),
    ) {
        let mut text = text;
        for (at, s) in edits {
            let mut i = at.index(text.len() + 1);
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            // Replace one character, or insert where the string is empty.
            let end = if s.is_empty() {
                text[i..].chars().next().map_or(i, |c| i + c.len_utf8())
            } else {
                i
            };
            text.replace_range(i..end, s);
        }
        agree(&text)?;
    }
}
