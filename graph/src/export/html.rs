//! The upgrade-graph explorer: one self-contained HTML page (no network, no
//! Graphviz, no external script) with olmsat's own layout of the drawing and
//! the answers of `olmsat path`, precomputed, to highlight.
//!
//! Layout (in Rust, deterministic): a section per package, a lane per channel;
//! in a lane the nodes stand on one line in version order (unversioned last),
//! a column each, labelled with their version (or name) above, and the edges
//! are arcs below the line. The column width shrinks with the number of nodes
//! down to [`MIN_COLUMN`] pixels, so a channel of 80 versions fits a
//! 1920-pixel screen; a longer lane scrolls sideways.
//!
//! Styles are those of `graph`'s legend: the head has a double ring, an
//! external node (not an entry of the channel) a dashed one, a skipped entry
//! grey text; bundles deprecated by `olm.deprecations` are filled
//! [`DEPRECATED_FILL`], those with `olm.deprecated`
//! [`LEGACY_DEPRECATED_FILL`]; a deprecated channel's lane is
//! [`DEPRECATED_CHANNEL_FILL`]; `replaces` edges are solid, `skips` dashed,
//! `skipRange` dotted; the highlighted path is [`HIGHLIGHT`]. Every edge of the
//! drawing is in the page; those the view folds are hidden until "all edges"
//! is ticked.
//!
//! The data (embedded as JSON in a `<script type="application/json">`, every
//! `<`, `>` and `&` written as a `\u` escape so that no catalog text can close
//! the element) holds, for every node of every channel, OLM v0's path to the
//! head exactly as `olmsat path PACKAGE --from NODE --channel CHANNEL` answers
//! it (the text lines, and the steps as edges), each edge's successor lists in
//! the order `path --shortest` walks them, and, for pairs of nodes that no
//! path joins, the reasons `path --shortest --to` gives. The page's script
//! only highlights these answers; its one computation is the breadth-first
//! search of `path --shortest` over the successor lists. Catalog text goes
//! into the page as escaped markup from Rust, and into the document by the
//! script only through `textContent`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use petgraph::graph::NodeIndex;
use serde::Serialize;

use super::dot::{kind_style, DEPRECATED_PACKAGE_FILL, SKIPPED_FONT};
use super::drawing::{Drawing, DrawnChannel};
use super::style::{DEPRECATED_CHANNEL_FILL, DEPRECATED_FILL, HIGHLIGHT, LEGACY_DEPRECATED_FILL};
use crate::path;
use crate::upgrade::{ChannelGraph, EdgeKind, Start};

/// The narrowest column of a lane, in pixels.
pub const MIN_COLUMN: usize = 22;
/// The widest column of a lane, in pixels.
pub const MAX_COLUMN: usize = 64;
/// The width a lane is fitted to, in pixels (a 1920-pixel screen less margins).
pub const LANE_WIDTH: usize = 1840;
/// Channels with more nodes than this carry no "why not" reasons for pairs
/// (the page tells to ask `olmsat path`): their count grows with the square
/// of the nodes.
pub const PAIR_REASONS_LIMIT: usize = 400;
/// Labels longer than this many characters are cut (the full name is in the
/// node's tooltip and in the answers).
const LABEL_CHARS: usize = 26;
const NODE_RADIUS: usize = 6;
const PAD: usize = 16;

const CSS: &str = include_str!("html/explorer.css");
const JS: &str = include_str!("html/explorer.js");

/// `s` escaped for HTML text and attribute values.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON text made safe inside a `<script>` element: `<`, `>` and `&` (which
/// only occur inside JSON strings) become `\u` escapes, as do the line
/// separators JavaScript once refused in strings.
fn script_safe(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 64);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[derive(Serialize)]
struct PageData {
    /// The reason for a target older than the start, with `{target}`,
    /// `{targetVersion}`, `{start}` and `{startVersion}` to fill in.
    older: String,
    packages: Vec<PackageData>,
}

