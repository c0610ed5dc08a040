//! The endgame solver's own transposition table.
//!
//! **Keyed by the two bitboards, not by the Zobrist hash.** The solver walks raw
//! `(player, opponent)` bitboards and never builds an [`crate::game::othello::Othello`]; keeping a
//! Zobrist hash up to date there would cost one table XOR per flipped disc on every move of
//! millions of leaves, for a key that is only needed at the few nodes deep enough to use the
//! table. So the index is a multiplicative mix of the two bitboards computed where the table is
//! used, and each entry stores both bitboards (16 bytes): a hit is exact by construction — no
//! false matches at any table size — and the side to move is implied (the first board is always
//! the mover's). The number of empties is implied by the key too, so every entry for a position
//! is a result of a full-depth search; bounds of the same level (below) can always be merged.
//!
//! An entry holds a lower and an upper bound on the final disc difference, the level they were
//! proved at (exact, or one of the selective passes' levels, whose bounds only those passes
//! use; a better level replaces a worse one's bounds, never the reverse), the best move found,
//! the empties, the search generation (date) it was last written in and the log2 of the nodes
//! its subtree cost. Buckets of two entries fill one 64-byte cache line; a store that misses both
//! evicts the entry from an older search first, then the cheaper subtree.
//!
//! With `--threads`, the solver's threads share one table without locks; see [`SolverTable`] for how
//! an entry torn by two simultaneous writes is recognised and ignored.

use crate::storage::{Generation, Memory, XorSlot, Zeroable, buckets_in};

/// One stored result (as read: the table keeps it in three words, see [`SolverTable`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub player: u64,
    pub opponent: u64,
    pub lower: i8,
    pub upper: i8,
    /// Best move's square, or [`NO_MOVE`].
    pub best: u8,
    pub empties: u8,
    /// Search generation; 0 marks an unused slot.
    pub date: u8,
    /// Bit length of the subtree's node count.
    pub cost: u8,
    /// How the bounds were proved: [`EXACT`], a selective level, or [`HINT`] (no bounds).
    pub level: u8,
}

impl Entry {
    /// Everything but the two boards, packed in one word.
    #[inline(always)]
    fn data(&self) -> u64 {
        (self.lower as u8 as u64)
            | (self.upper as u8 as u64) << 8
            | (self.best as u64) << 16
            | (self.empties as u64) << 24
            | (self.date as u64) << 32
            | (self.cost as u64) << 40
            | (self.level as u64) << 48
    }

    #[inline(always)]
    fn from_words(w: [u64; 3]) -> Entry {
        let d = w[2];
        let player = w[0] ^ d;
        Entry {
            player,
            opponent: w[1] ^ player ^ d.rotate_left(32),
            lower: d as u8 as i8,
            upper: (d >> 8) as u8 as i8,
            best: (d >> 16) as u8,
            empties: (d >> 24) as u8,
            date: (d >> 32) as u8,
            cost: (d >> 40) as u8,
            level: (d >> 48) as u8,
        }
    }

    #[inline(always)]
    fn words(&self) -> [u64; 3] {
        let d = self.data();
        [
            self.player ^ d,
            self.opponent ^ self.player ^ d.rotate_left(32),
            d,
        ]
    }
}

/// The date's bits in the data word.
const DATE_MASK: u64 = 0xFF << 32;

/// `Entry::best` when no move is known.
pub const NO_MOVE: u8 = 0xFF;

/// `Entry::level` of bounds proved by the exact search (valid for every search).
pub const EXACT: u8 = u8::MAX;
/// `Entry::level` of an entry that only holds a move hint (open bounds).
pub const HINT: u8 = 0;

/// When a store's move replaces the entry's move.
#[derive(Clone, Copy, PartialEq, Eq)]
enum MoveRule {
    /// Always (a preparation pass's hint).
    Replace,
    /// If it proved a lower bound at the entry's level or above.
    Proved,
    /// Only if the entry has none.
    IfNone,
}

/// Two entries of four words (the fourth unused) in one cache line.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([XorSlot<4>; 2]);

// Safety: a bucket is atomics only, and all-zero atomics are valid (unused entries, date 0).
unsafe impl Zeroable for Bucket {}

/// Counters of the table's traffic (for `--json` output and tuning), kept by each searching
/// thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    pub probes: u64,
    pub hits: u64,
    pub stores: u64,
    pub replacements: u64,
}

