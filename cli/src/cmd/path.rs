//! `olmsat path`

use std::path::Path;

use olmsat_graph::export::json::PathStep;
use olmsat_graph::suggest;
use olmsat_graph::upgrade::{
    select_channel, ChannelGraph, NodeIndex, OlmEnd, Start, StartError, StartMatch, Step,
};
use serde::Serialize;

use crate::output::{print_json, Exit};
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
    let Some(model) = crate::output::load_model(req.path, Some(req.package))? else {
        return Ok(Exit::Invalid);
    };
    let (package, channel) = match select_channel(&model, req.package, req.channel) {
        Ok(pc) => pc,
        Err(e) => {
            eprintln!("olmsat: {e}");
            return Ok(Exit::Invalid);
        }
    };
    let g = match crate::output::timed("graph", || ChannelGraph::build(package, channel).complete())
    {
        Ok(g) => g,
        Err(e) => {
            eprintln!("olmsat: {e}");
            return Ok(Exit::Invalid);
        }
    };
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
    let notes = notes(&g);
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
    let view = View {
        g: &g,
        from_words: describe_start(&g, &start),
        start,
        target,
        explicit_target: req.to.is_some(),
        text,
    };
    let mut json = JsonPath {
        package: &package.name,
        channel: &channel.name,
        from: view.start.label(),
        to: target.map(|t| g.node(t).name),
        steps: None,
        paths: None,
        reaches_head: false,
    };
    let reached = match (req.mode, target) {
        (Mode::Olm, _) => view.olm(&mut json),
        (Mode::Shortest, Some(t)) => view.shortest(t, &mut json),
        (Mode::All(limit), Some(t)) => view.all(t, limit, &mut json),
        (_, None) => {
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
        }
    };
    if !text {
        print_json(&json)?;
    }
    crate::output::release_at_exit(g);
    crate::output::release_at_exit(model);
    Ok(if reached { Exit::Ok } else { Exit::Invalid })
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// One path question about one channel, printed as text or filled into JSON.
struct View<'g, 'm> {
    g: &'g ChannelGraph<'m>,
    start: Start,
    from_words: String,
    target: Option<NodeIndex>,
    explicit_target: bool,
    text: bool,
}

impl View<'_, '_> {
    fn target_words(&self) -> String {
        match (self.target, self.g.head()) {
            (Some(t), Some(h)) if t == h => format!("the head {}", self.g.node(t).name),
            (Some(t), _) => self.g.node(t).name.to_owned(),
            (None, _) => "the head".to_owned(),
        }
    }

    fn print_steps(&self, steps: &[Step<'_>], indent: &str) {
        use std::io::Write as _;
        // One write for many lines: a path can have tens of thousands of steps.
        let mut text = String::new();
        for st in steps {
            text.push_str(indent);
            text.push_str(&step_line(self.g, &self.start, st));
            text.push('\n');
        }
        let mut out = std::io::stdout().lock();
        if out
            .write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            // Standard output is gone (a closed pipe): nothing more to say.
        }
    }

    /// The OLM v0 walk; whether it reached the target.
    fn olm(&self, json: &mut JsonPath<'_>) -> bool {
        let g = self.g;
        let path = match (self.explicit_target, self.target) {
            (true, Some(t)) => g.olm_path_to(&self.start, t),
            _ => g.olm_path(&self.start),
        };
        let reached = match path.end {
            OlmEnd::Target => true,
            OlmEnd::Head => self.target == g.head(),
            _ => false,
        };
        if self.text {
            println!(
                "OLM v0 path from {} to {}, one step per resolution:",
                self.from_words,
                self.target_words()
            );
            self.print_steps(&path.steps, "");
            let summary = path.summary(g);
            match (reached, path.end, self.target) {
                (false, OlmEnd::Head, Some(t)) => {
                    println!("does not pass {}; {summary}", g.node(t).name)
                }
                _ => println!("{summary}"),
            }
            if path.end == OlmEnd::DeadEnd {
                self.explain_dead_end(path.steps.last().map(|st| st.to));
            }
        }
        json.steps = Some(PathStep::all(g, &self.start, &path.steps));
        json.reaches_head = path.reaches_head();
        reached
    }

    /// Why nothing is offered from `at` (the start when `None`).
    fn explain_dead_end(&self, at: Option<NodeIndex>) {
        let g = self.g;
        let stuck = match at {
            Some(n) => Start::node(g, n),
            None => self.start.clone(),
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

    /// A shortest path over every edge; whether there is one.
    fn shortest(&self, t: NodeIndex, json: &mut JsonPath<'_>) -> bool {
        let path = self.g.shortest_path(&self.start, t);
        if self.text {
            println!(
                "shortest path over every edge from {} to {}:",
                self.from_words,
                self.target_words()
            );
            match &path {
                Some(p) if p.is_empty() => println!("already there"),
                Some(p) => {
                    self.print_steps(p, "");
                    println!(
                        "reaches {} in {}",
                        self.target_words(),
                        plural(p.len(), "step")
                    );
                }
                None => println!("no path"),
            }
        }
        json.reaches_head = Some(t) == self.g.head() && path.is_some();
        json.steps = Some(
            path.as_deref()
                .map(|p| PathStep::all(self.g, &self.start, p))
                .unwrap_or_default(),
        );
        path.is_some()
    }

    /// All simple paths over every edge; whether there is one.
    fn all(&self, t: NodeIndex, limit: usize, json: &mut JsonPath<'_>) -> bool {
        let all = self.g.all_paths(&self.start, t, limit);
        if self.text {
            println!(
                "all paths over every edge from {} to {} (at most {limit}):",
                self.from_words,
                self.target_words()
            );
            for (i, p) in all.paths.iter().enumerate() {
                println!("path {} ({}):", i + 1, plural(p.len(), "step"));
                self.print_steps(p, "  ");
            }
            match (all.paths.len(), all.complete) {
                (0, _) => println!("no path"),
                (n, true) => println!("{}", plural(n, "path")),
                (n, false) => println!("{n} paths shown; there may be more (raise --limit)"),
            }
        }
        json.reaches_head = Some(t) == self.g.head() && !all.paths.is_empty();
        json.paths = Some(
            all.paths
                .iter()
                .map(|p| PathStep::all(self.g, &self.start, p))
                .collect(),
        );
        !all.paths.is_empty()
    }
}
