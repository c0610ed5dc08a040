//! Othello for the generic search: move generation with move ordering and a static evaluation
//! in centi-discs, exact disc difference once the game is over.
//!
//! The evaluation is the trained pattern evaluation of [`crate::search::endgame::eval`] (its
//! table indices kept move by move on the search board), and moves are ordered by the
//! evaluation of the position they lead to away from the leaves. The "Engine" issue's engine
//! stays available as a baseline: a board whose exact answers are switched off
//! ([`Board::disable_exact_answers`], what `selfplay --b-baseline` and the plain-search tests
//! do) evaluates with the linear evaluation [`evaluate`] (mobility, potential mobility,
//! corners, X- and C-squares, stable edge discs, parity; fitted weights) and orders moves the
//! old way (square values, fastest first), and the search does not call the endgame solver.
//!
//! The seam for an exact endgame solver is [`Board::exact_hook`]; it is the only place an Othello
//! solver needs to plug into (it gets raw bitboards from [`Othello::player_opponent`]).

use super::{Board, ExactNode, Gen, Scored};
use crate::game::othello::{Othello, moves};
use crate::game::symmetry::SymmetryTracker;
use crate::game::{Cell, Game, Move};
use crate::search::endgame::eval::{Indices, SCALE, Weights};
use crate::search::endgame::{SolveLimits, Solver};
use crate::zobrist::Keys;
use std::time::Instant;

/// Internal score units per disc.
pub const DISC: i32 = 100;

const CORNERS: u64 = 0x8100_0000_0000_0081;
const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;

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

/// (corner, X-square, C-square, C-square) for the four corners.
const CORNER_GROUPS: [(u32, u32, u32, u32); 4] = [
    (0, 9, 1, 8),
    (7, 14, 6, 15),
    (56, 49, 57, 48),
    (63, 54, 62, 55),
];

/// Squares next to any square of `b`.
#[inline]
fn neighbours(b: u64) -> u64 {
    let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

/// Discs of `p` on the edges that cannot be flipped: runs from an owned corner along an edge,
/// and whole filled edges.
fn stable_edges(p: u64, o: u64) -> u64 {
    let full = p | o;
    let mut s = 0u64;
    // (corner, step) walks along the four edges in both directions.
    const WALKS: [(i32, i32); 8] = [
        (0, 1),
        (0, 8),
        (7, -1),
        (7, 8),
        (56, 1),
        (56, -8),
        (63, -1),
        (63, -8),
    ];
    for &(c, step) in &WALKS {
        if p & (1 << c) == 0 {
            continue;
        }
        let mut sq = c;
        for _ in 0..8 {
            if p & (1 << sq) == 0 {
                break;
            }
            s |= 1 << sq;
            sq += step;
            if !(0..64).contains(&sq) {
                break;
            }
        }
    }
    const EDGES: [u64; 4] = [
        0x0000_0000_0000_00FF,
        0xFF00_0000_0000_0000,
        0x0101_0101_0101_0101,
        0x8080_8080_8080_8080,
    ];
    for e in EDGES {
        if full & e == e {
            s |= p & e;
        }
    }
    s
}

/// The final score (empties to the winner) in internal units.
#[inline]
pub fn final_score(p: u64, o: u64) -> i32 {
    let (np, no) = (p.count_ones() as i32, o.count_ones() as i32);
    let e = 64 - np - no;
    let d = match np.cmp(&no) {
        std::cmp::Ordering::Greater => np - no + e,
        std::cmp::Ordering::Less => np - no - e,
        std::cmp::Ordering::Equal => 0,
    };
    d * DISC
}

/// Number of evaluation features.
pub const FEATURES: usize = 9;
/// Names of the features, in order.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "mobility",
    "potential mobility",
    "corners",
    "x-squares",
    "c-squares",
    "stable edge discs",
    "parity",
    "discs",
    "tempo",
];
/// Weights come in buckets of this many empties.
pub const BUCKET_EMPTIES: u32 = 4;
pub const BUCKETS: usize = 16;

