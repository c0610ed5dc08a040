//! The recursive search of the endgame solver: fail-soft alpha-beta on raw bitboards, principal
//! variation search at nodes with an open window, and three tiers by the number of empties:
//!
//! - `n > SHALLOW`: the table (probe, store, and an enhanced transposition cutoff that probes
//!   every child before searching any), a stability cutoff, and move ordering by the table's move,
//!   then fastest-first (fewest opponent replies, corners counted twice; one reply is worth four
//!   of the mover's corner-anchored stable discs, or sixteen squares of the opponent's potential
//!   mobility or of quadrant parity) and, with many empties, the evaluation;
//! - `4 < n ≤ SHALLOW`: no table; at `SORTED_SHALLOW_MIN` empties and above the moves are sorted
//!   fastest-first by the same key as above (without the evaluation), below that the legal moves
//!   are tried in quadrant-parity order: odd quadrants first, corners before the squares next to
//!   them;
//! - `n ≤ 4`: unrolled code for the last four, three and two empties, and a table-driven flip
//!   count for the very last square.
//!
//! At `SHALLOW` empties and below, null windows (almost every call there) have their own
//! versions that take only alpha; an open window gets a small principal variation search over
//! them. From 4 empties up, the stability cutoff is tried when the opponent has enough discs
//! for it to succeed.
//!
//! Scores are final disc differences for the side to move (empties go to the winner), so every
//! score is even and lies in [-64, 64].

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::ordering::Evaluator;
use super::table::{Entry, HINT, NO_MOVE, SolverTable, TableStats};
use crate::game::othello::bitboard::{
    CORNERS, NEIGHBOURS, QUADRANT_MASK, corner_stability, final_score, flips, last_flip_count,
    moves, potential_moves, quadrant, stable_discs_until, weighted_mobility,
};

/// At and below this many empties the search uses neither the table nor a sorted move list.
pub const SHALLOW: u32 = 7;
/// From this many empties on, the shallow tier sorts its moves fastest-first.
const SORTED_SHALLOW_MIN: u32 = 7;
/// From this many empties on, children are probed in the table before any is searched (ETC).
const ETC_MIN: u32 = 12;

/// Squares adjacent to a corner (C and X squares): tried last by the shallow search.
const NEAR_CORNERS: u64 = 0x42C3_0000_0000_C342;
/// Everything else.
const MIDDLE: u64 = !(CORNERS | NEAR_CORNERS);

/// The empties `e` in the order the shallow tier tries them: odd quadrants (`odd`) first, and in
/// each, corners, then the middle, then the squares next to corners.
#[inline(always)]
fn shallow_order(e: u64, odd: u64) -> [u64; 6] {
    [
        e & odd & CORNERS,
        e & odd & MIDDLE,
        e & odd & NEAR_CORNERS,
        e & !odd & CORNERS,
        e & !odd & MIDDLE,
        e & !odd & NEAR_CORNERS,
    ]
}

/// The stability cutoff is only tried when alpha is at least this high (by empties): below it
/// the opponent would need more stable discs than such positions usually have, and computing
/// stability would be wasted.
const STABILITY_THRESHOLD: [i32; 65] = {
    let mut t = [99; 65];
    let mut n = 4;
    while n < 65 {
        t[n] = 2 * n as i32 - 2;
        n += 1;
    }
    t
};

/// The stability cutoff needs (64 - alpha) / 2 stable discs of the opponent (rounded up); it is
/// only tried when the opponent has at least this many discs more than that (by empties). Close
/// to the end a failed try costs more than the small subtree it might have saved, and cutoffs
/// come mostly with a large surplus (measured on FFO #40, #42, #44). At 4 empties tries succeed
/// four times in five even with a small surplus (FFO #45), and the margin is lower there.
const STABILITY_MARGIN: [i32; 65] = {
    let mut t = [0; 65];
    t[4] = 4;
    t[5] = 10;
    t[6] = 10;
    t[7] = 10;
    t
};

