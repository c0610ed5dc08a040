//! The XOR-terms panel: for the last moves, every term the move XORed into the hash — the
//! cell, its change (empty → stone for a placement, one colour → the other for an Othello flip),
//! the key — then the side-to-move key and the resulting hash, marked ✓ when it equals both the
//! XOR of the terms and a full recompute. The newest move is shown in full; older ones as one
//! line each when space runs short. Narrow panels (the 80×24 tabs) close up the columns and
//! shorten the notes rather than cut them: every key, note and hash stays whole.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::app::DeltaRow;
use super::format;
use super::position::{cell_glyph, stone_glyph};
use super::theme::Theme;
use crate::game::Cell;

/// How much room the rows of a move get: the widest layout whose every line fits the panel.
///
/// `Full` is the panel's own layout (51 columns); `Compact` closes up the columns (44: the
/// 80×24 Othello tab); `Tight` also shortens the notes (39: the 80×24 Gomoku tab). The key
/// itself is never shortened: it is what the learner follows from term to result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Layout {
    Full,
    Compact,
    Tight,
}

impl Layout {
    /// The widest layout whose lines fit in `width` columns (`Tight` when none does).
    fn for_width(width: usize) -> Layout {
        [Layout::Full, Layout::Compact]
            .into_iter()
            .find(|l| l.widest() <= width)
            .unwrap_or(Layout::Tight)
    }

    /// Columns of the widest line this layout draws (a three-letter cell name, a flip note).
    fn widest(self) -> usize {
        let key = 18;
        let notes = [
            self.before(),
            kind(self, Cell::Black, Cell::White),
            self.side_note(),
            self.verified(),
        ];
        let note = notes.iter().map(|n| n.chars().count()).max().unwrap_or(0);
        self.label_width() + key + self.gap().len() + note
    }

    /// Columns before a key: the row's label (`hash`, a cell and its change, `side`, `=`).
    fn label_width(self) -> usize {
        labels(self)[0].chars().count()
    }

    /// Between a key and its note.
    fn gap(self) -> &'static str {
        match self {
            Layout::Full => "  ",
            Layout::Compact | Layout::Tight => " ",
        }
    }

    fn before(self) -> &'static str {
        match self {
            Layout::Full | Layout::Compact => "before the move",
            Layout::Tight => "before",
        }
    }

    fn side_note(self) -> &'static str {
        match self {
            Layout::Full | Layout::Compact => "side to move",
            Layout::Tight => "to move",
        }
    }

    fn verified(self) -> &'static str {
        match self {
            Layout::Full => "✓ = full recompute",
            Layout::Compact => "✓ = recompute",
            Layout::Tight => "✓ verified",
        }
    }
}

/// What kind of key a term XORs in, in full (the step-through's words too).
pub(super) fn term_kind(from: Cell, to: Cell) -> &'static str {
    kind(Layout::Full, from, to)
}

fn kind(layout: Layout, from: Cell, to: Cell) -> &'static str {
    match (from, to, layout) {
        (Cell::Empty, _, Layout::Tight) => "placed",
        (Cell::Empty, _, _) => "placement",
        (_, Cell::Empty, Layout::Tight) => "removed",
        (_, Cell::Empty, _) => "removal",
        (_, _, Layout::Tight) => "flip K●⊕K○",
        _ => "flip key K●⊕K○",
    }
}

fn header(row: &DeltaRow, theme: &Theme) -> Vec<Span<'static>> {
    vec![
        Span::styled(format!("move {} ", row.ply), theme.label),
        Span::styled(
            format!("{} {}", stone_glyph(row.side), row.name),
            theme.value,
        ),
        Span::styled(
            match row.delta.terms.len() {
                0 => " · no cell changes".to_string(),
                1 => " · 1 cell term".to_string(),
                n => format!(" · {n} cell terms"),
            },
            theme.dim,
        ),
    ]
}

fn check(row: &DeltaRow, layout: Layout, theme: &Theme) -> Span<'static> {
    if row.verified() {
        Span::styled(format!("{}{}", layout.gap(), layout.verified()), theme.good)
    } else {
        Span::styled(
            format!(
                "{}✗ recompute {}",
                layout.gap(),
                format::hex(row.recomputed)
            ),
            theme.bad,
        )
    }
}

/// The labels before a key, each as wide as the layout's label column, the `^` of the side
/// key under the terms' own: (`hash`, `side` word, its `^`, `=`).
fn labels(layout: Layout) -> [&'static str; 4] {
    match layout {
        Layout::Full => ["  hash       ", "  side", "     ^ ", "  =          "],
        Layout::Compact | Layout::Tight => ["hash      ", "side", "    ^ ", "=         "],
    }
}

