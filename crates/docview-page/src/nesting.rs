//! A guard in front of the HTML parser against pathological nesting.
//!
//! html5ever scans its stack of open elements for each `<p>`, `<li>` or `<div>` start tag (the
//! "has an element in scope" checks of the HTML standard), so a page nesting 100,000 lists costs
//! time quadratic in the depth: over a minute. The tokenizer counts the nesting of the tags it
//! reads as this module's scan does ([`nesting_step`]) and stops when it passes
//! [`MAX_PARSE_DEPTH`]; the page is then parsed again after [`cap_nesting`], which measures the
//! nesting with a light tag scan and, when it passes the limit, removes the start and end tags
//! of elements that would open deeper. Their text stays, in place. Ordinary pages (nesting in
//! the tens) are parsed once, as they are.

use std::borrow::Cow;

use crate::raw_text::{rawtext_end, script_data_end};

/// Elements may nest this deep before the parser sees them; deeper ones are unwrapped.
pub const MAX_PARSE_DEPTH: usize = 1000;

/// A tag found by the scan.
struct Tag<'a> {
    /// Byte range of the whole tag, `<` to `>` inclusive.
    start: usize,
    end: usize,
    /// The element name as written (compared case-insensitively).
    name: &'a str,
    closing: bool,
    self_closing: bool,
}

/// An element name of at most 8 bytes, lowercased and packed into an integer (first byte
/// lowest), so a set of names is one integer `match`; `None` for longer names, which are
/// none listed here.
fn key(name: &str) -> Option<u64> {
    let b = name.as_bytes();
    if b.len() > 8 {
        return None;
    }
    let mut buf = [0u8; 8];
    for (d, s) in buf.iter_mut().zip(b) {
        *d = s.to_ascii_lowercase();
    }
    Some(u64::from_le_bytes(buf))
}

/// [`key`] of a lowercase name, for patterns.
const fn k(name: &[u8]) -> u64 {
    let mut buf = [0u8; 8];
    let mut i = 0;
    while i < name.len() {
        buf[i] = name[i];
        i += 1;
    }
    u64::from_le_bytes(buf)
}

/// Constants of the [`key`]s of names, for `match` patterns.
macro_rules! keys {
    ($($name:ident = $s:literal),* $(,)?) => {
        $(const $name: u64 = k($s);)*
    };
}

keys!(
    AREA = b"area",
    BASE = b"base",
    BR = b"br",
    COL = b"col",
    EMBED = b"embed",
    HR = b"hr",
    IMG = b"img",
    INPUT = b"input",
    LINK = b"link",
    META = b"meta",
    SOURCE = b"source",
    TRACK = b"track",
    WBR = b"wbr",
    PARAM = b"param",
    KEYGEN = b"keygen",
    P = b"p",
    LI = b"li",
    DT = b"dt",
    DD = b"dd",
    TR = b"tr",
    TD = b"td",
    TH = b"th",
    TBODY = b"tbody",
    THEAD = b"thead",
    TFOOT = b"tfoot",
    OPTION = b"option",
    OPTGROUP = b"optgroup",
    RB = b"rb",
    RT = b"rt",
    RP = b"rp",
    RTC = b"rtc",
    COLGROUP = b"colgroup",
    CAPTION = b"caption",
    HTML = b"html",
    HEAD = b"head",
    BODY = b"body",
    SCRIPT = b"script",
    STYLE = b"style",
    TEXTAREA = b"textarea",
    TITLE = b"title",
    XMP = b"xmp",
    IFRAME = b"iframe",
    NOEMBED = b"noembed",
    NOFRAMES = b"noframes",
);

