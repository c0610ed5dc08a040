//! Exact Othello endgame solver on raw `(player, opponent)` bitboards.
//!
//! [`Solver::solve`] returns the exact final disc difference for the side to move under perfect
//! play by both sides (empty squares go to the winner, as in the FForum tests), a best move and
//! a principal variation that replays to that score. [`Solver::solve_window`] answers the cheaper
//! question "is the score at most alpha, at least beta, or exactly what?", which with the window
//! (-1, 1) decides win / draw / loss. Both honour a stop flag, a node limit and a deadline, and
//! give [`Interrupted`] instead of a guess when one of them ends the search. With
//! [`Solver::set_threads`], helper threads search the same position on the same table (Lazy SMP;
//! the table is lock-free, see `table`); the answer is always the main thread's.
//!
//! The search (in `tree`) is a fail-soft principal variation search specialised by the number of
//! empties: with many empties it uses its own transposition table (keyed by the two bitboards —
//! see `table` for why not by the Zobrist hash), enhanced transposition cutoffs, stability
//! cutoffs and fastest-first move ordering; with few it tries the empty squares straight from the
//! bitboard in quadrant-parity order; the last four empties have unrolled code and the very last
//! a table-driven flip count.
//!
//! Before the exact search, with enough empties, come an evaluation search that guesses the
//! score (`hint`) and then selective passes: the same search with ProbCut (a shallow evaluation
//! search predicts that a node's score lies beyond the window, and the node is cut), at rising
//! confidence. Their scores are usually within a few discs of the exact one and cost a fraction
//! of it; the exact search starts its aspiration windows there and orders moves by the best
//! moves they stored. Their bounds are stored at their own level in the table and never used by
//! the exact search, so every result stays exact. The solver plays by the rules' own bit kernel,
//! [`crate::game::othello::bitboard`], and evaluates with the pattern evaluation of
//! [`crate::search::othello::eval`]. Its files form a tree: this one drives `hint` (the
//! preparation passes, methods of the search tree) and `tree` (the exact search); `tree` stands
//! on `ordering` (the evaluation that orders moves, and ProbCut, which the tree owns as an
//! `Evaluator`) and on `table`; nothing below calls back up.

mod hint;
mod ordering;
mod table;
mod tree;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::game::Move;
use crate::game::othello::bitboard as bits;
use crate::search::othello::eval;
use ordering::Evaluator;
use table::NO_MOVE;
use tree::{Candidate, Lists, Tree};

pub use table::{SolverTable, TableStats};

/// Default size of the solver's table (MiB).
pub const DEFAULT_TABLE_MIB: usize = 64;

/// Optional limits on one solve; the stop flag is always honoured (within a few thousand nodes).
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveLimits {
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
}

/// How the solver prepares and orders its search. The defaults are tuned on the FForum suites;
/// every setting changes only the speed, never a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// From this many empties on, a depth-limited evaluation search runs first: it guesses the
    /// score (the first aspiration window) and leaves best moves near the root in the table.
    pub prepare_min_empties: u32,
    /// That search stops this many empties above the end (its depth is `empties − this`).
    pub prepare_leaf_empties: u32,
    /// From this many empties on, moves are also ordered by the evaluation of the position after
    /// them (with the trained weights only).
    pub eval_sort_min_empties: u32,
    /// From this many empties on, that evaluation is an evaluation search `eval_sort_depth`
    /// plies deep instead of the static evaluation.
    pub eval_search_min_empties: u32,
    /// Depth of that evaluation search (0: the static evaluation everywhere).
    pub eval_sort_depth: u32,
    /// Weight of the evaluation in the ordering key, in percent of one mobility step per 2.5 discs.
    pub eval_sort_weight: i32,
    /// From this many empties on, selective passes (ProbCut) run before the exact search, from
    /// the preparation's guess: they find a score close to the exact one (the exact search's
    /// first window) and good moves, far more cheaply than failed exact windows would.
    pub selective_min_empties: u32,
    /// Their confidences, in percent of the standard deviation of the shallow search's error
    /// (rising; 0: no pass).
    pub selective_confidence: [i32; 3],
    /// ProbCut is tried at nodes with at least this many empties, with an evaluation search of
    /// this depth.
    pub probcut_min_empties: u32,
    pub probcut_depth: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            prepare_min_empties: 14,
            prepare_leaf_empties: 15,
            eval_sort_min_empties: 14,
            eval_search_min_empties: 16,
            eval_sort_depth: 1,
            eval_sort_weight: 12,
            selective_min_empties: 20,
            selective_confidence: [50, 100, 150],
            probcut_min_empties: 10,
            probcut_depth: 2,
        }
    }
}

