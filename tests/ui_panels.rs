//! Rendering tests of every panel of the game screen, drawn into ratatui's `TestBackend`:
//! insta snapshots of the text, plus direct checks of the styles that carry meaning (cursor,
//! last move, lit bits, errors) and of the geometry clicks rely on.

use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;

use xorboard::game::AnyGame;
use xorboard::game::gomoku::{Gomoku, Rule};
use xorboard::game::notation::split_gomoku_list;
use xorboard::game::othello::Othello;
use xorboard::game::{Game, Move, play_line};
use xorboard::search::SearchStats;
use xorboard::tt::{Policy, ReplacementEvent, TtStats};
use xorboard::ui::app::{DeltaRow, Human, Message, Mode};
use xorboard::ui::board::{self, BoardView};
use xorboard::ui::hash::{self, HashView};
use xorboard::ui::search::{self, Activity, SearchView};
use xorboard::ui::theme::{ColorMode, Theme};
use xorboard::ui::tt::{self, TtView};
use xorboard::ui::{deltas, help, status};
use xorboard::zobrist::{Delta, Keys};

fn mono() -> Theme {
    Theme::new(ColorMode::Mono)
}

/// Draw with `f` into a `w`×`h` test terminal and return its backend.
fn draw(w: u16, h: u16, f: impl FnOnce(Rect, &mut Buffer)) -> TestBackend {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal
        .draw(|frame| {
            let area = frame.area();
            f(area, frame.buffer_mut())
        })
        .unwrap();
    terminal.backend().clone()
}

fn othello(moves: &str) -> Othello {
    let mut g = Othello::new(Keys::default_keys());
    let list = xorboard::game::notation::split_othello_transcript(moves).unwrap();
    play_line(&mut g, &list).unwrap();
    g
}

fn delta_rows(game: &AnyGame, n: usize) -> Vec<DeltaRow> {
    use xorboard::ui::position::AnyGameExt;
    let mut g = game.clone();
    let mut rows = Vec::new();
    while rows.len() < n {
        let after = g.hash();
        let recomputed = g.recompute_hash();
        let Some(mv) = xorboard::with_game!(&mut g, x => x.undo()) else {
            break;
        };
        let changes = xorboard::with_game!(&g, x => x.changes(mv));
        rows.push(DeltaRow {
            ply: g.history().len() + 1,
            side: g.side_to_move(),
            name: g.name(mv),
            cells: changes.iter().map(|c| g.name(Move::at(c.cell))).collect(),
            delta: Delta::new(Keys::default_keys(), g.hash(), &changes, after),
            recomputed,
        });
    }
    rows
}

#[test]
fn board_othello_start_shows_coordinates_legal_moves_and_cursor() {
    let game = AnyGame::Othello(Othello::new(Keys::default_keys()));
    let (w, h) = board::size_needed(&game);
    let mut cells = Vec::new();
    let backend = draw(w, h, |area, buf| {
        cells = board::render(
            &BoardView {
                game: &game,
                cursor: Some(37),
                hint: None,
                human: Human::Black,
                notice: None,
                thinking: false,
                paused: false,
                opening: None,
            },
            area,
            buf,
            &mono(),
        );
    });
    insta::assert_snapshot!(backend);
    // Every cell was drawn, once, and the rectangles do not overlap.
    assert_eq!(cells.len(), 64);
    for (i, (r, _)) in cells.iter().enumerate() {
        for (s, _) in &cells[i + 1..] {
            assert!(!r.intersects(*s));
        }
    }
    // The cursor (f5) is drawn reversed, the others are not.
    let (f5, _) = cells.iter().find(|(_, c)| *c == 37).unwrap();
    let buf = backend.buffer();
    assert!(buf[(f5.x + 1, f5.y)].modifier.contains(Modifier::REVERSED));
    assert_eq!(buf[(f5.x, f5.y)].symbol(), "[");
    let (e6, _) = cells.iter().find(|(_, c)| *c == 44).unwrap();
    assert!(!buf[(e6.x + 1, e6.y)].modifier.contains(Modifier::REVERSED));
    assert_eq!(buf[(e6.x + 1, e6.y)].symbol(), "+", "e6 is a legal move");
}

