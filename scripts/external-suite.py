#!/usr/bin/env python3
"""Extract an external decompiler/compiler test suite into cases gmkit's suite runner reads.

Usage: external-suite.py CHECKOUT OUT_DIR

CHECKOUT is a clone of github.com/UnderminersTeam/Underanalyzer (MPL-2.0). Its test project
(UnderanalyzerTest/*.cs) holds xUnit cases of three kinds:
- decompile: `TestUtil.VerifyDecompileResult(ASM, GML, [context], [settings])`: assembly -> the GML
  its authors expect;
- roundtrip: `TestUtil.VerifyRoundTrip(GML, [EXPECTED], [isGlobalScript], [context], [settings])`:
  GML -> compile -> decompile -> the same GML (or EXPECTED);
- bytecode: `TestUtil.AssertBytecode(GML, ASM, [isGlobalScript], [context])`: GML -> the assembly
  GameMaker's compiler emits.

This script writes OUT_DIR/cases.jsonl, one JSON object per case:
  {"file", "test", "index", "kind", "texts": [...raw string arguments in order...],
   "global_script": bool, "flags": {UsingX: bool, ...}, "assets": [[type, id, name], ...],
   "builtins": [[name, min_args, max_args], ...], "functions": [[name, entry_name], ...],
   "settings": {Name: value, ...}, "setup": bool (the test sets up more than this script reads,
   e.g. macro types: a case the runner may report apart), "names": the test's macro-type setup
   as a gmkit names file (docs/names-file.md) or null, "names_missing": why a setup has no
   names-file form (conditional macro types, named-argument resolvers, ...) or null}.

Macro types (the test's `GameSpecificRegistry` as set up before each call) translate to a names
file: `EnumMacroType` -> an `enum`; `DefineVariableType` / `DefineFunctionArgumentsType` /
`DefineFunctionReturnType` -> `/// @holds name|f(k)|f() TYPE`, TYPE the Feather type name of
the registry's type (`Asset.Sprite` -> `Asset.GMSprite`, `Constant.Color` -> `Constant.Colour`),
`ArrayInitMacroType(T)` -> `Array<T>`, `UnionMacroType([A, B])` -> `A,B`, `NoneMacroType` ->
`Real` (no names), `ConstantsMacroType` of colour constants -> `Constant.Colour`; a code entry's
own resolver applies when it is the case's entry. `RegisterBasic()` (the built-in signatures)
is gmkit's own tables.
The suite's text stays outside gmkit's repository: it is test input, like the corpus. Then run
  GMKIT_EXTERNAL_SUITE=OUT_DIR cargo test --release -p gmkit-gml --test external_suite -- --nocapture
"""
import json
import os
import re
import subprocess
import sys

CALLS = {
    "VerifyDecompileResult": "decompile",
    "VerifyRoundTrip": "roundtrip",
    "AssertBytecode": "bytecode",
}


def raw_string(src, i):
    """Parse a C# raw string literal starting at src[i] (`\"\"\"`). Returns (text, end index)."""
    j = i
    while j < len(src) and src[j] == '"':
        j += 1
    quotes = src[i:j]
    end = src.index(quotes, j)
    body = src[j:end]
    # Multi-line form: first line empty, last line is the closing indentation.
    if "\n" in body:
        lines = body.split("\n")
        indent = lines[-1]
        out = []
        for line in lines[1:-1]:
            out.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
        text = "\n".join(out)
    else:
        text = body
    return text, end + len(quotes)


def plain_string(src, i):
    """Parse a regular C# string literal at src[i] (`"`)."""
    j = i + 1
    out = []
    while src[j] != '"':
        if src[j] == "\\":
            j += 1
            out.append({"n": "\n", "t": "\t", "\\": "\\", '"': '"', "r": "\r"}.get(src[j], src[j]))
        else:
            out.append(src[j])
        j += 1
    return "".join(out), j + 1


