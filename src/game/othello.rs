//! Othello on two 64-bit bitboards.
//!
//! Square `a1` is the top-left, bit 0; `h1` is bit 7; `a8` is bit 56 (index = row * 8 + col, rows
//! 1–8 top to bottom). Black moves first from the standard start (d4, e5 white; e4, d5 black). A
//! side with no move must pass (a pass is a move, [`Move::PASS`]); the game ends when neither side
//! can move.
//!
//! The bit kernel [`bitboard`] works on raw `(player, opponent)` bitboards ([`moves`], [`flips`],
//! [`final_score`], stability, parity); the rules here, perft, the midgame search and the exact
//! solver all call it. [`Othello`] wraps it with the side to move, the Zobrist hash and an undo
//! stack.

pub mod bitboard;

pub use bitboard::{final_score, flips, moves};

use crate::game::{Cell, Change, Game, GameKind, Move, MoveError, Outcome, Side};
use crate::zobrist::Keys;

/// The Zobrist hash after the side with index `side` (0 black, 1 white) places a disc on `sq`,
/// flipping the discs of `flipped`: the placement key, one flip key per flipped disc and the
/// side key XORed into `hash`. The one rule the game, `perft` and the search boards share.
#[inline]
pub fn hash_after_move(keys: &Keys, hash: u64, side: usize, sq: usize, flipped: u64) -> u64 {
    let mut h = hash ^ keys.side ^ keys.stones[sq][side];
    let mut bits = flipped;
    while bits != 0 {
        h ^= keys.flip[bits.trailing_zeros() as usize];
        bits &= bits - 1;
    }
    h
}

/// The square-by-square reference the kernel's tests check every version of [`flips`] and
/// [`moves`] against (test builds only).
#[cfg(test)]
pub(crate) mod reference {
    /// Columns b–g: masks opponents' discs for the six directions with a horizontal component, so
    /// shifts never wrap from one row's edge to the next.
    const NOT_EDGE: u64 = 0x7E7E_7E7E_7E7E_7E7E;

    /// (shift, mask) for the eight directions; positive shifts move towards h8.
    const DIRECTIONS: [(i32, u64); 8] = [
        (1, NOT_EDGE),
        (-1, NOT_EDGE),
        (8, u64::MAX),
        (-8, u64::MAX),
        (9, NOT_EDGE),
        (-9, NOT_EDGE),
        (7, NOT_EDGE),
        (-7, NOT_EDGE),
    ];

    #[inline(always)]
    fn shift(b: u64, by: i32) -> u64 {
        if by > 0 { b << by } else { b >> -by }
    }

    /// Reference flips by walking each direction one square at a time (the kernel's tests check
    /// every version of [`flips`] and [`moves`] against it).
    pub fn flips_slow(square: usize, player: u64, opponent: u64) -> u64 {
        let x = 1u64 << square;
        let mut flipped = 0;
        for &(d, mask) in &DIRECTIONS {
            let o = opponent & mask;
            let mut f = 0;
            let mut c = shift(x, d);
            while c & o != 0 {
                f |= c;
                c = shift(c, d);
            }
            if c & player != 0 {
                flipped |= f;
            }
        }
        flipped
    }
}

/// Convention-A perft on raw bitboards (a pass is a ply; a finished game is one leaf), with bulk
/// counting at the last ply.
///
/// On x86-64 CPUs with POPCNT/BMI/AVX2 (checked at run time) the same code is compiled a second
/// time with those instructions enabled: the baseline x86-64 target has no POPCNT, and a software
/// popcount at every last-ply node costs a third of the time.
pub fn perft(player: u64, opponent: u64, depth: u32, passed: bool) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("avx2")
    {
        // Safety: the CPU supports every feature `perft_x86` is compiled for (checked just above).
        return unsafe { perft_x86(player, opponent, depth, passed) };
    }
    perft_portable(player, opponent, depth, passed)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,lzcnt,avx2")]
fn perft_x86(player: u64, opponent: u64, depth: u32, passed: bool) -> u64 {
    perft_body!(perft_x86, player, opponent, depth, passed)
}

fn perft_portable(player: u64, opponent: u64, depth: u32, passed: bool) -> u64 {
    perft_body!(perft_portable, player, opponent, depth, passed)
}

