//! Preparation passes before the exact search, and the evaluation the exact search orders moves
//! with.
//!
//! The preparation is an iterative-deepening, depth-limited principal variation search with a
//! static evaluation at its leaves. It proves nothing; it leaves two things behind for the exact
//! search: a guess of the score (the centre of the first aspiration window) and, in the table, a
//! best move for the positions near the root (searched first there). Good moves near the root
//! are what the exact search can least afford to get wrong: every wrong first move at a cut node
//! near the root doubles a large subtree.
//!
//! Both this search and the exact search's evaluation ordering (`fill_list`, `eval_search`) keep
//! the pattern indices incrementally ([`eval::Indices`]) instead of recomputing them from the
//! discs: the preparation search plays and takes back moves on one set of indices; the exact
//! search, whose nodes arrive as bare bitboards, keeps one slot per number of empties
//! ([`EvalSlot`]) and derives a node's indices from its parent's slot (one move's placed and
//! flipped squares), recomputing from scratch only when the slot above does not hold the parent
//! (the first node, or one reached some other way). Every evaluation equals the from-scratch one
//! exactly, so the search visits the same nodes either way.

use super::table::NO_MOVE;
use super::tree::{Candidate, SHALLOW, Tree};
use crate::game::othello::bitboard::{
    final_score, flips, moves, potential_moves, weighted_mobility,
};
use crate::search::othello::eval::{self, Indices, N_FEATURES};

/// The pattern indices of the last node with some number of empties that ordered its moves by
/// the evaluation: its discs, which view of `ind` is its side to move's, and the indices.
#[derive(Clone, Debug)]
pub struct EvalSlot {
    p: u64,
    o: u64,
    side: usize,
    ind: Indices,
}

/// One [`EvalSlot`] per number of empties (0 to 64).
pub type EvalSlots = Vec<EvalSlot>;

/// Slots for a new solver (all holding the empty board, a position no search reaches).
pub fn eval_slots() -> EvalSlots {
    vec![
        EvalSlot {
            p: 0,
            o: 0,
            side: 0,
            ind: Indices::new(0, 0),
        };
        65
    ]
}

/// If `(p, o)` follows from the slot's position by one move of its side to move (possibly
/// followed by a pass), that move's square and flips and whether the new side to move is the
/// other side (no pass) — enough to update the slot's indices to `(p, o)`.
#[inline]
fn one_move_from(s: &EvalSlot, p: u64, o: u64) -> Option<(usize, u64, bool)> {
    let (sp, so) = (s.p, s.o);
    let before = sp | so;
    let after = p | o;
    let x = after & !before;
    if before & !after != 0 || x == 0 || x & (x - 1) != 0 {
        return None;
    }
    // the mover's discs after the move, and the other side's
    let (mine, other, swapped) = if o & x != 0 {
        (o, p, true)
    } else {
        (p, o, false)
    };
    let f = so & mine;
    if mine == sp | f | x && other == so ^ f {
        Some((x.trailing_zeros() as usize, f, swapped))
    } else {
        None
    }
}

