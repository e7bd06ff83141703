//! One run at a time in a folder: the advisory lock a run takes on its output folder (and the
//! sharded stages on their work folder) before it touches anything in it, and holds until it
//! ends.
//!
//! The lock is the operating system's advisory file lock (`flock` on Unix, `LockFileEx` on
//! Windows) on the file [`LOCK_FILE`] inside the folder. The system releases it when the
//! process that holds it ends, however it ends, so a run killed with SIGKILL leaves the file
//! but no lock: a later `--resume` or `--overwrite` takes it again. The file holds the
//! process id of the last run that took it, which a refused run names.
//!
//! Who takes what: `ingest` an exclusive lock on `--out` for its whole run; a `stages` task a
//! shared lock on the work folder (tasks of a run go side by side), and `stages plan` an
//! exclusive one (it must not replace a plan under running tasks); the `merge` stage an
//! exclusive lock on the output folder, as `ingest` does.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// The lock file inside a locked folder. Every check that a folder is empty, and every
/// clearing of one, leaves it alone.
pub const LOCK_FILE: &str = ".docview.lock";

/// How a folder is locked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockMode {
    /// One holder and no other: a run that writes the folder's shared files.
    Exclusive,
    /// Any number of holders, and no exclusive one: tasks of one sharded run that each write
    /// files of their own.
    Shared,
}

/// A held lock on a folder; dropping it releases the lock (the file stays).
#[derive(Debug)]
pub struct FolderLock {
    dir: PathBuf,
    file: File,
    mode: LockMode,
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        if self.mode == LockMode::Exclusive {
            // No holder to name any more (closing the file releases the lock).
            let _ = self.file.set_len(0);
        }
    }
}

impl FolderLock {
    /// Locks `dir` (which must exist) in `mode`, or says which folder another run holds.
    pub fn take(dir: &Path, mode: LockMode) -> Result<FolderLock> {
        let path = dir.join(LOCK_FILE);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        let taken = match mode {
            LockMode::Exclusive => file.try_lock(),
            LockMode::Shared => file.try_lock_shared(),
        };
        match taken {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = holder.trim();
                let by = if holder.is_empty() {
                    String::new()
                } else {
                    format!(" ({holder})")
                };
                return Err(Error::bad_input(
                    dir.display().to_string(),
                    format!(
                        "another docview run is using this folder{by}; nothing was touched. Wait \
                         for it to end, or choose another folder (the lock is {})",
                        path.display()
                    ),
                ));
            }
            Err(TryLockError::Error(e)) => return Err(Error::io(&path, e)),
        }
        if mode == LockMode::Exclusive {
            // Who holds it, for the message of a run refused. Best effort: the lock is the
            // flock, not these bytes.
            let _ = file
                .set_len(0)
                .and_then(|()| file.rewind())
                .and_then(|()| writeln!(file, "process {}", std::process::id()));
        }
        Ok(FolderLock {
            dir: dir.to_path_buf(),
            file,
            mode,
        })
    }

    /// Creates `dir` if needed and locks it exclusively. A folder that exists, is not empty
    /// and holds neither a lock file nor `marker` (the file that says the folder is one of
    /// docview's: `state.json`, `plan.json`) is refused without writing anything in it.
    pub fn exclusive_for_run(dir: &Path, marker: &str) -> Result<FolderLock> {
        if dir.exists() {
            if !dir.is_dir() {
                return Err(Error::bad_input(
                    dir.display().to_string(),
                    "it is a file, not a folder; choose a new or empty folder",
                ));
            }
            let foreign =
                !dir.join(LOCK_FILE).exists() && !dir.join(marker).exists() && !is_empty(dir)?;
            if foreign {
                return Err(Error::bad_input(
                    dir.display().to_string(),
                    "it is not empty and not a docview output; choose a new or empty folder",
                ));
            }
        } else {
            crate::output::create_folder(dir)?;
        }
        FolderLock::take(dir, LockMode::Exclusive)
    }

    /// The locked folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// Whether `dir` holds nothing but (perhaps) its lock file.
pub fn is_empty(dir: &Path) -> Result<bool> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        if entry.file_name() != LOCK_FILE {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Removes everything in `dir` but its lock file: `--overwrite` under the lock it holds.
pub fn clear(dir: &Path) -> Result<()> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        if entry.file_name() == LOCK_FILE {
            continue;
        }
        let path = entry.path();
        let is_dir = entry.file_type().map_err(|e| Error::io(&path, e))?.is_dir();
        if is_dir {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        }
        .map_err(|e| Error::io(&path, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_exclusive_lock_is_refused_and_names_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let first = FolderLock::take(dir.path(), LockMode::Exclusive).unwrap();
        let e = FolderLock::take(dir.path(), LockMode::Exclusive)
            .unwrap_err()
            .to_string();
        assert!(e.contains(&dir.path().display().to_string()), "{e}");
        assert!(e.contains("another docview run"), "{e}");
        assert!(
            e.contains(&format!("process {}", std::process::id())),
            "{e}"
        );
        let e = FolderLock::take(dir.path(), LockMode::Shared).unwrap_err();
        assert!(e.to_string().contains("another docview run"));
        drop(first);
        // Released with its holder; the file stays, and does not block.
        assert!(dir.path().join(LOCK_FILE).exists());
        FolderLock::take(dir.path(), LockMode::Exclusive).unwrap();
    }

    #[test]
    fn shared_locks_go_together_and_keep_an_exclusive_one_out() {
        let dir = tempfile::tempdir().unwrap();
        let a = FolderLock::take(dir.path(), LockMode::Shared).unwrap();
        let b = FolderLock::take(dir.path(), LockMode::Shared).unwrap();
        assert!(FolderLock::take(dir.path(), LockMode::Exclusive).is_err());
        drop((a, b));
        FolderLock::take(dir.path(), LockMode::Exclusive).unwrap();
    }

    #[test]
    fn a_foreign_folder_is_refused_untouched_and_clear_keeps_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
        let e = FolderLock::exclusive_for_run(dir.path(), "state.json").unwrap_err();
        assert!(e.to_string().contains("not a docview output"), "{e}");
        assert!(!dir.path().join(LOCK_FILE).exists(), "nothing written");

        let out = dir.path().join("out");
        let lock = FolderLock::exclusive_for_run(&out, "state.json").unwrap();
        assert_eq!(lock.dir(), out);
        assert!(is_empty(&out).unwrap());
        std::fs::create_dir_all(out.join("index/topic")).unwrap();
        std::fs::write(out.join("state.json"), "{}").unwrap();
        assert!(!is_empty(&out).unwrap());
        clear(&out).unwrap();
        assert!(is_empty(&out).unwrap());
        assert!(out.join(LOCK_FILE).exists());
    }
}
