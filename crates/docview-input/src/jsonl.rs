//! JSON Lines input: one page per line, `{"url": ..., "html": ...}` (or other keys a user
//! names: [`JsonlKeys`]; or `{"id": ..., "contents": ...}` of plain text cleaned elsewhere, a
//! [`PageKind::Text`] page, when the user names a text key), read from a file (gzip found by its
//! magic bytes) or standard input.
//! The line's other fields (a user's `id`, a `"charset"`, which is not read: the HTML is
//! already text) go with the page as they are, in their order ([`RawPage::fields`]), for what
//! docview writes of it. A byte order mark before the first line and blank lines are passed
//! over; a line that is not such an object is [`InputEvent::Malformed`], named `path:LINE`
//! (lines counted from 1), and one whose `"url"` is empty or addresses no page
//! ([`super::page_url`]) is [`InputEvent::Skipped`].

use std::io::{self, BufRead, Read};

use serde::{Deserialize, Serialize};

use super::MAX_PAGE_BYTES;
use super::raw::{InputEvent, PageKind, RawPage, page_url};

/// Longest line read: a page of [`MAX_PAGE_BYTES`] with room for JSON escapes. The rest of a
/// longer line is passed over and the line reported.
const MAX_LINE_BYTES: u64 = 4 * MAX_PAGE_BYTES as u64;

/// The keys of a JSON line that hold its page's address and HTML: `url` and `html` unless the
/// user names others (`--url-field`, `--html-field`); or its address and plain text, when the
/// user names a text key (`--text-field`: Pyserini's `{"id", "contents"}` lines are read with
/// `url` = `id`, `text` = `contents`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonlKeys {
    /// The key of the page's address.
    pub url: String,
    /// The key of the page's HTML (not read when `text` is named).
    pub html: String,
    /// The key of the page's plain text, when its lines hold text already cleaned instead of
    /// HTML: each page is then [`PageKind::Text`], its text the topic content as it stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

impl JsonlKeys {
    /// The key of a line's page and what its value holds.
    fn body(&self) -> (&str, PageKind) {
        match &self.text {
            Some(key) => (key, PageKind::Text),
            None => (&self.html, PageKind::Html),
        }
    }
}

impl Default for JsonlKeys {
    fn default() -> Self {
        JsonlKeys {
            url: "url".to_string(),
            html: "html".to_string(),
            text: None,
        }
    }
}

/// A JSON object's fields in the line's order.
pub(crate) struct OrderedObject(pub(crate) Vec<(String, serde_json::Value)>);

impl<'de> Deserialize<'de> for OrderedObject {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = OrderedObject;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<OrderedObject, A::Error> {
                let mut fields = Vec::new();
                while let Some(field) = map.next_entry::<String, serde_json::Value>()? {
                    fields.push(field);
                }
                Ok(OrderedObject(fields))
            }
        }
        d.deserialize_map(Fields)
    }
}

/// A reader of JSON Lines pages.
pub(crate) struct JsonlReader {
    name: String,
    keys: JsonlKeys,
    lines: Box<dyn BufRead + Send>,
    line_no: u64,
    done: bool,
}

impl JsonlReader {
    /// Reads the lines of `lines`; `name` starts origins.
    pub(crate) fn new(lines: Box<dyn BufRead + Send>, name: &str) -> Self {
        JsonlReader {
            name: name.to_string(),
            keys: JsonlKeys::default(),
            lines,
            line_no: 0,
            done: false,
        }
    }

