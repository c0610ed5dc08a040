//! The headless commands of the command line, one module each. Every command prints readable text,
//! or with `--json` one JSON object per line, and returns a [`CommandError`] (a one-line message,
//! exit status 2) on bad input instead of panicking.

pub mod bench;
pub mod compare;
pub mod hash;
pub mod lesson;
pub mod nboard;
pub mod perft;
pub mod piskvork;
pub mod play;
pub mod selfplay;
pub mod solve;

use std::fmt;

use clap::Args;

use crate::game::gomoku::{self, Gomoku, Rule};
use crate::game::othello::Othello;
use crate::game::{Game, GameKind};
use crate::zobrist::{DEFAULT_SEED, Keys};

/// A one-line error for the user; the binary prints it and exits with status 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandError(pub String);

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CommandError {}

impl From<String> for CommandError {
    fn from(s: String) -> Self {
        CommandError(s)
    }
}

impl From<&str> for CommandError {
    fn from(s: &str) -> Self {
        CommandError(s.to_string())
    }
}

pub type CommandResult = Result<(), CommandError>;

/// Which game, on which board, with which Zobrist keys.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct GameSpec {
    /// The game.
    #[arg(long, value_enum, default_value_t = GameKind::Othello)]
    pub game: GameKind,
    /// Gomoku board size (5–25).
    #[arg(long, default_value_t = gomoku::DEFAULT_SIZE)]
    pub size: usize,
    /// Gomoku rule: five or more wins (freestyle) or exactly five (exact5).
    #[arg(long, value_enum, default_value_t = Rule::Freestyle)]
    pub rule: Rule,
    /// Seed of the Zobrist keys (ChaCha20).
    #[arg(long, default_value_t = DEFAULT_SEED)]
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

/// A game of either kind, for code that picks the kind at run time.
#[derive(Clone, Debug)]
pub enum AnyGame {
    Othello(Othello),
    Gomoku(Gomoku),
}

impl GameSpec {
    /// The start position this spec describes.
    pub fn start(&self) -> Result<AnyGame, CommandError> {
        let keys = Keys::for_seed(self.seed);
        Ok(match self.game {
            GameKind::Othello => AnyGame::Othello(Othello::new(keys)),
            GameKind::Gomoku => AnyGame::Gomoku(Gomoku::try_new(self.size, self.rule, keys)?),
        })
    }
}

/// Split a move list in the game's own notation (Othello transcript, Gomoku comma list).
pub fn split_moves(kind: GameKind, text: &str) -> Result<Vec<String>, CommandError> {
    match kind {
        GameKind::Othello => Ok(crate::game::notation::split_othello_transcript(text)?),
        GameKind::Gomoku => Ok(crate::game::notation::split_gomoku_list(text)),
    }
}

/// Print one JSON object on its own line.
pub fn print_json(value: &serde_json::Value) {
    println!("{value}");
}

/// Run `f` on the game inside an [`AnyGame`], whatever its kind.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::commands::AnyGame::Othello($g) => $body,
            $crate::commands::AnyGame::Gomoku($g) => $body,
        }
    };
}

/// Play `moves` on the game, with the error naming the move and its position.
pub fn play_moves<G: Game>(game: &mut G, moves: &[String]) -> Result<(), CommandError> {
    crate::game::play_line(game, moves)?;
    Ok(())
}
