// The corpus locations shared by every test crate.
#[path = "../../../../../tests/support/corpus.rs"]
mod support;

use super::*;

fn general(text: &str) -> Result<YamlDoc, String> {
    serde_saphyr::from_str_with_options::<YamlDoc>(
        text,
        olmsat_encoding::stream::yaml::options(
            olmsat_encoding::stream::yaml::DuplicateKeys::Refuse,
        ),
    )
    .map_err(|e| e.to_string())
}

/// Inputs covering the supported subset's corners and its edges (including
/// malformed ones): on each, the fast path declines or agrees exactly.
const CASES: &[&str] = &[
        "a: 1.0\n", "a: 0x10\n", "a: 010\n", "a: 1e3\n", "a: .inf\n", "a: -.inf\n", "a: .nan\n",
        "a: yes\n", "a: No\n", "a: ~\n", "a: null\n", "a: NULL\n", "a: 1_000\n", "a: 0.9.4\n",
        "a: 12345678901234567890\n", "a: 123456789012345678901234567890\n", "a: -0\n", "a: +1\n", "a: 1e999\n",
        "a: 0\n", "a: 00\n", "a: -1\n", "a: 1.5e-7\n", "a: 123456789012345678\n", "a: 1234567890123456789\n",
        "a: 0.1\n", "a: 1e15\n", "a: 1e16\n", "a: 3.0e2\n", "a: 1.\n", "a: .\n", "a: -.\n", "a: +\n", "a: ~x\n",
        "a: 0b2\n", "a: 0x\n", "a: 1_\n", "a: _1\n", "a: 1__0\n", "a: -0x10\n", "a: +.inf\n", "a: inf\n", "a: nan\n",
        "a: 1.0.0\n", "a: v1\n", "a: 1.2-rc\n", "a: 1-2\n",
        "1: a\n", "true: b\n", "~: c\n", "1.5: d\n", "0x1: e\n", "null: f\n", "1.0: g\n", "-1: h\n", "010: i\n",
        "1e3: x\n", "yes: x\n", "Yes: x\n", "on: x\n", ".inf: x\n", "1e999: x\n",
        "a: 1\n1: 2\n", "\"1\": a\n1: b\n", "true: 1\nTrue: 2\n", "~: 1\nnull: 2\n",
        "a: b\n  - c\n  ? d\n  & e\n  * f\n  ! g\n  | h\n  > i\n  [ j\n  ] k\n  { l\n  } m\n  , n\n  ' o\n  \" p\n  % q\n  @ r\n  ` s\n",
        "a: b\n  -c\n",
        "a: b\n  :c\n",
        "a: b\n  c:\n",
        "a: b\n  c:d\n",
        "a: b\n   c   d  \n",
        "a: b  c\n",
        "a: 'b  c  '\n",
        "a: \"b \\\n  c\"\n",
        "a: \"b\\  \n  c\"\n",
        "a: \"b\\\n\n\n  c\"\n",
        "a: 'b\n\n\n  c'\n",
        "a: 'b\n  '\n",
        "a: '\n  b'\n",
        "a: '\n\n  b'\n",
        "a: \"\n  b\"\n",
        "a: 'it''s'\n'b''c': d\n",
        "\"a\\nb\": 1\n",
        "\"a\\\nb\": 1\n",
        "'a\nb': 1\n",
        "a: |\n  x\n   y\n  z\n",
        "a: >\n  x\n   y\n  z\n",
        "a: >\n   x\n  y\n",
        "a: >+\n  x\n\n\n",
        "a: >2\n   x\n  y\n",
        "a: |1\n  x\n",
        "a: |9\n  x\n",
        "a: |-2\n   x\n",
        "a: |0\n  x\n",
        "a: |x\n  x\n",
        "a: | # c\n  x\n",
        "a: |# c\n  x\n",
        "a: |\n  x\n \n  y\n",
        "a: |\n  x\n    \n  y\n",
        "a: |+\n  x\n  \n",
        "a: |+\n  x\n    \n",
        "a: |-\n  x\n    \n",
        "a: |\n  x\n\n\n",
        "a: |\nb: 1\n",
        "a: |-\n\nb: 1\n",
        "a: |+\n\n  \nb: 1\n",
        "a:\n- |\n  x\n- >-\n  y\n  z\n",
        "a:\n- |2\n   x\n",
        "a:\n  - |2\n     x\n",
        "a:\n  b: |2\n     x\n",
        "a:\n- b: |\n    x\n  c: 1\n",
        "a:\n- - |\n    x\n",
        "a: \n",
        "a:   \nb: 1\n",
        "a:\nb:\n",
        "a: # c\nb: 1\n",
        "a:\n  # c\nb: 1\n",
        "a:\n-\nb: 1\n",
        "a:\n- \n- b\n",
        "a:\n- # c\n- b\n",
        "a:\n-   x\n-    y: 1\n     z: 2\n",
        "a:\n-   - x\n    - y\n",
        "a:\n- x: 1\n  y: 2\n- z: 3\n",
        "a:\n- x: 1\n   y: 2\n",
        "a:\n- x: 1\n y: 2\n",
        "a:\n - x\n - y\n",
        "a:\n - x\n- y\n",
        "a:\n   - x\n  - y\n",
        "a: b\n\n\nc: d\n\n",
        "a: b\n\n\n",
        "\na: b\n",
        "a: b",
        "a: 'b'",
        "a: \"b",
        "a: 'b",
        "a: b\n  ",
        "a:",
        "a: |",
        "a: |\n ",
        "a: |+\n ",
        "a: |+\n  ",
        "a: |-",
        "a: >\n  x",
        "a: x\n  y",
        "a: 'x\n  y'",
        "a:\n-",
        "a:\n- ",
        "a: []",
        "a: [] # c\n",
        "a: []x\n",
        "a: [] x\n",
        "[]: x\n",
        "{}: x\n",
        "a: {}:\n",
        "a:\n  []\n",
        "a:\n  - []\n  - {}\n",
        "'': b\n",
        "a: x\n'': y\n",
        "a:\n    - x\n    - y\n  \n",
        "a: 'x' # c\n  'y'\n",
        "a: '''\n",
        "a: ''''\n",
        "a: \"\\\"\"\n",
        "a: \"\\\\\"\n",
        "a: \"\\x\"\n",
        "a: \"\\xZZ\"\n",
        "a: \"\\U00110000\"\n",
        "a: \"\\uDC00\"\n",
        "a: \"\\uD83D\\u0041\"\n",
        "a: \"\\x80\\xff\"\n",
        "a: \"\\u0000\"\n",
        "a: \"é\\u00e9\"\n",
        "ключ: значение\n",
        "a: 日本語 テキスト\n",
        "a: 😀\n",
        "a: x\u{2028}y\n",
        "a: \u{a0}x\n",
        "a: x\u{85}y\n",
        "a: x\u{feff}\n",
        "a: x\ry\n",
        "a: x\r\n",
        "a: \"x\ty\"\n",
        "a:  \ty\n",
        "%YAML 1.2\na: 1\n",
        "a: 'x'\n  : y\n",
        "a: x\n  : y\n",
        "a:\n  x\n  : y\n",
        "a: \"x\" :\n",
        "\"a\" :b\n",
        "\"a\":b\n",
        "\"a\":\n",
        "a:\n  \"b\": c\n  'd': e\n",
        "a:\n  \"b\n  c\": d\n",
        "a: -\n",
        "a: - \n",
        "- a: b\n",
        "a: x\n b\n",
        "a:\n b: x\n  c\n",
        "a:\n b: x\n c\n",
        "entries:\n- |\n  text\n",
        "entries:\n- |\n\n  text\n",
        "entries:\n- |\n- x\n",
        "entries:\n- |+\n\n- x\n",
        "entries:\n- |\n",
        "entries:\n- |",
        "entries:\n- >-\n   \n  x\n",
        "entries:\n- |2\n\n\n   x\n",
        "entries:\n- |\n\n",
        "entries:\n- |\n  \n",
        "entries:\n- |-\n  a\n- |+\n\n  b\n\n- c\n",
        "entries:\n-\n- a\n",
        "?0: x\n:1: y\n-2: z\n",
        "a: ?x\nb: :y\nc: -z\n",
        "a: ? x\n",
        "a: : x\n",
];

