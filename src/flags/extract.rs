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
    /// The topic content as Markdown: headings, paragraphs, lists, tables, fenced code blocks
    /// kept verbatim, links and images with absolute URLs (resolved against --url, else the
    /// page's declared address).
    Markdown,
}

#[derive(Debug, clap::Args)]
pub struct ExtractArgs {
    /// Page files to clean: HTML, gzip-compressed HTML (found by content, whatever the name),
    /// or `-` for standard input.
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
    /// or detection, in that order.
    #[arg(long, value_name = "LABEL")]
    pub charset: Option<String>,
    #[command(flatten)]
    pub limits: LimitArgs,
}
