//! One module per subcommand.

pub mod bundle;
pub mod catalog;
pub mod compare;
pub mod graph;
pub mod list;
pub mod path;
pub mod render;
pub mod resolve;
pub mod synthetic;
pub mod v1;
pub mod validate;
