//! Rendering bundle directories to `olm.bundle` blobs: exact output for the fixture
//! bundle, the errors opm reports, and byte-for-byte parity with real catalogs that
//! were rendered from the corpus bundles.

mod common;

use std::collections::BTreeMap;

use base64::Engine as _;
use common::{bundle, Edit::*};
use olmsat_bundle::render::{migrate_to_csv_metadata, render_dir, ImageTemplate, RenderOptions};
use olmsat_catalog::declcfg::{Bundle, DeclarativeConfig};
use olmsat_catalog::load;
use olmsat_catalog::write::{write, Format};
use olmsat_encoding::rawjson::canonical_value;
use serde_json::{json, Value};

const V1: &str = "registry-v1/etcd";

fn render_ok(dir: &std::path::Path, opts: &RenderOptions) -> Bundle {
    let out = render_dir(dir, opts).unwrap();
    assert!(
        out.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        out.diagnostics
    );
    out.bundle.unwrap()
}

fn props(b: &Bundle) -> Vec<(String, Value)> {
    b.properties
        .iter()
        .map(|p| {
            (
                p.type_.clone(),
                canonical_value(&p.value).expect("valid JSON"),
            )
        })
        .collect()
}

#[test]
fn fixture_bundle_properties() {
    let b = render_ok(&common::fixtures().join(V1), &RenderOptions::default());
    assert_eq!(b.name, "etcdoperator.v0.9.4");
    assert_eq!(b.package, "etcd");
    assert_eq!(b.image, "");
    let p = props(&b);
    let (objects, rest): (Vec<_>, Vec<_>) = p.iter().partition(|(t, _)| t == "olm.bundle.object");
    let expected = vec![
        ("example.com/tier", json!({"tier": "gold"})),
        (
            "olm.constraint",
            json!({"cel": {"rule": "properties.exists(p, p.type == \"olm.label\" && p.value.label == \"certified\")"}, "failureMessage": "requires the certified label"}),
        ),
        (
            "olm.gvk",
            json!({"group": "etcd.database.coreos.com", "kind": "EtcdBackup", "version": "v1beta2"}),
        ),
        (
            "olm.gvk",
            json!({"group": "etcd.database.coreos.com", "kind": "EtcdCluster", "version": "v1beta2"}),
        ),
        (
            "olm.gvk",
            json!({"group": "stats.etcd.database.coreos.com", "kind": "EtcdStats", "version": "v1"}),
        ),
        (
            "olm.gvk.required",
            json!({"group": "cert-manager.io", "kind": "Certificate", "version": "v1"}),
        ),
        (
            "olm.gvk.required",
            json!({"group": "monitoring.coreos.com", "kind": "Prometheus", "version": "v1"}),
        ),
        ("olm.label", json!({"label": "certified"})),
        ("olm.maxOpenShiftVersion", json!("4.18")),
        (
            "olm.package",
            json!({"packageName": "etcd", "version": "0.9.4"}),
        ),
        (
            "olm.package.required",
            json!({"packageName": "prometheus", "versionRange": ">0.27.0"}),
        ),
    ];
    let got: Vec<(&str, &Value)> = rest.iter().map(|(t, v)| (t.as_str(), v)).collect();
    let want: Vec<(&str, &Value)> = expected.iter().map(|(t, v)| (*t, v)).collect();
    assert_eq!(got, want);
    // One object per manifest file, last, sorted by their base64 value.
    assert_eq!(objects.len(), 4);
    assert!(p[p.len() - 4..]
        .iter()
        .all(|(t, _)| t == "olm.bundle.object"));
    let data: Vec<&str> = objects
        .iter()
        .map(|(_, v)| v["data"].as_str().unwrap())
        .collect();
    let mut sorted = data.clone();
    sorted.sort();
    assert_eq!(data, sorted);
    let kinds: Vec<String> = data
        .iter()
        .map(|d| {
            let bytes = base64::engine::general_purpose::STANDARD.decode(d).unwrap();
            let v: Value = serde_json::from_slice(&bytes).unwrap();
            v["kind"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "CustomResourceDefinition",
            "CustomResourceDefinition",
            "ClusterServiceVersion",
            "Service"
        ]
    );
    // The objects are Go's compact JSON with sorted keys.
    let svc = base64::engine::general_purpose::STANDARD
        .decode(data[3])
        .unwrap();
    assert_eq!(
        String::from_utf8(svc).unwrap(),
        r#"{"apiVersion":"v1","kind":"Service","metadata":{"labels":{"name":"etcd-operator"},"name":"etcd-operator-metrics"},"spec":{"ports":[{"name":"metrics","port":8383}],"selector":{"name":"etcd-operator"}}}"#
    );
    let related: Vec<(&str, &str)> = b
        .related_images
        .iter()
        .map(|r| (r.name.as_str(), r.image.as_str()))
        .collect();
    assert_eq!(
        related,
        [
            ("", "quay.io/coreos/etcd-init:v0.9.4"),
            ("", "quay.io/coreos/etcd-operator:v0.9.4"),
            ("etcd", "quay.io/coreos/etcd:v3.4.0"),
        ]
    );
}

#[test]
fn image_template_and_csv_metadata() {
    let opts = RenderOptions {
        image_template: Some(
            ImageTemplate::parse("quay.io/x/{{.Package}}/{{.Name}}:{{.Version}}").unwrap(),
        ),
        csv_metadata: true,
    };
    let b = render_ok(&common::fixtures().join(V1), &opts);
    assert_eq!(b.image, "quay.io/x/etcd/etcdoperator.v0.9.4:0.9.4");
    assert!(b
        .related_images
        .iter()
        .any(|r| r.image == b.image && r.name.is_empty()));
    let p = props(&b);
    assert!(p.iter().all(|(t, _)| t != "olm.bundle.object"));
    let (t, meta) = p.last().unwrap();
    assert_eq!(t, "olm.csv.metadata");
    assert_eq!(meta["displayName"], "etcd");
    assert_eq!(meta["provider"], json!({"name": "CNCF"}));
    assert_eq!(
        meta["crdDescriptions"]["owned"][1],
        json!({"name": "etcdbackups.etcd.database.coreos.com", "version": "v1beta2", "kind": "EtcdBackup"})
    );
    assert_eq!(
        meta["installModes"],
        json!([{"type": "OwnNamespace", "supported": true}, {"type": "AllNamespaces", "supported": false}])
    );
}

#[test]
fn migration_of_a_loaded_catalog() {
    let b = render_ok(&common::fixtures().join(V1), &RenderOptions::default());
    let mut cfg = DeclarativeConfig::default();
    cfg.bundles.push(b);
    assert_eq!(migrate_to_csv_metadata(&mut cfg), 1);
    let types: Vec<&str> = cfg.bundles[0]
        .properties
        .iter()
        .map(|p| p.type_.as_str())
        .collect();
    assert_eq!(types.last(), Some(&"olm.csv.metadata"));
    assert!(!types.contains(&"olm.bundle.object"));
}

#[test]
fn rendered_bundle_round_trips_through_the_writer_and_loader() {
    let b = render_ok(&common::fixtures().join(V1), &RenderOptions::default());
    let mut cfg = DeclarativeConfig::default();
    cfg.bundles.push(b.clone());
    for format in [Format::Json, Format::Yaml] {
        let mut out = Vec::new();
        write(&cfg, format, &mut out).unwrap();
        let loaded = load::load_bytes("rendered", &out);
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        let back = &loaded.config.bundles[0];
        assert_eq!(back.name, b.name);
        assert_eq!(props(back), props(&b));
        assert_eq!(back.related_images, b.related_images);
    }
}

fn render_errors(edits: &[common::Edit]) -> Vec<String> {
    let (_t, dir) = bundle(V1, edits);
    let out = render_dir(&dir, &RenderOptions::default()).unwrap();
    assert!(out.bundle.is_none());
    out.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.clone())
        .collect()
}

