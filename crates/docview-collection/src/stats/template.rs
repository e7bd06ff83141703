//! Site templates: the lines a site repeats on its pages, learnt in the statistics pass, and the
//! **replica text** they leave of a page, which MinHash and the exact fingerprint compare.
//!
//! The cleaner judges one page at a time, so it can keep a template's text (a sign-in prompt, a
//! notice) or lose the article (a forum post list, a product grid); two different articles in
//! one template then look alike, and one article in two templates does not. A site's other
//! pages show what its template is: a line (heading, paragraph line, list item, menu entry,
//! normalised like the exact fingerprint) on at least `min_pages` pages of the site, and on at
//! least `min_share` of them, is template. The **replica text** is the page's topic content
//! without its template lines while at least `min_topic_share` of the topic content's tokens
//! are left; else (the cleaner kept a template block) the page's own text, its visible text
//! without template lines. Where the site taught no template (too few pages, a local file with
//! no host), or nothing is left, it is the topic content, or the visible text when the
//! cleaner kept nothing.
//!
//! Judging the topic content against itself, not against the page's whole own text, matters
//! on hosts that serve other sites' pages (mirrors, aggregators): the visible text of a page
//! copied there still carries its origin's menus and footers, which that host's template does
//! not know, so a good topic content would look small beside it.
//!
//! Copies of one page on its own site (URL variants with tracking parameters, re-crawls,
//! pages that differ by an update line) must not make its content template: while a site is
//! learnt, its pages fall into **copy groups** (a page joins a group when its visible text
//! reaches an estimated Jaccard of `copy_similarity` with the group's first page's, and so does
//! its topic content where both hold a fifth of their page's text, [`CopyKey`]), and a
//! template line must also be carried by pages of at least two groups. Content repeated only
//! by copies of one page, however many, stays the page's own.
//!
//! Memory is bounded: each site is learnt from its first `sample_pages` pages in input order,
//! after which only its template lines are kept; and at most `max_tracked_lines` counted lines
//! are held at once (a copy group's key counting as 32 lines), pages past that budget
//! being counted but not learnt from (reported).
//! What is kept is two sorted vectors of 64-bit keys (site, and site × line), saved in
//! `stats.json`.

use std::borrow::Cow;
use std::collections::HashMap;

use md5::{Digest, Md5};
use serde::{Deserialize, Serialize};

use crate::minhash::{MinHasher, Signature, fmix64, token_sequence, token_sequence_key};
use crate::text::count_tokens;

/// How template lines are told from a page's own.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TemplateParams {
    /// Least number of a site's pages that carry a line for it to be template.
    pub min_pages: u32,
    /// Least share of the site's learnt pages that carry a template line.
    pub min_share: f32,
    /// Pages of each site learnt from (its first ones, in input order).
    pub sample_pages: u32,
    /// Most counted lines held at once while learning.
    pub max_tracked_lines: usize,
    /// Least share of the topic content's tokens left once its template lines are out for it to
    /// be the replica text (else the page's own text is).
    pub min_topic_share: f32,
    /// Least estimated Jaccard (5-token shingles of the visible text, and of the topic
    /// content) of a page with the first page of a copy group for it to join that group.
    pub copy_similarity: f32,
}

impl Default for TemplateParams {
    fn default() -> Self {
        TemplateParams {
            min_pages: 3,
            min_share: 0.05,
            sample_pages: 64,
            max_tracked_lines: 4_000_000,
            min_topic_share: 0.2,
            copy_similarity: 0.8,
        }
    }
}

impl TemplateParams {
    /// Pages out of `learnt` that must carry a line for it to be template.
    fn threshold(&self, learnt: u32) -> u32 {
        let share = (f64::from(self.min_share) * f64::from(learnt)).ceil() as u32;
        self.min_pages.max(share).max(1)
    }
}

/// The key of a text line: a hash of its tokens, lowercased, in order (see
/// [`token_sequence_key`]); `None` for a line with no token.
pub fn line_key(line: &str) -> Option<u64> {
    token_sequence_key(line)
}

fn site_key(site: &str) -> u64 {
    first_u64(&Md5::digest(site.as_bytes()))
}

fn first_u64(digest: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(b)
}

/// The key of a line of a site's template.
fn entry_key(site: u64, line: u64) -> u64 {
    fmix64(site.rotate_left(29) ^ line)
}

