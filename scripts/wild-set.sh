#!/usr/bin/env bash
# Builds a "wild set" of public GameMaker games, outside the repository, for measuring gmkit on
# games it was never tuned on. Input: a list of `owner/repo path` lines (path: the data file inside
# the repository, e.g. `data.win`, `Build/data.win`, `game.unx`). For each line the repository's
# newest commit is cloned (`git clone --depth 1` from github.com), the file is kept when it starts
# with `FORM` (Git LFS pointers do not) and is at most 300 MB, named `<owner>+<repo>.<ext>`
# (ext: win, unx, droid, ios), and the clone is deleted. Files whose sha256 equals one already in
# the set, or one of the corpus (GMKIT_SKIP_SHA: a file of sha256 lines), are skipped.
# Writes OUT/MANIFEST.tsv with the corpus manifest's columns (version facts from `gmkit info
# --json`) and an empty OUT/MANIFEST-next.tsv, so the corpus tests run on it unchanged:
#
#   scripts/wild-set.sh list.txt /tmp/wild          # needs target/release/gmkit (cargo build --release -p gmkit)
#   GMKIT_CORPUS=/tmp/wild GMKIT_REQUIRE_CORPUS=1 cargo test --release -p gmkit-data --test corpus
#   GMKIT_CORPUS=/tmp/wild GMKIT_REQUIRE_CORPUS=1 cargo test --release -p gmkit-folder --test corpus
#   GMKIT_CORPUS=/tmp/wild GMKIT_REQUIRE_CORPUS=1 GMKIT_SHOW_MISSES=1 \
#     cargo test --release -p gmkit-gml --test corpus_roundtrip -- --nocapture
#
# The files are third-party games: local test input only, never committed.
set -uo pipefail
list=${1:?usage: wild-set.sh LIST OUTDIR}
out=${2:?usage: wild-set.sh LIST OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
gmkit=${GMKIT_BIN:-$root/target/release/gmkit}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
got="$out/.got.tsv"
touch "$got"
while read -r repo path; do
  [[ -z "$repo" || "$repo" == \#* ]] && continue
  name=${repo/\//+}
  case "$path" in
    *.unx) ext=unx ;; *.droid) ext=droid ;; *.ios) ext=ios ;; *) ext=win ;;
  esac
  dest="$out/$name.$ext"
  if grep -q "^$name.$ext	" "$got"; then continue; fi
  rm -rf "$tmp/clone"
  if ! GIT_TERMINAL_PROMPT=0 GIT_LFS_SKIP_SMUDGE=1 timeout 600 \
      git clone -q --depth 1 "https://github.com/$repo.git" "$tmp/clone" 2>/dev/null; then
    echo "skip $repo: clone failed" >&2; continue
  fi
  commit=$(git -C "$tmp/clone" rev-parse HEAD)
  if ! git -C "$tmp/clone" cat-file -e "HEAD:$path" 2>/dev/null; then
    echo "skip $repo: no $path at HEAD" >&2; continue
  fi
  git -C "$tmp/clone" show "HEAD:$path" > "$tmp/file"
  size=$(stat -c %s "$tmp/file")
  if [ "$(head -c4 "$tmp/file")" != FORM ]; then
    echo "skip $repo: $path does not start with FORM" >&2; continue
  fi
  if [ "$size" -gt 314572800 ]; then
    echo "skip $repo: $path is $size bytes" >&2; continue
  fi
  sha=$(sha256sum "$tmp/file" | cut -d' ' -f1)
  if cut -f2 "$got" | grep -qx "$sha" || { [ -n "${GMKIT_SKIP_SHA:-}" ] && grep -qx "$sha" "$GMKIT_SKIP_SHA"; }; then
    echo "skip $repo: same bytes as a file already held" >&2; continue
  fi
  mv "$tmp/file" "$dest"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name.$ext" "$sha" "$size" "$repo" "$commit" "$path" >> "$got"
  echo "got $dest ($size bytes)"
done < "$list"
rm -rf "$tmp/clone"

header='file	sha256	size	repo	commit	path	bytecode	gen8_version	chunks'
echo "$header" > "$out/MANIFEST-next.tsv"
{
  echo "$header"
  while IFS=$'\t' read -r file sha size repo commit path; do
    json=$(ulimit -v 4000000; timeout 60 "$gmkit" info --json "$out/$file" 2>/dev/null)
    facts=$(printf '%s' "$json" | python3 -c '
import json, re, sys
try:
    d = json.load(sys.stdin)
except Exception:
    print("?\t?\t?"); sys.exit()
m = re.search(r"bytecode (\d+), IDE ([\d.]+)", d.get("version") or "")
print("\t".join([m.group(1), m.group(2)] if m else ["?", "?"]) + "\t" + ",".join(c["name"] for c in d.get("chunks") or []))')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$file" "$sha" "$size" "$repo" "$commit" "$path" "$facts"
  done < "$got"
} > "$out/MANIFEST.tsv"
echo "$(($(wc -l < "$out/MANIFEST.tsv") - 1)) files in $out/MANIFEST.tsv"
