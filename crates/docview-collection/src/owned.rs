//! The folders docview owns: the marker that makes a folder docview's, and clearing only what
//! docview wrote there.
//!
//! A run that writes a folder of its own (an ingest's output folder, the sharded stages' work
//! folder) takes it only when it is new, empty, or already marked as docview's by
//! [`MARKER_FILE`], a small JSON file that names the folder's kind and the version of its
//! layout. The marker is the first file a run writes, right after the lock file
//! ([`crate::lock::LOCK_FILE`]), so every folder docview has written anything in carries it. A
//! folder without it that holds anything is never touched: not locked, not written, not
//! cleared.
//!
//! `--overwrite` clears a marked folder of its kind and layout through [`clear`], which removes
//! only the entries its [`Layout`] says docview writes there, and refuses, naming them, when the
//! folder holds anything else: a user's file put into an output folder stays, and so does the
//! folder.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::lock::LOCK_FILE;
use crate::{Error, Result};

/// The marker of a folder docview owns: the first file a run writes in a folder it takes.
pub const MARKER_FILE: &str = ".docview.json";

/// The most entries a refusal names (it counts the rest).
const NAMED_ENTRIES: usize = 5;

/// What a folder docview owns is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FolderKind {
    /// An output folder: an ingest's, or the stages' merge's (`--out`).
    Output,
    /// The sharded stages' work folder (`--work`).
    Work,
}

impl FolderKind {
    /// The kind as the marker and the messages name it.
    pub fn as_str(self) -> &'static str {
        match self {
            FolderKind::Output => "output",
            FolderKind::Work => "work",
        }
    }
}

impl fmt::Display for FolderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The layout of a kind of folder: its version and the entries docview writes at its top.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    /// The kind of folder.
    pub kind: FolderKind,
    /// The version of the layout, written in the marker; a folder of another version is
    /// refused, since what it may hold is not known.
    pub version: u32,
    /// Whether an entry at the top of the folder, by its name, is one docview writes there
    /// (the lock file, the marker and docview's temporary files need not be listed).
    pub owns: fn(&str) -> bool,
}

/// Whether `name` is the lock file or the marker: what an empty folder of docview's may hold,
/// and what clearing it keeps.
fn is_lock_or_marker(name: &std::ffi::OsStr) -> bool {
    name == LOCK_FILE || name == MARKER_FILE
}

impl Layout {
    /// Whether `name`, an entry at the top of a folder of this layout, is docview's.
    pub fn is_docviews(&self, name: &str) -> bool {
        is_lock_or_marker(name.as_ref())
            || crate::output::is_temp_file_name(name)
            || (self.owns)(name)
    }
}

/// What the marker says.
#[derive(Debug, Serialize, Deserialize)]
struct Marker {
    /// The kind of folder.
    docview_folder: FolderKind,
    /// The version of its layout.
    layout: u32,
    /// The docview that wrote the marker.
    written_by: String,
}

/// Why docview will not take, or clear, a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FolderRefusal {
    /// The path is a file.
    NotAFolder,
    /// The folder holds entries and no marker of docview's (the entries named, the first few).
    NotDocviews(Vec<String>),
    /// The folder's marker cannot be read (what was wrong).
    BadMarker(String),
    /// The folder is docview's, of another kind.
    OtherKind {
        /// The kind its marker names.
        found: FolderKind,
        /// The kind the run needs.
        wanted: FolderKind,
    },
    /// The folder is docview's, of another layout version.
    OtherLayout {
        /// The kind of folder.
        kind: FolderKind,
        /// The version its marker names.
        found: u32,
        /// The version this docview writes.
        writes: u32,
    },
    /// The folder holds, beside docview's files, entries docview did not write (named).
    HoldsOthers(Vec<String>),
}

