//! Graphviz DOT: a cluster per package holding a cluster per channel.
//!
//! - Nodes are labelled with the bundle name and version and listed by version.
//!   Node ids are generated (`n<package>_<channel>_<node>`), so any bundle name
//!   is safe; names only appear in escaped, quoted labels.
//! - Edges: `replaces` solid, `skips` dashed, `skipRange` dotted and labelled
//!   with the range. Each edge's tooltip says where it is declared.
//! - The head has a double border; external nodes (not entries of the channel)
//!   are dashed; entries skipped by another entry (never offered by OLM v0)
//!   have grey text.
//! - Deprecations: bundles deprecated by `olm.deprecations` are filled orange,
//!   bundles with the legacy `olm.deprecated` property (which OLM v0 refuses to
//!   install) light red; a deprecated channel's cluster is lilac and a
//!   deprecated package's grey.
//! - The highlighted OLM path is red and bold; a start that is not a node (a
//!   pruned version) gets a node of its own.
//! - Views other than every edge ([`EdgeView::All`]) are drawn compact: a
//!   bundle named after its version (`<prefix>v1.2.3`) is labelled with the
//!   version only, edges carry no text (the legend tells the kinds apart), each
//!   skipRange is in the tooltip of the entry declaring it, and invisible edges
//!   between consecutive versions keep the nodes in version order from left to
//!   right. A folded drawing says how many edges it folded.
//! - With a legend, a last cluster shows each node style, each fill (a
//!   deprecated channel's and package's box too) and each edge kind; its edge
//!   names are external labels, which do not make Graphviz double every rank.
//! - In the compact views, edges between versioned bundles do not rank their
//!   ends (`constraint=false`): the invisible version chain does, so Graphviz
//!   lays a channel of 80 versions out in under a second instead of half a
//!   minute.

use rayon::prelude::*;
use std::fmt::Write as _;
use std::io::{self, Write};

use petgraph::graph::NodeIndex;

use super::drawing::{Drawing, DrawnChannel};
use super::fold::EdgeView;
use super::style::{
    bundle_fill, DEPRECATED_CHANNEL_FILL, DEPRECATED_FILL, HIGHLIGHT, LEGACY_DEPRECATED_FILL,
};
use crate::upgrade::{Edge, EdgeKind, Node, Presence};

/// Fill of a deprecated package's cluster.
pub const DEPRECATED_PACKAGE_FILL: &str = "#D9D9D9";
/// Colour of `replaces` edges (the graph's edge default).
pub const REPLACES_COLOR: &str = "#333333";
/// Channels drawing more edges than this are "dense": their skipRange edges
/// are left unlabelled and each range is shown once, on the entry declaring it
/// (the edges' tooltips still give it). This keeps large catalogs readable and
/// Graphviz's layout fast.
pub const DENSE_EDGES: usize = 150;

/// Font colour of skipped entries.
pub const SKIPPED_FONT: &str = "#777777";

/// The line style and colour of an edge of `kind`.
pub fn kind_style(kind: EdgeKind) -> (&'static str, &'static str) {
    match kind {
        EdgeKind::Replaces => ("solid", REPLACES_COLOR),
        EdgeKind::Skips => ("dashed", "#3465A4"),
        EdgeKind::SkipRange => ("dotted", "#6B6B6B"),
    }
}

/// The label of a node in the compact views: its version when its name ends
/// with `v<version>` (or is the version), for a node that is not an entry the
/// version its name carries (`<prefix>.v<semver>`), else `None` (name and
/// version).
fn short_label<'a>(node: &'a Node<'a>, version: &'a str) -> Option<&'a str> {
    if node.version.is_none() {
        if !node.is_external() {
            return None;
        }
        // A name that is not an entry: the version its name carries.
        let (prefix, _) = crate::upgrade::version_in_name(node.name)?;
        return node.name.get(prefix.len() + 2..);
    }
    let prefix = node.name.strip_suffix(version)?;
    (prefix.is_empty() || prefix.ends_with('v') || prefix.ends_with('.') || prefix.ends_with('-'))
        .then_some(version)
}

