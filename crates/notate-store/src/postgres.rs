//! PostgreSQL, through the `postgres` client and binary `COPY`.
//!
//! `COPY` cannot skip rows that are there already, so a batch's games are copied into a
//! temporary staging table and moved from there with `INSERT … ON CONFLICT DO NOTHING
//! RETURNING id`; then the moves of the games really added are copied straight into
//! `moves`. A transaction holds many batches (about [`crate::BATCH_MOVES`] moves).

use std::collections::HashSet;
use std::error::Error;
use std::ops::Range;

use notate::chess::rows::RowBatch;
use postgres::binary_copy::BinaryCopyInWriter;
use postgres::types::{to_sql_checked, IsNull, ToSql, Type};
use postgres::{Client, NoTls, SimpleQueryMessage};

use crate::schema::{self, Cell, Column, Kind, GAMES, MOVES};
use crate::{Inserted, QueryResult, Store, StoreError, Transaction, Value};

/// Games in a PostgreSQL database.
pub struct PostgresStore {
    client: Client,
    games_types: Vec<Type>,
    moves_types: Vec<Type>,
    transaction: Transaction,
    inserted: Inserted,
}

fn type_name(kind: Kind) -> &'static str {
    match kind {
        Kind::BigInt => "BIGINT",
        Kind::Int => "INTEGER",
        Kind::Real => "DOUBLE PRECISION",
        Kind::Text => "TEXT",
        Kind::Bool => "BOOLEAN",
        // `json` keeps the text as written: tags in order, a tag given twice twice
        // (`jsonb` would sort them and keep one).
        Kind::Json => "JSON",
    }
}

fn wire_type(kind: Kind) -> Type {
    match kind {
        Kind::BigInt => Type::INT8,
        Kind::Int => Type::INT4,
        Kind::Real => Type::FLOAT8,
        Kind::Text => Type::TEXT,
        Kind::Bool => Type::BOOL,
        Kind::Json => Type::JSON,
    }
}

fn wire_types(columns: &[Column]) -> Vec<Type> {
    columns.iter().map(|c| wire_type(c.kind)).collect()
}

impl PostgresStore {
    /// Connects (`postgres://user@host:port/db`) and creates the tables when missing.
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let mut client = Client::connect(url, NoTls)?;
        client.batch_execute(&schema::ddl(type_name, ""))?;
        client.batch_execute("CREATE TEMP TABLE games_stage (LIKE games);")?;
        Ok(PostgresStore {
            client,
            games_types: wire_types(&GAMES),
            moves_types: wire_types(&MOVES),
            transaction: Transaction::default(),
            inserted: Inserted::default(),
        })
    }

    fn commit(&mut self) -> Result<(), StoreError> {
        if self.transaction.close() {
            self.client.batch_execute("COMMIT")?;
        }
        Ok(())
    }
}

