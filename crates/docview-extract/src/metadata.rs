//! A page's metadata beyond its title: author, published and modified dates (ISO 8601), site
//! name, canonical URL and declared language, one value each with the source it was read from.
//! The tag tree keeps every declaration as written ([`docview_page::Declared`]); this module
//! picks one per field, by source (JSON-LD, then Open Graph, then named meta tags, then
//! microdata; the first in document order within a source), and reads dates, dropping a date
//! it cannot read, one before [`EARLIEST_YEAR`], and one after the moment given as "now".

use serde::{Deserialize, Serialize};

use docview_page::{DeclaredField, DeclaredSource, TagTree};

/// Where a metadata value was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MetaSource {
    /// A schema.org object in JSON-LD.
    JsonLd,
    /// An Open Graph or `article:` property meta.
    OpenGraph,
    /// A named meta tag (`author`, `date`, Dublin Core, ...).
    Meta,
    /// A microdata `itemprop`.
    Microdata,
    /// What the page shows: a byline's name, a `<time datetime>` in a byline or dateline.
    Visible,
    /// A date in the page's URL path (`/2021/11/14/`).
    UrlPath,
    /// `<link rel=canonical>`.
    LinkCanonical,
    /// The `lang` attribute of `<html>`.
    HtmlLang,
}

impl From<DeclaredSource> for MetaSource {
    fn from(s: DeclaredSource) -> Self {
        match s {
            DeclaredSource::JsonLd => MetaSource::JsonLd,
            DeclaredSource::OpenGraph => MetaSource::OpenGraph,
            DeclaredSource::Meta => MetaSource::Meta,
            DeclaredSource::Microdata => MetaSource::Microdata,
            DeclaredSource::Visible => MetaSource::Visible,
        }
    }
}

/// A value and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sourced {
    /// The value (a date in ISO 8601: `2024-05-01` or `2024-05-01T08:30:00+02:00`).
    pub value: String,
    /// Where it was read.
    pub source: MetaSource,
}

/// What a page says about itself beyond its title; a field is absent when the page does not
/// say it (or says it in a form that cannot be read).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metadata {
    /// Who wrote it.
    pub author: Option<Sourced>,
    /// When it was published.
    pub published: Option<Sourced>,
    /// When it was last modified.
    pub modified: Option<Sourced>,
    /// The name of its site.
    pub site_name: Option<Sourced>,
    /// Its canonical address, absolute.
    pub canonical_url: Option<Sourced>,
    /// The language its markup declares (a BCP 47 tag as written).
    pub language: Option<Sourced>,
}

impl Metadata {
    /// True when no field is known.
    pub fn is_empty(&self) -> bool {
        *self == Metadata::default()
    }
}

/// A date before this year is not read as a page's date (a placeholder such as `1970-01-01`).
pub(crate) const EARLIEST_YEAR: i32 = 1990;

/// A moment as (year, month, day): dates after it are dropped.
pub type Day = (i32, u32, u32);

/// Today (UTC) from the system clock: the bound the commands give [`metadata_of`].
pub fn today() -> Day {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    civil_from_days(secs.div_euclid(86_400))
}

/// The metadata of a page's tree; a date after `not_after` (a day later, for time zones) is
/// dropped as not yet happened.
pub fn metadata_of(tree: &TagTree, not_after: Day) -> Metadata {
    let pick = |field: DeclaredField, read: &dyn Fn(&str) -> Option<String>| {
        let mut best: Option<(DeclaredSource, Sourced)> = None;
        for d in tree.declared.iter().filter(|d| d.field == field) {
            if best.as_ref().is_some_and(|(s, _)| *s <= d.source) {
                continue;
            }
            if let Some(value) = read(&d.value) {
                best = Some((
                    d.source,
                    Sourced {
                        value,
                        source: d.source.into(),
                    },
                ));
            }
        }
        best.map(|(_, s)| s)
    };
    let text = |v: &str| -> Option<String> {
        let v = v.trim();
        // An address is not a name (`article:author` often links to a profile), nor is an
        // e-mail address.
        (!v.is_empty()
            && !v.starts_with("http://")
            && !v.starts_with("https://")
            && !v.contains('@'))
        .then(|| v.to_string())
    };
    let date = |v: &str| iso_date(v).filter(|d| plausible(d, not_after));
    let canonical_url = canonical(tree).map(|value| Sourced {
        value,
        source: MetaSource::LinkCanonical,
    });
    let language = tree
        .lang
        .as_deref()
        .map(str::trim)
        .filter(|l| !l.is_empty() && l.len() <= 35)
        .map(|l| Sourced {
            value: l.to_string(),
            source: MetaSource::HtmlLang,
        });
    // What no declaration gives, the page's address may: a date in its path.
    let published = pick(DeclaredField::Published, &date).or_else(|| {
        let address = canonical_url.as_ref().map(|c| c.value.as_str());
        [address, tree.url.as_deref()]
            .into_iter()
            .flatten()
            .find_map(url_date)
            .filter(|d| plausible(d, not_after))
            .map(|value| Sourced {
                value,
                source: MetaSource::UrlPath,
            })
    });
    Metadata {
        author: pick(DeclaredField::Author, &text),
        published,
        modified: pick(DeclaredField::Modified, &date),
        site_name: pick(DeclaredField::SiteName, &text),
        canonical_url,
        language,
    }
}

