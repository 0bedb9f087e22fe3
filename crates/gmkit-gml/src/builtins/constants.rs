//! Built-in constants of GML and their values: the compiler inlines them as numbers (spec
//! `gml-bytecode.md` §8.2), so compiling real source needs the value of every name it uses,
//! and the decompiler names a number back when the context says which family it belongs to
//! ([`super::Kind`]).
//!
//! Built from facts, not from another tool's data file:
//! - the GameMaker manual's pages that list constants with their values: "Colour And Alpha"
//!   (`c_*`, values in decimal, e.g. a GMS2 manual mirror at kancloud.cn/lazyeo/gms2doc/649535),
//!   "Keyboard Input" (`vk_*` = Windows virtual-key codes), "Mouse Input" (`mb_*`), "Text
//!   alignment" (`fa_*`), "Blend mode constants" (`bm_*`), "Buffer data types" (`buffer_*`),
//!   "Gamepad input" (`gp_*`), "Event types" (`ev_*`), "ds types" (`ds_type_*`), "Cursor
//!   constants" (`cr_*`), "Primitive types" (`pr_*`), "Networking" (`network_type_*`);
//! - values observed in the corpus where the game's own source is available (the source says
//!   `c_red`, the bytecode pushes 255; `vk_enter` → 13; `fa_center` → 1; `buffer_u8` → 1;
//!   `gp_face1` → 32769; `window_command_close` → 61536, the Win32 `SC_CLOSE` the manual's
//!   "window_command_*" page refers to), checked by `gmkit gml check-source` on the `exact` projects.
//!
//! `true`, `false`, `self`, `other`, `all`, `noone` and `global` are handled by the
//! compiler itself (their code depends on the version).

use super::Kind;

/// A constant's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConstValue {
    /// An integer.
    Int(i64),
    /// A real number.
    Real(f64),
}

/// The value of built-in constant `name`, if it is one.
pub fn constant(name: &str) -> Option<ConstValue> {
    let by_table = TABLE
        .binary_search_by(|(n, _)| n.cmp(&name))
        .ok()
        .map(|i| ConstValue::Int(TABLE[i].1));
    by_table.or_else(|| generated(name)).or(match name {
        "pi" => Some(ConstValue::Real(std::f64::consts::PI)),
        "infinity" => Some(ConstValue::Real(f64::INFINITY)),
        "NaN" => Some(ConstValue::Real(f64::NAN)),
        _ => None,
    })
}

/// Whether the GameMaker manual lists `name` as a built-in constant, and the family of its
/// table (`"OS_Type"` for `os_android`; empty when the table names none). Many of them have
/// no value in [`constant`]: the manual gives names, not values, and the compiler refuses such
/// a name rather than take it for a new variable.
pub fn documented_constant(name: &str) -> Option<&'static str> {
    let t = super::generated::CONSTANT_NAMES;
    t.binary_search_by(|(n, _)| n.cmp(&name))
        .ok()
        .map(|i| t[i].1)
}

/// The family (kind) of built-in constant `name`, for the names a decompiler may print:
/// colours, keys, mouse buttons, alignments, event types, blend modes and factors, buffer data
/// types, kinds and seek bases, ds types, cursors, primitive types, gamepad buttons and axes.
/// `None` for a constant of no such family (`ev_step_normal`, an event number; `os_windows`)
/// and for a name that is not a constant.
pub fn constant_kind(name: &str) -> Option<Kind> {
    constant(name)?;
    let p = |prefix: &str| name.starts_with(prefix);
    Some(match name {
        "fa_left" | "fa_center" | "fa_right" => Kind::HAlign,
        "fa_top" | "fa_middle" | "fa_bottom" => Kind::VAlign,
        "bm_normal" | "bm_add" | "bm_max" | "bm_subtract" => Kind::BlendMode,
        "buffer_fixed" | "buffer_grow" | "buffer_wrap" | "buffer_fast" | "buffer_vbuffer"
        | "buffer_network" => Kind::BufferKind,
        "ev_create" | "ev_destroy" | "ev_alarm" | "ev_step" | "ev_collision" | "ev_keyboard"
        | "ev_mouse" | "ev_other" | "ev_draw" | "ev_keypress" | "ev_keyrelease" | "ev_trigger"
        | "ev_cleanup" | "ev_gesture" => Kind::EventType,
        _ if p("c_") => Kind::Colour,
        _ if p("vk_") => Kind::Key,
        _ if p("mb_") => Kind::MouseButton,
        _ if p("bm_") => Kind::BlendFactor,
        _ if p("buffer_seek_") => Kind::BufferSeek,
        _ if p("buffer_") => Kind::BufferType,
        _ if p("ds_type_") => Kind::DsType,
        _ if p("cr_") => Kind::Cursor,
        _ if p("pr_") => Kind::Primitive,
        _ if p("gp_") => Kind::Gamepad,
        _ => return None,
    })
}