#[derive(Serialize)]
struct PackageData {
    name: String,
    channels: Vec<ChannelData>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChannelData {
    name: String,
    /// The head's node index.
    head: Option<usize>,
    /// The notes `path` prints under the channel's heading.
    notes: Vec<String>,
    nodes: Vec<NodeData>,
    /// `[from, to, kind, how, drawn]`: kind 0 replaces, 1 skips, 2 skipRange;
    /// `how` as a step line says it after the names; drawn 1 when the page
    /// draws the edge (index `e` of the lane's edges), else 0.
    edges: Vec<(usize, usize, u8, String, u8)>,
    /// Per node, the edges `path --shortest` follows out of it, in its order.
    succ: Vec<Vec<usize>>,
    /// Whether `why` holds the reasons of every pair no path joins (else the
    /// channel was too large).
    pairs: bool,
    /// Reason lines, referenced by `why`.
    lines: Vec<String>,
    /// `[from, to, [line...]]` for pairs no path joins whose target is not
    /// older than the start.
    why: Vec<(usize, usize, Vec<usize>)>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct NodeData {
    name: String,
    version: Option<String>,
    /// Position in version precedence (equal versions share one); `None`
    /// without a version.
    rank: Option<usize>,
    /// OLM v0's path to the head, as `path` answers it.
    olm: Option<OlmData>,
    /// Why `path` could not answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OlmData {
    /// The first line of the answer.
    heading: String,
    /// The steps, as edges of the channel.
    steps: Vec<usize>,
    /// The lines after the steps: how the walk ends, and why.
    rest: Vec<String>,
    /// The JSON `end` word.
    end: &'static str,
    reaches_head: bool,
}

fn kind_index(kind: EdgeKind) -> u8 {
    match kind {
        EdgeKind::Replaces => 0,
        EdgeKind::Skips => 1,
        EdgeKind::SkipRange => 2,
    }
}

/// A channel's edges table: drawn edges first (in drawing order, so that
/// index `e` is the `e`-th drawn edge), then any other edge a path takes.
struct EdgeTable<'g, 'm> {
    g: &'g ChannelGraph<'m>,
    pos: HashMap<NodeIndex, usize>,
    rows: Vec<(usize, usize, u8, String, u8)>,
    by_key: HashMap<(usize, usize, u8), usize>,
}

impl<'g, 'm> EdgeTable<'g, 'm> {
    fn new(ch: &'g DrawnChannel<'m>) -> EdgeTable<'g, 'm> {
        let g = &ch.graph;
        let pos = ch.nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let mut t = EdgeTable {
            g,
            pos,
            rows: Vec::new(),
            by_key: HashMap::new(),
        };
        for &e in &ch.edges {
            if let Some((a, b)) = g.graph().edge_endpoints(e) {
                let edge = *g.edge(e);
                t.add(a, b, &edge, 1);
            }
        }
        t
    }

    fn add(
        &mut self,
        a: NodeIndex,
        b: NodeIndex,
        edge: &crate::upgrade::Edge<'_>,
        drawn: u8,
    ) -> usize {
        let (Some(&pa), Some(&pb)) = (self.pos.get(&a), self.pos.get(&b)) else {
            return usize::MAX;
        };
        let key = (pa, pb, kind_index(edge.kind));
        if let Some(&i) = self.by_key.get(&key) {
            return i;
        }
        let i = self.rows.len();
        self.rows.push((pa, pb, key.2, path::step_how(edge), drawn));
        self.by_key.insert(key, i);
        i
    }

    /// The row of a step from `a` to `b` over `edge`, added when not drawn.
    fn step(&mut self, a: NodeIndex, b: NodeIndex, edge: &crate::upgrade::Edge<'_>) -> usize {
        self.add(a, b, edge, 0)
    }

    fn node_pos(&self, n: NodeIndex) -> Option<usize> {
        self.pos.get(&n).copied()
    }

    fn graph(&self) -> &'g ChannelGraph<'m> {
        self.g
    }
}

fn ranks(g: &ChannelGraph<'_>, nodes: &[NodeIndex]) -> Vec<Option<usize>> {
    let mut out = Vec::with_capacity(nodes.len());
    let mut rank = 0;
    let mut last: Option<&semver::Version> = None;
    for &n in nodes {
        match g.node(n).version {
            Some(v) => {
                if let Some(l) = last {
                    if v.cmp_precedence(l) != std::cmp::Ordering::Equal {
                        rank += 1;
                    }
                }
                last = Some(v);
                out.push(Some(rank));
            }
            None => out.push(None),
        }
    }
    out
}

fn channel_data(drawing: &Drawing<'_>, ch: &DrawnChannel<'_>) -> ChannelData {
    let mut table = EdgeTable::new(ch);
    let g = table.graph();
    let ranks = ranks(g, &ch.nodes);
    let mut notes = Vec::new();
    let mut nodes = Vec::with_capacity(ch.nodes.len());
    for (i, &n) in ch.nodes.iter().enumerate() {
        let node = g.node(n);
        let (olm, error) = match path::olm_answer_at(drawing.model, g, n) {
            Ok(a) => {
                if i == 0 {
                    notes = a.heading.notes.clone();
                }
                let steps = a.json.steps.as_ref().map_or(0, Vec::len);
                let mut lines = a.body.lines();
                let heading = lines.next().unwrap_or_default().to_owned();
                let rest: Vec<String> = lines.skip(steps).map(str::to_owned).collect();
                let walk = g.olm_path(&Start::node(g, n));
                let ids = walk
                    .steps
                    .iter()
                    .filter_map(|st| st.from.map(|f| table.step(f, st.to, &st.edge)))
                    .collect();
                (
                    Some(OlmData {
                        heading,
                        steps: ids,
                        rest,
                        end: a.json.end,
                        reaches_head: a.json.reaches_head,
                    }),
                    None,
                )
            }
            Err(f) => (None, Some(f.error.to_string())),
        };
        nodes.push(NodeData {
            name: node.name.to_owned(),
            version: node.version.map(ToString::to_string),
            rank: ranks[i],
            olm,
            error,
        });
    }
    let succ: Vec<Vec<usize>> = ch
        .nodes
        .iter()
        .map(|&n| {
            g.graph_successors(&Start::node(g, n))
                .iter()
                .filter_map(|st| st.from.map(|f| table.step(f, st.to, &st.edge)))
                .filter(|i| *i != usize::MAX)
                .collect()
        })
        .collect();
    let pairs = ch.nodes.len() <= PAIR_REASONS_LIMIT;
    let mut lines: Vec<String> = Vec::new();
    let mut line_ids: HashMap<String, usize> = HashMap::new();
    let mut why = Vec::new();
    if pairs {
        for (si, &s) in ch.nodes.iter().enumerate() {
            let mut reach = vec![false; g.node_count()];
            for r in g.reachable_from(&Start::node(g, s)) {
                reach[r.index()] = true;
            }
            for (ti, &t) in ch.nodes.iter().enumerate() {
                if ti == si || reach[t.index()] {
                    continue;
                }
                if let (Some(rs), Some(rt)) = (ranks[si], ranks[ti]) {
                    if rt < rs {
                        continue; // the page fills in `older`
                    }
                }
                let ids = path::unreachable_reasons(g, s, t)
                    .into_iter()
                    .map(|l| {
                        let next = lines.len();
                        *line_ids.entry(l.clone()).or_insert_with(|| {
                            lines.push(l);
                            next
                        })
                    })
                    .collect();
                why.push((si, ti, ids));
            }
        }
    }
    let head = g.head().and_then(|h| table.node_pos(h));
    ChannelData {
        name: g.channel().name.clone(),
        head,
        notes,
        nodes,
        edges: std::mem::take(&mut table.rows),
        succ,
        pairs,
        lines,
        why,
    }
}

/// A node's label: its version when its name ends with it, else its name
/// (cut to [`LABEL_CHARS`]).
fn label(name: &str, version: Option<&str>) -> String {
    if let Some(v) = version {
        if let Some(prefix) = name.strip_suffix(v) {
            if prefix.is_empty() || prefix.ends_with(['v', '.', '-']) {
                return v.to_owned();
            }
        }
    }
    let chars: Vec<char> = name.chars().collect();
    if chars.len() > LABEL_CHARS {
        let mut s: String = chars[..LABEL_CHARS - 1].iter().collect();
        s.push('…');
        s
    } else {
        name.to_owned()
    }
}

/// The column width for a lane of `n` nodes.
fn column(n: usize) -> usize {
    (LANE_WIDTH.saturating_sub(2 * PAD) / n.max(1)).clamp(MIN_COLUMN, MAX_COLUMN)
}

/// How far below the line an arc spanning `cols` columns dips.
fn dip(cols: usize) -> usize {
    // Grows with the square root of the span: long arcs stay apart without
    // making the lane tall.
    let d = 6.0 + 7.0 * (cols as f64).sqrt();
    (d.round() as usize).min(120)
}

fn kind_class(kind: u8) -> &'static str {
    match kind {
        0 => "replaces",
        1 => "skips",
        _ => "skipRange",
    }
}

/// The SVG of one lane.
fn lane_svg(out: &mut String, ch: &DrawnChannel<'_>, data: &ChannelData) {
    let g = &ch.graph;
    let n = ch.nodes.len();
    let col = column(n);
    let labels: Vec<String> = data
        .nodes
        .iter()
        .map(|d| label(&d.name, d.version.as_deref()))
        .collect();
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1);
    // Labels run up and to the right at 50 degrees.
    let top = 12 + ((longest as f64) * 6.6 * 0.766).ceil() as usize;
    let y = top + NODE_RADIUS + 6;
    let x = |i: usize| PAD + col / 2 + i * col;
    let drawn: Vec<usize> = (0..data.edges.len())
        .filter(|&i| data.edges[i].4 == 1)
        .collect();
    let max_dip = drawn
        .iter()
        .map(|&i| dip(data.edges[i].0.abs_diff(data.edges[i].1)))
        .max()
        .unwrap_or(0);
    let width = 2 * PAD + n * col;
    let height = y + NODE_RADIUS + max_dip + 14;
    let shown: std::collections::HashSet<(usize, usize, u8)> = ch
        .shown_edges()
        .iter()
        .filter_map(|&e| {
            let (a, b) = g.graph().edge_endpoints(e)?;
            let pa = ch.nodes.iter().position(|x| *x == a)?;
            let pb = ch.nodes.iter().position(|x| *x == b)?;
            Some((pa, pb, kind_index(g.edge(e).kind)))
        })
        .collect();
    let _ = write!(
        out,
        "<svg class=\"lane-svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{} nodes\"><g class=\"edges\">",
        n
    );
    for &i in &drawn {
        let (a, b, kind, how, _) = &data.edges[i];
        let (x1, x2) = (x(*a), x(*b));
        let d = dip(a.abs_diff(*b));
        let y1 = y + NODE_RADIUS;
        let cy = y1 + 2 * d;
        let mx = (x1 + x2) / 2;
        let folded = if shown.contains(&(*a, *b, *kind)) {
            ""
        } else {
            " folded"
        };
        let title = format!(
            "{} -> {}  {}",
            data.nodes[*a].name, data.nodes[*b].name, how
        );
        let _ = write!(
            out,
            "<g class=\"e k-{}{folded}\" data-e=\"{i}\"><title>{}</title><path class=\"hit\" d=\"M{x1} {y1}Q{mx} {cy} {x2} {}\"/><path class=\"line\" d=\"M{x1} {y1}Q{mx} {cy} {x2} {}\"/></g>",
            kind_class(*kind),
            escape(&title),
            y1 + 2,
            y1 + 2
        );
    }
    out.push_str("</g><g class=\"nodes\">");
    for (i, &nix) in ch.nodes.iter().enumerate() {
        let node = g.node(nix);
        let d = &data.nodes[i];
        let mut class = String::from("n");
        if data.head == Some(i) {
            class.push_str(" head");
        }
        if node.is_external() {
            class.push_str(" ext");
        }
        if node.skipped {
            class.push_str(" skipped");
        }
        if node.legacy_deprecated {
            class.push_str(" legacy");
        } else if node.deprecation.is_some() {
            class.push_str(" dep");
        }
        let mut tip = d.name.clone();
        if let Some(v) = &d.version {
            let _ = write!(tip, " ({v})");
        }
        if data.head == Some(i) {
            tip.push_str(", head");
        }
        if node.is_external() {
            tip.push_str(", not an entry of the channel");
        }
        if node.skipped {
            tip.push_str(", skipped: never offered by OLM v0");
        }
        if node.legacy_deprecated {
            tip.push_str(", olm.deprecated: OLM v0 refuses to install it");
        } else if let Some(m) = node.deprecation {
            let _ = write!(tip, ", deprecated: {m}");
        }
        let cx = x(i);
        let _ = write!(
            out,
            "<g class=\"{class}\" data-n=\"{i}\" tabindex=\"0\" role=\"button\" aria-label=\"{}\"><title>{}</title>",
            escape(&tip),
            escape(&tip)
        );
        if data.head == Some(i) {
            let _ = write!(
                out,
                "<circle class=\"ring\" cx=\"{cx}\" cy=\"{y}\" r=\"{}\"/>",
                NODE_RADIUS + 3
            );
        }
        let _ = write!(
            out,
            "<circle class=\"dot\" cx=\"{cx}\" cy=\"{y}\" r=\"{NODE_RADIUS}\"/><text x=\"{}\" y=\"{}\" transform=\"rotate(-50 {} {})\">{}</text></g>",
            cx + 2,
            y - NODE_RADIUS - 5,
            cx + 2,
            y - NODE_RADIUS - 5,
            escape(&labels[i])
        );
    }
    out.push_str("</g></svg>");
}

