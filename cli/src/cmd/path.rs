//! `olmsat path`

use olmsat_graph::{
    target_node, Catalog, ChannelGraph, NodeIndex, OlmEnd, PathStep, Start, StartMatch, Step,
};
use serde::Serialize;

use crate::args::{OlmVersion, PathArgs, PathMode as Mode, ReportFormat};
use crate::output::{print_data, Exit};
use crate::process::Finished;
use crate::timings::timed;

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
pub fn run(args: &PathArgs) -> super::Outcome {
    if args.olm == OlmVersion::V1 {
        if args.shortest || args.all {
            eprintln!("olmsat: --shortest and --all are graph paths of OLM v0's channel graph: drop them with --olm v1");
            return Ok(Exit::Usage.into());
        }
        return super::v1::path(&super::v1::PathRequest {
            path: &args.path,
            package: &args.package,
            channel: args.channel.as_deref(),
            from: &args.from,
            to: args.to.as_deref(),
            version: args.version.as_deref(),
            format: args.output,
        })
        .map(Finished::new);
    }
    if args.version.is_some() {
        eprintln!("olmsat: --version bounds OLM v1 paths only: add --olm v1");
        return Ok(Exit::Usage.into());
    }
    let Some(catalog) = super::open_catalog(&args.path, Some(&args.package))? else {
        return Ok(Exit::Invalid.into());
    };
    let exit = show(&catalog, args)?;
    Ok(Finished::new(exit).keeping(catalog))
}

/// Answer the question about `catalog`; the channel graph (a few large
/// vectors) is freed on return.
fn show(catalog: &Catalog, args: &PathArgs) -> Result<Exit, Box<dyn std::error::Error>> {
    let g = match timed("graph", || {
        catalog.channel_graph(&args.package, args.channel.as_deref())
    }) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("olmsat: {e}");
            return Ok(Exit::Invalid);
        }
    };
    let (package, channel) = (g.package(), g.channel());
    let start = match g.resolve_start(&args.from) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("olmsat: {e}");
            return Ok(Exit::Invalid);
        }
    };
    let target = match args.to.as_deref() {
        Some(name) => match target_node(&g, name) {
            Ok(n) => Some(n),
            Err(e) => {
                eprintln!("olmsat: --to: {e}");
                return Ok(Exit::Invalid);
            }
        },
        None => g.head(),
    };
    let notes = notes(&g);
    let text = args.output == ReportFormat::Text;
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
        explicit_target: args.to.is_some(),
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
    let reached = match (args.mode(), target) {
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
        print_data(args.output, &json)?;
    }
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
