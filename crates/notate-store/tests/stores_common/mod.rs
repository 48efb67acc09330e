//! What the store suites share (`stores.rs` on generated games, `stores_corpus.rs` on the
//! corpus of `../shared/`): rows from PGN, loading twice, the example queries, DuckDB over
//! Parquet, and a PostgreSQL server of the test's own.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use notate::chess::pgn::read_written;
use notate::chess::replay;
use notate::chess::rows::{RowBatch, RowWriter};
use notate_store::{schema, Inserted, QueryResult, Target, Value};

/// The rows of every game of PGN texts (every game must replay), and how many games were
/// refused for a null move (which the moves table cannot store).
pub fn rows_of(texts: &[String]) -> (RowBatch, usize) {
    let mut batch = RowBatch::new();
    let mut writer = RowWriter::new();
    let mut refused = 0;
    for text in texts {
        for game in read_written(text) {
            if let Err(e) = writer.write(&replay(game.unwrap()).unwrap(), &mut batch) {
                assert!(e.message.contains("null move"), "{e:?}");
                refused += 1;
            }
        }
    }
    (batch, refused)
}

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Loads the rows in slices of 700 games (several commits), then all of them again.
pub fn load_twice(target: &Target, rows: &RowBatch) -> (Inserted, Inserted) {
    let mut store = target.open().unwrap();
    let mut start = 0;
    while start < rows.len() {
        let end = (start + 700).min(rows.len());
        store.insert(rows, start..end).unwrap();
        start = end;
    }
    let first = store.finish().unwrap();
    drop(store);
    let mut store = target.open().unwrap();
    store.insert(rows, 0..rows.len()).unwrap();
    (first, store.finish().unwrap())
}

/// Three games of one month: two different ones given the same id (as two games whose
/// 64-bit hashes are equal would have it; each keeps its own check), and the first again.
pub fn clashing_rows() -> RowBatch {
    let first = "[White \"A\"]\n[Black \"B\"]\n[Date \"2016.05.01\"]\n\n1. e4 e5 *\n\n";
    let second =
        "[White \"C\"]\n[Black \"D\"]\n[Date \"2016.05.02\"]\n[Site \"x\"]\n\n1. d4 d5 2. c4 *\n\n";
    let (mut rows, _) = rows_of(&[format!("{first}{second}{first}")]);
    let id = rows.games[0].id;
    rows.games[1].id = id;
    for m in rows.moves[rows.games[1].moves.clone()].iter_mut() {
        m.game_id = id;
    }
    assert_ne!(rows.games[0].id_check, rows.games[1].id_check);
    rows
}

/// [`clashing_rows`] into a new store, all in one call, then the second game again in a load
/// of its own: the first game is stored once, the second is reported both times (named by its
/// players, date and site), the third is known; the store holds the first game only.
pub fn check_id_clashes(target: &Target) {
    let rows = clashing_rows();
    let clash = notate_store::IdClash {
        id: rows.games[0].id,
        game: "C – D, 2016.05.02, x".into(),
    };
    let mut store = target.open().unwrap();
    store.insert(&rows, 0..3).unwrap();
    let first = store.finish().unwrap();
    drop(store);
    assert_eq!(
        first,
        Inserted {
            games: 1,
            known: 1,
            moves: 2,
            clashes: vec![clash.clone()],
        }
    );
    let mut store = target.open().unwrap();
    store.insert(&rows, 1..2).unwrap();
    assert_eq!(
        store.finish().unwrap().clashes,
        std::slice::from_ref(&clash)
    );
    assert!(clash.to_string().contains("not stored"), "{clash}");
}

/// The counts of a first load and of the same rows loaded again (all known).
pub fn check_loads(first: Inserted, again: Inserted, games: u64, moves: u64) {
    assert_eq!(
        first,
        Inserted {
            games,
            known: 0,
            moves,
            clashes: vec![],
        }
    );
    assert_eq!(
        again,
        Inserted {
            games: 0,
            known: games,
            moves: 0,
            clashes: vec![],
        }
    );
}

/// A new empty directory, its own for each call (tests run in parallel: two PostgreSQL
/// servers of one test process must not share one), removed when dropped.
pub fn temp_dir(name: &str) -> Scratch {
    Scratch(notate_testdata::scratch_dir(&format!(
        "notate-store-{name}"
    )))
}

/// A test's directory: a path, removed with what it holds when dropped (a failed test
/// leaves nothing behind either).
pub struct Scratch(notate_testdata::TempDir);

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        self.0.path()
    }
}

pub fn queries() -> Vec<(String, String)> {
    let mut queries: Vec<(String, String)> = std::fs::read_dir(repo().join("examples/queries"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    queries.sort();
    assert_eq!(queries.len(), 4, "the four example analyses");
    queries
}

pub fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Real(r) => Some(*r),
        Value::Decimal(d) => d.parse().ok(),
        _ => None,
    }
}

