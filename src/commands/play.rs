//! `xorboard play` (also plain `xorboard`): the terminal game. Parses the options and hands over
//! to [`crate::ui::run`]. The game is kept in the resume file ([`crate::record::resume_path`])
//! after every move and on quit; `--resume` starts from it, `--load FILE` from a record file.

use std::path::PathBuf;

use clap::Args;

use super::{CommandResult, GameArgs, parse_tt_mib, parse_within};
use crate::tt::Policy;
use crate::ui::app::{Human, Settings};
use crate::ui::command::CHECK_BITS_RANGE;

#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    #[command(flatten)]
    pub spec: GameArgs,
    /// Which side you play; `none` lets the engine play itself.
    #[arg(long, value_enum, default_value_t = Human::Black)]
    pub human: Human,
    /// Engine time per move in milliseconds (default 2000, or none when --depth is given).
    #[arg(long, value_parser = clap::value_parser!(u64).range(10..=3_600_000))]
    pub time_ms: Option<u64>,
    /// Engine depth limit.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = parse_tt_mib)]
    pub tt_mib: usize,
    /// TT replacement strategy (switch with s / S while playing).
    #[arg(long, value_enum, default_value_t = Policy::TwoTier)]
    pub strategy: Policy,
    /// Bits of the key an entry must match to count as a hit (8–64; fewer gives false matches).
    #[arg(long, default_value_t = 64, value_parser = parse_bits)]
    pub check_bits: u32,
    /// Let the engine play book replies: the named Othello openings, and in Gomoku its own long
    /// searches after the Gomocup openings (toggle with b).
    #[arg(long)]
    pub book: bool,
    /// Start from the game in this file (.ggf, .psq, .rif.txt, or an Othello transcript).
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    pub load: Option<PathBuf>,
    /// Continue the game kept from the last session.
    #[arg(long)]
    pub resume: bool,
}

fn parse_bits(s: &str) -> Result<u32, String> {
    parse_within(s, &CHECK_BITS_RANGE, "a number of bits")
}

impl PlayArgs {
    /// The UI settings these options ask for.
    pub fn settings(&self) -> Settings {
        Settings {
            spec: self.spec.to_spec(),
            human: self.human,
            time_ms: self.time_ms,
            depth: self.depth,
            tt_mib: self.tt_mib,
            policy: self.strategy,
            check_bits: self.check_bits,
            book: self.book,
            load: self.load.clone(),
            resume: self.resume,
            keep: crate::record::resume_path(),
        }
    }
}

pub fn run(args: &PlayArgs) -> CommandResult {
    crate::ui::run(args.settings())
}
