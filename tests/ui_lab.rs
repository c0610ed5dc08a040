//! The teaching lab of the game screen: the lesson (`L`), the step-through (`x`), the strategy
//! comparison (`c`), the collision lab line, save/load/resume and the opening book — `App::update`
//! tests of the keys and commands, `TestBackend` rendering tests of the screens, and the
//! comparison's background thread at a small depth.

mod common;

use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use xorboard::book::{Book, GomokuBook};
use xorboard::engine::Report;
use xorboard::engine::compare::{self as lab, Job, Outcome, Plan, Store};
use xorboard::game::gomoku::{Gomoku, Rule};
use xorboard::game::othello::Othello;
use xorboard::game::{AnyGame, GameSpec};
use xorboard::game::{Game, GameKind, Move, Side};
use xorboard::tt::Policy;
use xorboard::ui::app::{App, Human, Mode, Settings};
use xorboard::ui::compare::{self, CompareView, RunState};
use xorboard::ui::event::Event;
use xorboard::ui::lesson::{self, LessonView};
use xorboard::ui::position::AnyGameExt;
use xorboard::ui::search::{self, BookMove, SearchView};
use xorboard::ui::step::{self, StepView};
use xorboard::ui::theme::{ColorMode, Theme};
use xorboard::ui::view;
use xorboard::zobrist::Keys;

fn mono() -> Theme {
    Theme::new(ColorMode::Mono)
}

fn settings(human: Human, game: GameKind) -> Settings {
    Settings {
        spec: GameSpec {
            game,
            ..GameSpec::default()
        },
        human,
        tt_mib: 1,
        ..Settings::default()
    }
}

fn app_with(human: Human, game: GameKind) -> App {
    App::new(settings(human, game)).unwrap()
}

fn app() -> App {
    app_with(Human::Both, GameKind::Othello)
}

fn key(app: &mut App, code: KeyCode) {
    app.update(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn ch(app: &mut App, c: char) {
    key(app, KeyCode::Char(c));
}

fn command(app: &mut App, line: &str) {
    ch(app, ':');
    for c in line.chars() {
        ch(app, c);
    }
    key(app, KeyCode::Enter);
}

fn error(app: &App) -> Option<&str> {
    app.message
        .as_ref()
        .filter(|m| m.error)
        .map(|m| m.text.as_str())
}

fn message(app: &App) -> &str {
    app.message.as_ref().map_or("", |m| m.text.as_str())
}

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal
        .draw(|f| {
            let area = f.area();
            view::draw_into(app, area, f.buffer_mut(), &mono());
        })
        .unwrap();
    format!("{}", terminal.backend())
}

/// Drain reports until `done` holds or `limit` passes.
fn pump(app: &mut App, limit: Duration, mut done: impl FnMut(&App) -> bool) {
    let start = Instant::now();
    while !done(app) && start.elapsed() < limit {
        app.drain_engine();
        std::thread::sleep(Duration::from_millis(5));
    }
}

// ---- the lesson ---------------------------------------------------------------------------

#[test]
fn lesson_steps_reach_the_articles_two_hashes_both_ways() {
    let mut app = app();
    ch(&mut app, 'L');
    assert!(matches!(app.mode, Mode::Lesson(_)));
    assert_eq!(app.lesson().unwrap().pos, 0);
    assert_eq!(app.lesson().unwrap().value(), None);
    // Four XORs of the full hash of black on cell 1.
    for _ in 0..4 {
        key(&mut app, KeyCode::Right);
    }
    assert_eq!(app.lesson().unwrap().value(), Some("0x2FB256EE"));
    // Four more: the full hash after white on cell 4.
    for _ in 0..4 {
        ch(&mut app, ' ');
    }
    assert_eq!(app.lesson().unwrap().value(), Some("0x23BB713E"));
    // Start from hash1, XOR K[4][empty] out, K[4][white] in.
    key(&mut app, KeyCode::Right);
    assert_eq!(app.lesson().unwrap().value(), Some("0x2FB256EE"));
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Right);
    assert_eq!(app.lesson().unwrap().value(), Some("0x23BB713E"));
    // Step 4, the side key: in after ● moved, out again after ○ moved.
    let ks = lesson::side_key();
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Right);
    assert_eq!(
        app.lesson().unwrap().value(),
        Some(format!("0x{:08X}", 0x2FB2_56EE ^ ks).as_str())
    );
    for _ in 0..3 {
        key(&mut app, KeyCode::Right);
    }
    assert_eq!(app.lesson().unwrap().value(), Some("0x23BB713E"));
    assert_eq!(app.lesson().unwrap().pos, app.lesson().unwrap().last());
    key(&mut app, KeyCode::Right);
    assert_eq!(
        app.lesson().unwrap().pos,
        app.lesson().unwrap().last(),
        "stops at the end"
    );
    for _ in 0..6 {
        key(&mut app, KeyCode::Left);
    }
    assert_eq!(app.lesson().unwrap().value(), Some("0x36C7B9BC"));
    key(&mut app, KeyCode::Home);
    assert_eq!(app.lesson().unwrap().pos, 0);
    key(&mut app, KeyCode::End);
    assert_eq!(app.lesson().unwrap().value(), Some("0x23BB713E"));
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Normal);
    // The game was not touched; the lesson remembers where it was.
    assert!(app.game.history().is_empty());
    command(&mut app, "lesson");
    assert!(matches!(app.mode, Mode::Lesson(_)));
    assert_eq!(app.lesson().unwrap().pos, app.lesson().unwrap().last());
    ch(&mut app, 'L');
    assert_eq!(app.mode, Mode::Normal);
}

