//! Games without tags on one line (`1. e4 e5 1-0 1. d4 d5 0-1 …`): where each starts.
//!
//! The splitter finds a next game at a line's start; the games of one line are found here,
//! by the same rule for the splitter (which cuts a long line of them apart) and the parser
//! (which, after a syntax error, goes on at the next of them, not at the line's end).

use super::find::{tag_left_open, BOM, FORUM_MARKERS, MAX_TAG_LINES};

/// Where games without tags start in a stretch of text, one game or more as the scan cut
/// it: at each `1.` (not `1...`) whose word before, outside comments, `%` lines, tag lines
/// and variations, is a result (`1. e4 e5 1-0 1. d4 …`). The scan looks for such a start
/// only at a line's start, as it jumps from one comment or line end to the next; a long
/// stretch is looked through with this, a plain pass over its bytes that goes on where the
/// last call stopped as more are read. A start is found as soon as the bytes that decide it
/// are read (its word and what follows it), so the same starts are found however the bytes
/// arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LineCuts {
    /// Where the game being looked through starts.
    start: usize,
    /// Whether that start is a line's start (for tag and `%` lines there): not a game's
    /// that the parser found after a result on the same line.
    starts_line: bool,
    /// How far the text has been looked at: a word, comment or line not yet whole stays.
    at: usize,
    /// Variations open.
    depth: usize,
    /// Whether the last word, outside variations, was a result.
    after_result: bool,
    /// The last search for a token's end that found none: from where, for what, and how
    /// far it looked. The same search at the next call goes on from there, so a token read
    /// in many small reads (a comment of megabytes) is still looked at once.
    miss: Option<(usize, TokenEnd, usize)>,
    /// A tag line at a line's start whose tag is left open, while the line after it (that
    /// may go on with it) is not read yet: its start, its end so far, and the lines it has
    /// run on. Looked at again from there, not from its start.
    open_tag: Option<(usize, usize, usize)>,
    /// The end of the word `1.…` of the start last found.
    cut_word_end: usize,
}

/// What ends a token [`LineCuts`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TokenEnd {
    /// `}`, of a comment.
    Brace,
    /// A line's end, of a `;` comment, a `%` line or a tag line.
    Line,
    /// White space or `{ ; ( )`, of a word.
    Word,
}

impl LineCuts {
    /// A look through the text of a game that starts at `start`, at a line's start (as the
    /// splitter's scan finds one: after blanks only) if `starts_line`.
    pub(super) fn at(start: usize, starts_line: bool) -> Self {
        LineCuts {
            start,
            starts_line,
            at: start,
            depth: 0,
            after_result: false,
            miss: None,
            open_tag: None,
            cut_word_end: start,
        }
    }

