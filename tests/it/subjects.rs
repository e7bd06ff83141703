//! The subject classifier (issue 45) end to end: `docview classify train --scheme` on the
//! labelled text shipped in `models/subjects/` (SIB-200's sentences mapped onto the IPTC Media
//! Topics), the model file read back, the bundled samples' pages cleaned and classified by it,
//! the cross-validation by site with topic content against the raw page, the refusals; and on
//! `../shared/corpus` (skipped when absent), the cross-validated macro F1 of the pages labelled by
//! reading them.

use std::path::Path;

use crate::common::{CORPUS, ROOT, SAMPLES, docview, docview_ok};
use docview::classifier::{SubjectClassifier, SubjectOf};
use docview::eval::load_set;
use docview::subjects::{read_page_subjects, subject_pages};

fn repo(path: &str) -> String {
    Path::new(ROOT).join(path).display().to_string()
}

/// A model trained on labelled sentences alone (no page) names its scheme from the scheme
/// file, and classifies the samples' two sports reports (one English, one Chinese) as sport,
/// every subject it gives one of the scheme's codes with its label.
#[test]
fn a_model_of_labelled_text_classifies_the_samples_pages() {
    let dir = tempfile::tempdir().unwrap();
    let model_path = dir.path().join("subjects.json.gz");
    let said = docview_ok(&[
        "classify",
        "train",
        "--scheme",
        &repo("models/subjects/iptc-mediatopic.tsv"),
        "--text",
        &repo("models/subjects/sib200.jsonl"),
        "--out",
        model_path.to_str().unwrap(),
    ]);
    assert!(said.contains("12 of its 17 subjects"), "{said}");
    let model = SubjectClassifier::load(&model_path).unwrap();
    assert_eq!(model.scheme.name, "iptc-mediatopic");
    assert_eq!(model.scheme.subjects.len(), 17);
    assert_eq!(model.classes.len(), 12);

    let labelled = Path::new(SAMPLES).join("labelled");
    let set = labelled.display().to_string();
    let subjects =
        read_page_subjects(&[Path::new(SAMPLES).join("subjects.jsonl")], &model.scheme).unwrap();
    let (pages, left_out) =
        subject_pages(&[(set, load_set(&labelled).unwrap())], &subjects, 2).unwrap();
    assert_eq!((pages.len(), left_out), (17, 18));
    let mut right = 0;
    for page in &pages {
        let verdict = model.classify(&page.topic);
        let code = match &verdict {
            SubjectOf::Subject(s) => {
                assert!(s.score >= model.threshold && s.score <= 1.0);
                let label = &model.scheme.subject(&s.code).unwrap().label;
                assert_eq!(&s.label, label);
                Some(s.code.clone())
            }
            SubjectOf::None { best, .. } => best.as_ref().map(|b| b.code.clone()),
        };
        right += usize::from(code.as_ref() == Some(&page.label));
        if ["0009", "0017"].contains(&page.id.as_str()) {
            let s = verdict.subject().unwrap_or_else(|| {
                panic!("{}: no subject ({verdict:?})", page.id);
            });
            assert_eq!(
                (s.code.as_str(), s.label.as_str()),
                ("medtop:15000000", "sport"),
                "{}",
                page.id
            );
        }
    }
    assert!(right >= 3, "{right} of 17 right");
}

/// `classify eval --scheme --folds` cross-validates by site and sets the raw page beside the
/// topic content, subject by subject; `--model` scores a model on the pages.
#[test]
fn subjects_are_cross_validated_on_topic_content_and_raw_pages() {
    let labelled = Path::new(SAMPLES).join("labelled");
    let out = docview_ok(&[
        "classify",
        "eval",
        "--scheme",
        "iptc",
        "--text",
        &repo("models/subjects/sib200.jsonl"),
        "--subjects",
        &format!("{SAMPLES}/subjects.jsonl"),
        labelled.to_str().unwrap(),
        "--folds",
        "2",
        "--compare-raw",
    ]);
    for wanted in [
        "2-fold cross-validation by site, logistic regression on tf-idf",
        "on topic vectors",
        "on raw vectors",
        "F1 per subject, topic content against the raw page (004 Figure 5):",
        "medtop:15000000",
        "labelled texts of the test split",
        "  de: ",
        "  zh: ",
    ] {
        assert!(out.contains(wanted), "{wanted:?} missing from:\n{out}");
    }
}