/// The features of a position that is not over, for the player `p` to move: each is (mine −
/// theirs) except parity (+1 when the number of empties is odd) and tempo (always 1).
#[inline]
pub fn features(p: u64, o: u64, mp: u64, mo: u64) -> [i32; FEATURES] {
    let empty = !(p | o);
    let n_empty = empty.count_ones();
    let mobility = mp.count_ones() as i32 - mo.count_ones() as i32;
    let potential =
        (neighbours(o) & empty).count_ones() as i32 - (neighbours(p) & empty).count_ones() as i32;
    let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
    let mut xsq = 0;
    let mut csq = 0;
    for &(c, x, c1, c2) in &CORNER_GROUPS {
        if empty & (1 << c) != 0 {
            xsq += ((p >> x) & 1) as i32 - ((o >> x) & 1) as i32;
            csq += ((p >> c1) & 1) as i32 - ((o >> c1) & 1) as i32;
            csq += ((p >> c2) & 1) as i32 - ((o >> c2) & 1) as i32;
        }
    }
    let stable = stable_edges(p, o).count_ones() as i32 - stable_edges(o, p).count_ones() as i32;
    let discs = p.count_ones() as i32 - o.count_ones() as i32;
    let parity = if n_empty % 2 == 1 { 1 } else { -1 };
    [
        mobility, potential, corners, xsq, csq, stable, parity, discs, 1,
    ]
}

/// The weight bucket of a position with `empties` empty squares.
#[inline]
pub fn bucket(empties: u32) -> usize {
    ((empties / BUCKET_EMPTIES) as usize).min(BUCKETS - 1)
}

/// Static evaluation of `(p, o)` for the player `p` to move, in centi-discs: the exact result
/// when the game is over, else the weighted features of the position's bucket.
pub fn evaluate(p: u64, o: u64) -> i32 {
    let mp = moves(p, o);
    let mo = moves(o, p);
    if mp == 0 && mo == 0 {
        return final_score(p, o);
    }
    let f = features(p, o, mp, mo);
    let w = &WEIGHTS[bucket((p | o).count_zeros())];
    let mut score = 0;
    for i in 0..FEATURES {
        score += w[i] * f[i];
    }
    score.clamp(-63 * DISC, 63 * DISC)
}

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
        return final_score(p, o);
    }
    match Weights::builtin() {
        Some(w) => to_centi(w.eval(p, o)),
        None => evaluate(p, o),
    }
}

/// Feature weights (centi-discs per unit) by bucket of empties, fitted by ridge least squares
/// to the exact final results of 2,500 engine games from XOT openings (129,000 positions; the
/// games solved exactly from 18 empties): `tests/search_eval_fit.rs` regenerates them. The two
/// opening buckets (56+ empties), which the games never reach, copy the 52–55 bucket. The tempo
/// column is zero: the fit gave the side to move about −3 discs, a constant per depth that
/// changes no choice (80 games at depth 6: 39–37–4 against the fitted tempo) but makes the
/// displayed score swing by ply.
/// On those positions the fitted weights predict the final result with an RMS error of 8–25
/// discs (by bucket, late to early) against 16–26 for the first engine's hand-set weights.
#[rustfmt::skip]
pub static WEIGHTS: [[i32; FEATURES]; BUCKETS] = [
    [579, -73, 11, -31, -199, 50, 130, 69, 91],
    [491, -73, 56, -125, -235, 79, 74, 44, -20],
    [409, -58, 161, -237, -213, 104, 15, 18, -96],
    [353, -34, 264, -356, -162, 123, -53, -5, -190],
    [295, 4, 277, -432, -60, 153, -88, -26, -286],
    [236, 39, 360, -500, 37, 176, -84, -40, -332],
    [196, 61, 449, -721, 101, 202, -93, -44, -330],
    [176, 69, 574, -1017, 193, 235, -97, -55, -339],
    [150, 78, 763, -1257, 286, 271, -114, -62, -330],
    [118, 79, 858, -1229, 320, 358, -117, -65, -293],
    [89, 66, 824, -1335, 215, 494, -134, -74, -278],
    [74, 48, 689, -1431, -102, 632, -207, -88, -304],
    [44, 38, 360, -1415, -381, 742, -260, -86, -275],
    [22, 29, 81, -954, -384, 360, -274, -62, -181],
    [22, 29, 81, -954, -384, 360, -274, -62, -181],
    [22, 29, 81, -954, -384, 360, -274, -62, -181],
];

/// Rays from each square in the 8 directions (excluding the square): `RAYS[dir][sq]`.
/// Directions 0..4 increase the index (E, S, SE, SW), 4..8 decrease it (W, N, NW, NE).
static RAYS: [[u64; 64]; 8] = rays();

const fn rays() -> [[u64; 64]; 8] {
    const D: [(i32, i32); 8] = [
        (1, 0),
        (0, 1),
        (1, 1),
        (-1, 1),
        (-1, 0),
        (0, -1),
        (-1, -1),
        (1, -1),
    ];
    let mut out = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut x, mut y) = ((sq % 8) as i32 + D[d].0, (sq / 8) as i32 + D[d].1);
            let mut r = 0u64;
            while x >= 0 && x < 8 && y >= 0 && y < 8 {
                r |= 1u64 << (y * 8 + x);
                x += D[d].0;
                y += D[d].1;
            }
            out[d][sq] = r;
            sq += 1;
        }
        d += 1;
    }
    out
}

