//! Checking a query before tantivy's parser sees it. tantivy's query parser, its query tree and
//! its search recurse once per level of nesting, so a query of thousands of `(` overflows the
//! stack and aborts the process; [`check_query`] refuses such a query, an over-long one, and one
//! with nothing to search for, with a [`QueryError`] naming the query and what is wrong. Every
//! query docview parses ([`super::OpenIndex::query`], [`super::OpenIndex::body_query`]) passes
//! through it, and `docview compare` checks each line of a query file with it. Once parsed, a
//! query of only exclusions is refused too ([`Nothing::OnlyExclusions`]): tantivy's parser
//! turns it into every page without the excluded words, each with the same score.

use std::fmt;

/// Most `(` and `NOT` in one query. Each may open a level of nesting in tantivy's parser, its
/// query tree and its search (a few kilobytes of stack each: 3,000 levels overflow the main
/// thread's 8 MiB). Counting them all, not only the ones still open, bounds the nesting
/// whatever the quotes and escapes around them, and leaves room on a worker thread's 2 MiB.
pub const MAX_QUERY_NESTING: usize = 64;

/// Longest query, in bytes.
pub const MAX_QUERY_BYTES: usize = 4096;

/// Characters of a query shown in an error.
const SHOWN_CHARS: usize = 40;

/// What is wrong with a query.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    /// More `(` and `NOT` than [`MAX_QUERY_NESTING`].
    #[error("query {query}: nested too deep: {nesting} `(` and `NOT`, at most {MAX_QUERY_NESTING}")]
    TooDeep {
        /// The query as shown: its first characters, quoted.
        query: ShownQuery,
        /// Its `(` and `NOT`.
        nesting: usize,
    },
    /// Longer than [`MAX_QUERY_BYTES`].
    #[error("query {query}: {bytes} bytes, at most {MAX_QUERY_BYTES}")]
    TooLong {
        /// The query as shown: its first characters, quoted.
        query: ShownQuery,
        /// Its length in bytes.
        bytes: usize,
    },
    /// Nothing to search for.
    #[error("query {query}: nothing to search for ({why})")]
    NothingToSearch {
        /// The query as shown: its first characters, quoted.
        query: ShownQuery,
        /// Why.
        why: Nothing,
    },
}

/// Why a query has nothing to search for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Nothing {
    /// Empty, or only white space.
    Empty,
    /// Only `*`, which matches every page.
    OnlyAll,
    /// A field (`title:`) with no term after it.
    FieldWithoutTerm(String),
    /// No word left once tokenized: only punctuation, operators or quotes.
    NoWord,
    /// Only words to exclude (`-word`, `NOT word`, `-(a b)`): tantivy's parser says so
    /// (`AllButQueryForbidden`) and would match every page without them.
    OnlyExclusions,
}

impl fmt::Display for Nothing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Nothing::Empty => f.write_str("empty"),
            Nothing::OnlyAll => f.write_str("`*` alone matches every page; give a word"),
            Nothing::FieldWithoutTerm(field) => write!(f, "field `{field}:` has no term after it"),
            Nothing::NoWord => {
                f.write_str("no word once tokenized, only punctuation, operators or quotes")
            }
            Nothing::OnlyExclusions => f.write_str(
                "only words to exclude (`-word`, `NOT word`), which would match every page \
                 without them; give a word to search for beside them",
            ),
        }
    }
}

/// A query as an error shows it: its first characters, quoted, and its length when cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownQuery(String);

impl ShownQuery {
    /// `query` shown.
    pub fn new(query: &str) -> ShownQuery {
        let chars = query.chars().count();
        if chars <= SHOWN_CHARS {
            return ShownQuery(format!("{query:?}"));
        }
        let head: String = query.chars().take(SHOWN_CHARS).collect();
        ShownQuery(format!("{:?} ({chars} characters)", format!("{head}…")))
    }
}

impl fmt::Display for ShownQuery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl QueryError {
    /// `query` has nothing to search for, for reason `why`.
    pub fn nothing(query: &str, why: Nothing) -> QueryError {
        QueryError::NothingToSearch {
            query: ShownQuery::new(query),
            why,
        }
    }
}

