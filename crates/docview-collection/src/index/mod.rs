//! The four Tantivy indexes of a collection and querying them. Under `DIR/index/` docview
//! writes, for the same pages:
//!
//! - `fulltext`: all visible text of the raw page, what a naive engine indexes;
//! - `topic`: the cleaned topic content;
//! - `abstract`: title, abstract and keywords;
//! - `docview`: the DocView record's fields each in a field of its own (title, keywords,
//!   abstract, topic content), searched together with a weight per field ([`FieldWeights`]).
//!
//! They exist to be compared side by side (size, query cost, retrieval quality), so all four
//! share one schema (the DocView index's with two fields more: [`schema`]) and one analyser,
//! the tokenizer ([`DocviewTokenizer`]) registered as `docview`. This module
//! owns writing them ([`IndexSet`]), measuring them ([`index_stats`]) and querying them
//! ([`search`], [`OpenIndex`]), every query checked first ([`check_query`]: not nested too deep for
//! tantivy's parser, not too long, something to search for, not only exclusions). Reading an
//! index writes nothing in its folder, not even a lock file (`read_only.rs`), so it works on a
//! folder one may not write.

mod docview;
mod query;
mod read_only;
mod reader;
mod tokenizer;

use std::borrow::Cow;
use std::fmt;
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use tantivy::directory::MmapDirectory;
use tantivy::indexer::IndexWriterOptions;
use tantivy::query::RangeQuery;
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing,
    TextOptions, Value,
};
use tantivy::snippet::{Snippet, SnippetGenerator, collapse_overlapped_ranges};
use tantivy::termdict::TermMerger;
use tantivy::tokenizer::TokenizerManager;
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, Searcher, TantivyDocument, Term};

use crate::error::{Error, Result};
use crate::text::is_han;
use crate::text::{for_each_jieba_word, for_each_run};

pub use docview::{FieldWeights, abstract_body, index_docview};
pub use query::{MAX_QUERY_BYTES, MAX_QUERY_NESTING, Nothing, QueryError, check_query};
pub use reader::{Combine, IndexSpace, OpenIndex, PostingsCost, TermPostings};
pub use tokenizer::{DocviewTokenizer, TOKENIZER_NAME};

/// The folder under the ingest output directory that holds the four indexes.
pub const INDEX_DIR: &str = "index";
/// The report of `docview compare` in JSON, written beside the indexes by default.
pub const COMPARE_JSON: &str = "compare.json";
/// The report of `docview compare` as a page, beside [`COMPARE_JSON`].
pub const COMPARE_HTML: &str = "compare.html";

/// Longest snippet, in characters (tantivy's default is 150).
const SNIPPET_CHARS: usize = 200;

/// tantivy's least indexing memory per writer thread (its `MEMORY_BUDGET_NUM_BYTES_MIN`, which
/// it does not export): 15 MB.
const MIN_BYTES_PER_THREAD: usize = 15_000_000;

/// tantivy's most indexing memory per writer thread (below its `MEMORY_BUDGET_NUM_BYTES_MAX`).
const MAX_BYTES_PER_THREAD: usize = u32::MAX as usize - 1_000_001;

/// tantivy's most indexing threads per writer (its `MAX_NUM_THREAD`).
const MAX_THREADS: usize = 8;

/// Marks put around each matched term in a [`Hit::snippet`].
pub const HIGHLIGHT: (&str, &str) = ("[[", "]]");

/// Which of the four indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IndexKind {
    /// All visible text of the raw page.
    Fulltext,
    /// The cleaned topic content.
    Topic,
    /// Title, abstract and keywords.
    Abstract,
    /// The DocView record's fields, each a field of its own, searched with field weights.
    Docview,
}

impl IndexKind {
    /// The four kinds, in the order docview reports them.
    pub const ALL: [IndexKind; 4] = [
        IndexKind::Fulltext,
        IndexKind::Topic,
        IndexKind::Abstract,
        IndexKind::Docview,
    ];

    /// The index's folder name: `fulltext`, `topic`, `abstract` or `docview`.
    pub fn as_str(self) -> &'static str {
        match self {
            IndexKind::Fulltext => "fulltext",
            IndexKind::Topic => "topic",
            IndexKind::Abstract => "abstract",
            IndexKind::Docview => "docview",
        }
    }

    fn ordinal(self) -> usize {
        match self {
            IndexKind::Fulltext => 0,
            IndexKind::Topic => 1,
            IndexKind::Abstract => 2,
            IndexKind::Docview => 3,
        }
    }
}

impl fmt::Display for IndexKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for IndexKind {
    type Err = Error;

    fn from_str(s: &str) -> Result<IndexKind> {
        IndexKind::ALL
            .into_iter()
            .find(|kind| kind.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| Error::UnknownIndex(s.to_owned()))
    }
}

/// The folder of index `kind` under the ingest output directory `dir`.
pub fn index_path(dir: &Path, kind: IndexKind) -> PathBuf {
    dir.join(INDEX_DIR).join(kind.as_str())
}

/// One page as one index stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexDoc<'a> {
    /// The page's sequence number in the ingest run.
    pub seq: u64,
    /// The page's URL.
    pub url: &'a str,
    /// The page's title.
    pub title: &'a str,
    /// The text this index holds for the page.
    pub body: &'a str,
    /// The page's language code (`en`, `zh`, `other`).
    pub lang: &'a str,
    /// The record's keywords and abstract, which only the DocView index holds (fields of its
    /// own); `None` in the other three.
    pub docview: Option<DocviewFields<'a>>,
}

/// What the DocView index holds of a record beside its title and topic content (its `body`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocviewFields<'a> {
    /// The record's keywords, one a line.
    pub keywords: &'a str,
    /// The record's abstract.
    pub abstract_text: &'a str,
}

