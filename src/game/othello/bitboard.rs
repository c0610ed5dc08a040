//! The one Othello bit kernel: the rules ([`Othello`](super::Othello)), perft, the midgame
//! search and the exact solver all call it. Flips by ray masks, mobility by paired-shift fills,
//! the final score, the flip count of the very last empty square by table lookup, quadrant
//! parity, potential mobility and a lower bound on stable discs.
//!
//! Every function works on raw `(player, opponent)` bitboards in the crate's layout (a1 = bit 0,
//! index = row * 8 + col). [`flips`] and [`moves`] come in vector versions (AVX2, AVX-512) chosen
//! when the build targets a CPU that has them (`.cargo/config.toml`), and portable versions
//! ([`flips_scalar`], [`moves_scalar`]) otherwise; the unit tests below check every version
//! against a square-by-square walk (`reference::flips_slow` in `crate::game::othello`) on
//! random positions.

use std::sync::LazyLock;

/// Columns b–g (no wrap for shifts with a horizontal component).
const NOT_EDGE: u64 = 0x7E7E_7E7E_7E7E_7E7E;
/// The four corners.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;
/// b2–g7: squares whose eight neighbours are all on the board.
const INNER: u64 = 0x007E_7E7E_7E7E_7E00;

/// (dx, dy) of the eight directions; the first four move towards higher bit indices.
const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
];

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = DIRS[d];
            let mut x = (sq % 8) as i32 + dx;
            let mut y = (sq / 8) as i32 + dy;
            let mut m = 0u64;
            while x >= 0 && x < 8 && y >= 0 && y < 8 {
                m |= 1u64 << (y * 8 + x);
                x += dx;
                y += dy;
            }
            rays[sq][d] = m;
            d += 1;
        }
        sq += 1;
    }
    rays
}

