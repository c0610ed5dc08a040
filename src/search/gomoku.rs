//! Gomoku for the generic search: an incrementally scored board, line-pattern evaluation,
//! candidate moves near the stones, and the two forced rules — an immediate win is always taken,
//! an immediate loss always blocked.
//!
//! Every window of five cells along a row, column or diagonal is a potential five. A window
//! holding stones of one colour only scores for its owner by how many it holds (one to four);
//! overlapping windows make open patterns worth more than closed ones (an open three lies in two
//! three-windows, a closed three in one). A window with four stones and one empty cell marks that
//! cell as a winning point. Each empty cell collects ordering values from the windows it lies in —
//! attack for the side to move, defence against the opponent — and the best-valued cells within
//! two of a stone are the candidate moves.
//!
//! [`GomokuBoard`] keeps all of this up to date on every move: placing a stone touches only the
//! (at most 20) windows through its cell, so the window score is O(1) and move generation one
//! pass over the cells.
//!
//! With the game's exact answers on (the normal engine; `selfplay --b-baseline` turns them off
//! and plays the plain window engine above), the search also gets:
//! - **per-cell pattern codes**: the threat board (kept in step with this board) holds, for every
//!   empty cell and colour, the four line levels a stone there makes (closed two … five, one
//!   table lookup per touched line; see [`pattern`]). Moves are ordered by the class and level
//!   weights of both colours' packed levels on the cell ([`eval::move_order`], fitted to the
//!   engine's own choices), with a bonus near the last two stones played ([`RECENT_ORDER`]);
//! - **a fitted evaluation** ([`eval`]): live windows by stone count, cells by line set (the
//!   combination of a stone's four line levels there; summed incrementally by the threat board)
//!   and the side to move's combinations, each side with its own weights, fitted to self-play
//!   results by `fit-gomoku-eval`;
//! - **a four at the horizon is searched**, not scored ([`Board::extend_leaf`]): a leaf where the
//!   opponent has a five point goes one more ply (the block), so a last-ply four no longer counts
//!   as if it stood;
//! - **a quiescence search of fours** ([`Board::quiescence_moves`]): at the horizon the side to
//!   move stands pat on its evaluation or plays a four near its last stone (further out, only
//!   fours that make more besides), each answered by its forced block, so a continuous-four
//!   attack past the horizon is seen as the win it is;
//! - **an open three at the horizon is answered** ([`Board::quiescence_evasions`]): a leaf whose
//!   side to move faces the opponent's open three does not stand pat (its evaluation would
//!   price a three that wins as one that can be left alone) but plays the forced defences and
//!   its own fours, as a chess quiescence search answers a check ([`EVASION_DEPTH`]);
//! - **decided leaves**: a side to move with a square giving two five points (an open three or a
//!   double-four setup) while the opponent has no five point wins in three plies — a proof;
//! - **combinations at the leaf**: a four-three or three-three square of the side to move, read
//!   from the threat board's line levels (its class), is a feature of the fitted evaluation, apart for an
//!   opponent with and without a four to gain time with;
//! - **late move reductions** (`LMR`), a ply more for quiet moves (at most a two for either
//!   side, [`LMR_QUIET`]), and, at threatened nodes, only the forced defences
//!   (see [`hooks`](super::threats::hooks));
//! - **move-count pruning** near the horizon: the best five, seven and nine candidates by pattern
//!   order at one, two and three plies from it (twelve above; [`SHALLOW_WIDTH`]);
//! - **static futility** near the horizon: a null-window node with no threat to answer whose
//!   fitted evaluation clears beta by a margin per ply returns it ([`FUTILITY`]).

pub mod eval;

use std::sync::{Arc, OnceLock};

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::threats::board::ThreatBoard;
use super::threats::hooks::{LeafCounts, ThreatScratch};
use super::threats::pattern;
use super::threats::{Status, ThreatLimits, ThreatSearcher};
use super::{Board, Forced, Gen, Limits, RootHint, Scored, SearchOptions, ThreatParts, WIN};
use crate::game::Cell;
use crate::game::gomoku::{Gomoku, LINE_DIRECTIONS, MAX_SIZE, Rule};
use crate::game::symmetry::SymmetryTracker;
use crate::game::{Game, Move, Outcome, Side};
use crate::tt::Table;
use crate::zobrist::Keys;

/// Window values by stone count (0..=5 stones of one colour, none of the other): the baseline's
/// evaluation.
const VALUE: [i32; 6] = [0, 1, 12, 110, 1200, 0];
/// Ordering value an empty cell gets from a window by the window's stone count.
const ORDER: [i32; 6] = [0, 2, 14, 140, 0, 0];
/// Candidate moves kept below the root (18 before: 12, with `LMR` from the third move, won
/// 30–18 in 48 self-play games of 200 ms turns against 18 and the fourth), fewer at the last
/// plies ([`width_at`]). Against Rapfi classical at strength 60, 96 games of 200 ms turns each:
/// 16 scored 32.8% and 9 25.0%, where 12 has scored 25–32% across sessions.
const WIDTH: usize = 12;
/// Candidate moves kept at nodes one, two and three plies from the horizon: move-count pruning,
/// the later moves of a node near the leaves rarely change its value. In 48 self-play games of
/// 200 ms turns each: 6 / 8 / 12 against 12 everywhere 29–19, 5 / 7 / 9 against 6 / 8 / 12
/// 30.5–17.5; 4 / 6 / 8 (and 10 above) against 5 / 7 / 9 lost 17–22 after 39 games.
pub const SHALLOW_WIDTH: [usize; 3] = [5, 7, 9];

/// Candidate moves kept at a node with `depth` plies left (below the root).
#[inline]
fn width_at(depth: i32) -> usize {
    match depth {
        ..=0 => SHALLOW_WIDTH[0],
        1..=3 => SHALLOW_WIDTH[depth as usize - 1],
        _ => WIDTH,
    }
}
/// Heuristic scores are kept inside this bound (well below win scores); `fit-gomoku-eval`
/// clamps the same way.
pub const CAP: i32 = 20_000;
const NO_CELL: u16 = u16::MAX;

/// The windows of one board size.
struct Geometry {
    size: usize,
    windows: Vec<[u16; 5]>,
    /// The cells just before and after each window on its line (`NO_CELL` off the board).
    beyond: Vec<[u16; 2]>,
    /// Windows through each cell: `through[start[c]..start[c + 1]]`.
    start: Vec<u32>,
    through: Vec<u32>,
    /// Cells within two (Chebyshev) of each cell, itself included:
    /// `around[around_start[c]..around_start[c + 1]]`.
    around_start: Vec<u32>,
    around: Vec<u16>,
}

static GEOMETRY: [OnceLock<Geometry>; MAX_SIZE + 1] = [const { OnceLock::new() }; MAX_SIZE + 1];

fn geometry(size: usize) -> &'static Geometry {
    GEOMETRY[size].get_or_init(|| {
        let n = size as i32;
        let on = |x: i32, y: i32| x >= 0 && y >= 0 && x < n && y < n;
        let mut windows = Vec::new();
        let mut beyond = Vec::new();
        for &(dx, dy) in LINE_DIRECTIONS.iter() {
            for y in 0..n {
                for x in 0..n {
                    if !on(x + 4 * dx, y + 4 * dy) {
                        continue;
                    }
                    let w: [u16; 5] = std::array::from_fn(|i| {
                        ((y + i as i32 * dy) * n + x + i as i32 * dx) as u16
                    });
                    let cell = |x: i32, y: i32| {
                        if on(x, y) {
                            (y * n + x) as u16
                        } else {
                            NO_CELL
                        }
                    };
                    windows.push(w);
                    beyond.push([cell(x - dx, y - dy), cell(x + 5 * dx, y + 5 * dy)]);
                }
            }
        }
        let mut lists = vec![Vec::new(); size * size];
        for (i, w) in windows.iter().enumerate() {
            for &c in w {
                lists[c as usize].push(i as u32);
            }
        }
        let mut start = Vec::with_capacity(size * size + 1);
        let mut through = Vec::new();
        for l in &lists {
            start.push(through.len() as u32);
            through.extend_from_slice(l);
        }
        start.push(through.len() as u32);
        let mut around_start = Vec::with_capacity(size * size + 1);
        let mut around = Vec::new();
        for c in 0..size * size {
            around_start.push(around.len() as u32);
            let (x, y) = ((c % size) as i32, (c / size) as i32);
            for yy in (y - 2).max(0)..=(y + 2).min(n - 1) {
                for xx in (x - 2).max(0)..=(x + 2).min(n - 1) {
                    around.push((yy * n + xx) as u16);
                }
            }
        }
        around_start.push(around.len() as u32);
        Geometry {
            size,
            windows,
            beyond,
            start,
            through,
            around_start,
            around,
        }
    })
}

#[derive(Clone, Debug)]
struct Undo {
    fours: [u32; 2],
    winner: Option<usize>,
}

/// The search's Gomoku board with incrementally kept window counts and cell values.
#[derive(Clone)]
pub struct GomokuBoard {
    geo: &'static Geometry,
    rule: Rule,
    keys: &'static Keys,
    /// 0 empty, 1 black, 2 white.
    cells: Vec<u8>,
    /// Stones of (black, white) in each window.
    counts: Vec<[u8; 2]>,
    /// Per side, its live windows (none of the other colour's stones) by how many of its stones
    /// they hold (index 0 unused).
    live: [[i32; 6]; 2],
    /// Per side, [`VALUE`] summed over its live windows: the baseline's evaluation, kept only
    /// without a threat board.
    points: [i32; 2],
    /// Per side, per cell: ordering value from that side's live windows, kept only without a
    /// threat board (the baseline's move order; [`GomokuBoard::order_values`] counts the few the
    /// engine needs).
    value: [Vec<i32>; 2],
    /// Stones within two cells (Chebyshev) of each cell.
    near: Vec<u16>,
    /// Windows that reached four stones of a side (some may since be blocked).
    fours: [Vec<u32>; 2],
    stack: Vec<Undo>,
    winner: Option<usize>,
    stones: usize,
    side: usize,
    hash: u64,
    /// The eight symmetric hashes, when symmetry keys are on.
    sym: Option<Box<SymmetryTracker>>,
    /// Per side, a bit per window holding three of its stones and none of the other colour's:
    /// the only windows where one more stone makes a four (see [`GomokuBoard::forced_defences`]).
    threes: [Vec<u64>; 2],
    /// The threat search's board (`None` with the game's exact answers off), brought up to
    /// `path` only when it is needed ([`GomokuBoard::threat_board`]), not on every move.
    threats: Option<Box<ThreatBoard>>,
    /// Which threat seams run (the search's options; see [`Board::configure`]).
    parts: ThreatParts,
    /// The threat seams' searcher and counts, made when a seam first needs them, lent by the
    /// searcher between searches ([`Board::attach_scratch`]).
    scratch: Option<Box<ThreatScratch>>,
    /// Cells played since this board was made.
    path: Vec<u16>,
    /// How many of `path`'s first cells the threat board has played in the same order (an
    /// undo can only shorten it; [`GomokuBoard::threat_board`] brings it to the whole path).
    threat_synced: usize,
    /// Scratch list of the quiescence search's squares.
    quiet_scratch: Vec<u16>,
    /// The forced defences [`GomokuBoard::forced_defences`] last found (its output list, kept
    /// to reuse its allocation).
    defences: Vec<Move>,
    /// Scratch list of the opponent's (square, five point) pairs, for the forced defences.
    three_pairs: Vec<(u16, u16)>,
    /// The search's table, whose bucket for the position after a move [`Board::play`] starts
    /// loading before the boards are updated, so the child's probe finds it in the cache.
    table: Option<Arc<Table>>,
}

impl std::fmt::Debug for GomokuBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GomokuBoard")
            .field("size", &self.geo.size)
            .field("stones", &self.stones)
            .field("hash", &self.hash)
            .finish()
    }
}

impl GomokuBoard {
    pub fn new(game: &Gomoku) -> GomokuBoard {
        let size = game.size();
        let geo = geometry(size);
        let mut b = GomokuBoard {
            geo,
            rule: game.rule(),
            keys: game.keys(),
            cells: vec![0; size * size],
            counts: vec![[0; 2]; geo.windows.len()],
            live: [[0; 6]; 2],
            points: [0; 2],
            value: [vec![0; size * size], vec![0; size * size]],
            near: vec![0; size * size],
            fours: [Vec::new(), Vec::new()],
            stack: Vec::with_capacity(128),
            winner: None,
            stones: 0,
            side: game.side_to_move().index(),
            hash: game.hash(),
            sym: None,
            threes: [
                vec![0; geo.windows.len().div_ceil(64)],
                vec![0; geo.windows.len().div_ceil(64)],
            ],
            threats: Some(Box::new(ThreatBoard::from_game(game))),
            parts: ThreatParts::default(),
            scratch: None,
            path: Vec::with_capacity(128),
            threat_synced: 0,
            quiet_scratch: Vec::new(),
            defences: Vec::new(),
            three_pairs: Vec::new(),
            table: None,
        };
        for (c, cell) in game.cells().iter().enumerate() {
            if let Some(s) = cell.side() {
                b.place(c, s.index());
                b.stones += 1;
            }
        }
        b.winner = match game.outcome() {
            Some(Outcome::Win(s)) => Some(s.index()),
            _ => None,
        };
        b
    }

    /// The last two stones played in this search, for the move order's [`RECENT_ORDER`].
    fn recent_stones(&self) -> RecentStones {
        let (n, size) = (self.path.len(), self.geo.size);
        let at = |k: usize| {
            (n >= k).then(|| {
                let c = self.path[n - k] as usize;
                (c % size, c / size)
            })
        };
        RecentStones {
            size,
            stones: [at(1), at(2)],
        }
    }

    /// Add `delta` to side `s`'s ordering value of every cell of window `w`.
    #[inline]
    fn add_value(&mut self, w: usize, s: usize, delta: i32) {
        if delta != 0 {
            let value = &mut self.value[s];
            for &c in &self.geo.windows[w] {
                value[c as usize] += delta;
            }
        }
    }

