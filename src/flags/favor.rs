//! The `--favor` flag of the learned cleaner: its values are the library's [`Favor`] names,
//! read as a [`Favor`] (clap lists them in `--help` and refuses any other).

use clap::builder::{PossibleValuesParser, TypedValueParser};
use docview::clean::Favor;

/// The parser of `--favor`: one of [`Favor::NAMES`], as its [`Favor`].
pub fn favor() -> impl TypedValueParser<Value = Favor> {
    PossibleValuesParser::new(Favor::NAMES).try_map(|name| name.parse::<Favor>())
}

/// The help of `--favor`, one text for every command that takes it.
pub const FAVOR_HELP: &str = "What the learned cleaner favours: `precision` keeps less \
    furniture (comments, related lists, bylines) and drops figures' captions on every page, and \
    may lose some of the article, `recall` keeps the whole article and its captions and may keep \
    some furniture, `balanced` is the model's own decision, with an article's captions dropped \
    (a page of items keeps them). The model's scores are the same; only the bars a block must reach \
    move. Figures of each: docs/figures/cleaning.md";