const fn build_neighbours() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = DIRS[d];
            let (x, y) = ((sq % 8) as i32 + dx, (sq / 8) as i32 + dy);
            if x >= 0 && x < 8 && y >= 0 && y < 8 {
                t[sq] |= 1u64 << (y * 8 + x);
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// The (up to eight) squares next to each square: a move on `x` needs an opponent's disc there.
pub static NEIGHBOURS: [u64; 64] = build_neighbours();

/// For each square, the eight rays leaving it (the square itself excluded).
static RAYS: [[u64; 8]; 64] = build_rays();

/// The final disc difference for `p` of a finished game: empties go to the winner.
#[inline(always)]
pub fn final_score(p: u64, o: u64) -> i32 {
    let pc = p.count_ones() as i32;
    let oc = o.count_ones() as i32;
    let diff = pc - oc;
    let e = 64 - pc - oc;
    if diff > 0 {
        diff + e
    } else if diff < 0 {
        diff - e
    } else {
        0
    }
}

/// The discs `player` flips by playing on the empty square `x` (0 if the move is illegal).
///
/// With AVX2 (the x86-64 build uses what the CPU that compiles it has, see `.cargo/config.toml`)
/// the four rays towards higher indices are done in one vector register and the four towards
/// lower indices in another (lane k: steps of 1, 8, 9, 7 squares); otherwise ray by ray by
/// [`flips_scalar`]. Same results.
///
/// Upwards, the first non-opponent square is the lowest set bit of `!o & ray` (`t & -t`).
/// Downwards it is the highest: with AVX-512 (VL and CD) found by a leading-zero count of each
/// lane; AVX2 has none, so there every ray square below another one of `t` is erased first (`t`
/// shifted down by 1, 2, 4, 8 steps, or-ed together). If the square found holds a player's disc,
/// the ray squares between it and `x` flip.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
pub fn flips(x: usize, p: u64, o: u64) -> u64 {
    use std::arch::x86_64::{
        __m256i, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_add_epi64,
        _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi64,
        _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi64x,
        _mm256_setzero_si256, _mm256_slli_epi64, _mm256_srlv_epi64, _mm256_sub_epi64,
    };
    let rays = &RAYS[x & 63];
    // Safety: this version is only compiled when the build enables AVX2 for every function
    // (`target_feature = "avx2"`), so the instructions exist on any CPU the binary runs on (the
    // binaries check the CPU at start-up, see `crate::cpu`); `rays` holds eight u64, so both
    // 32-byte unaligned loads stay inside it.
    unsafe {
        let up = _mm256_loadu_si256(rays.as_ptr().cast::<__m256i>());
        let down = _mm256_loadu_si256(rays.as_ptr().add(4).cast::<__m256i>());
        let pp = _mm256_set1_epi64x(p as i64);
        let oo = _mm256_set1_epi64x(o as i64);
        let zero = _mm256_setzero_si256();
        // towards higher indices
        let t = _mm256_andnot_si256(oo, up);
        let first = _mm256_and_si256(t, _mm256_sub_epi64(zero, t));
        let out = _mm256_and_si256(first, pp);
        let run = _mm256_and_si256(up, _mm256_add_epi64(out, _mm256_set1_epi64x(-1)));
        let f_up = _mm256_andnot_si256(_mm256_cmpeq_epi64(out, zero), run);
        // towards lower indices
        let t = _mm256_andnot_si256(oo, down);
        #[cfg(all(target_feature = "avx512vl", target_feature = "avx512cd"))]
        let top = {
            // the highest set bit by a leading-zero count (64 for an empty lane: shifted out)
            use std::arch::x86_64::_mm256_lzcnt_epi64;
            _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(t))
        };
        #[cfg(not(all(target_feature = "avx512vl", target_feature = "avx512cd")))]
        let top = {
            use std::arch::x86_64::_mm256_set_epi64x;
            let step = _mm256_set_epi64x(7, 9, 8, 1);
            let mut below = _mm256_srlv_epi64(t, step);
            below = _mm256_or_si256(below, _mm256_srlv_epi64(below, step));
            below = _mm256_or_si256(
                below,
                _mm256_srlv_epi64(below, _mm256_set_epi64x(14, 18, 16, 2)),
            );
            below = _mm256_or_si256(
                below,
                _mm256_srlv_epi64(below, _mm256_set_epi64x(28, 36, 32, 4)),
            );
            _mm256_andnot_si256(below, t)
        };
        let out = _mm256_and_si256(top, pp);
        let f_down = _mm256_and_si256(down, _mm256_slli_epi64(_mm256_sub_epi64(zero, out), 1));
        let f = _mm256_or_si256(f_up, f_down);
        let h = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256(f, 1));
        _mm_cvtsi128_si64(_mm_or_si128(h, _mm_unpackhi_epi64(h, h))) as u64
    }
}

/// The discs `player` flips by playing on the empty square `x` (0 if the move is illegal).
#[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
#[inline(always)]
pub fn flips(x: usize, p: u64, o: u64) -> u64 {
    flips_scalar(x, p, o)
}

/// Flips ray by ray in general-purpose registers.
///
/// In a ray towards higher indices the first square that is not an opponent's disc is the lowest
/// set bit of `!o & ray`; towards lower indices it is the highest. If that square holds a player's
/// disc, every ray square strictly between it and `x` flips.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "avx2"))))]
#[inline(always)]
pub fn flips_scalar(x: usize, p: u64, o: u64) -> u64 {
    let r = &RAYS[x & 63];
    let mut f = 0;
    let mut d = 0;
    while d < 4 {
        let m = r[d];
        let t = !o & m;
        let out = t & t.wrapping_neg() & p;
        f |= out.wrapping_sub((out != 0) as u64) & m;
        d += 1;
    }
    while d < 8 {
        let m = r[d];
        let t = !o & m;
        let top = (1u64 << 63) >> (t | 1).leading_zeros();
        let out = top & t & p;
        f |= (out.wrapping_neg() << 1) & m;
        d += 1;
    }
    f
}

#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "avx2"))))]
#[inline(always)]
fn fill_pair(p: u64, m: u64, d: u32) -> u64 {
    let mut l = m & (p << d);
    let mut r = m & (p >> d);
    l |= m & (l << d);
    r |= m & (r >> d);
    let ml = m & (m << d);
    let mr = ml >> d;
    l |= ml & (l << (2 * d));
    r |= mr & (r >> (2 * d));
    l |= ml & (l << (2 * d));
    r |= mr & (r >> (2 * d));
    (l << d) | (r >> d)
}

