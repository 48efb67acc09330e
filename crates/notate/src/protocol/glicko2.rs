//! Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2012), as the jsonchess
//! server uses them: every player starts at 1500 / 350 / 0.06, τ is 0.5, and a rating period
//! closes after each 10 finished games of a player.
//!
//! Written here rather than taken from a crate: the volatility iteration and the period rule
//! must match the reference server's library (glicko2js) to 1e-6.
//!
//! ```
//! use notate::protocol::glicko2::{rate, Rating, RatedResult, TAU};
//! let player = Rating { rating: 1500.0, rd: 200.0, vol: 0.06 };
//! let opponent = |rating, rd| Rating { rating, rd, vol: 0.06 };
//! let after = rate(player, &[
//!     RatedResult { opponent: opponent(1400.0, 30.0), score: 1.0 },
//!     RatedResult { opponent: opponent(1550.0, 100.0), score: 0.0 },
//!     RatedResult { opponent: opponent(1700.0, 300.0), score: 0.0 },
//! ], TAU);
//! assert!((after.rating - 1464.05).abs() < 0.01);
//! assert!((after.rd - 151.52).abs() < 0.01);
//! ```

use std::f64::consts::PI;

/// The system constant the reference uses.
pub const TAU: f64 = 0.5;
/// Glicko-2's scale: rating points per unit of μ.
pub const SCALE: f64 = 173.7178;
/// Games of a player that close a rating period.
pub const GAMES_PER_RATING_PERIOD: usize = 10;
/// Convergence of the volatility iteration (the reference library's).
pub const EPSILON: f64 = 1e-7;

/// A rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// The rating deviation.
    pub rd: f64,
    /// The volatility.
    pub vol: f64,
}

impl Default for Rating {
    /// A new player: 1500, RD 350, volatility 0.06.
    fn default() -> Rating {
        Rating {
            rating: 1500.0,
            rd: 350.0,
            vol: 0.06,
        }
    }
}

/// One game of the period: the opponent's rating when it ended and the score (1, ½ or 0).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RatedResult {
    /// The opponent.
    pub opponent: Rating,
    /// 1 for a win, 0.5 for a draw, 0 for a loss.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// The rating after one period with these results (steps 2 to 8 of the paper; the
/// volatility by the Illinois iteration). No games: only the deviation grows.
pub fn rate(player: Rating, results: &[RatedResult], tau: f64) -> Rating {
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.rd / SCALE;
    let sigma = player.vol;
    if results.is_empty() {
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        return Rating {
            rd: phi_star * SCALE,
            ..player
        };
    }
    let mut v_inv = 0.0;
    let mut sum = 0.0;
    for r in results {
        let mu_j = (r.opponent.rating - 1500.0) / SCALE;
        let g_j = g(r.opponent.rd / SCALE);
        let e = 1.0 / (1.0 + (-g_j * (mu - mu_j)).exp());
        v_inv += g_j * g_j * e * (1.0 - e);
        sum += g_j * (r.score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * sum;

    let a = (sigma * sigma).ln();
    let phi2 = phi * phi;
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex).powi(2))
            - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi2 + v {
        (delta * delta - phi2 - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    // Bounded: the iteration converges in a handful of steps for any finite input; the bound
    // keeps a NaN from looping forever.
    for _ in 0..1000 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    let new_sigma = (big_a / 2.0).exp();
    let phi_star = (phi2 + new_sigma * new_sigma).sqrt();
    let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let new_mu = mu + new_phi * new_phi * sum;
    Rating {
        rating: new_mu * SCALE + 1500.0,
        rd: new_phi * SCALE,
        vol: new_sigma,
    }
}

/// A player's games since the last rating period closed; the period closes at the
/// [`GAMES_PER_RATING_PERIOD`]th game (the server's count-based periods: no time-based ones,
/// so the deviation never grows with inactivity).
///
/// ```
/// use notate::protocol::glicko2::{PendingResults, Rating};
/// let mut me = Rating::default();
/// let mut pending = PendingResults::default();
/// for _ in 0..9 {
///     assert!(!pending.record(&mut me, Rating::default(), 1.0));
/// }
/// assert!(pending.record(&mut me, Rating::default(), 1.0));
/// assert!(me.rating > 1500.0 && pending.results().is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PendingResults {
    results: Vec<RatedResult>,
}

impl PendingResults {
    /// Records a finished game; when it closes the period, `player` is rated and the list
    /// cleared (returns `true`).
    pub fn record(&mut self, player: &mut Rating, opponent: Rating, score: f64) -> bool {
        self.results.push(RatedResult { opponent, score });
        if self.results.len() < GAMES_PER_RATING_PERIOD {
            return false;
        }
        *player = rate(*player, &self.results, TAU);
        self.results.clear();
        true
    }

    /// The games of the open period.
    pub fn results(&self) -> &[RatedResult] {
        &self.results
    }
}