/// The exact result of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Final disc difference for the side to move with perfect play.
    pub score: i32,
    /// A move reaching `score`; [`Move::PASS`] if the side must pass, [`Move::NONE`] if the game
    /// is over.
    pub best: Move,
    /// Positions visited.
    pub nodes: u64,
    /// A line of perfect play from the position to the end of the game (passes included).
    pub pv: Vec<Move>,
}

/// What a window search proved about the score: the transposition tables' [`Bound`], whose
/// [`Bound::of_window`] reads it off the window.
pub use crate::tt::Bound;

/// The result of [`Solver::solve_window`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowSolution {
    pub score: i32,
    pub bound: Bound,
    /// The move that proved the bound (for `Lower` and `Exact`), or the most promising one.
    pub best: Move,
    pub nodes: u64,
}

/// A limit or the stop flag ended the search before it proved anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted {
    pub nodes: u64,
}

/// An endgame solver with a transposition table, kept between solves: its own, or one shared
/// with other solvers (the midgame search's threads share one, see [`Solver::with_table`]).
pub struct Solver {
    table: Arc<SolverTable>,
    lists: Lists,
    options: Options,
    weights: Option<eval::Weights>,
    eval_slots: ordering::EvalSlots,
    stats: TableStats,
    threads: usize,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new(DEFAULT_TABLE_MIB)
    }
}

/// A new search tree on `table` (see [`Tree`] for the fields).
fn new_tree<'a>(
    table: &'a SolverTable,
    lists: &'a mut Lists,
    eval_slots: &'a mut ordering::EvalSlots,
    options: Options,
    eval: Option<&'a eval::Weights>,
    stop: &'a AtomicBool,
    limits: &SolveLimits,
) -> Tree<'a> {
    Tree {
        table,
        table_stats: TableStats::default(),
        level: table::EXACT,
        lists,
        edge: bits::edge_table(),
        stop,
        deadline: limits.time.map(|t| Instant::now() + t),
        node_limit: limits.nodes.unwrap_or(u64::MAX),
        nodes: 0,
        next_check: 0,
        aborted: false,
        ev: Evaluator {
            weights: eval,
            slots: eval_slots,
            probcut: None,
            search_min_empties: options.eval_search_min_empties,
            sort_depth: options.eval_sort_depth,
            nodes: 0,
        },
        options,
        root_shift: 0,
    }
}

/// The solver's own weights, else the built-in ones (if they load).
fn weights_or_builtin(weights: &Option<eval::Weights>) -> Option<&eval::Weights> {
    match weights {
        Some(w) => Some(w),
        None => eval::Weights::builtin(),
    }
}

fn new_lists() -> Lists {
    vec![[Candidate::default(); 64]; 65]
}

impl Solver {
    /// A solver whose table takes at most `table_mib` MiB.
    pub fn new(table_mib: usize) -> Solver {
        Solver::with_table(Arc::new(SolverTable::new(table_mib)))
    }

    /// A solver on a table that other solvers may share (lock-free, as the solver's own Lazy
    /// SMP threads share theirs).
    pub fn with_table(table: Arc<SolverTable>) -> Solver {
        Solver {
            table,
            lists: new_lists(),
            options: Options::default(),
            weights: None,
            eval_slots: ordering::eval_slots(),
            stats: TableStats::default(),
            threads: 1,
        }
    }