impl fmt::Display for FolderRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FolderRefusal::NotAFolder => {
                f.write_str("it is a file, not a folder; choose a new or empty folder")
            }
            FolderRefusal::NotDocviews(entries) => write!(
                f,
                "it is not empty and not a folder docview wrote (no {MARKER_FILE}): it holds {}; \
                 nothing was touched. Choose a new or empty folder",
                entries.join(", ")
            ),
            FolderRefusal::BadMarker(why) => write!(
                f,
                "its {MARKER_FILE} is not docview's ({why}); nothing was touched. Choose a new \
                 or empty folder"
            ),
            FolderRefusal::OtherKind { found, wanted } => write!(
                f,
                "it is a docview {found} folder, not a {wanted} folder; choose another folder"
            ),
            FolderRefusal::OtherLayout {
                kind,
                found,
                writes,
            } => write!(
                f,
                "it is a docview {kind} folder of layout {found}, written by another version of \
                 docview (this one writes layout {writes}); nothing was touched. Remove it \
                 yourself or choose another folder"
            ),
            FolderRefusal::HoldsOthers(entries) => write!(
                f,
                "it holds files docview did not write: {}; nothing was removed. Move them out, \
                 or choose another folder",
                entries.join(", ")
            ),
        }
    }
}

/// What a folder is to a run of `layout`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Standing {
    /// It does not exist.
    Missing,
    /// It exists and holds nothing but perhaps the lock file and the marker.
    Empty,
    /// It holds a marker of `layout`'s kind and version, and more.
    Marked,
}

/// What `dir` is to a run of `layout`, or why the run may not take it.
pub(crate) fn standing(dir: &Path, layout: &Layout) -> Result<Standing> {
    let meta = match std::fs::symlink_metadata(dir) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Standing::Missing),
        Err(e) => return Err(Error::io(dir, e)),
    };
    // A symbolic link to a folder is followed; one that leads nowhere is for the folder's maker
    // to tell (`output::create_folder`); any other non-folder is refused.
    if meta.file_type().is_symlink() && !dir.exists() {
        return Ok(Standing::Missing);
    }
    let is_dir = meta.is_dir() || (meta.file_type().is_symlink() && dir.is_dir());
    if !is_dir {
        return Err(refused(dir, FolderRefusal::NotAFolder));
    }
    if is_empty(dir)? {
        return Ok(Standing::Empty);
    }
    let marker_path = dir.join(MARKER_FILE);
    if !marker_path.exists() {
        return Err(refused(
            dir,
            FolderRefusal::NotDocviews(entries_named(dir, |_| true)?),
        ));
    }
    let bytes = std::fs::read(&marker_path).map_err(|e| Error::io(&marker_path, e))?;
    let marker: Marker = serde_json::from_slice(&bytes)
        .map_err(|e| refused(dir, FolderRefusal::BadMarker(e.to_string())))?;
    if marker.docview_folder != layout.kind {
        return Err(refused(
            dir,
            FolderRefusal::OtherKind {
                found: marker.docview_folder,
                wanted: layout.kind,
            },
        ));
    }
    if marker.layout != layout.version {
        return Err(refused(
            dir,
            FolderRefusal::OtherLayout {
                kind: layout.kind,
                found: marker.layout,
                writes: layout.version,
            },
        ));
    }
    Ok(Standing::Marked)
}

/// Writes the marker of `layout` into `dir` (atomically).
pub(crate) fn mark(dir: &Path, layout: &Layout) -> Result<()> {
    crate::output::write_json_atomically(
        &dir.join(MARKER_FILE),
        &Marker {
            docview_folder: layout.kind,
            layout: layout.version,
            written_by: format!("docview {}", env!("CARGO_PKG_VERSION")),
        },
    )
}

/// The refusal of `dir`.
fn refused(dir: &Path, why: FolderRefusal) -> Error {
    Error::Folder {
        folder: dir.to_path_buf(),
        why,
    }
}

/// The names of `dir`'s entries that `pick` picks, sorted, the first few named and the rest
/// counted.
fn entries_named(dir: &Path, pick: impl Fn(&str) -> bool) -> Result<Vec<String>> {
    let mut names = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if pick(&name) {
            names.push(name);
        }
    }
    names.sort();
    if names.len() > NAMED_ENTRIES {
        let more = names.len() - NAMED_ENTRIES;
        names.truncate(NAMED_ENTRIES);
        names.push(format!("and {more} more"));
    }
    Ok(names)
}

