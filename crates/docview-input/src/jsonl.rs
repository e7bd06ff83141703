//! JSON Lines input: one page per line, `{"url": ..., "html": ...}`, read from a file (gzip
//! found by its magic bytes) or standard input. Other keys, such as `"charset"`, are ignored:
//! the HTML is already text. A byte order mark before the first line and blank lines are passed
//! over; a line that is not such an object is [`InputEvent::Malformed`], named `path:LINE`
//! (lines counted from 1), and one whose `"url"` is empty or addresses no page
//! ([`super::page_url`]) is [`InputEvent::Skipped`].

use std::io::{self, BufRead, Read};

use serde::Deserialize;

use super::MAX_PAGE_BYTES;
use super::raw::{InputEvent, RawPage, page_url};

/// Longest line read: a page of [`MAX_PAGE_BYTES`] with room for JSON escapes. The rest of a
/// longer line is passed over and the line reported.
const MAX_LINE_BYTES: u64 = 4 * MAX_PAGE_BYTES as u64;

/// One line of JSONL input.
#[derive(Deserialize)]
struct JsonPage {
    url: String,
    html: String,
}

/// A reader of JSON Lines pages.
pub(crate) struct JsonlReader {
    name: String,
    lines: Box<dyn BufRead + Send>,
    line_no: u64,
    done: bool,
}

impl JsonlReader {
    /// Reads the lines of `lines`; `name` starts origins.
    pub(crate) fn new(lines: Box<dyn BufRead + Send>, name: &str) -> Self {
        JsonlReader {
            name: name.to_string(),
            lines,
            line_no: 0,
            done: false,
        }
    }

    /// The next page or malformed line; `None` at the end.
    pub(crate) fn next_event(&mut self) -> Option<InputEvent> {
        while !self.done {
            let mut line = Vec::new();
            let read = self
                .lines
                .by_ref()
                .take(MAX_LINE_BYTES)
                .read_until(b'\n', &mut line);
            match read {
                Ok(0) => self.done = true,
                Ok(_) => {
                    self.line_no += 1;
                    if let Some(event) = self.line_event(&line) {
                        return Some(event);
                    }
                }
                Err(e) => {
                    self.done = true;
                    return Some(self.malformed(self.line_no + 1, format!("read error: {e}")));
                }
            }
        }
        None
    }

    /// The event of one line (`None` for a blank line).
    fn line_event(&mut self, line: &[u8]) -> Option<InputEvent> {
        if line.len() as u64 == MAX_LINE_BYTES && !line.ends_with(b"\n") {
            let message = match self.skip_line() {
                Ok(()) => format!("line longer than {MAX_LINE_BYTES} bytes"),
                Err(e) => format!("read error: {e}"),
            };
            return Some(self.malformed(self.line_no, message));
        }
        // A byte order mark before the first line (some editors and exporters write one).
        let line = match line.strip_prefix(b"\xEF\xBB\xBF") {
            Some(rest) if self.line_no == 1 => rest,
            _ => line,
        };
        if line.trim_ascii().is_empty() {
            return None;
        }
        let origin = format!("{}:{}", self.name, self.line_no);
        if let Some(what) = not_an_object(line) {
            return Some(InputEvent::Malformed {
                origin,
                message: format!("not a JSON object {{\"url\", \"html\"}}: {what}"),
            });
        }
        Some(match serde_json::from_slice::<JsonPage>(line) {
            Ok(page) => match page_url(&page.url) {
                Ok(url) => {
                    let mut bytes = page.html.into_bytes();
                    bytes.truncate(MAX_PAGE_BYTES);
                    InputEvent::Page(RawPage {
                        url,
                        bytes,
                        http_charset: None,
                        origin,
                    })
                }
                Err(reason) => InputEvent::Skipped { origin, reason },
            },
            Err(e) => InputEvent::Malformed {
                origin,
                message: format!("bad JSON line: {e}"),
            },
        })
    }

    /// Consumes the rest of the current line without keeping it.
    fn skip_line(&mut self) -> io::Result<()> {
        loop {
            let buf = self.lines.fill_buf()?;
            if buf.is_empty() {
                return Ok(());
            }
            if let Some(i) = memchr::memchr(b'\n', buf) {
                self.lines.consume(i + 1);
                return Ok(());
            }
            let all = buf.len();
            self.lines.consume(all);
        }
    }

