//! The storage layer under both transposition tables (the teaching TT, [`crate::tt`], and the
//! endgame solver's, `crate::search::endgame`): the machinery they share, while each keeps its
//! own key, entry layout and replacement rule.
//!
//! - [`Memory`]: zeroed buckets in an anonymous mapping that starts on a 2 MiB boundary and is
//!   (on Linux) marked for transparent huge pages before it is first touched. Tables are probed
//!   at random, so with 4 KiB pages nearly every probe also misses the TLB, while 2 MiB pages
//!   cover a 64 MiB table with 32 TLB entries. Pages are only touched when written, so a table
//!   costs resident memory as it fills. [`Memory::prefetch`] warms a bucket's cache line.
//! - [`XorSlot`]: a slot of `N` words written and read one by one with relaxed atomics, lock-free
//!   between threads. Each table folds its key into the words by XOR with its data word (Hyatt
//!   and Mann's lockless hashing), so a slot torn by two simultaneous writes decodes to a key
//!   that matches neither write, and the table's own check discards it.
//! - [`Generation`]: the search counter entries are stamped with, so a store can prefer to evict
//!   entries of older searches; it wraps within the bits a table gives it.
//! - [`buckets_in`]: how many buckets of a size fit in a number of bytes.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// One huge page.
pub const HUGE_PAGE: usize = 2 << 20;
/// One cache line: the size and alignment of a bucket.
pub const CACHE_LINE: usize = 64;

/// A bucket type the storage layer may hand out from zeroed memory.
///
/// # Safety
/// The all-zero bit pattern must be a valid value of the type (e.g. a struct of atomics), and
/// the type must be `Sync` for the table to be shared between threads.
pub unsafe trait Zeroable: Sync {}

/// Zeroed, huge-page-aligned memory for `len` buckets of type `B`.
pub struct Memory<B: Zeroable> {
    map: memmap2::MmapMut,
    /// Where the buckets start in the mapping (the first 2 MiB boundary).
    offset: usize,
    len: usize,
    _bucket: PhantomData<B>,
}

impl<B: Zeroable> Memory<B> {
    /// `len` (at least 1) zeroed buckets. Panics if the system has no memory for the mapping.
    pub fn new(len: usize) -> Memory<B> {
        let len = len.max(1);
        let bytes = len * std::mem::size_of::<B>();
        let map = memmap2::MmapMut::map_anon(bytes + HUGE_PAGE).expect("memory for a table");
        let offset = map.as_ptr().align_offset(HUGE_PAGE);
        // Only a hint: if the kernel declines, the table works on small pages.
        #[cfg(target_os = "linux")]
        let _ = map.advise_range(memmap2::Advice::HugePage, offset, bytes);
        Memory {
            map,
            offset,
            len,
            _bucket: PhantomData,
        }
    }

    /// Bytes of buckets (not counting the alignment slack, which is never touched).
    pub fn bytes(&self) -> usize {
        self.len * std::mem::size_of::<B>()
    }

    /// Warm the cache line of bucket `index` (if in range) for a probe that will probably come
    /// soon.
    #[inline(always)]
    pub fn prefetch(&self, index: usize) {
        #[cfg(target_arch = "x86_64")]
        if let Some(b) = self.get(index) {
            let ptr = b as *const B as *const i8;
            // Safety: `_mm_prefetch` only hints the cache and never faults; `ptr` points into
            // this live mapping.
            unsafe {
                std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = index;
    }
}

impl<B: Zeroable> std::ops::Deref for Memory<B> {
    type Target = [B];
    fn deref(&self) -> &[B] {
        // Safety: the mapping holds `offset + len` buckets' bytes (it has a huge page to spare
        // for the alignment); the start is 2 MiB-aligned, so aligned for any bucket of at most
        // that alignment; an anonymous mapping starts zero-filled, a valid `B` (`Zeroable`).
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().add(self.offset).cast(), self.len) }
    }
}

impl<B: Zeroable> std::ops::DerefMut for Memory<B> {
    fn deref_mut(&mut self) -> &mut [B] {
        // Safety: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe {
            std::slice::from_raw_parts_mut(self.map.as_mut_ptr().add(self.offset).cast(), self.len)
        }
    }
}

/// How many buckets of `bucket_bytes` fit in `bytes`, rounded down to a power of two when
/// `power_of_two` (for tables indexed by a mask), at least one.
pub fn buckets_in(bytes: usize, bucket_bytes: usize, power_of_two: bool) -> usize {
    let n = (bytes / bucket_bytes.max(1)).max(1);
    if power_of_two {
        1usize << (usize::BITS - 1 - n.leading_zeros())
    } else {
        n
    }
}

