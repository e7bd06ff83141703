//! The inputs of `docview ingest`: a list of paths (directories, WARC files, JSON Lines files,
//! single pages, `-` for standard input) read as one stream of
//! [`InputEvent`]s, one page at a time, in a deterministic order: the paths in the order given,
//! a directory's entries sorted by file name at every level.
//!
//! A path is read as:
//! - a directory: walked recursively (symbolic links followed); files named `*.html`, `*.htm`,
//!   `*.html.gz`, `*.htm.gz` (any case) are pages; the crawl files in it (`*.warc`,
//!   `*.warc.gz`, `*.jsonl`, `*.jsonl.gz`) are read after its pages, in the same sorted order,
//!   as if given one by one; other files are passed over without an event;
//! - a file named `*.warc` or `*.warc.gz`, or one whose bytes start with `WARC/` (gzip or not):
//!   a WARC (see the `warc` module);
//! - a file named `*.jsonl` or `*.jsonl.gz`: JSON Lines;
//! - `-`, standard input, sniffed as a file is (gzip or not): a WARC when its bytes start with
//!   `WARC/` (copied to an unnamed temporary file first, since the WARC reader goes back to
//!   resynchronise after a broken record), else JSON Lines;
//! - any other file: one page, gunzipped when its bytes are gzip.

use std::collections::VecDeque;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read, Seek};
use std::path::{Path, PathBuf};

use flate2::bufread::MultiGzDecoder;
use serde::{Deserialize, Serialize};

use super::jsonl::{JsonlKeys, JsonlReader};
use super::progress::{Progress, Tracked};
use super::raw::{InputEvent, RawPage, SkipReason, file_url};
use super::warc::WarcReader;
use super::{CrawlFormat, GZIP_MAGIC, read_page_bytes, read_page_from};
use crate::{Error, Result};

/// How a path is read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Stdin,
    Directory,
    Warc,
    Jsonl,
    /// A single page, or a WARC found by its first bytes.
    Other,
    /// One entry of an input directory's walk, read as the walk reads it: a page file, or the
    /// event of a file it passes over (a link, a special file, a file that is no page).
    Entry,
    /// An entry the directory's walk could not read, with what was wrong.
    Broken(String),
}

/// One input path, checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Source {
    path: PathBuf,
    kind: Kind,
    /// On-disk bytes (of the page files, for a directory); 0 for standard input.
    size: u64,
}

/// One unit of an input plan: a crawl file (WARC, JSON Lines), a single page file, or one
/// entry of an input directory. The units of [`Inputs::plan`], read in their order by
/// [`Inputs::of_units`], give the same events as [`Inputs::open`] of the same paths; a
/// sharded run hands each shard a share of them, and an event's place in the whole stream is
/// its unit's number and its number inside the unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputUnit(Source);

impl InputUnit {
    /// Its on-disk bytes.
    pub fn size(&self) -> u64 {
        self.0.size
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.0.path
    }
}

/// What is being read now.
enum Current {
    Directory(DirReader),
    Warc(WarcReader<BufReader<File>>),
    Jsonl(JsonlReader),
    /// The one page of standard input, until it is handed out.
    Page(Option<InputEvent>),
}

impl Current {
    fn next_event(&mut self) -> Option<InputEvent> {
        match self {
            Current::Directory(dir) => dir.next_event(),
            Current::Warc(warc) => warc.next_event(),
            Current::Jsonl(jsonl) => jsonl.next_event(),
            Current::Page(page) => page.take(),
        }
    }
}

/// The crawled inputs, read one page at a time: an [`Iterator`] of [`InputEvent`]s.
pub struct Inputs {
    sources: VecDeque<Source>,
    current: Option<(Current, u64)>,
    progress: Progress,
    /// On-disk bytes of the inputs read to their end.
    done_bytes: u64,
    total: Option<u64>,
    /// Whether standard input that is neither a WARC nor JSON Lines is one page.
    stdin_page: bool,
    /// The keys of a JSON line's address and HTML.
    jsonl_keys: JsonlKeys,
}

impl Inputs {
    /// Checks every path up front (exists, readable; a directory is walked to sum the sizes of
    /// its pages) and returns an error naming the first bad one. `-` (standard input) may be
    /// given once.
    pub fn open(paths: &[PathBuf]) -> Result<Inputs> {
        let mut sources = VecDeque::new();
        let mut total = Some(0u64);
        for path in paths {
            let (source, crawl_files) = check(path)?;
            if source.kind == Kind::Stdin {
                if total.is_none() {
                    return Err(Error::bad_input("-", "standard input given twice"));
                }
                total = None;
            }
            total = total.map(|t| t + source.size);
            sources.push_back(source);
            for file in crawl_files {
                total = total.map(|t| t + file.size);
                sources.push_back(file);
            }
        }
        Ok(Inputs {
            sources,
            current: None,
            progress: Progress::default(),
            done_bytes: 0,
            total,
            stdin_page: false,
            jsonl_keys: JsonlKeys::default(),
        })
    }

