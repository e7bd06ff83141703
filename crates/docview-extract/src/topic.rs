//! The topic content of one cleaned page as an owned value, without its tag tree: what the
//! later stages read of a page (the collection statistics, integration into a DocView, the
//! replica fingerprints and the indexes), and nothing else.
//!
//! A [`TopicPage`] is made once per page from its [`Extraction`] (the tag tree and the
//! cleaner's decisions). It keeps the texts of the blocks that integration weighs (the topic
//! content's kept blocks, and the hub leaf blocks outside it that may give relevant links, §6)
//! with their block weights, and the links of those blocks, so that the feature vectors of §5
//! and §6 come out the same as from the tree, whatever analyzer (stop words) the collection
//! statistics give later. It is serializable: `docview ingest` writes each page's in its first
//! pass and reads them back in the second, so a page is parsed and cleaned once per ingest.
//!
//! A page read as plain text (cleaned by another tool, or docview's own Pyserini export read
//! back) has no tree: [`TopicPage::of_text`] makes its topic page from the text as it stands.

use serde::{Deserialize, Serialize};

use crate::{Extraction, Metadata};
use docview_clean::{Cleaned, Verdict};
use docview_measure::{FeatureVector, block_text, text_feature_vector};
use docview_page::{Item, NodeId, PageSignals, PageType, Show, Step, TagTree, walk};
use docview_text::{Analyzer, Language, count_tokens};

/// A block's own text and its block weight (Algorithm 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WeighedBlock {
    /// The block's own text (empty when it has no terms).
    pub text: String,
    /// Its block weight (written as its bits, so that any value, NaN included, reads back the
    /// same).
    #[serde(with = "f32_bits")]
    pub weight: f32,
}

/// An `f32` as its bits.
mod f32_bits {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(v: &f32, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(v.to_bits())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        u32::deserialize(d).map(f32::from_bits)
    }
}

/// Where a link of a [`TopicPage`] stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkPlace {
    /// In a block kept in the topic content.
    Topic,
    /// In the hub leaf block of this index in [`TopicPage::hub_blocks`].
    Hub(u32),
}

/// A hyperlink of a kept block or of a hub block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageLink {
    /// The `href` as written in the page (trimmed, not resolved).
    pub href: String,
    /// The anchor text, trimmed.
    pub anchor_text: String,
    /// Where it stands.
    pub place: LinkPlace,
}

/// One cleaned page: its topic content and what the stages after cleaning read of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TopicPage {
    /// The text of `<title>`, whitespace folded.
    pub title: String,
    /// The page's language (its `<html lang>` when known, else detected from the topic
    /// content).
    pub language: Language,
    /// Topic, hub or image.
    pub page_type: PageType,
    /// The topic content as plain text.
    pub topic_text: String,
    /// The paragraphs of the topic content.
    pub paragraphs: Vec<String>,
    /// How the page was cut to its limits, when it was.
    pub truncated: Option<String>,
    /// The `href` of the page's first `<base href>`.
    pub base_href: Option<String>,
    /// The `href` of the page's first `<link rel=canonical>`.
    pub canonical: Option<String>,
    /// The `content` of the page's first `<meta property=og:url>`.
    pub og_url: Option<String>,
    /// All visible text of the page (what a naive engine indexes).
    pub visible_text: String,
    /// The blocks kept in the topic content, in document order.
    pub topic_blocks: Vec<WeighedBlock>,
    /// The visible hub leaf blocks with links outside the topic content, in document order.
    pub hub_blocks: Vec<WeighedBlock>,
    /// The links of the topic content and of the hub blocks, in document order.
    pub links: Vec<PageLink>,
    /// The page's signals of its kind, for the page-type classifier.
    pub signals: PageSignals,
    /// The page's headline ([`headline`]), when it has one: the DocView's title when the
    /// `<title>` means nothing.
    #[serde(default)]
    pub headline: Option<String>,
    /// What the page declares about itself ([`Metadata`]).
    #[serde(default)]
    pub metadata: Metadata,
    /// The topic content as Markdown, when asked for ([`TopicPage::with_markdown`]).
    #[serde(default)]
    pub markdown: Option<String>,
}

