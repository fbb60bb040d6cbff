//! The texts Go's `encoding/json` gives for a JSON value it cannot read, so a
//! malformed catalog file is reported in opm's words.
//!
//! opm reads a file through apimachinery's `YAMLOrJSONDecoder`, which decodes
//! JSON with a `json.Decoder`. That decoder scans one value byte by byte (the
//! scanner's states below) and stops at the first byte no state accepts:
//! `invalid character 'x' <context>` at that byte's offset, or, when the input
//! ends inside the value, `unexpected EOF`. This module runs the same states
//! over a value serde_json refused; serde_json's own messages name the problem
//! differently.

use olmsat_versions::version::go_quote;

/// Why Go's decoder stops reading a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GoJsonError {
    /// The input ends inside the value (`io.ErrUnexpectedEOF`).
    UnexpectedEof,
    /// A byte no state accepts: `invalid character ... <context>` at `at`
    /// (the byte's index in the scanned text).
    Syntax {
        /// `invalid character 'x' looking for beginning of value`, ...
        message: String,
        /// Index of the offending byte.
        at: usize,
    },
}

/// What the scanner expects next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    BeginValue,
    BeginValueOrEmptyArray,
    BeginStringOrEmptyObject,
    BeginString,
    /// After a value: what comes next depends on the enclosing container.
    EndValue,
    InString,
    InStringEsc,
    InStringEscU(u8),
    Neg,
    /// After `0`.
    Zero,
    /// After a nonzero leading digit and more digits.
    Digits,
    /// After `.`.
    Dot,
    /// After `.` and a digit.
    DotDigits,
    /// After `e` or `E`.
    E,
    /// After `e+` or `e-`.
    ESign,
    /// After the exponent's first digit.
    EDigits,
    /// Inside `true`, `false` or `null`: the word and how much of it was read.
    Literal(&'static str, usize),
}

/// Inside an object (at its key or its value) or an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Parse {
    ObjectKey,
    ObjectValue,
    ArrayValue,
}

/// Go's `quoteChar`: the byte in single quotes, escaped as `strconv.Quote`
/// escapes the rune of that value.
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => r"'\''".to_owned(),
        b'"' => "'\"'".to_owned(),
        _ => {
            let quoted = go_quote(&char::from(c).to_string());
            format!("'{}'", &quoted[1..quoted.len() - 1])
        }
    }
}

