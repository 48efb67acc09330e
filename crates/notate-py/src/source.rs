//! What `read_pgn` reads, as one `Read`: text, bytes, a binary file object (read in pieces,
//! the GIL taken only for each `read` call), or a path; bytes, files and file objects
//! decompressed when their first bytes are zstd, gzip or bzip2, whatever their names say.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use notate::convert::Compression;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

use crate::errors::{caused, fs_decoded, usage};

/// The bytes of a source, for a reader that runs without the GIL.
pub type Input = Box<dyn Read + Send>;

/// An opened source: its bytes, its path when it is one (its name may tell the format), and
/// its length when known before reading (bytes, text, a file that is not compressed: what lets
/// a reader cut its last chunks smaller, [`notate::chess::pgn::GameSplitter::input_bytes`]).
pub struct Opened {
    pub input: Input,
    pub path: Option<PathBuf>,
    pub length: Option<u64>,
    /// A file object, which may pause (a pipe, a socket: see [`notate::chunk::Paced`]).
    pub stream: bool,
    /// What a file object's `read()` raised, once it has (see [`Raised::error`]).
    pub raised: Raised,
}

/// The exception a file object's `read()` raised: its reading fails with an I/O error on a
/// thread without the GIL, and the caller raises the exception once it reaches that error.
#[derive(Clone, Default)]
pub struct Raised(Arc<Mutex<Option<PyErr>>>);

impl Raised {
    fn keep(&self, error: PyErr) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(error);
    }

    /// What to raise for `error`, notate's error for a source that could not be read on: the
    /// exception `read()` raised, as it is when it is no `Exception` (`SystemExit`,
    /// `GeneratorExit` must go on up, not become a failed read), else as the `__cause__` of
    /// `error`.
    pub fn error(&self, py: Python<'_>, error: PyErr) -> PyErr {
        let raised = self.0.lock().unwrap_or_else(|e| e.into_inner()).take();
        match raised {
            Some(raised) if !raised.is_instance_of::<pyo3::exceptions::PyException>(py) => raised,
            Some(raised) => {
                error.set_cause(py, Some(raised));
                error
            }
            None => error,
        }
    }
}

