//! Opening inputs: files or stdin, decompressed on the fly, with the format detected.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use notate::chunk::Paced;
use notate::convert::{Compression, Format};

use crate::formats::InputFormat;

/// An input named on the command line (`-` or nothing is stdin).
#[derive(Clone, Debug)]
pub struct InputName {
    pub path: Option<PathBuf>,
}

impl InputName {
    /// The name used in messages.
    pub fn display(&self) -> String {
        match &self.path {
            Some(p) => p.display().to_string(),
            None => "<stdin>".to_string(),
        }
    }
}

/// Counts the bytes read from the raw (possibly compressed) source, for the progress bar.
pub struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = loop {
            match self.inner.read(buf) {
                // A descriptor left non-blocking by whoever started notate (stdin shared with
                // a program that set it so): waited for here, under the decompressors and the
                // format's detection, which would take "no bytes yet" for a failure.
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                read => break read?,
            }
        };
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// An opened input: a decompressed byte stream, its format, and its length when known before
/// reading (a file that is not compressed).
pub struct Opened {
    pub reader: Box<dyn BufRead + Send>,
    pub format: InputFormat,
    pub length: Option<u64>,
}

/// Opens an input, decompresses it and detects its format unless `from` says it.
pub fn open(
    name: &InputName,
    from: Option<InputFormat>,
    counter: Arc<AtomicU64>,
) -> Result<Opened> {
    // A small file (a shogi record, an ICN game: often thousands of them) gets a buffer of
    // its size, not 256 KiB: the allocation, not the reading, would be the cost.
    let (raw, capacity, length): (Box<dyn Read + Send>, usize, Option<u64>) = match &name.path {
        Some(path) => {
            let file =
                File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
            let length = file
                .metadata()
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len());
            let capacity = length.unwrap_or(u64::MAX).clamp(4 << 10, 256 << 10) as usize;
            (Box::new(file), capacity, length)
        }
        None => (Box::new(io::stdin()), 256 << 10, stdin_file_length()),
    };
    // A pipe, a socket or a terminal may pause (a broadcast sends its games as they are
    // played): its bytes are read on a thread of their own, so that a pause can be told.
    let pipe = length.is_none();
    let mut raw = BufReader::with_capacity(
        capacity,
        Counting {
            inner: raw,
            count: counter,
        },
    );
    let head = raw.fill_buf().context("cannot read input")?;
    let decoded: Box<dyn Read + Send> = match Compression::detect(head) {
        Some(Compression::Zstd) => {
            Box::new(zstd::Decoder::with_buffer(raw).context("bad zstd stream")?)
        }
        Some(Compression::Gzip) => Box::new(flate2::bufread::MultiGzDecoder::new(raw)),
        Some(Compression::Bzip2) => Box::new(bzip2::bufread::MultiBzDecoder::new(raw)),
        // Not compressed: the raw buffer serves as the reader's (unless its name says it is).
        None => {
            if let Some(named) = name.path.as_deref().and_then(Compression::from_path) {
                bail!(
                    "{}: not {named} data (its first bytes are no {named} header)",
                    name.display()
                );
            }
            let mut reader: Box<dyn BufRead + Send> = Box::new(raw);
            let format = match from {
                Some(f) => f,
                None => detect(name.path.as_deref(), &mut reader)?,
            };
            return Ok(Opened {
                reader: if pipe { paced(reader)? } else { reader },
                format,
                length,
            });
        }
    };
    let mut reader: Box<dyn BufRead + Send> =
        Box::new(BufReader::with_capacity(256 << 10, decoded));
    let format = match from {
        Some(f) => f,
        None => detect(name.path.as_deref(), &mut reader)?,
    };
    Ok(Opened {
        reader: if pipe { paced(reader)? } else { reader },
        format,
        length: None,
    })
}

/// A pipe's bytes, read on a thread of their own, so that its pauses are told (see
/// [`Paced`]: with a blocking read from the pipe itself, a live broadcast gave nothing until
/// it ended).
fn paced(reader: Box<dyn BufRead + Send>) -> Result<Box<dyn BufRead + Send>> {
    let paced = Paced::spawn(reader).context("cannot start a thread to read the input")?;
    Ok(Box::new(paced))
}

/// The length of stdin when it is a regular file (`notate check < games.pgn`), which has no
/// pauses to tell.
fn stdin_file_length() -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
        File::from(fd)
            .metadata()
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.len())
    }
    #[cfg(not(unix))]
    None
}

/// The format an input's file name says (`.pgn.zst`, `.egd.jsonl`, `.icn`, `.kif` …), if any.
pub fn format_of_path(path: &Path) -> Option<InputFormat> {
    Format::from_path(path).and_then(InputFormat::of)
}

/// The format of an input: from its name, else from its first bytes.
fn detect(path: Option<&Path>, reader: &mut Box<dyn BufRead + Send>) -> Result<InputFormat> {
    if let Some(format) = path.and_then(format_of_path) {
        return Ok(format);
    }
    let head = reader.fill_buf().context("cannot read input")?;
    let name = || path.map_or("<stdin>".into(), |p| p.display().to_string());
    match Format::detect(head) {
        Ok(format) => InputFormat::of(format)
            .with_context(|| format!("{}: {format} is written by notate, not read", name())),
        Err(e) => bail!(
            "cannot tell the format of {}: {}; say it with --from",
            name(),
            e.message
        ),
    }
}
