//! Built-in functions and variables with the kinds of their values.
//!
//! Sources: the GameMaker manual's function pages (each lists a function's arguments with
//! their types and its return type; `YoYoGames/GameMaker-Manual`), its pages on instance and
//! global variables, and for GameMaker Studio 1.4 built-ins the corpus games with their own
//! source (`../shared/sources`). Facts only: names and kinds, no text. The tables are
//! `generated.rs`, written by `scripts/builtins-from-manual.py` (its header says how).

use super::Kind;

/// A built-in function: what its arguments and its result are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Function {
    /// Its name.
    pub name: &'static str,
    /// The kinds of its arguments, in order.
    pub args: &'static [Kind],
    /// Whether the last argument kind repeats (`ds_list_add(list, value...)`).
    pub variadic: bool,
    /// The kind of its result.
    pub returns: Kind,
}

impl Function {
    /// The kind of argument `i` (0-based), following a variadic tail.
    pub fn arg(&self, i: usize) -> Kind {
        match self.args.get(i) {
            Some(k) => *k,
            None if self.variadic => self.args.last().copied().unwrap_or(Kind::Any),
            None => Kind::Any,
        }
    }
}

/// Where a built-in variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Every instance has its own (`x`, `sprite_index`, `image_angle`).
    Instance,
    /// One for the game (`room`, `score`, `keyboard_key`).
    Global,
}

/// A built-in variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variable {
    /// Its name.
    pub name: &'static str,
    /// Instance or global.
    pub scope: Scope,
    /// The kind of its value.
    pub kind: Kind,
    /// Whether code may only read it.
    pub read_only: bool,
    /// Whether it is an array (`alarm[0]`, `view_xview[0]`).
    pub array: bool,
}

/// The built-in function `name`, if it is one.
pub fn function(name: &str) -> Option<&'static Function> {
    FUNCTIONS
        .binary_search_by(|f| f.name.cmp(name))
        .ok()
        .map(|i| &FUNCTIONS[i])
}

/// The built-in variable `name`, if it is one.
pub fn variable(name: &str) -> Option<&'static Variable> {
    VARIABLES
        .binary_search_by(|v| v.name.cmp(name))
        .ok()
        .map(|i| &VARIABLES[i])
}

use super::generated::{FUNCTIONS, VARIABLES};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AssetKind as A;
    use Kind::*;

    #[test]
    fn tables_are_sorted_and_unique() {
        for w in FUNCTIONS.windows(2) {
            assert!(w[0].name < w[1].name, "{} before {}", w[0].name, w[1].name);
        }
        for w in VARIABLES.windows(2) {
            assert!(w[0].name < w[1].name, "{} before {}", w[0].name, w[1].name);
        }
    }

    #[test]
    fn lookups() {
        let k = function("keyboard_check").unwrap();
        assert_eq!(k.arg(0), Key);
        assert_eq!(k.arg(1), Any);
        assert_eq!(variable("sprite_index").unwrap().kind, Asset(A::Sprite));
        assert_eq!(variable("room").unwrap().scope, Scope::Global);
        assert!(function("scr_player_move").is_none());
        // From the manual's argument and result types.
        let d = function("draw_set_colour").unwrap();
        assert_eq!((d.arg(0), d.returns), (Colour, Any));
        assert_eq!(function("draw_set_color").unwrap().args, d.args);
        assert_eq!(function("instance_exists").unwrap().returns, Bool);
        assert_eq!(function("place_meeting").unwrap().arg(2), Instance);
        assert_eq!(function("draw_set_halign").unwrap().arg(0), HAlign);
        let add = function("ds_list_add").unwrap();
        assert!(add.variadic);
        assert_eq!(add.arg(7), add.arg(2));
        // GMS 1.4 built-ins the manual no longer lists.
        assert_eq!(
            function("instance_create").unwrap().arg(2),
            Asset(A::Object)
        );
        assert_eq!(function("sound_play").unwrap().arg(0), Asset(A::Sound));
        let xv = variable("view_xview").unwrap();
        assert!(xv.array && xv.scope == Scope::Global);
        assert_eq!(variable("image_blend").unwrap().kind, Colour);
        assert_eq!(variable("keyboard_key").unwrap().kind, Key);
        assert!(variable("mouse_x").unwrap().read_only);
        assert!(!variable("x").unwrap().read_only);
        // The manual says "not read only"; the corpus games write `mouse_button`.
        assert!(!variable("keyboard_string").unwrap().read_only);
        assert!(!variable("mouse_button").unwrap().read_only);
        assert_eq!(variable("alarm").unwrap().kind, Real);
        // "Sound Asset or Sound Instance ID": a literal there is the asset.
        assert_eq!(
            function("audio_play_sound").unwrap().arg(0),
            Asset(A::Sound)
        );
        assert_eq!(variable("object_index").unwrap().scope, Scope::Instance);
        assert!(FUNCTIONS.len() > 2000 && VARIABLES.len() > 150);
    }
}
