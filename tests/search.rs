//! The searcher: exact Othello scores with and without the TT, Gomoku's forced rules, the stop
//! flag, and policy switches while a search runs on another thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use xorboard::commands::solve::parse_suite;
use xorboard::game::gomoku::Gomoku;
use xorboard::game::notation::parse_obf;
use xorboard::game::othello::Othello;
use xorboard::game::{Game, Move};
use xorboard::search::{Limits, SearchStats, Searcher, TtStore, WIN_BOUND};
use xorboard::tt::{Policy, Table};
use xorboard::zobrist::Keys;

fn ffo(first: usize, last: usize) -> Vec<(Othello, i32, Vec<String>)> {
    let text = std::fs::read_to_string("tests/data/ffo1-39.txt").expect("ffo data");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(first - 1)
        .take(last + 1 - first)
        .map(|l| {
            let f: Vec<&str> = l.split(';').collect();
            let g = parse_obf(f[0].trim(), Keys::default_keys()).expect("obf");
            let score = f[1].trim().trim_start_matches('+').parse().expect("score");
            let best = f[2].split(',').map(|s| s.trim().to_lowercase()).collect();
            (g, score, best)
        })
        .collect()
}

fn run<G: xorboard::search::Searchable>(s: &mut Searcher<G>, g: &G, l: Limits) -> SearchStats {
    s.search(g, &l, &AtomicBool::new(false), &mut |_| {})
}

/// Play greedy-ordered first moves until `empties` remain (a smaller, still real endgame).
fn shrink(mut g: Othello, empties: u32) -> Othello {
    while g.empties() > empties && !g.is_over() {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        g.play(v[0]);
    }
    g
}

#[test]
fn ffo_1_to_10_exact_with_the_known_score() {
    let mut s: Searcher<Othello> = Searcher::new(Arc::new(Table::new(16, Policy::Aging, 64)));
    for (i, (g, score, best)) in ffo(1, 10).into_iter().enumerate() {
        let r = run(&mut s, &g, Limits::default());
        assert!(r.exact, "#{}", i + 1);
        assert_eq!(r.score, score, "#{}", i + 1);
        let name = g.move_name(r.best.expect("a move"));
        assert!(best.contains(&name), "#{}: {name} not in {best:?}", i + 1);
    }
}

#[test]
fn same_exact_score_with_and_without_tt() {
    for (i, (g, _, _)) in ffo(1, 10).into_iter().enumerate() {
        let g = shrink(g, 11);
        let mut with: Searcher<Othello> =
            Searcher::new(Arc::new(Table::new(4, Policy::TwoTier, 64)));
        let mut without: Searcher<Othello> = Searcher::with_store(TtStore::None);
        let mut map: Searcher<Othello> = Searcher::with_store(TtStore::Map(Default::default()));
        // The search alone, without the endgame solver answering for it.
        for s in [&mut with, &mut without, &mut map] {
            s.set_exact_hook(false);
        }
        let a = run(&mut with, &g, Limits::default());
        let b = run(&mut without, &g, Limits::default());
        let c = run(&mut map, &g, Limits::default());
        assert!(a.exact && b.exact && c.exact, "#{}", i + 1);
        assert_eq!(a.raw_score, b.raw_score, "#{} tt vs none", i + 1);
        assert_eq!(a.raw_score, c.raw_score, "#{} tt vs map", i + 1);
        assert!(a.nodes < b.nodes, "#{}: the TT saves nodes", i + 1);
    }
}

#[test]
fn every_policy_keeps_exact_scores() {
    let (g, _, _) = ffo(3, 3).remove(0);
    let g = shrink(g, 11);
    let reference = run(
        &mut Searcher::<Othello>::with_store(TtStore::None),
        &g,
        Limits::default(),
    );
    for p in Policy::ALL {
        let t = Arc::new(Table::with_entries(256, p, 64));
        let r = run(&mut Searcher::<Othello>::new(t), &g, Limits::default());
        assert_eq!(r.raw_score, reference.raw_score, "{p}");
    }
}

fn gomoku(moves: &[&str]) -> Gomoku {
    let mut g = Gomoku::default();
    for m in moves {
        g.play_named(m).expect("legal");
    }
    g
}

