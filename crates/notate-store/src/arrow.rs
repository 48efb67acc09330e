//! The two tables as Arrow record batches: one schema for every consumer (the Parquet files,
//! the Python wheel's `to_arrow`), made from the column lists of [`schema`](crate::schema),
//! and the batches built from rows.
//!
//! ```
//! use notate::chess::{pgn, rows::{RowBatch, RowWriter}};
//! use notate_store::arrow::{BatchBuilder, Partitioning, Table};
//! let mut rows = RowBatch::new();
//! RowWriter::new().write(&pgn::read_one("[Date \"2016.05.01\"]\n\n1. e4 e5 *").unwrap(), &mut rows).unwrap();
//! let mut moves = BatchBuilder::new(Table::Moves, Partitioning::InColumns, None).unwrap();
//! moves.push_game(&rows, &rows.games[0]);
//! let batch = moves.finish();
//! assert_eq!((batch.num_rows(), batch.num_columns()), (2, 23));
//! assert_eq!(batch.schema().field(5).name(), "san");
//! ```

use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, StringBuilder,
};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use notate::chess::rows::{GameRow, RowBatch};

use crate::schema::{self, Cell, Column, Kind, GAMES, MOVES};
use crate::StoreError;

/// One of the two tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Table {
    /// `games`: one row per game.
    Games,
    /// `moves`: one row per half-move of a game's main line.
    Moves,
}

impl Table {
    /// Its columns, in order.
    pub fn columns(self) -> &'static [Column] {
        match self {
            Table::Games => &GAMES,
            Table::Moves => &MOVES,
        }
    }

    /// Its name, as in SQL.
    pub fn name(self) -> &'static str {
        match self {
            Table::Games => "games",
            Table::Moves => "moves",
        }
    }

    /// The table of a name (`"games"` or `"moves"`).
    pub fn from_name(name: &str) -> Option<Table> {
        match name {
            "games" => Some(Table::Games),
            "moves" => Some(Table::Moves),
            _ => None,
        }
    }
}

/// Where the partition keys (`year`, `month`) are: columns of the batch, or only in the
/// directory names of hive-partitioned Parquet files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partitioning {
    /// In the batch, as every other column (what a reader of a partitioned dataset sees).
    InColumns,
    /// Left out: they are in the paths.
    InPaths,
}

/// Whether a column is a partition key.
pub fn is_partition_key(column: &Column) -> bool {
    column.name == "year" || column.name == "month"
}

/// The Arrow type of a column's kind.
fn data_type(kind: Kind) -> DataType {
    match kind {
        Kind::BigInt => DataType::Int64,
        Kind::Int => DataType::Int32,
        Kind::Real => DataType::Float64,
        Kind::Text | Kind::Json => DataType::Utf8,
        Kind::Bool => DataType::Boolean,
    }
}

