//! The raw text docview never reads, and where it ends: the contents of `<style>` elements and
//! of `<script>` elements that are not JSON-LD, 40% of a crawled page's bytes (wcxb-dev).
//!
//! The tag tree drops these elements whole, so the tokenizer ([`crate::tokenizer`]) does not
//! emit their text: when the tree builder switches it to script data or RAWTEXT after a
//! `<script>` (not JSON-LD) or `<style>` start tag, it passes over the input up to where the
//! standard's own states would find the element's end tag ([`script_data_end`],
//! [`rawtext_end`]), and reads that end tag from the data state, which tokenizes `</script
//! ...>` and `</style ...>` as the raw-text states do after an appropriate end tag. The same
//! scanners end every raw-text element for the tokenizer and for the nesting pre-pass
//! ([`crate::nesting`]).

use html5ever::{Attribute, local_name};

use crate::dom::attr_value;

/// True when `attrs` (an element's) make it a `<script type="application/ld+json">`, the one
/// script whose text docview reads.
pub(crate) fn is_json_ld(attrs: &[Attribute]) -> bool {
    attr_value(attrs, &local_name!("type"))
        .is_some_and(|t| t.eq_ignore_ascii_case("application/ld+json"))
}

/// Whitespace as the tokenizer's end-tag states see it (a carriage return is a line feed by
/// then).
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b' ' | b'\r')
}

/// True when `text[at..]` starts with the tag name `name` (in any case) followed by a space,
/// `/` or `>`: after `</`, an end tag that closes the element (the standard's "appropriate end
/// tag").
fn closes(text: &[u8], at: usize, name: &[u8]) -> bool {
    let end = at + name.len();
    text.get(at..end)
        .is_some_and(|n| n.eq_ignore_ascii_case(name))
        && text
            .get(end)
            .is_some_and(|&b| is_space(b) || b == b'/' || b == b'>')
}

/// The offset of the `</name` end tag that ends RAWTEXT `text`, or its length.
pub(crate) fn rawtext_end(text: &[u8], name: &[u8]) -> usize {
    let mut from = 0;
    while let Some(off) = memchr::memchr(b'<', &text[from..]) {
        let at = from + off;
        if text.get(at + 1) == Some(&b'/') && closes(text, at + 2, name) {
            return at;
        }
        from = at + 1;
    }
    text.len()
}

/// The states of the HTML standard's script data tokenizer (13.2.5.4 onwards) that decide
/// where a script ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Script {
    Data,
    Escaped,
    EscapedDash,
    EscapedDashDash,
    DoubleEscaped,
    DoubleEscapedDash,
    DoubleEscapedDashDash,
}

