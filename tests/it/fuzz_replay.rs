//! The fuzz targets' entry points on stable Rust, in the normal test command: the seeds
//! (`corpus-samples/`, and `../shared/warc` when it is there), a fixed-seed set of mutations
//! of them (bit flips, byte inserts and deletes, truncations, splices, repeated chunks), and
//! every input kept under `fuzz/regressions/<target>/`, through the same five entry points as
//! `fuzz/fuzz_targets/*.rs`: the page path to a DocView, the WARC reader, the HTTP head parser,
//! the JSONL reader and the query paths. Each must return (a page, events, hits, an error),
//! never panic or abort; and every page the WARC and JSONL readers give must have an
//! identifier (`fuzz/regressions/{jsonl,warc}` keep empty, blank and `javascript:` URLs).
//! cargo-fuzz runs these targets for as long as one likes (`fuzz/README.md`); this test runs a
//! bounded number of inputs so that CI checks them on every change.

use crate::common::ROOT;
use std::path::{Path, PathBuf};

use docview::index::query_paths;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Mutants made of each seed.
const MUTANTS_PER_SEED: usize = 48;

fn page_path(data: &[u8]) {
    let _ = docview::integrate::page_docview(data, "http://fuzz.example/a/page.html");
}

/// Every page a reader gives has an identifier: a URL [`docview::input::page_url`] accepts
/// as it is (not empty, not `javascript:`…), so its record passes the DocView schema.
fn pages_have_identifiers(events: &[docview::input::InputEvent]) {
    for event in events {
        if let docview::input::InputEvent::Page(page) = event {
            assert_eq!(
                docview::input::page_url(&page.url).as_ref(),
                Ok(&page.url),
                "{}",
                page.origin
            );
        }
    }
}

fn warc(data: &[u8]) {
    pages_have_identifiers(&docview::input::warc_events(data, "fuzz.warc"));
}

fn http_head(data: &[u8]) {
    let _ = docview::input::http_head_status(data);
}

fn jsonl(data: &[u8]) {
    pages_have_identifiers(&docview::input::jsonl_events(data, "fuzz.jsonl"));
}

// `INDEX`, the query target's index.
include!("../../fuzz/query_index.rs");

fn query(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = query_paths(&INDEX, text);
    }
}