/// The fast path's answer, checked against the general parser's.
fn agreed(text: &str) -> Option<YamlDoc> {
    let fast = parse_document(text);
    if let Some(f) = &fast {
        match general(text) {
            Ok(g) => assert_eq!(f, &g, "{text:?}"),
            Err(e) => panic!("accepted what the general parser refuses ({e}): {text:?}"),
        }
    }
    fast
}

/// Like [`agreed`], and the fast path must not decline.
fn handled(text: &str) -> YamlDoc {
    match agreed(text) {
        Some(d) => d,
        None => panic!("declined: {text:?} (general parser: {:?})", general(text)),
    }
}

fn fields(d: &YamlDoc) -> Vec<(&str, &str)> {
    match d {
        YamlDoc::Object { fields, .. } => fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect(),
        YamlDoc::Other(..) => Vec::new(),
    }
}

#[test]
fn hand_written_cases_agree_or_decline() {
    let mut handled_count = 0;
    for c in CASES {
        if agreed(c).is_some() {
            handled_count += 1;
        }
    }
    assert!(handled_count > CASES.len() / 2);
}

#[test]
fn go_yaml_style_is_handled() {
    for text in [
        "a: 1\n",
        "entries:\n- name: a\n- name: b\n  replaces: a\n  skips:\n  - x\n  - y\n",
        "a:\n  b:\n    c:\n    - - x\n      - y\n    - []\n    - {}\n",
        "a: b\n  c\n",
        "a: 'it''s: #1'\nb: '#c'\nc: \"x \\\" y\"\n",
        "a: |\n  x\n\n  y\n",
        "a: |-\n  x\n",
        "a: |+\n  x\n\n\nb: 1\n",
        "a: |2-\n   x\n  y\n",
        "a:\n- |2\n   x\n",
        "a: >\n  x\n  y\n\n  z\n   w\n",
        "a: \"x\\ty\\u00e9\\U0001F600\\x41\\N\\_\\L\\P\\0\\a\\b\\v\\f\\r\\e\\/\\ \"\n",
        "a: \"long \\\n  \\ spaced\"\n",
        "a:\nb: # c\nc: ~\n",
        "# c\na: 1 # c\n   # c\nb:\n  # c\n  - x # c\n",
        "a: \"1.0\"\nb: 1.5\nc: \"true\"\nd: true\ne: 0755\nf: \"0755\"\n",
        "a: ''\n\"\": b\n",
    ] {
        handled(text);
    }
}

