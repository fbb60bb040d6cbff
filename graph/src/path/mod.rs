//! `olmsat path` as a library call: how an installed bundle upgrades within a
//! package's channels — the steps OLM v0 takes one resolution at a time, a
//! shortest path, or every path — and, when it does not get there, why.
//!
//! A [`PathQuery`] names the package, the start (`from`: a bundle name, a
//! version, or a pruned bundle's CSV name), the channel (the default, one, or
//! `all`) and what to find; [`answer`] plans which channels to answer in and
//! answers in each. The [`PathAnswer`] has both renderings `olmsat path`
//! prints: the text ([`PathAnswer::text`]) and the JSON/YAML document
//! ([`PathAnswer::document`]).
//!
//! ```
//! use olmsat_graph::path::{answer, PathQuery};
//! use olmsat_catalog::Catalog;
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/catalogs/etcd-example");
//! let catalog = Catalog::open(&[dir]).expect("a valid catalog");
//! let a = answer(&catalog, &PathQuery::olm("etcd", "etcdoperator.v0.9.0"));
//! assert!(a.reached());
//! let text = a.text();
//! assert!(text.starts_with("package etcd, channel stable\n"), "{text}");
//! assert!(text.ends_with("reaches the head etcdoperator.v0.9.5 in 2 steps\n"), "{text}");
//! ```

mod plan;
mod view;
mod why;

use serde::Serialize;

use crate::channels::ChannelError;
use crate::export::json::PathStep;
use crate::upgrade::{ChannelGraph, Edge, NodeIndex, OlmEnd, Start, StartError};
use olmsat_catalog::{Catalog, Model};
use olmsat_encoding::Location;

pub use why::{JsonBlocked, JsonElsewhere, JsonEntry, JsonLead, JsonWhy};

/// What to find from the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathMode {
    /// The steps OLM v0 takes, one resolution at a time (the default).
    Olm,
    /// A shortest path over every edge.
    Shortest,
    /// Every simple path over every edge, at most this many.
    All(usize),
}

/// The ClusterServiceVersion a cluster file holds for the start: its version
/// stands in for a pruned bundle's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstalledCsv {
    /// The CSV's `spec.version`.
    pub version: semver::Version,
    /// Where the cluster file declares it.
    pub location: Location,
}

/// One `path` question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathQuery {
    /// The package.
    pub package: String,
    /// The channel: `None` for the default one (or the channels holding the
    /// start when the default does not), `Some("all")` for every channel
    /// holding the start (unless the package has a channel called `all`).
    pub channel: Option<String>,
    /// Where the upgrade starts.
    pub from: String,
    /// Where it should end (the channel head when `None`).
    pub to: Option<String>,
    /// What to find.
    pub mode: PathMode,
    /// The installed CSV named `from`, when a cluster file holds one.
    pub installed: Option<InstalledCsv>,
}

impl PathQuery {
    /// OLM v0's path from `from` to the head of `package`'s default channel.
    pub fn olm(package: &str, from: &str) -> PathQuery {
        PathQuery {
            package: package.to_owned(),
            channel: None,
            from: from.to_owned(),
            to: None,
            mode: PathMode::Olm,
            installed: None,
        }
    }
}

/// Why a channel could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum PathError {
    /// The package or channel is not in the catalog, or its graph is too large.
    #[error(transparent)]
    Channel(#[from] ChannelError),
    /// The start names nothing the channel knows.
    #[error(transparent)]
    Start(#[from] StartError),
    /// `--to` names nothing the channel knows.
    #[error("--to: {0}")]
    Target(#[source] StartError),
    /// No single head to go to, and no target given.
    #[error("channel {channel:?} has no single head ({why}); give --to")]
    NoHead {
        /// The channel.
        channel: String,
        /// Why it has none.
        why: String,
    },
}

/// The path answer in one channel.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonPath {
    /// The package.
    pub package: String,
    /// The channel.
    pub channel: String,
    /// The start, as understood.
    pub from: String,
    /// The target (the head when none was given).
    pub to: Option<String>,
    /// The steps (OLM v0's walk, or a shortest path).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<PathStep>>,
    /// Every path found (`All`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paths: Option<Vec<Vec<PathStep>>>,
    /// Whether the channel head is reached.
    pub reaches_head: bool,
    /// How the path ends: `head`, `target`, `deadEnd`, `newerThanHead`,
    /// `missesTarget`, `loop`, `noHead` or `noPath`.
    pub end: &'static str,
    /// Why the target is not reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<JsonWhy>,
}

/// The answer for several channels.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonChannels<'a> {
    /// The package.
    pub package: &'a str,
    /// The start.
    pub from: &'a str,
    /// One answer per channel.
    pub channels: Vec<&'a JsonPath>,
}

