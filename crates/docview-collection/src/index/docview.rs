//! A DocView into the four indexes: its full text, its topic content, its abstract body (title,
//! abstract, keywords), and its fields apart in the DocView index, one document each under the
//! page's sequence number; and the weights the DocView index's fields are searched with.

use std::fmt;
use std::str::FromStr;

use super::{DocviewFields, IndexDoc, IndexKind, IndexSet};
use crate::Result;
use crate::error::Error;
use crate::integrate::DocView;

/// The body of a page in the abstract index: its title, abstract and keywords.
pub fn abstract_body(d: &DocView) -> String {
    format!(
        "{}\n\n{}\n\n{}",
        d.title,
        d.abstract_text,
        d.keywords.join(" ")
    )
}

/// Adds the kept page `seq` to the four indexes: its `fulltext`, its topic content, its
/// [`abstract_body`], and its title, keywords, abstract and topic content as fields of the
/// DocView index.
pub fn index_docview(index: &mut IndexSet, seq: u64, d: &DocView, fulltext: &str) -> Result<()> {
    let abstract_body = abstract_body(d);
    let keywords = d.keywords.join("\n");
    let fields = DocviewFields {
        keywords: &keywords,
        abstract_text: &d.abstract_text,
    };
    for (kind, body, docview) in [
        (IndexKind::Fulltext, fulltext, None),
        (IndexKind::Topic, d.topic_content.as_str(), None),
        (IndexKind::Abstract, abstract_body.as_str(), None),
        (IndexKind::Docview, d.topic_content.as_str(), Some(fields)),
    ] {
        let doc = IndexDoc {
            seq,
            url: &d.identifier,
            title: &d.title,
            body,
            lang: &d.language,
            docview,
        };
        index.add(kind, &doc)?;
    }
    Ok(())
}

/// The weight of each field of the DocView index in a query's score: each field's BM25 score
/// times its weight, summed (a field of weight 0 is not searched). The default was chosen on
/// docview's retrieval dev collection (`scripts/ir/dev_queries.py`,
/// `docs/figures/ranking.md`).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FieldWeights {
    /// The record's title.
    pub title: f32,
    /// Its keywords.
    pub keywords: f32,
    /// Its abstract.
    pub abstract_text: f32,
    /// Its topic content.
    pub topic: f32,
}

impl Default for FieldWeights {
    fn default() -> Self {
        FieldWeights {
            title: 0.25,
            keywords: 0.0,
            abstract_text: 0.0,
            topic: 1.0,
        }
    }
}

impl FieldWeights {
    /// The field names `FromStr` reads, in the order of the fields.
    pub const NAMES: [&'static str; 4] = ["title", "keywords", "abstract", "topic"];

    fn weights(&self) -> [f32; 4] {
        [self.title, self.keywords, self.abstract_text, self.topic]
    }

    /// The weights to set, in the order of [`FieldWeights::NAMES`].
    fn weights_mut(&mut self) -> [&mut f32; 4] {
        [
            &mut self.title,
            &mut self.keywords,
            &mut self.abstract_text,
            &mut self.topic,
        ]
    }
}

impl fmt::Display for FieldWeights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, weight)) in Self::NAMES.iter().zip(self.weights()).enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{name}={weight}")?;
        }
        Ok(())
    }
}

impl FromStr for FieldWeights {
    type Err = Error;

    /// `title=2,topic=1`: the fields named take the weights given, the others keep the
    /// default's; a weight is a finite number from 0 to 1000, and at least one is above 0.
    fn from_str(s: &str) -> Result<FieldWeights> {
        let bad = |why: String| Error::FieldWeights {
            given: s.to_owned(),
            why,
        };
        let mut w = FieldWeights::default();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = part
                .split_once('=')
                .ok_or_else(|| bad(format!("`{part}` is not FIELD=WEIGHT")))?;
            let value: f32 = value
                .trim()
                .parse()
                .map_err(|_| bad(format!("`{}` is not a number", value.trim())))?;
            if !(0.0..=1000.0).contains(&value) {
                return Err(bad(format!("{value} is not a weight from 0 to 1000")));
            }
            let name = name.trim();
            let Some(field) = Self::NAMES.iter().position(|&n| n == name) else {
                return Err(bad(format!(
                    "no field `{name}`: the fields are {}",
                    Self::NAMES.join(", ")
                )));
            };
            *w.weights_mut()[field] = value;
        }
        if w.weights().iter().all(|&x| x == 0.0) {
            return Err(bad("every weight is 0: nothing would be searched".into()));
        }
        Ok(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_read_from_text_keep_the_fields_not_named() {
        let w: FieldWeights = "title=3, abstract=0.5".parse().unwrap();
        assert_eq!(w.title, 3.0);
        assert_eq!(w.abstract_text, 0.5);
        assert_eq!(w.topic, FieldWeights::default().topic);
        assert_eq!(w.to_string().parse::<FieldWeights>().unwrap(), w);
        for bad in [
            "body=1",
            "title",
            "title=x",
            "title=-1",
            "title=NaN",
            "title=0,keywords=0,abstract=0,topic=0",
        ] {
            let e = bad.parse::<FieldWeights>().unwrap_err().to_string();
            assert!(e.contains(bad), "{bad}: {e}");
        }
    }
}
