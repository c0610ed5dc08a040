//! The whole screen at the three sizes the issue names — 80×24 (the standard terminal), 120×36
//! and 200×60 — for the main screen and every overlay (help, lesson, step-through, comparison),
//! drawn into a `TestBackend` from a deterministic model (the person plays both sides, so the
//! engine never searches on its own) and compared to insta snapshots.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use xorboard::commands::GameSpec;
use xorboard::engine::Report;
use xorboard::engine::compare::{Job, Outcome, Plan};
use xorboard::game::{GameKind, Move};
use xorboard::ui::app::{App, Human, Mode, Settings};
use xorboard::ui::compare::CompareView;
use xorboard::ui::event::Event;
use xorboard::ui::position::AnyGameExt;
use xorboard::ui::theme::{ColorMode, Theme};
use xorboard::ui::view;

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 36), (200, 60)];

fn app(game: GameKind) -> App {
    App::new(Settings {
        spec: GameSpec {
            game,
            ..GameSpec::default()
        },
        human: Human::Both,
        tt_mib: 1,
        ..Settings::default()
    })
    .unwrap()
}

fn key(app: &mut App, code: KeyCode) {
    app.update(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn command(app: &mut App, line: &str) {
    key(app, KeyCode::Char(':'));
    for c in line.chars() {
        key(app, KeyCode::Char(c));
    }
    key(app, KeyCode::Enter);
}

/// Draw the app at `w`×`h` (twice, so the view's geometry reaches the model first, as in the
/// terminal loop) and return the screen as text.
fn screen(app: &mut App, w: u16, h: u16) -> String {
    let theme = Theme::new(ColorMode::Mono);
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    for _ in 0..2 {
        let mut drawn = Default::default();
        terminal
            .draw(|f| drawn = view::draw(f, app, &theme))
            .unwrap();
        app.drawn = drawn;
    }
    format!("{}", terminal.backend())
}

fn othello_midgame() -> App {
    let mut app = app(GameKind::Othello);
    for m in ["f5", "d6", "c3", "d3", "c4"] {
        command(&mut app, m);
    }
    app
}

/// Every line of the screen is as wide as the terminal: nothing drawn outside it.
fn check_fits(text: &str, w: u16, h: u16) {
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), h as usize);
    for r in rows {
        // Each row is quoted by the backend's Display.
        assert_eq!(r.chars().count(), w as usize + 2, "{r}");
    }
}

#[test]
fn main_screen_at_every_size() {
    for (w, h) in SIZES {
        let mut app = othello_midgame();
        let text = screen(&mut app, w, h);
        check_fits(&text, w, h);
        assert!(text.contains("? help · q quit"), "{w}×{h}: {text}");
        insta::assert_snapshot!(format!("main_othello_{w}x{h}"), text);
    }
}

#[test]
fn gomoku_15x15_is_playable_at_80x24() {
    let mut app = app(GameKind::Gomoku);
    command(&mut app, "h8");
    command(&mut app, "j9");
    let text = screen(&mut app, 80, 24);
    check_fits(&text, 80, 24);
    assert!(!text.contains("too small"), "{text}");
    assert!(text.contains("? help · q quit"));
    assert_eq!(app.drawn.cells.len(), 225, "every cell can be clicked");
    insta::assert_snapshot!("main_gomoku_80x24", text);
}

#[test]
fn tabs_cycle_the_side_panels_on_small_screens() {
    let mut app = othello_midgame();
    let first = screen(&mut app, 80, 24);
    assert!(
        first.contains(" Search ") && first.contains(" TT "),
        "{first}"
    );
    let mut seen = Vec::new();
    for _ in 0..4 {
        key(&mut app, KeyCode::Tab);
        let text = screen(&mut app, 80, 24);
        seen.push(app.tab);
        check_fits(&text, 80, 24);
    }
    assert_eq!(seen.len(), 4);
    assert_eq!(
        seen[3],
        seen[3]
            .next_in(&view::Tab::ALL, false)
            .next_in(&view::Tab::ALL, true)
    );
    // Large screens show every panel at once: no tab bar.
    let text = screen(&mut app, 200, 60);
    assert!(!text.contains("Tab ⇥"));
}

#[test]
fn help_at_every_size() {
    for (w, h) in SIZES {
        let mut app = othello_midgame();
        key(&mut app, KeyCode::Char('?'));
        let text = screen(&mut app, w, h);
        check_fits(&text, w, h);
        assert!(text.contains("Help"));
        insta::assert_snapshot!(format!("help_{w}x{h}"), text);
    }
}

#[test]
fn lesson_at_every_size() {
    for (w, h) in SIZES {
        let mut app = othello_midgame();
        key(&mut app, KeyCode::Char('L'));
        for _ in 0..6 {
            key(&mut app, KeyCode::Right);
        }
        let text = screen(&mut app, w, h);
        check_fits(&text, w, h);
        assert!(
            text.contains("▶"),
            "{w}×{h}: the current step is in view\n{text}"
        );
        insta::assert_snapshot!(format!("lesson_{w}x{h}"), text);
    }
}

