//! The status line at the bottom: the command being typed after `:`, or the last message (an
//! error in its own style), and the main keys.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::app::{Message, Mode};
use super::theme::Theme;

/// The keys line.
pub const KEYS: &str = "←↑↓→/hjkl move · ⏎ play · : command · u undo · r redo · n new · \
s/S strategy · t hint · e engine moves · p pause · g game · ? help · q quit";

/// Draw the status line(s): with two rows, message above keys; with one, the message if any.
pub fn render(mode: &Mode, message: Option<&Message>, area: Rect, buf: &mut Buffer, theme: &Theme) {
    if area.height == 0 {
        return;
    }
    let top = match mode {
        Mode::Command(text) => Some(Line::from(vec![
            Span::styled(":", theme.prompt),
            Span::styled(text.clone(), theme.info),
            Span::styled("█", theme.prompt),
            Span::styled("   ⏎ run · Esc cancel", theme.keys),
        ])),
        _ => message.map(|m| {
            Line::from(Span::styled(
                m.text.clone(),
                if m.error { theme.error } else { theme.info },
            ))
        }),
    };
    let keys = Line::from(Span::styled(KEYS, theme.keys));
    let lines = match (area.height, top) {
        (1, Some(t)) => vec![t],
        (1, None) => vec![keys],
        (_, t) => vec![t.unwrap_or_default(), keys],
    };
    Paragraph::new(lines).render(area, buf);
}
