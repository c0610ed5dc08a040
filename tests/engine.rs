//! The engine thread: progress reports then `Done`, stop, settings.

use std::time::{Duration, Instant};

use xorboard::engine::{Engine, Position, Report};
use xorboard::game::Game;
use xorboard::game::othello::Othello;
use xorboard::search::Limits;
use xorboard::tt::Policy;

/// How long to wait for an answer that normally takes milliseconds: only a hung engine reaches
/// it, so it holds on a loaded machine.
const GUARD: Duration = Duration::from_secs(60);

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
    e.search(1, Position::Othello(Othello::default()), Limits::depth(6));
    let (progress, done) = wait_done(&e, 1, GUARD);
    // at least one report per completed depth
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
    // stop once the search is under way, however long the scheduler took to start it
    let end = Instant::now() + GUARD;
    while !matches!(
        e.recv_timeout(Duration::from_millis(20)),
        Some(Report::Progress { id: 7, .. })
    ) {
        assert!(Instant::now() < end, "no progress from search 7");
    }
    let asked = Instant::now();
    e.stop();
    let (_, done) = wait_done(&e, 7, GUARD);
    // a few milliseconds on an idle machine; hundreds of times that here
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "{:?}",
        asked.elapsed()
    );
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
    wait_done(&e, 1, GUARD);
    wait_done(&e, 2, GUARD);
    e.set_tt_mib(8);
    e.search(3, Position::Othello(Othello::default()), Limits::depth(2));
    wait_done(&e, 3, GUARD);
    assert_eq!(e.tt_info(), (Policy::Big, 8, 20));
    assert!(
        e.tt_stats().policy_switches == 0,
        "a new table starts its own count"
    );
}

#[test]
fn a_stopped_worker_is_reported_instead_of_waited_for() {
    // After `Quit` the worker thread ends: a caller waiting for a search's report gets an
    // error naming that, not a silent timeout it would poll again forever.
    let e = Engine::spawn(1, Policy::TwoTier, 64);
    e.send(xorboard::engine::Command::Quit);
    let report = e.recv_timeout(GUARD);
    assert!(
        matches!(&report, Some(Report::Error(m)) if m.contains("stopped")),
        "{report:?}"
    );
}
