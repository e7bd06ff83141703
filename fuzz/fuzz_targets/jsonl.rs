//! The JSON Lines reader, every event to the end.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Every page has an identifier `page_url` accepts as it is (tests/it/fuzz_replay.rs).
    for event in docview::input::jsonl_events(data, "fuzz.jsonl") {
        if let docview::input::InputEvent::Page(page) = event {
            assert_eq!(docview::input::page_url(&page.url), Ok(page.url.clone()));
        }
    }
});