/// The distinct line keys of a text, sorted.
pub fn distinct_line_keys(text: &str) -> Vec<u64> {
    let mut keys: Vec<u64> = text.lines().filter_map(line_key).collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// What tells a page's copies on its site from the site's other pages: MinHash signatures of
/// its visible text and of its cleaned topic content. Two pages are copies when both are near:
/// the visible texts alone cannot tell a copy from a different page with little text of its
/// own in a large template, and the topic contents alone cannot tell a copy from a different
/// page whose cleaner kept the same template block. Computed where the page is cleaned (in
/// parallel), compared while the site's template is learnt.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CopyKey {
    visible: Option<Signature>,
    topic: Option<Signature>,
}

/// Least share of a page's visible tokens its topic content must hold for copy keys to compare
/// it: a smaller one (a caption, a line the cleaner kept by mistake) says little about the page.
const COPY_TOPIC_SHARE: f32 = 0.2;

/// Line-budget units a copy group's key costs (two 128-byte signatures, in 8-byte lines).
const COPY_KEY_LINES: usize = 32;

impl CopyKey {
    /// The key of a page whose visible text (all its text, lines as rendered) is `visible_text`
    /// and whose topic content is `topic_text`.
    pub fn of(visible_text: &str, topic_text: &str) -> CopyKey {
        let hasher = MinHasher::for_copies();
        let trusted = count_tokens(topic_text) as f64
            >= f64::from(COPY_TOPIC_SHARE) * count_tokens(visible_text) as f64;
        CopyKey {
            visible: hasher.signature(visible_text),
            topic: trusted.then(|| hasher.signature(topic_text)).flatten(),
        }
    }

    /// True when the page keyed `self` copies the one keyed `other`.
    fn copies(&self, other: &CopyKey, similarity: f32) -> bool {
        let near = |a: &Option<Signature>, b: &Option<Signature>| match (a, b) {
            (Some(a), Some(b)) => a.jaccard(b) >= similarity,
            _ => false,
        };
        let untrusted = self.topic.is_none() || other.topic.is_none();
        near(&self.visible, &other.visible) && (untrusted || near(&self.topic, &other.topic))
    }
}

/// Where a line was seen among a site's learnt pages.
#[derive(Debug, Clone, Copy, Default)]
struct LineSeen {
    /// Pages carrying it.
    pages: u32,
    /// Bit `g` set when a page of copy group `g` carries it (groups past 63 share bit 63).
    groups: u64,
}

impl LineSeen {
    /// A template line: on at least `threshold` pages, of at least two copy groups.
    fn is_template(&self, threshold: u32) -> bool {
        self.pages >= threshold && self.groups.count_ones() >= 2
    }
}

/// What one site's learnt pages have shown.
#[derive(Debug, Clone, Default)]
struct SiteSample {
    /// Pages learnt from.
    learnt: u32,
    /// Copy groups among them (pages that copy no earlier learnt page).
    distinct: u32,
    /// Where each line was seen (after sealing, template lines only).
    lines: HashMap<u64, LineSeen>,
    /// The copy key of each copy group's first page (dropped at sealing).
    groups: Vec<CopyKey>,
    /// True once `sample_pages` pages were learnt.
    sealed: bool,
}

/// Learns site templates page by page, in input order.
#[derive(Debug, Clone, Default)]
pub struct TemplateBuilder {
    params: TemplateParams,
    /// By site key: a host costs 8 bytes and its sample, not its name.
    sites: HashMap<u64, SiteSample>,
    tracked: usize,
    unlearnt_pages: u64,
}

impl TemplateBuilder {
    /// An empty builder.
    pub fn new(params: TemplateParams) -> Self {
        TemplateBuilder {
            params,
            ..TemplateBuilder::default()
        }
    }

    /// Learns from one page of `site`: its visible text, lines as rendered, and its copy key.
    pub fn add_page(&mut self, site: &str, visible_text: &str, key: CopyKey) {
        self.add_page_lines(site, distinct_line_keys(visible_text), key);
    }

