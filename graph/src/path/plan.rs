//! Which channels a path question is answered in, and where the upgrade
//! starts in each.

use crate::channels::ChannelGraphs;
use crate::upgrade::{ChannelGraph, Presence, Start, StartError, StartMatch};
use olmsat_catalog::Model;

use super::{end_word, JsonElsewhere, PathQuery};

/// One `path` question: the catalog's model and the query.
pub(crate) struct Ask<'a> {
    pub(crate) catalog: &'a Model,
    pub(crate) query: &'a PathQuery,
}

impl Ask<'_> {
    /// The start in `g`: `from` resolved, a pruned start taking the version
    /// of the installed CSV when a cluster file holds it.
    pub(crate) fn start(&self, g: &ChannelGraph<'_>) -> Result<Start, StartError> {
        let found = g.resolve_start(&self.query.from);
        let Some(csv) = &self.query.installed else {
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
                name: Some(self.query.from.clone()),
                version: Some(csv.version.clone()),
                matched: StartMatch::NameVersion,
            }),
        }
    }

    /// How the start was understood, in words.
    pub(crate) fn describe(&self, g: &ChannelGraph<'_>, s: &Start) -> String {
        match (&self.query.installed, s.matched) {
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

/// Which channels to answer for, and what to say about the choice.
pub(crate) struct Plan {
    pub(crate) channels: Vec<Option<String>>,
    pub(crate) note: Option<String>,
}

/// Whether the start is a bundle of the package (in some channel), not a
/// pruned one.
pub(crate) fn is_bundle(s: &Start) -> bool {
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
    let Ok(g) = ask.catalog.channel_graph(&ask.query.package, Some(channel)) else {
        return false;
    };
    let Ok(s) = ask.start(&g) else {
        return false;
    };
    let named = s
        .node
        .is_some_and(|n| mentioned || matches!(g.node(n).presence, Presence::Entry(_)));
    named || (!is_bundle(&s) && !g.successors(&s).is_empty())
}

/// The real channels of the package (none when it is unknown).
fn channel_names(catalog: &Model, package: &str) -> Vec<String> {
    catalog
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

/// The channels to answer for: the one given; with `all` every channel
/// naming the start (every channel when none does); without a channel, the
/// default channel, unless the start is a bundle of the package that is not
/// in it: then the channels holding it.
pub(crate) fn plan(ask: &Ask<'_>) -> Plan {
    let (catalog, query) = (ask.catalog, ask.query);
    let names = channel_names(catalog, &query.package);
    let all_asked = query.channel.as_deref() == Some("all") && !names.iter().any(|c| c == "all");
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
    if query.channel.is_some() {
        return Plan {
            channels: vec![query.channel.clone()],
            note: None,
        };
    }
    let default = Plan {
        channels: vec![None],
        note: None,
    };
    let Ok(g) = catalog.channel_graph(&query.package, None) else {
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
            query.from,
            g.channel().name,
            holding.join(", ")
        )
    } else {
        format!(
            "{} is not in the default channel {}; it is in {}: the path there follows",
            query.from,
            g.channel().name,
            holding.join(", ")
        )
    };
    Plan {
        channels: holding.into_iter().map(Some).collect(),
        note: Some(note),
    }
}

/// Where OLM v0 takes the start in the other channels that hold it as an entry.
pub(crate) fn elsewhere(ask: &Ask<'_>, here: &str) -> Vec<JsonElsewhere> {
    channel_names(ask.catalog, &ask.query.package)
        .into_iter()
        .filter(|c| c != here && holds(ask, c, false))
        .filter_map(|c| {
            let g = ask
                .catalog
                .channel_graph(&ask.query.package, Some(&c))
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
