//! The WARC reader: plain, gzip per record or gzip as a whole, every event to the end.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = docview::input::warc_events(data, "fuzz.warc");
});
