//! The strategy comparison (`c`): the current position searched again to one depth under every
//! replacement strategy and without a table, by the engine thread (`crate::engine::compare`), on
//! a table small enough that the strategies must choose; the rows fill as they arrive. Below
//! them, seed 001's experiment: nodes with and without a TT for every depth up to that depth.
//!
//! Every row is read against the best strategy (fewest nodes): nodes and time as multiples of
//! its figures, hit rate in points against its rate, replacements as a multiple; the winner is
//! marked ★ and one line says what the rows mean. `xorboard compare` prints the same rows
//! ([`text_rows`]).
//!
//! Promises: the UI thread never waits on the comparison; the engine's reports are matched by
//! id, so a cancelled run's late reports change nothing.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, LegendPosition, Widget};

use super::format;
use super::position::AnyGameExt;
use super::scroll;
use super::theme::Theme;
use crate::engine::Report;
use crate::engine::compare::{Job, Outcome, Plan, Store};
use crate::game::AnyGame;
use crate::game::{GameKind, Move};
use crate::search::score_text;

/// Where a comparison stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunState {
    Running,
    Done,
    Cancelled,
}

/// One row of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub store: Store,
    /// Live figures of the run in progress: (nodes, ms).
    pub live: Option<(u64, u64)>,
    pub outcome: Option<Outcome>,
    /// The best move found, named.
    pub best: Option<String>,
}

/// One depth of the chart: nodes without and with a TT.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    pub depth: u32,
    pub none: Option<u64>,
    pub tt: Option<u64>,
}

/// The comparison screen's model (it lives in `Mode::Compare`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareView {
    pub id: u64,
    pub kind: GameKind,
    pub plan: Plan,
    /// What was searched, in words (`Othello · 12 moves · ○ white to move`).
    pub position: String,
    pub rows: Vec<Row>,
    pub points: Vec<Point>,
    pub state: RunState,
    /// Why this depth and size (`defaults for Othello`, `asked for`, …).
    pub note: String,
    /// The game's own table in slots, to say what the comparison's pressure would be there.
    pub game_slots: usize,
    /// First line shown (the screen scrolls when it does not fit).
    pub scroll: u16,
}

impl CompareView {
    pub fn new(
        id: u64,
        kind: GameKind,
        plan: Plan,
        position: String,
        note: String,
        game_slots: usize,
    ) -> CompareView {
        CompareView {
            id,
            kind,
            rows: plan
                .rows
                .iter()
                .map(|&store| Row {
                    store,
                    live: None,
                    outcome: None,
                    best: None,
                })
                .collect(),
            points: if plan.chart.is_some() {
                (1..=plan.depth)
                    .map(|depth| Point {
                        depth,
                        none: None,
                        tt: None,
                    })
                    .collect()
            } else {
                Vec::new()
            },
            plan,
            position,
            state: RunState::Running,
            note,
            game_slots,
            scroll: 0,
        }
    }

    /// Take in one engine report; reports of another run (or not of a comparison) are ignored.
    /// Returns whether it was this run's. `name` names a move.
    pub fn absorb(&mut self, report: &Report, name: impl Fn(Move) -> String) -> bool {
        match report {
            Report::CompareProgress {
                id,
                job,
                nodes,
                elapsed_ms,
            } if *id == self.id => {
                if let Job::Row(i) = job
                    && let Some(row) = self.rows.get_mut(*i)
                    && row.outcome.is_none()
                {
                    row.live = Some((*nodes, *elapsed_ms));
                }
                true
            }
            Report::CompareRow { id, job, outcome } if *id == self.id => {
                match *job {
                    Job::Row(i) => {
                        let depth = self.plan.depth;
                        let chart = self.plan.chart;
                        if let Some(row) = self.rows.get_mut(i) {
                            row.live = None;
                            row.outcome = Some(outcome.clone());
                            row.best = outcome.best.map(&name);
                            let store = row.store;
                            if let Some(p) = self.points.iter_mut().find(|p| p.depth == depth) {
                                match store {
                                    Store::None => p.none = Some(outcome.nodes),
                                    Store::Table(pol) if Some(pol) == chart => {
                                        p.tt = Some(outcome.nodes)
                                    }
                                    Store::Table(_) => {}
                                }
                            }
                        }
                    }
                    Job::Point { depth, tt } => {
                        if let Some(p) = self.points.iter_mut().find(|p| p.depth == depth) {
                            if tt {
                                p.tt = Some(outcome.nodes);
                            } else {
                                p.none = Some(outcome.nodes);
                            }
                        }
                    }
                }
                true
            }
            Report::CompareDone { id, cancelled } if *id == self.id => {
                for row in &mut self.rows {
                    row.live = None;
                }
                self.state = if *cancelled {
                    RunState::Cancelled
                } else {
                    RunState::Done
                };
                true
            }
            _ => false,
        }
    }

