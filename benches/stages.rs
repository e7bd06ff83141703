//! Throughput of each stage of the page path alone, on one core, each fed the output of the
//! stage before it made once outside the measurement: the tag tree of decoded HTML (`parse`),
//! the learned cleaner on built trees (`clean`), text analysis of the topic content into terms
//! (`analyse`), DocView integration of topic pages (`integrate`: keywords, title, abstract,
//! relevant links, the classification code) and adding the records' topic text to an index in
//! memory (`index`: docview's tokenizer and Tantivy, with the commit). Throughput is in bytes
//! of each stage's input (HTML for parse and clean, topic text after), so the figures say
//! where a page's time goes; `benches/ingest.rs` runs the same path page by page.
//!
//! Two samples: the labelled pages of corpus-samples/, always; the first 100 pages of
//! ../shared/corpus/wcxb-dev when that folder is there. `cargo bench --bench stages` (add
//! `-- --quick` for a short run).

use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use docview::clean::{Cleaner, Learned};
use docview::index::{IndexDoc, IndexKind, OpenIndex};
use docview::input::decode_html;
use docview::integrate::{Context, IntegrateParams, integrate};
use docview::site::PageUrl;
use docview::stats::CollectionStats;
use docview::text::Analyzer;
use docview::topic::TopicPage;

mod common;

use common::pages_in;

/// A page file and its bytes.
type PageFile = (PathBuf, Vec<u8>);

/// The samples: corpus-samples' labelled pages, and wcxb-dev's first 100 when present.
fn samples() -> Vec<(&'static str, Vec<PageFile>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![(
        "corpus-samples",
        pages_in(&root.join("corpus-samples/labelled/html"), usize::MAX),
    )];
    let shared = root.join("../shared/corpus/wcxb-dev/html");
    if shared.is_dir() {
        out.push(("wcxb-dev[..100]", pages_in(&shared, 100)));
    }
    out
}

fn bench_stages(c: &mut Criterion) {
    let learned = Learned::embedded().expect("the shipped model loads");
    // As ingest runs by default: the genre and subject models inside the binary.
    let classifiers = docview::pipeline::ClassifierChoice::Embedded
        .load_with(&docview::pipeline::SubjectChoice::Embedded)
        .expect("the shipped classifiers load")
        .expect("classifiers");
    let analyzer = Analyzer::new();
    let stats = CollectionStats::default();
    let mut group = c.benchmark_group("stages");
    group.sample_size(10);
    for (name, pages) in samples() {
        // Each stage's input, made once.
        let html: Vec<String> = pages
            .iter()
            .map(|(_, bytes)| decode_html(bytes, None).text)
            .collect();
        let html_bytes: usize = html.iter().map(String::len).sum();
        let trees: Vec<_> = html.iter().map(|h| docview::page::build(h)).collect();
        let topics: Vec<(String, TopicPage)> = pages
            .iter()
            .filter_map(|(path, bytes)| {
                let page = docview::extract::extract_page(bytes, None, "bench", &learned).ok()?;
                Some((
                    format!("http://bench.example/{}", path.display()),
                    TopicPage::of(&page),
                ))
            })
            .collect();
        let topic_bytes: u64 = topics.iter().map(|(_, t)| t.topic_text.len() as u64).sum();
        let n = pages.len();

        group.throughput(Throughput::Bytes(html_bytes as u64));
        group.bench_function(format!("parse/{name}/{n}-pages"), |b| {
            b.iter(|| {
                for h in &html {
                    std::hint::black_box(docview::page::build(h));
                }
            })
        });
        group.bench_function(format!("clean/{name}/{n}-pages"), |b| {
            b.iter(|| {
                for t in &trees {
                    std::hint::black_box(learned.clean(t));
                }
            })
        });

        group.throughput(Throughput::Bytes(topic_bytes));
        group.bench_function(format!("analyse/{name}/{n}-pages"), |b| {
            b.iter(|| {
                let mut terms = 0usize;
                for (_, t) in &topics {
                    analyzer.for_each_term(&t.topic_text, t.language, |_| terms += 1);
                }
                std::hint::black_box(terms)
            })
        });
        let cx = Context {
            analyzer: &analyzer,
            stats: &stats,
            params: IntegrateParams::default(),
            classifier: Some(classifiers.classifier_ref()),
        };
        group.bench_function(format!("integrate/{name}/{n}-pages"), |b| {
            b.iter(|| {
                for (url, t) in &topics {
                    std::hint::black_box(integrate(&PageUrl::parse(url), t, cx));
                }
            })
        });
        let records: Vec<_> = topics
            .iter()
            .map(|(url, t)| integrate(&PageUrl::parse(url), t, cx).docview)
            .collect();
        let docs: Vec<IndexDoc<'_>> = records
            .iter()
            .enumerate()
            .map(|(seq, d)| IndexDoc {
                seq: seq as u64,
                url: &d.identifier,
                title: &d.title,
                body: &d.topic_content,
                lang: &d.language,
                docview: None,
            })
            .collect();
        group.bench_function(format!("index/{name}/{n}-pages"), |b| {
            b.iter(|| {
                let index = OpenIndex::in_memory(IndexKind::Topic, &docs).expect("an index in RAM");
                std::hint::black_box(index.kind())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_stages);
criterion_main!(benches);
