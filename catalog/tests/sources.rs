//! Loading from sources: named files from anywhere load as the same files on
//! disk do, locations use the given names, and the fast readers load exactly
//! what the general readers load (compared as values) on real catalogs.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use olmsat_catalog::load::{
    load_path, load_sources, Content, Loaded, Options, Readers, Select, SourceFile, Sources,
};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every file under `dir`, sorted by path.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn general() -> Options {
    Options {
        select: Select::All,
        readers: Readers::General,
    }
}

#[test]
fn files_held_in_memory_load_as_the_same_files_on_disk() {
    let root = repo().join("corpus/catalogs/etcd-example");
    let from_disk = load_path(&root).expect("load");
    assert!(from_disk.config.bundles.len() > 5, "a real catalog");
    let mut paths = Vec::new();
    files_under(&root, &mut paths);
    // The same files, named as the walk names them, their bytes owned, shared
    // and borrowed in turn.
    let texts: Vec<Vec<u8>> = paths.iter().map(|p| fs::read(p).expect("read")).collect();
    let sources: Sources<'_> = paths
        .iter()
        .zip(&texts)
        .enumerate()
        .map(|(i, (p, t))| {
            let name = p.display().to_string();
            match i % 3 {
                0 => SourceFile::from_bytes(name, t.clone()),
                1 => SourceFile::from_shared(name, Arc::new(t.clone())),
                _ => SourceFile::from_bytes(name, t.as_slice()),
            }
        })
        .collect();
    let in_memory = load_sources(sources, &Options::default());
    assert_eq!(in_memory, from_disk);
}

#[test]
fn locations_use_the_names_given() {
    let name = "HEAD:catalog/etcd/catalog.yaml";
    let sources: Sources<'_> = [
        SourceFile::from_bytes(
            name,
            &b"schema: olm.package\nname: etcd\n---\nname: [\n"[..],
        ),
        SourceFile::from_bytes(
            "layer!/configs/x.json",
            &b"{\"schema\": \"olm.package\", \"name\": \"x\"}"[..],
        ),
    ]
    .into_iter()
    .collect();
    let l = load_sources(sources, &Options::default());
    assert_eq!(l.files, 2);
    assert_eq!(l.config.packages.len(), 2);
    let errors: Vec<_> = l.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{:?}", l.diagnostics);
    let loc = errors[0].location.as_ref().expect("a location");
    assert_eq!(&*loc.file, name);
    assert_eq!(loc.line, 4);
}

#[test]
fn an_unreadable_file_is_one_error_and_the_others_load() {
    let d = tempfile::tempdir().expect("tempdir");
    let good = d.path().join("good.yaml");
    fs::write(&good, "schema: olm.package\nname: p\n").expect("write");
    let mut sources = Sources::new();
    sources.push(SourceFile {
        name: Arc::from("missing.yaml"),
        content: Content::Path(d.path().join("missing.yaml")),
    });
    sources.push(SourceFile::from_path(&good));
    sources.problems.push(olmsat_catalog::Diagnostic::new(
        olmsat_catalog::Rule::SymlinkOutsideCatalog,
        "met while gathering",
    ));
    let l = load_sources(sources, &Options::default());
    assert_eq!(l.config.packages.len(), 1);
    assert_eq!(l.diagnostics.len(), 2, "{:?}", l.diagnostics);
    assert_eq!(l.diagnostics[0].message, "met while gathering");
    assert!(l.diagnostics[1].message.starts_with("cannot read file: "));
    assert_eq!(
        l.diagnostics[1].location.as_ref().map(|l| &*l.file),
        Some("missing.yaml")
    );
}

/// Load every file of `dir` both ways, one file at a time; the number of
/// files compared.
fn readers_agree_under(dir: &Path, every: usize) -> usize {
    let mut paths = Vec::new();
    files_under(dir, &mut paths);
    let mut compared = 0;
    for p in paths.iter().step_by(every.max(1)) {
        let one = || Sources::from_iter([SourceFile::from_path(p)]);
        let fast: Loaded = load_sources(one(), &Options::default());
        let general: Loaded = load_sources(one(), &general());
        assert!(
            fast == general,
            "{}: the fast and the general readers differ",
            p.display()
        );
        compared += 1;
    }
    compared
}

#[test]
fn fast_and_general_readers_agree_on_the_repository_catalogs() {
    let mut compared = 0;
    for dir in [
        "corpus/catalogs",
        "fuzz/seeds/load",
        "fuzz/regressions/load",
    ] {
        compared += readers_agree_under(&repo().join(dir), 1);
    }
    assert!(compared > 15, "{compared} files");
}

#[test]
fn fast_and_general_readers_agree_on_the_full_corpus() {
    let Some(corpus) = corpus::require_full("fast_and_general_readers_agree_on_the_full_corpus")
    else {
        return;
    };
    let fbc = corpus.join("fbc");
    let mut compared = 0;
    let mut dirs: Vec<PathBuf> = fs::read_dir(&fbc)
        .expect("the corpus's fbc directory")
        .map(|e| e.expect("entry").path())
        .collect();
    dirs.sort();
    for dir in dirs {
        // The two large catalogs are sampled (every 7th file), the others read whole.
        let large =
            dir.ends_with("community-operators-prod") || dir.ends_with("certified-operators");
        compared += readers_agree_under(&dir, if large { 7 } else { 1 });
    }
    assert!(compared > 100, "{compared} files");
}

#[path = "../../tests/support/corpus.rs"]
mod corpus;
