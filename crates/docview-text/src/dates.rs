//! Dates and durations: words that say when or for how long, not what a page is about. A
//! listing's "Mar 07", "4 min read" and "1h 54m" must not make `mar`, `min` or `1h` keywords,
//! while "the march on the capital" keeps its `march`. A month, weekday or time-unit word is a
//! date word on a page when most of its uses there stand next to a number; a number glued to a
//! unit (`54m`, `2hrs`) is a duration wherever it stands.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use crate::analyzer::for_each_word;

/// The month names of [`DATE_WORDS`], full and abbreviated: its first entries.
const MONTH_WORDS: usize = 24;

/// True when `word` (lowercase) is a month's name, full or abbreviated (`march`, `mar`,
/// `sept`).
pub fn is_month(word: &str) -> bool {
    DATE_WORDS[..MONTH_WORDS].contains(&word)
}

/// Month, weekday and time-unit words (English, lowercase), full and abbreviated; the months
/// first.
const DATE_WORDS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "mon",
    "tue",
    "tues",
    "wed",
    "thu",
    "thur",
    "thurs",
    "fri",
    "sat",
    "sun",
    "sec",
    "secs",
    "second",
    "seconds",
    "min",
    "mins",
    "minute",
    "minutes",
    "hr",
    "hrs",
    "hour",
    "hours",
    "day",
    "days",
    "wk",
    "wks",
    "week",
    "weeks",
    "mo",
    "mos",
    "month",
    "months",
    "yr",
    "yrs",
    "year",
    "years",
    "ago",
    "am",
    "pm",
];

/// Units a duration glues to its number (`1h`, `54m`, `10min`, `2yrs`).
const DURATION_UNITS: &[&str] = &[
    "s", "m", "h", "d", "w", "y", "sec", "secs", "min", "mins", "hr", "hrs", "yr", "yrs", "wk",
    "wks", "mo", "mos",
];

fn is_number(word: &str) -> bool {
    word.chars().next().is_some_and(|c| c.is_ascii_digit())
        && word
            .chars()
            .all(|c| c.is_ascii_digit() || c == ',' || c == '.')
}

/// The date and duration words of `text` (lowercase), each used next to a number in at least
/// half of its uses there.
pub fn date_words(text: &str) -> Vec<String> {
    // Uses of each date word (next to a number, all), by its place in DATE_WORDS: one pass over
    // the analyzer's words (`unicode_words`, through its fast path for ASCII stretches), each
    // counted when the word after it arrives, no word copied.
    let mut uses = [(0u32, 0u32); DATE_WORDS.len()];
    let mut count = |prev: Option<&str>, w: &str, next: Option<&str>| {
        if let Some(k) = date_word(w) {
            let near = prev.is_some_and(is_number) || next.is_some_and(is_number);
            uses[k].0 += u32::from(near);
            uses[k].1 += 1;
        }
    };
    let (mut prev, mut word) = (None::<&str>, None::<&str>);
    for_each_word(text, |next| {
        if let Some(w) = word {
            count(prev, w, Some(next));
        }
        (prev, word) = (word, Some(next));
    });
    if let Some(w) = word {
        count(prev, w, None);
    }
    mostly_near_numbers(uses)
}

/// The date words (sorted) that stand next to a number in at least half of their uses, from
/// the uses of each (next to a number, all) by its place in [`DATE_WORDS`].
fn mostly_near_numbers(uses: [(u32, u32); DATE_WORDS.len()]) -> Vec<String> {
    let mut out: Vec<String> = DATE_WORDS
        .iter()
        .zip(uses)
        .filter(|&(_, (near, all))| all > 0 && 2 * near >= all)
        .map(|(w, _)| w.to_string())
        .collect();
    out.sort_unstable();
    out
}

