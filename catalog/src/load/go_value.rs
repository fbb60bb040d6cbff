//! Go's renderings of a decoded JSON value (`map[string]interface{}` and
//! friends, every number a `float64`): as `encoding/json` re-encodes it, and as
//! `fmt`'s `%v` and `%t` verbs print it. opm's load errors quote values in
//! these forms.

use serde_json::Value;

/// A JSON value re-encoded as Go's `json.Encoder` writes it with HTML escaping
/// off: object keys sorted, numbers as `float64`, no trailing newline.
pub(crate) fn encode(v: &Value) -> String {
    let mut out = String::new();
    encode_into(v, &mut out, false);
    out
}

/// [`encode`] as `json.Marshal` writes it: `<`, `>` and `&` escaped too.
pub(crate) fn marshal(v: &Value) -> String {
    let mut out = String::new();
    encode_into(v, &mut out, true);
    out
}

fn encode_into(v: &Value, out: &mut String, html: bool) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&json_float(n.as_f64().unwrap_or(0.0))),
        Value::String(s) => quote_into(s, out, html),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                encode_into(item, out, html);
            }
            out.push(']');
        }
        Value::Object(map) => {
            // serde_json's map is sorted by key (byte order), as Go sorts.
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                quote_into(k, out, html);
                out.push(':');
                encode_into(item, out, html);
            }
            out.push('}');
        }
    }
}

/// A string as Go's encoder quotes it, with or without HTML escaping.
fn quote_into(s: &str, out: &mut String, html: bool) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' if html => out.push_str(&format!("\\u{:04x}", c as u32)),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A `float64` as Go's JSON encoder writes it: shortest digits, fixed
/// notation between 1e-6 and 1e21, else an exponent (`1e+21`, `1e-7`).
pub(crate) fn json_float(f: f64) -> String {
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let (mantissa, exp) = exponent_parts(f);
        let sign = if exp < 0 { '-' } else { '+' };
        let digits = exp.unsigned_abs();
        // Go pads to two digits and then drops the pad of a negative one.
        if exp < 0 || digits >= 10 {
            format!("{mantissa}e{sign}{digits}")
        } else {
            format!("{mantissa}e{sign}0{digits}")
        }
    } else {
        format!("{f}")
    }
}

/// A `float64` as `%v` (`%g`, shortest digits) prints it: with an exponent
/// when that is below -4 or at least 6 (`1e+06`, `1e-05`).
pub(crate) fn go_g(f: f64) -> String {
    if f == 0.0 {
        return if f.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    let (mantissa, exp) = exponent_parts(f);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.unsigned_abs())
    } else {
        format!("{f}")
    }
}

/// Shortest mantissa text and decimal exponent of `f` (`1.5`, `-7`).
fn exponent_parts(f: f64) -> (String, i32) {
    let s = format!("{f:e}");
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    (m.to_owned(), e.parse().unwrap_or(0))
}

