//! Resolution at scale: 300 subscriptions over a 20,000-bundle synthetic catalog
//! (400 packages of 50 bundles) whose packages form 3-deep `olm.gvk.required`
//! chains. The catalog is built in memory, so this measures resolution alone
//! (problem construction, search, minimisation), not parsing.

#![allow(clippy::print_stdout, clippy::print_stderr)] // benchmarks report what they measure

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use olmsat_catalog::model::Model;
use olmsat_catalog::synthetic::{generate, package_name, Payload, Spec};
use olmsat_encoding::location::Location;
use olmsat_resolver::cluster::{ClusterState, Subscription};
use olmsat_resolver::resolve::{resolve, CatalogInput, Input, Options, Outcome};

fn input(subscriptions: usize) -> Input {
    let spec = Spec {
        packages: 400,
        bundles: 20_000,
        seed: 1,
        chain_depth: 3,
        payload: Payload::None,
    };
    let (model, _) = Model::build(generate(&spec));
    let cluster = ClusterState {
        subscriptions: (0..subscriptions)
            .map(|i| Subscription {
                name: format!("sub-{i:05}"),
                namespace: "bench".into(),
                package: package_name(i),
                channel: "stable".into(),
                source: "synthetic".into(),
                source_namespace: String::new(),
                starting_csv: String::new(),
                installed_csv: String::new(),
                manual_approval: false,
                location: Location::new(Arc::from("bench"), 0),
            })
            .collect(),
        ..ClusterState::default()
    };
    Input {
        catalogs: vec![CatalogInput {
            name: "synthetic".into(),
            model,
        }],
        cluster,
        global_namespace: "olm".into(),
        allow_missing_catalogs: false,
    }
}

fn bench(c: &mut Criterion) {
    let input = input(300);
    let r = resolve(&input, "bench", Options::default()).expect("resolves");
    let installed = match &r.outcome {
        Outcome::Resolved { operators, .. } => operators.len(),
        Outcome::Unsatisfiable { .. } => 0,
    };
    println!(
        "resolve 300 subscriptions / 20,000 bundles: {installed} operators, {} variables, {} SAT variables, {} clauses, {} solve calls",
        r.variables, r.stats.sat_variables, r.stats.clauses, r.stats.solve_calls
    );
    let mut g = c.benchmark_group("resolve");
    g.sample_size(10);
    g.bench_function("300-subscriptions-20k-bundles", |b| {
        b.iter(|| resolve(black_box(&input), "bench", Options::default()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
