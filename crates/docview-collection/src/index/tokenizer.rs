//! The `docview` tantivy tokenizer: the words of docview's own text analysis as index terms, so
//! the three indexes, the queries against them and the snippets all cut text the same way.
//!
//! - Words are the text layer's index words ([`crate::text::segment::for_each_index_word`]):
//!   runs of CJK ideographs segmented with jieba (the analyzer's dictionary, HMM off), every
//!   other token as [`mod@crate::text::tokens`] cuts it (`\w+` runs, and each kana or Hangul
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

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

use crate::text::analyzer::{normalize, stemmer};
use crate::text::language::Language;
use crate::text::segment::{for_each_index_word, too_long};

/// The name the tokenizer is registered under on every docview index.
pub const TOKENIZER_NAME: &str = "docview";

/// The `docview` tokenizer (see the module documentation). Cheap to clone; keeps a token
/// buffer between texts.
#[derive(Debug, Clone, Default)]
pub struct DocviewTokenizer {
    tokens: Vec<Token>,
}

impl Tokenizer for DocviewTokenizer {
    type TokenStream<'a> = DocviewTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> DocviewTokenStream<'a> {
        self.tokens.clear();
        let mut sink = TokenSink {
            text,
            tokens: &mut self.tokens,
            buf: String::new(),
        };
        sink.tokenize();
        DocviewTokenStream {
            tokens: &mut self.tokens,
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
    tokens: &'b mut Vec<Token>,
    /// Scratch for normalizing a word.
    buf: String,
}

impl TokenSink<'_, '_> {
    /// Cuts the text into the text layer's index words and pushes each.
    fn tokenize(&mut self) {
        let text = self.text;
        for_each_index_word(text, |start, end| self.word(start, end));
    }

    /// One word: normalized, stemmed if Latin-script, pushed with the next position.
    fn word(&mut self, start: usize, end: usize) {
        let word = &self.text[start..end];
        if too_long(word) {
            return;
        }
        let word = normalize(word, &mut self.buf);
        let english = stemmer(Language::English).filter(|_| is_latin_word(word));
        let text = match english {
            Some(stemmer) => stemmer.stem(word).into_owned(),
            None => word.to_owned(),
        };
        self.tokens.push(Token {
            offset_from: start,
            offset_to: end,
            position: self.tokens.len(),
            text,
            position_length: 1,
        });
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
