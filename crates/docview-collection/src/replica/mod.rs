//! Replica removal (004 §5): the fingerprints that find copies of a page's content, and the
//! detector that remembers the fingerprints of the pages kept so far.
//!
//! Fingerprints are computed on cleaned text, not on the raw page, so that the same article in
//! two templates matches and two articles in one template do not:
//!
//! - the **exact** fingerprint: MD5 of the normalised **replica text** (its tokens, lowercased,
//!   one space apart), which finds copies that differ only in markup, case, spacing or
//!   punctuation. The replica text ([`template`]) is the page's own text: its topic content,
//!   or its visible text where the cleaner kept too little of it, without the lines its web
//!   site repeats on other pages; where no template is known, it is the topic content;
//! - the **keyword** fingerprint of the paper (Steps 1-6), on the topic content's features:
//!   sorted by term frequency then alphabet, the first `Percentage` of them, sorted
//!   alphabetically, the first `Sum2 DIV Interval * Interval`, hashed with MD5; it finds
//!   near-replicas whose wording differs a little.
//!
//! and, beyond the paper, [`minhash`]: MinHash signatures of the replica text's word shingles
//! in an LSH index, which find near-replicas by their estimated Jaccard similarity (the
//! default detector).
//!
//! The first-seen page of a group is kept; a later page whose fingerprint was seen (or whose
//! signature is close enough to a kept one's) is a replica of that kept page. The exact
//! fingerprint is checked first in every mode.
//!
//! Measuring them is the lab's part: `docview_lab::replica` builds the paper's benchmark from a
//! labelled set and runs this same detector over it.

pub use crate::minhash;
pub use crate::stats::template;

use std::collections::HashMap;
use std::fmt;

use md5::{Digest, Md5};
use serde::{Deserialize, Serialize};

use crate::text::for_each_lower_token;
pub use minhash::{LshIndex, MinHashError, MinHashParams, MinHasher, Signature};

/// Default share of the features that make the keyword fingerprint (the paper's system: 0.4).
pub const DEFAULT_PERCENTAGE: f32 = 0.4;
/// Default unit of the number of features hashed (the paper's system: 5).
pub const DEFAULT_INTERVAL: usize = 5;

/// Relative slack on Percentage so that its f32 rounding never loses a feature.
const PERCENTAGE_SLACK: f64 = 1e-6;

/// A 16-byte MD5 fingerprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint(pub [u8; 16]);

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl Fingerprint {
    /// Parses the 32 hex digits that [`Display`](fmt::Display) writes.
    pub fn from_hex(hex: &str) -> Option<Fingerprint> {
        if hex.len() != 32 || !hex.is_ascii() {
            return None;
        }
        let mut out = [0u8; 16];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(Fingerprint(out))
    }
}

impl Serialize for Fingerprint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Fingerprint {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let hex = String::deserialize(d)?;
        Fingerprint::from_hex(&hex)
            .ok_or_else(|| serde::de::Error::custom(format!("not an MD5 fingerprint: {hex:?}")))
    }
}

/// The exact fingerprint of a topic text: MD5 of its tokens, lowercased, one space apart.
/// `None` when the text has no token (an empty topic content is nobody's replica).
pub fn exact_fingerprint(topic_text: &str) -> Option<Fingerprint> {
    let mut md5 = Md5::new();
    let mut any = false;
    for_each_lower_token(topic_text, |token| {
        if any {
            md5.update(b" ");
        }
        any = true;
        md5.update(token.as_bytes());
    });
    any.then(|| Fingerprint(md5.finalize().into()))
}

/// The parameters of the keyword fingerprint.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct KeywordParams {
    /// Share of the features selected (Step 3).
    pub percentage: f32,
    /// The number of features hashed is a multiple of this (Step 5).
    pub interval: usize,
}

impl Default for KeywordParams {
    fn default() -> Self {
        KeywordParams {
            percentage: DEFAULT_PERCENTAGE,
            interval: DEFAULT_INTERVAL,
        }
    }
}

