//! One module per subcommand.

pub mod bundle;
pub mod catalog;
pub mod list;
pub mod render;
pub mod resolve;
pub mod synthetic;
pub mod validate;
