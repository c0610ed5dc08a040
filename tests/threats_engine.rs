//! The threat search inside the engine: the root hint (forced win played at once, losing replies
//! left out, a proven loss recognised) and the searcher's use of it; and a regression test for
//! iterations that ended as "exact" on table hits alone.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use xorboard::game::gomoku::{Gomoku, Rule};
use xorboard::game::notation::split_gomoku_list;
use xorboard::game::{Game, Move, Outcome, Side, play_line};
use xorboard::search::threats::puzzle;
use xorboard::search::{
    Board, Limits, RootHint, SearchOptions, Searchable, Searcher, ThreatParts, WIN_BOUND,
};
use xorboard::tt::{Policy, Table};
use xorboard::zobrist::Keys;

fn game(moves: &str) -> Gomoku {
    let mut g = Gomoku::new(15, Rule::Freestyle, Keys::default_keys());
    play_line(&mut g, &split_gomoku_list(moves)).unwrap();
    g
}

fn searcher() -> Searcher<Gomoku> {
    Searcher::new(Arc::new(Table::new(4, Policy::Aging, 64)))
}

fn replay(start: &Gomoku, line: &[Move]) -> Option<Outcome> {
    let mut g = start.clone();
    for &m in line {
        g.try_play(m).ok()?;
    }
    g.outcome()
}

#[test]
fn a_forced_win_is_played_at_once() {
    let p = puzzle::parse(
        &std::fs::read_to_string("tests/data/tactics/vcf_black.txt").unwrap(),
        Keys::default_keys(),
    )
    .unwrap();
    let stop = AtomicBool::new(false);
    let r = searcher().search(
        &p.game,
        &Limits::time(Duration::from_secs(2)),
        &stop,
        &mut |_| {},
    );
    assert!(r.exact && r.score >= WIN_BOUND, "{r:?}");
    assert_eq!(r.best, r.pv.first().copied());
    assert_eq!(replay(&p.game, &r.pv), Some(Outcome::Win(Side::Black)));
}

#[test]
fn replies_that_lose_to_an_open_three_are_left_out() {
    // white h8 h9 h10 is an open three; black (to move) must block at h7 or h11 (or h6/h12)
    let g = game("a1,h8,c1,h9,e1,h10");
    let stop = AtomicBool::new(false);
    let mut nodes = 0;
    let mut all = Vec::new();
    g.legal_moves(&mut all);
    let hint = g
        .board()
        .root_hint(&all, &Limits::depth(4), &stop, &mut nodes);
    let RootHint::Exclude(losing) = hint else {
        panic!("{hint:?}");
    };
    assert!(nodes > 0);
    let name = |m: &Move| g.move_name(*m);
    let losing: Vec<String> = losing.iter().map(name).collect();
    for defence in ["h7", "h11"] {
        assert!(
            !losing.contains(&defence.to_string()),
            "{defence} in {losing:?}"
        );
    }
    // h6 and h12 lose too: the other end then makes an open four
    for loser in ["h6", "h12", "g8", "i10", "a2"] {
        assert!(
            losing.contains(&loser.to_string()),
            "{loser} not in {losing:?}"
        );
    }
    // and the search plays none of them (a block, or a counter-four first)
    let r = searcher().search(&g, &Limits::depth(4), &stop, &mut |_| {});
    let best = g.move_name(r.best.unwrap());
    assert!(!losing.contains(&best), "{best}");
}

#[test]
fn a_proven_loss_is_recognised() {
    // white has an open four: every black move loses
    let g = game("a1,h8,c1,h9,e1,h10,g1,h11");
    let stop = AtomicBool::new(false);
    let mut nodes = 0;
    let hint = g
        .board()
        .root_hint(&[], &Limits::depth(4), &stop, &mut nodes);
    let RootHint::Decided { best, score, pv } = hint else {
        panic!("{hint:?}");
    };
    assert!(score <= -WIN_BOUND);
    assert_eq!(pv[0], best);
    assert_eq!(replay(&g, &pv), Some(Outcome::Win(Side::White)));
}

