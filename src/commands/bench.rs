//! `xorboard bench`: the replacement-strategy experiment of Breuker, Uiterwijk and van den Herik
//! (1994/1996), and the search's signature.
//!
//! A fixed set of positions is searched to a fixed depth once per row: without a TT (`none`),
//! with seed 000's unbounded hash map (`map`), and with the fixed table under every strategy at
//! three sizes from tiny (replacement decides everything) to large. Each row starts from an empty
//! table and fresh move-ordering history for every position, so node counts are deterministic:
//! the total at the bottom is the signature of the search — a change that should not alter the
//! search keeps it. `--by-depth` prints seed 001's table instead: nodes with and without a TT for
//! every depth up to `--depth`.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::Args;
use serde_json::json;

use super::{CommandError, CommandResult};
use crate::game::GameKind;
use crate::game::gomoku::Gomoku;
use crate::game::othello::Othello;
use crate::search::{Limits, MAX_THREADS, Searchable, Searcher, TtStore};
use crate::tt::{Entry, MAX_CHECK_BITS, MIN_CHECK_BITS, Policy, SLOT_BYTES, Table, TtStats};

/// The Othello positions: the start and the Perpendicular opening (symmetric positions, whose
/// trees hold rotated and mirrored transpositions for `--symmetry`), then named openings (move
/// sequences from the start position).
pub const OTHELLO_POSITIONS: [&str; 10] = [
    "",
    "f5d6",
    "f5d6c3d3c4f4c5b4b5c6f3e6e3",               // Ishii
    "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5",           // Low-FAT
    "f5d6c4g5c6c5d7d3b4c3e3f3",                 // No-Cat (continuation)
    "f5d6c5f4e3c6d3f6e6d7g3c4b4c3",             // Rose-Tamenori-Kling
    "f5d6c5f4e3c6d3f6e6d7g4c4g6",               // Murakami variation
    "f5f6e6d6c5e3e7c6d7f7c7f4g6e8d8c8g5",       // Bat (Kling continuation)
    "f5f6e6d6e7g5g6e3c5c6d3c4b3",               // Mimura variation II
    "f5d6c3d3c4f4c5b3c2b4e3e6c6f6a5a4b5a6d7c7", // 20-move opening
];

/// The Gomoku positions (15×15 freestyle): one stone in the centre (symmetric, for
/// `--symmetry`), then Gomocup openings, some played on a few moves.
pub const GOMOKU_POSITIONS: [&str; 7] = [
    "h8",
    "h8,h9,j10,i9,h11",
    "h8,h9,h10,i10,i12",
    "h8,h9,i10,i9,f7",
    "h8,i9,j10,g10,f11",
    "h8,h9,j9,i8,h7,g9,i7",
    "h8,i9,j8,k8,l8,g8,i7,h7",
];

/// Default depths: deep enough that the tiny tables overflow many times (about 45 s and 30 s
/// for all rows on this machine).
const OTHELLO_DEPTH: u32 = 10;
const GOMOKU_DEPTH: u32 = 7;

/// Table sizes in slots: tiny, small, large.
const SIZES: [usize; 3] = [1 << 10, 1 << 14, 1 << 20];

#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// The game whose position set is searched.
    #[arg(long, value_enum, default_value_t = GameKind::Othello)]
    pub game: GameKind,
    /// Search depth (default: Othello 10, Gomoku 7; at most 14 / 10).
    #[arg(long, short)]
    pub depth: Option<u32>,
    /// Only this strategy's table rows (the `none` and `map` rows are always run).
    #[arg(long, value_enum)]
    pub strategy: Option<Policy>,
    /// Check bits accepted for a hit (8–64); fewer bits give false matches.
    #[arg(long, default_value_t = 64)]
    pub check_bits: u32,
    /// Seed 001's table: nodes with and without a TT for each depth 1..=D.
    #[arg(long)]
    pub by_depth: bool,
    /// Search threads (Lazy SMP on the shared table; node counts then vary run to run).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Symmetry keys: the table key is the smallest of the eight rotated/mirrored hashes, so
    /// symmetric positions share an entry.
    #[arg(long)]
    pub symmetry: bool,
    /// Compile the statistics counters out of the search (to measure what counting costs).
    #[arg(long)]
    pub no_stats: bool,
    /// One JSON object per row.
    #[arg(long)]
    pub json: bool,
}

