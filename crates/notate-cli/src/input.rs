//! Opening inputs: files or stdin, decompressed on the fly, with the format detected.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::{bail, Context, Result};

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
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// The compression of a stream, told by its first bytes.
fn compression(head: &[u8]) -> Option<&'static str> {
    if head.starts_with(&[0x28, 0xB5, 0x2F, 0xFD]) {
        Some("zst")
    } else if head.starts_with(&[0x1F, 0x8B]) {
        Some("gz")
    } else if head.starts_with(b"BZh") {
        Some("bz2")
    } else {
        None
    }
}

/// An opened input: a decompressed byte stream and its format.
pub struct Opened {
    pub reader: Box<dyn BufRead + Send>,
    pub format: InputFormat,
}

/// Opens an input, decompresses it and detects its format unless `from` says it.
pub fn open(
    name: &InputName,
    from: Option<InputFormat>,
    counter: Arc<AtomicU64>,
) -> Result<Opened> {
    // A small file (a shogi record, an ICN game: often thousands of them) gets a buffer of
    // its size, not 256 KiB: the allocation, not the reading, would be the cost.
    let (raw, capacity): (Box<dyn Read + Send>, usize) = match &name.path {
        Some(path) => {
            let file =
                File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
            let size = file.metadata().map_or(u64::MAX, |m| m.len());
            (Box::new(file), size.clamp(4 << 10, 256 << 10) as usize)
        }
        None => (Box::new(io::stdin()), 256 << 10),
    };
    let mut raw = BufReader::with_capacity(
        capacity,
        Counting {
            inner: raw,
            count: counter,
        },
    );
    let head = raw.fill_buf().context("cannot read input")?;
    let decoded: Box<dyn Read + Send> = match compression(head) {
        Some("zst") => Box::new(zstd::Decoder::with_buffer(raw).context("bad zstd stream")?),
        Some("gz") => Box::new(flate2::bufread::MultiGzDecoder::new(raw)),
        Some("bz2") => Box::new(bzip2::bufread::MultiBzDecoder::new(raw)),
        // Not compressed: the raw buffer serves as the reader's.
        _ => {
            let mut reader: Box<dyn BufRead + Send> = Box::new(raw);
            let format = match from {
                Some(f) => f,
                None => detect(name.path.as_deref(), &mut reader)?,
            };
            return Ok(Opened { reader, format });
        }
    };
    let mut reader: Box<dyn BufRead + Send> =
        Box::new(BufReader::with_capacity(256 << 10, decoded));
    let format = match from {
        Some(f) => f,
        None => detect(name.path.as_deref(), &mut reader)?,
    };
    Ok(Opened { reader, format })
}

/// The format an input's file name says (`.pgn.zst`, `.egd.jsonl`, `.icn`, `.kif` …), if any.
pub fn format_of_path(path: &Path) -> Option<InputFormat> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let stem = name
        .trim_end_matches(".zst")
        .trim_end_matches(".gz")
        .trim_end_matches(".bz2");
    [
        (".pgn", InputFormat::Pgn),
        (".egd", InputFormat::Egd),
        (".egd.jsonl", InputFormat::Egd),
        (".jsonchess", InputFormat::Jsonchess),
        (".jsonchess.jsonl", InputFormat::Jsonchess),
        (".icn", InputFormat::Icn),
        (".icn.json", InputFormat::IcnJson),
        (".icn.jsonl", InputFormat::IcnJson),
    ]
    .into_iter()
    .find(|(ext, _)| stem.ends_with(ext))
    .map(|(_, f)| f)
    .or_else(|| format_of_name(stem))
}

/// The format of an input: from its name, else from its first bytes.
fn detect(path: Option<&Path>, reader: &mut Box<dyn BufRead + Send>) -> Result<InputFormat> {
    if let Some(format) = path.and_then(format_of_path) {
        return Ok(format);
    }
    let head = reader.fill_buf().context("cannot read input")?;
    if let Some(format) = shogi_content(head) {
        return Ok(format);
    }
    let text = String::from_utf8_lossy(&head[..head.len().min(4096)]);
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('{') {
        if icn_json_keys(trimmed) {
            return Ok(InputFormat::IcnJson);
        }
        if trimmed.starts_with("{\"tags\"") {
            return Ok(InputFormat::Json);
        }
        if trimmed.starts_with("{\"game_tags\"") {
            // EGD's moves are an object of plies, jsonchess's an array of packed strings
            // (piece tracks also start so, but notate does not read them back).
            return match moves_opener(trimmed) {
                Some(b'{') => Ok(InputFormat::Egd),
                Some(b'[') if !trimmed.contains("\"start\":{") => Ok(InputFormat::Jsonchess),
                _ => bail!(
                    "cannot tell the format of {}: game JSON with \"game_tags\", but neither EGD nor jsonchess; say it with --from",
                    path.map_or("<stdin>".into(), |p| p.display().to_string())
                ),
            };
        }
        bail!(
            "cannot tell the format of {}: JSON, but neither notate's game JSON, EGD nor jsonchess; say it with --from",
            path.map_or("<stdin>".into(), |p| p.display().to_string())
        );
    }
    if looks_like_icn(trimmed) {
        return Ok(InputFormat::Icn);
    }
    if trimmed.is_empty()
        || trimmed.starts_with('[')
        || trimmed.starts_with(|c: char| c.is_ascii_digit())
        || trimmed.starts_with('{')
        || trimmed.starts_with(';')
        || trimmed.starts_with('%')
    {
        return Ok(InputFormat::Pgn);
    }
    bail!(
        "cannot tell the format of {}; say it with --from (pgn, json, egd or jsonchess)",
        path.map_or("<stdin>".into(), |p| p.display().to_string())
    )
}

