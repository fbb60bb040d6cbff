//! Channel entries OLM v0 never takes to their channel's head: `validate`'s
//! warning `never-reaches-head`, in the words `olmsat path` uses.
//!
//! OLM v0's walk from an entry is deterministic (the first successor OLM
//! offers, one resolution at a time), so each node's fate is found once and
//! shared by every walk through it: linear in the channel's size. The reason
//! is asked of [`path`](crate::path) once per place where walks stop, not
//! once per entry.
//!
//! ```
//! let text = r#"{"schema":"olm.package","name":"p","defaultChannel":"s"}
//! {"schema":"olm.channel","package":"p","name":"s","entries":[{"name":"p.v1"},{"name":"p.v2","replaces":"p.v1"},{"name":"p.v3","replaces":"p.v2","skips":["p.v2"]}]}
//! "#;
//! let loaded = olmsat_catalog::load::load_bytes("catalog.json", text.as_bytes());
//! let (model, _) = olmsat_catalog::Model::build(loaded.config);
//! let found = olmsat_graph::stuck::never_reaching_head(&model);
//! assert_eq!(found.len(), 1);
//! assert_eq!(found[0].bundle.as_deref(), Some("p.v1"));
//! assert!(found[0].message.contains("never offered: skipped by p.v3"), "{}", found[0].message);
//! ```

use std::collections::HashMap;

use olmsat_catalog::model::{Channel, Model, Package};
use olmsat_catalog::{CatalogFiles, Validation};
use olmsat_findings::diagnostic::{Diagnostic, Rule};

use crate::path::{answer_in, PathQuery};
use crate::upgrade::{ChannelGraph, NodeIndex, Start};

/// `validate`'s findings on `files`: opm's rules ([`CatalogFiles::validate`])
/// and, on a catalog without errors (its graphs are what opm would serve),
/// the [`never_reaching_head`] warnings, sorted in among the others.
pub fn validate(files: CatalogFiles) -> (Validation, Vec<Diagnostic>) {
    let validation = files.validate();
    let report = validation.report();
    let mut found = report.errors.clone();
    let mut warnings = report.warnings.clone();
    if report.errors.is_empty() {
        let stuck = never_reaching_head(validation.model());
        if !stuck.is_empty() {
            warnings.extend(stuck);
            warnings.sort();
        }
    }
    found.extend(warnings);
    (validation, found)
}

/// Where OLM v0's walk from a node ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// At the head.
    Head,
    /// Short of it: the walk stops at (or loops back to) this node.
    Stops(NodeIndex),
}

/// A `never-reaches-head` warning for every channel entry from which OLM v0
/// never reaches the channel's head, at the entry, naming where its upgrades
/// stop and why (the reasons `olmsat path` gives from there).
pub fn never_reaching_head(model: &Model) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for package in model.packages() {
        for channel in package.channels() {
            channel_warnings(model, package, channel, &mut out);
        }
    }
    out
}

fn channel_warnings(
    model: &Model,
    package: &Package,
    channel: &Channel,
    out: &mut Vec<Diagnostic>,
) {
    let Ok(g) = ChannelGraph::build(package, channel).complete() else {
        return;
    };
    let Some(head) = g.head() else {
        return;
    };
    let next = |n: NodeIndex| g.successors(&Start::node(&g, n)).first().map(|s| s.to);
    let mut fates: HashMap<NodeIndex, Fate> = HashMap::new();
    let mut reasons: HashMap<NodeIndex, String> = HashMap::new();
    for entry in channel.entries() {
        let Some(start) = g.node_index(&entry.name) else {
            continue;
        };
        let fate = fate_of(start, head, &next, &mut fates);
        let Fate::Stops(at) = fate else {
            continue;
        };
        let why = reasons.entry(at).or_insert_with(|| {
            let name = g.node(at).name;
            let query = PathQuery {
                channel: Some(channel.name.clone()),
                ..PathQuery::olm(&package.name, name)
            };
            let answer = answer_in(model, &query);
            let mut words: Vec<String> = Vec::new();
            for c in &answer.channels {
                words.push(c.summary.clone());
                words.extend(c.reasons.iter().cloned());
            }
            words.retain(|w| !w.is_empty());
            words.join("; ")
        });
        let head_name = g.node(head).name;
        let stop = if at == start {
            String::new()
        } else {
            format!(" its upgrades stop at {}:", g.node(at).name)
        };
        let message = format!(
            "OLM v0 never takes users of {} to the head {head_name} of channel {}:{stop} {why}; let the head skip the versions left behind (skips, or a skipRange containing them)",
            entry.name, channel.name
        );
        out.push(
            Diagnostic::new(Rule::NeverReachesHead, message)
                .package(&package.name)
                .channel(&channel.name)
                .bundle(&entry.name)
                .at(&entry.location),
        );
    }
}