#[test]
fn gomoku_takes_the_win_in_one() {
    // Black h8 i8 j8 k8 (g8 blocked by white), white to … black to move.
    let g = gomoku(&["h8", "g8", "i8", "a1", "j8", "a2", "k8", "b5"]);
    let mut s: Searcher<Gomoku> = Searcher::new(Arc::new(Table::new(1, Policy::Aging, 64)));
    let r = run(&mut s, &g, Limits::depth(4));
    assert_eq!(g.move_name(r.best.expect("move")), "l8");
    assert!(r.raw_score >= WIN_BOUND && r.exact);
}

#[test]
fn gomoku_blocks_the_loss_in_one() {
    // Black has four h8..k8 with g8 empty and l8 white... white must block g8.
    let g = gomoku(&["h8", "l8", "i8", "a1", "j8", "a2", "k8"]);
    let mut s: Searcher<Gomoku> = Searcher::new(Arc::new(Table::new(1, Policy::Aging, 64)));
    let r = run(&mut s, &g, Limits::depth(3));
    assert_eq!(g.move_name(r.best.expect("move")), "g8");
    // Against an open four every move loses, but the block is still the one chosen.
    let g = gomoku(&["h8", "a1", "i8", "a2", "j8", "a3", "k8"]);
    let r = run(&mut s, &g, Limits::depth(3));
    let best = g.move_name(r.best.expect("move"));
    assert!(best == "g8" || best == "l8", "{best}");
    assert!(r.raw_score <= -WIN_BOUND);
}

/// How long a search may take to notice the stop flag or its deadline in these tests: the promise
/// is a few milliseconds on an idle core (it polls every 1024 nodes), and this bound is hundreds
/// of times that, so a loaded machine cannot fail it while a search that ignores the flag does.
const STOP_BOUND: Duration = Duration::from_secs(3);

#[test]
fn stop_flag_ends_the_search_quickly() {
    let g = gomoku(&["h8", "i9", "h9", "h10", "i8", "g8"]);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let (started_tx, started) = std::sync::mpsc::channel();
    let worker = std::thread::spawn(move || {
        let mut s: Searcher<Gomoku> = Searcher::new(Arc::new(Table::new(4, Policy::Aging, 64)));
        let r = s.search(&g, &Limits::default(), &flag, &mut |_| {
            let _ = started_tx.send(());
        });
        (r, Instant::now())
    });
    // Stop once the search has reported progress, however long the scheduler took to start it.
    started.recv().expect("the search reports progress");
    let asked = Instant::now();
    stop.store(true, Ordering::Relaxed);
    let (r, ended) = worker.join().expect("search thread");
    assert!(r.best.is_some());
    let took = ended.duration_since(asked);
    assert!(took < STOP_BOUND, "stopped {took:?} after the flag");
}

#[test]
fn policy_switch_while_searching_on_another_thread() {
    const SWITCHES: u64 = 100;
    let table = Arc::new(Table::new(1, Policy::Always, 64));
    let stop = Arc::new(AtomicBool::new(false));
    let (t, flag) = (table.clone(), stop.clone());
    let mut g = Othello::default();
    for m in ["f5", "d6", "c3", "d3", "c4"] {
        g.play_named(m).expect("legal");
    }
    let worker = std::thread::spawn(move || {
        let mut s: Searcher<Othello> = Searcher::new(t);
        s.search(&g, &Limits::default(), &flag, &mut |_| {})
    });
    // Switch strategy and check bits while the search runs, until the table has both seen the
    // switches and met a full bucket (a replacement or a kept entry) under them. The loop is
    // bounded by what the search has done, not by a time it may not get on a loaded machine.
    let mut switches = 0;
    let mut p = Policy::Always;
    let guard = Instant::now();
    loop {
        let s = table.stats();
        if switches >= SWITCHES && (s.replacements > 0 || s.rejected > 0) {
            break;
        }
        assert!(
            guard.elapsed() < Duration::from_secs(120),
            "the search never filled a bucket: {s:?}"
        );
        p = p.next();
        table.set_policy(p);
        table.set_check_bits(if switches % 2 == 0 { 16 } else { 64 });
        switches += 1;
        std::thread::sleep(Duration::from_millis(1));
    }
    stop.store(true, Ordering::Relaxed);
    let r = worker.join().expect("search thread");
    assert!(r.best.is_some() && r.best != Some(Move::PASS));
    let s = table.stats();
    assert_eq!(s.policy_switches, switches);
    assert!(s.probes > 0 && s.fills > 0);
    assert!(s.replacements > 0 || s.rejected > 0);
}

