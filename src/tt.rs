//! The transposition table: a fixed array of cache-line buckets shared by every searching thread.
//!
//! # Layout
//! The table is `buckets` × 4 slots of 16 bytes; a bucket is one 64-byte cache line, in the
//! huge-page memory of the storage layer ([`crate::storage`], shared with the endgame solver's
//! table). A key picks
//! its bucket from its low 32 bits (multiply-shift, so any bucket count works) and, for the
//! direct-mapped policies, its slot (or slot pair) from bits 32–33. Every slot holds two words:
//! `data` (move, score, depth, bound, age, subtree-size class, an 8-bit tag) and `key ^ data`.
//!
//! # Promises
//! - **The full 64-bit key is ground truth.** It is recovered exactly as `(key ^ data) ^ data`, so
//!   a hit accepted on fewer *check bits* (the top `check_bits` bits of the key, 8..=64) whose
//!   full key differs is counted exactly as a false match — and still returned, as a real engine
//!   with that few bits would use it. With 64 check bits there are no false matches.
//! - **Lock-free, torn-safe.** Probes and stores are plain relaxed atomic loads and stores; two
//!   threads writing one slot at once can leave `key ^ data` of one write beside `data` of the
//!   other (Hyatt and Mann's lockless hashing). The recovered key then fails the tag stored in
//!   `data` (a multiplicative hash of the key), so the slot is discarded and counted as `torn`.
//! - **Policies switch at any moment** ([`Table::set_policy`], one atomic store). Probes look at
//!   all four slots whatever the policy, so entries stored under one policy stay visible under the
//!   next; only the choice of victim changes.
//! - Counters are plain integers owned by each searching thread ([`TtCounters`]), published to
//!   the table in batches ([`Table::publish`]); the `COUNT` const parameter of [`Table::probe`] and
//!   [`Table::store`] compiles the counting out entirely, to measure what statistics cost.

pub mod policy;
pub mod stats;

use std::any::Any;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock};

use crate::game::Move;
use crate::storage::{Generation, Memory, XorSlot, Zeroable};
pub use policy::Policy;
pub use stats::{EVENT_RING, ReplacementEvent, TtCounters, TtStats};

/// Slots per bucket (one cache line of 16-byte slots).
pub const SLOTS: usize = 4;
/// Bytes per slot.
pub const SLOT_BYTES: usize = 16;
/// Fewest and most check bits accepted.
pub const MIN_CHECK_BITS: u32 = 8;
pub const MAX_CHECK_BITS: u32 = 64;
/// Aging policy: one search of age costs as much as this many plies of depth.
pub const AGE_WEIGHT: i32 = 8;
/// Generations wrap at this many (6 bits in the entry).
pub const GENERATIONS: u8 = 64;

/// What a stored score means relative to the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// The true value is at most the score (the search failed low).
    Upper = 1,
    /// The true value is at least the score (the search failed high).
    Lower = 2,
    /// The score is the true value (for that depth).
    Exact = 3,
}

impl Bound {
    /// What a fail-soft `score` from a search of the window `(alpha, beta)` proves: at most
    /// the score when it is at or below `alpha`, at least when at or above `beta`, else exact.
    pub fn of_window(score: i32, alpha: i32, beta: i32) -> Bound {
        if score <= alpha {
            Bound::Upper
        } else if score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }

