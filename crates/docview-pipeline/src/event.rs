//! One input event as the passes see it ([`Event`]): a page, a record passed over with its
//! counted reason, or a malformed record; and the line `skipped.jsonl` gives one that is no
//! page.

use serde::{Deserialize, Serialize};

use crate::input::{InputEvent, RawPage};
use crate::records::{Skip, SkippedLine};

/// One input event as the passes see it: a page, or a record that is no page.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Event<P> {
    /// A page.
    Page(P),
    /// A record passed over: its counted reason and, when it says more, the whole message.
    Skipped {
        /// Where it came from.
        origin: String,
        /// The counted reason.
        reason: Skip,
        /// The whole message.
        detail: String,
    },
    /// A broken record.
    Malformed {
        /// Where it came from.
        origin: String,
        /// What was wrong.
        message: String,
    },
}

impl<P> Event<P> {
    /// The event of an input event, with its page (if any) mapped by `page`.
    pub fn of(event: InputEvent, page: impl FnOnce(RawPage) -> P) -> Event<P> {
        match event {
            InputEvent::Page(p) => Event::Page(page(p)),
            InputEvent::Skipped { origin, reason } => Event::Skipped {
                origin,
                detail: reason.to_string(),
                reason: Skip::from(&reason),
            },
            InputEvent::Malformed { origin, message } => Event::Malformed { origin, message },
        }
    }

    /// Its page, or the line `skipped.jsonl` gives a record that is no page (a malformed one
    /// counted as [`Skip::Malformed`], its message the detail).
    pub fn into_page(self) -> std::result::Result<P, SkippedLine> {
        match self {
            Event::Page(p) => Ok(p),
            Event::Skipped {
                origin,
                reason,
                detail,
            } => Err(SkippedLine {
                origin,
                detail: if detail == reason.to_string() {
                    String::new()
                } else {
                    detail
                },
                reason,
            }),
            Event::Malformed { origin, message } => Err(SkippedLine {
                origin,
                reason: Skip::Malformed,
                detail: message,
            }),
        }
    }

    /// The same event with its page mapped by `page`.
    pub fn map<Q>(self, page: impl FnOnce(P) -> Q) -> Event<Q> {
        match self {
            Event::Page(p) => Event::Page(page(p)),
            Event::Skipped {
                origin,
                reason,
                detail,
            } => Event::Skipped {
                origin,
                reason,
                detail,
            },
            Event::Malformed { origin, message } => Event::Malformed { origin, message },
        }
    }
}
