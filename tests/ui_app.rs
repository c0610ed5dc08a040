//! `App::update` tests: keys, clicks and command-line commands change the model as the help
//! says, and refused input changes nothing but the status message.

mod common;

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;

use xorboard::game::othello::{Othello, flips, moves};
use xorboard::game::{AnyGame, GameSpec};
use xorboard::game::{Game, GameKind, Move, Side};
use xorboard::tt::Policy;
use xorboard::ui::app::{App, Human, Mode, Settings};
use xorboard::ui::event::Event;
use xorboard::ui::position::AnyGameExt;
use xorboard::ui::theme::{ColorMode, Theme};
use xorboard::ui::view;
use xorboard::zobrist::Keys;

/// An app where the person plays both sides, so the engine never moves on its own.
fn app_with(human: Human, game: GameKind) -> App {
    App::new(Settings {
        spec: GameSpec {
            game,
            ..GameSpec::default()
        },
        human,
        tt_mib: 1,
        ..Settings::default()
    })
    .unwrap()
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

/// Type `:line` and Enter.
fn command(app: &mut App, line: &str) {
    ch(app, ':');
    for c in line.chars() {
        ch(app, c);
    }
    key(app, KeyCode::Enter);
}

fn message(app: &App) -> &str {
    app.message.as_ref().map_or("", |m| m.text.as_str())
}

fn error(app: &App) -> Option<&str> {
    app.message
        .as_ref()
        .filter(|m| m.error)
        .map(|m| m.text.as_str())
}

fn names(app: &App) -> Vec<String> {
    app.game
        .history()
        .iter()
        .map(|&m| app.game.name(m))
        .collect()
}

#[test]
fn cursor_keys_move_and_stop_at_the_edge() {
    let mut app = app();
    assert_eq!(app.cursor, 37, "starts on f5");
    key(&mut app, KeyCode::Left);
    ch(&mut app, 'k');
    assert_eq!(app.game.name(Move::at(app.cursor)), "e4");
    for _ in 0..10 {
        ch(&mut app, 'l');
        key(&mut app, KeyCode::Down);
    }
    assert_eq!(app.game.name(Move::at(app.cursor)), "h8");
    for _ in 0..10 {
        ch(&mut app, 'h');
        key(&mut app, KeyCode::Up);
    }
    assert_eq!(app.cursor, 0);
}

#[test]
fn enter_and_space_play_the_cursor_cell() {
    let mut app = app();
    key(&mut app, KeyCode::Enter);
    assert_eq!(names(&app), ["f5"]);
    assert_eq!(app.deltas.len(), 1);
    assert!(app.deltas[0].verified());
    // d6 for white: f5 → f6 → e6 → d6.
    ch(&mut app, 'j');
    ch(&mut app, 'h');
    ch(&mut app, 'h');
    ch(&mut app, ' ');
    assert_eq!(names(&app), ["f5", "d6"]);
    assert_eq!(app.deltas[0].name, "d6");
}

#[test]
fn an_illegal_move_changes_nothing_but_the_message() {
    let mut app = app();
    let hash = app.game.hash();
    app.cursor = 0;
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.game.hash(), hash);
    assert!(app.game.history().is_empty());
    assert_eq!(error(&app), Some("a1: flips no disc"));
}

#[test]
fn command_line_moves_and_errors() {
    let mut app = app();
    command(&mut app, "f5");
    assert_eq!(names(&app), ["f5"]);
    assert_eq!(app.mode, Mode::Normal);
    let hash = app.game.hash();
    for bad in [
        "zz",
        "f5",
        "i9",
        "tt 0",
        "bits 99",
        "strategy best",
        "game chess",
    ] {
        command(&mut app, bad);
        assert!(error(&app).is_some(), ":{bad} gives an error");
        assert!(!error(&app).unwrap().contains('\n'));
        assert_eq!(app.game.hash(), hash, ":{bad} changes nothing");
        assert_eq!(app.settings.tt_mib, 1);
        assert_eq!(app.settings.check_bits, 64);
        assert_eq!(app.settings.policy, Policy::TwoTier);
    }
    assert_eq!(
        error(&app).unwrap(),
        "unknown game 'chess': othello or gomoku"
    );
}

