//! Reading one index many times: [`OpenIndex`] keeps the index and a searcher open for a run of
//! queries (`docview compare` asks thousands), measures what a query reads (the posting lists of
//! its terms: the disk-access proxy of the paper's Figure 6) and what the index holds on disk,
//! split by component.

use std::path::{Path, PathBuf};

use serde::Serialize;
use tantivy::collector::{Count, TopDocs};
use tantivy::query::{Query, QueryParser, QueryParserError};
use tantivy::schema::{Field, Value};
use tantivy::{DocId, Index, IndexWriter, Score, Searcher, SegmentReader, TantivyDocument, Term};

use tantivy::snippet::SnippetGenerator;

use super::query::{Nothing, QueryError, check_query};
use super::{
    FieldWeights, Fields, Hit, IndexDoc, IndexKind, MIN_BYTES_PER_THREAD, SNIPPET_CHARS, document,
    hit, index_error, index_path, open_index, reader, schema, spaced_han_words, tokenizers,
    writer_options,
};
use crate::Result;

/// How the words of a query combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Combine {
    /// A document matches with any word (BM25 ranks those with more first).
    Any,
    /// A document must hold every word, as web search engines default to.
    All,
}

/// One index opened for a run of queries.
pub struct OpenIndex {
    kind: IndexKind,
    path: PathBuf,
    index: Index,
    fields: Fields,
    searcher: Searcher,
    /// The DocView index's field weights (unused by the other three).
    weights: FieldWeights,
}

/// What a query's terms cost to read in one index.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PostingsCost {
    /// Posting-list entries (documents per term, summed over the query's terms and segments).
    pub entries: u64,
    /// Bytes of those posting lists, positions included for terms of phrase queries.
    pub bytes: u64,
}

/// One term of a query and its posting list in one index, for `docview query --explain`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TermPostings {
    /// The field: `title` or `body` (or the DocView index's `keywords`, `abstract`).
    pub field: String,
    /// The term as indexed (lowercased, stemmed).
    pub term: String,
    /// Documents holding it.
    pub doc_freq: u64,
    /// Bytes of its posting list.
    pub posting_bytes: u64,
    /// Bytes of its positions.
    pub position_bytes: u64,
}

/// Bytes of one index by component, summed over segments (tantivy's space usage).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct IndexSpace {
    /// Everything tantivy attributes to segments.
    pub segments: u64,
    /// Posting lists.
    pub postings: u64,
    /// Positions.
    pub positions: u64,
    /// Document store.
    pub store: u64,
    /// Term dictionaries.
    pub term_dictionary: u64,
    /// Fast fields and field norms.
    pub fast_fields_and_norms: u64,
    /// Delete bitsets.
    pub deletes: u64,
}

impl OpenIndex {
    /// Opens index `kind` under the ingest output directory `dir`.
    pub fn open(dir: &Path, kind: IndexKind) -> Result<OpenIndex> {
        let path = index_path(dir, kind);
        let index = open_index(&path, kind)?;
        OpenIndex::searching(kind, path, index)
    }

    /// `index`, at `path`, ready to search.
    fn searching(kind: IndexKind, path: PathBuf, index: Index) -> Result<OpenIndex> {
        let fields = Fields::of(&index, &path)?;
        let searcher = reader(&index, &path)?.searcher();
        Ok(OpenIndex {
            kind,
            path,
            index,
            fields,
            searcher,
            weights: FieldWeights::default(),
        })
    }

    /// The index searching the DocView index's fields with `weights` (the other indexes have
    /// one text field beside the title, and no weights).
    pub fn with_weights(mut self, weights: FieldWeights) -> OpenIndex {
        self.weights = weights;
        self
    }

    /// An index of `kind` held in memory, holding `docs`: the query path without files, for
    /// the query fuzz target (`fuzz/fuzz_targets/query.rs`) and tests.
    pub fn in_memory(kind: IndexKind, docs: &[IndexDoc]) -> Result<OpenIndex> {
        let path = PathBuf::from("(in memory)");
        let index = Index::builder()
            .schema(schema(kind))
            .tokenizers(tokenizers())
            .create_in_ram()
            .map_err(|e| index_error(&path, e))?;
        let fields = Fields::of(&index, &path)?;
        let mut writer: IndexWriter = index
            .writer_with_options(writer_options(MIN_BYTES_PER_THREAD, 1))
            .map_err(|e| index_error(&path, e))?;
        for doc in docs {
            writer
                .add_document(document(&fields, doc))
                .map_err(|e| index_error(&path, e))?;
        }
        writer.commit().map_err(|e| index_error(&path, e))?;
        OpenIndex::searching(kind, path, index)
    }

    /// Which index.
    pub fn kind(&self) -> IndexKind {
        self.kind
    }

    /// Live documents.
    pub fn num_docs(&self) -> u64 {
        self.searcher.num_docs()
    }

