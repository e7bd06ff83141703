#!/usr/bin/env bash
# The sharded stages at a larger scale (README, "Beyond one machine"): COPIES copies of a labelled
# set's pages (default wcxb-dev, 3 copies), each copy's text made its own (every word of the
# page's text gets a suffix of its copy, so copies share no shingle and none is a replica; tags
# and attributes are untouched), written as one JSONL file per copy and shard-sized part. Then
# `docview stages` with --shards 4 and 2 workers, timing each stage and the resolve and merge
# tasks' peak memory, and the size of the output.
#   scripts/stage_scale.sh [COPIES] [SET]
set -euo pipefail
cd "$(dirname "$0")/.."
COPIES="${1:-3}"
SET="${2:-../shared/corpus/wcxb-dev/html}"
DOCVIEW="$PWD/target/release/docview"
TMP="${TMPDIR:-/tmp}/docview-scale.$$"
mkdir -p "$TMP/in"
trap 'rm -rf "$TMP"' EXIT
python3 - "$SET" "$TMP/in" "$COPIES" <<'PY'
import gzip, json, os, re, sys
src, dst, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = sorted(f for f in os.listdir(src) if f.endswith((".html", ".html.gz", ".htm")))
text = re.compile(r">([^<]+)<")
word = re.compile(r"[A-Za-z]{2,}")
for copy in range(copies):
    for part in range(4):
        with open(os.path.join(dst, f"copy{copy:03}-{part}.jsonl"), "w") as out:
            for f in files[part::4]:
                path = os.path.join(src, f)
                raw = gzip.open(path).read() if f.endswith(".gz") else open(path, "rb").read()
                html = raw.decode("utf-8", "replace")
                if copy:
                    tag = "q" + "".join("bcdfghjklmnpqrstvwxz"[int(d)] for d in str(copy))
                    html = text.sub(lambda m: ">" + word.sub(lambda w: w.group(0) + tag, m.group(1)) + "<", html)
                out.write(json.dumps({"url": f"http://copy{copy}.example/{f}", "html": html}) + "\n")
PY
du -sb "$TMP/in" | awk '{printf "input: %.2f GB of JSONL\n", $1 / 1e9}'
W="$TMP/work"
"$DOCVIEW" stages plan "$TMP/in" --out "$TMP/out" --work "$W" --shards 4 --threads 1 >/dev/null
total=0
while read -r stage tasks; do
  s=$(date +%s.%N)
  seq 0 $((tasks - 1)) | xargs -P 2 -I{} /usr/bin/time -f "$stage {} %e s %M kB" \
    -a -o "$W/times.txt" "$DOCVIEW" stages run "$stage" --work "$W" --task {} 2>/dev/null
  e=$(echo "$(date +%s.%N) - $s" | bc)
  total=$(echo "$total + $e" | bc)
  echo "$stage: $(printf %.2f "$e") s"
done < <("$DOCVIEW" stages list --work "$W")
echo "all stages: $(printf %.1f "$total") s"
grep -E "^(resolve|merge) " "$W/times.txt"
python3 -c "import json; s=json.load(open('$TMP/out/summary.json')); c=s['counters']; print('pages', c['pages_read'], 'kept', c['kept'], 'html bytes', c['html_bytes'])"
du -sb "$TMP/out" | awk '{printf "output: %.2f GB\n", $1 / 1e9}'