impl Tree<'_> {
    /// Static evaluation in centi-discs for the side to move: the trained patterns if present,
    /// else the engine's hand-written evaluation.
    #[inline]
    pub fn evaluate(&self, p: u64, o: u64) -> i32 {
        match self.eval {
            Some(w) => w.eval(p, o) * 100 / eval::SCALE,
            None => crate::search::othello::linear::evaluate(p, o),
        }
    }

    /// [`Tree::evaluate`] with the side to move's pattern indices already known (`view`; read
    /// only with the trained patterns).
    #[inline]
    pub fn evaluate_view(&self, view: &[u32; N_FEATURES], p: u64, o: u64) -> i32 {
        self.evaluate_known(view, p, o, moves(p, o))
    }

    /// [`Tree::evaluate_view`] with the side to move's moves `mv` already known.
    #[inline(always)]
    fn evaluate_known(&self, view: &[u32; N_FEATURES], p: u64, o: u64, mv: u64) -> i32 {
        match self.eval {
            Some(w) => {
                let mobility = (mv.count_ones() as i32, moves(o, p).count_ones() as i32);
                w.eval_view(view, (p | o).count_zeros(), mobility) * 100 / eval::SCALE
            }
            None => crate::search::othello::linear::evaluate(p, o),
        }
    }

    /// Make slot `n` hold `(p, o)` (`n` empties): from the slot above when that holds the parent,
    /// else from scratch. Returns the view of the side to move.
    #[inline]
    pub fn node_indices(&mut self, p: u64, o: u64, n: u32) -> usize {
        let n = (n as usize).min(64);
        let (lower, upper) = self.eval_slots.split_at_mut(n + 1);
        let slot = &mut lower[n];
        if slot.p == p && slot.o == o {
            return slot.side;
        }
        if let Some(parent) = upper.first()
            && let Some((x, f, swapped)) = one_move_from(parent, p, o)
        {
            slot.ind.clone_from(&parent.ind);
            slot.ind.play(parent.side, x, f);
            slot.side = parent.side ^ swapped as usize;
        } else {
            slot.ind = Indices::new(p, o);
            slot.side = 0;
        }
        (slot.p, slot.o) = (p, o);
        slot.side
    }

    /// The negated evaluation (centi-discs) of the child reached by the move `x` (flips `f`,
    /// giving `cp` to move against `co`, who has the moves `cm`) of the node held by slot `n`,
    /// by the static evaluation, or with enough empties an evaluation search of
    /// `eval_sort_depth` plies: the value the move ordering adds to the key.
    #[inline]
    pub fn child_eval(&mut self, n: u32, x: usize, f: u64, cp: u64, co: u64, cm: u64) -> i32 {
        let depth = if n >= self.options.eval_search_min_empties {
            self.options.eval_sort_depth
        } else {
            0
        };
        let slot = &self.eval_slots[n as usize];
        let side = slot.side;
        if depth == 0 {
            let mut view = [0u32; N_FEATURES];
            slot.ind.view_after(side, x, f, side ^ 1, &mut view);
            return -self.evaluate_known(&view, cp, co, cm);
        }
        let mut ind = slot.ind.clone();
        ind.play(side, x, f);
        -self.eval_search(cp, co, depth, -6500, 6500, &mut ind, side ^ 1)
    }

    /// Plain alpha-beta to `depth` plies with the static evaluation at the leaves (centi-discs),
    /// for move ordering; `ind` holds the position's pattern indices (view `side` is the side to
    /// move's) and is restored on return.
    #[allow(clippy::too_many_arguments)]
    pub fn eval_search(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
        ind: &mut Indices,
        side: usize,
    ) -> i32 {
        if depth == 0 {
            return self.evaluate_view(ind.view(side), p, o);
        }
        self.nodes += 1;
        let mv = moves(p, o);
        if mv == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o) * 100;
            }
            return -self.eval_search(o, p, depth, -beta, -alpha, ind, side ^ 1);
        }
        let mut best = -100_000;
        let mut alpha = alpha;
        let mut m = mv;
        let mut view = [0u32; N_FEATURES];
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(x, p, o);
            let (cp, co) = (o ^ f, p | f | (1 << x));
            let v = if depth == 1 {
                ind.view_after(side, x, f, side ^ 1, &mut view);
                -self.evaluate_view(&view, cp, co)
            } else {
                ind.play(side, x, f);
                let v = -self.eval_search(cp, co, depth - 1, -beta, -alpha, ind, side ^ 1);
                ind.undo(side, x, f);
                v
            };
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Iterative deepening to `max_depth` plies; returns the last score in centi-discs.
    pub fn hints(&mut self, p: u64, o: u64, n: u32, max_depth: u32) -> i32 {
        let mut score = self.evaluate(p, o);
        let mut ind = Indices::new(p, o);
        for depth in 1..=max_depth {
            let v = self.hint_search(p, o, -6500, 6500, depth, n, 0, &mut ind, 0);
            if self.aborted {
                break;
            }
            score = v;
        }
        score
    }

    /// Depth-limited fail-soft PVS; stores each node's best move as a hint. `ind` holds the
    /// position's pattern indices (view `side` is the side to move's) and is restored on return.
    #[allow(clippy::too_many_arguments)]
    fn hint_search(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        depth: u32,
        n: u32,
        ply: usize,
        ind: &mut Indices,
        side: usize,
    ) -> i32 {
        if !self.enter_node() {
            return 0;
        }
        let mv = moves(p, o);
        if mv == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o) * 100;
            }
            return -self.hint_search(o, p, -beta, -alpha, depth, n, ply, ind, side ^ 1);
        }
        if depth == 0 {
            return self.evaluate_view(ind.view(side), p, o);
        }
        let hash = self.probe(p, o).map_or(NO_MOVE, |e| e.best);
        // hint lists live above the exact search's lists (index 64 - ply never collides with a
        // list in use: the exact search has not started)
        let slot = 64 - ply.min(60);
        let mut count = 0;
        let mut m = mv;
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(x, p, o);
            let (cp, co) = (o ^ f, p | f | (1 << x));
            let key = if x as u8 == hash {
                1 << 30
            } else {
                let mob = weighted_mobility(moves(cp, co)) as i32;
                let pot = potential_moves(cp, co).count_ones() as i32;
                ((36 - mob) << 15) + ((36 - pot) << 5)
            };
            self.lists[slot][count] = Candidate {
                square: x as u8,
                flips: f,
                key,
            };
            count += 1;
        }
        let mut best = -100_000;
        let mut best_move = NO_MOVE;
        let mut alpha = alpha;
        for i in 0..count {
            let c = self.pick(slot as u32, i, count);
            let x = c.square as usize;
            let (cp, co) = (o ^ c.flips, p | c.flips | (1 << x));
            if depth == 1 {
                // the children are leaves: evaluated from a view of the indices after the move
                // (a leaf's value does not depend on the window: no re-search)
                let v = -self.hint_leaf(cp, co, ind, side, x, c.flips);
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
                continue;
            }
            ind.play(side, x, c.flips);
            let s = side ^ 1;
            let v = if i == 0 {
                -self.hint_search(cp, co, -beta, -alpha, depth - 1, n - 1, ply + 1, ind, s)
            } else {
                let v = -self.hint_search(
                    cp,
                    co,
                    -alpha - 1,
                    -alpha,
                    depth - 1,
                    n - 1,
                    ply + 1,
                    ind,
                    s,
                );
                if v > alpha && v < beta {
                    -self.hint_search(cp, co, -beta, -alpha, depth - 1, n - 1, ply + 1, ind, s)
                } else {
                    v
                }
            };
            ind.undo(side, x, c.flips);
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
        if n > SHALLOW {
            self.table.hint(p, o, n, best_move, &mut self.table_stats);
        }
        best
    }

    /// What `hint_search` returns for the position after `side` plays `x` flipping `f` (`cp` to
    /// move against `co`) at depth 0, from a view of `ind` (the indices before the move) instead
    /// of updated indices: the same limits check, node count, pass and end-of-game handling.
    #[inline]
    fn hint_leaf(&mut self, cp: u64, co: u64, ind: &Indices, side: usize, x: usize, f: u64) -> i32 {
        if !self.enter_node() {
            return 0;
        }
        let mut view = [0u32; N_FEATURES];
        let cm = moves(cp, co);
        if cm != 0 {
            if self.eval.is_none() {
                return self.evaluate(cp, co);
            }
            ind.view_after(side, x, f, side ^ 1, &mut view);
            return self.evaluate_known(&view, cp, co, cm);
        }
        let om = moves(co, cp);
        if om == 0 {
            return final_score(cp, co) * 100;
        }
        // a pass: the node of the mover to move again, as `hint_search` recurses into it
        if !self.enter_node() {
            return 0;
        }
        if self.eval.is_none() {
            return -self.evaluate(co, cp);
        }
        ind.view_after(side, x, f, side, &mut view);
        -self.evaluate_known(&view, co, cp, om)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::game::othello::{START_BLACK, START_WHITE};
    use crate::search::endgame::{SolveLimits, Solver};

    /// Alpha-beta with every leaf evaluated from scratch: what `eval_search` must return.
    fn reference_search(t: &Tree, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            return t.evaluate(p, o);
        }
        let mv = moves(p, o);
        if mv == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o) * 100;
            }
            return -reference_search(t, o, p, depth, -beta, -alpha);
        }
        let (mut best, mut alpha) = (-100_000, alpha);
        let mut m = mv;
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(x, p, o);
            let v = -reference_search(t, o ^ f, p | f | (1 << x), depth - 1, -beta, -alpha);
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Along random games (passes included, a new game starting from an unrelated slot), every
    /// node's slot — derived from the slot above or recomputed — holds the from-scratch indices,
    /// and every child's evaluation from it (the leaf view, a two-ply search on kept indices, a
    /// hint-search leaf) equals the one computed from scratch.
    #[test]
    fn incremental_evaluation_equals_from_scratch() {
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(1);
        let mut t = solver.tree(&stop, &SolveLimits::default());
        assert!(t.eval.is_some(), "shipped weights load");
        t.options.eval_search_min_empties = 0;
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let (mut derived, mut scratch, mut checked) = (0, 0, 0);
        for game in 0..24 {
            let (mut p, mut o) = (START_BLACK, START_WHITE);
            loop {
                let n = (p | o).count_zeros();
                let mv = moves(p, o);
                if mv == 0 {
                    if moves(o, p) == 0 {
                        break;
                    }
                    (p, o) = (o, p);
                    continue;
                }
                // a fresh slot is either derived from the slot above or recomputed
                let above = t.eval_slots[n as usize + 1].clone();
                let side = t.node_indices(p, o, n);
                if one_move_from(&above, p, o).is_some() {
                    derived += 1;
                } else {
                    scratch += 1;
                }
                let slot = t.eval_slots[n as usize].clone();
                assert_eq!((slot.p, slot.o), (p, o));
                assert_eq!(*slot.ind.view(side), *Indices::new(p, o).view(0));
                assert_eq!(*slot.ind.view(side ^ 1), *Indices::new(o, p).view(0));
                let mut m = mv;
                while m != 0 {
                    let x = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let f = flips(x, p, o);
                    let (cp, co) = (o ^ f, p | f | (1 << x));
                    let cm = moves(cp, co);
                    t.options.eval_sort_depth = 0;
                    assert_eq!(t.child_eval(n, x, f, cp, co, cm), -t.evaluate(cp, co));
                    t.options.eval_sort_depth = 2;
                    assert_eq!(
                        t.child_eval(n, x, f, cp, co, cm),
                        -reference_search(&t, cp, co, 2, -6500, 6500)
                    );
                    let want = if cm != 0 {
                        t.evaluate(cp, co)
                    } else if moves(co, cp) == 0 {
                        final_score(cp, co) * 100
                    } else {
                        -t.evaluate(co, cp)
                    };
                    assert_eq!(t.hint_leaf(cp, co, &slot.ind, side, x, f), want);
                    checked += 1;
                }
                assert_eq!(t.eval_slots[n as usize].ind, slot.ind, "searches restore");
                // a random move; every third game stops early, so the next starts unrelated
                if game % 3 == 0 && n < 30 {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let mut k = rng % mv.count_ones() as u64;
                let mut m = mv;
                while k > 0 {
                    m &= m - 1;
                    k -= 1;
                }
                let x = m.trailing_zeros() as usize;
                let f = flips(x, p, o);
                (p, o) = (o ^ f, p | f | (1 << x));
            }
        }
        assert!(
            derived > 500 && scratch > 10 && checked > 5000,
            "{derived} {scratch}"
        );
    }
}