    /// Reads standard input that is neither a WARC nor JSON Lines as one page, without an
    /// address (its [`RawPage::url`] empty), as `docview extract` does; `ingest` reads it as
    /// JSON Lines and reports the lines that are not.
    pub fn with_stdin_page(mut self) -> Inputs {
        self.stdin_page = true;
        self
    }

    /// Reads a JSON line's page address and HTML from `keys` rather than `url` and `html`.
    pub fn with_jsonl_keys(mut self, keys: JsonlKeys) -> Inputs {
        self.jsonl_keys = keys;
        self
    }

    /// The units of `paths`, checked as [`Inputs::open`] checks them, with each directory split
    /// into the entries of its walk (crawl files inside it after them, as `open` reads them).
    /// Standard input cannot be planned: it can be read once, by one process.
    pub fn plan(paths: &[PathBuf]) -> Result<Vec<InputUnit>> {
        let mut units = Vec::new();
        for path in paths {
            let (source, crawl_files) = check(path)?;
            match source.kind {
                Kind::Stdin => {
                    return Err(Error::bad_input(
                        "-",
                        "standard input cannot be split into shards: save it to a file first",
                    ));
                }
                Kind::Directory => {
                    for entry in walk(&source.path) {
                        let unit = match entry {
                            Err(e) => Source {
                                path: e.path().unwrap_or(Path::new("")).to_path_buf(),
                                kind: Kind::Broken(
                                    e.io_error()
                                        .map_or_else(|| e.to_string(), |io| io.to_string()),
                                ),
                                size: 0,
                            },
                            Ok(entry) => {
                                if folder_skip(&entry).is_none() {
                                    continue;
                                }
                                let size =
                                    if entry.file_type().is_file() && is_page_name(entry.path()) {
                                        entry.metadata().map_or(0, |m| m.len())
                                    } else {
                                        0
                                    };
                                Source {
                                    path: entry.into_path(),
                                    kind: Kind::Entry,
                                    size,
                                }
                            }
                        };
                        units.push(InputUnit(unit));
                    }
                }
                _ => units.push(InputUnit(source)),
            }
            units.extend(crawl_files.into_iter().map(InputUnit));
        }
        Ok(units)
    }

    /// Reads `units` (from [`Inputs::plan`]) in the order given.
    pub fn of_units(units: &[InputUnit]) -> Inputs {
        Inputs {
            total: Some(units.iter().map(|u| u.0.size).sum()),
            sources: units.iter().map(|u| u.0.clone()).collect(),
            current: None,
            progress: Progress::default(),
            done_bytes: 0,
            stdin_page: false,
            jsonl_keys: JsonlKeys::default(),
        }
    }

    /// Sum of the on-disk sizes of the inputs (`None` when standard input is among them), for a
    /// progress bar.
    pub fn total_bytes(&self) -> Option<u64> {
        self.total
    }

    /// On-disk bytes consumed so far (compressed bytes for gzip files).
    pub fn bytes_read(&self) -> u64 {
        self.progress.bytes_read()
    }

    /// A handle on [`Inputs::bytes_read`] that another thread can read while this one iterates.
    pub fn progress(&self) -> Progress {
        self.progress.clone()
    }

    /// Starts reading `source`: a reader to take events from, or the single event of a page
    /// file or of a file that cannot be opened.
    fn start(&mut self, source: &Source) -> std::result::Result<Current, InputEvent> {
        let name = source.path.display().to_string();
        let malformed = |e: &dyn std::fmt::Display| InputEvent::Malformed {
            origin: name.clone(),
            message: e.to_string(),
        };
        if source.kind == Kind::Stdin {
            return standard_input(
                io::stdin(),
                &self.progress,
                self.done_bytes,
                self.stdin_page,
                &self.jsonl_keys,
            )
            .map_err(|e| malformed(&e));
        }
        if let Kind::Broken(message) = &source.kind {
            return Err(InputEvent::Malformed {
                origin: name,
                message: message.clone(),
            });
        }
        if source.kind == Kind::Entry {
            return Err(entry_event(&source.path));
        }
        if source.kind == Kind::Directory {
            return Ok(Current::Directory(DirReader::new(
                &source.path,
                self.progress.clone(),
                self.done_bytes,
            )));
        }
        let file = File::open(&source.path).map_err(|e| malformed(&e))?;
        let mut reader = Tracked::reporting(
            BufReader::with_capacity(64 << 10, file),
            self.progress.clone(),
            self.done_bytes,
        );
        let kind = match &source.kind {
            Kind::Other if looks_like_warc(reader.fill_buf().map_err(|e| malformed(&e))?) => {
                Kind::Warc
            }
            kind => kind.clone(),
        };
        match kind {
            Kind::Warc => WarcReader::new(reader, &name)
                .map(Current::Warc)
                .map_err(|e| malformed(&e)),
            Kind::Jsonl => {
                let lines = gunzipping(reader).map_err(|e| malformed(&e))?;
                Ok(Current::Jsonl(
                    JsonlReader::new(lines, &name).with_keys(self.jsonl_keys.clone()),
                ))
            }
            _ => Err(single_page(reader, &source.path, name)),
        }
    }

