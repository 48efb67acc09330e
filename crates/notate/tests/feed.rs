//! `format::Feed` (bytes pushed as they arrive) gives what `format::Reader` (bytes pulled)
//! gives over the same stream, whatever the pieces: the same games, numbers and error places.

use notate::chess::{json::Json, pgn::Pgn};
use notate::format::{Feed, ReadFormat, Reader};
use notate::infinite::short::Icn;
use notate::shogi::kif::Kif;
use std::fmt::Debug;
use std::io::Read;

/// Every game or error of `text`, as a `Reader` reads it.
fn pulled<F: ReadFormat>(text: &str) -> Vec<Result<F::Game, notate::Error>> {
    Reader::<F, _>::new(text.as_bytes()).collect()
}

/// The same, pushed in pieces of `size` bytes.
fn pushed<F: ReadFormat>(text: &str, size: usize) -> Vec<Result<F::Game, notate::Error>> {
    let mut feed = Feed::<F>::new();
    let mut out = Vec::new();
    for piece in text.as_bytes().chunks(size) {
        out.extend(feed.push(piece));
    }
    out.extend(feed.finish());
    out
}

fn same_in_any_pieces<F: ReadFormat>(text: &str)
where
    F::Game: PartialEq + Debug,
{
    let want = pulled::<F>(text);
    assert!(!want.is_empty());
    for size in [1, 2, 3, 7, 64, 4096, 1 << 20] {
        assert_eq!(pushed::<F>(text, size), want, "pieces of {size} bytes");
    }
}

#[test]
fn pgn_pushed_in_pieces_reads_as_pulled() {
    let mut text = String::new();
    for i in 0..300 {
        text.push_str(&format!(
            "[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 {{c}} Nc6 *\n\n"
        ));
        if i % 50 == 7 {
            // A bad game in the middle: its error has the same place both ways.
            text.push_str("[Event \"bad\"]\n\n1. e4 e4 *\n\n");
        }
    }
    let want = pulled::<Pgn>(&text);
    assert_eq!(want.len(), 306);
    let error = want[8].as_ref().unwrap_err();
    assert_eq!((error.game, error.ply), (Some(9), Some(2)));
    same_in_any_pieces::<Pgn>(&text);
}

#[test]
fn game_lines_pushed_in_pieces_read_as_pulled() {
    let game = notate::chess::pgn::read_one("1. d4 d5 *").unwrap();
    let line = notate::chess::json::to_string(&game).unwrap();
    let text = format!("{line}{line}not json\n{line}");
    same_in_any_pieces::<Json>(&text);
}

#[test]
fn whole_texts_pushed_in_pieces_read_as_pulled() {
    same_in_any_pieces::<Kif>("手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n");
    same_in_any_pieces::<Icn>("w K5,1|k5,8 5,1>5,2|5,8>5,7");
}

#[test]
fn generated_games_pushed_in_pieces_read_as_pulled() {
    // Tags, comments, variations, NAGs, clocks, null moves: pauses after every piece.
    same_in_any_pieces::<Pgn>(&notate_testdata::pgn(11, 300));
}

/// A stream's games go out with the push that completes them, not a chunk's worth later: a
/// PGN game once the next one starts (or, live, once its result and a line break came), a
/// JSON line once its line break came. The places of what follows stay the stream's.
#[test]
fn games_go_out_with_the_push_that_completes_them() {
    let text = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 d4 *\n\n1. c4 1-0 {won}\n";
    let pulled = pulled::<Pgn>(text);
    let error = pulled[1].as_ref().unwrap_err();
    assert_eq!((error.game, error.ply), (Some(2), Some(2)));
    assert_eq!(error.place.map(|p| (p.line, p.column)), Some((7, 7)));
    let pieces = |feed: &mut Feed<Pgn>| -> Vec<usize> {
        let mut counts = Vec::new();
        let mut out = Vec::new();
        for piece in [
            "[Event \"a\"]\n\n1. e4 e5 *\n",
            "\n[Event \"b\"]\n\n1. d4 d4",
            " *\n",
            "\n1. c4",
            " 1-0 {won}\n",
        ] {
            let games = feed.push(piece.as_bytes());
            counts.push(games.len());
            out.extend(games);
        }
        let rest = feed.finish();
        counts.push(rest.len());
        out.extend(rest);
        assert_eq!(out, pulled);
        counts
    };
    assert_eq!(pieces(&mut Feed::<Pgn>::new()), [0, 1, 0, 1, 0, 1]);
    assert_eq!(pieces(&mut Feed::<Pgn>::new().live()), [1, 0, 1, 0, 1, 0]);

    let game = notate::chess::pgn::read_one("1. d4 d5 *").unwrap();
    let line = notate::chess::json::to_string(&game).unwrap();
    let mut feed = Feed::<Json>::new();
    assert!(feed.push(&line.as_bytes()[..10]).is_empty());
    assert_eq!(feed.push(format!("{}\n", &line[10..]).as_bytes()).len(), 1);
    assert!(feed.finish().is_empty());
}

