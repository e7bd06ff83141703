//! The WARC reader: plain, gzip per record or gzip as a whole, every event to the end.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Every page has an identifier `page_url` accepts as it is (tests/it/fuzz_replay.rs).
    for event in docview::input::warc_events(data, "fuzz.warc") {
        if let docview::input::InputEvent::Page(page) = event {
            assert_eq!(docview::input::page_url(&page.url), Ok(page.url.clone()));
        }
    }
});
