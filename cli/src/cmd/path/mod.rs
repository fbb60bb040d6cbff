//! `olmsat path`

use olmsat_graph::{
    target_node, Catalog, ChannelGraph, NodeIndex, OlmEnd, PathStep, Start, StartMatch, Step,
};
use serde::Serialize;

use crate::args::{OlmVersion, PathArgs, PathMode as Mode, ReportFormat};
use crate::output::{print_data, Exit};
use crate::process::Finished;
use crate::timings::timed;

mod why;

use why::{JsonElsewhere, JsonWhy};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonPath {
    package: String,
    channel: String,
    from: String,
    to: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<Vec<PathStep>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    paths: Option<Vec<Vec<PathStep>>>,
    reaches_head: bool,
    /// How the path ends: `head`, `target`, `deadEnd`, `newerThanHead`,
    /// `missesTarget`, `loop`, `noHead` or `noPath`.
    end: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<JsonWhy>,
}

/// The answer for several channels.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonChannels {
    package: String,
    from: String,
    channels: Vec<JsonPath>,
}

/// How an OLM path ends, as a JSON word.
fn end_word(end: OlmEnd) -> &'static str {
    match end {
        OlmEnd::Head => "head",
        OlmEnd::Target => "target",
        OlmEnd::DeadEnd => "deadEnd",
        OlmEnd::Loop(_) => "loop",
        OlmEnd::NoHead => "noHead",
    }
}

fn describe_start(g: &ChannelGraph<'_>, s: &Start) -> String {
    let version = s.version.as_ref().map(ToString::to_string);
    match (s.matched, &version) {
        (StartMatch::PrunedVersion, _) => format!(
            "version {} (no bundle of the package has it: only skipRanges apply)",
            s.label()
        ),
        (StartMatch::NameVersion, Some(v)) => format!(
            "{} (a pruned bundle; version {v} read from its name)",
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
            errln!("olmsat: --shortest and --all are graph paths of OLM v0's channel graph: drop them with --olm v1");
            return Ok(Exit::Usage.into());
        }
        return super::v1::path(&super::v1::PathRequest {
            path: &args.path,
            package: &args.package,
            // OLM v1's path is across all channels without --channel.
            channel: args.channel.as_deref().filter(|c| *c != "all"),
            from: &args.from,
            to: args.to.as_deref(),
            version: args.version.as_deref(),
            format: args.output,
        })
        .map(Finished::new);
    }
    if args.version.is_some() {
        errln!("olmsat: --version bounds OLM v1 paths only: add --olm v1");
        return Ok(Exit::Usage.into());
    }
    let installed = match installed_csv(args) {
        Ok(c) => c,
        Err(exit) => return Ok(exit.into()),
    };
    let Some(catalog) = super::open_catalog(&args.path, Some(&args.package))? else {
        return Ok(Exit::Invalid.into());
    };
    let exit = show(&Ask {
        catalog: &catalog,
        args,
        installed,
    })?;
    Ok(Finished::new(exit).keeping(catalog))
}

/// The installed CSV a cluster file holds for `--from`.
struct Installed {
    version: semver::Version,
    location: olmsat_graph::Location,
}

/// The CSV named by `--from` in the cluster files given with `-f`, if any.
fn installed_csv(args: &PathArgs) -> Result<Option<Installed>, Exit> {
    if args.cluster.is_empty() {
        return Ok(None);
    }
    let stdin = std::path::Path::new("-");
    if args.path == stdin && args.cluster.iter().any(|c| c == stdin) {
        errln!("olmsat: the catalog and the cluster state cannot both be read from standard input");
        return Err(Exit::Usage);
    }
    let cluster = match olmsat_resolver::ClusterState::read_all(&args.cluster) {
        Ok(c) => c,
        Err(e) => {
            errln!("olmsat: {e}");
            return Err(Exit::Usage);
        }
    };
    let mut found: Vec<&olmsat_resolver::InstalledCsv> = cluster
        .csvs
        .iter()
        .filter(|c| c.name == args.from && c.version.is_some())
        .collect();
    found.sort_by(|a, b| a.namespace.cmp(&b.namespace));
    Ok(found.first().and_then(|c| {
        Some(Installed {
            version: c.version.clone()?,
            location: c.location.clone(),
        })
    }))
}

/// One `path` question: the catalog, the arguments, and the installed CSV.
struct Ask<'a> {
    catalog: &'a Catalog,
    args: &'a PathArgs,
    installed: Option<Installed>,
}

