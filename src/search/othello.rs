//! Othello for the generic search: move generation with move ordering and a static evaluation
//! in centi-discs, exact disc difference once the game is over.
//!
//! The evaluation is the trained pattern evaluation of [`eval`] (its
//! table indices kept move by move on the search board), and moves are ordered by the
//! evaluation of the position they lead to away from the leaves. The "Engine" issue's engine
//! stays available as a baseline: a board whose exact answers are switched off
//! ([`Board::disable_exact_answers`], what `selfplay --b-baseline` and the plain-search tests
//! do) evaluates with the linear evaluation [`linear`] (mobility, potential mobility,
//! corners, X- and C-squares, stable edge discs, parity; fitted weights) and orders moves the
//! old way (square values, fastest first), and the search does not call the endgame solver.
//!
//! Midgame nodes are pruned by Multi-ProbCut ([`probcut`], through [`Board::probcut`]): a
//! shallow search predicts the deep one with a fitted regression, and a node whose prediction
//! clears the window by the search's confidence is cut. Never for a node searched to the end.
//! Trying the shallow searches only where the static evaluation is within a disc of their
//! bound was measured and not kept: 19% less time for `nboard` at depth 14 (39.8M nodes for
//! 61.2M on 60 positions of our XOT games), but 48.3% against NTest at depth 12 on the four
//! 80-game sets (50.2% before) and 46.9% (33-38-9) in 80 games against itself at 64 ms a move.
//!
//! Measured and not kept, on `nboard --probcut 100,5` at depth 14 over 60 positions of our
//! games against NTest (44, 38 and 32 empties; 23.26M nodes, 3.44 s): enhanced transposition
//! cutoffs (each child's table bound looked up before the moves are searched) from 5 plies
//! left, 22.78M nodes but 3.72 s; from 8 plies, 22.68M nodes, 3.48 s. Ordering by the
//! evaluation from 4 plies left ([`ORDER_EVAL_DEPTH`]) 23.03M nodes, from 3 23.29M.
//!
//! The table at one ply left (session 48): the probe is the search's largest single cost (23% of
//! `nboard --probcut 100,5` at depth 16 in a profile), but nodes one ply from the horizon that
//! neither probe nor store (the last ply searched without a table move) save only part of it: on
//! 60 self-play positions at 44, 38 and 32 empties, depth 16 in 5.91-6.13 s against 6.56-6.61 s
//! (60.7-61.9M nodes against 50.2M), depth 14 in 2.01 s against 2.05-2.12 s. A few percent of
//! speed is below what the games at equal time can show (see [`FASTEST_FIRST_DEPTH`]), and the
//! panels would lose the last ply's probes. Not kept.
//!
//! Late move reductions ([`Board::late_move_reduction`]; the board keeps the default, none) were
//! measured and not kept: a ply less for the fourth move on at nodes with four or more plies left
//! (never a node searched to the end) halves the tree at depth 14 on those 60 positions (12.87M
//! nodes for 23.26M), but against NTest at depth 16 with `--move-ms 64` (uncapped, the six
//! 40-game XOT sets of `BUDGET_SHARES` in `protocol::nboard`) it scored 27.9% (31.2 / 26.2 /
//! 31.2 / 27.5 / 21.3 / 30.0%) where the same build without them, side by side, scored 33.5%
//! (28.7 / 27.5 / 35.0 / 42.5 / 30.0 / 37.5%): the depth it buys is worth less than the moves it
//! misreads.
//!
//! Two changes at the root, measured at equal time as above (six sets, side by side) and not
//! kept. On one position of 30 empties (`--move-ms 64`) the search kept a corner move through
//! depth 16 that an exact solve puts 4.4 discs below the best, which it found once the root's
//! moves (ply 1) were not cut by Multi-ProbCut; on another, a later root move that failed high
//! on the null window of an iteration the clock then cut short was played, 5.9 discs below the
//! move the finished iterations chose. In games: no Multi-ProbCut at the root's moves 35.8%
//! (73-141-26) against the shipped search's 34.6% (67-141-32) beside it, and on a second run
//! 31.5% (64-153-23) against 34.6% (65-139-36), so 33.6% of 480 against 34.6%; a root move taken
//! mid-iteration only once its score is inside the window (not on a fail-high) 33.3%, and with
//! both 33.8% (run side by side). All within the noise (one standard error of a 240-game score
//! is about 3 points). At a fixed depth too (session 61; both at depth 12, the twelve 40-game
//! sets of seeds 193-257 where the shipped search scores 46.4%, 190-225-65, at 2.58 times
//! NTest's think time): no Multi-ProbCut at the root's moves 45.8% (187-227-66) at 2.64 times.
//! A 256 MiB table instead of `nboard`'s 64 plays those 480 games move for move as the 64 MiB
//! one does: at depth 12 the table's size changes nothing.
//!
//! Where moves are lost against NTest, move by move (a throwaway harness, not in the tree): 290
//! positions of our equal-time games against NTest, about 50 at each of 46, 42, 38, 34 and 30
//! empties and 40 at 26. Each engine's chosen move is scored by the discs it loses against the
//! best move: by NTest's own depth-18 values of every move (`hint`) above 26 empties, a judge
//! that favours NTest's choices, and by exact solves at 26. Each engine kept its table from one
//! position to the next. Mean discs lost a move, by empties, and the mean time a move:
//!
//! | engine | 46 | 42 | 38 | 34 | 30 | 26 (exact) | all | ms a move |
//! |---|---|---|---|---|---|---|---|---|
//! | NTest depth 10 | 0.19 | 0.25 | 0.36 | 0.41 | 0.64 | 0.90 | 0.44 | 12 |
//! | xorboard depth 10 | 0.40 | 0.28 | 0.57 | 0.54 | 0.44 | 0.75 | 0.49 | 28 |
//! | NTest depth 12 | 0.09 | 0.21 | 0.37 | 0.32 | 0.47 | 0.70 | 0.35 | 15 |
//! | xorboard depth 12 | 0.30 | 0.21 | 0.51 | 0.64 | 0.35 | 1.10 | 0.50 | 50 |
//! | NTest depth 14 | 0.06 | 0.09 | 0.22 | 0.21 | 0.22 | 0.75 | 0.24 | 86 |
//! | xorboard depth 14 | 0.15 | 0.31 | 0.29 | 0.37 | 0.23 | 0.55 | 0.31 | 424 |
//! | NTest depth 16 | 0.06 | 0.10 | 0.14 | 0.23 | 0.22 | 0.15 | 0.15 | 116 |
//! | xorboard `--move-ms 64` | 0.22 | 0.27 | 0.42 | 0.46 | 0.70 | 0.65 | 0.44 | 93 |
//! | xorboard `--move-ms 128` | 0.23 | 0.28 | 0.28 | 0.25 | 0.47 | 0.55 | 0.34 | 179 |
//!
//! Our depth 14 chooses about as well as NTest's depth 12, in 28 times its time, and at one and
//! a half times NTest's time a move (179 ms against 116) we still lose twice its discs. At 46
//! and 42 empties more time does not help us (0.22-0.28 at 64 and at 128 ms); from 38 empties
//! on it does. Time to each depth with `--probcut 100,5` (ten positions each, both engines warm
//! from two searches before): at 38 empties depth 12 after 25 ms for xorboard against 18 for
//! NTest, depth 16 after 222 against 126; at 30 empties depth 12 after 13 against 16, depth 16
//! after 83 against 88. There our search deepens as fast as NTest's, and `--move-ms 64` reaches
//! depth 15 to 18 in its 87 ms a move, yet its moves lose 0.70 discs against NTest's 0.22 at
//! depth 16: what separates the two at 30 empties is what a search of a given depth sees (the
//! evaluation at its leaves and the cuts its Multi-ProbCut errors allow), not how deep it gets.
//! None of the confidences measured in games changes that (see
//! [`ProbCutConfidence`]).
//!
//! Nor does time alone (session 46): NTest at depth 16 against `nboard --move-ms 128` (uncapped)
//! on four 40-game XOT sets, the shipped order and `--shuffle --seed 7`, `11`, `13`, scored 40.6%
//! for xorboard (53-83-24; 38.8 / 52.5 / 36.3 / 35.0%), thinking 1.75 times NTest's time (458 s
//! against 261 s), where `--move-ms 64` scores about 34% at NTest's time: a search nearly twice
//! as fast would gain some six of the sixteen points missing; the rest is what a search of a
//! given depth sees.
//!
//! Again on a faster machine (session 79; NTest at depth 16 thinks 61-64 ms a move there;
//! two matches side by side, XOT sets `--shuffle --seed 2001` to `2012`):
//! `--move-ms 68` (uncapped) scored 41.9% (169-247-64) at 0.98 times NTest's think time, and
//! `--move-ms 136` on the first six of those sets 46.5% (89-106-45) at 1.69 times, where `68`
//! scored 44.8% on them: here too, time alone buys little.
//!
//! Session 86 (NTest at depth 16 thinks 56-57 ms a move on this machine; XOT sets `--shuffle
//! --seed 3001` to `3006`, two matches side by side, the build of 5e26c91): `--move-ms 56`
//! (uncapped) scored 37.7% (69-128-43) at 0.90 times NTest's think time, `--move-ms 68` 36.9%
//! (75-138-27) at 1.10 times.
//!
//! Session 93 (a new machine; NTest built again from its public source, b2dd603, its JA
//! weights; XOT sets `--shuffle --seed 3001` to `3004`, each beside a Gomoku match; the build of
//! 11cecc1): NTest at depth 16 thought 67-83 ms a move. `--move-ms 83` (uncapped) 38.8% and
//! 41.3%, `--move-ms 75` 37.5% and 31.3%: 37.2% (46-87-27) at 1.05 times NTest's think time (300
//! s against 287). Both at depth 12: 47.5% (62-70-28) at 2.32 times (144 s against 62).
//!
//! Session 94 (the machine of session 93; NTest at depth 16 thought 56-58 ms a move; XOT sets
//! `--shuffle --seed 4001` to `4012`, 480 games a line, two matches side by side, the build of
//! a4fdc17), the score against the think time as a multiple of NTest's:
//!
//! | `--move-ms` (uncapped) | score | think time |
//! |---|---|---|
//! | 58 | 36.7% (141-269-70) | 0.95 |
//! | 75 | 42.1% (171-247-62) | 1.17 |
//! | 100 | 42.3% (166-240-74) | 1.51 |
//! | 130 | 43.3% (163-227-90) | 1.90 |
//!
//! More time buys about five points up to 1.2 times NTest's and little after it. Both at depth 12:
//! 49.8% (207-209-64) at 2.41 times. Measured and not kept, each a throwaway switch beside the
//! shipped search at `--move-ms 75` on the same sets: leaves kept at 18 empties or more on the
//! clock (the depth capped at the empties less 18 above 26 empties, so 12 plies at 30 empties; the
//! time it leaves is banked) scored 30.8% (47-124-29) on the first five sets, where the shipped
//! search scored 42.0%, at 0.91 times NTest's think time: the depth the clock buys from 34 to 27
//! empties is worth much, whatever the endgame bands' errors at its leaves (see the move-loss table
//! above, where single positions said otherwise). Pruning more there to go deeper does not pay:
//! Multi-ProbCut at `60,5` on nodes with at most 32 empties 39.5% (148-249-83) at 1.19 times.
//!
//! Measured and not kept (session 79, a throwaway switch in the iterative deepening): from depth
//! 6 on, only every other iteration (6, 8, 10 …, so every iteration's leaves have the same
//! parity of empties as the last one's). On one position of 52 empties at a fixed depth 20 it
//! searched 2.10M nodes in 0.43 s against 3.77M in 0.76 s, the same move and score; both at depth
//! 12 against NTest on the twelve sets above, 50.9% (219-210-51) at 1.84 times NTest's think
//! time where the shipped search scored 51.9% (221-203-56) at 2.14 times (set by set -0.9, one
//! standard error 1.2); at equal time (`--move-ms 68`, eleven of the sets) 37.2% (133-246-61)
//! where the shipped search scored 42.0% on them (-4.9, 3.0): on the clock the iteration that
//! does not finish is a deeper, costlier one, and more of the move's time goes to it unused.
//! Nor extending a node with a single reply only when that reply is a pass (a forced move that
//! is extended leaves its leaves one empty further, the other parity): both at depth 12 on 24
//! sets (seeds 2001-2024) 50.1% (423-421-116) at 2.16 times NTest's think time, set by set +0.1
//! (one standard error 0.2) on twelve; it hardly ever applies.
//!
//! Nor the evaluation's agreement with NTest's own search (session 48): the midgame bands fitted
//! to NTest's depth-12 scores of 192,000 positions agree with them a third better at 35 to 50
//! empties, yet scored 29.2% and 32.9% (two fits; 29.4% with a Multi-ProbCut table refitted to
//! the first) at equal time where the shipped bands scored 32.1% beside them, and 45.8% at equal
//! depth 12 against the shipped bands' 47.8% (see `src/bin/train-endgame-eval.rs`).
//!
//! Nor the search's speed to a depth (session 57, a copy of NTest built outside the tree to
//! print its node counts): on the 60 positions above, NTest reaches depth 12 in 0.69 s and 14 in
//! 2.06 s, this search with `--probcut 100,5` (the equal-time confidence) in 0.50 and 1.30 s; at
//! `250,5` (the fixed-depth one) depth 12 takes 2.77 s, at `400,5` 6.89 s, without Multi-ProbCut
//! 69.8 s. At equal time this search is the deeper one, and at a fixed depth pruning less does not
//! close the gap (see [`FIXED_DEPTH_PROBCUT`](crate::protocol::nboard::FIXED_DEPTH_PROBCUT)).
//! Where the games are decided (see also
//! [`BUDGET_SHARES`](crate::protocol::nboard::BUDGET_SHARES)): one 40-game set at equal time
//! (`--shuffle --seed 7`, 9-28-3), every game solved exactly at 26 and 24 empties and 15 of them
//! at 28: 24 of the 28 losses were lost at 26 empties already (the other four at 24, not solved
//! at 26), every loss among the 15 at 28; from 26 empties on the result changed twice, a win we
//! drew and a draw NTest lost.
//!
//! The seam for an exact endgame solver is [`Board::exact_hook`]; it is the only place an Othello
//! solver needs to plug into (it gets raw bitboards from [`Othello::player_opponent`]).