/// The fate of OLM v0's walk from `start`, each node's found once.
fn fate_of(
    start: NodeIndex,
    head: NodeIndex,
    next: &dyn Fn(NodeIndex) -> Option<NodeIndex>,
    fates: &mut HashMap<NodeIndex, Fate>,
) -> Fate {
    let mut walked: Vec<NodeIndex> = Vec::new();
    let mut on_walk: HashMap<NodeIndex, ()> = HashMap::new();
    let mut at = start;
    let fate = loop {
        if at == head {
            break Fate::Head;
        }
        if let Some(f) = fates.get(&at) {
            break *f;
        }
        if on_walk.insert(at, ()).is_some() {
            // A loop: OLM v0 comes back here and never reaches the head.
            break Fate::Stops(at);
        }
        walked.push(at);
        match next(at) {
            Some(n) => at = n,
            None => break Fate::Stops(at),
        }
    };
    for n in walked {
        fates.insert(n, fate);
    }
    fate
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(entries: &str) -> Model {
        let text = format!(
            "{{\"schema\":\"olm.package\",\"name\":\"p\",\"defaultChannel\":\"s\"}}\n{{\"schema\":\"olm.channel\",\"package\":\"p\",\"name\":\"s\",\"entries\":[{entries}]}}\n"
        );
        let loaded = olmsat_catalog::load::load_bytes("c.json", text.as_bytes());
        Model::build(loaded.config).0
    }

    #[test]
    fn a_chain_to_the_head_warns_of_nothing() {
        let m = model(
            r#"{"name":"p.v1"},{"name":"p.v2","replaces":"p.v1"},{"name":"p.v3","replaces":"p.v2"}"#,
        );
        assert!(never_reaching_head(&m).is_empty());
    }

    #[test]
    fn replacing_and_skipping_the_predecessor_strands_the_ones_before() {
        // clusterpulse fast-v0's pattern: v3 replaces and skips v2, so OLM v0
        // never offers v2 and v1's users stay.
        let m = model(
            r#"{"name":"p.v1"},{"name":"p.v2","replaces":"p.v1"},{"name":"p.v3","replaces":"p.v2","skips":["p.v2"]}"#,
        );
        let found = never_reaching_head(&m);
        let names: Vec<_> = found.iter().map(|d| d.bundle.as_deref()).collect();
        assert_eq!(names, [Some("p.v1")]);
        let text = &found[0].message;
        assert!(text.starts_with("OLM v0 never takes users of p.v1 to the head p.v3 of channel s: dead end: OLM v0 offers no upgrade from the start; p.v2 (replaces declared at c.json:"), "{text}");
        assert!(
            text.contains("would take it but is never offered: skipped by p.v3"),
            "{text}"
        );
    }

    #[test]
    fn every_entry_left_behind_is_named() {
        let m = model(
            r#"{"name":"p.v0"},{"name":"p.v1","replaces":"p.v0"},{"name":"p.v2","replaces":"p.v1"},{"name":"p.v3","replaces":"p.v2","skips":["p.v2"]}"#,
        );
        let found = never_reaching_head(&m);
        let names: Vec<_> = found
            .iter()
            .map(|d| d.bundle.clone().unwrap_or_default())
            .collect();
        assert_eq!(names, ["p.v0", "p.v1"]);
        // p.v1 is not on the head's replaces chain (the chain ends at the
        // skipped p.v2), so OLM v0 does not offer it to p.v0 either.
        let text = &found[0].message;
        assert!(
            text.contains("p.v1 (replaces declared at c.json:"),
            "{text}"
        );
        assert!(text.contains("not on the head's replaces chain"), "{text}");
    }

    #[test]
    fn a_long_chain_is_linear() {
        // 20,000 entries whose walks all stop below a skipped entry.
        let n = 20_000;
        let mut entries = vec![r#"{"name":"p.v0"}"#.to_owned()];
        for i in 1..n {
            entries.push(format!(r#"{{"name":"p.v{i}","replaces":"p.v{}"}}"#, i - 1));
        }
        entries.push(format!(
            r#"{{"name":"p.v{n}","replaces":"p.v{}","skips":["p.v{}"]}}"#,
            n - 1,
            n - 1
        ));
        let m = model(&entries.join(","));
        assert_eq!(never_reaching_head(&m).len(), n - 1);
    }
}
