//! Symmetry keys in the search: rotated and mirrored positions share one table entry, so a
//! symmetric root needs fewer nodes, with a higher hit rate, for the same result.

use std::sync::{Arc, atomic::AtomicBool};

use xorboard::game::gomoku::Gomoku;
use xorboard::game::othello::Othello;
use xorboard::game::{Game, play_line};
use xorboard::search::{Limits, Searchable, Searcher};
use xorboard::tt::{Policy, Table};

fn run<G: Searchable>(g: &G, depth: u32, symmetry: bool) -> (u64, f64, i32, bool) {
    let t = Arc::new(Table::new(16, Policy::TwoTier, 64));
    let mut s: Searcher<G> = Searcher::new(t);
    s.set_symmetry(symmetry);
    let stop = AtomicBool::new(false);
    let r = s.search(g, &Limits::depth(depth), &stop, &mut |_| {});
    let st = s.tt_stats();
    let legal = r.best.is_some_and(|m| g.is_legal(m));
    (
        r.nodes,
        st.hits as f64 / st.probes.max(1) as f64,
        r.score,
        legal,
    )
}

#[test]
fn othello_start_shares_entries_across_the_four_symmetric_openings() {
    let g = Othello::default();
    let (plain_nodes, plain_rate, plain_score, legal) = run(&g, 7, false);
    let (sym_nodes, sym_rate, sym_score, sym_legal) = run(&g, 7, true);
    assert!(legal && sym_legal);
    assert_eq!(plain_score, sym_score);
    assert!(sym_nodes < plain_nodes, "{sym_nodes} vs {plain_nodes}");
    assert!(sym_rate > plain_rate, "{sym_rate} vs {plain_rate}");
}

#[test]
fn gomoku_centre_stone_shares_entries() {
    let mut g = Gomoku::default();
    play_line(&mut g, &["h8".to_string()]).unwrap();
    let (plain_nodes, _, _, legal) = run(&g, 4, false);
    let (sym_nodes, _, _, sym_legal) = run(&g, 4, true);
    assert!(legal && sym_legal);
    assert!(sym_nodes < plain_nodes, "{sym_nodes} vs {plain_nodes}");
}

#[test]
fn moves_from_a_symmetric_table_are_legal_in_every_orientation() {
    // One table, searched from the four symmetric first moves in turn: each search reads the
    // others' entries through a transform, and every best move and PV move must be legal.
    let t = Arc::new(Table::new(4, Policy::Aging, 64));
    let mut s: Searcher<Othello> = Searcher::new(t);
    s.set_symmetry(true);
    let stop = AtomicBool::new(false);
    for first in ["f5", "d3", "c4", "e6"] {
        let mut g = Othello::default();
        play_line(&mut g, &[first.to_string()]).unwrap();
        let r = s.search(&g, &Limits::depth(6), &stop, &mut |_| {});
        let mut replay = g.clone();
        for mv in &r.pv {
            assert!(replay.try_play(*mv).is_ok(), "{first}: pv {:?}", r.pv);
        }
        assert!(g.is_legal(r.best.unwrap()));
    }
}