    fn from_bits(b: u64) -> Option<Bound> {
        match b {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// One decoded entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The full 64-bit Zobrist key of the position.
    pub key: u64,
    pub score: i16,
    pub mv: Move,
    /// Remaining depth the score was searched to.
    pub depth: u8,
    pub bound: Bound,
    /// The generation (search number mod 64) that wrote it.
    pub age: u8,
    /// [`size_class`] of the subtree searched to produce it.
    pub size: u8,
}

/// A logarithmic class of a subtree's node count: 4 steps per doubling (255 = huge).
#[inline]
pub fn size_class(nodes: u64) -> u8 {
    if nodes == 0 {
        return 0;
    }
    let bits = 64 - nodes.leading_zeros(); // 1..=64
    let frac = if bits >= 3 {
        (nodes >> (bits - 3)) & 3
    } else {
        (nodes << (3 - bits)) & 3
    };
    (bits * 4 + frac as u32).min(255) as u8
}

/// The tag that detects torn slots: a multiplicative hash of the key (non-linear in XOR, so a
/// torn `key ^ data` word does not reproduce it).
#[inline]
fn tag(key: u64) -> u64 {
    key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56
}

impl Entry {
    /// The data word (never 0: the bound is 1..=3).
    #[inline]
    fn data(&self) -> u64 {
        self.mv.raw() as u64
            | (self.score as u16 as u64) << 16
            | (self.depth as u64) << 32
            | (self.bound as u64) << 40
            | ((self.age & (GENERATIONS - 1)) as u64) << 42
            | (self.size as u64) << 48
            | tag(self.key) << 56
    }

    #[inline]
    fn decode(key: u64, data: u64) -> Option<Entry> {
        Some(Entry {
            key,
            mv: Move::from_raw(data as u16),
            score: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8,
            bound: Bound::from_bits((data >> 40) & 3)?,
            age: ((data >> 42) & 63) as u8,
            size: (data >> 48) as u8,
        })
    }
}

/// Two words of the storage layer: `[key ^ data, data]`.
#[derive(Default)]
struct Slot(XorSlot<2>);

/// What one slot holds when read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SlotRead {
    Empty,
    /// Written by two threads at once; unusable.
    Torn,
    Full(Entry),
}

impl Slot {
    #[inline]
    fn read(&self) -> SlotRead {
        let data = self.0.word(1);
        let key_xor = self.0.word(0);
        if data == 0 {
            return if key_xor == 0 {
                SlotRead::Empty
            } else {
                SlotRead::Torn
            };
        }
        let key = key_xor ^ data;
        if tag(key) != data >> 56 {
            return SlotRead::Torn;
        }
        match Entry::decode(key, data) {
            Some(e) => SlotRead::Full(e),
            None => SlotRead::Torn,
        }
    }

    #[inline]
    fn write(&self, e: &Entry) {
        let data = e.data();
        self.0.store([e.key ^ data, data]);
    }

    fn clear(&self) {
        self.0.clear();
    }
}

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    slots: [Slot; SLOTS],
}

// Safety: a bucket is atomics only, and all-zero atomics are valid (empty slots).
unsafe impl Zeroable for Bucket {}

/// How a store was classified.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StoreKind {
    /// Into an empty slot.
    Fill,
    /// Over the same position.
    Update,
    /// Evicting another position.
    Replace,
    /// Refused: the old entry stays.
    Reject,
}

/// A policy's verdict for one store into one bucket.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub kind: StoreKind,
    /// The slot the new entry goes to (meaningless for `Reject`).
    pub slot: usize,
    /// Two-level policies: the entry of `slot` first moves to this slot (evicting what is there).
    pub demote_to: Option<usize>,
    /// The slot whose entry is lost (for `Replace`).
    pub victim: Option<usize>,
    pub reason: &'static str,
}

impl Decision {
    fn new(kind: StoreKind, slot: usize, reason: &'static str) -> Decision {
        Decision {
            kind,
            slot,
            demote_to: None,
            victim: (kind == StoreKind::Replace).then_some(slot),
            reason,
        }
    }
}

/// The slot a key maps to under the direct-mapped policies.
#[inline]
pub fn direct_slot(key: u64) -> usize {
    ((key >> 32) & 3) as usize
}

/// The first slot of the pair a key maps to under the two-level policies.
#[inline]
pub fn pair_slot(key: u64) -> usize {
    (((key >> 32) & 1) * 2) as usize
}

/// The mask of the top `bits` bits.
#[inline]
pub fn check_mask(bits: u32) -> u64 {
    let bits = bits.clamp(MIN_CHECK_BITS, MAX_CHECK_BITS);
    if bits == 64 {
        u64::MAX
    } else {
        !(u64::MAX >> bits)
    }
}