pub mod eval;
pub mod linear;
pub mod probcut;

pub use linear::{
    BUCKET_EMPTIES, BUCKETS, DISC, FEATURE_NAMES, FEATURES, WEIGHTS, bucket, evaluate, features,
};

use super::{Board, ExactNode, Gen, HookAnswer, ProbCut, ProbCutConfidence, Scored};
use crate::game::othello::{Othello, flips, hash_after_move, moves};
use crate::game::symmetry::SymmetryTracker;
use crate::game::{Cell, Game, Move};
use crate::search::endgame::{SolveLimits, Solver, SolverTable};
use crate::tt::Table;
use crate::zobrist::Keys;
use eval::{Indices, SCALE, Weights};
use linear::{CORNERS, final_centi};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Static square values for move ordering (a1 = index 0, row-major).
#[rustfmt::skip]
const SQUARE: [i32; 64] = [
    100, -30, 10,  5,  5, 10, -30, 100,
    -30, -50, -2, -2, -2, -2, -50, -30,
     10,  -2,  1,  1,  1,  1,  -2,  10,
      5,  -2,  1,  0,  0,  1,  -2,   5,
      5,  -2,  1,  0,  0,  1,  -2,   5,
     10,  -2,  1,  1,  1,  1,  -2,  10,
    -30, -50, -2, -2, -2, -2, -50, -30,
    100, -30, 10,  5,  5, 10, -30, 100,
];

/// 1/64 disc (the pattern weights' unit) to centi-discs, within ±63 discs.
#[inline]
fn to_centi(e: i32) -> i32 {
    (e * DISC / SCALE).clamp(-63 * DISC, 63 * DISC)
}

/// The pattern evaluation of `(p, o)` for the player `p` to move in centi-discs, computed from
/// scratch (the search board keeps its indices instead); the exact result when the game is
/// over; the linear [`evaluate`] if the weight file did not load.
pub fn pattern_evaluate(p: u64, o: u64) -> i32 {
    if moves(p, o) | moves(o, p) == 0 {
        return final_centi(p, o);
    }
    match Weights::builtin() {
        Some(w) => to_centi(w.eval(p, o)),
        None => evaluate(p, o),
    }
}

/// The pattern evaluation in centi-discs, for the opponent to move, of the position after
/// `side` (to move in `(p, o)`, its indices in `ind`) plays `sq`, with `empties` left after it;
/// the exact result when the game is over there; `f` is the move's flips. The opponent's view of
/// the indices is derived into `view` without playing the move ([`Indices::view_after`]): move
/// ordering and the last ply both score children this way.
#[allow(clippy::too_many_arguments)]
#[inline]
fn child_evaluation(
    w: &Weights,
    ind: &Indices,
    side: usize,
    p: u64,
    o: u64,
    sq: usize,
    f: u64,
    empties: u32,
    view: &mut eval::View,
) -> i32 {
    let (np, no) = (p | f | (1 << sq), o ^ f);
    let (opponent_moves, own_moves) = (moves(no, np), moves(np, no));
    if opponent_moves | own_moves == 0 {
        return final_centi(no, np);
    }
    ind.view_after(side, sq, f, side ^ 1, view);
    let mobility = (
        opponent_moves.count_ones() as i32,
        own_moves.count_ones() as i32,
    );
    to_centi(w.eval_view(view, empties, mobility))
}

