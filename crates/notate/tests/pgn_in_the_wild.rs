//! PGN as found in the wild (issue 17): every class of record that a careful reader accepts is
//! read whole, and nothing is dropped, merged or cut short without an error. One minimal input
//! of our own per class.

use notate::chess::game::Comment;
use notate::chess::pgn::{self, GameSplitter, Keep, PieceLetters, ReadOptions};
use notate::chess::{uci, ChessGame};

/// Every game of `text`, as UCI moves (or the error's text), read with `options`.
fn games_with(text: &[u8], options: ReadOptions) -> Vec<Result<String, String>> {
    pgn::Reader::with_options(text, options)
        .map(|game| {
            game.map(|g| uci::to_string(&g).unwrap().trim_end().to_string())
                .map_err(|e| e.to_string())
        })
        .collect()
}

fn games(text: &str) -> Vec<Result<String, String>> {
    games_with(text.as_bytes(), ReadOptions::default())
}

fn ok(moves: &[&str]) -> Vec<Result<String, String>> {
    moves.iter().map(|m| Ok(m.to_string())).collect()
}

fn tag(game: &ChessGame, name: &str) -> Option<String> {
    game.tags.get(name).map(str::to_string)
}

#[test]
fn tags_and_movetext_on_one_line_are_read() {
    let text = "[Event \"x\"] 1. e4 e5 *\n[Event \"y\"] [Site \"z\"] 1. d4 *\n";
    assert_eq!(games(text), ok(&["e2e4 e7e5", "d2d4"]));
    let read = pgn::read_str(text).unwrap();
    assert_eq!(tag(&read[1], "Site").as_deref(), Some("z"));
}

#[test]
fn games_without_results_whose_numbers_start_again_are_two_games() {
    assert_eq!(
        games("1. e4 e5\n\n1. d4 d5 *\n"),
        ok(&["e2e4 e7e5", "d2d4 d7d5"])
    );
    // Files joined with `cat`, the second with a byte-order mark: two games as well.
    assert_eq!(
        games("1. e4 e5\n\n\u{feff}1. d4 d5 *\n"),
        ok(&["e2e4 e7e5", "d2d4 d7d5"])
    );
    // The next game may open with comments and `%` lines before its `1.`.
    assert_eq!(
        games("1. e4 e5\n\n{Game 2} 1. d4 d5 *\n"),
        ok(&["e2e4 e7e5", "d2d4 d7d5"])
    );
    assert_eq!(
        games("1. e4 e5\n\n% exported\n; round 2\n{a} {b}\n1. d4 d5 *\n"),
        ok(&["e2e4 e7e5", "d2d4 d7d5"])
    );
    let read = pgn::read_str("1. e4 e5\n\n{Game 2} 1. d4 d5 *\n").unwrap();
    assert_eq!(
        read[1].moves.comments.len(),
        1,
        "the comment opens the second game"
    );
    assert!(read[0].moves.plies[1].comments.is_empty());
    // A comment paragraph followed by the next moves is the same game.
    assert_eq!(
        games("1. e4 e5\n\n{A note.}\n\n2. Nf3 *\n"),
        ok(&["e2e4 e7e5 g1f3"])
    );
    // A black move number after a comment paragraph is the same game.
    assert_eq!(
        games("1. e4 {A long note.}\n\n1... e5 2. Nf3 *\n"),
        ok(&["e2e4 e7e5 g1f3"])
    );
    // So is a comment paragraph before the first move of a tagged game.
    assert_eq!(
        games("[Event \"x\"]\n\n{Intro.}\n\n1. e4 *\n"),
        ok(&["e2e4"])
    );
}

