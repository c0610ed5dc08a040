//! The whole screen: lays the panels out for the terminal's size and draws them from the model.
//!
//! Left column: Board over Search. Right column: Zobrist hash, XOR terms, TT. A status line at
//! the bottom. Every panel shrinks gracefully; below [`min_size`] a single message says what size
//! is needed. Drawing reads the [`App`] only and returns the geometry clicks need ([`Drawn`]).
//!
//! The study screens: the step-through (`x`) takes over the Zobrist and XOR-terms panels; the
//! lesson (`L`) and the strategy comparison (`c`) cover everything above the status line.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::app::{App, Drawn, Mode};
use super::board::{self, BoardView};
use super::hash::{self, HashView, StepCaption};
use super::position::{AnyGameExt, stone_glyph};
use super::theme::Theme;
use super::{compare, deltas, help, lesson, search, status, step, tt};
use crate::commands::AnyGame;

/// Narrowest left column (board and search).
const LEFT_MIN: u16 = 32;
/// Narrowest right column (hash, XOR terms, TT).
const RIGHT_MIN: u16 = 44;
/// Smallest heights of the panels below the board and in the right column.
const SEARCH_MIN: u16 = 4;
const HASH_FULL: u16 = 8;
const HASH_MIN: u16 = 3;
const DELTAS_MIN: u16 = 3;
const TT_MIN: u16 = 6;
const TT_FULL: u16 = 18;

/// The smallest terminal (columns, rows) the game screen fits for this game.
pub fn min_size(game: &AnyGame) -> (u16, u16) {
    let (bw, bh) = board::size_needed(game);
    let width = bw.max(LEFT_MIN) + RIGHT_MIN;
    let height = (bh + SEARCH_MIN).max(HASH_MIN + DELTAS_MIN + TT_MIN) + 1;
    (width, height)
}

/// The rectangles of the panels for a screen of `area` (which fits [`min_size`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Areas {
    pub board: Rect,
    pub search: Rect,
    pub hash: Rect,
    pub deltas: Rect,
    pub tt: Rect,
    pub status: Rect,
}

/// Split the screen.
pub fn areas(game: &AnyGame, area: Rect) -> Areas {
    let (bw, bh) = board::size_needed(game);
    let (min_w, min_h) = min_size(game);
    let status_h = if area.height > min_h { 2 } else { 1 };
    let main_h = area.height - status_h;
    // The left column gets the board's width, or more on wide screens (for the PV), never so
    // much that the right column falls below its minimum.
    let left_w = bw
        .max(LEFT_MIN)
        .max((area.width as u32 * 38 / 100) as u16)
        .min(area.width - RIGHT_MIN)
        .max(min_w - RIGHT_MIN);
    let right_w = area.width - left_w;
    let board_h = bh.min(main_h - SEARCH_MIN);
    let left = Rect::new(area.x, area.y, left_w, main_h);
    let right = Rect::new(area.x + left_w, area.y, right_w, main_h);
    let hash_h = if main_h >= HASH_FULL + DELTAS_MIN + TT_MIN + 4 {
        HASH_FULL
    } else {
        (main_h - DELTAS_MIN - TT_MIN).clamp(HASH_MIN, HASH_FULL)
    };
    let tt_h = (main_h - hash_h - DELTAS_MIN - 6).clamp(TT_MIN, TT_FULL);
    let tt_h = tt_h.min(main_h - hash_h - DELTAS_MIN);
    let deltas_h = main_h - hash_h - tt_h;
    Areas {
        board: Rect::new(left.x, left.y, left_w, board_h),
        search: Rect::new(left.x, left.y + board_h, left_w, main_h - board_h),
        hash: Rect::new(right.x, right.y, right_w, hash_h),
        deltas: Rect::new(right.x, right.y + hash_h, right_w, deltas_h),
        tt: Rect::new(right.x, right.y + hash_h + deltas_h, right_w, tt_h),
        status: Rect::new(area.x, area.y + main_h, area.width, status_h),
    }
}