/// From this remaining depth on, moves are ordered by the pattern evaluation of their result
/// (below it by square values and fastest first, [`FASTEST_FIRST_DEPTH`]). Measured on the bench
/// positions at depth 11 (1M-entry table), nodes: evaluation ordering from depth 3, 22.56M; from
/// depth 5, 22.29M; square values and fastest first everywhere, 22.47M — small differences, but
/// the evaluation near the leaves costs time. Ordering by 2-ply searches of the children from
/// depth 9 on (22.17M) was dropped with Multi-ProbCut, whose shallow searches leave a table move
/// at those nodes: bench depth 14 (two-tier, 1M entries) 2,152,425 nodes in 0.84–0.96 s with
/// them, 2,224,904 in 0.69–0.76 s without. Adding fastest first to the evaluation's order
/// (session 94, a throwaway switch; 60 positions of our games against NTest at 44, 38 and 32
/// empties, `nboard --probcut 100,5` at depth 14, the table kept from one to the next): 9.51M
/// nodes without; less 1 or 2 discs a reply left to the opponent 9.44M and 9.42M, less 4 discs
/// 9.88M, less 2 discs a reply and 2 more a corner reply 9.43M. Under 1%: not kept.
pub const ORDER_EVAL_DEPTH: i32 = 5;

/// From this remaining depth on (and below [`ORDER_EVAL_DEPTH`]), the pattern board orders moves
/// by square values and fastest first (fewest replies for the opponent); below it by square values
/// alone. At two plies left the square values alone make the first move the cut only 53% of the
/// time at cut nodes (68-78% at three to eight plies): `nboard --probcut 100,5` on 60 positions
/// of our games against NTest (44, 38 and 32 empties), nodes and summed think time, three runs
/// each, from 3 (before) and from 2: depth 14 17.04M nodes in 2.40-2.52 s, 16.27M in 2.36-2.39 s
/// (first-move cuts at two plies left 57%); depth 12 at `200,5` 22.27M in 3.24-3.31 s, 21.29M in
/// 3.11-3.18 s; depth 16 97.31M nodes in 14.05 s, 85.37M in 12.64 s. The evaluation of the
/// children at two plies left cuts first 63% of the time but costs more than it saves (15.38M
/// nodes, 2.56 s). The fastest-first weights hardly matter there: 20, 80 and 200 a reply, and 0
/// or 400 a corner reply, 16.07M-16.85M nodes. Where Multi-ProbCut is off (the bench, depth 10)
/// it costs a little: 4,394,281 bench nodes before, 4,455,560 after. At equal time against NTest
/// (depth 16 against `nboard --move-ms 64`, the six 40-game XOT sets of
/// [`BUDGET_SHARES`](crate::protocol::nboard::BUDGET_SHARES)) 34.4% (66-141-33), thinking 360 s
/// against 375 s, where the build before scored 34.2% (69-145-26): a few percent of speed is
/// below what 240 games can show. The baseline board keeps [`BASELINE_FASTEST_FIRST_DEPTH`].
pub const FASTEST_FIRST_DEPTH: i32 = 2;
/// [`FASTEST_FIRST_DEPTH`] of the baseline board (the "Engine" issue's ordering, unchanged).
pub const BASELINE_FASTEST_FIRST_DEPTH: i32 = 3;

/// Negamax alpha-beta of `depth` plies with the pattern evaluation at the leaves (1/64 disc) on
/// `(p, o)`, `side` to move, its indices kept in `ind`. With `order_from` plies or more left, the
/// moves are tried best child evaluation first (the trainer's labelling searches); below that in
/// square order (short searches, where sorting would cost more than it saves). The window
/// only bounds the work: with a full window the result is the same in either order.
#[allow(clippy::too_many_arguments)]
pub fn pattern_search(
    w: &Weights,
    ind: &mut Indices,
    side: usize,
    p: u64,
    o: u64,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    order_from: u32,
) -> i32 {
    let mp = moves(p, o);
    if mp == 0 {
        if moves(o, p) == 0 {
            return final_centi(p, o) / DISC * SCALE;
        }
        return -pattern_search(w, ind, side ^ 1, o, p, depth, -beta, -alpha, order_from);
    }
    if depth == 0 {
        let mobility = (mp.count_ones() as i32, moves(o, p).count_ones() as i32);
        return w.eval_indices(ind, side, (p | o).count_zeros(), mobility);
    }
    let mut best = -i32::MAX;
    // Search one child; true when it cuts the node off.
    let mut child = |ind: &mut Indices, sq: usize, f: u64| {
        ind.play(side, sq, f);
        let v = -pattern_search(
            w,
            ind,
            side ^ 1,
            o ^ f,
            p | f | (1 << sq),
            depth - 1,
            -beta,
            -alpha,
            order_from,
        );
        ind.undo(side, sq, f);
        if v > best {
            best = v;
            alpha = alpha.max(v);
        }
        alpha >= beta
    };
    if depth >= order_from {
        let mut list = [(0i32, 0u8, 0u64); 64];
        let mut n = 0;
        let mut m = mp;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(sq, p, o);
            let (np, no) = (p | f | (1 << sq), o ^ f);
            ind.play(side, sq, f);
            let mobility = (
                moves(no, np).count_ones() as i32,
                moves(np, no).count_ones() as i32,
            );
            let key = w.eval_indices(ind, side ^ 1, (np | no).count_zeros(), mobility);
            ind.undo(side, sq, f);
            list[n] = (key, sq as u8, f);
            n += 1;
        }
        list[..n].sort_unstable_by_key(|e| e.0);
        for &(_, sq, f) in &list[..n] {
            if child(ind, sq as usize, f) {
                break;
            }
        }
    } else {
        let mut m = mp;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            if child(ind, sq, flips(sq, p, o)) {
                break;
            }
        }
    }
    best
}

