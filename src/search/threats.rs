//! Gomoku threat-space search: VCF (victory by continuous fours) and VCT (victory by continuous
//! threats: threes and fours), with a transposition table keyed by the Zobrist hash.
//!
//! The search is an AND/OR depth-first search with iterative deepening. At an *attacker* node the
//! attacker
//! 1. wins at once on a five point;
//! 2. loses the line if the defender has two five points, and must block if it has one;
//! 3. wins if it has a move that makes two five points (an open four or a double four), since the
//!    defender has no five point of its own;
//! 4. otherwise tries its fours (and in VCT its threes), best-looking first.
//!
//! At a *defender* node the defender wins on its own five point; must block a single five point of
//! the attacker (two cannot be blocked); and otherwise, when the attacker threatens to make two
//! five points next move, considers **every** move that stops all such threats — the threat
//! points themselves and the five points they would create — **and every counter-four** of its
//! own, which forces the attacker to block and may refute the attack. A move outside that set
//! loses at once: the attacker makes two five points and the defender has no five of its own.
//! When the attacker threatens nothing, the attack has failed.
//!
//! So a reported win is a proof under the Gomoku rules (freestyle or `exact5`): the test suite
//! replays whole proof trees on [`Gomoku`] and checks every defender move on the board. A reported
//! failure only means "no win with these move kinds within these limits": the attacker tries only
//! fours and threes, which is what makes the search fast.
//!
//! Limits: attacker moves (`depth`), threes among them (`threes`; 0 is VCF), nodes, time, and a
//! stop flag checked every 256 nodes (about a millisecond).

pub mod board;
pub mod hooks;
pub mod pattern;
pub mod puzzle;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use board::{Sq, ThreatBoard};

use crate::game::gomoku::Gomoku;
use crate::game::{Game, Move, Outcome, Side};

/// How far a threat search may go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatLimits {
    /// Attacker moves, fours and threes together (forced blocks of the defender's fours are free).
    pub depth: u32,
    /// Threes among those moves: 0 is a VCF search.
    pub threes: u32,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    /// Deepen step by step (shortest wins first). Off: one search at the full limits.
    pub iterative: bool,
}

impl ThreatLimits {
    /// Continuous fours only, up to `depth` of them.
    pub fn vcf(depth: u32) -> ThreatLimits {
        ThreatLimits {
            depth,
            threes: 0,
            nodes: None,
            time: None,
            iterative: true,
        }
    }

    /// Threes and fours, at most `threes` threes and `depth` attacker moves in all.
    pub fn vct(threes: u32, depth: u32) -> ThreatLimits {
        ThreatLimits {
            depth,
            threes,
            nodes: None,
            time: None,
            iterative: true,
        }
    }

    pub fn with_time(mut self, time: Duration) -> Self {
        self.time = Some(time);
        self
    }

    pub fn with_nodes(mut self, nodes: u64) -> Self {
        self.nodes = Some(nodes);
        self
    }
}

impl Default for ThreatLimits {
    /// A VCT search of up to 4 threes and 24 attacker moves.
    fn default() -> Self {
        ThreatLimits::vct(4, 24)
    }
}

/// The verdict of one threat search.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// A forced win was found and proven.
    Win,
    /// No forced win with these move kinds within the depth limits (the search was complete).
    NoWin,
    /// Stopped by time, nodes or the stop flag before a verdict.
    Unknown,
}

/// The result of [`ThreatSearcher::search`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub status: Status,
    /// For a win: the attacker's moves and the defender's replies alternating, from the
    /// attacker's first move to its five. The defender's replies are its most stubborn defences.
    pub line: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// The depth (attacker moves) at which the win was proven, or the last depth completed.
    pub depth: u32,
    /// Threes allowed at that depth.
    pub threes: u32,
}

impl Found {
    /// The attacker's first move of a win.
    pub fn best(&self) -> Option<Move> {
        match self.status {
            Status::Win => self.line.first().copied(),
            _ => None,
        }
    }
}

