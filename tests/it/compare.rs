//! End-to-end tests of `docview compare` and `docview query --explain` on the bundled samples:
//! the sample WARC ingested, then compared with the labelled set written for it.

use crate::common::{DOCVIEW, SAMPLES, docview_succeeds, ingested};
use std::path::Path;
use std::process::Command;

use docview::compare::{CompareOptions, CompareReport, compare, write_report};

fn report_on_samples(dir: &Path) -> CompareReport {
    let mut options = CompareOptions::new(ingested(dir));
    options.corpus = Some(Path::new(SAMPLES).join("labelled"));
    options.runs = 2;
    compare(&options).expect("compare")
}

#[test]
fn compare_on_the_samples_measures_size_cost_and_retrieval() {
    let dir = tempfile::tempdir().unwrap();
    let report = report_on_samples(dir.path());
    // Part 1: four indexes of the same kept pages; the cleaned ones are smaller.
    let names: Vec<&str> = report.sizes.iter().map(|s| s.index.as_str()).collect();
    assert_eq!(names, ["fulltext", "topic", "abstract", "docview"]);
    let kept = report.sizes[0].docs;
    assert!(report.sizes.iter().all(|s| s.docs == kept));
    assert_eq!(report.sizes[0].terms_ratio, 1.0);
    for s in &report.sizes[1..3] {
        assert!(s.terms_ratio < 1.0 && s.bytes_ratio < 1.0, "{s:?}");
    }
    // The DocView index holds the topic content and, apart, the keywords and abstract that the
    // abstract index holds with the title.
    let (topic, abs, docview) = (&report.sizes[1], &report.sizes[2], &report.sizes[3]);
    assert!(docview.terms > topic.terms && docview.terms < topic.terms + abs.terms);
    for s in &report.sizes[1..] {
        let b = s.bytes;
        assert!(b.postings > 0 && b.positions > 0 && b.store > 0 && b.term_dictionary > 0);
        assert!(b.postings + b.positions + b.store + b.term_dictionary <= b.total);
    }
    // Part 2: the set's titles as queries; the cleaned indexes read fewer postings.
    let cost = report.query_cost.as_ref().expect("query cost");
    assert_eq!(cost.queries, 35);
    assert_eq!(cost.per_index[0].postings_ratio, 1.0);
    assert!(cost.per_index[1].postings_per_query < cost.per_index[0].postings_per_query);
    assert!(
        cost.per_index
            .iter()
            .all(|c| c.latency_p95_ms >= c.latency_p50_ms)
    );
    // Part 3: 35 labelled pages, of which the 2 exact and 3 near replicas are not in the
    // indexes.
    let r = report.retrieval.as_ref().expect("retrieval");
    assert_eq!((r.pages, r.pages_missing), (30, 5));
    let (full, topic) = (&r.per_index[0].overall, &r.per_index[1].overall);
    assert_eq!(full.pages, 30);
    assert!(full.with_queries >= 100, "{full:?}");
    // Boilerplate snippets find their page in the full text, far less in the topic index.
    assert!(full.false_hit_at_10 > 0.5, "{full:?}");
    assert!(topic.false_hit_at_10 < 0.2, "{topic:?}");
    assert!(topic.hit_at_10 > 0.85, "{topic:?}");
    assert!(r.per_index[0].by_type.contains_key("article"));
    assert!(r.misses.iter().all(|m| m.index != "fulltext"));
}

#[test]
fn report_files_are_written_and_self_contained() {
    let dir = tempfile::tempdir().unwrap();
    let report = report_on_samples(dir.path());
    let out = dir.path().join("report");
    write_report(&report, &out).unwrap();
    let json: CompareReport =
        serde_json::from_str(&std::fs::read_to_string(out.join("compare.json")).unwrap()).unwrap();
    assert_eq!(json, report);
    let html = std::fs::read_to_string(out.join("compare.html")).unwrap();
    assert!(html.contains("fulltext") && html.contains("abstract"));
    for external in ["<script", "<link", "src=\"http", "@import", "url("] {
        assert!(!html.contains(external), "{external} in compare.html");
    }
}