#[test]
fn switched_off_the_hint_says_nothing() {
    let g = game("a1,h8,c1,h9,e1,h10,g1,h11");
    let stop = AtomicBool::new(false);
    let mut board = g.board();
    board.disable_exact_answers();
    let hint = board.root_hint(&[], &Limits::depth(4), &stop, &mut 0);
    assert_eq!(hint, RootHint::None);
}

#[test]
fn a_second_search_of_the_same_position_goes_deeper_than_one() {
    // The table must not make an iteration look exact: hits on heuristic entries are not proofs.
    let g = game("h8,h7,j6,i7,h5,i8,i6");
    let stop = AtomicBool::new(false);
    let mut s = searcher();
    let first = s.search(&g, &Limits::depth(4), &stop, &mut |_| {});
    let second = s.search(&g, &Limits::depth(4), &stop, &mut |_| {});
    assert!(!first.exact && !second.exact);
    assert_eq!((first.depth, second.depth), (4, 4));
}

fn names(g: &Gomoku, moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|&m| g.move_name(m)).collect();
    v.sort();
    v
}

#[test]
fn against_an_open_three_only_defences_and_counter_fours_are_generated() {
    // white h8 h9 h10: h7 or h11 would make an open four; black a1 c1 e1 can make fours
    let g = game("a1,h8,c1,h9,e1,h10");
    let mut out = Vec::new();
    g.board().generate(1, 3, &mut out);
    let moves: Vec<Move> = out.iter().map(|s| s.mv).collect();
    assert_eq!(
        names(&g, &moves),
        ["b1", "d1", "h11", "h12", "h6", "h7"],
        "the open-four squares, their five points, and black's fours"
    );
    // without the threat search the engine looks at every square near the stones
    let mut all = Vec::new();
    let mut plain = g.board();
    plain.disable_exact_answers();
    plain.generate(1, 3, &mut all);
    assert!(all.len() > moves.len());
}

#[test]
fn the_leaf_vcf_turns_a_horizon_into_a_proven_win_when_switched_on() {
    // black to move: g4 makes a four (h4) and a three on the g column, then an open four
    let g = game("d4,c4,e4,a15,f4,o15,g5,o1,g6,a1");
    assert_eq!(g.side_to_move(), Side::Black);
    let with_leaf = SearchOptions {
        threats: ThreatParts {
            leaf: true,
            ..ThreatParts::default()
        },
        ..SearchOptions::default()
    };
    let mut b = g.board();
    b.configure(&with_leaf);
    let won = b.evaluate(0);
    let counts = b.leaf_counts();
    let mut plain_board = g.board();
    plain_board.configure(&SearchOptions::default());
    let plain = plain_board.evaluate(0);
    assert!(won >= WIN_BOUND, "{won}");
    assert!(plain < WIN_BOUND, "{plain}");
    assert!(counts.wins >= 1 && counts.searched >= 1);
    assert_eq!(plain_board.leaf_counts().calls, 0);
}

#[test]
fn the_quiescence_search_follows_fours_past_the_horizon() {
    // White to move. Black has two separate closed threes (c12 d12 e12 against white b12, and
    // k4 l4 m4 against white n4); each four it makes (f12, j4) also sets up a second line (f10 f9,
    // j7 j6) on which one more stone gives two five points. One white move cannot stop both, but
    // the win lies past a depth-1 search's horizon: only a search that follows black's fours
    // there sees it.
    let g = game("c12,b12,d12,n4,e12,a15,f10,o15,f9,a1,k4,o1,l4,h15,m4,a8,j7,o8,j6");
    assert_eq!(g.side_to_move(), Side::White);
    let score = |quiescence: bool| {
        let mut s = searcher();
        s.set_threat_parts(ThreatParts {
            root: false,
            quiescence,
            ..ThreatParts::default()
        });
        let r = s.search(&g, &Limits::depth(1), &AtomicBool::new(false), &mut |_| {});
        r.score
    };
    let with = score(true);
    let without = score(false);
    assert!(with <= -WIN_BOUND, "{with}");
    assert!(without > -WIN_BOUND, "{without}");
}