/// Nodes with at most this many empties, searched to the end anyway, go to the exact solver.
pub const SOLVER_EMPTIES: u32 = 16;
/// Hand-over to the solver at the root's moves (ply 1): a move to a position with at most
/// `HANDOVER_EMPTIES` empties is solved exactly once the search reaches within `HANDOVER_GAP`
/// plies of the end (a depth-8 search from 24 empties solves each move). Before this, a
/// depth-8 NTest match lost 6 discs a game between 18 empties and the solver's 12. Measured
/// against NTest depth 8 (30 XOT games, our depth 8): without the hand-over 5-24-1, -8.8 discs
/// a game; with it 10-20-0, -2.4 (73 s of thinking); from 22 empties within 14 plies 10-17-3,
/// -0.5 but 212 s of thinking, so 20 / 12 it was. With the refitted endgame weights and the
/// faster solver (40 XOT games, both at depth 8): 20 / 12 12-25-3, -0.5 discs a game, 20 s of
/// thinking; 22 / 14 14-21-5, -0.15, 40 s; 24 / 16 19-18-3, +1.55, 151 s (3.8 s a game, at
/// most 11 s). The solves stop at the search's deadline, so a timed search still ends on time.
/// With Multi-ProbCut the midgame became some 30 times cheaper and the solves dominated (gap 16
/// at depth 12: 2.9 s a move from 20 to 23 empties, 4 games), so the gap became 8: at depth 12
/// the root's moves were solved from 20 empties (NTest solves from 20 there too). Against NTest,
/// both at depth 12, 40 XOT games: gap 8 52.5%, 18.7 s of thinking against NTest's 15.3 s;
/// gap 10 53.75%, 41.7 s against 18.5 s. Now 9 (solved from 21 empties at depth 12): against
/// NTest, both at depth 12, on the four 80-game XOT sets (the shipped order and `--shuffle
/// --seed 7`, `11`, `13`; deterministic), with the think time as a multiple of NTest's:
/// - gap 8: 45.8% (126-153-41; 46.2 / 50.6 / 43.8 / 42.5), 2.6 times;
/// - gap 9: 47.2% (130-148-42; 48.1 / 50.6 / 46.9 / 43.1), 2.6 times (run beside another
///   match, as was the gap-8 figure);
/// - gap 10: 48.3% (135-146-39), 3.5 times; gap 12 (from 24 empties): 50.6% (144-140-36),
///   9.2 times; gap 10 with the fixed-depth Multi-ProbCut confidence lowered to `175,5` to pay
///   for it: 43.6%, 3.0 times.
///
/// Exact results from a few more empties are worth points, but NTest spends about 11 ms a move
/// at depth 12, and an exact solve of 22 to 24 empties costs far more than three times that.
/// Solving for the result alone is cheaper: `nboard` does that from two plies further out (see
/// [`WLD_GAP`]).
pub const HANDOVER_EMPTIES: u32 = 24;
/// See [`HANDOVER_EMPTIES`].
pub const HANDOVER_GAP: i32 = 9;
/// Probable solves at the root's moves: a move to a position with at most `SELECTIVE_EMPTIES`
/// empties that is not yet solved exactly (see [`HANDOVER_GAP`]) is answered by the solver's
/// selective search (ProbCut, [`Solver::solve_window_selective`]) once the search reaches within
/// `SELECTIVE_GAP` plies of the end: at the first selective pass's confidence, the second's two
/// plies later. Their scores are stored at the node's depth, never as exact. NTest does the
/// same (its "probable solves" at 21 and 22 empties at depth 12).
///
/// Against NTest, both at depth 12, two sets of 80 XOT games: at `--probcut 150,5` 43.4%
/// (58-79-23) without them, 98 s of thinking against NTest's 58 s, and 45.3% (62-77-21) with
/// them, 88 s against 54 s; at `100,5` 35.3% (50-97-13) without, 38.4% (55-92-13) with. From 24
/// and 26 empties instead of 22 they scored no better and thought up to twice as long. Timed
/// (`--move-ms 90` against NTest at depth 16, 80 games, run side by side): 35.6% (25-48-7) with
/// them, 34.4% (22-47-11) without.
pub const SELECTIVE_EMPTIES: u32 = 22;
/// See [`SELECTIVE_EMPTIES`].
pub const SELECTIVE_GAP: i32 = 12;
/// Win/loss/draw solves at the root's moves
/// ([`SearchOptions::win_loss_draw`](crate::search::SearchOptions), on in `nboard`): a move to a
/// position with more than [`SOLVER_EMPTIES`] and at most [`HANDOVER_EMPTIES`]
/// empties is solved for its result alone — a proven win scores [`WLD_WIN`], a loss its
/// negation, a draw 0 — once the search reaches within `WLD_GAP` plies of the end: from 23
/// empties at depth 12, where the exact solve starts at 21 ([`HANDOVER_GAP`]). Only the result
/// counts in a match, and a solve with a null window at 0 is far cheaper than the exact score
/// (which needs a window around it for the first move, and every other move's null window at
/// that score): once one move is proven to win, the others are not solved at all. NTest does
/// the same at depth 12: win/loss/draw from 20 empties, probable ones at 21 and 22.
///
/// Against NTest, both at depth 12, on the four 80-game XOT sets (see [`HANDOVER_EMPTIES`]),
/// with the think time as a multiple of NTest's (two matches side by side):
/// - exact solves (before): gap 9 47.2%, 2.6 times; gap 10 48.3%, 3.5 times; gap 12 50.6%, 9.2;
/// - win/loss/draw: gap 9 47.5%, 2.56 times; gap 10 48.3%, 2.67; gap 11 50.2% (142-141-37;
///   50.0 / 55.6 / 50.0 / 45.0), 3.32 times, and 3.22 when a result is kept for the later
///   iterations (stored as exact); gap 12 50.2%, 5.16 times;
/// - gap 11 with its outermost ply probable ([`WLD_PROBABLE_PASS`]; the landed one): 50.0%
///   (142-142-36; 48.8 / 56.2 / 50.0 / 45.0), 2.80 times, and 2.74 run alone; gap 12 with its
///   two outer plies probable 50.2%, 3.12 times, at 1.0 standard deviation 48.6%, 2.67 times.
///   The midgame Multi-ProbCut confidence moved to `215,5` scored 47.3% (3.28 times), to
///   `185,5` 48.0% (2.56 times): the margin over 50% is nil.
///
/// The folded evaluation ([`eval`]) and the last ply's lazy order search the same nodes faster:
/// on the shipped-order 80-game set the games are move for move the same (44.4% against the
/// NTest build of a later session, whose own figures differ from the ones above), and our
/// think time went from 70.7 s to 62.6 s against NTest's 22.6 s (3.11 to 2.79 times, beside
/// another match).
pub const WLD_GAP: i32 = 11;
/// The solver's selective pass (see [`SELECTIVE_EMPTIES`]) that answers the outermost ply of
/// [`WLD_GAP`]: its most confident one (ProbCut at 1.5 standard deviations).
pub const WLD_PROBABLE_PASS: usize = 2;
/// Probable result solves before the win/loss/draw ones, for a search on the clock
/// ([`SearchOptions::early_result_plies`](crate::search::SearchOptions), set by `nboard
/// --move-ms`): the root's moves get the solver's result at 1.0 standard deviations one ply
/// before the outermost [`WLD_GAP`] ply, and at 0.5 two plies before. A fixed-depth search pays
/// for every iteration it starts, a timed one keeps the last it finished, so there the early,
/// cheaper answers are worth trying: at 64 ms a move an exact or result solve of a 23-empty
/// move does not finish, and the move was chosen by the midgame search.
///
/// Measured against NTest at depth 16 (`--move-ms 64`) in 80 games from 40 positions of 26
/// empties (each played with both colours, so perfect play scores 50%), our think time against
/// NTest's: before 43.1% (28-39-13), 34 s against 67 s; with searched table entries no longer
/// standing in for the solves ([`Board::exact_hook_due`]) 46.3%, 32 s against 69 s; with one
/// early ply 45.0% (31-39-10), 33 s against 86 s; two 49.4% (33-34-13), 33 s against 76 s;
/// three 49.4%, 29 s against 54 s.
///
/// Whole games (session 53; NTest at depth 16 against `--move-ms 64` uncapped, the six 40-game
/// XOT sets of [`BUDGET_SHARES`](crate::protocol::nboard::BUDGET_SHARES), two matches side by
/// side): none, 33.1% (62-143-35), where the shipped two scored 32.5% (62-146-32), each
/// thinking 354-357 s against NTest's 358-363 s. The same; kept at two for the positions above.
/// At a fixed depth (`set depth 12` for both, twelve fresh 40-game XOT sets, seeds 47 to 101),
/// where `nboard` uses none: one 43.4% (180-243-57) at 2.56 times NTest's think time, two 42.5%
/// (175-247-58) at 2.58, none 43.1% (178-244-58) at 2.59. Not kept.
pub const EARLY_RESULT_PLIES: u8 = 2;
/// Probable result solves before the win/loss/draw ones at a fixed depth (`nboard` without
/// `--move-ms`, where [`SearchOptions::early_result_plies`](crate::search::SearchOptions) is
/// 0): the ply before the outermost [`WLD_GAP`] ply gets the solver's result at the same
/// confidence ([`WLD_PROBABLE_PASS`]): from 24 empties at depth 12, the proven solves still
/// from 22.
///
/// Against NTest (built this session from its public source), both at depth 12, on 24 fresh
/// 40-game XOT sets (seeds 2001 to 2024, two matches side by side), with the think time as a
/// multiple of NTest's:
/// - none (before): 48.2% (405-440-115), 2.18 times;
/// - this one: 49.7% (419-424-117), 2.31 times; set by set 1.6 points above (one standard
///   error 0.4);
/// - the ply proven instead ([`WLD_GAP`] 12, its outermost ply probable): 50.0% (421-421-118),
///   3.02 times, 1.8 points above none (0.4); this one 0.4 below it on the first 13 sets (0.2);
/// - gap 12 with its outermost ply at 1.0 standard deviation: 52.0% on the first 12 sets,
///   where gap 12 scored 52.2%, 2.49 times (stopped).
///
/// The cheaper passes of [`EARLY_RESULT_PLIES`] at a fixed depth scored nothing (above, and
/// one ply at 1.0 standard deviation 0.7 points below none on seven sets of an earlier
/// session): here the ply before the gap is worth its solve only when it is sure.
pub const FIXED_DEPTH_EARLY_RESULT_PLIES: i32 = 1;
/// The score of a root move proven to win by a win/loss/draw solve (see [`WLD_GAP`]): more than
/// any disc count, so a proven win ranks above every estimate and exact score (and a proven
/// loss, `-WLD_WIN`, below them). `nboard` reports it as 65.00.
pub const WLD_WIN: i32 = 65 * DISC;
/// The share of a timed search's budget that must be left for iterative deepening to start
/// another iteration (see [`Board::next_iteration`]).
pub const NEXT_ITERATION_TIME_LEFT: f64 = 0.3;
/// The solver's own table (MiB), made on first use when the search's table reserves none for
/// it (tables made by entry count: the bench).
const SOLVER_MIB: usize = 4;