/// The discs a move of `p` on `sq` flips (ray lookups; same result as
/// [`flips`](crate::game::othello::flips)).
#[inline]
pub fn fast_flips(sq: usize, p: u64, o: u64) -> u64 {
    let mut f = 0;
    for rays in &RAYS[..4] {
        let ray = rays[sq];
        let stop = ray & !o;
        let first = stop & stop.wrapping_neg();
        if first & p != 0 {
            f |= ray & (first - 1);
        }
    }
    for rays in &RAYS[4..] {
        let ray = rays[sq];
        let stop = ray & !o;
        if stop != 0 {
            let idx = 63 - stop.leading_zeros();
            if (p >> idx) & 1 != 0 {
                f |= ray & !((2u64 << idx) - 1);
            }
        }
    }
    f
}

/// From this remaining depth on, moves are ordered by the pattern evaluation of their result
/// (below it by square values and fastest first, as the baseline does), and from
/// [`SHALLOW_DEPTH`] on by a [`SHALLOW_PLIES`]-ply search of it. Measured on the bench positions
/// at depth 11 (1M-entry table), nodes: evaluation ordering from depth 3, 22.56M; from depth 5,
/// 22.29M; from depth 5 with 2-ply searches from depth 9, 22.17M; square values and fastest
/// first everywhere, 22.47M — small differences, but the evaluation near the leaves costs time.
pub const ORDER_EVAL_DEPTH: i32 = 5;
/// See [`ORDER_EVAL_DEPTH`].
pub const SHALLOW_DEPTH: i32 = 9;
/// See [`ORDER_EVAL_DEPTH`].
pub const SHALLOW_PLIES: u32 = 2;