    /// Window `w` gains (`add`) or loses a stone of side `s`: update its counts, the live-window
    /// tallies, the three-stone bits and (without a threat board) the cell values.
    ///
    /// Returns the window's new stone counts of `s` and of the other side (from the counts read
    /// before the store: reading the pair back right after a one-byte store stalls the load).
    #[inline(always)]
    fn change(&mut self, w: usize, s: usize, add: bool) -> (usize, usize) {
        let o = 1 - s;
        let [ks, ko] = [self.counts[w][s] as usize, self.counts[w][o] as usize];
        let ns = if add { ks + 1 } else { ks - 1 };
        self.counts[w][s] = ns as u8;
        if ko == 0 {
            // Live for `s` before and after: its count moves by one.
            if ks == 3 || ns == 3 {
                self.mark_three(s, w, ns == 3);
            }
            self.live[s][ks] -= 1;
            self.live[s][ns] += 1;
            if self.threats.is_none() {
                self.points[s] += VALUE[ns] - VALUE[ks];
                self.add_value(w, s, ORDER[ns] - ORDER[ks]);
            }
        } else if (ks == 0) != (ns == 0) {
            // Live for the other side on one side of the change, dead on the other.
            if ko == 3 {
                self.mark_three(o, w, ns == 0);
            }
            let sign = if add { -1 } else { 1 };
            self.live[o][ko] += sign;
            if self.threats.is_none() {
                self.points[o] += sign * VALUE[ko];
                self.add_value(w, o, sign * ORDER[ko]);
            }
        }
        (ns, ko)
    }

    /// Set (`on`) or clear window `w`'s bit among side `s`'s three-stone windows: three of its
    /// stones and none of the other colour's, one stone short of a four.
    #[inline(always)]
    fn mark_three(&mut self, s: usize, w: usize, on: bool) {
        let (word, bit) = (&mut self.threes[s][w / 64], 1u64 << (w % 64));
        *word = if on { *word | bit } else { *word & !bit };
    }

    /// Both sides' ordering values of cell `c` (black's, white's): per side, [`ORDER`] of its
    /// stone count summed over the windows through `c` that hold none of the other side's
    /// stones (what the baseline keeps in `value`, counted afresh).
    fn order_values(&self, c: usize) -> [i32; 2] {
        let geo = self.geo;
        let mut v = [0; 2];
        for &w in &geo.through[geo.start[c] as usize..geo.start[c + 1] as usize] {
            match self.counts[w as usize] {
                [k, 0] => v[0] += ORDER[k as usize],
                [0, k] => v[1] += ORDER[k as usize],
                _ => {}
            }
        }
        v
    }

    fn overline(&self, w: usize, s: usize) -> bool {
        self.geo.beyond[w]
            .iter()
            .any(|&c| c != NO_CELL && self.cells[c as usize] == s as u8 + 1)
    }

    fn mark_near(&mut self, c: usize, add: bool) {
        let geo = self.geo;
        for &a in &geo.around[geo.around_start[c] as usize..geo.around_start[c + 1] as usize] {
            let v = &mut self.near[a as usize];
            if add {
                *v += 1;
            } else {
                *v -= 1;
            }
        }
    }

    fn place(&mut self, c: usize, s: usize) {
        self.cells[c] = s as u8 + 1;
        let geo = self.geo;
        for &w in &geo.through[geo.start[c] as usize..geo.start[c + 1] as usize] {
            let w = w as usize;
            let (own, other) = self.change(w, s, true);
            if other == 0 {
                if own == 4 {
                    self.fours[s].push(w as u32);
                } else if own == 5
                    && self.winner.is_none()
                    && (self.rule == Rule::Freestyle || !self.overline(w, s))
                {
                    self.winner = Some(s);
                }
            }
        }
        self.mark_near(c, true);
    }

    fn remove(&mut self, c: usize, s: usize) {
        let geo = self.geo;
        for &w in &geo.through[geo.start[c] as usize..geo.start[c + 1] as usize] {
            self.change(w as usize, s, false);
        }
        self.cells[c] = 0;
        self.mark_near(c, false);
    }

    /// Up to two distinct cells where side `s` wins at once, and how many were found.
    fn wins(&self, s: usize) -> ([u16; 2], usize) {
        let mut out = [NO_CELL; 2];
        let mut k = 0;
        for &w in &self.fours[s] {
            let w = w as usize;
            if self.counts[w] != if s == 0 { [4, 0] } else { [0, 4] } {
                continue;
            }
            let Some(&e) = self.geo.windows[w]
                .iter()
                .find(|&&c| self.cells[c as usize] == 0)
            else {
                continue;
            };
            if self.rule == Rule::Exact5 && self.overline(w, s) {
                continue;
            }
            if out[..k].contains(&e) {
                continue;
            }
            out[k] = e;
            k += 1;
            if k == 2 {
                break;
            }
        }
        (out, k)
    }

    /// The moves that do not lose at once when the opponent of the side to move has a square
    /// that would give it two five points (an open four, or two fours): those squares, the five
    /// points they would make, and the side to move's own fours, into [`Self::defences`] in cell
    /// order. False (and the list empty) when the opponent has no such square. Called after the forced rules: neither side has a five point.
    ///
    /// Any other move loses: it makes no five point, so the opponent plays such a square and has
    /// two five points against none. A stone on `e` makes `f` a five point exactly when some
    /// window holds both, three of the opponent's stones and none of ours (and, under exact5, no
    /// stone of the opponent just beyond it), so the three-stone windows are all that is needed.
    /// The threat search computes the same set on its own board
    /// ([`forced_defences`](super::threats::hooks::forced_defences)); a test checks they agree.
    fn forced_defences(&mut self) -> bool {
        let mut out = std::mem::take(&mut self.defences);
        out.clear();
        let them = 1 - self.side;
        // (square, five point it makes) for every three-stone window of theirs
        let mut pairs = std::mem::take(&mut self.three_pairs);
        pairs.clear();
        self.for_each_three(them, |e, f| pairs.push((e, f)));
        pairs.sort_unstable();
        pairs.dedup();
        for run in pairs.chunk_by(|a, b| a.0 == b.0) {
            if run.len() >= 2 {
                out.push(Move::at(run[0].0 as usize));
                out.extend(run.iter().map(|&(_, f)| Move::at(f as usize)));
            }
        }
        self.three_pairs = pairs;
        let forced = !out.is_empty();
        if forced {
            self.for_each_three(self.side, |e, _| out.push(Move::at(e as usize)));
            // a move orders as its cell
            out.sort_unstable();
            out.dedup();
        }
        self.defences = out;
        forced
    }

    /// For each window holding three stones of side `s` and none of the other's (and that would
    /// be a real five, exact5 refusing overlines): both orders of its two empty cells, as
    /// (square to play, five point it makes).
    fn for_each_three(&self, s: usize, mut f: impl FnMut(u16, u16)) {
        for (i, &word) in self.threes[s].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let w = i * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.rule == Rule::Exact5 && self.overline(w, s) {
                    continue;
                }
                let mut empty = self.geo.windows[w]
                    .iter()
                    .copied()
                    .filter(|&c| self.cells[c as usize] == 0);
                if let (Some(a), Some(b)) = (empty.next(), empty.next()) {
                    f(a, b);
                    f(b, a);
                }
            }
        }
    }

    /// Whether side `s` has a square where its stone makes two five points at once (an open four
    /// or a double four): some square is the empty cell of two three-stone windows whose other
    /// empty cells differ.
    fn has_double_four(&self, s: usize) -> bool {
        let mut pairs = [(0u16, 0u16); 32];
        let mut n = 0;
        let mut found = false;
        self.for_each_three(s, |e, f| {
            if found {
                return;
            }
            if pairs[..n].iter().any(|&(a, b)| a == e && b != f) {
                found = true;
            } else if n < pairs.len() {
                pairs[n] = (e, f);
                n += 1;
            }
        });
        found
    }

    /// The combinations side `s` can make with one stone, read from the threat board's line
    /// levels of its threat squares: a four-three (one four and an open three on another line,
    /// [`pattern::FOUR_THREE_CLASS`]) and, when there is none, a three-three (two open threes,
    /// [`pattern::THREE_THREE_CLASS`]). Before: read from the windows, an open three being two two-stone windows on one
    /// line ("nearly always" one), at about a tenth of the node time.
    fn combinations(&mut self, s: usize) -> (bool, bool) {
        let side = sides(s).0;
        let Some(t) = self.threat_board() else {
            return (false, false);
        };
        let t: &ThreatBoard = t;
        let (mut four_three, mut three_three) = (false, false);
        t.for_each_threat_square(side, |sq, _| {
            match pattern::cell_class(t.packed(sq, side)) {
                pattern::FOUR_THREE_CLASS => four_three = true,
                pattern::THREE_THREE_CLASS => three_three = true,
                _ => {}
            }
        });
        (four_three, !four_three && three_three)
    }

    /// The combination feature of the side to move ([`eval::FOUR_THREE_QUIET`] …), if it has a
    /// four-three or three-three square and the opponent (with `them_fives` five points) has
    /// none: quiet when the opponent has no four to gain time with (a block of the four cannot
    /// touch the three on the other line), contested otherwise.
    fn combination_feature(&mut self, them_fives: usize) -> Option<usize> {
        if them_fives != 0 {
            return None;
        }
        let (four_three, three_three) = self.combinations(self.side);
        if !four_three && !three_three {
            return None;
        }
        let quiet = !self.can_four(1 - self.side);
        Some(match (four_three, quiet) {
            (true, true) => eval::FOUR_THREE_QUIET,
            (false, true) => eval::THREE_THREE_QUIET,
            (true, false) => eval::FOUR_THREE_CONTESTED,
            (false, false) => eval::THREE_THREE_CONTESTED,
        })
    }

    /// The fitted evaluation ([`eval`]) from the side to move's view, with the combination
    /// feature `combo`: the window counts kept by this board, the cell values kept by the threat
    /// board.
    fn fitted_score(&mut self, combo: Option<usize>) -> i32 {
        let w = eval::weights();
        let (me, them) = (self.side, 1 - self.side);
        let mut v = w[eval::TEMPO] + combo.map_or(0, |c| w[c]);
        for k in 1..=eval::WINDOW_COUNTS {
            v += w[eval::MOVER + eval::WINDOWS_AT + k - 1] * self.live[me][k]
                + w[eval::OPPONENT + eval::WINDOWS_AT + k - 1] * self.live[them][k];
        }
        let (sm, st) = sides(me);
        match self.threat_board() {
            Some(t) => v + t.pattern_eval(sm, true) + t.pattern_eval(st, false),
            None => v,
        }
    }

    /// The candidate moves the search orders by their cell patterns ([`eval::move_order`]):
    /// each empty cell within two of a stone with its packed line levels for the side to move
    /// and for the opponent. False (and `out` empty) where the moves are not ordered so: the game
    /// is over, either side has a five point, or there is no threat board (the baseline).
    pub fn candidate_patterns(
        &mut self,
        out: &mut Vec<(Move, pattern::Packed, pattern::Packed)>,
    ) -> bool {
        out.clear();
        let (me, them) = (self.side, 1 - self.side);
        if self.threats.is_none()
            || self.winner.is_some()
            || self.stones == 0
            || self.wins(me).1 > 0
            || self.wins(them).1 > 0
        {
            return false;
        }
        self.threat_board();
        let Some(t) = self.threats.as_deref() else {
            return false;
        };
        let (sm, st) = sides(me);
        for c in (0..self.cells.len()).filter(|&c| self.near[c] != 0 && self.cells[c] == 0) {
            let sq = t.sq_of(c);
            out.push((Move::at(c), t.packed(sq, sm), t.packed(sq, st)));
        }
        true
    }

    /// The fitted evaluation's features of this position (side to move's view), counted afresh,
    /// or `None` where the evaluation does not use them: the game is over, either side has a
    /// five point, the side to move has a double-four square (all decided or searched further),
    /// or there is no threat board (the baseline). The evaluation of a position with features is
    /// their dot product with [`eval::weights`] (a test checks it).
    pub fn eval_features(&mut self) -> Option<[i32; eval::FEATURES]> {
        let (me, them) = (self.side, 1 - self.side);
        if self.threats.is_none()
            || self.winner.is_some()
            || self.wins(me).1 > 0
            || self.wins(them).1 > 0
            || self.has_double_four(me)
        {
            return None;
        }
        let mut f = [0; eval::FEATURES];
        f[eval::TEMPO] = 1;
        for cnt in &self.counts {
            for (s, base) in [(me, eval::MOVER), (them, eval::OPPONENT)] {
                let k = cnt[s] as usize;
                if cnt[1 - s] == 0 && (1..=eval::WINDOW_COUNTS).contains(&k) {
                    f[base + eval::WINDOWS_AT + k - 1] += 1;
                }
            }
        }
        if let Some(c) = self.combination_feature(0) {
            f[c] = 1;
        }
        self.threat_board();
        let t = self.threats.as_deref()?;
        let (sm, st) = sides(me);
        for c in (0..self.cells.len()).filter(|&c| self.cells[c] == 0) {
            let sq = t.sq_of(c);
            let (mover, opponent) = (
                eval::MOVER + eval::LINE_SETS_AT..eval::OPPONENT,
                eval::OPPONENT + eval::LINE_SETS_AT..eval::COMBOS,
            );
            eval::add_cell_features(t.packed(sq, sm), &mut f[mover]);
            eval::add_cell_features(t.packed(sq, st), &mut f[opponent]);
        }
        Some(f)
    }

    /// Whether side `s` has any window one stone short of a four (a move that makes a four).
    fn can_four(&self, s: usize) -> bool {
        self.threes[s].iter().any(|&w| w != 0)
    }

    /// The threat seams this board runs (set by [`Board::configure`]).
    pub fn threat_parts(&self) -> ThreatParts {
        self.parts
    }

    /// The leaf VCF's counts on this board so far.
    pub fn leaf_counts(&self) -> LeafCounts {
        self.scratch
            .as_ref()
            .map(|s| s.counts())
            .unwrap_or_default()
    }

    /// The threat board brought to this position (undoing and replaying only where its moves
    /// and `path` differ), if the threat search is on.
    fn threat_board(&mut self) -> Option<&mut ThreatBoard> {
        let t = self.threats.as_mut()?;
        let synced = self.threat_synced.min(t.played());
        debug_assert!(
            (0..synced).all(|i| t.cell_of(t.played_at(i)) == self.path[i] as usize),
            "the threat board's moves match the path up to the synced length"
        );
        // past it, a move taken back and played again (a re-search) may still be in place
        let common = synced
            + (synced..t.played().min(self.path.len()))
                .take_while(|&i| t.cell_of(t.played_at(i)) == self.path[i] as usize)
                .count();
        while t.played() > common {
            t.undo();
        }
        for &c in &self.path[common..] {
            t.play(t.sq_of(c as usize));
        }
        self.threat_synced = self.path.len();
        Some(t)
    }
}

