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
/// error: the whole games (another had started after them), whatever the pieces.
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