def matching(src, i, open_ch, close_ch):
    """Index just past the bracket that closes src[i] (== open_ch), skipping string literals."""
    depth = 0
    j = i
    while j < len(src):
        c = src[j]
        if src.startswith('"""', j):
            _, j = raw_string(src, j)
            continue
        if c == '"':
            _, j = plain_string(src, j)
            continue
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    raise ValueError("unbalanced")


def split_args(src):
    """Top-level comma-separated arguments of a call's argument text."""
    args, depth, start, j = [], 0, 0, 0
    while j < len(src):
        c = src[j]
        if src.startswith('"""', j):
            _, j = raw_string(src, j)
            continue
        if c == '"':
            _, j = plain_string(src, j)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            args.append(src[start:j].strip())
            start = j + 1
        j += 1
    if src[start:].strip():
        args.append(src[start:].strip())
    return args


def initializer(text):
    """`Name = value` pairs of an object initializer `{ ... }`."""
    out = {}
    for m in re.finditer(r"(\w+)\s*=\s*([^,}\n]+)", text):
        v = m.group(2).strip()
        out[m.group(1)] = True if v == "true" else False if v == "false" else (
            int(v) if re.fullmatch(r"-?\d+", v) else v.strip('"'))
    return out


# The registry's type names (Underanalyzer's) -> GameMaker's Feather type names.
UA_TYPES = {
    "Bool": "Bool", "Id.Instance": "Id.Instance",
    "Constant.Color": "Constant.Colour", "Constant.VirtualKey": "Constant.VirtualKey",
    "Asset.Object": "Asset.GMObject", "Asset.Sprite": "Asset.GMSprite",
    "Asset.Sound": "Asset.GMSound", "Asset.Room": "Asset.GMRoom",
    "Asset.Background": "Asset.GMBackground", "Asset.Path": "Asset.GMPath",
    "Asset.Script": "Asset.GMScript", "Asset.Font": "Asset.GMFont",
    "Asset.Timeline": "Asset.GMTimeline", "Asset.Shader": "Asset.GMShader",
    "Asset.Sequence": "Asset.GMSequence", "Asset.AnimationCurve": "Asset.GMAnimCurve",
    "Asset.ParticleSystem": "Asset.GMParticleSystem", "Asset.Tileset": "Asset.GMTileSet",
}


class NoNamesForm(Exception):
    """A setup a names file cannot say."""


def dictionary(text):
    """`{ { 0, "a" }, ... }` pairs of a C# dictionary initializer."""
    return [(int(m.group(1)), m.group(2))
            for m in re.finditer(r"\{\s*(-?\d+)\s*,\s*\"(\w+)\"\s*\}", text)]


def macro_type(e, env):
    """The names-file TYPE (or ("args", [TYPE|None])) of a C# macro-type expression."""
    e = e.strip()
    if e == "null":
        return None
    if e in env["types"]:
        t = env["types"][e]
        if isinstance(t, NoNamesForm):
            raise t
        return t
    m = re.fullmatch(r"[\w.]*FindType\(\s*\"([\w.]+)\"\s*\)", e)
    if m:
        if m.group(1) not in UA_TYPES:
            raise NoNamesForm(f"type {m.group(1)}")
        return UA_TYPES[m.group(1)]
    if e == "NoneMacroType.ReusableInstance":
        return "Real"
    m = re.fullmatch(r"new\s*(\w*)\s*\((.*)\)", e, re.S)
    if not m:
        raise NoNamesForm(f"macro type {e[:40]!r}")
    kind, args = m.group(1), m.group(2).strip()
    if kind == "EnumMacroType" or (kind == "" and args.startswith('"')):
        name = re.match(r"\"(\w+)\"", args).group(1)
        env["enums"][name] = dictionary(args)
        return name
    if kind == "ConstantsMacroType":
        names = [n for _, n in dictionary(args)]
        if names and all(n.startswith("c_") for n in names):
            return "Constant.Colour"
        raise NoNamesForm("constants other than colours")
    if kind == "ArrayInitMacroType":
        return f"Array<{macro_type(args, env)}>"
    inner = args[1:-1] if args.startswith("[") and args.endswith("]") else None
    if kind == "UnionMacroType" and inner is not None:
        parts = [macro_type(a, env) for a in split_args(inner)]
        if any(not isinstance(p, str) for p in parts):
            raise NoNamesForm("a union of argument lists (conditional argument types)")
        return ",".join(parts)
    if kind == "FunctionArgsMacroType" and inner is not None:
        return ("args", [macro_type(a, env) for a in split_args(inner)])
    raise NoNamesForm(f"{kind or 'new()'} (no names-file form)")