#[test]
fn lesson_keys_each_step_to_the_right_key() {
    let view = LessonView::default();
    assert_eq!(view.steps.len(), 16);
    let keys = view.example.keys;
    let mut h = 0u32;
    for s in &view.steps {
        if s.part == lesson::Part::SideKey {
            continue;
        }
        match (s.part, s.key) {
            (lesson::Part::Hash2Incremental, None) => h = view.example.hash1_full(),
            // Each full hash starts again from nothing at cell 1.
            (lesson::Part::Hash1Full | lesson::Part::Hash2Full, Some((0, state))) => {
                h = keys[0][state]
            }
            (_, Some((cell, state))) => h ^= keys[cell][state],
            (_, None) => unreachable!("only the incremental start has no key"),
        }
        assert_eq!(format!("0x{h:08X}"), s.step.value, "{}", s.step.what);
    }
}

#[test]
fn lesson_screen_shows_board_keys_and_steps() {
    let mut view = LessonView::default();
    for _ in 0..4 {
        view.next();
    }
    let mut terminal = Terminal::new(TestBackend::new(130, 24)).unwrap();
    terminal
        .draw(|f| {
            let area = f.area();
            lesson::render(&view, area, f.buffer_mut(), &mono());
        })
        .unwrap();
    insta::assert_snapshot!(terminal.backend());
    let text = format!("{}", terminal.backend());
    assert!(text.contains("step 4/16"));
    assert!(text.contains("▶ cell 4 empty"));
    assert!(text.contains("= 0x2FB256EE"));
    assert!(
        !text.contains("0x23BB713E"),
        "later steps are not shown yet"
    );
    // All twelve keys are on screen.
    for row in view.example.keys {
        for k in row {
            assert!(text.contains(&format!("0x{k:08X}")));
        }
    }
    // The whole lesson: both values of hash2 and the check.
    view.pos = view.last();
    terminal
        .draw(|f| {
            let area = f.area();
            lesson::render(&view, area, f.buffer_mut(), &mono());
        })
        .unwrap();
    let text = format!("{}", terminal.backend());
    assert!(
        text.contains("hash2 by the full XOR   = 0x23BB713E"),
        "{text}"
    );
    assert!(
        text.contains("hash2 incrementally     = 0x23BB713E  ✓ equal"),
        "{text}"
    );
    assert!(text.contains("K[side] out"), "{text}");
    assert!(text.contains("It keys no empty"), "{text}");
}

#[test]
fn the_engine_waits_while_the_lesson_is_open() {
    // The engine plays black and starts thinking at once.
    let mut app = App::new(Settings {
        time_ms: Some(5_000),
        ..settings(Human::White, GameKind::Othello)
    })
    .unwrap();
    assert!(app.thinking());
    ch(&mut app, 'L');
    assert!(!app.thinking(), "the lesson holds the engine");
    key(&mut app, KeyCode::Esc);
    assert!(app.thinking(), "back in the game the engine thinks again");
}

// ---- the step-through -----------------------------------------------------------------------

