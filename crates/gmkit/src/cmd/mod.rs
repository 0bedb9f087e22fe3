//! One module per subcommand.

pub mod check;
pub mod decompile;
pub mod ds;
pub mod elephant;
pub mod folder;
pub mod gml;
pub mod ini;
pub mod render;
