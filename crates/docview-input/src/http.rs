//! The HTTP response inside a WARC `response` record: its head (status line and headers, parsed
//! with `httparse`) and its body with the transfer and content codings undone.

use std::io::{self, BufRead, Read};

use flate2::bufread::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};

use super::{GZIP_MAGIC, MAX_PAGE_BYTES};

/// Longest HTTP head read (status line and headers).
pub(crate) const MAX_HEAD_BYTES: usize = 256 << 10;

/// Most headers in an HTTP head.
const MAX_HEADERS: usize = 256;

/// What docview needs from an HTTP response head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HttpHead {
    /// The status code.
    pub status: u16,
    /// The media type of the first `Content-Type` header, lowercase, without parameters.
    pub media_type: Option<String>,
    /// The first `charset=` parameter of the `Content-Type` headers.
    pub charset: Option<String>,
    /// The codings applied to the body, in the order they were applied: `Content-Encoding`
    /// tokens, then `Transfer-Encoding` tokens (`identity` left out).
    pub codings: Vec<String>,
}

impl HttpHead {
    /// The head a WARC `resource` record stands for, a page captured without its HTTP head:
    /// a 2xx status, the media type and charset of the record's `Content-Type` (`None` when
    /// it has none), no codings.
    pub(crate) fn of_resource(content_type: Option<&str>) -> HttpHead {
        let (media_type, charset) = match content_type.map(split_content_type) {
            Some((media_type, charset)) => (Some(media_type), charset),
            None => (None, None),
        };
        HttpHead {
            status: 200,
            media_type,
            charset,
            codings: Vec::new(),
        }
    }

    /// True when the media type is HTML.
    pub(crate) fn is_html(&self) -> bool {
        self.media_type.as_deref().is_some_and(is_html_media_type)
    }
}

/// True for the media types of HTML: `text/html`, `application/xhtml+xml` (lowercase, without
/// parameters, as [`split_content_type`] gives them).
pub(crate) fn is_html_media_type(media_type: &str) -> bool {
    matches!(media_type, "text/html" | "application/xhtml+xml")
}

/// Reads an HTTP head through its blank line. The outer error is I/O; the inner one says why
/// the head is malformed.
pub(crate) fn read_head(r: &mut impl BufRead) -> io::Result<Result<HttpHead, String>> {
    let mut head = Vec::new();
    loop {
        let room = (MAX_HEAD_BYTES - head.len()) as u64;
        let start = head.len();
        let n = r.by_ref().take(room).read_until(b'\n', &mut head)?;
        let line = &head[start..];
        if line == b"\r\n" || line == b"\n" {
            return Ok(parse_head(&head));
        }
        if n == 0 || !line.ends_with(b"\n") {
            let why = if head.len() >= MAX_HEAD_BYTES {
                format!("HTTP head longer than {MAX_HEAD_BYTES} bytes")
            } else {
                "HTTP head without the blank line that ends it".to_string()
            };
            return Ok(Err(why));
        }
    }
}

/// Parses a complete HTTP response head. A version other than 1.x (`HTTP/2`, as some crawlers
/// write) is read as 1.1.
fn parse_head(head: &[u8]) -> Result<HttpHead, String> {
    let rewritten;
    let mut head = head;
    if head.starts_with(b"HTTP/") && !head.starts_with(b"HTTP/1.") {
        let space = memchr::memchr(b' ', head).ok_or("bad HTTP status line")?;
        rewritten = [b"HTTP/1.1", &head[space..]].concat();
        head = &rewritten;
    }
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut response = httparse::Response::new(&mut headers);
    let parsed = httparse::ParserConfig::default()
        .allow_spaces_after_header_name_in_responses(true)
        .allow_obsolete_multiline_headers_in_responses(true)
        .allow_multiple_spaces_in_response_status_delimiters(true)
        .ignore_invalid_headers_in_responses(true)
        .parse_response(&mut response, head);
    match parsed {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Err("incomplete HTTP head".to_string()),
        Err(e) => return Err(format!("bad HTTP head: {e}")),
    }
    let status = response.code.ok_or("HTTP head without a status")?;
    let mut parsed = HttpHead {
        status,
        media_type: None,
        charset: None,
        codings: Vec::new(),
    };
    let mut transfer = Vec::new();
    for header in response.headers.iter() {
        let value = String::from_utf8_lossy(header.value);
        if header.name.eq_ignore_ascii_case("content-type") {
            let (media_type, charset) = split_content_type(&value);
            parsed.media_type.get_or_insert(media_type);
            if parsed.charset.is_none() {
                parsed.charset = charset;
            }
        } else if header.name.eq_ignore_ascii_case("content-encoding") {
            parsed.codings.extend(tokens(&value));
        } else if header.name.eq_ignore_ascii_case("transfer-encoding") {
            transfer.extend(tokens(&value));
        }
    }
    parsed.codings.extend(transfer);
    Ok(parsed)
}

