//! A YAML emitter for JSON values that reproduces go-yaml v2's output, which is what
//! opm writes through `sigs.k8s.io/yaml`:
//!
//! - block style; sequences under a mapping key are not indented; empty
//!   collections as `[]` / `{}`;
//! - mapping keys in go-yaml's order (natural order: digit runs compared as
//!   numbers, non-letters before letters);
//! - a string is plain unless it would read back as another type (then
//!   double-quoted) or plain style cannot hold it (then single-, else
//!   double-quoted); strings with line breaks are literal blocks where possible;
//! - plain and quoted scalars are folded at spaces once a line passes column 80,
//!   as go-yaml's emitter does (keys are never folded);
//! - floats as Go's `strconv.FormatFloat(f, 'g', -1, 64)`.
//!
//! Output always reads back as the same JSON value.

mod float;
mod keys;
mod style;

use serde_json::Value;

pub use float::go_float_g;
pub use keys::sort_go_yaml_keys;
use style::{choose_style, is_break, is_printable, Style};

const BEST_WIDTH: usize = 80;
const BEST_INDENT: usize = 2;

/// Emit one document (without the `---` line) into `out`.
pub fn emit_document(v: &Value, out: &mut String) {
    let mut e = Emitter { out, column: 0 };
    match v {
        Value::Object(m) if !m.is_empty() => e.map(m, 0),
        Value::Array(a) if !a.is_empty() => e.seq(a, 0),
        other => {
            e.scalar(other, BEST_INDENT, false);
            e.newline();
        }
    }
}

struct Emitter<'o> {
    out: &'o mut String,
    column: usize,
}

