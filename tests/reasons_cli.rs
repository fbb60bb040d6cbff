//! `resolve` and `simulate` say the reason first: one line per root cause with
//! a hint, OLM's error for a CatalogSource without content, namespaces as
//! OpenShift has them, `--subscribe` with close names, and install plans that
//! wait for approval.

mod common;

use common::{olmsat, stderr, stdout};

const ETCD: &str = "community=corpus/catalogs/etcd-example";

#[test]
fn a_missing_requirement_is_one_cause_for_every_candidate() {
    let Some(corpus) = common::support::require_full("a_missing_requirement_is_one_cause") else {
        return;
    };
    let catalog = corpus.join("fbc/community-operators-prod/catalogs/v4.20");
    let o = olmsat(&[
        "resolve",
        "--catalog",
        &format!("community={}", catalog.display()),
        "--subscribe",
        "alloydb-omni-operator",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "namespace default: unsatisfiable",
            "  why: nothing in the given catalogs provides `cert-manager.io/v1 Certificate`, required by every candidate of subscription alloydb-omni-operator (package alloydb-omni-operator)",
            "    hint: add a catalog that has an operator providing it (--catalog NAME=DIR), or install one that does",
        ]
    );
    assert!(lines[3].starts_with("  OLM's message: constraints not satisfiable: bundle alloydb-omni-operator.v1.3.0 requires an operator providing an API with group: cert-manager.io, version: v1, kind: Certificate, "));
    assert_eq!(lines.len(), 4, "{text}");
    // With --explain, the eleven candidates that fail alike are one group, and
    // the constraint list is not printed again.
    let o = olmsat(&[
        "resolve",
        "--catalog",
        &format!("community={}", catalog.display()),
        "--subscribe",
        "alloydb-omni-operator",
        "--explain",
    ]);
    let text = stdout(&o);
    assert_eq!(text.matches("constraints not satisfiable").count(), 1);
    let tail: Vec<&str> = text.lines().skip(5).collect();
    assert_eq!(tail[0], "subscription alloydb-omni-operator");
    assert!(
        tail[1].starts_with("  candidates community/default/stable/alloydb-omni-operator.v1.8.0, ")
    );
    assert!(tail[1].ends_with(", community/default/stable/alloydb-omni-operator.v1.3.0 (each):"));
    assert_eq!(
        tail[2..],
        [
            "    requires an operator `cert-manager.io/v1 Certificate`",
            "      no candidate: no bundle in the given catalogs meets it",
        ]
    );
    let o = olmsat(&[
        "resolve",
        "--catalog",
        &format!("community={}", catalog.display()),
        "--subscribe",
        "alloydb-omni-operator",
        "-o",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(
        v["namespaces"][0]["causes"][0]["summary"],
        "nothing in the given catalogs provides `cert-manager.io/v1 Certificate`, required by every candidate of subscription alloydb-omni-operator (package alloydb-omni-operator)"
    );
}

#[test]
fn a_provider_in_a_namespace_not_seen_names_global_namespace() {
    let o = olmsat(&[
        "resolve",
        "--catalog",
        "backup=corpus/catalogs/etcd-example/etcd-backup",
        "--catalog",
        "etcd-catalog=corpus/catalogs/etcd-example/etcd",
        "-f",
        "tests/reasons/unseen-dependency.yaml",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "namespace ops: unsatisfiable",
            "  why: nothing the namespace sees provides package `etcd` in range `>=0.9.4 <1.0.0`, required by etcd-backup.v1.1.0 (1 of the 2 candidates of subscription etcd-backup)",
            "    hint: etcdoperator.v0.9.4 in catalog etcd-catalog provides it, but that catalog is in namespace marketplace, which this namespace does not see; if marketplace is your cluster's global catalog namespace (openshift-marketplace on OpenShift), give --global-namespace marketplace",
        ]
    );
    // Taking marketplace as the global catalog namespace instead hides olm's
    // catalog, and the answer says that instead.
    let o = olmsat(&[
        "resolve",
        "--catalog",
        "backup=corpus/catalogs/etcd-example/etcd-backup",
        "--catalog",
        "etcd-catalog=corpus/catalogs/etcd-example/etcd",
        "-f",
        "tests/reasons/unseen-dependency.yaml",
        "--global-namespace",
        "marketplace",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("why: no operators found from catalog backup in namespace olm referenced by subscription etcd-backup"), "{}", stdout(&o));
}

#[test]
fn a_passed_over_candidate_leads_with_the_decisive_fact() {
    let o = olmsat(&[
        "resolve",
        "--catalog",
        ETCD,
        "-f",
        "corpus/clusters/etcd-upgrade.yaml",
        "--subscribe",
        "etcd-backup",
        "--explain",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    let line = text
        .lines()
        .find(|l| l.starts_with("  passed over"))
        .expect("a passed-over line");
    assert_eq!(
        line,
        "  passed over community/olm/stable/etcdoperator.v0.9.5: etcdoperator.v0.9.5 is not a direct successor of the installed etcdoperator.v0.9.0 (it neither replaces nor skips it, and no skipRange of it contains its version), so OLM upgrades etcdoperator.v0.9.0 to etcdoperator.v0.9.4 instead (and 4 more constraint(s); -o json lists them)"
    );
}

#[test]
fn a_catalog_source_without_content_fails_as_in_olm() {
    let args = [
        "resolve",
        "--catalog",
        ETCD,
        "-f",
        "tests/reasons/missing-catalog.yaml",
    ];
    let o = olmsat(&args);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stdout(&o),
        "namespace ops: error: error using catalogsource olm/redhat-operators: no registry client established for catalogsource olm/redhat-operators\n  hint: give the content of this CatalogSource with --catalog redhat-operators=DIR, or pass --allow-missing-catalogs to resolve as if it were empty\n"
    );
    let mut json_args = args.to_vec();
    json_args.extend(["-o", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&olmsat(&json_args).stdout).expect("json");
    assert_eq!(v["status"], "error");
    assert_eq!(
        v["namespaces"][0]["hint"],
        "give the content of this CatalogSource with --catalog redhat-operators=DIR, or pass --allow-missing-catalogs to resolve as if it were empty"
    );
    // Allowed: resolved as if empty, with a warning about the Subscription-free
    // CatalogSource gone and the answer of the rest.
    let mut allow = args.to_vec();
    allow.push("--allow-missing-catalogs");
    let o = olmsat(&allow);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).starts_with("namespace ops: resolved, 1 operator(s) to install or upgrade\n")
    );
    // simulate stops the same way.
    let mut sim = args.to_vec();
    sim[0] = "simulate";
    let o = olmsat(&sim);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).contains("namespace ops: error: error using catalogsource olm/redhat-operators: no registry client established for catalogsource olm/redhat-operators\n  hint: give the content of this CatalogSource with --catalog redhat-operators=DIR"), "{}", stdout(&o));
}

#[test]
fn manual_approval_stops_at_the_first_install_plan() {
    let o = olmsat(&[
        "simulate",
        "--catalog",
        ETCD,
        "-f",
        "tests/reasons/manual-approval.yaml",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "step 1 (namespace ops): install plan waiting for approval, not applied:\n  install etcdoperator.v0.9.2 (etcd 0.9.2)\nnamespace ops: waiting for approval: the install plan of step 1 needs approval: subscription etcd has installPlanApproval: Manual, which makes every install plan of namespace ops wait for a person to approve it\ninstalled:\n"
    );
    let o = olmsat(&[
        "simulate",
        "--catalog",
        ETCD,
        "-f",
        "tests/reasons/manual-approval.yaml",
        "-o",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["status"], "awaitingApproval");
    assert_eq!(v["steps"][0]["requiresApproval"], true);
    assert!(v.get("message").is_none(), "{v}");
}

#[test]
fn starting_csv_is_where_the_simulation_starts() {
    let o = olmsat(&[
        "simulate",
        "--catalog",
        ETCD,
        "-f",
        "tests/reasons/starting-csv.yaml",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "step 1 (namespace ops):\n  install etcdoperator.v0.9.2 (etcd 0.9.2)\nstep 2 (namespace ops):\n  upgrade etcdoperator.v0.9.2 -> etcdoperator.v0.9.4 (etcd 0.9.4)\nstep 3 (namespace ops):\n  upgrade etcdoperator.v0.9.4 -> etcdoperator.v0.9.5 (etcd 0.9.5)\nnamespace ops: converged after 3 step(s)\ninstalled:\n  ops/etcdoperator.v0.9.5 0.9.5\n"
    );
}

#[test]
fn subscribe_suggests_close_names() {
    let run = |spec: &str| {
        let o = olmsat(&["resolve", "--catalog", ETCD, "--subscribe", spec]);
        (o.status.code(), stderr(&o))
    };
    assert_eq!(
        run("etdc"),
        (
            Some(2),
            "olmsat: --subscribe \"etdc\": no catalog given has package \"etdc\"; the closest packages: etcd, etcd-backup\n".to_owned()
        )
    );
    assert_eq!(
        run("etcd/stabel"),
        (
            Some(2),
            "olmsat: --subscribe \"etcd/stabel\": catalog \"community\": unknown channel \"stabel\" in package \"etcd\"; it has: stable, alpha\n".to_owned()
        )
    );
    assert_eq!(
        run("etcd@comunity"),
        (
            Some(2),
            "olmsat: --subscribe \"etcd@comunity\": no catalog named \"comunity\" was given; the catalogs given: community (give it with --catalog comunity=DIR)\n".to_owned()
        )
    );
    let o = olmsat(&[
        "resolve",
        "--catalog",
        ETCD,
        "--subscribe",
        "etcd/stable",
        "--namespace",
        "team",
        "-o",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["operators"][0]["namespace"], "team");
}

#[test]
fn a_subscription_to_a_missing_channel_lists_the_channels() {
    let o = olmsat(&[
        "resolve",
        "--catalog",
        ETCD,
        "-f",
        "tests/cluster/two-namespaces/cluster.yaml",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains(
        "  why: no operators found in channel nightly of package etcd in the catalog referenced by subscription etcd\n    hint: package etcd has these channels, closest first: alpha, stable (default stable)\n"
    ));
}
