//! Hostile catalog directories and files: names that are not UTF-8, a hundred
//! thousand tiny files, a file over the size limit, and one huge string.
#![allow(clippy::print_stdout, clippy::print_stderr)] // progress of long corpus runs

use std::fs;
use std::path::Path;
use std::time::Instant;

use olmsat_catalog::load::{load_bytes, load_path, MAX_FILE_BYTES};

fn write(dir: &Path, rel: &str, text: &[u8]) {
    let p = dir.join(rel);
    fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    fs::write(p, text).expect("write");
}

#[cfg(unix)]
#[test]
fn file_names_that_are_not_utf8_load_and_are_shown_lossily() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let d = tempfile::tempdir().expect("tempdir");
    let good = d.path().join(OsStr::from_bytes(b"caf\xe9.yaml"));
    fs::write(&good, b"schema: my.thing\nname: good\n").expect("write");
    let sub = d.path().join(OsStr::from_bytes(b"dir-\xff\xfe"));
    fs::create_dir(&sub).expect("mkdir");
    fs::write(
        sub.join(OsStr::from_bytes(b"bad-\x80.json")),
        b"{\"schema\": ",
    )
    .expect("write");

    let l = load_path(d.path()).expect("load");
    assert_eq!(l.files, 2);
    assert_eq!(l.config.others.len(), 1, "{:?}", l.diagnostics);
    assert!(l.config.others[0]
        .location
        .file
        .ends_with("caf\u{FFFD}.yaml"));
    assert_eq!(l.diagnostics.len(), 1, "{:?}", l.diagnostics);
    let file = &l.diagnostics[0].location.as_ref().expect("location").file;
    assert!(
        file.ends_with("dir-\u{FFFD}\u{FFFD}/bad-\u{FFFD}.json"),
        "the name is shown with replacement characters: {file}"
    );
}

#[test]
fn a_hundred_thousand_tiny_files_load() {
    const N: usize = 100_000;
    let d = tempfile::tempdir().expect("tempdir");
    let started = Instant::now();
    for i in 0..N {
        fs::write(
            d.path().join(format!("{i:06}.json")),
            format!("{{\"schema\":\"my.thing\",\"name\":\"t{i}\"}}"),
        )
        .expect("write");
    }
    let written = started.elapsed();
    let started = Instant::now();
    let l = load_path(d.path()).expect("load");
    let loaded = started.elapsed();
    assert!(l.diagnostics.is_empty(), "{:?}", &l.diagnostics[..1]);
    assert_eq!(l.files, N);
    assert_eq!(l.config.others.len(), N);
    // Files by path, blobs in file order.
    assert!(l.config.others[0].location.file.ends_with("000000.json"));
    assert!(l.config.others[N - 1]
        .location
        .file
        .ends_with("099999.json"));
    eprintln!("{N} files: written in {written:?}, loaded in {loaded:?}");
}

#[test]
fn a_file_over_the_size_limit_is_refused_unread() {
    let d = tempfile::tempdir().expect("tempdir");
    write(
        d.path(),
        "catalog.yaml",
        b"schema: olm.package\nname: p\ndefaultChannel: c\n",
    );
    let huge = d.path().join("huge.json");
    // A sparse file: it takes no disk space, and reading it would take seconds.
    let f = fs::File::create(&huge).expect("create");
    f.set_len(MAX_FILE_BYTES + 1).expect("set_len");
    drop(f);

    let started = Instant::now();
    for l in [
        load_path(d.path()).expect("load"),
        load_path(&huge).expect("load"),
    ] {
        let errors: Vec<_> = l.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert_eq!(errors.len(), 1, "{:?}", l.diagnostics);
        let e = errors[0];
        assert!(
            e.location
                .as_ref()
                .expect("location")
                .file
                .ends_with("huge.json"),
            "{e:?}"
        );
        assert!(
            e.message
                .contains(&format!("larger than the {MAX_FILE_BYTES}-byte limit")),
            "{}",
            e.message
        );
    }
    assert!(
        started.elapsed().as_secs() < 2,
        "the file is not read: {:?}",
        started.elapsed()
    );
}

#[test]
fn one_huge_string_gives_a_clear_answer() {
    const LEN: usize = 64 << 20;
    // A document that is nothing but a string: not an object.
    let mut text = vec![b'a'; LEN];
    text.push(b'\n');
    let l = load_bytes("string.yaml", &text);
    assert_eq!(l.diagnostics.len(), 1);
    assert!(
        l.diagnostics[0]
            .message
            .contains("cannot unmarshal string into Go value"),
        "{}",
        l.diagnostics[0].message
    );
    drop(l);
    // As a field of a YAML blob it is over the general YAML parser's budget of
    // 64 MiB of scalar text per document: a clear error at the field.
    let mut text = b"schema: my.thing\nname: thing\ndata: ".to_vec();
    text.extend(std::iter::repeat_n(b'b', LEN));
    text.push(b'\n');
    let l = load_bytes("field.yaml", &text);
    assert_eq!(l.diagnostics.len(), 1, "{:?}", l.diagnostics);
    let d = &l.diagnostics[0];
    assert!(d.message.contains("budget breached"), "{}", d.message);
    assert_eq!(d.location.as_ref().expect("location").line, 3);
    drop(l);
    // In JSON, and in YAML below that budget, it loads.
    let mut json = b"{\"schema\":\"my.thing\",\"data\":\"".to_vec();
    json.extend(std::iter::repeat_n(b'c', LEN));
    json.extend_from_slice(b"\"}\n");
    let l = load_bytes("field.json", &json);
    assert!(l.diagnostics.is_empty(), "{:?}", l.diagnostics);
    assert!(l.config.others[0].blob.get().len() > LEN);
    drop(l);
    let mut text = b"schema: my.thing\nname: thing\ndata: ".to_vec();
    text.extend(std::iter::repeat_n(b'd', LEN / 4));
    text.push(b'\n');
    let l = load_bytes("field.yaml", &text);
    assert!(l.diagnostics.is_empty(), "{:?}", l.diagnostics);
    assert!(l.config.others[0].blob.get().len() > LEN / 4);
}