    /// Rows finished so far.
    pub fn finished_rows(&self) -> usize {
        self.rows.iter().filter(|r| r.outcome.is_some()).count()
    }

    /// The finished rows' outcomes, in plan order.
    pub fn outcomes(&self) -> Vec<(Store, Option<&Outcome>)> {
        self.rows
            .iter()
            .map(|r| (r.store, r.outcome.as_ref()))
            .collect()
    }
}

// ---- the figures, shared with `xorboard compare` ----------------------------------------------

/// The winner (fewest nodes among the finished table rows) and the worst, as row indices.
pub fn best_and_worst(rows: &[(Store, Option<&Outcome>)]) -> Option<(usize, usize)> {
    let tables = rows
        .iter()
        .enumerate()
        .filter_map(|(i, (s, o))| match (s, o) {
            (Store::Table(_), Some(o)) => Some((i, o.nodes)),
            _ => None,
        });
    let best = tables.clone().min_by_key(|&(_, n)| n)?.0;
    let worst = tables.max_by_key(|&(_, n)| n)?.0;
    Some((best, worst))
}

/// The pressure of the comparison: positions stored ÷ slots, from the first finished table row.
pub fn pressure(rows: &[(Store, Option<&Outcome>)]) -> Option<f64> {
    rows.iter().find_map(|(s, o)| match (s, o) {
        (Store::Table(_), Some(o)) => Some(o.pressure()),
        _ => None,
    })
}

/// `2.4×` with one decimal below 10, none above.
pub fn times(x: f64) -> String {
    if x >= 9.95 {
        format!("{x:.0}×")
    } else {
        format!("{x:.1}×")
    }
}

/// The one-line reading of the rows.
pub fn reading(rows: &[(Store, Option<&Outcome>)]) -> Option<String> {
    let (b, w) = best_and_worst(rows)?;
    let (best, worst) = (rows[b].1?, rows[w].1?);
    let p = times(pressure(rows).unwrap_or(0.0));
    let fewer = 100.0 * (1.0 - best.nodes as f64 / worst.nodes.max(1) as f64);
    if fewer < 2.0 {
        return Some(format!(
            "at {p} pressure every strategy needs about the same nodes: the table keeps nearly \
             everything, so replacement hardly matters (a smaller table or a deeper search shows it)"
        ));
    }
    Some(format!(
        "at {p} pressure, {} needs {fewer:.0}% fewer nodes than {}: what a table keeps decides \
         what the search can skip",
        rows[b].0.name(),
        rows[w].0.name()
    ))
}

/// A difference in percentage points, `+1.8 pt`, with no sign on a rounded zero.
fn points(d: f64) -> String {
    if d.abs() < 0.05 {
        "0.0 pt".into()
    } else {
        format!("{d:+.1} pt")
    }
}

/// A ratio against the best as text: `best` for the winner itself.
fn rel(v: f64, best: f64, is_best: bool) -> String {
    if is_best {
        "best".into()
    } else if best <= 0.0 {
        "–".into()
    } else {
        times(v / best)
    }
}

/// The column heads of [`text_rows`].
pub const HEAD: [&str; 10] = [
    "strategy",
    "nodes",
    "vs best",
    "time",
    "vs best",
    "hit rate",
    "vs best",
    "replaced",
    "vs best",
    "best move",
];

