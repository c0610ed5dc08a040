//! The engine worker thread: the only way the UI and the protocols reach the search.
//!
//! [`Engine::spawn`] starts a thread that owns one searcher per game and shares one
//! [`tt::Table`](crate::tt::Table) between them. The handle sends [`Command`]s and receives
//! [`Report`]s; the worker never waits on the receiver:
//! - progress snapshots go out at most every ~30 ms with `try_send` on a bounded channel (a full
//!   channel drops the snapshot — the next one carries cumulative counters), keeping a few slots
//!   free so `Done` and `Error` reports get through;
//! - [`Engine::stop`] sets the running search's stop flag directly, so a search ends within a few
//!   milliseconds whatever the worker is doing;
//! - [`Engine::set_policy`] and [`Engine::set_check_bits`] act on the shared table at once, even
//!   mid-search; a new table size or a clear waits until the running search has stopped.
//!
//! Dropping the handle stops the search, sends `Quit` and joins the thread.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, TrySendError, bounded, unbounded};

pub mod compare;

use crate::game::gomoku::Gomoku;
use crate::game::othello::Othello;
use crate::search::{Limits, MAX_THREADS, ProbCutConfidence, SearchStats, Searcher};
use crate::tt::{MAX_CHECK_BITS, MIN_CHECK_BITS, Policy, Table, TtStats};

/// A position of either game (the same type as the commands' `AnyGame`).
pub type Position = crate::game::AnyGame;

/// What the handle asks of the worker.
#[derive(Clone, Debug)]
pub enum Command {
    /// Search `position` within `limits`; answered by `Progress` reports then one `Done`.
    Search {
        id: u64,
        position: Position,
        limits: Limits,
    },
    /// Stop the running search (it still answers `Done` with its best move so far).
    Stop,
    SetPolicy(Policy),
    /// Replace the table by a new one of this many MiB (the contents are lost).
    SetTtMib(usize),
    SetCheckBits(u32),
    /// Empty the table and zero its counters.
    Clear,
    /// Search with this many threads (Lazy SMP, clamped to 1..=64); from the next search on.
    SetThreads(usize),
    /// Multi-ProbCut's confidence, or off; from the next search on.
    SetProbCut(Option<ProbCutConfidence>),
    /// Othello's win/loss/draw solves at the root's moves, on or off; from the next search on.
    SetWinLossDraw(bool),
    /// Othello's probable result solves before those, in plies; from the next search on.
    SetEarlyResultPlies(u8),
    /// Compare replacement strategies on `position` (see [`compare`]): answered by
    /// `CompareProgress` and `CompareRow` reports, then one `CompareDone`. A search or a stop
    /// cancels it. The game's own table is not touched: every row gets a fresh small table.
    Compare {
        id: u64,
        position: Position,
        plan: compare::Plan,
    },
    Quit,
}

/// What the worker tells the handle.
#[derive(Clone, Debug)]
pub enum Report {
    /// A snapshot of a running search.
    Progress {
        id: u64,
        search: SearchStats,
        tt: TtStats,
    },
    /// The search ended (by its limits or by a stop); `search.best` is the move to play.
    Done {
        id: u64,
        search: SearchStats,
        tt: TtStats,
    },
    /// A running comparison job's live figures.
    CompareProgress {
        id: u64,
        job: compare::Job,
        nodes: u64,
        elapsed_ms: u64,
    },
    /// A comparison job finished.
    CompareRow {
        id: u64,
        job: compare::Job,
        outcome: compare::Outcome,
    },
    /// Every job of the comparison is done, or it was cancelled.
    CompareDone {
        id: u64,
        cancelled: bool,
    },
    Error(String),
}

/// Largest table accepted, in MiB.
pub const MAX_TT_MIB: usize = 1 << 16;
/// Report channel capacity, and how many of its slots progress reports leave free.
const REPORTS: usize = 64;
const RESERVED: usize = 8;

/// State the handle and the worker share: the current table and the settings new tables get.
struct Shared {
    table: Mutex<Arc<Table>>,
    stop: Mutex<Arc<AtomicBool>>,
}