/// The squares where `p` may move, on a CPU with AVX2 but not AVX-512: [`moves_avx2`].
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    not(target_feature = "avx512f")
))]
#[inline(always)]
pub fn moves(p: u64, o: u64) -> u64 {
    moves_avx2(p, o)
}

/// The squares where `p` may move, the four directions filled at once, one per 64-bit lane of
/// an AVX2 register (steps of 1, 8, 9, 7 squares), by the same paired-shift fill as
/// [`moves_scalar`]. Same results. Also compiled for the tests on an AVX-512 CPU, so that the
/// kernel other CPUs run is checked there too.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    any(test, not(target_feature = "avx512f"))
))]
#[inline(always)]
fn moves_avx2(p: u64, o: u64) -> u64 {
    use std::arch::x86_64::{
        _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_and_si256,
        _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_or_si256, _mm256_set_epi64x,
        _mm256_set1_epi64x, _mm256_sllv_epi64, _mm256_srlv_epi64,
    };
    let me = (o & NOT_EDGE) as i64;
    // Safety: compiled only when the build enables AVX2 for every function (see `flips`); pure
    // register arithmetic, no memory access.
    let f = unsafe {
        let pp = _mm256_set1_epi64x(p as i64);
        let m = _mm256_set_epi64x(me, me, o as i64, me);
        let d = _mm256_set_epi64x(7, 9, 8, 1);
        let d2 = _mm256_set_epi64x(14, 18, 16, 2);
        let mut l = _mm256_and_si256(m, _mm256_sllv_epi64(pp, d));
        let mut r = _mm256_and_si256(m, _mm256_srlv_epi64(pp, d));
        l = _mm256_or_si256(l, _mm256_and_si256(m, _mm256_sllv_epi64(l, d)));
        r = _mm256_or_si256(r, _mm256_and_si256(m, _mm256_srlv_epi64(r, d)));
        let ml = _mm256_and_si256(m, _mm256_sllv_epi64(m, d));
        let mr = _mm256_srlv_epi64(ml, d);
        l = _mm256_or_si256(l, _mm256_and_si256(ml, _mm256_sllv_epi64(l, d2)));
        r = _mm256_or_si256(r, _mm256_and_si256(mr, _mm256_srlv_epi64(r, d2)));
        l = _mm256_or_si256(l, _mm256_and_si256(ml, _mm256_sllv_epi64(l, d2)));
        r = _mm256_or_si256(r, _mm256_and_si256(mr, _mm256_srlv_epi64(r, d2)));
        let f = _mm256_or_si256(_mm256_sllv_epi64(l, d), _mm256_srlv_epi64(r, d));
        let h = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256(f, 1));
        _mm_cvtsi128_si64(_mm_or_si128(h, _mm_unpackhi_epi64(h, h))) as u64
    };
    f & !(p | o)
}

/// The squares where `p` may move, all eight directions at once in one AVX-512 register (lane
/// k: rotations by 1, 8, 9, 7 squares up, then the same down, as rotations by 64 minus those).
/// A rotation is a shift whose bits carried off one end come back at the other; here each
/// direction's opponent mask keeps only the squares inside that direction's edges (a disc on
/// the edge cannot be flanked along it), so a bit that comes back round always lands outside
/// the mask and the fill is the same as [`moves_scalar`]'s.
#[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
#[inline(always)]
pub fn moves(p: u64, o: u64) -> u64 {
    use std::arch::x86_64::{
        _mm512_and_si512, _mm512_or_si512, _mm512_reduce_or_epi64, _mm512_rolv_epi64,
        _mm512_set_epi64, _mm512_set1_epi64,
    };
    let h = (o & NOT_EDGE) as i64;
    let v = (o & 0x00FF_FFFF_FFFF_FF00) as i64;
    let d = (o & INNER) as i64;
    // Safety: compiled only when the build enables AVX-512F for every function (see `flips`);
    // pure register arithmetic, no memory access.
    let f = unsafe {
        let pp = _mm512_set1_epi64(p as i64);
        let m = _mm512_set_epi64(d, d, v, h, d, d, v, h);
        let r = _mm512_set_epi64(57, 55, 56, 63, 7, 9, 8, 1);
        let r2 = _mm512_set_epi64(50, 46, 48, 62, 14, 18, 16, 2);
        let mut l = _mm512_and_si512(m, _mm512_rolv_epi64(pp, r));
        l = _mm512_or_si512(l, _mm512_and_si512(m, _mm512_rolv_epi64(l, r)));
        let ml = _mm512_and_si512(m, _mm512_rolv_epi64(m, r));
        l = _mm512_or_si512(l, _mm512_and_si512(ml, _mm512_rolv_epi64(l, r2)));
        l = _mm512_or_si512(l, _mm512_and_si512(ml, _mm512_rolv_epi64(l, r2)));
        _mm512_reduce_or_epi64(_mm512_rolv_epi64(l, r)) as u64
    };
    f & !(p | o)
}