/// The search's Othello board: two bitboards, the hash, an undo stack, and the exact endgame
/// solver that answers nodes near the end.
pub struct OthelloBoard {
    /// Discs of the side to move, and of the opponent.
    p: u64,
    o: u64,
    /// 0 black to move, 1 white.
    side: usize,
    hash: u64,
    keys: &'static Keys,
    stack: Vec<(u64, u64, u64)>,
    /// The eight symmetric hashes, when symmetry keys are on.
    sym: Option<Box<SymmetryTracker>>,
    solver: Option<Box<Solver>>,
    /// The search's table, whose reserved memory holds the solver's table shared by every
    /// thread (see [`Board::use_table`]); without one, the solver has a table of its own.
    /// `generate` and `play` also prefetch children's buckets in it ([`Self::prefetch_child`]).
    table: Option<Arc<Table>>,
    /// The pattern evaluation and its indices, kept move by move; `None` on a baseline board
    /// (linear evaluation).
    pattern: Option<(&'static Weights, Box<Indices>)>,
    /// Solve the root's moves near the end for win, draw or loss (see [`WLD_GAP`]).
    win_loss_draw: bool,
    /// See [`SearchOptions::early_result_plies`](crate::search::SearchOptions).
    early_result_plies: i32,
    /// Where the nodes that try Multi-ProbCut are sampled, when fitting its table.
    probcut_sampler: Option<Arc<probcut::NodeSampler>>,
}

impl std::fmt::Debug for OthelloBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OthelloBoard")
            .field("p", &self.p)
            .field("o", &self.o)
            .field("side", &self.side)
            .field("hash", &self.hash)
            .finish()
    }
}

impl OthelloBoard {
    pub fn new(game: &Othello) -> OthelloBoard {
        let (p, o) = game.player_opponent();
        OthelloBoard {
            p,
            o,
            side: game.side_to_move().index(),
            hash: game.hash(),
            keys: game.keys(),
            stack: Vec::with_capacity(128),
            sym: None,
            solver: None,
            table: None,
            pattern: Weights::builtin().map(|w| {
                let (black, white) = if game.side_to_move().index() == 0 {
                    (p, o)
                } else {
                    (o, p)
                };
                (w, Box::new(Indices::new(black, white)))
            }),
            win_loss_draw: false,
            early_result_plies: 0,
            probcut_sampler: None,
        }
    }

    /// Offer every node that tries Multi-ProbCut to `sampler` (`fit-probcut --tree-depth`).
    pub fn sample_probcut_nodes(&mut self, sampler: Arc<probcut::NodeSampler>) {
        self.probcut_sampler = Some(sampler);
    }

    /// Evaluate with `w` instead of the built-in weights (the exact solver still orders its
    /// moves with the built-in ones): to compare weight files in `selfplay --b-weights` and in
    /// the trainer's `--swing` report.
    pub fn set_weights(&mut self, w: &'static Weights) {
        let (black, white) = if self.side == 0 {
            (self.p, self.o)
        } else {
            (self.o, self.p)
        };
        self.pattern = Some((w, Box::new(Indices::new(black, white))));
    }

    /// Whether this board evaluates with the pattern evaluation (else the linear baseline).
    pub fn uses_patterns(&self) -> bool {
        self.pattern.is_some()
    }

    /// The hash after the side to move plays `sq`, flipping `f`.
    #[inline]
    fn child_hash(&self, sq: usize, f: u64) -> u64 {
        hash_after_move(self.keys, self.hash, self.side, sq, f)
    }

    /// Start loading the table bucket of the child after `sq` (flipping `f`), so that the
    /// child's probe finds it in the cache: `generate` does it for every move it scores, long
    /// before the moves are searched. Nothing a probe sees changes. Not with symmetry keys (the
    /// table key is then not the hash).
    ///
    /// A probe's first load was the search's costliest instruction (a cache miss, 16% of
    /// `nboard`'s time at depth 12 under `perf`; the table is on huge pages, so not the TLB).
    /// Replaying the 1,036 moves of 40 depth-12 games against NTest (`set depth 12`, the same
    /// positions and table history): 19.6-19.9 s with the prefetch in `play` alone, 17.0-17.4 s
    /// with it here for the moves ordered by fastest first, the same nodes.
    #[inline]
    fn prefetch_child(&self, sq: usize, f: u64) {
        // the hash only when there is a table to warm
        if let Some(table) = self.prefetch_table() {
            table.prefetch(self.child_hash(sq, f));
        }
    }

    /// The table whose buckets a child's hash locates: none without a table, or with symmetry
    /// keys (the table key is then not the hash).
    #[inline]
    fn prefetch_table(&self) -> Option<&Table> {
        self.table.as_deref().filter(|_| self.sym.is_none())
    }

    /// (side to move's discs, opponent's discs).
    pub fn player_opponent(&self) -> (u64, u64) {
        (self.p, self.o)
    }

    pub fn empties(&self) -> u32 {
        64 - (self.p | self.o).count_ones()
    }
}

impl super::Searchable for Othello {
    type Board = OthelloBoard;

    fn board(&self) -> OthelloBoard {
        OthelloBoard::new(self)
    }
}

/// How the solver answers a node of the search ([`OthelloBoard::hook_answer`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum HookKind {
    /// The exact disc count: a node searched to the end anyway, or a root move within
    /// [`HANDOVER_GAP`].
    Exact,
    /// The result alone (see [`WLD_GAP`]).
    WinLossDraw,
    /// The solver's probable score (see [`SELECTIVE_EMPTIES`]).
    Selective,
}

impl OthelloBoard {
    /// Whether the search runs on the clock (`nboard --move-ms`): only then are its early
    /// result plies set.
    fn on_the_clock(&self) -> bool {
        self.early_result_plies > 0
    }

    /// How many plies beyond the outermost [`WLD_GAP`] ply the root's moves get probable
    /// results: on the clock the search's own ([`EARLY_RESULT_PLIES`], each one pass less
    /// sure), at a fixed depth [`FIXED_DEPTH_EARLY_RESULT_PLIES`] (as sure as that ply).
    fn probable_plies_beyond(&self) -> i32 {
        if self.on_the_clock() {
            self.early_result_plies
        } else {
            FIXED_DEPTH_EARLY_RESULT_PLIES
        }
    }

    /// The endgame solver, made on first use (on the search's shared table when it has one).
    fn solver(&mut self) -> &mut Solver {
        let table = &self.table;
        self.solver.get_or_insert_with(|| {
            let shared = table
                .as_ref()
                .and_then(|t| t.reserved(SolverTable::with_bytes));
            Box::new(match shared {
                Some(table) => Solver::with_table(table),
                None => Solver::new(SOLVER_MIB),
            })
        })
    }

    /// The solver's selective pass for a root move's probable result `outside` plies beyond the
    /// outermost [`WLD_GAP`] ply (0 is that ply): on the clock one pass less sure a ply further
    /// out, at a fixed depth as sure as that ply ([`WLD_PROBABLE_PASS`]).
    fn probable_pass(&self, outside: usize) -> usize {
        if self.on_the_clock() {
            WLD_PROBABLE_PASS.saturating_sub(outside)
        } else {
            WLD_PROBABLE_PASS
        }
    }

    /// Which answer the solver gives the node at `ply` with `depth` plies left, if any: exact
    /// at most [`SOLVER_EMPTIES`] empties from the end, and at the root's moves (ply 1) the
    /// result, the exact score or a probable one, by how near the search reaches to the end.
    fn hook_answer(&self, ply: usize, depth: i32) -> Option<HookKind> {
        let empties = self.empties();
        if empties <= SOLVER_EMPTIES && depth >= empties as i32 {
            return Some(HookKind::Exact);
        }
        if ply != 1 || empties > HANDOVER_EMPTIES {
            return None;
        }
        let within = |gap: i32| depth + gap >= empties as i32;
        if self.win_loss_draw
            && empties > SOLVER_EMPTIES
            && within(WLD_GAP + self.probable_plies_beyond())
        {
            Some(HookKind::WinLossDraw)
        } else if within(HANDOVER_GAP) {
            Some(HookKind::Exact)
        } else if empties <= SELECTIVE_EMPTIES && within(SELECTIVE_GAP) {
            Some(HookKind::Selective)
        } else {
            None
        }
    }
}