    /// The next game's start in `text`, whose end is the stretch's end when `whole`; `None`
    /// when none is found in what has been read. The look stays at that start until
    /// [`LineCuts::take`].
    pub(super) fn next(&mut self, text: &[u8], whole: bool) -> Option<usize> {
        let mut i = self.at;
        while i < text.len() {
            let line_start = if i == self.start {
                self.starts_line
            } else {
                text[i - 1] == b'\n'
            };
            match text[i] {
                white_space!() => i += 1,
                // A byte-order mark is blank too (files joined with `cat`), as the scan
                // reads it; more bytes tell whether the last ones read start one.
                0xEF if text[i..].starts_with(BOM) => i += 3,
                0xEF if i + 3 > text.len() && !whole => break,
                b'{' => match self.find(text, i, TokenEnd::Brace) {
                    Some(close) => i = close + 1,
                    None => break,
                },
                b';' => match self.line_end(text, i, whole) {
                    Some(end) => i = end,
                    None => break,
                },
                b'%' if line_start => match self.line_end(text, i, whole) {
                    Some(end) => i = end,
                    None => break,
                },
                b'[' if line_start => {
                    // A tag line, with the lines a tag left open runs on, as the scan reads
                    // them.
                    let (mut end, mut lines, mut open) = match self.open_tag.take() {
                        Some((start, end, lines)) if start == i => (end, lines, true),
                        _ => {
                            let Some(end) = self.line_end(text, i, whole) else {
                                break;
                            };
                            (end, 0, tag_left_open(&text[i..end]))
                        }
                    };
                    while lines < MAX_TAG_LINES && open {
                        let Some(next) = self.line_end(text, end, whole) else {
                            break;
                        };
                        if text[end..next].iter().all(u8::is_ascii_whitespace) {
                            open = false;
                            break;
                        }
                        end = next;
                        lines += 1;
                        open = tag_left_open(&text[i..end]);
                    }
                    if open && lines < MAX_TAG_LINES {
                        // Whether the next line goes on with the tag is not read yet.
                        self.open_tag = Some((i, end, lines));
                        break;
                    }
                    self.after_result = false;
                    i = end;
                }
                b'(' | b')' => {
                    self.depth = match text[i] {
                        b'(' => self.depth + 1,
                        _ => self.depth.saturating_sub(1),
                    };
                    self.after_result = false;
                    i += 1;
                }
                _ => {
                    // A word that reaches the end of what is read may go on; at the end of
                    // the stretch, it cuts nothing.
                    let Some(end) = self.find(text, i, TokenEnd::Word) else {
                        break;
                    };
                    let word = &text[i..end];
                    if self.after_result && word.starts_with(b"1.") && word.get(2) != Some(&b'.') {
                        self.at = i;
                        self.cut_word_end = end;
                        return Some(i);
                    }
                    self.after_result = self.depth == 0 && ends_with_result(word);
                    i = end;
                }
            }
        }
        self.at = i;
        None
    }

    /// The end of the line at `from` (after its line feed); at the text's end, only if the
    /// text is whole.
    fn line_end(&mut self, text: &[u8], from: usize, whole: bool) -> Option<usize> {
        match self.find(text, from, TokenEnd::Line) {
            Some(at) => Some(at + 1),
            None => whole.then_some(text.len()),
        }
    }

    /// The first byte from `from` on that ends the token there (a comment's `}`, a line
    /// feed, a word's end), going on from the last search of it that found none.
    fn find(&mut self, text: &[u8], from: usize, end: TokenEnd) -> Option<usize> {
        let first = match self.miss {
            Some((at, missed, to)) if at == from && missed == end => to.max(from),
            _ => from,
        };
        let rest = text.get(first..).unwrap_or_default();
        let found = match end {
            TokenEnd::Brace => memchr::memchr(b'}', rest),
            TokenEnd::Line => memchr::memchr(b'\n', rest),
            TokenEnd::Word => rest
                .iter()
                .position(|&b| matches!(b, white_space!() | b'{' | b';' | b'(' | b')')),
        };
        if found.is_none() {
            self.miss = Some((from, end, text.len()));
        }
        found.map(|n| first + n)
    }

    /// Takes the start [`LineCuts::next`] found: the look goes on in the game it starts.
    pub(super) fn take(&mut self) {
        self.start = self.at;
        self.starts_line = false;
        self.after_result = false;
    }

    /// The end of the word (`1.`, `1.e4` …) at the start [`LineCuts::next`] found last.
    pub(super) fn word_end(&self) -> usize {
        self.cut_word_end
    }

    /// The same look once the buffer's first `n` bytes (before the game's start) are gone.
    pub(super) fn forget(&mut self, n: usize) {
        self.start = self.start.saturating_sub(n);
        self.at = self.at.saturating_sub(n);
        self.miss = self
            .miss
            .map(|(at, end, to)| (at.saturating_sub(n), end, to.saturating_sub(n)));
        self.open_tag = self
            .open_tag
            .and_then(|(start, end, lines)| (start >= n).then(|| (start - n, end - n, lines)));
        self.cut_word_end = self.cut_word_end.saturating_sub(n);
    }
}