/// Opens `source`: `bytes`/`bytearray`/`memoryview` (copied), `str` (text; a path when it is one line that
/// names an existing file, or ends in `.pgn`, `.zst`, `.gz` or `.bz2`), an `os.PathLike`, or an
/// object with a `read` method (a binary file: `open(path, "rb")`, `io.BytesIO`, a socket's
/// file, a decompressor's stream), with its path, its length and what its `read()` raises.
pub fn open_named(source: &Bound<'_, PyAny>) -> PyResult<Opened> {
    let in_memory = |bytes: Vec<u8>| match Compression::detect(&bytes) {
        Some(compression) => Ok(Opened {
            input: decompressed(Some(compression), Cursor::new(bytes))
                .map_err(|e| usage(format!("the {compression} data cannot be read: {e}")))?,
            length: None,
            path: None,
            stream: false,
            raised: Raised::default(),
        }),
        None => Ok(Opened {
            length: Some(bytes.len() as u64),
            input: Box::new(Cursor::new(bytes)),
            path: None,
            stream: false,
            raised: Raised::default(),
        }),
    };
    if let Ok(bytes) = source.cast::<PyBytes>() {
        return in_memory(bytes.as_bytes().to_vec());
    }
    if let Ok(bytes) = source.cast::<PyByteArray>() {
        return in_memory(bytes.to_vec());
    }
    if source.is_instance_of::<pyo3::types::PyMemoryView>() {
        let py = source.py();
        let bytes = py
            .get_type::<PyBytes>()
            .call1((source,))
            .map_err(|e| caused(py, e, "the memoryview could not be read"))?;
        return in_memory(bytes.cast::<PyBytes>()?.as_bytes().to_vec());
    }
    if let Ok(text) = source.cast::<PyString>() {
        // A lone surrogate (`"\ud800"`) is no Unicode text: refused as notate's error, not
        // Python's UnicodeEncodeError.
        let text = text.to_cow().map_err(|_| {
            usage("the text holds a lone surrogate (U+D800 to U+DFFF): it is not Unicode text")
        })?;
        // Text is never compressed: no bytes to look at.
        return match path_in(&text) {
            Some(path) => open_path(path),
            None => Ok(Opened {
                length: Some(text.len() as u64),
                input: Box::new(Cursor::new(text.into_owned().into_bytes())),
                path: None,
                stream: false,
                raised: Raised::default(),
            }),
        };
    }
    let os = source.py().import("os")?;
    if source.is_instance(&os.getattr("PathLike")?)? {
        // A PathBuf from the decoded str: a name that is not UTF-8 is its bytes again.
        return open_path(fs_decoded(source, "source")?.extract::<PathBuf>()?);
    }
    // A `read` that raises on being looked up is the source's failure, said as notate's.
    let readable = source
        .hasattr("read")
        .map_err(|e| caused(source.py(), e, "the source could not be read"))?;
    if readable {
        let raised = Raised::default();
        // `read1(n)` gives what a buffered stream has, or one read of what it wraps, where
        // `read(n)` waits for all n bytes: a pipe's or a socket's pause is then seen.
        let read1 = source
            .hasattr("read1")
            .map_err(|e| caused(source.py(), e, "the source could not be read"))?;
        let file = PyFile {
            file: source.clone().unbind(),
            method: if read1 { "read1" } else { "read" },
            raised: raised.clone(),
        };
        return Ok(Opened {
            input: Box::new(Sniffed::Unread(Some(Box::new(file)))),
            path: None,
            length: None,
            stream: true,
            raised,
        });
    }
    Err(usage(format!(
        "a source is text, bytes, a path or a binary file object, not {}",
        source.get_type().name()?
    )))
}

/// The path a string names, when it is one: a single line that is an existing file (or
/// directory, refused as one) or ends in a PGN or compressed file's extension (so that a
/// missing file is an error, not a text).
fn path_in(text: &str) -> Option<PathBuf> {
    if text.contains('\n') || text.is_empty() {
        return None;
    }
    let path = Path::new(text.trim());
    let lower = text.trim().to_ascii_lowercase();
    let named = [".pgn", ".zst", ".gz", ".bz2"]
        .iter()
        .any(|ext| lower.ends_with(ext));
    (named || path.exists()).then(|| path.to_path_buf())
}

/// Opens a file, decompressed when its first bytes say so (and refused when its name says a
/// compression its bytes do not have); its length is known when it is not compressed.
fn open_path(path: PathBuf) -> PyResult<Opened> {
    let file = File::open(&path).map_err(|e| {
        pyo3::exceptions::PyOSError::new_err(format!("cannot open {}: {e}", path.display()))
    })?;
    // A directory opens, and fails only when read: said here, as the OSError it is.
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(pyo3::exceptions::PyIsADirectoryError::new_err(format!(
            "cannot read {}: it is a directory",
            path.display()
        )));
    }
    let length = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    let mut file = BufReader::with_capacity(256 << 10, file);
    let cannot = |e: io::Error| {
        pyo3::exceptions::PyOSError::new_err(format!("cannot read {}: {e}", path.display()))
    };
    let compression = Compression::detect(file.fill_buf().map_err(cannot)?);
    if let (None, Some(named)) = (compression, Compression::from_path(&path)) {
        return Err(cannot(io::Error::other(format!(
            "not {named} data (its first bytes are no {named} header)"
        ))));
    }
    let length = length.filter(|_| compression.is_none());
    let input = decompressed(compression, file).map_err(cannot)?;
    Ok(Opened {
        input,
        path: Some(path),
        length,
        stream: false,
        raised: Raised::default(),
    })
}

