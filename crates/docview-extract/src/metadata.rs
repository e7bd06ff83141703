//! A page's metadata: its title without the site's name, author, published and modified dates
//! (ISO 8601), site name, description, main image, categories and tags, canonical URL and
//! declared language, each with the source it was read from. The tag tree keeps every
//! declaration as written ([`docview_page::Declared`]); this module picks one value per field
//! (the values of one source for categories and tags), by source (JSON-LD, then Open Graph,
//! then named meta tags, then microdata, then what the page shows; the first in document order
//! within a source; for the site's name, Open Graph first), reads dates, dropping a date it cannot read, one before
//! [`EARLIEST_YEAR`], and one after the moment given as "now", and cuts the site's name off a
//! title ([`cut_site_name`]).

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
    /// A date the page shows as text (`<span class="date">May 4, 2024</span>`, a `<time>`
    /// without `datetime`), where its first such dates agree.
    VisibleText,
    /// A date in the page's URL path (`/2021/11/14/`).
    UrlPath,
    /// `<link rel=canonical>`.
    LinkCanonical,
    /// The `lang` attribute of `<html>`.
    HtmlLang,
    /// The page's `<title>` (a title cut at the site's name; a site's name cut from it).
    TitleTag,
    /// The page's headline, its `<h1>`.
    Headline,
}

