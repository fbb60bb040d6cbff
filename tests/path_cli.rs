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
        [
            "channel",
            "end",
            "from",
            "package",
            "reachesHead",
            "steps",
            "to"
        ]
    );
    assert_eq!(v["end"], "target");
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
        [
            "channel",
            "end",
            "from",
            "package",
            "paths",
            "reachesHead",
            "to"
        ]
    );
    assert_eq!(v["end"], "head");
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
    // Named unlike the package's bundles (a pruned CSV name would be named
    // like them), so neither a name nor a version.
    let r = olmsat(&[&base[..], &["external-dns-operater.v1.3.9"]].concat());
    assert_eq!(r.code, 1);
    assert!(r.stdout.is_empty());
    assert!(
        r.stderr.contains(
            "unknown bundle \"external-dns-operater.v1.3.9\" in channel \"stable-v1\" of package \"external-dns-operator\" (not a bundle name, nor a version); the channel has: external-dns-operator.v1.3.0, external-dns-operator.v1.3.1,"
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
        r.stdout.contains(
            "  b (replaces declared at <stdin>:2) would take it but is never offered: skipped by c (<stdin>:2) (OLM v0 never offers a skipped entry)\n"
        ),
        "{}",
        r.stdout
    );
    // The same as data.
    let r = olmsat_in(
        &dir,
        &["path", "-", "--package", "p", "--from", "a", "-o", "json"],
        &input,
        &[],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let v = json(&r.stdout);
    assert_eq!(v["end"], "deadEnd");
    assert_eq!(v["why"]["at"], "a");
    let blocked = &v["why"]["blocked"][0];
    assert_eq!(blocked["entry"], "b");
    assert_eq!(blocked["via"], "replaces");
    assert_eq!(blocked["notOffered"], "skipped");
    assert_eq!(blocked["skippedBy"][0]["entry"], "c");
    assert_eq!(blocked["skippedBy"][0]["file"], "<stdin>");
    assert_eq!(blocked["skippedBy"][0]["line"], 2);
    // Backwards is no upgrade.
    let r = olmsat_in(
        &dir,
        &[
            "path",
            "-",
            "--package",
            "p",
            "--from",
            "c",
            "--to",
            "1.0.0",
            "--shortest",
        ],
        &input,
        &[],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.ends_with(
            "no path\n  a (1.0.0) is older than c (1.2.0): upgrades only go to newer versions\n"
        ),
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

/// Run `olmsat path` on the community catalog's opendatahub-operator package
/// (full corpus only), from the directory holding it.
fn opendatahub(args: &[&str]) -> Option<common::Run> {
    let dir = common::support::need(
        "fbc/community-operators-prod/catalogs/v4.20/opendatahub-operator",
        "path answers on opendatahub-operator",
    )?;
    let parent = dir.parent()?;
    let base = [
        "path",
        "opendatahub-operator",
        "--package",
        "opendatahub-operator",
    ];
    Some(olmsat_in(parent, &[&base[..], args].concat(), "", &[]))
}

#[test]
fn a_start_outside_the_default_channel_is_followed_where_it_is() {
    let Some(r) = opendatahub(&["--from", "opendatahub-operator.v2.10.0"]) else {
        return;
    };
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with(
        "note: opendatahub-operator.v2.10.0 is not in the default channel fast-3; it is in fast: the path there follows\npackage opendatahub-operator, channel fast\n"
    ), "{}", r.stdout);
    assert!(r
        .stdout
        .ends_with("reaches the head opendatahub-operator.v2.35.0 in 8 steps\n"));
}

#[test]
fn a_dead_end_outside_the_channel_says_where_the_bundle_is() {
    let Some(r) = opendatahub(&[
        "--from",
        "opendatahub-operator.v2.10.0",
        "--channel",
        "fast-3",
    ]) else {
        return;
    };
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "package opendatahub-operator, channel fast-3\n\
         OLM v0 path from opendatahub-operator.v2.10.0 (2.10.0, not in this channel) to the head opendatahub-operator.v3.5.0, one step per resolution:\n\
         dead end: OLM v0 offers no upgrade from the start\n  \
         opendatahub-operator.v2.10.0 is not in channel fast-3\n  \
         it is in channel fast (head opendatahub-operator.v2.35.0; OLM v0 reaches it in 8 steps): add --channel fast\n  \
         nothing in channel fast-3 takes opendatahub-operator.v2.10.0: no entry replaces it, none skips it, no skipRange contains its version 2.10.0\n"
    );
    let Some(r) = opendatahub(&[
        "--from",
        "opendatahub-operator.v2.10.0",
        "--channel",
        "fast-3",
        "-o",
        "json",
    ]) else {
        return;
    };
    let v = json(&r.stdout);
    assert_eq!(v["end"], "deadEnd");
    assert_eq!(v["why"]["notInChannel"], true);
    assert_eq!(v["why"]["nothingTakesIt"], true);
    let other = &v["why"]["otherChannels"][0];
    assert_eq!(other["channel"], "fast");
    assert_eq!(other["head"], "opendatahub-operator.v2.35.0");
    assert_eq!(other["end"], "head");
    assert_eq!(other["steps"], 8);
}

#[test]
fn pruned_csv_names_start_paths_with_the_version_in_the_name() {
    let Some(r) = opendatahub(&["--from", "opendatahub-operator.v2.5.0"]) else {
        return;
    };
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with(
        "note: OLM v0 offers opendatahub-operator.v2.5.0 no upgrade in the default channel fast-3; it does in fast: the path there follows\n\
         package opendatahub-operator, channel fast\n\
         OLM v0 path from opendatahub-operator.v2.5.0 (a pruned bundle; version 2.5.0 read from its name) to the head opendatahub-operator.v2.35.0, one step per resolution:\n\
         opendatahub-operator.v2.5.0 -> opendatahub-operator.v2.28.0  skipRange \">=1.0.0 <2.28.0\" declared at opendatahub-operator/catalog.yaml:117\n"
    ), "{}", r.stdout);
    // Newer than the head.
    let Some(r) = opendatahub(&["--from", "opendatahub-operator.v9.0.0", "--channel", "fast"])
    else {
        return;
    };
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.ends_with(
        "dead end: OLM v0 offers no upgrade from the start\n  opendatahub-operator.v9.0.0 (9.0.0) is newer than the head opendatahub-operator.v2.35.0 (2.35.0): nothing in channel fast upgrades it\n"
    ), "{}", r.stdout);
}

