//! The rules shared by both games, behind one [`Game`] trait.
//!
//! Othello and Gomoku are both *placement* games: a move is a cell index (or [`Move::PASS`] in
//! Othello). What a move does to the board is a list of [`Change`]s `{ cell, from, to }`; the
//! Zobrist update, undo, and the XOR-delta panel of the UI all read that one list.
//!
//! Promises every implementation keeps:
//! - [`Game::hash`] is maintained incrementally and always equals [`Game::recompute_hash`];
//! - [`Game::undo`] restores the position *and* the hash exactly;
//! - [`Game::try_play`] never changes anything when it returns an error.

pub mod gomoku;
pub mod notation;
pub mod othello;
pub mod registry;
pub mod symmetry;

pub use registry::{AnyGame, GameKind, GameSpec};

use std::fmt;

use crate::zobrist::{Delta, Keys};

/// The two players. Black moves first in both games.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Black,
    White,
}

impl Side {
    /// The other side.
    #[inline]
    pub fn opponent(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    /// 0 for black, 1 for white (index into per-colour tables).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The stone this side places.
    #[inline]
    pub fn stone(self) -> Cell {
        match self {
            Side::Black => Cell::Black,
            Side::White => Cell::White,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Black => "black",
            Side::White => "white",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The state of one cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Cell {
    #[default]
    Empty,
    Black,
    White,
}

impl Cell {
    /// The side owning this stone, if any.
    pub fn side(self) -> Option<Side> {
        match self {
            Cell::Empty => None,
            Cell::Black => Some(Side::Black),
            Cell::White => Some(Side::White),
        }
    }

    /// A one-character picture used in text output: `.`, `x` (black), `o` (white).
    pub fn symbol(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Black => 'x',
            Cell::White => 'o',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Cell::Empty => "empty",
            Cell::Black => "black",
            Cell::White => "white",
        }
    }
}

/// A move: a cell index, or a pass. Fits in 16 bits so a TT entry can store it. Serialises as
/// its raw 16-bit number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Move(u16);

impl Move {
    /// Othello's pass.
    pub const PASS: Move = Move(0xFFFE);
    /// "No move" (an empty TT slot, a search that found nothing).
    pub const NONE: Move = Move(0xFFFF);

    #[inline]
    pub fn at(cell: usize) -> Move {
        debug_assert!(cell < 0xFFFE);
        Move(cell as u16)
    }

    /// The cell index, or `None` for a pass or no move.
    #[inline]
    pub fn cell(self) -> Option<usize> {
        if self.0 < 0xFFFE {
            Some(self.0 as usize)
        } else {
            None
        }
    }

    #[inline]
    pub fn is_pass(self) -> bool {
        self == Move::PASS
    }

    #[inline]
    pub fn is_none(self) -> bool {
        self == Move::NONE
    }

    /// The raw 16-bit encoding (for storage in the TT).
    #[inline]
    pub fn raw(self) -> u16 {
        self.0
    }

    #[inline]
    pub fn from_raw(raw: u16) -> Move {
        Move(raw)
    }
}

/// One cell changing state: what a move does, one entry per touched cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub cell: usize,
    pub from: Cell,
    pub to: Cell,
}

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Side),
    Draw,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(side) => write!(f, "{side} wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}

/// Why a move was refused. The position is unchanged whenever one of these is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a square of this board.
    Malformed(String),
    /// The square is taken.
    Occupied,
    /// Othello: the disc would flip nothing.
    NoFlips,
    /// Othello: a pass while a move exists.
    PassNotAllowed,
    /// Othello: a move was given where the side must pass.
    MustPass,
    /// The game is already over.
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(why) => f.write_str(why),
            MoveError::Occupied => f.write_str("square already occupied"),
            MoveError::NoFlips => f.write_str("flips no disc"),
            MoveError::PassNotAllowed => f.write_str("pass not allowed: a move exists"),
            MoveError::MustPass => f.write_str("no legal move: the side must pass"),
            MoveError::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for MoveError {}

/// A placement game with an incrementally kept Zobrist hash.
pub trait Game: Clone + Send + Sync + fmt::Debug + 'static {
    /// Which game this is.
    fn kind(&self) -> GameKind;
    /// Board width in cells.
    fn width(&self) -> usize;
    /// Board height in cells.
    fn height(&self) -> usize;
    /// Number of cells (`width * height`); cell indices are `row * width + col`, row 0 on top.
    fn num_cells(&self) -> usize {
        self.width() * self.height()
    }
    fn side_to_move(&self) -> Side;
    fn cell(&self, index: usize) -> Cell;
    /// All legal moves (Othello: `[PASS]` when the side must pass; empty when the game is over).
    fn legal_moves(&self, out: &mut Vec<Move>);
    fn is_legal(&self, mv: Move) -> bool;
    /// What `play(mv)` would change, in the order the hash applies it (placement first).
    fn changes(&self, mv: Move) -> Vec<Change>;
    /// Play a legal move (checked only in debug builds; use [`Game::try_play`] for input).
    fn play(&mut self, mv: Move);
    /// Take back the last move; returns it, or `None` at the start.
    fn undo(&mut self) -> Option<Move>;
    /// `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;
    /// The incremental Zobrist hash.
    fn hash(&self) -> u64;
    /// The Zobrist hash computed from scratch.
    fn recompute_hash(&self) -> u64 {
        let keys = self.keys();
        let mut h = 0;
        for c in 0..self.num_cells() {
            h ^= keys.stone(c, self.cell(c));
        }
        if self.side_to_move() == Side::White {
            h ^= keys.side;
        }
        h
    }
    fn keys(&self) -> &'static Keys;
    /// Moves played from the start position, in order.
    fn history(&self) -> &[Move];
    /// Plies played.
    fn ply(&self) -> usize {
        self.history().len()
    }
    fn last_move(&self) -> Option<Move> {
        self.history().last().copied()
    }
    /// The conventional name of a move (`f5`, `h8`, `pa`).
    fn move_name(&self, mv: Move) -> String;
    /// Parse a move name; never panics.
    fn parse_move(&self, text: &str) -> Result<Move, MoveError>;
    /// The final result from the side to move's point of view: Othello disc difference, Gomoku
    /// +1 / 0 / -1. Meaningful when the game is over; otherwise the current material balance.
    fn final_score(&self) -> i32;

    /// The key under which this position is stored in a transposition table. Normally the hash;
    /// [`symmetry::Symmetric`] returns the smallest of the eight symmetric hashes.
    fn tt_key(&self) -> u64 {
        self.hash()
    }

    /// Map a move of this position into the orientation its [`Game::tt_key`] stands for, before it
    /// is stored in a table (identity unless the key is symmetric).
    fn move_to_tt(&self, mv: Move) -> Move {
        mv
    }

    /// Map a move read from a table back into this position's orientation.
    fn move_from_tt(&self, mv: Move) -> Move {
        mv
    }

    /// Check and play a move, returning its XOR terms; changes nothing on error.
    fn try_play(&mut self, mv: Move) -> Result<Delta, MoveError> {
        self.check_move(mv)?;
        let before = self.hash();
        let changes = self.changes(mv);
        self.play(mv);
        Ok(Delta::new(self.keys(), before, &changes, self.hash()))
    }

    /// Why `mv` is not legal here, if it is not.
    fn check_move(&self, mv: Move) -> Result<(), MoveError>;

    /// Play a move given by name; changes nothing on error.
    fn play_named(&mut self, text: &str) -> Result<Delta, MoveError> {
        let mv = self.parse_move(text)?;
        self.try_play(mv)
    }

    /// The XOR terms of a move already played (the last one), for display.
    fn last_delta(&self) -> Option<Delta> {
        let mv = self.last_move()?;
        let mut before = self.clone();
        before.undo();
        let changes = before.changes(mv);
        Some(Delta::new(
            self.keys(),
            before.hash(),
            &changes,
            self.hash(),
        ))
    }
}

/// Play a list of named moves, stopping at the first bad one with an error like
/// `move 2 'f5': square already occupied`. On error the game is left as before the call.
pub fn play_line<G: Game>(game: &mut G, moves: &[String]) -> Result<Vec<Delta>, String> {
    let start_len = game.ply();
    let mut deltas = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        match game.play_named(text) {
            Ok(d) => deltas.push(d),
            Err(e) => {
                while game.ply() > start_len {
                    game.undo();
                }
                return Err(format!("move {} '{}': {}", i + 1, text, e));
            }
        }
    }
    Ok(deltas)
}
