//! What a page declares about itself beyond its title: its author, when it was published and
//! last modified, and the site's name, as its head's meta tags, its Open Graph properties, its
//! JSON-LD and its microdata (`itemprop`) write them. The tree keeps each declaration as
//! written, with where it came from; choosing one value per field and reading dates is the
//! extraction stage's (`docview_extract::metadata`).

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
pub(crate) const MAX_DECLARED: usize = 64;

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
                push(DeclaredField::Author, map.get("author").and_then(name_of));
                push(
                    DeclaredField::Published,
                    map.get("datePublished").and_then(|v| v.as_str()),
                );
                push(
                    DeclaredField::Modified,
                    map.get("dateModified").and_then(|v| v.as_str()),
                );
                push(
                    DeclaredField::SiteName,
                    map.get("publisher").and_then(name_of),
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
fn name_of(v: &serde_json::Value) -> Option<&str> {
    match v {
        serde_json::Value::String(s) => Some(s),
        serde_json::Value::Object(m) => m.get("name").and_then(|n| n.as_str()),
        serde_json::Value::Array(a) => a.iter().find_map(name_of),
        _ => None,
    }
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
