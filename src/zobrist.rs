//! Zobrist keys, full hashes, and the XOR terms of one move.
//!
//! # What the keys are
//! One 64-bit key per (cell, stone colour) for up to [`MAX_CELLS`] cells (enough for a 25×25
//! Gomoku board; Othello uses the first 64), plus one side-to-move key that is XORed in when white
//! is to move. An empty cell contributes 0 — the 64-bit scheme folds seed 000's "empty" key into
//! the others, which changes no difference between two positions.
//!
//! For Othello, [`Keys::flip`] holds the precomputed `K[c][black] ^ K[c][white]` of seed 003, so a
//! flipped disc costs one XOR.
//!
//! # Where they come from
//! The keys are drawn from ChaCha20 (`rand_chacha::ChaCha20Rng::seed_from_u64(seed)`), whose
//! output is stable across crate versions, in this order: for each cell 0..MAX_CELLS, the black key
//! then the white key; then the side key. The default seed is [`DEFAULT_SEED`] (the ASCII bytes of
//! "XORBOARD"). So a given seed yields the same hashes on every machine and every release; the test
//! file `tests/zobrist.csv` pins them.
//!
//! # What a user may rely on
//! Equal positions (same stones, same side to move) hash equal whatever the move order. Different
//! positions may collide with probability about 2^-64 per pair; keys are public, so collisions can
//! be forged on purpose — never use these hashes for anything security-related.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

use crate::game::{Cell, Change};

/// Cells with keys: a 25×25 board.
pub const MAX_CELLS: usize = 625;

/// The default seed: `u64::from_be_bytes(*b"XORBOARD")`.
pub const DEFAULT_SEED: u64 = u64::from_be_bytes(*b"XORBOARD");

/// The keys of one seed.
#[derive(Debug)]
pub struct Keys {
    /// The seed they were drawn from.
    pub seed: u64,
    /// `stones[cell] = [black key, white key]`.
    pub stones: Vec<[u64; 2]>,
    /// `flip[cell] = black key ^ white key`.
    pub flip: Vec<u64>,
    /// XORed in when white is to move.
    pub side: u64,
}

static DEFAULT_KEYS: LazyLock<&'static Keys> =
    LazyLock::new(|| Box::leak(Box::new(Keys::generate(DEFAULT_SEED))));
static SEEDED: LazyLock<Mutex<HashMap<u64, &'static Keys>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

impl Keys {
    /// Draw the keys of a seed (see the module docs for the order).
    pub fn generate(seed: u64) -> Keys {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let mut stones = Vec::with_capacity(MAX_CELLS);
        for _ in 0..MAX_CELLS {
            let black = rand::Rng::next_u64(&mut rng);
            let white = rand::Rng::next_u64(&mut rng);
            stones.push([black, white]);
        }
        let side = rand::Rng::next_u64(&mut rng);
        let flip = stones.iter().map(|[b, w]| b ^ w).collect();
        Keys {
            seed,
            stones,
            flip,
            side,
        }
    }

    /// The keys of the default seed.
    pub fn default_keys() -> &'static Keys {
        &DEFAULT_KEYS
    }

    /// The keys of any seed, generated once per process and shared.
    pub fn for_seed(seed: u64) -> &'static Keys {
        if seed == DEFAULT_SEED {
            return Self::default_keys();
        }
        let mut map = SEEDED.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(seed)
            .or_insert_with(|| Box::leak(Box::new(Keys::generate(seed))))
    }

    /// The key of a cell state (0 for empty).
    #[inline]
    pub fn stone(&self, cell: usize, state: Cell) -> u64 {
        match state {
            Cell::Empty => 0,
            Cell::Black => self.stones[cell][0],
            Cell::White => self.stones[cell][1],
        }
    }

    /// The one term that takes `cell` from `from` to `to`.
    #[inline]
    pub fn transition(&self, cell: usize, from: Cell, to: Cell) -> u64 {
        self.stone(cell, from) ^ self.stone(cell, to)
    }
}

/// One XOR term of a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Term {
    pub cell: usize,
    #[serde(serialize_with = "ser_cell")]
    pub from: Cell,
    #[serde(serialize_with = "ser_cell")]
    pub to: Cell,
    /// The key XORed into the hash: `K[cell][from] ^ K[cell][to]` (a flip key for a flip).
    #[serde(serialize_with = "ser_hex")]
    pub key: u64,
}

fn ser_cell<S: serde::Serializer>(c: &Cell, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(c.name())
}

fn ser_hex<S: serde::Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&hex(*v))
}

/// `0x`-prefixed, 16 upper-case hex digits.
pub fn hex(v: u64) -> String {
    format!("0x{v:016X}")
}

/// Every XOR term of one move: the cell terms, the side key, and the hashes either side.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Delta {
    #[serde(serialize_with = "ser_hex")]
    pub before: u64,
    pub terms: Vec<Term>,
    #[serde(serialize_with = "ser_hex")]
    pub side_key: u64,
    #[serde(serialize_with = "ser_hex")]
    pub after: u64,
}

impl Delta {
    /// Build the delta of `changes` starting from hash `before`; `after` is the hash the game
    /// reported after playing, which must equal the XOR of everything here.
    pub fn new(keys: &Keys, before: u64, changes: &[Change], after: u64) -> Delta {
        let terms = changes
            .iter()
            .map(|c| Term {
                cell: c.cell,
                from: c.from,
                to: c.to,
                key: keys.transition(c.cell, c.from, c.to),
            })
            .collect();
        Delta {
            before,
            terms,
            side_key: keys.side,
            after,
        }
    }

    /// `before` XOR every term XOR the side key: must equal `after`.
    pub fn replay(&self) -> u64 {
        self.terms
            .iter()
            .fold(self.before ^ self.side_key, |h, t| h ^ t.key)
    }

    /// The bits of the hash this move flipped.
    pub fn flipped_bits(&self) -> u64 {
        self.before ^ self.after
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_stable_for_a_seed() {
        let a = Keys::generate(7);
        let b = Keys::generate(7);
        assert_eq!(a.stones, b.stones);
        assert_eq!(a.side, b.side);
        assert_ne!(Keys::generate(8).side, a.side);
    }

    #[test]
    fn flip_key_is_black_xor_white() {
        let k = Keys::default_keys();
        for c in 0..MAX_CELLS {
            assert_eq!(k.flip[c], k.transition(c, Cell::Black, Cell::White));
        }
    }
}
