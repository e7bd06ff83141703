//! The query sets of part 2: a user's query log, a labelled set's reference titles, or queries
//! drawn from the collection's own vocabulary by document frequency (as the paper drew its 50
//! queries from its engine's log: popular words are asked more often).

use std::path::Path;

use rand::RngExt;
use rand::SeedableRng;
use rand::distr::Distribution;
use rand::distr::weighted::WeightedIndex;
use rand_chacha::ChaCha8Rng;

use crate::eval::LabelledPage;
use crate::index::{OpenIndex, check_query};
use crate::text::{Language, stopwords};
use crate::{Error, Result};

/// Queries and where they came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuerySet {
    /// `file PATH`, `titles of SET`, `vocabulary (N queries, seed S)`.
    pub source: String,
    /// The queries.
    pub queries: Vec<String>,
}

/// One query a line; blank lines and lines starting with `#` are left out. A line that is not
/// UTF-8 text, or a query that [`check_query`] refuses (nested too deep, too long, nothing to
/// search for), is an error naming the file and the line.
pub fn queries_from_file(path: &Path) -> Result<QuerySet> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let mut queries = Vec::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = std::str::from_utf8(line).map_err(|e| Error::QueryNotText {
            path: path.to_path_buf(),
            line: i + 1,
            byte: e.valid_up_to() + 1,
        })?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        check_query(line).map_err(|source| Error::Query {
            path: path.to_path_buf(),
            line: i + 1,
            source,
        })?;
        queries.push(line.to_string());
    }
    if queries.is_empty() {
        return Err(Error::bad_input(
            path.display().to_string(),
            "no queries: one query a line expected",
        ));
    }
    Ok(QuerySet {
        source: format!("file {}", path.display()),
        queries,
    })
}

/// The reference titles of a labelled set, as users would type them.
pub fn labelled_titles(pages: &[LabelledPage]) -> QuerySet {
    QuerySet {
        source: "titles of the labelled set".to_string(),
        queries: pages
            .iter()
            .map(|p| p.title.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect(),
    }
}

/// A term worth asking for: letters only, three or more, not an English stop word.
fn is_query_word(term: &str) -> bool {
    term.chars().count() >= 3
        && term.chars().all(char::is_alphabetic)
        && !stopwords(Language::English).contains(term)
}

/// `n` queries of one to three words of `index`'s vocabulary, each word drawn with a
/// probability proportional to its document frequency (words of one page left out), from a
/// fixed seed.
pub fn vocabulary_queries(index: &OpenIndex, n: usize, seed: u64) -> Result<QuerySet> {
    let words: Vec<(String, u64)> = index
        .body_vocabulary()?
        .into_iter()
        .filter(|(t, df)| *df >= 2 && is_query_word(t))
        .collect();
    let mut queries = Vec::with_capacity(n);
    if let Ok(pick) = WeightedIndex::new(words.iter().map(|w| w.1)) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..n {
            let len = rng.random_range(1..=3usize).min(words.len());
            let mut query: Vec<&str> = Vec::with_capacity(len);
            while query.len() < len {
                let word = words[pick.sample(&mut rng)].0.as_str();
                if !query.contains(&word) {
                    query.push(word);
                }
            }
            queries.push(query.join(" "));
        }
    }
    Ok(QuerySet {
        source: format!("vocabulary ({n} queries by document frequency, seed {seed})"),
        queries,
    })
}
