//! The `--cleaner NAME` flag's values: the library's cleaner names, read as its
//! [`CleanerKind`] (clap lists them in `--help` and refuses any other).

use clap::builder::{PossibleValuesParser, TypedValueParser};
use docview::clean::{CLEANERS, CleanerKind};

/// The parser of `--cleaner`: one of [`CLEANERS`], as its [`CleanerKind`].
pub fn cleaner_kind() -> impl TypedValueParser<Value = CleanerKind> {
    PossibleValuesParser::new(CLEANERS).try_map(|name| name.parse::<CleanerKind>())
}
