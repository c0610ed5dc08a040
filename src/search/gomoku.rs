//! Gomoku for the generic search: line-pattern evaluation, candidate moves near the stones, and
//! the two forced rules — an immediate win is always taken, an immediate loss always blocked.
//!
//! Every window of five cells along a row, column or diagonal that holds stones of one colour
//! only is a potential five: it scores by how many stones it holds (one, two, three, four) for its
//! owner. Overlapping windows make open patterns worth more than closed ones (an open three lies
//! in two three-windows, a closed three in one). A window with four stones and one empty cell
//! marks that cell as a winning point. Empty cells collect ordering scores from the windows they
//! lie in — attack for the side to move, defence against the opponent — and the best-scored cells
//! within two of a stone are the candidate moves.

use std::cell::RefCell;
use std::sync::OnceLock;

use super::{Eval, Gen, Scored, WIN};
use crate::game::gomoku::{Gomoku, LINE_DIRECTIONS, MAX_SIZE};
use crate::game::{Cell, Game, Move, Outcome, Side};

/// Window values by stone count (0..=4 stones of one colour, none of the other).
const VALUE: [i32; 5] = [0, 1, 12, 110, 1200];
/// Ordering value of an empty cell in a window of the side to move / of the opponent.
const ATTACK: [i32; 5] = [0, 2, 14, 140, 0];
const DEFEND: [i32; 5] = [0, 1, 9, 100, 0];
/// Candidate moves kept below the root.
const WIDTH: usize = 18;
/// Heuristic scores are kept inside this bound (well below win scores).
const CAP: i32 = 20_000;

/// All lines of at least five cells of one board size.
struct Lines {
    lines: Vec<Vec<u16>>,
}

static LINES: [OnceLock<Lines>; MAX_SIZE + 1] = [const { OnceLock::new() }; MAX_SIZE + 1];

fn lines(size: usize) -> &'static Lines {
    LINES[size].get_or_init(|| {
        let n = size as i32;
        let mut lines = Vec::new();
        for &(dx, dy) in &LINE_DIRECTIONS {
            for y in 0..n {
                for x in 0..n {
                    let (px, py) = (x - dx, y - dy);
                    if px >= 0 && py >= 0 && px < n && py < n {
                        continue; // not the start of a line
                    }
                    let mut line = Vec::new();
                    let (mut cx, mut cy) = (x, y);
                    while cx >= 0 && cy >= 0 && cx < n && cy < n {
                        line.push((cy * n + cx) as u16);
                        cx += dx;
                        cy += dy;
                    }
                    if line.len() >= 5 {
                        lines.push(line);
                    }
                }
            }
        }
        Lines { lines }
    })
}

/// What one pass over all windows found.
#[derive(Default)]
struct Scan {
    /// Pattern points per side (black, white).
    points: [i32; 2],
    /// Up to two distinct winning cells per side, and how many distinct ones were seen.
    wins: [[u16; 2]; 2],
    win_count: [u8; 2],
}

impl Scan {
    fn add_win(&mut self, side: usize, cell: u16) {
        let n = self.win_count[side] as usize;
        if self.wins[side][..n.min(2)].contains(&cell) {
            return;
        }
        if n < 2 {
            self.wins[side][n] = cell;
        }
        self.win_count[side] = (n + 1).min(255) as u8;
    }
}

/// Scan every window; with `order`, also add ordering scores of empty cells for `stm`.
fn scan(cells: &[Cell], size: usize, stm: Side, mut order: Option<&mut [i32]>) -> Scan {
    let mut out = Scan::default();
    let me = stm.index();
    for line in &lines(size).lines {
        let colour = |i: usize| cells[line[i] as usize];
        let (mut nb, mut nw) = (0usize, 0usize);
        for i in 0..5 {
            match colour(i) {
                Cell::Black => nb += 1,
                Cell::White => nw += 1,
                Cell::Empty => {}
            }
        }
        let mut start = 0;
        loop {
            if (nb == 0) != (nw == 0) {
                let (side, k) = if nb > 0 { (0, nb) } else { (1, nw) };
                out.points[side] += VALUE[k];
                let window = &line[start..start + 5];
                if k == 4 {
                    for &c in window {
                        if cells[c as usize] == Cell::Empty {
                            out.add_win(side, c);
                        }
                    }
                } else if let Some(o) = order.as_deref_mut() {
                    let v = if side == me { ATTACK[k] } else { DEFEND[k] };
                    for &c in window {
                        if cells[c as usize] == Cell::Empty {
                            o[c as usize] += v;
                        }
                    }
                }
            }
            if start + 5 >= line.len() {
                break;
            }
            match colour(start) {
                Cell::Black => nb -= 1,
                Cell::White => nw -= 1,
                Cell::Empty => {}
            }
            match colour(start + 5) {
                Cell::Black => nb += 1,
                Cell::White => nw += 1,
                Cell::Empty => {}
            }
            start += 1;
        }
    }
    out
}

