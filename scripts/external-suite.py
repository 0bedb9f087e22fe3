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
   e.g. macro types: a case the runner may report apart)}.
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
        cases.append({
            "file": fname, "test": test, "index": len(cases), "kind": CALLS[m.group(1)],
            "texts": texts, "global_script": global_script, "flags": flags, "assets": assets,
            "builtins": builtins, "functions": functions, "settings": settings, "setup": setup,
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
