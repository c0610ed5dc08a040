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
use crate::game::AnyGame;

/// Narrowest left column (board and search).
const LEFT_MIN: u16 = 32;
/// Narrowest right column for the side-by-side layout; below it the side panels are tabs.
const RIGHT_WIDE: u16 = 58;
/// Narrowest pane of the tabbed layout.
const PANE_MIN: u16 = 28;
/// Smallest heights of the panels below the board and in the right column.
const SEARCH_MIN: u16 = 6;
const HASH_FULL: u16 = 8;
const DELTAS_MIN: u16 = 6;
const TT_MIN: u16 = 10;

/// The side panels, shown side by side on large screens and as tabs on small ones.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Tab {
    Search,
    #[default]
    Hash,
    Xor,
    Tt,
}

impl Tab {
    pub const ALL: [Tab; 4] = [Tab::Search, Tab::Hash, Tab::Xor, Tab::Tt];

    pub fn name(self) -> &'static str {
        match self {
            Tab::Search => "Search",
            Tab::Hash => "Zobrist",
            Tab::Xor => "XOR terms",
            Tab::Tt => "TT",
        }
    }

    /// The tab after this one among `list` (the first when this one is not listed).
    pub fn next_in(self, list: &[Tab], back: bool) -> Tab {
        let Some(i) = list.iter().position(|&t| t == self) else {
            return list.first().copied().unwrap_or(self);
        };
        let n = list.len();
        list[if back { (i + n - 1) % n } else { (i + 1) % n }]
    }
}

/// The smallest terminal (columns, rows) the game screen fits for this game: the board beside
/// a pane of tabs, above the status line.
pub fn min_size(game: &AnyGame) -> (u16, u16) {
    let (bw, bh) = board::size_needed(game);
    (bw + PANE_MIN, bh.max(8) + 1)
}

/// The tabbed pane: its tab bar, the area below it, and the tabs it offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tabs {
    pub bar: Rect,
    pub pane: Rect,
    pub list: Vec<Tab>,
}

/// The rectangles of the panels for a screen of `area` (which fits [`min_size`]). Each side
/// panel has its own rectangle when the screen is large enough, or is one of the tabs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Areas {
    pub board: Rect,
    pub search: Option<Rect>,
    pub hash: Option<Rect>,
    pub deltas: Option<Rect>,
    pub tt: Option<Rect>,
    pub tabs: Option<Tabs>,
    pub status: Rect,
}

impl Areas {
    /// Every rectangle drawn.
    pub fn rects(&self) -> Vec<Rect> {
        let mut v = vec![self.board, self.status];
        v.extend(
            [self.search, self.hash, self.deltas, self.tt]
                .into_iter()
                .flatten(),
        );
        if let Some(t) = &self.tabs {
            v.extend([t.bar, t.pane]);
        }
        v
    }
}

/// Split the screen.
pub fn areas(game: &AnyGame, area: Rect) -> Areas {
    let (bw, bh) = board::size_needed(game);
    let (_, min_h) = min_size(game);
    let status_h = if area.height > min_h { 2 } else { 1 };
    let main_h = area.height - status_h;
    let status = Rect::new(area.x, area.y + main_h, area.width, status_h);
    let board_col = bw.max(LEFT_MIN).min(area.width - PANE_MIN);
    let wide = area.width >= board_col + RIGHT_WIDE
        && main_h >= (bh + SEARCH_MIN).max(HASH_FULL + DELTAS_MIN + TT_MIN);
    if wide {
        // The left column gets the board's width, or more on wide screens (for the PV and
        // the search table), never so much that the right column falls below its minimum.
        let left_w = board_col
            .max((area.width as u32 * 42 / 100) as u16)
            .min(area.width - RIGHT_WIDE);
        let right_w = area.width - left_w;
        let board_h = bh.min(main_h - SEARCH_MIN);
        let (x, y) = (area.x, area.y);
        let rx = x + left_w;
        let hash_h = HASH_FULL;
        // The XOR terms get what a move with many flips needs; the TT panel the rest (its
        // replacement log grows with the room).
        let deltas_h = (main_h - hash_h - TT_MIN).clamp(DELTAS_MIN, 14);
        let tt_h = main_h - hash_h - deltas_h;
        return Areas {
            board: Rect::new(x, y, left_w, board_h),
            search: Some(Rect::new(x, y + board_h, left_w, main_h - board_h)),
            hash: Some(Rect::new(rx, y, right_w, hash_h)),
            deltas: Some(Rect::new(rx, y + hash_h, right_w, deltas_h)),
            tt: Some(Rect::new(rx, y + hash_h + deltas_h, right_w, tt_h)),
            tabs: None,
            status,
        };
    }
    let board_h = bh.min(main_h);
    let left_w = board_col;
    let search_below = main_h >= board_h + SEARCH_MIN;
    let board = Rect::new(area.x, area.y, left_w, board_h);
    let search =
        search_below.then(|| Rect::new(area.x, area.y + board_h, left_w, main_h - board_h));
    let rx = area.x + left_w;
    let rw = area.width - left_w;
    // Search is a tab too: under the board it is narrow, in the pane it has room for the PV.
    let list: Vec<Tab> = Tab::ALL.to_vec();
    Areas {
        board,
        search,
        hash: None,
        deltas: None,
        tt: None,
        tabs: Some(Tabs {
            bar: Rect::new(rx, area.y, rw, 1),
            pane: Rect::new(rx, area.y + 1, rw, main_h - 1),
            list,
        }),
        status,
    }
}