/// A proof tree: the attacker's move and, for each defender reply the search considered, the
/// attacker's answer. A leaf (`replies` empty) is a move that completes five. Any defender move
/// not listed loses at once to a five or to two five points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofNode {
    pub attacker: Move,
    pub replies: Vec<(Move, ProofNode)>,
}

impl ProofNode {
    /// Plies on the longest line of the tree (attacker and defender moves).
    pub fn height(&self) -> usize {
        1 + self
            .replies
            .iter()
            .map(|(_, n)| 1 + n.height())
            .max()
            .unwrap_or(0)
    }

    /// Nodes (attacker moves) in the tree.
    pub fn size(&self) -> usize {
        1 + self.replies.iter().map(|(_, n)| n.size()).sum::<usize>()
    }

    /// The line that follows, at each defender turn, the reply with the longest continuation.
    pub fn principal_line(&self) -> Vec<Move> {
        let mut line = vec![self.attacker];
        let mut node = self;
        while let Some((reply, next)) = node.replies.iter().max_by_key(|(_, n)| n.height()) {
            line.push(*reply);
            line.push(next.attacker);
            node = next;
        }
        line
    }
}

/// Fixed-size transposition table of the threat search: one slot per index, always replaced.
/// Keyed by the Zobrist hash XOR a per-attacker salt; the full key is kept, so a hit is exact up
/// to a 64-bit collision.
#[derive(Clone)]
struct Tt {
    slots: Vec<[u64; 2]>,
    mask: usize,
}

/// Table flags: the attacker wins, or fails, within the stored depth and threes.
const TT_WIN: u64 = 1;
const TT_FAIL: u64 = 2;
/// Depth and threes marking a result that holds at any depth.
const ANY: u32 = 255;

impl Tt {
    fn new(bits: u32) -> Tt {
        Tt {
            slots: vec![[0, 0]; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    fn probe(&self, key: u64, threes: u32, depth: u32) -> Option<R> {
        let [k, data] = self.slots[key as usize & self.mask];
        if k != key || data == 0 {
            return None;
        }
        let mv = (data & 0xFFFF) as Sq;
        let t = ((data >> 16) & 0xFF) as u32;
        let d = ((data >> 24) & 0xFF) as u32;
        match data >> 32 {
            TT_WIN if t <= threes && d <= depth => Some(R::Win(mv)),
            TT_FAIL if t >= threes && d >= depth => Some(R::Fail),
            _ => None,
        }
    }

    fn store(&mut self, key: u64, kind: u64, mv: Sq, threes: u32, depth: u32) {
        let data = (kind << 32)
            | ((depth.min(ANY) as u64) << 24)
            | ((threes.min(ANY) as u64) << 16)
            | mv as u64;
        self.slots[key as usize & self.mask] = [key, data];
    }

    fn clear(&mut self) {
        self.slots.fill([0, 0]);
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum R {
    Win(Sq),
    Fail,
    Abort,
}

/// Squares found by one scan of the region around the stones.
#[derive(Default)]
struct Scan {
    /// Attacker's five points.
    a_five: Vec<Sq>,
    /// Defender's five points.
    d_five: Vec<Sq>,
    /// Attacker moves making two or more five points.
    a_win: Vec<Sq>,
    /// Attacker fours and threes (attacker nodes only), with an ordering score.
    a_moves: Vec<(Sq, i32, bool)>,
    /// Defender moves making a four (defender nodes only).
    d_fours: Vec<Sq>,
}

/// A reusable threat searcher: owns its transposition table and counts nodes.
#[derive(Clone)]
pub struct ThreatSearcher {
    tt: Tt,
    killers: Vec<Sq>,
    region: Vec<Sq>,
    nodes: u64,
}

impl Default for ThreatSearcher {
    fn default() -> Self {
        ThreatSearcher::new(18)
    }
}

const SALT_WHITE: u64 = 0x9E37_79B9_7F4A_7C15;

/// The node work of one search: the board, the attacker, the table and the limits.
struct Run<'a> {
    board: &'a mut ThreatBoard,
    attacker: Side,
    tt: &'a mut Tt,
    killers: &'a mut Vec<Sq>,
    region: &'a mut Vec<Sq>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    aborted: bool,
    /// Attacker moves made so far (index into the killers).
    ply: usize,
}

impl ThreatSearcher {
    /// A searcher with a table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> ThreatSearcher {
        ThreatSearcher {
            tt: Tt::new(bits.clamp(8, 28)),
            killers: Vec::new(),
            region: Vec::new(),
            nodes: 0,
        }
    }

    /// Nodes searched by this searcher so far, over all calls.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forget all stored results.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.killers.clear();
    }

    fn run<'a>(
        &'a mut self,
        board: &'a mut ThreatBoard,
        attacker: Side,
        limits: &ThreatLimits,
        stop: &'a AtomicBool,
    ) -> Run<'a> {
        Run {
            board,
            attacker,
            tt: &mut self.tt,
            killers: &mut self.killers,
            region: &mut self.region,
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.time.map(|t| Instant::now() + t),
            stop,
            aborted: false,
            ply: 0,
        }
    }