#[test]
fn step_through_walks_every_term_of_the_last_move() {
    let mut app = app();
    ch(&mut app, 'x');
    assert_eq!(error(&app), Some("no move yet to step through"));
    assert_eq!(app.mode, Mode::Normal);
    command(&mut app, "f5");
    command(&mut app, "f6");
    command(&mut app, "e6");
    let delta = xorboard::with_game!(&app.game, g => g.last_delta()).unwrap();
    let final_hash = app.game.hash();
    ch(&mut app, 'x');
    assert!(matches!(app.mode, Mode::Step(_)));
    assert!(!app.thinking());
    let st = app.step().unwrap().clone();
    assert_eq!(st.name, "e6");
    assert_eq!(st.side, Side::Black);
    assert_eq!(st.last(), delta.terms.len() + 1);
    // Position 0: the hash before the move, nothing lit.
    let hv = view::hash_view(&app);
    assert_eq!(hv.hash, delta.before);
    assert_eq!(hv.flipped, 0);
    assert!(hv.step.as_ref().unwrap().intermediate);
    let mut h = delta.before;
    for (i, t) in delta.terms.iter().enumerate() {
        key(&mut app, KeyCode::Right);
        h ^= t.key;
        let hv = view::hash_view(&app);
        assert_eq!(hv.hash, h, "after term {i}");
        assert_eq!(hv.flipped, t.key, "the bits term {i} flips are lit");
        assert_eq!(app.step().unwrap().cell(), Some(t.cell));
    }
    ch(&mut app, ' ');
    let hv = view::hash_view(&app);
    assert_eq!(hv.hash, final_hash, "after the side key: the game's hash");
    assert_eq!(hv.flipped, delta.side_key);
    assert!(!hv.step.as_ref().unwrap().intermediate);
    // Back one term and forward again; Home; End.
    key(&mut app, KeyCode::Left);
    assert_eq!(view::hash_view(&app).hash, final_hash ^ delta.side_key);
    key(&mut app, KeyCode::Home);
    assert_eq!(view::hash_view(&app).hash, delta.before);
    key(&mut app, KeyCode::End);
    assert_eq!(view::hash_view(&app).hash, final_hash);
    // Leaving restores the panels; the game was not changed.
    ch(&mut app, 'x');
    assert_eq!(app.mode, Mode::Normal);
    assert!(app.step().is_none());
    assert_eq!(app.game.hash(), final_hash);
    assert_eq!(view::hash_view(&app).flipped, delta.before ^ final_hash);
    ch(&mut app, 'x');
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Normal);
    assert!(!app.quit, "Esc leaves the step-through, not the game");
}

