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
    /// The principal variation's moves, named.
    pub pv: Vec<String>,
    /// Nodes this depth cost on its own (its total minus the previous depth's).
    pub cost: u64,
}

impl Iteration {
    /// The depth was answered from the table: it cost only a few nodes, fewer than a search of
    /// this depth needs without stored bounds (a previous search or a hint stored them).
    pub fn from_tt(&self) -> bool {
        self.depth >= 3 && self.cost < 8 * self.depth as u64
    }

    /// The PV is longer than the depth: its tail was read from moves stored in the table.
    pub fn pv_from_table(&self) -> bool {
        self.pv.len() > self.depth as usize
    }
}

/// A PV as text, with `┊` where the searched depth ends and stored moves continue it.
pub fn pv_text(pv: &[String], depth: u32) -> String {
    let d = depth as usize;
    if pv.len() <= d || d == 0 {
        return pv.join(" ");
    }
    format!("{} ┊ {}", pv[..d].join(" "), pv[d..].join(" "))
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
    /// The unfinished iteration `best` comes from, when it beat the last completed one's move
    /// (which `pv` and the depth still show).
    pub best_unfinished: Option<u32>,
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
        // The deepest ply reached is at least the depth searched (a depth answered from the
        // table reaches no further than its root's entry).
        self.seldepth = s.seldepth.max(s.depth);
        self.nodes = s.nodes;
        self.nps = s.nps;
        self.elapsed_ms = s.elapsed_ms;
        self.score = score_text(kind, s.score);
        self.best = s.best.map(&name);
        self.best_unfinished = (s.best_depth > s.depth).then_some(s.best_depth);
        self.pv = s.pv.iter().map(|&m| name(m)).collect();
        self.exact = s.exact;
        self.reports += 1;
        let before = self
            .iterations
            .iter()
            .rev()
            .find(|i| i.depth < s.depth)
            .map_or(0, |i| i.nodes);
        let line = Iteration {
            depth: s.depth,
            score: self.score.clone(),
            nodes: s.nodes,
            elapsed_ms: s.elapsed_ms,
            pv: self.pv.clone(),
            cost: s.nodes.saturating_sub(before),
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
        let mut first = vec![
            l("source "),
            Span::styled("book", theme.good),
            l("  move "),
            v(format!("{} {}", stone_glyph(b.side), b.mv)),
        ];
        if b.choices == 1 {
            first.push(l("  the book's one reply"));
        } else {
            first.extend([l("  one of "), v(b.choices.to_string()), l(" book replies")]);
        }
        lines.push(Line::from(first));
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
            l("depth\u{a0}"),
            v(format!("{}/{}", view.depth, view.seldepth)),
            l("  nodes\u{a0}"),
            v(format::count(view.nodes)),
            l("  "),
            v(format!("{}\u{a0}n/s", format::count(view.nps))),
            l("  time\u{a0}"),
            v(format::millis(view.elapsed_ms).replace(' ', "\u{a0}")),
        ]));
        let mut second = vec![
            l("score "),
            v(view.score.clone()),
            l("  best "),
            v(view.best.clone().unwrap_or_else(|| "–".into())),
        ];
        if let Some(d) = view.best_unfinished {
            second.push(Span::styled(
                format!(" (from unfinished depth\u{a0}{d})"),
                theme.dim,
            ));
        }
        if view.exact {
            second.push(Span::styled("  exact", theme.good));
        }
        lines.push(Line::from(second));
        let mut pv = vec![l("pv "), v(pv_text(&view.pv, view.depth))];
        if view.pv.len() > view.depth as usize && view.depth > 0 {
            pv.push(Span::styled(
                " (after ┊ the PV continues from stored moves)",
                theme.dim,
            ));
        }
        lines.push(Line::from(pv));
    }
    // The PV wraps on wide panels and is clipped (at a move) on narrow ones.
    let lines = if inner.height as usize > lines.len() + 6 {
        super::scroll::wrap(lines, inner.width)
    } else {
        super::scroll::clip_all(lines, inner.width)
    };
    let top = lines.len() as u16 + 1;
    Paragraph::new(lines).render(inner, buf);
    if view.iterations.is_empty() || inner.height <= top + 1 {
        return;
    }
    let table_area = Rect {
        y: inner.y + top,
        height: inner.height - top,
        ..inner
    };
    let compact = table_area.width < 44;
    let mut rows = vec![Line::from(Span::styled(
        if compact {
            "depth score   nodes  pv"
        } else {
            "depth   score     nodes     time  pv"
        },
        theme.label,
    ))];
    let mut marked = false;
    for it in view.iterations.iter().rev() {
        let tag = if it.from_tt() {
            marked = true;
            Span::styled("  from TT", theme.good)
        } else {
            Span::raw("")
        };
        marked |= it.pv_from_table();
        rows.push(Line::from(if compact {
            // Narrow panels (the column under the board at 80×24): no time, tighter columns.
            let tag = if it.from_tt() {
                Span::styled("  TT", theme.good)
            } else {
                Span::raw("")
            };
            vec![
                Span::styled(format!("{:>5}", it.depth), theme.value),
                Span::styled(format!(" {:>5}", it.score), theme.info),
                Span::styled(format!(" {:>7}", format::count(it.nodes)), theme.info),
                tag,
                Span::styled(format!("  {}", pv_text(&it.pv, it.depth)), theme.info),
            ]
        } else {
            vec![
                Span::styled(format!("{:>5}", it.depth), theme.value),
                Span::styled(format!("  {:>6}", it.score), theme.info),
                Span::styled(format!("  {:>8}", format::count(it.nodes)), theme.info),
                Span::styled(format!("  {:>7}", format::millis(it.elapsed_ms)), theme.dim),
                tag,
                Span::styled(format!("  {}", pv_text(&it.pv, it.depth)), theme.info),
            ]
        }));
    }
    let legend = Line::from(Span::styled(
        if compact {
            "TT: answered from the table · ┊: PV from stored moves"
        } else {
            "from TT: the depth cost a few nodes, its answer was stored · ┊: the PV continues \
             from stored moves"
        },
        theme.dim,
    ));
    let room = table_area.height as usize;
    if marked && room > 3 {
        rows.truncate(room - 1);
        let legend = super::scroll::clip(legend, table_area.width);
        rows.push(legend);
    }
    Paragraph::new(super::scroll::clip_all(rows, table_area.width)).render(table_area, buf);
}
