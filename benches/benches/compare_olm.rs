//! `compare-olm` on a plain replaces chain of 10,000 bundles: the work it
//! does once per bundle of a channel, for all starts at once. OLM v1's step
//! is one indexed reconcile per bundle (`Stepper`); OLM v0's the first
//! successor of each node of the channel graph. (Before, every start
//! reconciled its whole path again, each reconcile scanning the package:
//! cubic in the chain's length.) `cargo bench -p olmsat-benches --bench
//! compare_olm`.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use olmsat_catalog::load::load_bytes;
use olmsat_catalog::Model;
use olmsat_encoding::location::Location;
use olmsat_graph::ChannelGraph;
use olmsat_graph::NodeIndex;
use olmsat_graph::Start;
use olmsat_resolver::v1::{
    Catalog, CatalogContent, ClusterCatalog, ClusterExtension, Gates, InstalledBundle, Stepper,
    UpgradePolicy,
};

/// A replaces chain of `n` bundles `p.v0.0.<i>` in channel `stable`.
fn chain(n: usize) -> String {
    let mut text =
        String::from("{\"schema\":\"olm.package\",\"name\":\"p\",\"defaultChannel\":\"stable\"}\n");
    let entries: Vec<String> = (0..n)
        .map(|i| match i {
            0 => "{\"name\":\"p.v0.0.0\"}".to_owned(),
            _ => format!(
                "{{\"name\":\"p.v0.0.{i}\",\"replaces\":\"p.v0.0.{}\"}}",
                i - 1
            ),
        })
        .collect();
    text.push_str(&format!(
        "{{\"schema\":\"olm.channel\",\"package\":\"p\",\"name\":\"stable\",\"entries\":[{}]}}\n",
        entries.join(",")
    ));
    for i in 0..n {
        text.push_str(&format!(
            "{{\"schema\":\"olm.bundle\",\"package\":\"p\",\"name\":\"p.v0.0.{i}\",\"image\":\"example.com/p:{i}\",\"properties\":[{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"p\",\"version\":\"0.0.{i}\"}}}}]}}\n"
        ));
    }
    text
}

fn bench(c: &mut Criterion) {
    const N: usize = 10_000;
    let loaded = load_bytes("chain.json", chain(N).as_bytes());
    let content = CatalogContent::from_config(&loaded.config, false);
    let (model, _) = Model::build(loaded.config);
    let meta = ClusterCatalog::named("catalog");
    let catalog = Catalog {
        meta: &meta,
        content: Some(&content),
    };
    let ext = ClusterExtension {
        name: "p".into(),
        namespace: "p".into(),
        package: "p".into(),
        version: String::new(),
        channels: vec!["stable".into()],
        selector: None,
        policy: UpgradePolicy::CatalogProvided,
        installed: None,
        location: Location::new(Arc::from("bench"), 0),
    };
    let starts: Vec<InstalledBundle> = (0..N)
        .map(|i| InstalledBundle {
            name: format!("p.v0.0.{i}"),
            version: format!("0.0.{i}"),
            release: None,
        })
        .collect();
    let pkg = &model.packages()[0];
    let ch = &pkg.channels()[0];
    let mut g = c.benchmark_group("compare_olm");
    g.sample_size(10);
    g.bench_function("v1-step-from-every-bundle-10k-chain", |b| {
        b.iter(|| {
            let stepper = Stepper::new(catalog, &ext).expect("indexed");
            for s in &starts {
                black_box(
                    stepper
                        .reconcile(s)
                        .map(|r| r.reported_version(Gates::default())),
                )
                .ok();
            }
        })
    });
    g.bench_function("v0-step-from-every-bundle-10k-chain", |b| {
        b.iter(|| {
            let graph = ChannelGraph::build(pkg, ch).complete().expect("a graph");
            for i in 0..graph.node_count() {
                let n = NodeIndex::new(i);
                black_box(
                    graph
                        .successors(&Start::node(&graph, n))
                        .first()
                        .map(|s| s.to),
                );
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
