//! Reading an index without writing a byte in its folder: [`ReadOnlyDirectory`], tantivy's
//! memory-mapped directory with every write refused and tantivy's meta lock taken without
//! creating or writing its file. Every index docview reads (`docview query`, `compare`, the
//! index figures, `docview.search`, the parts of a merge) is opened through it, so reading
//! works on a folder one may not write: another user's, a read-only mount, a copy without
//! write permission.
//!
//! tantivy takes its meta lock (`.tantivy-meta.lock`) while a reader opens the segments, so
//! that a writer in another process does not garbage-collect them meanwhile; its memory-mapped
//! directory opens that file for writing (creating it), which such a folder refuses. Here the
//! lock is the same advisory lock (`flock`, `LockFileEx`) taken *shared* on the file opened for
//! reading: a writer takes it exclusively for its garbage collection, so a reader still waits
//! for one and one waits for a reader. Where the file is absent (no writer has collected
//! garbage in this index since it was copied) or cannot be opened for reading, the reader
//! goes on without it: nothing is created.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    Directory, DirectoryLock, FileHandle, FileSlice, Lock, MmapDirectory, WatchCallback,
    WatchHandle, WritePtr,
};

/// tantivy's memory-mapped directory on `root`, read-only (see the module's doc).
#[derive(Debug, Clone)]
pub(super) struct ReadOnlyDirectory {
    inner: MmapDirectory,
    root: PathBuf,
}

impl ReadOnlyDirectory {
    /// The index folder `root`, which must exist.
    pub(super) fn open(root: &Path) -> tantivy::Result<ReadOnlyDirectory> {
        Ok(ReadOnlyDirectory {
            inner: MmapDirectory::open(root)?,
            root: root.to_path_buf(),
        })
    }
}

/// Why a write was refused (tantivy never asks to write when it only reads).
fn read_only() -> io::Error {
    io::Error::new(
        io::ErrorKind::PermissionDenied,
        "docview opened this index read-only",
    )
}

impl Directory for ReadOnlyDirectory {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        self.inner.get_file_handle(path)
    }

    fn open_read(&self, path: &Path) -> Result<FileSlice, OpenReadError> {
        self.inner.open_read(path)
    }

    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        Err(DeleteError::IoError {
            io_error: Arc::new(read_only()),
            filepath: path.to_path_buf(),
        })
    }

    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        self.inner.exists(path)
    }

    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        Err(OpenWriteError::wrap_io_error(
            read_only(),
            path.to_path_buf(),
        ))
    }

    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        self.inner.atomic_read(path)
    }

    fn atomic_write(&self, _path: &Path, _data: &[u8]) -> io::Result<()> {
        Err(read_only())
    }

    fn sync_directory(&self) -> io::Result<()> {
        Ok(())
    }

    /// The lock shared on its file opened for reading, or no lock where there is no such file
    /// to read (see the module's doc).
    fn acquire_lock(&self, lock: &Lock) -> Result<DirectoryLock, LockError> {
        let Ok(file) = File::open(self.root.join(&lock.filepath)) else {
            return Ok(DirectoryLock::from(Box::new(())));
        };
        if lock.is_blocking {
            file.lock_shared().map_err(LockError::wrap_io_error)?;
        } else {
            file.try_lock_shared().map_err(|e| match e {
                std::fs::TryLockError::WouldBlock => LockError::LockBusy,
                std::fs::TryLockError::Error(e) => LockError::wrap_io_error(e),
            })?;
        }
        // Closing the file releases the lock.
        Ok(DirectoryLock::from(Box::new(file)))
    }

    fn watch(&self, watch_callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        self.inner.watch(watch_callback)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::directory::META_LOCK;

    #[test]
    fn nothing_is_written_and_the_meta_lock_needs_no_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("meta.json"), "{}").unwrap();
        let ro = ReadOnlyDirectory::open(dir.path()).unwrap();
        assert_eq!(ro.atomic_read(Path::new("meta.json")).unwrap(), b"{}");
        assert!(ro.open_write(Path::new("new")).is_err());
        assert!(ro.atomic_write(Path::new("meta.json"), b"x").is_err());
        assert!(ro.delete(Path::new("meta.json")).is_err());
        // No lock file: none is created.
        let lock = ro.acquire_lock(&META_LOCK).unwrap();
        drop(lock);
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["meta.json"]);
        assert_eq!(std::fs::read(dir.path().join("meta.json")).unwrap(), b"{}");
    }

    #[test]
    fn the_meta_lock_is_shared_with_readers_and_kept_from_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(&META_LOCK.filepath);
        std::fs::write(&path, "").unwrap();
        let ro = ReadOnlyDirectory::open(dir.path()).unwrap();
        let first = ro.acquire_lock(&META_LOCK).unwrap();
        let second = ro.acquire_lock(&META_LOCK).unwrap();
        // A writer (tantivy takes the meta lock exclusively) must wait for the readers.
        let writer = File::options().write(true).open(&path).unwrap();
        assert!(matches!(
            writer.try_lock(),
            Err(std::fs::TryLockError::WouldBlock)
        ));
        drop((first, second));
        writer.try_lock().unwrap();
        // And a reader for the writer, without blocking when asked not to.
        let busy = Lock {
            filepath: META_LOCK.filepath.clone(),
            is_blocking: false,
        };
        assert!(matches!(ro.acquire_lock(&busy), Err(LockError::LockBusy)));
        assert_eq!(std::fs::read(&path).unwrap(), b"");
    }
}
