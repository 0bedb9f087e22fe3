#!/usr/bin/env python3
"""Writes a names file (docs/names-file.md) for a GameMaker project from its own source.

Usage: names-from-project.py PROJECT_DIR > names.gml

Declarations: the project's enums (GMS2 `enum` in .gml files) and macros (`#macro NAME value`
in .gml files, GMS1 `<constant>`s of the .project.gmx) with integer values. Places: every
`PLACE = NAME`, `PLACE == NAME` or `PLACE != NAME` of the code where NAME is one of those
(PLACE `x`, `obj.x` -> `x`, `global.x`); macros are grouped by their name up to the last `_`
(`STATE_IDLE` -> `STATE_*`). A place used with two different families is left out.
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


def main(root):
    texts = []
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
                texts.append(strip_comments(open(p, encoding="utf-8", errors="replace").read()))
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
    name = r"(?:[A-Za-z_]\w*\.)?[A-Za-z_]\w*"
    for t in texts:
        for m in re.finditer(r"(?<![\w.])(" + name + r")\s*(?:==|!=|=)\s*(" + name + r")\b(?!\s*\()", t):
            place, val = m.group(1), m.group(2)
            if "." in place and not place.startswith("global."):
                place = place.split(".", 1)[1]
            if "." in val:
                e = val.split(".", 1)[0]
                if e in enums:
                    fam[place].add(e)
            elif val in macros and "_" in val.strip("_"):
                fam[place].add(val[: val.rstrip("_").rindex("_") + 1] + "*")
    print("// Names of this game, written by scripts/names-from-project.py from its source.")
    for e, ms in enums.items():
        print("enum %s { %s }" % (e, ", ".join("%s = %d" % m for m in ms)))
    for n, v in macros.items():
        print("#macro %s %d" % (n, v))
    for p, fs in sorted(fam.items()):
        if len(fs) == 1 and re.fullmatch(r"(?:global\.)?[A-Za-z_]\w*", p):
            print("/// @holds %s %s" % (p, next(iter(fs))))


if __name__ == "__main__":
    main(sys.argv[1])
