//! `convert`, `check` and the streaming `GameFeed`: every format of the command line, read
//! with the library's readers and written with its writers, one game at a time.

use notate::chess::egd::{self, Egd};
use notate::chess::json::{self, Json};
use notate::chess::jsonchess::Jsonchess;
use notate::chess::pgn::Pgn;
use notate::chess::positions::{self, PositionFormat, Positions};
use notate::chess::tracks::Tracks;
use notate::chess::uci::Uci;
use notate::chess::ChessGame;
use notate::format::{Feed, ReadFormat, Reader, WriteFormat};
use notate::infinite::long::{self, IcnJson};
use notate::infinite::short::{self, Dialect, Icn, MoveStyle};
use notate::infinite::{replay, Game};
use notate::shogi::encoding::{self, Encoding};
use notate::shogi::{book, csa, jkf, ki2, kif, sfen, usi, western, Record};
use notate::Error;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

use crate::{argument, error_json, throw, usage};

/// What `convert` may be told (the command line's options, in JavaScript's case). Unknown
/// keys are refused, so that a misspelt option is not ignored in silence.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct Options {
    /// Shogi input: `utf-8`, `shift_jis` or `euc-jp` (detected when absent).
    pub encoding: Option<String>,
    /// EGD: draw-rule features and annotations.
    pub egd_extended: bool,
    /// EGD, JKF: indented output.
    pub pretty: bool,
    /// Game JSON: the FEN after every move.
    pub fens: bool,
    /// ICN: `pretty`, `compact` or `minimal` moves.
    pub moves: Option<String>,
    /// ICN: one line; icn-json: one line per game.
    pub single_line: bool,
    /// ICN: write the position (default true).
    pub position: Option<bool>,
    /// ICN: `2024` (FormatConverter.js) or `2025` (infinitechess.org).
    pub dialect: Option<String>,
    /// ICN 2025: blanks within moves.
    pub spaces: Option<bool>,
    /// ICN 2025: move numbers.
    pub move_numbers: Option<bool>,
    /// ICN: comments and clock stamps (default true).
    pub comments: Option<bool>,
    /// icn-json: moves as the reference's legacy objects.
    pub legacy_moves: bool,
    /// CSA: `2.2` or `3.0` (default).
    pub csa_version: Option<String>,
    /// Western shogi: `letter` (`7f`, default) or `digit` (`76`) squares.
    pub western_squares: Option<String>,
    /// KIF: `不成` on a declined promotion (default true).
    pub mark_declined: Option<bool>,
}

impl Options {
    fn dialect(&self) -> Result<Dialect, Error> {
        match self.dialect.as_deref() {
            None | Some("2024") => Ok(Dialect::V2024),
            Some("2025") => Ok(Dialect::V2025),
            Some(other) => Err(usage(format!("dialect {other:?}: 2024 or 2025"))),
        }
    }

    /// How ICN is written.
    pub fn short(&self) -> Result<short::WriteOptions, Error> {
        Ok(short::WriteOptions {
            moves: match self.moves.as_deref() {
                None | Some("pretty") => MoveStyle::Pretty,
                Some("compact") => MoveStyle::Compact,
                Some("minimal") => MoveStyle::Minimal,
                Some(other) => {
                    return Err(usage(format!(
                        "moves {other:?}: pretty, compact or minimal"
                    )))
                }
            },
            single_line: self.single_line,
            position: self.position.unwrap_or(true),
            dialect: self.dialect()?,
            spaces: self.spaces,
            move_numbers: self.move_numbers,
            comments: self.comments.unwrap_or(true),
        })
    }

    fn long(&self) -> Result<long::WriteOptions, Error> {
        Ok(long::WriteOptions {
            dialect: self.dialect()?,
            legacy_moves: self.legacy_moves,
            pretty: !self.single_line,
        })
    }

    fn shogi_read(&self) -> Result<encoding::ReadOptions, Error> {
        let encoding = match self.encoding.as_deref() {
            None => None,
            Some("utf-8" | "utf8") => Some(Encoding::Utf8),
            Some("shift_jis" | "shift-jis" | "sjis" | "cp932") => Some(Encoding::ShiftJis),
            Some("euc-jp" | "eucjp") => Some(Encoding::EucJp),
            Some(other) => {
                return Err(usage(format!(
                    "encoding {other:?}: utf-8, shift_jis or euc-jp"
                )))
            }
        };
        Ok(encoding::ReadOptions { encoding })
    }
}

