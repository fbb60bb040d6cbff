//! Answers people can act on, outside `path`: a stray file in a catalog
//! directory, a package declared twice, an unknown package to `list`.

#[path = "cli_common/mod.rs"]
mod common;

use common::{corpus, olmsat, olmsat_in};

const EXTERNAL_DNS: &str = "external-dns-operator/catalog/v4.20";

#[test]
fn a_stray_text_file_is_told_to_be_ignored() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let catalog = corpus().join(EXTERNAL_DNS).join("catalog.yaml");
    std::fs::copy(&catalog, tmp.path().join("catalog.yaml")).expect("copy");
    std::fs::write(
        tmp.path().join("README.md"),
        "# My catalog\n\nSome notes about it.\n",
    )
    .expect("write");
    let r = olmsat_in(tmp.path(), &["validate", "."], "", &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "README.md:3: error[not-an-object]: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type map[string]interface {} at offset 22 (indicated by <==)\n\"Some notes about it.\" <==\n(not a catalog file: add it to `.indexignore` to leave it out)\n"
        ),
        "{}",
        r.stdout
    );
    // Listed in .indexignore, it is left out, as opm does.
    std::fs::write(tmp.path().join(".indexignore"), "README.md\n").expect("write");
    let r = olmsat_in(tmp.path(), &["validate", "."], "", &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
}

#[test]
fn a_package_declared_twice_names_both_places() {
    let input = "{\"schema\":\"olm.package\",\"name\":\"p\"}\n{\"schema\":\"olm.package\",\"name\":\"p\"}\n";
    let r = olmsat_in(&corpus(), &["validate", "-"], input, &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "<stdin>:2:1: error[duplicate-package]: [package \"p\"] duplicate package \"p\" (also declared at <stdin>:1:1: keep one olm.package blob)"
        ),
        "{}",
        r.stdout
    );
}

#[test]
fn list_suggests_the_closest_packages_first() {
    let r = olmsat(&[
        "list",
        "bundles",
        "community-operators-prod/catalogs/v4.20",
        "clusterpulsar",
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        r.stderr,
        "olmsat: unknown package \"clusterpulsar\"; the catalog has: clusterpulse, multicluster-global-hub-operator\n"
    );
}