/// The document `olmsat path -o json` prints: one channel's answer, or
/// several.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum PathDocument<'a> {
    /// One channel.
    One(&'a JsonPath),
    /// Several channels.
    Channels(JsonChannels<'a>),
}

/// The answer in one channel.
#[derive(Debug)]
pub struct ChannelPath {
    /// The channel's heading.
    pub heading: ChannelHeading,
    /// The answer as text, after the channel's heading and notes.
    pub body: String,
    /// The line saying how OLM v0's walk ends (`reaches the head … in 2
    /// steps`, `dead end: OLM v0 offers no upgrade from the start`, …);
    /// empty for a shortest path or every path.
    pub summary: String,
    /// The reasons the text gives when the target is not reached, each as
    /// its line says it (without the indentation), in the text's order;
    /// the other channels that hold the start are in `json.why`.
    pub reasons: Vec<String>,
    /// The answer as data.
    pub json: JsonPath,
    /// Whether the target was reached.
    pub reached: bool,
}

/// A channel's heading: what `olmsat path` prints before its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelHeading {
    /// The package.
    pub package: String,
    /// The channel.
    pub channel: String,
    /// Notes about the channel (a channel OLM v0 would refuse, skipRanges
    /// that do not parse).
    pub notes: Vec<String>,
}

/// Why the answer stopped, and the heading of the channel it stopped in when
/// it got that far.
#[derive(Debug)]
pub struct PathFailure {
    /// The channel's heading, when the channel was found.
    pub heading: Option<ChannelHeading>,
    /// What went wrong.
    pub error: PathError,
}

/// The answer to a [`PathQuery`]: a note on the channels chosen, an answer
/// per channel, and the error that stopped it, if one did (after the
/// channels answered before it).
#[derive(Debug)]
pub struct PathAnswer {
    /// The package.
    pub package: String,
    /// Why other channels than the one asked were answered.
    pub note: Option<String>,
    /// The channels answered.
    pub channels: Vec<ChannelPath>,
    /// What stopped the answer.
    pub failure: Option<PathFailure>,
}

impl PathAnswer {
    /// Whether any channel reached its target.
    pub fn reached(&self) -> bool {
        self.failure.is_none() && self.channels.iter().any(|c| c.reached)
    }

    /// The answer as `olmsat path` prints it: the note, then each channel
    /// with its heading, notes and path (the error, if any, is not part of
    /// it).
    pub fn text(&self) -> String {
        let mut out = String::new();
        if let Some(n) = &self.note {
            out.push_str(&format!("note: {n}\n"));
        }
        let failed = self.failure.as_ref().and_then(|f| f.heading.as_ref());
        let headings = self.channels.iter().map(|c| (&c.heading, Some(&c.body)));
        for (i, (h, body)) in headings.chain(failed.map(|h| (h, None))).enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&format!("package {}, channel {}\n", h.package, h.channel));
            for n in &h.notes {
                out.push_str(&format!("note: {n}\n"));
            }
            if let Some(body) = body {
                out.push_str(body);
            }
        }
        out
    }

    /// Every note, the plan's first (for the formats that print notes apart
    /// from the document).
    pub fn notes(&self) -> impl Iterator<Item = &str> {
        let failed = self.failure.as_ref().and_then(|f| f.heading.as_ref());
        self.note.iter().map(String::as_str).chain(
            self.channels
                .iter()
                .map(|c| &c.heading)
                .chain(failed)
                .flat_map(|h| h.notes.iter().map(String::as_str)),
        )
    }

    /// The answer as data: one channel's, or several.
    pub fn document(&self) -> PathDocument<'_> {
        let answers: Vec<&JsonPath> = self.channels.iter().map(|c| &c.json).collect();
        match answers[..] {
            [one] => PathDocument::One(one),
            _ => PathDocument::Channels(JsonChannels {
                package: &self.package,
                from: answers.first().map_or("", |a| a.from.as_str()),
                channels: answers,
            }),
        }
    }
}