    /// Counts the current source as read.
    fn finish(&mut self, size: u64) {
        self.done_bytes += size;
        self.progress.advance_to(self.done_bytes);
    }
}

impl Iterator for Inputs {
    type Item = InputEvent;

    fn next(&mut self) -> Option<InputEvent> {
        loop {
            if let Some((current, size)) = &mut self.current {
                if let Some(event) = current.next_event() {
                    return Some(event);
                }
                let size = *size;
                self.current = None;
                self.finish(size);
            }
            let source = self.sources.pop_front()?;
            match self.start(&source) {
                Ok(current) => self.current = Some((current, source.size)),
                Err(event) => {
                    self.finish(source.size);
                    return Some(event);
                }
            }
        }
    }
}

/// Checks one input path; for a directory, also the crawl files inside it, to be read after
/// its pages.
fn check(path: &Path) -> Result<(Source, Vec<Source>)> {
    if path == Path::new("-") {
        let stdin = Source {
            path: path.to_path_buf(),
            kind: Kind::Stdin,
            size: 0,
        };
        return Ok((stdin, Vec::new()));
    }
    let meta = fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if !meta.is_dir() {
        return Ok((check_file(path, meta.len())?, Vec::new()));
    }
    fs::read_dir(path).map_err(|e| Error::io(path, e))?;
    let (page_bytes, crawl_files) = scan_directory(path);
    let crawl_files = crawl_files
        .into_iter()
        .map(|(file, size)| check_file(&file, size))
        .collect::<Result<_>>()?;
    let directory = Source {
        path: path.to_path_buf(),
        kind: Kind::Directory,
        size: page_bytes,
    };
    Ok((directory, crawl_files))
}

/// Checks one file of `size` bytes, its kind from its name.
fn check_file(path: &Path, size: u64) -> Result<Source> {
    File::open(path).map_err(|e| Error::io(path, e))?;
    let name = lowercase_name(path);
    let kind = if name.ends_with(".warc") || name.ends_with(".warc.gz") {
        Kind::Warc
    } else if name.ends_with(".jsonl") || name.ends_with(".jsonl.gz") {
        Kind::Jsonl
    } else {
        Kind::Other
    };
    Ok(Source {
        path: path.to_path_buf(),
        kind,
        size,
    })
}

/// The file name of `path`, lowercase.
fn lowercase_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default()
}

/// True for the names of page files in a directory.
fn is_page_name(path: &Path) -> bool {
    let name = lowercase_name(path);
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    name.ends_with(".html") || name.ends_with(".htm")
}

/// True for the names of crawl files (WARC, JSON Lines) in a directory.
fn is_crawl_file_name(path: &Path) -> bool {
    let name = lowercase_name(path);
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    name.ends_with(".warc") || name.ends_with(".jsonl")
}

/// Bytes of standard input read before it is sniffed: enough for a gzip header and the first
/// bytes of its data.
const STDIN_HEAD_BYTES: usize = 4096;

/// The reader of standard input (`stdin`, counted into `progress` from `base`): a WARC when it
/// starts as one (gzip or not), copied to an unnamed temporary file and read from there as a
/// WARC file is; with `page`, one page when it starts as neither a WARC nor JSON Lines; JSON
/// Lines otherwise.
fn standard_input(
    stdin: impl Read + Send + 'static,
    progress: &Progress,
    base: u64,
    page: bool,
    keys: &JsonlKeys,
) -> io::Result<Current> {
    let mut stdin = Tracked::reporting(BufReader::new(stdin), progress.clone(), base);
    let mut head = vec![0u8; STDIN_HEAD_BYTES];
    let len = super::read_up_to(&mut stdin, &mut head)?;
    head.truncate(len);
    let format = CrawlFormat::sniff(&head);
    let whole = io::Cursor::new(head).chain(stdin);
    if page && format.is_none() {
        let name = Path::new("-");
        let event = match read_page_from(whole, name) {
            Ok(bytes) => InputEvent::Page(RawPage {
                kind: crate::PageKind::Html,
                url: String::new(),
                bytes,
                http_charset: None,
                origin: "-".to_string(),
                warc: None,
                fields: None,
            }),
            Err(e) => InputEvent::Malformed {
                origin: "-".to_string(),
                message: reason(&e),
            },
        };
        return Ok(Current::Page(Some(event)));
    }
    if format != Some(CrawlFormat::Warc) {
        let lines = gunzipping(Tracked::new(BufReader::new(whole)))?;
        return Ok(Current::Jsonl(
            JsonlReader::new(lines, "-").with_keys(keys.clone()),
        ));
    }
    let mut spool = tempfile::tempfile()?;
    io::copy(&mut { whole }, &mut spool)?;
    spool.rewind()?;
    let reader = Tracked::new(BufReader::with_capacity(64 << 10, spool));
    Ok(Current::Warc(WarcReader::new(reader, "-")?))
}

