//! `convert`, `check` and the streaming `GameFeed`: every format of the command line, read
//! and written through the library's [`Converter`], one game at a time.

use notate::chess::egd::Egd;
use notate::chess::json::{self, Json};
use notate::chess::jsonchess::Jsonchess;
use notate::chess::pgn::Pgn;
use notate::chess::ChessGame;
use notate::convert::{AnyGame, Converter, Format, OptionValue};
use notate::format::{Feed, ReadFormat, WriteFormat};
use notate::Error;
use wasm_bindgen::prelude::*;

use crate::{argument, error_json, throw, usage};

/// The options JavaScript gives (a JSON object; the command line's options in camelCase:
/// `moves`, `singleLine`, `csaVersion` …) as the library's. Unknown keys are refused, so that
/// a misspelt option is not ignored in silence, and every value is checked, whether or not
/// the formats of the run use it.
pub fn options(text: &str) -> Result<notate::convert::Options, Error> {
    let object: serde_json::Map<String, serde_json::Value> = argument("options", text)?;
    let mut options = notate::convert::Options::default();
    for (key, value) in object {
        // `singleLine` is the library's `single_line`.
        let mut name = String::with_capacity(key.len() + 4);
        for c in key.chars() {
            if c.is_ascii_uppercase() {
                name.push('_');
                name.push(c.to_ascii_lowercase());
            } else {
                name.push(c);
            }
        }
        if !notate::convert::Options::NAMES.contains(&name.as_str()) {
            let known: Vec<String> = notate::convert::Options::NAMES
                .iter()
                .map(|n| camel_case(n))
                .collect();
            return Err(usage(format!(
                "unknown option {key:?}: {}",
                known.join(", ")
            )));
        }
        let value = match value {
            serde_json::Value::Bool(b) => OptionValue::Bool(b),
            serde_json::Value::String(s) => OptionValue::Text(s),
            serde_json::Value::Number(n) => OptionValue::Text(n.to_string()),
            // Absent, as JavaScript's `undefined` would be.
            serde_json::Value::Null => continue,
            other => return Err(usage(format!("{key}: {other} is not an option's value"))),
        };
        options.set(&name, value).map_err(|e| {
            // Said in JavaScript's spelling.
            usage(e.message.replace(&name, &key))
        })?;
    }
    Ok(options)
}

/// `single_line` → `singleLine`.
fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        match (c, upper) {
            ('_', _) => upper = true,
            (c, true) => {
                out.push(c.to_ascii_uppercase());
                upper = false;
            }
            (c, false) => out.push(c),
        }
    }
    out
}

/// The outcome of a conversion: the text written, and what went wrong, game by game.
#[wasm_bindgen]
pub struct Converted {
    output: String,
    games: u64,
    report: JsonList,
    warnings: JsonList,
    /// Warnings past [`MAX_WARNINGS`], counted, not listed.
    warnings_left_out: u64,
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

    /// The errors, as a JSON array (see [`crate::error_json`]), taken out.
    #[wasm_bindgen(js_name = takeErrors)]
    pub fn take_errors(&mut self) -> String {
        self.report.take()
    }

    /// What was noticed without failing a game (a token skipped, a record that lies about
    /// its encoding, a variation the output cannot hold), as a JSON array of errors, taken
    /// out; past [`MAX_WARNINGS`], one more that says how many were left out.
    #[wasm_bindgen(js_name = takeWarnings)]
    pub fn take_warnings(&mut self) -> String {
        if self.warnings_left_out > 0 {
            let error = Error::new(
                notate::ErrorKind::TooLarge,
                format!(
                    "{} more warnings, not listed (at most {MAX_WARNINGS} a call are)",
                    std::mem::take(&mut self.warnings_left_out)
                ),
            );
            self.warnings.push(&error_json(&error));
        }
        self.warnings.take()
    }
}

impl Converted {
    fn new(games: u64) -> Converted {
        Converted {
            output: String::new(),
            games,
            report: JsonList::default(),
            warnings: JsonList::default(),
            warnings_left_out: 0,
        }
    }