fn files(dir: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if keep(&p) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn read(paths: &[PathBuf]) -> Vec<Vec<u8>> {
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// One mutation of `input`, `other` a second seed for splices.
fn mutate(rng: &mut ChaCha8Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..rng.random_range(1..4) {
        let len = out.len();
        let at = if len == 0 {
            0
        } else {
            rng.random_range(0..len)
        };
        match rng.random_range(0..6) {
            0 if len > 0 => out[at] ^= 1 << rng.random_range(0..8),
            1 => {
                let b: u8 = rng.random();
                let n = rng.random_range(1..16);
                out.splice(at..at, std::iter::repeat_n(b, n));
            }
            2 if len > 0 => {
                let end = (at + rng.random_range(1..64)).min(len);
                out.drain(at..end);
            }
            3 => out.truncate(at),
            4 if !other.is_empty() => {
                let from = rng.random_range(0..other.len());
                let end = (from + rng.random_range(1..4096)).min(other.len());
                out.splice(at..at, other[from..end].iter().copied());
            }
            5 if len > 0 => {
                let end = (at + rng.random_range(1..256)).min(len);
                let chunk = out[at..end].to_vec();
                for _ in 0..rng.random_range(1..8) {
                    out.splice(at..at, chunk.iter().copied());
                }
            }
            _ => {}
        }
    }
    out
}

/// Runs `target` on each seed, its mutants and the kept regressions of `name`.
fn check(name: &str, target: fn(&[u8]), seeds: &[Vec<u8>], seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut runs = 0;
    let regressions = files(&Path::new(ROOT).join("fuzz/regressions").join(name), |_| {
        true
    });
    for input in read(&regressions).iter().chain(seeds) {
        target(input);
        runs += 1;
    }
    for (i, input) in seeds.iter().enumerate() {
        let other = &seeds[(i + 1) % seeds.len()];
        for _ in 0..MUTANTS_PER_SEED {
            target(&mutate(&mut rng, input, other));
            runs += 1;
        }
    }
    runs
}

fn samples() -> PathBuf {
    Path::new(ROOT).join("corpus-samples")
}

#[test]
fn page_path_survives_mutated_pages() {
    let seeds = read(&files(&samples().join("sites"), |p| {
        p.extension().is_some_and(|e| e == "html")
    }));
    assert!(seeds.len() >= 30);
    let runs = check("page", page_path, &seeds, 1);
    assert!(runs > 400, "{runs}");
}

/// `resource` records (a captured page, an image, one without a type): a seed of its own, so
/// that mutations reach the resource path without `../shared/warc`.
const RESOURCE_RECORDS: &str = "WARC/1.0\r\nWARC-Type: resource\r\n\
    WARC-Target-URI: http://example.com/\r\nContent-Type: text/html; charset=utf-8\r\n\
    Content-Length: 46\r\n\r\n<html><title>Example</title><p>page</p></html>\r\n\r\n\
    WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://example.com/a.png\r\n\
    Content-Type: image/png\r\nContent-Length: 4\r\n\r\nPNG!\r\n\r\n\
    WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: urn:x\r\n\
    Content-Length: 11\r\n\r\n<p>bare</p>\r\n\r\n";

#[test]
fn warc_reader_survives_mutated_warcs() {
    let mut paths = files(&samples().join("warc"), |p| {
        p.to_string_lossy().contains(".warc")
    });
    let shared = Path::new(ROOT).join("../shared/warc");
    if shared.is_dir() {
        paths.extend(files(&shared, |p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().contains(".warc"))
        }));
    } else {
        eprintln!(
            "skipped ../shared/warc seeds: {} is absent",
            shared.display()
        );
    }
    let mut seeds = read(&paths);
    let resources = docview::input::warc_events(RESOURCE_RECORDS.as_bytes(), "r.warc");
    let shown: Vec<String> = resources.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "r.warc@0: page http://example.com/",
            "r.warc@181: skipped: not HTML (image/png)",
            "r.warc@309: page urn:x",
        ]
    );
    seeds.push(RESOURCE_RECORDS.as_bytes().to_vec());
    // Decompressed copies too, so that mutations reach record headers, not only gzip data.
    for p in &paths {
        if p.extension().is_some_and(|e| e == "gz") {
            let mut d = flate2::read::MultiGzDecoder::new(std::fs::File::open(p).unwrap());
            let mut plain = Vec::new();
            if std::io::Read::read_to_end(&mut d, &mut plain).is_ok() {
                seeds.push(plain);
            }
        }
    }
    check("warc", warc, &seeds, 2);
}

#[test]
fn http_head_parser_survives_mutated_heads() {
    let seeds: Vec<Vec<u8>> = [
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 5\r\n\r\n",
        "HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\r\n",
        "HTTP/1.0 200\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n",
        "HTTP/1.1 301 Moved\nLocation: /x\nContent-Type: text/plain\n\n",
    ]
    .iter()
    .map(|h| h.as_bytes().to_vec())
    .collect();
    assert_eq!(docview::input::http_head_status(&seeds[1]), Ok(404));
    check("http_head", http_head, &seeds, 3);
}

#[test]
fn jsonl_reader_survives_mutated_lines() {
    let pages = files(&samples().join("sites"), |p| {
        p.extension().is_some_and(|e| e == "html")
    });
    let seeds: Vec<Vec<u8>> = pages
        .chunks(4)
        .map(|chunk| {
            let mut lines = String::new();
            for p in chunk {
                let html = String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
                let line = serde_json::json!({"url": "http://s.example/", "html": html});
                lines.push_str(&line.to_string());
                lines.push('\n');
            }
            lines.into_bytes()
        })
        .collect();
    check("jsonl", jsonl, &seeds, 4);
}

#[test]
fn query_paths_survive_mutated_queries() {
    let seeds: Vec<Vec<u8>> = [
        "ferry dock",
        "\"ferry service\" +dock -island",
        "title:ferry OR body:(dock AND repairs)",
        "搜索引擎 抓取网页",
        "\"抓取网页\"~2",
        "(ferry OR dock) AND NOT gull^2",
        "repai* seq:[0 TO 5]",
        "-ferry",
        "*",
        "title:",
    ]
    .iter()
    .map(|q| q.as_bytes().to_vec())
    .collect();
    // The entry point answers: hits for a query, an error for a bad one.
    assert!(query_paths(&INDEX, "ferry").is_ok());
    assert!(query_paths(&INDEX, &"(".repeat(5000)).is_err());
    let runs = check("query", query, &seeds, 5);
    assert!(runs > 480, "{runs}");
}
