//! The step-through (`x`): the last move's XOR terms applied one at a time.
//!
//! [`StepView`] holds the move's [`Delta`] (from `Game::last_delta`) and a position in it: 0 is
//! the hash before the move, `1..=n` the hash after each cell term, `n + 1` after the side key —
//! the hash after the move. The Zobrist panel shows the intermediate hash with the bits *this*
//! term flips lit; the XOR-terms panel is replaced by [`render`], which lists every term with the
//! running value after it and marks the current one (below 70 columns, the 80×24 and 120×36
//! tabs, the running value goes on a line of its own under its key, so no value is cut).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::deltas::term_kind;
use super::format;
use super::position::{cell_glyph, stone_glyph};
use super::theme::Theme;
use crate::game::Side;
use crate::zobrist::Delta;

/// The step-through's model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepView {
    /// 1-based ply of the move.
    pub ply: usize,
    pub side: Side,
    pub name: String,
    /// The name of each term's cell, parallel to `delta.terms`.
    pub cells: Vec<String>,
    pub delta: Delta,
    /// 0 = before the move, `1..=n` after term `n`, `n + 1` after the side key.
    pub pos: usize,
}

/// What one step XORs in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The change the term stands for: `e4 ●→○`, `side to move`.
    pub change: String,
    /// The kind of key: `flip key K●⊕K○`, `placement`; empty for the side key.
    pub kind: &'static str,
    pub key: u64,
}

impl Applied {
    /// What the term is, in words: `e4 ●→○ (flip key K●⊕K○)`, `side to move`.
    pub fn what(&self) -> String {
        if self.kind.is_empty() {
            self.change.clone()
        } else {
            format!("{} ({})", self.change, self.kind)
        }
    }
}

impl StepView {
    pub fn new(ply: usize, side: Side, name: String, cells: Vec<String>, delta: Delta) -> StepView {
        StepView {
            ply,
            side,
            name,
            cells,
            delta,
            pos: 0,
        }
    }

    /// The last position (after the side key).
    pub fn last(&self) -> usize {
        self.delta.terms.len() + 1
    }

    pub fn next(&mut self) {
        self.pos = (self.pos + 1).min(self.last());
    }

    pub fn prev(&mut self) {
        self.pos = self.pos.saturating_sub(1);
    }

    /// The hash after the first `pos` steps.
    pub fn hash_at(&self, pos: usize) -> u64 {
        let terms = &self.delta.terms;
        let mut h = terms
            .iter()
            .take(pos.min(terms.len()))
            .fold(self.delta.before, |h, t| h ^ t.key);
        if pos > terms.len() {
            h ^= self.delta.side_key;
        }
        h
    }

    /// The hash at the current position.
    pub fn hash(&self) -> u64 {
        self.hash_at(self.pos)
    }

    /// What step `pos` XORs in (nothing at 0).
    pub fn applied(&self, pos: usize) -> Option<Applied> {
        let terms = &self.delta.terms;
        match pos {
            0 => None,
            p if p <= terms.len() => {
                let t = &terms[p - 1];
                let cell = self.cells.get(p - 1).cloned().unwrap_or_default();
                Some(Applied {
                    change: format!("{cell} {}→{}", cell_glyph(t.from), cell_glyph(t.to)),
                    kind: term_kind(t.from, t.to),
                    key: t.key,
                })
            }
            p if p == terms.len() + 1 => Some(Applied {
                change: "side to move".to_string(),
                kind: "",
                key: self.delta.side_key,
            }),
            _ => None,
        }
    }

    /// The board cell of the current step's term (none before the first and for the side key).
    pub fn cell(&self) -> Option<usize> {
        self.pos
            .checked_sub(1)
            .and_then(|i| self.delta.terms.get(i))
            .map(|t| t.cell)
    }

    /// The bits the current step flips (its key), 0 at the start.
    pub fn flipped(&self) -> u64 {
        self.applied(self.pos).map_or(0, |a| a.key)
    }

    /// The current step in words, for the Zobrist panel: `step 3/14: e4 ●→○ … flips 31 bits`.
    pub fn caption(&self) -> String {
        match self.applied(self.pos) {
            None => format!(
                "step 0/{}: the hash before {} {} (→ applies the first term)",
                self.last(),
                stone_glyph(self.side),
                self.name
            ),
            Some(a) => format!(
                "step {}/{}: ^ {} flips {} bits (lit)",
                self.pos,
                self.last(),
                a.what(),
                a.key.count_ones()
            ),
        }
    }

