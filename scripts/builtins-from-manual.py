#!/usr/bin/env python3
"""Generates crates/gmkit-gml/src/builtins/generated.rs: GML's built-in functions (argument
kinds, variadic, result kind) and built-in variables (scope, kind, read-only, array) as facts
taken from the GameMaker manual's source, plus the GameMaker Studio 1.4 built-ins the manual no
longer lists (taken from what the corpus GMS1 games' own sources call).

Run by hand (the output is committed; only names and kinds are written, never the manual's text):

    python3 scripts/builtins-from-manual.py \
        /work/.mirror/YoYoGames+GameMaker-Manual/repo  /work/shared/sources \
        > crates/gmkit-gml/src/builtins/generated.rs

The first argument is a git directory of github.com/YoYoGames/GameMaker-Manual (read with
`git show HEAD:...`); the second the folder of the corpus games' sources (only used to list
which GMS1 names are called: the kinds of the GMS1-only names are the table `LEGACY` below,
written from the GMS 1.4 manual's signatures; the script lists on stderr the names those
sources call that neither table has).

How the manual is read: every page under `Manual/contents/GameMaker_Language/GML_Reference`
with a "Syntax:" heading. A syntax line `name(a, [b], ...)` makes a function; its argument
table's "Type" column names the type through `data-keyref="Type_..."` attributes, which
`KEYREF` maps to a `Kind` (several types in one cell: an object or an instance is `Instance`,
anything else mixed is `Any`). A table headed by a constant type (or a `Constant` column)
lists constants: their names go to `CONSTANT_NAMES` (the manual gives no values). A syntax line `name;` or `name[i];` makes a variable: instance
scope when the page is under an `*Instance_Variables*` folder (or the name is in
`INSTANCE_VARS`), global otherwise; read-only when the page says so; its kind from "Returns:".
"""
import html
import re
import subprocess
import sys
from pathlib import Path

KEYREF = {
    "Type_Real": "Real", "Type_Real_Datetime": "Real", "Type_Real_int64": "Real",
    "Type_Real_Tile_Data": "Real",
    "Type_Bool": "Bool", "Type_String": "String",
    "Type_Array": "Array", "Type_Array_Matrix": "Array",
    "Type_Method": "Method", "Type_Function": "Method", "Type_Function_Script": "Method",
    "Type_Constant_Colour": "Colour", "Type_Constant_VK": "Key",
    "Type_Constant_Mouse_Button": "MouseButton",
    "Type_Constant_Draw_HAlign": "HAlign", "Type_Constant_Draw_VAlign": "VAlign",
    "Type_Constant_Event_Type": "EventType",
    "Type_Constant_Draw_Blend_Mode": "BlendMode",
    "Type_Constant_Draw_Blend_Mode_Factor": "BlendFactor",
    "Type_Constant_Buffer_Data_Type": "BufferType", "Type_Constant_Buffer_Type": "BufferKind",
    "Type_Constant_Buffer_Seek": "BufferSeek", "Type_Constant_DS_Type": "DsType",
    "Type_Constant_Cursor": "Cursor", "Type_Constant_Draw_Primitive_Type": "Primitive",
    "Type_Constant_Gamepad_Button": "Gamepad", "Type_Constant_Gamepad_Axis": "Gamepad",
    "Type_ID_Instance": "Instance", "Type_ID_noone": "Instance",
    "Type_Asset_Object": "Asset(A::Object)", "Type_Asset_Sprite": "Asset(A::Sprite)",
    "Type_Asset_Sound": "Asset(A::Sound)", "Type_Asset_Room": "Asset(A::Room)",
    "Type_Asset_Path": "Asset(A::Path)", "Type_Asset_Font": "Asset(A::Font)",
    "Type_Asset_Timeline": "Asset(A::Timeline)", "Type_Asset_Shader": "Asset(A::Shader)",
    "Type_Asset_Tile_Set": "Asset(A::Background)", "Type_Asset_Sequence": "Asset(A::Sequence)",
    "Type_Asset_Animation_Curve": "Asset(A::AnimCurve)",
    "Type_Asset_ParticleSystem": "Asset(A::ParticleSystem)",
    "Type_Asset_Script": "Asset(A::Script)",
}
# Struct types and handles (ds ids, buffers, surfaces, ...) are plain values: no names.
PREFIX = [("Type_Struct", "Struct"), ("Type_ID_", "Real"), ("Type_Handle", "Real"),
          ("Type_Pointer", "Real")]