/// `s` as a DOT double-quoted string, rendering literally: quotes and
/// backslashes are escaped, line breaks become centred line breaks (`\n`),
/// other control characters are written as visible `\u{..}` text.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    quote_into(&mut out, s);
    out
}

/// [`quote`], appending to `out`.
fn quote_into(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    quote_inner(out, s);
    out.push('"');
}

/// Whether byte `b` starts something [`quote_inner`] must rewrite: a quote, a
/// backslash, an ASCII control character, or `0xC2`, the first byte of the C1
/// control characters (U+0080 to U+009F) and of other characters up to U+00BF.
fn is_special(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\' || b == 0x7f || b == 0xc2
}

/// The inside of [`quote`] (no surrounding quotes), appended to `out`.
fn quote_inner(out: &mut String, s: &str) {
    // Without an early exit the check is vectorised: labels are short.
    let special = s.bytes().fold(false, |special, b| special | is_special(b));
    if !special {
        out.push_str(s);
        return;
    }
    // Copy the runs between special characters whole.
    let bytes = s.as_bytes();
    let (mut run, mut i) = (0, 0);
    while i < bytes.len() {
        if !is_special(bytes[i]) {
            i += 1;
            continue;
        }
        out.push_str(&s[run..i]);
        // `i` is on a character boundary: special bytes are ASCII or a first byte.
        let Some(c) = s[i..].chars().next() else {
            break;
        };
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\r' if bytes.get(i + 1) == Some(&b'\n') => {}
            '\n' | '\r' => out.push_str("\\n"),
            c if c.is_control() => {
                let _ = write!(out, "\\\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
        i += c.len_utf8();
        run = i;
    }
    out.push_str(&s[run..]);
}

/// Append `n` in decimal.
fn push_int(out: &mut String, n: impl itoa::Integer) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// Append `v` as its `Display` writes it, without the formatting machinery.
fn push_version(out: &mut String, v: &semver::Version) {
    push_int(out, v.major);
    out.push('.');
    push_int(out, v.minor);
    out.push('.');
    push_int(out, v.patch);
    if !v.pre.is_empty() {
        out.push('-');
        out.push_str(v.pre.as_str());
    }
    if !v.build.is_empty() {
        out.push('+');
        out.push_str(v.build.as_str());
    }
}

/// Append a node id: the channel's `n<p>_<c>_` prefix and the node's number.
fn push_node_id(out: &mut String, prefix: &str, n: usize) {
    out.push_str(prefix);
    push_int(out, n);
}

/// Append the `:line:column` of a location as its `Display` writes them.
fn push_line_column(out: &mut String, loc: &olmsat_encoding::location::Location) {
    if loc.line > 0 {
        out.push(':');
        push_int(out, loc.line);
        if loc.column > 0 {
            out.push(':');
            push_int(out, loc.column);
        }
    }
}

fn node_id(p: usize, c: usize, n: NodeIndex) -> String {
    format!("n{p}_{c}_{}", n.index())
}

fn start_id(p: usize, c: usize) -> String {
    format!("n{p}_{c}_start")
}

/// Append a node's attributes to `out`; `scratch` is working space.
fn write_node_attrs(
    out: &mut String,
    scratch: &mut String,
    node: &Node<'_>,
    head: bool,
    highlighted: bool,
    range: Option<&str>,
    compact: bool,
) {
    // The label: one quoted line each for name, version, range and presence.
    out.push_str("label=\"");
    if let Some(v) = node.version {
        scratch.clear();
        push_version(scratch, v);
    }
    let short = if compact {
        short_label(node, scratch)
    } else {
        None
    };
    match short {
        Some(v) => quote_inner(out, v),
        None => quote_inner(out, node.name),
    }
    match (node.version, node.presence) {
        _ if short.is_some() => {}
        (Some(_), _) => {
            out.push_str("\\n");
            quote_inner(out, scratch);
        }
        (None, Presence::Entry(_)) => out.push_str("\\n(no version)"),
        (None, _) => {}
    }
    if let Some(r) = range.filter(|_| !compact) {
        out.push_str("\\nskipRange ");
        quote_inner(out, r);
    }
    match node.presence {
        Presence::Entry(_) => {}
        Presence::OtherChannel => out.push_str("\\n(not in this channel)"),
        Presence::Missing => out.push_str("\\n(not in the catalog)"),
    }
    out.push('"');
    // `rounded` is the default style.
    let fill = bundle_fill(node);
    if node.is_external() || fill.is_some() {
        out.push_str(", style=\"rounded");
        if node.is_external() {
            out.push_str(",dashed");
        }
        if fill.is_some() {
            out.push_str(",filled");
        }
        out.push('"');
    }
    if let Some(f) = fill {
        let _ = write!(out, ", fillcolor=\"{f}\"");
    }
    if head {
        out.push_str(", peripheries=2");
    }
    if node.skipped {
        let _ = write!(out, ", fontcolor=\"{SKIPPED_FONT}\"");
    }
    if highlighted {
        let _ = write!(out, ", color=\"{HIGHLIGHT}\", penwidth=3");
    }
    // The tooltip: what the styles mean, a line each.
    let mut first = true;
    let mut tip_line = |out: &mut String, line: &str| {
        out.push_str(if first { ", tooltip=\"" } else { "\\n" });
        first = false;
        quote_inner(out, line);
    };
    if short.is_some() {
        tip_line(out, node.name);
    }
    if head {
        tip_line(out, "channel head");
    }
    if node.skipped {
        tip_line(out, "skipped by an entry: never offered by OLM v0");
    }
    if let Some(m) = node.deprecation {
        tip_line(out, &format!("deprecated: {}", m.trim_end()));
    }
    if node.legacy_deprecated {
        tip_line(out, "olm.deprecated: OLM v0 refuses to install it");
    }
    if let Some(r) = range.filter(|_| compact) {
        tip_line(out, &format!("skipRange {r}"));
    }
    if !first {
        out.push('"');
    }
}

/// Append an edge's attributes to `out`; `scratch` is working space.
///
/// The graph's edge defaults are the `replaces` style, so those edges only
/// carry a label and a tooltip.
fn write_edge_attrs(
    out: &mut String,
    scratch: &mut String,
    edge: &Edge<'_>,
    highlighted: bool,
    dense: bool,
    compact: bool,
) {
    let kind = edge.kind;
    let range = edge.range();
    let labelled = !(compact || (dense && range.is_some()));
    if labelled {
        out.push_str("label=\"");
        out.push_str(kind.as_str());
        if let Some(r) = range {
            out.push_str("\\n");
            quote_inner(out, r);
        }
        out.push_str("\", ");
    }
    let (style, color) = kind_style(kind);
    let color = if highlighted { HIGHLIGHT } else { color };
    if kind != EdgeKind::Replaces {
        out.push_str("style=");
        out.push_str(style);
        out.push_str(", ");
    }
    if color != REPLACES_COLOR {
        // The font colour even on unlabelled edges, so that every edge has
        // the attributes it had before the defaults (nothing is drawn in it).
        out.push_str("color=\"");
        out.push_str(color);
        out.push_str("\", fontcolor=\"");
        out.push_str(color);
        out.push_str("\", ");
    }
    // The tooltip, `<kind> ["<range>"] declared at <file:line>`, quoted: the
    // range is quoted once for the text and once more for DOT.
    out.push_str("tooltip=\"");
    out.push_str(kind.as_str());
    if let Some(r) = range {
        scratch.clear();
        quote_inner(scratch, r);
        out.push_str(" \\\"");
        quote_inner(out, scratch);
        out.push_str("\\\"");
    }
    out.push_str(" declared at ");
    let loc = edge.location();
    quote_inner(out, &loc.file);
    push_line_column(out, loc);
    out.push('"');
    if highlighted {
        out.push_str(", penwidth=3");
    }
}

fn write_channel(
    out: &mut String,
    flush: &mut dyn FnMut(&mut String),
    p: usize,
    c: usize,
    ch: &DrawnChannel<'_>,
    compact: bool,
) {
    let g = &ch.graph;
    let channel = g.channel();
    let head = g.head();
    let shown = ch.shown_edges();
    let dense = !compact && shown.len() > DENSE_EDGES;
    let marks = ch.path_marks();
    let _ = writeln!(out, "    subgraph cluster_{p}_{c} {{");
    let mut label = format!("channel {}", channel.name);
    if let Some(h) = head {
        let _ = write!(label, "\nhead: {}", g.node(h).name);
    }
    if let Some(err) = &g.chain().error {
        let _ = write!(label, "\n{err}");
    }
    if let Some(h) = &ch.highlight {
        let _ = write!(
            label,
            "\nOLM v0 from {}: {}",
            h.start.label(),
            h.path.summary(g)
        );
    }
    if dense {
        label.push_str("\n(dense: skipRange edges unlabelled; each range is on its entry)");
    }
    match ch.folded {
        0 => {}
        1 => label.push_str("\n1 edge folded"),
        n => {
            let _ = write!(label, "\n{n} edges folded");
        }
    }
    let _ = writeln!(out, "      label={};", quote(&label));
    match ch.deprecation() {
        Some(m) => {
            let _ = writeln!(
                out,
                "      style=\"rounded,filled\"; fillcolor=\"{DEPRECATED_CHANNEL_FILL}\"; tooltip={};",
                quote(&format!("deprecated: {}", m.trim_end()))
            );
        }
        None => out.push_str("      style=rounded;\n"),
    }
    if let Some(h) = &ch.highlight {
        if h.start.node.is_none() {
            let label = match (&h.start.name, &h.start.version) {
                (Some(name), Some(v)) => format!("installed {name}\n{v}\n(not in this channel)"),
                (Some(name), None) => format!("installed {name}\n(not in this channel)"),
                (None, _) => format!("installed {}\n(not in the catalog)", h.start.label()),
            };
            let _ = writeln!(
                out,
                "      {} [label={}, style=\"rounded,dashed\", color=\"{HIGHLIGHT}\", penwidth=3];",
                start_id(p, c),
                quote(&label)
            );
        }
    }
    let prefix = format!("n{p}_{c}_");
    emit_lines(out, flush, &ch.nodes, |out, scratch, &n| {
        out.push_str("      ");
        push_node_id(out, &prefix, n.index());
        out.push_str(" [");
        let range = match g.node(n).presence {
            Presence::Entry(i) if dense || compact => channel.entries()[i].skip_range.as_deref(),
            _ => None,
        };
        write_node_attrs(
            out,
            scratch,
            g.node(n),
            Some(n) == head,
            marks.has_node(n),
            range,
            compact,
        );
        out.push_str("];\n");
    });
    if compact {
        // Consecutive versions, left to right.
        let mut versioned = ch.nodes.iter().filter(|n| g.node(**n).version.is_some());
        if let Some(mut prev) = versioned.next() {
            for n in versioned {
                out.push_str("      ");
                push_node_id(out, &prefix, prev.index());
                out.push_str(" -> ");
                push_node_id(out, &prefix, n.index());
                out.push_str(" [style=invis];\n");
                prev = n;
                flush(out);
            }
        }
    }
    emit_lines(out, flush, shown, |out, scratch, &e| {
        let Some((a, b)) = g.graph().edge_endpoints(e) else {
            return;
        };
        let edge = g.edge(e);
        let highlighted = marks.has_edge(a, b, edge.kind);
        out.push_str("      ");
        push_node_id(out, &prefix, a.index());
        out.push_str(" -> ");
        push_node_id(out, &prefix, b.index());
        out.push_str(" [");
        if compact && g.node(a).version.is_some() && g.node(b).version.is_some() {
            // The invisible chain of versions places both ends; an edge that
            // also ranked them would make Graphviz lay out every rank it
            // spans (half a minute for a channel of 80 versions).
            out.push_str("constraint=false, ");
        }
        write_edge_attrs(out, scratch, edge, highlighted, dense, compact);
        out.push_str("];\n");
    });
    let mut scratch = String::new();
    for st in ch.steps_from_outside() {
        let _ = write!(
            out,
            "      {} -> {} [",
            start_id(p, c),
            node_id(p, c, st.to)
        );
        write_edge_attrs(out, &mut scratch, &st.edge, true, dense, compact);
        out.push_str("];\n");
    }
    out.push_str("    }\n");
}

/// Append `line`'s text for each of `items` to `out`, in order, calling
/// `flush` after each piece. Long lists (the nodes and edges of a long
/// channel) are written in parallel pieces, a bounded number at a time, into
/// buffers kept from one window to the next (so that, after the first, they
/// neither grow nor touch new memory).
fn emit_lines<T: Sync>(
    out: &mut String,
    flush: &mut dyn FnMut(&mut String),
    items: &[T],
    line: impl Fn(&mut String, &mut String, &T) + Sync,
) {
    /// Items written by one worker in one piece.
    const PIECE_ITEMS: usize = 2048;
    if items.len() <= PIECE_ITEMS {
        let mut scratch = String::new();
        for item in items {
            line(out, &mut scratch, item);
            flush(out);
        }
        return;
    }
    let window = PIECE_ITEMS * 4 * rayon::current_num_threads().max(1);
    // Per piece of a window: its text and the line's scratch space.
    let mut buffers: Vec<(String, String)> = Vec::new();
    for batch in items.chunks(window) {
        let pieces = batch.len().div_ceil(PIECE_ITEMS);
        if buffers.len() < pieces {
            buffers.resize_with(pieces, Default::default);
        }
        batch
            .par_chunks(PIECE_ITEMS)
            .zip(buffers[..pieces].par_iter_mut())
            .for_each(|(chunk, (text, scratch))| {
                text.clear();
                for item in chunk {
                    line(text, scratch, item);
                }
            });
        for (text, _) in &mut buffers[..pieces] {
            if out.is_empty() {
                // No copy: the piece becomes the output, and its buffer
                // takes the output's (empty) one for the next window.
                std::mem::swap(out, text);
            } else {
                out.push_str(text);
            }
            flush(out);
        }
    }
}

/// The drawing as a DOT digraph.
pub fn to_string(drawing: &Drawing<'_>) -> String {
    let mut out = String::new();
    emit(drawing, &mut out, &mut |_| {});
    out
}

/// Write the drawing as DOT to `w`, a piece at a time.
pub fn write(drawing: &Drawing<'_>, w: &mut impl Write) -> io::Result<()> {
    /// Text is handed to `w` in pieces of about this size.
    const PIECE: usize = 1 << 16;
    let mut failed: Option<io::Error> = None;
    let mut out = String::with_capacity(PIECE * 2);
    let mut flush = |out: &mut String| {
        if out.len() >= PIECE {
            if failed.is_none() {
                failed = w.write_all(out.as_bytes()).err();
            }
            out.clear();
        }
    };
    emit(drawing, &mut out, &mut flush);
    match failed {
        Some(e) => Err(e),
        None => w.write_all(out.as_bytes()),
    }
}

/// Build the DOT text in `out`, calling `flush` whenever a line is complete
/// (it may take the text so far).
fn emit(drawing: &Drawing<'_>, out: &mut String, flush: &mut dyn FnMut(&mut String)) {
    let compact = drawing.view != EdgeView::All;
    out.push_str("digraph upgrades {\n");
    let note = drawing.folded_note();
    if let Some(n) = &note {
        let _ = writeln!(out, "  // {n}");
    }
    if compact {
        out.push_str("  graph [rankdir=LR, fontname=\"Helvetica\", fontsize=11, nodesep=0.15, ranksep=0.2];\n");
        out.push_str("  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10, width=0.4, height=0.3, margin=\"0.05,0.03\"];\n");
    } else {
        out.push_str("  graph [rankdir=LR, fontname=\"Helvetica\", fontsize=11, nodesep=0.25, ranksep=0.6];\n");
        out.push_str("  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10];\n");
    }
    let _ = writeln!(
        out,
        "  edge [style=solid, color=\"{REPLACES_COLOR}\", fontcolor=\"{REPLACES_COLOR}\", fontname=\"Helvetica\", fontsize=8, arrowsize=0.7];"
    );
    for (p, pkg) in drawing.packages.iter().enumerate() {
        let package = pkg.package;
        let _ = writeln!(out, "  subgraph cluster_{p} {{");
        let mut label = format!("package {}", package.name);
        if !package.default_channel.is_empty() {
            let _ = write!(label, "\ndefault channel: {}", package.default_channel);
        }
        let _ = writeln!(out, "    label={};", quote(&label));
        match pkg.deprecation() {
            Some(m) => {
                let _ = writeln!(
                    out,
                    "    style=\"rounded,filled\"; fillcolor=\"{DEPRECATED_PACKAGE_FILL}\"; tooltip={};",
                    quote(&format!("deprecated: {}", m.trim_end()))
                );
            }
            None => out.push_str("    style=rounded;\n"),
        }
        for (c, ch) in pkg.channels.iter().enumerate() {
            write_channel(out, flush, p, c, ch, compact);
        }
        out.push_str("  }\n");
    }
    if drawing.legend {
        write_legend(out);
    }
    if let Some(n) = &note {
        // After the clusters, so that none inherits it.
        let _ = writeln!(out, "  label={};", quote(n));
        out.push_str("  labelloc=b; labeljust=l;\n");
    }
    out.push_str("}\n");
}

/// The legend: a cluster with a row of node styles and a row of edge kinds,
/// drawn with the attributes the drawing uses.
fn write_legend(out: &mut String) {
    out.push_str("  subgraph cluster_legend {\n");
    out.push_str("    label=\"legend\"; style=\"rounded,dashed\"; color=\"#999999\";\n");
    let nodes: [(&str, String); 8] = [
        ("head", "peripheries=2".to_owned()),
        (
            "skipped by an entry\\n(never offered)",
            format!("fontcolor=\"{SKIPPED_FONT}\""),
        ),
        (
            "not an entry\\nof the channel",
            "style=\"rounded,dashed\"".to_owned(),
        ),
        (
            "deprecated",
            format!("style=\"rounded,filled\", fillcolor=\"{DEPRECATED_FILL}\""),
        ),
        (
            "olm.deprecated\\n(not installable)",
            format!("style=\"rounded,filled\", fillcolor=\"{LEGACY_DEPRECATED_FILL}\""),
        ),
        (
            "on the highlighted\\nOLM v0 path",
            format!("color=\"{HIGHLIGHT}\", penwidth=3"),
        ),
        (
            "deprecated channel\\n(its box)",
            format!("style=\"rounded,filled\", fillcolor=\"{DEPRECATED_CHANNEL_FILL}\""),
        ),
        (
            "deprecated package\\n(its box)",
            format!("style=\"rounded,filled\", fillcolor=\"{DEPRECATED_PACKAGE_FILL}\""),
        ),
    ];
    for (i, (label, attrs)) in nodes.iter().enumerate() {
        let _ = writeln!(out, "    legend_n{i} [label=\"{label}\", {attrs}];");
    }
    for i in 1..nodes.len() {
        let _ = writeln!(out, "    legend_n{} -> legend_n{i} [style=invis];", i - 1);
    }
    out.push_str("    node [shape=point, width=0.05, label=\"\"];\n");
    let edges = [
        EdgeKind::Replaces.as_str(),
        EdgeKind::Skips.as_str(),
        EdgeKind::SkipRange.as_str(),
        "OLM v0 path",
    ];
    for (i, label) in edges.iter().enumerate() {
        let attrs = match i {
            0 => String::new(),
            1 | 2 => {
                let kind = if i == 1 {
                    EdgeKind::Skips
                } else {
                    EdgeKind::SkipRange
                };
                let (style, color) = kind_style(kind);
                format!(", style={style}, color=\"{color}\", fontcolor=\"{color}\"")
            }
            _ => format!(", color=\"{HIGHLIGHT}\", fontcolor=\"{HIGHLIGHT}\", penwidth=3"),
        };
        let _ = writeln!(
            out,
            "    legend_e{i} -> legend_e{} [xlabel=\"{label}\"{attrs}];",
            i + 1
        );
    }
    out.push_str("  }\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::style::{DEPRECATED_FILL, LEGACY_DEPRECATED_FILL};
    use crate::export::DrawOptions;
    use crate::upgrade::fixture::package_with;
    use olmsat_catalog::model::{Deprecations, Model};

    #[test]
    fn quoting_renders_any_name_literally() {
        assert_eq!(quote("plain"), "\"plain\"");
        assert_eq!(quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(quote("x\ny\r\nz"), "\"x\\ny\\nz\"");
        assert_eq!(quote("<>{}|"), "\"<>{}|\"");
        assert_eq!(quote("\\N\\G"), "\"\\\\N\\\\G\"");
        assert_eq!(quote("a\u{1}b"), "\"a\\\\u{1}b\"");
        assert_eq!(quote("\u{85}é\u{a7}\r"), "\"\\\\u{85}é\u{a7}\\n\"");
    }

    /// The quoting as first written, a character at a time.
    fn quote_by_chars(s: &str) -> String {
        let mut out = String::from("\"");
        let mut chars = s.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\r' if chars.peek() == Some(&'\n') => {}
                '\n' | '\r' => out.push_str("\\n"),
                c if c.is_control() => {
                    let _ = write!(out, "\\\\u{{{:x}}}", u32::from(c));
                }
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }

    #[test]
    fn versions_are_written_as_displayed() {
        for v in [
            "0.0.0",
            "1.2.3",
            "10.20.30-rc.1",
            "1.0.0+build.5",
            "1.2.3-alpha.beta+x.y",
        ] {
            let Ok(v) = semver::Version::parse(v) else {
                panic!("valid version {v}");
            };
            let mut out = String::new();
            push_version(&mut out, &v);
            assert_eq!(out, v.to_string());
        }
    }

    proptest::proptest! {
        #[test]
        fn quoting_by_runs_agrees_with_quoting_by_characters(
            s in r#"(\PC|["\\\r\n\x00-\x1f\x7f-\xa0]){0,40}"#
        ) {
            proptest::prop_assert_eq!(quote(&s), quote_by_chars(&s));
        }
    }

    #[test]
    fn styles_heads_externals_deprecations_and_paths() {
        let mut d = Deprecations::default();
        d.bundles.insert("a".into(), "old\n".into());
        d.channels.insert("stable".into(), "gone".into());
        let m = Model::new(vec![package_with(
            &[
                "a@1.0.0<pruned",
                "^b@1.1.0<a",
                "c@1.2.0<b|w\"e\\{x}|<y>;<1.2.0",
            ],
            d,
        )]);
        let opts = DrawOptions {
            channel: Some("stable"),
            highlight_from: Some("1.0.5"),
            ..DrawOptions::default()
        };
        let Ok(drawing) = super::super::Drawing::new(&m, &opts) else {
            panic!("drawing failed");
        };
        let dot = to_string(&drawing);
        assert!(dot.contains("label=\"pruned\\n(not in the catalog)\", style=\"rounded,dashed\""));
        assert!(dot.contains(&format!("fillcolor=\"{DEPRECATED_FILL}\"")));
        assert!(dot.contains(&format!("fillcolor=\"{LEGACY_DEPRECATED_FILL}\"")));
        assert!(dot.contains(&format!("fillcolor=\"{DEPRECATED_CHANNEL_FILL}\"")));
        assert!(dot.contains("peripheries=2"));
        assert!(dot.contains("label=\"w\\\"e\\\\{x}|<y>\\n(not in the catalog)\""));
        assert!(dot.contains("label=\"skipRange\\n<1.2.0\", style=dotted"));
        assert!(dot.contains("tooltip=\"replaces declared at stable.yaml:2\""));
        // The pruned start 1.0.5 gets its own node and a red edge to c.
        assert!(dot.contains("n0_0_start [label=\"installed 1.0.5\\n(not in the catalog)\""));
        assert!(dot.contains(&format!("n0_0_start -> n0_0_2 [label=\"skipRange\\n<1.2.0\", style=dotted, color=\"{HIGHLIGHT}\"")));
        assert_eq!(dot, to_string(&drawing), "deterministic");
    }
}
