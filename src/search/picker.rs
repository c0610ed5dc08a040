//! Move ordering for the alpha-beta search: a picker hands out a node's moves best first. The
//! table's move comes first, then the two killers of the ply, then the game's own ordering score
//! with the history score as a tie-break. Moves are picked one at a time (a selection-sort step
//! each), so a cutoff after the first few moves never pays for sorting the rest.

use super::Scored;
use crate::game::Move;

const ORDER_TT: i32 = i32::MAX;
const ORDER_KILLER: i32 = i32::MAX - 2;
/// The game's ordering scores are clamped to this size so that the history score below them
/// only breaks ties.
const GAME_SCORE_CAP: i32 = 1 << 14;
const GAME_SCORE_SHIFT: i32 = 65_536;

/// Hands out one node's moves best first.
pub struct MovePicker<'a> {
    list: &'a mut [Scored],
    next: usize,
}

impl<'a> MovePicker<'a> {
    /// Score `list` (the game's candidates with their own ordering scores) for picking: `tt_move`
    /// first, then `killers`, then by game score and `history` (indexed by cell, the side to
    /// move's row).
    pub fn new(
        list: &'a mut [Scored],
        tt_move: Move,
        killers: [Move; 2],
        history: &[i32],
    ) -> MovePicker<'a> {
        for s in list.iter_mut() {
            s.score = if s.mv == tt_move {
                ORDER_TT
            } else if s.mv == killers[0] {
                ORDER_KILLER
            } else if s.mv == killers[1] {
                ORDER_KILLER - 1
            } else {
                let h = s.mv.cell().map_or(0, |c| history[c]);
                s.score.clamp(-GAME_SCORE_CAP, GAME_SCORE_CAP) * GAME_SCORE_SHIFT + h
            };
        }
        MovePicker { list, next: 0 }
    }

    /// How many moves the node has.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether the node has no moves.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

impl Iterator for MovePicker<'_> {
    type Item = Move;

    /// The best move not yet handed out.
    fn next(&mut self) -> Option<Move> {
        let i = self.next;
        if i >= self.list.len() {
            return None;
        }
        let mut best = i;
        for j in i + 1..self.list.len() {
            if self.list[j].score > self.list[best].score {
                best = j;
            }
        }
        self.list.swap(i, best);
        self.next += 1;
        Some(self.list[i].mv)
    }
}
