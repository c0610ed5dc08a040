//! The Gomocup / Piskvork brain protocol, spoken by Gomoku managers (Piskvork, the Gomocup
//! referee, qpiskvork) and engines (Rapfi, Embryo).
//!
//! Coordinates are 0-based `x,y` from the top-left. Commands (any case):
//!
//! | command | answer |
//! |---|---|
//! | `START N` (5–25), `RECTSTART N,N` | `OK`, or `ERROR …` for a size or shape xorboard cannot play |
//! | `RESTART` | `OK` (same size, empty board) |
//! | `BEGIN` | our first move `x,y` |
//! | `TURN x,y` | the opponent played there; our move `x,y` |
//! | `BOARD` then `x,y,c` lines then `DONE` | a whole position (`c`: 1 ours, 2 theirs, 3 a marked winning-line field we never play on); our move |
//! | `TAKEBACK x,y` | `OK` (the last move is taken back) |
//! | `INFO key value` | nothing; `timeout_turn`, `timeout_match`, `time_left` (ms), `max_memory` (bytes, sizes the hash table), `rule` (1 = exactly five, else five or more), `thread_num`; other keys ignored |
//! | `ABOUT` | `name="xorboard", version=…, author=…` |
//! | `END` | nothing: the brain exits at once, even mid-search |
//! | `YXSTOP` | stop thinking and answer now |
//! | anything else | `UNKNOWN …` |
//!
//! A command that cannot be honoured gets `ERROR <what and why>` and changes nothing. Problems
//! with `INFO` values are reported as `MESSAGE` lines just before the next answer, as the protocol
//! asks. Before each move the brain sends one `MESSAGE` with depth, score, nodes, time and PV,
//! or `MESSAGE <side> book move (looked ahead: …)` when the opening book ([`GomokuBook`], given
//! by [`Piskvork::with_book`]) knows the position: then the move is the book's, and the turn's
//! time goes to a search of the position after it (the opponent to move), which leaves the table
//! warm for the next turn (the first move after the book is otherwise searched from an empty
//! table).
//!
//! Time: a turn's clock starts when the command line arrives (for a position, the `BOARD` line). The search gets
//! `min(0.93·timeout_turn − margin, time_left / 20)` (at least 5 ms; the margin is a twentieth of
//! the turn, at most 30 ms: 176 ms of a 200 ms turn), and the driver stops it at that deadline if
//! it still runs (the rest of the turn covers the engine's reaction to the stop and a loaded
//! machine: answers measured by the referee took at most ~195 ms); `timeout_turn 0` means as fast as possible (20 ms). Memory: the
//! hash table gets `max_memory − 24 MiB`, at most the `--hash` size.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Arrival, Effect, SearchInfo, SearchRequest, Session, command_word, excerpt};
use crate::book::GomokuBook;
use crate::game::AnyGame;
use crate::game::gomoku::{Gomoku, MAX_SIZE, MIN_SIZE, Rule};
use crate::game::notation::{parse_piskvork, to_piskvork};
use crate::game::{Cell, Game, Move, Side};
use crate::zobrist::Keys;

/// Turn time before any `INFO timeout_turn` (ms).
pub const DEFAULT_TURN_MS: u64 = 5000;
/// Memory kept outside the hash table when `max_memory` is given (MiB).
pub const RESERVE_MIB: usize = 24;
/// Search time when `timeout_turn` is 0 (ms).
pub const FAST_MS: u64 = 20;
/// Share of the remaining match time one move may use: 1/20.
pub const MATCH_SHARE: u64 = 20;
/// `time_left` value that means "no limit".
pub const UNLIMITED: i64 = 2_147_483_647;

#[derive(Clone, Debug, PartialEq, Eq)]
enum CollectKind {
    Board,
    Swap2,
}

