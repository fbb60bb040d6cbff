//! `olmsat path` as a process.

#[path = "cli_common/mod.rs"]
mod common;

use common::{catalog, corpus, olmsat, olmsat_in};
use serde_json::Value;

const EXTERNAL_DNS: &str = "external-dns-operator/catalog/v4.20";

fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    k.sort();
    k
}

fn json(stdout: &str) -> Value {
    match serde_json::from_str(stdout) {
        Ok(v) => v,
        Err(e) => panic!("not JSON ({e}): {stdout}"),
    }
}

#[test]
fn olm_path_explains_each_step() {
    let r = olmsat(&[
        "path",
        EXTERNAL_DNS,
        "--package",
        "external-dns-operator",
        "--from",
        "external-dns-operator.v1.1.0",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains(
        "external-dns-operator.v1.1.0 -> external-dns-operator.v1.3.8  skipRange \"<1.3.8\" declared at external-dns-operator/catalog/v4.20/catalog.yaml:60\n"
    ), "{}", r.stdout);
    assert!(r
        .stdout
        .contains("reaches the head external-dns-operator.v1.3.8 in 1 step"));
}

#[test]
fn json_has_the_documented_shape() {
    let r = olmsat(&[
        "path",
        EXTERNAL_DNS,
        "--package",
        "external-dns-operator",
        "--channel",
        "stable-v1.1",
        "--from",
        "external-dns-operator.v1.1.0",
        "--to",
        "external-dns-operator.v1.1.1",
        "--shortest",
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r.stdout);
    assert_eq!(
        keys(&v),
        ["channel", "from", "package", "reachesHead", "steps", "to"]
    );
    assert_eq!(v["package"], "external-dns-operator");
    assert_eq!(v["channel"], "stable-v1.1");
    assert_eq!(v["to"], "external-dns-operator.v1.1.1");
    assert_eq!(v["reachesHead"], false);
    let step = &v["steps"][0];
    // replaces is preferred to the parallel skipRange edge; no range then.
    assert_eq!(keys(step), ["file", "from", "line", "to", "via"]);
    assert_eq!(step["via"], "replaces");
    assert_eq!(
        step["file"],
        "external-dns-operator/catalog/v4.20/catalog.yaml"
    );
    assert!(step["line"].as_u64().is_some_and(|l| l > 0));
}

#[test]
fn all_paths_print_paths_instead_of_steps() {
    let r = olmsat(&[
        "path",
        EXTERNAL_DNS,
        "--package",
        "external-dns-operator",
        "--channel",
        "stable-v1.1",
        "--from",
        "1.1.0",
        "--all",
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r.stdout);
    assert_eq!(
        keys(&v),
        ["channel", "from", "package", "paths", "reachesHead", "to"]
    );
    assert_eq!(v["reachesHead"], true);
    let paths = v["paths"].as_array().map(Vec::len);
    assert_eq!(paths, Some(4), "1.1.0 -> 1.1.3 in one, two or three steps");
    assert_eq!(v["paths"][0][0]["via"], "skipRange");
    assert_eq!(v["paths"][0][0]["range"], "<1.1.3");
}

#[test]
fn pruned_versions_start_paths() {
    let r = olmsat(&[
        "path",
        EXTERNAL_DNS,
        "--package",
        "external-dns-operator",
        "--from",
        "1.0.0",
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r.stdout);
    assert_eq!(v["from"], "1.0.0");
    assert_eq!(v["steps"][0]["from"], "1.0.0");
    assert_eq!(v["steps"][0]["to"], "external-dns-operator.v1.3.8");
    assert_eq!(v["reachesHead"], true);
}

#[test]
fn unknown_names_are_errors_listing_the_closest() {
    let base = [
        "path",
        EXTERNAL_DNS,
        "--package",
        "external-dns-operator",
        "--from",
    ];
    let r = olmsat(&[&base[..], &["external-dns-operator.v1.3.9"]].concat());
    assert_eq!(r.code, 1);
    assert!(r.stdout.is_empty());
    assert!(
        r.stderr.contains(
            "unknown bundle \"external-dns-operator.v1.3.9\" in channel \"stable-v1\" of package \"external-dns-operator\" (not a bundle name, nor a version); the channel has: external-dns-operator.v1.3.0, external-dns-operator.v1.3.1,"
        ),
        "{}",
        r.stderr
    );
    let r = olmsat(&[
        "path",
        EXTERNAL_DNS,
        "--package",
        "external-dns",
        "--from",
        "x",
    ]);
    assert_eq!(r.code, 1);
    assert!(r
        .stderr
        .contains("unknown package \"external-dns\"; the catalog has: external-dns-operator"));
    let r = olmsat(&[
        "path",
        EXTERNAL_DNS,
        "--package",
        "external-dns-operator",
        "--channel",
        "stable-v1.4",
        "--from",
        "x",
    ]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains(
        "unknown channel \"stable-v1.4\" in package \"external-dns-operator\"; it has: stable-v1.1, stable-v1.2, stable-v1.3, stable-v1"
    ), "{}", r.stderr);
}

#[test]
fn dead_ends_are_reported_and_exit_1() {
    // c replaces and skips b, so from a (whose only successor is b) OLM is stuck.
    let input = catalog(
        &[
            r#"{"name":"a"}"#,
            r#"{"name":"b","replaces":"a"}"#,
            r#"{"name":"c","replaces":"b","skips":["b"]}"#,
        ],
        &[("a", "1.0.0"), ("b", "1.1.0"), ("c", "1.2.0")],
    );
    let dir = corpus();
    let r = olmsat_in(
        &dir,
        &["path", "-", "--package", "p", "--from", "a"],
        &input,
        &[],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.contains("note: OLM v0 would refuse to resolve in this channel: channel contains one or more stranded bundles: a"), "{}", r.stdout);
    assert!(r
        .stdout
        .contains("dead end: OLM v0 offers no upgrade from the start"));
    assert!(
        r.stdout
            .contains("  b (replaces declared at <stdin>:2) is never offered: skipped by c"),
        "{}",
        r.stdout
    );
    // The graph has a path, though.
    let r = olmsat_in(
        &dir,
        &["path", "-", "--package", "p", "--from", "a", "--shortest"],
        &input,
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("a -> b  replaces declared at <stdin>:"));
    assert!(r.stdout.contains("reaches the head c in 2 steps"));
}

#[test]
fn quadratic_skip_range_channels_are_refused_not_exhausting_memory() {
    // 3,300 entries whose skipRange matches every version: about 10.9 million
    // range edges, past the 5 million olmsat builds.
    let n = 3_300;
    let names: Vec<String> = (0..n).map(|i| format!("b{i}")).collect();
    let versions: Vec<String> = (0..n).map(|i| format!("1.0.{i}")).collect();
    let entries: Vec<String> = (0..n)
        .map(|i| {
            if i == 0 {
                r#"{"name":"b0"}"#.to_owned()
            } else {
                format!(
                    r#"{{"name":"b{i}","replaces":"b{}","skipRange":">=0.0.0"}}"#,
                    i - 1
                )
            }
        })
        .collect();
    let entry_refs: Vec<&str> = entries.iter().map(String::as_str).collect();
    let bundles: Vec<(&str, &str)> = names
        .iter()
        .map(String::as_str)
        .zip(versions.iter().map(String::as_str))
        .collect();
    let input = catalog(&entry_refs, &bundles);
    let dir = corpus();
    let expected = "olmsat: package \"p\", channel \"stable\": its skipRanges make more than 5000000 edges; olmsat refuses to build a graph this large\n";
    let r = olmsat_in(
        &dir,
        &["path", "-", "--package", "p", "--from", "b0"],
        &input,
        &[],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.stderr, expected);
    let r = olmsat_in(&dir, &["graph", "-", "-o", "dot"], &input, &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.stderr, expected);
    assert!(r.stdout.is_empty());
}

#[test]
fn a_broken_blob_of_another_package_does_not_block_a_path() {
    let mut input = catalog(
        &[r#"{"name":"a"}"#, r#"{"name":"b","replaces":"a"}"#],
        &[("a", "1.0.0"), ("b", "1.1.0")],
    );
    input.push_str(r#"{"schema":"olm.bundle","package":"other","name":"x","properties":5}"#);
    input.push('\n');
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::write(tmp.path().join("catalog.json"), &input).expect("write");
    let dir = tmp.path().to_string_lossy().into_owned();
    let r = olmsat_in(
        tmp.path(),
        &["path", &dir, "--package", "p", "--from", "a"],
        "",
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("reaches the head b in 1 step"),
        "{}",
        r.stdout
    );
    // Asked about the other package (which has no olm.package blob), the whole
    // catalog is loaded and the broken blob reported.
    let r = olmsat_in(
        tmp.path(),
        &["path", &dir, "--package", "other", "--from", "x"],
        "",
        &[],
    );
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("parse bundle"), "{}", r.stderr);
    // The same from standard input.
    let r = olmsat_in(
        tmp.path(),
        &["path", "-", "--package", "p", "--from", "a"],
        &input,
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = olmsat_in(
        tmp.path(),
        &["path", "-", "--package", "other", "--from", "x"],
        &input,
        &[],
    );
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("parse bundle"), "{}", r.stderr);
}
