//! Built-in functions and variables with the kinds of their values.
//!
//! Sources: the GameMaker manual's function pages (each lists a function's arguments with
//! their types and its return type; `YoYoGames/GameMaker-Manual`), its pages on instance and
//! global variables, and for GameMaker Studio 1.4 built-ins the corpus games with their own
//! source (`../shared/sources`). Facts only: names and kinds, no text.

use super::Kind;
use crate::game::AssetKind;

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

use AssetKind as A;
use Kind::*;

const fn f(name: &'static str, args: &'static [Kind], returns: Kind) -> Function {
    Function {
        name,
        args,
        variadic: false,
        returns,
    }
}

const fn v(name: &'static str, scope: Scope, kind: Kind) -> Variable {
    Variable {
        name,
        scope,
        kind,
        read_only: false,
        array: false,
    }
}

/// Built-in functions, sorted by name (checked by a test). A seed to be completed from the
/// manual.
const FUNCTIONS: &[Function] = &[
    f("draw_set_colour", &[Colour], Any),
    f("draw_set_halign", &[HAlign], Any),
    f("draw_set_valign", &[VAlign], Any),
    f("draw_sprite", &[Asset(A::Sprite), Real, Real, Real], Any),
    f("instance_create", &[Real, Real, Asset(A::Object)], Instance),
    f("instance_exists", &[Instance], Bool),
    f("keyboard_check", &[Key], Bool),
    f("keyboard_check_pressed", &[Key], Bool),
    f("ord", &[String], Key),
    f("place_meeting", &[Real, Real, Instance], Bool),
    f("room_goto", &[Asset(A::Room)], Any),
];

/// Built-in variables, sorted by name (checked by a test). A seed to be completed from the
/// manual.
const VARIABLES: &[Variable] = &[
    v("image_angle", Scope::Instance, Real),
    v("image_blend", Scope::Instance, Colour),
    v("object_index", Scope::Instance, Asset(A::Object)),
    v("room", Scope::Global, Asset(A::Room)),
    v("sprite_index", Scope::Instance, Asset(A::Sprite)),
    v("x", Scope::Instance, Real),
    v("y", Scope::Instance, Real),
];

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
