//! The page path: bytes -> decoded text -> tag tree -> topic content -> DocView.
#![no_main]

use docview::clean::Framework;
use docview::extract::extract_page;
use docview::integrate::{Context, IntegrateParams, integrate};
use docview::stats::CollectionStats;
use docview::text::Analyzer;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let cleaner = Framework::default();
    let Ok(page) = extract_page(data, None, "fuzz.html", &cleaner) else {
        return;
    };
    let lang = page.language();
    let analyzer = Analyzer::new();
    let stats = CollectionStats::default();
    let cx = Context {
        analyzer: &analyzer,
        stats: &stats,
        params: IntegrateParams::default(),
    };
    let _ = integrate(
        "http://fuzz.example/a/page.html",
        Some("fuzz.example"),
        &page,
        lang,
        cx,
    );
});