#[test]
fn board_marks_the_last_move_and_announces_a_pass() {
    let game = AnyGame::Othello(othello("f5d6c3d3c4"));
    let backend = draw(34, 12, |area, buf| {
        board::render(
            &BoardView {
                game: &game,
                cursor: None,
                hint: Some(Move::at(20)),
                human: Human::White,
                notice: Some("● black has no move and passes"),
                thinking: false,
                paused: false,
                opening: Some("Tiger"),
            },
            area,
            buf,
            &mono(),
        );
    });
    insta::assert_snapshot!(backend);
    // c4 (index 26) is the last move: bold + underlined in the mono theme.
    let buf = backend.buffer();
    let row_y = 1 + 1 + 3; // border, letters, rows 1..=3 above
    let x = 1 + 1 + 3 + 2 * 3 + 1; // border, padding, labels, columns a–b, centre
    assert_eq!(buf[(x, row_y)].symbol(), "●");
    assert!(buf[(x, row_y)].modifier.contains(Modifier::UNDERLINED));
}

#[test]
fn board_gomoku_lights_the_five_in_a_row() {
    let mut g = Gomoku::new(9, Rule::Freestyle, Keys::default_keys());
    play_line(&mut g, &split_gomoku_list("a1,a9,b2,b9,c3,c9,d4,d9,e5")).unwrap();
    let game = AnyGame::Gomoku(g);
    let (w, h) = board::size_needed(&game);
    let backend = draw(w + 12, h, |area, buf| {
        board::render(
            &BoardView {
                game: &game,
                cursor: Some(0),
                hint: None,
                human: Human::Black,
                notice: Some("game over: ● black wins: five in a row"),
                thinking: false,
                paused: false,
                opening: None,
            },
            area,
            buf,
            &mono(),
        );
    });
    insta::assert_snapshot!(backend);
    let buf = backend.buffer();
    // a1 is the bottom-left cell: row 9 of the grid, first column (three-wide cells: centre).
    let (x, y) = (1 + 1 + 3 + 1, 1 + 1 + 8);
    assert_eq!(buf[(x, y)].symbol(), "●");
    assert!(
        buf[(x, y)].modifier.contains(Modifier::REVERSED),
        "a1 is in the five"
    );
}

#[test]
fn board_draws_only_what_fits() {
    let game = AnyGame::Gomoku(Gomoku::new(15, Rule::Freestyle, Keys::default_keys()));
    let mut cells = Vec::new();
    draw(20, 8, |area, buf| {
        cells = board::render(
            &BoardView {
                game: &game,
                cursor: Some(112),
                hint: None,
                human: Human::Both,
                notice: None,
                thinking: false,
                paused: false,
                opening: None,
            },
            area,
            buf,
            &mono(),
        );
    });
    assert!(!cells.is_empty() && cells.len() < 225);
    assert!(
        cells
            .iter()
            .all(|(r, _)| r.right() <= 19 && r.bottom() <= 7)
    );
}

#[test]
fn hash_panel_shows_hex_bits_and_the_flipped_bits() {
    let g = othello("f5");
    let mut before = g.clone();
    before.undo();
    let view = HashView {
        hash: g.hash(),
        recomputed: g.recompute_hash(),
        flipped: before.hash() ^ g.hash(),
        last: Some("● f5".into()),
        step: None,
    };
    let backend = draw(60, 8, |area, buf| hash::render(&view, area, buf, &mono()));
    insta::assert_snapshot!(backend);
    // Each lit cell is a flipped bit, and there are as many as the XOR says.
    let buf = backend.buffer();
    let lit = buf
        .content()
        .iter()
        .filter(|c| c.modifier.contains(Modifier::REVERSED))
        .count();
    assert_eq!(lit as u32, view.flipped.count_ones());
    let text = format!("{backend}");
    assert!(text.contains("✓ equals full recompute"));
}

#[test]
fn hash_panel_reports_a_mismatch() {
    let view = HashView {
        hash: 1,
        recomputed: 2,
        flipped: 0,
        last: None,
        step: None,
    };
    let backend = draw(70, 8, |area, buf| hash::render(&view, area, buf, &mono()));
    let text = format!("{backend}");
    assert!(
        text.contains("✗ full recompute gives 0x0000000000000002"),
        "{text}"
    );
}