/// The keyword fingerprint (§5, Steps 1-6) of a page whose features (Step 1: stop words already
/// removed) occur `term_counts` times in its topic content. `None` when fewer than `interval`
/// features would be hashed: too little text to tell near-replicas apart.
pub fn keyword_fingerprint(
    term_counts: &[(String, u32)],
    params: KeywordParams,
) -> Option<Fingerprint> {
    let sum1 = term_counts.len();
    // Step 2: decreasing term frequency, ties in alphabetic order.
    let mut sorted: Vec<&(String, u32)> = term_counts.iter().collect();
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    // Step 3: the first Sum2 = Sum1 * Percentage. Shares like 0.7 are a hair below their
    // decimal value as f32 (0.69999999); the slack keeps 10 features at 70% at 7, not 6.
    let share = f64::from(params.percentage) * (1.0 + PERCENTAGE_SLACK);
    let sum2 = (sum1 as f64 * share).floor() as usize;
    sorted.truncate(sum2.min(sum1));
    // Step 4: alphabetic order.
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    // Step 5: the first Sum3 = Sum2 DIV Interval * Interval.
    let interval = params.interval.max(1);
    let sum3 = sum2 / interval * interval;
    if sum3 == 0 {
        return None;
    }
    // Step 6: MD5 of the selected words.
    let mut md5 = Md5::new();
    for (i, (term, _)) in sorted.iter().take(sum3).enumerate() {
        if i > 0 {
            md5.update(b" ");
        }
        md5.update(term.as_bytes());
    }
    Some(Fingerprint(md5.finalize().into()))
}

/// The fingerprints of one page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprints {
    /// MD5 of the normalised replica text (see [`template`]).
    pub exact: Option<Fingerprint>,
    /// The paper's keyword fingerprint, of the topic content's features.
    pub keyword: Option<Fingerprint>,
    /// MinHash signature of the replica text (MinHash detection only), kept in the records so
    /// that a resumed run refills its LSH index without the pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minhash: Option<Signature>,
}

impl Fingerprints {
    /// The fingerprints of a page as ingest takes them: MD5 of its `replica_text`, the keyword
    /// fingerprint of its topic content's `term_counts`, and, when `minhash` is given, the
    /// MinHash signature of its replica text. The replica benchmark fingerprints its pages
    /// with the same function.
    pub fn of(
        replica_text: &str,
        term_counts: &[(String, u32)],
        keyword: KeywordParams,
        minhash: Option<&MinHasher>,
    ) -> Fingerprints {
        Fingerprints {
            exact: exact_fingerprint(replica_text),
            keyword: keyword_fingerprint(term_counts, keyword),
            minhash: minhash.and_then(|m| m.signature(replica_text)),
        }
    }
}

/// Which fingerprint matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplicaKind {
    /// Same normalised replica text.
    Exact,
    /// Same keyword fingerprint, different text.
    Near,
}

impl ReplicaKind {
    /// The lowercase name used in records and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            ReplicaKind::Exact => "exact",
            ReplicaKind::Near => "near",
        }
    }
}

/// The fingerprint or signature that found a replica.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Matcher {
    /// The exact fingerprint.
    #[serde(rename = "exact_md5")]
    ExactMd5,
    /// The paper's keyword fingerprint.
    #[serde(rename = "keyword_fingerprint")]
    KeywordFingerprint,
    /// MinHash signatures in the LSH index.
    #[serde(rename = "minhash_lsh")]
    MinHashLsh,
}

impl Matcher {
    /// The name written in `replicas.jsonl`.
    pub fn as_str(self) -> &'static str {
        match self {
            Matcher::ExactMd5 => "exact_md5",
            Matcher::KeywordFingerprint => "keyword_fingerprint",
            Matcher::MinHashLsh => "minhash_lsh",
        }
    }
}

/// A page found to repeat a kept one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReplicaMatch {
    /// Exact copy or near-replica.
    pub kind: ReplicaKind,
    /// What found it.
    pub matcher: Matcher,
    /// The sequence number of the kept page it repeats.
    pub of: u64,
    /// The estimated Jaccard similarity of the two topic contents' shingle sets, for a MinHash
    /// match; `None` for the exact and keyword fingerprints, which measure no similarity.
    pub similarity: Option<f32>,
}

/// Which fingerprints the detector compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Detection {
    /// Exact copies only.
    Exact,
    /// Exact copies and the paper's keyword fingerprint.
    Keyword,
    /// Exact copies and MinHash signatures in an LSH index.
    #[default]
    #[serde(rename = "minhash")]
    MinHash,
}

/// Remembers the fingerprints of the pages kept so far and tells whether a new page repeats
/// one. Holds 16 bytes and a sequence number per fingerprint, and in MinHash mode the compact
/// [`LshIndex`], never the page's text.
#[derive(Debug)]
pub struct ReplicaDetector {
    detection: Detection,
    exact: HashMap<Fingerprint, u64>,
    keyword: HashMap<Fingerprint, u64>,
    lsh: Option<LshIndex>,
    /// For a detector of confirmed pairs ([`ReplicaDetector::of_pairs`]): the kept pages, and
    /// the least estimate a pair needs.
    kept: Option<(std::collections::HashSet<u64>, f32)>,
}