/// Other spellings of a value that has a preferred name in its family: the decompiler prints
/// the manual's primary spelling (`c_gray`, `c_ltgray`, `vk_enter`, `bm_src_colour`).
const ALTERNATES: &[&str] = &[
    "bm_dest_color",
    "bm_inv_dest_color",
    "bm_inv_src_color",
    "bm_src_color",
    "c_dkgrey",
    "c_grey",
    "c_ltgrey",
    "c_silver",
    "vk_return",
];

/// The preferred name of `value` among the constants of family `kind` (`(Colour, 255)` →
/// `c_red`, `(Key, 13)` → `vk_enter`); `None` when the family has no name for it. Every name
/// returned gives `value` back through [`constant`].
pub fn constant_for(kind: Kind, value: i64) -> Option<&'static str> {
    if kind == Kind::Key {
        if (112..=123).contains(&value) {
            return VK_F.get((value - 112) as usize).copied();
        }
        if (96..=105).contains(&value) {
            return VK_NUMPAD.get((value - 96) as usize).copied();
        }
    }
    TABLE
        .iter()
        .filter(|(n, v)| *v == value && !ALTERNATES.contains(n))
        .map(|(n, _)| *n)
        .find(|n| constant_kind(n) == Some(kind))
}

const VK_F: [&str; 12] = [
    "vk_f1", "vk_f2", "vk_f3", "vk_f4", "vk_f5", "vk_f6", "vk_f7", "vk_f8", "vk_f9", "vk_f10",
    "vk_f11", "vk_f12",
];
const VK_NUMPAD: [&str; 10] = [
    "vk_numpad0",
    "vk_numpad1",
    "vk_numpad2",
    "vk_numpad3",
    "vk_numpad4",
    "vk_numpad5",
    "vk_numpad6",
    "vk_numpad7",
    "vk_numpad8",
    "vk_numpad9",
];

/// Families with a numbered pattern: `vk_f1`..`vk_f12`, `vk_numpad0`..9, `ev_user0`..15,
/// `ev_alarm`-style numbered events are in the table.
fn generated(name: &str) -> Option<ConstValue> {
    let num = |prefix: &str| -> Option<i64> {
        let d = name.strip_prefix(prefix)?;
        if d.is_empty() || !d.bytes().all(|b| b.is_ascii_digit()) || d.len() > 2 {
            return None;
        }
        d.parse().ok()
    };
    if let Some(k) = num("vk_f").filter(|k| (1..=12).contains(k)) {
        return Some(ConstValue::Int(111 + k));
    }
    if let Some(k) = num("vk_numpad").filter(|k| (0..=9).contains(k)) {
        return Some(ConstValue::Int(96 + k));
    }
    if let Some(k) = num("ev_user").filter(|k| (0..=15).contains(k)) {
        return Some(ConstValue::Int(10 + k));
    }
    None
}