#[test]
fn errors_opm_reports() {
    assert_eq!(
        render_errors(&[Remove("manifests/etcdclusters.crd.yaml")]),
        ["error checking provided apis in bundle etcdoperator.v0.9.4: couldn't find etcd.database.coreos.com/v1beta2/EtcdCluster (etcdclusters) in bundle. found: map[etcd.database.coreos.com/v1beta2/EtcdBackup (etcdbackups):{} stats.etcd.database.coreos.com/v1/EtcdStats (etcdstats):{}]"]
    );
    assert_eq!(
        render_errors(&[Remove(
            "manifests/etcdoperator.v0.9.4.clusterserviceversion.yaml"
        )]),
        ["no csv in bundle"]
    );
    assert_eq!(
        render_errors(&[Remove("metadata/annotations.yaml")]),
        ["Could not find annotations file"]
    );
    assert_eq!(
        render_errors(&[Write(
            "metadata/annotations.yaml",
            "annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n  operators.operatorframework.io.bundle.channels.v1: alpha\n"
        )]),
        ["Missing annotation \"operators.operatorframework.io.bundle.package.v1\""]
    );
    let (_t, dir) = bundle("plain-v0/combo", &[]);
    let out = render_dir(&dir, &RenderOptions::default()).unwrap();
    assert!(out.diagnostics[0]
        .message
        .starts_with("only registry+v1 bundles can be rendered; this bundle is plain+v0"));
}

