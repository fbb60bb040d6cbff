//! OLM v1 in `olmsat resolve`, `simulate`, `path --olm v1` and `compare-olm`, as a
//! process: the fixtures under `tests/v1/` and real catalogs of the corpus.

#[path = "cli_common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use common::olmsat_in;
use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/v1")
}

fn run(args: &[&str]) -> common::Run {
    olmsat_in(&fixtures(), args, "", &[])
}

fn json(stdout: &str) -> Value {
    match serde_json::from_str(stdout) {
        Ok(v) => v,
        Err(e) => panic!("not JSON ({e}): {stdout}"),
    }
}

fn extension<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["extensions"]
        .as_array()
        .and_then(|a| a.iter().find(|e| e["name"] == name))
        .unwrap_or_else(|| panic!("no extension {name} in {v}"))
}

#[test]
fn cluster_file_extensions_resolve_next_to_v0() {
    let r = run(&[
        "resolve",
        "--catalogs",
        "catalogs",
        "-f",
        "cluster.yaml",
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let v = json(&r.stdout);
    assert_eq!(v["status"], "resolved");
    let up = extension(&v, "p-upgrade");
    assert_eq!(up["status"], "resolved");
    assert_eq!(up["bundle"], "p.v2.0.0");
    assert_eq!(up["version"], "2.0.0");
    assert_eq!(up["catalog"], "main");
    assert_eq!(up["installed"], "p.v1.0.0@1.0.0");
    assert_eq!(up["deprecations"][0], "p.v1.0.0 is deprecated");
    let conds: Vec<(String, String)> = up["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["type"].as_str().unwrap().to_owned(),
                c["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        conds,
        [
            ("Progressing", "True"),
            ("Deprecated", "True"),
            ("PackageDeprecated", "False"),
            ("ChannelDeprecated", "False"),
            ("BundleDeprecated", "True")
        ]
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
    );
    let pinned = extension(&v, "p-pinned");
    assert_eq!(pinned["status"], "error");
    assert_eq!(
        pinned["message"],
        r#"error upgrading from currently installed version "3.0.0": no bundles found for package "p" matching version "<3.0.0""#
    );
    let q = extension(&v, "q");
    assert_eq!(
        q["message"],
        r#"validating bundle "q.v1.1.0": bundle "q.v1.1.0" has a dependency declared via property "olm.package.required" which is currently not supported"#
    );
    // Byte-identical on a second run.
    let again = run(&[
        "resolve",
        "--catalogs",
        "catalogs",
        "-f",
        "cluster.yaml",
        "-o",
        "json",
    ]);
    assert_eq!(r.stdout, again.stdout);
}

#[test]
fn explain_names_the_emptying_filter() {
    let r = run(&[
        "resolve",
        "--catalogs",
        "catalogs",
        "-f",
        "cluster.yaml",
        "--explain",
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("emptied by: successors of the installed bundle"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains(
        "nearest miss: 2.0.0 is in range but not a successor of the installed 3.0.0: nothing replaces, skips or skipRange-matches p.v3.0.0 in channels alpha, beta, gamma"
    ), "{}", r.stdout);
}

#[test]
fn extension_flags_without_a_cluster_file() {
    // Both catalogs have p at priority 0: an ambiguity, as the reference reports it.
    let r = run(&[
        "resolve",
        "--catalogs",
        "catalogs",
        "--extension",
        "p",
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        extension(&json(&r.stdout), "p")["message"],
        r#"found bundles for package "p" in multiple catalogs with the same priority [extra main]"#
    );
    let r = run(&[
        "resolve",
        "--catalogs",
        "catalogs",
        "--extension",
        "p",
        "--channel",
        "beta",
        "--installed",
        "p.v1.0.0@1.0.0",
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let e = json(&r.stdout);
    assert_eq!(extension(&e, "p")["bundle"], "p.v1.0.2");
    assert_eq!(
        extension(&e, "p")["deprecations"][0],
        "channel beta is deprecated, use alpha"
    );
    // SelfCertified allows the downgrade.
    let r = run(&[
        "resolve",
        "--catalog",
        "main=catalogs/main",
        "--extension",
        "p",
        "--version",
        "<1.0.2",
        "--installed",
        "p.v1.0.2@1.0.2",
        "--upgrade-constraint-policy",
        "SelfCertified",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "extension p (package p) (installed p.v1.0.2@1.0.2): p.v0.1.0 0.1.0 from catalog main"
        ),
        "{}",
        r.stdout
    );
}

#[test]
fn malformed_range_exits_2_with_the_reference_text() {
    let r = run(&[
        "resolve",
        "--catalogs",
        "catalogs",
        "--extension",
        "p",
        "--version",
        "1.0.0 || foo",
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        extension(&json(&r.stdout), "p")["message"],
        r#"desired version range "1.0.0 || foo" is invalid: improper constraint: " foo""#
    );
    let r = run(&[
        "resolve",
        "--catalogs",
        "catalogs",
        "--extension",
        "p",
        "--feature-gate",
        "Nope=true",
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("unknown gate \"Nope\""), "{}", r.stderr);
}

#[test]
fn catalog_without_content_is_not_served() {
    let r = run(&[
        "resolve",
        "--catalog",
        "main=catalogs/main",
        "-f",
        "cluster.yaml",
        "-o",
        "json",
        "--explain",
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let v = json(&r.stdout);
    let q = extension(&v, "q");
    assert_eq!(
        q["message"],
        r#"error walking catalogs: error getting package "q" from catalog "extra": catalog "extra" is not being served"#
    );
    assert!(q["explanation"]["hint"]
        .as_str()
        .unwrap()
        .contains("--catalog extra=DIR"));
}

#[test]
fn simulate_hops_to_the_highest_successor_each_reconcile() {
    let r = run(&[
        "simulate",
        "--catalog",
        "main=catalogs/main",
        "--extension",
        "p",
        "--installed",
        "p.v0.1.0@0.1.0",
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r.stdout);
    let hops: Vec<&str> = v["extensions"][0]["hops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["to"].as_str().unwrap())
        .collect();
    // 0.1.0 -> 1.0.2 (skipRange; 1.0.0 and 1.0.1 deprecated) -> 2.0.0 -> 3.0.0.
    assert_eq!(hops, ["p.v1.0.2", "p.v2.0.0", "p.v3.0.0"]);
    assert_eq!(v["extensions"][0]["status"], "converged");
}

#[test]
fn path_olm_v1_and_compare() {
    let r = run(&[
        "path",
        "catalogs/main",
        "--package",
        "p",
        "--from",
        "p.v0.1.0",
        "--olm",
        "v1",
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r.stdout);
    let to: Vec<&str> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["to"].as_str().unwrap())
        .collect();
    assert_eq!(to, ["p.v1.0.2", "p.v2.0.0", "p.v3.0.0"]);
    // Within alpha only, gamma's 3.0.0 is out of reach.
    let r = run(&[
        "path",
        "catalogs/main",
        "--package",
        "p",
        "--from",
        "0.1.0",
        "--olm",
        "v1",
        "--channel",
        "alpha",
        "--to",
        "p.v3.0.0",
    ]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("does not reach p.v3.0.0"), "{}", r.stdout);
    let r = run(&[
        "path",
        "catalogs/main",
        "--package",
        "p",
        "--from",
        "p.v0.1.0",
        "--version",
        "<2",
    ]);
    assert_eq!(r.code, 2);
    let r = run(&[
        "compare-olm",
        "catalogs/main",
        "--package",
        "p",
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let v = json(&r.stdout);
    let row = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["channel"] == "alpha" && r["from"] == "p.v0.1.0")
        .expect("row for alpha from p.v0.1.0");
    assert_eq!(row["v1Path"][0], "p.v1.0.2");
    let r = run(&[
        "compare-olm",
        "catalogs/main",
        "--package",
        "q",
        "-o",
        "json",
    ]);
    let v = json(&r.stdout);
    assert_eq!(v["v1Refuses"][0]["bundle"], "q.v1.1.0");
}

/// The corpus of real catalogs, from `OLMSAT_CORPUS`; `None` (with one printed
/// line) when it is not set.
fn real_corpus() -> Option<PathBuf> {
    common::support::require_full("the OLM v1 real-catalog tests").map(|dir| dir.join("fbc"))
}

/// `resolve --extension` over one real catalog: (bundle, exit code).
fn resolve_real(corpus: &Path, catalog: &str, args: &[&str]) -> (String, i32) {
    let spec = format!("{}={}", "c", corpus.join(catalog).display());
    let mut all = vec!["resolve", "--catalog", spec.as_str(), "-o", "json"];
    all.extend_from_slice(args);
    let r = olmsat_in(corpus, &all, "", &[]);
    let v = json(&r.stdout);
    let e = &v["extensions"][0];
    let answer = if e["status"] == "resolved" {
        format!(
            "{} {}",
            e["bundle"].as_str().unwrap(),
            e["version"].as_str().unwrap()
        )
    } else {
        e["message"].as_str().unwrap_or_default().to_owned()
    };
    (answer, r.code)
}

#[test]
fn real_catalogs_checked_by_hand() {
    let Some(corpus) = real_corpus() else {
        return;
    };
    let community = "community-operators-prod/catalogs/v4.20";
    let certified = "certified-operators/catalogs/v4.20";
    // kube-green alpha is a plain replaces chain: one hop per reconcile.
    assert_eq!(
        resolve_real(
            &corpus,
            &format!("{community}/kube-green"),
            &[
                "--extension",
                "kube-green",
                "--channel",
                "alpha",
                "--installed",
                "kube-green.v0.5.0@0.5.0",
            ]
        ),
        ("kube-green.v0.5.1 0.5.1".to_owned(), 0)
    );
    // sailoperator: every entry's skipRange ">=1.0.0 <X" covers 1.25.0. With no
    // channels and no range, the nightly channel's prerelease is the highest successor.
    let sail = format!("{community}/sailoperator");
    let installed = [
        "--extension",
        "sailoperator",
        "--installed",
        "sailoperator.v1.25.0@1.25.0",
    ];
    assert_eq!(
        resolve_real(&corpus, &sail, &installed),
        (
            "sailoperator.v1.31.0-nightly-2026-08-22 1.31.0-nightly-2026-08-22".to_owned(),
            0
        )
    );
    // A range without a prerelease excludes the nightlies.
    let mut ranged = installed.to_vec();
    ranged.extend(["--version", ">=1.25.0"]);
    assert_eq!(
        resolve_real(&corpus, &sail, &ranged),
        ("sailoperator.v1.30.3 1.30.3".to_owned(), 0)
    );
    let mut stable = installed.to_vec();
    stable.extend(["--channel", "stable"]);
    assert_eq!(
        resolve_real(&corpus, &sail, &stable),
        ("sailoperator.v1.30.3 1.30.3".to_owned(), 0)
    );
    // A downgrade is refused under CatalogProvided.
    let mut down = installed.to_vec();
    down.extend(["--version", "<1.25.0"]);
    assert_eq!(
        resolve_real(&corpus, &sail, &down),
        (r#"error upgrading from currently installed version "1.25.0": no bundles found for package "sailoperator" matching version "<1.25.0""#.to_owned(), 1)
    );
    // cloudnative-pg (certified) stable-v1: replaces only.
    assert_eq!(
        resolve_real(
            &corpus,
            &format!("{certified}/cloudnative-pg"),
            &[
                "--extension",
                "cloudnative-pg",
                "--channel",
                "stable-v1",
                "--installed",
                "cloudnative-pg.v1.29.0@1.29.0",
            ]
        ),
        ("cloudnative-pg.v1.29.1 1.29.1".to_owned(), 0)
    );
    // Reconciles chain the hops: 1.29.0 -> 1.29.1 -> 1.29.2 -> 1.30.0.
    let spec = format!(
        "c={}",
        corpus.join(certified).join("cloudnative-pg").display()
    );
    let r = olmsat_in(
        &corpus,
        &[
            "simulate",
            "--catalog",
            &spec,
            "--extension",
            "cloudnative-pg",
            "--channel",
            "stable-v1",
            "--installed",
            "cloudnative-pg.v1.29.0@1.29.0",
            "-o",
            "json",
        ],
        "",
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r.stdout);
    let hops: Vec<&str> = v["extensions"][0]["hops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["to"].as_str().unwrap())
        .collect();
    assert_eq!(
        hops,
        [
            "cloudnative-pg.v1.29.1",
            "cloudnative-pg.v1.29.2",
            "cloudnative-pg.v1.30.0"
        ]
    );
}

#[test]
fn deleted_catalogs_keep_the_installed_bundle_and_admission_refuses_hyphen_ranges() {
    let r = run(&[
        "resolve",
        "--catalog",
        "main=catalogs/main",
        "-f",
        "deleted-catalogs.yaml",
        "-o",
        "json",
    ]);
    // The hyphen range could not be on a cluster: the input is invalid.
    assert_eq!(r.code, 2, "{}\n{}", r.stdout, r.stderr);
    let v = json(&r.stdout);
    let kept = extension(&v, "kept");
    assert_eq!(kept["status"], "resolved");
    assert_eq!(kept["bundle"], "p.v1.0.0");
    assert_eq!(kept["version"], "1.0.0");
    assert!(kept.get("catalog").is_none(), "{kept}");
    assert!(
        kept["message"].as_str().unwrap().starts_with(
            "kept the installed bundle: no ClusterCatalog matching the extension exists"
        ),
        "{kept}"
    );
    // A version change cannot fall back.
    let other = extension(&v, "wants-another-version");
    assert_eq!(other["status"], "error");
    assert_eq!(
        other["message"],
        r#"error upgrading from currently installed version "1.0.0": no bundles found for package "p" matching version ">=2.0.0""#
    );
    // A matching catalog exists: retried, not kept.
    let there = extension(&v, "catalog-still-there");
    assert_eq!(there["status"], "error");
    assert_eq!(
        there["message"],
        r#"error upgrading from currently installed version "1.0.0": no bundles found for package "absent""#
    );
    let hyphen = extension(&v, "hyphen-range");
    assert_eq!(hyphen["status"], "error");
    assert_eq!(
        hyphen["message"],
        r#"ClusterExtension is invalid: spec.source.catalog.version: Invalid value: "1.2 - 1.4": invalid version expression"#
    );
    // simulate agrees: the kept extension converges where it is.
    let s = run(&[
        "simulate",
        "--catalog",
        "main=catalogs/main",
        "-f",
        "deleted-catalogs.yaml",
        "-o",
        "json",
    ]);
    assert_eq!(s.code, 2, "{}\n{}", s.stdout, s.stderr);
    assert!(s.stdout.contains("\"kept\""), "{}", s.stdout);
}

/// A version longer than the CRD's 64 characters is refused with the API
/// server's text before it is parsed (80,000 characters of range took the
/// range grammar seconds, 5 MB minutes).
#[test]
fn a_long_version_is_refused_before_it_is_parsed() {
    let too_long = "ClusterExtension is invalid: spec.source.catalog.version: Too long: may not be more than 64 bytes";
    let version = format!(">=1.0.0, {}", "<2.0.0 ".repeat(12_000));
    let r = run(&[
        "resolve",
        "--catalog",
        "main=catalogs/main",
        "--extension",
        "p",
        "--version",
        &version,
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(extension(&json(&r.stdout), "p")["message"], too_long);
    // 5 MB of version in a cluster file, one the range grammar refuses too.
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("cluster.yaml");
    std::fs::write(
        &file,
        format!(
            "apiVersion: olm.operatorframework.io/v1\nkind: ClusterExtension\nmetadata: {{name: long}}\nspec:\n  namespace: p\n  source: {{sourceType: Catalog, catalog: {{packageName: p, version: \"{}\"}}}}\n",
            "1.0.0 || foo ".repeat(400_000)
        ),
    )
    .expect("write");
    for command in ["resolve", "simulate"] {
        let r = run(&[
            command,
            "--catalog",
            "main=catalogs/main",
            "-f",
            &file.display().to_string(),
            "-o",
            "json",
        ]);
        assert_eq!(r.code, 2, "{command}: {}", r.stderr);
        assert!(r.stdout.contains(too_long), "{command}: {}", r.stdout);
    }
}

/// A ClusterExtension of an API version that does not exist is not OLM v1's:
/// it is ignored, with a note, and nothing is resolved for it.
#[test]
fn an_extension_of_another_api_version_is_ignored() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("cluster.yaml");
    std::fs::write(
        &file,
        "apiVersion: olm.operatorframework.io/v999\nkind: ClusterExtension\nmetadata: {name: future}\nspec:\n  namespace: p\n  source: {sourceType: Catalog, catalog: {packageName: p}}\n",
    )
    .expect("write");
    let r = run(&[
        "resolve",
        "--catalog",
        "main=catalogs/main",
        "-f",
        &file.display().to_string(),
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(json(&r.stdout).get("extensions").is_none(), "{}", r.stdout);
    assert!(
        r.stderr
            .contains("ignored 1 object(s) of kinds olmsat does not read: olm.operatorframework.io/v999 ClusterExtension (1)"),
        "{}",
        r.stderr
    );
}

/// A plain replaces chain of `n` bundles `p.v0.0.<i>`, as a catalog file.
fn chain(n: usize) -> String {
    let mut text =
        String::from("{\"schema\":\"olm.package\",\"name\":\"p\",\"defaultChannel\":\"stable\"}\n");
    let entries: Vec<String> = (0..n)
        .map(|i| match i {
            0 => "{\"name\":\"p.v0.0.0\"}".to_owned(),
            _ => format!(
                "{{\"name\":\"p.v0.0.{i}\",\"replaces\":\"p.v0.0.{}\"}}",
                i - 1
            ),
        })
        .collect();
    text.push_str(&format!(
        "{{\"schema\":\"olm.channel\",\"package\":\"p\",\"name\":\"stable\",\"entries\":[{}]}}\n",
        entries.join(",")
    ));
    for i in 0..n {
        text.push_str(&format!(
            "{{\"schema\":\"olm.bundle\",\"package\":\"p\",\"name\":\"p.v0.0.{i}\",\"image\":\"example.com/p:{i}\",\"properties\":[{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"p\",\"version\":\"0.0.{i}\"}}}}]}}\n"
        ));
    }
    text
}

/// compare-olm over a plain replaces chain of 2,000 bundles: v0 and v1 both
/// walk it to the head from every start and agree; each path lists its
/// first 100 hops and says how many it has and where it ends.
#[test]
fn compare_olm_walks_a_long_chain_to_its_end() {
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(tmp.path().join("chain")).expect("mkdir");
    std::fs::write(tmp.path().join("chain/catalog.json"), chain(2000)).expect("write");
    let r = olmsat_in(tmp.path(), &["compare-olm", "chain", "-o", "json"], "", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r.stdout);
    assert_eq!(v["starts"], 2000);
    assert_eq!(v["differing"], 0);
    let rows = v["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 2000);
    let first = &rows[0];
    assert_eq!(first["from"], "p.v0.0.0");
    let listed: Vec<&str> = first["v0Path"]
        .as_array()
        .expect("path")
        .iter()
        .map(|s| s.as_str().expect("name"))
        .collect();
    let want: Vec<String> = (1..=100).map(|i| format!("p.v0.0.{i}")).collect();
    assert_eq!(listed, want);
    assert_eq!(first["v1Path"], first["v0Path"]);
    for side in ["v0", "v1"] {
        assert_eq!(first[format!("{side}Hops")], 1999);
        assert_eq!(first[format!("{side}Last")], "p.v0.0.1999");
    }
    assert_eq!(first["v0End"], "head");
    assert_eq!(first["v1End"], "converged");
    // Paths of 100 hops or fewer are listed whole.
    let short = &rows[1899];
    assert_eq!(short["v0Path"].as_array().expect("path").len(), 100);
    assert!(short.get("v0Hops").is_none(), "{short}");
    assert_eq!(rows[1999]["v0Path"].as_array().expect("path").len(), 0);
    assert_eq!(rows[1999]["v1End"], "converged");

    let r = olmsat_in(tmp.path(), &["compare-olm", "chain"], "", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let first = r.stdout.lines().nth(1).expect("v0 line");
    assert!(
        first.ends_with("-> p.v0.0.100 -> … (1898 more hop(s), 1999 in all) -> p.v0.0.1999 [head]"),
        "{first}"
    );
    assert!(r.stdout.ends_with("\n2000 start(s) compared, 0 differ\n"));
    let r = olmsat_in(
        tmp.path(),
        &["compare-olm", "chain", "--only-differences"],
        "",
        &[],
    );
    assert_eq!(r.stdout, "\n2000 start(s) compared, 0 differ\n");
}

/// A catalog of package `p` whose default channel `stable` holds 1.0.0 and
/// whose channel `fast` holds a nightly 1.1.0 prerelease.
const NIGHTLY: &str = r#"{"schema":"olm.package","name":"p","defaultChannel":"stable"}
{"schema":"olm.channel","package":"p","name":"stable","entries":[{"name":"p.v1.0.0"}]}
{"schema":"olm.channel","package":"p","name":"fast","entries":[{"name":"p.v1.0.0"},{"name":"p.v1.1.0-nightly","replaces":"p.v1.0.0"}]}
{"schema":"olm.bundle","package":"p","name":"p.v1.0.0","image":"i:1","properties":[{"type":"olm.package","value":{"packageName":"p","version":"1.0.0"}}]}
{"schema":"olm.bundle","package":"p","name":"p.v1.1.0-nightly","image":"i:2","properties":[{"type":"olm.package","value":{"packageName":"p","version":"1.1.0-nightly"}}]}
"#;

fn nightly_catalog() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("nightly")).unwrap();
    std::fs::write(tmp.path().join("nightly/catalog.json"), NIGHTLY).unwrap();
    tmp
}

/// Issue 31.7: a cluster file with only ClusterExtensions gets no v0 line;
/// a prerelease chosen without a version range gets a note.
#[test]
fn only_v1_input_prints_only_v1_and_a_prerelease_is_noted() {
    let tmp = nightly_catalog();
    std::fs::write(
        tmp.path().join("cluster.yaml"),
        "apiVersion: olm.operatorframework.io/v1\nkind: ClusterExtension\nmetadata:\n  name: p\nspec:\n  namespace: p\n  source:\n    sourceType: Catalog\n    catalog:\n      packageName: p\n",
    )
    .unwrap();
    let r = olmsat_in(
        tmp.path(),
        &["resolve", "--catalog", "c=nightly", "-f", "cluster.yaml"],
        "",
        &[],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.stdout,
        "extension p (package p): p.v1.1.0-nightly 1.1.0-nightly from catalog c\n  note: 1.1.0-nightly is a prerelease: with no version range OLM v1 takes the highest version, prereleases included; a range without a prerelease (e.g. \">=0.0.0\") leaves them out\n"
    );
    let r = olmsat_in(
        tmp.path(),
        &[
            "resolve",
            "--catalog",
            "c=nightly",
            "-f",
            "cluster.yaml",
            "-o",
            "json",
        ],
        "",
        &[],
    );
    let v = json(&r.stdout);
    assert_eq!(v["status"], "resolved");
    assert!(extension(&v, "p")["notes"][0]
        .as_str()
        .unwrap()
        .starts_with("1.1.0-nightly is a prerelease"));
    // With a range, no note.
    let r = olmsat_in(
        tmp.path(),
        &[
            "resolve",
            "--catalog",
            "c=nightly",
            "--extension",
            "p",
            "--version",
            ">=0.0.0",
        ],
        "",
        &[],
    );
    assert_eq!(
        r.stdout,
        "extension p (package p): p.v1.0.0 1.0.0 from catalog c\n"
    );
    // simulate: no v0 lines either.
    let r = olmsat_in(
        tmp.path(),
        &["simulate", "--catalog", "c=nightly", "-f", "cluster.yaml"],
        "",
        &[],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.starts_with("extension p (package p):\n"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("installed:\n"), "{}", r.stdout);
}

/// Issue 31.7: compare-olm says when v0's default channel and v1's pick
/// differ.
#[test]
fn compare_olm_names_different_default_channels() {
    let tmp = nightly_catalog();
    let r = olmsat_in(tmp.path(), &["compare-olm", "nightly"], "", &[]);
    assert!(
        r.stdout.contains("packages whose fresh install OLM v0 and OLM v1 take from different channels (v0 follows defaultChannel, v1 takes the highest version of every channel):\n  p: v0 installs p.v1.0.0 (defaultChannel stable); v1 installs p.v1.1.0-nightly (channel fast)\n"),
        "{}",
        r.stdout
    );
    let r = olmsat_in(
        tmp.path(),
        &["compare-olm", "nightly", "-o", "json"],
        "",
        &[],
    );
    let v = json(&r.stdout);
    assert_eq!(v["defaultChannels"][0]["defaultChannel"], "stable");
    assert_eq!(v["defaultChannels"][0]["v1Bundle"], "p.v1.1.0-nightly");
    assert_eq!(v["defaultChannels"][0]["v1Channels"][0], "fast");
    // The fixture's catalog agrees: no such field.
    let r = run(&["compare-olm", "catalogs/extra", "-o", "json"]);
    assert!(
        json(&r.stdout).get("defaultChannels").is_none(),
        "{}",
        r.stdout
    );
}

/// Issue 31.9: a catalog no ClusterCatalog is named after is named with the
/// ClusterCatalogs there are; a misspelt `--extension` package gets the
/// closest packages.
#[test]
fn names_that_match_nothing_are_named() {
    let r = run(&[
        "resolve",
        "--catalog",
        "mian=catalogs/main",
        "-f",
        "cluster.yaml",
    ]);
    assert!(
        r.stderr.contains("note: catalog \"mian\" has no ClusterCatalog in the cluster file; OLM v1 does not see it (the ClusterCatalogs there: main, extra)\n"),
        "{}",
        r.stderr
    );
    let r = run(&[
        "resolve",
        "--catalog",
        "main=catalogs/main",
        "--extension",
        "pp",
    ]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains(
            "\n  hint: no catalog given has package \"pp\"; the closest packages: p, q\n"
        ),
        "{}",
        r.stdout
    );
    let r = run(&[
        "resolve",
        "--catalog",
        "main=catalogs/main",
        "--extension",
        "pp",
        "-o",
        "json",
    ]);
    assert_eq!(
        extension(&json(&r.stdout), "pp")["hint"],
        "no catalog given has package \"pp\"; the closest packages: p, q"
    );
}

/// A program gets the document the CLI prints: the library's answer,
/// serialized, is `resolve -o json`'s output byte for byte.
#[test]
fn the_library_answer_is_the_cli_json() {
    use olmsat_input::catalogs::CatalogSet;
    use olmsat_resolver::answer::{prepare, resolve, Request, V1Plan};
    use olmsat_resolver::{CatalogInput, ClusterState, Options};

    let dir = fixtures();
    let catalogs = dir.join("catalogs");
    let cluster_file = dir.join("cluster.yaml");
    let r = run(&[
        "resolve",
        "--catalogs",
        &catalogs.display().to_string(),
        "-f",
        &cluster_file.display().to_string(),
        "-o",
        "json",
    ]);
    let set = CatalogSet::parse(Some(&catalogs), &[], false).unwrap();
    let request = Request::default();
    let cluster = ClusterState::read_inputs(&[&cluster_file], false).unwrap();
    let plan = V1Plan::of(&request, &cluster).unwrap();
    let loaded = set
        .load(&olmsat_input::Options::default(), |name, config| {
            plan.as_ref()
                .and_then(|p| p.content(&cluster, name, config))
        })
        .unwrap();
    let read = loaded.catalogs.into_iter().map(|c| {
        let catalog = CatalogInput {
            name: c.name,
            model: c.model,
        };
        (catalog, c.derived)
    });
    let prepared = prepare(&request, read, cluster, loaded.notes).unwrap();
    let answer = resolve(&prepared, Options::default(), false);
    assert_eq!(i32::from(answer.exit_code()), r.code);
    let mut text = serde_json::to_string_pretty(&answer).unwrap();
    text.push('\n');
    assert_eq!(text, r.stdout);
}
