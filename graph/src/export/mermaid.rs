//! Mermaid flowcharts in the style of `opm alpha render-graph`.
//!
//! `graph LR`, three `classDef` lines, a subgraph per package and one per
//! channel (id `pkg-channel`), nodes with id `pkg-channel-bundle` listed by
//! decreasing version, edges from older to newer labelled `replace`, `skip` and
//! `"skipRange(<range>)"` (per entry: skips, then skipRange edges from every
//! entry whose version the range contains, then replaces), and deprecations
//! styled (`style` for packages and channels, the `deprecated` class for
//! bundles).
//!
//! For names made of letters, digits, `.` and `-` the output is opm's. Other
//! characters are encoded in ids (`_` and two hex digits per byte, also for the
//! second `-` of `--`), and written as Mermaid entity codes in labels (`#quot;`,
//! `#35;`, ...), so the text stays valid whatever the names.
//!
//! A highlighted OLM path is drawn with `style` lines for its nodes and a
//! `linkStyle` line for its edges.

use std::fmt::Write as _;
use std::io::{self, Write};

use petgraph::graph::NodeIndex;

use super::drawing::{Drawing, DrawnChannel};
use super::style::{DEPRECATED_CHANNEL_FILL, DEPRECATED_FILL, HIGHLIGHT};
use crate::upgrade::{EdgeKind, Presence};
use olmsat_versions::version::go_quote;

/// Fill of a deprecated package's subgraph (opm's).
pub const DEPRECATED_PACKAGE_FILL: &str = "#989695";

/// `text` as a Mermaid id: letters, digits and `.` kept, `-` kept unless it
/// follows another `-`, every other byte written as `_` and two hex digits.
pub fn id(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut prev_dash = false;
    for b in text.bytes() {
        let keep = b.is_ascii_alphanumeric() || b == b'.' || (b == b'-' && !prev_dash);
        if keep {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "_{b:02x}");
        }
        prev_dash = b == b'-' && keep;
    }
    out
}

fn entity(out: &mut String, c: char) {
    let _ = write!(out, "#{};", u32::from(c));
}

