"""Checks docview's ranked-retrieval measures against ir-measures (pytrec_eval's trec_eval).

    python check_measures.py QRELS RUNS_DIR COMPARE_JSON

For each index of COMPARE_JSON (written by `docview compare --topics --qrels --run-dir
RUNS_DIR`), scores RUNS_DIR/INDEX.run against QRELS with ir-measures and compares every
topic's nDCG@10, P@10, AP, R@100, RR@10 and Judged@10 with docview's, to four decimals. A
topic docview found nothing for has no line in the run, so ir-measures does not score it:
docview's figures for it must then all be 0. RR@10 is trec_eval's recip_rank (ir-measures'
RR through pytrec_eval) on each topic's top 10 in trec_eval's order (score descending, then
document id descending): ir-measures' own RR@10 runs MS MARCO's script, which orders tied
scores by document id ascending, so on ties the two disagree with each other. Prints what differs and exits 1 when anything
does; prints the number of figures compared and exits 0 otherwise.
"""

import json
import sys

import ir_measures
from ir_measures import AP, RR, Judged, P, R, nDCG

MEASURES = {
    "ndcg@10": nDCG @ 10,
    "p@10": P @ 10,
    "ap": AP,
    "recall@100": R @ 100,
    "judged@10": Judged @ 10,
}


def top_10(run):
    """The run cut to each topic's top 10 in trec_eval's order."""
    by_topic = {}
    for r in run:
        by_topic.setdefault(r.query_id, []).append(r)
    cut = []
    for rows in by_topic.values():
        rows.sort(key=lambda r: (r.score, r.doc_id), reverse=True)
        cut.extend(rows[:10])
    return cut


def main(qrels_path, runs_dir, compare_path):
    report = json.load(open(compare_path, encoding="utf-8"))["ranking"]
    qrels = list(ir_measures.read_trec_qrels(qrels_path))
    wrong, compared = [], 0
    for index in report["indexes"]:
        run = list(ir_measures.read_trec_run(f"{runs_dir}/{index['index']}.run"))
        theirs = {}
        for m in ir_measures.iter_calc(list(MEASURES.values()), qrels, run):
            theirs[(m.query_id, str(m.measure))] = m.value
        for m in ir_measures.iter_calc([RR], qrels, top_10(run)):
            theirs[(m.query_id, "rr@10")] = m.value
        for topic in index["topics"]:
            for name in [*MEASURES, "rr@10"]:
                mine = topic[name]
                key = "rr@10" if name == "rr@10" else str(MEASURES[name])
                other = theirs.get((topic["qid"], key))
                if other is None:
                    if topic["retrieved"] != 0 or mine != 0:
                        wrong.append(f"{index['index']} {topic['qid']} {name}: docview {mine}, ir-measures none")
                    continue
                compared += 1
                if round(mine, 4) != round(other, 4):
                    wrong.append(f"{index['index']} {topic['qid']} {name}: docview {mine:.6f}, ir-measures {other:.6f}")
    for line in wrong:
        print(line)
    if wrong:
        return 1
    print(f"{compared} figures equal to four decimals")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