/// The squares where `p` may move.
#[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
#[inline(always)]
pub fn moves(p: u64, o: u64) -> u64 {
    moves_scalar(p, o)
}

/// The squares where `p` may move, direction by direction in general-purpose registers.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "avx2"))))]
#[inline(always)]
pub fn moves_scalar(p: u64, o: u64) -> u64 {
    let m = o & NOT_EDGE;
    (fill_pair(p, m, 1) | fill_pair(p, o, 8) | fill_pair(p, m, 7) | fill_pair(p, m, 9)) & !(p | o)
}

/// Empty squares next to an opponent's disc: where `p` might one day move.
#[inline(always)]
pub fn potential_moves(p: u64, o: u64) -> u64 {
    let m = o & NOT_EDGE;
    let near =
        (m << 1) | (m >> 1) | (o << 8) | (o >> 8) | (m << 7) | (m >> 7) | (m << 9) | (m >> 9);
    near & !(p | o)
}

/// Number of the moves `m` (from [`moves`]), with corners counted twice (a corner move is worth
/// more to the mover).
#[inline(always)]
pub fn weighted_mobility(m: u64) -> u32 {
    m.count_ones() + (m & CORNERS).count_ones()
}

/// Corners of `p` plus the edge squares of `p` next to one of its corners: discs that are stable
/// for certain, cheap enough to count for every move of a sorted node.
#[inline(always)]
pub fn corner_stability(p: u64) -> u32 {
    let c = p & CORNERS;
    let near = ((c & 0x0100_0000_0000_0001) << 1)
        | ((c & 0x8000_0000_0000_0080) >> 1)
        | ((c & 0x0000_0000_0000_0081) << 8)
        | ((c & 0x8100_0000_0000_0000) >> 8);
    ((near & p) | c).count_ones()
}

// ---- the last empty square ----------------------------------------------------------------

/// `COUNT_FLIP[i][line]`: discs flipped on an 8-square line by a move at position `i` when the
/// mover owns the squares set in `line` and the opponent owns every other square but `i`.
const fn build_count_flip() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut i = 0;
    while i < 8 {
        let mut line = 0;
        while line < 256 {
            let mut n = 0u8;
            // towards higher positions
            let mut j = i + 1;
            let mut run = 0u8;
            while j < 8 && line & (1 << j) == 0 {
                run += 1;
                j += 1;
            }
            if j < 8 {
                n += run;
            }
            // towards lower positions
            let mut j = i as i32 - 1;
            let mut run = 0u8;
            while j >= 0 && line & (1 << j) == 0 {
                run += 1;
                j -= 1;
            }
            if j >= 0 {
                n += run;
            }
            t[i][line] = n;
            line += 1;
        }
        i += 1;
    }
    t
}

static COUNT_FLIP: [[u8; 256]; 8] = build_count_flip();

const fn build_diagonals() -> [[u64; 2]; 64] {
    let rays = build_rays();
    let mut t = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        // a1–h8 direction (dirs 2 and 6) and a8–h1 direction (dirs 3 and 7), x itself included
        t[sq][0] = rays[sq][2] | rays[sq][6] | (1u64 << sq);
        t[sq][1] = rays[sq][3] | rays[sq][7] | (1u64 << sq);
        sq += 1;
    }
    t
}

static DIAGONALS: [[u64; 2]; 64] = build_diagonals();