#[test]
fn command_line_editing_escape_and_backspace() {
    let mut app = app();
    ch(&mut app, ':');
    ch(&mut app, 'x');
    key(&mut app, KeyCode::Backspace);
    ch(&mut app, 'f');
    ch(&mut app, '5');
    assert_eq!(app.mode, Mode::Command("f5".into()));
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Normal);
    assert!(app.game.history().is_empty(), "Esc cancels the command");
    assert!(!app.quit, "Esc in the command line does not quit");
    // Backspace on an empty line closes it.
    ch(&mut app, ':');
    key(&mut app, KeyCode::Backspace);
    assert_eq!(app.mode, Mode::Normal);
}

#[test]
fn strategy_keys_cycle_and_the_command_sets() {
    let mut app = app();
    ch(&mut app, 's');
    assert_eq!(app.settings.policy, Policy::TwoTier.next());
    assert_eq!(app.tt.policy, app.settings.policy);
    ch(&mut app, 'S');
    ch(&mut app, 'S');
    assert_eq!(app.settings.policy, Policy::TwoTier.prev());
    command(&mut app, "strategy depth");
    assert_eq!(app.settings.policy, Policy::Depth);
    assert_eq!(app.tt.switches, 4);
    assert_eq!(app.tt.last_switch.map(|s| s.to), Some(Policy::Depth));
}

#[test]
fn table_size_and_check_bits() {
    let mut app = app();
    command(&mut app, "tt 16");
    assert_eq!((app.settings.tt_mib, app.tt.mib), (16, 16));
    command(&mut app, "bits 16");
    assert_eq!((app.settings.check_bits, app.tt.check_bits), (16, 16));
    assert!(error(&app).is_none());
}

#[test]
fn switching_games_with_the_command_and_the_key() {
    let mut app = app();
    command(&mut app, "f5");
    command(&mut app, "game gomoku");
    assert_eq!(app.game.kind(), GameKind::Gomoku);
    assert!(app.game.history().is_empty());
    assert_eq!(
        app.game.name(Move::at(app.cursor)),
        "h8",
        "cursor in the centre"
    );
    command(&mut app, "h8");
    assert_eq!(names(&app), ["h8"]);
    command(&mut app, "h8");
    assert_eq!(error(&app), Some("h8: square already occupied"));
    command(&mut app, "game gomoku 19");
    assert_eq!(app.game.width(), 19);
    ch(&mut app, 'g');
    assert_eq!(app.game.kind(), GameKind::Othello);
}

#[test]
fn undo_goes_back_to_the_persons_turn_and_redo_forward() {
    let mut app = app();
    for m in ["f5", "d6", "c3", "d3"] {
        command(&mut app, m);
    }
    app.settings.human = Human::Black;
    app.paused = true; // keep the engine out of it
    ch(&mut app, 'u');
    assert_eq!(names(&app), ["f5", "d6"], "back to black's turn: two plies");
    ch(&mut app, 'u');
    assert!(app.game.history().is_empty());
    ch(&mut app, 'u');
    assert!(error(&app).is_some(), "nothing to undo");
    ch(&mut app, 'r');
    assert_eq!(names(&app), ["f5", "d6"]);
    ch(&mut app, 'r');
    assert_eq!(names(&app), ["f5", "d6", "c3", "d3"]);
    ch(&mut app, 'r');
    assert_eq!(error(&app), Some("nothing to redo"));
    // A new move clears what could be redone.
    ch(&mut app, 'u');
    app.settings.human = Human::Both;
    command(&mut app, "c4");
    ch(&mut app, 'r');
    assert_eq!(error(&app), Some("nothing to redo"));
}

#[test]
fn new_game_resets_the_board() {
    let mut app = app();
    command(&mut app, "f5");
    ch(&mut app, 'n');
    assert!(app.game.history().is_empty());
    assert!(app.deltas.is_empty());
    assert_eq!(app.cursor, 37);
}

