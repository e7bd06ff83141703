//! A test collection's topics and relevance judgments (qrels), as IR researchers bring them.
//!
//! Topics come in three forms, told apart by the file's first non-blank character: TREC's
//! `<top>` blocks (`<num> Number: 301`, the query in `<title>`), JSON Lines (`{"qid": ...,
//! "query": ...}`; the id also as `query_id`, `id` or `num`, the query as `title` or `text`),
//! or `qid<TAB>query` lines (blank lines and `#` comments left out). Qrels are TREC's
//! `qid iter docid rel` lines, the relevance graded (a whole number; 0 and below is not
//! relevant). Every error names the file and its line.

use std::collections::BTreeMap;
use std::path::Path;

use crate::{Error, Result};

/// One topic: its id and its query text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topic {
    /// The topic's id, as the qrels name it.
    pub qid: String,
    /// The query, as written.
    pub query: String,
}

/// The judgments of one topic: each judged document's id and its relevance grade.
pub type Judgments = BTreeMap<String, i32>;

/// The judgments of a test collection, by topic id.
pub type Qrels = BTreeMap<String, Judgments>;

/// `path` read as UTF-8 text; an error names the file and the first line that is not.
fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        collection_error(path, line, "not UTF-8 text; save the file as UTF-8")
    })
}

fn collection_error(path: &Path, line: usize, reason: impl Into<String>) -> Error {
    Error::TestCollection {
        path: path.to_path_buf(),
        line,
        reason: reason.into(),
    }
}

/// The topics of `path`, in file order; a topic id given twice, a topic without a query, or
/// a file without topics is an error.
pub fn read_topics(path: &Path) -> Result<Vec<Topic>> {
    let text = read_text(path)?;
    let topics = match text.trim_start().chars().next() {
        Some('<') => trec_topics(path, &text)?,
        Some('{') => jsonl_topics(path, &text)?,
        _ => tab_topics(path, &text)?,
    };
    if topics.is_empty() {
        return Err(collection_error(path, 1, "no topics"));
    }
    let mut seen = std::collections::HashSet::new();
    for (line, t) in &topics {
        if !seen.insert(t.qid.as_str()) {
            return Err(collection_error(
                path,
                *line,
                format!("topic {:?} is given twice", t.qid),
            ));
        }
    }
    Ok(topics.into_iter().map(|(_, t)| t).collect())
}

/// `qid<TAB>query` lines.
fn tab_topics(path: &Path, text: &str) -> Result<Vec<(usize, Topic)>> {
    let mut topics = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let Some((qid, query)) = line.split_once('\t') else {
            return Err(collection_error(
                path,
                i + 1,
                "expected a topic id, a tab and the query",
            ));
        };
        topics.push((i + 1, topic(path, i + 1, qid, query)?));
    }
    Ok(topics)
}

fn topic(path: &Path, line: usize, qid: &str, query: &str) -> Result<Topic> {
    let (qid, query) = (qid.trim(), query.trim());
    if qid.is_empty() || qid.contains(char::is_whitespace) {
        return Err(collection_error(
            path,
            line,
            format!("topic id {qid:?}: one word expected"),
        ));
    }
    if query.is_empty() {
        return Err(collection_error(
            path,
            line,
            format!("topic {qid} has no query"),
        ));
    }
    Ok(Topic {
        qid: qid.to_string(),
        query: query.to_string(),
    })
}

/// JSON Lines of `{"qid", "query"}` (or the other names the module doc lists).
fn jsonl_topics(path: &Path, text: &str) -> Result<Vec<(usize, Topic)>> {
    let mut topics = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let value: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| collection_error(path, i + 1, format!("bad JSON line: {e}")))?;
        let field = |names: &[&str]| -> Option<String> {
            names.iter().find_map(|n| match value.get(*n)? {
                serde_json::Value::String(s) => Some(s.clone()),
                serde_json::Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
        };
        let qid = field(&["qid", "query_id", "id", "num"]).ok_or_else(|| {
            collection_error(path, i + 1, "no topic id (qid, query_id, id or num)")
        })?;
        let query = field(&["query", "title", "text"])
            .ok_or_else(|| collection_error(path, i + 1, "no query (query, title or text)"))?;
        topics.push((i + 1, topic(path, i + 1, &qid, &query)?));
    }
    Ok(topics)
}

