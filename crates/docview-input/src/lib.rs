//! Reading crawled pages and decoding them to text.
//!
//! This module owns the bytes of a page before any markup is parsed: [`read_page_bytes`] reads a
//! file or standard input, undoing gzip whatever the file is called, and caps the size;
//! [`decode_html`] finds the page's real charset (byte order mark, valid UTF-8, HTTP header,
//! `<meta>` declaration, detection) and turns the bytes into text; [`looks_binary`] lets callers
//! turn away images, archives and other files that are not pages.
//!
//! [`Inputs`] reads crawled collections for `docview ingest`: directories of pages, WARC files
//! (plain or gzip), JSON Lines files or standard input, yielding one [`InputEvent`] at a time
//! (a [`RawPage`], or a record skipped or malformed) without holding the collection in memory.

#![deny(missing_docs)]

mod decode;
mod error;
mod http;
mod ids;
mod jsonl;
mod prescan;
mod progress;
mod raw;
mod sources;
mod warc;

use std::fs::File;
use std::io::{self, Cursor, Read};
use std::path::Path;

use flate2::read::MultiGzDecoder;

pub use decode::{CharsetSource, Decoded, decode_html, known_charset, looks_binary};
pub use error::{Error, Result};
pub use ids::InputIds;
pub use jsonl::JsonlKeys;
pub use progress::Progress;
pub use raw::{
    InputEvent, JsonFields, NOT_PAGE_SCHEMES, PageKind, RawPage, SkipKind, SkipReason,
    UnknownSkipKind, WarcIds, file_url, page_url,
};
pub use sources::{InputUnit, Inputs};

/// Most bytes of (decompressed) content kept from one page: 64 MiB.
///
/// A page bigger than this is truncated to its first `MAX_PAGE_BYTES` bytes, best effort: the
/// rest is never read, so a gzip bomb cannot exhaust memory, and a multi-byte character cut at
/// the end is handled by [`decode_html`].
pub const MAX_PAGE_BYTES: usize = 64 << 20;

/// Every event of a WARC (plain, gzip per record or gzip as a whole) held in memory, as
/// ingest reads a WARC file named `name`: the entry point of the WARC fuzz target and its
/// replay test.
pub fn warc_events(bytes: &[u8], name: &str) -> Vec<InputEvent> {
    let src = progress::Tracked::new(io::BufReader::new(Cursor::new(bytes)));
    match warc::WarcReader::new(src, name) {
        Ok(mut reader) => std::iter::from_fn(|| reader.next_event()).collect(),
        Err(e) => vec![InputEvent::Malformed {
            origin: name.to_string(),
            message: e.to_string(),
        }],
    }
}

/// Every event of JSON Lines held in memory, as ingest reads a JSONL file named `name`.
pub fn jsonl_events(bytes: &[u8], name: &str) -> Vec<InputEvent> {
    let lines: Box<dyn io::BufRead + Send> = Box::new(Cursor::new(bytes.to_vec()));
    let mut reader = jsonl::JsonlReader::new(lines, name);
    std::iter::from_fn(|| reader.next_event()).collect()
}

/// The status code of an HTTP response head (through its blank line), or why it is malformed,
/// as the WARC reader parses heads.
pub fn http_head_status(bytes: &[u8]) -> std::result::Result<u16, String> {
    match http::read_head(&mut Cursor::new(bytes)) {
        Ok(Ok(head)) => Ok(head.status),
        Ok(Err(why)) => Err(why),
        Err(e) => Err(e.to_string()),
    }
}

/// The two bytes every gzip member starts with.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// A file of many crawled pages, as its first bytes tell it (not its name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrawlFormat {
    /// A WARC: its bytes start with `WARC/`.
    Warc,
    /// JSON Lines: its first line is a JSON object (its first byte other than a byte order
    /// mark or white space is `{`; no HTML page starts so).
    JsonLines,
}

impl CrawlFormat {
    /// The format of the file whose first bytes are `head`, gzip or not (a gzip member is
    /// looked into); `None` for anything else, a page.
    pub fn sniff(head: &[u8]) -> Option<CrawlFormat> {
        let mut plain = [0u8; 64];
        let bytes = if head.starts_with(&GZIP_MAGIC) {
            // As much as the head decompresses to: a head cut inside the member still tells.
            let mut decoder = flate2::bufread::GzDecoder::new(head);
            let mut filled = 0;
            while filled < plain.len() {
                match decoder.read(&mut plain[filled..]) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => filled += n,
                }
            }
            &plain[..filled]
        } else {
            head
        };
        if bytes.starts_with(b"WARC/") {
            return Some(CrawlFormat::Warc);
        }
        let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        (text.trim_ascii_start().first() == Some(&b'{')).then_some(CrawlFormat::JsonLines)
    }

    /// What the format is called in messages.
    pub fn name(self) -> &'static str {
        match self {
            CrawlFormat::Warc => "a WARC file",
            CrawlFormat::JsonLines => "JSON Lines",
        }
    }
}

