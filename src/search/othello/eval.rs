//! The trained pattern evaluation of Othello positions: the midgame engine's static evaluation
//! (`crate::search::othello`) and the endgame solver's move ordering and score guesses.
//!
//! The score of a position for the side to move is a sum of table weights, one per pattern
//! instance, plus a mobility term: eleven pattern shapes (corner 3×3, edge + X squares, corner
//! 2×5, the second to fourth rows, and the diagonals of length 4 to 8), each taken in all eight
//! board symmetries, so the evaluation is symmetric by construction. A pattern's index is its
//! squares read as base-3 digits (0 empty, 1 the mover's, 2 the opponent's; the shape's first
//! square is the lowest digit). Weights come per band of empties (the bands are stored in the
//! weight file), fitted by `src/bin/train-endgame-eval.rs` to exact endgame scores and to
//! search-backed labels for the earlier bands, and shipped in `assets/endgame-eval.bin`. The
//! engine reads them blended ([`Weights::blended`]): each pair of empties counts gets weights
//! interpolated between the two nearest bands' centres, so the score does not jump at a band's
//! edge.
//!
//! Speed: every square has a row of its powers of 3 in all instances (zero outside the instances
//! through it). Indices are the sum of the rows of the discs, each times its digit ([`indices`]),
//! or kept move by move in an [`Indices`] (what the midgame search does: a move adds or
//! subtracts the rows of its placed and flipped squares). Whole rows are vector additions.
//! The search keeps only one of the instances that read the same squares (46 of 88: a diagonal
//! is read four times by the eight symmetries, a corner 3×3 twice) and looks it up in a table
//! that sums their weights ([`N_KEPT`], [`Weights`]): the same score, with half the lookups and
//! index updates. `nboard --probcut 100,5` at depth 14 on 60 positions of our games against
//! NTest (44, 38 and 32 empties): 3.97 s before, 3.70 s after, the same 23.26M nodes.
//!
//! The solver only orders moves and centres windows with it: its results never depend on it.

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
/// Pattern instances: one table index each.
pub const N_FEATURES: usize = N_SHAPES * N_SYM;
/// Extra linear features after the patterns: the mover's and the opponent's mobility, and a bias.
pub const N_EXTRA: usize = 3;
/// The first trained layout's bands (highest empties of each band): 0–10, 11–14, 15–18, 19–22,
/// 23–26, 27–64. A weight file without a header has these bands.
pub const LEGACY_TOPS: [u8; 6] = [10, 14, 18, 22, 26, 64];
/// Magic of a weight file with a band header: then one byte (number of bands), the top empties
/// of each band (increasing, the last 64), then the weights.
pub const MAGIC: &[u8; 8] = b"XBEVAL2\0";

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

const fn symmetry(sym: usize, (c, r): (u8, u8)) -> u8 {
    let (c, r) = if sym & 4 != 0 { (r, c) } else { (c, r) };
    let c = if sym & 1 != 0 { 7 - c } else { c };
    let r = if sym & 2 != 0 { 7 - r } else { r };
    r * 8 + c
}

/// Each instance's table offset in a band, and for each square the power of 3 it has in each
/// instance's index (0 in the instances it is not part of). `L` lanes: every instance
/// ([`N_FEATURES`], the trainer's features) or the kept ones ([`N_LANES`], the search's).
struct Tables<const L: usize> {
    offsets: [u32; L],
    powers: [[u32; L]; 64],
}

/// The squares instance `y` of shape `s` reads.
const fn instance_squares(s: usize, y: usize) -> u64 {
    let shape = SHAPES[s];
    let mut b = 0u64;
    let mut k = 0;
    while k < shape.len() {
        b |= 1 << symmetry(y, shape[k]);
        k += 1;
    }
    b
}

/// Whether instance `y` of shape `s` is the first of those reading its squares (the one kept).
const fn is_kept(s: usize, y: usize) -> bool {
    let mut e = 0;
    while e < y {
        if instance_squares(s, e) == instance_squares(s, y) {
            return false;
        }
        e += 1;
    }
    true
}

const fn kept_count() -> usize {
    let mut n = 0;
    let mut s = 0;
    while s < N_SHAPES {
        let mut y = 0;
        while y < N_SYM {
            n += is_kept(s, y) as usize;
            y += 1;
        }
        s += 1;
    }
    n
}

