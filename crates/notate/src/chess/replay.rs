//! Replay: every move of a read game resolved on the board, variations included.

use shakmaty::{fen::Fen, Chess, EnPassantMode};

use super::error::FailedGame;
use super::game::{
    play, ChessGame, Game, Line, Played, Ply, StartPosition, ThinVec, Written, WrittenGame,
};
use super::san::SanError;
use crate::{Error, ErrorKind};

/// Replays a game read from PGN: resolves each move (main line and variations) with full
/// legality. An illegal, ambiguous or impossible move fails the whole game.
///
/// ```
/// use notate::chess::{pgn::read_written, replay};
/// let game = read_written("1. e4 e5 2. Ke2 *").remove(0).unwrap();
/// let played = replay(game).unwrap();
/// assert_eq!(played.moves.plies[2].mv.mv.unwrap().to().to_string(), "e2");
/// let bad = read_written("1. e4 e5 2. Ke3 *").remove(0).unwrap();
/// let err = replay(bad).unwrap_err();
/// assert_eq!(err.error.ply, Some(3));
/// ```
pub fn replay(game: WrittenGame) -> Result<ChessGame, FailedGame> {
    let Game {
        tags,
        start: (),
        moves,
        result,
        final_comments,
    } = game;
    let start = match StartPosition::from_tags(&tags) {
        Ok(start) => start,
        Err(e) => {
            let at = moves.plies.first().map_or(0, |p| p.mv.offset);
            return Err(FailedGame {
                tags,
                error: Error::at(at, e.to_string()).with_kind(ErrorKind::Illegal),
            });
        }
    };
    match replay_line(moves, start.position.clone(), 0) {
        Ok(moves) => Ok(Game {
            tags,
            start,
            moves,
            result,
            final_comments,
        }),
        Err(error) => Err(FailedGame {
            tags,
            error: *error,
        }),
    }
}

// The error is boxed inside the replay: the per-ply closure's result stays the size of a
// ply (an `Error` inline is larger than one), which keeps the hot loop's copies small.
fn replay_line(
    line: Line<Written>,
    mut pos: Chess,
    base: usize,
) -> Result<Line<Played>, Box<Error>> {
    // `Ply<Written>` and `Ply<Played>` have the same size, so this collect reuses the
    // vector in place: no allocation per line.
    let plies = line
        .plies
        .into_iter()
        .enumerate()
        .map(|(i, ply)| {
            let Ply {
                mv: written,
                nags,
                comments,
                variations,
            } = ply;
            let number = base + i + 1;
            let mv = written
                .spec
                .resolve(&pos)
                .map_err(|e| Box::new(move_error(&pos, e, &written, number)))?;
            let mut replayed = ThinVec::new();
            if !variations.is_empty() {
                // Sized at once: collected from a fallible iterator, it would grow 1, 2, 4.
                replayed.reserve_exact(variations.len());
                for variation in variations {
                    replayed.push(replay_line(variation, pos.clone(), number - 1)?);
                }
            }
            play(&mut pos, mv);
            Ok(Ply {
                mv: Played {
                    san: written.san,
                    mv,
                    offset: written.offset,
                },
                nags,
                comments,
                variations: replayed,
            })
        })
        .collect::<Result<Vec<_>, Box<Error>>>()?;
    Ok(Line {
        comments: line.comments,
        plies,
    })
}

/// The error for a move that does not resolve in `pos`.
pub(crate) fn move_error(pos: &Chess, e: SanError, written: &Written, ply: usize) -> Error {
    let (kind, reason) = match e {
        SanError::Syntax => (ErrorKind::Syntax, "not a move".to_string()),
        other => (
            ErrorKind::Illegal,
            format!(
                "{other} in {}",
                Fen::from_position(pos, EnPassantMode::Legal)
            ),
        ),
    };
    Error::at(written.offset, reason)
        .with_kind(kind)
        .with_token(written.san.as_str())
        .with_ply(ply)
}
