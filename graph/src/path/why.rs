//! Why a path stops: the reasons `olmsat path` prints under a dead end or an
//! unreachable target, as text lines and as JSON data.

use olmsat_versions::range::Op;
use serde::Serialize;

use crate::upgrade::{ChannelGraph, NodeIndex, NotOffered, Start, Stuck, Unreachable};
use olmsat_catalog::declcfg::ChannelEntry;

/// An entry of a channel with where it is declared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonEntry {
    /// The entry's bundle name.
    pub entry: String,
    /// The file declaring it.
    pub file: String,
    /// The line of its declaration.
    pub line: u32,
}

impl JsonEntry {
    pub(crate) fn new(e: &ChannelEntry) -> JsonEntry {
        JsonEntry {
            entry: e.name.clone(),
            file: e.location.file.to_string(),
            line: e.location.line,
        }
    }
}

/// An entry that would take the stuck bundle, and why OLM v0 never offers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonBlocked {
    /// The entry that would take the bundle.
    pub entry: String,
    /// The edge that would: `replaces`, `skips` or `skipRange`.
    pub via: &'static str,
    /// The file declaring the edge.
    pub file: String,
    /// The line declaring the edge.
    pub line: u32,
    /// `skipped`, `offChain` or `deprecated`.
    pub not_offered: &'static str,
    /// The entries that skip it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped_by: Vec<JsonEntry>,
}

/// Another channel holding the start, and where OLM v0 takes it there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonElsewhere {
    /// The channel.
    pub channel: String,
    /// Its head, if it has one.
    pub head: Option<String>,
    /// How OLM v0's walk ends there.
    pub end: &'static str,
    /// How many steps it takes.
    pub steps: usize,
}

/// An entry that leads to an unreachable target, with what it accepts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonLead {
    /// The entry.
    #[serde(flatten)]
    pub entry: JsonEntry,
    /// What it replaces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaces: Option<String>,
    /// What it skips.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skips: Vec<String>,
    /// Its skipRange.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_range: Option<String>,
    /// The comparator of the skipRange that the nearest point fails.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_range_fails: Option<String>,
}

/// The reasons, as data (every field optional).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct JsonWhy {
    /// Where OLM v0 stops (the start when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// The start is not an entry of this channel.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub not_in_channel: bool,
    /// No entry replaces it, skips it, or has a skipRange containing its version.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub nothing_takes_it: bool,
    /// Entries that would take it but OLM v0 never offers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blocked: Vec<JsonBlocked>,
    /// The head's version, when the start is newer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub newer_than_head: Option<String>,
    /// Other channels holding the start.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_channels: Vec<JsonElsewhere>,
    /// For an unreachable target: it is older than the start.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub target_is_older: bool,
    /// For an unreachable target: the nearest reachable point below it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nearest: Option<String>,
    /// For an unreachable target: entries leading to it, lowest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub leads: Vec<JsonLead>,
    /// The target can be reached over the graph, but OLM v0 passes it by:
    /// each time it takes the first candidate on the head's replaces chain.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub passed_by: bool,
    /// Where OLM v0's walk loops back to (it would cycle).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loops_back_to: Option<String>,
    /// Why the channel has no single head, so that OLM v0 refuses to
    /// resolve in it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_head: Option<String>,
}

