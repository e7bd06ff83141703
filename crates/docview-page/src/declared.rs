//! What a page declares about itself beyond its title: its author, when it was published and
//! last modified, and the site's name, as its head's meta tags, its Open Graph properties, its
//! JSON-LD and its microdata (`itemprop`) write them. The tree keeps each declaration as
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
    /// When it was first published.
    Published,
    /// When it was last modified.
    Modified,
    /// The name of the site it belongs to.
    SiteName,
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

/// True when a class or id value names an author's element: one of its words (split at any
/// character not a letter or digit) is `author`, `authors` or `byline` (not `authorization`).
pub(crate) fn author_class(class_or_id: &str) -> bool {
    class_or_id
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| {
            w.eq_ignore_ascii_case("author")
                || w.eq_ignore_ascii_case("authors")
                || w.eq_ignore_ascii_case("byline")
        })
}

/// Lowercase words that may stand inside a name (`Vincent van Gogh`, `Ana de la Cruz`).
const NAME_PARTICLES: [&str; 14] = [
    "de", "da", "di", "du", "del", "della", "der", "den", "van", "von", "la", "le", "y", "bin",
];

/// The name a byline's text gives: the text after a leading "By" ("Written by", "Author:",
/// ...; [`BYLINE_PREFIXES`]) up to a separator (`·`, `|`, `,`, `•`, a dash, " on "), when it
/// reads as a name: 2 to 5 words, each capitalised or a particle ([`NAME_PARTICLES`]), none a
/// label or role ([`NOT_NAME_WORDS`]), no digit, no `@` or address, at most 60 characters.
pub(crate) fn byline_name(text: &str) -> Option<String> {
    let folded: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
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
    /// The value as written, whitespace folded, at most 300 characters (`MAX_DECLARED_CHARS`).
    pub value: Box<str>,
    /// Where it came from.
    pub source: DeclaredSource,
}

/// Longest value kept, in characters; a longer one is cut.
pub(crate) const MAX_DECLARED_CHARS: usize = 300;

/// Most declarations kept per page: the first ones in document order.
pub(crate) const MAX_DECLARED: usize = 128;

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
        | "sailthru.author" | "citation_author" => (Author, Meta),
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
        | "citation_date" => (Published, Meta),
        "dcterms.modified" | "dc.date.modified" | "last-modified" | "revised" => (Modified, Meta),
        "application-name" => (SiteName, Meta),
        _ => return None,
    })
}

/// The field an `itemprop` declares, if any.
pub(crate) fn itemprop(name: &str) -> Option<DeclaredField> {
    match name {
        "datepublished" => Some(DeclaredField::Published),
        "datemodified" => Some(DeclaredField::Modified),
        _ => None,
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
                let mut push = |field, value: Option<&str>| {
                    if let Some(value) = value {
                        push_declared(out, field, value, DeclaredSource::JsonLd);
                    }
                };
                push(
                    DeclaredField::Author,
                    map.get("author").and_then(|a| name_of(a, &names)),
                );
                push(
                    DeclaredField::Published,
                    map.get("datePublished").and_then(|v| v.as_str()),
                );
                push(
                    DeclaredField::Modified,
                    map.get("dateModified").and_then(|v| v.as_str()),
                );
                // A publisher by reference is not followed: `og:site_name` names the site
                // better than the company behind it.
                push(
                    DeclaredField::SiteName,
                    map.get("publisher")
                        .and_then(|p| name_of(p, &HashMap::new())),
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

/// A person's or organisation's name: a string, an object's `name`, or the first of a list.
fn name_of<'v>(v: &'v serde_json::Value, names: &HashMap<&'v str, &'v str>) -> Option<&'v str> {
    match v {
        serde_json::Value::String(s) => Some(s),
        serde_json::Value::Object(m) => m.get("name").and_then(|n| n.as_str()).or_else(|| {
            // A reference to an object of the same block (`{"@id": "#/schema/person/1"}`, as
            // WordPress's Yoast writes its authors): that object's name.
            let id = m.get("@id")?.as_str()?;
            names.get(id).copied()
        }),
        serde_json::Value::Array(a) => a.iter().find_map(|x| name_of(x, names)),
        _ => None,
    }
}

/// The `name` of every object of a JSON-LD block that has an `@id`, by that id.
fn named_ids(value: &serde_json::Value) -> HashMap<&str, &str> {
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
                    names.entry(id).or_insert(name);
                }
                stack.extend(map.values());
            }
            _ => {}
        }
    }
    names
}

/// Adds a declaration, its value folded and cut, unless it is empty or the page has
/// [`MAX_DECLARED`] already.
pub(crate) fn push_declared(
    out: &mut Vec<Declared>,
    field: DeclaredField,
    value: &str,
    source: DeclaredSource,
) {
    if out.len() >= MAX_DECLARED {
        return;
    }
    let folded: String = value
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(MAX_DECLARED_CHARS)
        .collect();
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