#[test]
fn quit_keys() {
    for k in [
        KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE),
        KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
    ] {
        let mut a = app();
        a.update(Event::Key(k));
        assert!(a.quit, "{k:?}");
    }
    // Ctrl-C quits from the command line too.
    let mut a = app();
    ch(&mut a, ':');
    a.update(Event::Key(KeyEvent::new(
        KeyCode::Char('c'),
        KeyModifiers::CONTROL,
    )));
    assert!(a.quit);
    let mut a = app();
    command(&mut a, "quit");
    assert!(a.quit);
}

#[test]
fn esc_never_quits_the_game() {
    let mut app = app();
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Esc);
    assert!(
        !app.quit,
        "Esc Esc on the main screen leaves the game running"
    );
    // Esc closes an overlay, and the second Esc lands on the game: still running.
    ch(&mut app, '?');
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Normal);
    key(&mut app, KeyCode::Esc);
    assert!(!app.quit);
}

#[test]
fn help_opens_scrolls_within_its_text_and_any_key_closes_it() {
    let mut app = app();
    ch(&mut app, '?');
    assert_eq!(app.mode, Mode::Help(0));
    // Drawn at 80×24 the help does not fit: it scrolls, but not past its end.
    let theme = Theme::new(ColorMode::Mono);
    let area = Rect::new(0, 0, 80, 24);
    let mut buf = Buffer::empty(area);
    app.drawn = view::draw_into(&app, area, &mut buf, &theme);
    let max = app.drawn.overlay_max_scroll;
    assert!(max > 0);
    ch(&mut app, 'j');
    assert_eq!(app.mode, Mode::Help(1));
    key(&mut app, KeyCode::End);
    assert_eq!(app.mode, Mode::Help(max));
    ch(&mut app, 'j');
    assert_eq!(app.mode, Mode::Help(max));
    app.drawn = view::draw_into(&app, area, &mut buf, &theme);
    let text: String = buf.content().iter().map(|c| c.symbol()).collect();
    assert!(text.contains("↑ more"), "{text}");
    ch(&mut app, 'x');
    assert_eq!(app.mode, Mode::Normal);
    assert!(app.game.history().is_empty());
}

#[test]
fn a_click_plays_the_cell_drawn_under_it() {
    let mut app = app();
    let theme = Theme::new(ColorMode::Mono);
    let area = Rect::new(0, 0, 160, 48);
    let mut buf = Buffer::empty(area);
    app.drawn = view::draw_into(&app, area, &mut buf, &theme);
    assert_eq!(app.drawn.cells.len(), 64);
    let click = |column, row| {
        Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        })
    };
    // Outside the board: nothing.
    app.update(click(150, 40));
    assert!(app.game.history().is_empty());
    // On d3, as drawn.
    let (rect, _) = *app.drawn.cells.iter().find(|(_, c)| *c == 19).unwrap();
    assert_eq!(buf[(rect.x + 1, rect.y)].symbol(), "+");
    app.update(click(rect.x + 2, rect.y));
    assert_eq!(names(&app), ["d3"]);
    // A too-small screen draws no cells, so clicks do nothing.
    let small = Rect::new(0, 0, 40, 12);
    let mut buf = Buffer::empty(small);
    app.drawn = view::draw_into(&app, small, &mut buf, &theme);
    assert!(app.drawn.cells.is_empty());
    let text: String = buf.content().iter().map(|c| c.symbol()).collect();
    let (w, h) = view::min_size(&app.game);
    assert!(text.contains("Terminal too small"));
    assert!(text.contains(&format!("{w}×{h}")), "{text}");
}

