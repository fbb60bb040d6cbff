//! Compact JSON exactly as Go's `json.Marshal` writes a decoded Kubernetes object:
//! object keys sorted (Go maps), no spaces, `<`, `>` and `&` escaped as `\u003c`,
//! `\u003e` and `\u0026`, U+2028 and U+2029 escaped, floats formatted as Go does.
//!
//! `opm render` stores each manifest of a bundle in an `olm.bundle.object`
//! property as the base64 of this text, so the bytes must match.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::Value;

use crate::write::go_float;

/// serde_json's compact formatter with Go's escaping and float format.
#[derive(Default)]
pub struct GoCompactFormatter;

impl serde_json::ser::Formatter for GoCompactFormatter {
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
        // Fast path: nothing to escape (0xE2 leads U+2028 and U+2029).
        let special = |b: &u8| matches!(b, b'<' | b'>' | b'&' | 0xE2);
        if !fragment.as_bytes().iter().any(special) {
            return w.write_all(fragment.as_bytes());
        }
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            let esc: &[u8] = match c {
                '<' => b"\\u003c",
                '>' => b"\\u003e",
                '&' => b"\\u0026",
                '\u{2028}' => b"\\u2028",
                '\u{2029}' => b"\\u2029",
                _ => continue,
            };
            w.write_all(&fragment.as_bytes()[start..i])?;
            w.write_all(esc)?;
            start = i + c.len_utf8();
        }
        w.write_all(&fragment.as_bytes()[start..])
    }
}

/// Write `value` as Go's `json.Marshal` would.
pub fn to_vec(value: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, GoCompactFormatter);
    // Serializing a Value into a Vec cannot fail.
    let _ = value.serialize(&mut ser);
    out
}

/// [`to_vec`] as a string.
pub fn to_string(value: &Value) -> String {
    String::from_utf8(to_vec(value)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_marshal_layout() {
        let v: Value = serde_json::from_str(
            r#"{"b":[1,2.5,1e-7,null,true],"a":"<x> & \u2028 \n \"q\"","c":{}}"#,
        )
        .unwrap();
        assert_eq!(
            to_string(&v),
            r#"{"a":"\u003cx\u003e \u0026 \u2028 \n \"q\"","b":[1,2.5,1e-07,null,true],"c":{}}"#
        );
    }
}
