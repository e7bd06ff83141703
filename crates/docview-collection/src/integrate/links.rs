//! The relevant hyperlinks element (004 §6): the links inside the topic content, and, on a
//! topic page, the links of each hub-type leaf block outside it whose text is close enough to
//! the topic (cosine with the topic feature vector above β). Links to the page itself, scripts
//! and mail addresses are left out, and so are the page's mail-this-story, share and print
//! links ([`is_story_action`]): a page does not relate to itself.
//!
//! A link is to the page itself when it is one of the page's addresses after dropping the
//! fragment and a trailing slash of the path (`/story/` is `/story`).
//!
//! Hrefs resolve against the page's **link base** ([`link_base`]), as a browser does: the
//! page's `<base href>`, resolved against its address; else its address. The address is the
//! record's URL, except for a local file (a `file://` URL) whose page declares its web address
//! (`<link rel=canonical>`, else `og:url`: [`declared_address`]): its links belong to that
//! address, not to the folder it was saved in.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use url::{Position, Url};

use super::Context;
use super::address::declared_address;
use crate::measure::FeatureVector;
use crate::page::PageType;
use crate::site::PageUrl;
use crate::topic::{LinkPlace, TopicPage};

/// A relevant hyperlink.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RelevantLink {
    /// The absolute URL.
    pub url: String,
    /// The anchor text.
    pub anchor_text: String,
    /// Why it is relevant: it sits in the topic content, or in a hub block close to the topic.
    pub source: LinkSource,
    /// For a hub block's link: the block's cosine with the topic.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub similarity: Option<f32>,
}

/// Where a relevant link was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkSource {
    /// Inside the topic content.
    TopicContent,
    /// In a hub block outside it whose cosine with the topic exceeds β.
    HubBlock,
}

/// Where a page's link base came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkBaseSource {
    /// The page's `<base href>`.
    BaseHref,
    /// The page's `<link rel=canonical>` or `og:url` (a local file's web address).
    Canonical,
    /// The record's URL.
    Url,
    /// Nothing usable: only absolute hrefs resolve.
    None,
}

/// The URL a page's relative hrefs resolve against, and the page's own addresses.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkBase {
    /// The base URL, when there is one.
    pub url: Option<Url>,
    /// Where it came from.
    pub source: LinkBaseSource,
    /// The page's addresses (its URL, and its canonical address where that replaced a local
    /// file's) as [`self_key`] writes them: links to them are self links.
    own: Vec<String>,
    /// What names the page in another link's path or query ([`story_names`]).
    story: Vec<String>,
}

/// Words that begin the path word of a link that mails, shares or prints a story
/// (`/cgi-bin/mailstory.pl`, `/email.cgi`, `/share`, `/sharer.php`, `/print/`).
const STORY_ACTIONS: &[&str] = &["mail", "email", "share", "print", "send"];

/// A page address as self links are compared: without fragment, without a trailing slash of
/// its path; sliced out of `url` unless there is a slash to take off.
fn self_key(url: &Url) -> Cow<'_, str> {
    let path = url.path();
    if path.len() > 1 && path.ends_with('/') {
        let trimmed = path.trim_end_matches('/');
        let mut key = url.clone();
        key.set_fragment(None);
        key.set_path(if trimmed.is_empty() { "/" } else { trimmed });
        Cow::Owned(key.into())
    } else {
        Cow::Borrowed(without_fragment(url))
    }
}

/// What names a page at `url` inside another link: its URL without fragment, its path (unless
/// the root), and the last segment of its path (its file name, as `dredging.html`) when that
/// has 4 characters or more and is no index page (`index.html`, `default.asp`).
fn story_names(url: &Url) -> Vec<String> {
    let mut names = vec![without_fragment(url).to_string()];
    let path = url.path().trim_end_matches('/');
    if !path.is_empty() {
        names.push(path.to_string());
    }
    if let Some(name) = path.rsplit('/').next()
        && name.chars().count() >= 4
        && !name.starts_with("index.")
        && !name.starts_with("default.")
    {
        names.push(name.to_string());
    }
    names
}

/// True for a link that mails, shares or prints the page rather than leading anywhere new
/// (issue 25): its path or one of its query's keys or values (decoded) holds one of the page's
/// [`story_names`], and a word of its path outside those names begins with one of
/// [`STORY_ACTIONS`]. Narrow on purpose: `/tag/email/` or a story about shareholders stays
/// unless it names this page, and a page's own words (`/printers/review.html?page=2` from
/// `/printers/review.html`) are no action.
fn is_story_action(base: &LinkBase, url: &Url) -> bool {
    let names = |text: &str| base.story.iter().any(|name| text.contains(name.as_str()));
    let named = names(url.path())
        || url
            .query_pairs()
            .any(|(key, value)| names(&key) || names(&value));
    if !named {
        return false;
    }
    let mut path = url.path().to_string();
    for name in &base.story {
        path = path.replace(name.as_str(), " ");
    }
    path.to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|word| STORY_ACTIONS.iter().any(|a| word.starts_with(a)))
}

/// `url` without its fragment, sliced out of it.
fn without_fragment(url: &Url) -> &str {
    &url[..Position::AfterQuery]
}

