//! `docview query`: search one index of an ingest, hits as text or JSON lines; or run a test
//! collection's topics on it and write the run as a TREC run file (`--batch`, `--run`).

use std::io::Write;
use std::path::Path;

use anyhow::{Result, bail};
use docview::compare::ranking::{DocIdField, document_ids, read_topics, run_topics, write_run};
use docview::index::{Combine, IndexKind, OpenIndex};

use crate::flags::QueryArgs;

/// `docview query`.
pub fn run(args: QueryArgs) -> Result<()> {
    let kind = IndexKind::from(args.index);
    let mut index = OpenIndex::open(&args.dir, kind)?;
    if let Some(weights) = args.field_weights {
        if kind != IndexKind::Docview {
            bail!("--field-weights weighs the docview index's fields: add --index docview");
        }
        index = index.with_weights(weights);
    }
    if let (Some(batch), Some(run)) = (&args.batch, &args.run) {
        return run_batch(&args, &index, batch, run);
    }
    let Some(query) = &args.query else {
        bail!("give a QUERY, or --batch TOPICS --run FILE");
    };
    let parsed = index.query(query, Combine::Any)?;
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
                query,
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

/// `docview query --batch TOPICS --run FILE`: the topics' run on `index`, written as a TREC run
/// file.
fn run_batch(args: &QueryArgs, index: &OpenIndex, batch: &Path, run: &Path) -> Result<()> {
    let tag = args
        .tag
        .clone()
        .unwrap_or_else(|| format!("docview-{}", index.kind().as_str()));
    if tag.is_empty() || tag.contains(char::is_whitespace) {
        bail!("--tag {tag:?}: a run's tag is one word");
    }
    let topics = read_topics(batch)?;
    let docids = document_ids(&args.dir, &DocIdField::named(&args.docid))?;
    let depth = usize::try_from(args.depth)?;
    let runs = run_topics(index, &topics, &docids, depth, args.threads)?;
    write_run(run, &runs, &tag)?;
    let lines: usize = runs.iter().map(|r| r.ranked.len()).sum();
    let empty = runs.iter().filter(|r| r.ranked.is_empty()).count();
    eprintln!(
        "{} topics run on the {} index: {lines} lines written to {} ({empty} topics found nothing)",
        runs.len(),
        index.kind().as_str(),
        run.display()
    );
    Ok(())
}
