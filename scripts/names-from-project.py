#!/usr/bin/env python3
"""Writes a names file (docs/names-file.md) for a GameMaker project from its own source.

Usage: names-from-project.py PROJECT_DIR > names.gml

Declarations: the project's enums (GMS2 `enum` in .gml files) and macros (`#macro NAME value`
in .gml files, GMS1 `<constant>`s of the .project.gmx) with integer values. Places: every
`PLACE = NAME`, `PLACE == NAME` or `PLACE != NAME` of the code where NAME is one of those
(PLACE `x`, `obj.x` -> `x`, `global.x`); macros are grouped by their name up to the last `_`
(`STATE_IDLE` -> `STATE_*`). A place used with two different families is left out. A place
whose every such NAME is of one kind (`true`/`false`; an asset of one kind of the project's
asset folders; a colour `c_*`; a key `vk_*`; a mouse button; an alignment) and that is never
given a plain number gets that kind (`/// @holds PLACE Bool`, `... Asset.GMSprite`); so do
the parameters of the project's scripts and functions, from the arguments of their calls.

Kinds: the JSDoc comments of GMS2 script functions (`/// @param {Asset.GMSprite} spr`,
`/// @return {Bool}`, the manual's "JSDoc Script Comments") give `/// @holds f(k) TYPE` and
`/// @holds f() TYPE` lines, for the Feather types whose values have names (`Bool`,
`Id.Instance`, `Asset.*`, `Constant.*`; several types separated by `,`, `|` or `/` only when
each has names). A `@param` is matched to the function's parameter by name, else by its
order; a GMS2 script before 2.3 (no `function` in its file) takes the comment at the top of
its file, by the file's name.
"""
import collections
import os
import re
import sys
import xml.etree.ElementTree as ET

INT = re.compile(r"^\s*(-?\s*(?:\d+|\$[0-9a-fA-F]+|0x[0-9a-fA-F]+))\s*;?\s*$")


def ival(s):
    m = INT.match(s)
    if not m:
        return None
    t = m.group(1).replace(" ", "")
    neg = t.startswith("-")
    t = t.lstrip("-")
    v = int(t[1:], 16) if t.startswith("$") else int(t, 0)
    return -v if neg else v


def strip_comments(t):
    out, i, n = [], 0, len(t)
    while i < n:
        if t.startswith("//", i):
            j = t.find("\n", i)
            i = n if j < 0 else j
        elif t.startswith("/*", i):
            j = t.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif t[i] in "\"'":
            j = t.find(t[i], i + 1)
            j = n if j < 0 else j + 1
            out.append(t[i:j])
            i = j
        else:
            out.append(t[i])
            i += 1
    return "".join(out)


# Feather types whose values have names (gmkit's names-file TYPES; base types without regard to
# case, specifiers exactly).
NAMED_TYPES = {"Bool", "Id.Instance"} | {"Asset." + a for a in (
    "GMObject", "GMSprite", "GMSound", "GMRoom", "GMPath", "GMScript", "GMFont", "GMTimeline",
    "GMShader", "GMSequence", "GMTileSet", "GMBackground", "GMAnimCurve", "GMParticleSystem")} | {
    "Constant." + c for c in (
        "Colour", "Color", "HAlign", "VAlign", "Cursor", "EventType", "PrimitiveType",
        "VirtualKey", "MouseButton", "BlendMode", "BlendModeFactor", "BufferDataType",
        "BufferType", "BufferSeek", "DsType", "GamepadButton", "GamepadAxis")}


def named_type(t):
    """The names-file TYPE of a JSDoc type, if its values have names (else None)."""
    parts = [p.strip() for p in re.split(r"[,|/]", t) if p.strip()]
    out = []
    for p in parts:
        base, dot, spec = p.partition(".")
        m = next((n for n in NAMED_TYPES
                  if n.partition(".")[0].lower() == base.lower() and n.partition(".")[2] == spec),
                 None)
        if m is None:
            return None
        out.append(m)
    # An instance or an object: an instance names both.
    if set(out) == {"Id.Instance", "Asset.GMObject"}:
        return "Id.Instance"
    return out[0] if len(set(out)) == 1 else None


JSDOC = re.compile(r"^\s*///\s*@(param|arg|argument|returns?)\s*\{([^}]*)\}\s*\[?(\w*)")
FUNC = re.compile(r"^\s*function\s+(\w+)\s*\(([^)]*)\)")