/// The link base of a page at `page_url` (see the module's rule).
pub fn link_base(page_url: &PageUrl<'_>, page: &TopicPage) -> LinkBase {
    let record = page_url.parsed().cloned();
    let mut own: Vec<String> = record.iter().map(|u| self_key(u).into_owned()).collect();
    let mut story: Vec<String> = record.iter().flat_map(story_names).collect();
    let canonical = record
        .as_ref()
        .filter(|u| u.scheme() == "file")
        .and_then(|u| declared_address(u, page));
    let (address, source) = match (canonical, record) {
        (Some(c), _) => {
            own.push(self_key(&c).into_owned());
            story.extend(story_names(&c));
            (Some(c), LinkBaseSource::Canonical)
        }
        (None, Some(u)) => (Some(u), LinkBaseSource::Url),
        (None, None) => (None, LinkBaseSource::None),
    };
    let from_base = page.base_href.as_deref().and_then(|href| {
        match &address {
            Some(a) => a.join(href).ok(),
            None => Url::parse(href).ok(),
        }
        .filter(|u| matches!(u.scheme(), "http" | "https" | "file"))
    });
    let (url, source) = match from_base {
        Some(b) => (Some(b), LinkBaseSource::BaseHref),
        None => (address, source),
    };
    LinkBase {
        url,
        source,
        own,
        story,
    }
}

/// The relevant links of a page whose topic feature vector is `topic`, resolved against
/// `base`.
pub fn relevant_links(
    base: &LinkBase,
    page: &TopicPage,
    topic: &FeatureVector,
    cx: Context<'_>,
) -> Vec<RelevantLink> {
    // Hub leaf blocks outside the topic content, judged once each (§6 algorithm).
    let mut accepted_hub: Vec<Option<f32>> = vec![None; page.hub_blocks.len()];
    if page.page_type == PageType::Topic && !topic.is_empty() {
        for (i, accepted) in accepted_hub.iter_mut().enumerate() {
            let block = page
                .hub_features(i, cx.analyzer)
                .scaled_by(|t| cx.stats.idf(t));
            let similarity = block.cosine(topic);
            if similarity > cx.params.beta {
                *accepted = Some(similarity);
            }
        }
    }
    let mut out: Vec<RelevantLink> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for link in &page.links {
        let (source, similarity) = match link.place {
            LinkPlace::Topic => (LinkSource::TopicContent, None),
            LinkPlace::Hub(i) => match accepted_hub.get(i as usize).copied().flatten() {
                Some(s) => (LinkSource::HubBlock, Some(s)),
                None => continue,
            },
        };
        let Some(url) = resolve(base, &link.href) else {
            continue;
        };
        if seen.insert(url.clone()) {
            out.push(RelevantLink {
                url,
                anchor_text: link.anchor_text.clone(),
                source,
                similarity,
            });
        }
    }
    out
}

/// The absolute URL of a link, without fragment; `None` for a link to the page itself or one
/// that mails, shares or prints it, to a script, a mail address or anything not http(s) (or
/// file, for local pages).
fn resolve(base: &LinkBase, href: &str) -> Option<String> {
    let href = href.trim();
    if href.is_empty() || href.starts_with('#') {
        return None;
    }
    let url = match &base.url {
        Some(base) => base.join(href).ok()?,
        None => Url::parse(href).ok()?,
    };
    let local_ok = base.url.as_ref().is_some_and(|b| b.scheme() == "file");
    match url.scheme() {
        "http" | "https" => {}
        "file" if local_ok => {}
        _ => return None,
    }
    let key = self_key(&url);
    if base.own.iter().any(|own| *own == *key) || is_story_action(base, &url) {
        return None;
    }
    Some(without_fragment(&url).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The base of a page at `url` with no `<base href>` and no declared address.
    fn base_of(url: &str) -> LinkBase {
        let page_url = Url::parse(url).unwrap();
        LinkBase {
            own: vec![self_key(&page_url).into_owned()],
            story: story_names(&page_url),
            url: Some(page_url),
            source: LinkBaseSource::Url,
        }
    }

    #[test]
    fn resolve_drops_fragments_and_self_links_with_or_without_a_trailing_slash() {
        let base = base_of("https://example.org/news/story/#top");
        let cases = [
            ("/news/story", None),
            ("/news/story/", None),
            ("/news/story/#comments", None),
            ("#comments", None),
            ("https://example.org/news/story//", None),
            ("other#part", Some("https://example.org/news/story/other")),
            ("/news/?page=2#x", Some("https://example.org/news/?page=2")),
            ("/news/%2e/story/", None),
            (
                "/news/story?x=1",
                Some("https://example.org/news/story?x=1"),
            ),
            ("mailto:a@example.org", None),
            (" HTTPS://Example.org/A/b ", Some("https://example.org/A/b")),
        ];
        for (href, want) in cases {
            assert_eq!(resolve(&base, href).as_deref(), want, "{href}");
            // The same as writing the URL without its fragment.
            if let Some(got) = resolve(&base, href) {
                let mut url = base.url.as_ref().unwrap().join(href.trim()).unwrap();
                url.set_fragment(None);
                assert_eq!(got, url.to_string());
            }
        }
        let plain = base_of("https://example.org/about");
        assert_eq!(resolve(&plain, "/about#team"), None);
        assert_eq!(resolve(&plain, "/about/"), None);
        assert_eq!(
            resolve(&plain, "/about/team").as_deref(),
            Some("https://example.org/about/team")
        );
    }
}