/// A shogi format told by content: CSA's version, name or position lines, KIF's and KI2's
/// headers and moves, JKF's keys, an opening book's array of named openings, USI's
/// `position`, an SFEN. (Western notation is never guessed: it needs `--from western`.)
fn shogi_content(head: &[u8]) -> Option<InputFormat> {
    let head = &head[..head.len().min(8192)];
    let text = match std::str::from_utf8(head) {
        Ok(t) => std::borrow::Cow::Borrowed(t),
        // Cut inside a character, or Shift_JIS.
        Err(e) if e.error_len().is_none() => String::from_utf8_lossy(&head[..e.valid_up_to()]),
        Err(_) => encoding_rs::SHIFT_JIS.decode_without_bom_handling(head).0,
    };
    let text = text.trim_start_matches('\u{feff}');
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))?;
    if text.starts_with("#KIF") || text.contains("手数----") {
        return Some(InputFormat::Kif);
    }
    if first.starts_with("'CSA")
        || first.starts_with("V2")
        || first.starts_with("V3")
        || first.starts_with("PI")
        || first.starts_with("N+")
        || first.starts_with("N-")
        || (first.starts_with("P1") && first.len() > 20)
    {
        return Some(InputFormat::Csa);
    }
    if first.starts_with('{')
        && text.contains("\"moves\"")
        && (text.contains("\"header\"") || text.contains("\"initial\""))
    {
        return Some(InputFormat::Jkf);
    }
    if first.starts_with('[') && first[1..].trim_start().starts_with('{')
        || first == "[" && text.contains("\"name\"")
    {
        return Some(InputFormat::ShogiBook);
    }
    if first.starts_with("position ") || first.starts_with("startpos") {
        return Some(InputFormat::Usi);
    }
    let fields: Vec<&str> = first.split_whitespace().collect();
    if fields.len() >= 3 && fields[0].matches('/').count() == 8 && matches!(fields[1], "b" | "w") {
        return Some(if fields.contains(&"moves") {
            InputFormat::Usi
        } else {
            InputFormat::Sfen
        });
    }
    let lines = || text.lines().map(str::trim_start);
    if lines().any(|l| l.starts_with(['▲', '△', '☗', '☖'])) {
        return Some(InputFormat::Ki2);
    }
    if lines()
        .any(|l| l.starts_with("手合割") || l.starts_with("先手：") || l.starts_with("開始日時"))
    {
        return Some(InputFormat::Kif);
    }
    None
}

/// ICN's long form starts with one of its own top-level keys.
fn icn_json_keys(text: &str) -> bool {
    let body = text[1..].trim_start();
    [
        "\"gameRules\"",
        "\"metadata\"",
        "\"turn\"",
        "\"startingPosition\"",
    ]
    .iter()
    .any(|k| body.starts_with(k))
}

/// ICN, not PGN: after the tags comes a turn (`w `, `b `, `w:b`), a piece on a square
/// (`K5,1`) or a move between squares (`4,2>4,4`), where PGN has move numbers and SAN.
fn looks_like_icn(text: &str) -> bool {
    let mut rest = text;
    while rest.starts_with('[') {
        match rest.find(']') {
            Some(i) => rest = rest[i + 1..].trim_start(),
            None => return false,
        }
    }
    let token = rest.split_whitespace().next().unwrap_or("");
    if matches!(token, "w" | "b" | "w:b" | "b:w") {
        return true;
    }
    let letters = token.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let digits = letters.trim_start_matches('-');
    let first_number = digits.trim_start_matches(|c: char| c.is_ascii_digit());
    first_number.len() < digits.len()
        && (first_number.starts_with(',') || first_number.starts_with('/'))
        && !token.contains('.')
}

/// The first byte of the value of the first line's top-level `"moves"` key: `{` for EGD, `[`
/// for jsonchess. Found by a scan that skips strings, so a tag value cannot fool it.
fn moves_opener(text: &str) -> Option<u8> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let key = bytes.get(start..i)?;
                i += 1;
                if depth == 1 && key == b"moves" {
                    let rest = &bytes[i.min(bytes.len())..];
                    let after_colon = rest.iter().position(|&b| b == b':')?;
                    return rest[after_colon + 1..]
                        .iter()
                        .copied()
                        .find(|b| !b.is_ascii_whitespace());
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'\n' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// The shogi format a lower-case file name says (`.kif`, `.csa` …), if any.
fn format_of_name(name: &str) -> Option<InputFormat> {
    [
        (".kif", InputFormat::Kif),
        (".kifu", InputFormat::Kif),
        (".ki2", InputFormat::Ki2),
        (".ki2u", InputFormat::Ki2),
        (".csa", InputFormat::Csa),
        (".jkf", InputFormat::Jkf),
        (".sfen", InputFormat::Sfen),
        (".usi", InputFormat::Usi),
    ]
    .into_iter()
    .find(|(ext, _)| name.ends_with(ext))
    .map(|(_, f)| f)
}

#[cfg(test)]
mod tests {
    use super::moves_opener;

    #[test]
    fn moves_opener_skips_strings() {
        assert_eq!(
            moves_opener(r#"{"game_tags":{"moves":"["},"moves":{"1w":{}}}"#),
            Some(b'{')
        );
        assert_eq!(
            moves_opener(r#"{"game_tags":{"a\"moves":"x"},"moves": ["1,0"]}"#),
            Some(b'[')
        );
        assert_eq!(moves_opener(r#"{"game_tags":{}}"#), None);
    }
}
