//! The fitted Gomoku evaluation: which features of a position it weighs, and the weights, read
//! from `assets/gomoku-eval.txt` (built into the binary) and fitted by
//! `cargo run --release --bin fit-gomoku-eval` (logistic regression of self-play results on
//! these features; see that binary).
//!
//! A position is scored from the side to move's view as a weighted sum of [`FEATURES`] counts:
//! - a tempo constant (the side to move is about to play);
//! - per side (the side to move, then the opponent): its live windows (five cells, none of the
//!   other colour) by how many of its stones they hold, one to four;
//! - per side: its empty cells by pattern class ([`pattern::cell_class`], closed three … open
//!   four: what one stone there makes over its four lines) and its (cell, line) pairs by line
//!   level ([`pattern::level`], closed two … five);
//! - the side to move's combinations read from the windows (a four-three or a three-three
//!   square), each with the opponent quiet (no four to gain time with) or not.
//!
//! The threat board keeps the class and level part incrementally, as two sums per colour of a
//! per-cell table ([`CellValues`]: one with the side-to-move weights, one with the opponent's),
//! so an evaluation is a few multiplications.

use std::sync::OnceLock;

use crate::search::threats::pattern;

/// Window counts per side: windows holding one, two, three or four of the side's stones.
pub const WINDOW_COUNTS: usize = 4;
/// Pattern classes 1…12 ([`pattern::cell_class`]; class 0 is weighed zero).
pub const CLASSES: usize = 12;
/// Line levels 1…7 ([`pattern::level`]; level 0 is weighed zero).
pub const LEVELS: usize = 7;
/// Features of one side.
pub const SIDE_FEATURES: usize = WINDOW_COUNTS + CLASSES + LEVELS;
/// Index of the tempo constant.
pub const TEMPO: usize = 0;
/// First feature of the side to move, then of the opponent.
pub const MOVER: usize = 1;
pub const OPPONENT: usize = MOVER + SIDE_FEATURES;
/// The side to move's combinations: four-three and three-three, opponent quiet, then not.
pub const COMBOS: usize = OPPONENT + SIDE_FEATURES;
pub const FOUR_THREE_QUIET: usize = COMBOS;
pub const THREE_THREE_QUIET: usize = COMBOS + 1;
pub const FOUR_THREE_CONTESTED: usize = COMBOS + 2;
pub const THREE_THREE_CONTESTED: usize = COMBOS + 3;
/// All features.
pub const FEATURES: usize = COMBOS + 4;

/// Offsets inside a side's block.
pub const WINDOWS_AT: usize = 0;
pub const CLASSES_AT: usize = WINDOW_COUNTS;
pub const LEVELS_AT: usize = WINDOW_COUNTS + CLASSES;

/// Evaluation units per unit of the fitted logit: a score `v` predicts the side to move wins
/// with probability `1 / (1 + e^(−v / SCALE))`.
pub const SCALE: f64 = 1000.0;

/// Names of the pattern classes 1…12 (see [`pattern::cell_class`]).
const CLASS_NAMES: [&str; CLASSES] = [
    "two",
    "closed-three",
    "two-twos",
    "closed-three-plus",
    "three",
    "three-plus",
    "three-three",
    "four",
    "four-plus",
    "four-three",
    "open-four",
    "five",
];
/// Names of the line levels 1…7 (see [`pattern::level`]).
const LEVEL_NAMES: [&str; LEVELS] = [
    "closed-two",
    "two",
    "closed-three",
    "three",
    "four",
    "open-four",
    "five",
];

/// The name of each feature, as the weights file spells it.
pub fn feature_names() -> Vec<String> {
    let mut names = vec!["tempo".to_string()];
    for side in ["mover", "opponent"] {
        for k in 1..=WINDOW_COUNTS {
            names.push(format!("{side}.windows-{k}"));
        }
        for c in CLASS_NAMES {
            names.push(format!("{side}.class-{c}"));
        }
        for l in LEVEL_NAMES {
            names.push(format!("{side}.level-{l}"));
        }
    }
    names.extend(
        [
            "four-three-quiet",
            "three-three-quiet",
            "four-three-contested",
            "three-three-contested",
        ]
        .map(String::from),
    );
    names
}

