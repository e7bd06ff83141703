//! WARC files, read one record at a time: plain, gzip per record (one member per record, the
//! usual layout) or gzip as a whole.
//!
//! Pages are `response` records holding a 2xx HTTP response with an HTML body, and `resource`
//! records whose WARC `Content-Type` is HTML (a captured page without HTTP headers, as archiving
//! tools write them; its charset is that `Content-Type`'s). `warcinfo`, `request` and
//! `metadata` records are passed over without an event; other record types, other statuses and
//! other media types are [`InputEvent::Skipped`]. A response or resource without a
//! `Content-Type` is taken as HTML when its body starts with `<` (after white space).
//!
//! A broken record (bad header, bad `Content-Length`, block not ending where it says, truncated
//! file, corrupt gzip) is [`InputEvent::Malformed`], named by the offset where it started, and
//! reading goes on: in a plain WARC at the next line starting with `WARC/1.` after that offset;
//! in a gzip WARC at the next line starting with `WARC/1.` in the same member, or, when the
//! gzip data itself is corrupt, at the next gzip member further on whose data starts with
//! `WARC/`.
//!
//! The body of a record is read into memory only for pages, and only its first
//! [`MAX_PAGE_BYTES`](super::MAX_PAGE_BYTES) bytes (before decoding); the rest of every block is
//! read through without being kept.

use std::io::{self, BufRead, BufReader, Read, Seek};
use std::mem;

use flate2::bufread::GzDecoder;

use super::http::{self, BodyError, HttpHead};
use super::progress::Tracked;
use super::raw::{InputEvent, RawPage, SkipReason, WarcIds, page_url};
use super::{GZIP_MAGIC, MAX_PAGE_BYTES, read_up_to};

/// Longest WARC record header read.
const MAX_WARC_HEADER_BYTES: u64 = 256 << 10;

/// How a version line starts; a resynchronising scan looks for it at the start of a line.
const VERSION_PREFIX: &[u8] = b"WARC/1.";

/// The fields of a WARC record header docview reads.
#[derive(Debug, Default)]
struct WarcHeader {
    warc_type: String,
    target_uri: Option<String>,
    ids: WarcIds,
    content_type: Option<String>,
    content_length: u64,
}

/// Why a record could not be read.
#[derive(Debug)]
enum Failure {
    /// The record is malformed; the stream under it is fine.
    Bad(String),
    /// Reading failed: a read error, or corrupt or truncated gzip data.
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

/// Skips the blank lines before a record and returns the offset where it starts, or `None` at
/// the end of the stream. `resumed`: a scan already consumed the record's `WARC/1.`.
fn start_record<B: BufRead>(r: &mut Tracked<B>, resumed: bool) -> io::Result<Option<u64>> {
    if resumed {
        return Ok(Some(r.pos() - VERSION_PREFIX.len() as u64));
    }
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(None);
        }
        let blank = buf
            .iter()
            .take_while(|&&b| b == b'\r' || b == b'\n')
            .count();
        if blank < buf.len() {
            r.consume(blank);
            return Ok(Some(r.pos()));
        }
        let all = buf.len();
        r.consume(all);
    }
}

/// Reads one record (its start found by [`start_record`]) through its trailing blank lines.
/// `Ok(None)` for a record passed over without an event.
fn read_record<B: BufRead>(
    r: &mut Tracked<B>,
    resumed: bool,
    origin: &str,
) -> Result<Option<InputEvent>, Failure> {
    let header = read_warc_header(r, resumed)?;
    let mut block = r.by_ref().take(header.content_length);
    let event = record_event(&mut block, &header, origin)?;
    io::copy(&mut block, &mut io::sink())?;
    if block.limit() > 0 {
        return Err(Failure::Bad(format!(
            "truncated record: Content-Length {} but {} bytes missing",
            header.content_length,
            block.limit()
        )));
    }
    end_of_record(r)?;
    Ok(event)
}