def statements(body):
    """The top-level statements of a method body (strings and brackets skipped)."""
    out, depth, start, j = [], 0, 1, 1
    while j < len(body) - 1:
        c = body[j]
        if body.startswith('"""', j):
            _, j = raw_string(body, j)
            continue
        if c == '"':
            _, j = plain_string(body, j)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ";" and depth == 0:
            out.append((start, body[start:j].strip()))
            start = j + 1
        j += 1
    return out


def names_setups(body, root):
    """For each TestUtil call of a method (by its offset in `body`): the names file its macro
    types so far amount to for an entry named `root` (text or None), and why not (or None)."""
    env = {"types": {}, "enums": {}}
    resolvers = {}  # variable -> {"vars": {}, "args": {}, "returns": {}}
    global_res = None
    entries = {}  # code entry name -> resolver
    missing = []
    out = []
    for at, st in statements(body):
        try:
            m = re.match(r"(?:[\w<>]+\s+)?(\w+)\s*=\s*(.*)$", st, re.S)
            if "TestUtil." in st:
                out.append((at, snapshot(env, global_res, entries, root, missing)))
                continue
            if m and m.group(2).strip().endswith("GlobalNames"):
                global_res = resolvers.setdefault(m.group(1), new_resolver())
                continue
            if m and re.fullmatch(r"new\s*(NameMacroTypeResolver)?\s*\(\s*\)", m.group(2).strip()):
                resolvers[m.group(1)] = new_resolver()
                continue
            if m and ("MacroType" in st or "FindType" in st):
                try:
                    env["types"][m.group(1)] = macro_type(m.group(2), env)
                except NoNamesForm as e:
                    env["types"][m.group(1)] = e
                continue
            d = re.match(r"(\w+)\.(DefineVariableType|DefineFunctionArgumentsType|"
                         r"DefineFunctionReturnType)\(\s*\"(\w+)\"\s*,(.*)\)$", st, re.S)
            if d:
                res = resolvers.get(d.group(1))
                if res is None:
                    raise NoNamesForm(f"resolver {d.group(1)}")
                t = macro_type(d.group(4), env)
                res[d.group(2)][d.group(3)] = t
                continue
            c = re.match(r"([\w.]+)\.DefineCodeEntry\(\s*\"(\w+)\"\s*,\s*(.*)\)$", st, re.S)
            if c:
                if "NamedArgument" in c.group(1) or c.group(1) in env.get("named_args", ()):
                    # A function's parameter names: `/// @name f(k) NAME`.
                    names = re.findall(r"\"(\w+)\"", c.group(3))
                    if not c.group(2).startswith("gml_Script_") or not names:
                        raise NoNamesForm("parameter names of a code entry (named-argument resolver)")
                    env.setdefault("param_names", {})[c.group(2)[len("gml_Script_"):]] = names
                    continue
                res = resolvers.get(c.group(3).strip())
                if res is None:
                    raise NoNamesForm(f"resolver {c.group(3).strip()}")
                entries[c.group(2)] = res
                continue
            if m and "NamedArgumentResolver" in m.group(2):
                env.setdefault("named_args", set()).add(m.group(1))
                continue
        except NoNamesForm as e:
            missing.append(str(e))
    return out


