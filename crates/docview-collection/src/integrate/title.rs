//! The title element (004 §6): the page's `<title>`, unless it means nothing; then its
//! headline, else its heaviest keywords.

use crate::stats::CollectionStats;
use crate::text::Language;

/// Titles that editing tools and templates put on pages, lowercased, without punctuation
/// (the paper's "Untitled Document" and "New Page", and their kin).
const MEANINGLESS: &[&str] = &[
    "untitled",
    "untitled document",
    "untitled page",
    "untitled 1",
    "new page",
    "new page 1",
    "new document",
    "document",
    "home",
    "home page",
    "homepage",
    "index",
    "default",
    "welcome",
    "title",
    "无标题文档",
    "无标题页",
    "无标题",
    "新建网页",
    "新建网页 1",
    "新建文档",
    "首页",
    "主页",
    "网站首页",
];

/// True when `title` says nothing about the page: empty, a tool's default, or the name of a
/// site that every page of it carries.
pub fn is_meaningless_title(title: &str, site: Option<&str>, stats: &CollectionStats) -> bool {
    let folded: String = title
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_lowercase().next().unwrap_or(c)
            } else {
                ' '
            }
        })
        .collect();
    let folded = folded.split_whitespace().collect::<Vec<_>>().join(" ");
    folded.is_empty()
        || MEANINGLESS.contains(&folded.as_str())
        || site.is_some_and(|s| stats.is_shared_title(s, title))
}

/// The DocView title: `original` when it means something; else the page's `headline` (its
/// `<h1>` or the bold line heading its topic content, [`docview_extract::topic::headline`]) when that
/// means something; else the one or two heaviest `keywords` (true in the second place then).
/// With neither the original stays.
pub fn title_of(
    original: &str,
    headline: Option<&str>,
    site: Option<&str>,
    stats: &CollectionStats,
    keywords: &[String],
    lang: Language,
) -> (String, bool) {
    if !is_meaningless_title(original, site, stats) {
        return (original.to_string(), false);
    }
    if let Some(headline) = headline.filter(|h| !is_meaningless_title(h, site, stats)) {
        return (headline.to_string(), false);
    }
    if keywords.is_empty() {
        return (original.to_string(), false);
    }
    let sep = if lang.writes_without_spaces() {
        ""
    } else {
        " "
    };
    let title = keywords
        .iter()
        .take(2)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(sep);
    (title, true)
}
