//! Cutting a stream into chunks of whole records, so that workers can read the records of a
//! chunk while the next one is read: [`Chunk`], what every splitter hands out; [`Split`],
//! what every splitter does; [`LineSplitter`] for JSON Lines (or any one-record-per-line
//! format) and [`WholeSplitter`] for formats of one text per file (KIF, ICN, JKF). PGN has its
//! own splitter ([`crate::chess::pgn::GameSplitter`]), which knows where a game ends.
//!
//! This is the plumbing of [`crate::format::Reader`] and of the `notate` command's pipeline;
//! a program that reads records uses a format module's `Reader` or `read_str`.

use std::io::{self, Read};
use std::ops::Range;

/// A run of whole records cut from a stream.
#[derive(Clone, Debug, Default)]
pub struct Chunk {
    /// The bytes (whole records only).
    pub bytes: Vec<u8>,
    /// Where each record (or oversized stretch) lies in `bytes`.
    pub games: Vec<Range<usize>>,
    /// Ranges of `games` that were cut short because they passed the size limit.
    pub oversized: Vec<usize>,
    /// Line number (from 1) of `bytes[0]` in the stream.
    pub first_line: u64,
    /// Offset of `bytes[0]` in the (decompressed) stream.
    pub first_byte: u64,
    /// Characters before `bytes[0]` on its line in the stream (0 when the chunk starts at a
    /// line's start, as most do): the columns of its first line count on from there.
    pub column_offset: u64,
}

impl Chunk {
    /// A locator that places offsets into `bytes` in the whole stream.
    pub fn locator(&self) -> crate::error::Locator<'_> {
        crate::error::Locator::in_stream(&self.bytes, self.first_line, self.first_byte as usize)
            .after_chars(self.column_offset)
    }
}

/// A splitter: hands out the chunks of a stream in order, `None` at its end.
pub trait Split: Send {
    /// The next chunk of whole records, `None` at the end.
    fn next_chunk(&mut self) -> io::Result<Option<Chunk>>;

    /// Gives back the bytes of a chunk that has been read, to hold a later chunk (a
    /// splitter that has no use for them drops them).
    fn recycle(&mut self, bytes: Vec<u8>) {
        drop(bytes);
    }

    /// From now on, at each pause of the input (a read that "would block": a
    /// [`Feed`](crate::format::Feed)'s with no more bytes yet), ends the record its bytes so
    /// far end where the format can tell one that would end no earlier (a PGN game's
    /// result and a line break), rather than wait for the next (see
    /// [`Feed::live`](crate::format::Feed::live)). A format whose records end where they
    /// can be seen to (a line) has nothing to do.
    fn cut_at_pauses(&mut self) {}
}

impl<R: Read + Send> Split for LineSplitter<R> {
    fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        LineSplitter::next_chunk(self)
    }
}

/// Reads a whole stream as one record (formats of one game per file: KIF, KI2, JKF, ICN …),
/// up to `max_bytes`; a longer stream is one oversized record of its first `max_bytes`. A
/// blank stream is a record too: it is the format's to say what an empty text is (an empty
/// ICN text is a game, as the reference reads it; an empty JKF text is an error).
///
/// ```
/// use notate::chunk::WholeSplitter;
/// let mut whole = WholeSplitter::new(&b"\n\nw K5,1|k5,8\n"[..], 1 << 20);
/// let chunk = whole.next_chunk().unwrap().unwrap();
/// assert_eq!(chunk.games, vec![0..14]);
/// assert!(whole.next_chunk().unwrap().is_none());
/// ```
pub struct WholeSplitter<R> {
    input: Option<R>,
    /// What has been read so far: kept across a read that fails for now (a
    /// [`crate::format::Feed`] waiting for more bytes), so that a later call goes on.
    bytes: Vec<u8>,
    max_bytes: usize,
    size_hint: usize,
}