/// True when the first bytes of a file are those of a WARC, plain or gzip.
fn looks_like_warc(head: &[u8]) -> bool {
    CrawlFormat::sniff(head) == Some(CrawlFormat::Warc)
}

/// `reader`, decompressed when it starts with the gzip magic.
fn gunzipping(
    mut reader: Tracked<impl BufRead + Send + 'static>,
) -> io::Result<Box<dyn BufRead + Send>> {
    Ok(if reader.fill_buf()?.starts_with(&GZIP_MAGIC) {
        Box::new(BufReader::new(MultiGzDecoder::new(reader)))
    } else {
        Box::new(reader)
    })
}

/// The one event of a single page file.
fn single_page(reader: impl Read, path: &Path, origin: String) -> InputEvent {
    page_file_event(read_page_from(reader, path), path, origin)
}

/// The event of a page file whose bytes were read as `read`: the page, under its file URL, or
/// why it could not be read.
fn page_file_event(read: Result<Vec<u8>>, path: &Path, origin: String) -> InputEvent {
    match read {
        Ok(bytes) => InputEvent::Page(RawPage {
            kind: crate::PageKind::Html,
            url: file_url(&absolute(path)),
            bytes,
            http_charset: None,
            origin,
            warc: None,
            fields: None,
        }),
        Err(e) => InputEvent::Malformed {
            origin,
            message: reason(&e),
        },
    }
}

/// The canonical absolute path of `path`, or `path` made absolute when it cannot be resolved.
fn absolute(path: &Path) -> PathBuf {
    fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// What an error says, without the path it names (the event's origin names it).
fn reason(e: &Error) -> String {
    match e {
        Error::Io { source, .. } => source.to_string(),
        Error::BadInput { reason, .. } => reason.clone(),
    }
}

/// The walk of a directory: entries sorted by name at every level. Symbolic links inside it
/// are not followed (a link to `..` would walk the folder's siblings, a link to a page would
/// read it twice); the root itself is, when it is a link.
fn walk(root: &Path) -> walkdir::IntoIter {
    walkdir::WalkDir::new(root)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
}

/// Why a folder entry that is not a directory gives no page of its own; `None` for a page
/// file, and for a crawl file (read after the folder's pages).
fn folder_skip(entry: &walkdir::DirEntry) -> Option<Option<SkipReason>> {
    let kind = entry.file_type();
    if kind.is_dir() {
        return None;
    }
    let reason = if kind.is_symlink() {
        Some(SkipReason::Symlink)
    } else if !kind.is_file() {
        Some(SkipReason::SpecialFile(special_kind(kind)))
    } else if is_page_name(entry.path()) {
        None
    } else if is_crawl_file_name(entry.path()) {
        return None;
    } else {
        Some(SkipReason::NotPageFile)
    };
    Some(reason)
}

/// What kind of special file `kind` is.
fn special_kind(kind: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "FIFO";
        }
        if kind.is_socket() {
            return "socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "device";
        }
    }
    let _ = kind;
    "special file"
}

/// The event of one entry of a directory's walk read on its own (an [`InputUnit`]): what
/// [`DirReader`] gives for it.
fn entry_event(path: &Path) -> InputEvent {
    let origin = path.display().to_string();
    let kind = match fs::symlink_metadata(path) {
        Ok(meta) => meta.file_type(),
        Err(e) => {
            return InputEvent::Malformed {
                origin,
                message: e.to_string(),
            };
        }
    };
    let reason = if kind.is_symlink() {
        SkipReason::Symlink
    } else if !kind.is_file() {
        SkipReason::SpecialFile(special_kind(kind))
    } else if is_page_name(path) {
        return page_file_event(read_page_bytes(path), path, origin);
    } else {
        SkipReason::NotPageFile
    };
    InputEvent::Skipped { origin, reason }
}

/// One walk of the directory `root`: the sum of the sizes of its page files, and its crawl
/// files with their sizes, in walk order (unreadable entries are passed over).
fn scan_directory(root: &Path) -> (u64, Vec<(PathBuf, u64)>) {
    let mut page_bytes = 0;
    let mut crawl_files = Vec::new();
    for entry in walk(root).filter_map(|entry| entry.ok()) {
        if !entry.file_type().is_file() {
            continue;
        }
        let size = entry.metadata().map_or(0, |meta| meta.len());
        if is_page_name(entry.path()) {
            page_bytes += size;
        } else if is_crawl_file_name(entry.path()) {
            crawl_files.push((entry.into_path(), size));
        }
    }
    (page_bytes, crawl_files)
}

/// The pages of a directory, one file at a time.
struct DirReader {
    walk: walkdir::IntoIter,
    progress: Progress,
    /// Bytes read before this directory and in it so far.
    base: u64,
}

impl DirReader {
    fn new(root: &Path, progress: Progress, base: u64) -> Self {
        DirReader {
            walk: walk(root),
            progress,
            base,
        }
    }