/// The outcome of a conversion: the text written, and what went wrong, game by game.
#[wasm_bindgen]
pub struct Converted {
    output: String,
    games: u64,
    report: Vec<serde_json::Value>,
    warnings: Vec<serde_json::Value>,
}

#[wasm_bindgen]
impl Converted {
    /// The text written (the games that could be written, in order), taken out.
    #[wasm_bindgen(js_name = takeOutput)]
    pub fn take_output(&mut self) -> String {
        std::mem::take(&mut self.output)
    }

    /// How many games the input held, bad ones included.
    #[wasm_bindgen(getter)]
    pub fn games(&self) -> f64 {
        self.games as f64
    }

    /// The errors, as a JSON array (see [`crate::error_json`]).
    #[wasm_bindgen(getter)]
    pub fn errors(&self) -> String {
        serde_json::Value::from(self.report.clone()).to_string()
    }

    /// What was noticed without failing a game (a record that lies about its encoding, a
    /// variation the output cannot hold), as a JSON array of errors.
    #[wasm_bindgen(getter)]
    pub fn warnings(&self) -> String {
        serde_json::Value::from(self.warnings.clone()).to_string()
    }
}

/// How the games of one run are written.
enum Shape {
    /// One after another, as the command line writes them, with `separator` between
    /// records.
    Text { separator: &'static [u8] },
    /// A JSON array with one item per game: what the writer wrote (a JSON value), or
    /// `{"error": …}` (for `readPgn` and the streams, which give games and errors in order).
    Items,
}

/// Writes one game at the end of the output.
type WriteGame<'w, G> = Box<dyn FnMut(&G, &mut Vec<u8>) -> Result<(), Error> + 'w>;

/// Reads every game of `input` as `F` and writes each with `write`.
struct Run<'w, G> {
    write: WriteGame<'w, G>,
    notes: fn(&G) -> Vec<Error>,
    shape: Shape,
    out: Vec<u8>,
    written: usize,
    converted: Converted,
}

impl<'w, G> Run<'w, G> {
    fn new(write: WriteGame<'w, G>, notes: fn(&G) -> Vec<Error>, shape: Shape) -> Self {
        let out = match shape {
            Shape::Items => b"[".to_vec(),
            Shape::Text { .. } => Vec::new(),
        };
        Run {
            write,
            notes,
            shape,
            out,
            written: 0,
            converted: Converted {
                output: String::new(),
                games: 0,
                report: Vec::new(),
                warnings: Vec::new(),
            },
        }
    }

    fn take(&mut self, result: Result<G, Error>) {
        self.converted.games += 1;
        let game = self.converted.games;
        let mark = self.out.len();
        let outcome = result.and_then(|g| {
            match (&self.shape, self.written) {
                (Shape::Items, 1..) => self.out.push(b','),
                (Shape::Text { separator }, 1..) => self.out.extend_from_slice(separator),
                _ => {}
            }
            (self.write)(&g, &mut self.out)?;
            Ok((self.notes)(&g))
        });
        match outcome {
            Ok(notes) => {
                self.written += 1;
                if let Shape::Items = self.shape {
                    // An item is one JSON value: the writer's newline goes.
                    if self.out.last() == Some(&b'\n') {
                        self.out.pop();
                    }
                }
                for note in notes {
                    self.converted
                        .warnings
                        .push(error_json(&with_game(note, game)));
                }
            }
            Err(error) => {
                self.out.truncate(mark);
                let json = error_json(&with_game(error, game));
                if let Shape::Items = self.shape {
                    if self.written > 0 {
                        self.out.push(b',');
                    }
                    self.written += 1;
                    self.out.extend_from_slice(
                        serde_json::json!({ "error": json }).to_string().as_bytes(),
                    );
                }
                self.converted.report.push(json);
            }
        }
    }

    /// Hands over what was written so far (a stream's items).
    fn flush(&mut self) -> Converted {
        let mut out = std::mem::take(&mut self.out);
        if let Shape::Items = self.shape {
            out.push(b']');
            out = ascii_json(out);
            self.out.push(b'[');
            self.written = 0;
        }
        let games = self.converted.games;
        let mut converted = std::mem::replace(
            &mut self.converted,
            Converted {
                output: String::new(),
                games,
                report: Vec::new(),
                warnings: Vec::new(),
            },
        );
        // Every writer writes UTF-8 (shogi formats in another encoding only on request,
        // which this layer never makes).
        converted.output = String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        converted
    }
}