/// The offset of the `</script` end tag that ends script data `text`, or its length: the
/// standard's script data states, including the escaped (`<!--`) and double-escaped
/// (`<!--<script>`) ones in which a `</script>` inside a comment does not end the script.
pub(crate) fn script_data_end(text: &[u8]) -> usize {
    const SCRIPT: &[u8] = b"script";
    let mut state = Script::Data;
    let mut i = 0;
    while i < text.len() {
        if state == Script::Data {
            // Nothing but `<` matters here: jump to the next one.
            match memchr::memchr(b'<', &text[i..]) {
                Some(off) => i += off,
                None => return text.len(),
            }
            // Script data less-than sign.
            match text.get(i + 1) {
                Some(b'/') if closes(text, i + 2, SCRIPT) => return i,
                Some(b'!') if text[i + 2..].starts_with(b"--") => {
                    // Escape start, escape start dash: `<!--` enters the escaped dash dash
                    // state.
                    state = Script::EscapedDashDash;
                    i += 4;
                }
                _ => i += 1,
            }
            continue;
        }
        let b = text[i];
        let double = matches!(
            state,
            Script::DoubleEscaped | Script::DoubleEscapedDash | Script::DoubleEscapedDashDash
        );
        match b {
            b'-' => {
                state = match state {
                    Script::Escaped => Script::EscapedDash,
                    Script::EscapedDash | Script::EscapedDashDash => Script::EscapedDashDash,
                    Script::DoubleEscaped => Script::DoubleEscapedDash,
                    _ => Script::DoubleEscapedDashDash,
                };
                i += 1;
            }
            b'>' if matches!(
                state,
                Script::EscapedDashDash | Script::DoubleEscapedDashDash
            ) =>
            {
                state = Script::Data;
                i += 1;
            }
            b'<' if !double => {
                // Escaped less-than sign.
                match text.get(i + 1) {
                    Some(b'/') if closes(text, i + 2, SCRIPT) => return i,
                    Some(c) if c.is_ascii_alphabetic() => {
                        // Double escape start: a `<script` tag name enters the double-escaped
                        // state, any other name stays escaped.
                        state = if closes(text, i + 1, SCRIPT) {
                            Script::DoubleEscaped
                        } else {
                            Script::Escaped
                        };
                        i += 1 + text[i + 1..]
                            .iter()
                            .take_while(|c| c.is_ascii_alphabetic())
                            .count();
                    }
                    _ => {
                        state = Script::Escaped;
                        i += 1;
                    }
                }
            }
            b'<' => {
                // Double escaped less-than sign: `</script` followed by a space, `/` or `>`
                // leaves the double escape, any other end tag name does not.
                state = Script::DoubleEscaped;
                i += 1;
                if text.get(i) == Some(&b'/') {
                    i += 1;
                    let name = text[i..]
                        .iter()
                        .take_while(|c| c.is_ascii_alphabetic())
                        .count();
                    if closes(text, i, SCRIPT) && name == SCRIPT.len() {
                        state = Script::Escaped;
                    }
                    i += name;
                }
            }
            _ => {
                state = if double {
                    Script::DoubleEscaped
                } else {
                    Script::Escaped
                };
                i += 1;
            }
        }
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The script text before the end tag the scanner finds.
    fn script(text: &str) -> &str {
        &text[..script_data_end(text.as_bytes())]
    }

    #[test]
    fn script_data_ends_where_the_standard_says() {
        assert_eq!(script("a < b</script>c"), "a < b");
        assert_eq!(script("x</SCRIPT\t>"), "x");
        assert_eq!(script("x</script/>"), "x");
        assert_eq!(script("x</scripts></script>"), "x</scripts>");
        assert_eq!(script("'</scr' + 'ipt>'</script>"), "'</scr' + 'ipt>'");
        // A comment's `</script>` ends the script unless a `<script>` opened inside it.
        assert_eq!(script("<!-- a </script> -->"), "<!-- a ");
        assert_eq!(
            script("<!--<script>w('</script>')--></script>z"),
            "<!--<script>w('</script>')-->"
        );
        assert_eq!(
            script("<!--<script>--></script>q</script>"),
            "<!--<script>-->"
        );
        assert_eq!(script("<!-->x</script>"), "<!-->x");
        // No end tag: everything to the end.
        assert_eq!(script("a</script"), "a</script");
        assert_eq!(script("<!--<script></script>"), "<!--<script></script>");
    }

    #[test]
    fn rawtext_ends_at_its_own_end_tag() {
        let end = |t: &str| rawtext_end(t.as_bytes(), b"style");
        assert_eq!(end("a{}</style>"), 3);
        assert_eq!(end("a</styles></STYLE\n>"), 10);
        assert_eq!(end("a</style"), 8);
    }

    #[test]
    fn json_ld_by_its_type_in_any_case() {
        let attr = |name: &str, value: &str| Attribute {
            name: html5ever::QualName::new(None, html5ever::ns!(), name.into()),
            value: value.into(),
        };
        assert!(is_json_ld(&[attr("type", "Application/LD+JSON")]));
        assert!(!is_json_ld(&[attr("type", " application/ld+json")]));
        assert!(!is_json_ld(&[attr("data-type", "application/ld+json")]));
    }
}
