//! Raw JSON values and Go-compatible field access.
//!
//! (Over 800 lines with its unit tests: about 770 of code, one reader of Go's
//! `encoding/json` field rules whose parts call each other.)
//!
//! Blobs are kept as raw JSON text ([`RawJson`]) so nothing is lost and payloads
//! olmsat does not inspect are never turned into trees. Typed fields are read with the
//! rules of Go's `encoding/json`, which opm uses: object keys match struct fields
//! case-insensitively (the last matching key wins), unknown keys are ignored, `null`
//! leaves a field at its zero value, and a value of the wrong JSON type is an error
//! worded as Go words it.

use std::fmt::{self, Write as _};

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

/// A JSON value that does not decode into a Go type, in the words of Go's
/// `encoding/json` (which opm uses).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GoJsonError {
    /// A value of the wrong JSON type for a Go type.
    #[error("json: cannot unmarshal {kind} into Go value of type {go_type}")]
    ValueType {
        /// The JSON type found, as Go names it (`array`, `string`, …).
        kind: &'static str,
        /// The Go type, e.g. `property.Package`.
        go_type: String,
    },
    /// A value of the wrong JSON type in a Go struct field.
    #[error("json: cannot unmarshal {kind} into Go struct field {field} of type {go_type}")]
    FieldType {
        /// The JSON type found, as Go names it.
        kind: &'static str,
        /// The Go struct field, e.g. `Package.packageName`.
        field: String,
        /// The field's Go type, e.g. `string`.
        go_type: String,
    },
    /// An absent value (Go's empty `json.RawMessage`).
    #[error("unexpected end of JSON input")]
    UnexpectedEnd,
    /// Text that is not JSON, in serde_json's words.
    #[error("{0}")]
    Syntax(String),
}

impl From<serde_json::Error> for GoJsonError {
    fn from(e: serde_json::Error) -> Self {
        GoJsonError::Syntax(e.to_string())
    }
}

/// Owned raw JSON text, kept as written: always one valid JSON value.
///
/// Like serde_json's `Box<RawValue>`, but text the loader has already checked
/// becomes one without being parsed again (serde_json's only owned constructor
/// re-reads the whole value).
#[derive(Clone, PartialEq, Eq)]
pub struct RawJson(Box<str>);

impl RawJson {
    /// Check that `json` is one JSON value (surrounding whitespace allowed, as
    /// serde_json allows it) and keep it.
    pub fn parse(json: String) -> Result<Self, serde_json::Error> {
        RawValue::from_string(json).map(Self::from)
    }

    /// Keep text the caller has already read as exactly one JSON value, with
    /// no whitespace around it (olmsat's fast readers, which check the syntax
    /// as they read). The text is checked again in debug builds only: text
    /// not read that way goes through [`RawJson::parse`].
    pub fn from_checked(json: String) -> Self {
        debug_assert!(
            serde_json::from_str::<&RawValue>(&json).is_ok_and(|r| r.get().len() == json.len()),
            "not exactly one JSON value: {json}"
        );
        Self(json.into_boxed_str())
    }

    /// No value at all: a property without its `value` member. Go keeps it as
    /// an empty `json.RawMessage`, which it writes as `null` and which fails
    /// to decode (`unexpected end of JSON input`). [`RawJson::get`] gives
    /// `null`; [`RawJson::is_missing`] tells it apart.
    pub fn missing() -> Self {
        Self("".into())
    }

    /// Whether this is [`RawJson::missing`].
    pub fn is_missing(&self) -> bool {
        self.0.is_empty()
    }

    /// The JSON text (`null` for a missing value).
    pub fn get(&self) -> &str {
        if self.0.is_empty() {
            "null"
        } else {
            &self.0
        }
    }
}

impl From<Box<RawValue>> for RawJson {
    fn from(raw: Box<RawValue>) -> Self {
        Self(raw.into())
    }
}

impl Default for RawJson {
    /// The JSON `null`.
    fn default() -> Self {
        Self("null".into())
    }
}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RawValue")
            .field(&format_args!("{}", self.get()))
            .finish()
    }
}

impl fmt::Display for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get())
    }
}

impl JsonText for RawJson {
    fn json(&self) -> &str {
        self.get()
    }
}

