//! Parquet files, hive-partitioned by the year and month of the game's date:
//! `DIR/games/year=2016/month=05/part-0.parquet` and the same under `DIR/moves/`. A game
//! without a year (or month) goes to `__HIVE_DEFAULT_PARTITION__`, which DuckDB, Spark and
//! Polars read as `NULL`. `year` and `month` are in the paths, not in the files.
//!
//! A file is written under a hidden temporary name and renamed when it is complete (the
//! moves file before its games file), so readers only ever see whole files of whole games.
//! Loading again skips the games whose id a partition's games files already hold; a moves
//! file left without its games file by an interrupted load is removed at the next load.

use std::collections::{HashMap, HashSet};
use std::fs::{self, File};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, StringBuilder,
};
use arrow_array::{Array, ArrayRef, Int64Array, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use notate::chess::rows::{GameRow, RowBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::{ArrowWriter, ProjectionMask};
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;

use crate::schema::{self, Cell, Column, Kind, GAMES, MOVES};
use crate::{Inserted, Store, StoreError};

/// A file is published when its moves file reaches this many rows.
const MOVES_PER_FILE: usize = 4 << 20;
/// Rows a writer holds in memory before writing them out as a row group.
const ROW_GROUP: usize = 1 << 16;
/// At most this many partitions have files open at once (each holds a row group).
const OPEN_PARTITIONS: usize = 8;
/// Hive's name for a missing partition value.
const NULL_PARTITION: &str = "__HIVE_DEFAULT_PARTITION__";

/// The partition columns, in the paths rather than in the files.
fn is_partition_key(c: &Column) -> bool {
    c.name == "year" || c.name == "month"
}

type Partition = (Option<i32>, Option<i32>);

/// Games as Parquet files in a directory.
///
/// ```
/// use notate::chess::{pgn, rows::{RowBatch, RowWriter}};
/// use notate_store::{parquet::ParquetStore, Store};
/// let dir = std::env::temp_dir().join(format!("notate-parquet-doc-{}", std::process::id()));
/// let game = pgn::read_one("[Date \"2016.05.01\"]\n\n1. e4 e5 *").unwrap();
/// let mut batch = RowBatch::new();
/// RowWriter::new().write(&game, &mut batch).unwrap();
/// let mut store = ParquetStore::open(&dir).unwrap();
/// store.insert(&batch, 0..1).unwrap();
/// assert_eq!(store.finish().unwrap().moves, 2);
/// assert!(dir.join("moves/year=2016/month=05/part-0.parquet").is_file());
/// drop(store); // one load at a time
/// let mut again = ParquetStore::open(&dir).unwrap();
/// again.insert(&batch, 0..1).unwrap();
/// assert_eq!(again.finish().unwrap().known, 1);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub struct ParquetStore {
    dir: PathBuf,
    /// Held for the whole load: two loads into one directory would remove each other's
    /// files in progress and pick the same part numbers.
    _lock: File,
    games_schema: SchemaRef,
    moves_schema: SchemaRef,
    partitions: HashMap<Partition, PartitionFiles>,
    inserted: Inserted,
}

/// What a partition knows and has open.
struct PartitionFiles {
    /// The ids of its games: in its files, and written in this run.
    known: HashSet<i64>,
    /// The next part number.
    next: u64,
    open: Option<OpenPart>,
}

/// A games file and its moves file being written.
struct OpenPart {
    games: TempFile,
    moves: TempFile,
    move_rows: usize,
}

struct TempFile {
    writer: ArrowWriter<File>,
    temp: PathBuf,
    path: PathBuf,
}

impl TempFile {
    fn create(path: PathBuf, schema: SchemaRef) -> Result<TempFile, StoreError> {
        let dir = path
            .parent()
            .expect("a part file is in a partition directory");
        fs::create_dir_all(dir).map_err(StoreError::io(dir))?;
        let name = path.file_name().expect("a part file has a name");
        let temp = dir.join(format!(".{}.tmp", name.to_string_lossy()));
        let file = File::create(&temp).map_err(StoreError::io(&temp))?;
        let mut properties = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::try_new(1)?))
            .set_max_row_group_row_count(Some(ROW_GROUP));
        // Positions rarely repeat: a dictionary of them costs time and saves nothing.
        for column in ["fen_before", "fen_after", "start_fen", "tags"] {
            properties = properties.set_column_dictionary_enabled(ColumnPath::from(column), false);
        }
        let properties = properties.build();
        Ok(TempFile {
            writer: ArrowWriter::try_new(file, schema, Some(properties))?,
            temp,
            path,
        })
    }

    fn publish(self) -> Result<(), StoreError> {
        self.writer.close()?;
        if self.path.exists() {
            return Err(StoreError::Target(format!(
                "{} exists already: not overwritten",
                self.path.display()
            )));
        }
        fs::rename(&self.temp, &self.path).map_err(StoreError::io(&self.path))
    }
}

