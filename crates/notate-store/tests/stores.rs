//! Loads generated games (`notate-testdata`: clocks, evals, openings, every result, the
//! player the example queries ask about) into SQLite, Parquet and PostgreSQL, and runs every
//! query of `examples/queries/` on each: PostgreSQL and DuckDB must answer as SQLite does, and
//! the counts a query can be checked by are checked against the PGN text itself. The same on
//! the corpus of `../shared/`, with answers checked by hand, is `stores_corpus.rs`.
//!
//! PostgreSQL runs on a server the test starts itself (`initdb` + `pg_ctl`, from Debian's
//! `postgresql` package); Parquet is queried through DuckDB (`pip install duckdb`). Neither is
//! ever skipped: a missing server or DuckDB fails the test.

use std::net::TcpListener;
use std::path::Path;
use std::sync::LazyLock;

use notate::chess::rows::RowBatch;
use notate_store::{QueryResult, Rows, Target, Value};

#[path = "stores_common/mod.rs"]
mod stores_common;
use stores_common::*;

/// 600 games in two texts, generated once for all the tests.
static TEXTS: LazyLock<[String; 2]> =
    LazyLock::new(|| [notate_testdata::pgn(21, 300), notate_testdata::pgn(22, 300)]);

/// The tags of every game that can be loaded, read from the text with no help from notate:
/// the games with a null move (`--`) cannot.
static TAGS: LazyLock<Vec<Vec<(String, String)>>> = LazyLock::new(|| {
    let mut games = Vec::new();
    for text in TEXTS.iter() {
        for block in text.split("\n\n[Event ") {
            let block = if block.starts_with("[Event ") {
                block.to_string()
            } else {
                format!("[Event {block}")
            };
            if block.split_whitespace().any(|token| token == "--") {
                continue;
            }
            let tags = block
                .lines()
                .take_while(|l| l.starts_with('['))
                .map(|l| {
                    let (name, value) = l[1..l.len() - 1].split_once(' ').unwrap();
                    let value = value[1..value.len() - 1]
                        .replace("\\\"", "\"")
                        .replace("\\\\", "\\");
                    (name.to_string(), value)
                })
                .collect();
            games.push(tags);
        }
    }
    games
});

fn tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// What the generated games must give, with the counts taken from the text.
struct Expected {
    games: u64,
    moves: u64,
}

/// The rows of the generated games and what they must give, made once for all the tests.
static GENERATED: LazyLock<(RowBatch, Expected)> = LazyLock::new(|| {
    let (rows, refused) = rows_of(TEXTS.as_slice());
    let games = TAGS.len() as u64;
    assert_eq!(
        refused as u64 + games,
        600,
        "every game loads or is refused for its null move"
    );
    assert!(refused > 0);
    let mut moves = 0;
    for text in TEXTS.iter() {
        for game in notate::chess::pgn::read_written(text) {
            let game = notate::chess::replay(game.unwrap()).unwrap();
            if game.moves.plies.iter().all(|p| p.mv.mv.is_some()) {
                moves += game.moves.plies.len() as u64;
            }
        }
    }
    (rows, Expected { games, moves })
});

/// The answers SQLite gives that the PGN text alone can check.
fn assert_expected(name: &str, answer: &QueryResult) {
    let games = &*TAGS;
    assert!(!answer.rows.is_empty(), "{name}: no rows");
    let int = |v: &Value| number(v).unwrap() as u64;
    match name {
        "results_by_opening" => {
            // The generator names one opening: its games and results by the tags.
            let with: Vec<_> = games
                .iter()
                .filter(|t| tag(t, "Opening").is_some())
                .collect();
            assert_eq!(answer.rows.len(), 1);
            assert_eq!(int(&answer.rows[0][2]), with.len() as u64);
            let pct = |r: &str| {
                let n = with.iter().filter(|t| tag(t, "Result") == Some(r)).count();
                (1000.0 * n as f64 / with.len() as f64).round() / 10.0
            };
            assert_row(
                &answer.rows[0][3..],
                &[
                    Value::Real(pct("1-0")),
                    Value::Real(pct("1/2-1/2")),
                    Value::Real(pct("0-1")),
                ],
                name,
            );
        }
        "queen_trades" => {
            // Every game german11 played is counted once, with or without a trade.
            let played = games
                .iter()
                .filter(|t| {
                    tag(t, "White") == Some("german11") || tag(t, "Black") == Some("german11")
                })
                .count() as u64;
            assert_eq!(answer.rows.iter().map(|r| int(&r[1])).sum::<u64>(), played);
        }
        "lost_positions" | "clock_use" => {}
        other => panic!("no expected answer for {other}"),
    }
}