/// Winning cells of `side` found by the scan, checked against the rule (exactly-five boards can
/// refuse an overline).
fn real_wins(g: &mut Gomoku, s: &Scan, side: Side) -> ([u16; 2], usize) {
    let i = side.index();
    let n = (s.win_count[i] as usize).min(2);
    let mut out = [0u16; 2];
    let mut k = 0;
    for &c in &s.wins[i][..n] {
        if g.wins_at(c as usize, side) {
            out[k] = c;
            k += 1;
        }
    }
    // More than two distinct winning cells: at least two are real under freestyle.
    if s.win_count[i] > 2 && g.rule() == crate::game::gomoku::Rule::Freestyle {
        k = 2;
    }
    (out, k)
}

thread_local! {
    static ORDER: RefCell<Vec<i32>> = const { RefCell::new(Vec::new()) };
    static NEAR: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The terminal score of a finished game for the side to move, if it is finished.
fn terminal(g: &Gomoku, ply: usize) -> Option<i32> {
    match g.outcome()? {
        Outcome::Win(s) if s == g.side_to_move() => Some(WIN - ply as i32),
        Outcome::Win(_) => Some(-(WIN - ply as i32)),
        Outcome::Draw => Some(0),
    }
}

impl super::Searchable for Gomoku {
    const ASPIRATION: Option<i32> = None;

    fn generate(&mut self, ply: usize, _depth: i32, out: &mut Vec<Scored>) -> Gen {
        if let Some(s) = terminal(self, ply) {
            return Gen::Terminal(s);
        }
        let size = self.size();
        let stm = self.side_to_move();
        if self.stones() == 0 {
            out.push(Scored {
                mv: Move::at(self.index(size / 2, size / 2)),
                score: 0,
            });
            return Gen::Moves;
        }
        ORDER.with_borrow_mut(|order| {
            order.clear();
            order.resize(size * size, 0);
            let s = scan(self.cells(), size, stm, Some(order));
            let (mine, nm) = real_wins(self, &s, stm);
            if nm > 0 {
                return Gen::WinNow(Move::at(mine[0] as usize), WIN - ply as i32 - 1);
            }
            let (theirs, nt) = real_wins(self, &s, stm.opponent());
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
            NEAR.with_borrow_mut(|near| {
                near.clear();
                near.resize(size * size, 0);
                let n = size as i32;
                for mv in self.history() {
                    let Some(c) = mv.cell() else { continue };
                    let (x, y) = ((c % size) as i32, (c / size) as i32);
                    for yy in (y - 2).max(0)..=(y + 2).min(n - 1) {
                        for xx in (x - 2).max(0)..=(x + 2).min(n - 1) {
                            near[(yy * n + xx) as usize] = 1;
                        }
                    }
                }
                let cells = self.cells();
                for c in 0..size * size {
                    if near[c] != 0 && cells[c] == Cell::Empty {
                        out.push(Scored {
                            mv: Move::at(c),
                            score: order[c],
                        });
                    }
                }
            });
            if ply > 0 && out.len() > WIDTH {
                out.sort_unstable_by_key(|s| std::cmp::Reverse(s.score));
                out.truncate(WIDTH);
            }
            if out.is_empty() {
                // A full neighbourhood (tiny boards): any empty cell.
                for (c, cell) in self.cells().iter().enumerate() {
                    if *cell == Cell::Empty {
                        out.push(Scored {
                            mv: Move::at(c),
                            score: 0,
                        });
                    }
                }
            }
            Gen::Moves
        })
    }

    fn evaluate(&mut self, ply: usize) -> Eval {
        if let Some(s) = terminal(self, ply) {
            return Eval {
                score: s,
                exact: true,
            };
        }
        let stm = self.side_to_move();
        let s = scan(self.cells(), self.size(), stm, None);
        if real_wins(self, &s, stm).1 > 0 {
            return Eval {
                score: WIN - ply as i32 - 1,
                exact: true,
            };
        }
        if real_wins(self, &s, stm.opponent()).1 >= 2 {
            return Eval {
                score: -(WIN - ply as i32 - 2),
                exact: true,
            };
        }
        let me = s.points[stm.index()];
        let them = s.points[stm.opponent().index()];
        Eval {
            score: (me * 5 / 4 - them).clamp(-CAP, CAP),
            exact: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_counts_cover_every_window() {
        // 15×15: 15 rows + 15 columns + 2·11−1 diagonals each way of length ≥ 5.
        assert_eq!(lines(15).lines.len(), 15 + 15 + 21 + 21);
        let windows: usize = lines(15).lines.iter().map(|l| l.len() - 4).sum();
        assert_eq!(windows, 2 * 15 * 11 + 2 * 11 * 11);
    }
}