/// The Zobrist panel's model, from the game.
pub fn hash_view(app: &App) -> HashView {
    if let (Mode::Step, Some(st)) = (&app.mode, &app.step) {
        return HashView {
            hash: st.hash(),
            recomputed: app.game.recompute_hash(),
            flipped: st.flipped(),
            last: Some(format!("{} {}", stone_glyph(st.side), st.name)),
            step: Some(StepCaption {
                text: st.caption(),
                intermediate: !st.at_end(),
            }),
        };
    }
    let last = app.deltas.first();
    HashView {
        hash: app.game.hash(),
        recomputed: app.game.recompute_hash(),
        flipped: last.map_or(0, |d| d.delta.flipped_bits()),
        last: last.map(|d| format!("{} {}", stone_glyph(d.side), d.name)),
        step: None,
    }
}

/// Draw the whole screen into `buf` over `area`; returns the geometry of what was drawn.
pub fn draw_into(app: &App, area: Rect, buf: &mut Buffer, theme: &Theme) -> Drawn {
    let (need_w, need_h) = min_size(&app.game);
    if area.width < need_w || area.height < need_h {
        too_small(area, buf, theme, (need_w, need_h));
        return Drawn::default();
    }
    let a = areas(&app.game, area);
    let cells = board::render(
        &BoardView {
            game: &app.game,
            // The step-through puts the cursor on the cell of the term being applied.
            cursor: match (&app.mode, &app.step) {
                (Mode::Step, Some(st)) => st.cell().or(Some(app.cursor)),
                _ => Some(app.cursor),
            },
            hint: app.hint,
            human: app.settings.human,
            notice: app.notice.as_deref(),
            thinking: app.thinking(),
            paused: app.paused,
            opening: app.opening.as_deref(),
        },
        a.board,
        buf,
        theme,
    );
    search::render(&app.search, a.search, buf, theme);
    hash::render(&hash_view(app), a.hash, buf, theme);
    match (&app.mode, &app.step) {
        (Mode::Step, Some(st)) => step::render(st, a.deltas, buf, theme),
        _ => deltas::render(&app.deltas, a.deltas, buf, theme),
    }
    tt::render(&app.tt, a.tt, buf, theme);
    status::render(&app.mode, app.message.as_ref(), a.status, buf, theme);
    let above_status = Rect {
        height: a.status.y - area.y,
        ..area
    };
    match &app.mode {
        Mode::Lesson => {
            lesson::render(&app.lesson, above_status, buf, theme);
            return Drawn::default();
        }
        Mode::Compare(c) => {
            let overlay_max_scroll = compare::render(c, above_status, buf, theme);
            return Drawn {
                overlay_max_scroll,
                ..Drawn::default()
            };
        }
        _ => {}
    }
    if app.mode == Mode::Help {
        help::render(area, buf, theme, app.help_scroll);
        // Clicks close the overlay; none reaches the board beneath it.
        return Drawn::default();
    }
    Drawn {
        cells,
        ..Drawn::default()
    }
}

/// Draw a frame (the terminal loop's entry point).
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme) -> Drawn {
    let area = frame.area();
    draw_into(app, area, frame.buffer_mut(), theme)
}

fn too_small(area: Rect, buf: &mut Buffer, theme: &Theme, (w, h): (u16, u16)) {
    let lines = vec![
        Line::from(Span::styled("Terminal too small", theme.error)),
        Line::from(Span::styled(
            format!(
                "xorboard needs {w}×{h}; this one is {}×{}.",
                area.width, area.height
            ),
            theme.info,
        )),
        Line::from(Span::styled(
            "Enlarge the window, or press q (or Ctrl-C) to quit.",
            theme.dim,
        )),
    ];
    let top = area.height.saturating_sub(lines.len() as u16) / 2;
    let rect = Rect {
        y: area.y + top,
        height: area.height - top,
        ..area
    };
    Paragraph::new(lines)
        .alignment(ratatui::layout::Alignment::Center)
        .wrap(Wrap { trim: true })
        .render(rect, buf);
}