/// The ordering value of the empty `cell` from its packed line levels on the threat board for
/// the side to move and for the opponent (`(me, them)`; the opponent's is the value of taking
/// the cell away), by the fitted move-order weights `order` ([`eval::move_order`]).
#[inline]
fn cell_order(
    order: &eval::CellValues,
    t: &ThreatBoard,
    (me, them): (Side, Side),
    cell: usize,
) -> i32 {
    let sq = t.sq_of(cell);
    order.value(t.packed(sq, me), 0) + order.value(t.packed(sq, them), 1)
}

/// Ordering bonus (hundredths of a logit, the scale of [`eval::move_order`]) of a candidate cell
/// within [`RECENT_REACH`] of the last stone played in the search (the opponent's) and of the one
/// before it (the side to move's own): the fight goes on where the last moves were. The fitted
/// order reads only what a stone on the cell makes along its lines, so among cells that make the
/// same it cannot tell the one next to the action from one across the board.
///
/// Measured (session 83) against Rapfi 0.43 classical at full strength, 200 ms a turn, the
/// twelve Gomocup openings both ways, 96-game runs two at a time: see the session 83 notes below,
/// and session 84's for larger bonuses fitted to Rapfi's moves, and smaller ones (none kept).
pub const RECENT_ORDER: [i32; 2] = [40, 20];
/// How near (Chebyshev distance) a cell must be to a recent stone for [`RECENT_ORDER`].
pub const RECENT_REACH: usize = 2;

/// The last stones played in a search ([`GomokuBoard::recent_stones`]): the opponent's, then
/// the side to move's own.
struct RecentStones {
    size: usize,
    /// The stones' (column, row), worked out once per node rather than once per candidate.
    stones: [Option<(usize, usize)>; 2],
}

impl RecentStones {
    /// [`RECENT_ORDER`]'s bonus for `cell`.
    #[inline]
    fn bonus(&self, cell: usize) -> i32 {
        let (x, y) = (cell % self.size, cell / self.size);
        self.stones
            .iter()
            .zip(RECENT_ORDER)
            .filter(|(s, _)| {
                s.is_some_and(|(sx, sy)| x.abs_diff(sx).max(y.abs_diff(sy)) <= RECENT_REACH)
            })
            .map(|(_, b)| b)
            .sum()
    }
}

/// (side to move, opponent) of a side index.
#[inline]
fn sides(me: usize) -> (Side, Side) {
    if me == 0 {
        (Side::Black, Side::White)
    } else {
        (Side::White, Side::Black)
    }
}

/// Late move reductions: from the third move on, at nodes two or more plies from the horizon
/// (measured against no reductions: 29–15 in 44 games of 200 ms turns, from the fourth move at
/// three plies; from the third, with `WIDTH` 12: see there; from two plies instead of three,
/// with [`SHALLOW_WIDTH`]: 28–20 in 48 games). Two plies from [`LMR_TWO`] on.
pub const LMR: (usize, i32) = (2, 2);
/// Reductions of two plies: from the seventh move on, at nodes five or more plies from the
/// horizon.
pub const LMR_TWO: (usize, i32) = (6, 5);

/// One ply more from the fourth move on, at nodes two or more plies from the horizon, for a
/// quiet move: one whose cell makes at most a two ([`pattern::cell_class`] up to
/// [`QUIET_CLASS`]) for the side to move and for the opponent alike. From the fourth move at two
/// plies against the fifth at three, 200 ms turns: self-play 52/96 and 29.5/48 = 81.5/144 (56.6%);
/// Rapfi classical strength 60, runs alternated in one session, 41.5/144 (28.8%) against
/// 48.5/192 (25.3%).
pub const LMR_QUIET: (usize, i32) = (3, 2);
/// The highest cell class of a quiet move (see [`LMR_QUIET`]).
pub const QUIET_CLASS: u8 = 1;

/// Static futility pruning ([`Board::futility_margin`]): a null-window node this many plies or
/// fewer from the horizon whose static evaluation clears beta by [`FUTILITY`] per ply (1000 is one
/// logit of the fitted evaluation) returns it. Self-play, 200 ms turns, 96 games each
/// (gomoku_match.py, freestyle openings): four plies, 200 a ply, against none 60.5/96 (63.0%);
/// five plies, 130 a ply, against four and 200 52/96 (54.2%), against none 50.5/96 (52.6%).
/// Razoring on top (three plies, 300 a ply: eval + margin below alpha returns the evaluation)
/// 51/96 against four and 200, not kept.
pub const FUTILITY_DEPTH: i32 = 5;
/// See [`FUTILITY_DEPTH`].
pub const FUTILITY: i32 = 130;

// Tried and not kept (200 ms turns, against this engine unless said): null-move pruning where no
// threat must be answered (a pass searched 2 + depth/4 plies shallower, from three plies from the
// horizon) 45.8% in 96 games, from five plies 22.5/51; reductions of ln(depth)·ln(move)/2 plies
// for late moves 51.0% in 96. Twice the time (400 ms turns) against Rapfi strength 60 scored
// 33.9% (32.5/96) where 200 ms scored 32.3%: what the engine lacks there is knowledge (the
// evaluation and which moves it considers), not depth. Also tried: no reduction for a move that
// makes a three or more for the mover, 51-44-1 then 22/54 in self-play (49.0% in 150), 37/96
// against strength 60 where this engine scored 58/144 in the same session; a ply more at nodes
// with at most four moves (forced defences) 7.5/29; singular extensions (from six plies, the
// table move extended when every other move fails low at half depth against its score minus 40
// a ply) 16.5/41. Where the games are lost: full-strength Rapfi (300 ms a position) read the 27
// losses of 48 games against strength 60; 13 collapse in one of our moves from an open position
// (Rapfi's score above -1000) to a proven loss, 9 drift down, and in 5 Rapfi proved a win for us
// that we did not play. The missed wins and the collapses are lines of 11 to 25 plies with
// quiet moves in them: the threat solver (fours and threes only) finds none of them within 5
// s, the alpha-beta search some within 0.4 to 2 s.
//
// Session 38, the same engine against Rapfi classical at 200 ms a turn: strength 60 43.5/96 (45.3%;
// its 24-game cycles 41.7, 41.7, 52.1 and 45.8%), full strength 5/48 (10.4%). Full-strength Rapfi
// (300 ms a position) read the 28 games lost in the first 48: in 21 it found our first decisive
// mistake, and 16 of those were a move from a position it did not yet call lost (or a missed proven
// win of ours). Of the 12 collapses among them, 9 are positions where the opponent, given a pass,
// has a threat win that the root analysis ([`hooks`](super::threats::hooks)) finds (7 to 29 plies,
// 39 to 3,158 threat nodes); in 8 it rules out half or more of the replies it tests (49 of 61, 74
// of 87, …; in the ninth its time ran out after 14, none losing), and the reply the search then
// picks among the rest loses to a longer attack that Rapfi proves in 21 to 27 plies, quiet moves
// among them (it reaches depth 18-22 in 150 ms on 137k nodes, we depth 10-11 on 75-100k). The
// engine avoids 4 of the 16 mistakes at 200 ms and 6 at 1 s. More for the reply tests (30-40% of
// the turn, node floors of 3,000-10,000, two or four more threes than the threat's own) still
// avoided 3-4. As the attacker after our mistake (31 positions with a Rapfi-proven win) the engine
// proves 4-5 at 200 ms and 9 of 17 at 2 s. Measured on those 31 at 200 ms, none clearly above that
// noise: LMR of k·ln(depth)·ln(move) plies for k 0.8, 1.0 (with width 20) and 1.2 (width 24) 6, 6,
// 4; a quiet reduction of two or three plies 5-9; the leaf VCF 4; a ply more at nodes of at most
// two, four or six moves 5, 5 and 3, and at four with k 1.0-1.2 and quiet two 7-10. Narrower caps
// near the horizon prove more of them (widths 1, 2, 3 at one to three plies from it, 5 to six
// plies, 8 above: 17; 2, 3, 4, 6, 10: 11), but only by leaving the defender's other moves out:
// their proofs are unsound. Against strength 60, 48 games each, where this engine scored 45.3%: k
// 0.8 with width 16 34.4%; the four-move extension with k 1.2 and quiet two 35.4%; the narrow caps
// 1, 2, 3, 5, 8 16.7%; capping moves only once one scores above a proven loss (up to 24 generated;
// 4 of the 31 wins) 35.4%; a policy reduction (a ply more per 2.00 logits of move order below the
// node's best, at most two, on top of [`LMR_QUIET`]) 36.5%. Wider caps scored 47.9% (6, 8, 10 near
// the horizon, 14 above) and 35.4% (8, 10, 12, 16): this engine's own two 48-game runs read 41.7%
// and 49.0% (one standard error of 48 games is about 7 points), so none of these separates from it.
// Keeping the baseline's cell values only for the baseline (the engine needs a few forced defences'
// values) left the node time unchanged (selfplay at depth 8, 19.56M nodes in 22.6-23.4 s either
// way).
//
// Session 39, the same engine and opponent: strength 60 24/48 (50.0%), full strength 8/48 and
// 8.5/48 (17.2% of 96; its 24-game halves 3, 5, 2 and 6.5). Aspiration windows at the root (±300,
// one third of a logit, widening as Othello's did) 23.5/48 (49.0%) against strength 60: not kept.
//
// Session 40, against full strength only (48 games each, 200 ms a turn unless said). This engine:
// 2/48, 7/48 and 7.5/48 (16.5/144, 11.5%; with last session's 16.5/96, 33/240 = 13.8%). More time
// for xorboard alone (its own `INFO timeout_turn`, Rapfi kept at 200 ms): 400 ms 13.5/48 and 6.5/48
// (20/96, 20.8%); 800 ms (531 ms a move on average, four times Rapfi's 127) 9/48 (18.8%): even four
// times the think time does not reach 25%, so the gap is what the engine knows, not how fast it
// searches. Not kept, none apart from this engine: candidates also three cells out along each line
// from a stone (not only within two) 5.5/48; the root VCT with five threes instead of three 6/48,
// with an eighth of the turn instead of a quarter 6.5/48; the leaf VCF on 3/48; a ply less for
// every move at null-window nodes whose evaluation clears beta by 30 a ply (Rapfi's fail-high
// reduction) 6.5/48; a ply less at nodes four or more plies from the horizon without a table move
// (internal iterative reduction) 6/48; the width caps applied in the picker's order (the table move
// and killers kept even where the pattern order puts them past the cap) 4/48; the evaluation scaled
// by 1.33 6/48 and by 0.75 14/48 then 9.5/48, but [`FUTILITY`] 175 a ply (the same margin in
// evaluation units) 16/144 (11.1%) in runs alternated with this engine's 16.5/144, and 220 8/48: so
// the 0.75 runs' 24.5% was chance, as the first 400 ms run's 28.1% was. One standard error of a
// 48-game score near 13% is 5 points.
//
// Which moves the tree considers: in 336 games of this session and the last (6,591 Rapfi moves in
// positions our pattern order applies to, 81 candidates on average), Rapfi's move was first in our
// order 32.3% of the time, within the first 5, 9 and 12 (the caps near the horizon and above) 66%,
// 78% and 85%, and beyond the 12th 14.8%; our own 200 ms choices rank the same (27.6% first, 15.2%
// beyond 12). Most of those beyond 12 are threes or closed threes of one side (classes 4-6), not
// quiet moves, in positions with many such cells; a bonus for cells near the last two moves brings
// them to 12-13%, ordering by the fitted evaluation after the move to 18.3% (worse), and keeping
// every cell of class 5 or more besides the first 12 would cover 90.7% at about 15 more candidates
// a node. So at one ply below the root the search leaves Rapfi's reply out about once in seven
// nodes and near the horizon about once in three (measured with a throwaway replay of the referee's
// game records). Searched that way (every cell of class 5 or more kept past the caps, up to twice
// the cap), the engine scored 4/48 and 2.5/48: the extra moves cost more depth than they bring. A
// better order did not play better either: the pattern order plus a tenth of the fitted evaluation
// after the move (the same logit scale) ranks Rapfi's moves much better in the replay (first 36.4%,
// within 5 / 9 / 12 73% / 85% / 91%, beyond 12 9.0%), but searched that way it scored 3/48 (from
// three plies above the horizon) and 2/48 (from one, where it doubles the node time). The replay's
// coverage does not predict play.
//
// Session 41, against full strength (48 games a run, 200 ms a turn): another iteration started
// whatever time is left ([`Board::next_iteration`] 0 instead of 0.15, the last one cut at the
// deadline) scored 13/48, 8/48, 4/48 and 7/48 (32/192, 16.7%), thinking as this engine does
// (176.7 ms a move at the median, 176.5 for this engine; it already starts most last iterations
// with more than 15% of the turn left): its first 21/96 was chance. The evaluation fitted to rank
// the engine's own deeper choices first scored 4/96 (see `fit-gomoku-eval`). This engine against
// strength 60: 17/48 and 20/48 (38.5% of 96; Rapfi thinking 57-58 ms a move, this engine 132-134).
//
// Session 44, against full strength (48 games a run, 200 ms a turn): Rapfi's "improving" gate
// (the side to move's static evaluation compared with its own two plies up): where it has not
// risen, the caps near the horizon narrowed to 4 / 5 / 7 and 10 above, and static futility at
// [`FUTILITY`] times one ply less where it has: 6/48, where this engine, run beside it, scored
// 8/48 (and 6/48 in the next run). Not kept.
//
// Rapfi's handicap ladder, read from its source: `INFO strength S` makes it search to a fixed depth
// with its best three moves (more below 75) and a random bonus: depth 8 at strength 30, 9 at 40, 11
// at 50, 12 at 60 (16 at 100). At full strength it reaches depth 12 after 6 ms and 16 after 124 ms
// on the opening position above, where this engine reaches depth 11 in 166 ms; so this engine
// plays about as well as Rapfi's depth 11 or 12 (45.8% of 96 against strength 60 this session),
// and Rapfi gets there some 20 times faster. Time helps this engine against itself: 800 ms a turn
// against 200 scored 36-10-2 (77.1%, about +210 Elo), where against Rapfi four times the time
// gained 5 points (session 40). Rapfi's selectivity as far as this engine's picker allows it (a
// ply less per 0.7 logit of move order below the node's best, at most five, from two plies from the
// horizon, with the caps widened to 6 / 8 / 12 and 16): the depth reached stays at 11 to 12 (the
// capped lists leave little to reduce); against strength 60 44.5/96, where this engine, run beside
// it, scored 44/96, and 26.5/48 against this engine. Not kept.
//
// Session 45: Multi-ProbCut as Othello's midgame has it ([`Board::probcut`]), at null-window
// nodes six or more plies from the horizon with no threat to answer, a search four plies shallower
// predicting the full one as 1.35 times its score with σ 1,450 (fitted on 1,340 positions of
// 4,000 self-play games, iterative deepening to depth 10: slopes 1.34-1.57, σ 1,410-1,660; two
// plies shallower, σ 1,170-1,360). Cutting at t = 1.2 σ scored 29/48 against this engine, and two
// plies shallower from five plies with t = 1.0 and slope 1.3 28.5/48: +70 Elo between them, but
// against Rapfi the first scored 6.5/48 at full strength (13.5%, as this engine's 13.8% of 240)
// and 42/96 against strength 60 (43.8%; 44/96 last session), the second 2/48 at full strength.
// With the engine's default confidence (`100,5`: t = 1.3 to 1.5 σ) 24/48 against this engine and
// 17/48 against strength 60. Not kept: the pattern of sessions 38-44 again, selectivity that wins
// against this engine and changes nothing, or loses, against Rapfi. Where the games against
// strength 60 are lost: of the twelve Gomocup openings, G01 (13 stones along two edges) and G02
// (four in a corner) scored 2/16 in session 44's 96 games and 3/16 in this session's, the ten
// centre openings 42/80 (52.5%) and 39/80 (48.8%); against full strength 0/16 and 14/80. On
// G01 and G02 alone against strength 60 (16 games each), 200 ms a turn 2/16, 800 ms (its own
// `INFO timeout_turn`) 6/16, four of them G02 as white: unlike the centre openings, time pays
// there, though the depth reached at 200 ms is the same as in the centre openings (10 to 14 plies
// at the 20th move). Nor is it where the candidates lie: cells within three of a stone instead
// of two scored 2/16 there, and within three plus four along the lines (Rapfi's default area)
// 4/16. Lazy SMP helps at 200 ms a turn: two threads (`INFO thread_num 2`) against one, alone
// on a two-core machine, 30-18 in 48 games (62.5%, about +90 Elo).