impl ReplicaDetector {
    /// An empty detector; `minhash` is used in MinHash mode only (and checked then).
    pub fn new(detection: Detection, minhash: MinHashParams) -> Result<Self, MinHashError> {
        let lsh = match detection {
            Detection::MinHash => Some(LshIndex::new(minhash)?),
            Detection::Exact | Detection::Keyword => None,
        };
        Ok(ReplicaDetector {
            detection,
            exact: HashMap::new(),
            keyword: HashMap::new(),
            lsh,
            kept: None,
        })
    }

    /// An empty detector whose near-replicas in MinHash mode come from pairs confirmed outside
    /// it ([`ReplicaDetector::check_pairs`]), as the sharded stages join them, instead of its
    /// own LSH index; exact and keyword fingerprints are matched as [`ReplicaDetector::check`]
    /// matches them.
    pub fn of_pairs(detection: Detection, minhash: MinHashParams) -> Result<Self, MinHashError> {
        if detection == Detection::MinHash {
            minhash.validate()?;
        }
        Ok(ReplicaDetector {
            detection,
            exact: HashMap::new(),
            keyword: HashMap::new(),
            lsh: None,
            kept: Some((std::collections::HashSet::new(), minhash.threshold)),
        })
    }

    /// [`ReplicaDetector::check`] for a detector of confirmed pairs: `pairs` are the earlier
    /// pages whose signatures share a band with this page's, with their estimated Jaccard (so
    /// `fingerprints` need not hold the signature). Gives the same verdicts as `check` over the
    /// same pages in the same order.
    pub fn check_pairs(
        &mut self,
        seq: u64,
        fingerprints: &Fingerprints,
        pairs: &[(u64, f32)],
    ) -> Option<ReplicaMatch> {
        if let Some(found) = self.find_fingerprint(fingerprints) {
            return Some(found);
        }
        if self.detection == Detection::MinHash
            && let Some((kept, threshold)) = &self.kept
            && let Some((of, j)) = minhash::best_match(
                pairs.iter().copied().filter(|(of, _)| kept.contains(of)),
                *threshold,
            )
        {
            return Some(ReplicaMatch {
                kind: ReplicaKind::Near,
                matcher: Matcher::MinHashLsh,
                of,
                similarity: Some(j),
            });
        }
        self.remember(seq, fingerprints);
        None
    }

    /// An empty detector of exact copies only (`Detection::Exact`), which needs no parameters.
    pub fn exact_only() -> Self {
        ReplicaDetector {
            detection: Detection::Exact,
            exact: HashMap::new(),
            keyword: HashMap::new(),
            lsh: None,
            kept: None,
        }
    }

    /// The LSH index, in MinHash mode.
    pub fn lsh(&self) -> Option<&LshIndex> {
        self.lsh.as_ref()
    }

    /// The kept page that `fingerprints` repeat, if any; otherwise records them as the kept page
    /// `seq` and returns `None`. An exact match wins over a keyword match.
    pub fn check(&mut self, seq: u64, fingerprints: &Fingerprints) -> Option<ReplicaMatch> {
        if let Some(found) = self.find(fingerprints) {
            return Some(found);
        }
        self.remember(seq, fingerprints);
        None
    }

    /// The kept page that `fingerprints` repeat, if any, without recording anything.
    pub fn find(&self, fingerprints: &Fingerprints) -> Option<ReplicaMatch> {
        if let Some(found) = self.find_fingerprint(fingerprints) {
            return Some(found);
        }
        if self.detection != Detection::MinHash {
            return None;
        }
        let (of, j) = self.lsh.as_ref()?.query(fingerprints.minhash.as_ref()?)?;
        Some(ReplicaMatch {
            kind: ReplicaKind::Near,
            matcher: Matcher::MinHashLsh,
            of,
            similarity: Some(j),
        })
    }

    /// The kept page whose exact fingerprint (or, in keyword mode, keyword fingerprint)
    /// `fingerprints` repeat.
    fn find_fingerprint(&self, fingerprints: &Fingerprints) -> Option<ReplicaMatch> {
        if let Some(&of) = fingerprints.exact.and_then(|f| self.exact.get(&f)) {
            return Some(ReplicaMatch {
                kind: ReplicaKind::Exact,
                matcher: Matcher::ExactMd5,
                of,
                similarity: None,
            });
        }
        match self.detection {
            Detection::Exact => None,
            Detection::Keyword => {
                let &of = fingerprints.keyword.and_then(|f| self.keyword.get(&f))?;
                Some(ReplicaMatch {
                    kind: ReplicaKind::Near,
                    matcher: Matcher::KeywordFingerprint,
                    of,
                    similarity: None,
                })
            }
            Detection::MinHash => None,
        }
    }