/// Generations between `age` and the current one.
#[inline]
fn age_gap(generation: u8, age: u8) -> i32 {
    (generation.wrapping_sub(age) & (GENERATIONS - 1)) as i32
}

/// Where `new` goes in a bucket holding `slots`, under `policy` (`None` = empty or torn slot).
/// `mask` selects the check bits that decide "same position"; `generation` is the current age.
pub fn decide(
    policy: Policy,
    slots: &[Option<Entry>; SLOTS],
    new: &Entry,
    mask: u64,
    generation: u8,
) -> Decision {
    // The same position (as far as the check bits can tell) is updated in place.
    for (i, s) in slots.iter().enumerate() {
        if let Some(old) = s
            && (old.key ^ new.key) & mask == 0
        {
            if policy == Policy::Depth && new.depth < old.depth {
                return Decision::new(StoreKind::Reject, i, "shallower");
            }
            return if old.key == new.key {
                Decision::new(StoreKind::Update, i, "same position")
            } else {
                Decision::new(StoreKind::Replace, i, "false match")
            };
        }
    }
    match policy {
        Policy::Always => {
            let s = direct_slot(new.key);
            match slots[s] {
                None => Decision::new(StoreKind::Fill, s, "empty"),
                Some(_) => Decision::new(StoreKind::Replace, s, "always"),
            }
        }
        Policy::Depth => {
            let s = direct_slot(new.key);
            match slots[s] {
                None => Decision::new(StoreKind::Fill, s, "empty"),
                Some(old) if new.depth > old.depth => {
                    Decision::new(StoreKind::Replace, s, "deeper")
                }
                Some(old) if new.depth == old.depth => {
                    Decision::new(StoreKind::Replace, s, "as deep")
                }
                Some(_) => Decision::new(StoreKind::Reject, s, "shallower"),
            }
        }
        Policy::TwoTier | Policy::Big => {
            let (first, second) = (pair_slot(new.key), pair_slot(new.key) + 1);
            let Some(kept) = slots[first] else {
                return Decision::new(StoreKind::Fill, first, "empty");
            };
            let wins = if policy == Policy::TwoTier {
                new.depth >= kept.depth
            } else {
                new.size >= kept.size
            };
            if wins {
                let kind = if slots[second].is_some() {
                    StoreKind::Replace
                } else {
                    StoreKind::Fill
                };
                Decision {
                    kind,
                    slot: first,
                    demote_to: Some(second),
                    victim: (kind == StoreKind::Replace).then_some(second),
                    reason: if policy == Policy::TwoTier {
                        "deeper: old deep entry demoted"
                    } else {
                        "bigger subtree: old entry demoted"
                    },
                }
            } else {
                match slots[second] {
                    None => Decision::new(StoreKind::Fill, second, "empty"),
                    Some(_) => Decision::new(StoreKind::Replace, second, "always slot"),
                }
            }
        }
        Policy::Aging => {
            if let Some(i) = slots.iter().position(Option::is_none) {
                return Decision::new(StoreKind::Fill, i, "empty");
            }
            let worth = |e: &Entry| e.depth as i32 - AGE_WEIGHT * age_gap(generation, e.age);
            let mut best = 0;
            for i in 1..SLOTS {
                if let (Some(a), Some(b)) = (slots[i], slots[best])
                    && worth(&a) < worth(&b)
                {
                    best = i;
                }
            }
            let reason = match slots[best] {
                Some(v) if age_gap(generation, v.age) > 0 => "older",
                _ => "shallowest",
            };
            Decision::new(StoreKind::Replace, best, reason)
        }
    }
}

/// Published totals, in the order of [`TtCounters`]' counts.
#[derive(Default)]
struct Totals {
    probes: AtomicU64,
    hits: AtomicU64,
    usable_hits: AtomicU64,
    misses: AtomicU64,
    clashes: AtomicU64,
    false_matches: AtomicU64,
    fills: AtomicU64,
    updates: AtomicU64,
    replacements: AtomicU64,
    rejected: AtomicU64,
    torn: AtomicU64,
}

