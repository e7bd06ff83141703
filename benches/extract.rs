//! Throughput of cleaning on one core: decoding, the markup tag tree and the framework cleaner,
//! in MB/s of HTML (criterion's bytes throughput) over a fixed sample of pages.
//!
//! The sample is the first 100 pages of ../shared/corpus/wcxb-dev when that folder is there,
//! otherwise the labelled pages of corpus-samples/. `cargo bench --bench extract`.

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use docview::clean::Framework;
use docview::extract::extract_page;

fn bench_extract(c: &mut Criterion) {
    let (name, pages) = common::sample();
    let pages: Vec<Vec<u8>> = pages.into_iter().map(|(_, bytes)| bytes).collect();
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let cleaner = Framework::default();
    let mut group = c.benchmark_group("extract");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function(format!("framework/{name}/{}-pages", pages.len()), |b| {
        b.iter(|| {
            for page in &pages {
                let out = extract_page(page, None, "bench", &cleaner).map(|p| p.cleaned.topic_text);
                std::hint::black_box(out.ok());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench_extract);
criterion_main!(benches);