/// Valid JSON text indented as Go's `json.Indent(dst, src, "", "    ")` does:
/// a line per member and element, `": "` after keys, `{}` and `[]` kept.
pub(crate) fn indent(src: &str) -> String {
    let mut out = String::with_capacity(src.len() * 2);
    let mut depth = 0usize;
    let mut need_indent = false;
    let (mut in_string, mut escaped) = (false, false);
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("    ");
        }
    };
    for c in src.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        if matches!(c, ' ' | '\t' | '\n' | '\r') {
            continue;
        }
        if need_indent && c != '}' && c != ']' {
            need_indent = false;
            depth += 1;
            newline(&mut out, depth);
        }
        match c {
            '{' | '[' => {
                need_indent = true;
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            '}' | ']' => {
                if need_indent {
                    need_indent = false;
                } else {
                    depth = depth.saturating_sub(1);
                    newline(&mut out, depth);
                }
                out.push(c);
            }
            '"' => {
                in_string = true;
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// opm's "pretty" form of a decoding error at byte `offset` of `data`: the
/// error, `at offset N (indicated by <==)`, then the data indented with the
/// marker at that place (as its `prettyunmarshaler` writes it).
pub(crate) fn pretty_error(error: &str, data: &str, offset: usize) -> String {
    const MARKER: &str = " <==";
    if data.is_empty() || offset > data.len() {
        return error.to_owned();
    }
    let mut out = format!("{error} at offset {offset} (indicated by{MARKER})\n");
    let pretty = indent(data);
    if offset == data.len() {
        out.push_str(&pretty);
        out.push_str(MARKER);
        return out;
    }
    let p = pretty.as_bytes();
    let (mut p_index, mut p_offset) = (0usize, 0usize);
    for (d_index, &b) in data.as_bytes().iter().enumerate() {
        if d_index == offset {
            p_offset = p_index;
            break;
        }
        while p.get(p_index) != Some(&b) {
            p_index += 1;
            if p_index >= p.len() {
                return error.to_owned();
            }
        }
        p_index += 1;
    }
    // The marker goes between bytes the data has too: character boundaries.
    let (head, tail) = pretty.split_at(p_offset.min(pretty.len()));
    out.push_str(head);
    out.push_str(MARKER);
    out.push(' ');
    out.push_str(tail);
    out
}

/// A `fmt` verb opm's texts use on decoded values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verb {
    /// `%v`
    V,
    /// `%t` (booleans; anything else is printed as a bad verb).
    T,
}

/// A decoded JSON value as Go's `fmt` prints it with `verb`: `map[k:v]`,
/// `[a b]`, `<nil>`, `%!t(string=x)`, ...
pub(crate) fn format(v: &Value, verb: Verb) -> String {
    let bad = |go_type: &str, shown: &str| match verb {
        Verb::V => shown.to_owned(),
        Verb::T => format!("%!t({go_type}={shown})"),
    };
    match v {
        Value::Null => match verb {
            Verb::V => "<nil>".to_owned(),
            Verb::T => "%!t(<nil>)".to_owned(),
        },
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => bad("float64", &go_g(n.as_f64().unwrap_or(0.0))),
        Value::String(s) => bad("string", s),
        Value::Array(items) => {
            let each: Vec<String> = items.iter().map(|i| format(i, verb)).collect();
            format!("[{}]", each.join(" "))
        }
        Value::Object(map) => {
            let each: Vec<String> = map
                .iter()
                .map(|(k, i)| {
                    format!(
                        "{}:{}",
                        format(&Value::String(k.clone()), verb),
                        format(i, verb)
                    )
                })
                .collect();
            format!("map[{}]", each.join(" "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn encodes_as_go() {
        assert_eq!(encode(&json!({})), "{}");
        assert_eq!(
            encode(
                &json!({"b": 1.0, "a": [1e21, 1e-7, 0.000001, 12345678901234567890u64], "c": "<&>\u{1}"})
            ),
            r#"{"a":[1e+21,1e-7,0.000001,12345678901234567000],"b":1,"c":"<&>\u0001"}"#
        );
    }

    #[test]
    fn indents_and_points_as_opm() {
        assert_eq!(
            indent(r#"[1, {"a" :[ ]}, {}]"#),
            "[\n    1,\n    {\n        \"a\": []\n    },\n    {}\n]"
        );
        assert_eq!(indent(r#""a, b: [c]""#), r#""a, b: [c]""#);
        let base = "json: cannot unmarshal array into Go value of type map[string]interface {}";
        assert_eq!(
            pretty_error(base, "[1,2]", 1),
            format!("{base} at offset 1 (indicated by <==)\n[ <== \n    1,\n    2\n]")
        );
        assert_eq!(
            pretty_error("e", "\"x\"", 3),
            "e at offset 3 (indicated by <==)\n\"x\" <=="
        );
        assert_eq!(marshal(&json!("<a&b>")), r#""\u003ca\u0026b\u003e""#);
    }

    #[test]
    fn prints_as_fmt() {
        assert_eq!(format(&json!({}), Verb::T), "map[]");
        assert_eq!(format(&json!({}), Verb::V), "map[]");
        assert_eq!(format(&json!([]), Verb::V), "[]");
        assert_eq!(
            format(&json!({"a": "b", "c": [1, true, null]}), Verb::T),
            "map[%!t(string=a):%!t(string=b) %!t(string=c):[%!t(float64=1) true %!t(<nil>)]]"
        );
        assert_eq!(
            format(&json!({"a": "b", "c": [1, true, null]}), Verb::V),
            "map[a:b c:[1 true <nil>]]"
        );
        assert_eq!(format(&json!(1000000), Verb::V), "1e+06");
        assert_eq!(format(&json!(123456), Verb::V), "123456");
        assert_eq!(format(&json!(0.0001), Verb::V), "0.0001");
        assert_eq!(format(&json!(0.00001), Verb::V), "1e-05");
        assert_eq!(format(&json!(1.5), Verb::T), "%!t(float64=1.5)");
    }
}
