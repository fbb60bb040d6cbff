//! Helpers shared by the bundle tests: the repository's fixture bundles, temporary
//! copies of them with edits, and the corpus locations.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

/// The repository's own fixture bundles (`corpus/bundles/`).
pub(crate) fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/bundles")
}

#[path = "../../../tests/support/corpus.rs"]
pub(crate) mod support;

/// Copy a directory tree.
pub(crate) fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dst = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dst);
        } else {
            fs::copy(e.path(), dst).unwrap();
        }
    }
}

/// A change to a fixture bundle.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Edit {
    /// Write a file (creating directories).
    Write(&'static str, &'static str),
    /// Remove a file or directory.
    Remove(&'static str),
    /// Create an empty directory.
    Mkdir(&'static str),
}

/// A temporary copy of fixture `base` (e.g. `registry-v1/etcd`) with `edits` applied.
pub(crate) fn bundle(base: &str, edits: &[Edit]) -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("bundle");
    copy_dir(&fixtures().join(base), &dir);
    for e in edits {
        match *e {
            Edit::Write(rel, text) => {
                let p = dir.join(rel);
                fs::create_dir_all(p.parent().unwrap()).unwrap();
                fs::write(p, text).unwrap();
            }
            Edit::Remove(rel) => {
                let p = dir.join(rel);
                if p.is_dir() {
                    fs::remove_dir_all(p).unwrap();
                } else {
                    fs::remove_file(p).unwrap();
                }
            }
            Edit::Mkdir(rel) => fs::create_dir_all(dir.join(rel)).unwrap(),
        }
    }
    (t, dir)
}
