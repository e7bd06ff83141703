//! The cleaned pages the first pass of an ingest hands to the second, so that each page is
//! parsed and cleaned once per ingest: one JSON line per input event, in input order, in
//! `pages.spill.jsonl` of the output directory.
//!
//! Memory stays bounded (the file is written and read as a stream). The file is complete once
//! `stats.json` is written (the first pass syncs it first), so a run stopped in its second pass
//! resumes from it; it is removed when the run completes. A run whose first pass was skipped
//! (`--stats FILE`) has no spill, and its second pass cleans the pages itself.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::process::Unreadable;
use crate::input::{InputEvent, RawPage};
use crate::topic::TopicPage;
use crate::{Error, Result};

/// Name of the spill file in the output directory.
pub const SPILL_FILE: &str = "pages.spill.jsonl";

/// A page cleaned in the first pass.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CleanedPage {
    /// Its URL.
    pub url: String,
    /// Where it came from.
    pub origin: String,
    /// Bytes of HTML.
    pub html_bytes: u64,
    /// Its topic page, or why it could not be read.
    pub topic: std::result::Result<TopicPage, Unreadable>,
}

/// A page of the second pass: raw (to be cleaned there) or cleaned in the first pass.
#[derive(Debug, Clone)]
pub enum PageWork {
    /// As read from the inputs.
    Raw(RawPage),
    /// As the first pass cleaned it.
    Cleaned(Box<CleanedPage>),
}

impl PageWork {
    /// Bytes it holds, for the size of a batch: its HTML, or its cleaned page's visible text.
    pub fn bytes(&self) -> usize {
        match self {
            PageWork::Raw(raw) => raw.bytes.len(),
            PageWork::Cleaned(c) => c.topic.as_ref().map_or(0, |t| t.visible_text.len()),
        }
    }
}

/// One input event as the passes see it: a page, or a record that is no page.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Event<P> {
    /// A page.
    Page(P),
    /// A record passed over: its counted reason and, when it says more, the whole message.
    Skipped {
        /// Where it came from.
        origin: String,
        /// The counted reason.
        label: String,
        /// The whole message.
        detail: String,
    },
    /// A broken record.
    Malformed {
        /// Where it came from.
        origin: String,
        /// What was wrong.
        message: String,
    },
}

impl<P> Event<P> {
    /// The event of an input event, with its page (if any) mapped by `page`.
    pub fn of(event: InputEvent, page: impl FnOnce(RawPage) -> P) -> Event<P> {
        match event {
            InputEvent::Page(p) => Event::Page(page(p)),
            InputEvent::Skipped { origin, reason } => Event::Skipped {
                origin,
                label: reason.label(),
                detail: reason.to_string(),
            },
            InputEvent::Malformed { origin, message } => Event::Malformed { origin, message },
        }
    }

    /// Its page, or the line `skipped.jsonl` gives a record that is no page (a malformed one
    /// counted as [`MALFORMED`](super::MALFORMED), its message the detail).
    pub fn into_page(self) -> std::result::Result<P, super::SkippedLine> {
        match self {
            Event::Page(p) => Ok(p),
            Event::Skipped {
                origin,
                label,
                detail,
            } => Err(super::SkippedLine {
                origin,
                detail: if detail == label {
                    String::new()
                } else {
                    detail
                },
                reason: label,
            }),
            Event::Malformed { origin, message } => Err(super::SkippedLine {
                origin,
                reason: super::MALFORMED.to_string(),
                detail: message,
            }),
        }
    }

    /// The same event with its page mapped by `page`.
    pub fn map<Q>(self, page: impl FnOnce(P) -> Q) -> Event<Q> {
        match self {
            Event::Page(p) => Event::Page(page(p)),
            Event::Skipped {
                origin,
                label,
                detail,
            } => Event::Skipped {
                origin,
                label,
                detail,
            },
            Event::Malformed { origin, message } => Event::Malformed { origin, message },
        }
    }
}

/// One line of the spill: an event and how far into the inputs its batch reached.
#[derive(Debug, Serialize, Deserialize)]
struct Line {
    input_bytes: u64,
    event: Event<CleanedPage>,
}

/// Writes the spill.
pub struct SpillWriter {
    path: PathBuf,
    out: BufWriter<File>,
}

impl SpillWriter {
    /// Creates (or empties) the spill of output directory `out`.
    pub fn create(out: &Path) -> Result<SpillWriter> {
        let path = out.join(SPILL_FILE);
        let file = File::create(&path).map_err(|e| Error::io(&path, e))?;
        Ok(SpillWriter {
            path,
            out: BufWriter::with_capacity(1 << 20, file),
        })
    }

    /// Appends an event.
    pub fn write(&mut self, event: Event<CleanedPage>, input_bytes: u64) -> Result<()> {
        let line = Line { input_bytes, event };
        serde_json::to_writer(&mut self.out, &line)
            .map_err(|e| Error::io(&self.path, std::io::Error::other(e)))?;
        self.out
            .write_all(b"\n")
            .map_err(|e| Error::io(&self.path, e))
    }

    /// Flushes and syncs the spill to disk.
    pub fn finish(self) -> Result<()> {
        let file = self
            .out
            .into_inner()
            .map_err(|e| Error::io(&self.path, e.into_error()))?;
        file.sync_all().map_err(|e| Error::io(&self.path, e))
    }
}

/// The events of the spill of output directory `out`, after the first `skip`, each with how
/// far into the inputs its batch reached.
pub fn read_spill(
    out: &Path,
    skip: u64,
) -> Result<impl Iterator<Item = Result<(Event<CleanedPage>, u64)>>> {
    let path = out.join(SPILL_FILE);
    let file = File::open(&path).map_err(|e| Error::io(&path, e))?;
    let lines = BufReader::with_capacity(1 << 20, file)
        .lines()
        .skip(usize::try_from(skip).unwrap_or(usize::MAX));
    Ok(lines.map(move |line| {
        let line = line.map_err(|e| Error::io(&path, e))?;
        let line: Line = serde_json::from_str(&line).map_err(|e| {
            Error::bad_input(
                path.display().to_string(),
                format!("a broken line in the first pass's spill ({e}); start the ingest again with --overwrite"),
            )
        })?;
        Ok((line.event, line.input_bytes))
    }))
}
