#!/usr/bin/env bash
# Measures every case of ../shared/repro/round2: run-all.sh's data-file cases, then each command that
# mkwins.sh, mkfolders.sh and mkprojects.sh print, each under a 2 GB address space and a 20 s watchdog,
# printing exit code, wall time, peak RSS, input size and the first line of stderr.
#   cargo build --release -p gmkit && scripts/repro-round2.sh [WORKDIR]
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
R=${GMKIT_REPRO:-$(cd .. && pwd)/shared/repro}/round2
export G=${G:-$root/target/release/gmkit}
export C=${GMKIT_CORPUS:-$(cd .. && pwd)/shared/corpus}
W=${1:-$(mktemp -d)}
mkdir -p "$W"
echo "== run-all.sh"
bash "$R/run-all.sh"
for mk in mkwins mkfolders mkprojects; do
  echo "== $mk.sh"
  bash "$R/$mk.sh" "$W/$mk" 2>/dev/null | grep "^$G " > "$W/$mk.cmds"
  while IFS= read -r line; do
    cmd=${line%%#*}
    # the input: the argument after the subcommand
    set -- $cmd
    input=${3:-}
    [ "${2:-}" = gml ] && input=${5:-}
    size=$(du -sk "$input" 2>/dev/null | cut -f1)
    rm -rf "$W/out"; mkdir -p "$W/out"
    cmd=$(echo "$cmd" | sed "s# $W/$mk/u[0-9]*# $W/out/u#; s# \($W/$mk/[^ ]*\)\.win *\$# $W/out/packed.win#")
    ( ulimit -v 2000000; /usr/bin/time -f "%e %M" -o "$W/tm" timeout -s KILL 20 bash -c "$cmd" >/dev/null 2>"$W/err" ); rc=$?
    printf '%-44s rc=%-3s %6ss %8sKB in=%6sKB  %s\n' "$(basename "$input")" "$rc" $(tail -1 "$W/tm") "${size:-?}" \
      "$(head -1 "$W/err" | cut -c1-140)"
  done < "$W/$mk.cmds"
done
