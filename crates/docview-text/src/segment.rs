//! Segmentation, written once for every consumer: where text is cut before anything is counted,
//! weighed, fingerprinted or indexed. The character classes are [`crate::tokens::is_cjk`] and
//! [`crate::language`]'s `is_han`, `is_kana`, `is_hangul`; this module adds the cuts built on
//! them: runs of ideographs, jieba's dictionary words inside a run, the line breaks of
//! hard-wrapped CJK lines, and the longest term kept.
//!
//! Which tokens each consumer uses, and why:
//!
//! | consumer | tokens | why |
//! |---|---|---|
//! | scoring (`eval`), block term counts and densities (tag tree, features), F1 labels | [`mod@crate::tokens`]: `\w+` runs, each ideograph, kana or Hangul syllable on its own, lowercased by [`lower_token`](crate::tokens::lower_token) | the corpus README's rule: every count that is compared with a reference must be the scorer's |
//! | exact fingerprint, MinHash shingles, site-template lines, the replica benchmark's locator | [`crate::tokens::for_each_lower_token`] (the same spans, lowercased character by character, no allocation) | fast and language-free: copies are found whatever the language detector says |
//! | feature vectors (Formula 2), keywords, abstracts, the lexicon | [`crate::Analyzer`]: Unicode words (UAX #29), stemmed, stop words removed; ideograph runs cut by [`for_each_jieba_word`]; wrapped CJK lines joined by [`join_wrapped_lines`] | the paper's terms: words, not characters, so that cosine and keywords mean something |
//! | sentences of the abstract | [`crate::split_sentences`], with [`is_cjk_wrap`] so a wrapped CJK line does not end a sentence | |
//! | the Tantivy indexes and their queries | [`for_each_index_word`]: token spans with ideograph runs cut by jieba; the index tokenizer lowercases and stems them, and query text is spaced by the same jieba words | queries, snippets and the three indexes must cut text the same way, with positions for phrases |

use std::borrow::Cow;
use std::sync::OnceLock;

use jieba_rs::Jieba;

use crate::language::{is_han, is_kana};
use crate::tokens::for_each_token_span;

/// Longest term kept, in characters: longer "words" are URLs, hashes or base64, not features.
pub const MAX_TERM_CHARS: usize = 64;

/// jieba's HMM guesses words missing from the dictionary. Off: on costs about a third more
/// time, its guesses are as often wrong ("上北" "京去" for 上北京去) as right (names), and
/// dictionary words are the same on every page, which is what feature vectors compared across
/// pages need; an unknown word still yields its characters.
pub(crate) const JIEBA_HMM: bool = false;

/// The jieba segmenter with its default dictionary, loaded once per process on first use.
pub fn jieba() -> &'static Jieba {
    static JIEBA: OnceLock<Jieba> = OnceLock::new();
    JIEBA.get_or_init(Jieba::new)
}

/// True if `word` has more than [`MAX_TERM_CHARS`] characters: a URL, hash or base64 run, never
/// a term.
pub fn too_long(word: &str) -> bool {
    word.len() > MAX_TERM_CHARS && word.chars().nth(MAX_TERM_CHARS).is_some()
}