impl<R: Read> WholeSplitter<R> {
    /// A splitter that reads `input` whole, up to `max_bytes`.
    pub fn new(input: R, max_bytes: usize) -> Self {
        WholeSplitter {
            input: Some(input),
            bytes: Vec::new(),
            max_bytes,
            size_hint: 16 << 10,
        }
    }

    /// The same splitter, told the stream's size (a file's), so that its text is read into a
    /// buffer of the right size at once.
    pub fn with_size_hint(mut self, bytes: u64) -> Self {
        self.size_hint = bytes.min(self.max_bytes as u64) as usize + 1;
        self
    }

    /// The one chunk of the stream, then `None`.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        let Some(input) = self.input.as_mut() else {
            return Ok(None);
        };
        if self.bytes.capacity() == 0 {
            // Most whole texts are records of a few kilobytes.
            self.bytes.reserve(self.size_hint);
        }
        let limit = (self.max_bytes + 1).saturating_sub(self.bytes.len()) as u64;
        input.take(limit).read_to_end(&mut self.bytes)?;
        self.input = None;
        let mut bytes = std::mem::take(&mut self.bytes);
        let oversized = bytes.len() > self.max_bytes;
        bytes.truncate(self.max_bytes);
        Ok(Some(Chunk {
            games: std::iter::once(0..bytes.len()).collect(),
            oversized: if oversized { vec![0] } else { Vec::new() },
            bytes,
            first_line: 1,
            first_byte: 0,
            column_offset: 0,
        }))
    }
}

impl<R: Read + Send> Split for WholeSplitter<R> {
    fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        WholeSplitter::next_chunk(self)
    }
}

/// Reads a stream and hands out [`Chunk`]s of whole lines, one record per non-blank line.
///
/// ```
/// use notate::chunk::LineSplitter;
/// let mut lines = LineSplitter::new(&b"{\"a\":1}\n\n{\"a\":2}"[..], 1 << 16);
/// let chunk = lines.next_chunk().unwrap().unwrap();
/// assert_eq!(chunk.games.len(), 2);
/// assert_eq!(&chunk.bytes[chunk.games[1].clone()], b"{\"a\":2}");
/// ```
pub struct LineSplitter<R> {
    input: R,
    buf: Vec<u8>,
    eof: bool,
    first_line: u64,
    first_byte: u64,
    chunk_bytes: usize,
    /// A read that failed after lines known to be whole were read (ended by a line break):
    /// they go out first, then this.
    failed: Option<io::Error>,
}

impl<R: Read> LineSplitter<R> {
    /// A splitter handing out chunks of about `chunk_bytes`.
    pub fn new(input: R, chunk_bytes: usize) -> Self {
        LineSplitter {
            input,
            buf: Vec::new(),
            eof: false,
            first_line: 1,
            first_byte: 0,
            chunk_bytes: chunk_bytes.max(1),
            failed: None,
        }
    }

    /// The next chunk, `None` at the end.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        if let Some(failed) = self.failed.take() {
            return Err(failed);
        }
        'fill: while !self.eof && self.buf.len() < self.chunk_bytes {
            let old = self.buf.len();
            self.buf.resize(old + self.chunk_bytes, 0);
            let n = loop {
                match self.input.read(&mut self.buf[old..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        self.buf.truncate(old);
                        // The whole lines read before the failure go out first, and the
                        // error with the next call. "Would block" is no failure (a `Feed`'s
                        // input has no more yet): the whole lines go out at once (a live
                        // stream's last record is not held for a chunk's worth more), and
                        // the next call reads on.
                        if memchr::memrchr(b'\n', &self.buf).is_none() {
                            return Err(e);
                        }
                        if e.kind() != io::ErrorKind::WouldBlock {
                            self.failed = Some(e);
                        }
                        break 'fill;
                    }
                }
            };
            self.buf.truncate(old + n);
            self.eof = n == 0;
        }
        let end = if self.eof {
            self.buf.len()
        } else {
            match memchr::memrchr(b'\n', &self.buf) {
                Some(i) => i + 1,
                // One line longer than a chunk: read on until it ends.
                None => {
                    self.chunk_bytes *= 2;
                    return self.next_chunk();
                }
            }
        };
        if end == 0 {
            return Ok(None);
        }
        let rest = self.buf.split_off(end);
        let bytes = std::mem::replace(&mut self.buf, rest);
        let mut games = Vec::new();
        let mut start = 0;
        for nl in memchr::memchr_iter(b'\n', &bytes).chain(std::iter::once(bytes.len())) {
            if start < nl && bytes[start..nl].iter().any(|b| !b.is_ascii_whitespace()) {
                games.push(start..nl);
            }
            start = nl + 1;
            if start >= bytes.len() {
                break;
            }
        }
        let chunk = Chunk {
            first_line: self.first_line,
            first_byte: self.first_byte,
            column_offset: 0,
            games,
            oversized: Vec::new(),
            bytes,
        };
        self.first_line += memchr::memchr_iter(b'\n', &chunk.bytes).count() as u64;
        self.first_byte += chunk.bytes.len() as u64;
        Ok(Some(chunk))
    }
}

