//! Othello weight files for tests: the shipped evaluation, changed so its play or its figures
//! must change.

use xorboard::search::othello::eval::Weights;

/// `w` with every weight negated: an evaluation that wants to lose, and whose every score is the
/// negation of `w`'s.
pub fn negated(w: &Weights) -> Weights {
    let flat: Vec<i16> = (0..w.tops().len())
        .flat_map(|b| w.band_weights(b).iter().map(|&x| x.saturating_neg()))
        .collect();
    Weights::from_parts(w.tops(), flat).expect("the same layout")
}