/// The visits of every JSON value but an object, giving `$make(kind)` with the
/// value's JSON type named as [`json_kind`] names it (arrays are skipped).
macro_rules! visit_other_kinds {
    (|$kind:ident| $make:expr) => {
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<de::IgnoredAny>()?.is_some() {}
            let $kind = "array";
            Ok($make)
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            let $kind = "string";
            Ok($make)
        }
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            let $kind = "bool";
            Ok($make)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            let $kind = "null";
            Ok($make)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            let $kind = "number";
            Ok($make)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            let $kind = "number";
            Ok($make)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            let $kind = "number";
            Ok($make)
        }
    };
}

/// Valid JSON text: serde_json's raw values, and slices of them.
pub trait JsonText {
    /// The text.
    fn json(&self) -> &str;
}

impl JsonText for RawValue {
    fn json(&self) -> &str {
        self.get()
    }
}

impl JsonText for str {
    fn json(&self) -> &str {
        self
    }
}

/// The JSON type of a raw value, named as Go's decoder names it in errors.
pub fn json_kind<T: JsonText + ?Sized>(raw: &T) -> &'static str {
    kind_of(raw.json())
}

/// The JSON type of valid JSON text, named as Go's decoder names it in errors.
pub fn kind_of(json: &str) -> &'static str {
    match json.trim_start().as_bytes().first() {
        Some(b'{') => "object",
        Some(b'[') => "array",
        Some(b'"') => "string",
        Some(b't') | Some(b'f') => "bool",
        Some(b'n') => "null",
        _ => "number",
    }
}

/// Whether the raw value is JSON `null`.
pub fn is_null<T: JsonText + ?Sized>(raw: &T) -> bool {
    raw.json().trim() == "null"
}

/// A JSON object as its (key, raw value) pairs, in input order.
#[derive(Debug, Default)]
pub struct Object<'a> {
    /// The members in input order; duplicate keys are kept. Keys are borrowed
    /// from the input unless they hold escapes; values are borrowed JSON text.
    pub fields: Vec<(Key<'a>, &'a str)>,
}

impl<'a> Object<'a> {
    /// Read `raw` as an object. `go_type` names the Go type for the error text
    /// (`json: cannot unmarshal array into Go value of type property.Package`).
    pub fn parse<T: JsonText + ?Sized>(
        raw: &'a T,
        go_type: &str,
    ) -> Result<Object<'a>, GoJsonError> {
        let text = raw.json();
        // Go decodes `null` into a struct as nothing at all: its zero value.
        if kind_of(text) == "null" {
            return Ok(Object { fields: Vec::new() });
        }
        if kind_of(text) != "object" {
            return Err(GoJsonError::ValueType {
                kind: kind_of(text),
                go_type: go_type.to_owned(),
            });
        }
        if let Some(fields) = crate::validjson::members(text) {
            return Ok(Object { fields });
        }
        let fields: Pairs<'a> = serde_json::from_str(text)?;
        Ok(Object {
            fields: fields.0.into_iter().map(|(k, v)| (k, v.get())).collect(),
        })
    }

    /// Check that `raw` is an object, failing as [`Object::parse`] would, without
    /// reading its members: for valid JSON within serde_json's nesting limit
    /// (which the loader guarantees) reading them cannot fail.
    pub fn check<T: JsonText + ?Sized>(raw: &T, go_type: &str) -> Result<(), GoJsonError> {
        if !matches!(json_kind(raw), "object" | "null") {
            return Err(GoJsonError::ValueType {
                kind: json_kind(raw),
                go_type: go_type.to_owned(),
            });
        }
        Ok(())
    }

    /// The value of `key`, matched as Go matches struct fields: case-insensitively,
    /// the last matching member winning.
    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.fields
            .iter()
            .rev()
            .find(|(k, _)| k == key || fold_eq(k, key))
            .map(|(_, v)| *v)
    }

    /// A string field; `null` or absent gives `None`. `field` names the Go struct
    /// field for the error text, e.g. `Package.packageName`.
    pub fn string(&self, key: &str, field: &str) -> Result<Option<String>, GoJsonError> {
        match self.get(key) {
            None => Ok(None),
            Some(raw) if is_null(raw) => Ok(None),
            Some(raw) => decode_string(raw, field).map(Some),
        }
    }

    /// A list of strings; `null` or absent gives an empty list.
    pub fn string_list(&self, key: &str, field: &str) -> Result<Vec<String>, GoJsonError> {
        match self.get(key) {
            None => Ok(Vec::new()),
            Some(raw) if is_null(raw) => Ok(Vec::new()),
            Some(raw) => items_of(raw)
                .map_err(|_| unmarshal_error(raw, field, "[]string"))?
                .into_iter()
                .map(|item| {
                    if is_null(item) {
                        Ok(String::new())
                    } else {
                        decode_string(item, field)
                    }
                })
                .collect(),
        }
    }
}