#[test]
fn subject_flags_and_files_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let scheme = dir.path().join("colours.tsv");
    std::fs::write(&scheme, "red\tRed\nblue Blue\n").unwrap();
    let text = repo("models/subjects/sib200.jsonl");
    let out_path = dir.path().join("m.json");
    let out = out_path.to_str().unwrap();
    let refused = |args: &[&str], wanted: &str| {
        let o = docview(args);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(err.contains(wanted), "{args:?}: {wanted:?} not in {err}");
        assert!(!out_path.exists(), "{args:?} wrote a model");
    };
    refused(
        &[
            "classify",
            "train",
            "--scheme",
            scheme.to_str().unwrap(),
            "--text",
            &text,
            "--out",
            out,
        ],
        "colours.tsv:2",
    );
    // The text's codes are IPTC's, not those of another scheme.
    std::fs::write(&scheme, "# scheme: colours\nred\tRed\nblue\tBlue\n").unwrap();
    refused(
        &[
            "classify",
            "train",
            "--scheme",
            scheme.to_str().unwrap(),
            "--text",
            &text,
            "--out",
            out,
        ],
        "sib200.jsonl line 1",
    );
    refused(
        &[
            "classify", "train", "--scheme", "iptc", "--method", "trees", "--text", &text, "--out",
            out,
        ],
        "--method trees",
    );
    refused(
        &[
            "classify",
            "train",
            "--method",
            "linear",
            &format!("{SAMPLES}/labelled"),
            "--out",
            out,
        ],
        "--scheme",
    );
    refused(
        &[
            "classify",
            "train",
            "--scheme",
            "iptc",
            &format!("{SAMPLES}/labelled"),
            "--out",
            out,
        ],
        "--subjects",
    );
}

/// On the pages of `../shared/corpus` labelled by reading them (models/subjects/read-labels.jsonl,
/// the confident labels), the default subject model cross-validated by site keeps its macro F1
/// over the subjects of at least 20 pages (0.8511 on topic content when recorded,
/// docs/figures/subjects.md), above the paper's bar of 0.70 with room for noise.
#[test]
fn subjects_cross_validated_on_the_corpus_keep_their_macro_f1() {
    let corpus = Path::new(CORPUS);
    if !corpus.is_dir() {
        println!("skipping: ../shared/corpus not found");
        return;
    }
    let sets: Vec<String> = [
        "wcxb-dev",
        "dragnet-dev",
        "zh-news-dev",
        "readability-dev",
        "fundus-dev",
        "newspaper-dev",
        "cx163-zh-dev",
        "gne-zh-dev",
    ]
    .iter()
    .map(|s| corpus.join(s).display().to_string())
    .collect();
    let mut args = vec![
        "classify".to_string(),
        "eval".into(),
        "--scheme".into(),
        "iptc".into(),
        "--text".into(),
        repo("models/subjects/sib200.jsonl"),
        "--subjects".into(),
        repo("models/subjects/read-labels.jsonl"),
        "--folds".into(),
        "5".into(),
    ];
    args.extend(sets);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = docview_ok(&args);
    let line = out
        .lines()
        .find(|l| l.starts_with("macro F1 over the 9 subjects of at least 20 pages: "))
        .unwrap_or_else(|| panic!("no macro F1 line in:\n{out}"));
    let f1: f64 = line.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(f1 >= 0.83, "{line}");
}