// Session 46, against Rapfi strength 60 (48 games a run, 200 ms a turn), where this engine scored
// 24.5/48, 18/48 and 20/48 in runs beside the others (43.4% of 144). Both engines with `INFO
// thread_num 2` (at strength 60 Rapfi searches to a fixed depth, so its threads change only its
// speed): 22.5/48 (46.9%, one win a Rapfi timeout), so the +90 Elo of two threads against one
// engine does not show here either. The evaluation's tempo weight alone, 150 or 600 instead of
// 369: 17/48 and 15.5/48. The evaluation and the move order refitted on 3,000 games Rapfi played
// against itself: 14.5/48 to 22/48 (see `fit-gomoku-eval`); fitted on the quiet positions of
// those games alone (no four for either side, no three for the opponent: 10,117 of 80,863),
// 6.5/48, though it predicts their results far better (held-out log-loss 0.5408 against the
// shipped weights' 0.5935). None kept. This engine alone, later in the session: 21.5/48 against
// strength 60 (84/192 in the session, 43.8%) and 9/48 against full strength (with sessions 39-40,
// 42/288, 14.6%). G01 and G02 score 0 to 2 of 8 in every run against strength 60 above. In one
// G02 game lost at 200 ms, the engine's 12th-stone move (depth 11) is one that full-strength
// Rapfi reads as about 750 points worse than its own choice. Of nine separate 200 ms runs of that
// position (a fresh engine each), one played the game's move; eight played Rapfi's choice, at
// depth 11 to 14 in 115,000 to 131,000 nodes. Single moves there turn on how the turn's time
// falls, yet twice the time does not pay against strength 60: with its own `INFO timeout_turn
// 400` (Rapfi kept at 200 ms; 251-266 ms a move) this engine scored 17/48 and 22.5/48 (41.1% of
// 96; G01 and G02 4/16, the centre openings 35.5/80), against 43.8% at 200 ms.
//
// Session 47, against Rapfi strength 60 (48 games a run, 200 ms a turn), where this engine scored
// 24/48 and 20/48 in runs beside the others (44/96; 128/288 with session 46, 44.4%). The table
// emptied before every move (a throwaway switch calling the engine's clear before each search;
// the 256 MiB clear costs about 20 ms of the turn): 16.5/48, so what the table keeps from the
// previous move is worth more than that. A quiescence search at the horizon (a leaf stands pat on
// its evaluation or plays one of its side to move's fours, up to six a node and four in a row,
// each answered by the forced block; a throwaway hook in the generic search): 22.5/48 against
// this engine but 7/48 against strength 60; searching the fours only for a proven win (a null
// window at the win bound, the evaluation otherwise) 17.5/48 against this engine and 14/48
// against strength 60. Neither kept: like the leaf VCF, threat search at the horizon costs more
// than it finds, and a stand-pat on fours tilts the fitted evaluation, which already prices the
// side to move's threes, towards the side to move.
// Also not kept, against strength 60: the opponent's replies at the root's children uncapped
// (every candidate at ply 1 instead of twelve; the depth reached is the same) 16/48, 24 of them
// 19.5/48; both engines on two threads (`INFO thread_num 2`) 15/48, so 37.5/96 with session 46's
// run; own live windows of one and two stones worth 10 and 20 more (and the opponent's as much
// less), so that a stone towards open board counts for more than one towards a wall, 20.5/48,
// with 25 and 50 18.5/48. The ladder this session (48 games each): strength 30 44.5/48, 40
// 39/48, 50 27/48, 60 44/96 (above), full 4/48. The edge and corner openings G01 and G02 scored
// 0 to 2 of 8 in every run against strength 50 or 60 this session, whatever the change (this
// engine's centre openings 45% to 65%). Full-strength Rapfi (300 ms a position) read our G02
// moves in four of the games lost: no single collapse but a steady drift of up to 330 points a
// move, our moves towards the edge and the corner where it plays out towards the open board
// (7,7 four moves running in one game). The open-space weights above make the engine choose
// that 7,7 at 200 ms where it had played 2,9, but in games G01 and G02 still scored 1/8.
// The evaluation fitted to full-strength Rapfi's own scores of 36,000 positions: 13/48 (see
// `fit-gomoku-eval`).
//
// Session 48 (a new machine, Rapfi built again, `model210901.bin`; 48 games a run, 200 ms a turn).
// This engine against strength 60: 15/48, 23/48, 20/48 and 15/48 (73/192, 38.0%; G01 1/8 and G02
// 5/8 in the first two), against full strength 5.5/48 (11.5%); on G01 and G02 alone against
// strength 60, 6/16 and 6.5/16 (G01 2.5/16, G02 10/16). Identical runs read 31% and 48%: a 48-game
// run cannot separate changes smaller than about 15 points. Rapfi's classical evaluation takes the
// mean of its pattern score after the last move and before it (the side to move's view of both) and
// adds its threat term to that; the same here (a throwaway switch: the live windows and the threat
// board's cell sums of the position before the last stone, weighed with the same side-to-move
// weights, averaged with the current ones; tempo and combinations as they are) scored 11-31-1
// against this engine (stopped after 43 games) and 7.5/48 against strength 60 (bench 8,952,044
// nodes for 9,323,599). The fitted weights price the position as it stands, last stone included;
// halving the last move's weight without refitting them only blunts what the search sees. Not kept.
//
// Session 49: razoring with a threat check, as Rapfi's search has it (its step "razoring with
// VCF"): a null-window node one or two plies from the horizon, with no threat to answer, whose
// evaluation plus 70 (one ply) or 100 (two) stays at or below alpha returns that evaluation, or a
// win if the side to move has a short VCF (the leaf seam's [`hooks`](super::threats::hooks)
// search). Against strength 60, side by side with this engine (48 games each, 200 ms a turn):
// 13/48 (27.1%) against 22/48 (45.8%). Not kept. Against strength 60 whole openings go one way
// (the table by opening and colour below): with G09 and this engine as black, the eight games of
// session 48 followed nearly the same line, each lost within 29 moves after the opening.
// Our first move there changes from run to run at 200 ms (8,9 in all eight games; 11,6, 10,6 or
// 8,9 from a fresh engine), and at 1 s it is 11,6, Rapfi's own choice at 1 s. G06 with this
// engine as black is the same: 0/14, our first move 6,5 in every game, where our 4 s search and
// Rapfi's 1 s search choose 9,8. Over the 336 games of this engine against strength 60 in
// sessions 48-49 (128/336, 38.1%), the openings by our colour, black / white, of 14 games each:
// G01 3 / 1.5, G02 7 / 10, G03 8 / 6, G04 7 / 2, G05 10.5 / 1, G06 0 / 5, G07 4.5 / 4, G08 13 / 14,
// G09 0 / 2, G10 5.5 / 5, G11 9.5 / 3, G12 1.5 / 5: the score is made by a few lines lost or won
// nearly every time. On 60 positions where we move in the first eight plies of those games, our
// 200 ms move agrees with our 4 s move 60-65% of the time (three runs), at 800 ms 78%; narrower
// or wider caps and earlier two-ply reductions at 200 ms 53-70%, all within that noise. More
// depth early in the game is what would pay, and the turn's 200 ms is a hard limit. The root VCT
// left out (no threes-and-fours search before the alpha-beta search, whose quarter of the turn
// goes to the search instead): 12.5/48 and 21/48 (34.9%) where this engine scored 22/48, 15.5/48
// and 17.5/48 (38.2%) beside it. Not kept.
//
// Session 50: what session 49 found (the first moves after the opening decide whole lines, and a
// long search chooses them better than the turn's 200 ms) is answered outside the search, by an
// opening book of the engine's own long searches after the Gomocup openings
// (`crate::book::GomokuBook`, built by `build-gomoku-book`; figures there): 46.4% of 192 games
// against strength 60 where this engine without it scored 36.5% of 336 in the same session.
// Session 51: the book's searches four times as long (16M nodes each) scored 57.1% of 288 against
// strength 60, where the 4M-node book scored 46.1% of 192 in the same session. The ladder with
// it (48 games each): strength 30 44/48, 40 45/48, 50 28/48; full strength 22/144 (15.3%).
// Session 52, against full strength (48 games a run, 200 ms a turn): this engine 9, 12, 9.5 and
// 6.5 of 48 (37/192; 59/336 with session 51's, 17.6%); the book one own ply deeper 8/48 and 8/48
// beside the first two (see `build-gomoku-book`); both engines on two threads (`INFO thread_num
// 2`, alone on the machine) 5.5/48, so Lazy SMP's gain against this engine does not show against
// Rapfi at full strength either. History as more than a tie-break in the move picker changes
// nothing to measure: `bench --game gomoku` at depth 7 searches 545,300-548,900 nodes whatever
// the weight (546,271 as shipped), since the capped candidate lists leave it little to reorder.
//
// Session 62 (a new machine, Rapfi 0.43 built again), 200 ms a turn, two 48-game runs side by
// side for each figure. With the newer classical model (`model220723.bin`): full strength 5/48
// and 8/48 (13/96, 13.5%), thinking 123-124 ms a move to Rapfi's 125-127; strength 60 18/48 and
// 18.5/48 (36.5/96, 38.0%). With `model210901.bin` (the model of sessions 48-61): strength 60
// 22/48 and 23/48 (45/96, 46.9%; Rapfi thinking 49 ms a move, this engine 113-120), full
// strength 3/48 and 6/48 (9/96, 9.4%).
//
// Session 63, the same engine against `model210901.bin`, the model Rapfi's example configuration
// names (its neural section dropped), 200 ms a turn, 48 games a run, two runs side by side: the
// ladder strength 30 45/48 (93.8%), 40 42/48 (87.5%), 50 30.5/48 (63.5%), 60 23.5/48 and 28.5/48
// (52/96, 54.2%; Rapfi thinking 52-60 ms a move, this engine 126-145), full strength 2.5/48
// (5.2%; 139 ms a move to Rapfi's 135). With session 62's runs, strength 60 97/192 (50.5%) and
// full strength 11.5/144 (8.0%). In eight games against full strength (all lost; the referee's
// `--games-out` record) each engine's think time falls to a few milliseconds, the game proven,
// within two of its moves of the other's, 3 to 8 moves before the five: the attack that
// decides was built before either search could prove it.
//
// Session 73, the same engine, 200 ms a turn: strength 60 20.5/48 and 23/48 (43.5/96, 45.3%;
// Rapfi thinking 84 ms a move, this engine 120-124), full strength 5.5/48 (11.5%; 131 ms a move
// to Rapfi's 134). By opening and our colour over the 96 games against strength 60 (four games
// each), only G01 and G08 as black and G11 as white scored nothing; with sessions 62-63 and 72,
// strength 60 stands at 163/336 (48.5%).
//
// Session 75, the engine with the quiescence search against full strength (200 ms a turn, 96
// games a run, two runs side by side): this engine 23.5/96 and 16/96 (with session 74's,
// 95/480, 19.8%). Not kept, each beside it: the root VCT on an eighth of the threat budget
// instead of a quarter 20/96; Rapfi's four-three defence (where the opponent has a four-three
// square, only the cells on its lines after which it has none, and our own fours) 21/96 and
// 15/96; a quiet four-three or three-three (the opponent can make no four) scored as a win in
// five plies instead of its weight 14.5/96 (sound: 703 such positions of random games, each
// proved by the threat search). The table move's singular extension (from six plies, margin 2 a
// ply) was built, not measured (session 38's 16.5/41).
//
// Session 76: the root's late moves reduced as any node's are ([`LMR`] and the rest; the generic
// root search tries every root move, 50 to 90 here since the root is not capped, at the full
// depth). On 94 positions of games against full-strength Rapfi, the depth a 200 ms turn reaches
// went from 10.15 to 10.99 on average (11.32 against 11.19 on 47 of them with a ply more for the
// 13th move on at six plies or more). Against full strength (96 games a run, 200 ms a turn, two
// runs side by side): 20.5/96 and 18.5/96, with the extra ply 22/96 and 16/96 (77/384, 20.1%),
// where this engine scored 14/96 beside the first (109/576, 18.9%, with sessions 74-75); the
// extra-ply variant against this engine 49.5/96. The depth it buys is worth what the root's late
// moves lose. Not kept.
//
// Session 78 (a new machine, Rapfi 0.43 classical built again with `model210901.bin`, its example
// configuration's neural section dropped), this engine unchanged, 200 ms a turn, the twelve
// Gomocup openings both ways: full strength 10.5/48 and 6/48 (16.5/96, 17.2%; openings 1-4, 7 and
// 12 lost in all eight games each, opening 5 5.5/8), thinking 124 ms a move to Rapfi's 130;
// strength 60 45.5/96 (47.4%), Rapfi thinking 70 ms a move, this engine 118.
//
// Session 79 (another new machine, Rapfi built again the same way), this engine unchanged: full
// strength 3/24 and 5/48 (8/72, 11.1%), thinking 130-140 ms a move to Rapfi's 129-140; strength
// 60 11/24, 21/48, 21/48 and 23/48 (76/168, 45.2%), thinking 106-119 ms a move to Rapfi's 52-64.
// Of this engine's 1,168 moves in the first 48 games against strength 60, 35% took under 20 ms
// (book moves, forced replies, proven wins) and 57% used the whole budget (174-177 ms of the
// 200 ms turn): the time a turn allows is already spent.
//
// Session 80: the open three answered at the horizon ([`EVASION_DEPTH`]). On 62 positions of
// games against full-strength Rapfi (200 ms a turn) the depth reached went from 9.0 to 8.7 on
// average (answering it at every quiescence ply: 7.7, and 37.5% in 48 games against strength
// 60). Against Rapfi, 200 ms a turn, the twelve Gomocup openings both ways, 48-game runs two
// at a time, each beside one of the engine without it: strength 60 99/192 (51.6%; 23.5, 23.5,
// 28.5, 23.5) where the engine without it scored 112.5/240 (46.9%; 24.5, 24, 22, 21, 21); full
// strength 63/288 (21.9%; 9.5, 11, 7, 10.5, 15, 10) where it scored 43/288 (14.9%; 6.5, 6, 7,
// 10, 6, 7.5): one standard error better against strength 60, two against full strength;
// thinking 104-113 ms a move against strength 60 (Rapfi 48-54) and 122-133 against full
// strength (Rapfi 124-137). Answering it one quiescence ply further as well (`EVASION_DEPTH`
// 2): 23.5/48 against strength 60 and 10/48 against full strength, no different; not kept.
// The committed build afterwards (48-game runs): strength 60 26.5/48, full strength 15/48 and
// 7/48, so 125.5/240 (52.3%) and 85/384 (22.1%) in all; the ladder strength 30 46/48, 40 41/48,
// 50 29.5/48; against the engine without it, both at 200 ms a turn, 28/48 (26-18-4).
//
// Session 81: the opponent's four-three answered at the horizon as its open three is (a throwaway
// switch: where the opponent has a square making a four and an open three, the leaf plays that
// square, the empty cells of the windows through it holding two or more of the opponent's stones
// and none of ours, and its own fours, instead of standing pat). Mean depth on the 62 positions
// 8.60 → 8.63, `bench --game gomoku` 9,564,396 nodes. Against full strength, 200 ms a turn:
// 24.5/96 and 20/96 (44.5/192, 23.2%), where this engine, run beside it, scored 9.5/48 and
// 26.5/96 (36/144, 25.0%); with the cells within four along the four's and the three's lines
// instead of the windows 8.5/48; with the opponent's three-three squares answered too 21/96
// (depth 8.47). Not kept: no gain that these games can show (one standard error of a 192-game
// score near 24% is about 3 points). Also not kept, one 96-game run each against full strength:
// [`SHALLOW_WIDTH`] 4 / 6 / 8 23/96, 6 / 8 / 10 14/96. This engine over the session's runs:
// 82.5/336 (24.6%; 9.5/48, 26.5/96, 26.5/96, 20/96), so 167.5/720 (23.3%) with session 80's.
//
// Session 82: the two incremental boards made faster, behaviour unchanged (`bench --game
// gomoku` 9,557,392 nodes and `selfplay --game gomoku --depth 8 --games 4` 34,261,792 before and
// after). `bench --game gomoku` is no guide to the match search: perf puts 82% of its time in the
// root threat search. Under perf on the 62 positions of games against full-strength Rapfi, 200 ms
// a turn (the search a match runs), the window board and the threat board took about 57% of the
// time. Kept: `place` takes a window's new counts from `change` instead of loading the pair back
// right after `change`'s one-byte store (the stalled load held 80% of `place`'s samples); the
// three-stone bits are touched only where a window's status can change; the baseline's cell
// values and points are kept only without a threat board; the threat board is brought to a
// node from the prefix of the path it is known to follow; cell classes come from a table built
// at compile time; the cell values are one table of (mover, opponent) pairs. On the 62
// positions: 1,086 kN/s before, 1,330-1,352 after; mean depth 8.69 → 8.97. Tried and not kept:
// the threat board's undo from compact records of the entries a play changed, the keys cleared
// by the undo (1,081 against 1,158 kN/s); the squares saved in a pass before the refreshes
// (1,192 against 1,271); the lines unrolled by a constant reach, the live-window tallies packed
// in one word, `wins` kept per node (each within 1%); double fours read from the threat board's
// summaries (1,254-1,267 against 1,325-1,338: futility then brings the threat board to interior
// nodes). Against Rapfi, 200 ms a turn, the twelve Gomocup openings both ways, 96-game runs two
// at a time: full strength 22.5, 19, 19.5, 25.5, 16.5, 16.5 and 19 of 96 (138.5/672, 20.6%;
// thinking 120-132 ms a move to Rapfi's 123-133), where the engine before these changes scored
// 23.5/96 in the last run beside it (and 167.5/720, 23.3%, in sessions 80-81): no gain these
// games can show, as sessions 40 and 46 found for more time. Strength 60 50/96 (52.1%; Rapfi 48
// ms a move, this engine 105). Against the engine before these changes, both at 200 ms a turn,
// 52/96 (48-40-8).
//
// Session 83, against full strength (200 ms a turn, the twelve Gomocup openings both ways, 96-game
// runs two at a time; a throwaway switch per variant, each the shipped engine but for it; mean
// depth on the 62 positions in brackets, 8.97 without). The shipped engine scored 22.5/96 and 21/96
// beside them (43.5/192, 22.7%). Not kept: PV nodes reduced a ply less than [`LMR`] says 18.5/96
// (8.58); PV nodes with twice the width caps 14.5/96 (8.63); no reduction for a move on a cell
// where the opponent's stone would make a three or more (a block of what Rapfi's slow attacks are
// built from) 22.5 and 22.5 of 96 (45/192, 23.4%; 8.34), with quiet moves only those that make less
// than a two for both sides ([`QUIET_CLASS`] 0) 24 and 20 (22.9%), [`QUIET_CLASS`] 0 alone 21.5/96
// (8.84); the move-order bonus near the opponent's last stone alone ([`RECENT_ORDER`]'s first term)
// 18.5/96. Kept: [`RECENT_ORDER`], the bonus near both of the last two stones (9.00, `bench --game
// gomoku` 9,594,394 nodes for 9,557,392): 25.5, 29, 20.5, 24.5, 23, 21.5, 26 and 20.5 of 96
// (190.5/768, 24.8%; thinking 115-130 ms a move to Rapfi's 121-132), where the engine without it
// scored 43.5/192 beside it and 349.5/1,584 (22.1%) over sessions 80-83: 2.7 points better, 1.4
// standard errors, so the gain is likely but not proven, and the issue's 25% is not reached.
// Strength 60 57/96 (59.4%; Rapfi 47 ms a move, this engine 103); against the engine without it,
// both at 200 ms a turn, 25/48 (23-21-4).
//
// Session 84, against full strength (200 ms a turn, the twelve Gomocup openings both ways, 96-game
// runs two at a time; a throwaway switch per variant, each the shipped engine but for it). The
// shipped engine scored 20, 18.5, 26.5, 26.5, 23.5 and 34 of 96 beside them, and 21 and 18 in two
// runs after them (188/768, 24.5%), so 378.5/1,536 (24.6%) over sessions 83-84: 37 of its 64 cycles
// of 24 games scored 6 or more, so a 24-game check lands on either side of the issue's 25%. A
// conditional logit of Rapfi's moves in 65,964 positions of sessions 80-83's referee records (the
// chosen cell against the other candidates; the shipped pattern order as one feature, the Chebyshev
// distance to each of the last four stones of the game as the others; a throwaway tool) puts the
// bonus near the opponent's last stone far above [`RECENT_ORDER`]'s: 135, 98 and 52 hundredths of a
// logit at distances one, two and three (the pattern order's own weight 100), 33, 22 and 19 near
// one's own last stone, 31 near each of the two before. Held out, it ranks Rapfi's move first 32.4%
// of the time (the pattern order alone 33.1%, with the shipped bonus 31.4%) and within the first
// twelve 85.1% (82.6%, 84.1%). With the cells that make at most a two for both sides
// ([`QUIET_CLASS`]) apart, the bonus near the opponent's last stone goes to the cells that make
// something (152, 118 and 70) and none to the quiet ones. Not kept: the fitted bonuses 19.5/96, and
// with the search's recent stones taken from the game as well where the path is shorter than two
// (the root and its replies) 16.5/96; the split bonuses with the game's stones 23.5, 23 and 17.5 of
// 96 (64/288, 22.2%, where the shipped engine scored 65/288 beside them); the game's stones alone
// 21.5/96, with the bonus graded by distance (half as much again within one cell, three quarters at
// two) 19/96; [`RECENT_ORDER`] half as large again (60 and 30) 25 and 17.5 of 96 (22.1%), half as
// large (20 and 10) 15/96; the table as large as `INFO max_memory` allows (`--hash 232`) 20.5 and
// 29 of 96 (49.5/192, 25.8%), no different. Ranking Rapfi's moves better is not what the search
// needs from its order, as session 46 found for the whole pattern order. Where the time goes (perf
// on the 62 positions, 1,285 kN/s): the threat board's refresh, play and undo 38%, the window
// board's undo and place 12%, `generate` 8%; the root VCT takes 5 ms of its 9 ms share on average
// (3 wins, 24 unknown, 35 no win). In runs that overlapped a build this engine's longest move was
// 205-225 ms; otherwise 181-195 ms.
//
// Session 85, against full strength (200 ms a turn, the twelve Gomocup openings both ways, 96-game
// runs two at a time; a throwaway switch per variant, each the shipped engine but for it; mean
// depth on the 62 positions in brackets, 8.69 without). The shipped engine scored 25.5 and 24 of 96
// beside them and 31 and 23.5 in two runs after them (104/384, 27.1%; 10 of its 16 cycles of 24
// games scored 6 or more), so 482.5/1,920 (25.1%, one standard error about 1.0) over sessions
// 83-85, 47 of 80 cycles at 6 or more: at the issue's 25%, not clearly above it. Not kept: no late
// move reduction for a move within one cell of the opponent's last stone (8.69; `bench --game
// gomoku` 9,792,599 nodes) 28.5, 25.5, 23, 25, 15.5 and 22 of 96 (139.5/576, 24.2%), and with a ply
// more for a move more than three cells from both last stones (8.90) 14.5/68, stopped; static
// futility to three plies from the horizon instead of [`FUTILITY_DEPTH`]'s five (8.31) 20/96; a
// node with up to three moves (the open three's few defences) extended a ply as the single move of
// a four's block is (8.74) 24/96; a pessimistic evaluation, the root opponent's live windows and
// cell values counted a quarter more wherever they stand (8.98) 8.5/55, stopped; three candidates
// more than [`width_at`] allows at the nodes where the root's opponent moves, so that the search
// looks at more of Rapfi's options than of its own (8.50) 27.5, 19.5 and 20 of 96 (67/288, 23.3%).
// Rapfi's own search, for scale: on a five-stone opening position at 1 s a turn, 902 kN/s (this
// engine 1,200-1,300 on the match positions) and depth 16 after 52 ms, 20 after 970 ms (875k
// nodes): a narrower tree, not a faster one. Like sessions 38-84's changes, each of these lands
// within a standard error of the shipped engine (about 4.4 points a 96-game run).
//
// Session 86, against full strength (200 ms a turn, the twelve Gomocup openings both ways, 96-game
// runs two at a time; a throwaway switch per variant, each the shipped engine but for it; mean
// depth on the 62 positions in brackets). Two of the larger gains Rapfi's source credits to its own
// search (its comments: about 50 Elo for the fail-high reduction, 52 for the singular extension),
// and its cut-node reduction, none in this engine before, built our way in the generic search (an
// expected-cut-node flag passed down as in Stockfish and Rapfi: a null-window search's child at
// full depth flips it, a reduced search's child is one). Rapfi's fail-high reduction: at a
// null-window cut node whose evaluation clears beta by 60 a ply (its 15 a ply at its 250 units a
// logit), every move but a four searched a ply shallower (9.60 against 8.73; `bench --game gomoku`
// 9,421,458 nodes) 22/96; with one ply more of late move reduction at cut nodes for a move that is
// neither the table move nor a killer (9.69) 17.5/96. A singular extension (the table move, a lower
// bound at most two plies shallower, searched a ply deeper when every other move fails low at half
// the depth against its score less a margin a ply; the node cut when that lowered bound still
// clears beta, the move a ply shallower when it does not but the table score does): from six plies,
// 10 a ply (7.90 against 8.61, both measured beside two matches; 9,761,975 nodes) 20.5/96; from
// eight plies, 10 a ply, 26 and 22.5 of 96 (48.5/192, 25.3%); 20 a ply 26 and 20.5 (46.5/192,
// 24.2%); 40 a ply 17.5/96. The table's `aging` policy instead of `two-tier` 26 and 20 of 96
// (46/192, 24.0%). The shipped engine beside and after them: 20.5, 28.5, 25.5 and 24 of 96
// (98.5/384, 25.7%; 11 of its 16 cycles of 24 games at 6 or more), so 581/2,304 (25.2%, one
// standard error about 0.9) over sessions 83-86, 58 of 96 cycles at 6 or more: still at the issue's
// 25%, not clearly above it. As with the depth bought by sessions 38-85's pruning, what these buy
// or spend in depth does not show against Rapfi.
//
// Session 87, where the games against full strength are lost, read by full-strength Rapfi (300 ms
// a position, a fresh board each; a throwaway script) at each of our turns in the 65 games of one
// of session 86's runs that the shipped engine did not win. Our move was Rapfi's own choice 49.9%
// of the time (943 of 1,889); where it was, Rapfi's score hardly moved by our next turn (0.1 of
// its units on average), where it was not, it fell by 42 on average. 62 times our move took the
// game from an open score to a proven loss (Rapfi's mate in 18 to 54 plies), 50 of them with a
// move Rapfi would not have played, 35 of those from a score above -500 and 21 above -250: most
// games end in one such collapse, not in a drift. Only once did we miss a proven win of our own
// (a mate in 27). Our threat search (`solve --game gomoku`, 1 s) proves the opponent's win after
// our move in 11 of those 35 positions, 10 of them within 0.18 s (20,000 to 280,000 threat
// nodes); the rest are wins with quiet moves in them, beyond a search of fours and threes. So a
// check of the chosen move was built (a throwaway switch): after each iteration whose best move is
// new, a VCT of the opponent after it (four threes, up to 60,000 nodes and 15% of the turn); a
// move proven lost leaves the root and the iteration is searched again without it (at most three
// a search). Sound where checked (six refutations, each a mate for the opponent by Rapfi), and on
// the 62 positions 18 refutations in 134 checks, 13% of the time, mean depth 8.66 against 8.74.
// Against full strength, 200 ms a turn, 96-game runs: 16 and 14 (30/192, 15.6%); checking only
// from depth 6, at most two a search, 17.5/96; the shipped engine beside and after them 22.5,
// 19.5 and 23 of 96 (65/288, 22.6%; 5 of its 12 cycles of 24 games at 6 or more). On the 62
// positions the check mostly refutes the early iterations' best moves, which the deeper ones
// drop anyway, and where it changed the final move Rapfi scored the change better twice and
// worse twice: the time and the searches redone cost more than the rare collapse it averts. Not
// kept. Also not kept (a throwaway constant in the generic search): Rapfi extends the reply to a
// four by 1.3 plies (its comments: about 77 Elo over none), where this engine gives a node with a
// single move one ply; in whole plies, every third such node on a path searched two plies deeper
// (mean depth on the 62 positions 8.40 against 8.74, `bench --game gomoku` 9,586,157 nodes) scored
// 25, 25.5 and 13.5 of 96 (64/288, 22.2%) beside the shipped engine's 22.6%; every second one
// (7.92) 15/96. Over sessions 83-87 the shipped engine stands at 646/2,592 (24.9%, one standard
// error about 0.9; 63 of 108 cycles at 6 or more): at the issue's 25%, not above it. The edge and
// corner openings G01 and G02 scored 0 of 24 this session, G05 with this engine as white 12 of 12.
//
// Session 88, against full strength (200 ms a turn, the twelve Gomocup openings both ways, 96-game
// runs two at a time; a throwaway switch per variant, each the shipped engine but for it; mean
// depth on the 62 positions in brackets, 8.69-8.84 without). Razoring into the quiescence search
// (Rapfi's step "razoring with VCF", about 68 Elo by its comments; session 49's razoring returned
// the evaluation or ran the leaf seam's VCF; session 74's, into this quiescence search at 200 a ply
// to three plies, scored 3.5/32): a null-window node one or two plies from the horizon, no threat
// to answer, whose evaluation plus 80 and 60 a ply stays below alpha returns the quiescence
// search's value where that fails low (9.13) 12.5/91, stopped. Rapfi's move-count gate (its caps
// halve where the side to move's static evaluation has not risen since two plies up): there the
// caps 3 / 4 / 5 near the horizon and 7 above (8.90) 21 and 25 of 96 (46/192, 24.0%). Soft caps
// (the moves past [`WIDTH`] kept up to 20 at four or more plies from the horizon, each reduced two
// plies more; 8.95) 19.5 and 14.5 of 96 (34/192, 17.7%). Rapfi's logarithmic late move reductions
// as a floor under [`LMR`]'s (a move reduced at least ln(depth)·ln(move number) plies, its own
// policy term left out; 9.84 against 8.82) 20.5 and 25 of 96 (45.5/192, 23.7%): a ply of depth
// bought by pruning, and again no gain. More time for this engine alone (its own `INFO
// timeout_turn`, Rapfi at 200 ms): 300 ms 25/96 (26.0%; 195 ms a move to Rapfi's 133), 400 ms 29/96
// (30.2%; 237 ms to 126): twice the time buys some five points, and so would the same tree searched
// twice as fast; a few percent of speed does not show (perf on the 62 positions: the threat board's
// refresh, play and undo 38% of the time, the window board's undo and place 12%, `generate` 5%;
// 1,260-1,300 kN/s, where Rapfi searches 900). Session 87's 35 collapses (our move, not Rapfi's
// choice, from a score above -500 to a Rapfi-proven loss), each searched again from a fresh engine:
// our 200 ms move is the game's in 23 of them, and full-strength Rapfi (300 ms) proves the
// opponent's win after it in 20 to 22 (three runs); after our 2 s move in 11, after 2 s with wider
// caps (8 / 10 / 14 near the horizon, 24 above) in 10; at 200 ms with those caps 15 and 16, with 24
// above only 17, with the wider caps near the horizon only 18, with the soft caps 17 (and 18 with
// 24 kept, three plies more), at 400 ms 21. Positions chosen for the shipped engine's mistakes
// reward any change that moves it elsewhere, and the soft caps' 17.7% shows this count does not
// rank engines. Without the opening book (`piskvork --no-book`, the shipped engine otherwise) 14.5
// and 15.5 of 96 (30/192, 15.6%): against full strength the book (`build-gomoku-book`) is worth
// some ten points, as it was against strength 60 in session 50. The shipped engine this session:
// 25.5, 24.5, 28, 25 and 23.5 of 96 (126.5/480, 26.4%; 14 of its 20 cycles of 24 games at 6 or
// more; thinking 121-127 ms a move to Rapfi's 126-131), so 772.5/3,072 (25.1%, one standard error
// about 0.8; 77 of 128 cycles at 6 or more) over sessions 83-88: at the issue's 25%, not clearly
// above it.
//
// Session 89 (a new machine, Rapfi 0.43.02 built again with `model210901.bin`, its example
// configuration's neural section dropped, one thread), against full strength (200 ms a turn, the
// twelve Gomocup openings both ways, 96-game runs two at a time). The engine of session 88: 22,
// 26, 21 and 20.5 of 96, and 20.5/96 as a throwaway build with its switches off (the way every
// variant runs, behind `env`), so 110/480 (22.9%; 9 of its 20 cycles of 24 games at 6 or more)
// on this machine. Not kept: two of Rapfi's reductions at PV nodes (its comments: about 32 and 26
// Elo), a PV node whose table move comes from a shallower search searched (depth − table depth)
// · 0.28 plies shallower, at most three, and the later moves of a PV node three to eleven plies
// from the horizon a ply shallower once one has raised alpha: 12/81 (14.8%), stopped. Kept: a
// book move's turn spent searching the position after it (`protocol::piskvork`), so that the
// first searched move after the book starts from a warm table: its depth went from 11.94 to 12.38
// on 53 such positions, and the games read 16.5, 26.5, 22.5, 21, 19, 22.5 and 26 of 96
// (154/672, 22.9%; 14 of 28 cycles at 6 or more; thinking 135-143 ms a move to Rapfi's
// 126-134), as the engine without it did beside it. It does not play the same lines: G05 as
// white scored 4/12 in its first three runs where the engine without it scored 12/12 (as in
// every game of sessions 83-87), G08 as white 8/12 where it scored 1/12, G06 as black 6/12
// against 2.5/12. A turn's few milliseconds decide which of Rapfi's near-equal replies comes, and
// the lines after it, so every change draws the lines it wins anew. Where in the game time pays
// (measurements with the look-ahead, not changes; Rapfi at 200 ms): the first four searched
// moves of a game given 1 s, five times the turn, 27 and 24.5 of 96 (51.5/192, 26.8%); the fifth
// to fourteenth searched moves given 352 ms (the budget of a 400 ms turn) 25.5/96 (26.6%); both
// some four points above the same engine at 200 ms, where twice the time on every move bought
// about five (session 88). Neither the first moves after the book (as the book one own ply deeper
// found in session 52) nor the middle game alone holds the gain.
//
// Session 90: book learning (`build-gomoku-book --learn`, figures there). Session 89's 1,521 games
// against full strength followed few lines after the book: the first position out of the book
// where the engine is to move was one of 81 in all of them (67 reached by three games or more,
// 1,443 games), the second one of 217. Searched as book moves (16M nodes each) and added round by
// round along the games that followed the book's replies, three rounds (182 positions; a
// throwaway script chose them): 29.5, 34.5, 23.5 and 23 of 96 (110.5/384, 28.8%). The shipped
// book, the same recipe in the tool on those games and these, four rounds (307 positions): 24.5,
// 29, 29.5, 27.5 and 32.5 of 96 (143/480, 29.8%; 15 of its 20 cycles of 24 games at 6 or more;
// thinking 131-136 ms a move to Rapfi's 126-132), where the engine without them scored 264/1,152
// (22.9%) on this machine in session 89. 191 of its first 192 games reached a learned position,
// 113 four of them. The learned lines are where full-strength Rapfi, nearly deterministic at 200
// ms, takes these openings: preparation against this opponent in these openings, more than
// strength; the search is unchanged. Against strength 60 (Rapfi picks among its best moves at
// random) 43 of 96 games reached a learned position, and the engine scored 49/96 (51.0%).
//
// Session 91 (Rapfi as in session 89; the twelve openings both ways, 96-game runs two at a time).
// The turn's length: with both sides at 100 ms the engine without learned lines (e6bfdc2) scored
// 26.5/96 (27.6%), at 200 ms 22.9% (session 89), at 300 ms 18/96 (18.8%, session 88's engine):
// Rapfi gains more from time than this engine does, some four points of the score per 100 ms.
// Session 90's book at 300 ms: 19/96 (19.8%), though 71 of the 96 games reached a learned
// position and 36 four of them: lines learned from games at 200 ms bought nothing at 300 ms,
// where Rapfi's replies after them differ. Learned further (two rounds on all 2,961 recorded
// games, among them the 1,056 of sessions 90 and 91, at 100 and 300 ms too; 267 positions more,
// 574 in all; see `build-gomoku-book`): at 200 ms 31.5, 29.5 and 30 of 96 (91/288, 31.6%), at 300
// ms 25.5 and 20 of 96 (45.5/192, 23.7%), against strength 60 54.5/96 (56.8%; 84 of the 96
// games through a learned position, 43 with session 90's book). The ladder with session 90's
// engine (48 games each, 200 ms): strength 30 48/48, 40 35/48, 50 30.5/48, 60 22/48. Against
// the engine at the issue's start (165db5e) through the referee, 200 ms a turn: 45/48 (93.8%);
// `bench --game gomoku` 14,381,967 nodes there, 9,594,394 now. Whether the twelve moves kept
// above the horizon ([`WIDTH`]) are what time cannot mend: 16 at 300 ms (a throwaway build with
// this book) 24.5 and 18 of 96 (42.5/192, 22.1%), against 12's 23.7%: no gain.
//
// Session 92 (Rapfi as in session 89; the twelve openings both ways, 96-game runs two at a time),
// the shipped engine (session 91's book) at other turn lengths: 150 ms 25/96 (26.0%), 250 ms
// 30/96 (31.3%), 300 ms 23/96 (68.5/288, 23.8%, with session 91's two runs); at 200 ms 31, 26
// and 26 of 96 (174/576, 30.2%, with session 91's three; 21 of 24 cycles of 24 games at 6 or more).
// The ladder with it (48 games each, 200 ms): strength 30 47/48, 40 43/48, 50 33/48, 60 29/48
// (83.5/144, 58.0%, with session 91's 96). Two more learning rounds on those games too (3,345
// recorded games, 211 positions more; a throwaway book): at 200 ms 26, 29.5 and 22 of 96
// (77.5/288, 26.9%), at 300 ms 24.5/96 (25.5%). Not kept: more lines, not more points.
//
// Session 93, a new machine (Rapfi 0.43 classical built again as in session 89; the build of
// 11cecc1, the twelve openings both ways, two runs at a time): the book learned on the old
// machine's games still holds. At 200 ms 26, 35.5, 29.5 and 34 of 96 (125/384, 32.6%; 13 of 16
// cycles of 24 games at 6 or more), thinking 134-137 ms a move to Rapfi's 131-134. The ladder
// (200 ms): strength 30 42/48, 40 42.5/48, 50 35.5/48, 60 56.5/96 (58.9%). Against the engine
// at the issue's start (165db5e), 200 ms a turn through the referee: 46/48 (46-2-0). At 300 ms
// against full strength: 24.5 and 25 of 96 (49.5/192, 25.8%; 23.8% on the old machine).