#[test]
fn step_through_at_every_size() {
    for (w, h) in SIZES {
        let mut app = othello_midgame();
        key(&mut app, KeyCode::Char('x'));
        key(&mut app, KeyCode::Right);
        key(&mut app, KeyCode::Right);
        let text = screen(&mut app, w, h);
        check_fits(&text, w, h);
        assert!(text.contains("Step-through"), "{w}×{h}\n{text}");
        // every key and every running value reached so far is shown whole, at every size
        let step = app.step().expect("stepping");
        for p in 0..=step.pos {
            let value = format!("0x{:016X}", step.hash_at(p));
            assert!(text.contains(&value), "{w}×{h}: value {p}\n{text}");
        }
        for p in 1..=step.last() {
            let key = step.applied(p).expect("a step").key;
            assert!(
                text.contains(&format!("0x{key:016X}")),
                "{w}×{h}: key {p}\n{text}"
            );
        }
        insta::assert_snapshot!(format!("step_{w}x{h}"), text);
    }
}

fn outcome(nodes: u64, replacements: u64) -> Outcome {
    Outcome {
        nodes,
        elapsed_ms: nodes / 2000,
        probes: nodes / 2,
        hits: nodes / 9,
        usable_hits: nodes / 30,
        fills: 1000,
        updates: nodes / 20,
        replacements,
        rejected: 0,
        false_matches: 0,
        slots: 1024,
        best: Some(Move::at(19)),
        score: 1,
        exact: false,
    }
}

#[test]
fn compare_at_every_size() {
    for (w, h) in SIZES {
        let mut app = othello_midgame();
        let mut plan = Plan::new(13, 16, 64);
        plan.chart = Some(app.settings.policy);
        let mut v = CompareView::new(
            99,
            GameKind::Othello,
            plan,
            "Othello · 5 moves · ○ white to move".into(),
            "the defaults for othello".into(),
            65536,
        );
        let rows = [
            (264_000, 77_600),
            (189_000, 6_820),
            (185_000, 54_000),
            (204_000, 58_900),
            (172_000, 49_800),
        ];
        for (i, &(n, r)) in rows.iter().enumerate() {
            let mut o = outcome(n, r);
            o.fills = 1024;
            v.absorb(
                &Report::CompareRow {
                    id: 99,
                    job: Job::Row(i),
                    outcome: o,
                },
                |_| "d3".into(),
            );
        }
        let mut none = outcome(275_000, 0);
        none.slots = 0;
        none.probes = 0;
        v.absorb(
            &Report::CompareRow {
                id: 99,
                job: Job::Row(5),
                outcome: none,
            },
            |_| "d3".into(),
        );
        for d in 1..11u32 {
            for tt in [false, true] {
                let n = 4u64.pow(d.min(9)) / if tt { 2 } else { 1 };
                v.absorb(
                    &Report::CompareRow {
                        id: 99,
                        job: Job::Point { depth: d, tt },
                        outcome: outcome(n.max(1), 0),
                    },
                    |_| "d3".into(),
                );
            }
        }
        v.absorb(
            &Report::CompareDone {
                id: 99,
                cancelled: false,
            },
            |_| String::new(),
        );
        app.mode = Mode::Compare(Box::new(v));
        let text = screen(&mut app, w, h);
        check_fits(&text, w, h);
        assert!(text.contains("★ aging"), "{w}×{h}\n{text}");
        assert!(
            text.contains("aging needs 35% fewer nodes than always"),
            "{w}×{h}\n{text}"
        );
        insta::assert_snapshot!(format!("compare_{w}x{h}"), text);
    }
}

#[test]
fn a_click_on_a_tab_shows_that_panel() {
    use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let mut app = othello_midgame();
    screen(&mut app, 80, 24);
    let (rect, tab) = app
        .drawn
        .tabs
        .iter()
        .copied()
        .find(|(_, t)| *t == view::Tab::Tt)
        .expect("the TT tab is drawn at 80×24");
    app.update(Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: rect.x + 1,
        row: rect.y,
        modifiers: KeyModifiers::NONE,
    }));
    assert_eq!(app.tab, tab);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("collision lab"), "{text}");
    assert_eq!(
        app.game.history().len(),
        5,
        "a click on a tab plays no move"
    );
}

#[test]
fn a_long_compare_title_keeps_its_state_and_no_word_runs_into_the_corner() {
    // Gomoku's position line is longer than Othello's: at 80 columns the title did not fit and
    // was cut mid-word by the frame's corner ("… · don┐"), the run's state lost.
    let mut app = app(GameKind::Gomoku);
    command(&mut app, "h8");
    command(&mut app, "j9");
    let v = CompareView::new(
        7,
        GameKind::Gomoku,
        Plan::new(10, 4, 64),
        "Gomoku 15×15 freestyle · 2 moves · ● black to move".into(),
        "the defaults for gomoku".into(),
        65536,
    );
    app.mode = Mode::Compare(Box::new(v));
    let text = screen(&mut app, 80, 24);
    check_fits(&text, 80, 24);
    let top = text.lines().next().expect("a first row");
    assert!(top.contains("· running 0/"), "{top}");
    let before_corner = top.trim_end_matches('"').chars().rev().nth(1);
    assert!(
        matches!(before_corner, Some('─') | Some(' ')),
        "the title ends before the corner: {top}"
    );
}