#[test]
fn step_through_screen_shows_intermediate_hash_and_running_values() {
    let mut app = app();
    command(&mut app, "f5");
    command(&mut app, "d6");
    ch(&mut app, 'x');
    key(&mut app, KeyCode::Right);
    let text = screen(&app, 160, 48);
    let st = app.step().unwrap();
    let after_first = st.hash_at(1);
    assert!(text.contains("… on the way (step-through)"), "{text}");
    assert!(text.contains("step 1/3: ^ d6 ·→○ (placement)"), "{text}");
    assert!(text.contains(&format!("= 0x{after_first:016X}")));
    assert!(text.contains("Step-through · move 2 ○ d6 · step 1/3"));
    assert!(
        text.contains("[○]"),
        "the cursor sits on the term's cell d6"
    );
    assert!(!text.contains("[●]"), "not on f5 where it was");
    // Panel alone, for the snapshot.
    let mut terminal = Terminal::new(TestBackend::new(96, 9)).unwrap();
    terminal
        .draw(|f| {
            let area = f.area();
            step::render(st, area, f.buffer_mut(), &mono())
        })
        .unwrap();
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn step_through_keeps_the_current_term_in_view() {
    // A long Othello move in a short panel: the current term stays visible.
    let g = xorboard::book::othello_after(
        "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5h6h4g4h3",
        Keys::default_keys(),
    )
    .unwrap();
    let mut before = g.clone();
    let mv = before.undo().unwrap();
    let delta = g.last_delta().unwrap();
    let cells = delta
        .terms
        .iter()
        .map(|t| g.move_name(Move::at(t.cell)))
        .collect();
    let mut st = StepView::new(
        g.ply(),
        before.side_to_move(),
        before.move_name(mv),
        cells,
        delta,
    );
    st.pos = st.last();
    let mut terminal = Terminal::new(TestBackend::new(96, 6)).unwrap();
    terminal
        .draw(|f| {
            let area = f.area();
            step::render(&st, area, f.buffer_mut(), &mono())
        })
        .unwrap();
    let text = format!("{}", terminal.backend());
    assert!(text.contains("▶ ^"), "{text}");
    assert!(text.contains("side to move"), "{text}");
}

// ---- the comparison ---------------------------------------------------------------------------

fn outcome(nodes: u64, probes: u64, hits: u64, replacements: u64) -> Outcome {
    Outcome {
        nodes,
        elapsed_ms: nodes / 1000,
        probes,
        hits,
        usable_hits: hits / 2,
        fills: 1000,
        updates: 200,
        replacements,
        rejected: 100,
        false_matches: 0,
        slots: if probes > 0 { 1024 } else { 0 },
        best: Some(Move::at(44)),
        score: 1,
        exact: false,
    }
}

fn name(m: Move) -> String {
    format!("c{}", m.cell().unwrap_or(0))
}

fn synthetic_compare() -> CompareView {
    let mut plan = Plan::new(6, 16, 64);
    plan.chart = Some(Policy::TwoTier);
    assert_eq!(plan.slots(), 1024, "16 KiB of 16-byte slots");
    let mut view = CompareView::new(
        7,
        GameKind::Othello,
        plan.clone(),
        "Othello · 4 moves · ● black to move".into(),
        "the defaults".into(),
        1 << 16,
    );
    let figures = [
        (50_000, 50_000, 6_000, 900),
        (48_000, 48_000, 6_100, 400),
        (47_000, 47_000, 6_200, 30),
        (47_500, 47_500, 6_150, 35),
        (31_000, 31_000, 6_180, 20),
    ];
    for (i, &(n, p, h, r)) in figures.iter().enumerate() {
        assert!(view.absorb(
            &Report::CompareRow {
                id: 7,
                job: Job::Row(i),
                outcome: outcome(n, p, h, r),
            },
            name
        ));
    }
    // The no-TT row is still running.
    assert!(view.absorb(
        &Report::CompareProgress {
            id: 7,
            job: Job::Row(5),
            nodes: 61_000,
            elapsed_ms: 80,
        },
        name
    ));
    for (depth, none, tt) in [
        (1, 5, 5),
        (2, 14, 14),
        (3, 51, 48),
        (4, 265, 195),
        (5, 803, 499),
    ] {
        for (tt_on, n) in [(false, none), (true, tt)] {
            view.absorb(
                &Report::CompareRow {
                    id: 7,
                    job: Job::Point { depth, tt: tt_on },
                    outcome: outcome(n, 0, 0, 0),
                },
                name,
            );
        }
    }
    view
}

#[test]
fn compare_view_fills_rows_and_points_and_ignores_other_runs() {
    let mut view = synthetic_compare();
    assert_eq!(view.state, RunState::Running);
    assert_eq!(view.finished_rows(), 5);
    assert_eq!(view.rows[5].store, Store::None);
    assert_eq!(view.rows[5].live, Some((61_000, 80)));
    assert_eq!(view.rows[0].best.as_deref(), Some("c44"));
    // The chart's last depth comes from the rows: two-tier (the chart's strategy) and no TT.
    assert_eq!(view.points[5].tt, Some(47_000));
    assert_eq!(view.points[5].none, None);
    assert_eq!(view.points[2].none, Some(51));
    // A stale run's report changes nothing.
    let before = view.clone();
    assert!(!view.absorb(
        &Report::CompareRow {
            id: 6,
            job: Job::Row(5),
            outcome: outcome(1, 1, 1, 1),
        },
        name
    ));
    assert!(!view.absorb(
        &Report::CompareDone {
            id: 6,
            cancelled: false
        },
        name
    ));
    assert_eq!(view, before);
    view.absorb(
        &Report::CompareRow {
            id: 7,
            job: Job::Row(5),
            outcome: outcome(98_000, 0, 0, 0),
        },
        name,
    );
    assert_eq!(view.points[5].none, Some(98_000));
    assert_eq!(view.rows[5].live, None);
    view.absorb(
        &Report::CompareDone {
            id: 7,
            cancelled: false,
        },
        name,
    );
    assert_eq!(view.state, RunState::Done);
    // Plan order: every strategy, no TT, then the chart's smaller depths.
    let jobs = view.plan.jobs();
    assert_eq!(jobs.len(), 6 + 2 * 5);
    assert_eq!(jobs[5], Job::Row(5));
    assert_eq!(
        jobs[6],
        Job::Point {
            depth: 1,
            tt: false
        }
    );
}

#[test]
fn compare_reads_rows_against_the_best_and_states_the_pressure() {
    let mut view = synthetic_compare();
    view.absorb(
        &Report::CompareRow {
            id: 7,
            job: Job::Row(5),
            outcome: outcome(98_000, 0, 0, 0),
        },
        name,
    );
    let outcomes = view.outcomes();
    // aging (row 4) has the fewest nodes, always (row 0) the most.
    assert_eq!(compare::best_and_worst(&outcomes), Some((4, 0)));
    // (1000 + 200 + r + 100) stores ÷ 1024 slots, from the first row.
    let p = compare::pressure(&outcomes).unwrap();
    assert!((p - 2200.0 / 1024.0).abs() < 1e-9, "{p}");
    let reading = compare::reading(&outcomes).unwrap();
    assert!(
        reading.starts_with("at 2.1× pressure, aging needs 38% fewer nodes than always"),
        "{reading}"
    );
    let rows: Vec<_> = view
        .rows
        .iter()
        .map(|r| (r.store, r.outcome.as_ref(), r.best.clone()))
        .collect();
    let cells = compare::text_rows(GameKind::Othello, &rows);
    assert_eq!(cells[4][0], "★ aging");
    assert_eq!(cells[4][2], "best");
    assert_eq!(cells[0][2], "1.6×", "50k ÷ 31k nodes");
    assert_eq!(cells[0][8], "45×", "900 ÷ 20 replacements");
    assert_eq!(cells[5][5], "–", "no table, no hit rate");
    let line = compare::size_line(&view.plan, Some(p), 1 << 16);
    assert!(line.contains("16 KiB = 1,024 slots"), "{line}");
    assert!(line.contains("positions stored ÷ slots"), "{line}");
}

#[test]
fn compare_screen_shows_table_reading_and_chart() {
    let mut view = synthetic_compare();
    view.absorb(
        &Report::CompareRow {
            id: 7,
            job: Job::Row(5),
            outcome: outcome(98_000, 0, 0, 0),
        },
        name,
    );
    let mut terminal = Terminal::new(TestBackend::new(120, 36)).unwrap();
    terminal
        .draw(|f| {
            let area = f.area();
            compare::render(&view, area, f.buffer_mut(), &mono());
        })
        .unwrap();
    insta::assert_snapshot!(terminal.backend());
    let text = format!("{}", terminal.backend());
    assert!(text.contains("Compare · depth 6"));
    assert!(text.contains("running 6/6"));
    for name in ["always", "depth", "two-tier", "big", "★ aging", "no TT"] {
        assert!(text.contains(name), "{name}");
    }
    assert!(
        text.contains("aging needs 38% fewer nodes than always"),
        "{text}"
    );
    assert!(text.contains("by depth (seed 001) · two-tier vs no TT"));
    assert!(text.contains("74%"), "depth 4: 195 of 265");
    // Small screens scroll; nothing panics.
    let mut terminal = Terminal::new(TestBackend::new(80, 22)).unwrap();
    let mut max = 0;
    terminal
        .draw(|f| max = compare::render(&view, f.area(), f.buffer_mut(), &mono()))
        .unwrap();
    assert!(max > 0, "80×22 does not hold the whole screen");
    assert!(format!("{}", terminal.backend()).contains("↓ more"));
    for (w, h) in [(20, 6), (40, 10), (76, 14), (19, 5), (0, 0)] {
        let mut terminal = Terminal::new(TestBackend::new(w.max(1), h.max(1))).unwrap();
        terminal
            .draw(|f| {
                compare::render(&view, Rect::new(0, 0, w, h), f.buffer_mut(), &mono());
            })
            .unwrap();
    }
}

fn compare_view(app: &App) -> CompareView {
    match &app.mode {
        Mode::Compare(v) => (**v).clone(),
        m => panic!("not comparing: {m:?}"),
    }
}

#[test]
fn compare_runs_every_strategy_through_the_engine_and_repeats_exactly() {
    let mut app = app();
    command(&mut app, "f5");
    command(&mut app, "compare 3 4k");
    assert!(matches!(app.mode, Mode::Compare(_)));
    assert!(app.busy());
    // Keys answer while it runs: an unused key does nothing, the view stays.
    ch(&mut app, 'z');
    assert!(matches!(app.mode, Mode::Compare(_)));
    pump(&mut app, Duration::from_secs(60), |a| !a.busy());
    let view = compare_view(&app);
    assert_eq!(view.state, RunState::Done);
    assert_eq!(view.plan.kib, 4);
    assert_eq!(view.finished_rows(), Policy::ALL.len() + 1);
    for row in &view.rows {
        let o = row.outcome.as_ref().unwrap();
        assert!(o.nodes > 0, "{:?}", row.store);
        match row.store {
            Store::None => assert_eq!(o.probes, 0, "no table, no probes"),
            Store::Table(_) => {
                assert!(o.probes > 0 && o.hits <= o.probes);
                assert_eq!(o.slots, 256, "4 KiB of 16-byte slots");
            }
        }
    }
    for p in &view.points {
        assert!(p.none.is_some() && p.tt.is_some(), "depth {}", p.depth);
    }
    // Fresh searcher and empty table per row: running again gives the same nodes.
    ch(&mut app, 'r');
    assert!(app.busy());
    pump(&mut app, Duration::from_secs(60), |a| !a.busy());
    let again = compare_view(&app);
    let nodes = |v: &CompareView| -> Vec<u64> {
        v.rows
            .iter()
            .map(|r| r.outcome.as_ref().map_or(0, |o| o.nodes))
            .collect()
    };
    assert_eq!(nodes(&again), nodes(&view));
    // [ halves the table and runs again.
    ch(&mut app, '[');
    assert_eq!(compare_view(&app).plan.kib, 2);
    pump(&mut app, Duration::from_secs(60), |a| !a.busy());
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Normal);
    assert_eq!(app.game.history().len(), 1, "the game did not move");
}