#[test]
fn a_move_in_other_piece_letters_fails_its_game_unless_asked_for() {
    let text = "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. Lxc6 dxc6 5. O-O Dd6 *\n";
    let read = games(text);
    assert_eq!(read.len(), 1);
    let error = read[0].as_ref().unwrap_err();
    assert_eq!(
        error,
        "game 1, line 1, column 13, ply 3 \"Sf3\": not a move, result or annotation"
    );
    let german = ReadOptions {
        piece_letters: PieceLetters::German,
        ..ReadOptions::default()
    };
    assert_eq!(
        games_with(text.as_bytes(), german),
        ok(&["e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1 d8d6"])
    );
    let french = ReadOptions {
        piece_letters: PieceLetters::French,
        ..ReadOptions::default()
    };
    assert_eq!(
        games_with(b"1. e4 d5 2. exd5 Dxd5 3. Cc3 Da5 4. Fc4 *", french),
        ok(&["e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 f1c4"])
    );
    // Kept in English: the game writes as standard PGN.
    let game = pgn::Reader::with_options(&b"1. e4 e5 2. Sf3 *"[..], german)
        .next()
        .unwrap()
        .unwrap();
    assert!(pgn::to_string(&game).unwrap().contains("2. Nf3 *"));
}

#[test]
fn blanks_inside_tag_brackets_and_tags_split_over_lines_are_read() {
    let text = "[ Event \"x\" ]\n[Site\n \"y\"]\n[Round \"3\"\n]\n[White \"w\"]\n\n1. e4 *\n\n\
                [Event \"z\"]\n\n1. d4 *\n";
    let read = pgn::read_str(text).unwrap();
    assert_eq!(read.len(), 2);
    let first = &read[0];
    assert_eq!(tag(first, "Event").as_deref(), Some("x"));
    assert_eq!(tag(first, "Site").as_deref(), Some("y"));
    assert_eq!(tag(first, "Round").as_deref(), Some("3"));
    assert_eq!(tag(first, "White").as_deref(), Some("w"));
    assert_eq!(tag(&read[1], "Event").as_deref(), Some("z"));
}

#[test]
fn old_mac_line_endings_are_read() {
    let text = "[Event \"a\"]\r\r1. e4 *\r\r[Event \"b\"]\r\r1. d4 2. Nf9 *\r";
    let read = games(text);
    assert_eq!(read[0], Ok("e2e4".into()));
    // Lines are counted at each CR.
    assert_eq!(
        read[1],
        Err("game 2, line 7, column 10, ply 2 \"Nf9\": not a move, result or annotation".into())
    );
    // Whatever the chunk size, a CR at a read's end included.
    for chunk_bytes in [1, 2, 3, 7, 64] {
        let mut splitter = GameSplitter::new(text.as_bytes(), chunk_bytes);
        let mut ranges = 0;
        while let Some(chunk) = splitter.next_chunk().unwrap() {
            assert!(!chunk.bytes.contains(&b'\r'), "{chunk_bytes}");
            ranges += chunk.games.len();
        }
        assert_eq!(ranges, 2, "{chunk_bytes}");
    }
    // CR LF stays as it is.
    assert_eq!(games("1. e4 *\r\n\r\n1. d4 *\r\n"), ok(&["e2e4", "d2d4"]));
}

#[test]
fn a_comment_before_the_first_game_is_no_game() {
    let read = pgn::read_str("; Exported by a program\n[Event \"a\"]\n\n1. e4 *\n").unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!(tag(&read[0], "Event").as_deref(), Some("a"));
    // Kept: a comment before the game's first move.
    assert_eq!(read[0].moves.comments[0].text, " Exported by a program");
    let read = pgn::read_str("{Intro}\n[Event \"a\"]\n\n1. e4 *\n").unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!(read[0].moves.comments[0].text, "Intro");
}

#[test]
fn a_line_comment_among_the_tags_does_not_end_them() {
    let text = "[Event \"x\"]\n; between\n  ; indented\n[Black \"b\"]\n\n1. e4 *\n\n[Event \"y\"]\n\n1. d4 *\n";
    assert_eq!(games(text), ok(&["e2e4", "d2d4"]));
    let read = pgn::read_str(text).unwrap();
    assert_eq!(tag(&read[0], "Black").as_deref(), Some("b"));
    let comments: Vec<&str> = read[0]
        .moves
        .comments
        .iter()
        .map(|c| c.text.as_str())
        .collect();
    assert_eq!(comments, [" between", " indented"]);
    // The same when the text arrives a byte at a time.
    struct ByteByByte<'a>(&'a [u8]);
    impl std::io::Read for ByteByByte<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.len().min(out.len()).min(1);
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let trickled: Vec<_> = pgn::Reader::new(ByteByByte(text.as_bytes()))
        .map(|game| {
            uci::to_string(&game.unwrap())
                .unwrap()
                .trim_end()
                .to_string()
        })
        .collect();
    assert_eq!(trickled, ["e2e4", "d2d4"]);
}