/// Reads the page at `path` (`-` for standard input) and returns its bytes, decompressed when
/// they are gzip (found by the magic bytes, not by the file name) and truncated to 64 MiB
/// (`MAX_PAGE_BYTES`).
///
/// A corrupt or truncated gzip stream is an [`Error::BadInput`] naming the file.
pub fn read_page_bytes(path: &Path) -> Result<Vec<u8>> {
    if path == Path::new("-") {
        read_page_from(io::stdin().lock(), path)
    } else {
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        let hint = SizeHint::of(&file);
        read_limited(file, path, MAX_PAGE_BYTES, hint)
    }
}

/// Like [`read_page_bytes`], from any reader; `name` is only used in errors.
pub(crate) fn read_page_from(reader: impl Read, name: &Path) -> Result<Vec<u8>> {
    read_limited(reader, name, MAX_PAGE_BYTES, SizeHint::default())
}

/// What a file says of the size of its content before it is read, so the buffer is allocated
/// once at about the right size instead of doubled from empty (each doubling a copy and fresh
/// pages to fault in).
#[derive(Debug, Clone, Copy, Default)]
struct SizeHint {
    /// The file's length.
    len: u64,
    /// The last four bytes of the file: for gzip, the length of its last member's content
    /// modulo 2^32 (ISIZE).
    trailer: Option<u32>,
}

/// Deflate stores at most about 1,032 bytes of content in one byte: an ISIZE above that is
/// not believed.
const MAX_DEFLATE_RATIO: u64 = 1_032;

impl SizeHint {
    fn of(file: &File) -> SizeHint {
        let len = file.metadata().map_or(0, |m| m.len());
        let mut hint = SizeHint { len, trailer: None };
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileExt;
            let mut trailer = [0u8; 4];
            // The smallest gzip member is 20 bytes.
            if len >= 20 && file.read_exact_at(&mut trailer, len - 4).is_ok() {
                hint.trailer = Some(u32::from_le_bytes(trailer));
            }
        }
        hint
    }

    /// The bytes to reserve for content read to at most `limit`, gzip or not.
    fn capacity(self, gzip: bool, limit: usize) -> usize {
        let guess = if gzip {
            self.trailer.map_or(0, |n| {
                u64::from(n).min(self.len.saturating_mul(MAX_DEFLATE_RATIO))
            })
        } else {
            self.len
        };
        usize::try_from(guess).map_or(limit, |g| g.min(limit))
    }
}

/// Reads at most `limit` bytes of content, decompressing gzip.
fn read_limited(
    mut reader: impl Read,
    name: &Path,
    limit: usize,
    hint: SizeHint,
) -> Result<Vec<u8>> {
    let (head, len) = read_head(&mut reader).map_err(|e| Error::io(name, e))?;
    let whole = Cursor::new(head).take(len as u64).chain(reader);
    if len == GZIP_MAGIC.len() && head == GZIP_MAGIC {
        let capacity = hint.capacity(true, limit);
        let bytes = read_capped(MultiGzDecoder::new(whole), limit, capacity)
            .map_err(|e| gzip_error(name, e))?;
        if bytes.len() == limit && decode::looks_binary(&bytes) {
            // Say what stopped it: the cap, not the binary data a bomb decompresses to.
            return Err(Error::bad_input(
                name.display().to_string(),
                format!(
                    "gzip data past the {} MiB read cap, and binary (a gzip bomb?)",
                    limit >> 20
                ),
            ));
        }
        Ok(bytes)
    } else {
        read_capped(whole, limit, hint.capacity(false, limit)).map_err(|e| Error::io(name, e))
    }
}

/// Reads the first two bytes (fewer at the end of input), retrying short reads from pipes.
fn read_head(reader: &mut impl Read) -> io::Result<([u8; 2], usize)> {
    let mut head = [0u8; 2];
    let len = read_up_to(reader, &mut head)?;
    Ok((head, len))
}