/// The day an http(s) address's path gives: three segments `/YYYY/MM/DD/` (the month and day
/// of one or two digits), or a segment that begins with `YYYY-MM-DD` (`/2021-11-14-walls`).
fn url_date(address: &str) -> Option<String> {
    let url = url::Url::parse(address).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    let segments: Vec<&str> = url.path_segments()?.collect();
    let num = |s: &str, len: std::ops::RangeInclusive<usize>| {
        (len.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    for (i, seg) in segments.iter().enumerate() {
        if let (Some(y), Some(m), Some(d)) = (
            num(seg, 4..=4),
            segments.get(i + 1).and_then(|s| num(s, 1..=2)),
            segments.get(i + 2).and_then(|s| num(s, 1..=2)),
        ) && valid_day(y as i32, m, d).is_some()
        {
            return Some(format!("{y:04}-{m:02}-{d:02}"));
        }
        if let Some(day) = seg.get(..10).and_then(iso_like) {
            return Some(day);
        }
    }
    None
}

/// The `<link rel=canonical>` address, absolute (resolved against the page's URL when it is
/// relative), http(s) only.
fn canonical(tree: &TagTree) -> Option<String> {
    let href = tree.canonical.as_deref()?.trim();
    let url = match url::Url::parse(href) {
        Ok(u) => u,
        Err(_) => url::Url::parse(tree.url.as_deref()?)
            .ok()?
            .join(href)
            .ok()?,
    };
    matches!(url.scheme(), "http" | "https").then(|| url.to_string())
}

/// True when an ISO date (as [`iso_date`] writes it) is from [`EARLIEST_YEAR`] on and not
/// after the day after `not_after`.
fn plausible(iso: &str, not_after: Day) -> bool {
    let num = |r: std::ops::Range<usize>| iso.get(r).and_then(|s| s.parse::<i64>().ok());
    let (Some(y), Some(m), Some(d)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let (ny, nm, nd) = not_after;
    let day = days_from_civil(y as i32, m as u32, d as u32);
    y as i32 >= EARLIEST_YEAR && day <= days_from_civil(ny, nm, nd) + 1
}

/// Reads a date as pages write them and gives it in ISO 8601: `2024-05-01` for a day,
/// `2024-05-01T08:30:00`, with `Z` or `+02:00` when the zone is given, for a moment. Read:
/// ISO 8601 and its common variants (`2024/05/01`, a space for `T`, fractions of a second,
/// `+0200`), `20240501`, RFC 2822 (`Wed, 01 May 2024 08:30:00 GMT`, US zone names too), and
/// English dates with the month's name (`March 27, 2025`, `Dec 19th 2025`, `Wed Dec 17 2025
/// 19:24:16 GMT+0000`), the day alone unless the zone is given. `None` otherwise
/// (`09/25/2025` is left unread: whether the month or the day comes first cannot be told).
pub fn iso_date(text: &str) -> Option<String> {
    let t = text.trim().trim_matches(['"', '\'']).trim();
    iso_like(t)
        .or_else(|| rfc2822(t))
        .or_else(|| named_month(t))
}

fn iso_like(t: &str) -> Option<String> {
    let b = t.as_bytes();
    let digits = |r: std::ops::Range<usize>| -> Option<u32> {
        let s = t.get(r)?;
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let (y, m, d, mut rest) = if b.len() >= 10 && matches!(b[4], b'-' | b'/' | b'.') && b[7] == b[4]
    {
        (digits(0..4)?, digits(5..7)?, digits(8..10)?, &t[10..])
    } else if b.len() == 8 {
        (digits(0..4)?, digits(4..6)?, digits(6..8)?, "")
    } else {
        return None;
    };
    valid_day(y as i32, m, d)?;
    let day = format!("{y:04}-{m:02}-{d:02}");
    if rest.is_empty() {
        return Some(day);
    }
    let rb = rest.as_bytes();
    if !matches!(rb[0], b'T' | b't' | b' ') {
        return None;
    }
    rest = &rest[1..];
    let hh = rest.get(0..2)?.parse::<u32>().ok()?;
    if rest.as_bytes().get(2) != Some(&b':') {
        return None;
    }
    let mm = rest.get(3..5)?.parse::<u32>().ok()?;
    rest = &rest[5..];
    let mut ss = 0;
    if rest.starts_with(':') {
        ss = rest.get(1..3)?.parse::<u32>().ok()?;
        rest = &rest[3..];
        if rest.starts_with(['.', ',']) {
            let frac = rest[1..].bytes().take_while(u8::is_ascii_digit).count();
            rest = &rest[1 + frac..];
        }
    }
    if hh > 23 || mm > 59 || ss > 60 {
        return None;
    }
    let zone = zone(rest.trim())?;
    Some(format!("{day}T{hh:02}:{mm:02}:{ss:02}{zone}"))
}

/// A time zone as written after a time: empty, `Z`, `UTC`/`GMT`, `+02:00`, `+0200`, `+02`,
/// `GMT+0200`, a US zone's name (`PDT`).
fn zone(z: &str) -> Option<String> {
    let z = z.strip_prefix("GMT").filter(|r| !r.is_empty()).unwrap_or(z);
    let behind = |h: u32| Some(format!("-{h:02}:00"));
    match z {
        "" => return Some(String::new()),
        "Z" | "z" | "UTC" | "GMT" => return Some("Z".into()),
        "EDT" => return behind(4),
        "EST" | "CDT" => return behind(5),
        "CST" | "MDT" => return behind(6),
        "MST" | "PDT" => return behind(7),
        "PST" => return behind(8),
        _ => {}
    }
    let sign = z.chars().next().filter(|c| *c == '+' || *c == '-')?;
    let rest: String = z[1..].chars().filter(|c| *c != ':').collect();
    if !rest.bytes().all(|c| c.is_ascii_digit()) || !matches!(rest.len(), 2 | 4) {
        return None;
    }
    let h: u32 = rest[..2].parse().ok()?;
    let m: u32 = rest.get(2..4).map_or(Some(0), |s| s.parse().ok())?;
    if h > 14 || m > 59 {
        return None;
    }
    if h == 0 && m == 0 {
        return Some("Z".into());
    }
    Some(format!("{sign}{h:02}:{m:02}"))
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// RFC 2822 (`Wed, 01 May 2024 08:30:00 GMT`, the weekday optional).
fn rfc2822(t: &str) -> Option<String> {
    let t = t.split_once(',').map_or(t, |(_, r)| r).trim();
    let mut parts = t.split_whitespace();
    let d: u32 = parts.next()?.parse().ok()?;
    let mon = parts.next()?.get(..3)?.to_ascii_lowercase();
    let m = MONTHS.iter().position(|x| *x == mon)? as u32 + 1;
    let y: u32 = parts.next()?.parse().ok()?;
    if !(1000..10000).contains(&y) {
        return None;
    }
    let rest: Vec<&str> = parts.collect();
    let iso = format!("{y:04}-{m:02}-{d:02}");
    match rest.as_slice() {
        [] => iso_like(&iso),
        [time] => iso_like(&format!("{iso}T{}", full_time(time)?)),
        [time, zone] => iso_like(&format!("{iso}T{}{zone}", full_time(time)?)),
        _ => None,
    }
}

/// An English date with the month's name, in any order of its parts: `March 27, 2025`,
/// `27 March 2025`, `Dec 19th 2025`, `Fri 19 December, 2025`; with a 24-hour time and a `GMT`
/// zone after the year (`Wed Dec 17 2025 19:24:16 GMT+0000 (UTC)`, a JavaScript date) the
/// moment, else the day.
fn named_month(t: &str) -> Option<String> {
    let tokens: Vec<&str> = t
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .collect();
    let (mut month, mut day, mut year) = (None, None, None);
    let mut after_year = tokens.len();
    for (i, tok) in tokens.iter().enumerate() {
        let lower = tok.to_ascii_lowercase();
        if lower.len() >= 3 && lower.bytes().all(|b| b.is_ascii_alphabetic()) {
            if month.is_none()
                && let Some(m) = MONTHS.iter().position(|m| lower.starts_with(m))
            {
                month = Some(m as u32 + 1);
            }
            continue;
        }
        let digits = lower.trim_end_matches(['s', 't', 'n', 'd', 'r', 'h']);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let value: u32 = digits.parse().ok()?;
        if digits.len() == 4 && digits.len() == lower.len() && year.is_none() {
            year = Some(value);
            after_year = i + 1;
        } else if digits.len() <= 2 && day.is_none() && year.is_none() {
            day = Some(value);
        }
    }
    let iso = format!("{:04}-{:02}-{:02}", year?, month?, day?);
    if let [time, zone, ..] = &tokens[after_year..]
        && time.len() == 8
        && time.as_bytes()[2] == b':'
        && zone.starts_with("GMT")
        && let Some(moment) = iso_like(&format!("{iso}T{time}{zone}"))
    {
        return Some(moment);
    }
    iso_like(&iso)
}

/// `08:30` as `08:30:00`; `08:30:15` as is.
fn full_time(t: &str) -> Option<String> {
    match t.len() {
        5 => Some(format!("{t}:00")),
        8 => Some(t.to_string()),
        _ => None,
    }
}

/// `Some(())` when the day exists.
fn valid_day(y: i32, m: u32, d: u32) -> Option<()> {
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (1..=days).contains(&d).then_some(())
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
fn days_from_civil(y: i32, m: u32, d: u32) -> i64 {
    let y = i64::from(y) - i64::from(m <= 2);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day count since 1970-01-01.
fn civil_from_days(z: i64) -> Day {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y as i32, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use docview_page::build;

    const NOW: Day = (2026, 11, 27);

    #[test]
    fn dates_read_as_pages_write_them() {
        let cases = [
            ("2024-05-01", Some("2024-05-01")),
            ("2024/05/01", Some("2024-05-01")),
            ("20240501", Some("2024-05-01")),
            (
                "2024-05-01T08:30:00+02:00",
                Some("2024-05-01T08:30:00+02:00"),
            ),
            ("2024-05-01 08:30", Some("2024-05-01T08:30:00")),
            ("2024-05-01T08:30:00.123Z", Some("2024-05-01T08:30:00Z")),
            ("2024-05-01T08:30:00+0000", Some("2024-05-01T08:30:00Z")),
            (
                "2024-05-01T08:30:00-0500",
                Some("2024-05-01T08:30:00-05:00"),
            ),
            (
                "Wed, 01 May 2024 08:30:00 GMT",
                Some("2024-05-01T08:30:00Z"),
            ),
            ("1 May 2024", Some("2024-05-01")),
            (
                "Thu, 09 Aug 2012 09:26:22 PDT",
                Some("2012-08-09T09:26:22-07:00"),
            ),
            ("March 27, 2025", Some("2025-03-27")),
            ("July 31, 2012, 3:02 pm", Some("2012-07-31")),
            ("Dec 19th 2025", Some("2025-12-19")),
            ("Fri 19 December, 2025", Some("2025-12-19")),
            (
                "Wed Dec 17 2025 19:24:16 GMT+0000 (UTC)",
                Some("2025-12-17T19:24:16Z"),
            ),
            ("\"2025-12-17T13:22:47Z\"", Some("2025-12-17T13:22:47Z")),
            ("Thu, 09/25/2025 - 11:38", None),
            ("May the fourth", None),
            ("2024-02-30", None),
            ("2024-13-01", None),
            ("yesterday", None),
            ("2024-05-01T25:00", None),
        ];
        for (text, want) in cases {
            assert_eq!(iso_date(text).as_deref(), want, "{text}");
        }
    }

    #[test]
    fn days_round_trip() {
        for (y, m, d) in [(1970, 1, 1), (2000, 2, 29), (2026, 11, 27), (1989, 12, 31)] {
            assert_eq!(civil_from_days(days_from_civil(y, m, d)), (y, m, d));
        }
        assert_eq!(days_from_civil(1970, 1, 2), 1);
    }

    #[test]
    fn one_value_a_field_by_source_and_plausible_dates_only() {
        let html = r#"<html lang="en-GB"><head>
            <link rel="canonical" href="/2024/dock.html">
            <meta name="date" content="2024-04-30">
            <meta property="article:published_time" content="2024-05-01T08:30:00+02:00">
            <meta name="author" content="https://example.com/ada">
            <meta name="byl" content="Ada Crane">
            <meta property="article:modified_time" content="1970-01-01">
            <meta name="dcterms.modified" content="2031-01-01">
            <meta property="og:site_name" content="Harbor Notes">
            </head><body><p>Text</p></body></html>"#;
        let mut tree = build(html);
        tree.url = Some("https://news.example.com/a/b.html?x=1".into());
        let m = metadata_of(&tree, NOW);
        let s = |v: &str, source| {
            Some(Sourced {
                value: v.into(),
                source,
            })
        };
        assert_eq!(m.author, s("Ada Crane", MetaSource::Meta));
        assert_eq!(
            m.published,
            s("2024-05-01T08:30:00+02:00", MetaSource::OpenGraph)
        );
        assert_eq!(m.modified, None, "before 1990 and in the future: {m:?}");
        assert_eq!(m.site_name, s("Harbor Notes", MetaSource::OpenGraph));
        assert_eq!(
            m.canonical_url,
            s(
                "https://news.example.com/2024/dock.html",
                MetaSource::LinkCanonical
            )
        );
        assert_eq!(m.language, s("en-GB", MetaSource::HtmlLang));
        let json = serde_json::to_string(&m).unwrap();
        assert!(
            json.contains(
                r#""published":{"value":"2024-05-01T08:30:00+02:00","source":"open-graph"}"#
            ),
            "{json}"
        );
        assert!(json.contains(r#""modified":null"#), "{json}");
    }

    #[test]
    fn a_date_in_the_address_when_none_is_declared() {
        let published = |html: &str, url: &str| {
            let mut tree = build(html);
            tree.url = Some(url.into());
            metadata_of(&tree, NOW).published
        };
        let bare = "<html><body><p>Text</p></body></html>";
        let url_path = |v: &str| {
            Some(Sourced {
                value: v.into(),
                source: MetaSource::UrlPath,
            })
        };
        assert_eq!(
            published(bare, "https://news.example/2021/11/14/walls/"),
            url_path("2021-11-14")
        );
        assert_eq!(
            published(bare, "https://news.example/blog/2021-11-14-walls"),
            url_path("2021-11-14")
        );
        // The canonical address's date first; a month alone, a file or an impossible day gives none.
        let canonical = r#"<html><head><link rel="canonical" href="https://news.example/2020/1/2/x">
            </head><body><p>Text</p></body></html>"#;
        assert_eq!(
            published(canonical, "https://news.example/2021/11/14/walls/"),
            url_path("2020-01-02")
        );
        assert_eq!(published(bare, "https://news.example/2021/11/walls"), None);
        assert_eq!(
            published(bare, "file:///home/me/2021/11/14/walls.html"),
            None
        );
        assert_eq!(published(bare, "https://news.example/2021/02/30/x"), None);
        // A junk date of a better source passes to the next source, not to nothing.
        let junk = r#"<html><head><script type="application/ld+json">{"@type":"NewsArticle",
            "datePublished":"0001-01-01T00:00:00Z"}</script>
            <meta property="article:published_time" content="2021-11-13"></head>
            <body><p>Text</p></body></html>"#;
        assert_eq!(
            published(junk, "https://news.example/2021/11/14/walls/"),
            Some(Sourced {
                value: "2021-11-13".into(),
                source: MetaSource::OpenGraph
            })
        );
        // A declared date wins over the address's.
        let declared = r#"<html><head><meta name="date" content="2021-11-15"></head>
            <body><p>Text</p></body></html>"#;
        assert_eq!(
            published(declared, "https://news.example/2021/11/14/walls/").map(|s| s.source),
            Some(MetaSource::Meta)
        );
    }
}