/// A headline has at most this many terms.
pub(crate) const HEADLINE_MAX_TERMS: usize = 30;

/// A bold line is a headline from this many terms: a kicker or a section label ("PUBLIC
/// NOTICES", "SEARCH", often in a `<font>`, which counts as weighty) has one or two.
pub(crate) const HEADLINE_MIN_TERMS: usize = 3;

/// A bold line heads the topic content when it is among its first this many lines.
pub(crate) const HEADLINE_LINES: usize = 4;

/// One line of a rendering, with how its text is set.
#[derive(Debug, Default)]
struct Line {
    text: String,
    /// Every run of text with letters is inside `<h1>`.
    h1: bool,
    /// Every run of text with letters is inside a heading or a weighty tag (b, strong, ...).
    strong: bool,
    /// Some run is anchor text.
    anchor: bool,
}

impl Line {
    fn terms(&self) -> usize {
        count_tokens(&self.text)
    }

    /// Its text, white space folded (runs of the tree join with theirs): a headline.
    fn headline(&self) -> String {
        self.text.split_whitespace().collect::<Vec<_>>().join(" ")
    }
}

/// The lines under `root` (cut at breaks, images and block edges, as [`docview_page::walk`]
/// meets them), of the blocks `show` shows.
fn lines(tree: &TagTree, root: NodeId, show: &dyn Fn(NodeId) -> Show) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let mut line = Line::default();
    let end_line = |line: &mut Line, out: &mut Vec<Line>| {
        let done = std::mem::take(line);
        if !done.text.trim().is_empty() {
            out.push(done);
        }
    };
    walk(tree, root, show, |step| match step {
        Step::Text(text, style) => {
            if text.chars().any(char::is_alphanumeric) {
                let first = line.text.trim().is_empty();
                line.h1 = (first || line.h1) && style.heading == 1;
                line.strong = (first || line.strong) && (style.heading > 0 || style.weighty);
                line.anchor |= style.anchor;
            }
            line.text.push_str(text);
        }
        Step::Break | Step::Image(_) | Step::Child { .. } | Step::End { .. } => {
            end_line(&mut line, &mut out)
        }
    });
    end_line(&mut line, &mut out);
    out
}

/// The page's headline: the first `<h1>` of its topic content; else the page's one `<h1>`
/// (when it has exactly one that is not a link, as a logo is); else the first line of the topic
/// content set in bold or as a heading, of 3 to 30 terms (`HEADLINE_MIN_TERMS`,
/// `HEADLINE_MAX_TERMS`) and not a link,
/// among its first 4 lines (`HEADLINE_LINES`) and before any longer line (the body). A headline
/// has 1 to 30 terms. The topic content here is the kept blocks under the
/// topic root, and the topic root's own text.
pub fn headline(tree: &TagTree, cleaned: &Cleaned) -> Option<String> {
    let fits = |l: &Line| (1..=HEADLINE_MAX_TERMS).contains(&l.terms()) && !l.anchor;
    // A cleaner may leave the headline out of the topic content (the framework drops the
    // headline and byline before the topic text, in the topic root's own text): the topic
    // root shows its own text here, whatever its verdict.
    let shown = |id: NodeId| match cleaned.decisions.get(id as usize).map(|d| d.verdict) {
        Some(Verdict::Kept) => Show::All,
        Some(Verdict::TextDropped) if Some(id) == cleaned.topic_root => Show::All,
        Some(Verdict::TextDropped | Verdict::PicturesKept) => Show::ChildrenOnly,
        _ => Show::Nothing,
    };
    let topic = match cleaned.topic_root {
        Some(root) => lines(tree, root, &shown),
        None => Vec::new(),
    };
    if let Some(h1) = topic.iter().find(|l| l.h1 && fits(l)) {
        return Some(h1.headline());
    }
    // The page's one `<h1>`: looked for in a rendering of the whole page only when the page
    // has text set in one at all (most pages without a headline in their topic content have
    // none), so that the rest pay nothing for it.
    let has_h1 = || {
        tree.nodes
            .iter()
            .flat_map(|n| &n.items)
            .any(|item| matches!(item, Item::Text { style, .. } if style.heading == 1))
    };
    if let Some(root) = tree.root().filter(|_| has_h1()) {
        let h1s: Vec<Line> = lines(tree, root, &|_| Show::All)
            .into_iter()
            .filter(|l| l.h1 && !l.anchor)
            .collect();
        if let [h1] = &h1s[..]
            && fits(h1)
        {
            return Some(h1.headline());
        }
    }
    topic
        .iter()
        .take(HEADLINE_LINES)
        .take_while(|l| l.terms() <= HEADLINE_MAX_TERMS)
        .find(|l| l.strong && l.terms() >= HEADLINE_MIN_TERMS && fits(l))
        .map(Line::headline)
}

