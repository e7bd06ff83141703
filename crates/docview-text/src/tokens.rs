//! Tokens as the corpus scoring rule counts them: `\w+` runs, lowercased, each CJK ideograph
//! (and kana) one token. The tag tree counts terms with the same rule, so block term counts,
//! densities and the evaluation all agree on what a "term" is. This is the hot path: no
//! allocation unless the caller asks for the token text.

use std::borrow::Cow;

/// True for a CJK ideograph, kana or Hangul syllable: each is one token on its own.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // hiragana, katakana
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0x20000..=0x2FA1F  // CJK extensions B-F, compatibility supplement
        | 0x31F0..=0x31FF    // katakana phonetic extensions
        | 0xFF66..=0xFF9D    // half-width katakana
        | 0xAC00..=0xD7AF    // Hangul syllables
    )
}

/// True for a character that `\w` matches (letters, digits, marks, underscore), CJK excluded.
#[inline]
pub(crate) fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric() || c == '_'
    } else {
        c.is_alphanumeric() || is_mark(c)
    }
}

/// Combining marks that Python's `\w` keeps inside a word (accents written apart, Indic vowel signs).
fn is_mark(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x0900..=0x0DFF | 0x1AB0..=0x1AFF | 0x20D0..=0x20FF)
}

/// Calls `f` with each token of `text` as a byte range, in order. ASCII bytes are classified
/// as bytes; only the other characters are decoded and checked for CJK.
#[inline]
pub fn for_each_token_span(text: &str, mut f: impl FnMut(usize, usize)) {
    let bytes = text.as_bytes();
    let mut start: Option<usize> = None;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b.is_ascii() {
            if b.is_ascii_alphanumeric() || b == b'_' {
                start.get_or_insert(i);
            } else if let Some(s) = start.take() {
                f(s, i);
            }
            i += 1;
            continue;
        }
        // `i` is at a character's first byte: the loop steps over whole characters.
        let Some(c) = text.get(i..).and_then(|t| t.chars().next()) else {
            break;
        };
        let next = i + c.len_utf8();
        if is_cjk(c) {
            if let Some(s) = start.take() {
                f(s, i);
            }
            f(i, next);
        } else if is_word_char(c) {
            start.get_or_insert(i);
        } else if let Some(s) = start.take() {
            f(s, i);
        }
        i = next;
    }
    if let Some(s) = start {
        f(s, text.len());
    }
}

/// Number of tokens in `text`.
#[inline]
pub fn count_tokens(text: &str) -> usize {
    if text.is_ascii() {
        return count_ascii_tokens(text.as_bytes());
    }
    let mut n = 0;
    for_each_token_span(text, |_, _| n += 1);
    n
}

fn count_ascii_tokens(bytes: &[u8]) -> usize {
    let mut n = 0;
    let mut in_word = false;
    for &b in bytes {
        let w = b.is_ascii_alphanumeric() || b == b'_';
        if w && !in_word {
            n += 1;
        }
        in_word = w;
    }
    n
}

/// Calls `f` with each token of `text`, lowercased character by character; a token already in
/// lowercase is passed as it is, without a copy. The one lowering of the fingerprints, shingles
/// and the replica benchmark's locator.
pub fn for_each_lower_token(text: &str, mut f: impl FnMut(&str)) {
    let mut lower = String::new();
    for_each_token_span(text, |s, e| {
        let token = &text[s..e];
        if token.is_ascii() {
            if !token.bytes().any(|b| b.is_ascii_uppercase()) {
                return f(token);
            }
            lower.clear();
            lower.push_str(token);
            lower.make_ascii_lowercase();
        } else {
            lower.clear();
            lower.extend(token.chars().flat_map(char::to_lowercase));
        }
        f(&lower);
    });
}

/// A token lowercased as the scoring rule does (`str::to_lowercase`, so a final sigma becomes
/// ς), without a copy when it already is lowercase.
pub fn lower_token(token: &str) -> Cow<'_, str> {
    if token.is_ascii() {
        if token.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(token.to_ascii_lowercase())
        } else {
            Cow::Borrowed(token)
        }
    } else {
        Cow::Owned(token.to_lowercase())
    }
}

/// The tokens of `text`, lowercased by [`lower_token`], in order.
pub fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_token_span(text, |s, e| out.push(lower_token(&text[s..e]).into_owned()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xorshift;

    /// [`for_each_token_span`] character by character, as it was first written: what the
    /// byte-wise ASCII path must agree with.
    fn spans_by_chars(text: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut start: Option<usize> = None;
        for (i, c) in text.char_indices() {
            if is_cjk(c) {
                if let Some(s) = start.take() {
                    out.push((s, i));
                }
                out.push((i, i + c.len_utf8()));
            } else if is_word_char(c) {
                start.get_or_insert(i);
            } else if let Some(s) = start.take() {
                out.push((s, i));
            }
        }
        if let Some(s) = start {
            out.push((s, text.len()));
        }
        out
    }

    #[test]
    fn byte_wise_spans_match_the_character_walk() {
        const PIECES: &[&str] = &[
            "a", "Z", "9", "_", " ", "-", ".", "\n", "é", "ß", "\u{301}", "中", "文", "カ", "한",
            "𠀀", "—", "\u{a0}", "Ж", "٣", "\u{200b}", "x_1", "!!",
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..5_000 {
            let len = state % 16;
            let mut text = String::new();
            for _ in 0..len {
                text.push_str(PIECES[(xorshift(&mut state) % PIECES.len() as u64) as usize]);
            }
            xorshift(&mut state);
            let mut got = Vec::new();
            for_each_token_span(&text, |s, e| got.push((s, e)));
            assert_eq!(got, spans_by_chars(&text), "{text:?}");
        }
    }

    #[test]
    fn lower_tokens_are_lowercased_once_and_in_order() {
        let mut seen = Vec::new();
        for_each_lower_token("River RIVER river Ärger 中文", |t| {
            seen.push(t.to_string())
        });
        assert_eq!(seen, ["river", "river", "river", "ärger", "中", "文"]);
    }

    #[test]
    fn words_and_ideographs() {
        assert_eq!(
            tokens("Hello, World_2! 中文abc"),
            vec!["hello", "world_2", "中", "文", "abc"]
        );
        assert_eq!(count_tokens("Hello, World_2! 中文abc"), 5);
    }

    #[test]
    fn ascii_fast_path_agrees() {
        let s = "it's a  test -- of 3 words_and more.";
        let mut n = 0;
        for_each_token_span(s, |_, _| n += 1);
        assert_eq!(count_tokens(s), n);
        assert_eq!(n, 8);
    }

    #[test]
    fn accents_stay_in_the_word() {
        assert_eq!(tokens("café naïve"), vec!["café", "naïve"]);
        assert_eq!(count_tokens(""), 0);
        assert_eq!(count_tokens("  ,.; "), 0);
    }
}
