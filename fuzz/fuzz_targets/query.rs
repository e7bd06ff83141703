//! The query path: any text as a query of `docview query` and `docview compare` (the check
//! before tantivy's parser, its lenient parser, the search, snippets and posting lists), on a
//! small index held in memory.
#![no_main]

use std::sync::LazyLock;

use docview::index::{IndexDoc, IndexKind, OpenIndex, query_paths};
use libfuzzer_sys::fuzz_target;

/// The pages of the index: English, Chinese, and a page of stop words and numbers.
const PAGES: [(&str, &str); 3] = [
    ("Ferry to Gull Island", "The ferry service resumes after dock repairs."),
    ("搜索引擎介绍", "搜索引擎每天抓取网页，然后建立索引。"),
    ("To be or not", "to be or not to be 2003 1,000 AND OR NOT"),
];

static INDEX: LazyLock<OpenIndex> = LazyLock::new(|| {
    let docs: Vec<IndexDoc> = PAGES
        .iter()
        .enumerate()
        .map(|(seq, &(title, body))| IndexDoc {
            seq: seq as u64,
            url: "http://fuzz.example/",
            title,
            body,
            lang: "en",
        })
        .collect();
    OpenIndex::in_memory(IndexKind::Topic, &docs).expect("an index in memory")
});

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = query_paths(&INDEX, text);
    }
});