# Instance variables documented outside an `Instance_Variables` folder.
INSTANCE_VARS = {
    "sprite_index", "image_index", "image_speed", "image_number", "image_xscale",
    "image_yscale", "image_angle", "image_alpha", "image_blend", "sprite_width",
    "sprite_height", "sprite_xoffset", "sprite_yoffset", "mask_index", "path_index",
    "path_position", "path_positionprevious", "path_speed", "path_scale", "path_orientation",
    "path_endaction", "timeline_index", "timeline_position", "timeline_speed",
    "timeline_running", "timeline_loop", "layer", "in_sequence", "sequence_instance",
    "drawn_by_sequence", "on_ui_layer", "object_index", "id", "visible", "solid",
    "persistent", "depth",
}

# GameMaker Studio 1.4 built-ins the current manual no longer lists, with their kinds (from
# the GMS 1.4 manual's signatures); the corpus GMS1 sources' calls say which ones are missing.
LEGACY_FUNCS = {
    "instance_create": (["Real", "Real", "Asset(A::Object)"], "Instance"),
    "draw_background": (["Asset(A::Background)", "Real", "Real"], "Any"),
    "draw_background_ext": (["Asset(A::Background)", "Real", "Real", "Real", "Real", "Real",
                             "Colour", "Real"], "Any"),
    "draw_background_part": (["Asset(A::Background)"] + ["Real"] * 6, "Any"),
    "draw_background_part_ext": (["Asset(A::Background)"] + ["Real"] * 8 + ["Colour", "Real"],
                                 "Any"),
    "draw_background_stretched": (["Asset(A::Background)"] + ["Real"] * 4, "Any"),
    "draw_background_stretched_ext": (["Asset(A::Background)"] + ["Real"] * 4
                                      + ["Colour", "Real"], "Any"),
    "draw_background_tiled": (["Asset(A::Background)", "Real", "Real"], "Any"),
    "draw_background_tiled_ext": (["Asset(A::Background)"] + ["Real"] * 4
                                  + ["Colour", "Real"], "Any"),
    "background_get_width": (["Asset(A::Background)"], "Real"),
    "background_get_height": (["Asset(A::Background)"], "Real"),
    "background_exists": (["Asset(A::Background)"], "Bool"),
    "background_get_texture": (["Asset(A::Background)"], "Real"),
    "background_get_name": (["Asset(A::Background)"], "String"),
    "sound_play": (["Asset(A::Sound)"], "Any"),
    "sound_loop": (["Asset(A::Sound)"], "Any"),
    "sound_stop": (["Asset(A::Sound)"], "Any"),
    "sound_stop_all": ([], "Any"),
    "sound_isplaying": (["Asset(A::Sound)"], "Bool"),
    "sound_volume": (["Asset(A::Sound)", "Real"], "Any"),
    "sound_global_volume": (["Real"], "Any"),
    "draw_set_blend_mode": (["BlendMode"], "Any"),
    "draw_set_blend_mode_ext": (["BlendFactor", "BlendFactor"], "Any"),
    "action_set_relative": (["Bool"], "Any"),
    "tile_add": (["Asset(A::Background)"] + ["Real"] * 7, "Real"),
    "instance_deactivate_object": (["Instance"], "Any"),
    "instance_activate_object": (["Instance"], "Any"),
    "object_is_ancestor": (["Asset(A::Object)", "Asset(A::Object)"], "Bool"),
    "execute_string": (["String"], "Any"),
    "d3d_start": ([], "Any"), "d3d_end": ([], "Any"),
    "joystick_exists": (["Real"], "Bool"),
    "keyboard_check_direct": (["Key"], "Bool"),
    "window_set_region_scale": (["Real", "Bool"], "Any"),
    "draw_text_ext_transformed_colour": (["Real", "Real", "String", "Real", "Real", "Real",
                                          "Real", "Real", "Colour", "Colour", "Colour",
                                          "Colour", "Real"], "Any"),
}
# What `s[$ k]` and `s[$ k] = v` compile to from 2.3 on (the corpus: tiktaktoe-gm-network 2022.9,
# ooo-kaizo and tebak-lagu 2023+ call these for `[$`); the current manual lists the functions
# under their newer names (`struct_get`, `struct_set`) only.
ACCESSOR_FUNCS = {
    "variable_struct_get": (["Struct", "String"], "Any"),
    "variable_struct_set": (["Struct", "String", "Any"], "Any"),
}
LEGACY_VARS = {
    # name: (scope, kind, read_only, array)
    "background_index": ("Global", "Asset(A::Background)", False, True),
    "background_visible": ("Global", "Bool", False, True),
    "background_foreground": ("Global", "Bool", False, True),
    "background_x": ("Global", "Real", False, True),
    "background_y": ("Global", "Real", False, True),
    "background_hspeed": ("Global", "Real", False, True),
    "background_vspeed": ("Global", "Real", False, True),
    "background_colour": ("Global", "Colour", False, False),
    "background_color": ("Global", "Colour", False, False),
    "background_showcolour": ("Global", "Bool", False, False),
    "background_showcolor": ("Global", "Bool", False, False),
    "view_xview": ("Global", "Real", False, True),
    "view_yview": ("Global", "Real", False, True),
    "view_wview": ("Global", "Real", False, True),
    "view_hview": ("Global", "Real", False, True),
    "view_angle": ("Global", "Real", False, True),
    "view_hborder": ("Global", "Real", False, True),
    "view_vborder": ("Global", "Real", False, True),
    "view_hspeed": ("Global", "Real", False, True),
    "view_vspeed": ("Global", "Real", False, True),
    "view_object": ("Global", "Instance", False, True),
    "score": ("Global", "Real", False, False),
    "lives": ("Global", "Real", False, False),
    "health": ("Global", "Real", False, False),
    "show_score": ("Global", "Bool", False, False),
    "show_lives": ("Global", "Bool", False, False),
    "show_health": ("Global", "Bool", False, False),
    "caption_score": ("Global", "String", False, False),
    "caption_lives": ("Global", "String", False, False),
    "caption_health": ("Global", "String", False, False),
    "room_caption": ("Global", "String", False, False),
    "room_persistent": ("Global", "Bool", False, False),
    "room_speed": ("Global", "Real", False, False),
    "secure_mode": ("Global", "Bool", True, False),
    "transition_kind": ("Global", "Real", False, False),
    "visible": ("Instance", "Bool", False, False),
    "solid": ("Instance", "Bool", False, False),
    "persistent": ("Instance", "Bool", False, False),
    "depth": ("Instance", "Real", False, False),
    "object_index": ("Instance", "Asset(A::Object)", True, False),
}