/// Reads the version line and the header fields through the blank line.
fn read_warc_header<B: BufRead>(r: &mut B, resumed: bool) -> Result<WarcHeader, Failure> {
    let mut reader = r.by_ref().take(MAX_WARC_HEADER_BYTES);
    let mut line = if resumed {
        VERSION_PREFIX.to_vec()
    } else {
        Vec::new()
    };
    reader.read_until(b'\n', &mut line)?;
    if !line.starts_with(b"WARC/") || !line.ends_with(b"\n") {
        let shown = String::from_utf8_lossy(&line[..line.len().min(40)]).into_owned();
        return Err(Failure::Bad(format!("no WARC version line: {shown:?}")));
    }
    let mut header = WarcHeader::default();
    let mut length = None;
    loop {
        line.clear();
        reader.read_until(b'\n', &mut line)?;
        if line == b"\r\n" || line == b"\n" {
            break;
        }
        if !line.ends_with(b"\n") {
            return Err(Failure::Bad(
                "truncated or overlong WARC header".to_string(),
            ));
        }
        if line[0] == b' ' || line[0] == b'\t' {
            continue; // A folded continuation of a field docview does not read.
        }
        let text = String::from_utf8_lossy(&line);
        let Some((name, value)) = text.split_once(':') else {
            return Err(Failure::Bad(format!(
                "bad WARC header line {:?}",
                text.trim_end()
            )));
        };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "warc-type" => header.warc_type = value.to_ascii_lowercase(),
            "warc-target-uri" => header.target_uri = Some(target_uri(value)),
            "warc-record-id" => header.ids.record_id = Some(value.to_string()),
            "warc-date" => header.ids.date = Some(value.to_string()),
            "content-type" => header.content_type = Some(value.to_string()),
            "content-length" => length = Some(value.to_string()),
            _ => {}
        }
    }
    let length = length.ok_or_else(|| Failure::Bad("no Content-Length".to_string()))?;
    header.content_length = length
        .parse()
        .map_err(|_| Failure::Bad(format!("bad Content-Length {length:?}")))?;
    Ok(header)
}

/// A `WARC-Target-URI` without the angle brackets some WARC/1.0 writers put around it (the
/// page's identifier is made of it by [`page_url`]).
fn target_uri(value: &str) -> String {
    let inner = value.strip_prefix('<').and_then(|v| v.strip_suffix('>'));
    inner.unwrap_or(value).to_string()
}

/// What a record's block gives, reading as little of it as needed.
fn record_event(
    block: &mut impl BufRead,
    header: &WarcHeader,
    origin: &str,
) -> Result<Option<InputEvent>, Failure> {
    let skipped = |reason| {
        Ok(Some(InputEvent::Skipped {
            origin: origin.to_string(),
            reason,
        }))
    };
    let malformed = |message: String| {
        Ok(Some(InputEvent::Malformed {
            origin: origin.to_string(),
            message,
        }))
    };
    // A `resource` record is a page captured without its HTTP head: the record's own
    // `Content-Type` stands for the head's (a 2xx status, no codings).
    let resource = match header.warc_type.as_str() {
        "warcinfo" | "request" | "metadata" => return Ok(None),
        "response" => None,
        "resource" => Some(HttpHead::of_resource(header.content_type.as_deref())),
        other => {
            let warc_type = if other.is_empty() { "untyped" } else { other };
            return skipped(SkipReason::NotResponse {
                warc_type: warc_type.to_string(),
            });
        }
    };
    // What the record's `Content-Type` rules out is told before its URL is looked for.
    match &resource {
        Some(head) => {
            if let Some(media_type) = head.media_type.as_ref().filter(|_| !head.is_html()) {
                return skipped(SkipReason::NotHtml {
                    content_type: media_type.clone(),
                });
            }
        }
        None => {
            if let Some(content_type) = &header.content_type {
                let (media_type, _) = http::split_content_type(content_type);
                if media_type != "application/http" {
                    return skipped(SkipReason::NotHttp {
                        content_type: media_type,
                    });
                }
            }
        }
    }
    let Some(target_uri) = &header.target_uri else {
        return malformed(format!(
            "{} record without WARC-Target-URI",
            header.warc_type
        ));
    };
    let url = match page_url(target_uri) {
        Ok(url) => url,
        Err(reason) => return skipped(reason),
    };
    let head = match resource {
        Some(head) => head,
        None => match http::read_head(block)? {
            Ok(head) => head,
            Err(message) => return malformed(message),
        },
    };
    if !(200..300).contains(&head.status) {
        return skipped(SkipReason::HttpStatus(head.status));
    }
    if let Some(media_type) = head.media_type.as_ref().filter(|_| !head.is_html()) {
        return skipped(SkipReason::NotHtml {
            content_type: media_type.clone(),
        });
    }
    let bytes = match read_body(block, &head)? {
        Ok(bytes) => bytes,
        Err(BodyError::Unsupported(coding)) => return skipped(SkipReason::Encoding(coding)),
        Err(BodyError::Corrupt(message)) => return malformed(message),
    };
    if head.media_type.is_none() && !starts_with_markup(&bytes) {
        return skipped(SkipReason::NotHtml {
            content_type: String::new(),
        });
    }
    Ok(Some(InputEvent::Page(RawPage {
        kind: crate::PageKind::Html,
        url,
        bytes,
        http_charset: head.charset,
        origin: origin.to_string(),
        warc: Some(Box::new(header.ids.clone())),
        fields: None,
    })))
}

/// Reads the first [`MAX_PAGE_BYTES`] bytes of the HTTP body and undoes its codings.
fn read_body(block: &mut impl BufRead, head: &HttpHead) -> io::Result<Result<Vec<u8>, BodyError>> {
    let mut raw = Vec::new();
    block
        .by_ref()
        .take(MAX_PAGE_BYTES as u64)
        .read_to_end(&mut raw)?;
    Ok(http::decode_body(raw, &head.codings))
}

