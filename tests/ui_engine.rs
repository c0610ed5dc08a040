//! The game screen with the real engine thread: a search started by the App reports progress
//! and a result that is played; the strategy switch reaches the engine mid-search; `e` makes the
//! engine move at once; pausing and taking back a move drop the running search's result.

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use xorboard::game::GameKind;
use xorboard::game::GameSpec;
use xorboard::tt::Policy;
use xorboard::ui::app::{App, Human, Purpose, Settings};
use xorboard::ui::event::Event;
use xorboard::ui::position::AnyGameExt;

/// How long to wait for what normally takes milliseconds: only a hung engine reaches it, so the
/// tests hold on a loaded machine.
const GUARD: Duration = Duration::from_secs(60);

fn app(human: Human, game: GameKind, time_ms: u64) -> App {
    App::new(Settings {
        spec: GameSpec {
            game,
            ..GameSpec::default()
        },
        human,
        time_ms: Some(time_ms),
        tt_mib: 4,
        ..Settings::default()
    })
    .unwrap()
}

fn ch(app: &mut App, c: char) {
    app.update(Event::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::NONE,
    )));
}

/// Drain reports until `done` holds or `limit` passes; returns how many reports came.
fn pump(app: &mut App, limit: Duration, mut done: impl FnMut(&App) -> bool) -> usize {
    let start = Instant::now();
    let mut reports = 0;
    while !done(app) && start.elapsed() < limit {
        reports += app.drain_engine();
        std::thread::sleep(Duration::from_millis(5));
    }
    reports
}

#[test]
fn the_engine_replies_with_live_progress_in_both_games() {
    for game in [GameKind::Othello, GameKind::Gomoku] {
        // A depth limit, not a time: one progress report per completed depth at least, however
        // little of the machine the engine thread gets.
        let mut app = App::new(Settings {
            spec: GameSpec {
                game,
                ..GameSpec::default()
            },
            human: Human::Black,
            depth: Some(6),
            tt_mib: 4,
            ..Settings::default()
        })
        .unwrap();
        let first = if game == GameKind::Othello {
            "f5"
        } else {
            "h8"
        };
        app.run_command(first);
        assert_eq!(app.search_purpose(), Some(Purpose::Move));
        let reports = pump(&mut app, GUARD, |a| a.game.history().len() == 2);
        assert_eq!(app.game.history().len(), 2, "{game}: the engine replied");
        assert!(reports >= 5, "{game}: progress reports came ({reports})");
        assert!(app.search.nodes > 0 && app.search.depth > 0);
        assert!(app.tt.stats.probes > 0, "{game}: the TT panel has figures");
        assert!(
            !app.tt.samples.is_empty(),
            "{game}: the sparkline has samples"
        );
        assert!(!app.thinking());
        assert_eq!(app.deltas[0].side, xorboard::game::Side::White);
        assert!(app.deltas.iter().all(|d| d.verified()));
    }
}

#[test]
fn a_strategy_switch_reaches_the_engine_mid_search() {
    let mut app = app(Human::None, GameKind::Othello, 60_000);
    assert!(
        app.thinking(),
        "the engine starts at once when it plays both sides"
    );
    pump(&mut app, GUARD, |a| a.search.reports > 0);
    ch(&mut app, 's');
    assert_eq!(app.settings.policy, Policy::TwoTier.next());
    assert!(app.tt.last_switch.unwrap().mid_search);
    pump(&mut app, GUARD, |a| a.tt.stats.policy_switches >= 1);
    assert!(
        app.tt.stats.policy_switches >= 1,
        "the engine's table counted the switch"
    );
    assert!(app.thinking(), "the search goes on");
    ch(&mut app, 'q');
}

