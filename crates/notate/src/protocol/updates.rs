//! Generic updates: `{"op":"add"|"remove"|"update","key":"…","value":…}` applied to a JSON
//! document, so a server can send changes instead of whole documents.
//!
//! A key is a path of property names joined by `.`; a number indexes an array
//! (`games.0.white.rating`); `name:ID` picks the element of array `name` whose `id` is ID
//! (`tournaments:t42.players`), which stays right when elements move. A key that does not
//! resolve is an error naming the part that failed, and the document is left as it was.
//!
//! ```
//! use notate::protocol::updates::Update;
//! use serde_json::json;
//! let mut doc = json!({"tournaments": [{"id": "t42", "round": 1, "players": []}]});
//! let update: Update = serde_json::from_str(r#"{"op":"update","key":"tournaments:t42.round","value":2}"#).unwrap();
//! update.apply(&mut doc).unwrap();
//! assert_eq!(doc["tournaments"][0]["round"], 2);
//! let bad: Update = serde_json::from_str(r#"{"op":"add","key":"tournaments:t7.players","value":{}}"#).unwrap();
//! assert_eq!(bad.apply(&mut doc).unwrap_err().to_string(), "key \"tournaments:t7.players\", part \"tournaments:t7\": no element with id \"t7\"");
//! ```

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What an update does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Append `value` to the array at `key`.
    Add,
    /// Remove from the array at `key` the element whose `id` is `value`.
    Remove,
    /// Set the field at `key` (which must exist) to `value`.
    Update,
}

super::wire::wire_names!(Op {
    Add = "add",
    Remove = "remove",
    Update = "update",
});

/// One update.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Update {
    /// The operation.
    pub op: Op,
    /// Where, as a key path.
    pub key: String,
    /// The value (for `remove`: the id of the element).
    pub value: Value,
}

/// An update that cannot be applied; the document is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("key {key:?}, part {part:?}: {reason}")]
pub struct UpdateError {
    /// The whole key.
    pub key: String,
    /// The part of the key that failed.
    pub part: String,
    /// What is wrong.
    pub reason: String,
}

/// One step of a key path.
enum Step<'a> {
    /// A property of an object, or an index into an array when it is a number.
    Name(&'a str),
    /// `name:ID`: the property `name` (an array), then its element whose `id` is ID.
    ById(&'a str, &'a str),
}

fn id_matches(element: &Value, id: &str) -> bool {
    match element.get("id") {
        Some(Value::String(s)) => s == id,
        Some(Value::Number(n)) => n.to_string() == id,
        _ => false,
    }
}

impl Update {
    /// Applies the update; on an error `doc` is unchanged.
    pub fn apply(&self, doc: &mut Value) -> Result<(), UpdateError> {
        let key = self.key.as_str();
        let fail = |part: &str, reason: String| UpdateError {
            key: key.chars().take(200).collect(),
            part: part.chars().take(200).collect(),
            reason,
        };
        if key.is_empty() {
            return Err(fail("", "an empty key".into()));
        }
        let mut steps = Vec::new();
        for part in key.split('.') {
            if part.is_empty() {
                return Err(fail(
                    part,
                    "an empty part (two dots, or a dot at an end)".into(),
                ));
            }
            steps.push(match part.split_once(':') {
                Some((name, id)) if !name.is_empty() && !id.is_empty() => Step::ById(name, id),
                Some(_) => return Err(fail(part, "`name:ID` needs both a name and an id".into())),
                None => Step::Name(part),
            });
        }
        let parts: Vec<&str> = key.split('.').collect();
        // Everything is checked before anything changes: walk to the parent of the last
        // step, resolve the last step, then write.
        let (last, path) = steps.split_last().expect("a key has a part");
        let mut here: &mut Value = doc;
        for (step, part) in path.iter().zip(&parts) {
            here = descend(here, step).map_err(|r| fail(part, r))?;
        }
        let last_part = parts[parts.len() - 1];
        match self.op {
            Op::Add | Op::Remove => {
                let target = descend(here, last).map_err(|r| fail(last_part, r))?;
                let Value::Array(items) = target else {
                    return Err(fail(last_part, "not an array".into()));
                };
                if self.op == Op::Add {
                    items.push(self.value.clone());
                    return Ok(());
                }
                let id = match &self.value {
                    Value::String(s) => s.clone(),
                    Value::Number(n) => n.to_string(),
                    _ => {
                        return Err(fail(
                            last_part,
                            "remove needs an id (a string or a number) as its value".into(),
                        ))
                    }
                };
                let at = items
                    .iter()
                    .position(|e| id_matches(e, &id))
                    .ok_or_else(|| fail(last_part, format!("no element with id {id:?}")))?;
                items.remove(at);
                Ok(())
            }
            Op::Update => {
                match (last, here) {
                    (Step::Name(name), Value::Object(map)) => {
                        // Only an existing field: a misspelt key must not add a new one.
                        let slot = map
                            .get_mut(*name)
                            .ok_or_else(|| fail(last_part, "no such property".into()))?;
                        *slot = self.value.clone();
                    }
                    (Step::Name(name), Value::Array(items)) => {
                        let len = items.len();
                        let slot = index(name).and_then(|i| items.get_mut(i)).ok_or_else(|| {
                            fail(last_part, format!("no element {name} in an array of {len}"))
                        })?;
                        *slot = self.value.clone();
                    }
                    (Step::ById(..), here) => {
                        let slot = descend(here, last).map_err(|r| fail(last_part, r))?;
                        *slot = self.value.clone();
                    }
                    (Step::Name(_), _) => {
                        return Err(fail(
                            last_part,
                            "its parent is neither an object nor an array".into(),
                        ))
                    }
                }
                Ok(())
            }
        }
    }
}

