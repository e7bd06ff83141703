//! What a user favours when the learned cleaner decides a page's blocks (`--favor`, as
//! trafilatura's users have it): `precision` keeps less furniture (figures' captions dropped
//! on every page) and may lose some of the article, `recall` keeps the whole article and may
//! keep some furniture (captions included), `balanced` (the default) is the model's own
//! decision, an article's captions dropped. The model's scores stay the same; only the bars a
//! block's score must reach move: the thresholds, the stronger bars outside a page's main
//! region, and where captions go. The figures of each, cross-validated
//! on the labelled sets, are in `docs/figures/cleaning.md`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What the learned cleaner favours. Written and read as its name.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Favor {
    /// Less furniture kept, at the cost of some of the article.
    Precision,
    /// The model's own decision (the default).
    #[default]
    Balanced,
    /// The whole article kept, at the cost of some furniture.
    Recall,
}

/// The bars of a page's decision that a [`Favor`] sets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Bars {
    /// Added to the model's thresholds (the page's, and a prose page's).
    pub(crate) threshold_shift: f32,
    /// The score a block before the main region must reach.
    pub(crate) before_region: f32,
    /// The score a block after the main region must reach.
    pub(crate) after_region: f32,
    /// Where figures' captions (`captions.rs`) are dropped.
    pub(crate) captions: CaptionRule,
}

/// Where the learned cleaner drops figures' captions (`captions.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CaptionRule {
    /// Nowhere.
    Keep,
    /// On a prose page (an article, a post: the page is decided at the model's prose
    /// threshold), where the sets' references leave them out of the story.
    OnProsePages,
    /// On every page.
    Drop,
}

impl Favor {
    /// Every setting, the default second, as `--help` lists them.
    pub const ALL: [Favor; 3] = [Favor::Precision, Favor::Balanced, Favor::Recall];

    /// Its name.
    pub const fn name(self) -> &'static str {
        match self {
            Favor::Precision => "precision",
            Favor::Balanced => "balanced",
            Favor::Recall => "recall",
        }
    }

    /// The names of [`Favor::ALL`].
    pub const NAMES: [&'static str; 3] = [
        Favor::Precision.name(),
        Favor::Balanced.name(),
        Favor::Recall.name(),
    ];

    /// The bars it sets.
    pub(crate) fn bars(self) -> Bars {
        match self {
            Favor::Precision => Bars {
                threshold_shift: 0.1,
                before_region: 0.85,
                after_region: 0.98,
                captions: CaptionRule::Drop,
            },
            Favor::Balanced => Bars {
                threshold_shift: 0.0,
                before_region: crate::learned::BEFORE_REGION_SCORE,
                after_region: crate::learned::AFTER_REGION_SCORE,
                captions: CaptionRule::OnProsePages,
            },
            Favor::Recall => Bars {
                threshold_shift: -0.1,
                before_region: 0.6,
                after_region: 0.85,
                captions: CaptionRule::Keep,
            },
        }
    }
}

impl fmt::Display for Favor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Favor {
    type Err = crate::Error;

    fn from_str(s: &str) -> crate::Result<Favor> {
        Favor::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| crate::Error::UnknownFavor {
                name: s.to_string(),
            })
    }
}

impl Serialize for Favor {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Favor {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Favor, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_precision_raises_every_bar() {
        for favor in Favor::ALL {
            assert_eq!(favor.name().parse::<Favor>().unwrap(), favor);
            let json = serde_json::to_string(&favor).unwrap();
            assert_eq!(serde_json::from_str::<Favor>(&json).unwrap(), favor);
        }
        assert_eq!(Favor::default(), Favor::Balanced);
        let e = "exact".parse::<Favor>().unwrap_err().to_string();
        assert!(e.contains("precision, balanced, recall"), "{e}");
        let (p, b, r) = (
            Favor::Precision.bars(),
            Favor::Balanced.bars(),
            Favor::Recall.bars(),
        );
        assert!(p.threshold_shift > b.threshold_shift && b.threshold_shift > r.threshold_shift);
        assert!(p.before_region > b.before_region && b.before_region > r.before_region);
        assert!(p.after_region > b.after_region && b.after_region > r.after_region);
        let captions = [p.captions, b.captions, r.captions];
        assert_eq!(
            captions,
            [
                CaptionRule::Drop,
                CaptionRule::OnProsePages,
                CaptionRule::Keep
            ]
        );
    }
}
