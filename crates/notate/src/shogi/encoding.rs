//! Text encodings of KIF, KI2 and CSA files: UTF-8 and Shift_JIS (CP932), told by a byte
//! order mark, a `#KIF version=… encoding=…` or `'CSA encoding=…` line, or, with no marker,
//! UTF-8 when the bytes are valid UTF-8 and Shift_JIS otherwise; EUC-JP, which old Unix
//! tools wrote, is told from Shift_JIS by its bytes.
//!
//! A marker that does not fit the bytes (a file saved as UTF-8 that still says
//! `encoding=Shift_JIS`, or the other way round) is not believed: the text is read in the
//! encoding its bytes are in, with a warning that names the marker's line.

use std::borrow::Cow;
use std::ops::Range;

use super::error::{self, Error};
use crate::{ErrorKind, Place};

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
    /// EUC-JP, as old Unix tools wrote CSA files (neither KIF nor CSA V3.0 allows it).
    EucJp,
}

impl Encoding {
    /// The name used in markers and messages.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::ShiftJis => "Shift_JIS",
            Encoding::EucJp => "EUC-JP",
        }
    }
}

/// Shift_JIS or EUC-JP bytes as text, with U+FFFD for each byte sequence that is not text in
/// the encoding (neither encoding has U+FFFD, so it marks exactly the bad bytes): by the
/// decoder the platform installed, else by encoding_rs (feature `legacy-encodings`).
fn decode_legacy(encoding: Encoding, bytes: &[u8]) -> Result<Cow<'_, str>, Error> {
    if let Some(decode) = LEGACY_DECODER.get() {
        return decode(encoding, bytes).map(Cow::Owned).ok_or_else(|| {
            Error::new(
                ErrorKind::Encoding,
                format!("this platform cannot decode {}", encoding.name()),
            )
        });
    }
    #[cfg(feature = "legacy-encodings")]
    {
        let codec = match encoding {
            Encoding::EucJp => encoding_rs::EUC_JP,
            _ => encoding_rs::SHIFT_JIS,
        };
        Ok(codec.decode_without_bom_handling(bytes).0)
    }
    #[cfg(not(feature = "legacy-encodings"))]
    Err(Error::new(
        ErrorKind::Encoding,
        format!(
            "{} text needs notate's `legacy-encodings` feature or a decoder \
             (shogi::encoding::set_legacy_decoder)",
            encoding.name()
        ),
    ))
}

/// A decoder of Shift_JIS or EUC-JP bytes into text, U+FFFD for bytes that are not text;
/// `None` when the platform has no decoder for the encoding.
pub type LegacyDecoder = fn(Encoding, &[u8]) -> Option<String>;

static LEGACY_DECODER: std::sync::OnceLock<LegacyDecoder> = std::sync::OnceLock::new();

/// Installs the platform's decoder of Shift_JIS and EUC-JP, used from then on instead of
/// encoding_rs, for builds without the `legacy-encodings` feature: the npm package installs
/// the JavaScript engine's `TextDecoder`, which implements the same WHATWG Encoding Standard
/// as encoding_rs. The first decoder installed stays (`false` when one already was).
///
/// ```
/// use notate::shogi::encoding::{decode, set_legacy_decoder, Encoding};
/// fn platform_decode(encoding: Encoding, bytes: &[u8]) -> Option<String> {
///     assert_eq!(encoding, Encoding::ShiftJis);
///     Some(bytes.iter().map(|&b| if b == 0x81 { '\u{FFFD}' } else { char::from(b) }).collect())
/// }
/// assert!(set_legacy_decoder(platform_decode));
/// assert_eq!(decode(b"V2.2", Some(Encoding::ShiftJis)).unwrap(), "V2.2");
/// assert!(decode(b"V2\x81", Some(Encoding::ShiftJis)).is_err());
/// ```
pub fn set_legacy_decoder(decode: LegacyDecoder) -> bool {
    LEGACY_DECODER.set(decode).is_ok()
}

/// The encoding a marker in the first lines names, if any, and the marker's line (0 for a
/// byte order mark).
fn marked(bytes: &[u8]) -> Option<(Encoding, usize)> {
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Some((Encoding::Utf8, 0));
    }
    // Markers are ASCII and sit in the first two lines.
    let head = &bytes[..bytes.len().min(256)];
    for (index, line) in head.split(|&b| b == b'\n').take(2).enumerate() {
        let line = line.to_ascii_lowercase();
        let is_marker = line.starts_with(b"#kif") || line.starts_with(b"'csa");
        if !is_marker {
            continue;
        }
        if let Some(at) = find(&line, b"encoding=") {
            let value = &line[at + 9..];
            if value.starts_with(b"utf-8") || value.starts_with(b"utf8") {
                return Some((Encoding::Utf8, index + 1));
            }
            if value.starts_with(b"shift_jis")
                || value.starts_with(b"shift-jis")
                || value.starts_with(b"sjis")
                || value.starts_with(b"cp932")
                || value.starts_with(b"windows-31j")
            {
                return Some((Encoding::ShiftJis, index + 1));
            }
            if value.starts_with(b"euc-jp") || value.starts_with(b"euc_jp") {
                return Some((Encoding::EucJp, index + 1));
            }
        }
    }
    None
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The encoding of `bytes`: a marker that fits them, else UTF-8 when valid, else Shift_JIS
/// or EUC-JP, whichever the bytes are.
///
/// ```
/// use notate::shogi::encoding::{detect, Encoding};
/// assert_eq!(detect("手合割：平手".as_bytes()), Encoding::Utf8);
/// assert_eq!(detect(&[0x95, 0xBD, 0x8E, 0xE8]), Encoding::ShiftJis); // 平手
/// assert_eq!(detect(&[0xCA, 0xBF, 0xBC, 0xEA]), Encoding::EucJp); // 平手
/// ```
pub fn detect(bytes: &[u8]) -> Encoding {
    sniff(bytes).0
}