#[test]
fn compare_defaults_make_strategies_differ_in_both_games() {
    for (kind, moves) in [
        (GameKind::Othello, ""),
        (GameKind::Gomoku, "h8,i9,h9,h10,g8,i8,i10"),
    ] {
        let (depth, kib) = lab::defaults(kind);
        let mut game = GameSpec {
            game: kind,
            ..GameSpec::default()
        }
        .start()
        .unwrap();
        let moves = xorboard::commands::split_moves(kind, moves).unwrap();
        xorboard::with_game!(&mut game, g => xorboard::commands::play_moves(g, &moves)).unwrap();
        let engine = xorboard::engine::Engine::spawn(1, Policy::Always, 64);
        engine.compare(1, game, Plan::new(depth, kib, 64));
        let mut nodes = Vec::new();
        loop {
            match engine
                .recv_timeout(Duration::from_secs(120))
                .expect("a report")
            {
                Report::CompareRow {
                    job: Job::Row(_),
                    outcome,
                    ..
                } if outcome.slots > 0 => {
                    assert!(outcome.pressure() > 4.0, "{kind}: the table must choose");
                    nodes.push(outcome.nodes)
                }
                Report::CompareDone { cancelled, .. } => {
                    assert!(!cancelled);
                    break;
                }
                _ => {}
            }
        }
        let (min, max) = (nodes.iter().min().unwrap(), nodes.iter().max().unwrap());
        assert!(
            *max as f64 / *min as f64 > 1.2,
            "{kind}: worst ÷ best nodes {max} ÷ {min}"
        );
    }
}

