//! What a page declares about itself beyond its `<title>`: its author, when it was published and
//! last modified, the site's name, its headline, description and main image, its sections and
//! tags, as its head's meta tags, its Open Graph properties, its JSON-LD and its microdata
//! (`itemprop`) write them. The tree keeps each declaration as
//! written, with where it came from; choosing one value per field and reading dates is the
//! extraction stage's (`docview_extract::metadata`).

use std::collections::HashMap;

use serde::Serialize;

/// A field a page may declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeclaredField {
    /// Who wrote the page.
    Author,
    /// An organisation credited as its author (a JSON-LD author of an `Organization` type):
    /// the page's author only where no person is credited.
    AuthorOrganization,
    /// When it was first published.
    Published,
    /// When it was last modified.
    Modified,
    /// The name of the site it belongs to.
    SiteName,
    /// Its headline (`og:title`, JSON-LD `headline`), which may still carry the site's name.
    Title,
    /// Its summary (`og:description`, the `description` meta, JSON-LD `description`).
    Description,
    /// Its main image's address, not yet resolved (`og:image`, JSON-LD `image`).
    Image,
    /// A section or category it is filed under (`article:section`, JSON-LD `articleSection`).
    Section,
    /// One of its tags or keywords (`article:tag`, the `keywords` meta, JSON-LD `keywords`).
    Tag,
}

impl DeclaredField {
    /// Longest value kept of this field, in characters; a longer one is cut.
    pub(crate) fn max_chars(self) -> usize {
        match self {
            DeclaredField::Description => MAX_DESCRIPTION_CHARS,
            _ => MAX_DECLARED_CHARS,
        }
    }

    /// True for a field a page may give many values of (its sections and tags).
    pub fn is_list(self) -> bool {
        matches!(self, DeclaredField::Section | DeclaredField::Tag)
    }
}

/// Where a declaration came from, in the order a value is preferred.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeclaredSource {
    /// A schema.org object of a `<script type="application/ld+json">`.
    JsonLd,
    /// An Open Graph or article property meta (`og:site_name`, `article:published_time`).
    OpenGraph,
    /// A named meta tag (`author`, `date`, Dublin Core, ...).
    Meta,
    /// A microdata `itemprop` attribute with its value in `content` or `datetime`.
    Microdata,
    /// What the page shows its reader: a byline's name (`<a rel=author>`, an element whose
    /// class or id says byline or author, "By ..."), a `<time datetime>` in a byline or with
    /// `pubdate`.
    Visible,
    /// The text of an element that shows a date (a `<time>` without `datetime`, an element
    /// whose class or id has a word beginning with `date`), as written: read only when the
    /// page's first such dates agree (a listing's many dates are no page's date).
    VisibleText,
}

/// Words of a class or id that mark an element (or one of its three nearest ancestors) as a
/// byline or an article's dateline: its `<time datetime>` is the page's date.
const BYLINE_WORDS: [&str; 9] = [
    "byline",
    "author",
    "dateline",
    "publish",
    "posted",
    "entry-meta",
    "post-meta",
    "article-meta",
    "pubdate",
];

/// True when a class or id value, lowercase, names a byline or a dateline ([`BYLINE_WORDS`]).
pub(crate) fn byline_context(class_or_id: &str) -> bool {
    BYLINE_WORDS.iter().any(|w| class_or_id.contains(w))
}

/// What a byline's text may say before the name, lowercase.
const BYLINE_PREFIXES: [&str; 10] = [
    "written by",
    "authored by",
    "posted by",
    "reviewed by",
    "story by",
    "words by",
    "author:",
    "by:",
    "by",
    "von",
];

/// Words that are no part of a name: a byline's labels and roles, a site's buttons.
const NOT_NAME_WORDS: [&str; 37] = [
    "author",
    "authors",
    "written",
    "by",
    "sign",
    "read",
    "more",
    "about",
    "submitted",
    "editor",
    "reporter",
    "writer",
    "staff",
    "team",
    "admin",
    "coming",
    "soon",
    "topic",
    "the",
    "contributor",
    "senior",
    "owner",
    "comments",
    "share",
    "print",
    "from",
    "join",
    "us",
    "curator",
    "follow",
    "testimonial",
    "expert",
    "customer",
    "published",
    "commentator",
    "dealer",
    "resources",
];

