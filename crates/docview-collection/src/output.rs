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

/// The name of the file a temporary file of docview's was to replace: `pairs-1.parquet` for
/// `.docview-pairs-1.parquet.a1B2c3.tmp` ([`temp_file_for`]); none for any other name, a
/// temporary file of an older docview (`.docview-a1B2c3.tmp`) included.
pub fn temp_file_target(name: &str) -> Option<&str> {
    let inner = name.strip_prefix(TEMP_PREFIX)?.strip_suffix(TEMP_SUFFIX)?;
    let (target, _random) = inner.rsplit_once('.')?;
    Some(target).filter(|t| !t.is_empty())
}

/// A temporary file beside `path`, to be renamed over it once complete, readable by all like
/// any file a user writes (tempfile's own default, owner-only, would leave the outputs
/// unreadable to the services that index them). Its name, `.docview-NAME.XXXXXX.tmp` (`NAME`
/// the file name of `path`), tells which file it was for when a killed run leaves it
/// ([`temp_file_target`]), so a task that runs again removes its own and no other's.
pub fn temp_file_for(path: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let mut builder = tempfile::Builder::new();
    let prefix = format!("{TEMP_PREFIX}{name}.");
    builder.prefix(&prefix).suffix(TEMP_SUFFIX);
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
    let mut tmp = temp_file_for(path).map_err(|e| Error::io(path, e))?;
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

    #[test]
    fn a_temporary_file_names_the_file_it_is_for() {
        let dir = tempfile::tempdir().unwrap();
        for target in ["pairs-1.parquet", "pairs-10.json", "earlier-0"] {
            let tmp = temp_file_for(&dir.path().join(target)).unwrap();
            let name = tmp
                .path()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            assert!(is_temp_file_name(&name), "{name}");
            assert_eq!(temp_file_target(&name), Some(target), "{name}");
            assert_eq!(tmp.path().parent(), Some(dir.path()));
        }
        for other in [
            ".docview-a1B2c3.tmp",
            "pairs-1.parquet",
            ".docview-.x.tmp",
            ".tmpXYZ",
        ] {
            assert_eq!(temp_file_target(other), None, "{other}");
        }
    }
}