/// One row of the experiment.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    pub strategy: String,
    pub tt_entries: usize,
    pub tt_mib: f64,
    pub nodes: u64,
    pub seconds: f64,
    pub probes: u64,
    pub hits: u64,
    pub usable_hits: u64,
    pub misses: u64,
    pub clashes: u64,
    pub false_matches: u64,
    pub fills: u64,
    pub updates: u64,
    pub replacements: u64,
    pub rejected: u64,
    pub hashfull: u32,
}

pub fn run(args: &BenchArgs) -> CommandResult {
    let max = match args.game {
        GameKind::Othello => 14,
        GameKind::Gomoku => 10,
    };
    let depth = args.depth.unwrap_or(match args.game {
        GameKind::Othello => OTHELLO_DEPTH,
        GameKind::Gomoku => GOMOKU_DEPTH,
    });
    if !(1..=max).contains(&depth) {
        return Err(CommandError(format!(
            "depth {depth} out of range for {}: 1 to {max}",
            args.game
        )));
    }
    if !(1..=MAX_THREADS).contains(&args.threads) {
        return Err(CommandError(format!(
            "threads {} out of range: 1 to {MAX_THREADS}",
            args.threads
        )));
    }
    if !(MIN_CHECK_BITS..=MAX_CHECK_BITS).contains(&args.check_bits) {
        return Err(CommandError(format!(
            "check-bits {} out of range: {MIN_CHECK_BITS} to {MAX_CHECK_BITS}",
            args.check_bits
        )));
    }
    match args.game {
        GameKind::Othello => bench(&othello_positions()?, args, depth),
        GameKind::Gomoku => bench(&gomoku_positions()?, args, depth),
    }
}

/// The Othello bench positions.
pub fn othello_positions() -> Result<Vec<Othello>, CommandError> {
    OTHELLO_POSITIONS
        .iter()
        .map(|line| {
            let mut g = Othello::default();
            let moves = super::split_moves(GameKind::Othello, line)?;
            super::play_moves(&mut g, &moves)?;
            Ok(g)
        })
        .collect()
}

/// The Gomoku bench positions.
pub fn gomoku_positions() -> Result<Vec<Gomoku>, CommandError> {
    GOMOKU_POSITIONS
        .iter()
        .map(|line| {
            let mut g = Gomoku::default();
            let moves = super::split_moves(GameKind::Gomoku, line)?;
            super::play_moves(&mut g, &moves)?;
            Ok(g)
        })
        .collect()
}

/// What a row is searched with.
#[derive(Copy, Clone, Debug)]
enum Kind {
    None,
    Map,
    Table(Policy, usize),
}

