//! Ctrl-C during a run that can stop cleanly: the first SIGINT asks the run to stop after the
//! batch at hand ([`docview::pipeline::Interrupt`]); a second ends the process at once, as a
//! kill would. `docview ingest` then makes what it did durable and ends with an error that
//! says how to resume; `docview extract --format jsonl --out FILE` leaves FILE as it was
//! ([`Stopped`]). Either exits with [`INTERRUPTED_EXIT_CODE`]. Other commands keep the
//! default: Ctrl-C ends them.

use docview::pipeline::Interrupt;

/// The exit status of a run stopped by Ctrl-C: 128 + SIGINT, as shells report it.
pub const INTERRUPTED_EXIT_CODE: i32 = 130;

/// What a run says when Ctrl-C stops it.
pub struct Said {
    /// After the first Ctrl-C: what the run will leave.
    pub stopping: String,
    /// After the second: what it leaves.
    pub at_once: String,
}

/// Hands Ctrl-C to `interrupt` for the rest of the process, saying `said`. A handler that
/// cannot be set (another is set) leaves Ctrl-C as it was, with a warning.
pub fn on_ctrl_c(interrupt: &Interrupt, said: Said) {
    let interrupt = interrupt.clone();
    let set = ctrlc::set_handler(move || {
        if interrupt.is_requested() {
            eprintln!("\ndocview: stopped at once; {}", said.at_once);
            std::process::exit(INTERRUPTED_EXIT_CODE);
        }
        interrupt.request();
        eprintln!(
            "\ndocview: stopping after the batch at hand; {} (Ctrl-C again to stop at once)",
            said.stopping
        );
    });
    if let Err(e) = set {
        eprintln!("docview: warning: Ctrl-C will end the run without a checkpoint: {e}");
    }
}

/// A command that Ctrl-C stopped before it finished, having left its output as it was.
#[derive(Debug)]
pub struct Stopped {
    /// What was left as it was.
    pub left: String,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "stopped by Ctrl-C; {}", self.left)
    }
}

impl std::error::Error for Stopped {}
