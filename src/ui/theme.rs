//! Colours and text styles of the screen, chosen once at start-up from the terminal's abilities.
//!
//! Three palettes: *rich* (24-bit colour, announced by `COLORTERM=truecolor|24bit`), *basic* (the
//! 16 ANSI colours every terminal has, used otherwise) and *mono* (no colour at all, when the
//! `NO_COLOR` variable is set to anything non-empty — <https://no-color.org>). Every distinction
//! the screen makes (cursor, last move, flipped bits, errors, the winning row) is also carried by
//! a glyph or a text modifier, so the mono palette loses no information.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Clear, Padding, Widget};

/// How much colour the terminal can show.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ColorMode {
    /// 24-bit colour.
    Rich,
    /// The 16 ANSI colours.
    Basic,
    /// No colour (`NO_COLOR`): only bold, reversed, underlined, dim.
    Mono,
}

impl ColorMode {
    /// Decide from the environment: `NO_COLOR` wins, then `COLORTERM`.
    pub fn detect() -> ColorMode {
        Self::from_vars(
            std::env::var_os("NO_COLOR").map(|v| v.to_string_lossy().into_owned()),
            std::env::var_os("COLORTERM").map(|v| v.to_string_lossy().into_owned()),
        )
    }

    /// The decision of [`ColorMode::detect`] for given variable values (testable).
    pub fn from_vars(no_color: Option<String>, colorterm: Option<String>) -> ColorMode {
        if no_color.is_some_and(|v| !v.is_empty()) {
            return ColorMode::Mono;
        }
        match colorterm.as_deref().map(str::to_ascii_lowercase).as_deref() {
            Some("truecolor" | "24bit") => ColorMode::Rich,
            _ => ColorMode::Basic,
        }
    }
}

/// Every style the panels use, by meaning.
#[derive(Clone, Debug)]
pub struct Theme {
    pub mode: ColorMode,
    /// Panel borders and titles.
    pub border: Style,
    pub title: Style,
    /// Labels ("probes", "depth") and their figures.
    pub label: Style,
    pub value: Style,
    pub dim: Style,
    /// The board's cells and stones.
    pub board: Style,
    pub coord: Style,
    pub black: Style,
    pub white: Style,
    pub empty: Style,
    pub legal: Style,
    pub last_move: Style,
    pub cursor: Style,
    pub hint: Style,
    pub win: Style,
    /// Hash bits: set, clear, and flipped by the last move.
    pub bit_one: Style,
    pub bit_zero: Style,
    pub bit_flipped: Style,
    /// A check that held (✓) or failed (✗).
    pub good: Style,
    pub bad: Style,
    /// The hit-rate sparkline, and its bars after a strategy switch.
    pub spark: Style,
    pub spark_switched: Style,
    pub gauge: Style,
    /// The status line: keys, information, errors, the command prompt.
    pub keys: Style,
    pub info: Style,
    pub error: Style,
    pub prompt: Style,
    /// "thinking" in the Search panel title.
    pub busy: Style,
}

