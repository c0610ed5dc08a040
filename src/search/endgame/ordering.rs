//! The evaluation the exact search orders moves with, and ProbCut: an [`Evaluator`] the search
//! tree owns. It keeps the pattern indices incrementally ([`eval::Indices`]) instead of
//! recomputing them from the discs: the exact search, whose nodes arrive as bare bitboards,
//! keeps one slot per number of empties ([`EvalSlot`]) and derives a node's indices from its
//! parent's slot (one move's placed and flipped squares), recomputing from scratch only when the
//! slot above does not hold the parent (the first node, or one reached some other way). Every
//! evaluation equals the from-scratch one exactly, so the search visits the same nodes either
//! way. It counts its own nodes ([`Evaluator::nodes`]); the tree adds them to its own.

use crate::game::othello::bitboard::{final_score, flips, moves};
use crate::search::othello::eval::{self, Indices, N_LANES, View, Weights};

/// The pattern indices of the last node with some number of empties that ordered its moves by
/// the evaluation: its discs, which view of `ind` is its side to move's, and the indices.
#[derive(Clone, Debug)]
pub struct EvalSlot {
    pub(super) p: u64,
    pub(super) o: u64,
    pub(super) side: usize,
    pub(super) ind: Indices,
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
pub(super) fn one_move_from(s: &EvalSlot, p: u64, o: u64) -> Option<(usize, u64, bool)> {
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

/// The evaluation state of one search tree.
pub struct Evaluator<'a> {
    /// The trained weights, or `None` for the linear evaluation.
    pub weights: Option<&'a Weights>,
    /// One slot per number of empties.
    pub slots: &'a mut EvalSlots,
    /// Selective search: prune by ProbCut with these settings (None: the exact search).
    pub probcut: Option<ProbCut>,
    /// From this many empties on, a child is ordered by an evaluation search of `sort_depth`
    /// plies instead of its static evaluation.
    pub search_min_empties: u32,
    pub sort_depth: u32,
    /// Evaluation-search nodes so far.
    pub nodes: u64,
}

impl Evaluator<'_> {
    /// Static evaluation in centi-discs for the side to move: the trained patterns if present,
    /// else the engine's hand-written evaluation.
    #[inline]
    pub fn evaluate(&self, p: u64, o: u64) -> i32 {
        match self.weights {
            Some(w) => w.eval(p, o) * 100 / eval::SCALE,
            None => crate::search::othello::linear::evaluate(p, o),
        }
    }

    /// [`Evaluator::evaluate`] with the side to move's pattern indices already known (`view`; read
    /// only with the trained patterns).
    #[inline]
    pub fn evaluate_view(&self, view: &View, p: u64, o: u64) -> i32 {
        self.evaluate_known(view, p, o, moves(p, o))
    }

    /// [`Evaluator::evaluate_view`] with the side to move's moves `mv` already known.
    #[inline(always)]
    pub fn evaluate_known(&self, view: &View, p: u64, o: u64, mv: u64) -> i32 {
        match self.weights {
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
        let (lower, upper) = self.slots.split_at_mut(n + 1);
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
        let depth = if n >= self.search_min_empties {
            self.sort_depth
        } else {
            0
        };
        let slot = &self.slots[n as usize];
        let side = slot.side;
        if depth == 0 {
            let mut view = [0u32; N_LANES];
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
        let mut view = [0u32; N_LANES];
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

    /// ProbCut: predict from a shallow evaluation search whether the exact score is at least
    /// `beta` or at most `alpha`, and if confidently so, give that bound without searching.
    #[inline]
    pub fn probcut_bound(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> Option<i32> {
        let pc = self.probcut?;
        if n < pc.min_empties || self.weights.is_none() {
            return None;
        }
        let d = pc.depth.min(4) as usize;
        let sigma = PROBCUT_SIGMA[d].0 + PROBCUT_SIGMA[d].1 * n as i32;
        let margin = pc.confidence * sigma / 100;
        let side = self.node_indices(p, o, n);
        let mut ind = self.slots[n as usize].ind.clone();
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