#[test]
fn esc_cancels_a_running_comparison_then_closes_it() {
    let mut app = app();
    command(&mut app, "f5");
    command(&mut app, "compare 14 1m");
    assert!(app.busy());
    let start = Instant::now();
    key(&mut app, KeyCode::Esc);
    assert!(!app.busy(), "cancelled at once");
    assert!(start.elapsed() < Duration::from_millis(200), "never waits");
    assert_eq!(compare_view(&app).state, RunState::Cancelled);
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Normal);
    // c closes a running comparison too.
    ch(&mut app, 'c');
    assert!(app.busy());
    ch(&mut app, 'c');
    assert!(!app.busy());
    assert_eq!(app.mode, Mode::Normal);
    // Refused: too deep.
    command(&mut app, "compare 15");
    assert!(
        error(&app).unwrap().contains("too deep"),
        "{:?}",
        app.message
    );
    assert_eq!(app.mode, Mode::Normal);
}

#[test]
fn compare_uses_the_game_defaults_or_the_tt_size() {
    let mut app = app();
    ch(&mut app, 'c');
    let v = compare_view(&app);
    assert_eq!((v.plan.depth, v.plan.kib), lab::defaults(GameKind::Othello));
    assert_eq!(v.plan.chart, Some(app.settings.policy));
    assert!(v.note.contains("defaults"), "{}", v.note);
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Esc);
    command(&mut app, "compare 4 tt");
    let v = compare_view(&app);
    assert_eq!(v.plan.kib, app.settings.tt_mib * 1024);
    assert!(v.note.contains(":tt"), "{}", v.note);
    ch(&mut app, 'c');
}

// ---- save, load, resume -----------------------------------------------------------------------