    fn warn(&mut self, warning: &Error) {
        if self.warnings.len < MAX_WARNINGS {
            self.warnings.push(&error_json(warning));
        } else {
            self.warnings_left_out += 1;
        }
    }
}

/// The most warnings a call lists: a text of nothing but tokens that are no move makes one
/// every three bytes.
const MAX_WARNINGS: usize = 10_000;

/// Errors as the text of a JSON array, written as they come: as `serde_json::Value`s they
/// took about ten times the memory, and their text counts in a call's budget
/// ([`MAX_OUTPUT`]).
#[derive(Default)]
struct JsonList {
    text: String,
    len: usize,
}

impl JsonList {
    fn push(&mut self, value: &serde_json::Value) {
        self.text.push(if self.len == 0 { '[' } else { ',' });
        self.text.push_str(&value.to_string());
        self.len += 1;
    }

    fn take(&mut self) -> String {
        let mut text = std::mem::take(&mut self.text);
        if self.len == 0 {
            text.push('[');
        }
        text.push(']');
        self.len = 0;
        text
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

/// Writes one game at the end of the output; what it noted without failing.
type WriteGame<'w, G> = dyn FnMut(&G, &mut Vec<u8>) -> Result<Vec<Error>, Error> + 'w;

/// The games of a run, each written as it comes, and what went wrong.
struct Run {
    shape: Shape,
    out: Vec<u8>,
    written: usize,
    converted: Converted,
}

impl Run {
    fn new(shape: Shape) -> Self {
        let out = match shape {
            Shape::Items => b"[".to_vec(),
            Shape::Text { .. } => Vec::new(),
        };
        Run {
            shape,
            out,
            written: 0,
            converted: Converted::new(0),
        }
    }

    fn take<G>(&mut self, result: Result<G, Error>, write: &mut WriteGame<'_, G>) {
        self.converted.games += 1;
        let game = self.converted.games;
        let mark = self.out.len();
        let outcome = result.and_then(|g| {
            match (&self.shape, self.written) {
                (Shape::Items, 1..) => self.out.push(b','),
                (Shape::Text { separator }, 1..) => self.out.extend_from_slice(separator),
                _ => {}
            }
            write(&g, &mut self.out)
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
                    self.converted.warn(&with_game(note, game));
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
                self.converted.report.push(&json);
            }
        }
    }

    /// The bytes of output, errors and warnings held so far: what counts against
    /// [`MAX_OUTPUT`].
    fn used(&self) -> usize {
        self.out.len() + self.converted.report.text.len() + self.converted.warnings.text.len()
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
        let mut converted = std::mem::replace(&mut self.converted, Converted::new(games));
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

/// The most output one call builds (its errors and warnings included): WebAssembly memory
/// stops at 4 GiB, and the instance cannot survive running out of it (an allocation that
/// fails aborts), so a call whose output would pass this is refused instead. A larger
/// conversion goes a part at a time, or through `streamGames`.
const MAX_OUTPUT: usize = 256 << 20;

/// The longest string V8 makes (in characters: the output is given as UTF-16 code units,
/// one per byte of ASCII); items, whose characters past ASCII are written as `\u` escapes
/// (up to three times their bytes), are checked against it once escaped.
const MAX_JS_STRING: usize = 0x1fff_ffe8;

/// More than one chess ply takes in the output of `to`: the longest EGD (pretty, extended)
/// writes about 1.1 KB a ply, the viewer's positions about 300 bytes, `readPgn`'s items
/// about 150; checking writes nothing. A game's output is at most its plies times this, so
/// a game that could not fit is refused before it is written (a pathological game, 4.5 MB
/// of `Nf3 Nf6 Ng1 Ng8`, otherwise wrote gigabytes of EGD for minutes and ran out of memory).
fn ply_bound(to: Option<Format>) -> usize {
    match to {
        None => 0,
        Some(Format::Egd) => 2 << 10,
        Some(_) => 512,
    }
}

/// The plies of a chess line, its variations' included.
fn plies<M>(line: &notate::chess::Line<M>) -> usize {
    line.plies
        .iter()
        .map(|ply| 1 + ply.variations.iter().map(plies).sum::<usize>())
        .sum()
}

/// The most output a chess game of `plies` plies could write in a format of `per_ply`
/// bytes a ply: refused (in its place) when that alone passes [`MAX_OUTPUT`].
fn game_bound(plies: usize, per_ply: usize) -> Result<usize, Error> {
    match plies.checked_mul(per_ply) {
        Some(bound) if bound <= MAX_OUTPUT => Ok(bound),
        _ => Err(Error::new(
            notate::ErrorKind::TooLarge,
            format!(
                "a game of {plies} plies: its output could pass {} MiB, the most one call gives",
                MAX_OUTPUT >> 20
            ),
        )),
    }
}

/// The error of a call whose output would pass [`MAX_OUTPUT`], at game `game`.
fn call_too_large(game: u64) -> Error {
    Error::new(
        notate::ErrorKind::TooLarge,
        format!(
            "the output would pass {} MiB, the most one call gives, at game {game}: convert \
             fewer games at a time, or read them with streamGames",
            MAX_OUTPUT >> 20
        ),
    )
}

/// Converts `input` (text or bytes) from `from` (`None`: told by its first bytes) to `to`
/// (`None`: only read and check). An output that would pass [`MAX_OUTPUT`] is an error of
/// the whole call.
pub fn convert_bytes(
    input: &[u8],
    from: Option<&str>,
    to: Option<&str>,
    options: &notate::convert::Options,
    items: bool,
) -> Result<Converted, Error> {
    let from: Format = match from {
        Some(from) => from.parse()?,
        None => Format::detect(input).map_err(|e| {
            usage(format!(
                "cannot tell the input's format ({}): say {{from}}",
                e.message
            ))
        })?,
    };
    let to: Option<Format> = to.map(str::parse).transpose()?;
    let mut converter = Converter::new(from, to, options)?;
    let shape = if items {
        Shape::Items
    } else {
        Shape::Text {
            separator: to.map_or(&b""[..], Format::separator),
        }
    };
    let per_ply = ply_bound(to);
    let mut run = Run::new(shape);
    let mut games = converter.read(input);
    while let Some(game) = games.next() {
        // What reading skipped (placed and numbered), before what writing noticed.
        for warning in games.take_warnings() {
            run.converted.warn(&warning);
        }
        // Only checking writes nothing: no game's plies need counting.
        let bound = match &game {
            Ok(AnyGame::Chess(chess)) if per_ply > 0 => game_bound(plies(&chess.moves), per_ply),
            _ => Ok(0),
        };
        // A game that fits alone but not in what is left: the whole call is too large.
        if bound.as_ref().is_ok_and(|b| run.used() + b > MAX_OUTPUT) {
            return Err(call_too_large(run.converted.games + 1));
        }
        run.take(game, &mut |game, out| {
            bound
                .clone()
                .and_then(|_| converter.write(game, out))
                .map_err(|mut error| {
                    games.place(&mut error);
                    error
                })?;
            Ok(converter.notes(game))
        });
        if run.used() > MAX_OUTPUT {
            return Err(call_too_large(run.converted.games));
        }
    }
    let converted = run.flush();
    if converted.output.len() > MAX_JS_STRING {
        return Err(call_too_large(converted.games));
    }
    Ok(converted)
}

/// Converts `input` from `from` (`undefined`: told by its first bytes) to `to`
/// (`undefined`: only read and check every game); `options` is a JSON object of the
/// command line's options in camelCase (see [`options`]); `items`: a JSON array of one item
/// per game instead of the format's text. Throws only on a usage error: bad games are in the
/// result.
#[wasm_bindgen]
pub fn convert(
    input: &[u8],
    from: Option<String>,
    to: Option<String>,
    options: &str,
    items: bool,
) -> Result<Converted, JsValue> {
    let options = self::options(options).map_err(throw)?;
    convert_bytes(input, from.as_deref(), to.as_deref(), &options, items).map_err(throw)
}

/// The chess readers a feed can stream.
enum ChessFeed {
    // Boxed: the PGN splitter's state is the largest.
    Pgn(Box<Feed<Pgn>>),
    Json(Feed<Json>),
    Egd(Feed<Egd>),
    Jsonchess(Feed<Jsonchess>),
}

/// What a [`GameFeed`] is told.
#[derive(Clone, Copy)]
enum Step<'a> {
    Push(&'a [u8]),
    Finish,
    Fail,
}

impl ChessFeed {
    fn step(&mut self, step: Step) -> Vec<Result<ChessGame, Error>> {
        fn on<F: ReadFormat<Game = ChessGame>>(
            feed: &mut Feed<F>,
            step: Step,
        ) -> Vec<Result<ChessGame, Error>> {
            match step {
                Step::Push(bytes) => feed.push(bytes),
                Step::Finish => feed.finish(),
                Step::Fail => feed.fail(),
            }
        }
        match self {
            ChessFeed::Pgn(f) => on(f, step),
            ChessFeed::Json(f) => on(f, step),
            ChessFeed::Egd(f) => on(f, step),
            ChessFeed::Jsonchess(f) => on(f, step),
        }
    }

    fn take_warnings(&mut self) -> Vec<Error> {
        match self {
            ChessFeed::Pgn(f) => f.take_warnings(),
            ChessFeed::Json(f) => f.take_warnings(),
            ChessFeed::Egd(f) => f.take_warnings(),
            ChessFeed::Jsonchess(f) => f.take_warnings(),
        }
    }
}

/// Chess games read from bytes handed over as they arrive (a node stream, a browser
/// `ReadableStream`): each `push` gives the games it completed, as a JSON array of items (a
/// game in notate's game JSON with the FEN after every move, or `{"error": …}`); memory holds
/// about one chunk, however long the stream.
#[wasm_bindgen]
pub struct GameFeed {
    feed: ChessFeed,
    json: Json,
    run: Run,
}

#[wasm_bindgen]
impl GameFeed {
    /// A feed of `from` (pgn, json, egd or jsonchess) games; `live`: a PGN game goes out at
    /// the end of the push that ends it with its result (see [`Feed::live`]).
    #[wasm_bindgen(constructor)]
    pub fn new(from: &str, live: bool) -> Result<GameFeed, JsValue> {
        let feed = match from {
            "pgn" if live => ChessFeed::Pgn(Box::new(Feed::new().live())),
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
        Ok(GameFeed {
            feed,
            json: Json::new(json::WriteOptions { fens: true }),
            run: Run::new(Shape::Items),
        })
    }

    /// The next bytes of the stream; the games they completed.
    pub fn push(&mut self, bytes: &[u8]) -> Converted {
        self.step(Step::Push(bytes))
    }

    /// The end of the stream; the games not given yet.
    pub fn finish(&mut self) -> Converted {
        self.step(Step::Finish)
    }

    /// The source of the stream failed; the games known to be whole, read before the failure
    /// (see [`Feed::fail`]).
    pub fn fail(&mut self) -> Converted {
        self.step(Step::Fail)
    }

    fn step(&mut self, step: Step) -> Converted {
        let results = self.feed.step(step);
        let warnings = self.feed.take_warnings();
        self.take(results, warnings)
    }

    /// The games and their warnings (each naming its game's number in the stream) as one
    /// call's results.
    fn take(&mut self, results: Vec<Result<ChessGame, Error>>, warnings: Vec<Error>) -> Converted {
        // Each game keeps all of its own, uncapped: a cap per call (see [`MAX_WARNINGS`])
        // would take games' warnings away depending on where the stream was cut, which the
        // caller never sees. A game has few (its reading fails past 100) and a push is at most
        // 1 MiB (live: what the stream sent at once).
        for warning in &warnings {
            self.run.converted.warnings.push(&error_json(warning));
        }
        let json = &mut self.json;
        let mut write = |game: &ChessGame, out: &mut Vec<u8>| {
            game_bound(plies(&game.moves), ply_bound(Some(Format::Json)))?;
            json.write_game(game, out)?;
            Ok(Vec::new())
        };
        for result in results {
            self.run.take(result, &mut write);
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
