//! Loads a small corpus into SQLite, Parquet and PostgreSQL, and runs every query of
//! `examples/queries/` on each: SQLite's answers are asserted, the other two must give the
//! same. PostgreSQL runs on a server the test starts itself (`initdb` + `pg_ctl`, from
//! Debian's `postgresql` package); Parquet is queried through DuckDB (`pip install duckdb`).
//! Neither is ever skipped: a missing server or DuckDB fails the test.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use notate::chess::pgn::read_pgn_games;
use notate::chess::replay;
use notate::chess::rows::{RowBatch, RowWriter};
use notate_store::{schema, Inserted, QueryResult, Target, Value};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn corpus() -> PathBuf {
    repo().join("../shared/corpus")
}

/// The games of three corpus files: an old lichess export (one player's 4,690 games, no
/// clocks), a 2025 one with `[%clk]` and `[%eval]` on every move, and TWIC's tournament
/// games with `Opening` tags.
fn corpus_rows() -> RowBatch {
    let mut batch = RowBatch::new();
    let mut writer = RowWriter::new();
    for file in [
        "lichess-database-2016-2017/2016-05.pgn",
        "pgn-reader-benches/lichess_db_1000k.pgn",
        "pgn-reader-benches/twic1599_1000k.pgn",
    ] {
        let text = std::fs::read_to_string(corpus().join(file)).unwrap();
        for game in read_pgn_games(&text) {
            writer
                .write(&replay(game.unwrap()).unwrap(), &mut batch)
                .unwrap();
        }
    }
    batch
}

const GAMES: u64 = 4_798 + 438 + 1_110;
const MOVES: u64 = 217_481 + 28_538 + 101_487;

