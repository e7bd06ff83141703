#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seed inputs: the bundled sample pages and WARC, the WARC
# files of ../shared/warc when they are beside the repository, JSON Lines made from the sample
# pages, a few HTTP response heads and a few queries (the seeds of tests/it/fuzz_replay.rs). The
# corpus folders are git-ignored: seeds are copied at run time, never committed.
set -euo pipefail
cd "$(dirname "$0")"
root=..
mkdir -p corpus/page corpus/warc corpus/jsonl corpus/http_head
find "$root/corpus-samples/sites" -name '*.html' -print0 | while IFS= read -r -d '' f; do
  cp "$f" "corpus/page/$(basename "$(dirname "$f")")-$(basename "$f")"
done
cp "$root"/corpus-samples/warc/*.warc.gz corpus/warc/
if [ -d "$root/../shared/warc" ]; then
  find "$root/../shared/warc" -maxdepth 1 -name '*.warc*' -exec cp {} corpus/warc/ \;
else
  echo "../shared/warc absent: WARC seeds are the bundled sample only" >&2
fi
python3 - "$root/corpus-samples/sites" corpus/jsonl <<'PY'
import json, pathlib, sys
sites, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
pages = sorted(sites.rglob("*.html"))
for i in range(0, len(pages), 4):
    lines = [json.dumps({"url": f"http://{p.parent.name}.example/{p.name}",
                         "html": p.read_bytes().decode("utf-8", "replace")})
             for p in pages[i:i + 4]]
    (out / f"pages-{i // 4}.jsonl").write_text("\n".join(lines) + "\n")
PY
printf 'HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 5\r\n\r\n' > corpus/http_head/ok
printf 'HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\r\n' > corpus/http_head/404
printf 'HTTP/1.0 200\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n' > corpus/http_head/codings
printf 'HTTP/1.1 301 Moved\nLocation: /x\nContent-Type: text/plain\n\n' > corpus/http_head/bare-lf
mkdir -p corpus/query
i=0
for q in 'ferry dock' '"ferry service" +dock -island' 'title:ferry OR body:(dock AND repairs)' \
         '搜索引擎 抓取网页' '"抓取网页"~2' '(ferry OR dock) AND NOT gull^2' 'repai* seq:[0 TO 5]' \
         '-ferry' '*' 'title:'; do
  printf '%s' "$q" > "corpus/query/q$i"; i=$((i + 1))
done
echo "seeded: $(ls corpus/page | wc -l) pages, $(ls corpus/warc | wc -l) WARC files, $(ls corpus/jsonl | wc -l) JSONL files, $(ls corpus/http_head | wc -l) heads, $(ls corpus/query | wc -l) queries"
