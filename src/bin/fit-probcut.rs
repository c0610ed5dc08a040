//! Fit the Multi-ProbCut table of the Othello midgame search (`assets/probcut.txt`, read by
//! `search::othello::probcut`) and print it.
//!
//! ```sh
//! # the shipped table (assets/probcut.txt): nodes of the engine's own depth-12 searches
//! cargo run --release --bin fit-probcut -- --games 60 --depth 11 --min-empties 13 \
//!     --stage-width 6 --tree-depth 12
//! ```
//!
//! Positions, with `--tree-depth D` (the shipped table): the nodes where the search itself tries
//! Multi-ProbCut. Games from the XOT openings are played by the engine at depth `D` (its
//! fixed-depth confidence, a cleared table per game) down to `--tree-until` empties; every
//! search board offers its tried nodes to a `probcut::NodeSampler`, which keeps one in 16 (by
//! hash) with three or more plies left; of the distinct nodes, `--per-stage` a stage are kept
//! (a seeded choice). These are the positions the table is used on: mostly one to nine plies
//! below a played position, many after a poor move. The searches that sample them prune with
//! the table the binary was built with: the shipped table came from a build with the previous
//! one (fitted on the greedy games below), so the command run again on today's build samples
//! a slightly different tree.
//!
//! Positions without it: games from the XOT openings (`assets/xot.txt`, taken in order) played on
//! by the best move of a one-ply pattern evaluation, one move in eight at random for variety; every
//! `--every`-th position of a game (a different phase for each game) with more than `--min-empties`
//! empties is kept. Each kept position is searched by the engine itself (iterative deepening to
//! `--depth`, one thread, Multi-ProbCut off, a cleared table per position, so the fit does not
//! depend on the machine or the order), and every iteration's score is recorded. For each stage (a
//! band of `--stage-width` empties) and each depth `d`, the depth-`d` scores are regressed on those
//! of the shallow depth `d'` of `probcut::shallow_depth` by least squares: slope, intercept, and
//! the standard deviation σ of the residuals, in centi-discs. The table is printed and written to
//! `--out`.
//!
//! The greedy games' positions (the table before session 56, `--games 150 --every 4`) are more
//! lopsided than the nodes the search tries the cut on, and give larger σ from 26 to 49 empties
//! (see `search::othello::probcut`). Measured on `nboard` at depth 12 (`220,5`) over 60
//! positions of our games against NTest: the greedy table 21.49M nodes in 2.85-2.89 s; fitted on
//! descendants of stronger games (a depth-6 policy, then up to four random plies, a throwaway
//! option) 20.42M in 2.68 s; on the nodes of our searches in 80 games against NTest (logged by a
//! throwaway switch) 15.59M in 2.12 s; on the nodes of self-play at depth 12 (`--tree-depth 12`,
//! one node in 256 kept, no rows above 49 empties: too few nodes there) close to that; one in 16
//! (shipped) 14.82M in 1.99 s.
//!
//! Session 62, the shipped command run again on the session-61 midgame bands (`--label-depth 1`;
//! the shipped table was fitted on the bands before them): σ 5% smaller at 38-49 empties, within
//! 3% at 26-37. Both engines at depth 12 on the twelve 40-game sets of seeds 193-257, 48.4%
//! (206-221-53) where the shipped table scores 48.5% (207-221-52). At equal time (NTest at depth
//! 16 against `nboard --move-ms 52` on the six sets of `BUDGET_SHARES`, two matches side by side;
//! NTest, built again, thinks 40-42 ms a move here, xorboard 45): 30.4% (58-152-30), where the
//! shipped table scored 35.2% (70-141-29) just before; set by set -4.8 points (the shipped order
//! -3.8; seeds 7, 11, 13, 17, 19: -8.7, +3.8, -7.5, -8.8, -3.8). Not kept.
//! The shipped table's tree games were played at `250,5`, the fixed-depth confidence (`230,5` for
//! a while in session 62, when the engine was slower).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use xorboard::game::othello::{Othello, moves};
use xorboard::game::{Game, Move, Side};
use xorboard::search::othello::probcut::{
    MIN_DEPTH, Row, Table as ProbCutTable, sample_tree_nodes, shallow_depth,
};
use xorboard::search::othello::{HANDOVER_GAP, pattern_evaluate};
use xorboard::search::{Limits, Searcher};
use xorboard::tt::{Policy, Table};