impl TopicPage {
    /// The topic page of a cleaned page.
    pub fn of(page: &Extraction) -> TopicPage {
        let tree = &page.tree;
        let cleaned = &page.cleaned;
        let kept = |id: NodeId| {
            cleaned
                .decisions
                .get(id as usize)
                .is_some_and(|d| d.verdict == Verdict::Kept)
        };
        let weighed = |id: NodeId| WeighedBlock {
            text: if tree.node(id).own.terms == 0 {
                String::new()
            } else {
                block_text(tree, id)
            },
            weight: cleaned.weights.get(id as usize).copied().unwrap_or(1.0),
        };
        let mut topic_blocks = Vec::new();
        let mut hub_blocks = Vec::new();
        // The hub block index of each node, for its links.
        let mut hub_of: Vec<Option<u32>> = vec![None; tree.nodes.len()];
        for (i, node) in tree.nodes.iter().enumerate() {
            let id = i as NodeId;
            if kept(id) {
                if node.own.terms > 0 {
                    topic_blocks.push(weighed(id));
                }
            } else if node.is_leaf()
                && !node.hidden
                && node.block_type == PageType::Hub
                && node.own.links > 0
            {
                hub_of[i] = Some(hub_blocks.len() as u32);
                hub_blocks.push(weighed(id));
            }
        }
        let links = tree
            .links
            .iter()
            .filter_map(|link| {
                let place = if kept(link.node) {
                    LinkPlace::Topic
                } else {
                    LinkPlace::Hub(hub_of.get(link.node as usize).copied().flatten()?)
                };
                Some(PageLink {
                    href: link.href.to_string(),
                    anchor_text: tree.slice(link.start, link.end).trim().to_string(),
                    place,
                })
            })
            .collect();
        let headline = headline(tree, cleaned);
        TopicPage {
            signals: PageSignals::of(tree),
            title: cleaned.title.clone(),
            language: page.language(),
            page_type: cleaned.page_type,
            topic_text: cleaned.topic_text.clone(),
            paragraphs: cleaned.paragraphs.clone(),
            truncated: page.truncated.clone(),
            base_href: tree.base_href.clone(),
            canonical: tree.canonical.clone(),
            og_url: tree.og_url.clone(),
            visible_text: tree.all_text(),
            topic_blocks,
            hub_blocks,
            links,
            // The headline, which the metadata's title may ask for, found once.
            metadata: crate::metadata_of(tree, &|| headline.clone(), crate::today()),
            headline,
            markdown: None,
        }
    }

