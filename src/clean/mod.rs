//! Web page cleaning (004 §4): one [`Cleaner`] trait and the cleaners users pick by name
//! (`--cleaner NAME`); the framework's cleaner is the default.

mod framework;
mod purified;

use serde::Serialize;

pub use crate::page::PageType;
use crate::page::{NodeId, Show, TagTree};
pub use framework::{Framework, FrameworkParams};
pub use purified::topic_content_page;

/// What became of a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Kept in the topic content.
    Kept,
    /// Its own text left out, its child blocks judged on their own.
    TextDropped,
    /// Left out with everything below it.
    Dropped,
}

/// Whether a block was kept in the topic content, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// What became of it.
    pub verdict: Verdict,
    /// Why, in a few words.
    pub reason: &'static str,
}

impl Decision {
    /// A kept block.
    pub fn kept(reason: &'static str) -> Self {
        Decision {
            verdict: Verdict::Kept,
            reason,
        }
    }

    /// A dropped block.
    pub fn dropped(reason: &'static str) -> Self {
        Decision {
            verdict: Verdict::Dropped,
            reason,
        }
    }

    /// A block whose own text is dropped.
    pub fn text_dropped(reason: &'static str) -> Self {
        Decision {
            verdict: Verdict::TextDropped,
            reason,
        }
    }

    /// A block outside the topic root.
    pub fn outside() -> Self {
        Decision::dropped("outside the topic root")
    }

    /// True unless the block is dropped with its subtree.
    pub fn is_kept(&self) -> bool {
        self.verdict != Verdict::Dropped
    }

    /// How a rendering shows the block.
    pub fn show(&self) -> Show {
        match self.verdict {
            Verdict::Kept => Show::All,
            Verdict::TextDropped => Show::ChildrenOnly,
            Verdict::Dropped => Show::Nothing,
        }
    }
}

/// What a cleaner produced for one page.
#[derive(Debug, Clone, Serialize)]
pub struct Cleaned {
    /// Topic, hub or image.
    pub page_type: PageType,
    /// The text of `<title>`, whitespace folded.
    pub title: String,
    /// The topic content as plain text: headings on their own lines, paragraphs separated by a
    /// blank line.
    pub topic_text: String,
    /// The topic root (§6): the block that embeds all topic content.
    pub topic_root: Option<NodeId>,
    /// The paragraphs of the topic content, in order (the topic root's kept blocks with text).
    pub paragraphs: Vec<String>,
    /// One decision per node of the tag tree, by node id.
    pub decisions: Vec<Decision>,
    /// Block weight of each node (Algorithm 1), by node id.
    pub weights: Vec<f32>,
}

impl Cleaned {
    /// The result for a page with nothing in it.
    pub fn empty(tree: &TagTree) -> Self {
        Cleaned {
            page_type: PageType::Topic,
            title: tree.title.clone(),
            topic_text: String::new(),
            topic_root: None,
            paragraphs: Vec::new(),
            decisions: vec![Decision::outside(); tree.nodes.len()],
            weights: vec![1.0; tree.nodes.len()],
        }
    }
}

/// A page cleaner: from a markup tag tree to its topic content.
pub trait Cleaner: Send + Sync {
    /// The name users pick it by (`--cleaner NAME`).
    fn name(&self) -> &'static str;
    /// Cleans one page.
    fn clean(&self, tree: &TagTree) -> Cleaned;
}

/// Names of the cleaners [`cleaner_by_name`] knows.
pub const CLEANERS: &[&str] = &["framework"];

/// The cleaner called `name`.
pub fn cleaner_by_name(name: &str) -> crate::Result<Box<dyn Cleaner>> {
    match name {
        "framework" => Ok(Box::new(Framework::default())),
        other => Err(crate::Error::UnknownCleaner(
            other.to_string(),
            CLEANERS.join(", "),
        )),
    }
}
