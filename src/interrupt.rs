//! Ctrl-C during a run that can stop cleanly (`docview ingest`): the first SIGINT asks the
//! run to stop after the batch at hand ([`docview::pipeline::Interrupt`]), which makes what
//! it did durable and ends with an error that says how to resume (exit status
//! [`INTERRUPTED_EXIT_CODE`]); a second ends the process at once, as a kill would (the run then
//! resumes from its last checkpoint). Other commands keep the default: Ctrl-C ends them.

use docview::pipeline::Interrupt;

/// The exit status of a run stopped by Ctrl-C: 128 + SIGINT, as shells report it.
pub const INTERRUPTED_EXIT_CODE: i32 = 130;

/// Hands Ctrl-C to `interrupt` for the rest of the process. A handler that cannot be set
/// (another is set) leaves Ctrl-C as it was, with a warning.
pub fn on_ctrl_c(interrupt: &Interrupt) {
    let interrupt = interrupt.clone();
    let set = ctrlc::set_handler(move || {
        if interrupt.is_requested() {
            eprintln!("\ndocview: stopped at once; --resume continues from the last checkpoint");
            std::process::exit(INTERRUPTED_EXIT_CODE);
        }
        interrupt.request();
        eprintln!("\ndocview: stopping after the batch at hand (Ctrl-C again to stop at once)");
    });
    if let Err(e) = set {
        eprintln!("docview: warning: Ctrl-C will end the run without a checkpoint: {e}");
    }
}
