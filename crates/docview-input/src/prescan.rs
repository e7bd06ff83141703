//! The `<meta>` charset declaration of a page, found by a byte prescan in the spirit of the
//! WHATWG "prescan a byte stream to determine its encoding" algorithm: comments, other tags and
//! their attribute values are skipped, so a `<meta` inside a comment or an attribute does not
//! count; `<meta charset=...>` and `<meta http-equiv="Content-Type" content="...; charset=...">`
//! are both understood, with any quoting and letter case.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

/// How many leading bytes of a page the prescan looks at.
pub(crate) const PRESCAN_BYTES: usize = 4096;

/// An attribute as the prescan sees it: name and value, ASCII-lowercased.
struct Attr {
    name: Vec<u8>,
    value: Vec<u8>,
}

/// The encoding declared by the first usable `<meta>` in the first [`PRESCAN_BYTES`] bytes.
///
/// As in WHATWG, a declared UTF-16 means UTF-8 (the bytes could not be read as ASCII otherwise)
/// and `x-user-defined` means windows-1252. Labels encoding_rs does not know, and the
/// `replacement` encoding (ISO-2022-KR, HZ-GB-2312, ...), are ignored.
pub(crate) fn prescan_meta_charset(bytes: &[u8]) -> Option<&'static Encoding> {
    let buf = &bytes[..bytes.len().min(PRESCAN_BYTES)];
    let mut pos = 0;
    while pos < buf.len() {
        let rest = &buf[pos..];
        pos = if rest.starts_with(b"<!--") {
            skip_comment(buf, pos)
        } else if is_meta_start(rest) {
            match meta_charset(buf, pos + 5) {
                (Some(enc), _) => return Some(enc),
                (None, next) => next + 1,
            }
        } else if is_tag_start(rest) {
            skip_tag(buf, pos)
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            skip_to_gt(buf, pos + 2)
        } else {
            pos + 1
        };
    }
    None
}

/// The encoding to use for a declared label, as WHATWG maps declarations.
pub(crate) fn usable_label(label: &[u8]) -> Option<&'static Encoding> {
    let enc = Encoding::for_label_no_replacement(label)?;
    Some(if enc == UTF_16LE || enc == UTF_16BE {
        UTF_8
    } else if enc == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        enc
    })
}

/// The charset label in a `content` attribute value such as `text/html; charset=gb2312`
/// (WHATWG "extract a character encoding from a meta element"). `value` must be lowercased.
pub(crate) fn charset_in_content(value: &[u8]) -> Option<&[u8]> {
    let mut pos = 0;
    loop {
        pos += find(&value[pos..], b"charset")? + b"charset".len();
        pos = skip_spaces(value, pos);
        if value.get(pos) != Some(&b'=') {
            continue;
        }
        pos = skip_spaces(value, pos + 1);
        let &first = value.get(pos)?;
        if first == b'"' || first == b'\'' {
            let body = &value[pos + 1..];
            return body
                .iter()
                .position(|&b| b == first)
                .map(|end| &body[..end]);
        }
        let end = value[pos..]
            .iter()
            .position(|&b| is_space(b) || b == b';')
            .map_or(value.len(), |n| pos + n);
        return Some(&value[pos..end]);
    }
}

/// Reads the attributes of a `<meta>` starting at `pos`; returns the declared encoding if the
/// tag is a usable declaration, and the position where reading stopped.
fn meta_charset(buf: &[u8], mut pos: usize) -> (Option<&'static Encoding>, usize) {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let mut got_pragma = false;
    let mut need_pragma: Option<bool> = None;
    // None: no charset seen yet; Some(None): a charset nobody knows.
    let mut charset: Option<Option<&'static Encoding>> = None;
    loop {
        let (attr, next) = get_attribute(buf, pos);
        pos = next;
        let Some(attr) = attr else { break };
        if seen.contains(&attr.name) {
            continue;
        }
        match attr.name.as_slice() {
            b"http-equiv" => got_pragma |= attr.value == b"content-type",
            b"content" if charset.is_none() => {
                if let Some(label) = charset_in_content(&attr.value) {
                    charset = Some(usable_label(label));
                    need_pragma = Some(true);
                }
            }
            b"charset" => {
                charset = Some(usable_label(&attr.value));
                need_pragma = Some(false);
            }
            _ => {}
        }
        seen.push(attr.name);
    }
    let declared = match need_pragma {
        None => None,
        Some(true) if !got_pragma => None,
        Some(_) => charset.flatten(),
    };
    (declared, pos)
}