/// The schema of the fulltext, topic and abstract indexes:
///
/// - `url`: untokenized and stored, so a page can be deleted or shown by exact URL;
/// - `title`: `docview`-tokenized with positions, stored;
/// - `body`: `docview`-tokenized with frequencies and positions, stored so that [`search`] can
///   cut snippets. Storing the body costs disk (the doc store is compressed but is often the
///   largest file), and [`index_stats`] counts it in each index's bytes: all three pay it alike;
/// - `seq`: the page's sequence number in the ingest run (indexed, fast, stored), to roll back
///   an interrupted batch;
/// - `lang`: the page's language code, untokenized and stored.
///
/// The DocView index has two fields more, `keywords` and `abstract`, `docview`-tokenized with
/// positions and stored; its `body` is the topic content.
pub fn schema(kind: IndexKind) -> Schema {
    let mut builder = Schema::builder();
    builder.add_text_field("url", STRING | STORED);
    builder.add_text_field("title", docview_text());
    builder.add_text_field("body", docview_text());
    builder.add_u64_field("seq", INDEXED | FAST | STORED);
    builder.add_text_field("lang", STRING | STORED);
    if kind == IndexKind::Docview {
        builder.add_text_field("keywords", docview_text());
        builder.add_text_field("abstract", docview_text());
    }
    builder.build()
}

/// Stored text through the `docview` tokenizer, with frequencies and positions.
fn docview_text() -> TextOptions {
    let indexing = TextFieldIndexing::default()
        .set_tokenizer(TOKENIZER_NAME)
        .set_index_option(IndexRecordOption::WithFreqsAndPositions);
    TextOptions::default()
        .set_indexing_options(indexing)
        .set_stored()
}

/// The fields of the docview schema.
#[derive(Debug, Clone, Copy)]
struct Fields {
    url: Field,
    title: Field,
    body: Field,
    seq: Field,
    lang: Field,
    /// The DocView index's `keywords` and `abstract`.
    docview: Option<(Field, Field)>,
}

impl Fields {
    /// The fields of `index`, whose schema [`open_index`] or [`create_or_open_index`] checked.
    fn of(index: &Index, path: &Path) -> Result<Fields> {
        let schema = index.schema();
        let field = |name: &str| {
            schema
                .get_field(name)
                .map_err(|source| index_error(path, source))
        };
        let docview = match (schema.get_field("keywords"), schema.get_field("abstract")) {
            (Ok(keywords), Ok(abstract_text)) => Some((keywords, abstract_text)),
            _ => None,
        };
        Ok(Fields {
            url: field("url")?,
            title: field("title")?,
            body: field("body")?,
            seq: field("seq")?,
            lang: field("lang")?,
            docview,
        })
    }

    /// The fields a page's words are counted in for the index's size: the body, and the
    /// DocView index's keywords and abstract (the title is the same in every index).
    fn counted(&self) -> Vec<Field> {
        let mut fields = vec![self.body];
        if let Some((keywords, abstract_text)) = self.docview {
            fields.extend([keywords, abstract_text]);
        }
        fields
    }
}

/// A tokenizer manager with tantivy's defaults and `docview`. tantivy does not store
/// tokenizers in the index: every opened index needs it.
fn tokenizers() -> TokenizerManager {
    let manager = TokenizerManager::default();
    manager.register(TOKENIZER_NAME, DocviewTokenizer::default());
    manager
}

fn index_error(path: &Path, source: impl Into<tantivy::TantivyError>) -> Error {
    Error::Index {
        path: path.to_path_buf(),
        source: source.into(),
    }
}

/// Opens the existing index of `kind` at `path` to read it, with the `docview` tokenizer,
/// checking its schema. Nothing is written in its folder, not even a lock file
/// ([`read_only::ReadOnlyDirectory`]), so an index one may not write can be read.
fn open_index(path: &Path, kind: IndexKind) -> Result<Index> {
    if !path.join("meta.json").is_file() {
        return Err(Error::NoIndex {
            path: path.to_path_buf(),
        });
    }
    let directory = read_only::ReadOnlyDirectory::open(path).map_err(|e| index_error(path, e))?;
    let index = Index::open(directory).map_err(|e| index_error(path, e))?;
    if index.schema() != schema(kind) {
        return Err(index_error(
            path,
            tantivy::TantivyError::SchemaError(
                "the index was written with another schema; delete it and run `docview ingest` \
                 again"
                    .into(),
            ),
        ));
    }
    index
        .tokenizers()
        .register(TOKENIZER_NAME, DocviewTokenizer::default());
    Ok(index)
}

/// Creates the index of `kind` at `path`, or opens it if it exists (with the same schema).
fn create_or_open_index(path: &Path, kind: IndexKind) -> Result<Index> {
    std::fs::create_dir_all(path).map_err(|e| Error::io(path, e))?;
    let directory = MmapDirectory::open(path).map_err(|e| index_error(path, e))?;
    Index::builder()
        .schema(schema(kind))
        .tokenizers(tokenizers())
        .open_or_create(directory)
        .map_err(|e| index_error(path, e))
}

/// A reader on `index` that sees its last commit and does not watch for new ones.
fn reader(index: &Index, path: &Path) -> Result<IndexReader> {
    index
        .reader_builder()
        .reload_policy(ReloadPolicy::Manual)
        .try_into()
        .map_err(|e| index_error(path, e))
}

/// The writer options for a memory budget and a thread count (see [`writer_budget`]). Merges
/// run on as many threads as indexing.
fn writer_options(heap_bytes: usize, threads: usize) -> IndexWriterOptions {
    let (threads, per_thread) = writer_budget(heap_bytes, threads);
    IndexWriterOptions::builder()
        .memory_budget_per_thread(per_thread)
        .num_worker_threads(threads)
        .num_merge_threads(threads)
        .build()
}