#[test]
fn e_moves_now_and_p_pauses() {
    let mut app = app(Human::Black, GameKind::Othello, 60_000);
    app.run_command("f5");
    pump(&mut app, GUARD, |a| a.search.reports > 0);
    let asked = Instant::now();
    ch(&mut app, 'e');
    pump(&mut app, GUARD, |a| a.game.history().len() == 2);
    assert_eq!(app.game.history().len(), 2);
    assert!(
        // at once on an idle machine; the bound is hundreds of times that
        asked.elapsed() < Duration::from_secs(3),
        "moved within {:?}",
        asked.elapsed()
    );
    // Pause mid-search: the search stops and its result is not played.
    app.run_command("human white");
    assert_eq!(app.search_purpose(), Some(Purpose::Move));
    ch(&mut app, 'p');
    assert!(!app.thinking());
    pump(&mut app, Duration::from_millis(300), |_| false);
    assert_eq!(app.game.history().len(), 2);
}

#[test]
fn undo_while_the_engine_thinks_drops_its_result() {
    let mut app = app(Human::Black, GameKind::Othello, 300);
    app.run_command("f5");
    assert!(app.thinking());
    ch(&mut app, 'u');
    assert!(!app.thinking());
    assert!(app.game.history().is_empty());
    pump(&mut app, Duration::from_millis(800), |_| false);
    assert!(
        app.game.history().is_empty(),
        "the stale result was not played"
    );
    assert!(app.game.name(xorboard::game::Move::at(app.cursor)) == "f5");
}

#[test]
fn a_hint_marks_a_legal_move() {
    let mut app = app(Human::Black, GameKind::Othello, 200);
    ch(&mut app, 't');
    assert_eq!(app.search_purpose(), Some(Purpose::Hint));
    pump(&mut app, GUARD, |a| a.hint.is_some());
    let hint = app.hint.expect("a hint");
    assert!(app.game.legal().contains(&hint));
    assert_eq!(hint.cell(), Some(app.cursor));
    assert!(app.game.history().is_empty(), "a hint plays nothing");
}

/// The headless side of the UI-overhead measurement: the search `xorboard --human white
/// --depth 16` makes for black's first move, without a screen (the same 9,144,504 nodes both
/// ways: one thread, a fresh table). Run with
/// `cargo test --release --test ui_engine -- --ignored --nocapture`, then compare its nodes per
/// second with the Search panel's figure at the end of the same search in the UI, and its
/// engine-thread CPU ticks with `/proc/<pid>/task/*/stat` of the UI process.
#[test]
#[ignore]
fn headless_nps_of_the_first_othello_search() {
    use xorboard::engine::{Engine, Report};
    use xorboard::search::Limits;
    let engine = Engine::spawn(64, Policy::TwoTier, 64);
    let start = xorboard::game::AnyGame::Othello(xorboard::game::othello::Othello::default());
    engine.search(1, start, Limits::depth(16));
    loop {
        match engine.recv_timeout(Duration::from_secs(600)) {
            Some(Report::Done { search, .. }) => {
                println!(
                    "headless: depth {} nodes {} time {} ms nps {}",
                    search.depth, search.nodes, search.elapsed_ms, search.nps
                );
                // CPU time of the engine thread (Linux): nodes per CPU-second do not depend on
                // how busy the machine is.
                for task in std::fs::read_dir("/proc/self/task")
                    .into_iter()
                    .flatten()
                    .flatten()
                {
                    let comm =
                        std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
                    let stat =
                        std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
                    let fields: Vec<&str> = stat
                        .rsplit(')')
                        .next()
                        .unwrap_or("")
                        .split_whitespace()
                        .collect();
                    if comm.trim() == "xorboard-engine" && fields.len() > 13 {
                        let ticks: u64 = fields[11].parse::<u64>().unwrap_or(0)
                            + fields[12].parse::<u64>().unwrap_or(0);
                        println!("headless engine thread CPU: {} ticks", ticks);
                    }
                }
                assert!(search.nodes > 0);
                return;
            }
            Some(_) => {}
            None => panic!("no result within 10 minutes"),
        }
    }
}