/// Loads the rows in slices of 700 games (several commits), then all of them again.
fn load_twice(target: &Target, rows: &RowBatch) -> (Inserted, Inserted) {
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

fn check_loads(first: Inserted, again: Inserted) {
    assert_eq!(
        first,
        Inserted {
            games: GAMES,
            known: 0,
            moves: MOVES
        }
    );
    assert_eq!(
        again,
        Inserted {
            games: 0,
            known: GAMES,
            moves: 0
        }
    );
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("notate-store-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn queries() -> Vec<(String, String)> {
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

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Real(r) => Some(*r),
        _ => None,
    }
}

/// The same rows, numbers compared as numbers (SQLite's `15` is PostgreSQL's `15.0`).
fn assert_same(name: &str, engine: &str, expected: &QueryResult, got: &QueryResult) {
    assert_eq!(
        expected.rows.len(),
        got.rows.len(),
        "{name} on {engine}: row count"
    );
    for (i, (a, b)) in expected.rows.iter().zip(&got.rows).enumerate() {
        assert_row(a, b, &format!("{name} on {engine}, row {i}"));
    }
}

fn assert_row(want: &[Value], got: &[Value], what: &str) {
    assert_eq!(want.len(), got.len(), "{what}: {want:?} vs {got:?}");
    for (x, y) in want.iter().zip(got) {
        match (number(x), number(y)) {
            (Some(a), Some(b)) => assert!((a - b).abs() < 1e-9, "{what}: {want:?} vs {got:?}"),
            _ => assert_eq!(x, y, "{what}: {want:?} vs {got:?}"),
        }
    }
}

fn text(s: &str) -> Value {
    Value::Text(s.to_string())
}

/// What SQLite answers, checked by hand against the corpus (see each assertion).
fn assert_expected(name: &str, answer: &QueryResult) {
    let rows = &answer.rows;
    match name {
        "clock_use" => {
            assert_eq!(answer.columns, ["move_number", "moves", "avg_seconds"]);
            // Move 1 has no clock before it; moves 2 to 40 of the 438 timed games.
            assert_eq!(rows.len(), 39);
            assert_row(
                &rows[0],
                &[Value::Int(2), Value::Int(856), Value::Real(2.11)],
                name,
            );
            assert_row(
                &rows[6],
                &[Value::Int(8), Value::Int(842), Value::Real(4.45)],
                name,
            );
            assert_row(
                &rows[38],
                &[Value::Int(40), Value::Int(247), Value::Real(4.45)],
                name,
            );
        }
        "lost_positions" => {
            assert_eq!(answer.columns, ["position", "lost_games"]);
            assert_eq!(rows.len(), 10);
            assert_row(
                &rows[0],
                &[
                    text("r1bqkbnr/pp3ppp/2n1p3/3pP3/3p4/2P2N2/PP3PPP/RNBQKB1R w KQkq - 0 6"),
                    Value::Int(37),
                ],
                name,
            );
            assert_row(&rows[9][1..], &[Value::Int(18)], name);
        }
        "queen_trades" => {
            assert_eq!(
                answer.columns,
                ["games", "played", "won", "drawn", "lost", "score_pct"]
            );
            // 4,690 games of german11 in all (3,547 + 1,143).
            assert_eq!(rows.len(), 2);
            for (row, want) in rows.iter().zip([
                vec![
                    text("no queen trade"),
                    Value::Int(3547),
                    Value::Int(553),
                    Value::Int(22),
                    Value::Int(2971),
                    Value::Real(15.9),
                ],
                vec![
                    text("queen trade"),
                    Value::Int(1143),
                    Value::Int(78),
                    Value::Int(5),
                    Value::Int(1059),
                    Value::Int(7),
                ],
            ]) {
                assert_row(row, &want, name);
            }
        }
        "results_by_opening" => {
            assert_eq!(
                answer.columns,
                [
                    "eco",
                    "opening",
                    "games",
                    "white_pct",
                    "draw_pct",
                    "black_pct"
                ]
            );
            assert_eq!(rows.len(), 6);
            assert_row(
                &rows[0],
                &[
                    text("A07"),
                    text("Reti"),
                    Value::Int(28),
                    Value::Int(50),
                    Value::Real(39.3),
                    Value::Real(10.7),
                ],
                name,
            );
        }
        other => panic!("no expected answer for {other}"),
    }
}

/// Column names of both tables, in order.
fn columns(target: &Target, table: &str) -> Vec<String> {
    target
        .query(&format!("SELECT * FROM {table} LIMIT 0"))
        .unwrap()
        .columns
}

#[test]
fn sqlite_loads_once_and_answers_the_example_queries() {
    let rows = corpus_rows();
    let dir = temp_dir("sqlite");
    let target = Target::Sqlite(dir.join("games.sqlite"));
    let (first, again) = load_twice(&target, &rows);
    check_loads(first, again);
    let names = |cols: &[schema::Column]| cols.iter().map(|c| c.name).collect::<Vec<_>>();
    assert_eq!(columns(&target, "games"), names(&schema::GAMES));
    assert_eq!(columns(&target, "moves"), names(&schema::MOVES));
    for (name, sql) in queries() {
        assert_expected(&name, &target.query(&sql).unwrap());
    }
    // Spot checks against the PGN: the first move of the corpus and a checkmate.
    let first = target
        .query("SELECT san, lran, uci, piece, move_type, player, move_key FROM moves WHERE ply = 1 ORDER BY game_id LIMIT 1")
        .unwrap();
    assert_eq!(first.rows[0].len(), 7);
    let mates = target
        .query("SELECT count(*) FROM moves WHERE is_checkmate AND san NOT LIKE '%#'")
        .unwrap();
    assert_eq!(mates.rows, [[Value::Int(0)]]);
    std::fs::remove_dir_all(dir).unwrap();
}

/// Runs SQL on Parquet files through DuckDB (scripts/duckdb-query.py).
fn duckdb(dir: &Path, sql: &str) -> QueryResult {
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

#[test]
fn parquet_loads_once_and_duckdb_answers_as_sqlite_does() {
    let rows = corpus_rows();
    let dir = temp_dir("parquet");
    let target = Target::Parquet(dir.join("out"));
    let (first, again) = load_twice(&target, &rows);
    check_loads(first, again);
    let out = dir.join("out");
    assert!(out
        .join("games/year=2016/month=05/part-0.parquet")
        .is_file());
    assert!(out
        .join("moves/year=2025/month=05/part-0.parquet")
        .is_file());
    // The second load published nothing.
    assert!(!out.join("games/year=2016/month=05/part-1.parquet").exists());

    let sqlite_dir = temp_dir("parquet-sqlite");
    let sqlite = Target::Sqlite(sqlite_dir.join("games.sqlite"));
    load_twice(&sqlite, &rows);
    let names = |table: &str, duck: &QueryResult| {
        let mut a = columns(&sqlite, table);
        let mut b = duck.columns.clone();
        a.sort();
        b.sort();
        assert_eq!(a, b, "{table}: the same columns in DuckDB's view");
    };
    names("games", &duckdb(&out, "SELECT * FROM games LIMIT 0"));
    names("moves", &duckdb(&out, "SELECT * FROM moves LIMIT 0"));
    for (name, sql) in queries() {
        let expected = sqlite.query(&sql).unwrap();
        assert_expected(&name, &expected);
        assert_same(&name, "DuckDB", &expected, &duckdb(&out, &sql));
    }
    let counts = duckdb(&out, "SELECT count(*), sum(ply_count) FROM games");
    assert_eq!(
        counts.rows,
        [[Value::Int(GAMES as i64), Value::Int(MOVES as i64)]]
    );
    std::fs::remove_dir_all(dir).unwrap();
    std::fs::remove_dir_all(sqlite_dir).unwrap();
}

#[test]
fn an_interrupted_parquet_load_leaves_whole_files_only() {
    let rows = corpus_rows();
    let dir = temp_dir("parquet-interrupted");
    let target = Target::Parquet(dir.clone());
    {
        // Dropped without `finish`: the open files stay temporary.
        let mut store = target.open().unwrap();
        store.insert(&rows, 0..100).unwrap();
    }
    let partition = dir.join("games/year=2016/month=05");
    assert!(!partition.join("part-0.parquet").exists());
    assert!(partition.join(".part-0.parquet.tmp").exists());
    // A moves file whose games file never appeared, as a rename cut short would leave.
    let orphan = dir.join("moves/year=2016/month=05/part-7.parquet");
    std::fs::write(&orphan, b"half a load").unwrap();
    let mut store = target.open().unwrap();
    // One load at a time: a second one is refused while this one holds the directory.
    assert!(target.open().is_err());
    assert!(!partition.join(".part-0.parquet.tmp").exists());
    assert!(!orphan.exists());
    store.insert(&rows, 0..100).unwrap();
    assert_eq!(store.finish().unwrap().games, 100);
    std::fs::remove_dir_all(dir).unwrap();
}

/// A PostgreSQL server of the test's own, in a temporary directory on a free port.
struct Server {
    data: PathBuf,
    dir: PathBuf,
    bin: PathBuf,
    url: String,
}

/// Runs a server program, as the `postgres` user when the test runs as root (PostgreSQL
/// refuses to run as root).
fn pg_command(bin: &Path, program: &str, as_postgres: bool) -> Command {
    if as_postgres {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(bin.join(program));
        c
    } else {
        Command::new(bin.join(program))
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

impl Server {
    fn start() -> Server {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .ok()
            .and_then(|versions| {
                versions
                    .filter_map(|v| Some(v.ok()?.path().join("bin")))
                    .filter(|b| b.join("initdb").is_file())
                    .max()
            })
            .expect(
                "no PostgreSQL server under /usr/lib/postgresql: install Debian's postgresql \
                 package (.ci/run does)",
            );
        let root = is_root();
        let dir = temp_dir("postgres");
        if root {
            let status = Command::new("chown")
                .args(["-R", "postgres:"])
                .arg(&dir)
                .status()
                .unwrap();
            assert!(status.success());
        }
        let data = dir.join("data");
        let status = pg_command(&bin, "initdb", root)
            .arg("-D")
            .arg(&data)
            .args(["-A", "trust", "-U", "notate", "-E", "UTF8", "--no-sync"])
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "initdb failed");
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let options = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            dir.display()
        );
        let status = pg_command(&bin, "pg_ctl", root)
            .arg("-D")
            .arg(&data)
            .args(["-o", &options, "-l"])
            .arg(dir.join("log"))
            .args(["-w", "start"])
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(
            status.success(),
            "pg_ctl start failed: {}",
            std::fs::read_to_string(dir.join("log")).unwrap_or_default()
        );
        Server {
            data,
            dir,
            bin,
            url: format!("postgres://notate@127.0.0.1:{port}/postgres"),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = pg_command(&self.bin, "pg_ctl", is_root())
            .arg("-D")
            .arg(&self.data)
            .args(["-m", "immediate", "stop"])
            .stdout(Stdio::null())
            .status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn postgres_loads_once_and_answers_as_sqlite_does() {
    let server = Server::start();
    let rows = corpus_rows();
    let target = Target::parse(&server.url).unwrap();
    let (first, again) = load_twice(&target, &rows);
    check_loads(first, again);

    let sqlite_dir = temp_dir("postgres-sqlite");
    let sqlite = Target::Sqlite(sqlite_dir.join("games.sqlite"));
    load_twice(&sqlite, &rows);
    assert_eq!(columns(&target, "games"), columns(&sqlite, "games"));
    assert_eq!(columns(&target, "moves"), columns(&sqlite, "moves"));
    for (name, sql) in queries() {
        let expected = sqlite.query(&sql).unwrap();
        assert_expected(&name, &expected);
        assert_same(&name, "PostgreSQL", &expected, &target.query(&sql).unwrap());
    }
    // Every move row the same in both, checked through an aggregate of every column.
    let digest = "SELECT count(*), sum(ply), sum(move_number), count(captured_piece), \
                  count(promotion), sum(CASE WHEN is_check THEN 1 ELSE 0 END), \
                  sum(clock), sum(eval), sum(mate), max(fen_after), max(lran), max(uci), \
                  max(move_key), max(san), count(DISTINCT game_id) FROM moves";
    assert_same(
        "digest",
        "PostgreSQL",
        &sqlite.query(digest).unwrap(),
        &target.query(digest).unwrap(),
    );
    // Tags are jsonb: every tag, also those without a column of their own.
    let tags = target
        .query("SELECT tags->>'PlyCount' FROM games WHERE site = 'https://lichess.org/SXUUbfSF'")
        .unwrap();
    assert_eq!(tags.rows, [[text("37")]]);
    std::fs::remove_dir_all(sqlite_dir).unwrap();
}

#[test]
fn a_server_that_is_not_there_is_an_error() {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let target = Target::parse(&format!("postgres://notate@127.0.0.1:{port}/none")).unwrap();
    assert!(target.open().is_err());
    assert!(target.query("SELECT 1").is_err());
}