/// True when the first non-blank byte (after a UTF-8 byte order mark) is `<`.
fn starts_with_markup(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'<')
}

/// Consumes the blank lines that end a record (`\r\n\r\n`; up to 4 CR or LF bytes taken). A
/// record followed by something else did not end where its `Content-Length` says.
fn end_of_record(r: &mut impl BufRead) -> Result<(), Failure> {
    for taken in 0..4 {
        match r.fill_buf()?.first() {
            None => return Ok(()),
            Some(b'\r' | b'\n') => r.consume(1),
            Some(_) if taken > 0 => return Ok(()),
            Some(_) => {
                return Err(Failure::Bad(
                    "the block does not end where Content-Length says".to_string(),
                ));
            }
        }
    }
    Ok(())
}

/// Consumes bytes through the next `WARC/1.` that starts a line. False at the end of the
/// stream.
fn skip_to_version_line(r: &mut impl BufRead) -> io::Result<bool> {
    let pattern = [b"\n", VERSION_PREFIX].concat();
    let mut matched = 0;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(false);
        }
        for (i, &b) in buf.iter().enumerate() {
            if b == pattern[matched] {
                matched += 1;
                if matched == pattern.len() {
                    r.consume(i + 1);
                    return Ok(true);
                }
            } else {
                matched = usize::from(b == b'\n');
            }
        }
        let all = buf.len();
        r.consume(all);
    }
}

/// A reader of WARC records: plain or gzip.
pub(crate) enum WarcReader<R> {
    /// An uncompressed WARC.
    Plain(PlainWarc<R>),
    /// A gzip WARC, one member per record or one for the whole file.
    Gzip(Box<GzipWarc<R>>),
}

impl<R: BufRead + Seek> WarcReader<R> {
    /// Reads the WARC in `src`, gzip when it starts with the gzip magic; `name` starts origins.
    pub(crate) fn new(mut src: Tracked<R>, name: &str) -> io::Result<Self> {
        let gzip = src.fill_buf()?.starts_with(&GZIP_MAGIC[..1]);
        Ok(if gzip {
            WarcReader::Gzip(Box::new(GzipWarc {
                name: name.to_string(),
                state: GzState::Between(src),
            }))
        } else {
            WarcReader::Plain(PlainWarc {
                name: name.to_string(),
                src,
                resumed: false,
                done: false,
            })
        })
    }

    /// The next page, skipped or malformed record; `None` at the end of the file.
    pub(crate) fn next_event(&mut self) -> Option<InputEvent> {
        match self {
            WarcReader::Plain(plain) => plain.next_event(),
            WarcReader::Gzip(gzip) => gzip.next_event(),
        }
    }
}

/// An uncompressed WARC.
pub(crate) struct PlainWarc<R> {
    name: String,
    src: Tracked<R>,
    resumed: bool,
    done: bool,
}

impl<R: BufRead + Seek> PlainWarc<R> {
    fn next_event(&mut self) -> Option<InputEvent> {
        while !self.done {
            let resumed = mem::take(&mut self.resumed);
            let start = match start_record(&mut self.src, resumed) {
                Ok(Some(start)) => start,
                Ok(None) => break,
                Err(e) => return Some(self.read_error(self.src.pos(), &e)),
            };
            let origin = format!("{}@{start}", self.name);
            match read_record(&mut self.src, resumed, &origin) {
                Ok(Some(event)) => return Some(event),
                Ok(None) => {}
                Err(Failure::Io(e)) => return Some(self.read_error(start, &e)),
                Err(Failure::Bad(message)) => {
                    self.resync(start);
                    return Some(InputEvent::Malformed { origin, message });
                }
            }
        }
        self.done = true;
        None
    }

    /// Moves to the next line starting with `WARC/1.` after `start`.
    fn resync(&mut self, start: u64) {
        let found = self
            .src
            .seek_to(start + 1)
            .and_then(|()| skip_to_version_line(&mut self.src));
        match found {
            Ok(found) => (self.resumed, self.done) = (found, !found),
            Err(_) => self.done = true,
        }
    }

    /// A read error ends the file.
    fn read_error(&mut self, at: u64, e: &io::Error) -> InputEvent {
        self.done = true;
        InputEvent::Malformed {
            origin: format!("{}@{at}", self.name),
            message: format!("read error: {e}"),
        }
    }
}

/// The decompressed records of one gzip member, counted from the start of the member (boxed:
/// the decoder's state is large).
type MemberStream<R> = Box<Tracked<BufReader<GzDecoder<Tracked<R>>>>>;