    fn malformed(&self, line_no: u64, message: String) -> InputEvent {
        InputEvent::Malformed {
            origin: format!("{}:{line_no}", self.name),
            message,
        }
    }
}

/// What a line that cannot be a JSON object is (a JSON array, a string, no JSON), or `None`
/// when it starts like one. serde reads a struct from an array of its fields too, so
/// `["https://…", "<p>…</p>"]` would otherwise pass for a page.
fn not_an_object(line: &[u8]) -> Option<&'static str> {
    match line.trim_ascii_start().first() {
        Some(b'{') => None,
        Some(b'[') => Some("the line is a JSON array"),
        Some(b'"') => Some("the line is a JSON string"),
        Some(b'-' | b'0'..=b'9') => Some("the line is a JSON number"),
        Some(b't' | b'f' | b'n') if serde_json::from_slice::<serde_json::Value>(line).is_ok() => {
            Some("the line is a JSON literal")
        }
        _ => Some("the line is not JSON"),
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    fn read_all(text: &str) -> Vec<InputEvent> {
        let mut reader = JsonlReader::new(Box::new(Cursor::new(text.to_string())), "p.jsonl");
        std::iter::from_fn(|| reader.next_event()).collect()
    }

    #[test]
    fn a_byte_order_mark_before_the_first_line_is_passed_over() {
        let text = "\u{feff}{\"url\": \"http://a/\", \"html\": \"<p>a</p>\"}\n\
                    {\"url\": \"http://b/\", \"html\": \"<p>b</p>\"}\n";
        let events = read_all(text);
        let urls: Vec<&str> = events
            .iter()
            .map(|e| match e {
                InputEvent::Page(p) => p.url.as_str(),
                other => panic!("{other}"),
            })
            .collect();
        assert_eq!(urls, ["http://a/", "http://b/"]);
        // A control character in a URL never reaches records or terminals as it is.
        let events = read_all("{\"url\": \"http://a/\\u001b[2J\", \"html\": \"<p>a</p>\"}\n");
        let InputEvent::Page(page) = &events[0] else {
            panic!("{:?}", events[0]);
        };
        assert_eq!(page.url, "http://a/%1B[2J");
    }

    #[test]
    fn good_bad_and_blank_lines() {
        let text = "{\"url\": \"http://a/\", \"html\": \"<p>caf\\u00e9</p>\", \"charset\": \"gbk\"}\n\
                    \n   \r\n\
                    {\"url\": \"http://b/\"}\n\
                    not json\n\
                    {\"url\": \"http://c/\", \"html\": \"<p>c</p>\"}";
        let events = read_all(text);
        assert_eq!(events.len(), 4, "{events:?}");
        assert_eq!(
            events[0],
            InputEvent::Page(RawPage {
                url: "http://a/".into(),
                bytes: "<p>café</p>".as_bytes().to_vec(),
                http_charset: None,
                origin: "p.jsonl:1".into(),
            })
        );
        let InputEvent::Malformed { origin, message } = &events[1] else {
            panic!()
        };
        assert_eq!(origin, "p.jsonl:4");
        assert!(message.contains("missing field `html`"), "{message}");
        assert_eq!(events[2].origin(), "p.jsonl:5");
        assert!(matches!(&events[2], InputEvent::Malformed { .. }));
        assert_eq!(events[3].origin(), "p.jsonl:6");
        assert!(matches!(&events[3], InputEvent::Page(p) if p.bytes == b"<p>c</p>"));
    }

    #[test]
    fn a_line_that_is_no_object_is_malformed_whatever_it_holds() {
        let text = "[\"https://a.example/\", \"<p>an array</p>\"]\n\
                    \"<p>a string</p>\"\n\
                    42\n\
                    null\n\
                    <p>html</p>\n\
                    {\"url\": \"http://b/\", \"html\": \"<p>b</p>\"}\n";
        let events = read_all(text);
        let shown: Vec<String> = events.iter().map(ToString::to_string).collect();
        assert_eq!(events.len(), 6, "{shown:?}");
        for (event, what) in events
            .iter()
            .zip(["array", "string", "number", "literal", "not JSON"])
        {
            let InputEvent::Malformed { message, .. } = event else {
                panic!("{event}");
            };
            assert!(message.contains("not a JSON object"), "{message}");
            assert!(message.contains(what), "{message}");
        }
        assert!(matches!(&events[5], InputEvent::Page(p) if p.url == "http://b/"));
    }
}