/// Indexing threads and memory per thread for a writer's budget: at most tantivy's
/// [`MAX_THREADS`] threads (0: one per core), each with at least tantivy's minimum
/// ([`MIN_BYTES_PER_THREAD`], 15 MB), so a small budget means fewer threads, and a budget
/// below one thread's minimum is raised to it.
fn writer_budget(heap_bytes: usize, threads: usize) -> (usize, usize) {
    let wanted = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let threads = wanted
        .min(MAX_THREADS)
        .min(heap_bytes / MIN_BYTES_PER_THREAD)
        .max(1);
    let per_thread = (heap_bytes / threads).clamp(MIN_BYTES_PER_THREAD, MAX_BYTES_PER_THREAD);
    (threads, per_thread)
}

/// `doc` as a document of the docview schema.
fn document(fields: &Fields, doc: &IndexDoc) -> TantivyDocument {
    let mut document = TantivyDocument::default();
    document.add_text(fields.url, doc.url);
    document.add_text(fields.title, doc.title);
    document.add_text(fields.body, doc.body);
    document.add_u64(fields.seq, doc.seq);
    document.add_text(fields.lang, doc.lang);
    if let (Some((keywords, abstract_text)), Some(extra)) = (fields.docview, doc.docview) {
        document.add_text(keywords, extra.keywords);
        document.add_text(abstract_text, extra.abstract_text);
    }
    document
}

/// One index being written.
struct KindWriter {
    path: PathBuf,
    index: Index,
    writer: IndexWriter,
    fields: Fields,
}

impl KindWriter {
    fn open(path: PathBuf, kind: IndexKind, options: &IndexWriterOptions) -> Result<KindWriter> {
        let index = create_or_open_index(&path, kind)?;
        let fields = Fields::of(&index, &path)?;
        let writer = index
            .writer_with_options(options.clone())
            .map_err(|e| index_error(&path, e))?;
        Ok(KindWriter {
            path,
            index,
            writer,
            fields,
        })
    }

    fn add(&mut self, doc: &IndexDoc) -> Result<()> {
        if let Err(e) = self.writer.add_document(document(&self.fields, doc)) {
            // A worker that failed (a full disk) leaves the writer only "killed"; joining the
            // workers, as a commit does first, gives the worker's own error.
            let cause = match self.writer.prepare_commit() {
                Err(cause) => cause,
                Ok(_) => e,
            };
            return Err(index_error(&self.path, cause));
        }
        Ok(())
    }

    fn commit(&mut self, payload: &str) -> Result<()> {
        let mut prepared = self
            .writer
            .prepare_commit()
            .map_err(|e| index_error(&self.path, e))?;
        prepared.set_payload(payload);
        prepared.commit().map_err(|e| index_error(&self.path, e))?;
        Ok(())
    }

    fn delete_from(&mut self, from: u64) -> Result<()> {
        let lower = Term::from_field_u64(self.fields.seq, from);
        let query = RangeQuery::new(Bound::Included(lower), Bound::Unbounded);
        self.writer
            .delete_query(Box::new(query))
            .map_err(|e| index_error(&self.path, e))?;
        Ok(())
    }

    fn payload(&self) -> Result<Option<String>> {
        let metas = self
            .index
            .load_metas()
            .map_err(|e| index_error(&self.path, e))?;
        Ok(metas.payload)
    }

    fn finish(self) -> Result<()> {
        let path = self.path;
        self.writer
            .wait_merging_threads()
            .map_err(|e| index_error(&path, e))
    }
}

/// The writers of the four indexes of one collection. Added documents become visible, and
/// durable, at [`IndexSet::commit`]; dropping the set without committing (or a crash) leaves
/// each index as its last commit left it.
pub struct IndexSet {
    /// In [`IndexKind::ALL`] order.
    writers: Vec<KindWriter>,
}

impl fmt::Debug for IndexSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let paths: Vec<&Path> = self.writers.iter().map(|w| w.path.as_path()).collect();
        f.debug_struct("IndexSet").field("paths", &paths).finish()
    }
}

impl IndexSet {
    /// Creates `dir/index/{fulltext,topic,abstract,docview}`, or opens them if they exist (for
    /// `--resume`). Each writer gets `heap_bytes_per_writer` of indexing memory shared by up to
    /// `threads` threads (tantivy's limits apply: at least 15 MB per thread, so a small budget
    /// means fewer threads, at most 8 threads; 0 threads: one per core).
    pub fn create_or_open(
        dir: &Path,
        heap_bytes_per_writer: usize,
        threads: usize,
    ) -> Result<IndexSet> {
        let options = writer_options(heap_bytes_per_writer, threads);
        let writers = IndexKind::ALL
            .into_iter()
            .map(|kind| KindWriter::open(index_path(dir, kind), kind, &options))
            .collect::<Result<Vec<_>>>()?;
        Ok(IndexSet { writers })
    }

    /// Adds one page to index `kind` (visible after the next [`IndexSet::commit`]).
    pub fn add(&mut self, kind: IndexKind, doc: &IndexDoc) -> Result<()> {
        self.writer(kind).add(doc)
    }

    /// Commits the four indexes, one after the other, storing `payload` (e.g. a JSON
    /// checkpoint) with each commit. A crash between two of them leaves the indexes with
    /// different payloads: read them with [`IndexSet::payload`] and undo the newer batch with
    /// [`IndexSet::roll_back_from`].
    pub fn commit(&mut self, payload: &str) -> Result<()> {
        self.writers.iter_mut().try_for_each(|w| w.commit(payload))
    }

    /// Deletes the documents with `seq >= from` from the four indexes, committed or not, and
    /// commits with `payload` (the checkpoint the indexes are back at), undoing a batch that a
    /// crash left half-committed. Documents added since the last commit with a lower `seq` are
    /// committed too.
    pub fn roll_back_from(&mut self, from: u64, payload: &str) -> Result<()> {
        for writer in &mut self.writers {
            writer.delete_from(from)?;
        }
        self.commit(payload)
    }

    /// The payload of index `kind`'s last commit, `None` for a new index.
    pub fn payload(&self, kind: IndexKind) -> Result<Option<String>> {
        self.writers[kind.ordinal()].payload()
    }

