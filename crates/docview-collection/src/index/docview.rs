//! A DocView into the three indexes: its full text, its topic content, and its abstract body
//! (title, abstract, keywords), one document each under the page's sequence number.

use super::{IndexDoc, IndexKind, IndexSet};
use crate::Result;
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

/// Adds the kept page `seq` to the three indexes: its `fulltext`, its topic content, its
/// [`abstract_body`].
pub fn index_docview(index: &mut IndexSet, seq: u64, d: &DocView, fulltext: &str) -> Result<()> {
    let abstract_body = abstract_body(d);
    for (kind, body) in [
        (IndexKind::Fulltext, fulltext),
        (IndexKind::Topic, d.topic_content.as_str()),
        (IndexKind::Abstract, abstract_body.as_str()),
    ] {
        let doc = IndexDoc {
            seq,
            url: &d.identifier,
            title: &d.title,
            body,
            lang: &d.language,
        };
        index.add(kind, &doc)?;
    }
    Ok(())
}
