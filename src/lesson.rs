//! Lesson 1: the 2×2 worked example of seed 000, reproduced to the digit.
//!
//! A 2×2 board, cells 1–4, each with three states (empty, black, white) and a 32-bit key per
//! (cell, state) — including the empty state, unlike the 64-bit engine keys. Black on cell 1 gives
//! `hash1 = 0x2FB256EE`; then white on cell 4 gives `hash2 = 0x23BB713E`, both from scratch and
//! incrementally as `hash1 ^ K[4][empty] ^ K[4][white]`. The key table lives in
//! `assets/lesson-2x2.txt`.

/// Cell states, in the column order of the key table.
pub const STATES: [&str; 3] = ["empty", "black", "white"];

/// The keys and the two positions of the example.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedExample {
    /// `keys[cell][state]`, cell 0-based (cell 1 of the article is index 0).
    pub keys: [[u32; 3]; 4],
}

/// One line of the worked computation.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Step {
    /// What the step does, in words.
    pub what: String,
    /// The key XORed in (as `0x` hex), if any.
    pub key: Option<String>,
    /// The running value after the step.
    pub value: String,
}

pub fn hex32(v: u32) -> String {
    format!("0x{v:08X}")
}

impl Default for SeedExample {
    fn default() -> Self {
        Self::new()
    }
}

impl SeedExample {
    /// The example with the article's keys (parsed from the shipped asset).
    pub fn new() -> SeedExample {
        let mut keys = [[0u32; 3]; 4];
        let table = include_str!("../assets/lesson-2x2.txt");
        let mut rows = 0;
        for line in table
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let mut cols = line.split_whitespace();
            let cell: usize = cols
                .next()
                .and_then(|c| c.parse().ok())
                .expect("asset: cell");
            for key in keys[cell - 1].iter_mut() {
                let v = cols.next().expect("asset: key");
                *key = u32::from_str_radix(v.trim_start_matches("0x"), 16).expect("asset: hex");
            }
            rows += 1;
        }
        assert_eq!(rows, 4, "assets/lesson-2x2.txt must have four rows");
        SeedExample { keys }
    }

    /// Full hash of a board given as one state index per cell.
    pub fn full(&self, board: [usize; 4]) -> u32 {
        (0..4).fold(0, |h, c| h ^ self.keys[c][board[c]])
    }

    /// Black on cell 1, the rest empty.
    pub fn hash1_full(&self) -> u32 {
        self.full([1, 0, 0, 0])
    }

    /// Then white on cell 4.
    pub fn hash2_full(&self) -> u32 {
        self.full([1, 0, 0, 2])
    }

    /// `hash1 ^ K[4][empty] ^ K[4][white]`.
    pub fn hash2_incremental(&self) -> u32 {
        self.hash1_full() ^ self.keys[3][0] ^ self.keys[3][2]
    }

    /// The full computation of a board, term by term.
    pub fn full_steps(&self, board: [usize; 4]) -> Vec<Step> {
        let mut h = 0;
        (0..4)
            .map(|c| {
                let k = self.keys[c][board[c]];
                h ^= k;
                Step {
                    what: format!("cell {} {}", c + 1, STATES[board[c]]),
                    key: Some(hex32(k)),
                    value: hex32(h),
                }
            })
            .collect()
    }

    /// The incremental step from hash1 to hash2, term by term.
    pub fn incremental_steps(&self) -> Vec<Step> {
        let h1 = self.hash1_full();
        let k_empty = self.keys[3][0];
        let k_white = self.keys[3][2];
        vec![
            Step {
                what: "start from hash1".into(),
                key: None,
                value: hex32(h1),
            },
            Step {
                what: "remove cell 4 empty".into(),
                key: Some(hex32(k_empty)),
                value: hex32(h1 ^ k_empty),
            },
            Step {
                what: "add cell 4 white".into(),
                key: Some(hex32(k_white)),
                value: hex32(h1 ^ k_empty ^ k_white),
            },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_end_at_the_articles_values() {
        let ex = SeedExample::new();
        assert_eq!(
            ex.full_steps([1, 0, 0, 0]).last().unwrap().value,
            "0x2FB256EE"
        );
        assert_eq!(
            ex.full_steps([1, 0, 0, 2]).last().unwrap().value,
            "0x23BB713E"
        );
        assert_eq!(ex.incremental_steps().last().unwrap().value, "0x23BB713E");
    }
}