#[test]
fn a_move_number_glued_to_its_move_without_a_dot_is_a_move_number() {
    assert_eq!(games("1. a4 h5 10a5 h4 *\n"), ok(&["a2a4 h7h5 a4a5 h5h4"]));
    assert_eq!(games("1. a4 h5 2,a5 h4 *\n"), ok(&["a2a4 h7h5 a4a5 h5h4"]));
    assert_eq!(
        games("1. e4 e5 2: Nf3 2…Nc6 *\n"),
        ok(&["e2e4 e7e5 g1f3 b8c6"])
    );
    // A word that reads as a move itself stays one (rank 2 to a5: no such move here).
    assert!(games("1. a4 h5 2a5 h4 *\n")[0].is_err());
}

#[test]
fn forum_markers_are_not_tags() {
    let text = "[pgn]\n[Event \"a\"]\n\n1. e4 *\n[/pgn]\n\n[PGN][Event \"b\"]\n1. d4 *[/PGN]\n";
    let read = pgn::read_str(text).unwrap();
    assert_eq!(read.len(), 2);
    let written = pgn::to_string(&read[0]).unwrap();
    assert!(!written.contains("pgn"), "{written}");
}

#[test]
fn export_format_has_the_seven_tag_roster_and_80_columns() {
    let long = "This comment is far longer than one line of eighty columns, so export format \
                wraps it at its spaces like the moves around it.";
    let text = format!("[White \"A\"]\n[ECO \"C20\"]\n\n1. e4 {{{long}}} e5 1-0\n");
    let game = pgn::read_one(&text).unwrap();
    let written = pgn::to_string(&game).unwrap();
    assert!(
        written.starts_with(
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A\"]\n\
             [Black \"?\"]\n[Result \"1-0\"]\n[ECO \"C20\"]\n\n1. e4 {This comment"
        ),
        "{written}"
    );
    assert!(
        written.lines().all(|l| l.chars().count() <= 80),
        "{written}"
    );
    let back = pgn::read_one(&written).unwrap();
    assert_eq!(
        back.moves.plies[0].comments[0].text.replace('\n', " "),
        long
    );
    // A comment's own line break followed by a space keeps the space.
    let game = pgn::read_one("1. e4 {Bad.\n ...Qf6 is a must.} e5 *").unwrap();
    let back = pgn::read_one(&pgn::to_string(&game).unwrap()).unwrap();
    assert_eq!(
        back.moves.plies[0].comments[0].text,
        "Bad.\n ...Qf6 is a must."
    );
}

