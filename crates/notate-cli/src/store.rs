//! `notate load` and `notate query`: games into a database, SQL out of it.

use std::io::{self, Write};
use std::ops::Range;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::ValueEnum;
use notate::chess::rows::{GameKey, RowWriter};
use notate::chess::{ChessGame, GameResult};
use notate::Error;
use notate_store::{
    AnswerSink, Inserted, Preparer, QueryResult, Rows, Store, StoreError, Target, Value,
};

use crate::chess::{ChessStage, WriteGame};
use crate::formats::InputFormat;
use crate::input::InputName;
use crate::pipeline::{self, FamilyStage, Fate, Settings, Sink, Stages};
use crate::report::{thousands, Reporter};

/// The keys of games already handed to the store in this run, so that a game repeated in
/// the input is recognised before its rows are built (the costly part: a FEN per move). A
/// fixed table of 2^20 slots (16 MB), each keeping the last key that fell in it: memory
/// stays bounded, and a game it has forgotten is still recognised by the store. Both halves
/// of the key must match: a different game with the same id goes on to the store, which
/// reports the clash.
struct SeenIds {
    ids: Vec<AtomicI64>,
    checks: Vec<AtomicI64>,
}

impl SeenIds {
    const BITS: u32 = 20;

    fn new() -> SeenIds {
        let slots = || (0..1 << Self::BITS).map(|_| AtomicI64::new(0)).collect();
        SeenIds {
            ids: slots(),
            checks: slots(),
        }
    }

    fn slot(id: i64) -> usize {
        // The id is a hash already: its low bits are as good as any.
        (id as u64 & ((1 << Self::BITS) - 1)) as usize
    }

    fn contains(&self, key: GameKey) -> bool {
        // Written by one thread, read by many: a reader may see one half of a slot old and
        // the other new, which only makes a game seen look unseen (the store then knows it).
        let slot = Self::slot(key.id);
        self.checks[slot].load(Ordering::Relaxed) == key.check.get()
            && self.ids[slot].load(Ordering::Relaxed) == key.id
    }

    fn insert(&self, id: i64, check: i64) {
        let slot = Self::slot(id);
        self.ids[slot].store(id, Ordering::Relaxed);
        self.checks[slot].store(check, Ordering::Relaxed);
    }
}

/// A worker's writer for `notate load`: a game already handed to the store gives no rows
/// (the summary counts it as already there); any other game becomes rows.
struct LoadWriter {
    rows: RowWriter,
    seen: Arc<SeenIds>,
    /// `--live`: a game in progress (result `*`) is kept back. A broadcast sends each game
    /// again at every move, and every version is a game of its own (its moves differ):
    /// stored, a round of 80-move games would leave 80 partial copies of each.
    live: bool,
}

impl WriteGame<Rows> for LoadWriter {
    fn write(&mut self, game: &ChessGame, out: &mut Rows) -> Result<(), Error> {
        let seen = &self.seen;
        self.rows
            .write_unless(game, &mut out.batch, |key| seen.contains(key))
            .map(|_| ())
    }

    fn holds(&self, game: &ChessGame) -> bool {
        self.live && game.outcome() == GameResult::Unknown
    }
}

/// The chess stage of a load: rows written, then the store's part done on them while still
/// on the worker (Parquet: encoded and compressed).
struct LoadStage {
    chess: ChessStage<LoadWriter>,
    preparer: Preparer,
}

impl FamilyStage<Rows> for LoadStage {
    fn process(
        &mut self,
        chunk: &notate::chunk::Chunk,
        format: InputFormat,
        out: &mut Rows,
        fates: &mut Vec<Fate>,
    ) {
        self.chess.process(chunk, format, out, fates);
        // A failure here is met again, and reported, by the store's thread, which does
        // itself what the worker could not.
        let _ = self.preparer.prepare(out);
    }
}

/// Takes rows in input order and hands them to the store, noting their keys (only here, in
/// input order: a game is taken as stored only once it is handed over). A game the store then
/// refuses for its id is noted too: a copy of it later in the input is counted as already
/// there, and the game itself is reported once.
struct StoreSink {
    store: Box<dyn Store>,
    seen: Arc<SeenIds>,
    inserted: Inserted,
    /// Games kept back (in progress, `--live`).
    held: u64,
}