impl Emitter<'_> {
    fn put(&mut self, c: char) {
        self.out.push(c);
        if c == '\n' {
            self.column = 0;
        } else {
            self.column += 1;
        }
    }

    fn put_str(&mut self, s: &str) {
        for c in s.chars() {
            self.put(c);
        }
    }

    fn newline(&mut self) {
        self.put('\n');
    }

    fn pad_to(&mut self, col: usize) {
        while self.column < col {
            self.put(' ');
        }
    }

    /// A block mapping whose keys start at column `ind` (the cursor is already there
    /// for the first key).
    fn map(&mut self, m: &serde_json::Map<String, Value>, ind: usize) {
        let keys = sort_go_yaml_keys(m.keys().collect());
        for (i, k) in keys.into_iter().enumerate() {
            if i > 0 {
                self.pad_to(ind);
            }
            self.key(k);
            self.put(':');
            self.value_after_key(&m[k], ind);
        }
    }

    fn key(&mut self, k: &str) {
        let style = match choose_style(k, true) {
            Style::Literal => Style::Double,
            s => s,
        };
        self.write_scalar(k, style, 0, false);
    }

    fn value_after_key(&mut self, v: &Value, ind: usize) {
        match v {
            Value::Object(m) if !m.is_empty() => {
                self.newline();
                self.pad_to(ind + BEST_INDENT);
                self.map(m, ind + BEST_INDENT);
            }
            Value::Array(a) if !a.is_empty() => {
                self.newline();
                self.pad_to(ind);
                self.seq(a, ind);
            }
            other => {
                self.scalar(other, ind + BEST_INDENT, true);
                self.newline();
            }
        }
    }

    /// A block sequence whose dashes are at column `ind` (cursor already there).
    fn seq(&mut self, a: &[Value], ind: usize) {
        for (i, v) in a.iter().enumerate() {
            if i > 0 {
                self.pad_to(ind);
            }
            self.put('-');
            match v {
                Value::Object(m) if !m.is_empty() => {
                    self.put(' ');
                    self.map(m, ind + BEST_INDENT);
                }
                Value::Array(inner) if !inner.is_empty() => {
                    self.put(' ');
                    self.seq(inner, ind + BEST_INDENT);
                }
                other => {
                    self.scalar(other, ind + BEST_INDENT, true);
                    self.newline();
                }
            }
        }
    }

    /// A scalar value preceded by one space; `indent` is where folded lines continue.
    fn scalar(&mut self, v: &Value, indent: usize, allow_breaks: bool) {
        self.put(' ');
        match v {
            Value::Null => self.put_str("null"),
            Value::Bool(b) => self.put_str(if *b { "true" } else { "false" }),
            Value::Number(n) => {
                let s = if n.is_i64() || n.is_u64() {
                    n.to_string()
                } else {
                    go_float_g(n.as_f64().unwrap_or(0.0))
                };
                self.put_str(&s);
            }
            Value::String(s) => {
                let style = choose_style(s, false);
                self.write_scalar(s, style, indent, allow_breaks);
            }
            Value::Array(_) => self.put_str("[]"),
            Value::Object(_) => self.put_str("{}"),
        }
    }

    fn write_scalar(&mut self, s: &str, style: Style, indent: usize, allow_breaks: bool) {
        match style {
            Style::Plain => self.write_plain(s, indent, allow_breaks),
            Style::Single => self.write_single(s, indent, allow_breaks),
            Style::Double => self.write_double(s, indent, allow_breaks),
            Style::Literal => self.write_literal(s, indent),
        }
    }

    fn break_line(&mut self, indent: usize) {
        self.newline();
        self.pad_to(indent);
    }

    fn write_plain(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                let next_space = chars.get(i + 1) == Some(&' ');
                if allow_breaks && !spaces && self.column > BEST_WIDTH && !next_space {
                    self.break_line(indent);
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
    }

    fn write_single(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        self.put('\'');
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                let next_space = chars.get(i + 1) == Some(&' ');
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i != 0
                    && i + 1 != chars.len()
                    && !next_space
                {
                    self.break_line(indent);
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                if c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                spaces = false;
            }
        }
        self.put('\'');
    }

    fn write_double(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        self.put('"');
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if !is_printable(c) || c == '\u{feff}' || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                match c {
                    '\0' => self.put('0'),
                    '\u{7}' => self.put('a'),
                    '\u{8}' => self.put('b'),
                    '\t' => self.put('t'),
                    '\n' => self.put('n'),
                    '\u{b}' => self.put('v'),
                    '\u{c}' => self.put('f'),
                    '\r' => self.put('r'),
                    '\u{1b}' => self.put('e'),
                    '"' => self.put('"'),
                    '\\' => self.put('\\'),
                    '\u{85}' => self.put('N'),
                    '\u{a0}' => self.put('_'),
                    '\u{2028}' => self.put('L'),
                    '\u{2029}' => self.put('P'),
                    c => {
                        let n = c as u32;
                        let esc = if n <= 0xff {
                            format!("x{n:02X}")
                        } else if n <= 0xffff {
                            format!("u{n:04X}")
                        } else {
                            format!("U{n:08X}")
                        };
                        self.put_str(&esc);
                    }
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i != 0
                    && i + 1 != chars.len()
                {
                    self.break_line(indent);
                    if chars.get(i + 1) == Some(&' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.put('"');
    }

    fn write_literal(&mut self, s: &str, indent: usize) {
        self.put('|');
        if s.starts_with([' ', '\n']) {
            self.put(char::from(b'0' + BEST_INDENT as u8));
        }
        let trailing = s.len() - s.trim_end_matches('\n').len();
        if s.is_empty() || trailing == 0 {
            self.put('-');
        } else if trailing >= 2 || s.len() == 1 {
            self.put('+');
        }
        self.newline();
        let mut at_line_start = true;
        for c in s.chars() {
            if c == '\n' {
                self.newline();
                at_line_start = true;
            } else {
                if at_line_start {
                    self.pad_to(indent);
                    at_line_start = false;
                }
                self.put(c);
            }
        }
        // The caller writes the final newline of the node; a literal's content
        // already ended with one when the string did, so undo the doubled break.
        if s.ends_with('\n') && self.out.ends_with('\n') {
            self.out.pop();
            self.column = 1; // not at line start: the caller's newline ends the line
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn emit(v: &Value) -> String {
        let mut s = String::new();
        emit_document(v, &mut s);
        s
    }

    #[test]
    fn block_style() {
        let v = json!({"entries": [{"name": "a", "skips": ["x", "z"]}], "name": "c", "empty": [], "m": {"k": 1}});
        assert_eq!(
            emit(&v),
            "empty: []\nentries:\n- name: a\n  skips:\n  - x\n  - z\nm:\n  k: 1\nname: c\n"
        );
    }

    #[test]
    fn quoting_like_go_yaml() {
        let cases = [
            ("true", "\"true\""),
            ("1.0", "\"1.0\""),
            ("0755", "\"0755\""),
            ("", "\"\""),
            ("2021-07-27T07:54:10Z", "\"2021-07-27T07:54:10Z\""),
            ("2025-07-15T09:40:30", "2025-07-15T09:40:30"),
            ("2025-07-15 09:40:30", "\"2025-07-15 09:40:30\""),
            ("2025-7-5", "\"2025-7-5\""),
            ("2025-02-30", "2025-02-30"),
            (">=1.0.0 <2.0.0", "'>=1.0.0 <2.0.0'"),
            ("a: b", "'a: b'"),
            ("- x", "'- x'"),
            ("-x", "-x"),
            ("1_000", "\"1_000\""),
            ("yes", "\"yes\""),
            ("y", "\"y\""),
            ("1e3", "\"1e3\""),
            ("1:20", "\"1:20\""),
            ("tab\there", "\"tab\\there\""),
            ("etcdoperator.v0.9.4", "etcdoperator.v0.9.4"),
            ("quay.io/a/b:1.0", "quay.io/a/b:1.0"),
            ("it's", "it's"),
            ("'q'", "'''q'''"),
            ("trailing ", "'trailing '"),
            ("v1.2.3", "v1.2.3"),
            ("0.9.4", "0.9.4"),
        ];
        for (s, want) in cases {
            assert_eq!(emit(&json!({ "k": s })), format!("k: {want}\n"), "{s:?}");
        }
    }

    #[test]
    fn folds_long_plain_scalars() {
        let s = "ClusterPool represents a pool of clusters that should be kept ready to be given out to users. Clusters are removed from the pool once claimed and then automatically replaced with a new one.";
        let out = emit(&json!({ "description": s }));
        assert_eq!(
            out,
            "description: ClusterPool represents a pool of clusters that should be kept ready to\n  be given out to users. Clusters are removed from the pool once claimed and then\n  automatically replaced with a new one.\n"
        );
    }

    #[test]
    fn literal_blocks() {
        assert_eq!(emit(&json!({"d": "a\nb"})), "d: |-\n  a\n  b\n");
        assert_eq!(emit(&json!({"d": "a\n\nb\n"})), "d: |\n  a\n\n  b\n");
        assert_eq!(emit(&json!({"d": "a\n\n"})), "d: |+\n  a\n\n");
        assert_eq!(emit(&json!(["a\nb"])), "- |-\n  a\n  b\n");
        assert_eq!(emit(&json!({"d": " a\nb"})), "d: |2-\n   a\n  b\n");
        assert_eq!(emit(&json!({"d": "a \nb"})), "d: \"a \\nb\"\n");
    }

    #[test]
    fn key_order_is_natural() {
        let keys = sort_go_yaml_keys(vec!["a10", "a2", "b", "A", "_x", "a"]);
        assert_eq!(keys, vec!["_x", "A", "a", "a2", "a10", "b"]);
    }

    proptest::proptest! {
        /// Keys of digits and zeros, where go-yaml's order is not a total
        /// order: sorting never panics, keeps every key, and gives one answer.
        #[test]
        fn key_sort_tolerates_the_order(keys in proptest::collection::vec("[0a.]{0,2}[0-9]{0,3}[a-]{0,1}", 0..60)) {
            let sorted = sort_go_yaml_keys(keys.clone());
            let mut a = sorted.clone();
            let mut b = keys.clone();
            a.sort();
            b.sort();
            proptest::prop_assert_eq!(a, b);
            proptest::prop_assert_eq!(sorted, sort_go_yaml_keys(keys));
        }
    }

    #[test]
    fn floats_like_go() {
        assert_eq!(go_float_g(1.5), "1.5");
        assert_eq!(go_float_g(1e6), "1e+06");
        assert_eq!(go_float_g(123456.0), "123456");
        assert_eq!(go_float_g(0.0001), "0.0001");
        assert_eq!(go_float_g(0.00001), "1e-05");
        assert_eq!(go_float_g(1234567.5), "1.2345675e+06");
    }

    #[test]
    fn round_trips_through_yaml_parser() {
        let v = json!({"a": ["x\ny ", "\ttab", "q'uote", "c: d", "#h", "ünï", "\u{1}", "a\n\n", " lead\n"], "b": {"c": [[1, 2], []]}, "n": null, "f": 1.5,
            "long": "word ".repeat(40), "longq": format!("'{}", "word ".repeat(40))});
        let text = emit(&v);
        let back: crate::rawjson::Transcoded = serde_saphyr::from_str(&text).unwrap();
        let back: Value = serde_json::from_str(&back.0).unwrap();
        assert_eq!(back, v, "{text}");
    }
}
