//! A pattern evaluation for the endgame solver's move ordering and score guesses.
//!
//! The score of a position for the side to move is a sum of table weights, one per pattern
//! instance, plus a mobility term: eleven pattern shapes (corner 3×3, edge + X squares, corner
//! 2×5, the second to fourth rows, and the diagonals of length 4 to 8), each taken in all eight
//! board symmetries, so the evaluation is symmetric by construction. A pattern's index is its
//! squares read as base-3 digits (0 empty, 1 the mover's, 2 the opponent's). The weights are fitted
//! by least squares to exact endgame scores from the solver itself (see
//! `src/bin/train-endgame-eval.rs`), one weight set per band of empties, and shipped in
//! `assets/endgame-eval.bin`. It only orders moves and centres windows: the solver's results never
//! depend on it.

use std::sync::LazyLock;

/// Pattern shapes in the a1 corner's orientation (squares as (col, row)).
const SHAPES: [&[(u8, u8)]; 11] = [
    // corner 3x3
    &[
        (0, 0),
        (1, 0),
        (2, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (0, 2),
        (1, 2),
        (2, 2),
    ],
    // edge + 2 X squares
    &[
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (5, 0),
        (6, 0),
        (7, 0),
        (1, 1),
        (6, 1),
    ],
    // corner 2x5
    &[
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (3, 1),
        (4, 1),
    ],
    // rows 2, 3, 4
    &[
        (0, 1),
        (1, 1),
        (2, 1),
        (3, 1),
        (4, 1),
        (5, 1),
        (6, 1),
        (7, 1),
    ],
    &[
        (0, 2),
        (1, 2),
        (2, 2),
        (3, 2),
        (4, 2),
        (5, 2),
        (6, 2),
        (7, 2),
    ],
    &[
        (0, 3),
        (1, 3),
        (2, 3),
        (3, 3),
        (4, 3),
        (5, 3),
        (6, 3),
        (7, 3),
    ],
    // diagonals of 8, 7, 6, 5, 4 squares
    &[
        (0, 0),
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 4),
        (5, 5),
        (6, 6),
        (7, 7),
    ],
    &[(1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6)],
    &[(2, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 5)],
    &[(3, 0), (4, 1), (5, 2), (6, 3), (7, 4)],
    &[(4, 0), (5, 1), (6, 2), (7, 3)],
];

/// Number of pattern shapes.
pub const N_SHAPES: usize = SHAPES.len();
/// Instances per shape (the eight symmetries).
const N_SYM: usize = 8;
/// Extra linear features after the patterns: the mover's and the opponent's mobility, and a bias.
pub const N_EXTRA: usize = 3;
/// Bands of empties with their own weights: 0–10, 11–14, 15–18, 19–22, 23–26, 27–64.
pub const N_BANDS: usize = 6;

/// Weight-set band for a number of empties.
#[inline]
pub fn band(empties: u32) -> usize {
    match empties {
        0..=10 => 0,
        11..=14 => 1,
        15..=18 => 2,
        19..=22 => 3,
        23..=26 => 4,
        _ => 5,
    }
}

/// 3^len of each shape: the size of its weight table.
pub fn shape_sizes() -> [usize; N_SHAPES] {
    let mut s = [0; N_SHAPES];
    for (i, shape) in SHAPES.iter().enumerate() {
        s[i] = 3usize.pow(shape.len() as u32);
    }
    s
}

/// Offset of each shape's table in one band's weight vector, and the band's length.
pub fn layout() -> ([usize; N_SHAPES], usize) {
    let sizes = shape_sizes();
    let mut off = [0; N_SHAPES];
    let mut total = 0;
    for i in 0..N_SHAPES {
        off[i] = total;
        total += sizes[i];
    }
    (off, total + N_EXTRA)
}

/// The squares of every instance: `INSTANCES[shape][sym]` lists board indices in shape order.
struct Instances {
    squares: [[[u8; 10]; N_SYM]; N_SHAPES],
    len: [usize; N_SHAPES],
}

fn symmetry(sym: usize, (c, r): (u8, u8)) -> u8 {
    let (c, r) = if sym & 4 != 0 { (r, c) } else { (c, r) };
    let c = if sym & 1 != 0 { 7 - c } else { c };
    let r = if sym & 2 != 0 { 7 - r } else { r };
    r * 8 + c
}

