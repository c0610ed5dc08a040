//! Move-path enumeration (perft): the correctness check of move generation, and the first place a
//! user sees Zobrist hashing pay.
//!
//! Convention (that of `data/othello/perft.txt`, "convention A"): a pass is a ply, and a finished
//! game reached before the target depth counts once as a leaf.
//!
//! [`perft`] on any [`Game`] plays and undoes moves through the trait. [`othello_perft`] is the fast
//! path on raw bitboards with bulk counting at the last ply. The `hashed` variants memoise subtree
//! counts by (Zobrist hash, remaining depth) in a fixed-size table, give the same count, and report
//! how many transpositions they found.

use crate::game::othello::{self, Othello};
use crate::game::{Game, Move, Side};
use crate::zobrist::Keys;

/// Leaves of the tree of `depth` plies under `game`.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if moves.is_empty() {
        return 1;
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for mv in moves {
        game.play(mv);
        total += perft(game, depth - 1);
        game.undo();
    }
    total
}

/// Othello perft from the standard start, on raw bitboards.
pub fn othello_perft(depth: u32) -> u64 {
    othello::perft(othello::START_BLACK, othello::START_WHITE, depth, false)
}

/// What a hashed perft found besides the count.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoStats {
    /// Subtrees whose count was taken from the table: transpositions (or repeats) found.
    pub transpositions: u64,
    /// Subtree counts written to the table.
    pub stores: u64,
    /// Entries in the table.
    pub entries: usize,
}

/// A fixed-size memo table: one slot per index, always-replace, full key + depth checked.
pub struct Memo {
    slots: Vec<(u64, u64)>,
    mask: usize,
    pub stats: MemoStats,
}

impl Memo {
    /// A table of `2^bits` slots (16 bytes each).
    pub fn new(bits: u32) -> Memo {
        let n = 1usize << bits;
        Memo {
            slots: vec![(0, 0); n],
            mask: n - 1,
            stats: MemoStats {
                entries: n,
                ..Default::default()
            },
        }
    }

    /// Mix the depth into the key so one position at two depths takes two keys.
    #[inline]
    fn key(hash: u64, depth: u32) -> u64 {
        hash ^ (depth as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    #[inline]
    fn get(&mut self, hash: u64, depth: u32) -> Option<u64> {
        let k = Self::key(hash, depth);
        let (key, count) = self.slots[k as usize & self.mask];
        if key == k && count != 0 {
            self.stats.transpositions += 1;
            Some(count)
        } else {
            None
        }
    }

    #[inline]
    fn put(&mut self, hash: u64, depth: u32, count: u64) {
        let k = Self::key(hash, depth);
        self.slots[k as usize & self.mask] = (k, count);
        self.stats.stores += 1;
    }
}

/// Perft through the trait, memoised by (hash, depth).
pub fn perft_hashed<G: Game>(game: &mut G, depth: u32, memo: &mut Memo) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth >= 2
        && let Some(n) = memo.get(game.hash(), depth)
    {
        return n;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if moves.is_empty() {
        return 1;
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for mv in moves {
        game.play(mv);
        total += perft_hashed(game, depth - 1, memo);
        game.undo();
    }
    memo.put(game.hash(), depth, total);
    total
}

/// Fast Othello perft from the standard start, memoised by (Zobrist hash, depth).
pub fn othello_perft_hashed(depth: u32, keys: &Keys, memo: &mut Memo) -> u64 {
    let start = Othello::new(Keys::for_seed(keys.seed));
    fast_hashed(
        othello::START_BLACK,
        othello::START_WHITE,
        Side::Black,
        start.hash(),
        depth,
        keys,
        memo,
    )
}

fn fast_hashed(
    player: u64,
    opponent: u64,
    side: Side,
    hash: u64,
    depth: u32,
    keys: &Keys,
    memo: &mut Memo,
) -> u64 {
    // Small subtrees cost less to count than to look up: the plain counter does them.
    if depth <= 3 {
        return othello::perft(player, opponent, depth, false);
    }
    if let Some(n) = memo.get(hash, depth) {
        return n;
    }
    let mut mv = othello::moves(player, opponent);
    if mv == 0 {
        if othello::moves(opponent, player) == 0 {
            return 1;
        }
        return fast_hashed(
            opponent,
            player,
            side.opponent(),
            hash ^ keys.side,
            depth - 1,
            keys,
            memo,
        );
    }
    let mut total = 0;
    while mv != 0 {
        let sq = mv.trailing_zeros() as usize;
        mv &= mv - 1;
        let f = othello::flips(sq, player, opponent);
        let h = othello::hash_after_move(keys, hash, side.index(), sq, f);
        total += fast_hashed(
            opponent ^ f,
            player | f | (1 << sq),
            side.opponent(),
            h,
            depth - 1,
            keys,
            memo,
        );
    }
    memo.put(hash, depth, total);
    total
}

/// Per-move counts at the root ("divide"), through the trait.
pub fn divide<G: Game>(game: &mut G, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            game.play(mv);
            let n = perft(game, depth.saturating_sub(1));
            game.undo();
            (mv, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::gomoku::{Gomoku, Rule};

    #[test]
    fn trait_and_fast_paths_agree() {
        for d in 0..=7 {
            let mut g = Othello::default();
            assert_eq!(perft(&mut g, d), othello_perft(d), "depth {d}");
        }
    }

    #[test]
    fn hashed_counts_equal_plain_and_find_transpositions() {
        let keys = Keys::default_keys();
        let mut memo = Memo::new(16);
        assert_eq!(othello_perft_hashed(8, keys, &mut memo), 390_216);
        assert!(memo.stats.transpositions > 0);
        let mut g = Gomoku::new(5, Rule::Freestyle, keys);
        let mut memo = Memo::new(16);
        assert_eq!(perft_hashed(&mut g, 5, &mut memo), 25 * 24 * 23 * 22 * 21);
        assert!(memo.stats.transpositions > 0);
    }
}
