//! One game as the server keeps it: the position, the packed history, the clocks (kept by the
//! server, as the protocol times them: the first two plies untimed but due within 30 s each,
//! then each move's thinking time taken from its side's clock and the increment added), draw
//! offers and claims, premoves, and how it ended. No I/O: the hub sends and stores.

use notate::chess::jsonchess::PackedMove;
use notate::protocol::messages::{
    ByColour, Colour, GameDetails, GameOutcome, MoveRequest, PromotionPiece, ResultType,
    TimeOptions,
};
use notate::protocol::premoves::{Premove, PremoveOutcome, PremoveQueue};
use notate::protocol::{FIRST_TIMED_PLY, TIME_FOR_MOVES_BEFORE_CLOCK_START_MS};
use notate::shakmaty::san::SanPlus;
use notate::shakmaty::zobrist::Zobrist64;
use notate::shakmaty::{Chess, Color, EnPassantMode, File, Move, Position, Role, Square};

/// A game being played or just finished.
pub struct Game {
    pub id: String,
    /// The players' ids.
    pub players: ByColour<String>,
    pub options: TimeOptions,
    pub start_time: u64,
    pub pos: Chess,
    pub history: Vec<PackedMove>,
    /// Each ply's SAN and the mover's clock after it (ms), for the stored PGN.
    pub record: Vec<(String, i64)>,
    /// When the last ply was made (the start before the first).
    pub last_time: u64,
    /// Milliseconds left, white then black.
    pub remaining: [i64; 2],
    /// Milliseconds added to the clocks, white then black (the protocol's `addedTime`: the
    /// side to move is credited the time a game stood still, after a restart or a restoration).
    pub added: [i64; 2],
    /// A draw offered by the side that just moved, standing until the other side moves.
    pub draw_offer: Option<Color>,
    pub premoves: PremoveQueue,
    pub result: Option<GameOutcome>,
    pub aborted: bool,
    pub end_time: Option<u64>,
    /// A rematch offered after the end: by whom, and when.
    pub rematch: Option<(Color, u64)>,
    /// The rematch this game led to, once both asked (one game has one rematch).
    pub rematched: Option<String>,
    /// Repetition hashes of every position so far.
    hashes: Vec<u64>,
}

/// A move the game refuses, in words for the error message.
pub type Refusal = String;

fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

pub fn colour(color: Color) -> Colour {
    match color {
        Color::White => Colour::White,
        Color::Black => Colour::Black,
    }
}

fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Where a castling king lands (the protocol's `to` for castling), from shakmaty's king and
/// rook squares.
fn king_destination(king: Square, rook: Square) -> Square {
    let file = if rook.file() > king.file() {
        File::G
    } else {
        File::C
    };
    Square::from_coords(file, king.rank())
}

/// The legal move a request names (from, to, and the promotion piece a promotion needs).
/// A piece named for a move that promotes nothing is ignored, as the reference server's
/// chess.js does: clients that always send one (most send a queen) play their moves.
pub fn find_move(pos: &Chess, from: Square, to: Square, promote: Option<Role>) -> Option<Move> {
    pos.legal_moves().into_iter().find(|mv| match *mv {
        Move::Castle { king, rook } => {
            king == from && (king_destination(king, rook) == to || rook == to)
        }
        _ => {
            mv.from() == Some(from)
                && mv.to() == to
                && (mv.promotion().is_none() || mv.promotion() == promote)
        }
    })
}

impl Game {
    pub fn new(id: String, players: ByColour<String>, options: TimeOptions, now: u64) -> Game {
        let pos = Chess::default();
        let start = hash(&pos);
        let time = i64::try_from(options.initial_time).unwrap_or(i64::MAX);
        Game {
            id,
            players,
            options,
            start_time: now,
            pos,
            history: Vec::new(),
            record: Vec::new(),
            last_time: now,
            remaining: [time, time],
            added: [0, 0],
            draw_offer: None,
            premoves: PremoveQueue::default(),
            result: None,
            aborted: false,
            end_time: None,
            rematch: None,
            rematched: None,
            hashes: vec![start],
        }
    }

    /// A game replayed from its packed moves (each checked against the position), with the
    /// clocks they give: for a restart, or a restoration from the players' backups.
    pub fn replayed(
        id: String,
        players: ByColour<String>,
        options: TimeOptions,
        start_time: u64,
        history: &[PackedMove],
    ) -> Result<Game, Refusal> {
        let mut game = Game::new(id, players, options, start_time);
        for (ply, packed) in history.iter().enumerate() {
            let mv = packed
                .to_move(&game.pos)
                .map_err(|e| format!("ply {}: {e}", ply + 1))?;
            if !game.in_progress() {
                return Err(format!("ply {}: the game was over", ply + 1));
            }
            game.play(mv, packed.time);
        }
        Ok(game)
    }

    /// Adds time to the clocks (ms, white then black), as the protocol's `addedTime` says.
    pub fn add_time(&mut self, added: [i64; 2]) {
        for (side, ms) in added.into_iter().enumerate() {
            self.added[side] = self.added[side].saturating_add(ms);
            self.remaining[side] = self.remaining[side].saturating_add(ms);
        }
    }

    /// Goes on at `now` after standing still since `stood_since` (a restart: when the last
    /// hub stopped) or, when that is not known (a restoration from the players' backups, as
    /// the protocol does it), since the last move. Once the clocks run, the side to move is
    /// credited that time, in `added` as the protocol credits it, so that clients computing
    /// the clocks from the moves' times agree; the time it thought before the stop stays
    /// charged. Before the clocks run, the opening moves' 30 s start again. The credit (ms).
    pub fn resume(&mut self, now: u64, stood_since: Option<u64>) -> i64 {
        if self.history.len() < FIRST_TIMED_PLY || self.last_time == 0 || self.last_time > now {
            self.last_time = now;
            return 0;
        }
        // A move made after the last note of the hub running (it notes once a second).
        let stopped = stood_since.map_or(self.last_time, |at| at.max(self.last_time));
        let credit = elapsed(stopped.min(now), now);
        let side = index(self.turn());
        self.added[side] += credit;
        self.remaining[side] += credit;
        credit
    }

    pub fn in_progress(&self) -> bool {
        self.result.is_none() && !self.aborted
    }

    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// The colour `player` plays, if they play.
    pub fn colour_of(&self, player: &str) -> Option<Color> {
        if self.players.w == player {
            Some(Color::White)
        } else if self.players.b == player {
            Some(Color::Black)
        } else {
            None
        }
    }

    pub fn player(&self, color: Color) -> &str {
        match color {
            Color::White => &self.players.w,
            Color::Black => &self.players.b,
        }
    }

    /// The clocks as they stand at `now` (the side to move's running).
    pub fn clocks_at(&self, now: u64) -> [i64; 2] {
        let mut clocks = self.remaining;
        if self.in_progress() && self.history.len() >= FIRST_TIMED_PLY {
            clocks[index(self.turn())] -= elapsed(self.last_time, now);
        }
        clocks
    }

    /// Plays `request` for `color` at `now`: the packed move to broadcast.
    pub fn play_request(
        &mut self,
        color: Color,
        request: &MoveRequest,
        now: u64,
    ) -> Result<PackedMove, Refusal> {
        if !self.in_progress() {
            return Err("the game is over".into());
        }
        if color != self.turn() {
            return Err("it is not your turn".into());
        }
        let (from, to) = (request.from.square(), request.to.square());
        let promote = request.promote_to.map(PromotionPiece::role);
        let mv = find_move(&self.pos, from, to, promote).ok_or_else(|| {
            format!(
                "{from}{to}{} is not a legal move here",
                promote.map_or(String::new(), |r| r.char().to_string())
            )
        })?;
        Ok(self.play(mv, now))
    }

    /// Plays a legal move at `now`: clocks, history, repetition, the end when it comes.
    pub fn play(&mut self, mv: Move, now: u64) -> PackedMove {
        let mover = self.turn();
        let ply = self.history.len();
        if ply >= FIRST_TIMED_PLY {
            self.remaining[index(mover)] -= elapsed(self.last_time, now);
            self.remaining[index(mover)] += i64::try_from(self.options.time_increment).unwrap_or(0);
        }
        self.last_time = now;
        let packed = PackedMove::encode(&self.pos, mv, now);
        let san = SanPlus::from_move_and_play_unchecked(&mut self.pos, mv).to_string();
        self.record.push((san, self.remaining[index(mover)]));
        self.history.push(packed.clone());
        self.hashes.push(hash(&self.pos));
        self.draw_offer = None;
        if self.pos.is_checkmate() {
            self.finish(Some(mover), ResultType::Checkmate, now);
        } else if self.pos.is_stalemate() {
            self.finish(None, ResultType::Stalemate, now);
        } else if self.pos.is_insufficient_material() {
            self.finish(None, ResultType::InsufficientMaterial, now);
        }
        packed
    }

    /// After a move: the premove of the side now on move, played (its packed move) or
    /// dropped (the premove, to tell its player).
    pub fn play_premove(&mut self, now: u64) -> Option<Result<PackedMove, Premove>> {
        if !self.in_progress() {
            return None;
        }
        match self.premoves.after_move(&self.pos)? {
            PremoveOutcome::Play(mv) => Some(Ok(self.play(mv, now))),
            PremoveOutcome::Dropped(premove) => Some(Err(premove)),
        }
    }

    /// Whether the side to move has run out of time, or an opening move is overdue (the
    /// game is then aborted): what happened, if anything, at `now`.
    pub fn check_time(&mut self, now: u64) -> Option<TimeEvent> {
        if !self.in_progress() {
            return None;
        }
        if self.history.len() < FIRST_TIMED_PLY {
            if elapsed(self.last_time, now) > TIME_FOR_MOVES_BEFORE_CLOCK_START_MS as i64 {
                self.aborted = true;
                self.end_time = Some(now);
                return Some(TimeEvent::Aborted);
            }
            return None;
        }
        let side = self.turn();
        if self.clocks_at(now)[index(side)] > 0 {
            return None;
        }
        self.remaining[index(side)] = 0;
        // A side that cannot mate does not win on time.
        if self.pos.has_insufficient_material(!side) {
            self.finish(None, ResultType::Timeout, now);
        } else {
            self.finish(Some(!side), ResultType::Timeout, now);
        }
        Some(TimeEvent::Flagged)
    }

    /// Resignation by `color`.
    pub fn resign(&mut self, color: Color, now: u64) -> Result<(), Refusal> {
        if !self.in_progress() {
            return Err("the game is over".into());
        }
        self.finish(Some(!color), ResultType::Resignation, now);
        Ok(())
    }

    /// A draw offer: only by the side that just moved.
    pub fn offer_draw(&mut self, color: Color) -> Result<(), Refusal> {
        if !self.in_progress() {
            return Err("the game is over".into());
        }
        if color == self.turn() || self.history.is_empty() {
            return Err("a draw is offered after your own move".into());
        }
        self.draw_offer = Some(color);
        Ok(())
    }

    pub fn accept_draw(&mut self, color: Color, now: u64) -> Result<(), Refusal> {
        if !self.in_progress() {
            return Err("the game is over".into());
        }
        if self.draw_offer != Some(!color) {
            return Err("no draw is offered to you".into());
        }
        self.finish(None, ResultType::DrawAgreed, now);
        Ok(())
    }

    /// A draw claim: threefold repetition (the position, with the same side to move, rights
    /// and possible en passant, for the third time) or fifty moves (100 plies without a
    /// capture or pawn move; the reference allowed it after 50).
    pub fn claim_draw(&mut self, now: u64) -> Result<(), Refusal> {
        if !self.in_progress() {
            return Err("the game is over".into());
        }
        let current = self.hashes.last().copied();
        if self.hashes.iter().filter(|&&h| Some(h) == current).count() >= 3 {
            self.finish(None, ResultType::Threefold, now);
        } else if self.pos.halfmoves() >= 100 {
            self.finish(None, ResultType::FiftyMoveRule, now);
        } else {
            return Err(
                "no draw can be claimed: neither threefold repetition nor fifty moves".into(),
            );
        }
        Ok(())
    }

    fn finish(&mut self, winner: Option<Color>, kind: ResultType, now: u64) {
        self.end_time = Some(now);
        self.result = Some(outcome(winner, kind));
        self.premoves = PremoveQueue::default();
    }

    /// The PGN result.
    pub fn result_text(&self) -> &'static str {
        match &self.result {
            Some(r) if r.is_draw => "1/2-1/2",
            Some(r) if r.winner == Some(Colour::White) => "1-0",
            Some(_) => "0-1",
            None => "*",
        }
    }
}

