//! Every file of the shared corpus reads; every game converts or is reported; PGN and JSON
//! written by notate read back to the same game.

use std::path::{Path, PathBuf};

use notate::chess::egd::{self, EgdOptions, EgdWriter};
use notate::chess::pgn::{PgnReader, PgnWriter};
use notate::chess::{json, replay, ChessGame, Line, Played};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

fn pgn_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![corpus()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("shared/corpus is beside the project") {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "pgn") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() > 60, "corpus incomplete: {}", files.len());
    files
}

/// (file, game number, ply, token) of every game notate rejects in the corpus.
/// A rejected game: number in its file, ply, token, reason.
type Rejected = (u64, Option<usize>, Option<String>, String);

fn read_all(path: &Path) -> (Vec<ChessGame>, Vec<Rejected>) {
    let mut ok = Vec::new();
    let mut failed = Vec::new();
    let file = std::fs::File::open(path).unwrap();
    for (i, read) in PgnReader::new(file).enumerate() {
        let read = read.unwrap();
        match read.game.and_then(replay) {
            Ok(game) => ok.push(game),
            Err(f) => failed.push((i as u64 + 1, f.error.ply, f.error.token, f.error.reason)),
        }
    }
    (ok, failed)
}

#[test]
fn every_game_converts_or_is_reported_precisely() {
    let mut rejected = Vec::new();
    let mut games = 0;
    for path in pgn_files() {
        let (ok, failed) = read_all(&path);
        games += ok.len() + failed.len();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        for (game, ply, token, reason) in failed {
            rejected.push(format!(
                "{name} {game} {ply:?} {token:?} {}",
                reason.split(" in ").next().unwrap()
            ));
        }
    }
    let expected = [
        r#"antichess-programfox.pgn 1 None None variant "Antichess" is not supported (standard chess and Chess960 are)"#,
        r#"antichess-programfox.pgn 2 None None variant "Antichess" is not supported (standard chess and Chess960 are)"#,
        r#"knightvuillaume-jannlee-zh-lichess.pgn 1 None None variant "Crazyhouse" is not supported (standard chess and Chess960 are)"#,
        r#"saturs-jannlee-zh-lichess.pgn 1 None None variant "Crazyhouse" is not supported (standard chess and Chess960 are)"#,
        r#"black2move.pgn 1 Some(1) Some("0-0-0") illegal move"#,
        r#"ambiguous.pgn 1 Some(25) Some("Rd1") ambiguous move"#,
        r#"chessdoctor.pgn 36 Some(57) Some("Be3") illegal move"#,
        r#"chessdoctor.pgn 38 Some(20) Some("Ne7") ambiguous move"#,
        r#"chessdoctor.pgn 39 Some(4) Some("Bb4+") illegal move"#,
        r#"chessdoctor.pgn 43 Some(1) Some("Bd3") illegal move"#,
        r#"europe_echecs.pgn 20 Some(23) Some("c5") illegal move"#,
        r#"europe_echecs.pgn 210 Some(70) Some("cxd3") illegal move"#,
        r#"hayes.pgn 1 Some(52) Some("Kg6") illegal move"#,
        r#"immortal_games.pgn 1 Some(10) Some("Nd7") ambiguous move"#,
        r#"immortal_games.pgn 17 Some(30) Some("Rf8") ambiguous move"#,
        r#"immortal_games.pgn 25 Some(25) Some("Rd1") ambiguous move"#,
        r#"immortal_games.pgn 34 Some(18) Some("Nd7") ambiguous move"#,
        r#"perle.pgn 39 Some(26) Some("Qd5") illegal move"#,
    ];
    let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    want.sort();
    rejected.sort();
    assert_eq!(rejected, want);
    assert!(games > 12_000, "{games}");
}

/// Compares two lines move by move, with their annotations.
fn same_line(a: &Line<Played>, b: &Line<Played>) -> bool {
    let texts = |c: &[notate::chess::Comment]| c.iter().map(|c| c.text.clone()).collect::<Vec<_>>();
    texts(&a.comments) == texts(&b.comments)
        && a.plies.len() == b.plies.len()
        && a.plies.iter().zip(&b.plies).all(|(x, y)| {
            x.mv.mv == y.mv.mv
                && x.nags == y.nags
                && texts(&x.comments) == texts(&y.comments)
                && x.variations.len() == y.variations.len()
                && x.variations
                    .iter()
                    .zip(&y.variations)
                    .all(|(v, w)| same_line(v, w))
        })
}

