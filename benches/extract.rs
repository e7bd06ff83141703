//! Throughput of cleaning on one core: decoding, the markup tag tree and each cleaner, in MB/s
//! of HTML (criterion's bytes throughput) over a fixed sample of pages; and the learned
//! cleaner's parts: decoding and the tag tree alone (the floor under every cleaner), then on
//! parsed trees the framework's analysis, the block features and the model, to show what the
//! model costs of a page's cleaning.
//!
//! The sample is the first 100 pages of ../shared/corpus/wcxb-dev when that folder is there,
//! otherwise the labelled pages of corpus-samples/. `cargo bench --bench extract`.

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use docview::clean::{Cleaner, Framework, Learned, block_features};
use docview::extract::{PageLimits, extract_page, parse_page};

fn bench_extract(c: &mut Criterion) {
    let (name, pages) = common::sample();
    let pages: Vec<Vec<u8>> = pages.into_iter().map(|(_, bytes)| bytes).collect();
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let learned = Learned::embedded().expect("the shipped model loads");
    let cleaners: [(&str, &dyn Cleaner); 2] =
        [("framework", &Framework::default()), ("learned", &learned)];
    let mut group = c.benchmark_group("extract");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes as u64));
    for (cleaner_name, cleaner) in cleaners {
        group.bench_function(
            format!("{cleaner_name}/{name}/{}-pages", pages.len()),
            |b| {
                b.iter(|| {
                    for page in &pages {
                        let out = extract_page(page, None, "bench", cleaner)
                            .map(|p| p.cleaned.topic_text);
                        std::hint::black_box(out.ok());
                    }
                })
            },
        );
    }
    // Decoding and the tag tree alone: the floor under every cleaner.
    group.bench_function(format!("parts/parse/{name}"), |b| {
        b.iter(|| {
            for page in &pages {
                std::hint::black_box(parse_page(page, None, "bench", &PageLimits::default()).ok());
            }
        })
    });
    // The learned cleaner's parts, on trees parsed once.
    let trees: Vec<_> = pages
        .iter()
        .filter_map(|p| parse_page(p, None, "bench", &PageLimits::default()).ok())
        .map(|p| p.tree)
        .collect();
    let framework = Framework::default();
    let analyses: Vec<_> = trees.iter().map(|t| framework.analyse(t)).collect();
    let features: Vec<_> = trees
        .iter()
        .zip(&analyses)
        .map(|(t, a)| a.as_ref().map(|a| block_features(t, a)).unwrap_or_default())
        .collect();
    group.bench_function(format!("parts/analysis/{name}"), |b| {
        b.iter(|| {
            for t in &trees {
                std::hint::black_box(framework.analyse(t));
            }
        })
    });
    group.bench_function(format!("parts/features/{name}"), |b| {
        b.iter(|| {
            for (t, a) in trees.iter().zip(&analyses) {
                if let Some(a) = a {
                    std::hint::black_box(block_features(t, a));
                }
            }
        })
    });
    group.bench_function(format!("parts/model/{name}"), |b| {
        b.iter(|| {
            for (t, f) in trees.iter().zip(&features) {
                let mut f = f.clone();
                std::hint::black_box(learned.model().scores(t, &mut f));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench_extract);
criterion_main!(benches);