    /// Change how the search is prepared and ordered (results stay exact).
    pub fn set_options(&mut self, options: Options) {
        self.options = options;
    }

    pub fn options(&self) -> Options {
        self.options
    }

    /// Search [`Solver::solve`] with `n` threads (at least 1): Lazy SMP, the helpers searching
    /// the same position on the shared table, each starting at another root move. The result
    /// is the main thread's; node counts are the sum over the threads and vary run to run.
    /// The node limit applies to the main thread.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    /// Use these evaluation weights instead of the built-in ones (`assets/endgame-eval.bin`).
    pub fn set_weights(&mut self, weights: eval::Weights) {
        self.weights = Some(weights);
    }

    /// Forget all stored results.
    pub fn clear(&mut self) {
        self.table.clear();
        self.stats = TableStats::default();
    }

    /// Table traffic since the solver was made or cleared (all threads).
    pub fn table_stats(&self) -> TableStats {
        self.stats
    }

    /// Memory of the table in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// A one-thread tree on this solver's table, lists and slots.
    fn tree<'a>(&'a mut self, stop: &'a AtomicBool, limits: &SolveLimits) -> Tree<'a> {
        let eval = weights_or_builtin(&self.weights);
        new_tree(
            &self.table,
            &mut self.lists,
            &mut self.eval_slots,
            self.options,
            eval,
            stop,
            limits,
        )
    }

    fn add_stats(&mut self, s: &TableStats) {
        self.stats.probes += s.probes;
        self.stats.hits += s.hits;
        self.stats.stores += s.stores;
        self.stats.replacements += s.replacements;
    }

    /// The exact score, a best move and a principal variation. `player` and `opponent` must not
    /// overlap (the caller checks; overlapping boards give an unspecified score, never a panic).
    pub fn solve(
        &mut self,
        player: u64,
        opponent: u64,
        stop: &AtomicBool,
        limits: &SolveLimits,
    ) -> Result<Solution, Interrupted> {
        let (p, o) = (player, opponent & !player);
        self.table.new_search();
        let helpers = self.threads - 1;
        let Solver {
            table,
            lists,
            options,
            weights,
            eval_slots,
            ..
        } = self;
        let (table, options) = (&*table, *options);
        let eval = weights_or_builtin(weights);
        let done = AtomicBool::new(false);
        let (result, stats, helper_nodes) = std::thread::scope(|s| {
            let workers: Vec<_> = (1..=helpers)
                .map(|k| {
                    let done = &done;
                    s.spawn(move || {
                        let (mut lists, mut slots) = (new_lists(), ordering::eval_slots());
                        let limits = SolveLimits::default();
                        let mut t =
                            new_tree(table, &mut lists, &mut slots, options, eval, done, &limits);
                        t.root_shift = k;
                        let _ = score_and_move(&mut t, p, o);
                        (t.total_nodes(), t.table_stats)
                    })
                })
                .collect();
            let mut t = new_tree(table, lists, eval_slots, options, eval, stop, limits);
            let result = score_and_move(&mut t, p, o).and_then(|(score, best)| {
                let pv = principal_variation(&mut t, p, o, score, best)?;
                Ok((score, best, pv))
            });
            done.store(true, std::sync::atomic::Ordering::Relaxed);
            let mut stats = vec![t.table_stats];
            let mut nodes = t.total_nodes();
            for w in workers {
                if let Ok((n, st)) = w.join() {
                    nodes += n;
                    stats.push(st);
                }
            }
            (result.map_err(|_| ()), stats, nodes)
        });
        for st in &stats {
            self.add_stats(st);
        }
        match result {
            Ok((score, best, pv)) => Ok(Solution {
                score,
                best,
                nodes: helper_nodes,
                pv,
            }),
            Err(()) => Err(Interrupted {
                nodes: helper_nodes,
            }),
        }
    }

