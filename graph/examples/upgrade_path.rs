//! The steps OLM v0 takes from an installed bundle to its channel's head:
//! `cargo run -p olmsat-graph --example upgrade_path -- corpus/catalogs/etcd-example etcd etcdoperator.v0.9.0`
#![allow(clippy::print_stdout)] // a program: printing is its job
use std::{error::Error, fmt::Write, path::Path};

use olmsat_graph::ChannelGraphs;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, package, from] = args.as_slice() else {
        return Err("usage: upgrade_path CATALOG PACKAGE FROM".into());
    };
    upgrade_path(Path::new(dir), package, from).map(|text| print!("{text}"))
}

/// The steps OLM v0 takes from `from` in `package`'s default channel, one a line.
pub(crate) fn upgrade_path(
    dir: &Path,
    package: &str,
    from: &str,
) -> Result<String, Box<dyn Error>> {
    let catalog = olmsat_catalog::Catalog::open_package(dir, package)?;
    let graph = catalog.channel_graph(package, None)?;
    let start = graph.resolve_start(from)?;
    let path = graph.olm_path(&start);
    let mut text = String::new();
    for step in &path.steps {
        let before = step
            .from
            .map_or(start.label(), |n| graph.node(n).name.into());
        let (to, how) = (graph.node(step.to).name, step.edge.kind);
        writeln!(text, "{before} -> {to} ({how} at {})", step.edge.location())?;
    }
    writeln!(text, "{}", path.summary(&graph))?;
    Ok(text)
}
