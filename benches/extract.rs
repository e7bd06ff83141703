//! Throughput of cleaning on one core: decoding, the markup tag tree and the framework cleaner,
//! in MB/s of HTML (criterion's bytes throughput) over a fixed sample of pages.
//!
//! The sample is the first 100 pages of ../shared/corpus/wcxb-dev when that folder is there,
//! otherwise the labelled pages of corpus-samples/. `cargo bench --bench extract`.

use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use docview::clean::Framework;
use docview::extract::extract_page;
use docview::input::read_page_bytes;

fn sample() -> (String, Vec<Vec<u8>>) {
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
        .map(|f| read_page_bytes(f).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    (name.to_string(), pages)
}

fn bench_extract(c: &mut Criterion) {
    let (name, pages) = sample();
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