/// True when a class or id value, as written, names an element that shows a date: a word
/// that begins with `date` (`date`, `post-date`, `dateline`, camelCase `articleDate`), or
/// `pubdate`, `update`, `published` (not `validate` or `candidate`).
pub(crate) fn date_class(class_or_id: &str) -> bool {
    let b = class_or_id.as_bytes();
    let starts_word = |i: usize| {
        i == 0
            || !b[i - 1].is_ascii_alphabetic()
            || b[i] == b'D'
            || (i >= 2 && b[i - 2..i].eq_ignore_ascii_case(b"up"))
            || (i >= 3 && b[i - 3..i].eq_ignore_ascii_case(b"pub"))
    };
    // Every element's class is asked: one pass over its bytes, a `d` looked at first.
    (0..b.len().saturating_sub(3)).any(|i| {
        (b[i] | 0x20) == b'd' && b[i + 1..i + 4].eq_ignore_ascii_case(b"ate") && starts_word(i)
    }) || b.windows(8).any(|w| w == b"ublished")
}

/// Most dates shown as text a page's tree keeps (the first ones): what the metadata compares.
pub(crate) const MAX_SHOWN_DATES: usize = 5;

/// Longest text of an element read as a date ([`DeclaredSource::VisibleText`]), in bytes.
pub(crate) const MAX_DATE_TEXT: usize = 80;

/// True when a class or id value names an author's element: one of its words (split at any
/// character not a letter or digit) is `author`, `authors` or `byline` (not `authorization`).
pub(crate) fn author_class(class_or_id: &str) -> bool {
    // Every element's class is asked: most hold neither word, which one pass tells.
    let b = class_or_id.as_bytes();
    if !b
        .windows(5)
        .any(|w| w.eq_ignore_ascii_case(b"uthor") || w.eq_ignore_ascii_case(b"yline"))
    {
        return false;
    }
    let word = |w: &str| {
        w.eq_ignore_ascii_case("author")
            || w.eq_ignore_ascii_case("authors")
            || w.eq_ignore_ascii_case("byline")
    };
    class_or_id
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| word(w) || camel_words_any(w, word))
}

/// True when one of the words of a camelCase name (`metaInfoAuthorList`: meta, Info, Author,
/// List) is one `pred` takes; every element's class is asked, so without allocating.
fn camel_words_any(name: &str, pred: impl Fn(&str) -> bool) -> bool {
    let b = name.as_bytes();
    let (mut start, mut split) = (0, false);
    for i in 1..b.len() {
        if b[i].is_ascii_uppercase() && b[i - 1].is_ascii_lowercase() {
            if pred(&name[start..i]) {
                return true;
            }
            (start, split) = (i, true);
        }
    }
    // A name with no capital inside is one word, asked already.
    split && pred(&name[start..])
}

/// Lowercase words that may stand inside a name (`Vincent van Gogh`, `Ana de la Cruz`).
const NAME_PARTICLES: [&str; 14] = [
    "de", "da", "di", "du", "del", "della", "der", "den", "van", "von", "la", "le", "y", "bin",
];

/// The name a byline's text gives: the text after a leading "By" ("Written by", "Author:",
/// ...; [`BYLINE_PREFIXES`]) up to a separator (`·`, `|`, `,`, `•`, a dash, " - ", " on "), when it
/// reads as a name: 2 to 5 words, each capitalised or a particle ([`NAME_PARTICLES`]), none a
/// label or role ([`NOT_NAME_WORDS`]), no digit, no `@` or address, at most 60 characters.
pub(crate) fn byline_name(text: &str) -> Option<String> {
    let folded = fold_space(text);
    let lower = folded.to_lowercase();
    let mut rest = folded.as_str();
    for prefix in BYLINE_PREFIXES {
        if lower.starts_with(prefix)
            && lower[prefix.len()..].starts_with([' ', ':'])
            && folded.is_char_boundary(prefix.len())
        {
            rest = folded[prefix.len()..].trim_start_matches([' ', ':']);
            break;
        }
    }
    let end = rest
        .find(['·', '|', ',', '•', '—', '–'])
        .into_iter()
        .chain(rest.find(" - "))
        .min()
        .unwrap_or(rest.len());
    let mut name = rest[..end].trim();
    if let Some(i) = name.find(" on ") {
        name = name[..i].trim();
    }
    let words: Vec<&str> = name.split_whitespace().collect();
    let word_ok = |w: &&str| {
        let bare = w
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        !NOT_NAME_WORDS.contains(&bare.as_str())
            && (w.chars().next().is_some_and(char::is_uppercase)
                || NAME_PARTICLES.contains(&bare.as_str()))
    };
    ((2..=5).contains(&words.len())
        && words.iter().all(word_ok)
        && name.chars().count() <= 60
        && !name.chars().any(|c| c.is_ascii_digit())
        && !name.contains('@')
        && !name.contains("://"))
    .then(|| name.to_string())
}