impl Ask<'_> {
    /// The start in `g`: `--from` resolved, a pruned start taking the version
    /// of the installed CSV when a cluster file holds it.
    fn start(&self, g: &ChannelGraph<'_>) -> Result<Start, olmsat_graph::StartError> {
        let found = g.resolve_start(&self.args.from);
        let Some(csv) = &self.installed else {
            return found;
        };
        match found {
            Ok(s) if is_bundle(&s) => Ok(s),
            Ok(s) => Ok(Start {
                version: Some(csv.version.clone()),
                matched: StartMatch::NameVersion,
                ..s
            }),
            Err(_) => Ok(Start {
                node: None,
                name: Some(self.args.from.clone()),
                version: Some(csv.version.clone()),
                matched: StartMatch::NameVersion,
            }),
        }
    }

    /// How the start was understood, in words.
    fn describe(&self, g: &ChannelGraph<'_>, s: &Start) -> String {
        match (&self.installed, s.matched) {
            (Some(csv), StartMatch::NameVersion) => format!(
                "{} (a pruned bundle; version {} from its ClusterServiceVersion at {})",
                s.label(),
                csv.version,
                csv.location
            ),
            _ => describe_start(g, s),
        }
    }
}

/// Which channels to answer for, and what to say about the choice.
struct Plan {
    channels: Vec<Option<String>>,
    note: Option<String>,
}

/// Whether the start is a bundle of the package (in some channel), not a
/// pruned one.
fn is_bundle(s: &Start) -> bool {
    matches!(
        s.matched,
        StartMatch::NodeName
            | StartMatch::NodeVersion
            | StartMatch::BundleName
            | StartMatch::BundleVersion
    )
}

/// Whether `channel` holds the start given: it is an entry there, or, for a
/// pruned bundle, OLM v0 offers it an upgrade there. With `mentioned`, any
/// node of the channel's graph counts (an entry or a name it points at).
fn holds(ask: &Ask<'_>, channel: &str, mentioned: bool) -> bool {
    let Ok(g) = ask.catalog.channel_graph(&ask.args.package, Some(channel)) else {
        return false;
    };
    let Ok(s) = ask.start(&g) else {
        return false;
    };
    let named = s.node.is_some_and(|n| {
        mentioned || matches!(g.node(n).presence, olmsat_graph::Presence::Entry(_))
    });
    named || (!is_bundle(&s) && !g.successors(&s).is_empty())
}

/// The real channels of the package (none when it is unknown).
fn channel_names(catalog: &Catalog, package: &str) -> Vec<String> {
    catalog
        .model()
        .packages()
        .iter()
        .find(|p| p.name == package)
        .map(|p| {
            p.channels()
                .iter()
                .filter(|c| !c.is_synthesized())
                .map(|c| c.name.clone())
                .collect()
        })
        .unwrap_or_default()
}

/// The channels to answer for: the one given; with `--channel all` every
/// channel naming the start (every channel when none does); without
/// `--channel`, the default channel, unless the start is a bundle of the
/// package that is not in it: then the channels holding it.
fn plan(ask: &Ask<'_>) -> Plan {
    let (catalog, args) = (ask.catalog, ask.args);
    let names = channel_names(catalog, &args.package);
    let all_asked = args.channel.as_deref() == Some("all") && !names.iter().any(|c| c == "all");
    if all_asked {
        let holding: Vec<String> = names
            .iter()
            .filter(|c| holds(ask, c, true))
            .cloned()
            .collect();
        let channels = if holding.is_empty() { names } else { holding };
        return Plan {
            channels: channels.into_iter().map(Some).collect(),
            note: None,
        };
    }
    if args.channel.is_some() {
        return Plan {
            channels: vec![args.channel.clone()],
            note: None,
        };
    }
    let default = Plan {
        channels: vec![None],
        note: None,
    };
    let Ok(g) = catalog.channel_graph(&args.package, None) else {
        return default;
    };
    let outside = ask.start(&g).is_ok_and(|s| match s.matched {
        StartMatch::BundleName | StartMatch::BundleVersion => true,
        StartMatch::NodeName | StartMatch::NodeVersion => false,
        _ => g.successors(&s).is_empty(),
    });
    if !outside {
        return default;
    }
    let holding: Vec<String> = names.into_iter().filter(|c| holds(ask, c, false)).collect();
    if holding.is_empty() {
        return default;
    }
    let pruned = ask.start(&g).is_ok_and(|s| !is_bundle(&s));
    let note = if pruned {
        format!(
            "OLM v0 offers {} no upgrade in the default channel {}; it does in {}: the path there follows",
            args.from,
            g.channel().name,
            holding.join(", ")
        )
    } else {
        format!(
            "{} is not in the default channel {}; it is in {}: the path there follows",
            args.from,
            g.channel().name,
            holding.join(", ")
        )
    };
    Plan {
        channels: holding.into_iter().map(Some).collect(),
        note: Some(note),
    }
}

