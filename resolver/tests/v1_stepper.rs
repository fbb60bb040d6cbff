//! `Stepper::reconcile` (the indexed reconcile `compare-olm` uses for every
//! start of a channel) gives what `reconcile` gives, on random packages:
//! replaces, skips and skipRanges between random bundles, versions with
//! build metadata, releases, prereleases and unreadable ones, deprecations,
//! dependencies, entries naming no bundle, installed bundles of any name
//! and version.

use olmsat_catalog::load::load_bytes;
use olmsat_encoding::location::Location;
use olmsat_resolver::v1::{
    reconcile, Catalog, CatalogContent, ClusterCatalog, ClusterExtension, Gates, InstalledBundle,
    Stepper, UpgradePolicy,
};
use proptest::prelude::*;
use serde_json::json;

const VERSIONS: [&str; 9] = [
    "1.0.0",
    "1.0.0+1",
    "1.0.0+2",
    "1.1.0",
    "1.1.0-rc.1",
    "2.0.0",
    "2.0.0+build.x",
    "0.9.0",
    "bad",
];
const RANGES: [&str; 5] = ["", "<1.1.0", ">=1.0.0 <2.0.0", "<=0.9.0", "nonsense"];
const NAMES: usize = 6;

fn name(i: usize) -> String {
    format!("p.v{i}")
}

#[derive(Debug, Clone)]
struct Entry {
    bundle: usize,
    replaces: Option<usize>,
    skips: Vec<usize>,
    range: usize,
}

#[derive(Debug, Clone)]
struct Pkg {
    versions: Vec<usize>,
    dependency: Vec<bool>,
    deprecated: Vec<bool>,
    channels: Vec<Vec<Entry>>,
}

fn entry() -> impl Strategy<Value = Entry> {
    (
        0..NAMES + 1,
        proptest::option::of(0..NAMES + 1),
        proptest::collection::vec(0..NAMES + 1, 0..2),
        0..RANGES.len(),
    )
        .prop_map(|(bundle, replaces, skips, range)| Entry {
            bundle,
            replaces,
            skips,
            range,
        })
}

fn pkg() -> impl Strategy<Value = Pkg> {
    (
        proptest::collection::vec(0..VERSIONS.len(), NAMES),
        proptest::collection::vec(proptest::bool::weighted(0.1), NAMES),
        proptest::collection::vec(proptest::bool::weighted(0.2), NAMES),
        proptest::collection::vec(proptest::collection::vec(entry(), 0..6), 1..3),
    )
        .prop_map(|(versions, dependency, deprecated, channels)| Pkg {
            versions,
            dependency,
            deprecated,
            channels,
        })
}

/// The package as a catalog (bundle `NAMES` is named in entries only).
fn content(p: &Pkg) -> CatalogContent {
    let mut blobs = vec![json!({"schema": "olm.package", "name": "p"})];
    for (c, entries) in p.channels.iter().enumerate() {
        let entries: Vec<_> = entries
            .iter()
            .map(|e| {
                let mut v = json!({"name": name(e.bundle)});
                if let Some(r) = e.replaces {
                    v["replaces"] = json!(name(r));
                }
                if !e.skips.is_empty() {
                    v["skips"] = json!(e.skips.iter().map(|&s| name(s)).collect::<Vec<_>>());
                }
                if !RANGES[e.range].is_empty() {
                    v["skipRange"] = json!(RANGES[e.range]);
                }
                v
            })
            .collect();
        blobs.push(json!({"schema": "olm.channel", "package": "p", "name": format!("c{c}"), "entries": entries}));
    }
    for b in 0..NAMES {
        let mut properties = vec![
            json!({"type": "olm.package", "value": {"packageName": "p", "version": VERSIONS[p.versions[b]]}}),
        ];
        if p.dependency[b] {
            properties.push(json!({"type": "olm.package.required", "value": {"packageName": "q", "versionRange": ">=1.0.0"}}));
        }
        blobs.push(json!({"schema": "olm.bundle", "package": "p", "name": name(b), "image": format!("example.com/{b}"), "properties": properties}));
    }
    let deprecated: Vec<_> = (0..NAMES)
        .filter(|&b| p.deprecated[b])
        .map(|b| json!({"reference": {"schema": "olm.bundle", "name": name(b)}, "message": "old"}))
        .collect();
    if !deprecated.is_empty() {
        blobs.push(json!({"schema": "olm.deprecations", "package": "p", "entries": deprecated}));
    }
    let text: String = blobs.iter().map(|v| format!("{v}\n")).collect();
    let loaded = load_bytes("catalog.json", text.as_bytes());
    CatalogContent::from_config(&loaded.config, false)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    #[test]
    fn the_stepper_reconciles_as_reconcile_does(
        p in pkg(),
        channels in prop_oneof![Just(vec![]), Just(vec!["c0".to_owned()]), Just(vec!["c1".to_owned()]), Just(vec!["c0".to_owned(), "c1".to_owned()])],
        package in prop_oneof![4 => Just("p"), 1 => Just("absent")],
        installed in (0..NAMES + 2, 0..VERSIONS.len()),
    ) {
        let content = content(&p);
        let meta = ClusterCatalog::named("catalog");
        let catalog = Catalog { meta: &meta, content: Some(&content) };
        let ext = ClusterExtension {
            name: "e".into(),
            namespace: "e".into(),
            package: package.into(),
            version: String::new(),
            channels,
            selector: None,
            policy: UpgradePolicy::CatalogProvided,
            installed: None,
            location: Location::new(std::sync::Arc::from("t"), 0),
        };
        let stepper = Stepper::new(catalog, &ext).expect("the shape the stepper answers");
        let bundle = InstalledBundle {
            name: if installed.0 == NAMES + 1 { String::new() } else { name(installed.0) },
            version: VERSIONS[installed.1].to_owned(),
            release: None,
        };
        let mut one = ext.clone();
        one.installed = Some(bundle.clone());
        let want = reconcile(&[catalog], &one, Gates::default()).result;
        let got = stepper.reconcile(&bundle);
        prop_assert_eq!(got, want);
    }
}

