//! The answer in one channel: OLM v0's walk, a shortest path or every path,
//! written as text and filled into JSON at once, with the reasons when the
//! target is not reached.

use std::fmt::Write as _;

use crate::channels::target_node;
use crate::channels::ChannelGraphs;
use crate::export::json::PathStep;
use crate::upgrade::{ChannelGraph, Edge, NodeIndex, OlmEnd, Start, StartMatch, Step};

use super::plan::{elsewhere, is_bundle, Ask};
use super::why::{self, JsonElsewhere, JsonWhy};
use super::{end_word, ChannelHeading, ChannelPath, JsonPath, PathError, PathFailure, PathMode};

fn step_line(g: &ChannelGraph<'_>, start: &Start, st: &Step<'_>) -> String {
    let from = st
        .from
        .map_or_else(|| start.label(), |f| g.node(f).name.to_owned());
    format!("{from} -> {}  {}", g.node(st.to).name, step_how(&st.edge))
}

/// How a step goes, as its line in `olmsat path` says after the two names:
/// `skipRange ">=1.0.0 <1.2.0" declared at catalog.yaml:12`.
pub(crate) fn step_how(edge: &Edge<'_>) -> String {
    let how = match edge.range() {
        Some(r) => format!("{} {r:?}", edge.kind),
        None => edge.kind.to_string(),
    };
    format!("{how} declared at {}", edge.location())
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

/// The answer in one channel (the default one when `None`).
pub(crate) fn answer(
    ask: &Ask<'_>,
    channel: Option<&str>,
) -> Result<ChannelPath, Box<PathFailure>> {
    let (catalog, query) = (ask.catalog, ask.query);
    let fail = |error: PathError| {
        Box::new(PathFailure {
            heading: None,
            error,
        })
    };
    let g = catalog
        .channel_graph(&query.package, channel)
        .map_err(|e| fail(e.into()))?;
    answer_in_graph(ask, &g)
}

/// The answer in the channel graph `g` (already built for the query's
/// package and channel).
pub(crate) fn answer_in_graph(
    ask: &Ask<'_>,
    g: &ChannelGraph<'_>,
) -> Result<ChannelPath, Box<PathFailure>> {
    let query = ask.query;
    let fail = |error: PathError| {
        Box::new(PathFailure {
            heading: None,
            error,
        })
    };
    let (package, channel) = (g.package(), g.channel());
    let start = ask.start(g).map_err(|e| fail(e.into()))?;
    let target = match query.to.as_deref() {
        Some(name) => match target_node(g, name) {
            Ok(n) => Some(n),
            Err(e) => match g.resolve_start(name) {
                Ok(Start { node: Some(n), .. }) => Some(n),
                _ => return Err(fail(PathError::Target(e))),
            },
        },
        None => g.head(),
    };
    let heading = ChannelHeading {
        package: package.name.clone(),
        channel: channel.name.clone(),
        notes: notes(g),
    };
    let mut view = View {
        g,
        from_words: ask.describe(g, &start),
        start,
        target,
        explicit_target: query.to.is_some(),
        out: String::new(),
        summary: String::new(),
        reasons: Vec::new(),
    };
    let mut json = JsonPath {
        package: package.name.clone(),
        channel: channel.name.clone(),
        from: view.start.label(),
        to: target.map(|t| g.node(t).name.to_owned()),
        steps: None,
        paths: None,
        reaches_head: false,
        end: "noPath",
        why: None,
    };
    let reached = match (query.mode, target) {
        (PathMode::Olm, _) => {
            let not_here = !matches!(
                view.start.matched,
                StartMatch::NodeName | StartMatch::NodeVersion
            );
            let others = if not_here {
                elsewhere(ask, &channel.name)
            } else {
                Vec::new()
            };
            view.olm(&mut json, others)
        }
        (PathMode::Shortest, Some(t)) => view.shortest(t, &mut json),
        (PathMode::All(limit), Some(t)) => view.all(t, limit, &mut json),
        (_, None) => {
            let why = g
                .chain()
                .error
                .as_ref()
                .map_or_else(|| "it is empty".to_owned(), ToString::to_string);
            return Err(Box::new(PathFailure {
                heading: Some(heading),
                error: PathError::NoHead {
                    channel: channel.name.clone(),
                    why,
                },
            }));
        }
    };
    Ok(ChannelPath {
        heading,
        body: view.out,
        summary: view.summary,
        reasons: view.reasons,
        json,
        reached,
    })
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// One path question about one channel, written as text and filled into
/// JSON.
struct View<'g, 'm> {
    g: &'g ChannelGraph<'m>,
    start: Start,
    from_words: String,
    target: Option<NodeIndex>,
    explicit_target: bool,
    /// The text answer.
    out: String,
    /// The line saying how the path ends.
    summary: String,
    /// The reason lines of the text, without their indentation.
    reasons: Vec<String>,
}

impl View<'_, '_> {
    fn line(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn target_words(&self) -> String {
        match (self.target, self.g.head()) {
            (Some(t), Some(h)) if t == h => format!("the head {}", self.g.node(t).name),
            (Some(t), _) => self.g.node(t).name.to_owned(),
            (None, _) => "the head".to_owned(),
        }
    }

    /// The JSON end of a graph path: `head` or `target` when found, else `noPath`.
    fn found_word(&self, found: bool) -> &'static str {
        match (found, self.target == self.g.head()) {
            (false, _) => "noPath",
            (true, true) => "head",
            (true, false) => "target",
        }
    }

    fn steps(&mut self, steps: &[Step<'_>], indent: &str) {
        for st in steps {
            let line = step_line(self.g, &self.start, st);
            let _ = writeln!(self.out, "{indent}{line}");
        }
    }

    /// Write reason lines, and keep them as reasons.
    fn say(&mut self, lines: &[String]) {
        for l in lines {
            self.line(l);
            self.reasons.push(l.trim_start().to_owned());
        }
    }

    /// Why the explicit target is out of reach over every edge; whether it is.
    fn explain_unreachable(&mut self, why: &mut JsonWhy) -> bool {
        match self.target {
            Some(t) => {
                let lines = why::unreachable(self.g, &self.start, t, why);
                self.say(&lines);
                !lines.is_empty()
            }
            None => false,
        }
    }

    /// The OLM v0 walk; whether it reached the target. `others`: the other
    /// channels holding a start that is not in this one.
    fn olm(&mut self, json: &mut JsonPath, others: Vec<JsonElsewhere>) -> bool {
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
        let newer = match (path.end, path.steps.is_empty()) {
            (OlmEnd::DeadEnd, true) => g.newer_than_head(&self.start),
            _ => None,
        };
        let mut why = JsonWhy::default();
        let mut end = end_word(path.end);
        let heading = format!(
            "OLM v0 path from {} to {}, one step per resolution:",
            self.from_words,
            self.target_words()
        );
        self.line(&heading);
        self.steps(&path.steps, "");
        let summary = path.summary(g);
        self.summary = match (reached, path.end, self.target) {
            (false, OlmEnd::Head, Some(t)) => {
                format!("does not pass {}; {summary}", g.node(t).name)
            }
            _ => summary,
        };
        let summary = self.summary.clone();
        self.line(&summary);
        if let (false, OlmEnd::Head) = (reached, path.end) {
            end = "missesTarget";
            if !self.explain_unreachable(&mut why) {
                why.passed_by = true;
                let line = format!(
                    "  {} can be reached over the graph (--shortest shows how), but OLM v0 passes it by: each time it takes the first candidate on the head's replaces chain",
                    self.target_words()
                );
                self.say(&[line]);
            }
        }
        if path.end == OlmEnd::DeadEnd {
            let at = match path.steps.last() {
                Some(st) => Start::node(g, st.to),
                None => self.start.clone(),
            };
            why.at = Some(at.label());
            if let (Some(hv), Some(v), Some(h)) = (newer, &self.start.version, g.head()) {
                end = "newerThanHead";
                why.newer_than_head = Some(hv.to_string());
                let line = format!(
                    "  {} ({v}) is newer than the head {} ({hv}): nothing in channel {} upgrades it",
                    self.start.label(),
                    g.node(h).name,
                    g.channel().name
                );
                self.say(&[line]);
            } else {
                if path.steps.is_empty() && !others.is_empty() {
                    let bundle = is_bundle(&self.start);
                    why.not_in_channel = bundle;
                    if bundle {
                        let line = format!(
                            "  {} is not in channel {}",
                            self.start.label(),
                            g.channel().name
                        );
                        self.say(&[line]);
                    }
                    // Where else to go: in the JSON as `otherChannels`.
                    let mut lines = Vec::new();
                    let where_ = if bundle {
                        "it is in"
                    } else {
                        "OLM v0 takes it in"
                    };
                    for o in &others {
                        let head = o.head.as_deref().unwrap_or("no single head");
                        let how = match o.end {
                            "head" => format!("OLM v0 reaches it in {}", plural(o.steps, "step")),
                            "deadEnd" => format!("OLM v0 stops after {}", plural(o.steps, "step")),
                            _ => format!("OLM v0 does not reach it ({})", o.end),
                        };
                        lines.push(format!(
                            "  {where_} channel {} (head {head}; {how}): add --channel {}",
                            o.channel, o.channel
                        ));
                    }
                    for l in &lines {
                        self.line(l);
                    }
                    why.other_channels = others;
                }
                let lines = why::stuck(g, &at, &mut why);
                self.say(&lines);
            }
            if self.explicit_target {
                self.explain_unreachable(&mut why);
            }
        }
        match path.end {
            OlmEnd::Loop(at) => why.loops_back_to = Some(g.node(at).name.to_owned()),
            OlmEnd::NoHead => {
                why.no_head = Some(g.chain().error.as_ref().map_or_else(
                    || "the channel has no entries".to_owned(),
                    ToString::to_string,
                ));
            }
            _ => {}
        }
        json.steps = Some(PathStep::all(g, &self.start, &path.steps));
        json.reaches_head = path.reaches_head();
        json.end = end;
        if !reached {
            json.why = Some(why);
        }
        reached
    }

    /// A shortest path over every edge; whether there is one.
    fn shortest(&mut self, t: NodeIndex, json: &mut JsonPath) -> bool {
        let path = self.g.shortest_path(&self.start, t);
        let heading = format!(
            "shortest path over every edge from {} to {}:",
            self.from_words,
            self.target_words()
        );
        self.line(&heading);
        match &path {
            Some(p) if p.is_empty() => self.line("already there"),
            Some(p) => {
                self.steps(p, "");
                let line = format!(
                    "reaches {} in {}",
                    self.target_words(),
                    plural(p.len(), "step")
                );
                self.line(&line);
            }
            None => self.line("no path"),
        }
        if path.is_none() {
            let mut why = JsonWhy::default();
            self.explain_unreachable(&mut why);
            json.why = Some(why);
        }
        json.end = self.found_word(path.is_some());
        json.reaches_head = Some(t) == self.g.head() && path.is_some();
        json.steps = Some(
            path.as_deref()
                .map(|p| PathStep::all(self.g, &self.start, p))
                .unwrap_or_default(),
        );
        path.is_some()
    }

    /// All simple paths over every edge; whether there is one.
    fn all(&mut self, t: NodeIndex, limit: usize, json: &mut JsonPath) -> bool {
        let all = self.g.all_paths(&self.start, t, limit);
        let heading = format!(
            "all paths over every edge from {} to {} (at most {limit}):",
            self.from_words,
            self.target_words()
        );
        self.line(&heading);
        for (i, p) in all.paths.iter().enumerate() {
            self.line(&format!("path {} ({}):", i + 1, plural(p.len(), "step")));
            self.steps(p, "  ");
        }
        match (all.paths.len(), all.complete) {
            (0, _) => self.line("no path"),
            (n, true) => self.line(&plural(n, "path")),
            (n, false) => self.line(&format!(
                "{n} paths shown; there may be more (raise --limit)"
            )),
        }
        if all.paths.is_empty() {
            let mut why = JsonWhy::default();
            self.explain_unreachable(&mut why);
            json.why = Some(why);
        }
        json.end = self.found_word(!all.paths.is_empty());
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
