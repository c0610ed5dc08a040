//! The threat search's working board: the Gomoku position on a grid padded with five wall cells on
//! every side, with the [line key](super::pattern) of every empty cell in the four directions kept
//! up to date on each move, so "what does a stone here do" is four table lookups.
//!
//! Each empty cell also keeps its four table entries for both colours (refreshed only along the
//! lines a move touches: one lookup per colour per touched cell) and a one-word summary, and each
//! colour has a bit set of the empty cells where its stone would make a five, a four or a three —
//! so finding every threat on the board walks those few cells instead of the whole board.
//! The same refresh keeps each empty cell's four line [levels](super::pattern::level) per colour,
//! packed, and per colour the sums of the cells' [fitted values](crate::search::gomoku::eval::CellValues)
//! as the side to move and as the opponent: the engine's move ordering and evaluation read them
//! (see [`GomokuBoard`](crate::search::gomoku::GomokuBoard)).
//!
//! The Zobrist hash is kept with the game's own keys and the same update rule as
//! [`Gomoku`] (stone key XOR side key per move), so a position reached
//! here hashes exactly as the game would hash it. [`ThreatBoard::pass`] toggles only the side key, which
//! lets the search ask "what if the side to move did nothing".

use super::pattern::{self, BLACK, FIVE, FIVE_POINTS, PatternTable, THREE, WALL, WHITE};
use crate::game::gomoku::{Gomoku, LINE_DIRECTIONS, Rule};
use crate::game::{Cell, Game, Move, Side};
use crate::search::gomoku::eval::CellValues;
use crate::zobrist::Keys;

/// Wall cells around the board: line keys reach five cells out.
const PAD: usize = 5;

/// A cell of the padded grid.
pub type Sq = u16;

#[derive(Clone)]
pub struct ThreatBoard {
    size: usize,
    stride: usize,
    rule: Rule,
    table: &'static PatternTable,
    cells: Vec<u8>,
    /// Per square: its line keys, table entries, summaries and packed levels, side by side (a
    /// move's refresh of a square reads and writes one place).
    sq: Vec<Square>,
    steps: [isize; 4],
    hash: u64,
    zobrist: &'static Keys,
    side: Side,
    /// Moves played on this board (not the game's history), with what undoing each restores.
    played: Vec<Played>,
    /// The squares each play refreshed or cleared, as they were before it (an undo copies them
    /// back instead of looking their entries up again).
    /// (Two vectors rather than one of pairs: perf showed 40% of `play`'s samples waiting on the
    /// copy of a pair built on the stack. Bench time did not change beyond its noise, 13.0 /
    /// 14.6 s before and 13.1 / 12.9 s after, so keep them only while a profile agrees.)
    saved: Vec<Square>,
    saved_at: Vec<Sq>,
    /// Bounding box of all stones: min x, min y, max x, max y (board coordinates).
    bbox: Option<[usize; 4]>,
    /// Per colour: bit `sq` set when its stone on the empty `sq` makes a five, four or three.
    threats: [Vec<u64>; 2],
    /// The fitted per-cell values of the evaluation, by role (side to move, opponent).
    values: &'static CellValues,
    /// Per colour and role: the sum of [`CellValues`] over the empty squares.
    eval: [[i32; 2]; 2],
}

/// One played stone and what its undo restores besides the saved squares.
#[derive(Clone)]
struct Played {
    sq: Sq,
    /// The bounding box, the evaluation sums and the saved squares' count before the play.
    bbox: Option<[usize; 4]>,
    eval: [[i32; 2]; 2],
    saved: usize,
}

/// What the board keeps per square.
#[derive(Clone, Copy, Default)]
struct Square {
    /// The line key in each direction ([`pattern`]); kept up to date on empty squares only.
    keys: [u32; 4],
    /// PatternTable entries per colour and direction (0 on stones and walls).
    entries: [[u16; 4]; 2],
    /// Per colour: the sum of the [`contribution`]s of its four entries.
    summary: [u16; 2],
    /// Per colour: the four line [`pattern::level`]s of its stone there, packed
    /// ([`pattern::Packed`]; 0 on stones and walls).
    packed: [pattern::Packed; 2],
}