def jsdoc_kinds(path, text):
    """`@holds` lines from the JSDoc comments of the functions of one .gml file."""
    out = []
    block = []
    lines = text.split("\n")
    script = None
    if os.path.basename(os.path.dirname(path)) == os.path.basename(path)[:-4]:
        script = os.path.basename(path)[:-4]

    def emit(name, params, block):
        order = 0
        for tag, t, pname in block:
            kind = named_type(t)
            if tag.startswith("return"):
                if kind:
                    out.append("/// @holds %s() %s" % (name, kind))
                continue
            k = params.index(pname) if pname in params else order
            order += 1
            if kind:
                out.append("/// @holds %s(%d) %s" % (name, k, kind))

    has_function = any(FUNC.match(line) for line in lines)
    if script and not has_function:
        top = [m.groups() for m in map(JSDOC.match, lines) if m]
        emit(script, [], top)
        return out
    for line in lines:
        m = JSDOC.match(line)
        if m:
            block.append(m.groups())
            continue
        f = FUNC.match(line)
        if f:
            params = [re.split(r"[=\s]", p.strip())[0] for p in f.group(2).split(",") if p.strip()]
            emit(f.group(1), params, block)
            block = []
        elif line.strip() and not line.strip().startswith("//"):
            block = []
    return out


# Project folders of assets (GMS2 `sprites/NAME/`, GMS1 `sprites/NAME.sprite.gmx`) and their
# names-file types.
ASSET_DIRS = {
    "sprites": "Asset.GMSprite", "objects": "Asset.GMObject", "sounds": "Asset.GMSound",
    "sound": "Asset.GMSound", "rooms": "Asset.GMRoom", "background": "Asset.GMBackground",
    "backgrounds": "Asset.GMBackground", "tilesets": "Asset.GMTileSet", "paths": "Asset.GMPath",
    "fonts": "Asset.GMFont", "timelines": "Asset.GMTimeline", "shaders": "Asset.GMShader",
    "sequences": "Asset.GMSequence",
}
COLOURS = {"c_" + c for c in (
    "aqua", "black", "blue", "dkgray", "dkgrey", "fuchsia", "gray", "grey", "green", "lime",
    "ltgray", "ltgrey", "maroon", "navy", "olive", "orange", "purple", "red", "silver", "teal",
    "white", "yellow")}


def project_assets(root):
    """Asset name -> names-file type, from the project's asset folders."""
    out = {}
    for d, dirs, fs in os.walk(root):
        kind = ASSET_DIRS.get(os.path.basename(d).lower())
        if kind is None:
            continue
        for n in dirs:
            out.setdefault(n, kind)
        for f in fs:
            if f.endswith(".gmx"):
                out.setdefault(f.split(".", 1)[0], kind)
        dirs[:] = []
    return out


def value_kind(v, assets):
    """The names-file type of a value written by name (`true`, `spr_x`, `c_red`, `vk_left`),
    or None."""
    if v in ("true", "false"):
        return "Bool"
    if v in assets:
        return assets[v]
    if v in COLOURS:
        return "Constant.Colour"
    if v.startswith("vk_"):
        return "Constant.VirtualKey"
    if v in ("mb_left", "mb_right", "mb_middle", "mb_none", "mb_any"):
        return "Constant.MouseButton"
    if v in ("fa_left", "fa_center", "fa_right"):
        return "Constant.HAlign"
    if v in ("fa_top", "fa_middle", "fa_bottom"):
        return "Constant.VAlign"
    return None


def calls(t, names):
    """(function, [argument texts]) of each call in `t` of a function of `names`."""
    for m in re.finditer(r"(?<![\w.])(\w+)\s*\(", t):
        if m.group(1) not in names:
            continue
        depth, args, start, j = 1, [], m.end(), m.end()
        while j < len(t) and depth > 0:
            c = t[j]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
            elif c == "," and depth == 1:
                args.append(t[start:j])
                start = j + 1
            elif c in "\"'":
                k = t.find(c, j + 1)
                j = len(t) if k < 0 else k
            j += 1
        if depth == 0:
            last = t[start:j - 1]
            if last.strip() or args:
                args.append(last)
            yield m.group(1), args


