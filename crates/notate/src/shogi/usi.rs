//! USI: moves (`7g7f`, `8h2b+`, `P*5e`) and `position` commands, one game per line.

use super::encoding;
/// How this format is read (every shogi format takes the same options).
pub use super::encoding::ReadOptions;
use super::error::{self, Error};
use super::piece::PieceKind;
use super::position::{Move, Position};
use super::record::{play_checked, Ending, EndingKind, Record, RecordMove};
use super::sfen::STARTPOS;
use super::square::Square;
use crate::format::{read_format, write_verbs, WriteFormat};

/// Reads a USI move (syntax only; legality is the position's business).
///
/// ```
/// use notate::shogi::usi;
/// assert_eq!(usi::parse_move("8h2b+").unwrap().to_string(), "8h2b+");
/// assert!(usi::parse_move("8h2j").is_err());
/// ```
pub fn parse_move(text: &str) -> Result<Move, String> {
    let b = text.as_bytes();
    match b {
        [p, b'*', to @ ..] => {
            let kind = PieceKind::from_letter(*p)
                .filter(|_| p.is_ascii_uppercase())
                .ok_or_else(|| {
                    format!("{:?} is not a piece to drop (P L N S G B R)", *p as char)
                })?;
            let to = Square::parse_usi(to).ok_or_else(|| format!("bad square in {text:?}"))?;
            Ok(Move::Drop { kind, to })
        }
        [f1, r1, f2, r2, rest @ ..] if rest.is_empty() || rest == b"+" => {
            let from =
                Square::parse_usi(&[*f1, *r1]).ok_or_else(|| format!("bad square in {text:?}"))?;
            let to =
                Square::parse_usi(&[*f2, *r2]).ok_or_else(|| format!("bad square in {text:?}"))?;
            Ok(Move::Normal {
                from,
                to,
                promote: !rest.is_empty(),
            })
        }
        _ => Err(format!("{text:?} is not a USI move (7g7f, 8h2b+, P*5e)")),
    }
}

/// Reads one game: `position startpos moves …`, `position sfen <sfen> moves …`, the same
/// without `position`, or a bare SFEN with optional `moves …`. A trailing `resign` or `win`
/// becomes the ending.
pub(crate) fn read_game(line: &str) -> Result<Record, Error> {
    read_line(line, 1)
}

fn read_line(line: &str, number: usize) -> Result<Record, Error> {
    let text = line.trim_end_matches(['\r', '\n']);
    let words: Vec<(usize, &str)> = text
        .split(' ')
        .scan(0usize, |at, w| {
            let start = *at;
            *at += w.len() + 1;
            Some((start, w))
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    let fail = |at: usize, msg: &str| error::line(number, text, at, msg);
    let mut i = 0;
    if words.first().is_some_and(|w| w.1 == "position") {
        i += 1;
    }
    let start = match words.get(i).map(|w| w.1) {
        Some("startpos") => {
            i += 1;
            STARTPOS.to_string()
        }
        Some(word) => {
            if word == "sfen" {
                i += 1;
            }
            let fields: Vec<&str> = words[i..]
                .iter()
                .take_while(|w| w.1 != "moves")
                .map(|w| w.1)
                .collect();
            i += fields.len();
            fields.join(" ")
        }
        None => return Err(fail(text.len(), "expected `startpos` or an SFEN")),
    };
    let start_at = words.get(i.saturating_sub(1)).map_or(0, |w| w.0);
    let start = Position::from_sfen(&start)
        .map_err(|e| fail(start_at + e.offset().unwrap_or(0), &e.message))?;
    let mut record = Record::new(start.clone());
    let mut pos = start;
    if let Some(&(at, w)) = words.get(i) {
        if w != "moves" {
            return Err(fail(at, "expected `moves`"));
        }
        i += 1;
    }
    for &(at, w) in &words[i..] {
        if record.ending.is_some() {
            return Err(fail(at, "a move after the end of the game"));
        }
        let kind = match w {
            "resign" => Some(EndingKind::Resign),
            "win" => Some(EndingKind::EnteringKing),
            _ => None,
        };
        if let Some(kind) = kind {
            record.ending = Some(Ending::new(kind));
            continue;
        }
        let mv = parse_move(w).map_err(|m| fail(at, &m))?;
        let ply = record.moves.len() as u32 + 1;
        play_checked(&mut pos, mv, ply, Some(number), w)?;
        record.moves.push(RecordMove::new(mv));
    }
    Ok(record)
}

/// Writes `position startpos moves …` (or `position sfen …`) and a newline: the command an
/// engine reads, so only the start and the moves (an ending has no place in it).
pub(crate) fn write(record: &Record, out: &mut String) {
    out.push_str("position ");
    let start = record.start.to_sfen();
    if start == STARTPOS {
        out.push_str("startpos");
    } else {
        out.push_str("sfen ");
        out.push_str(&start);
    }
    if !record.moves.is_empty() {
        out.push_str(" moves");
        for m in &record.moves {
            out.push(' ');
            out.push_str(&m.mv.to_string());
        }
    }
    out.push('\n');
}

/// USI `position` commands, one game per line (blank lines and `#` lines skipped).
#[derive(Debug, Default)]
pub struct Usi;

/// How USI is written (nothing to choose yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOptions {}

read_format!(Usi, Record, "USI", ReadOptions, lines, |record, options| {
    encoding::read_line(record, options, read_game)
});

impl WriteFormat for Usi {
    type Game = Record;
    type WriteOptions = WriteOptions;

    fn new(options: WriteOptions) -> Usi {
        let _ = options;
        Usi
    }

    fn write_game(&mut self, record: &Record, out: &mut Vec<u8>) -> Result<(), Error> {
        let mut text = String::new();
        write(record, &mut text);
        out.extend_from_slice(text.as_bytes());
        Ok(())
    }
}

write_verbs!(Usi, Record, "USI");