    fn next_event(&mut self) -> Option<InputEvent> {
        loop {
            let entry = match self.walk.next()? {
                Ok(entry) => entry,
                Err(e) => {
                    let origin = e.path().unwrap_or(Path::new("")).display().to_string();
                    let message = e
                        .io_error()
                        .map_or_else(|| e.to_string(), |io| io.to_string());
                    return Some(InputEvent::Malformed { origin, message });
                }
            };
            let origin = entry.path().display().to_string();
            match folder_skip(&entry) {
                None => continue,
                Some(Some(reason)) => return Some(InputEvent::Skipped { origin, reason }),
                Some(None) => {}
            }
            let event = page_file_event(read_page_bytes(entry.path()), entry.path(), origin);
            self.base += entry.metadata().map_or(0, |m| m.len());
            self.progress.advance_to(self.base);
            return Some(event);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use flate2::Compression;
    use flate2::write::GzEncoder;

    use super::*;

    /// `../shared/warc` next to the crate, when it is there.
    fn shared_warc() -> Option<PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/warc");
        if dir.is_dir() {
            Some(dir)
        } else {
            eprintln!("skipped: {} is absent", dir.display());
            None
        }
    }

    /// Each event as `origin kind detail`.
    fn summary(events: &[InputEvent]) -> Vec<String> {
        events
            .iter()
            .map(|e| match e {
                InputEvent::Page(p) => format!("{} page {}", p.origin, p.url),
                InputEvent::Skipped { origin, reason } => format!("{origin} skipped {reason}"),
                InputEvent::Malformed { origin, message } => {
                    format!("{origin} malformed {message}")
                }
            })
            .collect()
    }

    fn read(paths: &[PathBuf]) -> Vec<InputEvent> {
        Inputs::open(paths).unwrap().collect()
    }

    fn pages(events: &[InputEvent]) -> Vec<&RawPage> {
        events
            .iter()
            .filter_map(|e| match e {
                InputEvent::Page(page) => Some(page),
                _ => None,
            })
            .collect()
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut enc = GzEncoder::new(Vec::new(), Compression::default());
        enc.write_all(bytes).unwrap();
        enc.finish().unwrap()
    }

    #[test]
    fn shared_warc_files() {
        let Some(dir) = shared_warc() else { return };
        // file, pages, first page URL, skipped, events in all.
        let expected = [
            ("jwarc__cc.warc.gz", 1, Some("http://commoncrawl.org/"), 0),
            (
                "resiliparse__warcfile.warc.gz",
                16,
                Some("http://003338.cn/l41/481397.html"),
                0,
            ),
            ("warcio__example-digest.warc", 0, None, 0),
            (
                "warcio__example-iana.org-chunked.warc",
                1,
                Some("http://www.iana.org/"),
                0,
            ),
            (
                "warcio__example-resource.warc.gz",
                1,
                Some("http://example.com/"),
                0,
            ),
            ("warcio__example.warc", 1, Some("http://example.com/"), 1),
            ("warcio__example.warc.gz", 1, Some("http://example.com/"), 1),
            ("warcio__post-test.warc.gz", 0, None, 3),
        ];
        for (name, count, first, skipped) in expected {
            let path = dir.join(name);
            let mut inputs = Inputs::open(std::slice::from_ref(&path)).unwrap();
            let events: Vec<_> = inputs.by_ref().collect();
            let found = pages(&events);
            assert_eq!(found.len(), count, "{name}: {:#?}", summary(&events));
            assert_eq!(found.first().map(|p| p.url.as_str()), first, "{name}");
            assert_eq!(
                events.len(),
                count + skipped,
                "{name}: {:#?}",
                summary(&events)
            );
            assert_eq!(
                inputs.total_bytes(),
                Some(fs::metadata(&path).unwrap().len())
            );
            assert_eq!(inputs.bytes_read(), inputs.total_bytes().unwrap(), "{name}");
            for page in found {
                assert!(page.origin.starts_with(&path.display().to_string()));
                let text = String::from_utf8_lossy(&page.bytes).to_lowercase();
                assert!(text.contains("</html>"), "{name} {}: {text:.200}", page.url);
            }
        }
        // The chunked body is dechunked, the gzip body inflated.
        let events = read(&[dir.join("warcio__example-iana.org-chunked.warc")]);
        let iana = pages(&events)[0];
        assert!(
            iana.bytes.starts_with(b"<!doctype html>"),
            "{:?}",
            &iana.bytes[..40]
        );
        assert_eq!(iana.http_charset.as_deref(), Some("UTF-8"));
        let events = read(&[dir.join("warcio__example.warc.gz")]);
        let text = String::from_utf8_lossy(&pages(&events)[0].bytes).into_owned();
        assert!(
            text.contains("<title>Example Domain</title>"),
            "{text:.200}"
        );
        assert!(matches!(
            &events[1],
            InputEvent::Skipped { reason: crate::SkipReason::NotResponse { warc_type }, .. }
                if warc_type == "revisit"
        ));
        // A captured page as a resource record: its charset is the record's Content-Type's.
        let events = read(&[dir.join("warcio__example-resource.warc.gz")]);
        let resource = pages(&events)[0];
        assert_eq!(resource.http_charset.as_deref(), Some("utf-8"));
        assert!(String::from_utf8_lossy(&resource.bytes).contains("<title>Example Domain</title>"));
    }

    #[test]
    fn corpus_samples_warc() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus-samples");
        let warc = root.join("warc/corpus-samples.warc.gz");
        let events = read(std::slice::from_ref(&warc));
        let found = pages(&events);
        let sites = root.join("sites");
        let files: Vec<PathBuf> = walk(&sites)
            .map(|e| e.unwrap().into_path())
            .filter(|p| p.extension().is_some_and(|e| e == "html"))
            .collect();
        assert_eq!(
            (found.len(), events.len()),
            (files.len(), files.len()),
            "{:#?}",
            summary(&events)
        );
        // Each record carries its page's bytes under the page's URL in pages.json.
        let listed: serde_json::Value =
            serde_json::from_slice(&fs::read(root.join("pages.json")).unwrap()).unwrap();
        let url_of = |file: &Path| {
            let rel = file.strip_prefix(&root).unwrap().to_string_lossy();
            listed["pages"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["file"] == *rel)
                .map(|p| p["url"].as_str().unwrap().to_string())
                .unwrap_or_else(|| panic!("{rel} not in pages.json"))
        };
        for (page, file) in found.iter().zip(&files) {
            assert_eq!(page.url, url_of(file));
            assert_eq!(page.bytes, fs::read(file).unwrap(), "{}", page.url);
        }
        assert_eq!(found[0].url, "http://www.fieldnotes.example/?p=1042");
        let charset = |file: &str| {
            let url = url_of(&sites.join(file));
            let page = found.iter().find(|p| p.url == url).unwrap();
            page.http_charset.clone().unwrap()
        };
        assert_eq!(charset("lanting-news/bridge.html"), "gb2312");
        assert_eq!(charset("lanting-news/old-street.html"), "utf-8");
        assert_eq!(charset("harbor-gazette/storm.html"), "iso-8859-1");
        assert_eq!(charset("xinyu-daily/index.html"), "utf-8");
    }