    /// `text` as a query over the body only (title and URL are the same in every index, so
    /// comparisons look at what each index adds; the DocView index adds all its fields, so
    /// there it is [`OpenIndex::query`]); an error when [`check_query`] refuses it, it has no
    /// term, or it only excludes.
    pub fn body_query(&self, text: &str, combine: Combine) -> Result<Box<dyn Query>, QueryError> {
        if self.fields.docview.is_some() {
            return self.query(text, combine);
        }
        self.parse(text, &[(self.fields.body, 1.0)], combine)
    }

    /// `text` as a query over title and body (what `docview query` searches), or over the
    /// DocView index's four fields with its [`FieldWeights`]; an error when [`check_query`]
    /// refuses it, it has no term, or it only excludes.
    pub fn query(&self, text: &str, combine: Combine) -> Result<Box<dyn Query>, QueryError> {
        match self.fields.docview {
            Some((keywords, abstract_text)) => {
                let w = self.weights;
                let weighted = [
                    (self.fields.title, w.title),
                    (keywords, w.keywords),
                    (abstract_text, w.abstract_text),
                    (self.fields.body, w.topic),
                ];
                self.parse(text, &weighted, combine)
            }
            None => self.parse(
                text,
                &[(self.fields.title, 1.0), (self.fields.body, 1.0)],
                combine,
            ),
        }
    }

    /// `text` parsed over `fields`, each with its weight (a field of weight 0 left out).
    fn parse(
        &self,
        text: &str,
        fields: &[(Field, f32)],
        combine: Combine,
    ) -> Result<Box<dyn Query>, QueryError> {
        check_query(text)?;
        let searched = fields.iter().filter(|(_, w)| *w > 0.0);
        let mut parser =
            QueryParser::for_index(&self.index, searched.clone().map(|&(f, _)| f).collect());
        for &(field, weight) in searched {
            if weight != 1.0 {
                parser.set_field_boost(field, weight);
            }
        }
        if combine == Combine::All {
            parser.set_conjunction_by_default();
        }
        let (query, ignored) = parser.parse_query_lenient(&spaced_han_words(text));
        let mut any = false;
        query.query_terms(&mut |_, _| any = true);
        if !any {
            return Err(QueryError::nothing(text, Nothing::NoWord));
        }
        // tantivy makes a query of only exclusions "every page but those", all scored alike.
        let all_but = ignored
            .iter()
            .any(|e| matches!(e, QueryParserError::AllButQueryForbidden));
        if all_but {
            return Err(QueryError::nothing(text, Nothing::OnlyExclusions));
        }
        Ok(query)
    }

    /// `k` cut to the documents of the index (at least 1): tantivy's top-k collector allocates
    /// room for `k` hits before it searches.
    fn capped(&self, k: usize) -> usize {
        k.min(usize::try_from(self.num_docs()).unwrap_or(usize::MAX))
            .max(1)
    }

    /// The top `k` documents for `query`, best first, ties to the earlier page (lower `seq`),
    /// with their scores. Ties are broken by the pages, not by where the index keeps them, so
    /// an index merged from shards answers as one built in a single process.
    fn top_docs(&self, query: &dyn Query, k: usize) -> Result<Vec<(f32, TantivyDocument)>> {
        if k == 0 || self.num_docs() == 0 {
            return Ok(Vec::new());
        }
        let by_score_then_seq =
            TopDocs::with_limit(self.capped(k)).tweak_score(|segment: &SegmentReader| {
                let seq = segment
                    .fast_fields()
                    .u64("seq")
                    .ok()
                    .map(|column| column.first_or_default_col(u64::MAX));
                move |doc: DocId, score: Score| {
                    let seq = seq.as_ref().map_or(u64::MAX, |c| c.get_val(doc));
                    (score, std::cmp::Reverse(seq))
                }
            });
        let top = self
            .searcher
            .search(query, &by_score_then_seq)
            .map_err(|e| index_error(&self.path, e))?;
        top.into_iter()
            .map(|((score, _), address)| {
                let doc = self
                    .searcher
                    .doc(address)
                    .map_err(|e| index_error(&self.path, e))?;
                Ok((score, doc))
            })
            .collect()
    }

    /// The URLs of the top `k` documents for `query`, best first.
    pub fn top_urls(&self, query: &dyn Query, k: usize) -> Result<Vec<String>> {
        Ok(self
            .top_docs(query, k)?
            .into_iter()
            .map(|(_, doc)| {
                doc.get_first(self.fields.url)
                    .and_then(|v| v.as_str())
                    .unwrap_or_default()
                    .to_string()
            })
            .collect())
    }

    /// The URLs of the top `k` documents for `query` with their scores, best first: a run of
    /// a ranked retrieval (`docview query --batch`, `docview compare --topics`).
    pub fn top_scored_urls(&self, query: &dyn Query, k: usize) -> Result<Vec<(f32, String)>> {
        Ok(self
            .top_docs(query, k)?
            .into_iter()
            .map(|(score, doc)| {
                let url = doc
                    .get_first(self.fields.url)
                    .and_then(|v| v.as_str())
                    .unwrap_or_default()
                    .to_string();
                (score, url)
            })
            .collect())
    }

