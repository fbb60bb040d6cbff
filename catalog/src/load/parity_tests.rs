//! Property test: random small catalogs, written in odd-but-legal JSON and
//! YAML, judged by the rules of what opm's loader and `ConvertToModel` do with
//! them (the parity classes of `docs/validation.md`, "What opm does, and what
//! olmsat adds"). Fixed seed and a bounded number of cases, so that the same
//! catalogs run every time.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use serde_json::{json, Value};

use olmsat_findings::diagnostic::{Diagnostic, Rule};

/// What precedes a JSON stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prelude {
    None,
    Bom,
    Comment,
}

/// An empty or marker-only YAML document, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Empty {
    None,
    /// Two `---` lines opening the file.
    LeadingDouble,
    /// A `---` line after the last document's closing `---`.
    TrailingDouble,
    /// A document that is `null` (or `~`).
    Null(bool),
    /// A document holding only the end marker `...`.
    EndMarker,
}

/// The one odd property a bundle may carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prop {
    Fine,
    NoType,
    EmptyType,
    NoValue,
    NullPackageValue,
    BadBase64,
}

/// One more YAML document (of a schema opm keeps without checking), placing
/// tabs or a special float where go-yaml and Go's JSON encoder judge them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Extra {
    None,
    /// `-<tab>name: x`: refused.
    TabAfterDash,
    /// A tab-only line after a quoted value: refused.
    TabOnlyLine,
    /// A tab-indented comment after a plain value: refused.
    TabComment,
    /// Tabs go-yaml allows: after a key's `:`, inside and after a value.
    TabAllowed,
    /// `.inf`, `-.Inf` or `.nan` as a value: refused by Go's encoder.
    Float(&'static str),
}

#[derive(Debug, Clone)]
struct Case {
    yaml: bool,
    pretty: bool,
    prelude: Prelude,
    empty: Empty,
    dotted: bool,
    image: &'static str,
    related: &'static str,
    prop: Prop,
    /// Keys spelled with a capital (`Schema`), which Go matches too.
    capital_keys: bool,
    /// YAML whose first document is a flow mapping with plain keys, so that
    /// the file starts with `{` and opm tries it as JSON first.
    json_looking: bool,
    extra: Extra,
}

const GOOD_IMAGES: &[&str] = &[
    "quay.io/x/y:1",
    "Upper.io/x/y:1",
    "localhost:5000/a/b@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    "busybox",
    "a_b.c/x",
];
const UPPER_PATHS: &[&str] = &["UPPER/case:1", "Upper", "quay.io/Upper/x"];

fn arb_case() -> impl Strategy<Value = Case> {
    let image = prop_oneof![
        3 => proptest::sample::select(GOOD_IMAGES),
        1 => proptest::sample::select(UPPER_PATHS),
    ];
    // An empty related image is not checked.
    let related = prop_oneof![
        3 => proptest::sample::select(GOOD_IMAGES),
        1 => Just(""),
        1 => proptest::sample::select(UPPER_PATHS),
    ];
    let prop = proptest::sample::select(
        &[
            Prop::Fine,
            Prop::Fine,
            Prop::NoType,
            Prop::EmptyType,
            Prop::NoValue,
            Prop::NullPackageValue,
            Prop::BadBase64,
        ][..],
    );
    let empty = prop_oneof![
        4 => Just(Empty::None),
        1 => Just(Empty::LeadingDouble),
        1 => Just(Empty::TrailingDouble),
        1 => any::<bool>().prop_map(Empty::Null),
        1 => Just(Empty::EndMarker),
    ];
    let prelude = proptest::sample::select(
        &[Prelude::None, Prelude::None, Prelude::Bom, Prelude::Comment][..],
    );
    let extra = prop_oneof![
        6 => Just(Extra::None),
        1 => Just(Extra::TabAfterDash),
        1 => Just(Extra::TabOnlyLine),
        1 => Just(Extra::TabComment),
        1 => Just(Extra::TabAllowed),
        1 => proptest::sample::select(&[".inf", "-.Inf", ".nan", "+.INF"][..]).prop_map(Extra::Float),
    ];
    (
        any::<bool>(),
        any::<bool>(),
        prelude,
        empty,
        prop::bool::weighted(0.2),
        image,
        related,
        prop,
        prop::bool::weighted(0.2),
        (prop::bool::weighted(0.3), extra),
    )
        .prop_map(
            |(
                yaml,
                pretty,
                prelude,
                empty,
                dotted,
                image,
                related,
                prop,
                capital_keys,
                (json_looking, extra),
            )| Case {
                yaml,
                pretty,
                // A prelude matters before a JSON stream; empty documents are YAML's.
                prelude: if yaml { Prelude::None } else { prelude },
                empty: if yaml { empty } else { Empty::None },
                dotted,
                image,
                related,
                prop,
                capital_keys,
                // (Two `---` lines open the file in that case.)
                json_looking: yaml && json_looking && empty != Empty::LeadingDouble,
                extra: if yaml { extra } else { Extra::None },
            },
        )
}