#[test]
fn sqlite_loads_once_and_answers_the_example_queries() {
    let (rows, expected) = &*GENERATED;
    let (target, dir) = sqlite_loaded(rows, expected.games, expected.moves, &assert_expected);
    // Results and mates, counted in the text: a `#` is written exactly on mating moves.
    let decisive = TAGS
        .iter()
        .filter(|t| tag(t, "Result") == Some("1-0"))
        .count();
    let answer = target
        .query("SELECT count(*) FROM games WHERE result = '1-0'")
        .unwrap();
    assert_eq!(answer.rows, [[Value::Int(decisive as i64)]]);
    let mates = target
        .query("SELECT count(*) FROM moves WHERE is_checkmate AND san NOT LIKE '%#'")
        .unwrap();
    assert_eq!(mates.rows, [[Value::Int(0)]]);
    // A query only reads: not the store, nor another file.
    let copy = dir.join("copy.sqlite");
    for sql in [
        "DELETE FROM games".to_string(),
        format!("VACUUM INTO '{}'", copy.display()),
    ] {
        let e = target.query(&sql).unwrap_err().to_string();
        assert!(e.contains("a query only reads"), "{sql}: {e}");
    }
    assert!(!copy.exists());
}

#[test]
fn parquet_reads_the_ids_of_files_other_tools_rewrote_with_their_codecs() {
    use arrow_array::RecordBatchReader;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::arrow::ArrowWriter;
    use parquet::basic::{Compression, GzipLevel};
    use parquet::file::properties::WriterProperties;
    let rows = &GENERATED.0;
    for codec in [
        Compression::SNAPPY,
        Compression::LZ4_RAW,
        Compression::GZIP(GzipLevel::default()),
    ] {
        let dir = temp_dir("parquet-codecs");
        let target = Target::Parquet(dir.to_path_buf());
        let mut store = target.open().unwrap();
        store.insert(rows, 0..50).unwrap();
        assert_eq!(store.finish().unwrap().games, 50);
        drop(store);
        // Each games file rewritten as pyarrow (Snappy) or Spark would.
        for path in files_where(&dir.join("games"), &|n| n.ends_with(".parquet")) {
            let reader =
                ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&path).unwrap())
                    .unwrap()
                    .build()
                    .unwrap();
            let schema = reader.schema();
            let batches: Vec<_> = reader.map(Result::unwrap).collect();
            let properties = WriterProperties::builder().set_compression(codec).build();
            let mut writer = ArrowWriter::try_new(
                std::fs::File::create(&path).unwrap(),
                schema,
                Some(properties),
            )
            .unwrap();
            for batch in &batches {
                writer.write(batch).unwrap();
            }
            writer.close().unwrap();
        }
        let mut store = target.open().unwrap();
        store.insert(rows, 0..60).unwrap();
        let again = store.finish().unwrap();
        assert_eq!((again.known, again.games), (50, 10), "{codec:?}");
        drop(store);
    }
}

/// A cell as SQLite gives it back (a boolean as 0 or 1).
fn stored(cell: notate_store::schema::Cell<'_>) -> Value {
    use notate_store::schema::Cell;
    match cell {
        Cell::Null => Value::Null,
        Cell::Int(v) => Value::Int(v),
        Cell::Real(v) => Value::Real(v),
        Cell::Text(s) => Value::Text(s.to_string()),
        Cell::Bool(b) => Value::Int(i64::from(b)),
    }
}

