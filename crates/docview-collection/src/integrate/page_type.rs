//! The DocView `type` element (004 §2): topic, hub or image, from two decisions together.
//!
//! The cleaner's decision of §4.1 (the type of the central block, [`TopicPage::page_type`])
//! sees one page's blocks; on wcxb-dev it types only 31 of 101 listing pages and 19 of 115
//! collection pages as hubs, because a listing's items (a title, a teaser, a date) weigh as
//! text. The page-type classifier sees the whole page (URL, markup, shape) and knows listings
//! and collections, but calls an occasional article a listing. A page is a hub when one of
//! three pieces of evidence holds ([`HubEvidence::docview_type`]):
//!
//! - its topic content **is a list of links**: at least [`LIST_LINKS`] links whose anchors
//!   hold at least [`LIST_LINK_SHARE`] of its terms;
//! - the classifier gives it a **class of lists** ([`HUB_CLASSES`]: the most probable class
//!   is one, or they hold [`HUB_CLASS_SHARE`] of its probability together, [`ListClass`]) and
//!   its topic content bears it out: some of its terms are links ([`HUB_LINK_SHARE`]) or its
//!   paragraphs are short items (fewer than [`ITEM_TERMS`] terms each on average);
//! - the cleaner's central block is a hub and the topic content bears it out: some of its
//!   terms are links, or it is a grid of tiles (fewer than [`TILE_TERMS`] terms a paragraph).
//!
//! Any other page is an image page when the cleaner said so, else a topic page.

use serde::{Deserialize, Serialize};

use crate::page::PageType;
use crate::text::count_tokens;
use crate::topic::{LinkPlace, TopicPage};

/// The classes of the page-type scheme (wcxb-dev's, the embedded classifier's) whose pages
/// are lists of links to other pages.
pub const HUB_CLASSES: [&str; 2] = ["listing", "collection"];
/// The share of the classifier's probability (the trees') or votes (the kNN's) that the
/// classes of lists need together for a page to be of a class of lists when neither is its
/// most probable class: a listing the trees split between listing and collection, or call a
/// service page at 0.35 against 0.4 for the two, is a list page. On wcxb-dev (5 folds, the
/// cleaner of issue 42) this types 82 of 101 listings and 12 of 789 articles as hubs, where the
/// most probable class alone typed 79 and 12 (0.35: 82 and 14; 0.45: 79 and 12).
pub const HUB_CLASS_SHARE: f32 = 0.4;
/// A topic content with at least [`LIST_LINKS`] links whose anchors hold at least this share
/// of its terms is a list of links.
pub const LIST_LINK_SHARE: f32 = 0.3;
/// See [`LIST_LINK_SHARE`].
pub const LIST_LINKS: usize = 5;
/// The share of the topic content's terms in link anchors that bears out a hub class or the
/// cleaner's hub: a list whose items link nowhere is not a hub.
pub const HUB_LINK_SHARE: f32 = 0.05;
/// A page of a hub class whose topic content has fewer terms than this a paragraph on
/// average is a list of short items (product tiles, headlines) even when few are links.
pub const ITEM_TERMS: usize = 25;
/// A page the cleaner typed hub whose topic content has fewer terms than this a paragraph on
/// average is a grid of tiles (names and prices), a hub even when its links are outside the
/// topic content.
pub const TILE_TERMS: usize = 10;

/// What the DocView type is decided from: the cleaner's type and how much of the topic
/// content is links.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HubEvidence {
    /// The type of §4.1, the cleaner's.
    pub cleaner_type: PageType,
    /// Links in the topic content.
    pub topic_links: usize,
    /// Terms of those links' anchor texts.
    pub anchor_terms: usize,
    /// Terms of the topic content.
    pub topic_terms: usize,
    /// Paragraphs of the topic content.
    pub paragraphs: usize,
}

impl HubEvidence {
    /// The evidence of a cleaned page.
    pub fn of(page: &TopicPage) -> HubEvidence {
        let (topic_links, anchor_terms) = page
            .links
            .iter()
            .filter(|l| l.place == LinkPlace::Topic)
            .fold((0, 0), |(n, terms), l| {
                (n + 1, terms + count_tokens(&l.anchor_text))
            });
        HubEvidence {
            cleaner_type: page.page_type,
            topic_links,
            anchor_terms,
            topic_terms: count_tokens(&page.topic_text),
            paragraphs: page.paragraphs.len(),
        }
    }