impl From<DeclaredSource> for MetaSource {
    fn from(s: DeclaredSource) -> Self {
        match s {
            DeclaredSource::JsonLd => MetaSource::JsonLd,
            DeclaredSource::OpenGraph => MetaSource::OpenGraph,
            DeclaredSource::Meta => MetaSource::Meta,
            DeclaredSource::Microdata => MetaSource::Microdata,
            DeclaredSource::Visible => MetaSource::Visible,
            DeclaredSource::VisibleText => MetaSource::VisibleText,
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

/// Values of one source, in the page's order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourcedList {
    /// The values, each once (compared without case), at most 32.
    pub values: Vec<String>,
    /// Where they were read.
    pub source: MetaSource,
}

/// What a page says about itself; a field is absent when the page does not say it (or says it
/// in a form that cannot be read).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metadata {
    /// Its title without the site's name: its declared headline (JSON-LD `headline`,
    /// `og:title`, `twitter:title`), else its `<title>`, either cut at the site's name
    /// ([`cut_site_name`]) and, where parts remain, after the part that is its `<h1>`; else
    /// its `<h1>`.
    pub title: Option<Sourced>,
    /// Who wrote it.
    pub author: Option<Sourced>,
    /// When it was published.
    pub published: Option<Sourced>,
    /// When it was last modified.
    pub modified: Option<Sourced>,
    /// The name of its site (declared, else the part of the `<title>` that names the site).
    pub site_name: Option<Sourced>,
    /// Its summary, as declared.
    pub description: Option<Sourced>,
    /// Its main image (`og:image`, JSON-LD `image`), an absolute http(s) address.
    pub image: Option<Sourced>,
    /// The sections or categories it is filed under (`article:section`, JSON-LD
    /// `articleSection`).
    pub categories: Option<SourcedList>,
    /// Its tags (`article:tag`, JSON-LD `keywords`, the `keywords` meta).
    pub tags: Option<SourcedList>,
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
/// dropped as not yet happened. `headline` gives the page's `<h1>` headline, asked for only
/// when the page has no title, or parts are left in its title once the site's name is cut.
pub fn metadata_of(
    tree: &TagTree,
    headline: &dyn Fn() -> Option<String>,
    not_after: Day,
) -> Metadata {
    let pick = |field: DeclaredField, read: &dyn Fn(&str) -> Option<String>| {
        let mut best: Option<(DeclaredSource, Sourced)> = None;
        let declared = tree.declared.iter();
        for d in declared.filter(|d| d.field == field && d.source != DeclaredSource::VisibleText) {
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
        (!v.is_empty()).then(|| v.to_string())
    };
    // An address is not a name (`article:author` often links to a profile), nor is an e-mail
    // address.
    let name = |v: &str| -> Option<String> {
        text(v)
            .filter(|v| !v.starts_with("http://") && !v.starts_with("https://") && !v.contains('@'))
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
    let address = canonical_url
        .as_ref()
        .map(|c| c.value.as_str())
        .or(tree.url.as_deref());
    let published = pick(DeclaredField::Published, &date)
        .or_else(|| shown_date(tree, &date))
        .or_else(|| {
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
    // `og:site_name` names the site better than a JSON-LD publisher, often the company
    // behind it ("Blogger", a publishing house).
    let mut site_name = tree
        .declared
        .iter()
        .filter(|d| d.field == DeclaredField::SiteName && d.source == DeclaredSource::OpenGraph)
        .find_map(|d| name(&d.value))
        .map(|value| Sourced {
            value,
            source: MetaSource::OpenGraph,
        })
        .or_else(|| pick(DeclaredField::SiteName, &name));
    let host = address
        .and_then(|a| url::Url::parse(a).ok())
        .and_then(|u| u.host_str().map(str::to_ascii_lowercase));
    let site = SiteNames {
        name: site_name.as_ref().map(|s| s.value.as_str()),
        host: host.as_deref(),
    };
    // A person credited first; an organisation, or a name that is the site's ("GQ
    // Magazine" on gq.com, a meta author that names the paper), only where none is.
    let publishers: Vec<&str> = tree
        .declared
        .iter()
        .filter(|d| d.field == DeclaredField::SiteName)
        .map(|d| &*d.value)
        .collect();
    let person = |v: &str| {
        name(v).filter(|n| {
            !site.credits_itself(n) && !publishers.iter().any(|p| fold_key(p) == fold_key(n))
        })
    };
    let author = pick(DeclaredField::Author, &person)
        .or_else(|| pick(DeclaredField::AuthorOrganization, &name))
        .or_else(|| pick(DeclaredField::Author, &name));
    // The declared headline, else the <title>, each without the site's name and, when parts
    // remain ("Story - Section"), cut after the part that is the page's headline; else the
    // page's headline.
    let written = pick(DeclaredField::Title, &text).or_else(|| {
        text(&tree.title).map(|value| Sourced {
            value,
            source: MetaSource::TitleTag,
        })
    });
    let (title, site_part) = match written {
        Some(t) => {
            let (cut, part) = cut_site_name(&t.value, &site);
            let value = if title_parts(&cut).len() > 1 {
                headline()
                    .and_then(|h| headline_part(&cut, &h))
                    .unwrap_or(cut)
            } else {
                cut
            };
            (Some(Sourced { value, ..t }), part)
        }
        None => (
            headline().and_then(|h| text(&h)).map(|value| Sourced {
                value,
                source: MetaSource::Headline,
            }),
            None,
        ),
    };
    if site_name.is_none() {
        site_name = site_part.map(|value| Sourced {
            value,
            source: MetaSource::TitleTag,
        });
    }
    let base = address.and_then(|a| url::Url::parse(a).ok());
    let image = |v: &str| -> Option<String> {
        let v = v.trim();
        let url = match url::Url::parse(v) {
            Ok(u) => u,
            Err(_) => base.as_ref()?.join(v).ok()?,
        };
        matches!(url.scheme(), "http" | "https").then(|| url.to_string())
    };
    Metadata {
        title,
        author,
        published,
        modified: pick(DeclaredField::Modified, &date),
        site_name,
        description: pick(DeclaredField::Description, &text),
        image: pick(DeclaredField::Image, &image),
        categories: pick_list(tree, DeclaredField::Section),
        tags: pick_list(tree, DeclaredField::Tag),
        canonical_url,
        language,
    }
}

impl Metadata {
    /// The metadata as YAML front matter (between `---` lines, with a blank line after), as
    /// trafilatura writes it before Markdown: `title` (the page's title, `title`), `author`,
    /// `url` (the canonical address, else `url`), `hostname`, `description`, `sitename`,
    /// `date` (published), `modified`, `image`, `categories`, `tags`, `language`; a field the
    /// page does not give is left out. Strings are written double-quoted and lists in
    /// brackets, as JSON writes them, which YAML reads as they are.
    pub fn front_matter(&self, title: &str, url: Option<&str>) -> String {
        let quoted = |v: &str| serde_json::to_string(v).unwrap_or_else(|_| "\"\"".into());
        let value = |s: &Option<Sourced>| s.as_ref().map(|s| s.value.clone());
        let url = value(&self.canonical_url).or(url.map(str::to_string));
        let hostname = url
            .as_deref()
            .and_then(|u| url::Url::parse(u).ok())
            .and_then(|u| u.host_str().map(str::to_string));
        let mut out = String::from("---\n");
        let fields = [
            ("title", Some(title.to_string()).filter(|t| !t.is_empty())),
            ("author", value(&self.author)),
            ("url", url),
            ("hostname", hostname),
            ("description", value(&self.description)),
            ("sitename", value(&self.site_name)),
            ("date", value(&self.published)),
            ("modified", value(&self.modified)),
            ("image", value(&self.image)),
        ];
        for (key, v) in fields {
            if let Some(v) = v {
                out.push_str(&format!("{key}: {}\n", quoted(&v)));
            }
        }
        for (key, list) in [("categories", &self.categories), ("tags", &self.tags)] {
            if let Some(list) = list.as_ref().filter(|l| !l.values.is_empty()) {
                let items: Vec<String> = list.values.iter().map(|v| quoted(v)).collect();
                out.push_str(&format!("{key}: [{}]\n", items.join(", ")));
            }
        }
        if let Some(lang) = value(&self.language) {
            out.push_str(&format!("language: {}\n", quoted(&lang)));
        }
        out.push_str("---\n\n");
        out
    }
}

/// The values of a list field from its best source, each once (compared without case).
fn pick_list(tree: &TagTree, field: DeclaredField) -> Option<SourcedList> {
    let declared = || tree.declared.iter().filter(|d| d.field == field);
    let best = declared()
        .filter(|d| !d.value.trim().is_empty())
        .map(|d| d.source)
        .min()?;
    let mut values: Vec<String> = Vec::new();
    for d in declared().filter(|d| d.source == best) {
        let v = d.value.trim();
        if !v.is_empty() && !values.iter().any(|x| x.to_lowercase() == v.to_lowercase()) {
            values.push(v.to_string());
        }
    }
    Some(SourcedList {
        values,
        source: best.into(),
    })
}

/// What names a page's site: its declared name, its address's host.
#[derive(Debug, Clone, Copy, Default)]
pub struct SiteNames<'a> {
    /// The site's declared name (`og:site_name`, a JSON-LD publisher).
    pub name: Option<&'a str>,
    /// The host of the page's address, lowercase.
    pub host: Option<&'a str>,
}

impl SiteNames<'_> {
    /// True when `part` of a title names the site: it is the site's declared name or its host
    /// (`nj.com`), or one of the host's names (`Live Science` on www.livescience.com, `The
    /// Container Store` on containerstore.com), compared on letters and digits only, without
    /// case. A title's last part may also be the start of such a name (`MDN` of "MDN Web
    /// Docs", `React` on reactjs.org) or begin with it (`Nintendo Official Site` on
    /// nintendo.com); its first part only names the site whole.
    fn named_by(&self, part: &str, last: bool) -> bool {
        let key = fold_key(part);
        if key.is_empty() {
            return false;
        }
        let akin = |name: &str| {
            let name = fold_key(name);
            !name.is_empty()
                && (key == name
                    || key.strip_prefix("the") == Some(name.as_str())
                    || (last && key.len() >= 3 && name.starts_with(&key))
                    || (last
                        && name.len() >= 5
                        && key.starts_with(&name)
                        && part.split_whitespace().count() <= 4))
        };
        if self.name.is_some_and(akin) {
            return true;
        }
        let Some(host) = self.host else {
            return false;
        };
        let host = host.strip_prefix("www.").unwrap_or(host);
        let labels: Vec<&str> = host.split('.').collect();
        // The host, and every label but the last (the top-level domain).
        akin(host)
            || labels[..labels.len().saturating_sub(1)]
                .iter()
                .any(|l| l.len() >= 3 && akin(l))
    }

    /// True when an author's name is the site's: its declared name or one of its host's
    /// names, whole, after "The", or before at most two more words (`GQ Magazine` on gq.com,
    /// `n-tv NACHRICHTEN` on n-tv.de).
    fn credits_itself(&self, author: &str) -> bool {
        let key = fold_key(author);
        let words = author.split_whitespace().count();
        // Before more words only a long name, or one before a word a publication calls
        // itself by: a person's name may begin with a short host's ("John" on jo.com).
        let akin = |name: &str| {
            let name = fold_key(name);
            let more = key
                .strip_prefix(name.as_str())
                .filter(|rest| !rest.is_empty());
            name.len() >= 2
                && (key == name
                    || key.strip_prefix("the") == Some(name.as_str())
                    || (words <= 3
                        && more.is_some_and(|rest| {
                            name.len() >= 5 || PUBLICATION_WORDS.contains(&rest)
                        })))
        };
        let host_names = self.host.into_iter().flat_map(|host| {
            let host = host.strip_prefix("www.").unwrap_or(host);
            let labels: Vec<&str> = host.split('.').collect();
            let named = labels.len().saturating_sub(1);
            std::iter::once(host).chain(
                labels
                    .into_iter()
                    .take(named)
                    .filter(|l| !GENERIC_LABELS.contains(l)),
            )
        });
        self.name.into_iter().chain(host_names).any(akin)
    }
}

/// Words a publication puts after its name when it signs as an author (`GQ Magazine`, `n-tv
/// Nachrichten`), lowercase.
const PUBLICATION_WORDS: [&str; 12] = [
    "magazine",
    "news",
    "nachrichten",
    "online",
    "staff",
    "team",
    "redaktion",
    "desk",
    "editors",
    "digital",
    "media",
    "newsroom",
];

/// Labels of a host that name no site (`co` of bbc.co.uk).
const GENERIC_LABELS: [&str; 12] = [
    "co", "com", "org", "net", "ac", "gov", "edu", "ne", "or", "www", "m", "news",
];

/// The date the page shows as text ([`MetaSource::VisibleText`]): the first of its shown dates
/// (the tree keeps the first five) when every one of them that reads gives the same day (a
/// listing's dates differ).
fn shown_date(tree: &TagTree, read: &dyn Fn(&str) -> Option<String>) -> Option<Sourced> {
    let days: Vec<String> = tree
        .declared
        .iter()
        .filter(|d| d.field == DeclaredField::Published && d.source == DeclaredSource::VisibleText)
        .filter_map(|d| read(&d.value))
        .collect();
    let first = days.first()?;
    days.iter()
        .all(|d| d.get(..10) == first.get(..10))
        .then(|| Sourced {
            value: first.clone(),
            source: MetaSource::VisibleText,
        })
}

/// Letters and digits of a text, lowercase: what two names are compared on.
fn fold_key(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// What stands between a title's parts: `Story | Site`, `Story - Site`, `Site » Story`.
const TITLE_SEPARATORS: [&str; 13] = [
    " | ", " - ", " – ", " — ", " -- ", " :: ", " · ", " • ", " » ", " « ", " ~ ", " ：", "：",
];

/// The byte ranges of a title's parts, between its [`TITLE_SEPARATORS`].
fn title_parts(title: &str) -> Vec<(usize, usize)> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < title.len() {
        if let Some(sep) = TITLE_SEPARATORS
            .iter()
            .find(|sep| title[i..].starts_with(**sep))
        {
            parts.push((start, i));
            i += sep.len();
            start = i;
        } else {
            i += title[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    parts.push((start, title.len()));
    parts
}

/// A title without the site's name: when its last part (or else its first) names the site
/// ([`SiteNames`]), the title without that part, and the part; else the title as it is.
/// `How a dry stone wall stays up — Fieldnotes` on www.fieldnotes.example gives `How a dry
/// stone wall stays up` and `Fieldnotes`.
pub fn cut_site_name(title: &str, site: &SiteNames<'_>) -> (String, Option<String>) {
    let parts = title_parts(title);
    if let [first, .., last] = parts.as_slice() {
        let second_start = parts[1].0;
        let before_last = parts[parts.len() - 2].1;
        let text = |(a, b): (usize, usize)| title[a..b].trim();
        if site.named_by(text(*last), true) && !text((0, before_last)).is_empty() {
            return (
                text((0, before_last)).to_string(),
                Some(text(*last).to_string()),
            );
        }
        if site.named_by(text(*first), false) && !text((second_start, title.len())).is_empty() {
            return (
                text((second_start, title.len())).to_string(),
                Some(text(*first).to_string()),
            );
        }
    }
    (title.to_string(), None)
}

/// The part of `title` before one of its separators that says what `headline` says (compared
/// on letters and digits), if any.
fn headline_part(title: &str, headline: &str) -> Option<String> {
    let key = fold_key(headline);
    let parts = title_parts(title);
    parts[..parts.len() - 1]
        .iter()
        .map(|(_, end)| title[..*end].trim())
        .find(|part| !key.is_empty() && fold_key(part) == key)
        .map(str::to_string)
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
/// `+0200`, the basic form `20240501T083000+0200`; a zone by a name other than UTC's or the US
/// ones, `EET`, gives the day), `20240501`, RFC 2822 (`Wed, 01 May 2024 08:30:00 GMT`, US
/// zone names too), English dates with the month's name (`March 27, 2025`, `Dec 19th 2025`,
/// `Wed Dec 17 2025 19:24:16 GMT+0000`), the day alone unless the zone is given; then, for a
/// date within other text (`Published: 29.12.2014, 10:00`), the day of its first date written
/// `YYYY-MM-DD` (or with `/` or `.`), `DD.MM.YYYY`, `YYYY年M月D日`, or `MM/DD/YYYY` and
/// `DD/MM/YYYY` where one of the two numbers is above 12. `None` otherwise (`09/10/2025` is
/// left unread: whether the month or the day comes first cannot be told).
pub fn iso_date(text: &str) -> Option<String> {
    let t = text.trim().trim_matches(['"', '\'']).trim();
    iso_like(t)
        .or_else(|| basic_iso(t))
        .or_else(|| rfc2822(t))
        .or_else(|| named_month(t))
        .or_else(|| day_in_text(t))
}

/// ISO 8601's basic form, `20180619T055000+0900`.
fn basic_iso(t: &str) -> Option<String> {
    let b = t.as_bytes();
    if b.len() < 15 || b[8] != b'T' || !b[..8].iter().chain(&b[9..15]).all(u8::is_ascii_digit) {
        return None;
    }
    iso_like(&format!(
        "{}-{}-{}T{}:{}:{}{}",
        &t[..4],
        &t[4..6],
        &t[6..8],
        &t[9..11],
        &t[11..13],
        &t[13..15],
        &t[15..]
    ))
}

/// The day of the first date written with numbers within `t` (see [`iso_date`]).
fn day_in_text(t: &str) -> Option<String> {
    let b = t.as_bytes();
    // Runs of digits with where they start and end.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            runs.push((start, i));
        } else {
            i += 1;
        }
    }
    let num = |(a, z): (usize, usize)| t[a..z].parse::<u32>().ok();
    let gap = |x: (usize, usize), y: (usize, usize)| &t[x.1..y.0];
    let day = |y: u32, m: u32, d: u32| {
        valid_day(y as i32, m, d)?;
        Some(format!("{y:04}-{m:02}-{d:02}"))
    };
    // A date stands apart: no letter or dot before it, no dot and digit after it (`v1.2.2024`
    // and `1.2.2024.3` are versions).
    let apart = |x: (usize, usize), z: (usize, usize)| {
        let before = t[..x.0].chars().next_back();
        let after = &t[z.1..];
        let version_before = before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '.');
        let version_after =
            after.starts_with('.') && after[1..].starts_with(|c: char| c.is_ascii_digit());
        !version_before && !version_after
    };
    for w in runs.windows(3) {
        let (x, y, z) = (w[0], w[1], w[2]);
        if !apart(x, z) {
            continue;
        }
        let (lx, ly, lz) = (x.1 - x.0, y.1 - y.0, z.1 - z.0);
        let (g1, g2) = (gap(x, y), gap(y, z));
        let year_first = lx == 4 && ly <= 2 && lz <= 2;
        let found = if year_first
            && ((g1 == g2 && matches!(g1, "-" | "/" | ".")) || (g1 == "年" && g2 == "月"))
        {
            day(num(x)?, num(y)?, num(z)?)
        } else if lx <= 2 && ly <= 2 && lz == 4 && g1 == g2 && matches!(g1, "." | "/") {
            let (a, b, y) = (num(x)?, num(y)?, num(z)?);
            match g1 {
                "." => day(y, b, a),
                _ if a > 12 && b <= 12 => day(y, b, a),
                _ if b > 12 && a <= 12 => day(y, a, b),
                _ => None,
            }
        } else {
            None
        };
        if found.is_some() {
            return found;
        }
    }
    None
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
    let rest = rest.trim();
    match zone(rest) {
        Some(zone) => Some(format!("{day}T{hh:02}:{mm:02}:{ss:02}{zone}")),
        // A zone by a name not read (`EET`, `CEST`): the day, which it does not move by more
        // than the day `plausible` allows.
        None if rest.len() <= 5 && rest.bytes().all(|b| b.is_ascii_uppercase()) => Some(day),
        None => None,
    }
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
            ("Thu, 09/25/2025 - 11:38", Some("2025-09-25")),
            ("09/10/2025", None),
            ("20180619T055000+0900", Some("2018-06-19T05:50:00+09:00")),
            ("2024-05-01T17:40:00EET", Some("2024-05-01")),
            ("Published: 29.12.2014, 10:00", Some("2014-12-29")),
            ("Posted on 2014/12/29 by staff", Some("2014-12-29")),
            ("2024年4月24日 10:00", Some("2024-04-24")),
            ("25/09/2025", Some("2025-09-25")),
            ("v1.2.2024", None),
            ("1.2.2024.3", None),
            ("May the fourth", None),
            ("2024-02-30", None),
            ("2024-13-01", None),
            ("yesterday", None),
            // A time that cannot be: the day alone.
            ("2024-05-01T25:00", Some("2024-05-01")),
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
        let m = metadata_of(&tree, &|| None, NOW);
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
            metadata_of(&tree, &|| None, NOW).published
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

    fn site<'a>(name: Option<&'a str>, host: Option<&'a str>) -> SiteNames<'a> {
        SiteNames { name, host }
    }

    #[test]
    fn a_title_loses_the_site_name_and_the_site_name_is_kept() {
        let cut = |t: &str, s: &SiteNames<'_>| cut_site_name(t, s);
        let owned = |a: &str, b: Option<&str>| (a.to_string(), b.map(str::to_string));
        // The host's name, whole or as its letters (`Live Science` on livescience.com, `nj.com`).
        assert_eq!(
            cut(
                "How a dry stone wall stays up — Fieldnotes",
                &site(None, Some("www.fieldnotes.example"))
            ),
            owned("How a dry stone wall stays up", Some("Fieldnotes"))
        );
        assert_eq!(
            cut(
                "Moon dust is sticky | Live Science",
                &site(None, Some("www.livescience.com"))
            ),
            owned("Moon dust is sticky", Some("Live Science"))
        );
        assert_eq!(
            cut(
                "Storm closes shore roads - nj.com",
                &site(None, Some("www.nj.com"))
            ),
            owned("Storm closes shore roads", Some("nj.com"))
        );
        assert_eq!(
            cut(
                "Office Organizers - The Container Store",
                &site(None, Some("www.containerstore.com"))
            ),
            owned("Office Organizers", Some("The Container Store"))
        );
        // The declared name, or the start of it, in the last place; a site first.
        assert_eq!(
            cut(
                "WebSocket - Web APIs | MDN",
                &site(Some("MDN Web Docs"), Some("developer.mozilla.org"))
            ),
            owned("WebSocket - Web APIs", Some("MDN"))
        );
        assert_eq!(
            cut(
                "Harbor Notes » Dredging starts",
                &site(Some("Harbor Notes"), None)
            ),
            owned("Dredging starts", Some("Harbor Notes"))
        );
        // Nothing names the site: the title as it is; a part is never all of it.
        for title in [
            "Storm closes shore roads - Weather",
            "Fieldnotes",
            "Pay-as-you-go plans compared",
        ] {
            assert_eq!(
                cut(title, &site(Some("Fieldnotes"), Some("fieldnotes.example"))),
                owned(title, None),
                "{title}"
            );
        }
        assert_eq!(
            cut(
                "Weather | Storm closes roads",
                &site(None, Some("weather.example"))
            ),
            owned("Storm closes roads", Some("Weather"))
        );
        // A first part only names the site whole: "News" is not newsweek.com.
        assert_eq!(
            cut("News - Storm", &site(None, Some("newsweek.com"))),
            owned("News - Storm", None)
        );
    }

    #[test]
    fn title_description_image_categories_and_tags_by_source() {
        let html = r#"<html><head><title>Dredging starts at the landing | Harbor Notes</title>
            <meta property="og:title" content="Dredging starts at the landing - Harbor Notes">
            <meta name="description" content="The town landing closes for a month.">
            <meta property="og:image" content="/img/dredger.jpg">
            <meta property="article:section" content="Town">
            <meta property="article:tag" content="harbor"><meta property="article:tag" content="Dredging">
            <meta property="article:tag" content="HARBOR">
            <meta name="keywords" content="boats, news">
            <meta property="og:site_name" content="Harbor Notes">
            </head><body><h1>Dredging starts at the landing</h1><p>Text</p></body></html>"#;
        let mut tree = build(html);
        tree.url = Some("https://harbor.example/2024/05/dredging".into());
        let m = metadata_of(&tree, &|| None, NOW);
        let s = |v: &str, source| {
            Some(Sourced {
                value: v.into(),
                source,
            })
        };
        assert_eq!(
            m.title,
            s("Dredging starts at the landing", MetaSource::OpenGraph)
        );
        assert_eq!(m.site_name, s("Harbor Notes", MetaSource::OpenGraph));
        assert_eq!(
            m.description,
            s("The town landing closes for a month.", MetaSource::Meta)
        );
        assert_eq!(
            m.image,
            s(
                "https://harbor.example/img/dredger.jpg",
                MetaSource::OpenGraph
            )
        );
        let list = |v: &[&str], source| {
            Some(SourcedList {
                values: v.iter().map(|x| x.to_string()).collect(),
                source,
            })
        };
        assert_eq!(m.categories, list(&["Town"], MetaSource::OpenGraph));
        // One source's values, each once: article:tag before the keywords meta.
        assert_eq!(m.tags, list(&["harbor", "Dredging"], MetaSource::OpenGraph));
        // Without a declared title: the <title> cut, its site part the site's name when none
        // is declared.
        let bare = r#"<html><head><title>Walls that stand — Fieldnotes</title></head>
            <body><p>Text</p></body></html>"#;
        let mut tree = build(bare);
        tree.url = Some("http://www.fieldnotes.example/walls/".into());
        let m = metadata_of(&tree, &|| None, NOW);
        assert_eq!(m.title, s("Walls that stand", MetaSource::TitleTag));
        assert_eq!(m.site_name, s("Fieldnotes", MetaSource::TitleTag));
        // No part names the site: cut after the part that is the page's headline.
        let sectioned = r#"<html><head><title>Walls that stand - Field craft - Notes</title>
            </head><body><p>Text</p></body></html>"#;
        let tree = build(sectioned);
        let headline = || Some("Walls That Stand".to_string());
        let m = metadata_of(&tree, &headline, NOW);
        assert_eq!(m.title, s("Walls that stand", MetaSource::TitleTag));
        assert_eq!(m.site_name, None);
        // No title at all: the headline.
        let m = metadata_of(&build("<body><p>Text</p></body>"), &headline, NOW);
        assert_eq!(m.title, s("Walls That Stand", MetaSource::Headline));
    }

    #[test]
    fn a_person_before_an_organisation_and_shown_dates_that_agree() {
        let author = |html: &str, url: &str| {
            let mut tree = build(html);
            tree.url = Some(url.into());
            metadata_of(&tree, &|| None, NOW).author
        };
        let person = r#"<html><head><meta name="author" content="GQ Magazine">
            <script type="application/ld+json">{"@type":"NewsArticle",
            "author":{"@type":"Organization","name":"Condé Nast"}}</script></head>
            <body><p class="byline">By Ada Crane</p></body></html>"#;
        assert_eq!(
            author(person, "https://www.gq.com/story/x"),
            Some(Sourced {
                value: "Ada Crane".into(),
                source: MetaSource::Visible
            })
        );
        // No person credited: the organisation, then the name that is the site's.
        let no_person = person.replace("By Ada Crane", "Photos");
        assert_eq!(
            author(&no_person, "https://www.gq.com/story/x").map(|a| a.value),
            Some("Condé Nast".into())
        );
        let site_only = r#"<html><head><meta name="author" content="GQ Magazine"></head>
            <body><p>Text</p></body></html>"#;
        assert_eq!(
            author(site_only, "https://www.gq.com/story/x").map(|a| a.value),
            Some("GQ Magazine".into())
        );
        // A shown date where the page's first shown dates agree; a listing's differ.
        let shown = |body: &str| {
            metadata_of(&build(&format!("<body>{body}</body>")), &|| None, NOW).published
        };
        assert_eq!(
            shown(
                r#"<span class="date">May 4, 2024</span><p>Text</p><span class="date">4 May 2024</span>"#
            ),
            Some(Sourced {
                value: "2024-05-04".into(),
                source: MetaSource::VisibleText
            })
        );
        assert_eq!(
            shown(
                r#"<li><span class="date">May 4, 2024</span></li><li><span class="date">May 2, 2024</span></li>"#
            ),
            None
        );
    }

    #[test]
    fn front_matter_is_yaml_of_what_the_page_gives() {
        let m = Metadata {
            author: Some(Sourced {
                value: "Ada \"Ace\" Crane".into(),
                source: MetaSource::Meta,
            }),
            tags: Some(SourcedList {
                values: vec!["harbor".into(), "dredging: 2024".into()],
                source: MetaSource::OpenGraph,
            }),
            ..Metadata::default()
        };
        assert_eq!(
            m.front_matter("Dredging: day one", Some("https://harbor.example/a")),
            "---\ntitle: \"Dredging: day one\"\nauthor: \"Ada \\\"Ace\\\" Crane\"\n\
             url: \"https://harbor.example/a\"\nhostname: \"harbor.example\"\n\
             tags: [\"harbor\", \"dredging: 2024\"]\n---\n\n"
        );
        assert_eq!(Metadata::default().front_matter("", None), "---\n---\n\n");
    }
}
