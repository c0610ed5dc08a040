//! Line patterns for the threat search and the engine's ordering: one table lookup tells what a stone on a cell does along
//! one line direction.
//!
//! A *line key* describes the ten cells around a centre cell along one direction, offsets −5…−1 and
//! +1…+5, two bits each ([`EMPTY`], [`BLACK`], [`WHITE`], [`WALL`] for off the board), in *black's*
//! view; [`swap_colours`] turns it into white's view. The table answers, for a stone of the own
//! colour placed on the centre:
//! - [`FIVE`]: the centre completes a winning row (five or more in freestyle, exactly five in
//!   `exact5`);
//! - the low eight bits: the *five points* — empty cells within four of the centre where one more
//!   own stone makes a winning row that contains the centre (one bit: a four; two or more: an open
//!   four, or two fours on one line);
//! - [`THREE`]: some empty cell within four makes, with the centre, a line with two or more five
//!   points (a three, straight or broken, that becomes an open four);
//! - bits 10–11, only below a three: the lesser grade ([`BLOCK3`], [`FLEX2`], [`BLOCK2`]) read from
//!   the cells within four, for the engine's ordering and evaluation (the threat search ignores
//!   them). [`level`] turns an entry into one number, 0 (nothing) to 7 (five), and
//!   [`cell_class`] four of them (one cell, four lines) into a combination class.
//!
//! Freestyle never needs the cells at ±5 (an overline wins anyway), so its table has 2¹⁶ entries;
//! `exact5` must see them to refuse overlines, so its table has 2²⁰. Both are built once, on first
//! use, and shared by all threads.

use std::sync::OnceLock;

use crate::game::gomoku::Rule;

/// Cell codes inside a line key.
pub const EMPTY: u32 = 0;
pub const BLACK: u32 = 1;
pub const WHITE: u32 = 2;
pub const WALL: u32 = 3;

/// PatternTable bit: the centre stone completes a winning row.
pub const FIVE: u16 = 1 << 8;
/// PatternTable bit: the centre stone makes a three (a cell that then gives two five points).
pub const THREE: u16 = 1 << 9;
/// PatternTable bits: the five points, bit `j` for offset [`mask_offset`]`(j)`.
pub const FIVE_POINTS: u16 = 0xFF;
/// Table bits 10–11: what a stone on the centre makes below a three, for move ordering and
/// evaluation only (the threat search never reads them): [`BLOCK3`], [`FLEX2`], [`BLOCK2`] or 0.
pub const LESSER_SHIFT: u32 = 10;
/// Bits 12–14 of [`PatternTable::lookup_both`]'s entries (not of [`PatternTable::lookup`]'s):
/// the entry's [`level`], so the threat board reads it with a shift.
pub const LEVEL_SHIFT: u32 = 12;
/// Lesser grade: one more stone makes a four (one five point) with the centre.
pub const BLOCK3: u16 = 3;
/// Lesser grade: one more stone makes a three with the centre.
pub const FLEX2: u16 = 2;
/// Lesser grade: one more stone makes a closed three with the centre.
pub const BLOCK2: u16 = 1;

/// What a stone makes along one line, from nothing (0) to a five (7): 1 closed two, 2 two,
/// 3 closed three, 4 three (becomes an open four), 5 four (one five point), 6 open four (two or
/// more five points on the line), 7 five.
#[inline]
pub fn level(entry: u16) -> u8 {
    if entry & FIVE != 0 {
        7
    } else if entry & FIVE_POINTS != 0 {
        if (entry & FIVE_POINTS).count_ones() >= 2 {
            6
        } else {
            5
        }
    } else if entry & THREE != 0 {
        4
    } else {
        ((entry >> LESSER_SHIFT) & 3) as u8
    }
}

/// The 2-bit slot of a neighbour at `offset` (−5…−1, 1…5) inside a line key.
#[inline]
pub const fn slot(offset: i32) -> u32 {
    if offset < 0 {
        (offset + 5) as u32
    } else {
        (offset + 4) as u32
    }
}

/// The offset (−4…−1, 1…4) of bit `j` (0…7) of the five-point mask.
#[inline]
pub const fn mask_offset(j: u32) -> i32 {
    if j < 4 { j as i32 - 4 } else { j as i32 - 3 }
}

/// Black's key seen from white: black and white codes exchanged, empty and wall kept.
#[inline]
pub fn swap_colours(key: u32) -> u32 {
    let low = key & 0x5_5555;
    let high = (key >> 1) & 0x5_5555;
    let differ = low ^ high;
    key ^ (differ | (differ << 1))
}

/// The pattern table of one rule (black's view; look up white through [`swap_colours`]).
pub struct PatternTable {
    exact: bool,
    entries: Vec<u16>,
    /// Per key: black's entry in the low half, white's in the high half (one load for both).
    both: Vec<u32>,
}

