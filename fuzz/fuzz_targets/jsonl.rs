//! The JSON Lines reader, every event to the end.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = docview::input::jsonl_events(data, "fuzz.jsonl");
});
