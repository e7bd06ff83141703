//! Throughput of the per-page work of `docview ingest` on one core: decoding, the tag tree,
//! cleaning, DocView integration (keywords, title, abstract, relevant links) and the two
//! fingerprints, in MB/s of HTML (criterion's bytes throughput). The ordered sink (replica
//! lookup, JSON lines, Tantivy) is measured end to end by `docview ingest` itself (see the
//! README).
//!
//! The sample is the first 100 pages of ../shared/corpus/wcxb-dev when that folder is there,
//! otherwise the labelled pages of corpus-samples/. `cargo bench --bench ingest`.

use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use docview::clean::Framework;
use docview::input::{RawPage, read_page_bytes};
use docview::integrate::IntegrateParams;
use docview::pipeline::{Worker, process_page};
use docview::replica::KeywordParams;
use docview::stats::CollectionStats;
use docview::text::Analyzer;

fn sample() -> (String, Vec<RawPage>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/corpus/wcxb-dev/html");
    let (name, dir, limit) = if shared.is_dir() {
        ("wcxb-dev[..100]", shared, 100)
    } else {
        (
            "corpus-samples",
            root.join("corpus-samples/labelled/html"),
            usize::MAX,
        )
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    files.truncate(limit);
    let pages = files
        .iter()
        .map(|f| RawPage {
            url: format!("http://bench.example/{}", f.display()),
            bytes: read_page_bytes(f).unwrap_or_else(|e| panic!("{e}")),
            http_charset: None,
            origin: f.display().to_string(),
        })
        .collect();
    (name.to_string(), pages)
}

fn bench_process(c: &mut Criterion) {
    let (name, pages) = sample();
    let bytes: usize = pages.iter().map(|p| p.bytes.len()).sum();
    let cleaner = Framework::default();
    let stats = CollectionStats::default();
    let worker = Worker {
        cleaner: &cleaner,
        analyzer: Analyzer::new(),
        stats: &stats,
        integrate: IntegrateParams::default(),
        keyword: KeywordParams::default(),
    };
    let mut group = c.benchmark_group("ingest");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function(format!("process_page/{name}/{}-pages", pages.len()), |b| {
        b.iter(|| {
            for (seq, page) in pages.iter().enumerate() {
                let out = process_page(page.clone(), seq as u64, &worker);
                std::hint::black_box(out.ok());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench_process);
criterion_main!(benches);
