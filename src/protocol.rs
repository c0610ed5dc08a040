//! Engine protocols on stdin/stdout: NBoard for Othello GUIs ([`nboard`]) and the Gomocup /
//! Piskvork brain protocol for Gomoku managers ([`piskvork`]).
//!
//! Each protocol is a [`Session`]: a state machine that takes one input line (or one search
//! report) and returns [`Effect`]s — lines to print, a search to start, a stop. Sessions never
//! block, never print, never panic, and leave their state unchanged when a line is refused; that
//! makes them testable line by line and fuzzable.
//!
//! [`run`] is the driver shared by both protocols. A reader thread turns stdin into lines (any
//! bytes: invalid UTF-8 is replaced, CR LF and LF both end a line) stamped with their arrival time;
//! the driver's loop hands them to the session and polls the [`Thinker`] — the engine thread in the
//! binary, a fake in tests — so that a line such as NBoard's `ping` or Piskvork's `END` is seen
//! while a search runs.

pub mod nboard;
pub mod piskvork;

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::time::{Duration, Instant};

use crate::engine::{Engine, Report};
use crate::game::AnyGame;
use crate::game::Move;
use crate::search::{Limits, SearchStats};
use crate::tt::Policy;

/// A search a session wants.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// Chosen by the session; reports carry it back.
    pub id: u64,
    pub position: AnyGame,
    /// Depth limit in plies.
    pub depth: Option<u32>,
    /// Soft time limit handed to the search.
    pub time: Option<Duration>,
    /// Hard deadline: the driver stops the search at this instant if it still runs.
    pub deadline: Option<Instant>,
}

/// A search's progress or final result, as the protocols need it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub nodes: u64,
    pub elapsed_ms: u64,
    /// From the side to move's point of view, in the engine's internal units: Othello
    /// centi-discs, Gomoku pattern points with `±(WIN − plies)` for a proven result.
    pub score: i32,
    pub best: Option<Move>,
    pub pv: Vec<Move>,
    /// The score is proven (Othello endgame solved, Gomoku win or loss found).
    pub exact: bool,
}

/// What a session asks the driver to do, in order.
#[derive(Clone, Debug)]
pub enum Effect {
    /// Print one line on stdout (and flush).
    Send(String),
    /// Print one line on stderr: a diagnostic for a person, never read by the peer program.
    Log(String),
    /// Start a search. Only one runs at a time: a session asks for the next one after `done`.
    Search(SearchRequest),
    /// Stop the running search; its `done` report still comes.
    Stop,
    /// Resize the transposition table (MiB).
    SetTtMib(usize),
    /// Use this many search threads (when the engine supports it).
    SetThreads(usize),
    /// End the session.
    Quit,
}

/// What a line that arrives during a search does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// Handle it at once (e.g. Piskvork `END`, `INFO`).
    Now,
    /// Stop the search, then handle the line after its result (e.g. NBoard `ping`).
    Interrupt,
    /// Handle it after the search ends by itself.
    Queue,
}

/// A protocol state machine.
pub trait Session {
    /// Handle one input line (without its line ending) that arrived at `at`.
    fn line(&mut self, line: &str, at: Instant) -> Vec<Effect>;
    /// A progress snapshot of search `id`.
    fn progress(&mut self, id: u64, info: &SearchInfo) -> Vec<Effect>;
    /// The final result of search `id` (also after a stop).
    fn done(&mut self, id: u64, info: &SearchInfo) -> Vec<Effect>;
    /// The id of the search the session waits for, if any.
    fn searching(&self) -> Option<u64>;
    /// What a line arriving during a search does.
    fn arrival(&self, line: &str) -> Arrival;
    /// The running search is being cut short (an [`Arrival::Interrupt`] line, or the input
    /// ended): give up any follow-up searches; the effects usually include [`Effect::Stop`].
    fn interrupt(&mut self) -> Vec<Effect>;
}

/// A report from the thinker.
#[derive(Clone, Debug)]
pub enum ThinkReport {
    Progress(u64, SearchInfo),
    Done(u64, SearchInfo),
    Error(String),
}

/// The searching side of a session: the engine thread, or a stand-in in tests.
pub trait Thinker {
    /// Start searching (any running search is stopped first).
    fn search(&mut self, request: SearchRequest);
    /// Ask the running search to stop soon; its `Done` still comes.
    fn stop(&mut self);
    /// The next report, waiting at most `wait`.
    fn poll(&mut self, wait: Duration) -> Option<ThinkReport>;
    fn set_tt_mib(&mut self, mib: usize);
    fn set_threads(&mut self, threads: usize);
}

