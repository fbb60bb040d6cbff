//! Images built and read in memory: layers and OCI layouts made from a few
//! lines, and the readers run over files held in memory. The fuzz checks of
//! the image readers (`fuzz/checks/image_documents.rs`,
//! `fuzz/checks/image_layers.rs`) and the tests of the crates that read
//! images use them.

use std::collections::BTreeMap;

use super::layer::{LayerReader, Totals};
use super::store::Store;
use super::{FileTree, Image, ImageError, Limits, Options, Selector, Transport};

/// Read the image `selector` names from a layout (`Transport::Oci`) or a
/// docker-archive (`Transport::DockerArchive`) whose files are held in
/// memory, by name (`index.json`, `blobs/sha256/HEX`, `manifest.json`, ...).
///
/// # Errors
///
/// As [`Image::open`].
pub fn open_files(
    files: BTreeMap<String, Vec<u8>>,
    transport: Transport,
    selector: Option<&Selector>,
    options: &Options,
) -> Result<Image, ImageError> {
    let name = format!("{}:fuzz", transport.prefix());
    let store = Store::memory(name.clone(), files);
    Image::from_store(name, &store, transport, selector, options)
}

/// What applying layers gave: the tree, and the entries skipped.
pub struct Applied {
    /// The file system the layers make.
    pub tree: FileTree,
    /// Entries skipped, with why.
    pub skipped: Vec<(String, String)>,
}

/// Apply `layers` in order to an empty tree, keeping the content of the
/// files `keep` names.
///
/// # Errors
///
/// As reading an image's layers: a refused entry, a limit, a corrupt layer.
pub fn apply_layers(
    layers: &[&[u8]],
    limits: &Limits,
    keep: &dyn Fn(&str) -> bool,
) -> Result<Applied, ImageError> {
    let mut reader = LayerReader {
        image: "oci:fuzz",
        limits,
        keep,
        totals: Totals::default(),
        skipped: Vec::new(),
    };
    let mut tree = FileTree::default();
    for (i, layer) in layers.iter().enumerate() {
        reader.apply(&mut tree, &format!("sha256:{i}"), layer, None)?;
    }
    Ok(Applied {
        tree,
        skipped: reader.skipped,
    })
}

/// A tar layer built in memory from `(path, content)` pairs: content `None`
/// is a directory, `Some("->target")` a symbolic link, `Some("=>target")` a
/// hard link, anything else a regular file's text. Paths and link targets
/// are cut to the 100 bytes of a tar header's fields.
pub fn tar(entries: &[(&[u8], Option<&[u8]>)], end_blocks: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for (path, content) in entries {
        let mut h = tar::Header::new_gnu();
        let name = &path[..path.len().min(100)];
        h.as_old_mut().name[..name.len()].copy_from_slice(name);
        h.set_mode(0o644);
        let mut link = |kind: tar::EntryType, target: &[u8]| {
            h.set_entry_type(kind);
            let target = &target[..target.len().min(100)];
            h.as_old_mut().linkname[..target.len()].copy_from_slice(target);
            h.set_size(0);
        };
        let body: &[u8] = match content {
            None => {
                h.set_entry_type(tar::EntryType::Directory);
                h.set_size(0);
                &[]
            }
            Some(c) if c.starts_with(b"->") => {
                link(tar::EntryType::Symlink, &c[2..]);
                &[]
            }
            Some(c) if c.starts_with(b"=>") => {
                link(tar::EntryType::Link, &c[2..]);
                &[]
            }
            Some(c) => {
                h.set_entry_type(tar::EntryType::Regular);
                h.set_size(c.len() as u64);
                c
            }
        };
        h.set_cksum();
        out.extend_from_slice(h.as_bytes());
        out.extend_from_slice(body);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }
    if end_blocks {
        out.resize(out.len() + 1024, 0);
    }
    out
}

/// The `sha256:HEX` digest of `bytes`.
pub fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    format!(
        "sha256:{}",
        crate::digest::hex(&sha2::Sha256::digest(bytes))
    )
}

/// `bytes` compressed with gzip.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write as _;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    // Writing to memory does not fail.
    let _ = gz.write_all(bytes);
    gz.finish().unwrap_or_default()
}

/// `bytes` compressed with zstd.
pub fn zstd(bytes: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest)
}

/// Whether a symbolic link at `rel` to `target` stays inside the image's
/// root, as the layer reader judges it.
pub fn link_stays_inside(rel: &str, target: &str) -> bool {
    super::layer::link_target(rel, target).is_some()
}

/// An OCI layout in memory, as [`open_files`] reads it: one image of
/// `layers` (plain tar) whose config has the labels `labels`.
pub fn layout(layers: &[Vec<u8>], labels: &[(&str, &str)]) -> BTreeMap<String, Vec<u8>> {
    use serde_json::{json, Value};
    let mut files = BTreeMap::new();
    let mut put = |bytes: Vec<u8>| {
        let d = sha256(&bytes);
        let n = bytes.len();
        files.insert(format!("blobs/sha256/{}", &d[7..]), bytes);
        json!({"digest": d, "size": n})
    };
    let mut descriptors = Vec::new();
    for l in layers {
        let mut d = put(l.clone());
        d["mediaType"] = "application/vnd.oci.image.layer.v1.tar".into();
        descriptors.push(d);
    }
    let labels: serde_json::Map<String, Value> = labels
        .iter()
        .map(|(k, v)| ((*k).to_owned(), Value::from(*v)))
        .collect();
    let diff_ids: Vec<String> = layers.iter().map(|l| sha256(l)).collect();
    let config = json!({
        "architecture": "amd64", "os": "linux",
        "config": {"Labels": labels},
        "rootfs": {"type": "layers", "diff_ids": diff_ids},
    });
    let mut c = put(serde_json::to_vec(&config).unwrap_or_default());
    c["mediaType"] = "application/vnd.oci.image.config.v1+json".into();
    let manifest = json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": c,
        "layers": descriptors,
    });
    let mut m = put(serde_json::to_vec(&manifest).unwrap_or_default());
    m["mediaType"] = "application/vnd.oci.image.manifest.v1+json".into();
    let index = json!({"schemaVersion": 2, "manifests": [m]});
    files.insert(
        "index.json".into(),
        serde_json::to_vec(&index).unwrap_or_default(),
    );
    files
}

/// [`tar`] of text paths and contents.
pub fn tar_of(entries: &[(&str, Option<&str>)], end_blocks: bool) -> Vec<u8> {
    let bytes: Vec<(&[u8], Option<&[u8]>)> = entries
        .iter()
        .map(|(p, c)| (p.as_bytes(), c.map(str::as_bytes)))
        .collect();
    tar(&bytes, end_blocks)
}