/// Every cell of every row, as the batch holds it: the moves go in by statements of many rows,
/// bound by hand, and a value bound to the wrong parameter would show here.
#[test]
fn sqlite_stores_every_cell_of_every_row() {
    use notate_store::schema::{game_cells, move_cells};
    let (rows, expected) = &*GENERATED;
    let dir = temp_dir("sqlite-cells");
    let target = Target::Sqlite(dir.join("games.sqlite"));
    // One insert of every game, then slices of odd sizes: whole statements and remainders.
    let mut store = target.open().unwrap();
    store.insert(rows, 0..250).unwrap();
    let mut start = 250;
    for size in [1, 7, 63, 64, 65, 129].into_iter().cycle() {
        let end = (start + size).min(rows.len());
        store.insert(rows, start..end).unwrap();
        start = end;
        if start == rows.len() {
            break;
        }
    }
    let added = store.finish().unwrap();
    assert_eq!((added.games, added.moves), (expected.games, expected.moves));
    drop(store);

    let mut games: Vec<Vec<Value>> = rows
        .games
        .iter()
        .map(|g| game_cells(rows, g).into_iter().map(stored).collect())
        .collect();
    let mut moves: Vec<Vec<Value>> = rows
        .games
        .iter()
        .flat_map(|g| {
            rows.moves[g.moves.clone()]
                .iter()
                .map(|m| move_cells(rows, g, m).into_iter().map(stored).collect())
        })
        .collect();
    let key = |row: &Vec<Value>| match (&row[0], row.get(1)) {
        (Value::Int(id), Some(Value::Int(ply))) => (*id, *ply),
        (Value::Int(id), _) => (*id, 0),
        other => panic!("a key of {other:?}"),
    };
    games.sort_by_key(key);
    moves.sort_by_key(key);
    let got_games = target.query("SELECT * FROM games ORDER BY id").unwrap();
    let got_moves = target
        .query("SELECT * FROM moves ORDER BY game_id, ply")
        .unwrap();
    assert_eq!(got_games.rows.len(), games.len());
    assert_eq!(got_moves.rows.len() as u64, expected.moves);
    for (got, want) in got_games.rows.iter().zip(&games) {
        assert_eq!(got, want, "a game row");
    }
    for (got, want) in got_moves.rows.iter().zip(&moves) {
        assert_eq!(got, want, "a move row");
    }
}

/// A move that breaks the table's key (its game's row deleted by hand, the moves left) fails
/// the load and takes back the whole batch: no game of it is stored, nor any move, nor
/// counted; the next batch goes in alone.
#[test]
fn sqlite_a_batch_that_breaks_the_key_is_taken_back_whole() {
    let rows = &GENERATED.0;
    let dir = temp_dir("sqlite-key");
    let path = dir.join("games.sqlite");
    let target = Target::Sqlite(path.clone());
    let mut store = target.open().unwrap();
    store.insert(rows, 0..10).unwrap();
    store.finish().unwrap();
    drop(store);
    let victim = rows.games[5].id;
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute("DELETE FROM games WHERE id = ?1", [victim])
        .unwrap();
    let count = |table: &str| {
        target
            .query(&format!("SELECT count(*) FROM {table}"))
            .unwrap()
            .rows
    };
    let (games_before, moves_before) = (count("games"), count("moves"));

    let mut store = target.open().unwrap();
    let error = store.insert(rows, 0..200).unwrap_err().to_string();
    assert!(
        error.contains("UNIQUE constraint failed: moves.game_id, moves.ply"),
        "{error}"
    );
    // The store goes on: the next batch is committed alone, and only it is counted (a
    // statement's own undo would have kept the failed batch's games before game 5's moves,
    // and `finish` would have committed and counted them).
    store.insert(rows, 100..150).unwrap();
    let added = store.finish().unwrap();
    drop(store);
    let moves_added: usize = rows.games[100..150].iter().map(|g| g.moves.len()).sum();
    assert_eq!(
        (added.games, added.known, added.moves),
        (50, 0, moves_added as u64)
    );
    let plus = |before: &[Vec<Value>], n: usize| match before {
        [row] => match row[..] {
            [Value::Int(c)] => vec![vec![Value::Int(c + n as i64)]],
            _ => panic!("{before:?}"),
        },
        _ => panic!("{before:?}"),
    };
    assert_eq!(count("games"), plus(&games_before, 50));
    assert_eq!(count("moves"), plus(&moves_before, moves_added));
}