impl ThreatBoard {
    /// The position of `game` (side to move, stones, hash).
    pub fn from_game(game: &Gomoku) -> ThreatBoard {
        let size = game.size();
        let stride = size + 2 * PAD;
        let steps = LINE_DIRECTIONS.map(|(dx, dy)| dy as isize * stride as isize + dx as isize);
        let mut cells = vec![WALL as u8; stride * stride];
        let mut bbox: Option<[usize; 4]> = None;
        for (i, c) in game.cells().iter().enumerate() {
            let (x, y) = (i % size, i / size);
            let p = (y + PAD) * stride + x + PAD;
            cells[p] = match c {
                Cell::Empty => 0,
                Cell::Black => BLACK as u8,
                Cell::White => WHITE as u8,
            };
            if *c != Cell::Empty {
                bbox = Some(grow(bbox, x, y));
            }
        }
        let mut sqs = vec![Square::default(); stride * stride];
        for y in 0..size {
            for x in 0..size {
                let p = (y + PAD) * stride + x + PAD;
                for (d, &step) in steps.iter().enumerate() {
                    let mut k = 0;
                    for off in (-5..=-1).chain(1..=5) {
                        let q = (p as isize + off as isize * step) as usize;
                        k |= (cells[q] as u32) << (2 * pattern::slot(off));
                    }
                    sqs[p].keys[d] = k;
                }
            }
        }
        let squares = stride * stride;
        let mut board = ThreatBoard {
            size,
            stride,
            rule: game.rule(),
            table: PatternTable::get(game.rule()),
            cells,
            sq: sqs,
            steps,
            hash: game.hash(),
            zobrist: game.keys(),
            side: game.side_to_move(),
            played: Vec::new(),
            saved: Vec::new(),
            saved_at: Vec::new(),
            bbox,
            threats: std::array::from_fn(|_| vec![0; squares.div_ceil(64)]),
            values: CellValues::built_in(),
            eval: [[0; 2]; 2],
        };
        for y in 0..size {
            for x in 0..size {
                let p = (y + PAD) * stride + x + PAD;
                if board.cells[p] == 0 {
                    for d in 0..4 {
                        board.refresh(p, d);
                    }
                }
            }
        }
        board
    }

    /// Recompute the cached entries of the empty square `p` in direction `d`, and its summaries.
    #[inline]
    fn refresh(&mut self, p: usize, d: usize) {
        let square = &mut self.sq[p];
        let both = self.table.lookup_both(square.keys[d]);
        for c in 0..2 {
            let e = (both >> (16 * c)) as u16;
            let old = square.entries[c][d];
            if e == old {
                continue;
            }
            square.entries[c][d] = e;
            let (lo, ln) = (old >> pattern::LEVEL_SHIFT, e >> pattern::LEVEL_SHIFT);
            if lo != ln {
                let was = square.packed[c];
                let now = was & !(7 << (3 * d)) | ln << (3 * d);
                square.packed[c] = now;
                let (before, after) = (self.values.roles(was), self.values.roles(now));
                for (sum, (a, b)) in self.eval[c].iter_mut().zip(after.iter().zip(before)) {
                    *sum += a - b;
                }
            }
            let v = square.summary[c] - contribution(old) + contribution(e);
            square.summary[c] = v;
            mark_threat(&mut self.threats[c], p, v != 0);
        }
    }

    /// Clear the caches of `p` (a stone was put there).
    #[inline]
    fn clear(&mut self, p: usize) {
        for c in 0..2 {
            let square = &mut self.sq[p];
            square.entries[c] = [0; 4];
            let values = self.values.roles(square.packed[c]);
            square.packed[c] = 0;
            square.summary[c] = 0;
            for (sum, v) in self.eval[c].iter_mut().zip(values) {
                *sum -= v;
            }
            mark_threat(&mut self.threats[c], p, false);
        }
    }

