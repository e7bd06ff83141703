//! Stopping a run cleanly when its user asks: the [`Interrupt`] a caller hands to a run
//! (`IngestOptions::interrupt`) and requests from elsewhere (the binary's Ctrl-C handler, the
//! Python module when Python sees a `KeyboardInterrupt`). A run looks at it after each batch:
//! the first pass makes its spill durable and records how far it got, the second commits, and
//! the run ends with [`Error::Interrupted`](crate::Error::Interrupted), after which `--resume`
//! continues from there.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A request to stop a run, shared between the run and whoever asks it to stop. Clones share
/// one request; a new one is not requested.
#[derive(Debug, Clone, Default)]
pub struct Interrupt(Arc<AtomicBool>);

impl Interrupt {
    /// A new, unrequested interrupt.
    pub fn new() -> Self {
        Interrupt::default()
    }

    /// Asks the run to stop at its next checkpoint (safe to call from a signal handler's
    /// thread: one atomic store).
    pub fn request(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was asked for.
    pub fn is_requested(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_one_request() {
        let a = Interrupt::new();
        let b = a.clone();
        assert!(!b.is_requested());
        a.request();
        assert!(b.is_requested());
        assert!(!Interrupt::new().is_requested());
    }
}
