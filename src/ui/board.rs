//! The Board panel: the cells with their coordinates, the last move, Othello's legal moves, the
//! cursor, a hint, Gomoku's winning row, and a footer saying whose turn it is or announcing a pass
//! or the end of the game.
//!
//! [`render`] returns the rectangle of every cell it drew, so a mouse click is mapped to the cell
//! actually under it, whatever the terminal size.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use super::app::Human;
use super::position::{AnyGameExt, stone_glyph};
use super::theme::Theme;
use crate::game::AnyGame;
use crate::game::{Cell, GameKind, Move, Side};

/// What the Board panel shows.
pub struct BoardView<'a> {
    pub game: &'a AnyGame,
    pub cursor: Option<usize>,
    pub hint: Option<Move>,
    pub human: Human,
    /// A pass or the end of the game, announced in the footer.
    pub notice: Option<&'a str>,
    pub thinking: bool,
    pub paused: bool,
    /// The named opening being played (Othello).
    pub opening: Option<&'a str>,
}

/// Columns per cell in a panel `width` columns wide: three (room for the cursor's brackets)
/// when the board fits so, else two; Othello always has three.
pub fn cell_width(game: &AnyGame, width: u16) -> u16 {
    match game.kind() {
        GameKind::Othello => 3,
        GameKind::Gomoku if width >= 3 + 3 * game.width() as u16 + 4 => 3,
        GameKind::Gomoku => 2,
    }
}

/// The smallest panel (borders and padding included) that shows the whole board.
pub fn size_needed(game: &AnyGame) -> (u16, u16) {
    let cw = cell_width(game, 0);
    let w = 3 + cw * game.width() as u16;
    let h = game.height() as u16 + 2;
    (w + 4, h + 2)
}

fn who(human: Human, side: Side) -> &'static str {
    if human.plays(side) { "you" } else { "engine" }
}

/// The board's title for a panel `width` wide: the game, the opening, who plays which side and
/// the move count, dropping the opening then the count when they do not fit.
fn title(view: &BoardView, width: u16) -> String {
    let g = view.game;
    let players = format!(
        "{} ● vs {} ○",
        who(view.human, Side::Black),
        who(view.human, Side::White)
    );
    let moves = super::format::plural(g.history().len() as u64, "move", "moves");
    let label = g.label();
    let mut candidates = Vec::new();
    if let Some(name) = view.opening {
        candidates.push(format!(" {label} · {name} · {players} · {moves} "));
    }
    candidates.push(format!(" {label} · {players} · {moves} "));
    candidates.push(format!(" {label} · {players} "));
    // `Gomoku 15×15 freestyle` → `Gomoku 15×15`: the rule is in the help and the record.
    let short: Vec<&str> = label.split(' ').take(2).collect();
    candidates.push(format!(" {} · {players} ", short.join(" ")));
    let room = width.saturating_sub(2) as usize;
    candidates
        .iter()
        .find(|t| t.chars().count() <= room)
        .unwrap_or(candidates.last().expect("one title"))
        .clone()
}

fn footer(view: &BoardView) -> String {
    let g = view.game;
    let mut text = match view.notice {
        Some(n) => n.to_string(),
        None => {
            let side = g.side_to_move();
            let state = if view.human.plays(side) {
                "your move"
            } else if view.paused {
                "engine paused"
            } else if view.thinking {
                "engine thinking…"
            } else {
                "engine"
            };
            format!("{} {} to move · {state}", stone_glyph(side), side.name())
        }
    };
    if g.kind() == GameKind::Othello {
        let (b, w) = g.stone_counts();
        text.push_str(&format!("  ● {b} ○ {w}"));
    }
    text
}

/// Draw the board; returns each drawn cell's rectangle and index.
pub fn render(view: &BoardView, area: Rect, buf: &mut Buffer, theme: &Theme) -> Vec<(Rect, usize)> {
    let g = view.game;
    let block = theme.panel_fit(title(view, area.width), theme.title, area.width);
    let inner = block.inner(area);
    block.render(area, buf);
    let mut drawn = Vec::new();
    if inner.width == 0 || inner.height == 0 {
        return drawn;
    }
    let (w, h) = (g.width(), g.height());
    let kind = g.kind();
    let cw = cell_width(g, area.width);
    let x0 = inner.x;
    let y0 = inner.y;
    let right = inner.right();
    let bottom = inner.bottom();
    let put = |buf: &mut Buffer, x: u16, y: u16, s: &str, style: Style| {
        if y < bottom && x < right {
            buf.set_stringn(x, y, s, (right - x) as usize, style);
        }
    };

    let legal: Vec<usize> = if kind == GameKind::Othello {
        g.legal().iter().filter_map(|m| m.cell()).collect()
    } else {
        Vec::new()
    };
    let win = g.winning_line();
    let last = g.last_placement();
    let hint = view.hint.and_then(|m| m.cell());
    let (cur_x, cur_y) = match view.cursor {
        Some(c) => (Some(c % w), Some(c / w)),
        None => (None, None),
    };

    // Column letters, the cursor's column bold.
    for c in 0..w {
        let letter = ((b'a' + c as u8) as char).to_string();
        let style = if cur_x == Some(c) {
            theme.value
        } else {
            theme.coord
        };
        put(buf, x0 + 3 + c as u16 * cw + cw / 3, y0, &letter, style);
    }
    for r in 0..h {
        let y = y0 + 1 + r as u16;
        let label = match kind {
            GameKind::Othello => r + 1,
            GameKind::Gomoku => h - r,
        };
        let style = if cur_y == Some(r) {
            theme.value
        } else {
            theme.coord
        };
        put(buf, x0, y, &format!("{label:>2}"), style);
        for c in 0..w {
            let x = x0 + 3 + c as u16 * cw;
            let idx = r * w + c;
            let cell = g.cell(idx);
            let (glyph, mut style) = match cell {
                Cell::Black => ("●", theme.black),
                Cell::White => ("○", theme.white),
                Cell::Empty if hint == Some(idx) => ("*", theme.legal),
                Cell::Empty if legal.contains(&idx) => ("+", theme.legal),
                Cell::Empty => ("·", theme.empty),
            };
            if win.contains(&idx) {
                style = style.patch(theme.win);
            } else if last == Some(idx) {
                style = style.patch(theme.last_move);
            }
            if hint == Some(idx) {
                style = style.patch(theme.hint);
            }
            let is_cursor = view.cursor == Some(idx);
            if is_cursor {
                style = style.patch(theme.cursor);
            }
            let text = match (cw, is_cursor) {
                (3, true) => format!("[{glyph}]"),
                (3, false) => format!(" {glyph} "),
                _ => format!("{glyph} "),
            };
            if y < bottom && x + cw <= right {
                put(buf, x, y, &text, style);
                drawn.push((
                    Rect {
                        x,
                        y,
                        width: cw,
                        height: 1,
                    },
                    idx,
                ));
            }
        }
    }
    let fy = y0 + 1 + h as u16;
    let style = if view.notice.is_some() {
        theme.value
    } else {
        theme.info
    };
    // A long notice (the end of the game) is shortened at a word, never cut inside one.
    // Whole parts (separated by two spaces, e.g. the disc counts) go before any word does.
    let mut text = footer(view);
    while text.chars().count() > inner.width as usize {
        match text.rfind("  ") {
            Some(i) => text.truncate(i),
            None => break,
        }
    }
    let text = super::scroll::elide(&text, inner.width as usize);
    put(buf, inner.x, fy, &text, style);
    drawn
}