/// JSON text with every character past ASCII written as a `\u` escape: the same value, which
/// JavaScript turns into a string and parses several times faster (one player's name with an
/// accent otherwise sends the whole text of a run down the engines' slow paths). Only for
/// items, which go straight to `JSON.parse`; outside JSON strings there is nothing but ASCII.
fn ascii_json(json: Vec<u8>) -> Vec<u8> {
    if json.is_ascii() {
        return json;
    }
    let text = String::from_utf8_lossy(&json);
    let mut out = Vec::with_capacity(text.len() + 64);
    let mut rest: &str = &text;
    let mut units = [0u16; 2];
    while let Some(at) = rest.bytes().position(|b| !b.is_ascii()) {
        out.extend_from_slice(&rest.as_bytes()[..at]);
        let c = rest[at..].chars().next().unwrap_or_default();
        for unit in c.encode_utf16(&mut units) {
            out.extend_from_slice(format!("\\u{unit:04x}").as_bytes());
        }
        rest = &rest[at + c.len_utf8()..];
    }
    out.extend_from_slice(rest.as_bytes());
    out
}

fn with_game(mut error: Error, game: u64) -> Error {
    error.game.get_or_insert(game);
    error
}

/// The family a format holds, by its command-line name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    Chess,
    Infinite,
    Shogi,
}

fn family(format: &str) -> Option<Family> {
    Some(match format {
        "pgn" | "json" | "egd" | "jsonchess" | "tracks" | "uci" | "fen" | "epd" => Family::Chess,
        "icn" | "icn-json" => Family::Infinite,
        "sfen" | "usi" | "kif" | "ki2" | "csa" | "western" | "jkf" | "shogi-book" => Family::Shogi,
        _ => return None,
    })
}

const INPUTS: &str =
    "pgn, json, egd, jsonchess, icn, icn-json, sfen, usi, kif, ki2, csa, western, jkf or shogi-book";

/// A writer of chess games in `to` (`None`: only read and replay).
fn chess_writer<'w>(
    to: Option<&str>,
    options: &Options,
) -> Result<WriteGame<'w, ChessGame>, Error> {
    fn boxed<'w, W: WriteFormat<Game = ChessGame> + 'w>(mut writer: W) -> WriteGame<'w, ChessGame> {
        Box::new(move |game, out| writer.write_game(game, out))
    }
    Ok(match to {
        None => Box::new(|_, _| Ok(())),
        Some("pgn") => boxed(Pgn::default()),
        Some("json") => boxed(Json::new(json::WriteOptions {
            fens: options.fens,
        })),
        Some("egd") => boxed(Egd::new(egd::WriteOptions {
            extended: options.egd_extended,
            pretty: options.pretty,
        })),
        Some("tracks") => boxed(Tracks::default()),
        Some("jsonchess") => boxed(Jsonchess),
        Some("uci") => boxed(Uci::default()),
        Some(to @ ("fen" | "epd")) => boxed(Positions::new(positions::WriteOptions {
            notation: if to == "epd" {
                PositionFormat::Epd
            } else {
                PositionFormat::Fen
            },
        })),
        Some(other) => {
            return Err(usage(format!(
                "chess input converts to pgn, uci, fen, epd, json, egd, tracks or jsonchess, not {other}"
            )))
        }
    })
}

fn infinite_writer<'w>(to: Option<&str>, options: &Options) -> Result<WriteGame<'w, Game>, Error> {
    Ok(match to {
        None => Box::new(|game, _| replay::replay(game).map(|_| ())),
        Some("icn") => {
            let mut writer = Icn::new(options.short()?);
            Box::new(move |game, out| writer.write_game(game, out))
        }
        Some("icn-json") => {
            let mut writer = IcnJson::new(options.long()?);
            Box::new(move |game, out| writer.write_game(game, out))
        }
        Some(other) => {
            return Err(usage(format!(
                "infinite chess input converts to icn or icn-json, not {other}"
            )))
        }
    })
}

