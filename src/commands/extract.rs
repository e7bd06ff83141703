//! `docview extract`: clean pages one by one and print each one's topic content (text, a
//! JSON report, the topic content page, Markdown).

use std::io::Write;

use anyhow::{Result, bail};
use docview::clean::{cleaner_with_model, topic_content_page};
use docview::extract::extract_page_in_site;
use docview::input::{CrawlFormat, read_page_bytes};

use crate::flags::{ExtractArgs, Format};

/// `docview extract`.
pub fn run(args: ExtractArgs) -> Result<()> {
    if args.url.is_some() && args.pages.len() > 1 {
        bail!(
            "--url names one page, but {} pages were given",
            args.pages.len()
        );
    }
    let cleaner = cleaner_with_model(args.cleaner, args.model.as_deref(), args.favor)?;
    let limits = args.limits.limits()?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    let headers = args.pages.len() > 1;
    for (i, path) in args.pages.iter().enumerate() {
        let name = path.display().to_string();
        let page = read_page_bytes(path)
            .map_err(anyhow::Error::from)
            .and_then(|bytes| {
                if let Some(format) = CrawlFormat::sniff(&bytes) {
                    bail!(
                        "{name} is {}, not an HTML page: extract cleans one page per file; \
                         `docview ingest {name} --out DIR` reads the pages of a crawl file",
                        format.name()
                    );
                }
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
                if headers {
                    header(&mut out, i, &name)?;
                    writeln!(out, "{}", escape_headers(&page.cleaned.topic_text))?;
                } else {
                    writeln!(out, "{}", page.cleaned.topic_text)?;
                }
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
                if headers {
                    header(&mut out, i, &name)?;
                    write!(out, "{}", escape_headers(&page.markdown()))?;
                } else {
                    write!(out, "{}", page.markdown())?;
                }
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

/// What starts the header line of each page when several are printed, as `head` and `tail`
/// write it: `==> NAME <==`.
const HEADER: &str = "==> ";

/// Writes the header of the page `name`, the `i`th printed (a blank line before all but the
/// first). A name with a control character (a newline) is written quoted and escaped, so a
/// header is always one line.
fn header(out: &mut impl Write, i: usize, name: &str) -> std::io::Result<()> {
    if i > 0 {
        writeln!(out)?;
    }
    if name.chars().any(char::is_control) {
        writeln!(out, "{HEADER}{name:?} <==")
    } else {
        writeln!(out, "{HEADER}{name} <==")
    }
}

/// A page's text as printed between headers: a line that starts like a header
/// (`==> `), after any number of backslashes, gets one backslash more. So a line starting
/// with `==> ` is always a header, and dropping one backslash from a line of backslashes
/// followed by `==> ` gives the page's line back (outside code blocks, Markdown reads `\=` as
/// a plain `=` anyway).
fn escape_headers(text: &str) -> std::borrow::Cow<'_, str> {
    let looks_like_header = |line: &str| line.trim_start_matches('\\').starts_with(HEADER);
    if !text.lines().any(looks_like_header) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 16);
    for line in text.split_inclusive('\n') {
        if looks_like_header(line) {
            escaped.push('\\');
        }
        escaped.push_str(line);
    }
    std::borrow::Cow::Owned(escaped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_that_looks_like_a_header_is_escaped_and_reads_back() {
        let text = "intro\n==> fake.html <==\n\\==> already escaped\nplain ==> x\n==>no space";
        let escaped = escape_headers(text);
        assert_eq!(
            escaped,
            "intro\n\\==> fake.html <==\n\\\\==> already escaped\nplain ==> x\n==>no space"
        );
        assert!(!escaped.lines().any(|l| l.starts_with(HEADER)));
        // Reading back: one backslash off each escaped line.
        let back: Vec<&str> = escaped
            .lines()
            .map(|l| match l.strip_prefix('\\') {
                Some(rest) if rest.trim_start_matches('\\').starts_with(HEADER) => rest,
                _ => l,
            })
            .collect();
        assert_eq!(back.join("\n"), text);
        assert!(matches!(
            escape_headers("a\nb"),
            std::borrow::Cow::Borrowed(_)
        ));
        let mut out = Vec::new();
        header(&mut out, 1, "a\n==> b").unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "\n==> \"a\\n==> b\" <==\n");
    }
}
