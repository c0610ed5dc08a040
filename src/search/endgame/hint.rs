//! Preparation passes before the exact search: an iterative-deepening, depth-limited principal
//! variation search with a static evaluation at its leaves. It proves nothing; it leaves two
//! things behind for the exact search: a guess of the score (the centre of the first aspiration
//! window) and, in the table, a best move for the positions near the root (searched first there).
//! Good moves near the root are what the exact search can least afford to get wrong: every
//! wrong first move at a cut node near the root doubles a large subtree.

use super::bits::{flips, moves, potential_moves, weighted_mobility};
use super::table::NO_MOVE;
use super::tree::{Candidate, SHALLOW, Tree, final_score};

impl Tree<'_> {
    /// Static evaluation in centi-discs for the side to move: the trained patterns if present,
    /// else the engine's hand-written evaluation.
    #[inline]
    pub fn evaluate(&self, p: u64, o: u64) -> i32 {
        match self.eval {
            Some(w) => w.eval(p, o) * 100 / super::eval::SCALE,
            None => crate::search::othello::evaluate(p, o),
        }
    }

    /// Plain alpha-beta to `depth` plies with the static evaluation at the leaves (centi-discs),
    /// for move ordering.
    pub fn eval_search(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            return self.evaluate(p, o);
        }
        self.nodes += 1;
        let mv = moves(p, o);
        if mv == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o) * 100;
            }
            return -self.eval_search(o, p, depth, -beta, -alpha);
        }
        let mut best = -100_000;
        let mut alpha = alpha;
        let mut m = mv;
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(x, p, o);
            let v = -self.eval_search(o ^ f, p | f | (1 << x), depth - 1, -beta, -alpha);
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
        for depth in 1..=max_depth {
            let v = self.hint_search(p, o, -6500, 6500, depth, n, 0);
            if self.aborted {
                break;
            }
            score = v;
        }
        score
    }

    /// Depth-limited fail-soft PVS; stores each node's best move as a hint.
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
    ) -> i32 {
        if self.nodes >= self.next_check {
            self.check_limits();
        }
        if self.aborted {
            return 0;
        }
        self.nodes += 1;
        let mv = moves(p, o);
        if mv == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o) * 100;
            }
            return -self.hint_search(o, p, -beta, -alpha, depth, n, ply);
        }
        if depth == 0 {
            return self.evaluate(p, o);
        }
        let hash = self.table.probe(p, o).map_or(NO_MOVE, |e| e.best);
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
                let mob = weighted_mobility(cp, co) as i32;
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
            let v = if i == 0 {
                -self.hint_search(cp, co, -beta, -alpha, depth - 1, n - 1, ply + 1)
            } else {
                let v = -self.hint_search(cp, co, -alpha - 1, -alpha, depth - 1, n - 1, ply + 1);
                if v > alpha && v < beta {
                    -self.hint_search(cp, co, -beta, -alpha, depth - 1, n - 1, ply + 1)
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
        if n > SHALLOW {
            self.table.hint(p, o, n, best_move);
        }
        best
    }
}
