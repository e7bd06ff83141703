//! `docview export`: an ingest's records as another engine's collection (Pyserini's JSON
//! collection), to standard output or a file replaced only once complete.

use anyhow::Result;
use docview::output::write_atomically;
use docview::records::{DocIdField, export_pyserini};

use crate::flags::{ExportArgs, ExportFormat};

/// `docview export`.
pub fn run(args: ExportArgs) -> Result<()> {
    let docid = DocIdField::named(&args.docid);
    let ExportFormat::Pyserini = args.format;
    let lines = match &args.out {
        Some(path) => {
            // The export's own error, not the temporary file's, says what went wrong; the
            // file is left as it was.
            let mut exported = None;
            let written = write_atomically(path, |w| {
                let result = export_pyserini(&args.dir, &args.contents, &docid, w);
                let ok = result.is_ok();
                exported = Some(result);
                if ok {
                    Ok(())
                } else {
                    Err(std::io::Error::other("the export stopped"))
                }
            });
            match exported {
                Some(Err(e)) => return Err(e.into()),
                Some(Ok(lines)) => {
                    written?;
                    lines
                }
                None => {
                    written?;
                    0
                }
            }
        }
        None => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let lines = export_pyserini(&args.dir, &args.contents, &docid, &mut out)?;
            std::io::Write::flush(&mut out)?;
            lines
        }
    };
    let fields: Vec<&str> = args.contents.iter().map(|f| f.name()).collect();
    eprintln!(
        "{lines} records exported ({} as contents, {} as id){}",
        fields.join(", "),
        docid.name(),
        args.out
            .as_ref()
            .map_or(String::new(), |p| format!(" to {}", p.display()))
    );
    Ok(())
}
