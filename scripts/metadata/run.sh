#!/usr/bin/env bash
# docview's page metadata beside trafilatura's on 184 dev pages (scripts/metadata/README.md).
#   DV=target/release/docview PY=python3 scripts/metadata/run.sh
# Writes pages.jsonl, dv.jsonl, traf.jsonl, fields.csv, todo.csv and table.md in $OUT
# (target/metadata). judgements.csv, beside this script, is read, never written: a case whose
# (set, file_id, field, docview value, trafilatura value) did not change keeps its judgement;
# new ones are listed on standard error and in todo.csv, for judge.py.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
DV=${DV:-$root/target/release/docview}
PY=${PY:-python3}
export OUT=${OUT:-$root/target/metadata}
export CORPUS=${CORPUS:-$root/../shared/corpus}
mkdir -p "$OUT"
[ -d "$CORPUS" ] || { echo "no corpus at $CORPUS (set CORPUS)" >&2; exit 1; }
"$PY" -c 'import trafilatura' 2>/dev/null || { echo "$PY has no trafilatura: pip install trafilatura==2.3.1 (or set PY)" >&2; exit 1; }
echo "docview: $DV ($("$DV" --version 2>/dev/null || echo '?'))" >&2
python3 "$here/build_pages.py" "$OUT/pages.jsonl"
"$DV" extract --format jsonl --quiet --out "$OUT/dv.jsonl" "$OUT/pages.jsonl"
[ "$(wc -l < "$OUT/dv.jsonl")" = "$(wc -l < "$OUT/pages.jsonl")" ] || { echo "dv.jsonl line count differs" >&2; exit 1; }
if [ -z "${SKIP_TRAF:-}" ] || [ ! -s "$OUT/traf.jsonl" ]; then
  "$PY" "$here/traf.py" "$OUT/pages.jsonl" "$OUT/traf.jsonl"
fi
echo "$DV sha256:$(sha256sum "$DV" | cut -c1-16) $("$DV" --version 2>/dev/null)" > "$OUT/dv-binary.txt"
python3 "$here/compare.py"
