//! Counting the bytes the readers consume: positions for messages (a WARC record's offset) and
//! a shared count for a progress bar.

use std::io::{self, BufRead, Read, Seek};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// On-disk bytes consumed so far by an [`Inputs`](super::Inputs), readable from any thread.
#[derive(Debug, Clone, Default)]
pub struct Progress(Arc<AtomicU64>);

impl Progress {
    /// Bytes consumed so far (compressed bytes for gzip files).
    pub fn bytes_read(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    /// Raises the count to `bytes` (it never goes back, even when a reader seeks back).
    pub(crate) fn advance_to(&self, bytes: u64) {
        self.0.fetch_max(bytes, Ordering::Relaxed);
    }
}

/// A buffered reader that counts the bytes consumed through it, and optionally reports
/// `base + position` to a [`Progress`].
#[derive(Debug)]
pub(crate) struct Tracked<R> {
    inner: R,
    pos: u64,
    report: Option<(Progress, u64)>,
}

impl<R> Tracked<R> {
    /// Counts from 0, reporting nowhere.
    pub(crate) fn new(inner: R) -> Self {
        Tracked {
            inner,
            pos: 0,
            report: None,
        }
    }

    /// Counts from 0, reporting `base + position` to `progress`.
    pub(crate) fn reporting(inner: R, progress: Progress, base: u64) -> Self {
        Tracked {
            inner,
            pos: 0,
            report: Some((progress, base)),
        }
    }

    /// Bytes consumed so far.
    pub(crate) fn pos(&self) -> u64 {
        self.pos
    }

    /// The wrapped reader.
    pub(crate) fn into_inner(self) -> R {
        self.inner
    }

    fn advance(&mut self, n: usize) {
        self.pos += n as u64;
        if let Some((progress, base)) = &self.report {
            progress.advance_to(base + self.pos);
        }
    }
}

impl<R: BufRead + Seek> Tracked<R> {
    /// Moves to `pos` (from the start of the stream), keeping the buffer when it can.
    pub(crate) fn seek_to(&mut self, pos: u64) -> io::Result<()> {
        let delta = i64::try_from(pos).unwrap_or(i64::MAX) - i64::try_from(self.pos).unwrap_or(0);
        self.inner.seek_relative(delta)?;
        self.pos = pos;
        Ok(())
    }
}

impl<R: BufRead> Read for Tracked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.advance(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Tracked<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.inner.consume(amt);
        self.advance(amt);
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufReader, Cursor};

    use super::*;

    #[test]
    fn counts_reads_consumes_and_seeks() {
        let progress = Progress::default();
        let data = Cursor::new(b"0123456789".to_vec());
        let mut t = Tracked::reporting(BufReader::with_capacity(4, data), progress.clone(), 100);
        let mut two = [0u8; 2];
        t.read_exact(&mut two).unwrap();
        assert_eq!((t.pos(), progress.bytes_read()), (2, 102));
        let mut line = Vec::new();
        t.read_until(b'7', &mut line).unwrap();
        assert_eq!((line.as_slice(), t.pos()), (&b"234567"[..], 8));
        t.seek_to(3).unwrap();
        t.read_exact(&mut two).unwrap();
        assert_eq!((&two, t.pos(), progress.bytes_read()), (b"34", 5, 108));
    }
}
