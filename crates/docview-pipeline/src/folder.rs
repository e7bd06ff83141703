//! The output folder of a run: its layout (every entry docview writes there, which is all
//! `--overwrite` removes), the names of the files the pipeline writes beside the records
//! (`state.json`, `stats.json`, `summary.json`), preparing a folder for a new run, and clearing
//! what a killed run left half-written (an ingest's whole output folder; a stage task's own
//! temporary files).

use std::path::Path;

use crate::index::{COMPARE_HTML, COMPARE_JSON, INDEX_DIR};
use crate::owned::{FolderKind, Layout};
use crate::records::{DOCVIEWS, DOCVIEWS_PARQUET, REPLICAS, SKIPPED};
use crate::spill::SPILL_FILE;
use crate::state::STATE_FILE;
use crate::{Error, FolderInUse, Result};

/// Name of the collection statistics file in the output directory.
pub const STATS_FILE: &str = "stats.json";
/// Name of the summary file in the output directory.
pub const SUMMARY_FILE: &str = "summary.json";

/// The layout of an output folder (`--out` of `ingest` and of the stages' plan): its version,
/// written in the folder's marker, and the entries docview writes at its top (2: the index
/// folder holds the DocView index beside the other three, so a folder of layout 1 is not
/// resumed, which would leave its earlier pages out of that index).
pub const OUTPUT_LAYOUT: Layout = Layout {
    kind: FolderKind::Output,
    version: 2,
    owns: output_owns,
};

/// Whether `name` is an entry docview writes at the top of an output folder: the record files,
/// the statistics, the run's state and summary, the first pass's spill, the index folder and
/// `docview compare`'s report.
fn output_owns(name: &str) -> bool {
    [
        DOCVIEWS,
        REPLICAS,
        SKIPPED,
        DOCVIEWS_PARQUET,
        STATE_FILE,
        STATS_FILE,
        SUMMARY_FILE,
        SPILL_FILE,
        INDEX_DIR,
        COMPARE_JSON,
        COMPARE_HTML,
    ]
    .contains(&name)
}

/// Removes the first pass's spill of `out`, if any.
pub(crate) fn remove_spill(out: &Path) -> Result<()> {
    let path = out.join(SPILL_FILE);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io(&path, e)),
    }
}

/// The refusal of `--resume` on a folder without a run state.
pub(crate) fn nothing_to_resume(out: &Path) -> Error {
    Error::NothingToResume {
        out: out.to_path_buf(),
    }
}

/// Removes the files a killed run left half-written in `out`: docview's own temporary files
/// (`output::TEMP_PREFIX`, anywhere in the folder) and Tantivy's (`.tmp…`, in the index
/// folders), which no commit names and which would otherwise stay, counted in the index sizes.
/// Called only under the folder's lock, when no run can be writing them.
pub(crate) fn remove_half_written(out: &Path) -> Result<()> {
    let mut dirs = vec![out.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let in_index = dir.starts_with(out.join(crate::index::INDEX_DIR));
        let entries = std::fs::read_dir(&dir).map_err(|e| Error::io(&dir, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| Error::io(&dir, e))?;
            let path = entry.path();
            let kind = entry.file_type().map_err(|e| Error::io(&path, e))?;
            if kind.is_dir() {
                dirs.push(path);
                continue;
            }
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let ours = crate::output::is_temp_file_name(&name);
            let tantivys = in_index && name.starts_with(".tmp");
            if ours || tantivys {
                std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
            }
        }
    }
    Ok(())
}

/// Removes docview's temporary files directly in `dir` (not in its subfolders) for which
/// `which` holds, given the name of the file each was for ([`crate::output::temp_file_target`];
/// none for a temporary file of an older docview). A folder that does not exist holds none.
/// Called only under the lock of the task that alone writes those files.
pub(crate) fn remove_temp_files(dir: &Path, which: impl Fn(Option<&str>) -> bool) -> Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(dir, e)),
    };
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !crate::output::is_temp_file_name(&name) {
            continue;
        }
        if which(crate::output::temp_file_target(&name)) {
            let path = entry.path();
            std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
        }
    }
    Ok(())
}

/// Readies `out`, taken for a new run ([`FolderLock::exclusive_for_run`] with
/// [`OUTPUT_LAYOUT`], which creates and marks it), for the run: a folder that holds an earlier
/// run is refused, or with `overwrite` cleared of what docview wrote there and of nothing else
/// (a folder that holds anything else is refused, naming it).
///
/// [`FolderLock::exclusive_for_run`]: crate::lock::FolderLock::exclusive_for_run
pub fn prepare_out_dir(out: &Path, overwrite: bool) -> Result<()> {
    if crate::owned::is_empty(out)? {
        return Ok(());
    }
    if overwrite {
        return Ok(crate::owned::clear(out, &OUTPUT_LAYOUT)?);
    }
    Err(Error::FolderInUse {
        folder: out.to_path_buf(),
        why: FolderInUse::OutHoldsIngest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lock::FolderLock;

    #[test]
    fn overwrite_clears_an_earlier_output_and_refuses_one_with_a_users_files() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let lock = FolderLock::exclusive_for_run(&out, &OUTPUT_LAYOUT).unwrap();
        prepare_out_dir(&out, false).unwrap();
        for name in [STATE_FILE, DOCVIEWS, SPILL_FILE, COMPARE_HTML] {
            std::fs::write(out.join(name), "{}").unwrap();
        }
        std::fs::create_dir_all(out.join(INDEX_DIR).join("topic")).unwrap();
        let e = prepare_out_dir(&out, false).unwrap_err().to_string();
        assert!(e.contains("holds a docview ingest"), "{e}");

        std::fs::write(out.join("thesis.tex"), "mine").unwrap();
        let e = prepare_out_dir(&out, true).unwrap_err().to_string();
        assert!(e.contains("did not write: thesis.tex"), "{e}");
        assert!(out.join(STATE_FILE).exists() && out.join(DOCVIEWS).exists());

        std::fs::remove_file(out.join("thesis.tex")).unwrap();
        prepare_out_dir(&out, true).unwrap();
        assert!(crate::owned::is_empty(&out).unwrap());
        drop(lock);
    }
}
