//! What identifies a page's input beside its origin, for what an ingest writes of the page
//! ([`InputIds`]): the WARC record's `WARC-Record-ID` and `WARC-Date`, and the other fields of
//! the JSON line it came from (a user's `id`), in the line's order. Written as JSON, each is a
//! field of its own, left out when the page has none; in a binary form (the spill between an
//! ingest's passes, read back only by docview) the three are always there, the line's fields
//! as their JSON text, since such a form cannot read a JSON value back without its schema.

use serde::de::Error as _;
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::jsonl::OrderedObject;
use super::raw::{JsonFields, RawPage};

/// The identity of a page's input beyond its origin.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InputIds {
    /// The WARC record's `WARC-Record-ID`, for a page read from a WARC.
    pub warc_record_id: Option<String>,
    /// The WARC record's `WARC-Date`, for a page read from a WARC.
    pub warc_date: Option<String>,
    /// The other fields of the JSON line the page came from, in the line's order, when it had
    /// any.
    pub input_fields: Option<JsonFields>,
}

impl InputIds {
    /// The identity of `raw`'s input.
    pub fn of(raw: &RawPage) -> InputIds {
        let warc = raw.warc.as_deref();
        InputIds {
            warc_record_id: warc.and_then(|w| w.record_id.clone()),
            warc_date: warc.and_then(|w| w.date.clone()),
            input_fields: raw.fields.as_deref().cloned(),
        }
    }

    /// The JSON line's other fields as one JSON object's text, in the line's order.
    pub fn input_fields_json(&self) -> Option<String> {
        let fields = self.input_fields.as_ref()?;
        // A map of strings to JSON values always serialises.
        serde_json::to_string(&InOrder(fields)).ok()
    }
}

const WARC_RECORD_ID: &str = "warc_record_id";
const WARC_DATE: &str = "warc_date";
const INPUT_FIELDS: &str = "input_fields";

/// A JSON line's fields written as a JSON object, in their order.
struct InOrder<'a>(&'a JsonFields);

impl Serialize for InOrder<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl Serialize for InputIds {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if !s.is_human_readable() {
            let fields = self.input_fields_json();
            return (&self.warc_record_id, &self.warc_date, fields).serialize(s);
        }
        let present = [
            self.warc_record_id.is_some(),
            self.warc_date.is_some(),
            self.input_fields.is_some(),
        ];
        let n = present.iter().filter(|p| **p).count();
        let mut st = s.serialize_struct("InputIds", n)?;
        match &self.warc_record_id {
            Some(id) => st.serialize_field(WARC_RECORD_ID, id)?,
            None => st.skip_field(WARC_RECORD_ID)?,
        }
        match &self.warc_date {
            Some(date) => st.serialize_field(WARC_DATE, date)?,
            None => st.skip_field(WARC_DATE)?,
        }
        match &self.input_fields {
            Some(fields) => st.serialize_field(INPUT_FIELDS, &InOrder(fields))?,
            None => st.skip_field(INPUT_FIELDS)?,
        }
        st.end()
    }
}

impl<'de> Deserialize<'de> for InputIds {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<InputIds, D::Error> {
        if !d.is_human_readable() {
            let (warc_record_id, warc_date, fields) =
                <(Option<String>, Option<String>, Option<String>)>::deserialize(d)?;
            let input_fields = match fields {
                Some(text) => Some(
                    serde_json::from_str::<OrderedObject>(&text)
                        .map_err(D::Error::custom)?
                        .0,
                ),
                None => None,
            };
            return Ok(InputIds {
                warc_record_id,
                warc_date,
                input_fields,
            });
        }
        #[derive(Deserialize)]
        struct Written {
            #[serde(default)]
            warc_record_id: Option<String>,
            #[serde(default)]
            warc_date: Option<String>,
            #[serde(default)]
            input_fields: Option<OrderedObject>,
        }
        let w = Written::deserialize(d)?;
        Ok(InputIds {
            warc_record_id: w.warc_record_id,
            warc_date: w.warc_date,
            input_fields: w.input_fields.map(|o| o.0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WarcIds;

    fn page(warc: Option<WarcIds>, fields: Option<JsonFields>) -> RawPage {
        RawPage {
            kind: crate::PageKind::Html,
            url: "http://a.example/".into(),
            bytes: b"<p>a</p>".to_vec(),
            http_charset: None,
            origin: "a".into(),
            warc: warc.map(Box::new),
            fields: fields.map(Box::new),
        }
    }

    #[test]
    fn json_names_what_a_page_has_and_keeps_the_lines_order() {
        let fields = vec![
            ("zid".to_string(), serde_json::json!("z-1")),
            (
                "batch".to_string(),
                serde_json::json!({"b": 2, "a": [1, null]}),
            ),
        ];
        let ids = InputIds::of(&page(None, Some(fields.clone())));
        let json = serde_json::to_string(&ids).unwrap();
        assert_eq!(
            json,
            r#"{"input_fields":{"zid":"z-1","batch":{"a":[1,null],"b":2}}}"#
        );
        let back: InputIds = serde_json::from_str(&json).unwrap();
        assert_eq!(back.input_fields.as_ref().unwrap()[0].0, "zid");
        assert_eq!(back, ids);

        let warc = WarcIds {
            record_id: Some("<urn:uuid:1>".into()),
            date: Some("2024-01-02T03:04:05Z".into()),
        };
        let ids = InputIds::of(&page(Some(warc), None));
        let json = serde_json::to_string(&ids).unwrap();
        assert_eq!(
            json,
            r#"{"warc_record_id":"<urn:uuid:1>","warc_date":"2024-01-02T03:04:05Z"}"#
        );
        assert_eq!(serde_json::from_str::<InputIds>(&json).unwrap(), ids);
        assert_eq!(serde_json::to_string(&InputIds::default()).unwrap(), "{}");
        assert_eq!(
            serde_json::from_str::<InputIds>("{}").unwrap(),
            InputIds::default()
        );
    }

    #[test]
    fn a_binary_form_reads_back_what_it_wrote() {
        let fields = vec![
            ("id".to_string(), serde_json::json!(7)),
            ("tags".to_string(), serde_json::json!(["x", "y"])),
        ];
        let warc = WarcIds {
            record_id: Some("<urn:uuid:2>".into()),
            date: None,
        };
        for ids in [
            InputIds::default(),
            InputIds::of(&page(Some(warc), Some(fields))),
        ] {
            let bytes = postcard::to_stdvec(&(1u8, &ids, 2u8)).unwrap();
            let back: (u8, InputIds, u8) = postcard::from_bytes(&bytes).unwrap();
            assert_eq!(back, (1, ids, 2));
        }
    }
}