impl Shared {
    fn table(&self) -> Arc<Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

enum Msg {
    Search {
        id: u64,
        position: Position,
        limits: Limits,
        stop: Arc<AtomicBool>,
    },
    SetTtMib(usize),
    SetThreads(usize),
    SetProbCut(Option<ProbCutConfidence>),
    SetWinLossDraw(bool),
    SetEarlyResultPlies(u8),
    Clear,
    Compare {
        id: u64,
        position: Position,
        plan: compare::Plan,
        stop: Arc<AtomicBool>,
    },
    Quit,
}

/// The handle of the engine thread.
pub struct Engine {
    commands: Sender<Msg>,
    reports: Receiver<Report>,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Engine {
    /// Start the worker with a table of `tt_mib` MiB (clamped to 1..=65536), `policy` and
    /// `check_bits` (clamped to 8..=64).
    pub fn spawn(tt_mib: usize, policy: Policy, check_bits: u32) -> Engine {
        let table = fresh_table(
            tt_mib.clamp(1, MAX_TT_MIB),
            policy,
            check_bits.clamp(MIN_CHECK_BITS, MAX_CHECK_BITS),
        );
        let shared = Arc::new(Shared {
            table: Mutex::new(table),
            stop: Mutex::new(Arc::new(AtomicBool::new(false))),
        });
        let (ctx, crx) = unbounded();
        let (rtx, rrx) = bounded(REPORTS);
        let worker_shared = shared.clone();
        let thread = std::thread::Builder::new()
            .name("xorboard-engine".into())
            .spawn(move || worker(crx, rtx, worker_shared))
            .expect("spawn the engine thread");
        Engine {
            commands: ctx,
            reports: rrx,
            shared,
            thread: Some(thread),
        }
    }

    /// Send any command (the methods below are shorthands).
    pub fn send(&self, c: Command) {
        match c {
            Command::Search {
                id,
                position,
                limits,
            } => self.search(id, position, limits),
            Command::Stop => self.stop(),
            Command::SetPolicy(p) => self.set_policy(p),
            Command::SetTtMib(m) => self.set_tt_mib(m),
            Command::SetCheckBits(b) => self.set_check_bits(b),
            Command::Clear => self.clear(),
            Command::SetThreads(n) => self.set_threads(n),
            Command::SetProbCut(c) => self.set_probcut(c),
            Command::SetWinLossDraw(on) => self.set_win_loss_draw(on),
            Command::SetEarlyResultPlies(n) => self.set_early_result_plies(n),
            Command::Compare { id, position, plan } => self.compare(id, position, plan),
            Command::Quit => {
                self.stop();
                let _ = self.commands.send(Msg::Quit);
            }
        }
    }

    /// Search a position; a running search is stopped first (it still answers `Done`).
    pub fn search(&self, id: u64, position: Position, limits: Limits) {
        let stop = self.fresh_stop();
        let _ = self.commands.send(Msg::Search {
            id,
            position,
            limits,
            stop,
        });
    }

    /// Compare the replacement strategies on a position (a running search or comparison is
    /// stopped first). Rows arrive as `CompareRow` reports, then `CompareDone`.
    pub fn compare(&self, id: u64, position: Position, plan: compare::Plan) {
        let stop = self.fresh_stop();
        let _ = self.commands.send(Msg::Compare {
            id,
            position,
            plan,
            stop,
        });
    }

    /// Stop whatever runs and hand out the flag of the next job.
    fn fresh_stop(&self) -> Arc<AtomicBool> {
        let flag = Arc::new(AtomicBool::new(false));
        let mut cur = self.shared.stop.lock().unwrap_or_else(|e| e.into_inner());
        cur.store(true, Relaxed);
        *cur = flag.clone();
        flag
    }

    /// Stop the running search at once.
    pub fn stop(&self) {
        self.shared
            .stop
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .store(true, Relaxed);
    }

    /// Switch the replacement policy; effective immediately, even mid-search.
    pub fn set_policy(&self, p: Policy) {
        self.shared
            .table
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .set_policy(p);
    }

    /// Use a new table of `mib` MiB (clamped to 1..=65536); the running search is stopped.
    pub fn set_tt_mib(&self, mib: usize) {
        self.stop();
        let _ = self.commands.send(Msg::SetTtMib(mib.clamp(1, MAX_TT_MIB)));
    }

    /// Accept hits on this many check bits (clamped to 8..=64); effective immediately.
    pub fn set_check_bits(&self, bits: u32) {
        self.shared
            .table
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .set_check_bits(bits);
    }

    /// Search with `n` threads from the next search on (clamped to 1..=64).
    pub fn set_threads(&self, n: usize) {
        let _ = self.commands.send(Msg::SetThreads(n.clamp(1, MAX_THREADS)));
    }

    /// Multi-ProbCut with this confidence, or off, from the next search on.
    pub fn set_probcut(&self, confidence: Option<ProbCutConfidence>) {
        let _ = self.commands.send(Msg::SetProbCut(confidence));
    }

    /// Othello's win/loss/draw solves at the root's moves near the end, on or off, from the
    /// next search on (see [`SearchOptions::win_loss_draw`](crate::search::SearchOptions)).
    pub fn set_win_loss_draw(&self, on: bool) {
        let _ = self.commands.send(Msg::SetWinLossDraw(on));
    }

    /// Othello's probable result solves this many plies before the win/loss/draw ones, from
    /// the next search on (see
    /// [`SearchOptions::early_result_plies`](crate::search::SearchOptions)).
    pub fn set_early_result_plies(&self, plies: u8) {
        let _ = self.commands.send(Msg::SetEarlyResultPlies(plies));
    }

    /// Empty the table and zero its counters (after stopping the running search).
    pub fn clear(&self) {
        self.stop();
        let _ = self.commands.send(Msg::Clear);
    }

    /// The next report, if one is waiting. Never blocks.
    pub fn try_recv(&self) -> Option<Report> {
        self.reports.try_recv().ok()
    }

    /// The next report, waiting at most `d`. If the worker thread is gone (it panicked), an
    /// [`Report::Error`] saying so, at once: a caller polling for a search's end must not wait
    /// (or spin) forever for a report that cannot come.
    pub fn recv_timeout(&self, d: Duration) -> Option<Report> {
        match self.reports.recv_timeout(d) {
            Ok(r) => Some(r),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                Some(Report::Error("the engine thread has stopped".into()))
            }
        }
    }

