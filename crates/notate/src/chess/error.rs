//! A chess game that could not be read or replayed, with the tags read before the failure
//! (the error itself is the crate's one [`Error`]).

use super::game::Tags;
use crate::Error;

/// A game that could not be read or replayed: its tags (as far as they were read) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedGame {
    /// The tags read before the error.
    pub tags: Tags,
    /// The error.
    pub error: Error,
}
