//! Loads three files of the PGN corpus of `../shared/` (other projects' files, never in the
//! repository) into SQLite, Parquet and PostgreSQL, and runs every query of
//! `examples/queries/` on each: SQLite's answers are asserted (checked by hand against the
//! corpus), the other two must give the same. Run by `scripts/shared-suites` (never by
//! `cargo test`). PostgreSQL runs on a server the test starts itself (`initdb` + `pg_ctl`, from
//! Debian's `postgresql` package); Parquet is queried through DuckDB (`pip install duckdb`).
//! Neither is ever skipped: a missing server or DuckDB fails the test.

use notate::chess::rows::RowBatch;
use notate_store::{QueryResult, Target, Value};

#[path = "stores_common/mod.rs"]
mod stores_common;
use stores_common::*;

/// The games of three corpus files: an old lichess export (one player's 4,690 games, no
/// clocks), a 2025 one with `[%clk]` and `[%eval]` on every move, and TWIC's tournament
/// games with `Opening` tags.
fn corpus_rows() -> RowBatch {
    let corpus = repo().join("../shared/corpus");
    let texts: Vec<String> = [
        "lichess-database-2016-2017/2016-05.pgn",
        "pgn-reader-benches/lichess_db_1000k.pgn",
        "pgn-reader-benches/twic1599_1000k.pgn",
    ]
    .iter()
    .map(|file| {
        std::fs::read_to_string(corpus.join(file)).expect("../shared/corpus beside the project")
    })
    .collect();
    let (rows, refused) = rows_of(&texts);
    assert_eq!(refused, 0);
    rows
}

const GAMES: u64 = 4_798 + 438 + 1_110;
const MOVES: u64 = 217_481 + 28_538 + 101_487;

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

#[test]
fn sqlite_loads_once_and_answers_the_example_queries() {
    let rows = corpus_rows();
    let (target, _dir) = sqlite_loaded(&rows, GAMES, MOVES, &assert_expected);
    // Spot checks against the PGN: the first move of the corpus and a checkmate.
    let first = target
        .query("SELECT san, lran, uci, piece, move_type, player, move_key FROM moves WHERE ply = 1 ORDER BY game_id LIMIT 1")
        .unwrap();
    assert_eq!(first.rows[0].len(), 7);
    let mates = target
        .query("SELECT count(*) FROM moves WHERE is_checkmate AND san NOT LIKE '%#'")
        .unwrap();
    assert_eq!(mates.rows, [[Value::Int(0)]]);
}

#[test]
fn parquet_loads_once_and_duckdb_answers_as_sqlite_does() {
    let rows = corpus_rows();
    let dir = temp_dir("parquet");
    let target = Target::Parquet(dir.join("out"));
    let (first, again) = load_twice(&target, &rows);
    check_loads(first, again, GAMES, MOVES);
    let out = dir.join("out");
    assert!(out
        .join("games/year=2016/month=05/part-0.parquet")
        .is_file());
    assert!(out
        .join("moves/year=2025/month=05/part-0.parquet")
        .is_file());
    // The second load published nothing.
    assert!(!out.join("games/year=2016/month=05/part-1.parquet").exists());

    answers_as_sqlite(
        &rows,
        "DuckDB",
        &|sql| duckdb(&out, sql),
        true,
        &assert_expected,
    );
    let counts = duckdb(&out, "SELECT count(*), sum(ply_count) FROM games");
    assert_eq!(
        counts.rows,
        [[Value::Int(GAMES as i64), Value::Int(MOVES as i64)]]
    );
}

#[test]
fn postgres_loads_once_and_answers_as_sqlite_does() {
    let server = Server::start();
    let rows = corpus_rows();
    let target = Target::parse(&server.url).unwrap();
    let (first, again) = load_twice(&target, &rows);
    check_loads(first, again, GAMES, MOVES);

    answers_as_sqlite(
        &rows,
        "PostgreSQL",
        &|sql| target.query(sql).unwrap(),
        false,
        &assert_expected,
    );
    // Tags are jsonb: every tag, also those without a column of their own.
    let tags = target
        .query("SELECT tags->>'PlyCount' FROM games WHERE site = 'https://lichess.org/SXUUbfSF'")
        .unwrap();
    assert_eq!(tags.rows, [[text("37")]]);
}
