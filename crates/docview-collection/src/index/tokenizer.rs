//! The `docview` tantivy tokenizer: the words of docview's own text analysis as index terms, so
//! the three indexes, the queries against them and the snippets all cut text the same way.
//!
//! - Words are the text layer's index words ([`crate::text::for_each_index_word`]):
//!   runs of CJK ideographs segmented with jieba (the analyzer's dictionary, HMM off), every
//!   other token as [`crate::text::tokens`] cuts it (`\w+` runs, and each kana or Hangul
//!   syllable on its own).
//! - Tokens are lowercased and full-width ASCII is folded, as the analyzer normalizes words.
//! - Latin-script words are stemmed with the English Snowball stemmer. The tokenizer sees one
//!   field value, not the document's language (tantivy gives it none, and queries have none),
//!   so one stemmer has to serve every document: English, the most common language of the
//!   collections docview reads; words of other Latin-script languages get English suffix
//!   stripping, which merges fewer of their forms but never splits one word into two terms.
//!   Words in other scripts (Cyrillic, Greek, Arabic...) are kept unstemmed.
//! - Stop words are kept: phrase queries need them and term counts stay honest.
//! - Words longer than the analyzer's longest term (64 characters: URLs, hashes, base64) are
//!   dropped without taking a position.
//!
//! Offsets are byte offsets into the original text (snippets highlight with them) and positions
//! increase by one per token.
//!
//! A word's term depends on the word alone, so each thread keeps the terms of the words it saw
//! lately ([`index_term`]): the three indexes hold the same words (a page's title three times,
//! its topic content inside its full text), and one lookup replaces the lowercasing and a
//! Snowball run. Token texts are written into the buffers of the tokens of the text before, so
//! a text allocates only for tokens beyond the longest text this tokenizer has cut.
//!
//! The page's tokens are made here, on tantivy's indexing threads, rather than handed over
//! as tantivy's `PreTokenizedString`: tantivy 0.27 keeps a document's pre-tokenized value
//! as JSON inside its `TantivyDocument` and clones the token list when it indexes and stores
//! it, which costs more per token than the cached term.

use std::cell::RefCell;

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

use crate::text::WordCache;
use crate::text::{Language, for_each_index_word, normalize, stemmer, too_long};

/// The name the tokenizer is registered under on every docview index.
pub const TOKENIZER_NAME: &str = "docview";

/// The `docview` tokenizer (see the module documentation). Cheap to clone; keeps its tokens
/// (and their text buffers) between texts.
#[derive(Debug, Clone, Default)]
pub struct DocviewTokenizer {
    /// The tokens of the last text first, then spare tokens whose buffers the next text reuses.
    tokens: Vec<Token>,
}

impl Tokenizer for DocviewTokenizer {
    type TokenStream<'a> = DocviewTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> DocviewTokenStream<'a> {
        let mut sink = TokenSink {
            text,
            tokens: &mut self.tokens,
            len: 0,
        };
        sink.tokenize();
        let len = sink.len;
        DocviewTokenStream {
            tokens: &mut self.tokens[..len],
            next: 0,
            empty: Token::default(),
        }
    }
}

/// The tokens of one text, already cut.
#[derive(Debug)]
pub struct DocviewTokenStream<'a> {
    tokens: &'a mut [Token],
    /// Index of the token after the current one.
    next: usize,
    /// What `token()` shows before the first token of an empty stream (tantivy never asks).
    empty: Token,
}

impl TokenStream for DocviewTokenStream<'_> {
    fn advance(&mut self) -> bool {
        if self.next < self.tokens.len() {
            self.next += 1;
            true
        } else {
            false
        }
    }

    fn token(&self) -> &Token {
        self.tokens.get(self.current()).unwrap_or(&self.empty)
    }

    fn token_mut(&mut self) -> &mut Token {
        let i = self.current();
        self.tokens.get_mut(i).unwrap_or(&mut self.empty)
    }
}

impl DocviewTokenStream<'_> {
    /// The current token's index (the first one before `advance()` was called).
    fn current(&self) -> usize {
        self.next.saturating_sub(1)
    }
}

/// Cuts one text into tokens.
struct TokenSink<'a, 'b> {
    text: &'a str,
    /// The tokens: the first `len` are this text's, the rest spare.
    tokens: &'b mut Vec<Token>,
    len: usize,
}

impl TokenSink<'_, '_> {
    /// Cuts the text into the text layer's index words and pushes each.
    fn tokenize(&mut self) {
        let text = self.text;
        for_each_index_word(text, |start, end| self.word(start, end));
    }

