//! The HTTP response head parser of WARC response records.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = docview::input::http_head_status(data);
});
