//! Errors of the pipeline: what the layers below report, passed on unchanged
//! ([`Error::Collection`]), and the run's own refusals, one variant per kind, each naming the
//! folder or file it is about.

use std::fmt;
use std::path::PathBuf;

use crate::clean::CleanerKind;

/// Result with the pipeline's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What can go wrong in a run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file, a broken file, a setting out of its range, a model or an
    /// index: the collection layer's error (which wraps the page layer's).
    #[error(transparent)]
    Collection(#[from] docview_collection::Error),
    /// A folder the run writes in holds something else.
    #[error("{}: {why}", .folder.display())]
    FolderInUse {
        /// The folder (`--out`, `--work`).
        folder: PathBuf,
        /// What it holds.
        why: FolderInUse,
    },
    /// `--resume` on a folder without a run state.
    #[error(
        "{}: nothing to resume: no state.json (not a docview ingest output, or stopped before \
         its first checkpoint); run the ingest again without --resume",
        .out.display()
    )]
    NothingToResume {
        /// The output folder.
        out: PathBuf,
    },
    /// `--resume` with other inputs or settings than the run it would resume.
    #[error(
        "{}: --resume needs the same inputs and settings as the interrupted run: {}",
        .out.display(),
        .differences.join("; ")
    )]
    ResumeDiffers {
        /// The output folder.
        out: PathBuf,
        /// Each setting that differs, with both values.
        differences: Vec<String>,
    },
    /// A run state of another layout version.
    #[error("{}: run state version {found} (this docview reads {reads})", .path.display())]
    StateVersion {
        /// The `state.json`.
        path: PathBuf,
        /// Its version.
        found: u32,
        /// The version this docview reads.
        reads: u32,
    },
    /// A plan of another layout version.
    #[error(
        "{}: plan layout version {found} (this docview reads {reads}); plan the run again",
        .path.display()
    )]
    PlanVersion {
        /// The `plan.json`.
        path: PathBuf,
        /// Its version.
        found: u32,
        /// The version this docview reads.
        reads: u32,
    },
    /// The run stopped when asked to ([`crate::Interrupt`]): what it did is durable and
    /// `--resume` continues it.
    #[error(
        "{}: interrupted {}; run the same command with --resume to continue from there",
        .out.display(),
        .at
    )]
    Interrupted {
        /// The output folder.
        out: PathBuf,
        /// How far the run got.
        at: Interrupted,
    },
    /// The run stopped on a full disk (or a spent quota), and its first pass's spill was removed
    /// to give the disk its room back.
    #[error(
        "{source}; the first pass's spill of cleaned pages ({} bytes) was removed to give the disk \
         its room back: free more space, then run the same command with --resume (it cleans \
         the pages again)",
        .freed
    )]
    SpillRemoved {
        /// The error of the full disk.
        source: Box<Error>,
        /// The bytes freed.
        freed: u64,
    },
    /// A record file shorter than its last commit wrote: something else changed it.
    #[error(
        "{}: holds {actual} bytes but the last commit wrote {committed}: the file was changed",
        .path.display()
    )]
    FileChanged {
        /// The file.
        path: PathBuf,
        /// Its length.
        actual: u64,
        /// The length of the last commit.
        committed: u64,
    },
    /// A run to resume whose `stats.json`, which its committed pages were integrated with, is
    /// gone.
    #[error(
        "{}: stats.json is missing but pages were committed with it; start the ingest again \
         with --overwrite",
        .out.display()
    )]
    StatsMissing {
        /// The output folder.
        out: PathBuf,
    },
    /// A site-aware cleaner, which reads the inputs twice, on standard input.
    #[error(
        "-: --cleaner {cleaner} learns a model of each site before cleaning, which reads the \
         inputs twice; standard input can be read once: save it to a file first"
    )]
    ReadsTwice {
        /// The cleaner.
        cleaner: CleanerKind,
    },
    /// An `--earlier` folder that cannot serve as an earlier run.
    #[error("{}: {why}", .dir.display())]
    Earlier {
        /// The folder, as given.
        dir: PathBuf,
        /// Why not.
        why: EarlierRefusal,
    },
    /// A task of a sharded run started before a task of an earlier stage was done.
    #[error(
        "{}: stage {stage} cannot run before task {task} of stage {before} is done",
        .work.display()
    )]
    StageOrder {
        /// The work folder.
        work: PathBuf,
        /// The stage asked for.
        stage: &'static str,
        /// The stage not done yet.
        before: &'static str,
        /// Its task not done yet.
        task: usize,
    },
    /// A sharded run's page picked for its site's model that no shard kept: the work files do
    /// not agree.
    #[error(
        "{}: the page of unit {unit} record {record} was picked for its site's model but no \
         shard kept it",
        .work.display()
    )]
    PickedPageMissing {
        /// The work folder.
        work: PathBuf,
        /// The page's unit.
        unit: usize,
        /// Its number in the unit.
        record: u64,
    },
    /// A record of the first pass's spill that cannot be read.
    #[error(
        "{}: a broken record in the first pass's spill ({why}); start the ingest again with \
         --overwrite",
        .path.display()
    )]
    BrokenSpill {
        /// The spill file.
        path: PathBuf,
        /// What was wrong.
        why: String,
    },
}

/// How far an interrupted run got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interrupted {
    /// In the first pass, with the cleaned pages of this many input records kept for the resumed
    /// run.
    FirstPass(u64),
    /// In the second pass, with this many pages committed (read, kept or not).
    SecondPass(u64),
}

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Interrupted::FirstPass(events) => write!(
                f,
                "in the first pass (collection statistics), {events} input records cleaned and \
                 kept"
            ),
            Interrupted::SecondPass(pages) => {
                write!(f, "in the second pass, {pages} pages committed")
            }
        }
    }
}