/// Live, pushes in pieces give what reading at once gives when no comment follows a result
/// on a line of its own; one that does, pushed after a pause there, goes with the next game.
#[test]
fn a_comment_after_a_live_pause_goes_with_the_next_game() {
    let mut text = String::new();
    for i in 0..200 {
        text.push_str(&format!("[Event \"{i}\"]\n\n1. e4 {{c}} e5 2. Nf3 *\n\n"));
    }
    let want = pulled::<Pgn>(&text);
    for size in [1, 3, 64, 4096] {
        let mut feed = Feed::<Pgn>::new().live();
        let mut out = Vec::new();
        for piece in text.as_bytes().chunks(size) {
            out.extend(feed.push(piece));
        }
        out.extend(feed.finish());
        assert_eq!(out, want, "pieces of {size} bytes");
    }

    let text = "1. e4 *\n{a note}\n\n[Event \"b\"]\n\n1. d4 *\n";
    let pulled = pulled::<Pgn>(text);
    assert_eq!(pulled[0].as_ref().unwrap().final_comments.len(), 1);
    let mut feed = Feed::<Pgn>::new().live();
    let mut games = feed.push(&text.as_bytes()[..8]);
    games.extend(feed.push(&text.as_bytes()[8..]));
    games.extend(feed.finish());
    assert_eq!(games.len(), 2);
    assert!(games[0].as_ref().unwrap().final_comments.is_empty());
    let second = games[1].as_ref().unwrap();
    assert_eq!(
        (second.moves.comments.len(), second.moves.plies.len()),
        (1, 1)
    );
    // Not live, the note stays with its game.
    let mut feed = Feed::<Pgn>::new();
    let mut games = feed.push(&text.as_bytes()[..8]);
    games.extend(feed.push(&text.as_bytes()[8..]));
    games.extend(feed.finish());
    assert_eq!(games, pulled);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Live, any pieces give what reading at once gives, over generated games (tags,
    /// comments, variations, clocks, null moves) none of which has a note after its result.
    #[test]
    fn live_reads_as_pulled_when_no_note_follows_a_result(
        seed: u64,
        games in 1usize..12,
        sizes in proptest::collection::vec(1usize..2000, 1..30),
    ) {
        let mut text = String::new();
        for game in pulled::<Pgn>(&notate_testdata::pgn(seed, games)) {
            let mut game = game.unwrap();
            game.final_comments.clear();
            text.push_str(&notate::chess::pgn::to_string(&game).unwrap());
            text.push('\n');
        }
        let want = pulled::<Pgn>(&text);
        proptest::prop_assert_eq!(want.len(), games);
        let mut feed = Feed::<Pgn>::new().live();
        let (mut out, mut at) = (Vec::new(), 0);
        for size in sizes.iter().cycle() {
            if at == text.len() {
                break;
            }
            let end = (at + size).min(text.len());
            out.extend(feed.push(&text.as_bytes()[at..end]));
            at = end;
        }
        out.extend(feed.finish());
        proptest::prop_assert_eq!(out, want);
    }
}

/// Blanks after a live cut (lines, a line's indentation, a byte-order mark) are between games,
/// as in a stream read at once: the next game starts at its first byte, for its size limit
/// and the place of its errors.
#[test]
fn blank_lines_after_a_live_cut_are_no_part_of_the_next_game() {
    let text =
        "1. e4 e5 *\n\n\r\n\u{feff}\n\n\n  [Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n\n\n1. d4 Nf9 *\n";
    // The second game, from its tags to the next game, is 33 bytes; with the blanks before
    // it, 46.
    let options = notate::chess::pgn::ReadOptions {
        max_game_bytes: 36,
        ..Default::default()
    };
    let want: Vec<_> = Reader::<Pgn, _>::with_options(text.as_bytes(), options).collect();
    assert_eq!(want.len(), 3);
    assert!(want[1].is_ok(), "{:?}", want[1]);
    let error = want[2].as_ref().unwrap_err();
    assert_eq!(error.place.map(|p| (p.line, p.column)), Some((12, 7)));
    let mut feed = Feed::<Pgn>::with_options(options).live();
    let mut games = Vec::new();
    for piece in text.split_inclusive("*\n") {
        games.extend(feed.push(piece.as_bytes()));
    }
    games.extend(feed.finish());
    assert_eq!(games, want);
}

#[test]
fn a_push_after_the_end_is_an_error() {
    let mut feed = Feed::<Pgn>::new();
    assert_eq!(feed.push(b"1. e4 *").len(), 0);
    assert_eq!(feed.finish().len(), 1);
    let late = feed.push(b"1. d4 *");
    assert!(late[0]
        .as_ref()
        .unwrap_err()
        .message
        .contains("after the end"));
}

/// `format::ParallelReader` gives what `Reader` gives, on any number of workers: the same
/// games in the same order, the same numbers and places for the bad ones, over many chunks.
#[test]
fn parallel_reading_gives_what_reading_in_order_gives() {
    use notate::format::ParallelReader;
    let mut text = notate_testdata::pgn(7, 3000);
    text.push_str("\n\n[Event \"bad\"]\n\n1. e4 Ke7 2. Qh5 *\n");
    let want = pulled::<Pgn>(&text);
    assert_eq!(want.len(), 3001);
    assert!(want[3000].is_err());
    for threads in [1, 2, 5] {
        let got: Vec<_> =
            ParallelReader::<Pgn>::new(std::io::Cursor::new(text.clone()), threads).collect();
        assert_eq!(got, want, "{threads} workers");
    }
    // Taking a few games and dropping the reader stops its threads (the test would hang on
    // a thread waiting forever otherwise, since the stream is endless).
    let endless = std::io::repeat(b'\n').take(1 << 40);
    let mut reader = ParallelReader::<Pgn>::new(
        std::io::Cursor::new("1. e4 *\n\n".repeat(10)).chain(endless),
        2,
    );
    // (The tenth game never ends: more movetext may follow in the blank lines.)
    assert_eq!(reader.by_ref().take(9).filter(Result::is_ok).count(), 9);
    drop(reader);
}

/// A reader whose source fails after `bytes`.
struct FailingAfter<'a>(&'a [u8]);