/// TREC's `<top>` blocks: `<num> Number: 301` and `<title> query`, each up to the next tag.
fn trec_topics(path: &Path, text: &str) -> Result<Vec<(usize, Topic)>> {
    let mut topics = Vec::new();
    let mut rest = text;
    let mut consumed = 0usize;
    while let Some(start) = rest.find("<top>") {
        let line = text[..consumed + start].lines().count() + 1;
        let block_start = start + "<top>".len();
        let end = rest[block_start..]
            .find("</top>")
            .map(|e| block_start + e)
            .ok_or_else(|| collection_error(path, line, "<top> without </top>"))?;
        let block = &rest[block_start..end];
        let num = tag_text(block, "<num>")
            .ok_or_else(|| collection_error(path, line, "a <top> without <num>"))?;
        let num = num
            .trim()
            .trim_start_matches("Number:")
            .trim_start_matches("number:");
        let title = tag_text(block, "<title>")
            .ok_or_else(|| collection_error(path, line, "a <top> without <title>"))?;
        let title = title.trim().trim_start_matches("Topic:");
        let query = title.split_whitespace().collect::<Vec<_>>().join(" ");
        topics.push((line, topic(path, line, num, &query)?));
        let advance = end + "</top>".len();
        consumed += advance;
        rest = &rest[advance..];
    }
    Ok(topics)
}

/// The text after `tag` up to the next tag (`<`) in `block`.
fn tag_text<'a>(block: &'a str, tag: &str) -> Option<&'a str> {
    let at = block.find(tag)? + tag.len();
    let text = &block[at..];
    Some(text.find('<').map_or(text, |end| &text[..end]))
}

/// The judgments of `path`: `qid iter docid rel` lines (blank lines and `#` comments left
/// out); a document judged twice for one topic is an error.
pub fn read_qrels(path: &Path) -> Result<Qrels> {
    let text = read_text(path)?;
    let mut qrels = Qrels::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [qid, _iter, docid, rel] = fields[..] else {
            return Err(collection_error(
                path,
                i + 1,
                format!(
                    "expected 4 fields (qid iter docid rel), found {}",
                    fields.len()
                ),
            ));
        };
        let rel: i32 = rel.parse().map_err(|_| {
            collection_error(
                path,
                i + 1,
                format!("relevance {rel:?} is not a whole number"),
            )
        })?;
        let judged = qrels.entry(qid.to_string()).or_default();
        if judged.insert(docid.to_string(), rel).is_some() {
            return Err(collection_error(
                path,
                i + 1,
                format!("document {docid} is judged twice for topic {qid}"),
            ));
        }
    }
    if qrels.is_empty() {
        return Err(collection_error(path, 1, "no judgments"));
    }
    Ok(qrels)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().expect("temp file");
        std::io::Write::write_all(&mut f, text.as_bytes()).expect("write");
        f
    }

    #[test]
    fn topics_in_each_form() {
        let want = |qid: &str, query: &str| Topic {
            qid: qid.into(),
            query: query.into(),
        };
        let tab = file("# harbour topics\n1\tharbour wall repairs\n\n2\tferry timetable\r\n");
        assert_eq!(
            read_topics(tab.path()).expect("tab"),
            [
                want("1", "harbour wall repairs"),
                want("2", "ferry timetable")
            ]
        );
        let trec = file(
            "<top>\n<num> Number: 301\n<title> International Organized\n  Crime\n\
             <desc> Description:\nIdentify organizations ...\n</top>\n\n<top>\n<num> 302\n\
             <title> Poliomyelitis and Post-Polio\n</top>\n",
        );
        assert_eq!(
            read_topics(trec.path()).expect("trec"),
            [
                want("301", "International Organized Crime"),
                want("302", "Poliomyelitis and Post-Polio")
            ]
        );
        let jsonl = file(
            "{\"qid\": \"q1\", \"query\": \"dry stone walls\"}\n{\"id\": 7, \"title\": \"moths\"}\n",
        );
        assert_eq!(
            read_topics(jsonl.path()).expect("jsonl"),
            [want("q1", "dry stone walls"), want("7", "moths")]
        );
    }

    #[test]
    fn bad_topics_and_qrels_name_their_line() {
        let no_tab = file("1\tfine\n2 no tab here\n");
        let e = read_topics(no_tab.path()).expect_err("no tab").to_string();
        assert!(e.contains("line 2") && e.contains("tab"), "{e}");
        let twice = file("1\ta\n1\tb\n");
        assert!(read_topics(twice.path()).is_err());
        let qrels = file("1 0 doc-a 2\n1 0 doc-b 0\n2 0 doc-a -1\n\n");
        let got = read_qrels(qrels.path()).expect("qrels");
        assert_eq!(got["1"]["doc-a"], 2);
        assert_eq!(got["2"]["doc-a"], -1);
        let short = file("1 0 doc-a 2\n1 doc-b 1\n");
        let e = read_qrels(short.path()).expect_err("3 fields").to_string();
        assert!(e.contains("line 2") && e.contains("4 fields"), "{e}");
        let grade = file("1 0 doc-a high\n");
        assert!(read_qrels(grade.path()).is_err());
    }
}
