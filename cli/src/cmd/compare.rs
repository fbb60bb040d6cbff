//! `olmsat compare-olm`: for each package, channel and bundle of a catalog, the
//! path OLM v0 takes and the path OLM v1 takes (a ClusterExtension with that one
//! channel, no version range, CatalogProvided), side by side, with where they
//! differ and the bundles v1 refuses to install.

use std::path::Path;

use olmsat_catalog::load;
use olmsat_catalog::Model;
use olmsat_graph::ChannelGraph;
use olmsat_graph::OlmEnd;
use olmsat_graph::Start;
use olmsat_resolver::v1::simulate::{simulate, End};
use olmsat_resolver::v1::{
    Catalog, CatalogContent, ClusterCatalog, ClusterExtension, Gates, InstalledBundle,
    UpgradePolicy,
};
use serde::Serialize;

use crate::args::ReportFormat;
use crate::output::{print_data, Exit};

/// Most reconciles followed per start.
const MAX_HOPS: usize = 1000;

/// One start: both paths and how they differ.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Row {
    package: String,
    channel: String,
    from: String,
    v0_path: Vec<String>,
    v0_end: &'static str,
    v1_path: Vec<String>,
    v1_end: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    v1_message: Option<String>,
    differences: Vec<&'static str>,
}

#[derive(Debug, Serialize)]
struct Refused {
    package: String,
    bundle: String,
    properties: Vec<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    starts: usize,
    differing: usize,
    rows: Vec<Row>,
    v1_refuses: Vec<Refused>,
}

fn v0_end(end: OlmEnd) -> &'static str {
    match end {
        OlmEnd::Head => "head",
        OlmEnd::Target => "target",
        OlmEnd::DeadEnd => "dead end",
        OlmEnd::Loop(_) => "loop",
        OlmEnd::NoHead => "no single head",
    }
}

