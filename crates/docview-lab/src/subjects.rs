//! Training and scoring the subject classifier (issue 45; 004 §2, §7.1 and Figure 5): the
//! classification code from a formal scheme ([`SubjectScheme`]), learnt from labelled text (a
//! JSON Lines file of sentences or documents with their subject codes) and labelled pages (a
//! labelled set's pages with a subject each from a JSON Lines file of `set`, `id` and
//! `subject`: the subjects read from the pages, or the distant labels of what they declare,
//! `models/subjects/`). Pages are cleaned by the default cleaner and read as the Formula 2
//! vector of their topic content or of the raw page ([`Source`]), as the genre classifier's
//! ([`crate::classify`]).
//!
//! Cross-validation is grouped by site: each fold's pages are classified by a model trained on
//! the other folds' pages and on every labelled text of the `train` and `dev` splits; the text
//! of the `test` split is classified by a model trained on every page and the other splits.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::classify::{ClassPage, labelled_pages};
use crate::eval::LabelledPage;
use crate::eval::blocks::site_folds_of;
use crate::{Error, Result};
use docview_classify::{
    ClassReport, Source, SubjectClassifier, SubjectExample, SubjectScheme, SubjectTraining,
};
use docview_measure::text_feature_vector;
use docview_text::{Analyzer, Language, detect_language};

/// Which part of a labelled text file a line belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TextSplit {
    /// Trained on (the default).
    #[default]
    Train,
    /// Trained on too.
    Dev,
    /// Held out: scored by a model trained on everything else.
    Test,
}

/// One labelled text: a sentence or a document and its subject.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelledText {
    /// The text.
    pub text: String,
    /// Its subject's code in the scheme.
    pub code: String,
    /// Its language (the line's `lang`, or detected from the text).
    pub language: Language,
    /// What it belongs with (a source document), which no fold splits.
    pub group: String,
    /// Its split.
    pub split: TextSplit,
}

/// Opens `path`, gunzipping when its name ends in `.gz`.
fn open_lines(path: &Path) -> Result<Box<dyn BufRead>> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let read: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(flate2::read::GzDecoder::new(file))
    } else {
        Box::new(file)
    };
    Ok(Box::new(BufReader::new(read)))
}

/// Each non-blank line of a JSON Lines file as `T`, with its line number; errors name the
/// file and the line.
fn json_lines<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<(usize, T)>> {
    let mut out = Vec::new();
    for (i, line) in open_lines(path)?.lines().enumerate() {
        let line = line.map_err(|e| Error::Labels {
            path: path.to_path_buf(),
            line: i + 1,
            reason: format!("cannot be read: {e}"),
        })?;
        if line.trim().is_empty() {
            continue;
        }
        let value = serde_json::from_str(&line).map_err(|e| Error::Labels {
            path: path.to_path_buf(),
            line: i + 1,
            reason: format!("not a labelled line: {e}"),
        })?;
        out.push((i + 1, value));
    }
    Ok(out)
}

/// The subject of a line, checked against the scheme.
fn checked_code(code: &str, scheme: &SubjectScheme, path: &Path, line: usize) -> Result<String> {
    match scheme.subject(code) {
        Some(s) => Ok(s.code.clone()),
        None => Err(Error::Labels {
            path: path.to_path_buf(),
            line,
            reason: format!(
                "the subject {code:?} is not a code of the scheme {} ({} ... {})",
                scheme.name,
                scheme.subjects.first().map_or("", |s| s.code.as_str()),
                scheme.subjects.last().map_or("", |s| s.code.as_str()),
            ),
        }),
    }
}

/// Reads a file of labelled text: JSON Lines (gzipped when its name ends in `.gz`) of
/// `{"text": ..., "subject": CODE}` with, optionally, `"lang"` (ISO 639-1), `"group"` and
/// `"split"` (`train`, `dev` or `test`). Every subject must be a code of `scheme`.
pub fn read_labelled_text(path: &Path, scheme: &SubjectScheme) -> Result<Vec<LabelledText>> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Line {
        text: String,
        subject: String,
        #[serde(default)]
        lang: Option<String>,
        #[serde(default)]
        group: Option<String>,
        #[serde(default)]
        split: TextSplit,
    }
    let lines: Vec<(usize, Line)> = json_lines(path)?;
    let mut out = Vec::with_capacity(lines.len());
    for (line, l) in lines {
        let code = checked_code(&l.subject, scheme, path, line)?;
        let language = match l.lang.as_deref() {
            Some(code) => Language::from_code(code).ok_or_else(|| Error::Labels {
                path: path.to_path_buf(),
                line,
                reason: format!("the language {code:?} is not an ISO 639-1 code docview knows"),
            })?,
            None => detect_language(&l.text),
        };
        out.push(LabelledText {
            text: l.text,
            code,
            language,
            group: l
                .group
                .unwrap_or_else(|| format!("{}:{line}", path.display())),
            split: l.split,
        });
    }
    Ok(out)
}

