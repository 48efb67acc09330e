//! What the EGD vector suites share: notate's EGD for a vector, the reference's, and their
//! differences leaf by leaf.

use std::collections::BTreeMap;
use std::path::Path;

use notate::chess::egd::Egd;
use notate::chess::{pgn::read_written, replay};
use notate::format::WriteFormat;
use notate::Error;
use serde_json::Value;

/// notate's EGD for every game of a vector: a line, or the error.
pub fn convert(dir: &Path, name: &str) -> Vec<Result<String, Error>> {
    let text = std::fs::read(dir.join(format!("{name}.pgn"))).unwrap();
    let text = String::from_utf8(text).unwrap();
    let mut writer = Egd::default();
    read_written(&text)
        .into_iter()
        .map(|game| {
            let game = game.and_then(replay).map_err(|f| f.error)?;
            let mut out = Vec::new();
            writer.write_game(&game, &mut out)?;
            let line = String::from_utf8(out).unwrap();
            assert!(
                line.ends_with('\n') && line.matches('\n').count() == 1,
                "{name}"
            );
            Ok(line.trim_end().to_string())
        })
        .collect()
}

pub fn one_line(dir: &Path, name: &str) -> String {
    let mut games = convert(dir, name);
    assert_eq!(games.len(), 1, "{name}: one game");
    games.remove(0).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

pub fn reference(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap()
}

/// JSON text in serde_json's canonical compact form (key order kept).
pub fn canonical(text: &str) -> String {
    serde_json::to_string(&serde_json::from_str::<Value>(text).unwrap()).unwrap()
}

/// Every leaf of a JSON document by its path, in document order.
fn leaves(value: &Value, path: String, out: &mut Vec<(String, Value)>) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                leaves(v, format!("{path}/{k}"), out);
            }
        }
        other => out.push((path, other.clone())),
    }
}

/// The leaves where notate's document differs from the reference: path → notate's value
/// (`null` where notate has no such key).
pub fn differences(ours: &str, theirs: &str) -> BTreeMap<String, Value> {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    leaves(&serde_json::from_str(ours).unwrap(), String::new(), &mut a);
    leaves(
        &serde_json::from_str(theirs).unwrap(),
        String::new(),
        &mut b,
    );
    let ours: BTreeMap<_, _> = a.iter().cloned().collect();
    let theirs: BTreeMap<_, _> = b.iter().cloned().collect();
    let mut diff = BTreeMap::new();
    for (path, value) in &ours {
        if theirs.get(path) != Some(value) {
            diff.insert(path.clone(), value.clone());
        }
    }
    for path in theirs.keys() {
        if !ours.contains_key(path) {
            diff.insert(path.clone(), Value::Null);
        }
    }
    diff
}