fn arrow_schema(columns: &[Column]) -> SchemaRef {
    let fields: Vec<Field> = columns
        .iter()
        .filter(|c| !is_partition_key(c))
        .map(|c| {
            let data_type = match c.kind {
                Kind::BigInt => DataType::Int64,
                Kind::Int => DataType::Int32,
                Kind::Real => DataType::Float64,
                Kind::Text | Kind::Json => DataType::Utf8,
                Kind::Bool => DataType::Boolean,
            };
            Field::new(c.name, data_type, !c.required)
        })
        .collect();
    Arc::new(Schema::new(fields))
}

fn partition_dir(table: &str, (year, month): Partition) -> PathBuf {
    let value = |v: Option<i32>, width: usize| match v {
        Some(v) => format!("{v:0width$}"),
        None => NULL_PARTITION.to_string(),
    };
    PathBuf::from(table)
        .join(format!("year={}", value(year, 4)))
        .join(format!("month={}", value(month, 2)))
}

impl ParquetStore {
    /// Opens (or creates) the directory, removing what an interrupted load left.
    pub fn open(dir: &Path) -> Result<ParquetStore, StoreError> {
        fs::create_dir_all(dir.join("games")).map_err(StoreError::io(dir))?;
        fs::create_dir_all(dir.join("moves")).map_err(StoreError::io(dir))?;
        let lock_path = dir.join(".notate-load.lock");
        let lock = File::create(&lock_path).map_err(StoreError::io(&lock_path))?;
        if lock.try_lock().is_err() {
            return Err(StoreError::Target(format!(
                "another notate load is writing to {}",
                dir.display()
            )));
        }
        remove_leftovers(dir)?;
        Ok(ParquetStore {
            dir: dir.to_path_buf(),
            _lock: lock,
            games_schema: arrow_schema(&GAMES),
            moves_schema: arrow_schema(&MOVES),
            partitions: HashMap::new(),
            inserted: Inserted::default(),
        })
    }

    /// The partition's state, reading the ids of its games the first time.
    fn partition(&mut self, key: Partition) -> Result<&mut PartitionFiles, StoreError> {
        if !self.partitions.contains_key(&key) {
            let games_dir = self.dir.join(partition_dir("games", key));
            let mut files = PartitionFiles {
                known: HashSet::new(),
                next: 0,
                open: None,
            };
            for (path, number) in part_files(&games_dir)? {
                files.next = files.next.max(number + 1);
                read_ids(&path, &mut files.known)?;
            }
            self.partitions.insert(key, files);
        }
        Ok(self.partitions.get_mut(&key).expect("inserted above"))
    }

