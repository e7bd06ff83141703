//! The output folder of a run: the names of the files the pipeline writes beside the records
//! (`state.json`, `stats.json`, `summary.json`), preparing a folder for a new run, and clearing
//! what a killed run left half-written (an ingest's whole output folder; a stage task's own
//! temporary files).

use std::path::Path;

use crate::spill::SPILL_FILE;
use crate::state::STATE_FILE;
use crate::{Error, FolderInUse, Result};

/// Name of the collection statistics file in the output directory.
pub const STATS_FILE: &str = "stats.json";
/// Name of the summary file in the output directory.
pub const SUMMARY_FILE: &str = "summary.json";

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

/// Checks that `out` is empty: an ingest never mixes with other files. With `overwrite`, an
/// earlier ingest's output (a folder holding `state.json`) is cleared first; any other folder
/// is left alone.
///
/// The caller holds `out`'s lock ([`FolderLock::exclusive_for_run`], which creates the folder),
/// so the lock file stays and no other run can be writing here.
pub fn prepare_out_dir(out: &Path, overwrite: bool) -> Result<()> {
    if crate::lock::is_empty(out)? {
        return Ok(());
    }
    let earlier_ingest = out.join(STATE_FILE).exists();
    if overwrite && earlier_ingest {
        return Ok(crate::lock::clear(out)?);
    }
    Err(Error::FolderInUse {
        folder: out.to_path_buf(),
        why: if earlier_ingest {
            FolderInUse::OutHoldsIngest
        } else {
            FolderInUse::OutNotEmpty
        },
    })
}