    /// [`TemplateBuilder::add_page`] with the page's [`distinct_line_keys`] computed already
    /// (where the page was cleaned, by a shard of a sharded run).
    pub fn add_page_lines(&mut self, site: &str, keys: Vec<u64>, key: CopyKey) {
        let params = self.params;
        let sk = site_key(site);
        if self.sites.get(&sk).is_some_and(|s| s.sealed) {
            return;
        }
        let sample = self.sites.entry(sk).or_default();
        let group = sample
            .groups
            .iter()
            .position(|g| key.copies(g, params.copy_similarity));
        let new = keys
            .iter()
            .filter(|k| !sample.lines.contains_key(k))
            .count()
            + if group.is_none() { COPY_KEY_LINES } else { 0 };
        if self.tracked + new > params.max_tracked_lines {
            self.unlearnt_pages += 1;
            return;
        }
        self.tracked += new;
        sample.learnt += 1;
        let group = group.unwrap_or_else(|| {
            sample.groups.push(key);
            sample.distinct += 1;
            sample.groups.len() - 1
        });
        let bit = 1u64 << group.min(63);
        for k in keys {
            let seen = sample.lines.entry(k).or_default();
            seen.pages += 1;
            seen.groups |= bit;
        }
        if sample.learnt >= params.sample_pages {
            let threshold = params.threshold(sample.learnt);
            let before = sample.lines.len() + sample.groups.len() * COPY_KEY_LINES;
            sample.lines.retain(|_, seen| seen.is_template(threshold));
            sample.lines.shrink_to_fit();
            sample.groups = Vec::new();
            sample.sealed = true;
            self.tracked -= before - sample.lines.len();
        }
    }

    /// Distinct pages (copies of one page counting once) learnt so far for `site`; `None` when
    /// none of its pages was learnt from.
    pub fn distinct_pages(&self, site: &str) -> Option<u32> {
        self.sites
            .get(&site_key(site))
            .map(|s| s.distinct)
            .filter(|&n| n > 0)
    }

    /// The templates learnt.
    pub fn finish(self) -> SiteTemplates {
        let params = self.params;
        let mut site_keys = Vec::new();
        let mut lines = Vec::new();
        let mut learnt_pages = 0u64;
        let mut copy_pages = 0u64;
        for (&sk, sample) in &self.sites {
            learnt_pages += u64::from(sample.learnt);
            copy_pages += u64::from(sample.learnt - sample.distinct);
            if sample.learnt < params.min_pages {
                continue;
            }
            let threshold = params.threshold(sample.learnt);
            let before = lines.len();
            lines.extend(
                sample
                    .lines
                    .iter()
                    .filter(|(_, seen)| seen.is_template(threshold))
                    .map(|(&line, _)| entry_key(sk, line)),
            );
            if lines.len() > before {
                site_keys.push(sk);
            }
        }
        site_keys.sort_unstable();
        lines.sort_unstable();
        lines.dedup();
        SiteTemplates {
            params,
            learnt_pages,
            copy_pages,
            unlearnt_pages: self.unlearnt_pages,
            site_keys,
            lines,
        }
    }
}

/// The learnt templates of a collection's sites.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SiteTemplates {
    /// How they were learnt.
    pub params: TemplateParams,
    /// Pages learnt from.
    pub learnt_pages: u64,
    /// Learnt pages that copy an earlier learnt page of their site (their lines count once).
    pub copy_pages: u64,
    /// Pages not learnt from because the line budget was spent.
    pub unlearnt_pages: u64,
    /// Keys of the sites with a template, sorted.
    pub site_keys: Vec<u64>,
    /// Keys of (site, template line), sorted.
    pub lines: Vec<u64>,
}

impl SiteTemplates {
    /// Sites with a template.
    pub fn sites(&self) -> usize {
        self.site_keys.len()
    }

    /// True when `line` is a line of `site`'s template.
    pub fn is_template_line(&self, site: &str, line: &str) -> bool {
        line_key(line).is_some_and(|k| {
            self.lines
                .binary_search(&entry_key(site_key(site), k))
                .is_ok()
        })
    }