    /// The share of the topic content's terms in link anchors (0 for an empty topic content).
    pub fn link_share(&self) -> f32 {
        if self.topic_terms == 0 {
            return 0.0;
        }
        (self.anchor_terms as f32 / self.topic_terms as f32).min(1.0)
    }

    /// The DocView type, given what the classifier says of the classes of lists (`None`: no
    /// classifier, or a class by prior, which is no evidence).
    pub fn docview_type(&self, list_class: Option<ListClass>) -> PageType {
        let share = self.link_share();
        let listed = self.topic_links >= LIST_LINKS && share >= LIST_LINK_SHARE;
        let paragraphs = self.paragraphs.max(1);
        let short_items = self.topic_terms < ITEM_TERMS * paragraphs;
        let classed =
            list_class.is_some_and(ListClass::holds) && (share >= HUB_LINK_SHARE || short_items);
        let tiles = self.topic_terms < TILE_TERMS * paragraphs;
        let cleaner_hub = self.cleaner_type == PageType::Hub && (share >= HUB_LINK_SHARE || tiles);
        if listed || classed || cleaner_hub {
            PageType::Hub
        } else if self.cleaner_type == PageType::Image {
            PageType::Image
        } else {
            PageType::Topic
        }
    }
}

/// What a classification says of the classes of lists ([`HUB_CLASSES`]): what
/// [`HubEvidence::docview_type`] reads of the classifier.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ListClass {
    /// The most probable class is a class of lists.
    pub most_probable: bool,
    /// The share of the probability (the trees') or votes (the kNN's) the classes of lists
    /// hold together.
    pub share: f32,
}

impl ListClass {
    /// What `c` says of the classes of lists, given the model's `classes` (in the order of
    /// its shares); `None` for a class by prior, which is no evidence.
    pub fn of(c: &docview_classify::Classification, classes: &[String]) -> Option<ListClass> {
        (!c.prior).then(|| ListClass {
            most_probable: HUB_CLASSES.contains(&c.class.as_str()),
            share: c.share_of(classes, &HUB_CLASSES),
        })
    }