#[test]
fn mixed_case_boolean_words_are_strings_as_in_go_yaml() {
    // The general parser would read all of these as booleans and nulls.
    let Some(d) = parse_document("nO: tRUE\nNo: nULL\noN: Off\nyES: ~\n") else {
        panic!("declined");
    };
    assert_eq!(
        fields(&d),
        vec![
            ("nO", "\"tRUE\""),
            ("false", "\"nULL\""),
            ("oN", "false"),
            ("yES", "null")
        ]
    );
}

#[test]
fn values_are_typed_like_the_general_parser() {
    let d = handled(
        "a: 1.0\nb: 0x10\nc: yes\nd: ~\ne: 0.9.4\nf: 1e3\ng: -3\nh: 007\ni: 18446744073709551616\n",
    );
    assert_eq!(
        fields(&d),
        vec![
            ("a", "1"),
            ("b", "16"),
            ("c", "true"),
            ("d", "null"),
            ("e", "\"0.9.4\""),
            ("f", "1000"),
            ("g", "-3"),
            ("h", "7"),
            ("i", "1.8446744073709552e+19")
        ]
    );
    let d = handled("1: a\ntrue: b\n~: c\n1.5: d\n");
    assert_eq!(
        fields(&d),
        vec![
            ("1", "\"a\""),
            ("true", "\"b\""),
            ("null", "\"c\""),
            ("1.5", "\"d\"")
        ]
    );
}

