//! Errors of the one-page path. Every error names the input it is about and what was wrong.

/// Result with the one-page path's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What can go wrong on one page.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The bytes are no HTML page (empty, binary data): ingest skips such a page and counts it
    /// under [`NotAPage::label`].
    #[error("{input}: {why}")]
    NotAPage {
        /// Which input (a path, a URL, a record offset).
        input: String,
        /// What it is instead.
        why: NotAPage,
    },
    /// A page limit out of its range.
    #[error("setting {name}: {reason}")]
    Setting {
        /// The setting (as the command line names it, without the dashes).
        name: &'static str,
        /// What is wrong with its value.
        reason: String,
    },
}

impl Error {
    /// A setting out of its range.
    pub fn setting(name: &'static str, reason: impl Into<String>) -> Self {
        Error::Setting {
            name,
            reason: reason.into(),
        }
    }
}

/// Why bytes are no HTML page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NotAPage {
    /// Nothing but whitespace.
    Empty,
    /// NUL or control bytes at the start: an image, an archive.
    Binary,
}

impl NotAPage {
    /// Every kind, in order.
    pub const ALL: [NotAPage; 2] = [NotAPage::Empty, NotAPage::Binary];

    /// The reason a skipped page is counted under (summaries, `skipped.jsonl`).
    pub fn label(self) -> &'static str {
        match self {
            NotAPage::Empty => "empty page",
            NotAPage::Binary => "binary data, not an HTML page (NUL or control bytes at the start)",
        }
    }
}

impl std::fmt::Display for NotAPage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotAPage::Empty => write!(f, "{}: no bytes to parse", self.label()),
            NotAPage::Binary => f.write_str(self.label()),
        }
    }
}