# Variables the manual calls read-only that the corpus games assign (and GameMaker's runtime
# accepts): the manual's word loses to what real files do.
WRITABLE = {"mouse_button": False}
# Variables whose page has no "Returns:" type the kinds table can read; the kind the manual's
# text gives (an alarm's value is a number of steps).
KIND_FIXES = {"alarm": "Real"}


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True,
                          text=True, errors="replace").stdout


def text(s):
    return html.unescape(re.sub(r"<[^>]*>", "", s)).replace("\xa0", " ").strip()


def kind_of(cell):
    refs = re.findall(r'data-keyref="(Type_[A-Za-z0-9_]*)"', cell)
    kinds = []
    for r in refs:
        k = KEYREF.get(r)
        if k is None:
            k = next((v for p, v in PREFIX if r.startswith(p)), "Any")
        if r == "Type_Void":
            k = "Any"
        kinds.append(k)
    kinds = sorted(set(kinds))
    if not kinds:
        return "Any"
    if len(kinds) == 1:
        return kinds[0]
    if "Instance" in kinds or "Asset(A::Object)" in kinds:
        # An object or an instance (or a tilemap, an array of them...): a number there is
        # an object index or an instance id.
        return "Instance"
    assets = [k for k in kinds if k.startswith("Asset(")]
    others = [r for r in refs if not KEYREF.get(r, "").startswith("Asset(")]
    if len(assets) == 1 and all(r.startswith("Type_ID_") for r in others):
        # An asset or a runtime handle of it (a sound asset or a playing sound's id): a
        # literal there is the asset.
        return assets[0]
    return "Any"