    /// (policy, MiB, check bits) of the current table.
    pub fn tt_info(&self) -> (Policy, usize, u32) {
        let t = self.shared.table();
        (t.policy(), t.mib(), t.check_bits())
    }

    /// A snapshot of the table's counters (what the last report carried, or newer).
    pub fn tt_stats(&self) -> TtStats {
        self.shared.table().stats()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        let _ = self.commands.send(Msg::Quit);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The engine's table, its pages mapped in the background ([`Table::prefault_in_background`]):
/// a search can start on it at once.
fn fresh_table(mib: usize, policy: Policy, check_bits: u32) -> Arc<Table> {
    let table = Arc::new(Table::new(mib, policy, check_bits));
    // The mapping thread runs on by itself; nothing waits for it.
    drop(table.prefault_in_background());
    table
}

fn worker(commands: Receiver<Msg>, reports: Sender<Report>, shared: Arc<Shared>) {
    let mut table = shared.table();
    let mut othello: Searcher<Othello> = Searcher::new(table.clone());
    let mut gomoku: Searcher<Gomoku> = Searcher::new(table.clone());
    while let Ok(msg) = commands.recv() {
        match msg {
            Msg::Quit => break,
            Msg::SetTtMib(mib) => {
                let mut slot = shared.table.lock().unwrap_or_else(|e| e.into_inner());
                let old = slot.clone();
                let fresh = fresh_table(mib, old.policy(), old.check_bits());
                *slot = fresh.clone();
                drop(slot);
                drop(old);
                table = fresh;
                othello.set_store(crate::search::TtStore::Table(table.clone()));
                gomoku.set_store(crate::search::TtStore::Table(table.clone()));
            }
            Msg::SetThreads(n) => {
                othello.set_threads(n);
                gomoku.set_threads(n);
            }
            Msg::SetProbCut(c) => {
                othello.set_probcut(c);
                gomoku.set_probcut(c);
            }
            Msg::SetWinLossDraw(on) => othello.set_win_loss_draw(on),
            Msg::SetEarlyResultPlies(n) => othello.set_early_result_plies(n),
            Msg::Clear => {
                table.clear();
                othello.reset_ordering();
                gomoku.reset_ordering();
            }
            Msg::Compare {
                id,
                position,
                plan,
                stop,
            } => {
                let mut send = |e: compare::Event, must: bool| {
                    let r = match e {
                        compare::Event::Progress {
                            job,
                            nodes,
                            elapsed_ms,
                        } => Report::CompareProgress {
                            id,
                            job,
                            nodes,
                            elapsed_ms,
                        },
                        compare::Event::Done { job, outcome } => {
                            Report::CompareRow { id, job, outcome }
                        }
                    };
                    if must {
                        send_or_stop(&reports, r, &stop)
                    } else if reports.len() + RESERVED < REPORTS {
                        !matches!(reports.try_send(r), Err(TrySendError::Disconnected(_)))
                    } else {
                        true
                    }
                };
                let cancelled =
                    crate::with_game!(&position, g => compare::run(g, &plan, &stop, &mut send));
                if let Err(TrySendError::Disconnected(_)) =
                    reports.try_send(Report::CompareDone { id, cancelled })
                {
                    break;
                }
            }
            Msg::Search {
                id,
                position,
                limits,
                stop,
            } => {
                let t = table.clone();
                let mut progress = |s: &SearchStats| {
                    if reports.len() + RESERVED < REPORTS {
                        let _ = reports.try_send(Report::Progress {
                            id,
                            search: s.clone(),
                            tt: t.stats(),
                        });
                    }
                };
                let result = match &position {
                    Position::Othello(g) => othello.search(g, &limits, &stop, &mut progress),
                    Position::Gomoku(g) => gomoku.search(g, &limits, &stop, &mut progress),
                };
                let done = Report::Done {
                    id,
                    search: result,
                    tt: table.stats(),
                };
                if let Err(TrySendError::Disconnected(_)) = reports.try_send(done) {
                    break;
                }
            }
        }
    }
}

/// Send a report that must arrive (a comparison row): waits for room while nobody stops the job;
/// false when the receiver is gone or the job was stopped (a stopped job's rows are not wanted).
fn send_or_stop(reports: &Sender<Report>, mut r: Report, stop: &AtomicBool) -> bool {
    loop {
        match reports.send_timeout(r, Duration::from_millis(20)) {
            Ok(()) => return true,
            Err(crossbeam_channel::SendTimeoutError::Disconnected(_)) => return false,
            Err(crossbeam_channel::SendTimeoutError::Timeout(back)) => {
                if stop.load(Relaxed) {
                    return false;
                }
                r = back;
            }
        }
    }
}