#[test]
fn save_and_load_every_format_round_trip() {
    let dir = common::scratch_dir("ui-lab-formats");
    for (game, moves, files) in [
        (
            GameKind::Othello,
            &["f5", "d6", "c3", "d3", "c4"][..],
            &["game.ggf", "game.txt"][..],
        ),
        (
            GameKind::Gomoku,
            &["h8", "i9", "h9", "h10", "g8"][..],
            &["game.psq", "game.rif.txt", "plain"][..],
        ),
    ] {
        let mut app = app_with(Human::Both, game);
        for m in moves {
            command(&mut app, m);
        }
        assert_eq!(app.game.history().len(), moves.len());
        for file in files {
            let path = dir.join(file);
            command(&mut app, &format!("save {}", path.display()));
            assert_eq!(error(&app), None, "{file}");
            assert!(
                message(&app).starts_with("saved 5 moves to"),
                "{}",
                message(&app)
            );
            // A fresh app of the other game loads it: same position, same hash, same moves.
            let other = if game == GameKind::Othello {
                GameKind::Gomoku
            } else {
                GameKind::Othello
            };
            let mut fresh = app_with(Human::Both, other);
            command(&mut fresh, &format!("load {}", path.display()));
            assert_eq!(error(&fresh), None, "{file}: {:?}", fresh.message);
            assert_eq!(fresh.game.kind(), game);
            assert_eq!(fresh.settings.spec.game, game);
            assert_eq!(fresh.game.hash(), app.game.hash(), "{file}");
            assert_eq!(fresh.game.history(), app.game.history(), "{file}");
            assert_eq!(fresh.deltas.len(), 5, "the XOR terms are rebuilt");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_files_are_one_line_errors_that_change_nothing() {
    let dir = common::scratch_dir("ui-lab-bad");
    let mut app = app();
    command(&mut app, "f5");
    let hash = app.game.hash();
    let bad = dir.join("bad.ggf");
    std::fs::write(&bad, "(;GM[Othello]BO[8 nonsense]B[Z9];)").unwrap();
    let garbage = dir.join("garbage.txt");
    std::fs::write(&garbage, "f5 f5 f5 \u{0}\u{1}").unwrap();
    let missing = dir.join("missing.ggf");
    for line in [
        format!("load {}", missing.display()),
        format!("load {}", bad.display()),
        format!("load {}", garbage.display()),
        format!("load {}", dir.display()),
        format!("save {}", dir.join("no/such/dir/x.ggf").display()),
        format!("save {}", dir.join("wrong.psq").display()),
    ] {
        command(&mut app, &line);
        let e = error(&app).unwrap_or_else(|| panic!("{line}: no error"));
        assert!(!e.contains('\n'), "{line}: {e}");
        assert_eq!(app.game.hash(), hash, "{line}");
        assert_eq!(app.game.history().len(), 1, "{line}");
    }
    assert!(
        !dir.join("wrong.psq").exists(),
        "an Othello game is not written as .psq"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_game_is_kept_after_every_move_and_resumed() {
    let dir = common::scratch_dir("ui-lab-keep");
    let kept = dir.join("state/last-game");
    let with_keep = |resume: bool| Settings {
        keep: Some(kept.clone()),
        resume,
        ..settings(Human::Both, GameKind::Othello)
    };
    let mut app = App::new(with_keep(false)).unwrap();
    assert!(!kept.exists(), "nothing is written before the first move");
    command(&mut app, "f5");
    assert!(kept.exists(), "kept after the move, before any quit");
    command(&mut app, "d6");
    command(&mut app, "c3");
    let hash = app.game.hash();
    let moves = app.game.history().to_vec();
    ch(&mut app, 'q');
    assert!(app.quit);
    drop(app);
    // A plain start offers the kept game and leaves the file alone.
    let app = App::new(with_keep(false)).unwrap();
    assert!(app.game.history().is_empty());
    assert!(message(&app).contains("--resume"), "{}", message(&app));
    assert!(message(&app).contains("3 moves"));
    drop(app);
    // --resume continues it.
    let app = App::new(with_keep(true)).unwrap();
    assert_eq!(app.game.hash(), hash);
    assert_eq!(app.game.history(), &moves[..]);
    assert!(message(&app).starts_with("resumed Othello · 3 moves"));
    drop(app);
    // A damaged kept game: one line, a new game, no panic.
    std::fs::write(&kept, "(;GM[Othello]B[Q1];)").unwrap();
    let app = App::new(with_keep(true)).unwrap();
    assert!(app.game.history().is_empty());
    let e = error(&app).unwrap();
    assert!(e.starts_with("cannot resume") && !e.contains('\n'), "{e}");
    drop(app);
    // Nothing kept: a new game and a note.
    std::fs::remove_file(&kept).unwrap();
    let app = App::new(with_keep(true)).unwrap();
    assert_eq!(message(&app), "no kept game to resume: a new game");
    // Nowhere to keep it: --resume is an error before the screen starts.
    assert!(
        App::new(Settings {
            keep: None,
            ..with_keep(true)
        })
        .is_err()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_load_starts_from_the_file() {
    let dir = common::scratch_dir("ui-lab-load");
    let path = dir.join("g.psq");
    std::fs::write(&path, "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n8,9,0\n").unwrap();
    let app = App::new(Settings {
        load: Some(path.clone()),
        ..settings(Human::Both, GameKind::Othello)
    })
    .unwrap();
    assert_eq!(app.game.kind(), GameKind::Gomoku);
    assert_eq!(app.settings.spec.size, 15);
    assert_eq!(app.game.history().len(), 3);
    assert!(message(&app).starts_with("loaded Gomoku 15×15 freestyle · 3 moves"));
    let e = App::new(Settings {
        load: Some(dir.join("none.psq")),
        ..settings(Human::Both, GameKind::Othello)
    })
    .err()
    .unwrap();
    assert!(e.0.contains("none.psq") && !e.0.contains('\n'), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- the opening book ---------------------------------------------------------------------------

#[test]
fn the_engine_plays_book_moves_and_says_so() {
    let book = Book::othello(Keys::default_keys());
    let start = Othello::new(Keys::default_keys());
    let first = book.replies(&start);
    assert!(!first.is_empty());
    // The engine plays black from the book at once: no search runs.
    let app = App::new(Settings {
        book: true,
        ..settings(Human::White, GameKind::Othello)
    })
    .unwrap();
    assert_eq!(app.game.history().len(), 1);
    assert!(first.contains(&app.game.history()[0]));
    assert!(!app.thinking());
    let b = app.search.book.clone().unwrap();
    assert_eq!(b.side, Side::Black);
    assert_eq!(b.choices, first.len());
    assert!(message(&app).contains("from the book"), "{}", message(&app));
    // The Search panel names the book as the source.
    let text = screen(&app, 160, 48);
    assert!(text.contains("source book"), "{text}");
    assert!(text.contains("last move from the book"));
    // Each reply of the person keeps the engine in the book while the line lasts.
    let mut app = app;
    let reply = {
        let AnyGame::Othello(g) = &app.game else {
            unreachable!()
        };
        // A book reply after which the book goes on (some lines end after two moves).
        book.replies(g)
            .into_iter()
            .find(|&r| {
                let mut after = g.clone();
                after.play(r);
                !book.replies(&after).is_empty()
            })
            .unwrap()
    };
    let name = app.game.name(reply);
    command(&mut app, &name);
    assert_eq!(
        app.game.history().len(),
        3,
        "the engine answered from the book"
    );
    let AnyGame::Othello(g) = &app.game else {
        unreachable!()
    };
    let mut before = g.clone();
    let mv = before.undo().unwrap();
    assert!(book.replies(&before).contains(&mv));
}

#[test]
fn b_toggles_the_book() {
    let mut app = app();
    assert!(!app.settings.book);
    ch(&mut app, 'b');
    assert!(app.settings.book);
    assert!(message(&app).starts_with("opening book on"));
    command(&mut app, "book off");
    assert!(!app.settings.book);
    command(&mut app, "book on");
    assert!(app.settings.book);
    command(&mut app, "book");
    assert!(!app.settings.book);
    command(&mut app, "book sometimes");
    assert!(error(&app).is_some());
    assert!(!app.settings.book);
    // Gomoku: its book answers after the Gomocup openings.
    let mut app = app_with(Human::Both, GameKind::Gomoku);
    ch(&mut app, 'b');
    assert!(message(&app).contains("Gomocup"), "{}", message(&app));
}

#[test]
fn the_gomoku_engine_answers_a_gomocup_opening_from_its_book() {
    let keys = Keys::default_keys();
    let book = GomokuBook::freestyle(keys);
    let mut app = App::new(Settings {
        book: true,
        ..settings(Human::Both, GameKind::Gomoku)
    })
    .unwrap();
    // Gomocup opening G03, turned a quarter (x,y -> 14-y,x): the book knows it in any
    // orientation.
    let mut g = Gomoku::new(15, Rule::Freestyle, keys);
    for (x, y) in [(7, 7), (7, 6), (9, 5), (8, 6), (7, 4)] {
        let mv = Move::at(x * 15 + (14 - y));
        let name = app.game.name(mv);
        command(&mut app, &name);
        g.play(mv);
    }
    assert_eq!(app.game.history().len(), 5);
    let reply = book.reply(&g).expect("G03 is in the book");
    command(&mut app, "engine");
    assert_eq!(app.game.history().len(), 6, "answered at once, no search");
    assert_eq!(app.game.history()[5], reply);
    assert!(!app.thinking());
    assert!(message(&app).contains("from the book"), "{}", message(&app));
    let text = screen(&app, 160, 48);
    assert!(text.contains("the book's one reply"), "{text}");
}

#[test]
fn search_panel_book_source_renders() {
    let mut view = SearchView::default();
    view.book(BookMove {
        side: Side::White,
        mv: "d6".into(),
        choices: 3,
        opening: Some("Tiger".into()),
    });
    let mut terminal = Terminal::new(TestBackend::new(60, 5)).unwrap();
    terminal
        .draw(|f| {
            let area = f.area();
            search::render(&view, area, f.buffer_mut(), &mono())
        })
        .unwrap();
    insta::assert_snapshot!(terminal.backend());
}
