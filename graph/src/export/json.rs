//! Upgrade graphs as JSON for other tools: nodes and edges with provenance.
//!
//! ```text
//! {"packages": [{
//!   "name", "defaultChannel", "deprecated"?,
//!   "channels": [{
//!     "name", "head" (null without a single head), "chainError"?, "deprecated"?,
//!     "nodes": [{"name", "version" (or null), "presence": "entry"|"otherChannel"|"missing",
//!                "head", "chainPosition" (or null), "skipped", "deprecated"?,
//!                "legacyDeprecated", "hopsToHead" (or null)}],
//!     "edges": [{"from", "to", "kind": "replaces"|"skips"|"skipRange", "range"?, "file", "line"}],
//!     "olmPath"?: {"from", "steps": [step], "end", "reachesHead"},
//!     "folded"?: N
//!   }]
//! }],
//! "folded"?: N, "note"?: "N edges folded; `--edges all` shows them",
//! "legend"?: {"nodes": {style: meaning}, "edges": {kind: style}}}
//! ```
//!
//! `edges` are those the view shows; in the folded view each channel and the
//! whole drawing say how many were folded (`note` only when some were). The
//! legend says how the DOT and SVG drawings show each thing.
//!
//! Packages, channels and nodes are sorted by name; edges by (from, to, kind).
//! A step is `{"from", "to", "via", "range"?, "file", "line"}` ([`PathStep`]).

use std::io::{self, Write};

use serde::Serialize;

use super::dot::{kind_style, DEPRECATED_PACKAGE_FILL, SKIPPED_FONT};
use super::drawing::{Drawing, DrawnChannel};
use super::fold::EdgeView;
use super::style::{DEPRECATED_CHANNEL_FILL, DEPRECATED_FILL, HIGHLIGHT, LEGACY_DEPRECATED_FILL};
use crate::upgrade::{ChannelGraph, EdgeKind, OlmEnd, OlmPath, Presence, Start, Step};

/// One step of a path, as `olmsat path -o json` prints it.
#[derive(Debug, Serialize)]
pub struct PathStep {
    /// From (a bundle name, or the start's version when it is not a node).
    pub from: String,
    /// To.
    pub to: String,
    /// `replaces`, `skips` or `skipRange`.
    pub via: &'static str,
    /// The range, for skipRange.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<String>,
    /// File of the declaring entry.
    pub file: String,
    /// Line of the declaring entry (0 when unknown).
    pub line: u32,
}

impl PathStep {
    /// The step `step` of a path from `start` in `graph`.
    pub fn new(graph: &ChannelGraph<'_>, start: &Start, step: &Step<'_>) -> PathStep {
        PathStep {
            from: step
                .from
                .map_or_else(|| start.label(), |f| graph.node(f).name.to_owned()),
            to: graph.node(step.to).name.to_owned(),
            via: step.edge.kind.as_str(),
            range: step.edge.range().map(str::to_owned),
            file: step.edge.location().file.to_string(),
            line: step.edge.location().line,
        }
    }

    /// All steps of a path.
    pub fn all(graph: &ChannelGraph<'_>, start: &Start, steps: &[Step<'_>]) -> Vec<PathStep> {
        steps
            .iter()
            .map(|s| PathStep::new(graph, start, s))
            .collect()
    }
}

/// How an OLM path ends, as a JSON word: `head`, `target`, `deadEnd`, `loop`
/// or `noHead`.
pub fn end_word(end: OlmEnd) -> &'static str {
    match end {
        OlmEnd::Head => "head",
        OlmEnd::Target => "target",
        OlmEnd::DeadEnd => "deadEnd",
        OlmEnd::Loop(_) => "loop",
        OlmEnd::NoHead => "noHead",
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonDrawing<'a> {
    packages: Vec<JsonPackage<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    folded: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    legend: Option<serde_json::Value>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonPackage<'a> {
    name: &'a str,
    default_channel: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    deprecated: Option<&'a str>,
    channels: Vec<JsonChannel<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonChannel<'a> {
    name: &'a str,
    head: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chain_error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deprecated: Option<&'a str>,
    nodes: Vec<JsonNode<'a>>,
    edges: Vec<JsonEdge<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    olm_path: Option<JsonOlmPath>,
    #[serde(skip_serializing_if = "Option::is_none")]
    folded: Option<usize>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonNode<'a> {
    name: &'a str,
    version: Option<String>,
    presence: &'static str,
    head: bool,
    chain_position: Option<usize>,
    skipped: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    deprecated: Option<&'a str>,
    legacy_deprecated: bool,
    hops_to_head: Option<usize>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonEdge<'a> {
    from: &'a str,
    to: &'a str,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    range: Option<&'a str>,
    file: &'a str,
    line: u32,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonOlmPath {
    from: String,
    steps: Vec<PathStep>,
    end: &'static str,
    reaches_head: bool,
}

fn presence_word(p: Presence) -> &'static str {
    match p {
        Presence::Entry(_) => "entry",
        Presence::OtherChannel => "otherChannel",
        Presence::Missing => "missing",
    }
}

