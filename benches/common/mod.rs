//! The fixed page sample the benchmarks share: the first 100 pages of
//! ../shared/corpus/wcxb-dev when that folder is there, otherwise the labelled pages of
//! corpus-samples/.

use std::path::{Path, PathBuf};

use docview::input::read_page_bytes;

/// The sample's name and its pages: (path, bytes), in file-name order.
pub fn sample() -> (String, Vec<(PathBuf, Vec<u8>)>) {
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
        .into_iter()
        .map(|f| {
            let bytes = read_page_bytes(&f).unwrap_or_else(|e| panic!("{e}"));
            (f, bytes)
        })
        .collect();
    (name.to_string(), pages)
}
