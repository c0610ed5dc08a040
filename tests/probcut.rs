//! Multi-ProbCut in the Othello midgame search: it is offered only for midgame nodes (never
//! for a node searched to the end, never on the baseline board), searches with it still end
//! exact once they reach the end of the game, and its scores stay in bounds.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use xorboard::game::notation::split_othello_transcript;
use xorboard::game::othello::Othello;
use xorboard::game::{Game, play_line};
use xorboard::search::endgame::{SolveLimits, Solver};
use xorboard::search::{Board, Limits, ProbCutConfidence, SearchOptions, Searchable, Searcher};
use xorboard::tt::{Policy, Table};
use xorboard::zobrist::Keys;

fn game(line: &str) -> Othello {
    let mut g = Othello::new(Keys::default_keys());
    play_line(&mut g, &split_othello_transcript(line).expect("line")).expect("legal line");
    g
}

/// A game played on from an XOT opening by the first legal move until `empties` are left.
fn game_with_empties(empties: u32) -> Othello {
    let mut g = game("f5d6c4d3c2b3b4b5");
    let mut v = Vec::new();
    while g.empties() > empties {
        g.legal_moves(&mut v);
        assert!(!v.is_empty(), "the game goes on");
        g.play(v[v.len() / 2]);
    }
    g
}

fn searcher(probcut: bool) -> Searcher<Othello> {
    let mut s: Searcher<Othello> = Searcher::new(Arc::new(Table::new(8, Policy::TwoTier, 64)));
    let mut o = s.options();
    o.probcut = probcut.then(ProbCutConfidence::default);
    s.set_options(o);
    s
}

#[test]
fn probcut_is_offered_only_in_the_midgame_of_the_pattern_board() {
    let confidence = ProbCutConfidence::default();
    let g = game_with_empties(30);
    let b = g.board();
    assert!(
        b.probcut(8, confidence).is_some(),
        "a depth-8 node at 30 empties"
    );
    assert!(b.probcut(29, confidence).is_some());
    assert_eq!(b.probcut(30, confidence), None, "searched to the end");
    assert_eq!(b.probcut(40, confidence), None, "searched to the end");
    assert_eq!(b.probcut(1, confidence), None, "too shallow");
    let mut baseline = g.board();
    baseline.configure(&SearchOptions {
        exact: false,
        ..SearchOptions::default()
    });
    assert_eq!(baseline.probcut(8, confidence), None, "baseline board");
}

#[test]
fn a_search_to_the_end_with_probcut_on_is_exact() {
    let g = game_with_empties(14);
    let (p, o) = g.player_opponent();
    let exact = Solver::new(4)
        .solve(p, o, &AtomicBool::new(false), &SolveLimits::default())
        .expect("no limits");
    let r = searcher(true).search(&g, &Limits::depth(16), &AtomicBool::new(false), &mut |_| {});
    assert!(r.exact);
    assert_eq!(r.score, exact.score);
}

#[test]
fn a_probcut_search_returns_a_legal_move_and_a_score_in_bounds() {
    for line in ["f5d6c4d3c2b3b4b5", "f5f4g3g6f3g4e3e2", "f5d6c3d3c4f4f6f3"] {
        let g = game(line);
        let stop = AtomicBool::new(false);
        let with = searcher(true).search(&g, &Limits::depth(9), &stop, &mut |_| {});
        let without = searcher(false).search(&g, &Limits::depth(9), &stop, &mut |_| {});
        let mut legal = Vec::new();
        g.legal_moves(&mut legal);
        assert!(legal.contains(&with.best.expect("a move")), "{line}");
        assert!(with.score.abs() <= 64, "{line}: {}", with.score);
        assert_eq!(with.depth, 9);
        // both estimate the same position: far apart would mean a broken prediction
        assert!(
            (with.score - without.score).abs() <= 12,
            "{line}: with {} without {}",
            with.score,
            without.score
        );
    }
}
