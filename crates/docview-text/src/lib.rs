//! Text analysis (004 §3.2): tokens as the scoring rule counts them, and the terms of feature
//! vectors: jieba-rs for Chinese, Unicode words and rust-stemmers for the other languages, a
//! stop-word list per language, a place for the collection-wide aggressive stop-word list, and
//! the date and duration words that are never keywords.

#![deny(missing_docs)]

pub mod analyzer;
pub mod dates;
pub mod language;
pub mod sentence;
pub mod stopwords;
pub mod tokens;

pub use analyzer::Analyzer;
pub use language::{Language, detect_language, is_han, language_from_tag};
pub use sentence::split_sentences;
pub use stopwords::{AggressiveStopWords, StopWords, is_stopword, stopwords};
pub use tokens::{count_tokens, is_cjk, tokens};
