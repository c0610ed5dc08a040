//! The threat search inside the alpha-beta engine (Gomoku), next to
//! [`Searchable::forced_win`](crate::search::Searchable::forced_win) (the side to move's own
//! forced win, tried first at the root). Three seams, each switchable for measuring them with
//! [`ThreatParts`](crate::search::ThreatParts) in the search's options (every thread of a search
//! gets the same); all are off with the searcher's exact answers off
//! ([`Searcher::set_exact_hook`](crate::search::Searcher::set_exact_hook), `selfplay
//! --b-baseline`):
//! - **root analysis** ([`ThreatScratch::root_hint`], on): if the opponent has a threat win (VCF or VCT) should
//!   the side to move pass, the search's candidate replies are tested and those after which the
//!   opponent still wins are left out of the search — and if every legal reply loses, the most
//!   stubborn one is played with the proven loss score;
//! - **forced defences** ([`forced_defences`], on): at every node where the opponent has a square
//!   that would give it two five points, only the moves that do not lose at once are searched
//!   (the engine's board computes the same set from its own windows, at no cost elsewhere);
//! - **leaf VCF** ([`ThreatScratch::leaf_win`], off): a short VCF of the side to move at the horizon turns a
//!   heuristic leaf into a proven win. It finds many wins but costs about four times the
//!   engine's node time, and lost that back in self-play, so it is off by default.
//!
//! The engine's Gomoku board ([`GomokuBoard`](crate::search::gomoku::GomokuBoard)) carries a
//! threat [`ThreatBoard`], brought up to the searched position only when a seam needs it, and a
//! [`ThreatScratch`] (a threat searcher with its own table), made when a seam first needs it and
//! kept by the searcher between searches.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::board::ThreatBoard;
use super::{Status, ThreatLimits, ThreatSearcher};
use crate::game::Move;
use crate::search::{Limits, RootHint, WIN};

/// Threes and attacker moves allowed in the root searches.
const ROOT_THREES: u32 = 4;
const ROOT_DEPTH: u32 = 30;
/// Share of the move time for the opponent's threat search and for testing replies against it.
const THREAT_SHARE: f64 = 0.05;
const REPLY_SHARE: f64 = 0.12;
/// Node caps when the search has no time limit (depth- or node-limited searches).
const THREAT_NODES: u64 = 100_000;
const REPLY_NODES: u64 = 20_000;
/// A reply is tested with at most this many times the nodes the threat's own proof took (re-proving
/// the threat after a reply that does not touch it costs about the same), and at least the floor.
const REPLY_FACTOR: u64 = 4;
const REPLY_FLOOR: u64 = 400;
/// Leaf VCF: attacker moves and nodes.
const LEAF_DEPTH: u32 = 8;
const LEAF_NODES: u64 = 48;

/// Counts of the leaf seam on one board, since it was made (see [`ThreatScratch::counts`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct LeafCounts {
    /// Leaves asked about.
    pub calls: u64,
    /// Leaves where the side to move had a four, so a VCF was searched.
    pub searched: u64,
    /// VCF wins found.
    pub wins: u64,
    /// Threat-search nodes spent.
    pub nodes: u64,
}

/// The working state of the threat seams of one searcher (so of one thread): a threat searcher
/// with its own table, and the leaf counts. The searcher lends it to each search's board and
/// keeps it between searches ([`Board::Scratch`](crate::search::Board::Scratch)), so the table
/// carries over from one move of a game to the next. Which seams run is not decided here but by
/// the search's [`ThreatParts`](crate::search::ThreatParts), which every thread gets.
pub struct ThreatScratch {
    counts: LeafCounts,
    searcher: ThreatSearcher,
    never: AtomicBool,
}

impl Default for ThreatScratch {
    fn default() -> Self {
        ThreatScratch {
            counts: LeafCounts::default(),
            searcher: ThreatSearcher::new(16),
            never: AtomicBool::new(false),
        }
    }
}

impl Clone for ThreatScratch {
    fn clone(&self) -> Self {
        ThreatScratch {
            counts: self.counts,
            searcher: self.searcher.clone(),
            never: AtomicBool::new(false),
        }
    }
}

impl ThreatScratch {
    /// The leaf seam's counts so far.
    pub fn counts(&self) -> LeafCounts {
        self.counts
    }

    /// A proven win at the horizon: a short VCF of the side to move, as a score `WIN − plies`
    /// counted from the root (`ply` is the node's distance from it).
    pub fn leaf_win(&mut self, board: &mut ThreatBoard, ply: usize) -> Option<i32> {
        let ThreatScratch {
            counts,
            searcher,
            never,
        } = self;
        counts.calls += 1;
        let me = board.side();
        if !board.has_four(me) {
            return None;
        }
        counts.searched += 1;
        let limits = ThreatLimits {
            iterative: false,
            ..ThreatLimits::vcf(LEAF_DEPTH).with_nodes(LEAF_NODES)
        };
        let found = searcher.search_board(board, me, &limits, never);
        counts.nodes += found.nodes;
        counts.wins += u64::from(found.status == Status::Win);
        (found.status == Status::Win).then(|| WIN - ply as i32 - found.line.len() as i32)
    }

