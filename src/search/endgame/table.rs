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

/// One stored result.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
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
    _pad: [u8; 9],
}

/// `Entry::best` when no move is known.
pub const NO_MOVE: u8 = 0xFF;

/// `Entry::level` of bounds proved by the exact search (valid for every search).
pub const EXACT: u8 = u8::MAX;
/// `Entry::level` of an entry that only holds a move hint (open bounds).
pub const HINT: u8 = 0;

#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Bucket([Entry; 2]);

/// Counters of the table's traffic (for `--json` output and tuning).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    pub probes: u64,
    pub hits: u64,
    pub stores: u64,
    pub replacements: u64,
}

/// A fixed-size table of [`Entry`] buckets, sized in MiB.
pub struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    date: u8,
    /// The level stores are made at: [`EXACT`], or a selective level (1 to 254, higher is more
    /// trustworthy) while a selective search runs. A search may only use the bounds of entries
    /// at its level or above.
    pub level: u8,
    pub stats: TableStats,
}

#[inline(always)]
fn mix(p: u64, o: u64) -> u64 {
    let h = p.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ o.rotate_left(31).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^ (h >> 29)
}

impl Table {
    /// A table of at most `mib` MiB (rounded down to a power of two of buckets; at least one).
    pub fn new(mib: usize) -> Table {
        let bytes = mib.max(1).saturating_mul(1 << 20);
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let n = 1usize << (usize::BITS - 1 - n.leading_zeros());
        Table {
            buckets: vec![Bucket::default(); n],
            mask: n - 1,
            date: 1,
            level: EXACT,
            stats: TableStats::default(),
        }
    }