    /// Search a forced win for `attacker` with iterative deepening: first fours only, then with
    /// one more three allowed per iteration up to `limits.threes`. When `attacker` is not the side
    /// to move, the side to move is taken to pass (the question "what does the opponent threaten").
    pub fn search(
        &mut self,
        game: &Gomoku,
        attacker: Side,
        limits: &ThreatLimits,
        stop: &AtomicBool,
    ) -> Found {
        match game.outcome() {
            Some(Outcome::Win(s)) => Found {
                status: if s == attacker {
                    Status::Win
                } else {
                    Status::NoWin
                },
                line: Vec::new(),
                nodes: 0,
                depth: 0,
                threes: 0,
            },
            Some(Outcome::Draw) => Found {
                status: Status::NoWin,
                line: Vec::new(),
                nodes: 0,
                depth: 0,
                threes: 0,
            },
            None => self.search_board(&mut ThreatBoard::from_game(game), attacker, limits, stop),
        }
    }

    /// [`ThreatSearcher::search`] on a board the caller keeps (e.g. in step with a game); the
    /// board is left as it was. The position must not be finished.
    pub fn search_board(
        &mut self,
        board: &mut ThreatBoard,
        attacker: Side,
        limits: &ThreatLimits,
        stop: &AtomicBool,
    ) -> Found {
        let mut found = Found {
            status: Status::NoWin,
            line: Vec::new(),
            nodes: 0,
            depth: 0,
            threes: 0,
        };
        let passed = board.side() != attacker;
        if passed {
            board.pass();
        }
        let mut run = self.run(board, attacker, limits, stop);
        let mut result = R::Fail;
        let first = if limits.iterative { 0 } else { limits.threes };
        'deepen: for threes in first..=limits.threes {
            // VCF deepens move by move; each VCT iteration keeps the full depth for its fours.
            let depths = if threes == 0 && limits.iterative {
                1..=limits.depth
            } else {
                limits.depth..=limits.depth
            };
            for depth in depths {
                result = run.attack(threes, depth);
                found.depth = depth;
                found.threes = threes;
                if result != R::Fail {
                    break 'deepen;
                }
            }
        }
        match result {
            R::Win(_) => {
                found.status = Status::Win;
                // the line re-walks a proven win: only the stop flag may cut it short
                run.deadline = None;
                run.node_limit = u64::MAX;
                found.line = run.line(found.threes, found.depth);
            }
            R::Fail => found.status = Status::NoWin,
            R::Abort => found.status = Status::Unknown,
        }
        found.nodes = run.nodes;
        self.nodes += found.nodes;
        if passed {
            board.pass();
        }
        found
    }

    /// The proof tree of a win found by [`ThreatSearcher::search`] with the same `threes` and
    /// `depth` (from its [`Found`]); `None` if there is no such win or the tree has more than
    /// `max_nodes` attacker moves.
    pub fn proof(
        &mut self,
        game: &Gomoku,
        attacker: Side,
        threes: u32,
        depth: u32,
        max_nodes: usize,
        stop: &AtomicBool,
    ) -> Option<ProofNode> {
        let limits = ThreatLimits::vct(threes, depth);
        let mut board = ThreatBoard::from_game(game);
        if board.side() != attacker {
            board.pass();
        }
        let mut run = self.run(&mut board, attacker, &limits, stop);
        let mut budget = max_nodes;
        let tree = run.tree_attack(threes, depth, &mut budget);
        self.nodes += run.nodes;
        tree
    }
}