#[test]
fn a_table_that_never_evicts_searches_like_the_unbounded_map() {
    let positions = xorboard::commands::bench::othello_positions().expect("bench positions");
    for g in positions.iter().take(3) {
        let t = Arc::new(Table::with_entries(1 << 16, Policy::Aging, 64));
        let a = run(
            &mut Searcher::<Othello>::new(t.clone()),
            g,
            Limits::depth(6),
        );
        let b = run(
            &mut Searcher::<Othello>::with_store(TtStore::Map(Default::default())),
            g,
            Limits::depth(6),
        );
        assert_eq!(t.stats().replacements, 0);
        assert_eq!(
            (a.nodes, a.raw_score, a.best),
            (b.nodes, b.raw_score, b.best)
        );
    }
}

#[test]
fn lazy_smp_keeps_exact_scores_and_counts_helper_nodes() {
    for (g, score, _) in ffo(1, 3) {
        let t = Arc::new(Table::new(8, Policy::Aging, 64));
        let mut s: Searcher<Othello> = Searcher::new(t.clone());
        s.set_threads(2);
        s.set_exact_hook(false);
        let r = run(&mut s, &g, Limits::default());
        assert!(r.exact);
        assert_eq!(r.score, score);
        assert!(t.stats().probes > 0);
    }
    // Helpers share the work of a time-limited search too: a best move, and helper nodes
    // counted in the total.
    let mut g = Othello::default();
    for m in ["f5", "d6", "c3", "d3", "c4"] {
        g.play_named(m).expect("legal");
    }
    let t = Arc::new(Table::new(8, Policy::TwoTier, 64));
    let mut one: Searcher<Othello> = Searcher::new(t.clone());
    let r1 = run(&mut one, &g, Limits::depth(7));
    t.clear();
    let mut two: Searcher<Othello> = Searcher::new(t.clone());
    two.set_threads(2);
    let r2 = run(&mut two, &g, Limits::depth(7));
    assert!(r2.best.is_some());
    assert_eq!(r2.depth, 7);
    assert!(r1.nodes > 0 && r2.nodes > 0);
}

#[test]
fn gomoku_search_plays_the_threat_win_of_the_puzzles() {
    use xorboard::game::Outcome;
    use xorboard::search::threats::puzzle;
    for file in ["vcf_black.txt", "vct_game_black_l03_1.txt"] {
        let text = std::fs::read_to_string(format!("tests/data/tactics/{file}")).expect("puzzle");
        let p = puzzle::parse(&text, Keys::default_keys()).expect("parse");
        assert_eq!(p.game.side_to_move(), p.attacker, "{file}");
        let mut s: Searcher<Gomoku> = Searcher::new(Arc::new(Table::new(4, Policy::Aging, 64)));
        let r = run(&mut s, &p.game, Limits::time(Duration::from_secs(60)));
        assert!(r.exact && r.raw_score >= WIN_BOUND, "{file}: {r:?}");
        // The principal variation is a legal line that ends in the attacker's five.
        let mut g = p.game.clone();
        for &mv in &r.pv {
            g.try_play(mv).expect("legal pv move");
        }
        assert_eq!(g.outcome(), Some(Outcome::Win(p.attacker)), "{file}");
    }
}

#[test]
fn a_timed_othello_search_ends_on_time_through_the_solver_hand_over() {
    // FFO #45 (24 empties): the root's moves are handed to the exact solver from depth 7 on,
    // and those solves must stop at the search's deadline too (unbounded they take seconds).
    let text = std::fs::read_to_string("assets/ffo40-49.txt").expect("ffo data");
    let suite = parse_suite(&text).expect("suite parses");
    let g = &suite.iter().find(|e| e.id == "45").expect("#45").game;
    let mut s: Searcher<Othello> = Searcher::new(Arc::new(Table::new(16, Policy::Aging, 64)));
    let start = Instant::now();
    let r = run(&mut s, g, Limits::time(Duration::from_millis(100)));
    let took = start.elapsed();
    assert!(r.best.is_some(), "{r:?}");
    // Unbounded, the hand-over's solves take seconds; on time it ends ~110 ms after the start.
    assert!(
        took < Duration::from_millis(100) + STOP_BOUND,
        "took {took:?}"
    );
}