/// The lowercase, non-`identity` tokens of a comma-separated header value.
fn tokens(value: &str) -> impl Iterator<Item = String> + '_ {
    value
        .split(',')
        .map(|t| t.trim().to_ascii_lowercase())
        .filter(|t| !t.is_empty() && t != "identity")
}

/// Splits a `Content-Type` value into its lowercase media type and its `charset` parameter.
pub(crate) fn split_content_type(value: &str) -> (String, Option<String>) {
    let mut parts = value.split(';');
    let media_type = parts.next().unwrap_or("").trim().to_ascii_lowercase();
    let charset = parts.find_map(|param| {
        let (name, value) = param.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'').trim();
        (!value.is_empty()).then(|| value.to_string())
    });
    (media_type, charset)
}

/// Why a body could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BodyError {
    /// A coding docview does not know (`br`, `zstd`, ...).
    Unsupported(String),
    /// Compressed data that yields nothing.
    Corrupt(String),
}

/// Undoes the codings of an HTTP body, last applied first, keeping at most [`MAX_PAGE_BYTES`].
///
/// Lenient where WARC writers are sloppy: a body declared chunked that does not start with a
/// chunk size, or declared gzip without the gzip magic, was stored decoded and is kept as it is;
/// a truncated chunked or compressed body keeps what could be decoded.
pub(crate) fn decode_body(mut body: Vec<u8>, codings: &[String]) -> Result<Vec<u8>, BodyError> {
    for coding in codings.iter().rev() {
        body = match coding.as_str() {
            "chunked" => dechunk(&body).unwrap_or(body),
            "gzip" | "x-gzip" if body.starts_with(&GZIP_MAGIC) => {
                inflate(MultiGzDecoder::new(body.as_slice()), coding)?
            }
            "gzip" | "x-gzip" => body,
            "deflate" if is_zlib(&body) => inflate(ZlibDecoder::new(body.as_slice()), coding)?,
            "deflate" => inflate(DeflateDecoder::new(body.as_slice()), coding)?,
            other => return Err(BodyError::Unsupported(other.to_string())),
        };
    }
    Ok(body)
}

/// True when `body` starts with a zlib header (deflate method, valid check bits).
fn is_zlib(body: &[u8]) -> bool {
    match body {
        [cmf, flg, ..] => cmf & 0x0f == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0,
        _ => false,
    }
}

/// Reads a decompressor to its end or to [`MAX_PAGE_BYTES`]; an error after some output keeps
/// the output (a truncated body), an error before any is [`BodyError::Corrupt`].
fn inflate(decoder: impl Read, coding: &str) -> Result<Vec<u8>, BodyError> {
    let mut out = Vec::new();
    match decoder.take(MAX_PAGE_BYTES as u64).read_to_end(&mut out) {
        Err(e) if out.is_empty() => Err(BodyError::Corrupt(format!("{coding} body: {e}"))),
        _ => Ok(out),
    }
}

/// The data of a chunked body, or `None` when it does not start with a chunk-size line. A
/// truncated or broken chunk ends the data.
fn dechunk(raw: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(raw.len());
    let mut rest = raw;
    let mut first = true;
    loop {
        let Some(size) = chunk_size(rest) else {
            return if first { None } else { Some(out) };
        };
        let (size, line_len) = size;
        first = false;
        rest = &rest[line_len..];
        if size == 0 {
            return Some(out);
        }
        let take = size.min(rest.len());
        out.extend_from_slice(&rest[..take]);
        rest = &rest[take..];
        if take < size {
            return Some(out);
        }
        rest = rest
            .strip_prefix(b"\r\n")
            .or_else(|| rest.strip_prefix(b"\n"))
            .unwrap_or(rest);
    }
}