/// A fixed-size table of buckets, sized in MiB, shared by the solver's threads without locks.
///
/// Each entry is three words written and read one by one with relaxed atomics: the player's
/// board XOR the data word, the opponent's board XOR the player's XOR the rotated data word,
/// and the data word. Two threads writing one slot at once can leave words of both writes; such
/// a slot decodes to boards that match neither position (Hyatt and Mann's lockless hashing), so
/// a probe never takes one write's bounds for the other's position.
pub struct SolverTable {
    buckets: Memory<Bucket>,
    mask: usize,
    date: Generation,
}

#[inline(always)]
fn mix(p: u64, o: u64) -> u64 {
    let h = p.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ o.rotate_left(31).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^ (h >> 29)
}

impl crate::tt::ReservedTable for SolverTable {
    fn clear(&self) {
        SolverTable::clear(self);
    }
}

impl SolverTable {
    /// A table of at most `mib` MiB (rounded down to a power of two of buckets; at least one).
    pub fn new(mib: usize) -> SolverTable {
        SolverTable::with_bytes(mib.max(1).saturating_mul(1 << 20))
    }

    /// A table of at most `bytes` (rounded down to a power of two of buckets; at least one).
    pub fn with_bytes(bytes: usize) -> SolverTable {
        let n = buckets_in(bytes, std::mem::size_of::<Bucket>(), true);
        SolverTable {
            buckets: Memory::new(n),
            mask: n - 1,
            date: Generation::new(1, u8::MAX),
        }
    }