/// Checks `query` before tantivy's parser sees it: at most [`MAX_QUERY_NESTING`] `(` and `NOT`,
/// at most [`MAX_QUERY_BYTES`] bytes, and something to search for (not empty, not only `*`, no
/// field left without a term). A query that passes may still hold no word the index knows
/// (only punctuation): parsing says so ([`Nothing::NoWord`]).
pub fn check_query(query: &str) -> Result<(), QueryError> {
    let nesting = nesting(query);
    if nesting > MAX_QUERY_NESTING {
        return Err(QueryError::TooDeep {
            query: ShownQuery::new(query),
            nesting,
        });
    }
    if query.len() > MAX_QUERY_BYTES {
        return Err(QueryError::TooLong {
            query: ShownQuery::new(query),
            bytes: query.len(),
        });
    }
    let trimmed = query.trim();
    if trimmed.is_empty() {
        return Err(QueryError::nothing(query, Nothing::Empty));
    }
    if trimmed
        .split_whitespace()
        .all(|word| word.trim_start_matches('+') == "*")
    {
        return Err(QueryError::nothing(query, Nothing::OnlyAll));
    }
    if let Some(head) = trimmed.strip_suffix(':') {
        let field = head
            .rsplit(char::is_whitespace)
            .next()
            .unwrap_or_default()
            .trim_start_matches(['+', '-', '(']);
        return Err(QueryError::nothing(
            query,
            Nothing::FieldWithoutTerm(field.to_string()),
        ));
    }
    Ok(())
}

/// The `(` of `query` and its `NOT ` (tantivy's operator: `NOT` then a space) at the start or
/// after a character that is not part of a word: an upper bound of how deep tantivy nests it.
fn nesting(query: &str) -> usize {
    let parens = query.bytes().filter(|&b| b == b'(').count();
    let nots = query
        .match_indices("NOT ")
        .filter(|(at, _)| {
            query[..*at]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric())
        })
        .count();
    parens + nots
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(query: &str) -> Option<Nothing> {
        match check_query(query) {
            Err(QueryError::NothingToSearch { why, .. }) => Some(why),
            _ => None,
        }
    }

    #[test]
    fn nesting_counts_every_paren_and_not() {
        assert_eq!(nesting("river"), 0);
        assert_eq!(nesting("((a OR b) AND NOT (c))"), 4);
        assert_eq!(nesting("NOT NOT NOT a"), 3);
        assert_eq!(nesting("CANNOT stop"), 0);
        assert_eq!(nesting("\"(\"(\"("), 3);
        assert_eq!(nesting(&"(".repeat(5000)), 5000);
    }

    #[test]
    fn deep_and_long_queries_are_refused_naming_them() {
        let deep = "(".repeat(MAX_QUERY_NESTING + 1);
        let err = check_query(&deep).expect_err("too deep");
        assert!(matches!(err, QueryError::TooDeep { nesting, .. } if nesting == 65));
        let message = err.to_string();
        assert!(message.contains("nested too deep"), "{message}");
        assert!(message.contains("(65 characters)"), "{message}");
        assert!(message.len() < 200, "{message}");
        assert!(check_query(&"(".repeat(MAX_QUERY_NESTING)).is_ok());
        assert!(check_query(&"\"(".repeat(5000)).is_err());
        let long = "river ".repeat(1000);
        let err = check_query(&long).expect_err("too long");
        assert_eq!(
            err,
            QueryError::TooLong {
                query: ShownQuery::new(&long),
                bytes: 6000
            }
        );
        assert!(check_query(&"a".repeat(MAX_QUERY_BYTES)).is_ok());
    }

    #[test]
    fn nothing_to_search_for_says_why() {
        assert_eq!(why(""), Some(Nothing::Empty));
        assert_eq!(why(" \t\n"), Some(Nothing::Empty));
        assert_eq!(why("*"), Some(Nothing::OnlyAll));
        assert_eq!(why("* +*"), Some(Nothing::OnlyAll));
        assert_eq!(
            why("title:"),
            Some(Nothing::FieldWithoutTerm("title".into()))
        );
        assert_eq!(
            why("river +body: "),
            Some(Nothing::FieldWithoutTerm("body".into()))
        );
        for fine in [
            "river",
            "-river",
            "title:river",
            "title: river",
            "* -river",
            "a*",
        ] {
            assert_eq!(check_query(fine), Ok(()), "{fine}");
        }
        let message =
            QueryError::nothing("title:", Nothing::FieldWithoutTerm("title".into())).to_string();
        assert_eq!(
            message,
            "query \"title:\": nothing to search for (field `title:` has no term after it)"
        );
    }
}
