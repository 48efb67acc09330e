//! Opening inputs: files or stdin, decompressed on the fly, with the format detected.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};
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
    let counted = Counting {
        inner: raw,
        count: counter,
    };
    // A pipe, a socket or a terminal may pause (a broadcast sends its games as they are
    // played): its bytes are read on a thread of their own, so that a pause can be told
    // (see `Paced`), and its first bytes are gathered up to a pause after a whole line, for
    // what they tell (a first read may bring a byte of a gzip header, or a BOM alone).
    // Plain, its pauses reach the splitter through the buffer; compressed, the decompressor
    // waits them out, and its output is read on a thread of its own in turn (`paced`).
    let pipe = length.is_none();
    let inner: Box<dyn Read + Send> = if pipe {
        let mut paced = Paced::spawn(counted).context("cannot start a thread to read the input")?;
        let head = first_bytes(&mut paced).context("cannot read input")?;
        if Compression::detect(&head).is_some() {
            Box::new(Cursor::new(head).chain(Waiting(paced)))
        } else {
            Box::new(Cursor::new(head).chain(paced))
        }
    } else {
        Box::new(counted)
    };
    let mut raw = BufReader::with_capacity(capacity, inner);
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
                reader,
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

/// How many first bytes tell an input's compression and format ([`Format::detect`] looks at
/// no more: 4 KiB of a text, 8 KiB for a shogi record's lines).
const HEAD_BYTES: usize = 8192;

/// A pipe's first bytes: up to [`HEAD_BYTES`], its end, or its first pause once they may
/// tell something (see [`may_go_on`]).
fn first_bytes(paced: &mut Paced) -> io::Result<Vec<u8>> {
    let mut head = Vec::new();
    while head.len() < HEAD_BYTES {
        match paced.fill_buf() {
            Ok([]) => break,
            Ok(bytes) => {
                let n = bytes.len().min(HEAD_BYTES - head.len());
                head.extend_from_slice(&bytes[..n]);
                paced.consume(n);
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock && !may_go_on(&head) => break,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
    }
    Ok(head)
}

/// Whether `head` tells nothing yet: the start of a compressed stream's header, which only
/// its next bytes tell, or of a text with no whole line (blanks and a byte-order mark aside:
/// `{` may open JSON or a PGN comment).
fn may_go_on(head: &[u8]) -> bool {
    const STARTS: [&[u8]; 4] = [b"\xEF\xBB\xBF", b"\x28\xB5\x2F\xFD", b"\x1F\x8B", b"BZh1"];
    let text = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    STARTS
        .iter()
        .any(|start| head.len() < start.len() && start.starts_with(head))
        || match text.iter().position(|b| !b.is_ascii_whitespace()) {
            None => true,
            Some(first) => !text[first..].contains(&b'\n'),
        }
}

/// A paced pipe read as a blocking one, under a decompressor, which would take "no bytes
/// yet" for a failure.
struct Waiting(Paced);

impl Read for Waiting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.0.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                read => return read,
            }
        }
    }
}

/// A compressed pipe's decompressed bytes, read on a thread of their own, so that its pauses
/// are told (see [`Paced`]: with a blocking read from the pipe itself, a live broadcast gave
/// nothing until it ended).
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
