//! Loading the two largest real catalogs of the shared corpus: the YAML parsing
//! floor (the general YAML parser reading every file into nothing), loading,
//! loading plus validation, and rendering the loaded catalog as JSON and YAML.
//!
//! The full corpus is read from the directory named by `OLMSAT_CORPUS`; without
//! it the benchmarks are skipped with a note.

#![allow(clippy::print_stdout, clippy::print_stderr)] // benchmarks report what they measure

use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use olmsat_catalog::load::load_path;
use olmsat_catalog::validate::validate;
use olmsat_catalog::write::{write, Format};

/// The catalogs measured, relative to the shared corpus.
const CATALOGS: &[(&str, &str)] = &[
    (
        "community-v4.20",
        "fbc/community-operators-prod/catalogs/v4.20",
    ),
    ("certified-v4.20", "fbc/certified-operators/catalogs/v4.20"),
];

// The corpus locations shared with the tests (`OLMSAT_CORPUS`).
#[path = "../../tests/support/corpus.rs"]
mod support;

/// The full corpus named by `OLMSAT_CORPUS`.
fn corpus() -> Option<PathBuf> {
    support::full()
}

/// Every file under `dir`, sorted.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The general YAML parser's options for whole files: every budget raised so
/// that a multi-document catalog file parses in one pass.
fn floor_options() -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_documents = 1_000_000;
    budget.max_depth = 100;
    budget.max_events = usize::MAX;
    budget.max_nodes = usize::MAX;
    budget.max_total_scalar_bytes = usize::MAX;
    let mut opts = serde_saphyr::Options::default();
    opts.budget = Some(budget);
    opts
}

/// The parsing floor: every file read by the general YAML parser into nothing,
/// one file after the other. Returns the number of documents.
fn parse_floor(texts: &[String]) -> usize {
    texts
        .iter()
        .map(|t| {
            serde_saphyr::from_multiple_with_options::<serde::de::IgnoredAny>(t, floor_options())
                .map(|docs| docs.len())
                .unwrap_or(0)
        })
        .sum()
}

fn bench_catalogs(c: &mut Criterion) {
    let Some(root) = corpus().filter(|r| r.join("fbc").is_dir()) else {
        println!("note: OLMSAT_CORPUS names no corpus; the load benchmarks are skipped");
        return;
    };
    let mut group = c.benchmark_group("load");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for (name, rel) in CATALOGS {
        let dir = root.join(rel);
        if !dir.is_dir() {
            println!("note: {} is missing; skipped", dir.display());
            continue;
        }
        let mut files = Vec::new();
        files_under(&dir, &mut files);
        let texts: Vec<String> = files
            .iter()
            .filter_map(|f| std::fs::read_to_string(f).ok())
            .collect();

        group.bench_with_input(BenchmarkId::new("parse_floor", name), &texts, |b, t| {
            b.iter(|| parse_floor(t))
        });
        group.bench_with_input(BenchmarkId::new("load", name), &dir, |b, d| {
            b.iter(|| load_path(d).map(|l| l.config.bundles.len()).unwrap_or(0))
        });
        group.bench_with_input(BenchmarkId::new("load_validate", name), &dir, |b, d| {
            b.iter(|| match load_path(d) {
                Ok(loaded) => validate(loaded).1.errors.len(),
                Err(_) => 0,
            })
        });
        let Ok(loaded) = load_path(&dir) else {
            continue;
        };
        for (format, label) in [(Format::Json, "write_json"), (Format::Yaml, "write_yaml")] {
            group.bench_with_input(BenchmarkId::new(label, name), &loaded, |b, l| {
                b.iter(|| {
                    let mut out = Vec::with_capacity(32 << 20);
                    write(&l.config, format, &mut out)
                        .map(|()| out.len())
                        .unwrap_or(0)
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_catalogs);
criterion_main!(benches);