static INSTANCES: LazyLock<Instances> = LazyLock::new(|| {
    let mut squares = [[[0u8; 10]; N_SYM]; N_SHAPES];
    let mut len = [0; N_SHAPES];
    for (i, shape) in SHAPES.iter().enumerate() {
        len[i] = shape.len();
        for (sym, inst) in squares[i].iter_mut().enumerate() {
            for (k, &sq) in shape.iter().enumerate() {
                inst[k] = symmetry(sym, sq);
            }
        }
    }
    Instances { squares, len }
});

/// The feature indices of a position: one table index per (shape, symmetry), within the band
/// layout (shape offset added), then the extra features' values.
pub fn features(p: u64, o: u64, out: &mut [usize; N_SHAPES * N_SYM]) -> [i32; N_EXTRA] {
    let inst = &*INSTANCES;
    let (off, _) = layout_cached();
    for s in 0..N_SHAPES {
        let n = inst.len[s];
        for y in 0..N_SYM {
            let sq = &inst.squares[s][y];
            let mut idx = 0usize;
            for &q in sq[..n].iter().rev() {
                let b = 1u64 << q;
                idx = idx * 3 + ((p & b != 0) as usize) + 2 * ((o & b != 0) as usize);
            }
            out[s * N_SYM + y] = off[s] + idx;
        }
    }
    [
        super::bits::moves(p, o).count_ones() as i32,
        super::bits::moves(o, p).count_ones() as i32,
        1,
    ]
}

static LAYOUT: LazyLock<([usize; N_SHAPES], usize)> = LazyLock::new(layout);

fn layout_cached() -> &'static ([usize; N_SHAPES], usize) {
    &LAYOUT
}

/// Trained weights: `N_BANDS` bands of `layout().1` values, in 1/64 disc.
pub struct Weights {
    w: Vec<i16>,
    band_len: usize,
}

/// Fixed-point scale of the stored weights.
pub const SCALE: i32 = 64;

static WEIGHTS_FILE: &[u8] = include_bytes!("../../../assets/endgame-eval.bin");

static WEIGHTS: LazyLock<Option<Weights>> = LazyLock::new(|| Weights::from_bytes(WEIGHTS_FILE));

impl Weights {
    /// Parse the weight file: `N_BANDS × band length` little-endian i16 values. `None` if the
    /// file does not have that size (then the solver orders moves without the evaluation).
    pub fn from_bytes(bytes: &[u8]) -> Option<Weights> {
        let band_len = layout_cached().1;
        if bytes.len() != N_BANDS * band_len * 2 {
            return None;
        }
        let w = bytes
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Some(Weights { w, band_len })
    }

    /// The built-in weights, if the shipped file matches this layout.
    pub fn builtin() -> Option<&'static Weights> {
        WEIGHTS.as_ref()
    }

    /// Score in 1/64 disc for the side to move.
    pub fn eval(&self, p: u64, o: u64) -> i32 {
        let n = 64 - (p | o).count_ones();
        let w = &self.w[band(n) * self.band_len..(band(n) + 1) * self.band_len];
        let mut idx = [0usize; N_SHAPES * N_SYM];
        let extra = features(p, o, &mut idx);
        let mut s: i32 = idx.iter().map(|&i| w[i] as i32).sum();
        let base = self.band_len - N_EXTRA;
        for (k, v) in extra.iter().enumerate() {
            s += w[base + k] as i32 * v;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instances_cover_their_shapes_on_the_board() {
        let inst = &*INSTANCES;
        for s in 0..N_SHAPES {
            for y in 0..N_SYM {
                let sq = &inst.squares[s][y][..inst.len[s]];
                let mut seen = 0u64;
                for &q in sq {
                    assert!(q < 64);
                    seen |= 1 << q;
                }
                assert_eq!(seen.count_ones() as usize, sq.len(), "distinct squares");
            }
        }
    }

    #[test]
    fn features_are_symmetric() {
        // a position and its mirror image have the same multiset of feature indices
        let (p, o) = (0x0000_0018_1C00_0000u64, 0x0000_0800_0010_2000u64);
        let mirror = |b: u64| {
            let mut m = 0u64;
            for q in 0..64 {
                if b & (1 << q) != 0 {
                    m |= 1 << ((q / 8) * 8 + 7 - q % 8);
                }
            }
            m
        };
        let mut a = [0; N_SHAPES * N_SYM];
        let mut b = [0; N_SHAPES * N_SYM];
        let ea = features(p, o, &mut a);
        let eb = features(mirror(p), mirror(o), &mut b);
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
        assert_eq!(ea, eb);
    }
}