/// Pattern instances kept by the search's indices ([`Indices`]): of the instances reading the
/// same squares (a shape that some symmetries map onto itself, such as a diagonal or a corner
/// 3×3), only the first; its weight table holds the sum of theirs ([`Weights`] folds them).
pub const N_KEPT: usize = kept_count();
/// [`N_KEPT`] rounded up to whole vectors of eight lanes; the lanes beyond are zero.
pub const N_LANES: usize = N_KEPT.next_multiple_of(8);
/// The search's table indices of a position for one side to move: one lane per kept instance.
pub type View = [u32; N_LANES];

/// The tables of every instance (`all` true) or of the kept ones, in shape order.
const fn tables<const L: usize>(all: bool) -> Tables<L> {
    let mut t = Tables {
        offsets: [0; L],
        powers: [[0; L]; 64],
    };
    let mut off = 0u32;
    let mut f = 0;
    let mut s = 0;
    while s < N_SHAPES {
        let shape = SHAPES[s];
        let mut y = 0;
        while y < N_SYM {
            if all || is_kept(s, y) {
                t.offsets[f] = off;
                let mut pow = 1u32;
                let mut k = 0;
                while k < shape.len() {
                    t.powers[symmetry(y, shape[k]) as usize][f] = pow;
                    pow *= 3;
                    k += 1;
                }
                f += 1;
            }
            y += 1;
        }
        off += 3u32.pow(shape.len() as u32);
        s += 1;
    }
    t
}

static TABLES: Tables<N_FEATURES> = tables(true);
static KEPT: Tables<N_LANES> = tables(false);

/// Add `times` the row of powers of square `q` to `idx` (wrapping: `u32::MAX` subtracts it).
/// Whole rows at once: the compiler makes vector additions of them.
#[inline(always)]
fn add_row<const L: usize>(t: &Tables<L>, idx: &mut [u32; L], q: usize, times: u32) {
    for (i, &pw) in idx.iter_mut().zip(&t.powers[q & 63]) {
        *i = i.wrapping_add(pw.wrapping_mul(times));
    }
}

/// The indices in `t`'s instances of a position for the side to move `p` (shape offsets
/// included): every instance ([`indices`]) or the kept ones ([`N_KEPT`]).
#[inline]
fn indices_in<const L: usize>(t: &Tables<L>, p: u64, o: u64, idx: &mut [u32; L]) {
    *idx = t.offsets;
    let mut b = p | o;
    while b != 0 {
        let q = b.trailing_zeros() as usize;
        b &= b - 1;
        add_row(t, idx, q, 1 + ((o >> q) & 1) as u32);
    }
}

/// The table indices of a position for the side to move `p` (shape offsets included).
#[inline]
pub fn indices(p: u64, o: u64, idx: &mut [u32; N_FEATURES]) {
    indices_in(&TABLES, p, o, idx);
}

/// The feature indices of a position: one table index per (shape, symmetry), within the band
/// layout (shape offset added), then the extra features' values.
pub fn features(p: u64, o: u64, out: &mut [usize; N_FEATURES]) -> [i32; N_EXTRA] {
    let mut idx = [0u32; N_FEATURES];
    indices(p, o, &mut idx);
    for (o, &i) in out.iter_mut().zip(&idx) {
        *o = i as usize;
    }
    [
        crate::game::othello::bitboard::moves(p, o).count_ones() as i32,
        crate::game::othello::bitboard::moves(o, p).count_ones() as i32,
        1,
    ]
}

/// Pattern indices kept move by move: for every kept instance ([`N_KEPT`]), its index as black
/// to move sees it (black digit 1, white 2) and as white to move sees it. A move changes only
/// the instances through the placed and flipped squares.
///
/// "Black" and "white" are just the two views: the endgame solver calls the root's mover
/// side 0 and tracks which view belongs to the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Indices {
    v: [View; 2],
}

/// The sum of the rows of powers of the squares `flipped`.
#[inline(always)]
fn flipped_powers(flipped: u64) -> View {
    let mut sum = [0u32; N_LANES];
    let mut b = flipped;
    while b != 0 {
        add_row(&KEPT, &mut sum, b.trailing_zeros() as usize, 1);
        b &= b - 1;
    }
    sum
}