impl Sink<Rows> for StoreSink {
    fn put(&mut self, rows: &mut Rows, games: Range<usize>) -> Result<()> {
        self.store.insert_rows(rows, games.clone())?;
        for g in &rows.batch.games[games] {
            self.seen.insert(g.id, g.id_check);
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        self.inserted += self.store.finish()?;
        Ok(())
    }

    fn input_paused(&mut self) -> Result<()> {
        // A broadcast's games are stored as they end, not when a batch is full.
        self.inserted += self.store.flush()?;
        Ok(())
    }

    fn held(&mut self) -> Result<()> {
        self.held += 1;
        Ok(())
    }
}

/// Loads every game of `inputs` into `target`. Returns (games read, games failed).
pub fn load(
    inputs: &[InputName],
    settings: &Settings,
    target: &Target,
    db: &str,
    reporter: &mut Reporter,
) -> Result<(u64, u64)> {
    let mut store = target.open().with_context(|| format!("cannot open {db}"))?;
    if settings.live {
        store
            .go_live()
            .with_context(|| format!("cannot open {db}"))?;
    }
    let seen = Arc::new(SeenIds::new());
    let mut sink = StoreSink {
        store,
        seen: seen.clone(),
        inserted: Inserted::default(),
        held: 0,
    };
    // Only chess is stored: the reader refuses other families' inputs.
    // Made here, where an error can still stop the load before it starts.
    target
        .preparer()
        .with_context(|| format!("cannot open {db}"))?;
    let stages = || Stages {
        chess: Box::new(LoadStage {
            chess: ChessStage::new(
                LoadWriter {
                    rows: RowWriter::new(),
                    seen: seen.clone(),
                    live: settings.live,
                },
                settings,
            ),
            preparer: target.preparer().expect("made once above"),
        }),
        infinite: None,
        shogi: None,
    };
    let (ok, failed) = pipeline::run(inputs, settings, stages, &mut sink, reporter)
        .with_context(|| format!("loading into {db}"))?;
    reporter.finish("read", ok, failed);
    let Inserted {
        games,
        moves,
        clashes,
        ..
    } = sink.inserted;
    for clash in &clashes {
        reporter.print(&format!("notate: {db}: {clash}"));
    }
    let clashed = clashes.len() as u64;
    let held = sink.held;
    // Every game read is new, already there (in the store, or earlier in the input), in
    // progress (`--live`), or not stored for its id.
    let mut summary = format!(
        "loaded into {db}: {} new games with {} moves, {} already there",
        thousands(games),
        thousands(moves),
        thousands(ok.saturating_sub(games + clashed + held))
    );
    if settings.live {
        summary.push_str(&format!(
            ", {} in progress (result *: stored once it has a result)",
            thousands(held)
        ));
    }
    if clashed > 0 {
        summary.push_str(&format!(
            ", {} not stored (a different game has the id: see above)",
            thousands(clashed)
        ));
    }
    reporter.print(&summary);
    Ok((ok, failed + clashed))
}

/// How `notate query` prints its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum QueryFormat {
    /// aligned columns for reading
    Table,
    /// CSV with a header line
    Csv,
    /// a JSON array of objects, one row per line
    Json,
}

