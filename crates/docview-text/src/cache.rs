//! What a thread knows of the words it saw lately: [`WordCache`], a bounded map from a word to
//! what was computed from it (the analyzer's term, the index tokenizer's term). Words follow
//! Zipf's law, so a few thousand words cover most tokens of a collection, and one lookup
//! replaces lowercasing, stop-list lookups and a Snowball run. Both term caches are this one
//! type, each in a `thread_local!` of its user, so no lock is taken.

use rustc_hash::FxHashMap;

/// Words a cache holds before it starts over.
pub(crate) const WORD_CACHE_CAP: usize = 32_768;

/// A map from words to values computed from them, emptied when it holds 32,768 words
/// (`WORD_CACHE_CAP`).
#[derive(Debug)]
pub struct WordCache<V> {
    map: FxHashMap<Box<str>, V>,
}

impl<V> Default for WordCache<V> {
    fn default() -> Self {
        WordCache {
            map: FxHashMap::default(),
        }
    }
}

impl<V> WordCache<V> {
    /// Calls `read` with the value of `word`: the cached one, else `compute(word)`, which is
    /// then cached. Allocates only for a word it does not hold.
    pub fn read<R>(
        &mut self,
        word: &str,
        compute: impl FnOnce(&str) -> V,
        read: impl FnOnce(&V) -> R,
    ) -> R {
        if let Some(value) = self.map.get(word) {
            return read(value);
        }
        let value = compute(word);
        let result = read(&value);
        if self.map.len() >= WORD_CACHE_CAP {
            self.map.clear();
        }
        self.map.insert(word.into(), value);
        result
    }

    /// Words held.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when it holds no word.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computes_each_word_once_and_starts_over_when_full() {
        let mut cache = WordCache::default();
        let mut computed = 0;
        for word in ["rivers", "rose", "rivers", "rivers"] {
            let len = cache.read(
                word,
                |w| {
                    computed += 1;
                    w.len()
                },
                |&n| n,
            );
            assert_eq!(len, word.len());
        }
        assert_eq!((computed, cache.len()), (2, 2));
        let mut cache = WordCache::default();
        for i in 0..WORD_CACHE_CAP {
            cache.read(&format!("w{i}"), |w| w.len(), |_| ());
        }
        // Full at the cap: the next new word empties it first.
        assert_eq!(cache.len(), WORD_CACHE_CAP);
        cache.read("another", |w| w.len(), |_| ());
        assert_eq!(cache.len(), 1);
    }
}