impl PatternTable {
    /// The shared table of a rule, built on first use.
    pub fn get(rule: Rule) -> &'static PatternTable {
        static FREE: OnceLock<PatternTable> = OnceLock::new();
        static EXACT: OnceLock<PatternTable> = OnceLock::new();
        match rule {
            Rule::Freestyle => FREE.get_or_init(|| PatternTable::build(false)),
            Rule::Exact5 => EXACT.get_or_init(|| PatternTable::build(true)),
        }
    }

    /// What a black stone on the centre of `key` (black's view) does along that line.
    #[inline]
    pub fn lookup(&self, key: u32) -> u16 {
        if self.exact {
            self.entries[key as usize]
        } else {
            self.entries[((key >> 2) & 0xFFFF) as usize]
        }
    }

    /// Black's and white's entries of `key` (black's view): black in the low 16 bits, each with
    /// its [`level`] in bits [`LEVEL_SHIFT`]….
    #[inline]
    pub fn lookup_both(&self, key: u32) -> u32 {
        if self.exact {
            self.both[key as usize]
        } else {
            self.both[((key >> 2) & 0xFFFF) as usize]
        }
    }

    fn build(exact: bool) -> PatternTable {
        let bits = if exact { 20 } else { 16 };
        // Freestyle keys skip the ±5 slots; treat those cells as empty (never consulted).
        let full = |k: u32| if exact { k } else { k << 2 };
        let lesser = lesser_grades();
        let entries: Vec<u16> = (0..1u32 << bits)
            .map(|k| {
                let e = analyse(full(k), exact);
                if e & (FIVE | FIVE_POINTS | THREE) == 0 {
                    e | (lesser[near_index(full(k))] as u16) << LESSER_SHIFT
                } else {
                    e
                }
            })
            .collect();
        let both = (0..1u32 << bits)
            .map(|k| {
                let white = swap_colours(full(k));
                let white = if exact { white } else { (white >> 2) & 0xFFFF };
                let with_level = |e: u16| (e | (level(e) as u16) << LEVEL_SHIFT) as u32;
                with_level(entries[k as usize]) | with_level(entries[white as usize]) << 16
            })
            .collect();
        PatternTable {
            exact,
            entries,
            both,
        }
    }
}

/// Positions 0…10 along the line, the centre at 5.
const CENTRE: u32 = 1 << 5;

/// Bit masks (positions 0…10) of own stones and empty cells of a key, the centre counted as own.
fn masks(key: u32) -> (u32, u32) {
    let mut own = CENTRE;
    let mut empty = 0;
    for offset in (-5..=-1).chain(1..=5) {
        let pos = (offset + 5) as u32;
        match (key >> (2 * slot(offset))) & 3 {
            BLACK => own |= 1 << pos,
            EMPTY => empty |= 1 << pos,
            _ => {}
        }
    }
    (own, empty)
}

/// Whether the five cells starting at `start` are a winning row once filled with own stones:
/// nothing but own stones and at most the listed empties inside, and for exact5 no own stone just
/// outside either end.
fn clean_window(start: u32, own: u32, empty: u32, exact: bool) -> bool {
    let window = 0x1F << start;
    if window & !(own | empty) != 0 {
        return false;
    }
    if exact {
        if start > 0 && own & (1 << (start - 1)) != 0 {
            return false;
        }
        if start + 5 <= 10 && own & (1 << (start + 5)) != 0 {
            return false;
        }
    }
    true
}

/// The five points (position mask) of own stones `own`, counting only winning rows that contain
/// every position of `must`.
fn five_points(own: u32, empty: u32, must: u32, exact: bool) -> u32 {
    let mut points = 0;
    for start in 0..=6 {
        let window = 0x1F << start;
        if window & must != must || !clean_window(start, own, empty, exact) {
            continue;
        }
        let holes = window & empty;
        if holes.count_ones() == 1 {
            points |= holes;
        }
    }
    points
}

/// A cell's four line [`level`]s of one colour, packed three bits each (direction `d` at bits
/// `3d`): what [`cell_class`] reads, and the index of the evaluation's per-cell value tables.
pub type Packed = u16;

/// [`cell_class`] of a four and an open three on two lines.
pub const FOUR_THREE_CLASS: u8 = 10;
/// [`cell_class`] of open threes on two lines (and no four).
pub const THREE_THREE_CLASS: u8 = 7;

/// What a stone on a cell makes over its four lines, combined: 12 five, 11 open four (or two
/// fours), 10 four-three, 9 four with a two or closed three, 8 four, 7 three-three, 6 three with a
/// two or closed three, 5 three, 4 closed three with a two or another closed three, 3 two twos,
/// 2 closed three, 1 two, 0 less.
#[inline]
pub fn cell_class(packed: Packed) -> u8 {
    CELL_CLASSES[packed as usize & 0xFFF]
}

