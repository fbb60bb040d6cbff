//! One module per subcommand.

pub mod bundle;
pub mod catalog;
pub mod diff;
pub mod graph;
pub mod list;
pub mod path;
pub mod render;
pub mod resolve;
pub mod synthetic;
pub mod validate;
