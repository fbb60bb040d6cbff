//! Subscriptions that stay behind: an installed CSV that is not the head of
//! its Subscription's channel, for which OLM plans nothing. OLM says nothing
//! about them (a resolution that keeps every installed CSV succeeds); olmsat
//! says why in one line, with what to do.
//!
//! The reason is the one `olmsat path` gives from the installed CSV in the
//! Subscription's channel (nothing in the channel takes it, the entries
//! that would are never offered, it is newer than the head, it is in other
//! channels only, …), and the hint names the channels whose OLM v0 walk
//! reaches the head. When that walk does upgrade it but the resolution
//! keeps it, the reason is the resolution's: why the next candidate is
//! passed over.

use olmsat_graph::path::{answer_in, InstalledCsv as PathInstalled, JsonWhy, PathMode, PathQuery};
use serde::Serialize;

use crate::cluster::Subscription;
use crate::resolve::{Input, Operator, Stay};

/// A Subscription whose installed CSV stays behind its channel's head.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Behind {
    /// The Subscription's name.
    pub subscription: String,
    /// Its package.
    pub package: String,
    /// The channel the answer is about: the Subscription's, or the
    /// package's default channel (or the channel that holds the installed
    /// CSV) when it names none.
    pub channel: String,
    /// The installed CSV.
    pub installed: String,
    /// The channel's head, when it has a single one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    /// Why it stays, in one line.
    pub reason: String,
    /// What to do about it, when olmsat knows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The reasons `olmsat path` gives, as data (as `path -o json` has them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<JsonWhy>,
}

impl Behind {
    /// The one line olmsat prints: who stays where, and why.
    pub fn line(&self) -> String {
        let head = self
            .head
            .as_deref()
            .map(|h| format!(", whose head is {h}"))
            .unwrap_or_default();
        format!(
            "subscription {} stays at {} (channel {}{head}): {}",
            self.subscription, self.installed, self.channel, self.reason
        )
    }
}

/// The Subscriptions of `namespace` whose installed CSV is not their
/// channel's head and for which `planned` (the namespace's answer) holds no
/// upgrade, each with why; `stays` are the answer's Subscriptions that keep
/// their installed CSV although they have candidates. Sorted by
/// Subscription name. A Subscription whose catalog or installed CSV is not
/// given, or whose channel the catalog lacks, is left out: the resolution
/// says what is wrong with it.
pub fn behind(input: &Input, namespace: &str, planned: &[Operator], stays: &[Stay]) -> Vec<Behind> {
    let mut subs: Vec<&Subscription> = input
        .cluster
        .subscriptions
        .iter()
        .filter(|s| s.namespace == namespace && !s.installed_csv.is_empty())
        .collect();
    subs.sort_by(|a, b| a.name.cmp(&b.name));
    subs.into_iter()
        .filter(|s| !planned.iter().any(|o| o.replaces == s.installed_csv))
        .filter_map(|s| one(input, s, stays))
        .collect()
}

/// Whether `s` stays behind, and why.
fn one(input: &Input, s: &Subscription, stays: &[Stay]) -> Option<Behind> {
    let csv = input
        .cluster
        .csvs
        .iter()
        .find(|c| c.namespace == s.namespace && c.name == s.installed_csv)?;
    let catalog = input.catalogs.iter().find(|c| c.name == s.source)?;
    let query = PathQuery {
        package: s.package.clone(),
        channel: (!s.channel.is_empty()).then(|| s.channel.clone()),
        from: s.installed_csv.clone(),
        to: None,
        mode: PathMode::Olm,
        installed: csv.version.clone().map(|version| PathInstalled {
            version,
            location: csv.location.clone(),
        }),
    };
    let answer = answer_in(&catalog.model, &query);
    let path = answer.channels.first()?;
    let json = &path.json;
    let steps = json.steps.as_deref().unwrap_or_default();
    if path.reached && steps.is_empty() {
        // Already at the head.
        return None;
    }
    let mut out = Behind {
        subscription: s.name.clone(),
        package: s.package.clone(),
        channel: json.channel.clone(),
        installed: s.installed_csv.clone(),
        head: json.to.clone(),
        reason: String::new(),
        hint: None,
        why: json.why.clone(),
    };
    if let (true, Some(next)) = (path.reached, steps.first()) {
        // OLM v0's walk goes on, but this resolution keeps the CSV: the
        // answer passes its candidates over.
        let passed = stays
            .iter()
            .find(|x| x.subscription == s.name)
            .and_then(|x| x.passed_over.first());
        out.reason = match passed {
            Some(p) => format!(
                "OLM v0 would take it to {} next, but this resolution passes {} over: {}",
                next.to,
                p.id,
                p.because.first().map(String::as_str).unwrap_or_default()
            ),
            None => format!(
                "OLM v0 would take it to {} next, but this resolution has no candidate to upgrade it to",
                next.to
            ),
        };
        return Some(out);
    }
    out.reason = if path.reasons.is_empty() {
        path.summary.clone()
    } else {
        path.reasons.join("; ")
    };
    out.hint = hint(s, json.why.as_ref());
    Some(out)
}

/// The channels whose OLM v0 walk from the installed CSV reaches their
/// head, as what to set the Subscription's channel to.
fn hint(s: &Subscription, why: Option<&JsonWhy>) -> Option<String> {
    let reaching: Vec<String> = why?
        .other_channels
        .iter()
        .filter(|o| o.end == "head")
        .map(|o| {
            let head = o.head.as_deref().unwrap_or_default();
            let steps = if o.steps == 1 { "step" } else { "steps" };
            format!(
                "{} (head {head}; OLM v0 reaches it in {} {steps})",
                o.channel, o.steps
            )
        })
        .collect();
    match reaching.as_slice() {
        [] => None,
        [one] => Some(format!(
            "channel {one} takes it: set spec.channel of subscription {} to it",
            s.name
        )),
        several => Some(format!(
            "channels {} take it: set spec.channel of subscription {} to one of them",
            several.join(", "),
            s.name
        )),
    }
}