    /// Records the fingerprints of the kept page `seq` (first seen wins).
    pub fn remember(&mut self, seq: u64, fingerprints: &Fingerprints) {
        if let Some(f) = fingerprints.exact {
            self.exact.entry(f).or_insert(seq);
        }
        if let Some(f) = fingerprints.keyword {
            self.keyword.entry(f).or_insert(seq);
        }
        if let (Some(lsh), Some(sig)) = (self.lsh.as_mut(), fingerprints.minhash.as_ref()) {
            lsh.insert(seq, sig);
        }
        if let Some((kept, _)) = self.kept.as_mut() {
            kept.insert(seq);
        }
    }

    /// Number of kept pages' fingerprints held.
    pub fn len(&self) -> usize {
        let lsh = self.lsh.as_ref().map_or(0, LshIndex::len);
        self.exact.len().max(self.keyword.len()).max(lsh)
    }

    /// True when nothing is held.
    pub fn is_empty(&self) -> bool {
        self.exact.is_empty()
            && self.keyword.is_empty()
            && self.lsh.as_ref().is_none_or(LshIndex::is_empty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(pairs: &[(&str, u32)]) -> Vec<(String, u32)> {
        pairs.iter().map(|(t, n)| (t.to_string(), *n)).collect()
    }

    #[test]
    fn exact_fingerprint_ignores_case_spacing_and_punctuation() {
        let a = exact_fingerprint("The river rose, at dawn.\n\nBoats moved.");
        let b = exact_fingerprint("the   RIVER rose at dawn -- boats moved");
        let c = exact_fingerprint("The river fell at dawn. Boats moved.");
        assert!(a.is_some());
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(exact_fingerprint(" \n ,. "), None);
        let zh = exact_fingerprint("兰亭新闻：大桥通车。");
        assert_eq!(zh, exact_fingerprint("兰亭新闻 大桥通车"));
    }

    #[test]
    fn keyword_fingerprint_follows_steps_1_to_6() {
        // 12 features; Sum2 = floor(12 * 0.4) = 4; Interval 2 -> Sum3 = 4; Interval 3 -> 3.
        let page = counts(&[
            ("river", 9),
            ("flood", 7),
            ("bridge", 7),
            ("town", 5),
            ("rain", 3),
            ("mayor", 2),
            ("road", 1),
            ("school", 1),
            ("boat", 1),
            ("field", 1),
            ("wall", 1),
            ("night", 1),
        ]);
        let p = |interval| KeywordParams {
            percentage: 0.4,
            interval,
        };
        // Steps 2-5 select bridge, flood, river, town (alphabetical) for interval 2.
        let expected = Fingerprint(Md5::digest(b"bridge flood river town").into());
        assert_eq!(keyword_fingerprint(&page, p(2)), Some(expected));
        // Interval 3: the first three of the alphabetical four.
        let expected3 = Fingerprint(Md5::digest(b"bridge flood river").into());
        assert_eq!(keyword_fingerprint(&page, p(3)), Some(expected3));
        // Interval 5 > Sum2: too few features.
        assert_eq!(keyword_fingerprint(&page, p(5)), None);
    }

    #[test]
    fn percentage_is_not_lost_to_f32_rounding() {
        // 0.7f32 and 0.9f32 are just below 0.7 and 0.9: 10 features must still give 7 and 9.
        let page: Vec<(String, u32)> = (0..10).map(|i| (format!("w{i}"), 10 - i)).collect();
        for (percentage, selected) in [(0.7f32, 7usize), (0.9, 9), (0.4, 4), (0.1, 1)] {
            let words: Vec<String> = (0..selected).map(|i| format!("w{i}")).collect();
            let expected = Fingerprint(Md5::digest(words.join(" ").as_bytes()).into());
            let params = KeywordParams {
                percentage,
                interval: 1,
            };
            assert_eq!(
                keyword_fingerprint(&page, params),
                Some(expected),
                "{percentage}"
            );
        }
    }

    #[test]
    fn near_replica_shares_the_keyword_fingerprint_and_non_replica_does_not() {
        // The same article with a few low-frequency words changed (an edited copy): the
        // high-frequency features are the same, so is the fingerprint.
        let mut original = Vec::new();
        for (i, w) in ["harbor", "ferry", "island", "storm", "crossing", "captain"]
            .iter()
            .enumerate()
        {
            original.push((w.to_string(), 10 - i as u32));
        }
        for i in 0..14 {
            original.push((format!("rare{i:02}"), 1));
        }
        let mut edited = original.clone();
        edited.truncate(18);
        edited.push(("reprint".into(), 1));
        edited.push(("source".into(), 1));
        let params = KeywordParams {
            percentage: 0.4,
            interval: 5,
        };
        let a = keyword_fingerprint(&original, params);
        assert!(a.is_some());
        assert_eq!(a, keyword_fingerprint(&edited, params));
        let mut other = original.clone();
        other[0].0 = "railway".into();
        assert_ne!(a, keyword_fingerprint(&other, params));
    }

    #[test]
    fn detector_keeps_the_first_and_names_it() {
        let fp = |e: u8, k: u8| Fingerprints {
            exact: Some(Fingerprint([e; 16])),
            keyword: Some(Fingerprint([k; 16])),
            minhash: None,
        };
        let params = MinHashParams::default();
        let mut d = ReplicaDetector::new(Detection::Keyword, params).unwrap();
        assert_eq!(d.check(0, &fp(1, 1)), None);
        assert_eq!(d.check(1, &fp(2, 2)), None);
        let exact = d.check(2, &fp(1, 9)).unwrap();
        assert_eq!((exact.kind, exact.of), (ReplicaKind::Exact, 0));
        let near = d.check(3, &fp(7, 2)).unwrap();
        assert_eq!((near.kind, near.of), (ReplicaKind::Near, 1));
        assert_eq!(
            d.check(4, &Fingerprints::default()),
            None,
            "no text, no match"
        );
        let mut exact_only = ReplicaDetector::new(Detection::Exact, params).unwrap();
        exact_only.check(0, &fp(1, 1));
        assert_eq!(exact_only.check(1, &fp(2, 1)), None);
    }

    #[test]
    fn minhash_detector_finds_exact_copies_first_then_near_replicas() {
        let hasher = MinHasher::new(MinHashParams::default()).unwrap();
        let fp = |text: &str| Fingerprints {
            exact: exact_fingerprint(text),
            keyword: None,
            minhash: hasher.signature(text),
        };
        let article = "The county opened the new river bridge on Friday after two years of \
                       work. Commuters from the east bank saved twenty minutes on the first \
                       morning, and the old ferry landing will become a small park with benches \
                       and a plaque about the crossing.";
        let other = "The school board voted to extend the library hours through the summer, \
                     citing a rise in borrowing by younger readers and a new grant that pays \
                     for two part-time staff and a reading program on weekday afternoons.";
        let mut d = ReplicaDetector::new(Detection::MinHash, MinHashParams::default()).unwrap();
        assert_eq!(d.check(0, &fp(article)), None);
        assert_eq!(d.check(1, &fp(other)), None);
        let copy = d.check(2, &fp(&article.to_uppercase())).unwrap();
        assert_eq!(
            (copy.kind, copy.matcher, copy.of, copy.similarity),
            (ReplicaKind::Exact, Matcher::ExactMd5, 0, None)
        );
        let noted = format!("Reprinted from the County Courier. {article}");
        let near = d.check(3, &fp(&noted)).unwrap();
        assert_eq!(
            (near.kind, near.matcher, near.of),
            (ReplicaKind::Near, Matcher::MinHashLsh, 0)
        );
        assert!(near.similarity.unwrap() >= 0.5, "{near:?}");
        assert_eq!(d.len(), 2);
        assert_eq!(d.lsh().unwrap().len(), 2);
        // The keyword detector keeps no LSH index.
        let keyword = ReplicaDetector::new(Detection::Keyword, MinHashParams::default()).unwrap();
        assert!(keyword.lsh().is_none());
        assert_eq!(Matcher::MinHashLsh.as_str(), "minhash_lsh");
        assert_eq!(
            serde_json::to_string(&Detection::MinHash).unwrap(),
            "\"minhash\""
        );
    }

    #[test]
    fn fingerprints_round_trip_as_hex() {
        let f = Fingerprint([0xab; 16]);
        let hex = f.to_string();
        assert_eq!(hex.len(), 32);
        assert_eq!(Fingerprint::from_hex(&hex), Some(f));
        assert_eq!(Fingerprint::from_hex("xyz"), None);
        let json = serde_json::to_string(&Fingerprints {
            exact: Some(f),
            keyword: None,
            minhash: None,
        })
        .unwrap();
        assert_eq!(json, format!("{{\"exact\":\"{hex}\",\"keyword\":null}}"));
    }
}
