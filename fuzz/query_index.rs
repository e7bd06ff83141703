// The small index the query fuzz target searches, held in memory: English, Chinese, and a page
// of stop words, numbers and operators, as a DocView index (title, keywords, abstract and topic
// content searched together with field weights, the widest of the query paths). `fuzz/fuzz_targets/query.rs` and its stable replay
// `tests/it/fuzz_replay.rs` both `include!` this file, so they search the same index.

/// The query target's index.
static INDEX: std::sync::LazyLock<docview::index::OpenIndex> = std::sync::LazyLock::new(|| {
    const PAGES: [(&str, &str); 3] = [
        (
            "Ferry to Gull Island",
            "The ferry service resumes after dock repairs.",
        ),
        ("搜索引擎介绍", "搜索引擎每天抓取网页，然后建立索引。"),
        ("To be or not", "to be or not to be 2003 1,000 AND OR NOT"),
    ];
    let docs: Vec<docview::index::IndexDoc> = PAGES
        .iter()
        .enumerate()
        .map(|(seq, &(title, body))| docview::index::IndexDoc {
            seq: seq as u64,
            url: "http://fuzz.example/",
            title,
            body,
            lang: "en",
            docview: Some(docview::index::DocviewFields {
                keywords: "ferry\nindex\nAND",
                abstract_text: title,
            }),
        })
        .collect();
    docview::index::OpenIndex::in_memory(docview::index::IndexKind::Docview, &docs)
        .expect("an index in memory")
});
