//! The run state of an ingest (`DIR/state.json`): what the last commit made durable, so that
//! after a crash the output directory says how far it got and `--resume` continues from there.
//!
//! A batch is committed in this order: the record files are flushed and synced, the three
//! indexes commit, then this file is replaced atomically. So the state file never claims more
//! than the other outputs hold; what they hold beyond it (record bytes past the recorded
//! lengths, index documents from the next sequence number on) is undone on resume: each file
//! is opened at its committed length ([`open_at`]).

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::output::{read_json, write_json_atomically};
use crate::records::Skip;
use crate::settings::RunSettings;
use crate::{Error, Result};

/// Name of the run state file in the output directory.
pub const STATE_FILE: &str = "state.json";

/// Version of the state file layout.
pub const STATE_VERSION: u32 = 1;

/// Where a run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Pages are being ingested; the counts are those of the last commit. A directory left in
    /// this state by a crash holds exactly the committed pages.
    Running,
    /// Every page is ingested and committed; the records are being completed with their
    /// replicas' URLs.
    Finishing,
    /// Done.
    Complete,
}

/// Counts of what a run did with the pages it read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    /// Pages offered by the inputs (HTML responses, files, JSONL lines).
    pub pages_read: u64,
    /// Pages kept: DocView records written and indexed.
    pub kept: u64,
    /// Kept pages whose topic content is empty (cleaning kept no text; flagged in the record).
    #[serde(default)]
    pub kept_empty: u64,
    /// Kept pages cut to the page limits (flagged in the record).
    #[serde(default)]
    pub kept_truncated: u64,
    /// Pages removed as exact replicas.
    pub replicas_exact: u64,
    /// Pages removed as near-replicas.
    pub replicas_near: u64,
    /// Pages that could not be read as HTML (empty, binary), and input records skipped
    /// (non-HTML, error responses) or malformed, by reason.
    pub skipped: BTreeMap<Skip, u64>,
    /// Bytes of HTML read (decompressed).
    pub html_bytes: u64,
}

impl Counters {
    /// Pages skipped, all reasons together.
    pub fn skipped_total(&self) -> u64 {
        self.skipped.values().sum()
    }

    /// Replicas of both kinds.
    pub fn replicas(&self) -> u64 {
        self.replicas_exact + self.replicas_near
    }

    /// True when the run used nothing it read: no page kept, none found a replica (of a
    /// page of this run or of an earlier one). Its inputs held no page docview could clean.
    pub fn used_nothing(&self) -> bool {
        self.kept == 0 && self.replicas() == 0
    }

    /// Counts one skip.
    pub fn skip(&mut self, reason: Skip) {
        *self.skipped.entry(reason).or_insert(0) += 1;
    }
}

/// The durable state of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunState {
    /// Layout version ([`STATE_VERSION`]).
    pub version: u32,
    /// Where the run is.
    pub status: Status,
    /// A note for whoever opens the file.
    pub note: String,
    /// The inputs and settings of the run, as `--resume` must find them again.
    #[serde(serialize_with = "settings_as_json_value")]
    pub settings: RunSettings,
    /// Input events (pages, skipped and malformed records) consumed up to the last commit.
    pub events_done: u64,
    /// The sequence number the next page gets.
    pub next_seq: u64,
    /// Length of `docviews.jsonl` at the last commit.
    pub docviews_bytes: u64,
    /// Length of `replicas.jsonl` at the last commit.
    pub replicas_bytes: u64,
    /// Length of `skipped.jsonl` at the last commit.
    pub skipped_bytes: u64,
    /// Commits so far.
    pub commits: u64,
    /// What the committed pages amounted to.
    pub counters: Counters,
    /// Seconds spent so far, over all sessions of the run.
    pub elapsed_secs: f64,
    /// How far the first pass got at its last checkpoint, while it runs (`None` before its
    /// first checkpoint and once `stats.json` is written): a run stopped in its first pass
    /// resumes from there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_pass: Option<FirstPassCheckpoint>,
}

/// A checkpoint of the first pass: the spill holds the cleaned pages of the first `events`
/// input events in its first `spill_bytes` bytes, synced to disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstPassCheckpoint {
    /// Input events (pages, skipped and malformed records) the spill holds.
    pub events: u64,
    /// The spill's length at the checkpoint; what follows is cut on resume.
    pub spill_bytes: u64,
}