/// One declaration: a field, its value as written (trimmed), where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declared {
    /// What it declares.
    pub field: DeclaredField,
    /// The value as written, whitespace folded, at most 300 characters (`MAX_DECLARED_CHARS`;
    /// a description 1,000).
    pub value: Box<str>,
    /// Where it came from.
    pub source: DeclaredSource,
}

/// Longest value kept, in characters; a longer one is cut.
pub(crate) const MAX_DECLARED_CHARS: usize = 300;

/// Longest description kept, in characters.
pub(crate) const MAX_DESCRIPTION_CHARS: usize = 1000;

/// Most declarations kept per page: the first ones in document order.
pub(crate) const MAX_DECLARED: usize = 128;

/// Most values of one list field ([`DeclaredField::is_list`]) kept per page, so that a page's
/// hundred tags leave room for its byline.
pub(crate) const MAX_LIST_VALUES: usize = 32;

/// The field and source a meta tag's key (its `property`, `name` or `itemprop`, lowercase)
/// declares, if any.
pub(crate) fn meta_key(key: &str) -> Option<(DeclaredField, DeclaredSource)> {
    use DeclaredField::*;
    use DeclaredSource::*;
    Some(match key {
        "og:site_name" => (SiteName, OpenGraph),
        "article:published_time" => (Published, OpenGraph),
        "article:modified_time" | "og:updated_time" => (Modified, OpenGraph),
        "article:author" => (Author, OpenGraph),
        "author" | "byl" | "dc.creator" | "dcterms.creator" | "parsely-author"
        | "sailthru.author" | "citation_author" | "cxenseparse:author" => (Author, Meta),
        "date"
        | "pubdate"
        | "publishdate"
        | "publish-date"
        | "publish_date"
        | "dc.date"
        | "dc.date.issued"
        | "dcterms.issued"
        | "dcterms.created"
        | "sailthru.date"
        | "parsely-pub-date"
        | "citation_publication_date"
        | "citation_date"
        | "cxenseparse:recs:publishtime" => (Published, Meta),
        "dcterms.modified" | "dc.date.modified" | "last-modified" | "revised" => (Modified, Meta),
        "application-name" => (SiteName, Meta),
        "og:title" => (Title, OpenGraph),
        "twitter:title" | "dc.title" | "citation_title" => (Title, Meta),
        "og:description" => (Description, OpenGraph),
        "description" | "twitter:description" | "dc.description" => (Description, Meta),
        "og:image" | "og:image:url" | "og:image:secure_url" => (Image, OpenGraph),
        "twitter:image" | "twitter:image:src" => (Image, Meta),
        "article:section" => (Section, OpenGraph),
        "parsely-section" | "section" | "sailthru.section" | "prism.section" => (Section, Meta),
        "article:tag" => (Tag, OpenGraph),
        "keywords" | "news_keywords" | "parsely-tags" | "sailthru.tags" | "citation_keywords" => {
            (Tag, Meta)
        }
        _ => return None,
    })
}

/// Adds what a meta tag's `content` declares: a text escaped more than once for HTML
/// (`B&amp;amp;B`, which the parser makes `B&amp;B`) decoded up to twice more, and a keywords list (`boats, news`)
/// as its tags one by one.
pub(crate) fn push_meta(
    out: &mut Vec<Declared>,
    field: DeclaredField,
    content: &str,
    source: DeclaredSource,
) {
    let text = match field {
        DeclaredField::Published | DeclaredField::Modified | DeclaredField::Image => {
            std::borrow::Cow::Borrowed(content)
        }
        // Twice at most: `&amp;amp;#039;` has been seen.
        _ => match decode_entities(content) {
            std::borrow::Cow::Owned(once) => {
                std::borrow::Cow::Owned(decode_entities(&once).into_owned())
            }
            borrowed => borrowed,
        },
    };
    if field == DeclaredField::Tag {
        for tag in text.split(',') {
            push_declared(out, field, tag, source);
        }
    } else {
        push_declared(out, field, &text, source);
    }
}

