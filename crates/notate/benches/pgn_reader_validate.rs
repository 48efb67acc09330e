//! The baseline of `scripts/bench`: single-threaded validation with pgn-reader + shakmaty,
//! the loop of pgn-reader's own `validate` example. Built as a bench target so that the
//! comparison runs the same compiler and flags as notate.
//!
//! Usage: `cargo bench -p notate --bench pgn_reader_validate -- FILE...` prints
//! `games errors seconds` per file.

use std::{env, fs::File, io, ops::ControlFlow, time::Instant};

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position};

struct Validator {
    games: usize,
    errors: usize,
}

impl Visitor for Validator {
    type Tags = Option<Chess>;
    type Movetext = Chess;
    type Output = bool;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.games += 1;
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            let pos = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok());
            match pos {
                Some(pos) => *tags = Some(pos),
                None => return ControlFlow::Break(false),
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(tags.unwrap_or_default())
    }

    fn san(&mut self, pos: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        match san_plus.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(false),
        }
    }

    fn end_game(&mut self, _pos: Self::Movetext) -> Self::Output {
        true
    }
}

fn main() -> io::Result<()> {
    for arg in env::args().skip(1).filter(|a| !a.starts_with("--")) {
        let start = Instant::now();
        let mut reader = Reader::new(File::open(&arg)?);
        let mut validator = Validator {
            games: 0,
            errors: 0,
        };
        while let Some(ok) = reader.read_game(&mut validator)? {
            if !ok {
                validator.errors += 1;
            }
        }
        println!(
            "{} {} {:.4}",
            validator.games,
            validator.errors,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