/// The answer of [`solve`]: the side to move's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatSolution {
    /// The move to play: the first move of a win, the most stubborn move of a loss, a move that
    /// stops the opponent's known threats when nothing is proven, or `None` when there is no
    /// threat either way.
    pub best: Option<Move>,
    /// `Some(true)`: a forced win; `Some(false)`: the opponent wins whatever the side to move
    /// does; `None`: unknown within the time (or a finished game that is no win).
    pub win: Option<bool>,
    /// For a win, the side to move's attack and the opponent's replies alternating, ending in
    /// five; for a loss, `best` followed by the opponent's winning attack.
    pub line: Vec<Move>,
    pub nodes: u64,
}

/// The limits `solve` uses: up to this many threes and attacker moves.
pub const SOLVE_THREES: u32 = 6;
pub const SOLVE_DEPTH: u32 = 40;

/// Solve a Gomoku position by threat search within `time`: a forced win for the side to move,
/// else a forced loss (the opponent has a threat win after *every* move), else unknown.
pub fn solve(game: &Gomoku, time: Duration, stop: &AtomicBool) -> ThreatSolution {
    ThreatSearcher::default().solve(game, time, stop)
}

/// Search a VCF for `attacker` (who may be the side not to move: the side to move then passes).
/// Returns the winning line, attacker first, ending in five.
pub fn find_vcf(
    game: &Gomoku,
    attacker: Side,
    limits: &ThreatLimits,
    stop: &AtomicBool,
) -> Option<Vec<Move>> {
    let limits = ThreatLimits {
        threes: 0,
        ..limits.clone()
    };
    let found = ThreatSearcher::default().search(game, attacker, &limits, stop);
    (found.status == Status::Win).then_some(found.line)
}

/// Search a VCT (threes and fours) for `attacker`; see [`find_vcf`].
pub fn find_vct(
    game: &Gomoku,
    attacker: Side,
    limits: &ThreatLimits,
    stop: &AtomicBool,
) -> Option<Vec<Move>> {
    let found = ThreatSearcher::default().search(game, attacker, limits, stop);
    (found.status == Status::Win).then_some(found.line)
}

/// What one side could do at once, counted over the empty squares near the stones.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ThreatCounts {
    /// Squares where its stone wins.
    pub fives: u32,
    /// Squares where its stone makes two or more five points (open four, double four).
    pub open_fours: u32,
    /// Squares where its stone makes a four (one five point or more).
    pub fours: u32,
    /// Squares where its stone makes a three (and no four).
    pub threes: u32,
}

/// Count `side`'s fives, fours and threes on the board (a few microseconds).
pub fn threat_counts(game: &Gomoku, side: Side) -> ThreatCounts {
    let board = ThreatBoard::from_game(game);
    let mut region = Vec::new();
    board.region(&mut region);
    let mut c = ThreatCounts::default();
    for sq in region {
        let p = board.probe(sq, side);
        if p.five {
            c.fives += 1;
        } else if p.five_points >= 2 {
            c.open_fours += 1;
            c.fours += 1;
        } else if p.five_points == 1 {
            c.fours += 1;
        } else if p.three_lines > 0 {
            c.threes += 1;
        }
    }
    c
}

/// Whether `side` has any five, four or three to play: the cheap test before a threat search.
pub fn threats_exist(game: &Gomoku, side: Side) -> bool {
    let c = threat_counts(game, side);
    c.fives + c.fours + c.threes > 0
}

