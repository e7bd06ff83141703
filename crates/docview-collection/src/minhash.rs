//! Near-replica detection beyond the paper: MinHash signatures of the word shingles of a page's
//! topic content, and an LSH index (banding) of the signatures of the pages kept so far.
//!
//! - **Shingles**: every run of `shingle` consecutive tokens (the tokens of
//!   [`crate::text::tokens`], lowercased: `\w+` runs, each CJK ideograph one token). Each token
//!   is hashed with `FxHasher` (deterministic, no random state), a shingle's token hashes are
//!   combined and finalised with the MurmurHash3 64-bit mixer.
//! - **Signature**: one-permutation hashing with optimal densification (Shrivastava 2017): the
//!   high bits of a shingle hash choose one of `permutations` bins, each bin keeps its least
//!   hash, and an empty bin (short texts) copies the bin its fixed probe sequence finds first.
//!   One hash per shingle instead of `permutations`: a 1,700-token page costs 1,700 bin updates
//!   rather than 218,000 multiply-adds, with the same estimator on texts longer than a few
//!   hundred shingles. Each minimum is kept as a 16-bit digest (b-bit minwise hashing with
//!   b = 16): the Jaccard estimate is the share of equal slots, biased upwards by at most 2^-16
//!   by digest collisions.
//! - **LSH index**: the slots are cut into `bands` bands of `rows` rows; two pages are
//!   candidates when all rows of some band are equal, and a candidate is a replica when its
//!   estimated Jaccard reaches `threshold`. The index keeps per page only its sequence number,
//!   its 16-bit slots and one chain link per band (under 1 KB with the defaults); the bucket
//!   table holds no keys: a bucket hit is confirmed by comparing the band's slots.

use std::fmt::Write as _;
use std::hash::Hasher;

use rustc_hash::FxHasher;
use serde::{Deserialize, Serialize};

use crate::text::for_each_lower_token;

/// Default shingle size, in tokens (words; CJK ideographs count one each).
pub const DEFAULT_SHINGLE: usize = 5;
/// Default number of min-hashes in a signature.
pub const DEFAULT_PERMUTATIONS: usize = 128;
/// Default number of LSH bands (4 rows each with 128 permutations).
pub const DEFAULT_BANDS: usize = 32;
/// Default least estimated Jaccard of a near-replica.
pub const DEFAULT_THRESHOLD: f32 = 0.5;
/// Default seed of the hash functions.
pub const DEFAULT_SEED: u64 = 0x646f_6376_6965_7731;
/// Most permutations a signature may have.
pub const MAX_PERMUTATIONS: usize = 1024;

/// The parameters of MinHash near-replica detection.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MinHashParams {
    /// Tokens per shingle.
    pub shingle: usize,
    /// Min-hashes per signature.
    pub permutations: usize,
    /// LSH bands; must divide `permutations`.
    pub bands: usize,
    /// Least estimated Jaccard of a near-replica (0 to 1).
    pub threshold: f32,
    /// Seed of the hash functions.
    pub seed: u64,
}

impl Default for MinHashParams {
    fn default() -> Self {
        MinHashParams {
            shingle: DEFAULT_SHINGLE,
            permutations: DEFAULT_PERMUTATIONS,
            bands: DEFAULT_BANDS,
            threshold: DEFAULT_THRESHOLD,
            seed: DEFAULT_SEED,
        }
    }
}

/// Parameters that cannot work.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MinHashError {
    /// A shingle needs at least one token.
    #[error("the shingle size must be at least 1 token")]
    EmptyShingle,
    /// The signature size is 0 or too large.
    #[error("{0} permutations: give 1 to {MAX_PERMUTATIONS}")]
    Permutations(usize),
    /// The bands do not cut the signature into equal rows.
    #[error("{bands} bands do not divide {permutations} permutations")]
    Bands {
        /// Bands asked for.
        bands: usize,
        /// Permutations asked for.
        permutations: usize,
    },
    /// The threshold is not a share.
    #[error("minhash threshold {0} is not in (0, 1]")]
    Threshold(f32),
}