#[test]
fn deltas_panel_lists_every_term_side_key_and_result() {
    let game = AnyGame::Othello(othello("f5d6c3d3c4"));
    let rows = delta_rows(&game, 8);
    assert!(rows.iter().all(DeltaRow::verified));
    let backend = draw(72, 24, |area, buf| {
        deltas::render(&rows, area, buf, &mono())
    });
    insta::assert_snapshot!(backend);
    let text = format!("{backend}");
    // c4 flips d4 and... each of its terms' keys is printed.
    for t in &rows[0].delta.terms {
        assert!(text.contains(&format!("0x{:016X}", t.key)));
    }
    assert!(text.contains(&format!("0x{:016X}", rows[0].delta.side_key)));
}

#[test]
fn deltas_panel_at_80x24_widths_shows_every_key_and_note_whole() {
    // the XOR-terms tab at 80×24: 48 columns in Othello, 43 in Gomoku (its board is wider)
    let game = AnyGame::Othello(othello("f5d6c3d3c4"));
    let rows = delta_rows(&game, 8);
    for (width, flip_note) in [(48, "flip key K●⊕K○"), (43, "flip K●⊕K○")] {
        let backend = draw(width, 20, |area, buf| {
            deltas::render(&rows, area, buf, &mono())
        });
        let text = format!("{backend}");
        assert!(!text.contains('…'), "{width}: nothing is cut\n{text}");
        assert!(text.contains(flip_note), "{width}\n{text}");
        assert!(text.contains('✓'), "{width}\n{text}");
        for t in &rows[0].delta.terms {
            assert!(
                text.contains(&format!("0x{:016X}", t.key)),
                "{width}\n{text}"
            );
        }
        for r in &rows {
            assert!(
                text.contains(&format!("0x{:016X}", r.delta.after)),
                "{width}\n{text}"
            );
        }
    }
}

#[test]
fn deltas_panel_summarises_older_moves_when_short_of_room() {
    let game = AnyGame::Othello(othello("f5d6c3d3c4"));
    let rows = delta_rows(&game, 8);
    let backend = draw(72, 10, |area, buf| {
        deltas::render(&rows, area, buf, &mono())
    });
    insta::assert_snapshot!(backend);
}

fn busy_tt() -> TtView {
    let mut view = TtView::new(Policy::TwoTier, 64, 16);
    let t0 = Instant::now();
    for i in 1..=30u64 {
        let stats = TtStats {
            probes: i * 10_000,
            hits: i * i * 130,
            usable_hits: i * i * 100,
            misses: i * 10_000 - i * i * 130,
            clashes: i * 700,
            false_matches: i / 10,
            fills: i * 3000,
            updates: i * 800,
            replacements: i * 1500,
            rejected: i * 90,
            hashfull: (i * 30) as u32,
            ..TtStats::default()
        };
        if i == 20 {
            view.switch(Policy::TwoTier, Policy::Depth, true);
        }
        view.absorb(&stats, t0 + Duration::from_millis(250 * i), false);
    }
    view.stats.events = vec![
        ReplacementEvent {
            bucket: 0x3A1F,
            policy: Policy::Depth,
            victim_key: 0x9F3A_41C2_07BD_E5A8,
            victim_depth: 3,
            victim_age: 1,
            new_key: 0x0123_4567_89AB_CDEF,
            new_depth: 9,
            new_age: 2,
            victim_size: 20,
            new_size: 44,
            compared: None,
            reason: "deeper",
        };
        2
    ];
    view
}

#[test]
fn tt_panel_shows_counters_sparkline_switch_gauge_and_events() {
    let view = busy_tt();
    assert_eq!(view.samples.len(), 31, "30 samples and one switch mark");
    let backend = draw(80, 14, |area, buf| tt::render(&view, area, buf, &mono()));
    insta::assert_snapshot!(backend);
    let text = format!("{backend}");
    assert!(text.contains("TT · depth · 64 MiB · 16 check bits · ⇄ 1"));
    assert!(text.contains("┃"), "switch mark in the sparkline");
    assert!(text.contains("two-tier → depth mid-search"));
    assert!(text.contains("depth: newcomer d9 ≥"), "{text}");
    assert!(text.contains("collision lab: 3 false vs"), "{text}");
    assert!(text.contains("stores:  new slot 90.0k  same position 24.0k  replaced 45.0k"));
}