/// `input` decompressed as `compression` says (`input` itself when it says none).
fn decompressed(
    compression: Option<Compression>,
    input: impl BufRead + Send + 'static,
) -> io::Result<Input> {
    Ok(match compression {
        Some(Compression::Zstd) => Box::new(zstd::Decoder::with_buffer(input)?),
        Some(Compression::Gzip) => Box::new(flate2::bufread::MultiGzDecoder::new(input)),
        Some(Compression::Bzip2) => Box::new(bzip2::bufread::MultiBzDecoder::new(input)),
        None => Box::new(input),
    })
}

/// A stream whose compression is told by its first bytes, read at its first `read` (on the
/// reading thread, where a file object's errors are met as any read's).
enum Sniffed {
    Unread(Option<Input>),
    Reading(Input),
}

impl Read for Sniffed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Sniffed::Unread(unread) = self {
            let mut input = unread.take().unwrap_or_else(|| Box::new(io::empty()));
            // At least the 4 bytes a magic number takes, however few each read gives; each
            // read asks for as much as the caller's (file objects may give what they hold
            // whatever they are asked, and more than asked is refused).
            let mut head = Vec::new();
            let mut piece = vec![0u8; buf.len().max(4)];
            while head.len() < 4 {
                match input.read(&mut piece) {
                    Ok(0) => break,
                    Ok(n) => head.extend_from_slice(&piece[..n]),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        *self = Sniffed::Reading(Box::new(io::empty()));
                        return Err(e);
                    }
                }
            }
            let compression = Compression::detect(&head);
            let whole = BufReader::new(Cursor::new(head).chain(input));
            *self = Sniffed::Reading(decompressed(compression, whole)?);
        }
        match self {
            Sniffed::Reading(input) => input.read(buf),
            Sniffed::Unread(_) => Ok(0),
        }
    }
}

/// A Python binary file object as a `Read`: each `read` takes the GIL for one `read(n)` call.
struct PyFile {
    file: Py<PyAny>,
    /// `read1` when the object has it, else `read`.
    method: &'static str,
    /// Where an exception of `read()` is kept for the caller.
    raised: Raised,
}

impl Read for PyFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let chunk = self
                .file
                .call_method1(py, self.method, (buf.len(),))
                .map_err(|e| {
                    // The exception is raised where the error is met: a KeyboardInterrupt
                    // (Ctrl-C while Python ran read()) as itself, as `SystemExit` is, not as a
                    // failed game (see `Raised::error`).
                    let error = io::Error::other(e.to_string());
                    self.raised.keep(e);
                    error
                })?;
            let chunk = chunk.bind(py);
            // bytes, or a bytearray or memoryview (as some readers give), copied as bytes.
            let copied;
            let bytes: &[u8] =
                if let Ok(bytes) = chunk.cast::<PyBytes>() {
                    bytes.as_bytes()
                } else if chunk.is_instance_of::<PyByteArray>()
                    || chunk.is_instance_of::<pyo3::types::PyMemoryView>()
                {
                    copied = py.get_type::<PyBytes>().call1((chunk,)).map_err(|e| {
                        let error = io::Error::other(e.to_string());
                        self.raised.keep(e);
                        error
                    })?;
                    copied
                        .cast::<PyBytes>()
                        .map_err(|e| io::Error::other(e.to_string()))?
                        .as_bytes()
                } else if chunk.is_none() {
                    // A non-blocking stream's "nothing yet", not its end: reading on would
                    // cut the input short in silence.
                    return Err(io::Error::other(
                        "the file object's read() gave None (a non-blocking stream with no \
                         data yet): give a blocking one",
                    ));
                } else {
                    return Err(io::Error::other(format!(
                    "the file object's read() gave {}, not bytes: open it in binary mode (\"rb\")",
                    chunk.get_type().name().map_or("?".into(), |n| n.to_string())
                )));
                };
            // A file object may give more than asked; what does not fit would be lost.
            if bytes.len() > buf.len() {
                return Err(io::Error::other(
                    "the file object's read(n) gave more than n bytes",
                ));
            }
            buf[..bytes.len()].copy_from_slice(bytes);
            Ok(bytes.len())
        })
    }
}