/// The encoding of `bytes`, and the warning to give when it is not what the text declares
/// or not one a shogi format allows.
fn sniff(bytes: &[u8]) -> (Encoding, Option<Error>) {
    let marker = marked(bytes);
    let utf8 = mostly_utf8(bytes);
    let warn = |line: usize, message: String| {
        Some(Error::new(ErrorKind::Encoding, message).with_place(Place::at_line(line as u64, 0)))
    };
    match marker {
        Some((Encoding::Utf8, line)) if !utf8 => {
            let actual = legacy(bytes);
            let message = format!(
                "the text declares UTF-8 but is not; read as {}",
                actual.name()
            );
            (actual, warn(line.max(1), message))
        }
        // Valid UTF-8 with characters beyond ASCII is UTF-8: Japanese text in Shift_JIS or
        // EUC-JP is practically never valid UTF-8 as well.
        Some((declared @ (Encoding::ShiftJis | Encoding::EucJp), line))
            if utf8 && !bytes.is_ascii() =>
        {
            let message = format!(
                "the text declares {} but is UTF-8; read as UTF-8",
                declared.name()
            );
            (Encoding::Utf8, warn(line, message))
        }
        Some((declared, _)) => (declared, None),
        None if utf8 => (Encoding::Utf8, None),
        None => match legacy(bytes) {
            Encoding::EucJp => (
                Encoding::EucJp,
                warn(
                    1,
                    "the text is EUC-JP, which KIF and CSA do not allow (UTF-8 or Shift_JIS); \
                     read as EUC-JP"
                        .to_string(),
                ),
            ),
            other => (other, None),
        },
    }
}

/// Whether `bytes` are UTF-8 text, a few bad bytes aside (a file damaged in places: the
/// records that hold them fail, the others are read). Japanese text in Shift_JIS or EUC-JP
/// is practically never valid UTF-8 (most of its characters open with a byte UTF-8 only
/// allows inside a character, so it has about as many bad spots as characters), so more
/// than twice as many valid characters beyond ASCII as bad spots tell UTF-8 from them.
fn mostly_utf8(bytes: &[u8]) -> bool {
    let (mut characters, mut bad) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        characters += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        bad += usize::from(!chunk.invalid().is_empty());
    }
    bad == 0 || characters >= 2 * bad
}

/// Shift_JIS or EUC-JP, for bytes that are not UTF-8: the one that decodes without an error
/// and without half-width katakana (which records never hold, and which EUC-JP bytes become
/// when read as Shift_JIS); Shift_JIS when neither does.
fn legacy(bytes: &[u8]) -> Encoding {
    let fits = |encoding: Encoding| {
        decode_legacy(encoding, bytes).is_ok_and(|text| {
            !text
                .chars()
                .any(|c| c == '\u{FFFD}' || ('\u{FF61}'..='\u{FF9F}').contains(&c))
        })
    };
    if !fits(Encoding::ShiftJis) && fits(Encoding::EucJp) {
        Encoding::EucJp
    } else {
        Encoding::ShiftJis
    }
}

/// Decodes `bytes` in `encoding` (detected when `None`); a byte order mark is dropped.
/// Bytes that are not text in the encoding are an error naming the line.
pub fn decode(bytes: &[u8], encoding: Option<Encoding>) -> Result<Cow<'_, str>, Error> {
    decode_noting(bytes, encoding).map(|(text, _)| text)
}

/// [`decode`], with the warning to give when the text is read in another encoding than it
/// declares, or in one its format does not allow (EUC-JP).
///
/// ```
/// use notate::shogi::encoding::decode_noting;
/// let bytes = b"#KIF version=2.0 encoding=UTF-8\n\x95\xbd\x8e\xe8\n"; // 平手 in Shift_JIS
/// let (text, warning) = decode_noting(bytes, None).unwrap();
/// assert!(text.ends_with("平手\n"));
/// assert_eq!(
///     warning.unwrap().to_string(),
///     "line 1: the text declares UTF-8 but is not; read as Shift_JIS"
/// );
/// ```
pub fn decode_noting(
    bytes: &[u8],
    encoding: Option<Encoding>,
) -> Result<(Cow<'_, str>, Option<Error>), Error> {
    let decoded = decode_marking(bytes, encoding)?;
    match decoded
        .bad
        .first_within(&decoded.text, 0..decoded.text.len())
    {
        Some(error) => Err(error),
        None => Ok((decoded.text, decoded.warning)),
    }
}

