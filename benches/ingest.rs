//! Throughput of the per-page work of `docview ingest` on one core: decoding, the tag tree,
//! cleaning, DocView integration (keywords, title, abstract, relevant links) and the
//! fingerprints (MD5, keyword, MinHash signature), in MB/s of HTML (criterion's bytes
//! throughput). The ordered sink (replica lookup, JSON lines, Tantivy) is measured end to end by
//! `docview ingest` itself (see the README); MinHash alone by `benches/replica.rs`.
//!
//! The sample is the first 100 pages of ../shared/corpus/wcxb-dev when that folder is there,
//! otherwise the labelled pages of corpus-samples/. `cargo bench --bench ingest`.

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use docview::clean::Framework;
use docview::input::RawPage;
use docview::integrate::IntegrateParams;
use docview::pipeline::{Worker, process_page};
use docview::replica::{KeywordParams, MinHashParams, MinHasher};
use docview::stats::CollectionStats;
use docview::text::Analyzer;

fn bench_process(c: &mut Criterion) {
    let (name, pages) = common::sample();
    let pages: Vec<RawPage> = pages
        .into_iter()
        .map(|(path, bytes)| RawPage {
            kind: docview::input::PageKind::Html,
            url: format!("http://bench.example/{}", path.display()),
            bytes,
            http_charset: None,
            origin: path.display().to_string(),
            warc: None,
            fields: None,
        })
        .collect();
    let bytes: usize = pages.iter().map(|p| p.bytes.len()).sum();
    let cleaner = Framework::default();
    let stats = CollectionStats::default();
    let minhasher = MinHasher::new(MinHashParams::default()).expect("default parameters");
    let sites = docview::pipeline::SiteModels::default();
    // As ingest runs by default: the genre and subject models inside the binary.
    let classifiers = docview::pipeline::ClassifierChoice::Embedded
        .load_with(&docview::pipeline::SubjectChoice::Embedded)
        .expect("the shipped classifiers load")
        .expect("classifiers");
    let worker = Worker {
        classifier: Some(classifiers.classifier_ref()),
        cleaner: &cleaner,
        sites: &sites,
        analyzer: Analyzer::new(),
        stats: &stats,
        integrate: IntegrateParams::default(),
        keyword: KeywordParams::default(),
        minhash: Some(&minhasher),
        limits: docview::extract::PageLimits::default(),
        markdown: false,
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