fn channel<'a>(ch: &'a DrawnChannel<'_>, view: EdgeView) -> JsonChannel<'a> {
    let g = &ch.graph;
    let head = g.head();
    let hops = g.hops_to_head();
    let mut nodes: Vec<JsonNode<'a>> = ch
        .nodes
        .iter()
        .map(|&n| {
            let node = g.node(n);
            JsonNode {
                name: node.name,
                version: node.version.map(ToString::to_string),
                presence: presence_word(node.presence),
                head: Some(n) == head,
                chain_position: node.chain_position,
                skipped: node.skipped,
                deprecated: node.deprecation,
                legacy_deprecated: node.legacy_deprecated,
                hops_to_head: hops[n.index()],
            }
        })
        .collect();
    nodes.sort_by(|a, b| a.name.cmp(b.name));
    let mut edges: Vec<(JsonEdge<'a>, EdgeKind)> = ch
        .shown_edges()
        .iter()
        .filter_map(|&e| {
            let (a, b) = g.graph().edge_endpoints(e)?;
            let edge = g.edge(e);
            let loc = edge.location();
            Some((
                JsonEdge {
                    from: g.node(a).name,
                    to: g.node(b).name,
                    kind: edge.kind.as_str(),
                    range: edge.range(),
                    file: &loc.file,
                    line: loc.line,
                },
                edge.kind,
            ))
        })
        .collect();
    edges.sort_by(|(a, ak), (b, bk)| (a.from, a.to, ak).cmp(&(b.from, b.to, bk)));
    JsonChannel {
        name: &g.channel().name,
        head: head.map(|h| g.node(h).name),
        chain_error: g.chain().error.as_ref().map(ToString::to_string),
        deprecated: ch.deprecation(),
        nodes,
        edges: edges.into_iter().map(|(e, _)| e).collect(),
        olm_path: ch
            .highlight
            .as_ref()
            .map(|h| olm_path(g, &h.start, &h.path)),
        folded: (view == EdgeView::Folded).then_some(ch.folded),
    }
}

/// What each style of the DOT and SVG drawings means.
fn legend() -> serde_json::Value {
    let edge = |kind| {
        let (style, color) = kind_style(kind);
        format!("{style} {color}")
    };
    serde_json::json!({
        "nodes": {
            "head": "double border",
            "skipped": format!("text {SKIPPED_FONT}: skipped by an entry, never offered by OLM v0"),
            "external": "dashed border: not an entry of the channel",
            "deprecated": format!("filled {DEPRECATED_FILL}: deprecated by olm.deprecations"),
            "legacyDeprecated": format!("filled {LEGACY_DEPRECATED_FILL}: olm.deprecated, OLM v0 refuses to install it"),
            "highlighted": format!("bold {HIGHLIGHT} border: on the highlighted OLM v0 path"),
            "deprecatedChannel": format!("box filled {DEPRECATED_CHANNEL_FILL}: a channel deprecated by olm.deprecations"),
            "deprecatedPackage": format!("box filled {DEPRECATED_PACKAGE_FILL}: a package deprecated by olm.deprecations"),
        },
        "edges": {
            "replaces": edge(EdgeKind::Replaces),
            "skips": edge(EdgeKind::Skips),
            "skipRange": edge(EdgeKind::SkipRange),
            "olmPath": format!("bold {HIGHLIGHT}"),
        },
    })
}

fn olm_path(g: &ChannelGraph<'_>, start: &Start, path: &OlmPath<'_>) -> JsonOlmPath {
    JsonOlmPath {
        from: start.label(),
        steps: PathStep::all(g, start, &path.steps),
        end: end_word(path.end),
        reaches_head: path.reaches_head(),
    }
}

/// The drawing as a JSON value.
pub fn to_value(drawing: &Drawing<'_>) -> serde_json::Value {
    let doc = JsonDrawing {
        packages: drawing
            .packages
            .iter()
            .map(|p| JsonPackage {
                name: &p.package.name,
                default_channel: &p.package.default_channel,
                deprecated: p.deprecation(),
                channels: p
                    .channels
                    .iter()
                    .map(|c| channel(c, drawing.view))
                    .collect(),
            })
            .collect(),
        folded: (drawing.view == EdgeView::Folded).then(|| drawing.folded()),
        note: drawing.folded_note(),
        legend: drawing.legend.then(legend),
    };
    serde_json::to_value(doc).unwrap_or(serde_json::Value::Null)
}

/// Write the drawing as pretty JSON (and a final newline) to `w`.
pub fn write(drawing: &Drawing<'_>, w: &mut impl Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, &to_value(drawing)).map_err(io::Error::other)?;
    w.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{DrawOptions, Drawing};
    use crate::upgrade::fixture::package;
    use olmsat_catalog::model::Model;

    #[test]
    fn nodes_edges_and_paths() {
        let m = Model::new(vec![package(&[
            "a@1.0.0",
            "b@1.1.0<a;<1.1.0",
            "c@1.2.0<b|gone",
        ])]);
        let opts = DrawOptions {
            channel: Some("stable"),
            highlight_from: Some("0.9.0"),
            ..DrawOptions::default()
        };
        let Ok(d) = Drawing::new(&m, &opts) else {
            panic!("drawing failed");
        };
        let v = to_value(&d);
        let ch = &v["packages"][0]["channels"][0];
        assert_eq!(ch["head"], "c");
        let names: Vec<&str> = ch["nodes"]
            .as_array()
            .map(|a| a.iter().filter_map(|n| n["name"].as_str()).collect())
            .unwrap_or_default();
        assert_eq!(names, vec!["a", "b", "c", "gone"]);
        assert_eq!(ch["nodes"][3]["presence"], "missing");
        assert_eq!(ch["nodes"][0]["hopsToHead"], 2);
        assert_eq!(
            ch["edges"][0],
            serde_json::json!({"from": "a", "to": "b", "kind": "replaces", "file": "stable.yaml", "line": 2})
        );
        assert_eq!(ch["edges"][1]["range"], "<1.1.0");
        assert_eq!(ch["olmPath"]["from"], "0.9.0");
        assert_eq!(ch["olmPath"]["steps"][0]["via"], "skipRange");
        assert_eq!(ch["olmPath"]["end"], "head");
    }
}