impl Indices {
    /// The indices of a position given by its black and white discs.
    pub fn new(black: u64, white: u64) -> Indices {
        let mut v = [[0u32; N_LANES]; 2];
        indices_in(&KEPT, black, white, &mut v[0]);
        indices_in(&KEPT, white, black, &mut v[1]);
        Indices { v }
    }

    /// The view of `side` (0 black, 1 white): the table indices with that side to move.
    #[inline]
    pub fn view(&self, side: usize) -> &View {
        &self.v[side & 1]
    }

    /// Add (`sign` 1) or take back (`sign` -1) the move of `side` on `sq` flipping `flipped`:
    /// in the mover's view the placed disc adds one power of its square and each flipped disc
    /// goes from digit 2 to 1 (one power less); in the other view the placed disc is digit 2 and
    /// a flipped one goes from 1 to 2. Whole rows of powers at once (vector additions).
    #[inline(always)]
    fn update(&mut self, side: usize, sq: usize, flipped: u64, sign: u32) {
        let flips = flipped_powers(flipped);
        let placed = &KEPT.powers[sq & 63];
        let [a, b] = &mut self.v;
        let (mine, other) = if side == 0 { (a, b) } else { (b, a) };
        for i in 0..N_LANES {
            let m = placed[i].wrapping_sub(flips[i]);
            let o = (placed[i] << 1).wrapping_add(flips[i]);
            mine[i] = mine[i].wrapping_add(m.wrapping_mul(sign));
            other[i] = other[i].wrapping_add(o.wrapping_mul(sign));
        }
    }

    /// Side `side` (0 black, 1 white) puts a disc on `sq` and flips `flipped`.
    #[inline]
    pub fn play(&mut self, side: usize, sq: usize, flipped: u64) {
        self.update(side, sq, flipped, 1);
    }

    /// Take back `play(side, sq, flipped)`.
    #[inline]
    pub fn undo(&mut self, side: usize, sq: usize, flipped: u64) {
        self.update(side, sq, flipped, u32::MAX);
    }

    /// Only view `t` (0 black, 1 white) after `side` plays `sq` flipping `flipped`, written to
    /// `out` (`self` unchanged): with `t = side ^ 1`, the indices of the position after the move
    /// for its side to move, for a leaf evaluation that needs nothing else.
    #[inline(always)]
    pub fn view_after(&self, side: usize, sq: usize, flipped: u64, t: usize, out: &mut View) {
        // as in `update`, for view t only
        let mine = (t ^ side) & 1 == 0;
        let flips = flipped_powers(flipped);
        let placed = &KEPT.powers[sq & 63];
        let view = &self.v[t & 1];
        for i in 0..N_LANES {
            out[i] = if mine {
                view[i].wrapping_add(placed[i]).wrapping_sub(flips[i])
            } else {
                view[i].wrapping_add(placed[i] << 1).wrapping_add(flips[i])
            };
        }
    }
}

/// Trained weights: one weight set of `layout().1` values per band of empties, in 1/64 disc.
///
/// The search reads them folded: a shape's table entry holds the sum of the weights of every
/// instance that reads the same squares as the kept one ([`N_KEPT`]), each at its own digit
/// order, so one lookup stands for them all and the score is the same to the last bit.
///
/// Two readings of the same bands. As fitted ([`Weights::from_parts`], what the fitter trains
/// and validates): a position is scored by its band's weights. Blended ([`Weights::blended`],
/// what the engine reads, [`Weights::builtin`]): every pair of empties counts (1-2, 3-4, …,
/// 63-64) gets its own tables, the weights interpolated linearly between the centres of the
/// two bands around it, so the evaluation of a position does not jump where one band ends
/// and the next begins (at 26/27 empties, where the exactly fitted endgame bands meet the
/// search-fitted midgame ones, by up to several discs).
#[derive(Clone, Debug)]
pub struct Weights {
    w: Vec<i16>,
    /// The tables the evaluation reads: `w` with the instances that read the same squares
    /// folded into the kept one's entry, one table per band, or per pair of empties counts
    /// when blended.
    folded: Vec<i16>,
    /// Which of `folded`'s tables each number of empties reads.
    table_of: [u8; 65],
    band_len: usize,
    tops: Vec<u8>,
    band_of: [u8; 65],
}