/// Search every position to `depth` with a fresh store per position; sum the figures.
fn run_row<G: Searchable>(
    positions: &[G],
    kind: Kind,
    depth: u32,
    check_bits: u32,
    count: bool,
    threads: usize,
    symmetry: bool,
) -> Row {
    let stop = AtomicBool::new(false);
    let table = match kind {
        Kind::Table(p, entries) => Some(Arc::new(Table::with_entries(entries, p, check_bits))),
        _ => None,
    };
    let mut total = TtStats::default();
    let mut nodes = 0;
    let mut seconds = 0.0;
    let mut hashfull = 0;
    let mut map_peak = 0usize;
    for g in positions {
        let store = match (&table, kind) {
            (Some(t), _) => {
                t.clear();
                TtStore::Table(t.clone())
            }
            (None, Kind::Map) => TtStore::Map(Default::default()),
            _ => TtStore::None,
        };
        let mut s: Searcher<G> = Searcher::with_store(store);
        s.set_counting(count);
        s.set_threads(threads);
        s.set_symmetry(symmetry);
        let start = Instant::now();
        let r = s.search(g, &Limits::depth(depth), &stop, &mut |_| {});
        seconds += start.elapsed().as_secs_f64();
        nodes += r.nodes;
        let st = s.tt_stats();
        if let TtStore::Map(m) = s.store_ref() {
            map_peak = map_peak.max(m.len());
        }
        hashfull += st.hashfull;
        total.add_counts(&st);
    }
    let (strategy, entries, bytes) = match (kind, &table) {
        (Kind::Table(p, _), Some(t)) => (p.name().to_string(), t.entries(), t.bytes()),
        (Kind::Map, _) => {
            // A hash map slot: key, entry, one control byte.
            let slot = std::mem::size_of::<(u64, Entry)>() + 1;
            ("map".to_string(), map_peak, map_peak * slot)
        }
        _ => ("none".to_string(), 0, 0),
    };
    Row {
        strategy,
        tt_entries: entries,
        tt_mib: bytes as f64 / (1 << 20) as f64,
        nodes,
        seconds,
        probes: total.probes,
        hits: total.hits,
        usable_hits: total.usable_hits,
        misses: total.misses,
        clashes: total.clashes,
        false_matches: total.false_matches,
        fills: total.fills,
        updates: total.updates,
        replacements: total.replacements,
        rejected: total.rejected,
        hashfull: hashfull / positions.len().max(1) as u32,
    }
}

fn bench<G: Searchable>(positions: &[G], args: &BenchArgs, depth: u32) -> CommandResult {
    let count = !args.no_stats;
    if args.by_depth {
        return by_depth(positions, args, depth, count);
    }
    if !args.json {
        println!(
            "bench · {} · {} positions · depth {depth} · check bits {} · {} thread{} · slots of {SLOT_BYTES} bytes{}",
            args.game,
            positions.len(),
            args.check_bits,
            args.threads,
            if args.threads == 1 { "" } else { "s" },
            if count { "" } else { " · statistics off" }
        );
        if args.symmetry {
            println!("symmetry keys: the smallest of 8 symmetric hashes is the table key");
        }
        println!(
            "{:<9} {:>8} {:>8} {:>12} {:>8} {:>6} {:>6} {:>10} {:>9} {:>9} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9}",
            "strategy",
            "entries",
            "MiB",
            "nodes",
            "seconds",
            "Mn/s",
            "hit%",
            "usable",
            "clashes",
            "false",
            "vsnone",
            "new_slot",
            "same_pos",
            "replaced",
            "kept_old",
            "hashfull%"
        );
    }
    let mut kinds = vec![Kind::None, Kind::Map];
    for p in Policy::ALL {
        if args.strategy.is_none_or(|s| s == p) {
            for &n in &SIZES {
                kinds.push(Kind::Table(p, n));
            }
        }
    }
    let mut total = 0u64;
    let mut none_nodes = 0u64;
    for kind in kinds {
        let row = run_row(
            positions,
            kind,
            depth,
            args.check_bits,
            count,
            args.threads,
            args.symmetry,
        );
        total += row.nodes;
        if matches!(kind, Kind::None) {
            none_nodes = row.nodes;
        }
        if args.json {
            super::print_json(&json!({
                "game": args.game.name(),
                "depth": depth,
                "check_bits": args.check_bits,
                "threads": args.threads,
                "symmetry": args.symmetry,
                "strategy": row.strategy,
                "tt_entries": row.tt_entries,
                "tt_mib": row.tt_mib,
                "nodes": row.nodes,
                "seconds": row.seconds,
                "probes": row.probes,
                "hits": row.hits,
                "usable_hits": row.usable_hits,
                "misses": row.misses,
                "clashes": row.clashes,
                "false_matches": row.false_matches,
                "stores": {
                    "new_slot": row.fills,
                    "same_position": row.updates,
                    "replaced": row.replacements,
                    "kept_old": row.rejected,
                },
                "replaced": row.replacements,
                "hashfull": row.hashfull as f64 / 1000.0,
            }));
        } else {
            let dash = |show: bool, v: String| if show { v } else { "-".to_string() };
            let has = row.strategy != "none";
            println!(
                "{:<9} {:>8} {:>8} {:>12} {:>8.2} {:>6.2} {:>6} {:>10} {:>9} {:>9} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9}",
                row.strategy,
                dash(has, row.tt_entries.to_string()),
                dash(has, format!("{:.3}", row.tt_mib)),
                row.nodes,
                row.seconds,
                row.nodes as f64 / row.seconds.max(1e-9) / 1e6,
                dash(
                    has,
                    format!("{:.1}", 100.0 * row.hits as f64 / row.probes.max(1) as f64)
                ),
                dash(has, row.usable_hits.to_string()),
                dash(has, row.clashes.to_string()),
                dash(has, row.false_matches.to_string()),
                format!("{:.2}", row.nodes as f64 / none_nodes.max(1) as f64),
                dash(has, row.fills.to_string()),
                dash(has, row.updates.to_string()),
                dash(has, row.replacements.to_string()),
                dash(has, row.rejected.to_string()),
                dash(has, format!("{:.1}", row.hashfull as f64 / 10.0)),
            );
        }
    }
    if args.json {
        super::print_json(
            &json!({ "game": args.game.name(), "depth": depth, "total_nodes": total }),
        );
    } else {
        println!("total nodes: {total}");
    }
    Ok(())
}