/// The extra document's text and the error opm gives for it, if any
/// (`line N` counted within the document, as go-yaml counts).
fn extra_doc(e: Extra) -> Option<(String, Option<String>)> {
    let head = "schema: example.other\nname: x\n";
    let cannot =
        "error converting YAML to JSON: yaml: line 4: found character that cannot start any token";
    Some(match e {
        Extra::None => return None,
        Extra::TabAfterDash => (format!("{head}list:\n-\tname: y\n"), Some(cannot.to_owned())),
        Extra::TabOnlyLine => (format!("{head}q: \"y\"\n\t\nz: 1\n"), Some(cannot.to_owned())),
        Extra::TabComment => (
            format!("{head}p: y\n\t# a comment\n"),
            Some("error converting YAML to JSON: yaml: line 4: found a tab character that violates indentation".to_owned()),
        ),
        Extra::TabAllowed => (format!("{head}p:\ty z\t# a\tcomment\nq: [1,\t2]\n"), None),
        Extra::Float(f) => {
            let go = if f.to_ascii_lowercase().contains("nan") {
                "NaN"
            } else if f.starts_with('-') {
                "-Inf"
            } else {
                "+Inf"
            };
            (
                format!("{head}v: {f}\n"),
                Some(format!("error converting YAML to JSON: json: unsupported value: {go}")),
            )
        }
    })
}

fn package(c: &Case) -> String {
    if c.dotted { "foo.bar" } else { "foo" }.to_owned()
}

fn blobs(c: &Case) -> Vec<Value> {
    let pkg = package(c);
    let bundle = format!("{pkg}.v1.0.0");
    let mut props =
        vec![json!({"type": "olm.package", "value": {"packageName": pkg, "version": "1.0.0"}})];
    match c.prop {
        Prop::Fine => props.push(
            json!({"type": "olm.gvk", "value": {"group": "g", "kind": "K", "version": "v1"}}),
        ),
        Prop::NoType => props.push(json!({"value": {"a": 1}})),
        Prop::EmptyType => props.push(json!({"type": "", "value": 1})),
        Prop::NoValue => props.push(json!({"type": "x.y"})),
        Prop::NullPackageValue => props[0] = json!({"type": "olm.package", "value": null}),
        Prop::BadBase64 => {
            props.push(json!({"type": "olm.bundle.object", "value": {"data": "e30*"}}))
        }
    }
    let schema = if c.capital_keys { "Schema" } else { "schema" };
    vec![
        json!({schema: "olm.package", "name": pkg, "defaultChannel": "stable"}),
        json!({schema: "olm.channel", "package": pkg, "name": "stable", "entries": [{"name": bundle}]}),
        json!({schema: "olm.bundle", "package": pkg, "name": bundle, "image": c.image,
               "relatedImages": [{"name": "r", "image": c.related}], "properties": props}),
    ]
}

fn text(c: &Case) -> Vec<u8> {
    let docs: Vec<String> = blobs(c)
        .iter()
        .map(|b| {
            if c.pretty {
                serde_json::to_string_pretty(b).unwrap_or_default()
            } else {
                b.to_string()
            }
        })
        .collect();
    let mut out = String::new();
    if c.yaml {
        // JSON objects are YAML flow mappings; documents between `---` lines,
        // with comments and blank lines about.
        match c.empty {
            Empty::LeadingDouble => out.push_str("---\n---\n"),
            // (A comment before the first `---` would be a document of its own.)
            _ => out.push_str("---\n# a catalog\n"),
        }
        if c.json_looking {
            // The first document as a flow mapping with plain keys, opening
            // the file.
            out.clear();
        }
        for (i, d) in docs.iter().enumerate() {
            if i > 0 {
                out.push_str("--- # next\n\n");
            }
            if i == 0 && c.json_looking {
                let b = &blobs(c)[0];
                let members: Vec<String> = b
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(k, v)| format!("{k}: {}", v.as_str().unwrap_or_default()))
                    .collect();
                out.push_str(&format!("{{{}}}", members.join(", ")));
            } else {
                out.push_str(d);
            }
            out.push('\n');
        }
        if let Some((doc, _)) = extra_doc(c.extra) {
            out.push_str("---\n");
            out.push_str(&doc);
        }
        match c.empty {
            Empty::TrailingDouble => out.push_str("---\n---\n"),
            Empty::Null(tilde) => out.push_str(if tilde { "---\n~\n" } else { "---\nnull\n" }),
            Empty::EndMarker => out.push_str("---\n...\n"),
            _ => out.push_str("---\n"),
        }
    } else {
        if c.prelude == Prelude::Comment {
            out.push_str("# generated\n");
        }
        for d in &docs {
            out.push_str(d);
            out.push('\n');
        }
    }
    let mut bytes = Vec::new();
    if c.prelude == Prelude::Bom {
        bytes.extend_from_slice(b"\xEF\xBB\xBF");
    }
    bytes.extend_from_slice(out.as_bytes());
    bytes
}