#[test]
fn expected_false_matches_follow_the_fill_and_the_check_bits() {
    assert_eq!(tt::expected_per_probe(16, 1.0), 4.0 / 65536.0);
    assert_eq!(tt::expected_per_probe(8, 0.5), 2.0 / 256.0);
    assert_eq!(
        tt::expected_per_probe(8, 2.0),
        4.0 / 256.0,
        "fill is capped at full"
    );
    assert!(tt::expected_per_probe(64, 1.0) < 1e-18);
    assert_eq!(tt::expected_text(0.0), "0");
    assert_eq!(tt::expected_text(64.0), "≈ 64");
    assert_eq!(tt::expected_text(2.5), "≈ 2.50");
    assert_eq!(tt::expected_text(16384.0), "≈ 16.4k");
    assert!(tt::expected_text(1e-12).starts_with("≈ 0 ("));
    // A 1 MiB table: 65536 slots.
    let mut view = TtView::new(Policy::Aging, 1, 12);
    assert_eq!(view.entries(), 65536);
    let t0 = Instant::now();
    let snap = |probes: u64, fills: u64| TtStats {
        probes,
        fills,
        ..TtStats::default()
    };
    // Half full for 100k probes at 12 bits: 100k × 4 × 0.5 / 4096.
    view.absorb(&snap(100_000, 32_768), t0, false);
    assert!((view.expected_false - 100_000.0 * 2.0 / 4096.0).abs() < 1e-9);
    // Full for 100k more at 16 bits.
    view.check_bits = 16;
    view.absorb(&snap(200_000, 65_536), t0, false);
    let e = 100_000.0 * 2.0 / 4096.0 + 100_000.0 * 4.0 / 65536.0;
    assert!((view.expected_false - e).abs() < 1e-9);
    // The counters went down: a cleared table starts again.
    view.absorb(&snap(1_000, 0), t0, false);
    assert_eq!(view.expected_false, 0.0);
    let backend = draw(100, 6, |area, buf| tt::render(&view, area, buf, &mono()));
    assert!(
        format!("{backend}")
            .contains("collision lab: 0 false vs 0 expected = probes × 4 slots × hashfull ÷ 2^16")
    );
}

#[test]
fn tt_view_samples_differences_and_survives_a_clear() {
    let mut view = TtView::new(Policy::Always, 1, 64);
    let t0 = Instant::now();
    let s = |probes, hits| TtStats {
        probes,
        hits,
        ..TtStats::default()
    };
    view.absorb(&s(1000, 500), t0, false);
    // Too soon for another sample…
    view.absorb(&s(2000, 600), t0 + Duration::from_millis(50), false);
    // …but due now: (600+400-500) / (3000-1000) over the whole interval.
    view.absorb(&s(3000, 1000), t0 + Duration::from_millis(300), false);
    // The table was cleared: counters restart from zero.
    view.absorb(&s(100, 90), t0 + Duration::from_millis(600), false);
    let rates: Vec<_> = view.samples.iter().copied().collect();
    use xorboard::ui::tt::Sample::Rate;
    assert_eq!(rates, vec![Rate(500), Rate(250), Rate(900)]);
}