/// The declarations of a `<meta name="parsely-page">`, whose content is a JSON object: its
/// `pub_date` and its `author` (or the first of its `authors`), as named meta tags.
pub(crate) fn parsely_page(content: &str, out: &mut Vec<Declared>) {
    let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(content)
    else {
        return;
    };
    if let Some(date) = map.get("pub_date").and_then(|d| d.as_str()) {
        push_declared(out, DeclaredField::Published, date, DeclaredSource::Meta);
    }
    let author = map
        .get("author")
        .or_else(|| map.get("authors"))
        .and_then(|a| match a {
            serde_json::Value::Array(list) => list.first().and_then(|x| x.as_str()),
            other => other.as_str(),
        });
    if let Some(author) = author {
        push_declared(out, DeclaredField::Author, author, DeclaredSource::Meta);
    }
}

/// The field an `itemprop` whose value is its element's text declares: an author, or a date
/// as [`itemprop`] reads it.
pub(crate) fn itemprop_in_text(name: &str) -> Option<DeclaredField> {
    let name = name.trim();
    if name.eq_ignore_ascii_case("author") || name.eq_ignore_ascii_case("creator") {
        Some(DeclaredField::Author)
    } else {
        itemprop(name)
    }
}

/// The field an `itemprop` declares, if any, its name compared without case and without
/// allocating (every element with an `itemprop` is asked).
pub(crate) fn itemprop(name: &str) -> Option<DeclaredField> {
    let name = name.trim();
    let is = |w: &str| name.eq_ignore_ascii_case(w);
    if is("datepublished") || is("datecreated") {
        Some(DeclaredField::Published)
    } else if is("datemodified") {
        Some(DeclaredField::Modified)
    } else {
        None
    }
}

/// The declarations of a parsed JSON-LD block: from each schema.org object (nested ones and
/// `@graph` included, in document order) its `author` (a name, an object's `name`, or the
/// first of a list), `datePublished`, `dateModified` and its `publisher`'s `name`. Objects of
/// comments and reviews are passed over: their authors and dates are not the page's.
pub(crate) fn json_ld(value: &serde_json::Value, out: &mut Vec<Declared>) {
    let names = named_ids(value);
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::Array(items) => stack.extend(items.iter().rev()),
            serde_json::Value::Object(map) => {
                let typed = |t: &str| match map.get("@type") {
                    Some(serde_json::Value::String(s)) => s.eq_ignore_ascii_case(t),
                    Some(serde_json::Value::Array(a)) => a
                        .iter()
                        .any(|x| x.as_str().is_some_and(|s| s.eq_ignore_ascii_case(t))),
                    _ => false,
                };
                if ["Comment", "Review", "Answer", "Question"]
                    .iter()
                    .any(|t| typed(t))
                {
                    continue;
                }
                // JSON-LD is script text, which the parser does not decode: a template that
                // escapes it for HTML (`&#038;`, `&quot;`, as WordPress does) is decoded here.
                let mut push = |field, value: Option<&str>| {
                    if let Some(value) = value {
                        push_declared(out, field, &decode_entities(value), DeclaredSource::JsonLd);
                    }
                };
                // The author, else the creator; an organisation apart from a person.
                if let Some((name, organisation)) = map
                    .get("author")
                    .or_else(|| map.get("creator"))
                    .and_then(|a| name_of(a, &names))
                {
                    let field = if organisation {
                        DeclaredField::AuthorOrganization
                    } else {
                        DeclaredField::Author
                    };
                    push(field, Some(name));
                }
                push(
                    DeclaredField::Published,
                    map.get("datePublished")
                        .or_else(|| map.get("dateCreated"))
                        .and_then(|v| v.as_str()),
                );
                push(
                    DeclaredField::Modified,
                    map.get("dateModified").and_then(|v| v.as_str()),
                );
                // What describes the page, from the object that is the page or its article
                // (a site's, a person's or an organisation's description is not the page's,
                // even where it has a headline).
                let site_object =
                    ["WebSite", "Person"].iter().any(|t| typed(t)) || is_organisation(map);
                if !site_object
                    && (map.contains_key("headline")
                        || ["WebPage", "ItemPage", "Report", "Recipe"]
                            .iter()
                            .any(|t| typed(t))
                        || types(map).any(|t| t.ends_with("Article") || t.ends_with("Posting")))
                {
                    push(
                        DeclaredField::Title,
                        map.get("headline").and_then(|v| v.as_str()),
                    );
                    push(
                        DeclaredField::Description,
                        map.get("description").and_then(|v| v.as_str()),
                    );
                    push(
                        DeclaredField::Image,
                        map.get("image").and_then(image_address),
                    );
                    for (field, key) in [
                        (DeclaredField::Section, "articleSection"),
                        (DeclaredField::Tag, "keywords"),
                    ] {
                        for value in map.get(key).into_iter().flat_map(list_values) {
                            push(field, Some(value));
                        }
                    }
                }
                // A publisher by reference is not followed: `og:site_name` names the site
                // better than the company behind it.
                push(
                    DeclaredField::SiteName,
                    map.get("publisher")
                        .and_then(|p| name_of(p, &HashMap::new()))
                        .map(|(name, _)| name),
                );
                for key in [
                    "@graph",
                    "mainEntity",
                    "mainEntityOfPage",
                    "itemListElement",
                ] {
                    if let Some(inner) = map.get(key) {
                        stack.push(inner);
                    }
                }
            }
            _ => {}
        }
    }
}