def section(page, heading):
    m = re.search(r"<h4>(?:<b>)?\s*" + heading + r"\s*:?\s*(?:</b>)?</h4>(.*?)(?=<h4>|$)", page,
                  re.S)
    return m.group(1) if m else ""


def parse_page(path, page, funcs, vars_):
    syn = section(page, "Syntax")
    if not syn:
        return
    codes = [text(c) for c in re.findall(r'<p class="code">(.*?)</p>', syn, re.S)]
    ret = kind_of(section(page, "Returns"))
    rows = []
    table = re.search(r"<table>(.*?)</table>", syn, re.S)
    if table:
        for tr in re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S):
            tds = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
            if len(tds) >= 2:
                rows.append((text(tds[0]), kind_of(tds[1])))
    for code in codes:
        code = code.replace("\n", " ").strip()
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\)\s*;?$", code)
        if m:
            name, args = m.group(1), m.group(2)
            if name in funcs:
                continue
            variadic = "..." in args or any("..." in r[0] for r in rows)
            kinds = [k for _, k in rows]
            if not kinds:
                n = len([a for a in args.split(",") if a.strip()])
                kinds = ["Any"] * n
            funcs[name] = (kinds, variadic, ret)
            continue
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(\[[^\]]*\])?(\[[^\]]*\])?\s*;?$", code)
        if m and m.group(1) not in vars_:
            name = m.group(1)
            scope = "Instance" if ("Instance_Variables" in path or name in INSTANCE_VARS) \
                else "Global"
            # "This read-only variable ..." / "... is read only": the page's first paragraph;
            # "not a read-only variable" and "read-only during Draw events" are not.
            first = re.search(r"<p>(.*?)</p>", page[page.find("<h1"):], re.S)
            first = text(first.group(1)).lower() if first else ""
            ro = bool(re.search(r"read[- ]only", first)) \
                and not re.search(r"not (a )?read[- ]only", first)
            ro = WRITABLE.get(name, ro)
            vars_[name] = (scope, KIND_FIXES.get(name, ret), ro, m.group(2) is not None)


def parse_constants(page, consts):
    """The constants a page lists: the names in the first cells of a table headed by a
    constant type (`data-keyref="Type_Constant_..."`, its family) or by a `Constant` column
    (`vk_numpad0 ... vk_numpad9` gives its two ends). Names only: the manual gives no values."""
    for table in re.findall(r"<table[^>]*>(.*?)</table>", page, re.S):
        rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)
        head = " ".join(r for r in rows if "<th" in r)
        fam = re.search(r'data-keyref="Type_Constant_([A-Za-z0-9_]*)"', table.split("<td")[0])
        if not fam and not re.search(r"<th[^>]*>\s*Constant\s*</th>", head):
            continue
        family = fam.group(1) if fam else ""
        for tr in rows:
            td = re.match(r"\s*<td[^>]*>(.*?)</td>", tr, re.S)
            if not td:
                continue
            for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text(td.group(1))):
                if "_" in name.strip("_"):
                    consts.setdefault(name, family)