/// Reads until `buf` is full or the input ends (a read may stop short at a pipe's or a
/// buffer's edge); the number of bytes read.
pub(crate) fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match r.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Reads at most `limit` bytes from `reader`.
fn read_capped(reader: impl Read, limit: usize, capacity: usize) -> io::Result<Vec<u8>> {
    // One byte past the content, so the read that finds its end needs no second allocation.
    let mut bytes = Vec::with_capacity(capacity.saturating_add(1).min(limit));
    reader.take(limit as u64).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Errors the gzip decoder reports for bad data become [`Error::BadInput`]; the others are I/O.
fn gzip_error(name: &Path, e: io::Error) -> Error {
    match e.kind() {
        io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData | io::ErrorKind::UnexpectedEof => {
            Error::bad_input(name.display().to_string(), format!("corrupt gzip: {e}"))
        }
        _ => Error::io(name, e),
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use flate2::Compression;
    use flate2::write::GzEncoder;

    use super::*;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut enc = GzEncoder::new(Vec::new(), Compression::default());
        enc.write_all(bytes).expect("write to Vec");
        enc.finish().expect("finish to Vec")
    }

    fn sample_page() -> Vec<u8> {
        let mut page = b"<html><body>".to_vec();
        for i in 0..2000 {
            page.extend_from_slice(format!("<p>paragraph {i} of the page</p>\n").as_bytes());
        }
        page.extend_from_slice(b"</body></html>");
        page
    }

    #[test]
    fn plain_bytes_pass_through() {
        let page = sample_page();
        let read = read_page_from(Cursor::new(page.clone()), Path::new("p.html")).unwrap();
        assert_eq!(read, page);
    }

    #[test]
    fn gzip_found_by_magic_not_name() {
        let page = sample_page();
        let read = read_page_from(Cursor::new(gzip(&page)), Path::new("p.html")).unwrap();
        assert_eq!(read, page);
    }

    #[test]
    fn gzip_file_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("page.html.gz");
        let page = sample_page();
        std::fs::write(&path, gzip(&page)).unwrap();
        assert_eq!(read_page_bytes(&path).unwrap(), page);
    }

    #[test]
    fn the_size_hint_sizes_the_buffer_once_and_is_only_a_hint() {
        let dir = tempfile::tempdir().unwrap();
        let page = sample_page();
        // gzip: the trailer gives the content's length, allocated once.
        let gz = dir.path().join("page.gz");
        std::fs::write(&gz, gzip(&page)).unwrap();
        let hint = SizeHint::of(&File::open(&gz).unwrap());
        assert_eq!(hint.capacity(true, MAX_PAGE_BYTES), page.len());
        assert_eq!(read_page_bytes(&gz).unwrap().capacity(), page.len() + 1);
        // Plain: the file's length; and never past the cap.
        let plain = dir.path().join("page.html");
        std::fs::write(&plain, &page).unwrap();
        let hint = SizeHint::of(&File::open(&plain).unwrap());
        assert_eq!(hint.capacity(false, MAX_PAGE_BYTES), page.len());
        assert_eq!(hint.capacity(false, 10), 10);
        // Two members: the trailer tells only the last one's length; all is still read.
        let mut two = gzip(&page);
        two.extend_from_slice(&gzip(b"<p>two</p>"));
        let both = dir.path().join("two.gz");
        std::fs::write(&both, &two).unwrap();
        let mut want = page.clone();
        want.extend_from_slice(b"<p>two</p>");
        assert_eq!(read_page_bytes(&both).unwrap(), want);
        // A trailer that lies (4 GiB from 40 bytes) is not believed past the deflate ratio.
        let mut liar = gzip(b"<p>x</p>");
        let n = liar.len();
        liar[n - 4..].copy_from_slice(&u32::MAX.to_le_bytes());
        let hint = SizeHint {
            len: liar.len() as u64,
            trailer: Some(u32::MAX),
        };
        assert_eq!(hint.capacity(true, MAX_PAGE_BYTES), liar.len() * 1_032);
        let lying = dir.path().join("liar.gz");
        std::fs::write(&lying, &liar).unwrap();
        assert!(matches!(
            read_page_bytes(&lying),
            Err(Error::BadInput { .. })
        ));
    }

    #[test]
    fn concatenated_gzip_members_are_all_read() {
        let mut two = gzip(b"<p>one</p>");
        two.extend_from_slice(&gzip(b"<p>two</p>"));
        let read = read_page_from(Cursor::new(two), Path::new("p")).unwrap();
        assert_eq!(read, b"<p>one</p><p>two</p>");
    }

    #[test]
    fn truncated_gzip_is_bad_input() {
        let gz = gzip(&sample_page());
        let cut = &gz[..gz.len() / 2];
        let err = read_page_from(Cursor::new(cut.to_vec()), Path::new("cut.gz")).unwrap_err();
        assert!(matches!(err, Error::BadInput { .. }), "{err:?}");
        assert!(err.to_string().contains("corrupt gzip"), "{err}");
        assert!(err.to_string().starts_with("cut.gz"), "{err}");
    }

    #[test]
    fn corrupt_gzip_is_bad_input() {
        let mut gz = gzip(&sample_page());
        for b in gz.iter_mut().skip(20).take(40) {
            *b ^= 0x5a;
        }
        let err = read_page_from(Cursor::new(gz), Path::new("bad.gz")).unwrap_err();
        assert!(matches!(err, Error::BadInput { .. }), "{err:?}");
    }

    #[test]
    fn magic_alone_is_bad_input() {
        let err = read_page_from(Cursor::new(vec![0x1f, 0x8b]), Path::new("x")).unwrap_err();
        assert!(matches!(err, Error::BadInput { .. }), "{err:?}");
    }

    #[test]
    fn empty_and_tiny_inputs() {
        assert!(
            read_page_from(Cursor::new(Vec::new()), Path::new("e"))
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            read_page_from(Cursor::new(vec![0x1f]), Path::new("e")).unwrap(),
            [0x1f]
        );
    }

    #[test]
    fn missing_file_is_io_error_naming_it() {
        let err = read_page_bytes(Path::new("/no/such/page.html")).unwrap_err();
        assert!(matches!(err, Error::Io { .. }), "{err:?}");
        assert!(err.to_string().contains("/no/such/page.html"));
    }

    #[test]
    fn gzip_bomb_is_capped_and_named() {
        // 8 MiB of zeros compress to about 8 KiB; only the first 1 MiB is inflated, and the
        // error names the cap, not the binary data.
        let gz = gzip(&vec![0u8; 8 << 20]);
        assert!(gz.len() < 64 << 10);
        let err = read_limited(
            Cursor::new(gz),
            Path::new("bomb.gz"),
            1 << 20,
            SizeHint::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("bomb.gz") && err.contains("1 MiB read cap"),
            "{err}"
        );
        // A big page that is text is cut at the cap, not refused.
        let page = gzip("<p>tide</p>".repeat(200 << 10).as_bytes());
        let read = read_limited(
            Cursor::new(page),
            Path::new("big.gz"),
            1 << 20,
            SizeHint::default(),
        )
        .unwrap();
        assert_eq!(read.len(), 1 << 20);
    }

    #[test]
    fn plain_input_is_capped_too() {
        let page = sample_page();
        let read = read_limited(
            Cursor::new(page.clone()),
            Path::new("p"),
            100,
            SizeHint::default(),
        )
        .unwrap();
        assert_eq!(read, page[..100]);
    }

    #[test]
    fn crawl_files_are_told_by_their_first_bytes() {
        let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus-samples");
        let warc_gz = std::fs::read(samples.join("warc/corpus-samples.warc.gz")).unwrap();
        let mut warc = Vec::new();
        MultiGzDecoder::new(&warc_gz[..])
            .read_to_end(&mut warc)
            .unwrap();
        let page = sample_page();
        let lines = b"\xEF\xBB\xBF\n {\"url\": \"http://a/\", \"html\": \"<p>a</p>\"}\n";
        assert_eq!(CrawlFormat::sniff(&warc_gz), Some(CrawlFormat::Warc));
        // A head cut inside the gzip member still tells.
        assert_eq!(CrawlFormat::sniff(&warc_gz[..200]), Some(CrawlFormat::Warc));
        assert_eq!(CrawlFormat::sniff(&warc), Some(CrawlFormat::Warc));
        assert_eq!(CrawlFormat::sniff(lines), Some(CrawlFormat::JsonLines));
        assert_eq!(
            CrawlFormat::sniff(&gzip(lines)),
            Some(CrawlFormat::JsonLines)
        );
        assert_eq!(CrawlFormat::sniff(&page), None);
        assert_eq!(CrawlFormat::sniff(&gzip(&page)), None);
        assert_eq!(CrawlFormat::sniff(b""), None);
    }

    /// A reader that hands out one byte per call, like a slow pipe.
    struct OneByte(Cursor<Vec<u8>>);

    impl Read for OneByte {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(1);
            self.0.read(&mut buf[..n])
        }
    }

    #[test]
    fn short_reads_still_find_the_magic() {
        let page = sample_page();
        let reader = OneByte(Cursor::new(gzip(&page)));
        assert_eq!(read_page_from(reader, Path::new("-")).unwrap(), page);
    }
}
