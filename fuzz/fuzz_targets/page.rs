//! The page path: bytes -> decoded text -> tag tree -> topic content -> DocView.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = docview::integrate::page_docview(data, "http://fuzz.example/a/page.html");
});