/// Elements that never hold content, or whose end tag is optional and implied by a sibling: they
/// do not build up the parser's stack, so they are not counted.
fn counts_for_depth(name: &str) -> bool {
    key(name).is_none_or(|key| {
        !matches!(
            key,
            AREA | BASE
                | BR
                | COL
                | EMBED
                | HR
                | IMG
                | INPUT
                | LINK
                | META
                | SOURCE
                | TRACK
                | WBR
                | PARAM
                | KEYGEN
                | P
                | LI
                | DT
                | DD
                | TR
                | TD
                | TH
                | TBODY
                | THEAD
                | TFOOT
                | OPTION
                | OPTGROUP
                | RB
                | RT
                | RP
                | RTC
                | COLGROUP
                | CAPTION
                | HTML
                | HEAD
                | BODY
        )
    })
}

/// Elements whose content is raw text: the scan skips to their end tag.
fn is_raw_text(name: &str) -> bool {
    key(name).is_some_and(|key| {
        matches!(
            key,
            SCRIPT | STYLE | TEXTAREA | TITLE | XMP | IFRAME | NOEMBED | NOFRAMES
        )
    })
}

/// Calls `f` with each tag of `html` in order, skipping comments, doctypes and raw text.
fn for_each_tag<'a>(html: &'a str, mut f: impl FnMut(&Tag<'a>)) {
    let bytes = html.as_bytes();
    let mut i = 0;
    while let Some(off) = find_lt(&bytes[i..]) {
        let start = i + off;
        let rest = &html[start..];
        if rest.starts_with("<!--") {
            i = rest.find("-->").map_or(bytes.len(), |e| start + e + 3);
            continue;
        }
        let closing = rest.as_bytes().get(1) == Some(&b'/');
        let name_at = start + 1 + closing as usize;
        let name_len = bytes[name_at.min(bytes.len())..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        if name_len == 0 || !bytes[name_at].is_ascii_alphabetic() {
            // `<!DOCTYPE`, `<?xml`, a lone `<`: not an element tag.
            i = start + 1;
            continue;
        }
        let end = tag_end(bytes, name_at + name_len);
        let tag = Tag {
            start,
            end,
            name: &html[name_at..name_at + name_len],
            closing,
            self_closing: end >= 2 && bytes[end - 2] == b'/',
        };
        f(&tag);
        i = end;
        if !closing && is_raw_text(tag.name) {
            i = raw_text_end(html, i, tag.name);
        }
    }
}

fn find_lt(bytes: &[u8]) -> Option<usize> {
    memchr::memchr(b'<', bytes)
}

/// The end (exclusive) of a tag whose attributes start at `from`: after its `>`, minding quotes.
fn tag_end(bytes: &[u8], from: usize) -> usize {
    let mut k = from;
    while let Some(off) = memchr::memchr3(b'>', b'"', b'\'', &bytes[k..]) {
        let at = k + off;
        match bytes[at] {
            b'>' => return at + 1,
            q => match memchr::memchr(q, &bytes[at + 1..]) {
                Some(close) => k = at + 1 + close + 1,
                None => return bytes.len(),
            },
        }
    }
    bytes.len()
}

/// Where the raw text of element `name` that starts at `from` ends: at its end tag, found by
/// the standard's script-data or RAWTEXT/RCDATA states as the parser's front finds it
/// ([`crate::raw_text`]).
fn raw_text_end(html: &str, from: usize, name: &str) -> usize {
    let text = &html.as_bytes()[from..];
    from + if name.eq_ignore_ascii_case("script") {
        script_data_end(text)
    } else {
        rawtext_end(text, name.as_bytes())
    }
}

/// The nesting `depth` after a tag named `name` (as written: the scan reads the letters and
/// digits it starts with), closing or not, self-closing or not.
pub(crate) fn nesting_step(depth: usize, name: &[u8], closing: bool, self_closing: bool) -> usize {
    let len = name
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    let Ok(name) = std::str::from_utf8(&name[..len]) else {
        return depth;
    };
    if !counts_for_depth(name) || self_closing {
        depth
    } else if closing {
        depth.saturating_sub(1)
    } else {
        depth + 1
    }
}

/// The deepest nesting of counted elements in `html`, by the tag scan.
fn max_depth(html: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    for_each_tag(html, |t| {
        depth = nesting_step(depth, t.name.as_bytes(), t.closing, t.self_closing);
        max = max.max(depth);
    });
    max
}

/// The byte offset of the start tag of element number `max + 1` of `html` (elements counted
/// by their start tags, comments passed over); `None` when it has no more than `max`.
pub fn tag_limit_offset(html: &str, max: usize) -> Option<usize> {
    // Every tag starts at a `<` of its own: a page with no more than `max` of them has no more
    // than `max` elements, and needs no scan (most pages: a tag is ten bytes and more).
    if memchr::memchr_iter(b'<', html.as_bytes()).count() <= max {
        return None;
    }
    let mut seen = 0usize;
    let mut at = None;
    for_each_tag(html, |t| {
        if at.is_none() && !t.closing {
            seen += 1;
            if seen > max {
                at = Some(t.start);
            }
        }
    });
    at
}

/// `html` with elements nested deeper than `limit` unwrapped (their tags removed, their content
/// kept); borrowed and unchanged when nothing nests that deep.
pub fn cap_nesting(html: &str, limit: usize) -> Cow<'_, str> {
    if max_depth(html) <= limit {
        return Cow::Borrowed(html);
    }
    let mut out = String::with_capacity(html.len());
    let mut copied = 0;
    let mut depth = 0usize;
    // Counted elements removed, still open: their end tags are removed too.
    let mut removed: Vec<String> = Vec::new();
    for_each_tag(html, |t| {
        if !counts_for_depth(t.name) || t.self_closing {
            return;
        }
        let drop = if t.closing {
            match removed.iter().rposition(|n| n.eq_ignore_ascii_case(t.name)) {
                Some(k) => {
                    removed.remove(k);
                    true
                }
                None => {
                    depth = depth.saturating_sub(1);
                    false
                }
            }
        } else if depth >= limit {
            removed.push(t.name.to_string());
            true
        } else {
            depth += 1;
            false
        };
        if drop {
            out.push_str(&html[copied..t.start]);
            copied = t.end;
        }
    });
    out.push_str(&html[copied..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_pages_are_untouched() {
        let html = "<html><body><div><ul><li>a<li>b</ul><p>x<p>y</div>\
                    <script>if (a<b) { '<div>' }</script><!-- <div> --></body></html>";
        assert!(matches!(cap_nesting(html, 3), Cow::Borrowed(_)));
        assert_eq!(max_depth(html), 2);
    }

    #[test]
    fn deep_nesting_is_unwrapped_and_text_kept() {
        let html = format!(
            "{}deep{}",
            "<div class=\"a>b\">".repeat(10),
            "</div>".repeat(10)
        );
        let capped = cap_nesting(&html, 4);
        assert_eq!(max_depth(&capped), 4);
        assert_eq!(capped.matches("<div").count(), 4);
        assert_eq!(capped.matches("</div>").count(), 4);
        assert!(capped.contains("deep"));
    }

    #[test]
    fn names_are_matched_ignoring_case_and_whole() {
        assert!(!counts_for_depth("TBody"));
        assert!(!counts_for_depth("p"));
        assert!(counts_for_depth("pre"));
        assert!(counts_for_depth("div"));
        assert!(counts_for_depth("optgroups"));
        assert!(counts_for_depth("a-very-long-custom-name"));
        assert!(is_raw_text("SCRIPT"));
        assert!(is_raw_text("noframes"));
        assert!(!is_raw_text("scripts"));
        assert!(!is_raw_text("s"));
    }

    #[test]
    fn unclosed_and_truncated_tags_do_not_panic() {
        for html in [
            "<div",
            "<",
            "</",
            "<div class='x",
            "<!--",
            "<script>",
            "<<<>>>",
            "é<é>",
        ] {
            let _ = cap_nesting(html, 1);
        }
    }
}