/// One candidate move of a sorted node.
#[derive(Clone, Copy, Debug, Default)]
pub struct Candidate {
    pub square: u8,
    pub flips: u64,
    pub key: i32,
}

/// Move lists, one per number of empties (a node with n empties only ever uses list n).
pub type Lists = Vec<[Candidate; 64]>;

/// The state of one search call: counters, limits and borrowed tables.
pub struct Tree<'a> {
    /// The table, possibly shared with other threads' trees.
    pub table: &'a SolverTable,
    /// This tree's table traffic.
    pub table_stats: TableStats,
    /// The level its stores are made at and its probes need: [`super::table::EXACT`] for the
    /// exact search, a selective pass's level during that pass.
    pub level: u8,
    pub lists: &'a mut Lists,
    pub edge: &'static [u8],
    pub stop: &'a AtomicBool,
    pub deadline: Option<Instant>,
    pub node_limit: u64,
    pub nodes: u64,
    pub next_check: u64,
    pub aborted: bool,
    pub options: super::Options,
    /// The evaluation that orders moves, and ProbCut in the selective passes.
    pub ev: Evaluator<'a>,
    /// A Lazy SMP helper's number: the root's moves are tried from this one on (0: in order).
    pub root_shift: usize,
}

const DISC_INF: i32 = 127;

/// The fastest-first ordering key of a move that leads to `(cp, co)` (the opponent to move, whose
/// moves are `replies`), higher first: fewest opponent replies (corners counted twice); one reply
/// is worth four of the mover's corner-anchored stable discs, or sixteen squares of the
/// opponent's potential mobility or of quadrant parity (`odd`: the move is in an odd quadrant).
#[inline(always)]
fn fastest_first_key(cp: u64, co: u64, replies: u64, odd: bool) -> i32 {
    let mob = weighted_mobility(replies) as i32;
    let pot = potential_moves(cp, co).count_ones() as i32;
    let stab = corner_stability(co) as i32;
    ((36 - mob) << 15) + (stab << 13) + ((36 - pot) << 11) + (i32::from(odd) << 11)
}