impl Store for PostgresStore {
    fn insert(&mut self, batch: &RowBatch, games: Range<usize>) -> Result<(), StoreError> {
        if self.transaction.open() {
            self.client.batch_execute("BEGIN")?;
        }
        let games = &batch.games[games];
        {
            let sink = self
                .client
                .copy_in("COPY games_stage FROM STDIN (FORMAT binary)")?;
            let mut writer = BinaryCopyInWriter::new(sink, &self.games_types);
            // A game twice in one batch is staged once (the second would be a conflict
            // inside one INSERT, which PostgreSQL refuses).
            let mut staged = HashSet::with_capacity(games.len());
            for g in games.iter().filter(|g| staged.insert(g.id)) {
                writer.write_raw(schema::game_cells(batch, g).iter().map(Pg))?;
            }
            writer.finish()?;
        }
        let new: HashSet<i64> = self
            .client
            .query(
                "WITH staged AS (DELETE FROM games_stage RETURNING *)
                 INSERT INTO games SELECT * FROM staged ON CONFLICT (id) DO NOTHING
                 RETURNING id",
                &[],
            )?
            .iter()
            .map(|row| row.get(0))
            .collect();
        self.inserted.known += games.len() as u64 - new.len() as u64;
        self.inserted.games += new.len() as u64;
        if new.is_empty() {
            return Ok(());
        }
        let mut added = 0;
        {
            let sink = self
                .client
                .copy_in("COPY moves FROM STDIN (FORMAT binary)")?;
            let mut writer = BinaryCopyInWriter::new(sink, &self.moves_types);
            let mut copied = HashSet::with_capacity(new.len());
            for g in games
                .iter()
                .filter(|g| new.contains(&g.id) && copied.insert(g.id))
            {
                for m in &batch.moves[g.moves.clone()] {
                    writer.write_raw(schema::move_cells(batch, g, m).iter().map(Pg))?;
                }
                added += g.moves.len();
            }
            writer.finish()?;
        }
        self.inserted.moves += added as u64;
        if self.transaction.add(added) {
            self.commit()?;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<Inserted, StoreError> {
        self.commit()?;
        self.client.batch_execute("ANALYZE games; ANALYZE moves;")?;
        Ok(std::mem::take(&mut self.inserted))
    }
}

/// A cell in PostgreSQL's binary format, for the column type `COPY` asks for.
#[derive(Debug)]
struct Pg<'a, 'b>(&'b Cell<'a>);

impl ToSql for Pg<'_, '_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut postgres::types::private::BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        match *self.0 {
            Cell::Null => Ok(IsNull::Yes),
            Cell::Int(v) if *ty == Type::INT4 => i32::try_from(v)?.to_sql(ty, out),
            Cell::Int(v) => v.to_sql(ty, out),
            Cell::Real(v) => v.to_sql(ty, out),
            Cell::Bool(v) => v.to_sql(ty, out),
            Cell::Text(s) if *ty == Type::JSON => {
                // json's binary form is its text.
                out.extend_from_slice(s.as_bytes());
                Ok(IsNull::No)
            }
            Cell::Text(s) => s.to_sql(ty, out),
        }
    }

    fn accepts(ty: &Type) -> bool {
        [
            Type::INT8,
            Type::INT4,
            Type::FLOAT8,
            Type::TEXT,
            Type::BOOL,
            Type::JSON,
        ]
        .contains(ty)
    }

    to_sql_checked!();
}

/// Runs one SQL statement and returns its rows, each value typed by its column's type.
pub fn query(url: &str, sql: &str) -> Result<QueryResult, StoreError> {
    let mut client = Client::connect(url, NoTls)?;
    // The types come from preparing; the values as text from the simple protocol, which
    // reads every type (numeric included) without a decoder for each.
    let statement = client.prepare(sql)?;
    let types: Vec<Type> = statement
        .columns()
        .iter()
        .map(|c| c.type_().clone())
        .collect();
    let mut result = QueryResult {
        columns: statement
            .columns()
            .iter()
            .map(|c| c.name().to_string())
            .collect(),
        rows: Vec::new(),
    };
    for message in client.simple_query(sql)? {
        if let SimpleQueryMessage::Row(row) = message {
            let values = (0..row.len())
                .map(|i| match row.get(i) {
                    None => Value::Null,
                    Some(text) => typed(text, types.get(i)),
                })
                .collect();
            result.rows.push(values);
        }
    }
    Ok(result)
}

fn typed(text: &str, ty: Option<&Type>) -> Value {
    let number = |v: Option<Value>| v.unwrap_or_else(|| Value::Text(text.to_string()));
    match ty {
        Some(t) if [Type::INT2, Type::INT4, Type::INT8, Type::OID].contains(t) => {
            number(text.parse().ok().map(Value::Int))
        }
        Some(t) if [Type::FLOAT4, Type::FLOAT8, Type::NUMERIC].contains(t) => {
            number(text.parse().ok().map(Value::Real))
        }
        Some(t) if *t == Type::BOOL => Value::Bool(text == "t"),
        _ => Value::Text(text.to_string()),
    }
}