/// The first error Go's decoder meets reading one value from `text` (leading
/// whitespace skipped as Go skips it), or `None` when Go reads the value.
pub(crate) fn first_error(text: &[u8]) -> Option<GoJsonError> {
    let mut state = State::BeginValue;
    let mut stack: Vec<Parse> = Vec::new();
    let error = |c: u8, context: &str, at: usize| {
        Some(GoJsonError::Syntax {
            message: format!("invalid character {} {context}", quote_char(c)),
            at,
        })
    };
    let is_space = |c: u8| matches!(c, b' ' | b'\t' | b'\r' | b'\n');
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        match state {
            State::BeginValue | State::BeginValueOrEmptyArray => {
                if is_space(c) {
                    i += 1;
                    continue;
                }
                if c == b']' && state == State::BeginValueOrEmptyArray {
                    stack.pop();
                    state = State::EndValue;
                    if stack.is_empty() {
                        return None;
                    }
                    i += 1;
                    continue;
                }
                state = match c {
                    b'{' => {
                        stack.push(Parse::ObjectKey);
                        State::BeginStringOrEmptyObject
                    }
                    b'[' => {
                        stack.push(Parse::ArrayValue);
                        State::BeginValueOrEmptyArray
                    }
                    b'"' => State::InString,
                    b'-' => State::Neg,
                    b'0' => State::Zero,
                    b'1'..=b'9' => State::Digits,
                    b't' => State::Literal("true", 1),
                    b'f' => State::Literal("false", 1),
                    b'n' => State::Literal("null", 1),
                    _ => return error(c, "looking for beginning of value", i),
                };
            }
            State::BeginStringOrEmptyObject | State::BeginString => {
                if is_space(c) {
                    i += 1;
                    continue;
                }
                if c == b'}' && state == State::BeginStringOrEmptyObject {
                    stack.pop();
                    state = State::EndValue;
                    if stack.is_empty() {
                        return None;
                    }
                    i += 1;
                    continue;
                }
                if c != b'"' {
                    return error(c, "looking for beginning of object key string", i);
                }
                state = State::InString;
            }
            State::EndValue => {
                if stack.is_empty() {
                    // A complete top-level value: Go stops before this byte.
                    return None;
                }
                if is_space(c) {
                    i += 1;
                    continue;
                }
                let top = stack.len() - 1;
                match (stack[top], c) {
                    (Parse::ObjectKey, b':') => {
                        stack[top] = Parse::ObjectValue;
                        state = State::BeginValue;
                    }
                    (Parse::ObjectKey, _) => return error(c, "after object key", i),
                    (Parse::ObjectValue, b',') => {
                        stack[top] = Parse::ObjectKey;
                        state = State::BeginString;
                    }
                    (Parse::ObjectValue, b'}') => {
                        stack.pop();
                        if stack.is_empty() {
                            return None;
                        }
                    }
                    (Parse::ObjectValue, _) => return error(c, "after object key:value pair", i),
                    (Parse::ArrayValue, b',') => state = State::BeginValue,
                    (Parse::ArrayValue, b']') => {
                        stack.pop();
                        if stack.is_empty() {
                            return None;
                        }
                    }
                    (Parse::ArrayValue, _) => return error(c, "after array element", i),
                }
            }
            State::InString => match c {
                b'"' => state = State::EndValue,
                b'\\' => state = State::InStringEsc,
                0..=0x1f => return error(c, "in string literal", i),
                _ => {}
            },
            State::InStringEsc => match c {
                b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => state = State::InString,
                b'u' => state = State::InStringEscU(0),
                _ => return error(c, "in string escape code", i),
            },
            State::InStringEscU(n) => {
                if !c.is_ascii_hexdigit() {
                    return error(c, "in \\u hexadecimal character escape", i);
                }
                state = if n == 3 {
                    State::InString
                } else {
                    State::InStringEscU(n + 1)
                };
            }
            State::Neg => match c {
                b'0' => state = State::Zero,
                b'1'..=b'9' => state = State::Digits,
                _ => return error(c, "in numeric literal", i),
            },
            State::Zero | State::Digits | State::DotDigits | State::EDigits => {
                match (state, c) {
                    (State::Digits | State::DotDigits | State::EDigits, b'0'..=b'9') => {}
                    (State::Zero | State::Digits, b'.') => state = State::Dot,
                    (State::Zero | State::Digits | State::DotDigits, b'e' | b'E') => {
                        state = State::E
                    }
                    _ => {
                        // The number ends here; this byte belongs to what follows.
                        state = State::EndValue;
                        if stack.is_empty() {
                            return None;
                        }
                        continue;
                    }
                }
            }
            State::Dot => match c {
                b'0'..=b'9' => state = State::DotDigits,
                _ => return error(c, "after decimal point in numeric literal", i),
            },
            State::E => match c {
                b'+' | b'-' => state = State::ESign,
                b'0'..=b'9' => state = State::EDigits,
                _ => return error(c, "in exponent of numeric literal", i),
            },
            State::ESign => match c {
                b'0'..=b'9' => state = State::EDigits,
                _ => return error(c, "in exponent of numeric literal", i),
            },
            State::Literal(word, n) => {
                let want = word.as_bytes()[n];
                if c != want {
                    return error(
                        c,
                        &format!("in literal {word} (expecting {})", quote_char(want)),
                        i,
                    );
                }
                state = if n + 1 == word.len() {
                    State::EndValue
                } else {
                    State::Literal(word, n + 1)
                };
                if state == State::EndValue && stack.is_empty() {
                    return None;
                }
            }
        }
        i += 1;
    }
    // The input ended. A top-level number is complete at the end (Go feeds a
    // space); anything else unfinished is an unexpected end.
    match state {
        State::Zero | State::Digits | State::DotDigits | State::EDigits if stack.is_empty() => None,
        State::EndValue if stack.is_empty() => None,
        State::BeginValue if stack.is_empty() => None,
        _ => Some(GoJsonError::UnexpectedEof),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(text: &str) -> String {
        match first_error(text.as_bytes()) {
            Some(GoJsonError::Syntax { message, at }) => format!("{at}: {message}"),
            Some(GoJsonError::UnexpectedEof) => "unexpected EOF".to_owned(),
            None => "ok".to_owned(),
        }
    }

    #[test]
    fn texts_of_go_encoding_json() {
        for (text, want) in [
            (r#"{"a":1}"#, "ok"),
            (
                r#"  [1, 2.5e-3, "x\u00e9", true, false, null, {}, []]"#,
                "ok",
            ),
            (r#"{"schema":"olm.package","name":"a""#, "unexpected EOF"),
            (
                r#"{"a" "b"}"#,
                r#"5: invalid character '"' after object key"#,
            ),
            (
                r#"{"a":1 "b":2}"#,
                r#"7: invalid character '"' after object key:value pair"#,
            ),
            ("[1 2]", "3: invalid character '2' after array element"),
            (
                "[1,]",
                "3: invalid character ']' looking for beginning of value",
            ),
            (
                "{,}",
                "1: invalid character ',' looking for beginning of object key string",
            ),
            (
                r#"{"a":tru}"#,
                "8: invalid character '}' in literal true (expecting 'e')",
            ),
            (
                r#"{"a":nul}"#,
                "8: invalid character '}' in literal null (expecting 'l')",
            ),
            (
                r#"{"a":fx}"#,
                "6: invalid character 'x' in literal false (expecting 'a')",
            ),
            (r#"{"a":-x}"#, "6: invalid character 'x' in numeric literal"),
            (
                r#"{"a":1.x}"#,
                "7: invalid character 'x' after decimal point in numeric literal",
            ),
            (
                r#"{"a":1ex}"#,
                "7: invalid character 'x' in exponent of numeric literal",
            ),
            (
                r#"{"a":01}"#,
                "6: invalid character '1' after object key:value pair",
            ),
            (
                "{\"a\":\"x\ny\"}",
                r"7: invalid character '\n' in string literal",
            ),
            (
                r#"{"a":"\x"}"#,
                "7: invalid character 'x' in string escape code",
            ),
            (
                r#"{"a":"\u12g4"}"#,
                r"10: invalid character 'g' in \u hexadecimal character escape",
            ),
            (
                "{'a':1}",
                r"1: invalid character '\'' looking for beginning of object key string",
            ),
            (
                "{\"a\":\u{1}}",
                r"5: invalid character '\x01' looking for beginning of value",
            ),
            ("[1", "unexpected EOF"),
            ("\"abc", "unexpected EOF"),
        ] {
            assert_eq!(msg(text), want, "{text:?}");
        }
    }

    #[test]
    fn non_ascii_bytes_are_quoted_as_go_quotes_their_rune() {
        // é is 0xC3 0xA9: Go stops at 0xC3 and quotes U+00C3.
        assert_eq!(
            msg("{\"a\":é}"),
            "5: invalid character 'Ã' looking for beginning of value"
        );
        assert_eq!(quote_char(0x7f), r"'\x7f'");
        assert_eq!(quote_char(0xa0), r"'\u00a0'");
    }

    fn json_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            (-1e6f64..1e6).prop_map(serde_json::Value::from),
            "[a-z\\\"\u{1}-\u{1f}é ]{0,8}".prop_map(serde_json::Value::from),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..5).prop_map(serde_json::Value::from),
                proptest::collection::btree_map("[a-z]{0,5}", inner, 0..5)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// What serde_json writes, Go reads; cut short, it is an unexpected end
        /// (or a shorter number, which Go reads too).
        #[test]
        fn valid_json_reads_and_prefixes_end_early(v in json_value(), cut in 0usize..1000) {
            let text = serde_json::to_string_pretty(&v).unwrap();
            proptest::prop_assert_eq!(first_error(text.as_bytes()), None);
            let mut cut = cut % (text.len() + 1);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            let prefix = &text.as_bytes()[..cut];
            match first_error(prefix) {
                None => proptest::prop_assert!(
                    prefix.iter().all(|b| b.is_ascii_whitespace())
                        || serde_json::from_slice::<serde_json::Value>(prefix).is_ok()
                ),
                Some(GoJsonError::UnexpectedEof) => {}
                Some(e) => proptest::prop_assert!(false, "{e:?} for {:?}", String::from_utf8_lossy(prefix)),
            }
        }
    }
}