/// Fixed-point scale of the stored weights.
pub const SCALE: i32 = 64;

static WEIGHTS_FILE: &[u8] = include_bytes!("../../../assets/endgame-eval.bin");

static WEIGHTS: LazyLock<Option<Weights>> = LazyLock::new(|| Weights::for_engine(WEIGHTS_FILE));

impl Weights {
    /// Weights from their bands' top empties (increasing, the last 64) and the values, band
    /// after band. `None` if the bands or the length do not fit the layout, or a folded entry
    /// (the sum of up to four weights) does not fit 16 bits.
    pub fn from_parts(tops: &[u8], w: Vec<i16>) -> Option<Weights> {
        let band_len = layout().1;
        if tops.is_empty()
            || tops.len() > 64
            || tops.last() != Some(&64)
            || tops.windows(2).any(|t| t[0] >= t[1])
            || w.len() != tops.len() * band_len
        {
            return None;
        }
        let mut band_of = [0u8; 65];
        let mut b = 0;
        for (n, slot) in band_of.iter_mut().enumerate() {
            while n > tops[b] as usize {
                b += 1;
            }
            *slot = b as u8;
        }
        let folded = fold(&w, tops.len(), band_len)?;
        Some(Weights {
            w,
            folded,
            table_of: band_of,
            band_len,
            tops: tops.to_vec(),
            band_of,
        })
    }

    /// These bands read blended (see [`Weights`]): one table per pair of empties counts, the
    /// folded band tables interpolated between the centres of the bands around the pair's
    /// centre (beyond the first and last centres, that band's own table). 33 tables instead
    /// of 14: 11 MB of weights.
    ///
    /// Measured (session 55) against NTest at equal time (NTest at depth 16 against `nboard
    /// --move-ms 64` uncapped, the six 40-game XOT sets of
    /// [`BUDGET_SHARES`](crate::protocol::nboard::BUDGET_SHARES), each run beside the bands read
    /// as fitted): blended per empties count (a 64-band weight file written by a throwaway
    /// script) 33.8% (67-145-28) beside 28.5% (53-156-31); per pair of empties (the same, 32
    /// bands) 33.8% (68-146-26) beside 34.8% (67-140-33); this code 33.5% (66-145-29) beside
    /// 30.8% (59-151-30). So 33.7% of 720 games against 31.4% of 720, one standard error of
    /// the difference being about 2.4 points: no worse, perhaps a little better. Both at
    /// depth 12 (the twelve fresh 40-game sets of
    /// [`FIXED_DEPTH_PROBCUT`](crate::protocol::nboard::FIXED_DEPTH_PROBCUT)): 45.1%
    /// (187-234-59) thinking 2.60 times NTest's time, where the bands as fitted scored 43.1%
    /// (178-244-58) at 2.59 times. `nboard --probcut 100,5` at depth 14 on 60 positions of our
    /// games against NTest: 15.3-15.9M nodes against 16.1-16.4M, in about the same time.
    /// Shipped with the Multi-ProbCut table refitted on it (`assets/probcut.txt`, the command
    /// in its header; σ of the pairs from 6 plies 4% and 9% smaller at 32-37 and 38-43
    /// empties, within 2% elsewhere, where the same command on the bands as fitted reproduces
    /// the previous table from 26 empties up): at equal time 32.3% (56-141-43), and 30.8%
    /// (58-150-32) beside the bands as fitted at 32.9% (61-143-36), so 31.5% of 480 where the
    /// bands as fitted scored 31.8% of 960 in the session: at equal time no difference shows.
    /// A third run beside the blend with the previous table: 31.7% (62-150-28) against 33.5%
    /// (67-146-27), so the refitted table 31.6% of 720 against the previous one's 33.6% of 960
    /// with the blend: two points, under one standard error, not settled.
    /// At depth 12 45.4% (184-228-68) thinking 2.47 times NTest's time: there the blend gains
    /// two or three points on the same sets.
    pub fn blended(&self) -> Weights {
        let centre = |b: usize| {
            let floor = if b == 0 {
                0.0
            } else {
                self.tops[b - 1] as f32 + 1.0
            };
            (floor + self.tops[b] as f32) / 2.0
        };
        let last = self.tops.len() - 1;
        let len = self.band_len;
        // from the bands as fitted, whichever way `self` reads them
        let bands = fold(&self.w, self.tops.len(), len).expect("folded when these were made");
        // the pairs {0}, {1, 2}, …, {63, 64}
        let pairs = 33;
        let mut folded = Vec::with_capacity(pairs * len);
        for k in 0..pairs {
            // the pair {2k - 1, 2k} (k = 0: no empties at all)
            let x = if k == 0 { 0.0 } else { 2.0 * k as f32 - 0.5 };
            let below = (0..last).rev().find(|&b| centre(b) <= x);
            match below {
                Some(b) if x < centre(last) => {
                    let t = (x - centre(b)) / (centre(b + 1) - centre(b));
                    let (lo, hi) = (&bands[b * len..][..len], &bands[(b + 1) * len..][..len]);
                    folded.extend(
                        lo.iter()
                            .zip(hi)
                            .map(|(&a, &c)| (a as f32 + (c as f32 - a as f32) * t).round() as i16),
                    );
                }
                _ => {
                    let b = if x >= centre(last) { last } else { 0 };
                    folded.extend_from_slice(&bands[b * len..][..len]);
                }
            }
        }
        let mut table_of = [0u8; 65];
        for (n, slot) in table_of.iter_mut().enumerate() {
            *slot = n.div_ceil(2) as u8;
        }
        Weights {
            w: self.w.clone(),
            folded,
            table_of,
            band_len: len,
            tops: self.tops.clone(),
            band_of: self.band_of,
        }
    }

