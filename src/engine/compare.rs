//! The strategy comparison run by the engine thread: one position searched to one depth under
//! each replacement strategy (and, for reference, without a table), every row on a fresh table
//! of the plan's size and a fresh searcher, so the node counts depend only on the position, the
//! depth, the table size and the strategy — two runs of one plan give the same rows.
//!
//! The table is small on purpose: a strategy only matters when the table must choose, that is
//! when the search stores more positions than the table has slots. [`Outcome::pressure`] is
//! that ratio (stores ÷ slots), shown beside every result.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use serde::Serialize;

use crate::game::{GameKind, Move};
use crate::search::{Limits, SearchStats, Searchable, Searcher, TtStore};
use crate::tt::{Policy, SLOT_BYTES, SLOTS, Table, TtStats};

/// Smallest and largest comparison table, in KiB.
pub const MIN_KIB: usize = 1;
pub const MAX_KIB: usize = 64 * 1024;

/// The comparison's defaults for a game: (depth, table KiB). The table (Othello 16 KiB, 1,024
/// slots; Gomoku 4 KiB, 256 slots) takes tens of times more stores than it has slots at these
/// depths, where the best and the worst strategy differ clearly both from the start and in the
/// midgame, and a whole comparison takes well under a second. Worst ÷ best nodes, measured
/// with `xorboard compare`: Othello at depth 13, 2.66 from the start and 6.63 after XOT
/// `f5d6c4d3c2b3b4b5` (the retrained midgame evaluation; 2.08 and 2.94 before; Multi-ProbCut
/// made depth 11 too small a search: 1.40 and 2.35); Gomoku at depth 10 on 16 KiB before
/// static futility, 2.25 from the start (15× pressure) and 1.62 after `h8 i9 h9 h10 g8 i8 i10`
/// (11×). Each narrowing of the Gomoku tree moved its depth up: with 12 candidates a node
/// depth 8 put only 3.4× pressure on the table after those moves, and with five to nine
/// candidates near the horizon depth 9 left the best row under 4×. Static futility shrank the
/// search after those moves to 5.6k–14k nodes, under 2× pressure for the best rows of a 16 KiB
/// table (and depth 10 is the deepest Gomoku comparison), so the table shrank instead: at
/// 4 KiB 9.4–24× pressure, worst ÷ best nodes 2.59 there and 2.52 from the start (8 KiB:
/// 3.9–5.3×, 1.32).
pub fn defaults(kind: GameKind) -> (u32, usize) {
    match kind {
        GameKind::Othello => (13, 16),
        GameKind::Gomoku => (10, 4),
    }
}

/// Deepest comparison accepted (as `bench`).
pub fn max_depth(kind: GameKind) -> u32 {
    match kind {
        GameKind::Othello => 14,
        GameKind::Gomoku => 10,
    }
}

/// Table slots of a table of `kib` KiB (a power of two, at least one bucket).
pub fn slots_for_kib(kib: usize) -> usize {
    // As `Table::with_entries` rounds: whole buckets, at least one.
    (kib.clamp(MIN_KIB, MAX_KIB) * 1024 / SLOT_BYTES / SLOTS).max(1) * SLOTS
}

/// What one row searches with.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Store {
    /// The fixed table under this strategy.
    Table(Policy),
    /// No transposition table at all.
    None,
}

impl Store {
    pub fn name(self) -> &'static str {
        match self {
            Store::Table(p) => p.name(),
            Store::None => "no TT",
        }
    }
}

/// One unit of work.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Job {
    /// Row `i` of the plan (at the plan's depth).
    Row(usize),
    /// A point of the by-depth chart: this depth, with the chart's strategy or without a TT.
    Point { depth: u32, tt: bool },
}

/// What to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub depth: u32,
    /// Table size of every row, in KiB.
    pub kib: usize,
    pub check_bits: u32,
    pub rows: Vec<Store>,
    /// Also the by-depth points (seed 001's experiment) with this strategy, after the rows.
    pub chart: Option<Policy>,
}

impl Plan {
    /// Every strategy, then no TT, at `depth` on tables of `kib` KiB.
    pub fn new(depth: u32, kib: usize, check_bits: u32) -> Plan {
        let mut rows: Vec<Store> = Policy::ALL.iter().map(|&p| Store::Table(p)).collect();
        rows.push(Store::None);
        Plan {
            depth,
            kib: kib.clamp(MIN_KIB, MAX_KIB),
            check_bits,
            rows,
            chart: None,
        }
    }