    /// Memory in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.bytes()
    }

    /// Forget everything (also while other threads use the table: slot by slot).
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for slot in &b.0 {
                slot.clear();
            }
        }
        self.date.reset();
    }

    /// Start a new search generation: older entries become the first victims.
    pub fn new_search(&self) {
        self.date.advance();
    }

    #[inline(always)]
    fn index(&self, p: u64, o: u64) -> usize {
        (mix(p, o) >> 32) as usize & self.mask
    }

    #[inline(always)]
    fn bucket(&self, p: u64, o: u64) -> &Bucket {
        &self.buckets[self.index(p, o)]
    }

    #[inline(always)]
    fn read(b: &Bucket, k: usize) -> Entry {
        Entry::from_words(b.0[k].load())
    }

    #[inline(always)]
    fn write(b: &Bucket, k: usize, e: &Entry) {
        b.0[k].store(e.words());
    }

    /// Warm the cache line of a position that will probably be probed soon.
    #[inline(always)]
    pub fn prefetch(&self, p: u64, o: u64) {
        self.buckets.prefetch(self.index(p, o));
    }

    /// The entry of this exact position, if stored.
    #[inline(always)]
    pub fn probe(&self, p: u64, o: u64, stats: &mut TableStats) -> Option<Entry> {
        stats.probes += 1;
        let b = self.bucket(p, o);
        for k in 0..2 {
            let slot = &b.0[k];
            let d = slot.word(2);
            if slot.word(0) ^ d == p
                && slot.word(1) ^ p ^ d.rotate_left(32) == o
                && d & DATE_MASK != 0
            {
                stats.hits += 1;
                return Some(Entry::from_words([p ^ d, o ^ p ^ d.rotate_left(32), d]));
            }
        }
        None
    }

    /// Record a move hint from a preparation pass: the bounds stay as they are (or open, for a
    /// new entry); only the best move changes.
    pub fn hint(&self, p: u64, o: u64, empties: u32, best: u8, stats: &mut TableStats) {
        self.update(
            p,
            o,
            empties,
            HINT,
            (-64, 64),
            best,
            1,
            MoveRule::Replace,
            stats,
        );
    }

    /// Record the fail-soft result `score` of a search of window `(alpha, beta)` at `level`:
    /// bounds of a lower level are replaced, of the same level merged, of a higher level kept
    /// (a selective result never weakens an exact one).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        p: u64,
        o: u64,
        empties: u32,
        level: u8,
        (alpha, beta, score): (i32, i32, i32),
        best: u8,
        nodes: u64,
        stats: &mut TableStats,
    ) {
        let lower = if score > alpha { score } else { -64 };
        let upper = if score < beta { score } else { 64 };
        let cost = (64 - nodes.leading_zeros()) as u8;
        let rule = if score > alpha {
            MoveRule::Proved
        } else {
            MoveRule::IfNone
        };
        self.update(
            p,
            o,
            empties,
            level,
            (lower, upper),
            best,
            cost,
            rule,
            stats,
        );
    }

    /// Merge into the position's entry, or replace a victim: an unused slot, else one from an
    /// older search, else the cheaper subtree.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn update(
        &self,
        p: u64,
        o: u64,
        empties: u32,
        level: u8,
        (lower, upper): (i32, i32),
        best: u8,
        cost: u8,
        rule: MoveRule,
        stats: &mut TableStats,
    ) {
        stats.stores += 1;
        let date = self.date.get();
        let b = self.bucket(p, o);
        let entries = [Self::read(b, 0), Self::read(b, 1)];
        for (k, e) in entries.iter().enumerate() {
            if e.player == p && e.opponent == o && e.date != 0 {
                let mut e = *e;
                if e.level == level {
                    e.lower = e.lower.max(lower as i8);
                    e.upper = e.upper.min(upper as i8);
                } else if e.level < level {
                    (e.lower, e.upper, e.level) = (lower as i8, upper as i8, level);
                }
                let replace = match rule {
                    MoveRule::Replace => true,
                    MoveRule::Proved => e.level <= level,
                    MoveRule::IfNone => false,
                };
                if best != NO_MOVE && (replace || e.best == NO_MOVE) {
                    e.best = best;
                }
                e.date = date;
                e.cost = e.cost.max(cost);
                Self::write(b, k, &e);
                return;
            }
        }
        let rank = |e: &Entry| -> u32 {
            if e.date == 0 {
                0
            } else {
                (((e.date == date) as u32) << 8) | e.cost as u32
            }
        };
        let v = if rank(&entries[0]) <= rank(&entries[1]) {
            0
        } else {
            1
        };
        if entries[v].date != 0 {
            stats.replacements += 1;
        }
        let e = Entry {
            player: p,
            opponent: o,
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties: empties as u8,
            date,
            cost,
            level,
        };
        Self::write(b, v, &e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    fn store(
        t: &SolverTable,
        p: u64,
        o: u64,
        level: u8,
        window: (i32, i32, i32),
        best: u8,
        nodes: u64,
    ) {
        t.store(
            p,
            o,
            20,
            level,
            window,
            best,
            nodes,
            &mut TableStats::default(),
        );
    }

    fn probe(t: &SolverTable, p: u64, o: u64) -> Option<Entry> {
        t.probe(p, o, &mut TableStats::default())
    }

    #[test]
    fn sizes_and_bounds_merge() {
        let t = SolverTable::new(1);
        assert_eq!(t.bytes(), 1 << 20);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        store(&t, 1, 2, EXACT, (-10, -9, 4), 5, 1000); // fail high: lower bound 4
        let e = probe(&t, 1, 2).expect("stored");
        assert_eq!((e.lower, e.upper, e.best), (4, 64, 5));
        store(&t, 1, 2, EXACT, (7, 8, 6), 9, 1000); // fail low: upper bound 6, move kept
        let e = probe(&t, 1, 2).expect("stored");
        assert_eq!((e.lower, e.upper, e.best), (4, 6, 5));
        assert!(probe(&t, 2, 1).is_none());
    }

    #[test]
    fn selective_bounds_never_weaken_exact_ones() {
        let t = SolverTable::new(1);
        store(&t, 1, 2, 1, (-10, -9, 4), 5, 1000); // selective: lower bound 4
        let e = probe(&t, 1, 2).expect("stored");
        assert_eq!((e.lower, e.upper, e.best, e.level), (4, 64, 5, 1));
        store(&t, 1, 2, EXACT, (1, 2, 0), 7, 1000); // exact upper bound 0 replaces them
        let e = probe(&t, 1, 2).expect("stored");
        assert_eq!((e.lower, e.upper, e.best, e.level), (-64, 0, 5, EXACT));
        store(&t, 1, 2, 2, (5, 6, 8), 9, 1000); // selective lower bound 8: ignored, move kept
        let e = probe(&t, 1, 2).expect("stored");
        assert_eq!((e.lower, e.upper, e.best, e.level), (-64, 0, 5, EXACT));
        t.hint(1, 2, 20, 11, &mut TableStats::default()); // a hint sets the move only
        let e = probe(&t, 1, 2).expect("stored");
        assert_eq!((e.lower, e.upper, e.best, e.level), (-64, 0, 11, EXACT));
        t.hint(3, 4, 20, 12, &mut TableStats::default()); // a new hint: open bounds
        let e = probe(&t, 3, 4).expect("stored");
        assert_eq!((e.lower, e.upper, e.best, e.level), (-64, 64, 12, HINT));
    }

    #[test]
    fn a_full_bucket_evicts_the_older_search_first() {
        let t = SolverTable::new(1);
        // find three positions in one bucket
        let mut same = Vec::new();
        let target = t.bucket(1, 0) as *const Bucket;
        let mut k = 1u64;
        while same.len() < 3 {
            if std::ptr::eq(t.bucket(k, 0), target) {
                same.push(k);
            }
            k += 1;
        }
        store(&t, same[0], 0, EXACT, (0, 1, 0), 1, 1 << 20);
        t.new_search();
        let mut stats = TableStats::default();
        for &x in &same[1..] {
            t.store(x, 0, 20, EXACT, (0, 1, 0), 1, 1, &mut stats);
        }
        assert!(
            probe(&t, same[0], 0).is_none(),
            "the older entry was the victim"
        );
        assert!(probe(&t, same[1], 0).is_some() && probe(&t, same[2], 0).is_some());
        assert_eq!(stats.replacements, 1);
    }

    #[test]
    fn every_mix_of_two_entries_words_is_rejected() {
        let a = Entry {
            player: 0x0000_0018_1000_0000,
            opponent: 0x0000_0000_0818_0000,
            lower: 10,
            upper: 12,
            best: 3,
            empties: 20,
            date: 1,
            cost: 9,
            level: EXACT,
        };
        let b = Entry {
            player: 0x0000_0810_1800_0000,
            opponent: 0x0000_0000_1008_0000,
            lower: -20,
            best: 40,
            ..a
        };
        // same boards, other data: a slot torn between two writes of one position
        let a2 = Entry { lower: -64, ..a };
        for (x, y) in [(a, b), (b, a), (a, a2), (a2, a)] {
            let (wx, wy) = (x.words(), y.words());
            for mask in 1..7u32 {
                let w: [u64; 3] =
                    std::array::from_fn(|i| if mask >> i & 1 != 0 { wy[i] } else { wx[i] });
                let r = Entry::from_words(w);
                assert!(
                    (r.player, r.opponent) != (x.player, x.opponent)
                        && (r.player, r.opponent) != (y.player, y.opponent),
                    "mix {mask:03b} of {x:?} and {y:?} decoded as {r:?}"
                );
            }
        }
    }

    /// Two threads write two different entries into one slot as fast as they can while a third
    /// reads it: every read either decodes to one of the two entries exactly or to boards that
    /// match neither (a torn slot, ignored by a probe) — never one position with the other's
    /// data. The slot holds `a` before the writers start, and the reader keeps reading until it
    /// has seen each entry whole many times, so what it asserts does not depend on how the
    /// threads are scheduled. (Whether a run sees torn reads does; the test above makes every
    /// torn mix by hand.)
    #[test]
    fn a_torn_slot_never_passes_for_an_entry() {
        use std::sync::atomic::AtomicBool;
        const WHOLE_READS_OF_EACH: u64 = 10_000;
        let t = SolverTable::new(1);
        let entry = |player: u64, opponent: u64, v: i8, best: u8| Entry {
            player,
            opponent,
            lower: v,
            upper: v,
            best,
            empties: 20,
            date: 1,
            cost: 9,
            level: EXACT,
        };
        let a = entry(0x0000_0018_1000_0000, 0x0000_0000_0818_0000, 10, 3);
        let b = entry(0x0000_0810_1800_0000, 0x0000_0000_1008_0000, -20, 40);
        let bucket = &t.buckets[0];
        SolverTable::write(bucket, 0, &a);
        let done = AtomicBool::new(false);
        let (mut torn, mut whole_a, mut whole_b) = (0u64, 0u64, 0u64);
        std::thread::scope(|s| {
            for e in [a, b] {
                let done = &done;
                s.spawn(move || {
                    while !done.load(Relaxed) {
                        for _ in 0..1000 {
                            SolverTable::write(bucket, 0, &e);
                        }
                        std::thread::yield_now();
                    }
                });
            }
            while whole_a < WHOLE_READS_OF_EACH || whole_b < WHOLE_READS_OF_EACH {
                let r = SolverTable::read(bucket, 0);
                if r == a {
                    whole_a += 1;
                } else if r == b {
                    whole_b += 1;
                } else {
                    assert!(r.date != 0, "a written slot read as empty: {r:?}");
                    let boards = (r.player, r.opponent);
                    assert!(
                        boards != (a.player, a.opponent) && boards != (b.player, b.opponent),
                        "torn slot decoded as a stored position: {r:?}"
                    );
                    torn += 1;
                }
            }
            done.store(true, Relaxed);
        });
        let whole = whole_a + whole_b;
        eprintln!("{whole} whole reads, {torn} torn reads");
    }
}
