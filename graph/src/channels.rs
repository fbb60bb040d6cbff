//! A channel's upgrade graph from a catalog or its model.

use olmsat_catalog::{Catalog, Model};
use olmsat_findings::suggest;

use crate::upgrade::{
    select_channel, ChannelGraph, NodeIndex, SelectError, StartError, TooManyEdges,
};

/// Upgrade graphs of a catalog's channels.
pub trait ChannelGraphs {
    /// The upgrade graph of a channel of `package`: `channel`, or the
    /// package's default channel when `None`.
    ///
    /// # Errors
    ///
    /// An unknown package or channel (with the closest names there are), or
    /// a channel whose `skipRange`s make too many edges.
    fn channel_graph(
        &self,
        package: &str,
        channel: Option<&str>,
    ) -> Result<ChannelGraph<'_>, ChannelError>;
}

impl ChannelGraphs for Model {
    fn channel_graph(
        &self,
        package: &str,
        channel: Option<&str>,
    ) -> Result<ChannelGraph<'_>, ChannelError> {
        let (package, channel) = select_channel(self, package, channel)?;
        Ok(ChannelGraph::build(package, channel).complete()?)
    }
}

impl ChannelGraphs for Catalog {
    fn channel_graph(
        &self,
        package: &str,
        channel: Option<&str>,
    ) -> Result<ChannelGraph<'_>, ChannelError> {
        self.model().channel_graph(package, channel)
    }
}

/// Why [`ChannelGraphs::channel_graph`] gave no graph.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChannelError {
    /// No such package or channel.
    #[error(transparent)]
    Select(#[from] SelectError),
    /// The channel's graph would be too large.
    #[error(transparent)]
    TooManyEdges(#[from] TooManyEdges),
}

/// The node of the bundle called `name` in `graph`, as the target of a path.
///
/// # Errors
///
/// [`StartError::Unknown`] naming the closest bundle names of the channel.
pub fn target_node(graph: &ChannelGraph<'_>, name: &str) -> Result<NodeIndex, StartError> {
    graph.node_index(name).ok_or_else(|| StartError::Unknown {
        name: name.to_owned(),
        package: graph.package().name.clone(),
        channel: graph.channel().name.clone(),
        known: suggest::closest(name, graph.node_indices().map(|n| graph.node(n).name))
            .into_iter()
            .map(str::to_owned)
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ETCD: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/catalogs/etcd-example"
    );

    #[test]
    fn an_unknown_channel_names_the_known_ones() {
        let catalog = Catalog::open(&[ETCD]).expect("valid");
        let err = catalog
            .channel_graph("etcd", Some("stabel"))
            .expect_err("unknown channel");
        assert!(err.to_string().contains("stable"), "{err}");
    }

    #[test]
    fn an_unknown_target_names_the_closest_bundles() {
        let catalog = Catalog::open(&[ETCD]).expect("valid");
        let graph = catalog
            .channel_graph("etcd", Some("stable"))
            .expect("a channel");
        let err = target_node(&graph, "etcdoperator.v0.9.6").expect_err("unknown");
        assert!(err.to_string().contains("etcdoperator.v0.9.5"), "{err}");
        let head = graph.head().expect("a head");
        assert_eq!(target_node(&graph, graph.node(head).name), Ok(head));
    }
}