/// What the clock did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeEvent {
    Flagged,
    Aborted,
}

/// Why a time control is not one the server runs: the limits of a seek.
pub fn time_control_refusal(options: &TimeOptions) -> Option<&'static str> {
    if options.initial_time < 1000 {
        Some("Initial time must be at least 1s")
    } else if options.initial_time > 3 * 3_600_000 || options.time_increment > 180_000 {
        Some("at most 3 hours and an increment of 3 minutes")
    } else {
        None
    }
}

/// A backup of a game that stood still longer than this is not restored: its clocks would
/// credit the side to move the whole time.
pub const BACKUP_MAX_AGE_MS: u64 = 24 * 3_600_000;

/// Why a player's backup of a game (the protocol's restoration) cannot be restored at `now`:
/// a time control a seek could not have, a start or move times (0: unknown) out of order or
/// still to come, a move after its side's time ran out (even with all the added time) or an
/// opening move later than the protocol's 30 s, more added time than the game has lasted,
/// or a game that stood still longer than [`BACKUP_MAX_AGE_MS`].
pub fn backup_refusal(details: &GameDetails, now: u64) -> Option<String> {
    if let Some(reason) = time_control_refusal(&details.options) {
        return Some(reason.to_string());
    }
    if details.start_time == 0 || details.start_time > now {
        return Some("the game's start is not a time past".into());
    }
    // The clocks as the moves' times run them, with all the added time given from the
    // start (when it was given is not known): a move after its side's flag fell, or an
    // opening move after the game would have been aborted, never happened on a server.
    let options = &details.options;
    let mut clocks = [details.added_time.w, details.added_time.b]
        .map(|added| options.initial_time.saturating_add(added));
    let mut last = details.start_time;
    for (ply, packed) in details.history.iter().enumerate() {
        if packed.time == 0 {
            continue;
        }
        if packed.time < last || packed.time > now {
            return Some(format!(
                "ply {}: its time is before the one before it, or still to come",
                ply + 1
            ));
        }
        // After a move of unknown time, what this one took is not known either.
        let known = ply == 0 || details.history[ply - 1].time != 0;
        let took = packed.time - last;
        last = packed.time;
        if !known {
            continue;
        }
        if ply < FIRST_TIMED_PLY {
            if took > TIME_FOR_MOVES_BEFORE_CLOCK_START_MS {
                return Some(format!(
                    "ply {}: played after the game would have been aborted",
                    ply + 1
                ));
            }
        } else {
            let clock = &mut clocks[ply % 2];
            if took >= *clock {
                return Some(format!(
                    "ply {}: played after its side's time ran out",
                    ply + 1
                ));
            }
            *clock = (*clock - took).saturating_add(options.time_increment);
        }
    }
    let lasted = now - details.start_time;
    if details.added_time.w > lasted || details.added_time.b > lasted {
        return Some("more time added than the game has lasted".into());
    }
    if now - last > BACKUP_MAX_AGE_MS {
        return Some("the game stood still for more than a day".into());
    }
    None
}