    /// One word: its index term, pushed with the next position (a spare token's buffer reused).
    fn word(&mut self, start: usize, end: usize) {
        let word = &self.text[start..end];
        if too_long(word) {
            return;
        }
        let position = self.len;
        if position == self.tokens.len() {
            self.tokens.push(Token::default());
        }
        let token = &mut self.tokens[position];
        index_term(word, &mut token.text);
        token.offset_from = start;
        token.offset_to = end;
        token.position = position;
        token.position_length = 1;
        self.len += 1;
    }
}

thread_local! {
    /// The index term of each word (as the text has it) this thread cut lately.
    static TERM_CACHE: RefCell<WordCache<Box<str>>> = RefCell::new(WordCache::default());
}

/// Puts the index term of `word` (an index word, at most [`crate::text::MAX_TERM_CHARS`]
/// characters) in `out`: lowercased, full-width folded, and stemmed with the English stemmer
/// if it is Latin-script. Looked up in the thread's cache first; allocates only for a word the
/// thread has not seen lately (or when `out` is too small).
pub fn index_term(word: &str, out: &mut String) {
    out.clear();
    let compute = |w: &str| {
        let mut term = String::new();
        analyze_index_word(w, &mut term);
        term.into_boxed_str()
    };
    let cached = TERM_CACHE.try_with(|cell| {
        let mut cache = cell.try_borrow_mut().ok()?;
        cache.read(word, compute, |term| out.push_str(term));
        Some(())
    });
    if !matches!(cached, Ok(Some(()))) {
        out.push_str(&compute(word));
    }
}

/// The index term of `word`, computed (see [`index_term`]), appended to `out`.
fn analyze_index_word(word: &str, out: &mut String) {
    let mut buf = String::new();
    let word = normalize(word, &mut buf);
    match stemmer(Language::English).filter(|_| is_latin_word(word)) {
        Some(stemmer) => out.push_str(&stemmer.stem(word)),
        None => out.push_str(word),
    }
}

/// True if every character of `word` is a Latin letter, a digit, `_` or a combining mark.
fn is_latin_word(word: &str) -> bool {
    word.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c.is_numeric() || is_latin_letter(c))
}