#[test]
fn undecodable_metadata_files_are_ignored_as_opm_ignores_them() {
    let (_t, dir) = bundle(
        V1,
        &[Write(
            "metadata/dependencies.yaml",
            "dependencies:\n  - type: olm.gvk\n      value: {}\n",
        )],
    );
    let out = render_dir(&dir, &RenderOptions::default()).unwrap();
    let b = out.bundle.unwrap();
    assert!(b
        .properties
        .iter()
        .all(|p| p.type_ != "olm.package.required"));
    assert_eq!(out.diagnostics.len(), 1);
    assert!(!out.diagnostics[0].is_error());
    assert!(out.diagnostics[0]
        .message
        .ends_with("(ignored, as opm ignores what it cannot decode)"));
}

/// Render every bundle of `bundles_dir` (one directory per version, possibly with a
/// nested `bundle/`) and compare with the same bundles in the catalog at `catalog`:
/// properties and related images (less the bundle image, which a directory cannot know).
/// `None` (with a skip line) when neither the repository's corpus nor the full one has them.
fn parity(catalog: &str, bundles_dir: &str, csv_metadata: bool) -> Option<usize> {
    let what = format!("render parity of {bundles_dir}");
    let catalog = common::support::need(catalog, &what)?;
    let bundles_dir = common::support::need(bundles_dir, &what)?;
    let loaded = load::load_path(&catalog).unwrap();
    assert!(!loaded.has_errors());
    let refs: BTreeMap<&str, &Bundle> = loaded
        .config
        .bundles
        .iter()
        .map(|b| (b.name.as_str(), b))
        .collect();
    let opts = RenderOptions {
        image_template: None,
        csv_metadata,
    };
    let dirs = olmsat_bundle::read::find_bundles(&bundles_dir, false)
        .unwrap()
        .dirs;
    let mut compared = 0;
    for d in dirs {
        let b = render_ok(&d, &opts);
        let Some(r) = refs.get(b.name.as_str()) else {
            continue;
        };
        assert_eq!(props(&b), props(r), "{}", d.display());
        let related: Vec<_> = r
            .related_images
            .iter()
            .filter(|i| i.image != r.image)
            .cloned()
            .collect();
        assert_eq!(b.related_images, related, "{}", d.display());
        compared += 1;
    }
    Some(compared)
}

#[test]
fn parity_with_real_catalogs_bundle_objects() {
    for (package, expected) in [("shipwright-operator", 2), ("patterns-operator", 80)] {
        let n = parity(
            &format!("fbc/community-operators-prod/catalogs/v4.16/{package}"),
            &format!("bundles/community-operators-prod/{package}"),
            false,
        );
        if let Some(n) = n {
            assert_eq!(n, expected, "{package}");
        }
    }
}

#[test]
fn parity_with_real_catalogs_csv_metadata() {
    for (package, expected) in [
        ("multicluster-global-hub-operator", 3),
        ("rabbitmq-cluster-operator", 26),
        ("rabbitmq-messaging-topology-operator", 12),
    ] {
        let n = parity(
            &format!("fbc/community-operators-prod/catalogs/v4.20/{package}"),
            &format!("bundles/community-operators-prod/{package}"),
            true,
        );
        if let Some(n) = n {
            assert_eq!(n, expected, "{package}");
        }
    }
}