    /// Squares where a stone of either colour makes a five, a four or a three, in square order.
    pub fn threat_squares(&self, out: &mut Vec<Sq>) {
        out.clear();
        for (w, (a, b)) in self.threats[0].iter().zip(&self.threats[1]).enumerate() {
            let mut bits = a | b;
            while bits != 0 {
                out.push((w * 64 + bits.trailing_zeros() as usize) as Sq);
                bits &= bits - 1;
            }
        }
    }

    /// Call `f` with every square where a stone of `side` makes a five, a four or a three (in
    /// square order) and what it makes there.
    #[inline]
    pub fn for_each_threat_square(&self, side: Side, mut f: impl FnMut(Sq, Probe)) {
        let c = side.index();
        for (w, &word) in self.threats[c].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let p = w * 64 + bits.trailing_zeros() as usize;
                f(p as Sq, Probe::unpack(self.sq[p].summary[c]));
                bits &= bits - 1;
            }
        }
    }

    /// Squares where a stone of `side` makes a five, a four or a three, in square order.
    pub fn threat_squares_of(&self, side: Side, out: &mut Vec<Sq>) {
        out.clear();
        for (w, &word) in self.threats[side.index()].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                out.push((w * 64 + bits.trailing_zeros() as usize) as Sq);
                bits &= bits - 1;
            }
        }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    pub fn side(&self) -> Side {
        self.side
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The direction steps on the padded grid, in [`LINE_DIRECTIONS`] order.
    pub fn steps(&self) -> [isize; 4] {
        self.steps
    }

    /// The game's cell index of a padded square.
    #[inline]
    pub fn cell_of(&self, sq: Sq) -> usize {
        let (x, y) = (sq as usize % self.stride, sq as usize / self.stride);
        (y - PAD) * self.size + x - PAD
    }

    /// The padded square of a game cell.
    #[inline]
    pub fn sq_of(&self, cell: usize) -> Sq {
        let (x, y) = (cell % self.size, cell / self.size);
        ((y + PAD) * self.stride + x + PAD) as Sq
    }

    pub fn move_of(&self, sq: Sq) -> Move {
        Move::at(self.cell_of(sq))
    }

    #[inline]
    pub fn is_empty(&self, sq: Sq) -> bool {
        self.cells[sq as usize] == 0
    }

    /// Stones on the board.
    pub fn stones(&self) -> usize {
        self.cells
            .iter()
            .filter(|&&c| c == BLACK as u8 || c == WHITE as u8)
            .count()
    }

    /// Every empty square, in square order.
    pub fn empty_squares(&self, out: &mut Vec<Sq>) {
        out.clear();
        for y in 0..self.size {
            let row = (y + PAD) * self.stride + PAD;
            out.extend(
                (row..row + self.size)
                    .filter(|&p| self.cells[p] == 0)
                    .map(|p| p as Sq),
            );
        }
    }

    /// The `i`-th square played on this board since it was made from the game.
    pub fn played_at(&self, i: usize) -> Sq {
        self.played[i].sq
    }

    /// Stones played on this board since it was made from the game.
    pub fn played(&self) -> usize {
        self.played.len()
    }

    /// How far a stone's line keys reach: five cells for exact5 (overlines), four for freestyle
    /// (its table never reads the ±5 slots, so they are not kept up to date).
    #[inline]
    fn reach(&self) -> i32 {
        match self.rule {
            Rule::Freestyle => 4,
            Rule::Exact5 => 5,
        }
    }

    /// The side to move puts a stone on the empty `sq`.
    pub fn play(&mut self, sq: Sq) {
        debug_assert!(self.is_empty(sq));
        let code = match self.side {
            Side::Black => BLACK,
            Side::White => WHITE,
        };
        let p = sq as usize;
        let reach = self.reach();
        self.played.push(Played {
            sq,
            bbox: self.bbox,
            eval: self.eval,
            saved: self.saved.len(),
        });
        self.saved.push(self.sq[p]);
        self.saved_at.push(sq);
        self.cells[p] = code as u8;
        for (d, step) in self.steps.into_iter().enumerate() {
            for off in (-reach..=-1).chain(1..=reach) {
                // `p` sits at offset `off` of the cell `p - off * step`
                // Only empty squares' keys are read (by `refresh`): a stone's square keeps the
                // keys it had when it was played, which are right again when its undo comes (every
                // later play undone), so stones and walls are skipped here and in `undo`.
                let q = (p as isize - off as isize * step) as usize;
                if self.cells[q] == 0 {
                    self.saved.push(self.sq[q]);
                    self.saved_at.push(q as Sq);
                    self.sq[q].keys[d] |= code << (2 * pattern::slot(off));
                    self.refresh(q, d);
                }
            }
        }
        self.clear(p);
        let cell = self.cell_of(sq);
        self.hash ^= self.zobrist.stones[cell][self.side.index()] ^ self.zobrist.side;
        self.bbox = Some(grow(self.bbox, cell % self.size, cell / self.size));
        self.side = self.side.opponent();
    }

    /// Take back the last [`ThreatBoard::play`].
    pub fn undo(&mut self) {
        let Some(Played {
            sq,
            bbox,
            eval,
            saved,
        }) = self.played.pop()
        else {
            return;
        };
        self.side = self.side.opponent();
        let p = sq as usize;
        self.cells[p] = 0;
        // the empty squares the play refreshed, and its own, as they were
        for (&q, &square) in self.saved_at[saved..]
            .iter()
            .zip(&self.saved[saved..])
            .rev()
        {
            let q = q as usize;
            self.sq[q] = square;
            for c in 0..2 {
                mark_threat(&mut self.threats[c], q, square.summary[c] != 0);
            }
        }
        self.saved.truncate(saved);
        self.saved_at.truncate(saved);
        self.eval = eval;
        let cell = self.cell_of(sq);
        self.hash ^= self.zobrist.stones[cell][self.side.index()] ^ self.zobrist.side;
        self.bbox = bbox;
    }

    /// The side to move does nothing (only the side key changes). Call it again to undo it.
    pub fn pass(&mut self) {
        self.side = self.side.opponent();
        self.hash ^= self.zobrist.side;
    }

    /// The table entry of a stone of `side` on the empty `sq` along direction `d`.
    #[inline]
    pub fn entry(&self, sq: Sq, side: Side, d: usize) -> u16 {
        self.sq[sq as usize].entries[side.index()][d]
    }

    /// The four line levels of a stone of `side` on the empty `sq`, packed (0 on a stone).
    #[inline]
    pub fn packed(&self, sq: Sq, side: Side) -> pattern::Packed {
        self.sq[sq as usize].packed[side.index()]
    }

    /// The pattern evaluation of `side`'s empty cells: [`CellValues`] summed over the empty
    /// squares, with the side-to-move weights (`as_mover`) or the opponent's.
    #[inline]
    pub fn pattern_eval(&self, side: Side, as_mover: bool) -> i32 {
        self.eval[side.index()][usize::from(!as_mover)]
    }

    /// What a stone of `side` on the empty `sq` makes: summed over the four directions.
    #[inline]
    pub fn probe(&self, sq: Sq, side: Side) -> Probe {
        Probe::unpack(self.sq[sq as usize].summary[side.index()])
    }

    /// The five points a stone of `side` on `sq` would create (cells where the next stone wins).
    pub fn five_points_of(&self, sq: Sq, side: Side, out: &mut Vec<Sq>) {
        for d in 0..4 {
            let mask = self.entry(sq, side, d) & FIVE_POINTS;
            for j in 0..8 {
                if mask & (1 << j) != 0 {
                    let off = pattern::mask_offset(j) as isize;
                    out.push((sq as isize + off * self.steps[d]) as Sq);
                }
            }
        }
    }

    /// Empty squares within four lines of any stone (where threats can be); all squares on an
    /// empty board.
    pub fn region(&self, out: &mut Vec<Sq>) {
        out.clear();
        let n = self.size;
        let [x0, y0, x1, y1] = match self.bbox {
            Some([a, b, c, d]) => [
                a.saturating_sub(4),
                b.saturating_sub(4),
                (c + 4).min(n - 1),
                (d + 4).min(n - 1),
            ],
            None => [0, 0, n - 1, n - 1],
        };
        for y in y0..=y1 {
            let row = (y + PAD) * self.stride + PAD;
            for x in x0..=x1 {
                let p = row + x;
                if self.cells[p] == 0 {
                    out.push(p as Sq);
                }
            }
        }
    }

    /// Whether `side` has a move that makes a four (or five).
    pub fn has_four(&self, side: Side) -> bool {
        self.first_square(side, |p| p.five || p.five_points > 0)
            .is_some()
    }

    /// A five point of `side` (a square where its stone completes a winning row), if any.
    pub fn probe_five(&self, side: Side) -> Option<Sq> {
        self.first_square(side, |p| p.five)
    }

    fn first_square(&self, side: Side, want: impl Fn(Probe) -> bool) -> Option<Sq> {
        let c = side.index();
        for (w, &word) in self.threats[c].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let p = w * 64 + bits.trailing_zeros() as usize;
                if want(Probe::unpack(self.sq[p].summary[c])) {
                    return Some(p as Sq);
                }
                bits &= bits - 1;
            }
        }
        None
    }

    /// The stone on a padded square, as a game cell state.
    pub fn stone(&self, sq: Sq) -> Cell {
        match self.cells[sq as usize] as u32 {
            BLACK => Cell::Black,
            WHITE => Cell::White,
            _ => Cell::Empty,
        }
    }
}