/// Where a gzip WARC reader is.
enum GzState<R> {
    /// At the start of a gzip member (or the end of the file).
    Between(Tracked<R>),
    /// Inside the gzip member that starts at `start`.
    Member {
        stream: MemberStream<R>,
        start: u64,
        resumed: bool,
    },
    /// At the end, or after an error that cannot be passed.
    Done,
}

/// A gzip WARC.
pub(crate) struct GzipWarc<R> {
    name: String,
    state: GzState<R>,
}

impl<R: BufRead + Seek> GzipWarc<R> {
    fn next_event(&mut self) -> Option<InputEvent> {
        loop {
            match mem::replace(&mut self.state, GzState::Done) {
                GzState::Done => return None,
                GzState::Between(mut raw) => match raw.fill_buf() {
                    Ok([]) => return None,
                    Ok(_) => {
                        let start = raw.pos();
                        self.state = member_at(raw, start);
                    }
                    Err(e) => {
                        return Some(InputEvent::Malformed {
                            origin: format!("{}@{}", self.name, raw.pos()),
                            message: format!("read error: {e}"),
                        });
                    }
                },
                GzState::Member {
                    mut stream,
                    start,
                    resumed,
                } => {
                    let at = match start_record(&mut stream, resumed) {
                        Ok(Some(at)) => at,
                        Ok(None) => {
                            self.state = GzState::Between(raw_of(stream));
                            continue;
                        }
                        Err(e) => return Some(self.corrupt(stream, start, 0, &e)),
                    };
                    let origin = match at {
                        0 => format!("{}@{start}", self.name),
                        at => format!("{}@{start}+{at}", self.name),
                    };
                    match read_record(&mut stream, resumed, &origin) {
                        Ok(event) => {
                            self.state = GzState::Member {
                                stream,
                                start,
                                resumed: false,
                            };
                            if event.is_some() {
                                return event;
                            }
                        }
                        Err(Failure::Io(e)) => return Some(self.corrupt(stream, start, at, &e)),
                        Err(Failure::Bad(mut message)) => {
                            if let Some(e) = self.resync_in_member(stream, start) {
                                message = format!("{message}; corrupt gzip member: {e}");
                            }
                            return Some(InputEvent::Malformed { origin, message });
                        }
                    }
                }
            }
        }
    }

    /// After a malformed record: the next line starting with `WARC/1.` in the same member, or
    /// the next member. Returns the error of a member found corrupt on the way.
    fn resync_in_member(&mut self, mut stream: MemberStream<R>, start: u64) -> Option<io::Error> {
        let (state, error) = match skip_to_version_line(&mut stream) {
            Ok(true) => {
                let state = GzState::Member {
                    stream,
                    start,
                    resumed: true,
                };
                (state, None)
            }
            Ok(false) => (GzState::Between(raw_of(stream)), None),
            Err(e) => (resync_members(raw_of(stream), start + 1), Some(e)),
        };
        self.state = state;
        error
    }

    /// Corrupt gzip data in the member at `start` (the record at `at` in it): reported, and
    /// reading goes on at the next good member.
    fn corrupt(
        &mut self,
        stream: MemberStream<R>,
        start: u64,
        at: u64,
        e: &io::Error,
    ) -> InputEvent {
        self.state = resync_members(raw_of(stream), start + 1);
        let origin = match at {
            0 => format!("{}@{start}", self.name),
            at => format!("{}@{start}+{at}", self.name),
        };
        InputEvent::Malformed {
            origin,
            message: format!("corrupt gzip member: {e}"),
        }
    }
}

/// Starts decompressing the member at `start`, where `raw` is.
fn member_at<R: BufRead>(raw: Tracked<R>, start: u64) -> GzState<R> {
    GzState::Member {
        stream: Box::new(Tracked::new(BufReader::new(GzDecoder::new(raw)))),
        start,
        resumed: false,
    }
}

/// The file under a member's stream, just after the member when it was read to its end.
#[allow(clippy::boxed_local)] // Taken as it is kept, to unwrap it.
fn raw_of<R>(stream: MemberStream<R>) -> Tracked<R> {
    (*stream).into_inner().into_inner().into_inner()
}

/// Finds the next gzip member at or after `from` whose data starts with `WARC/`.
fn resync_members<R: BufRead + Seek>(mut raw: Tracked<R>, from: u64) -> GzState<R> {
    let mut candidate = from;
    loop {
        let found = raw
            .seek_to(candidate)
            .and_then(|()| next_gzip_magic(&mut raw));
        match found {
            Ok(Some(at)) => match starts_warc_member(raw, at) {
                (raw, true) => return member_at(raw, at),
                (next, false) => (raw, candidate) = (next, at + 1),
            },
            Ok(None) | Err(_) => return GzState::Done,
        }
    }
}

