//! The query path: any text as a query of `docview query` and `docview compare` (the check
//! before tantivy's parser, its lenient parser, the search, snippets and posting lists), on a
//! small index held in memory.
#![no_main]

use docview::index::query_paths;
use libfuzzer_sys::fuzz_target;

// `INDEX`, the index the queries search (shared with the stable replay).
include!("../query_index.rs");

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = query_paths(&INDEX, text);
    }
});
