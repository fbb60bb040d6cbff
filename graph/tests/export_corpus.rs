//! Upgrade-graph drawings of real catalogs: DOT and Mermaid snapshots of small
//! channels, and Graphviz parsing the DOT of several catalogs.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use olmsat_catalog::load;
use olmsat_catalog::model::Model;
use olmsat_graph::export::{dot, mermaid, DrawOptions, Drawing};

#[path = "../../tests/support/corpus.rs"]
mod support;

/// `rel` below `fbc/` in the repository's corpus or the full one; `None` (with a skip
/// line naming `what`) when neither has it.
fn corpus(rel: &str, what: &str) -> Option<PathBuf> {
    support::need(&format!("fbc/{rel}"), what)
}

/// Load one catalog file, naming it `name` in locations (so snapshots do not
/// depend on where the corpus is).
fn model_of_file(rel: &str, name: &str) -> Model {
    let Some(path) = support::find(&format!("fbc/{rel}")) else {
        panic!("{rel} is expected in the repository's corpus/real");
    };
    let loaded = load::load_file(&path, name);
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    Model::build(loaded.config).0
}

fn model_of_dir(rel: &str, what: &str) -> Option<Model> {
    let path = corpus(rel, what)?;
    let loaded = match load::load_path(&path) {
        Ok(l) => l,
        Err(e) => panic!("{rel}: {e}"),
    };
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    Some(Model::build(loaded.config).0)
}

fn draw<'m>(model: &'m Model, opts: &DrawOptions<'_>) -> Drawing<'m> {
    match Drawing::new(model, opts) {
        Ok(d) => d,
        Err(e) => panic!("{e}"),
    }
}

const AWS: &str = "aws-load-balancer-operator/catalog/v4.20/catalog.yaml";
const EXTERNAL_DNS: &str = "external-dns-operator/catalog/v4.20/catalog.yaml";
const TESTDATA: &str =
    "testdata-operator-registry/alpha/action/testdata/index-declcfgs/latest/index.yaml";

#[test]
fn aws_load_balancer_operator() {
    // Four channels, a deprecated channel and two deprecated bundles.
    let m = model_of_file(AWS, "catalog.yaml");
    let d = draw(&m, &DrawOptions::default());
    insta::assert_snapshot!("aws_dot", dot::to_string(&d));
    insta::assert_snapshot!("aws_mermaid", mermaid::to_string(&d));
}

#[test]
fn external_dns_operator_with_a_pruned_start() {
    // One channel, with the OLM path from an installed version no longer in
    // the catalog.
    let m = model_of_file(EXTERNAL_DNS, "catalog.yaml");
    let opts = DrawOptions {
        channel: Some("stable-v1.1"),
        highlight_from: Some("1.0.0"),
        ..DrawOptions::default()
    };
    let d = draw(&m, &opts);
    insta::assert_snapshot!("external_dns_dot", dot::to_string(&d));
    insta::assert_snapshot!("external_dns_mermaid", mermaid::to_string(&d));
}

#[test]
fn operator_registry_testdata() {
    // Skips to bundles absent from the catalog, skipped entries, skipRanges.
    let m = model_of_file(TESTDATA, "index.yaml");
    let d = draw(&m, &DrawOptions::default());
    insta::assert_snapshot!("testdata_dot", dot::to_string(&d));
    insta::assert_snapshot!("testdata_mermaid", mermaid::to_string(&d));
    let opts = DrawOptions {
        minimum_edge: Some("foo.v0.2.0"),
        ..DrawOptions::default()
    };
    let d = draw(&m, &opts);
    insta::assert_snapshot!("testdata_minimum_edge_mermaid", mermaid::to_string(&d));
}

#[test]
fn output_is_deterministic() {
    let Some(m) = model_of_dir(
        "community-operators-prod/catalogs/v4.16",
        "output_is_deterministic",
    ) else {
        return;
    };
    let a = draw(&m, &DrawOptions::default());
    let b = draw(&m, &DrawOptions::default());
    assert_eq!(dot::to_string(&a), dot::to_string(&b));
    assert_eq!(mermaid::to_string(&a), mermaid::to_string(&b));
}

