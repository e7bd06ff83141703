//! `docview extract`: clean pages one by one and print each one's topic content (text, a
//! JSON report, the topic content page, Markdown).

use std::io::Write;

use anyhow::{Result, bail};
use docview::clean::{cleaner_with_model, topic_content_page};
use docview::extract::extract_page_in_site;
use docview::input::read_page_bytes;

use crate::flags::{ExtractArgs, Format};

/// `docview extract`.
pub fn run(args: ExtractArgs) -> Result<()> {
    if args.url.is_some() && args.pages.len() > 1 {
        bail!(
            "--url names one page, but {} pages were given",
            args.pages.len()
        );
    }
    let cleaner = cleaner_with_model(args.cleaner, args.model.as_deref())?;
    let limits = args.limits.limits()?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    for (i, path) in args.pages.iter().enumerate() {
        let name = path.display().to_string();
        let page = read_page_bytes(path)
            .map_err(docview::Error::from)
            .and_then(|bytes| {
                let charset = args.charset.as_deref();
                Ok(extract_page_in_site(
                    &bytes,
                    charset,
                    &name,
                    args.url.as_deref(),
                    cleaner.as_ref(),
                    None,
                    &limits,
                )?)
            });
        let page = match page {
            Ok(page) => page,
            Err(e) => {
                eprintln!("docview: {e}");
                failed += 1;
                continue;
            }
        };
        if let Some(why) = &page.truncated {
            eprintln!("docview: {name}: {why}");
        }
        if let Some(why) = page.empty_topic(cleaner.as_ref()) {
            eprintln!("docview: {name}: the topic content is empty: {why}");
        }
        match args.format {
            Format::Text => {
                if args.pages.len() > 1 {
                    if i > 0 {
                        writeln!(out)?;
                    }
                    writeln!(out, "==> {name} <==")?;
                }
                writeln!(out, "{}", page.cleaned.topic_text)?;
            }
            Format::Json => {
                let report = page.report(&name, args.url.as_deref(), cleaner.as_ref());
                serde_json::to_writer(&mut out, &report)?;
                writeln!(out)?;
            }
            Format::Html => {
                write!(out, "{}", topic_content_page(&page.tree, &page.cleaned))?;
            }
            Format::Markdown => {
                if args.pages.len() > 1 {
                    if i > 0 {
                        writeln!(out)?;
                    }
                    writeln!(out, "==> {name} <==")?;
                }
                write!(out, "{}", page.markdown())?;
            }
        }
    }
    out.flush()?;
    if failed > 0 {
        bail!(
            "{failed} of {} pages could not be cleaned",
            args.pages.len()
        );
    }
    Ok(())
}