    fn write_partition(
        &mut self,
        key: Partition,
        batch: &RowBatch,
        games: &[&GameRow],
    ) -> Result<(), StoreError> {
        let open_now = self
            .partitions
            .values()
            .filter(|p| p.open.is_some())
            .count();
        if open_now >= OPEN_PARTITIONS && self.partitions[&key].open.is_none() {
            // Many months in one input: publish what is open rather than hold a row group
            // for each.
            self.publish_all()?;
        }
        let (dir, games_schema, moves_schema) = (
            self.dir.clone(),
            self.games_schema.clone(),
            self.moves_schema.clone(),
        );
        let part = self.partition(key)?;
        if part.open.is_none() {
            let name = format!("part-{}.parquet", part.next);
            part.next += 1;
            part.open = Some(OpenPart {
                games: TempFile::create(
                    dir.join(partition_dir("games", key)).join(&name),
                    games_schema.clone(),
                )?,
                moves: TempFile::create(
                    dir.join(partition_dir("moves", key)).join(&name),
                    moves_schema.clone(),
                )?,
                move_rows: 0,
            });
        }
        let open = part.open.as_mut().expect("opened above");
        let mut game_columns = Columns::new(&GAMES);
        let mut move_columns = Columns::new(&MOVES);
        for g in games {
            game_columns.push(&schema::game_cells(batch, g));
            for m in &batch.moves[g.moves.clone()] {
                move_columns.push(&schema::move_cells(batch, g, m));
            }
        }
        open.move_rows += move_columns.len();
        open.moves
            .writer
            .write(&move_columns.finish(&moves_schema)?)?;
        open.games
            .writer
            .write(&game_columns.finish(&games_schema)?)?;
        if open.move_rows >= MOVES_PER_FILE {
            let full = part.open.take().expect("open above");
            full.moves.publish()?;
            full.games.publish()?;
        }
        Ok(())
    }

    fn publish_all(&mut self) -> Result<(), StoreError> {
        for part in self.partitions.values_mut() {
            if let Some(open) = part.open.take() {
                // Moves first: a games file never lists a game whose moves are missing.
                open.moves.publish()?;
                open.games.publish()?;
            }
        }
        Ok(())
    }
}

impl Store for ParquetStore {
    fn insert(&mut self, batch: &RowBatch, games: Range<usize>) -> Result<(), StoreError> {
        let mut by_partition: Vec<(Partition, Vec<&GameRow>)> = Vec::new();
        for g in &batch.games[games] {
            let key = (g.year, g.year.and(g.month));
            if !self.partition(key)?.known.insert(g.id) {
                self.inserted.known += 1;
                continue;
            }
            self.inserted.games += 1;
            self.inserted.moves += g.moves.len() as u64;
            match by_partition.iter_mut().find(|(k, _)| *k == key) {
                Some((_, games)) => games.push(g),
                None => by_partition.push((key, vec![g])),
            }
        }
        for (key, games) in by_partition {
            self.write_partition(key, batch, &games)?;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<Inserted, StoreError> {
        self.publish_all()?;
        Ok(std::mem::take(&mut self.inserted))
    }
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
    fn push(&mut self, cell: Cell) {
        match (self, cell) {
            (Builder::BigInt(b), Cell::Int(v)) => b.append_value(v),
            (Builder::BigInt(b), _) => b.append_null(),
            // The schema's 32-bit columns only ever get 32-bit values.
            (Builder::Int(b), Cell::Int(v)) => b.append_option(i32::try_from(v).ok()),
            (Builder::Int(b), _) => b.append_null(),
            (Builder::Real(b), Cell::Real(v)) => b.append_value(v),
            (Builder::Real(b), _) => b.append_null(),
            (Builder::Text(b), Cell::Text(v)) => b.append_value(v),
            (Builder::Text(b), _) => b.append_null(),
            (Builder::Bool(b), Cell::Bool(v)) => b.append_value(v),
            (Builder::Bool(b), _) => b.append_null(),
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::BigInt(b) => Arc::new(b.finish()),
            Builder::Int(b) => Arc::new(b.finish()),
            Builder::Real(b) => Arc::new(b.finish()),
            Builder::Text(b) => Arc::new(b.finish()),
            Builder::Bool(b) => Arc::new(b.finish()),
        }
    }
}

/// Builders for the columns of one table (the partition keys left out), with the index
/// of each one's cell in a row.
struct Columns {
    builders: Vec<(usize, Builder)>,
    rows: usize,
}

impl Columns {
    fn new(columns: &[Column]) -> Columns {
        let builders = columns
            .iter()
            .enumerate()
            .filter(|(_, c)| !is_partition_key(c))
            .map(|(i, c)| {
                let builder = match c.kind {
                    Kind::BigInt => Builder::BigInt(Int64Builder::new()),
                    Kind::Int => Builder::Int(Int32Builder::new()),
                    Kind::Real => Builder::Real(Float64Builder::new()),
                    Kind::Text | Kind::Json => Builder::Text(StringBuilder::new()),
                    Kind::Bool => Builder::Bool(BooleanBuilder::new()),
                };
                (i, builder)
            })
            .collect();
        Columns { builders, rows: 0 }
    }

    fn len(&self) -> usize {
        self.rows
    }

    fn push(&mut self, cells: &[Cell]) {
        for (i, builder) in &mut self.builders {
            builder.push(cells[*i]);
        }
        self.rows += 1;
    }

    fn finish(mut self, schema: &SchemaRef) -> Result<RecordBatch, StoreError> {
        let arrays: Vec<ArrayRef> = self.builders.iter_mut().map(|(_, b)| b.finish()).collect();
        Ok(RecordBatch::try_new(schema.clone(), arrays)?)
    }
}

/// The `part-N.parquet` files of a directory, with their numbers.
fn part_files(dir: &Path) -> Result<Vec<(PathBuf, u64)>, StoreError> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(StoreError::io(dir)(e)),
    };
    let mut parts = Vec::new();
    for entry in entries {
        let path = entry.map_err(StoreError::io(dir))?.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if let Some(number) = part_number(&name) {
            parts.push((path, number));
        }
    }
    Ok(parts)
}

