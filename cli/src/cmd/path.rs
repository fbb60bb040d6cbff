//! `olmsat path`

use std::path::Path;

use olmsat_graph::export::json::PathStep;
use olmsat_graph::model::Model;
use olmsat_graph::upgrade::{
    select_channel, ChannelGraph, NodeIndex, OlmEnd, Start, StartError, StartMatch, Step,
};
use olmsat_graph::{load, suggest, Diagnostic};
use serde::Serialize;

use crate::output::{eprint_diagnostics, print_json, Exit};
use crate::ReportFormat;

/// Which path to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The steps OLM v0 takes.
    Olm,
    /// A shortest path over every edge.
    Shortest,
    /// All simple paths, up to a limit.
    All(usize),
}

/// What `olmsat path` was asked.
pub struct Request<'a> {
    /// Catalog.
    pub path: &'a Path,
    /// Package.
    pub package: &'a str,
    /// Channel (default channel when `None`).
    pub channel: Option<&'a str>,
    /// Start: a bundle name or a version.
    pub from: &'a str,
    /// Target (the head when `None`).
    pub to: Option<&'a str>,
    /// Which path.
    pub mode: Mode,
    /// Output format.
    pub format: ReportFormat,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonPath<'a> {
    package: &'a str,
    channel: &'a str,
    from: String,
    to: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<Vec<PathStep>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    paths: Option<Vec<Vec<PathStep>>>,
    reaches_head: bool,
}

fn describe_start(g: &ChannelGraph<'_>, s: &Start) -> String {
    let version = s.version.as_ref().map(ToString::to_string);
    match (s.matched, &version) {
        (StartMatch::PrunedVersion, _) => format!(
            "version {} (no bundle of the package has it: only skipRanges apply)",
            s.label()
        ),
        (StartMatch::BundleName | StartMatch::BundleVersion, Some(v)) => {
            format!("{} ({v}, not in this channel)", s.label())
        }
        (_, Some(v)) => format!("{} ({v})", s.label()),
        (_, None) => match s.node.map(|n| g.node(n).is_external()) {
            Some(true) => format!(
                "{} (not in the catalog: only replaces and skips apply)",
                s.label()
            ),
            _ => format!("{} (no version: only replaces and skips apply)", s.label()),
        },
    }
}

fn step_line(g: &ChannelGraph<'_>, start: &Start, st: &Step<'_>) -> String {
    let from = st
        .from
        .map_or_else(|| start.label(), |f| g.node(f).name.to_owned());
    let how = match st.edge.range() {
        Some(r) => format!("{} {r:?}", st.edge.kind),
        None => st.edge.kind.to_string(),
    };
    format!(
        "{from} -> {}  {how} declared at {}",
        g.node(st.to).name,
        st.edge.location()
    )
}

fn notes(g: &ChannelGraph<'_>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(err) = &g.chain().error {
        out.push(format!(
            "OLM v0 would refuse to resolve in this channel: {err}"
        ));
    }
    for r in g.invalid_ranges() {
        out.push(format!(
            "skipRange {:?} of {} ({}) does not parse ({}); it gives no edges",
            r.entry.skip_range.as_deref().unwrap_or_default(),
            r.entry.name,
            r.entry.location,
            r.error
        ));
    }
    out
}

