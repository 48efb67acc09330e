//! Parquet files, hive-partitioned by the year and month of the game's date:
//! `DIR/games/year=2016/month=05/part-0.parquet` and the same under `DIR/moves/`. A game
//! without a year (or month) goes to `__HIVE_DEFAULT_PARTITION__`, which DuckDB, Spark and
//! Polars read as `NULL`. `year` and `month` are in the paths, not in the files.
//!
//! A file is written under a hidden temporary name and renamed when it is complete (the
//! moves file before its games file), so readers only ever see whole files of whole games.
//! Loading again skips the games whose id a partition's games files already hold; a moves
//! file left without its games file by an interrupted load is removed at the next load.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::fs::{self, File};
use std::num::NonZeroI64;
use std::ops::Range;
use std::path::{Path, PathBuf};

use arrow_array::{Array, Int64Array};
use arrow_schema::SchemaRef;
use notate::chess::rows::{GameRow, RowBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::arrow_writer::{
    compute_leaves, ArrowColumnChunk, ArrowRowGroupWriterFactory, ArrowWriter,
};
use parquet::arrow::ProjectionMask;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;

use crate::arrow::{self as tables, BatchBuilder, Partitioning, Table};
use crate::{IdClash, Inserted, Prepared, Rows, Store, StoreError};

/// A file is published when its moves file reaches this many rows.
const MOVES_PER_FILE: usize = 4 << 20;
/// At most this many partitions have files open at once.
const OPEN_PARTITIONS: usize = 8;
/// Hive's name for a missing partition value.
const NULL_PARTITION: &str = "__HIVE_DEFAULT_PARTITION__";

type Partition = (Option<i32>, Option<i32>);

fn partition_of(game: &GameRow) -> Partition {
    (game.year, game.year.and(game.month))
}

/// The moves' texts whose row groups carry no minimum and maximum: a row group holds some
/// 15,000 moves, of a few hundred games, and their values span nearly every one these
/// columns take, so they would never let a reader skip it. Comparing every value took 3 % of
/// a load's time.
///
/// ```
/// assert!(notate_store::parquet::TEXTS_WITHOUT_STATISTICS.contains(&"san"));
/// ```
pub const TEXTS_WITHOUT_STATISTICS: [&str; 9] = [
    "move_key",
    "player",
    "san",
    "lran",
    "uci",
    "from_square",
    "to_square",
    "piece",
    "move_type",
];

/// How every file is written: zstd level 1; no dictionary and no statistics for the
/// columns whose values rarely repeat, and no statistics for the moves' texts.
fn properties() -> Result<WriterProperties, StoreError> {
    let mut properties = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(1)?))
        // Row groups carry min and max (what readers prune by); pages need not.
        .set_statistics_enabled(EnabledStatistics::Chunk);
    // Positions rarely repeat: a dictionary of them costs time and saves nothing.
    for column in ["fen_before", "fen_after", "start_fen", "tags"] {
        let column = ColumnPath::from(column);
        properties = properties
            .set_column_dictionary_enabled(column.clone(), false)
            .set_column_statistics_enabled(column, EnabledStatistics::None);
    }
    for column in TEXTS_WITHOUT_STATISTICS {
        properties = properties
            .set_column_statistics_enabled(ColumnPath::from(column), EnabledStatistics::None);
    }
    Ok(properties.build())
}

/// A row group of one table, encoded and compressed, ready to be appended to a file.
struct RowGroup {
    chunks: Vec<ArrowColumnChunk>,
    rows: usize,
}

/// Encodes one table's rows as Parquet row groups.
struct TableEncoder {
    factory: ArrowRowGroupWriterFactory,
    builder: BatchBuilder,
}

impl TableEncoder {
    fn new(table: Table) -> Result<TableEncoder, StoreError> {
        // The factory of a writer over nothing: it carries the schema and the properties
        // every file is written with, and encodes row groups away from any file.
        let schema = tables::schema(table, Partitioning::InPaths);
        let writer = ArrowWriter::try_new(std::io::sink(), schema, Some(properties()?))?;
        let (_, factory) = writer.into_serialized_writer()?;
        Ok(TableEncoder {
            factory,
            builder: BatchBuilder::new(table, Partitioning::InPaths, None)?,
        })
    }