/// `text` with its character references (`&amp;`, `&#038;`, `&#x27;`) decoded, as the HTML
/// parser decodes them in text; an unknown or unterminated one stays as written.
pub(crate) fn decode_entities(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('&') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        // A reference is at most 32 bytes long, up to its `;`.
        let end = rest
            .char_indices()
            .take(33)
            .find(|(_, c)| *c == ';')
            .map(|(i, _)| i);
        let decoded = end.and_then(|end| {
            let body = &rest[1..end];
            let code = if let Some(num) = body.strip_prefix('#') {
                match num.strip_prefix(['x', 'X']) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok(),
                    None => num.parse::<u32>().ok(),
                }
                .map(|c| (c, 0))
            } else {
                html5ever::data::NAMED_ENTITIES.get(&rest[1..=end]).copied()
            }?;
            let first = char::from_u32(code.0).filter(|c| *c != '\0')?;
            Some((first, char::from_u32(code.1).filter(|c| *c != '\0'), end))
        });
        match decoded {
            Some((first, second, end)) => {
                out.push(first);
                out.extend(second);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// The `@type` names of a JSON-LD object.
fn types(map: &serde_json::Map<String, serde_json::Value>) -> impl Iterator<Item = &str> {
    let t = map.get("@type");
    let one = t.and_then(|t| t.as_str());
    let many = t.and_then(|t| t.as_array()).into_iter().flatten();
    one.into_iter().chain(many.filter_map(|x| x.as_str()))
}

/// An image's address: a string, an `ImageObject`'s `url` or `contentUrl`, or the first of a
/// list.
fn image_address(v: &serde_json::Value) -> Option<&str> {
    match v {
        serde_json::Value::String(s) => Some(s),
        serde_json::Value::Object(m) => m
            .get("url")
            .or_else(|| m.get("contentUrl"))
            .and_then(|u| u.as_str()),
        serde_json::Value::Array(a) => a.iter().find_map(image_address),
        _ => None,
    }
}

/// The values of a list field as JSON-LD writes them: a list of strings, or one string of
/// comma-separated values.
fn list_values(v: &serde_json::Value) -> Vec<&str> {
    match v {
        serde_json::Value::String(s) => s.split(',').collect(),
        serde_json::Value::Array(a) => a.iter().filter_map(|x| x.as_str()).collect(),
        _ => Vec::new(),
    }
}

/// True when a JSON-LD object is an organisation (`Organization`, `NewsMediaOrganization`,
/// `Corporation` ...), not a person.
fn is_organisation(map: &serde_json::Map<String, serde_json::Value>) -> bool {
    types(map).any(|t| t.ends_with("Organization") || t == "Corporation")
}

/// A person's or organisation's name: a string, an object's `name`, or the first of a list;
/// with true when it is an organisation's (an object of an organisation type).
fn name_of<'v>(
    v: &'v serde_json::Value,
    names: &HashMap<&'v str, (&'v str, bool)>,
) -> Option<(&'v str, bool)> {
    match v {
        serde_json::Value::String(s) => Some((s, false)),
        serde_json::Value::Object(m) => m
            .get("name")
            .and_then(|n| n.as_str())
            .map(|n| (n, is_organisation(m)))
            .or_else(|| {
                // A reference to an object of the same block (`{"@id": "#/schema/person/1"}`,
                // as WordPress's Yoast writes its authors): that object's name.
                let id = m.get("@id")?.as_str()?;
                names.get(id).copied()
            }),
        serde_json::Value::Array(a) => a.iter().find_map(|x| name_of(x, names)),
        _ => None,
    }
}