#[test]
fn other_shapes_are_left_to_reconcile() {
    let content = CatalogContent::default();
    let meta = ClusterCatalog::named("catalog");
    let catalog = Catalog {
        meta: &meta,
        content: Some(&content),
    };
    let ext = ClusterExtension {
        name: "e".into(),
        namespace: "e".into(),
        package: "p".into(),
        version: ">=1.0.0".into(),
        channels: Vec::new(),
        selector: None,
        policy: UpgradePolicy::CatalogProvided,
        installed: None,
        location: Location::new(std::sync::Arc::from("t"), 0),
    };
    assert!(Stepper::new(catalog, &ext).is_none());
    let self_certified = ClusterExtension {
        version: String::new(),
        policy: UpgradePolicy::SelfCertified,
        ..ext.clone()
    };
    assert!(Stepper::new(catalog, &self_certified).is_none());
    let without_content = Catalog {
        meta: &meta,
        content: None,
    };
    let plain = ClusterExtension {
        version: String::new(),
        ..ext
    };
    assert!(Stepper::new(without_content, &plain).is_none());
    assert!(Stepper::new(catalog, &plain).is_some());
}

/// On a plain replaces chain the stepper moves one hop per reconcile, to
/// the bundle that replaces the installed one, and stays at the head.
#[test]
fn the_stepper_moves_along_a_chain() {
    let p = Pkg {
        versions: vec![7, 0, 3, 5, 0, 0],
        dependency: vec![false; NAMES],
        deprecated: vec![false; NAMES],
        channels: vec![vec![
            Entry {
                bundle: 0,
                replaces: None,
                skips: vec![],
                range: 0,
            },
            Entry {
                bundle: 1,
                replaces: Some(0),
                skips: vec![],
                range: 0,
            },
            Entry {
                bundle: 2,
                replaces: Some(1),
                skips: vec![],
                range: 0,
            },
            Entry {
                bundle: 3,
                replaces: Some(2),
                skips: vec![],
                range: 0,
            },
        ]],
    };
    let content = content(&p);
    let meta = ClusterCatalog::named("catalog");
    let catalog = Catalog {
        meta: &meta,
        content: Some(&content),
    };
    let ext = ClusterExtension {
        name: "e".into(),
        namespace: "e".into(),
        package: "p".into(),
        version: String::new(),
        channels: vec!["c0".into()],
        selector: None,
        policy: UpgradePolicy::CatalogProvided,
        installed: None,
        location: Location::new(std::sync::Arc::from("t"), 0),
    };
    let stepper = Stepper::new(catalog, &ext).expect("indexed");
    let mut installed = InstalledBundle {
        name: name(0),
        version: "0.9.0".into(),
        release: None,
    };
    let mut hops = Vec::new();
    loop {
        let r = stepper.reconcile(&installed).expect("resolves");
        let version = r.reported_version(Gates::default());
        if r.bundle == installed.name && version == installed.version {
            break;
        }
        hops.push(format!("{} {version}", r.bundle));
        installed = InstalledBundle {
            name: r.bundle,
            version,
            release: None,
        };
    }
    assert_eq!(hops, ["p.v1 1.0.0", "p.v2 1.1.0", "p.v3 2.0.0"]);
}
