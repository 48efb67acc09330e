//! The `notate` command as a user runs it: exit codes, error lines, summaries, formats.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn notate(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that stops before reading (a usage error) closes the pipe: not a failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const TWO_GAMES: &str = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[White \"C\"]\n[Black \"D\"]\n\n1. d4 d5 2. Nf9 *\n";

#[test]
fn a_bad_game_is_reported_and_the_rest_converted() {
    let out = notate(&["convert", "--to", "uci"], TWO_GAMES);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "e2e4 e7e5 g1f3 b8c6\n");
    let err = text(&out.stderr);
    assert!(
        err.contains(
            "<stdin>:9:13: game 2 (C – D), ply 3 \"Nf9\": not a move, result or annotation"
        ),
        "{err}"
    );
    assert!(err.ends_with("converted 1 game, 1 failed\n"), "{err}");
}

#[test]
fn illegal_moves_name_file_line_column_game_and_ply() {
    let scratch = notate_testdata::scratch_dir("notate-cli");
    let dir = scratch.path().to_path_buf();
    let path = dir.join("g.pgn");
    std::fs::write(&path, "[White \"X\"]\n\n1. e4 e5\n2. Ke3 *\n").unwrap();
    let out = notate(&["check", path.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    let want = format!(
        "{}:4:4: game 1 (X – ?), ply 3 \"Ke3\": illegal move in ",
        path.display()
    );
    assert!(err.starts_with(&want), "{err}");
}

#[test]
fn check_goes_on_after_a_bad_game() {
    let input = "1. e4 e5 2. Ke3 *\n1. d4 d5 *\n\n[White \"Z\"]\n\n1. c4 *\n";
    let out = notate(&["check"], input);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("<stdin>:1:13: game 1 (? – ?), ply 3 \"Ke3\": illegal move in "),
        "{err}"
    );
    assert!(err.ends_with("checked 2 games, 1 failed\n"), "{err}");
}

#[test]
fn check_counts_the_games_convert_counts_after_an_unreadable_move() {
    // The rest of a game after an unreadable move was checked as a game of its own: here a
    // second failed game, whose first move (`e5`) was White's.
    let input = "[Event \"a\"]\n\n1. e4 Zz9x e5 2. Nf3 *\n\n[Event \"b\"]\n\n1. d4 *\n";
    for (job, summary) in [("check", "checked"), ("convert", "converted")] {
        let out = notate(
            &[job, "--to", "uci"][..if job == "check" { 1 } else { 3 }],
            input,
        );
        assert_eq!(out.status.code(), Some(1));
        let err = text(&out.stderr);
        assert_eq!(
            err,
            format!(
                "<stdin>:3:7: game 1 (? – ?), ply 2 \"Zz9x\": not a move, result or annotation\n\
                 {summary} 1 game, 1 failed\n"
            )
        );
    }
}

#[test]
fn strict_stops_at_the_first_error() {
    let input = format!("{TWO_GAMES}\n1. e4 *\n");
    let out = notate(&["convert", "--to", "uci", "--strict"], &input);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).ends_with("converted 1 game, 1 failed\n"));
}