impl MinHashParams {
    /// Checks that the parameters can work.
    pub fn validate(&self) -> Result<(), MinHashError> {
        if self.shingle == 0 {
            return Err(MinHashError::EmptyShingle);
        }
        if self.permutations == 0 || self.permutations > MAX_PERMUTATIONS {
            return Err(MinHashError::Permutations(self.permutations));
        }
        if self.bands == 0 || !self.permutations.is_multiple_of(self.bands) {
            return Err(MinHashError::Bands {
                bands: self.bands,
                permutations: self.permutations,
            });
        }
        if !(self.threshold > 0.0 && self.threshold <= 1.0) {
            return Err(MinHashError::Threshold(self.threshold));
        }
        Ok(())
    }

    /// Rows per band.
    pub fn rows(&self) -> usize {
        self.permutations / self.bands.max(1)
    }

    /// Probability that a page of Jaccard similarity `s` to a kept one shares a band with it:
    /// `1 - (1 - s^rows)^bands` (the S-curve).
    pub fn candidate_probability(&self, s: f32) -> f64 {
        let band = f64::from(s).powi(self.rows() as i32);
        1.0 - (1.0 - band).powi(self.bands as i32)
    }
}

/// The MinHash signature of a text: one 16-bit digest of each min-hash.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Signature(Box<[u16]>);

impl Signature {
    /// The slots.
    pub fn slots(&self) -> &[u16] {
        &self.0
    }

    /// The signature of these slots (as [`Signature::slots`] gave them).
    pub fn from_slots(slots: &[u16]) -> Signature {
        Signature(slots.into())
    }

    /// The bucket key of each of its bands under `params` (one per band, in band order): two
    /// signatures are candidates when a band's rows, and so its key, are equal. The sharded
    /// stages join pages on these keys; [`LshIndex`] buckets with the same function.
    pub fn band_keys(&self, params: &MinHashParams) -> Vec<u64> {
        let rows = params.rows();
        if self.0.len() != params.permutations || rows == 0 {
            return Vec::new();
        }
        (0..params.bands)
            .map(|band| band_hash(band, &self.0[band * rows..(band + 1) * rows]))
            .collect()
    }

    /// True when band `band` under `params` holds the same rows in both signatures.
    pub fn same_band(&self, other: &Signature, band: usize, params: &MinHashParams) -> bool {
        let rows = params.rows();
        let range = band * rows..(band + 1) * rows;
        self.0.len() == other.0.len()
            && self.0.len() >= range.end
            && self.0[range.clone()] == other.0[range]
    }

    /// Estimated Jaccard similarity of the two shingle sets: the share of equal slots (0 when
    /// the signatures differ in size).
    pub fn jaccard(&self, other: &Signature) -> f32 {
        estimate(&self.0, &other.0)
    }
}

/// Written as hexadecimal, four digits a slot (`docviews.jsonl` keeps it for `--resume`).
impl Serialize for Signature {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut hex = String::with_capacity(self.0.len() * 4);
        for slot in self.0.iter() {
            let _ = write!(hex, "{slot:04x}");
        }
        s.serialize_str(&hex)
    }
}

impl<'de> Deserialize<'de> for Signature {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let hex = String::deserialize(d)?;
        let bad = || serde::de::Error::custom("not a MinHash signature (4 hex digits a slot)");
        if hex.is_empty() || !hex.len().is_multiple_of(4) || !hex.is_ascii() {
            return Err(bad());
        }
        (0..hex.len())
            .step_by(4)
            .map(|i| u16::from_str_radix(&hex[i..i + 4], 16).map_err(|_| bad()))
            .collect::<Result<Vec<u16>, D::Error>>()
            .map(|v| Signature(v.into_boxed_slice()))
    }
}

fn estimate(a: &[u16], b: &[u16]) -> f32 {
    if a.len() != b.len() || a.is_empty() {
        return 0.0;
    }
    let equal = a.iter().zip(b).filter(|(x, y)| x == y).count();
    equal as f32 / a.len() as f32
}