    /// Memory in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.date = 1;
        self.stats = TableStats::default();
    }

    /// Start a new search generation: older entries become the first victims.
    pub fn new_search(&mut self) {
        self.date = if self.date == u8::MAX {
            1
        } else {
            self.date + 1
        };
    }

    #[inline(always)]
    fn bucket(&self, p: u64, o: u64) -> usize {
        (mix(p, o) >> 32) as usize & self.mask
    }

    /// Warm the cache line of a position that will probably be probed soon.
    #[inline(always)]
    pub fn prefetch(&self, p: u64, o: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let i = self.bucket(p, o);
            let ptr = &self.buckets[i] as *const Bucket as *const i8;
            // Safety: `_mm_prefetch` only hints the cache; `ptr` points into the live bucket vector.
            unsafe {
                std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (p, o);
    }

    /// The entry of this exact position, if stored.
    #[inline(always)]
    pub fn probe(&mut self, p: u64, o: u64) -> Option<Entry> {
        self.stats.probes += 1;
        let b = &self.buckets[self.bucket(p, o)];
        for e in &b.0 {
            if e.player == p && e.opponent == o && e.date != 0 {
                self.stats.hits += 1;
                return Some(*e);
            }
        }
        None
    }

    /// Record a move hint from a preparation pass: the bounds stay as they are (or open, for a
    /// new entry); only the best move changes.
    pub fn hint(&mut self, p: u64, o: u64, empties: u32, best: u8) {
        let level = std::mem::replace(&mut self.level, HINT);
        self.store(p, o, empties, 64, -64, 0, NO_MOVE, 1);
        self.level = level;
        let i = self.bucket(p, o);
        for e in self.buckets[i].0.iter_mut() {
            if e.player == p && e.opponent == o && e.date != 0 {
                e.best = best;
            }
        }
    }

    /// Record the fail-soft result `score` of a search of window `(alpha, beta)` at the table's
    /// `level`: bounds of a lower level are replaced, of the same level merged, of a higher
    /// level kept (a selective result never weakens an exact one).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &mut self,
        p: u64,
        o: u64,
        empties: u32,
        alpha: i32,
        beta: i32,
        score: i32,
        best: u8,
        nodes: u64,
    ) {
        self.stats.stores += 1;
        let lower = if score > alpha { score } else { -64 };
        let upper = if score < beta { score } else { 64 };
        let cost = (64 - nodes.leading_zeros()) as u8;
        let date = self.date;
        let i = self.bucket(p, o);
        let b = &mut self.buckets[i].0;
        let level = self.level;
        for e in b.iter_mut() {
            if e.player == p && e.opponent == o && e.date != 0 {
                if e.level == level {
                    e.lower = e.lower.max(lower as i8);
                    e.upper = e.upper.min(upper as i8);
                } else if e.level < level {
                    (e.lower, e.upper, e.level) = (lower as i8, upper as i8, level);
                }
                let trusted = e.level <= level && score > alpha;
                if best != NO_MOVE && (trusted || e.best == NO_MOVE) {
                    e.best = best;
                }
                e.date = date;
                e.cost = e.cost.max(cost);
                return;
            }
        }
        // victim: an unused slot, else one from an older search, else the cheaper subtree
        let rank = |e: &Entry| -> u32 {
            if e.date == 0 {
                0
            } else {
                (((e.date == date) as u32) << 8) | e.cost as u32
            }
        };
        let v = if rank(&b[0]) <= rank(&b[1]) { 0 } else { 1 };
        if b[v].date != 0 {
            self.stats.replacements += 1;
        }
        b[v] = Entry {
            player: p,
            opponent: o,
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties: empties as u8,
            date,
            cost,
            level,
            _pad: [0; 9],
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_bounds_merge() {
        let mut t = Table::new(1);
        assert_eq!(t.bytes(), 1 << 20);
        assert_eq!(std::mem::size_of::<Entry>(), 32);
        t.store(1, 2, 20, -10, -9, 4, 5, 1000); // fail high: lower bound 4
        let e = t.probe(1, 2).expect("stored");
        assert_eq!((e.lower, e.upper, e.best), (4, 64, 5));
        t.store(1, 2, 20, 7, 8, 6, 9, 1000); // fail low: upper bound 6, move kept
        let e = t.probe(1, 2).expect("stored");
        assert_eq!((e.lower, e.upper, e.best), (4, 6, 5));
        assert!(t.probe(2, 1).is_none());
    }

    #[test]
    fn selective_bounds_never_weaken_exact_ones() {
        let mut t = Table::new(1);
        t.level = 1;
        t.store(1, 2, 20, -10, -9, 4, 5, 1000); // selective: lower bound 4
        let e = t.probe(1, 2).expect("stored");
        assert_eq!((e.lower, e.upper, e.best, e.level), (4, 64, 5, 1));
        t.level = EXACT;
        t.store(1, 2, 20, 1, 2, 0, 7, 1000); // exact: upper bound 0 replaces the selective bounds
        let e = t.probe(1, 2).expect("stored");
        assert_eq!((e.lower, e.upper, e.best, e.level), (-64, 0, 5, EXACT));
        t.level = 2;
        t.store(1, 2, 20, 5, 6, 8, 9, 1000); // selective lower bound 8: ignored, move kept
        let e = t.probe(1, 2).expect("stored");
        assert_eq!((e.lower, e.upper, e.best, e.level), (-64, 0, 5, EXACT));
        t.level = EXACT;
        t.hint(3, 4, 20, 11); // a hint: open bounds
        let e = t.probe(3, 4).expect("stored");
        assert_eq!((e.lower, e.upper, e.best, e.level), (-64, 64, 11, HINT));
        assert_eq!(t.level, EXACT);
    }

    #[test]
    fn a_full_bucket_evicts_the_older_search_first() {
        let mut t = Table::new(1);
        // find three positions in one bucket
        let mut same = Vec::new();
        let target = t.bucket(1, 0);
        let mut k = 1u64;
        while same.len() < 3 {
            if t.bucket(k, 0) == target {
                same.push(k);
            }
            k += 1;
        }
        t.store(same[0], 0, 20, 0, 1, 0, 1, 1 << 20);
        t.new_search();
        t.store(same[1], 0, 20, 0, 1, 0, 1, 1);
        t.store(same[2], 0, 20, 0, 1, 0, 1, 1);
        assert!(
            t.probe(same[0], 0).is_none(),
            "the older entry was the victim"
        );
        assert!(t.probe(same[1], 0).is_some() && t.probe(same[2], 0).is_some());
        assert_eq!(t.stats.replacements, 1);
    }
}