/// A `BOARD` (or `SWAP2BOARD`) block being read.
#[derive(Clone, Debug)]
struct Collect {
    kind: CollectKind,
    own: Vec<usize>,
    opp: Vec<usize>,
    blocked: Vec<usize>,
    error: Option<String>,
    /// When the `BOARD` line arrived: the turn's clock runs from there.
    started: Instant,
}

#[derive(Clone, Debug)]
struct Task {
    id: u64,
    position: Gomoku,
    /// The move already chosen without a search (the book's): the search looks at the position
    /// after it, and its result only warms the table for the next turn.
    known: Option<Move>,
}

/// The Piskvork session state.
#[derive(Clone, Debug)]
pub struct Piskvork {
    keys: &'static Keys,
    rule: Rule,
    game: Option<Gomoku>,
    /// Fields marked 3 in the last `BOARD`: never played on.
    blocked: Vec<usize>,
    timeout_turn: u64,
    timeout_match: u64,
    time_left: Option<i64>,
    max_memory: u64,
    tt_cap_mib: usize,
    tt_mib: usize,
    collect: Option<Collect>,
    deferred: Vec<String>,
    next_id: u64,
    task: Option<Task>,
    /// The opening book answering known positions at once (`--no-book` leaves it out).
    book: Option<Arc<GomokuBook>>,
}

/// The part of the state a refused line must not change (for tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub size: Option<usize>,
    pub rule: Rule,
    pub hash: Option<u64>,
    pub history: Vec<Move>,
    pub blocked: Vec<usize>,
    pub timeout_turn: u64,
    pub timeout_match: u64,
    pub time_left: Option<i64>,
    pub max_memory: u64,
    pub tt_mib: usize,
    pub searching: bool,
}

impl Piskvork {
    /// A session whose hash table may use up to `tt_cap_mib` MiB.
    pub fn new(keys: &'static Keys, tt_cap_mib: usize) -> Piskvork {
        Piskvork {
            keys,
            rule: Rule::Freestyle,
            game: None,
            blocked: Vec::new(),
            timeout_turn: DEFAULT_TURN_MS,
            timeout_match: 0,
            time_left: None,
            max_memory: 0,
            tt_cap_mib: tt_cap_mib.max(1),
            tt_mib: tt_cap_mib.max(1),
            collect: None,
            deferred: Vec::new(),
            next_id: 1,
            task: None,
            book: None,
        }
    }

    /// Answer the positions of `book` from it, without a search.
    pub fn with_book(mut self, book: Option<Arc<GomokuBook>>) -> Piskvork {
        self.book = book;
        self
    }

