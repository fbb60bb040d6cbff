//! Reading the full community v4.20 catalog as a catalog image (an OCI layout
//! with one gzip layer holding the catalog under `/configs`) against reading
//! it from its directory. The image is written by the benchmark itself into a
//! temporary directory.
//!
//! The full corpus is read from the directory named by `OLMSAT_CORPUS`; without
//! it the benchmark is skipped with a note.

#![allow(clippy::print_stdout, clippy::print_stderr)] // benchmarks report what they measure

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use olmsat_catalog::load::load_path;
use sha2::{Digest, Sha256};

#[path = "../../tests/support/corpus.rs"]
mod support;

const CATALOG: &str = "fbc/community-operators-prod/catalogs/v4.20";

/// Write `bytes` as a blob of the layout at `root`; its descriptor fields.
fn blob(root: &Path, bytes: &[u8]) -> (String, usize) {
    let hex: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    std::fs::write(root.join("blobs/sha256").join(&hex), bytes).expect("write blob");
    (format!("sha256:{hex}"), bytes.len())
}

/// An OCI layout at `root` with image `cat`: one gzip layer holding `catalog`
/// as `/configs`, labelled as a catalog image.
fn write_layout(root: &Path, catalog: &Path) {
    std::fs::create_dir_all(root.join("blobs/sha256")).expect("layout");
    std::fs::write(root.join("oci-layout"), r#"{"imageLayoutVersion":"1.0.0"}"#).expect("layout");
    let mut tar = tar::Builder::new(Vec::new());
    tar.append_dir_all("configs", catalog)
        .expect("tar the catalog");
    let tar = tar.into_inner().expect("tar");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&tar).expect("gzip");
    let gz = gz.finish().expect("gzip");
    let diff_id: String = Sha256::digest(&tar)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let (layer, layer_size) = blob(root, &gz);
    let config = serde_json::json!({
        "architecture": "amd64",
        "os": "linux",
        "config": {"Labels": {"operators.operatorframework.io.index.configs.v1": "/configs"}},
        "rootfs": {"type": "layers", "diff_ids": [format!("sha256:{diff_id}")]},
    });
    let (config, config_size) = blob(root, &serde_json::to_vec(&config).expect("json"));
    let manifest = serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": config, "size": config_size},
        "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": layer, "size": layer_size}],
    });
    let (manifest, manifest_size) = blob(root, &serde_json::to_vec(&manifest).expect("json"));
    let index = serde_json::json!({
        "schemaVersion": 2,
        "manifests": [{
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "digest": manifest,
            "size": manifest_size,
            "annotations": {"org.opencontainers.image.ref.name": "cat"},
        }],
    });
    std::fs::write(
        root.join("index.json"),
        serde_json::to_vec(&index).expect("json"),
    )
    .expect("index");
}

fn bench_image(c: &mut Criterion) {
    let Some(catalog) = support::full()
        .map(|r| r.join(CATALOG))
        .filter(|p| p.is_dir())
    else {
        println!("note: OLMSAT_CORPUS names no corpus; the image benchmark is skipped");
        return;
    };
    let tmp = tempfile::tempdir().expect("temporary directory");
    let layout = tmp.path().join("layout");
    write_layout(&layout, &catalog);
    let image = format!("oci:{}:cat", layout.display());
    let from_dir = load_path(&catalog).expect("the catalog loads");
    let from_image = load_path(Path::new(&image)).expect("the image loads");
    // The same blobs (their locations name the image instead of the directory).
    let names = |c: &olmsat_catalog::DeclarativeConfig| -> Vec<String> {
        c.bundles.iter().map(|b| b.name.clone()).collect()
    };
    assert_eq!(names(&from_dir.config), names(&from_image.config));
    assert_eq!(
        from_dir.config.packages.len(),
        from_image.config.packages.len()
    );
    assert_eq!(from_dir.diagnostics.len(), from_image.diagnostics.len());

    let mut g = c.benchmark_group("image/community-v4.20");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("directory", |b| {
        b.iter(|| load_path(&catalog).expect("loads"))
    });
    g.bench_function("oci-layout-gzip", |b| {
        b.iter(|| load_path(Path::new(&image)).expect("loads"))
    });
    g.finish();
}

criterion_group!(benches, bench_image);
criterion_main!(benches);