impl SearchInfo {
    /// The protocol's view of the engine's statistics.
    pub fn from_stats(s: &SearchStats) -> SearchInfo {
        SearchInfo {
            depth: s.depth,
            nodes: s.nodes,
            elapsed_ms: s.elapsed_ms,
            score: s.raw_score,
            best: s.best,
            pv: s.pv.clone(),
            exact: s.exact,
        }
    }
}

/// The real thinker: xorboard's engine thread ([`crate::engine::Engine`]).
///
/// The thread and its table can be started lazily: then the first [`Thinker::set_tt_mib`]
/// (Piskvork's `INFO max_memory`, which comes before any move) or the first search starts it with
/// the right size, so the process never holds a table larger than the peer allowed.
pub struct EngineThinker {
    engine: Option<Engine>,
    tt_mib: usize,
    policy: Policy,
    threads: usize,
}

impl EngineThinker {
    /// Start the engine thread now, with a table of `tt_mib` MiB.
    pub fn spawn(tt_mib: usize, policy: Policy) -> EngineThinker {
        let mut t = EngineThinker::lazy(tt_mib, policy);
        t.engine();
        t
    }

    /// Start the engine thread when it is first needed.
    pub fn lazy(tt_mib: usize, policy: Policy) -> EngineThinker {
        EngineThinker {
            engine: None,
            tt_mib: tt_mib.max(1),
            policy,
            threads: 1,
        }
    }

    /// The engine, started if it was not yet.
    pub fn engine(&mut self) -> &Engine {
        let (mib, policy, threads) = (self.tt_mib, self.policy, self.threads);
        self.engine.get_or_insert_with(|| {
            let e = Engine::spawn(mib, policy, 64);
            if threads > 1 {
                e.set_threads(threads);
            }
            e
        })
    }

    /// Whether the engine thread runs yet.
    pub fn started(&self) -> bool {
        self.engine.is_some()
    }
}

impl Thinker for EngineThinker {
    fn search(&mut self, request: SearchRequest) {
        let limits = Limits {
            depth: request.depth,
            time: request.time,
            nodes: None,
        };
        self.engine().search(request.id, request.position, limits);
    }

    fn stop(&mut self) {
        if let Some(e) = &self.engine {
            e.stop();
        }
    }

    fn poll(&mut self, wait: Duration) -> Option<ThinkReport> {
        let Some(engine) = &self.engine else {
            std::thread::sleep(wait);
            return None;
        };
        Some(match engine.recv_timeout(wait)? {
            Report::Progress { id, search, .. } => {
                ThinkReport::Progress(id, SearchInfo::from_stats(&search))
            }
            Report::Done { id, search, .. } => {
                ThinkReport::Done(id, SearchInfo::from_stats(&search))
            }
            Report::Error(e) => ThinkReport::Error(e),
            // The protocols never ask for a comparison.
            Report::CompareProgress { .. }
            | Report::CompareRow { .. }
            | Report::CompareDone { .. } => {
                return None;
            }
        })
    }

    fn set_tt_mib(&mut self, mib: usize) {
        let mib = mib.max(1);
        match &self.engine {
            Some(e) if self.tt_mib != mib => e.set_tt_mib(mib),
            Some(_) => {}
            None => {
                self.tt_mib = mib;
                self.engine();
            }
        }
        self.tt_mib = mib;
    }

    fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, crate::search::MAX_THREADS);
        if let Some(e) = &self.engine {
            e.set_threads(self.threads);
        }
    }
}