fn legend(out: &mut String) {
    let (rs, rc) = kind_style(EdgeKind::Replaces);
    let (ss, sc) = kind_style(EdgeKind::Skips);
    let (ks, kc) = kind_style(EdgeKind::SkipRange);
    let _ = write!(
        out,
        "<details class=\"legend\" open><summary>Legend</summary><ul>\
<li><svg width=\"26\" height=\"20\" aria-hidden=\"true\"><circle class=\"ring\" cx=\"13\" cy=\"10\" r=\"9\"/><circle cx=\"13\" cy=\"10\" r=\"6\" fill=\"#fff\" stroke=\"#333\"/></svg> head (double ring)</li>\
<li><svg width=\"26\" height=\"20\" aria-hidden=\"true\"><circle cx=\"13\" cy=\"10\" r=\"6\" fill=\"#fff\" stroke=\"#333\" stroke-dasharray=\"3 2\"/></svg> not an entry of the channel (dashed ring)</li>\
<li><span class=\"swatch\" style=\"color:{SKIPPED_FONT}\">1.0.0</span> skipped by an entry: never offered by OLM v0 (grey label)</li>\
<li><span class=\"swatch box\" style=\"background:{DEPRECATED_FILL}\"></span> deprecated by olm.deprecations</li>\
<li><span class=\"swatch box\" style=\"background:{LEGACY_DEPRECATED_FILL}\"></span> olm.deprecated: OLM v0 refuses to install it</li>\
<li><span class=\"swatch box\" style=\"background:{DEPRECATED_CHANNEL_FILL}\"></span> deprecated channel</li>\
<li><span class=\"swatch box\" style=\"background:{DEPRECATED_PACKAGE_FILL}\"></span> deprecated package</li>\
<li><svg width=\"36\" height=\"12\" aria-hidden=\"true\"><line x1=\"2\" y1=\"6\" x2=\"34\" y2=\"6\" stroke=\"{rc}\" stroke-width=\"2\"/></svg> replaces ({rs})</li>\
<li><svg width=\"36\" height=\"12\" aria-hidden=\"true\"><line x1=\"2\" y1=\"6\" x2=\"34\" y2=\"6\" stroke=\"{sc}\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/></svg> skips ({ss})</li>\
<li><svg width=\"36\" height=\"12\" aria-hidden=\"true\"><line x1=\"2\" y1=\"6\" x2=\"34\" y2=\"6\" stroke=\"{kc}\" stroke-width=\"2\" stroke-dasharray=\"1.5 3\"/></svg> skipRange ({ks})</li>\
<li><svg width=\"36\" height=\"12\" aria-hidden=\"true\"><line x1=\"2\" y1=\"6\" x2=\"34\" y2=\"6\" stroke=\"{HIGHLIGHT}\" stroke-width=\"3\"/></svg> highlighted path</li>\
</ul></details>"
    );
}

