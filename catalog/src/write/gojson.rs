//! JSON text exactly as Go's `encoding/json` writes it: the one Go-compatible
//! JSON writer, used by catalog output ([`super::write`]) and by bundle
//! rendering (property values, `olm.bundle.object` manifests).
//!
//! Both of opm's ways of writing JSON differ from serde_json's only in string
//! escaping and float format; the layout (compact, or indented) is serde_json's:
//!
//! | Go call | olmsat | layout | `<` `>` `&` | U+2028 U+2029 |
//! |---|---|---|---|---|
//! | `json.Marshal` (bundle render: property values, manifests) | [`marshal`] | compact | `\u003c` `\u003e` `\u0026` | `\u2028` `\u2029` |
//! | `json.Encoder`, `SetIndent("", "    ")`, `SetEscapeHTML(false)` (opm's `WriteJSON`) | [`write_indented`] | 4-space indent | kept | `\u2028` `\u2029` |
//!
//! Go escapes U+2028 and U+2029 in every string it encodes, with or without
//! HTML escaping (`appendString`); only its compaction of already-encoded
//! `json.RawMessage` text ties them to the HTML switch, and every value opm
//! writes back was encoded from a Go string first (a loaded catalog's blobs are
//! re-encoded through a Go map when read), so they are always escaped here.
//!
//! The rest is serde_json's and agrees with Go 1.22 and later: `"` and `\`
//! escaped, `\n` `\r` `\t` `\b` `\f`, other control characters as `\u00xx`
//! (lower-case hex), DEL and everything above it written as is. Go replaces
//! invalid UTF-8 with U+FFFD; a Rust string cannot hold any.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

/// serde_json's `inner` layout with Go's string escaping and float format;
/// `ESCAPE_HTML` is Go's `SetEscapeHTML`.
#[derive(Debug, Clone)]
pub struct GoFormatter<F, const ESCAPE_HTML: bool> {
    inner: F,
}

/// `json.Marshal`: compact, `<`, `>` and `&` escaped.
pub type MarshalFormatter = GoFormatter<CompactFormatter, true>;

/// opm's `WriteJSON` encoder: indented by 4 spaces, HTML characters kept.
pub type IndentedFormatter = GoFormatter<PrettyFormatter<'static>, false>;

impl Default for MarshalFormatter {
    fn default() -> Self {
        GoFormatter {
            inner: CompactFormatter,
        }
    }
}

impl Default for IndentedFormatter {
    fn default() -> Self {
        GoFormatter {
            inner: PrettyFormatter::with_indent(b"    "),
        }
    }
}

/// Write `value` as Go's `json.Marshal` does.
pub fn marshal<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, MarshalFormatter::default());
    // A value serializes into a Vec without error unless its `Serialize`
    // fails, which serde_json's values and olmsat's output structs never do.
    let _ = value.serialize(&mut ser);
    out
}

/// [`marshal`] as a string.
pub fn marshal_string<T: Serialize + ?Sized>(value: &T) -> String {
    // The formatter writes valid UTF-8 only.
    String::from_utf8(marshal(value)).unwrap_or_default()
}

/// Write `value` to `w` as opm's `WriteJSON` encoder does (without the
/// newline `json.Encoder` adds after each value).
pub fn write_indented<W: Write, T: Serialize + ?Sized>(w: &mut W, value: &T) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(&mut *w, IndentedFormatter::default());
    value.serialize(&mut ser).map_err(io::Error::other)
}

/// A float64 as `encoding/json` writes it: the shortest decimal that reads
/// back the same, in exponent form (`1e+21`, `1.5e-07`) below 1e-6 and from
/// 1e21 on; `null` for values JSON cannot hold.
pub fn go_float(v: f64) -> String {
    if !v.is_finite() {
        return "null".to_owned();
    }
    let abs = v.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let s = format!("{v:e}");
        // Rust: 1e21, 1.5e-7; Go: 1e+21, 1.5e-07
        if let Some((m, e)) = s.split_once('e') {
            let (sign, digits) = match e.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', e),
            };
            let digits = if digits.len() < 2 {
                format!("0{digits}")
            } else {
                digits.to_owned()
            };
            return format!("{m}e{sign}{digits}");
        }
        return s;
    }
    if v.fract() == 0.0 {
        return format!("{v:.0}");
    }
    let mut s = format!("{v}");
    if s.contains('e') {
        s = format!("{v:.17}").trim_end_matches('0').to_owned();
    }
    s
}