def main(root):
    texts = []
    kinds = []
    script_names = set()
    macros, enums = {}, {}
    for d, _, fs in os.walk(root):
        for f in fs:
            p = os.path.join(d, f)
            if f.endswith(".project.gmx"):
                for c in ET.parse(p).getroot().iter("constant"):
                    v = ival(c.text or "")
                    if v is not None and c.get("name"):
                        macros.setdefault(c.get("name"), v)
            elif f.endswith(".gml") or f.endswith(".object.gmx"):
                raw = open(p, encoding="utf-8", errors="replace").read()
                texts.append(strip_comments(raw))
                if f.endswith(".gml"):
                    kinds += jsdoc_kinds(p, raw)
                    if os.path.basename(d).lower() == "scripts":
                        script_names.add(f[:-4])
    for t in texts:
        for m in re.finditer(r"^[ \t]*#macro[ \t]+(\w+)[ \t]+([^\n]*)", t, re.M):
            v = ival(m.group(2))
            if v is not None:
                macros.setdefault(m.group(1), v)
        for m in re.finditer(r"\benum\s+(\w+)\s*\{([^}]*)\}", t):
            members, nxt, ok = [], 0, True
            for part in m.group(2).split(","):
                part = part.strip()
                if not part:
                    continue
                if "=" in part:
                    n, v = part.split("=", 1)
                    v = ival(v)
                    if v is None:
                        ok = False
                        break
                    nxt = v
                    part = n.strip()
                members.append((part, nxt))
                nxt += 1
            if ok and m.group(1) not in enums:
                enums[m.group(1)] = members
    fam = collections.defaultdict(set)
    # Kinds of places from the values the code stores in or compares them with; a place also
    # given a plain number has none.
    assets = project_assets(root)
    stored = collections.defaultdict(set)
    numbers = set()
    name = r"(?:[A-Za-z_]\w*\.)?[A-Za-z_]\w*"

    def place_of(p):
        if "." in p and not p.startswith("global."):
            return p.split(".", 1)[1]
        return p
    for t in texts:
        for m in re.finditer(r"(?<![\w.])(" + name + r")\s*(?:==|!=|=)\s*(" + name + r")\b(?!\s*\()", t):
            place, val = place_of(m.group(1)), m.group(2)
            if "." in val:
                e = val.split(".", 1)[0]
                if e in enums:
                    fam[place].add(e)
            elif val in macros and "_" in val.strip("_"):
                fam[place].add(val[: val.rstrip("_").rindex("_") + 1] + "*")
            else:
                stored[place].add(value_kind(val, assets))
        for m in re.finditer(r"(?<![\w.])(" + name + r")\s*(?:==|!=|=)\s*-?\s*[\d$.]", t):
            numbers.add(place_of(m.group(1)))
    # Script parameters from the calls: `f(a, true)` in every call giving argument k by name.
    scripts = set(script_names)
    for t in texts:
        scripts |= {m.group(1) for m in re.finditer(r"^\s*function\s+(\w+)", t, re.M)}
        scripts |= {m.group(1) for m in re.finditer(r"^#define\s+(\w+)", t, re.M)}
    for t in texts:
        for f, args in calls(t, scripts):
            for k, a in enumerate(args):
                a = a.strip()
                if re.fullmatch(r"[A-Za-z_]\w*", a):
                    stored["%s(%d)" % (f, k)].add(value_kind(a, assets))
                elif re.fullmatch(r"-?\s*[\d$.][\w.]*", a):
                    numbers.add("%s(%d)" % (f, k))
    print("// Names of this game, written by scripts/names-from-project.py from its source.")
    for e, ms in enums.items():
        print("enum %s { %s }" % (e, ", ".join("%s = %d" % m for m in ms)))
    for n, v in macros.items():
        print("#macro %s %d" % (n, v))
    for p, fs in sorted(fam.items()):
        if len(fs) == 1 and re.fullmatch(r"(?:global\.)?[A-Za-z_]\w*", p):
            print("/// @holds %s %s" % (p, next(iter(fs))))
    for p, ks in sorted(stored.items()):
        if (len(ks) == 1 and None not in ks and p not in numbers and p not in fam
                and re.fullmatch(r"(?:global\.)?[A-Za-z_]\w*|\w+\(\d+\)", p)):
            print("/// @holds %s %s" % (p, next(iter(ks))))
    # A place documented twice with different kinds is left out.
    by_place = collections.defaultdict(set)
    for line in kinds:
        _, _, place, kind = line.split(" ")
        by_place[place].add(kind)
    for place, ks in sorted(by_place.items()):
        if len(ks) == 1:
            print("/// @holds %s %s" % (place, next(iter(ks))))


if __name__ == "__main__":
    main(sys.argv[1])