    /// The page is of a class of lists: the most probable class is one, or they hold
    /// [`HUB_CLASS_SHARE`] together.
    pub fn holds(self) -> bool {
        self.most_probable || self.share >= HUB_CLASS_SHARE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page the classifier calls an article: 5% of its probability on the classes of lists.
    const ARTICLE: Option<ListClass> = Some(ListClass {
        most_probable: false,
        share: 0.05,
    });
    /// A page the classifier calls a listing or a collection.
    const LISTING: Option<ListClass> = Some(ListClass {
        most_probable: true,
        share: 0.8,
    });

    fn classification(
        class: &str,
        shares: &[f32],
        prior: bool,
    ) -> docview_classify::Classification {
        docview_classify::Classification {
            class: class.to_string(),
            score: shares.iter().copied().fold(0.0, f32::max),
            prior,
            shares: shares.to_vec(),
        }
    }

    /// The classes of lists count together: a page the trees split between listing and
    /// collection, with service the most probable class, is of a class of lists, and so is one
    /// whose most probable class is listing at 0.35; a class by prior is no evidence.
    #[test]
    fn the_classes_of_lists_count_together() {
        let classes: Vec<String> = ["article", "collection", "listing", "service"]
            .iter()
            .map(|c| c.to_string())
            .collect();
        let teasers = evidence(PageType::Topic, 6, 40, 500, 10);
        let split = ListClass::of(
            &classification("service", &[0.1, 0.2, 0.3, 0.4], false),
            &classes,
        );
        let share = split.map(|l| l.share).unwrap_or_default();
        assert!((share - 0.5).abs() < 1e-6, "{split:?}");
        assert_eq!(teasers.docview_type(split), PageType::Hub);
        let listing = classification("listing", &[0.33, 0.0, 0.35, 0.32], false);
        assert_eq!(
            teasers.docview_type(ListClass::of(&listing, &classes)),
            PageType::Hub
        );
        let article = classification("article", &[0.6, 0.1, 0.2, 0.1], false);
        assert_eq!(
            teasers.docview_type(ListClass::of(&article, &classes)),
            PageType::Topic
        );
        let prior = classification("listing", &[], true);
        assert_eq!(ListClass::of(&prior, &classes), None);
        assert_eq!(
            teasers.docview_type(ListClass::of(&prior, &classes)),
            PageType::Topic
        );
    }

    fn evidence(
        cleaner_type: PageType,
        links: usize,
        anchor: usize,
        terms: usize,
        paragraphs: usize,
    ) -> HubEvidence {
        HubEvidence {
            cleaner_type,
            topic_links: links,
            anchor_terms: anchor,
            topic_terms: terms,
            paragraphs,
        }
    }

    #[test]
    fn a_list_of_links_is_a_hub_whatever_the_class() {
        let list = evidence(PageType::Topic, 12, 60, 150, 12);
        assert_eq!(list.docview_type(None), PageType::Hub);
        assert_eq!(list.docview_type(ARTICLE), PageType::Hub);
        // Four links are not a list, however much of the text they hold.
        let few = evidence(PageType::Topic, 4, 60, 100, 4);
        assert_eq!(few.docview_type(None), PageType::Topic);
    }

    #[test]
    fn a_hub_class_needs_links_or_short_items() {
        // A listing of teasers: 8% of its terms are links.
        let teasers = evidence(PageType::Topic, 6, 40, 500, 10);
        assert_eq!(teasers.docview_type(LISTING), PageType::Hub);
        assert_eq!(teasers.docview_type(ARTICLE), PageType::Topic);
        // An article the classifier calls a collection: long paragraphs, one link.
        let article = evidence(PageType::Topic, 1, 3, 800, 9);
        assert_eq!(article.docview_type(LISTING), PageType::Topic);
        // Product tiles with no links in the topic content: 12 terms a paragraph.
        let tiles = evidence(PageType::Topic, 0, 0, 120, 10);
        assert_eq!(tiles.docview_type(LISTING), PageType::Hub);
    }

    #[test]
    fn the_cleaners_hub_needs_links_or_tiles_and_its_image_stays() {
        let hub = evidence(PageType::Hub, 3, 10, 100, 3);
        assert_eq!(hub.docview_type(None), PageType::Hub);
        let linkless = evidence(PageType::Hub, 0, 0, 300, 3);
        assert_eq!(linkless.docview_type(None), PageType::Topic);
        // A grid of 40 tiles of 6 terms, its links outside the topic content.
        let tiles = evidence(PageType::Hub, 0, 0, 240, 40);
        assert_eq!(tiles.docview_type(None), PageType::Hub);
        assert_eq!(
            evidence(PageType::Topic, 0, 0, 240, 40).docview_type(None),
            PageType::Topic
        );
        let image = evidence(PageType::Image, 1, 2, 300, 3);
        assert_eq!(image.docview_type(ARTICLE), PageType::Image);
        assert_eq!(image.docview_type(LISTING), PageType::Image);
        assert_eq!(evidence(PageType::Topic, 0, 0, 0, 0).link_share(), 0.0);
    }

    /// A page of a dozen story links is a hub by its links alone; a paragraph of prose with
    /// no link is a topic page.
    #[test]
    fn the_evidence_of_cleaned_pages() {
        let cleaner = docview_clean::Framework::default();
        let list: String = (0..12)
            .map(|i| format!("<li><a href=/s{i}>Story number {i} of the week</a></li>"))
            .collect();
        let html = format!(
            "<html><head><title>Stories</title></head><body><nav><a href=/>Home</a></nav>\
             <div id=main><h1>This week's stories</h1><ul>{list}</ul></div></body></html>"
        );
        let page = crate::extract::extract_page(html.as_bytes(), None, "list.html", &cleaner)
            .expect("a page");
        let e = HubEvidence::of(&TopicPage::of(&page));
        assert!(e.topic_links >= 12, "{e:?}");
        assert!(e.anchor_terms >= 12 * 5, "{e:?}");
        assert!(e.link_share() >= 0.8, "{e:?}");
        assert_eq!(e.docview_type(ARTICLE), PageType::Hub);
        let plain = "<html><body><div><p>Tide pools hold anemones, crabs and small fish \
            between the tides, and the water grows salty as it evaporates.</p></div></body></html>";
        let page = crate::extract::extract_page(plain.as_bytes(), None, "p.html", &cleaner)
            .expect("a page");
        let e = HubEvidence::of(&TopicPage::of(&page));
        assert_eq!((e.topic_links, e.anchor_terms, e.paragraphs), (0, 0, 1));
        assert_eq!(e.docview_type(ARTICLE), PageType::Topic);
        assert_eq!(e.docview_type(None), PageType::Topic);
    }
}