/// The part of a `mib` MiB budget that [`Table::new`] leaves to the game's own table (the
/// Othello endgame solver's, see [`Table::reserved`]): a sixteenth, at most 4 MiB, none for
/// budgets under 16 MiB.
pub fn reserve_bytes(mib: usize) -> usize {
    if mib < 16 { 0 } else { (mib << 20) / 16 }.min(4 << 20)
}

/// A game's own table kept in a [`Table`]'s reserve ([`Table::reserved`]): cleared with it, so
/// a cleared table forgets everything (the Othello solver's results included).
pub trait ReservedTable: Any + Send + Sync {
    /// Forget every entry.
    fn clear(&self);
}

/// The transposition table. `Sync`: share it as `Arc<Table>`.
pub struct Table {
    buckets: Memory<Bucket>,
    /// Buckets keys are spread over: all of them, except while
    /// [`Table::prefault_in_background`] maps the pages (then the part mapped so far).
    in_use: AtomicUsize,
    mib: usize,
    /// Bytes of the budget left to a game's own table, made on first use.
    reserve: usize,
    reserved: OnceLock<Arc<dyn ReservedTable>>,
    policy: AtomicU8,
    check_bits: AtomicU32,
    mask: AtomicU64,
    generation: Generation,
    totals: Totals,
    policy_switches: AtomicU64,
    events: Mutex<VecDeque<ReplacementEvent>>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("entries", &self.entries())
            .field("policy", &self.policy())
            .field("check_bits", &self.check_bits())
            .finish()
    }
}

impl Table {
    /// A table for a budget of exactly `mib` MiB (at least one bucket when `mib` is 0): its
    /// slots, and the [`reserve_bytes`] a game's own table may take ([`Table::reserved`]).
    pub fn new(mib: usize, policy: Policy, check_bits: u32) -> Table {
        let reserve = reserve_bytes(mib);
        let mut t = Self::with_entries(
            (mib.saturating_mul(1 << 20) - reserve) / SLOT_BYTES,
            policy,
            check_bits,
        );
        t.mib = mib;
        t.reserve = reserve;
        t
    }

    /// The game's own table in the reserved part of the budget, made by `make` (given the
    /// reserved bytes) on the first call and shared by every caller after — every thread of
    /// every search on this table. `None` when nothing is reserved (small tables, those made by
    /// entry count) or the reserve already holds another type.
    pub fn reserved<T: ReservedTable>(&self, make: impl FnOnce(usize) -> T) -> Option<Arc<T>> {
        if self.reserve == 0 {
            return None;
        }
        let reserve = self.reserve;
        let own = self
            .reserved
            .get_or_init(|| Arc::new(make(reserve)) as Arc<dyn ReservedTable>);
        let any: Arc<dyn Any + Send + Sync> = Arc::<dyn ReservedTable>::clone(own);
        any.downcast::<T>().ok()
    }

    /// Bytes of the budget reserved for a game's own table (see [`Table::reserved`]).
    pub fn reserved_bytes(&self) -> usize {
        self.reserve
    }

    /// A table of `entries` slots rounded down to whole buckets (at least one bucket): the tiny
    /// tables of the replacement experiment.
    pub fn with_entries(entries: usize, policy: Policy, check_bits: u32) -> Table {
        let n = (entries / SLOTS).clamp(1, 1 << 32);
        let buckets: Memory<Bucket> = Memory::new(n);
        let bits = check_bits.clamp(MIN_CHECK_BITS, MAX_CHECK_BITS);
        Table {
            mib: (n * SLOTS * SLOT_BYTES) >> 20,
            reserve: 0,
            reserved: OnceLock::new(),
            in_use: AtomicUsize::new(buckets.len()),
            buckets,
            policy: AtomicU8::new(policy.index() as u8),
            check_bits: AtomicU32::new(bits),
            mask: AtomicU64::new(check_mask(bits)),
            generation: Generation::new(0, GENERATIONS - 1),
            totals: Totals::default(),
            policy_switches: AtomicU64::new(0),
            events: Mutex::new(VecDeque::new()),
        }
    }

