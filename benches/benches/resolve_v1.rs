//! OLM v1 selection at scale: 300 ClusterExtensions over a 20,000-bundle
//! synthetic catalog (400 packages of 50 bundles). A third have nothing
//! installed, a third are installed on their package's first bundle (so the
//! successor filter runs), a third carry a Masterminds version range. The
//! catalog is indexed once, outside the measurement.

#![allow(clippy::print_stdout, clippy::print_stderr)] // benchmarks report what they measure

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use olmsat_catalog::synthetic::{generate, package_name, Payload, Spec};
use olmsat_encoding::location::Location;
use olmsat_resolver::v1::{
    resolve, Catalog, CatalogContent, ClusterCatalog, ClusterExtension, Gates, InstalledBundle,
    UpgradePolicy,
};

fn extensions(content: &CatalogContent, n: usize) -> Vec<ClusterExtension> {
    (0..n)
        .map(|i| {
            let package = package_name(i);
            let slice = content.package(&package).expect("synthetic package");
            let first = &slice.bundles()[0];
            ClusterExtension {
                name: format!("ext-{i:05}"),
                namespace: "bench".into(),
                package,
                version: if i % 3 == 2 {
                    ">=0.1.0, <1000".into()
                } else {
                    String::new()
                },
                channels: if i % 2 == 0 {
                    vec!["stable".into()]
                } else {
                    Vec::new()
                },
                selector: None,
                policy: UpgradePolicy::CatalogProvided,
                installed: (i % 3 == 1).then(|| InstalledBundle {
                    name: first.name().to_owned(),
                    version: first.version_text().to_owned(),
                    release: None,
                }),
                location: Location::new(Arc::from("bench"), 0),
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let spec = Spec {
        packages: 400,
        bundles: 20_000,
        seed: 1,
        chain_depth: 0,
        payload: Payload::None,
    };
    let content = CatalogContent::from_owned(generate(&spec), false);
    let meta = ClusterCatalog::named("synthetic");
    let catalogs = [Catalog {
        meta: &meta,
        content: Some(&content),
    }];
    let exts = extensions(&content, 300);
    let resolved = exts
        .iter()
        .filter(|e| resolve(&catalogs, e, Gates::default()).result.is_ok())
        .count();
    println!("resolve v1: 300 ClusterExtensions / 20,000 bundles: {resolved} resolved");
    let mut g = c.benchmark_group("resolve_v1");
    g.sample_size(10);
    g.bench_function("300-extensions-20k-bundles", |b| {
        b.iter(|| {
            for e in &exts {
                black_box(resolve(black_box(&catalogs), e, Gates::default()));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