    /// At the end, where the running hash must equal the game's.
    pub fn at_end(&self) -> bool {
        self.pos == self.last()
    }
}

/// Draw the step-through in place of the XOR-terms panel.
pub fn render(view: &StepView, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let block = theme.panel_fit(
        format!(
            " Step-through · move {} {} {} · step {}/{} ",
            view.ply,
            stone_glyph(view.side),
            view.name,
            view.pos,
            view.last()
        ),
        theme.busy,
        area.width,
    );
    let inner = block.inner(area);
    block.render(area, buf);
    let height = inner.height as usize;
    if height == 0 || inner.width == 0 {
        return;
    }
    let mut lines: Vec<Line> = Vec::new();
    let style_of = |p: usize| {
        if p == view.pos {
            theme.cursor
        } else if p < view.pos {
            theme.info
        } else {
            theme.dim
        }
    };
    let marker = |p: usize| if p == view.pos { "▶ " } else { "  " };
    // One line a step where it fits (70 columns); below that two, the running hash under
    // each key with the key's kind beside it, so that no value is cut (80×24: 39–44 columns).
    let narrow = (inner.width as usize) < 70;
    // each step's lines, to keep the current one in view
    let per_step = if narrow { 2 } else { 1 };
    if narrow {
        lines.push(Line::from(vec![
            Span::styled(marker(0), theme.value),
            Span::styled("hash before the move", style_of(0)),
        ]));
        lines.push(Line::from(Span::styled(
            format!("  = {}", format::hex(view.hash_at(0))),
            style_of(0),
        )));
    } else {
        lines.push(Line::from(vec![
            Span::styled(marker(0), theme.value),
            Span::styled(format!("{:<28}", "hash before the move"), style_of(0)),
            Span::styled(format!("  = {}", format::hex(view.hash_at(0))), style_of(0)),
        ]));
    }
    for p in 1..=view.last() {
        let Some(a) = view.applied(p) else { break };
        let reached = p <= view.pos;
        let value = format!("  = {}", format::hex(view.hash_at(p)));
        if narrow {
            lines.push(Line::from(vec![
                Span::styled(marker(p), theme.value),
                Span::styled(format!("^ {}", format::hex(a.key)), style_of(p)),
                Span::styled(format!("  {}", a.change), style_of(p)),
            ]));
            // the running hash's column, kept blank while it is not reached
            let value = if reached {
                value
            } else {
                " ".repeat(value.chars().count())
            };
            let kind = if a.kind.is_empty() {
                String::new()
            } else {
                format!("  {}", a.kind)
            };
            lines.push(Line::from(vec![
                Span::styled(value, style_of(p)),
                Span::styled(kind, theme.dim),
            ]));
        } else {
            lines.push(Line::from(vec![
                Span::styled(marker(p), theme.value),
                Span::styled(format!("^ {}", format::hex(a.key)), style_of(p)),
                Span::styled(format!("  {:<24}", format::fit(&a.what(), 24)), style_of(p)),
                Span::styled(if reached { value } else { String::new() }, style_of(p)),
            ]));
        }
    }
    let mut footer = vec![];
    if view.at_end() {
        let verdict = if view.hash() == view.delta.after {
            Span::styled("  ✓ equals the game's hash", theme.good)
        } else {
            Span::styled("  ✗ differs from the game's hash", theme.bad)
        };
        if narrow {
            // the hash after the move is the last step's value, just above
            footer.push(Line::from(verdict));
        } else {
            footer.push(Line::from(vec![
                Span::styled("  = hash after the move ", theme.label),
                Span::styled(format::hex(view.hash()), theme.value),
                verdict,
            ]));
        }
    }
    footer.push(Line::from(Span::styled(
        if narrow {
            "→/space next · ← back · Esc leave"
        } else {
            "→/space next term · ← back · Home/End · Esc or x leave"
        },
        theme.keys,
    )));
    // Keep the current line in view: scroll the term list so it sits in the window above the footer.
    let room = height.saturating_sub(footer.len()).max(1);
    let first = ((view.pos + 1) * per_step + 1)
        .saturating_sub(room)
        .min(lines.len().saturating_sub(room));
    let mut shown: Vec<Line> = lines.into_iter().skip(first).take(room).collect();
    shown.extend(footer);
    shown.truncate(height);
    Paragraph::new(super::scroll::clip_all(shown, inner.width)).render(inner, buf);
}