/// [`cell_class`] of every packed cell, worked out at compile time (a lookup instead of counting
/// the four levels at every call: the search asks it for each threat square at each leaf).
static CELL_CLASSES: [u8; 4096] = {
    let mut t = [0u8; 4096];
    let mut p = 0;
    while p < 4096 {
        t[p] = count_cell_class(p as Packed);
        p += 1;
    }
    t
};

/// [`cell_class`], counted from the four levels.
const fn count_cell_class(packed: Packed) -> u8 {
    let mut count = [0u8; 8];
    let mut d = 0;
    while d < 4 {
        count[((packed >> (3 * d)) & 7) as usize] += 1;
        d += 1;
    }
    let lesser = count[2] + count[3];
    if count[7] > 0 {
        12
    } else if count[6] > 0 || count[5] >= 2 {
        11
    } else if count[5] == 1 && count[4] >= 1 {
        FOUR_THREE_CLASS
    } else if count[5] == 1 && lesser >= 1 {
        9
    } else if count[5] == 1 {
        8
    } else if count[4] >= 2 {
        THREE_THREE_CLASS
    } else if count[4] == 1 && lesser >= 1 {
        6
    } else if count[4] == 1 {
        5
    } else if count[3] >= 1 && lesser >= 2 {
        4
    } else if count[2] >= 2 {
        3
    } else if count[3] == 1 {
        2
    } else if count[2] == 1 {
        1
    } else {
        0
    }
}

/// The base-3 index of the eight cells at offsets −4…−1, 1…4 of a key (0 empty, 1 own, 2 other;
/// walls count as the other colour): the cells the lesser grades read.
fn near_index(key: u32) -> usize {
    let mut i = 0;
    for offset in (-4..=-1).chain(1..=4) {
        let c = (key >> (2 * slot(offset))) & 3;
        i = i * 3
            + match c {
                EMPTY => 0,
                BLACK => 1,
                _ => 2,
            };
    }
    i
}

/// The lesser grade ([`BLOCK3`], [`FLEX2`], [`BLOCK2`] or 0) of every [`near_index`], read in
/// freestyle (overlines do not matter for an ordering grade).
fn lesser_grades() -> Vec<u8> {
    let mut out = vec![0u8; 6561];
    for (i, g) in out.iter_mut().enumerate() {
        let mut key = 0;
        let mut rest = i;
        for offset in (1..=4).rev().chain((-4..=-1).rev()) {
            let code = match rest % 3 {
                0 => EMPTY,
                1 => BLACK,
                _ => WHITE,
            };
            rest /= 3;
            key |= code << (2 * slot(offset));
        }
        // ±5 as walls: the grades read only the nine cells around the centre
        key |= WALL << (2 * slot(-5)) | WALL << (2 * slot(5));
        let (own, empty) = masks(key);
        *g = grade(own, empty, CENTRE, 2).min(3);
    }
    out
}

/// The [`level`] of the own stones `own` (all of `must` among them) toward a winning row through
/// `must`: 6 two or more five points, 5 one, and each stone still missing (up to `depth` of them)
/// two less.
fn grade(own: u32, empty: u32, must: u32, depth: u32) -> u8 {
    let points = five_points(own, empty, must, false).count_ones();
    if points >= 2 {
        return 6;
    }
    if points == 1 {
        return 5;
    }
    if depth == 0 {
        return 0;
    }
    let mut best = 0;
    for pos in 1..=9 {
        let e = 1 << pos;
        if empty & e != 0 {
            best = best.max(grade(own | e, empty & !e, must | e, depth - 1).saturating_sub(2));
        }
    }
    best
}