/// The page's title: the package (and channel) when there is one, else
/// "Upgrade graphs".
fn title(drawing: &Drawing<'_>) -> String {
    match &drawing.packages[..] {
        [p] => match &p.channels[..] {
            [c] => format!(
                "Upgrade graph: {}, channel {}",
                p.package.name,
                c.graph.channel().name
            ),
            _ => format!("Upgrade graph: {}", p.package.name),
        },
        _ => "Upgrade graphs".to_owned(),
    }
}

/// The page as a string.
pub fn to_string(drawing: &Drawing<'_>) -> String {
    let mut data = PageData {
        older: path::older_reason("{target}", "{targetVersion}", "{start}", "{startVersion}"),
        packages: Vec::new(),
    };
    let mut body = String::new();
    let mut channel_names: Vec<&str> = Vec::new();
    let mut folded = 0;
    for (pi, p) in drawing.packages.iter().enumerate() {
        let mut pd = PackageData {
            name: p.package.name.clone(),
            channels: Vec::new(),
        };
        let dep = p.deprecation();
        let _ = write!(
            body,
            "<section class=\"package{}\" id=\"p{pi}\" data-p=\"{pi}\"><h2>{}",
            if dep.is_some() { " deprecated" } else { "" },
            escape(&p.package.name)
        );
        if let Some(m) = dep {
            let _ = write!(
                body,
                " <span class=\"note\">deprecated: {}</span>",
                escape(m)
            );
        }
        body.push_str("</h2>");
        for (ci, ch) in p.channels.iter().enumerate() {
            let cd = channel_data(drawing, ch);
            let name = &ch.graph.channel().name;
            channel_names.push(name);
            folded += ch.folded;
            let dep = ch.deprecation();
            let _ = write!(
                body,
                "<div class=\"lane{}\" data-p=\"{pi}\" data-c=\"{ci}\" data-channel=\"{}\"><h3>channel {}",
                if dep.is_some() { " deprecated" } else { "" },
                escape(name),
                escape(name)
            );
            if *name == p.package.default_channel {
                body.push_str(" <span class=\"note\">default</span>");
            }
            match cd.head {
                Some(h) => {
                    let _ = write!(
                        body,
                        " <span class=\"note\">head {}</span>",
                        escape(&cd.nodes[h].name)
                    );
                }
                None => body.push_str(" <span class=\"note\">no single head</span>"),
            }
            let _ = write!(
                body,
                " <span class=\"note\">{} versions</span>",
                cd.nodes.len()
            );
            if let Some(m) = dep {
                let _ = write!(
                    body,
                    " <span class=\"note\">deprecated: {}</span>",
                    escape(m)
                );
            }
            body.push_str("</h3><div class=\"scroll\">");
            lane_svg(&mut body, ch, &cd);
            body.push_str("</div></div>");
            pd.channels.push(cd);
        }
        body.push_str("</section>");
        data.packages.push(pd);
    }
    channel_names.sort_unstable();
    channel_names.dedup();
    let json = serde_json::to_string(&data).unwrap_or_else(|_| "{}".to_owned());
    let title = title(drawing);
    let mut out = String::with_capacity(body.len() + json.len() + CSS.len() + JS.len() + 4096);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"generator\" content=\"olmsat\">\n<title>{}</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n",
        escape(&title)
    );
    let _ = write!(
        out,
        "<header><h1>{}</h1><div class=\"controls\" role=\"group\" aria-label=\"Filters\">\
<label>Find <input type=\"search\" id=\"find\" placeholder=\"version or bundle name\" autocomplete=\"off\"></label> \
<label>Channel <select id=\"channel\"><option value=\"\">all channels</option>",
        escape(&title)
    );
    for c in &channel_names {
        let _ = write!(
            out,
            "<option value=\"{}\">{}</option>",
            escape(c),
            escape(c)
        );
    }
    out.push_str("</select></label> <span class=\"kinds\">Edges ");
    for k in ["replaces", "skips", "skipRange"] {
        let _ = write!(
            out,
            "<label><input type=\"checkbox\" class=\"kind\" value=\"{k}\" checked> {k}</label> "
        );
    }
    let _ = writeln!(
        out,
        "</span><label><input type=\"checkbox\" id=\"all-edges\"{}> all edges{}</label> <button type=\"button\" id=\"clear\">Clear</button></div></header>",
        if folded == 0 { " disabled" } else { "" },
        match folded {
            0 => String::new(),
            1 => " (1 folded)".to_owned(),
            n => format!(" ({n} folded)"),
        }
    );
    out.push_str("<p class=\"help\">Click a version (or Tab to it and press Enter) to see the path OLM v0 takes from it to the channel head; then click another version of the same channel for the shortest path to it, or why there is none. Escape clears.</p>\n");
    legend(&mut out);
    out.push_str("\n<svg class=\"defs\" width=\"0\" height=\"0\" aria-hidden=\"true\"><defs>");
    for (id, color) in [
        ("replaces", kind_style(EdgeKind::Replaces).1),
        ("skips", kind_style(EdgeKind::Skips).1),
        ("skipRange", kind_style(EdgeKind::SkipRange).1),
        ("hl", HIGHLIGHT),
    ] {
        let _ = write!(
            out,
            "<marker id=\"a-{id}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto-start-reverse\"><path d=\"M0 0L10 5L0 10z\" fill=\"{color}\"/></marker>"
        );
    }
    out.push_str("</defs></svg>\n<main id=\"graph\">\n");
    out.push_str(&body);
    out.push_str("\n</main>\n<aside id=\"answer\" aria-live=\"polite\"><div id=\"hover\"></div><pre id=\"answer-text\"></pre><ol id=\"steps\" hidden></ol></aside>\n");
    let _ = write!(
        out,
        "<script type=\"application/json\" id=\"olmsat-data\">{}</script>\n<script>\n{JS}</script>\n</body>\n</html>\n",
        script_safe(&json)
    );
    out
}