/// Runs `sql` on `target` and prints the answer. CSV and JSON are printed as the rows come
/// (an answer of any size takes no more memory than a few thousand rows); a table needs
/// every width first, so its answer is held.
pub fn query(target: &Target, sql: &str, format: QueryFormat, out: &mut dyn Write) -> Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    match format {
        QueryFormat::Table => out.write_all(table(&target.query(sql)?).as_bytes())?,
        QueryFormat::Csv | QueryFormat::Json => {
            let mut printer = Printer::new(format, &mut out);
            target.query_each(sql, &mut printer)?;
            printer.end()?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Prints an answer as CSV or JSON row by row.
struct Printer<'a> {
    format: QueryFormat,
    out: &'a mut dyn Write,
    /// JSON: each column's key, quoted and escaped once.
    keys: Vec<String>,
    rows: u64,
}

impl<'a> Printer<'a> {
    fn new(format: QueryFormat, out: &'a mut dyn Write) -> Printer<'a> {
        Printer {
            format,
            out,
            keys: Vec::new(),
            rows: 0,
        }
    }

    /// Ends the answer: JSON's array is closed (CSV has nothing to close).
    fn end(&mut self) -> io::Result<()> {
        if self.format == QueryFormat::Json {
            if self.rows == 0 {
                self.out.write_all(b"[")?;
            }
            self.out.write_all(b"\n]\n")?;
        }
        Ok(())
    }
}

fn written(e: io::Error) -> StoreError {
    StoreError::Io {
        path: "standard output".into(),
        source: e,
    }
}

impl AnswerSink for Printer<'_> {
    fn columns(&mut self, names: Vec<String>) -> Result<(), StoreError> {
        match self.format {
            QueryFormat::Json => {
                // One object a row: two columns of one name would be one key, the first lost.
                for (i, name) in names.iter().enumerate() {
                    if names[..i].contains(name) {
                        return Err(StoreError::Target(format!(
                            "two columns are named {name:?}, which JSON cannot tell apart: \
                             name them apart with AS (or ask for --format csv)"
                        )));
                    }
                }
                self.keys = names
                    .iter()
                    .map(|name| serde_json::Value::from(name.as_str()).to_string())
                    .collect();
                Ok(())
            }
            _ => {
                let header: Vec<String> = names.iter().map(|c| csv_field(c)).collect();
                writeln!(self.out, "{}", header.join(",")).map_err(written)
            }
        }
    }

    fn row(&mut self, values: Vec<Value>) -> Result<(), StoreError> {
        let mut line = String::new();
        if self.format == QueryFormat::Json {
            line.push_str(if self.rows == 0 { "[\n{" } else { ",\n{" });
            for (j, (key, value)) in self.keys.iter().zip(&values).enumerate() {
                if j > 0 {
                    line.push(',');
                }
                line.push_str(key);
                line.push(':');
                json_value(value, &mut line);
            }
            line.push('}');
        } else {
            let fields: Vec<String> = values.iter().map(|v| csv_field(&plain(v))).collect();
            line.push_str(&fields.join(","));
            line.push('\n');
        }
        self.rows += 1;
        self.out.write_all(line.as_bytes()).map_err(written)
    }
}

/// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn json_value(value: &Value, out: &mut String) {
    let value = match value {
        Value::Null => serde_json::Value::Null,
        Value::Int(v) => (*v).into(),
        Value::Real(v) => serde_json::Number::from_f64(*v)
            .map_or(serde_json::Value::Null, serde_json::Value::Number),
        // Written with all its digits, when they are a JSON number (not NaN).
        Value::Decimal(d) if serde_json::from_str::<serde_json::Number>(d).is_ok() => {
            out.push_str(d);
            return;
        }
        Value::Decimal(s) | Value::Text(s) => s.as_str().into(),
        Value::Bool(b) => (*b).into(),
    };
    out.push_str(&value.to_string());
}

fn plain(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::Int(v) => v.to_string(),
        Value::Real(v) => v.to_string(),
        Value::Decimal(s) | Value::Text(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
    }
}