#[test]
fn entries_get_their_lines() {
    let d = handled("schema: olm.channel\nentries:\n# c\n- name: a\n-\n  name: b\n- - x\n- 'y'\n");
    let YamlDoc::Object { entry_lines, .. } = d else {
        panic!()
    };
    assert_eq!(entry_lines, vec![4, 6, 7, 8]);
    let d = handled("Entries:\n  - name: a\n");
    let YamlDoc::Object { entry_lines, .. } = d else {
        panic!()
    };
    assert_eq!(entry_lines, vec![2]);
}

#[test]
fn declines_what_it_does_not_support() {
    for text in [
        "a: &x 1\nb: *x\n",
        "a: !!str 1\n",
        "? a\n: b\n",
        "<<: {a: 1}\n",
        "a: [1]\n",
        "a: {b: 1}\n",
        "a: 1\na: 2\n",
        "a:\n  b: 1\n  b: 2\n",
        "1: a\n\"1\": b\n",
        "- a\n",
        "plain\n",
        "a: x\r\n",
        "a:\t1\n",
        "a: \"\\q\"\n",
        "a: b: c\n",
        "a: b # c\n  d\n",
        "key: value\n...\n",
        "a: x\u{feff}\n",
    ] {
        assert!(parse_document(text).is_none(), "{text:?}");
    }
    let nested = |levels: usize| -> String {
        let mut t: String = (0..levels)
            .map(|i| format!("{}k:\n", " ".repeat(i)))
            .collect();
        t.push_str(&format!("{}x\n", " ".repeat(levels)));
        t
    };
    handled(&nested(MAX_NESTING));
    let deep = nested(MAX_NESTING + 1);
    assert!(parse_document(&deep).is_none());
    let long_key = format!("{}: 1\n", "k".repeat(MAX_KEY_BYTES + 1));
    assert!(parse_document(&long_key).is_none());
}

#[test]
fn json_strings_are_escaped_like_serde_json() {
    let all: String = (0u8..=0x7f)
        .map(char::from)
        .chain("é😀\u{2028}".chars())
        .collect();
    let mut out = String::new();
    push_json_str(&mut out, &all);
    assert_eq!(out, serde_json::to_string(&all).unwrap());
}

mod round_trip {
    use super::*;
    use olmsat_encoding::yaml_emit::emit_document;
    use proptest::prelude::*;
    use serde_json::{Map, Value};

    const TRICKY: &[&str] = &[
        "",
        " ",
        "  ",
        "true",
        "True",
        "yes",
        "no",
        "on",
        "off",
        "y",
        "n",
        "null",
        "Null",
        "~",
        "1",
        "-1",
        "+1",
        "0",
        "0755",
        "0x1F",
        "0o17",
        "0b11",
        "1_000",
        "1.0",
        ".5",
        "5.",
        "1e3",
        "1e999",
        ".inf",
        "-.inf",
        ".nan",
        "nan",
        "inf",
        "0.9.4",
        "1.2.3-rc.1",
        "v1.2.3",
        "2021-07-27T07:54:10Z",
        "2025-02-30",
        "12:30",
        "1:20:30",
        "-",
        "--",
        "---",
        "...",
        "- x",
        "-x",
        "? x",
        ":x",
        "x:",
        "a: b",
        "a:b",
        "#x",
        "x #y",
        "x#y",
        "'q'",
        "\"d\"",
        "it's",
        "say \"hi\"",
        ">=1.0.0 <2.0.0",
        "|",
        ">",
        "[]",
        "{}",
        "[a]",
        "{a: b}",
        "&a",
        "*a",
        "!t",
        "%x",
        "@x",
        "`x",
        ",x",
        "ünï",
        "日本語",
        "😀",
        "\u{a0}",
        "\u{85}",
        "\u{2028}",
        "\u{feff}",
        "\t",
        "\r",
        "\u{1}",
        "\u{7f}",
        "a\nb",
        "a\n\nb\n",
        "a\n\n",
        "\n",
        "\n\n",
        " lead",
        "trail ",
        " both ",
        "a \nb",
        "a\n b",
        "\\",
        "<<",
        "=",
        "x\\ny",
    ];

