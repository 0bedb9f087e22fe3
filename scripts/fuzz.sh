#!/usr/bin/env bash
# Runs every cargo-fuzz target of the workspace (or those named) for SECONDS each, seeded with the
# corpus files where the target takes a data file. Works on a stable toolchain (RUSTC_BOOTSTRAP=1,
# no sanitizer: the targets look for panics, aborts, stack overflows, hangs and runaway memory,
# which libFuzzer reports through -rss_limit_mb and -timeout).
#   scripts/fuzz.sh 1800                        # 30 min per target, one at a time
#   scripts/fuzz.sh 600 gmkit-gml/gml_compile gmkit-folder/unpack_pack   # only these
# Findings land in crates/<crate>/fuzz/artifacts/<target>/; the run log in /tmp/gmkit-fuzz-<target>.log.
# decompile_bytes mutates the code of $GMKIT_FUZZ_FILE (default: the corpus's asteroid-destroyer.win).
# Needs `cargo install cargo-fuzz`.
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}; shift || true
corpus=${GMKIT_CORPUS:-$(cd .. && pwd)/shared/corpus}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for d in crates/*/fuzz; do
    c=$(basename "$(dirname "$d")")
    for t in "$d"/fuzz_targets/*.rs; do targets+=("$c/$(basename "$t" .rs)"); done
  done
fi
status=0
for ct in "${targets[@]}"; do
  c=${ct%%/*}; t=${ct#*/}
  seeds=$(mktemp -d)
  # Targets whose input is a whole data file start from the corpus files of up to 256 KB (larger
  # inputs make each run slow and libFuzzer's in-memory corpus grow past its RSS limit).
  max_len=65536
  case $t in parse_bytes|unpack_pack)
    max_len=262144
    find "$corpus" -maxdepth 1 -name '*.win' -size -257k -exec cp {} "$seeds"/ \; ;;
  esac
  # decompile_bytes mutates the code of one data file: a small corpus game unless one is named.
  export GMKIT_FUZZ_FILE=${GMKIT_FUZZ_FILE:-$corpus/asteroid-destroyer.win}
  mkdir -p "crates/$c/fuzz/corpus/$t"
  echo "== $c/$t: ${secs}s"
  ( cd "crates/$c/fuzz" && RUSTC_BOOTSTRAP=1 cargo fuzz run --sanitizer none -O "$t" "corpus/$t" "$seeds" -- \
      -max_total_time="$secs" -rss_limit_mb=2048 -timeout=20 -max_len="$max_len" ) > "/tmp/gmkit-fuzz-$t.log" 2>&1
  rc=$?
  tail -1 "/tmp/gmkit-fuzz-$t.log"
  if [ $rc -ne 0 ]; then echo "   FAILED (rc $rc): see /tmp/gmkit-fuzz-$t.log"; status=1; fi
  rm -rf "$seeds"
done
exit $status
