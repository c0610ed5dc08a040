//! The games the crate plays, in one place: [`GameKind`] names them, [`AnyGame`] holds a game of
//! any kind for code that picks the kind at run time (the screen, the engine thread, the
//! protocols, game records, the command line), [`with_game!`](crate::with_game) runs the same code
//! on whichever game an `AnyGame` holds, and [`GameSpec`] says which game to start. It sits below
//! everything that uses it; a new game is one more variant in each of these.

use std::fmt;

use super::gomoku::{self, Gomoku, Rule};
use super::othello::Othello;
use crate::error::Error;
use crate::zobrist::{DEFAULT_SEED, Keys};

/// Which game a value belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    Othello,
    Gomoku,
}

impl GameKind {
    /// Every kind, in the order menus list them.
    pub const ALL: [GameKind; 2] = [GameKind::Othello, GameKind::Gomoku];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Othello => "othello",
            GameKind::Gomoku => "gomoku",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game of either kind, for code that picks the kind at run time.
#[derive(Clone, Debug)]
pub enum AnyGame {
    Othello(Othello),
    Gomoku(Gomoku),
}

/// Run an expression on the game inside an [`AnyGame`], whatever its kind:
/// `with_game!(&any, g => g.hash())`.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::game::AnyGame::Othello($g) => $body,
            $crate::game::AnyGame::Gomoku($g) => $body,
        }
    };
}

/// Which game, on which board, with which Zobrist keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSpec {
    pub game: GameKind,
    /// Gomoku board size (5–25).
    pub size: usize,
    /// Gomoku rule.
    pub rule: Rule,
    /// Seed of the Zobrist keys (ChaCha20).
    pub seed: u64,
}

impl Default for GameSpec {
    fn default() -> Self {
        GameSpec {
            game: GameKind::Othello,
            size: gomoku::DEFAULT_SIZE,
            rule: Rule::Freestyle,
            seed: DEFAULT_SEED,
        }
    }
}

impl GameSpec {
    /// The start position this spec describes.
    pub fn start(&self) -> Result<AnyGame, Error> {
        let keys = Keys::for_seed(self.seed);
        Ok(match self.game {
            GameKind::Othello => AnyGame::Othello(Othello::new(keys)),
            GameKind::Gomoku => AnyGame::Gomoku(Gomoku::try_new(self.size, self.rule, keys)?),
        })
    }
}