/// Reads the subjects of labelled pages from one file or more: JSON Lines of `{"set": NAME,
/// "id": FILE_ID, "subject": CODE}` (other fields are allowed and ignored), keyed by set name
/// and file id. A page given twice, in one file or two, is an error naming the line.
pub fn read_page_subjects(
    paths: &[PathBuf],
    scheme: &SubjectScheme,
) -> Result<BTreeMap<(String, String), String>> {
    #[derive(Deserialize)]
    struct Line {
        set: String,
        id: String,
        subject: String,
    }
    let mut out = BTreeMap::new();
    for path in paths {
        for (line, l) in json_lines::<Line>(path)? {
            let code = checked_code(&l.subject, scheme, path, line)?;
            if out.insert((l.set.clone(), l.id.clone()), code).is_some() {
                return Err(Error::Labels {
                    path: path.clone(),
                    line,
                    reason: format!("the page {}/{} is given twice", l.set, l.id),
                });
            }
        }
    }
    Ok(out)
}

/// The name a set is known by in a subjects file: its folder's name.
fn set_name(set: &str) -> String {
    Path::new(set)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| set.to_string())
}

/// The pages of `sets` (each set's folder and pages) that `subjects` gives a subject, read,
/// cleaned and vectorised; and the number of pages left out (no subject, no page in the HTML).
pub fn subject_pages(
    sets: &[(String, Vec<LabelledPage>)],
    subjects: &BTreeMap<(String, String), String>,
    threads: usize,
) -> Result<(Vec<ClassPage>, usize)> {
    labelled_pages(sets, threads, |set, page| {
        Ok(subjects
            .get(&(set_name(set), page.file_id.clone()))
            .cloned())
    })
}

/// How a subject model is trained and scored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SubjectSetup {
    /// The method and its parameters.
    pub training: SubjectTraining,
    /// Which vector of a page is read.
    pub source: Source,
    /// The weight of a labelled text in training (a page's is 1).
    pub text_weight: f32,
}

/// The training examples of `pages` (their `source` vectors) and `texts` (at `text_weight`).
fn examples<'a>(
    pages: impl Iterator<Item = &'a ClassPage>,
    texts: impl Iterator<Item = &'a TextVector>,
    setup: &SubjectSetup,
) -> Vec<SubjectExample> {
    pages
        .map(|p| SubjectExample {
            code: p.label.clone(),
            vector: p.vector(setup.source, 0.0),
            weight: 1.0,
        })
        .chain(texts.map(|t| SubjectExample {
            code: t.code.clone(),
            vector: t.vector.clone(),
            weight: setup.text_weight,
        }))
        .collect()
}

/// A labelled text as the classifier reads it.
#[derive(Debug, Clone)]
pub struct TextVector {
    /// Its subject.
    pub code: String,
    /// Its language.
    pub language: Language,
    /// Its split.
    pub split: TextSplit,
    /// Its Formula 2 vector (one block of weight 1).
    pub vector: docview_measure::FeatureVector,
}

/// The vectors of labelled texts.
pub fn text_vectors(texts: &[LabelledText]) -> Vec<TextVector> {
    let analyzer = Analyzer::new();
    texts
        .par_iter()
        .map(|t| TextVector {
            code: t.code.clone(),
            language: t.language,
            split: t.split,
            vector: text_feature_vector([(t.text.as_str(), 1.0)], &analyzer, t.language),
        })
        .collect()
}

/// Trains a subject model of `scheme` on every page and text given.
pub fn train_subjects(
    scheme: &SubjectScheme,
    pages: &[ClassPage],
    texts: &[TextVector],
    setup: &SubjectSetup,
) -> Result<SubjectClassifier> {
    let examples = examples(pages.iter(), texts.iter(), setup);
    Ok(SubjectClassifier::train(
        scheme,
        &examples,
        setup.training,
        setup.source,
    )?)
}