/// The indexes (into [`Table::columns`]) of the columns a batch has.
fn column_indexes(
    table: Table,
    partitioning: Partitioning,
    names: Option<&[&str]>,
) -> Result<Vec<usize>, StoreError> {
    let columns = table.columns();
    let kept = |c: &Column| partitioning == Partitioning::InColumns || !is_partition_key(c);
    match names {
        Some([]) => Err(StoreError::Target(format!(
            "no columns of {} asked for",
            table.name()
        ))),
        None => Ok((0..columns.len()).filter(|&i| kept(&columns[i])).collect()),
        Some(names) => names
            .iter()
            .map(|name| {
                columns
                    .iter()
                    .position(|c| c.name == *name && kept(c))
                    .ok_or_else(|| {
                        StoreError::Target(format!(
                            "{} has no column {name:?} (its columns: {})",
                            table.name(),
                            columns
                                .iter()
                                .filter(|c| kept(c))
                                .map(|c| c.name)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                    })
            })
            .collect(),
    }
}

/// The Arrow schema of a table: every column, nullable where the column is optional.
///
/// ```
/// use notate_store::arrow::{schema, Partitioning, Table};
/// let moves = schema(Table::Moves, Partitioning::InPaths);
/// assert_eq!(moves.fields().len(), 21);
/// assert_eq!(moves.field(0).name(), "game_id");
/// ```
pub fn schema(table: Table, partitioning: Partitioning) -> SchemaRef {
    let indexes = column_indexes(table, partitioning, None).expect("every column exists");
    schema_of(table, &indexes)
}

fn schema_of(table: Table, indexes: &[usize]) -> SchemaRef {
    let columns = table.columns();
    let fields: Vec<Field> = indexes
        .iter()
        .map(|&i| {
            let c = &columns[i];
            Field::new(c.name, data_type(c.kind), !c.required)
        })
        .collect();
    Arc::new(Schema::new(fields))
}

/// A column being built.
enum Builder {
    BigInt(Int64Builder),
    Int(Int32Builder),
    Real(Float64Builder),
    Text(StringBuilder),
    Bool(BooleanBuilder),
}

impl Builder {
    fn new(kind: Kind) -> Builder {
        match kind {
            Kind::BigInt => Builder::BigInt(Int64Builder::new()),
            Kind::Int => Builder::Int(Int32Builder::new()),
            Kind::Real => Builder::Real(Float64Builder::new()),
            Kind::Text | Kind::Json => Builder::Text(StringBuilder::new()),
            Kind::Bool => Builder::Bool(BooleanBuilder::new()),
        }
    }

    /// Appends many cells of the column (the builder's kind matched once).
    fn extend<'a>(&mut self, cells: impl Iterator<Item = Cell<'a>>) {
        match self {
            Builder::BigInt(b) => cells.for_each(|cell| match cell {
                Cell::Int(v) => b.append_value(v),
                _ => b.append_null(),
            }),
            Builder::Int(b) => cells.for_each(|cell| match cell {
                Cell::Int(v) => b.append_option(i32::try_from(v).ok()),
                _ => b.append_null(),
            }),
            Builder::Real(b) => cells.for_each(|cell| match cell {
                Cell::Real(v) => b.append_value(v),
                _ => b.append_null(),
            }),
            Builder::Text(b) => cells.for_each(|cell| match cell {
                Cell::Text(v) => b.append_value(v),
                _ => b.append_null(),
            }),
            Builder::Bool(b) => cells.for_each(|cell| match cell {
                Cell::Bool(v) => b.append_value(v),
                _ => b.append_null(),
            }),
        }
    }

    /// The column built; the builder starts again with room for as much (batches of a
    /// run are alike in size, and growing a buffer copies it).
    fn finish(&mut self) -> ArrayRef {
        /// Finishes a fixed-width builder and replaces it with one of the same room.
        macro_rules! again {
            ($builder:expr, $kind:ident) => {{
                let array = $builder.finish();
                *$builder = $kind::with_capacity(array.len());
                Arc::new(array)
            }};
        }
        match self {
            Builder::BigInt(b) => again!(b, Int64Builder),
            Builder::Int(b) => again!(b, Int32Builder),
            Builder::Real(b) => again!(b, Float64Builder),
            Builder::Bool(b) => again!(b, BooleanBuilder),
            Builder::Text(b) => {
                let array = b.finish();
                *b = StringBuilder::with_capacity(array.len(), array.value_data().len());
                Arc::new(array)
            }
        }
    }
}

/// Builds record batches of one table from games' rows, with the columns asked for.
pub struct BatchBuilder {
    table: Table,
    schema: SchemaRef,
    /// Each column's builder, with the index of its cell in a row.
    builders: Vec<(usize, Builder)>,
    rows: usize,
}

impl BatchBuilder {
    /// A builder of `table`'s batches with the columns `names` (`None`: all of them, the
    /// partition keys as `partitioning` says). An unknown name is an error that lists the
    /// table's columns.
    pub fn new(
        table: Table,
        partitioning: Partitioning,
        names: Option<&[&str]>,
    ) -> Result<BatchBuilder, StoreError> {
        let indexes = column_indexes(table, partitioning, names)?;
        let columns = table.columns();
        Ok(BatchBuilder {
            table,
            schema: schema_of(table, &indexes),
            builders: indexes
                .iter()
                .map(|&i| (i, Builder::new(columns[i].kind)))
                .collect(),
            rows: 0,
        })
    }

    /// The schema of the batches built.
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// Rows pushed since the last [`BatchBuilder::finish`].
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row was pushed since the last [`BatchBuilder::finish`].
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Adds a game's rows: one in `games`, one per move in `moves`.
    pub fn push_game(&mut self, rows: &RowBatch, game: &GameRow) {
        match self.table {
            Table::Games => {
                let cells = schema::game_cells(rows, game);
                for (i, builder) in &mut self.builders {
                    builder.extend(std::iter::once(cells[*i]));
                }
                self.rows += 1;
            }
            Table::Moves => {
                // Column by column: each builder's buffers stay in cache, and a column not
                // asked for is never looked at.
                let moves = &rows.moves[game.moves.clone()];
                for (i, builder) in &mut self.builders {
                    builder.extend(moves.iter().map(|m| schema::move_cell(*i, rows, game, m)));
                }
                self.rows += moves.len();
            }
        }
    }

    /// The rows pushed as one batch; the builder starts again empty.
    pub fn finish(&mut self) -> RecordBatch {
        let arrays: Vec<ArrayRef> = self.builders.iter_mut().map(|(_, b)| b.finish()).collect();
        self.rows = 0;
        RecordBatch::try_new(self.schema.clone(), arrays)
            .expect("every builder follows its field's type and got one value per row")
    }
}
