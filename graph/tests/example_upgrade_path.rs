//! The `upgrade_path` example, run on the repository's etcd example catalog.

#[allow(dead_code)] // the example's `main` is not called here
#[path = "../examples/upgrade_path.rs"]
mod upgrade_path;

use std::path::Path;

const ETCD: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../corpus/catalogs/etcd-example"
);

#[test]
fn the_example_prints_olms_path_to_the_head() {
    let text =
        upgrade_path::upgrade_path(Path::new(ETCD), "etcd", "etcdoperator.v0.9.0").expect("a path");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].starts_with("etcdoperator.v0.9.0 -> etcdoperator.v0.9.4 (skipRange at "),
        "{text}"
    );
    assert!(lines[0].ends_with("etcd/catalog.yaml:21)"), "{text}");
    assert!(
        lines[1].starts_with("etcdoperator.v0.9.4 -> etcdoperator.v0.9.5 (replaces at "),
        "{text}"
    );
    assert_eq!(lines[2], "reaches the head etcdoperator.v0.9.5 in 2 steps");
}

#[test]
fn the_example_reports_an_unknown_start() {
    let err = upgrade_path::upgrade_path(Path::new(ETCD), "etcd", "no-such-bundle")
        .expect_err("unknown start");
    assert!(err.to_string().contains("no-such-bundle"), "{err}");
}
