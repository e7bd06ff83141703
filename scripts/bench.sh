#!/usr/bin/env bash
# docview against the Python tools it replaces, side by side, from the project's root: builds the
# release binary (unless DOCVIEW_BIN names one) and runs ../shared/bench/side_by_side.sh, which
# pins each system to one core, interleaves the rounds and prints medians and ratios. The
# README's speed figures are the ratios this prints; it heads them with the date, the machine's
# core count and its load, so a figure can be quoted with the conditions it was measured in.
#   scripts/bench.sh [e2e|extract|all]        (default all)
# Env: DOCVIEW_BIN (a docview binary to measure instead of building one), BENCH (the folder of
# side_by_side.sh, default ../shared/bench), and side_by_side.sh's own: SET (default
# ../shared/corpus/wcxb-dev), ROUNDS (3), CORE (1), PY, OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
case "$what" in
  e2e | extract | all) ;;
  -h | --help)
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "bench.sh: unknown comparison '$what': expected e2e, extract or all" >&2
    exit 2
    ;;
esac
BENCH="${BENCH:-../shared/bench}"
if [ ! -x "$BENCH/side_by_side.sh" ]; then
  echo "bench.sh: no $BENCH/side_by_side.sh: the peers and the side-by-side script live in the" \
    "shared folder beside the project (set BENCH to where they are)" >&2
  exit 2
fi
if [ -n "${DOCVIEW_BIN:-}" ]; then
  if [ ! -x "$DOCVIEW_BIN" ]; then
    echo "bench.sh: DOCVIEW_BIN=$DOCVIEW_BIN is not an executable file" >&2
    exit 2
  fi
  BIN="$DOCVIEW_BIN"
else
  cargo build --release -q
  BIN="target/release/docview"
fi
set="${SET:-../shared/corpus/wcxb-dev}"
if [ ! -d "$set/html" ]; then
  echo "bench.sh: no $set/html: SET must be a labelled set in the corpus layout" >&2
  exit 2
fi
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)," \
  "$("$BIN" --version), set $set, ${ROUNDS:-3} rounds on core ${CORE:-1}"
BIN="$BIN" SET="$set" exec "$BENCH/side_by_side.sh" "$what"