    /// The jobs in the order they run: the rows, then the chart's smaller depths.
    pub fn jobs(&self) -> Vec<Job> {
        let mut jobs: Vec<Job> = (0..self.rows.len()).map(Job::Row).collect();
        if self.chart.is_some() {
            for depth in 1..self.depth {
                jobs.push(Job::Point { depth, tt: false });
                jobs.push(Job::Point { depth, tt: true });
            }
        }
        jobs
    }

    /// Slots of each row's table.
    pub fn slots(&self) -> usize {
        slots_for_kib(self.kib)
    }
}

/// The figures of one finished run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub probes: u64,
    pub hits: u64,
    pub usable_hits: u64,
    /// Stores into an empty slot ("new slot").
    pub fills: u64,
    /// Stores over the same position ("same position").
    pub updates: u64,
    /// Stores that evicted another position ("replaced").
    pub replacements: u64,
    /// Stores the strategy refused ("kept old").
    pub rejected: u64,
    pub false_matches: u64,
    /// Slots of the table (0 without a table).
    pub slots: u64,
    #[serde(skip)]
    pub best: Option<Move>,
    pub score: i32,
    pub exact: bool,
}

impl Outcome {
    fn new(s: &SearchStats, tt: &TtStats, slots: u64) -> Outcome {
        Outcome {
            nodes: s.nodes,
            elapsed_ms: s.elapsed_ms,
            probes: tt.probes,
            hits: tt.hits,
            usable_hits: tt.usable_hits,
            fills: tt.fills,
            updates: tt.updates,
            replacements: tt.replacements,
            rejected: tt.rejected,
            false_matches: tt.false_matches,
            slots,
            best: s.best,
            score: s.score,
            exact: s.exact,
        }
    }

    /// Every store the search made.
    pub fn stores(&self) -> u64 {
        self.fills + self.updates + self.replacements + self.rejected
    }

    /// Table pressure: positions stored ÷ slots (0 without a table).
    pub fn pressure(&self) -> f64 {
        if self.slots == 0 {
            0.0
        } else {
            self.stores() as f64 / self.slots as f64
        }
    }

    /// Hits as a fraction of probes.
    pub fn hit_rate(&self) -> f64 {
        if self.probes == 0 {
            0.0
        } else {
            self.hits as f64 / self.probes as f64
        }
    }
}

/// What a running comparison tells its caller.
#[derive(Clone, Debug)]
pub enum Event {
    Progress {
        job: Job,
        nodes: u64,
        elapsed_ms: u64,
    },
    Done {
        job: Job,
        outcome: Outcome,
    },
}

/// Run every job of `plan` on `game` until done or `stop` is set; returns whether it was
/// stopped. `send` gets progress and results; it returns false when nobody listens any more.
pub fn run<G: Searchable>(
    game: &G,
    plan: &Plan,
    stop: &AtomicBool,
    send: &mut dyn FnMut(Event, bool) -> bool,
) -> bool {
    let entries = plan.kib.clamp(MIN_KIB, MAX_KIB) * 1024 / SLOT_BYTES;
    let first = plan
        .rows
        .iter()
        .find_map(|s| match s {
            Store::Table(p) => Some(*p),
            Store::None => None,
        })
        .unwrap_or(Policy::Always);
    let table = Arc::new(Table::with_entries(entries, first, plan.check_bits));
    let slots = table.entries() as u64;
    for job in plan.jobs() {
        if stop.load(Relaxed) {
            return true;
        }
        let (store, depth) = match job {
            Job::Row(i) => (plan.rows[i], plan.depth),
            Job::Point { depth, tt: true } => (Store::Table(plan.chart.unwrap_or(first)), depth),
            Job::Point { depth, tt: false } => (Store::None, depth),
        };
        let tt_store = match store {
            Store::Table(p) => {
                table.clear();
                table.set_policy(p);
                TtStore::Table(table.clone())
            }
            Store::None => TtStore::None,
        };
        let mut searcher: Searcher<G> = Searcher::with_store(tt_store);
        let mut alive = true;
        let mut progress = |s: &SearchStats| {
            alive &= send(
                Event::Progress {
                    job,
                    nodes: s.nodes,
                    elapsed_ms: s.elapsed_ms,
                },
                false,
            );
        };
        let stats = searcher.search(game, &Limits::depth(depth), stop, &mut progress);
        if stop.load(Relaxed) {
            return true;
        }
        let tt = searcher.tt_stats();
        let with_table = if matches!(store, Store::Table(_)) {
            slots
        } else {
            0
        };
        let outcome = Outcome::new(&stats, &tt, with_table);
        if !alive || !send(Event::Done { job, outcome }, true) {
            return true;
        }
    }
    false
}