/// The one perft recursion, instantiated per instruction set.
macro_rules! perft_body {
    ($recurse:ident, $player:expr, $opponent:expr, $depth:expr, $passed:expr) => {{
        let (player, opponent, depth, passed): (u64, u64, u32, bool) =
            ($player, $opponent, $depth, $passed);
        if depth == 0 {
            return 1;
        }
        let mut mv = moves(player, opponent);
        if mv == 0 {
            if passed {
                return 1;
            }
            return $recurse(opponent, player, depth - 1, true);
        }
        if depth == 1 {
            return mv.count_ones() as u64;
        }
        let mut total = 0;
        if depth == 2 {
            // The last two plies in place: a child without moves is one leaf (its pass, or the
            // end of the game).
            while mv != 0 {
                let sq = mv.trailing_zeros() as usize;
                mv &= mv - 1;
                let f = flips(sq, player, opponent);
                let n = moves(opponent ^ f, player | f | (1 << sq)).count_ones() as u64;
                total += n.max(1);
            }
            return total;
        }
        while mv != 0 {
            let sq = mv.trailing_zeros() as usize;
            mv &= mv - 1;
            let f = flips(sq, player, opponent);
            total += $recurse(opponent ^ f, player | f | (1 << sq), depth - 1, false);
        }
        total
    }};
}
use perft_body;

/// The standard start: (black, white).
pub const START_BLACK: u64 = (1 << 28) | (1 << 35); // e4, d5
pub const START_WHITE: u64 = (1 << 27) | (1 << 36); // d4, e5

#[derive(Clone, Copy, Debug)]
struct Saved {
    black: u64,
    white: u64,
    side: Side,
    hash: u64,
}

/// An Othello position with its hash and history.
#[derive(Clone, Debug)]
pub struct Othello {
    black: u64,
    white: u64,
    side: Side,
    hash: u64,
    keys: &'static Keys,
    history: Vec<Move>,
    saved: Vec<Saved>,
}

impl Default for Othello {
    fn default() -> Self {
        Self::new(Keys::default_keys())
    }
}

impl Othello {
    /// The standard start position.
    pub fn new(keys: &'static Keys) -> Othello {
        Self::from_bitboards(START_BLACK, START_WHITE, Side::Black, keys)
    }

    /// Any position (discs must not overlap; the caller checks).
    pub fn from_bitboards(black: u64, white: u64, side: Side, keys: &'static Keys) -> Othello {
        debug_assert_eq!(black & white, 0);
        let mut g = Othello {
            black,
            white,
            side,
            hash: 0,
            keys,
            history: Vec::new(),
            saved: Vec::new(),
        };
        g.hash = g.recompute_hash();
        g
    }

    pub fn black(&self) -> u64 {
        self.black
    }

    pub fn white(&self) -> u64 {
        self.white
    }

    /// (side to move's discs, opponent's discs).
    #[inline]
    pub fn player_opponent(&self) -> (u64, u64) {
        match self.side {
            Side::Black => (self.black, self.white),
            Side::White => (self.white, self.black),
        }
    }

    /// Legal squares of the side to move as a bitboard.
    #[inline]
    pub fn move_mask(&self) -> u64 {
        let (p, o) = self.player_opponent();
        moves(p, o)
    }

    pub fn empties(&self) -> u32 {
        64 - (self.black | self.white).count_ones()
    }

    /// Both sides have no move.
    pub fn is_over(&self) -> bool {
        let (p, o) = self.player_opponent();
        moves(p, o) == 0 && moves(o, p) == 0
    }

    /// Discs of the side to move minus the opponent's.
    pub fn disc_difference(&self) -> i32 {
        let (p, o) = self.player_opponent();
        p.count_ones() as i32 - o.count_ones() as i32
    }

    /// The final score under the usual rule that empties go to the winner.
    pub fn final_disc_difference(&self) -> i32 {
        let (p, o) = self.player_opponent();
        let (p, o) = (p.count_ones() as i32, o.count_ones() as i32);
        let empties = 64 - p - o;
        match p.cmp(&o) {
            std::cmp::Ordering::Greater => p - o + empties,
            std::cmp::Ordering::Less => p - o - empties,
            std::cmp::Ordering::Equal => 0,
        }
    }
}

