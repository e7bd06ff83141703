//! A page's address as the collection layer reads it: the URL parsed once ([`PageUrl`]), and
//! the one definition of the site a page belongs to ([`Site`]), which the shared-title rule,
//! the site templates and the site models of a site-aware cleaner all read.

use url::Url;

/// The site a page belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Site {
    /// The host of an http or https URL, lowercase: a web site. Site templates and the site
    /// models of a site-aware cleaner are learnt per web site.
    Web(String),
    /// The host of a URL of another scheme (`ftp:`, …), lowercase.
    Host(String),
    /// The folder of a local file (`file:`): its saved pages share titles the way a site's do,
    /// but a folder of saved pages is seldom one site's template.
    Folder(String),
}

impl Site {
    /// The site of `url`; none for a URL without a host that is not a file's.
    pub fn of(url: &Url) -> Option<Site> {
        match url.scheme() {
            "file" => {
                let path = url.path();
                Some(Site::Folder(
                    path[..path.rfind('/').unwrap_or(0)].to_string(),
                ))
            }
            "http" | "https" => url.host_str().map(|h| Site::Web(h.to_ascii_lowercase())),
            _ => url.host_str().map(|h| Site::Host(h.to_ascii_lowercase())),
        }
    }

    /// Its name: the host, or the folder's path. Pages with the same name share titles.
    pub fn name(&self) -> &str {
        match self {
            Site::Web(name) | Site::Host(name) | Site::Folder(name) => name,
        }
    }

    /// The web site's host, for site templates and site models; none for another kind.
    pub fn web_host(&self) -> Option<&str> {
        match self {
            Site::Web(host) => Some(host),
            Site::Host(_) | Site::Folder(_) => None,
        }
    }
}

/// A page's URL as its record gives it, parsed once, with its [`Site`].
#[derive(Debug, Clone, PartialEq)]
pub struct PageUrl<'a> {
    text: &'a str,
    parsed: Option<Url>,
    site: Option<Site>,
}

impl<'a> PageUrl<'a> {
    /// Parses `text` (a URL that does not parse is kept as text, with no site).
    pub fn parse(text: &'a str) -> PageUrl<'a> {
        let parsed = Url::parse(text).ok();
        let site = parsed.as_ref().and_then(Site::of);
        PageUrl { text, parsed, site }
    }

    /// The URL as the record gives it.
    pub fn as_str(&self) -> &'a str {
        self.text
    }

    /// The parsed URL, if it parses.
    pub fn parsed(&self) -> Option<&Url> {
        self.parsed.as_ref()
    }

    /// Its site.
    pub fn site(&self) -> Option<&Site> {
        self.site.as_ref()
    }

    /// Its web site's host (see [`Site::web_host`]).
    pub fn web_host(&self) -> Option<&str> {
        self.site.as_ref().and_then(Site::web_host)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sites_are_web_hosts_other_hosts_or_folders() {
        let web = PageUrl::parse("http://News.Example:8080/a/b.html");
        assert_eq!(web.site(), Some(&Site::Web("news.example".into())));
        assert_eq!(web.web_host(), Some("news.example"));
        assert_eq!(web.as_str(), "http://News.Example:8080/a/b.html");
        let file = PageUrl::parse("file:///data/crawl/site-a/page.html");
        assert_eq!(file.site().map(Site::name), Some("/data/crawl/site-a"));
        assert_eq!(file.web_host(), None);
        let ftp = PageUrl::parse("ftp://Files.Example/x.html");
        assert_eq!(ftp.site().map(Site::name), Some("files.example"));
        assert_eq!(ftp.web_host(), None);
        let bad = PageUrl::parse("not a url");
        assert_eq!((bad.site(), bad.parsed()), (None, None));
        assert_eq!(bad.as_str(), "not a url");
    }
}