/// Longest input line kept; the rest of a longer line is dropped (a GGF game is far shorter).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Read lines from `input` on a thread, stamped with their arrival; the channel closes at EOF.
fn spawn_reader(
    input: impl Read + Send + 'static,
) -> crossbeam_channel::Receiver<(Instant, String)> {
    let (tx, rx) = crossbeam_channel::unbounded();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(input);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader
                .by_ref()
                .take(MAX_LINE_BYTES as u64)
                .read_until(b'\n', &mut buf)
            {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let at = Instant::now();
                    if buf.last() != Some(&b'\n') && buf.len() >= MAX_LINE_BYTES {
                        // Over-long line: skip to its end.
                        let mut rest = Vec::new();
                        if reader.read_until(b'\n', &mut rest).is_err() {
                            break;
                        }
                    }
                    let text = String::from_utf8_lossy(&buf);
                    let line = text.trim_end_matches(['\n', '\r']).to_string();
                    if tx.send((at, line)).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

/// Run a session over `input` / `output` until it quits, or the input has ended and the last
/// search (bounded by its limits) has been answered.
pub fn run<S: Session, T: Thinker>(
    session: &mut S,
    thinker: &mut T,
    input: impl Read + Send + 'static,
    output: &mut impl Write,
) -> io::Result<()> {
    let lines = spawn_reader(input);
    let mut queue: VecDeque<(Instant, String)> = VecDeque::new();
    let mut eof = false;
    let mut deadline: Option<Instant> = None;
    let mut stop_sent = false;
    loop {
        // Handle queued lines while no search runs.
        while session.searching().is_none() {
            let Some((at, line)) = queue.pop_front() else {
                break;
            };
            let effects = session.line(&line, at);
            if apply(effects, thinker, output, &mut deadline, &mut stop_sent)? {
                return Ok(());
            }
        }
        if let Some(id) = session.searching() {
            // A report, if one comes within a moment; then any lines that arrived meanwhile
            // (reports never starve the input).
            if let Some(report) = thinker.poll(Duration::from_millis(2)) {
                let effects = match report {
                    ThinkReport::Progress(rid, info) => session.progress(rid, &info),
                    ThinkReport::Done(rid, info) => session.done(rid, &info),
                    ThinkReport::Error(e) => {
                        let mut v = vec![Effect::Log(format!("engine: {e}"))];
                        v.extend(session.done(id, &SearchInfo::default()));
                        v
                    }
                };
                if apply(effects, thinker, output, &mut deadline, &mut stop_sent)? {
                    return Ok(());
                }
            }
            while session.searching().is_some() {
                match lines.try_recv() {
                    Ok((at, line)) => match session.arrival(&line) {
                        Arrival::Now => {
                            let effects = session.line(&line, at);
                            if apply(effects, thinker, output, &mut deadline, &mut stop_sent)? {
                                return Ok(());
                            }
                        }
                        Arrival::Interrupt => {
                            queue.push_back((at, line));
                            let effects = session.interrupt();
                            if apply(effects, thinker, output, &mut deadline, &mut stop_sent)? {
                                return Ok(());
                            }
                        }
                        Arrival::Queue => queue.push_back((at, line)),
                    },
                    Err(crossbeam_channel::TryRecvError::Empty) => break,
                    Err(crossbeam_channel::TryRecvError::Disconnected) => {
                        // The input ended: the running search finishes within its limits and
                        // its answer is printed (a piped script gets its move), then we exit.
                        eof = true;
                        break;
                    }
                }
            }
            if session.searching().is_some()
                && !stop_sent
                && deadline.is_some_and(|d| Instant::now() >= d)
            {
                thinker.stop();
                stop_sent = true;
            }
        } else if eof {
            return Ok(());
        } else {
            match lines.recv() {
                Ok(item) => queue.push_back(item),
                Err(_) => eof = true,
            }
        }
    }
}

/// Carry out effects; `Ok(true)` when the session quits.
fn apply<T: Thinker>(
    effects: Vec<Effect>,
    thinker: &mut T,
    output: &mut impl Write,
    deadline: &mut Option<Instant>,
    stop_sent: &mut bool,
) -> io::Result<bool> {
    for effect in effects {
        match effect {
            Effect::Send(line) => {
                writeln!(output, "{line}")?;
                output.flush()?;
            }
            Effect::Log(line) => eprintln!("{line}"),
            Effect::Search(request) => {
                *deadline = request.deadline;
                *stop_sent = false;
                thinker.search(request);
            }
            Effect::Stop => {
                if !*stop_sent {
                    thinker.stop();
                    *stop_sent = true;
                }
            }
            Effect::SetTtMib(mib) => thinker.set_tt_mib(mib),
            Effect::SetThreads(n) => thinker.set_threads(n),
            Effect::Quit => {
                thinker.stop();
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Split a line into its first word (lower-cased) and the rest (trimmed).
pub(crate) fn command_word(line: &str) -> (String, &str) {
    let t = line.trim();
    match t.find(char::is_whitespace) {
        Some(i) => (t[..i].to_ascii_lowercase(), t[i..].trim()),
        None => (t.to_ascii_lowercase(), ""),
    }
}

/// A line cut to at most `n` characters for an error message, control characters shown as `?`
/// (so an echo is always one clean line).
pub(crate) fn excerpt(line: &str, n: usize) -> String {
    let t = line.trim();
    let mut s: String = t
        .chars()
        .take(n)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if t.chars().count() > n {
        s.push('…');
    }
    s
}
