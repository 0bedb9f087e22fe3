#!/bin/sh
# Measures what bar 4 of issue 18 asks (docs/benchmarks.md, "Memory"): unpack and pack of the
# generated 1 GB game (wall, peak RSS, identical or not), unpack and pack of the largest corpus
# file, and the CLI unpack of every corpus file both manifests list, 2 at a time.
#
#   scripts/measure-memory.sh [BIG.win]
#
# BIG.win defaults to $TMPDIR/gmkit-mem/big.win, generated when missing with
# `examples/grow longdog.win BIG 1000` (about 1 GB). Needs GMKIT_CORPUS (default ../shared/corpus)
# and a release build (`cargo build --release -p gmkit -p gmkit-data --examples`). Run one
# measurement at a time on the machine: the load is printed with each figure. Everything made
# goes under $TMPDIR/gmkit-mem and is deleted at the end (a generated BIG.win is kept: delete it
# yourself).
set -eu
cd "$(dirname "$0")/.."
gmkit=${GMKIT:-target/release/gmkit}
corpus=${GMKIT_CORPUS:-../shared/corpus}
work=${TMPDIR:-/tmp}/gmkit-mem
mkdir -p "$work"
big=${1:-$work/big.win}
if [ ! -e "$big" ]; then
    target/release/examples/grow "$corpus/longdog.win" "$big" 1000
fi

# Runs a command under /usr/bin/time -v; prints: what | wall | peak RSS (MB) | load.
measure() {
    what=$1
    shift
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -v "$@" >"$work/out.txt" 2>"$work/time.txt" || {
        cat "$work/out.txt" "$work/time.txt" >&2
        return 1
    }
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
    echo "$what | wall $wall | peak RSS $((rss / 1024)) MB | load $load"
}

same() {
    if cmp -s "$1" "$2"; then echo "identical: yes"; else echo "identical: NO"; fi
}

rm -rf "$work/bigdir" "$work/big-out.win"
measure "1 GB game: unpack" "$gmkit" unpack "$big" "$work/bigdir"
measure "1 GB game: pack" "$gmkit" pack "$work/bigdir" "$work/big-out.win"
same "$big" "$work/big-out.win"
rm -rf "$work/bigdir" "$work/big-out.win"

# The corpus files both manifests list.
files=$(for m in "$corpus"/MANIFEST.tsv "$corpus"/MANIFEST-next.tsv; do
    [ -e "$m" ] && tail -n +2 "$m" | cut -f1
done | sort -u)
largest=$(for f in $files; do echo "$(wc -c <"$corpus/$f") $f"; done | sort -n | tail -1 | cut -d' ' -f2)
measure "largest corpus file ($largest): unpack" "$gmkit" unpack "$corpus/$largest" "$work/l"
measure "largest corpus file ($largest): pack" "$gmkit" pack "$work/l" "$work/l.win"
same "$corpus/$largest" "$work/l.win"
rm -rf "$work/l" "$work/l.win"

mkdir -p "$work/fm"
load=$(cut -d' ' -f1 /proc/loadavg)
start=$(date +%s.%N)
for f in $files; do echo "$f"; done |
    xargs -P2 -I{} "$gmkit" unpack "$corpus/{}" "$work/fm/{}" >/dev/null
end=$(date +%s.%N)
echo "corpus CLI unpack, $(echo "$files" | wc -w) files, 2 at a time | wall $(echo "$end - $start" | bc) s | load $load"
rm -rf "$work/fm" "$work/out.txt" "$work/time.txt"