/// What export format writes is read back to the same game and written the same again: a
/// wrapped comment keeps its line breaks where they are (they drifted a word a pass), and a
/// comment braces cannot hold (a `}` and a line break; a blank line, then a tag line) is
/// written as `;` comments, one a line, instead of ending early or starting a game.
#[test]
fn export_format_reads_back_the_same_and_writes_the_same_again() {
    let words: Vec<String> = (0..30).map(|i| format!("word{i:02}")).collect();
    // Comment texts as a JSON game could hold them.
    let comments = [
        format!(" {} ", words.join(" ")),
        words.join("  "),
        format!("{}\n\n{}", words[..12].join(" "), words.join(" ")),
        "outer {inner}\n1. d4 more".to_string(),
        "x\n\n[Event \"inj\"]".to_string(),
        "a } b\n%c".to_string(),
        "a\r\n b".to_string(),
        "a }\n\n[Event \"x\"]".to_string(),
        "a }\n".to_string(),
        "a } b\rc\r\n\n".to_string(),
        // A line that ends in a blank at the 80th column: its space is not wrapped into a
        // blank line (which, before a tag line, started a game).
        format!("{} \n[Event \"x\"]\nmore", "X".repeat(85)),
        format!("{}  \n[Event \"x\"]\nmore", "X".repeat(85)),
    ];
    for comment in comments {
        let mut game = pgn::read_one("1. e4 {x} e5 2. Nf3 *").unwrap();
        game.moves.plies[0].comments[0] = Comment::new(comment.clone());
        let first = pgn::to_string(&game).unwrap();
        let back = pgn::read_str(&first).unwrap();
        assert_eq!(back.len(), 1, "{comment:?}\n{first}");
        assert_eq!(uci::to_string(&back[0]).unwrap(), "e2e4 e7e5 g1f3\n");
        assert!(
            first
                .lines()
                .all(|l| l.chars().count() <= 80 || !l.trim_end().contains(' ')),
            "{first}"
        );
        let texts: Vec<&str> = back[0].moves.plies[0]
            .comments
            .iter()
            .map(|c| c.text.as_str())
            .collect();
        if comment.contains('}') || comment.contains("\n\n[") {
            // One comment a line.
            // A lone CR ends a line too (python-chess reads lines so); the comment's last
            // line breaks make no empty comment.
            let comment = comment.replace("\r\n", "\n");
            let lines: Vec<&str> = comment
                .trim_end_matches(['\n', '\r'])
                .split(['\n', '\r'])
                .collect();
            assert_eq!(texts, lines, "{first}");
        } else {
            // A line break written stands for one space.
            assert_eq!(texts.len(), 1);
            let spaces = |t: &str| t.replace('\n', " ");
            assert_eq!(spaces(texts[0]), spaces(&comment), "{first}");
            assert_eq!(pgn::to_string(&back[0]).unwrap(), first, "{comment:?}");
        }
        let second = pgn::to_string(&back[0]).unwrap();
        let third = pgn::to_string(&pgn::read_one(&second).unwrap()).unwrap();
        assert_eq!(third, second, "{comment:?}");
    }
}

#[test]
fn games_without_tags_stream_in_chunks() {
    let one = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n";
    let text = one.repeat(2000);
    // Cut into games by the splitter, so that memory stays flat: never one range of all.
    let mut splitter = GameSplitter::new(text.as_bytes(), 4096);
    let mut ranges = 0;
    while let Some(chunk) = splitter.next_chunk().unwrap() {
        assert!(chunk.bytes.len() < 8192, "{}", chunk.bytes.len());
        ranges += chunk.games.len();
    }
    assert_eq!(ranges, 2000);
    let options = ReadOptions {
        keep: Keep::Nothing,
        ..ReadOptions::default()
    };
    assert_eq!(games_with(text.as_bytes(), options).len(), 2000);
    // Results without blank lines between the games cut too.
    assert_eq!(games("1. e4 1-0\n1. d4 0-1\n"), ok(&["e2e4", "d2d4"]));
}

#[test]
fn a_result_in_a_line_comment_does_not_cut_a_game_before_its_first_move() {
    // `1.` after a result starts a game without tags; a result at the end of a `;` comment
    // or `%` line is the comment's text (export format writes a comment holding `}` so).
    for text in [
        "[Event \"a\"]\n\n; won *\n1. d4 *\n",
        "[Event \"a\"]\n; 1-0\n1. d4 *\n",
        "[Event \"a\"]\n\n% 0-1\n1. d4 *\n",
        "; 1/2-1/2\n1. d4 *\n",
    ] {
        assert_eq!(games(text), ok(&["d2d4"]), "{text:?}");
        let options = ReadOptions {
            keep: Keep::Nothing,
            ..ReadOptions::default()
        };
        assert_eq!(games_with(text.as_bytes(), options).len(), 1, "{text:?}");
    }
    // A result before the comment still ends its game.
    assert_eq!(games("1. e4 1-0\n; next\n1. d4 *\n"), ok(&["e2e4", "d2d4"]));
    // What export format writes of a comment holding `}` and ending in a result reads back.
    let game = pgn::read_one("; a} *\n1. d4 *").unwrap_or_else(|e| panic!("{e}"));
    let text = pgn::to_string(&game).unwrap();
    assert_eq!(games(&text), ok(&["d2d4"]), "{text}");
}

