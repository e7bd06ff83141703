//! `docview query`: search one index of an ingest, hits as text or JSON lines.

use std::io::Write;

use anyhow::Result;
use docview::index::{Combine, IndexKind, OpenIndex};

use crate::flags::QueryArgs;

/// `docview query`.
pub fn run(args: QueryArgs) -> Result<()> {
    let kind = IndexKind::from(args.index);
    let index = OpenIndex::open(&args.dir, kind)?;
    let parsed = index.query(&args.query, Combine::Any)?;
    let hits = index.hits(parsed.as_ref(), args.k)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.explain {
        let terms = index.term_postings(parsed.as_ref())?;
        if args.json {
            serde_json::to_writer(&mut out, &serde_json::json!({ "explain": terms }))?;
            writeln!(out)?;
        } else {
            writeln!(
                out,
                "query {:?} in the {} index ({} documents):",
                args.query,
                kind.as_str(),
                index.num_docs()
            )?;
            for t in &terms {
                writeln!(
                    out,
                    "  {}:{:<20} {:>7} documents {:>9} posting bytes {:>9} position bytes",
                    t.field, t.term, t.doc_freq, t.posting_bytes, t.position_bytes
                )?;
            }
            writeln!(out)?;
        }
    }
    if args.json {
        for hit in &hits {
            serde_json::to_writer(&mut out, hit)?;
            writeln!(out)?;
        }
    } else if hits.is_empty() {
        writeln!(out, "no hits in the {} index", kind.as_str())?;
    } else {
        for (i, hit) in hits.iter().enumerate() {
            writeln!(out, "{:>2}. {:.3}  {}", i + 1, hit.score, hit.url)?;
            writeln!(out, "    {}", hit.title)?;
            if !hit.snippet.is_empty() {
                writeln!(out, "    {}", hit.snippet.replace('\n', " "))?;
            }
        }
    }
    out.flush()?;
    Ok(())
}