/// How far past the horizon the quiescence search follows fours ([`Board::quiescence_moves`]).
///
/// The quiescence search is Rapfi's "VCF at depth 0" in this engine's own terms: it runs in the
/// main search (its fours' blocks go through the table like any node), where the leaf VCF of
/// the threat seams ([`hooks`](super::threats::hooks), off) ran a separate threat searcher at
/// every leaf and cost four times the node time. Restricted to fours near the mover's last
/// stone, and past the first ply to fours that make more, it costs little: `bench --game
/// gomoku` 9,416,579 nodes where the engine without it searched 9,323,599, in the same time.
/// Measured (session 74, Rapfi 0.43 classical as in the notes above, 200 ms a turn, the twelve
/// Gomocup openings both ways, two runs side by side): against full strength 21/96, 21/96 and
/// 13/96 (55/288, 19.1%), where the engine without it scored 6.5/48, 10/96 and 11/96 (27.5/240,
/// 11.5%) in the same session, the gain spread over the openings rather than one line; against
/// strength 60 46/96 and 47.5/96 (93.5/192, 48.7%) where the engine without it scored 42/96
/// (43.8%); the ladder with it: strength 30 42/48, 40 38/48, 50 32/48. In self-play against the
/// engine without it 47/96 (44-46-6): the attacks it sees are the ones Rapfi builds, not the
/// ones the engine builds against itself. Measured and not kept, against full strength, 96
/// games each: every four near the last stone at every quiescence ply (cell class 8 up) 17/96;
/// no locality at the horizon's own ply 17/96; no late move reduction for a move that makes a
/// four 4.5/53 (stopped); razoring into the quiescence search (200 a ply, three plies) 3.5/32
/// (stopped).
pub const QUIESCENCE_DEPTH: i32 = 10;