impl Game for Othello {
    fn kind(&self) -> GameKind {
        GameKind::Othello
    }

    fn width(&self) -> usize {
        8
    }

    fn height(&self) -> usize {
        8
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn cell(&self, index: usize) -> Cell {
        let bit = 1u64 << index;
        if self.black & bit != 0 {
            Cell::Black
        } else if self.white & bit != 0 {
            Cell::White
        } else {
            Cell::Empty
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let (p, o) = self.player_opponent();
        let mut m = moves(p, o);
        if m == 0 {
            if moves(o, p) != 0 {
                out.push(Move::PASS);
            }
            return;
        }
        while m != 0 {
            out.push(Move::at(m.trailing_zeros() as usize));
            m &= m - 1;
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }

    fn check_move(&self, mv: Move) -> Result<(), MoveError> {
        let (p, o) = self.player_opponent();
        let mine = moves(p, o);
        if mine == 0 && moves(o, p) == 0 {
            return Err(MoveError::GameOver);
        }
        if mv.is_pass() {
            return if mine == 0 {
                Ok(())
            } else {
                Err(MoveError::PassNotAllowed)
            };
        }
        let Some(sq) = mv.cell().filter(|&c| c < 64) else {
            return Err(MoveError::Malformed("not a square of the board".into()));
        };
        if (p | o) & (1 << sq) != 0 {
            return Err(MoveError::Occupied);
        }
        if mine == 0 {
            return Err(MoveError::MustPass);
        }
        if mine & (1 << sq) == 0 {
            return Err(MoveError::NoFlips);
        }
        Ok(())
    }

    fn changes(&self, mv: Move) -> Vec<Change> {
        let Some(sq) = mv.cell() else {
            return Vec::new();
        };
        let (p, o) = self.player_opponent();
        let mine = self.side.stone();
        let theirs = self.side.opponent().stone();
        let mut out = vec![Change {
            cell: sq,
            from: Cell::Empty,
            to: mine,
        }];
        let mut f = flips(sq, p, o);
        while f != 0 {
            let c = f.trailing_zeros() as usize;
            f &= f - 1;
            out.push(Change {
                cell: c,
                from: theirs,
                to: mine,
            });
        }
        out
    }

    fn play(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?}");
        self.saved.push(Saved {
            black: self.black,
            white: self.white,
            side: self.side,
            hash: self.hash,
        });
        self.history.push(mv);
        if let Some(sq) = mv.cell() {
            let (p, o) = self.player_opponent();
            let f = flips(sq, p, o);
            self.hash = hash_after_move(self.keys, self.hash, self.side.index(), sq, f);
            let (np, no) = (p | (1u64 << sq) | f, o ^ f);
            match self.side {
                Side::Black => {
                    self.black = np;
                    self.white = no;
                }
                Side::White => {
                    self.white = np;
                    self.black = no;
                }
            }
        } else {
            // a pass toggles the side key alone
            self.hash ^= self.keys.side;
        }
        self.side = self.side.opponent();
    }

    fn undo(&mut self) -> Option<Move> {
        let s = self.saved.pop()?;
        self.black = s.black;
        self.white = s.white;
        self.side = s.side;
        self.hash = s.hash;
        self.history.pop()
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let b = self.black.count_ones();
        let w = self.white.count_ones();
        Some(match b.cmp(&w) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::Black),
            std::cmp::Ordering::Less => Outcome::Win(Side::White),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn keys(&self) -> &'static Keys {
        self.keys
    }

    fn history(&self) -> &[Move] {
        &self.history
    }

    fn move_name(&self, mv: Move) -> String {
        crate::game::notation::othello_move_name(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        crate::game::notation::parse_othello_move(text)
    }

    fn final_score(&self) -> i32 {
        if self.is_over() {
            self.final_disc_difference()
        } else {
            self.disc_difference()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_has_four_moves() {
        let g = Othello::default();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let names: Vec<_> = v.iter().map(|&m| g.move_name(m)).collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    }

    #[test]
    fn perft_small() {
        let counts: Vec<u64> = (1..=6)
            .map(|d| perft(START_BLACK, START_WHITE, d, false))
            .collect();
        assert_eq!(counts, [4, 12, 56, 244, 1396, 8200]);
    }
}