/// Case-insensitive key comparison standing in for Go's simple case folding.
#[inline]
pub fn fold_eq(a: &str, b: &str) -> bool {
    // Equal but for ASCII case means equal under any folding; the common
    // mismatch (different lengths, ASCII keys) is decided without allocating.
    if a.eq_ignore_ascii_case(b) {
        return true;
    }
    if a.is_ascii() && b.is_ascii() {
        return false;
    }
    fold_eq_unicode(a, b)
}

#[cold]
fn fold_eq_unicode(a: &str, b: &str) -> bool {
    a.to_lowercase() == b.to_lowercase()
}

fn decode_string(raw: &str, field: &str) -> Result<String, GoJsonError> {
    if kind_of(raw) != "string" {
        return Err(unmarshal_error(raw, field, "string"));
    }
    match crate::validjson::string(raw) {
        Some(s) => Ok(s.into_owned()),
        None => Ok(serde_json::from_str::<String>(raw)?),
    }
}

/// The items of a JSON array, borrowed; `Err` with the JSON type of anything
/// else. (For text serde_json has accepted, reading the items cannot fail.)
pub fn items_of<T: JsonText + ?Sized>(raw: &T) -> Result<Vec<&str>, &'static str> {
    let text = raw.json();
    if kind_of(text) != "array" {
        return Err(kind_of(text));
    }
    if let Some(items) = crate::validjson::items(text) {
        return Ok(items);
    }
    serde_json::from_str::<Vec<&RawValue>>(text)
        .map(|v| v.into_iter().map(RawValue::get).collect())
        .map_err(|_| "array")
}

/// Go's text for a JSON value of the wrong type in a struct field.
pub fn unmarshal_error<T: JsonText + ?Sized>(raw: &T, field: &str, go_type: &str) -> GoJsonError {
    GoJsonError::FieldType {
        kind: json_kind(raw),
        field: field.to_owned(),
        go_type: go_type.to_owned(),
    }
}

/// Read a JSON array whose items should be objects, in one pass (which also
/// validates the text): each item's members, or the JSON type it has instead
/// (named as [`json_kind`] names it).
pub fn object_items(json: &str) -> Result<Vec<Result<Object<'_>, &'static str>>, GoJsonError> {
    let items: Vec<Item<'_>> = serde_json::from_str(json)?;
    Ok(items
        .into_iter()
        .map(|i| match i {
            Item::Object(fields) => Ok(Object {
                fields: fields.into_iter().map(|(k, v)| (k, v.get())).collect(),
            }),
            Item::Other(kind) => Err(kind),
        })
        .collect())
}

/// One item of a `properties` array as Go's decoder reads it into
/// `property.Property`: the last `type` and the last `value` member (keys
/// matched case-insensitively); other members are skipped.
#[derive(Debug)]
pub struct PropertyItem<'a> {
    /// The `type` member.
    pub type_: Option<&'a RawValue>,
    /// The `value` member.
    pub value: Option<&'a RawValue>,
}

impl PropertyItem<'_> {
    /// The type as Go decodes it: absent or `null` is empty.
    pub fn type_name(&self) -> Result<String, GoJsonError> {
        match self.type_ {
            None => Ok(String::new()),
            Some(raw) if is_null(raw) => Ok(String::new()),
            Some(raw) => decode_string(raw.get(), "Property.type"),
        }
    }
}

/// Read a `properties` array in one pass (which also validates the text): each
/// item's `type` and `value`, or the JSON type an item has instead of object.
pub fn property_items(
    json: &str,
) -> Result<Vec<Result<PropertyItem<'_>, &'static str>>, GoJsonError> {
    let items: Vec<PropertyItemOr<'_>> = serde_json::from_str(json)?;
    Ok(items.into_iter().map(|i| i.0).collect())
}

struct PropertyItemOr<'a>(Result<PropertyItem<'a>, &'static str>);