/// `text` for a quoted Mermaid label: `"`, `#`, `<`, `>` and control
/// characters as entity codes.
pub fn label(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '#' | '<' | '>' => entity(&mut out, c),
            c if c.is_control() => entity(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

/// Like [`label`], but `<` and `>` kept (for ranges, as opm writes them).
fn range_label(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '#' => entity(&mut out, c),
            c if c.is_control() => entity(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

/// Style of the highlighted path's nodes and edges.
fn highlight_style() -> String {
    format!("stroke:{HIGHLIGHT},stroke-width:4px")
}

struct Writer {
    body: String,
    links: usize,
    path_links: Vec<usize>,
    path_nodes: Vec<String>,
    deprecated: Vec<String>,
    styles: Vec<String>,
}

fn kind_rank(kind: EdgeKind) -> u8 {
    match kind {
        EdgeKind::Skips => 0,
        EdgeKind::SkipRange => 1,
        EdgeKind::Replaces => 2,
    }
}

impl Writer {
    fn channel(&mut self, package: &str, ch: &DrawnChannel<'_>) {
        let g = &ch.graph;
        let channel = g.channel();
        let channel_id = id(&format!("{package}-{}", channel.name));
        let node_id = |n: NodeIndex| id(&format!("{package}-{}-{}", channel.name, g.node(n).name));
        let node_ref = |n: NodeIndex| format!("{}[\"{}\"]", node_id(n), label(g.node(n).name));
        let _ = writeln!(self.body, "    %% channel {}", go_quote(&channel.name));
        let _ = writeln!(
            self.body,
            "    subgraph {channel_id}[\"{}\"]",
            label(&channel.name)
        );
        if ch.deprecation().is_some() {
            self.styles
                .push(format!("style {channel_id} fill:{DEPRECATED_CHANNEL_FILL}"));
        }
        let mut drawn_edges = vec![false; g.graph().edge_count()];
        for e in &ch.edges {
            drawn_edges[e.index()] = true;
        }
        let marks = ch.path_marks();
        self.path_nodes.extend(
            ch.nodes
                .iter()
                .copied()
                .filter(|n| marks.has_node(*n))
                .map(node_id),
        );
        for n in ch.nodes_by_decreasing_version() {
            let node = g.node(n);
            if !matches!(node.presence, Presence::Entry(_)) {
                continue;
            }
            let _ = writeln!(self.body, "      {}", node_ref(n));
            if node.is_deprecated() {
                self.deprecated.push(node_id(n));
            }
            let mut incoming: Vec<_> = g
                .incoming(n)
                .into_iter()
                .filter(|(e, _)| drawn_edges[e.index()])
                .collect();
            incoming.sort_by_key(|(e, _)| (kind_rank(g.edge(*e).kind), *e));
            for (e, from) in incoming {
                let edge = g.edge(e);
                let text = match (edge.kind, edge.range()) {
                    (EdgeKind::Replaces, _) => "replace".to_owned(),
                    (EdgeKind::Skips, _) => "skip".to_owned(),
                    (EdgeKind::SkipRange, r) => {
                        format!("\"skipRange({})\"", range_label(r.unwrap_or_default()))
                    }
                };
                let _ = writeln!(
                    self.body,
                    "      {}-- {text} --> {}",
                    node_ref(from),
                    node_ref(n)
                );
                if marks.has_edge(from, n, edge.kind) {
                    self.path_links.push(self.links);
                }
                self.links += 1;
            }
        }
        self.body.push_str("    end\n");
    }
}

/// The drawing as Mermaid text.
pub fn to_string(drawing: &Drawing<'_>) -> String {
    let mut w = Writer {
        body: String::new(),
        links: 0,
        path_links: Vec::new(),
        path_nodes: Vec::new(),
        deprecated: Vec::new(),
        styles: Vec::new(),
    };
    let mut package_styles = Vec::new();
    for pkg in &drawing.packages {
        let name = &pkg.package.name;
        let pid = id(name);
        let _ = writeln!(w.body, "  %% package {}", go_quote(name));
        if pid == *name && !name.is_empty() {
            let _ = writeln!(w.body, "  subgraph \"{name}\"");
        } else {
            let _ = writeln!(w.body, "  subgraph {pid}[\"{}\"]", label(name));
        }
        if pkg.deprecation().is_some() {
            package_styles.push(format!("style {pid} fill:{DEPRECATED_PACKAGE_FILL}"));
        }
        for ch in &pkg.channels {
            w.channel(name, ch);
        }
        w.body.push_str("  end\n");
    }
    let mut out = String::with_capacity(w.body.len() + 512);
    out.push_str("graph LR\n");
    let _ = writeln!(out, "  classDef deprecated fill:{DEPRECATED_FILL}");
    out.push_str("  classDef skipped stroke:#FF0000,stroke-width:4px\n");
    out.push_str("  classDef deprecatedskipped fill:#E8960F,stroke:#FF0000,stroke-width:4px\n");
    out.push_str(&w.body);
    for s in package_styles.iter().chain(&w.styles) {
        out.push_str(s);
        out.push('\n');
    }
    if !w.deprecated.is_empty() {
        w.deprecated.sort();
        w.deprecated.dedup();
        let _ = writeln!(out, "class {} deprecated", w.deprecated.join(","));
    }
    w.path_nodes.sort();
    w.path_nodes.dedup();
    for n in &w.path_nodes {
        let _ = writeln!(out, "style {n} {}", highlight_style());
    }
    if !w.path_links.is_empty() {
        let links: Vec<String> = w.path_links.iter().map(ToString::to_string).collect();
        let _ = writeln!(out, "linkStyle {} {}", links.join(","), highlight_style());
    }
    out
}

/// Write the drawing as Mermaid to `w`.
pub fn write(drawing: &Drawing<'_>, w: &mut impl Write) -> io::Result<()> {
    w.write_all(to_string(drawing).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{DrawOptions, Drawing};
    use crate::upgrade::fixture::package_with;
    use olmsat_catalog::model::{Deprecations, Model};

    #[test]
    fn ids_and_labels_are_escaped() {
        assert_eq!(id("etcd-stable-etcd.v0.9.4"), "etcd-stable-etcd.v0.9.4");
        assert_eq!(id("a b_c--d"), "a_20b_5fc-_2dd");
        assert_eq!(id("é"), "_c3_a9");
        assert_eq!(label("a\"b#c<d>\ne"), "a#quot;b#35;c#60;d#62;#10;e");
        assert_eq!(range_label(">=1.0.0 <1.2.0"), ">=1.0.0 <1.2.0");
    }

    #[test]
    fn opm_layout() {
        let mut d = Deprecations::default();
        d.bundles.insert("a".into(), "old".into());
        d.channels.insert("stable".into(), "old".into());
        d.package = Some("old".into());
        let m = Model::new(vec![package_with(
            &["a@1.0.0", "b@1.1.0<a", "c@1.2.0<b|a;>=1.0.0 <1.2.0"],
            d,
        )]);
        let opts = DrawOptions {
            highlight_from: Some("a"),
            ..DrawOptions::default()
        };
        let Ok(drawing) = Drawing::new(&m, &opts) else {
            panic!("drawing failed");
        };
        let expected = r#"graph LR
  classDef deprecated fill:#E8960F
  classDef skipped stroke:#FF0000,stroke-width:4px
  classDef deprecatedskipped fill:#E8960F,stroke:#FF0000,stroke-width:4px
  %% package "p"
  subgraph "p"
    %% channel "stable"
    subgraph p-stable["stable"]
      p-stable-c["c"]
      p-stable-a["a"]-- skip --> p-stable-c["c"]
      p-stable-a["a"]-- "skipRange(>=1.0.0 <1.2.0)" --> p-stable-c["c"]
      p-stable-b["b"]-- "skipRange(>=1.0.0 <1.2.0)" --> p-stable-c["c"]
      p-stable-b["b"]-- replace --> p-stable-c["c"]
      p-stable-b["b"]
      p-stable-a["a"]-- replace --> p-stable-b["b"]
      p-stable-a["a"]
    end
  end
style p fill:#989695
style p-stable fill:#DCD0FF
class p-stable-a deprecated
style p-stable-a stroke:#D62728,stroke-width:4px
style p-stable-c stroke:#D62728,stroke-width:4px
linkStyle 0 stroke:#D62728,stroke-width:4px
"#;
        assert_eq!(to_string(&drawing), expected);
    }
}
