//! Rendering a semver template of 2,000 versions against a synthetic catalog
//! holding their bundles: image lookup, version checks, channel generation and
//! linking (the part the template adds over loading a catalog).

use std::fmt::Write as _;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use olmsat_catalog::load::load_bytes;
use olmsat_template::source::{BundleSources, CatalogSource};
use olmsat_template::{render_text, Options};

/// 2,000 versions over 4 majors, 25 minors and 20 patches.
fn versions() -> Vec<String> {
    let mut out = Vec::new();
    for x in 0..4 {
        for y in 0..25 {
            for z in 0..20 {
                out.push(format!("{x}.{y}.{z}"));
            }
        }
    }
    out
}

fn catalog(versions: &[String]) -> String {
    let mut text = String::new();
    for v in versions {
        let _ = writeln!(
            text,
            "{{\"schema\":\"olm.bundle\",\"name\":\"op.v{v}\",\"package\":\"op\",\"image\":\"quay.io/op/bundle:{v}\",\"properties\":[{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"op\",\"version\":\"{v}\"}}}}]}}"
        );
    }
    text
}

fn template(versions: &[String]) -> String {
    let mut t = String::from(
        "schema: olm.semver\ngenerateMajorChannels: true\ngenerateMinorChannels: true\n",
    );
    for (arch, step) in [("candidate", 1), ("fast", 2), ("stable", 4)] {
        let _ = writeln!(t, "{arch}:\n  bundles:");
        for v in versions.iter().step_by(step) {
            let _ = writeln!(t, "  - image: quay.io/op/bundle:{v}");
        }
    }
    t
}

fn bench(c: &mut Criterion) {
    let vs = versions();
    let loaded = load_bytes("catalog.json", catalog(&vs).as_bytes());
    let mut sources = BundleSources::new();
    sources.push(Box::new(CatalogSource::new("catalog.json", loaded.config)));
    let text = template(&vs);
    let mut g = c.benchmark_group("template");
    g.measurement_time(Duration::from_secs(5)).sample_size(20);
    g.bench_function("semver-2000-versions", |b| {
        b.iter(|| {
            let r = render_text("t.yaml", &text, None, &sources, &Options::default()).unwrap();
            assert_eq!(r.config.bundles.len(), 2000);
            r
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
