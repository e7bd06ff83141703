#!/usr/bin/env python3
"""Add or replace judgements in judgements.csv, keyed by the values now in fields.csv.

Reads lines from stdin:  SET/FILE_ID | FIELD | DOCVIEW_OK | TRAF_OK | DOCVIEW_ERROR | TRAF_ERROR | REASON
(ok: right / wrong / undecidable; for a tool that gave nothing, right = the page has no such value).
"""
import csv
import os
import sys

# The judgements beside this script; fields.csv is read from the folder judge.py runs in ($OUT).
JUDGEMENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "judgements.csv")
JKEY = ["set", "file_id", "field", "docview_value", "trafilatura_value"]
JCOLS = JKEY + ["docview_ok", "trafilatura_ok", "docview_error", "trafilatura_error", "reason"]
rows = {(r["set"], r["file_id"], r["field"]): r for r in csv.DictReader(open("fields.csv", encoding="utf-8"))}
try:
    J = {tuple(j[k] for k in JKEY): j for j in csv.DictReader(open(JUDGEMENTS, encoding="utf-8"))}
except FileNotFoundError:
    J = {}
n = 0
for line in sys.stdin:
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    parts = [p.strip() for p in line.split("|", 6)]  # fields split at "|": write a literal pipe in a text as ¦
    assert len(parts) == 7, line
    pid, field, a, b, ea, eb, reason = parts
    s, fid = pid.split("/", 1)
    s = {"fundus": "fundus-dev", "newspaper": "newspaper-dev", "wcxb": "wcxb-dev"}.get(s, s)
    assert a in ("right", "wrong", "undecidable") and b in ("right", "wrong", "undecidable"), line
    r = rows[(s, fid, field)]
    k = (s, fid, field, r["docview_value"], r["trafilatura_value"])
    J[k] = dict(zip(JCOLS, list(k) + [a, b, ea, eb, reason]))
    n += 1
with open(JUDGEMENTS, "w", newline="", encoding="utf-8") as f:
    w = csv.DictWriter(f, JCOLS)
    w.writeheader()
    for k in sorted(J):
        w.writerow(J[k])
print(f"{n} judgements written; {len(J)} on file", file=sys.stderr)