/// Write a piece of string text (no quotes or escapes of serde_json's in it)
/// with Go's extra escapes.
fn write_go_string<W: ?Sized + Write>(w: &mut W, text: &str, escape_html: bool) -> io::Result<()> {
    let bytes = text.as_bytes();
    // 0xE2 leads U+2028 and U+2029 (E2 80 A8, E2 80 A9).
    let special = |b: u8| b == 0xE2 || (escape_html && matches!(b, b'<' | b'>' | b'&'));
    if !bytes.iter().any(|&b| special(b)) {
        return w.write_all(bytes);
    }
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        let (escape, len): (&[u8], usize) = match bytes[i] {
            b'<' if escape_html => (b"\\u003c", 1),
            b'>' if escape_html => (b"\\u003e", 1),
            b'&' if escape_html => (b"\\u0026", 1),
            0xE2 if bytes.get(i + 1) == Some(&0x80) => match bytes.get(i + 2) {
                Some(0xA8) => (b"\\u2028", 3),
                Some(0xA9) => (b"\\u2029", 3),
                _ => {
                    i += 1;
                    continue;
                }
            },
            _ => {
                i += 1;
                continue;
            }
        };
        w.write_all(&bytes[start..i])?;
        w.write_all(escape)?;
        i += len;
        start = i;
    }
    w.write_all(&bytes[start..])
}

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        #[inline]
        fn $name<W: ?Sized + Write>(&mut self, w: &mut W $(, $arg: $ty)*) -> io::Result<()> {
            self.inner.$name(w $(, $arg)*)
        }
    )*};
}

impl<F: Formatter, const ESCAPE_HTML: bool> Formatter for GoFormatter<F, ESCAPE_HTML> {
    delegate! {
        begin_array();
        end_array();
        begin_array_value(first: bool);
        end_array_value();
        begin_object();
        end_object();
        begin_object_key(first: bool);
        begin_object_value();
        end_object_value();
    }

    fn write_f64<W: ?Sized + Write>(&mut self, w: &mut W, v: f64) -> io::Result<()> {
        w.write_all(go_float(v).as_bytes())
    }

    fn write_f32<W: ?Sized + Write>(&mut self, w: &mut W, v: f32) -> io::Result<()> {
        w.write_all(go_float(f64::from(v)).as_bytes())
    }

    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        write_go_string(w, fragment, ESCAPE_HTML)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn indented(v: &Value) -> String {
        let mut out = Vec::new();
        let _ = write_indented(&mut out, v);
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn go_float_formats() {
        assert_eq!(go_float(1.0), "1");
        assert_eq!(go_float(2.5), "2.5");
        assert_eq!(go_float(1e21), "1e+21");
        assert_eq!(go_float(1.5e-7), "1.5e-07");
        assert_eq!(go_float(-3.0), "-3");
        assert_eq!(go_float(f64::NAN), "null");
    }

    #[test]
    fn marshal_layout() {
        let v: Value = serde_json::from_str(
            r#"{"b":[1,2.5,1e-7,null,true],"a":"<x> & \u2028 \n \"q\"","c":{}}"#,
        )
        .unwrap_or_default();
        assert_eq!(
            marshal_string(&v),
            r#"{"a":"\u003cx\u003e \u0026 \u2028 \n \"q\"","b":[1,2.5,1e-07,null,true],"c":{}}"#
        );
    }

    #[test]
    fn indented_layout() {
        let v = json!({"a": [1, {"b": "<&>\u{2028}"}], "c": [], "d": {}});
        assert_eq!(
            indented(&v),
            "{\n    \"a\": [\n        1,\n        {\n            \"b\": \"<&>\\u2028\"\n        }\n    ],\n    \"c\": [],\n    \"d\": {}\n}"
        );
    }

    /// Go escapes U+2028 and U+2029 whether or not HTML characters are
    /// escaped: `json.Marshal` and opm's `WriteJSON` encoder agree on them,
    /// and differ only in `<`, `>` and `&`.
    #[test]
    fn line_and_paragraph_separators_escaped_by_both() {
        let v = json!("a\u{2028}b\u{2029}c <&> \u{2027}\u{202f}\u{2192}");
        assert_eq!(
            marshal_string(&v),
            "\"a\\u2028b\\u2029c \\u003c\\u0026\\u003e \u{2027}\u{202f}\u{2192}\""
        );
        assert_eq!(
            indented(&v),
            "\"a\\u2028b\\u2029c <&> \u{2027}\u{202f}\u{2192}\""
        );
    }

    #[test]
    fn control_characters_as_go_writes_them() {
        let v = json!("\u{0}\u{8}\u{c}\t\n\r\u{1f}\u{7f}\"\\/");
        assert_eq!(
            marshal_string(&v),
            "\"\\u0000\\b\\f\\t\\n\\r\\u001f\u{7f}\\\"\\\\/\""
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// Both layouts read back as the value written, and escape U+2028,
        /// U+2029 and (for `json.Marshal`) `<`, `>` and `&` everywhere.
        #[test]
        fn both_layouts_read_back(
            s in r"(\PC|[<>&\u{2028}\u{2029}\u{2000}-\u{2fff}\x00-\x1f]){0,30}",
            k in r"[a-z<\u{2028}]{0,4}",
        ) {
            let v = json!({ k.clone(): [s.clone(), 1.5, {"x": s.clone()}] });
            let compact = marshal_string(&v);
            let pretty = indented(&v);
            proptest::prop_assert_eq!(serde_json::from_str::<Value>(&compact).ok(), Some(v.clone()));
            proptest::prop_assert_eq!(serde_json::from_str::<Value>(&pretty).ok(), Some(v));
            let separators = |t: &str| t.contains(['\u{2028}', '\u{2029}']);
            proptest::prop_assert!(!separators(&compact) && !separators(&pretty));
            let html = compact.contains(['<', '>', '&']);
            proptest::prop_assert!(!html);
        }
    }
}