/// A slot of `N` words, each read and written with a relaxed atomic: see the module docs for
/// how a table's encoding makes a torn slot harmless.
#[repr(transparent)]
pub struct XorSlot<const N: usize>([AtomicU64; N]);

impl<const N: usize> Default for XorSlot<N> {
    fn default() -> Self {
        XorSlot(std::array::from_fn(|_| AtomicU64::new(0)))
    }
}

impl<const N: usize> XorSlot<N> {
    /// One word.
    #[inline(always)]
    pub fn word(&self, i: usize) -> u64 {
        self.0[i].load(Relaxed)
    }

    /// The first `M` words, in order.
    #[inline(always)]
    pub fn load<const M: usize>(&self) -> [u64; M] {
        std::array::from_fn(|i| self.0[i].load(Relaxed))
    }

    /// Write the first `M` words, in order.
    #[inline(always)]
    pub fn store<const M: usize>(&self, words: [u64; M]) {
        for (a, w) in self.0.iter().zip(words) {
            a.store(w, Relaxed);
        }
    }

    /// Zero every word: an empty slot.
    pub fn clear(&self) {
        for a in &self.0 {
            a.store(0, Relaxed);
        }
    }

    /// A write that changes nothing: a compare-and-swap of the first word from 0 to 0, which
    /// writes back whatever the word holds (an atomic OR of 0 compiles to a fenced read on x86-64,
    /// which maps the shared zero page, and the search's first store still faulted). It makes the
    /// kernel map the slot's page writable, and, being atomic, it can race a search's reads and
    /// writes of the same slot without changing what they see.
    #[inline]
    pub fn touch(&self) {
        let _ = self.0[0].compare_exchange(0, 0, Relaxed, Relaxed);
    }
}

/// The search generation of a table: bumped at the start of each search, wrapping to `first`
/// after `last` (a table that marks empty slots with generation 0 starts at 1).
pub struct Generation {
    value: AtomicU8,
    first: u8,
    last: u8,
}

impl Generation {
    /// A counter at `first` that runs `first..=last`.
    pub const fn new(first: u8, last: u8) -> Generation {
        Generation {
            value: AtomicU8::new(first),
            first,
            last,
        }
    }

    /// The current generation.
    #[inline(always)]
    pub fn get(&self) -> u8 {
        self.value.load(Relaxed)
    }

    /// The next generation (a new search).
    pub fn advance(&self) {
        let g = self.get();
        self.value
            .store(if g >= self.last { self.first } else { g + 1 }, Relaxed);
    }

    /// Back to the first generation.
    pub fn reset(&self) {
        self.value.store(self.first, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    #[repr(C, align(64))]
    struct Line([XorSlot<2>; 4]);
    // Safety: zeroed atomics are valid.
    unsafe impl Zeroable for Line {}

    #[test]
    fn memory_is_zeroed_aligned_and_writable() {
        let mut m: Memory<Line> = Memory::new(1000);
        assert_eq!(m.len(), 1000);
        assert_eq!(m.bytes(), 64_000);
        assert_eq!(m.as_ptr() as usize % HUGE_PAGE, 0);
        assert!(
            m.iter()
                .all(|b| b.0.iter().all(|s| s.load::<2>() == [0, 0]))
        );
        m[999].0[3].store([1, 2]);
        assert_eq!(m[999].0[3].load::<2>(), [1, 2]);
        m.prefetch(5);
        m.prefetch(1 << 40);
        m[999] = Line::default();
        assert_eq!(m[999].0[3].word(1), 0);
    }

    #[test]
    fn a_touch_changes_nothing() {
        let m: Memory<Line> = Memory::new(2);
        m[0].0[0].store([7, 9]);
        for slot in [&m[0].0[0], &m[1].0[0]] {
            slot.touch();
        }
        assert_eq!(m[0].0[0].load::<2>(), [7, 9]);
        assert_eq!(m[1].0[0].load::<2>(), [0, 0]);
    }

    #[test]
    fn generations_wrap_within_their_range() {
        let g = Generation::new(1, 3);
        let seen: Vec<u8> = (0..5)
            .map(|_| {
                let v = g.get();
                g.advance();
                v
            })
            .collect();
        assert_eq!(seen, [1, 2, 3, 1, 2]);
        g.reset();
        assert_eq!(g.get(), 1);
    }

    #[test]
    fn bucket_counts() {
        assert_eq!(buckets_in(100 << 20, 64, false), 1_638_400);
        assert_eq!(buckets_in(100 << 20, 64, true), 1 << 20);
        assert_eq!(buckets_in(10, 64, true), 1);
    }
}
