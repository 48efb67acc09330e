//! The checks every game collection must pass, shared by `roundtrip.rs` (generated games, in
//! the README's test command) and `corpus.rs` (the PGN corpus of `../shared/`, run by
//! `scripts/shared-suites`): PGN and JSON written by notate read back to the same game; the
//! fast validating reader agrees with read-then-replay; EGD, tracks and jsonchess round trips
//! keep the moves.
// Each suite uses the part of this module its collection needs.
#![allow(dead_code)]

use std::path::Path;

use notate::chess::egd::{self, Egd};
use notate::chess::pgn::{self, read_chunk, GameSplitter, Pgn, ReadGame, ReadOptions};
use notate::chess::{json, replay, ChessGame, Line, Played};
use notate::format::WriteFormat;

/// Every game of `bytes` as the chunk reader gives it (with its warnings).
pub fn reads(bytes: &[u8]) -> Vec<ReadGame> {
    let mut splitter = GameSplitter::new(bytes, 1 << 20);
    let mut out = Vec::new();
    while let Some(chunk) = splitter.next_chunk().unwrap() {
        out.extend(read_chunk(&chunk, ReadOptions::default()));
    }
    out
}

/// A collection of games: its name (for messages) and its bytes.
pub struct Source {
    /// The file name, or what generated the text.
    pub name: String,
    /// The PGN text.
    pub bytes: Vec<u8>,
}

impl Source {
    /// A file of the collection.
    pub fn file(path: &Path) -> Source {
        Source {
            name: path.display().to_string(),
            bytes: std::fs::read(path).unwrap(),
        }
    }
}

/// A rejected game: number in its source, ply, token, reason.
pub type Rejected = (u64, Option<usize>, Option<String>, String);

/// The games of a source that replay, and the rejected ones.
pub fn read_all(source: &Source) -> (Vec<ChessGame>, Vec<Rejected>) {
    let mut ok = Vec::new();
    let mut failed = Vec::new();
    for (i, read) in reads(&source.bytes).into_iter().enumerate() {
        match read.game.and_then(replay) {
            Ok(game) => ok.push(game),
            Err(f) => failed.push((i as u64 + 1, f.error.ply, f.error.token, f.error.message)),
        }
    }
    (ok, failed)
}

