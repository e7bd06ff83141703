//! Boilerplate and content evidence from an element's tag, class, id and ARIA role: the names
//! page authors give to navigation bars, footers, cookie banners, share bars, related-link lists
//! and comment threads, and to article bodies. Added to the paper's evidence (it predates them).

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use html5ever::{LocalName, local_name};
use rustc_hash::FxHashMap;
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
    if let Some(role) = role.map(str::trim) {
        const ROLES: [(&str, Hint); 9] = [
            ("navigation", Hint::Boilerplate("navigation")),
            ("banner", Hint::Boilerplate("banner")),
            ("contentinfo", Hint::Boilerplate("contentinfo")),
            ("complementary", Hint::Boilerplate("complementary")),
            ("search", Hint::Boilerplate("search")),
            ("dialog", Hint::Boilerplate("dialog")),
            ("alertdialog", Hint::Boilerplate("dialog")),
            ("main", Hint::Content("main")),
            ("article", Hint::Content("article")),
        ];
        if let Some((_, hint)) = ROLES.iter().find(|(r, _)| role.eq_ignore_ascii_case(r)) {
            return *hint;
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

/// The longest word of [`BOILERPLATE_WORDS`] and [`CONTENT_WORDS`]: longer words of a name
/// are none of them.
const LONGEST_WORD: usize = 16;

/// The hint each word of [`BOILERPLATE_WORDS`] and [`CONTENT_WORDS`] gives (boilerplate first).
fn word_hints() -> &'static FxHashMap<&'static [u8], Hint> {
    static M: OnceLock<FxHashMap<&'static [u8], Hint>> = OnceLock::new();
    M.get_or_init(|| {
        let content = CONTENT_WORDS.iter().map(|w| (w, Hint::Content(w)));
        let boilerplate = BOILERPLATE_WORDS.iter().map(|w| (w, Hint::Boilerplate(w)));
        // Later entries win: a word of both lists is boilerplate, as it is checked first.
        content
            .chain(boilerplate)
            .map(|(w, h)| (w.as_bytes(), h))
            .collect()
    })
}

/// Finds the [`BOILERPLATE_PARTS`] in a name, ignoring ASCII case.
fn parts_matcher() -> &'static AhoCorasick {
    static M: OnceLock<AhoCorasick> = OnceLock::new();
    M.get_or_init(|| {
        AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(BOILERPLATE_PARTS)
            .expect("fixed word list builds")
    })
}

/// The hint of one class or id attribute value: its first word (split on all but ASCII
/// letters and digits, ASCII case ignored) of [`BOILERPLATE_WORDS`], else the first part of
/// [`BOILERPLATE_PARTS`] in it when no word is of [`CONTENT_WORDS`], else its first content
/// word.
fn name_hint(name: &str) -> Option<Hint> {
    if name.is_empty() || name.len() > 512 {
        return None;
    }
    let words = word_hints();
    let mut content = None;
    let mut lower = [0u8; LONGEST_WORD];
    for word in name.as_bytes().split(|b| !b.is_ascii_alphanumeric()) {
        if word.is_empty() || word.len() > LONGEST_WORD {
            continue;
        }
        let lower = &mut lower[..word.len()];
        for (l, b) in lower.iter_mut().zip(word) {
            *l = b.to_ascii_lowercase();
        }
        match words.get(&*lower) {
            Some(hint @ Hint::Boilerplate(_)) => return Some(*hint),
            Some(hint) if content.is_none() => content = Some(*hint),
            _ => {}
        }
    }
    if content.is_none() {
        // The first part in list order found anywhere in the name.
        let part = parts_matcher()
            .find_overlapping_iter(name)
            .map(|m| m.pattern().as_usize())
            .min();
        if let Some(p) = part {
            return Some(Hint::Boilerplate(BOILERPLATE_PARTS[p]));
        }
    }
    content
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint_of(tag: &str, id: Option<&str>, class: Option<&str>, role: Option<&str>) -> Hint {
        super::hint_of(&LocalName::from(tag), id, class, role)
    }

    #[test]
    fn no_listed_word_is_longer_than_the_longest() {
        for w in BOILERPLATE_WORDS.iter().chain(CONTENT_WORDS) {
            assert!(w.len() <= LONGEST_WORD, "{w}");
        }
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
        assert_eq!(
            hint_of("div", None, None, Some(" AlertDialog ")),
            Hint::Boilerplate("dialog")
        );
        // A boilerplate word wins over an earlier content word; a content word over a part.
        assert_eq!(
            hint_of("div", None, Some("Post-Body Share_Bar"), None),
            Hint::Boilerplate("share")
        );
        assert_eq!(
            hint_of("div", None, Some("entry socialwrap"), None),
            Hint::Content("entry")
        );
        // Parts are found in any case, the first of the list winning.
        assert_eq!(
            hint_of("span", Some("myCommentsPopupFooter"), None, None),
            Hint::Boilerplate("footer")
        );
        assert_eq!(
            hint_of("div", None, Some("été-navbar"), None),
            Hint::Boilerplate("navbar")
        );
        let long = format!("{} nav", "x".repeat(600));
        assert_eq!(hint_of("div", None, Some(&long), None), Hint::None);
    }
}
