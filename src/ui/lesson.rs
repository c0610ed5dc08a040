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
use crate::zobrist::Keys;

/// The three computations of the lesson.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// hash1: black on cell 1, by the full XOR of all four cells' keys.
    Hash1Full,
    /// hash2: then white on cell 4, by the full XOR.
    Hash2Full,
    /// hash2 again, from hash1 by two XORs.
    Hash2Incremental,
    /// The game's addition: a side-to-move key XORed in at every ply.
    SideKey,
}

impl Part {
    pub const ALL: [Part; 4] = [
        Part::Hash1Full,
        Part::Hash2Full,
        Part::Hash2Incremental,
        Part::SideKey,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Part::Hash1Full => "1 · black on cell 1 — full XOR of the four cells' keys",
            Part::Hash2Full => "2 · then white on cell 4 — full XOR again",
            Part::Hash2Incremental => "3 · the same from hash1: hash1 ^ K[4][empty] ^ K[4][white]",
            Part::SideKey => {
                "4 · whose turn: the game also XORs a side-to-move key K[side] at every ply \
                 (here the low 32 bits of the game's)"
            }
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

/// The side-to-move key of step 4: the low 32 bits of the game's own side key.
pub fn side_key() -> u32 {
    (Keys::default_keys().side & 0xFFFF_FFFF) as u32
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
    // Step 4: the same two moves with the side key toggled at each ply.
    let (h1, ks) = (ex.hash1_full(), side_key());
    let (k_empty, k_white) = (ex.keys[3][0], ex.keys[3][2]);
    let side_steps = [
        ("hash1, ● just moved", None, h1, None),
        ("○ to move: K[side] in", Some(ks), h1 ^ ks, None),
        (
            "remove cell 4 empty",
            Some(k_empty),
            h1 ^ ks ^ k_empty,
            Some((3, 0)),
        ),
        (
            "add cell 4 white",
            Some(k_white),
            h1 ^ ks ^ k_empty ^ k_white,
            Some((3, 2)),
        ),
        (
            "● to move: K[side] out",
            Some(ks),
            h1 ^ k_empty ^ k_white,
            None,
        ),
    ];
    for (what, key, value, cell) in side_steps {
        out.push(LessonStep {
            part: Part::SideKey,
            step: Step {
                what: what.into(),
                key: key.map(hex32),
                value: hex32(value),
            },
            key: cell,
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
    /// First line shown when the person scrolled (the screen scrolls when it does not fit).
    pub scroll: u16,
    /// Follow the current step (each step keeps it in view) instead of `scroll`.
    pub follow: bool,
}

impl Default for LessonView {
    fn default() -> Self {
        let example = SeedExample::new();
        LessonView {
            steps: steps(&example),
            example,
            pos: 0,
            scroll: 0,
            follow: true,
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
        self.follow = true;
    }

    pub fn prev(&mut self) {
        self.pos = self.pos.saturating_sub(1);
        self.follow = true;
    }

    /// Scroll by `by` lines from `from` (the offset last drawn), leaving the step-following.
    pub fn scroll_by(&mut self, from: u16, by: i32, max: u16) {
        self.follow = false;
        self.scroll = (from as i32 + by).clamp(0, max as i32) as u16;
    }

    /// The offset to draw with: the current step in view (the end on the last step) while
    /// following, else where the person scrolled.
    fn offset(&self, lines: &[Line], height: u16) -> u16 {
        let max = (lines.len() as u16).saturating_sub(height);
        if !self.follow {
            return self.scroll.min(max);
        }
        if self.pos == self.last() {
            return max;
        }
        let current = lines
            .iter()
            .position(|l| l.spans.first().is_some_and(|s| s.content == "▶ "));
        current.map_or(0, |i| (i as u16 + 3).saturating_sub(height).min(max))
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

/// Draw the lesson over `area` (it clears what is beneath); returns the largest scroll offset
/// and the offset drawn.
pub fn render(view: &LessonView, area: Rect, buf: &mut Buffer, theme: &Theme) -> (u16, u16) {
    if area.width < 20 || area.height < 6 {
        return (0, 0);
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
            "Two XORs instead of four, and the side key XORed in twice is out again: after an \
             even number of plies the same stones give the same hash.",
            theme.dim,
        )));
        right.push(Line::from(Span::styled(
            "The game's 64-bit keys differ from this lesson's in two ways. It keys no empty \
             cells: an empty cell's key would be XORed out at every placement and is part of \
             every position alike, so taking it as 0 (x ^ 0 = x) changes no comparison and \
             saves one XOR per placed stone. And it keys the side to move, as in step 4, so \
             the same stones with the other side to move are a different position (a pass \
             toggles only that key).",
            theme.dim,
        )));
    }

    let body = Rect {
        height: inner.height.saturating_sub(1),
        ..inner
    };
    let left_w = 46;
    let (max, used) = if body.width >= left_w + 2 + 50 {
        // Two columns: the board and keys beside the computations.
        let l = scroll::wrap(left, left_w);
        let rw = body.width - left_w - 2;
        let r = scroll::wrap(right, rw);
        let at = view.offset(&r, body.height);
        let a = scroll::render(
            &l,
            Rect {
                width: left_w,
                ..body
            },
            buf,
            at,
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
            at,
            theme,
        );
        (a.max(b), at)
    } else {
        // One column: the board and keys, then the computations (the view follows the step).
        let mut all = left;
        all.push(Line::default());
        all.extend(right);
        let all = scroll::wrap(all, body.width);
        let at = view.offset(&all, body.height);
        (scroll::render(&all, body, buf, at, theme), at)
    };
    if inner.height > 0 {
        buf.set_stringn(
            inner.x,
            inner.bottom() - 1,
            scroll::elide(super::status::LESSON_KEYS, inner.width as usize),
            inner.width as usize,
            theme.keys,
        );
    }
    (max, used)
}
