//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The repository root.
pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[path = "../support/corpus.rs"]
pub(crate) mod support;

/// Run the olmsat binary from the repository root.
pub(crate) fn olmsat(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_olmsat"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run olmsat")
}

/// Run olmsat with `input` on standard input.
pub(crate) fn olmsat_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_olmsat"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn olmsat");
    match child.stdin.take().expect("stdin").write_all(input) {
        // A command that stops before reading its input (a usage error) may
        // close it first.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("write stdin: {e}"),
        _ => {}
    }
    child.wait_with_output().expect("wait olmsat")
}

/// Standard output as text.
pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The catalogs of the corpus: each version directory (or file, for the OLM
/// fixtures) is one catalog. Those the repository's own corpus does not carry come
/// from the full corpus (`OLMSAT_CORPUS`); without it they are left out, and one line
/// says how many (`what` names the test).
pub(crate) fn corpus_catalogs(what: &str) -> Vec<PathBuf> {
    let dirs = [
        "community-operators-prod/catalogs/v4.20",
        "community-operators-prod/catalogs/v4.16",
        "certified-operators/catalogs/v4.20",
        "rhtpa-operator-fbc/v4.18",
        "rhtpa-operator-fbc/v4.19",
        "rhtpa-operator-fbc/v4.20",
        "rhtpa-operator-fbc/v4.21",
        "rhtpa-operator-fbc/v4.22",
        "kueue-fbc/v4.18",
        "kueue-fbc/v4.20",
        "trustee-fbc/v4.16",
        "trustee-fbc/v4.20",
        "mtv-fbc/v4.20",
        "submariner-operator-fbc/catalog-4-20",
        "volsync-operator-product-fbc/catalog-4-20",
        "gatekeeper-operator-fbc/catalog-4-20",
        "compliance-operator-fbc/catalog/v4.21",
        "security-profiles-operator-fbc/catalog/v4.20",
        "windows-machine-config-operator-fbc/v10.20",
        "external-dns-operator/catalog/v4.20",
        "external-dns-operator/catalog/external-dns-operator",
        "aws-load-balancer-operator/catalog/v4.20",
        "cost-management-metrics-operator-fbc/catalog",
        "testdata-operator-registry/alpha/action/testdata/index-declcfgs/exp-include-pkg",
        "testdata-operator-registry/alpha/action/testdata/index-declcfgs/latest",
        "testdata-operator-registry/alpha/action/testdata/index-declcfgs/exp-latest",
        "testdata-operator-registry/alpha/action/testdata/index-declcfgs/exp-include-channel",
        "testdata-operator-registry/alpha/action/testdata/index-declcfgs/exp-headsonly",
        "testdata-operator-registry/alpha/action/testdata/index-declcfgs/old",
        "testdata-operator-registry/alpha/action/testdata/foo-index-v0.2.0-declcfg",
        "testdata-operator-registry/fbc-dir/file-based-catalog",
        "testdata-operator-registry/test/e2e/testdata/test-configs",
        "testdata-olm/test/e2e/testdata/subscription/example-operator.v0.2.0-deprecations.yaml",
        "testdata-olm/test/e2e/testdata/subscription/example-operator.v0.3.0-deprecations.yaml",
        "testdata-olm/test/e2e/testdata/magiccatalog/fbc_catalog.json",
        "testdata-olm/test/e2e/testdata/magiccatalog/fbc_initial.yaml",
        "testdata-olm/test/e2e/testdata/magiccatalog/fbc_updated.yaml",
    ];
    let found: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|d| support::find(&format!("fbc/{d}")))
        .collect();
    if found.len() < dirs.len() {
        support::skip(
            &format!("{what} on {} of {} corpus catalogs", dirs.len() - found.len(), dirs.len()),
            "they are not in the repository's corpus/real; set OLMSAT_CORPUS to the full corpus to run them",
        );
    }
    found
}
