//! One module per subcommand.

pub mod graph;
pub mod list;
pub mod path;
pub mod render;
pub mod validate;
