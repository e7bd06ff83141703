#!/usr/bin/env bash
# Spark smoke run of the sharded stages (issue 15): Spark in local[2] runs 2 shards of the
# samples through scripts/spark_stages.py, and the output must equal `docview ingest`'s byte for
# byte (records, replicas, skipped inputs, statistics, records as Parquet). Installs PySpark
# from PyPI into a virtual environment (target/spark-venv) and a JRE from the system packages
# when `java` is missing. Not part of `cargo test` (PySpark is a 300 MB download).
# DOCVIEW_BIN=path/to/docview uses that binary instead of building one with `cargo build
# --release`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${DOCVIEW_BIN:-}" ]; then
  if [ ! -x "$DOCVIEW_BIN" ]; then
    echo "spark_smoke.sh: DOCVIEW_BIN=$DOCVIEW_BIN is not an executable file" >&2
    exit 2
  fi
  DOCVIEW="$(cd "$(dirname "$DOCVIEW_BIN")" && pwd)/$(basename "$DOCVIEW_BIN")"
else
  cargo build --release -q
  DOCVIEW="$PWD/target/release/docview"
fi
VENV="${VENV:-target/spark-venv}"
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/pip" install -q pyspark
if ! command -v java >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    default-jre-headless >/dev/null
fi
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
INPUTS=(corpus-samples/sites corpus-samples/warc/corpus-samples.warc.gz)
"$DOCVIEW" ingest "${INPUTS[@]}" --out "$TMP/one" --parquet -q >/dev/null
"$DOCVIEW" stages plan "${INPUTS[@]}" --out "$TMP/spark" --parquet --work "$TMP/work" --shards 2
# The executors' Python workers run the venv's Python, the driver's (PySpark refuses a worker
# of another minor version than its driver's).
export PYSPARK_PYTHON="${PYSPARK_PYTHON:-$(cd "$VENV" && pwd)/bin/python}"
"$VENV/bin/python" scripts/spark_stages.py --work "$TMP/work" --docview "$DOCVIEW" \
  --master 'local[2]'
for f in docviews.jsonl replicas.jsonl skipped.jsonl stats.json docviews.parquet; do
  cmp "$TMP/one/$f" "$TMP/spark/$f"
  echo "$f: the same as one process"
done