/// Each row as cells (strategy, nodes, ×best, time, ×best, hit rate, points vs best,
/// replacements, ×best, best move and score). The winner's name carries ★.
pub fn text_rows(
    kind: GameKind,
    rows: &[(Store, Option<&Outcome>, Option<String>)],
) -> Vec<[String; 10]> {
    let pairs: Vec<(Store, Option<&Outcome>)> = rows.iter().map(|(s, o, _)| (*s, *o)).collect();
    let win = best_and_worst(&pairs).map(|(b, _)| b);
    let best = win.and_then(|b| pairs[b].1);
    rows.iter()
        .enumerate()
        .map(|(i, (store, o, mv))| {
            let star = if Some(i) == win { "★ " } else { "  " };
            let name = format!("{star}{}", store.name());
            let Some(o) = o else {
                return [
                    name,
                    "…".into(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                ];
            };
            let is_best = Some(i) == win;
            let table = matches!(store, Store::Table(_));
            let dash = || "–".to_string();
            let (hit, hit_rel, repl, repl_rel) = if table {
                let rate = o.hit_rate() * 100.0;
                (
                    format!("{rate:.1}%"),
                    match best {
                        _ if is_best => "best".into(),
                        Some(b) => points(rate - b.hit_rate() * 100.0),
                        None => dash(),
                    },
                    format::count(o.replacements),
                    match best {
                        _ if is_best => "best".into(),
                        Some(b) if b.replacements == 0 => {
                            if o.replacements == 0 {
                                times(1.0)
                            } else {
                                "more".into()
                            }
                        }
                        Some(b) => times(o.replacements as f64 / b.replacements as f64),
                        None => dash(),
                    },
                )
            } else {
                (dash(), dash(), dash(), dash())
            };
            [
                name,
                format::count(o.nodes),
                best.map_or_else(dash, |b| rel(o.nodes as f64, b.nodes as f64, is_best)),
                format::millis(o.elapsed_ms),
                best.map_or_else(dash, |b| {
                    rel(
                        o.elapsed_ms.max(1) as f64,
                        b.elapsed_ms.max(1) as f64,
                        is_best,
                    )
                }),
                hit,
                hit_rel,
                repl,
                repl_rel,
                format!(
                    "{} {}",
                    mv.clone().unwrap_or_else(|| "–".into()),
                    score_text(kind, o.score)
                ),
            ]
        })
        .collect()
}

/// Column widths of [`text_rows`] (right-aligned except the first and last).
pub const WIDTHS: [usize; 10] = [11, 7, 7, 7, 6, 8, 8, 8, 7, 10];

/// A row of cells laid out in the widths of [`WIDTHS`].
pub fn layout_row(cells: &[String; 10]) -> String {
    layout_row_in(cells, usize::MAX)
}

/// Width of a full row.
pub fn full_width() -> usize {
    WIDTHS.iter().sum::<usize>() + 8 + 2
}

/// A row for `width` columns: all of it, or on narrow screens without the time's ratio and
/// the best move (the nodes, hit rate and replacements against the best always stay).
pub fn layout_row_in(cells: &[String; 10], width: usize) -> String {
    let narrow = width < full_width();
    let mut s = String::new();
    for (i, (c, w)) in cells.iter().zip(WIDTHS).enumerate() {
        match i {
            0 => s.push_str(&format!("{c:<w$}")),
            4 | 9 if narrow => {}
            9 => s.push_str(&format!("  {c}")),
            _ => s.push_str(&format!(" {c:>w$}")),
        }
    }
    s.trim_end().to_string()
}

/// A description of a position for the comparison's title.
pub fn describe(game: &AnyGame) -> String {
    let side = game.side_to_move();
    let n = game.history().len();
    format!(
        "{} · {} · {} {} to move",
        game.label(),
        format::plural(n as u64, "move", "moves"),
        super::position::stone_glyph(side),
        side.name()
    )
}

/// The table-size line: slots, pressure, and what the game's own table would give.
pub fn size_line(plan: &Plan, pressure: Option<f64>, game_slots: usize) -> String {
    let slots = plan.slots();
    let mut s = format!(
        "table {} KiB = {} slots, fresh for every row",
        plan.kib,
        format::thousands(slots as u64),
    );
    if let Some(p) = pressure {
        s.push_str(&format!(
            " · pressure {} (positions stored ÷ slots)",
            times(p)
        ));
        if game_slots > 0 {
            let there = p * slots as f64 / game_slots as f64;
            s.push_str(&format!(
                " · in the game's {}-slot table it would be {}",
                format::count(game_slots as u64),
                if there < 0.1 {
                    "under 0.1×".to_string()
                } else {
                    times(there)
                }
            ));
        }
    }
    s
}

// ---- drawing ---------------------------------------------------------------------------------

/// The screen's lines (the table, the reading, the by-depth table) for `width` columns.
fn lines(view: &CompareView, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let outcomes = view.outcomes();
    let mut lines = vec![
        Line::from(Span::styled(
            format!("depth {} · {}", view.plan.depth, view.note),
            theme.dim,
        )),
        Line::from(Span::styled(
            size_line(&view.plan, pressure(&outcomes), view.game_slots),
            theme.dim,
        )),
        Line::default(),
    ];
    let head: [String; 10] = HEAD.map(String::from);
    lines.push(Line::from(Span::styled(
        layout_row_in(&head, width),
        theme.label,
    )));
    let rows: Vec<(Store, Option<&Outcome>, Option<String>)> = view
        .rows
        .iter()
        .map(|r| (r.store, r.outcome.as_ref(), r.best.clone()))
        .collect();
    let win = best_and_worst(&outcomes).map(|(b, _)| b);
    for (i, (row, cells)) in view
        .rows
        .iter()
        .zip(text_rows(view.kind, &rows))
        .enumerate()
    {
        let line = match (&row.outcome, row.live) {
            (Some(_), _) => Line::from(Span::styled(
                layout_row_in(&cells, width),
                if Some(i) == win {
                    theme.good
                } else {
                    theme.info
                },
            )),
            (None, Some((nodes, ms))) => Line::from(Span::styled(
                format!(
                    "  {:<9} {:>7}         {:>7}   searching…",
                    row.store.name(),
                    format::count(nodes),
                    format::millis(ms)
                ),
                theme.busy,
            )),
            (None, None) => Line::from(Span::styled(
                format!(
                    "  {:<9} {}",
                    row.store.name(),
                    match view.state {
                        RunState::Running => "waiting",
                        _ => "not run",
                    }
                ),
                theme.dim,
            )),
        };
        lines.push(line);
    }
    lines.push(Line::default());
    if let Some(r) = reading(&outcomes) {
        lines.push(Line::from(Span::styled(r, theme.value)));
    } else if view.state == RunState::Running {
        lines.push(Line::from(Span::styled(
            "the reading comes when the rows are in",
            theme.dim,
        )));
    }
    lines.push(Line::from(Span::styled(
        "vs best: nodes and time as multiples of the winner's (★, fewest nodes), hit rate in \
         points against its rate, replaced = stores that evicted another position",
        theme.dim,
    )));
    if let Some(policy) = view.plan.chart {
        lines.push(Line::default());
        lines.push(Line::from(Span::styled(
            format!("by depth (seed 001) · {} vs no TT", policy.name()),
            theme.title,
        )));
        lines.push(Line::from(Span::styled(
            format!("{:>5} {:>9} {:>9} {:>8}", "depth", "no TT", "TT", "TT/none"),
            theme.label,
        )));
        let cell = |v: Option<u64>| v.map_or("…".to_string(), format::count);
        for p in &view.points {
            let ratio = match (p.none, p.tt) {
                (Some(n), Some(t)) => format!("{:.0}%", t as f64 * 100.0 / n.max(1) as f64),
                _ => String::new(),
            };
            lines.push(Line::from(Span::styled(
                format!(
                    "{:>5} {:>9} {:>9} {:>8}",
                    p.depth,
                    cell(p.none),
                    cell(p.tt),
                    ratio
                ),
                theme.info,
            )));
        }
    }
    lines
}

/// Draw the comparison screen over `area` (it clears what is beneath); returns the largest
/// scroll offset (0 when everything fits).
pub fn render(view: &CompareView, area: Rect, buf: &mut Buffer, theme: &Theme) -> u16 {
    if area.width < 20 || area.height < 5 {
        return 0;
    }
    let state = match view.state {
        RunState::Running => format!("running {}/{}", view.finished_rows(), view.rows.len()),
        RunState::Done => "done".to_string(),
        RunState::Cancelled => "cancelled".to_string(),
    };
    let keys = match view.state {
        RunState::Running => "Esc cancel · c close · ↑↓ scroll",
        _ => "Esc close · r again · [ ] size · - + depth · ↑↓ scroll",
    };
    let title = format!(
        " Compare · depth {} · {} · {} ",
        view.plan.depth, view.position, state
    );
    // Too long for the frame (Gomoku at 80 columns): the state comes before the position, so
    // the cut at the end takes words of the position, never the state.
    let title = if unicode_width::UnicodeWidthStr::width(title.as_str()) + 2 > area.width as usize {
        format!(
            " Compare · depth {} · {} · {} ",
            view.plan.depth, state, view.position
        )
    } else {
        title
    };
    let inner = theme.overlay(
        area,
        buf,
        title,
        if view.state == RunState::Running {
            theme.busy
        } else {
            theme.title
        },
    );
    if inner.height < 2 {
        return 0;
    }
    let body = Rect {
        height: inner.height - 1,
        ..inner
    };
    let lines = scroll::wrap(lines(view, body.width as usize, theme), body.width);
    let chart_room = body.height.saturating_sub(lines.len() as u16);
    let max = scroll::render(&lines, body, buf, view.scroll, theme);
    // The chart only where the table leaves room for it (large screens).
    if chart_room >= 10 && body.width >= 60 && view.plan.chart.is_some() {
        let chart_area = Rect {
            y: body.y + lines.len() as u16 + 1,
            height: chart_room - 1,
            ..body
        };
        render_chart(view, chart_area, buf, theme);
    }
    buf.set_stringn(
        inner.x,
        inner.bottom() - 1,
        scroll::elide(keys, inner.width as usize),
        inner.width as usize,
        theme.keys,
    );
    max
}

/// Seed 001's chart: nodes without and with a TT by depth (log scale).
fn render_chart(view: &CompareView, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let log = |n: u64| (n.max(1) as f64).log10();
    let none: Vec<(f64, f64)> = view
        .points
        .iter()
        .filter_map(|p| p.none.map(|n| (p.depth as f64, log(n))))
        .collect();
    let tt: Vec<(f64, f64)> = view
        .points
        .iter()
        .filter_map(|p| p.tt.map(|n| (p.depth as f64, log(n))))
        .collect();
    let top = none
        .iter()
        .chain(&tt)
        .map(|&(_, y)| y)
        .fold(1.0f64, f64::max)
        .ceil();
    let pow = |e: f64| format::count(10f64.powf(e).round() as u64);
    let d = view.plan.depth.max(2) as f64;
    let name = view.plan.chart.map_or("TT", |p| p.name());
    let chart = Chart::new(vec![
        Dataset::default()
            .name("no TT")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.bad)
            .data(&none),
        Dataset::default()
            .name(format!("TT ({name})"))
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.good)
            .data(&tt),
    ])
    .legend_position(Some(LegendPosition::TopLeft))
    .x_axis(
        Axis::default()
            .title(Span::styled("depth", theme.label))
            .style(theme.dim)
            .bounds([1.0, d])
            .labels([
                Span::styled("1", theme.label),
                Span::styled(format!("{}", (1.0 + d) as u32 / 2), theme.label),
                Span::styled(format!("{}", d as u32), theme.label),
            ]),
    )
    .y_axis(
        Axis::default()
            .title(Span::styled("nodes (log)", theme.label))
            .style(theme.dim)
            .bounds([0.0, top])
            .labels([
                Span::styled("1", theme.label),
                Span::styled(pow((top / 2.0).round()), theme.label),
                Span::styled(pow(top), theme.label),
            ]),
    );
    chart.render(area, buf);
}
