//! The lesson screen (`L`): seed 000's worked example on a 2×2 board, one XOR at a time.
//!
//! Twelve 32-bit keys — one per (cell, state), *including* the empty state — and three
//! computations taken from [`crate::lesson::SeedExample`]: black on cell 1 by the full XOR
//! (`0x2FB256EE`), then white on cell 4 by the full XOR, then the same position incrementally as
//! `hash1 ^ K[4][empty] ^ K[4][white]` (`0x23BB713E` both ways). [`LessonView`] is the screen's
//! model (the step shown); the arrow keys and space step through, Esc returns to the game.
//! The key used by the current step is lit in the key table and its cell on the board.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::scroll;
use super::theme::Theme;
use crate::lesson::{STATES, SeedExample, Step, hex32};

/// The three computations of the lesson.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// hash1: black on cell 1, by the full XOR of all four cells' keys.
    Hash1Full,
    /// hash2: then white on cell 4, by the full XOR.
    Hash2Full,
    /// hash2 again, from hash1 by two XORs.
    Hash2Incremental,
}

impl Part {
    pub const ALL: [Part; 3] = [Part::Hash1Full, Part::Hash2Full, Part::Hash2Incremental];

    pub fn title(self) -> &'static str {
        match self {
            Part::Hash1Full => "1 · black on cell 1 — full XOR of the four cells' keys",
            Part::Hash2Full => "2 · then white on cell 4 — full XOR again",
            Part::Hash2Incremental => "3 · the same from hash1: hash1 ^ K[4][empty] ^ K[4][white]",
        }
    }

    /// The board of the part: one state index per cell (0 empty, 1 black, 2 white).
    pub fn board(self) -> [usize; 4] {
        match self {
            Part::Hash1Full => [1, 0, 0, 0],
            _ => [1, 0, 0, 2],
        }
    }
}

/// One step of the lesson: a line of one computation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonStep {
    pub part: Part,
    pub step: Step,
    /// The key this step XORs in: (cell 0-based, state index).
    pub key: Option<(usize, usize)>,
}

/// Every step of the lesson, in order.
pub fn steps(ex: &SeedExample) -> Vec<LessonStep> {
    let mut out = Vec::new();
    for part in [Part::Hash1Full, Part::Hash2Full] {
        let board = part.board();
        for (c, step) in ex.full_steps(board).into_iter().enumerate() {
            out.push(LessonStep {
                part,
                step,
                key: Some((c, board[c])),
            });
        }
    }
    for (i, step) in ex.incremental_steps().into_iter().enumerate() {
        out.push(LessonStep {
            part: Part::Hash2Incremental,
            step,
            key: match i {
                1 => Some((3, 0)),
                2 => Some((3, 2)),
                _ => None,
            },
        });
    }
    out
}

/// The lesson screen's model: position 0 is the introduction, then one per step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonView {
    pub example: SeedExample,
    pub steps: Vec<LessonStep>,
    pub pos: usize,
    /// First line shown (the screen scrolls when it does not fit).
    pub scroll: u16,
}

impl Default for LessonView {
    fn default() -> Self {
        let example = SeedExample::new();
        LessonView {
            steps: steps(&example),
            example,
            pos: 0,
            scroll: 0,
        }
    }
}

impl LessonView {
    /// The last position.
    pub fn last(&self) -> usize {
        self.steps.len()
    }

    pub fn next(&mut self) {
        self.pos = (self.pos + 1).min(self.last());
    }

    pub fn prev(&mut self) {
        self.pos = self.pos.saturating_sub(1);
    }

    /// The step shown (none on the introduction).
    pub fn current(&self) -> Option<&LessonStep> {
        self.pos.checked_sub(1).and_then(|i| self.steps.get(i))
    }

    /// The running value after the current step.
    pub fn value(&self) -> Option<&str> {
        self.current().map(|s| s.step.value.as_str())
    }
}

fn glyph(state: usize) -> &'static str {
    match state {
        1 => "●",
        2 => "○",
        _ => "·",
    }
}