/// Whether `text` ends with a game's result (`1-0`, `0-1`, `1/2-1/2`, `*`) standing as a word.
pub(super) fn ends_with_result(text: &[u8]) -> bool {
    let text = trim_blanks_end(text);
    ["1-0", "0-1", "1/2-1/2", "*"].iter().any(|result| {
        text.strip_suffix(result.as_bytes())
            .is_some_and(|before| before.is_empty() || trim_blanks_end(before).len() < before.len())
    })
}

/// `text` without the blanks that end it, as the scan and the parser read blanks: white
/// space (a line tabulation too), and byte-order marks (files joined with `cat`) where a
/// word would start: after white space, or first. Marks glued to the end of a word are part
/// of it, as the parser reads them (`1-0` and a mark is no result).
fn trim_blanks_end(mut text: &[u8]) -> &[u8] {
    loop {
        let mut marks = text;
        while let [rest @ .., 0xEF, 0xBB, 0xBF] = marks {
            marks = rest;
        }
        match marks {
            [] => return marks,
            [rest @ .., white_space!()] => text = rest,
            _ => return text,
        }
    }
}

/// Whether `text` holds only blanks (see [`trim_blanks_end`]).
pub(super) fn is_blank_text(text: &[u8]) -> bool {
    trim_blanks_end(text).is_empty()
}

/// Where the next game without tags starts at or after `from` in `text` (whole), looking
/// from the start of a game at `start`: the stretch a game that failed at `from` runs to.
pub(super) fn next_game_from(text: &[u8], start: usize, from: usize) -> Option<usize> {
    let mut cuts = LineCuts::at(start, starts_line(text, start));
    while let Some(at) = cuts.next(text, true) {
        if at >= from {
            return Some(at);
        }
        cuts.take();
    }
    None
}

/// Whether only blanks stand between the last line's end before `at` (or the text's start)
/// and `at`, as the splitter's scan finds a line's start (spaces, tabs, CRs, form and line
/// tabulations, byte-order marks), or a forum's `[pgn]` or `[/pgn]`, which the parser skips
/// before a game and the scan takes for the start of a tag line.
fn starts_line(text: &[u8], at: usize) -> bool {
    let mut before = &text[..at];
    loop {
        match before {
            [] | [.., b'\n'] => return true,
            [rest @ .., blank_in_line!()] => before = rest,
            [rest @ .., 0xEF, 0xBB, 0xBF] => before = rest,
            [.., b']'] => {
                let marker = FORUM_MARKERS.into_iter().find(|marker| {
                    before.len() >= marker.len()
                        && before[before.len() - marker.len()..].eq_ignore_ascii_case(marker)
                });
                match marker {
                    Some(marker) => before = &before[..before.len() - marker.len()],
                    None => return false,
                }
            }
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_is_blank_where_a_word_would_start() {
        // As the parser reads it: after white space (or first), a mark is blank; glued to a
        // word's end, it is part of the word, and `1-0` with a mark is no result.
        assert!(ends_with_result(b"1. e4 1-0\n\xEF\xBB\xBF"));
        assert!(ends_with_result(
            b"1. e4 \xEF\xBB\xBF1-0 \xEF\xBB\xBF\xEF\xBB\xBF"
        ));
        assert!(ends_with_result(b"\xEF\xBB\xBF*"));
        assert!(!ends_with_result(b"1. e4 1-0\xEF\xBB\xBF"));
        assert!(!ends_with_result(b"1. e4 1-0\xEF\xBB\xBF\n"));
        assert!(!ends_with_result(b"1. e4 x\xEF\xBB\xBF1-0"));
        assert!(is_blank_text(
            b"\xEF\xBB\xBF \x0b\xEF\xBB\xBF\xEF\xBB\xBF\x0c"
        ));
        assert!(!is_blank_text(b"x\xEF\xBB\xBF"));
        assert!(!is_blank_text(b"\xEF\xBB"));
    }
}
