//! The JSON Lines files of the work folder as streams, and their k-way merges: each shard
//! writes its lines in global order ([`write_json_lines`]), and a merging stage reads every
//! shard's as a stream ([`json_lines`]) and goes through them all in global order
//! ([`merge_sorted`], ties to the earlier stream), or copies them into one file in that order
//! ([`merge_lines`]).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::records::write_line;
use crate::{Error, Result};

/// A stream of values, each read or decoded with its error.
pub(super) type Stream<T> = Box<dyn Iterator<Item = Result<T>>>;

/// Writes `items` as the JSON Lines file `path`, atomically.
pub(super) fn write_json_lines<T: Serialize>(path: &Path, items: &[T]) -> Result<()> {
    Ok(crate::output::write_atomically(path, |w| {
        let mut buf = Vec::new();
        for item in items {
            write_line(w, &mut buf, item)?;
        }
        Ok(())
    })?)
}

/// Reads a JSON Lines file of `T` as a stream (an error names the file and line).
pub(super) fn json_lines<T: for<'de> Deserialize<'de>>(
    path: &Path,
) -> Result<impl Iterator<Item = Result<T>> + use<T>> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let path = path.to_path_buf();
    Ok(BufReader::with_capacity(1 << 16, file)
        .lines()
        .enumerate()
        .map(move |(i, line)| {
            let line = line.map_err(|e| Error::io(&path, e))?;
            serde_json::from_str(&line).map_err(|e| {
                Error::bad_input(format!("{}:{}", path.display(), i + 1), e.to_string())
            })
        }))
}

/// Merges `streams`, each sorted by `key`, into one sorted stream handed to `each` (ties to
/// the earlier stream). The first error of a stream or of `each` stops it.
pub(super) fn merge_sorted<T, K: Ord + Copy>(
    mut streams: Vec<Stream<T>>,
    key: impl Fn(&T) -> K,
    mut each: impl FnMut(T) -> Result<()>,
) -> Result<()> {
    let mut heads: Vec<Option<T>> = Vec::with_capacity(streams.len());
    let mut heap = BinaryHeap::new();
    for (i, s) in streams.iter_mut().enumerate() {
        let head = s.next().transpose()?;
        if let Some(h) = &head {
            heap.push(Reverse((key(h), i)));
        }
        heads.push(head);
    }
    while let Some(Reverse((_, i))) = heap.pop() {
        let item = heads[i].take();
        let next = streams[i].next().transpose()?;
        if let Some(h) = &next {
            heap.push(Reverse((key(h), i)));
        }
        heads[i] = next;
        if let Some(item) = item {
            each(item)?;
        }
    }
    Ok(())
}

/// Merges the JSON Lines files `parts` (each sorted by `key`) into `path`, atomically, each
/// line as `line_of` gives it from its text and value.
pub(super) fn merge_lines<K: Ord + Copy + 'static, T: for<'de> Deserialize<'de> + 'static>(
    parts: &[PathBuf],
    path: &Path,
    key: fn(&T) -> K,
    line_of: impl Fn(&str, T) -> std::io::Result<Vec<u8>>,
) -> Result<()> {
    let mut streams: Vec<Stream<(K, String, T)>> = Vec::new();
    for part in parts {
        let file = File::open(part).map_err(|e| Error::io(part, e))?;
        let part = part.clone();
        streams.push(Box::new(BufReader::new(file).lines().map(move |line| {
            let line = line.map_err(|e| Error::io(&part, e))?;
            let value: T = serde_json::from_str(&line)
                .map_err(|e| Error::bad_input(part.display().to_string(), e.to_string()))?;
            Ok((key(&value), line, value))
        })));
    }
    Ok(crate::output::write_atomically(path, |w| {
        merge_sorted(
            streams,
            |item: &(K, String, T)| item.0,
            |(_, line, value)| {
                w.write_all(&line_of(&line, value).map_err(|e| Error::io(path, e))?)
                    .map_err(|e| Error::io(path, e))
            },
        )
        .map_err(std::io::Error::other)
    })?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream(items: Vec<(u32, &'static str)>) -> Stream<(u32, &'static str)> {
        Box::new(items.into_iter().map(Ok))
    }

    #[test]
    fn merged_streams_come_out_in_key_order_ties_to_the_earlier_stream() {
        let mut out = Vec::new();
        merge_sorted(
            vec![
                stream(vec![(1, "a1"), (4, "a4"), (4, "a4'")]),
                stream(vec![]),
                stream(vec![(0, "c0"), (4, "c4"), (9, "c9")]),
                stream(vec![(1, "d1")]),
            ],
            |x| x.0,
            |x| {
                out.push(x.1);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(out, ["c0", "a1", "d1", "a4", "a4'", "c4", "c9"]);
    }

    #[test]
    fn a_stream_error_stops_the_merge() {
        let bad: Stream<(u32, &str)> =
            Box::new(vec![Ok((2, "b2")), Err(Error::bad_input("b", "broken"))].into_iter());
        let mut out = Vec::new();
        let err = merge_sorted(
            vec![stream(vec![(1, "a1"), (5, "a5")]), bad],
            |x| x.0,
            |x| {
                out.push(x.1);
                Ok(())
            },
        );
        assert!(err.unwrap_err().to_string().contains("broken"));
        assert_eq!(out, ["a1"]);
    }

    #[test]
    fn json_lines_round_trip_and_merge_into_one_file() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
        write_json_lines(&a, &[(0u64, "zero"), (3, "three")]).unwrap();
        write_json_lines(&b, &[(1u64, "one"), (2, "two"), (4, "four")]).unwrap();
        let back: Vec<(u64, String)> = json_lines(&b).unwrap().collect::<Result<_>>().unwrap();
        assert_eq!(back[2], (4, "four".to_string()));
        let merged = dir.path().join("m.jsonl");
        merge_lines(
            &[a, b],
            &merged,
            |v: &(u64, String)| v.0,
            |line: &str, _| Ok(format!("{line}\n").into_bytes()),
        )
        .unwrap();
        let text = std::fs::read_to_string(&merged).unwrap();
        assert_eq!(
            text,
            "[0,\"zero\"]\n[1,\"one\"]\n[2,\"two\"]\n[3,\"three\"]\n[4,\"four\"]\n"
        );
    }

    #[test]
    fn a_bad_line_names_its_file_and_number() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.jsonl");
        std::fs::write(&path, "1\n2\nthree\n").unwrap();
        let got: Vec<Result<u32>> = json_lines(&path).unwrap().collect();
        assert_eq!(got.len(), 3);
        let err = got[2].as_ref().unwrap_err().to_string();
        assert!(err.contains("x.jsonl:3"), "{err}");
    }
}
