//! Text analysis (004 §3.2): tokens as the scoring rule counts them, and the terms of feature
//! vectors: jieba-rs for Chinese, Unicode words and rust-stemmers for the other languages, a
//! stop-word list per language, a place for the collection-wide aggressive stop-word list, and
//! the date and duration words that are never keywords. Segmentation (ideograph runs, jieba's
//! words, wrapped CJK lines) is written once, in [`segment`], whose table says which tokens
//! each consumer uses and why.

#![deny(missing_docs)]

pub mod analyzer;
pub mod cache;
pub mod dates;
pub mod language;
pub mod segment;
pub mod sentence;
pub mod stopwords;
pub mod tokens;

pub use analyzer::Analyzer;
pub use cache::{WORD_CACHE_CAP, WordCache};
pub use language::{Language, detect_language, is_han, language_from_tag};
pub use segment::{for_each_index_word, jieba};
pub use sentence::split_sentences;
pub use stopwords::{AggressiveStopWords, StopWords, is_stopword, stopwords};
pub use tokens::{count_tokens, is_cjk, lower_token, tokens};

/// A small xorshift generator for the randomized tests, so they need no extra crate: advances
/// `state` and returns it.
#[cfg(test)]
pub(crate) fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}
