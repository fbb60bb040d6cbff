//! A drawing split into one file per package (or per package and channel),
//! with an index page: the file names and the index's text.
//!
//! - A file is named after its package, `<package>.<ext>`, or
//!   `<package>.<channel>.<ext>` per channel. Characters outside ASCII
//!   letters, digits, `.`, `_` and `-` become `_`, a leading `.` gets a `_`
//!   before it, and names that would clash (ignoring case, for file systems
//!   that do) get `-2`, `-3`, ... in drawing order. A name longer than
//!   [`olmsat_io::MAX_NAME_BYTES`] is cut, with a hash of the whole name
//!   after the cut (see [`olmsat_io::file_name`]): the same package always
//!   gets the same file.
//! - The index lists every file with its package, channel, and how many
//!   nodes, edges drawn and edges folded it has: `index.html` (links to
//!   pictures or pages) for SVG and HTML, `index.md` otherwise.
//!
//! [`crate::draw::write_dir`] writes them all.

use std::collections::HashSet;
use std::fmt::Write as _;

use super::drawing::DrawingPart;
use super::html::escape as html;

/// One file of a split drawing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitFile {
    /// The file name (no directory).
    pub name: String,
    /// The package drawn.
    pub package: String,
    /// The channel drawn, when split by channel.
    pub channel: Option<String>,
    /// Nodes drawn.
    pub nodes: usize,
    /// Edges drawn.
    pub edges: usize,
    /// Edges folded.
    pub folded: usize,
}

/// `name` made safe as (part of) a file name.
pub fn safe_name(name: &str) -> String {
    olmsat_io::file_name(name, "")
}

/// The files of `parts`, each with extension `ext`, named uniquely.
pub fn plan(parts: &[DrawingPart<'_>], ext: &str) -> Vec<SplitFile> {
    let mut taken: HashSet<String> = HashSet::new();
    parts
        .iter()
        .map(|part| {
            let stem = match part.channel {
                Some(c) => format!("{}.{}", safe_name(part.package), safe_name(c)),
                None => safe_name(part.package),
            };
            let mut name = olmsat_io::file_name(&stem, ext);
            let mut n = 1;
            while !taken.insert(name.to_ascii_lowercase()) {
                n += 1;
                name = olmsat_io::file_name(&format!("{stem}-{n}"), ext);
            }
            let channels = || part.drawing.channels().map(|(_, c)| c);
            SplitFile {
                name,
                package: part.package.to_owned(),
                channel: part.channel.map(str::to_owned),
                nodes: channels().map(|c| c.nodes.len()).sum(),
                edges: channels().map(|c| c.shown_edges().len()).sum(),
                folded: channels().map(|c| c.folded).sum(),
            }
        })
        .collect()
}

/// The name of the index page: `index.html` for SVG pictures and HTML pages,
/// else `index.md`.
pub fn index_name(ext: &str) -> &'static str {
    if ext == "svg" || ext == "html" {
        "index.html"
    } else {
        "index.md"
    }
}

/// The index page for `files` (named [`index_name`]`(ext)`).
pub fn index(files: &[SplitFile], ext: &str) -> String {
    if ext == "svg" || ext == "html" {
        index_html(files)
    } else {
        index_markdown(files)
    }
}

fn what(f: &SplitFile) -> String {
    match &f.channel {
        Some(c) => format!("{}, channel {c}", f.package),
        None => f.package.clone(),
    }
}

fn counts(f: &SplitFile) -> String {
    let mut s = format!("{} nodes, {} edges", f.nodes, f.edges);
    if f.folded > 0 {
        let _ = write!(s, " ({} folded)", f.folded);
    }
    s
}

fn index_html(files: &[SplitFile]) -> String {
    let mut out = String::from(
        "<!DOCTYPE html>\n<html>\n<head><meta charset=\"utf-8\"><title>Upgrade graphs</title></head>\n<body>\n<h1>Upgrade graphs</h1>\n<ul>\n",
    );
    for f in files {
        let _ = writeln!(
            out,
            "<li><a href=\"{}\">{}</a>: {}</li>",
            html(&f.name),
            html(&what(f)),
            counts(f)
        );
    }
    out.push_str("</ul>\n</body>\n</html>\n");
    out
}

/// Escape `s` for Markdown link text.
fn markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | '[' | ']' | '*' | '_' | '`' | '<' | '>') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn index_markdown(files: &[SplitFile]) -> String {
    let mut out = String::from("# Upgrade graphs\n\n");
    for f in files {
        let _ = writeln!(out, "- [{}]({}): {}", markdown(&what(f)), f.name, counts(f));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{DrawOptions, Drawing, EdgeView};
    use crate::upgrade::fixture::package;
    use olmsat_catalog::model::Model;

    #[test]
    fn safe_names() {
        assert_eq!(safe_name("etcd"), "etcd");
        assert_eq!(safe_name("a/b c"), "a_b_c");
        assert_eq!(safe_name(".."), "_..");
        assert_eq!(safe_name(""), "_");
        assert_eq!(safe_name("stable-v1.2"), "stable-v1.2");
    }

    fn d2<'m>(m: &'m Model, opts: &DrawOptions<'_>) -> Vec<DrawingPart<'m>> {
        Drawing::new(m, opts)
            .map(|d| d.split(false))
            .unwrap_or_default()
    }

    #[test]
    fn files_and_index() {
        let m = Model::new(vec![package(&[
            "a@1.0.0",
            "b@1.1.0<a;<1.1.0",
            "c@1.2.0<b;<1.2.0",
            "!o@0.1.0",
        ])]);
        let opts = DrawOptions {
            edges: EdgeView::Folded,
            ..DrawOptions::default()
        };
        let Ok(d) = Drawing::new(&m, &opts) else {
            panic!("drawing failed");
        };
        let parts = d.split(true);
        let files = plan(&parts, "dot");
        let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, vec!["p.other.dot", "p.stable.dot"]);
        assert_eq!(index_name("dot"), "index.md");
        assert_eq!(
            index(&files, "dot"),
            "# Upgrade graphs\n\n- [p, channel other](p.other.dot): 1 nodes, 0 edges\n- [p, channel stable](p.stable.dot): 3 nodes, 3 edges (2 folded)\n"
        );
        assert_eq!(index_name("svg"), "index.html");
        assert!(index(&files, "svg")
            .contains("<li><a href=\"p.stable.dot\">p, channel stable</a>: 3 nodes, 3 edges (2 folded)</li>\n"));
        // Clashing names are numbered.
        let mut parts = d2(&m, &opts);
        parts.extend(d2(&m, &opts));
        let names: Vec<String> = plan(&parts, "svg").into_iter().map(|f| f.name).collect();
        assert_eq!(names, vec!["p.svg", "p-2.svg"]);
        assert_eq!(html("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
    }
}
