//! The strategy comparison (`c`): the current position searched again to one depth under every
//! replacement strategy and without a table, on a background thread, with the results filling a
//! table as they arrive; and seed 001's experiment beside it — nodes with and without a TT for
//! every depth from 1 to that depth, as a chart.
//!
//! Method (as `xorboard bench` does): every run uses a fresh [`Searcher`] (no move-ordering
//! history carried over) and an emptied table, so node counts depend only on the position, the
//! depth and the strategy, and two runs of the same comparison give the same nodes. One table of
//! at most [`MAX_MIB`] MiB is allocated for the whole comparison and cleared between runs, which
//! keeps the process within its memory budget beside the game's own table.
//!
//! Promises: the UI thread never waits on the comparison — [`CompareRun`] hands reports over a
//! channel drained with `try_recv`; [`CompareRun::cancel`] (and dropping the handle) sets the stop
//! flag the search polls every 1024 nodes, and a run cut short reports nothing for that row.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use crossbeam_channel::{Receiver, Sender, TrySendError, bounded};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, LegendPosition, Paragraph, Widget};

use super::format;
use super::position::AnyGameExt;
use super::theme::Theme;
use crate::game::AnyGame;
use crate::game::GameKind;
use crate::search::{Limits, SearchStats, Searchable, Searcher, TtStore, score_text};
use crate::tt::{Policy, Table, TtStats};
use crate::with_game;

/// Largest table a comparison allocates, in MiB (the game's own size if smaller).
pub const MAX_MIB: usize = 16;
/// Depth used when no search has run yet, and the most a default may reach.
pub fn default_depth(kind: GameKind) -> u32 {
    match kind {
        GameKind::Othello => 8,
        GameKind::Gomoku => 4,
    }
}
/// Deepest comparison a default picks from the last search (deeper ones are asked for by
/// `:compare N`): the row without a TT grows fast.
pub fn default_cap(kind: GameKind) -> u32 {
    match kind {
        GameKind::Othello => 10,
        GameKind::Gomoku => 6,
    }
}
/// Deepest comparison accepted at all (as `bench`).
pub fn max_depth(kind: GameKind) -> u32 {
    match kind {
        GameKind::Othello => 14,
        GameKind::Gomoku => 10,
    }
}

/// What one row searches with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Store {
    /// The fixed table under this strategy.
    Table(Policy),
    /// No transposition table at all.
    None,
}

impl Store {
    pub fn name(self) -> &'static str {
        match self {
            Store::Table(p) => p.name(),
            Store::None => "no TT",
        }
    }
}

/// One unit of work of the background thread.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Job {
    /// Row `i` of the table (at the comparison's depth).
    Row(usize),
    /// A point of the by-depth chart: this depth, with the chart's strategy or without a TT.
    Point { depth: u32, tt: bool },
}

/// The figures of one finished run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub probes: u64,
    pub hits: u64,
    pub replacements: u64,
    pub false_matches: u64,
    pub best: Option<String>,
    pub score: String,
}

impl Outcome {
    fn new(
        kind: GameKind,
        s: &SearchStats,
        tt: &TtStats,
        name: impl Fn(&SearchStats) -> Option<String>,
    ) -> Outcome {
        Outcome {
            nodes: s.nodes,
            elapsed_ms: s.elapsed_ms,
            probes: tt.probes,
            hits: tt.hits,
            replacements: tt.replacements,
            false_matches: tt.false_matches,
            best: name(s),
            score: score_text(kind, s.score),
        }
    }
}

/// What the background thread tells the UI.
#[derive(Clone, Debug)]
pub enum CompareReport {
    /// A running job's live figures.
    Progress {
        id: u64,
        job: Job,
        nodes: u64,
        elapsed_ms: u64,
    },
    /// A job finished its depth.
    Done { id: u64, job: Job, outcome: Outcome },
    /// Every job is done, or the run was cancelled.
    Finished { id: u64, cancelled: bool },
}

/// What to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub depth: u32,
    pub mib: usize,
    pub check_bits: u32,
    /// The strategy of the chart's "with a TT" line.
    pub chart_policy: Policy,
    pub rows: Vec<Store>,
}