impl ThreatSearcher {
    /// See [`solve`]. The table is kept (and reused) between the stages.
    pub fn solve(&mut self, game: &Gomoku, time: Duration, stop: &AtomicBool) -> ThreatSolution {
        let start_nodes = self.nodes;
        let deadline = Instant::now() + time;
        let me = game.side_to_move();
        let mut answer = ThreatSolution {
            best: None,
            win: None,
            line: Vec::new(),
            nodes: 0,
        };
        if let Some(outcome) = game.outcome() {
            if let Outcome::Win(s) = outcome {
                answer.win = Some(s == me);
            }
            return answer;
        }
        let limits = |share: f64| {
            let left = deadline.saturating_duration_since(Instant::now());
            ThreatLimits::vct(SOLVE_THREES, SOLVE_DEPTH).with_time(left.mul_f64(share))
        };
        // 1. A win of our own.
        let own = self.search(game, me, &limits(0.5), stop);
        if own.status == Status::Win {
            answer.best = own.best();
            answer.win = Some(true);
            answer.line = own.line;
            answer.nodes = self.nodes - start_nodes;
            return answer;
        }
        // 2. What the opponent threatens if we did nothing.
        let threat = self.search(game, me.opponent(), &limits(0.5), stop);
        if threat.status != Status::Win {
            answer.nodes = self.nodes - start_nodes;
            return answer;
        }
        // 3. Every move of ours, the likeliest defences first: does the opponent still win?
        let mut order: Vec<Move> = threat.line.clone();
        let board = ThreatBoard::from_game(game);
        let mut near = Vec::new();
        board.region(&mut near);
        order.extend(near.iter().map(|&sq| board.move_of(sq)));
        let mut all = Vec::new();
        game.legal_moves(&mut all);
        order.extend(all);
        let mut seen = vec![false; game.size() * game.size()];
        let mut longest: Option<(Move, Vec<Move>)> = None;
        for m in order {
            let Some(cell) = m.cell() else { continue };
            if seen[cell] || !game.is_legal(m) {
                continue;
            }
            seen[cell] = true;
            if stop.load(Ordering::Relaxed) || Instant::now() >= deadline {
                answer.nodes = self.nodes - start_nodes;
                return answer;
            }
            let mut after = game.clone();
            after.play(m);
            let left = deadline.saturating_duration_since(Instant::now());
            let lim = ThreatLimits::vct(SOLVE_THREES, SOLVE_DEPTH).with_time(left);
            let reply = self.search(&after, me.opponent(), &lim, stop);
            if reply.status != Status::Win {
                // m stops every threat the search knows (or time ran out looking): not proven.
                answer.best = Some(m);
                answer.nodes = self.nodes - start_nodes;
                return answer;
            }
            if longest
                .as_ref()
                .is_none_or(|(_, l)| reply.line.len() > l.len())
            {
                longest = Some((m, reply.line));
            }
        }
        if let Some((m, rest)) = longest {
            answer.best = Some(m);
            answer.win = Some(false);
            answer.line = std::iter::once(m).chain(rest).collect();
        }
        answer.nodes = self.nodes - start_nodes;
        answer
    }
}