    /// The topic page of a page read as plain text that is already its topic content (a
    /// collection cleaned elsewhere; docview does not clean it again): a topic page whose topic
    /// content and visible text are `text` as it stands, each non-blank line a paragraph and a
    /// block of weight 1, in the language detected from it; no title, links nor markup. Its
    /// headline is its first line when more follow and that line reads as one: 3 to 30 terms,
    /// not ending as a sentence or a clause does (`.`, `,`, `;`, `:`, `。`, `，`, `；`, `：`).
    /// With `markdown`, its Markdown is the text. `None` when `text` has nothing but white
    /// space.
    pub fn of_text(text: &str, markdown: bool) -> Option<TopicPage> {
        if text.trim().is_empty() {
            return None;
        }
        let paragraphs: Vec<String> = text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .map(String::from)
            .collect();
        let headline = match paragraphs.as_slice() {
            [first, _, ..]
                if (HEADLINE_MIN_TERMS..=HEADLINE_MAX_TERMS).contains(&count_tokens(first))
                    && !first.ends_with(['.', ',', ';', ':', '。', '，', '；', '：']) =>
            {
                Some(first.clone())
            }
            _ => None,
        };
        let topic_blocks = paragraphs
            .iter()
            .map(|p| WeighedBlock {
                text: p.clone(),
                weight: 1.0,
            })
            .collect();
        Some(TopicPage {
            title: String::new(),
            language: docview_text::detect_language(text),
            page_type: PageType::Topic,
            topic_text: text.to_string(),
            paragraphs,
            truncated: None,
            base_href: None,
            canonical: None,
            og_url: None,
            visible_text: text.to_string(),
            topic_blocks,
            hub_blocks: Vec::new(),
            links: Vec::new(),
            signals: PageSignals::default(),
            headline,
            metadata: Metadata::default(),
            markdown: markdown.then(|| text.to_string()),
        })
    }

    /// The topic page of a cleaned page with its topic content as Markdown too.
    pub fn with_markdown(page: &Extraction) -> TopicPage {
        TopicPage {
            markdown: Some(page.markdown()),
            ..TopicPage::of(page)
        }
    }

    /// The feature vector (Formula 2) of the topic content, with the terms of `analyzer`.
    pub fn topic_features(&self, analyzer: &Analyzer) -> FeatureVector {
        text_feature_vector(
            self.topic_blocks
                .iter()
                .map(|b| (b.text.as_str(), b.weight)),
            analyzer,
            self.language,
        )
    }

