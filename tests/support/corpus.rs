//! Where the tests find real catalogs and bundles, and what they do without them.
//!
//! One file, included by every test crate (`#[path = ".../tests/support/corpus.rs"]`).
//!
//! - The repository carries a small real corpus of its own, `corpus/real/`: byte-for-byte
//!   copies of Apache-2.0 catalogs and bundles laid out as the full corpus is
//!   (`fbc/<source>/…`, `bundles/<source>/…`). A test that needs only those always runs.
//! - The full corpus (hundreds of real bundles, the community and certified catalogs) is
//!   found through the `OLMSAT_CORPUS` environment variable, and nowhere else. Without it,
//!   a test that needs it is skipped with one line on standard error saying what was
//!   skipped and how to run it.
//! - With `OLMSAT_REQUIRE_ALL=1` (CI sets it) a skip is a failure: nothing is skipped
//!   silently where everything is expected to run. The same holds for tests that need a
//!   system tool (`require_tool`).
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// The workspace root (every crate of the workspace is one level below it).
pub(crate) fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("a crate directory has a parent")
        .to_path_buf()
}

/// The repository's own real corpus, `corpus/real/`.
pub(crate) fn own() -> PathBuf {
    repo_root().join("corpus/real")
}

/// Whether skips are failures (`OLMSAT_REQUIRE_ALL` set to anything but `0` or empty).
pub(crate) fn skips_fail() -> bool {
    std::env::var("OLMSAT_REQUIRE_ALL").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Say that `what` was skipped and why, on the real standard error (not captured by the
/// test harness, so the line shows in `cargo test` output); a failure when skips fail.
pub(crate) fn skip(what: &str, why: &str) {
    if skips_fail() {
        panic!("{what} was skipped ({why}), and OLMSAT_REQUIRE_ALL forbids skipping");
    }
    let _ = writeln!(std::io::stderr(), "skipped: {what}: {why}");
}

/// The full corpus named by `OLMSAT_CORPUS` (a relative path is taken from the
/// workspace root), or `None` when the variable is unset. A variable that names no
/// directory is a failure: it was meant to be used.
pub(crate) fn full() -> Option<PathBuf> {
    let value = std::env::var_os("OLMSAT_CORPUS").filter(|v| !v.is_empty())?;
    let p = PathBuf::from(value);
    let p = if p.is_absolute() {
        p
    } else {
        repo_root().join(p)
    };
    assert!(
        p.join("fbc").is_dir(),
        "OLMSAT_CORPUS names {}, which holds no fbc/ directory",
        p.display()
    );
    Some(p)
}

/// The full corpus for `what`, or a skip line and `None` when `OLMSAT_CORPUS` is unset.
pub(crate) fn require_full(what: &str) -> Option<PathBuf> {
    let p = full();
    if p.is_none() {
        skip(
            what,
            "it needs the full corpus; set OLMSAT_CORPUS to its directory to run it",
        );
    }
    p
}

/// `rel` (e.g. `fbc/aws-load-balancer-operator/catalog/v4.20`) from the full corpus
/// when one is given, else from the repository's own corpus (whose files are the
/// same bytes; a directory there may hold only some of the full one's packages);
/// `None` when neither has it (nothing is printed).
pub(crate) fn find(rel: &str) -> Option<PathBuf> {
    if let Some(p) = full().map(|f| f.join(rel)).filter(|p| p.exists()) {
        return Some(p);
    }
    Some(own().join(rel)).filter(|p| p.exists())
}

/// Like [`find`], but says `what` was skipped when neither corpus has `rel`.
pub(crate) fn need(rel: &str, what: &str) -> Option<PathBuf> {
    let p = find(rel);
    if p.is_none() {
        skip(
            what,
            &format!(
                "{rel} is not in the repository's corpus/real; set OLMSAT_CORPUS to the full corpus to run it"
            ),
        );
    }
    p
}

/// Whether `program` runs (`program -V` exits), else a skip line for `what`.
pub(crate) fn require_tool(program: &str, what: &str) -> bool {
    let found = std::process::Command::new(program)
        .arg("-V")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok();
    if !found {
        skip(
            what,
            &format!("`{program}` is not installed (CI installs it; see .ci/run)"),
        );
    }
    found
}