def new_resolver():
    return {"DefineVariableType": {}, "DefineFunctionArgumentsType": {},
            "DefineFunctionReturnType": {}}


def snapshot(env, global_res, entries, root, missing):
    """The names file of the setup so far (an entry's own resolver over the global one)."""
    if missing:
        return None, "; ".join(missing)
    holds = {}
    for res in [global_res] + [r for e, r in entries.items() if e == root]:
        if res is None:
            continue
        for v, t in res["DefineVariableType"].items():
            holds[v] = t
        for f, t in res["DefineFunctionReturnType"].items():
            holds[f"{f}()"] = t
        for f, t in res["DefineFunctionArgumentsType"].items():
            if not (isinstance(t, tuple) and t[0] == "args"):
                return None, "function arguments of another form"
            for k, a in enumerate(t[1]):
                if a is not None:
                    holds[f"{f}({k})"] = a
    params = env.get("param_names", {})
    others = []
    for e, res in entries.items():
        if e == root:
            continue
        # A function's own resolver over its parameters (named by the named-argument
        # resolver): the parameters' kinds.
        f = e[len("gml_Script_"):] if e.startswith("gml_Script_") else None
        names = params.get(f, [])
        local = res["DefineVariableType"]
        if f is None or not local or any(v not in names for v in local) \
                or res["DefineFunctionArgumentsType"] or res["DefineFunctionReturnType"]:
            others.append(e)
            continue
        for v, t in local.items():
            holds[f"{f}({names.index(v)})"] = t
    if others:
        return None, f"types local to another code entry ({', '.join(others)})"
    if not holds and not env["enums"] and not params:
        return None, None
    lines = []
    for f, names in params.items():
        for k, n in enumerate(names):
            lines.append(f"/// @name {f}({k}) {n}")
    for name, members in env["enums"].items():
        body, nxt = [], 0
        for v, n in sorted(members):
            body.append(n if v == nxt else f"{n} = {v}")
            nxt = v + 1
        lines.append(f"enum {name} {{ {', '.join(body)} }}")
    for place, t in holds.items():
        if not isinstance(t, str):
            return None, f"type of {place}"
        lines.append(f"/// @holds {place} {t}")
    return "\n".join(lines) + "\n", None


