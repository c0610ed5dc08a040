//! The engine thread: progress reports then `Done`, stop, settings.

use std::time::{Duration, Instant};

use xorboard::engine::{Engine, Position, Report};
use xorboard::game::Game;
use xorboard::game::othello::Othello;
use xorboard::search::Limits;
use xorboard::tt::Policy;

fn wait_done(e: &Engine, id: u64, within: Duration) -> (usize, Report) {
    let end = Instant::now() + within;
    let mut progress = 0;
    while Instant::now() < end {
        match e.recv_timeout(Duration::from_millis(20)) {
            Some(Report::Progress { id: i, .. }) if i == id => progress += 1,
            Some(r @ Report::Done { id: i, .. }) if i == id => return (progress, r),
            Some(Report::Error(m)) => panic!("engine error: {m}"),
            _ => {}
        }
    }
    panic!("no Done for search {id} within {within:?}");
}

#[test]
fn progress_then_done() {
    let e = Engine::spawn(4, Policy::TwoTier, 64);
    e.search(
        1,
        Position::Othello(Othello::default()),
        Limits::time(Duration::from_millis(300)),
    );
    let (progress, done) = wait_done(&e, 1, Duration::from_secs(5));
    assert!(progress >= 2, "{progress} progress reports");
    let Report::Done { search, tt, .. } = done else {
        unreachable!()
    };
    let g = Othello::default();
    assert!(g.is_legal(search.best.expect("a move")));
    assert!(search.depth >= 4);
    assert!(tt.probes > 0);
}

#[test]
fn stop_ends_a_search_without_limits() {
    let e = Engine::spawn(4, Policy::Aging, 64);
    e.search(7, Position::Othello(Othello::default()), Limits::default());
    std::thread::sleep(Duration::from_millis(100));
    let asked = Instant::now();
    e.stop();
    let (_, done) = wait_done(&e, 7, Duration::from_secs(2));
    assert!(asked.elapsed() < Duration::from_millis(500));
    assert!(matches!(done, Report::Done { search, .. } if search.best.is_some()));
}

#[test]
fn a_new_search_replaces_the_running_one_and_settings_apply() {
    let e = Engine::spawn(2, Policy::Always, 64);
    e.search(1, Position::Othello(Othello::default()), Limits::default());
    std::thread::sleep(Duration::from_millis(50));
    e.set_policy(Policy::Big);
    e.set_check_bits(20);
    assert_eq!(e.tt_info(), (Policy::Big, 2, 20));
    e.search(2, Position::Othello(Othello::default()), Limits::depth(3));
    wait_done(&e, 1, Duration::from_secs(2));
    wait_done(&e, 2, Duration::from_secs(2));
    e.set_tt_mib(8);
    e.search(3, Position::Othello(Othello::default()), Limits::depth(2));
    wait_done(&e, 3, Duration::from_secs(2));
    assert_eq!(e.tt_info(), (Policy::Big, 8, 20));
    assert!(
        e.tt_stats().policy_switches == 0,
        "a new table starts its own count"
    );
}