/// Fit the Multi-ProbCut table.
#[derive(clap::Parser)]
#[command(about)]
struct Args {
    /// Games to take positions from (one XOT opening each).
    #[arg(long, default_value_t = 120)]
    games: usize,
    /// Deepest search (the table's deepest row).
    #[arg(long, default_value_t = 11)]
    depth: i32,
    /// Keep every n-th position of a game.
    #[arg(long, default_value_t = 4)]
    every: usize,
    /// Keep positions with more empties than this.
    #[arg(long, default_value_t = 13)]
    min_empties: u32,
    /// Empties per stage.
    #[arg(long, default_value_t = 6)]
    stage_width: u32,
    /// Table size (MiB).
    #[arg(long, default_value_t = 32)]
    tt_mib: usize,
    /// Fit on the nodes where the search tries Multi-ProbCut instead of the game positions: the
    /// games are played by the engine at this depth (its fixed-depth confidence, a cleared
    /// table per game, up to `--tree-until` empties), and the nodes of those searches are
    /// sampled ([`NodeSampler`](xorboard::search::othello::probcut::NodeSampler)). 0: the
    /// greedy games' positions themselves.
    #[arg(long, default_value_t = 0)]
    tree_depth: u32,
    /// The tree games stop at this many empties.
    #[arg(long, default_value_t = 24)]
    tree_until: u32,
    /// Tree positions kept per stage (a seeded sample of the distinct nodes).
    #[arg(long, default_value_t = 250)]
    per_stage: usize,
    /// Where to write the table.
    #[arg(long, default_value = "assets/probcut.txt")]
    out: std::path::PathBuf,
}

/// One searched position: its empties and the score of each iteration (index = depth).
struct Sample {
    empties: u32,
    scores: Vec<Option<i32>>,
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    let start = Instant::now();
    let positions = if args.tree_depth > 0 {
        tree_positions(&args)
    } else {
        positions(&args)
    };
    eprintln!("{} positions from {} games", positions.len(), args.games);
    let table = Arc::new(Table::new(args.tt_mib, Policy::TwoTier, 64));
    let stop = AtomicBool::new(false);
    let mut samples = Vec::with_capacity(positions.len());
    for (i, g) in positions.iter().enumerate() {
        table.clear();
        let mut s: Searcher<Othello> = Searcher::new(table.clone());
        let mut options = s.options();
        options.probcut = None;
        options.count_stats = false;
        s.set_options(options);
        let depth = args.depth.min(g.empties() as i32 - 1).max(1);
        let mut scores = vec![None; depth as usize + 1];
        // Depth 0: the static evaluation (the iterations start at depth 1).
        let (p, o) = g.player_opponent();
        scores[0] = Some(pattern_evaluate(p, o));
        let last = s.search(g, &Limits::depth(depth as u32), &stop, &mut |st| {
            if st.depth >= 1 && !st.exact {
                scores[st.depth as usize] = Some(st.raw_score);
            }
        });
        if !last.exact && last.depth >= 1 {
            scores[last.depth as usize] = Some(last.raw_score);
        }
        samples.push(Sample {
            empties: g.empties(),
            scores,
        });
        if i % 50 == 49 {
            eprintln!(
                "{} / {} searched, {:.0?}",
                i + 1,
                positions.len(),
                start.elapsed()
            );
        }
    }
    let rows = fit(&samples, &args);
    let mut text = format!(
        "# Multi-ProbCut table of the Othello midgame search, written by\n\
         # cargo run --release --bin fit-probcut -- --games {} --depth {} --every {} \
         --min-empties {} --stage-width {}{}\n\
         # ({} positions). Scores in centi-discs: v_deep ~ slope * v_shallow + intercept, \
         sigma the residuals' standard deviation.\n\
         # min_empties max_empties deep shallow slope intercept sigma samples\n",
        args.games,
        args.depth,
        args.every,
        args.min_empties,
        args.stage_width,
        if args.tree_depth > 0 {
            format!(
                " --tree-depth {} --tree-until {} --per-stage {}",
                args.tree_depth, args.tree_until, args.per_stage
            )
        } else {
            String::new()
        },
        samples.len()
    );
    for r in &rows {
        text.push_str(&r.line());
        text.push('\n');
    }
    print!("{text}");
    ProbCutTable::parse(&text).expect("the fitted table parses");
    std::fs::write(&args.out, &text).expect("write the table");
    eprintln!("wrote {} in {:.0?}", args.out.display(), start.elapsed());
}