/// The subject a model gives a page's vector, whatever its score, and whether it reaches the
/// threshold.
fn best(model: &SubjectClassifier, v: &docview_measure::FeatureVector) -> (Option<String>, bool) {
    let of = model.classify(v);
    (of.best().map(|s| s.code.clone()), of.subject().is_some())
}

/// One labelled page as the cross-validation classified it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SubjectPrediction {
    /// Its set.
    pub set: String,
    /// Its file id.
    pub id: String,
    /// Its language.
    pub language: String,
    /// Its subject.
    pub subject: String,
    /// The subject of highest score by the model that did not see its site.
    pub predicted: Option<String>,
    /// Whether that score reached the model's threshold.
    pub given: bool,
}

/// What a subject cross-validation gives.
#[derive(Debug, Clone)]
pub struct SubjectCv {
    /// Each page's prediction, in page order.
    pub predictions: Vec<SubjectPrediction>,
    /// The labelled texts of the `test` split: (language, subject, predicted, given).
    pub texts: Vec<(String, String, Option<String>, bool)>,
}

impl SubjectCv {
    /// The report over the pages of `language` (all pages: `None`), by the subject of
    /// highest score.
    pub fn page_report(&self, language: Option<&str>) -> ClassReport {
        let pairs: Vec<(String, Option<String>)> = self
            .predictions
            .iter()
            .filter(|p| language.is_none_or(|l| p.language == l))
            .map(|p| (p.subject.clone(), p.predicted.clone()))
            .collect();
        ClassReport::of(&pairs)
    }

    /// The report over the test texts of `language` (all: `None`).
    pub fn text_report(&self, language: Option<&str>) -> ClassReport {
        let pairs: Vec<(String, Option<String>)> = self
            .texts
            .iter()
            .filter(|t| language.is_none_or(|l| t.0 == l))
            .map(|t| (t.1.clone(), t.2.clone()))
            .collect();
        ClassReport::of(&pairs)
    }

    /// The subjects of at least `min` pages, in code order.
    pub fn supported(&self, min: usize) -> Vec<String> {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for p in &self.predictions {
            *count.entry(p.subject.as_str()).or_default() += 1;
        }
        count
            .into_iter()
            .filter(|(_, n)| *n >= min)
            .map(|(c, _)| c.to_string())
            .collect()
    }

    /// Pages given a subject at the threshold, and how many of those are right.
    pub fn given(&self) -> (usize, usize) {
        let given = self.predictions.iter().filter(|p| p.given).count();
        let right = self
            .predictions
            .iter()
            .filter(|p| p.given && p.predicted.as_ref() == Some(&p.subject))
            .count();
        (given, right)
    }
}

/// The mean F1 of `report`'s classes among `subjects` (a subject the report lacks counts 0).
pub fn macro_f1_over(report: &ClassReport, subjects: &[String]) -> f64 {
    if subjects.is_empty() {
        return 0.0;
    }
    let sum: f64 = subjects
        .iter()
        .map(|s| {
            report
                .classes
                .iter()
                .position(|c| c == s)
                .map_or(0.0, |i| report.per_class[i].2)
        })
        .sum();
    sum / subjects.len() as f64
}