#[test]
fn a_tag_left_open_at_a_line_end_goes_on_over_the_next_lines() {
    let text = "[White \"a\"]\n   [  Result  \"1-0\"  ] [\n   ECO\n   \"B01\"\n   ]\n\
                [Black \"b\"]\n\n1. e4 d5 1-0\n";
    let read = pgn::read_str(text).unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!(tag(&read[0], "ECO").as_deref(), Some("B01"));
    assert_eq!(tag(&read[0], "Black").as_deref(), Some("b"));
}

#[test]
fn start_tags_in_any_case_and_variant_with_blanks() {
    let text =
        "[fEn \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n[Variant \" Standard  \"]\n\n1. Ra8# 1-0\n";
    assert_eq!(games(text), ok(&["a1a8"]));
    let options = ReadOptions {
        keep: Keep::Nothing,
        ..ReadOptions::default()
    };
    assert_eq!(games_with(text.as_bytes(), options).len(), 1);
    assert!(games_with(text.as_bytes(), options)[0].is_ok());
}

#[test]
fn a_byte_order_mark_at_the_start_takes_no_column_and_a_percent_line_after_it_escapes() {
    // Line 1's columns are an editor's, which shows no mark: the same as without it.
    let error = "game 1, line 1, column 10, ply 3 \"Nf9\": not a move, result or annotation";
    for text in ["1. e4 e5 Nf9 *\n", "\u{feff}1. e4 e5 Nf9 *\n"] {
        assert_eq!(games(text), [Err(error.to_string())], "{text:?}");
    }
    let mut read = pgn::Reader::new("\u{feff}[Event \"a\"] 1. e4 Nf9 *\n".as_bytes());
    let place = read.next().unwrap().unwrap_err().place.unwrap();
    assert_eq!((place.line, place.column, place.offset), (1, 19, Some(21)));
    // A `%` line escapes only a whole line: right after the mark, it is one.
    assert_eq!(
        games("\u{feff}% exported by a tool\n[Event \"a\"]\n\n1. e4 *\n"),
        ok(&["e2e4"])
    );
}

#[test]
fn byte_order_marks_inside_the_stream_and_typographic_dashes_are_read() {
    let text =
        "\n\u{feff}[Event \"a\"]\n[Site \"b\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O\u{2011}O *\n\
                \u{feff}[Event \"c\"]\n\n1. d4 *\n";
    assert_eq!(
        games(text),
        ok(&["e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1", "d2d4"])
    );
    assert_eq!(
        games("1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. 0\u{2013}0 *"),
        ok(&["e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1"])
    );
}

#[test]
fn an_en_passant_square_no_double_step_made_is_ignored_with_a_warning() {
    use notate::format::Reader;
    let text = "[FEN \"4k3/8/8/8/8/8/8/4K3 w - e6 0 1\"]\n\n1. Kd2 *\n";
    let mut reader = Reader::<pgn::Pgn, _>::new(text.as_bytes());
    let game = reader.next().unwrap().unwrap();
    assert_eq!(uci::to_string(&game).unwrap().trim_end(), "e1d2");
    let warnings = reader.take_warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(
        warnings[0].to_string(),
        "game 1, line 3, column 1: the FEN's en passant square e6 follows no pawn's double step: ignored"
    );
    // Castling rights without their rook: the others are kept.
    let text = "[FEN \"r3k2r/8/8/8/8/8/8/4K3 w KQkq - 0 1\"]\n\n1. Kd2 O-O *\n";
    let mut reader = Reader::<pgn::Pgn, _>::new(text.as_bytes());
    let game = reader.next().unwrap().unwrap();
    assert_eq!(uci::to_string(&game).unwrap().trim_end(), "e1d2 e8g8");
    assert_eq!(
        reader.take_warnings()[0].message,
        "the FEN's castling rights KQkq name a king or rook that is not there: read as kq"
    );
    // A square a double step did make stays, and so does the capture it allows.
    let text = "[FEN \"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2\"]\n\n2. exd6 *\n";
    assert_eq!(games(text), ok(&["e5d6"]));
    let mut reader = Reader::<pgn::Pgn, _>::new(text.as_bytes());
    assert!(reader.next().unwrap().is_ok());
    assert!(reader.take_warnings().is_empty());
}

