//! The two tables, defined once: every store makes its DDL, its Arrow schema and its row
//! values from these lists, so the schema is the same in SQLite, PostgreSQL and Parquet.

use notate::chess::rows::{GameRow, MoveRow, RowBatch};

/// A column's type, named for what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A 64-bit integer (game ids).
    BigInt,
    /// A 32-bit integer.
    Int,
    /// A double.
    Real,
    /// Text.
    Text,
    /// A boolean (0 or 1 in SQLite).
    Bool,
    /// A JSON object (`json` in PostgreSQL, text elsewhere).
    Json,
}

/// A column of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// The column's name.
    pub name: &'static str,
    /// What it holds.
    pub kind: Kind,
    /// Whether every row has a value.
    pub required: bool,
}

const fn col(name: &'static str, kind: Kind, required: bool) -> Column {
    Column {
        name,
        kind,
        required,
    }
}

/// `games`: one row per game. `year` and `month` are the Parquet partition keys.
/// `id_check` is last: a store made before it had it gets it added at the end (without a
/// value for the games already there: see [`notate::chess::rows::GameKey`]).
pub const GAMES: [Column; 19] = [
    col("id", Kind::BigInt, true),
    col("event", Kind::Text, false),
    col("site", Kind::Text, false),
    col("date", Kind::Text, false),
    col("year", Kind::Int, false),
    col("month", Kind::Int, false),
    col("white", Kind::Text, false),
    col("black", Kind::Text, false),
    col("result", Kind::Text, true),
    col("white_elo", Kind::Int, false),
    col("black_elo", Kind::Int, false),
    col("eco", Kind::Text, false),
    col("opening", Kind::Text, false),
    col("time_control", Kind::Text, false),
    col("termination", Kind::Text, false),
    col("ply_count", Kind::Int, true),
    col("start_fen", Kind::Text, true),
    col("tags", Kind::Json, true),
    col("id_check", Kind::BigInt, true),
];

/// `moves`: one row per half-move of a game's main line; (`game_id`, `ply`) is the key.
pub const MOVES: [Column; 23] = [
    col("game_id", Kind::BigInt, true),
    col("ply", Kind::Int, true),
    col("move_number", Kind::Int, true),
    col("move_key", Kind::Text, true),
    col("player", Kind::Text, true),
    col("san", Kind::Text, true),
    col("lran", Kind::Text, true),
    col("uci", Kind::Text, true),
    col("from_square", Kind::Text, true),
    col("to_square", Kind::Text, true),
    col("piece", Kind::Text, true),
    col("move_type", Kind::Text, true),
    col("captured_piece", Kind::Text, false),
    col("promotion", Kind::Text, false),
    col("fen_before", Kind::Text, true),
    col("fen_after", Kind::Text, true),
    col("is_check", Kind::Bool, true),
    col("is_checkmate", Kind::Bool, true),
    col("clock", Kind::Real, false),
    col("eval", Kind::Real, false),
    col("mate", Kind::Int, false),
    // Kept last so that a `moves` row is the columns above in order.
    col("year", Kind::Int, false),
    col("month", Kind::Int, false),
];

/// The indexes the example queries use: (table, name, columns, condition). SQLite and
/// PostgreSQL both take partial indexes, which keep the rare queen captures cheap to find.
pub const INDEXES: [(&str, &str, &str, &str); 5] = [
    ("games", "games_white", "white", ""),
    ("games", "games_black", "black", ""),
    ("games", "games_eco", "eco, opening", ""),
    ("games", "games_date", "year, month", ""),
    (
        "moves",
        "moves_queen_captures",
        "game_id, ply",
        "WHERE captured_piece = 'Q'",
    ),
];

/// One value of a row, borrowed from its batch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell<'a> {
    /// No value (SQL `NULL`).
    Null,
    /// A `BigInt` or `Int` value.
    Int(i64),
    /// A `Real` value.
    Real(f64),
    /// A `Text` or `Json` value.
    Text(&'a str),
    /// A `Bool` value.
    Bool(bool),
}

fn text(value: Option<&str>) -> Cell<'_> {
    value.map_or(Cell::Null, Cell::Text)
}

fn int(value: Option<i32>) -> Cell<'static> {
    value.map_or(Cell::Null, |v| Cell::Int(i64::from(v)))
}

/// A game named for a person: `White – Black, date, site`, each part that the game has
/// (`a game without players, date or site` when none).
///
/// ```
/// use notate_store::schema::game_label;
/// assert_eq!(game_label(Some("A"), Some("B"), Some("2016.05.01"), None), "A – B, 2016.05.01");
/// assert_eq!(game_label(None, Some("B"), None, Some("x")), "? – B, x");
/// ```
pub fn game_label(
    white: Option<&str>,
    black: Option<&str>,
    date: Option<&str>,
    site: Option<&str>,
) -> String {
    let players = notate::error::players(white, black);
    let mut parts: Vec<String> = (!players.is_empty())
        .then_some(players)
        .into_iter()
        .collect();
    parts.extend(date.into_iter().chain(site).map(str::to_string));
    if parts.is_empty() {
        return "a game without players, date or site".into();
    }
    parts.join(", ")
}