    /// Waits for the merges under way and releases the writers. Documents added since the last
    /// commit are dropped.
    pub fn finish(self) -> Result<()> {
        self.writers.into_iter().try_for_each(KindWriter::finish)
    }

    fn writer(&mut self, kind: IndexKind) -> &mut KindWriter {
        &mut self.writers[kind.ordinal()]
    }
}

/// Merges the four indexes of each folder of `parts` (each the output of one shard of a
/// sharded run, holding disjoint kept pages, none deleted) into the four indexes of `out`,
/// which must not hold them yet. Built from whole shard indexes, the merged index scores as one
/// built in a single process (tantivy's BM25 statistics are sums over segments).
pub fn merge_index_sets(parts: &[PathBuf], out: &Path) -> Result<()> {
    for kind in IndexKind::ALL {
        let path = index_path(out, kind);
        let mut indexes = Vec::new();
        for part in parts {
            let part_path = index_path(part, kind);
            let index = open_index(&part_path, kind)?;
            let segments = index
                .searchable_segments()
                .map_err(|e| index_error(&part_path, e))?;
            if !segments.is_empty() {
                indexes.push(index);
            }
        }
        if indexes.is_empty() {
            create_or_open_index(&path, kind)?;
            continue;
        }
        std::fs::create_dir_all(&path).map_err(|e| Error::io(&path, e))?;
        let directory = MmapDirectory::open(&path).map_err(|e| index_error(&path, e))?;
        tantivy::indexer::merge_indices(&indexes, directory).map_err(|e| index_error(&path, e))?;
    }
    Ok(())
}

/// The size of one index, for comparing the four.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct IndexStats {
    /// Which index.
    pub kind: IndexKind,
    /// Live documents.
    pub docs: u64,
    /// Terms in the `body` field (and the DocView index's `keywords` and `abstract`), repeats
    /// included (tantivy's `total_num_tokens`, summed over segments). Counts deleted documents
    /// until a merge drops them.
    pub terms: u64,
    /// Distinct terms of those fields, each field's counted apart as its term dictionary holds
    /// them: exact, by merging the segments' term dictionaries. Terms only deleted documents
    /// hold count until a merge drops them.
    pub distinct_terms: u64,
    /// Bytes of all files in the index folder: postings, positions, term dictionaries, fast
    /// fields, field norms, the doc store and meta files (plus files of uncommitted segments a
    /// crash left, until the next writer removes them).
    pub bytes: u64,
    /// The payload of the last commit.
    pub payload: Option<String>,
}

/// The stats of the four indexes under the ingest output directory `dir`, in
/// [`IndexKind::ALL`] order. Each must exist.
pub fn index_stats(dir: &Path) -> Result<Vec<IndexStats>> {
    IndexKind::ALL
        .into_iter()
        .map(|kind| kind_stats(dir, kind))
        .collect()
}

fn kind_stats(dir: &Path, kind: IndexKind) -> Result<IndexStats> {
    let path = index_path(dir, kind);
    let index = open_index(&path, kind)?;
    let fields = Fields::of(&index, &path)?;
    let searcher = reader(&index, &path)?.searcher();
    let (mut terms, mut distinct_terms) = (0, 0);
    for field in fields.counted() {
        let (t, d) = body_terms(&searcher, field).map_err(|e| index_error(&path, e))?;
        terms += t;
        distinct_terms += d;
    }
    let payload = index
        .load_metas()
        .map_err(|e| index_error(&path, e))?
        .payload;
    Ok(IndexStats {
        kind,
        docs: searcher.num_docs(),
        terms,
        distinct_terms,
        bytes: folder_bytes(&path)?,
        payload,
    })
}

/// The terms (repeats included) and distinct terms of `field` over all segments.
fn body_terms(searcher: &Searcher, field: Field) -> tantivy::Result<(u64, u64)> {
    let inverted = searcher
        .segment_readers()
        .iter()
        .map(|segment| segment.inverted_index(field))
        .collect::<tantivy::Result<Vec<_>>>()?;
    let terms = inverted.iter().map(|ii| ii.total_num_tokens()).sum();
    let streams = inverted
        .iter()
        .map(|ii| ii.terms().stream())
        .collect::<std::io::Result<Vec<_>>>()?;
    let mut merger = TermMerger::new(streams);
    let mut distinct = 0;
    while merger.advance() {
        distinct += 1;
    }
    Ok((terms, distinct))
}

/// The sum of the sizes of the files in `path` (tantivy keeps an index in one flat folder).
fn folder_bytes(path: &Path) -> Result<u64> {
    let entries = std::fs::read_dir(path).map_err(|e| Error::io(path, e))?;
    let mut bytes = 0;
    for entry in entries {
        let meta = entry
            .and_then(|e| e.metadata())
            .map_err(|e| Error::io(path, e))?;
        if meta.is_file() {
            bytes += meta.len();
        }
    }
    Ok(bytes)
}

/// One result of [`search`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Hit {
    /// The page's URL.
    pub url: String,
    /// The page's title.
    pub title: String,
    /// BM25 score.
    pub score: f32,
    /// Plain text around the best matches in the body, on one line, each matched term between
    /// `[[` and `]]` ([`HIGHLIGHT`]); the start of the body when only the title matched.
    pub snippet: String,
}

/// The top `k` hits of `query` in index `kind` under the ingest output directory `dir`.
///
/// The query uses tantivy's syntax (`a b` either, `+a` must, `-a` must not, `"a b"` phrase,
/// `title:a`) over title and body, parsed leniently: stray quotes, colons or operators are
/// dropped rather than reported. Runs of Chinese characters are cut into words first, so that
/// each word is a term as an English word is (tantivy would make one phrase of them). A query
/// nested too deep, too long, or with nothing to search for (empty, `*`, `title:`, only
/// punctuation) is an [`Error::Query`] saying which ([`check_query`]). `k` is cut to the
/// index's documents.
pub fn search(dir: &Path, kind: IndexKind, query: &str, k: usize) -> Result<Vec<Hit>> {
    let index = OpenIndex::open(dir, kind)?;
    let query = index.query(query, Combine::Any)?;
    index.hits(query.as_ref(), k)
}