/// Draw the lesson over `area` (it clears what is beneath); returns the largest scroll offset.
pub fn render(view: &LessonView, area: Rect, buf: &mut Buffer, theme: &Theme) -> u16 {
    if area.width < 20 || area.height < 6 {
        return 0;
    }
    let inner = theme.overlay(
        area,
        buf,
        format!(
            " Lesson 1 · Zobrist hashing on a 2×2 board (seed 000) · step {}/{} ",
            view.pos,
            view.last()
        ),
        theme.title,
    );
    let current = view.current();
    let part = current.map(|s| s.part);
    let lit = current.and_then(|s| s.key);
    let board = part.map_or([0; 4], Part::board);

    // Left: the board and the key table.
    let mut left = vec![Line::from(Span::styled("board (cells 1–4)", theme.title))];
    for r in 0..2 {
        let mut spans = vec![Span::raw("  ")];
        for c in 0..2 {
            let cell = r * 2 + c;
            let style = if lit.is_some_and(|(lc, _)| lc == cell) {
                theme.cursor
            } else {
                theme.value
            };
            spans.push(Span::styled(
                format!(" {}{} ", cell + 1, glyph(board[cell])),
                style,
            ));
        }
        left.push(Line::from(spans));
    }
    left.push(Line::default());
    left.push(Line::from(Span::styled(
        "the 12 keys (32-bit)",
        theme.title,
    )));
    left.push(Line::from(Span::styled(
        format!("cell {:>10} {:>10} {:>10}", STATES[0], STATES[1], STATES[2]),
        theme.label,
    )));
    for (cell, row) in view.example.keys.iter().enumerate() {
        let mut spans = vec![Span::styled(format!("{:>4}", cell + 1), theme.label)];
        for (state, &k) in row.iter().enumerate() {
            let style = if lit == Some((cell, state)) {
                theme.cursor
            } else if board[cell] == state && part != Some(Part::Hash2Incremental) && part.is_some()
            {
                theme.value
            } else {
                theme.info
            };
            spans.push(Span::raw(" "));
            spans.push(Span::styled(format!("{:>10}", hex32(k)), style));
        }
        left.push(Line::from(spans));
    }
    left.push(Line::default());
    left.push(Line::from(Span::styled(
        "Every (cell, state) has a random key; a position's hash is the XOR of its cells' keys. \
         XOR undoes itself, so a move changes the hash by XORing the old key out and the new in.",
        theme.dim,
    )));

    // Right: the three computations, shown up to the current step.
    let mut right = Vec::new();
    let mut shown = 0;
    for p in Part::ALL {
        let started = view.steps.iter().position(|s| s.part == p).map(|i| i + 1);
        if started.is_none_or(|i| i > view.pos) {
            continue;
        }
        right.push(Line::from(Span::styled(p.title(), theme.title)));
        for (i, s) in view.steps.iter().enumerate().filter(|(_, s)| s.part == p) {
            if i + 1 > view.pos {
                break;
            }
            let is_current = i + 1 == view.pos;
            let style = if is_current { theme.cursor } else { theme.info };
            let key = s
                .step
                .key
                .as_ref()
                .map_or(String::new(), |k| format!("^ {k}"));
            right.push(Line::from(vec![
                Span::styled(if is_current { "▶ " } else { "  " }, theme.value),
                Span::styled(format!("{:<22}", s.step.what), style),
                Span::styled(format!("{key:<14}"), theme.info),
                Span::styled(format!("= {}", s.step.value), style),
            ]));
            shown += 1;
        }
        right.push(Line::default());
    }
    if shown == 0 {
        right.push(Line::from(Span::styled(
            "Press → or space to XOR the first key in.",
            theme.info,
        )));
    }
    let ex = &view.example;
    if view.pos == view.last() {
        let h1 = ex.hash1_full();
        let full = ex.hash2_full();
        let inc = ex.hash2_incremental();
        let row = |what: &str, v: u32| format!("{what:<24}= {}", hex32(v));
        right.push(Line::from(Span::styled(row("hash1", h1), theme.value)));
        right.push(Line::from(Span::styled(
            row("hash2 by the full XOR", full),
            theme.value,
        )));
        right.push(Line::from(vec![
            Span::styled(row("hash2 incrementally", inc), theme.value),
            if full == inc {
                Span::styled("  ✓ equal", theme.good)
            } else {
                Span::styled("  ✗ differ", theme.bad)
            },
        ]));
        right.push(Line::from(Span::styled(
            "Two XORs instead of four: the engine's 64-bit keys work the same way, with the empty",
            theme.dim,
        )));
        right.push(Line::from(Span::styled(
            "key folded into the others (x ^ 0 = x), so a placement costs one XOR per changed cell.",
            theme.dim,
        )));
    }

    let keys_line = "←/→ or space step · ↑↓ scroll · Esc or L back to the game";
    let body = Rect {
        height: inner.height.saturating_sub(1),
        ..inner
    };
    let left_w = 46;
    let max = if body.width >= left_w + 2 + 50 {
        // Two columns: the board and keys beside the computations.
        let l = scroll::wrap(left, left_w);
        let rw = body.width - left_w - 2;
        let r = scroll::wrap(right, rw);
        let a = scroll::render(
            &l,
            Rect {
                width: left_w,
                ..body
            },
            buf,
            view.scroll,
            theme,
        );
        let b = scroll::render(
            &r,
            Rect {
                x: body.x + left_w + 2,
                width: rw,
                ..body
            },
            buf,
            view.scroll,
            theme,
        );
        a.max(b)
    } else {
        // One column: the computations first (they change with each step), then the keys.
        let mut all = right;
        all.push(Line::default());
        all.extend(left);
        scroll::render(
            &scroll::wrap(all, body.width),
            body,
            buf,
            view.scroll,
            theme,
        )
    };
    if inner.height > 0 {
        buf.set_stringn(
            inner.x,
            inner.bottom() - 1,
            scroll::elide(keys_line, inner.width as usize),
            inner.width as usize,
            theme.keys,
        );
    }
    max
}