/// What one stone would make, from [`ThreatBoard::probe`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Probe {
    /// It completes a winning row.
    pub five: bool,
    /// Five points it creates, over all directions (two or more: the opponent cannot stop five).
    pub five_points: u8,
    /// Directions in which it makes a four.
    pub four_lines: u8,
    /// Directions in which it makes a three.
    pub three_lines: u8,
}

/// What one direction's table entry adds to a square's summary, in fields that cannot overflow
/// when four are summed: bits 0–2 fives, 3–8 five points, 9–11 four lines, 12–14 three lines.
#[inline]
fn contribution(e: u16) -> u16 {
    let points = (e & FIVE_POINTS).count_ones() as u16;
    u16::from(e & FIVE != 0)
        | points << 3
        | u16::from(points > 0) << 9
        | u16::from(e & THREE != 0) << 12
}

impl Probe {
    #[inline]
    fn unpack(v: u16) -> Probe {
        Probe {
            five: v & 7 != 0,
            five_points: ((v >> 3) & 63) as u8,
            four_lines: ((v >> 9) & 7) as u8,
            three_lines: ((v >> 12) & 7) as u8,
        }
    }
}

/// Set or clear bit `p` of a colour's threat squares (set: a stone there makes a five, a four or
/// a three, i.e. its summary is not 0).
#[inline]
fn mark_threat(threats: &mut [u64], p: usize, on: bool) {
    let (w, b) = (p / 64, 1u64 << (p % 64));
    if on {
        threats[w] |= b;
    } else {
        threats[w] &= !b;
    }
}

fn grow(bbox: Option<[usize; 4]>, x: usize, y: usize) -> [usize; 4] {
    match bbox {
        None => [x, y, x, y],
        Some([a, b, c, d]) => [a.min(x), b.min(y), c.max(x), d.max(y)],
    }
}
