//! Symmetry keys: the eight rotations and mirrors of a square board, hashed incrementally.
//!
//! Seed 004 asks whether rotated and mirrored positions should share one cache entry. They can:
//! for each of the eight transforms `t` of the square, keep `h_t = XOR K[t(c)][state(c)]` (plus the
//! side key), updated from the same [`Change`] list as the plain hash, and use the smallest `h_t` as
//! the table key. The transform that gave the smallest value maps the position to a *canonical*
//! orientation; a move stored under that key is mapped into the canonical orientation before it is
//! stored and back out of it when read ([`Game::move_to_tt`], [`Game::move_from_tt`]).
//!
//! [`Symmetric<G>`] wraps any square game and is itself a [`Game`] whose `tt_key` is the canonical
//! hash, so the searcher needs no change to use it. Its `hash` stays the plain Zobrist hash.

use crate::game::{Cell, Change, Game, GameKind, Move, MoveError, Outcome, Side};
use crate::zobrist::Keys;

/// The eight transforms of a square, as functions of (x, y) on an n×n board.
pub const TRANSFORM_NAMES: [&str; 8] = [
    "identity",
    "rotate 90°",
    "rotate 180°",
    "rotate 270°",
    "mirror left-right",
    "mirror top-bottom",
    "mirror main diagonal",
    "mirror anti-diagonal",
];

/// `map[t][cell]` = the cell that `cell` goes to under transform `t`, and the inverses.
#[derive(Clone, Debug)]
pub struct Transforms {
    pub size: usize,
    pub map: [Vec<u16>; 8],
    pub inverse: [Vec<u16>; 8],
}

impl Transforms {
    pub fn new(size: usize) -> Transforms {
        let n = size as i64 - 1;
        let f = |t: usize, x: i64, y: i64| -> (i64, i64) {
            match t {
                0 => (x, y),
                1 => (n - y, x),
                2 => (n - x, n - y),
                3 => (y, n - x),
                4 => (n - x, y),
                5 => (x, n - y),
                6 => (y, x),
                _ => (n - y, n - x),
            }
        };
        let cells = size * size;
        let mut map: [Vec<u16>; 8] = Default::default();
        let mut inverse: [Vec<u16>; 8] = Default::default();
        for (t, (fwd, inv)) in map.iter_mut().zip(inverse.iter_mut()).enumerate() {
            *fwd = vec![0; cells];
            *inv = vec![0; cells];
            for (c, to_slot) in fwd.iter_mut().enumerate() {
                let (x, y) = f(t, (c % size) as i64, (c / size) as i64);
                let to = (y as usize) * size + x as usize;
                *to_slot = to as u16;
                inv[to] = c as u16;
            }
        }
        Transforms { size, map, inverse }
    }

    /// The image of a move under transform `t` (passes map to themselves).
    pub fn apply(&self, t: usize, mv: Move) -> Move {
        match mv.cell() {
            Some(c) if c < self.map[t].len() => Move::at(self.map[t][c] as usize),
            _ => mv,
        }
    }

    /// The preimage of a move under transform `t`.
    pub fn unapply(&self, t: usize, mv: Move) -> Move {
        match mv.cell() {
            Some(c) if c < self.inverse[t].len() => Move::at(self.inverse[t][c] as usize),
            _ => mv,
        }
    }
}

/// The eight symmetric hashes of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymmetricHashes(pub [u64; 8]);

impl SymmetricHashes {
    /// From scratch.
    pub fn of<G: Game>(game: &G, transforms: &Transforms) -> SymmetricHashes {
        let keys = game.keys();
        let mut h = [0u64; 8];
        for c in 0..game.num_cells() {
            let state = game.cell(c);
            if state != Cell::Empty {
                for (t, ht) in h.iter_mut().enumerate() {
                    *ht ^= keys.stone(transforms.map[t][c] as usize, state);
                }
            }
        }
        if game.side_to_move() == Side::White {
            for ht in &mut h {
                *ht ^= keys.side;
            }
        }
        SymmetricHashes(h)
    }

    /// Apply one move's changes and the side toggle.
    pub fn apply(&mut self, keys: &Keys, transforms: &Transforms, changes: &[Change]) {
        for ch in changes {
            for t in 0..8 {
                self.0[t] ^= keys.transition(transforms.map[t][ch.cell] as usize, ch.from, ch.to);
            }
        }
        for ht in &mut self.0 {
            *ht ^= keys.side;
        }
    }

    /// The smallest hash and the transform that gives it.
    pub fn canonical(&self) -> (u64, usize) {
        let mut best = (self.0[0], 0);
        for t in 1..8 {
            if self.0[t] < best.0 {
                best = (self.0[t], t);
            }
        }
        best
    }
}

