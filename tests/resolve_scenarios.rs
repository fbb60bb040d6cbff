//! Resolution scenarios: each directory of `tests/scenarios/` holds `catalogs/`
//! (one catalog per subdirectory), `cluster.yaml` (Subscriptions, installed CSVs,
//! CatalogSources) and `expected.json` (the status, and the operators or the
//! message). The `s*` scenarios are transcribed from OLM's own resolver tests; the
//! `r*` ones cover further rules.

mod common;

use common::olmsat;

#[test]
fn every_scenario_resolves_as_expected() {
    let dir = common::root().join("tests/scenarios");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("scenarios")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 26, "{names:?}");
    let mut failures = Vec::new();
    for name in &names {
        let d = format!("tests/scenarios/{name}");
        let o = olmsat(&[
            "resolve",
            "--catalogs",
            &format!("{d}/catalogs"),
            "-f",
            &format!("{d}/cluster.yaml"),
            "-o",
            "json",
        ]);
        let got: serde_json::Value = match serde_json::from_slice(&o.stdout) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{name}: not JSON ({e}): {}", common::stderr(&o)));
                continue;
            }
        };
        let expected: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(common::root().join(&d).join("expected.json"))
                .expect("expected.json"),
        )
        .expect("expected JSON");
        let code = match expected["status"].as_str() {
            Some("resolved") => 0,
            Some("unsatisfiable") => 1,
            _ => 2,
        };
        if o.status.code() != Some(code) {
            failures.push(format!(
                "{name}: exit code {:?}, want {code}",
                o.status.code()
            ));
        }
        for key in ["status", "operators", "message"] {
            if expected.get(key).is_some_and(|v| !v.is_null()) && got.get(key) != expected.get(key)
            {
                failures.push(format!(
                    "{name}: {key}\n  got:  {}\n  want: {}",
                    got[key], expected[key]
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn answers_are_deterministic() {
    let d = "tests/scenarios/s03-transitive-same-catalog";
    let args = [
        "resolve",
        "--catalogs",
        &format!("{d}/catalogs"),
        "-f",
        &format!("{d}/cluster.yaml"),
        "-o",
        "json",
        "--explain",
    ];
    let a = olmsat(&args);
    for _ in 0..3 {
        assert_eq!(olmsat(&args).stdout, a.stdout);
    }
}

#[test]
fn text_output_explains() {
    let d = "tests/scenarios/s07-unsat-explained";
    let o = olmsat(&[
        "resolve",
        "--catalogs",
        &format!("{d}/catalogs"),
        "-f",
        &format!("{d}/cluster.yaml"),
        "--explain",
    ]);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!(common::stdout(&o));
    let o = olmsat(&[
        "resolve",
        "--catalog",
        "community=corpus/catalogs/etcd-example",
        "--subscribe",
        "etcd-backup",
        "--explain",
    ]);
    assert_eq!(o.status.code(), Some(0));
    insta::assert_snapshot!("subscribe_explain", common::stdout(&o));
}

#[test]
fn usage_errors() {
    let o = olmsat(&[
        "resolve",
        "-f",
        "tests/scenarios/s01-gvk-dependency/cluster.yaml",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(common::stderr(&o).contains("no catalogs"));
    let o = olmsat(&["resolve", "--catalog", "nonsense"]);
    assert_eq!(o.status.code(), Some(2));
    let o = olmsat(&[
        "resolve",
        "--catalog",
        "c=corpus/catalogs/etcd-example",
        "--subscribe",
        "nope",
        "-o",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["status"], "error");
}

#[test]
fn simulate_walks_the_upgrade_graph() {
    let args = [
        "simulate",
        "--catalog",
        "community=corpus/catalogs/etcd-example",
        "-f",
        "corpus/clusters/etcd-upgrade.yaml",
        "--subscribe",
        "etcd-backup",
    ];
    let o = olmsat(&args);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    insta::assert_snapshot!(common::stdout(&o));
    let mut json_args = args.to_vec();
    json_args.extend(["-o", "json"]);
    let o = olmsat(&json_args);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["status"], "converged");
    assert_eq!(v["steps"].as_array().map(Vec::len), Some(2));
    assert_eq!(
        v["steps"][0]["operators"][1]["replaces"],
        "etcdoperator.v0.9.0"
    );
    assert_eq!(v["installed"][1]["name"], "etcdoperator.v0.9.5");
}

#[test]
fn upgrade_resolution_explains_passed_over_candidates() {
    let o = olmsat(&[
        "resolve",
        "--catalog",
        "community=corpus/catalogs/etcd-example",
        "-f",
        "corpus/clusters/etcd-upgrade.yaml",
        "-o",
        "json",
        "--explain",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["operators"][0]["name"], "etcdoperator.v0.9.4");
    assert_eq!(v["operators"][0]["replaces"], "etcdoperator.v0.9.0");
}

/// Round trip over real bundles: build a catalog from the stackable operators'
/// bundle directories, validate it, and resolve a subscription whose bundle
/// requires exact versions of two other packages.
#[test]
fn bundles_to_catalog_to_resolution() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("certified");
    let Some(corpus) = common::support::require_full("bundles_to_catalog_to_resolution") else {
        return;
    };
    let base = corpus.join("bundles/certified-operators");
    let dirs: Vec<String> = ["commons", "secret", "listener", "zookeeper"]
        .iter()
        .map(|p| {
            base.join(format!("stackable-{p}-operator"))
                .display()
                .to_string()
        })
        .collect();
    let mut args = vec!["catalog", "from-bundles"];
    args.extend(dirs.iter().map(String::as_str));
    let out_s = out.display().to_string();
    args.extend(["--output-dir", &out_s, "--mode", "semver"]);
    let o = olmsat(&args);
    // The bundles' own spec.skips repeat their replaces, which cuts opm's chain
    // walk in the `stable` channel (operator-registry #1750): opm rejects it too,
    // and from-bundles, which validates what it wrote, says so (exit 1).
    assert_eq!(o.status.code(), Some(1), "{}", common::stderr(&o));
    assert!(common::stderr(&o).contains("error[stranded-bundles]: "));
    let o = olmsat(&["validate", "-o", "json", &out_s]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let errors: Vec<&str> = v["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .filter_map(|e| e["message"].as_str())
        .collect();
    assert_eq!(errors.len(), 4, "{errors:#?}");
    assert!(errors
        .iter()
        .all(|e| e.starts_with("channel contains one or more stranded bundles")));
    let cluster = tmp.path().join("cluster.yaml");
    std::fs::write(
        &cluster,
        "kind: Subscription\nmetadata: {name: zookeeper, namespace: stackable}\n\
         spec: {name: stackable-zookeeper-operator, channel: stable, source: certified, startingCSV: zookeeper-operator.v24.3.0}\n",
    )
    .expect("write");
    let o = olmsat(&[
        "resolve",
        "--catalogs",
        &tmp.path().display().to_string(),
        "-f",
        &cluster.display().to_string(),
        "-o",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stdout(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let names: Vec<&str> = v["operators"]
        .as_array()
        .expect("operators")
        .iter()
        .filter_map(|o| o["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "commons-operator.v24.3.0",
            "secret-operator.v24.3.0",
            "zookeeper-operator.v24.3.0"
        ]
    );
}

/// `olmsat resolve` of scenario `name`, in text or (with `json`) as JSON.
fn resolve_scenario(name: &str, json: bool) -> std::process::Output {
    let d = format!("tests/scenarios/{name}");
    let mut args = vec![
        "resolve".to_owned(),
        "--catalogs".to_owned(),
        format!("{d}/catalogs"),
        "-f".to_owned(),
        format!("{d}/cluster.yaml"),
    ];
    if json {
        args.extend(["-o".to_owned(), "json".to_owned()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    olmsat(&args)
}

#[test]
fn a_deprecated_bundle_is_named_as_olm_names_it() {
    // OLM's message names the bundle by its identifier; the summary before
    // it names the bundle.
    let o = resolve_scenario("r12-deprecated-only-candidate", false);
    assert_eq!(o.status.code(), Some(1), "{}", common::stderr(&o));
    assert_eq!(
        common::stdout(&o).lines().collect::<Vec<_>>(),
        [
            "namespace operators: unsatisfiable",
            "  why: foo.v1.0.0, the only candidate of subscription foo (package foo) is deprecated",
            "    hint: subscribe to a channel or version that is not deprecated (`olmsat list bundles` shows them)",
            "  OLM's message: constraints not satisfiable: bundle community/operators/stable/foo.v1.0.0 is deprecated, subscription foo exists, subscription foo requires community/operators/stable/foo.v1.0.0",
        ]
    );
    // An installed CSV is a bundle of the virtual @existing catalog, with no
    // channel.
    let o = resolve_scenario("r13-deprecated-installed-csv", true);
    assert_eq!(o.status.code(), Some(1), "{}", common::stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(
        v["message"],
        "constraints not satisfiable: bundle @existing/operators//foo.v1.0.0 is deprecated, clusterserviceversion foo.v1.0.0 exists and is not referenced by a subscription"
    );
}

#[test]
fn a_bad_range_is_olms_error_first_and_whole() {
    for (name, message) in [
        (
            "r06-bad-range-is-an-error",
            r#"Could not parse Range "^1.0.0": Could not parse comparator "^" in "^1.0.0" (bundle "a.v1", olm.package.required for "b")"#,
        ),
        (
            "r14-bad-constraint-range-is-an-error",
            r#"convert olm.constraint to resolver predicate: Could not parse Range "^1.0.0": Could not parse comparator "^" in "^1.0.0" (bundle "a.v1", olm.constraint for "b")"#,
        ),
    ] {
        let o = resolve_scenario(name, false);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", common::stderr(&o));
        assert_eq!(
            common::stdout(&o).lines().next(),
            Some(format!("namespace operators: error: {message}").as_str()),
            "{name}"
        );
        let o = resolve_scenario(name, true);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", common::stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        assert_eq!(v["status"], "error", "{name}");
        assert_eq!(v["message"], message, "{name}");
    }
}

#[test]
fn two_subscriptions_to_one_package_are_named_as_the_cause() {
    let o = resolve_scenario("r16-two-subscriptions-one-package", false);
    assert_eq!(o.status.code(), Some(1), "{}", common::stderr(&o));
    assert_eq!(
        common::stdout(&o).lines().collect::<Vec<_>>(),
        [
            "namespace operators: unsatisfiable",
            "  why: subscriptions foo and foo-beta both subscribe to package foo in namespace operators: OLM installs at most one operator of a package in a namespace, so their candidates clash",
            "    hint: keep one Subscription per package in a namespace: delete \"foo\" or \"foo-beta\"",
            "  OLM's message: constraints not satisfiable: community/operators/beta/foo.v2.0.0 and community/operators/stable/foo.v1.0.0 originate from package foo, subscription foo exists, subscription foo requires community/operators/stable/foo.v1.0.0, subscription foo-beta exists, subscription foo-beta requires community/operators/beta/foo.v2.0.0",
        ]
    );
}
