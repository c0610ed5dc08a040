//! Gomoku on an N×N board (15 by default, 5–25 accepted).
//!
//! Cell index = `y * size + x` with `(x, y)` the Piskvork coordinates (0-based, from the
//! top-left). In RIF notation columns are letters `a…` left to right and rows are numbered from the
//! bottom, so `h8` is the centre of a 15×15 board. Black moves first. Under [`Rule::Freestyle`]
//! five or more in a row wins; under [`Rule::Exact5`] exactly five wins and an overline does not.
//! A full board with no winner is a draw. Only the lines through the last move are examined.

use crate::game::{Cell, Change, Game, GameKind, Move, MoveError, Outcome, Side};
use crate::zobrist::{Keys, MAX_CELLS};

/// The board sizes accepted.
pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = 25;
pub const DEFAULT_SIZE: usize = 15;

/// Which rows of stones win.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// Five or more in a row wins.
    #[default]
    Freestyle,
    /// Exactly five in a row wins; six or more does not.
    Exact5,
}

impl Rule {
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Exact5 => "exact5",
        }
    }
}

/// The four line directions as (dx, dy).
pub const LINE_DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

#[derive(Clone, Debug)]
pub struct Gomoku {
    size: usize,
    rule: Rule,
    cells: Vec<Cell>,
    side: Side,
    hash: u64,
    keys: &'static Keys,
    history: Vec<Move>,
    /// Set when the last move made a winning row: the winner and the row's cells.
    win: Option<(Side, Vec<usize>)>,
}

impl Default for Gomoku {
    fn default() -> Self {
        Self::new(DEFAULT_SIZE, Rule::Freestyle, Keys::default_keys())
    }
}

impl Gomoku {
    /// An empty board. `size` must be in `MIN_SIZE..=MAX_SIZE` (checked by the caller; see
    /// [`Gomoku::try_new`]).
    pub fn new(size: usize, rule: Rule, keys: &'static Keys) -> Gomoku {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&size) && size * size <= MAX_CELLS);
        Gomoku {
            size,
            rule,
            cells: vec![Cell::Empty; size * size],
            side: Side::Black,
            hash: 0,
            keys,
            history: Vec::new(),
            win: None,
        }
    }

    /// An empty board, or a one-line error for a size out of range.
    pub fn try_new(size: usize, rule: Rule, keys: &'static Keys) -> Result<Gomoku, String> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(format!(
                "board size {size} out of range: {MIN_SIZE} to {MAX_SIZE}"
            ));
        }
        Ok(Self::new(size, rule, keys))
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The cells of the winning row, when the game was won.
    pub fn winning_line(&self) -> Option<&[usize]> {
        self.win.as_ref().map(|(_, line)| line.as_slice())
    }

    /// Stones on the board.
    pub fn stones(&self) -> usize {
        self.history.len()
    }

    /// The raw cells, row-major from the top-left.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    #[inline]
    pub fn index(&self, x: usize, y: usize) -> usize {
        y * self.size + x
    }

    /// Count stones of `stone` from `(x, y)` stepping `(dx, dy)`, not counting the start.
    #[inline]
    pub fn run_length(&self, x: usize, y: usize, dx: i32, dy: i32, stone: Cell) -> usize {
        let n = self.size as i32;
        let (mut cx, mut cy) = (x as i32 + dx, y as i32 + dy);
        let mut count = 0;
        while cx >= 0 && cy >= 0 && cx < n && cy < n && self.cells[(cy * n + cx) as usize] == stone
        {
            count += 1;
            cx += dx;
            cy += dy;
        }
        count
    }

    /// Whether a stone of `side` on `cell` (assumed there) completes a winning row; returns the row.
    pub fn winning_row_through(&self, cell: usize, side: Side) -> Option<Vec<usize>> {
        let (x, y) = (cell % self.size, cell / self.size);
        let stone = side.stone();
        for &(dx, dy) in &LINE_DIRECTIONS {
            let fwd = self.run_length(x, y, dx, dy, stone);
            let back = self.run_length(x, y, -dx, -dy, stone);
            let total = fwd + back + 1;
            let wins = match self.rule {
                Rule::Freestyle => total >= 5,
                Rule::Exact5 => total == 5,
            };
            if wins {
                let start = (x as i32 - back as i32 * dx, y as i32 - back as i32 * dy);
                return Some(
                    (0..total as i32)
                        .map(|i| {
                            ((start.1 + i * dy) * self.size as i32 + start.0 + i * dx) as usize
                        })
                        .collect(),
                );
            }
        }
        None
    }

    /// Whether placing a stone of `side` on the empty `cell` would win at once.
    pub fn wins_at(&mut self, cell: usize, side: Side) -> bool {
        debug_assert_eq!(self.cells[cell], Cell::Empty);
        self.cells[cell] = side.stone();
        let w = self.winning_row_through(cell, side).is_some();
        self.cells[cell] = Cell::Empty;
        w
    }
}

impl Game for Gomoku {
    fn kind(&self) -> GameKind {
        GameKind::Gomoku
    }

    fn width(&self) -> usize {
        self.size
    }

    fn height(&self) -> usize {
        self.size
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn cell(&self, index: usize) -> Cell {
        self.cells[index]
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        out.extend(
            self.cells
                .iter()
                .enumerate()
                .filter(|(_, c)| **c == Cell::Empty)
                .map(|(i, _)| Move::at(i)),
        );
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }

    fn check_move(&self, mv: Move) -> Result<(), MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let Some(c) = mv.cell().filter(|&c| c < self.cells.len()) else {
            return Err(MoveError::Malformed(if mv.is_pass() {
                "there is no pass in gomoku".into()
            } else {
                "not a cell of the board".into()
            }));
        };
        if self.cells[c] != Cell::Empty {
            return Err(MoveError::Occupied);
        }
        Ok(())
    }

    fn changes(&self, mv: Move) -> Vec<Change> {
        mv.cell()
            .map(|c| {
                vec![Change {
                    cell: c,
                    from: Cell::Empty,
                    to: self.side.stone(),
                }]
            })
            .unwrap_or_default()
    }

    fn play(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?}");
        let Some(c) = mv.cell() else { return };
        self.cells[c] = self.side.stone();
        self.hash ^= self.keys.stones[c][self.side.index()] ^ self.keys.side;
        self.history.push(mv);
        if let Some(line) = self.winning_row_through(c, self.side) {
            self.win = Some((self.side, line));
        }
        self.side = self.side.opponent();
    }

    fn undo(&mut self) -> Option<Move> {
        let mv = self.history.pop()?;
        let c = mv.cell().expect("gomoku history holds cells");
        self.side = self.side.opponent();
        self.cells[c] = Cell::Empty;
        self.hash ^= self.keys.stones[c][self.side.index()] ^ self.keys.side;
        self.win = None;
        Some(mv)
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some((side, _)) = &self.win {
            Some(Outcome::Win(*side))
        } else if self.history.len() == self.cells.len() {
            Some(Outcome::Draw)
        } else {
            None
        }
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
        crate::game::notation::rif_name(self.size, mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        crate::game::notation::parse_rif(self.size, text)
    }

    fn final_score(&self) -> i32 {
        match self.outcome() {
            Some(Outcome::Win(s)) if s == self.side => 1,
            Some(Outcome::Win(_)) => -1,
            _ => 0,
        }
    }
}
