//! A page's web address (issue 25): the URL the page is known by on the web, which the
//! classifier reads its URL features from and a local file's relative links resolve against.
//! A record's URL (WARC, JSONL) is its web address. A local file (a `file://` URL) has the
//! address it declares, its `<link rel=canonical>` or else its `og:url` (resolved against the
//! file's URL; http or https only), and none otherwise: where a page was saved says nothing of
//! what it is.

use url::Url;

use crate::site::PageUrl;
use crate::topic::TopicPage;

/// The web address a local file at `file` declares: its canonical link, else its `og:url`,
/// the first that resolves to an http or https URL.
pub fn declared_address(file: &Url, page: &TopicPage) -> Option<Url> {
    docview_extract::declared_address(file, page.canonical.as_deref(), page.og_url.as_deref())
}

/// The web address of `page`, found at `page_url`: that URL as the record gives it, unless it
/// is a local file's (`file:`), whose address is the one it declares ([`declared_address`]);
/// `None` for a file that declares none, and for an empty URL.
pub fn web_address(page_url: &PageUrl<'_>, page: &TopicPage) -> Option<String> {
    match page_url.parsed() {
        Some(file) if file.scheme() == "file" => declared_address(file, page).map(String::from),
        _ if page_url.as_str().trim().is_empty() => None,
        _ => Some(page_url.as_str().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integrate::tests::page;

    #[test]
    fn a_record_url_is_the_address_and_a_file_has_the_one_it_declares() {
        let plain = page("<html><body><p>Text.</p></body></html>");
        let record = "http://news.example/2024/05/flood.html?x=1";
        assert_eq!(
            web_address(&PageUrl::parse(record), &plain).as_deref(),
            Some(record)
        );
        // A record's URL stays as given, whatever the page declares.
        let declaring = page(
            "<html><head><link rel=canonical href='https://elsewhere.example/a'></head>\
             <body><p>Text.</p></body></html>",
        );
        assert_eq!(
            web_address(&PageUrl::parse(record), &declaring).as_deref(),
            Some(record)
        );
        // A file: its canonical link, else its og:url, else nothing.
        let file = "file:///home/me/saved/product/listing.html";
        assert_eq!(
            web_address(&PageUrl::parse(file), &declaring).as_deref(),
            Some("https://elsewhere.example/a")
        );
        let og = page(
            "<html><head><link rel=canonical href='relative.html'>\
             <meta property=og:url content='https://og.example/story'></head>\
             <body><p>Text.</p></body></html>",
        );
        assert_eq!(
            web_address(&PageUrl::parse(file), &og).as_deref(),
            Some("https://og.example/story")
        );
        assert_eq!(web_address(&PageUrl::parse(file), &plain), None);
        assert_eq!(web_address(&PageUrl::parse(""), &plain), None);
    }
}
