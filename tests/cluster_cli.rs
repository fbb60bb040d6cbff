//! Cluster state as people dump it (`tests/cluster/`): each case holds the
//! dump (`cluster.yaml`, or a directory `cluster/` such as a must-gather tree)
//! and `expected.json`, OLM's per-namespace answer over the example catalog
//! (`corpus/catalogs/etcd-example`, named `community`). `resolve` and
//! `simulate` must agree on every case and on every resolution scenario.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{olmsat, olmsat_stdin};
use serde_json::Value;

const CATALOG: &str = "community=corpus/catalogs/etcd-example";

fn json(o: &std::process::Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}):\n{}\n{}",
            common::stdout(o),
            common::stderr(o)
        )
    })
}

/// The case's dump: `cluster.yaml`, else the directory `cluster/`.
fn dump(case: &str) -> String {
    let file = format!("tests/cluster/{case}/cluster.yaml");
    if common::root().join(&file).is_file() {
        file
    } else {
        format!("tests/cluster/{case}/cluster")
    }
}

fn cases() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(common::root().join("tests/cluster"))
        .expect("tests/cluster")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn exit_of(status: &str) -> i32 {
    match status {
        "resolved" | "converged" => 0,
        "unsatisfiable" | "limit" => 1,
        _ => 2,
    }
}

/// `name<-replaces` for each operator of a JSON list.
fn changes(ops: &Value) -> Vec<String> {
    ops.as_array()
        .expect("operators")
        .iter()
        .map(|o| {
            format!(
                "{}<-{}",
                o["name"].as_str().expect("name"),
                o["replaces"].as_str().expect("replaces")
            )
        })
        .collect()
}

