//! Catalog and bundle images on disk, built by real image tools (umoci and
//! skopeo, which CI installs), read by every command that reads catalogs or
//! bundles: OCI layouts, oci-archive and docker-archive, whiteouts across
//! layers, multi-platform indexes, and hostile images.

#[path = "cli_common/mod.rs"]
mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{olmsat_in, support as corpus, Run};
use serde_json::Value;

const CONFIGS_LABEL: &str = "operators.operatorframework.io.index.configs.v1";
/// A real catalog of the repository's corpus.
const CATALOG: &str = "fbc/aws-load-balancer-operator/catalog/v4.20";
/// A real bundle of the repository's corpus.
const BUNDLE: &str = "bundles/testdata-operator-registry/etcd.0.9.2";

/// Whether umoci and skopeo are there (else a skip line, a failure in CI).
fn tools(what: &str) -> bool {
    corpus::require_tool("umoci", what) && corpus::require_tool("skopeo", what)
}

/// Run a tool in `dir`; a failure stops the test with its output.
fn run(dir: &Path, program: &str, args: &[&str]) {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("running {program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn olmsat(dir: &Path, args: &[&str]) -> Run {
    olmsat_in(dir, args, "", &[])
}

fn own(rel: &str) -> PathBuf {
    corpus::own().join(rel)
}

/// A layout `L` in `dir` with image `tag`: a new image, `inserts` (source,
/// target) each a layer, then `labels`.
fn build(dir: &Path, tag: &str, inserts: &[(&Path, &str)], labels: &[(&str, &str)]) {
    if !dir.join("L/oci-layout").exists() {
        run(dir, "umoci", &["init", "--layout", "L"]);
    }
    let image = format!("L:{tag}");
    run(dir, "umoci", &["new", "--image", &image]);
    for (source, target) in inserts {
        let source = source.to_str().expect("a UTF-8 path");
        run(dir, "umoci", &["insert", "--image", &image, source, target]);
    }
    if !labels.is_empty() {
        let mut args = vec!["config".to_owned(), "--image".into(), image.clone()];
        for (k, v) in labels {
            args.push("--config.label".into());
            args.push(format!("{k}={v}"));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run(dir, "umoci", &args);
    }
}

/// A catalog image `cat` of the corpus catalog, and its archives.
fn catalog_image(dir: &Path) {
    build(
        dir,
        "cat",
        &[(&own(CATALOG), "/configs")],
        &[(CONFIGS_LABEL, "/configs")],
    );
    run(
        dir,
        "skopeo",
        &["copy", "-q", "oci:L:cat", "oci-archive:cat.tar"],
    );
    run(
        dir,
        "skopeo",
        &[
            "copy",
            "-q",
            "oci:L:cat",
            "docker-archive:cat-d.tar:example.com/cat:v1",
        ],
    );
}

fn bundle_labels() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "operators.operatorframework.io.bundle.mediatype.v1",
            "registry+v1",
        ),
        (
            "operators.operatorframework.io.bundle.manifests.v1",
            "manifests/",
        ),
        (
            "operators.operatorframework.io.bundle.metadata.v1",
            "metadata/",
        ),
        ("operators.operatorframework.io.bundle.package.v1", "etcd"),
        (
            "operators.operatorframework.io.bundle.channels.v1",
            "alpha,stable",
        ),
        (
            "operators.operatorframework.io.bundle.channel.default.v1",
            "alpha",
        ),
    ]
}

/// A bundle image `bundle` of the corpus bundle, and its docker-archive.
fn bundle_image(dir: &Path) {
    let b = own(BUNDLE);
    build(
        dir,
        "bundle",
        &[
            (&b.join("manifests"), "/manifests"),
            (&b.join("metadata"), "/metadata"),
        ],
        &bundle_labels(),
    );
    run(
        dir,
        "skopeo",
        &[
            "copy",
            "-q",
            "oci:L:bundle",
            "docker-archive:bundle-d.tar:quay.io/example/etcd-bundle:v0.9.2",
        ],
    );
}