impl Tree<'_> {
    /// Nodes of this tree so far: its own and its evaluation searches'.
    #[inline(always)]
    pub fn total_nodes(&self) -> u64 {
        self.nodes + self.ev.nodes
    }

    /// The table's entry for this position, if any.
    #[inline(always)]
    pub fn probe(&mut self, p: u64, o: u64) -> Option<Entry> {
        self.table.probe(p, o, &mut self.table_stats)
    }

    /// Store the fail-soft result `score` of a search of window `(alpha, beta)` at this tree's
    /// level (`nodes`: what the subtree cost).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &mut self,
        (p, o, n): (u64, u64, u32),
        (alpha, beta): (i32, i32),
        score: i32,
        best: u8,
        nodes: u64,
    ) {
        let level = self.level;
        let stats = &mut self.table_stats;
        self.table
            .store(p, o, n, level, (alpha, beta, score), best, nodes, stats);
    }

    #[cold]
    pub(super) fn check_limits(&mut self) {
        self.next_check = self.total_nodes() + 4096;
        if self.stop.load(Ordering::Relaxed)
            || self.total_nodes() >= self.node_limit
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    /// Count a node of the tiers that honour the limits: checks them every few thousand nodes;
    /// false (and nothing counted) once the search is aborted.
    #[inline(always)]
    pub(super) fn enter_node(&mut self) -> bool {
        if self.total_nodes() >= self.next_check {
            self.check_limits();
        }
        if self.aborted {
            return false;
        }
        self.nodes += 1;
        true
    }

    /// Any number of empties: dispatch to the tier for `n`. At `SHALLOW` empties and below, a
    /// null window (beta = alpha + 1: almost every call there) goes to the null-window tiers.
    #[inline]
    pub fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32, parity: u8) -> i32 {
        if n > SHALLOW {
            self.deep(p, o, alpha, beta, n, parity)
        } else if beta == alpha + 1 {
            self.nws(p, o, alpha, n, parity)
        } else {
            self.pvs_shallow(p, o, alpha, beta, n, parity)
        }
    }

    /// Null-window search (alpha, alpha + 1) with at most `SHALLOW` empties. Fail-soft: a result
    /// above alpha is a lower bound of the score, any other an upper bound.
    #[inline]
    fn nws(&mut self, p: u64, o: u64, alpha: i32, n: u32, parity: u8) -> i32 {
        match n {
            0 => {
                self.nodes += 1;
                final_score(p, o)
            }
            1 => self.solve_1(p, alpha, (!(p | o)).trailing_zeros() as usize),
            2 => {
                let e = !(p | o);
                let x1 = e.trailing_zeros() as usize;
                let x2 = (e & (e - 1)).trailing_zeros() as usize;
                self.solve_2(p, o, alpha, x1, x2)
            }
            3 => {
                let e = !(p | o);
                let x1 = e.trailing_zeros() as usize;
                let e = e & (e - 1);
                let x2 = e.trailing_zeros() as usize;
                let x3 = (e & (e - 1)).trailing_zeros() as usize;
                self.solve_3(p, o, alpha, parity, [x1, x2, x3])
            }
            4 => self.solve_4(p, o, alpha, parity),
            _ => self.shallow(p, o, alpha, n, parity),
        }
    }

    /// The last empty square `x`; `p` to move, the opponent owns every other square. Fail-soft
    /// for the window (alpha, alpha + 1): when the mover cannot play, the score without the
    /// opponent's move is an upper bound, so the opponent's flips are only counted if that bound
    /// is above alpha. (The result is exact or an upper bound at most alpha, so it is also right
    /// for any wider window.)
    #[inline(always)]
    fn solve_1(&mut self, p: u64, alpha: i32, x: usize) -> i32 {
        self.nodes += 1;
        let pc = p.count_ones() as i32;
        let n = last_flip_count(x, p);
        if n > 0 {
            return 2 * (pc + n) - 62;
        }
        // nobody moves: the empty square goes to the winner
        let none = if 2 * pc > 63 {
            2 * pc - 62
        } else {
            2 * pc - 64
        };
        if none <= alpha {
            return none;
        }
        let m = last_flip_count(x, !p & !(1u64 << x));
        if m > 0 { 2 * (pc - m) - 64 } else { none }
    }

    /// Two empties `x1`, `x2`, null window (alpha, alpha + 1).
    #[inline(always)]
    fn solve_2(&mut self, p: u64, o: u64, alpha: i32, x1: usize, x2: usize) -> i32 {
        self.nodes += 1;
        let mut best = -DISC_INF;
        if NEIGHBOURS[x1] & o != 0 {
            let f = flips(x1, p, o);
            if f != 0 {
                best = -self.solve_1(o ^ f, -alpha - 1, x2);
                if best > alpha {
                    return best;
                }
            }
        }
        if NEIGHBOURS[x2] & o != 0 {
            let f = flips(x2, p, o);
            if f != 0 {
                let v = -self.solve_1(o ^ f, -alpha - 1, x1);
                return v.max(best);
            }
        }
        if best > -DISC_INF {
            return best;
        }
        // pass: the opponent moves, we answer
        let mut worst = DISC_INF;
        if NEIGHBOURS[x1] & p != 0 {
            let f = flips(x1, o, p);
            if f != 0 {
                worst = self.solve_1(p ^ f, alpha, x2);
                if worst <= alpha {
                    return worst;
                }
            }
        }
        if NEIGHBOURS[x2] & p != 0 {
            let f = flips(x2, o, p);
            if f != 0 {
                let v = self.solve_1(p ^ f, alpha, x1);
                return v.min(worst);
            }
        }
        if worst < DISC_INF {
            return worst;
        }
        final_score(p, o)
    }

    /// The four empties, those in odd quadrants first. With four empties an odd number of them
    /// in a quadrant means two odd quadrants with one empty each and an even one (two odd ones
    /// in three quadrants cannot be), or all four squares in odd quadrants, or none; only the
    /// first case needs ordering.
    #[inline(always)]
    fn ordered_empties_4(p: u64, o: u64, parity: u8) -> [usize; 4] {
        let e = !(p | o);
        let odd = e & QUADRANT_MASK[(parity & 15) as usize];
        let first = if odd.count_ones() == 2 { odd } else { e };
        let second = first & first.wrapping_sub(1);
        let rest = (e & !first) | (second & second.wrapping_sub(1));
        let x1 = first.trailing_zeros() as usize;
        let x2 = second.trailing_zeros() as usize;
        let x3 = rest.trailing_zeros() as usize;
        let x4 = (rest & rest.wrapping_sub(1)).trailing_zeros() as usize;
        [x1, x2, x3, x4]
    }

    /// Three empties, null window (alpha, alpha + 1). The square alone in its quadrant is tried
    /// first when the other two share one (the only case where quadrant parity orders anything).
    #[inline(always)]
    fn solve_3(&mut self, p: u64, o: u64, alpha: i32, parity: u8, xs: [usize; 3]) -> i32 {
        self.nodes += 1;
        let [mut x1, mut x2, mut x3] = xs;
        if parity & quadrant(x1) == 0 {
            // x1 shares its quadrant with x2 or x3; the other one is alone
            if parity & quadrant(x2) == 0 {
                (x1, x2, x3) = (x3, x1, x2);
            } else {
                (x1, x2) = (x2, x1);
            }
        }
        let mut best = -DISC_INF;
        macro_rules! mine {
            ($x:expr, $y:expr, $z:expr) => {
                if NEIGHBOURS[$x] & o != 0 {
                    let f = flips($x, p, o);
                    if f != 0 {
                        let v = -self.solve_2(o ^ f, p | f | (1 << $x), -alpha - 1, $y, $z);
                        if v > alpha {
                            return v;
                        }
                        best = best.max(v);
                    }
                }
            };
        }
        mine!(x1, x2, x3);
        mine!(x2, x1, x3);
        mine!(x3, x1, x2);
        if best > -DISC_INF {
            return best;
        }
        let mut worst = DISC_INF;
        macro_rules! theirs {
            ($x:expr, $y:expr, $z:expr) => {
                if NEIGHBOURS[$x] & p != 0 {
                    let f = flips($x, o, p);
                    if f != 0 {
                        let v = self.solve_2(p ^ f, o | f | (1 << $x), alpha, $y, $z);
                        if v <= alpha {
                            return v;
                        }
                        worst = worst.min(v);
                    }
                }
            };
        }
        theirs!(x1, x2, x3);
        theirs!(x2, x1, x3);
        theirs!(x3, x1, x2);
        if worst < DISC_INF {
            return worst;
        }
        final_score(p, o)
    }

    /// Four empties, null window (alpha, alpha + 1), odd quadrants first.
    #[inline(always)]
    fn solve_4(&mut self, p: u64, o: u64, alpha: i32, parity: u8) -> i32 {
        self.nodes += 1;
        if let Some(v) = self.stability_cutoff(p, o, alpha, 4) {
            return v;
        }
        let [x1, x2, x3, x4] = Self::ordered_empties_4(p, o, parity);
        let mut best = -DISC_INF;
        macro_rules! mine {
            ($x:expr, $y:expr, $z:expr, $w:expr) => {
                if NEIGHBOURS[$x] & o != 0 {
                    let f = flips($x, p, o);
                    if f != 0 {
                        let (cp, co) = (o ^ f, p | f | (1 << $x));
                        let v =
                            -self.solve_3(cp, co, -alpha - 1, parity ^ quadrant($x), [$y, $z, $w]);
                        if v > alpha {
                            return v;
                        }
                        best = best.max(v);
                    }
                }
            };
        }
        mine!(x1, x2, x3, x4);
        mine!(x2, x1, x3, x4);
        mine!(x3, x1, x2, x4);
        mine!(x4, x1, x2, x3);
        if best > -DISC_INF {
            return best;
        }
        if moves(o, p) == 0 {
            return final_score(p, o);
        }
        -self.solve_4(o, p, -alpha - 1, parity)
    }

    /// Fail-low cutoff from the opponent's stable discs: the score cannot exceed
    /// 64 - 2 × (opponent's stable discs).
    #[inline(always)]
    fn stability_cutoff(&self, p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
        // the bound is at most alpha from this many stable discs on
        let enough = (65 - alpha) / 2;
        if alpha >= STABILITY_THRESHOLD[n as usize]
            && o.count_ones() as i32 - enough >= STABILITY_MARGIN[n as usize]
        {
            let stable = stable_discs_until(o, p, self.edge, enough as u32);
            let bound = 64 - 2 * stable.count_ones() as i32;
            if bound <= alpha {
                return Some(bound);
            }
        }
        None
    }

    /// 5 to `SHALLOW` empties, null window (alpha, alpha + 1): squares straight from the
    /// bitboard in parity order.
    fn shallow(&mut self, p: u64, o: u64, alpha: i32, n: u32, parity: u8) -> i32 {
        self.nodes += 1;
        if let Some(v) = self.stability_cutoff(p, o, alpha, n) {
            return v;
        }
        let legal = moves(p, o);
        if legal == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.shallow(o, p, -alpha - 1, n, parity);
        }
        if n >= SORTED_SHALLOW_MIN {
            return self.shallow_sorted(p, o, alpha, n, parity, legal);
        }
        let odd = QUADRANT_MASK[(parity & 15) as usize];
        let mut best = -DISC_INF;
        for group in shallow_order(legal, odd) {
            let mut m = group;
            while m != 0 {
                let x = m.trailing_zeros() as usize;
                m &= m - 1;
                let v = self.shallow_child(p, o, x, flips(x, p, o), alpha, n, parity);
                if v > alpha {
                    return v;
                }
                best = best.max(v);
            }
        }
        best
    }

    /// The score (for the mover) of the move on `x` flipping `f`, in the shallow tier's null
    /// window (alpha, alpha + 1).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn shallow_child(
        &mut self,
        p: u64,
        o: u64,
        x: usize,
        f: u64,
        alpha: i32,
        n: u32,
        parity: u8,
    ) -> i32 {
        let (cp, co) = (o ^ f, p | f | (1 << x));
        let cpar = parity ^ quadrant(x);
        if n == 5 {
            -self.solve_4(cp, co, -alpha - 1, cpar)
        } else {
            -self.shallow(cp, co, -alpha - 1, n - 1, cpar)
        }
    }

    /// The shallow null-window search over the moves `legal` (not empty), sorted by
    /// [`Tree::fill_list`] (fastest-first: at these empties, without the evaluation). Move list
    /// `n` is free here: the deep tier uses only lists above `SHALLOW`.
    fn shallow_sorted(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        n: u32,
        parity: u8,
        legal: u64,
    ) -> i32 {
        let count = self.fill_list(p, o, legal, n, parity, NO_MOVE);
        let mut best = -DISC_INF;
        for i in 0..count {
            let c = self.pick(n, i, count);
            let v = self.shallow_child(p, o, c.square as usize, c.flips, alpha, n, parity);
            if v > alpha {
                return v;
            }
            best = best.max(v);
        }
        best
    }

    /// At most `SHALLOW` empties with an open window (rare: principal-variation nodes):
    /// principal variation search in the shallow order, null-window searches for the later moves.
    fn pvs_shallow(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32, parity: u8) -> i32 {
        if n <= 1 {
            // exact, or an upper bound at most alpha: right for any window
            return self.nws(p, o, alpha, n, parity);
        }
        self.nodes += 1;
        let e = !(p | o);
        let odd = QUADRANT_MASK[(parity & 15) as usize];
        let mut best = -DISC_INF;
        let mut alpha = alpha;
        for group in shallow_order(e, odd) {
            let mut m = group;
            while m != 0 {
                let x = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = flips(x, p, o);
                if f == 0 {
                    continue;
                }
                let (cp, co) = (o ^ f, p | f | (1 << x));
                let cpar = parity ^ quadrant(x);
                let v = if best == -DISC_INF {
                    -self.search(cp, co, -beta, -alpha, n - 1, cpar)
                } else {
                    let v = -self.nws(cp, co, -alpha - 1, n - 1, cpar);
                    if v > alpha && v < beta {
                        -self.search(cp, co, -beta, -alpha, n - 1, cpar)
                    } else {
                        v
                    }
                };
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            return v;
                        }
                    }
                }
            }
        }
        if best > -DISC_INF {
            return best;
        }
        if moves(o, p) == 0 {
            return final_score(p, o);
        }
        -self.pvs_shallow(o, p, -beta, -alpha, n, parity)
    }

    /// Deeper than `SHALLOW`: table, stability, ETC, sorted moves, PVS.
    pub fn deep(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32, parity: u8) -> i32 {
        if !self.enter_node() {
            return 0;
        }
        let start_nodes = self.total_nodes();
        if let Some(v) = self.stability_cutoff(p, o, alpha, n) {
            return v;
        }
        let (mut alpha, mut beta) = (alpha, beta);
        let mut hash_move = NO_MOVE;
        if let Some(e) = self.probe(p, o) {
            // A preparation hint orders only the preparation's own iterations and the root:
            // below the root it comes from a search a few plies deep that ignores mobility, and
            // the ordering key (mobility and the evaluation) does better without it.
            if e.level != HINT {
                hash_move = e.best;
            }
            if e.level >= self.level {
                let (lo, hi) = (e.lower as i32, e.upper as i32);
                if lo >= beta || lo == hi {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
            }
        }
        let mv = moves(p, o);
        if mv == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.deep(o, p, -beta, -alpha, n, parity);
        }
        if self.ev.probcut.is_some()
            && let Some(v) = self.ev.probcut_bound(p, o, alpha, beta, n)
        {
            return v;
        }
        let count = self.fill_list(p, o, mv, n, parity, hash_move);
        if n >= ETC_MIN
            && let Some(v) = self.etc(p, o, n, count, beta)
        {
            return v;
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut best = -DISC_INF;
        let mut best_move = NO_MOVE;
        for i in 0..count {
            let c = self.pick(n, i, count);
            let x = c.square as usize;
            let (cp, co) = (o ^ c.flips, p | c.flips | (1 << x));
            let cpar = parity ^ quadrant(x);
            let v = if i == 0 || beta - alpha <= 1 {
                -self.search(cp, co, -beta, -alpha, n - 1, cpar)
            } else {
                let v = -self.search(cp, co, -alpha - 1, -alpha, n - 1, cpar);
                if v > alpha && v < beta {
                    -self.search(cp, co, -beta, -alpha, n - 1, cpar)
                } else {
                    v
                }
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = x as u8;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.store(
            (p, o, n),
            (alpha0, beta0),
            best,
            best_move,
            self.total_nodes() - start_nodes + 1,
        );
        best
    }

    /// Fill move list `n` for the moves `mv` of `p`, each with its flips and ordering key.
    #[inline]
    pub fn fill_list(&mut self, p: u64, o: u64, mv: u64, n: u32, parity: u8, hash: u8) -> usize {
        let by_eval = n >= self.options.eval_sort_min_empties && self.ev.weights.is_some();
        if by_eval {
            self.ev.node_indices(p, o, n);
        }
        let mut m = mv;
        let mut k = 0;
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(x, p, o);
            let (cp, co) = (o ^ f, p | f | (1 << x));
            if n > SHALLOW + 1 {
                self.table.prefetch(cp, co);
            }
            let key = if x as u8 == hash {
                1 << 30
            } else if cp == 0 {
                (1 << 30) - 1
            } else {
                let replies = moves(cp, co);
                let mut key = fastest_first_key(cp, co, replies, parity & quadrant(x) != 0);
                if by_eval {
                    let e = self.ev.child_eval(n, x, f, cp, co, replies);
                    key += ((6400 + e) * self.options.eval_sort_weight / 100) << 10;
                }
                key
            };
            self.lists[n as usize][k] = Candidate {
                square: x as u8,
                flips: f,
                key,
            };
            k += 1;
        }
        k
    }

    /// Enhanced transposition cutoff: a child whose stored upper bound already proves
    /// `score ≥ beta` ends the node before any search.
    #[inline]
    fn etc(&mut self, p: u64, o: u64, n: u32, count: usize, beta: i32) -> Option<i32> {
        for i in 0..count {
            let c = self.lists[n as usize][i];
            let x = c.square as usize;
            if let Some(e) = self.probe(o ^ c.flips, p | c.flips | (1 << x))
                && e.level >= self.level
            {
                let v = -(e.upper as i32);
                if v >= beta {
                    return Some(v);
                }
            }
        }
        None
    }

    /// Selection sort step: bring the best remaining candidate to position `i` and return it.
    #[inline(always)]
    pub fn pick(&mut self, n: u32, i: usize, count: usize) -> Candidate {
        let list = &mut self.lists[n as usize];
        let mut b = i;
        for j in i + 1..count {
            if list[j].key > list[b].key {
                b = j;
            }
        }
        list.swap(i, b);
        list[i]
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::reference;
    use super::*;
    use crate::game::othello::bitboard::{edge_table, parity_of};

    /// Random positions with exactly `n` empties; some with one colour scarce, so that passes
    /// and lost games come up too.
    fn positions(n: u32, count: usize, seed: u64) -> Vec<(u64, u64)> {
        let mut s = seed;
        let mut next = move || {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        (0..count)
            .map(|i| {
                let mut empty = 0u64;
                while empty.count_ones() < n {
                    empty |= 1 << (next() % 64);
                }
                let colour = match i % 4 {
                    0 => next() & next() & next(),
                    1 => next() | next() | next(),
                    _ => next(),
                };
                let p = colour & !empty;
                (p, !p & !empty)
            })
            .collect()
    }

    #[test]
    fn every_tier_is_exact_and_fail_soft_for_any_window() {
        let table = SolverTable::new(1);
        let mut lists: Lists = vec![[Candidate::default(); 64]; 65];
        let mut eval_slots = super::super::ordering::eval_slots();
        let stop = AtomicBool::new(false);
        let mut tree = Tree {
            table: &table,
            table_stats: TableStats::default(),
            level: super::super::table::EXACT,
            lists: &mut lists,
            edge: edge_table(),
            stop: &stop,
            deadline: None,
            node_limit: u64::MAX,
            nodes: 0,
            next_check: 0,
            aborted: false,
            options: super::super::Options::default(),
            ev: Evaluator {
                weights: None,
                slots: &mut eval_slots,
                probcut: None,
                search_min_empties: 16,
                sort_depth: 0,
                nodes: 0,
            },
            root_shift: 0,
        };
        for n in 0..=9u32 {
            let count = if n <= 7 { 400 } else { 40 };
            for (p, o) in positions(n, count, 77 + u64::from(n)) {
                let want = reference(p, o);
                let parity = parity_of(!(p | o));
                let mut windows = vec![(-DISC_INF, DISC_INF), (-1, 1), (-65, -64), (64, 65)];
                for a in want - 3..=want + 2 {
                    windows.push((a, a + 1));
                    windows.push((a, a + 2));
                    windows.push((a, a + 5));
                }
                for (alpha, beta) in windows {
                    let v = tree.search(p, o, alpha, beta, n, parity);
                    let what = format!("n {n} p {p:#x} o {o:#x} ({alpha}, {beta}): {v} vs {want}");
                    if v <= alpha {
                        assert!(want <= v, "{what}");
                    } else if v >= beta {
                        assert!(want >= v, "{what}");
                    } else {
                        assert_eq!(v, want, "{what}");
                    }
                }
            }
        }
    }
}
