//! Throughput of MinHash near-replica detection on one core, in pages per second (criterion's
//! elements throughput): the signature of each page's topic content (shingling, 128 min-hashes)
//! then the LSH lookup and insertion, over a fresh index each iteration. Topic contents come
//! from the framework cleaner, once at setup; the index's memory per page is printed there.
//! A second benchmark does what ingest does on pages of sites with a template: the replica text
//! first (the topic content's lines keyed against the site template, the visible text's tokens
//! counted, its lines keyed too when that does not settle it), then the same signature, lookup
//! and insertion; the sample's pages are taken as sites of four pages each.
//!
//! The sample is the first 100 pages of ../shared/corpus/wcxb-dev when that folder is there,
//! otherwise the labelled pages of corpus-samples/. `cargo bench --bench replica`.

mod common;

use std::borrow::Cow;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use docview::clean::Framework;
use docview::extract::extract_page;
use docview::replica::template::{CopyKey, SiteTemplates, TemplateBuilder, TemplateParams};
use docview::replica::{LshIndex, MinHashParams, MinHasher};

/// A sample page: its visible text, its topic content and its site.
struct Texts {
    visible: String,
    topic: String,
    site: String,
}

fn sample_texts() -> (String, Vec<Texts>) {
    let (name, pages) = common::sample();
    let cleaner = Framework::default();
    let texts = pages
        .iter()
        .filter_map(|(_, bytes)| extract_page(bytes, None, "bench", &cleaner).ok())
        .enumerate()
        .map(|(i, page)| Texts {
            visible: page.tree.all_text(),
            topic: page.cleaned.topic_text,
            site: format!("site{}.example", i / 4),
        })
        .collect();
    (name, texts)
}

fn learn_templates(pages: &[Texts]) -> SiteTemplates {
    let mut builder = TemplateBuilder::new(TemplateParams::default());
    for p in pages {
        builder.add_page(&p.site, &p.visible, CopyKey::of(&p.visible, &p.topic));
    }
    builder.finish()
}

/// What the ingest sink does with each page's text, over a fresh index: signature, lookup,
/// insertion when no kept page matches. Gives the kept pages.
fn dedup_pass<'a>(hasher: &MinHasher, texts: impl Iterator<Item = Cow<'a, str>>) -> usize {
    let mut index = LshIndex::new(*hasher.params()).expect("default parameters");
    for (seq, text) in texts.enumerate() {
        if let Some(sig) = hasher.signature(&text)
            && index.query(&sig).is_none()
        {
            index.insert(seq as u64, &sig);
        }
    }
    std::hint::black_box(index.len())
}

fn bench_minhash(c: &mut Criterion) {
    let (name, pages) = sample_texts();
    let texts: Vec<&str> = pages.iter().map(|p| p.topic.as_str()).collect();
    let params = MinHashParams::default();
    let hasher = MinHasher::new(params).expect("default parameters");
    let mut index = LshIndex::new(params).expect("default parameters");
    for (seq, text) in texts.iter().enumerate() {
        if let Some(sig) = hasher.signature(text) {
            index.insert(seq as u64, &sig);
        }
    }
    let tokens: usize = texts.iter().map(|t| docview::text::count_tokens(t)).sum();
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
        b.iter(|| dedup_pass(&hasher, texts.iter().map(|t| Cow::Borrowed(*t))))
    });
    let templates = learn_templates(&pages);
    group.bench_function(
        format!("replica_text+minhash_lsh/{name}/{}-pages", pages.len()),
        |b| {
            b.iter(|| {
                dedup_pass(
                    &hasher,
                    pages
                        .iter()
                        .map(|p| templates.replica_text(Some(&p.site), &p.visible, &p.topic)),
                )
            })
        },
    );
    group.finish();
}

criterion_group!(benches, bench_minhash);
criterion_main!(benches);