    /// Parse a weight file: [`MAGIC`], the band count and tops, then little-endian i16 values;
    /// or, without the header, the six [`LEGACY_TOPS`] bands. `None` if the file does not fit
    /// (then the solver orders moves without the evaluation).
    pub fn from_bytes(bytes: &[u8]) -> Option<Weights> {
        let (tops, body): (&[u8], &[u8]) = match bytes.strip_prefix(MAGIC.as_slice()) {
            Some(rest) => {
                let n = *rest.first()? as usize;
                (rest.get(1..1 + n)?, rest.get(1 + n..)?)
            }
            None => (&LEGACY_TOPS, bytes),
        };
        if body.len() % 2 != 0 {
            return None;
        }
        let w = body
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Weights::from_parts(tops, w)
    }

    /// The weight file of these weights (with the band header).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.push(self.tops.len() as u8);
        out.extend_from_slice(&self.tops);
        for &x in &self.w {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// The built-in weights as the engine reads them (blended), if the shipped file matches
    /// this layout.
    pub fn builtin() -> Option<&'static Weights> {
        WEIGHTS.as_ref()
    }

    /// A weight file as the engine reads it: parsed ([`Weights::from_bytes`]) and
    /// [blended](Weights::blended). The shipped file and `selfplay --b-weights` both come
    /// this way, so the same file always plays the same engine.
    pub fn for_engine(bytes: &[u8]) -> Option<Weights> {
        Weights::from_bytes(bytes).map(|w| w.blended())
    }

    /// The shipped file's bands as fitted (not blended): what the fitter starts from and
    /// labels with, so the shipped training command still reproduces the shipped file.
    pub fn shipped_bands() -> Option<Weights> {
        Weights::from_bytes(WEIGHTS_FILE)
    }

    /// Top empties of each band.
    pub fn tops(&self) -> &[u8] {
        &self.tops
    }

    /// The band of a number of empties.
    #[inline]
    pub fn band(&self, empties: u32) -> usize {
        self.band_of[empties.min(64) as usize] as usize
    }

    /// One band's weights.
    pub fn band_weights(&self, band: usize) -> &[i16] {
        &self.w[band * self.band_len..(band + 1) * self.band_len]
    }

