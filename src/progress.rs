//! The progress display of an ingest on standard error (indicatif): a bar on a terminal,
//! plain lines in a log, nothing with `--quiet`.

use docview::pipeline::{Counters, Phase, Progress};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The progress of an ingest on standard error: a bar on a terminal, else a plain line every
/// few seconds (a log has no use for a redrawn bar, and silence until the end tells nothing).
pub struct Bar {
    bar: ProgressBar,
    started: std::sync::Mutex<std::time::Instant>,
    /// Plain lines: how often, when the last was printed, and the phase's name.
    lines: Option<PlainLines>,
}

struct PlainLines {
    every: std::time::Duration,
    last: std::sync::Mutex<Option<std::time::Instant>>,
    phase: std::sync::Mutex<&'static str>,
    total_bytes: std::sync::Mutex<Option<u64>>,
}

impl Bar {
    /// A display that shows nothing with `quiet`, and plain lines every `progress_every`
    /// seconds when standard error is not a terminal.
    pub fn new(quiet: bool, progress_every: u64) -> Bar {
        use std::io::IsTerminal;
        let terminal = std::io::stderr().is_terminal();
        let bar = ProgressBar::with_draw_target(
            None,
            if quiet || !terminal {
                ProgressDrawTarget::hidden()
            } else {
                ProgressDrawTarget::stderr()
            },
        );
        Bar {
            bar,
            started: std::sync::Mutex::new(std::time::Instant::now()),
            lines: (!quiet && !terminal).then(|| PlainLines {
                every: std::time::Duration::from_secs(progress_every),
                last: std::sync::Mutex::new(None),
                phase: std::sync::Mutex::new(""),
                total_bytes: std::sync::Mutex::new(None),
            }),
        }
    }

    fn elapsed_secs(&self) -> f64 {
        self.started
            .lock()
            .map(|t| t.elapsed().as_secs_f64())
            .unwrap_or(0.0)
            .max(1e-3)
    }
}

impl Progress for Bar {
    fn start(&self, phase: Phase, total_bytes: Option<u64>) {
        let label = match phase {
            Phase::Statistics => "statistics",
            Phase::Ingest => "ingest    ",
        };
        self.bar.reset();
        self.bar.set_length(total_bytes.unwrap_or(0));
        // The bar follows the input read (compressed bytes for gzip files); the rates in the
        // message are of HTML, decompressed.
        let template = if total_bytes.is_some() {
            "{prefix} [{elapsed_precise}] {wide_bar} {decimal_bytes}/{decimal_total_bytes} of input, {msg}"
        } else {
            "{prefix} [{elapsed_precise}] {spinner} {decimal_bytes} of input, {msg}"
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            self.bar.set_style(style);
        }
        self.bar.set_prefix(label);
        if let Ok(mut t) = self.started.lock() {
            *t = std::time::Instant::now();
        }
        if let Some(lines) = &self.lines {
            if let Ok(mut p) = lines.phase.lock() {
                *p = label.trim_end();
            }
            if let Ok(mut t) = lines.total_bytes.lock() {
                *t = total_bytes;
            }
            if let Ok(mut last) = lines.last.lock() {
                *last = Some(std::time::Instant::now());
            }
        }
    }

    fn update(&self, c: &Counters, input_bytes: u64) {
        self.bar.set_position(input_bytes);
        let secs = self.elapsed_secs();
        let rates = format!(
            "{} pages, {:.0} pages/s, {:.1} MB/s of HTML, {} replicas, {} skipped",
            c.pages_read,
            c.pages_read as f64 / secs,
            c.html_bytes as f64 / 1e6 / secs,
            c.replicas(),
            c.skipped_total()
        );
        if let Some(lines) = &self.lines {
            let due = lines.last.lock().ok().is_some_and(|mut last| {
                let due = last.is_none_or(|t| t.elapsed() >= lines.every);
                if due {
                    *last = Some(std::time::Instant::now());
                }
                due
            });
            if due {
                let phase = lines.phase.lock().map(|p| *p).unwrap_or("");
                let of = match lines.total_bytes.lock().ok().and_then(|t| *t) {
                    Some(total) => format!(" of {:.1}", total as f64 / 1e6),
                    None => String::new(),
                };
                eprintln!(
                    "docview: {phase} {secs:.0} s: {:.1}{of} MB of input read, {rates}",
                    input_bytes as f64 / 1e6
                );
            }
        }
        self.bar.set_message(rates);
    }

    fn note(&self, message: &str) {
        self.bar.suspend(|| eprintln!("docview: {message}"));
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
