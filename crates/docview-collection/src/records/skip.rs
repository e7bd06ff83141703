//! Why an input gave no page ([`Skip`]): the reason a line of `skipped.jsonl` gives and the
//! run's summary counts under, kept typed from the reader that skipped it to the summary.
//! It is written as its short label and parses back from it, so the files keep their text.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use docview_extract::NotAPage;
use docview_input::{SkipKind, SkipReason};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Why an input gave no page, as counted: the kind of the reason, without its detail (which
/// the skipped line keeps beside it).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Skip {
    /// An input record that is not a page (not HTML, an error status, a WARC revisit record, a
    /// file that is no page): the input reader's kind.
    Input(SkipKind),
    /// A broken input record, line or file.
    Malformed,
    /// Bytes that are no HTML page (empty, binary data).
    NotAPage(NotAPage),
    /// A page that could not be cleaned for another reason.
    Unreadable,
}

/// The label of [`Skip::Malformed`].
const MALFORMED: &str = "malformed record";
/// The label of [`Skip::Unreadable`].
const UNREADABLE: &str = "unreadable page";

impl From<&SkipReason> for Skip {
    fn from(reason: &SkipReason) -> Skip {
        Skip::Input(reason.kind())
    }
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::Input(kind) => kind.fmt(f),
            Skip::Malformed => f.write_str(MALFORMED),
            Skip::NotAPage(why) => f.write_str(why.label()),
            Skip::Unreadable => f.write_str(UNREADABLE),
        }
    }
}

/// A label that names no [`Skip`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown skip reason {0:?}")]
pub struct UnknownSkip(pub String);

impl FromStr for Skip {
    type Err = UnknownSkip;

    /// The reason a label names (as [`Display`](fmt::Display) writes it).
    fn from_str(label: &str) -> Result<Skip, UnknownSkip> {
        match label {
            MALFORMED => return Ok(Skip::Malformed),
            UNREADABLE => return Ok(Skip::Unreadable),
            _ => {}
        }
        if let Some(why) = NotAPage::ALL.into_iter().find(|w| w.label() == label) {
            return Ok(Skip::NotAPage(why));
        }
        label
            .parse()
            .map(Skip::Input)
            .map_err(|_| UnknownSkip(label.to_string()))
    }
}

/// Reasons sort by their labels, as the counts in `summary.json` and `state.json` list them.
impl Ord for Skip {
    fn cmp(&self, other: &Skip) -> Ordering {
        if self == other {
            return Ordering::Equal;
        }
        self.to_string().cmp(&other.to_string())
    }
}

impl PartialOrd for Skip {
    fn partial_cmp(&self, other: &Skip) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Serialize for Skip {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Skip, D::Error> {
        let label = std::borrow::Cow::<str>::deserialize(deserializer)?;
        label.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn every_kind() -> Vec<Skip> {
        vec![
            Skip::Input(SkipKind::HttpStatus(404)),
            Skip::Input(SkipKind::HttpStatus(1000)),
            Skip::Input(SkipKind::NotHtml),
            Skip::Input(SkipKind::NotResponse {
                warc_type: "revisit".into(),
            }),
            Skip::Input(SkipKind::NotPageFile),
            Skip::Input(SkipKind::NoUrl),
            Skip::Input(SkipKind::NotPageUrl),
            Skip::Malformed,
            Skip::NotAPage(NotAPage::Empty),
            Skip::NotAPage(NotAPage::Binary),
            Skip::Unreadable,
        ]
    }

    #[test]
    fn a_reason_writes_its_label_and_reads_back() {
        for skip in every_kind() {
            let json = serde_json::to_string(&skip).unwrap();
            assert_eq!(json, format!("{:?}", skip.to_string()));
            assert_eq!(serde_json::from_str::<Skip>(&json).unwrap(), skip, "{json}");
        }
        assert_eq!(Skip::Malformed.to_string(), "malformed record");
        assert_eq!(Skip::NotAPage(NotAPage::Empty).to_string(), "empty page");
        let unknown = serde_json::from_str::<Skip>("\"gone fishing\"").unwrap_err();
        assert!(unknown.to_string().contains("gone fishing"), "{unknown}");
    }

    #[test]
    fn counts_list_their_reasons_in_label_order() {
        let mut counts = BTreeMap::new();
        for skip in every_kind() {
            *counts.entry(skip).or_insert(0u64) += 1;
        }
        let labels: Vec<String> = counts.keys().map(Skip::to_string).collect();
        let mut sorted = labels.clone();
        sorted.sort();
        assert_eq!(labels, sorted);
        // "HTTP status 1000" before "HTTP status 404", as the text sorts.
        assert_eq!(labels[0], "HTTP status 1000");
        let json = serde_json::to_string(&counts).unwrap();
        let back: BTreeMap<Skip, u64> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, counts);
    }
}