/// Evaluation weights, one per feature, in evaluation units.
pub type Weights = [i32; FEATURES];

/// Parse a weights file: `name value` lines in any order, `#` comments; every feature exactly
/// once.
pub fn parse_weights(text: &str) -> Result<Weights, String> {
    let names = feature_names();
    let mut w = [0; FEATURES];
    let mut seen = [false; FEATURES];
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(name), Some(value), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(format!("line {}: expected '<feature> <weight>'", n + 1));
        };
        let i = names
            .iter()
            .position(|f| f == name)
            .ok_or_else(|| format!("line {}: unknown feature {name}", n + 1))?;
        if seen[i] {
            return Err(format!("line {}: {name} given twice", n + 1));
        }
        seen[i] = true;
        w[i] = value
            .parse()
            .map_err(|_| format!("line {}: bad weight {value}", n + 1))?;
    }
    match seen.iter().position(|s| !s) {
        Some(i) => Err(format!("no weight for {}", names[i])),
        None => Ok(w),
    }
}

/// The built-in weights (`assets/gomoku-eval.txt`).
pub fn weights() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        parse_weights(include_str!("../../../assets/gomoku-eval.txt"))
            .expect("assets/gomoku-eval.txt is well formed")
    })
}

/// Per packed cell (a colour's four line levels on one empty cell), its value for the side to
/// move and for the opponent: the class weight plus the four level weights of that role.
pub struct CellValues {
    pub by_role: [Box<[i32; 4096]>; 2],
}

impl CellValues {
    /// The tables of `weights`.
    pub fn new(weights: &Weights) -> CellValues {
        let table = |base: usize| {
            let mut t = Box::new([0i32; 4096]);
            for (packed, v) in t.iter_mut().enumerate() {
                let class = pattern::cell_class(packed as pattern::Packed) as usize;
                if class > 0 {
                    *v += weights[base + CLASSES_AT + class - 1];
                }
                for d in 0..4 {
                    let level = (packed >> (3 * d)) & 7;
                    if level > 0 {
                        *v += weights[base + LEVELS_AT + level - 1];
                    }
                }
            }
            t
        };
        CellValues {
            by_role: [table(MOVER), table(OPPONENT)],
        }
    }

    /// The tables of the built-in weights.
    pub fn built_in() -> &'static CellValues {
        static VALUES: OnceLock<CellValues> = OnceLock::new();
        VALUES.get_or_init(|| CellValues::new(weights()))
    }
}

/// The class and level counts of one colour's packed cells, added into a side's feature block.
pub fn add_cell_features(packed: pattern::Packed, block: &mut [i32]) {
    let class = pattern::cell_class(packed) as usize;
    if class > 0 {
        block[CLASSES_AT + class - 1] += 1;
    }
    for d in 0..4 {
        let level = ((packed >> (3 * d)) & 7) as usize;
        if level > 0 {
            block[LEVELS_AT + level - 1] += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_weights_name_every_feature() {
        assert_eq!(feature_names().len(), FEATURES);
        let w = weights();
        let text: String = feature_names()
            .iter()
            .zip(w)
            .map(|(n, v)| format!("{n} {v}\n"))
            .collect();
        assert_eq!(parse_weights(&text).as_ref(), Ok(w));
        assert!(parse_weights("tempo 1\n").is_err());
        assert!(parse_weights(&format!("{text}tempo 2\n")).is_err());
    }

    #[test]
    fn cell_values_sum_class_and_levels() {
        let mut w = [0; FEATURES];
        for (i, v) in w.iter_mut().enumerate() {
            *v = i as i32 * 10;
        }
        let t = CellValues::new(&w);
        // a three (level 4) on one line and a two (level 2) on another: class 6
        let packed: pattern::Packed = 4 | 2 << 3;
        assert_eq!(pattern::cell_class(packed), 6);
        let mut block = [0; SIDE_FEATURES];
        add_cell_features(packed, &mut block);
        let expect = |base: usize| {
            block
                .iter()
                .enumerate()
                .map(|(i, &n)| n * w[base + i])
                .sum::<i32>()
        };
        assert_eq!(t.by_role[0][packed as usize], expect(MOVER));
        assert_eq!(t.by_role[1][packed as usize], expect(OPPONENT));
    }
}