#[test]
fn an_unclosed_comment_ends_at_the_next_games_tags() {
    let failed = Err("game 1, line 3, column 7: comment is not closed by `}`".to_string());
    // Never closed: the game after it is read.
    let text = "[Event \"a\"]\n\n1. e4 { unclosed \n\n[Event \"b\"]\n\n1. d4 *\n";
    assert_eq!(games(text), vec![failed.clone(), Ok("d2d4".into())]);
    // Closed by a later game's `}`: neither that game nor the one between is swallowed.
    let text = "[Event \"a\"]\n\n1. e4 { unclosed \n\n[Event \"b\"]\n\n1. d4 {ok} d5 *\n\n\
                [Event \"c\"]\n\n1. c4 *\n";
    assert_eq!(
        games(text),
        vec![failed, Ok("d2d4 d7d5".into()), Ok("c2c4".into())]
    );
    // The same in small chunks: each game its own range, whatever the chunk size (a chunk
    // full before the end once made the last range run over the games after the comment).
    let mut text = String::new();
    for i in 0..12 {
        text.push_str(&format!("[Event \"g{i}\"]\n\n1. e4 e5 *\n\n"));
    }
    text.push_str(
        "[Event \"a\"]\n\n1. e4 { open\n\n[Event \"b\"]\n\n1. d4 *\n\n[Event \"c\"]\n\n1. c4 *\n",
    );
    for chunk_bytes in [16, 64, 100, 256, 4096] {
        let mut splitter = GameSplitter::new(text.as_bytes(), chunk_bytes);
        let mut ranges = 0;
        while let Some(chunk) = splitter.next_chunk().unwrap() {
            ranges += chunk.games.len();
        }
        assert_eq!(ranges, 15, "{chunk_bytes}");
    }
    // A comment with a blank line in it, and no tag line after, is one comment.
    let text = "1. e4 {first paragraph\n\nsecond [%clk 0:01:00]} e5 *\n";
    assert_eq!(games(text), ok(&["e2e4 e7e5"]));
    let text = "[Event \"a\"]\n\n1. e4 {Idea:\n\n[Source] Kasparov} e5 *\n";
    assert_eq!(games(text), ok(&["e2e4 e7e5"]));
    // A comment of a million newlines is read as quickly as any (each byte looked at once).
    let text = format!("1. e4 {{{}}} e5 *\n", "\n".repeat(1 << 20));
    let started = std::time::Instant::now();
    assert_eq!(games(&text), ok(&["e2e4 e7e5"]));
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
}

#[test]
fn egd_writes_a_wrong_capture_mark_as_san() {
    use notate::chess::{egd, replay};
    let text = "1. e4 d5 2. ed5 Nf6 3. Nf3 c6 4. Bb5 Nbd7 5. Rxg1 Ng8 6. Bc6 *\n";
    let game = replay(pgn::read_written(text).remove(0).unwrap()).unwrap();
    let line = egd::to_string(&game).unwrap();
    let egd: serde_json::Value = serde_json::from_str(&line).unwrap();
    let sans: Vec<&str> = egd["moves"]
        .as_object()
        .unwrap()
        .values()
        .map(|m| m["move"]["san"].as_str().unwrap())
        .collect();
    assert_eq!(
        sans,
        ["e4", "d5", "exd5", "Nf6", "Nf3", "c6", "Bb5", "Nbd7", "Rg1", "Ng8", "Bxc6"]
    );
}

#[test]
fn every_null_move_spelling_is_a_null_move() {
    for null in ["--", "Z0", "0000", "@@@@"] {
        let text = format!("1. e4 {null} 2. {null} e5 *");
        assert_eq!(games(&text), ok(&["e2e4 0000 0000 e7e5"]), "{text}");
    }
    // A bare number is a move number (`1 e4`), whatever it is: only `0000` is a move.
    assert_eq!(games("1 e4 1234 e5 *"), ok(&["e2e4 e7e5"]));
}
