//! PGN writing: export format (Seven Tag Roster first, SAN with computed check marks,
//! lines of at most 80 columns).

use shakmaty::{Chess, Color, Position};

use crate::chess::game::{play, ChessGame, Comment, Line, Played};
use crate::chess::san::san_plus_and_play;

/// The Seven Tag Roster, in export order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

const MAX_LINE: usize = 80;

/// PGN: games read (and replayed), or written in export format, with its state (the line
/// being filled) reused from game to game.
///
/// ```
/// use notate::chess::pgn;
/// let game = pgn::read_one("[White \"A\"]\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 1-0").unwrap();
/// let text = pgn::to_string(&game).unwrap();
/// assert!(text.contains("4. Qxf7# 1-0"));
/// ```
#[derive(Debug, Default)]
pub struct Pgn {
    line_len: usize,
    open_paren: bool,
    /// The next token follows the last with no separator (a comment's space already written).
    glue: bool,
}

/// How PGN is written (nothing to choose yet: export format).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOptions {}

fn escape_tag(value: &str, out: &mut Vec<u8>) {
    for c in value.bytes() {
        if c == b'"' || c == b'\\' {
            out.push(b'\\');
        }
        // A raw newline would end the tag line: write it as a space.
        out.push(if c == b'\n' || c == b'\r' { b' ' } else { c });
    }
}

impl Pgn {
    /// Appends one game (tags, blank line, movetext, blank line) to `out`.
    pub(crate) fn write(&mut self, game: &ChessGame, out: &mut Vec<u8>) {
        // Export format: the Seven Tag Roster always, with the standard's placeholders for
        // what is not known; a missing Result is the movetext's (a tag the game has is
        // written as read: nothing of it is lost).
        for name in SEVEN_TAG_ROSTER {
            let value = match (name, game.tags.get(name)) {
                (_, Some(value)) => value,
                ("Result", None) => game.outcome().as_str(),
                ("Date", None) => "????.??.??",
                (_, None) => "?",
            };
            Self::tag(name, value, out);
        }
        for (name, value) in game.tags.iter() {
            if !SEVEN_TAG_ROSTER.contains(&name) {
                Self::tag(name, value, out);
            }
        }
        out.push(b'\n');
        self.line_len = 0;
        self.line(&game.moves, game.start.position.clone(), out);
        self.token(game.outcome().as_str(), out);
        for c in &game.final_comments {
            self.comment(c, out);
        }
        out.extend_from_slice(b"\n\n");
    }

    fn tag(name: &str, value: &str, out: &mut Vec<u8>) {
        out.push(b'[');
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b" \"");
        escape_tag(value, out);
        out.extend_from_slice(b"\"]\n");
    }

    fn token(&mut self, token: &str, out: &mut Vec<u8>) {
        // An open parenthesis is written glued to the token after it.
        let open = std::mem::take(&mut self.open_paren);
        let width = token.chars().count() + usize::from(open);
        if self.line_len > 0 && !std::mem::take(&mut self.glue) {
            if self.line_len + 1 + width > MAX_LINE {
                out.push(b'\n');
                self.line_len = 0;
            } else {
                out.push(b' ');
                self.line_len += 1;
            }
        }
        if open {
            out.push(b'(');
        }
        out.extend_from_slice(token.as_bytes());
        // Comments may hold newlines of their own.
        match token.rfind('\n') {
            Some(i) => self.line_len = token[i + 1..].chars().count(),
            None => self.line_len += width,
        }
    }

    fn close_paren(&mut self, out: &mut Vec<u8>) {
        if self.line_len + 1 > MAX_LINE {
            out.push(b'\n');
            self.line_len = 0;
        }
        out.push(b')');
        self.line_len += 1;
    }

    fn comment(&mut self, comment: &Comment, out: &mut Vec<u8>) {
        let text = &comment.text;
        if text.contains('}')
            || super::split::tags_inside(
                text.as_bytes(),
                super::ReadOptions::default().max_tag_bytes,
            )
            .is_some()
        {
            // Braces cannot hold it (a `}` would close them; a blank line, then a tag line,
            // would start the next game): rest-of-line comments keep it, one a line. A text
            // of several lines comes back as several comments at the same place. A lone CR
            // ends a line too, as readers that take lines the universal way see it; the
            // text's last line breaks make no empty comment.
            let text = text.replace("\r\n", "\n");
            for line in text.trim_end_matches(['\n', '\r']).split(['\n', '\r']) {
                self.token(&format!(";{line}"), out);
                out.push(b'\n');
                self.line_len = 0;
            }
            return;
        }
        // Wrapped at its spaces like the moves, so that no line passes 80 columns (a line
        // break written stands for one space; a word longer than a line stays whole). The
        // comment's own line breaks are kept where they are, so that a comment read back
        // from what this wrote is written the same again.
        let mut pending = String::from("{");
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                self.comment_word(&pending, out);
                out.push(b'\n');
                self.line_len = 0;
                pending.clear();
            }
            let mut words = line.split(' ');
            pending.push_str(words.next().unwrap_or_default());
            for word in words {
                self.comment_word(&pending, out);
                if self.line_len == 0 {
                    // At a line's start (the comment's own line break, or an empty word
                    // wrapped): the space would not be written, so it is, glued.
                    out.push(b' ');
                    self.line_len = 1;
                    self.glue = true;
                }
                pending.clear();
                pending.push_str(word);
            }
        }
        pending.push('}');
        self.token(&pending, out);
    }

    /// A word of a comment; an empty one (between two blanks) is its blank alone, never
    /// wrapped: a wrap there could make a line of blanks in the comment, which a reader may
    /// take for the end of the game.
    fn comment_word(&mut self, word: &str, out: &mut Vec<u8>) {
        if !word.is_empty() {
            self.token(word, out);
        } else if self.line_len > 0 && !std::mem::take(&mut self.glue) {
            out.push(b' ');
            self.line_len += 1;
        }
    }

    fn line(&mut self, line: &Line<Played>, mut pos: Chess, out: &mut Vec<u8>) {
        for c in &line.comments {
            self.comment(c, out);
        }
        let mut need_number = true;
        for ply in &line.plies {
            let number = pos.fullmoves().get();
            if pos.turn() == Color::White {
                self.token(&format!("{number}."), out);
            } else if need_number {
                self.token(&format!("{number}..."), out);
            }
            let before = (!ply.variations.is_empty()).then(|| pos.clone());
            let san = match ply.mv.mv {
                Some(m) => san_plus_and_play(&mut pos, m).to_string(),
                None => {
                    play(&mut pos, None);
                    "--".to_string()
                }
            };
            self.token(&san, out);
            for nag in &ply.nags {
                self.token(&format!("${nag}"), out);
            }
            for c in &ply.comments {
                self.comment(c, out);
            }
            need_number = !ply.comments.is_empty() || !ply.variations.is_empty();
            if let Some(before) = before {
                for v in &ply.variations {
                    self.open_paren = true;
                    self.line(v, before.clone(), out);
                    if self.open_paren {
                        // An empty variation: `(` was never written.
                        self.open_paren = false;
                        self.token("(", out);
                        out.push(b')');
                        self.line_len += 1;
                        continue;
                    }
                    self.close_paren(out);
                }
            }
        }
    }
}