#[test]
fn channel_all_answers_in_every_channel_holding_the_start() {
    let base = [
        "path",
        EXTERNAL_DNS,
        "--package",
        "external-dns-operator",
        "--from",
        "external-dns-operator.v1.1.0",
        "--channel",
        "all",
    ];
    let r = olmsat(&base);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains(
        "reaches the head external-dns-operator.v1.3.8 in 1 step\n\npackage external-dns-operator, channel stable-v1.1\n"
    ), "{}", r.stdout);
    let r = olmsat(&[&base[..], &["-o", "json"]].concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r.stdout);
    assert_eq!(keys(&v), ["channels", "from", "package"]);
    assert_eq!(v["from"], "external-dns-operator.v1.1.0");
    let channels: Vec<(String, String, String)> = v["channels"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|c| {
                    (
                        c["channel"].as_str().unwrap_or_default().to_owned(),
                        c["to"].as_str().unwrap_or_default().to_owned(),
                        c["end"].as_str().unwrap_or_default().to_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        channels,
        [
            (
                "stable-v1".to_owned(),
                "external-dns-operator.v1.3.8".to_owned(),
                "head".to_owned()
            ),
            (
                "stable-v1.1".to_owned(),
                "external-dns-operator.v1.1.3".to_owned(),
                "head".to_owned()
            )
        ]
    );
}

#[test]
fn an_unreachable_target_names_the_nearest_point_and_the_entries_leading_to_it() {
    // d's skipRange stops below c's version, and d replaces x, which nothing
    // leads to: from c nothing reaches d.
    let input = catalog(
        &[
            r#"{"name":"a"}"#,
            r#"{"name":"b","replaces":"a"}"#,
            r#"{"name":"c","replaces":"b"}"#,
            r#"{"name":"x"}"#,
            r#"{"name":"d","replaces":"x","skipRange":">=1.0.0 <1.2.0"}"#,
        ],
        &[
            ("a", "1.0.0"),
            ("b", "1.1.0"),
            ("c", "1.2.0"),
            ("x", "1.3.0"),
            ("d", "1.4.0"),
        ],
    );
    let dir = corpus();
    let r = olmsat_in(
        &dir,
        &[
            "path",
            "-",
            "--package",
            "p",
            "--from",
            "b",
            "--to",
            "1.4.0",
            "--shortest",
        ],
        &input,
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
    let r = olmsat_in(
        &dir,
        &[
            "path",
            "-",
            "--package",
            "p",
            "--from",
            "c",
            "--to",
            "d",
            "--shortest",
        ],
        &input,
        &[],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.ends_with(
            "no path\n  \
             no path over any edge reaches d; the nearest point is the start c (1.2.0): no entry leading to d replaces, skips or has a skipRange containing it\n  \
             x (<stdin>:2) takes nothing\n  \
             d (<stdin>:2) replaces x, skipRange \">=1.0.0 <1.2.0\" (stops just below 1.2.0: <1.2.0)\n"
        ),
        "{}",
        r.stdout
    );
    let r = olmsat_in(
        &dir,
        &[
            "path",
            "-",
            "--package",
            "p",
            "--from",
            "c",
            "--to",
            "d",
            "--shortest",
            "-o",
            "json",
        ],
        &input,
        &[],
    );
    let v = json(&r.stdout);
    assert_eq!(v["end"], "noPath");
    assert_eq!(v["why"]["nearest"], "c");
    assert_eq!(v["why"]["leads"][1]["entry"], "d");
    assert_eq!(v["why"]["leads"][1]["skipRange"], ">=1.0.0 <1.2.0");
    assert_eq!(v["why"]["leads"][1]["line"], 2);
    assert_eq!(v["why"]["leads"][1]["skipRangeFails"], "<1.2.0");
}

#[test]
fn a_cluster_file_gives_a_pruned_start_its_csv_version() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cluster = tmp.path().join("cluster.yaml");
    std::fs::write(
        &cluster,
        "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata: {name: external-dns-operator.v1.0.0, namespace: ops}\nspec:\n  version: 1.1.5\nstatus: {phase: Succeeded}\n",
    )
    .expect("write");
    let cluster = cluster.to_string_lossy().into_owned();
    let base = [
        "path",
        EXTERNAL_DNS,
        "--package",
        "external-dns-operator",
        "--channel",
        "stable-v1.1",
        "--from",
        "external-dns-operator.v1.0.0",
    ];
    // From the name: 1.0.0, inside the head's skipRange.
    let r = olmsat(&base);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains(
        "OLM v0 path from external-dns-operator.v1.0.0 (a pruned bundle; version 1.0.0 read from its name) to the head external-dns-operator.v1.1.3,"
    ), "{}", r.stdout);
    // From the installed CSV: 1.1.5, newer than the head.
    let r = olmsat(&[&base[..], &["-f", &cluster]].concat());
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.contains(&format!(
        "OLM v0 path from external-dns-operator.v1.0.0 (a pruned bundle; version 1.1.5 from its ClusterServiceVersion at {cluster}:1) to the head"
    )), "{}", r.stdout);
    assert!(r.stdout.ends_with(
        "  external-dns-operator.v1.0.0 (1.1.5) is newer than the head external-dns-operator.v1.1.3 (1.1.3): nothing in channel stable-v1.1 upgrades it\n"
    ), "{}", r.stdout);
    // An unreadable cluster file cannot be answered.
    let missing = tmp
        .path()
        .join("missing.yaml")
        .to_string_lossy()
        .into_owned();
    let r = olmsat(&[&base[..], &["-f", &missing]].concat());
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[test]
fn json_carries_every_reason_the_text_gives() {
    // From a, OLM v0 takes c (its skipRange covers a) and passes b by,
    // although a reaches b over the graph.
    let passed = catalog(
        &[
            r#"{"name":"a"}"#,
            r#"{"name":"b","replaces":"a"}"#,
            r#"{"name":"c","replaces":"b","skipRange":">=1.0.0 <1.2.0"}"#,
        ],
        &[("a", "1.0.0"), ("b", "1.1.0"), ("c", "1.2.0")],
    );
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(dir.path().join("passed.json"), &passed).expect("write");
    let args = [
        "path",
        "passed.json",
        "--package",
        "p",
        "--from",
        "a",
        "--to",
        "b",
    ];
    let text = olmsat_in(dir.path(), &args, "", &[]);
    assert_eq!(text.code, 1, "{}", text.stderr);
    assert!(
        text.stdout.contains("but OLM v0 passes it by"),
        "{}",
        text.stdout
    );
    let mut with_json = args.to_vec();
    with_json.extend(["-o", "json"]);
    let j = json(&olmsat_in(dir.path(), &with_json, "", &[]).stdout);
    assert_eq!(j["end"], "missesTarget", "{j}");
    assert_eq!(j["why"]["passedBy"], true, "{j}");

    // Two heads: OLM v0 refuses to resolve in the channel.
    let heads = catalog(
        &[r#"{"name":"a"}"#, r#"{"name":"b"}"#],
        &[("a", "1.0.0"), ("b", "1.1.0")],
    );
    std::fs::write(dir.path().join("heads.json"), &heads).expect("write");
    let r = olmsat_in(
        dir.path(),
        &[
            "path",
            "heads.json",
            "--package",
            "p",
            "--from",
            "a",
            "-o",
            "json",
        ],
        "",
        &[],
    );
    let j = json(&r.stdout);
    assert_eq!(j["end"], "noHead", "{j}");
    assert_eq!(
        j["why"]["noHead"], "multiple channel heads found in graph: a, b",
        "{j}"
    );
}
