//! The real bundles of the full corpus (`OLMSAT_CORPUS`, `bundles/`: 917 bundles of
//! 45 packages from community-operators-prod and certified-operators, plus 16
//! operator-registry test bundles): every bundle validated, a catalog built from all
//! of them, and that catalog validated. The expected outcomes were checked by hand
//! against the files; see `docs/bundles.md` for what they mean.
//!
//! One pass reads the corpus (validation and rendering share it) to keep the suite fast.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use olmsat_bundle::from_bundles::{build_catalog, write_catalog, FromBundlesOptions, GraphMode};
use olmsat_bundle::render::{ImageTemplate, RenderOptions};
use olmsat_catalog::load;
use olmsat_catalog::validate::validate;
use olmsat_catalog::write::Format;

fn package_of(path: &std::path::Path, root: &std::path::Path) -> String {
    let rel = path.strip_prefix(root).unwrap();
    let mut parts = rel.iter().map(|p| p.to_string_lossy().into_owned());
    let source = parts.next().unwrap();
    let next = parts.next().unwrap();
    if source == "testdata-operator-registry" {
        format!("{source}/{}", next.split('.').next().unwrap())
    } else {
        next
    }
}

#[test]
fn corpus_bundles_validate_render_and_build_a_catalog() {
    let Some(corpus) =
        common::support::require_full("corpus_bundles_validate_render_and_build_a_catalog")
    else {
        return;
    };
    let root = corpus.join("bundles");
    let build = build_catalog(
        &[&root],
        &FromBundlesOptions {
            mode: GraphMode::CiYaml,
            validate: true,
            follow_links: false,
            // olm.csv.metadata instead of bundle objects keeps the catalog small
            // (bundle objects are compared with real catalogs in bundle_render.rs);
            // bundles without objects need an image.
            render: RenderOptions {
                image_template: Some(ImageTemplate::parse("quay.io/corpus/{{.Package}}").unwrap()),
                csv_metadata: true,
            },
        },
    )
    .unwrap();

    // --- bundle validation ---
    let reports = &build.reports;
    assert_eq!(reports.len(), 933);
    let real: Vec<_> = reports
        .iter()
        .filter(|r| !r.path.starts_with(root.join("testdata-operator-registry")))
        .collect();
    assert_eq!(real.len(), 917);
    let mut invalid: BTreeMap<String, usize> = BTreeMap::new();
    for r in reports.iter().filter(|r| !r.passed()) {
        *invalid.entry(package_of(&r.path, &root)).or_default() += 1;
    }
    let want: BTreeMap<String, usize> = [
        // ClusterRole manifests without apiVersion (11 of 12 bundles).
        ("cluster-aas-operator", 11),
        // annotations.yaml: `com.redhat.delivery.operator.bundle: true` (a boolean).
        ("dbaas-operator", 1),
        // Mis-indented metadata/dependencies.yaml.
        ("eventing-kogito", 2),
        // spec.relatedImages holds an `oci://` reference.
        ("kuadrant-operator", 14),
        // Test bundles: no media type annotations, or no metadata at all.
        ("testdata-operator-registry/apicurio-registry", 3),
        ("testdata-operator-registry/apicurio-registry-operator", 1),
        ("testdata-operator-registry/etcd", 2),
        ("testdata-operator-registry/prometheus", 10),
    ]
    .into_iter()
    .map(|(p, n)| (p.to_owned(), n))
    .collect();
    assert_eq!(invalid, want);
    assert_eq!(real.iter().filter(|r| r.passed()).count(), 889);

    let all_errors: Vec<_> = reports.iter().flat_map(|r| r.errors.iter()).collect();
    let all_warnings: Vec<_> = reports.iter().flat_map(|r| r.warnings.iter()).collect();
    let count = |v: &[&olmsat_catalog::Diagnostic], prefix: &str| {
        v.iter().filter(|d| d.message.starts_with(prefix)).count()
    };
    // eventing-kogito: invalid YAML reported with line and column, not a crash.
    let kogito: Vec<_> = all_errors
        .iter()
        .filter(|d| d.message.starts_with("invalid YAML"))
        .collect();
    assert_eq!(kogito.len(), 2);
    for d in kogito {
        let l = d.location.as_ref().unwrap();
        assert!(l.file.ends_with("metadata/dependencies.yaml"), "{l}");
        assert!(l.file.contains("eventing-kogito"), "{l}");
        assert_eq!((l.line, l.column), (22, 12));
        assert_eq!(
            d.message,
            "invalid YAML: mapping values are not allowed in this context"
        );
    }
    assert_eq!(
        count(
            &all_errors,
            "not a Kubernetes object: apiVersion is missing"
        ),
        17
    );
    assert_eq!(
        count(
            &all_errors,
            "spec.relatedImages[0].image: invalid image pull spec \"oci://"
        ),
        14
    );
    assert_eq!(count(&all_errors, "Missing annotation"), 36);
    assert_eq!(count(&all_errors, "Unable to locate metadata directory"), 4);
    // prometheus test bundles whose CSV names carry `+build` suffixes.
    assert_eq!(count(&all_errors, "invalid ClusterServiceVersion name"), 5);
    // Bundles whose default channel is not one of their own channels (aqua: 2022.4.0).
    assert_eq!(count(&all_warnings, "default channel "), 22);
    // pelorus-operator: properties.yaml uses `dependencies:`.
    assert_eq!(
        count(
            &all_warnings,
            "properties.yaml has no properties list, so it declares nothing (found dependencies)"
        ),
        9
    );
    // lightbits-operator: non-OLM property types in properties.yaml.
    assert_eq!(count(&all_warnings, "property type \"olm."), 28);
    assert_eq!(
        count(&all_warnings, "property \"relatedImage\" has no value"),
        21
    );
    // yaks: quoted scalars whose continuation lines sit at the key's column.
    assert_eq!(
        count(&all_warnings, "continuation line of a quoted scalar"),
        30
    );
    // Nested layouts are found: <version>/bundle/ and <version>/certification/.
    assert_eq!(
        reports
            .iter()
            .filter(|r| r.path.ends_with("bundle") || r.path.ends_with("certification"))
            .count(),
        6
    );

    // --- the catalog ---
    let f = &build.findings;
    assert_eq!(f.found, 933);
    assert_eq!(f.included, 928);
    let skipped: BTreeSet<String> = f
        .skipped
        .iter()
        .map(|(p, why)| format!("{}: {why}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    assert_eq!(
        skipped,
        [
            "0.5.0: annotation \"com.redhat.delivery.operator.bundle\" must be a string, found a boolean (quote it)",
            "apicurio-registry-operator.v1.0.0-v2.0.0.final: Could not find annotations file",
            "apicurio-registry.v0.0.1: Could not find annotations file",
            "apicurio-registry.v0.0.3-v1.2.3.final: Could not find annotations file",
            "apicurio-registry.v0.0.4-v1.3.2.final: Could not find annotations file",
        ]
        .into_iter()
        .map(str::to_owned)
        .collect()
    );
    assert_eq!(
        f.absent_replaces,
        [(
            "rabbitmq-cluster-operator".to_owned(),
            "rabbitmq-cluster-operator.v2.19.1".to_owned(),
            "rabbitmq-cluster-operator.v2.19.0".to_owned()
        )]
    );
    let disagreements: Vec<(&str, &str)> = f
        .default_disagreements
        .iter()
        .map(|(p, chosen, _)| (p.as_str(), chosen.as_str()))
        .collect();
    assert_eq!(
        disagreements,
        [
            ("etcd", "alpha"),
            ("ibm-storage-odf-operator", "stable-v1.9"),
            ("infoscale-licensing-operator", "fast"),
            ("infoscale-sds-operator", "fast"),
            ("multicluster-global-hub-operator", "release-1.7"),
            ("prometheus", "preview"),
            ("service-binding-operator", "stable"),
            ("silicom-sts-operator", "alpha"),
            ("stackable-commons-operator", "26.7"),
            ("stackable-listener-operator", "26.7"),
            ("stackable-secret-operator", "26.7"),
            ("stackable-zookeeper-operator", "26.7"),
        ]
    );
    assert_eq!(f.defaults_outside_own_channels.len(), 22);
    let semver: Vec<&str> = build
        .modes
        .iter()
        .filter(|(_, m)| **m == GraphMode::Semver)
        .map(|(p, _)| p.as_str())
        .collect();
    assert_eq!(semver.len(), 15, "{semver:?}");
    assert_eq!(build.config.packages.len(), 46);

    // --- write, load and validate the catalog ---
    // The resolve step of the round trip is in tests/resolve_scenarios.rs
    // (bundles_to_catalog_to_resolution).
    let out = tempfile::tempdir().unwrap();
    let files = write_catalog(&build.config, out.path(), Format::Json).unwrap();
    assert_eq!(files.len(), 46);
    let loaded = load::load_path(out.path()).unwrap();
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let (model, report) = validate(loaded);
    assert_eq!(model.packages().len(), 46);
    assert_eq!(model.bundle_count(), 928);
    let mut failing: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for e in &report.errors {
        let what = e.message.split(':').next().unwrap_or("").to_owned();
        let what = if what.contains("invalid image pull spec") || what.contains("relatedImages") {
            "invalid related image".to_owned()
        } else {
            what
        };
        failing
            .entry(e.package.clone().unwrap_or_default())
            .or_default()
            .insert(what);
    }
    let heads = "multiple channel heads found in graph";
    let stranded = "channel contains one or more stranded bundles";
    let want: BTreeMap<String, BTreeSet<String>> = [
        // Real upgrade-graph problems of replaces-mode packages.
        ("aqua", vec![stranded]),
        ("gitlab-runner-operator", vec![heads]),
        // semver-mode, but CSV skips cut the version chain.
        ("gitlab-operator-kubernetes", vec![stranded]),
        ("ibm-storage-odf-operator", vec![heads]),
        ("infoscale-licensing-operator", vec![heads]),
        ("infoscale-sds-operator", vec![heads]),
        ("intel-ethernet-operator", vec![heads]),
        ("kuadrant-operator", vec!["invalid related image"]),
        ("lightbits-operator", vec![heads]),
        ("multicluster-global-hub-operator", vec![heads]),
        ("operator-certification-operator", vec![heads]),
        ("patterns-operator", vec![heads]),
        (
            "prometheus",
            vec!["duplicate versions found in bundles", heads],
        ),
        ("rabbitmq-cluster-operator", vec![heads]),
        ("rabbitmq-messaging-topology-operator", vec![heads]),
        ("shipwright-operator", vec![heads]),
        ("stackable-commons-operator", vec![heads]),
        ("stackable-listener-operator", vec![heads]),
        ("stackable-secret-operator", vec![heads]),
        ("stackable-zookeeper-operator", vec![heads]),
    ]
    .into_iter()
    .map(|(p, w)| (p.to_owned(), w.into_iter().map(str::to_owned).collect()))
    .collect();
    assert_eq!(failing, want);
    assert_eq!(report.errors.len(), 42);
}
