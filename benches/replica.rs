//! Throughput of MinHash near-replica detection on one core, in pages per second (criterion's
//! elements throughput): the signature of each page's topic content (shingling, 128 min-hashes)
//! then the LSH lookup and insertion, over a fresh index each iteration. Topic contents come
//! from the framework cleaner, once at setup; the index's memory per page is printed there.
//!
//! The sample is the first 100 pages of ../shared/corpus/wcxb-dev when that folder is there,
//! otherwise the labelled pages of corpus-samples/. `cargo bench --bench replica`.

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use docview::clean::Framework;
use docview::extract::extract_page;
use docview::replica::{LshIndex, MinHashParams, MinHasher};

fn topic_texts() -> (String, Vec<String>) {
    let (name, pages) = common::sample();
    let cleaner = Framework::default();
    let texts = pages
        .iter()
        .filter_map(|(_, bytes)| extract_page(bytes, None, "bench", &cleaner).ok())
        .map(|page| page.cleaned.topic_text)
        .collect();
    (name, texts)
}

fn bench_minhash(c: &mut Criterion) {
    let (name, texts) = topic_texts();
    let params = MinHashParams::default();
    let hasher = MinHasher::new(params).expect("default parameters");
    let mut index = LshIndex::new(params).expect("default parameters");
    for (seq, text) in texts.iter().enumerate() {
        if let Some(sig) = hasher.signature(text) {
            index.insert(seq as u64, &sig);
        }
    }
    let tokens: usize = texts
        .iter()
        .map(|t| docview::text::tokens::count_tokens(t))
        .sum();
    eprintln!(
        "{name}: {} topic texts, {} tokens on average; LSH index {} pages, {} bytes per page",
        texts.len(),
        tokens / texts.len().max(1),
        index.len(),
        index.memory_bytes() / index.len().max(1)
    );
    let mut group = c.benchmark_group("replica");
    group.throughput(Throughput::Elements(texts.len() as u64));
    group.bench_function(format!("minhash_lsh/{name}/{}-pages", texts.len()), |b| {
        b.iter(|| {
            let mut index = LshIndex::new(params).expect("default parameters");
            for (seq, text) in texts.iter().enumerate() {
                if let Some(sig) = hasher.signature(text)
                    && index.query(&sig).is_none()
                {
                    index.insert(seq as u64, &sig);
                }
            }
            std::hint::black_box(index.len())
        })
    });
    group.finish();
}

criterion_group!(benches, bench_minhash);
criterion_main!(benches);
