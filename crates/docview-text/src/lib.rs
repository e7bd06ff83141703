//! Text analysis (004 §3.2): tokens as the scoring rule counts them, and the terms of feature
//! vectors: jieba-rs for Chinese, Unicode words and rust-stemmers for the other languages, a
//! stop-word list per language, a place for the collection-wide aggressive stop-word list, and
//! the date and duration words that are never keywords. Segmentation (ideograph runs, jieba's
//! words, wrapped CJK lines) is written once, in `segment.rs`, whose table says which tokens
//! each consumer uses and why: the scorer's tokens ([`tokens`], [`count_tokens`]), analysed
//! terms ([`Analyzer`]) and index words ([`for_each_index_word`]).

#![deny(missing_docs)]

mod analyzer;
mod cache;
mod dates;
mod language;
mod segment;
mod sentence;
mod stopwords;
mod tokens;

pub use analyzer::{Analyzer, count_term, normalize, stemmer};
pub use cache::WordCache;
pub use dates::{date_words, is_duration, is_month};
pub use language::{Language, detect_language, is_han, language_from_tag};
pub use segment::{
    MAX_TERM_CHARS, for_each_index_word, for_each_jieba_word, for_each_run, jieba, too_long,
};
pub use stopwords::{AggressiveStopWords, StopWords, stopwords};
pub use tokens::{
    count_tokens, for_each_lower_token, for_each_token_span, is_cjk, lower_token, tokens,
};

/// A small xorshift generator for the randomized tests, so they need no extra crate: advances
/// `state` and returns it.
#[cfg(test)]
pub(crate) fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}