    /// Search the window `(alpha, beta)` (exclusive; `alpha < beta`, both clamped to
    /// [-65, 65]): the score is proved ≤ alpha, ≥ beta, or exact inside the window. One thread.
    pub fn solve_window(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        stop: &AtomicBool,
        limits: &SolveLimits,
    ) -> Result<WindowSolution, Interrupted> {
        self.window(player, opponent, (alpha, beta), None, stop, limits)
    }

    /// [`Solver::solve_window`] with ProbCut at the confidence of selective pass `pass` (an
    /// index into [`Options::selective_confidence`]): a probable result, far cheaper than the
    /// exact one. Its bounds are stored at that pass's level, so they never reach an exact
    /// search, and it uses the exact search's bounds and those of passes at least as confident.
    #[allow(clippy::too_many_arguments)]
    pub fn solve_window_selective(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        pass: usize,
        stop: &AtomicBool,
        limits: &SolveLimits,
    ) -> Result<WindowSolution, Interrupted> {
        self.window(player, opponent, (alpha, beta), Some(pass), stop, limits)
    }

    /// One window search, exact or as selective pass `pass`.
    fn window(
        &mut self,
        player: u64,
        opponent: u64,
        (alpha, beta): (i32, i32),
        pass: Option<usize>,
        stop: &AtomicBool,
        limits: &SolveLimits,
    ) -> Result<WindowSolution, Interrupted> {
        let (p, o) = (player, opponent & !player);
        let alpha = alpha.clamp(-65, 64);
        let beta = beta.clamp(alpha + 1, 65);
        self.table.new_search();
        let confidences = self.options.selective_confidence;
        let mut t = self.tree(stop, limits);
        if let Some(k) = pass {
            let k = k.min(confidences.len() - 1);
            make_selective(&mut t, k, confidences[k]);
        }
        let result = root(&mut t, p, o, alpha, beta);
        let (stats, nodes) = (t.table_stats, t.total_nodes());
        self.add_stats(&stats);
        let (score, best) = result?;
        let bound = Bound::of_window(score, alpha, beta);
        Ok(WindowSolution {
            score,
            bound,
            best,
            nodes,
        })
    }
}

/// The exact score and a best move: with enough empties, the preparation search's guess, the
/// selective passes, then aspiration windows; else one full-window search.
fn score_and_move(t: &mut Tree, p: u64, o: u64) -> Result<(i32, Move), Interrupted> {
    let (n, _) = empties_parity(p, o);
    if n < t.options.prepare_min_empties {
        return root(t, p, o, -64, 64);
    }
    let depth = n.saturating_sub(t.options.prepare_leaf_empties).max(1);
    let mut guess = t.hints(p, o, n, depth);
    if t.aborted {
        return Err(Interrupted {
            nodes: t.total_nodes(),
        });
    }
    if n >= t.options.selective_min_empties {
        guess = selective_passes(t, p, o, guess)?;
    }
    aspiration(t, p, o, guess)
}

/// Solve with a fresh solver of the default table size (for one-off calls; keep a [`Solver`] to
/// reuse its table across positions).
pub fn solve(
    player: u64,
    opponent: u64,
    stop: &AtomicBool,
    limits: &SolveLimits,
) -> Result<Solution, Interrupted> {
    Solver::default().solve(player, opponent, stop, limits)
}

/// [`Solver::solve_window`] with a fresh solver of the default table size.
pub fn solve_window(
    player: u64,
    opponent: u64,
    alpha: i32,
    beta: i32,
    stop: &AtomicBool,
    limits: &SolveLimits,
) -> Result<WindowSolution, Interrupted> {
    Solver::default().solve_window(player, opponent, alpha, beta, stop, limits)
}

fn empties_parity(p: u64, o: u64) -> (u32, u8) {
    let e = !(p | o);
    (e.count_ones(), bits::parity_of(e))
}