fn analyse(key: u32, exact: bool) -> u16 {
    let (own, empty) = masks(key);
    let mut out = 0u16;
    for start in 1..=5 {
        let window = 0x1F << start;
        if window & own == window && clean_window(start, own, 0, exact) {
            out |= FIVE;
        }
    }
    let points = five_points(own, empty, CENTRE, exact);
    for j in 0..8 {
        let pos = (mask_offset(j) + 5) as u32;
        if points & (1 << pos) != 0 {
            out |= 1 << j;
        }
    }
    // Fewer than two own stones besides the centre cannot become an open four with one more.
    if (own & !CENTRE & 0x3FE).count_ones() >= 2 {
        for pos in (1..=9).filter(|&p| p != 5) {
            let e = 1 << pos;
            if empty & e == 0 {
                continue;
            }
            if five_points(own | e, empty & !e, CENTRE | e, exact).count_ones() >= 2 {
                out |= THREE;
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key from a picture of the line: 11 characters, the centre (index 5) must be `*`.
    /// `x` own (black), `o` opponent, `.` empty, `|` wall.
    fn key(line: &str) -> u32 {
        let chars: Vec<char> = line.chars().collect();
        assert_eq!(chars.len(), 11);
        assert_eq!(chars[5], '*');
        let mut k = 0;
        for (i, c) in chars.iter().enumerate() {
            if i == 5 {
                continue;
            }
            let code = match c {
                'x' => BLACK,
                'o' => WHITE,
                '|' => WALL,
                _ => EMPTY,
            };
            k |= code << (2 * slot(i as i32 - 5));
        }
        k
    }

    fn offsets(entry: u16) -> Vec<i32> {
        (0..8)
            .filter(|j| entry & (1 << j) != 0)
            .map(mask_offset)
            .collect()
    }

    #[test]
    fn fives_fours_and_threes() {
        for rule in [Rule::Freestyle, Rule::Exact5] {
            let t = PatternTable::get(rule);
            assert!(t.lookup(key("...xx*xx...")) & FIVE != 0);
            assert_eq!(offsets(t.lookup(key("....x*xx..."))), vec![-2, 3]);
            assert_eq!(offsets(t.lookup(key("...ox*xx..."))), vec![3]);
            assert_eq!(offsets(t.lookup(key("...x.*xx..."))), vec![-1]);
            assert!(t.lookup(key(".....*xx...")) & THREE != 0);
            assert!(t.lookup(key("....x*.x...")) & THREE != 0, "broken three");
            assert!(t.lookup(key("....o*xx...")) & THREE == 0, "closed three");
            assert!(t.lookup(key("....x*x....")) & FIVE_POINTS == 0);
            assert!(t.lookup(key("|....*xx...")) & THREE != 0);
            assert!(t.lookup(key("....|*xx...")) & THREE == 0, "wall closes it");
        }
    }

    #[test]
    fn levels_below_a_three() {
        let t = PatternTable::get(Rule::Freestyle);
        let lv = |line: &str| level(t.lookup(key(line)));
        assert_eq!(lv("...xx*xx..."), 7);
        assert_eq!(lv("....x*xx..."), 6);
        assert_eq!(lv("...ox*xx..."), 5);
        assert_eq!(lv(".....*xx..."), 4);
        assert_eq!(lv("....o*xx..."), 3, "closed three");
        assert_eq!(lv(".....*x...."), 2, "open two");
        assert_eq!(lv("....o*x...."), 1, "closed two");
        assert_eq!(lv("....o*..o.."), 0, "no room for a four");
        assert_eq!(
            PatternTable::get(Rule::Exact5).lookup(key("....o*x....")) >> LESSER_SHIFT & 3,
            1
        );
    }

    #[test]
    fn cell_classes_combine_the_lines() {
        let pack = |l: [u16; 4]| l[0] | l[1] << 3 | l[2] << 6 | l[3] << 9;
        assert_eq!(cell_class(pack([7, 0, 0, 0])), 12);
        assert_eq!(cell_class(pack([5, 5, 0, 0])), 11, "double four");
        assert_eq!(cell_class(pack([0, 6, 0, 0])), 11, "open four");
        assert_eq!(cell_class(pack([5, 0, 4, 0])), 10, "four-three");
        assert_eq!(cell_class(pack([4, 4, 1, 0])), 7, "three-three");
        assert_eq!(cell_class(pack([0, 4, 0, 0])), 5);
        assert_eq!(cell_class(pack([2, 2, 0, 0])), 3);
        assert_eq!(cell_class(pack([1, 1, 1, 1])), 0);
    }

    #[test]
    fn overlines_only_win_in_freestyle() {
        let six = key("..xxx*xx...");
        assert!(PatternTable::get(Rule::Freestyle).lookup(six) & FIVE != 0);
        assert!(PatternTable::get(Rule::Exact5).lookup(six) & FIVE == 0);
        // filling +3 joins the stone at +4: six, which only freestyle accepts
        let k = key("....x*xx.x.");
        assert_eq!(
            offsets(PatternTable::get(Rule::Freestyle).lookup(k)),
            vec![-2, 3]
        );
        assert_eq!(offsets(PatternTable::get(Rule::Exact5).lookup(k)), vec![-2]);
    }

    #[test]
    fn colour_swap_is_an_involution() {
        for k in [0u32, 0xF_FFFF, 0x1_2345, 0xA_BCDE, key("xo|.x*o.x|o")] {
            assert_eq!(swap_colours(swap_colours(k)), k);
        }
        assert_eq!(swap_colours(key("...xx*xx...")), key("...oo*oo..."));
    }
}