/// The place in [`DATE_WORDS`] of `word`, ignoring ASCII case; `None` for a word of other
/// characters than ASCII letters, or of more than 9.
fn date_word(word: &str) -> Option<usize> {
    // Lowercased into a buffer and looked up in one map, rather than compared with each of
    // the 70 words in turn: this runs for every word of every topic content.
    static PLACES: OnceLock<FxHashMap<&'static [u8], usize>> = OnceLock::new();
    let mut lower = [0u8; 9];
    let bytes = word.as_bytes();
    if bytes.len() > lower.len() || !bytes.iter().all(u8::is_ascii_alphabetic) {
        return None;
    }
    let lower = &mut lower[..bytes.len()];
    lower.copy_from_slice(bytes);
    lower.make_ascii_lowercase();
    PLACES
        .get_or_init(|| {
            DATE_WORDS
                .iter()
                .enumerate()
                .map(|(i, w)| (w.as_bytes(), i))
                .collect()
        })
        .get(&*lower)
        .copied()
}

/// True for a term that is a number glued to a time unit (`1h`, `54m`, `10min`).
pub fn is_duration(term: &str) -> bool {
    let digits = term.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && DURATION_UNITS.contains(&&term[digits..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xorshift;
    use unicode_segmentation::UnicodeSegmentation;

    /// [`date_words`] as first written: over `unicode_words` with the words around at hand.
    fn date_words_by_unicode_words(text: &str) -> Vec<String> {
        let mut uses = [(0u32, 0u32); DATE_WORDS.len()];
        let words: Vec<&str> = text.unicode_words().collect();
        for (i, w) in words.iter().enumerate() {
            if let Some(k) = DATE_WORDS.iter().position(|d| d.eq_ignore_ascii_case(w)) {
                let near = (i > 0 && is_number(words[i - 1]))
                    || words.get(i + 1).is_some_and(|n| is_number(n));
                uses[k].0 += u32::from(near);
                uses[k].1 += 1;
            }
        }
        mostly_near_numbers(uses)
    }

    #[test]
    fn date_words_read_the_words_unicode_words_cuts() {
        let pieces = [
            "May", "3", "2024", "mar", "MAR", "Min", "4", "min", "read", "é", "café", "—", "’",
            "·", "1,5", "3.5", "ago", "days", "中文", "\u{a0}", "Sept", "x", ".", "'", "Jänner",
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..3_000 {
            let mut text = String::new();
            for _ in 0..state % 13 {
                xorshift(&mut state);
                text.push_str(pieces[(state % pieces.len() as u64) as usize]);
                text.push(if state.is_multiple_of(5) { '-' } else { ' ' });
            }
            assert_eq!(
                date_words(&text),
                date_words_by_unicode_words(&text),
                "{text:?}"
            );
            state = state.wrapping_add(1);
        }
    }

    #[test]
    fn the_months_are_the_first_date_words() {
        assert_eq!(DATE_WORDS[MONTH_WORDS - 1], "dec");
        assert_eq!(DATE_WORDS[MONTH_WORDS], "monday");
        assert!(is_month("sept") && is_month("may") && !is_month("monday"));
    }

    #[test]
    fn date_words_are_those_next_to_numbers() {
        let text = "Harbour works · Mar 07 · 4 min read. The march on the capital began at 9 am. \
                    Posted 3 days ago. The march ended at dusk.";
        assert_eq!(date_words(text), ["am", "days", "mar", "min"]);
    }

    #[test]
    fn date_words_count_every_case_of_a_word_together() {
        // "May" twice next to a number, "MAY" and "may" once each not: 2 of 4 uses.
        let text = "Published May 3, 2024. Updated 4 May. You MAY quote it; we may not.";
        assert_eq!(date_words(text), ["may"]);
        // Three of four uses away from a number.
        assert!(date_words("Sun 5. The sun rose, the sun set, the SUN.").is_empty());
        // The first and last words have one neighbour; words of other letters are no dates.
        assert_eq!(date_words("Monday 1 and 2 months"), ["monday", "months"]);
        assert!(date_words("Mär 07 · 3 maý").is_empty());
        let mut unique = DATE_WORDS.to_vec();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), DATE_WORDS.len());
    }

    #[test]
    fn durations_are_numbers_with_units() {
        for t in ["1h", "54m", "10min", "2yrs"] {
            assert!(is_duration(t), "{t}");
        }
        for t in ["4k", "3d4", "html5", "b2b", "min", "1080p", "16gb"] {
            assert!(!is_duration(t), "{t}");
        }
    }
}