    fn word() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => "[a-z]{1,10}",
            2 => "[a-zA-Z0-9:#'\"\\.,!&*|>@%`\\[\\]{}?-]{1,6}",
            1 => proptest::sample::select(TRICKY).prop_map(str::to_owned),
            1 => "[a-z]{70,100}",
        ]
    }

    /// Boolean spellings in mixed case (`oN`, `tRUE`): strings to go-yaml, so
    /// written plain, but booleans to the general parser (a known difference
    /// between the two, outside the fast path's concern).
    fn mixed_case_bool(s: &str) -> bool {
        const GO_YAML: &[&str] = &[
            "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE", "n", "N",
            "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE",
        ];
        ["y", "yes", "on", "true", "n", "no", "off", "false"]
            .iter()
            .any(|w| s.eq_ignore_ascii_case(w))
            && !GO_YAML.contains(&s)
    }

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            3 => proptest::sample::select(TRICKY).prop_map(str::to_owned),
            3 => proptest::collection::vec(
                (word(), proptest::sample::select(&[" ", " ", " ", "  ", "\n", "\n\n", " \n", "\n "][..])),
                0..40,
            )
            .prop_map(|ws| ws.into_iter().map(|(w, s)| w + s).collect::<String>()),
            1 => "[ -~]{0,100}",
            1 => "[ -~\n\u{e9}\u{1F600}\t]{0,40}",
        ]
        .prop_filter("read differently by go-yaml", |s| !mixed_case_bool(s))
    }

    fn key() -> impl Strategy<Value = String> {
        prop_oneof![
            6 => "[a-zA-Z][a-zA-Z0-9._-]{0,12}",
            1 => proptest::sample::select(TRICKY).prop_map(str::to_owned),
            1 => "[ -~]{0,20}",
        ]
        .prop_filter("read differently by go-yaml", |s| !mixed_case_bool(s))
    }

    fn leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            1 => Just(Value::Null),
            1 => any::<bool>().prop_map(Value::Bool),
            2 => any::<i64>().prop_map(Value::from),
            1 => any::<u64>().prop_map(Value::from),
            1 => (-1e9f64..1e9).prop_map(Value::from),
            1 => any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
            8 => text().prop_map(Value::String),
        ]
    }

    fn value() -> impl Strategy<Value = Value> {
        leaf().prop_recursive(5, 80, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::btree_map(key(), inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    fn document() -> impl Strategy<Value = Value> {
        (
            proptest::collection::btree_map(key(), value(), 1..8),
            proptest::option::of(proptest::collection::vec(value(), 0..6)),
        )
            .prop_map(|(m, entries)| {
                let mut m: Map<String, Value> = m.into_iter().collect();
                if let Some(e) = entries {
                    m.insert("entries".to_owned(), Value::Array(e));
                }
                Value::Object(m)
            })
    }

    /// Same JSON value, numbers compared as numbers (`1.0` is written `1`, and
    /// serde_json's default float reading may be one unit in the last place off).
    fn same(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
                let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
                let ulps = (x.to_bits() as i64)
                    .wrapping_sub(y.to_bits() as i64)
                    .unsigned_abs();
                x == y || (x.signum() == y.signum() && ulps <= 2)
            }
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
            }
            _ => a == b,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1500))]

        /// Everything opm's YAML writer produces is read by the fast path,
        /// exactly as the general parser reads it, back to the original value.
        #[test]
        fn emitted_documents_are_read_exactly(doc in document()) {
            let mut text = String::new();
            emit_document(&doc, &mut text);
            let fast = parse_document(&text);
            prop_assert!(fast.is_some(), "declined: {}", text);
            prop_assert_eq!(&fast, &general(&text).ok(), "{}", text);
            let Some(YamlDoc::Object { fields, .. }) = fast else {
                panic!("not an object: {text}");
            };
            let mut back = Map::new();
            for (k, v) in fields {
                let v: Value = serde_json::from_str(&v).unwrap();
                back.insert(k, v);
            }
            prop_assert!(same(&Value::Object(back), &doc), "{}", text);
        }

        /// JSON strings come out exactly as serde_json writes them, whatever
        /// the mix of plain runs and characters to escape.
        #[test]
        fn escaping_matches_serde_json(s in "([a-z ]{0,20}|[\\x00-\\x1f\"\\\\\\x7f]|\\PC){0,40}") {
            let mut out = String::new();
            push_json_str(&mut out, &s);
            prop_assert_eq!(out, serde_json::to_string(&s).unwrap());
        }

        /// Documents made of YAML-significant characters: never a wrong answer.
        #[test]
        fn character_soup_never_disagrees(text in "[a: \\-#'\"|>\\n\\[\\]{}\\\\1.?&*!~+,%@`\\u{e9}]{0,60}") {
            if let Some(f) = parse_document(&text) {
                prop_assert_eq!(Some(f), general(&text).ok(), "{:?}", text);
            }
        }

        /// Documents made of varied YAML lines, including multi-line scalars
        /// pieces and odd indentation: never a wrong answer.
        #[test]
        fn rich_line_soup_never_disagrees(lines in proptest::collection::vec(
            (proptest::sample::select(&[0usize, 0, 0, 0, 2, 2, 2, 4, 4, 1, 3, 6][..]), proptest::sample::select(&[
                "a:", "b: x", "- c", "-", "- - d", "-   e: 1", "f: |", "g: |-", "h: |+", "i: >",
                "j: >-", "k: |2", "l: >1+", "m: '", "n: \"", "'", "\"", "o'", "p\"", "q: 'r s'",
                "t: \"u\\\"v\"", "w: \"x\\", "y: 'z''a'", "# c", "", " ", "   ", "b1: []",
                "b2: {}", "b3: x y", "b4: x  y ", "b5: 1.5", "b6: yes", "b7: ~", "b8: 0x1F", "x",
                "y z", "'k1': 1", "\"k2\": 2", "k3 : 3", "k4: v #c", "k5: v#c", "k6:#c",
                "entries:", "- name: n", "  replaces: r", "skips:", "- s1", "text", "more text",
                "- |", "- >-", "- 'q", "q2'", "\"", "\\n", "k7: a: b", "? k8", ": v8",
                "k9: &a 1", "k10: *a", "k11: !t x", "k12: [1]", "- {}", "k13: -x", "k14: - x",
                "ü: é", "k15: 'a\\b'", "k16: \"\\u00e9\\t\"",
            ][..])),
            1..10,
        )) {
            let text: String = lines
                .iter()
                .map(|(ind, l)| format!("{}{l}\n", " ".repeat(*ind)))
                .collect();
            if let Some(f) = parse_document(&text) {
                prop_assert_eq!(Some(f), general(&text).ok(), "{}", text);
            }
        }

        /// Arbitrary documents made of catalog-like lines: never a wrong answer.
        #[test]
        fn line_soup_never_disagrees(lines in proptest::collection::vec(
            (0usize..6, proptest::sample::select(&[
                "a:", "b: x", "- c", "-", "- d: 1", "e: |", "f: |-", "g: >", "h: |+", "i: '",
                "j: \"", "k'", "l\"", "m: 'x' # c", "# c", "", "  ", "n: []", "o: {}", "p: x y",
                "q: \"a\\", "r: 'a''b'", "s: 1.5", "t: yes", "x", "y z", "'u': 1", "\"v\": 2",
                "w: a #", "- - e", "-   f: g", "entries:", "Entries:", "- name: n", "z: ~",
            ][..])),
            1..14,
        )) {
            let text: String = lines
                .iter()
                .map(|(ind, l)| format!("{}{l}\n", " ".repeat(*ind)))
                .collect();
            if let Some(f) = parse_document(&text) {
                prop_assert_eq!(Some(f), general(&text).ok(), "{}", text);
            }
        }
    }
}