/// Negamax alpha-beta of `depth` plies with the pattern evaluation at the leaves (1/64 disc) on
/// `(p, o)`, `side` to move, its indices kept in `ind`. With `order_from` plies or more left, the
/// moves are tried best child evaluation first (the trainer's labelling searches); below that in
/// square order (the engine's short searches that order moves high in the tree, where sorting
/// would cost more than it saves). The window only bounds the work: with a full window the
/// result is the same in either order.
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
            return final_score(p, o) / DISC * SCALE;
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
            let f = fast_flips(sq, p, o);
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
            if child(ind, sq, fast_flips(sq, p, o)) {
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
pub const HANDOVER_EMPTIES: u32 = 24;
/// See [`HANDOVER_EMPTIES`].
pub const HANDOVER_GAP: i32 = 16;
/// The solver's table (MiB), made on first use.
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
    /// The pattern evaluation and its indices, kept move by move; `None` on a baseline board
    /// (linear evaluation).
    pattern: Option<(&'static Weights, Box<Indices>)>,
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
            pattern: Weights::builtin().map(|w| {
                let (black, white) = if game.side_to_move().index() == 0 {
                    (p, o)
                } else {
                    (o, p)
                };
                (w, Box::new(Indices::new(black, white)))
            }),
        }
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

impl Board for OthelloBoard {
    // Measured on the bench positions at depth 10 with a 1M-entry table: half-windows of 60,
    // 150 and 400 centi-discs searched 6.89M, 7.03M and 6.87M nodes against 6.85M with full
    // windows, so Othello searches with full windows.
    const ASPIRATION: Option<i32> = None;

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
        let mut h = self.hash ^ self.keys.side;
        if let Some(sq) = mv.cell() {
            let f = fast_flips(sq, self.p, self.o);
            h ^= self.keys.stones[sq][self.side];
            let mut bits = f;
            while bits != 0 {
                h ^= self.keys.flip[bits.trailing_zeros() as usize];
                bits &= bits - 1;
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
        } else {
            if let Some(sym) = &mut self.sym {
                sym.push();
                sym.toggle_side();
            }
            std::mem::swap(&mut self.p, &mut self.o);
        }
        self.side ^= 1;
        self.hash = h;
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
                return Gen::Terminal(final_score(p, o));
            }
            out.push(Scored {
                mv: Move::PASS,
                score: 0,
            });
            return Gen::Moves;
        }
        if let Some((w, ind)) = &mut self.pattern
            && depth >= ORDER_EVAL_DEPTH
        {
            // Order by the evaluation of the position each move leads to.
            let (w, side) = (*w, self.side);
            let n = (p | o).count_zeros() - 1;
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = fast_flips(sq, p, o);
                let (np, no) = (p | f | (1 << sq), o ^ f);
                let (om, pm) = (moves(no, np), moves(np, no));
                let child = if om | pm == 0 {
                    final_score(no, np)
                } else if depth >= SHALLOW_DEPTH {
                    ind.play(side, sq, f);
                    let e = pattern_search(
                        w,
                        ind,
                        side ^ 1,
                        no,
                        np,
                        SHALLOW_PLIES,
                        -64 * SCALE,
                        64 * SCALE,
                        u32::MAX,
                    );
                    ind.undo(side, sq, f);
                    to_centi(e)
                } else {
                    ind.play(side, sq, f);
                    let mobility = (om.count_ones() as i32, pm.count_ones() as i32);
                    let e = to_centi(w.eval_indices(ind, side ^ 1, n, mobility));
                    ind.undo(side, sq, f);
                    e
                };
                out.push(Scored {
                    mv: Move::at(sq),
                    score: -child,
                });
            }
            return Gen::Moves;
        }
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let mut score = SQUARE[sq];
            if depth >= 3 {
                // Fastest first: leave the opponent few moves.
                let f = fast_flips(sq, p, o);
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

    #[inline]
    fn evaluate(&mut self, _ply: usize) -> i32 {
        let (p, o) = (self.p, self.o);
        let Some((w, ind)) = &self.pattern else {
            return evaluate(p, o);
        };
        let (mp, mo) = (moves(p, o), moves(o, p));
        if mp | mo == 0 {
            return final_score(p, o);
        }
        let mobility = (mp.count_ones() as i32, mo.count_ones() as i32);
        to_centi(w.eval_indices(ind, self.side, (p | o).count_zeros(), mobility))
    }

    /// The "Engine" issue's engine: linear evaluation and its move ordering (the search no
    /// longer calls [`Board::exact_hook`] either).
    fn disable_exact_answers(&mut self) {
        self.pattern = None;
    }

    /// Nodes the search would follow to the end anyway, and the root's moves near the end (see
    /// [`HANDOVER_EMPTIES`]), are solved exactly by the endgame solver
    /// (`crate::search::endgame`), with the window in discs.
    fn exact_hook(&mut self, node: &ExactNode<'_>, nodes: &mut u64) -> Option<i32> {
        let &ExactNode {
            ply,
            depth,
            alpha,
            beta,
            stop,
            deadline,
        } = node;
        let empties = self.empties();
        let to_the_end = empties <= SOLVER_EMPTIES && depth >= empties as i32;
        let handover =
            ply == 1 && empties <= HANDOVER_EMPTIES && depth + HANDOVER_GAP >= empties as i32;
        if !(to_the_end || handover) {
            return None;
        }
        let solver = self
            .solver
            .get_or_insert_with(|| Box::new(Solver::new(SOLVER_MIB)));
        // Disc window containing (alpha, beta) in centi-discs.
        let a = alpha.div_euclid(DISC);
        let b = (beta + DISC - 1).div_euclid(DISC);
        let r = solver
            .solve_window(
                self.p,
                self.o,
                a,
                b.max(a + 1),
                stop,
                &SolveLimits {
                    nodes: None,
                    time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
                },
            )
            .ok()?;
        *nodes += r.nodes;
        Some(r.score * DISC)
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
    use crate::game::othello::{START_BLACK, START_WHITE, flips};

    #[test]
    fn start_is_balanced_and_symmetric() {
        let a = evaluate(START_BLACK, START_WHITE);
        let b = evaluate(START_WHITE, START_BLACK);
        assert_eq!(a, b);
        assert!(a.abs() < DISC);
    }

    #[test]
    fn corner_edge_is_stable() {
        let p = 0b0000_0111u64; // a1 b1 c1
        let o = 1u64 << 4;
        assert_eq!(stable_edges(p, o), 0b111);
        assert_eq!(stable_edges(o, p), 0);
    }

    #[test]
    fn fast_flips_agree_and_board_hash_follows_the_game() {
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
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mv = v[(rng % v.len() as u64) as usize];
            let (p, o) = g.player_opponent();
            for sq in 0..64 {
                if (p | o) & (1 << sq) == 0 {
                    assert_eq!(fast_flips(sq, p, o), flips(sq, p, o));
                }
            }
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

    #[test]
    fn final_score_gives_empties_to_the_winner() {
        assert_eq!(final_score(0b111, 0b1000), (3 - 1 + 60) * DISC);
        assert_eq!(final_score(0b1, 0b10), 0);
    }
}
