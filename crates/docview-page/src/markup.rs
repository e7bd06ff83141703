//! What a page's markup says about its kind, beyond the blocks the tag tree keeps: counts of
//! elements the tree drops or folds (forms, buttons, `<pre>`, tables, list items), the Open
//! Graph type, the schema.org types of its JSON-LD and microdata, a published-date meta, and
//! words of its class and id names (`price`, `cart`, `thread`, `toc`...). A product page, a
//! forum thread and a documentation page differ there more than in their words; the page-type
//! classifier (issue 14) reads these facts through [`crate::PageSignals`].
//!
//! Collected in the same walk that builds the tree ([`crate::build`]), cheaply: a match per
//! element and one multi-word scan over all class and id names at the end.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use html5ever::{LocalName, local_name};

use crate::dom::{AtomMap, Element};

/// Elements counted, by tag name.
pub const MARKUP_TAGS: &[&str] = &[
    "a",
    "article",
    "aside",
    "blockquote",
    "button",
    "code",
    "div",
    "dl",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "header",
    "iframe",
    "img",
    "input",
    "label",
    "li",
    "main",
    "nav",
    "ol",
    "option",
    "p",
    "pre",
    "section",
    "select",
    "span",
    "svg",
    "table",
    "textarea",
    "time",
    "ul",
    "video",
];

/// Words looked for inside class and id names (as substrings, so `product-card` counts both
/// `product` and `card`).
pub const NAME_WORDS: &[&str] = &[
    "article",
    "author",
    "avatar",
    "breadcrumb",
    "byline",
    "card",
    "cart",
    "comment",
    "content",
    "cta",
    "date",
    "docs",
    "entry",
    "feature",
    "filter",
    "footer",
    "forum",
    "gallery",
    "grid",
    "header",
    "hero",
    "highlight",
    "item",
    "listing",
    "menu",
    "message",
    "nav",
    "pagination",
    "post",
    "price",
    "pricing",
    "product",
    "qty",
    "rating",
    "related",
    "reply",
    "result",
    "review",
    "sidebar",
    "sku",
    "stock",
    "syntax",
    "tags",
    "testimonial",
    "thread",
    "tile",
    "toc",
    "topic",
    "user",
    "variant",
];

/// schema.org types counted (lowercase), from JSON-LD `@type` and microdata `itemtype`.
pub const SCHEMA_TYPES: &[&str] = &[
    "aggregaterating",
    "apireference",
    "article",
    "blogposting",
    "breadcrumblist",
    "collectionpage",
    "comment",
    "discussionforumposting",
    "event",
    "faqpage",
    "howto",
    "itemlist",
    "localbusiness",
    "newsarticle",
    "offer",
    "organization",
    "person",
    "product",
    "profilepage",
    "qapage",
    "question",
    "recipe",
    "review",
    "searchresultspage",
    "service",
    "socialmediaposting",
    "softwareapplication",
    "techarticle",
    "webpage",
    "website",
];

/// Open Graph types told apart (`og:type`); any other is none of them.
pub(crate) const OG_TYPES: &[&str] = &["article", "book", "product", "profile", "video", "website"];

/// The markup facts of one page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Markup {
    /// Elements seen, all tags.
    pub elements: u32,
    /// Elements of each tag of [`MARKUP_TAGS`], in its order.
    pub tags: Vec<u32>,
    /// The `og:type` meta, lowercase (empty when none).
    pub og_type: String,
    /// Occurrences of each type of [`SCHEMA_TYPES`], in its order.
    pub schema_types: Vec<u32>,
    /// True when a meta or element gives a publication date (`article:published_time`,
    /// `itemprop=datePublished`, `name=date`).
    pub published: bool,
    /// Occurrences of each word of [`NAME_WORDS`] in class and id names, in its order.
    pub name_words: Vec<u32>,
}

/// Gathers [`Markup`] element by element.
#[derive(Debug, Default)]
pub(crate) struct MarkupCounter {
    markup: Markup,
    /// Every class and id value seen, lowercase, space-separated.
    names: String,
}

/// The index in [`MARKUP_TAGS`] of each tag counted.
fn tag_index() -> &'static AtomMap<usize> {
    static M: OnceLock<AtomMap<usize>> = OnceLock::new();
    M.get_or_init(|| {
        MARKUP_TAGS
            .iter()
            .enumerate()
            .map(|(i, t)| (LocalName::from(*t), i))
            .collect()
    })
}

fn name_matcher() -> &'static AhoCorasick {
    static M: OnceLock<AhoCorasick> = OnceLock::new();
    M.get_or_init(|| AhoCorasick::new(NAME_WORDS).expect("fixed word list builds"))
}

impl MarkupCounter {
    pub(crate) fn new() -> MarkupCounter {
        MarkupCounter {
            markup: Markup {
                tags: vec![0; MARKUP_TAGS.len()],
                schema_types: vec![0; SCHEMA_TYPES.len()],
                ..Markup::default()
            },
            names: String::new(),
        }
    }

