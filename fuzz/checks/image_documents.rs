//! The `image_documents` fuzz target's body: an image's JSON documents
//! (index, manifest, config; a docker-archive's `manifest.json`) parsed, and
//! the image they describe selected and read, from files held in memory.
//! Shared with the replay tests (`graph/tests/fuzz_regressions.rs`).
//!
//! The input is text: a first line, then documents separated by a line
//! `====`. The first line says how the image is named: `oci` or `docker`,
//! then optionally `name=REF`, `@N` (a docker-archive's position) and
//! `platform=OS/ARCH[/VARIANT]`. The first document is the layout's
//! `index.json` (or the archive's `manifest.json`); the others are blobs,
//! stored under their digest. In a document, `@N` stands for the digest of
//! document N (`sha256:…`), `$N` for its hexadecimal part and `#N` for its
//! size, for every later document N (so digests can be right without the
//! fuzzer computing them). A document whose first line is `tar` is a layer
//! the check builds from the lines that follow (`PATH=TEXT` a file, `PATH/`
//! a directory, `PATH->TARGET` a symbolic link).
//!
//! Beyond "no panic", it checks that reading is deterministic, that every
//! error names the image and none is a bare parser failure ("serde
//! failed"), and that an image read gives a catalog or bundle whose files
//! are named inside it and load.

use std::collections::BTreeMap;

use olmsat_image::{
    memory, Image, ImageError, Kind, Limits, Options, Platform, Selector, Transport,
};

const SEPARATOR: &str = "\n====\n";
/// Documents read at most (placeholders are one digit).
const MAX_DOCUMENTS: usize = 8;

/// Small limits, so that a hostile image is refused quickly.
fn limits() -> Limits {
    Limits {
        layer_bytes: 1 << 20,
        image_bytes: 2 << 20,
        entries: 10_000,
        kept_bytes: 1 << 20,
        file_bytes: 256 << 10,
        document_bytes: 64 << 10,
        archive_entries: 1_000,
    }
}

/// A tar built from the text form (see the module documentation).
fn tar(body: &str) -> Vec<u8> {
    let mut entries: Vec<(&[u8], Option<&[u8]>)> = Vec::new();
    for line in body.lines().filter(|l| !l.is_empty()) {
        let entry = if let Some(i) = line.find("->") {
            (&line[..i], Some(&line[i..]))
        } else if let Some(i) = line.find('=') {
            (&line[..i], Some(&line[i + 1..]))
        } else if line.ends_with('/') {
            (line, None)
        } else {
            (line, Some(""))
        };
        entries.push((entry.0.as_bytes(), entry.1.map(str::as_bytes)));
    }
    memory::tar(&entries, true)
}

/// The files of the image `text` describes, how it is named, and the
/// platform asked for.
fn image(
    text: &str,
) -> (
    BTreeMap<String, Vec<u8>>,
    Transport,
    Option<Selector>,
    Platform,
) {
    let mut parts: Vec<&str> = text.splitn(MAX_DOCUMENTS + 1, SEPARATOR).collect();
    let header = parts.remove(0);
    let mut transport = Transport::Oci;
    let mut selector = None;
    let mut platform = Platform::default();
    for token in header.split_whitespace() {
        if token == "docker" {
            transport = Transport::DockerArchive;
        } else if let Some(n) = token.strip_prefix("name=") {
            selector = Some(Selector::Name(n.to_owned()));
        } else if let Some(i) = token.strip_prefix('@').and_then(|n| n.parse().ok()) {
            selector = Some(Selector::Index(i));
        } else if let Some(p) = token.strip_prefix("platform=") {
            if let Ok(p) = Platform::parse(p) {
                platform = p;
            }
        }
    }
    let n = parts.len();
    let mut done: Vec<Vec<u8>> = vec![Vec::new(); n];
    for i in (0..n).rev() {
        let mut doc = parts[i].to_owned();
        for (j, later) in done.iter().enumerate().skip(i + 1) {
            let digest = memory::sha256(later);
            doc = doc
                .replace(&format!("@{j}"), &digest)
                .replace(&format!("${j}"), &digest[7..])
                .replace(&format!("#{j}"), &later.len().to_string());
        }
        done[i] = match doc.strip_prefix("tar\n") {
            Some(body) => tar(body),
            None => doc.into_bytes(),
        };
    }
    let mut files = BTreeMap::new();
    let mut docs = done.into_iter();
    if let Some(first) = docs.next() {
        let name = match transport {
            Transport::DockerArchive => "manifest.json",
            _ => "index.json",
        };
        files.insert(name.to_owned(), first);
    }
    for doc in docs {
        let digest = memory::sha256(&doc);
        files.insert(format!("blobs/sha256/{}", &digest[7..]), doc);
    }
    (files, transport, selector, platform)
}

/// A comparable summary of a result.
fn summary(r: &Result<Image, ImageError>) -> Result<String, String> {
    match r {
        Ok(i) => Ok(format!(
            "{} {:?} {:?} {:?} {:?} {:?} {:?}",
            i.digest,
            i.labels,
            i.saved_name,
            i.platform,
            i.kind,
            i.tree.paths().collect::<Vec<_>>(),
            i.skipped
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// Read the image `data` describes; panics when an invariant breaks.
pub(crate) fn check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (files, transport, selector, platform) = image(&text);
    let options = Options {
        platform,
        limits: limits(),
    };
    let first = memory::open_files(files.clone(), transport, selector.as_ref(), &options);
    let second = memory::open_files(files, transport, selector.as_ref(), &options);
    assert_eq!(
        summary(&first),
        summary(&second),
        "reading is not deterministic"
    );
    let name = format!("{}:fuzz", transport.prefix());
    let image = match first {
        Ok(image) => image,
        Err(e) => {
            let text = e.to_string();
            assert!(
                text.contains(&name),
                "an error that does not name the image: {text}"
            );
            assert!(
                !text.contains("serde failed"),
                "a bare parser error: {text}"
            );
            return;
        }
    };
    assert!(
        image.digest.starts_with("sha256:") || image.digest.starts_with("sha512:"),
        "digest {}",
        image.digest
    );
    let inside = format!("{name}!/");
    match &image.kind {
        Kind::Catalog { .. } => {
            let sources = olmsat_catalog::load::image::sources(&image).expect("a catalog image");
            for f in &sources.files {
                assert!(f.name.starts_with(&inside), "a file named {}", f.name);
            }
            let loaded = olmsat_catalog::load::load_sources(sources, &Default::default());
            for d in &loaded.diagnostics {
                if let Some(l) = &d.location {
                    assert!(l.file.starts_with(&inside), "a diagnostic at {}", l.file);
                }
            }
        }
        Kind::Bundle { .. } => {
            let dir = olmsat_bundle::image::read(&image).expect("a bundle image");
            let _ = olmsat_bundle::image::label_mismatches(&image, &dir);
        }
    }
}