    /// The top `k` hits of `query` with snippets of the body.
    pub fn hits(&self, query: &dyn Query, k: usize) -> Result<Vec<Hit>> {
        let top = self.top_docs(query, k)?;
        if top.is_empty() {
            return Ok(Vec::new());
        }
        let mut snippets = SnippetGenerator::create(&self.searcher, query, self.fields.body)
            .map_err(|e| index_error(&self.path, e))?;
        snippets.set_max_num_chars(SNIPPET_CHARS);
        Ok(top
            .into_iter()
            .map(|(score, doc)| hit(&doc, &self.fields, score, &snippets))
            .collect())
    }

    /// Runs `query` for its top `k` documents without reading them from the store: what a
    /// search engine does before it shows results (timed by `docview compare`).
    pub fn search_top(&self, query: &dyn Query, k: usize) -> Result<usize> {
        self.searcher
            .search(query, &TopDocs::with_limit(self.capped(k)).order_by_score())
            .map(|top| top.len())
            .map_err(|e| index_error(&self.path, e))
    }

    /// The body field's terms with their document frequencies (summed over segments), sorted
    /// by term.
    pub fn body_vocabulary(&self) -> Result<Vec<(String, u64)>> {
        let mut df: std::collections::BTreeMap<String, u64> = std::collections::BTreeMap::new();
        for segment in self.searcher.segment_readers() {
            let inverted = segment
                .inverted_index(self.fields.body)
                .map_err(|e| index_error(&self.path, e))?;
            let mut stream = inverted
                .terms()
                .stream()
                .map_err(|e| index_error(&self.path, e))?;
            while stream.advance() {
                if let Ok(term) = std::str::from_utf8(stream.key()) {
                    *df.entry(term.to_string()).or_insert(0) += u64::from(stream.value().doc_freq);
                }
            }
        }
        Ok(df.into_iter().collect())
    }

    /// Runs `query` to the end: the number of matching documents (what a query costs when
    /// nothing is cut short).
    pub fn count(&self, query: &dyn Query) -> Result<usize> {
        self.searcher
            .search(query, &Count)
            .map_err(|e| index_error(&self.path, e))
    }

    /// The posting lists `query` reads: its terms' entries and bytes over all segments.
    pub fn postings_cost(&self, query: &dyn Query) -> Result<PostingsCost> {
        let mut cost = PostingsCost::default();
        for t in self.term_postings(query)? {
            cost.entries += t.doc_freq;
            cost.bytes += t.posting_bytes + t.position_bytes;
        }
        Ok(cost)
    }

    /// Each term of `query` with its posting list (positions counted only for phrase terms).
    pub fn term_postings(&self, query: &dyn Query) -> Result<Vec<TermPostings>> {
        let mut terms: Vec<(&Term, bool)> = Vec::new();
        query.query_terms(&mut |term, positions| terms.push((term, positions)));
        terms.sort_by(|a, b| a.0.cmp(b.0).then(b.1.cmp(&a.1)));
        terms.dedup_by(|a, b| a.0 == b.0);
        let schema = self.index.schema();
        let mut out = Vec::with_capacity(terms.len());
        for (term, with_positions) in terms {
            let mut t = TermPostings {
                field: schema.get_field_name(term.field()).to_string(),
                term: term.value().as_str().unwrap_or_default().to_string(),
                doc_freq: 0,
                posting_bytes: 0,
                position_bytes: 0,
            };
            for segment in self.searcher.segment_readers() {
                let inverted = segment
                    .inverted_index(term.field())
                    .map_err(|e| index_error(&self.path, e))?;
                let info = inverted
                    .get_term_info(term)
                    .map_err(|e| index_error(&self.path, e))?;
                if let Some(info) = info {
                    t.doc_freq += u64::from(info.doc_freq);
                    t.posting_bytes += info.postings_range.len() as u64;
                    if with_positions {
                        t.position_bytes += info.positions_range.len() as u64;
                    }
                }
            }
            out.push(t);
        }
        Ok(out)
    }

    /// Bytes of the index by component.
    pub fn space(&self) -> Result<IndexSpace> {
        let usage = self
            .searcher
            .space_usage()
            .map_err(|e| index_error(&self.path, e))?;
        let mut space = IndexSpace::default();
        for segment in usage.segments() {
            space.segments += segment.total().get_bytes();
            space.postings += segment.postings().total().get_bytes();
            space.positions += segment.positions().total().get_bytes();
            space.store += segment.store().total().get_bytes();
            space.term_dictionary += segment.termdict().total().get_bytes();
            space.fast_fields_and_norms += segment.fast_fields().total().get_bytes()
                + segment.fieldnorms().total().get_bytes();
            space.deletes += segment.deletes().get_bytes();
        }
        Ok(space)
    }
}