/// Runs `text` down every path docview queries `index` by: `docview query`'s (title and body,
/// any word: its hits with snippets and its terms' posting lists) and `docview compare`'s (the
/// body, every word: posting-list cost, count, top 10). The entry point of the query fuzz
/// target (`fuzz/fuzz_targets/query.rs`) and of its replay in the tests: any text gives hits or
/// an error ([`Error::Query`] for a query [`check_query`] refuses), never a panic or an abort.
pub fn query_paths(index: &OpenIndex, text: &str) -> Result<()> {
    let query = index.query(text, Combine::Any)?;
    index.hits(query.as_ref(), 10)?;
    index.term_postings(query.as_ref())?;
    let body = index.body_query(text, Combine::All)?;
    index.postings_cost(body.as_ref())?;
    index.count(body.as_ref())?;
    index.search_top(body.as_ref(), 10)?;
    Ok(())
}

fn hit(doc: &TantivyDocument, fields: &Fields, score: f32, snippets: &SnippetGenerator) -> Hit {
    let text = |field: Field| {
        doc.get_first(field)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
    };
    let snippet = snippets.snippet_from_doc(doc);
    let snippet = if snippet.fragment().is_empty() {
        one_line(leading_chars(text(fields.body), SNIPPET_CHARS))
    } else {
        marked(&snippet)
    };
    Hit {
        url: text(fields.url).to_owned(),
        title: text(fields.title).to_owned(),
        score,
        snippet,
    }
}

/// `query` with a space between the jieba words of each run of Chinese characters, cut as the
/// index tokenizer cuts them ([`for_each_run`] of ideographs, [`for_each_jieba_word`]).
fn spaced_han_words(query: &str) -> Cow<'_, str> {
    if !query.chars().any(is_han) {
        return Cow::Borrowed(query);
    }
    let mut out = String::with_capacity(query.len() + 16);
    let mut copied = 0;
    for_each_run(query, is_han, |start, end| {
        out.push_str(&query[copied..start]);
        let run = &query[start..end];
        for_each_jieba_word(run, |s, e| {
            if s > 0 {
                out.push(' ');
            }
            out.push_str(&run[s..e]);
        });
        copied = end;
    });
    out.push_str(&query[copied..]);
    Cow::Owned(out)
}

/// The snippet's fragment with its matched terms between [`HIGHLIGHT`] marks, on one line.
fn marked(snippet: &Snippet) -> String {
    let fragment = snippet.fragment();
    let mut out = String::with_capacity(fragment.len() + 16);
    let mut from = 0;
    for range in collapse_overlapped_ranges(snippet.highlighted()) {
        let (Some(before), Some(term)) =
            (fragment.get(from..range.start), fragment.get(range.clone()))
        else {
            continue;
        };
        out.push_str(before);
        out.push_str(HIGHLIGHT.0);
        out.push_str(term);
        out.push_str(HIGHLIGHT.1);
        from = range.end;
    }
    out.push_str(fragment.get(from..).unwrap_or_default());
    one_line(&out)
}