fn not_offered_word(n: &NotOffered<'_>) -> &'static str {
    match n {
        NotOffered::Skipped(_) => "skipped",
        NotOffered::OffChain => "offChain",
        NotOffered::LegacyDeprecated => "deprecated",
    }
}

fn located(e: &ChannelEntry) -> String {
    format!("{} ({})", e.name, e.location)
}

/// Lines saying why OLM v0 offers nothing from `at`, filling `why`.
pub(crate) fn stuck(g: &ChannelGraph<'_>, at: &Start, why: &mut JsonWhy) -> Vec<String> {
    let name = at.label();
    match g.why_stuck(at) {
        Stuck::Untaken { has_version } => {
            why.nothing_takes_it = true;
            let ranges = if has_version {
                format!(
                    "no skipRange contains its version {}",
                    at.version
                        .as_ref()
                        .map(ToString::to_string)
                        .unwrap_or_default()
                )
            } else {
                "it has no version for a skipRange to contain".to_owned()
            };
            vec![format!(
                "  nothing in channel {} takes {name}: no entry replaces it, none skips it, {ranges}",
                g.channel().name
            )]
        }
        Stuck::Blocked(all) => {
            let mut lines = Vec::new();
            for b in all {
                let to = g.node(b.step.to).name;
                let mut line = format!(
                    "  {to} ({} declared at {}) would take it but is never offered: ",
                    b.step.edge.kind,
                    b.step.edge.location()
                );
                if b.skipped_by.is_empty() {
                    line.push_str(&b.why.to_string());
                } else {
                    let by: Vec<String> = b.skipped_by.iter().map(|e| located(e)).collect();
                    line.push_str(&format!(
                        "skipped by {} (OLM v0 never offers a skipped entry)",
                        by.join(", ")
                    ));
                }
                lines.push(line);
                why.blocked.push(JsonBlocked {
                    entry: to.to_owned(),
                    via: b.step.edge.kind.as_str(),
                    file: b.step.edge.location().file.to_string(),
                    line: b.step.edge.location().line,
                    not_offered: not_offered_word(&b.why),
                    skipped_by: b.skipped_by.iter().map(|e| JsonEntry::new(e)).collect(),
                });
            }
            lines
        }
    }
}

/// Where a `skipRange` misses `v`, in words (` (stops just below 1.4.2:
/// <1.4.0)`, ` (starts above 1.4.2: >=1.5.0)`) and the comparator; `None`
/// when it cannot say.
/// The reason a target older than the start is out of reach (without
/// indentation): `target` (`target_version`) is older than `start`
/// (`start_version`).
pub(crate) fn older(
    target: &str,
    target_version: &str,
    start: &str,
    start_version: &str,
) -> String {
    format!("{target} ({target_version}) is older than {start} ({start_version}): upgrades only go to newer versions")
}

fn range_miss(range: &str, v: &semver::Version) -> Option<(String, String)> {
    let r = olmsat_versions::range::Range::parse(range).ok()?;
    let c = r.failing(v)?;
    let words = match c.op {
        Op::Lt | Op::Le => format!(" (stops just below {v}: {c})"),
        Op::Gt | Op::Ge => format!(" (starts above {v}: {c})"),
        Op::Eq | Op::Ne => format!(" (does not contain {v}: {c})"),
    };
    Some((words, c.to_string()))
}

/// Lines saying why `target` is out of reach from `start`, filling `why`;
/// nothing when it can be reached over some edge.
pub(crate) fn unreachable(
    g: &ChannelGraph<'_>,
    start: &Start,
    target: NodeIndex,
    why: &mut JsonWhy,
) -> Vec<String> {
    let Some(Unreachable { nearest, leads }) = g.why_unreachable(start, target) else {
        return Vec::new();
    };
    let t = g.node(target).name;
    if let (Some(tv), Some(sv)) = (g.node(target).version, &start.version) {
        if tv.cmp_precedence(sv) == std::cmp::Ordering::Less {
            why.target_is_older = true;
            return vec![format!(
                "  {}",
                older(t, &tv.to_string(), &start.label(), &sv.to_string())
            )];
        }
    }
    let near = nearest.map_or_else(
        || format!("the start {}", start.label()),
        |n| g.node(n).name.to_owned(),
    );
    let near_version = nearest
        .and_then(|n| g.node(n).version.cloned())
        .or_else(|| start.version.clone());
    why.nearest = Some(nearest.map_or_else(|| start.label(), |n| g.node(n).name.to_owned()));
    let mut lines = vec![format!(
        "  no path over any edge reaches {t}; the nearest point is {near}{}: no entry leading to {t} replaces, skips or has a skipRange containing it",
        near_version.as_ref().map(|v| format!(" ({v})")).unwrap_or_default()
    )];
    for e in leads {
        let mut accepts = Vec::new();
        if let Some(r) = &e.replaces {
            accepts.push(format!("replaces {r}"));
        }
        if !e.skips.is_empty() {
            accepts.push(format!("skips {}", e.skips.join(", ")));
        }
        let mut fails = None;
        if let Some(r) = &e.skip_range {
            let miss = near_version.as_ref().and_then(|v| range_miss(r, v));
            accepts.push(format!(
                "skipRange {r:?}{}",
                miss.as_ref().map(|m| m.0.as_str()).unwrap_or_default()
            ));
            fails = miss.map(|m| m.1);
        }
        let accepts = if accepts.is_empty() {
            "takes nothing".to_owned()
        } else {
            accepts.join(", ")
        };
        lines.push(format!("  {} {accepts}", located(e)));
        why.leads.push(JsonLead {
            entry: JsonEntry::new(e),
            replaces: e.replaces.clone(),
            skips: e.skips.clone(),
            skip_range: e.skip_range.clone(),
            skip_range_fails: fails,
        });
    }
    lines
}