fn elapsed(from: u64, to: u64) -> i64 {
    i64::try_from(to.saturating_sub(from)).unwrap_or(i64::MAX)
}

/// The protocol's result JSON: winner, scores, type, description, summary.
pub fn outcome(winner: Option<Color>, kind: ResultType) -> GameOutcome {
    let name = |c: Color| if c == Color::White { "white" } else { "black" };
    let description = match (winner, kind) {
        (Some(w), ResultType::Checkmate) => format!("{} won by checkmate", name(w)),
        (Some(w), ResultType::Resignation) => format!("{} resigned", name(!w)),
        (Some(w), ResultType::Timeout) => format!("{} forfeit on time", name(!w)),
        (None, ResultType::Timeout) => "insufficient mating material".into(),
        (_, ResultType::Stalemate) => "stalemate".into(),
        (_, ResultType::InsufficientMaterial) => "insufficient material".into(),
        (_, ResultType::DrawAgreed) => "draw agreed".into(),
        (_, ResultType::Threefold) => "threefold repetition".into(),
        (_, ResultType::FiftyMoveRule) => "fifty move rule".into(),
        (_, other) => format!("{other:?}"),
    };
    let (scores, summary) = match winner {
        Some(Color::White) => (ByColour { w: 1.0, b: 0.0 }, "1-0"),
        Some(Color::Black) => (ByColour { w: 0.0, b: 1.0 }, "0-1"),
        None => (ByColour { w: 0.5, b: 0.5 }, "½-½"),
    };
    GameOutcome {
        winner: winner.map(colour),
        is_draw: winner.is_none(),
        scores,
        kind,
        description,
        summary: summary.into(),
    }
}