/// Name → value, sorted by name (checked by a test).
const TABLE: &[(&str, i64)] = &[
    ("asset_font", 7),
    ("asset_object", 0),
    ("asset_path", 5),
    ("asset_room", 3),
    ("asset_script", 6),
    ("asset_shader", 10),
    ("asset_sound", 2),
    ("asset_sprite", 1),
    ("asset_tiles", 4),
    ("asset_timeline", 8),
    ("asset_unknown", -1),
    ("bm_add", 1),
    ("bm_dest_alpha", 7),
    ("bm_dest_color", 9),
    ("bm_dest_colour", 9),
    ("bm_inv_dest_alpha", 8),
    ("bm_inv_dest_color", 10),
    ("bm_inv_dest_colour", 10),
    ("bm_inv_src_alpha", 6),
    ("bm_inv_src_color", 4),
    ("bm_inv_src_colour", 4),
    ("bm_max", 2),
    ("bm_normal", 0),
    ("bm_one", 2),
    ("bm_src_alpha", 5),
    ("bm_src_alpha_sat", 11),
    ("bm_src_color", 3),
    ("bm_src_colour", 3),
    ("bm_subtract", 3),
    ("bm_zero", 1),
    ("browser_not_a_browser", -1),
    ("buffer_bool", 10),
    ("buffer_f16", 7),
    ("buffer_f32", 8),
    ("buffer_f64", 9),
    ("buffer_fast", 3),
    ("buffer_fixed", 0),
    ("buffer_grow", 1),
    ("buffer_network", 5),
    ("buffer_s16", 4),
    ("buffer_s32", 6),
    ("buffer_s8", 2),
    ("buffer_seek_end", 2),
    ("buffer_seek_relative", 1),
    ("buffer_seek_start", 0),
    ("buffer_string", 11),
    ("buffer_text", 13),
    ("buffer_u16", 3),
    ("buffer_u32", 5),
    ("buffer_u64", 12),
    ("buffer_u8", 1),
    ("buffer_vbuffer", 4),
    ("buffer_wrap", 2),
    ("c_aqua", 16776960),
    ("c_black", 0),
    ("c_blue", 16711680),
    ("c_dkgray", 4210752),
    ("c_dkgrey", 4210752),
    ("c_fuchsia", 16711935),
    ("c_gray", 8421504),
    ("c_green", 32768),
    ("c_grey", 8421504),
    ("c_lime", 65280),
    ("c_ltgray", 12632256),
    ("c_ltgrey", 12632256),
    ("c_maroon", 128),
    ("c_navy", 8388608),
    ("c_olive", 32896),
    ("c_orange", 4235519),
    ("c_purple", 8388736),
    ("c_red", 255),
    ("c_silver", 12632256),
    ("c_teal", 8421376),
    ("c_white", 16777215),
    ("c_yellow", 65535),
    ("cr_appstart", -19),
    ("cr_arrow", -2),
    ("cr_beam", -4),
    ("cr_cross", -3),
    ("cr_default", 0),
    ("cr_drag", -12),
    ("cr_handpoint", -21),
    ("cr_hourglass", -11),
    ("cr_none", -1),
    ("cr_size_all", -22),
    ("cr_size_nesw", -6),
    ("cr_size_ns", -7),
    ("cr_size_nwse", -8),
    ("cr_size_we", -9),
    ("cr_uparrow", -10),
    ("dll_cdecl", 0),
    ("dll_stdcall", 1),
    ("ds_type_grid", 5),
    ("ds_type_list", 2),
    ("ds_type_map", 1),
    ("ds_type_priority", 6),
    ("ds_type_queue", 4),
    ("ds_type_stack", 3),
    ("ev_alarm", 2),
    ("ev_animation_end", 7),
    ("ev_boundary", 1),
    ("ev_cleanup", 12),
    ("ev_close_button", 30),
    ("ev_collision", 4),
    ("ev_create", 0),
    ("ev_destroy", 1),
    ("ev_draw", 8),
    ("ev_draw_begin", 72),
    ("ev_draw_end", 73),
    ("ev_draw_post", 77),
    ("ev_draw_pre", 76),
    ("ev_end_of_path", 8),
    ("ev_game_end", 3),
    ("ev_game_start", 2),
    ("ev_gesture", 13),
    ("ev_gui", 64),
    ("ev_gui_begin", 74),
    ("ev_gui_end", 75),
    ("ev_keyboard", 5),
    ("ev_keypress", 9),
    ("ev_keyrelease", 10),
    ("ev_mouse", 6),
    ("ev_no_more_health", 9),
    ("ev_no_more_lives", 6),
    ("ev_other", 7),
    ("ev_outside", 0),
    ("ev_room_end", 5),
    ("ev_room_start", 4),
    ("ev_step", 3),
    ("ev_step_begin", 1),
    ("ev_step_end", 2),
    ("ev_step_normal", 0),
    ("ev_trigger", 11),
    ("fa_bottom", 2),
    ("fa_center", 1),
    ("fa_left", 0),
    ("fa_middle", 1),
    ("fa_right", 2),
    ("fa_top", 0),
    ("gamespeed_fps", 0),
    ("gamespeed_microseconds", 1),
    ("gp_axislh", 32785),
    ("gp_axislv", 32786),
    ("gp_axisrh", 32787),
    ("gp_axisrv", 32788),
    ("gp_face1", 32769),
    ("gp_face2", 32770),
    ("gp_face3", 32771),
    ("gp_face4", 32772),
    ("gp_padd", 32782),
    ("gp_padl", 32783),
    ("gp_padr", 32784),
    ("gp_padu", 32781),
    ("gp_select", 32777),
    ("gp_shoulderl", 32773),
    ("gp_shoulderlb", 32775),
    ("gp_shoulderr", 32774),
    ("gp_shoulderrb", 32776),
    ("gp_start", 32778),
    ("gp_stickl", 32779),
    ("gp_stickr", 32780),
    ("mb_any", -1),
    ("mb_left", 1),
    ("mb_middle", 3),
    ("mb_none", 0),
    ("mb_right", 2),
    ("mb_side1", 4),
    ("mb_side2", 5),
    ("network_socket_tcp", 0),
    ("network_socket_udp", 1),
    ("network_type_connect", 1),
    ("network_type_data", 3),
    ("network_type_disconnect", 2),
    ("network_type_non_blocking_connect", 4),
    ("os_macosx", 1),
    ("os_windows", 0),
    ("pr_linelist", 2),
    ("pr_linestrip", 3),
    ("pr_pointlist", 1),
    ("pr_trianglefan", 6),
    ("pr_trianglelist", 4),
    ("pr_trianglestrip", 5),
    // Observed: longdog (2024.13) `surface_create(w, h, surface_r8unorm)` pushes 12.
    ("surface_r8unorm", 12),
    ("tf_anisotropic", 2),
    ("tf_linear", 1),
    ("tf_point", 0),
    ("time_source_units_frames", 1),
    ("time_source_units_seconds", 0),
    ("ty_real", 0),
    ("ty_string", 1),
    ("vk_add", 107),
    ("vk_alt", 18),
    ("vk_anykey", 1),
    ("vk_backspace", 8),
    ("vk_control", 17),
    ("vk_decimal", 110),
    ("vk_delete", 46),
    ("vk_divide", 111),
    ("vk_down", 40),
    ("vk_end", 35),
    ("vk_enter", 13),
    ("vk_escape", 27),
    ("vk_home", 36),
    ("vk_insert", 45),
    ("vk_lalt", 164),
    ("vk_lcontrol", 162),
    ("vk_left", 37),
    ("vk_lshift", 160),
    ("vk_multiply", 106),
    ("vk_nokey", 0),
    ("vk_pagedown", 34),
    ("vk_pageup", 33),
    ("vk_pause", 19),
    ("vk_printscreen", 44),
    ("vk_ralt", 165),
    ("vk_rcontrol", 163),
    ("vk_return", 13),
    ("vk_right", 39),
    ("vk_rshift", 161),
    ("vk_shift", 16),
    ("vk_space", 32),
    ("vk_subtract", 109),
    ("vk_tab", 9),
    ("vk_up", 38),
    ("window_command_close", 61536),
    ("window_command_maximize", 61488),
    ("window_command_minimize", 61472),
    ("window_command_move", 61456),
    ("window_command_resize", 61440),
    ("window_command_restore", 61728),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_unique() {
        for w in TABLE.windows(2) {
            assert!(w[0].0 < w[1].0, "{} before {}", w[0].0, w[1].0);
        }
    }

    #[test]
    fn lookups() {
        assert_eq!(constant("c_white"), Some(ConstValue::Int(16777215)));
        assert_eq!(constant("vk_f12"), Some(ConstValue::Int(123)));
        assert_eq!(constant("vk_f13"), None);
        assert_eq!(constant("ev_user3"), Some(ConstValue::Int(13)));
        assert_eq!(constant("player"), None);
    }

    #[test]
    fn kinds_and_preferred_names() {
        assert_eq!(constant_kind("c_red"), Some(Kind::Colour));
        assert_eq!(constant_kind("vk_f3"), Some(Kind::Key));
        assert_eq!(constant_kind("fa_center"), Some(Kind::HAlign));
        assert_eq!(constant_kind("fa_middle"), Some(Kind::VAlign));
        assert_eq!(constant_kind("bm_add"), Some(Kind::BlendMode));
        assert_eq!(constant_kind("bm_zero"), Some(Kind::BlendFactor));
        assert_eq!(constant_kind("buffer_grow"), Some(Kind::BufferKind));
        assert_eq!(constant_kind("buffer_u8"), Some(Kind::BufferType));
        assert_eq!(constant_kind("ev_step"), Some(Kind::EventType));
        assert_eq!(constant_kind("ev_step_end"), None);
        assert_eq!(constant_kind("c_nothing"), None);
        assert_eq!(constant_for(Kind::Colour, 16777215), Some("c_white"));
        assert_eq!(constant_for(Kind::Colour, 12632256), Some("c_ltgray"));
        assert_eq!(constant_for(Kind::Colour, 8421504), Some("c_gray"));
        assert_eq!(constant_for(Kind::Colour, 123456), None);
        assert_eq!(constant_for(Kind::Key, 13), Some("vk_enter"));
        assert_eq!(constant_for(Kind::Key, 115), Some("vk_f4"));
        assert_eq!(constant_for(Kind::Key, 98), Some("vk_numpad2"));
        assert_eq!(constant_for(Kind::HAlign, 1), Some("fa_center"));
        assert_eq!(constant_for(Kind::VAlign, 1), Some("fa_middle"));
        assert_eq!(constant_for(Kind::BlendMode, 1), Some("bm_add"));
        assert_eq!(constant_for(Kind::BlendFactor, 1), Some("bm_zero"));
        assert_eq!(constant_for(Kind::BlendFactor, 3), Some("bm_src_colour"));
        assert_eq!(constant_for(Kind::Real, 1), None);
    }

    /// Every constant of a family: value → preferred name → the same value, and the name is
    /// of the same family.
    #[test]
    fn every_kind_round_trips() {
        let names = TABLE
            .iter()
            .map(|(n, _)| n.to_string())
            .chain((1..=12).map(|k| format!("vk_f{k}")))
            .chain((0..=9).map(|k| format!("vk_numpad{k}")));
        let mut checked = 0;
        for n in names {
            let Some(kind) = constant_kind(&n) else {
                continue;
            };
            let Some(ConstValue::Int(v)) = constant(&n) else {
                panic!("{n} has a kind but no integer value");
            };
            let back = constant_for(kind, v).unwrap_or_else(|| panic!("{n}: no name for {v}"));
            assert_eq!(constant(back), Some(ConstValue::Int(v)), "{n} -> {back}");
            assert_eq!(constant_kind(back), Some(kind), "{n} -> {back}");
            checked += 1;
        }
        assert!(checked > 150, "{checked}");
    }
}
