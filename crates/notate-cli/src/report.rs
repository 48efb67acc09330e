//! What the user sees on stderr: error lines, the progress bar, the closing summary.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use notate::Error;

use crate::input::InputName;

/// What a game left to report besides its fate: what it survived, and who played it.
pub struct Notes {
    /// The players, `White – Black`, for messages.
    pub players: String,
    /// What the game survived (skipped tokens, what the output cannot hold).
    pub warnings: Vec<Error>,
}

impl Notes {
    /// The warnings, if any, with the players (computed only then).
    pub fn of(warnings: Vec<Error>, players: impl FnOnce() -> String) -> Option<Box<Notes>> {
        (!warnings.is_empty()).then(|| {
            Box::new(Notes {
                players: players(),
                warnings,
            })
        })
    }
}

/// Reports errors and progress; a progress bar only when stderr is a terminal.
pub struct Reporter {
    bar: Option<ProgressBar>,
    read_bytes: Option<Arc<AtomicU64>>,
    warnings: u64,
}

/// `4797` as `4,797`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One error line, the same for every family:
/// `FILE:LINE:COL: game N (White – Black), ply K "SAN": what is wrong` (the parts the error
/// does not know are left out; a JSON document names its path).
pub fn error_line(file: &str, game: u64, players: &str, error: &Error) -> String {
    let mut line = file.to_string();
    if let Some((at, column)) = error.line_and_column() {
        line.push_str(&format!(":{at}"));
        if let Some(column) = column {
            line.push_str(&format!(":{column}"));
        }
    }
    line.push_str(&format!(": game {game}"));
    if !players.is_empty() {
        line.push_str(&format!(" ({players})"));
    }
    if let Some(path) = &error.path {
        line.push_str(&format!(", {path}"));
    }
    if let Some(ply) = error.ply {
        line.push_str(&format!(", ply {ply}"));
    }
    if let Some(token) = &error.token {
        line.push(' ');
        line.push_str(&notate::error::quoted(token));
    }
    line.push_str(": ");
    line.push_str(&error.message);
    line
}

impl Reporter {
    /// A reporter; `show_progress` is also subject to stderr being a terminal.
    pub fn new(show_progress: bool) -> Reporter {
        let bar = (show_progress && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4));
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} {bytes}/{total_bytes} read, {msg} [{elapsed_precise}]",
                )
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        Reporter {
            bar,
            read_bytes: None,
            warnings: 0,
        }
    }

    /// Starts counting for these inputs.
    pub fn start(&mut self, inputs: &[InputName], read_bytes: Arc<AtomicU64>) {
        if let Some(bar) = &self.bar {
            let total: Option<u64> = inputs
                .iter()
                .map(|i| {
                    i.path
                        .as_ref()
                        .and_then(|p| std::fs::metadata(p).ok())
                        // A pipe's length is no length: no total then.
                        .filter(|m| m.is_file())
                        .map(|m| m.len())
                })
                .sum();
            if let Some(total) = total {
                bar.set_length(total);
            }
        }
        self.read_bytes = Some(read_bytes);
    }

    /// Games done so far.
    pub fn progress(&self, games: u64) {
        if let (Some(bar), Some(read)) = (&self.bar, &self.read_bytes) {
            bar.set_position(read.load(Ordering::Relaxed));
            let secs = bar.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!(
                "{} games, {} games/s",
                thousands(games),
                thousands((games as f64 / secs) as u64)
            ));
        }
    }

    /// A line on stderr (above the progress bar, when there is one).
    pub fn print(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => {
                let _ = writeln!(std::io::stderr().lock(), "{line}");
            }
        }
    }

    /// A game that failed; returns the line printed.
    pub fn game_error(&self, file: &str, game: u64, players: &str, error: &Error) -> String {
        let line = error_line(file, game, players, error);
        self.print(&line);
        line
    }

    /// What a game survived (skipped tokens, what the output cannot hold), one line each.
    pub fn warnings(&mut self, file: &str, game: u64, notes: Option<&Notes>) {
        if let Some(notes) = notes {
            for warning in &notes.warnings {
                self.warnings += 1;
                self.print(&format!(
                    "{} (warning)",
                    error_line(file, game, &notes.players, warning)
                ));
            }
        }
    }

    /// An input that could not be read.
    pub fn input_error(&self, message: &str) {
        self.print(&format!("notate: {message}"));
    }

    /// The closing summary line.
    pub fn finish(&self, verb: &str, ok: u64, failed: u64) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        let noun = if ok == 1 { "game" } else { "games" };
        let mut line = format!(
            "{verb} {} {noun}, {} failed",
            thousands(ok),
            thousands(failed)
        );
        if self.warnings > 0 {
            let noun = if self.warnings == 1 {
                "warning"
            } else {
                "warnings"
            };
            line.push_str(&format!(", {} {noun}", thousands(self.warnings)));
        }
        self.print(&line);
    }
}