#[test]
fn parquet_loads_once_and_duckdb_answers_as_sqlite_does() {
    let (rows, expected) = &*GENERATED;
    let dir = temp_dir("parquet");
    let target = Target::Parquet(dir.join("out"));
    let (first, again) = load_twice(&target, rows);
    check_loads(first, again, expected.games, expected.moves);
    let out = dir.join("out");
    // Partitions by the games' dates; the second load published nothing.
    let first_date = tag(&TAGS[0], "Date").unwrap().to_string();
    let partition = format!(
        "games/year={}/month={}",
        &first_date[..4],
        &first_date[5..7]
    );
    assert!(
        out.join(&partition).join("part-0.parquet").is_file(),
        "{partition}"
    );
    assert!(!out.join(&partition).join("part-1.parquet").exists());

    answers_as_sqlite(
        rows,
        "DuckDB",
        &|sql| duckdb(&out, sql),
        true,
        &assert_expected,
    );
    let counts = duckdb(&out, "SELECT count(*), sum(ply_count) FROM games");
    assert_eq!(
        counts.rows,
        [[
            Value::Int(expected.games as i64),
            Value::Int(expected.moves as i64)
        ]]
    );
}

#[test]
fn parquet_row_groups_have_statistics_where_a_reader_can_skip_by_them() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let rows = &GENERATED.0;
    let dir = temp_dir("parquet-statistics");
    let mut store = Target::Parquet(dir.to_path_buf()).open().unwrap();
    store.insert(rows, 0..rows.games.len()).unwrap();
    store.finish().unwrap();
    drop(store);
    let files = files_where(&dir.join("moves"), &|name| name.ends_with(".parquet"));
    assert!(!files.is_empty());
    for file in files {
        let reader = SerializedFileReader::new(std::fs::File::open(&file).unwrap()).unwrap();
        for group in reader.metadata().row_groups() {
            let statistics = |name: &str| {
                let column = group
                    .columns()
                    .iter()
                    .find(|c| c.column_path().string() == name)
                    .unwrap_or_else(|| panic!("no column {name}"));
                column.statistics().cloned()
            };
            // Ids, plies and numbers: ranges a query by game or ply skips row groups by.
            for name in ["game_id", "ply", "move_number", "clock"] {
                let s = statistics(name).unwrap_or_else(|| panic!("{name}: no statistics"));
                assert!(
                    s.min_bytes_opt().is_some() && s.max_bytes_opt().is_some(),
                    "{name}"
                );
            }
            // A move's texts span every value in any row group; positions never repeat.
            // (A name misspelled in the list is no column: `statistics` panics.)
            let texts = notate_store::parquet::TEXTS_WITHOUT_STATISTICS;
            assert_eq!(texts.len(), 9);
            for name in texts.into_iter().chain(["fen_before", "fen_after"]) {
                assert!(statistics(name).is_none(), "{name} has statistics");
            }
        }
    }
}

