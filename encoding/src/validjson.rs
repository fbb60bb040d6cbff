//! Walking JSON text that serde_json has already accepted: object members and
//! array items as borrowed slices, without checking the syntax a second time.
//!
//! Blob members are re-read several times (a channel's entries, a property's
//! value, a related image); going through serde_json each time cost more than
//! the first, validating pass. Every walker here returns `None` on text that is
//! not JSON of the expected shape, and callers then fall back to serde_json and
//! its error texts, so nothing here decides whether input is valid; and nothing
//! panics or reads out of bounds on any input (fuzzed with the loader).

use std::borrow::Cow;

/// Whether `c` is JSON whitespace.
fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// The first non-whitespace position at or after `i`.
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|&c| is_ws(c)) {
        i += 1;
    }
    i
}

/// End (exclusive) of the string whose opening quote is at `i`.
fn string_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        let k = j + memchr::memchr2(b'"', b'\\', b.get(j..)?)?;
        if b[k] == b'"' {
            return Some(k + 1);
        }
        // A backslash escapes the next byte (`\"`, `\\`, `\u....` all work so).
        j = k + 2;
    }
}

/// End (exclusive) of the value starting at `i`.
fn value_end(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => string_end(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match *b.get(j)? {
                    b'"' => {
                        j = string_end(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        _ => {
            let mut j = i;
            while b
                .get(j)
                .is_some_and(|&c| !is_ws(c) && !matches!(c, b',' | b'}' | b']'))
            {
                j += 1;
            }
            (j > i).then_some(j)
        }
    }
}

/// The text of a JSON string value (quotes included) as a Rust string: borrowed
/// when it holds no escapes, else decoded by serde_json. `None` when `raw` is
/// not a string.
pub fn string(raw: &str) -> Option<Cow<'_, str>> {
    let inner = raw.trim().strip_prefix('"')?.strip_suffix('"')?;
    if !inner.contains('\\') {
        return Some(Cow::Borrowed(inner));
    }
    serde_json::from_str::<String>(raw).ok().map(Cow::Owned)
}

/// The members of a JSON object, in input order (duplicates kept), keys decoded
/// and values as borrowed text. `None` when `text` is not an object.
pub fn members(text: &str) -> Option<Vec<(Cow<'_, str>, &str)>> {
    let b = text.as_bytes();
    let mut i = skip_ws(b, 0);
    if *b.get(i)? != b'{' {
        return None;
    }
    i = skip_ws(b, i + 1);
    let mut out = Vec::new();
    if *b.get(i)? == b'}' {
        return (skip_ws(b, i + 1) == b.len()).then_some(out);
    }
    loop {
        if *b.get(i)? != b'"' {
            return None;
        }
        let key_end = string_end(b, i)?;
        let key = string(text.get(i..key_end)?)?;
        i = skip_ws(b, key_end);
        if *b.get(i)? != b':' {
            return None;
        }
        i = skip_ws(b, i + 1);
        let end = value_end(b, i)?;
        out.push((key, text.get(i..end)?));
        i = skip_ws(b, end);
        match *b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            b'}' => return (skip_ws(b, i + 1) == b.len()).then_some(out),
            _ => return None,
        }
    }
}

/// The items of a JSON array as borrowed text. `None` when `text` is not an array.
pub fn items(text: &str) -> Option<Vec<&str>> {
    let b = text.as_bytes();
    let mut i = skip_ws(b, 0);
    if *b.get(i)? != b'[' {
        return None;
    }
    i = skip_ws(b, i + 1);
    let mut out = Vec::new();
    if *b.get(i)? == b']' {
        return (skip_ws(b, i + 1) == b.len()).then_some(out);
    }
    loop {
        let end = value_end(b, i)?;
        out.push(text.get(i..end)?);
        i = skip_ws(b, end);
        match *b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            b']' => return (skip_ws(b, i + 1) == b.len()).then_some(out),
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::value::RawValue;

    /// serde_json's view of the same text (sorted by key), for comparison.
    fn serde_members(text: &str) -> Vec<(String, String)> {
        let m: std::collections::BTreeMap<String, &RawValue> = serde_json::from_str(text).unwrap();
        m.into_iter()
            .map(|(k, v)| (k, v.get().to_owned()))
            .collect()
    }

    #[test]
    fn members_of_nested_objects() {
        let text = r#" { "a" : {"x": [1, {"y": "}]"}]}, "b\"c": "q\\\"", "n": -1.5e3 ,"t":true, "z": null } "#;
        let got: Vec<(String, String)> = members(text)
            .unwrap()
            .into_iter()
            .map(|(k, v)| (k.into_owned(), v.to_owned()))
            .collect();
        let mut sorted = got.clone();
        sorted.sort();
        assert_eq!(sorted, serde_members(text));
        assert_eq!(got[1].0, "b\"c");
    }

    #[test]
    fn items_and_empty_containers() {
        assert_eq!(items(" [ ] ").unwrap(), Vec::<&str>::new());
        assert_eq!(members("{}").unwrap(), Vec::new());
        assert_eq!(
            items(r#"[1, "a,]", {"k": [2]}, null]"#).unwrap(),
            vec!["1", r#""a,]""#, r#"{"k": [2]}"#, "null"]
        );
    }

    #[test]
    fn wrong_shapes_give_none() {
        for bad in [
            "",
            "{",
            "}",
            "[1]",
            r#"{"a"}"#,
            r#"{"a":}"#,
            r#"{"a":1,}"#,
            r#"{"a":1} x"#,
            r#"{"a":"\"}"#,
            "{\"a\":[}",
            r#"{a:1}"#,
            r#"{"a":1"#,
        ] {
            assert!(members(bad).is_none(), "{bad:?}");
        }
        for bad in [
            "",
            "[",
            "]",
            "{}",
            "[1 2]",
            "[1,]",
            "[]]",
            r#"["abc]"#,
            "[{]",
        ] {
            assert!(items(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn strings_borrow_unless_escaped() {
        assert!(matches!(string(r#""plain""#), Some(Cow::Borrowed("plain"))));
        assert_eq!(string(r#""a\u00e9\n""#).unwrap(), "a\u{e9}\n");
        assert!(string("12").is_none());
    }

    proptest::proptest! {
        /// On any JSON serde_json produces, the walkers agree with serde_json.
        #[test]
        fn agrees_with_serde(v in json_value(3)) {
            let text = serde_json::to_string_pretty(&v).unwrap_or_default();
            match &v {
                serde_json::Value::Object(m) => {
                    let got = members(&text).unwrap();
                    proptest::prop_assert_eq!(got.len(), m.len());
                    for (k, raw) in got {
                        let parsed: serde_json::Value = serde_json::from_str(raw).unwrap();
                        proptest::prop_assert_eq!(Some(&parsed), m.get(k.as_ref()));
                    }
                }
                serde_json::Value::Array(a) => {
                    let got = items(&text).unwrap();
                    proptest::prop_assert_eq!(got.len(), a.len());
                    for (raw, want) in got.into_iter().zip(a) {
                        let parsed: serde_json::Value = serde_json::from_str(raw).unwrap();
                        proptest::prop_assert_eq!(&parsed, want);
                    }
                }
                serde_json::Value::String(s) => {
                    let got = string(&text);
                    proptest::prop_assert_eq!(got.as_deref(), Some(s.as_str()));
                }
                _ => {}
            }
        }
    }

    fn json_value(depth: u32) -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<i64>().prop_map(serde_json::Value::from),
            "[ -~\u{e9}\u{1F600}\\\\\"\n\t]{0,12}".prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(depth, 32, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
                proptest::collection::btree_map("[a-z\"\\\\{}]{0,6}", inner, 0..6)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }
}
