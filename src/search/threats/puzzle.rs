//! Threat puzzles in the tactics text format: `# comment` lines, `key: value` header lines
//! (`mode`, `attacker`, `limit`, `threat_limit`, `tags`, `expect`, optionally `rule`), then
//! `board:` and the rows of the board printed top to bottom, cells `.`, `x`, `o` separated by
//! spaces.
//!
//! The symbols do not fix the colours: the `attacker` symbol is the side to move, so when both
//! have as many stones the attacker is black, and when the attacker has one stone fewer it is
//! white. The position is rebuilt as a real game by playing the stones alternately (black first),
//! so a solution line can be replayed after those moves. `expect` is one proven line in RIF
//! coordinates.

use crate::game::gomoku::{Gomoku, MAX_SIZE, MIN_SIZE, Rule};
use crate::game::notation::{parse_rif, rif_name};
use crate::game::{Cell, Game, Move, Side};
use crate::zobrist::Keys;

/// A parsed puzzle.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// The position, the attacker to move.
    pub game: Gomoku,
    pub attacker: Side,
    /// `mode:` as written (`vcf`, `vct_dfpns`, …), empty if absent.
    pub mode: String,
    /// `limit:` (attacker moves of the expected solution), if given.
    pub limit: Option<u32>,
    /// `threat_limit:` if given.
    pub threat_limit: Option<u32>,
    /// `expect:` — one proven line.
    pub expect: Vec<Move>,
    /// The moves that set up the position from the empty board, in RIF.
    pub setup: Vec<String>,
}

impl Puzzle {
    /// Whether the puzzle asks for continuous fours only.
    pub fn is_vcf(&self) -> bool {
        self.mode.eq_ignore_ascii_case("vcf")
    }
}

/// Parse a puzzle; errors are one line naming the problem.
pub fn parse(text: &str, keys: &'static Keys) -> Result<Puzzle, String> {
    let mut mode = String::new();
    let mut attacker_symbol = None;
    let mut limit = None;
    let mut threat_limit = None;
    let mut expect_text = String::new();
    let mut rule = Rule::Freestyle;
    let mut rows: Vec<Vec<char>> = Vec::new();
    let mut in_board = false;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if in_board {
            let row: Result<Vec<char>, String> = line
                .split_whitespace()
                .map(|t| match t {
                    "." | "x" | "o" => Ok(t.chars().next().unwrap_or('.')),
                    _ => Err(format!("line {}: '{t}' is not a cell (., x or o)", n + 1)),
                })
                .collect();
            rows.push(row?);
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            return Err(format!("line {}: expected 'key: value' or 'board:'", n + 1));
        };
        let value = value.trim();
        let number = |v: &str| {
            v.parse::<u32>()
                .map_err(|_| format!("line {}: '{v}' is not a number", n + 1))
        };
        match key.trim() {
            "board" => in_board = true,
            "mode" => mode = value.to_string(),
            "attacker" => match value {
                "x" | "o" => attacker_symbol = value.chars().next(),
                _ => {
                    return Err(format!(
                        "line {}: attacker must be x or o, not '{value}'",
                        n + 1
                    ));
                }
            },
            "limit" => limit = Some(number(value)?),
            "threat_limit" => threat_limit = Some(number(value)?),
            "expect" => expect_text = value.to_string(),
            "rule" => {
                rule = match value {
                    "freestyle" => Rule::Freestyle,
                    "exact5" => Rule::Exact5,
                    _ => return Err(format!("line {}: rule must be freestyle or exact5", n + 1)),
                }
            }
            _ => {} // tags and unknown keys are informational
        }
    }
    let attacker_symbol = attacker_symbol.ok_or("the puzzle has no 'attacker:' line")?;
    let size = rows.len();
    if size == 0 {
        return Err("the puzzle has no board".into());
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(format!(
            "board of {size} rows: the size must be {MIN_SIZE} to {MAX_SIZE}"
        ));
    }
    if let Some((i, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != size) {
        return Err(format!(
            "board row {} has {} cells, expected {size}",
            i + 1,
            r.len()
        ));
    }
    let defender_symbol = if attacker_symbol == 'x' { 'o' } else { 'x' };
    let cells_of = |sym: char| -> Vec<usize> {
        (0..size * size)
            .filter(|&i| rows[i / size][i % size] == sym)
            .collect()
    };
    let attack_cells = cells_of(attacker_symbol);
    let defend_cells = cells_of(defender_symbol);
    let attacker = if attack_cells.len() == defend_cells.len() {
        Side::Black
    } else if attack_cells.len() + 1 == defend_cells.len() {
        Side::White
    } else {
        return Err(format!(
            "the attacker '{attacker_symbol}' has {} stones and the defender {}: the attacker must be to move",
            attack_cells.len(),
            defend_cells.len()
        ));
    };
    let (black, white) = match attacker {
        Side::Black => (attack_cells, defend_cells),
        Side::White => (defend_cells, attack_cells),
    };
    let mut game = Gomoku::try_new(size, rule, keys)?;
    let mut setup = Vec::with_capacity(black.len() + white.len());
    for (i, &b) in black.iter().enumerate() {
        for cell in std::iter::once(b).chain(white.get(i).copied()) {
            let mv = Move::at(cell);
            setup.push(rif_name(size, mv));
            game.try_play(mv)
                .map_err(|e| format!("setting up the board at {}: {e}", rif_name(size, mv)))?;
        }
    }
    if game.outcome().is_some() {
        return Err("the board already has a winning row".into());
    }
    debug_assert!(game.cells().iter().filter(|c| **c != Cell::Empty).count() == setup.len());
    let expect = expect_text
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| parse_rif(size, t).map_err(|e| format!("expect: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Puzzle {
        game,
        attacker,
        mode,
        limit,
        threat_limit,
        expect,
        setup,
    })
}