fn shogi_writer<'w>(to: Option<&str>, options: &Options) -> Result<WriteGame<'w, Record>, Error> {
    fn boxed<'w, W: WriteFormat<Game = Record> + 'w>(mut writer: W) -> WriteGame<'w, Record> {
        Box::new(move |record, out| writer.write_game(record, out))
    }
    Ok(match to {
        None => Box::new(|_, _| Ok(())),
        Some("sfen") => boxed(sfen::Sfen),
        Some("usi") => boxed(usi::Usi),
        Some("kif") => boxed(kif::Kif::new(kif::WriteOptions {
            encoding: Encoding::Utf8,
            mark_declined: options.mark_declined.unwrap_or(true),
        })),
        Some("ki2") => boxed(ki2::Ki2::new(ki2::WriteOptions {
            encoding: Encoding::Utf8,
        })),
        Some("csa") => boxed(csa::Csa::new(csa::WriteOptions {
            version: match options.csa_version.as_deref() {
                Some("2.2") => csa::CsaVersion::V22,
                None | Some("3.0") => csa::CsaVersion::V30,
                Some(other) => return Err(usage(format!("csaVersion {other:?}: 2.2 or 3.0"))),
            },
        })),
        Some("western") => boxed(western::Western::new(western::WriteOptions {
            squares: match options.western_squares.as_deref() {
                None | Some("letter") => western::SquareStyle::Letter,
                Some("digit") => western::SquareStyle::Digit,
                Some(other) => {
                    return Err(usage(format!("westernSquares {other:?}: letter or digit")))
                }
            },
        })),
        Some("jkf") => boxed(jkf::Jkf::new(jkf::WriteOptions {
            pretty: options.pretty,
        })),
        Some(other) => {
            return Err(usage(format!(
                "shogi input converts to sfen, usi, kif, ki2, csa, western or jkf, not {other}"
            )))
        }
    })
}

/// What a shogi record says without failing: the reader's warnings, and variations that
/// the output cannot hold (as the command line says them).
fn shogi_notes(to: Option<&str>) -> fn(&Record) -> Vec<Error> {
    fn warnings(record: &Record) -> Vec<Error> {
        record.warnings.clone()
    }
    fn and_variations(record: &Record) -> Vec<Error> {
        let mut notes = record.warnings.clone();
        notes.extend(record.unwritten_variations());
        notes
    }
    match to {
        Some("sfen" | "usi" | "csa" | "western") => and_variations,
        _ => warnings,
    }
}

fn none<G>(_: &G) -> Vec<Error> {
    Vec::new()
}

fn read_all<F: ReadFormat>(input: &[u8], options: F::ReadOptions, run: &mut Run<'_, F::Game>) {
    for result in Reader::<F, _>::with_options(input, options) {
        run.take(result);
    }
}

/// Converts `input` (text or bytes) from `from` to `to` (`None`: only read and check).
pub fn convert_bytes(
    input: &[u8],
    from: &str,
    to: Option<&str>,
    options: &Options,
    items: bool,
) -> Result<Converted, Error> {
    let family_of_input =
        family(from).ok_or_else(|| usage(format!("unknown format {from:?}: {INPUTS}")))?;
    if let Some(to) = to {
        match family(to) {
            None => return Err(usage(format!("unknown format {to:?}"))),
            Some(f) if f != family_of_input => {
                return Err(usage(format!(
                    "{from} holds {} games: it cannot be converted to {to}",
                    match family_of_input {
                        Family::Chess => "chess",
                        Family::Infinite => "infinite chess",
                        Family::Shogi => "shogi",
                    }
                )))
            }
            _ => {}
        }
    }
    let separator: &'static [u8] = match to {
        Some("csa") => b"/\n",
        Some("kif" | "ki2" | "western") => b"\n",
        _ => b"",
    };
    let shape = if items {
        Shape::Items
    } else {
        Shape::Text { separator }
    };
    let converted = match family_of_input {
        Family::Chess => {
            let mut run = Run::new(chess_writer(to, options)?, none, shape);
            match from {
                "pgn" => read_all::<Pgn>(input, Default::default(), &mut run),
                "json" => read_all::<Json>(input, Default::default(), &mut run),
                "egd" => read_all::<Egd>(input, Default::default(), &mut run),
                "jsonchess" => read_all::<Jsonchess>(input, Default::default(), &mut run),
                other => return Err(usage(format!("{other} is written, not read: {INPUTS}"))),
            }
            run.flush()
        }
        Family::Infinite => {
            let mut run = Run::new(infinite_writer(to, options)?, none, shape);
            match from {
                "icn" => read_all::<Icn>(input, Default::default(), &mut run),
                _ => read_all::<IcnJson>(input, Default::default(), &mut run),
            }
            run.flush()
        }
        Family::Shogi => {
            let read = options.shogi_read()?;
            let mut run = Run::new(shogi_writer(to, options)?, shogi_notes(to), shape);
            match from {
                "sfen" => read_all::<sfen::Sfen>(input, read, &mut run),
                "usi" => read_all::<usi::Usi>(input, read, &mut run),
                "kif" => read_all::<kif::Kif>(input, read, &mut run),
                "ki2" => read_all::<ki2::Ki2>(input, read, &mut run),
                "csa" => read_all::<csa::Csa>(input, read, &mut run),
                "western" => read_all::<western::Western>(input, read, &mut run),
                "jkf" => read_all::<jkf::Jkf>(input, read, &mut run),
                _ => read_all::<book::Book>(input, read, &mut run),
            }
            run.flush()
        }
    };
    Ok(converted)
}

