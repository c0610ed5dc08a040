//! `xorboard piskvork` (also the `pbrain-xorboard` binary, the name Gomoku managers require): the
//! Gomocup / Piskvork brain protocol on stdin/stdout. See [`crate::protocol::piskvork`].

use clap::Args;

use super::{CommandError, CommandResult};
use crate::book::GomokuBook;
use crate::protocol::piskvork::Piskvork;
use crate::protocol::{self, EngineThinker};
use crate::tt::Policy;
use crate::zobrist::Keys;

#[derive(Args, Debug, Clone)]
pub struct PiskvorkArgs {
    /// Largest transposition table in MiB (`INFO max_memory` may make it smaller).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: u64,
    /// Transposition table replacement policy.
    #[arg(long, value_enum, default_value_t = Policy::TwoTier)]
    pub policy: Policy,
    /// Search threads (Lazy SMP: helper threads share the transposition table); `INFO
    /// thread_num` may change it.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=crate::search::MAX_THREADS as u64))]
    pub threads: u64,
    /// Always search: leave out the opening book (`assets/gomoku-book.txt`, the engine's own
    /// long searches after the Gomocup freestyle openings and along the lines its recorded games
    /// took, used on 15×15 freestyle boards).
    #[arg(long)]
    pub no_book: bool,
}

pub fn run(args: &PiskvorkArgs) -> CommandResult {
    let keys = Keys::default_keys();
    let book = (!args.no_book).then(|| std::sync::Arc::new(GomokuBook::freestyle(keys)));
    let mut session = Piskvork::new(keys, args.hash as usize).with_book(book);
    // Started at `INFO max_memory` or the first move, so the table fits the memory allowed.
    let mut thinker = EngineThinker::lazy(args.hash as usize, args.policy);
    protocol::Thinker::set_threads(&mut thinker, args.threads as usize);
    let stdout = std::io::stdout();
    protocol::run(
        &mut session,
        &mut thinker,
        std::io::stdin(),
        &mut stdout.lock(),
    )
    .map_err(|e| CommandError(format!("piskvork: {e}")))
}