/// Bits of the a-file (a1, a2, …, a8) packed into a byte, a1 lowest.
#[inline(always)]
fn pack_file_a(b: u64) -> usize {
    ((b & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// Bits of a diagonal (one bit per column) packed into a byte indexed by column.
#[inline(always)]
fn pack_diagonal(b: u64) -> usize {
    (b.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
}

/// Discs `p` would flip on `x` when `x` is the only empty square (so the opponent owns the rest).
#[inline(always)]
pub fn last_flip_count(x: usize, p: u64) -> i32 {
    let x = x & 63;
    let (row, col) = (x >> 3, x & 7);
    let rowb = ((p >> (row * 8)) & 0xFF) as usize;
    let colb = pack_file_a(p >> col);
    let d9 = pack_diagonal(p & DIAGONALS[x][0]);
    let d7 = pack_diagonal(p & DIAGONALS[x][1]);
    (COUNT_FLIP[col][rowb] as i32)
        + (COUNT_FLIP[row][colb] as i32)
        + (COUNT_FLIP[col][d9] as i32)
        + (COUNT_FLIP[col][d7] as i32)
}

// ---- quadrant parity ------------------------------------------------------------------------

/// Quadrant bit of each square, looked up (one load instead of six shifts and masks).
static QUADRANT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut x = 0;
    while x < 64 {
        t[x] = 1 << ((((x >> 5) & 1) << 1) | ((x >> 2) & 1));
        x += 1;
    }
    t
};

/// Quadrant bit of each square: 1 = a1–d4, 2 = e1–h4, 4 = a5–d8, 8 = e5–h8.
#[inline(always)]
pub fn quadrant(x: usize) -> u8 {
    QUADRANT[x & 63]
}

const fn build_quadrant_masks() -> [u64; 16] {
    const Q: [u64; 4] = [
        0x0000_0000_0F0F_0F0F,
        0x0000_0000_F0F0_F0F0,
        0x0F0F_0F0F_0000_0000,
        0xF0F0_F0F0_0000_0000,
    ];
    let mut t = [0u64; 16];
    let mut i = 0;
    while i < 16 {
        let mut q = 0;
        while q < 4 {
            if i & (1 << q) != 0 {
                t[i] |= Q[q];
            }
            q += 1;
        }
        i += 1;
    }
    t
}

/// The union of the quadrants whose bits are set in the index.
pub static QUADRANT_MASK: [u64; 16] = build_quadrant_masks();

/// Bit q set when quadrant q holds an odd number of empty squares.
pub fn parity_of(empties: u64) -> u8 {
    (0..4).fold(0u8, |acc, q| {
        acc | ((((empties & QUADRANT_MASK[1 << q]).count_ones() & 1) as u8) << q)
    })
}

// ---- stability -------------------------------------------------------------------------------

/// `EDGE_STABLE[p * 256 + o]`: the discs of `p` on an 8-square edge line (the masks `p`, `o` of
/// the line) that no sequence of moves on that line can flip. Edge discs can only be flipped along
/// their edge, so for them this is exact. Computed once by a sweep over all 3^8 line states, from
/// full lines to empty ones: a disc is stable when it is still the mover's after every
/// placement by either side on any empty square, with or without flips.
static EDGE_STABLE: LazyLock<Box<[u8]>> = LazyLock::new(build_edge_stable);

fn line_flips(i: usize, p: u32, o: u32) -> u32 {
    let mut f = 0;
    for step in [1i32, -1] {
        let mut j = i as i32 + step;
        let mut run = 0;
        while (0..8).contains(&j) && o & (1 << j) != 0 {
            run |= 1 << j;
            j += step;
        }
        if (0..8).contains(&j) && p & (1 << j) != 0 {
            f |= run;
        }
    }
    f
}

fn build_edge_stable() -> Box<[u8]> {
    let mut t = vec![0u8; 65536].into_boxed_slice();
    // states ordered by number of empties, so children are done before parents
    for empties in 0..=8u32 {
        for p in 0u32..256 {
            for o in 0u32..256 {
                if p & o != 0 || 8 - (p | o).count_ones() != empties {
                    continue;
                }
                let mut stable = p;
                let free = !(p | o) & 0xFF;
                for i in 0..8 {
                    if free & (1 << i) == 0 {
                        continue;
                    }
                    let bit = 1u32 << i;
                    // p places a disc on i
                    let f = line_flips(i, p, o);
                    stable &= t[(((p | bit | f) << 8) | (o & !f)) as usize] as u32;
                    // o places a disc on i
                    let f = line_flips(i, o, p);
                    stable &= t[(((p & !f) << 8) | (o | bit | f)) as usize] as u32;
                }
                t[((p << 8) | o) as usize] = stable as u8;
            }
        }
    }
    t
}

/// The edge table, forced once (callers keep the reference so the hot path has no lazy check).
pub fn edge_table() -> &'static [u8] {
    &EDGE_STABLE
}

const fn build_file_unpack() -> [u64; 256] {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut r = 0;
        while r < 8 {
            if b & (1 << r) != 0 {
                t[b] |= 1u64 << (8 * r);
            }
            r += 1;
        }
        b += 1;
    }
    t
}

/// A byte unpacked onto the a-file (bit r → a(r+1)).
static FILE_UNPACK: [u64; 256] = build_file_unpack();

/// Squares whose lines are completely filled in each of the four directions
/// (horizontal, vertical, a1–h8 diagonal, a8–h1 diagonal).
///
/// A diagonal is full at a square when it is full from there to the end in both directions;
/// each half is found by doubling: "this square and the next 1, 2, 4 along are filled", where
/// squares closer to the end than the step only need the part that is on the board.
#[inline(always)]
fn full_lines(filled: u64) -> [u64; 4] {
    let mut h = filled;
    h &= h >> 1;
    h &= h >> 2;
    h &= h >> 4;
    let h = (h & 0x0101_0101_0101_0101).wrapping_mul(0xFF);
    let mut v = filled;
    v &= v >> 8;
    v &= v >> 16;
    v &= v >> 32;
    let v = (v & 0xFF).wrapping_mul(0x0101_0101_0101_0101);
    // a1–h8: up-right (>> 9 brings the next square down to this one) and down-left (<< 9)
    let mut ur = filled;
    ur &= (ur >> 9) | 0xFF80_8080_8080_8080;
    ur &= (ur >> 18) | 0xFFFF_C0C0_C0C0_C0C0;
    ur &= (ur >> 36) | 0xFFFF_FFFF_F0F0_F0F0;
    let mut dl = filled;
    dl &= (dl << 9) | 0x0101_0101_0101_01FF;
    dl &= (dl << 18) | 0x0303_0303_0303_FFFF;
    dl &= (dl << 36) | 0x0F0F_0F0F_FFFF_FFFF;
    // a8–h1: up-left (>> 7) and down-right (<< 7)
    let mut ul = filled;
    ul &= (ul >> 7) | 0xFF01_0101_0101_0101;
    ul &= (ul >> 14) | 0xFFFF_0303_0303_0303;
    ul &= (ul >> 28) | 0xFFFF_FFFF_0F0F_0F0F;
    let mut dr = filled;
    dr &= (dr << 7) | 0x8080_8080_8080_80FF;
    dr &= (dr << 14) | 0xC0C0_C0C0_C0C0_FFFF;
    dr &= (dr << 28) | 0xF0F0_F0F0_FFFF_FFFF;
    [h, v, ur & dl, ul & dr]
}

/// All the stable discs [`stable_discs_until`] finds when it never stops early.
#[cfg(test)]
pub fn stable_discs(p: u64, o: u64, edge: &[u8]) -> u64 {
    stable_discs_until(p, o, edge, 65)
}

/// A subset of the discs of `p` that can never be flipped: exact edge stability, discs whose four
/// lines are full, and inner discs that in each direction touch a stable disc of their colour or
/// sit on a full line (iterated to a fixed point, or until it holds `enough` discs: a cutoff test
/// only needs to know whether there are that many).
#[inline]
pub fn stable_discs_until(p: u64, o: u64, edge: &[u8], enough: u32) -> u64 {
    // the edge table has one entry per pair of line masks; a table of another size (never made
    // by `edge_table`) proves nothing stable
    let Ok(edge) = <&[u8; 65536]>::try_from(edge) else {
        return 0;
    };
    let e = |pb: usize, ob: usize| edge[((pb & 0xFF) << 8) | (ob & 0xFF)] as u64;
    let mut s = e(p as usize, o as usize)
        | (e((p >> 56) as usize, (o >> 56) as usize) << 56)
        | FILE_UNPACK[e(pack_file_a(p), pack_file_a(o)) as usize]
        | (FILE_UNPACK[e(pack_file_a(p >> 7), pack_file_a(o >> 7)) as usize] << 7);
    let [fh, fv, f9, f7] = full_lines(p | o);
    let inner = p & INNER;
    s |= inner & fh & fv & f9 & f7;
    loop {
        if s.count_ones() >= enough {
            return s;
        }
        let h = (s >> 1) | (s << 1) | fh;
        let v = (s >> 8) | (s << 8) | fv;
        let d9 = (s >> 9) | (s << 9) | f9;
        let d7 = (s >> 7) | (s << 7) | f7;
        let next = s | (h & v & d9 & d7 & inner);
        if next == s {
            return s;
        }
        s = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello;

    /// Small deterministic generator (SplitMix64) for random positions.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn position(&mut self) -> (u64, u64) {
            let a = self.next();
            let b = self.next() & self.next();
            let filled = a | b | self.next();
            let p = filled & self.next();
            (p, filled & !p)
        }
    }

    /// The moves by the reference walk: the empty squares where it flips something.
    fn moves_slow(p: u64, o: u64) -> u64 {
        (0..64)
            .filter(|&x| !(p | o) & (1 << x) != 0 && othello::reference::flips_slow(x, p, o) != 0)
            .fold(0, |m, x| m | 1 << x)
    }

    #[test]
    fn moves_and_flips_agree_with_the_reference_walk() {
        let mut rng = Rng(7);
        for _ in 0..20_000 {
            let (p, o) = rng.position();
            let want_moves = moves_slow(p, o);
            assert_eq!(moves(p, o), want_moves);
            assert_eq!(moves_scalar(p, o), want_moves);
            #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
            assert_eq!(moves_avx2(p, o), want_moves);
            let empty = !(p | o);
            for x in 0..64 {
                if empty & (1 << x) != 0 {
                    let want = othello::reference::flips_slow(x, p, o);
                    assert_eq!(flips(x, p, o), want, "{p:x} {o:x} {x}");
                    assert_eq!(flips_scalar(x, p, o), want, "{p:x} {o:x} {x}");
                }
            }
        }
    }

    #[test]
    fn final_score_gives_empties_to_the_winner() {
        assert_eq!(final_score(0b111, 0b1000), 3 - 1 + 60);
        assert_eq!(final_score(0b1000, 0b111), -(3 - 1 + 60));
        assert_eq!(final_score(0b1, 0b10), 0);
    }

    #[test]
    fn last_flip_count_agrees_with_flips() {
        let mut rng = Rng(11);
        for _ in 0..20_000 {
            let x = (rng.next() % 64) as usize;
            let p = rng.next() & !(1 << x);
            let o = !p & !(1u64 << x);
            assert_eq!(
                last_flip_count(x, p),
                othello::flips(x, p, o).count_ones() as i32
            );
        }
    }

    /// Can any sequence of legal moves (with passes) flip one of `target`'s discs?
    /// Exhaustive over positions with few empties.
    fn flippable(p: u64, o: u64, target: u64) -> u64 {
        // discs of the original colour "p" may be owned by either side to move; track colour
        // by passing (mine, theirs) with mine = the colour of target.
        fn walk(mine: u64, theirs: u64, target: u64, mine_to_move: bool, passed: bool) -> u64 {
            let (mover, other) = if mine_to_move {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            let mv = othello::moves(mover, other);
            if mv == 0 {
                if passed {
                    return 0;
                }
                return walk(mine, theirs, target, !mine_to_move, true);
            }
            let mut lost = 0;
            let mut m = mv;
            while m != 0 {
                let x = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = othello::flips(x, mover, other);
                let (nm, nt) = if mine_to_move {
                    (mine | f | (1 << x), theirs & !f)
                } else {
                    lost |= f & target;
                    (mine & !f, theirs | f | (1 << x))
                };
                lost |= walk(nm, nt, target & nm, !mine_to_move, false);
            }
            lost
        }
        walk(p, o, target, true, false) | walk(p, o, target, false, false)
    }

    #[test]
    fn stable_discs_are_never_flipped() {
        let mut rng = Rng(5);
        let edge = edge_table();
        let mut checked = 0;
        while checked < 300 {
            let (p, o) = rng.position();
            let filled = p | o;
            // keep 5–7 empties so the exhaustive check stays small
            let mut empty = !filled;
            while empty.count_ones() > 7 {
                empty &= empty - 1;
            }
            if empty.count_ones() < 5 {
                continue;
            }
            let p = p & !empty;
            let o = !p & !empty;
            let s = stable_discs(p, o, edge);
            assert_eq!(s & !p, 0);
            assert_eq!(flippable(p, o, s), 0, "p {p:#x} o {o:#x} stable {s:#x}");
            checked += 1;
        }
    }

    #[test]
    fn stopping_at_enough_stable_discs_finds_that_many_or_all() {
        let mut rng = Rng(9);
        let edge = edge_table();
        for i in 0..5_000 {
            let (p, o) = rng.position();
            // mostly full boards, where many discs are stable
            let holes = rng.next() & rng.next() & rng.next() & rng.next();
            let (p, o) = (p & !holes, o & !holes);
            let all = stable_discs(p, o, edge);
            let enough = i % 40;
            let some = stable_discs_until(p, o, edge, enough);
            assert_eq!(some & !all, 0, "p {p:#x} o {o:#x}");
            assert!(
                some == all || some.count_ones() >= enough,
                "p {p:#x} o {o:#x}"
            );
        }
    }

    /// Full lines square by square, the slow way.
    fn full_lines_reference(filled: u64) -> [u64; 4] {
        let mut out = [0u64; 4];
        for (x, rays) in RAYS.iter().enumerate() {
            // directions k and k + 4 make one line
            for (k, lines) in out.iter_mut().enumerate() {
                let line = rays[k] | rays[k + 4] | (1u64 << x);
                if filled & line == line {
                    *lines |= 1 << x;
                }
            }
        }
        out
    }

    #[test]
    fn full_lines_match_the_square_by_square_check() {
        let mut rng = Rng(3);
        for i in 0..20_000 {
            // mostly filled boards, so full lines of every length occur
            let holes = match i % 3 {
                0 => rng.next() & rng.next() & rng.next() & rng.next(),
                1 => rng.next() & rng.next() & rng.next() & rng.next() & rng.next() & rng.next(),
                _ => 1u64 << (rng.next() % 64),
            };
            let filled = !holes;
            assert_eq!(
                full_lines(filled),
                full_lines_reference(filled),
                "{filled:#x}"
            );
        }
        assert_eq!(full_lines(!0), [!0; 4]);
        assert_eq!(full_lines(0), [0; 4]);
    }

    #[test]
    fn a_full_board_is_all_stable_and_corners_are_stable() {
        let edge = edge_table();
        let p = 0x00FF_00FF_00FF_00FF;
        assert_eq!(stable_discs(p, !p, edge), p);
        assert_eq!(stable_discs(1, 0x2, edge) & 1, 1);
        assert_eq!(stable_discs(0x2, 0x4, edge) & 2, 0);
    }

    #[test]
    fn parity_and_quadrants() {
        for x in 0..64 {
            let (row, col) = (x / 8, x % 8);
            let want = 1 << (2 * usize::from(row >= 4) + usize::from(col >= 4));
            assert_eq!(quadrant(x), want, "{x}");
            assert_eq!(QUADRANT_MASK[want as usize] & (1 << x), 1 << x);
        }
        assert_eq!(quadrant(0), 1);
        assert_eq!(quadrant(7), 2);
        assert_eq!(quadrant(56), 4);
        assert_eq!(quadrant(63), 8);
        assert_eq!(parity_of(1 | (1 << 63)), 9);
        assert_eq!(parity_of(0b11), 0);
    }
}
