//! The fixed page sample the benchmarks share: the first 100 pages of
//! ../shared/corpus/wcxb-dev when that folder is there, otherwise the labelled pages of
//! corpus-samples/; and the pages of a folder, which `stages.rs` reads its two samples with.

use std::path::{Path, PathBuf};

use docview::input::read_page_bytes;

/// The sample's name and its pages: (path, bytes), in file-name order.
#[allow(dead_code)] // each bench is a crate of its own, and `stages` takes its own samples
pub fn sample() -> (String, Vec<(PathBuf, Vec<u8>)>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/corpus/wcxb-dev/html");
    if shared.is_dir() {
        ("wcxb-dev[..100]".to_string(), pages_in(&shared, 100))
    } else {
        let samples = root.join("corpus-samples/labelled/html");
        ("corpus-samples".to_string(), pages_in(&samples, usize::MAX))
    }
}

/// The first `limit` pages of a folder of (gzip-compressed) HTML files, in file-name order:
/// (path, bytes).
pub fn pages_in(dir: &Path, limit: usize) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    files.truncate(limit);
    files
        .into_iter()
        .map(|f| {
            let bytes = read_page_bytes(&f).unwrap_or_else(|e| panic!("{e}"));
            (f, bytes)
        })
        .collect()
}
