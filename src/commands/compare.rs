//! `xorboard compare`: the game screen's strategy comparison (`c`) without the screen. One
//! position (the start, or after `--moves`) searched to one depth under every replacement
//! strategy and without a table, each row on a fresh table of `--tt-kib` KiB, through the
//! engine thread as the screen does; the same rows, the winner marked ★, and the one-line
//! reading.
//!
//! The defaults (Othello depth 13 on 16 KiB = 1,024 slots, Gomoku depth 10 on 4 KiB = 256 slots) put
//! the table under
//! tens of times more stores than it has slots, where the strategies differ clearly.

use std::time::Duration;

use clap::Args;
use serde_json::json;

use super::{CommandError, CommandResult, GameArgs, play_moves, split_moves};
use crate::engine::compare::{self as lab, Job, Outcome, Plan, Store};
use crate::engine::{Engine, Report};
use crate::tt::Policy;
use crate::ui::compare::{self, HEAD, layout_row, text_rows};
use crate::ui::position::AnyGameExt;
use crate::with_game;

#[derive(Args, Debug, Clone)]
pub struct CompareArgs {
    #[command(flatten)]
    pub spec: GameArgs,
    /// Moves from the start: an Othello transcript (f5d6c3) or Gomoku coordinates (h8,i9).
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Size of every row's table in KiB (1–65536; default Othello 16 = 1,024 slots, Gomoku 4 = 256).
    #[arg(long)]
    pub tt_kib: Option<usize>,
    /// Search depth (default: Othello 13, Gomoku 10; at most 14 / 10).
    #[arg(long, short)]
    pub depth: Option<u32>,
    /// Check bits accepted for a hit (8–64).
    #[arg(long, default_value_t = 64)]
    pub check_bits: u32,
    /// One JSON object per row, then one with the summary.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &CompareArgs) -> CommandResult {
    let kind = args.spec.game;
    let (d0, k0) = lab::defaults(kind);
    let depth = args.depth.unwrap_or(d0);
    let max = lab::max_depth(kind);
    if depth == 0 || depth > max {
        return Err(CommandError(format!(
            "--depth {depth}: {kind} compares at depths 1 to {max}"
        )));
    }
    let kib = args.tt_kib.unwrap_or(k0);
    if !(lab::MIN_KIB..=lab::MAX_KIB).contains(&kib) {
        return Err(CommandError(format!(
            "--tt-kib {kib}: a table of {} to {} KiB",
            lab::MIN_KIB,
            lab::MAX_KIB
        )));
    }
    if !(crate::tt::MIN_CHECK_BITS..=crate::tt::MAX_CHECK_BITS).contains(&args.check_bits) {
        return Err(CommandError(format!(
            "--check-bits {}: 8 to 64",
            args.check_bits
        )));
    }
    let mut game = args.spec.start()?;
    let moves = split_moves(kind, &args.moves)?;
    with_game!(&mut game, g => play_moves(g, &moves))?;
    if game.outcome().is_some() {
        return Err(CommandError(
            "--moves: the game is over after these moves, nothing to search".into(),
        ));
    }
    let plan = Plan::new(depth, kib, args.check_bits);
    let engine = Engine::spawn(1, Policy::Always, args.check_bits);
    engine.compare(1, game.clone(), plan.clone());
    let mut outcomes: Vec<Option<Outcome>> = vec![None; plan.rows.len()];
    loop {
        match engine.recv_timeout(Duration::from_secs(3600)) {
            Some(Report::CompareRow {
                job: Job::Row(i),
                outcome,
                ..
            }) => outcomes[i] = Some(outcome),
            Some(Report::CompareDone { cancelled, .. }) => {
                if cancelled {
                    return Err(CommandError("the comparison was stopped".into()));
                }
                break;
            }
            Some(Report::Error(e)) => return Err(CommandError(format!("engine: {e}"))),
            Some(_) => {}
            None => return Err(CommandError("the engine stopped answering".into())),
        }
    }
    let rows: Vec<(Store, Option<&Outcome>, Option<String>)> = plan
        .rows
        .iter()
        .zip(&outcomes)
        .map(|(s, o)| {
            let o = o.as_ref();
            (*s, o, o.and_then(|o| o.best).map(|m| game.name(m)))
        })
        .collect();
    let pairs: Vec<(Store, Option<&Outcome>)> = rows.iter().map(|(s, o, _)| (*s, *o)).collect();
    let (best, worst) = compare::best_and_worst(&pairs)
        .ok_or_else(|| CommandError("no strategy finished".into()))?;
    let pressure = compare::pressure(&pairs).unwrap_or(0.0);
    let reading = compare::reading(&pairs).unwrap_or_default();
    let best_o = rows[best].1.expect("the winner finished");
    let worst_o = rows[worst].1.expect("the worst finished");
    let ratio = worst_o.nodes as f64 / best_o.nodes.max(1) as f64;
    let position = compare::describe(&game);
    if args.json {
        for (i, (store, o, mv)) in rows.iter().enumerate() {
            let Some(o) = o else { continue };
            super::print_json(&json!({
                "game": kind.to_string(),
                "moves": args.moves,
                "depth": depth,
                "tt_kib": kib,
                "slots": o.slots,
                "strategy": store.name(),
                "winner": i == best,
                "nodes": o.nodes,
                "nodes_vs_best": o.nodes as f64 / best_o.nodes.max(1) as f64,
                "ms": o.elapsed_ms,
                "probes": o.probes,
                "hits": o.hits,
                "hit_rate": o.hit_rate(),
                "usable_hits": o.usable_hits,
                "stores": {
                    "new_slot": o.fills,
                    "same_position": o.updates,
                    "replaced": o.replacements,
                    "kept_old": o.rejected,
                },
                "replaced": o.replacements,
                "hashfull": if o.slots == 0 { 0.0 } else { (o.fills as f64 / o.slots as f64).min(1.0) },
                "pressure": o.pressure(),
                "false_matches": o.false_matches,
                "best": mv,
                "score": o.score,
            }));
        }
        super::print_json(&json!({
            "summary": true,
            "game": kind.to_string(),
            "moves": args.moves,
            "depth": depth,
            "tt_kib": kib,
            "slots": plan.slots(),
            "pressure": pressure,
            "best": rows[best].0.name(),
            "best_nodes": best_o.nodes,
            "worst": rows[worst].0.name(),
            "worst_nodes": worst_o.nodes,
            "worst_vs_best": ratio,
            "reading": reading,
        }));
        return Ok(());
    }
    println!("compare · {position} · depth {depth}");
    println!("{}", compare::size_line(&plan, Some(pressure), 0));
    println!();
    println!("{}", layout_row(&HEAD.map(String::from)));
    for cells in text_rows(kind, &rows) {
        println!("{}", layout_row(&cells));
    }
    println!();
    println!("{reading}");
    println!(
        "worst ÷ best nodes: {:.2} ({} {} ÷ {} {})",
        ratio,
        rows[worst].0.name(),
        worst_o.nodes,
        rows[best].0.name(),
        best_o.nodes
    );
    Ok(())
}