/// Calls `f` with the byte range of each maximal run of characters for which `member` holds.
pub fn for_each_run(text: &str, member: impl Fn(char) -> bool, mut f: impl FnMut(usize, usize)) {
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (member(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                f(s, i);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        f(s, text.len());
    }
}

/// Calls `f` with the byte range (within `text`) of each of jieba's dictionary words of
/// `text`, HMM off (`JIEBA_HMM`). Words jieba does not know come out a character at a time.
pub fn for_each_jieba_word(text: &str, mut f: impl FnMut(usize, usize)) {
    for word in jieba().cut(text, JIEBA_HMM) {
        f(word.byte_start, word.byte_end);
    }
}

/// Calls `f` with each index word of `text` as a byte range, in order: the token spans of
/// [`crate::tokens`], except that each run of adjacent ideographs is cut into jieba's words.
pub fn for_each_index_word(text: &str, mut f: impl FnMut(usize, usize)) {
    let mut run: Option<(usize, usize)> = None;
    let han_run = |start: usize, end: usize, f: &mut dyn FnMut(usize, usize)| {
        for_each_jieba_word(&text[start..end], |s, e| f(start + s, start + e));
    };
    for_each_token_span(text, |start, end| {
        let ideograph = text[start..end].chars().next().is_some_and(is_han);
        match run {
            Some((run_start, run_end)) if ideograph && run_end == start => {
                run = Some((run_start, end));
                return;
            }
            Some((run_start, run_end)) => han_run(run_start, run_end, &mut f),
            None => {}
        }
        run = None;
        if ideograph {
            run = Some((start, end));
        } else {
            f(start, end);
        }
    });
    if let Some((run_start, run_end)) = run {
        han_run(run_start, run_end, &mut f);
    }
}

/// True if the line break at byte `at` falls between two ideographs or kana (blanks around it
/// aside): a hard-wrapped CJK line, which browsers join (CSS Text 3, segment break
/// transformation), not a break between words or paragraphs.
pub(crate) fn is_cjk_wrap(text: &str, at: usize) -> bool {
    let wide = |c: Option<char>| c.is_some_and(|c| is_han(c) || is_kana(c));
    wide(text[..at].trim_end().chars().next_back()) && wide(text[at..].trim_start().chars().next())
}

/// `text` without the line breaks (and the blanks around them) of hard-wrapped CJK lines (see
/// [`is_cjk_wrap`]). Borrowed when there are none.
pub(crate) fn join_wrapped_lines(text: &str) -> Cow<'_, str> {
    let mut joined: Option<String> = None;
    let mut copied = 0;
    let mut from = 0;
    while let Some(off) = text[from..].find('\n') {
        let at = from + off;
        let blank_start = text[..at].trim_end().len();
        let blank_end = text.len() - text[at..].trim_start().len();
        if is_cjk_wrap(text, at) {
            let out = joined.get_or_insert_with(|| String::with_capacity(text.len()));
            out.push_str(&text[copied..blank_start]);
            copied = blank_end;
        }
        from = blank_end;
    }
    match joined {
        Some(mut out) => {
            out.push_str(&text[copied..]);
            Cow::Owned(out)
        }
        None => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        for_each_index_word(text, |s, e| out.push(&text[s..e]));
        out
    }

    #[test]
    fn index_words_cut_ideograph_runs_with_jieba() {
        assert_eq!(
            words("搜索引擎 rust_2 中文abc"),
            ["搜索引擎", "rust_2", "中文", "abc"]
        );
        // Kana and Hangul stay one token each; only ideograph runs go through jieba.
        assert_eq!(words("のテ한"), ["の", "テ", "한"]);
        assert!(words("").is_empty());
    }

    #[test]
    fn runs_are_maximal() {
        let mut runs = Vec::new();
        for_each_run("ab中文c字", is_han, |s, e| runs.push((s, e)));
        assert_eq!(runs, [(2, 8), (9, 12)]);
    }

    #[test]
    fn wrapped_cjk_lines_are_joined_and_nothing_else() {
        assert_eq!(join_wrapped_lines("中\n 文"), "中文");
        assert_eq!(join_wrapped_lines("中。\n文"), "中。\n文");
        assert_eq!(join_wrapped_lines("a\nb"), "a\nb");
        assert_eq!(join_wrapped_lines("中\n"), "中\n");
        assert_eq!(join_wrapped_lines("\n\n文\n"), "\n\n文\n");
        assert!(is_cjk_wrap("中 \n文", 4));
        assert!(!is_cjk_wrap("中\n\nb", 3));
    }

    #[test]
    fn too_long_counts_characters_not_bytes() {
        assert!(!too_long(&"中".repeat(MAX_TERM_CHARS)));
        assert!(too_long(&"a".repeat(MAX_TERM_CHARS + 1)));
    }
}
