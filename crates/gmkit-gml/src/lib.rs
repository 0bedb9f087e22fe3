//! GML for GameMaker data files: one syntax tree ([`ast`]) shared by a decompiler
//! (bytecode → tree → text, [`decompile`]) and, later, a compiler (text → tree → bytecode).
//!
//! ```no_run
//! let file = gmkit_data::parse_file("data.win").unwrap();
//! let game = gmkit_gml::Game::new(&file);
//! let out = gmkit_gml::decompile::decompile_entry(&game, 0).unwrap();
//! println!("{}", gmkit_gml::print::print_stmts(&out.body));
//! ```

#![warn(missing_docs)]

pub mod assets;
pub mod ast;
pub mod builtins;
pub mod check;
pub mod compile;
pub mod decompile;
pub mod entries;
pub mod features;
pub mod fold;
pub mod game;
pub mod lex;
pub mod limits;
pub mod macros;
pub mod names_file;
pub mod parse;
pub mod print;
pub mod project;
pub mod room_instance;
pub mod source;
pub mod visit;

pub use features::{Construct, Family, Features};
pub use game::Game;
