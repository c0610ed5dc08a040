//! `xorboard nboard`: the NBoard protocol on stdin/stdout, for Othello GUIs (NBoard) and match
//! referees. See [`crate::protocol::nboard`] for the commands.

use std::sync::Arc;

use clap::Args;

use super::{CommandError, CommandResult};
use crate::book::OthelloBook;
use crate::protocol::nboard::{self, Nboard};
use crate::protocol::{self, EngineThinker};
use crate::search::ProbCutSpec;
use crate::search::othello;
use crate::tt::Policy;
use crate::zobrist::Keys;

#[derive(Args, Debug, Clone)]
pub struct NboardArgs {
    /// Search depth until the GUI sends `set depth` (1–60).
    #[arg(long, default_value_t = nboard::DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=nboard::MAX_DEPTH as i64))]
    pub depth: u32,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: u64,
    /// Transposition table replacement policy.
    #[arg(long, value_enum, default_value_t = Policy::TwoTier)]
    pub policy: Policy,
    /// Search threads (Lazy SMP: helper threads share the transposition table).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=crate::search::MAX_THREADS as u64))]
    pub threads: u64,
    /// Think this many milliseconds per move, shared out over the game: 60% of it from 60 to 45
    /// empties, 150% from 44 to 30, 300% from 29 to 22 just before the exact solver takes over
    /// (`set depth` then caps the depth, and a GGF clock from the GUI can only shorten it); what
    /// a move leaves unused (a book move all of its share) is banked, and each later move of the
    /// game gets a quarter of the bank on top of its share (at most twice its share), so the
    /// game's moves average about this. The root's moves then get probable win/loss/draw
    /// answers two plies before the proven ones (not with `--exact-endgame`). Without it, the
    /// depth alone decides.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub move_ms: Option<u64>,
    /// Multi-ProbCut in the midgame: `off`, or its confidence as BASE,PER_DEPTH in hundredths
    /// of a standard deviation, optionally then the static gate in centi-discs (a shallow
    /// search is tried only where the static evaluation comes that near its bound; `off`:
    /// always; default 100). Default: `250,5` at a fixed depth, the engine's `100,5` with
    /// `--move-ms`.
    #[arg(long, value_name = "SPEC")]
    pub probcut: Option<ProbCutSpec>,
    /// Solve the root's moves near the end for their exact disc count, as a GUI's analysis
    /// wants. Without it they are solved for their result alone (win, draw or loss, reported
    /// as 65.00, 0.00 or -65.00): all a match counts, and cheaper, so the solves start two
    /// plies further from the end, and probable ones (at 1.5 standard deviations) one ply
    /// before them.
    #[arg(long)]
    pub exact_endgame: bool,
    /// Search every move: without this, the first move after each XOT opening (with either
    /// colour), the second after the replies the engine expects (and, along its own lines from
    /// the first openings, the third) come at once from the opening book of the engine's own
    /// deep searches.
    #[arg(long)]
    pub no_book: bool,
}

pub fn run(args: &NboardArgs) -> CommandResult {
    let mut session = Nboard::new(Keys::default_keys())
        .with_depth(args.depth)
        .with_move_budget(args.move_ms.map(std::time::Duration::from_millis))
        .with_book((!args.no_book).then(|| Arc::new(OthelloBook::xot(Keys::default_keys()))));
    let mut thinker = EngineThinker::spawn(args.hash as usize, args.policy);
    protocol::Thinker::set_threads(&mut thinker, args.threads as usize);
    match args.probcut {
        Some(ProbCutSpec(confidence)) => thinker.engine().set_probcut(confidence),
        None if args.move_ms.is_none() => thinker
            .engine()
            .set_probcut(Some(nboard::FIXED_DEPTH_PROBCUT)),
        None => {}
    }
    thinker.engine().set_win_loss_draw(!args.exact_endgame);
    if args.move_ms.is_some() {
        thinker
            .engine()
            .set_early_result_plies(othello::EARLY_RESULT_PLIES);
    }
    let stdout = std::io::stdout();
    protocol::run(
        &mut session,
        &mut thinker,
        std::io::stdin(),
        &mut stdout.lock(),
    )
    .map_err(|e| CommandError(format!("nboard: {e}")))
}