    /// Reads the page's address and HTML from `keys`.
    pub(crate) fn with_keys(mut self, keys: JsonlKeys) -> Self {
        self.keys = keys;
        self
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
        let fields = match serde_json::from_slice::<OrderedObject>(line) {
            Ok(OrderedObject(fields)) => fields,
            Err(e) => {
                return Some(InputEvent::Malformed {
                    origin,
                    message: format!("bad JSON line: {e}"),
                });
            }
        };
        let (body_key, kind) = self.keys.body();
        let (mut url, mut body, mut rest) = (None, None, Vec::new());
        for (key, value) in fields {
            if key == self.keys.url {
                url = Some(value);
            } else if key == body_key {
                body = Some(value);
            } else {
                rest.push((key, value));
            }
        }
        let string = |value: Option<serde_json::Value>, key: &str| match value {
            Some(serde_json::Value::String(s)) => Ok(s),
            Some(other) => Err(format!(
                "bad JSON line: field `{key}` is {}, not a string",
                json_kind(&other)
            )),
            None => Err(format!("bad JSON line: missing field `{key}`")),
        };
        let (url, mut body) = match (string(url, &self.keys.url), string(body, body_key)) {
            (Ok(url), Ok(body)) => (url, body),
            (Err(message), _) | (_, Err(message)) => {
                return Some(InputEvent::Malformed { origin, message });
            }
        };
        Some(match page_url(&url) {
            Ok(url) => {
                if body.len() > MAX_PAGE_BYTES {
                    // Cut at a character's start, so that a text stays UTF-8.
                    let mut at = MAX_PAGE_BYTES;
                    while !body.is_char_boundary(at) {
                        at -= 1;
                    }
                    body.truncate(at);
                }
                InputEvent::Page(RawPage {
                    kind,
                    bytes: body.into_bytes(),
                    url,
                    http_charset: None,
                    origin,
                    warc: None,
                    fields: (!rest.is_empty()).then(|| Box::new(rest)),
                })
            }
            Err(reason) => InputEvent::Skipped { origin, reason },
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

/// What kind of JSON value `value` is, for messages.
fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
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
                kind: crate::PageKind::Html,
                url: "http://a/".into(),
                bytes: "<p>café</p>".as_bytes().to_vec(),
                http_charset: None,
                origin: "p.jsonl:1".into(),
                warc: None,
                fields: Some(Box::new(vec![(
                    "charset".to_string(),
                    serde_json::json!("gbk")
                )])),
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
    fn other_keys_and_the_lines_other_fields_in_order() {
        let text = "{\"id\": 7, \"page\": \"<p>a</p>\", \"at\": \"http://a/\", \"url\": \"x\"}\n\
                    {\"at\": 3, \"page\": \"<p>b</p>\"}\n";
        let mut reader = JsonlReader::new(Box::new(Cursor::new(text.to_string())), "p.jsonl")
            .with_keys(JsonlKeys {
                url: "at".to_string(),
                html: "page".to_string(),
                text: None,
            });
        let events: Vec<InputEvent> = std::iter::from_fn(|| reader.next_event()).collect();
        let InputEvent::Page(page) = &events[0] else {
            panic!("{:?}", events[0]);
        };
        assert_eq!(
            (page.url.as_str(), &page.bytes[..]),
            ("http://a/", &b"<p>a</p>"[..])
        );
        let fields = page.fields.as_deref().unwrap();
        assert_eq!(
            fields,
            &[
                ("id".to_string(), serde_json::json!(7)),
                ("url".to_string(), serde_json::json!("x")),
            ]
        );
        let InputEvent::Malformed { message, .. } = &events[1] else {
            panic!("{:?}", events[1]);
        };
        assert_eq!(
            message,
            "bad JSON line: field `at` is a number, not a string"
        );
        // A line of the two keys alone has no fields to pass on.
        let events = read_all("{\"url\": \"http://a/\", \"html\": \"<p>a</p>\"}\n");
        assert!(matches!(&events[0], InputEvent::Page(p) if p.fields.is_none()));
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

    #[test]
    fn a_text_key_reads_pyserini_lines_as_text_pages() {
        let text = "{\"id\": \"doc-1\", \"contents\": \"Ferry <b> dock\\n\\nrepairs caf\\u00e9\", \"html\": \"x\"}\n\
                    {\"id\": \"doc-2\", \"html\": \"<p>b</p>\"}\n";
        let keys = JsonlKeys {
            url: "id".to_string(),
            text: Some("contents".to_string()),
            ..JsonlKeys::default()
        };
        let mut reader =
            JsonlReader::new(Box::new(Cursor::new(text.to_string())), "c.jsonl").with_keys(keys);
        let events: Vec<InputEvent> = std::iter::from_fn(|| reader.next_event()).collect();
        let InputEvent::Page(page) = &events[0] else {
            panic!("{:?}", events[0]);
        };
        // The id is the page's identifier, the text its bytes as written (markup-like
        // characters included), and the html key is only another field.
        assert_eq!(page.kind, PageKind::Text);
        assert_eq!(page.url, "doc-1");
        assert_eq!(page.bytes, "Ferry <b> dock\n\nrepairs café".as_bytes());
        assert_eq!(
            page.fields.as_deref().unwrap(),
            &[("html".to_string(), serde_json::json!("x"))]
        );
        let InputEvent::Malformed { message, .. } = &events[1] else {
            panic!("{:?}", events[1]);
        };
        assert!(message.contains("missing field `contents`"), "{message}");
        // Without a text key, lines are HTML pages.
        let events = read_all("{\"url\": \"http://a/\", \"html\": \"<p>a</p>\"}\n");
        assert!(matches!(&events[0], InputEvent::Page(p) if p.kind == PageKind::Html));
    }
}