/// Past the horizon's own ply, the least cell class of a four the quiescence search tries (a
/// four with a two or closed three, see [`pattern::cell_class`]).
pub const QUIESCENCE_CLASS: u8 = 9;

/// How far past the horizon the quiescence search answers the opponent's open three with the
/// forced defences instead of standing pat ([`Board::quiescence_evasions`]): at the horizon's
/// own ply only. Measured (session 80, Rapfi 0.43 classical, 200 ms a turn, the twelve Gomocup
/// openings both ways, each run beside the engine without it): see the session 80 notes above.
pub const EVASION_DEPTH: i32 = 1;

/// Fixed-effort threat search (no clock): continuous fours, this many nodes at most.
const VCF_NODES: u64 = 20_000;
/// With a clock: threes and fours, up to this many threes.
const VCT_THREES: u32 = 3;
const THREAT_DEPTH: u32 = 24;

impl super::Searchable for Gomoku {
    type Board = GomokuBoard;

    fn board(&self) -> GomokuBoard {
        GomokuBoard::new(self)
    }

    /// A win by continuous fours (and, with a clock, by threes and fours) found by the threat
    /// searcher of `crate::search::threats`; its wins are proofs.
    fn forced_win(&self, budget: Option<Duration>, stop: &AtomicBool) -> Option<Forced> {
        if self.outcome().is_some() || self.stones() < 6 {
            return None;
        }
        let mut ts = ThreatSearcher::new(16);
        let me = self.side_to_move();
        let vcf = ThreatLimits::vcf(THREAT_DEPTH).with_nodes(VCF_NODES);
        let mut found = ts.search(self, me, &vcf, stop);
        if found.status != Status::Win
            && let Some(t) = budget
        {
            // A quarter of the budget the search offers: the pattern-ordered alpha-beta search
            // makes better use of the rest (half against the full budget: 55.7% in 96 self-play
            // games; a quarter against half: 55.2% in 96, re-run 44.8% in 96 — not settled in
            // self-play; against Rapfi strength 60 27/96, 28.1%, where half scored 21.5/96,
            // 22.4%, in runs alternated in one session).
            let vct = ThreatLimits::vct(VCT_THREES, THREAT_DEPTH).with_time(t / 4);
            found = ts.search(self, me, &vct, stop);
        }
        let best = found.best()?;
        Some(Forced {
            best,
            line: found.line,
            nodes: ts.nodes(),
        })
    }
}