    /// The size asked for, in MiB (0 for tables made by entry count below 1 MiB).
    pub fn mib(&self) -> usize {
        self.mib
    }

    /// Bytes of slots.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * SLOTS * SLOT_BYTES
    }

    /// Number of slots.
    pub fn entries(&self) -> usize {
        self.buckets.len() * SLOTS
    }

    pub fn buckets(&self) -> usize {
        self.buckets.len()
    }

    pub fn policy(&self) -> Policy {
        Policy::from_index(self.policy.load(Relaxed) as usize)
    }

    /// Switch the replacement policy; safe from any thread, also mid-search.
    pub fn set_policy(&self, p: Policy) {
        let old = self.policy.swap(p.index() as u8, Relaxed);
        if old != p.index() as u8 {
            self.policy_switches.fetch_add(1, Relaxed);
        }
    }

    pub fn check_bits(&self) -> u32 {
        self.check_bits.load(Relaxed)
    }

    /// Accept hits on the top `bits` bits of the key (clamped to 8..=64); any thread, any time.
    pub fn set_check_bits(&self, bits: u32) {
        let bits = bits.clamp(MIN_CHECK_BITS, MAX_CHECK_BITS);
        self.check_bits.store(bits, Relaxed);
        self.mask.store(check_mask(bits), Relaxed);
    }

    /// The current generation (0..64).
    pub fn generation(&self) -> u8 {
        self.generation.get()
    }

    /// Start a new search: bump the generation (age) that stores are stamped with.
    pub fn new_search(&self) {
        self.generation.advance();
    }

    /// Have the kernel map every page of the table's slots, on a thread of its own, while
    /// searches already use the table. A fresh page is zeroed by the kernel on its first write
    /// (about 2 ms a MiB on this project's machines): written first in a search, the faults
    /// fell in its time (a 200 ms Gomoku turn answered in 291 ms); written all before it, they
    /// fell in a move's time whenever a table is made just before a search (Piskvork's
    /// `INFO max_memory` sent with the first move: 130 ms of a 176 ms budget). So keys are
    /// spread over the part already mapped, which grows 2 MiB at a time: an entry stored
    /// before a step may then be looked for in another bucket (a miss, never a wrong hit), and
    /// searches never wait for a page. Each page gets a write that changes nothing
    /// ([`XorSlot::touch`]); Linux's `MADV_POPULATE_WRITE` would map them without a write, but
    /// it holds the process's memory-map lock through each chunk, and the search thread's own
    /// allocations then waited for it (1,024 nodes searched in a 176 ms turn). The thread holds
    /// the table only a chunk at a time and stops when it is dropped; if no thread can be
    /// started, the whole table is used at once. Returns the thread, for a caller that wants to
    /// wait until the whole table is in use (`None`: it already is).
    pub fn prefault_in_background(self: &Arc<Self>) -> Option<std::thread::JoinHandle<()>> {
        /// Buckets in a 4 KiB page and in a 2 MiB chunk.
        const PAGE: usize = 4096 / std::mem::size_of::<Bucket>();
        const CHUNK: usize = crate::storage::HUGE_PAGE / std::mem::size_of::<Bucket>();
        fn map_pages(t: &Table, range: std::ops::Range<usize>) {
            for b in t.buckets[range].iter().step_by(PAGE) {
                b.slots[0].0.touch();
            }
        }
        let len = self.buckets.len();
        let first = CHUNK.min(len);
        map_pages(self, 0..first);
        if first == len {
            return None;
        }
        self.in_use.store(first, Relaxed);
        let table = Arc::downgrade(self);
        let spawned = std::thread::Builder::new()
            .name("xorboard-prefault".into())
            .spawn(move || {
                let mut start = first;
                while let Some(t) = table.upgrade()
                    && start < len
                {
                    let end = (start + CHUNK).min(len);
                    map_pages(&t, start..end);
                    t.in_use.store(end, Relaxed);
                    start = end;
                }
            });
        if spawned.is_err() {
            self.in_use.store(len, Relaxed);
        }
        spawned.ok()
    }

    /// Empty every slot, the game's own reserved table too ([`Table::reserved`]), and zero the
    /// counters and events (not the policy-switch count).
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for s in &b.slots {
                s.clear();
            }
        }
        if let Some(r) = self.reserved.get() {
            r.clear();
        }
        self.reset_stats();
    }

    /// Zero the counters and forget the events.
    pub fn reset_stats(&self) {
        let t = &self.totals;
        for a in [
            &t.probes,
            &t.hits,
            &t.usable_hits,
            &t.misses,
            &t.clashes,
            &t.false_matches,
            &t.fills,
            &t.updates,
            &t.replacements,
            &t.rejected,
            &t.torn,
        ] {
            a.store(0, Relaxed);
        }
        self.events
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// The bucket a key lives in.
    #[inline]
    pub fn bucket_of(&self, key: u64) -> usize {
        (((key & 0xFFFF_FFFF) * self.in_use.load(Relaxed) as u64) >> 32) as usize
    }

    /// Warm the cache line of `key`'s bucket for a probe that will come soon (a hint: it changes
    /// nothing a probe sees).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        self.buckets.prefetch(self.bucket_of(key));
    }

    /// Read one bucket's slots (for the UI and tests).
    pub fn bucket(&self, index: usize) -> [SlotRead; SLOTS] {
        let b = &self.buckets[index % self.buckets.len()];
        std::array::from_fn(|i| b.slots[i].read())
    }

    /// Look a key up. Returns the first slot of its bucket whose check bits match (its `key` is
    /// the stored full key, which differs from `key` on a false match).
    #[inline]
    pub fn probe<const COUNT: bool>(&self, key: u64, c: &mut TtCounters) -> Option<Entry> {
        let mask = self.mask.load(Relaxed);
        let bucket = &self.buckets[self.bucket_of(key)];
        let mut empty = false;
        if COUNT {
            c.probes += 1;
        }
        for slot in &bucket.slots {
            match slot.read() {
                SlotRead::Full(e) => {
                    if (e.key ^ key) & mask == 0 {
                        if COUNT {
                            c.hits += 1;
                            if e.key != key {
                                c.false_matches += 1;
                            }
                        }
                        return Some(e);
                    }
                }
                SlotRead::Empty => empty = true,
                SlotRead::Torn => {
                    if COUNT {
                        c.torn += 1;
                    }
                    empty = true;
                }
            }
        }
        if COUNT {
            c.misses += 1;
            if !empty {
                c.clashes += 1;
            }
        }
        None
    }

    /// Store a result under the current policy (`new.age` is replaced by the generation).
    #[inline]
    pub fn store<const COUNT: bool>(&self, mut new: Entry, c: &mut TtCounters) -> StoreKind {
        let generation = self.generation.get();
        new.age = generation;
        let policy = self.policy();
        let mask = self.mask.load(Relaxed);
        let index = self.bucket_of(new.key);
        let bucket = &self.buckets[index];
        let slots: [Option<Entry>; SLOTS] = std::array::from_fn(|i| match bucket.slots[i].read() {
            SlotRead::Full(e) => Some(e),
            _ => None,
        });
        let d = decide(policy, &slots, &new, mask, generation);
        if d.kind == StoreKind::Reject {
            if COUNT {
                c.rejected += 1;
            }
            return d.kind;
        }
        if let Some(to) = d.demote_to
            && let Some(old) = slots[d.slot]
        {
            bucket.slots[to].write(&old);
        }
        if d.kind == StoreKind::Update
            && new.mv.is_none()
            && let Some(old) = slots[d.slot]
        {
            new.mv = old.mv;
        }
        bucket.slots[d.slot].write(&new);
        if COUNT {
            match d.kind {
                StoreKind::Fill => c.fills += 1,
                StoreKind::Update => c.updates += 1,
                StoreKind::Replace => {
                    c.replacements += 1;
                    if let Some(v) = d.victim.and_then(|v| slots[v]) {
                        c.record(ReplacementEvent {
                            bucket: index,
                            policy,
                            victim_key: v.key,
                            victim_depth: v.depth,
                            victim_age: v.age,
                            new_key: new.key,
                            new_depth: new.depth,
                            new_age: new.age,
                            victim_size: v.size,
                            new_size: new.size,
                            // the two-slot strategies compare with the pair's first slot,
                            // whether the newcomer beats it (and demotes it) or not
                            compared: matches!(policy, Policy::TwoTier | Policy::Big)
                                .then(|| slots[pair_slot(new.key)])
                                .flatten()
                                .map(|c| (c.key, c.depth, c.size, c.age)),
                            reason: d.reason,
                        });
                    }
                }
                StoreKind::Reject => {}
            }
        }
        d.kind
    }

    /// Add a thread's counters and events to the table's totals and restart them from zero.
    pub fn publish(&self, c: &mut TtCounters) {
        let t = &self.totals;
        for (a, v) in [
            (&t.probes, c.probes),
            (&t.hits, c.hits),
            (&t.usable_hits, c.usable_hits),
            (&t.misses, c.misses),
            (&t.clashes, c.clashes),
            (&t.false_matches, c.false_matches),
            (&t.fills, c.fills),
            (&t.updates, c.updates),
            (&t.replacements, c.replacements),
            (&t.rejected, c.rejected),
            (&t.torn, c.torn),
        ] {
            if v != 0 {
                a.fetch_add(v, Relaxed);
            }
        }
        c.reset_counts();
        let new = c.take_events();
        if !new.is_empty() {
            let mut ring = self.events.lock().unwrap_or_else(|e| e.into_inner());
            for e in new.into_iter().rev() {
                ring.push_front(e);
            }
            ring.truncate(EVENT_RING);
        }
    }

    /// Permille of the first (up to) 1000 slots holding an entry of the current generation.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let sample = self.entries().min(1000);
        let mut used = 0;
        for i in 0..sample {
            if let SlotRead::Full(e) = self.buckets[i / SLOTS].slots[i % SLOTS].read()
                && e.age == generation
            {
                used += 1;
            }
        }
        (used * 1000 / sample.max(1)) as u32
    }

    /// A snapshot of the published counters.
    pub fn stats(&self) -> TtStats {
        let t = &self.totals;
        TtStats {
            probes: t.probes.load(Relaxed),
            hits: t.hits.load(Relaxed),
            usable_hits: t.usable_hits.load(Relaxed),
            misses: t.misses.load(Relaxed),
            clashes: t.clashes.load(Relaxed),
            false_matches: t.false_matches.load(Relaxed),
            fills: t.fills.load(Relaxed),
            updates: t.updates.load(Relaxed),
            replacements: t.replacements.load(Relaxed),
            rejected: t.rejected.load(Relaxed),
            torn: t.torn.load(Relaxed),
            hashfull: self.hashfull(),
            policy_switches: self.policy_switches.load(Relaxed),
            events: self
                .events
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .iter()
                .copied()
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, depth: u8) -> Entry {
        Entry {
            key,
            score: -37,
            mv: Move::at(19),
            depth,
            bound: Bound::Lower,
            age: 5,
            size: size_class(1000),
        }
    }

    #[test]
    fn clear_also_clears_the_games_own_reserved_table() {
        struct Flag(std::sync::atomic::AtomicBool);
        impl ReservedTable for Flag {
            fn clear(&self) {
                self.0.store(true, Relaxed);
            }
        }
        let t = Table::new(16, Policy::TwoTier, 64);
        let own = t
            .reserved(|_| Flag(false.into()))
            .expect("a 16 MiB table reserves");
        assert!(!own.0.load(Relaxed));
        t.clear();
        assert!(own.0.load(Relaxed), "cleared with the table");
    }

    #[test]
    fn pack_round_trips_and_keeps_the_full_key() {
        let t = Table::with_entries(64, Policy::Always, 64);
        let mut c = TtCounters::default();
        let e = entry(0xDEAD_BEEF_0123_4567, 9);
        t.store::<true>(e, &mut c);
        let got = t.probe::<true>(e.key, &mut c).expect("stored");
        assert_eq!(got, Entry { age: 0, ..e });
        assert_eq!((c.probes, c.hits, c.fills), (1, 1, 1));
        assert!(t.probe::<true>(e.key ^ 1, &mut c).is_none());
    }

    #[test]
    fn a_table_mapped_in_the_background_is_used_while_it_grows() {
        let t = Arc::new(Table::new(16, Policy::Always, 64));
        let all = t.buckets();
        let mapping = t.prefault_in_background();
        let buckets_in_use = || t.in_use.load(Relaxed);
        let in_use = buckets_in_use();
        assert!(in_use > 0 && in_use <= all);
        // Stores and probes work while the mapped part grows: every key lands in it.
        let mut c = TtCounters::default();
        for k in 0..1000u64 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            assert!(t.bucket_of(key) < buckets_in_use().max(in_use));
            t.store::<false>(entry(key, 4), &mut c);
        }
        // Waited for, not timed: the test holds no assumption about how fast the thread runs.
        if let Some(thread) = mapping {
            thread.join().expect("the mapping thread");
        }
        assert_eq!(buckets_in_use(), all, "the table never grew to full");
        // Grown: the whole table is used, as a table made without the thread.
        let key = 0x0123_4567_89AB_CDEF;
        assert_eq!(
            t.bucket_of(key),
            Table::new(16, Policy::Always, 64).bucket_of(key)
        );
        t.store::<false>(entry(key, 6), &mut c);
        assert_eq!(t.probe::<false>(key, &mut c).map(|e| e.depth), Some(6));
    }

    #[test]
    fn size_class_grows_with_nodes() {
        assert_eq!(size_class(0), 0);
        let mut last = 0;
        for n in [1u64, 2, 3, 5, 8, 100, 10_000, 1 << 40, u64::MAX] {
            let s = size_class(n);
            assert!(s > last, "{n}: {s} <= {last}");
            last = s;
        }
    }

    #[test]
    fn few_check_bits_give_counted_false_matches() {
        let t = Table::with_entries(4, Policy::Always, 8);
        let mut c = TtCounters::default();
        let a = 0xAB00_0000_0000_0001u64;
        t.store::<true>(entry(a, 3), &mut c);
        // Same top 8 bits and bucket, different full key.
        let b = 0xAB00_0000_0000_0002u64;
        let hit = t.probe::<true>(b, &mut c).expect("accepted on 8 bits");
        assert_eq!(hit.key, a);
        assert_eq!(c.false_matches, 1);
        t.set_check_bits(64);
        assert!(t.probe::<true>(b, &mut c).is_none());
        assert_eq!(c.false_matches, 1);
    }

    #[test]
    fn torn_slot_is_detected() {
        let t = Table::with_entries(4, Policy::Always, 64);
        let a = entry(0x1111_2222_3333_4444, 3);
        let b = entry(0x5555_6666_7777_8888, 4);
        let slot = &t.buckets[0].slots[0];
        // key ^ data of one write beside data of another.
        slot.0.store([a.key ^ a.data(), b.data()]);
        assert_eq!(slot.read(), SlotRead::Torn);
        let mut c = TtCounters::default();
        assert!(t.probe::<true>(a.key, &mut c).is_none());
        assert!(t.probe::<true>(b.key, &mut c).is_none());
        assert_eq!(c.torn, 2);
    }
}
