#!/usr/bin/env bash
# Figures of the sharded stages (README, "Beyond one machine"): wall time of each stage with
# 1, 2 and 4 local workers over the same plan (--shards 4, one thread per task), against
# `docview ingest --threads 1`; the bytes the stages hand on per page; candidate and confirmed
# pairs; the resolve task's time and peak memory; the merge's time per GB of output.
#   scripts/stage_figures.sh [SET] (default ../shared/corpus/wcxb-dev/html)
set -euo pipefail
cd "$(dirname "$0")/.."
SET="${1:-../shared/corpus/wcxb-dev/html}"
DOCVIEW="$PWD/target/release/docview"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
t0=$(date +%s.%N)
"$DOCVIEW" ingest "$SET" --out "$TMP/one" --threads 1 -q >/dev/null
echo "one process, --threads 1: $(echo "$(date +%s.%N) - $t0" | bc) s"
for workers in 1 2 4; do
  W="$TMP/w$workers"
  "$DOCVIEW" stages plan "$SET" --out "$TMP/out$workers" --work "$W" --shards 4 --threads 1 >/dev/null
  total=0
  line="workers $workers:"
  while read -r stage tasks; do
    s=$(date +%s.%N)
    seq 0 $((tasks - 1)) | xargs -P "$workers" -I{} /usr/bin/time -f "$stage {} %e s %M kB" \
      -a -o "$W/times.txt" "$DOCVIEW" stages run "$stage" --work "$W" --task {} 2>/dev/null
    e=$(echo "$(date +%s.%N) - $s" | bc)
    total=$(echo "$total + $e" | bc)
    line="$line $stage $(printf %.2f "$e")"
  done < <("$DOCVIEW" stages list --work "$W")
  echo "$line; all $(printf %.1f "$total") s"
  for f in docviews.jsonl replicas.jsonl skipped.jsonl stats.json; do cmp "$TMP/one/$f" "$TMP/out$workers/$f"; done
done
W="$TMP/w1"
pages=$(wc -l < "$TMP/one/docviews.jsonl")
pages=$((pages + $(wc -l < "$TMP/one/replicas.jsonl")))
echo "pages: $pages"
for pat in 'shard-*/pages.parquet' 'shard-*/bands-*.parquet' 'shard-*/stat-rows.jsonl' 'shard-*/counts.json' 'pairs-*.parquet' 'decisions.parquet' 'shard-*/pages.spill' 'shard-*/site-*'; do
  bytes=$( (cat $W/$pat 2>/dev/null || true) | wc -c)
  echo "$pat: $bytes bytes, $((bytes / pages)) per page"
done
cat "$W"/pairs-*.json || true
echo
grep -E "^(stats|pages|resolve|finalise|merge) " "$W/times.txt" || true
du -sb "$TMP/out1" | awk '{print "output: " $1 " bytes"}'