mod corpus {
    use super::*;
    use olmsat_encoding::stream::split;
    use rayon::prelude::*;
    use std::path::{Path, PathBuf};

    fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = rd.filter_map(Result::ok).map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                files_under(&p, out);
            } else {
                out.push(p);
            }
        }
    }

    #[derive(Default)]
    struct Tally {
        docs: usize,
        handled: usize,
        declined: Vec<String>,
        wrong: Vec<String>,
    }

    fn check_file(path: &Path) -> Tally {
        let mut t = Tally::default();
        let Ok(bytes) = std::fs::read(path) else {
            return t;
        };
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
        let Ok(text) = std::str::from_utf8(bytes) else {
            return t;
        };
        if split::looks_like_json(text) {
            return t;
        }
        let Ok(chunks) = split::split_yaml(text) else {
            return t;
        };
        for c in chunks {
            if split::is_blank_or_comments(c.text) {
                continue;
            }
            t.docs += 1;
            let at = format!("{}:{}", path.display(), c.first_line);
            match (parse_document(c.text), general(c.text)) {
                (None, _) => t.declined.push(at),
                (Some(f), Ok(g)) if f == g => t.handled += 1,
                (Some(f), Ok(g)) => t.wrong.push(format!("{at}: fast {f:?}\n general {g:?}")),
                (Some(_), Err(e)) => t.wrong.push(format!("{at}: accepted, general says {e}")),
            }
        }
        t
    }

    fn run(dir: &str) -> Tally {
        let root = corpus_root();
        let mut files = Vec::new();
        files_under(&root.join(dir), &mut files);
        let parts: Vec<Tally> = files.par_iter().map(|f| check_file(f)).collect();
        let mut all = Tally::default();
        for p in parts {
            all.docs += p.docs;
            all.handled += p.handled;
            all.declined.extend(p.declined);
            all.wrong.extend(p.wrong);
        }
        all
    }

    #[allow(clippy::print_stdout)] // a report of the corpus run, shown with --nocapture
    fn report(name: &str, t: &Tally) {
        println!(
            "{name}: {} of {} YAML documents read by the fast path ({:.2}%)",
            t.handled,
            t.docs,
            100.0 * t.handled as f64 / t.docs.max(1) as f64
        );
        for d in t.declined.iter().take(20) {
            println!("  declined: {d}");
        }
        assert!(t.wrong.is_empty(), "{name}: {:#?}", t.wrong);
    }

    /// The full corpus when `OLMSAT_CORPUS` names it, else the repository's own
    /// `corpus/real` (with a line saying the larger run was skipped).
    fn corpus_root() -> PathBuf {
        super::support::full().unwrap_or_else(|| {
            super::support::skip(
                "the fast YAML reader's check over the full corpus (corpus/real was read instead)",
                "set OLMSAT_CORPUS to the full corpus to run it",
            );
            super::support::own()
        })
    }

    /// Every YAML document of the real catalogs: the fast path agrees with the
    /// general parser or declines; nearly all are read by the fast path.
    #[test]
    fn every_catalog_document_agrees() {
        let t = run("fbc");
        report("catalogs", &t);
        // The full corpus: over 2,000 documents, 99.5% read by the fast path; the
        // repository's small one has proportionally more of opm's odd test fixtures.
        let (least, per_mille) = if super::support::full().is_some() {
            (2000, 995)
        } else {
            (100, 950)
        };
        assert!(t.docs > least, "{} documents", t.docs);
        assert!(t.handled * 1000 >= t.docs * per_mille, "hit rate too low");
    }

    /// The same over the bundle manifests, written by many other tools.
    #[test]
    fn every_bundle_document_agrees() {
        let t = run("bundles");
        report("bundle manifests", &t);
        let least = if super::support::full().is_some() {
            5000
        } else {
            100
        };
        assert!(t.docs > least, "{} documents", t.docs);
    }
}
