//! The fitted Gomoku evaluation: which features of a position it weighs, and the weights, read
//! from `assets/gomoku-eval.txt` (built into the binary) and fitted by
//! `cargo run --release --bin fit-gomoku-eval` (logistic regression of self-play results on
//! these features; see that binary).
//!
//! A position is scored from the side to move's view as a weighted sum of [`FEATURES`] counts:
//! - a tempo constant (the side to move is about to play);
//! - per side (the side to move, then the opponent): its live windows (five cells, none of the
//!   other colour) by how many of its stones they hold, one to four;
//! - per side: its empty cells by line set ([`line_set`]): the four line levels a stone there
//!   would make ([`pattern::level`], closed two … five), as a multiset — so every combination of
//!   lines (a three with a closed three, two twos and a closed two …) has its own weight;
//! - the side to move's combinations read from the threat board (a four-three or a three-three
//!   square), each with the opponent quiet (no four to gain time with) or not.
//!
//! The threat board keeps the line-set part incrementally, as two sums per colour of a
//! per-cell table ([`CellValues`]: one with the side-to-move weights, one with the opponent's),
//! so an evaluation is a few multiplications.
//!
//! The move order reads the same cell patterns: a candidate cell's ordering value is its class
//! and level weights for the side to move's stone there plus those for the opponent's (the value
//! of taking the cell away), from `assets/gomoku-order.txt` ([`move_order`]), fitted by the same
//! binary to the moves the engine chose (a conditional logit over the candidates).

use std::sync::OnceLock;

use crate::search::threats::pattern;

/// Window counts per side: windows holding one, two, three or four of the side's stones.
pub const WINDOW_COUNTS: usize = 4;
/// Pattern classes 1…12 ([`pattern::cell_class`]; class 0 is weighed zero).
pub const CLASSES: usize = 12;
/// Line levels 1…7 ([`pattern::level`]; level 0 is weighed zero).
pub const LEVELS: usize = 7;
/// Line sets: the multisets of a cell's four line levels (0…7 each) other than all zero, the
/// 329 ways a stone on an empty cell can combine its four lines ([`line_set`]).
pub const LINE_SETS: usize = 329;
/// Features of one side.
pub const SIDE_FEATURES: usize = WINDOW_COUNTS + LINE_SETS;
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
pub const LINE_SETS_AT: usize = WINDOW_COUNTS;
/// The class and level features of one colour on one cell, which the move order weighs.
pub const PATTERN_FEATURES: usize = CLASSES + LEVELS;
/// Features of a candidate move for the move order: the side to move's pattern features, then
/// the opponent's.
pub const ORDER_FEATURES: usize = 2 * PATTERN_FEATURES;

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

/// The names of one side's pattern features (`side.class-…`, `side.level-…`).
fn pattern_names(side: &str) -> impl Iterator<Item = String> + '_ {
    let classes = CLASS_NAMES.iter().map(move |c| format!("{side}.class-{c}"));
    classes.chain(LEVEL_NAMES.iter().map(move |l| format!("{side}.level-{l}")))
}

/// The line sets in feature order, each as its four levels from the highest (index 0 is the
/// all-zero set, which has no feature).
fn line_set_levels() -> &'static [[u8; 4]; LINE_SETS + 1] {
    static SETS: OnceLock<[[u8; 4]; LINE_SETS + 1]> = OnceLock::new();
    SETS.get_or_init(|| {
        let mut sets = [[0u8; 4]; LINE_SETS + 1];
        let mut n = 0;
        for a in 0..8u8 {
            for b in 0..=a {
                for c in 0..=b {
                    for d in 0..=c {
                        sets[n] = [a, b, c, d];
                        n += 1;
                    }
                }
            }
        }
        sets.sort_unstable();
        sets
    })
}