/// Moves to the next `1f 8b 08` (gzip, deflate) and returns its offset; `None` at the end.
fn next_gzip_magic<R: BufRead + Seek>(raw: &mut Tracked<R>) -> io::Result<Option<u64>> {
    loop {
        let buf = raw.fill_buf()?;
        if buf.is_empty() {
            return Ok(None);
        }
        let Some(i) = memchr::memchr(GZIP_MAGIC[0], buf) else {
            let all = buf.len();
            raw.consume(all);
            continue;
        };
        raw.consume(i);
        let at = raw.pos();
        let mut magic = [0u8; 3];
        // A read stops at the buffer's edge: fill all three bytes unless the file ends.
        let n = read_up_to(raw, &mut magic)?;
        if n == 3 && magic == [0x1f, 0x8b, 0x08] {
            raw.seek_to(at)?;
            return Ok(Some(at));
        }
        raw.seek_to(at + 1)?;
    }
}

/// True when the gzip member at `at` decompresses to something starting with `WARC/`; `raw`
/// is handed back at `at`.
fn starts_warc_member<R: BufRead + Seek>(raw: Tracked<R>, at: u64) -> (Tracked<R>, bool) {
    let mut decoder = GzDecoder::new(raw);
    let mut head = [0u8; 5];
    let ok = decoder.read_exact(&mut head).is_ok() && &head == b"WARC/";
    let mut raw = decoder.into_inner();
    let ok = raw.seek_to(at).is_ok() && ok;
    (raw, ok)
}

#[cfg(test)]
mod tests {
    use std::io::{Cursor, Write};

    use flate2::Compression;
    use flate2::write::GzEncoder;

    use super::*;

