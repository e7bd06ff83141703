//! The `docview` command: a thin layer of clap commands over the docview library.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};

use docview::clean::{CLEANERS, cleaner_by_name, topic_content_page};
use docview::eval::{load_set, run_eval};
use docview::extract::extract_page;
use docview::input::read_page_bytes;
use docview::output::write_atomically;

/// docview: a search-engine indexing preprocessor. It cleans crawled pages down to their topic
/// content (dropping navigation, ads, footers and other boilerplate), following the framework of
/// Zhang, Chen and Li (2004), and measures how well it does on labelled corpora.
#[derive(Debug, Parser)]
#[command(name = "docview", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Clean pages: print the topic content of each PAGE (text, a JSON report of every block
    /// kept or dropped and why, or the topic content page as HTML).
    Extract(ExtractArgs),
    /// Score a cleaner on a labelled corpus set (the layout of ../shared/corpus): word-level
    /// bag-of-words precision, recall and F1 per page, macro-averaged, overall and per page
    /// type, with pages/s and MB/s of HTML per core.
    Eval(EvalArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// The topic content as plain text: headings on their own lines, paragraphs separated by
    /// blank lines.
    Text,
    /// One JSON object per page: page type, title, charset, topic root, paragraphs, and every
    /// block of the tag tree with its weight, type, verdict and the reason.
    Json,
    /// The topic content page (004 §4.2): the purified page in its original layout.
    Html,
}

#[derive(Debug, clap::Args)]
struct ExtractArgs {
    /// Page files to clean: HTML, gzip-compressed HTML (found by content, whatever the name),
    /// or `-` for standard input.
    #[arg(required = true, value_name = "PAGE")]
    pages: Vec<PathBuf>,
    /// The page's URL, reported in JSON output (with one PAGE only).
    #[arg(long, value_name = "URL")]
    url: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The cleaner to use.
    #[arg(long, value_name = "NAME", default_value = "framework", value_parser = clap::builder::PossibleValuesParser::new(CLEANERS))]
    cleaner: String,
    /// The charset the page was served with (an HTTP Content-Type charset). Without it the
    /// charset comes from the byte order mark, a UTF-8 check, the page's <meta> declaration,
    /// or detection, in that order.
    #[arg(long, value_name = "LABEL")]
    charset: Option<String>,
}

#[derive(Debug, clap::Args)]
struct EvalArgs {
    /// A labelled set folder holding html/<id>.html.gz and ground-truth/<id>.json.
    #[arg(value_name = "SET")]
    set: PathBuf,
    /// Also print the scores per page type.
    #[arg(long)]
    by_type: bool,
    /// Write the predictions as JSON lines, {"file_id": ..., "main_content": ...}, for any other
    /// scorer to check.
    #[arg(long, value_name = "PRED.jsonl")]
    out: Option<PathBuf>,
    /// Write the whole report (per-page scores included) as JSON.
    #[arg(long, value_name = "REPORT.json")]
    report: Option<PathBuf>,
    /// The cleaner to score.
    #[arg(long, value_name = "NAME", default_value = "framework", value_parser = clap::builder::PossibleValuesParser::new(CLEANERS))]
    cleaner: String,
    /// Worker threads (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Extract(args) => extract(args),
        Command::Eval(args) => eval(args),
    };
    if let Err(e) = result {
        eprintln!("docview: {e:#}");
        std::process::exit(1);
    }
}

fn extract(args: ExtractArgs) -> Result<()> {
    if args.url.is_some() && args.pages.len() > 1 {
        bail!(
            "--url names one page, but {} pages were given",
            args.pages.len()
        );
    }
    let cleaner = cleaner_by_name(&args.cleaner)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    for (i, path) in args.pages.iter().enumerate() {
        let name = path.display().to_string();
        let page = read_page_bytes(path).and_then(|bytes| {
            extract_page(&bytes, args.charset.as_deref(), &name, cleaner.as_ref())
        });
        let page = match page {
            Ok(page) => page,
            Err(e) => {
                eprintln!("docview: {e}");
                failed += 1;
                continue;
            }
        };
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
                let report = page.report(&name, args.url.as_deref(), cleaner.name());
                serde_json::to_writer(&mut out, &report)?;
                writeln!(out)?;
            }
            Format::Html => {
                write!(out, "{}", topic_content_page(&page.tree, &page.cleaned))?;
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

fn eval(args: EvalArgs) -> Result<()> {
    let cleaner = cleaner_by_name(&args.cleaner)?;
    let pages = load_set(&args.set)?;
    if pages.is_empty() {
        bail!("{}: the set has no pages", args.set.display());
    }
    eprintln!(
        "scoring cleaner {} on {} pages of {}",
        cleaner.name(),
        pages.len(),
        args.set.display()
    );
    let report = run_eval(
        &pages,
        |bytes| extract_page(bytes, None, "page", cleaner.as_ref()).map(|p| p.cleaned.topic_text),
        args.threads,
        args.out.is_some(),
    )?;
    print!("{}", report.render_table(args.by_type));
    if let Some(out) = &args.out {
        report
            .write_predictions_jsonl(out)
            .with_context(|| format!("writing predictions to {}", out.display()))?;
        eprintln!("predictions written to {}", out.display());
    }
    if let Some(path) = &args.report {
        write_atomically(path, |out| {
            serde_json::to_writer_pretty(&mut *out, &report).map_err(std::io::Error::from)
        })?;
        eprintln!("report written to {}", path.display());
    }
    Ok(())
}