#[test]
fn pgn_and_json_round_trips_keep_every_game() {
    let mut checked = 0;
    for path in pgn_files() {
        let (games, _) = read_all(&path);
        let mut pgn = Vec::new();
        let mut writer = PgnWriter::new();
        for game in &games {
            writer.write(game, &mut pgn);
        }
        let text = String::from_utf8(pgn).unwrap();
        // Movetext lines wrap at 80 columns; only a comment (kept exactly) may run longer.
        let mut in_comment = false;
        for line in text.lines() {
            let exempt =
                in_comment || line.contains('{') || line.contains(';') || line.starts_with('[');
            for c in line.chars() {
                match c {
                    '{' => in_comment = true,
                    '}' => in_comment = false,
                    _ => {}
                }
            }
            assert!(
                exempt || line.chars().count() <= 80,
                "{}: line over 80 columns: {line}",
                path.display()
            );
        }
        let (again, failed) = read_all_text(&text);
        assert!(failed.is_empty(), "{}: {failed:?}", path.display());
        assert_eq!(games.len(), again.len(), "{}", path.display());
        for (a, b) in games.iter().zip(&again) {
            // PGN export puts the Seven Tag Roster first: same tags, maybe in another order.
            let sorted = |t: &notate::chess::Tags| {
                let mut v: Vec<(String, String)> =
                    t.iter().map(|(n, v)| (n.into(), v.into())).collect();
                v.sort();
                v
            };
            assert_eq!(sorted(&a.tags), sorted(&b.tags), "{}", path.display());
            assert_eq!(a.outcome(), b.outcome());
            assert!(
                same_line(&a.moves, &b.moves),
                "{}: {:?}",
                path.display(),
                a.tags
            );
            let mut out = Vec::new();
            json::write_json(a, &mut out).unwrap();
            let back = json::read_json(std::str::from_utf8(&out).unwrap().trim_end(), 0).unwrap();
            assert_eq!(&back, a, "{}: JSON round trip", path.display());
            checked += 1;
        }
    }
    assert!(checked > 12_000);
}

fn read_all_text(text: &str) -> (Vec<ChessGame>, Vec<String>) {
    let mut ok = Vec::new();
    let mut failed = Vec::new();
    for read in PgnReader::new(text.as_bytes()) {
        let read = read.unwrap();
        if !read.warnings.is_empty() {
            failed.push(format!("warnings: {:?}", read.warnings));
        }
        match read.game.and_then(replay) {
            Ok(g) => ok.push(g),
            Err(f) => failed.push(format!("{f:?}")),
        }
    }
    (ok, failed)
}

#[test]
fn validate_only_reading_agrees_with_read_then_replay() {
    use notate::chess::pgn::{read_chunk, GameSplitter, ReadOptions};
    let fast = ReadOptions {
        validate_only: true,
        keep_comments: false,
        ..ReadOptions::default()
    };
    for path in pgn_files() {
        let verdicts = |options: ReadOptions| {
            let mut splitter =
                GameSplitter::with_limits(std::fs::File::open(&path).unwrap(), 64 << 10, options);
            let mut out = Vec::new();
            while let Some(chunk) = splitter.next_chunk().unwrap() {
                for read in read_chunk(&chunk, options) {
                    let warned = !read.warnings.is_empty();
                    let names = |tags: &notate::chess::Tags| {
                        let name = |key| tags.get(key).map(str::to_string);
                        (name("White"), name("Black"))
                    };
                    out.push(match read.game.and_then(replay) {
                        // A game read with warnings names its players in their messages.
                        Ok(game) if warned => {
                            let (white, black) = names(&game.tags);
                            Some((usize::MAX, None, None, white, black))
                        }
                        Ok(_) => None,
                        Err(f) => Some((
                            f.error.offset + chunk.first_byte as usize,
                            f.error.ply,
                            f.error.token,
                            // The names messages give.
                            names(&f.tags).0,
                            names(&f.tags).1,
                        )),
                    });
                }
            }
            out
        };
        assert_eq!(
            verdicts(fast),
            verdicts(ReadOptions::default()),
            "{}",
            path.display()
        );
    }
}

/// PGN → EGD → PGN over the whole corpus keeps the tags (EGD adds `Result` when the game
/// had no such tag) and the main line's moves. Games with a null move cannot be EGD: they
/// are refused, and counted.
#[test]
fn egd_round_trip_keeps_tags_and_moves() {
    let (mut checked, mut null_games) = (0, 0);
    let mut writer = EgdWriter::new(EgdOptions::default());
    for path in pgn_files() {
        let (games, _) = read_all(&path);
        for game in &games {
            let mut egd_line = Vec::new();
            if let Err(e) = writer.write(game, &mut egd_line) {
                assert!(e.reason.contains("null move"), "{}: {e:?}", path.display());
                assert!(egd_line.is_empty(), "no partial line");
                null_games += 1;
                continue;
            }
            let text = std::str::from_utf8(&egd_line).unwrap().trim_end();
            let back = egd::read_egd(text, 0)
                .unwrap_or_else(|e| panic!("{}: {e:?}\n{text}", path.display()));
            let mut pgn = Vec::new();
            PgnWriter::new().write(&back, &mut pgn);
            let (again, failed) = read_all_text(std::str::from_utf8(&pgn).unwrap());
            assert!(failed.is_empty(), "{}: {failed:?}", path.display());
            let again = &again[0];
            let mut want: Vec<(String, String)> = game
                .tags
                .iter()
                .map(|(n, v)| (n.into(), v.into()))
                .collect();
            if game.tags.get("Result").is_none() {
                want.push(("Result".into(), game.outcome().to_string()));
            }
            let mut have: Vec<(String, String)> = again
                .tags
                .iter()
                .map(|(n, v)| (n.into(), v.into()))
                .collect();
            want.sort();
            have.sort();
            assert_eq!(have, want, "{}", path.display());
            let moves = |g: &ChessGame| g.moves.plies.iter().map(|p| p.mv.mv).collect::<Vec<_>>();
            assert_eq!(
                moves(again),
                moves(game),
                "{}: {:?}",
                path.display(),
                game.tags
            );
            checked += 1;
        }
    }
    assert!(checked > 12_000, "{checked}");
    assert!(null_games < 20, "{null_games}");
}

