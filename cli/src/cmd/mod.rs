//! One module per subcommand.

pub mod list;
pub mod render;
pub mod validate;