/// Show an upgrade path.
pub fn run(req: &Request<'_>) -> Result<Exit, Box<dyn std::error::Error>> {
    let loaded = load::load_path(req.path)?;
    let load_errors: Vec<Diagnostic> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect();
    if !load_errors.is_empty() {
        eprint_diagnostics(&load_errors);
        return Ok(Exit::Invalid);
    }
    let (model, _) = Model::build(loaded.config);
    let (package, channel) = match select_channel(&model, req.package, req.channel) {
        Ok(pc) => pc,
        Err(e) => {
            eprintln!("olmsat: {e}");
            return Ok(Exit::Invalid);
        }
    };
    let g = ChannelGraph::build(package, channel);
    let start = match g.resolve_start(req.from) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("olmsat: {e}");
            return Ok(Exit::Invalid);
        }
    };
    let target = match req.to {
        Some(name) => match g.node_index(name) {
            Some(n) => Some(n),
            None => {
                let known = suggest::closest(name, g.node_indices().map(|n| g.node(n).name))
                    .into_iter()
                    .map(str::to_owned)
                    .collect();
                let e = StartError::Unknown {
                    name: name.to_owned(),
                    package: package.name.clone(),
                    channel: channel.name.clone(),
                    known,
                };
                eprintln!("olmsat: --to: {e}");
                return Ok(Exit::Invalid);
            }
        },
        None => g.head(),
    };
    let head = g.head();
    let notes = notes(&g);
    let to_name = target.map(|t| g.node(t).name);
    let text = req.format == ReportFormat::Text;
    if text {
        println!("package {}, channel {}", package.name, channel.name);
        for n in &notes {
            println!("note: {n}");
        }
    } else {
        for n in &notes {
            eprintln!("olmsat: note: {n}");
        }
    }
    let target_words = |t: Option<NodeIndex>| match (t, head) {
        (Some(t), Some(h)) if t == h => format!("the head {}", g.node(t).name),
        (Some(t), _) => g.node(t).name.to_owned(),
        (None, _) => "the head".to_owned(),
    };
    let from_words = describe_start(&g, &start);
    let mut json = JsonPath {
        package: &package.name,
        channel: &channel.name,
        from: start.label(),
        to: to_name,
        steps: None,
        paths: None,
        reaches_head: false,
    };
    let reached = match req.mode {
        Mode::Olm => {
            let path = match (req.to, target) {
                (Some(_), Some(t)) => g.olm_path_to(&start, t),
                _ => g.olm_path(&start),
            };
            if text {
                println!(
                    "OLM v0 path from {from_words} to {}, one step per resolution:",
                    target_words(target)
                );
                for st in &path.steps {
                    println!("{}", step_line(&g, &start, st));
                }
                let mut summary = path.summary(&g);
                if req.to.is_some() && target != head && path.end == OlmEnd::Head {
                    summary = format!("does not pass {}; {summary}", to_name.unwrap_or_default());
                }
                println!("{summary}");
                if path.end == OlmEnd::DeadEnd {
                    let stuck = match path.steps.last() {
                        Some(st) => Start::node(&g, st.to),
                        None => start.clone(),
                    };
                    for st in g.graph_successors(&stuck) {
                        if let Some(why) = g.not_offered(st.to) {
                            println!(
                                "  {} ({} declared at {}) is never offered: {why}",
                                g.node(st.to).name,
                                st.edge.kind,
                                st.edge.location()
                            );
                        }
                    }
                }
            }
            json.steps = Some(PathStep::all(&g, &start, &path.steps));
            json.reaches_head = path.reaches_head();
            match path.end {
                OlmEnd::Target => true,
                OlmEnd::Head => target == head,
                _ => false,
            }
        }
        Mode::Shortest | Mode::All(_) => {
            let Some(t) = target else {
                let why = g
                    .chain()
                    .error
                    .as_ref()
                    .map_or_else(|| "it is empty".to_owned(), ToString::to_string);
                eprintln!(
                    "olmsat: channel {:?} has no single head ({why}); give --to",
                    channel.name
                );
                return Ok(Exit::Invalid);
            };
            if let Mode::All(limit) = req.mode {
                let all = g.all_paths(&start, t, limit);
                if text {
                    println!(
                        "all paths over every edge from {from_words} to {} (at most {limit}):",
                        target_words(target)
                    );
                    for (i, p) in all.paths.iter().enumerate() {
                        let n = p.len();
                        println!(
                            "path {} ({n} step{}):",
                            i + 1,
                            if n == 1 { "" } else { "s" }
                        );
                        for st in p {
                            println!("  {}", step_line(&g, &start, st));
                        }
                    }
                    match (all.paths.len(), all.complete) {
                        (0, _) => println!("no path"),
                        (n, true) => println!("{n} path{}", if n == 1 { "" } else { "s" }),
                        (n, false) => {
                            println!("{n} paths shown; there may be more (raise --limit)")
                        }
                    }
                }
                json.reaches_head = Some(t) == head && !all.paths.is_empty();
                let reached = !all.paths.is_empty();
                json.paths = Some(
                    all.paths
                        .iter()
                        .map(|p| PathStep::all(&g, &start, p))
                        .collect(),
                );
                reached
            } else {
                let path = g.shortest_path(&start, t);
                if text {
                    println!(
                        "shortest path over every edge from {from_words} to {}:",
                        target_words(target)
                    );
                    for st in path.iter().flatten() {
                        println!("{}", step_line(&g, &start, st));
                    }
                    match &path {
                        Some(p) if p.is_empty() => println!("already there"),
                        Some(p) => println!(
                            "reaches {} in {} step{}",
                            target_words(target),
                            p.len(),
                            if p.len() == 1 { "" } else { "s" }
                        ),
                        None => println!("no path"),
                    }
                }
                json.reaches_head = Some(t) == head && path.is_some();
                json.steps = Some(
                    path.as_deref()
                        .map(|p| PathStep::all(&g, &start, p))
                        .unwrap_or_default(),
                );
                path.is_some()
            }
        }
    };
    if !text {
        print_json(&json)?;
    }
    Ok(if reached { Exit::Ok } else { Exit::Invalid })
}