/// Answer the question about `catalog`, in each channel the plan names; the
/// channel graphs (a few large vectors) are freed on return.
fn show(ask: &Ask<'_>) -> Result<Exit, Box<dyn std::error::Error>> {
    let args = ask.args;
    let text = args.output == ReportFormat::Text;
    let plan = plan(ask);
    if let Some(n) = &plan.note {
        if text {
            outln!("note: {n}");
        } else {
            errln!("olmsat: note: {n}");
        }
    }
    let mut answers = Vec::new();
    for (i, channel) in plan.channels.iter().enumerate() {
        if text && i > 0 {
            outln!();
        }
        match answer(ask, channel.as_deref(), text)? {
            Ok(json) => answers.push(json),
            Err(exit) => return Ok(exit),
        }
    }
    let reached = answers.iter().any(|(_, r)| *r);
    if !text {
        let mut answers: Vec<JsonPath> = answers.into_iter().map(|(j, _)| j).collect();
        if answers.len() == 1 {
            print_data(args.output, &answers.remove(0))?;
        } else {
            let from = answers.first().map(|a| a.from.clone()).unwrap_or_default();
            print_data(
                args.output,
                &JsonChannels {
                    package: args.package.clone(),
                    from,
                    channels: answers,
                },
            )?;
        }
    }
    Ok(if reached { Exit::Ok } else { Exit::Invalid })
}

/// Where OLM v0 takes the start in the other channels that hold it as an entry.
fn elsewhere(ask: &Ask<'_>, here: &str) -> Vec<JsonElsewhere> {
    channel_names(ask.catalog, &ask.args.package)
        .into_iter()
        .filter(|c| c != here && holds(ask, c, false))
        .filter_map(|c| {
            let g = ask
                .catalog
                .channel_graph(&ask.args.package, Some(&c))
                .ok()?;
            let s = ask.start(&g).ok()?;
            let path = g.olm_path(&s);
            Some(JsonElsewhere {
                channel: c,
                head: g.head().map(|h| g.node(h).name.to_owned()),
                end: end_word(path.end),
                steps: path.steps.len(),
            })
        })
        .collect()
}

type Answer = Result<(JsonPath, bool), Exit>;