/// The win/loss/draw answer for `(p, o)` (see [`WLD_GAP`]): [`WLD_WIN`], 0 or `-WLD_WIN`,
/// fail-soft for the window `(alpha, beta)` in centi-discs. The solver is asked only what the
/// window needs: whether the move wins when alpha is at or above 0, whether it at least draws
/// when beta is at or below 0, and which of the three otherwise. A window beyond
/// a proven win or loss needs no solve. A proven answer is stored as exact: it is the move's
/// result, so later iterations take it from the table instead of solving again; with
/// `probable`, a selective pass of the solver answers, stored at the node's depth only.
fn win_loss_draw_answer(
    solver: &mut Solver,
    (p, o): (u64, u64),
    (alpha, beta): (i32, i32),
    probable: Option<usize>,
    stop: &AtomicBool,
    limits: &SolveLimits,
    nodes: &mut u64,
) -> Option<HookAnswer> {
    if beta <= -WLD_WIN || alpha >= WLD_WIN {
        // Every result is at or beyond the window's bound: fail at it, without a solve.
        let score = if beta <= -WLD_WIN { -WLD_WIN } else { WLD_WIN };
        return Some(HookAnswer {
            score,
            exact: false,
        });
    }
    let (a, b) = if alpha >= 0 {
        (0, 1)
    } else if beta <= 0 {
        (-1, 0)
    } else {
        (-1, 1)
    };
    let r = match probable {
        Some(pass) => solver.solve_window_selective(p, o, a, b, pass, stop, limits),
        None => solver.solve_window(p, o, a, b, stop, limits),
    }
    .ok()?;
    *nodes += r.nodes;
    let score = match r.score {
        1.. => WLD_WIN,
        0 => 0,
        _ => -WLD_WIN,
    };
    Some(HookAnswer {
        score,
        exact: probable.is_none(),
    })
}

impl Board for OthelloBoard {
    // Measured on the bench positions at depth 10 with a 1M-entry table: half-windows of 60,
    // 150 and 400 centi-discs searched 6.89M, 7.03M and 6.87M nodes against 6.85M with full
    // windows, so Othello searches with full windows.
    const ASPIRATION: Option<i32> = None;
    type Scratch = ();

    /// Another iteration while 30% of the time is left (the default waits for 55%). With a
    /// fixed budget a move (`nboard --move-ms`) the default left about half of it unused:
    /// against NTest at depth 16 with 96 ms a move, xorboard thought 47 ms a move.
    fn next_iteration(&self) -> f64 {
        NEXT_ITERATION_TIME_LEFT
    }

    fn enable_symmetry(&mut self) {
        let (black, white) = if self.side == 0 {
            (self.p, self.o)
        } else {
            (self.o, self.p)
        };
        self.sym = Some(Box::new(SymmetryTracker::from_cells(
            8,
            self.keys,
            self.side == 1,
            |c| {
                if black & (1 << c) != 0 {
                    Cell::Black
                } else if white & (1 << c) != 0 {
                    Cell::White
                } else {
                    Cell::Empty
                }
            },
        )));
    }