def gms1_calls(sources):
    """Names called as functions in the GMS1 projects' own GML (scripts excluded)."""
    names, scripts = set(), set()
    for proj in ("jtool", "j2l-expansion", "tricking-the-vikings", "bubblinaway", "the-game"):
        root = Path(sources) / proj
        for f in root.rglob("*"):
            if f.suffix not in (".gml", ".gmx") or not f.is_file():
                continue
            if f.suffix == ".gml":
                scripts.add(f.stem)
            t = f.read_text(errors="replace")
            names.update(re.findall(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(", t))
    return names - scripts


def rust(funcs, vars_, consts):
    out = ["// @generated by scripts/builtins-from-manual.py from the GameMaker manual's source",
           "// (names and kinds only) and the GMS 1.4 built-ins the corpus GMS1 sources call.",
           "// Do not edit by hand: change the script and run it again.", "",
           "use super::Kind::*;", "use super::signatures::{Function, Scope, Variable};",
           "use crate::game::AssetKind as A;", "",
           "/// Built-in functions, sorted by name.",
           "pub(super) const FUNCTIONS: &[Function] = &["]
    for name in sorted(funcs):
        kinds, variadic, ret = funcs[name]
        out.append(f'    Function {{ name: "{name}", args: &[{", ".join(kinds)}], '
                   f'variadic: {str(variadic).lower()}, returns: {ret} }},')
    out += ["];", "", "/// Built-in variables, sorted by name.",
            "pub(super) const VARIABLES: &[Variable] = &["]
    for name in sorted(vars_):
        scope, kind, ro, arr = vars_[name]
        out.append(f'    Variable {{ name: "{name}", scope: Scope::{scope}, kind: {kind}, '
                   f'read_only: {str(ro).lower()}, array: {str(arr).lower()} }},')
    out += ["];", "",
            "/// Built-in constants the manual lists (name, the family of its table: the part after",
            "/// `Type_Constant_`, or empty), sorted by name. The manual gives no values: those the",
            "/// compiler knows are in `constants.rs`.",
            "pub(super) const CONSTANT_NAMES: &[(&str, &str)] = &["]
    for name in sorted(consts):
        out.append(f'    ("{name}", "{consts[name]}"),')
    out.append("];")
    return "\n".join(out) + "\n"


def main():
    manual, sources = sys.argv[1], sys.argv[2]
    files = [p for p in git(manual, "ls-tree", "-r", "--name-only", "HEAD").splitlines()
             if p.startswith("Manual/contents/GameMaker_Language/GML_Reference/")
             and p.endswith(".htm")]
    funcs, vars_, consts = {}, {}, {}
    for p in sorted(files):
        page = git(manual, "show", "HEAD:" + p)
        parse_page(p, page, funcs, vars_)
        parse_constants(page, consts)
    # Constant tables shared by several pages live in snippets.
    for p in git(manual, "ls-tree", "-r", "--name-only", "HEAD").splitlines():
        if p.startswith("Manual/contents/assets/snippets/") and p.endswith(".hts"):
            parse_constants(git(manual, "show", "HEAD:" + p), consts)
    called = gms1_calls(sources)
    for name, (args, ret) in list(LEGACY_FUNCS.items()) + list(ACCESSOR_FUNCS.items()):
        funcs.setdefault(name, (args, False, ret))
    for name, v in LEGACY_VARS.items():
        vars_.setdefault(name, v)
    # GameMaker accepts the American spelling of every `colour` name (`draw_set_color`).
    for table in (funcs, vars_):
        for name in [n for n in table if "colour" in n]:
            table.setdefault(name.replace("colour", "color"), table[name])
    # A name the manual also documents as a function or variable is none of its constants.
    consts = {n: f for n, f in consts.items() if n not in funcs and n not in vars_}
    missing = sorted(n for n in called if n not in funcs)
    print("GMS1 names called, not in the manual nor LEGACY_FUNCS (scripts or extensions?):",
          " ".join(missing), file=sys.stderr)
    sys.stdout.write(rust(funcs, vars_, consts))


if __name__ == "__main__":
    main()