/// How long a [`Paced`] stream must stay silent for its silence to be a pause: long beside
/// the time a program writing into a pipe takes between two writes, and a decompressor
/// between two blocks (bzip2 decodes blocks of 900 KB, some tens of milliseconds each on a
/// busy core: a pause that is not one cuts a chunk smaller, and would cut a live game before
/// a note sent after its result); short beside what a person watching a broadcast notices.
pub const PAUSE: std::time::Duration = std::time::Duration::from_millis(100);

/// A stream that may pause (a pipe, a socket: a broadcast sends its games as they are played,
/// and waits), read on a thread of its own so that a pause can be told: a read that finds no
/// bytes within [`PAUSE`] fails with [`io::ErrorKind::WouldBlock`], which every splitter takes
/// as a pause, as a [`Feed`](crate::format::Feed)'s (it hands out the games known to be whole
/// at once, not after a chunk's worth more; told [`Split::cut_at_pauses`], a PGN game its
/// result ended), and goes on at the next call. Read with blocking reads, a broadcast gave
/// nothing until it ended. Memory stays flat: a few buffers are in flight. A source whose
/// read panics on that thread gives an error, not an end: its input never looks whole.
///
/// ```
/// use std::io::{ErrorKind, Write};
/// use notate::chess::pgn::GameSplitter;
/// use notate::chunk::Paced;
/// let (source, mut writer) = std::io::pipe().unwrap();
/// let mut games = GameSplitter::new(Paced::spawn(source).unwrap(), 1 << 20);
/// writer.write_all(b"1. e4 *\n\n1. d4").unwrap();
/// // The pipe pauses: the first game goes out, the second may go on.
/// let chunk = loop {
///     match games.next_chunk() {
///         Err(e) if e.kind() == ErrorKind::WouldBlock => continue,
///         read => break read.unwrap().unwrap(),
///     }
/// };
/// assert_eq!(&chunk.bytes[chunk.games[0].clone()], b"1. e4 *\n\n");
/// drop(writer);
/// assert_eq!(games.next_chunk().unwrap().unwrap().games.len(), 1);
/// ```
pub struct Paced {
    /// Buffers the thread filled, each with the length it filled.
    bytes: std::sync::mpsc::Receiver<io::Result<(Vec<u8>, usize)>>,
    /// Buffers read, back to the thread: no allocation per read.
    spare: std::sync::mpsc::SyncSender<Vec<u8>>,
    current: Vec<u8>,
    len: usize,
    at: usize,
    ended: bool,
}