impl Board for GomokuBoard {
    const ASPIRATION: Option<i32> = None;
    const QUIESCENCE: bool = true;
    type Scratch = Option<Box<ThreatScratch>>;

    fn use_table(&mut self, table: &Arc<Table>) {
        self.table = Some(Arc::clone(table));
    }

    /// The threat seams' searcher keeps its table from one search to the next (consecutive
    /// positions of a game share most threat lines).
    fn attach_scratch(&mut self, scratch: Self::Scratch) {
        self.scratch = scratch;
    }

    fn detach_scratch(&mut self) -> Self::Scratch {
        self.scratch.take()
    }
    /// Another iteration while 15% of the time is left (the baseline keeps the default): an
    /// iteration cut short still plays the best move it found, and with 35% the engine thought
    /// only 95–125 ms of a 170 ms budget.
    fn next_iteration(&self) -> f64 {
        if self.threats.is_some() { 0.15 } else { 0.55 }
    }

    fn read_options(&mut self, options: &SearchOptions) {
        self.parts = options.threats;
    }

    fn enable_symmetry(&mut self) {
        let cells = &self.cells;
        self.sym = Some(Box::new(SymmetryTracker::from_cells(
            self.geo.size,
            self.keys,
            self.side == 1,
            |c| match cells[c] {
                1 => Cell::Black,
                2 => Cell::White,
                _ => Cell::Empty,
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

    fn play(&mut self, mv: Move) {
        let Some(c) = mv.cell() else { return };
        self.stack.push(Undo {
            fours: [self.fours[0].len() as u32, self.fours[1].len() as u32],
            winner: self.winner,
        });
        self.hash ^= self.keys.stones[c][self.side] ^ self.keys.side;
        if let Some(table) = self.table.as_deref().filter(|_| self.sym.is_none()) {
            // The table key is the hash without symmetry keys: warm the child's bucket while
            // the window counts are updated.
            table.prefetch(self.hash);
        }
        self.place(c, self.side);
        self.path.push(c as u16);
        if let Some(sym) = &mut self.sym {
            sym.push();
            sym.place(c, self.side);
            sym.toggle_side();
        }
        self.side ^= 1;
        self.stones += 1;
    }

    fn undo(&mut self, mv: Move) {
        let Some(c) = mv.cell() else { return };
        let Some(u) = self.stack.pop() else { return };
        self.side ^= 1;
        self.stones -= 1;
        self.remove(c, self.side);
        self.hash ^= self.keys.stones[c][self.side] ^ self.keys.side;
        self.path.pop();
        self.threat_synced = self.threat_synced.min(self.path.len());
        if let Some(sym) = &mut self.sym {
            sym.pop();
        }
        self.fours[0].truncate(u.fours[0] as usize);
        self.fours[1].truncate(u.fours[1] as usize);
        self.winner = u.winner;
    }

    fn is_legal(&mut self, mv: Move) -> bool {
        self.winner.is_none()
            && mv
                .cell()
                .is_some_and(|c| c < self.cells.len() && self.cells[c] == 0)
    }

    fn generate(&mut self, ply: usize, depth: i32, out: &mut Vec<Scored>) -> Gen {
        if self.winner.is_some() {
            // The side that just moved won.
            return Gen::Terminal(-(WIN - ply as i32));
        }
        if self.stones == self.cells.len() {
            return Gen::Terminal(0);
        }
        let size = self.geo.size;
        if self.stones == 0 {
            out.push(Scored {
                mv: Move::at((size / 2) * size + size / 2),
                score: 0,
            });
            return Gen::Moves;
        }
        let (me, them) = (self.side, 1 - self.side);
        let (mine, nm) = self.wins(me);
        if nm > 0 {
            return Gen::WinNow(Move::at(mine[0] as usize), WIN - ply as i32 - 1);
        }
        let (theirs, nt) = self.wins(them);
        if nt > 0 {
            // Forced: block (if there are two, the search sees the loss behind either).
            for &c in &theirs[..nt] {
                out.push(Scored {
                    mv: Move::at(c as usize),
                    score: 1,
                });
            }
            return Gen::Moves;
        }
        let forced = self.threats.is_some() && self.parts.defence && self.forced_defences();
        if forced {
            // The opponent threatens two five points: only these moves do not lose at once.
            out.extend(self.defences.iter().map(|&mv| Scored {
                mv,
                score: mv.cell().map_or(0, |c| {
                    let v = self.order_values(c);
                    v[me] + v[them] * 7 / 10
                }),
            }));
            return Gen::Moves;
        }
        let (attack, defend) = (&self.value[me], &self.value[them]);
        if self.threats.is_some() {
            // The line patterns of the threat board order the moves (see [`cell_order`]).
            self.threat_board();
            let t = self.threats.as_deref().expect("threat board");
            let order = eval::move_order();
            let recent = self.recent_stones();
            for c in 0..self.cells.len() {
                if self.near[c] != 0 && self.cells[c] == 0 {
                    out.push(Scored {
                        mv: Move::at(c),
                        score: cell_order(order, t, sides(me), c) + recent.bonus(c),
                    });
                }
            }
        } else {
            for c in 0..self.cells.len() {
                if self.near[c] != 0 && self.cells[c] == 0 {
                    out.push(Scored {
                        mv: Move::at(c),
                        score: attack[c] + defend[c] * 7 / 10,
                    });
                }
            }
        }
        // the baseline keeps its one width
        let width = if self.threats.is_some() {
            width_at(depth)
        } else {
            WIDTH
        };
        if ply > 0 && out.len() > width {
            out.select_nth_unstable_by_key(width - 1, |s| std::cmp::Reverse(s.score));
            out.truncate(width);
        }
        Gen::Moves
    }

    fn evaluate(&mut self, ply: usize) -> i32 {
        if self.winner.is_some() {
            return -(WIN - ply as i32);
        }
        let (me, them) = (self.side, 1 - self.side);
        if self.wins(me).1 > 0 {
            return WIN - ply as i32 - 1;
        }
        let them_fives = self.wins(them).1;
        if them_fives >= 2 {
            return -(WIN - ply as i32 - 2);
        }
        if self.threats.is_some() && them_fives == 0 && self.has_double_four(me) {
            // Two five points next move, and the opponent cannot make five in between.
            return WIN - ply as i32 - 3;
        }
        if self.threats.is_some() && self.parts.leaf {
            let mut scratch = self.scratch.take().unwrap_or_default();
            let win = self.threat_board().and_then(|t| scratch.leaf_win(t, ply));
            self.scratch = Some(scratch);
            if let Some(win) = win {
                return win;
            }
        }
        let v = if self.threats.is_some() {
            let combo = self.combination_feature(them_fives);
            self.fitted_score(combo)
        } else {
            self.points[me] * 5 / 4 - self.points[them]
        };
        v.clamp(-CAP, CAP)
    }

    /// A four of the opponent (one five point, none of ours) must be blocked at once: the
    /// static value of such a node counts the four as if it stood, so the block is searched.
    fn extend_leaf(&mut self) -> bool {
        if self.threats.is_none() || self.winner.is_some() || self.wins(self.side).1 > 0 {
            return false;
        }
        self.wins(1 - self.side).1 == 1
    }

    /// Fours of the side to move near its last stone (within two cells, or four along a line):
    /// at the horizon any such four, further out only fours that make more besides
    /// ([`QUIESCENCE_CLASS`]), at most [`QUIESCENCE_DEPTH`] past it; the reply is forced
    /// ([`Board::extend_leaf`]), so the search follows a continuous-four attack the static
    /// evaluation cannot see through. Never for the baseline engine.
    fn quiescence_moves(&mut self, depth: i32, out: &mut Vec<Scored>) -> bool {
        // The search asks only after the static evaluation: no winner, no five point of the
        // opponent's (one would have extended the leaf, two decided it).
        if self.threats.is_none() || !self.parts.quiescence || depth <= -QUIESCENCE_DEPTH {
            return false;
        }
        let me = self.side;
        let mut squares = std::mem::take(&mut self.quiet_scratch);
        squares.clear();
        self.for_each_three(me, |e, _| squares.push(e));
        squares.sort_unstable();
        squares.dedup();
        let size = self.geo.size as i32;
        let last = self.path.len().checked_sub(2).map(|i| self.path[i] as i32);
        squares.retain(|&e| {
            let Some(l) = last else { return true };
            let (dx, dy) = (
                (e as i32 % size - l % size).abs(),
                (e as i32 / size - l / size).abs(),
            );
            dx.max(dy) <= 2 || ((dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= 4)
        });
        let (sm, _) = sides(me);
        if let Some(t) = self.threat_board() {
            for &e in &squares {
                let class = pattern::cell_class(t.packed(t.sq_of(e as usize), sm));
                if depth == 0 || class >= QUIESCENCE_CLASS {
                    out.push(Scored {
                        mv: Move::at(e as usize),
                        score: class as i32,
                    });
                }
            }
        }
        self.quiet_scratch = squares;
        out.sort_unstable_by_key(|s| std::cmp::Reverse(s.score));
        !out.is_empty()
    }

    /// The opponent's open three at the horizon (a square where its stone makes two five
    /// points): the forced defences (`GomokuBoard::forced_defences`: those squares, the five
    /// points they would make, and the side to move's own fours), ordered by their patterns,
    /// instead of a stand-pat that scores the three as if it could be left alone.
    fn quiescence_evasions(&mut self, depth: i32, out: &mut Vec<Scored>) -> bool {
        if self.threats.is_none()
            || !self.parts.quiescence
            || !self.parts.defence
            || depth <= -EVASION_DEPTH
        {
            return false;
        }
        if !self.forced_defences() {
            return false;
        }
        self.threat_board();
        let Some(t) = self.threats.as_deref() else {
            return false;
        };
        let (order, roles) = (eval::move_order(), sides(self.side));
        out.extend(self.defences.iter().filter_map(|&mv| {
            Some(Scored {
                mv,
                score: cell_order(order, t, roles, mv.cell()?),
            })
        }));
        out.sort_unstable_by_key(|s| std::cmp::Reverse(s.score));
        !out.is_empty()
    }

    /// One ply by [`LMR`], two by [`LMR_TWO`], and one more for a quiet move ([`LMR_QUIET`]);
    /// none for the baseline engine (no exact answers).
    fn late_move_reduction(&mut self, i: usize, depth: i32, mv: Move) -> i32 {
        let from = |(first, min_depth): (usize, i32)| i >= first && depth >= min_depth;
        if self.threats.is_none() || !from(LMR) {
            return 0;
        }
        let r = if from(LMR_TWO) { 2 } else { 1 };
        if !from(LMR_QUIET) {
            return r;
        }
        let (me, Some(c)) = (self.side, mv.cell()) else {
            return r;
        };
        let Some(t) = self.threat_board() else {
            return r;
        };
        let (sm, st) = sides(me);
        let sq = t.sq_of(c);
        let quiet = pattern::cell_class(t.packed(sq, sm)) <= QUIET_CLASS
            && pattern::cell_class(t.packed(sq, st)) <= QUIET_CLASS;
        r + quiet as i32
    }

    /// [`FUTILITY`] per ply at nodes up to [`FUTILITY_DEPTH`] plies from the horizon, when the
    /// side to move has no threat to answer: the opponent has no five point, and no square where
    /// its stone makes two at once (an open four or a double four, e.g. from an open three).
    /// Never for the baseline engine.
    fn futility_margin(&mut self, depth: i32) -> Option<i32> {
        if self.threats.is_none()
            || !(1..=FUTILITY_DEPTH).contains(&depth)
            || self.winner.is_some()
            || self.wins(1 - self.side).1 > 0
            || self.has_double_four(1 - self.side)
        {
            return None;
        }
        Some(FUTILITY * depth)
    }

    fn disable_exact_answers(&mut self) {
        if self.threats.take().is_some() {
            // the baseline's cell values and points, which the threat board stood in for
            let values: Vec<[i32; 2]> = (0..self.cells.len())
                .map(|c| self.order_values(c))
                .collect();
            self.value = [0, 1].map(|s| values.iter().map(|v| v[s]).collect());
            self.points = [0, 1].map(|s| {
                self.counts
                    .iter()
                    .filter(|cnt| cnt[1 - s] == 0)
                    .map(|cnt| VALUE[cnt[s] as usize])
                    .sum()
            });
        }
    }

    /// The threat search against the opponent's threats at the root: replies that lose to a
    /// threat win are left out, a position where every reply loses is decided (see [`hooks`](super::threats::hooks)).
    fn root_hint(
        &mut self,
        candidates: &[Move],
        limits: &Limits,
        stop: &AtomicBool,
        nodes: &mut u64,
    ) -> RootHint {
        if self.winner.is_some() || !self.parts.root {
            return RootHint::None;
        }
        let mut scratch = self.scratch.take().unwrap_or_default();
        let hint = match self.threat_board() {
            Some(t) => scratch.root_hint(t, candidates, limits, stop, nodes),
            None => RootHint::None,
        };
        self.scratch = Some(scratch);
        hint
    }
}

/// The colour code of the board's cell array for a game cell.
#[cfg(test)]
fn code(c: Cell) -> u8 {
    match c {
        Cell::Empty => 0,
        Cell::Black => 1,
        Cell::White => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Searchable;
    use crate::search::threats::hooks;

    #[test]
    fn window_counts() {
        let g = geometry(15);
        assert_eq!(g.windows.len(), 2 * 15 * 11 + 2 * 11 * 11);
        // A centre cell lies in 5 windows per direction.
        let c = 7 * 15 + 7;
        assert_eq!(g.start[c + 1] - g.start[c], 20);
    }

    #[test]
    fn incremental_board_matches_a_fresh_one() {
        let mut g = Gomoku::default();
        let mut b = g.board();
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for step in 0..600 {
            let mut v = Vec::new();
            g.legal_moves(&mut v);
            if v.is_empty() || step % 90 == 89 {
                g = Gomoku::default();
                b = g.board();
                continue;
            }
            let mv = crate::search::test_pick(&mut rng, &v);
            g.play(mv);
            b.play(mv);
            if rng.is_multiple_of(5) {
                g.undo();
                b.undo(mv);
            }
            let fresh = g.board();
            assert_eq!(b.hash, g.hash());
            assert_eq!(b.live[0][1..], fresh.live[0][1..]);
            assert_eq!(b.live[1][1..], fresh.live[1][1..]);
            assert_eq!(b.counts, fresh.counts);
            assert_eq!(b.near, fresh.near);
            assert_eq!(b.winner.is_some(), g.outcome().is_some());
            assert_eq!(b.threes, fresh.threes);
            // the threat board follows, and the forced defences agree with its own account
            let mut fresh = fresh;
            let mut theirs = Vec::new();
            let forced = b.forced_defences();
            let mine = b.defences.clone();
            let over = b.winner.is_some();
            let (t, ft) = (b.threat_board().unwrap(), fresh.threat_board().unwrap());
            assert_eq!(t.hash(), g.hash());
            for c in 0..g.size() * g.size() {
                for side in [crate::game::Side::Black, crate::game::Side::White] {
                    assert_eq!(t.probe(t.sq_of(c), side), ft.probe(ft.sq_of(c), side));
                    assert_eq!(t.packed(t.sq_of(c), side), ft.packed(ft.sq_of(c), side));
                }
            }
            for side in [crate::game::Side::Black, crate::game::Side::White] {
                for as_mover in [true, false] {
                    assert_eq!(
                        t.pattern_eval(side, as_mover),
                        ft.pattern_eval(side, as_mover)
                    );
                }
            }
            if !over
                && t.probe_five(t.side()).is_none()
                && t.probe_five(t.side().opponent()).is_none()
            {
                assert_eq!(forced, hooks::forced_defences(t, &mut theirs));
                assert_eq!(mine, theirs);
            }
            let cells: Vec<u8> = g.cells().iter().map(|&c| code(c)).collect();
            assert_eq!(b.cells, cells);
            for s in 0..2 {
                let side = if s == 0 {
                    crate::game::Side::Black
                } else {
                    crate::game::Side::White
                };
                let (w, k) = b.wins(s);
                let (fw, fk) = fresh.wins(s);
                assert_eq!(k, fk);
                let mut g2 = g.clone();
                for &c in &w[..k] {
                    // Two cells are all the search needs; with more, either two may come first.
                    assert!(k == 2 || fw[..fk].contains(&c));
                    if g.outcome().is_none() {
                        assert!(g2.wins_at(c as usize, side));
                    }
                }
            }
        }
    }

    #[test]
    fn baseline_values_follow_moves_and_match_the_counted_ones() {
        // The baseline keeps its cell values and points incrementally; the engine counts the
        // values it needs from the windows. Both must agree with a board built afresh.
        let mut g = Gomoku::default();
        let mut baseline = g.board();
        baseline.disable_exact_answers();
        let mut engine = g.board();
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..120 {
            let mut v = Vec::new();
            g.legal_moves(&mut v);
            if v.is_empty() {
                break;
            }
            let mv = crate::search::test_pick(&mut rng, &v);
            g.play(mv);
            baseline.play(mv);
            engine.play(mv);
            if rng.is_multiple_of(4) {
                g.undo();
                baseline.undo(mv);
                engine.undo(mv);
            }
            let mut fresh = g.board();
            fresh.disable_exact_answers();
            assert_eq!(baseline.points, fresh.points);
            assert_eq!(baseline.value, fresh.value);
            for c in (0..g.size() * g.size()).filter(|&c| g.cells()[c] == Cell::Empty) {
                for s in 0..2 {
                    assert_eq!(engine.order_values(c)[s], fresh.value[s][c]);
                }
            }
        }
    }

    fn position(moves: &[&str]) -> Gomoku {
        let mut g = Gomoku::default();
        for m in moves {
            g.play_named(m).expect("legal");
        }
        g
    }

    #[test]
    fn open_three_of_the_side_to_move_is_a_win_in_three() {
        // Black to move with an open three (f8 g8 h8), white has nothing.
        let g = position(&["f8", "a1", "g8", "a3", "h8", "a5"]);
        let mut b = g.board();
        assert!(b.has_double_four(0));
        assert!(!b.has_double_four(1));
        assert_eq!(b.evaluate(4), WIN - 4 - 3);
        assert!(!b.extend_leaf());
        // The same stones with white to move: white must stop it, nothing is decided.
        let g = position(&["f8", "a1", "g8", "a3", "h8", "a5", "o15"]);
        let mut b = g.board();
        assert!(b.evaluate(4).abs() < CAP);
        // A closed three (blocked at e8) makes one five point only: no win.
        let g = position(&["f8", "e8", "g8", "a3", "h8", "a5"]);
        let mut b = g.board();
        assert!(!b.has_double_four(0));
        assert!(b.evaluate(4).abs() < CAP);
        // The baseline (no exact answers) keeps the plain evaluation.
        let g = position(&["f8", "a1", "g8", "a3", "h8", "a5"]);
        let mut b = g.board();
        b.disable_exact_answers();
        assert!(b.evaluate(4).abs() < CAP);
    }

    #[test]
    fn combinations_of_the_side_to_move() {
        // Row 8: d8 white, e8 f8 g8 black, so h8 makes a four (five point i8); column h: h9 h10
        // black with h7 and h11 empty, so h8 also makes an open three: a four-three square.
        // White's other stones are in the corners (no four for white).
        let g = position(&[
            "e8", "d8", "f8", "a1", "g8", "o1", "h9", "a15", "h10", "o15",
        ]);
        let mut b = g.board();
        assert_eq!(b.combinations(0), (true, false));
        assert!(!b.combinations(1).0);
        // Two open twos crossing at h8 (f8 g8 and h9 h10): a three-three square.
        let g = position(&["f8", "a1", "g8", "o1", "h9", "a15", "h10", "o15"]);
        let mut b = g.board();
        assert_eq!(b.combinations(0), (false, true));
        // Black to move, white has no four: the quiet three-three feature, in the evaluation.
        let f = b.eval_features().expect("an undecided position");
        assert_eq!(f[eval::THREE_THREE_QUIET], 1);
        assert_eq!(f[eval::FOUR_THREE_QUIET] + f[eval::FOUR_THREE_CONTESTED], 0);
        assert_eq!(b.evaluate(2), fitted(&f));
    }

    /// The fitted evaluation of a feature vector: the dot product with the built-in weights.
    fn fitted(f: &[i32; eval::FEATURES]) -> i32 {
        let w = eval::weights();
        let v: i32 = f.iter().zip(w).map(|(a, b)| a * b).sum();
        v.clamp(-CAP, CAP)
    }

    #[test]
    fn the_evaluation_is_the_features_dot_the_weights() {
        let mut g = Gomoku::default();
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        for step in 0..400 {
            let mut v = Vec::new();
            g.legal_moves(&mut v);
            if v.is_empty() || g.outcome().is_some() || step % 60 == 59 {
                g = Gomoku::default();
                continue;
            }
            // stay near the centre so that lines form
            let near: Vec<Move> = v
                .iter()
                .copied()
                .filter(|m| {
                    let c = m.cell().expect("a cell");
                    (c % 15).abs_diff(7) <= 3 && (c / 15).abs_diff(7) <= 3
                })
                .collect();
            let pool = if near.is_empty() { &v } else { &near };
            g.play(crate::search::test_pick(&mut rng, pool));
            let mut b = g.board();
            if let Some(f) = b.eval_features() {
                assert_eq!(b.evaluate(3), fitted(&f), "after {step} moves");
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn a_four_to_block_extends_the_horizon() {
        // White has four (a1..a4) and black nothing: black must block, so no static value.
        let g = position(&["h8", "a1", "j10", "a2", "o15", "a3", "o13", "a4"]);
        let mut b = g.board();
        assert!(b.extend_leaf());
        b.disable_exact_answers();
        assert!(!b.extend_leaf());
        // Without a four on the board, leaves are static.
        let g = position(&["h8", "a1", "j10", "a2"]);
        assert!(!g.board().extend_leaf());
    }

    #[test]
    fn an_open_three_at_the_horizon_is_answered_not_stood_on() {
        // White has an open three (c3 d4 e5) and black no four: black's answers are the two
        // open-four squares (b2, f6) and the five points they would make (a1, g7).
        let g = position(&["h8", "c3", "o1", "d4", "o15", "e5"]);
        let mut b = g.board();
        let mut out = Vec::new();
        assert!(b.quiescence_evasions(0, &mut out));
        let mut cells: Vec<String> = out.iter().map(|s| g.move_name(s.mv)).collect();
        cells.sort();
        assert_eq!(cells, ["a1", "b2", "f6", "g7"]);
        // Past the horizon's own ply, and without a threat, the node stands pat.
        out.clear();
        assert!(!b.quiescence_evasions(-EVASION_DEPTH, &mut out));
        assert!(out.is_empty());
        let g = position(&["h8", "a1", "j10", "a2"]);
        assert!(!g.board().quiescence_evasions(0, &mut out));
        // The baseline has no quiescence search.
        let g = position(&["h8", "c3", "o1", "d4", "o15", "e5"]);
        let mut b = g.board();
        b.disable_exact_answers();
        assert!(!b.quiescence_evasions(0, &mut out));
    }

    #[test]
    fn a_double_three_made_at_the_last_ply_is_seen_as_a_win() {
        // Black to move: h8 makes two open threes at once (f8 g8 h8 and h9 h10 h8 … with h7,
        // h11 open), white has no four. At depth 1 the reply is a leaf, where white must answer
        // one three and loses to the other: only the answers at the horizon prove it.
        let g = position(&["f8", "a1", "g8", "o1", "h9", "a15", "h10", "o15"]);
        let table = Arc::new(Table::new(1, crate::tt::Policy::TwoTier, 64));
        let mut s: crate::search::Searcher<Gomoku> = crate::search::Searcher::new(table);
        let stop = AtomicBool::new(false);
        let r = s.search(&g, &Limits::depth(1), &stop, &mut |_| {});
        assert!(r.score >= crate::search::WIN_BOUND, "{}", r.score);
    }

    #[test]
    fn futility_only_where_no_threat_must_be_answered() {
        // Quiet: margins near the horizon only.
        let g = position(&["h8", "a1", "j10", "a2"]);
        let mut b = g.board();
        assert_eq!(b.futility_margin(1), Some(FUTILITY));
        assert_eq!(b.futility_margin(FUTILITY_DEPTH + 1), None);
        assert_eq!(b.futility_margin(0), None);
        b.disable_exact_answers();
        assert_eq!(b.futility_margin(1), None);
        // White has four (a1..a4): black must block.
        let g = position(&["h8", "a1", "j10", "a2", "o15", "a3", "o13", "a4"]);
        assert_eq!(g.board().futility_margin(1), None);
        // White has an open three (c3 d4 e5): black must stop the open four it threatens.
        let g = position(&["h8", "c3", "o1", "d4", "o15", "e5"]);
        assert_eq!(g.board().futility_margin(1), None);
    }

    #[test]
    fn exact5_refuses_an_overline_win() {
        let mut g = Gomoku::new(15, Rule::Exact5, Keys::default_keys());
        // Black: a8 b8 c8 e8 f8 (d8 would make six), white elsewhere.
        for m in ["a8", "a1", "b8", "b1", "c8", "c1", "e8", "e1", "f8", "f2"] {
            g.play_named(m).expect("legal");
        }
        let b = g.board();
        assert_eq!(b.wins(0).1, 0);
        let mut g = Gomoku::default();
        for m in ["a8", "a1", "b8", "b1", "c8", "c1", "e8", "e1", "f8", "f2"] {
            g.play_named(m).expect("legal");
        }
        assert_eq!(g.board().wins(0), ([3 + 7 * 15, NO_CELL], 1));
    }
}