impl Plan {
    /// Every strategy, then no TT, at `depth`; the chart with `chart_policy`.
    pub fn new(depth: u32, mib: usize, check_bits: u32, chart_policy: Policy) -> Plan {
        let mut rows: Vec<Store> = Policy::ALL.iter().map(|&p| Store::Table(p)).collect();
        rows.push(Store::None);
        Plan {
            depth,
            mib: mib.clamp(1, MAX_MIB),
            check_bits,
            chart_policy,
            rows,
        }
    }

    /// The jobs in the order they run: the table's rows, then the chart's smaller depths (its
    /// last depth comes from the rows).
    pub fn jobs(&self) -> Vec<Job> {
        let mut jobs: Vec<Job> = (0..self.rows.len()).map(Job::Row).collect();
        for depth in 1..self.depth {
            jobs.push(Job::Point { depth, tt: false });
            jobs.push(Job::Point { depth, tt: true });
        }
        jobs
    }
}

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
}

/// One depth of the chart: nodes without and with a TT.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    pub depth: u32,
    pub none: Option<u64>,
    pub tt: Option<u64>,
}

/// The comparison screen's model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareView {
    pub id: u64,
    pub plan: Plan,
    /// What was searched, in words (`Othello, 12 moves, ○ to move`).
    pub position: String,
    pub rows: Vec<Row>,
    pub points: Vec<Point>,
    pub state: RunState,
    /// Why this depth (`the last search's depth`, `asked for`, …).
    pub depth_note: String,
}

impl CompareView {
    pub fn new(id: u64, plan: Plan, position: String, depth_note: String) -> CompareView {
        CompareView {
            id,
            rows: plan
                .rows
                .iter()
                .map(|&store| Row {
                    store,
                    live: None,
                    outcome: None,
                })
                .collect(),
            points: (1..=plan.depth)
                .map(|depth| Point {
                    depth,
                    none: None,
                    tt: None,
                })
                .collect(),
            plan,
            position,
            state: RunState::Running,
            depth_note,
        }
    }