    /// A WARC/1.1 record of `warc_type` with `block`.
    fn record(warc_type: &str, uri: &str, block: &[u8]) -> Vec<u8> {
        let mut out = format!(
            "WARC/1.1\r\nWARC-Type: {warc_type}\r\nWARC-Target-URI: {uri}\r\n\
             WARC-Date: 2024-01-01T00:00:00Z\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        out.extend_from_slice(block);
        out.extend_from_slice(b"\r\n\r\n");
        out
    }

    /// A response record: `head` lines (CRLF added), then `body`.
    fn response(uri: &str, head: &[&str], body: &[u8]) -> Vec<u8> {
        let mut block = head.join("\r\n").into_bytes();
        block.extend_from_slice(b"\r\n\r\n");
        block.extend_from_slice(body);
        let mut rec = record("response", uri, &block);
        let at = rec.windows(2).position(|w| w == b"\r\n").unwrap();
        rec.splice(
            at..at,
            b"\r\nContent-Type: application/http; msgtype=response"
                .iter()
                .copied(),
        );
        rec
    }

    fn html(uri: &str) -> Vec<u8> {
        let body = format!("<html><body><p>page {uri}</p></body></html>");
        response(
            uri,
            &["HTTP/1.1 200 OK", "Content-Type: text/html; charset=utf-8"],
            body.as_bytes(),
        )
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut enc = GzEncoder::new(Vec::new(), Compression::default());
        enc.write_all(bytes).unwrap();
        enc.finish().unwrap()
    }

    fn read_all(bytes: Vec<u8>) -> Vec<InputEvent> {
        read_all_buffered(bytes, 64)
    }

    /// Reads through a buffer of `capacity` bytes: 1 gives a reader that returns one byte a
    /// call, so every multi-byte read meets a buffer edge.
    fn read_all_buffered(bytes: Vec<u8>, capacity: usize) -> Vec<InputEvent> {
        let src = Tracked::new(BufReader::with_capacity(capacity, Cursor::new(bytes)));
        let mut reader = WarcReader::new(src, "t.warc").unwrap();
        std::iter::from_fn(|| reader.next_event()).collect()
    }

    /// Each event as `origin kind detail`.
    fn summary(events: &[InputEvent]) -> Vec<String> {
        events
            .iter()
            .map(|e| match e {
                InputEvent::Page(p) => format!("{} page {}", p.origin, p.url),
                InputEvent::Skipped { origin, reason } => format!("{origin} skipped {reason}"),
                InputEvent::Malformed { origin, .. } => format!("{origin} malformed"),
            })
            .collect()
    }

    fn page(event: &InputEvent) -> &RawPage {
        match event {
            InputEvent::Page(page) => page,
            other => panic!("not a page: {other:?}"),
        }
    }

    #[test]
    fn plain_records_and_skips() {
        let parts = [
            record("warcinfo", "", b"software: test\r\n"),
            record("request", "http://a/", b"GET / HTTP/1.1\r\n\r\n"),
            html("http://a/"),
            response(
                "http://b/",
                &["HTTP/1.1 404 Not Found", "Content-Type: text/html"],
                b"x",
            ),
            response(
                "http://c/",
                &["HTTP/1.1 200 OK", "Content-Type: image/png"],
                b"\x89PNG",
            ),
            record("revisit", "http://a/", b""),
            record("resource", "http://d/", b"<html></html>"),
            response(
                "http://e/",
                &["HTTP/1.1 200 OK"],
                b"  <!doctype html><p>sniffed",
            ),
            response("http://f/", &["HTTP/1.1 200 OK"], b"{\"json\": true}"),
            response(
                "http://g/",
                &["HTTP/1.1 200 OK", "Content-Encoding: br"],
                b"xx",
            ),
        ];
        let offsets: Vec<usize> = parts
            .iter()
            .scan(0, |at, p| {
                let start = *at;
                *at += p.len();
                Some(start)
            })
            .collect();
        let events = read_all(parts.concat());
        let o = |i: usize| format!("t.warc@{}", offsets[i]);
        assert_eq!(
            summary(&events),
            [
                format!("{} page http://a/", o(2)),
                format!("{} skipped HTTP status 404", o(3)),
                format!("{} skipped not HTML (image/png)", o(4)),
                format!("{} skipped WARC revisit record", o(5)),
                format!("{} page http://d/", o(6)),
                format!("{} page http://e/", o(7)),
                format!(
                    "{} skipped no content type and the body is not markup",
                    o(8)
                ),
                format!("{} skipped unsupported content encoding br", o(9)),
            ]
        );
        let a = page(&events[0]);
        assert_eq!(a.bytes, b"<html><body><p>page http://a/</p></body></html>");
        assert_eq!(a.http_charset.as_deref(), Some("utf-8"));
        assert_eq!(page(&events[5]).http_charset, None);
        // The record's date as written; no WARC-Record-ID in these records.
        let ids = a
            .warc
            .as_ref()
            .expect("a WARC page has its record's identity");
        assert_eq!(ids.date.as_deref(), Some("2024-01-01T00:00:00Z"));
        assert_eq!(ids.record_id, None);
    }

    #[test]
    fn a_page_carries_its_records_id_and_date() {
        let mut rec = html("http://a/");
        let at = rec.windows(2).position(|w| w == b"\r\n").unwrap();
        rec.splice(
            at..at,
            b"\r\nWARC-Record-ID: <urn:uuid:12345678-aaaa-bbbb-cccc-1234567890ab>"
                .iter()
                .copied(),
        );
        let events = read_all(rec);
        let ids = page(&events[0]).warc.clone().unwrap();
        assert_eq!(
            ids.record_id.as_deref(),
            Some("<urn:uuid:12345678-aaaa-bbbb-cccc-1234567890ab>")
        );
        assert_eq!(ids.date.as_deref(), Some("2024-01-01T00:00:00Z"));
    }

    /// A `resource` record of `content_type` (none: no `Content-Type` field).
    fn resource(uri: Option<&str>, content_type: Option<&str>, block: &[u8]) -> Vec<u8> {
        let mut out = b"WARC/1.0\r\nWARC-Type: resource\r\n".to_vec();
        if let Some(uri) = uri {
            out.extend_from_slice(format!("WARC-Target-URI: {uri}\r\n").as_bytes());
        }
        if let Some(t) = content_type {
            out.extend_from_slice(format!("Content-Type: {t}\r\n").as_bytes());
        }
        out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", block.len()).as_bytes());
        out.extend_from_slice(block);
        out.extend_from_slice(b"\r\n\r\n");
        out
    }

    /// A captured page written as a `resource` record (no HTTP head) is a page in the charset
    /// of the record's `Content-Type`; a resource of another type is skipped as not HTML.
    #[test]
    fn html_resource_records_are_pages() {
        // 新闻 in GB2312.
        let gb = b"<html><head><title>\xd0\xc2\xce\xc5</title></head><body>x</body></html>";
        let parts = [
            resource(
                Some("http://example.com/"),
                Some("text/html; charset=GB2312"),
                gb,
            ),
            resource(
                Some("http://example.com/logo.png"),
                Some("image/png"),
                b"\x89PNG",
            ),
            resource(Some("urn:x:notes"), None, b"plain notes"),
            resource(Some("http://example.com/bare"), None, b" <p>bare</p>"),
            resource(None, Some("application/xhtml+xml"), b"<html/>"),
        ];
        let events = read_all(gzip_members(&parts));
        let o = |i: usize| format!("t.warc@{}", member_offsets(&parts)[i]);
        assert_eq!(
            summary(&events),
            [
                format!("{} page http://example.com/", o(0)),
                format!("{} skipped not HTML (image/png)", o(1)),
                format!(
                    "{} skipped no content type and the body is not markup",
                    o(2)
                ),
                format!("{} page http://example.com/bare", o(3)),
                format!("{} malformed", o(4)),
            ]
        );
        let first = page(&events[0]);
        assert_eq!(first.bytes, gb);
        assert_eq!(first.http_charset.as_deref(), Some("GB2312"));
        let decoded = crate::decode_html(&first.bytes, first.http_charset.as_deref());
        assert!(decoded.text.contains("新闻"), "{}", decoded.text);
        assert_eq!(page(&events[3]).http_charset, None);
    }

    /// Each part as its own gzip member, as WARC writers lay records out.
    fn gzip_members(parts: &[Vec<u8>]) -> Vec<u8> {
        parts.iter().flat_map(|p| gzip(p)).collect()
    }

    /// The offset of each part's member in [`gzip_members`].
    fn member_offsets(parts: &[Vec<u8>]) -> Vec<usize> {
        parts
            .iter()
            .scan(0, |at, p| {
                let start = *at;
                *at += gzip(p).len();
                Some(start)
            })
            .collect()
    }

    #[test]
    fn chunked_and_gzip_bodies_are_decoded() {
        let body = b"<html><body>chunked body</body></html>";
        let chunked = [
            &b"10\r\n"[..],
            &body[..16],
            b"\r\n16\r\n",
            &body[16..],
            b"\r\n0\r\n\r\n",
        ]
        .concat();
        let chunked = response(
            "http://chunked/",
            &[
                "HTTP/1.1 200 OK",
                "Content-Type: text/html",
                "Transfer-Encoding: chunked",
            ],
            &chunked,
        );
        let gz = response(
            "http://gz/",
            &[
                "HTTP/1.1 200 OK",
                "Content-Type: text/html",
                "Content-Encoding: gzip",
            ],
            &gzip(body),
        );
        let events = read_all([chunked, gz].concat());
        assert_eq!(events.len(), 2);
        assert_eq!(page(&events[0]).bytes, body);
        assert_eq!(page(&events[1]).bytes, body);
    }

    #[test]
    fn plain_warc_resyncs_after_broken_records() {
        let a = html("http://a/");
        // Content-Length far too long: it swallows the next record.
        let long = html("http://long/");
        let long =
            String::from_utf8(long)
                .unwrap()
                .replacen("Content-Length: ", "Content-Length: 9", 1);
        let b = html("http://b/");
        // Content-Length too short: the block does not end where it says.
        let short = String::from_utf8(html("http://short/")).unwrap();
        let cl = short.find("Content-Length: ").unwrap() + 16;
        let short = format!("{}1{}", &short[..cl], &short[cl + 3..]);
        let garbage = b"\x00\x01garbage\r\nnot a record\r\n".to_vec();
        let c = html("http://c/");
        let bad_len = String::from_utf8(html("http://d/")).unwrap().replacen(
            "Content-Length: ",
            "Content-Length: x",
            1,
        );
        let e = html("http://e/");
        let parts = [
            a,
            long.into_bytes(),
            b,
            short.into_bytes(),
            garbage,
            c,
            bad_len.into_bytes(),
            e,
        ];
        let at = |i: usize| parts[..i].iter().map(Vec::len).sum::<usize>();
        let events = read_all(parts.concat());
        assert_eq!(
            summary(&events),
            [
                "t.warc@0 page http://a/".to_string(),
                format!("t.warc@{} malformed", at(1)),
                format!("t.warc@{} page http://b/", at(2)),
                format!("t.warc@{} malformed", at(3)),
                format!("t.warc@{} page http://c/", at(5)),
                format!("t.warc@{} malformed", at(6)),
                format!("t.warc@{} page http://e/", at(7)),
            ]
        );
        let InputEvent::Malformed { message, .. } = &events[5] else {
            unreachable!()
        };
        assert!(message.contains("bad Content-Length"), "{message}");
    }

    #[test]
    fn truncated_plain_warc() {
        let mut bytes = [html("http://a/"), html("http://b/")].concat();
        bytes.truncate(bytes.len() - 30);
        let events = read_all(bytes);
        assert_eq!(summary(&events)[0], "t.warc@0 page http://a/");
        let InputEvent::Malformed { message, .. } = &events[1] else {
            panic!("{events:?}")
        };
        assert!(message.contains("truncated"), "{message}");
        assert_eq!(events.len(), 2);
    }

    #[test]
    fn gzip_members_with_corrupt_and_malformed_ones() {
        let info = gzip(&record("warcinfo", "", b"software: test\r\n"));
        let a = gzip(&html("http://a/"));
        let mut corrupt = gzip(&html("http://corrupt/"));
        let mid = corrupt.len() / 2;
        for b in &mut corrupt[mid - 10..mid + 10] {
            *b ^= 0xa5;
        }
        let b = gzip(&html("http://b/"));
        let bad_header = gzip(
            b"WARC/1.1\r\nWARC-Type: response\r\nContent-Length: nine\r\n\r\n123456789\r\n\r\n",
        );
        let c = gzip(&html("http://c/"));
        let garbage = b"\x1f\x8b\x08 not really gzip".to_vec();
        let d = gzip(&html("http://d/"));
        let truncated = gzip(&html("http://truncated/"))[..40].to_vec();
        let parts = [info, a, corrupt, b, bad_header, c, garbage, d, truncated];
        let at = |i: usize| parts[..i].iter().map(Vec::len).sum::<usize>();
        let events = read_all(parts.concat());
        assert_eq!(
            summary(&events),
            [
                format!("t.warc@{} page http://a/", at(1)),
                format!("t.warc@{} malformed", at(2)),
                format!("t.warc@{} page http://b/", at(3)),
                format!("t.warc@{} malformed", at(4)),
                format!("t.warc@{} page http://c/", at(5)),
                format!("t.warc@{} malformed", at(6)),
                format!("t.warc@{} page http://d/", at(7)),
                format!("t.warc@{} malformed", at(8)),
            ]
        );
        let InputEvent::Malformed { message, .. } = &events[1] else {
            unreachable!()
        };
        assert!(message.contains("corrupt gzip member"), "{message}");
        assert_eq!(
            page(&events[2]).bytes,
            b"<html><body><p>page http://b/</p></body></html>"
        );
    }

    #[test]
    fn resync_finds_the_next_member_at_any_buffer_edge() {
        let a = gzip(&html("http://a/"));
        let mut corrupt = gzip(&html("http://corrupt/"));
        let mid = corrupt.len() / 2;
        for b in &mut corrupt[mid - 10..mid + 10] {
            *b ^= 0xa5;
        }
        let b = gzip(&html("http://b/"));
        let bytes = [a, corrupt, b].concat();
        let want = summary(&read_all(bytes.clone()));
        assert_eq!(want.len(), 3, "{want:?}");
        for capacity in 1..=16 {
            let got = summary(&read_all_buffered(bytes.clone(), capacity));
            assert_eq!(got, want, "buffer of {capacity} bytes");
        }
    }

    #[test]
    fn whole_file_gzip() {
        let parts = [
            record("warcinfo", "", b"software: test\r\n"),
            html("http://a/"),
            b"WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 2\r\n\r\n123\r\n\r\n".to_vec(),
            html("http://b/"),
        ];
        let at = |i: usize| parts[..i].iter().map(Vec::len).sum::<usize>();
        let events = read_all(gzip(&parts.concat()));
        assert_eq!(
            summary(&events),
            [
                format!("t.warc@0+{} page http://a/", at(1)),
                format!("t.warc@0+{} malformed", at(2)),
                format!("t.warc@0+{} page http://b/", at(3)),
            ]
        );
    }

    #[test]
    fn bodies_are_capped() {
        let body = vec![b'<'; MAX_PAGE_BYTES + 1000];
        let rec = response(
            "http://big/",
            &["HTTP/1.1 200 OK", "Content-Type: text/html"],
            &body,
        );
        let events = read_all([rec, html("http://after/")].concat());
        assert_eq!(page(&events[0]).bytes.len(), MAX_PAGE_BYTES);
        assert_eq!(page(&events[1]).url, "http://after/");
    }

    #[test]
    fn non_http_responses_and_bracketed_uris() {
        let dns = record(
            "response",
            "dns:example.com",
            b"20240101 example.com. 300 IN A 1.2.3.4",
        )
        .into_iter()
        .collect::<Vec<u8>>();
        let dns =
            String::from_utf8(dns)
                .unwrap()
                .replacen("\r\n", "\r\nContent-Type: text/dns\r\n", 1);
        let bracketed = String::from_utf8(html("<http://x/>")).unwrap();
        let events = read_all([dns.into_bytes(), bracketed.into_bytes()].concat());
        assert_eq!(
            events[0],
            InputEvent::Skipped {
                origin: "t.warc@0".into(),
                reason: SkipReason::NotHttp {
                    content_type: "text/dns".into()
                }
            }
        );
        assert_eq!(page(&events[1]).url, "http://x/");
    }

    #[test]
    fn a_record_without_a_page_url_is_skipped_with_its_reason() {
        let events = read_all(
            [
                html(""),
                html("   "),
                html("<>"),
                html("javascript:alert(1)"),
                html(" http://x/ "),
            ]
            .concat(),
        );
        let reasons: Vec<Option<&SkipReason>> = events
            .iter()
            .map(|e| match e {
                InputEvent::Skipped { reason, .. } => Some(reason),
                _ => None,
            })
            .collect();
        let javascript = SkipReason::NotPageUrl {
            scheme: "javascript".into(),
        };
        assert_eq!(
            reasons,
            [
                Some(&SkipReason::NoUrl),
                Some(&SkipReason::NoUrl),
                Some(&SkipReason::NoUrl),
                Some(&javascript),
                None
            ]
        );
        assert_eq!(page(&events[4]).url, "http://x/");
    }
}