impl Theme {
    /// A panel's frame: borders, a title in `style`, one column of padding each side.
    pub fn panel(&self, title: String, style: Style) -> Block<'static> {
        Block::default()
            .borders(Borders::ALL)
            .border_style(self.border)
            .title(Span::styled(title, style))
            .padding(Padding::horizontal(1))
    }

    /// A panel's frame whose title is shortened at a word boundary to fit `width` columns.
    pub fn panel_fit(&self, title: String, style: Style, width: u16) -> Block<'static> {
        self.panel(fit_title(title, width), style)
    }

    /// A pop-up's frame drawn over the panels: `area` cleared, borders in the title colour, the
    /// title in `style`, one column of padding each side. Returns the area inside the frame.
    pub fn overlay(&self, area: Rect, buf: &mut Buffer, title: String, style: Style) -> Rect {
        Clear.render(area, buf);
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(self.title)
            .padding(Padding::horizontal(1))
            .title(Span::styled(fit_title(title, area.width), style));
        let inner = block.inner(area);
        block.render(area, buf);
        inner
    }

    pub fn new(mode: ColorMode) -> Theme {
        let bold = Modifier::BOLD;
        match mode {
            ColorMode::Mono => {
                let plain = Style::new();
                Theme {
                    mode,
                    border: plain,
                    title: plain.add_modifier(bold),
                    label: plain,
                    value: plain.add_modifier(bold),
                    dim: plain.add_modifier(Modifier::DIM),
                    board: plain,
                    coord: plain.add_modifier(Modifier::DIM),
                    black: plain.add_modifier(bold),
                    white: plain,
                    empty: plain.add_modifier(Modifier::DIM),
                    legal: plain,
                    last_move: plain.add_modifier(Modifier::UNDERLINED | bold),
                    cursor: plain.add_modifier(Modifier::REVERSED),
                    hint: plain.add_modifier(Modifier::UNDERLINED),
                    win: plain.add_modifier(Modifier::REVERSED | bold),
                    bit_one: plain,
                    bit_zero: plain.add_modifier(Modifier::DIM),
                    bit_flipped: plain.add_modifier(Modifier::REVERSED),
                    good: plain,
                    bad: plain.add_modifier(bold),
                    spark: plain,
                    spark_switched: plain.add_modifier(bold),
                    gauge: plain,
                    keys: plain.add_modifier(Modifier::DIM),
                    info: plain,
                    error: plain.add_modifier(bold | Modifier::REVERSED),
                    prompt: plain.add_modifier(bold),
                    busy: plain.add_modifier(bold),
                }
            }
            ColorMode::Basic | ColorMode::Rich => {
                let rich = mode == ColorMode::Rich;
                let board_bg = if rich {
                    Color::Rgb(0x1f, 0x5f, 0x3a)
                } else {
                    Color::Green
                };
                let board = Style::new().bg(board_bg);
                Theme {
                    mode,
                    border: Style::new().fg(Color::DarkGray),
                    title: Style::new().fg(Color::Cyan).add_modifier(bold),
                    label: Style::new().fg(Color::Gray),
                    value: Style::new().fg(Color::White).add_modifier(bold),
                    dim: Style::new().fg(Color::DarkGray),
                    board,
                    coord: Style::new().fg(Color::Yellow),
                    black: board.fg(Color::Black).add_modifier(bold),
                    white: board.fg(Color::White).add_modifier(bold),
                    empty: board.fg(if rich {
                        Color::Rgb(0x4f, 0x8f, 0x6a)
                    } else {
                        Color::DarkGray
                    }),
                    legal: board.fg(Color::Yellow),
                    last_move: Style::new().bg(Color::Red).add_modifier(bold),
                    cursor: Style::new()
                        .bg(Color::Cyan)
                        .fg(Color::Black)
                        .add_modifier(bold),
                    hint: Style::new().bg(Color::Magenta).add_modifier(bold),
                    win: Style::new()
                        .bg(Color::Yellow)
                        .fg(Color::Black)
                        .add_modifier(bold),
                    bit_one: Style::new().fg(Color::White),
                    bit_zero: Style::new().fg(Color::DarkGray),
                    bit_flipped: Style::new()
                        .fg(Color::Black)
                        .bg(Color::Yellow)
                        .add_modifier(bold),
                    good: Style::new().fg(Color::Green).add_modifier(bold),
                    bad: Style::new().fg(Color::Red).add_modifier(bold),
                    spark: Style::new().fg(Color::Green),
                    spark_switched: Style::new().fg(Color::Magenta),
                    gauge: Style::new().fg(Color::Blue),
                    keys: Style::new().fg(Color::DarkGray),
                    info: Style::new().fg(Color::White),
                    error: Style::new().fg(Color::LightRed).add_modifier(bold),
                    prompt: Style::new().fg(Color::Yellow).add_modifier(bold),
                    busy: Style::new().fg(Color::LightYellow).add_modifier(bold),
                }
            }
        }
    }
}

/// `title` for a frame `width` columns wide: whole when it fits between the corners, else cut
/// at a word with `…` (never mid-word into the corner).
fn fit_title(title: String, width: u16) -> String {
    let room = (width as usize).saturating_sub(3);
    let t = title.trim_end();
    if unicode_width::UnicodeWidthStr::width(t) <= room {
        title
    } else {
        format!("{} ", super::scroll::elide(t, room.saturating_sub(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_color_wins_over_colorterm() {
        assert_eq!(
            ColorMode::from_vars(Some("1".into()), Some("truecolor".into())),
            ColorMode::Mono
        );
        // An empty NO_COLOR does not count (no-color.org).
        assert_eq!(
            ColorMode::from_vars(Some(String::new()), Some("24bit".into())),
            ColorMode::Rich
        );
        assert_eq!(ColorMode::from_vars(None, None), ColorMode::Basic);
        assert_eq!(
            ColorMode::from_vars(None, Some("xterm".into())),
            ColorMode::Basic
        );
    }

    #[test]
    fn mono_theme_uses_no_colour() {
        let t = Theme::new(ColorMode::Mono);
        for s in [t.black, t.white, t.cursor, t.bit_flipped, t.error, t.win] {
            assert_eq!(s.fg, None);
            assert_eq!(s.bg, None);
        }
        let b = Theme::new(ColorMode::Basic);
        for s in [b.board, b.cursor, b.bit_flipped] {
            assert!(!matches!(
                s.bg,
                Some(Color::Rgb(..)) | Some(Color::Indexed(_))
            ));
        }
    }
}