/// The positions to search, in a fixed order.
fn positions(args: &Args) -> Vec<Othello> {
    let openings = xorboard::book::xot_openings();
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    let mut out = Vec::new();
    for gi in 0..args.games {
        let mut g = game_opening(&openings, gi);
        let mut ply = gi;
        let mut legal = Vec::new();
        while !g.is_over() && g.empties() > args.min_empties {
            let (p, o) = g.player_opponent();
            if moves(p, o) != 0 && ply % args.every == 0 {
                out.push(g.clone());
            }
            ply += 1;
            g.legal_moves(&mut legal);
            let mv = if legal.len() > 1 && next().is_multiple_of(8) {
                legal[(next() % legal.len() as u64) as usize]
            } else {
                best_by_evaluation(&mut g, &legal)
            };
            g.play(mv);
        }
    }
    out
}

/// The nodes where the engine's own searches try Multi-ProbCut: games from the XOT openings
/// (the same openings as [`positions`]) played by the engine at `--tree-depth`, every search's
/// tried nodes sampled, then at most `--per-stage` distinct ones per stage, a seeded choice.
fn tree_positions(args: &Args) -> Vec<Othello> {
    let openings = xorboard::book::xot_openings();
    let starts: Vec<Othello> = (0..args.games)
        .map(|gi| game_opening(&openings, gi))
        .collect();
    let nodes = sample_tree_nodes(
        &starts,
        args.tree_depth,
        xorboard::commands::tools::TREE_SAMPLING,
        16,
        args.tree_until,
        args.tt_mib,
    );
    let mut seen = std::collections::HashSet::new();
    let mut by_stage: std::collections::BTreeMap<u32, Vec<(u64, u64)>> = Default::default();
    for (p, o) in nodes {
        let empties = (p | o).count_zeros();
        if empties > args.min_empties && moves(p, o) != 0 && seen.insert((p, o)) {
            let stage = (empties - args.min_empties - 1) / args.stage_width;
            by_stage.entry(stage).or_default().push((p, o));
        }
    }
    let mut next = xorshift(0x2545_F491_4F6C_DD1D);
    let mut out = Vec::new();
    for nodes in by_stage.values_mut() {
        // A seeded Fisher-Yates shuffle, then the first `per_stage`.
        for i in (1..nodes.len()).rev() {
            nodes.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        out.extend(nodes.iter().take(args.per_stage).map(|&(p, o)| {
            Othello::from_bitboards(p, o, Side::Black, xorboard::zobrist::Keys::default_keys())
        }));
    }
    out
}

/// Game `index`'s start ([`xorboard::book::spread_xot_opening`]).
fn game_opening(openings: &[&str], index: usize) -> Othello {
    xorboard::book::spread_xot_opening(openings, index, xorboard::zobrist::Keys::default_keys())
}

/// A xorshift generator from `seed` (not zero).
fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// The move whose resulting position the pattern evaluation likes best for the mover.
fn best_by_evaluation(g: &mut Othello, legal: &[Move]) -> Move {
    let mut best = (i32::MIN, legal[0]);
    for &mv in legal {
        g.play(mv);
        let (p, o) = g.player_opponent();
        let v = -pattern_evaluate(p, o);
        g.undo();
        if v > best.0 {
            best = (v, mv);
        }
    }
    best.1
}

/// Least squares of the deep scores on the shallow ones, per stage and depth.
fn fit(samples: &[Sample], args: &Args) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut lo = args.min_empties + 1;
    while lo <= 60 {
        let hi = (lo + args.stage_width - 1).min(60);
        for deep in MIN_DEPTH..=args.depth {
            let shallow = shallow_depth(deep);
            let pairs: Vec<(f64, f64)> = samples
                .iter()
                .filter(|s| (lo..=hi).contains(&s.empties))
                // Without the root's moves handed over to the exact solver.
                .filter(|s| deep + HANDOVER_GAP < s.empties as i32)
                .filter_map(|s| {
                    let x = (*s.scores.get(shallow as usize)?)?;
                    Some((x as f64, (*s.scores.get(deep as usize)?)? as f64))
                })
                .collect();
            if pairs.len() < 20 {
                continue;
            }
            let n = pairs.len() as f64;
            let mx = pairs.iter().map(|p| p.0).sum::<f64>() / n;
            let my = pairs.iter().map(|p| p.1).sum::<f64>() / n;
            let sxx: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
            let sxy: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
            let slope = if sxx > 0.0 { sxy / sxx } else { 1.0 };
            let intercept = my - slope * mx;
            let sse: f64 = pairs
                .iter()
                .map(|p| (p.1 - slope * p.0 - intercept).powi(2))
                .sum();
            let sigma = (sse / (n - 2.0)).sqrt();
            rows.push(Row {
                min_empties: lo,
                max_empties: hi,
                deep,
                shallow,
                slope: slope as f32,
                intercept: intercept as f32,
                sigma: sigma as f32,
                samples: pairs.len() as u32,
            });
        }
        lo = hi + 1;
    }
    rows
}
