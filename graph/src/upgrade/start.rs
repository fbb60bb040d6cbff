//! Where an upgrade starts: the installed bundle, given by name or by version.
//!
//! An installed bundle may have been pruned from the catalog since. Its name
//! still matches `replaces`/`skips` that mention it (such names are external
//! nodes of the graph), and its version still falls in `skipRange`s; so a start
//! need not be a node.

use petgraph::graph::NodeIndex;

use super::graph::ChannelGraph;
use olmsat_findings::suggest;
use olmsat_versions::version;

/// How the text given as the start was understood.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartMatch {
    /// The name of a node of the channel graph (an entry or an external name).
    NodeName,
    /// The name of a bundle of the package that the channel never mentions.
    BundleName,
    /// A version equal to the version of this node of the channel graph.
    NodeVersion,
    /// A version equal to that of a bundle of the package outside the channel.
    BundleVersion,
    /// A version no bundle of the package has (an installed, pruned version).
    PrunedVersion,
    /// A name no bundle of the package has (an installed CSV since pruned, as
    /// `status.installedCSV` holds it), named like the package's bundles; its
    /// version is read from the name, after the last `.v`. The start is a node
    /// when a `replaces` or `skips` still names it.
    NameVersion,
}

/// The installed bundle an upgrade starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Start {
    /// Its node, when it is one of the graph's nodes.
    pub node: Option<NodeIndex>,
    /// Its name, when known.
    pub name: Option<String>,
    /// Its version, when known.
    pub version: Option<semver::Version>,
    /// How it was found.
    pub matched: StartMatch,
}

impl Start {
    /// The start at node `n` of `graph`.
    pub fn node(graph: &ChannelGraph<'_>, n: NodeIndex) -> Start {
        let node = graph.node(n);
        Start {
            node: Some(n),
            name: Some(node.name.to_owned()),
            version: node.version.cloned(),
            matched: StartMatch::NodeName,
        }
    }

    /// A start known only by its version (a pruned bundle).
    pub fn version(version: semver::Version) -> Start {
        Start {
            node: None,
            name: None,
            version: Some(version),
            matched: StartMatch::PrunedVersion,
        }
    }

    /// The name, or else the version, for display.
    pub fn label(&self) -> String {
        match (&self.name, &self.version) {
            (Some(n), _) => n.clone(),
            (None, Some(v)) => v.to_string(),
            (None, None) => String::new(),
        }
    }
}

/// Why a start could not be found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// Neither a known name nor a version.
    #[error(
        "unknown bundle {name:?} in channel {channel:?} of package {package:?} (not a bundle name, nor a version); the channel has: {}",
        suggest::join_listed(.known)
    )]
    Unknown {
        /// The text given.
        name: String,
        /// Package.
        package: String,
        /// Channel.
        channel: String,
        /// The channel's bundle names, closest to `name` first.
        known: Vec<String>,
    },
    /// A version that several bundles have (they differ in build metadata only
    /// when the versions are compared exactly).
    #[error("version {version} is ambiguous: bundles {} have it; give a bundle name", .names.join(", "))]
    Ambiguous {
        /// The version.
        version: String,
        /// The bundles that have it, sorted.
        names: Vec<String>,
    },
}

/// The version a CSV name carries: strictly the semver after its last `.v`
/// (`etcdoperator.v0.9.4` -> 0.9.4), with the part before it.
pub fn version_in_name(name: &str) -> Option<(&str, semver::Version)> {
    let (prefix, v) = name.rsplit_once(".v")?;
    version::parse_strict(v).ok().map(|v| (prefix, v))
}

fn parse_version(text: &str) -> Option<semver::Version> {
    version::parse_strict(text).ok().or_else(|| {
        text.strip_prefix('v')
            .and_then(|t| version::parse_strict(t).ok())
    })
}

