//! How well a classifier did: per-class precision, recall and F1 (004 Formulas 4-6), macro F1,
//! accuracy and the confusion matrix.

use serde::Serialize;

/// Per-class precision, recall and F1 (Formulas 4-6), macro F1, accuracy and the confusion
/// matrix of predictions against the truth.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassReport {
    /// The classes, sorted (rows and columns of `confusion`).
    pub classes: Vec<String>,
    /// `confusion[truth][predicted]`: pages; a page given no class is in no column.
    pub confusion: Vec<Vec<usize>>,
    /// Per class: (precision, recall, F1).
    pub per_class: Vec<(f64, f64, f64)>,
    /// Per class: its pages (given a class or not).
    pub actual: Vec<usize>,
    /// The mean F1 over the classes.
    pub macro_f1: f64,
    /// Pages whose predicted class is their class, over all pages.
    pub accuracy: f64,
    /// Pages scored.
    pub pages: usize,
}

impl ClassReport {
    /// The report of `(truth, predicted)` pairs; the classes are those of the truth and the
    /// predictions.
    pub fn of(pairs: &[(String, Option<String>)]) -> ClassReport {
        let mut classes: Vec<String> = pairs
            .iter()
            .flat_map(|(t, p)| std::iter::once(t.clone()).chain(p.clone()))
            .collect();
        classes.sort();
        classes.dedup();
        let at = |c: &str| classes.binary_search_by(|x| x.as_str().cmp(c)).unwrap_or(0);
        let mut confusion = vec![vec![0usize; classes.len()]; classes.len()];
        let mut right = 0;
        for (t, p) in pairs {
            if let Some(p) = p {
                confusion[at(t)][at(p)] += 1;
                right += usize::from(t == p);
            }
        }
        let mut actual = vec![0usize; classes.len()];
        for (t, _) in pairs {
            actual[at(t)] += 1;
        }
        let per_class: Vec<(f64, f64, f64)> = (0..classes.len())
            .map(|c| {
                let tp = confusion[c][c] as f64;
                let predicted: usize = confusion.iter().map(|row| row[c]).sum();
                let actual = actual[c];
                let p = if predicted > 0 {
                    tp / predicted as f64
                } else {
                    0.0
                };
                let r = if actual > 0 { tp / actual as f64 } else { 0.0 };
                let f = if p + r > 0.0 {
                    2.0 * p * r / (p + r)
                } else {
                    0.0
                };
                (p, r, f)
            })
            .collect();
        let macro_f1 = if classes.is_empty() {
            0.0
        } else {
            per_class.iter().map(|c| c.2).sum::<f64>() / classes.len() as f64
        };
        ClassReport {
            classes,
            confusion,
            per_class,
            actual,
            macro_f1,
            accuracy: if pairs.is_empty() {
                0.0
            } else {
                right as f64 / pairs.len() as f64
            },
            pages: pairs.len(),
        }
    }

    /// The report as a text table: per class P, R, F1 and pages, then macro F1 and accuracy,
    /// then the confusion matrix.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let w = self
            .classes
            .iter()
            .map(|c| c.len())
            .max()
            .unwrap_or(5)
            .max(9);
        s.push_str(&format!(
            "{:<w$} {:>9} {:>9} {:>9} {:>6}\n",
            "class", "precision", "recall", "F1", "pages"
        ));
        for ((c, (p, r, f)), n) in self.classes.iter().zip(&self.per_class).zip(&self.actual) {
            s.push_str(&format!("{c:<w$} {p:>9.4} {r:>9.4} {f:>9.4} {n:>6}\n"));
        }
        s.push_str(&format!(
            "macro F1 {:.4}, accuracy {:.4} ({} pages)\n",
            self.macro_f1, self.accuracy, self.pages
        ));
        let unclassified = self.pages - self.confusion.iter().flatten().sum::<usize>();
        if unclassified > 0 {
            s.push_str(&format!(
                "{unclassified} pages given no class (no term of the vocabulary)\n"
            ));
        }
        s.push_str(&format!(
            "confusion (rows: truth, columns: predicted)\n{:<w$}",
            ""
        ));
        for c in &self.classes {
            s.push_str(&format!(" {:>6}", &c[..c.len().min(6)]));
        }
        s.push('\n');
        for (c, row) in self.classes.iter().zip(&self.confusion) {
            s.push_str(&format!("{c:<w$}"));
            for n in row {
                s.push_str(&format!(" {n:>6}"));
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_report_follows_formulas_four_to_six() {
        let pairs: Vec<(String, Option<String>)> = [
            ("a", Some("a")),
            ("a", Some("b")),
            ("b", Some("b")),
            ("b", None),
        ]
        .iter()
        .map(|(t, p)| (t.to_string(), p.map(str::to_string)))
        .collect();
        let r = ClassReport::of(&pairs);
        assert_eq!(r.confusion, vec![vec![1, 1], vec![0, 1]]);
        // a: P 1/1, R 1/2; b: P 1/2, R 1/2.
        assert_eq!(r.per_class[0].0, 1.0);
        assert_eq!(r.per_class[0].1, 0.5);
        assert_eq!(r.per_class[1].0, 0.5);
        assert_eq!(r.per_class[1].1, 0.5);
        assert_eq!(r.accuracy, 0.5);
        assert!(r.render().contains("macro F1"));
    }
}