    /// Score in 1/64 disc from the kept indices of the side to move, the number of empties and
    /// both sides' mobility.
    #[inline]
    fn score(&self, empties: u32, view: &View, mobility: (i32, i32)) -> i32 {
        let band = self.table_of[empties.min(64) as usize] as usize * self.band_len;
        let w = &self.folded[band..band + self.band_len];
        let mut s = 0i32;
        for &i in &view[..N_KEPT] {
            s += w[i as usize] as i32;
        }
        let base = self.band_len - N_EXTRA;
        s + w[base] as i32 * mobility.0 + w[base + 1] as i32 * mobility.1 + w[base + 2] as i32
    }

    /// Score in 1/64 disc for the side to move.
    pub fn eval(&self, p: u64, o: u64) -> i32 {
        let mut idx = [0u32; N_LANES];
        indices_in(&KEPT, p, o, &mut idx);
        let mobility = (
            crate::game::othello::bitboard::moves(p, o).count_ones() as i32,
            crate::game::othello::bitboard::moves(o, p).count_ones() as i32,
        );
        self.score(64 - (p | o).count_ones(), &idx, mobility)
    }

    /// Score in 1/64 disc from one view's table indices (the side to move's), the number of
    /// empties and the mobility of the side to move and of the other side.
    #[inline]
    pub fn eval_view(&self, view: &View, empties: u32, mobility: (i32, i32)) -> i32 {
        self.score(empties, view, mobility)
    }

    /// Score in 1/64 disc for `side` to move (0 black, 1 white) from kept indices, the number of
    /// empties and the mobility of the side to move and of the other side.
    #[inline]
    pub fn eval_indices(
        &self,
        ind: &Indices,
        side: usize,
        empties: u32,
        mobility: (i32, i32),
    ) -> i32 {
        self.eval_view(ind.view(side), empties, mobility)
    }
}

/// The digit orders of the instances of shape `s` that read the squares of its first instance:
/// for each, the first instance's digit that its digit `k` reads. The same for every kept
/// instance of the shape (the shape's own symmetries relate each to the kept one alike).
fn same_square_orders(s: usize) -> Vec<Vec<usize>> {
    let shape = SHAPES[s];
    (0..N_SYM)
        .filter(|&y| instance_squares(s, y) == instance_squares(s, 0))
        .map(|y| {
            shape
                .iter()
                .map(|&x| {
                    let q = symmetry(y, x);
                    shape
                        .iter()
                        .position(|&x0| symmetry(0, x0) == q)
                        .unwrap_or(0)
                })
                .collect()
        })
        .collect()
}