impl<'de: 'a, 'a> Deserialize<'de> for PropertyItemOr<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = PropertyItemOr<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut item = PropertyItem {
                    type_: None,
                    value: None,
                };
                while let Some(k) = map.next_key_seed(KeySeed)? {
                    let v: &'a RawValue = map.next_value()?;
                    if k == "type" || fold_eq(&k, "type") {
                        item.type_ = Some(v);
                    } else if k == "value" || fold_eq(&k, "value") {
                        item.value = Some(v);
                    }
                }
                Ok(PropertyItemOr(Ok(item)))
            }
            visit_other_kinds!(|kind| PropertyItemOr(Err(kind)));
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// A JSON value read as an object's members (borrowed), or named by its type.
#[derive(Debug)]
pub enum JsonItem<'a> {
    /// An object: its members in input order, values borrowed.
    Object(Vec<(Key<'a>, &'a RawValue)>),
    /// Anything else, by JSON type name (`array`, `string`, `null`, ...).
    Other(&'static str),
}

use JsonItem as Item;

impl<'de: 'a, 'a> Deserialize<'de> for Item<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Item<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Item<'a>, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key_seed(KeySeed)? {
                    let v: &'a RawValue = map.next_value()?;
                    out.push((k, v));
                }
                Ok(Item::Object(out))
            }
            visit_other_kinds!(|kind| Item::Other(kind));
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

struct Pairs<'a>(Vec<(Key<'a>, &'a RawValue)>);

/// An object key: borrowed from the input text unless it holds escapes.
pub type Key<'a> = std::borrow::Cow<'a, str>;

/// Reads an object key as a [`Key`], without copying when it can borrow.
struct KeySeed;