#[test]
fn search_panel_shows_figures_pv_and_depth_lines() {
    let g = AnyGame::Othello(othello("f5"));
    use xorboard::ui::position::AnyGameExt;
    let mut view = SearchView::default();
    view.start(Activity::Thinking(xorboard::game::Side::White));
    for depth in 1..=4u32 {
        let stats = SearchStats {
            depth,
            seldepth: depth + 2,
            nodes: 1500 * u64::from(depth).pow(3),
            elapsed_ms: 40 * u64::from(depth),
            nps: 2_500_000,
            score: depth as i32 - 2,
            best: Some(Move::at(43)),
            pv: vec![Move::at(43), Move::at(29), Move::at(18)],
            exact: false,
            ..SearchStats::default()
        };
        view.absorb(&stats, g.kind(), |m| g.name(m));
        // A second snapshot at the same depth replaces the line, not adds one.
        view.absorb(&stats, g.kind(), |m| g.name(m));
    }
    assert_eq!(view.iterations.len(), 4);
    let backend = draw(60, 12, |area, buf| {
        search::render(&view, area, buf, &mono())
    });
    insta::assert_snapshot!(backend);
    let text = format!("{backend}");
    assert!(text.contains("thinking for ○ white"));
    assert!(text.contains("pv d6 f4 c3"));
    assert!(
        text.contains("d6 ┊ f4 c3"),
        "a PV longer than its depth is marked"
    );
}

#[test]
fn search_panel_marks_depths_answered_from_the_table() {
    let g = AnyGame::Othello(othello("f5"));
    use xorboard::ui::position::AnyGameExt;
    let mut view = SearchView::default();
    view.start(Activity::Thinking(xorboard::game::Side::White));
    // After a hint: depths 1..=6 cost a handful of nodes each, depth 7 a real search.
    let mut nodes = 0;
    for depth in 1..=7u32 {
        nodes += if depth < 7 {
            3 * u64::from(depth)
        } else {
            50_000
        };
        let stats = SearchStats {
            depth,
            seldepth: depth.saturating_sub(1),
            nodes,
            pv: vec![Move::at(43); 8],
            ..SearchStats::default()
        };
        view.absorb(&stats, g.kind(), |m| g.name(m));
    }
    assert!(view.iterations[4].from_tt(), "depth 5 cost 15 nodes");
    assert!(!view.iterations[6].from_tt(), "depth 7 searched");
    assert!(view.iterations[4].pv_from_table());
    assert_eq!(
        view.seldepth, 7,
        "the selective depth is never below the depth"
    );
    let backend = draw(70, 14, |area, buf| {
        search::render(&view, area, buf, &mono())
    });
    let text = format!("{backend}");
    assert!(text.contains("from TT"), "{text}");
    assert!(text.contains("the PV continues from stored"), "{text}");
}

#[test]
fn search_panel_idle() {
    let backend = draw(55, 4, |area, buf| {
        search::render(&SearchView::default(), area, buf, &mono())
    });
    assert_eq!(
        backend.buffer(),
        &Buffer::with_lines([
            "┌ Search · idle ──────────────────────────────────────┐",
            "│ idle — the engine searches on its turn; t: a hint   │",
            "│                                                     │",
            "└─────────────────────────────────────────────────────┘",
        ])
        .with_styles_of(backend.buffer())
    );
}

/// Comparing text only: give an expected buffer the actual buffer's styles.
trait WithStyles {
    fn with_styles_of(self, other: &Buffer) -> Buffer;
}

impl WithStyles for Buffer {
    fn with_styles_of(mut self, other: &Buffer) -> Buffer {
        for (mine, theirs) in self.content.iter_mut().zip(other.content()) {
            mine.set_style(theirs.style());
        }
        self
    }
}

#[test]
fn status_line_shows_prompt_message_and_keys() {
    let theme = mono();
    let backend = draw(40, 2, |area, buf| {
        status::render(&Mode::Command("f5".into()), None, false, area, buf, &theme)
    });
    assert_eq!(
        backend.buffer().content()[..40]
            .iter()
            .map(|c| c.symbol())
            .collect::<String>(),
        ":f5█   ⏎ run · Esc cancel · ↑↓ history  "
    );
    let err = Message {
        text: "unknown command ':zz' (? lists the commands)".into(),
        error: true,
    };
    let backend = draw(50, 1, |area, buf| {
        status::render(&Mode::Normal, Some(&err), false, area, buf, &theme)
    });
    let line: String = backend
        .buffer()
        .content()
        .iter()
        .map(|c| c.symbol())
        .collect();
    assert!(line.starts_with("unknown command ':zz'"));
    assert!(
        backend.buffer().content()[0]
            .modifier
            .contains(Modifier::REVERSED)
    );
    // No message: the keys.
    let backend = draw(50, 1, |area, buf| {
        status::render(&Mode::Normal, None, false, area, buf, &theme)
    });
    assert!(format!("{backend}").contains("move · ⏎ play"));
    // However narrow, the keys end with help and quit, and no key is cut.
    for width in [30, 50, 80, 120, 200] {
        let keys = status::main_keys(width, true);
        assert!(keys.ends_with("? help · q quit"), "{width}: {keys}");
        assert!(keys.chars().count() <= width.max(15), "{width}: {keys}");
    }
    assert!(status::main_keys(80, true).contains("Tab panels"));
    assert!(!status::main_keys(200, false).contains("Tab"));
}