/// `w` (`bands` bands of `band_len`) with each entry of a shape's table replaced by the sum of
/// the weights that the instances reading the same squares find for that configuration
/// (see [`Weights`]); `None` if a sum does not fit 16 bits.
fn fold(w: &[i16], bands: usize, band_len: usize) -> Option<Vec<i16>> {
    let (off, _) = layout();
    let mut out = w.to_vec();
    for (s, shape) in SHAPES.iter().enumerate() {
        let orders = same_square_orders(s);
        if orders.len() == 1 {
            continue;
        }
        let len = shape.len();
        let mut digits = [0usize; 16];
        let mut at = vec![0usize; orders.len()];
        for i in 0..3usize.pow(len as u32) {
            let mut x = i;
            for d in digits.iter_mut().take(len) {
                *d = x % 3;
                x /= 3;
            }
            for (a, order) in at.iter_mut().zip(&orders) {
                *a = order.iter().rev().fold(0, |j, &k| j * 3 + digits[k]);
            }
            for b in 0..bands {
                let table = b * band_len + off[s];
                let sum: i32 = at.iter().map(|&j| w[table + j] as i32).sum();
                out[table + i] = i16::try_from(sum).ok()?;
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow_indices(p: u64, o: u64) -> Vec<u32> {
        let mut out = Vec::new();
        let mut off = 0u32;
        for shape in SHAPES {
            for y in 0..N_SYM {
                let mut idx = 0u32;
                for &sq in shape.iter().rev() {
                    let b = 1u64 << symmetry(y, sq);
                    idx = idx * 3 + (p & b != 0) as u32 + 2 * (o & b != 0) as u32;
                }
                out.push(off + idx);
            }
            off += 3u32.pow(shape.len() as u32);
        }
        out
    }

    #[test]
    fn instances_cover_their_shapes_on_the_board() {
        for shape in SHAPES {
            for y in 0..N_SYM {
                let mut seen = 0u64;
                for &sq in shape {
                    let q = symmetry(y, sq);
                    assert!(q < 64);
                    seen |= 1 << q;
                }
                assert_eq!(seen.count_ones() as usize, shape.len(), "distinct squares");
            }
        }
        let total = TABLES
            .powers
            .iter()
            .flatten()
            .filter(|&&pw| pw != 0)
            .count();
        assert_eq!(total, SHAPES.iter().map(|s| s.len() * N_SYM).sum::<usize>());
    }

    /// Random positions and games: xorshift, legal moves only.
    fn random_games(mut f: impl FnMut(u64, u64, usize, Option<(usize, u64)>)) {
        use crate::game::othello::{START_BLACK, START_WHITE};
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..40 {
            let (mut b, mut w, mut side) = (START_BLACK, START_WHITE, 0);
            f(b, w, side, None);
            loop {
                let (p, o) = if side == 0 { (b, w) } else { (w, b) };
                let m = crate::game::othello::bitboard::moves(p, o);
                if m == 0 {
                    if crate::game::othello::bitboard::moves(o, p) == 0 {
                        break;
                    }
                    side ^= 1;
                    continue;
                }
                let mut k = crate::search::test_xorshift(&mut rng) % m.count_ones() as u64;
                let mut mm = m;
                while k > 0 {
                    mm &= mm - 1;
                    k -= 1;
                }
                let sq = mm.trailing_zeros() as usize;
                let fl = crate::game::othello::bitboard::flips(sq, p, o);
                let (np, no) = (p | fl | (1 << sq), o ^ fl);
                (b, w) = if side == 0 { (np, no) } else { (no, np) };
                f(b, w, side, Some((sq, fl)));
                side ^= 1;
            }
        }
    }

    #[test]
    fn fast_and_kept_indices_match_the_square_by_square_reading() {
        let mut kept: Option<Indices> = None;
        let mut history: Vec<(Indices, usize, usize, u64)> = Vec::new();
        random_games(|b, w, side, mv| {
            let mut idx = [0u32; N_FEATURES];
            indices(b, w, &mut idx);
            assert_eq!(idx.to_vec(), slow_indices(b, w));
            match (mv, kept.as_mut()) {
                (Some((sq, fl)), Some(k)) => {
                    history.push((k.clone(), side, sq, fl));
                    k.play(side, sq, fl);
                }
                _ => {
                    history.clear();
                    kept = Some(Indices::new(b, w));
                }
            }
            let k = kept.as_ref().expect("set above");
            assert_eq!(*k, Indices::new(b, w));
        });
        // undo restores every earlier state of the last game
        let mut k = kept.expect("games played");
        assert!(history.len() > 20);
        while let Some((before, side, sq, fl)) = history.pop() {
            k.undo(side, sq, fl);
            assert_eq!(k, before);
        }
    }

    #[test]
    fn folded_weights_score_as_every_instance_does() {
        // 8 corner 2x5 instances; 4 of the corner 3x3, the edge, each row and each shorter
        // diagonal (nine shapes); 2 long diagonals
        assert_eq!(N_KEPT, 8 + 4 * 9 + 2);
        let w = &Weights::shipped_bands().expect("shipped weights load");
        let (off, band_len) = layout();
        // every table entry of every band distinct, so a wrong digit order cannot agree by luck
        let mut spread = w.w.clone();
        for (k, x) in spread.iter_mut().enumerate() {
            *x = (k % 8191) as i16 - 4095;
        }
        let spread = Weights::from_parts(w.tops(), spread).expect("fits 16 bits");
        assert!(off.len() == N_SHAPES && band_len == w.band_len);
        random_games(|b, wh, _, _| {
            for (p, o) in [(b, wh), (wh, b)] {
                for w in [w, &spread] {
                    // the trainer's view: every instance's index and the extra features
                    let mut idx = [0usize; N_FEATURES];
                    let extra = features(p, o, &mut idx);
                    let band = w.band_weights(w.band(64 - (p | o).count_ones()));
                    let base = band_len - N_EXTRA;
                    let every: i32 = idx.iter().map(|&i| band[i] as i32).sum::<i32>()
                        + (0..N_EXTRA)
                            .map(|k| band[base + k] as i32 * extra[k])
                            .sum::<i32>();
                    assert_eq!(w.eval(p, o), every);
                }
            }
        });
        // sums beyond 16 bits are refused
        assert!(Weights::from_parts(w.tops(), vec![i16::MAX; w.w.len()]).is_none());
    }

    #[test]
    fn blended_weights_interpolate_between_band_centres() {
        // two bands, 0-20 (centre 10) and 21-64 (centre 42.5), each one constant weight
        let len = layout().1;
        let mut w = vec![0i16; 2 * len];
        w[len - 1] = 64;
        w[2 * len - 1] = 64 * 66;
        let stepped = Weights::from_parts(&[20, 64], w).expect("two bands");
        let blended = stepped.blended();
        let ind = Indices::new(
            crate::game::othello::START_BLACK,
            crate::game::othello::START_WHITE,
        );
        let view = *ind.view(0);
        let at = |w: &Weights, n: u32| w.eval_view(&view, n, (0, 0));
        // as fitted: a step at the band's end
        assert_eq!((at(&stepped, 20), at(&stepped, 21)), (64, 64 * 66));
        // blended: the band's own weight up to its centre, the next band's from its centre on,
        // linear between them (the pair 25-26 reads the centre 25.5)
        assert_eq!((at(&blended, 3), at(&blended, 10)), (64, 64));
        assert_eq!((at(&blended, 43), at(&blended, 64)), (64 * 66, 64 * 66));
        let expect: f32 = 64.0 + 64.0 * 65.0 * (25.5 - 10.0) / (42.5 - 10.0);
        assert_eq!(at(&blended, 25), expect.round() as i32);
        assert_eq!(at(&blended, 25), at(&blended, 26));
        for n in 11..43 {
            assert!(
                at(&blended, n) <= at(&blended, n + 1),
                "rises between the centres"
            );
        }
        // the bands themselves are unchanged: the fitter and the weight file see them as fitted
        assert_eq!(blended.to_bytes(), stepped.to_bytes());
        assert_eq!(blended.band(21), 1);
        // blending blended weights blends the bands once
        assert_eq!(blended.blended().folded, blended.folded);
    }

    #[test]
    fn kept_and_direct_evaluations_agree() {
        let w = Weights::builtin().expect("shipped weights load");
        random_games(|b, wh, _, _| {
            let ind = Indices::new(b, wh);
            for side in 0..2 {
                let (p, o) = if side == 0 { (b, wh) } else { (wh, b) };
                let mob = (
                    crate::game::othello::bitboard::moves(p, o).count_ones() as i32,
                    crate::game::othello::bitboard::moves(o, p).count_ones() as i32,
                );
                let n = 64 - (p | o).count_ones();
                assert_eq!(w.eval(p, o), w.eval_indices(&ind, side, n, mob));
            }
        });
    }

    #[test]
    fn weight_files_round_trip_and_bad_ones_are_refused() {
        let w = Weights::builtin().expect("shipped weights load");
        let again = Weights::from_bytes(&w.to_bytes()).expect("round trip");
        assert_eq!(again.tops(), w.tops());
        assert_eq!(again.band_weights(0), w.band_weights(0));
        let bytes = w.to_bytes();
        assert!(Weights::from_bytes(&bytes[..bytes.len() - 2]).is_none());
        assert!(Weights::from_bytes(&bytes[..12]).is_none());
        assert!(Weights::from_parts(&[10, 5, 64], vec![0; 3 * layout().1]).is_none());
        assert!(Weights::from_parts(&[10, 40], vec![0; 2 * layout().1]).is_none());
        let two = Weights::from_parts(&[20, 64], vec![0; 2 * layout().1]).expect("two bands");
        assert_eq!(
            (two.band(0), two.band(20), two.band(21), two.band(64)),
            (0, 0, 1, 1)
        );
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
        let mut a = [0; N_FEATURES];
        let mut b = [0; N_FEATURES];
        let ea = features(p, o, &mut a);
        let eb = features(mirror(p), mirror(o), &mut b);
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
        assert_eq!(ea, eb);
    }
}