/// How an OLM path ends, as a JSON word.
pub(crate) fn end_word(end: OlmEnd) -> &'static str {
    match end {
        OlmEnd::Head => "head",
        OlmEnd::Target => "target",
        OlmEnd::DeadEnd => "deadEnd",
        OlmEnd::Loop(_) => "loop",
        OlmEnd::NoHead => "noHead",
    }
}

/// OLM v0's path from node `from` of `graph` to the channel head, answered
/// as [`answer_in`] answers `olmsat path PACKAGE --from NAME --channel
/// CHANNEL` (with the same text, reasons and JSON), over a graph already
/// built. `model` is the catalog the graph was built from.
///
/// # Errors
///
/// Those of [`answer_in`] for the query (none for a node of a channel that
/// has a head).
pub fn olm_answer_at(
    model: &Model,
    graph: &ChannelGraph<'_>,
    from: NodeIndex,
) -> Result<ChannelPath, Box<PathFailure>> {
    let query = PathQuery {
        channel: Some(graph.channel().name.clone()),
        ..PathQuery::olm(&graph.package().name, graph.node(from).name)
    };
    let ask = plan::Ask {
        catalog: model,
        query: &query,
    };
    view::answer_in_graph(&ask, graph)
}

/// The reasons `olmsat path --from FROM --to TO --shortest` gives when no
/// path over any edge of `graph` leads from node `from` to node `to`, each
/// without its indentation; empty when there is a path.
pub fn unreachable_reasons(
    graph: &ChannelGraph<'_>,
    from: NodeIndex,
    to: NodeIndex,
) -> Vec<String> {
    let start = Start::node(graph, from);
    let mut why = JsonWhy::default();
    why::unreachable(graph, &start, to, &mut why)
        .into_iter()
        .map(|l| l.trim_start().to_owned())
        .collect()
}

/// How a step over `edge` goes, as its line in `olmsat path` says after
/// `FROM -> TO  `: the kind, the range of a skipRange, and where it is
/// declared (`skipRange ">=1.0.0 <1.2.0" declared at catalog.yaml:12`).
pub fn step_how(edge: &Edge<'_>) -> String {
    view::step_how(edge)
}

/// The reason [`unreachable_reasons`] gives for a target older than the
/// start, without its indentation: `target (target_version) is older than
/// start (start_version): …`.
pub fn older_reason(
    target: &str,
    target_version: &str,
    start: &str,
    start_version: &str,
) -> String {
    why::older(target, target_version, start, start_version)
}

/// Answer `query` about `catalog`: in the channels the query names, or the
/// channels holding the start when the default channel does not.
pub fn answer(catalog: &Catalog, query: &PathQuery) -> PathAnswer {
    answer_in(catalog.model(), query)
}

/// [`answer`] over a catalog's model (as the resolver holds catalogs).
pub fn answer_in(model: &Model, query: &PathQuery) -> PathAnswer {
    let ask = plan::Ask {
        catalog: model,
        query,
    };
    let plan = plan::plan(&ask);
    let mut out = PathAnswer {
        package: query.package.clone(),
        note: plan.note,
        channels: Vec::new(),
        failure: None,
    };
    for channel in &plan.channels {
        match view::answer(&ask, channel.as_deref()) {
            Ok(c) => out.channels.push(c),
            Err(f) => {
                out.failure = Some(*f);
                break;
            }
        }
    }
    out
}
