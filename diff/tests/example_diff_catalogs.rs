//! The `diff_catalogs` example, run on the repository's etcd example catalog
//! and a copy of its `etcd` package that takes a version out of channel
//! `alpha`.

#[allow(dead_code)] // the example's `main` is not called here
#[path = "../examples/diff_catalogs.rs"]
mod diff_catalogs;

use std::path::Path;

const ETCD: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../corpus/catalogs/etcd-example"
);

#[test]
fn the_example_finds_what_a_change_does_to_users() {
    let same = diff_catalogs::findings(Path::new(ETCD), Path::new(ETCD)).expect("a diff");
    assert_eq!(same, "");
    let new = tempfile::tempdir().expect("tempdir");
    let text = std::fs::read_to_string(Path::new(ETCD).join("etcd/catalog.yaml")).unwrap();
    let cut = text.replace(
        "- name: etcdoperator.v0.9.0\n  replaces: etcdoperator.v0.6.1\nname: alpha",
        "name: alpha",
    );
    assert_ne!(cut, text);
    std::fs::write(new.path().join("catalog.yaml"), cut).unwrap();
    let found = diff_catalogs::findings(Path::new(ETCD), new.path()).expect("a diff");
    // Users of 0.9.0 in alpha lose their way; etcd-backup is gone from NEW.
    assert!(
        found
            .lines()
            .any(|l| l.starts_with("etcd: ") && l.contains("etcdoperator.v0.9.0")),
        "{found}"
    );
    assert!(
        found.lines().any(|l| l.starts_with("etcd-backup: ")),
        "{found}"
    );
}