impl Paced {
    /// Starts reading `source` on a thread of its own (which ends at the source's end or
    /// failure, or at its next read once this is dropped); the reader of its bytes.
    pub fn spawn<R: Read + Send + 'static>(mut source: R) -> io::Result<Paced> {
        use std::sync::mpsc::sync_channel;
        // Each buffer as large as a `BufReader`'s that a caller may put the source in, which
        // a read that large skips.
        const BUFFERS: usize = 4;
        let (tx, rx) = sync_channel(BUFFERS);
        let (spare_tx, spare_rx) = sync_channel::<Vec<u8>>(BUFFERS + 2);
        std::thread::Builder::new()
            .name("notate-paced".into())
            .spawn(move || loop {
                let mut buffer = spare_rx.try_recv().unwrap_or_else(|_| vec![0; 256 << 10]);
                let sent = match source.read(&mut buffer) {
                    // The end is said, not told by the thread's going: a thread that
                    // panics goes too, and its input must not look whole.
                    Ok(0) => {
                        let _ = tx.send(Ok((buffer, 0)));
                        return;
                    }
                    Ok(n) => tx.send(Ok((buffer, n))),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    // A descriptor left non-blocking by whoever started the program.
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                        std::thread::sleep(PAUSE / 4);
                        continue;
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                // Nobody reads on.
                if sent.is_err() {
                    return;
                }
            })?;
        Ok(Paced {
            bytes: rx,
            spare: spare_tx,
            current: Vec::new(),
            len: 0,
            at: 0,
            ended: false,
        })
    }
}

impl io::BufRead for Paced {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        use std::sync::mpsc::RecvTimeoutError;
        if self.at == self.len && !self.ended {
            match self.bytes.recv_timeout(PAUSE) {
                Ok(Ok((_, 0))) => self.ended = true,
                Ok(Ok((bytes, len))) => {
                    let read = std::mem::replace(&mut self.current, bytes);
                    // (Not the empty one it starts with: a read into it would be the end.)
                    if !read.is_empty() {
                        let _ = self.spare.try_send(read);
                    }
                    (self.len, self.at) = (len, 0);
                }
                Ok(Err(e)) => {
                    self.ended = true;
                    return Err(e);
                }
                Err(RecvTimeoutError::Timeout) => return Err(io::ErrorKind::WouldBlock.into()),
                Err(RecvTimeoutError::Disconnected) => {
                    self.ended = true;
                    return Err(io::Error::other(
                        "the thread reading the input stopped before its end",
                    ));
                }
            }
        }
        Ok(&self.current[self.at..self.len])
    }

    fn consume(&mut self, amount: usize) {
        self.at = (self.at + amount).min(self.len);
    }
}

impl Read for Paced {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = io::BufRead::fill_buf(self)?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        io::BufRead::consume(self, n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gives `bytes`, then panics (`panics`) or ends.
    struct Source {
        bytes: Option<&'static [u8]>,
        panics: bool,
    }

    impl Read for Source {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            match self.bytes.take() {
                Some(bytes) => {
                    out[..bytes.len()].copy_from_slice(bytes);
                    Ok(bytes.len())
                }
                None if self.panics => panic!("the source failed (a test's panic)"),
                None => Ok(0),
            }
        }
    }

    /// Reads on through pauses until the end or an error.
    fn read_all(paced: &mut Paced) -> io::Result<Vec<u8>> {
        let mut all = Vec::new();
        let mut buffer = [0; 64];
        loop {
            match paced.read(&mut buffer) {
                Ok(0) => return Ok(all),
                Ok(n) => all.extend_from_slice(&buffer[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// A paced source that gives one game, then ends or panics.
    fn one_game(panics: bool) -> Paced {
        let bytes = Some(&b"1. e4 *\n"[..]);
        Paced::spawn(Source { bytes, panics }).unwrap()
    }

    #[test]
    fn a_source_that_ends_gives_its_bytes_then_the_end() {
        let mut paced = one_game(false);
        assert_eq!(read_all(&mut paced).unwrap(), b"1. e4 *\n");
        assert_eq!(paced.read(&mut [0; 8]).unwrap(), 0);
    }

    #[test]
    fn a_reading_thread_that_panics_is_an_error_not_the_end() {
        let error = read_all(&mut one_game(true)).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the thread reading the input stopped before its end"
        );
    }
}