/// Compares two lines move by move, with their annotations.
pub fn same_line(a: &Line<Played>, b: &Line<Played>) -> bool {
    // Export format wraps long comments at 80 columns: a line break written for a space.
    let texts = |c: &[notate::chess::Comment]| {
        c.iter()
            .map(|c| c.text.replace('\n', " "))
            .collect::<Vec<_>>()
    };
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

/// `have` (tags read back from PGN that notate wrote) without the Seven Tag Roster tags
/// export format adds when the game (`want`) has none: placeholders, and a `Result` from the
/// movetext (the outcome is compared apart).
fn without_added_roster(
    have: Vec<(String, String)>,
    want: &[(String, String)],
) -> Vec<(String, String)> {
    have.into_iter()
        .filter(|(name, value)| {
            let added = name == "Result" || matches!(value.as_str(), "?" | "????.??.??");
            !(pgn::SEVEN_TAG_ROSTER.contains(&name.as_str())
                && added
                && !want.iter().any(|(n, _)| n == name))
        })
        .collect()
}

pub fn pgn_and_json_round_trips_keep_every_game(sources: &[Source]) -> usize {
    let mut checked = 0;
    for source in sources {
        let (games, _) = read_all(source);
        let mut pgn = Vec::new();
        let mut writer = Pgn::default();
        for game in &games {
            writer.write_game(game, &mut pgn).unwrap();
        }
        let text = String::from_utf8(pgn).unwrap();
        // Lines wrap at 80 columns, comments too; only a tag, a single word longer than a
        // line, or a `;` comment (one that holds a `}`) may run longer, and a comment's
        // blanks, which are never wrapped (a line of blanks would end the game).
        for line in text.lines() {
            let exempt = !line.trim().contains(' ') || line.contains(';') || line.starts_with('[');
            assert!(
                exempt || line.trim_end().chars().count() <= 80,
                "{}: line over 80 columns: {line}",
                source.name
            );
        }
        let (again, failed) = read_all_text(&text);
        assert!(failed.is_empty(), "{}: {failed:?}", source.name);
        assert_eq!(games.len(), again.len(), "{}", source.name);
        for (a, b) in games.iter().zip(&again) {
            // PGN export puts the Seven Tag Roster first: same tags, maybe in another order.
            let sorted = |t: &notate::chess::Tags| {
                let mut v: Vec<(String, String)> =
                    t.iter().map(|(n, v)| (n.into(), v.into())).collect();
                v.sort();
                v
            };
            let want = sorted(&a.tags);
            assert_eq!(
                without_added_roster(sorted(&b.tags), &want),
                want,
                "{}",
                source.name
            );
            assert_eq!(a.outcome(), b.outcome());
            assert!(
                same_line(&a.moves, &b.moves),
                "{}: {:?}",
                source.name,
                a.tags
            );
            let back = json::read_one(&json::to_string(a).unwrap()).unwrap();
            assert_eq!(&back, a, "{}: JSON round trip", source.name);
            // With a FEN after every move: reading checks each one against the replay.
            let with_fens = json::to_string_with(a, json::WriteOptions { fens: true }).unwrap();
            let plies = a.moves.plies.len();
            assert!(with_fens.matches("\"fen\":").count() >= plies);
            let back = json::read_one(&with_fens).unwrap();
            assert_eq!(&back, a, "{}: JSON round trip with FENs", source.name);
            checked += 1;
        }
    }
    checked
}

pub fn read_all_text(text: &str) -> (Vec<ChessGame>, Vec<String>) {
    let mut ok = Vec::new();
    let mut failed = Vec::new();
    for read in reads(text.as_bytes()) {
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

pub fn validate_only_reading_agrees_with_read_then_replay(sources: &[Source]) {
    let fast = ReadOptions {
        keep: pgn::Keep::Nothing,
        ..ReadOptions::default()
    };
    for source in sources {
        let verdicts = |options: ReadOptions| {
            let mut splitter =
                GameSplitter::with_limits(source.bytes.as_slice(), 64 << 10, options);
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
                            Some((None, None, None, white, black))
                        }
                        Ok(_) => None,
                        Err(mut f) => Some((
                            {
                                // Replay errors are placed here, reading errors by the reader.
                                f.error.locate(&mut chunk.locator());
                                f.error.offset()
                            },
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
            source.name
        );
    }
}

/// PGN → EGD → PGN over the whole corpus keeps the tags (EGD adds `Result` when the game
/// had no such tag) and the main line's moves. Games with a null move cannot be EGD: they
/// are refused, and counted.
pub fn egd_round_trip_keeps_tags_and_moves(sources: &[Source]) -> (usize, usize) {
    let (mut checked, mut null_games) = (0, 0);
    let mut writer = Egd::default();
    for source in sources {
        let (games, _) = read_all(source);
        for game in &games {
            let mut egd_line = Vec::new();
            if let Err(e) = writer.write_game(game, &mut egd_line) {
                assert!(e.message.contains("null move"), "{}: {e:?}", source.name);
                assert!(egd_line.is_empty(), "no partial line");
                null_games += 1;
                continue;
            }
            let text = std::str::from_utf8(&egd_line).unwrap();
            let back =
                egd::read_one(text).unwrap_or_else(|e| panic!("{}: {e:?}\n{text}", source.name));
            let (again, failed) = read_all_text(&pgn::to_string(&back).unwrap());
            assert!(failed.is_empty(), "{}: {failed:?}", source.name);
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
            assert_eq!(without_added_roster(have, &want), want, "{}", source.name);
            let moves = |g: &ChessGame| g.moves.plies.iter().map(|p| p.mv.mv).collect::<Vec<_>>();
            assert_eq!(
                moves(again),
                moves(game),
                "{}: {:?}",
                source.name,
                game.tags
            );
            checked += 1;
        }
    }
    (checked, null_games)
}

/// Piece tracks: applying each ply's actions to `start` gives exactly the pieces of the real
/// position after every ply of every corpus game, and names stay unique.
pub fn tracks_follow_every_game(sources: &[Source]) -> (usize, usize) {
    use notate::chess::tracks::Tracks;
    use notate::shakmaty::{Position, Role, Square};
    use serde_json::Value;
    use std::collections::HashMap;

    let mut writer = Tracks::default();
    let (mut games_checked, mut plies_checked) = (0, 0);
    for source in sources {
        let (games, _) = read_all(source);
        for game in &games {
            let mut line = Vec::new();
            writer.write_game(game, &mut line).unwrap();
            let value: Value = serde_json::from_slice(&line).unwrap();
            // name → square, as the page would keep it.
            let mut on_board: HashMap<String, String> = value["start"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
                .collect();
            let mut ever: std::collections::HashSet<String> = on_board.keys().cloned().collect();
            let mut pos = game.start.position.clone();
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
                    tracked, real,
                    "{}: {:?} ply {}",
                    source.name, game.tags, plies_checked
                );
                plies_checked += 1;
            }
            games_checked += 1;
        }
    }
    (games_checked, plies_checked)
}

/// jsonchess: every corpus game without null moves writes and reads back to the same moves,
/// every packed string decoding in its position.
pub fn jsonchess_round_trip_keeps_moves(sources: &[Source]) -> (usize, usize) {
    use notate::chess::jsonchess;
    let (mut checked, mut null_games) = (0, 0);
    for source in sources {
        let (games, _) = read_all(source);
        for game in &games {
            let mut line = Vec::new();
            if let Err(e) = jsonchess::Jsonchess.write_game(game, &mut line) {
                assert!(e.message.contains("null move"), "{}: {e:?}", source.name);
                assert!(line.is_empty(), "no partial line");
                null_games += 1;
                continue;
            }
            let text = std::str::from_utf8(&line).unwrap();
            let back = jsonchess::read_one(text)
                .unwrap_or_else(|e| panic!("{}: {e:?}\n{text}", source.name));
            let moves = |g: &ChessGame| g.moves.plies.iter().map(|p| p.mv.mv).collect::<Vec<_>>();
            assert_eq!(moves(&back), moves(game), "{}", source.name);
            checked += 1;
        }
    }
    (checked, null_games)
}