/// Draw the tab bar: every tab's name, the shown one marked; returns each name's rectangle.
fn render_tab_bar(tabs: &Tabs, shown: Tab, buf: &mut Buffer, theme: &Theme) -> Vec<(Rect, Tab)> {
    let mut x = tabs.bar.x;
    let end = tabs.bar.right();
    let mut hits = Vec::new();
    for &t in &tabs.list {
        let label = format!(" {} ", t.name());
        let w = label.chars().count() as u16;
        if x + w > end {
            break;
        }
        let style = if t == shown {
            theme.cursor
        } else {
            theme.label
        };
        buf.set_string(x, tabs.bar.y, &label, style);
        hits.push((Rect::new(x, tabs.bar.y, w, 1), t));
        x += w + 1;
    }
    let hint = "Tab ⇥";
    let hw = hint.chars().count() as u16;
    if x + hw < end {
        buf.set_string(end - hw, tabs.bar.y, hint, theme.keys);
    }
    hits
}

/// The Zobrist panel's model, from the game.
pub fn hash_view(app: &App) -> HashView {
    if let Mode::Step(st) = &app.mode {
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
    let step = app.step();
    let cells = board::render(
        &BoardView {
            game: &app.game,
            // The step-through puts the cursor on the cell of the term being applied.
            cursor: match step {
                Some(st) => st.cell().or(Some(app.cursor)),
                None => Some(app.cursor),
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
    let draw_panel = |tab: Tab, r: Rect, buf: &mut Buffer| match tab {
        Tab::Search => search::render(&app.search, r, buf, theme),
        Tab::Hash => hash::render(&hash_view(app), r, buf, theme),
        Tab::Xor => match step {
            Some(st) => step::render(st, r, buf, theme),
            None => deltas::render(&app.deltas, r, buf, theme),
        },
        Tab::Tt => tt::render(&app.tt, r, buf, theme),
    };
    for (tab, r) in [
        (Tab::Search, a.search),
        (Tab::Hash, a.hash),
        (Tab::Xor, a.deltas),
        (Tab::Tt, a.tt),
    ] {
        if let Some(r) = r {
            draw_panel(tab, r, buf);
        }
    }
    let mut tab_hits = Vec::new();
    let mut tab_list = Vec::new();
    if let Some(tabs) = &a.tabs {
        let shown = if tabs.list.contains(&app.tab) {
            app.tab
        } else {
            tabs.list[0]
        };
        tab_hits = render_tab_bar(tabs, shown, buf, theme);
        tab_list = tabs.list.clone();
        draw_panel(shown, tabs.pane, buf);
    }
    status::render(
        &app.mode,
        app.message.as_ref(),
        a.tabs.is_some(),
        a.status,
        buf,
        theme,
    );
    let above_status = Rect {
        height: a.status.y - area.y,
        ..area
    };
    let (overlay_max_scroll, overlay_scroll) = match &app.mode {
        Mode::Lesson(l) => lesson::render(l, above_status, buf, theme),
        Mode::Compare(c) => (compare::render(c, above_status, buf, theme), c.scroll),
        Mode::Help(scroll) => (help::render(area, buf, theme, *scroll), *scroll),
        _ => {
            return Drawn {
                cells,
                tabs: tab_hits,
                tab_list,
                ..Drawn::default()
            };
        }
    };
    // Clicks go to no board beneath an overlay.
    Drawn {
        overlay_max_scroll,
        overlay_scroll,
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