/// A game's values, in the order of [`GAMES`].
pub fn game_cells<'a>(batch: &'a RowBatch, g: &GameRow) -> [Cell<'a>; GAMES.len()] {
    [
        Cell::Int(g.id),
        text(batch.opt(g.event)),
        text(batch.opt(g.site)),
        text(batch.opt(g.date)),
        int(g.year),
        int(g.month),
        text(batch.opt(g.white)),
        text(batch.opt(g.black)),
        Cell::Text(batch.text(g.result)),
        int(g.white_elo),
        int(g.black_elo),
        text(batch.opt(g.eco)),
        text(batch.opt(g.opening)),
        text(batch.opt(g.time_control)),
        text(batch.opt(g.termination)),
        Cell::Int(i64::from(g.ply_count)),
        Cell::Text(batch.text(g.start_fen)),
        Cell::Text(batch.text(g.tags)),
        Cell::Int(g.id_check),
    ]
}

/// A move's values, in the order of [`MOVES`]; its game gives `year` and `month`.
pub fn move_cells<'a>(batch: &'a RowBatch, g: &GameRow, m: &MoveRow) -> [Cell<'a>; MOVES.len()] {
    std::array::from_fn(|column| move_cell(column, batch, g, m))
}

/// Column `column` of a move's row (see [`MOVES`]): a builder of columns takes one column of
/// many rows at a time.
#[inline]
pub fn move_cell<'a>(column: usize, batch: &'a RowBatch, g: &GameRow, m: &MoveRow) -> Cell<'a> {
    match column {
        0 => Cell::Int(m.game_id),
        1 => Cell::Int(i64::from(m.ply)),
        2 => Cell::Int(i64::from(m.move_number)),
        3 => Cell::Text(batch.text(m.key)),
        4 => Cell::Text(m.player),
        5 => Cell::Text(batch.text(m.san)),
        6 => Cell::Text(batch.text(m.lran)),
        7 => Cell::Text(batch.text(m.uci)),
        8 => Cell::Text(m.from_square),
        9 => Cell::Text(m.to_square),
        10 => Cell::Text(m.piece),
        11 => Cell::Text(m.move_type),
        12 => text(m.captured_piece),
        13 => text(m.promotion),
        14 => Cell::Text(batch.text(m.fen_before)),
        15 => Cell::Text(batch.text(m.fen_after)),
        16 => Cell::Bool(m.is_check),
        17 => Cell::Bool(m.is_checkmate),
        18 => m.clock.map_or(Cell::Null, Cell::Real),
        19 => m.eval.map_or(Cell::Null, Cell::Real),
        20 => int(m.mate),
        21 => int(g.year),
        22 => int(g.month),
        _ => panic!(
            "the moves table has {} columns, not {}",
            MOVES.len(),
            column + 1
        ),
    }
}

/// The indexes of [`INDEXES`] that PostgreSQL keeps as hash indexes, on the one column
/// given: a B-tree entry holds at most 2,704 bytes, and a name, an ECO code or an opening is
/// a tag, which may be 64 KiB long (a load failed on one). The queries look them up by
/// equality, which a hash index serves.
///
/// ```
/// assert!(notate_store::schema::HASHED_IN_POSTGRES.contains(&("games_white", "white")));
/// ```
pub const HASHED_IN_POSTGRES: [(&str, &str); 3] = [
    ("games_white", "white"),
    ("games_black", "black"),
    ("games_eco", "eco"),
];

/// `CREATE TABLE` and `CREATE INDEX` statements, `IF NOT EXISTS`, with the type names of
/// one SQL dialect; the indexes named in `hashed` are hash indexes on the column given.
pub fn ddl(
    type_name: fn(Kind) -> &'static str,
    moves_suffix: &str,
    hashed: &[(&str, &str)],
) -> String {
    let mut sql = String::new();
    for (table, columns, key) in [
        ("games", &GAMES[..], "id"),
        ("moves", &MOVES[..], "game_id, ply"),
    ] {
        sql.push_str(&format!("CREATE TABLE IF NOT EXISTS {table} (\n"));
        for c in columns {
            sql.push_str(&format!(
                "  {} {}{},\n",
                c.name,
                type_name(c.kind),
                if c.required { " NOT NULL" } else { "" }
            ));
        }
        sql.push_str(&format!("  PRIMARY KEY ({key})\n)"));
        if table == "moves" {
            sql.push_str(moves_suffix);
        }
        sql.push_str(";\n");
    }
    for (table, name, columns, condition) in INDEXES {
        let using = match hashed.iter().find(|(n, _)| *n == name) {
            Some((_, column)) => format!("USING hash ({column})"),
            None => format!("({columns})"),
        };
        sql.push_str(&format!(
            "CREATE INDEX IF NOT EXISTS {name} ON {table} {using} {condition};\n"
        ));
    }
    sql
}