/// Run Graphviz's `dot` on `text`; `None` when Graphviz is not installed.
fn graphviz(text: &str) -> Option<(bool, String)> {
    let child = Command::new("dot")
        .arg("-Tcanon")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => panic!("running dot: {e}"),
    };
    if let Some(mut stdin) = child.stdin.take() {
        if let Err(e) = stdin.write_all(text.as_bytes()) {
            panic!("writing to dot: {e}");
        }
    }
    match child.wait_with_output() {
        Ok(out) => Some((
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )),
        Err(e) => panic!("running dot: {e}"),
    }
}

fn assert_graphviz_parses(what: &str, text: &str) -> bool {
    match graphviz(text) {
        None => {
            support::skip(
                &format!("the DOT check of {what}"),
                "Graphviz `dot` is not installed (CI installs it; see .ci/run)",
            );
            false
        }
        Some((ok, stderr)) => {
            assert!(ok, "dot rejected {what}: {stderr}");
            assert!(
                stderr.trim().is_empty(),
                "dot complained about {what}: {stderr}"
            );
            true
        }
    }
}

#[test]
fn graphviz_parses_corpus_catalogs() {
    for dir in [
        "aws-load-balancer-operator/catalog/v4.20",
        "external-dns-operator/catalog/v4.20",
        "gatekeeper-operator-fbc/catalog-4-20",
        "kueue-fbc/v4.20",
        "testdata-operator-registry/alpha/action/testdata/index-declcfgs/latest",
        "testdata-olm",
        "community-operators-prod/catalogs/v4.16",
    ] {
        let Some(m) = model_of_dir(dir, &format!("graphviz_parses_corpus_catalogs on {dir}"))
        else {
            continue;
        };
        let opts = DrawOptions::default();
        if !assert_graphviz_parses(dir, &dot::to_string(&draw(&m, &opts))) {
            return;
        }
    }
}

#[test]
fn graphviz_parses_awkward_names() {
    // Names with quotes, backslashes, line breaks and record-label characters.
    let names = [
        "we\\\"ird\\\\name",
        "line\\nbreak",
        "<a>{b}|c",
        "tab\\tand\\u0001ctl",
    ];
    let mut text = String::from(
        r#"{"schema":"olm.package","name":"p","defaultChannel":"c\"h"}
"#,
    );
    let entries: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(i, n)| match i {
            0 => format!(r#"{{"name":"{n}"}}"#),
            _ => format!(
                r#"{{"name":"{n}","replaces":"{}","skips":["gone\"x"],"skipRange":"<9.0.0"}}"#,
                names[i - 1]
            ),
        })
        .collect();
    text.push_str(&format!(
        r#"{{"schema":"olm.channel","package":"p","name":"c\"h","entries":[{}]}}
"#,
        entries.join(",")
    ));
    for (i, n) in names.iter().enumerate() {
        text.push_str(&format!(
            r#"{{"schema":"olm.bundle","package":"p","name":"{n}","image":"","properties":[{{"type":"olm.package","value":{{"packageName":"p","version":"1.{i}.0"}}}}]}}
"#
        ));
    }
    let loaded = load::load_bytes("awkward.json", text.as_bytes());
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let m = Model::build(loaded.config).0;
    let opts = DrawOptions {
        highlight_from: Some("0.5.0"),
        ..DrawOptions::default()
    };
    let d = draw(&m, &opts);
    assert_eq!(d.channels().count(), 1);
    let text = dot::to_string(&d);
    assert!(text.contains("label=\"<a>{b}|c\\n1.2.0\""), "{text}");
    assert_graphviz_parses("awkward names", &text);
    let mm = mermaid::to_string(&d);
    assert!(
        mm.contains("p-c_22h-_3ca_3e_7bb_7d_7cc[\"#60;a#62;{b}|c\"]"),
        "{mm}"
    );
}