/// Whether `dir` holds nothing but (perhaps) its lock file and its marker.
pub fn is_empty(dir: &Path) -> Result<bool> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        if !is_lock_or_marker(&entry.file_name()) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Removes what docview wrote in `dir`, a folder of `layout` whose lock the caller holds
/// (`--overwrite`): every entry [`Layout::is_docviews`] names, but the lock file and the
/// marker. A folder that is not marked as `layout`'s, or that holds anything else, is refused
/// with nothing removed, naming what it holds.
pub fn clear(dir: &Path, layout: &Layout) -> Result<()> {
    if standing(dir, layout)? != Standing::Marked {
        return Ok(());
    }
    let others = entries_named(dir, |name| !layout.is_docviews(name))?;
    if !others.is_empty() {
        return Err(refused(dir, FolderRefusal::HoldsOthers(others)));
    }
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        if is_lock_or_marker(&entry.file_name()) {
            continue;
        }
        let path: PathBuf = entry.path();
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

    fn owns(name: &str) -> bool {
        name == "records.jsonl" || name == "index"
    }

    const LAYOUT: Layout = Layout {
        kind: FolderKind::Output,
        version: 7,
        owns,
    };

    #[test]
    fn a_folder_is_missing_empty_marked_or_refused() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("d");
        assert_eq!(standing(&d, &LAYOUT).unwrap(), Standing::Missing);
        std::fs::create_dir(&d).unwrap();
        std::fs::write(d.join(LOCK_FILE), "").unwrap();
        assert_eq!(standing(&d, &LAYOUT).unwrap(), Standing::Empty);
        mark(&d, &LAYOUT).unwrap();
        assert_eq!(standing(&d, &LAYOUT).unwrap(), Standing::Empty);
        std::fs::write(d.join("records.jsonl"), "").unwrap();
        assert_eq!(standing(&d, &LAYOUT).unwrap(), Standing::Marked);

        // Another kind, another layout, a marker that is not docview's: refused.
        let work = Layout {
            kind: FolderKind::Work,
            ..LAYOUT
        };
        let e = standing(&d, &work).unwrap_err().to_string();
        assert!(
            e.contains("docview output folder, not a work folder"),
            "{e}"
        );
        let later = Layout {
            version: 8,
            ..LAYOUT
        };
        let e = standing(&d, &later).unwrap_err().to_string();
        assert!(
            e.contains("layout 7") && e.contains("writes layout 8"),
            "{e}"
        );
        std::fs::write(d.join(MARKER_FILE), "{\"app\":\"mine\"}").unwrap();
        let e = standing(&d, &LAYOUT).unwrap_err().to_string();
        assert!(e.contains("is not docview's"), "{e}");

        // A file named like docview's state is not a marker: the folder is not docview's.
        let user = dir.path().join("u");
        std::fs::create_dir(&user).unwrap();
        std::fs::write(user.join("state.json"), "{\"app\":\"mine\"}").unwrap();
        std::fs::write(user.join("thesis.tex"), "x").unwrap();
        let e = standing(&user, &LAYOUT).unwrap_err().to_string();
        assert!(e.contains("it holds state.json, thesis.tex"), "{e}");

        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        let e = standing(&file, &LAYOUT).unwrap_err().to_string();
        assert!(e.contains("is a file"), "{e}");
    }

    #[test]
    fn clear_removes_only_what_docview_wrote_and_refuses_a_folder_with_more() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join(LOCK_FILE), "").unwrap();
        mark(d, &LAYOUT).unwrap();
        std::fs::create_dir_all(d.join("index/topic")).unwrap();
        std::fs::write(d.join("index/topic/meta.json"), "{}").unwrap();
        std::fs::write(d.join("records.jsonl"), "{}").unwrap();
        std::fs::write(d.join(".docview-abc.tmp"), "half").unwrap();
        std::fs::write(d.join("thesis.tex"), "mine").unwrap();
        std::fs::create_dir(d.join("src")).unwrap();
        let e = clear(d, &LAYOUT).unwrap_err().to_string();
        assert!(e.contains("did not write: src, thesis.tex"), "{e}");
        assert!(d.join("records.jsonl").exists(), "nothing removed");
        assert!(d.join("index/topic/meta.json").exists());

        std::fs::remove_file(d.join("thesis.tex")).unwrap();
        std::fs::remove_dir(d.join("src")).unwrap();
        clear(d, &LAYOUT).unwrap();
        assert!(is_empty(d).unwrap());
        assert!(d.join(LOCK_FILE).exists() && d.join(MARKER_FILE).exists());
    }

    #[test]
    fn a_refusal_names_the_first_entries_and_counts_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..8 {
            std::fs::write(dir.path().join(format!("f{i}")), "x").unwrap();
        }
        let e = standing(dir.path(), &LAYOUT).unwrap_err().to_string();
        assert!(e.contains("f0, f1, f2, f3, f4, and 3 more"), "{e}");
    }
}
