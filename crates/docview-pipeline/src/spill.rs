//! The cleaned pages the first pass of an ingest hands to the second, so that each page is
//! parsed and cleaned once per ingest: one record per input event, in input order, in
//! `pages.spill` of the output directory. A record is its length (4 bytes, little-endian) and the
//! event in postcard's compact binary form: the spill is read back only by docview, and a
//! binary form writes and reads a page's texts as they are, where JSON escaped and unescaped
//! them (2% of an ingest's time).
//!
//! Memory stays bounded (the file is written and read as a stream). The file is complete once
//! `stats.json` is written (the first pass syncs it first), so a run stopped in its second pass
//! resumes from it; it is removed when the run completes. While the first pass runs, its
//! checkpoints sync the spill and record its length (`state::FirstPassCheckpoint`): a run
//! stopped in its first pass cuts the spill back to that length and appends from there. A run whose first pass was skipped
//! (`--stats FILE`) has no spill, and its second pass cleans the pages itself.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::event::Event;
use crate::input::{InputIds, RawPage};
use crate::site::PageUrl;
use crate::steps::{Processed, Unreadable, Worker, integrate_page};
use crate::topic::TopicPage;
use crate::{Error, Result};

/// Name of the spill file in the output directory.
pub const SPILL_FILE: &str = "pages.spill";

/// A page cleaned in the first pass.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CleanedPage {
    /// Its URL.
    pub url: String,
    /// Where it came from.
    pub origin: String,
    /// Its WARC record's identity and its JSON line's other fields, for its record.
    pub ids: InputIds,
    /// Bytes of HTML.
    pub html_bytes: u64,
    /// Its topic page, or why it could not be read.
    pub topic: std::result::Result<TopicPage, Unreadable>,
}

impl CleanedPage {
    /// The page `raw` as the first pass cleaned it (`topic`).
    pub fn of(raw: RawPage, topic: std::result::Result<TopicPage, Unreadable>) -> CleanedPage {
        CleanedPage {
            ids: InputIds::of(&raw),
            html_bytes: raw.bytes.len() as u64,
            url: raw.url,
            origin: raw.origin,
            topic,
        }
    }

    /// Second pass: integrates and fingerprints the page as the `seq`-th of the run
    /// ([`integrate_page`]), or gives why the first pass could not read it.
    pub fn integrate(self, seq: u64, w: &Worker<'_>) -> std::result::Result<Processed, Unreadable> {
        let url = PageUrl::parse(&self.url);
        let (origin, ids, html_bytes) = (self.origin, self.ids, self.html_bytes);
        self.topic
            .map(|topic| integrate_page(seq, origin, ids, &url, html_bytes, topic, w))
    }
}

/// A page of the second pass: raw (to be cleaned there) or cleaned in the first pass.
#[derive(Debug, Clone)]
pub enum PageWork {
    /// As read from the inputs.
    Raw(RawPage),
    /// As the first pass cleaned it.
    Cleaned(Box<CleanedPage>),
}

impl PageWork {
    /// Bytes it holds, for the size of a batch: its HTML, or its cleaned page's visible text.
    pub fn bytes(&self) -> usize {
        match self {
            PageWork::Raw(raw) => raw.bytes.len(),
            PageWork::Cleaned(c) => c.topic.as_ref().map_or(0, |t| t.visible_text.len()),
        }
    }
}

/// One record of the spill: an event and how far into the inputs its batch reached.
#[derive(Debug, Serialize, Deserialize)]
struct Line {
    input_bytes: u64,
    event: Event<CleanedPage>,
}

/// Writes the spill.
pub struct SpillWriter {
    path: PathBuf,
    out: BufWriter<File>,
    /// The record being written, reused.
    record: Vec<u8>,
    /// Bytes written so far (the file's length once flushed).
    bytes: u64,
}

impl SpillWriter {
    /// Creates (or empties) the spill of output directory `out`.
    pub fn create(out: &Path) -> Result<SpillWriter> {
        SpillWriter::open_at(out, 0)
    }