    fn encode<'a>(
        &mut self,
        rows: &RowBatch,
        games: impl Iterator<Item = &'a GameRow>,
    ) -> Result<RowGroup, StoreError> {
        for game in games {
            self.builder.push_game(rows, game);
        }
        let batch = self.builder.finish();
        let mut writers = self.factory.create_column_writers(0)?;
        for ((field, array), writer) in batch
            .schema()
            .fields()
            .iter()
            .zip(batch.columns())
            .zip(&mut writers)
        {
            // Flat columns: one leaf each.
            for leaf in compute_leaves(field, array)? {
                writer.write(&leaf)?;
            }
        }
        Ok(RowGroup {
            chunks: writers
                .into_iter()
                .map(|w| w.close())
                .collect::<Result<_, _>>()?,
            rows: batch.num_rows(),
        })
    }
}

/// Encodes the rows of games into Parquet row groups, one pair (games, moves) per partition:
/// the costly part of writing Parquet (building columns, encoding, compressing). A load
/// runs one on each worker (see [`crate::Preparer`]), so the store's thread only checks
/// ids and appends bytes.
pub struct Encoder {
    games: TableEncoder,
    moves: TableEncoder,
}

/// The row groups of a batch's games, by partition.
pub(crate) struct Encoded {
    /// The batch's game count when it was encoded: it holds for that batch only.
    games: usize,
    groups: Vec<EncodedGroup>,
}

struct EncodedGroup {
    partition: Partition,
    /// Indexes of the group's games in the batch.
    games: Vec<usize>,
    game_rows: RowGroup,
    move_rows: RowGroup,
}

/// The games of a batch (by index) grouped by partition, in order of first appearance.
fn by_partition(
    rows: &RowBatch,
    indexes: impl Iterator<Item = usize>,
) -> Vec<(Partition, Vec<usize>)> {
    let mut groups: Vec<(Partition, Vec<usize>)> = Vec::new();
    for index in indexes {
        let key = partition_of(&rows.games[index]);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, list)) => list.push(index),
            None => groups.push((key, vec![index])),
        }
    }
    groups
}

impl Encoder {
    /// An encoder with the schema and properties of [`ParquetStore`]'s files.
    pub fn new() -> Result<Encoder, StoreError> {
        Ok(Encoder {
            games: TableEncoder::new(Table::Games)?,
            moves: TableEncoder::new(Table::Moves)?,
        })
    }

    fn encode_group(
        &mut self,
        rows: &RowBatch,
        partition: Partition,
        games: Vec<usize>,
    ) -> Result<EncodedGroup, StoreError> {
        let list = || games.iter().map(|&g| &rows.games[g]);
        Ok(EncodedGroup {
            partition,
            game_rows: self.games.encode(rows, list())?,
            move_rows: self.moves.encode(rows, list())?,
            games,
        })
    }

    /// Encodes every game of `rows`.
    pub(crate) fn encode(&mut self, rows: &RowBatch) -> Result<Encoded, StoreError> {
        let groups = by_partition(rows, 0..rows.len());
        Ok(Encoded {
            games: rows.len(),
            groups: groups
                .into_iter()
                .map(|(partition, games)| self.encode_group(rows, partition, games))
                .collect::<Result<_, _>>()?,
        })
    }
}

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
    /// Encodes what the workers did not (a batch given in part, or with games already
    /// stored).
    encoder: Encoder,
    partitions: HashMap<Partition, PartitionFiles>,
    inserted: Inserted,
    /// Held for the whole load: two loads into one directory would remove each other's
    /// files in progress and pick the same part numbers. Last, so that it is given back
    /// after the files in progress are closed.
    _lock: LoadLock,
}

