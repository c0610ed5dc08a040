//! The status line at the bottom: the command being typed after `:`, or the last message (an
//! error in its own style), and the main keys.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::app::{Message, Mode};
use super::scroll::elide;
use super::theme::Theme;

/// The main screen's keys: (text, priority); the lowest numbers stay when the line is short.
/// `? help` and `q quit` always stay.
const MAIN_KEYS: &[(&str, u8)] = &[
    ("←↑↓→ move", 1),
    ("⏎ play", 1),
    (": cmd", 2),
    ("Tab panels", 2),
    ("u/r undo/redo", 4),
    ("s/S strategy", 3),
    ("t hint", 4),
    ("e engine", 6),
    ("p pause", 6),
    ("g game", 7),
    ("b book", 8),
    ("x step", 5),
    ("c compare", 3),
    ("L lesson", 5),
];
/// The keys that are always shown.
pub const ALWAYS: &str = "? help · q quit";
/// The keys line of the study screens.
pub const LESSON_KEYS: &str = "←/→ or space step · ↑↓ scroll · Esc or L back to the game";
pub const STEP_KEYS: &str =
    "→/space apply the next XOR term · ← take it back · Home/End · Esc or x back to the game";
/// [`STEP_KEYS`] for a line narrower than it (80 columns): the same keys in fewer words.
pub const STEP_KEYS_SHORT: &str =
    "→/space next XOR term · ← back · Home/End · Esc or x back to the game";
pub const COMPARE_KEYS: &str = "Esc cancel (while running) or close · r again · Ctrl-C quit";

/// The main keys line for `width` columns: as many keys as fit, by priority, in their usual
/// order, always ending in `? help · q quit`. `tabs`: the layout has tabs (Tab is listed).
pub fn main_keys(width: usize, tabs: bool) -> String {
    let items: Vec<(&str, u8)> = MAIN_KEYS
        .iter()
        .copied()
        .filter(|(k, _)| tabs || !k.starts_with("Tab"))
        .collect();
    let len = |chosen: &[bool]| -> usize {
        items
            .iter()
            .zip(chosen)
            .filter(|(_, c)| **c)
            .map(|((k, _), _)| k.chars().count() + 3)
            .sum::<usize>()
            + ALWAYS.chars().count()
    };
    let mut chosen = vec![false; items.len()];
    for level in 1..=8 {
        for (i, (_, p)) in items.iter().enumerate() {
            if *p == level && !chosen[i] {
                chosen[i] = true;
                if len(&chosen) > width {
                    chosen[i] = false;
                }
            }
        }
    }
    let mut parts: Vec<&str> = items
        .iter()
        .zip(&chosen)
        .filter(|(_, c)| **c)
        .map(|((k, _), _)| *k)
        .collect();
    parts.push(ALWAYS);
    parts.join(" · ")
}

/// Draw the status line(s): with two rows, message above keys; with one, the message if any.
pub fn render(
    mode: &Mode,
    message: Option<&Message>,
    tabs: bool,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    if area.height == 0 {
        return;
    }
    let top = match mode {
        Mode::Command(line) => {
            let before: String = line.text.chars().take(line.cursor).collect();
            let mut rest = line.text.chars().skip(line.cursor);
            let at = rest.next();
            let after: String = rest.collect();
            Some(Line::from(vec![
                Span::styled(":", theme.prompt),
                Span::styled(before, theme.info),
                match at {
                    Some(c) => Span::styled(c.to_string(), theme.cursor),
                    None => Span::styled("█", theme.prompt),
                },
                Span::styled(after, theme.info),
                Span::styled("   ⏎ run · Esc cancel · ↑↓ history", theme.keys),
            ]))
        }
        _ => message.map(|m| {
            Line::from(Span::styled(
                elide(&m.text, area.width as usize),
                if m.error { theme.error } else { theme.info },
            ))
        }),
    };
    let width = area.width as usize;
    let keys = Line::from(Span::styled(
        match mode {
            Mode::Lesson(_) => elide(LESSON_KEYS, width),
            Mode::Step(_) if STEP_KEYS.chars().count() <= width => STEP_KEYS.to_string(),
            Mode::Step(_) => elide(STEP_KEYS_SHORT, width),
            Mode::Compare(_) => elide(COMPARE_KEYS, width),
            _ => main_keys(width, tabs),
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