    /// Opens the spill of output directory `out` to append after its first `bytes` bytes (a
    /// checkpoint's length), cutting what follows them; creates it when `bytes` is 0.
    pub fn open_at(out: &Path, bytes: u64) -> Result<SpillWriter> {
        let path = out.join(SPILL_FILE);
        let file = crate::state::open_at(&path, bytes)?;
        Ok(SpillWriter {
            path,
            out: BufWriter::with_capacity(1 << 20, file),
            record: Vec::new(),
            bytes,
        })
    }

    /// Makes everything written so far durable; gives the spill's length.
    pub fn checkpoint(&mut self) -> Result<u64> {
        self.out
            .flush()
            .and_then(|()| self.out.get_ref().sync_data())
            .map_err(|e| Error::io(&self.path, e))?;
        Ok(self.bytes)
    }

    /// Appends an event.
    pub fn write(&mut self, event: Event<CleanedPage>, input_bytes: u64) -> Result<()> {
        let line = Line { input_bytes, event };
        self.record.clear();
        let record = postcard::to_extend(&line, std::mem::take(&mut self.record))
            .map_err(|e| Error::io(&self.path, std::io::Error::other(e)))?;
        let len = u32::try_from(record.len()).map_err(|_| {
            Error::io(
                &self.path,
                std::io::Error::other(format!(
                    "a cleaned page of {} bytes, more than a spill record holds",
                    record.len()
                )),
            )
        })?;
        self.out
            .write_all(&len.to_le_bytes())
            .and_then(|()| self.out.write_all(&record))
            .map_err(|e| Error::io(&self.path, e))?;
        self.bytes += 4 + u64::from(len);
        self.record = record;
        Ok(())
    }

    /// Flushes and syncs the spill to disk.
    pub fn finish(self) -> Result<()> {
        let file = self
            .out
            .into_inner()
            .map_err(|e| Error::io(&self.path, e.into_error()))?;
        file.sync_all().map_err(|e| Error::io(&self.path, e))
    }
}