/// A square game whose table key is the smallest of its eight symmetric hashes.
#[derive(Clone, Debug)]
pub struct Symmetric<G: Game> {
    inner: G,
    transforms: std::sync::Arc<Transforms>,
    stack: Vec<SymmetricHashes>,
    current: SymmetricHashes,
}

impl<G: Game> Symmetric<G> {
    /// Wrap a game (its board must be square).
    pub fn new(inner: G) -> Symmetric<G> {
        assert_eq!(
            inner.width(),
            inner.height(),
            "symmetry keys need a square board"
        );
        let transforms = std::sync::Arc::new(Transforms::new(inner.width()));
        let current = SymmetricHashes::of(&inner, &transforms);
        Symmetric {
            inner,
            transforms,
            stack: Vec::new(),
            current,
        }
    }

    pub fn inner(&self) -> &G {
        &self.inner
    }

    pub fn into_inner(self) -> G {
        self.inner
    }

    /// The eight hashes.
    pub fn hashes(&self) -> &SymmetricHashes {
        &self.current
    }

    pub fn transforms(&self) -> &Transforms {
        &self.transforms
    }

    /// A stored move mapped back through every transform that reaches the canonical key: more
    /// than one when the position is itself symmetric (the start position has four).
    pub fn all_moves_from_tt(&self, mv: Move) -> Vec<Move> {
        let (min, _) = self.current.canonical();
        let mut out: Vec<Move> = (0..8)
            .filter(|&t| self.current.0[t] == min)
            .map(|t| self.transforms.unapply(t, mv))
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

impl<G: Game> Game for Symmetric<G> {
    fn kind(&self) -> GameKind {
        self.inner.kind()
    }
    fn width(&self) -> usize {
        self.inner.width()
    }
    fn height(&self) -> usize {
        self.inner.height()
    }
    fn side_to_move(&self) -> Side {
        self.inner.side_to_move()
    }
    fn cell(&self, index: usize) -> Cell {
        self.inner.cell(index)
    }
    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.inner.legal_moves(out)
    }
    fn is_legal(&self, mv: Move) -> bool {
        self.inner.is_legal(mv)
    }
    fn check_move(&self, mv: Move) -> Result<(), MoveError> {
        self.inner.check_move(mv)
    }
    fn changes(&self, mv: Move) -> Vec<Change> {
        self.inner.changes(mv)
    }
    fn play(&mut self, mv: Move) {
        let changes = self.inner.changes(mv);
        self.stack.push(self.current.clone());
        self.current
            .apply(self.inner.keys(), &self.transforms, &changes);
        self.inner.play(mv);
    }
    fn undo(&mut self) -> Option<Move> {
        let mv = self.inner.undo()?;
        if let Some(prev) = self.stack.pop() {
            self.current = prev;
        } else {
            self.current = SymmetricHashes::of(&self.inner, &self.transforms);
        }
        Some(mv)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.inner.outcome()
    }
    fn hash(&self) -> u64 {
        self.inner.hash()
    }
    fn keys(&self) -> &'static Keys {
        self.inner.keys()
    }
    fn history(&self) -> &[Move] {
        self.inner.history()
    }
    fn move_name(&self, mv: Move) -> String {
        self.inner.move_name(mv)
    }
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.inner.parse_move(text)
    }
    fn final_score(&self) -> i32 {
        self.inner.final_score()
    }
    fn tt_key(&self) -> u64 {
        self.current.canonical().0
    }
    fn move_to_tt(&self, mv: Move) -> Move {
        self.transforms.apply(self.current.canonical().1, mv)
    }
    fn move_from_tt(&self, mv: Move) -> Move {
        self.transforms.unapply(self.current.canonical().1, mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::gomoku::{Gomoku, Rule};
    use crate::game::othello::Othello;
    use crate::game::play_line;

    fn line(s: &str) -> Vec<String> {
        crate::game::notation::split_othello_transcript(s).unwrap()
    }

    #[test]
    fn transforms_are_permutations_with_inverses() {
        for size in [5, 8, 15] {
            let t = Transforms::new(size);
            for k in 0..8 {
                for c in 0..size * size {
                    let m = Move::at(c);
                    assert_eq!(t.unapply(k, t.apply(k, m)), m);
                }
            }
        }
    }

    #[test]
    fn the_four_othello_openings_share_one_key() {
        // f5, d3, c4, e6 are the four symmetric first moves
        let keys: Vec<u64> = ["f5", "d3", "c4", "e6"]
            .iter()
            .map(|m| {
                let mut g = Symmetric::new(Othello::default());
                play_line(&mut g, &line(m)).unwrap();
                g.tt_key()
            })
            .collect();
        assert!(keys.iter().all(|&k| k == keys[0]), "{keys:x?}");
        // while the plain hashes differ
        let mut a = Othello::default();
        let mut b = Othello::default();
        play_line(&mut a, &line("f5")).unwrap();
        play_line(&mut b, &line("d3")).unwrap();
        assert_ne!(a.hash(), b.hash());
    }

    #[test]
    fn a_move_maps_back_into_the_probing_orientation() {
        // store the reply d6 after f5, read it back after the symmetric opening e6 → expect f4 or
        // whatever square is the image of d6
        let mut a = Symmetric::new(Othello::default());
        play_line(&mut a, &line("f5")).unwrap();
        let stored = a.move_to_tt(a.parse_move("d6").unwrap());
        for first in ["d3", "c4", "e6"] {
            let mut b = Symmetric::new(Othello::default());
            play_line(&mut b, &line(first)).unwrap();
            let back = b.move_from_tt(stored);
            assert!(b.is_legal(back), "{first}: {}", b.move_name(back));
            // playing it reaches a position symmetric to f5d6
            let mut a2 = a.clone();
            a2.play(a.parse_move("d6").unwrap());
            b.play(back);
            assert_eq!(a2.tt_key(), b.tt_key());
        }
    }

    #[test]
    fn incremental_equals_scratch_and_undo_restores() {
        let mut g = Symmetric::new(Gomoku::new(9, Rule::Freestyle, Keys::default_keys()));
        let mut moves = Vec::new();
        for i in 0..30 {
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            g.play(moves[(i * 7919) % moves.len()]);
            assert_eq!(g.hashes(), &SymmetricHashes::of(g.inner(), g.transforms()));
        }
        while g.undo().is_some() {
            assert_eq!(g.hashes(), &SymmetricHashes::of(g.inner(), g.transforms()));
        }
    }
}

/// The eight symmetric hashes kept beside a search board's own hash, with an undo stack; the
/// search boards call [`SymmetryTracker::place`], [`SymmetryTracker::flip`] and
/// [`SymmetryTracker::toggle_side`] from their make/unmake when symmetry keys are on.
#[derive(Clone, Debug)]
pub struct SymmetryTracker {
    transforms: std::sync::Arc<Transforms>,
    keys: &'static Keys,
    current: [u64; 8],
    stack: Vec<[u64; 8]>,
}

impl SymmetryTracker {
    /// From a board given cell by cell (`cell(i)` for `i < size * size`).
    pub fn from_cells(
        size: usize,
        keys: &'static Keys,
        white_to_move: bool,
        cell: impl Fn(usize) -> Cell,
    ) -> SymmetryTracker {
        let transforms = std::sync::Arc::new(Transforms::new(size));
        let mut current = [0u64; 8];
        for c in 0..size * size {
            let state = cell(c);
            if state != Cell::Empty {
                for (t, h) in current.iter_mut().enumerate() {
                    *h ^= keys.stone(transforms.map[t][c] as usize, state);
                }
            }
        }
        if white_to_move {
            for h in &mut current {
                *h ^= keys.side;
            }
        }
        SymmetryTracker {
            transforms,
            keys,
            current,
            stack: Vec::with_capacity(128),
        }
    }

    /// Save the hashes before a move.
    #[inline]
    pub fn push(&mut self) {
        self.stack.push(self.current);
    }

    /// Restore the hashes of before the last move.
    #[inline]
    pub fn pop(&mut self) {
        if let Some(h) = self.stack.pop() {
            self.current = h;
        }
    }

    /// A stone of side `side_index` (0 black, 1 white) appears on `cell`.
    #[inline]
    pub fn place(&mut self, cell: usize, side_index: usize) {
        for t in 0..8 {
            self.current[t] ^= self.keys.stones[self.transforms.map[t][cell] as usize][side_index];
        }
    }

    /// The stone on `cell` changes colour (an Othello flip).
    #[inline]
    pub fn flip(&mut self, cell: usize) {
        for t in 0..8 {
            self.current[t] ^= self.keys.flip[self.transforms.map[t][cell] as usize];
        }
    }

    #[inline]
    pub fn toggle_side(&mut self) {
        for h in &mut self.current {
            *h ^= self.keys.side;
        }
    }

    fn canonical(&self) -> (u64, usize) {
        SymmetricHashes(self.current).canonical()
    }

    /// The smallest of the eight hashes: the table key.
    #[inline]
    pub fn key(&self) -> u64 {
        self.canonical().0
    }

    /// A move into the canonical orientation (before storing it).
    pub fn move_to_tt(&self, mv: Move) -> Move {
        self.transforms.apply(self.canonical().1, mv)
    }

    /// A stored move back into this orientation.
    pub fn move_from_tt(&self, mv: Move) -> Move {
        self.transforms.unapply(self.canonical().1, mv)
    }

    /// The eight hashes.
    pub fn hashes(&self) -> [u64; 8] {
        self.current
    }
}