/// The line set of one colour's packed cell: 0 when no line has a level, else 1…=[`LINE_SETS`]
/// (feature `LINE_SETS_AT + set − 1` of the side's block).
pub fn line_set(packed: pattern::Packed) -> usize {
    static INDEX: OnceLock<Box<[u16; 4096]>> = OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let sets = line_set_levels();
        let mut t = Box::new([0u16; 4096]);
        for (packed, v) in t.iter_mut().enumerate() {
            let mut levels: [u8; 4] = std::array::from_fn(|d| ((packed >> (3 * d)) & 7) as u8);
            levels.sort_unstable_by(|a, b| b.cmp(a));
            *v = sets.binary_search(&levels).expect("every level set") as u16;
        }
        t
    });
    index[packed as usize & 4095] as usize
}

/// The name of each feature, as the weights file spells it.
pub fn feature_names() -> Vec<String> {
    let mut names = vec!["tempo".to_string()];
    for side in ["mover", "opponent"] {
        for k in 1..=WINDOW_COUNTS {
            names.push(format!("{side}.windows-{k}"));
        }
        for l in &line_set_levels()[1..] {
            names.push(format!("{side}.lines-{}{}{}{}", l[0], l[1], l[2], l[3]));
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

/// The name of each move-order feature, as the order file spells it.
pub fn order_feature_names() -> Vec<String> {
    pattern_names("mover")
        .chain(pattern_names("opponent"))
        .collect()
}

/// Evaluation weights, one per feature, in evaluation units.
pub type Weights = [i32; FEATURES];
/// Move-order weights, one per order feature (units of a hundredth of a logit).
pub type OrderWeights = [i32; ORDER_FEATURES];

/// Parse an evaluation weights file (see `parse_named`).
pub fn parse_weights(text: &str) -> Result<Weights, String> {
    parse_named(text, &feature_names())
}

/// Parse a move-order weights file (see `parse_named`).
pub fn parse_order_weights(text: &str) -> Result<OrderWeights, String> {
    parse_named(text, &order_feature_names())
}

/// Parse a weights file: `name value` lines in any order, `#` comments; every one of `names`
/// exactly once.
fn parse_named<const N: usize>(text: &str, names: &[String]) -> Result<[i32; N], String> {
    let mut w = [0; N];
    let mut seen = [false; N];
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

/// The built-in move-order weights (`assets/gomoku-order.txt`).
pub fn order_weights() -> &'static OrderWeights {
    static WEIGHTS: OnceLock<OrderWeights> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        parse_order_weights(include_str!("../../../assets/gomoku-order.txt"))
            .expect("assets/gomoku-order.txt is well formed")
    })
}

/// Per packed cell (a colour's four line levels on one empty cell), its value for the side to
/// move and for the opponent: the class weight plus the four level weights of that role.
pub struct CellValues {
    /// Per packed cell, its values as (mover, opponent) side by side: the incremental boards
    /// read both roles of a cell with one load.
    by_packed: Box<[[i32; 2]; 4096]>,
}

impl CellValues {
    /// The tables of two roles from a value per packed cell and role (0 mover, 1 opponent).
    fn from_fn(value: impl Fn(pattern::Packed, usize) -> i32) -> CellValues {
        let mut by_packed = Box::new([[0i32; 2]; 4096]);
        for (packed, v) in by_packed.iter_mut().enumerate() {
            *v = [0, 1].map(|role| value(packed as pattern::Packed, role));
        }
        CellValues { by_packed }
    }

    /// The values of a packed cell as (mover, opponent).
    #[inline]
    pub fn roles(&self, packed: pattern::Packed) -> [i32; 2] {
        self.by_packed[packed as usize]
    }

    /// The value of a packed cell in `role` (0 mover, 1 opponent).
    #[inline]
    pub fn value(&self, packed: pattern::Packed, role: usize) -> i32 {
        self.by_packed[packed as usize][role]
    }

    /// The evaluation's tables of two roles' line-set weights (each [`LINE_SETS`] long).
    pub fn new(mover: &[i32], opponent: &[i32]) -> CellValues {
        CellValues::from_fn(|packed, role| {
            let weights = [mover, opponent][role];
            match line_set(packed) {
                0 => 0,
                set => weights[set - 1],
            }
        })
    }

    /// The move order's tables of two roles' pattern weights (each [`PATTERN_FEATURES`] long:
    /// classes, then levels).
    pub fn for_order(mover: &[i32], opponent: &[i32]) -> CellValues {
        CellValues::from_fn(|packed, role| {
            let mut counts = [0; PATTERN_FEATURES];
            add_pattern_features(packed, &mut counts);
            counts
                .iter()
                .zip([mover, opponent][role])
                .map(|(n, w)| n * w)
                .sum()
        })
    }

    /// The evaluation's tables, from the built-in weights.
    pub fn built_in() -> &'static CellValues {
        static VALUES: OnceLock<CellValues> = OnceLock::new();
        VALUES.get_or_init(|| {
            let w = weights();
            CellValues::new(
                &w[MOVER + LINE_SETS_AT..OPPONENT],
                &w[OPPONENT + LINE_SETS_AT..COMBOS],
            )
        })
    }
}