    /// The current game, after `START`.
    pub fn game(&self) -> Option<&Gomoku> {
        self.game.as_ref()
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            size: self.game.as_ref().map(Gomoku::size),
            rule: self.rule,
            hash: self.game.as_ref().map(Gomoku::hash),
            history: self
                .game
                .as_ref()
                .map(|g| g.history().to_vec())
                .unwrap_or_default(),
            blocked: self.blocked.clone(),
            timeout_turn: self.timeout_turn,
            timeout_match: self.timeout_match,
            time_left: self.time_left,
            max_memory: self.max_memory,
            tt_mib: self.tt_mib,
            searching: self.task.is_some(),
        }
    }

    /// The hash table size `max_memory` allows.
    pub fn tt_mib(&self) -> usize {
        self.tt_mib
    }

    /// Time for the next move, and whether the search should also be depth-limited.
    pub fn budget(&self) -> Duration {
        let mut ms = if self.timeout_turn == 0 {
            FAST_MS
        } else {
            let margin = (self.timeout_turn / 20).min(30);
            (self.timeout_turn * 93 / 100).saturating_sub(margin)
        };
        if let Some(left) = self.match_time_left() {
            ms = ms.min(left / MATCH_SHARE);
        }
        Duration::from_millis(ms.max(5))
    }

    /// Milliseconds left in the match, when the match is timed.
    fn match_time_left(&self) -> Option<u64> {
        match self.time_left {
            Some(t) if t >= UNLIMITED => None,
            Some(t) => Some(t.max(0) as u64),
            None if self.timeout_match > 0 => Some(self.timeout_match),
            None => None,
        }
    }

    /// Lines to send before an answer: deferred messages first.
    fn answer(&mut self, lines: impl IntoIterator<Item = String>) -> Vec<Effect> {
        let mut out: Vec<Effect> = self
            .deferred
            .drain(..)
            .map(|m| Effect::Send(format!("MESSAGE {m}")))
            .collect();
        out.extend(lines.into_iter().map(Effect::Send));
        out
    }

    fn error(&mut self, msg: String) -> Vec<Effect> {
        self.answer([format!("ERROR {msg}")])
    }

    fn new_game(&mut self, size: usize) -> Vec<Effect> {
        match Gomoku::try_new(size, self.rule, self.keys) {
            Ok(g) => {
                self.game = Some(g);
                self.blocked.clear();
                self.answer(["OK".to_string()])
            }
            Err(e) => self.error(e),
        }
    }

    fn start_cmd(&mut self, arg: &str) -> Vec<Effect> {
        match arg.trim().parse::<usize>() {
            Ok(n) if (MIN_SIZE..=MAX_SIZE).contains(&n) => self.new_game(n),
            Ok(n) => self.error(format!(
                "unsupported board size {n}: xorboard plays {MIN_SIZE} to {MAX_SIZE}"
            )),
            Err(_) => self.error(format!("START: '{}' is not a board size", excerpt(arg, 12))),
        }
    }

    fn rectstart(&mut self, arg: &str) -> Vec<Effect> {
        let parts: Vec<&str> = arg.split(',').map(str::trim).collect();
        match parts.as_slice() {
            [w, h] if w == h => self.start_cmd(w),
            [w, h] if w.parse::<usize>().is_ok() && h.parse::<usize>().is_ok() => self.error(
                format!("RECTSTART {w},{h}: only square boards are supported"),
            ),
            _ => self.error(format!("RECTSTART: '{}' is not w,h", excerpt(arg, 20))),
        }
    }

    /// Parse `x,y` on the current board.
    fn cell(&self, arg: &str) -> Result<usize, String> {
        let g = self.game.as_ref().ok_or("no game: send START first")?;
        let mv = parse_piskvork(g.size(), arg)?;
        mv.cell().ok_or_else(|| "not a cell".to_string())
    }

    fn turn(&mut self, arg: &str, at: Instant) -> Vec<Effect> {
        let cell = match self.cell(arg) {
            Ok(c) => c,
            Err(e) => return self.error(format!("TURN {}: {e}", excerpt(arg, 20))),
        };
        let Some(game) = self.game.as_ref() else {
            return self.error("TURN: no game: send START first".into());
        };
        let mut next = game.clone();
        if let Err(e) = next.try_play(Move::at(cell)) {
            return self.error(format!("TURN {}: {e}", excerpt(arg, 20)));
        }
        if next.outcome().is_some() {
            return self.error(format!(
                "TURN {}: that move ends the game; there is nothing to answer",
                excerpt(arg, 20)
            ));
        }
        self.game = Some(next);
        self.think(at)
    }

    fn begin(&mut self, at: Instant) -> Vec<Effect> {
        match &self.game {
            None => self.error("BEGIN: no game: send START first".into()),
            Some(g) if g.stones() > 0 => self.error("BEGIN: the board is not empty".into()),
            Some(_) => self.think(at),
        }
    }

    fn takeback(&mut self, arg: &str) -> Vec<Effect> {
        let cell = match self.cell(arg) {
            Ok(c) => c,
            Err(e) => return self.error(format!("TAKEBACK {}: {e}", excerpt(arg, 20))),
        };
        let Some(game) = self.game.as_mut() else {
            return self.error("TAKEBACK: no game".into());
        };
        if game.last_move() != Some(Move::at(cell)) {
            return self.error(format!(
                "TAKEBACK {}: not the last move played",
                excerpt(arg, 20)
            ));
        }
        game.undo();
        self.answer(["OK".to_string()])
    }

    /// Play `mv` (chosen and legal) in `position`, which becomes the game, and send it after
    /// `message`.
    fn reply(&mut self, position: &Gomoku, mv: Move, message: String) -> Vec<Effect> {
        let Some((x, y)) = to_piskvork(position.size(), mv) else {
            return self.error("no free field to play".into());
        };
        let mut game = position.clone();
        game.play(mv);
        self.game = Some(game);
        self.answer([message, format!("{x},{y}")])
    }

    /// Start thinking about the current position (the turn began at `at`).
    fn think(&mut self, at: Instant) -> Vec<Effect> {
        let Some(game) = self.game.clone() else {
            return self.error("no game: send START first".into());
        };
        if game.outcome().is_some() {
            return self.error("the game is over".into());
        }
        if chosen_move(&game, &self.blocked, None).is_none() {
            return self.error("no free field to play".into());
        }
        if let Some(mv) = self.book.as_ref().and_then(|b| b.reply(&game))
            && chosen_move(&game, &self.blocked, Some(mv)) == Some(mv)
        {
            let mut next = game.clone();
            next.play(mv);
            if next.outcome().is_some() || chosen_move(&next, &self.blocked, None).is_none() {
                let side = side_name(&game);
                return self.reply(&game, mv, format!("MESSAGE {side} book move"));
            }
            // The turn is ours all the same: its time goes to the position after the book move,
            // so that the table is warm when the opponent's reply comes.
            return self.search(at, game, next, Some(mv));
        }
        self.search(at, game.clone(), game, None)
    }

    /// Search `target` on this turn's clock (started at `at`) for the move in `position`: the
    /// best move found, or `known` when the move is already chosen (`target` is then the
    /// position after it).
    fn search(
        &mut self,
        at: Instant,
        position: Gomoku,
        target: Gomoku,
        known: Option<Move>,
    ) -> Vec<Effect> {
        let budget = self.budget();
        let spent = at.elapsed();
        let id = self.next_id;
        self.next_id += 1;
        self.task = Some(Task {
            id,
            position,
            known,
        });
        vec![Effect::Search(SearchRequest {
            id,
            position: AnyGame::Gomoku(target),
            depth: None,
            time: Some(budget.saturating_sub(spent).max(Duration::from_millis(1))),
            deadline: Some(at + budget),
        })]
    }

    fn info(&mut self, rest: &str) -> Vec<Effect> {
        let (key, value) = command_word(rest);
        let number = |v: &str| v.trim().parse::<i64>();
        let bad = |key: &str, value: &str| {
            format!(
                "INFO {key}: '{}' is not a number; ignored",
                excerpt(value, 20)
            )
        };
        match key.as_str() {
            "timeout_turn" | "timeout_match" | "time_left" | "max_memory" | "rule"
            | "thread_num" | "game_type" => {}
            _ => return Vec::new(),
        }
        let Ok(v) = number(value) else {
            self.deferred.push(bad(&key, value));
            return Vec::new();
        };
        match key.as_str() {
            "timeout_turn" => self.timeout_turn = v.max(0) as u64,
            "timeout_match" => self.timeout_match = v.max(0) as u64,
            "time_left" => self.time_left = Some(v),
            "max_memory" => {
                self.max_memory = v.max(0) as u64;
                let mib = if self.max_memory == 0 {
                    self.tt_cap_mib
                } else {
                    let total = (self.max_memory >> 20) as usize;
                    if total <= RESERVE_MIB + 1 {
                        self.deferred.push(format!(
                            "max_memory {} bytes leaves no room for a hash table; using 1 MiB",
                            self.max_memory
                        ));
                    }
                    total.saturating_sub(RESERVE_MIB).clamp(1, self.tt_cap_mib)
                };
                // Always passed on: the first one also starts the engine with its table, inside
                // the untimed INFO block rather than during the first move.
                self.tt_mib = mib;
                return vec![Effect::SetTtMib(mib)];
            }
            "rule" => return self.set_rule(v),
            "thread_num" if v >= 1 => return vec![Effect::SetThreads(v as usize)],
            "thread_num" => self
                .deferred
                .push(format!("INFO thread_num {v}: need at least 1")),
            _ => {}
        }
        Vec::new()
    }

    fn set_rule(&mut self, bits: i64) -> Vec<Effect> {
        let rule = if bits & 1 != 0 {
            Rule::Exact5
        } else {
            Rule::Freestyle
        };
        if bits & !1 != 0 {
            self.deferred.push(format!(
                "INFO rule {bits}: continuous, renju and caro rules are not supported; playing {}",
                rule.name()
            ));
        }
        if rule == self.rule {
            return Vec::new();
        }
        if let Some(g) = &self.game {
            let mut next = Gomoku::new(g.size(), rule, self.keys);
            for &m in g.history() {
                if next.try_play(m).is_err() {
                    self.deferred.push(format!(
                        "INFO rule {bits}: the position on the board is not a game under {}; rule unchanged",
                        rule.name()
                    ));
                    return Vec::new();
                }
            }
            self.game = Some(next);
        }
        self.rule = rule;
        Vec::new()
    }

    fn collect_line(&mut self, line: &str, at: Instant) -> Vec<Effect> {
        let (cmd, _) = command_word(line);
        if cmd == "done" {
            let started = self.collect.as_ref().map_or(at, |c| c.started);
            return self.finish_collect(started);
        }
        if cmd == "end" {
            return vec![Effect::Quit];
        }
        let size = self.game.as_ref().map_or(0, Gomoku::size);
        let Some(c) = self.collect.as_mut() else {
            return Vec::new();
        };
        if c.error.is_some() || line.trim().is_empty() {
            return Vec::new();
        }
        let parts: Vec<&str> = line.split(',').map(str::trim).collect();
        let parsed = match parts.as_slice() {
            [x, y, s] => match (x.parse::<usize>(), y.parse::<usize>(), s.parse::<u8>()) {
                (Ok(x), Ok(y), Ok(s @ 1..=3)) if x < size && y < size => Ok((y * size + x, s)),
                (Ok(x), Ok(y), Ok(1..=3)) => Err(format!("{x},{y} is off the {size}×{size} board")),
                (Ok(_), Ok(_), _) => Err(format!("'{s}' is not 1, 2 or 3")),
                _ => Err(format!("'{}' is not x,y,c", excerpt(line, 20))),
            },
            _ => Err(format!("'{}' is not x,y,c", excerpt(line, 20))),
        };
        match parsed {
            Ok((cell, s)) => {
                if c.own.contains(&cell) || c.opp.contains(&cell) || c.blocked.contains(&cell) {
                    c.error = Some(format!("field {} given twice", excerpt(line, 20)));
                } else {
                    match s {
                        1 => c.own.push(cell),
                        2 => c.opp.push(cell),
                        _ => c.blocked.push(cell),
                    }
                }
            }
            Err(e) => c.error = Some(e),
        }
        Vec::new()
    }

    fn finish_collect(&mut self, at: Instant) -> Vec<Effect> {
        let Some(c) = self.collect.take() else {
            return Vec::new();
        };
        if c.kind == CollectKind::Swap2 {
            return self
                .answer(["UNKNOWN SWAP2BOARD: swap2 openings are not supported".to_string()]);
        }
        if let Some(e) = c.error {
            return self.error(format!("BOARD: {e}"));
        }
        let Some(size) = self.game.as_ref().map(Gomoku::size) else {
            return self.error("BOARD: no game: send START first".into());
        };
        match position(size, self.rule, self.keys, &c.own, &c.opp) {
            Ok(g) => {
                self.game = Some(g);
                self.blocked = c.blocked;
                self.think(at)
            }
            Err(e) => self.error(format!("BOARD: {e}")),
        }
    }
}