/// Piece tracks: applying each ply's actions to `start` gives exactly the pieces of the real
/// position after every ply of every corpus game, and names stay unique.
#[test]
fn tracks_follow_every_corpus_game() {
    use notate::chess::tracks::TracksWriter;
    use notate::shakmaty::{Position, Role, Square};
    use serde_json::Value;
    use std::collections::HashMap;

    let mut writer = TracksWriter::default();
    let (mut games_checked, mut plies_checked) = (0, 0);
    for path in pgn_files() {
        let (games, _) = read_all(&path);
        for game in &games {
            let mut line = Vec::new();
            writer.write(game, &mut line).unwrap();
            let value: Value = serde_json::from_slice(&line).unwrap();
            // name → square, as the page would keep it.
            let mut on_board: HashMap<String, String> = value["start"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
                .collect();
            let mut ever: std::collections::HashSet<String> = on_board.keys().cloned().collect();
            let (mut pos, _) = game.start_position().unwrap();
            let moves = value["moves"].as_array().unwrap();
            assert_eq!(moves.len(), game.moves.plies.len());
            for (ply, json) in game.moves.plies.iter().zip(moves) {
                for action in json["actions"].as_array().unwrap() {
                    let name = action[0].as_str().unwrap().to_string();
                    match action[1].as_str().unwrap() {
                        "x" | "p" => {
                            assert!(
                                on_board.remove(&name).is_some(),
                                "{name} was not on the board"
                            );
                        }
                        sq => {
                            if !on_board.contains_key(&name) {
                                assert!(ever.insert(name.clone()), "{name} is used twice");
                            }
                            on_board.insert(name, sq.to_string());
                        }
                    }
                }
                notate::chess::play(&mut pos, ply.mv.mv);
                // The pieces of the position, by square, against the tracks' squares.
                let mut real: Vec<(String, char)> = Square::ALL
                    .into_iter()
                    .filter_map(|sq| pos.board().piece_at(sq).map(|p| (sq.to_string(), p.char())))
                    .collect();
                let mut tracked: Vec<(String, char)> = on_board
                    .iter()
                    .map(|(name, sq)| {
                        // The name says colour and kind: `wkp` a pawn, `bQ2` a queen, `wq` the
                        // queen, `bkn` a knight.
                        let white = name.starts_with('w');
                        let rest = &name[1..];
                        let role = if rest.ends_with('p') {
                            Role::Pawn
                        } else if let Some(c) =
                            rest.chars().next().filter(|c| c.is_ascii_uppercase())
                        {
                            Role::from_char(c.to_ascii_lowercase()).unwrap()
                        } else {
                            match rest {
                                "q" => Role::Queen,
                                "k" => Role::King,
                                _ => Role::from_char(rest.chars().nth(1).unwrap()).unwrap(),
                            }
                        };
                        let piece = role.of(if white {
                            notate::shakmaty::Color::White
                        } else {
                            notate::shakmaty::Color::Black
                        });
                        (sq.clone(), piece.char())
                    })
                    .collect();
                real.sort();
                tracked.sort();
                assert_eq!(
                    tracked,
                    real,
                    "{}: {:?} ply {}",
                    path.display(),
                    game.tags,
                    plies_checked
                );
                plies_checked += 1;
            }
            games_checked += 1;
        }
    }
    assert!(games_checked > 12_000, "{games_checked}");
    assert!(plies_checked > 700_000, "{plies_checked}");
}

/// jsonchess: every corpus game without null moves writes and reads back to the same moves,
/// every packed string decoding in its position.
#[test]
fn jsonchess_round_trip_keeps_moves() {
    use notate::chess::jsonchess;
    let (mut checked, mut null_games) = (0, 0);
    for path in pgn_files() {
        let (games, _) = read_all(&path);
        for game in &games {
            let mut line = Vec::new();
            if let Err(e) = jsonchess::write_jsonchess(game, &mut line) {
                assert!(e.reason.contains("null move"), "{}: {e:?}", path.display());
                assert!(line.is_empty(), "no partial line");
                null_games += 1;
                continue;
            }
            let text = std::str::from_utf8(&line).unwrap().trim_end();
            let back = jsonchess::read_jsonchess(text, 0)
                .unwrap_or_else(|e| panic!("{}: {e:?}\n{text}", path.display()));
            let moves = |g: &ChessGame| g.moves.plies.iter().map(|p| p.mv.mv).collect::<Vec<_>>();
            assert_eq!(moves(&back), moves(game), "{}", path.display());
            checked += 1;
        }
    }
    assert!(checked > 12_000, "{checked}");
    assert!(null_games < 20, "{null_games}");
}