fn by_depth<G: Searchable>(
    positions: &[G],
    args: &BenchArgs,
    depth: u32,
    count: bool,
) -> CommandResult {
    let policy = args.strategy.unwrap_or(Policy::Aging);
    let entries = SIZES[SIZES.len() - 1];
    if !args.json {
        println!(
            "bench --by-depth · {} · {} positions · {policy} table of {entries} entries",
            args.game,
            positions.len()
        );
        println!(
            "{:>5} {:>12} {:>9} {:>12} {:>9} {:>7} {:>7}",
            "depth", "nodes no TT", "seconds", "nodes TT", "seconds", "nodes%", "time%"
        );
    }
    let mut total = 0;
    for d in 1..=depth {
        let none = run_row(
            positions,
            Kind::None,
            d,
            args.check_bits,
            count,
            args.threads,
            args.symmetry,
        );
        let tt = run_row(
            positions,
            Kind::Table(policy, entries),
            d,
            args.check_bits,
            count,
            args.threads,
            args.symmetry,
        );
        total += none.nodes + tt.nodes;
        if args.json {
            super::print_json(&json!({
                "game": args.game.name(),
                "depth": d,
                "strategy": policy.name(),
                "tt_entries": entries,
                "nodes_none": none.nodes,
                "seconds_none": none.seconds,
                "nodes_tt": tt.nodes,
                "seconds_tt": tt.seconds,
                "hits": tt.hits,
                "usable_hits": tt.usable_hits,
            }));
        } else {
            println!(
                "{:>5} {:>12} {:>9.3} {:>12} {:>9.3} {:>6.1}% {:>6.1}%",
                d,
                none.nodes,
                none.seconds,
                tt.nodes,
                tt.seconds,
                100.0 * tt.nodes as f64 / none.nodes.max(1) as f64,
                100.0 * tt.seconds / none.seconds.max(1e-9),
            );
        }
    }
    if args.json {
        super::print_json(
            &json!({ "game": args.game.name(), "depth": depth, "total_nodes": total }),
        );
    } else {
        println!("total nodes: {total}");
    }
    Ok(())
}