/// The game whose stones are `own` (ours, to move) and `opp`, in the order given (any order is
/// the same position under gomoku rules; given in move order, it is the game itself).
pub fn position(
    size: usize,
    rule: Rule,
    keys: &'static Keys,
    own: &[usize],
    opp: &[usize],
) -> Result<Gomoku, String> {
    let (black, white) = if own.len() == opp.len() {
        (own, opp)
    } else if opp.len() == own.len() + 1 {
        (opp, own)
    } else {
        return Err(format!(
            "{} own and {} opposing stones: we cannot be the side to move",
            own.len(),
            opp.len()
        ));
    };
    let mut g = Gomoku::try_new(size, rule, keys)?;
    for i in 0..black.len() {
        for stones in [black, white] {
            if let Some(&cell) = stones.get(i) {
                g.try_play(Move::at(cell)).map_err(|e| {
                    let (x, y) = (cell % size, cell / size);
                    format!("{x},{y}: {e}")
                })?;
            }
        }
    }
    if g.outcome().is_some() {
        return Err("the position already has a winning row or a full board".into());
    }
    Ok(g)
}

/// The side to move's name, for `MESSAGE` lines.
fn side_name(game: &Gomoku) -> &'static str {
    match game.side_to_move() {
        Side::Black => "black",
        Side::White => "white",
    }
}