/// `text` with each run of whitespace as one space, trimmed.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first `n` characters of `text`.
fn leading_chars(text: &str, n: usize) -> &str {
    match text.char_indices().nth(n) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use tantivy::tokenizer::{TokenStream, Tokenizer};

    use super::*;

    /// Budget of each test writer: tantivy's minimum, one thread.
    const HEAP: usize = MIN_BYTES_PER_THREAD;

    /// (seq, url, title, [fulltext, topic, abstract] bodies, lang)
    type Page = (
        u64,
        &'static str,
        &'static str,
        [&'static str; 3],
        &'static str,
    );

    const PAGES: [Page; 3] = [
        (
            0,
            "https://e.org/river",
            "Rivers of Europe",
            [
                "Home | News | Contact. The river flows slowly to the sea past old mills. \
                 Copyright 2024, all rights reserved.",
                "The river flows slowly to the sea past old mills.",
                "Rivers of Europe. The river flows to the sea.",
            ],
            "en",
        ),
        (
            1,
            "https://e.org/zh",
            "搜索引擎介绍",
            [
                "首页 新闻 搜索引擎每天抓取网页，然后建立索引。版权所有",
                "搜索引擎每天抓取网页，然后建立索引。",
                "搜索引擎介绍。搜索引擎抓取网页。",
            ],
            "zh",
        ),
        (
            2,
            "https://e.org/garden",
            "Gardens",
            [
                "Home | Shop. Running a garden takes patience and water. Subscribe now.",
                "Running a garden takes patience and water.",
                "Gardens. Running a garden takes patience.",
            ],
            "en",
        ),
    ];

    /// The body of index `kind` among a page's three: the DocView index's is the topic's.
    fn body_of(bodies: [&'static str; 3], kind: IndexKind) -> &'static str {
        match kind {
            IndexKind::Fulltext => bodies[0],
            IndexKind::Topic | IndexKind::Docview => bodies[1],
            IndexKind::Abstract => bodies[2],
        }
    }

    fn add_pages(set: &mut IndexSet, pages: &[Page]) {
        for &(seq, url, title, bodies, lang) in pages {
            for kind in IndexKind::ALL {
                let doc = IndexDoc {
                    seq,
                    url,
                    title,
                    body: body_of(bodies, kind),
                    lang,
                    docview: (kind == IndexKind::Docview).then_some(DocviewFields {
                        keywords: "",
                        abstract_text: "",
                    }),
                };
                set.add(kind, &doc).expect("add");
            }
        }
    }

    /// A collection under a temporary folder holding `PAGES`, committed with payload `p1`.
    fn collection() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut set = IndexSet::create_or_open(dir.path(), HEAP, 1).expect("create");
        add_pages(&mut set, &PAGES);
        set.commit("p1").expect("commit");
        set.finish().expect("finish");
        dir
    }

    fn token_count(text: &str) -> u64 {
        let mut tokenizer = DocviewTokenizer::default();
        let mut stream = tokenizer.token_stream(text);
        let mut n = 0;
        while stream.advance() {
            n += 1;
        }
        n
    }

    fn urls(hits: &[Hit]) -> Vec<&str> {
        hits.iter().map(|h| h.url.as_str()).collect()
    }

    fn doc_counts(dir: &Path) -> Vec<u64> {
        let stats = index_stats(dir).expect("stats");
        stats.iter().map(|s| s.docs).collect()
    }

    #[test]
    fn stats_count_documents_and_terms() {
        let dir = collection();
        let stats = index_stats(dir.path()).expect("stats");
        let kinds: Vec<IndexKind> = stats.iter().map(|s| s.kind).collect();
        assert_eq!(kinds, IndexKind::ALL);
        for s in &stats {
            let expected: u64 = PAGES
                .iter()
                .map(|p| token_count(body_of(p.3, s.kind)))
                .sum();
            assert_eq!(s.docs, 3, "{s:?}");
            assert_eq!(s.terms, expected, "{s:?}");
            assert!(s.distinct_terms > 0 && s.distinct_terms < s.terms, "{s:?}");
            assert!(s.bytes > 0, "{s:?}");
            assert_eq!(s.payload.as_deref(), Some("p1"));
        }
        assert!(stats[0].terms > stats[1].terms, "{stats:?}");
        // "the" occurs twice in the topic body of the river page, "river" and "rivers" stem
        // alike: the distinct count is exact, not per segment.
        let topic_distinct: std::collections::HashSet<String> = PAGES
            .iter()
            .flat_map(|p| {
                let mut tokenizer = DocviewTokenizer::default();
                let mut stream = tokenizer.token_stream(p.3[1]);
                let mut words = Vec::new();
                while let Some(t) = stream.next() {
                    words.push(t.text.clone());
                }
                words
            })
            .collect();
        assert_eq!(stats[1].distinct_terms, topic_distinct.len() as u64);
    }

    #[test]
    fn stemmed_query_finds_the_page_with_a_snippet() {
        let dir = collection();
        for kind in IndexKind::ALL {
            let hits = search(dir.path(), kind, "rivers", 10).expect("search");
            assert_eq!(urls(&hits), vec!["https://e.org/river"], "{kind}");
            assert_eq!(hits[0].title, "Rivers of Europe");
            assert!(hits[0].score > 0.0);
            assert!(hits[0].snippet.contains("[[river]]"), "{:?}", hits[0]);
        }
        let hits = search(dir.path(), IndexKind::Topic, "running water", 10).expect("search");
        assert_eq!(urls(&hits), vec!["https://e.org/garden"]);
        assert!(hits[0].snippet.contains("[[Running]]"), "{:?}", hits[0]);
        assert!(hits[0].snippet.contains("[[water]]"), "{:?}", hits[0]);
    }

    #[test]
    fn title_only_match_shows_the_start_of_the_body() {
        let dir = collection();
        let hits = search(dir.path(), IndexKind::Topic, "europe", 10).expect("search");
        assert_eq!(urls(&hits), vec!["https://e.org/river"]);
        assert_eq!(
            hits[0].snippet,
            "The river flows slowly to the sea past old mills."
        );
    }

    #[test]
    fn chinese_query_finds_the_chinese_page() {
        let dir = collection();
        for query in ["抓取网页", "搜索引擎", "\"抓取网页\""] {
            let hits = search(dir.path(), IndexKind::Topic, query, 10).expect("search");
            assert_eq!(urls(&hits), vec!["https://e.org/zh"], "{query}");
            assert!(hits[0].snippet.contains("[["), "{:?}", hits[0]);
        }
        assert_eq!(spaced_han_words("抓取网页 rust"), "抓取 网页 rust");
        assert_eq!(spaced_han_words("title:搜索引擎"), "title:搜索引擎");
        assert!(matches!(spaced_han_words("plain"), Cow::Borrowed("plain")));
    }

    #[test]
    fn roll_back_removes_the_newer_batch() {
        let dir = collection();
        let mut set = IndexSet::create_or_open(dir.path(), HEAP, 1).expect("open");
        let later: [Page; 2] = [
            (
                3,
                "https://e.org/tide",
                "Tides",
                ["tides and pools"; 3],
                "en",
            ),
            (
                4,
                "https://e.org/moon",
                "Moon",
                ["the moon pulls tides"; 3],
                "en",
            ),
        ];
        add_pages(&mut set, &later);
        set.commit("p2").expect("commit");
        assert_eq!(doc_counts(dir.path()), vec![5, 5, 5, 5]);
        set.roll_back_from(3, "back to p1").expect("roll back");
        assert_eq!(
            set.payload(IndexKind::Abstract)
                .expect("payload")
                .as_deref(),
            Some("back to p1")
        );
        set.finish().expect("finish");
        assert_eq!(doc_counts(dir.path()), vec![3, 3, 3, 3]);
        let hits = search(dir.path(), IndexKind::Fulltext, "tides", 10).expect("search");
        assert!(hits.is_empty(), "{hits:?}");
        let hits = search(dir.path(), IndexKind::Fulltext, "garden", 10).expect("search");
        assert_eq!(urls(&hits), vec!["https://e.org/garden"]);
    }

    #[test]
    fn reopening_keeps_committed_documents() {
        let dir = collection();
        let mut set = IndexSet::create_or_open(dir.path(), HEAP, 1).expect("reopen");
        for kind in IndexKind::ALL {
            assert_eq!(set.payload(kind).expect("payload").as_deref(), Some("p1"));
        }
        let before = index_stats(dir.path()).expect("stats");
        // A second segment holding only words the first one has: the distinct count is
        // exact across segments, not a sum per segment.
        add_pages(
            &mut set,
            &[(3, "https://e.org/sea", "Sea", ["river sea"; 3], "en")],
        );
        set.commit("p2").expect("commit");
        set.finish().expect("finish");
        let after = index_stats(dir.path()).expect("stats");
        for (b, a) in before.iter().zip(&after) {
            assert_eq!(a.docs, b.docs + 1, "{a:?}");
            assert_eq!(a.terms, b.terms + 2, "{a:?}");
            assert_eq!(a.distinct_terms, b.distinct_terms, "{a:?}");
            assert_eq!(a.payload.as_deref(), Some("p2"));
        }
        let hits = search(dir.path(), IndexKind::Topic, "seas", 10).expect("search");
        assert_eq!(hits.len(), 2, "{hits:?}");
    }

    #[test]
    fn uncommitted_documents_vanish_with_the_writer() {
        let dir = collection();
        let mut set = IndexSet::create_or_open(dir.path(), HEAP, 1).expect("open");
        add_pages(
            &mut set,
            &[(3, "https://e.org/tide", "Tides", ["tides"; 3], "en")],
        );
        drop(set);
        let stats = index_stats(dir.path()).expect("stats");
        assert!(
            stats
                .iter()
                .all(|s| s.docs == 3 && s.payload.as_deref() == Some("p1"))
        );
        let set = IndexSet::create_or_open(dir.path(), HEAP, 1).expect("reopen after crash");
        set.finish().expect("finish");
        assert!(
            search(dir.path(), IndexKind::Topic, "tides", 5)
                .expect("search")
                .is_empty()
        );
    }

    #[test]
    fn new_index_set_is_empty_and_without_payload() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut set = IndexSet::create_or_open(dir.path(), HEAP, 0).expect("create");
        assert_eq!(set.payload(IndexKind::Topic).expect("payload"), None);
        set.commit("").expect("commit");
        set.finish().expect("finish");
        assert_eq!(doc_counts(dir.path()), vec![0, 0, 0, 0]);
        assert!(
            search(dir.path(), IndexKind::Topic, "river", 5)
                .expect("search")
                .is_empty()
        );
    }

    #[test]
    fn missing_index_is_an_error_naming_the_path() {
        let dir = tempfile::tempdir().expect("tempdir");
        let expected = index_path(dir.path(), IndexKind::Fulltext);
        let err = index_stats(dir.path()).expect_err("no index");
        assert!(
            matches!(&err, Error::NoIndex { path } if *path == expected),
            "{err}"
        );
        let message = err.to_string();
        assert!(
            message.contains(&expected.display().to_string()),
            "{message}"
        );
        assert!(message.contains("docview ingest"), "{message}");
        let err = search(dir.path(), IndexKind::Abstract, "river", 5).expect_err("no index");
        let expected = index_path(dir.path(), IndexKind::Abstract);
        assert!(
            matches!(&err, Error::NoIndex { path } if *path == expected),
            "{err}"
        );
    }

    #[test]
    fn junk_queries_do_not_error() {
        let dir = collection();
        let junk = [
            "",
            " ",
            "\"",
            ":",
            "AND",
            "OR NOT",
            "title:",
            ":river",
            "((",
            ")",
            "*",
            "-",
            "+",
            "\"river",
            "river\"",
            "body:river:",
            "[1 TO",
            "seq:>",
            "url:",
            "^2",
            "~",
            "\\",
            "“river”",
            "。",
            "\u{0}",
        ];
        for query in junk {
            match search(dir.path(), IndexKind::Topic, query, 10) {
                Ok(_) => assert!(!query.trim().is_empty(), "{query:?}"),
                Err(Error::Query(QueryError::NothingToSearch { .. })) => {}
                Err(e) => panic!("{query:?}: {e}"),
            }
        }
        for (query, why) in [
            ("", Nothing::Empty),
            ("*", Nothing::OnlyAll),
            ("title:", Nothing::FieldWithoutTerm("title".into())),
            ("。", Nothing::NoWord),
            ("\"\"", Nothing::NoWord),
        ] {
            let err = search(dir.path(), IndexKind::Topic, query, 10).expect_err(query);
            assert_eq!(
                err.to_string(),
                QueryError::nothing(query, why).to_string(),
                "{query:?}"
            );
        }
        let hits = search(dir.path(), IndexKind::Topic, "\"river", 10).expect("search");
        assert_eq!(urls(&hits), vec!["https://e.org/river"]);
        // A query of only exclusions is refused: tantivy would match every page without the
        // words, all with one score.
        for query in [
            "-river",
            "NOT river",
            "-river -garden",
            "-(river garden)",
            "(-river)",
        ] {
            let err = search(dir.path(), IndexKind::Topic, query, 10).expect_err(query);
            assert_eq!(
                err.to_string(),
                QueryError::nothing(query, Nothing::OnlyExclusions).to_string(),
                "{query:?}"
            );
        }
        for (query, found) in [
            ("garden -river", vec!["https://e.org/garden"]),
            ("+garden -river", vec!["https://e.org/garden"]),
            ("* -river", vec!["https://e.org/zh", "https://e.org/garden"]),
        ] {
            let hits = search(dir.path(), IndexKind::Topic, query, 10).expect(query);
            assert_eq!(urls(&hits), found, "{query:?}");
        }
        assert!(
            search(dir.path(), IndexKind::Topic, "river", 0)
                .expect("k 0")
                .is_empty()
        );
    }

    /// The deepest query [`check_query`] lets through parses and searches on a test thread's
    /// 2 MiB of stack; a deeper one is refused before tantivy's parser sees it.
    #[test]
    fn nesting_is_bounded_before_the_parser() {
        let dir = collection();
        let index = OpenIndex::open(dir.path(), IndexKind::Topic).expect("open");
        let half = MAX_QUERY_NESTING / 2;
        for deepest in [
            format!("{}river", "(".repeat(MAX_QUERY_NESTING)),
            format!(
                "{}river{}",
                "(".repeat(MAX_QUERY_NESTING),
                ")".repeat(MAX_QUERY_NESTING)
            ),
            format!("{}river", "NOT (".repeat(half)),
            format!("{}river", "\"(".repeat(MAX_QUERY_NESTING)),
            format!("{}river", "+(-(".repeat(half)),
        ] {
            for combine in [Combine::Any, Combine::All] {
                if let Ok(query) = index.query(&deepest, combine) {
                    index.hits(query.as_ref(), 10).expect("hits");
                    index.count(query.as_ref()).expect("count");
                    index.term_postings(query.as_ref()).expect("terms");
                }
            }
            let deeper = format!("({deepest}");
            assert!(
                matches!(
                    index.query(&deeper, Combine::Any),
                    Err(QueryError::TooDeep { .. })
                ),
                "{deeper}"
            );
        }
        let err = search(dir.path(), IndexKind::Topic, &"(".repeat(5000), 10).expect_err("deep");
        assert!(matches!(
            err,
            Error::Query(QueryError::TooDeep { nesting: 5000, .. })
        ));
    }

    #[test]
    fn k_is_cut_to_the_documents() {
        let dir = collection();
        for k in [3, 4, 1_000_000_000, usize::MAX] {
            let hits =
                search(dir.path(), IndexKind::Topic, "river OR garden OR 网页", k).expect("search");
            assert_eq!(hits.len(), 3, "{k}");
        }
        let index = OpenIndex::open(dir.path(), IndexKind::Topic).expect("open");
        let query = index.query("river", Combine::Any).expect("query");
        assert_eq!(
            index.search_top(query.as_ref(), usize::MAX).expect("top"),
            1
        );
        assert_eq!(index.search_top(query.as_ref(), 0).expect("top"), 1);
    }

    #[test]
    fn stop_words_are_indexed_for_phrases() {
        let dir = collection();
        let hits = search(dir.path(), IndexKind::Topic, "\"to the sea\"", 10).expect("search");
        assert_eq!(urls(&hits), vec!["https://e.org/river"]);
        let hits = search(dir.path(), IndexKind::Topic, "\"sea the to\"", 10).expect("search");
        assert!(hits.is_empty(), "{hits:?}");
    }

    /// The DocView index searches its four fields with their weights: a word in one page's
    /// title and in another's topic content ranks the one whose field weighs more first, a
    /// keyword and an abstract are found, and a field of weight 0 is not searched.
    #[test]
    fn the_docview_index_weighs_its_fields() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut set = IndexSet::create_or_open(dir.path(), HEAP, 1).expect("create");
        let pages = [
            (
                0,
                "https://e.org/a",
                "Lighthouses",
                "A tower stands on the cape.",
                "",
                "",
            ),
            (
                1,
                "https://e.org/b",
                "Coasts",
                "The lighthouse keeper lit the lamp.",
                "",
                "",
            ),
            (
                2,
                "https://e.org/c",
                "Ports",
                "Ships unload grain.",
                "harbour\ncrane",
                "A quay.",
            ),
        ];
        for (seq, url, title, topic, keywords, abstract_text) in pages {
            let doc = IndexDoc {
                seq,
                url,
                title,
                body: topic,
                lang: "en",
                docview: Some(DocviewFields {
                    keywords,
                    abstract_text,
                }),
            };
            set.add(IndexKind::Docview, &doc).expect("add");
        }
        set.commit("p").expect("commit");
        set.finish().expect("finish");
        let top = |weights: &str, query: &str| {
            let index = OpenIndex::open(dir.path(), IndexKind::Docview)
                .expect("open")
                .with_weights(weights.parse().expect("weights"));
            let q = index.query(query, Combine::Any).expect("query");
            index.top_urls(q.as_ref(), 10).expect("top")
        };
        assert_eq!(
            top("title=5,topic=1", "lighthouse"),
            ["https://e.org/a", "https://e.org/b"]
        );
        assert_eq!(
            top("title=0.2,topic=5", "lighthouse"),
            ["https://e.org/b", "https://e.org/a"]
        );
        assert_eq!(top("title=0", "lighthouse"), ["https://e.org/b"]);
        assert_eq!(top("keywords=1", "crane"), ["https://e.org/c"]);
        assert_eq!(top("abstract=1", "quay"), ["https://e.org/c"]);
        assert!(top("keywords=0", "crane").is_empty());
        assert!(
            top("", "quay").is_empty(),
            "the default leaves the abstract out"
        );
        let size = kind_stats(dir.path(), IndexKind::Docview).expect("stats");
        let words = token_count("A tower stands on the cape. The lighthouse keeper lit the lamp.")
            + token_count("Ships unload grain. harbour crane A quay.");
        assert_eq!(size.terms, words);
    }

    #[test]
    fn index_kind_names() {
        for kind in IndexKind::ALL {
            assert_eq!(kind.as_str().parse::<IndexKind>().ok(), Some(kind));
            assert_eq!(kind.to_string(), kind.as_str());
        }
        assert_eq!("Topic".parse::<IndexKind>().ok(), Some(IndexKind::Topic));
        assert!(matches!(
            "raw".parse::<IndexKind>(),
            Err(Error::UnknownIndex(_))
        ));
    }

    #[test]
    fn writer_budget_respects_tantivy_limits() {
        let min = MIN_BYTES_PER_THREAD;
        assert_eq!(writer_budget(0, 4), (1, min));
        assert_eq!(writer_budget(min * 2, 4), (2, min));
        assert_eq!(writer_budget(min * 100, 4), (4, min * 25));
        assert_eq!(writer_budget(min * 100, 64).0, MAX_THREADS);
        assert_eq!(writer_budget(usize::MAX, 1), (1, MAX_BYTES_PER_THREAD));
        assert!(writer_budget(min * 100, 0).0 >= 1);
    }
}