/// What a folder holds that a run will not write over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FolderInUse {
    /// `--out` holds an earlier ingest.
    OutHoldsIngest,
    /// `--work` is `--out`.
    WorkIsOut,
    /// `--work` holds another run's plan.
    OtherPlan,
    /// `--work` holds a sharded run's files but no plan.
    WorkNotEmpty,
}

impl fmt::Display for FolderInUse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FolderInUse::OutHoldsIngest => {
                "it holds a docview ingest; add --resume to continue an interrupted one, \
                 --overwrite to replace it, or choose a new directory"
            }
            FolderInUse::WorkIsOut => {
                "the work folder cannot be the output folder (--out): the merge writes the \
                 output of one process there; choose another --work"
            }
            FolderInUse::OtherPlan => {
                "it holds the plan of another sharded run; choose a new folder, or add \
                 --overwrite to replace it"
            }
            FolderInUse::WorkNotEmpty => {
                "it holds a sharded run's files but no plan; add --overwrite to remove them, or \
                 choose a new or empty folder"
            }
        })
    }
}

/// Why a folder cannot serve as an earlier run (`--earlier`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EarlierRefusal {
    /// It is named twice.
    NamedTwice,
    /// It is this run's own `--out`.
    IsOut,
    /// It holds no run state.
    NotAnOutput,
    /// Its run did not finish.
    Unfinished,
    /// Its fingerprints were made with other settings: each that differs, with both values.
    FingerprintsDiffer(Vec<String>),
}

impl fmt::Display for EarlierRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EarlierRefusal::NamedTwice => f.write_str("named twice in --earlier"),
            EarlierRefusal::IsOut => f.write_str("an earlier run cannot be the run's own --out"),
            EarlierRefusal::NotAnOutput => f.write_str(
                "not a docview output folder (no state.json): --earlier takes the --out of a \
                 finished ingest or sharded run",
            ),
            EarlierRefusal::Unfinished => f.write_str(
                "the run did not finish (state.json is not complete): finish it first \
                 (`docview ingest --resume`, or the rest of its stages)",
            ),
            EarlierRefusal::FingerprintsDiffer(differs) => write!(
                f,
                "its fingerprints do not compare to this run's: {}; run with the same \
                 --replicas, --percentage and --interval",
                differs.join("; ")
            ),
        }
    }
}

impl Error {
    /// Whether the error is a write that found no room: a full disk, or a quota spent.
    pub fn is_storage_full(&self) -> bool {
        match self {
            Error::Collection(e) => e.is_storage_full(),
            Error::SpillRemoved { .. } => true,
            _ => false,
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Collection(docview_collection::Error::io(path, source))
    }

    /// A bad input (a broken line or value of a file), named by `input`.
    pub fn bad_input(input: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::Collection(docview_collection::Error::bad_input(input, reason))
    }

    /// A setting out of its range.
    pub fn setting(name: &'static str, reason: impl Into<String>) -> Self {
        Error::Collection(docview_collection::Error::setting(name, reason))
    }
}

impl From<docview_input::Error> for Error {
    fn from(e: docview_input::Error) -> Self {
        Error::Collection(e.into())
    }
}

impl From<docview_extract::Error> for Error {
    fn from(e: docview_extract::Error) -> Self {
        Error::Collection(e.into())
    }
}

impl From<docview_clean::Error> for Error {
    fn from(e: docview_clean::Error) -> Self {
        Error::Collection(e.into())
    }
}

impl From<docview_collection::minhash::MinHashError> for Error {
    fn from(e: docview_collection::minhash::MinHashError) -> Self {
        Error::Collection(e.into())
    }
}

impl From<docview_classify::Error> for Error {
    fn from(e: docview_classify::Error) -> Self {
        Error::Collection(e.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_names_its_folder_and_what_to_do() {
        let out = PathBuf::from("runs/today");
        let cases = [
            (
                Error::ResumeDiffers {
                    out: out.clone(),
                    differences: vec!["a: was 1, now 2".into(), "b: was x, now y".into()],
                },
                "runs/today: --resume needs the same inputs and settings as the interrupted \
                 run: a: was 1, now 2; b: was x, now y",
            ),
            (
                Error::Earlier {
                    dir: "runs/old".into(),
                    why: EarlierRefusal::FingerprintsDiffer(vec![
                        "minhash.bands: was 20, now 16".into(),
                    ]),
                },
                "runs/old: its fingerprints do not compare to this run's: minhash.bands: was \
                 20, now 16; run with the same --replicas, --percentage and --interval",
            ),
            (
                Error::FolderInUse {
                    folder: out.clone(),
                    why: FolderInUse::OutHoldsIngest,
                },
                "runs/today: it holds a docview ingest; add --resume to continue an \
                 interrupted one, --overwrite to replace it, or choose a new directory",
            ),
            (
                Error::ReadsTwice {
                    cleaner: CleanerKind::Wisdom,
                },
                "-: --cleaner wisdom learns a model of each site before cleaning, which reads \
                 the inputs twice; standard input can be read once: save it to a file first",
            ),
            (
                Error::PlanVersion {
                    path: "w/plan.json".into(),
                    found: 2,
                    reads: 3,
                },
                "w/plan.json: plan layout version 2 (this docview reads 3); plan the run again",
            ),
        ];
        for (error, message) in cases {
            assert_eq!(error.to_string(), message);
        }
        // The layers' errors pass through as they are.
        let io = Error::io("a.warc", std::io::Error::other("gone"));
        assert_eq!(
            io.to_string(),
            docview_collection::Error::io("a.warc", std::io::Error::other("gone")).to_string()
        );
    }
}