    /// Take in one report; reports of another run are ignored. Returns whether it was this run's.
    pub fn absorb(&mut self, report: &CompareReport) -> bool {
        match report {
            CompareReport::Progress {
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
            CompareReport::Done { id, job, outcome } if *id == self.id => {
                match *job {
                    Job::Row(i) => {
                        let depth = self.plan.depth;
                        let chart = self.plan.chart_policy;
                        if let Some(row) = self.rows.get_mut(i) {
                            row.live = None;
                            row.outcome = Some(outcome.clone());
                            let store = row.store;
                            if let Some(p) = self.points.iter_mut().find(|p| p.depth == depth) {
                                match store {
                                    Store::None => p.none = Some(outcome.nodes),
                                    Store::Table(pol) if pol == chart => p.tt = Some(outcome.nodes),
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
            CompareReport::Finished { id, cancelled } if *id == self.id => {
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

    /// The row without a TT, when it has finished.
    fn none_nodes(&self) -> Option<u64> {
        self.rows
            .iter()
            .find(|r| r.store == Store::None)
            .and_then(|r| r.outcome.as_ref())
            .map(|o| o.nodes)
    }

    /// Rows finished so far.
    pub fn finished_rows(&self) -> usize {
        self.rows.iter().filter(|r| r.outcome.is_some()).count()
    }
}

/// The handle of a running comparison. Dropping it cancels the run.
pub struct CompareRun {
    pub id: u64,
    stop: Arc<AtomicBool>,
    reports: Receiver<CompareReport>,
}

impl CompareRun {
    /// Start the background thread on a copy of `position`.
    pub fn start(id: u64, position: AnyGame, plan: Plan) -> Result<CompareRun, String> {
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = bounded(256);
        let flag = stop.clone();
        std::thread::Builder::new()
            .name("xorboard-compare".into())
            .spawn(move || {
                with_game!(&position, g => run_plan(g, &plan, id, &flag, &tx));
            })
            .map_err(|e| format!("cannot start the comparison thread: {e}"))?;
        Ok(CompareRun {
            id,
            stop,
            reports: rx,
        })
    }

    /// Stop at once (the running search ends within a few milliseconds).
    pub fn cancel(&self) {
        self.stop.store(true, Relaxed);
    }

    /// The next report, if one is waiting. Never blocks.
    pub fn try_recv(&self) -> Option<CompareReport> {
        self.reports.try_recv().ok()
    }
}

impl Drop for CompareRun {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// The background thread's work: every job of the plan in order, until done or stopped.
fn run_plan<G: Searchable>(
    game: &G,
    plan: &Plan,
    id: u64,
    stop: &AtomicBool,
    tx: &Sender<CompareReport>,
) {
    let table = Arc::new(Table::new(plan.mib, plan.chart_policy, plan.check_bits));
    let kind = game.kind();
    let mut cancelled = false;
    for job in plan.jobs() {
        if stop.load(Relaxed) {
            cancelled = true;
            break;
        }
        let (store, depth) = match job {
            Job::Row(i) => (plan.rows[i], plan.depth),
            Job::Point { depth, tt: true } => (Store::Table(plan.chart_policy), depth),
            Job::Point { depth, tt: false } => (Store::None, depth),
        };
        let tt_store = match store {
            Store::Table(p) => {
                table.clear();
                table.set_policy(p);
                TtStore::Table(table.clone())
            }
            Store::None => TtStore::None,
        };
        let mut searcher: Searcher<G> = Searcher::with_store(tt_store);
        let mut progress = |s: &SearchStats| {
            // A full channel drops the snapshot; the next one carries the same counters.
            let _ = tx.try_send(CompareReport::Progress {
                id,
                job,
                nodes: s.nodes,
                elapsed_ms: s.elapsed_ms,
            });
        };
        let stats = searcher.search(game, &Limits::depth(depth), stop, &mut progress);
        if stop.load(Relaxed) {
            cancelled = true;
            break;
        }
        let tt = searcher.tt_stats();
        let outcome = Outcome::new(kind, &stats, &tt, |s| s.best.map(|m| game.move_name(m)));
        if send(tx, CompareReport::Done { id, job, outcome }).is_err() {
            return;
        }
    }
    let _ = send(tx, CompareReport::Finished { id, cancelled });
}

/// Send a report that must arrive (results, the end): waits for room, fails only when the UI
/// has dropped the receiver.
fn send(tx: &Sender<CompareReport>, r: CompareReport) -> Result<(), ()> {
    match tx.try_send(r) {
        Ok(()) => Ok(()),
        Err(TrySendError::Full(r)) => tx.send(r).map_err(|_| ()),
        Err(TrySendError::Disconnected(_)) => Err(()),
    }
}

/// A description of a position for the comparison's title.
pub fn describe(game: &AnyGame) -> String {
    let side = game.side_to_move();
    format!(
        "{} · {} moves · {} {} to move",
        game.label(),
        game.history().len(),
        super::position::stone_glyph(side),
        side.name()
    )
}

// ---- drawing ---------------------------------------------------------------------------------

/// Draw the comparison screen over `area` (it clears what is beneath).
pub fn render(view: &CompareView, area: Rect, buf: &mut Buffer, theme: &Theme) {
    if area.width < 20 || area.height < 6 {
        return;
    }
    let state = match view.state {
        RunState::Running => format!("running {}/{} rows", view.finished_rows(), view.rows.len()),
        RunState::Done => "done".to_string(),
        RunState::Cancelled => "cancelled".to_string(),
    };
    let inner = theme.overlay(
        area,
        buf,
        format!(
            " Strategy comparison · depth {} · {} · {} ",
            view.plan.depth, view.position, state
        ),
        if view.state == RunState::Running {
            theme.busy
        } else {
            theme.title
        },
    );
    if inner.height < 3 {
        return;
    }
    let mut lines = vec![
        Line::from(Span::styled(
            format!("depth {}: {}", view.plan.depth, view.depth_note),
            theme.dim,
        )),
        Line::from(Span::styled(
            format!(
                "every row: a fresh search, an empty {} MiB table, {} check bits · vs none = nodes ÷ nodes without a TT",
                view.plan.mib, view.plan.check_bits
            ),
            theme.dim,
        )),
    ];
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(
        format!(
            "{:<10} {:>9} {:>8} {:>9} {:>9} {:>8} {:>12} {:>7}  {:<6} {}",
            "strategy",
            "nodes",
            "vs none",
            "time",
            "probes",
            "hit rate",
            "replacements",
            "false",
            "best",
            "score"
        ),
        theme.label,
    )));
    let none = view.none_nodes();
    for row in &view.rows {
        let name = Span::styled(format!("{:<10}", row.store.name()), theme.value);
        let line = match (&row.outcome, row.live) {
            (Some(o), _) => {
                let has_tt = row.store != Store::None;
                let dash = |show: bool, s: String| if show { s } else { "–".to_string() };
                Line::from(vec![
                    name,
                    Span::styled(
                        format!(
                            " {:>9} {:>8} {:>9} {:>9} {:>8} {:>12} {:>7}  {:<6} {}",
                            format::count(o.nodes),
                            none.map_or("…".to_string(), |n| format!(
                                "{:.2}×",
                                o.nodes as f64 / n.max(1) as f64
                            )),
                            format::millis(o.elapsed_ms),
                            dash(has_tt, format::count(o.probes)),
                            dash(has_tt, format::percent(o.hits, o.probes)),
                            dash(has_tt, format::count(o.replacements)),
                            dash(has_tt, format::count(o.false_matches)),
                            o.best.clone().unwrap_or_else(|| "–".into()),
                            o.score
                        ),
                        theme.info,
                    ),
                ])
            }
            (None, Some((nodes, ms))) => Line::from(vec![
                name,
                Span::styled(
                    format!(
                        " {:>9} {:>8} {:>9}  searching…",
                        format::count(nodes),
                        "",
                        format::millis(ms)
                    ),
                    theme.busy,
                ),
            ]),
            (None, None) => Line::from(vec![
                name,
                Span::styled(
                    match view.state {
                        RunState::Running => "         waiting",
                        _ => "         not run",
                    },
                    theme.dim,
                ),
            ]),
        };
        lines.push(line);
    }
    let table_h = lines.len() as u16;
    Paragraph::new(lines).render(
        Rect {
            height: table_h.min(inner.height),
            ..inner
        },
        buf,
    );
    let keys_h = 1;
    if inner.height <= table_h + 1 + keys_h + 3 {
        render_keys(view, inner, buf, theme);
        return;
    }
    let chart_area = Rect {
        y: inner.y + table_h + 1,
        height: inner.height - table_h - 1 - keys_h,
        ..inner
    };
    render_by_depth(view, chart_area, buf, theme);
    render_keys(view, inner, buf, theme);
}

fn render_keys(view: &CompareView, inner: Rect, buf: &mut Buffer, theme: &Theme) {
    let text = match view.state {
        RunState::Running => "Esc cancel · c close · the game waits until the comparison closes",
        _ => "Esc or c close · r run again · :compare N (from the game) for another depth",
    };
    buf.set_stringn(
        inner.x,
        inner.bottom() - 1,
        text,
        inner.width as usize,
        theme.keys,
    );
}

/// Seed 001's table and chart: nodes without and with a TT by depth.
fn render_by_depth(view: &CompareView, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let table_w = 36.min(area.width);
    let mut lines = vec![
        Line::from(Span::styled(
            format!("by depth · {} vs no TT", view.plan.chart_policy.name()),
            theme.title,
        )),
        Line::from(Span::styled(
            format!("{:>5} {:>9} {:>9} {:>8}", "depth", "no TT", "TT", "TT/none"),
            theme.label,
        )),
    ];
    let cell = |v: Option<u64>| v.map_or("…".to_string(), format::count);
    for p in &view.points {
        let ratio = match (p.none, p.tt) {
            (Some(n), Some(t)) => format!("{:.0}%", t as f64 * 100.0 / n.max(1) as f64),
            _ => String::new(),
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{:>5}", p.depth), theme.value),
            Span::styled(
                format!(" {:>9} {:>9} {:>8}", cell(p.none), cell(p.tt), ratio),
                theme.info,
            ),
        ]));
    }
    Paragraph::new(lines).render(
        Rect {
            width: table_w,
            ..area
        },
        buf,
    );
    if area.width < table_w + 24 || area.height < 6 {
        return;
    }
    let chart_area = Rect {
        x: area.x + table_w + 2,
        width: area.width - table_w - 2,
        ..area
    };
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
    let chart = Chart::new(vec![
        Dataset::default()
            .name("no TT")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.bad)
            .data(&none),
        Dataset::default()
            .name(format!("TT ({})", view.plan.chart_policy.name()))
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.good)
            .data(&tt),
    ])
    // Top left: the curves rise to the right, so the legend covers none of them.
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
    chart.render(chart_area, buf);
}