/// What a partition knows and has open.
struct PartitionFiles {
    /// The ids of its games, in its files and written in this run, with their checks
    /// (`None`: a file written before games had one).
    known: HashMap<i64, Option<NonZeroI64>>,
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
    writer: SerializedFileWriter<File>,
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
        // Through an Arrow writer, for the Arrow schema it keeps in the file's metadata;
        // row groups come encoded (by an [`Encoder`]) and are appended as they are.
        let (writer, _) =
            ArrowWriter::try_new(file, schema, Some(properties()?))?.into_serialized_writer()?;
        Ok(TempFile { writer, temp, path })
    }

    fn append(&mut self, group: RowGroup) -> Result<(), StoreError> {
        let mut row_group = self.writer.next_row_group()?;
        for chunk in group.chunks {
            chunk.append_to_row_group(&mut row_group)?;
        }
        row_group.close()?;
        Ok(())
    }

    fn publish(self) -> Result<(), StoreError> {
        let file = self.writer.into_inner()?;
        // On disk before it has its name, and the name on disk before the load goes on: a
        // rename can reach the disk before the file's blocks, and after a power cut a
        // published file would then be empty, which every reader of the directory refuses.
        file.sync_data().map_err(StoreError::io(&self.temp))?;
        drop(file);
        if self.path.exists() {
            return Err(StoreError::Target(format!(
                "{} exists already: not overwritten",
                self.path.display()
            )));
        }
        fs::rename(&self.temp, &self.path).map_err(StoreError::io(&self.path))?;
        // The partition's directories too (`moves/year=…/month=…`), which the load may
        // have made: a name in a directory whose own name was lost is lost with it.
        for dir in self.path.ancestors().skip(1).take(3) {
            File::open(dir)
                .and_then(|d| d.sync_all())
                .map_err(StoreError::io(dir))?;
        }
        Ok(())
    }
}

/// The lock on a directory's `.notate-load.lock`, given back when dropped.
///
/// Given back explicitly rather than by closing the file: the lock belongs to the open
/// file, which a process started meanwhile by another thread (`fork`, then `exec`) holds
/// too until its `exec`, so closing our copy alone would leave the directory locked for
/// that moment and a load opened right after would be refused. The other side of it: a
/// child forked while a load runs that does not `exec` and drops its copy of the store would
/// give the parent's lock back too (a store is not meant to cross a `fork`).
struct LoadLock(File);

impl LoadLock {
    /// The lock, or `None` when another load holds it.
    fn take(path: &Path) -> std::io::Result<Option<LoadLock>> {
        let file = File::create(path)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(LoadLock(file))),
            Err(fs::TryLockError::WouldBlock) => Ok(None),
            Err(fs::TryLockError::Error(e)) => Err(e),
        }
    }
}