/// The selective passes before the exact search: each is an aspiration search like the exact one
/// but with ProbCut (one pass per confidence of `Options::selective_confidence`, rising), its
/// bounds stored at its own table level. Their scores are not exact, but close to it: the last
/// one is the exact search's first window, and their best moves order the exact search.
fn selective_passes(t: &mut Tree, p: u64, o: u64, guess: i32) -> Result<i32, Interrupted> {
    let mut guess = guess;
    for (k, confidence) in t.options.selective_confidence.into_iter().enumerate() {
        if confidence == 0 {
            continue;
        }
        make_selective(t, k, confidence);
        let (v, _) = aspiration(t, p, o, guess)?;
        guess = v * 100;
    }
    t.ev.probcut = None;
    t.level = table::EXACT;
    Ok(guess)
}

/// Make `t` selective pass `k`: ProbCut at `confidence`, its bounds stored at the pass's level.
fn make_selective(t: &mut Tree, k: usize, confidence: i32) {
    t.ev.probcut = Some(ordering::ProbCut {
        confidence,
        min_empties: t.options.probcut_min_empties,
        depth: t.options.probcut_depth,
    });
    t.level = 1 + k as u8;
}

/// Exact score by narrow windows around a guess (centi-discs): first (g - 1, g + 1), then
/// (v - 1, v + 1) around a failure's fail-soft bound v, each re-search reusing the table.
/// Scores are even, so a window of width 2 either proves its centre or moves past it. When the
/// searches keep failing the same way, the guess was far off, and the window reaches further
/// past v on that side each time (3, 5, 9, 17 … discs): on FFO #48 the selective passes guess
/// +20 and the score is +28, and the climb in steps of 2 discs cost four failed windows.
///
/// A selective pass (ProbCut) is not a function of the window: its cuts are guesses, and with
/// bounds of earlier searches in the table (an earlier solve's, or another thread's) a fail high
/// at v can be followed by a fail low below v, and the windows would swing between the two
/// forever. When the bounds found cross, the last result is the pass's answer. (Exact searches
/// never contradict themselves.)
fn aspiration(t: &mut Tree, p: u64, o: u64, guess: i32) -> Result<(i32, Move), Interrupted> {
    let g = ((guess as f64 / 200.0).round() as i32 * 2).clamp(-64, 64);
    let (mut a, mut b) = (g - 1, g + 1);
    // the score is at least `lower` and at most `upper`, by the searches so far
    let (mut lower, mut upper) = (-64, 64);
    // failures in a row on one side (negative: fail lows)
    let mut streak = 0i32;
    loop {
        let (v, m) = root(t, p, o, a, b)?;
        if v <= a {
            upper = upper.min(v);
            streak = streak.min(0) - 1;
            (a, b) = ((v - reach(streak)).max(-65), v + 1);
        } else if v >= b {
            lower = lower.max(v);
            streak = streak.max(0) + 1;
            (a, b) = (v - 1, (v + reach(streak)).min(65));
        } else {
            return Ok((v, m));
        }
        if lower >= upper {
            return Ok((v, m));
        }
    }
}

/// How far past a failure's bound the next aspiration window reaches, after `streak` failures in
/// a row on that side: 1 disc after the first, then 3, 5, 9, 17, 33 (odd, so that the even
/// scores never fall on an end of the window).
fn reach(streak: i32) -> i32 {
    match streak.unsigned_abs() {
        0 | 1 => 1,
        k => (2 << (k - 2).min(4)) | 1,
    }
}

