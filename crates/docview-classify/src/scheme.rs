//! Formal subject schemes (004 §2: the classification code "always relies on a formal
//! classification scheme"): a scheme's name and its subjects, each a stable code and a label.
//! The default is the top level of the IPTC Media Topics (17 subjects, `medtop:01000000` to
//! `medtop:17000000`; IPTC, CC BY 4.0, <https://cv.iptc.org/newscodes/mediatopic/>); a user's
//! own scheme is a file of `code<TAB>label` lines ([`SubjectScheme::read`]).

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::{Error, Result};

/// One subject of a scheme.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subject {
    /// Its code, as the record's classification code carries it (`medtop:15000000`).
    pub code: String,
    /// Its label (`sport`).
    pub label: String,
}

/// A formal subject scheme: its name and its subjects, in the file's order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubjectScheme {
    /// Its name (`iptc-mediatopic`).
    pub name: String,
    /// Its subjects, each code once.
    pub subjects: Vec<Subject>,
}

/// The name of the built-in scheme.
pub const IPTC_SCHEME: &str = "iptc-mediatopic";

/// The top level of the IPTC Media Topics.
const IPTC_TOP_LEVEL: [(&str, &str); 17] = [
    ("medtop:01000000", "arts, culture, entertainment and media"),
    ("medtop:02000000", "crime, law and justice"),
    (
        "medtop:03000000",
        "disaster, accident and emergency incident",
    ),
    ("medtop:04000000", "economy, business and finance"),
    ("medtop:05000000", "education"),
    ("medtop:06000000", "environment"),
    ("medtop:07000000", "health"),
    ("medtop:08000000", "human interest"),
    ("medtop:09000000", "labour"),
    ("medtop:10000000", "lifestyle and leisure"),
    ("medtop:11000000", "politics"),
    ("medtop:12000000", "religion"),
    ("medtop:13000000", "science and technology"),
    ("medtop:14000000", "society"),
    ("medtop:15000000", "sport"),
    ("medtop:16000000", "conflict, war and peace"),
    ("medtop:17000000", "weather"),
];

impl SubjectScheme {
    /// The top level of the IPTC Media Topics, the default scheme.
    pub fn iptc() -> SubjectScheme {
        SubjectScheme {
            name: IPTC_SCHEME.to_string(),
            subjects: IPTC_TOP_LEVEL
                .iter()
                .map(|(code, label)| Subject {
                    code: code.to_string(),
                    label: label.to_string(),
                })
                .collect(),
        }
    }

    /// Reads a scheme file: one subject a line, `code<TAB>label`; blank lines and lines
    /// starting with `#` are skipped, but a line `# scheme: NAME` names the scheme (otherwise
    /// the file's stem does). Errors name the file and the line.
    pub fn read(path: &Path) -> Result<SubjectScheme> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.display().to_string(),
            source,
        })?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        SubjectScheme::parse(&text, &stem, &path.display().to_string())
    }

    /// Parses a scheme file's text (see [`SubjectScheme::read`]); `name` is its name unless a
    /// `# scheme:` line gives one, `source_name` names it in errors.
    pub fn parse(text: &str, name: &str, source_name: &str) -> Result<SubjectScheme> {
        let bad = |line: usize, reason: String| Error::Scheme {
            source_name: source_name.to_string(),
            line,
            reason,
        };
        let mut scheme = SubjectScheme {
            name: name.to_string(),
            subjects: Vec::new(),
        };
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() {
                continue;
            }
            if let Some(comment) = trimmed.strip_prefix('#') {
                if let Some(n) = comment.trim().strip_prefix("scheme:") {
                    let n = n.trim();
                    if n.is_empty() {
                        return Err(bad(line, "`# scheme:` without a name".to_string()));
                    }
                    scheme.name = n.to_string();
                }
                continue;
            }
            let Some((code, label)) = raw.split_once('\t') else {
                return Err(bad(line, format!("{trimmed:?} is not `code<TAB>label`")));
            };
            let (code, label) = (code.trim(), label.trim());
            if code.is_empty() || label.is_empty() {
                return Err(bad(line, "an empty code or label".to_string()));
            }
            if code.chars().any(char::is_whitespace) {
                return Err(bad(line, format!("the code {code:?} holds a space")));
            }
            if scheme.subject(code).is_some() {
                return Err(bad(line, format!("the code {code:?} is given twice")));
            }
            scheme.subjects.push(Subject {
                code: code.to_string(),
                label: label.to_string(),
            });
        }
        if scheme.name.trim().is_empty() {
            return Err(bad(
                0,
                "the scheme has no name (give `# scheme: NAME`)".into(),
            ));
        }
        if scheme.subjects.len() < 2 {
            return Err(bad(
                0,
                format!(
                    "{} subject(s): a scheme needs at least two `code<TAB>label` lines",
                    scheme.subjects.len()
                ),
            ));
        }
        Ok(scheme)
    }

    /// The subject of `code`, if the scheme has it.
    pub fn subject(&self, code: &str) -> Option<&Subject> {
        self.subjects.iter().find(|s| s.code == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_iptc_top_level_has_seventeen_codes_in_order() {
        let s = SubjectScheme::iptc();
        assert_eq!(s.name, "iptc-mediatopic");
        assert_eq!(s.subjects.len(), 17);
        assert_eq!(s.subject("medtop:15000000").unwrap().label, "sport");
        let codes: Vec<&str> = s.subjects.iter().map(|s| s.code.as_str()).collect();
        let mut sorted = codes.clone();
        sorted.sort();
        assert_eq!(codes, sorted);
    }

    #[test]
    fn a_scheme_file_reads_its_name_and_subjects_and_errors_name_the_line() {
        let text = "# scheme: colours\n# a comment\n\nred\tthe colour red\nblue\tblue\n";
        let s = SubjectScheme::parse(text, "file-stem", "c.tsv").unwrap();
        assert_eq!(s.name, "colours");
        assert_eq!(s.subjects.len(), 2);
        assert_eq!(s.subject("red").unwrap().label, "the colour red");
        let s = SubjectScheme::parse("a\tA\nb\tB\n", "stem", "c.tsv").unwrap();
        assert_eq!(s.name, "stem");

        let e = SubjectScheme::parse("a\tA\nb B\n", "s", "c.tsv")
            .unwrap_err()
            .to_string();
        assert!(e.contains("c.tsv:2") && e.contains("code<TAB>label"), "{e}");
        let e = SubjectScheme::parse("a\tA\na\tB\n", "s", "c.tsv")
            .unwrap_err()
            .to_string();
        assert!(e.contains("c.tsv:2") && e.contains("twice"), "{e}");
        let e = SubjectScheme::parse("a\tA\n", "s", "c.tsv")
            .unwrap_err()
            .to_string();
        assert!(e.contains("at least two"), "{e}");
        let e = SubjectScheme::read(Path::new("/no/such/scheme.tsv"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("/no/such/scheme.tsv"), "{e}");
    }
}