/// A named pipe or a device is an input as a file is (`notate load <(zcat …)`).
#[cfg(unix)]
#[test]
fn inputs_that_are_not_regular_files_are_read() {
    let scratch = notate_testdata::scratch_dir("notate-cli-fifo");
    let dir = scratch.path().to_path_buf();
    let fifo = dir.join("games.pgn");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, "1. e4 e5 *\n\n1. d4 *\n").unwrap())
    };
    let out = notate(&["convert", "--to", "uci", fifo.to_str().unwrap()], "");
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "e2e4 e7e5\nd2d4\n");
    let out = notate(&["check", "--from", "pgn", "/dev/null"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn usage_errors_exit_2_and_say_what_to_do() {
    let out = notate(&["convert", "--to", "nonsense"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = notate(&["check", "/no/such/file.pgn"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no such file"));
    let out = notate(&["check", "--from", "pgn", "/"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("a directory, not a file"));
    let out = notate(&["position", "--ply", "x"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn json_round_trip_through_the_command() {
    let pgn = "[White \"A\"]\n\n1. e4 {hi [%clk 0:01:00]} (1. d4 $1) e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    let json = notate(&["convert", "--to", "json"], pgn);
    assert_eq!(json.status.code(), Some(0));
    let back = notate(&["convert", "--to", "pgn"], &text(&json.stdout));
    assert_eq!(back.status.code(), Some(0), "{}", text(&back.stderr));
    assert_eq!(
        text(&back.stdout),
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A\"]\n[Black \"?\"]\n\
         [Result \"1-0\"]\n\n1. e4 {hi [%clk 0:01:00]} (1. d4 $1) 1... e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
    );
}

#[test]
fn positions_fen_and_epd() {
    let pgn = "1. e4 e5 2. Nf3 *\n\n1. d4 *\n";
    let out = notate(&["position", "--ply", "2"], pgn);
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout.lines().next(),
        Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    );
    assert_eq!(out.status.code(), Some(1), "game 2 has one ply only");
    let out = notate(
        &["position", "--ply", "end", "--game", "2", "--to", "epd"],
        pgn,
    );
    assert_eq!(
        text(&out.stdout),
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n"
    );
    assert_eq!(out.status.code(), Some(0));
    let out = notate(&["convert", "--to", "fen"], "1. e4 *");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout).lines().count(), 3);
}

#[test]
fn compressed_input_is_read_on_the_fly() {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(TWO_GAMES.as_bytes()).unwrap();
    let scratch = notate_testdata::scratch_dir("notate-gz");
    let dir = scratch.path().to_path_buf();
    let path = dir.join("games.pgn.gz");
    std::fs::write(&path, gz.finish().unwrap()).unwrap();
    let out = notate(&["convert", path.to_str().unwrap(), "--to", "uci"], "");
    assert_eq!(text(&out.stdout), "e2e4 e7e5 g1f3 b8c6\n");
    // Told by the bytes, not the name: gzip in a `.pgn` reads; a `.gz` that is not, fails.
    let misnamed = dir.join("gzip-inside.pgn");
    std::fs::rename(&path, &misnamed).unwrap();
    let out = notate(&["convert", misnamed.to_str().unwrap(), "--to", "uci"], "");
    assert_eq!(text(&out.stdout), "e2e4 e7e5 g1f3 b8c6\n");
    let plain = dir.join("plain.pgn.gz");
    std::fs::write(&plain, TWO_GAMES).unwrap();
    let out = notate(&["convert", plain.to_str().unwrap(), "--to", "uci"], "");
    assert_ne!(out.status.code(), Some(0));
    let err = text(&out.stderr);
    assert!(
        err.contains("plain.pgn.gz: not gzip data (its first bytes are no gzip header)"),
        "{err}"
    );
}

#[test]
fn warnings_are_reported_and_counted() {
    let out = notate(&["check"], "1. e4 ^5blergh e5 *\n");
    assert_eq!(out.status.code(), Some(0));
    let err = text(&out.stderr);
    assert!(err.contains("<stdin>:1:7: game 1 (? – ?), ply 2 \"^5blergh\": skipped: not a move, result or annotation (warning)"), "{err}");
    assert!(
        err.ends_with("checked 1 game, 0 failed, 1 warning\n"),
        "{err}"
    );
}

const EGD_GAMES: &str = "[White \"A\"]\n\n1. e4 e5 1-0\n\n[White \"N\"]\n\n1. d4 -- 2. c4 *\n\n[White \"C\"]\n\n1. f3 e5 2. g4 Qh4 0-1\n";

#[test]
fn egd_lines_in_order_and_a_game_egd_cannot_hold_is_reported() {
    let out = notate(&["convert", "--to", "egd"], EGD_GAMES);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "no partial line for the null-move game");
    assert!(lines[0].starts_with(r#"{"game_tags":{"Result":"1-0","White":"A"},"moves":{"1w":"#));
    assert!(lines[1].starts_with(r#"{"game_tags":{"Result":"0-1","White":"C"}"#));
    // Mate computed from the position: the file has no `#`.
    assert!(lines[1].ends_with(
        r#""end_position":{"fen":"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3","features":{"check":true,"checkmate":true}}}}}"#
    ));
    let err = text(&out.stderr);
    assert!(
        err.contains(
            "<stdin>:7:7: game 2 (N – ?), ply 2 \"--\": a null move: EGD has no way to write one"
        ),
        "{err}"
    );
    assert!(err.ends_with("converted 2 games, 1 failed\n"), "{err}");
}

#[test]
fn a_game_a_line_that_egd_cannot_hold_is_reported_at_its_own_line() {
    // The games as notate's JSON, one a line: the null-move game is the second line, and its
    // error is placed there (its moves' offsets count from its own line, not the chunk's).
    let json = notate(&["convert", "--to", "json"], EGD_GAMES);
    let out = notate(
        &["convert", "--from", "json", "--to", "egd"],
        &text(&json.stdout),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.starts_with(
            "<stdin>:2:1: game 2 (N – ?), ply 2 \"--\": a null move: EGD has no way to write one"
        ),
        "{err}"
    );
}

#[test]
fn an_icn_game_the_output_cannot_hold_is_placed_at_its_start() {
    let out = notate(
        &[
            "convert",
            "--from",
            "icn",
            "--to",
            "icn",
            "--dialect",
            "2025",
        ],
        "[My_Tag \"a\"] w K5,1|k5,8 5,1>5,2\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.starts_with(
            "<stdin>:1:1: game 1: cannot write: tag key \"My_Tag\": the 2025 dialect allows letters only"
        ),
        "{err}"
    );
}

#[test]
fn egd_reads_back_detected_from_content() {
    let egd = notate(
        &["convert", "--to", "egd"],
        "[White \"A\"]\n\n1. e4 e5 2. Nf3 {x} Nc6 1-0\n",
    );
    assert_eq!(egd.status.code(), Some(0));
    let back = notate(&["convert", "--to", "pgn"], &text(&egd.stdout));
    assert_eq!(back.status.code(), Some(0), "{}", text(&back.stderr));
    assert_eq!(
        text(&back.stdout),
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A\"]\n[Black \"?\"]\n\
         [Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n"
    );
    // A line that is not EGD is an error with its place; the next line still converts.
    let broken = format!(
        "{{\"game_tags\":{{}},\"moves\":{{\"1w\":{{\"move\":{{\"san\":\"Nf6\"}}}}}}}}\n{}",
        text(&egd.stdout)
    );
    let out = notate(&["convert", "--from", "egd", "--to", "uci"], &broken);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "e2e4 e7e5 g1f3 b8c6\n");
    assert!(
        text(&out.stderr).contains("<stdin>:1:1: game 1"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn egd_pretty_and_extended() {
    let out = notate(
        &["convert", "--to", "egd", "--pretty", "--egd-extended"],
        "1. e4 $1 {[%clk 0:03:00] good} e5 *\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("{\n  \"game_tags\": {\n    \"Result\": \"*\"\n  },"),
        "{stdout}"
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let first = &doc["moves"]["1w"];
    assert_eq!(first["move"]["nags"], serde_json::json!([1]));
    assert_eq!(first["move"]["glyphs"], serde_json::json!(["!"]));
    assert_eq!(first["move"]["comment"], "good");
    assert_eq!(first["move"]["clock"], 180);
    assert_eq!(first["start_position"]["features"]["repetition"], 1);
    assert_eq!(first["end_position"]["features"]["halfmove_clock"], 0);
    let usage = notate(&["convert", "--to", "pgn", "--pretty"], "1. e4 *\n");
    assert_eq!(usage.status.code(), Some(2));
    assert!(text(&usage.stderr).contains("an option of --to egd and --to jkf, not --to pgn"));
}

#[test]
fn tracks_one_line_per_game() {
    let out = notate(
        &["convert", "--to", "tracks"],
        "[White \"A\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 Bf5 5. Bd2 Nc6 6. Qf3 O-O-O 0-1\n\n[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8=Q+ *\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].starts_with(r#"{"game_tags":{"White":"A","Result":"0-1"},"start":{"wqr":"a1""#),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains(r#"{"ply":3,"san":"exd5","actions":[["wkp","d5"],["bqp","x"]]}"#));
    assert!(
        lines[0].ends_with(r#"{"ply":12,"san":"O-O-O","actions":[["bk","c8"],["bqr","d8"]]}]}"#),
        "{}",
        lines[0]
    );
    assert_eq!(
        lines[1],
        r#"{"game_tags":{"FEN":"4k3/P7/8/8/8/8/8/4K3 w - - 0 1","Result":"*"},"start":{"wk":"e1","wP":"a7","bk":"e8"},"moves":[{"ply":1,"san":"a8=Q+","actions":[["wP","a8"],["wP","p"],["wQ","a8"]]}]}"#
    );
}

#[test]
fn jsonchess_round_trip_and_errors_name_the_field() {
    let out = notate(
        &["convert", "--to", "jsonchess"],
        "[White \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O 1-0\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"game_tags\":{\"White\":\"A\",\"Result\":\"1-0\"},\"moves\":[\"1,0,e4,0,e2,e4,N,e3\",\"1,1,e5,0,e7,e5,N,e6\",\"2,2,Nf3,0,g1,f3,N,N\",\"2,3,Nc6,0,b8,c6,N,N\",\"3,4,Bc4,0,f1,c4,N,N\",\"3,5,Nf6,0,g8,f6,N,N\",\"4,6,O-O,0,e1,g1,A,N,c,h1,f1\"]}\n"
    );
    // Read back, detected from the content.
    let back = notate(&["convert", "--to", "uci"], &text(&out.stdout));
    assert_eq!(back.status.code(), Some(0), "{}", text(&back.stderr));
    assert_eq!(text(&back.stdout), "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1\n");
    // A bad string: file, line, column of the string, game, ply, field.
    let bad = "{\"game_tags\":{},\"moves\":[\"1,0,e4,0,e2,e4,N,e3\",\"1,1,e5,0,e7,e5,K,e6\"]}\n";
    let out = notate(&["convert", "--to", "pgn"], bad);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("<stdin>:1:49: game 1 (? – ?), ply 2 \"1,1,e5,0,e7,e5,K,e6\": field 7 \"K\": the mover loses no castling right: N"),
        "{err}"
    );
}

#[test]
fn icn_converts_both_ways_and_replays() {
    let example = format!("{}/../../examples/castle.icn", env!("CARGO_MANIFEST_DIR"));
    let out = notate(
        &["convert", &example, "--to", "icn-json", "--single-line"],
        "",
    );
    assert!(out.status.success());
    let json = String::from_utf8(out.stdout).unwrap();
    assert!(
        json.contains(r#""moves":["4,2>4,4","3,4>4,3","5,1>7,1"]"#),
        "{json}"
    );
    let out = notate(&["position", &example, "--ply", "end", "--to", "icn"], "");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "[Variant \"Classical\"]\n\nb 1/100 2 (8|1) k5,8+|p4,3|K7,1|R6,1\n"
    );
    let out = notate(
        &[
            "convert",
            &example,
            "--to",
            "icn",
            "--moves",
            "minimal",
            "--dialect",
            "2025",
            "--single-line",
        ],
        "",
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        // The site's compact style: no blank before a comment, no `?!`.
        "[Variant \"Classical\"] w 0/100 1 (8|1) K5,1+|R8,1+|P4,2+|k5,8+|p3,4 4,2>4,4|3,4>4,3{[%clk 0:09:56.7] en passant}|5,1>7,1\n"
    );
}

#[test]
fn icn_errors_name_file_line_and_column() {
    let scratch = notate_testdata::scratch_dir("notate-icn");
    let dir = scratch.path().to_path_buf();
    let bad = dir.join("bad.icn");
    std::fs::write(&bad, "w K1,1|XX2,2").unwrap();
    let out = notate(&["convert", bad.to_str().unwrap(), "--to", "icn-json"], "");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("bad.icn:1:8: game 1 \"XX2,2\": unknown piece code \"XX\"\nconverted 0 games, 1 failed\n"),
        "{err}"
    );
    let moves = dir.join("moves.icn.json");
    std::fs::write(
        &moves,
        r#"{"metadata":{},"turn":"white","startingPosition":{"1,1":"kingsW"},"moves":["2,2>2,3"]}"#,
    )
    .unwrap();
    let out = notate(
        &[
            "position",
            moves.to_str().unwrap(),
            "--ply",
            "1",
            "--to",
            "icn",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("moves.icn.json: game 1, ply 1 \"2,2>2,3\": no piece on 2,2"),
        "{err}"
    );
    // ICN on stdin is told from PGN by its content.
    let out = notate(
        &["convert", "--to", "icn-json", "--single-line"],
        "[Event \"x\"] w K1,1|k2,2 1,1>1,2",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(r#""moves":["1,1>1,2"]"#));
}

fn shogi_vector(name: &str) -> String {
    format!("{}/../../vectors/shogi/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn shogi_converts_between_every_format_and_detects_them() {
    // Shift_JIS KIF in, CSA out; the format and the encoding are detected.
    let out = notate(
        &["convert", &shogi_vector("game1_sjis.kif"), "--to", "csa"],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let csa = text(&out.stdout);
    assert!(
        csa.starts_with("'CSA encoding=UTF-8\nV3.0\nN+Alice\nN-Bob\n"),
        "{csa}"
    );
    assert!(csa.contains("+8822KA\nT10\n-3122GI\nT2\n"), "{csa}");
    // CSA from stdin (detected by content) to KI2, then KI2 to USI.
    let out = notate(&["convert", "--to", "ki2"], &csa);
    let ki2 = text(&out.stdout);
    assert!(ki2.contains("▲２二角不成  △同　銀"), "{ki2}");
    let out = notate(&["convert", "--to", "usi"], &ki2);
    assert_eq!(
        text(&out.stdout),
        "position startpos moves 7g7f 3c3d 8h2b 3a2b B*4e 1c1d 4e3d 8b4b 3d2c+ 2b2c\n"
    );
    // Western needs --from; written with digit squares on request.
    let out = notate(
        &[
            "convert",
            "--from",
            "western",
            "--to",
            "western",
            "--western-squares",
            "digit",
        ],
        "P-7f P-3d Bx2b= Sx2b",
    );
    assert_eq!(text(&out.stdout), "1. P-76 P-34 2. Bx22= Sx22\n");
    // KIF in Shift_JIS on request, and JKF.
    let out = notate(
        &[
            "convert",
            &shogi_vector("game1.kifu"),
            "--to",
            "kif",
            "--to-encoding",
            "shift_jis",
        ],
        "",
    );
    // The vector, but its first line (a `#` comment, which KIF readers skip).
    let sjis = std::fs::read(shogi_vector("game1_sjis.kif")).unwrap();
    let after_comment = sjis.iter().position(|&b| b == b'\n').unwrap() + 1;
    assert_eq!(out.stdout, sjis[after_comment..]);
    let out = notate(&["convert", &shogi_vector("pos2.csa"), "--to", "jkf"], "");
    let jkf: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(jkf["initial"]["preset"], "OTHER");
    assert_eq!(jkf["moves"][5]["special"], "CHUDAN");
}

#[test]
fn shogi_positions_and_sfen_per_ply() {
    let out = notate(
        &[
            "position",
            &shogi_vector("game1.csa"),
            "--ply",
            "9",
            "--to",
            "sfen",
        ],
        "",
    );
    assert_eq!(
        text(&out.stdout),
        "lnsgkg1nl/5r1s1/pppppp1+B1/8p/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w 2Pb 10\n"
    );
    let out = notate(
        &["convert", &shogi_vector("pos2_bod.kifu"), "--to", "sfen"],
        "",
    );
    assert_eq!(
        text(&out.stdout),
        "4k4/9/9/9/9/9/9/9/4K4 b G2P2r2b3g4s4n4l16p 1\n\
         4k4/4G4/9/9/9/9/9/9/4K4 w 2P2r2b3g4s4n4l16p 2\n\
         9/4k4/9/9/9/9/9/9/4K4 b 2P2r2b4g4s4n4l16p 3\n\
         9/4k4/4P4/9/9/9/9/9/4K4 w P2r2b4g4s4n4l16p 4\n\
         9/9/4k4/9/9/9/9/9/4K4 b P2r2b4g4s4n4l17p 5\n\n"
    );
}

#[test]
fn shogi_errors_name_file_line_and_text_and_the_run_goes_on() {
    let scratch = notate_testdata::scratch_dir("notate-shogi");
    let dir = scratch.path().to_path_buf();
    let bad = dir.join("bad.kifu");
    std::fs::write(&bad, "手合割：平手\n   1 ７六歩(77)\n   2 ３五歩(33)\n").unwrap();
    let out = notate(
        &[
            "convert",
            bad.to_str().unwrap(),
            &shogi_vector("game1.csa"),
            "--to",
            "usi",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "position startpos moves 7g7f 3c3d 8h2b 3a2b B*4e 1c1d 4e3d 8b4b 3d2c+ 2b2c\n"
    );
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!(
            "{}:3:6: game 1, ply 2 \"３五歩(33)\": the pawn on 3c cannot reach 3e",
            bad.display()
        )),
        "{err}"
    );
    assert!(err.ends_with("converted 1 game, 1 failed\n"), "{err}");
    // Variations that a format cannot hold are said, not dropped in silence.
    let out = notate(
        &[
            "convert",
            &shogi_vector("game1_variation.kifu"),
            "--to",
            "csa",
        ],
        "",
    );
    assert!(
        text(&out.stderr).contains("1 variation(s) not written"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn shogi_opening_book_converts_to_move_lists() {
    let book = format!(
        "{}/../../examples/openings.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = notate(
        &["convert", &book, "--from", "shogi-book", "--to", "usi"],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "position startpos moves 2g2f 8c8d 2f2e\nposition startpos moves 7g7f 8c8d 6i7h\n"
    );
    let out = notate(&["convert", &book, "--to", "western"], "");
    assert_eq!(
        text(&out.stdout),
        "1. P-2f P-8d 2. P-2e\n\n1. P-7f P-8d 2. G-7h\n"
    );
    let out = notate(&["convert", &book, "--to", "kif"], "");
    assert!(text(&out.stdout).contains("戦型：Yagura\n手合割：平手\n"));
}

#[test]
fn load_is_idempotent_and_query_prints_table_csv_and_json() {
    let scratch = notate_testdata::scratch_dir("notate-cli-load");
    let dir = scratch.path().to_path_buf();
    let db = dir.join("games.sqlite");
    let db = db.to_str().unwrap();
    let input = "[White \"A\"]\n[Black \"B\"]\n[Date \"2016.05.01\"]\n\n1. e4 { [%clk 0:03:00] } e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n1. d4 Ke7 *\n\n[White \"C\"]\n\n1. d4 *\n";
    let out = notate(&["load", "--db", db], input);
    assert_eq!(out.status.code(), Some(1), "one bad game");
    let err = text(&out.stderr);
    assert!(
        err.contains("<stdin>:7:7: game 2 (? – ?), ply 2 \"Ke7\""),
        "{err}"
    );
    let summary = format!(
        "read 2 games, 1 failed\nloaded into {db}: 2 new games with 8 moves, 0 already there\n"
    );
    assert!(err.ends_with(&summary), "{err}");
    let again = notate(&["load", "--db", db, "--quiet"], input);
    assert!(
        text(&again.stderr).contains(": 0 new games with 0 moves, 2 already there"),
        "{}",
        text(&again.stderr)
    );

    let sql = "SELECT white, ply_count, result FROM games ORDER BY ply_count DESC";
    let table = notate(&["query", "--db", db, sql], "");
    assert_eq!(table.status.code(), Some(0), "{}", text(&table.stderr));
    assert_eq!(
        text(&table.stdout),
        "white  ply_count  result\n-----  ---------  ------\nA              7  1-0\nC              1  *\n(2 rows)\n"
    );
    let mate = "SELECT move_key, san, lran, clock FROM moves WHERE is_check ORDER BY ply";
    let csv = notate(&["query", "--db", db, "--format", "csv", mate], "");
    assert_eq!(
        text(&csv.stdout),
        "move_key,san,lran,clock\n4w,Qxf7#,Qh5xf7,\n"
    );
    let json = notate(
        &["query", "--db", db, "--format", "json", "-"],
        "SELECT ply, clock FROM moves WHERE clock IS NOT NULL",
    );
    assert_eq!(text(&json.stdout), "[\n{\"ply\":1,\"clock\":180.0}\n]\n");

    let bad = notate(&["query", "--db", db, "SELECT nonsense FROM games"], "");
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        text(&bad.stderr).contains("no such column: nonsense"),
        "{}",
        text(&bad.stderr)
    );
    let missing = notate(
        &[
            "query",
            "--db",
            dir.join("none.sqlite").to_str().unwrap(),
            "SELECT 1",
        ],
        "",
    );
    assert!(
        text(&missing.stderr).contains("no database at"),
        "{}",
        text(&missing.stderr)
    );
    let parquet = notate(&["query", "--db", "parquet:somewhere", "SELECT 1"], "");
    assert!(
        text(&parquet.stderr).contains("query it with DuckDB"),
        "{}",
        text(&parquet.stderr)
    );
    let empty = notate(&["load", "--db", "parquet:"], input);
    assert_eq!(empty.status.code(), Some(2));

    // A stored game with another check stands for a different game with the same id (two
    // equal 64-bit hashes, which no test finds by chance): the game read is not taken for
    // it, but reported, named, and the load fails.
    rusqlite::Connection::open(db)
        .unwrap()
        .execute_batch("UPDATE games SET id_check = id_check + 1 WHERE white = 'A'")
        .unwrap();
    let clash = notate(&["load", "--db", db, "--quiet"], input);
    assert_eq!(clash.status.code(), Some(1));
    let err = text(&clash.stderr);
    assert!(
        err.contains(&format!(
            "notate: {db}: A – B, 2016.05.01: not stored: a different game stored before has its id "
        )),
        "{err}"
    );
    assert!(
        err.ends_with(": 0 new games with 0 moves, 1 already there, 1 not stored (a different game has the id: see above)\n"),
        "{err}"
    );
}

/// Runs notate, reads a little of its output and closes the pipe, as `| head` does.
fn stopped_reader(args: &[&str]) -> Output {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 100];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_reader_that_stops_is_no_error() {
    let scratch = notate_testdata::scratch_dir("notate-head");
    let dir = scratch.path().to_path_buf();
    // Far more output than a pipe holds, for every kind of job.
    let pgn = dir.join("long.pgn");
    std::fs::write(&pgn, TWO_GAMES.replace("Nf9", "Nf3").repeat(20_000)).unwrap();
    let icn = dir.join("long.icn");
    let moves: Vec<String> = (0..20_000)
        .map(|i| {
            format!(
                "{}. K5,1>5,2 | k5,8>5,7 {}. K5,2>5,1 | k5,7>5,8",
                2 * i + 1,
                2 * i + 2
            )
        })
        .collect();
    std::fs::write(
        &icn,
        format!("w 0/100 1 K5,1+|k5,8+\n\n{}\n", moves.join(" ")),
    )
    .unwrap();
    let csa = dir.join("long.csa");
    let record = "V2.2\nPI\n+\n+2726FU\n-3334FU\n%TORYO\n/\n".repeat(20_000);
    std::fs::write(&csa, record).unwrap();
    for args in [
        vec!["convert", pgn.to_str().unwrap(), "--to", "egd"],
        vec!["convert", icn.to_str().unwrap(), "--to", "icn-json"],
        vec!["convert", csa.to_str().unwrap(), "--to", "sfen"],
    ] {
        let out = stopped_reader(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(!text(&out.stderr).contains("Broken pipe"), "{args:?}");
    }
}

/// Chess, infinite chess and shogi run through one pipeline: `check` replays every family,
/// stdin is told by its content, and `--strict`, `--game`, `--threads` and the summaries
/// behave the same for all.
#[test]
fn every_family_runs_through_one_pipeline() {
    let scratch = notate_testdata::scratch_dir("notate-families");
    let dir = scratch.path().to_path_buf();
    let icn = dir.join("game.icn");
    std::fs::write(&icn, "w K5,1|k5,8 5,1>5,2|5,8>5,7").unwrap();
    let illegal = dir.join("illegal.icn");
    std::fs::write(&illegal, "w K5,1|k5,8 5,1>5,2|5,1>5,3").unwrap();

    // `check` on ICN replays the moves: a move from an empty square fails with its ply.
    let out = notate(&["check", icn.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "checked 1 game, 0 failed\n");
    let out = notate(
        &["check", illegal.to_str().unwrap(), icn.to_str().unwrap()],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("illegal.icn: game 1, ply 2 \"5,1>5,3\": "),
        "{err}"
    );
    assert!(err.ends_with("checked 1 game, 1 failed\n"), "{err}");
    // --strict stops at the first failure, for ICN as for PGN.
    let out = notate(
        &[
            "check",
            "--strict",
            illegal.to_str().unwrap(),
            icn.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).ends_with("checked 0 games, 1 failed\n"));

    // A shogi record on stdin is told by its content.
    let kifu = std::fs::read_to_string(shogi_vector("game1.kifu")).unwrap();
    let out = notate(&["check"], &kifu);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "checked 1 game, 0 failed\n");
    let out = notate(&["position", "--ply", "1"], &kifu);
    assert_eq!(
        text(&out.stdout),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n"
    );

    // Several shogi inputs of two formats, in order, on any number of threads.
    let args = |threads: &'static str| {
        vec![
            "convert".to_string(),
            shogi_vector("game1.kifu"),
            shogi_vector("game1.csa"),
            "--to".into(),
            "usi".into(),
            "--strict".into(),
            "--threads".into(),
            threads.into(),
        ]
    };
    let run = |threads| {
        let args = args(threads);
        notate(&args.iter().map(String::as_str).collect::<Vec<_>>(), "")
    };
    let one = run("1");
    assert!(one.status.success(), "{}", text(&one.stderr));
    assert_eq!(text(&one.stdout).lines().count(), 2);
    assert_eq!(text(&one.stdout), text(&run("2").stdout));
    assert_eq!(text(&one.stderr), "converted 2 games, 0 failed\n");
    // 1 to 256 threads, else a usage error before anything is read.
    for bad in ["0", "257", "-1", "two"] {
        let refused = run(bad);
        assert_eq!(refused.status.code(), Some(2), "--threads {bad}");
        assert!(text(&refused.stdout).is_empty(), "--threads {bad}");
    }
    assert!(run("256").status.success());

    // --game picks one game of each input, whatever the family.
    let both = dir.join("both.usi");
    std::fs::write(
        &both,
        "position startpos moves 7g7f\nposition startpos moves 2g2f\n",
    )
    .unwrap();
    let out = notate(
        &[
            "convert",
            both.to_str().unwrap(),
            "--to",
            "csa",
            "--game",
            "2",
        ],
        "",
    );
    assert!(
        text(&out.stdout).ends_with("+2726FU\n"),
        "{}",
        text(&out.stdout)
    );
    assert!(!text(&out.stdout).contains("7776FU"));

    // A job that cannot write an input's family says so before it runs.
    let out = notate(&["convert", icn.to_str().unwrap(), "--to", "pgn"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .contains("infinite chess input converts to icn, icn-json, tracks or view"),
        "{}",
        text(&out.stderr)
    );
    // … and when the input is only told by its content, the input is refused as it opens.
    let out = notate(&["convert", "--to", "pgn"], &kifu);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("<stdin>: shogi input converts to sfen, usi"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn piece_letters_of_another_language_on_request() {
    let german = "1. e4 e5 2. Sf3 Sc6 3. Lb5 *\n";
    let out = notate(&["convert", "--to", "uci"], german);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("<stdin>:1:13: game 1 (? – ?), ply 3 \"Sf3\""),
        "{}",
        text(&out.stderr)
    );
    let out = notate(&["convert", "--to", "uci", "--piece-letters", "de"], german);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "e2e4 e7e5 g1f3 b8c6 f1b5\n");
    let out = notate(&["convert", "--to", "uci", "--piece-letters", "xx"], german);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("de, da, no, sv"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn several_shogi_records_round_trip_through_kif_ki2_and_jkf() {
    let two = "V2.2\nN+a\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n/\nV2.2\nN+c\nPI\n+\n+2726FU\n%CHUDAN\n";
    for to in ["kif", "ki2", "jkf"] {
        let out = notate(&["convert", "--from", "csa", "--to", to], two);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let back = notate(
            &["convert", "--from", to, "--to", "usi"],
            &text(&out.stdout),
        );
        assert_eq!(back.status.code(), Some(0), "{to}: {}", text(&back.stderr));
        assert_eq!(
            text(&back.stdout),
            "position startpos moves 7g7f 3c3d\nposition startpos moves 2g2f\n",
            "{to}"
        );
        assert!(
            text(&back.stderr).contains("converted 2 games, 0 failed"),
            "{to}"
        );
    }
}

#[test]
fn a_shogi_reader_warning_names_its_place() {
    // A repeated move number is read in order, and said.
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   1 ３四歩(33)\n";
    let out = notate(&["convert", "--from", "kif", "--to", "usi"], kif);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "position startpos moves 7g7f 3c3d\n");
    let err = text(&out.stderr);
    assert!(
        err.contains("<stdin>:4:4: game 1 \"   1 ３四歩(33)\": move number 1, expected 2: read as move 2 (warning)"),
        "{err}"
    );
}

#[test]
fn shogi_and_infinite_chess_tracks_one_line_per_game() {
    let out = notate(
        &["convert", "--from", "usi", "--to", "tracks"],
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 1);
    assert!(
        stdout.starts_with(r#"{"header":{},"start":{"wL9a":"9a","wN8a":"8a""#),
        "{stdout}"
    );
    assert!(stdout.ends_with(
        r#"{"ply":3,"usi":"8h2b+","actions":[["bB8h","2b"],["bB8h","+"],["wB2b","b"]]},{"ply":4,"usi":"3a2b","actions":[["wS3a","2b"],["bB8h","w"]]},{"ply":5,"usi":"B*4e","actions":[["wB2b","4e"]]}]}
"#
    ), "{stdout}");
    let out = notate(
        &["convert", &shogi_vector("game1.kifu"), "--to", "tracks"],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with(r#"{"header":{"開始日時":"2024/01/02 10:00:00""#));
    let out = notate(
        &["convert", "--from", "icn", "--to", "tracks"],
        "w K5,1|k5,8 5,1>5,2\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"metadata\":{},\"start\":{\"wK5,1\":\"5,1\",\"bK5,8\":\"5,8\"},\"moves\":[{\"ply\":1,\"icn\":\"5,1>5,2\",\"actions\":[[\"wK5,1\",\"5,2\"]]}]}\n"
    );
}

#[test]
fn view_documents_hold_the_tracks_and_every_position_for_every_family() {
    let pgn = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 d5 2. exd5 Qxd5 {centre} *\n";
    let view = notate(&["convert", "--to", "view"], pgn);
    assert_eq!(view.status.code(), Some(0), "{}", text(&view.stderr));
    let tracks = notate(&["convert", "--to", "tracks"], pgn);
    let doc: serde_json::Value = serde_json::from_slice(&view.stdout).unwrap();
    let tracks: serde_json::Value = serde_json::from_slice(&tracks.stdout).unwrap();
    assert_eq!(doc["family"], "chess");
    assert_eq!(doc["tracks"], tracks);
    let positions = doc["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 5);
    assert_eq!(
        positions[0],
        serde_json::json!({"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                           "features": {"halfmove_clock": 0, "repetition": 1}})
    );
    assert_eq!(
        positions[4],
        serde_json::json!({"fen": "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
                           "features": {"halfmove_clock": 0, "repetition": 1},
                           "lran": "Qd8xd5", "move_type": "capture", "comment": "centre"})
    );
    let shogi = notate(
        &["convert", "--from", "usi", "--to", "view"],
        "position startpos moves 7g7f 3c3d 8h2b+\n",
    );
    let doc: serde_json::Value = serde_json::from_slice(&shogi.stdout).unwrap();
    assert_eq!(doc["family"], "shogi");
    assert_eq!(
        doc["positions"][3],
        serde_json::json!({"sfen": "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4",
                           "ki2": "▲２二角成", "western": "Bx2b+"})
    );
    let infinite = notate(
        &["convert", "--from", "icn", "--to", "view"],
        "w -3,12,-2,11 K5,1|k5,8 5,1>5,2+\n",
    );
    let doc: serde_json::Value = serde_json::from_slice(&infinite.stdout).unwrap();
    assert_eq!(doc["family"], "infinite");
    assert_eq!(
        doc["border"],
        serde_json::json!({"left": "-3", "right": "12", "bottom": "-2", "top": "11"})
    );
    assert_eq!(
        doc["positions"],
        serde_json::json!([{"turn": "w"}, {"turn": "b", "check": true}])
    );
}

#[test]
fn render_writes_one_self_contained_page() {
    let scratch = notate_testdata::scratch_dir("notate-render");
    let dir = scratch.path().to_path_buf();
    let input = dir.join("two.games.pgn");
    std::fs::write(
        &input,
        "[White \"</script><script>alert(1)</script>\"]\n\n1. e4 e5 *\n\n1. d4 Nf9 *\n\n1. c4 *\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args(["render", input.to_str().unwrap()])
        .current_dir(&dir)
        .output()
        .unwrap();
    // The bad game is reported with its place; the others are on the page.
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("two.games.pgn:5:7: game 2"),
        "{}",
        text(&out.stderr)
    );
    assert!(text(&out.stderr).ends_with("rendered 2 games, 1 failed\n"));
    let page = std::fs::read_to_string(dir.join("two.html")).unwrap();
    assert!(page.starts_with("<!doctype html>"));
    assert!(page.contains("<title>two.games.pgn</title>"));
    assert!(page.contains(
        "content=\"default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'\""
    ));
    // The games, one viewer document per line, cannot close their script element.
    let games = page
        .split("<script type=\"application/x-ndjson\" id=\"notate-games\">\n")
        .nth(1)
        .unwrap()
        .split("</script>")
        .next()
        .unwrap();
    let lines: Vec<serde_json::Value> = games
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0]["tracks"]["game_tags"]["White"],
        "</script><script>alert(1)</script>"
    );
    // The failed game in its place, with the error as stderr has it, for the page to list.
    let error = text(&out.stderr).lines().next().unwrap().to_string();
    assert!(error.contains("game 2"), "{error}");
    assert_eq!(
        lines[1],
        serde_json::json!({"failed": {"game": 2, "error": error}})
    );
    assert_eq!(lines[2]["tracks"]["moves"][0]["san"], "c4");
    // An input that breaks off as it is read (a cut gzip file) is listed too, as no game.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(TWO_GAMES.as_bytes()).unwrap();
    let cut = dir.join("cut.pgn.gz");
    std::fs::write(&cut, &gz.finish().unwrap()[..40]).unwrap();
    let both = dir.join("both.html");
    let out = notate(
        &[
            "render",
            input.to_str().unwrap(),
            cut.to_str().unwrap(),
            "-o",
            both.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let page = std::fs::read_to_string(&both).unwrap();
    let broken = page
        .lines()
        .find(|line| line.starts_with(r#"{"failed":{"game":null,"error":"#))
        .unwrap();
    assert!(broken.contains("cut.pgn.gz"), "{broken}");
    // The viewer (D3 included) is inline, and no address is loaded.
    assert!(page.contains("export function mount("));
    assert!(page.contains("d3-selection"));
    assert!(!page.contains("src=\"http"));
    // From stdin, the page goes to stdout.
    let out = notate(
        &["render", "--from", "usi"],
        "position startpos moves 7g7f\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(r#"{"family":"shogi","tracks":{"header":{},"#));
}

/// A `notate` whose stdin is a pipe the test writes into as it goes, and whose stdout lines
/// come as they are written: a broadcast's stream, which pauses between its games.
struct Piped {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
}

/// Long enough for a loaded machine, far below the time the pipe stays open.
const WAIT: std::time::Duration = std::time::Duration::from_secs(30);

impl Piped {
    fn start(args: &[&str]) -> Piped {
        let mut child = Command::new(env!("CARGO_BIN_EXE_notate"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)) {
                if tx.send(line.unwrap()).is_err() {
                    return;
                }
            }
        });
        Piped {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        self.send_bytes(text.as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// The next line of output, which must come while the pipe is still open.
    fn line(&self) -> String {
        self.lines.recv_timeout(WAIT).expect("a line of output")
    }

    /// Closes the pipe; the rest of the output and the exit status.
    fn close(mut self) -> (Vec<String>, Option<i32>) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        (self.lines.iter().collect(), status.code())
    }
}

#[test]
fn a_pipe_gives_each_game_once_the_next_has_begun_without_waiting_for_more() {
    let mut notate = Piped::start(&["convert", "--to", "uci"]);
    notate.send("[White \"a\"]\n\n1. e4 e5 1-0\n\n[White \"b\"]\n\n1. d4");
    assert_eq!(notate.line(), "e2e4 e7e5");
    // A note after a result, even sent later, stays with its game as in a file.
    notate.send(" *\n");
    notate.send("{a note}\n\n1. c4 *\n");
    assert_eq!(notate.line(), "d2d4");
    assert_eq!(notate.close(), (vec!["c2c4".to_string()], Some(0)));
}

#[test]
fn live_gives_a_piped_game_once_its_result_came() {
    let mut notate = Piped::start(&["convert", "--to", "uci", "--live"]);
    notate.send("[White \"a\"]\n\n1. e4 e5 1-0\n");
    assert_eq!(notate.line(), "e2e4 e7e5");
    notate.send("\n[White \"a\"]\n\n1. e4 e5 2. Nf3");
    notate.send(" *\n");
    assert_eq!(notate.line(), "e2e4 e7e5 g1f3");
    assert_eq!(notate.close(), (vec![], Some(0)));
}

#[test]
fn piped_json_lines_go_out_line_by_line() {
    let line = text(&notate(&["convert", "--to", "json"], "1. e4 *\n").stdout);
    let mut notate = Piped::start(&["convert", "--from", "json", "--to", "uci"]);
    notate.send(&line);
    assert_eq!(notate.line(), "e2e4");
    assert_eq!(notate.close(), (vec![], Some(0)));
}

impl Piped {
    /// The exit status, which must come while the pipe is still open.
    fn exit_while_open(&mut self) -> Option<i32> {
        let mut status = None;
        wait_until("the run's end", || {
            status = self.child.try_wait().unwrap();
            status.is_some()
        });
        status.and_then(|s| s.code())
    }
}

#[test]
fn strict_stops_a_pipe_that_stays_open() {
    let mut notate = Piped::start(&["check", "--strict"]);
    notate.send("1. e4 e5 *\n\n1. e9 *\n\n1. d4");
    // No more bytes and no end: the run stops at the bad game all the same.
    assert_eq!(notate.exit_while_open(), Some(1));
    // Nor does a pipe that has not sent its first byte keep it (its format is not known
    // yet), after a bad file.
    let bad = format!("{}/../../examples/bad.pgn", env!("CARGO_MANIFEST_DIR"));
    let mut notate = Piped::start(&["check", "--strict", &bad, "-"]);
    assert_eq!(notate.exit_while_open(), Some(1));
}

/// A pipe's first read may bring a byte of a byte-order mark or of a gzip header, or a BOM
/// alone, and pause: its compression and format are told once its next bytes come.
#[test]
fn a_pipe_that_pauses_in_its_first_bytes_is_told_by_them_all() {
    let mut gzipped = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gzipped.write_all(b"1. e4 *\n").unwrap();
    let gzipped = gzipped.finish().unwrap();
    let bom = b"\xEF\xBB\xBF1. d4 *\n".to_vec();
    // A BOM alone, or a first line not whole, tells nothing either ("{" may open JSON).
    let json = text(&notate(&["convert", "--to", "json"], "1. c4 *\n").stdout).into_bytes();
    let cases = [
        (gzipped, 1, "e2e4"),
        (bom.clone(), 1, "d2d4"),
        (bom, 3, "d2d4"),
        (json, 1, "c2c4"),
    ];
    for (bytes, first, moves) in cases {
        let mut notate = Piped::start(&["convert", "--to", "uci"]);
        notate.send_bytes(&bytes[..first]);
        // Longer than a pause.
        std::thread::sleep(std::time::Duration::from_millis(300));
        notate.send_bytes(&bytes[first..]);
        assert_eq!(notate.close(), (vec![moves.to_string()], Some(0)));
    }
}

/// `--game N` reads an input as far as its game N and no further: a pipe that stays open
/// ends the run once that game is out, and the next input is read.
#[test]
fn game_n_ends_the_reading_of_a_pipe_that_stays_open() {
    let mut notate = Piped::start(&["convert", "--to", "uci", "--game", "2"]);
    notate.send("1. e4 *\n\n1. d4 *\n\n1. c4");
    assert_eq!(notate.line(), "d2d4");
    assert_eq!(notate.exit_while_open(), Some(0));
    assert_eq!(notate.close(), (vec![], Some(0)));

    let scratch = notate_testdata::scratch_dir("notate-cli-game-n");
    let file = scratch.path().join("after.pgn");
    std::fs::write(&file, "1. Nf3 *\n\n1. g3 *\n").unwrap();
    let file = file.to_str().unwrap();
    let mut notate = Piped::start(&["convert", "--to", "uci", "--game", "1", "-", file]);
    notate.send("1. e4 *\n\n1. d4");
    assert_eq!(notate.line(), "e2e4");
    assert_eq!(notate.line(), "g1f3");
    assert_eq!(notate.exit_while_open(), Some(0));
}

/// An input without the game `--game N` asks for fails, and says how many it has.
#[test]
fn game_n_of_an_input_that_has_fewer_fails() {
    let out = notate(&["check", "--game", "3"], "1. e4 *\n\n1. d4 *\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "notate: <stdin> has 2 games, no game 3\nchecked 0 games, 1 failed\n"
    );
    let out = notate(&["check", "--game", "2"], "1. e4 *\n\n1. d4 *\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "checked 1 game, 0 failed\n");
    // One of two inputs has it: the other fails, in its place.
    let scratch = notate_testdata::scratch_dir("notate-cli-game-missing");
    let (short, long) = (
        scratch.path().join("short.pgn"),
        scratch.path().join("long.pgn"),
    );
    std::fs::write(&short, "1. e4 *\n").unwrap();
    std::fs::write(&long, "1. e4 *\n\n1. d4 *\n").unwrap();
    let (short, long) = (short.to_str().unwrap(), long.to_str().unwrap());
    let out = notate(&["convert", "--to", "uci", "--game", "2", short, long], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "d2d4\n");
    assert_eq!(
        text(&out.stderr),
        format!("notate: {short} has 1 game, no game 2\nconverted 1 game, 1 failed\n")
    );
    // In its place among the inputs: --strict stops there.
    let out = notate(
        &[
            "convert", "--to", "uci", "--game", "2", "--strict", short, long,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "");
    assert_eq!(
        text(&out.stderr),
        format!("notate: {short} has 1 game, no game 2\nconverted 0 games, 1 failed\n")
    );
    // Games count from 1.
    let out = notate(&["check", "--game", "0"], "1. e4 *\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("invalid value '0' for '--game <N>': games are numbered from 1"),
        "{}",
        text(&out.stderr)
    );
}

/// What an input holds after its game N is not looked at, a fault included, wherever the
/// reader happened to be when that game went out.
#[test]
fn game_n_ignores_a_fault_after_it() {
    let scratch = notate_testdata::scratch_dir("notate-cli-game-fault");
    // 3 MB of games, gzipped and cut short: the fault is chunks after game 1.
    let mut gzipped = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    for i in 0..60_000 {
        write!(gzipped, "[Round \"{i}\"]\n\n1. e4 e5 2. Nf3 *\n\n").unwrap();
    }
    let gzipped = gzipped.finish().unwrap();
    let cut = scratch.path().join("cut.pgn.gz");
    std::fs::write(&cut, &gzipped[..gzipped.len() - 20]).unwrap();
    let two = scratch.path().join("two.pgn");
    std::fs::write(&two, "1. e4 *\n\n1. d4 *\n").unwrap();
    let (cut, two) = (cut.to_str().unwrap(), two.to_str().unwrap());
    for inputs in [[cut, two], [two, cut]] {
        let out = notate(
            &["check", "--quiet", "--game", "1", inputs[0], inputs[1]],
            "",
        );
        assert_eq!(
            (out.status.code(), text(&out.stderr)),
            (Some(0), "checked 2 games, 0 failed\n".to_string()),
            "{inputs:?}"
        );
    }
    // Read whole, the fault is an error.
    let out = notate(&["check", "--quiet", cut], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("cannot read"),
        "{}",
        text(&out.stderr)
    );
}

/// Waits until `done` holds, which must happen while a test's pipe is still open.
fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + WAIT;
    while !done() {
        assert!(std::time::Instant::now() < deadline, "never: {what}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// `load --live` stores a broadcast's games as they end: each pause of the pipe after a
/// game commits (SQLite) or publishes the files (Parquet), while the pipe stays open.
#[test]
fn load_live_stores_each_game_at_the_pause_after_it() {
    let game =
        |white: &str| format!("[White \"{white}\"]\n[Date \"2016.05.01\"]\n\n1. e4 e5 1-0\n\n");
    let scratch = notate_testdata::scratch_dir("notate-cli-load-live");
    let db = scratch.path().join("live.sqlite");
    let db = db.to_str().unwrap();
    let games_in = || {
        let sql = "SELECT count(*) AS n FROM games";
        text(&notate(&["query", "--db", db, "--format", "csv", sql], "").stdout)
    };
    let mut load = Piped::start(&["load", "--live", "--db", db]);
    load.send(&game("a"));
    wait_until("game 1 in SQLite", || games_in() == "n\n1\n");
    // A reader that holds the file meanwhile neither holds up nor fails the load (the file
    // is in WAL mode), and sees what was stored when it began.
    let reader = rusqlite::Connection::open(db).unwrap();
    reader.execute_batch("BEGIN").unwrap();
    let count = || -> i64 {
        reader
            .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(count(), 1);
    load.send(&game("b"));
    wait_until("game 2 in SQLite", || games_in() == "n\n2\n");
    assert_eq!(count(), 1);
    reader.execute_batch("COMMIT").unwrap();
    assert_eq!(count(), 2);
    drop(reader);
    assert_eq!(load.close(), (vec![], Some(0)));
    // Back to a rollback journal at the end, readable where a reader may not write: only
    // WAL mode stays with the file, a new connection starts in SQLite's default.
    let mode: String = rusqlite::Connection::open(db)
        .unwrap()
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "delete");

    let dir = scratch.path().join("parquet");
    let target = format!("parquet:{}", dir.display());
    let part = |n: u32| {
        dir.join(format!("games/year=2016/month=05/part-{n}.parquet"))
            .is_file()
    };
    let mut load = Piped::start(&["load", "--live", "--db", &target]);
    load.send(&game("a"));
    wait_until("the first Parquet file", || part(0));
    load.send(&game("b"));
    wait_until("the second Parquet file", || part(1));
    assert_eq!(load.close(), (vec![], Some(0)));
}

#[test]
fn load_live_keeps_back_a_game_in_progress() {
    // A broadcast sends each game again at every move, `*` until it ends: each version
    // has other moves, so another id. Only the finished game is stored.
    let version = |moves: &str, result: &str| {
        format!("[White \"A\"]\n[Black \"B\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n")
    };
    let scratch = notate_testdata::scratch_dir("notate-cli-load-held");
    let db = scratch.path().join("round.sqlite");
    let db = db.to_str().unwrap();
    let mut load = Piped::start(&["load", "--live", "--db", db]);
    load.send(&version("", "*"));
    load.send(&version("1. e4", "*"));
    load.send(&version("1. e4 e5", "*"));
    load.send(&version("1. e4 e5 2. Qh5", "*"));
    load.send(&version("1. e4 e5 2. Qh5 Ke7 3. Qxe5#", "1-0"));
    let games = || {
        let sql = "SELECT count(*) AS n, max(ply_count) AS plies FROM games";
        text(&notate(&["query", "--db", db, "--format", "csv", sql], "").stdout)
    };
    wait_until("the finished game in SQLite", || {
        games() == "n,plies\n1,5\n"
    });
    assert_eq!(load.close(), (vec![], Some(0)));
    let sql = "SELECT count(*) FROM moves";
    let moves = notate(&["query", "--db", db, "--format", "csv", sql], "");
    assert_eq!(text(&moves.stdout), "count(*)\n5\n");

    // The summary counts them; without --live, a game in progress is a game like any.
    let round: String = ["", "1. e4", "1. e4 e5 2. Qh5 Ke7 3. Qxe5#"]
        .iter()
        .map(|moves| version(moves, if moves.ends_with('#') { "1-0" } else { "*" }))
        .collect();
    let fresh = scratch.path().join("fresh.sqlite");
    let fresh = fresh.to_str().unwrap();
    let out = notate(&["load", "--live", "--db", fresh], &round);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains(&format!(
            "loaded into {fresh}: 1 new games with 5 moves, 0 already there, 2 in progress"
        )),
        "{}",
        text(&out.stderr)
    );
    let out = notate(&["load", "--db", fresh], &round);
    assert!(
        text(&out.stderr).contains(&format!(
            "loaded into {fresh}: 2 new games with 1 moves, 1 already there\n"
        )),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn an_output_that_is_an_input_is_refused_and_left_whole() {
    let scratch = notate_testdata::scratch_dir("notate-cli-output-is-input");
    let path = scratch.path().join("games.pgn");
    std::fs::write(&path, TWO_GAMES).unwrap();
    let link = scratch.path().join("link.pgn");
    std::os::unix::fs::symlink(&path, &link).unwrap();
    let path = path.to_str().unwrap();
    for output in [path, link.to_str().unwrap()] {
        let out = notate(&["convert", path, "--to", "pgn", "-o", output], "");
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains(&format!(
                "-o {output} is the input {path}: writing it would empty it before it is read"
            )),
            "{}",
            text(&out.stderr)
        );
        assert_eq!(std::fs::read_to_string(path).unwrap(), TWO_GAMES);
    }
    // Nor when it is stdin, redirected from the file.
    let out = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args(["convert", "--to", "pgn", "-o", path])
        .stdin(std::fs::File::open(path).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("is the input <stdin>"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(path).unwrap(), TWO_GAMES);
    // A device is no file to empty.
    let out = notate(
        &["convert", "/dev/null", "--to", "uci", "-o", "/dev/null"],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}