/// An array index: digits only, no sign, no leading zero.
fn index(part: &str) -> Option<usize> {
    let canonical = !part.is_empty()
        && part.bytes().all(|b| b.is_ascii_digit())
        && (part == "0" || !part.starts_with('0'));
    canonical.then(|| part.parse().ok()).flatten()
}

/// One step down; the error says why it cannot be taken.
fn descend<'v>(here: &'v mut Value, step: &Step<'_>) -> Result<&'v mut Value, String> {
    match step {
        Step::Name(name) => match here {
            Value::Object(map) => map
                .get_mut(*name)
                .ok_or_else(|| "no such property".to_string()),
            Value::Array(items) => {
                let len = items.len();
                index(name)
                    .and_then(|i| items.get_mut(i))
                    .ok_or_else(|| format!("no element {name} in an array of {len}"))
            }
            _ => Err("its parent is neither an object nor an array".into()),
        },
        Step::ById(name, id) => {
            let Value::Object(map) = here else {
                return Err("its parent is not an object".into());
            };
            let Some(Value::Array(items)) = map.get_mut(*name) else {
                return Err(format!("{name:?} is not an array"));
            };
            items
                .iter_mut()
                .find(|e| id_matches(e, id))
                .ok_or_else(|| format!("no element with id {id:?}"))
        }
    }
}

/// Applies updates in order, all or none: on an error `doc` is unchanged and the error names
/// the update (0-based) that failed.
///
/// ```
/// use notate::protocol::updates::{apply_all, Op, Update};
/// use serde_json::json;
/// let mut doc = json!({"seeks": []});
/// let add = Update { op: Op::Add, key: "seeks".into(), value: json!({"id": "s1"}) };
/// let bad = Update { op: Op::Update, key: "seeks.5.expiryTime".into(), value: json!(1) };
/// assert_eq!(apply_all(&mut doc, &[add.clone(), bad]).unwrap_err().0, 1);
/// assert_eq!(doc, json!({"seeks": []}));
/// apply_all(&mut doc, &[add]).unwrap();
/// assert_eq!(doc, json!({"seeks": [{"id": "s1"}]}));
/// ```
pub fn apply_all(doc: &mut Value, updates: &[Update]) -> Result<(), (usize, UpdateError)> {
    let mut copy = doc.clone();
    for (i, update) in updates.iter().enumerate() {
        update.apply(&mut copy).map_err(|e| (i, e))?;
    }
    *doc = copy;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn update(op: Op, key: &str, value: Value) -> Update {
        Update {
            op,
            key: key.into(),
            value,
        }
    }

    #[test]
    fn the_reference_examples() {
        let mut doc = json!({"tournaments": [], "seeks": [{"id": "s0"}, {"id": "s1"}, {"id": "s2"}, {"id": "s3", "expiryTime": 0}]});
        update(
            Op::Add,
            "tournaments",
            json!({"id": "t42", "round": 1, "players": []}),
        )
        .apply(&mut doc)
        .unwrap();
        update(Op::Update, "tournaments:t42.round", json!(2))
            .apply(&mut doc)
            .unwrap();
        update(
            Op::Add,
            "tournaments:t42.players",
            json!({"id": "p17", "name": "A"}),
        )
        .apply(&mut doc)
        .unwrap();
        update(Op::Add, "tournaments:t42.players", json!({"id": "p18"}))
            .apply(&mut doc)
            .unwrap();
        update(Op::Remove, "tournaments:t42.players", json!("p17"))
            .apply(&mut doc)
            .unwrap();
        update(Op::Update, "seeks.3.expiryTime", json!(1407781825400u64))
            .apply(&mut doc)
            .unwrap();
        assert_eq!(
            doc,
            json!({"tournaments": [{"id": "t42", "round": 2, "players": [{"id": "p18"}]}],
                   "seeks": [{"id": "s0"}, {"id": "s1"}, {"id": "s2"}, {"id": "s3", "expiryTime": 1407781825400u64}]})
        );
        // Replacing a whole element by id, and numeric ids.
        update(Op::Update, "seeks:s1", json!({"id": "s1", "x": 1}))
            .apply(&mut doc)
            .unwrap();
        assert_eq!(doc["seeks"][1]["x"], 1);
        let mut nums = json!({"list": [{"id": 7}]});
        update(Op::Remove, "list", json!(7))
            .apply(&mut nums)
            .unwrap();
        assert_eq!(nums, json!({"list": []}));
    }

    #[test]
    fn bad_keys_leave_the_document_alone() {
        let original = json!({"a": {"b": [1, 2]}, "c": 3, "l": [{"id": "x"}]});
        for (op, key, part) in [
            (Op::Update, "a.z.q", "z"),
            (Op::Update, "a.b.5", "5"),
            (Op::Update, "c.d", "d"),
            (Op::Add, "c", "c"),
            (Op::Add, "a..b", ""),
            (Op::Remove, "l", "l"),
            (Op::Update, "l:y.name", "l:y"),
            (Op::Update, "a:x", "a:x"),
            (Op::Update, ":x", ":x"),
            (Op::Update, "", ""),
            (Op::Update, "a.nope", "nope"),
            (Op::Update, "a.b.+1", "+1"),
            (Op::Update, "a.b.01", "01"),
        ] {
            let mut doc = original.clone();
            let err = update(op, key, json!("nope")).apply(&mut doc).unwrap_err();
            assert_eq!(err.part, part, "{key}: {err}");
            assert_eq!(doc, original, "{key}");
        }
    }
}