/// `docview compare DIR --queries FILE --runs 1`.
fn compare_with_queries(ingest_dir: &Path, queries: &Path) -> std::process::Output {
    Command::new(DOCVIEW)
        .arg("compare")
        .arg(ingest_dir)
        .arg("--queries")
        .arg(queries)
        .args(["--runs", "1"])
        .output()
        .unwrap()
}

#[test]
fn cli_compare_and_query_explain() {
    let dir = tempfile::tempdir().unwrap();
    let ingest_dir = ingested(dir.path());
    let queries = dir.path().join("log.txt");
    std::fs::write(
        &queries,
        "# a query log\nferry dock\n\nreader-funded\n清溪大桥\n",
    )
    .unwrap();
    let o = compare_with_queries(&ingest_dir, &queries);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("3 queries from file"), "{text}");
    assert!(text.contains("no labelled set"), "{text}");
    assert!(ingest_dir.join("compare.html").is_file());
    // --explain shows the terms as indexed and their postings.
    let o = Command::new(DOCVIEW)
        .arg("query")
        .arg(&ingest_dir)
        .args(["--index", "fulltext", "--explain", "Reader-funded ferries"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("body:ferri"), "stemmed: {text}");
    assert!(text.contains("body:reader"), "{text}");
    assert!(text.contains("documents"), "{text}");
}