/// The answer in one channel (the default one when `None`): printed as text,
/// or returned as JSON, with whether the target was reached.
fn answer(
    ask: &Ask<'_>,
    channel: Option<&str>,
    text: bool,
) -> Result<Answer, Box<dyn std::error::Error>> {
    let (catalog, args) = (ask.catalog, ask.args);
    let g = match timed("graph", || catalog.channel_graph(&args.package, channel)) {
        Ok(g) => g,
        Err(e) => {
            errln!("olmsat: {e}");
            return Ok(Err(Exit::Invalid));
        }
    };
    let (package, channel) = (g.package(), g.channel());
    let start = match ask.start(&g) {
        Ok(s) => s,
        Err(e) => {
            errln!("olmsat: {e}");
            return Ok(Err(Exit::Invalid));
        }
    };
    let target = match args.to.as_deref() {
        Some(name) => match target_node(&g, name) {
            Ok(n) => Some(n),
            Err(e) => match g.resolve_start(name) {
                Ok(Start { node: Some(n), .. }) => Some(n),
                _ => {
                    errln!("olmsat: --to: {e}");
                    return Ok(Err(Exit::Invalid));
                }
            },
        },
        None => g.head(),
    };
    let notes = notes(&g);
    if text {
        outln!("package {}, channel {}", package.name, channel.name);
        for n in &notes {
            outln!("note: {n}");
        }
    } else {
        for n in &notes {
            errln!("olmsat: note: {n}");
        }
    }
    let view = View {
        g: &g,
        from_words: ask.describe(&g, &start),
        start,
        target,
        explicit_target: args.to.is_some(),
        text,
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
    let reached = match (args.mode(), target) {
        (Mode::Olm, _) => {
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
        (Mode::Shortest, Some(t)) => view.shortest(t, &mut json),
        (Mode::All(limit), Some(t)) => view.all(t, limit, &mut json),
        (_, None) => {
            let why = g
                .chain()
                .error
                .as_ref()
                .map_or_else(|| "it is empty".to_owned(), ToString::to_string);
            errln!(
                "olmsat: channel {:?} has no single head ({why}); give --to",
                channel.name
            );
            return Ok(Err(Exit::Invalid));
        }
    };
    Ok(Ok((json, reached)))
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

    /// The JSON end of a graph path: `head` or `target` when found, else `noPath`.
    fn found_word(&self, found: bool) -> &'static str {
        match (found, self.target == self.g.head()) {
            (false, _) => "noPath",
            (true, true) => "head",
            (true, false) => "target",
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
        let text = olmsat_io::terminal(&text);
        let mut out = std::io::stdout().lock();
        if out
            .write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            // Standard output is gone (a closed pipe): nothing more to say.
        }
    }

    /// Print reason lines (text output only).
    fn say(&self, lines: &[String]) {
        if self.text {
            for l in lines {
                outln!("{l}");
            }
        }
    }

    /// Why the explicit target is out of reach over every edge; whether it is.
    fn explain_unreachable(&self, why: &mut JsonWhy) -> bool {
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
    fn olm(&self, json: &mut JsonPath, others: Vec<JsonElsewhere>) -> bool {
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
        if self.text {
            outln!(
                "OLM v0 path from {} to {}, one step per resolution:",
                self.from_words,
                self.target_words()
            );
            self.print_steps(&path.steps, "");
            let summary = path.summary(g);
            match (reached, path.end, self.target) {
                (false, OlmEnd::Head, Some(t)) => {
                    outln!("does not pass {}; {summary}", g.node(t).name)
                }
                _ => outln!("{summary}"),
            }
        }
        if let (false, OlmEnd::Head) = (reached, path.end) {
            end = "missesTarget";
            if !self.explain_unreachable(&mut why) {
                self.say(&[format!(
                    "  {} can be reached over the graph (--shortest shows how), but OLM v0 passes it by: each time it takes the first candidate on the head's replaces chain",
                    self.target_words()
                )]);
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
                self.say(&[format!(
                    "  {} ({v}) is newer than the head {} ({hv}): nothing in channel {} upgrades it",
                    self.start.label(),
                    g.node(h).name,
                    g.channel().name
                )]);
            } else {
                if path.steps.is_empty() && !others.is_empty() {
                    let bundle = is_bundle(&self.start);
                    why.not_in_channel = bundle;
                    let mut lines = Vec::new();
                    if bundle {
                        lines.push(format!(
                            "  {} is not in channel {}",
                            self.start.label(),
                            g.channel().name
                        ));
                    }
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
                    self.say(&lines);
                    why.other_channels = others;
                }
                let lines = why::stuck(g, &at, &mut why);
                self.say(&lines);
            }
            if self.explicit_target {
                self.explain_unreachable(&mut why);
            }
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
    fn shortest(&self, t: NodeIndex, json: &mut JsonPath) -> bool {
        let path = self.g.shortest_path(&self.start, t);
        if self.text {
            outln!(
                "shortest path over every edge from {} to {}:",
                self.from_words,
                self.target_words()
            );
            match &path {
                Some(p) if p.is_empty() => outln!("already there"),
                Some(p) => {
                    self.print_steps(p, "");
                    outln!(
                        "reaches {} in {}",
                        self.target_words(),
                        plural(p.len(), "step")
                    );
                }
                None => outln!("no path"),
            }
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
    fn all(&self, t: NodeIndex, limit: usize, json: &mut JsonPath) -> bool {
        let all = self.g.all_paths(&self.start, t, limit);
        if self.text {
            outln!(
                "all paths over every edge from {} to {} (at most {limit}):",
                self.from_words,
                self.target_words()
            );
            for (i, p) in all.paths.iter().enumerate() {
                outln!("path {} ({}):", i + 1, plural(p.len(), "step"));
                self.print_steps(p, "  ");
            }
            match (all.paths.len(), all.complete) {
                (0, _) => outln!("no path"),
                (n, true) => outln!("{}", plural(n, "path")),
                (n, false) => outln!("{n} paths shown; there may be more (raise --limit)"),
            }
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
