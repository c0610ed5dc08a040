//! The Search panel: what the engine is doing (thinking, hinting, idle, paused) and its live
//! figures — depth, nodes, nodes per second, score, best move, principal variation, elapsed time —
//! plus one line per depth reached, so a person sees iterative deepening happen.
//!
//! [`SearchView`] is the panel's model: the engine's `SearchStats` with moves already named
//! (the panel needs no game to draw).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::format;
use super::position::stone_glyph;
use super::theme::Theme;
use crate::game::{GameKind, Move, Side};
use crate::search::{SearchStats, score_text};

/// Depth lines kept.
const MAX_ITERATIONS: usize = 64;

/// What the engine is doing, as the panel title says it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Activity {
    #[default]
    Idle,
    /// Searching its own move for this side.
    Thinking(Side),
    /// Searching a hint for the person playing this side.
    Hinting(Side),
    /// The person paused the engine.
    Paused,
}

/// The latest figures of one depth of the iterative deepening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    pub depth: u32,
    pub score: String,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub pv: String,
}

/// A move the engine took from the opening book instead of searching.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub side: Side,
    pub mv: String,
    /// Book replies there were to choose from.
    pub choices: usize,
    /// The named opening the game follows after the move.
    pub opening: Option<String>,
}

/// The Search panel's model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchView {
    pub activity: Activity,
    /// The last move came from the book (no search ran): shown as its source.
    pub book: Option<BookMove>,
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub nps: u64,
    pub elapsed_ms: u64,
    pub score: String,
    pub best: Option<String>,
    pub pv: Vec<String>,
    pub exact: bool,
    /// One entry per depth seen, oldest first.
    pub iterations: Vec<Iteration>,
    /// Snapshots absorbed since the search started.
    pub reports: u64,
}

impl SearchView {
    /// A new search begins: clear the figures.
    pub fn start(&mut self, activity: Activity) {
        *self = SearchView {
            activity,
            ..SearchView::default()
        };
    }

    /// The engine played a book move: no figures, the book as the source.
    pub fn book(&mut self, book: BookMove) {
        *self = SearchView {
            book: Some(book),
            ..SearchView::default()
        };
    }

    /// The search ended (or was abandoned): keep the figures, change the title.
    pub fn finish(&mut self, activity: Activity) {
        self.activity = activity;
    }

    /// Take in a progress snapshot or the final result; `name` names the moves.
    pub fn absorb(&mut self, s: &SearchStats, kind: GameKind, name: impl Fn(Move) -> String) {
        self.depth = s.depth;
        self.seldepth = s.seldepth;
        self.nodes = s.nodes;
        self.nps = s.nps;
        self.elapsed_ms = s.elapsed_ms;
        self.score = score_text(kind, s.score);
        self.best = s.best.map(&name);
        self.pv = s.pv.iter().map(|&m| name(m)).collect();
        self.exact = s.exact;
        self.reports += 1;
        let line = Iteration {
            depth: s.depth,
            score: self.score.clone(),
            nodes: s.nodes,
            elapsed_ms: s.elapsed_ms,
            pv: self.pv.join(" "),
        };
        match self.iterations.last_mut() {
            Some(last) if last.depth == s.depth => *last = line,
            _ if s.depth == 0 => {}
            _ => {
                self.iterations.push(line);
                if self.iterations.len() > MAX_ITERATIONS {
                    self.iterations.remove(0);
                }
            }
        }
    }

    fn title(&self) -> String {
        match self.activity {
            Activity::Idle if self.book.is_some() => {
                " Search · idle · last move from the book ".to_string()
            }
            Activity::Idle => " Search · idle ".to_string(),
            Activity::Paused => " Search · paused ".to_string(),
            Activity::Thinking(side) => format!(
                " Search · thinking for {} {} ",
                stone_glyph(side),
                side.name()
            ),
            Activity::Hinting(side) => {
                format!(" Search · hint for {} {} ", stone_glyph(side), side.name())
            }
        }
    }
}

/// Draw the Search panel.
pub fn render(view: &SearchView, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let busy = matches!(view.activity, Activity::Thinking(_) | Activity::Hinting(_));
    let block = theme.panel_fit(
        view.title(),
        if busy { theme.busy } else { theme.title },
        area.width,
    );
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.height == 0 || inner.width == 0 {
        return;
    }
    let l = |t: &'static str| Span::styled(t, theme.label);
    let v = |t: String| Span::styled(t, theme.value);
    let mut lines = Vec::new();
    if let (Some(b), 0) = (&view.book, view.reports) {
        lines.push(Line::from(vec![
            l("source "),
            Span::styled("book", theme.good),
            l("  move "),
            v(format!("{} {}", stone_glyph(b.side), b.mv)),
            l("  one of "),
            v(b.choices.to_string()),
            l(if b.choices == 1 {
                " book reply"
            } else {
                " book replies"
            }),
        ]));
        lines.push(Line::from(vec![
            l("opening "),
            v(b.opening.clone().unwrap_or_else(|| "–".into())),
            Span::styled("  no search: b turns the book off", theme.dim),
        ]));
    } else if view.reports == 0 {
        lines.push(Line::from(Span::styled(
            match view.activity {
                Activity::Paused => "paused — p resumes the engine",
                Activity::Idle => "idle — the engine searches on its turn; t: a hint",
                _ => "starting…",
            },
            theme.dim,
        )));
    } else {
        lines.push(Line::from(vec![
            l("depth "),
            v(format!("{}/{}", view.depth, view.seldepth)),
            l("  nodes "),
            v(format::count(view.nodes)),
            l("  "),
            v(format!("{} n/s", format::count(view.nps))),
            l("  time "),
            v(format::millis(view.elapsed_ms)),
        ]));
        let mut second = vec![
            l("score "),
            v(view.score.clone()),
            l("  best "),
            v(view.best.clone().unwrap_or_else(|| "–".into())),
        ];
        if view.exact {
            second.push(Span::styled("  exact", theme.good));
        }
        lines.push(Line::from(second));
        let room = (inner.width as usize).saturating_sub(3);
        lines.push(Line::from(vec![
            l("pv "),
            v(format::fit(&view.pv.join(" "), room)),
        ]));
    }
    let top = lines.len() as u16 + 1;
    Paragraph::new(super::scroll::clip_all(lines, inner.width)).render(inner, buf);
    if view.iterations.is_empty() || inner.height <= top + 1 {
        return;
    }
    let table_area = Rect {
        y: inner.y + top,
        height: inner.height - top,
        ..inner
    };
    let mut rows = vec![Line::from(Span::styled(
        "depth   score     nodes     time  pv",
        theme.label,
    ))];
    for it in view.iterations.iter().rev() {
        rows.push(Line::from(vec![
            Span::styled(format!("{:>5}", it.depth), theme.value),
            Span::styled(format!("  {:>6}", it.score), theme.info),
            Span::styled(format!("  {:>8}", format::count(it.nodes)), theme.info),
            Span::styled(format!("  {:>7}", format::millis(it.elapsed_ms)), theme.dim),
            Span::styled(format!("  {}", it.pv), theme.info),
        ]));
    }
    Paragraph::new(super::scroll::clip_all(rows, table_area.width)).render(table_area, buf);
}