    /// The text replica detection compares (see the module's rule): `topic_text` or
    /// `visible_text` (lines as rendered) without the lines of `site`'s template, or
    /// `topic_text` as it is when the site has no template or nothing is left (`visible_text`
    /// when `topic_text` has no token).
    pub fn replica_text<'a>(
        &self,
        site: Option<&str>,
        visible_text: &'a str,
        topic_text: &'a str,
    ) -> Cow<'a, str> {
        let topic_tokens = count_tokens(topic_text);
        // A page whose cleaner kept nothing is compared by all it shows.
        let fallback = if topic_tokens > 0 {
            topic_text
        } else {
            visible_text
        };
        let Some(sk) = site
            .map(site_key)
            .filter(|sk| self.site_keys.binary_search(sk).is_ok())
        else {
            return Cow::Borrowed(fallback);
        };
        let (kept, kept_tokens) = self.own_lines(sk, topic_text, true);
        // The cleaner kept a template block when template lines make up most of its topic
        // content: the page's own text (visible text without template lines) is then compared.
        let share = f64::from(self.params.min_topic_share);
        let trusted = kept_tokens > 0 && kept_tokens as f64 >= share * topic_tokens as f64;
        let chosen = if trusted {
            kept
        } else {
            self.own_lines(sk, visible_text, true).0
        };
        if chosen.is_empty() {
            Cow::Borrowed(fallback)
        } else {
            Cow::Owned(chosen)
        }
    }

    /// The lines of `text` that are not lines of the template of the site keyed `sk` (when
    /// `write` is set; else an empty string), and their number of tokens.
    fn own_lines(&self, sk: u64, text: &str, write: bool) -> (String, usize) {
        let mut out = String::new();
        let mut tokens = 0;
        for line in text.lines() {
            let Some((k, n)) = token_sequence(line) else {
                continue;
            };
            if self.lines.binary_search(&entry_key(sk, k)).is_ok() {
                continue;
            }
            tokens += n;
            if write {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(line.trim());
            }
        }
        (out, tokens)
    }

    /// Bytes the keys take.
    pub fn memory_bytes(&self) -> usize {
        (self.site_keys.capacity() + self.lines.capacity()) * std::mem::size_of::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MENU: &str = "Home\nNews\nSports\nAbout us";
    const FOOTER: &str = "Copyright 2026 Harbor Gazette. All rights reserved.";

    fn page(body: &str) -> String {
        format!("{MENU}\n\n{body}\n\n{FOOTER}")
    }

    fn article(n: usize) -> String {
        format!(
            "Article {n} about the harbour.\nThe tide rose {n} metres overnight and the ferry \
             waited for the pilot boat."
        )
    }

    /// The copy key of a page whose topic content the cleaner did not find.
    fn key(text: &str) -> CopyKey {
        CopyKey::of(text, text)
    }

    fn learnt(pages: &[(&str, String)], params: TemplateParams) -> SiteTemplates {
        let mut b = TemplateBuilder::new(params);
        for (site, text) in pages {
            b.add_page(site, text, key(text));
        }
        b.finish()
    }

    #[test]
    fn lines_on_enough_pages_of_a_site_are_its_template() {
        let pages: Vec<(&str, String)> = (0..4)
            .map(|n| ("gazette.example", page(&article(n))))
            .collect();
        let t = learnt(&pages, TemplateParams::default());
        assert_eq!(t.sites(), 1);
        assert_eq!(t.learnt_pages, 4);
        assert!(t.is_template_line("gazette.example", "  HOME "));
        assert!(t.is_template_line("gazette.example", FOOTER));
        assert!(!t.is_template_line("gazette.example", "Article 1 about the harbour."));
        // Another site's template is its own.
        assert!(!t.is_template_line("other.example", "Home"));
        let text = page(&article(2));
        assert_eq!(
            t.replica_text(Some("gazette.example"), &text, MENU),
            article(2)
        );
    }

    #[test]
    fn the_topic_content_is_trusted_unless_it_is_mostly_template() {
        let pages: Vec<(&str, String)> = (0..3)
            .map(|n| ("gazette.example", page(&article(n))))
            .collect();
        let t = learnt(&pages, TemplateParams::default());
        // The page's own text: the article (20 tokens) and comments that change per page (60).
        let comments =
            "Reader comment: I saw the ferry from the pier and it was late again.\n".repeat(4);
        let text = page(&format!("{}\n{comments}", article(5)));
        // The cleaner kept the article (and a menu line): that, without the menu line.
        let topic = format!("News\n{}", article(5));
        assert_eq!(
            t.replica_text(Some("gazette.example"), &text, &topic),
            article(5)
        );
        // The cleaner kept only template text: the page's own text instead.
        let replica = t.replica_text(Some("gazette.example"), &text, FOOTER);
        assert!(replica.starts_with(&article(5)) && replica.contains("Reader comment"));
        // It kept the template's menu and footer and one line of its own: mostly template, so
        // the page's own text too.
        let topic = format!("{MENU}\nArticle 5\n{FOOTER}");
        let replica = t.replica_text(Some("gazette.example"), &text, &topic);
        assert!(replica.contains("Reader comment"));
        // A small topic content of its own is trusted however much else the page shows (a
        // page copied to a mirror still carries its origin's menus, unknown there).
        let mirrored = format!(
            "{text}\n{}",
            "Origin menu: world business sport\n".repeat(20)
        );
        assert_eq!(
            t.replica_text(Some("gazette.example"), &mirrored, &article(5)),
            article(5)
        );
        // A page whose cleaner kept nothing is compared by what it shows.
        assert_eq!(t.replica_text(None, &text, " "), text);
    }

    #[test]
    fn without_a_template_the_replica_text_is_the_topic_content() {
        let pages: Vec<(&str, String)> = (0..2)
            .map(|n| ("small.example", page(&article(n))))
            .collect();
        let t = learnt(&pages, TemplateParams::default());
        assert_eq!(t.sites(), 0, "two pages teach no template");
        let text = page(&article(0));
        assert_eq!(
            t.replica_text(Some("small.example"), &text, "topic"),
            "topic"
        );
        assert_eq!(t.replica_text(None, &text, "topic"), "topic");
        // A page made only of template lines falls back too.
        let pages: Vec<(&str, String)> = (0..3).map(|_| ("s.example", page(""))).collect();
        let t = learnt(&pages, TemplateParams::default());
        assert_eq!(
            t.replica_text(Some("s.example"), &page(""), "topic"),
            "topic"
        );
    }

    #[test]
    fn one_article_in_two_templates_gives_one_replica_text() {
        let mut pages = Vec::new();
        for n in 0..3 {
            pages.push(("a.example", page(&article(n))));
            pages.push((
                "b.example",
                format!(
                    "Sign in\nRegister\n\n{}\n\nPowered by a forum engine",
                    article(n + 10)
                ),
            ));
        }
        let t = learnt(&pages, TemplateParams::default());
        let a = page(&article(7));
        let b = format!(
            "Sign in\nRegister\n\n{}\n\nPowered by a forum engine",
            article(7)
        );
        assert_eq!(
            t.replica_text(Some("a.example"), &a, ""),
            t.replica_text(Some("b.example"), &b, "")
        );
    }

    #[test]
    fn the_share_rule_spares_a_line_few_pages_of_a_big_site_carry() {
        let params = TemplateParams {
            min_share: 0.5,
            ..TemplateParams::default()
        };
        let mut pages: Vec<(&str, String)> = (0..10)
            .map(|n| ("big.example", page(&article(n))))
            .collect();
        for p in pages.iter_mut().take(4) {
            p.1.push_str("\n\nRelated: the lighthouse reopens");
        }
        let t = learnt(&pages, params);
        assert!(t.is_template_line("big.example", "Home"));
        assert!(!t.is_template_line("big.example", "Related: the lighthouse reopens"));
    }

    #[test]
    fn learning_stops_at_the_sample_and_the_budget() {
        let params = TemplateParams {
            sample_pages: 3,
            ..TemplateParams::default()
        };
        let mut b = TemplateBuilder::new(params);
        for n in 0..10 {
            let text = page(&article(n));
            b.add_page("s.example", &text, key(&text));
        }
        // Sealed after three pages: only the five template lines are held.
        assert_eq!(b.tracked, 5);
        let t = b.finish();
        assert_eq!(t.learnt_pages, 3);
        assert!(t.is_template_line("s.example", "News"));

        let params = TemplateParams {
            max_tracked_lines: 10 + 2 * COPY_KEY_LINES,
            ..TemplateParams::default()
        };
        let mut b = TemplateBuilder::new(params);
        for n in 0..4 {
            let text = page(&article(n));
            b.add_page("s.example", &text, CopyKey::default());
        }
        // 7 lines and a copy key for the first page, 2 new lines and a key for the second;
        // the third would pass the budget.
        let t = b.finish();
        assert_eq!((t.learnt_pages, t.unlearnt_pages), (2, 2));
        assert_eq!(t.sites(), 0);
    }

    #[test]
    fn keys_do_not_depend_on_case_spacing_or_punctuation() {
        assert_eq!(line_key("About  us!"), line_key("about us"));
        assert_ne!(line_key("about us"), line_key("about them"));
        assert_eq!(line_key(" -- "), None);
    }

    #[test]
    fn templates_round_trip_through_json() {
        let pages: Vec<(&str, String)> = (0..3).map(|n| ("j.example", page(&article(n)))).collect();
        let t = learnt(&pages, TemplateParams::default());
        let back: SiteTemplates =
            serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
        assert_eq!(back, t);
    }

    /// One host with 60 different pages and `n` copies of one article, each with its own
    /// sentence appended (URL variants, re-crawls): the copies count once.
    fn host_with_copies(n: usize) -> (SiteTemplates, String) {
        let mut b = TemplateBuilder::new(TemplateParams::default());
        let mut pages: Vec<String> = (0..60).map(|i| page(&article(i))).collect();
        // Eight lines of 30 words drawn from a small vocabulary (an LCG): an article's worth.
        const VOCAB: [&str; 24] = [
            "harbour",
            "board",
            "dredge",
            "channel",
            "ferry",
            "quay",
            "silt",
            "pier",
            "tide",
            "pilot",
            "boats",
            "summer",
            "winter",
            "council",
            "weeks",
            "contractor",
            "marsh",
            "spoil",
            "mud",
            "depth",
            "survey",
            "crane",
            "barge",
            "lock",
        ];
        let mut x = 7u64;
        let copied: String = (0..8)
            .map(|_| {
                let line: Vec<&str> = (0..30)
                    .map(|_| {
                        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        VOCAB[(x >> 33) as usize % VOCAB.len()]
                    })
                    .collect();
                line.join(" ") + ".\n"
            })
            .collect();
        let copied = copied.trim_end();
        for c in 0..n {
            pages.insert(
                10 + c * 50 / n.max(1),
                page(&format!(
                    "{copied}\nUpdate {c}: the work starts on day {c}."
                )),
            );
        }
        for p in &pages {
            b.add_page("gazette.example", p, CopyKey::of(p, p));
        }
        (b.finish(), copied.to_string())
    }

    #[test]
    fn copies_of_one_page_on_its_site_do_not_become_template() {
        for n in [4, 8, 30] {
            let (t, copied) = host_with_copies(n);
            assert_eq!(
                t.copy_pages,
                n as u64 - 1,
                "{n} copies: all but the first in its group"
            );
            assert!(t.is_template_line("gazette.example", FOOTER), "{n} copies");
            for line in copied.lines() {
                assert!(
                    !t.is_template_line("gazette.example", line),
                    "{n} copies made {line:?} template"
                );
            }
            // So the copies' replica texts stay near each other.
            let a = page(&format!("{copied}\nUpdate 0: the work starts on day 0."));
            let b = page(&format!("{copied}\nUpdate 1: the work starts on day 1."));
            let hasher = MinHasher::new(crate::minhash::MinHashParams::default()).unwrap();
            let ra = t.replica_text(Some("gazette.example"), &a, &a);
            let rb = t.replica_text(Some("gazette.example"), &b, &b);
            let j = hasher
                .signature(&ra)
                .unwrap()
                .jaccard(&hasher.signature(&rb).unwrap());
            assert!(j >= 0.5, "{n} copies: replica texts {ra:?} / {rb:?} at {j}");
        }
    }

    #[test]
    fn a_line_of_one_copy_group_is_not_template_however_many_pages_carry_it() {
        // Three pages of a site, two of them near-identical (a page with almost no text of its
        // own): the template is on two groups and stays template.
        let mut b = TemplateBuilder::new(TemplateParams::default());
        let texts = [page(&article(1)), page(&article(1)), page(&article(2))];
        for t in &texts {
            b.add_page("s.example", t, CopyKey::of(t, t));
        }
        assert_eq!(b.distinct_pages("s.example"), Some(2));
        let t = b.finish();
        assert_eq!(t.copy_pages, 1);
        assert!(t.is_template_line("s.example", FOOTER));
        assert!(!t.is_template_line("s.example", "Article 1 about the harbour."));
    }
}
