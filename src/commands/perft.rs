//! `xorboard perft`: count move paths to a depth, optionally memoised by Zobrist hash.

use std::time::Instant;

use clap::Args;
use serde_json::json;

use super::{CommandError, CommandResult, GameArgs};
use crate::game::GameKind;
use crate::perft::{self, Memo};
use crate::with_game;
use crate::zobrist::Keys;

#[derive(Args, Debug, Clone)]
pub struct PerftArgs {
    #[command(flatten)]
    pub spec: GameArgs,
    /// Plies to enumerate (Othello 0–20, Gomoku 0–6).
    #[arg(long, short)]
    pub depth: u32,
    /// Memoise subtree counts by (Zobrist hash, depth) and report the transpositions found.
    #[arg(long)]
    pub hash: bool,
    /// Memo table size as a power of two of 16-byte slots (with --hash).
    #[arg(long, default_value_t = 24)]
    pub hash_bits: u32,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &PerftArgs) -> CommandResult {
    let max = match args.spec.game {
        GameKind::Othello => 20,
        GameKind::Gomoku => 6,
    };
    if args.depth > max {
        return Err(CommandError(format!(
            "depth {} out of range for {}: 0 to {max}",
            args.depth, args.spec.game
        )));
    }
    if !(10..=30).contains(&args.hash_bits) {
        return Err(CommandError(format!(
            "hash-bits {} out of range: 10 to 30",
            args.hash_bits
        )));
    }
    let start = Instant::now();
    let mut memo = args.hash.then(|| Memo::new(args.hash_bits));
    let leaves = match (&mut memo, args.spec.start()?) {
        (None, super::AnyGame::Othello(_)) => perft::othello_perft(args.depth),
        (Some(m), super::AnyGame::Othello(_)) => {
            perft::othello_perft_hashed(args.depth, Keys::for_seed(args.spec.seed), m)
        }
        (None, any) => with_game!(any, g => { let mut g = g; perft::perft(&mut g, args.depth) }),
        (Some(m), any) => {
            with_game!(any, g => { let mut g = g; perft::perft_hashed(&mut g, args.depth, m) })
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let nps = leaves as f64 / seconds.max(1e-9);
    if args.json {
        let mut v = json!({
            "game": args.spec.game.name(),
            "depth": args.depth,
            "leaves": leaves,
            "seconds": seconds,
            "nps": nps.round() as u64,
        });
        if let Some(m) = &memo {
            v["transpositions"] = json!(m.stats.transpositions);
            v["stores"] = json!(m.stats.stores);
            v["table_entries"] = json!(m.stats.entries);
        }
        super::print_json(&v);
    } else {
        println!(
            "{} perft depth {}: {} leaves in {:.3} s ({:.1} M leaves/s)",
            args.spec.game,
            args.depth,
            leaves,
            seconds,
            nps / 1e6
        );
        if let Some(m) = &memo {
            println!(
                "hash memo: {} transpositions found, {} subtree counts stored, {} slots",
                m.stats.transpositions, m.stats.stores, m.stats.entries
            );
        }
    }
    Ok(())
}
