//! What the screen asks of the game being played, whichever game it is: an extension of
//! [`AnyGame`] so the panels need not repeat `with_game!` everywhere.

use crate::game::AnyGame;
use crate::game::{Cell, Game, GameKind, Move, Outcome, Side};
use crate::with_game;

pub trait AnyGameExt {
    fn kind(&self) -> GameKind;
    fn width(&self) -> usize;
    fn height(&self) -> usize;
    fn cell(&self, index: usize) -> Cell;
    fn side_to_move(&self) -> Side;
    fn hash(&self) -> u64;
    fn recompute_hash(&self) -> u64;
    fn history(&self) -> &[Move];
    fn name(&self, mv: Move) -> String;
    fn legal(&self) -> Vec<Move>;
    fn outcome(&self) -> Option<Outcome>;
    /// The cells of the winning row (Gomoku), empty otherwise.
    fn winning_line(&self) -> Vec<usize>;
    /// The last move that put a stone on the board (passes skipped).
    fn last_placement(&self) -> Option<usize>;
    /// Othello: the side to move has no move but the game goes on.
    fn must_pass(&self) -> bool;
    /// Stones of each colour: (black, white).
    fn stone_counts(&self) -> (usize, usize);
    /// A short description: `Othello`, `Gomoku 15×15 freestyle`.
    fn label(&self) -> String;
}

impl AnyGameExt for AnyGame {
    fn kind(&self) -> GameKind {
        with_game!(self, g => g.kind())
    }
    fn width(&self) -> usize {
        with_game!(self, g => g.width())
    }
    fn height(&self) -> usize {
        with_game!(self, g => g.height())
    }
    fn cell(&self, index: usize) -> Cell {
        with_game!(self, g => g.cell(index))
    }
    fn side_to_move(&self) -> Side {
        with_game!(self, g => g.side_to_move())
    }
    fn hash(&self) -> u64 {
        with_game!(self, g => g.hash())
    }
    fn recompute_hash(&self) -> u64 {
        with_game!(self, g => g.recompute_hash())
    }
    fn history(&self) -> &[Move] {
        with_game!(self, g => g.history())
    }
    fn name(&self, mv: Move) -> String {
        with_game!(self, g => g.move_name(mv))
    }
    fn legal(&self) -> Vec<Move> {
        let mut out = Vec::new();
        with_game!(self, g => g.legal_moves(&mut out));
        out
    }
    fn outcome(&self) -> Option<Outcome> {
        with_game!(self, g => g.outcome())
    }
    fn winning_line(&self) -> Vec<usize> {
        match self {
            AnyGame::Gomoku(g) => g.winning_line().map(<[usize]>::to_vec).unwrap_or_default(),
            AnyGame::Othello(_) => Vec::new(),
        }
    }
    fn last_placement(&self) -> Option<usize> {
        self.history().iter().rev().find_map(|m| m.cell())
    }
    fn must_pass(&self) -> bool {
        match self {
            AnyGame::Othello(g) => g.move_mask() == 0 && !g.is_over(),
            AnyGame::Gomoku(_) => false,
        }
    }
    fn stone_counts(&self) -> (usize, usize) {
        let n = self.width() * self.height();
        let black = (0..n).filter(|&i| self.cell(i) == Cell::Black).count();
        let white = (0..n).filter(|&i| self.cell(i) == Cell::White).count();
        (black, white)
    }
    fn label(&self) -> String {
        match self {
            AnyGame::Othello(_) => "Othello".to_string(),
            AnyGame::Gomoku(g) => format!("Gomoku {0}×{0} {1}", g.size(), g.rule().name()),
        }
    }
}

/// The glyph of a stone: `●` black, `○` white.
pub fn stone_glyph(side: Side) -> char {
    match side {
        Side::Black => '●',
        Side::White => '○',
    }
}

/// The glyph of a cell's state in an XOR term: `·` empty, `●` black, `○` white.
pub fn cell_glyph(c: Cell) -> &'static str {
    match c {
        Cell::Empty => "·",
        Cell::Black => "●",
        Cell::White => "○",
    }
}

/// How a finished game ended, in words: `● black wins 40–24`, `○ white wins: five in a row`.
pub fn outcome_text(game: &AnyGame) -> Option<String> {
    let outcome = game.outcome()?;
    let (b, w) = game.stone_counts();
    Some(match (game.kind(), outcome) {
        // One scoring rule everywhere (as GGF and NBoard): the empty squares go to the winner.
        (GameKind::Othello, Outcome::Win(s)) => {
            let (mine, theirs) = if s == Side::Black { (b, w) } else { (w, b) };
            let empties = 64usize.saturating_sub(b + w);
            let score = format!(
                "{} {} wins {}–{theirs}",
                stone_glyph(s),
                s.name(),
                mine + empties
            );
            if empties == 0 {
                score
            } else {
                format!("{score} ({mine}–{theirs} + {empties} empty to the winner)")
            }
        }
        (GameKind::Othello, Outcome::Draw) => {
            let half = 32usize.saturating_sub(b.max(w));
            format!("draw {}–{}", b + half, w + half)
        }
        (GameKind::Gomoku, Outcome::Win(s)) => {
            format!("{} {} wins: five in a row", stone_glyph(s), s.name())
        }
        (GameKind::Gomoku, Outcome::Draw) => "draw: the board is full".to_string(),
    })
}