/// A text decoded with U+FFFD for each byte sequence that was not text in its encoding.
pub(crate) struct Decoded<'a> {
    pub text: Cow<'a, str>,
    /// See [`decode_noting`].
    pub warning: Option<Error>,
    pub bad: BadBytes,
}

/// Where a decoded text holds U+FFFD for bytes that were not text (not a U+FFFD the text
/// itself holds): records are split from the text first, and only the records that hold
/// bad bytes fail.
#[derive(Debug)]
pub(crate) struct BadBytes {
    /// Byte offsets of the U+FFFD in the text, ascending.
    offsets: Vec<usize>,
    encoding: Encoding,
}

impl BadBytes {
    /// The error of the first bad bytes in `text[range]`, placed at their line and column
    /// in `text`; `None` when the range holds none.
    pub(crate) fn first_within(&self, text: &str, range: Range<usize>) -> Option<Error> {
        let from = self.offsets.partition_point(|&at| at < range.start);
        let at = *self.offsets.get(from).filter(|&&at| at < range.end)?;
        let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
        Some(error::encoding(
            1 + text[..at].matches('\n').count(),
            1 + text[line_start..at].chars().count(),
            self.encoding.name(),
        ))
    }
}

/// Decodes `bytes` as [`decode_noting`] does, but bytes that are not text become U+FFFD and
/// are noted instead of failing the whole text.
pub(crate) fn decode_marking(
    bytes: &[u8],
    encoding: Option<Encoding>,
) -> Result<Decoded<'_>, Error> {
    let (encoding, warning) = match encoding {
        Some(e) => (e, None),
        None => sniff(bytes),
    };
    let mut offsets = Vec::new();
    let text = match encoding {
        Encoding::Utf8 => {
            let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
            match std::str::from_utf8(bytes) {
                Ok(text) => Cow::Borrowed(text),
                Err(_) => {
                    let mut text = String::with_capacity(bytes.len() + 16);
                    for chunk in bytes.utf8_chunks() {
                        text.push_str(chunk.valid());
                        if !chunk.invalid().is_empty() {
                            offsets.push(text.len());
                            text.push(char::REPLACEMENT_CHARACTER);
                        }
                    }
                    Cow::Owned(text)
                }
            }
        }
        Encoding::ShiftJis | Encoding::EucJp => {
            // Neither encoding has U+FFFD: each one stands for bad bytes.
            let text = decode_legacy(encoding, bytes)?;
            offsets.extend(
                text.match_indices(char::REPLACEMENT_CHARACTER)
                    .map(|(at, _)| at),
            );
            text
        }
    };
    Ok(Decoded {
        text,
        warning,
        bad: BadBytes { offsets, encoding },
    })
}

/// Encodes `text` in `encoding`; a character Shift_JIS cannot hold is an error, and so is any
/// legacy encoding in a build without the `legacy-encodings` feature.
///
/// ```
/// use notate::shogi::encoding::{encode, Encoding};
/// assert_eq!(&*encode("平手", Encoding::ShiftJis).unwrap(), &[0x95, 0xBD, 0x8E, 0xE8]);
/// assert!(encode("♔", Encoding::ShiftJis).is_err());
/// ```
pub fn encode(text: &str, encoding: Encoding) -> Result<Cow<'_, [u8]>, Error> {
    match encoding {
        Encoding::Utf8 => Ok(Cow::Borrowed(text.as_bytes())),
        Encoding::ShiftJis | Encoding::EucJp => encode_legacy(text, encoding),
    }
}

#[cfg(feature = "legacy-encodings")]
fn encode_legacy(text: &str, encoding: Encoding) -> Result<Cow<'_, [u8]>, Error> {
    let codec = match encoding {
        Encoding::EucJp => encoding_rs::EUC_JP,
        _ => encoding_rs::SHIFT_JIS,
    };
    let (bytes, _, had_errors) = codec.encode(text);
    if had_errors {
        let bad = text
            .chars()
            .find(|c| {
                let mut buf = [0u8; 4];
                codec.encode(c.encode_utf8(&mut buf)).2
            })
            .unwrap_or('?');
        return Err(error::unwritable(
            encoding.name(),
            format!("{bad:?} has no {} code", encoding.name()),
        ));
    }
    Ok(bytes)
}

#[cfg(not(feature = "legacy-encodings"))]
fn encode_legacy(_: &str, encoding: Encoding) -> Result<Cow<'_, [u8]>, Error> {
    Err(error::unwritable(
        encoding.name(),
        format!(
            "writing {} needs notate's `legacy-encodings` feature",
            encoding.name()
        ),
    ))
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
            error::encoding(3, 1, "Shift_JIS")
        );
        assert_eq!(
            decode(b"ok\n\xff", Some(Encoding::Utf8)).unwrap_err(),
            error::encoding(2, 1, "UTF-8")
        );
    }
}
