//! Boilerplate and content evidence from an element's tag, class, id and ARIA role: the names
//! page authors give to navigation bars, footers, cookie banners, share bars, related-link lists
//! and comment threads, and to article bodies. Added to the paper's evidence (it predates them).

use html5ever::{LocalName, local_name};
use serde::Serialize;

/// What an element's names say about its block.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "word", rename_all = "lowercase")]
pub enum Hint {
    /// Nothing either way.
    #[default]
    None,
    /// Named like boilerplate; the word that said so.
    Boilerplate(&'static str),
    /// Named like the main content; the word that said so.
    Content(&'static str),
}

impl Hint {
    /// True for [`Hint::Boilerplate`].
    pub fn is_boilerplate(self) -> bool {
        matches!(self, Hint::Boilerplate(_))
    }

    /// True for [`Hint::Content`].
    pub fn is_content(self) -> bool {
        matches!(self, Hint::Content(_))
    }
}

/// Words of class / id names that mark boilerplate, matched as a whole word of the name (split on
/// `-`, `_`, space and case changes are not split).
const BOILERPLATE_WORDS: &[&str] = &[
    "nav",
    "navbar",
    "navigation",
    "menu",
    "menubar",
    "submenu",
    "megamenu",
    "footer",
    "sidebar",
    "breadcrumb",
    "breadcrumbs",
    "cookie",
    "cookies",
    "consent",
    "gdpr",
    "share",
    "sharing",
    "social",
    "related",
    "comments",
    "comment",
    "disqus",
    "advert",
    "advertisement",
    "ads",
    "ad",
    "adsense",
    "sponsor",
    "sponsored",
    "promo",
    "newsletter",
    "subscribe",
    "subscription",
    "signup",
    "popup",
    "masthead",
    "toolbar",
    "pagination",
    "pager",
    "outbrain",
    "taboola",
    "recommended",
    "recommendations",
    "skip",
    "login",
    "copyright",
    "byline",
    "breaking",
    "topbar",
    "reviews",
    "carousel",
    "swatch",
    "swatches",
    "cart",
    "wishlist",
    "upsell",
    "crosssell",
    "recently",
    "offcanvas",
];

/// Substrings of class / id names that mark boilerplate even inside compound words.
const BOILERPLATE_PARTS: &[&str] = &[
    "sidebar",
    "navbar",
    "footer",
    "breadcrumb",
    "cookie",
    "newsletter",
    "social",
    "share",
    "related",
    "comment",
    "advert",
    "popup",
    "subscribe",
];

/// Words of class / id names that mark the main content.
const CONTENT_WORDS: &[&str] = &[
    "article", "content", "post", "entry", "main", "story", "prose", "markdown", "richtext",
    "body", "text", "blog", "question", "answer",
];

/// The hint of an element from its tag name and attributes.
pub(crate) fn hint_of(
    tag: &LocalName,
    id: Option<&str>,
    class: Option<&str>,
    role: Option<&str>,
) -> Hint {
    if *tag == local_name!("nav") {
        return Hint::Boilerplate("nav");
    } else if *tag == local_name!("footer") {
        return Hint::Boilerplate("footer");
    } else if *tag == local_name!("aside") {
        return Hint::Boilerplate("aside");
    }
    if let Some(role) = role {
        match role.trim().to_ascii_lowercase().as_str() {
            "navigation" => return Hint::Boilerplate("navigation"),
            "banner" => return Hint::Boilerplate("banner"),
            "contentinfo" => return Hint::Boilerplate("contentinfo"),
            "complementary" => return Hint::Boilerplate("complementary"),
            "search" => return Hint::Boilerplate("search"),
            "dialog" | "alertdialog" => return Hint::Boilerplate("dialog"),
            "main" => return Hint::Content("main"),
            "article" => return Hint::Content("article"),
            _ => {}
        }
    }
    let names = [id, class];
    for name in names.into_iter().flatten() {
        if let Some(h) = name_hint(name) {
            return h;
        }
    }
    if *tag == local_name!("main") {
        Hint::Content("main")
    } else if *tag == local_name!("article") {
        Hint::Content("article")
    } else {
        Hint::None
    }
}

/// The hint of one class or id attribute value.
fn name_hint(name: &str) -> Option<Hint> {
    if name.is_empty() || name.len() > 512 {
        return None;
    }
    let lower = name.to_ascii_lowercase();
    let mut content = None;
    for word in lower.split(|c: char| !c.is_ascii_alphanumeric()) {
        if word.is_empty() {
            continue;
        }
        if let Some(w) = BOILERPLATE_WORDS.iter().find(|w| **w == word) {
            return Some(Hint::Boilerplate(w));
        }
        if content.is_none() {
            content = CONTENT_WORDS.iter().find(|w| **w == word).copied();
        }
    }
    if content.is_none()
        && let Some(p) = BOILERPLATE_PARTS.iter().find(|p| lower.contains(**p))
    {
        return Some(Hint::Boilerplate(p));
    }
    content.map(Hint::Content)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint_of(tag: &str, id: Option<&str>, class: Option<&str>, role: Option<&str>) -> Hint {
        super::hint_of(&LocalName::from(tag), id, class, role)
    }

    #[test]
    fn tags_roles_and_names() {
        assert_eq!(hint_of("nav", None, None, None), Hint::Boilerplate("nav"));
        assert_eq!(
            hint_of("div", None, None, Some("navigation")),
            Hint::Boilerplate("navigation")
        );
        assert_eq!(
            hint_of("div", Some("cookie-consent"), None, None),
            Hint::Boilerplate("cookie")
        );
        assert_eq!(
            hint_of("div", None, Some("entry-content clearfix"), None),
            Hint::Content("entry")
        );
        assert_eq!(
            hint_of("div", None, Some("site-sidebarwrap"), None),
            Hint::Boilerplate("sidebar")
        );
        assert_eq!(
            hint_of("div", None, Some("header shadow"), None),
            Hint::None
        );
        assert_eq!(hint_of("main", None, None, None), Hint::Content("main"));
    }
}