impl Drop for LoadLock {
    fn drop(&mut self) {
        // On failure the lock goes when the last copy of the open file is closed.
        let _ = self.0.unlock();
    }
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
        let lock = LoadLock::take(&lock_path).map_err(StoreError::io(&lock_path))?;
        let Some(lock) = lock else {
            return Err(StoreError::Target(format!(
                "another notate load is writing to {}",
                dir.display()
            )));
        };
        remove_leftovers(dir)?;
        Ok(ParquetStore {
            dir: dir.to_path_buf(),
            encoder: Encoder::new()?,
            partitions: HashMap::new(),
            inserted: Inserted::default(),
            _lock: lock,
        })
    }

    /// The partition's state, reading the ids of its games the first time.
    fn partition(&mut self, key: Partition) -> Result<&mut PartitionFiles, StoreError> {
        if !self.partitions.contains_key(&key) {
            let games_dir = self.dir.join(partition_dir("games", key));
            let mut files = PartitionFiles {
                known: HashMap::new(),
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

    /// Keeps the games of `games` (indexes into `rows`, all of one partition) that are
    /// not stored yet, noting them as stored; counts the others, as known or as clashes.
    fn new_games(
        &mut self,
        key: Partition,
        rows: &RowBatch,
        games: &[usize],
    ) -> Result<Vec<usize>, StoreError> {
        let known = &mut self.partition(key)?.known;
        let mut new = Vec::with_capacity(games.len());
        let mut clashes = Vec::new();
        for &g in games {
            let game = &rows.games[g];
            match known.entry(game.id) {
                Entry::Vacant(entry) => {
                    entry.insert(NonZeroI64::new(game.id_check));
                    new.push(g);
                }
                // A game of a file without checks is taken for this one.
                Entry::Occupied(entry) if entry.get().is_some_and(|c| c.get() != game.id_check) => {
                    clashes.push(IdClash::of(rows, game));
                }
                Entry::Occupied(_) => {}
            }
        }
        self.inserted.known += (games.len() - new.len() - clashes.len()) as u64;
        self.inserted.clashes.extend(clashes);
        Ok(new)
    }

    /// Appends a partition's encoded games to its open files (opening them first).
    fn write_group(&mut self, rows: &RowBatch, group: EncodedGroup) -> Result<(), StoreError> {
        let key = group.partition;
        let open_now = self
            .partitions
            .values()
            .filter(|p| p.open.is_some())
            .count();
        if open_now >= OPEN_PARTITIONS && self.partitions[&key].open.is_none() {
            // Many months in one input: publish what is open rather than keep many files
            // half written.
            self.publish_all()?;
        }
        self.inserted.games += group.games.len() as u64;
        self.inserted.moves += group
            .games
            .iter()
            .map(|&g| rows.games[g].moves.len() as u64)
            .sum::<u64>();
        let dir = self.dir.clone();
        let part = self.partition(key)?;
        if part.open.is_none() {
            let name = format!("part-{}.parquet", part.next);
            part.next += 1;
            part.open = Some(OpenPart {
                games: TempFile::create(
                    dir.join(partition_dir("games", key)).join(&name),
                    tables::schema(Table::Games, Partitioning::InPaths),
                )?,
                moves: TempFile::create(
                    dir.join(partition_dir("moves", key)).join(&name),
                    tables::schema(Table::Moves, Partitioning::InPaths),
                )?,
                move_rows: 0,
            });
        }
        let open = part.open.as_mut().expect("opened above");
        open.move_rows += group.move_rows.rows;
        open.moves.append(group.move_rows)?;
        open.games.append(group.game_rows)?;
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

    /// Encodes the new games of `indexes` on this thread and writes them.
    fn insert_indexes(
        &mut self,
        rows: &RowBatch,
        indexes: impl Iterator<Item = usize>,
    ) -> Result<(), StoreError> {
        for (key, games) in by_partition(rows, indexes) {
            let new = self.new_games(key, rows, &games)?;
            if !new.is_empty() {
                let group = self.encoder.encode_group(rows, key, new)?;
                self.write_group(rows, group)?;
            }
        }
        Ok(())
    }
}

impl Store for ParquetStore {
    fn insert(&mut self, batch: &RowBatch, games: Range<usize>) -> Result<(), StoreError> {
        self.insert_indexes(batch, games)
    }

    fn insert_rows(&mut self, rows: &mut Rows, games: Range<usize>) -> Result<(), StoreError> {
        let whole = games == (0..rows.batch.len());
        let encoded = match rows.prepared.take() {
            Some(Prepared::Parquet(encoded)) if whole && encoded.games == rows.batch.len() => {
                encoded
            }
            _ => return self.insert_indexes(&rows.batch, games),
        };
        for group in encoded.groups {
            let new = self.new_games(group.partition, &rows.batch, &group.games)?;
            if new.len() == group.games.len() {
                self.write_group(&rows.batch, group)?;
            } else if !new.is_empty() {
                // Some are stored already: the rest is encoded again without them.
                let again = self
                    .encoder
                    .encode_group(&rows.batch, group.partition, new)?;
                self.write_group(&rows.batch, again)?;
            }
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<Inserted, StoreError> {
        self.publish_all()?;
        Ok(std::mem::take(&mut self.inserted))
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

/// Adds the ids and checks in a games file to `ids` (only those columns are read; a file
/// written before games had checks gives ids without one).
fn read_ids(path: &Path, ids: &mut HashMap<i64, Option<NonZeroI64>>) -> Result<(), StoreError> {
    let file = File::open(path).map_err(StoreError::io(path))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file)?;
    let check = builder
        .schema()
        .index_of("id_check")
        .ok()
        .filter(|&i| i > 0);
    let mask = ProjectionMask::roots(builder.parquet_schema(), std::iter::once(0).chain(check));
    let int64s = |batch: &arrow_array::RecordBatch, column: usize| {
        batch
            .column(column)
            .as_any()
            .downcast_ref::<Int64Array>()
            .cloned()
            .ok_or_else(|| {
                StoreError::Target(format!(
                    "{}: {} is not a column of 64-bit integers",
                    path.display(),
                    if column == 0 {
                        "the first column (game ids)"
                    } else {
                        "id_check"
                    }
                ))
            })
    };
    for batch in builder.with_projection(mask).build()? {
        let batch = batch?;
        let id = int64s(&batch, 0)?;
        let checks = check.map(|_| int64s(&batch, 1)).transpose()?;
        for row in 0..id.len() {
            if id.is_null(row) {
                continue;
            }
            let check = checks
                .as_ref()
                .filter(|c| c.is_valid(row))
                .and_then(|c| NonZeroI64::new(c.value(row)));
            ids.insert(id.value(row), check);
        }
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