/// Compare v0 and v1 over a catalog.
pub fn run(
    path: &Path,
    package: Option<&str>,
    only_differences: bool,
    format: ReportFormat,
) -> Result<Exit, Box<dyn std::error::Error>> {
    let loaded = load::load_path(path)?;
    if loaded.has_errors() {
        let errors: Vec<_> = loaded
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .cloned()
            .collect();
        crate::output::eprint_diagnostics(&errors);
        return Ok(Exit::Usage);
    }
    let content = CatalogContent::from_config(&loaded.config, false);
    let (model, _) = Model::build(loaded.config);
    let meta = ClusterCatalog::named("catalog");
    let catalogs = [Catalog {
        meta: &meta,
        content: Some(&content),
    }];
    let mut rows = Vec::new();
    let mut refused = Vec::new();
    let mut starts = 0;
    for pkg in model.packages() {
        if package.is_some_and(|p| p != pkg.name) {
            continue;
        }
        let Some(slice) = content.package(&pkg.name) else {
            continue;
        };
        for b in &slice.bundles {
            let props: Vec<String> = b
                .property_types
                .iter()
                .filter(|t| {
                    matches!(
                        t.as_str(),
                        "olm.package.required" | "olm.gvk.required" | "olm.constraint"
                    )
                })
                .cloned()
                .collect();
            if !props.is_empty() {
                let mut props = props;
                props.dedup();
                refused.push(Refused {
                    package: pkg.name.clone(),
                    bundle: b.name.clone(),
                    properties: props,
                });
            }
        }
        for ch in pkg.channels() {
            let g = match ChannelGraph::build(pkg, ch).complete() {
                Ok(g) => g,
                Err(e) => {
                    errln!("olmsat: package {} channel {}: {e}", pkg.name, ch.name);
                    continue;
                }
            };
            for e in ch.entries() {
                let Some(n) = g.node_index(&e.name) else {
                    continue;
                };
                starts += 1;
                let v0 = g.olm_path(&Start::node(&g, n));
                let v0_path: Vec<String> = v0
                    .steps
                    .iter()
                    .map(|s| g.node(s.to).name.to_owned())
                    .collect();
                let version = slice
                    .bundles
                    .iter()
                    .find(|b| b.name == e.name)
                    .map(|b| b.version_text.clone())
                    .unwrap_or_default();
                let ext = ClusterExtension {
                    name: pkg.name.clone(),
                    namespace: pkg.name.clone(),
                    package: pkg.name.clone(),
                    version: String::new(),
                    channels: vec![ch.name.clone()],
                    selector: None,
                    policy: UpgradePolicy::CatalogProvided,
                    installed: Some(InstalledBundle {
                        name: e.name.clone(),
                        version,
                        release: None,
                    }),
                    location: olmsat_catalog::Location::new(std::sync::Arc::from("compare-olm"), 0),
                };
                let t = simulate(&catalogs, &ext, Gates::default(), MAX_HOPS);
                let v1_path: Vec<String> = t.hops.iter().map(|h| h.to.clone()).collect();
                let (v1_end, v1_message) = match &t.end {
                    End::Converged => ("converged", None),
                    End::Limit => ("limit", None),
                    End::Failed(err) => ("error", Some(err.to_string())),
                };
                let mut differences = Vec::new();
                if v0_path.first() != v1_path.first() {
                    differences.push("next hop");
                }
                let v0_last = v0_path.last().unwrap_or(&e.name);
                let v1_last = v1_path.last().unwrap_or(&e.name);
                if v0_last != v1_last {
                    differences.push("end");
                }
                if v1_path.is_empty() && !v0_path.is_empty() {
                    differences.push("v1 stuck where v0 moves");
                }
                if v0_path.is_empty() && !v1_path.is_empty() {
                    differences.push("v0 stuck where v1 moves");
                }
                if only_differences && differences.is_empty() {
                    continue;
                }
                rows.push(Row {
                    package: pkg.name.clone(),
                    channel: ch.name.clone(),
                    from: e.name.clone(),
                    v0_path,
                    v0_end: v0_end(v0.end),
                    v1_path,
                    v1_end,
                    v1_message,
                    differences,
                });
            }
        }
    }
    let differing = rows.iter().filter(|r| !r.differences.is_empty()).count();
    let report = Report {
        starts,
        differing,
        rows,
        v1_refuses: refused,
    };
    match format {
        ReportFormat::Json | ReportFormat::Yaml => print_data(format, &report)?,
        ReportFormat::Text => {
            for r in &report.rows {
                let mark = if r.differences.is_empty() {
                    "same".to_owned()
                } else {
                    format!("DIFFERS ({})", r.differences.join(", "))
                };
                outln!("{} / {} from {}: {mark}", r.package, r.channel, r.from);
                outln!(
                    "  v0: {} [{}]",
                    if r.v0_path.is_empty() {
                        "stays".to_owned()
                    } else {
                        r.v0_path.join(" -> ")
                    },
                    r.v0_end
                );
                let v1_end = match &r.v1_message {
                    Some(m) => format!("{}: {m}", r.v1_end),
                    None => r.v1_end.to_owned(),
                };
                outln!(
                    "  v1: {} [{v1_end}]",
                    if r.v1_path.is_empty() {
                        "stays".to_owned()
                    } else {
                        r.v1_path.join(" -> ")
                    }
                );
            }
            if !report.v1_refuses.is_empty() {
                outln!("\nbundles OLM v1 refuses to install (dependencies are not supported):");
                for r in &report.v1_refuses {
                    outln!(
                        "  {} / {}: {}",
                        r.package,
                        r.bundle,
                        r.properties.join(", ")
                    );
                }
            }
            outln!(
                "\n{} start(s) compared, {} differ",
                report.starts,
                report.differing
            );
        }
    }
    Ok(if report.differing == 0 {
        Exit::Ok
    } else {
        Exit::Invalid
    })
}
