//! Othello perft against `tests/data/perft.txt` (convention A), through both the fast bitboard
//! path and the `Game` trait, and with the hash memo.

use xorboard::game::othello::Othello;
use xorboard::perft::{Memo, othello_perft, othello_perft_hashed, perft, perft_hashed};
use xorboard::zobrist::Keys;

fn expected() -> Vec<(u32, u64)> {
    include_str!("data/perft.txt")
        .lines()
        .take_while(|l| !l.contains("CONVENTION B"))
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
        })
        .collect()
}

#[test]
fn table_has_depths_one_to_twelve() {
    let e = expected();
    assert!(e.len() >= 12, "{e:?}");
    assert_eq!(e[10], (11, 212_258_800));
}

#[test]
fn othello_perft_1_to_9() {
    for (depth, leaves) in expected().into_iter().filter(|(d, _)| *d <= 9) {
        assert_eq!(othello_perft(depth), leaves, "depth {depth}");
    }
}

#[test]
fn trait_perft_matches_to_depth_8() {
    for (depth, leaves) in expected().into_iter().filter(|(d, _)| *d <= 8) {
        let mut g = Othello::default();
        assert_eq!(perft(&mut g, depth), leaves, "depth {depth}");
    }
}

#[test]
fn hashed_perft_matches_to_depth_9() {
    for (depth, leaves) in expected().into_iter().filter(|(d, _)| *d <= 9) {
        let mut memo = Memo::new(18);
        assert_eq!(
            othello_perft_hashed(depth, Keys::default_keys(), &mut memo),
            leaves,
            "depth {depth}"
        );
        let mut g = Othello::default();
        let mut memo = Memo::new(18);
        if depth <= 7 {
            assert_eq!(perft_hashed(&mut g, depth, &mut memo), leaves);
        }
    }
}

#[test]
#[ignore = "deep: run with --ignored (or xorboard perft --depth 11)"]
fn othello_perft_10_and_11() {
    for (depth, leaves) in expected()
        .into_iter()
        .filter(|(d, _)| (10..=11).contains(d))
    {
        assert_eq!(othello_perft(depth), leaves, "depth {depth}");
    }
}