#[test]
fn help_overlay_explains_every_panel() {
    let backend = draw(100, 80, |area, buf| {
        help::render(area, buf, &mono(), 0);
    });
    insta::assert_snapshot!(backend);
    let text = format!("{backend}");
    for heading in [
        "Board",
        "Zobrist hash",
        "XOR terms",
        "TT (",
        "Search",
        "Teaching lab",
        "Keys",
        "Files",
        "L lesson",
        "x step-through",
        "c compare",
        "b book",
        ":save FILE",
        "--resume",
    ] {
        assert!(text.contains(heading), "{heading}");
    }
}

#[test]
fn basic_theme_colours_and_mono_theme_does_not() {
    let game = AnyGame::Othello(othello("f5"));
    let view = |area: Rect, buf: &mut Buffer, theme: &Theme| {
        board::render(
            &BoardView {
                game: &game,
                cursor: Some(0),
                hint: None,
                human: Human::Black,
                notice: None,
                thinking: true,
                paused: false,
                opening: None,
            },
            area,
            buf,
            theme,
        );
    };
    let basic = draw(34, 12, |a, b| view(a, b, &Theme::new(ColorMode::Basic)));
    let plain = draw(34, 12, |a, b| view(a, b, &Theme::new(ColorMode::Mono)));
    use ratatui::style::Color;
    let coloured = |b: &TestBackend| {
        b.buffer()
            .content()
            .iter()
            .filter(|c| c.fg != Color::Reset || c.bg != Color::Reset)
            .count()
    };
    assert!(coloured(&basic) > 64);
    assert_eq!(coloured(&plain), 0);
    // Same text either way.
    assert_eq!(format!("{basic}"), format!("{plain}"));
    assert!(
        basic.buffer().content().iter().all(|c| !matches!(
            c.fg,
            Color::Rgb(..) | Color::Indexed(_)
        ) && !matches!(
            c.bg,
            Color::Rgb(..) | Color::Indexed(_)
        )),
        "the basic theme uses only the 16 ANSI colours"
    );
}

#[test]
fn search_panel_says_when_the_best_move_comes_from_an_unfinished_iteration() {
    let g = AnyGame::Othello(othello("f5"));
    use xorboard::ui::position::AnyGameExt;
    let mut view = SearchView::default();
    view.start(Activity::Thinking(xorboard::game::Side::White));
    // Depth 5 completed with d6 first; the unfinished depth 6 found f4 better.
    let stats = SearchStats {
        depth: 5,
        seldepth: 7,
        nodes: 90_000,
        best: Some(Move::at(29)),
        best_depth: 6,
        pv: vec![Move::at(43), Move::at(29), Move::at(18)],
        ..SearchStats::default()
    };
    view.absorb(&stats, g.kind(), |m| g.name(m));
    let panel = |view: &SearchView| {
        format!(
            "{}",
            draw(70, 10, |area, buf| search::render(view, area, buf, &mono()))
        )
    };
    let text = panel(&view);
    assert!(text.contains("best f4 (from unfinished depth 6)"), "{text}");
    assert!(text.contains("pv d6 f4 c3"), "{text}");
    // Once the iteration completes, the note goes.
    let done = SearchStats {
        depth: 6,
        best_depth: 6,
        pv: vec![Move::at(29)],
        ..stats
    };
    view.absorb(&done, g.kind(), |m| g.name(m));
    let text = panel(&view);
    assert!(!text.contains("unfinished"), "{text}");
}
