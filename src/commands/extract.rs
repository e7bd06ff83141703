//! `docview extract`: clean pages one by one and print each one's topic content (text, a
//! JSON report, the topic content page, Markdown), or, with `--format jsonl`, stream the pages
//! of folders, WARCs and JSON Lines through the cleaner, one compact line each, in input order.

use std::io::{ErrorKind, Write};
use std::path::Path;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use docview::clean::{Cleaner, cleaner_with_model, topic_content_page};
use docview::extract::{PageLimits, extract_page_in_site};
use docview::input::{CrawlFormat, InputEvent, Inputs, JsonlKeys, RawPage, read_page_bytes};
use docview::pipeline::{ClassifierChoice, Classifiers, Interrupt};
use docview::records::{LineContent, PageLine};
use docview::text::Analyzer;
use rayon::prelude::*;

use crate::flags::{ExtractArgs, Format};
use crate::interrupt::Stopped;

/// `docview extract`.
pub fn run(args: ExtractArgs) -> Result<()> {
    if args.url.is_some() && args.pages.len() > 1 {
        bail!(
            "--url names one page, but {} pages were given",
            args.pages.len()
        );
    }
    if args.format != Format::Jsonl {
        let jsonl_only = [
            ("--markdown", args.markdown),
            ("--url-field", args.url_field != "url"),
            ("--html-field", args.html_field != "html"),
            ("--classify", args.classify),
            ("--classifier", !args.classifier.is_empty()),
            ("--comments", args.comments),
        ];
        if let Some((flag, _)) = jsonl_only.iter().find(|(_, given)| *given) {
            bail!("{flag} goes with --format jsonl; give --format jsonl");
        }
    }
    let keep_flags = [
        ("--no-tables", args.no_tables),
        ("--no-links", args.no_links),
        ("--no-images", args.no_images),
    ];
    if !matches!(args.format, Format::Text | Format::Markdown | Format::Jsonl)
        && let Some((flag, _)) = keep_flags.iter().find(|(_, given)| *given)
    {
        bail!(
            "{flag} shapes the text or Markdown of --format text, markdown or jsonl; the {} \
             output keeps the page as the cleaner saw it",
            if args.format == Format::Json {
                "json"
            } else {
                "html"
            }
        );
    }
    if args.with_metadata && !matches!(args.format, Format::Text | Format::Markdown) {
        bail!(
            "--with-metadata puts the metadata before --format text or markdown; a jsonl line has \
             it in `metadata`, a json report in its `metadata`"
        );
    }
    let cleaner = cleaner_with_model(args.cleaner, args.model.as_deref(), args.favor)?;
    // The lines' classifier, loaded before any output is made.
    let off = !args.classify && args.classifier.is_empty();
    let (genre, subjects) = ClassifierChoice::from_files(&args.classifier, off)?;
    let classifier = genre.load_with(&subjects)?;
    let limits = args.limits.limits()?;
    // The inputs are checked before any output is made.
    let inputs = match args.format {
        Format::Jsonl => Some(
            Inputs::open(&args.pages)?
                .with_stdin_page()
                .with_jsonl_keys(JsonlKeys {
                    url: args.url_field.clone(),
                    html: args.html_field.clone(),
                    text: None,
                }),
        ),
        _ => None,
    };
    // Ctrl-C while many pages go to a file stops after the batch at hand, the file left as it
    // was (its temporary file removed).
    let stop = Interrupt::new();
    if let (Some(_), Some(path)) = (&inputs, &args.out) {
        crate::interrupt::on_ctrl_c(
            &stop,
            crate::interrupt::Said {
                stopping: format!("{} is left as it was", path.display()),
                at_once: format!(
                    "{} is left as it was, a temporary file beside it may stay",
                    path.display()
                ),
            },
        );
    }
    let mut outcome = Ok(());
    let write = |out: &mut dyn Write| -> std::io::Result<()> {
        outcome = match inputs {
            Some(inputs) => write_lines(
                &args,
                inputs,
                cleaner.as_ref(),
                classifier.as_ref(),
                &limits,
                &stop,
                out,
            ),
            None => write_pages(&args, cleaner.as_ref(), &limits, out),
        };
        // An output error or a stop ends the writing (and leaves no file); any other is told
        // after.
        let output_error = outcome.as_ref().err().and_then(|e| {
            if e.is::<Stopped>() {
                return Some(std::io::Error::new(ErrorKind::Interrupted, e.to_string()));
            }
            e.downcast_ref::<std::io::Error>()
                .map(std::io::Error::kind)
                .or_else(|| {
                    e.downcast_ref::<serde_json::Error>()
                        .and_then(serde_json::Error::io_error_kind)
                })
                .map(|kind| std::io::Error::new(kind, e.to_string()))
        });
        output_error.map_or(Ok(()), Err)
    };
    match &args.out {
        Some(path) => {
            // A stop first, then an output error (it names the file), then the command's own.
            let written = write_out(path, write);
            if outcome.as_ref().is_err_and(|e| e.is::<Stopped>()) {
                return outcome;
            }
            written?;
            outcome?;
        }
        None => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            write(&mut out)?;
            out.flush()?;
            outcome?;
        }
    }
    Ok(())
}