impl ChannelGraph<'_> {
    /// Find the start given as `text`: a name first (a node of this graph, then
    /// any bundle of the package), else a version (`v` prefix allowed): the node
    /// with exactly that version, else the package's bundle with it, else a
    /// pruned version that only `skipRange`s can match.
    ///
    /// A name that is no bundle of the package but is named like them
    /// (`<prefix>.v<semver>` with a prefix one of its bundles has) is an
    /// installed CSV since pruned: OLM matches its own version against
    /// `skipRange`s, so the version is read from the name
    /// ([`StartMatch::NameVersion`]).
    pub fn resolve_start(&self, text: &str) -> Result<Start, StartError> {
        let package = self.package();
        if let Some(n) = self.node_index(text) {
            let start = Start::node(self, n);
            if start.version.is_none() && package.bundle(text).is_none() {
                if let Some((_, v)) = version_in_name(text) {
                    return Ok(Start {
                        version: Some(v),
                        matched: StartMatch::NameVersion,
                        ..start
                    });
                }
            }
            return Ok(start);
        }
        if let Some(b) = package.bundle(text) {
            return Ok(Start {
                node: None,
                name: Some(b.name.clone()),
                version: b.version.clone(),
                matched: StartMatch::BundleName,
            });
        }
        if let Some((prefix, v)) = version_in_name(text) {
            let named_alike = package
                .bundles()
                .iter()
                .any(|b| version_in_name(&b.name).is_some_and(|(p, _)| p == prefix));
            if named_alike {
                return Ok(Start {
                    node: None,
                    name: Some(text.to_owned()),
                    version: Some(v),
                    matched: StartMatch::NameVersion,
                });
            }
        }
        let Some(v) = parse_version(text) else {
            let names = self.node_indices().map(|n| self.node(n).name);
            let known = suggest::closest(text, names)
                .into_iter()
                .map(str::to_owned)
                .collect();
            return Err(StartError::Unknown {
                name: text.to_owned(),
                package: package.name.clone(),
                channel: self.channel().name.clone(),
                known,
            });
        };
        let ambiguous = |mut names: Vec<String>| {
            names.sort();
            StartError::Ambiguous {
                version: v.to_string(),
                names,
            }
        };
        let nodes: Vec<_> = self
            .node_indices()
            .filter(|&n| self.node(n).version == Some(&v))
            .collect();
        match nodes.as_slice() {
            [n] => {
                return Ok(Start {
                    matched: StartMatch::NodeVersion,
                    ..Start::node(self, *n)
                })
            }
            [] => {}
            many => {
                return Err(ambiguous(
                    many.iter().map(|n| self.node(*n).name.to_owned()).collect(),
                ))
            }
        }
        let bundles: Vec<_> = package
            .bundles()
            .iter()
            .filter(|b| b.version.as_ref() == Some(&v))
            .collect();
        match bundles.as_slice() {
            [b] => Ok(Start {
                node: None,
                name: Some(b.name.clone()),
                version: Some(v),
                matched: StartMatch::BundleVersion,
            }),
            [] => Ok(Start::version(v)),
            many => Err(ambiguous(many.iter().map(|b| b.name.clone()).collect())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::upgrade::fixture::{package, stable};

    #[test]
    fn names_first_then_versions() {
        let p = package(&["a@1.0.0", "b@1.1.0<a", "c@1.2.0<b|gone", "!elsewhere@0.9.0"]);
        let g = ChannelGraph::build(&p, stable(&p));
        let s = g.resolve_start("b").ok();
        assert_eq!(s.as_ref().map(|s| s.matched), Some(StartMatch::NodeName));
        assert_eq!(s.and_then(|s| s.node), g.node_index("b"));
        // A pruned name that a skips still mentions is an external node.
        let s = g.resolve_start("gone").ok();
        assert_eq!(s.as_ref().and_then(|s| s.node), g.node_index("gone"));
        assert_eq!(s.and_then(|s| s.version), None);
        // A bundle of another channel.
        let s = g.resolve_start("elsewhere").ok();
        assert_eq!(s.as_ref().map(|s| s.matched), Some(StartMatch::BundleName));
        assert_eq!(
            s.and_then(|s| s.version).map(|v| v.to_string()),
            Some("0.9.0".into())
        );
        // Versions.
        let s = g.resolve_start("1.1.0").ok();
        assert_eq!(s.as_ref().map(|s| s.matched), Some(StartMatch::NodeVersion));
        assert_eq!(s.and_then(|s| s.node), g.node_index("b"));
        let s = g.resolve_start("v0.9.0").ok();
        assert_eq!(s.map(|s| s.matched), Some(StartMatch::BundleVersion));
        let s = g.resolve_start("1.0.5").ok();
        assert_eq!(s, Some(Start::version(semver::Version::new(1, 0, 5))));
    }

    #[test]
    fn pruned_csv_names_carry_their_version() {
        let p = package(&[
            "etcd.v1.1.0@1.1.0<etcd.v1.0.0",
            "etcd.v1.2.0@1.2.0<etcd.v1.1.0",
        ]);
        let g = ChannelGraph::build(&p, stable(&p));
        // A pruned name still named by a replaces: a node, with the name's version.
        let s = g.resolve_start("etcd.v1.0.0").ok();
        assert_eq!(s.as_ref().map(|s| s.matched), Some(StartMatch::NameVersion));
        assert_eq!(s.as_ref().and_then(|s| s.node), g.node_index("etcd.v1.0.0"));
        assert_eq!(
            s.and_then(|s| s.version).map(|v| v.to_string()),
            Some("1.0.0".into())
        );
        // A pruned name nothing names any more.
        let s = g.resolve_start("etcd.v0.9.0").ok();
        assert_eq!(s.as_ref().map(|s| s.matched), Some(StartMatch::NameVersion));
        assert_eq!(s.as_ref().and_then(|s| s.node), None);
        assert_eq!(s.and_then(|s| s.name), Some("etcd.v0.9.0".into()));
        // Strictly after the last `.v`, and only named like the package's bundles.
        assert!(g.resolve_start("etcd.v0.9").is_err());
        assert!(g.resolve_start("other.v0.9.0").is_err());
        assert_eq!(
            version_in_name("a.v1.b.v2.0.0").map(|(p, v)| (p, v.to_string())),
            Some(("a.v1.b", "2.0.0".into()))
        );
    }

    #[test]
    fn unknown_names_list_the_closest_first() {
        let p = package(&[
            "etcd.v1@1.0.0",
            "etcd.v2@2.0.0<etcd.v1",
            "zzz@3.0.0<etcd.v2",
        ]);
        let g = ChannelGraph::build(&p, stable(&p));
        let err = g.resolve_start("etcd.v3").err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some(
                "unknown bundle \"etcd.v3\" in channel \"stable\" of package \"p\" (not a bundle name, nor a version); the channel has: etcd.v1, etcd.v2, zzz"
            )
        );
    }

    #[test]
    fn equal_versions_are_ambiguous() {
        let p = package(&["a@1.0.0+1", "b@1.0.0+1<a"]);
        let g = ChannelGraph::build(&p, stable(&p));
        let err = g.resolve_start("1.0.0+1").err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("version 1.0.0+1 is ambiguous: bundles a, b have it; give a bundle name")
        );
        // Build metadata counts when matching a version to a bundle exactly.
        let s = g.resolve_start("1.0.0").ok();
        assert_eq!(s.map(|s| s.matched), Some(StartMatch::PrunedVersion));
    }
}