/// opm's texts a case must give, in two groups: load errors (which stop opm
/// at once, and keep olmsat from checking the file's packages further) and
/// conversion errors.
fn expected(c: &Case) -> (Vec<String>, Vec<String>) {
    let pkg = package(c);
    let bundle = format!("{pkg}.v1.0.0");
    let mut load = Vec::new();
    let mut convert = Vec::new();
    match c.empty {
        Empty::LeadingDouble | Empty::TrailingDouble | Empty::Null(_) => {
            load.push("object '' is missing root schema field".to_owned());
        }
        Empty::EndMarker => load.push(
            "error converting YAML to JSON: yaml: did not find expected node content".to_owned(),
        ),
        Empty::None => {}
    }
    if let Some((_, Some(e))) = extra_doc(c.extra) {
        load.push(e);
    }
    if c.prop == Prop::BadBase64 {
        load.push(format!(
            "read bundle objects: package {pkg:?}, bundle {bundle:?}: parse property at index 1 as bundle object: json: cannot unmarshal string into Go struct field BundleObject.data of type []uint8: illegal base64 data at input byte 3"
        ));
    }
    if c.dotted {
        convert.push(format!(
            "invalid package name {pkg:?}: [must not contain dots]"
        ));
    }
    match c.prop {
        Prop::NoValue => convert.push(format!(
            "parse properties for bundle {bundle:?}: parse property[1] of type \"x.y\": unexpected end of JSON input"
        )),
        Prop::NullPackageValue => convert.push(format!(
            "package {pkg:?} does not match \"olm.package\" property \"\""
        )),
        _ => {}
    }
    let upper = "invalid reference format: repository name must be lowercase";
    if UPPER_PATHS.contains(&c.image) {
        convert.push(format!(
            "package {pkg:?} bundle {bundle:?} image: invalid image pull spec {:?}: {upper}",
            c.image
        ));
    }
    if UPPER_PATHS.contains(&c.related) {
        convert.push(format!(
            "package {pkg:?} bundle {bundle:?} relatedImages[0].image: invalid image pull spec {:?}: {upper}",
            c.related
        ));
    }
    (load, convert)
}

fn messages(ds: &[Diagnostic]) -> Vec<&str> {
    ds.iter().map(|d| d.message.as_str()).collect()
}

fn check(c: &Case) -> Result<(), TestCaseError> {
    let loaded = super::load_bytes("catalog", &text(c));
    if c.prelude != Prelude::None {
        // opm reads the file as YAML and keeps its first object only, and
        // olmsat says so.
        prop_assert_eq!(loaded.config.packages.len(), 1);
        prop_assert!(loaded.config.channels.is_empty() && loaded.config.bundles.is_empty());
        prop_assert!(
            loaded
                .diagnostics
                .iter()
                .any(|d| d.rule == Rule::JsonReadAsYaml && !d.is_error()),
            "{:?}",
            messages(&loaded.diagnostics)
        );
        return Ok(());
    }
    prop_assert!(!loaded
        .diagnostics
        .iter()
        .any(|d| d.rule == Rule::JsonReadAsYaml));
    let (_, report) = crate::validate::validate(loaded);
    let errors = messages(&report.errors);
    let (load, convert) = expected(c);
    // opm's text, to which olmsat may add why (in parentheses).
    for want in &load {
        prop_assert!(
            errors.iter().any(|e| e.starts_with(want.as_str())),
            "want {want:?} in {errors:?}"
        );
    }
    if load.is_empty() {
        for want in &convert {
            prop_assert!(
                errors.contains(&want.as_str()),
                "want {want:?} in {errors:?}"
            );
        }
    }
    let fails = !load.is_empty() || !convert.is_empty();
    prop_assert_eq!(!report.passed(), fails, "errors: {:?}", errors);
    // A property without a type or a value passes opm's loading, and
    // olmsat warns about it.
    let incomplete = report
        .warnings
        .iter()
        .any(|d| d.rule == Rule::IncompleteProperty);
    let odd = matches!(c.prop, Prop::NoType | Prop::EmptyType | Prop::NoValue);
    if load.is_empty() {
        prop_assert_eq!(
            incomplete,
            odd,
            "warnings: {:?}",
            messages(&report.warnings)
        );
    }
    Ok(())
}

#[test]
fn random_catalogs_get_opms_verdicts() {
    let config = Config {
        cases: 256,
        rng_seed: RngSeed::Fixed(0x0019),
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new(config)
        .run(&arb_case(), |c| check(&c))
        .unwrap();
}