/// The DocView index searches a record's fields with the weights asked for: its title and topic
/// content at weight 1 rank as the topic index does (the same fields, the same statistics),
/// its keywords alone find the record they came from, `--explain` names the fields searched,
/// and weights are refused for another index or when they cannot be read.
#[test]
fn the_docview_index_searches_a_records_fields_with_their_weights() {
    let dir = tempfile::tempdir().unwrap();
    let ingest = ingested(dir.path());
    let topics = Path::new(SAMPLES).join("trec/topics.tsv");
    let run = |index: &str, weights: Option<&str>| {
        let file = dir
            .path()
            .join(format!("{index}-{}.run", weights.unwrap_or("default")));
        let mut cmd = Command::new(DOCVIEW);
        cmd.arg("query")
            .arg(&ingest)
            .arg("--batch")
            .arg(&topics)
            .arg("--run")
            .arg(&file)
            .args(["--index", index, "--tag", "t"]);
        if let Some(w) = weights {
            cmd.args(["--field-weights", w]);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read_to_string(file).unwrap()
    };
    let topic = run("topic", None);
    assert!(topic.lines().count() > 12, "{topic}");
    assert_eq!(run("docview", Some("title=1,topic=1")), topic);
    assert_ne!(
        run("docview", None),
        topic,
        "the default weighs the title less"
    );
    // A record's first keyword, searched in the keywords alone, finds that record.
    let records = std::fs::read_to_string(ingest.join("docviews.jsonl")).unwrap();
    let (url, keyword) = records
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find_map(|r| {
            let k = r["keywords"].as_array()?.first()?.as_str()?.to_string();
            Some((r["identifier"].as_str()?.to_string(), k))
        })
        .expect("a record with keywords");
    let query = |args: &[&str]| {
        Command::new(DOCVIEW)
            .arg("query")
            .arg(&ingest)
            .args(args)
            .output()
            .unwrap()
    };
    let weights = "title=0,keywords=1,abstract=0,topic=0";
    let out = query(&[
        "--index",
        "docview",
        "--field-weights",
        weights,
        "--json",
        "-k",
        "100",
        &keyword,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let hits = String::from_utf8_lossy(&out.stdout);
    assert!(
        hits.contains(&format!("\"url\":\"{url}\"")),
        "{keyword}: {hits}"
    );
    let all = "title=1,keywords=1,abstract=1,topic=1";
    let out = query(&[
        "--index",
        "docview",
        "--field-weights",
        all,
        "--explain",
        &keyword,
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    for field in ["title:", "keywords:", "abstract:", "body:"] {
        assert!(text.contains(field), "{field}: {text}");
    }
    let out = query(&["--index", "docview", "--explain", &keyword]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains("keywords:") && text.contains("body:"),
        "{text}"
    );
    // Weights for an index without fields to weigh, and weights that cannot be read.
    let out = query(&["--index", "topic", "--field-weights", "title=1", "ferry"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("--index docview"),
        "{err}"
    );
    let out = query(&["--index", "docview", "--field-weights", "body=2", "ferry"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("no field `body`"),
        "{err}"
    );
}

/// `compare --corpus` with a set none of whose pages the ingest holds is refused, naming the
/// set and the ingest, rather than printing all-zero tables.
#[test]
fn a_labelled_set_the_ingest_does_not_hold_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("other-set");
    std::fs::create_dir_all(set.join("ground-truth")).unwrap();
    std::fs::create_dir_all(set.join("html")).unwrap();
    std::fs::write(
        set.join("ground-truth/x.json"),
        r#"{"url": "http://elsewhere.example/x", "file_id": "x",
            "ground_truth": {"title": "X", "main_content": "Some text"}}"#,
    )
    .unwrap();
    std::fs::write(set.join("html/x.html"), "<p>Some text</p>").unwrap();
    let mut options = CompareOptions::new(ingested(dir.path()));
    options.corpus = Some(set.clone());
    options.runs = 1;
    let err = compare(&options).unwrap_err().to_string();
    assert!(
        err.contains("other-set") && err.contains("none of its 1 pages"),
        "{err}"
    );
}

/// A bad line of a `--queries` file (nested too deep for the query parser, nothing to search
/// for, not UTF-8 text) is an error naming the file and the line, not an abort, and nothing is
/// written.
#[test]
fn a_bad_line_of_a_queries_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let ingest_dir = ingested(dir.path());
    let queries = dir.path().join("log.txt");
    for (bad, why) in [
        ("(".repeat(5000).into_bytes(), "nested"),
        ("\"(".repeat(20_000).into_bytes(), "nested"),
        (b"title:".to_vec(), "nothing to search for"),
        (
            b"ferry \xff\xfe dock".to_vec(),
            "not UTF-8 text (byte 7 of the line)",
        ),
    ] {
        let mut text = b"# a query log\r\nferry dock\r\n".to_vec();
        text.extend(bad);
        text.extend(b"\nharbor\n");
        std::fs::write(&queries, text).unwrap();
        let o = compare_with_queries(&ingest_dir, &queries);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{:?}: {err}", o.status);
        assert!(err.contains("log.txt line 3"), "{err}");
        assert!(err.contains(why), "{why:?} not in {err}");
        assert!(!ingest_dir.join("compare.json").exists());
    }
}

/// The python with ir-measures to check docview's measures against: `DOCVIEW_IR_PYTHON`
/// (CI's `.ci/run` makes a virtual environment with it), else `python3` when it has it.
fn ir_measures_python() -> Option<String> {
    let candidates = std::env::var("DOCVIEW_IR_PYTHON")
        .ok()
        .into_iter()
        .chain(std::iter::once("python3".to_string()));
    for python in candidates {
        let has = Command::new(&python)
            .args(["-c", "import ir_measures"])
            .output()
            .is_ok_and(|o| o.status.success());
        if has {
            return Some(python);
        }
    }
    None
}

/// Issue 44: `compare --topics --qrels` on the samples' own test collection
/// (corpus-samples/trec: 13 topics, 12 of them judged) gives each index's nDCG@10, P@10, AP,
/// R@100, RR@10 and Judged@10, tests the cleaned indexes against the full text, and writes
/// the runs, which `query --batch` writes alike and ir-measures scores as docview does, to
/// four decimals.
#[test]
fn topics_and_qrels_give_trec_measures_and_runs() {
    let dir = tempfile::tempdir().unwrap();
    let ingest = ingested(dir.path());
    let trec = Path::new(SAMPLES).join("trec");
    let (topics, qrels) = (trec.join("topics.tsv"), trec.join("qrels.txt"));
    let runs = dir.path().join("runs");
    let out = dir.path().join("report");
    let status = Command::new(DOCVIEW)
        .arg("compare")
        .arg(&ingest)
        .arg("--topics")
        .arg(&topics)
        .arg("--qrels")
        .arg(&qrels)
        .arg("--run-dir")
        .arg(&runs)
        .arg("--out")
        .arg(&out)
        .args(["--vocabulary", "0"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert!(status.status.success(), "{stdout}");
    assert!(
        stdout.contains("4. Ranked retrieval: 12 judged topics"),
        "{stdout}"
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("compare.json")).unwrap()).unwrap();
    let html = std::fs::read_to_string(out.join("compare.html")).unwrap();
    assert!(html.contains("Part 4: ranked retrieval") && html.contains("<th>nDCG@10</th>"));
    // Part 4: a chart per measure, each with the cleaned indexes' p-values above their bars.
    let part4 = &html[html.find("<h2 id=\"ranking\">").unwrap()..];
    let charts: Vec<&str> = part4.split("<svg ").skip(1).collect();
    assert_eq!(charts.len(), 6, "a chart per measure");
    for (chart, measure) in
        charts
            .iter()
            .zip(["nDCG@10", "P@10", "AP", "R@100", "RR@10", "Judged@10"])
    {
        assert!(
            chart.contains(&format!(">\n{measure}\n</text>")),
            "{measure}: {chart}"
        );
        assert_eq!(chart.matches(">\np ").count(), 3, "{measure}: {chart}");
    }
    assert!(part4.contains("(p 0."));
    let ranking = &report["ranking"];
    assert_eq!(ranking["judged_topics"], 12);
    assert_eq!(ranking["unjudged_topics"], serde_json::json!(["13"]));
    // Topic 12's second relevant page was never crawled.
    assert_eq!(ranking["judged_not_indexed"], 1);
    let indexes = ranking["indexes"].as_array().unwrap();
    let names: Vec<&str> = indexes
        .iter()
        .map(|i| i["index"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["fulltext", "topic", "abstract", "docview"]);
    for index in indexes {
        let mean = &index["mean"];
        // Each topic's page is found, most of them first.
        assert!(mean["ndcg@10"].as_f64().unwrap() > 0.9, "{index}");
        assert!(mean["recall@100"].as_f64().unwrap() > 0.9, "{index}");
        assert_eq!(index["topics"].as_array().unwrap().len(), 12);
        let versus = index["versus_fulltext"].as_array().unwrap();
        if index["index"] == "fulltext" {
            assert!(versus.is_empty());
        } else {
            assert_eq!(versus.len(), 6);
            assert!(versus.iter().all(|v| {
                let p = v["p_value"].as_f64().unwrap();
                p > 0.0 && p <= 1.0
            }));
        }
    }
    // The runs: TREC lines, the dry stone wall first for topic 1.
    let topic_run = std::fs::read_to_string(runs.join("topic.run")).unwrap();
    let first = topic_run.lines().next().unwrap();
    let fields: Vec<&str> = first.split(' ').collect();
    assert_eq!(fields.len(), 6, "{first}");
    assert_eq!(
        (fields[0], fields[1], fields[2], fields[3], fields[5]),
        (
            "1",
            "Q0",
            "http://www.fieldnotes.example/2021/11/how-a-dry-stone-wall-stays-up/",
            "1",
            "docview-topic"
        )
    );
    // query --batch writes the same run.
    let batch = dir.path().join("batch.run");
    let out = Command::new(DOCVIEW)
        .arg("query")
        .arg(&ingest)
        .arg("--batch")
        .arg(&topics)
        .arg("--run")
        .arg(&batch)
        .args(["--index", "topic", "--threads", "2"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&batch).unwrap(), topic_run);
    // An independent implementation agrees.
    let Some(python) = ir_measures_python() else {
        println!("skipping the ir-measures check: no python with ir_measures (DOCVIEW_IR_PYTHON)");
        return;
    };
    let check = Command::new(python)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/ir/check_measures.py"))
        .arg(&qrels)
        .arg(&runs)
        .arg(dir.path().join("report/compare.json"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(
        check.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&check.stderr)
    );
    assert!(
        said.contains("288 figures equal to four decimals"),
        "{said}"
    );
}

/// `--topics` without `--qrels`, a query and `--batch` together, and a bad topics file are
/// refused with what was wrong.
#[test]
fn bad_test_collections_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ingest = ingested(dir.path());
    let topics = Path::new(SAMPLES).join("trec/topics.tsv");
    let out = Command::new(DOCVIEW)
        .arg("compare")
        .arg(&ingest)
        .arg("--topics")
        .arg(&topics)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--qrels"));
    let bad = dir.path().join("bad.tsv");
    std::fs::write(&bad, "1\tfine\n2 no tab\n").unwrap();
    let out = Command::new(DOCVIEW)
        .arg("query")
        .arg(&ingest)
        .arg("--batch")
        .arg(&bad)
        .arg("--run")
        .arg(dir.path().join("x.run"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("line 2"), "{err}");
    assert!(!dir.path().join("x.run").exists());
    let out = Command::new(DOCVIEW)
        .arg("query")
        .arg(&ingest)
        .arg("harbour")
        .arg("--batch")
        .arg(&topics)
        .output()
        .unwrap();
    assert!(!out.status.success());
}

/// Issue 44, part 4: `docview export --format pyserini` hands the records to Anserini/Pyserini
/// as `{"id", "contents"}` lines: the topic content by default, the fields --contents names
/// joined by a blank line, ids from --docid; a record without the id field is an error and
/// --out is then not made.
#[test]
fn export_writes_pyserinis_json_collection() {
    let dir = tempfile::tempdir().unwrap();
    let ingest = ingested(dir.path());
    let records: Vec<serde_json::Value> = std::fs::read_to_string(ingest.join("docviews.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let export = |args: &[&str]| {
        let out = Command::new(DOCVIEW)
            .arg("export")
            .arg(&ingest)
            .args(args)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (ok, stdout, _) = export(&["--format", "pyserini"]);
    assert!(ok);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), records.len());
    for (line, record) in lines.iter().zip(&records) {
        assert_eq!(line.as_object().unwrap().len(), 2, "{line}");
        assert_eq!(line["id"], record["identifier"]);
        assert_eq!(line["contents"], record["topic_content"]);
    }
    let file = dir.path().join("collection.jsonl");
    let (ok, _, stderr) = export(&[
        "--contents",
        "title,abstract,topic",
        "--docid",
        "warc_record_id",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains(&format!("{} records exported", records.len())),
        "{stderr}"
    );
    let first: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&file)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(first["id"], records[0]["warc_record_id"]);
    let want = format!(
        "{}\n\n{}\n\n{}",
        records[0]["title"].as_str().unwrap(),
        records[0]["abstract"].as_str().unwrap(),
        records[0]["topic_content"].as_str().unwrap()
    );
    assert_eq!(first["contents"], want.as_str());
    let missing = dir.path().join("missing.jsonl");
    let (ok, _, stderr) = export(&["--docid", "id", "--out", missing.to_str().unwrap()]);
    assert!(!ok && stderr.contains("has no \"id\""), "{stderr}");
    assert!(!missing.exists());
    let (ok, _, stderr) = export(&["--contents", "body"]);
    assert!(!ok && stderr.contains("no record field"), "{stderr}");
}

/// Issue 44, part 4: docview's Pyserini export read back by `ingest --url-field id
/// --text-field contents` (a collection cleaned elsewhere) keeps each line's text as the
/// record's topic content, uncleaned: the records of the samples come back with their
/// identifiers, topic content and language, the headline that opens a topic content as the
/// title, and an export of them is the first export byte for byte; the stages read the lines
/// as `ingest` does; markup in a text stays text.
#[test]
fn an_export_read_back_as_text_keeps_its_records_text() {
    let dir = tempfile::tempdir().unwrap();
    let ingest = ingested(dir.path());
    let (export, again, export_again) = (
        dir.path().join("collection.jsonl"),
        dir.path().join("again"),
        dir.path().join("again.jsonl"),
    );
    let path = |p: &Path| p.to_str().expect("a UTF-8 temporary path").to_string();
    let (ingest_s, export_s, again_s) = (path(&ingest), path(&export), path(&again));
    docview_succeeds(&["export", &ingest_s, "--out", &export_s]);
    docview_succeeds(&[
        "ingest",
        "-q",
        "--url-field",
        "id",
        "--text-field",
        "contents",
        "--out",
        &again_s,
        &export_s,
    ]);
    crate::common::check_records(&again);
    let records = |out: &Path| -> Vec<serde_json::Value> {
        std::fs::read_to_string(out.join("docviews.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let (first, second) = (records(&ingest), records(&again));
    assert_eq!(first.len(), second.len());
    let mut titled = 0;
    for (a, b) in first.iter().zip(&second) {
        for field in ["identifier", "topic_content", "language"] {
            assert_eq!(a[field], b[field], "{field} of {}", a["identifier"]);
        }
        // Not cleaned again: no links nor metadata come from a text.
        assert_eq!(b["relevant_links"], serde_json::json!([]));
        let topic = a["topic_content"].as_str().unwrap();
        if b["title_from_keywords"] == false {
            assert_eq!(topic.lines().next(), b["title"].as_str());
            titled += 1;
        }
    }
    assert!(titled >= 10, "{titled} titles of {}", second.len());
    // The full text of a text page is its text: the full-text and topic indexes hold the same.
    let stats = docview::index::index_stats(&again).unwrap();
    assert_eq!(stats[0].terms, stats[1].terms);
    docview_succeeds(&["export", &again_s, "--out", &path(&export_again)]);
    assert!(std::fs::read(&export).unwrap() == std::fs::read(&export_again).unwrap());
    // Two shards of the stages give the one process's output.
    let mut options = docview::pipeline::IngestOptions::new(vec![export.clone()], again.clone());
    options.jsonl_keys = docview::input::JsonlKeys {
        url: "id".into(),
        text: Some("contents".into()),
        ..Default::default()
    };
    let many = dir.path().join("many");
    crate::stages::both(&options, &again, &many, 2);
    crate::stages::assert_same(&again, &many);
    // Markup and entities in a text are words as written, not HTML.
    let notes = dir.path().join("notes.jsonl");
    let text = "Notes on <script>alert(1)</script> tags &amp; entities\n\
                The reader keeps <b>angle brackets</b> as they are written.";
    let line = serde_json::json!({"id": "note-1", "contents": text, "source": "notes"});
    std::fs::write(&notes, format!("{line}\n")).unwrap();
    let mut options = options.clone();
    options.inputs = vec![notes];
    options.out = dir.path().join("notes");
    crate::common::ingest_checked(&options);
    let note = &records(&options.out)[0];
    assert_eq!(
        (note["identifier"].as_str(), note["topic_content"].as_str()),
        (Some("note-1"), Some(text))
    );
    assert_eq!(note["input_fields"]["source"], "notes");
}
