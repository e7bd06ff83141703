//! The arguments of `docview extract`: the pages, the output format, the cleaner.

use std::path::PathBuf;

use clap::ValueEnum;
use docview::clean::{CleanerKind, DEFAULT_CLEANER, Favor};

use super::cleaner::cleaner_kind;
use super::favor::{FAVOR_HELP, favor};

use super::limits::LimitArgs;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The topic content as plain text: headings on their own lines, paragraphs separated by
    /// blank lines.
    Text,
    /// One JSON object per page: page type, title, charset, topic root, paragraphs, and every
    /// block of the tag tree with its weight, type, verdict and the reason.
    Json,
    /// The topic content page (004 §4.2): the purified page in its original layout.
    Html,
    /// The topic content as Markdown: headings, paragraphs, lists, tables, bold and italics,
    /// fenced code blocks
    /// kept verbatim, links and images with absolute URLs (resolved against --url, else the
    /// page's declared address).
    Markdown,
    /// One compact JSON object per line and page, in input order, for many pages: `url`,
    /// `origin` (where it was read), `warc_record_id` and `warc_date` (for a page of a WARC),
    /// `title`, `text` (the topic content; `markdown` instead with --markdown), `page_type`,
    /// `classification_code` and `classification` (with --classify), `language`, `metadata`,
    /// `comments` (with --comments), then a JSON line's other fields. PAGE may then also be a
    /// folder, a WARC or JSON Lines file, or `-` (a WARC, JSON Lines or one page on standard
    /// input), read as `docview ingest` reads them.
    Jsonl,
}

#[derive(Debug, clap::Args)]
pub struct ExtractArgs {
    /// Page files to clean: HTML, gzip-compressed HTML (found by content, whatever the name),
    /// or `-` for standard input. With --format jsonl, also folders of pages (recursive),
    /// WARC or WARC.gz files and JSON Lines files of {"url", "html"} lines.
    #[arg(required = true, value_name = "PAGE")]
    pub pages: Vec<PathBuf>,
    /// The page's URL (with one PAGE only): reported in JSON output, and what the Markdown
    /// output resolves relative links and images against.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The cleaner to use. A site-aware one (infodiscoverer, wisdom) has no site to learn from
    /// in a page alone and cleans it with the default cleaner (the JSON report's `site_model`
    /// says so); `docview eval` and `docview ingest` show it each site's pages together.
    #[arg(long, value_name = "NAME", default_value = DEFAULT_CLEANER, value_parser = cleaner_kind())]
    pub cleaner: CleanerKind,
    /// The learned cleaner's block model file, from `docview train-cleaner` (default: the model
    /// inside the binary).
    #[arg(long, value_name = "MODEL")]
    pub model: Option<PathBuf>,
    #[arg(long, value_name = "FAVOR", default_value = "balanced", value_parser = favor(), help = FAVOR_HELP)]
    pub favor: Favor,
    /// The charset the page was served with (an HTTP Content-Type charset). Without it the
    /// charset comes from the byte order mark, a UTF-8 check, the page's <meta> declaration,
    /// or detection, in that order. An unknown label is refused.
    #[arg(long, value_name = "LABEL", value_parser = super::charset)]
    pub charset: Option<String>,
    /// With --format jsonl: each page's topic content as Markdown, in `markdown`, instead of
    /// plain text in `text`.
    #[arg(long)]
    pub markdown: bool,
    /// With --format markdown or text: each page's metadata first, as YAML front matter
    /// between `---` lines (title, author, url, hostname, description, sitename, date,
    /// modified, image, categories, tags, language; what the page does not give left out), as
    /// trafilatura's `--with-metadata` writes it. A jsonl line has it in `metadata`.
    #[arg(long)]
    pub with_metadata: bool,
    /// With --format text, markdown or jsonl: leave the data tables out (the tables the
    /// Markdown sets as tables; a table that lays the page out stays), as trafilatura's
    /// `--no-tables`.
    #[arg(long)]
    pub no_tables: bool,
    /// With --format markdown (or jsonl --markdown): a link's text without its address.
    #[arg(long)]
    pub no_links: bool,
    /// With --format markdown (or jsonl --markdown): no images.
    #[arg(long)]
    pub no_images: bool,
    /// With --format jsonl: each page's comment section as plain text, in `comments` (left
    /// out when the page shows none), as trafilatura's `include_comments` gives it: the
    /// outermost visible blocks whose class or id names comments (`comments`, `comment-list`,
    /// `disqus_thread`), without their reply form. Never a part of `text` or `markdown`. A
    /// thread a script loads is not in the page.
    #[arg(long)]
    pub comments: bool,
    /// Write the output to FILE instead of standard output: a regular file (or the one a link
    /// names) is replaced only once complete, so an interrupted run leaves no half-written
    /// file; a device or named pipe is written in place.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// With --format jsonl: worker threads that clean pages (0: one per core). The lines come
    /// in input order whatever the number.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = super::threads)]
    pub threads: usize,
    /// With --format jsonl: the key of a JSON Lines input's page address. A line's other
    /// fields (a user's `id`) follow docview's own in its output line.
    #[arg(long, value_name = "KEY", default_value = "url")]
    pub url_field: String,
    /// With --format jsonl: the key of a JSON Lines input's page HTML.
    #[arg(long, value_name = "KEY", default_value = "html")]
    pub html_field: String,
    /// With --format jsonl: classify each page as `docview ingest` does, with the classifiers
    /// inside the binary or --classifier's: each line gets its `classification_code` (its
    /// subject, `medtop:15000000`), `subject` (code, label, score, or why none) and `genre`
    /// (wcxb-dev's page types: class, score, model), and its `page_type` is the DocView type
    /// (the cleaner's type and the genre together) instead of the cleaner's. It costs about a
    /// fifth more time a page.
    #[arg(long)]
    pub classify: bool,
    /// With --format jsonl: a classifier model of --classify (which it implies), from
    /// `docview classify train`, told by its file: a subject model (`--scheme`) or a genre
    /// model (trees or kNN). Give it twice for one of each.
    #[arg(long, value_name = "MODEL")]
    pub classifier: Vec<PathBuf>,
    /// With --format jsonl: no progress lines on standard error.
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
}