/// Site-grouped `folds`-fold cross-validation of a subject model over `pages`, with `texts`
/// of the train and dev splits in every fold's training and the test split scored by a model
/// trained on all the rest.
pub fn cross_validate_subjects(
    scheme: &SubjectScheme,
    pages: &[ClassPage],
    texts: &[TextVector],
    setup: &SubjectSetup,
    folds: usize,
) -> Result<SubjectCv> {
    let fold_of: BTreeMap<String, usize> =
        site_folds_of(pages.iter().map(|p| p.site.as_str()), folds);
    let trained: Vec<&TextVector> = texts
        .iter()
        .filter(|t| t.split != TextSplit::Test)
        .collect();
    let mut scored: Vec<(usize, Option<String>, bool)> = Vec::new();
    for f in 0..folds {
        let examples = examples(
            pages.iter().filter(|p| fold_of[&p.site] != f),
            trained.iter().copied(),
            setup,
        );
        let model = SubjectClassifier::train(scheme, &examples, setup.training, setup.source)?;
        scored.extend(
            pages
                .par_iter()
                .enumerate()
                .filter(|(_, p)| fold_of[&p.site] == f)
                .map(|(i, p)| {
                    let (predicted, given) = best(&model, &p.vector(setup.source, 0.0));
                    (i, predicted, given)
                })
                .collect::<Vec<_>>(),
        );
    }
    scored.sort_by_key(|s| s.0);
    let predictions = scored
        .into_iter()
        .map(|(i, predicted, given)| {
            let p = &pages[i];
            SubjectPrediction {
                set: p.set.clone(),
                id: p.id.clone(),
                language: p.language.code().to_string(),
                subject: p.label.clone(),
                predicted,
                given,
            }
        })
        .collect();
    let held_out: Vec<&TextVector> = texts
        .iter()
        .filter(|t| t.split == TextSplit::Test)
        .collect();
    let texts = if held_out.is_empty() {
        Vec::new()
    } else {
        let examples = examples(pages.iter(), trained.iter().copied(), setup);
        let model = SubjectClassifier::train(scheme, &examples, setup.training, setup.source)?;
        held_out
            .par_iter()
            .map(|t| {
                let (predicted, given) = best(&model, &t.vector);
                (
                    t.language.code().to_string(),
                    t.code.clone(),
                    predicted,
                    given,
                )
            })
            .collect()
    };
    Ok(SubjectCv { predictions, texts })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labelled_text_lines_are_read_and_their_errors_name_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let scheme = SubjectScheme::iptc();
        let path = dir.path().join("t.jsonl");
        std::fs::write(
            &path,
            "{\"text\":\"The striker scored twice.\",\"subject\":\"medtop:15000000\",\"lang\":\"en\",\"split\":\"test\"}\n\n\
             {\"text\":\"股市今天大涨\",\"subject\":\"medtop:04000000\",\"group\":\"g1\"}\n",
        )
        .unwrap();
        let t = read_labelled_text(&path, &scheme).unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(
            (t[0].language, t[0].split, t[0].code.as_str()),
            (Language::English, TextSplit::Test, "medtop:15000000")
        );
        assert_eq!(
            (t[1].language, t[1].split),
            (Language::Chinese, TextSplit::Train)
        );
        assert_eq!(t[1].group, "g1");
        assert!(t[0].group.ends_with("t.jsonl:1"), "{}", t[0].group);

        std::fs::write(&path, "{\"text\":\"x\",\"subject\":\"medtop:15000000\"}\n{\"text\":\"x\",\"subject\":\"sport\"}\n").unwrap();
        let e = read_labelled_text(&path, &scheme).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("\"sport\""), "{e}");
        std::fs::write(&path, "{\"txt\":\"x\",\"subject\":\"medtop:15000000\"}\n").unwrap();
        let e = read_labelled_text(&path, &scheme).unwrap_err().to_string();
        assert!(e.contains("line 1") && e.contains("txt"), "{e}");

        let labels = dir.path().join("p.jsonl");
        std::fs::write(
            &labels,
            "{\"set\":\"a-dev\",\"id\":\"1\",\"subject\":\"medtop:07000000\",\"via\":\"url_path:health\"}\n\
             {\"set\":\"a-dev\",\"id\":\"1\",\"subject\":\"medtop:07000000\"}\n",
        )
        .unwrap();
        let e = read_page_subjects(std::slice::from_ref(&labels), &scheme)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2") && e.contains("twice"), "{e}");
        // Two files together: a page of the first given again in the second.
        let first = dir.path().join("first.jsonl");
        let second = dir.path().join("second.jsonl");
        std::fs::write(
            &first,
            "{\"set\":\"a-dev\",\"id\":\"1\",\"subject\":\"medtop:07000000\"}\n",
        )
        .unwrap();
        std::fs::write(
            &second,
            "{\"set\":\"a-dev\",\"id\":\"2\",\"subject\":\"medtop:15000000\"}\n\
             {\"set\":\"a-dev\",\"id\":\"1\",\"subject\":\"medtop:15000000\"}\n",
        )
        .unwrap();
        let both = [first.clone(), second.clone()];
        let e = read_page_subjects(&both, &scheme).unwrap_err().to_string();
        assert!(
            e.contains("second.jsonl line 2") && e.contains("twice"),
            "{e}"
        );
        std::fs::write(
            &second,
            "{\"set\":\"a-dev\",\"id\":\"2\",\"subject\":\"medtop:15000000\"}\n",
        )
        .unwrap();
        let read = read_page_subjects(&both, &scheme).unwrap();
        assert_eq!(read.len(), 2);
        assert_eq!(
            read[&("a-dev".to_string(), "2".to_string())],
            "medtop:15000000"
        );
    }
}