impl<'de> de::DeserializeSeed<'de> for KeySeed {
    type Value = Key<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key<'de>, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key::Borrowed(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key::Owned(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key::Owned(v))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Pairs<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Pairs<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Pairs<'a>, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key_seed(KeySeed)? {
                    let v: &'a RawValue = map.next_value()?;
                    out.push((k, v));
                }
                Ok(Pairs(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// Re-encode a raw value with object keys sorted, as opm's writers produce it
/// (opm decodes every blob into Go maps, which marshal with sorted keys).
///
/// Fails only for values nested deeper than serde_json's limit, which the loader
/// refuses up front (see [`max_depth`]).
pub fn canonical_value<T: JsonText + ?Sized>(
    raw: &T,
) -> Result<serde_json::Value, serde_json::Error> {
    // serde_json's Value keeps maps in a BTreeMap (sorted keys) in this build.
    serde_json::from_str(raw.json())
}

/// The deepest nesting of arrays and objects in JSON text (strings skipped).
pub fn max_depth(json: &str) -> usize {
    scan(json).depth
}

/// What one pass over valid JSON text finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scan<'a> {
    /// The deepest nesting of arrays and objects.
    pub depth: usize,
    /// The first number too large for a float64 (such as `1e999`), which Go's
    /// decoder refuses: `json: cannot unmarshal number 1e999 into Go value of
    /// type float64`.
    pub out_of_range: Option<&'a str>,
}

/// Scan valid JSON text once for its nesting depth and for numbers out of
/// float64 range (strings skipped).
pub fn scan(json: &str) -> Scan<'_> {
    let b = json.as_bytes();
    let (mut depth, mut max, mut i) = (0usize, 0usize, 0usize);
    let mut out_of_range = None;
    loop {
        // Skip what cannot change the outcome (whitespace, `,`, `:`, literals).
        while b.get(i).is_some_and(|&c| SCAN_CLASS[usize::from(c)] == 0) {
            i += 1;
        }
        let Some(&c) = b.get(i) else {
            break;
        };
        match SCAN_CLASS[usize::from(c)] {
            STRING => i = string_end(b, i + 1),
            OPEN => {
                depth += 1;
                max = max.max(depth);
                i += 1;
            }
            CLOSE => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            _ => {
                let start = i;
                while b
                    .get(i + 1)
                    .is_some_and(|c| matches!(c, b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-'))
                {
                    i += 1;
                }
                let number = &json[start..=i];
                // Only a long number or one with an exponent can overflow.
                let suspect = number.len() > 300 || number.bytes().any(|c| c == b'e' || c == b'E');
                if suspect
                    && out_of_range.is_none()
                    && !number.parse::<f64>().is_ok_and(f64::is_finite)
                {
                    out_of_range = Some(number);
                }
                i += 1;
            }
        }
    }
    Scan {
        depth: max,
        out_of_range,
    }
}

/// [`scan`]'s byte classes.
const STRING: u8 = 1;
const OPEN: u8 = 2;
const CLOSE: u8 = 3;
const NUMBER: u8 = 4;
static SCAN_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = STRING;
    t[b'[' as usize] = OPEN;
    t[b'{' as usize] = OPEN;
    t[b']' as usize] = CLOSE;
    t[b'}' as usize] = CLOSE;
    t[b'-' as usize] = NUMBER;
    let mut d = b'0';
    while d <= b'9' {
        t[d as usize] = NUMBER;
        d += 1;
    }
    t
};

/// The position after the closing quote of a string whose text starts at `i`
/// (the end of `b` when it has none): short strings byte by byte, long ones
/// (base64 payloads) with memchr.
fn string_end(b: &[u8], mut i: usize) -> usize {
    let short_end = (i + 32).min(b.len());
    while i < short_end {
        match b[i] {
            b'"' => return i + 1,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    loop {
        match b
            .get(i..)
            .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
        {
            Some(j) if b[i + j] == b'"' => return i + j + 1,
            Some(j) => i += j + 2,
            None => return b.len(),
        }
    }
}

/// Make raw JSON from a string that is known to be valid JSON.
pub fn raw_from_string(json: String) -> RawJson {
    // Every caller passes text produced by serde_json or the transcoder below.
    RawJson::parse(json).unwrap_or_else(|_| null_raw())
}

/// The raw JSON `null`.
pub fn null_raw() -> RawJson {
    RawJson::default()
}

/// Serialize any serde value to raw JSON (used for values olmsat builds itself).
pub fn to_raw<T: serde::Serialize>(value: &T) -> RawJson {
    serde_json::value::to_raw_value(value).map_or_else(|_| null_raw(), RawJson::from)
}

/// A value read from any serde deserializer (the YAML one in practice) and written
/// straight out as compact JSON text, with no tree in between.
#[derive(Debug)]
pub struct Transcoded(pub String);

impl<'de> Deserialize<'de> for Transcoded {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut out = String::new();
        JsonWriter { out: &mut out }.deserialize(d)?;
        Ok(Transcoded(out))
    }
}

/// A `DeserializeSeed` that writes the value it visits as JSON into `out`.
pub struct JsonWriter<'o> {
    /// Where the JSON text goes.
    pub out: &'o mut String,
}

impl<'de> DeserializeSeed<'de> for JsonWriter<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

fn push_json_str(out: &mut String, s: &str) {
    // serde_json's escaping; writing into a String cannot fail.
    if let Ok(quoted) = serde_json::to_string(s) {
        out.push_str(&quoted);
    }
}

fn push_f64(out: &mut String, v: f64) {
    if v.is_finite() {
        if v.fract() == 0.0 && v.abs() < 1e15 {
            let _ = write!(out, "{}", v as i64);
        } else {
            let _ = write!(
                out,
                "{}",
                serde_json::Number::from_f64(v)
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| "null".into())
            );
        }
    } else {
        out.push_str("null");
    }
}

impl<'de> Visitor<'de> for JsonWriter<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<(), E> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<(), E> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        push_f64(self.out, v);
        Ok(())
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        push_json_str(self.out, v);
        Ok(())
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<(), E> {
        push_json_str(self.out, &String::from_utf8_lossy(v));
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.out.push_str("null");
        Ok(())
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.out.push_str("null");
        Ok(())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.out.push('[');
        let mut first = true;
        loop {
            let mark = self.out.len();
            if !first {
                self.out.push(',');
            }
            let got = seq.next_element_seed(JsonWriter { out: self.out })?;
            if got.is_none() {
                self.out.truncate(mark);
                break;
            }
            first = false;
        }
        self.out.push(']');
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.out.push('{');
        let mut first = true;
        while let Some(key) = map.next_key_seed(KeyWriter)? {
            if !first {
                self.out.push(',');
            }
            first = false;
            push_json_str(self.out, &key);
            self.out.push(':');
            map.next_value_seed(JsonWriter { out: self.out })?;
        }
        self.out.push('}');
        Ok(())
    }
}

/// Reads a mapping key of any scalar type as a string, as Go's YAML-to-JSON
/// conversion does (`1: x` becomes `"1": "x"`).
pub struct KeyWriter;