#[test]
fn every_dump_gets_olms_per_namespace_answer() {
    let names = cases();
    assert!(names.len() >= 5, "{names:?}");
    let mut failures = Vec::new();
    for case in &names {
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(
                common::root().join(format!("tests/cluster/{case}/expected.json")),
            )
            .expect("expected.json"),
        )
        .expect("expected JSON");
        let input = dump(case);
        let o = olmsat(&["resolve", "--catalog", CATALOG, "-f", &input, "-o", "json"]);
        let got = json(&o);
        let mut fail = |what: String| failures.push(format!("{case}: {what}"));
        let status = expected["status"].as_str().expect("status");
        if got["status"] != status {
            fail(format!("status {}, want {status}", got["status"]));
        }
        if o.status.code() != Some(exit_of(status)) {
            fail(format!("exit code {:?}", o.status.code()));
        }
        if let Some(m) = expected.get("message") {
            if &got["message"] != m {
                fail(format!("message {}, want {m}", got["message"]));
            }
        }
        let got_ns: BTreeMap<&str, &Value> = got["namespaces"]
            .as_array()
            .expect("namespaces")
            .iter()
            .map(|n| (n["namespace"].as_str().expect("namespace"), n))
            .collect();
        let want_ns = expected["namespaces"].as_object().expect("namespaces");
        let got_names: Vec<&str> = got_ns.keys().copied().collect();
        let want_names: Vec<&str> = want_ns.keys().map(String::as_str).collect();
        if got_names != want_names {
            fail(format!("namespaces {got_names:?}, want {want_names:?}"));
        }
        let mut all_planned = Vec::new();
        for (ns, want) in want_ns {
            let Some(got) = got_ns.get(ns.as_str()) else {
                continue;
            };
            if got["status"] != want["status"] {
                fail(format!(
                    "{ns}: status {}, want {}",
                    got["status"], want["status"]
                ));
            }
            if changes(&got["operators"]) != changes(&want["operators"]) {
                fail(format!(
                    "{ns}: operators {:?}, want {:?}",
                    changes(&got["operators"]),
                    changes(&want["operators"])
                ));
            }
            if got["status"] == "resolved" {
                all_planned.extend(
                    changes(&got["operators"])
                        .into_iter()
                        .map(|c| format!("{ns}/{c}")),
                );
            }
            if let Some(m) = want.get("message") {
                if &got["message"] != m {
                    fail(format!("{ns}: message {}, want {m}", got["message"]));
                }
            }
            let warnings: Vec<&str> = got["warnings"]
                .as_array()
                .map(|w| w.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let want_warnings: Vec<&str> = want["warnings"]
                .as_array()
                .map(|w| w.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if warnings.len() != want_warnings.len()
                || !want_warnings
                    .iter()
                    .all(|w| warnings.iter().any(|g| g.contains(w)))
            {
                fail(format!(
                    "{ns}: warnings {warnings:#?}, want {want_warnings:#?}"
                ));
            }
        }
        // The top-level plan is every planned change of the namespaces that resolved.
        let mut top: Vec<String> = got["operators"]
            .as_array()
            .expect("operators")
            .iter()
            .map(|o| {
                format!(
                    "{}/{}<-{}",
                    o["namespace"].as_str().expect("namespace"),
                    o["name"].as_str().expect("name"),
                    o["replaces"].as_str().expect("replaces")
                )
            })
            .collect();
        top.sort();
        all_planned.sort();
        if top != all_planned {
            fail(format!("top-level operators {top:?}, want {all_planned:?}"));
        }
        let notes: Vec<&str> = got["notes"]
            .as_array()
            .map(|w| w.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let want_notes: Vec<&str> = expected["notes"]
            .as_array()
            .expect("notes")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        if notes.len() != want_notes.len()
            || !want_notes.iter().zip(&notes).all(|(w, g)| g.starts_with(w))
        {
            fail(format!("notes {notes:#?}, want {want_notes:#?}"));
        }
        // simulate: how it ends and what is installed (copies are not).
        let o = olmsat(&["simulate", "--catalog", CATALOG, "-f", &input, "-o", "json"]);
        let sim = json(&o);
        let want = &expected["simulate"];
        if sim["status"] != want["status"] {
            fail(format!(
                "simulate status {}, want {}",
                sim["status"], want["status"]
            ));
        }
        if o.status.code() != Some(exit_of(want["status"].as_str().expect("status"))) {
            fail(format!("simulate exit code {:?}", o.status.code()));
        }
        let installed: Vec<String> = sim["installed"]
            .as_array()
            .expect("installed")
            .iter()
            .map(|i| {
                format!(
                    "{}/{}",
                    i["namespace"].as_str().expect("ns"),
                    i["name"].as_str().expect("name")
                )
            })
            .collect();
        let want_installed: Vec<&str> = want["installed"]
            .as_array()
            .expect("installed")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        if installed != want_installed {
            fail(format!("installed {installed:?}, want {want_installed:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `resolve` and `simulate` agree: a namespace that resolves plans exactly
/// the first step `simulate` takes there (none when nothing changes), and one
/// that fails ends `simulate` there with the same message.
fn check_agreement(what: &str, catalogs: &[&str], cluster: &str, failures: &mut Vec<String>) {
    let run = |command: &str| {
        let mut args = vec![command];
        args.extend_from_slice(catalogs);
        args.extend(["-f", cluster, "-o", "json"]);
        json(&olmsat(&args))
    };
    let resolved = run("resolve");
    let simulated = run("simulate");
    if resolved["status"] == "error" && resolved.get("namespaces").is_none() {
        // The input itself cannot be read: both commands must say so.
        if simulated["status"] != "error" || simulated["message"] != resolved["message"] {
            failures.push(format!("{what}: resolve {resolved}, simulate {simulated}"));
        }
        return;
    }
    let ends: BTreeMap<&str, &Value> = simulated["namespaces"]
        .as_array()
        .expect("simulate namespaces")
        .iter()
        .map(|n| (n["namespace"].as_str().expect("namespace"), n))
        .collect();
    for ns in resolved["namespaces"].as_array().expect("namespaces") {
        let name = ns["namespace"].as_str().expect("namespace");
        let Some(end) = ends.get(name) else {
            failures.push(format!("{what}: simulate has no namespace {name}"));
            continue;
        };
        let first_step = simulated["steps"]
            .as_array()
            .expect("steps")
            .iter()
            .find(|s| s["namespace"] == name)
            .map(|s| s["operators"].clone())
            .unwrap_or_else(|| Value::Array(Vec::new()));
        let agree = match ns["status"].as_str() {
            Some("resolved") => {
                first_step == ns["operators"]
                    && (end["status"] == "converged" || end["status"] == "limit")
            }
            Some("unsatisfiable") => {
                end["status"] == "unsatisfiable"
                    && end["message"] == ns["message"]
                    && first_step == Value::Array(Vec::new())
            }
            _ => end["status"] == "error" && end["message"] == ns["message"],
        };
        if !agree {
            failures.push(format!(
                "{what}: namespace {name}: resolve {ns}\n  simulate {end}, first step {first_step}"
            ));
        }
    }
    if ends.len() != resolved["namespaces"].as_array().map_or(0, Vec::len) {
        failures.push(format!("{what}: namespaces differ"));
    }
}

#[test]
fn resolve_and_simulate_agree_on_every_test_input() {
    let mut failures = Vec::new();
    for case in cases() {
        check_agreement(&case, &["--catalog", CATALOG], &dump(&case), &mut failures);
    }
    let scenarios = common::root().join("tests/scenarios");
    let mut names: Vec<String> = std::fs::read_dir(&scenarios)
        .expect("scenarios")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        let catalogs = format!("tests/scenarios/{name}/catalogs");
        let cluster = format!("tests/scenarios/{name}/cluster.yaml");
        check_agreement(&name, &["--catalogs", &catalogs], &cluster, &mut failures);
    }
    check_agreement(
        "etcd-upgrade",
        &["--catalog", CATALOG],
        "corpus/clusters/etcd-upgrade.yaml",
        &mut failures,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn standard_input_and_repeated_files_are_read() {
    let file = "tests/cluster/copied-csvs/cluster.yaml";
    let from_file = olmsat(&["resolve", "--catalog", CATALOG, "-f", file, "-o", "json"]);
    let text = std::fs::read(common::root().join(file)).expect("dump");
    let from_stdin = olmsat_stdin(
        &["resolve", "--catalog", CATALOG, "-f", "-", "-o", "json"],
        &text,
    );
    assert_eq!(
        from_stdin.status.code(),
        Some(0),
        "{}",
        common::stderr(&from_stdin)
    );
    assert_eq!(from_stdin.stdout, from_file.stdout);
    // Locations name standard input.
    let o = olmsat_stdin(
        &["resolve", "--catalog", CATALOG, "-f", "-", "-o", "json"],
        b"kind: Subscription\nmetadata: {name: a, namespace: ops}\nspec: {name: etcd, source: nowhere}\n",
    );
    let v = json(&o);
    assert!(
        v["namespaces"][0]["warnings"][0].as_str().is_some_and(
            |w| w.starts_with("<stdin>:1: subscription ops/a uses catalog \"nowhere\"")
        ),
        "{v}"
    );
    // Two files, one state: the namespaces of both.
    let o = olmsat(&[
        "resolve",
        "--catalog",
        CATALOG,
        "-f",
        "tests/cluster/two-namespaces/cluster.yaml",
        "-f",
        "tests/cluster/copied-csvs/cluster.yaml",
        "-o",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v = json(&o);
    let names: Vec<&str> = v["namespaces"]
        .as_array()
        .expect("namespaces")
        .iter()
        .filter_map(|n| n["namespace"].as_str())
        .collect();
    assert_eq!(names, ["bad", "good", "operators", "team-a"]);
    // A directory and a file in it: each object once.
    let o = olmsat(&[
        "resolve",
        "--catalog",
        CATALOG,
        "-f",
        "tests/cluster/must-gather/cluster",
        "-f",
        "tests/cluster/must-gather/cluster/namespaces/operators/operators.coreos.com/subscriptions/etcd.yaml",
        "-o",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let v = json(&o);
    assert_eq!(v["operators"][0]["name"], "etcdoperator.v0.9.4");
    assert!(
        common::stderr(&o).contains("note: read 1 object(s) more than once"),
        "{}",
        common::stderr(&o)
    );
}

#[test]
fn text_answers_have_a_section_per_namespace() {
    let o = olmsat(&[
        "resolve",
        "--catalog",
        CATALOG,
        "-f",
        "tests/cluster/two-namespaces/cluster.yaml",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        common::stdout(&o),
        "namespace bad: unsatisfiable\n  why: no operators found in channel nightly of package etcd in the catalog referenced by subscription etcd\n    hint: package etcd has these channels, closest first: alpha, stable (default stable)\n  OLM's message: constraints not satisfiable: no operators found in channel nightly of package etcd in the catalog referenced by subscription etcd, subscription etcd exists\n\
         \n\
         namespace good: resolved, 1 operator(s) to install or upgrade\n  \
         etcdoperator.v0.9.5  install (package etcd, channel stable, catalog community, version 0.9.5)\n"
    );
    let o = olmsat(&[
        "simulate",
        "--catalog",
        CATALOG,
        "-f",
        "tests/cluster/two-namespaces/cluster.yaml",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = common::stdout(&o);
    assert!(out.contains("namespace bad: stopped: unsatisfiable\n  why: no operators found in channel nightly of package etcd in the catalog referenced by subscription etcd\n    hint: package etcd has these channels, closest first: alpha, stable (default stable)\n  OLM's message: constraints not satisfiable: no operators found in channel nightly"), "{out}");
    assert!(
        out.contains("namespace good: converged after 1 step(s)\n"),
        "{out}"
    );
    let o = olmsat(&[
        "simulate",
        "--catalog",
        CATALOG,
        "-f",
        "tests/cluster/copied-csvs/cluster.yaml",
    ]);
    assert!(
        common::stderr(&o).contains("note: skipped 3 copied ClusterServiceVersion(s)"),
        "{}",
        common::stderr(&o)
    );
}

#[test]
fn subscribe_says_which_namespace_it_adds_to() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let one_group = tmp.path().join("one-group.yaml");
    std::fs::write(
        &one_group,
        "kind: OperatorGroup\nmetadata: {name: og, namespace: ops}\nspec: {}\n---\nkind: ClusterServiceVersion\nmetadata: {name: packageserver, namespace: olm}\nspec: {version: 0.28.0}\n",
    )
    .expect("write");
    let one_group = one_group.display().to_string();
    // Each namespace's status (the one `--subscribe` adds to holds the only
    // Subscription to etcd), and the notes.
    let run = |args: &[&str]| {
        let mut all = vec![
            "resolve",
            "--catalog",
            CATALOG,
            "--subscribe",
            "etcd",
            "-o",
            "json",
        ];
        all.extend_from_slice(args);
        let o = olmsat(&all);
        let v = json(&o);
        let statuses: BTreeMap<String, String> = v["namespaces"]
            .as_array()
            .expect("namespaces")
            .iter()
            .map(|n| {
                (
                    n["namespace"].as_str().unwrap_or("").to_owned(),
                    n["status"].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect();
        (v, statuses, common::stderr(&o))
    };
    let (v, _, err) = run(&["-f", &one_group]);
    assert_eq!(v["operators"][0]["namespace"], "ops");
    assert!(err.contains("note: --subscribe adds to namespace ops (the namespace of OperatorGroup \"og\", the only one in the cluster state)"), "{err}");
    // A namespace without an OperatorGroup is one OLM does not resolve.
    let (v, statuses, err) = run(&["-f", &one_group, "--namespace", "team-b"]);
    assert_eq!(
        statuses.get("team-b").map(String::as_str),
        Some("error"),
        "{v}"
    );
    assert!(
        err.contains("namespace team-b (given with --namespace)"),
        "{err}"
    );
    let (v, _, err) = run(&[]);
    assert_eq!(v["operators"][0]["namespace"], "default");
    assert!(
        err.contains("namespace default (the cluster state has no OperatorGroup"),
        "{err}"
    );
    // Several OperatorGroups, one of them for all namespaces (OpenShift's
    // openshift-operators): that one's namespace.
    let global = tmp.path().join("global.yaml");
    std::fs::write(
        &global,
        "kind: OperatorGroup\nmetadata: {name: global-operators, namespace: openshift-operators}\nspec: {}\n---\nkind: OperatorGroup\nmetadata: {name: own, namespace: team-a}\nspec: {targetNamespaces: [team-a]}\n",
    )
    .expect("write");
    let (v, _, err) = run(&["-f", &global.display().to_string()]);
    assert_eq!(v["operators"][0]["namespace"], "openshift-operators", "{v}");
    assert!(err.contains("note: --subscribe adds to namespace openshift-operators (the namespace of OperatorGroup \"global-operators\", the only one for all namespaces; OperatorGroups are in 2 namespaces, choose another with --namespace)"), "{err}");
    let (v, statuses, err) = run(&["-f", "tests/cluster/two-namespaces/cluster.yaml"]);
    assert_eq!(
        statuses.get("default").map(String::as_str),
        Some("error"),
        "{v}"
    );
    assert!(
        err.contains(
            "namespace default (OperatorGroups are in 2 namespaces; choose one with --namespace)"
        ),
        "{err}"
    );
}

#[test]
fn unreadable_dumps_say_where_and_what() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dup = tmp.path().join("dup.yaml");
    std::fs::write(
        &dup,
        "kind: List\nitems:\n- kind: Subscription\n  metadata:\n    name: a\n    name: b\n",
    )
    .expect("write");
    let dup = dup.display().to_string();
    let o = olmsat(&["resolve", "--catalog", CATALOG, "-f", &dup]);
    assert_eq!(o.status.code(), Some(2));
    let err = common::stderr(&o);
    assert_eq!(
        err,
        format!("olmsat: {dup}:6:5: invalid YAML: duplicate key \"name\" (a mapping holds each key once; remove or rename one of them)\n")
    );
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).expect("mkdir");
    let o = olmsat(&[
        "resolve",
        "--catalog",
        CATALOG,
        "-f",
        &empty.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(common::stderr(&o).contains("no .yaml, .yml or .json file in this directory"));
    let o = olmsat(&[
        "simulate",
        "--catalog",
        CATALOG,
        "-f",
        &tmp.path().join("missing.yaml").display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(Path::new(&dup).is_file());
}

/// A dump against real catalog content (the repository's copy of the
/// external-dns-operator catalog): OpenShift's catalogs live in
/// `openshift-marketplace`, which only `--global-namespace` makes every
/// namespace see; the copies in `default` and `team-a` are skipped.
#[test]
fn a_real_catalog_on_openshift() {
    let catalog = "redhat-operators=corpus/real/fbc/external-dns-operator/catalog/v4.20";
    let dump = "tests/cluster-real/external-dns.yaml";
    let o = olmsat(&[
        "resolve",
        "--catalog",
        catalog,
        "-f",
        dump,
        "--global-namespace",
        "olm",
        "-o",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v = json(&o);
    assert!(
        v["namespaces"][0]["warnings"][0].as_str().is_some_and(|w| w
            .contains("which namespace openshift-operators does not see")
            && w.contains("--global-namespace openshift-marketplace")),
        "{v}"
    );
    let args = [
        "--catalog",
        catalog,
        "-f",
        dump,
        "--global-namespace",
        "openshift-marketplace",
        "-o",
        "json",
    ];
    let mut resolve_args = vec!["resolve"];
    resolve_args.extend(args);
    let o = olmsat(&resolve_args);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let v = json(&o);
    let planned: Vec<String> = v["operators"]
        .as_array()
        .expect("operators")
        .iter()
        .map(|o| {
            format!(
                "{}/{}<-{}",
                o["namespace"].as_str().unwrap_or(""),
                o["name"].as_str().unwrap_or(""),
                o["replaces"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(
        planned,
        [
            "openshift-operators/external-dns-operator.v1.3.8<-external-dns-operator.v1.2.0",
            "team-a/external-dns-operator.v1.3.8<-"
        ]
    );
    assert_eq!(
        v["notes"][0]
            .as_str()
            .map(|n| n.starts_with("skipped 2 copied")),
        Some(true),
        "{v}"
    );
    // Without --global-namespace, the dump itself says which namespace is
    // global: every CatalogSource is in openshift-marketplace and every
    // Subscription names it.
    let o = olmsat(&["resolve", "--catalog", catalog, "-f", dump, "-o", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let inferred = json(&o);
    assert_eq!(inferred["operators"], v["operators"]);
    assert!(
        common::stderr(&o).contains("note: the global catalog namespace is taken to be openshift-marketplace: every CatalogSource is in it and every Subscription names it as sourceNamespace (give --global-namespace to choose another)"),
        "{}",
        common::stderr(&o)
    );
    let mut failures = Vec::new();
    check_agreement(
        "external-dns",
        &[
            "--catalog",
            catalog,
            "--global-namespace",
            "openshift-marketplace",
        ],
        dump,
        &mut failures,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Copy the tree at `from` into `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read dir") {
        let e = e.expect("entry");
        let dest = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy_tree(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).expect("copy");
        }
    }
}

#[cfg(unix)]
fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).expect("path");
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// A must-gather tree holding a link to a registry credentials file outside
/// it, a link to `/etc/passwd`, a named pipe and an ACM Subscription: the
/// links are not followed and the pipe not opened (each said in a note),
/// the ACM object is another API's, and OLM's answer is the tree's own.
#[cfg(unix)]
#[test]
fn a_must_gather_is_read_without_leaving_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let secrets = tmp.path().join("secrets");
    std::fs::create_dir(&secrets).expect("mkdir");
    std::fs::write(
        secrets.join("config.json"),
        r#"{"auths": {"quay.io": {"auth": "c2VjcmV0LXRva2Vu"}}}"#,
    )
    .expect("write");
    let dump = tmp.path().join("must-gather");
    copy_tree(
        &common::root().join("tests/cluster/must-gather/cluster"),
        &dump,
    );
    let ns = dump.join("namespaces/operators");
    std::os::unix::fs::symlink(secrets.join("config.json"), ns.join("pull-secret.json"))
        .expect("link");
    std::os::unix::fs::symlink("/etc/passwd", ns.join("passwd.yaml")).expect("link");
    mkfifo(&ns.join("events.yaml"));
    let acm = ns.join("apps.open-cluster-management.io/subscriptions");
    std::fs::create_dir_all(&acm).expect("mkdir");
    std::fs::write(
        acm.join("app.yaml"),
        "apiVersion: apps.open-cluster-management.io/v1\nkind: Subscription\nmetadata:\n  name: app\n  namespace: operators\nspec:\n  channel: apps/git\n  placement: {placementRef: {name: all, kind: PlacementRule}}\n",
    )
    .expect("write");
    let o = olmsat(&[
        "resolve",
        "--catalog",
        CATALOG,
        "-f",
        &dump.display().to_string(),
        "-o",
        "json",
    ]);
    let err = common::stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("auths") && !err.contains("root:"), "{err}");
    let v = json(&o);
    let ops = v["namespaces"]
        .as_array()
        .expect("namespaces")
        .iter()
        .find(|n| n["namespace"] == "operators")
        .expect("operators");
    assert_eq!(
        changes(&ops["operators"]),
        ["etcdoperator.v0.9.4<-etcdoperator.v0.9.2"]
    );
    let notes: Vec<&str> = v["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .map(|n| n.as_str().expect("text"))
        .collect();
    let pipe = format!(
        "skipped {}: a named pipe, not a regular file; olmsat does not open it",
        ns.join("events.yaml").display()
    );
    assert!(notes.contains(&pipe.as_str()), "{notes:?}");
    for link in ["pull-secret.json", "passwd.yaml"] {
        let start = format!("skipped {}: a symbolic link to ", ns.join(link).display());
        assert!(notes.iter().any(|n| n.starts_with(&start)), "{notes:?}");
        assert!(err.contains(&format!("note: {start}")), "{err}");
    }
    assert!(
        notes
            .iter()
            .any(|n| n.contains("apps.open-cluster-management.io/v1 Subscription (1)")),
        "{notes:?}"
    );
}

/// A Knative Subscription in the namespace of a valid upgrade is another
/// API's object: the upgrade stands.
#[test]
fn another_apis_subscription_does_not_change_the_answer() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dump = tmp.path().join("cluster.yaml");
    let mut text =
        std::fs::read_to_string(common::root().join("corpus/clusters/etcd-upgrade.yaml"))
            .expect("read");
    text.push_str("---\napiVersion: messaging.knative.dev/v1\nkind: Subscription\nmetadata:\n  name: events\n  namespace: operators\nspec:\n  channel: {apiVersion: messaging.knative.dev/v1, kind: InMemoryChannel, name: demo}\n  subscriber: {ref: {apiVersion: serving.knative.dev/v1, kind: Service, name: handler}}\n");
    std::fs::write(&dump, text).expect("write");
    let o = olmsat(&[
        "resolve",
        "--catalog",
        CATALOG,
        "-f",
        &dump.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    assert!(
        common::stdout(&o).contains("etcdoperator.v0.9.4  upgrade from etcdoperator.v0.9.0"),
        "{}",
        common::stdout(&o)
    );
    assert!(
        common::stderr(&o).contains(
            "note: ignored 1 object(s) of kinds olmsat does not read: messaging.knative.dev/v1 Subscription (1)"
        ),
        "{}",
        common::stderr(&o)
    );
}

/// `--catalogs DIR` holding a link to a directory outside it (with a
/// registry credentials file) and a named pipe: neither is read, each is
/// said in a note, and the catalog inside is used.
#[cfg(unix)]
#[test]
fn catalogs_dir_keeps_to_the_directory() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let docker = tmp.path().join("docker");
    std::fs::create_dir(&docker).expect("mkdir");
    std::fs::write(
        docker.join("config.json"),
        r#"{"auths": {"quay.io": {"auth": "c2VjcmV0LXRva2Vu"}}}"#,
    )
    .expect("write");
    let dir = tmp.path().join("catalogs");
    copy_tree(
        &common::root().join("corpus/catalogs/etcd-example"),
        &dir.join("community"),
    );
    std::os::unix::fs::symlink(&docker, dir.join("creds")).expect("link");
    mkfifo(&dir.join("pipe"));
    for command in ["resolve", "simulate"] {
        let o = olmsat(&[
            command,
            "--catalogs",
            &dir.display().to_string(),
            "-f",
            "corpus/clusters/etcd-upgrade.yaml",
        ]);
        let err = common::stderr(&o);
        assert_eq!(o.status.code(), Some(0), "{command}: {err}");
        assert!(!err.contains("auths"), "{err}");
        assert!(
            err.contains(&format!(
                "note: skipped {}: a symbolic link to {}, outside {}; olmsat does not follow links that leave the directory named (give it with --catalog NAME=PATH to read it)\n",
                dir.join("creds").display(),
                std::fs::canonicalize(&docker).expect("canonical").display(),
                dir.display()
            )),
            "{err}"
        );
        assert!(
            err.contains(&format!(
                "note: skipped {}: a named pipe, not a catalog directory\n",
                dir.join("pipe").display()
            )),
            "{err}"
        );
    }
}

/// A real CSV installed in `openshift-operators` for all namespaces, and
/// the copies OLM writes of it into `n - 1` other namespaces, in one `List`,
/// as `oc get csv -A -o yaml` prints them.
fn csv_list(n: usize) -> String {
    let csv = std::fs::read_to_string(common::root().join(
        "corpus/real/bundles/community-operators-prod/multicluster-global-hub-operator/1.5.0/manifests/multicluster-global-hub-operator.clusterserviceversion.yaml",
    ))
    .expect("a real CSV");
    let csv = csv.strip_prefix("---\n").unwrap_or(&csv);
    let mut out = String::from("apiVersion: v1\nitems:\n");
    for i in 0..n {
        let item = match i {
            0 => csv.replacen(
                "  namespace: placeholder\n",
                "  namespace: openshift-operators\n",
                1,
            ),
            _ => csv
                .replacen(
                    "  namespace: placeholder\n",
                    &format!("  namespace: ns{i}\n"),
                    1,
                )
                .replacen(
                    "\n  labels:\n",
                    "\n  labels:\n    olm.copiedFrom: openshift-operators\n",
                    1,
                ),
        };
        for (j, line) in item.lines().enumerate() {
            out.push_str(if j == 0 { "- " } else { "  " });
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push_str("kind: List\nmetadata:\n  resourceVersion: \"\"\n");
    out
}

/// 600 real CSVs in one `List` (about a million YAML nodes) are read: the
/// budget of one YAML document applies to each item. (Before, the List was
/// refused with `invalid YAML: budget breached: Nodes { nodes: 250001 }`.)
#[test]
fn a_list_of_600_real_csvs_is_read() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dump = tmp.path().join("csvs.yaml");
    std::fs::write(&dump, csv_list(600)).expect("write");
    let o = olmsat(&[
        "resolve",
        "--catalog",
        CATALOG,
        "-f",
        &dump.display().to_string(),
        "-o",
        "json",
    ]);
    let err = common::stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("budget"), "{err}");
    assert!(
        err.contains("note: skipped 599 copied ClusterServiceVersion(s) in 599 namespace(s)"),
        "{err}"
    );
    let v = json(&o);
    assert_eq!(v["status"], "resolved", "{v}");
    assert_eq!(
        v["namespaces"][0]["namespace"], "openshift-operators",
        "{v}"
    );
}

/// Issue 31.9: a catalog given that no CatalogSource of the cluster state is
/// named after gets a note listing the CatalogSources there, closest first.
#[test]
fn a_catalog_no_catalog_source_is_named_after_is_named() {
    let o = olmsat(&[
        "resolve",
        "--catalog",
        "comunity=corpus/catalogs/etcd-example",
        "-f",
        "tests/cluster/two-namespaces/cluster.yaml",
    ]);
    let err = common::stderr(&o);
    assert!(
        err.contains("note: catalog \"comunity\" is no CatalogSource of the cluster state: OLM v0 takes it to be in the namespace of the Subscriptions that name it, else in the namespace resolved (the CatalogSources there: community)\n"),
        "{err}"
    );
    // The catalog the CatalogSource names: no note.
    let o = olmsat(&[
        "resolve",
        "--catalog",
        CATALOG,
        "-f",
        "tests/cluster/two-namespaces/cluster.yaml",
    ]);
    assert!(
        !common::stderr(&o).contains("is no CatalogSource"),
        "{}",
        common::stderr(&o)
    );
}