/// WHATWG "get an attribute": the attribute at `pos` (if any) and the position after it.
/// Returns no attribute at `>` or at the end of the prescanned bytes.
fn get_attribute(buf: &[u8], mut pos: usize) -> (Option<Attr>, usize) {
    while buf.get(pos).is_some_and(|&b| is_space(b) || b == b'/') {
        pos += 1;
    }
    let mut name = Vec::new();
    loop {
        match buf.get(pos) {
            None => return (None, pos),
            Some(b'>') if name.is_empty() => return (None, pos),
            Some(b'=') if !name.is_empty() => return attribute_value(buf, pos + 1, name),
            Some(&b) if is_space(b) => break,
            Some(b'/' | b'>') => {
                return (
                    Some(Attr {
                        name,
                        value: Vec::new(),
                    }),
                    pos,
                );
            }
            Some(&b) => name.push(b.to_ascii_lowercase()),
        }
        pos += 1;
    }
    pos = skip_spaces(buf, pos);
    match buf.get(pos) {
        None => (None, pos),
        Some(b'=') => attribute_value(buf, pos + 1, name),
        Some(_) => (
            Some(Attr {
                name,
                value: Vec::new(),
            }),
            pos,
        ),
    }
}

/// The value part of "get an attribute", from just after the `=`.
fn attribute_value(buf: &[u8], pos: usize, name: Vec<u8>) -> (Option<Attr>, usize) {
    let pos = skip_spaces(buf, pos);
    let Some(&first) = buf.get(pos) else {
        return (None, pos);
    };
    if first == b'"' || first == b'\'' {
        let start = pos + 1;
        return match buf[start..].iter().position(|&b| b == first) {
            Some(n) => {
                let value = buf[start..start + n].to_ascii_lowercase();
                (Some(Attr { name, value }), start + n + 1)
            }
            None => (None, buf.len()),
        };
    }
    if first == b'>' {
        return (
            Some(Attr {
                name,
                value: Vec::new(),
            }),
            pos,
        );
    }
    match buf[pos..].iter().position(|&b| is_space(b) || b == b'>') {
        Some(n) => {
            let value = buf[pos..pos + n].to_ascii_lowercase();
            (Some(Attr { name, value }), pos + n)
        }
        None => (None, buf.len()),
    }
}

/// `<meta` followed by a space or a slash, any letter case.
fn is_meta_start(rest: &[u8]) -> bool {
    rest.len() > 5
        && rest[..5].eq_ignore_ascii_case(b"<meta")
        && (is_space(rest[5]) || rest[5] == b'/')
}

/// `<` or `</` followed by an ASCII letter.
fn is_tag_start(rest: &[u8]) -> bool {
    match rest {
        [b'<', b'/', c, ..] | [b'<', c, ..] => c.is_ascii_alphabetic(),
        _ => false,
    }
}

/// From a `<!--` at `pos` to just after the `-->` that ends it (`<!-->` counts).
fn skip_comment(buf: &[u8], pos: usize) -> usize {
    find(&buf[pos + 2..], b"-->").map_or(buf.len(), |n| pos + 2 + n + 3)
}

/// From a tag start at `pos` to just after the tag, reading its attributes so that a `>` inside
/// a quoted value does not end it.
fn skip_tag(buf: &[u8], pos: usize) -> usize {
    let mut pos = pos + 1;
    while buf.get(pos).is_some_and(|&b| !is_space(b) && b != b'>') {
        pos += 1;
    }
    loop {
        let (attr, next) = get_attribute(buf, pos);
        pos = next;
        if attr.is_none() {
            return pos + 1;
        }
    }
}

/// Just after the next `>` at or after `pos`.
fn skip_to_gt(buf: &[u8], pos: usize) -> usize {
    buf.get(pos..)
        .and_then(|rest| rest.iter().position(|&b| b == b'>'))
        .map_or(buf.len(), |n| pos + n + 1)
}

fn skip_spaces(buf: &[u8], mut pos: usize) -> usize {
    while buf.get(pos).is_some_and(|&b| is_space(b)) {
        pos += 1;
    }
    pos
}