#[test]
fn layout_fits_every_game_at_its_minimum_and_at_160x48() {
    let theme = Theme::new(ColorMode::Basic);
    for (game, size) in [
        (GameKind::Othello, 15),
        (GameKind::Gomoku, 15),
        (GameKind::Gomoku, 25),
    ] {
        let mut app = App::new(Settings {
            spec: GameSpec {
                game,
                size,
                ..GameSpec::default()
            },
            human: Human::Both,
            tt_mib: 1,
            ..Settings::default()
        })
        .unwrap();
        let (w, h) = view::min_size(&app.game);
        assert!(
            size != 15 || (w <= 80 && h <= 24),
            "{game} {size} fits 80×24: {w}×{h}"
        );
        for (w, h) in [
            (w, h),
            (w + 1, h + 1),
            (80, 24),
            (120, 36),
            (160, 48),
            (250, 80),
        ] {
            if w < view::min_size(&app.game).0 || h < view::min_size(&app.game).1 {
                continue;
            }
            let area = Rect::new(0, 0, w, h);
            let mut buf = Buffer::empty(area);
            app.drawn = view::draw_into(&app, area, &mut buf, &theme);
            let cells = app.game.width() * app.game.height();
            assert_eq!(app.drawn.cells.len(), cells, "{game} {size} at {w}×{h}");
            let a = view::areas(&app.game, area);
            for r in a.rects() {
                assert!(r.right() <= w && r.bottom() <= h && r.height > 0);
            }
        }
        // One row or column less than the minimum: the message.
        for (w, h) in [(w - 1, h), (w, h - 1)] {
            let area = Rect::new(0, 0, w, h);
            let mut buf = Buffer::empty(area);
            app.drawn = view::draw_into(&app, area, &mut buf, &theme);
            assert!(app.drawn.cells.is_empty());
        }
        ch(&mut app, 'q');
    }
}

/// A position where black's move leaves white without a move (found by a seeded random walk).
fn position_before_a_pass() -> (Othello, Move) {
    let keys = Keys::default_keys();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut rand = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    loop {
        let mut g = Othello::new(keys);
        while !g.is_over() {
            let (p, o) = g.player_opponent();
            let mut mask = moves(p, o);
            if mask == 0 {
                g.play(Move::PASS);
                continue;
            }
            let mut options = Vec::new();
            while mask != 0 {
                options.push(mask.trailing_zeros() as usize);
                mask &= mask - 1;
            }
            for &sq in &options {
                let f = flips(sq, p, o);
                let (np, no) = (p | f | 1 << sq, o & !f);
                if moves(no, np) == 0 && moves(np, no) != 0 && g.side_to_move() == Side::Black {
                    return (g, Move::at(sq));
                }
            }
            g.play(Move::at(options[rand() as usize % options.len()]));
        }
    }
}

#[test]
fn a_forced_pass_is_played_and_announced() {
    let (position, mv) = position_before_a_pass();
    let mut app = app();
    app.game = AnyGame::Othello(position);
    app.cursor = mv.cell().unwrap();
    key(&mut app, KeyCode::Enter);
    let history = app.game.history();
    assert_eq!(history[history.len() - 1], Move::PASS);
    assert_eq!(app.game.side_to_move(), Side::Black);
    assert_eq!(
        app.notice.as_deref(),
        Some("○ white has no move and passes")
    );
    assert_eq!(app.deltas[0].name, "pa");
    assert!(app.deltas[0].delta.terms.is_empty());
    assert!(app.deltas[0].verified());
    // Undo takes back the pass and the move together.
    ch(&mut app, 'u');
    assert_eq!(app.game.side_to_move(), Side::Black);
    assert_eq!(app.game.hash(), {
        let (p, _) = position_before_a_pass();
        p.hash()
    });
}

#[test]
fn the_persons_move_is_refused_on_the_engines_turn() {
    let mut app = app_with(Human::Black, GameKind::Othello);
    command(&mut app, "f5");
    ch(&mut app, 'p'); // pause: the engine will not answer
    let hash = app.game.hash();
    command(&mut app, "d6");
    assert_eq!(app.game.hash(), hash);
    assert!(error(&app).unwrap().contains("it is the engine's turn"));
}

#[test]
fn the_opening_is_named_by_its_hash_whatever_the_move_order() {
    let mut app = app();
    for m in ["f5", "d6", "c3", "d3", "c4"] {
        command(&mut app, m);
    }
    assert_eq!(app.opening.as_deref(), Some("Tiger"));
    ch(&mut app, 'n');
    // A rotated, transposed Tiger.
    for m in ["e6", "f4", "c3", "c4", "d3"] {
        command(&mut app, m);
    }
    assert_eq!(app.opening.as_deref(), Some("Tiger"));
    command(&mut app, "game gomoku");
    assert_eq!(app.opening, None);
}

