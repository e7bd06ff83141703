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
//! exclusive lock on the output folder, as `ingest` does. Inside a work folder, two more
//! exclusive locks on files of their own ([`FolderLock::exclusive_file`]): the process that
//! runs every stage (`stages pool`) holds one, so a second pool is refused, and each task holds
//! its own, so that no task runs twice at once whatever started it (two pools, a pool and
//! Spark, Spark's speculative copy of a slow task).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use crate::owned::{self, Layout, Standing};
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
        FolderLock::take_file(
            dir,
            &dir.join(LOCK_FILE),
            mode,
            "another docview run is using this folder",
            "Wait for it to end, or choose another folder",
        )
    }

    /// Locks the lock file `file` (created if needed, in a folder that must exist) of one part
    /// of the work in folder `dir` exclusively: one process at a time runs that part (the
    /// stages of a work folder, one task of a stage). A refusal names `dir` and says `held`
    /// ("task 1 of stage pages is running in another process").
    pub fn exclusive_file(dir: &Path, file: &Path, held: &str) -> Result<FolderLock> {
        FolderLock::take_file(dir, file, LockMode::Exclusive, held, "Wait for it to end")
    }

    /// Locks `path` in `mode`; a refusal names `dir`, says `held` and then `advice`.
    fn take_file(
        dir: &Path,
        path: &Path,
        mode: LockMode,
        held: &str,
        advice: &str,
    ) -> Result<FolderLock> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| Error::io(path, e))?;
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
                        "{held}{by}; nothing was touched. {advice} (the lock is {})",
                        path.display()
                    ),
                ));
            }
            Err(TryLockError::Error(e)) => return Err(Error::io(path, e)),
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

    /// Takes `dir` for a run that writes a folder of `layout`: creates it if needed, locks it
    /// exclusively and marks it as docview's ([`crate::owned::MARKER_FILE`], the first file
    /// written after the lock file). A folder that is not new, not empty and not marked as
    /// `layout`'s is refused with nothing written in it, not even the lock file.
    pub fn exclusive_for_run(dir: &Path, layout: &Layout) -> Result<FolderLock> {
        if owned::standing(dir, layout)? == Standing::Missing {
            crate::output::create_folder(dir)?;
        }
        let had_lock_file = dir.join(LOCK_FILE).exists();
        let lock = FolderLock::take(dir, LockMode::Exclusive)?;
        // Again under the lock: another run may have written the folder since.
        match owned::standing(dir, layout) {
            Ok(Standing::Marked) => Ok(lock),
            Ok(Standing::Empty | Standing::Missing) => {
                owned::mark(dir, layout)?;
                Ok(lock)
            }
            Err(e) => {
                if !had_lock_file {
                    // Refused: the folder is left as it was found.
                    let _ = std::fs::remove_file(dir.join(LOCK_FILE));
                }
                Err(e)
            }
        }
    }

    /// The locked folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
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
    fn a_lock_of_one_part_of_a_folder_names_the_folder_and_the_part() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pages-1.lock");
        let held = "task 1 of stage pages is running in another process";
        // The folder's own lock does not stand in its way.
        let _folder = FolderLock::take(dir.path(), LockMode::Shared).unwrap();
        let first = FolderLock::exclusive_file(dir.path(), &file, held).unwrap();
        let e = FolderLock::exclusive_file(dir.path(), &file, held)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(&dir.path().display().to_string()), "{e}");
        assert!(e.contains(held), "{e}");
        assert!(e.contains(&file.display().to_string()), "{e}");
        assert!(
            e.contains(&format!("process {}", std::process::id())),
            "{e}"
        );
        drop(first);
        FolderLock::exclusive_file(dir.path(), &file, held).unwrap();
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

    fn owns(name: &str) -> bool {
        name == "state.json" || name == "index"
    }

    const LAYOUT: Layout = Layout {
        kind: crate::owned::FolderKind::Output,
        version: 1,
        owns,
    };

    #[test]
    fn a_foreign_folder_is_refused_untouched_and_a_new_one_marked() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("state.json"), "{\"app\":\"mine\"}").unwrap();
        let e = FolderLock::exclusive_for_run(dir.path(), &LAYOUT).unwrap_err();
        assert!(e.to_string().contains("not a folder docview wrote"), "{e}");
        assert!(!dir.path().join(LOCK_FILE).exists(), "nothing written");

        let out = dir.path().join("out");
        let lock = FolderLock::exclusive_for_run(&out, &LAYOUT).unwrap();
        assert_eq!(lock.dir(), out);
        assert!(out.join(crate::owned::MARKER_FILE).exists());
        assert!(crate::owned::is_empty(&out).unwrap());
        std::fs::write(out.join("state.json"), "{}").unwrap();
        drop(lock);
        // Marked: taken again, as a resumed or overwritten run takes it.
        FolderLock::exclusive_for_run(&out, &LAYOUT).unwrap();
    }
}