#[test]
fn parquet_takes_row_groups_encoded_by_workers_and_re_encodes_around_known_games() {
    let (rows, expected) = &*GENERATED;
    let dir = temp_dir("parquet-prepared");
    let target = Target::Parquet(dir.to_path_buf());
    // 100 games stored before: the first text's batch then holds known games.
    let mut store = target.open().unwrap();
    store.insert(rows, 0..100).unwrap();
    store.finish().unwrap();
    drop(store);
    let mut store = target.open().unwrap();
    let mut total = notate_store::Inserted::default();
    for text in TEXTS.iter() {
        let mut prepared = Rows::from(rows_of(std::slice::from_ref(text)).0);
        // What a worker does; the store takes it only where every game is new.
        target.preparer().unwrap().prepare(&mut prepared).unwrap();
        let all = 0..prepared.batch.len();
        store.insert_rows(&mut prepared, all).unwrap();
    }
    total += store.finish().unwrap();
    assert_eq!(total.known, 100);
    assert_eq!(total.games, expected.games - 100);
    assert_eq!(
        total.moves,
        expected.moves
            - rows.games[..100]
                .iter()
                .map(|g| g.moves.len() as u64)
                .sum::<u64>()
    );
    drop(store);
    // Every game once, with all its moves, and the same answers as SQLite.
    let counts = duckdb(
        &dir,
        "SELECT count(*), count(DISTINCT id), sum(ply_count) FROM games",
    );
    let n = expected.games as i64;
    assert_eq!(
        counts.rows,
        [[
            Value::Int(n),
            Value::Int(n),
            Value::Int(expected.moves as i64)
        ]]
    );
    let moves = duckdb(&dir, "SELECT count(*) FROM moves");
    assert_eq!(moves.rows, [[Value::Int(expected.moves as i64)]]);
    answers_as_sqlite(
        rows,
        "DuckDB-prepared",
        &|sql| duckdb(&dir, sql),
        true,
        &assert_expected,
    );
}

/// Files under `dir` whose names satisfy `f`, walked recursively.
fn files_where(dir: &Path, f: &dyn Fn(&str) -> bool) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(files_where(&path, f));
        } else if f(&path.file_name().unwrap().to_string_lossy()) {
            found.push(path);
        }
    }
    found
}

#[test]
fn an_interrupted_parquet_load_leaves_whole_files_only() {
    let rows = &GENERATED.0;
    let dir = temp_dir("parquet-interrupted");
    let target = Target::Parquet(dir.to_path_buf());
    {
        // Dropped without `finish`: the open files stay temporary.
        let mut store = target.open().unwrap();
        store.insert(rows, 0..100).unwrap();
    }
    assert!(files_where(&dir, &|n| n.ends_with(".parquet")).is_empty());
    assert!(!files_where(&dir, &|n| n.ends_with(".parquet.tmp")).is_empty());
    // A moves file whose games file never appeared, as a rename cut short would leave.
    std::fs::create_dir_all(dir.join("moves/year=2016/month=05")).unwrap();
    let orphan = dir.join("moves/year=2016/month=05/part-7.parquet");
    std::fs::write(&orphan, b"half a load").unwrap();
    let mut store = target.open().unwrap();
    // One load at a time: a second one is refused while this one holds the directory.
    assert!(target.open().is_err());
    assert!(files_where(&dir, &|n| n.ends_with(".tmp")).is_empty());
    assert!(!orphan.exists());
    store.insert(rows, 0..100).unwrap();
    assert_eq!(store.finish().unwrap().games, 100);
}

#[test]
fn a_finished_parquet_load_frees_the_directory_while_a_process_starts_elsewhere() {
    use std::io::{Read, Write};
    use std::os::unix::process::CommandExt;
    let dir = temp_dir("parquet-lock");
    let target = Target::Parquet(dir.to_path_buf());
    let store = target.open().unwrap();
    // Another thread starts a process: between its `fork` and its `exec` the child holds a
    // copy of every open file, the lock's too. Here that moment lasts two seconds, and the
    // child says through a pipe when it has begun.
    let (mut began, said) = std::io::pipe().unwrap();
    let child = std::thread::spawn(move || {
        let mut command = std::process::Command::new("true");
        // SAFETY: between fork and exec the child only writes to a pipe and sleeps (both
        // async-signal-safe system calls), then execs.
        unsafe {
            command.pre_exec(move || {
                (&said).write_all(b"!")?;
                std::thread::sleep(std::time::Duration::from_secs(2));
                Ok(())
            });
        }
        command.status().unwrap()
    });
    let mut byte = [0];
    began.read_exact(&mut byte).unwrap();
    // The load ends while the child still holds the copy: the directory is free at once.
    drop(store);
    let again = target.open();
    assert!(again.is_ok(), "{:?}", again.err());
    drop(again);
    assert!(child.join().unwrap().success());
}