def method_cases(fname, test, body):
    setup = bool(re.search(r"MacroType|MacroResolver|GameSpecificRegistry|Registry", body))
    # Variables holding contexts or settings, defined in the method.
    contexts = {}
    for m in re.finditer(r"(?:GameContextMock|var)\s+(\w+)\s*=\s*new(?:\s*[\w.]*GameContextMock)?\s*\(\s*\)", body):
        end = m.end()
        rest = body[end:].lstrip()
        flags = {}
        if rest.startswith("{"):
            k = body.index("{", end)
            flags = initializer(body[k:matching(body, k, "{", "}")])
        contexts[m.group(1)] = flags
    settings_vars = {}
    for m in re.finditer(r"(?:DecompileSettings|var)\s+(\w+)\s*=\s*new(?:\s*DecompileSettings)?\s*\(\s*\)", body):
        k = body.find("{", m.end())
        if k >= 0 and body[m.end():k].strip() == "":
            settings_vars[m.group(1)] = initializer(body[k:matching(body, k, "{", "}")])
    assets = [[m.group(1), int(m.group(2)), m.group(3)] for m in re.finditer(
        r"DefineMockAsset\(\s*AssetType\.(\w+)\s*,\s*(-?\d+)\s*,\s*\"([^\"]*)\"\s*\)", body)]
    builtins = [[m.group(1), int(m.group(2)), int(m.group(3))] for m in re.finditer(
        r"BuiltinFunctions\[\"(\w+)\"\]\s*=\s*new(?:\s*[\w.]*)?\(\s*\"\w+\"\s*,\s*(-?\d+)\s*,\s*(-?\d+)", body)]
    functions = [[m.group(1), m.group(2)] for m in re.finditer(
        r"DefineFunction\(\s*\"(\w+)\"\s*,\s*new\s*[\w.]*GMFunction\(\s*\"(\w+)\"", body)]
    strings = {}
    for m in re.finditer(r"string\s+(\w+)\s*=\s*(?=\")", body):
        k = m.end()
        strings[m.group(1)] = (raw_string(body, k) if body.startswith('"""', k)
                               else plain_string(body, k))[0]
    cases = []
    setups = names_setups(body, "root") if setup else []
    for m in re.finditer(r"TestUtil\.(VerifyDecompileResult|VerifyRoundTrip|AssertBytecode)\s*\(", body):
        k = m.end() - 1
        args = split_args(body[k + 1:matching(body, k, "(", ")") - 1])
        texts, flags, settings, global_script = [], {}, {}, False
        for a in args:
            a2 = re.sub(r"^\w+\s*:\s*", "", a)  # named argument
            if a2.startswith('"""'):
                texts.append(raw_string(a2, 0)[0])
            elif a2.startswith('"'):
                texts.append(plain_string(a2, 0)[0])
            elif a2 == "null":
                pass
            elif a2 in ("true", "false"):
                global_script = a2 == "true"
            elif a2 in strings:
                texts.append(strings[a2])
            elif "GameContextMock" in a2 or (a2.startswith("new") and "Using" in a2):
                k2 = a2.find("{")
                flags = initializer(a2[k2:]) if k2 >= 0 else {}
            elif "DecompileSettings" in a2 or (a2.startswith("new") and "{" in a2):
                k2 = a2.find("{")
                settings = initializer(a2[k2:]) if k2 >= 0 else {}
            elif a2 in contexts:
                flags = contexts[a2]
            elif a2 in settings_vars:
                settings = settings_vars[a2]
            else:
                print(f"{fname} {test}: argument not read: {a2[:60]!r}", file=sys.stderr)
                setup = True
        names, missing = None, None
        if setup:
            # The setup as it stands at this call (statements before it).
            before = [v for at, v in setups if at <= m.start()]
            names, missing = before[-1] if before else (None, "no setup read")
            if global_script and names is not None:
                names, missing = None, "a global script's entry"
        cases.append({
            "file": fname, "test": test, "index": len(cases), "kind": CALLS[m.group(1)],
            "texts": texts, "global_script": global_script, "flags": flags, "assets": assets,
            "builtins": builtins, "functions": functions, "settings": settings, "setup": setup,
            "names": names, "names_missing": missing,
        })
    return cases


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    checkout, out = sys.argv[1], sys.argv[2]
    tests = os.path.join(checkout, "UnderanalyzerTest")
    if not os.path.isdir(tests):
        sys.exit(f"expected a clone of Underanalyzer with UnderanalyzerTest/ at {checkout}")
    os.makedirs(out, exist_ok=True)
    all_cases = []
    for fname in sorted(os.listdir(tests)):
        if not fname.endswith(".cs"):
            continue
        src = open(os.path.join(tests, fname), encoding="utf-8-sig").read().replace("\r\n", "\n")
        for m in re.finditer(r"\[Fact\]\s*public\s+void\s+(\w+)\s*\(\s*\)\s*\{", src):
            k = m.end() - 1
            body = src[k:matching(src, k, "{", "}")]
            all_cases += method_cases(fname, m.group(1), body)
    try:
        rev = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True,
                             text=True).stdout.strip()
    except OSError:
        rev = ""
    with open(os.path.join(out, "cases.jsonl"), "w") as f:
        for c in all_cases:
            f.write(json.dumps(c) + "\n")
    with open(os.path.join(out, "SOURCE.txt"), "w") as f:
        f.write(f"UnderminersTeam/Underanalyzer {rev}\n")
    kinds = {}
    for c in all_cases:
        kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
    print(f"{len(all_cases)} cases ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}) "
          f"-> {out}/cases.jsonl")


if __name__ == "__main__":
    main()