impl Run<'_> {
    fn key(&self) -> u64 {
        match self.attacker {
            Side::Black => self.board.hash(),
            Side::White => self.board.hash() ^ SALT_WHITE,
        }
    }

    /// Count a node; true when the search must stop.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 255 == 0
            && (self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        self.aborted
    }

    /// One pass over the squares where either side makes a five, four or three.
    fn scan(&mut self, attacker_node: bool, with_threes: bool) -> Scan {
        let a = self.attacker;
        let d = a.opponent();
        let mut s = Scan::default();
        self.board.threat_squares(self.region);
        for &sq in self.region.iter() {
            let pa = self.board.probe(sq, a);
            let pd = self.board.probe(sq, d);
            if pa.five {
                s.a_five.push(sq);
            }
            if pd.five {
                s.d_five.push(sq);
            }
            if pa.five_points >= 2 {
                s.a_win.push(sq);
            }
            if attacker_node {
                let four = pa.five_points > 0;
                if four || (with_threes && pa.three_lines > 0) {
                    let score = 16 * i32::from(pa.four_lines + pa.three_lines >= 2)
                        + 6 * pa.four_lines as i32
                        + 4 * pa.three_lines as i32
                        + 2 * i32::from(pd.five_points > 0)
                        + i32::from(pd.three_lines > 0);
                    s.a_moves.push((sq, score, four));
                }
            } else if pd.five_points > 0 {
                s.d_fours.push(sq);
            }
        }
        s
    }

    fn attack(&mut self, threes: u32, depth: u32) -> R {
        if self.tick() {
            return R::Abort;
        }
        let key = self.key();
        if let Some(r) = self.tt.probe(key, threes, depth) {
            return r;
        }
        let s = self.scan(true, threes > 0);
        if let Some(&f) = s.a_five.first() {
            return R::Win(f);
        }
        if s.d_five.len() >= 2 {
            self.tt.store(key, TT_FAIL, 0, ANY, ANY);
            return R::Fail;
        }
        if let Some(&block) = s.d_five.first() {
            self.board.play(block);
            let r = self.defend(threes, depth);
            self.board.undo();
            return self.settle(key, r, block, threes, depth);
        }
        if let Some(&w) = s.a_win.first() {
            return R::Win(w);
        }
        if depth == 0 {
            return R::Fail;
        }
        let mut moves = s.a_moves;
        let killer = self.killers.get(self.ply).copied();
        moves.sort_by_key(|&(sq, score, _)| -(score + if Some(sq) == killer { 1000 } else { 0 }));
        for (m, _, four) in moves {
            let t = if four { threes } else { threes - 1 };
            self.board.play(m);
            self.ply += 1;
            let r = self.defend(t, depth - 1);
            self.ply -= 1;
            self.board.undo();
            match r {
                R::Win(_) => {
                    if self.killers.len() <= self.ply {
                        self.killers.resize(self.ply + 1, 0);
                    }
                    self.killers[self.ply] = m;
                    self.tt.store(key, TT_WIN, m, threes, depth);
                    return R::Win(m);
                }
                R::Abort => return R::Abort,
                R::Fail => {}
            }
        }
        self.tt.store(key, TT_FAIL, 0, threes, depth);
        R::Fail
    }

    fn settle(&mut self, key: u64, r: R, mv: Sq, threes: u32, depth: u32) -> R {
        match r {
            R::Win(_) => {
                self.tt.store(key, TT_WIN, mv, threes, depth);
                R::Win(mv)
            }
            R::Fail => {
                self.tt.store(key, TT_FAIL, 0, threes, depth);
                R::Fail
            }
            R::Abort => R::Abort,
        }
    }

    /// The defender's candidate moves when the attacker threatens two five points: the threat
    /// squares, the five points they would make, and the defender's own fours.
    fn defences(&self, s: &Scan) -> Vec<Sq> {
        let mut out = Vec::with_capacity(s.a_win.len() * 3 + s.d_fours.len());
        for &w in &s.a_win {
            out.push(w);
            self.board.five_points_of(w, self.attacker, &mut out);
        }
        out.extend_from_slice(&s.d_fours);
        let mut seen = Vec::with_capacity(out.len());
        out.retain(|sq| {
            if seen.contains(sq) {
                false
            } else {
                seen.push(*sq);
                true
            }
        });
        out
    }

    fn defend(&mut self, threes: u32, depth: u32) -> R {
        if self.tick() {
            return R::Abort;
        }
        let key = self.key();
        if let Some(r) = self.tt.probe(key, threes, depth) {
            return r;
        }
        let s = self.scan(false, false);
        if !s.d_five.is_empty() {
            self.tt.store(key, TT_FAIL, 0, ANY, ANY);
            return R::Fail;
        }
        if s.a_five.len() >= 2 {
            return R::Win(0);
        }
        if let Some(&block) = s.a_five.first() {
            self.board.play(block);
            let r = self.attack(threes, depth);
            self.board.undo();
            return self.settle(key, r, block, threes, depth);
        }
        if s.a_win.is_empty() {
            self.tt.store(key, TT_FAIL, 0, ANY, ANY);
            return R::Fail;
        }
        for p in self.defences(&s) {
            self.board.play(p);
            let r = self.attack(threes, depth);
            self.board.undo();
            match r {
                R::Win(_) => {}
                R::Fail => {
                    self.tt.store(key, TT_FAIL, p, threes, depth);
                    return R::Fail;
                }
                R::Abort => return R::Abort,
            }
        }
        self.tt.store(key, TT_WIN, 0, threes, depth);
        R::Win(0)
    }

    /// The attacker's move at a won attacker node and the budget left after it.
    fn winning_move(&mut self, threes: u32, depth: u32) -> Option<(Sq, u32, u32)> {
        let s = self.scan(true, threes > 0);
        if let Some(&f) = s.a_five.first() {
            return Some((f, threes, depth));
        }
        if s.d_five.len() >= 2 {
            return None;
        }
        if let Some(&block) = s.d_five.first() {
            return Some((block, threes, depth));
        }
        if let Some(&w) = s.a_win.first() {
            return Some((w, threes, depth.saturating_sub(1)));
        }
        match self.attack(threes, depth) {
            R::Win(m) => {
                let four = self.board.probe(m, self.attacker).five_points > 0;
                let t = if four {
                    threes
                } else {
                    threes.saturating_sub(1)
                };
                Some((m, t, depth.saturating_sub(1)))
            }
            _ => None,
        }
    }

    fn tree_attack(&mut self, threes: u32, depth: u32, budget: &mut usize) -> Option<ProofNode> {
        if *budget == 0 || self.aborted {
            return None;
        }
        *budget -= 1;
        let five = self.board.probe_five(self.attacker);
        let (m, t, d) = match five {
            Some(f) => (f, threes, depth),
            None => self.winning_move(threes, depth)?,
        };
        let attacker = self.board.move_of(m);
        if five.is_some() {
            return Some(ProofNode {
                attacker,
                replies: Vec::new(),
            });
        }
        self.board.play(m);
        let replies = self.tree_defend(t, d, budget);
        self.board.undo();
        Some(ProofNode {
            attacker,
            replies: replies?,
        })
    }

    fn tree_defend(
        &mut self,
        threes: u32,
        depth: u32,
        budget: &mut usize,
    ) -> Option<Vec<(Move, ProofNode)>> {
        let s = self.scan(false, false);
        if !s.d_five.is_empty() {
            return None;
        }
        let defences = if !s.a_five.is_empty() {
            s.a_five.clone()
        } else if s.a_win.is_empty() {
            return None;
        } else {
            self.defences(&s)
        };
        let mut replies = Vec::with_capacity(defences.len());
        for p in defences {
            self.board.play(p);
            let child = self.tree_attack(threes, depth, budget);
            self.board.undo();
            replies.push((self.board.move_of(p), child?));
        }
        Some(replies)
    }

    /// A winning line from a won attacker node: the principal line of the proof tree when the
    /// tree is small, else the first defence at every turn.
    fn line(&mut self, threes: u32, depth: u32) -> Vec<Move> {
        let mut budget = 20_000;
        if let Some(tree) = self.tree_attack(threes, depth, &mut budget) {
            return tree.principal_line();
        }
        self.aborted = false;
        let mut line = Vec::new();
        let (mut t, mut d) = (threes, depth);
        let mut played = 0;
        loop {
            if let Some(f) = self.board.probe_five(self.attacker) {
                line.push(self.board.move_of(f));
                break;
            }
            let Some((m, nt, nd)) = self.winning_move(t, d) else {
                break;
            };
            line.push(self.board.move_of(m));
            self.board.play(m);
            played += 1;
            let s = self.scan(false, false);
            let reply = if let Some(&b) = s.a_five.first() {
                b
            } else {
                match self.defences(&s).first() {
                    Some(&p) => p,
                    None => break,
                }
            };
            line.push(self.board.move_of(reply));
            self.board.play(reply);
            played += 1;
            (t, d) = (nt, nd);
        }
        for _ in 0..played {
            self.board.undo();
        }
        line
    }
}
