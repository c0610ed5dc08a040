//! The XOR-terms panel: for the last moves, every term the move XORed into the hash — the
//! cell, its change (empty → stone for a placement, one colour → the other for an Othello flip),
//! the key — then the side-to-move key and the resulting hash, marked ✓ when it equals both the
//! XOR of the terms and a full recompute. The newest move is shown in full; older ones as one
//! line each when space runs short.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::app::DeltaRow;
use super::format;
use super::position::stone_glyph;
use super::theme::Theme;
use crate::game::Cell;

fn cell_glyph(c: Cell) -> &'static str {
    match c {
        Cell::Empty => "·",
        Cell::Black => "●",
        Cell::White => "○",
    }
}

fn kind(from: Cell, to: Cell) -> &'static str {
    match (from, to) {
        (Cell::Empty, _) => "placement",
        (_, Cell::Empty) => "removal",
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

fn check(row: &DeltaRow, theme: &Theme) -> Span<'static> {
    if row.verified() {
        Span::styled("  ✓ = full recompute", theme.good)
    } else {
        Span::styled(
            format!("  ✗ recompute {}", format::hex(row.recomputed)),
            theme.bad,
        )
    }
}

/// The lines of one move in full; `max` bounds them (terms are elided in the middle).
fn full(row: &DeltaRow, max: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![
        Line::from(header(row, theme)),
        Line::from(vec![
            Span::styled("  hash", theme.value),
            Span::styled(
                format!("       {}", format::hex(row.delta.before)),
                theme.info,
            ),
            Span::styled("  before the move", theme.dim),
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
        lines.push(Line::from(vec![
            Span::styled(format!("  {name:<4}"), theme.value),
            Span::styled(
                format!("{}→{}", cell_glyph(t.from), cell_glyph(t.to)),
                theme.info,
            ),
            Span::styled("  ^ ", theme.label),
            Span::styled(format::hex(t.key), theme.info),
            Span::styled(format!("  {}", kind(t.from, t.to)), theme.dim),
        ]));
    }
    if shown < terms.len() {
        lines.push(Line::from(Span::styled(
            format!("  … {} more flip terms", terms.len() - shown),
            theme.dim,
        )));
    }
    lines.push(Line::from(vec![
        Span::styled("  side", theme.value),
        Span::styled("     ^ ", theme.label),
        Span::styled(format::hex(row.delta.side_key), theme.info),
        Span::styled("  side to move", theme.dim),
    ]));
    lines.push(Line::from(vec![
        Span::styled("  =          ", theme.label),
        Span::styled(format::hex(row.delta.after), theme.value),
        check(row, theme),
    ]));
    lines
}

fn summary(row: &DeltaRow, theme: &Theme) -> Line<'static> {
    let mut spans = header(row, theme);
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
    let mut lines: Vec<Line> = Vec::new();
    match rows.split_first() {
        None => lines.push(Line::from(Span::styled(
            "no move yet: each move XORs its cells' keys and the side key into the hash",
            theme.dim,
        ))),
        Some((newest, older)) => {
            lines.extend(full(newest, height, theme));
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
                    lines.extend(full(row, need, theme));
                } else {
                    compact = true;
                    lines.push(summary(row, theme));
                }
            }
        }
    }
    lines.truncate(height);
    Paragraph::new(super::scroll::clip_all(lines, inner.width)).render(inner, buf);
}