/// The root: every move searched (first with the full window, the rest with a null window and a
/// re-search when they beat alpha), keeping the best move.
fn root(t: &mut Tree, p: u64, o: u64, alpha: i32, beta: i32) -> Result<(i32, Move), Interrupted> {
    let (n, parity) = empties_parity(p, o);
    let mv = bits::moves(p, o);
    if mv == 0 {
        if bits::moves(o, p) == 0 {
            t.nodes += 1;
            return Ok((bits::final_score(p, o), Move::NONE));
        }
        let (v, _) = root(t, o, p, -beta, -alpha)?;
        return Ok((-v, Move::PASS));
    }
    t.nodes += 1;
    let hash = t.probe(p, o).map_or(NO_MOVE, |e| e.best);
    let count = t.fill_list(p, o, mv, n, parity, hash);
    let shift = t.root_shift % count;
    if shift > 0 {
        // a Lazy SMP helper: the sorted moves, starting from another one
        for i in 0..count {
            t.pick(n, i, count);
        }
        t.lists[n as usize][..count].rotate_left(shift);
    }
    let alpha0 = alpha;
    let mut alpha = alpha;
    let mut best = -127;
    let mut best_move = Move::NONE;
    for i in 0..count {
        let c = if shift > 0 {
            t.lists[n as usize][i]
        } else {
            t.pick(n, i, count)
        };
        let x = c.square as usize;
        let (cp, co) = (o ^ c.flips, p | c.flips | (1 << x));
        let cpar = parity ^ bits::quadrant(x);
        let v = if i == 0 {
            -t.search(cp, co, -beta, -alpha, n - 1, cpar)
        } else {
            let v = -t.search(cp, co, -alpha - 1, -alpha, n - 1, cpar);
            if v > alpha && v < beta {
                -t.search(cp, co, -beta, -alpha, n - 1, cpar)
            } else {
                v
            }
        };
        if t.aborted {
            return Err(Interrupted {
                nodes: t.total_nodes(),
            });
        }
        if v > best {
            best = v;
            best_move = Move::at(x);
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    let square = best_move.cell().map_or(NO_MOVE, |c| c as u8);
    let nodes = t.total_nodes();
    t.store((p, o, n), (alpha0, beta), best, square, nodes);
    Ok((best, best_move))
}

/// A line of perfect play: each move is checked with a narrow window around the known score
/// (cheap, since the table holds most of the proof), so the line replays to `score` exactly.
fn principal_variation(
    t: &mut Tree,
    p: u64,
    o: u64,
    score: i32,
    first: Move,
) -> Result<Vec<Move>, Interrupted> {
    let mut pv = Vec::new();
    let (mut p, mut o, mut v) = (p, o, score);
    let mut next = first;
    loop {
        match next.cell() {
            None if next.is_pass() => {
                pv.push(Move::PASS);
                (p, o, v) = (o, p, -v);
            }
            None => return Ok(pv),
            Some(x) => {
                pv.push(next);
                let f = bits::flips(x, p, o);
                (p, o, v) = (o ^ f, p | f | (1 << x), -v);
            }
        }
        next = Move::NONE;
        let mv = bits::moves(p, o);
        if mv == 0 {
            if bits::moves(o, p) != 0 {
                next = Move::PASS;
            }
            continue;
        }
        let (n, parity) = empties_parity(p, o);
        let hash = t.probe(p, o).map_or(NO_MOVE, |e| e.best);
        let mut order: Vec<usize> = Vec::with_capacity(mv.count_ones() as usize);
        if hash != NO_MOVE && mv & (1 << hash) != 0 {
            order.push(hash as usize);
        }
        let mut m = mv;
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            if x != hash as usize {
                order.push(x);
            }
        }
        for x in order {
            let f = bits::flips(x, p, o);
            let (cp, co) = (o ^ f, p | f | (1 << x));
            let c = -t.search(cp, co, -v - 1, -v + 1, n - 1, parity ^ bits::quadrant(x));
            if t.aborted {
                return Err(Interrupted {
                    nodes: t.total_nodes(),
                });
            }
            if c == v {
                next = Move::at(x);
                break;
            }
        }
        if next == Move::NONE {
            // cannot happen when `score` is exact; stop the line rather than loop
            return Ok(pv);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::othello::{self, START_BLACK, START_WHITE};

    /// Plain negamax over the rules module: the reference for small positions (the tiers'
    /// tests in `tree` use it too).
    pub(crate) fn reference(p: u64, o: u64) -> i32 {
        let mv = othello::moves(p, o);
        if mv == 0 {
            if othello::moves(o, p) == 0 {
                return bits::final_score(p, o);
            }
            return -reference(o, p);
        }
        let mut best = -127;
        let mut m = mv;
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = othello::flips(x, p, o);
            best = best.max(-reference(o ^ f, p | f | (1 << x)));
        }
        best
    }

    /// Random playouts from the start to positions with `n` empties.
    fn positions(n: u32, count: usize, seed: u64) -> Vec<(u64, u64)> {
        let mut s = seed;
        let mut rand = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut out = Vec::new();
        while out.len() < count {
            let (mut p, mut o) = (START_BLACK, START_WHITE);
            loop {
                let e = 64 - (p | o).count_ones();
                if e == n {
                    out.push((p, o));
                    break;
                }
                let mv = othello::moves(p, o);
                if mv == 0 {
                    if othello::moves(o, p) == 0 {
                        break;
                    }
                    (p, o) = (o, p);
                    continue;
                }
                let k = (rand() % mv.count_ones() as u64) as u32;
                let mut m = mv;
                for _ in 0..k {
                    m &= m - 1;
                }
                let x = m.trailing_zeros() as usize;
                let f = othello::flips(x, p, o);
                (p, o) = (o ^ f, p | f | (1 << x));
            }
        }
        out
    }

    fn replay(p: u64, o: u64, pv: &[Move]) -> i32 {
        let (mut p, mut o, mut sign) = (p, o, 1);
        for mv in pv {
            if let Some(x) = mv.cell() {
                assert!(othello::moves(p, o) & (1 << x) != 0, "pv move is legal");
                let f = othello::flips(x, p, o);
                (p, o) = (o ^ f, p | f | (1 << x));
            } else {
                assert_eq!(othello::moves(p, o), 0, "pv pass only when forced");
                (p, o) = (o, p);
            }
            sign = -sign;
        }
        assert_eq!(
            othello::moves(p, o) | othello::moves(o, p),
            0,
            "pv ends the game"
        );
        sign * bits::final_score(p, o)
    }

    #[test]
    fn agrees_with_plain_negamax_and_pv_replays() {
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(1);
        for n in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] {
            for (p, o) in positions(n, 12, 0x1234_5678 + n as u64) {
                let want = reference(p, o);
                let s = solver
                    .solve(p, o, &stop, &SolveLimits::default())
                    .expect("no limits");
                assert_eq!(s.score, want, "empties {n}: {p:#x} {o:#x}");
                assert_eq!(replay(p, o, &s.pv), want);
                assert_eq!(s.pv.first().copied(), Some(s.best));
                for (a, b) in [
                    (-1, 1),
                    (want - 1, want + 1),
                    (want, want + 2),
                    (want - 3, want - 1),
                ] {
                    let w = solver
                        .solve_window(p, o, a, b, &stop, &SolveLimits::default())
                        .expect("no limits");
                    match w.bound {
                        Bound::Exact => assert_eq!(w.score, want),
                        Bound::Lower => assert!(w.score >= b && want >= w.score),
                        Bound::Upper => assert!(w.score <= a && want <= w.score),
                    }
                }
            }
        }
    }

    #[test]
    fn selective_passes_change_the_work_never_the_result() {
        let stop = AtomicBool::new(false);
        let exact_only = Options {
            selective_min_empties: 65,
            ..Options::default()
        };
        // reckless ProbCut (tiny margins), so that the passes' scores are often wrong
        let reckless = Options {
            selective_min_empties: 14,
            selective_confidence: [0, 5, 20],
            probcut_min_empties: 8,
            ..Options::default()
        };
        let mut differ = 0;
        for (p, o) in positions(16, 8, 0xC0FF_EE16) {
            let mut solutions = Vec::new();
            for options in [exact_only, reckless, Options::default()] {
                let mut solver = Solver::new(1);
                solver.set_options(options);
                let s = solver
                    .solve(p, o, &stop, &SolveLimits::default())
                    .expect("no limits");
                assert_eq!(replay(p, o, &s.pv), s.score);
                solutions.push(s);
            }
            assert_eq!(solutions[0].score, solutions[1].score, "{p:#x} {o:#x}");
            assert_eq!(solutions[0].score, solutions[2].score, "{p:#x} {o:#x}");
            differ += (solutions[0].nodes != solutions[1].nodes) as u32;
        }
        assert!(differ >= 4, "the selective passes ran ({differ} of 8)");
    }

    /// Two positions of one game (22 empties, then 21 after a move) solved by one solver: the
    /// second solve's first selective pass met the first solve's bounds in the table, failed high
    /// at 2 with the window (0, 2) and low at 1 with (1, 3), and swung between the two windows
    /// until a limit stopped it.
    #[test]
    fn a_selective_pass_that_contradicts_itself_ends() {
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(16);
        let first = solver
            .solve(
                0x0400_4216_cb5f_0000,
                0x5838_3c28_3420_3c3e,
                &stop,
                &SolveLimits::default(),
            )
            .expect("no limits");
        assert_eq!(first.score, 4);
        let (p, o) = (0x5838_3028_3420_3c3e, 0x0404_4e16_cb5f_0000);
        let limits = SolveLimits {
            nodes: Some(20_000_000),
            time: None,
        };
        let second = solver
            .solve(p, o, &stop, &limits)
            .expect("ends long before the node limit");
        assert_eq!(second.score, 6);
        assert_eq!(replay(p, o, &second.pv), 6);
    }

    #[test]
    fn threads_share_the_table_and_agree_with_one() {
        let stop = AtomicBool::new(false);
        let mut one = Solver::new(4);
        let mut two = Solver::new(4);
        two.set_threads(2);
        for (p, o) in positions(18, 4, 0x7EAD_5018) {
            let a = one
                .solve(p, o, &stop, &SolveLimits::default())
                .expect("no limits");
            let b = two
                .solve(p, o, &stop, &SolveLimits::default())
                .expect("no limits");
            assert_eq!(a.score, b.score, "{p:#x} {o:#x}");
            assert_eq!(replay(p, o, &b.pv), b.score);
        }
        // The helper's traffic is counted with the main thread's. Whether a helper gets a core
        // before the main thread finishes a small solve is up to the scheduler, so keep solving
        // (bounded by a guard only a helper that never runs would reach) until the two-thread
        // solver has stored more than the one-thread solver on the same positions.
        let guard = std::time::Instant::now();
        let mut more = positions(20, 64, 0x7EAD_5020).into_iter().cycle();
        while two.table_stats().stores <= one.table_stats().stores {
            assert!(
                guard.elapsed() < std::time::Duration::from_secs(120),
                "no helper traffic counted"
            );
            let (p, o) = more.next().expect("cycle");
            one.solve(p, o, &stop, &SolveLimits::default())
                .expect("no limits");
            two.solve(p, o, &stop, &SolveLimits::default())
                .expect("no limits");
        }
        let stop = AtomicBool::new(true);
        let (p, o) = positions(24, 1, 99)[0];
        assert!(two.solve(p, o, &stop, &SolveLimits::default()).is_err());
    }

    #[test]
    fn stop_flag_interrupts() {
        let stop = AtomicBool::new(true);
        let (p, o) = positions(24, 1, 99)[0];
        let r = Solver::new(1).solve(p, o, &stop, &SolveLimits::default());
        assert!(r.is_err());
        let stop = AtomicBool::new(false);
        let limits = SolveLimits {
            nodes: Some(10_000),
            time: None,
        };
        let r = Solver::new(1).solve(p, o, &stop, &limits);
        assert!(matches!(r, Err(Interrupted { nodes }) if nodes < 20_000));
    }
}