/// The move order's tables, from the built-in order weights: a candidate cell's value is
/// `value(mover's packed, 0) + value(opponent's packed, 1)`.
pub fn move_order() -> &'static CellValues {
    static VALUES: OnceLock<CellValues> = OnceLock::new();
    VALUES.get_or_init(|| {
        let w = order_weights();
        CellValues::for_order(&w[..PATTERN_FEATURES], &w[PATTERN_FEATURES..])
    })
}

/// The line-set count of one colour's packed cell, added into a block of [`LINE_SETS`].
pub fn add_cell_features(packed: pattern::Packed, block: &mut [i32]) {
    let set = line_set(packed);
    if set > 0 {
        block[set - 1] += 1;
    }
}

/// The class and level counts of one colour's packed cell, added into a block of
/// [`PATTERN_FEATURES`] (classes, then levels): the move order's features.
pub fn add_pattern_features(packed: pattern::Packed, block: &mut [i32]) {
    let class = pattern::cell_class(packed) as usize;
    if class > 0 {
        block[class - 1] += 1;
    }
    for d in 0..4 {
        let level = ((packed >> (3 * d)) & 7) as usize;
        if level > 0 {
            block[CLASSES + level - 1] += 1;
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
    fn cell_values_weigh_line_sets_and_the_order_sums_class_and_levels() {
        let w: Vec<i32> = (0..2 * ORDER_FEATURES.max(LINE_SETS) as i32)
            .map(|i| i * 10)
            .collect();
        let (mover, opponent) = (&w[..LINE_SETS], &w[LINE_SETS..2 * LINE_SETS]);
        let t = CellValues::new(mover, opponent);
        // a three (level 4) on one line and a two (level 2) on another, in any two directions
        let (a, b): (pattern::Packed, pattern::Packed) = (4 | 2 << 3, 2 << 6 | 4 << 9);
        let set = line_set(a);
        assert_eq!(line_set(b), set);
        assert_eq!(
            feature_names()[MOVER + LINE_SETS_AT + set - 1],
            "mover.lines-4200"
        );
        assert_eq!(line_set(0), 0);
        assert_eq!(line_set(7 | 7 << 3 | 7 << 6 | 7 << 9), LINE_SETS);
        for (role, weights) in [mover, opponent].into_iter().enumerate() {
            assert_eq!(t.value(a, role), weights[set - 1]);
            assert_eq!(t.value(0, role), 0);
        }
        let (mover, opponent) = (&w[..PATTERN_FEATURES], &w[PATTERN_FEATURES..ORDER_FEATURES]);
        let t = CellValues::for_order(mover, opponent);
        assert_eq!(pattern::cell_class(a), 6);
        let three_plus = CLASS_NAMES.iter().position(|&c| c == "three-plus").unwrap();
        let level = |l: usize| CLASSES + l - 1;
        for (role, weights) in [mover, opponent].into_iter().enumerate() {
            assert_eq!(
                t.value(a, role),
                weights[three_plus] + weights[level(4)] + weights[level(2)]
            );
        }
        assert_eq!(order_feature_names().len(), ORDER_FEATURES);
        assert!(parse_order_weights(&format!("{:?}", order_weights())).is_err());
    }
}