/// A letter of the Latin blocks beyond ASCII (× and ÷ sit in Latin-1 but are not letters), or
/// a combining diacritic.
fn is_latin_letter(c: char) -> bool {
    matches!(c as u32,
        0x00C0..=0x00D6 | 0x00D8..=0x00F6 | 0x00F8..=0x024F  // Latin-1, Extended-A and -B
        | 0x0300..=0x036F    // combining diacritical marks
        | 0x1E00..=0x1EFF    // Latin Extended Additional
        | 0x2C60..=0x2C7F    // Latin Extended-C
        | 0xA720..=0xA7FF    // Latin Extended-D
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (text, from, to, position) of each token of `text`.
    fn tokens(text: &str) -> Vec<(String, usize, usize, usize)> {
        let mut tokenizer = DocviewTokenizer::default();
        let mut stream = tokenizer.token_stream(text);
        let mut out = Vec::new();
        while let Some(t) = stream.next() {
            out.push((t.text.clone(), t.offset_from, t.offset_to, t.position));
        }
        out
    }

    fn texts(text: &str) -> Vec<String> {
        tokens(text).into_iter().map(|t| t.0).collect()
    }

    #[test]
    fn english_words_are_stemmed() {
        assert_eq!(texts("running rivers"), vec!["run", "river"]);
        assert_eq!(
            texts("The Search ENGINES, of 2004!"),
            vec!["the", "search", "engin", "of", "2004"]
        );
    }

    #[test]
    fn chinese_is_segmented_with_byte_offsets() {
        let text = "我们使用搜索引擎";
        let got = tokens(text);
        let words: Vec<&str> = got.iter().map(|t| t.0.as_str()).collect();
        assert!(words.contains(&"搜索引擎"), "{words:?}");
        for (word, from, to, _) in &got {
            assert_eq!(&text[*from..*to], word);
        }
        assert_eq!(got.first().map(|t| t.1), Some(0));
        assert_eq!(got.last().map(|t| t.2), Some(text.len()));
    }

    #[test]
    fn mixed_text_keeps_every_word() {
        let text = "Rust和Python开发搜索引擎, Ｒｕｓｔ Привет мир";
        let got = tokens(text);
        let words: Vec<&str> = got.iter().map(|t| t.0.as_str()).collect();
        for kept in ["rust", "和", "python", "开发", "搜索引擎", "привет", "мир"] {
            assert!(words.contains(&kept), "{kept} not in {words:?}");
        }
        assert_eq!(words.iter().filter(|w| **w == "rust").count(), 2);
        let python = got.iter().find(|t| t.0 == "python").map(|t| (t.1, t.2));
        let at = text.find("Python").unwrap_or_default();
        assert_eq!(python, Some((at, at + "Python".len())));
        let fullwidth = got.iter().filter(|t| t.0 == "rust").nth(1).map(|t| t.1);
        assert_eq!(fullwidth, text.find('Ｒ'));
    }

    #[test]
    fn kana_and_hangul_are_one_token_per_character() {
        assert_eq!(texts("カナ 한국"), vec!["カ", "ナ", "한", "국"]);
    }

    #[test]
    fn empty_and_blank_text_give_no_tokens() {
        assert!(tokens("").is_empty());
        assert!(tokens("  ,.;  \n\t—").is_empty());
        let mut tokenizer = DocviewTokenizer::default();
        let mut stream = tokenizer.token_stream("");
        assert!(!stream.advance());
        assert!(!stream.advance());
        assert!(stream.token().text.is_empty());
    }

    #[test]
    fn positions_increase_by_one() {
        let got = tokens("the rivers 流入大海 and the sea");
        assert!(got.len() > 5, "{got:?}");
        for (i, t) in got.iter().enumerate() {
            assert_eq!(t.3, i, "{got:?}");
        }
    }

    #[test]
    fn overlong_words_are_dropped() {
        let long = "x".repeat(65);
        assert_eq!(texts(&format!("a {long} b")), vec!["a", "b"]);
        assert_eq!(tokens(&format!("a {long} b"))[1].3, 1);
    }

    #[test]
    fn latin_script_test() {
        assert!(is_latin_word("café"));
        assert!(is_latin_word("word_2"));
        assert!(!is_latin_word("мир"));
        assert!(!is_latin_word("a×b"));
    }

    /// The tokens of `text` as the tokenizer cut them before it cached terms and reused
    /// buffers: each index word normalized and stemmed afresh.
    fn uncached_tokens(text: &str) -> Vec<(String, usize, usize, usize)> {
        let mut out = Vec::new();
        for_each_index_word(text, |start, end| {
            let word = &text[start..end];
            if too_long(word) {
                return;
            }
            let mut buf = String::new();
            let word = normalize(word, &mut buf);
            let term = match stemmer(Language::English).filter(|_| is_latin_word(word)) {
                Some(stemmer) => stemmer.stem(word).into_owned(),
                None => word.to_owned(),
            };
            out.push((term, start, end, out.len()));
        });
        out
    }

    /// The visible text of a page of `corpus-samples/sites`.
    fn sample_text(page: &str) -> String {
        let path = format!(
            "{}/../../corpus-samples/sites/{page}",
            env!("CARGO_MANIFEST_DIR")
        );
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        crate::page::build(&String::from_utf8_lossy(&bytes)).all_text()
    }

    #[test]
    fn cached_terms_and_reused_buffers_give_the_uncached_tokens() {
        let pages = [
            "fieldnotes/tide-pools.html",
            "harbor-gazette/storm.html",
            "lanting-news/tea-harvest.html",
            "xinyu-daily/night-market.html",
        ];
        let mut texts: Vec<String> = pages.iter().map(|p| sample_text(p)).collect();
        texts.push("Rust和Python开发搜索引擎, Ｒｕｓｔ Привет мир カナ 한국 U.S.A café".into());
        assert!(texts.iter().any(|t| t.chars().any(crate::text::is_han)));
        let mut tokenizer = DocviewTokenizer::default();
        // Twice over, longest text first then shorter ones: the second round is all cache
        // hits, and every text after the first writes into the buffers of longer ones.
        texts.sort_by_key(|t| std::cmp::Reverse(t.len()));
        for _ in 0..2 {
            for text in &texts {
                let expected = uncached_tokens(text);
                assert!(expected.len() > 10, "{text}");
                let mut stream = tokenizer.token_stream(text);
                let mut got = Vec::new();
                while let Some(t) = stream.next() {
                    assert_eq!(t.position_length, 1);
                    got.push((t.text.clone(), t.offset_from, t.offset_to, t.position));
                }
                assert_eq!(got, expected, "{text}");
            }
        }
    }

    #[test]
    fn index_term_fills_the_buffer_it_is_given() {
        let mut out = String::from("left over");
        for _ in 0..2 {
            index_term("Running", &mut out);
            assert_eq!(out, "run");
            index_term("搜索引擎", &mut out);
            assert_eq!(out, "搜索引擎");
            index_term("Ｒｕｓｔ", &mut out);
            assert_eq!(out, "rust");
            index_term("Кошки", &mut out);
            assert_eq!(out, "кошки");
        }
    }

    #[test]
    fn stream_reuse_starts_fresh() {
        let mut tokenizer = DocviewTokenizer::default();
        let n = {
            let mut stream = tokenizer.token_stream("one two three");
            let mut n = 0;
            while stream.advance() {
                n += 1;
            }
            n
        };
        assert_eq!(n, 3);
        let mut stream = tokenizer.token_stream("four");
        assert_eq!(stream.next().map(|t| t.text.clone()), Some("four".into()));
        assert!(stream.next().is_none());
    }
}