#[test]
fn a_catalog_image_reads_as_its_directory_in_every_transport() {
    if !tools("catalog images") {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    catalog_image(dir);
    let catalog = own(CATALOG);
    let want = olmsat(dir, &["render", catalog.to_str().unwrap()]);
    assert_eq!(want.code, 0, "{}", want.stderr);
    let list = olmsat(dir, &["list", "bundles", catalog.to_str().unwrap()]);
    for image in [
        "oci:L:cat",
        "oci-archive:cat.tar",
        "docker-archive:cat-d.tar",
    ] {
        let r = olmsat(dir, &["render", image]);
        assert_eq!(r.code, 0, "{image}: {}", r.stderr);
        assert!(
            r.stdout == want.stdout,
            "{image}: render differs from the directory's"
        );
        let r = olmsat(dir, &["validate", image]);
        assert_eq!(r.code, 0, "{image}: {}{}", r.stdout, r.stderr);
        let r = olmsat(dir, &["list", "bundles", image]);
        assert_eq!(r.stdout, list.stdout, "{image}");
    }
    // The same catalog named in other commands.
    let r = olmsat(
        dir,
        &[
            "graph",
            "oci:L:cat",
            "--package",
            "aws-load-balancer-operator",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = olmsat(
        dir,
        &[
            "diff",
            catalog.to_str().unwrap(),
            "docker-archive:cat-d.tar:example.com/cat:v1",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // A layout directory holding one image is an image too.
    let one = tempfile::tempdir().unwrap();
    run(
        dir,
        "skopeo",
        &[
            "copy",
            "-q",
            "oci:L:cat",
            &format!("oci:{}:x", one.path().display()),
        ],
    );
    let r = olmsat(dir, &["validate", one.path().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn zstd_layers_read_as_gzip_layers() {
    if !tools("zstd catalog images") {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    catalog_image(dir);
    run(
        dir,
        "skopeo",
        &[
            "copy",
            "-q",
            "--dest-compress",
            "--dest-compress-format",
            "zstd",
            "oci:L:cat",
            "oci:Z:cat",
        ],
    );
    let index = fs::read_to_string(dir.join("Z/index.json")).unwrap();
    let digest = index.split("sha256:").nth(1).unwrap()[..64].to_owned();
    let manifest = fs::read_to_string(dir.join("Z/blobs/sha256").join(&digest)).unwrap();
    assert!(manifest.contains("tar+zstd"), "{manifest}");
    let a = olmsat(dir, &["render", "oci:L:cat"]);
    let b = olmsat(dir, &["render", "oci:Z:cat"]);
    assert_eq!(b.code, 0, "{}", b.stderr);
    assert!(a.stdout == b.stdout);
}

/// A catalog with one error, in an image: the location names the image.
#[test]
fn diagnostics_name_the_image_and_the_path_inside_it() {
    if !tools("image diagnostics") {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    let cat = dir.join("catalog/pkg");
    fs::create_dir_all(&cat).unwrap();
    fs::write(
        cat.join("catalog.json"),
        "{\"schema\":\"olm.package\",\"name\":\"pkg\",\"defaultChannel\":\"stable\"}\n{\"schema\":\"olm.channel\",\"name\":\"stable\",\"package\":\"pkg\",\"entries\":[{\"name\":\"pkg.v1.0.0\"}]}\n{\"schema\":\"olm.bundle\",\"name\":\"pkg.v1.0.0\",\"package\":\"pkg\",\"image\":\"quay.io/x/pkg:v1\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"pkg\",\"version\":\"1.0.0.0\"}}]}\n",
    )
    .unwrap();
    build(
        dir,
        "bad",
        &[(&dir.join("catalog"), "/configs")],
        &[(CONFIGS_LABEL, "/configs")],
    );
    let r = olmsat(dir, &["validate", "oci:L:bad", "-o", "json"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let files: Vec<&str> = v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["file"].as_str())
        .collect();
    assert!(!files.is_empty(), "{v}");
    assert!(
        files
            .iter()
            .all(|f| *f == "oci:L:bad!/configs/pkg/catalog.json"),
        "{files:?}"
    );
    let r = olmsat(dir, &["validate", "oci:L:bad"]);
    assert!(
        r.stdout.contains("oci:L:bad!/configs/pkg/catalog.json:3"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_bundle_image_validates_and_renders_as_its_directory() {
    if !tools("bundle images") {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    bundle_image(dir);
    let b = own(BUNDLE);
    let on_disk = olmsat(
        dir,
        &["bundle", "validate", b.to_str().unwrap(), "-o", "json"],
    );
    let in_image = olmsat(dir, &["bundle", "validate", "oci:L:bundle", "-o", "json"]);
    assert_eq!(in_image.code, on_disk.code, "{}", in_image.stderr);
    let messages = |r: &Run| -> Vec<String> {
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        v["errors"]
            .as_array()
            .unwrap()
            .iter()
            .chain(v["warnings"].as_array().unwrap())
            .map(|e| e["message"].as_str().unwrap().to_owned())
            .collect()
    };
    // The corpus bundle's annotations lack three keys the labels have: those
    // are the only findings the image adds.
    let (disk, image) = (messages(&on_disk), messages(&in_image));
    let added: Vec<&String> = image.iter().filter(|m| !disk.contains(m)).collect();
    assert_eq!(added.len(), 3, "{added:?}");
    assert!(
        added
            .iter()
            .all(|m| m.contains("is not in annotations.yaml")),
        "{added:?}"
    );
    assert!(disk.iter().all(|m| image.contains(m)));

    // Rendered: the bundle's blob, with the image it was saved as.
    let want = olmsat(
        dir,
        &[
            "render",
            b.to_str().unwrap(),
            "--image-ref-template",
            "quay.io/example/etcd-bundle:v0.9.2",
        ],
    );
    assert_eq!(want.code, 0, "{}", want.stderr);
    let r = olmsat(dir, &["render", "docker-archive:bundle-d.tar"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout == want.stdout, "{}", r.stdout);
    run(
        dir,
        "skopeo",
        &[
            "copy",
            "-q",
            "oci:L:bundle",
            "oci-archive:bundle.tar:quay.io/example/etcd-bundle:v0.9.2",
        ],
    );
    let r = olmsat(dir, &["render", "oci-archive:bundle.tar"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout == want.stdout, "{}", r.stdout);
    let r = olmsat(
        dir,
        &["bundle", "validate", "oci-archive:bundle.tar", "-o", "json"],
    );
    assert_eq!(messages(&r), image);
    let r = olmsat(dir, &["render", "oci:L:bundle", "-o", "json"]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let image = v["image"].as_str().unwrap();
    assert!(image.starts_with("bundle@sha256:"), "{image}");
    assert!(
        v["relatedImages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["image"] == image),
        "{v}"
    );
    let r = olmsat(
        dir,
        &[
            "render",
            "oci:L:bundle",
            "--image-ref-template",
            "quay.io/x/b:1",
        ],
    );
    assert!(
        r.stdout.contains("\"image\": \"quay.io/x/b:1\""),
        "{}",
        r.stdout
    );
}

#[test]
fn labels_that_disagree_with_annotations_are_reported() {
    if !tools("bundle image labels") {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    let b = own(BUNDLE);
    let mut labels = bundle_labels();
    labels[4].1 = "beta";
    build(
        dir,
        "bundle",
        &[
            (&b.join("manifests"), "/manifests"),
            (&b.join("metadata"), "/metadata"),
        ],
        &labels,
    );
    let r = olmsat(dir, &["bundle", "validate", "oci:L:bundle"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.contains("oci:L:bundle!/metadata/annotations.yaml:3:54: error[image-label-mismatch]: image label operators.operatorframework.io.bundle.channels.v1=\"beta\" disagrees with annotations.yaml (\"alpha,stable\")"),
        "{}",
        r.stdout
    );
}

#[test]
fn whiteouts_delete_and_replace_files_across_layers() {
    if !tools("whiteouts") {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    // Layer 1: two packages. Layer 2 deletes one, replaces the other's file.
    let two = dir.join("two");
    for (pkg, ver) in [("a", "1.0.0"), ("b", "1.0.0")] {
        let p = two.join(pkg);
        fs::create_dir_all(&p).unwrap();
        fs::write(p.join("catalog.json"), package(pkg, ver)).unwrap();
    }
    let newer = dir.join("newer.json");
    fs::write(&newer, package("b", "2.0.0")).unwrap();
    build(
        dir,
        "w",
        &[(&two, "/configs")],
        &[(CONFIGS_LABEL, "/configs")],
    );
    run(
        dir,
        "umoci",
        &["insert", "--image", "L:w", "--whiteout", "/configs/a"],
    );
    run(
        dir,
        "umoci",
        &[
            "insert",
            "--image",
            "L:w",
            newer.to_str().unwrap(),
            "/configs/b/catalog.json",
        ],
    );
    // An opaque directory: only what this layer puts in /configs/c is left.
    let c = dir.join("c");
    fs::create_dir_all(&c).unwrap();
    fs::write(c.join("catalog.json"), package("c", "3.0.0")).unwrap();
    run(
        dir,
        "umoci",
        &[
            "insert",
            "--image",
            "L:w",
            "--opaque",
            c.to_str().unwrap(),
            "/configs/c",
        ],
    );
    run(
        dir,
        "skopeo",
        &["copy", "-q", "oci:L:w", "docker-archive:w.tar"],
    );
    run(
        dir,
        "skopeo",
        &["copy", "-q", "oci:L:w", "oci-archive:w-oci.tar"],
    );
    for image in ["oci:L:w", "docker-archive:w.tar", "oci-archive:w-oci.tar"] {
        let r = olmsat(dir, &["list", "bundles", image]);
        assert_eq!(r.code, 0, "{image}: {}", r.stderr);
        let names: Vec<&str> = r
            .stdout
            .lines()
            .skip(1)
            .filter_map(|l| l.split_whitespace().nth(2))
            .collect();
        assert_eq!(names, ["b.v2.0.0", "c.v3.0.0"], "{image}: {}", r.stdout);
    }
}

/// One package with one bundle, as a catalog file.
fn package(name: &str, version: &str) -> String {
    format!(
        "{{\"schema\":\"olm.package\",\"name\":\"{name}\",\"defaultChannel\":\"stable\"}}\n{{\"schema\":\"olm.channel\",\"name\":\"stable\",\"package\":\"{name}\",\"entries\":[{{\"name\":\"{name}.v{version}\"}}]}}\n{{\"schema\":\"olm.bundle\",\"name\":\"{name}.v{version}\",\"package\":\"{name}\",\"image\":\"quay.io/x/{name}:v{version}\",\"properties\":[{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"{name}\",\"version\":\"{version}\"}}}}]}}\n"
    )
}

/// The manifest descriptor `index.json` of layout `L` gives for `tag`.
fn descriptor(dir: &Path, tag: &str) -> Value {
    let index: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("L/index.json")).unwrap()).unwrap();
    index["manifests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["annotations"]["org.opencontainers.image.ref.name"] == tag)
        .unwrap()
        .clone()
}

#[test]
fn a_multi_platform_index_is_read_for_the_platform_asked_for() {
    if !tools("multi-platform images") {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    let amd = dir.join("amd");
    let arm = dir.join("arm");
    for (d, v) in [(&amd, "1.0.0"), (&arm, "2.0.0")] {
        fs::create_dir_all(d.join("p")).unwrap();
        fs::write(d.join("p/catalog.json"), package("p", v)).unwrap();
    }
    build(
        dir,
        "amd",
        &[(&amd, "/configs")],
        &[(CONFIGS_LABEL, "/configs")],
    );
    build(
        dir,
        "arm",
        &[(&arm, "/configs")],
        &[(CONFIGS_LABEL, "/configs")],
    );
    run(
        dir,
        "umoci",
        &["config", "--image", "L:arm", "--architecture", "arm64"],
    );
    // The distribution's tools write no multi-platform index: write one over
    // their manifests, as the image index of a multi-arch catalog is.
    let mut entries = Vec::new();
    for (tag, arch) in [("amd", "amd64"), ("arm", "arm64")] {
        let mut d = descriptor(dir, tag);
        d.as_object_mut().unwrap().remove("annotations");
        d["platform"] = serde_json::json!({"os": "linux", "architecture": arch});
        entries.push(d);
    }
    let index = serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.index.v1+json",
        "manifests": entries,
    });
    let bytes = serde_json::to_vec(&index).unwrap();
    let digest = sha256_hex(&dir.join("nested.json"), &bytes);
    fs::write(dir.join("L/blobs/sha256").join(&digest), &bytes).unwrap();
    let top = serde_json::json!({
        "schemaVersion": 2,
        "manifests": [{
            "mediaType": "application/vnd.oci.image.index.v1+json",
            "digest": format!("sha256:{digest}"),
            "size": bytes.len(),
            "annotations": {"org.opencontainers.image.ref.name": "multi"},
        }],
    });
    fs::write(dir.join("L/index.json"), serde_json::to_vec(&top).unwrap()).unwrap();

    let r = olmsat(dir, &["list", "bundles", "oci:L:multi"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("p.v1.0.0"), "{}", r.stdout);
    assert!(
        r.stderr.contains("note: oci:L:multi: read platform linux/amd64 of a multi-platform index (linux/amd64, linux/arm64)"),
        "{}",
        r.stderr
    );
    let r = olmsat(
        dir,
        &[
            "list",
            "bundles",
            "oci:L:multi",
            "--platform",
            "linux/arm64",
        ],
    );
    assert!(r.stdout.contains("p.v2.0.0"), "{}{}", r.stdout, r.stderr);
    let r = olmsat(
        dir,
        &[
            "list",
            "bundles",
            "oci:L:multi",
            "--platform",
            "linux/s390x",
        ],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("no image for platform linux/s390x; the index has: linux/amd64, linux/arm64"),
        "{}",
        r.stderr
    );
    let r = olmsat(
        dir,
        &["list", "bundles", "oci:L:multi", "--platform", "linux"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// The SHA-256 of `bytes`, by the system's sha256sum (written to `scratch`).
fn sha256_hex(scratch: &Path, bytes: &[u8]) -> String {
    fs::write(scratch, bytes).unwrap();
    let out = Command::new("sha256sum").arg(scratch).output().unwrap();
    String::from_utf8_lossy(&out.stdout)[..64].to_owned()
}

#[test]
fn names_pick_the_image_and_registry_references_are_refused() {
    if !tools("image names") {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    catalog_image(dir);
    bundle_image(dir);
    let r = olmsat(dir, &["validate", "oci:L"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("oci:L: holds 2 images; name one with :REF (one of: cat, bundle)"),
        "{}",
        r.stderr
    );
    let r = olmsat(dir, &["validate", "L"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = olmsat(dir, &["validate", "oci:L:nope"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("no image named \"nope\"; the images are: cat, bundle"),
        "{}",
        r.stderr
    );
    let r = olmsat(
        dir,
        &["validate", "docker-archive:cat-d.tar:example.com/cat:v2"],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("@0 (example.com/cat:v1)"), "{}", r.stderr);
    let r = olmsat(dir, &["validate", "docker-archive:cat-d.tar:@0"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = olmsat(dir, &["validate", "oci:L:bundle"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("a bundle image, where a catalog is expected"),
        "{}",
        r.stderr
    );
    let r = olmsat(dir, &["validate", "quay.io/operatorhubio/catalog:latest"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("olmsat does not pull images; save the image first, e.g. skopeo copy docker://quay.io/operatorhubio/catalog:latest oci:DIR"),
        "{}",
        r.stderr
    );
    let r = olmsat(
        dir,
        &[
            "resolve",
            "--catalog",
            "c=quay.io/x/y:1",
            "--subscribe",
            "aws-load-balancer-operator",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("olmsat does not pull images"),
        "{}",
        r.stderr
    );
}

#[test]
fn resolve_reads_a_catalog_image() {
    if !tools("resolve with catalog images") {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    catalog_image(dir);
    let catalog = own(CATALOG);
    let from_dir = olmsat(
        dir,
        &[
            "resolve",
            "--catalog",
            &format!("c={}", catalog.display()),
            "--subscribe",
            "aws-load-balancer-operator",
        ],
    );
    let from_image = olmsat(
        dir,
        &[
            "resolve",
            "--catalog",
            "c=oci-archive:cat.tar",
            "--subscribe",
            "aws-load-balancer-operator",
        ],
    );
    assert_eq!(from_dir.code, 0, "{}", from_dir.stderr);
    assert_eq!(from_image.code, from_dir.code, "{}", from_image.stderr);
    assert_eq!(from_image.stdout, from_dir.stdout);
}

/// Overwrite the blob a descriptor of `L/index.json` names with `edit` of it.
fn edit_blob(dir: &Path, digest: &str, edit: impl FnOnce(&mut Vec<u8>)) {
    let p = dir
        .join("L/blobs/sha256")
        .join(digest.trim_start_matches("sha256:"));
    let mut bytes = fs::read(&p).unwrap();
    edit(&mut bytes);
    let _ = fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o644));
    fs::write(&p, bytes).unwrap();
}

#[test]
fn hostile_images_are_clear_errors() {
    if !tools("hostile images") {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    catalog_image(dir);
    let listing = |d: &Path| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        v.sort();
        v
    };
    let before = listing(dir);

    // A blob whose content is not its digest.
    let d = descriptor(dir, "cat");
    let manifest: Value = serde_json::from_slice(
        &fs::read(
            dir.join("L/blobs/sha256")
                .join(&d["digest"].as_str().unwrap()[7..]),
        )
        .unwrap(),
    )
    .unwrap();
    let layer = manifest["layers"][0]["digest"].as_str().unwrap().to_owned();
    run(dir, "cp", &["-a", "L", "L.orig"]);
    edit_blob(dir, &layer, |b| {
        let n = b.len() / 2;
        b[n] ^= 0xff;
    });
    let r = olmsat(dir, &["validate", "oci:L:cat"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains(&format!(
            "oci:L:cat: blob {layer}: its content has digest sha256:"
        )),
        "{}",
        r.stderr
    );
    // A truncated blob.
    edit_blob(dir, &layer, |b| b.truncate(b.len() / 2));
    let r = olmsat(dir, &["validate", "oci:L:cat"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains(&format!("blob {layer}: ")),
        "{}",
        r.stderr
    );
    fs::remove_dir_all(dir.join("L")).unwrap();
    fs::rename(dir.join("L.orig"), dir.join("L")).unwrap();

    // A truncated archive.
    let bytes = fs::read(dir.join("cat.tar")).unwrap();
    fs::write(dir.join("cut.tar"), &bytes[..bytes.len() / 3]).unwrap();
    let r = olmsat(dir, &["validate", "oci-archive:cut.tar"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.starts_with("olmsat: oci-archive:cut.tar: "),
        "{}",
        r.stderr
    );

    // Layers that reach outside the root, added verbatim by umoci.
    let evil = dir.join("evil");
    fs::create_dir_all(evil.join("configs")).unwrap();
    std::os::unix::fs::symlink("../../../../etc/passwd", evil.join("configs/link")).unwrap();
    run(&evil, "tar", &["-cf", "../link.tar", "configs"]);
    fs::write(evil.join("x.json"), "{}").unwrap();
    run(&evil, "tar", &["-cPf", "../dotdot.tar", "../evil/x.json"]);
    for (layer, needle) in [
        ("link.tar", "entry \"configs/link\": a symbolic link to \"../../../../etc/passwd\", outside the image's root"),
        ("dotdot.tar", "entry \"../evil/x.json\": a path with a \"..\" component"),
    ] {
        let tag = layer.trim_end_matches(".tar");
        run(dir, "umoci", &["raw", "add-layer", "--image", "L:cat", "--tag", tag, layer]);
        let r = olmsat(dir, &["validate", &format!("oci:L:{tag}")]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains(needle), "{}", r.stderr);
    }
    // Nothing was written beside the images.
    let after = listing(dir);
    let added: Vec<&PathBuf> = after.iter().filter(|p| !before.contains(p)).collect();
    let names: Vec<String> = added
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["cut.tar", "dotdot.tar", "evil", "link.tar"]);
    assert!(!Path::new("/etc/passwd.olmsat").exists());
}

/// The full community catalog read as an image gives what its directory gives.
#[test]
fn the_full_community_catalog_reads_as_an_image() {
    let Some(full) = corpus::require_full("the community catalog as an image") else {
        return;
    };
    if !tools("the community catalog as an image") {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    let catalog = full.join("fbc/community-operators-prod/catalogs/v4.20");
    build(
        dir,
        "c",
        &[(&catalog, "/configs")],
        &[(CONFIGS_LABEL, "/configs")],
    );
    let a = olmsat(dir, &["list", "bundles", catalog.to_str().unwrap()]);
    let b = olmsat(dir, &["list", "bundles", "oci:L:c"]);
    assert_eq!(b.code, a.code, "{}", b.stderr);
    assert!(a.stdout == b.stdout);
}

#[test]
fn templates_find_bundles_in_bundle_and_catalog_images() {
    if !tools("templates with images") {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    bundle_image(dir);
    let image = "quay.io/example/etcd-bundle:v0.9.2";
    fs::write(
        dir.join("basic.yaml"),
        format!(
            "schema: olm.template.basic\nentries:\n- schema: olm.package\n  name: etcd\n  defaultChannel: alpha\n- schema: olm.channel\n  package: etcd\n  name: alpha\n  entries:\n  - name: etcdoperator.v0.9.2\n- schema: olm.bundle\n  image: {image}\n"
        ),
    )
    .unwrap();
    let r = olmsat(
        dir,
        &[
            "render-template",
            "basic.yaml",
            "--bundles-from",
            "docker-archive:bundle-d.tar",
            "-o",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(&format!("\"image\": \"{image}\"")),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("\"name\": \"etcdoperator.v0.9.2\""),
        "{}",
        r.stdout
    );
    // The rendered catalog, saved as a catalog image, serves the same template.
    let out = dir.join("out");
    fs::create_dir_all(out.join("etcd")).unwrap();
    fs::write(out.join("etcd/catalog.json"), &r.stdout).unwrap();
    build(
        dir,
        "rendered",
        &[(&out, "/configs")],
        &[(CONFIGS_LABEL, "/configs")],
    );
    let again = olmsat(
        dir,
        &[
            "render-template",
            "basic.yaml",
            "--bundles-from",
            "oci:L:rendered",
            "-o",
            "json",
        ],
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(again.stdout == r.stdout);
}

/// An OCI layout `L` in `dir` written by hand (no image tools needed): one
/// image of the directory trees `layers` (each a tar made by `tar`), with
/// the config's `labels`. Gives the layers' digests.
fn hand_layout(dir: &Path, layers: &[&Path], labels: &[(&str, &str)]) -> Vec<String> {
    let l = dir.join("L");
    fs::create_dir_all(l.join("blobs/sha256")).unwrap();
    fs::write(l.join("oci-layout"), r#"{"imageLayoutVersion":"1.0.0"}"#).unwrap();
    let put = |bytes: &[u8]| -> Value {
        let hex = sha256_hex(&dir.join("scratch"), bytes);
        fs::write(l.join("blobs/sha256").join(&hex), bytes).unwrap();
        serde_json::json!({"digest": format!("sha256:{hex}"), "size": bytes.len()})
    };
    let mut descriptors = Vec::new();
    for (i, tree) in layers.iter().enumerate() {
        let tar = dir.join(format!("layer{i}.tar"));
        run(
            tree,
            "tar",
            &["-cf", tar.to_str().unwrap(), "--sort=name", "."],
        );
        let mut d = put(&fs::read(&tar).unwrap());
        d["mediaType"] = "application/vnd.oci.image.layer.v1.tar".into();
        descriptors.push(d);
    }
    let digests: Vec<String> = descriptors
        .iter()
        .map(|d| d["digest"].as_str().unwrap().to_owned())
        .collect();
    let labels: serde_json::Map<String, Value> = labels
        .iter()
        .map(|(k, v)| ((*k).to_owned(), Value::from(*v)))
        .collect();
    let config = serde_json::json!({
        "architecture": "amd64", "os": "linux",
        "config": {"Labels": labels},
        "rootfs": {"type": "layers", "diff_ids": digests},
    });
    let mut c = put(&serde_json::to_vec(&config).unwrap());
    c["mediaType"] = "application/vnd.oci.image.config.v1+json".into();
    let manifest = serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": c,
        "layers": descriptors,
    });
    let mut m = put(&serde_json::to_vec(&manifest).unwrap());
    m["mediaType"] = "application/vnd.oci.image.manifest.v1+json".into();
    let index = serde_json::json!({"schemaVersion": 2, "manifests": [m]});
    fs::write(l.join("index.json"), serde_json::to_vec(&index).unwrap()).unwrap();
    digests
}

/// A directory tree `dir/name` holding catalog files `(path, package)`.
fn catalog_tree(dir: &Path, name: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = dir.join(name);
    for (path, pkg) in files {
        let p = root.join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, package(pkg, "1.0.0")).unwrap();
    }
    root
}

/// A named pipe at `path` (nothing ever writes to it).
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// The package names `olmsat list packages` gives for `image`.
fn packages(dir: &Path, image: &str) -> Vec<String> {
    let r = olmsat(dir, &["list", "packages", image]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stdout
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect()
}

#[test]
fn named_pipes_and_devices_in_a_layout_are_refused_without_waiting() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    let tree = catalog_tree(dir, "c", &[("configs/p/catalog.json", "p")]);
    let layer = &hand_layout(dir, &[&tree], &[])[0];
    assert_eq!(packages(dir, "oci:L"), ["p"]);
    // index.json a named pipe: reading it would wait for a writer forever.
    let index = dir.join("L/index.json");
    fs::rename(&index, dir.join("index.json")).unwrap();
    mkfifo(&index);
    let r = olmsat(dir, &["validate", "oci:L"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        r.stderr,
        "olmsat: oci:L: L/index.json is a named pipe, not a regular file; olmsat reads only regular files from an image on disk (it never waits on a named pipe or reads a device): save the image again\n"
    );
    fs::remove_file(&index).unwrap();
    fs::rename(dir.join("index.json"), &index).unwrap();
    // The layer's blob a named pipe, then a link to /dev/zero.
    let blob = dir.join("L/blobs/sha256").join(&layer[7..]);
    fs::remove_file(&blob).unwrap();
    mkfifo(&blob);
    let r = olmsat(dir, &["validate", "oci:L"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!(
            "oci:L: L/blobs/sha256/{} is a named pipe, not a regular file",
            &layer[7..]
        )),
        "{}",
        r.stderr
    );
    fs::remove_file(&blob).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &blob).unwrap();
    let r = olmsat(dir, &["validate", "oci:L"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!(
            "oci:L: L/blobs/sha256/{} is a symbolic link to /dev/zero, outside the layout directory",
            &layer[7..]
        )),
        "{}",
        r.stderr
    );
}

#[test]
fn a_blob_far_larger_than_its_descriptor_is_refused_by_its_size() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    let tree = catalog_tree(dir, "c", &[("configs/p/catalog.json", "p")]);
    let layer = &hand_layout(dir, &[&tree], &[])[0];
    let blob = dir.join("L/blobs/sha256").join(&layer[7..]);
    let size = fs::metadata(&blob).unwrap().len();
    // 6 GiB, sparse: reading it whole would cost gigabytes of memory.
    fs::File::create(&blob).unwrap().set_len(6 << 30).unwrap();
    let r = olmsat(dir, &["validate", "oci:L"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        r.stderr,
        format!("olmsat: oci:L: blob {layer}: 6442450944 bytes, where its descriptor says {size}; the image is corrupt or was modified, save it again\n")
    );
}

#[test]
fn a_root_opaque_whiteout_hides_the_layers_below() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    let lower = catalog_tree(
        dir,
        "lower",
        &[
            ("configs/a/catalog.json", "a"),
            ("configs/b/catalog.json", "b"),
        ],
    );
    let upper = catalog_tree(dir, "upper", &[("configs/c/catalog.json", "c")]);
    fs::write(upper.join(".wh..wh..opq"), "").unwrap();
    hand_layout(dir, &[&lower, &upper], &[(CONFIGS_LABEL, "/configs")]);
    assert_eq!(packages(dir, "oci:L"), ["c"]);
}

#[test]
fn a_catalog_directory_linked_inside_the_image_is_read_from_there() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    let files = catalog_tree(
        dir,
        "files",
        &[
            ("data/catalog/p/catalog.json", "p"),
            ("data/catalog/q/catalog.json", "q"),
        ],
    );
    let link = dir.join("link");
    fs::create_dir_all(&link).unwrap();
    std::os::unix::fs::symlink("data/catalog", link.join("configs")).unwrap();
    hand_layout(dir, &[&files, &link], &[(CONFIGS_LABEL, "/configs")]);
    assert_eq!(packages(dir, "oci:L"), ["p", "q"]);
    let want = olmsat(dir, &["render", "files/data/catalog"]);
    let r = olmsat(dir, &["render", "oci:L"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, want.stdout);
    // Locations name the directory the label names.
    fs::write(files.join("data/catalog/q/catalog.json"), "{\"schema\":").unwrap();
    fs::remove_dir_all(dir.join("L")).unwrap();
    hand_layout(dir, &[&files, &link], &[(CONFIGS_LABEL, "/configs")]);
    let r = olmsat(dir, &["validate", "oci:L"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("oci:L!/configs/q/catalog.json:1"),
        "{}",
        r.stdout
    );
}

#[test]
fn bad_fields_of_an_index_are_named() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    let tree = catalog_tree(dir, "c", &[("configs/p/catalog.json", "p")]);
    hand_layout(dir, &[&tree], &[]);
    let index_path = dir.join("L/index.json");
    let good: Value = serde_json::from_slice(&fs::read(&index_path).unwrap()).unwrap();
    let digest = good["manifests"][0]["digest"].as_str().unwrap().to_owned();
    for (field, value, needle) in [
        (
            "digest",
            Value::from(format!("sha256:{}", digest[7..].to_uppercase())),
            "field manifests[0].digest: \"sha256:",
        ),
        (
            "size",
            Value::from(-5),
            "field manifests[0].size: -5 is negative; a size is a count of bytes, 0 or more",
        ),
        (
            "mediaType",
            Value::from(7),
            "field manifests[0].mediaType: the number 7, where a media type string is expected",
        ),
    ] {
        let mut bad = good.clone();
        bad["manifests"][0][field] = value;
        fs::write(&index_path, serde_json::to_vec(&bad).unwrap()).unwrap();
        let r = olmsat(dir, &["validate", "oci:L"]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(
            r.stderr.starts_with("olmsat: oci:L: index index.json: ") && r.stderr.contains(needle),
            "{field}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("serde failed"), "{}", r.stderr);
    }
}