/// Converts `input` from `from` to `to` (`undefined`: only read and check every game);
/// `options` is the JSON of [`Options`]; `items`: a JSON array of one item per game instead
/// of the format's text. Throws only on a usage error: bad games are in the result.
#[wasm_bindgen]
pub fn convert(
    input: &[u8],
    from: &str,
    to: Option<String>,
    options: &str,
    items: bool,
) -> Result<Converted, JsValue> {
    let options: Options = argument("options", options).map_err(throw)?;
    convert_bytes(input, from, to.as_deref(), &options, items).map_err(throw)
}

/// The chess readers a feed can stream.
enum ChessFeed {
    // Boxed: the PGN splitter's state is the largest.
    Pgn(Box<Feed<Pgn>>),
    Json(Feed<Json>),
    Egd(Feed<Egd>),
    Jsonchess(Feed<Jsonchess>),
}

/// Chess games read from bytes handed over as they arrive (a node stream, a browser
/// `ReadableStream`): each `push` gives the games it completed, as a JSON array of items (a
/// game in notate's game JSON with the FEN after every move, or `{"error": …}`); memory holds
/// about one chunk, however long the stream.
#[wasm_bindgen]
pub struct GameFeed {
    feed: ChessFeed,
    run: Run<'static, ChessGame>,
}

#[wasm_bindgen]
impl GameFeed {
    /// A feed of `from` (pgn, json, egd or jsonchess) games.
    #[wasm_bindgen(constructor)]
    pub fn new(from: &str) -> Result<GameFeed, JsValue> {
        let feed = match from {
            "pgn" => ChessFeed::Pgn(Box::new(Feed::new())),
            "json" => ChessFeed::Json(Feed::new()),
            "egd" => ChessFeed::Egd(Feed::new()),
            "jsonchess" => ChessFeed::Jsonchess(Feed::new()),
            other => {
                return Err(throw(usage(format!(
                    "streams read chess games (pgn, json, egd or jsonchess), not {other}"
                ))))
            }
        };
        let writer = chess_writer(
            Some("json"),
            &Options {
                fens: true,
                ..Options::default()
            },
        )
        .map_err(throw)?;
        Ok(GameFeed {
            feed,
            run: Run::new(writer, none, Shape::Items),
        })
    }

    /// The next bytes of the stream; the games they completed.
    pub fn push(&mut self, bytes: &[u8]) -> Converted {
        let results = match &mut self.feed {
            ChessFeed::Pgn(f) => f.push(bytes),
            ChessFeed::Json(f) => f.push(bytes),
            ChessFeed::Egd(f) => f.push(bytes),
            ChessFeed::Jsonchess(f) => f.push(bytes),
        };
        self.take(results)
    }

    /// The end of the stream; the games not given yet.
    pub fn finish(&mut self) -> Converted {
        let results = match &mut self.feed {
            ChessFeed::Pgn(f) => f.finish(),
            ChessFeed::Json(f) => f.finish(),
            ChessFeed::Egd(f) => f.finish(),
            ChessFeed::Jsonchess(f) => f.finish(),
        };
        self.take(results)
    }

    fn take(&mut self, results: Vec<Result<ChessGame, Error>>) -> Converted {
        for result in results {
            self.run.take(result);
        }
        self.run.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::ascii_json;

    #[test]
    fn ascii_json_escapes_every_character_past_ascii_and_keeps_the_value() {
        let text = r#"[{"White":"Müller 😀","moves":[]}]"#;
        let ascii = ascii_json(text.as_bytes().to_vec());
        assert_eq!(
            String::from_utf8(ascii.clone()).unwrap(),
            r#"[{"White":"M\u00fcller \ud83d\ude00","moves":[]}]"#
        );
        let value = |bytes: &[u8]| serde_json::from_slice::<serde_json::Value>(bytes).unwrap();
        assert_eq!(value(&ascii), value(text.as_bytes()));
        assert_eq!(ascii_json(b"[]".to_vec()), b"[]");
    }
}