/// The size of the chunk whose size line starts `rest`, and the length of that line.
fn chunk_size(rest: &[u8]) -> Option<(usize, usize)> {
    let nl = memchr::memchr(b'\n', &rest[..rest.len().min(1024)])?;
    let line = std::str::from_utf8(&rest[..nl]).ok()?;
    let digits = line.split(';').next()?.trim();
    let size = usize::from_str_radix(digits, 16).ok()?;
    Some((size, nl + 1))
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use flate2::Compression;
    use flate2::write::{DeflateEncoder, GzEncoder, ZlibEncoder};

    use super::*;

    fn head(text: &str) -> Result<HttpHead, String> {
        read_head(&mut text.as_bytes()).unwrap()
    }

    fn codings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn head_fields() {
        let h = head(
            "HTTP/1.1 200 OK\r\nContent-Type: Text/HTML; Charset=\"GB2312\"\r\n\
             Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n<html>",
        )
        .unwrap();
        assert_eq!(h.status, 200);
        assert_eq!(h.media_type.as_deref(), Some("text/html"));
        assert_eq!(h.charset.as_deref(), Some("GB2312"));
        assert_eq!(h.codings, codings(&["gzip", "chunked"]));
        assert!(h.is_html());
    }

    #[test]
    fn lenient_heads() {
        let h = head("HTTP/2 404\nContent-Type: image/png\n\n").unwrap();
        assert_eq!((h.status, h.is_html()), (404, false));
        let h = head("HTTP/1.0 200 OK\r\nBad Header Name: x\r\n\r\n").unwrap();
        assert_eq!((h.status, h.media_type), (200, None));
        let h = head("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Type: text/html; charset=utf-8\r\n\r\n")
            .unwrap();
        assert_eq!(h.charset.as_deref(), Some("utf-8"));
    }

    #[test]
    fn malformed_heads() {
        assert!(head("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n").is_err());
        assert!(head("<html><body>no head</body></html>\r\n\r\n").is_err());
        assert!(head("").is_err());
    }

    #[test]
    fn chunked_bodies() {
        let raw =
            b"4\r\nWiki\r\n6;ext=1\r\npedia \r\nE\r\nin \r\n\r\nchunks.\r\n0\r\n\r\n".to_vec();
        let body = decode_body(raw, &codings(&["chunked"])).unwrap();
        assert_eq!(body, b"Wikipedia in \r\n\r\nchunks.");
        // Not chunked after all: kept as it is.
        let body = decode_body(b"<html></html>".to_vec(), &codings(&["chunked"])).unwrap();
        assert_eq!(body, b"<html></html>");
        // Truncated: what was read is kept.
        let body = decode_body(b"5\r\nhello\r\n9\r\nwor".to_vec(), &codings(&["chunked"]));
        assert_eq!(body.unwrap(), b"hellowor");
    }

    #[test]
    fn compressed_bodies() {
        let page = b"<html><body>compressed page</body></html>".repeat(20);
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(&page).unwrap();
        let gz = gz.finish().unwrap();
        assert_eq!(decode_body(gz.clone(), &codings(&["gzip"])).unwrap(), page);
        // gzip inside chunked.
        let mut chunked = format!("{:x}\r\n", gz.len()).into_bytes();
        chunked.extend_from_slice(&gz);
        chunked.extend_from_slice(b"\r\n0\r\n\r\n");
        let body = decode_body(chunked, &codings(&["gzip", "chunked"])).unwrap();
        assert_eq!(body, page);
        // Declared gzip, stored decoded.
        assert_eq!(
            decode_body(page.clone(), &codings(&["gzip"])).unwrap(),
            page
        );
        let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
        z.write_all(&page).unwrap();
        assert_eq!(
            decode_body(z.finish().unwrap(), &codings(&["deflate"])).unwrap(),
            page
        );
        let mut d = DeflateEncoder::new(Vec::new(), Compression::default());
        d.write_all(&page).unwrap();
        assert_eq!(
            decode_body(d.finish().unwrap(), &codings(&["deflate"])).unwrap(),
            page
        );
    }

    #[test]
    fn undecodable_bodies() {
        let err = decode_body(b"xx".to_vec(), &codings(&["br"])).unwrap_err();
        assert_eq!(err, BodyError::Unsupported("br".into()));
        let mut bad = GZIP_MAGIC.to_vec();
        bad.extend_from_slice(&[0xff; 30]);
        let err = decode_body(bad, &codings(&["gzip"])).unwrap_err();
        assert!(matches!(err, BodyError::Corrupt(_)), "{err:?}");
    }
}