/// The `name` of every object of a JSON-LD block that has an `@id`, by that id, with true for
/// an organisation's.
fn named_ids(value: &serde_json::Value) -> HashMap<&str, (&str, bool)> {
    let mut names = HashMap::new();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::Array(items) => stack.extend(items.iter()),
            serde_json::Value::Object(map) => {
                if let (Some(id), Some(name)) = (
                    map.get("@id").and_then(|i| i.as_str()),
                    map.get("name").and_then(|n| n.as_str()),
                ) {
                    names.entry(id).or_insert((name, is_organisation(map)));
                }
                stack.extend(map.values());
            }
            _ => {}
        }
    }
    names
}

/// Text with its runs of whitespace made one space, trimmed: a declaration's value as kept.
pub(crate) fn fold_space(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Adds a declaration, its value folded and cut, unless it is empty or the page has
/// [`MAX_DECLARED`] already ([`MAX_LIST_VALUES`] of a list field).
pub(crate) fn push_declared(
    out: &mut Vec<Declared>,
    field: DeclaredField,
    value: &str,
    source: DeclaredSource,
) {
    if out.len() >= MAX_DECLARED
        || (field.is_list() && out.iter().filter(|d| d.field == field).count() >= MAX_LIST_VALUES)
    {
        return;
    }
    let folded: String = fold_space(value).chars().take(field.max_chars()).collect();
    if !folded.is_empty() {
        out.push(Declared {
            field,
            value: folded.into(),
            source,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build;

    fn declared(html: &str) -> Vec<(DeclaredField, String, DeclaredSource)> {
        build(html)
            .declared
            .into_iter()
            .map(|d| (d.field, d.value.into(), d.source))
            .collect()
    }

    #[test]
    fn a_byline_gives_the_name_and_the_date_the_reader_sees() {
        use DeclaredField::*;
        use DeclaredSource::Visible;
        // The README's sample page: a byline with a rel=author link and a <time datetime>;
        // the comments' names and dates are not the page's.
        let html = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../corpus-samples/sites/fieldnotes/stone-walls.html"
        ))
        .unwrap();
        let visible: Vec<_> = declared(&html)
            .into_iter()
            .filter(|d| d.2 == Visible)
            .collect();
        assert_eq!(
            visible,
            [
                (Author, "Joel Harkness".to_string(), Visible),
                (Author, "Joel Harkness".to_string(), Visible),
                (Published, "2021-11-14".to_string(), Visible),
            ]
        );
        // A listing's dates (no byline around them) are no page date.
        let listing = r#"<body><p class="meta">Nell Arbuthnot · <time datetime="2022-08-08">8 Aug</time></p>
            <div class="comment-author"><span class="byline">By Mal Greaves</span></div></body>"#;
        assert!(declared(listing).is_empty(), "{:?}", declared(listing));
        // A class that only begins like "author" is no byline.
        let auth = r#"<body><div class="authorization-box"><p>Authorization Resources</p></div>
            <span class="post-author">Written by<a href="/u/n">Sir Nuno</a></span></body>"#;
        assert_eq!(declared(auth), [(Author, "Sir Nuno".to_string(), Visible)]);
    }

    #[test]
    fn dates_shown_as_text_microdata_text_and_camel_case_bylines() {
        use DeclaredField::*;
        use DeclaredSource::*;
        let html = r#"<html><head>
            <meta name="parsely-page" content='{"title":"T","authors":["Mal Greaves"]}'>
            </head><body>
            <div class="metaInfoAuthorList"><a href="/a">Nell Arbuthnot</a></div>
            <span class="post-date">Published 29.12.2014</span><time>May 4, 2024</time>
            <span class="candidate-list">7 of 12</span><div class="articleDate">
            <p>A very long paragraph that is no date at all, though it holds the number 2014 and runs on and on past the limit</p></div>
            <span itemprop="datePublished">Dec 29, 2014</span>
            <div itemprop="author"><span>By Ada Crane - 29 December 2014</span></div>
            <div class="comments"><span class="date">Jan 1, 2015</span></div></body></html>"#;
        assert_eq!(
            declared(html),
            [
                (Author, "Mal Greaves".to_string(), Meta),
                (Author, "Nell Arbuthnot".to_string(), Visible),
                (Published, "Published 29.12.2014".to_string(), VisibleText),
                (Published, "May 4, 2024".to_string(), VisibleText),
                (Published, "Dec 29, 2014".to_string(), Microdata),
                (Author, "Ada Crane".to_string(), Microdata),
            ]
        );
        // A page that declares its date first: its shown dates are not looked for.
        let dated = html.replace(
            r#""authors""#,
            r#""pub_date":"2014-12-29T10:00:00Z","authors""#,
        );
        let d = declared(&dated);
        assert_eq!(d[0], (Published, "2014-12-29T10:00:00Z".to_string(), Meta));
        assert!(!d.iter().any(|x| x.2 == VisibleText), "{d:?}");
        assert!(date_class("post-date") && date_class("articleDate") && date_class("updated"));
        assert!(!date_class("candidate") && !date_class("validate-form") && !date_class("data"));
    }

    #[test]
    fn meta_text_escaped_twice_and_keyword_lists() {
        let html = r#"<html><head><meta property="og:title" content="Galena: a B&amp;amp;B town &amp;amp;#039;26">
            <meta name="keywords" content="inns, Illinois ,, travel">
            <meta property="og:image" content="/a.jpg?x=1&amp;amp;y=2"></head><body></body></html>"#;
        use DeclaredField::*;
        use DeclaredSource::*;
        assert_eq!(
            declared(html),
            [
                (Title, "Galena: a B&B town '26".to_string(), OpenGraph),
                (Tag, "inns".to_string(), Meta),
                (Tag, "Illinois".to_string(), Meta),
                (Tag, "travel".to_string(), Meta),
                (Image, "/a.jpg?x=1&amp;y=2".to_string(), OpenGraph),
            ]
        );
    }

    #[test]
    fn json_ld_organisation_authors_creators_and_creation_dates() {
        let html = r#"<html><head><script type="application/ld+json">[
            {"@type":"WebSite","author":{"@type":"Organization","name":"Verlag GmbH"}},
            {"@type":"NewsArticle","author":{"@type":"Person","name":"Ada Crane"},"dateCreated":"2024-05-01"},
            {"@type":"BlogPosting","creator":"Mal Greaves"}]</script></head>
            <body><p>Text</p></body></html>"#;
        use DeclaredField::*;
        use DeclaredSource::JsonLd;
        assert_eq!(
            declared(html),
            [
                (AuthorOrganization, "Verlag GmbH".to_string(), JsonLd),
                (Author, "Ada Crane".to_string(), JsonLd),
                (Published, "2024-05-01".to_string(), JsonLd),
                (Author, "Mal Greaves".to_string(), JsonLd),
            ]
        );
    }

    #[test]
    fn byline_names_are_names() {
        assert_eq!(
            byline_name("By Joel Harkness · 14 November 2021").as_deref(),
            Some("Joel Harkness")
        );
        assert_eq!(
            byline_name("Written By Angela Holliday-Bell").as_deref(),
            Some("Angela Holliday-Bell")
        );
        assert_eq!(
            byline_name("Author: Nick van Mead").as_deref(),
            Some("Nick van Mead")
        );
        assert_eq!(
            byline_name("by Ada Crane on May 4"),
            Some("Ada Crane".to_string())
        );
        for not in [
            "Written By",
            "Sign In",
            "Topic Author",
            "The Ritualist",
            "Posted 2024-05-01",
            "Claudio",
            "Read more about The Upwork Team",
            "jane@example.com Doe",
        ] {
            assert_eq!(byline_name(not), None, "{not}");
        }
        assert!(
            author_class("post-author") && author_class("byline") && !author_class("authorization")
        );
        assert!(author_class("metaInfoAuthorList") && author_class("authorBox x"));
        assert!(!author_class("AuthorizationForm") && !author_class("coauthored"));
    }

    #[test]
    fn json_ld_text_escaped_for_html_is_decoded() {
        assert_eq!(
            decode_entities("Full &#038; Part Time &quot;MBA&quot; &#x27;26 &amp c &bogus; &"),
            "Full & Part Time \"MBA\" '26 &amp c &bogus; &"
        );
        assert_eq!(decode_entities("&#0; &#xD800; &hellip;"), "&#0; &#xD800; …");
        let html = r#"<html><head><script type="application/ld+json">{"@type":"NewsArticle",
            "headline":"Rates &#038; fees: what &quot;free&quot; means","articleSection":["Money"],
            "keywords":"banks, fees ,rates"}</script></head><body><p>Text</p></body></html>"#;
        use DeclaredField::*;
        use DeclaredSource::JsonLd;
        assert_eq!(
            declared(html),
            [
                (Title, "Rates & fees: what \"free\" means".into(), JsonLd),
                (Section, "Money".into(), JsonLd),
                (Tag, "banks".into(), JsonLd),
                (Tag, "fees".into(), JsonLd),
                (Tag, "rates".into(), JsonLd),
            ]
        );
    }

    #[test]
    fn json_ld_references_are_resolved_in_their_graph() {
        // WordPress's Yoast form: the article names its author and publisher by `@id`; the
        // author's is read.
        let html = r#"<html><head><script type="application/ld+json">{"@context":"https://schema.org",
            "@graph":[{"@type":"Article","@id":"https://ex.example/a/#article",
              "author":{"@id":"https://ex.example/#/schema/person/1"},
              "publisher":{"@id":"https://ex.example/#organization"},"datePublished":"2024-05-01"},
             {"@type":"WebPage","@id":"https://ex.example/a/","name":"A page"},
             {"@type":"Organization","@id":"https://ex.example/#organization","name":"Harbor Notes"},
             {"@type":"Person","@id":"https://ex.example/#/schema/person/1","name":"Ada Crane"}]}
            </script></head><body><p>Text</p></body></html>"#;
        let d = declared(html);
        use DeclaredField::*;
        assert!(
            d.contains(&(Author, "Ada Crane".into(), DeclaredSource::JsonLd)),
            "{d:?}"
        );
        // A publisher by reference is not read: `og:site_name` names the site better than the
        // company behind it (Stack Exchange's sites all name Stack Overflow their publisher).
        assert!(!d.iter().any(|x| x.0 == SiteName), "{d:?}");
        // A reference to nothing the block names gives no author.
        let dangling = html.replace(r#""name":"Ada Crane""#, r#""jobTitle":"Editor""#);
        assert!(
            !declared(&dangling).iter().any(|x| x.0 == Author),
            "{:?}",
            declared(&dangling)
        );
    }

    #[test]
    fn meta_open_graph_json_ld_and_microdata() {
        let html = r#"<html><head>
            <meta property="og:site_name" content=" Harbor  Notes ">
            <meta name="author" content="Ada Crane">
            <meta property="article:published_time" content="2024-05-01T08:30:00+02:00">
            <meta name="viewport" content="width=device-width">
            <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
              {"@type":"NewsArticle","author":[{"@type":"Person","name":"Ada Crane"}],
               "datePublished":"2024-05-01","dateModified":"2024-05-03",
               "publisher":{"@type":"Organization","name":"Harbor Notes Ltd"}},
              {"@type":"Comment","author":"A reader","datePublished":"2024-06-01"}]}</script>
            </head><body><p>Text <time itemprop="dateModified" datetime="2024-05-04">May 4</time></p>
            </body></html>"#;
        let d = declared(html);
        use DeclaredField::*;
        use DeclaredSource::*;
        assert!(
            d.contains(&(SiteName, "Harbor Notes".into(), OpenGraph)),
            "{d:?}"
        );
        assert!(d.contains(&(Author, "Ada Crane".into(), Meta)), "{d:?}");
        assert!(d.contains(&(Published, "2024-05-01T08:30:00+02:00".into(), OpenGraph)));
        assert!(d.contains(&(Author, "Ada Crane".into(), JsonLd)), "{d:?}");
        assert!(
            d.contains(&(Modified, "2024-05-03".into(), JsonLd)),
            "{d:?}"
        );
        assert!(
            d.contains(&(SiteName, "Harbor Notes Ltd".into(), JsonLd)),
            "{d:?}"
        );
        assert!(
            d.contains(&(Modified, "2024-05-04".into(), Microdata)),
            "{d:?}"
        );
        assert!(
            !d.iter().any(|x| x.1 == "A reader" || x.1 == "2024-06-01"),
            "{d:?}"
        );
        assert_eq!(d.len(), 8, "{d:?}");
    }
}