/// MurmurHash3's 64-bit finaliser.
pub(crate) fn fmix64(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// Computes signatures; built once (parameters checked), shared by the workers.
#[derive(Debug, Clone)]
pub struct MinHasher {
    params: MinHashParams,
}

impl MinHasher {
    /// The signatures of `params` (checked).
    pub fn new(params: MinHashParams) -> Result<MinHasher, MinHashError> {
        params.validate()?;
        Ok(MinHasher { params })
    }

    /// The signatures that tell a site's copies of one page from its other pages while its
    /// template is learnt ([`CopyKey`](crate::stats::template::CopyKey)): 64 min-hashes of 5-token
    /// shingles (fixed, valid parameters: a test checks them).
    pub fn for_copies() -> MinHasher {
        MinHasher {
            params: MinHashParams {
                permutations: 64,
                bands: 1,
                ..MinHashParams::default()
            },
        }
    }

    /// The parameters.
    pub fn params(&self) -> &MinHashParams {
        &self.params
    }

    /// The signature of `text`; `None` when it has fewer tokens than a shingle.
    pub fn signature(&self, text: &str) -> Option<Signature> {
        let MinHashParams {
            shingle,
            permutations,
            seed,
            ..
        } = self.params;
        let mut mins = vec![u64::MAX; permutations];
        let mut filled = vec![false; permutations];
        let mut any = false;
        for_each_shingle_hash(text, shingle, seed, |h| {
            let bin = fast_range(h, permutations);
            mins[bin] = mins[bin].min(h);
            filled[bin] = true;
            any = true;
        });
        if !any {
            return None;
        }
        densify(&mut mins, &filled, seed);
        Some(Signature(
            mins.into_iter()
                .map(|m| (fmix64(m ^ seed) >> 48) as u16)
                .collect(),
        ))
    }
}

/// `h` scaled to `0..n` by its high bits.
fn fast_range(h: u64, n: usize) -> usize {
    ((u128::from(h) * n as u128) >> 64) as usize
}

/// Optimal densification (Shrivastava 2017): each empty bin takes the minimum of the first
/// filled bin of its own fixed probe sequence, the same sequence for every text, so that two
/// texts agree on a densified bin as often as on a real one. Needs one filled bin.
fn densify(mins: &mut [u64], filled: &[bool], seed: u64) {
    let n = mins.len();
    for bin in 0..n {
        if filled[bin] {
            continue;
        }
        let mut attempt = 0u64;
        loop {
            attempt += 1;
            let probe = fmix64(seed ^ ((bin as u64) << 32) ^ attempt.wrapping_mul(0x9E37_79B9));
            let from = fast_range(probe, n);
            if filled[from] {
                mins[bin] = mins[from];
                break;
            }
        }
    }
}

/// The 64-bit hashes of the `k`-token shingles of `text`, in order (repeats kept).
pub fn shingle_hashes(text: &str, k: usize, seed: u64) -> Vec<u64> {
    let mut out = Vec::new();
    for_each_shingle_hash(text, k, seed, |h| out.push(h));
    out
}

/// Calls `f` with the hash of each `k`-token shingle of `text`, in order; nothing when the
/// text has fewer than `k` tokens.
fn for_each_shingle_hash(text: &str, k: usize, seed: u64, mut f: impl FnMut(u64)) {
    let k = k.max(1);
    // The last k token hashes, as a ring.
    let mut window = vec![0u64; k];
    let mut seen = 0usize;
    for_each_lower_token(text, |token| {
        window[seen % k] = token_hash(token);
        seen += 1;
        if seen >= k {
            let mut h = seed;
            for i in seen - k..seen {
                h = (h.rotate_left(23) ^ window[i % k]).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            }
            f(fmix64(h));
        }
    });
}

/// A 64-bit key of a text's tokens, lowercased, in order: texts that differ only in case,
/// spacing or punctuation have the same key. `None` for a text with no token.
pub fn token_sequence_key(text: &str) -> Option<u64> {
    token_sequence(text).map(|(key, _)| key)
}

/// The [`token_sequence_key`] of a text and its number of tokens.
pub fn token_sequence(text: &str) -> Option<(u64, usize)> {
    let mut h = DEFAULT_SEED;
    let mut n = 0usize;
    for_each_lower_token(text, |token| {
        n += 1;
        h = (h.rotate_left(23) ^ token_hash(token)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    });
    (n > 0).then(|| (fmix64(h), n))
}

/// FxHash of a (lowercased) token.
fn token_hash(token: &str) -> u64 {
    let mut h = FxHasher::default();
    h.write(token.as_bytes());
    h.finish()
}

/// "No page" in the chain arrays.
const NONE: u32 = u32::MAX;

/// The signatures of the pages kept so far, banded for candidate lookup.
///
/// Storage: `slots` (the pages' signatures end to end), `seqs`, `next` (one chain link per page
/// and band: the previous cell whose band hashed to the same bucket) and `heads` (the last cell
/// of each bucket; a power of two at least the number of cells). Cells are `page * bands +
/// band`, so the index holds at most 2^32 / bands pages.
#[derive(Debug, Clone)]
pub struct LshIndex {
    params: MinHashParams,
    rows: usize,
    slots: Vec<u16>,
    seqs: Vec<u64>,
    next: Vec<u32>,
    heads: Vec<u32>,
}

impl LshIndex {
    /// An empty index (`params` checked).
    pub fn new(params: MinHashParams) -> Result<LshIndex, MinHashError> {
        params.validate()?;
        Ok(LshIndex {
            params,
            rows: params.rows(),
            slots: Vec::new(),
            seqs: Vec::new(),
            next: Vec::new(),
            heads: vec![NONE; 1024],
        })
    }

    /// Pages held.
    pub fn len(&self) -> usize {
        self.seqs.len()
    }

    /// True when no page is held.
    pub fn is_empty(&self) -> bool {
        self.seqs.is_empty()
    }

    /// Bytes of heap the index holds.
    pub fn memory_bytes(&self) -> usize {
        self.slots.capacity() * 2
            + self.seqs.capacity() * 8
            + self.next.capacity() * 4
            + self.heads.capacity() * 4
    }

    /// Adds the kept page `seq`. Signatures of another size than the index's are ignored.
    pub fn insert(&mut self, seq: u64, sig: &Signature) {
        if sig.0.len() != self.params.permutations {
            return;
        }
        let page = self.seqs.len();
        let bands = self.params.bands;
        let cells = (page + 1) * bands;
        assert!(
            cells <= NONE as usize,
            "an LshIndex holds at most 2^32 / bands pages"
        );
        grow(&mut self.seqs, 1);
        grow(&mut self.slots, sig.0.len());
        grow(&mut self.next, bands);
        self.seqs.push(seq);
        self.slots.extend_from_slice(&sig.0);
        self.next.resize(cells, NONE);
        if cells > self.heads.len() {
            self.rehash(cells.next_power_of_two());
        } else {
            for band in 0..bands {
                self.link(page * bands + band);
            }
        }
    }

    /// Among the kept pages that share a band with `sig`, the one of highest estimated Jaccard
    /// that reaches the threshold (ties to the lower sequence number), with that estimate.
    pub fn query(&self, sig: &Signature) -> Option<(u64, f32)> {
        if sig.0.len() != self.params.permutations || self.is_empty() {
            return None;
        }
        let bands = self.params.bands;
        let mask = self.heads.len() - 1;
        let mut candidates: Vec<u32> = Vec::new();
        for band in 0..bands {
            let rows = &sig.0[band * self.rows..(band + 1) * self.rows];
            let mut cell = self.heads[band_hash(band, rows) as usize & mask];
            while cell != NONE {
                let (page, b) = (cell as usize / bands, cell as usize % bands);
                if b == band && self.band_of(page, band) == rows {
                    candidates.push(page as u32);
                }
                cell = self.next[cell as usize];
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        let n = self.params.permutations;
        best_match(
            candidates.into_iter().map(|page| {
                let page = page as usize;
                let j = estimate(&self.slots[page * n..(page + 1) * n], &sig.0);
                (self.seqs[page], j)
            }),
            self.params.threshold,
        )
    }

    fn band_of(&self, page: usize, band: usize) -> &[u16] {
        let start = page * self.params.permutations + band * self.rows;
        &self.slots[start..start + self.rows]
    }

    /// Puts `cell` at the head of its bucket's chain.
    fn link(&mut self, cell: usize) {
        let bands = self.params.bands;
        let (page, band) = (cell / bands, cell % bands);
        let bucket = band_hash(band, self.band_of(page, band)) as usize & (self.heads.len() - 1);
        self.next[cell] = self.heads[bucket];
        self.heads[bucket] = cell as u32;
    }

    /// Rebuilds the bucket table with `buckets` buckets (a power of two).
    fn rehash(&mut self, buckets: usize) {
        self.heads = vec![NONE; buckets];
        for cell in 0..self.next.len() {
            self.link(cell);
        }
    }
}

/// Grows `v` by a quarter (at least 64 elements) when `extra` more do not fit: amortised
/// constant time with less slack than doubling.
fn grow<T>(v: &mut Vec<T>, extra: usize) {
    if v.len() + extra > v.capacity() {
        v.reserve_exact((v.len() / 4).max(64 * extra).max(extra));
    }
}

/// Among kept pages `(seq, estimated Jaccard)`, the one of highest estimate that reaches
/// `threshold`, ties to the lower sequence number: the near-replica rule of the LSH index and
/// of the sharded stages' confirmed pairs alike.
pub fn best_match(
    candidates: impl IntoIterator<Item = (u64, f32)>,
    threshold: f32,
) -> Option<(u64, f32)> {
    let mut best: Option<(u64, f32)> = None;
    for (seq, j) in candidates {
        if j < threshold {
            continue;
        }
        let better = match best {
            None => true,
            Some((s, bj)) => j > bj || (j == bj && seq < s),
        };
        if better {
            best = Some((seq, j));
        }
    }
    best
}

/// The bucket key of band `band` holding `rows`.
fn band_hash(band: usize, rows: &[u16]) -> u64 {
    let mut h = band as u64 ^ 0x5be0_cd19_137e_2179;
    for &r in rows {
        h = (h.rotate_left(17) ^ u64::from(r)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fmix64(h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::Framework;
    use crate::extract::extract_page;

    /// The topic text of a corpus-samples page, as the framework cleaner keeps it.
    fn topic(page: &str) -> String {
        let path = format!(
            "{}/../../corpus-samples/sites/{page}",
            env!("CARGO_MANIFEST_DIR")
        );
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        extract_page(&bytes, None, page, &Framework::default())
            .unwrap()
            .cleaned
            .topic_text
    }

    fn hasher() -> MinHasher {
        MinHasher::new(MinHashParams::default()).unwrap()
    }

    fn similarity(a: &str, b: &str) -> f32 {
        let h = hasher();
        h.signature(a).unwrap().jaccard(&h.signature(b).unwrap())
    }

    /// SplitMix64: the stream that draws the hash functions from the seed.
    fn splitmix64(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A reproducible pseudo-random signature.
    fn random_signature(state: &mut u64, n: usize) -> Signature {
        Signature((0..n).map(|_| splitmix64(state) as u16).collect())
    }

    #[test]
    fn signatures_are_deterministic_and_a_copy_has_jaccard_one() {
        let text = topic("harbor-gazette/ferry.html");
        let a = hasher().signature(&text).unwrap();
        let b = hasher().signature(&text).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.slots().len(), DEFAULT_PERMUTATIONS);
        assert_eq!(a.jaccard(&b), 1.0);
        // Case, spacing and punctuation are not part of the shingles.
        let shouted = text.to_uppercase().replace(['.', ','], " ");
        assert_eq!(a.jaccard(&hasher().signature(&shouted).unwrap()), 1.0);
        // Another seed, other hash functions.
        let other = MinHasher::new(MinHashParams {
            seed: 7,
            ..MinHashParams::default()
        })
        .unwrap();
        assert!(a.jaccard(&other.signature(&text).unwrap()) < 0.2);
        // Fixed values: a change of hash function or token rule shows here.
        let one = hasher().signature("One, two, THREE four five!").unwrap();
        // One shingle fills one bin; densification copies it to all the others.
        assert!(one.slots().iter().all(|&s| s == 62915));
        assert_eq!(a.slots()[..4], [59818, 62538, 52963, 13660]);
    }

    #[test]
    fn signatures_are_written_as_hex_and_read_back() {
        let sig = hasher()
            .signature(&topic("harbor-gazette/ferry.html"))
            .unwrap();
        let json = serde_json::to_string(&sig).unwrap();
        assert_eq!(json.len(), 2 + 4 * DEFAULT_PERMUTATIONS);
        assert!(json.starts_with(&format!("\"{:04x}", sig.slots()[0])));
        assert_eq!(serde_json::from_str::<Signature>(&json).unwrap(), sig);
        for bad in ["\"\"", "\"abc\"", "\"zzzz\"", "\"é123\"", "12"] {
            assert!(serde_json::from_str::<Signature>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn token_sequence_keys_ignore_case_spacing_and_punctuation() {
        assert_eq!(
            token_sequence_key("About  us!"),
            token_sequence_key("about us")
        );
        assert_ne!(
            token_sequence_key("about us"),
            token_sequence_key("us about")
        );
        assert_eq!(token_sequence_key(" -- "), None);
    }

    #[test]
    fn too_short_texts_have_no_signature() {
        assert_eq!(hasher().signature("four words only here"), None);
        assert_eq!(hasher().signature(" ,.; "), None);
        assert!(hasher().signature("five words are enough here").is_some());
        // Each ideograph is a token: five of them make a shingle.
        assert!(hasher().signature("清溪大桥通").is_some());
    }

    #[test]
    fn estimates_follow_the_true_jaccard() {
        // Shingle sets of 400 words with 0, 100, 200 or 300 of them replaced: 5-shingles of
        // distinct words, so the true Jaccard is known from the shared windows.
        let words: Vec<String> = (0..400).map(|i| format!("w{i}")).collect();
        let h = hasher();
        let base = h.signature(&words.join(" ")).unwrap();
        for replaced in [100usize, 200, 300] {
            let mut other = words.clone();
            for w in other.iter_mut().skip(400 - replaced) {
                w.push('x');
            }
            let truth = {
                let a: std::collections::HashSet<u64> =
                    shingle_hashes(&words.join(" "), 5, 1).into_iter().collect();
                let b: std::collections::HashSet<u64> =
                    shingle_hashes(&other.join(" "), 5, 1).into_iter().collect();
                a.intersection(&b).count() as f32 / a.union(&b).count() as f32
            };
            let est = base.jaccard(&h.signature(&other.join(" ")).unwrap());
            assert!(
                (est - truth).abs() < 0.12,
                "{replaced} replaced: true {truth}, estimated {est}"
            );
        }
    }

    #[test]
    fn edited_copies_of_an_article_are_near_replicas() {
        let original = topic("harbor-gazette/ferry.html");
        let params = MinHashParams::default();
        // An editor's note before the text.
        let noted = format!(
            "Editor's note: this report first appeared in The Harbor Gazette and is reprinted \
             with permission, lightly edited for length.\n\n{original}"
        );
        // A changed headline (the first line).
        let (_, body) = original.split_once('\n').unwrap();
        let retitled = format!("Gull Island ferry back in service\n{body}");
        for edited in [&noted, &retitled] {
            let j = similarity(&original, edited);
            assert!(j >= params.threshold + 0.2, "{j}");
        }
    }

    #[test]
    fn the_same_article_in_another_template_is_found_after_cleaning() {
        let threshold = MinHashParams::default().threshold;
        for (a, b) in [
            (
                "harbor-gazette/ferry.html",
                "fieldnotes/ferry-from-the-archive.html",
            ),
            (
                "harbor-gazette/lighthouse.html",
                "fieldnotes/point-ruth-light.html",
            ),
            // Chinese: GB2312 table layout vs UTF-8 HTML5, prefixed headline, 编者按 line.
            (
                "lanting-news/bridge.html",
                "xinyu-daily/bridge-reprint.html",
            ),
        ] {
            let j = similarity(&topic(a), &topic(b));
            assert!(j >= threshold + 0.1, "{a} ~ {b}: {j}");
        }
    }

    #[test]
    fn different_articles_are_not_near_replicas() {
        let threshold = MinHashParams::default().threshold;
        // Different articles in the same template.
        let site = [
            "harbor-gazette/baseball.html",
            "harbor-gazette/clam-flats.html",
            "harbor-gazette/council.html",
            "harbor-gazette/ferry.html",
            "harbor-gazette/lighthouse.html",
            "harbor-gazette/storm.html",
            "lanting-news/bridge.html",
            "lanting-news/cold-wave.html",
            "lanting-news/dragon-boat.html",
            "lanting-news/tea-harvest.html",
        ];
        let texts: Vec<String> = site.iter().map(|p| topic(p)).collect();
        for i in 0..texts.len() {
            for j in i + 1..texts.len() {
                let s = similarity(&texts[i], &texts[j]);
                assert!(s < 0.2, "{} ~ {}: {s}", site[i], site[j]);
            }
        }
        // Two different reports of the same event.
        let a = "The Gull Island ferry resumed service on Monday after three weeks of repairs \
                 to the town dock. Harbor master Ellen Price said the new pilings should last \
                 another forty years, and the first crossing carried sixty passengers and a \
                 delivery truck of groceries for the island store.";
        let b = "After nearly a month without a boat, islanders cheered as the ferry pulled in \
                 on Monday morning. The dock, damaged in the March storm, now stands on new \
                 pilings. Residents said the weeks of waiting for groceries by private boat had \
                 been hard, and the store owner was first in line at the ramp.";
        let s = similarity(a, b);
        assert!(s < threshold / 2.0, "{s}");
    }

    #[test]
    fn lsh_returns_the_best_candidate_and_ties_to_the_lower_seq() {
        let base = topic("harbor-gazette/ferry.html");
        let h = hasher();
        let mut index = LshIndex::new(MinHashParams::default()).unwrap();
        let paragraphs: Vec<&str> = base.split('\n').filter(|p| !p.is_empty()).collect();
        // Kept pages: the article without its last two paragraphs (seq 10), without its last
        // one (seq 11, closer), and an unrelated article (seq 12).
        let n = paragraphs.len();
        index.insert(10, &h.signature(&paragraphs[..n - 2].join("\n")).unwrap());
        index.insert(11, &h.signature(&paragraphs[..n - 1].join("\n")).unwrap());
        index.insert(
            12,
            &h.signature(&topic("harbor-gazette/storm.html")).unwrap(),
        );
        let full = h.signature(&base).unwrap();
        let (seq, j) = index.query(&full).unwrap();
        assert_eq!(seq, 11, "{j}");
        assert!(j >= 0.5);
        // The same signature under two sequence numbers: the lower wins.
        index.insert(9, &full);
        index.insert(8, &full);
        assert_eq!(index.query(&full), Some((8, 1.0)));
        assert_eq!(index.len(), 5);
        // Nothing close enough: no match.
        let council = h.signature(&topic("harbor-gazette/council.html")).unwrap();
        assert_eq!(index.query(&council), None);
    }

    #[test]
    fn index_memory_per_page_stays_under_a_kilobyte() {
        let mut index = LshIndex::new(MinHashParams::default()).unwrap();
        let mut state = 42;
        let sigs: Vec<Signature> = (0..10_000)
            .map(|_| random_signature(&mut state, DEFAULT_PERMUTATIONS))
            .collect();
        for (seq, sig) in sigs.iter().enumerate() {
            index.insert(seq as u64, sig);
            // Lookups still find each page after the table grew.
            if seq % 1000 == 999 {
                assert_eq!(index.query(&sigs[seq / 2]), Some(((seq / 2) as u64, 1.0)));
            }
        }
        assert_eq!(index.len(), 10_000);
        let per_page = index.memory_bytes() / index.len();
        assert!(per_page <= 1024, "{per_page} bytes per page");
        // A random signature shares no band with them.
        assert_eq!(
            index.query(&random_signature(&mut state, DEFAULT_PERMUTATIONS)),
            None
        );
    }

    #[test]
    fn the_default_bands_separate_near_replicas_from_others() {
        let p = MinHashParams::default();
        assert_eq!((p.bands, p.rows()), (32, 4));
        // The S-curve 1 - (1 - s^4)^32: most pages at the threshold are candidates, nearly all
        // real near-replicas (0.7 and up), few unrelated pages.
        assert!(p.candidate_probability(0.5) > 0.87);
        assert!(p.candidate_probability(0.7) > 0.999);
        assert!(p.candidate_probability(0.2) < 0.06);
        assert!(p.candidate_probability(0.1) < 0.004);
    }

    #[test]
    fn parameters_that_cannot_work_are_refused() {
        let d = MinHashParams::default();
        let bad = |p: MinHashParams| MinHasher::new(p).unwrap_err();
        assert_eq!(
            bad(MinHashParams { shingle: 0, ..d }),
            MinHashError::EmptyShingle
        );
        assert_eq!(
            bad(MinHashParams {
                permutations: 0,
                ..d
            }),
            MinHashError::Permutations(0)
        );
        assert!(matches!(
            bad(MinHashParams { bands: 5, ..d }),
            MinHashError::Bands { bands: 5, .. }
        ));
        assert!(matches!(
            LshIndex::new(MinHashParams {
                threshold: 1.5,
                ..d
            }),
            Err(MinHashError::Threshold(_))
        ));
        assert!(d.validate().is_ok());
    }
}