/// `part-12.parquet` → 12.
fn part_number(name: &str) -> Option<u64> {
    name.strip_prefix("part-")?
        .strip_suffix(".parquet")?
        .parse()
        .ok()
}

/// Adds the ids in a games file to `ids` (only the `id` column is read).
fn read_ids(path: &Path, ids: &mut HashSet<i64>) -> Result<(), StoreError> {
    let file = File::open(path).map_err(StoreError::io(path))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file)?;
    let mask = ProjectionMask::roots(builder.parquet_schema(), [0]);
    for batch in builder.with_projection(mask).build()? {
        let batch = batch?;
        let column = batch.column(0);
        let Some(array) = column.as_any().downcast_ref::<Int64Array>() else {
            return Err(StoreError::Target(format!(
                "{}: the first column is not a game id",
                path.display()
            )));
        };
        ids.extend(array.iter().flatten());
    }
    Ok(())
}

/// Removes temporary files and moves files whose games file is missing: what an
/// interrupted load leaves.
fn remove_leftovers(dir: &Path) -> Result<(), StoreError> {
    for table in ["games", "moves"] {
        for partition in partition_dirs(&dir.join(table))? {
            let entries = fs::read_dir(&partition).map_err(StoreError::io(&partition))?;
            for entry in entries {
                let path = entry.map_err(StoreError::io(&partition))?.path();
                let name = path.file_name().unwrap_or_default().to_string_lossy();
                let orphan = table == "moves" && part_number(&name).is_some() && {
                    let relative = path.strip_prefix(dir.join("moves")).unwrap_or(&path);
                    !dir.join("games").join(relative).exists()
                };
                if (name.starts_with('.') && name.ends_with(".tmp")) || orphan {
                    fs::remove_file(&path).map_err(StoreError::io(&path))?;
                }
            }
        }
    }
    Ok(())
}

/// The `year=…/month=…` directories under a table's directory.
fn partition_dirs(table: &Path) -> Result<Vec<PathBuf>, StoreError> {
    let mut dirs = Vec::new();
    for year in fs::read_dir(table).map_err(StoreError::io(table))? {
        let year = year.map_err(StoreError::io(table))?.path();
        if !year.is_dir() {
            continue;
        }
        for month in fs::read_dir(&year).map_err(StoreError::io(&year))? {
            let month = month.map_err(StoreError::io(&year))?.path();
            if month.is_dir() {
                dirs.push(month);
            }
        }
    }
    Ok(dirs)
}