    #[inline]
    fn symmetry(&self) -> Option<&SymmetryTracker> {
        self.sym.as_deref()
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    fn side_index(&self) -> usize {
        self.side
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.stack.push((self.p, self.o, self.hash));
        if let Some(sq) = mv.cell() {
            let f = flips(sq, self.p, self.o);
            let h = self.child_hash(sq, f);
            // Usually warm already (`generate`); else it loads while the indices are updated.
            if let Some(table) = self.prefetch_table() {
                table.prefetch(h);
            }
            if let Some(sym) = &mut self.sym {
                sym.push();
                sym.place(sq, self.side);
                let mut bits = f;
                while bits != 0 {
                    sym.flip(bits.trailing_zeros() as usize);
                    bits &= bits - 1;
                }
                sym.toggle_side();
            }
            if let Some((_, ind)) = &mut self.pattern {
                ind.play(self.side, sq, f);
            }
            let np = self.p | f | (1 << sq);
            self.p = self.o ^ f;
            self.o = np;
            self.hash = h;
        } else {
            if let Some(sym) = &mut self.sym {
                sym.push();
                sym.toggle_side();
            }
            std::mem::swap(&mut self.p, &mut self.o);
            self.hash ^= self.keys.side;
        }
        self.side ^= 1;
    }

    #[inline]
    fn undo(&mut self, _mv: Move) {
        if let Some((p, o, h)) = self.stack.pop() {
            if let Some(sym) = &mut self.sym {
                sym.pop();
            }
            if let Some((_, ind)) = &mut self.pattern {
                let placed = (self.p | self.o) & !(p | o);
                if placed != 0 {
                    // the mover's opponent now holds its old discs minus the flipped ones
                    ind.undo(self.side ^ 1, placed.trailing_zeros() as usize, o ^ self.p);
                }
            }
            self.p = p;
            self.o = o;
            self.hash = h;
            self.side ^= 1;
        }
    }

    fn is_legal(&mut self, mv: Move) -> bool {
        let m = moves(self.p, self.o);
        match mv.cell() {
            Some(sq) if sq < 64 => m & (1 << sq) != 0,
            Some(_) => false,
            None => mv.is_pass() && m == 0 && moves(self.o, self.p) != 0,
        }
    }

    fn generate(&mut self, _ply: usize, depth: i32, out: &mut Vec<Scored>) -> Gen {
        let (p, o) = (self.p, self.o);
        let mut m = moves(p, o);
        if m == 0 {
            if moves(o, p) == 0 {
                return Gen::Terminal(final_centi(p, o));
            }
            out.push(Scored {
                mv: Move::PASS,
                score: 0,
            });
            return Gen::Moves;
        }
        if let Some((w, ind)) = &self.pattern
            && depth >= ORDER_EVAL_DEPTH
        {
            // Order by the evaluation of the position each move leads to.
            let (w, side) = (*w, self.side);
            let n = (p | o).count_zeros() - 1;
            let mut view = [0u32; eval::N_LANES];
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = flips(sq, p, o);
                self.prefetch_child(sq, f);
                let child = child_evaluation(w, ind, side, p, o, sq, f, n, &mut view);
                out.push(Scored {
                    mv: Move::at(sq),
                    score: -child,
                });
            }
            return Gen::Moves;
        }
        let fastest_first_from = if self.pattern.is_some() {
            FASTEST_FIRST_DEPTH
        } else {
            BASELINE_FASTEST_FIRST_DEPTH
        };
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let mut score = SQUARE[sq];
            if depth >= fastest_first_from {
                // Fastest first: leave the opponent few moves.
                let f = flips(sq, p, o);
                self.prefetch_child(sq, f);
                let np = p | f | (1 << sq);
                let no = o ^ f;
                let om = moves(no, np);
                score += -40 * om.count_ones() as i32 - 200 * (om & CORNERS).count_ones() as i32;
            }
            out.push(Scored {
                mv: Move::at(sq),
                score,
            });
        }
        Gen::Moves
    }

    /// Multi-ProbCut from the fitted table ([`probcut`]) for the pattern evaluation's
    /// midgame; never on a node searched to the end, nor on the baseline board.
    fn probcut(&self, depth: i32, confidence: ProbCutConfidence) -> Option<ProbCut> {
        self.pattern.as_ref()?;
        let empties = self.empties();
        if depth >= empties as i32 {
            return None;
        }
        let (shallow, slope, intercept, sigma) = probcut::Table::builtin().rule(empties, depth)?;
        if let Some(sampler) = &self.probcut_sampler {
            sampler.offer(self.hash, self.p, self.o, depth);
        }
        Some(ProbCut {
            shallow,
            slope,
            intercept,
            margin: confidence.t(depth) * sigma,
            gate: confidence.gate.map(i32::from),
        })
    }

    /// The pattern board does; the baseline board plays its moves.
    fn searches_last_ply(&self) -> bool {
        self.pattern.is_some()
    }

    /// The children's evaluations straight from the kept indices ([`Indices::view_after`]):
    /// no move played, no hash, no undo.
    fn search_last_ply(
        &mut self,
        list: &[Scored],
        mut alpha: i32,
        beta: i32,
        nodes: &mut u64,
    ) -> Option<(i32, Move)> {
        let (w, ind) = self.pattern.as_ref()?;
        let (p, o, side) = (self.p, self.o, self.side);
        let empties = (p | o).count_zeros() - 1;
        // Each move's ordering score with its place in the list below it (the first of equal
        // scores is the biggest key): taking the biggest key left gives the order of a stable
        // sort, without sorting the moves a cutoff leaves untried.
        let mut keys = [i64::MIN; 64];
        let n = list.len().min(64);
        for (i, (k, s)) in keys.iter_mut().zip(list).enumerate() {
            *k = (i64::from(s.score) << 8) | (255 - i) as i64;
        }
        let mut view = [0u32; eval::N_LANES];
        let mut best = (-super::INF, Move::NONE);
        for _ in 0..n {
            let key = keys[..n].iter().copied().max().unwrap_or(i64::MIN);
            let i = 255 - (key & 255) as usize;
            keys[i] = i64::MIN;
            let sq = list[i].mv.cell()?;
            let child =
                child_evaluation(w, ind, side, p, o, sq, flips(sq, p, o), empties, &mut view);
            *nodes += 1;
            let v = -child;
            if v > best.0 {
                best = (v, Move::at(sq));
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        Some(best)
    }

    #[inline]
    fn evaluate(&mut self, _ply: usize) -> i32 {
        let (p, o) = (self.p, self.o);
        let Some((w, ind)) = &self.pattern else {
            return evaluate(p, o);
        };
        let (mp, mo) = (moves(p, o), moves(o, p));
        if mp | mo == 0 {
            return final_centi(p, o);
        }
        let mobility = (mp.count_ones() as i32, mo.count_ones() as i32);
        to_centi(w.eval_indices(ind, self.side, (p | o).count_zeros(), mobility))
    }

    fn use_table(&mut self, table: &Arc<Table>) {
        self.table = Some(Arc::clone(table));
    }

    /// The "Engine" issue's engine: linear evaluation and its move ordering (the search no
    /// longer calls [`Board::exact_hook`] either).
    fn disable_exact_answers(&mut self) {
        self.pattern = None;
    }

    fn read_options(&mut self, options: &crate::search::SearchOptions) {
        self.win_loss_draw = options.win_loss_draw;
        self.early_result_plies = options.early_result_plies as i32;
    }

    /// Nodes the search would follow to the end anyway, and the root's moves near the end (see
    /// [`HANDOVER_EMPTIES`]), are solved exactly by the endgame solver
    /// (`crate::search::endgame`), with the window in discs; with win/loss/draw solves on, the
    /// root's moves are solved for their result instead, from further out (see [`WLD_GAP`]);
    /// root moves a little further from the end get the solver's probable answer (see
    /// [`SELECTIVE_EMPTIES`]).
    fn exact_hook(&mut self, node: &ExactNode<'_>, nodes: &mut u64) -> Option<HookAnswer> {
        let &ExactNode {
            ply,
            depth,
            alpha,
            beta,
            stop,
            deadline,
        } = node;
        let answer = self.hook_answer(ply, depth)?;
        // The time left, read once the solver is there (making it may allocate its table).
        let limits = || SolveLimits {
            nodes: None,
            time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
        };
        let empties = self.empties();
        if answer == HookKind::WinLossDraw {
            // Root moves beyond the outermost WLD_GAP ply get the solver's probable result.
            let outside = empties as i32 - (depth + WLD_GAP);
            let probable = (outside >= 0).then(|| self.probable_pass(outside as usize));
            let position = (self.p, self.o);
            let solver = self.solver();
            return win_loss_draw_answer(
                solver,
                position,
                (alpha, beta),
                probable,
                stop,
                &limits(),
                nodes,
            );
        }
        let (p, o) = (self.p, self.o);
        let solver = self.solver();
        let limits = limits();
        // Disc window containing (alpha, beta) in centi-discs.
        let a = alpha.div_euclid(DISC);
        let b = (beta + DISC - 1).div_euclid(DISC).max(a + 1);
        let exact = answer == HookKind::Exact;
        let r = if exact {
            solver.solve_window(p, o, a, b, stop, &limits)
        } else {
            // plies inside SELECTIVE_GAP, two per pass (the solver caps the pass)
            let pass = (depth + SELECTIVE_GAP - empties as i32) as usize / 2;
            solver.solve_window_selective(p, o, a, b, pass, stop, &limits)
        }
        .ok()?;
        *nodes += r.nodes;
        Some(HookAnswer {
            score: r.score * DISC,
            exact,
        })
    }

    fn exact_hook_due(&self, ply: usize, depth: i32) -> bool {
        self.hook_answer(ply, depth).is_some()
    }

    fn exact_depth(&self) -> Option<u32> {
        Some(self.empties())
    }

    fn max_depth(&self) -> u32 {
        self.empties() + 2
    }

    fn display_score(raw: i32) -> i32 {
        if raw >= 0 {
            (raw + DISC / 2) / DISC
        } else {
            -((-raw + DISC / 2) / DISC)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Limits, ProbCutConfidence, Searcher};
    use crate::tt::Policy;

    #[test]
    fn the_last_ply_search_scores_as_playing_each_move() {
        use crate::search::Searchable;
        let mut g = Othello::default();
        let mut rng = 0x0DDB_1A5E_5BAD_5EEDu64;
        let mut v = Vec::new();
        let mut checked = 0;
        for _ in 0..600 {
            g.legal_moves(&mut v);
            if v.is_empty() {
                g = Othello::default();
                continue;
            }
            if v.len() > 1 {
                let mut b = g.board();
                let mut list = Vec::new();
                assert_eq!(b.generate(1, 1, &mut list), Gen::Moves);
                let mut best = -crate::search::INF;
                for s in &list {
                    b.play(s.mv);
                    best = best.max(-b.evaluate(1));
                    b.undo(s.mv);
                }
                let mut nodes = 0;
                let (score, mv) = b
                    .search_last_ply(&list, -crate::search::INF, crate::search::INF, &mut nodes)
                    .expect("the pattern board searches its last ply");
                assert_eq!(score, best);
                assert_eq!(nodes, list.len() as u64);
                b.play(mv);
                assert_eq!(-b.evaluate(1), best);
                checked += 1;
            }
            g.play(crate::search::test_pick(&mut rng, &v));
        }
        assert!(checked > 100);
    }

    #[test]
    fn root_moves_near_the_end_get_probable_then_exact_answers() {
        use crate::game::notation::parse_obf;
        use crate::search::Searchable;
        use std::sync::atomic::AtomicBool;
        // FFO #40 (20 empties, black to move, exact score +38): as a root's child (ply 1).
        let g = parse_obf(
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
            Keys::default_keys(),
        )
        .expect("FFO #40 parses");
        let mut b = g.board();
        let stop = AtomicBool::new(false);
        let ask = |b: &mut OthelloBoard, ply, depth| {
            let mut nodes = 0;
            let node = ExactNode {
                ply,
                depth,
                alpha: -6400,
                beta: 6400,
                stop: &stop,
                deadline: None,
            };
            b.exact_hook(&node, &mut nodes)
        };
        let empties = 20;
        // Out of reach: the midgame search answers.
        assert_eq!(ask(&mut b, 1, empties - SELECTIVE_GAP - 1), None);
        assert_eq!(
            ask(&mut b, 2, empties - HANDOVER_GAP),
            None,
            "only the root's moves"
        );
        // Within SELECTIVE_GAP: a probable answer, not stored as exact.
        let probable = ask(&mut b, 1, empties - SELECTIVE_GAP).expect("a probable solve");
        assert!(!probable.exact);
        assert!((probable.score - 3800).abs() <= 1600, "{probable:?}");
        // Within HANDOVER_GAP: the exact score.
        let exact = ask(&mut b, 1, empties - HANDOVER_GAP).expect("an exact solve");
        assert_eq!(
            exact,
            HookAnswer {
                score: 3800,
                exact: true
            }
        );
    }

    #[test]
    fn the_static_gate_only_leaves_out_shallow_searches() {
        let stop = AtomicBool::new(false);
        let search = |g: &Othello, gate: Option<u16>| {
            let table = Arc::new(Table::new(16, Policy::TwoTier, 64));
            let mut s: Searcher<Othello> = Searcher::new(table);
            let mut options = s.options();
            options.probcut = Some(ProbCutConfidence {
                base: 250,
                per_depth: 5,
                gate,
            });
            s.set_options(options);
            s.search(g, &Limits::depth(9), &stop, &mut |_| {})
        };
        let (mut gated, mut ungated) = (0, 0);
        for g in random_positions(34, 3) {
            let none = search(&g, None);
            // A gate no evaluation can miss tries every check: the same tree.
            let wide = search(&g, Some(u16::MAX));
            assert_eq!(
                (wide.nodes, wide.best, wide.raw_score),
                (none.nodes, none.best, none.raw_score)
            );
            gated += search(&g, Some(probcut::STATIC_GATE)).nodes;
            ungated += none.nodes;
        }
        assert!(gated < ungated, "{gated} nodes gated, {ungated} not");
    }

    /// Positions `empties` from the end, from seeded random games (`count` of them).
    fn random_positions(empties: u32, count: usize) -> Vec<Othello> {
        let mut out = Vec::new();
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut v = Vec::new();
        while out.len() < count {
            let mut g = Othello::default();
            while g.empties() > empties {
                g.legal_moves(&mut v);
                if v.is_empty() {
                    break;
                }
                g.play(crate::search::test_pick(&mut rng, &v));
            }
            g.legal_moves(&mut v);
            if g.empties() == empties && !v.is_empty() {
                out.push(g);
            }
        }
        out
    }

    /// A searcher on a fresh 16 MiB table, or on `table`, with win/loss/draw solves on.
    fn result_searcher(table: Option<Arc<Table>>) -> Searcher<Othello> {
        let table = table.unwrap_or_else(|| Arc::new(Table::new(16, Policy::TwoTier, 64)));
        let mut searcher = Searcher::new(table);
        searcher.set_win_loss_draw(true);
        searcher
    }

    /// The win/loss/draw score of an exact disc score.
    fn result_of(discs: i32) -> i32 {
        WLD_WIN * discs.signum()
    }

    /// The exact disc score of `g` for its side to move, by the solver.
    fn exact_score(solver: &mut Solver, g: &Othello) -> i32 {
        let (p, o) = g.player_opponent();
        solver
            .solve(p, o, &AtomicBool::new(false), &SolveLimits::default())
            .expect("an exact solve")
            .score
    }

    /// The result (1 win, 0 draw, -1 loss) of playing `mv` in `g`, for the side that plays it.
    fn result_after(solver: &mut Solver, g: &Othello, mv: Move) -> i32 {
        let mut child = g.clone();
        child.play(mv);
        -exact_score(solver, &child).signum()
    }

    #[test]
    fn win_loss_draw_answers_are_the_result_and_fail_soft_for_any_window() {
        let stop = AtomicBool::new(false);
        let limits = SolveLimits::default();
        let mut solver = Solver::new(4);
        let windows = [
            (-crate::search::INF, crate::search::INF),
            (-250, 50),
            (0, 1),
            (0, 300),
            (-300, 0),
            (-1, 0),
            (-WLD_WIN - 1, -100),
            (100, WLD_WIN + 1),
            (WLD_WIN, WLD_WIN + 1),
            (-WLD_WIN - 1, -WLD_WIN),
        ];
        let mut classes = [0; 3];
        for g in random_positions(14, 24) {
            let (p, o) = g.player_opponent();
            let exact = exact_score(&mut solver, &g);
            let result = result_of(exact);
            classes[(exact.signum() + 1) as usize] += 1;
            for (alpha, beta) in windows {
                let mut nodes = 0;
                let a = win_loss_draw_answer(
                    &mut solver,
                    (p, o),
                    (alpha, beta),
                    None,
                    &stop,
                    &limits,
                    &mut nodes,
                )
                .expect("a solve that is not stopped answers");
                let s = a.score;
                assert!([-WLD_WIN, 0, WLD_WIN].contains(&s), "{s}");
                if s <= alpha {
                    assert!(
                        result <= s,
                        "window ({alpha}, {beta}): {s} fails low over {result}"
                    );
                } else if s >= beta {
                    assert!(
                        result >= s,
                        "window ({alpha}, {beta}): {s} fails high over {result}"
                    );
                } else {
                    assert_eq!(s, result, "window ({alpha}, {beta})");
                }
                // A solved answer is stored as exact; a window beyond every result needs none.
                let beyond = beta <= -WLD_WIN || alpha >= WLD_WIN;
                assert_eq!(a.exact, !beyond);
                assert_eq!(nodes == 0, beyond);
            }
        }
        assert!(
            classes[0] > 0 && classes[2] > 0,
            "wins and losses both met: {classes:?}"
        );
    }

    #[test]
    fn win_loss_draw_search_plays_a_move_with_the_best_result() {
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(4);
        let mut v = Vec::new();
        // 18 empties: at depth 8 every root move (17 empties) is within WLD_GAP, not on its
        // outermost (probable) ply, and not to be searched to the end.
        for g in random_positions(18, 6) {
            let stats = result_searcher(None).search(&g, &Limits::depth(8), &stop, &mut |_| {});
            let best = stats.best.expect("a move");
            g.legal_moves(&mut v);
            let best_result = v.iter().map(|&mv| result_after(&mut solver, &g, mv)).max();
            assert_eq!(
                Some(result_after(&mut solver, &g, best)),
                best_result,
                "{best:?}"
            );
            assert_eq!(stats.raw_score, result_of(best_result.unwrap_or(0)));
        }
    }

    #[test]
    fn a_probcut_sampler_sees_the_nodes_that_try_multi_probcut() {
        let stop = AtomicBool::new(false);
        for g in random_positions(36, 2) {
            let search = |sampler: Option<Arc<probcut::NodeSampler>>, probcut: bool| {
                let table = Arc::new(Table::new(16, Policy::TwoTier, 64));
                let mut s: Searcher<Othello> = Searcher::new(table);
                let mut options = s.options();
                if !probcut {
                    options.probcut = None;
                }
                s.set_options(options);
                if let Some(sampler) = sampler {
                    s.set_board_setup(Some(Arc::new(move |b: &mut OthelloBoard| {
                        b.sample_probcut_nodes(sampler.clone())
                    })));
                }
                s.search(&g, &Limits::depth(8), &stop, &mut |_| {})
            };
            let sampler = Arc::new(probcut::NodeSampler::new(1));
            let sampled = search(Some(sampler.clone()), true);
            let nodes = sampler.take();
            assert!(!nodes.is_empty());
            // The root or nodes below it, none of them over.
            let (p, o) = g.player_opponent();
            for &(np, no) in &nodes {
                assert_eq!(np & no, 0);
                assert_eq!((np | no) & (p | o), p | o);
                assert!((np | no).count_zeros() <= g.empties());
                assert!(moves(np, no) != 0 || moves(no, np) != 0);
            }
            assert!(sampler.take().is_empty(), "take empties the sampler");
            // Sampling changes nothing the search finds.
            let plain = search(None, true);
            assert_eq!(
                (sampled.best, sampled.raw_score),
                (plain.best, plain.raw_score)
            );
            // Without Multi-ProbCut no node tries it.
            let sampler = Arc::new(probcut::NodeSampler::new(1));
            search(Some(sampler.clone()), false);
            assert!(sampler.take().is_empty());
        }
    }

    #[test]
    fn early_result_plies_answer_the_root_moves_with_probable_results_sooner() {
        let stop = AtomicBool::new(false);
        // 20 empties at depth 7: the root's moves (19 empties) are two plies outside WLD_GAP.
        for g in random_positions(20, 4) {
            let score_with = |early: u8| {
                let mut searcher = result_searcher(None);
                searcher.set_early_result_plies(early);
                searcher
                    .search(&g, &Limits::depth(7), &stop, &mut |_| {})
                    .raw_score
            };
            let results = [-WLD_WIN, 0, WLD_WIN];
            assert!(results.contains(&score_with(EARLY_RESULT_PLIES)));
            assert!(!results.contains(&score_with(0)));
        }
    }

    #[test]
    fn a_fixed_depth_search_answers_one_ply_beyond_the_gap_with_probable_results() {
        let stop = AtomicBool::new(false);
        // 20 empties at depth 8: the root's moves (19 empties) are one ply outside WLD_GAP.
        for g in random_positions(20, 4) {
            let score = result_searcher(None)
                .search(&g, &Limits::depth(8), &stop, &mut |_| {})
                .raw_score;
            assert!([-WLD_WIN, 0, WLD_WIN].contains(&score), "{score}");
        }
    }

    #[test]
    fn a_searched_table_entry_does_not_stand_in_for_a_root_move_solve() {
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(4);
        let mut v = Vec::new();
        for g in random_positions(18, 4) {
            let table = Arc::new(Table::new(16, Policy::TwoTier, 64));
            // A deeper search of every root move leaves its estimate in the table, as the
            // previous move's search does for the positions two plies on.
            g.legal_moves(&mut v);
            for &mv in &v {
                let mut child = g.clone();
                child.play(mv);
                let mut estimate: Searcher<Othello> = Searcher::new(table.clone());
                estimate.set_exact_hook(false);
                estimate.search(&child, &Limits::depth(12), &stop, &mut |_| {});
            }
            // At depth 8 the root moves need 7 plies, less than the entries have: each is
            // solved for its result all the same.
            let stats =
                result_searcher(Some(table)).search(&g, &Limits::depth(8), &stop, &mut |_| {});
            let best_result = v.iter().map(|&mv| result_after(&mut solver, &g, mv)).max();
            assert_eq!(stats.raw_score, result_of(best_result.unwrap_or(0)));
        }
    }

    #[test]
    fn board_hash_follows_the_game() {
        use crate::search::Searchable;
        let mut g = Othello::default();
        let mut b = g.board();
        let mut rng = 0x1234_5678_9ABC_DEF0u64;
        let mut v = Vec::new();
        for _ in 0..2000 {
            g.legal_moves(&mut v);
            if v.is_empty() {
                g = Othello::default();
                b = g.board();
                continue;
            }
            let mv = crate::search::test_pick(&mut rng, &v);
            assert!(b.is_legal(mv));
            g.play(mv);
            b.play(mv);
            assert_eq!(b.hash(), g.hash());
            assert_eq!(b.player_opponent(), g.player_opponent());
            if rng.is_multiple_of(7) {
                g.undo();
                b.undo(mv);
                assert_eq!(b.hash(), g.hash());
            }
        }
    }
}