    #[test]
    fn a_plan_of_units_reads_as_the_paths_do() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("crawl");
        fs::create_dir_all(root.join("a/sub")).unwrap();
        fs::write(root.join("a/z.htm"), "<p>az</p>").unwrap();
        fs::write(root.join("a/sub/x.HTML.gz"), gzip(b"<p>gz</p>")).unwrap();
        fs::write(root.join("a/notes.txt"), "not a page").unwrap();
        fs::write(root.join("1.html"), "WARC/1.0 but in a page file").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("1.html", root.join("link.html")).unwrap();
        let samples = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus-samples/warc/corpus-samples.warc.gz");
        fs::copy(&samples, root.join("a/samples.warc.gz")).unwrap();
        let single = dir.path().join("one.html");
        fs::write(&single, "<p>one</p>").unwrap();
        let paths = [root.clone(), samples.clone(), single];
        let whole = summary(&read(&paths));
        let units = Inputs::plan(&paths).unwrap();
        // Each directory entry is a unit; the crawl file inside follows them.
        assert_eq!(units.len(), 8, "{units:#?}");
        assert_eq!(units[6].path(), samples.as_path());
        let inputs = Inputs::of_units(&units);
        assert_eq!(
            inputs.total_bytes(),
            Inputs::open(&paths).unwrap().total_bytes()
        );
        assert_eq!(summary(&inputs.collect::<Vec<_>>()), whole);
        // Read one by one (as shards read their share), the units give the same events.
        let one_by_one: Vec<String> = units
            .iter()
            .flat_map(|u| summary(&Inputs::of_units(std::slice::from_ref(u)).collect::<Vec<_>>()))
            .collect();
        assert_eq!(one_by_one, whole);
        // A plan survives a round trip through JSON.
        let json = serde_json::to_string(&units).unwrap();
        assert_eq!(
            serde_json::from_str::<Vec<InputUnit>>(&json).unwrap(),
            units
        );
        let err = Inputs::plan(&[PathBuf::from("-")]).unwrap_err().to_string();
        assert!(err.contains("standard input"), "{err}");
    }

    #[test]
    fn directory_walk_is_sorted_and_recursive() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("a/sub")).unwrap();
        fs::create_dir_all(root.join("b")).unwrap();
        fs::create_dir_all(root.join("crawl")).unwrap();
        fs::write(root.join("b/2.html"), "<p>b2</p>").unwrap();
        fs::write(root.join("a/z.htm"), "<p>az</p>").unwrap();
        fs::write(root.join("a/sub/x.HTML.gz"), gzip(b"<p>gz</p>")).unwrap();
        fs::write(root.join("a/notes.txt"), "not a page").unwrap();
        fs::write(root.join("c.png"), b"\x89PNG").unwrap();
        fs::write(root.join("1.html"), "<p>one</p>").unwrap();
        // Crawl files inside the folder are read after its pages, in walk order.
        let samples = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus-samples/warc/corpus-samples.warc.gz");
        fs::copy(&samples, root.join("crawl/samples.warc.gz")).unwrap();
        fs::write(
            root.join("crawl/more.jsonl"),
            "{\"url\": \"http://j.example/\", \"html\": \"<p>jsonl</p>\"}\n",
        )
        .unwrap();
        let mut inputs = Inputs::open(&[root.to_path_buf()]).unwrap();
        let size = |p: &str| fs::metadata(root.join(p)).unwrap().len();
        let total = [
            "b/2.html",
            "a/z.htm",
            "a/sub/x.HTML.gz",
            "1.html",
            "crawl/samples.warc.gz",
            "crawl/more.jsonl",
        ]
        .map(size);
        assert_eq!(inputs.total_bytes(), Some(total.iter().sum()));
        let events: Vec<_> = inputs.by_ref().collect();
        let found = pages(&events);
        // The files that are neither pages nor crawl files are counted as skipped, in walk order.
        let skipped: Vec<String> = summary(&events)
            .into_iter()
            .filter(|e| e.contains(" skipped "))
            .collect();
        let note = "skipped not a page file (.html, .htm, .xhtml) nor a crawl file";
        assert_eq!(
            skipped,
            [
                format!("{} {note}", root.join("a/notes.txt").display()),
                format!("{} {note}", root.join("c.png").display()),
            ]
        );
        assert_eq!(found.len() + 2, events.len(), "{:#?}", summary(&events));
        let canonical = fs::canonicalize(root).unwrap();
        let got: Vec<_> = found[..4]
            .iter()
            .map(|p| (p.url.clone(), String::from_utf8(p.bytes.clone()).unwrap()))
            .collect();
        let url = |rel: &str| file_url(&canonical.join(rel));
        assert_eq!(
            got,
            [
                (url("1.html"), "<p>one</p>".to_string()),
                (url("a/sub/x.HTML.gz"), "<p>gz</p>".to_string()),
                (url("a/z.htm"), "<p>az</p>".to_string()),
                (url("b/2.html"), "<p>b2</p>".to_string()),
            ]
        );
        assert_eq!(found[0].origin, root.join("1.html").display().to_string());
        assert_eq!(found[4].url, "http://j.example/");
        assert_eq!(found[5].url, "http://www.fieldnotes.example/?p=1042");
        assert!(found.len() > 30, "the sample WARC's pages follow");
        assert_eq!(inputs.bytes_read(), total.iter().sum::<u64>());
    }

    #[cfg(unix)]
    #[test]
    fn folder_walks_do_not_follow_links_and_count_special_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("pages");
        fs::create_dir_all(&root).unwrap();
        fs::write(dir.path().join("outside.html"), "<p>outside</p>").unwrap();
        fs::write(root.join("a.html"), "<p>a</p>").unwrap();
        // A loop up to the parent (which holds outside.html), and a second name for a.html.
        std::os::unix::fs::symlink("..", root.join("up")).unwrap();
        std::os::unix::fs::symlink("a.html", root.join("b.html")).unwrap();
        let fifo = root.join("c.html");
        let made_fifo = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        let events = read(std::slice::from_ref(&root));
        let found = pages(&events);
        assert_eq!(found.len(), 1, "{:#?}", summary(&events));
        assert!(found[0].origin.ends_with("a.html"));
        let mut want = vec![
            format!(
                "{} skipped symbolic link (not followed)",
                root.join("b.html").display()
            ),
            format!(
                "{} skipped symbolic link (not followed)",
                root.join("up").display()
            ),
        ];
        if made_fifo {
            want.insert(
                1,
                format!("{} skipped not a regular file (FIFO)", fifo.display()),
            );
        } else {
            eprintln!("mkfifo failed: the FIFO case is not checked");
        }
        let skipped: Vec<String> = summary(&events)
            .into_iter()
            .filter(|e| e.contains(" skipped "))
            .collect();
        assert_eq!(skipped, want);
    }

    #[test]
    fn jsonl_files_and_single_pages() {
        let dir = tempfile::tempdir().unwrap();
        let jsonl = dir.path().join("pages.jsonl.gz");
        let lines = "{\"url\": \"http://a/\", \"html\": \"<p>a</p>\"}\n\n{\"url\": 1}\n";
        fs::write(&jsonl, gzip(lines.as_bytes())).unwrap();
        let page = dir.path().join("page.txt");
        fs::write(&page, gzip(b"<p>single</p>")).unwrap();
        let events = read(&[jsonl.clone(), page.clone()]);
        let name = jsonl.display().to_string();
        assert_eq!(
            summary(&events)[..2],
            [
                format!("{name}:1 page http://a/"),
                format!("{name}:3 malformed bad JSON line: field `url` is a number, not a string"),
            ]
        );
        let single = pages(&events)[1];
        assert_eq!(single.bytes, b"<p>single</p>");
        assert_eq!(single.url, file_url(&fs::canonicalize(&page).unwrap()));
        assert_eq!(single.origin, page.display().to_string());
    }

    #[test]
    fn warc_found_by_its_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("crawl.dat");
        let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>w</p>";
        let mut record = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://w/\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        record.extend_from_slice(block);
        record.extend_from_slice(b"\r\n\r\n");
        fs::write(&path, gzip(&record)).unwrap();
        let events = read(&[path]);
        assert_eq!(pages(&events).len(), 1, "{events:?}");
        assert_eq!(pages(&events)[0].bytes, b"<p>w</p>");
    }

    #[test]
    fn open_checks_every_path() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no-such.warc.gz");
        let err = Inputs::open(&[dir.path().to_path_buf(), missing.clone()])
            .err()
            .unwrap();
        assert!(matches!(err, Error::Io { .. }), "{err:?}");
        assert!(
            err.to_string().contains(&missing.display().to_string()),
            "{err}"
        );
        let dash = PathBuf::from("-");
        let err = Inputs::open(&[dash.clone(), dash]).err().unwrap();
        assert!(err.to_string().contains("standard input"), "{err}");
        let inputs = Inputs::open(&[PathBuf::from("-")]).unwrap();
        assert_eq!(inputs.total_bytes(), None);
    }

    /// A reader that hands out at most 7 bytes per call, like a slow pipe.
    struct Trickle(io::Cursor<Vec<u8>>);

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(7);
            self.0.read(&mut buf[..n])
        }
    }

    /// Every event of `bytes` read as standard input.
    fn stdin_events(bytes: Vec<u8>) -> Vec<InputEvent> {
        stdin_events_as(bytes, false)
    }

    /// The events of standard input holding `bytes`, one page when `page` and it is neither a
    /// WARC nor JSON Lines.
    fn stdin_events_as(bytes: Vec<u8>, page: bool) -> Vec<InputEvent> {
        let progress = Progress::default();
        let mut current = standard_input(
            Trickle(io::Cursor::new(bytes)),
            &progress,
            0,
            page,
            &JsonlKeys::default(),
        )
        .unwrap();
        std::iter::from_fn(|| current.next_event()).collect()
    }

    #[test]
    fn standard_input_may_be_one_page() {
        let html = b"<html><body><p>One page on standard input.</p></body></html>";
        // As extract reads it: one page without an address, gzip or not.
        for bytes in [html.to_vec(), gzip(html)] {
            let events = stdin_events_as(bytes, true);
            assert_eq!(events.len(), 1);
            let page = &pages(&events)[0];
            assert_eq!((page.url.as_str(), page.origin.as_str()), ("", "-"));
            assert_eq!(page.bytes, html);
        }
        // JSON Lines stay JSON Lines.
        let lines = b"{\"url\": \"http://a/\", \"html\": \"<p>a</p>\"}\n";
        assert_eq!(
            summary(&stdin_events_as(lines.to_vec(), true)),
            ["-:1 page http://a/"]
        );
        // As ingest reads it: JSON Lines, whose first line is not JSON.
        let events = stdin_events(html.to_vec());
        assert!(
            matches!(events[..], [InputEvent::Malformed { .. }]),
            "{events:?}"
        );
    }

    #[test]
    fn standard_input_is_sniffed_as_a_file_is() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus-samples/warc/corpus-samples.warc.gz");
        let warc_gz = fs::read(&path).unwrap();
        let mut warc = Vec::new();
        flate2::read::MultiGzDecoder::new(&warc_gz[..])
            .read_to_end(&mut warc)
            .unwrap();
        let from_file = read(std::slice::from_ref(&path));
        let urls = |events: &[InputEvent]| -> Vec<String> {
            pages(events).iter().map(|p| p.url.clone()).collect()
        };
        assert_eq!(pages(&from_file).len(), 35);
        // A WARC, gzip or not, gives the file's pages (not JSON Lines' malformed lines).
        for bytes in [warc_gz.clone(), warc] {
            let events = stdin_events(bytes);
            assert_eq!(urls(&events), urls(&from_file));
            assert_eq!(events.len(), from_file.len());
            assert!(
                events.iter().all(|e| e.origin().starts_with("-@")),
                "{events:?}"
            );
        }
        // The same offsets as the file's, for the gzip one.
        let origins = |events: &[InputEvent]| -> Vec<String> {
            events
                .iter()
                .map(|e| e.origin().replacen(&path.display().to_string(), "-", 1))
                .collect()
        };
        assert_eq!(origins(&stdin_events(warc_gz)), origins(&from_file));
        // JSON Lines, gzip or not, as before.
        let lines = b"{\"url\": \"http://a/\", \"html\": \"<p>a</p>\"}\n";
        for bytes in [lines.to_vec(), gzip(lines)] {
            assert_eq!(summary(&stdin_events(bytes)), ["-:1 page http://a/"]);
        }
        assert!(stdin_events(Vec::new()).is_empty());
    }

    #[test]
    fn inputs_can_move_to_another_thread() {
        fn is_send<T: Send>() {}
        is_send::<Inputs>();
        is_send::<Progress>();
    }
}
