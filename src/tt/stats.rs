//! Transposition-table statistics: the per-thread counters of the hot path and the snapshot the
//! UI and `bench` read.
//!
//! A searching thread owns a [`TtCounters`] of plain integers (no atomics, no sharing) and bumps
//! it on every probe and store; now and then it *publishes* the counters into its [`Table`]
//! (a handful of relaxed `fetch_add`s, then the local counters restart from zero), so
//! [`Table::stats`] returns a [`TtStats`] that sums every thread's published work. The ring of
//! recent [`ReplacementEvent`]s travels the same way.
//!
//! [`Table`]: crate::tt::Table
//! [`Table::stats`]: crate::tt::Table::stats

use super::Policy;

/// How many replacement events the ring keeps.
pub const EVENT_RING: usize = 16;

/// One eviction: which entry left the table, which came in, and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ReplacementEvent {
    pub bucket: usize,
    pub policy: Policy,
    pub victim_key: u64,
    pub victim_depth: u8,
    pub victim_age: u8,
    pub new_key: u64,
    pub new_depth: u8,
    pub new_age: u8,
    /// [`size_class`](crate::tt::size_class) of the victim's and the newcomer's subtrees.
    pub victim_size: u8,
    pub new_size: u8,
    /// The entry the strategy compared the newcomer with, when it is not the victim: the
    /// two-slot strategies compare with the first slot's entry, move it to the second slot
    /// and so evict the entry there. (key, depth, size class, age.)
    pub compared: Option<(u64, u8, u8, u8)>,
    /// Why the victim went: "always", "deeper", "demoted", "bigger subtree", "older", …
    pub reason: &'static str,
}

/// A snapshot of the table's counters (cumulative since the table was made or cleared).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct TtStats {
    /// Lookups.
    pub probes: u64,
    /// Lookups whose check bits matched an entry (true or false match).
    pub hits: u64,
    /// Hits the search could use: a cutoff or an exact score.
    pub usable_hits: u64,
    /// Lookups that found nothing.
    pub misses: u64,
    /// Misses whose bucket was full of other positions.
    pub clashes: u64,
    /// Hits whose check bits matched but whose full 64-bit key differs.
    pub false_matches: u64,
    /// Stores into an empty slot.
    pub fills: u64,
    /// Stores over an entry of the same position.
    pub updates: u64,
    /// Stores that evicted another position.
    pub replacements: u64,
    /// Stores the policy refused (the old entry was kept).
    pub rejected: u64,
    /// Slots read in a torn state (two writers interleaved) and discarded.
    pub torn: u64,
    /// Permille of sampled slots holding an entry of the current search.
    pub hashfull: u32,
    /// Policy changes since the table was made.
    pub policy_switches: u64,
    /// The most recent replacement events, most recent first.
    pub events: Vec<ReplacementEvent>,
}

impl TtStats {
    /// Hits as a fraction of probes (0 when nothing was probed).
    pub fn hit_rate(&self) -> f64 {
        if self.probes == 0 {
            0.0
        } else {
            self.hits as f64 / self.probes as f64
        }
    }

    /// Add another snapshot's counters into this one (totals over several searches or tables;
    /// `hashfull`, `policy_switches` and the events are left as they are).
    pub fn add_counts(&mut self, other: &TtStats) {
        for (a, b) in [
            (&mut self.probes, other.probes),
            (&mut self.hits, other.hits),
            (&mut self.usable_hits, other.usable_hits),
            (&mut self.misses, other.misses),
            (&mut self.clashes, other.clashes),
            (&mut self.false_matches, other.false_matches),
            (&mut self.fills, other.fills),
            (&mut self.updates, other.updates),
            (&mut self.replacements, other.replacements),
            (&mut self.rejected, other.rejected),
            (&mut self.torn, other.torn),
        ] {
            *a += b;
        }
    }

    /// All stores.
    pub fn stores(&self) -> u64 {
        self.fills + self.updates + self.replacements + self.rejected
    }
}

/// The hot-path counters of one searching thread: plain integers, published in batches.
#[derive(Clone, Debug, Default)]
pub struct TtCounters {
    pub probes: u64,
    pub hits: u64,
    pub usable_hits: u64,
    pub misses: u64,
    pub clashes: u64,
    pub false_matches: u64,
    pub fills: u64,
    pub updates: u64,
    pub replacements: u64,
    pub rejected: u64,
    pub torn: u64,
    ring: [Option<ReplacementEvent>; EVENT_RING],
    /// Next ring position to write.
    head: usize,
}

impl TtCounters {
    /// Remember an eviction (the oldest of the ring is forgotten).
    #[inline]
    pub fn record(&mut self, event: ReplacementEvent) {
        self.ring[self.head] = Some(event);
        self.head = (self.head + 1) % EVENT_RING;
    }

    /// The recorded events, most recent first, emptying the ring.
    pub fn take_events(&mut self) -> Vec<ReplacementEvent> {
        let mut out = Vec::new();
        for i in 1..=EVENT_RING {
            let at = (self.head + EVENT_RING - i) % EVENT_RING;
            if let Some(e) = self.ring[at].take() {
                out.push(e);
            }
        }
        self.head = 0;
        out
    }

    /// Add these counts (not the events) to a snapshot.
    pub fn add_to(&self, s: &mut TtStats) {
        s.probes += self.probes;
        s.hits += self.hits;
        s.usable_hits += self.usable_hits;
        s.misses += self.misses;
        s.clashes += self.clashes;
        s.false_matches += self.false_matches;
        s.fills += self.fills;
        s.updates += self.updates;
        s.replacements += self.replacements;
        s.rejected += self.rejected;
        s.torn += self.torn;
    }

    /// Zero the counts (events are taken separately).
    pub fn reset_counts(&mut self) {
        let ring = std::mem::take(&mut self.ring);
        let head = self.head;
        *self = TtCounters::default();
        self.ring = ring;
        self.head = head;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(k: u64) -> ReplacementEvent {
        ReplacementEvent {
            bucket: 0,
            policy: Policy::Always,
            victim_key: k,
            victim_depth: 0,
            victim_age: 0,
            new_key: k + 1,
            new_depth: 1,
            new_age: 0,
            victim_size: 0,
            new_size: 0,
            compared: None,
            reason: "always",
        }
    }

    #[test]
    fn ring_keeps_the_most_recent_first() {
        let mut c = TtCounters::default();
        for k in 0..40 {
            c.record(ev(k));
        }
        let got: Vec<u64> = c.take_events().iter().map(|e| e.victim_key).collect();
        assert_eq!(got, (24..40).rev().collect::<Vec<_>>());
        assert!(c.take_events().is_empty());
    }
}