/// The move to play: the engine's best if it is legal and not blocked; else the free,
/// unblocked field nearest the centre.
fn chosen_move(game: &Gomoku, blocked: &[usize], best: Option<Move>) -> Option<Move> {
    let ok = |m: Move| game.is_legal(m) && m.cell().is_some_and(|c| !blocked.contains(&c));
    if let Some(b) = best.filter(|&m| ok(m)) {
        return Some(b);
    }
    let n = game.size() as i64;
    let centre = (n - 1) as f64 / 2.0;
    (0..game.num_cells())
        .filter(|&c| game.cell(c) == Cell::Empty && !blocked.contains(&c))
        .min_by_key(|&c| {
            let (x, y) = ((c as i64 % n) as f64, (c as i64 / n) as f64);
            (((x - centre).powi(2) + (y - centre).powi(2)) * 4.0) as i64
        })
        .map(Move::at)
        .filter(|&m| ok(m))
}

impl Session for Piskvork {
    fn line(&mut self, line: &str, at: Instant) -> Vec<Effect> {
        if self.collect.is_some() {
            return self.collect_line(line, at);
        }
        let (cmd, rest) = command_word(line);
        match cmd.as_str() {
            "" => Vec::new(),
            "start" => self.start_cmd(rest),
            "rectstart" => self.rectstart(rest),
            "restart" => match self.game.as_ref().map(Gomoku::size) {
                Some(n) => self.new_game(n),
                None => self.error("RESTART before START".into()),
            },
            "begin" => self.begin(at),
            "turn" => self.turn(rest, at),
            "board" | "swap2board" => {
                if self.game.is_none() {
                    return self
                        .error(format!("{}: no game: send START first", cmd.to_uppercase()));
                }
                self.collect = Some(Collect {
                    kind: if cmd == "board" {
                        CollectKind::Board
                    } else {
                        CollectKind::Swap2
                    },
                    own: Vec::new(),
                    opp: Vec::new(),
                    blocked: Vec::new(),
                    error: None,
                    started: at,
                });
                Vec::new()
            }
            "takeback" => self.takeback(rest),
            "info" => self.info(rest),
            "about" => self.answer([format!(
                "name=\"xorboard\", version=\"{}\", author=\"the xorboard project\", country=\"-\"",
                env!("CARGO_PKG_VERSION")
            )]),
            "end" => vec![Effect::Quit],
            "yxstop" | "stop" => Vec::new(),
            _ => self.answer([format!("UNKNOWN {}", excerpt(line, 40))]),
        }
    }