/// Standard deviation of the exact score around an evaluation search of `depth` plies (the
/// index), as `base + slope · empties` in centi-discs. Fitted by `train-endgame-eval
/// --probcut-fit --games 150` (positions at 11 to 22 empties from seeded noisy playouts, each
/// solved exactly); larger depths and empties are extrapolated.
const PROBCUT_SIGMA: [(i32, i32); 5] = [(1284, -2), (972, 7), (762, 13), (634, 15), (570, 13)];
/// Mean of `exact − search` by depth (centi-discs), from the same fit: even depths undervalue
/// the side to move by two to three discs, odd ones are unbiased.
const PROBCUT_BIAS: [i32; 5] = [314, -18, 191, -45, 206];

/// ProbCut settings of a selective search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbCut {
    /// Cut when a shallow search predicts the bound by this margin, in percent of its error's
    /// standard deviation.
    pub confidence: i32,
    /// Only at nodes with at least this many empties.
    pub min_empties: u32,
    /// Depth of the shallow evaluation search (at most 4).
    pub depth: u32,
}

impl Tree<'_> {
    /// ProbCut: predict from a shallow evaluation search whether the exact score is at least
    /// `beta` or at most `alpha`, and if confidently so, give that bound without searching.
    #[inline]
    pub fn probcut(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> Option<i32> {
        let pc = self.probcut?;
        if n < pc.min_empties || self.eval.is_none() {
            return None;
        }
        let d = pc.depth.min(4) as usize;
        let sigma = PROBCUT_SIGMA[d].0 + PROBCUT_SIGMA[d].1 * n as i32;
        let margin = pc.confidence * sigma / 100;
        let side = self.node_indices(p, o, n);
        let mut ind = self.eval_slots[n as usize].ind.clone();
        if beta < 64 {
            let b = beta * 100 + margin - PROBCUT_BIAS[d];
            if self.eval_search(p, o, d as u32, b - 1, b, &mut ind, side) >= b {
                return Some(beta);
            }
        }
        if alpha > -64 {
            let a = alpha * 100 - margin - PROBCUT_BIAS[d];
            if self.eval_search(p, o, d as u32, a, a + 1, &mut ind, side) <= a {
                return Some(alpha);
            }
        }
        None
    }
}
