#!/usr/bin/env python3
"""Exact token-sequence equality with redundant grouping parentheses aside (issue 16, bar 4).

Usage: source-similarity-parens.py TOOL GMKIT SOURCES_DIR DATA_DIR

TOOL is ../shared/tools/source_similarity.py: it runs as usual (its own table is printed),
and each entry's two normalised token sequences are compared once more without grouping
parentheses (a `(` that does not follow a name, `)` or `]`, i.e. not a call's, and its
matching `)`), per project and in total. Conditions (`if (c)` / `if c`) and clarifying
parentheses (`(a && b) || c`) leave no trace in the bytecode, so the bar sets them aside.
"""
import collections
import importlib.util
import sys


def strip_grouping(toks, ss):
    out, stack = [], []
    for i, t in enumerate(toks):
        if t == "(":
            prev = toks[i - 1] if i > 0 else ""
            call = (ss.is_ident(prev) and prev not in ss.KEYWORDS) or prev in (")", "]")
            stack.append(call)
            if call:
                out.append(t)
        elif t == ")":
            if stack.pop() if stack else True:
                out.append(t)
        else:
            out.append(t)
    return out


def main(argv):
    if len(argv) != 5:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    spec = importlib.util.spec_from_file_location("source_similarity", argv[1])
    ss = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ss)
    pairs, projects = [], []
    original = ss.similarity

    def similarity(a, b):
        pairs.append((a, b))
        return original(a, b)

    ss.similarity = similarity
    # The project of each pair: the tool prints one line per project after its entries.
    real_print = print

    def tracking_print(*a, **k):
        line = " ".join(str(x) for x in a)
        if ": " in line and " entries" in line:
            name = line.split(":")[0]
            projects.extend([name] * (len(pairs) - len(projects)))
        real_print(*a, **k)

    ss.print = tracking_print
    rc = ss.main(["source_similarity.py", argv[2], argv[3], argv[4]])
    per = collections.defaultdict(lambda: [0, 0])
    for p, (s, d) in zip(projects, pairs):
        per[p][0] += 1
        per[p][1] += strip_grouping(s, ss) == strip_grouping(d, ss)
    total = [sum(v[0] for v in per.values()), sum(v[1] for v in per.values())]
    print("exact with grouping parentheses aside:")
    for p, (n, e) in per.items():
        print("  %-28s %4d entries, exact %5.1f%%" % (p, n, 100.0 * e / n))
    if total[0]:
        print("parentheses aside: exact %.1f%% over %d entries" % (100.0 * total[1] / total[0], total[0]))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
