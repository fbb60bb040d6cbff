//! The diff of the whole community-operators-prod v4.16 and v4.20 catalogs of
//! the shared corpus: loading both, validating both and comparing every
//! package (what `olmsat diff v4.16 v4.20` does).
//!
//! The corpus is found through `OLMSAT_CORPUS` (the tests' corpus helper);
//! without it the benchmark is skipped with a note.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use olmsat_catalog::load::load_path;
use olmsat_diff::{diff, Options};

#[path = "../../tests/support/corpus.rs"]
mod corpus;

fn bench_diff(c: &mut Criterion) {
    let Some(full) = corpus::require_full("the diff benchmark") else {
        return;
    };
    let base = full.join("fbc/community-operators-prod/catalogs");
    let (old, new) = (base.join("v4.16"), base.join("v4.20"));
    let mut g = c.benchmark_group("diff");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    g.bench_function("community-v4.16-v4.20", |b| {
        b.iter(|| {
            let (o, n) = rayon_free_join(|| load_path(&old), || load_path(&new));
            let d = diff(
                o.expect("v4.16 loads"),
                n.expect("v4.20 loads"),
                &Options::default(),
            )
            .expect("v4.16 is valid");
            std::hint::black_box(d.packages.len())
        })
    });
    g.finish();
}

/// Load two catalogs side by side.
fn rayon_free_join<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    std::thread::scope(|s| {
        let hb = s.spawn(b);
        let ra = a();
        (ra, hb.join().expect("loading does not panic"))
    })
}

criterion_group!(benches, bench_diff);
criterion_main!(benches);
