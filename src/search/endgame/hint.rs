//! The preparation passes before the exact search.
//!
//! The preparation is an iterative-deepening, depth-limited principal variation search with a
//! static evaluation at its leaves. It proves nothing; it leaves two things behind for the exact
//! search: a guess of the score (the centre of the first aspiration window) and, in the table, a
//! best move for the positions near the root (searched first there). Good moves near the root
//! are what the exact search can least afford to get wrong: every wrong first move at a cut node
//! near the root doubles a large subtree. It plays and takes back moves on one set of pattern
//! indices, and evaluates with the tree's [`Evaluator`](super::ordering::Evaluator).

use super::table::NO_MOVE;
use super::tree::{Candidate, SHALLOW, Tree};
use crate::game::othello::bitboard::{
    final_score, flips, moves, potential_moves, weighted_mobility,
};
use crate::search::othello::eval::{Indices, N_LANES};

impl Tree<'_> {
    /// Iterative deepening to `max_depth` plies; returns the last score in centi-discs.
    pub fn hints(&mut self, p: u64, o: u64, n: u32, max_depth: u32) -> i32 {
        let mut score = self.ev.evaluate(p, o);
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
            return self.ev.evaluate_view(ind.view(side), p, o);
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
        let mut view = [0u32; N_LANES];
        let cm = moves(cp, co);
        if cm != 0 {
            if self.ev.weights.is_none() {
                return self.ev.evaluate(cp, co);
            }
            ind.view_after(side, x, f, side ^ 1, &mut view);
            return self.ev.evaluate_known(&view, cp, co, cm);
        }
        let om = moves(co, cp);
        if om == 0 {
            return final_score(cp, co) * 100;
        }
        // a pass: the node of the mover to move again, as `hint_search` recurses into it
        if !self.enter_node() {
            return 0;
        }
        if self.ev.weights.is_none() {
            return -self.ev.evaluate(co, cp);
        }
        ind.view_after(side, x, f, side, &mut view);
        -self.ev.evaluate_known(&view, co, cp, om)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::game::othello::{START_BLACK, START_WHITE};
    use crate::search::endgame::ordering::one_move_from;
    use crate::search::endgame::{SolveLimits, Solver};

    /// Alpha-beta with every leaf evaluated from scratch: what `eval_search` must return.
    fn reference_search(t: &Tree, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            return t.ev.evaluate(p, o);
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
        assert!(t.ev.weights.is_some(), "shipped weights load");
        t.ev.search_min_empties = 0;
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
                let above = t.ev.slots[n as usize + 1].clone();
                let side = t.ev.node_indices(p, o, n);
                if one_move_from(&above, p, o).is_some() {
                    derived += 1;
                } else {
                    scratch += 1;
                }
                let slot = t.ev.slots[n as usize].clone();
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
                    t.ev.sort_depth = 0;
                    assert_eq!(t.ev.child_eval(n, x, f, cp, co, cm), -t.ev.evaluate(cp, co));
                    t.ev.sort_depth = 2;
                    assert_eq!(
                        t.ev.child_eval(n, x, f, cp, co, cm),
                        -reference_search(&t, cp, co, 2, -6500, 6500)
                    );
                    let want = if cm != 0 {
                        t.ev.evaluate(cp, co)
                    } else if moves(co, cp) == 0 {
                        final_score(cp, co) * 100
                    } else {
                        -t.ev.evaluate(co, cp)
                    };
                    assert_eq!(t.hint_leaf(cp, co, &slot.ind, side, x, f), want);
                    checked += 1;
                }
                assert_eq!(t.ev.slots[n as usize].ind, slot.ind, "searches restore");
                // a random move; every third game stops early, so the next starts unrelated
                if game % 3 == 0 && n < 30 {
                    break;
                }
                let mut k = crate::search::test_xorshift(&mut rng) % mv.count_ones() as u64;
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
