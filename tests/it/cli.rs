//! End-to-end tests of the `docview` binary on `corpus-samples/`: `extract` in its three formats,
//! standard input, several pages, errors, `eval` on the labelled samples, and `--help`.

use crate::common::{CORPUS, DOCVIEW, SAMPLES, check_records, docview, docview_ok};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// The hidden promo text on every Fieldnotes page, which must never reach the output.
const HIDDEN_PROMO: &str = "best binoculars under 200 pounds";

fn site_page(site: &str, file: &str) -> PathBuf {
    Path::new(SAMPLES).join("sites").join(site).join(file)
}

/// A page of `../shared/corpus` by its path there, or `None`, said, when the corpus is not here.
fn corpus_page(path: &str) -> Option<PathBuf> {
    let page = Path::new(CORPUS).join(path);
    if page.is_file() {
        Some(page)
    } else {
        println!("skipping the corpus page: {} not found", page.display());
        None
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs `docview extract` on `args` and returns its standard output; it must succeed.
fn extract(args: &[&str]) -> String {
    let mut all = vec!["extract"];
    all.extend_from_slice(args);
    docview_ok(&all)
}

/// The ground truth of labelled page `id` (e.g. "0022").
fn ground_truth(id: &str) -> Value {
    let path = Path::new(SAMPLES)
        .join("labelled/ground-truth")
        .join(format!("{id}.json"));
    let text = std::fs::read_to_string(&path).expect("read ground truth");
    serde_json::from_str(&text).expect("ground truth is JSON")
}

/// The paragraphs of a page's reference main content (the first is the headline).
fn reference_paragraphs(gt: &Value) -> Vec<String> {
    gt["ground_truth"]["main_content"]
        .as_str()
        .expect("main_content")
        .split("\n\n")
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|s| s.as_str().expect("string").to_string())
        .collect()
}

/// The one JSON report `docview extract --format json PAGE` prints.
fn json_report(page: &Path) -> Value {
    let out = extract(&["--format", "json", page.to_str().unwrap()]);
    let lines: Vec<&str> = out.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one JSON line per page: {out}");
    serde_json::from_str(lines[0]).expect("JSON report")
}

/// Undoes the character references an HTML serializer may write for text.
fn unescape_html(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

#[test]
fn extract_text_of_a_fieldnotes_article() {
    let gt = ground_truth("0022");
    let first = &reference_paragraphs(&gt)[1];
    let text = extract(&[site_page("fieldnotes", "dawn-chorus.html")
        .to_str()
        .unwrap()]);
    assert!(
        text.contains(first.as_str()),
        "first paragraph {first:?} missing from:\n{text}"
    );
    // The samples' labels count a figure's caption as the article's; the default drops an
    // article's captions (the labelled sets' references leave them out), `--favor recall`
    // keeps them.
    let caption = "A robin on the hawthorn at 5.10";
    for snippet in strings(&gt["ground_truth"]["with"]) {
        assert_eq!(
            text.contains(&snippet),
            snippet != caption,
            "`with` snippet {snippet:?} in:\n{text}"
        );
    }
    for snippet in strings(&gt["ground_truth"]["without"]) {
        assert!(
            !text.contains(&snippet),
            "`without` snippet {snippet:?} in:\n{text}"
        );
    }
    assert!(!text.contains(HIDDEN_PROMO));
    let recall = extract(&[
        "--favor",
        "recall",
        site_page("fieldnotes", "dawn-chorus.html")
            .to_str()
            .unwrap(),
    ]);
    for snippet in strings(&gt["ground_truth"]["with"]) {
        assert!(recall.contains(&snippet), "{snippet:?} missing");
    }
}

#[test]
fn hidden_promo_never_appears_on_any_fieldnotes_page() {
    let dir = Path::new(SAMPLES).join("sites/fieldnotes");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("read fieldnotes")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    assert!(pages.len() >= 10);
    for format in ["text", "json", "html"] {
        let mut args = vec!["--format", format];
        args.extend(pages.iter().map(|p| p.to_str().unwrap()));
        let out = extract(&args);
        if format == "json" {
            // Block reports carry no text, so only the topic content and paragraphs matter.
            for line in out.lines() {
                let report: Value = serde_json::from_str(line).expect("JSON line");
                let topic = report["topic_content"].as_str().unwrap();
                assert!(!topic.contains(HIDDEN_PROMO), "{}", report["input"]);
                for p in strings(&report["paragraphs"]) {
                    assert!(!p.contains(HIDDEN_PROMO), "{}", report["input"]);
                }
            }
        } else {
            assert!(
                !out.contains(HIDDEN_PROMO),
                "hidden promo text in --format {format}"
            );
        }
    }
}

#[test]
fn extract_gb2312_article() {
    let gt = ground_truth("0002");
    let paras = reference_paragraphs(&gt);
    let page = site_page("lanting-news", "bridge.html");
    let text = extract(&[page.to_str().unwrap()]);
    // A whole sentence of the second body paragraph, decoded from GB2312.
    let sentence = paras[2].split('。').next().unwrap().to_string() + "。";
    assert!(sentence.chars().count() > 10, "short sentence {sentence:?}");
    assert!(
        text.contains(&sentence),
        "{sentence:?} missing from:\n{text}"
    );
    for snippet in strings(&gt["ground_truth"]["with"]) {
        assert!(
            text.contains(&snippet),
            "`with` snippet {snippet:?} missing"
        );
    }
    assert!(
        !text.contains('\u{FFFD}'),
        "replacement characters:\n{text}"
    );

    let report = json_report(&page);
    let charset = report["charset"].as_str().unwrap();
    assert!(
        charset == "GBK" || charset.eq_ignore_ascii_case("gb18030"),
        "charset {charset}"
    );
    assert_eq!(report["charset_source"], "metatag");
}

#[test]
fn utf8_page_declaring_gb2312_is_read_as_utf8() {
    // old-street.html declares gb2312 but its bytes are UTF-8.
    let gt = ground_truth("0008");
    let first = &reference_paragraphs(&gt)[1];
    let page = site_page("lanting-news", "old-street.html");
    let report = json_report(&page);
    assert_eq!(report["charset"], "UTF-8");
    assert_eq!(report["charset_source"], "utf8valid");
    let sentence = first.split('。').next().unwrap();
    assert!(
        report["topic_content"].as_str().unwrap().contains(sentence),
        "{sentence:?} missing"
    );
}

#[test]
fn json_report_of_an_article() {
    let page = site_page("fieldnotes", "dawn-chorus.html");
    let report = json_report(&page);
    for key in [
        "input",
        "url",
        "cleaner",
        "charset",
        "charset_source",
        "page_type",
        "title",
        "topic_root",
        "topic_content",
        "paragraphs",
        "language",
        "features",
        "blocks",
    ] {
        assert!(report.get(key).is_some(), "no {key} in the JSON report");
    }
    assert_eq!(report["input"], page.to_str().unwrap());
    assert_eq!(report["cleaner"], "learned");
    assert_eq!(report["page_type"], "topic");
    assert!(report["topic_root"].is_object());

    let blocks = report["blocks"].as_array().expect("blocks");
    assert!(!blocks.is_empty());
    let mut kept = 0;
    for block in blocks {
        for key in [
            "id",
            "parent",
            "label",
            "depth",
            "type",
            "weight",
            "force",
            "terms",
            "anchor_terms",
            "links",
            "images",
            "hint",
            "hidden",
            "verdict",
            "reason",
        ] {
            assert!(block.get(key).is_some(), "no {key} in block {block}");
        }
        let verdict = block["verdict"].as_str().expect("verdict");
        assert!(
            ["kept", "text_dropped", "pictures_kept", "dropped"].contains(&verdict),
            "verdict {verdict}"
        );
        if verdict == "kept" {
            kept += 1;
            let reason = block["reason"].as_str().expect("reason");
            assert!(
                !reason.trim().is_empty(),
                "kept block without reason: {block}"
            );
        }
    }
    assert!(kept > 0, "no kept block");
    // The hidden promo block is reported as hidden and not kept.
    assert!(
        blocks
            .iter()
            .any(|b| b["hidden"] == true && b["verdict"] != "kept"),
        "the display:none block is not reported hidden and dropped"
    );
    // Each text block shows the learned cleaner's features and score, and the decision
    // follows the score: a block scored at least the bar after the article is kept. The
    // article is a prose page, decided at the higher of the model's two thresholds: a
    // navigation item scored between them is dropped, and so is a related story after the
    // article's region that scores above the prose threshold but below the bar after it.
    let scored: Vec<&Value> = blocks.iter().filter(|b| b.get("score").is_some()).collect();
    assert!(scored.len() >= 5, "{} scored blocks", scored.len());
    for block in &scored {
        assert!(
            block["terms"].as_u64().unwrap() > 0,
            "scored block without text: {block}"
        );
        let features = block["block_features"].as_object().expect("block_features");
        assert!(features.contains_key("block_weight") && features.contains_key("page_cosine"));
        let score = block["score"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&score), "{score}");
        if score >= f64::from(docview::clean::AFTER_REGION_SCORE) {
            assert_eq!(block["verdict"], "kept", "{block}");
        }
    }
    assert!(scored.iter().any(|b| {
        let score = b["score"].as_f64().unwrap();
        (f64::from(docview::clean::PROSE_THRESHOLD)..f64::from(docview::clean::AFTER_REGION_SCORE))
            .contains(&score)
            && b["verdict"] == "dropped"
    }));
    assert!(scored.iter().any(|b| {
        let score = b["score"].as_f64().unwrap();
        (f64::from(docview::clean::THRESHOLD)..f64::from(docview::clean::PROSE_THRESHOLD))
            .contains(&score)
            && b["verdict"] == "dropped"
    }));
    assert!(scored.iter().any(|b| b["score"].as_f64().unwrap() < 0.5));
}

#[test]
fn json_report_of_the_framework_cleaner_has_no_scores() {
    let page = site_page("fieldnotes", "dawn-chorus.html");
    let out = extract(&[
        "--format",
        "json",
        "--cleaner",
        "framework",
        page.to_str().unwrap(),
    ]);
    let report: Value = serde_json::from_str(out.trim()).expect("JSON");
    assert_eq!(report["cleaner"], "framework");
    let blocks = report["blocks"].as_array().expect("blocks");
    assert!(blocks.iter().all(|b| b.get("score").is_none()));
}

#[test]
fn a_model_file_replaces_the_shipped_model_and_a_bad_one_is_named() {
    let page = site_page("fieldnotes", "dawn-chorus.html");
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("old-model.json");
    std::fs::write(&bad, r#"{"format": "docview-block-model", "version": 0}"#).unwrap();
    let out = docview(&[
        "extract",
        "--model",
        bad.to_str().unwrap(),
        page.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("old-model.json") && err.contains("version 0"),
        "{err}"
    );
    // A model with another cleaner is refused, not ignored.
    let out = docview(&[
        "extract",
        "--cleaner",
        "framework",
        "--model",
        bad.to_str().unwrap(),
        page.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("learned cleaner"), "{}", stderr(&out));
}

#[test]
fn json_url_is_reported() {
    let page = site_page("fieldnotes", "dawn-chorus.html");
    let url = "http://www.fieldnotes.example/2021/04/what-the-dawn-chorus-is-saying/";
    let out = extract(&["--format", "json", "--url", url, page.to_str().unwrap()]);
    let report: Value = serde_json::from_str(out.trim()).expect("JSON");
    assert_eq!(report["url"], url);
}

#[test]
fn json_page_types_of_articles() {
    for (site, file) in [
        ("fieldnotes", "dawn-chorus.html"),
        ("fieldnotes", "moths.html"),
        ("harbor-gazette", "ferry.html"),
        ("lanting-news", "bridge.html"),
        ("xinyu-daily", "night-market.html"),
    ] {
        let report = json_report(&site_page(site, file));
        assert_eq!(report["page_type"], "topic", "{site}/{file}");
    }
}

// The section index pages of the four sites are listings (hub pages), but the framework
// cleaner currently calls all four "topic": see the report that came with these tests.
#[test]
#[ignore = "the framework cleaner calls every sample index page topic, not hub"]
fn json_page_type_of_index_pages_is_hub() {
    for site in [
        "lanting-news",
        "harbor-gazette",
        "fieldnotes",
        "xinyu-daily",
    ] {
        let report = json_report(&site_page(site, "index.html"));
        assert_eq!(report["page_type"], "hub", "{site}/index.html");
    }
}

#[test]
fn json_prints_one_line_per_page() {
    let a = site_page("fieldnotes", "dawn-chorus.html");
    let b = site_page("harbor-gazette", "ferry.html");
    let out = extract(&["--format", "json", a.to_str().unwrap(), b.to_str().unwrap()]);
    let reports: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(reports.len(), 2);
    assert_eq!(reports[0]["input"], a.to_str().unwrap());
    assert_eq!(reports[1]["input"], b.to_str().unwrap());
}

#[test]
fn extract_html_format() {
    let gt = ground_truth("0022");
    let first = &reference_paragraphs(&gt)[1];
    let html = extract(&[
        "--format",
        "html",
        site_page("fieldnotes", "dawn-chorus.html")
            .to_str()
            .unwrap(),
    ]);
    assert!(
        html.starts_with("<!DOCTYPE html>"),
        "starts with {:?}",
        &html[..html.len().min(80)]
    );
    let text = unescape_html(&html);
    assert!(text.contains(first.as_str()), "first paragraph missing");
    // Navigation, footer, share tools, cookie banner and the hidden promo stay out.
    for boilerplate in [
        "Photo essays",
        "Advertise with us",
        "All rights reserved",
        "Share this:",
        "Support us",
        HIDDEN_PROMO,
    ] {
        assert!(
            !text.contains(boilerplate),
            "{boilerplate:?} in the topic content page"
        );
    }
}

#[test]
fn extract_from_stdin() {
    let path = site_page("fieldnotes", "dawn-chorus.html");
    let bytes = std::fs::read(&path).expect("read page");
    let mut child = Command::new(DOCVIEW)
        .args(["extract", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn docview");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&bytes).expect("write stdin"));
    let out = child.wait_with_output().expect("docview output");
    writer.join().unwrap();
    assert!(out.status.success(), "stdin: {}", stderr(&out));
    let from_stdin = stdout(&out);
    let from_file = extract(&[path.to_str().unwrap()]);
    assert!(!from_stdin.trim().is_empty());
    assert_eq!(from_stdin, from_file);
}

/// Runs `docview extract ARGS -` with `page` on standard input.
fn extract_stdin(args: &[&str], page: &[u8]) -> Output {
    let mut child = Command::new(DOCVIEW)
        .arg("extract")
        .args(args)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn docview");
    let mut stdin = child.stdin.take().unwrap();
    let bytes = page.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&bytes).expect("write stdin"));
    let out = child.wait_with_output().expect("docview output");
    writer.join().unwrap();
    out
}

/// Issue 25: a one-paragraph page keeps its paragraph, and a page whose topic content is empty
/// says so and why on standard error, one line per page, and still succeeds.
#[test]
fn extract_says_why_the_topic_content_is_empty() {
    let one = b"<html><body><p>hello world, this is a one-paragraph page.</p></body></html>";
    for format in ["text", "json", "html"] {
        let out = extract_stdin(&["--format", format], one);
        assert_eq!(out.status.code(), Some(0), "{format}: {}", stderr(&out));
        assert!(
            stdout(&out).contains("hello world, this is a one-paragraph page."),
            "{format}: {}",
            stdout(&out)
        );
        assert_eq!(stderr(&out), "", "{format}");
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let scripted = dir.path().join("scripted.html");
    std::fs::write(
        &scripted,
        "<html><body><script>render()</script></body></html>",
    )
    .unwrap();
    let links = dir.path().join("links.html");
    let menu: String = (0..12)
        .map(|i| format!("<li><a href=/s{i}>Section {i}</a></li>"))
        .collect();
    // A menu, named as one: a bare list of links may be a hub's topic content.
    std::fs::write(
        &links,
        format!("<html><body><nav><ul>{menu}</ul></nav></body></html>"),
    )
    .unwrap();
    let (scripted, links) = (scripted.to_str().unwrap(), links.to_str().unwrap());
    let article = site_page("fieldnotes", "dawn-chorus.html");
    let out = docview(&["extract", scripted, article.to_str().unwrap(), links]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert_eq!(
        lines[0],
        format!(
            "docview: {scripted}: the topic content is empty: the page shows no text (its \
             markup holds none outside scripts, styles and hidden elements)"
        )
    );
    assert!(
        lines[1].starts_with(&format!(
            "docview: {links}: the topic content is empty: the learned cleaner kept none of its "
        )),
        "{err}"
    );
}

#[test]
fn extract_gzip_page() {
    // The labelled copy is the gzip of the page's bytes: same output as the page itself.
    let gz = Path::new(SAMPLES).join("labelled/html/0002.html.gz");
    let plain = site_page("lanting-news", "bridge.html");
    assert_eq!(
        extract(&[gz.to_str().unwrap()]),
        extract(&[plain.to_str().unwrap()])
    );
}

#[test]
fn several_pages_get_headers() {
    let a = site_page("fieldnotes", "dawn-chorus.html");
    let b = site_page("lanting-news", "bridge.html");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let out = extract(&[a, b]);
    let ha = format!("==> {a} <==");
    let hb = format!("==> {b} <==");
    let pa = out.find(&ha).expect("header of the first page");
    let pb = out.find(&hb).expect("header of the second page");
    assert!(pa < pb);
    assert!(out.starts_with(&ha));
    // A single page has no header.
    assert!(!extract(&[a]).contains("==> "));
}

/// Issue 41 item 12: a page whose text holds lines like the headers still gives one header per
/// page; those lines come out with a backslash before them, and a line of the page text that
/// starts so gets one more.
#[test]
fn page_text_that_looks_like_a_header_never_makes_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tricky = dir.path().join("shell-notes.html");
    std::fs::write(
        &tricky,
        "<html><body><nav><a href=\"/\">Home</a> <a href=\"/shell\">Shell</a></nav><article>\
         <h1>Reading several files with tail</h1>\
         <p>The tail command prints the last lines of each file it is given, and when it is \
         given several files it prints a header line before the lines of each one, naming the \
         file, so that a reader can tell where one file ends and the next begins.</p>\
         <p>==> fake.html <==</p>\
         <p>That line above is what such a header looks like: two equals signs and an arrow, \
         the name of the file, and the arrow back. Tools that read the output of tail look for \
         it at the start of a line, and docview writes the same header for several pages.</p>\
         <pre>$ tail -n1 a.txt b.txt\n==> a.txt <==\nlast line of a\n\n\\==> b.txt <==\nlast \
         line of b</pre>\
         <p>Each header names the file whose lines follow it, and a blank line comes before \
         every header but the first, which makes the output easy to read for people and for \
         programs alike.</p></article><footer>Copyright</footer></body></html>",
    )
    .unwrap();
    let tricky = tricky.to_str().unwrap();
    let other = site_page("fieldnotes", "dawn-chorus.html");
    let other = other.to_str().unwrap();
    for format in ["text", "markdown"] {
        let out = extract(&[tricky, other, tricky, "--format", format]);
        let headers: Vec<&str> = out.lines().filter(|l| l.starts_with("==> ")).collect();
        assert_eq!(
            headers,
            [
                format!("==> {tricky} <=="),
                format!("==> {other} <=="),
                format!("==> {tricky} <==")
            ],
            "{format}: {out}"
        );
        // (Markdown writes the `<` as `\<`.)
        assert!(out.contains("\n\\==> fake.html "), "{format}: {out}");
        if format == "markdown" {
            // The code block keeps its lines: each that looks like a header is escaped too.
            assert!(out.contains("\n\\==> a.txt <==\n"), "{out}");
            assert!(out.contains("\n\\\\==> b.txt <==\n"), "{out}");
        }
        // One page alone has no header, and its text is as it is.
        let alone = extract(&[tricky, "--format", format]);
        assert!(alone.contains("\n==> fake.html "), "{alone}");
    }
}

/// Issue 41 item 11: a crawl file (WARC, JSON Lines) is refused with the command that reads it,
/// not cleaned as one page.
#[test]
fn extract_refuses_crawl_files_and_names_ingest() {
    let dir = tempfile::tempdir().expect("tempdir");
    let warc_gz = Path::new(SAMPLES).join("warc/corpus-samples.warc.gz");
    let mut plain = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::MultiGzDecoder::new(std::fs::File::open(&warc_gz).unwrap()),
        &mut plain,
    )
    .unwrap();
    let warc = dir.path().join("crawl.dat");
    std::fs::write(&warc, &plain).unwrap();
    let jsonl = dir.path().join("pages.jsonl");
    std::fs::write(
        &jsonl,
        "{\"url\": \"http://a.example/\", \"html\": \"<p>a</p>\"}\n",
    )
    .unwrap();
    for (path, what) in [
        (warc_gz.as_path(), "a WARC file"),
        (warc.as_path(), "a WARC file"),
        (jsonl.as_path(), "JSON Lines"),
    ] {
        let path = path.to_str().unwrap();
        let out = docview(&["extract", path]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(stdout(&out).is_empty(), "{}", stdout(&out));
        assert!(
            err.contains(&format!("{path} is {what}, not an HTML page")),
            "{err}"
        );
        assert!(err.contains(&format!("docview ingest {path}")), "{err}");
        assert!(
            err.contains(&format!("docview extract {path} --format jsonl")),
            "{err}"
        );
    }
    // From standard input too.
    let out = extract_stdin(&[], &plain);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("- is a WARC file"),
        "{}",
        stderr(&out)
    );
}

/// Issue 41 item 12: the cut of a page past twice the byte limit (cut before decoding) tells
/// the page's real size.
#[test]
fn a_cut_page_is_told_with_its_real_size() {
    let dir = tempfile::tempdir().expect("tempdir");
    let page = dir.path().join("huge.html");
    let para = "<p>The harbour ferry waits for the tide at the north quay.</p>\n";
    let html = format!("<html><body>{}</body></html>", para.repeat(50_000));
    std::fs::write(&page, &html).unwrap();
    let out = docview(&["extract", page.to_str().unwrap(), "--max-page-mb", "1"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        html.len() > 2 << 20,
        "past twice the limit: cut before decoding"
    );
    assert!(
        err.contains(&format!(
            "HTML cut at byte 1048576 of a page of {} bytes",
            html.len()
        )),
        "{err}"
    );
}

#[test]
fn missing_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("no-such-page.html");
    let out = docview(&["extract", missing.to_str().unwrap()]);
    assert!(!out.status.success());
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(missing.to_str().unwrap()),
        "stderr does not name the path: {err}"
    );
    assert!(err.starts_with("docview: "), "{err}");
}

#[test]
fn empty_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let empty = dir.path().join("empty.html");
    std::fs::write(&empty, b"").unwrap();
    let out = docview(&["extract", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(empty.to_str().unwrap()),
        "stderr does not name the path: {err}"
    );
    assert!(stdout(&out).trim().is_empty());
}

#[test]
fn one_bad_page_among_good_ones() {
    // The good page is still printed; the bad one is named; the exit code is 1.
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("gone.html");
    let good = site_page("fieldnotes", "dawn-chorus.html");
    let out = docview(&["extract", good.to_str().unwrap(), missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains(missing.to_str().unwrap()));
    assert!(stdout(&out).contains("At a quarter to five in late April"));
}

#[test]
fn binary_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let png = dir.path().join("photo.png");
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bytes.extend((0u32..2000).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    std::fs::write(&png, bytes).unwrap();
    let out = docview(&["extract", png.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains(png.to_str().unwrap()));
}

/// The scores of one row of the eval table: (pages, precision, recall, F1).
fn table_row(table: &str, name: &str) -> Option<(usize, f64, f64, f64)> {
    table.lines().find_map(|line| {
        let cols: Vec<&str> = line.split_whitespace().collect();
        if cols.len() == 5 && cols[0] == name {
            Some((
                cols[1].parse().ok()?,
                cols[2].parse().ok()?,
                cols[3].parse().ok()?,
                cols[4].parse().ok()?,
            ))
        } else {
            None
        }
    })
}

#[test]
fn eval_on_the_labelled_samples() {
    let set = Path::new(SAMPLES).join("labelled");
    let ids: Vec<String> = {
        let mut ids: Vec<String> = std::fs::read_dir(set.join("ground-truth"))
            .expect("ground-truth dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        ids.sort();
        ids
    };
    assert_eq!(ids.len(), 35);

    let dir = tempfile::tempdir().expect("tempdir");
    let pred = dir.path().join("pred.jsonl");
    let report = dir.path().join("report.json");
    let out = docview(&[
        "eval",
        set.to_str().unwrap(),
        "--by-type",
        "--out",
        pred.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
        "--threads",
        "2",
    ]);
    assert!(out.status.success(), "eval failed: {}", stderr(&out));
    let table = stdout(&out);

    let (pages, precision, recall, f1) =
        table_row(&table, "all").unwrap_or_else(|| panic!("no `all` row in:\n{table}"));
    assert_eq!(pages, ids.len(), "{table}");
    for score in [precision, recall, f1] {
        assert!((0.0..=1.0).contains(&score), "{table}");
    }
    assert!(f1 >= 0.80, "overall F1 {f1} below 0.80:\n{table}");
    // --by-type: a row per page type, the pages adding up to the whole set.
    let mut typed = 0;
    for page_type in ["article", "listing", "gallery"] {
        let (n, _, _, f1) =
            table_row(&table, page_type).unwrap_or_else(|| panic!("no {page_type} row"));
        assert!((0.0..=1.0).contains(&f1));
        typed += n;
    }
    assert_eq!(typed, ids.len(), "{table}");

    let text = std::fs::read_to_string(&pred).expect("predictions file");
    let mut seen: Vec<String> = text
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).expect("prediction line is JSON");
            assert!(v["main_content"].is_string(), "{line}");
            v["file_id"].as_str().expect("file_id").to_string()
        })
        .collect();
    assert_eq!(seen.len(), ids.len(), "one prediction per labelled page");
    seen.sort();
    assert_eq!(seen, ids);

    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(&report).expect("report file"))
            .expect("report is JSON");
    assert!(report.is_object());
}

#[test]
fn help_mentions_every_flag() {
    let cases: [(&[&str], &[&str]); 3] = [
        (&["--help"], &["extract", "eval", "--help", "--version"]),
        (
            &["extract", "--help"],
            &[
                "PAGE",
                "--url",
                "--format",
                "--cleaner",
                "--charset",
                "--help",
            ],
        ),
        (
            &["eval", "--help"],
            &[
                "SET",
                "--by-type",
                "--out",
                "--report",
                "--cleaner",
                "--threads",
                "--help",
            ],
        ),
    ];
    for (args, flags) in cases {
        let out = docview(args);
        assert!(out.status.success(), "docview {args:?}: {}", stderr(&out));
        let help = stdout(&out);
        for flag in flags {
            assert!(
                help.contains(flag),
                "docview {args:?} does not mention {flag}"
            );
        }
    }
    let format_help = stdout(&docview(&["extract", "--help"]));
    for value in ["text", "json", "html"] {
        assert!(format_help.contains(value), "--format value {value}");
    }
}

/// Every option and argument of every command has a description in `-h` (the flag alone on its
/// line means a field without a doc comment).
#[test]
fn every_flag_of_every_command_is_explained() {
    let commands: &[&[&str]] = &[
        &[],
        &["extract"],
        &["eval"],
        &["ingest"],
        &["query"],
        &["compare"],
        &["replicas"],
        &["replicas", "build"],
        &["replicas", "eval"],
    ];
    for command in commands {
        let mut args = command.to_vec();
        args.push("-h");
        let out = docview(&args);
        assert!(out.status.success(), "docview {args:?}: {}", stderr(&out));
        let help = stdout(&out);
        let mut entries = 0;
        for line in help.lines() {
            let entry = line.trim_start();
            let is_entry =
                line.starts_with("  ") && (entry.starts_with('-') || entry.starts_with('<'));
            if !is_entry {
                continue;
            }
            entries += 1;
            // "--out <DIR>  Output directory": a gap of two spaces, then words.
            let described = entry
                .split_once("  ")
                .is_some_and(|(_, rest)| rest.trim().chars().any(char::is_alphabetic));
            assert!(described, "docview {args:?}: no description for {entry:?}");
        }
        assert!(entries > 0, "docview {args:?} lists no options:\n{help}");
    }
}

#[test]
fn bad_arguments_fail() {
    assert!(!docview(&[]).status.success());
    assert!(!docview(&["extract"]).status.success());
    assert!(
        !docview(&["extract", "--format", "xml", "x.html"])
            .status
            .success()
    );
    assert!(
        !docview(&["extract", "--cleaner", "nope", "x.html"])
            .status
            .success()
    );
    let a = site_page("fieldnotes", "dawn-chorus.html");
    let out = docview(&[
        "extract",
        "--url",
        "http://x.example/",
        a.to_str().unwrap(),
        a.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
}

/// `docview extract ... | head -1`: the reader closes the pipe after one line; docview stops
/// quietly with status 0, as grep and ripgrep do.
#[test]
fn a_closed_pipe_is_a_quiet_normal_end() {
    use std::io::{BufRead, BufReader};
    let mut pages: Vec<String> = Vec::new();
    for site in std::fs::read_dir(Path::new(SAMPLES).join("sites")).unwrap() {
        for page in std::fs::read_dir(site.unwrap().path()).unwrap() {
            pages.push(page.unwrap().path().display().to_string());
        }
    }
    pages.sort();
    for format in ["json", "text"] {
        let mut child = Command::new(DOCVIEW)
            .arg("extract")
            .args(&pages)
            .args(["--format", format])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run docview");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        // The read end is dropped here; the rest of the output (far more than a pipe holds)
        // meets a closed pipe.
        let out = child.wait_with_output().unwrap();
        assert!(!first.is_empty());
        assert_eq!(out.status.code(), Some(0), "{format}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{format}");
    }
}

/// With standard error not a terminal (a pipe here, as under cron or nohup), ingest prints
/// plain progress lines, each pass at least once with `--progress-every 0`.
#[test]
fn ingest_prints_progress_lines_when_stderr_is_not_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let warc = Path::new(SAMPLES).join("warc/corpus-samples.warc.gz");
    let o = docview(&[
        "ingest",
        &warc.display().to_string(),
        "--out",
        &out.display().to_string(),
        "--progress-every",
        "0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    check_records(&out);
    let err = stderr(&o);
    for phase in ["statistics", "ingest"] {
        assert!(
            err.lines()
                .any(|l| l.starts_with(&format!("docview: {phase} "))
                    && l.contains("MB of input read")
                    && l.contains("MB/s of HTML")),
            "{phase}: {err}"
        );
    }
    let quiet = docview(&[
        "ingest",
        &warc.display().to_string(),
        "--out",
        &dir.path().join("quiet").display().to_string(),
        "--progress-every",
        "0",
        "--quiet",
    ]);
    assert!(quiet.status.success(), "{}", stderr(&quiet));
    check_records(&dir.path().join("quiet"));
    assert!(!stderr(&quiet).contains("MB of input read"));
}

/// A page past `--max-page-mb` is cut: its first part is cleaned and indexed, the record's
/// `truncated` says how, and the summary counts it.
#[test]
fn ingest_cuts_pages_past_the_page_limits_and_records_it() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("big.html");
    let para = "<div><p>The harbour ferry waits for the tide at the north quay.</p></div>\n";
    std::fs::write(
        &page,
        format!("<html><body>{}</body></html>", para.repeat(30_000)),
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = docview(&[
        "ingest",
        &page.display().to_string(),
        "--out",
        &out.display().to_string(),
        "--max-page-mb",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    check_records(&out);
    assert!(
        stdout(&o).contains("1 cut to the page limits"),
        "{}",
        stdout(&o)
    );
    let record: Value = serde_json::from_str(
        std::fs::read_to_string(out.join("docviews.jsonl"))
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let why = record["truncated"].as_str().expect("truncated");
    assert!(why.contains("--max-page-mb"), "{why}");
    assert!(
        record["topic_content"]
            .as_str()
            .unwrap()
            .contains("harbour ferry")
    );
    // extract says so on standard error.
    let o = docview(&[
        "extract",
        &page.display().to_string(),
        "--max-page-tags",
        "100",
    ]);
    assert!(o.status.success());
    assert!(stderr(&o).contains("--max-page-tags"), "{}", stderr(&o));
}

/// `docview blocks` labels the bundled labelled pages, `docview train-cleaner --lexicon` trains
/// a model with a lexicon on them (the same bytes with 1 or 2 threads), and `extract --model`
/// cleans with it.
#[test]
fn blocks_train_cleaner_and_model_flag_on_the_labelled_samples() {
    let dir = tempfile::tempdir().expect("temp dir");
    let set = Path::new(SAMPLES).join("labelled");
    let csv = dir.path().join("blocks.csv");
    let out = docview(&[
        "blocks",
        set.to_str().unwrap(),
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&csv).expect("blocks.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    for column in [
        "page_id",
        "site",
        "block_weight",
        "lexicon_word_mean",
        "label",
    ] {
        assert!(header.contains(&column), "no {column} in {header:?}");
    }
    let label = header.iter().position(|c| *c == "label").unwrap();
    let lexicon = header
        .iter()
        .position(|c| *c == "lexicon_word_known")
        .unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert!(rows.len() > 300, "{} blocks", rows.len());
    assert!(rows.iter().all(|r| r.len() == header.len()));
    let content = rows.iter().filter(|r| r[label] == "1").count();
    assert!(
        content > 50 && content < rows.len() - 50,
        "{content} content blocks"
    );
    // The lexicon columns are filled (cross-fitted by site), not left at 0.
    assert!(
        rows.iter()
            .filter(|r| r[lexicon].parse::<f32>().unwrap() > 0.0)
            .count()
            > rows.len() / 2
    );

    let train = |threads: &str, name: &str| {
        let model = dir.path().join(name);
        let out = docview(&[
            "train-cleaner",
            set.to_str().unwrap(),
            "--out",
            model.to_str().unwrap(),
            "--trees",
            "20",
            "--lexicon",
            "--threads",
            threads,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        std::fs::read(&model).expect("model file")
    };
    let one = train("1", "one.json");
    let two = train("2", "two.json");
    assert!(one == two, "the same pages gave different models");
    let model: Value = serde_json::from_slice(&one).expect("model JSON");
    assert_eq!(model["format"], "docview-block-model");
    assert!(model["trained_on"].as_str().unwrap().contains("35 pages"));
    assert_eq!(model["params"]["lexicon"], true);
    let words = model["lexicon"]["words"]
        .as_object()
        .expect("lexicon words");
    assert!(words.len() > 50, "{} lexicon words", words.len());

    let page = site_page("fieldnotes", "dawn-chorus.html");
    let model_path = dir.path().join("one.json");
    let text = extract(&[
        "--model",
        model_path.to_str().unwrap(),
        page.to_str().unwrap(),
    ]);
    assert!(!text.trim().is_empty());
    assert!(!text.contains(HIDDEN_PROMO));
}

/// `docview eval --cleaner all` scores every cleaner on the bundled labelled pages and prints
/// one table: a row per cleaner with its F1 overall and per page type, the same figure the
/// cleaner's own `eval` gives.
#[test]
fn eval_all_compares_every_cleaner_on_the_labelled_samples() {
    let set = Path::new(SAMPLES).join("labelled");
    let set = set.to_str().unwrap();
    let out = docview(&["eval", set, "--cleaner", "all", "--threads", "2"]);
    assert!(out.status.success(), "eval failed: {}", stderr(&out));
    let table = stdout(&out);
    let header = table
        .lines()
        .find(|l| l.starts_with("cleaner"))
        .unwrap_or_else(|| panic!("no header in:\n{table}"));
    for column in ["all", "article", "gallery", "listing", "pages/s"] {
        assert!(header.contains(column), "{header}");
    }
    for cleaner in docview::clean::CLEANERS {
        let row: Vec<&str> = table
            .lines()
            .find(|l| l.split_whitespace().next() == Some(cleaner))
            .unwrap_or_else(|| panic!("no row for {cleaner} in:\n{table}"))
            .split_whitespace()
            .collect();
        // name, all, three types, pages/s, MB/s, errors.
        assert_eq!(row.len(), 8, "{row:?}");
        for f1 in &row[1..5] {
            let f1: f64 = f1.parse().expect("F1");
            assert!((0.0..=1.0).contains(&f1), "{row:?}");
        }
        assert_eq!(row[7], "0", "no page fails: {row:?}");
        // The same overall F1 as the cleaner's own evaluation.
        let alone = docview(&["eval", set, "--cleaner", cleaner, "--threads", "2"]);
        let (_, _, _, f1) = table_row(&stdout(&alone), "all").expect("all row");
        assert_eq!(row[1], format!("{f1:.4}"), "{cleaner}");
    }
    let refused = docview(&["eval", set, "--cleaner", "all", "--out", "/tmp/never.jsonl"]);
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("--out"), "{}", stderr(&refused));
}

/// A site-aware cleaner on one page alone has no site model: `extract --format json` says so
/// and the default cleaner's topic content comes out; `eval` learns the models of the labelled
/// samples' sites and says how many pages had one.
#[test]
fn site_aware_cleaner_says_which_pages_had_a_site_model() {
    let page = site_page("harbor-gazette", "ferry.html");
    let page = page.to_str().unwrap();
    let json: Value = serde_json::from_str(&extract(&[
        page,
        "--cleaner",
        "infodiscoverer",
        "--format",
        "json",
    ]))
    .expect("JSON");
    assert_eq!(json["cleaner"], "infodiscoverer");
    let said = json["site_model"].as_str().expect("site_model");
    assert!(said.contains("default cleaner, learned"), "{said}");
    let learned: Value = serde_json::from_str(&extract(&[page, "--format", "json"])).expect("JSON");
    assert_eq!(json["topic_content"], learned["topic_content"]);
    assert!(learned.get("site_model").is_none());

    let set = Path::new(SAMPLES).join("labelled");
    let out = docview(&["eval", set.to_str().unwrap(), "--cleaner", "infodiscoverer"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let line = err
        .lines()
        .find(|l| l.starts_with("infodiscoverer: site models for "))
        .unwrap_or_else(|| panic!("no site-model line in:\n{err}"));
    let with: usize = line["infodiscoverer: site models for ".len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a page count");
    // 34 pages are of sites with a model; a page like none of its site's page clusters (a
    // template too rare in the sample) is cleaned by the fallback and not counted.
    assert!((25..=34).contains(&with), "{line}");
    let (pages, _, _, f1) = table_row(&stdout(&out), "all").expect("all row");
    assert_eq!(pages, 35);
    assert!(f1 > 0.8, "{f1}");
}

/// `train-cleaner --site-evidence` gives a model with a site stage; its cleaner learns each
/// site's evidence first wherever it cleans a site's pages (eval, ingest), and `--pages-alone`
/// turns that off. The shipped model has no site stage: the default ingest learns nothing
/// first.
#[test]
fn a_site_evidence_model_learns_each_sites_pages_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let set = Path::new(SAMPLES).join("labelled");
    let set = set.to_str().unwrap();
    let model = dir.path().join("site.json");
    let model = model.to_str().unwrap();
    let out = docview(&[
        "train-cleaner",
        set,
        "--out",
        model,
        "--trees",
        "20",
        "--site-evidence",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("stage 3 (the site stage"),
        "{}",
        stdout(&out)
    );
    let json: Value =
        serde_json::from_slice(&std::fs::read(model).expect("model")).expect("model JSON");
    assert_eq!(json["params"]["site_evidence"], true);
    assert!(json["site_stage"].is_object());
    assert!(
        json["trained_on"].as_str().unwrap().contains("site stage"),
        "{}",
        json["trained_on"]
    );

    // eval: the four sites of 4 or more pages (34 pages) have a model; one page is alone.
    let out = docview(&["eval", set, "--model", model]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("site models for 34 pages; 1 pages"),
        "{}",
        stderr(&out)
    );
    let out = docview(&["eval", set, "--model", model, "--pages-alone"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("site models for 0 pages"),
        "{}",
        stderr(&out)
    );
    // A page alone says it had no site evidence.
    let page = site_page("fieldnotes", "dawn-chorus.html");
    let report: Value = serde_json::from_str(&extract(&[
        "--model",
        model,
        page.to_str().unwrap(),
        "--format",
        "json",
    ]))
    .expect("JSON");
    let said = report["site_model"].as_str().expect("site_model");
    assert!(said.contains("without site evidence"), "{said}");

    // ingest: the site models are learnt first, unless --pages-alone; never with the shipped
    // model.
    let warc = Path::new(SAMPLES).join("warc/corpus-samples.warc.gz");
    let ingest = |name: &str, extra: &[&str]| -> Value {
        let out_dir = dir.path().join(name);
        let mut args = vec![
            "ingest",
            warc.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = docview(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        check_records(&out_dir);
        serde_json::from_slice(&std::fs::read(out_dir.join("summary.json")).expect("summary"))
            .expect("summary JSON")
    };
    let with_site = ingest("with", &["--model", model]);
    let sites = &with_site["site_models"];
    assert_eq!(sites["cleaner"], "learned", "{with_site}");
    assert!(sites["pages_with_model"].as_u64().unwrap() > 0, "{sites}");
    let alone = ingest("alone", &["--model", model, "--pages-alone"]);
    assert!(
        alone.get("site_models").is_none_or(Value::is_null),
        "{alone}"
    );
    let shipped = ingest("shipped", &[]);
    assert!(
        shipped.get("site_models").is_none_or(Value::is_null),
        "{shipped}"
    );
    // Standard input is read once: the pages are cleaned alone, and the run says so.
    let page = std::fs::read_to_string(site_page("fieldnotes", "moths.html")).expect("page");
    let line = serde_json::json!({"url": "http://a.example/moths", "html": page}).to_string();
    let stdin_out = dir.path().join("stdin");
    let mut child = Command::new(DOCVIEW)
        .args(["ingest", "-", "--model", model, "--out"])
        .arg(&stdin_out)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run docview");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(line.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("docview ran");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cleans each page without its site's model"),
        "{}",
        stderr(&out)
    );
    check_records(&stdin_out);
}

/// `docview classify eval --folds` cross-validates by site and prints the paper's per-class
/// table, accuracy and confusion matrix, for topic content and (`--compare-raw`) raw pages;
/// asking for neither a model nor folds, or for a field no ground truth has, is an error that
/// says so.
#[test]
fn classify_eval_cross_validates_and_explains_bad_requests() {
    let set = Path::new(SAMPLES).join("labelled");
    let set = set.to_str().unwrap();
    let out = docview(&[
        "classify",
        "eval",
        set,
        "--folds",
        "2",
        "--method",
        "knn",
        "--compare-raw",
        "--k",
        "3",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("2-fold cross-validation by site, kNN on topic vectors (k = 3"),
        "{text}"
    );
    assert!(
        text.contains("2-fold cross-validation by site, kNN on raw vectors (k = 3"),
        "{text}"
    );
    assert_eq!(text.matches("macro F1").count(), 2, "{text}");
    for class in ["article", "gallery", "listing"] {
        assert!(
            text.lines().any(|l| l.starts_with(class)),
            "{class}: {text}"
        );
    }
    assert!(text.contains("confusion (rows: truth, columns: predicted)"));

    // The trees (the default method): cross-validated, and a trained model scored; the
    // kNN's flags are refused with them.
    let out = docview(&["classify", "eval", set, "--folds", "2", "--trees", "20"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("2-fold cross-validation by site, trees on page signals (20 a class"),
        "{text}"
    );
    assert_eq!(text.matches("macro F1").count(), 1, "{text}");
    let trees_dir = tempfile::tempdir().unwrap();
    let trees = trees_dir.path().join("trees.json");
    let out = docview(&[
        "classify",
        "train",
        set,
        "--trees",
        "20",
        "--out",
        trees.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = docview(&["classify", "eval", set, "--model", trees.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("(docview-classifier-trees v1)"),
        "{}",
        stdout(&out)
    );
    for flags in [&["--compare-raw"][..], &["--raw"][..]] {
        let mut args = vec!["classify", "eval", set, "--folds", "2"];
        args.extend_from_slice(flags);
        let out = docview(&args);
        assert!(!out.status.success());
        assert!(stderr(&out).contains("--method knn"), "{}", stderr(&out));
    }

    let neither = docview(&["classify", "eval", set]);
    assert!(!neither.status.success());
    assert!(stderr(&neither).contains("--model"), "{}", stderr(&neither));

    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.json");
    let missing = docview(&[
        "classify",
        "train",
        set,
        "--label",
        "no_such_field",
        "--out",
        model.to_str().unwrap(),
    ]);
    assert!(!missing.status.success());
    assert!(
        stderr(&missing).contains("no_such_field"),
        "{}",
        stderr(&missing)
    );
    assert!(!model.exists(), "no model written");
}

/// A hand-made article with a table, a nested list, a code block, inline code, links and an
/// image, with its metadata in the head; around it, a menu and a footer.
const MARKDOWN_PAGE: &str = r#"<!DOCTYPE html><html lang="en"><head><title>Tide gauge notes</title>
<meta property="og:site_name" content="Harbor Notes">
<meta name="author" content="Ada Crane">
<meta property="article:published_time" content="2024-05-01T08:30:00+02:00">
<script type="application/ld+json">{"@type":"NewsArticle","dateModified":"2024-05-03"}</script>
<link rel="canonical" href="/notes/tide-gauge.html">
</head><body>
<nav><a href="/">Home</a> <a href="/notes/">Notes</a> <a href="/about/">About</a></nav>
<article><h1>Reading the tide gauge</h1>
<p>The harbor's tide gauge logs the water level every six minutes, and the log is public: this
note shows how to read it, what the columns mean and how to check a reading against the
printed tables the harbor master keeps in the office by the pier.</p>
<h2>The columns</h2>
<table><thead><tr><th>Column</th><th>Meaning</th></tr></thead>
<tbody><tr><td>t</td><td>time, UTC</td></tr><tr><td>h</td><td>height in metres</td></tr></tbody></table>
<p>Download the log from the <a href="/data/gauge.csv">harbor's data page</a> or from the
<a href="https://tides.example.org/stations/42">national archive</a>, then check three things
before you trust a reading from it on a stormy day.</p>
<ol><li>The clock: every row is in UTC</li><li>The datum<ul><li>chart datum before 2019</li>
<li>mean sea level since</li></ul></li><li>The flags in the last column</li></ol>
<p>Read it with <code>gauge --since 2024-05-01</code>, which prints one row per reading:</p>
<pre><code>import csv
for row in csv.reader(open("gauge.csv")):
    print(row[0],   row[1])
</code></pre>
<p><img src="img/gauge.jpg" alt="The gauge on the north pier"> The gauge on the north pier,
with the harbor master's office behind it and the ferry dock on the far side.</p>
</article>
<footer>© Harbor Notes · <a href="/privacy/">Privacy</a></footer></body></html>"#;

/// `docview extract` of [`MARKDOWN_PAGE`] in `format`, at its URL.
fn extract_gauge_page(format: &str) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let page = dir.path().join("gauge.html");
    std::fs::write(&page, MARKDOWN_PAGE).unwrap();
    extract(&[
        page.to_str().unwrap(),
        "--format",
        format,
        "--url",
        "https://harbor.example/notes/tide-gauge.html",
    ])
}

#[test]
fn extract_renders_markdown_tables_lists_code_and_absolute_links() {
    let md = extract_gauge_page("markdown");
    assert!(md.starts_with("# Reading the tide gauge\n\n"), "{md}");
    assert!(md.contains("\n\n## The columns\n\n"), "{md}");
    assert!(
        md.contains(
            "| Column | Meaning |\n| --- | --- |\n| t | time, UTC |\n| h | height in metres |"
        ),
        "{md}"
    );
    assert!(
        md.contains("[harbor's data page](https://harbor.example/data/gauge.csv)"),
        "{md}"
    );
    assert!(
        md.contains("[national archive](https://tides.example.org/stations/42)"),
        "{md}"
    );
    assert!(
        md.contains(
            "1. The clock: every row is in UTC\n2. The datum\n   - chart datum before 2019\n   - mean sea level since\n3. The flags in the last column"
        ),
        "{md}"
    );
    assert!(
        md.contains("Read it with `gauge --since 2024-05-01`,"),
        "{md}"
    );
    assert!(
        md.contains(
            "```\nimport csv\nfor row in csv.reader(open(\"gauge.csv\")):\n    print(row[0],   row[1])\n```"
        ),
        "{md}"
    );
    assert!(
        md.contains("![The gauge on the north pier](https://harbor.example/notes/img/gauge.jpg)"),
        "{md}"
    );
    for furniture in ["Home", "About", "Privacy"] {
        assert!(!md.contains(furniture), "{furniture} in {md}");
    }
}

#[test]
fn extract_json_reports_the_metadata_the_page_declares() {
    let out = extract_gauge_page("json");
    let report: Value = serde_json::from_str(&out).expect("JSON report");
    let m = &report["metadata"];
    let field = |name: &str| (m[name]["value"].clone(), m[name]["source"].clone());
    assert_eq!(field("author"), ("Ada Crane".into(), "meta".into()), "{m}");
    assert_eq!(
        field("published"),
        ("2024-05-01T08:30:00+02:00".into(), "open-graph".into())
    );
    assert_eq!(field("modified"), ("2024-05-03".into(), "json-ld".into()));
    assert_eq!(
        field("site_name"),
        ("Harbor Notes".into(), "open-graph".into())
    );
    assert_eq!(
        field("canonical_url"),
        (
            "https://harbor.example/notes/tide-gauge.html".into(),
            "link-canonical".into()
        )
    );
    assert_eq!(field("language"), ("en".into(), "html-lang".into()));
}

/// Issue 43, item 3: the sample's editor's note, set in `<em>`, is italic in the Markdown and
/// plain in the text.
#[test]
fn extract_markdown_keeps_italics() {
    let page = Path::new(SAMPLES).join("sites/fieldnotes/point-ruth-light.html");
    let page = page.to_str().unwrap();
    let note = "This story first ran in The Harbor Gazette in September 2003.";
    let md = extract(&[page, "--format", "markdown"]);
    assert!(
        md.lines()
            .any(|l| l.starts_with(&format!("*{note}")) && l.ends_with("glaziers.*")),
        "{md}"
    );
    let text = extract(&[page]);
    assert!(text.lines().any(|l| l.starts_with(note)), "{text}");
}

/// Issue 43: `--with-metadata` puts the sample article's metadata (its title without the
/// site's name, the byline's author, the <time>'s date) before its Markdown and its text, as
/// YAML front matter; a jsonl line has it in `metadata` and refuses the flag.
#[test]
fn extract_with_metadata_writes_yaml_front_matter() {
    let page = Path::new(SAMPLES).join("sites/fieldnotes/stone-walls.html");
    let page = page.to_str().unwrap();
    let md = extract(&[page, "--format", "markdown", "--with-metadata"]);
    let front = md
        .strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n\n"))
        .map(|(front, _)| front)
        .unwrap_or_else(|| panic!("no front matter: {md}"));
    for line in [
        r#"title: "How a dry stone wall stays up""#,
        r#"author: "Joel Harkness""#,
        r#"url: "http://www.fieldnotes.example/2021/11/how-a-dry-stone-wall-stays-up/""#,
        r#"hostname: "www.fieldnotes.example""#,
        r#"sitename: "Fieldnotes""#,
        r#"date: "2021-11-14""#,
        r#"language: "en""#,
    ] {
        assert!(front.lines().any(|l| l == line), "{line} not in:\n{front}");
    }
    assert!(
        md.contains("\n---\n\nThere is no mortar in a dry stone wall."),
        "{md}"
    );
    let text = extract(&[page, "--with-metadata"]);
    assert!(
        text.starts_with("---\ntitle: \"How a dry stone wall stays up\"\n"),
        "{text}"
    );
    assert!(!extract(&[page, "--format", "markdown"]).starts_with("---"));
    let out = docview(&["extract", page, "--format", "jsonl", "--with-metadata"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("`metadata`"), "{}", stderr(&out));
    // The jsonl line's title loses the site's name too, and says where it came from.
    let line: Value = serde_json::from_str(&extract(&[page, "--format", "jsonl", "--quiet"]))
        .expect("one JSON line");
    assert_eq!(line["title"], "How a dry stone wall stays up");
    assert_eq!(line["metadata"]["title"]["source"], "json-ld");
    assert_eq!(line["metadata"]["site_name"]["value"], "Fieldnotes");
}

/// Issue 42: a tiny clean page (a heading, a paragraph and a table) keeps all of its text,
/// where the learned cleaner's blocks alone kept the table's header row.
#[test]
fn extract_keeps_a_small_page_whole() {
    let page = br#"<html><head><title>Prices</title></head><body><main><article><h1>Prices</h1>
<p>Here are the prices of fruit in our shop this week, as listed by the grocer on the board outside.</p>
<table><tr><th>Name</th><th>Price</th><th>Stock</th></tr><tr><td>Apple</td><td>$1</td><td>12</td></tr>
<tr><td>Pear</td><td>2 EUR</td><td>7</td></tr><tr><td>Fig</td><td>$3.50</td><td>x</td></tr></table>
</article></main></body></html>"#;
    let out = extract_stdin(&[], page);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for word in [
        "Prices",
        "Here are the prices of fruit",
        "Name",
        "Apple",
        "2 EUR",
        "$3.50",
    ] {
        assert!(text.contains(word), "{word:?} missing from:\n{text}");
    }
    // The same page with a navigation bar is not a small page without furniture: its menu goes.
    let with_nav = String::from_utf8_lossy(page).replace(
        "<main>",
        r#"<nav><a href="/">Home</a> <a href="/shop">Shop</a> <a href="/about">About us</a></nav><main>"#,
    );
    let out = extract_stdin(&[], with_nav.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stdout(&out).contains("About us"), "{}", stdout(&out));
}

/// Issue 42: `--favor` moves the learned cleaner's bars: on the fieldnotes article precision
/// drops the headline above the article's text (a block before its main region), recall also
/// keeps the headline's repeat below it, balanced sits between; an unknown setting is refused.
#[test]
fn extract_favor_moves_the_bars() {
    let page = site_page("fieldnotes", "dawn-chorus.html");
    let page = page.to_str().unwrap();
    let text = |favor: &str| extract(&[page, "--favor", favor]);
    let (precision, balanced, recall) = (text("precision"), text("balanced"), text("recall"));
    assert_eq!(balanced, extract(&[page]), "balanced is the default");
    let headline = "What the dawn chorus is actually saying";
    let count = |t: &str| t.matches(headline).count();
    assert_eq!(
        (count(&precision), count(&balanced), count(&recall)),
        (0, 1, 2)
    );
    let words = |t: &str| t.split_whitespace().count();
    assert!(words(&precision) < words(&balanced) && words(&balanced) < words(&recall));
    // Every paragraph precision keeps, recall keeps too.
    for para in precision.split("\n\n").filter(|p| !p.trim().is_empty()) {
        assert!(recall.contains(para.trim()), "{para:?} missing from recall");
    }
    let out = docview(&["extract", page, "--favor", "exact"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("precision, balanced, recall"), "{err}");
}

/// Issue 42: a passage a page prints twice (the article for wide screens and again for narrow
/// ones) is its topic content once; a paragraph the article itself says twice stays twice.
/// The JSON lines of `--format jsonl` output.
fn json_lines(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).expect("each line is a JSON object"))
        .collect()
}

#[test]
fn extract_streams_a_warc_a_folder_and_json_lines_to_one_line_per_page() {
    let warc = Path::new(SAMPLES).join("warc/corpus-samples.warc.gz");
    let warc = warc.to_str().unwrap();
    // A WARC: one line per page, in the WARC's order, with the record's identity.
    let out = docview(&["extract", warc, "--format", "jsonl", "--threads", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let one_thread = stdout(&out);
    let lines = json_lines(&one_thread);
    assert_eq!(lines.len(), 35);
    assert!(
        stderr(&out).contains("35 pages written"),
        "{}",
        stderr(&out)
    );
    let first = &lines[0];
    assert_eq!(first["url"], "http://www.fieldnotes.example/?p=1042");
    assert!(
        first["warc_record_id"]
            .as_str()
            .unwrap()
            .starts_with("<urn:uuid:")
    );
    assert_eq!(first["warc_date"], "2024-01-01T00:00:00Z");
    assert!(
        first["origin"]
            .as_str()
            .unwrap()
            .contains("corpus-samples.warc.gz@")
    );
    assert!(first["title"].as_str().unwrap().contains("dawn chorus"));
    let text = first["text"].as_str().unwrap();
    assert!(text.contains("A robin starts first"), "{text}");
    assert!(first.get("markdown").is_none());
    assert_eq!(first["page_type"], "topic");
    assert_eq!(first["language"], "en");
    // The same lines in the same order on four threads.
    let out = docview(&[
        "extract",
        warc,
        "--format",
        "jsonl",
        "--threads",
        "4",
        "--quiet",
    ]);
    assert_eq!(stdout(&out), one_thread);
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    // Markdown instead of text, and an output file written whole.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pages.jsonl");
    let out = docview(&[
        "extract",
        warc,
        "--format",
        "jsonl",
        "--markdown",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    let lines = json_lines(&std::fs::read_to_string(&file).unwrap());
    assert_eq!(lines.len(), 35);
    assert!(lines[0].get("text").is_none());
    assert!(
        lines[0]["markdown"]
            .as_str()
            .unwrap()
            .starts_with("# What the dawn chorus")
    );
    // A link is followed, not replaced; a device is written, not replaced.
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let link = dir.path().join("link.jsonl");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let link_arg = link.to_str().unwrap();
        let out = docview(&[
            "extract", warc, "--format", "jsonl", "--quiet", "--out", link_arg,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            json_lines(&std::fs::read_to_string(&file).unwrap()).len(),
            35
        );
        let out = docview(&[
            "extract",
            warc,
            "--format",
            "jsonl",
            "--quiet",
            "--out",
            "/dev/null",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let null = std::fs::metadata("/dev/null").unwrap();
        assert!(null.file_type().is_char_device());
    }
    // --markdown alone is refused: it belongs to --format jsonl.
    let out = docview(&["extract", warc, "--markdown"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--format jsonl"), "{}", stderr(&out));

    // A folder of pages, in file-name order: each file by the web address it declares (the
    // Fieldnotes pages' canonical links), its path in `origin`; a file that declares none by
    // its file URL.
    let folder = Path::new(SAMPLES).join("sites/fieldnotes");
    let lines = json_lines(&extract(&[folder.to_str().unwrap(), "--format", "jsonl"]));
    let origins: Vec<&str> = lines
        .iter()
        .map(|l| l["origin"].as_str().unwrap())
        .collect();
    assert!(origins.len() >= 10, "{origins:?}");
    assert!(
        origins[0].ends_with("/dawn-chorus-copy.html"),
        "{origins:?}"
    );
    assert_eq!(
        lines[0]["url"],
        "http://www.fieldnotes.example/2021/04/what-the-dawn-chorus-is-saying/"
    );
    let stone = lines
        .iter()
        .find(|l| l["origin"].as_str().unwrap().ends_with("/stone-walls.html"))
        .unwrap();
    assert_eq!(
        stone["url"],
        "http://www.fieldnotes.example/2021/11/how-a-dry-stone-wall-stays-up/"
    );
    let gazette = Path::new(SAMPLES).join("sites/harbor-gazette/council.html");
    let line = &json_lines(&extract(&[gazette.to_str().unwrap(), "--format", "jsonl"]))[0];
    let url = line["url"].as_str().unwrap();
    assert!(
        url.starts_with("file:///") && url.ends_with("/council.html"),
        "{url}"
    );
    assert!(stone.get("warc_record_id").is_none());
    assert!(stone["text"].as_str().unwrap().contains("wall"), "{stone}");

    // JSON Lines on standard input: pages, and a broken line told and counted, not fatal.
    let input = "{\"url\": \"http://a.example/ferry\", \"html\": \"<title>Ferry</title><p>The ferry \
                 leaves the harbour at nine every morning and comes back at six in the evening, \
                 the harbour board said.</p>\"}\nnot json\n";
    let out = extract_stdin(&["--format", "jsonl"], input.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = json_lines(&stdout(&out));
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["url"], "http://a.example/ferry");
    assert_eq!(lines[0]["origin"], "-:1");
    assert!(lines[0]["text"].as_str().unwrap().contains("ferry leaves"));
    assert!(stderr(&out).contains("-:2"), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("1 could not be read"),
        "{}",
        stderr(&out)
    );
    // Other key names, and the line's other fields passed through after docview's own
    // (docview's `title` wins over the line's).
    let input = "{\"id\": \"doc-7\", \"link\": \"http://a.example/ferry\", \"title\": \"mine\", \
                 \"body\": \"<title>Ferry</title><p>The ferry leaves the harbour at nine every \
                 morning and comes back at six in the evening, the harbour board said.</p>\", \
                 \"tags\": [\"sea\", 2]}\n";
    let out = extract_stdin(
        &[
            "--format",
            "jsonl",
            "--url-field",
            "link",
            "--html-field",
            "body",
        ],
        input.as_bytes(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let line = stdout(&out);
    assert!(
        line.trim_end()
            .ends_with(r#","id":"doc-7","tags":["sea",2]}"#),
        "{line}"
    );
    // docview's `title` and its metadata's; the line's own ("mine") left out.
    assert_eq!(line.matches("\"title\"").count(), 2, "{line}");
    assert!(!line.contains("mine"), "{line}");
    let lines = json_lines(&line);
    assert_eq!(lines[0]["url"], "http://a.example/ferry");
    assert_eq!(lines[0]["title"], "Ferry");
    // Without the key names, the same line has no `url`: told, not fatal.
    let out = extract_stdin(&["--format", "jsonl"], input.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    assert!(
        stderr(&out).contains("missing field `url`"),
        "{}",
        stderr(&out)
    );
    // One HTML page on standard input: a line without an address, unless --url gives one.
    let page = "<html><head><title>Tides</title></head><body><p>The tide turns twice a day \
                along this coast, and the pools fill again within the hour.</p></body></html>";
    let lines = json_lines(&stdout(&extract_stdin(
        &["--format", "jsonl"],
        page.as_bytes(),
    )));
    assert_eq!(lines.len(), 1);
    assert!(lines[0]["url"].is_null());
    assert_eq!(lines[0]["origin"], "-");
    let with_url = extract_stdin(
        &["--format", "jsonl", "--url", "https://tides.example/"],
        page.as_bytes(),
    );
    assert_eq!(
        json_lines(&stdout(&with_url))[0]["url"],
        "https://tides.example/"
    );
}

/// Issue 43: with `--classify`, each line classifies its page as ingest's record of it does
/// (the same subject and code, genre and DocView type, whatever the collection); without it, a
/// line has the cleaner's type alone.
#[test]
fn extract_lines_classify_pages_as_ingest_records_do() {
    let warc = Path::new(SAMPLES).join("warc/corpus-samples.warc.gz");
    let warc = warc.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = docview(&["ingest", warc, "--out", out.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let records = json_lines(&std::fs::read_to_string(out.join("docviews.jsonl")).unwrap());
    let lines = json_lines(&extract(&[
        warc,
        "--format",
        "jsonl",
        "--quiet",
        "--classify",
    ]));
    assert_eq!(records.len(), 30);
    let mut hubs = 0;
    for r in &records {
        let line = lines.iter().find(|l| l["origin"] == r["origin"]).unwrap();
        assert_eq!(line["genre"], r["genre"], "{}", r["origin"]);
        assert_eq!(line["page_type"], r["type"], "{}", r["origin"]);
        // The subject: the same code, its label and score beside it, from the same model.
        assert_eq!(
            line["classification_code"], r["classification_code"],
            "{}",
            r["origin"]
        );
        let (ls, rs) = (&line["subject"], &r["subject"]);
        assert_eq!((&ls["code"], &ls["model"]), (&rs["code"], &rs["model"]));
        assert_eq!(
            line["classification_code"].as_str(),
            ls["code"].as_str().or(Some(""))
        );
        hubs += usize::from(r["type"] == "hub");
    }
    assert!(hubs > 0, "the samples' listings are hubs");
    let bare = json_lines(&extract(&[warc, "--format", "jsonl", "--quiet"]));
    assert!(bare.iter().all(|l| l.get("classification_code").is_none()));
    assert!(
        bare.iter()
            .all(|l| l.get("genre").is_none() && l.get("subject").is_none())
    );
    // The cleaner's type: the metadata and text are the same lines'.
    for (b, l) in bare.iter().zip(&lines) {
        assert_eq!((&b["text"], &b["metadata"]), (&l["text"], &l["metadata"]));
    }
    // --classify belongs to --format jsonl.
    let o = docview(&["extract", warc, "--classify"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--format jsonl"), "{}", stderr(&o));
}

#[test]
fn extract_leaves_out_a_hidden_paragraph_and_keeps_a_paywalled_body() {
    let paragraph = |attrs: &str, about: &str| {
        format!(
            "<p{attrs}>The {about} opens at nine on weekdays, the council said, and the staff \
             will help anyone who asks to find a book, a map or a newspaper of the town.</p>"
        )
    };
    let page = |hidden: &str| {
        format!(
            "<html><head><title>Library hours</title></head><body><article>\
             <h1>Library hours</h1>{}{hidden}</article></body></html>",
            paragraph("", "town library")
        )
    };
    // A long hidden paragraph: the tree shows it (it holds much of the page), the cleaner
    // drops it, with its reason.
    let secret = page(&paragraph(" hidden", "secret archive"));
    let text = stdout(&extract_stdin(&[], secret.as_bytes()));
    assert!(text.contains("town library opens"), "{text}");
    assert!(!text.contains("secret archive"), "{text}");
    let out = extract_stdin(&["--format", "json"], secret.as_bytes());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        report["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["reason"]
                .as_str()
                .is_some_and(|r| r.starts_with("hidden by the page's markup"))),
        "{report}"
    );
    // A paywalled body, hidden in a container until a script runs: kept.
    let paywall = page(&format!(
        "<div class=paywall hidden>{}{}</div>",
        paragraph("", "reading room"),
        paragraph("", "map room")
    ));
    let text = stdout(&extract_stdin(&[], paywall.as_bytes()));
    assert!(
        text.contains("reading room opens") && text.contains("map room opens"),
        "{text}"
    );

    // Readability's test of a part hidden by `visibility:hidden`: the visible part alone.
    let Some(page) = corpus_page("readability-dev/html/visibility-hidden.html.gz") else {
        return;
    };
    let text = extract(&[page.to_str().unwrap()]);
    assert!(text.contains("Tempor incididunt"), "{text}");
    assert!(!text.contains("Lorem ipsum"), "{text}");
}

#[test]
fn extract_drops_the_next_article_of_an_infinite_scroll_page() {
    let story = |about: &str| {
        format!(
            "<p>The {about} will change on the first of May, the harbour board said on Tuesday. \
             It follows a long and stormy winter of complaints from the islanders and the village shops.</p>\
             <p>Islanders had asked for the {about} to change so that children could reach the \
             school on the mainland and come home on the same day. The whole board agreed at last.</p>"
        )
    };
    let page = |next: &str| {
        format!(
            "<html><head><title>Ferry twice a day</title></head><body><main>\
             <article><h1>Ferry twice a day</h1>{}</article>{next}</main>\
             <footer>Harbour Gazette</footer></body></html>",
            story("ferry timetable")
        )
    };
    // The next story, appended in an <article> with its own headline: dropped, with its reason.
    let next = format!(
        "<article><h1>Lighthouse to reopen</h1>{}</article>",
        story("lighthouse opening")
    );
    let out = extract_stdin(&[], page(&next).as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("ferry timetable will change"), "{text}");
    assert!(
        !text.contains("Lighthouse") && !text.contains("lighthouse"),
        "{text}"
    );
    let out = extract_stdin(&["--format", "json"], page(&next).as_bytes());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let reasons: Vec<&str> = report["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["reason"].as_str())
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.starts_with("inside a later <article>")),
        "{reasons:?}"
    );
    // Replies, later articles without a headline, stay.
    let replies = format!(
        "<article><h3>A reply</h3>{}</article>",
        story("lighthouse opening")
    );
    let text = stdout(&extract_stdin(&[], page(&replies).as_bytes()));
    assert!(text.contains("lighthouse opening will change"), "{text}");

    // A page of the corpus that appends a second story after its own (fundus-dev's Dagbladet
    // page on North Korea, followed by one on a football manager): the first story alone.
    let Some(page) = corpus_page("fundus-dev/html/no-Dagbladet_2026_01_06.html.gz") else {
        return;
    };
    let text = extract(&[page.to_str().unwrap()]);
    assert!(text.matches("Nord-Korea").count() >= 5, "{text}");
    assert!(!text.contains("Solskjær"), "{text}");
}

#[test]
fn extract_drops_an_articles_caption_and_keeps_its_table() {
    let page = "<html><head><title>Ferry twice a day</title></head><body><main><article>\
        <h1>Ferry twice a day</h1>\
        <p>The ferry to the outer islands will run twice a day from the first of May, the harbour \
        board said on Tuesday. It follows a long and stormy winter of single crossings.</p>\
        <figure><img src=ferry.jpg alt=\"The Islander at the quay\"><figcaption>The morning ferry leaving the harbour at dawn. \
        Photo: Harbour Gazette</figcaption></figure>\
        <p>Islanders had asked for a morning and an evening boat so that children could reach the \
        school on the mainland and come home on the same day. The whole board agreed.</p>\
        <figure><table><tr><th>Boat</th><th>Leaves</th></tr><tr><td>Morning</td><td>7:10</td></tr>\
        <tr><td>Evening</td><td>18:40</td></tr></table></figure>\
        <p>The board will review the timetable in September, when the tourist season ends and \
        the number of passengers falls again. Tickets stay at their winter price.</p>\
        </article></main><footer>Harbour Gazette</footer></body></html>";
    // The default drops it too on an article (a prose page), where the sets' references leave
    // captions out of the story; favouring recall keeps it.
    let text = stdout(&extract_stdin(&[], page.as_bytes()));
    assert!(text.contains("Islanders had asked"), "{text}");
    assert!(!text.contains("morning ferry leaving"), "{text}");
    let text = stdout(&extract_stdin(&["--favor", "recall"], page.as_bytes()));
    assert!(text.contains("morning ferry leaving"), "{text}");
    // The picture stays in the Markdown without its caption, and the JSON report says so.
    let md = stdout(&extract_stdin(&["--format", "markdown"], page.as_bytes()));
    assert!(
        md.contains("![The Islander at the quay](ferry.jpg)"),
        "{md}"
    );
    assert!(!md.contains("morning ferry leaving"), "{md}");
    let json: Value = serde_json::from_str(&stdout(&extract_stdin(
        &["--format", "json"],
        page.as_bytes(),
    )))
    .expect("a JSON report");
    let figure = json["blocks"]
        .as_array()
        .expect("blocks")
        .iter()
        .find(|b| b["label"] == "figure")
        .expect("the figure's block");
    assert_eq!(figure["verdict"], "pictures_kept", "{figure}");
    let out = extract_stdin(&["--favor", "precision"], page.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Islanders had asked"), "{text}");
    assert!(!text.contains("morning ferry leaving"), "{text}");
    assert!(
        text.contains("18:40"),
        "the table inside a figure stays: {text}"
    );

    // A page of the corpus whose captions the reference leaves out (fundus-dev's Hamburger
    // Abendblatt page on the marathon): its story without them.
    let Some(page) = corpus_page("fundus-dev/html/de-HamburgerAbendblatt_2024_04_28.html.gz")
    else {
        return;
    };
    let text = extract(&["--favor", "precision", page.to_str().unwrap()]);
    assert!(text.contains("Marathon"), "{text}");
    assert!(
        !text.contains("Benjamin Franke ist der beste Hamburger"),
        "{text}"
    );
    assert!(!text.contains("Katharina Steinruck musste"), "{text}");
}

#[test]
fn extract_keeps_one_copy_of_a_repeated_passage() {
    let story = "<p>The ferry to the outer islands will run twice a day from the first of May, the \
        harbour board said on Tuesday, after a winter of single crossings.</p>\
        <p>Islanders had asked for a morning and an evening boat so that children could reach the \
        school on the mainland and come home the same day.</p>\
        <p>The board will review the timetable in September, when the tourist season ends and \
        the number of passengers falls again.</p>";
    let refrain = "<p>Tickets are sold at the harbour office and on board, with cash or card.</p>";
    let page = format!(
        "<html><head><title>Ferry twice a day</title></head><body>\
         <nav><a href=/>Home</a> <a href=/news>News</a></nav>\
         <div class=wide><article><h1>Ferry twice a day</h1>{story}{refrain}\
         <p>Crossings take forty minutes in calm weather.</p>{refrain}</article></div>\
         <div class=narrow><article>{story}</article></div>\
         <footer>Harbour Gazette</footer></body></html>"
    );
    let out = extract_stdin(&[], page.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for sentence in [
        "The ferry to the outer islands will run twice a day",
        "Islanders had asked for a morning and an evening boat",
        "The board will review the timetable in September",
    ] {
        assert_eq!(
            text.matches(sentence).count(),
            1,
            "{sentence:?} in:\n{text}"
        );
    }
    assert_eq!(text.matches("Tickets are sold").count(), 2, "{text}");

    // A page of the corpus that prints its article twice (newspaper-dev's teenvogue.com1): no
    // paragraph of its topic content comes twice.
    let Some(page) = corpus_page("newspaper-dev/html/teenvogue.com1.html.gz") else {
        return;
    };
    let text = extract(&[page.to_str().unwrap()]);
    let mut seen = std::collections::HashSet::new();
    let long = text
        .split("\n\n")
        .filter(|p| p.split_whitespace().count() >= 12);
    let twice: Vec<&str> = long.filter(|p| !seen.insert(*p)).collect();
    assert!(seen.len() >= 2, "{text}");
    assert!(twice.is_empty(), "paragraphs twice: {twice:?}");
}

/// Issue 43: Ctrl-C while `extract --format jsonl` writes a file stops it after the batch at
/// hand with exit status 130, the file left as it was (new: not made; there: untouched) and
/// no temporary file beside it. Standard input stays open, so the run is mid-way.
#[cfg(unix)]
#[test]
fn ctrl_c_leaves_extracts_output_file_as_it_was() {
    use std::time::{Duration, Instant};
    let page =
        std::fs::read_to_string(Path::new(SAMPLES).join("sites/fieldnotes/moths.html")).unwrap();
    let line = serde_json::json!({"url": "http://a.example/moths", "html": page}).to_string();
    let dir = tempfile::tempdir().unwrap();
    let listed = |dir: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    for before in [None, Some("lines of an earlier run\n")] {
        let out = dir.path().join("pages.jsonl");
        let _ = std::fs::remove_file(&out);
        if let Some(text) = before {
            std::fs::write(&out, text).unwrap();
        }
        let mut child = Command::new(DOCVIEW)
            .args(["extract", "-", "--format", "jsonl", "--quiet", "--out"])
            .arg(&out)
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        for _ in 0..5 {
            writeln!(stdin, "{line}").unwrap();
        }
        stdin.flush().unwrap();
        // The temporary file is made once Ctrl-C is handled: wait for it.
        let deadline = Instant::now() + Duration::from_secs(60);
        while !listed(dir.path())
            .iter()
            .any(|n| n.starts_with(".docview-"))
        {
            assert!(Instant::now() < deadline, "no temporary file within 60 s");
            assert!(child.try_wait().unwrap().is_none(), "the run ended early");
            std::thread::sleep(Duration::from_millis(20));
        }
        crate::common::ctrl_c(&child);
        // Standard input is still open: the run stops without reading to its end.
        let stopped = child.wait_with_output().unwrap();
        drop(stdin);
        let err = String::from_utf8_lossy(&stopped.stderr);
        assert_eq!(stopped.status.code(), Some(130), "{err}");
        assert!(err.contains("stopped by Ctrl-C"), "{err}");
        assert!(err.contains("pages.jsonl is left as it was"), "{err}");
        match before {
            None => assert_eq!(listed(dir.path()), Vec::<String>::new()),
            Some(text) => {
                assert_eq!(listed(dir.path()), ["pages.jsonl"]);
                assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
            }
        }
    }
}

/// Issue 43: the plain text keeps a code block's tokens with the spaces and punctuation
/// between them (linear.app's front page, whose token spans the cleaner decided out one by
/// one: `importReactfromreact` before), and inline code with a class of its own stays in its
/// sentence.
#[test]
fn plain_text_keeps_code_tokens_and_inline_code_in_their_lines() {
    if let Some(page) = corpus_page("wcxb-dev/html/2834.html.gz") {
        let text = extract(&[page.to_str().unwrap()]);
        assert!(
            text.contains("import React from 'react'"),
            "{}",
            &text[..text.len().min(2000)]
        );
        assert!(
            text.contains("import { View, ActivityIndicator } from 'react-native'"),
            "code tokens"
        );
        assert!(!text.contains("importReactfromreact"));
    }
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("react.html");
    std::fs::write(
        &page,
        "<html><head><title>Thinking in React</title></head><body><article><h1>Thinking in \
         React</h1><p>The first paragraph says how a mockup becomes a hierarchy of components, \
         one for each thing the interface shows, from the page down to each row.</p><p>The \
         second paragraph explains the <code class=\"inline text-code\">ProductTable</code> \
         component, which renders the products in rows grouped by their category.</p>\
         </article></body></html>",
    )
    .unwrap();
    let text = extract(&[page.to_str().unwrap()]);
    assert!(
        text.contains(
            "The second paragraph explains the ProductTable component, which renders the \
             products in rows grouped by their category."
        ),
        "{text}"
    );
}

/// Issue 43, item 3: the article's own photos stay in the Markdown (the blocks of a picture
/// alone inside the topic content, which the block model drops for having no text), the
/// teasers of other stories beside them do not, and the text is the same with or without
/// them. On a fundus-dev page (Business Insider's story of ten photos in `<figure>`s and two
/// inline teasers); skipped without the corpus.
#[test]
fn an_articles_photos_stay_in_the_markdown_and_its_teasers_do_not() {
    let page = Path::new(CORPUS).join("fundus-dev/html/de-BusinessInsiderDE_2024_01_29.html.gz");
    if !page.is_file() {
        println!("skipping: {} not found", page.display());
        return;
    }
    let page = page.to_str().unwrap();
    let md = extract(&[page, "--format", "markdown"]);
    let photos: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("![") && l.contains("/wp-content/uploads/2021/09/"))
        .collect();
    assert!(photos.len() >= 8, "{md}");
    assert!(
        md.contains(
            "![Kein anderes Unternehmen auf der Welt hat so hohe Schulden wie Evergrande.]"
        ),
        "{md}"
    );
    // The inline teasers' square thumbnails (`-200x200`) are another story's.
    assert!(!md.contains("-200x200."), "{md}");
    // Without the images, the same words.
    let bare = extract(&[page, "--format", "markdown", "--no-images"]);
    assert!(!bare.contains("!["), "{bare}");
    let words = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.starts_with("!["))
            .flat_map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
            .collect()
    };
    assert_eq!(words(&md), words(&bare));
}

/// Issue 43, item 3: `extract --format jsonl --comments` gives each page's readers' thread in
/// `comments` (never in `text`), without its reply form; a page without one has none; other
/// formats refuse the flag.
#[test]
fn comments_come_as_their_own_field() {
    let sites = Path::new(SAMPLES).join("sites");
    let sites = sites.to_str().unwrap();
    let lines = json_lines(&extract(&[sites, "--format", "jsonl", "--comments"]));
    let line = |file: &str| {
        lines
            .iter()
            .find(|l| l["origin"].as_str().unwrap().ends_with(file))
            .unwrap_or_else(|| panic!("no line of {file}"))
    };
    let walls = line("fieldnotes/stone-walls.html");
    let comments = walls["comments"].as_str().unwrap();
    assert!(comments.starts_with("2 comments"), "{comments}");
    assert!(
        comments.contains("Hearting is everything. My grandfather used to say"),
        "{comments}"
    );
    assert!(!comments.contains("Leave a comment"), "{comments}");
    assert!(
        !walls["text"]
            .as_str()
            .unwrap()
            .contains("Hearting is everything")
    );
    let with_thread = lines.iter().filter(|l| l.get("comments").is_some()).count();
    assert!(
        with_thread >= 8 && with_thread < lines.len(),
        "{with_thread}"
    );
    // Not asked for, not there.
    let plain = json_lines(&extract(&[sites, "--format", "jsonl"]));
    assert!(plain.iter().all(|l| l.get("comments").is_none()));
    let out = docview(&["extract", sites, "--format", "text", "--comments"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--comments"), "{}", stderr(&out));
}

/// Issue 43, item 3: `--no-tables`, `--no-links` and `--no-images` leave the data tables, the
/// links' addresses and the images out of the text and Markdown, in `--format jsonl` too, and
/// are refused where they shape nothing.
#[test]
fn no_tables_links_or_images_leave_them_out() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("prices.html");
    std::fs::write(
        &page,
        "<html><head><title>Prices</title></head><body><main><article><h1>Prices</h1>\
         <p>Here are the prices of fruit in our shop this week, as listed by the grocer on the \
         <a href=\"/board\">board outside</a>, beside the stall <img src=\"/stall.jpg\" \
         alt=\"The stall\"> on the square.</p><table><tr><th>Name</th><th>Price</th></tr>\
         <tr><td>Apple</td><td>$1</td></tr><tr><td>Pear</td><td>2 EUR</td></tr></table>\
         <p>Come early on Saturdays: the figs sell out before noon, and the pears soon after \
         them, every week of the season.</p></article></main></body></html>",
    )
    .unwrap();
    let page = page.to_str().unwrap();
    let url = "https://shop.example/prices";
    let all = extract(&[page, "--format", "markdown", "--url", url]);
    assert!(
        all.contains("[board outside](https://shop.example/board)"),
        "{all}"
    );
    assert!(
        all.contains("![The stall](https://shop.example/stall.jpg)"),
        "{all}"
    );
    assert!(all.contains("| Apple | $1 |"), "{all}");
    let bare = extract(&[
        page,
        "--format",
        "markdown",
        "--url",
        url,
        "--no-tables",
        "--no-links",
        "--no-images",
    ]);
    assert!(
        bare.contains("the grocer on the board outside, beside the stall"),
        "{bare}"
    );
    assert!(
        !bare.contains("](") && !bare.contains('|') && !bare.contains("Apple"),
        "{bare}"
    );
    assert!(bare.contains("Come early on Saturdays"), "{bare}");
    // One at a time: each leaves only its own out.
    let no_links = extract(&[page, "--format", "markdown", "--url", url, "--no-links"]);
    assert!(no_links.contains("![The stall]") && no_links.contains("| Apple |"));
    assert!(!no_links.contains("[board outside]"), "{no_links}");
    // The plain text loses the table; its links and images were never in it.
    let text = extract(&[page]);
    assert!(text.contains("Apple"), "{text}");
    let text = extract(&[page, "--no-tables"]);
    assert!(
        !text.contains("Apple") && text.contains("Come early"),
        "{text}"
    );
    // A jsonl line alike.
    let line = &json_lines(&extract(&[
        page,
        "--format",
        "jsonl",
        "--markdown",
        "--no-tables",
        "--no-links",
    ]))[0];
    let markdown = line["markdown"].as_str().unwrap();
    assert!(
        !markdown.contains("Apple") && !markdown.contains("[board"),
        "{markdown}"
    );
    assert!(markdown.contains("![The stall]"), "{markdown}");
    let line = &json_lines(&extract(&[page, "--format", "jsonl", "--no-tables"]))[0];
    assert!(!line["text"].as_str().unwrap().contains("Apple"), "{line}");
    // The json report and the topic content page keep the page as the cleaner saw it.
    let out = docview(&["extract", page, "--format", "json", "--no-links"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--no-links"), "{}", stderr(&out));
}