/// Writes `--out`'s `path` with `write`. A regular file (new, or one a symbolic link names)
/// is replaced atomically, through a temporary file beside it, so an interrupted run leaves it
/// as it was; anything else that exists (a device such as `/dev/null` or `/dev/stdout`, a named
/// pipe) is written in place, never replaced.
fn write_out(path: &Path, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => {
            // The file a link names, so that the link stays a link.
            let file = std::fs::canonicalize(path)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            docview::output::write_atomically(&file, |out| write(out))?;
        }
        Ok(meta) if !meta.is_dir() => {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            let mut out = std::io::BufWriter::new(file);
            write(&mut out)
                .and_then(|()| out.flush())
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        }
        _ => docview::output::write_atomically(path, |out| write(out))?,
    }
    Ok(())
}

/// Writes each page file of `args` in its format; fails at the end when a page could not be
/// cleaned.
fn write_pages(
    args: &ExtractArgs,
    cleaner: &dyn Cleaner,
    limits: &PageLimits,
    out: &mut dyn Write,
) -> Result<()> {
    let mut failed = 0usize;
    let headers = args.pages.len() > 1;
    let keep = args.keep();
    for (i, path) in args.pages.iter().enumerate() {
        let name = path.display().to_string();
        let page = read_page_bytes(path)
            .map_err(anyhow::Error::from)
            .and_then(|bytes| {
                if let Some(format) = CrawlFormat::sniff(&bytes) {
                    bail!(
                        "{name} is {}, not an HTML page: `docview extract {name} --format jsonl` \
                         cleans the pages of a crawl file, one line each (`docview ingest {name} \
                         --out DIR` indexes them)",
                        format.name()
                    );
                }
                let charset = args.charset.as_deref();
                Ok(extract_page_in_site(
                    &bytes,
                    charset,
                    &name,
                    args.url.as_deref(),
                    cleaner,
                    None,
                    limits,
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
        if let Some(why) = page.empty_topic(cleaner) {
            eprintln!("docview: {name}: the topic content is empty: {why}");
        }
        let front = if args.with_metadata {
            let metadata = page.metadata();
            metadata.front_matter(&page.title_of(&metadata), args.url.as_deref())
        } else {
            String::new()
        };
        match args.format {
            Format::Text => {
                if headers {
                    header(out, i, &name)?;
                    write!(out, "{}", escape_headers(&front))?;
                    writeln!(out, "{}", escape_headers(&page.text_keeping(keep)))?;
                } else {
                    write!(out, "{front}")?;
                    writeln!(out, "{}", page.text_keeping(keep))?;
                }
            }
            Format::Json => {
                let report = page.report(&name, args.url.as_deref(), cleaner);
                serde_json::to_writer(&mut *out, &report)?;
                writeln!(out)?;
            }
            Format::Html => {
                write!(out, "{}", topic_content_page(&page.tree, &page.cleaned))?;
            }
            Format::Markdown => {
                if headers {
                    header(out, i, &name)?;
                    write!(out, "{}", escape_headers(&front))?;
                    write!(out, "{}", escape_headers(&page.markdown_keeping(keep)))?;
                } else {
                    write!(out, "{front}")?;
                    write!(out, "{}", page.markdown_keeping(keep))?;
                }
            }
            Format::Jsonl => bail!("--format jsonl is written line by line, not page by page"),
        }
    }
    if failed > 0 {
        bail!(
            "{failed} of {} pages could not be cleaned",
            args.pages.len()
        );
    }
    Ok(())
}

/// Pages cleaned per worker thread in one batch: enough to keep every thread busy while the
/// batch's lines wait to be written in order.
const BATCH_PER_THREAD: usize = 32;

/// Bytes of HTML per worker thread in one batch, at most (the page that crosses it included):
/// a batch of large pages stays small in memory.
const BATCH_BYTES_PER_THREAD: usize = 16 << 20;

/// How often a wait for the next batch looks whether Ctrl-C asked to stop.
const STOP_CHECK_EVERY: Duration = Duration::from_millis(100);

/// How often a progress line is printed on standard error.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// What became of the events of a `--format jsonl` run.
#[derive(Debug, Default)]
struct Tally {
    /// Pages written.
    pages: u64,
    /// Records that are not pages (not HTML, not a response, an error status ...).
    skipped: u64,
    /// Records or pages that could not be read or cleaned.
    failed: u64,
    /// Bytes of HTML cleaned.
    bytes: u64,
}

/// Streams the pages of `inputs` through `cleaner`, one line each (classified by `classifier`
/// and the name its lines give it, when there is one), in input order; reports the
/// pages that could not be read or cleaned on standard error, and the counts at the end.
/// Ends with [`Stopped`] after the batch at hand when `stop` is asked for.
fn write_lines(
    args: &ExtractArgs,
    mut inputs: Inputs,
    cleaner: &dyn Cleaner,
    classifier: Option<&Classifiers>,
    limits: &PageLimits,
    stop: &Interrupt,
    out: &mut dyn Write,
) -> Result<()> {
    let pool = docview::thread_pool(args.threads)?;
    let threads = pool.current_num_threads();
    let analyzer = Analyzer::new();
    let classifier = classifier.map(Classifiers::classifier_ref);
    let keep = args.keep();
    let content = if args.markdown {
        LineContent::Markdown
    } else {
        LineContent::Text
    };
    let started = Instant::now();
    let mut last_progress = started;
    let mut tally = Tally::default();
    // The next batch is read (files opened, gunzipped, WARC records parsed) on a thread of its
    // own while the workers clean this one, as ingest's reader does; one batch waits at most.
    // The thread is not waited for when the writing stops early (an error, a closed pipe,
    // Ctrl-C): it may be blocked reading standard input, and ends with the process.
    let (batches, next_batch) = std::sync::mpsc::sync_channel::<Vec<InputEvent>>(1);
    let reader = std::thread::spawn(move || {
        loop {
            let mut batch: Vec<InputEvent> = Vec::new();
            let mut batch_bytes = 0usize;
            while batch.len() < threads * BATCH_PER_THREAD
                && batch_bytes < threads * BATCH_BYTES_PER_THREAD
            {
                let Some(event) = inputs.next() else { break };
                if let InputEvent::Page(raw) = &event {
                    batch_bytes += raw.bytes.len();
                }
                batch.push(event);
            }
            // The end of the inputs, or the writer stopped.
            if batch.is_empty() || batches.send(batch).is_err() {
                return;
            }
        }
    });
    loop {
        if stop.is_requested() {
            let left = match &args.out {
                Some(path) => format!("{} is left as it was", path.display()),
                None => "the lines stop here".to_string(),
            };
            return Err(Stopped { left }.into());
        }
        let batch = match next_batch.recv_timeout(STOP_CHECK_EVERY) {
            Ok(batch) => batch,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => {
                // A reader that panicked ended the inputs early: say so rather than end well.
                if reader.join().is_err() {
                    bail!("reading the inputs failed (a bug: please report it)");
                }
                break;
            }
        };
        let lines = clean_batch(&pool, &batch, |raw| {
            let page = extract_page_in_site(
                &raw.bytes,
                args.charset.as_deref().or(raw.http_charset.as_deref()),
                &raw.origin,
                Some(raw.url.as_str())
                    .filter(|u| !u.is_empty())
                    .or(args.url.as_deref()),
                cleaner,
                None,
                limits,
            )?;
            let classify = classifier.map(|c| (c, &analyzer));
            let line = PageLine::new(raw, &page, args.url.as_deref(), content, keep, classify);
            Ok(line.to_json()?)
        });
        for (event, line) in batch.iter().zip(lines) {
            match (event, line) {
                (InputEvent::Page(raw), Some(Ok(line))) => {
                    writeln!(out, "{line}")?;
                    tally.pages += 1;
                    tally.bytes += raw.bytes.len() as u64;
                }
                (InputEvent::Page(raw), Some(Err(e))) => {
                    eprintln!("docview: {}: {e}", raw.origin);
                    tally.failed += 1;
                }
                (InputEvent::Malformed { origin, message }, _) => {
                    eprintln!("docview: {origin}: {message}");
                    tally.failed += 1;
                }
                _ => tally.skipped += 1,
            }
        }
        if !args.quiet && last_progress.elapsed() >= PROGRESS_EVERY {
            last_progress = Instant::now();
            eprintln!("docview: extract: {}", summary(&tally, started.elapsed()));
        }
    }
    if !args.quiet {
        eprintln!("docview: extract: {}", summary(&tally, started.elapsed()));
    }
    Ok(())
}

/// The counts of a run so far, and its speed.
fn summary(tally: &Tally, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64().max(1e-3);
    format!(
        "{} pages written, {} records passed over (not pages), {} could not be read or cleaned; \
         {:.1} MB of HTML in {:.1} s ({:.0} pages/s)",
        tally.pages,
        tally.skipped,
        tally.failed,
        tally.bytes as f64 / 1e6,
        secs,
        tally.pages as f64 / secs
    )
}

/// `clean` of each page of `batch` on the threads of `pool`; `None` for an event that is not
/// a page. In the batch's order, whatever the threads.
fn clean_batch(
    pool: &rayon::ThreadPool,
    batch: &[InputEvent],
    clean: impl Fn(&RawPage) -> Result<String> + Sync,
) -> Vec<Option<Result<String>>> {
    pool.install(|| {
        batch
            .par_iter()
            .map(|event| match event {
                InputEvent::Page(raw) => Some(clean(raw)),
                _ => None,
            })
            .collect()
    })
}

/// What starts the header line of each page when several are printed, as `head` and `tail`
/// write it: `==> NAME <==`.
const HEADER: &str = "==> ";

/// Writes the header of the page `name`, the `i`th printed (a blank line before all but the
/// first). A name with a control character (a newline) is written quoted and escaped, so a
/// header is always one line.
fn header(out: &mut (impl Write + ?Sized), i: usize, name: &str) -> std::io::Result<()> {
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