/// The same rows, numbers compared as numbers (SQLite's `15` is PostgreSQL's `15.0`).
pub fn assert_same(name: &str, engine: &str, expected: &QueryResult, got: &QueryResult) {
    assert_eq!(
        expected.rows.len(),
        got.rows.len(),
        "{name} on {engine}: row count"
    );
    for (i, (a, b)) in expected.rows.iter().zip(&got.rows).enumerate() {
        assert_row(a, b, &format!("{name} on {engine}, row {i}"));
    }
}

pub fn assert_row(want: &[Value], got: &[Value], what: &str) {
    assert_eq!(want.len(), got.len(), "{what}: {want:?} vs {got:?}");
    for (x, y) in want.iter().zip(got) {
        match (number(x), number(y)) {
            (Some(a), Some(b)) => assert!((a - b).abs() < 1e-9, "{what}: {want:?} vs {got:?}"),
            _ => assert_eq!(x, y, "{what}: {want:?} vs {got:?}"),
        }
    }
}

pub fn text(s: &str) -> Value {
    Value::Text(s.to_string())
}

/// Column names of both tables, in order.
pub fn columns(target: &Target, table: &str) -> Vec<String> {
    target
        .query(&format!("SELECT * FROM {table} LIMIT 0"))
        .unwrap()
        .columns
}

/// Runs SQL on Parquet files through DuckDB (scripts/duckdb-query.py).
pub fn duckdb(dir: &Path, sql: &str) -> QueryResult {
    let output = Command::new("python3")
        .arg(repo().join("scripts/duckdb-query.py"))
        .arg(dir)
        .arg(sql)
        .output()
        .expect("python3 runs (DuckDB is read with `pip install duckdb`)");
    assert!(
        output.status.success(),
        "DuckDB failed (is it installed? pip install duckdb): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let value = |v: &serde_json::Value| match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Real(n.as_f64().unwrap()),
        },
        serde_json::Value::String(s) => Value::Text(s.clone()),
        other => Value::Text(other.to_string()),
    };
    QueryResult {
        columns: json["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect(),
        rows: json["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_array().unwrap().iter().map(value).collect())
            .collect(),
    }
}

pub use notate_testdata::postgres::Server;

/// Loads `rows` twice into a new SQLite file (the second time adds nothing), checks the
/// counts and the columns of both tables, and checks every example query's answer with
/// `expect`. The store and its directory, for the caller's own checks.
pub fn sqlite_loaded(
    rows: &RowBatch,
    games: u64,
    moves: u64,
    expect: &dyn Fn(&str, &QueryResult),
) -> (Target, Scratch) {
    let dir = temp_dir("sqlite");
    let target = Target::Sqlite(dir.join("games.sqlite"));
    let (first, again) = load_twice(&target, rows);
    check_loads(first, again, games, moves);
    let names = |cols: &[schema::Column]| cols.iter().map(|c| c.name).collect::<Vec<_>>();
    assert_eq!(columns(&target, "games"), names(&schema::GAMES));
    assert_eq!(columns(&target, "moves"), names(&schema::MOVES));
    for (name, sql) in queries() {
        expect(&name, &target.query(&sql).unwrap());
    }
    (target, dir)
}

/// Loads `rows` into a SQLite file of its own and checks that `engine` (`query` runs SQL on
/// it) has SQLite's columns (in any order when `any_order`) and gives SQLite's answer to every
/// example query, each answer first checked by `expect`.
pub fn answers_as_sqlite(
    rows: &RowBatch,
    engine: &str,
    query: &dyn Fn(&str) -> QueryResult,
    any_order: bool,
    expect: &dyn Fn(&str, &QueryResult),
) {
    let sqlite_dir = temp_dir(&format!("{engine}-sqlite"));
    let sqlite = Target::Sqlite(sqlite_dir.join("games.sqlite"));
    load_twice(&sqlite, rows);
    for table in ["games", "moves"] {
        let mut want = columns(&sqlite, table);
        let mut got = query(&format!("SELECT * FROM {table} LIMIT 0")).columns;
        if any_order {
            want.sort();
            got.sort();
        }
        assert_eq!(want, got, "{table}: the same columns in {engine}");
    }
    for (name, sql) in queries() {
        let want = sqlite.query(&sql).unwrap();
        expect(&name, &want);
        assert_same(&name, engine, &want, &query(&sql));
    }
    // Every move row the same in both, checked through an aggregate of every column.
    let digest = "SELECT count(*), sum(ply), sum(move_number), count(captured_piece), \
                  count(promotion), sum(CASE WHEN is_check THEN 1 ELSE 0 END), \
                  sum(clock), sum(eval), sum(mate), max(fen_after), max(lran), max(uci), \
                  max(move_key), max(san), count(DISTINCT game_id) FROM moves";
    assert_same(
        "digest",
        engine,
        &sqlite.query(digest).unwrap(),
        &query(digest),
    );
}
