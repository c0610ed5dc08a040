//! The status line at the bottom: the command being typed after `:`, or the last message (an
//! error in its own style), and the main keys.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::app::{Message, Mode};
use super::theme::Theme;

/// The keys line (fits 160 columns; `n`, the mouse and the commands are in the help).
pub const KEYS: &str = "←↑↓→ move · ⏎ play · : cmd · u/r undo/redo · s/S strategy · t hint · \
e engine · p pause · g game · b book · x step · c compare · L lesson · ? help · q quit";
/// The keys line of the study screens.
pub const LESSON_KEYS: &str = "←/→ or space step · Home/End · Esc or L back to the game";
pub const STEP_KEYS: &str =
    "→/space apply the next XOR term · ← take it back · Home/End · Esc or x back to the game";
pub const COMPARE_KEYS: &str =
    "Esc cancel (while running) or close · c close · r run again · Ctrl-C quit";

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
    let keys = Line::from(Span::styled(
        match mode {
            Mode::Lesson => LESSON_KEYS,
            Mode::Step => STEP_KEYS,
            Mode::Compare(_) => COMPARE_KEYS,
            _ => KEYS,
        },
        theme.keys,
    ));
    let lines = match (area.height, top) {
        (1, Some(t)) => vec![t],
        (1, None) => vec![keys],
        (_, t) => vec![t.unwrap_or_default(), keys],
    };
    Paragraph::new(lines).render(area, buf);
}