/// A term's label: its cell and change, then the XOR sign, within the label column.
fn term_label(layout: Layout, name: &str, change: String) -> [String; 3] {
    match layout {
        Layout::Full => [format!("  {name:<4}"), change, "  ^ ".to_string()],
        Layout::Compact | Layout::Tight => [format!("{name:<3} "), change, " ^ ".to_string()],
    }
}

/// The lines of one move in full; `max` bounds them (terms are elided in the middle).
fn full(row: &DeltaRow, max: usize, layout: Layout, theme: &Theme) -> Vec<Line<'static>> {
    let gap = layout.gap();
    let [hash, side, sign, equals] = labels(layout);
    let mut lines = vec![
        Line::from(header(row, theme)),
        Line::from(vec![
            Span::styled(hash, theme.value),
            Span::styled(format::hex(row.delta.before), theme.info),
            Span::styled(format!("{gap}{}", layout.before()), theme.dim),
        ]),
    ];
    let room_for_terms = max.saturating_sub(4);
    let terms = &row.delta.terms;
    let shown = if terms.len() <= room_for_terms {
        terms.len()
    } else {
        room_for_terms.saturating_sub(1)
    };
    for (t, name) in terms.iter().zip(&row.cells).take(shown) {
        let change = format!("{}→{}", cell_glyph(t.from), cell_glyph(t.to));
        let [cell, change, xor] = term_label(layout, name, change);
        lines.push(Line::from(vec![
            Span::styled(cell, theme.value),
            Span::styled(change, theme.info),
            Span::styled(xor, theme.label),
            Span::styled(format::hex(t.key), theme.info),
            Span::styled(format!("{gap}{}", kind(layout, t.from, t.to)), theme.dim),
        ]));
    }
    if shown < terms.len() {
        lines.push(Line::from(Span::styled(
            format!("  … {} more flip terms", terms.len() - shown),
            theme.dim,
        )));
    }
    lines.push(Line::from(vec![
        Span::styled(side, theme.value),
        Span::styled(sign, theme.label),
        Span::styled(format::hex(row.delta.side_key), theme.info),
        Span::styled(format!("{gap}{}", layout.side_note()), theme.dim),
    ]));
    lines.push(Line::from(vec![
        Span::styled(equals, theme.label),
        Span::styled(format::hex(row.delta.after), theme.value),
        check(row, layout, theme),
    ]));
    lines
}

fn summary(row: &DeltaRow, layout: Layout, theme: &Theme) -> Line<'static> {
    let mut spans = header(row, theme);
    if layout != Layout::Full {
        // the term count gives way to the hash the move made
        spans.pop();
    }
    spans.push(Span::styled(" ⇒ ", theme.label));
    spans.push(Span::styled(format::hex(row.delta.after), theme.info));
    spans.push(if row.verified() {
        Span::styled(" ✓", theme.good)
    } else {
        Span::styled(" ✗", theme.bad)
    });
    Line::from(spans)
}

/// Draw the XOR-terms panel for `rows` (newest first).
pub fn render(rows: &[DeltaRow], area: Rect, buf: &mut Buffer, theme: &Theme) {
    let block = theme.panel_fit(
        match rows.first() {
            Some(r) => format!(" XOR terms · last move {} ", r.name),
            None => " XOR terms ".to_string(),
        },
        theme.title,
        area.width,
    );
    let inner = block.inner(area);
    block.render(area, buf);
    let height = inner.height as usize;
    if height == 0 || inner.width == 0 {
        return;
    }
    let layout = Layout::for_width(inner.width as usize);
    let mut lines: Vec<Line> = Vec::new();
    match rows.split_first() {
        None => lines.push(Line::from(Span::styled(
            "no move yet: each move XORs its cells' keys and the side key into the hash",
            theme.dim,
        ))),
        Some((newest, older)) => {
            lines.extend(full(newest, height, layout, theme));
            let mut compact = false;
            for row in older {
                let left = height.saturating_sub(lines.len());
                if left == 0 {
                    break;
                }
                let need = row.delta.terms.len() + 4;
                // Full when it fits after a blank separator line, else one summary line.
                if !compact && left > need {
                    lines.push(Line::default());
                    lines.extend(full(row, need, layout, theme));
                } else {
                    compact = true;
                    lines.push(summary(row, layout, theme));
                }
            }
        }
    }
    lines.truncate(height);
    Paragraph::new(super::scroll::clip_all(lines, inner.width)).render(inner, buf);
}