    /// The root analysis described in the module documentation: `candidates` are the moves the
    /// search would try (tested first; the other legal moves only to confirm that everything
    /// loses). `nodes` grows by the threat nodes.
    pub fn root_hint(
        &mut self,
        board: &mut ThreatBoard,
        candidates: &[Move],
        limits: &Limits,
        stop: &AtomicBool,
        nodes: &mut u64,
    ) -> RootHint {
        if board.played() == 0 && board.stones() == 0 {
            return RootHint::None;
        }
        let start = Instant::now();
        let budget = |share: f64, cap: u64| {
            let l = ThreatLimits::vct(ROOT_THREES, ROOT_DEPTH)
                .with_nodes(limits.nodes.map_or(cap, |n| (n / 4).clamp(1000, cap)));
            match limits.time {
                Some(t) => l.with_time(t.mul_f64(share)),
                None => l,
            }
        };
        let before = self.searcher.nodes();
        let hint = analyse(
            board,
            &mut self.searcher,
            candidates,
            &budget,
            limits
                .time
                .map(|t| start + t.mul_f64(THREAT_SHARE + REPLY_SHARE)),
            stop,
        );
        *nodes += self.searcher.nodes() - before;
        hint
    }
}

/// The moves that do not lose at once when the opponent of the side to move threatens to make
/// two five points (an open four or a double four) next move: the threat squares, the five points
/// they would make, and the side to move's own fours. Returns false (and leaves `out` empty) when
/// there is no such threat. The caller handles fives first: the side to move has no five point
/// and the opponent none either (else the game's forced rules apply).
///
/// Any other move loses: it makes no five point, so the opponent plays a threat square and has
/// two five points against none.
pub fn forced_defences(board: &ThreatBoard, out: &mut Vec<Move>) -> bool {
    out.clear();
    let me = board.side();
    let them = me.opponent();
    let mut points = Vec::new();
    board.for_each_threat_square(them, |sq, p| {
        if p.five_points >= 2 {
            points.push(sq);
            board.five_points_of(sq, them, &mut points);
        }
    });
    if points.is_empty() {
        return false;
    }
    board.for_each_threat_square(me, |sq, p| {
        if p.five_points > 0 {
            points.push(sq);
        }
    });
    points.sort_unstable();
    points.dedup();
    out.extend(points.into_iter().map(|sq| board.move_of(sq)));
    true
}

fn analyse(
    board: &mut ThreatBoard,
    searcher: &mut ThreatSearcher,
    candidates: &[Move],
    budget: &dyn Fn(f64, u64) -> ThreatLimits,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> RootHint {
    let me = board.side();
    // 1. The opponent's forced win, if we passed.
    let threat = searcher.search_board(
        board,
        me.opponent(),
        &budget(THREAT_SHARE, THREAT_NODES),
        stop,
    );
    if threat.status != Status::Win {
        return RootHint::None;
    }
    // 2. Which replies still lose to a threat win? The search's candidates, the threat's own
    //    squares first; then, only while every reply tested so far loses, all other moves.
    let in_line = |m: &Move| threat.line.contains(m);
    let mut order: Vec<Move> = candidates.iter().copied().filter(in_line).collect();
    order.extend(candidates.iter().copied().filter(|m| !in_line(m)));
    let first_round = order.len();
    let mut all = Vec::new();
    board.empty_squares(&mut all);
    let all: Vec<Move> = all.into_iter().map(|sq| board.move_of(sq)).collect();
    order.extend(all.iter().copied());
    let mut seen = vec![false; board.size() * board.size()];
    let mut losing = Vec::new();
    let mut longest: Option<(Move, Vec<Move>)> = None;
    let mut tested = 0;
    // Re-proving the threat after a reply that does not touch it costs about what proving it did.
    let cap = (threat.nodes * REPLY_FACTOR).clamp(REPLY_FLOOR, REPLY_NODES);
    let per_move = |left: Option<Duration>| {
        let l = ThreatLimits {
            iterative: false,
            ..ThreatLimits::vct(threat.threes, ROOT_DEPTH).with_nodes(cap)
        };
        match left {
            Some(t) => l.with_time(t),
            None => l,
        }
    };
    for (i, m) in order.into_iter().enumerate() {
        if i >= first_round && losing.len() < tested {
            break; // some reply holds: the rest cannot make this a proven loss
        }
        let Some(cell) = m.cell() else { continue };
        let sq = board.sq_of(cell);
        if seen[cell] || !board.is_empty(sq) {
            continue;
        }
        seen[cell] = true;
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if left.is_some_and(|l| l.is_zero()) || stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let reply = if board.probe(sq, me).five {
            None // our move wins on the spot
        } else {
            board.play(sq);
            let r = searcher.search_board(board, me.opponent(), &per_move(left), stop);
            board.undo();
            Some(r)
        };
        tested += 1;
        if let Some(r) = reply.filter(|r| r.status == Status::Win) {
            losing.push(m);
            if longest.as_ref().is_none_or(|(_, l)| r.line.len() > l.len()) {
                longest = Some((m, r.line));
            }
        }
    }
    if tested == all.len()
        && losing.len() == all.len()
        && let Some((m, line)) = longest
    {
        let pv: Vec<Move> = std::iter::once(m).chain(line).collect();
        return RootHint::Decided {
            best: m,
            score: -(WIN - pv.len() as i32),
            pv,
        };
    }
    if losing.is_empty() {
        RootHint::None
    } else {
        RootHint::Exclude(losing)
    }
}