/// Columns padded to their widest value, numbers to the right, `NULL` as an empty cell.
fn table(answer: &QueryResult) -> String {
    let cells: Vec<Vec<String>> = answer
        .rows
        .iter()
        .map(|row| row.iter().map(plain).collect())
        .collect();
    let widths: Vec<usize> = (0..answer.columns.len())
        .map(|i| {
            cells
                .iter()
                .map(|row| row[i].chars().count())
                .chain([answer.columns[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let numeric: Vec<bool> = (0..answer.columns.len())
        .map(|i| {
            answer.rows.iter().all(|row| {
                matches!(
                    row[i],
                    Value::Int(_) | Value::Real(_) | Value::Decimal(_) | Value::Null
                )
            })
        })
        .collect();
    let mut out = String::new();
    let line = |out: &mut String, row: &[String]| {
        let mut text = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i > 0 {
                text.push_str("  ");
            }
            let pad = " ".repeat(widths[i] - cell.chars().count());
            if numeric[i] {
                text.push_str(&pad);
                text.push_str(cell);
            } else {
                text.push_str(cell);
                text.push_str(&pad);
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    };
    line(&mut out, &answer.columns);
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    line(&mut out, &rule);
    for row in &cells {
        line(&mut out, row);
    }
    let n = answer.rows.len();
    out.push_str(&format!(
        "({} {})\n",
        thousands(n as u64),
        if n == 1 { "row" } else { "rows" }
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_seen_only_when_its_id_and_check_match() {
        let seen = SeenIds::new();
        let key = |id, check| GameKey {
            id,
            check: std::num::NonZeroI64::new(check).unwrap(),
        };
        assert!(!seen.contains(key(5, 7)));
        seen.insert(5, 7);
        assert!(seen.contains(key(5, 7)));
        // A different game with the same id goes on to the store, which reports the clash.
        assert!(!seen.contains(key(5, 8)));
        // One slot per low bits: the later game is remembered.
        seen.insert(5 + (1 << SeenIds::BITS), 9);
        assert!(!seen.contains(key(5, 7)));
        assert!(seen.contains(key(5 + (1 << SeenIds::BITS), 9)));
    }

    /// The answer printed as `format` prints it.
    fn printed(answer: &QueryResult, format: QueryFormat) -> Result<String, StoreError> {
        let mut out = Vec::new();
        let mut printer = Printer::new(format, &mut out);
        printer.columns(answer.columns.clone())?;
        for row in &answer.rows {
            printer.row(row.clone())?;
        }
        printer.end().unwrap();
        Ok(String::from_utf8(out).unwrap())
    }

    fn csv(answer: &QueryResult) -> String {
        printed(answer, QueryFormat::Csv).unwrap()
    }

    fn json(answer: &QueryResult) -> Result<String, StoreError> {
        printed(answer, QueryFormat::Json)
    }

    fn answer() -> QueryResult {
        QueryResult {
            columns: vec!["name".into(), "games".into()],
            rows: vec![
                vec![Value::Text("Carlsen, M".into()), Value::Int(12)],
                vec![Value::Text("a \"b\"".into()), Value::Null],
            ],
        }
    }

    #[test]
    fn tables_align_numbers_right() {
        assert_eq!(
            table(&answer()),
            "name        games\n----------  -----\nCarlsen, M     12\na \"b\"\n(2 rows)\n"
        );
    }

    #[test]
    fn csv_quotes_what_it_must() {
        assert_eq!(
            csv(&answer()),
            "name,games\n\"Carlsen, M\",12\n\"a \"\"b\"\"\",\n"
        );
    }

    #[test]
    fn json_is_an_array_of_objects() {
        assert_eq!(
            json(&answer()).unwrap(),
            "[\n{\"name\":\"Carlsen, M\",\"games\":12},\n{\"name\":\"a \\\"b\\\"\",\"games\":null}\n]\n"
        );
    }

    /// PostgreSQL's numeric keeps every digit (a double printed 12345678901234567890 as
    /// 12345678901234567000); two columns of one name are refused, not one lost.
    #[test]
    fn decimals_keep_their_digits_and_json_refuses_a_name_twice() {
        let answer = QueryResult {
            columns: vec!["sum".into(), "avg".into(), "nan".into()],
            rows: vec![vec![
                Value::Decimal("12345678901234567890".into()),
                Value::Decimal("2.50".into()),
                Value::Decimal("NaN".into()),
            ]],
        };
        assert_eq!(
            json(&answer).unwrap(),
            "[\n{\"sum\":12345678901234567890,\"avg\":2.50,\"nan\":\"NaN\"}\n]\n"
        );
        assert_eq!(csv(&answer), "sum,avg,nan\n12345678901234567890,2.50,NaN\n");
        assert!(table(&answer).contains("12345678901234567890  2.50  NaN"));
        let twice = QueryResult {
            columns: vec!["a".into(), "a".into()],
            rows: vec![vec![Value::Int(1), Value::Int(2)]],
        };
        let e = json(&twice).unwrap_err().to_string();
        assert!(e.contains("two columns are named \"a\""), "{e}");
        assert_eq!(csv(&twice), "a,a\n1,2\n");
    }
}