impl<'de> DeserializeSeed<'de> for KeyWriter {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for KeyWriter {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a scalar mapping key")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<String, E> {
        let mut s = String::new();
        push_f64(&mut s, v);
        Ok(s)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
        Ok(v)
    }
    fn visit_unit<E: de::Error>(self) -> Result<String, E> {
        Ok("null".to_owned())
    }
    fn visit_none<E: de::Error>(self) -> Result<String, E> {
        Ok("null".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(s: &str) -> RawJson {
        RawJson::parse(s.to_owned()).unwrap()
    }

    #[test]
    fn raw_json_keeps_text_as_written_and_refuses_what_is_not_json() {
        let text = "{ \"a\" : [1, 2] }";
        let r = RawJson::parse(text.to_owned()).unwrap();
        assert_eq!(r.get(), text);
        assert_eq!(RawJson::from_checked(text.to_owned()).get(), text);
        // Whitespace around the value is dropped, as serde_json drops it.
        assert_eq!(RawJson::parse(" 1 ".to_owned()).unwrap().get(), "1");
        for bad in ["", "{", "1 2", "[1,]", "nul"] {
            assert!(RawJson::parse(bad.to_owned()).is_err(), "{bad:?}");
        }
        assert_eq!(RawJson::default().get(), "null");
        assert_eq!(format!("{r}"), text);
        assert_eq!(format!("{:?}", raw("[]")), "RawValue([])");
    }

    #[test]
    fn object_get_is_case_insensitive_last_wins() {
        let r = raw(r#"{"name":"a","Name":"b","other":1}"#);
        let o = Object::parse(&r, "T").unwrap();
        assert_eq!(o.string("name", "T.name").unwrap().as_deref(), Some("b"));
        assert!(o.get("missing").is_none());
    }

    #[test]
    fn wrong_types_are_worded_like_go() {
        let r = raw(r#"{"packageName":1}"#);
        let o = Object::parse(&r, "property.Package").unwrap();
        assert_eq!(
            o.string("packageName", "Package.packageName")
                .unwrap_err()
                .to_string(),
            "json: cannot unmarshal number into Go struct field Package.packageName of type string"
        );
        let arr = raw("[1]");
        assert_eq!(
            Object::parse(&arr, "property.Package")
                .unwrap_err()
                .to_string(),
            "json: cannot unmarshal array into Go value of type property.Package"
        );
    }

    #[test]
    fn object_items_read_objects_and_name_the_rest() {
        let r = raw(r#"[{"a":1,"b":[2]},null,"s",3,-1.5,true,[{}],{}]"#);
        let items = object_items(r.get()).unwrap();
        let kinds: Vec<&str> = items
            .iter()
            .map(|i| match i {
                Ok(_) => "object",
                Err(k) => k,
            })
            .collect();
        assert_eq!(
            kinds,
            vec!["object", "null", "string", "number", "number", "bool", "array", "object"]
        );
        let first = items[0].as_ref().unwrap();
        assert_eq!(first.get("b"), Some("[2]"));
        let item_kinds: Vec<&str> = serde_json::from_str::<Vec<&RawValue>>(r.get())
            .unwrap()
            .into_iter()
            .map(json_kind)
            .collect();
        assert_eq!(kinds, item_kinds);
    }

    #[test]
    fn scan_finds_numbers_out_of_float_range() {
        let s = scan(r#"{"a":[1e308,-2.5E+3,"1e999",0],"b":-1e999,"c":1e999}"#);
        assert_eq!(s.depth, 2);
        assert_eq!(s.out_of_range, Some("-1e999"));
        assert_eq!(
            scan("[1e-999, 123456789012345678901234567890]").out_of_range,
            None
        );
        assert_eq!(
            scan(&"9".repeat(400)).out_of_range,
            Some("9".repeat(400).as_str())
        );
    }

    #[test]
    fn depth_skips_strings() {
        assert_eq!(max_depth(r#"{"a":[1,{"b":"[[[["}]}"#), 3);
        assert_eq!(max_depth(r#""\"[""#), 0);
        assert_eq!(max_depth("1"), 0);
        // Escapes on either side of the switch from short to long strings.
        for pad in 25..40 {
            let text = format!(r#"[{{"k":"{}\"[{{\\","n":-1e999}}]"#, "x".repeat(pad));
            let s = scan(&text);
            assert_eq!((s.depth, s.out_of_range), (2, Some("-1e999")), "{text}");
        }
        let long = format!(r#"["{}\"]", [1E400]"#, "b".repeat(5000));
        assert_eq!(scan(&long).out_of_range, Some("1E400"));
    }

    #[test]
    fn transcodes_yaml_to_json() {
        let t: Transcoded =
            serde_saphyr::from_str("a: [1, 2.5, true, null, \"x\"]\n3: {b: c}\n").unwrap();
        assert_eq!(t.0, r#"{"a":[1,2.5,true,null,"x"],"3":{"b":"c"}}"#);
        let empty: Transcoded = serde_saphyr::from_str("a: []\nb: {}\n").unwrap();
        assert_eq!(empty.0, r#"{"a":[],"b":{}}"#);
    }
}
