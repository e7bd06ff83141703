//! Stop words (004 §3.2: "a feature stands for a word or phrase after deletion of stop words"):
//! the generic list of each [`Language`], built once per process from the `stop-words` crate's
//! ISO lists, and [`AggressiveStopWords`], the collection-wide list of terms with a high
//! document frequency that a later pass computes. Words are matched lowercased and unstemmed.

use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashSet;

use super::language::Language;

/// The generic stop words of one language.
#[derive(Debug, Default)]
pub struct StopWords {
    set: FxHashSet<&'static str>,
}

impl StopWords {
    /// The ISO list for `lang` ([`Language::Other`] uses the English list).
    fn build(lang: Language) -> StopWords {
        let code = match lang {
            Language::Other => Language::English.code(),
            _ => lang.code(),
        };
        let words = stop_words::lookup(code).unwrap_or(&[]);
        StopWords {
            set: words.iter().copied().collect(),
        }
    }

    /// True if `word` (lowercase, unstemmed) is on the list.
    #[inline]
    pub fn contains(&self, word: &str) -> bool {
        self.set.contains(word)
    }

    /// Number of words on the list.
    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// True for an empty list.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// The words, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.set.iter().copied()
    }
}

/// The generic stop words of `lang`, built on first use.
pub fn stopwords(lang: Language) -> &'static StopWords {
    static LISTS: OnceLock<Vec<StopWords>> = OnceLock::new();
    let lists = LISTS.get_or_init(|| Language::ALL.iter().map(|&l| StopWords::build(l)).collect());
    &lists[lang.index()]
}

/// True if `word` (lowercase, unstemmed) is a generic stop word of `lang`.
#[cfg(test)]
pub(crate) fn is_stopword(word: &str, lang: Language) -> bool {
    stopwords(lang).contains(word)
}

/// The collection-wide ("aggressive") stop-word list: terms so frequent across a collection that
/// they do not tell its pages apart. It holds terms as the analyzer emits them (lowercase, and
/// stemmed where the language is) and is checked against both the word and its stem, so a
/// hand-written list of plain words works too. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct AggressiveStopWords {
    set: Arc<FxHashSet<Box<str>>>,
}

impl AggressiveStopWords {
    /// The list of `terms`, lowercased.
    pub fn new(terms: impl IntoIterator<Item = String>) -> AggressiveStopWords {
        let set = terms
            .into_iter()
            .map(|t| t.to_lowercase().into_boxed_str())
            .filter(|t| !t.is_empty())
            .collect();
        AggressiveStopWords { set: Arc::new(set) }
    }

    /// True if `term` is on the list.
    #[inline]
    pub fn contains(&self, term: &str) -> bool {
        !self.set.is_empty() && self.set.contains(term)
    }

    /// Number of terms on the list.
    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// True for an empty list.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_a_list() {
        for lang in Language::ALL {
            assert!(!stopwords(lang).is_empty(), "{lang:?}");
        }
    }

    #[test]
    fn generic_lists() {
        assert!(is_stopword("the", Language::English));
        assert!(is_stopword("and", Language::Other));
        assert!(!is_stopword("running", Language::English));
        assert!(is_stopword("der", Language::German));
        assert!(is_stopword("le", Language::French));
        assert!(is_stopword("的", Language::Chinese));
        assert!(is_stopword("是", Language::Chinese));
        assert!(!is_stopword("国家", Language::Chinese));
        assert!(is_stopword("и", Language::Russian));
    }

    #[test]
    fn aggressive_list_is_lowercased() {
        let list = AggressiveStopWords::new(["News".to_string(), String::new()]);
        assert_eq!(list.len(), 1);
        assert!(list.contains("news"));
        assert!(!list.contains("News"));
        assert!(!AggressiveStopWords::default().contains("news"));
    }
}