    /// Counts one element.
    pub(crate) fn element(&mut self, el: &Element) {
        self.markup.elements += 1;
        if let Some(&i) = tag_index().get(el.tag()) {
            self.markup.tags[i] += 1;
        }
        for name in [local_name!("class"), local_name!("id")] {
            if let Some(v) = el.attr(&name) {
                let from = self.names.len();
                self.names.push_str(v);
                self.names[from..].make_ascii_lowercase();
                self.names.push(' ');
            }
        }
        if let Some(t) = el.attr(&local_name!("itemtype")) {
            let last = t
                .trim()
                .trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or("");
            self.schema_type(last);
        }
        if let Some(p) = el.attr(&local_name!("itemprop"))
            && p.eq_ignore_ascii_case("datePublished")
        {
            self.markup.published = true;
        }
        if *el.tag() == local_name!("meta") {
            let key = el
                .attr(&local_name!("property"))
                .or_else(|| el.attr(&local_name!("name")))
                .unwrap_or("");
            if key.eq_ignore_ascii_case("og:type") {
                self.markup.og_type = el
                    .attr(&local_name!("content"))
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase();
            } else if key.eq_ignore_ascii_case("article:published_time")
                || key.eq_ignore_ascii_case("date")
            {
                self.markup.published = true;
            }
        }
    }

    /// Counts a schema.org type by its name.
    pub(crate) fn schema_type(&mut self, name: &str) {
        let lower = name.trim().to_ascii_lowercase();
        if let Ok(i) = SCHEMA_TYPES.binary_search(&lower.as_str()) {
            self.markup.schema_types[i] += 1;
        }
    }

    /// Counts the `@type` values anywhere in a parsed JSON-LD block.
    pub(crate) fn json_ld_types(&mut self, value: &serde_json::Value) {
        let mut stack = vec![value];
        while let Some(v) = stack.pop() {
            match v {
                serde_json::Value::Object(map) => {
                    for (k, v) in map {
                        if k == "@type" {
                            match v {
                                serde_json::Value::String(s) => self.schema_type(s),
                                serde_json::Value::Array(items) => {
                                    for s in items.iter().filter_map(|i| i.as_str()) {
                                        self.schema_type(s);
                                    }
                                }
                                _ => {}
                            }
                        } else {
                            stack.push(v);
                        }
                    }
                }
                serde_json::Value::Array(items) => stack.extend(items),
                _ => {}
            }
        }
    }

    /// The facts, with the name words counted.
    pub(crate) fn finish(mut self) -> Markup {
        let mut counts = vec![0u32; NAME_WORDS.len()];
        for m in name_matcher().find_overlapping_iter(&self.names) {
            counts[m.pattern().as_usize()] += 1;
        }
        self.markup.name_words = counts;
        self.markup
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_sorted_for_binary_search() {
        for list in [MARKUP_TAGS, SCHEMA_TYPES, OG_TYPES, NAME_WORDS] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
        }
    }

    #[test]
    fn a_product_page_s_markup() {
        let tree = crate::build(
            r#"<html><head><title>Kettle</title>
            <meta property="og:type" content="Product">
            <script type="application/ld+json">{"@context":"https://schema.org","@type":"Product",
              "offers":{"@type":"Offer","price":"30"},"aggregateRating":{"@type":["AggregateRating"]}}</script>
            </head><body><div class="product-card price-box" id="main">
            <form><select><option>1</option></select><button>Add to cart</button></form>
            <ul><li>Steel</li><li>1.7 l</li></ul>
            <div itemscope itemtype="https://schema.org/Review/"><span itemprop="datePublished">2026</span></div>
            </div></body></html>"#,
        );
        let m = &tree.markup;
        let tag = |t: &str| m.tags[MARKUP_TAGS.binary_search(&t).unwrap()];
        let schema = |t: &str| m.schema_types[SCHEMA_TYPES.binary_search(&t).unwrap()];
        let word = |w: &str| m.name_words[NAME_WORDS.iter().position(|x| *x == w).unwrap()];
        assert_eq!(m.og_type, "product");
        assert_eq!((tag("form"), tag("select"), tag("button")), (1, 1, 1));
        assert_eq!((tag("li"), tag("div"), tag("span")), (2, 2, 1));
        assert_eq!(tag("option"), 0, "inside a dropped <select>");
        assert_eq!(schema("product"), 1);
        assert_eq!(schema("offer"), 1);
        assert_eq!(schema("aggregaterating"), 1);
        assert_eq!(schema("review"), 1, "microdata itemtype");
        assert!(m.published);
        assert_eq!((word("product"), word("price"), word("card")), (1, 1, 1));
        assert_eq!(word("cart"), 0, "text is not a name");
    }
}