    fn progress(&mut self, _id: u64, _info: &SearchInfo) -> Vec<Effect> {
        Vec::new()
    }

    fn done(&mut self, id: u64, info: &SearchInfo) -> Vec<Effect> {
        let Some(task) = self.task.take().filter(|t| t.id == id) else {
            return Vec::new();
        };
        if let Some(mv) = task.known {
            let side = side_name(&task.position);
            let message = format!(
                "MESSAGE {side} book move (looked ahead: depth {} nodes {} time {} ms)",
                info.depth, info.nodes, info.elapsed_ms
            );
            return self.reply(&task.position, mv, message);
        }
        let Some(mv) = chosen_move(&task.position, &self.blocked, info.best) else {
            return self.error("no free field to play".into());
        };
        let size = task.position.size();
        let pv: Vec<String> = info
            .pv
            .iter()
            .filter_map(|&m| to_piskvork(size, m).map(|(x, y)| format!("{x},{y}")))
            .collect();
        let side = side_name(&task.position);
        let message = format!(
            "MESSAGE {side} depth {} score {} nodes {} time {} ms pv {}",
            info.depth,
            crate::search::score_text(crate::game::GameKind::Gomoku, info.score),
            info.nodes,
            info.elapsed_ms,
            if pv.is_empty() {
                "-".to_string()
            } else {
                pv.join(" ")
            }
        );
        self.reply(&task.position, mv, message)
    }

