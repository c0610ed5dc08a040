//! Zobrist hashing: transpositions hash equal, the incremental hash always equals the full
//! recompute (a property test over random games of both kinds), pinned hash values, and the
//! 2×2 worked example of seed 000.

use proptest::prelude::*;
use xorboard::game::gomoku::{Gomoku, Rule};
use xorboard::game::notation::{split_gomoku_list, split_othello_transcript};
use xorboard::game::othello::Othello;
use xorboard::game::{Game, play_line};
use xorboard::zobrist::{Keys, hex};

fn othello_after(transcript: &str) -> Othello {
    let mut g = Othello::default();
    play_line(&mut g, &split_othello_transcript(transcript).unwrap()).unwrap();
    g
}

fn gomoku_after(list: &str) -> Gomoku {
    let mut g = Gomoku::default();
    play_line(&mut g, &split_gomoku_list(list)).unwrap();
    g
}

#[test]
fn othello_transposition_hashes_equal() {
    let a = othello_after("f5d6c3d3c4");
    let b = othello_after("f5d6c4d3c3");
    assert_eq!(a.black(), b.black());
    assert_eq!(a.white(), b.white());
    assert_eq!(a.hash(), b.hash());
    assert_eq!(a.hash(), a.recompute_hash());
    assert_ne!(a.hash(), othello_after("f5d6c3d3").hash());
}

#[test]
fn gomoku_transposition_hashes_equal() {
    let a = gomoku_after("h8,i9,j10,g7,h9");
    let b = gomoku_after("h9,g7,h8,i9,j10");
    assert_eq!(a.hash(), b.hash());
    let c = gomoku_after("i9,h9,h8,g7,j10"); // same squares, h9 and i9 swap colours
    assert_ne!(a.hash(), c.hash());
}

#[test]
fn side_to_move_is_part_of_the_hash() {
    // Same stones, other side to move: the hashes differ by exactly the side key.
    let g = Othello::default();
    let keys = Keys::default_keys();
    let swapped = Othello::from_bitboards(g.black(), g.white(), xorboard::game::Side::White, keys);
    assert_eq!(g.hash() ^ swapped.hash(), keys.side);
}

/// Pinned values: a change of key generation breaks these (and every saved hash with them).
#[test]
fn pinned_hashes_from_csv() {
    for line in include_str!("zobrist.csv").lines().skip(1) {
        let mut cols = line.split(';');
        let (game, moves, want) = (
            cols.next().unwrap(),
            cols.next().unwrap(),
            cols.next().unwrap(),
        );
        let got = match game {
            "othello" => othello_after(moves).hash(),
            "gomoku" => gomoku_after(moves).hash(),
            _ => panic!("bad game {game}"),
        };
        assert_eq!(hex(got), want, "{game} {moves}");
    }
}

/// Seed 000's 2×2 board, 32-bit keys, including a key for the empty state.
#[test]
fn seed_000_worked_example() {
    // rows: cell 1..4; columns: empty, black, white
    const K: [[u32; 3]; 4] = [
        [0x269328D5, 0x03FEC752, 0x177044D6],
        [0x070DAEF9, 0x1F4EBA0C, 0x2809F58E],
        [0x3234D017, 0x28CC3BE2, 0x1015BE02],
        [0x1975EF52, 0x1C991C94, 0x157CC882],
    ];
    let full = |state: [usize; 4]| (0..4).fold(0u32, |h, c| h ^ K[c][state[c]]);
    let hash1 = full([1, 0, 0, 0]);
    assert_eq!(hash1, 0x2FB256EE);
    let hash2 = full([1, 0, 0, 2]);
    assert_eq!(hash2, 0x23BB713E);
    assert_eq!(hash1 ^ K[3][0] ^ K[3][2], hash2);
    // and the crate's lesson module reproduces the same figures
    let lesson = xorboard::lesson::SeedExample::new();
    assert_eq!(lesson.hash1_full(), 0x2FB256EE);
    assert_eq!(lesson.hash2_full(), 0x23BB713E);
    assert_eq!(lesson.hash2_incremental(), 0x23BB713E);
}

fn check_random_game<G: Game>(mut g: G, choices: &[usize]) -> usize {
    let mut moves = Vec::new();
    let mut plies = 0;
    for (i, &pick) in choices.iter().enumerate() {
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[pick % moves.len()];
        let before = g.hash();
        let delta = g.try_play(mv).expect("legal move");
        plies += 1;
        assert_eq!(g.hash(), g.recompute_hash(), "after move {i}");
        assert_eq!(delta.replay(), g.hash());
        // every few plies, undo and redo to check undo restores the hash exactly
        if pick % 3 == 0 {
            g.undo();
            assert_eq!(g.hash(), before);
            assert_eq!(g.hash(), g.recompute_hash(), "after undo {i}");
            g.play(mv);
        }
    }
    while g.undo().is_some() {
        assert_eq!(g.hash(), g.recompute_hash());
    }
    assert_eq!(g.hash(), g.recompute_hash());
    plies
}

proptest! {
    // 800 cases × (about 60 Othello + 20–300 Gomoku plies) is well over 100,000 plies in all.
    #![proptest_config(ProptestConfig::with_cases(800))]

    #[test]
    fn incremental_hash_equals_recompute(
        seed in any::<u64>(),
        othello_picks in proptest::collection::vec(any::<usize>(), 70),
        gomoku_picks in proptest::collection::vec(any::<usize>(), 300),
        size in 5usize..=19,
        exact in any::<bool>(),
    ) {
        let keys = Keys::for_seed(seed % 4);
        let n = check_random_game(Othello::new(keys), &othello_picks);
        prop_assert!(n >= 8);
        let rule = if exact { Rule::Exact5 } else { Rule::Freestyle };
        check_random_game(Gomoku::new(size, rule, keys), &gomoku_picks);
    }
}
