//! The headless commands of the command line, one module each. Every command prints readable text,
//! or with `--json` one JSON object per line, and returns a [`CommandError`] (a one-line message,
//! exit status 2) on bad input instead of panicking. [`tools`] is the plumbing the project's
//! build and fitting binaries (`src/bin`) share.

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
pub mod tools;

pub mod values;

use std::fmt::Display;
use std::ops::RangeInclusive;
use std::str::FromStr;

use clap::Args;

use crate::game::gomoku::{self, Rule};
use crate::game::{Game, GameKind};
use crate::zobrist::DEFAULT_SEED;

pub use crate::error::Error as CommandError;
/// The registry's types, for the commands' convenience (code outside `commands` imports them from
/// [`crate::game`]).
pub use crate::game::{AnyGame, GameSpec};

pub type CommandResult = Result<(), CommandError>;

/// The command-line options naming a game: a [`GameSpec`] as clap reads it.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct GameArgs {
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

impl GameArgs {
    /// The spec these options name.
    pub fn to_spec(&self) -> GameSpec {
        GameSpec {
            game: self.game,
            size: self.size,
            rule: self.rule,
            seed: self.seed,
        }
    }

    /// The start position these options name.
    pub fn start(&self) -> Result<AnyGame, CommandError> {
        self.to_spec().start()
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

/// A number within `range` as clap reads it; otherwise the error "`what` from … to …" (`what`
/// names the number: "a whole number of MiB").
pub fn parse_within<T>(s: &str, range: &RangeInclusive<T>, what: &str) -> Result<T, String>
where
    T: FromStr + PartialOrd + Display,
{
    crate::ui::command::number_in(s, range)
        .ok_or_else(|| format!("{what} from {} to {}", range.start(), range.end()))
}

/// A transposition table size in MiB: within [`TT_MIB_RANGE`](crate::ui::command::TT_MIB_RANGE),
/// the range the screen's `:tt` accepts too.
pub fn parse_tt_mib(s: &str) -> Result<usize, String> {
    parse_within(
        s,
        &crate::ui::command::TT_MIB_RANGE,
        "a whole number of MiB",
    )
}

/// Play `moves` on the game, with the error naming the move and its position.
pub fn play_moves<G: Game>(game: &mut G, moves: &[String]) -> Result<(), CommandError> {
    crate::game::play_line(game, moves)?;
    Ok(())
}
