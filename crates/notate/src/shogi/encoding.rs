//! Text encodings of KIF, KI2 and CSA files: UTF-8 and Shift_JIS (CP932), told by a byte
//! order mark, a `#KIF version=… encoding=…` or `'CSA encoding=…` line, or, with no marker,
//! UTF-8 when the bytes are valid UTF-8 and Shift_JIS otherwise.

use std::borrow::Cow;

use super::error::{self, Error};

/// How a shogi record is read (every shogi format takes the same options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// The text's encoding; `None` (default): told by a marker, else UTF-8 when the bytes
    /// are valid UTF-8 and Shift_JIS otherwise.
    pub encoding: Option<Encoding>,
}

/// Reads one line of a game-per-line format (USI, SFEN lists) with `read`: decoded in the
/// options' encoding; a `#` line is a remark, no game.
pub(crate) fn read_line<T>(
    line: &[u8],
    options: &ReadOptions,
    read: impl FnOnce(&str) -> Result<T, Error>,
) -> Vec<Result<T, Error>> {
    match decode(line, options.encoding) {
        Ok(text) if text.trim_start().starts_with('#') => Vec::new(),
        Ok(text) => vec![read(&text)],
        Err(e) => vec![Err(e)],
    }
}

/// A text encoding of a shogi record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 (`.kifu`, `.ki2u`, CSA V3.0's default marker).
    Utf8,
    /// Shift_JIS as Windows writes it (CP932; `.kif`, `.ki2`, CSA V2.2).
    ShiftJis,
}

impl Encoding {
    /// The name used in markers and messages.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::ShiftJis => "Shift_JIS",
        }
    }
}

/// The encoding a marker in the first lines names, if any.
fn marked(bytes: &[u8]) -> Option<Encoding> {
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Some(Encoding::Utf8);
    }
    // Markers are ASCII and sit in the first two lines.
    let head = &bytes[..bytes.len().min(256)];
    for line in head.split(|&b| b == b'\n').take(2) {
        let line = line.to_ascii_lowercase();
        let is_marker = line.starts_with(b"#kif") || line.starts_with(b"'csa");
        if !is_marker {
            continue;
        }
        if let Some(at) = find(&line, b"encoding=") {
            let value = &line[at + 9..];
            if value.starts_with(b"utf-8") || value.starts_with(b"utf8") {
                return Some(Encoding::Utf8);
            }
            if value.starts_with(b"shift_jis")
                || value.starts_with(b"shift-jis")
                || value.starts_with(b"sjis")
                || value.starts_with(b"cp932")
                || value.starts_with(b"windows-31j")
            {
                return Some(Encoding::ShiftJis);
            }
        }
    }
    None
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The encoding of `bytes`: a marker, else UTF-8 when valid, else Shift_JIS.
///
/// ```
/// use notate::shogi::encoding::{detect, Encoding};
/// assert_eq!(detect("手合割：平手".as_bytes()), Encoding::Utf8);
/// assert_eq!(detect(&[0x95, 0xBD, 0x8E, 0xE8]), Encoding::ShiftJis); // 平手
/// ```
pub fn detect(bytes: &[u8]) -> Encoding {
    marked(bytes).unwrap_or(if std::str::from_utf8(bytes).is_ok() {
        Encoding::Utf8
    } else {
        Encoding::ShiftJis
    })
}

/// Decodes `bytes` in `encoding` (detected when `None`); a byte order mark is dropped.
/// Bytes that are not text in the encoding are an error naming the line.
pub fn decode(bytes: &[u8], encoding: Option<Encoding>) -> Result<Cow<'_, str>, Error> {
    let encoding = encoding.unwrap_or_else(|| detect(bytes));
    match encoding {
        Encoding::Utf8 => {
            let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
            std::str::from_utf8(bytes).map(Cow::Borrowed).map_err(|e| {
                let line = 1 + bytes[..e.valid_up_to()]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                error::encoding(line, encoding.name())
            })
        }
        Encoding::ShiftJis => {
            let (text, had_errors) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes);
            if had_errors {
                let bad = text.find('\u{FFFD}').unwrap_or(0);
                return Err(error::encoding(
                    1 + text[..bad].matches('\n').count(),
                    encoding.name(),
                ));
            }
            Ok(text)
        }
    }
}

/// Encodes `text` in `encoding`; a character Shift_JIS cannot hold is an error.
pub fn encode(text: &str, encoding: Encoding) -> Result<Cow<'_, [u8]>, Error> {
    match encoding {
        Encoding::Utf8 => Ok(Cow::Borrowed(text.as_bytes())),
        Encoding::ShiftJis => {
            let (bytes, _, had_errors) = encoding_rs::SHIFT_JIS.encode(text);
            if had_errors {
                let bad = text
                    .chars()
                    .find(|c| {
                        let mut buf = [0u8; 4];
                        encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut buf)).2
                    })
                    .unwrap_or('?');
                return Err(error::unwritable(
                    "Shift_JIS",
                    format!("{bad:?} has no Shift_JIS code"),
                ));
            }
            Ok(bytes)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_win_over_content() {
        assert_eq!(
            detect(b"'CSA encoding=SHIFT_JIS\nV3.0\n"),
            Encoding::ShiftJis
        );
        assert_eq!(detect(b"#KIF version=2.0 encoding=UTF-8\n"), Encoding::Utf8);
        assert_eq!(detect(b"V2.2\nPI\n"), Encoding::Utf8);
    }

    #[test]
    fn broken_shift_jis_names_its_line() {
        let bytes = b"a\nb\n\x81\n";
        assert_eq!(
            decode(bytes, Some(Encoding::ShiftJis)).unwrap_err(),
            error::encoding(3, "Shift_JIS")
        );
        assert_eq!(
            decode(b"ok\n\xff", Some(Encoding::Utf8)).unwrap_err(),
            error::encoding(2, "UTF-8")
        );
    }
}