    /// The feature vector of hub block `i`, with the terms of `analyzer`.
    pub fn hub_features(&self, i: usize, analyzer: &Analyzer) -> FeatureVector {
        text_feature_vector(
            self.hub_blocks.get(i).map(|b| (b.text.as_str(), b.weight)),
            analyzer,
            self.language,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract_page;
    use docview_clean::Framework;
    use docview_measure::feature_vector;

    const PAGE: &str = "<html><head><title>Tide pools</title></head><body>\
        <nav><a href=/>Home</a> <a href=/about>About</a></nav>\
        <div id=main><h1>Tide pools</h1>\
        <p>Tide pools hold anemones, crabs and small fish between the tides. \
        Read <a href=/anemones>about anemones</a> and their stinging cells.</p>\
        <p>At low tide the pools warm up and the water grows salty as it evaporates.</p></div>\
        <ul class=related><li><a href=/crabs>Shore crabs of the tide pools</a></li>\
        <li><a href=/fish>Small fish of the pools</a></li></ul>\
        <footer>Copyright the field notes</footer></body></html>";

    #[test]
    fn features_match_those_of_the_tree() {
        let page = extract_page(PAGE.as_bytes(), None, "t", &Framework::default()).unwrap();
        let topic = TopicPage::of(&page);
        let analyzer = Analyzer::new();
        let lang = page.language();
        assert_eq!(topic.language, lang);
        assert_eq!(
            topic.topic_features(&analyzer),
            page.topic_features_with(&analyzer, lang)
        );
        assert!(topic.topic_text.contains("anemones"));
        assert!(topic.links.iter().any(|l| l.href == "/anemones"
            && l.anchor_text == "about anemones"
            && l.place == LinkPlace::Topic));
        assert!(
            !topic
                .links
                .iter()
                .any(|l| l.href == "/about" && l.place == LinkPlace::Topic),
            "the menu is not topic content"
        );
        // Each hub block's vector is the tree's vector of that node.
        let hubs: Vec<NodeId> = (0..page.tree.nodes.len() as NodeId)
            .filter(|&id| {
                let n = page.tree.node(id);
                n.is_leaf()
                    && !n.hidden
                    && n.block_type == PageType::Hub
                    && n.own.links > 0
                    && page.cleaned.decisions[id as usize].verdict != Verdict::Kept
            })
            .collect();
        assert_eq!(hubs.len(), topic.hub_blocks.len());
        assert!(!hubs.is_empty());
        for (i, &id) in hubs.iter().enumerate() {
            assert_eq!(
                topic.hub_features(i, &analyzer),
                feature_vector(&page.tree, [id], &page.cleaned.weights, &analyzer, lang)
            );
        }
        assert_eq!(topic.headline.as_deref(), Some("Tide pools"));
        // A round trip through JSON gives the same page.
        let json = serde_json::to_string(&topic).unwrap();
        let back: TopicPage = serde_json::from_str(&json).unwrap();
        assert_eq!(back, topic);
    }

    fn headline_of(html: &str) -> Option<String> {
        let page = extract_page(html.as_bytes(), None, "t", &Framework::default()).unwrap();
        headline(&page.tree, &page.cleaned)
    }

    const BODY: &str = "<p>The town landing and the north float will be closed to all boats \
        for two weeks while a contractor dredges the channel between the landing and the \
        breakwater, the harbor master said on Friday.</p>";

    #[test]
    fn the_headline_is_an_h1_or_a_bold_line_heading_the_topic_content() {
        // A 2003 page: a kicker, a bold headline in a font tag, a byline, the story.
        let old = format!(
            "<body><table><tr><td><b>SEARCH</b><br><a href=/a>Front page</a> \
            <a href=/b>Sports</a></td><td><font size=1>PUBLIC NOTICES</font><br><font size=5><b>Harbor dredging \
            to close the town landing</b></font><br>Posted by the Harbor Master<br>{BODY}{BODY}\
            </td></tr></table></body>"
        );
        assert_eq!(
            headline_of(&old).as_deref(),
            Some("Harbor dredging to close the town landing")
        );
        // An h1 wins over a bold line; a logo's h1 (a link) is no headline.
        let h1 = format!(
            "<body><header><h1><a href=/>Harbor Daily</a></h1></header><article>\
            <p><b>Bold lead words here</b></p><h1>Dredging closes the landing</h1>{BODY}\
            </article></body>"
        );
        assert_eq!(
            headline_of(&h1).as_deref(),
            Some("Dredging closes the landing")
        );
        // No headline: the body starts at once, or bold words come after it.
        let none = format!(
            "<body><article>{BODY}<p><b>Bold words later on</b></p>{BODY}</article></body>"
        );
        assert_eq!(headline_of(&none), None);
    }

    #[test]
    fn a_text_page_is_its_topic_content_with_its_first_line_as_headline() {
        let text = "Ferry dock repairs begin in May\n\nThe harbour board said the work on the \
                    ferry dock will take six weeks.\nBoats will use the north quay.";
        let page = TopicPage::of_text(text, false).unwrap();
        assert_eq!(page.topic_text, text);
        assert_eq!(page.visible_text, text);
        assert_eq!(page.page_type, PageType::Topic);
        assert_eq!(page.language, Language::English);
        assert_eq!(page.paragraphs.len(), 3);
        assert_eq!(page.topic_blocks.len(), 3);
        assert!(page.topic_blocks.iter().all(|b| b.weight == 1.0));
        assert_eq!(
            page.headline.as_deref(),
            Some("Ferry dock repairs begin in May")
        );
        assert_eq!((page.title.as_str(), page.markdown.as_deref()), ("", None));
        // Its feature vector is that of its lines.
        let analyzer = Analyzer::new();
        assert!(!page.topic_features(&analyzer).is_empty());
        assert_eq!(
            TopicPage::of_text(text, true).unwrap().markdown.as_deref(),
            Some(text)
        );
        // A first line that is a sentence, or the only line, is no headline; blank text is
        // no page.
        let sentence = TopicPage::of_text("The board met on Monday.\nIt agreed.", false);
        assert_eq!(sentence.unwrap().headline, None);
        let alone = TopicPage::of_text("Ferry dock repairs begin in May", false);
        assert_eq!(alone.unwrap().headline, None);
        assert_eq!(TopicPage::of_text(" \n\t ", false), None);
    }
}