/// The events of the spill of output directory `out`, after the first `skip`, each with how
/// far into the inputs its batch reached.
pub fn read_spill(
    out: &Path,
    skip: u64,
) -> Result<impl Iterator<Item = Result<(Event<CleanedPage>, u64)>>> {
    let path = out.join(SPILL_FILE);
    let file = File::open(&path).map_err(|e| Error::io(&path, e))?;
    let mut reader = SpillReader {
        path,
        input: BufReader::with_capacity(1 << 20, file),
        record: Vec::new(),
        failed: false,
    };
    for _ in 0..skip {
        match reader.next_record() {
            Ok(Some(())) => {}
            Ok(None) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(reader)
}

/// Reads the spill's records one after the other.
struct SpillReader {
    path: PathBuf,
    input: BufReader<File>,
    /// The last record read, reused.
    record: Vec<u8>,
    /// Set after an error: the reader stops.
    failed: bool,
}

impl SpillReader {
    /// Reads the next record into `record`; `None` at the end of the spill.
    fn next_record(&mut self) -> Result<Option<()>> {
        let mut len = [0u8; 4];
        let first = loop {
            match self.input.read(&mut len[..1]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::io(&self.path, e)),
            }
        };
        if first == 0 {
            return Ok(None);
        }
        self.input
            .read_exact(&mut len[1..])
            .map_err(|e| self.broken(&e.to_string()))?;
        self.record.resize(u32::from_le_bytes(len) as usize, 0);
        self.input
            .read_exact(&mut self.record)
            .map_err(|e| self.broken(&e.to_string()))?;
        Ok(Some(()))
    }

    /// The error for a record that cannot be read.
    fn broken(&self, why: &str) -> Error {
        Error::BrokenSpill {
            path: self.path.clone(),
            why: why.to_string(),
        }
    }
}

impl Iterator for SpillReader {
    type Item = Result<(Event<CleanedPage>, u64)>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let read = self.next_record().and_then(|record| match record {
            None => Ok(None),
            Some(()) => postcard::from_bytes::<Line>(&self.record)
                .map(|line| Some((line.event, line.input_bytes)))
                .map_err(|e| self.broken(&e.to_string())),
        });
        match read {
            Ok(item) => item.map(Ok),
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::Learned;
    use crate::extract::NotAPage;
    use crate::input::SkipKind;
    use crate::records::Skip;
    use crate::steps::clean_page;

    /// A cleaned sample page, a page that could not be read, a skipped and a malformed record.
    fn events() -> Vec<(Event<CleanedPage>, u64)> {
        let html = "<html><head><title>Tide pools</title></head><body>\
            <nav><a href=/>Home</a> <a href=/about>About</a></nav><div id=main><h1>Tide pools</h1>\
            <p>Tide pools hold anemones, crabs and small fish between the tides. Read \
            <a href=/anemones>about anemones</a> and their stinging cells. \"Quoted\" \\ text.</p>\
            <p>At low tide the pools warm up and the water grows salty as it evaporates. 潮池</p>\
            </div><footer>Copyright the field notes</footer></body></html>";
        let raw = RawPage {
            kind: crate::input::PageKind::Html,
            url: "https://example.org/tide-pools".into(),
            bytes: html.as_bytes().to_vec(),
            http_charset: None,
            origin: "article-tide-pools.html".into(),
            warc: Some(Box::new(crate::input::WarcIds {
                record_id: Some("<urn:uuid:5>".into()),
                date: None,
            })),
            fields: Some(Box::new(vec![("id".into(), serde_json::json!(["a", 1]))])),
        };
        let cleaner = Learned::embedded().expect("the embedded model");
        let topic = clean_page(&raw, &cleaner, None, &Default::default(), false);
        assert!(topic.is_ok(), "the sample cleans");
        let page = |topic| Event::Page(CleanedPage::of(raw.clone(), topic));
        vec![
            (page(topic), 10),
            (
                page(Err(Unreadable {
                    origin: "b.html".into(),
                    reason: Skip::NotAPage(NotAPage::Empty),
                })),
                10,
            ),
            (
                Event::Skipped {
                    origin: "c.warc@0".into(),
                    reason: Skip::Input(SkipKind::NotHtml),
                    detail: "image/png".into(),
                },
                20,
            ),
            (
                Event::Malformed {
                    origin: "d.warc@9".into(),
                    message: "a header line without a colon".into(),
                },
                30,
            ),
        ]
    }

    /// The events as JSON, to compare them.
    fn json(events: &[(Event<CleanedPage>, u64)]) -> Vec<String> {
        events
            .iter()
            .map(|(e, bytes)| format!("{} {bytes}", serde_json::to_string(e).expect("json")))
            .collect()
    }

    #[test]
    fn the_spill_reads_back_what_was_written_from_any_record() {
        let dir = tempfile::tempdir().expect("temp dir");
        let written = events();
        let mut spill = SpillWriter::create(dir.path()).expect("create");
        for (event, bytes) in written.clone() {
            spill.write(event, bytes).expect("write");
        }
        spill.finish().expect("finish");
        for skip in 0..=written.len() as u64 + 1 {
            let read: Vec<_> = read_spill(dir.path(), skip)
                .expect("open")
                .collect::<Result<_>>()
                .expect("read");
            let from = (skip as usize).min(written.len());
            assert_eq!(json(&read), json(&written[from..]), "after skipping {skip}");
        }
    }

    #[test]
    fn a_cut_spill_is_an_error_that_names_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut spill = SpillWriter::create(dir.path()).expect("create");
        for (event, bytes) in events() {
            spill.write(event, bytes).expect("write");
        }
        spill.finish().expect("finish");
        let path = dir.path().join(SPILL_FILE);
        let bytes = std::fs::read(&path).expect("spill");
        for cut in [1, 3, 4, 40, bytes.len() - 1] {
            std::fs::write(&path, &bytes[..cut]).expect("cut");
            let read: Vec<_> = read_spill(dir.path(), 0).expect("open").collect();
            let err = read
                .last()
                .expect("an item")
                .as_ref()
                .expect_err("the cut record fails");
            let message = err.to_string();
            assert!(
                message.contains(SPILL_FILE) && message.contains("broken record"),
                "{message}"
            );
            assert!(read[..read.len() - 1].iter().all(Result::is_ok));
        }
    }
}