    fn searching(&self) -> Option<u64> {
        self.task.as_ref().map(|t| t.id)
    }

    fn arrival(&self, line: &str) -> Arrival {
        match command_word(line).0.as_str() {
            "end" | "info" => Arrival::Now,
            "yxstop" | "stop" => Arrival::Interrupt,
            _ => Arrival::Queue,
        }
    }

    fn interrupt(&mut self) -> Vec<Effect> {
        if self.task.is_some() {
            vec![Effect::Stop]
        } else {
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(effects: &[Effect]) -> Vec<String> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::Send(s) => Some(s.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn time_budget_honours_turn_and_match() {
        let mut s = Piskvork::new(Keys::default_keys(), 64);
        s.line("INFO timeout_turn 1000", Instant::now());
        assert_eq!(s.budget(), Duration::from_millis(900));
        s.line("INFO time_left 4000", Instant::now());
        assert_eq!(s.budget(), Duration::from_millis(200));
        s.line("INFO time_left 2147483647", Instant::now());
        assert_eq!(s.budget(), Duration::from_millis(900));
        s.line("INFO timeout_turn 0", Instant::now());
        assert_eq!(s.budget(), Duration::from_millis(FAST_MS));
    }

    #[test]
    fn max_memory_sizes_the_table() {
        let mut s = Piskvork::new(Keys::default_keys(), 64);
        let e = s.line("INFO max_memory 52428800", Instant::now());
        assert!(matches!(e.as_slice(), [Effect::SetTtMib(26)]), "{e:?}");
        let e = s.line("INFO max_memory 367001600", Instant::now());
        assert!(matches!(e.as_slice(), [Effect::SetTtMib(64)]), "{e:?}");
        let e = s.line("INFO max_memory 0", Instant::now());
        assert!(matches!(e.as_slice(), [Effect::SetTtMib(64)]), "{e:?}");
    }

    #[test]
    fn board_needs_a_sensible_count() {
        let keys = Keys::default_keys();
        assert!(position(15, Rule::Freestyle, keys, &[0, 1], &[]).is_err());
        let g = position(15, Rule::Freestyle, keys, &[0], &[1, 2]).unwrap();
        assert_eq!(g.side_to_move(), Side::White);
        assert_eq!(g.stones(), 3);
    }

    #[test]
    fn marked_fields_are_never_played() {
        let mut s = Piskvork::new(Keys::default_keys(), 8);
        let now = Instant::now();
        s.line("START 5", now);
        for l in ["BOARD", "2,2,3", "0,0,1", "4,4,2", "1,1,3"] {
            assert!(s.line(l, now).is_empty(), "{l}");
        }
        let e = s.line("DONE", now);
        let Some(Effect::Search(req)) = e.first() else {
            panic!("a search: {e:?}")
        };
        // The engine proposes the marked centre: the answer is another free field.
        let info = SearchInfo {
            best: Some(Move::at(12)),
            ..SearchInfo::default()
        };
        let out = sent(&s.done(req.id, &info));
        let reply = out.last().unwrap();
        assert_ne!(reply, "2,2");
        assert_ne!(reply, "1,1");
        assert!(parse_piskvork(5, reply).is_ok(), "{reply}");
    }

    #[test]
    fn book_positions_are_answered_with_the_book_move_after_a_look_ahead() {
        let keys = Keys::default_keys();
        let book = GomokuBook::parse("7,7 7,6 -> 6,6", keys).unwrap();
        let now = Instant::now();
        // The book position turned a quarter (x,y -> 14-y,x), our stone being black.
        let board = ["BOARD", "7,7,1", "8,7,2", "DONE"];
        let mut s = Piskvork::new(keys, 8).with_book(Some(Arc::new(book)));
        s.line("START 15", now);
        let mut e = Vec::new();
        for l in board {
            e = s.line(l, now);
        }
        // The turn's search looks at the position after the book move, opponent to move.
        let Some(Effect::Search(req)) = e.first() else {
            panic!("a search of the position after the book move: {e:?}")
        };
        let AnyGame::Gomoku(ahead) = &req.position else {
            panic!("a Gomoku search: {:?}", req.position)
        };
        assert_eq!(ahead.stones(), 3);
        assert_eq!(ahead.last_move(), Some(Move::at(6 * 15 + 8)));
        assert!(sent(&e).is_empty(), "nothing sent before the search ends");
        // Whatever that search prefers, the answer is the book move.
        let info = SearchInfo {
            best: Some(Move::at(0)),
            depth: 9,
            ..SearchInfo::default()
        };
        let out = sent(&s.done(req.id, &info));
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(
            out[0].starts_with("MESSAGE black book move (looked ahead: depth 9"),
            "{out:?}"
        );
        assert_eq!(out[1], "8,6");
        assert_eq!(s.game().unwrap().stones(), 3, "the book move is played");
        // Without the book, and on another board size, the engine searches the position itself
        // for its move.
        for (size, book) in [(15, None), (17, s.book.clone())] {
            let mut s = Piskvork::new(keys, 8).with_book(book);
            s.line(&format!("START {size}"), now);
            let mut e = Vec::new();
            for l in board {
                e = s.line(l, now);
            }
            let [Effect::Search(req)] = e.as_slice() else {
                panic!("one search: {e:?}")
            };
            assert!(
                matches!(&req.position, AnyGame::Gomoku(g) if g.stones() == 2),
                "{:?}",
                req.position
            );
            let info = SearchInfo {
                best: Some(Move::at(0)),
                ..SearchInfo::default()
            };
            let out = sent(&s.done(req.id, &info));
            assert!(out[0].contains("depth"), "a searched move: {out:?}");
            assert_eq!(out[1], "0,0", "the search's move: {out:?}");
        }
    }

    #[test]
    fn unknown_and_errors() {
        let mut s = Piskvork::new(Keys::default_keys(), 64);
        let now = Instant::now();
        assert_eq!(sent(&s.line("FOO", now)), ["UNKNOWN FOO"]);
        assert!(sent(&s.line("TURN 1,1", now))[0].starts_with("ERROR"));
        assert_eq!(sent(&s.line("START 15", now)), ["OK"]);
        assert!(sent(&s.line("START 40", now))[0].starts_with("ERROR"));
        assert!(sent(&s.line("TURN 15,0", now))[0].starts_with("ERROR"));
        assert!(sent(&s.line("RECTSTART 15,16", now))[0].starts_with("ERROR"));
    }
}