/// Write the page to `w`.
pub fn write(drawing: &Drawing<'_>, w: &mut impl Write) -> io::Result<()> {
    w.write_all(to_string(drawing).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{DrawOptions, EdgeView};
    use crate::upgrade::fixture::package;
    use olmsat_catalog::model::Model;

    fn page(m: &Model) -> String {
        let opts = DrawOptions {
            edges: EdgeView::Folded,
            legend: true,
            ..DrawOptions::default()
        };
        match Drawing::new(m, &opts) {
            Ok(d) => to_string(&d),
            Err(e) => panic!("drawing failed: {e}"),
        }
    }

    #[test]
    fn one_file_with_data_and_no_links_out() {
        let m = Model::new(vec![package(&[
            "a@1.0.0",
            "b@1.1.0<a;<1.1.0",
            "c@1.2.0<b;<1.2.0",
        ])]);
        let p = page(&m);
        assert!(p.starts_with("<!DOCTYPE html>"));
        assert!(!p.contains("<script src"));
        assert!(!p.contains("http://") && !p.contains("https://"));
        assert!(p.contains("id=\"olmsat-data\""));
        assert!(p.contains("reaches the head c in 1 step"), "{p}");
        assert!(p.contains(" folded)"), "{p}");
        assert_eq!(p, page(&m), "deterministic");
    }

    #[test]
    fn hostile_names_are_escaped() {
        let m = Model::new(vec![package(&[
            "a</script><img src=x onerror=alert(1)>@1.0.0",
            "b@1.1.0<a</script><img src=x onerror=alert(1)>",
        ])]);
        let p = page(&m);
        assert!(!p.contains("</script><img"), "{p}");
        assert!(!p.contains("<img"), "{p}");
        assert!(p.contains("a&lt;/script&gt;&lt;img"));
        assert!(p.contains("a\\u003c/script\\u003e\\u003cimg"));
    }

    #[test]
    fn script_safe_escapes() {
        assert_eq!(
            script_safe("\"</x>&\u{2028}\""),
            "\"\\u003c/x\\u003e\\u0026\\u2028\""
        );
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
    }

    #[test]
    fn layout_fits_80_versions() {
        assert!(80 * column(80) + 2 * PAD <= 1900);
        assert_eq!(column(3), MAX_COLUMN);
        assert_eq!(label("op.v1.2.3", Some("1.2.3")), "1.2.3");
        assert_eq!(label("other", Some("1.2.3")), "other");
        assert_eq!(label(&"x".repeat(40), None).chars().count(), LABEL_CHARS);
    }
}