/// The HTML space characters of the prescan: tab, LF, FF, CR, space.
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use encoding_rs::{EUC_JP, GBK, SHIFT_JIS, WINDOWS_1251};

    use super::*;

    fn scan(s: &str) -> Option<&'static str> {
        prescan_meta_charset(s.as_bytes()).map(|e| e.name())
    }

    #[test]
    fn meta_charset_any_quoting_and_case() {
        assert_eq!(scan(r#"<meta charset="gb2312">"#), Some("GBK"));
        assert_eq!(scan("<META CHARSET='GB2312'>"), Some("GBK"));
        assert_eq!(scan("<meta charset=gb2312>"), Some("GBK"));
        assert_eq!(scan("<meta charset = \" gb2312 \" />"), Some("GBK"));
        assert_eq!(scan("<meta\ncharset=shift_jis />"), Some(SHIFT_JIS.name()));
        assert_eq!(scan("<meta/charset=euc-jp>"), Some(EUC_JP.name()));
    }

    #[test]
    fn http_equiv_content_type() {
        let page = r#"<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251"></head>"#;
        assert_eq!(scan(page), Some(WINDOWS_1251.name()));
        let reversed = "<meta content='text/html;charset=\"gbk\"' HTTP-EQUIV=content-type>";
        assert_eq!(scan(reversed), Some(GBK.name()));
    }

    #[test]
    fn content_without_pragma_is_ignored() {
        assert_eq!(scan(r#"<meta content="text/html; charset=gbk">"#), None);
        assert_eq!(
            scan(r#"<meta name="x" content="charset=gbk"><meta charset="big5">"#),
            Some("Big5")
        );
    }

    #[test]
    fn comments_and_attribute_values_are_skipped() {
        assert_eq!(
            scan("<!-- <meta charset=gbk> --><meta charset=euc-kr>"),
            Some("EUC-KR")
        );
        assert_eq!(scan("<!--><meta charset=gbk>"), Some("GBK"));
        assert_eq!(
            scan(r#"<a title="<meta charset=gbk>">x</a><meta charset=big5>"#),
            Some("Big5")
        );
        assert_eq!(scan("<?xml version='1.0'?><meta charset=gbk>"), Some("GBK"));
        assert_eq!(scan("<!DOCTYPE html><meta charset=gbk>"), Some("GBK"));
    }

    #[test]
    fn utf16_means_utf8_and_unknown_is_skipped() {
        assert_eq!(scan("<meta charset=utf-16le>"), Some("UTF-8"));
        assert_eq!(scan("<meta charset=x-user-defined>"), Some("windows-1252"));
        assert_eq!(
            scan("<meta charset=klingon><meta charset=gbk>"),
            Some("GBK")
        );
        assert_eq!(
            scan("<meta charset=iso-2022-kr><meta charset=gbk>"),
            Some("GBK")
        );
    }

    #[test]
    fn nothing_found() {
        assert_eq!(scan(""), None);
        assert_eq!(scan("<meta"), None);
        assert_eq!(scan("<meta charset="), None);
        assert_eq!(scan("<meta charset=\"gbk"), None);
        assert_eq!(scan("<metadata charset=gbk>"), None);
        assert_eq!(scan("<p>charset=gbk</p>"), None);
    }

    #[test]
    fn only_the_first_bytes_are_scanned() {
        let mut page = "<!-- ".to_string() + &"x".repeat(PRESCAN_BYTES) + " -->";
        page.push_str("<meta charset=gbk>");
        assert_eq!(scan(&page), None);
    }

    #[test]
    fn random_markup_never_panics() {
        const PIECES: [&[u8]; 16] = [
            b"<meta",
            b" ",
            b"charset",
            b"=",
            b"\"",
            b"'",
            b"<!--",
            b"-->",
            b">",
            b"/",
            b"gbk",
            b"<a",
            b"</",
            b"<!",
            b"content=",
            b"http-equiv=content-type",
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..2000 {
            let mut page = Vec::new();
            for _ in 0..(state % 40) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                page.extend_from_slice(PIECES[(state % 16) as usize]);
            }
            let _ = prescan_meta_charset(&page);
            let _ = charset_in_content(&page.to_ascii_lowercase());
            let _ = crate::decode_html(&page, None);
        }
    }

    #[test]
    fn charset_in_content_forms() {
        assert_eq!(
            charset_in_content(b"text/html; charset=gbk"),
            Some(&b"gbk"[..])
        );
        assert_eq!(
            charset_in_content(b"charset = 'big5' ;"),
            Some(&b"big5"[..])
        );
        assert_eq!(
            charset_in_content(b"charsetx; charset=utf-8"),
            Some(&b"utf-8"[..])
        );
        assert_eq!(charset_in_content(b"charset=\"gbk"), None);
        assert_eq!(charset_in_content(b"charset="), None);
        assert_eq!(charset_in_content(b"text/html"), None);
    }
}