#[test]
fn postgres_loads_once_and_answers_as_sqlite_does() {
    let server = Server::start();
    let (rows, expected) = &*GENERATED;
    let target = Target::parse(&server.url).unwrap();
    let (first, again) = load_twice(&target, rows);
    check_loads(first, again, expected.games, expected.moves);

    answers_as_sqlite(
        rows,
        "PostgreSQL",
        &|sql| target.query(sql).unwrap(),
        false,
        &assert_expected,
    );
    // Tags are JSON: every tag, also those without a column of their own.
    let elo = TAGS.iter().filter(|t| tag(t, "WhiteElo").is_some()).count();
    let tags = target
        .query("SELECT count(*) FROM games WHERE tags->>'WhiteElo' IS NOT NULL")
        .unwrap();
    assert_eq!(tags.rows, [[Value::Int(elo as i64)]]);
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

/// Two loads at once into one new database, with the same games: one load takes them all in
/// one batch (its rows encoded beforehand, as a load's workers do), the other the games in
/// the opposite order, in two batches: without the inserts in the order of the ids, they meet
/// in the middle, each holding games the other waits for (PostgreSQL's deadlock error). Neither fails (the tables are made once; no
/// deadlock), and every game is stored once with all its moves, by one load or the other.
/// Five new databases in turn, so that the two really meet.
#[test]
fn two_loads_at_once_into_one_postgres_database() {
    let server = Server::start();
    let (rows, expected) = &*GENERATED;
    let mut admin = postgres::Client::connect(&server.url, postgres::NoTls).unwrap();
    for round in 0..5 {
        let name = format!("together{round}");
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap();
        let url = server.url.replace("/postgres", &format!("/{name}"));
        let target = Target::parse(&url).unwrap();
        let start = std::sync::Barrier::new(2);
        let (whole, in_batches) = std::thread::scope(|scope| {
            let whole = scope.spawn(|| {
                let mut all = Rows::from(rows.clone());
                target.preparer().unwrap().prepare(&mut all).unwrap();
                start.wait();
                let mut store = target.open().unwrap();
                store.insert_rows(&mut all, 0..rows.len()).unwrap();
                store.finish().unwrap()
            });
            let in_batches = scope.spawn(|| {
                // The same rows, the games in the opposite order (each keeps its moves).
                let mut reversed = rows.clone();
                reversed.games.reverse();
                start.wait();
                let mut store = target.open().unwrap();
                let mut begin = 0;
                while begin < reversed.len() {
                    let end = (begin + 300).min(reversed.len());
                    store.insert(&reversed, begin..end).unwrap();
                    begin = end;
                }
                store.finish().unwrap()
            });
            (whole.join().unwrap(), in_batches.join().unwrap())
        });
        assert_eq!(
            whole.games + in_batches.games,
            expected.games,
            "round {round}"
        );
        assert_eq!(
            whole.moves + in_batches.moves,
            expected.moves,
            "round {round}"
        );
        assert_eq!(
            whole.known + in_batches.known,
            expected.games,
            "round {round}"
        );
        let count = |sql: &str| match &target.query(sql).unwrap().rows[..] {
            [row] => number(&row[0]).unwrap() as u64,
            other => panic!("{sql}: {other:?}"),
        };
        assert_eq!(
            count("SELECT count(DISTINCT id) FROM games"),
            expected.games
        );
        assert_eq!(count("SELECT count(*) FROM games"), expected.games);
        assert_eq!(count("SELECT count(*) FROM moves"), expected.moves);
        assert_eq!(
            count("SELECT count(*) FROM (SELECT DISTINCT game_id, ply FROM moves) AS m"),
            expected.moves
        );
        assert_eq!(
            count("SELECT count(*) FROM games g WHERE ply_count <> (SELECT count(*) FROM moves WHERE game_id = g.id)"),
            0,
            "every game has all its moves"
        );
    }
}

/// A name, an ECO code or an opening of 3,000 characters (a tag may be 64 KiB) is stored in
/// PostgreSQL and found by the example queries' lookups: its B-tree index refused it (an
/// entry holds at most 2,704 bytes) and failed the whole load. A store made with B-trees
/// there gets hash indexes when a load opens it.
#[test]
fn postgres_stores_names_longer_than_a_b_tree_entry() {
    let server = Server::start();
    let long = "N".repeat(3000);
    let pgn = format!(
        "[White \"{long}\"]\n[Black \"B{long}\"]\n[ECO \"E{long}\"]\n[Opening \"O{long}\"]\n\n1. e4 e5 1-0\n\n\
         [White \"short\"]\n\n1. d4 d5 0-1\n"
    );
    let (rows, _) = rows_of(&[pgn]);
    let mut admin = postgres::Client::connect(&server.url, postgres::NoTls).unwrap();
    admin.batch_execute("CREATE DATABASE long_names").unwrap();
    let url = server.url.replace("/postgres", "/long_names");
    let target = Target::parse(&url).unwrap();
    target.open().unwrap().finish().unwrap();
    // The index as an older notate made it.
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    client
        .batch_execute("DROP INDEX games_white; CREATE INDEX games_white ON games (white)")
        .unwrap();
    let (first, again) = load_twice(&target, &rows);
    assert_eq!((first.games, first.moves), (2, 4));
    assert_eq!((again.games, again.known), (0, 2));
    let found = target
        .query(&format!(
            "SELECT black, result FROM games WHERE white = '{long}'"
        ))
        .unwrap();
    assert_eq!(found.rows, [[text(&format!("B{long}")), text("1-0")]]);
    let methods: Vec<(String, String)> = client
        .query(
            "SELECT c.relname::text, a.amname::text FROM pg_class c JOIN pg_am a ON a.oid = c.relam \
             WHERE c.relname IN ('games_white', 'games_black', 'games_eco') ORDER BY 1",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    let hash = |n: &str| (n.to_string(), "hash".to_string());
    assert_eq!(
        methods,
        [hash("games_black"), hash("games_eco"), hash("games_white")]
    );

    // A query reads only, as SQLite's does; numeric keeps its digits; no statement is an
    // error that says so.
    let e = target.query("DELETE FROM games").unwrap_err().to_string();
    assert!(e.contains("read-only transaction"), "{e}");
    // Nor through a DO block that commits and turns the session's default off.
    let sneaky = "DO $$BEGIN PERFORM set_config('default_transaction_read_only', 'off', false); \
                  COMMIT; DELETE FROM games; END$$";
    assert!(target.query(sneaky).is_err());
    assert_eq!(
        target.query("SELECT count(*) FROM games").unwrap().rows,
        [[Value::Int(2)]]
    );
    let numbers = target
        .query("SELECT 12345678901234567890::numeric, 2.50::numeric, 7::numeric")
        .unwrap();
    assert_eq!(
        numbers.rows,
        [[
            Value::Decimal("12345678901234567890".into()),
            Value::Decimal("2.50".into()),
            Value::Int(7)
        ]]
    );
    // The answer comes through a cursor, 5,000 rows a fetch, in order; what no cursor can
    // hold (`SHOW`) runs whole.
    let series = target
        .query("SELECT n, n * 2 AS twice FROM generate_series(1, 12345) AS n;")
        .unwrap();
    assert_eq!(series.columns, ["n", "twice"]);
    assert_eq!(series.rows.len(), 12345);
    assert!(series
        .rows
        .iter()
        .enumerate()
        .all(|(i, r)| r[..] == [Value::Int(i as i64 + 1), Value::Int(2 * i as i64 + 2)]));
    assert_eq!(
        target.query("SHOW transaction_read_only").unwrap().rows,
        [[text("on")]]
    );
    for nothing in ["", " ; ", "-- nothing\n", "/* nothing */;"] {
        let e = target.query(nothing).unwrap_err().to_string();
        assert_eq!(e, "no SQL statement to run");
    }
}

/// After [`check_id_clashes`]: the store holds the first game (White "A", 2 moves) only.
fn holds_the_first_game_only(query: &dyn Fn(&str) -> QueryResult) {
    let whites = query("SELECT white FROM games ORDER BY white").rows;
    let moves = query("SELECT count(*) FROM moves").rows;
    assert_eq!(
        (whites, moves),
        (vec![vec![text("A")]], vec![vec![Value::Int(2)]])
    );
}

#[test]
fn sqlite_reports_a_different_game_with_a_stored_id() {
    let dir = temp_dir("sqlite-clash");
    let target = Target::Sqlite(dir.join("games.sqlite"));
    check_id_clashes(&target);
    holds_the_first_game_only(&|sql| target.query(sql).unwrap());
}

#[test]
fn parquet_reports_a_different_game_with_a_stored_id() {
    let dir = temp_dir("parquet-clash");
    let out = dir.join("out");
    check_id_clashes(&Target::Parquet(out.clone()));
    holds_the_first_game_only(&|sql| duckdb(&out, sql));
}

#[test]
fn postgres_reports_a_different_game_with_a_stored_id() {
    let server = Server::start();
    let target = Target::parse(&server.url).unwrap();
    check_id_clashes(&target);
    holds_the_first_game_only(&|sql| target.query(sql).unwrap());
}

/// A store made before games had `id_check`: the column is added, empty for the games
/// there, which are then taken for any game with their id (there is nothing to compare).
#[test]
fn sqlite_and_postgres_stores_made_before_checks_get_the_column() {
    let rows = clashing_rows();
    let dir = temp_dir("sqlite-old");
    let path = dir.join("games.sqlite");
    let server = Server::start();
    let sqlite = Target::Sqlite(path.clone());
    let postgres = Target::parse(&server.url).unwrap();
    let drop_check = |target: &Target| {
        let sql = "ALTER TABLE games DROP COLUMN id_check";
        match target {
            Target::Sqlite(_) => rusqlite::Connection::open(&path)
                .unwrap()
                .execute_batch(sql)
                .unwrap(),
            _ => postgres::Client::connect(&server.url, postgres::NoTls)
                .unwrap()
                .batch_execute(sql)
                .unwrap(),
        }
    };
    for target in [&sqlite, &postgres] {
        let mut store = target.open().unwrap();
        store.insert(&rows, 0..1).unwrap();
        store.finish().unwrap();
        drop(store);
        drop_check(target);
        let mut store = target.open().unwrap();
        store.insert(&rows, 0..3).unwrap();
        let again = store.finish().unwrap();
        assert_eq!((again.games, again.known, again.clashes), (0, 3, vec![]));
        let checks = target
            .query("SELECT count(*), count(id_check) FROM games")
            .unwrap();
        assert_eq!(checks.rows, [[Value::Int(1), Value::Int(0)]], "{target:?}");
    }
}

/// A Parquet games file written before games had `id_check` (here: its ids only): its games
/// are known by their ids, as before.
#[test]
fn parquet_files_made_before_checks_are_read_by_their_ids() {
    use std::sync::Arc;
    let rows = clashing_rows();
    let scratch = temp_dir("parquet-old");
    let dir = scratch.join("out");
    let games = dir.join("games/year=2016/month=05");
    std::fs::create_dir_all(&games).unwrap();
    let schema = Arc::new(arrow_schema::Schema::new(vec![arrow_schema::Field::new(
        "id",
        arrow_schema::DataType::Int64,
        false,
    )]));
    let ids = arrow_array::Int64Array::from(vec![rows.games[0].id]);
    let batch = arrow_array::RecordBatch::try_new(schema.clone(), vec![Arc::new(ids)]).unwrap();
    let file = std::fs::File::create(games.join("part-0.parquet")).unwrap();
    let mut writer = parquet::arrow::ArrowWriter::try_new(file, schema, None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    let mut store = Target::Parquet(dir.to_path_buf()).open().unwrap();
    store.insert(&rows, 0..3).unwrap();
    let again = store.finish().unwrap();
    assert_eq!((again.games, again.known, again.clashes), (0, 3, vec![]));
    assert!(!games.join("part-1.parquet").exists());
}
