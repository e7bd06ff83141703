//! The cleaners users pick by name (`--cleaner NAME`): [`CleanerKind`], the one place a
//! cleaner's name is written, and the one mapping between the names and the kinds.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Which cleaner cleans the pages. Written and read as its name (`learned`, `framework`, …) on
/// the command line, in settings files and in reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CleanerKind {
    /// The block decision of a model trained on labelled pages from the framework's measures
    /// (the default).
    #[default]
    Learned,
    /// The paper's cleaner alone (004 §4).
    Framework,
    /// The block of maximum entropy of Nyein's Entropy Evaluation Model (003).
    Eem,
    /// The blocks of enough important tags, cut at key patterns (001).
    KeyPattern,
    /// InfoDiscoverer over container blocks (000), site-aware.
    InfoDiscoverer,
    /// InfoDiscoverer over `<table>` blocks, as the paper's partitioning (000), site-aware.
    InfoDiscovererTable,
    /// WISDOM's informative structure of term entropies over the site (002), site-aware.
    Wisdom,
}

impl CleanerKind {
    /// Every cleaner, the default first.
    pub const ALL: [CleanerKind; 7] = [
        CleanerKind::Learned,
        CleanerKind::Framework,
        CleanerKind::Eem,
        CleanerKind::KeyPattern,
        CleanerKind::InfoDiscoverer,
        CleanerKind::InfoDiscovererTable,
        CleanerKind::Wisdom,
    ];

    /// The name users pick it by.
    pub const fn name(self) -> &'static str {
        match self {
            CleanerKind::Learned => "learned",
            CleanerKind::Framework => "framework",
            CleanerKind::Eem => "eem",
            CleanerKind::KeyPattern => "keypattern",
            CleanerKind::InfoDiscoverer => "infodiscoverer",
            CleanerKind::InfoDiscovererTable => "infodiscoverer-table",
            CleanerKind::Wisdom => "wisdom",
        }
    }

    /// The cleaner called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<CleanerKind> {
        CleanerKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// True for the cleaner that decides with a block model (the one `--model` is for, and
    /// whose model's digest a run's settings record).
    pub const fn uses_block_model(self) -> bool {
        matches!(self, CleanerKind::Learned)
    }
}

/// The names of [`CleanerKind::ALL`], in its order: the default first.
pub const CLEANERS: [&str; CleanerKind::ALL.len()] = {
    let mut names = [""; CleanerKind::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = CleanerKind::ALL[i].name();
        i += 1;
    }
    names
};

/// The default cleaner's name.
pub const DEFAULT_CLEANER: &str = CleanerKind::Learned.name();

impl fmt::Display for CleanerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for CleanerKind {
    type Err = crate::Error;

    fn from_str(name: &str) -> crate::Result<CleanerKind> {
        CleanerKind::from_name(name)
            .ok_or_else(|| crate::Error::UnknownCleaner(name.to_string(), CLEANERS.join(", ")))
    }
}

impl Serialize for CleanerKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for CleanerKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<CleanerKind, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_back_from_its_name_and_names_are_distinct() {
        for kind in CleanerKind::ALL {
            assert_eq!(kind.name().parse::<CleanerKind>().unwrap(), kind);
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.name()));
            assert_eq!(serde_json::from_str::<CleanerKind>(&json).unwrap(), kind);
        }
        let mut names = CLEANERS.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CleanerKind::ALL.len());
        assert_eq!(CLEANERS[0], DEFAULT_CLEANER);
        assert_eq!(CleanerKind::default().name(), DEFAULT_CLEANER);
    }

    #[test]
    fn an_unknown_name_is_an_error_that_lists_the_known_ones() {
        let err = "readability"
            .parse::<CleanerKind>()
            .unwrap_err()
            .to_string();
        assert!(err.contains("\"readability\""), "{err}");
        assert!(err.contains("learned, framework"), "{err}");
        assert!(serde_json::from_str::<CleanerKind>("\"nope\"").is_err());
    }
}
