//! A saved page's web address (issues 25 and 43): a local file (a `file://` URL) is known by the
//! address it declares, its `<link rel=canonical>` or else its `og:url` (resolved against the
//! file's URL; http or https only): where a page was saved says nothing of what it is. The one
//! rule for `extract`'s lines, `ingest`'s records and statistics, and the classifier's URL.

use url::Url;

/// The web address a local file at `file` declares: its canonical link (`canonical`, the
/// `href` as written), else its `og:url`, the first that resolves to an http or https URL.
pub fn declared_address(file: &Url, canonical: Option<&str>, og_url: Option<&str>) -> Option<Url> {
    [canonical, og_url]
        .into_iter()
        .flatten()
        .filter_map(|href| file.join(href).ok())
        .find(|u| matches!(u.scheme(), "http" | "https"))
}

/// The address a page found at `url` is known by when it is not `url` itself: a saved file's
/// (`file:`) [declared address](declared_address). `None` for any other URL, and for a file
/// that declares none.
pub fn known_address(url: &str, canonical: Option<&str>, og_url: Option<&str>) -> Option<String> {
    // Most pages come from records: only a file's URL is parsed.
    if !url
        .get(..5)
        .is_some_and(|s| s.eq_ignore_ascii_case("file:"))
    {
        return None;
    }
    Url::parse(url)
        .ok()
        .filter(|u| u.scheme() == "file")
        .and_then(|file| declared_address(&file, canonical, og_url))
        .map(String::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_known_by_the_address_it_declares() {
        let file = "file:///home/me/saved/listing.html";
        let canonical = Some("https://shop.example/list");
        assert_eq!(
            known_address(file, canonical, Some("https://og.example/x")).as_deref(),
            Some("https://shop.example/list")
        );
        // A relative or non-web canonical gives way to og:url.
        assert_eq!(
            known_address(file, Some("relative.html"), Some("https://og.example/x")).as_deref(),
            Some("https://og.example/x")
        );
        assert_eq!(known_address(file, Some("relative.html"), None), None);
        // A record's URL is its own address, whatever the page declares.
        assert_eq!(
            known_address("http://news.example/a", canonical, None),
            None
        );
        assert_eq!(known_address("", canonical, None), None);
    }
}