/// A premove as the protocol sends it back to its player.
pub fn premove_request(premove: Premove) -> Option<MoveRequest> {
    let promote = premove.promote_to.map(|role| match role {
        Role::Knight => PromotionPiece::N,
        Role::Bishop => PromotionPiece::B,
        Role::Rook => PromotionPiece::R,
        _ => PromotionPiece::Q,
    });
    MoveRequest::new(u8::from(premove.from), u8::from(premove.to), promote)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(from: Square, to: Square) -> MoveRequest {
        MoveRequest::new(u8::from(from), u8::from(to), None).unwrap()
    }

    fn game() -> Game {
        let options = TimeOptions {
            initial_time: 60_000,
            time_increment: 2_000,
        };
        let players = ByColour {
            w: "a".to_string(),
            b: "b".to_string(),
        };
        Game::new("g".into(), players, options, 1_000)
    }

    #[test]
    fn clocks_start_at_the_third_ply_and_add_the_increment() {
        let mut g = game();
        g.play_request(Color::White, &request(Square::E2, Square::E4), 11_000)
            .unwrap();
        g.play_request(Color::Black, &request(Square::E7, Square::E5), 21_000)
            .unwrap();
        assert_eq!(g.remaining, [60_000, 60_000]);
        g.play_request(Color::White, &request(Square::G1, Square::F3), 26_000)
            .unwrap();
        assert_eq!(g.remaining, [57_000, 60_000]);
        assert_eq!(g.clocks_at(36_000), [57_000, 50_000]);
        assert_eq!(g.check_time(85_999), None);
        assert_eq!(g.check_time(86_000), Some(TimeEvent::Flagged));
        assert_eq!(
            g.result.as_ref().unwrap().description,
            "black forfeit on time"
        );
    }

    /// 1. e4 e5 2. Nf3, at 11 s, 21 s and 26 s: black's clock runs.
    fn after_nf3() -> Game {
        let mut g = game();
        for (color, from, to, at) in [
            (Color::White, Square::E2, Square::E4, 11_000),
            (Color::Black, Square::E7, Square::E5, 21_000),
            (Color::White, Square::G1, Square::F3, 26_000),
        ] {
            g.play_request(color, &request(from, to), at).unwrap();
        }
        g
    }

    #[test]
    fn a_restart_credits_the_side_to_move_the_time_the_hub_stood_still_only() {
        let mut g = after_nf3();
        // Black thought 4 s, the hub stopped at 30 s and came back at 31.5 s.
        assert_eq!(g.resume(31_500, Some(30_000)), 1_500);
        assert_eq!(g.added, [0, 1_500]);
        assert_eq!(g.clocks_at(31_500), [57_000, 56_000]);
        // A move after the hub's last note: the time since the move.
        let mut h = after_nf3();
        assert_eq!(h.resume(27_000, Some(25_800)), 1_000);
        // Restored from backups, the hub's stop unknown: since the last move, as the protocol.
        let mut r = after_nf3();
        assert_eq!(r.resume(31_500, None), 5_500);
        // Added time past any clock saturates instead of wrapping round to a flag.
        r.add_time([i64::MAX, 0]);
        assert_eq!(r.remaining[0], i64::MAX);
    }

    #[test]
    fn backups_with_impossible_times_are_refused() {
        use notate::protocol::messages::AddedTime;
        let details = |start_time: u64, initial_time: u64, added: u64| GameDetails {
            history: Vec::new(),
            start_time,
            options: TimeOptions {
                initial_time,
                time_increment: 0,
            },
            added_time: AddedTime {
                w: added,
                b: 0,
                other: Default::default(),
            },
            id: "g".into(),
        };
        let now = 100 * 3_600_000;
        assert_eq!(backup_refusal(&details(now - 60_000, 60_000, 0), now), None);
        let refusal = |d: GameDetails| backup_refusal(&d, now).unwrap();
        assert_eq!(
            refusal(details(now - 60_000, 0, 0)),
            "Initial time must be at least 1s"
        );
        assert_eq!(
            refusal(details(now - 60_000, u64::MAX, 0)),
            "at most 3 hours and an increment of 3 minutes"
        );
        assert_eq!(
            refusal(details(now + 1, 60_000, 0)),
            "the game's start is not a time past"
        );
        assert_eq!(
            refusal(details(now - 60_000, 60_000, u64::MAX)),
            "more time added than the game has lasted"
        );
        assert_eq!(
            refusal(details(1_000, 60_000, 0)),
            "the game stood still for more than a day"
        );
        let mut late = details(now - 60_000, 60_000, 0);
        let mut g = game();
        g.play_request(Color::White, &request(Square::E2, Square::E4), 11_000)
            .unwrap();
        let mut packed = g.history[0].clone();
        packed.time = now + 5;
        late.history.push(packed);
        assert_eq!(
            refusal(late),
            "ply 1: its time is before the one before it, or still to come"
        );
    }

    #[test]
    fn backups_with_moves_after_an_abort_or_a_flag_are_refused() {
        use notate::protocol::messages::AddedTime;
        let now = 100 * 3_600_000;
        let start = now - 600_000;
        let mut g = game();
        g.play_request(Color::White, &request(Square::E2, Square::E4), 11_000)
            .unwrap();
        // Only the moves' times count here: one packed move at each time (ms after start).
        let backup = |times: &[u64], added_black: u64| GameDetails {
            history: times
                .iter()
                .map(|&t| PackedMove {
                    time: if t == 0 { 0 } else { start + t },
                    ..g.history[0].clone()
                })
                .collect(),
            start_time: start,
            options: TimeOptions {
                initial_time: 60_000,
                time_increment: 1_000,
            },
            added_time: AddedTime {
                w: 0,
                b: added_black,
                other: Default::default(),
            },
            id: "g".into(),
        };
        let refusal =
            |times: &[u64], added_black: u64| backup_refusal(&backup(times, added_black), now);
        assert_eq!(refusal(&[30_000, 60_000, 61_000, 120_999], 0), None);
        assert_eq!(
            refusal(&[30_001], 0).unwrap(),
            "ply 1: played after the game would have been aborted"
        );
        assert_eq!(
            refusal(&[1_000, 31_001], 0).unwrap(),
            "ply 2: played after the game would have been aborted"
        );
        // Black's clock runs from white's second move: 60 s on it, and 1 s more from the
        // increment after its move only.
        assert_eq!(
            refusal(&[1_000, 2_000, 3_000, 63_000], 0).unwrap(),
            "ply 4: played after its side's time ran out"
        );
        // Added time, wherever it was given, may have kept the flag up.
        assert_eq!(refusal(&[1_000, 2_000, 3_000, 63_000], 500), None);
        // White's increment: 60 s, less 1 s, plus 1 s, then 60 s more is too much.
        assert_eq!(
            refusal(&[1_000, 2_000, 3_000, 4_000, 64_000], 0).unwrap(),
            "ply 5: played after its side's time ran out"
        );
        assert_eq!(refusal(&[1_000, 2_000, 3_000, 4_000, 63_999], 0), None);
        // Next to a move of unknown time (0), what a move took is not known: not refused.
        assert_eq!(refusal(&[1_000, 0, 40_000], 0), None);
    }

    #[test]
    fn a_promotion_needs_its_piece_and_other_moves_ignore_one() {
        let pos: Chess = "8/P7/8/8/8/8/8/k6K w - - 0 1"
            .parse::<notate::shakmaty::fen::Fen>()
            .unwrap()
            .into_position(notate::shakmaty::CastlingMode::Standard)
            .unwrap();
        assert_eq!(find_move(&pos, Square::A7, Square::A8, None), None);
        let knight = find_move(&pos, Square::A7, Square::A8, Some(Role::Knight)).unwrap();
        assert_eq!(knight.promotion(), Some(Role::Knight));
        let king = find_move(&pos, Square::H1, Square::G1, Some(Role::Queen)).unwrap();
        assert_eq!((king.role(), king.promotion()), (Role::King, None));
    }

    #[test]
    fn opening_moves_are_due_within_thirty_seconds() {
        let mut g = game();
        assert_eq!(g.check_time(31_000), None);
        assert_eq!(g.check_time(31_001), Some(TimeEvent::Aborted));
        assert!(!g.in_progress());
    }

    #[test]
    fn castling_by_the_kings_destination_and_mate() {
        let mut g = game();
        for (i, (from, to)) in [
            (Square::F2, Square::F3),
            (Square::E7, Square::E5),
            (Square::G2, Square::G4),
            (Square::D8, Square::H4),
        ]
        .into_iter()
        .enumerate()
        {
            let color = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            assert!(g.play_request(color, &request(from, to), 2_000).is_ok());
        }
        assert_eq!(
            g.result.as_ref().unwrap().description,
            "black won by checkmate"
        );
        assert_eq!(g.result_text(), "0-1");
        let pos = Chess::default();
        assert!(find_move(&pos, Square::E1, Square::G1, None).is_none());
    }

    #[test]
    fn a_capture_that_leaves_no_mating_material_draws() {
        let mut g = game();
        let fen: notate::shakmaty::fen::Fen = "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1".parse().unwrap();
        g.pos = fen
            .into_position(notate::shakmaty::CastlingMode::Standard)
            .unwrap();
        g.play_request(Color::White, &request(Square::E1, Square::D2), 2_000)
            .unwrap();
        let result = g.result.as_ref().unwrap();
        assert!(result.is_draw);
        assert_eq!(result.description, "insufficient material");
        assert_eq!(g.result_text(), "1/2-1/2");
    }
}
