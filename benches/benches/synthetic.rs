//! Synthetic catalogs (always available, no corpus needed):
//!
//! - `scale`: load + validate of JSON and YAML catalogs of 1,000 and 10,000
//!   bundles written by the generator, the JSON parsing floor (serde_json reading
//!   every document into nothing), and render (load + write JSON);
//! - `channel`: a 100,000-entry channel: building its upgrade graph, OLM's path
//!   from the tail to the head, and writing the DOT drawing; and what `olmsat
//!   path` does from the 90 MB JSON file: read the package for graphs, build
//!   the model and the graph, find the path.
//!
//! Whole-command figures for the 100,000-bundle catalog are in
//! docs/performance.md (a criterion loop over 400 MB would take too long).

#![allow(clippy::print_stdout, clippy::print_stderr)] // benchmarks report what they measure

use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use olmsat_catalog::load::{load_path, load_path_selected, Select};
use olmsat_catalog::model::Model;
use olmsat_catalog::synthetic::{by_package, generate, package_name, Payload, Spec};
use olmsat_catalog::validate::{validate, validate_model};
use olmsat_catalog::write::{write, Format};
use olmsat_graph::export::dot;
use olmsat_graph::export::drawing::{DrawOptions, Drawing};
use olmsat_graph::upgrade::ChannelGraph;

/// Write the catalog of `spec` as one file per package under `dir`.
fn write_catalog(spec: &Spec, dir: &Path, format: Format) -> std::io::Result<()> {
    let cfg = generate(spec);
    let ext = match format {
        Format::Json => "json",
        Format::Yaml => "yaml",
    };
    for (name, part) in by_package(cfg) {
        let sub = dir.join(name);
        std::fs::create_dir_all(&sub)?;
        let mut out = Vec::new();
        write(&part, format, &mut out)?;
        std::fs::write(sub.join(format!("catalog.{ext}")), out)?;
    }
    Ok(())
}

/// The JSON parsing floor: every file's documents read into nothing.
fn json_floor(texts: &[String]) -> usize {
    texts
        .iter()
        .map(|t| {
            serde_json::Deserializer::from_str(t)
                .into_iter::<serde::de::IgnoredAny>()
                .count()
        })
        .sum()
}

fn bench_scale(c: &mut Criterion) {
    let mut group = c.benchmark_group("scale");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for bundles in [1_000usize, 10_000] {
        let spec = Spec {
            packages: bundles / 50,
            bundles,
            ..Spec::default()
        };
        for format in [Format::Json, Format::Yaml] {
            let Ok(tmp) = tempfile::tempdir() else {
                println!("note: no temporary directory; scale benchmarks skipped");
                return;
            };
            if let Err(e) = write_catalog(&spec, tmp.path(), format) {
                println!("note: cannot write the synthetic catalog ({e}); skipped");
                return;
            }
            let label = match format {
                Format::Json => "json",
                Format::Yaml => "yaml",
            };
            let id = format!("{label}-{bundles}");
            if format == Format::Json {
                let mut texts = Vec::new();
                for entry in std::fs::read_dir(tmp.path())
                    .into_iter()
                    .flatten()
                    .flatten()
                {
                    if let Ok(t) = std::fs::read_to_string(entry.path().join("catalog.json")) {
                        texts.push(t);
                    }
                }
                group.bench_with_input(BenchmarkId::new("parse_floor", &id), &texts, |b, t| {
                    b.iter(|| json_floor(t))
                });
            }
            group.bench_with_input(
                BenchmarkId::new("load_validate", &id),
                tmp.path(),
                |b, d| {
                    b.iter(|| match load_path(d) {
                        Ok(loaded) => validate(loaded).1.errors.len(),
                        Err(_) => 0,
                    })
                },
            );
            group.bench_with_input(BenchmarkId::new("render_json", &id), tmp.path(), |b, d| {
                b.iter(|| {
                    let Ok(loaded) = load_path(d) else { return 0 };
                    let mut out = Vec::new();
                    write(&loaded.config, Format::Json, &mut out)
                        .map(|()| out.len())
                        .unwrap_or(0)
                })
            });
        }
    }
    group.finish();
}

fn bench_channel(c: &mut Criterion) {
    let spec = Spec {
        packages: 1,
        bundles: 100_000,
        chain_depth: 0,
        payload: Payload::None,
        ..Spec::default()
    };
    let (model, _) = Model::build(generate(&spec));
    let name = package_name(0);
    let Some(package) = model.package(&name) else {
        println!("note: the synthetic package is missing; channel benchmarks skipped");
        return;
    };
    let Some(channel) = package.channels().iter().max_by_key(|c| c.entries().len()) else {
        return;
    };
    let from = channel.entries()[0].name.clone();
    let mut group = c.benchmark_group("channel");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("graph_build_100k", |b| {
        b.iter(|| ChannelGraph::build(package, channel).node_count())
    });
    let g = ChannelGraph::build(package, channel);
    group.bench_function("olm_path_100k", |b| {
        b.iter(|| match g.resolve_start(&from) {
            Ok(start) => g.olm_path(&start).steps.len(),
            Err(_) => 0,
        })
    });
    let opts = DrawOptions {
        package: Some(&name),
        channel: Some(&channel.name),
        ..DrawOptions::default()
    };
    group.bench_function("graph_and_dot_100k", |b| {
        b.iter(|| match Drawing::new(&model, &opts) {
            Ok(d) => dot::to_string(&d).len(),
            Err(_) => 0,
        })
    });
    // The model's checks of the long channel (a skipRange's "matches no other
    // bundle" test must stay a binary search over the versions, not a scan
    // of every entry per range, which is quadratic).
    group.bench_function("validate_model_100k", |b| {
        b.iter(|| validate_model(&model).len())
    });
    // The whole of `olmsat path` but printing, from the file.
    let Ok(tmp) = tempfile::tempdir() else {
        group.finish();
        return;
    };
    if write_catalog(&spec, tmp.path(), Format::Json).is_ok() {
        let select = Select::PackageGraph(name.clone());
        let channel_name = channel.name.clone();
        group.bench_function("path_from_file_100k", |b| {
            b.iter(|| {
                let Ok(loaded) = load_path_selected(tmp.path(), &select) else {
                    return 0;
                };
                let (model, _) = Model::build(loaded.config);
                let Some(ch) = model
                    .package(&name)
                    .and_then(|p| Some((p, p.channel(&channel_name)?)))
                else {
                    return 0;
                };
                let g = ChannelGraph::build(ch.0, ch.1);
                match g.resolve_start(&from) {
                    Ok(start) => g.olm_path(&start).steps.len(),
                    Err(_) => 0,
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_scale, bench_channel);
criterion_main!(benches);