#[test]
fn a_new_game_keeps_the_old_one_undoable_until_the_person_moves() {
    let mut app = app();
    for m in ["f5", "d6", "c3"] {
        command(&mut app, m);
    }
    let hash = app.game.hash();
    ch(&mut app, 'n');
    assert!(app.game.history().is_empty());
    assert!(
        message(&app).contains("u brings the previous game back"),
        "{}",
        message(&app)
    );
    ch(&mut app, 'u');
    assert_eq!(app.game.hash(), hash, "the discarded game is back");
    assert_eq!(app.game.history().len(), 3);
    assert!(message(&app).contains("3 moves"), "{}", message(&app));
    // g (the other game) too, and back again.
    ch(&mut app, 'g');
    assert_eq!(app.game.kind(), GameKind::Gomoku);
    ch(&mut app, 'u');
    assert_eq!(app.game.kind(), GameKind::Othello);
    assert_eq!(app.settings.spec.game, GameKind::Othello);
    assert_eq!(app.game.hash(), hash);
    // Once the person moves in the new game, u is an ordinary undo.
    ch(&mut app, 'n');
    command(&mut app, "f5");
    ch(&mut app, 'u');
    assert!(app.game.history().is_empty());
    ch(&mut app, 'u');
    assert!(error(&app).unwrap().contains("nothing to undo"));
}

#[test]
fn messages_count_one_move_in_the_singular() {
    let mut app = app();
    command(&mut app, "f5");
    ch(&mut app, 'u');
    assert_eq!(message(&app), "took back 1 move (r redoes)");
    ch(&mut app, 'r');
    assert_eq!(message(&app), "replayed 1 move");
}

#[test]
fn paused_means_the_counters_stand_still() {
    let mut app = app_with(Human::Both, GameKind::Othello);
    ch(&mut app, 't');
    assert!(app.thinking());
    std::thread::sleep(std::time::Duration::from_millis(100));
    ch(&mut app, 'p');
    assert!(!app.thinking(), "pausing stops the hint too");
    let probes = app.tt.stats.probes;
    let nodes = app.search.nodes;
    for _ in 0..20 {
        app.drain_engine();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert_eq!(app.tt.stats.probes, probes);
    assert_eq!(app.search.nodes, nodes);
}

#[test]
fn load_errors_name_the_games_formats_and_never_echo_bytes() {
    let dir = common::scratch_dir("load");
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, [0x7d, 0xff, 0x00, 0x9b, 0x1b, b'[', b'2', b'J']).unwrap();
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "hello world\n").unwrap();
    let mut app = app_with(Human::Both, GameKind::Gomoku);
    command(&mut app, &format!("load {}", junk.display()));
    let e = error(&app).unwrap().to_string();
    assert!(e.contains("binary"), "{e}");
    assert!(e.contains("Gomoku: .psq"), "{e}");
    assert!(
        !e.contains('\u{fffd}') && !e.chars().any(char::is_control),
        "{e:?}"
    );
    command(&mut app, &format!("load {}", notes.display()));
    let e = error(&app).unwrap().to_string();
    assert!(e.contains("not a game record (Gomoku"), "{e}");
    let mut app = app_with(Human::Both, GameKind::Othello);
    command(&mut app, &format!("load {}", notes.display()));
    assert!(error(&app).unwrap().contains("Othello: .ggf"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn command_line_history_recalls_earlier_lines() {
    let mut app = app();
    command(&mut app, "strategy depth");
    command(&mut app, "f5");
    ch(&mut app, ':');
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Up);
    let text = |app: &App| match &app.mode {
        Mode::Command(l) => l.text.clone(),
        m => panic!("{m:?}"),
    };
    assert_eq!(text(&app), "strategy depth");
    key(&mut app, KeyCode::Down);
    assert_eq!(text(&app), "f5");
}

#[test]
fn othello_results_give_the_empty_squares_to_the_winner() {
    use xorboard::ui::position::outcome_text;
    // Black everywhere but b1, c1 (white) and h8 (empty): neither side can move.
    let white = (1u64 << 1) | (1 << 2);
    let black = !white & !(1u64 << 63);
    let g = Othello::from_bitboards(black, white, Side::Black, Keys::default_keys());
    let text = outcome_text(&AnyGame::Othello(g)).expect("the game is over");
    assert_eq!(text, "● black wins 62–2 (61–2 + 1 empty to the winner)");
}
