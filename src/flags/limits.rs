//! The limits of what one page may cost, flags of `docview extract` and `docview ingest`
//! (and so of `docview stages plan`).

use docview::extract::PageLimits;

/// What one page may cost; a page past a limit is cut there and its record says so.
#[derive(Debug, clap::Args)]
pub struct LimitArgs {
    /// Most decoded HTML parsed per page, in MiB; the rest of a bigger page is cut (parsing
    /// takes about 30 times a page's size in memory).
    #[arg(long, value_name = "MIB", default_value_t = PageLimits::default().max_html_bytes >> 20)]
    pub max_page_mb: usize,
    /// Most elements (start tags) parsed per page; the rest of the page is cut.
    #[arg(long, value_name = "N", default_value_t = PageLimits::default().max_tags)]
    pub max_page_tags: usize,
}
