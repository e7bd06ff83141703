//! Writing output files so that a crash never leaves one half-written: the content goes to a
//! temporary file in the same folder, is synced, and is renamed over the target. Also the
//! creation of an output folder ([`create_folder`]), and the one HTML escaper of the pages
//! docview writes (the topic content page, `compare.html`).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{Error, Result};

/// Creates the output folder `dir` and its parents if they are missing. A symbolic link that
/// leads nowhere (`create_dir_all` says only "File exists") is refused, saying so.
pub fn create_folder(dir: &Path) -> Result<()> {
    if !dir.exists()
        && let Ok(target) = std::fs::read_link(dir)
    {
        return Err(Error::bad_input(
            dir.display().to_string(),
            format!(
                "it is a symbolic link to {}, which leads to no folder (a dangling link); \
                 create the folder it points to, or choose another",
                target.display()
            ),
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))
}

/// Writes `value` to `path` as pretty JSON, atomically.
pub fn write_json_atomically<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    write_atomically(path, |w| {
        serde_json::to_writer_pretty(&mut *w, value).map_err(std::io::Error::other)?;
        w.write_all(b"\n")
    })
}

/// Reads a JSON file written by docview; `what` names the kind of file in the error when it is
/// not one ("a docview run state").
pub fn read_json<T: DeserializeOwned>(path: &Path, what: &str) -> Result<T> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    serde_json::from_slice(&bytes)
        .map_err(|e| Error::bad_input(path.display().to_string(), format!("not {what}: {e}")))
}

/// The name of every temporary file docview writes starts with this …
pub const TEMP_PREFIX: &str = ".docview-";
/// … and ends with this.
const TEMP_SUFFIX: &str = ".tmp";

/// Whether `name` is one of docview's temporary files (what a killed run leaves behind).
pub fn is_temp_file_name(name: &str) -> bool {
    name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX)
}

/// A temporary file in `dir`, readable by all like any file a user writes (tempfile's own
/// default, owner-only, would leave the outputs unreadable to the services that index them).
pub fn temp_file(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX).suffix(TEMP_SUFFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o644));
    }
    builder.tempfile_in(dir)
}

/// Writes `path` atomically: `write` fills a buffered temporary file beside it, which replaces
/// `path` only once it is complete and synced.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<&mut File>) -> std::io::Result<()>,
) -> Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut tmp = temp_file(dir).map_err(|e| Error::io(dir, e))?;
    let filled = {
        let mut out = BufWriter::new(tmp.as_file_mut());
        write(&mut out).and_then(|()| out.flush())
    };
    filled
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| Error::io(tmp.path(), e))?;
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

pub use docview_page::escape_html_into;

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_dangling_link_is_refused_saying_what_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("out");
        std::os::unix::fs::symlink(dir.path().join("gone"), &link).unwrap();
        let err = create_folder(&link).unwrap_err().to_string();
        assert!(err.contains("symbolic link to"), "{err}");
        assert!(err.contains("gone") && err.contains("dangling"), "{err}");
        // A link to a folder is used as the folder; a new path is created.
        std::fs::create_dir(dir.path().join("gone")).unwrap();
        create_folder(&link).unwrap();
        create_folder(&dir.path().join("a/b")).unwrap();
        assert!(dir.path().join("a/b").is_dir());
    }

    #[test]
    fn replaces_the_file_only_when_complete() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_atomically(&path, |w| w.write_all(b"first")).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "first");
        let failed = write_atomically(&path, |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("crash"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "first");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temp file left"
        );
    }
}