impl Read for FailingAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.0.is_empty() {
            return Err(std::io::Error::other("disk gone"));
        }
        let n = buf.len().min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// `Feed::fail` gives what a `Reader` whose source fails at the same byte gives before its
/// error: the whole games (another had started after them, or their result and a line break
/// were read), whatever the pieces.
#[test]
fn a_failed_feed_gives_the_whole_games_a_failed_reader_gives() {
    let text = "[Event \"a\"]\n\n1. e4 e5 *\n\n1. d4 d5 *\n\n".repeat(400);
    for cut in [0, 5, 30, 31, 60, text.len() / 2, text.len() - 1, text.len()] {
        let bytes = &text.as_bytes()[..cut];
        let mut pulled: Vec<_> = Reader::<Pgn, _>::new(FailingAfter(bytes)).collect();
        let error = pulled.pop().expect("the failure comes last");
        assert!(error.unwrap_err().message.contains("disk gone"));
        for size in [13, 4096, 1 << 20] {
            let mut feed = Feed::<Pgn>::new();
            let mut out = Vec::new();
            for piece in bytes.chunks(size) {
                out.extend(feed.push(piece));
            }
            out.extend(feed.fail());
            assert_eq!(out, pulled, "cut at {cut}, pieces of {size}");
            assert!(feed.finish().is_empty());
        }
    }
}