impl RunState {
    /// The state of a run that has committed nothing yet.
    pub fn new(settings: RunSettings) -> Self {
        RunState {
            version: STATE_VERSION,
            status: Status::Running,
            note: String::new(),
            settings,
            events_done: 0,
            next_seq: 0,
            docviews_bytes: 0,
            replicas_bytes: 0,
            skipped_bytes: 0,
            commits: 0,
            counters: Counters::default(),
            elapsed_secs: 0.0,
            first_pass: None,
        }
        .with_note()
    }

    /// Sets the note that says what the directory holds.
    pub fn with_note(mut self) -> Self {
        self.set_note();
        self
    }

    /// Sets the note that says what the directory holds, in place.
    pub fn set_note(&mut self) {
        self.note = match self.status {
            Status::Running => match self.first_pass {
                Some(checkpoint) => format!(
                    "ingest in its first pass, or interrupted there: the spill holds the \
                     cleaned pages of {} input records; run the same `docview ingest` with \
                     --resume to continue",
                    checkpoint.events
                ),
                None => format!(
                    "ingest in progress or interrupted: the outputs hold the {} pages of the \
                     last commit ({} kept); run the same `docview ingest` with --resume to \
                     continue",
                    self.counters.pages_read, self.counters.kept
                ),
            },
            Status::Finishing => "all pages committed; completing the records with the URLs \
                                  of their replicas (--resume finishes it)"
                .to_string(),
            Status::Complete => format!(
                "complete: {} pages read, {} kept",
                self.counters.pages_read, self.counters.kept
            ),
        };
    }

    /// Reads `path`.
    pub fn load(path: &Path) -> Result<RunState> {
        let state: RunState = read_json(path, "a docview run state")?;
        if state.version != STATE_VERSION {
            return Err(Error::StateVersion {
                path: path.to_path_buf(),
                found: state.version,
                reads: STATE_VERSION,
            });
        }
        Ok(state)
    }

    /// Replaces `path` atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        Ok(write_json_atomically(path, self)?)
    }
}

/// Opens `path` for appending after cutting it to `len` bytes (creating it when `len` is 0).
pub(crate) fn open_at(path: &Path, len: u64) -> Result<File> {
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    let actual = file.metadata().map_err(|e| Error::io(path, e))?.len();
    if actual < len {
        return Err(Error::FileChanged {
            path: path.to_path_buf(),
            actual,
            committed: len,
        });
    }
    file.set_len(len).map_err(|e| Error::io(path, e))?;
    let mut file = file;
    std::io::Seek::seek(&mut file, std::io::SeekFrom::End(0)).map_err(|e| Error::io(path, e))?;
    Ok(file)
}

/// Writes the settings the way `state.json` has always held them: through a JSON value, so
/// every object's keys are in name order and each float is written as the `f64` it widens to.
/// Files written before the settings were typed and after read and compare alike.
fn settings_as_json_value<S: serde::Serializer>(
    settings: &RunSettings,
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    serde_json::to_value(settings)
        .map_err(serde::ser::Error::custom)?
        .serialize(serializer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::SkipKind;
    use crate::settings::IngestOptions;

    #[test]
    fn a_saved_state_reads_back_with_its_settings_in_the_files_old_layout() {
        let dir = tempfile::tempdir().unwrap();
        let options = IngestOptions::new(vec![dir.path().to_path_buf()], dir.path().join("out"));
        let mut state = RunState::new(options.settings(Some(7)).unwrap());
        state.counters.skip(Skip::Input(SkipKind::NotHtml));
        let path = dir.path().join(STATE_FILE);
        state.save(&path).unwrap();
        assert_eq!(RunState::load(&path).unwrap(), state);
        // Keys in name order and floats widened, as the untyped settings were written.
        let text = std::fs::read_to_string(&path).unwrap();
        let at = |key: &str| text.find(&format!("\"{key}\"")).unwrap();
        assert!(at("classifier_digest") < at("cleaner") && at("cleaner") < at("templates"));
        assert!(
            text.contains("\"hub_page_ratio\": 0.6000000238418579"),
            "{text}"
        );
    }
}
