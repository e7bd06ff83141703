//! What a page looks like beyond its words (issue 14's structural features): its page type,
//! its URL's words and the sizes of its parts, as terms a Formula 2 vector holds beside the
//! text's ([`PageShape::terms`], [`with_shape`]); the kNN reads them, and the trees read the
//! same shape as numbers.

use docview_measure::FeatureVector;

use crate::trees;

/// What a page looks like beyond its words (issue 14's structural features), as terms the
/// vector holds beside the text's: its page type of §4.1, the words of its URL's path, and
/// the sizes of its parts in powers of two.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PageShape {
    /// The page's web address, as the record or the page gave it; `None` when it has none (a
    /// local file that declares no `<link rel=canonical>` nor `og:url`): its URL features are
    /// then left out, not read from a file path.
    pub url: Option<String>,
    /// Its page type (004 §4.1): `topic`, `hub` or `image`.
    pub page_type: String,
    /// Links of its kept and hub blocks.
    pub links: usize,
    /// Words of its visible text.
    pub visible_words: usize,
    /// Words of its topic content.
    pub topic_words: usize,
    /// Paragraphs of its topic content.
    pub paragraphs: usize,
    /// Its hub blocks (link lists beside the topic content).
    pub hub_blocks: usize,
}

impl PageShape {
    /// The structural terms, sorted: `§type:topic`, `§url:WORD` for each word of 3 to 20
    /// letters of the URL's path (and `§url:?` for a query; none without a URL), `§links:N`, `§words:N`,
    /// `§paragraphs:N`, `§hubs:N` with `N = ⌊log₂(count + 1)⌋`, and `§share:D`, the topic
    /// content's tenth of the visible words.
    pub fn terms(&self) -> Vec<String> {
        let log = |x: usize| (x as f64 + 1.0).log2().floor() as u32;
        let mut out = vec![format!("§type:{}", self.page_type)];
        let (path, _, query) = trees::url_parts(self.url.as_deref().unwrap_or(""));
        for w in trees::words(path, 3) {
            out.push(format!("§url:{w}"));
        }
        if query {
            out.push("§url:?".to_string());
        }
        out.push(format!("§links:{}", log(self.links)));
        out.push(format!("§words:{}", log(self.topic_words)));
        out.push(format!("§paragraphs:{}", log(self.paragraphs)));
        out.push(format!("§hubs:{}", log(self.hub_blocks)));
        let share = self.topic_words as f64 / self.visible_words.max(1) as f64;
        out.push(format!(
            "§share:{}",
            (share * 10.0).floor().min(10.0) as u32
        ));
        out.sort();
        out.dedup();
        out
    }
}

/// `v` with `shape`'s terms beside its own at `weight` each, normalised again; `v` itself
/// when `weight` is 0.
pub fn with_shape(v: FeatureVector, shape: &PageShape, weight: f32) -> FeatureVector {
    if weight <= 0.0 {
        return v;
    }
    let mut features = v.features;
    features.extend(shape.terms().into_iter().map(|t| (t, weight)));
    features.sort_by(|a, b| a.0.cmp(&b.0));
    features.dedup_by(|b, a| {
        if a.0 == b.0 {
            a.1 += b.1;
            true
        } else {
            false
        }
    });
    FeatureVector { features }.normalised()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knn::tests::vector;

    #[test]
    fn a_page_shape_is_terms_of_its_type_url_and_sizes() {
        let shape = PageShape {
            url: Some("https://shop.example/products/garden-shears-2?ref=7".to_string()),
            page_type: "topic".to_string(),
            links: 12,
            visible_words: 1000,
            topic_words: 250,
            paragraphs: 3,
            hub_blocks: 0,
        };
        assert_eq!(
            shape.terms(),
            vec![
                "§hubs:0",
                "§links:3",
                "§paragraphs:2",
                "§share:2",
                "§type:topic",
                "§url:?",
                "§url:garden",
                "§url:products",
                "§url:shears",
                "§words:7",
            ]
        );
        // At weight 0 a vector is left as it is; above, the terms join it, unit length.
        let v = vector(&[("price", 1.0)]);
        assert_eq!(with_shape(v.clone(), &shape, 0.0), v);
        let with = with_shape(v, &shape, 0.3);
        assert_eq!(with.features.len(), 11);
        let norm: f32 = with.features.iter().map(|f| f.1 * f.1).sum();
        assert!((norm - 1.0).abs() < 1e-5);
    }
}
