//! Writing the upgrade-graph explorer (`olmsat graph -o html`): the page for
//! the whole community v4.20 catalog (every package and channel, each
//! version's OLM v0 path precomputed), and for the 80 versions of certified
//! `scaleops-operator` `stable-v1`. Target: the whole catalog's page in under
//! a second.
//!
//! The full corpus is read from the directory named by `OLMSAT_CORPUS`; without
//! it the benchmarks are skipped with a note.

#![allow(clippy::print_stdout, clippy::print_stderr)] // benchmarks report what they measure

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use olmsat_graph::{draw, Catalog, DrawFormat, DrawOptions, Drawing, EdgeView};

// The corpus locations shared with the tests (`OLMSAT_CORPUS`).
#[path = "../../tests/support/corpus.rs"]
mod support;

/// The pages measured: a name, the catalog (relative to the corpus), and the
/// package and channel drawn.
const PAGES: &[(&str, &str, Option<&str>, Option<&str>)] = &[
    (
        "community-v4.20",
        "fbc/community-operators-prod/catalogs/v4.20",
        None,
        None,
    ),
    (
        "scaleops-stable-v1",
        "fbc/certified-operators/catalogs/v4.20/scaleops-operator",
        Some("scaleops-operator"),
        Some("stable-v1"),
    ),
];

fn bench_explorer(c: &mut Criterion) {
    let Some(root) = support::full() else {
        println!("note: OLMSAT_CORPUS names no corpus; the explorer benchmarks are skipped");
        return;
    };
    let mut group = c.benchmark_group("explorer");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for (name, rel, package, channel) in PAGES {
        let dir = root.join(rel);
        let Ok(catalog) = Catalog::open(&[&dir]) else {
            println!("note: {} does not load; skipped", dir.display());
            continue;
        };
        let opts = DrawOptions {
            package: *package,
            channel: *channel,
            edges: EdgeView::Folded,
            legend: true,
            ..DrawOptions::default()
        };
        group.bench_with_input(BenchmarkId::new("html", name), &catalog, |b, cat| {
            b.iter(|| {
                let Ok(drawing) = Drawing::new(cat.model(), &opts) else {
                    return 0;
                };
                let mut out = Vec::with_capacity(8 << 20);
                draw(&drawing, DrawFormat::Html, &mut out).map_or(0, |()| out.len())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_explorer);
criterion_main!(benches);
