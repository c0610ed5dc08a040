//! What the person chose: the game, who plays which side, the engine's limits and the table's
//! settings (from the command line, changed later from the `:` line).

use std::path::PathBuf;
use std::time::Duration;

use crate::game::GameSpec;
use crate::game::Side;
use crate::search::Limits;
use crate::tt::Policy;

/// Engine time per move when neither `--time-ms` nor `--depth` is given.
pub const DEFAULT_TIME_MS: u64 = 2000;

/// Who the person at the keyboard plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Human {
    Black,
    White,
    /// Both sides (the engine only gives hints).
    Both,
    /// Neither: the engine plays itself (a demo).
    None,
}

impl Human {
    /// Whether the person moves for `side`.
    pub fn plays(self, side: Side) -> bool {
        match self {
            Human::Black => side == Side::Black,
            Human::White => side == Side::White,
            Human::Both => true,
            Human::None => false,
        }
    }

    /// The person playing exactly `side`.
    pub fn only(side: Side) -> Human {
        match side {
            Side::Black => Human::Black,
            Side::White => Human::White,
        }
    }
}

/// What the person chose on the command line (and may change from the command line `:`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub spec: GameSpec,
    pub human: Human,
    /// Engine time per move; `None` with no depth means [`DEFAULT_TIME_MS`].
    pub time_ms: Option<u64>,
    pub depth: Option<u32>,
    pub tt_mib: usize,
    pub policy: Policy,
    pub check_bits: u32,
    /// The engine plays book replies: along a named Othello opening or after an XOT one, and
    /// after a Gomocup opening in Gomoku.
    pub book: bool,
    /// Start from the game in this file (`play --load FILE`).
    pub load: Option<PathBuf>,
    /// Start from the kept game (`play --resume`).
    pub resume: bool,
    /// Where the current game is kept for `--resume` (`None`: not kept, e.g. in tests).
    pub keep: Option<PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            spec: GameSpec::default(),
            human: Human::Black,
            time_ms: None,
            depth: None,
            tt_mib: 64,
            policy: Policy::TwoTier,
            check_bits: 64,
            book: false,
            load: None,
            resume: false,
            keep: None,
        }
    }
}

impl Settings {
    /// The search limits these settings give.
    pub fn limits(&self) -> Limits {
        let time_ms = match (self.time_ms, self.depth) {
            (Some(ms), _) => Some(ms),
            (None, None) => Some(DEFAULT_TIME_MS),
            (None, Some(_)) => None,
        };
        Limits {
            depth: self.depth,
            time: time_ms.map(Duration::from_millis),
            nodes: None,
        }
    }
}
