//! The NBoard protocol (version 2), spoken by Othello GUIs (NBoard) and engines (Edax, Ntest).
//!
//! Commands understood, one per line:
//!
//! | command | effect | answer |
//! |---|---|---|
//! | `nboard 2` | enter NBoard mode | `set myname xorboard` |
//! | `set depth N` | search depth for `go`/`hint`/`analyze` (1–60) | — |
//! | `set game <GGF>` | replace the position by the end of that game | — |
//! | `set contempt N` | draw value in centidiscs; kept and shown by `status` words only, the search scores a draw 0 | — |
//! | `move F5[/eval/time]`, `move PA` | play a move (also a bare `F5`, as NBoard 1.1 sent it) | — |
//! | `go` | choose a move; the board is *not* changed until `move` | `status …`, `nodestats …`, `=== F5/eval/time`, `status` (from the book: `status …`, `=== F5/eval/0.00`, `status`) |
//! | `hint N` | evaluate the best move, then up to N−1 others | `search <pv> <eval> 0 <depth>` lines, then `status` |
//! | `analyze` | evaluate every position of the game, last first | `analysis <ply> <eval>` lines, then `status` |
//! | `ping N` | stop thinking | `pong N` (after any `===` of the interrupted `go`) |
//! | `learn` | — (xorboard keeps no learned book) | `learned` |
//! | `quit` | end | — |
//!
//! Evals are in discs from the side to move's point of view, as the protocol wants; near the end,
//! a move solved for its result alone (`xorboard nboard` does this unless `--exact-endgame`; see
//! `search::othello::WLD_GAP`) reports a proven win as 65.00, a loss as -65.00, a draw as 0.00
//! (beyond any disc count, so no GUI mistakes it for one). In a position of the opening book
//! ([`OthelloBook`]: the first move after each XOT opening, with either colour, the second after
//! the replies it expects, and along its own lines from every opening but one the third;
//! `xorboard nboard --no-book` leaves it out)
//! `go` answers the book's move and score at once. Otherwise `go` searches
//! to the set depth — to the end of the game once at most depth + 4 squares are empty — and, when
//! the GGF carries a clock (`TI[15:00]`), also stops after the side's remaining time (the clock
//! minus the move times of the GGF and of `move F5/eval/time`) divided by its remaining moves;
//! with `--move-ms`, after that budget's share for the move plus time the game's earlier moves
//! left unused ([`BANK_SPREAD`]). Any line that
//! arrives while a search runs interrupts it: the search stops, its result is sent as usual (a
//! `go` always gets its `===`), then the line is handled — so `go` then `ping 2` answers `=== …`
//! then `pong 2`. A bad line is refused with one line on stderr and a `status` line naming it,
//! and changes nothing; unknown commands are ignored, as the protocol asks.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Arrival, Effect, SearchInfo, SearchRequest, Session, command_word, excerpt};
use crate::book::OthelloBook;
use crate::game::AnyGame;
use crate::game::notation::{othello_move_name, parse_othello_move};
use crate::game::othello::Othello;
use crate::game::{Game, Move, Side};
use crate::record::{ggf_clock, parse_ggf};
use crate::search::ProbCutConfidence;
use crate::search::othello::probcut::STATIC_GATE;
use crate::zobrist::Keys;

/// Depth used before any `set depth`.
pub const DEFAULT_DEPTH: u32 = 12;
/// The Multi-ProbCut confidence of fixed-depth play (no `--move-ms`): with no clock to beat, a
/// depth-`d` search prunes less than the engine's default (`100,5`, tuned at equal time) and
/// spends the time on a sounder tree. Against NTest, both at depth 12, 80-game XOT sets
/// (`othello_match.py`: the shipped openings in order, `--shuffle --seed 7`, `--seed 11`), think
/// time ours against NTest's:
/// - without the root's probable solves: `100,5` 31.2% / 39.4% / 32.5%, 51 s against 51 s on the
///   first two; `150,5` 43.4% on the first two (98 s against 58 s); `200,5` 45.3% (133 s
///   against 48 s); `250,5` 46.6% (231 s against 58 s); `100,10` 36.9%; `150,10` 42.2%;
/// - with them ([`SELECTIVE_EMPTIES`](crate::search::othello::SELECTIVE_EMPTIES)): `150,5`
///   49.4% / 41.2% / 31.9%, 40.8% in all (81-125-34); `200,5` 46.2% / 50.6% / 43.8%, 46.9% in
///   all (96-111-33), +0.56 / −0.78 discs a game, 250 s against NTest's 97 s (2.6×).
///
/// Later, with [`FASTEST_FIRST_DEPTH`](crate::search::othello::FASTEST_FIRST_DEPTH) at 2, on
/// twelve 40-game sets (the shipped order and seeds 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43;
/// two matches side by side): 50.6% on the first six, 45.4% on the others, 48.0% in all
/// (208-227-45), 359 s against NTest's 125 s (2.87×).
///
/// Twelve fresh sets (session 53; seeds 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101; two
/// matches side by side): 43.1% (178-244-58; 44.2% on the first six, 42.1% on the others), 323 s
/// against NTest's 125 s (2.59×). With the twelve above, 45.6% of 960 games: the sets that tuned
/// this confidence flattered it, and at depth 12 NTest is still ahead. On the same fresh sets
/// (`--probcut`, six sets a match, two matches side by side): `170,5` 37.5% (152-272-56) at
/// 2.0 times NTest's think time, `230,5` 44.2% (182-238-60) at 3.01 times: pruning less buys a
/// point at the 3× limit.
///
/// Session 55, with the evaluation blended between its bands
/// ([`Weights::blended`](crate::search::othello::eval::Weights::blended)) and the Multi-ProbCut
/// table refitted on it, on the same twelve fresh sets: `200,5` 45.4% (184-228-68) at 2.47 times
/// NTest's think time, `220,5` 46.1% (187-224-69) at 2.78 times, `230,5` 47.2% (193-220-67) at
/// 3.04 times. Now `220,5`: the time the blend saves spent on a sounder tree, under the 3× limit.
///
/// Session 56, on the same twelve sets. A confidence by stage (a throwaway switch) lies on the
/// same line: 140,5 from 44 empties up and 240,5 below 47.1% (194-222-64) at 3.14 times, 260,5
/// from 44 up and 220,5 below 46.8% (191-222-67) at 2.91 times. The Multi-ProbCut table fitted
/// on the nodes where the search tries the cut
/// ([`probcut`](crate::search::othello::probcut)) prunes more at the same confidence: `220,5`
/// 44.8% (185-235-60) at 2.29 times, `250,5` 47.4% (193-218-69) at 2.74 times, `260,5` 46.8%
/// (191-222-67) at 2.96 times; the same
/// table fitted on the nodes of our searches in matches against NTest (seeds 5 and 9) 46.7%
/// (194-226-60) at 2.27 times and 46.8% (193-224-63) at 2.94 times. Every point measured at
/// depth 12 since session 53 lies within a point or two of 46%, whatever the time: the margin
/// to 50% is not in this confidence. Now `250,5`: the time that table saves spent on a sounder
/// tree, as before under the 3× limit.
///
/// Session 57, the same twelve sets at `400,5` (two and a half times the nodes of `250,5` to
/// depth 12): 45.7% (187-228-65) at 6.08 times NTest's think time. Pruning less than `250,5`
/// buys nothing at a fixed depth: what a depth-12 search of ours sees, not what Multi-ProbCut
/// leaves out of it, is what NTest's depth 12 beats. The shipped `250,5` on twelve sets that chose
/// nothing here (seeds 131, 137, 139, 149, 151, 157, 163, 167, 173, 179, 181, 191): 47.8%
/// (205-226-49) at 2.92 times NTest's think time.
///
/// Session 58: the opening book ([`OthelloBook`], the engine's own depth-20 searches of the first
/// move after each XOT opening, with either colour) 49.6% (212-216-52) at 2.82 times on those
/// twelve sets; on twelve more (seeds 193-257) 44.9% against 45.0% without it (see
/// `src/bin/build-othello-book.rs`).
///
/// Session 59: the book's searches at `250,5` (this confidence) instead of `100,5`, on the sets
/// of seeds 193-257: 46.4% (190-225-65) where the first book scored 44.9%; with them for its
/// first 4,400 openings (see there) the shipped book scored 45.5% (186-229-65) at 2.55 times,
/// and with them for every opening (session 60) 46.4% (190-225-65) at 2.58 times.
///
/// Session 61: the midgame bands fitted to one-ply-deeper labels (`train-endgame-eval
/// --label-depth 1`, see there) 48.5% (207-221-52) at 2.56 times on those sets.
///
/// Session 62 (a new machine; NTest built again runs relatively faster here), both confidences
/// on the twelve sets of seeds 193-257 and the twelve of seeds 263-331, each run as two matches
/// side by side with nothing else running: `250,5` 48.5% (412-441-107; the same games as in
/// session 61) at 3.23 times NTest's think time (579 s against 179 s); `230,5` 47.8%
/// (403-445-112; set by set -0.7) at 2.79 times (535 s against 192 s), 8% less time of its own.
/// Then `230,5`: under the 3× limit on this machine at the same score within one standard error.
///
/// Session 63: the search prefetches each ordered child's table bucket (see
/// `OthelloBoard::prefetch_child` in `search::othello`), the same nodes 12% faster. `250,5` on
/// the same 24 sets plays the same games, 48.5% (412-441-107), at 2.83 times NTest's think time
/// (535 s against 189 s): `250,5` again.
///
/// Also session 63, on those 24 sets, a throwaway switch making the late midgame sounder and the
/// rest cheaper: nodes whose search reaches within 18 empties of the end (empties minus depth)
/// searched at 1.4 times the confidence, the others at `220,5`, 48.2% (408-442-110; set by set
/// -0.3, one standard error 0.8); 1.5 times there and `210,5` elsewhere 47.4% (400-450-110;
/// -1.1, 0.8). Replaying the 1,036 moves of `prefetch_child`'s measurement they took 18.6 s and
/// 18.2 s, `250,5` 19.5 s. Where the confidence goes is on the same line as before.
///
/// Session 64, the shipped engine on 24 sets that chose nothing (seeds 337-467, the primes; two
/// matches side by side): 44.9% (370-468-122) at 2.67 times NTest's think time. With the 24
/// above, 46.7% of 1,920 games: the sets that chose `250,5` and the midgame bands flatter them.
///
/// Session 69, the shipped engine (the opening book through its third-move part 12) on 24 more
/// sets that chose nothing (seeds 641-797, the primes; four matches on the two cores): 49.5%
/// (413-423-124) at 2.65 times NTest's think time; on the 48 sets of seeds 337-631 (part 12's
/// first half) 48.3% (806-873-241) at 2.52 times.
///
/// Session 70, the midgame bands fitted also on the nodes of the engine's own searches (see
/// `src/bin/train-endgame-eval.rs`), on those 72 sets and 24 more (seeds 809-967): 48.9%
/// (1,620-1,703-517) of 3,840 games, where the weights before scored 47.6% (1,579-1,766-495);
/// on the new 24 alone 46.7% against 44.3%, at 2.84 against 2.71 times NTest's think time (four
/// matches on the two cores).
///
/// Session 71, the static gate ([`STATIC_GATE`]: a shallow search only where the static
/// evaluation comes within a disc of its bound), on the same 96 sets: 48.7% (1,612-1,712-516),
/// set by set -0.22 (one standard error 0.22) against the ungated engine's 48.9%, at 2.30
/// against 2.83 times NTest's think time (four matches on the two cores each). Spending the
/// time it saves on a sounder search, `300,5` with the gate: 47.7% (902-1,003-295) on 55 of
/// those sets where `250,5` with the gate scored 48.1% (910-994-296), set by set -0.39 (0.28), at
/// 3.14 against 2.31 times; stopped there, not kept.
///
/// A GGF game clock without `--move-ms` keeps this confidence: the clock only guards the time.
pub const FIXED_DEPTH_PROBCUT: ProbCutConfidence = ProbCutConfidence {
    base: 250,
    per_depth: 5,
    gate: Some(STATIC_GATE),
};
/// Deepest `set depth` accepted.
pub const MAX_DEPTH: u32 = 60;
/// With at most this many empties beyond the midgame depth, search to the end (exact result).
pub const ENDGAME_EXTRA: u32 = 4;
/// Least time a timed `go` gets.
pub const MIN_MOVE_MS: u64 = 20;
/// The engine's Othello scores are disc differences times this (centi-discs).
pub const SCORE_PER_DISC: i32 = 100;
/// How `--move-ms` spreads its budget over the game: the moves with a band's empties get its
/// share of the budget (percent), the others the budget itself. The opening (45 empties and
/// more) takes little: against NTest at depth 16 we lose about 0.2 discs there, against 1.2
/// from 46 to 34 empties and 1 more from 34 to 28 (NTest's own depth-18 evaluation of our XOT
/// games at 52, 46, 40, 34 and 28 empties). The moves just before the exact solver takes over
/// (22 to 29 empties) take the most: they decide the most, and the time comes back below
/// them (at 90 ms a move the solver used 79 ms at 21 empties, 65 at 20, 31 at 19 and 9 at 18).
///
/// Measured against NTest at depth 16 with `--move-ms 64` (NTest's average per move is 60 to
/// 70 ms), 40 XOT games per set (the shipped order, `--shuffle --seed 7`, `11`, `13`), two
/// matches side by side; the search stops on the clock, so the machine's load changes the
/// games, and one standard error of a 160-game score is about 3.5 points:
/// - 300% from 22 to 29 empties, the budget elsewhere (before): 32.5%, 22.5%, 33.75%, 25.0%,
///   so 28.4% (−5.0 discs a game), 54–55 s of thinking against NTest's 62–72 s;
/// - the shares here: 41.25%, 36.25%, 25.0%, 31.25%, so 33.4% (−5.0 discs), 59 s against
///   62–74 s; the same sets again 28.75%, 22.5%, 31.25%, 27.5% (27.5%), and two more sets
///   (seeds 17, 19) 37.5%, 28.75%: 31.0% of 400 games, no measurable gain over the 28.4%
///   before. Kept for where it puts the time (NTest's own evaluation of these games, above);
/// - 50% from 60 to 45, 200% from 44 to 30: 27.5%, 33.75%, 22.5%, 38.75%, so 30.6%, 66–68 s
///   against 60–71 s (more than NTest's time).
///
/// Earlier, at `--move-ms 90` (80 XOT games): an even budget scored about 20%; 300% from 22 to
/// 29 empties 30–36%; 400% there 29.4%; 250% from 22 to 33 25.6%.
///
/// The figures above had the referee's `set depth 16` on both engines, and that depth caps ours: it
/// ends about half our searches from 44 to 30 empties and nearly all at 26 to 28 before their time
/// is up, so xorboard thinks only 42–46 s of a match against NTest's 58–79 s. With our depth
/// uncapped (`othello_match.py --depth-a 16 --depth-b 60`) both think about as long, and on the
/// four sets above and seeds 17, 19: the build before the folded evaluation ([`eval`]) 31.2 / 23.8
/// / 22.5 / 33.8 / 35.0 / 28.7%, so 29.2%, 59–61 s against NTest's 63–70 s; with it and the last
/// ply's lazy order 41.2 / 36.3 / 28.7 / 40.0 / 25.0 / 33.8%, so 34.2% (one standard error of the
/// difference is about 4 points), 59–62 s against 59–80 s. Capped (both at 16), the same build
/// scored 29.4% over those six sets (32.5 / 27.5 / 23.8 / 32.5 / 22.5 / 37.5%, 42–45 s against
/// 58–79 s), the build before 25.0% (28.7 / 23.8 / 28.7 / 23.8 / 33.8 / 11.3%, 46–50 s against
/// 67–78 s). Uncapped, where the moves from 44 to 30 empties use their share, 200% there and 250%
/// from 29 to 22 scored 33.8% on the six sets (40.0 / 31.2 / 33.8 / 33.8 / 30.0 / 33.8%), thinking
/// 65–66 s against NTest's 58–72 s: not kept. Searching the capped last iteration at the
/// fixed-depth confidence ([`FIXED_DEPTH_PROBCUT`]) when at most a fifth of the budget had gone
/// before it, to spend the time the cap leaves, was measured and not kept: 30.6% over the six sets
/// (31.2 / 31.2 / 32.5 / 33.8 / 22.5 / 32.5%), thinking 53–56 s.
///
/// Where those uncapped games are decided: solved exactly at 26, 22 and 18 empties, 53 of them (the
/// shipped set's 40 and seed 7's first 13) never change their result after 26 empties (the mean
/// exact score for xorboard falls from −1.55 discs at 26 empties to −3.66 at the end, but no win,
/// draw or loss turns over), so the lost games are lost in the midgame. Per move (one 40-game set,
/// seed 23), NTest thinks 67–101 ms from 52 to 44 empties, about 70 from 43 to 28 and 150–170 from
/// 27 to 20 (its selective solves), xorboard 37–49, 91, then 133–178.
///
/// So the time from 29 to 22 empties was moved to the midgame (session 57, a throwaway switch;
/// each variant beside the shipped shares, NTest at depth 16, `--move-ms 64` uncapped): 80% /
/// 220% / 150% (from 60 to 45, 44 to 30, 29 to 22 empties) 34.2% (64-140-36) on the six sets,
/// 370 s against NTest's 330 s, where the shipped shares scored 32.5%, 352 s against 333 s; 100%
/// / 250% / 80% 34.2% (70-146-24), 380 s against 321 s, shipped 29.6%; 90% / 230% / 70% on six
/// other sets (seeds 23, 29, 31, 37, 41, 43) 29.8% (60-157-23), 351 s against 335 s, shipped 33.5%
/// (64-143-33). 32.7% of 720 games against 31.9% of 720, the first two thinking a tenth longer:
/// where the midgame's time comes from does not show in the games. Not kept.
///
/// Session 63, with each ordered child's table bucket prefetched (the same nodes 12% faster at
/// depth 12; see `OthelloBoard::prefetch_child`): NTest at depth 16 against `--move-ms 52` on the
/// six sets (two matches side by side) 34.0% (69-146-25), xorboard 46 ms a move against NTest's
/// 49, where the build before scored 35.2% (70-141-29) in session 62. The speed does not show at
/// equal time, as the move-by-move losses in `search::othello` predict. Against the build before
/// it, both `--move-ms 52` (80 XOT games, `--shuffle --seed 3` and `4`, side by side): 56.9%
/// (39-28-13), +1.2 discs a game, each side thinking 93 s.
///
/// Session 64, on six sets that chose nothing (seeds 337, 347, 349, 353, 359, 367; two matches
/// side by side), NTest at depth 16 thinking 59-60 ms a move on this day's machine: `--move-ms
/// 52` 33.3% (63-143-34), xorboard 46 ms a move; `--move-ms 68` 33.1% (64-145-31), 59 ms a move
/// against NTest's 59. The six sets above do not flatter the equal-time score.
///
/// Session 94 (NTest at depth 16, XOT seeds 4001-4012, two matches side by side), where
/// capping the depth from 34 to 27 empties had cost twelve points (see `search::othello`):
/// more time there, 60% / 130% / 250% / 200% from 60 to 45, 44 to 35, 34 to 27 and 26 to 22
/// empties, `--move-ms 58` scored 34.4% (133-283-64) at 0.86 times NTest's think time, where
/// these shares scored 36.7% (141-269-70) at 0.95. Not kept.
///
/// [`eval`]: crate::search::othello::eval
pub const BUDGET_SHARES: [(std::ops::RangeInclusive<u32>, u32); 3] =
    [(45..=60, 60), (30..=44, 150), (22..=29, 300)];

/// A `go` under `--move-ms` adds this fraction of the time banked by the game's earlier moves
/// (what their searches left of their shares, and a book move's whole share) to its own share,
/// so that over a game the engine thinks about as long as `--move-ms` a move, as an opponent
/// held to the same average does; the bank starts empty with each `set game`.
///
/// Measured (session 78) against NTest at depth 16, uncapped (`--depth-a 60`), on six 40-game
/// XOT sets (seeds 2001-2006, two matches side by side): `--move-ms 71` without the bank 38.5%
/// (74-129-37), thinking 60.1 ms a move against NTest's 79.5; with it 39.0% (75-128-37), 66.7
/// ms a move against NTest's 77.3. The time now nearly matches; the score, as in every
/// measurement of more midgame time since session 57, does not move with it. `--move-ms 64`
/// without the bank scored 39.0% (77-130-33), 54.5 ms a move against NTest's 71.6.
pub const BANK_SPREAD: u32 = 4;
/// At most this many times its share comes from the bank on top of it.
pub const BANK_MAX_EXTRA: u32 = 2;

/// The share of `--move-ms` (percent) a move with `empties` empties gets ([`BUDGET_SHARES`]).
pub fn budget_percent(empties: u32) -> u32 {
    BUDGET_SHARES
        .iter()
        .find(|(band, _)| band.contains(&empties))
        .map_or(100, |&(_, percent)| percent)
}

/// What the running search is for.
#[derive(Clone, Debug)]
enum Job {
    /// `go`: answer `===`.
    Go,
    /// `hint n`: the root first (`child` None), then the other moves one by one.
    Hint {
        n: usize,
        child: Option<Move>,
        others: Vec<Move>,
        found: Vec<(Move, String, SearchInfo)>,
    },
    /// `analyze`: positions still to evaluate, with their ply; the current one is first.
    Analyze { todo: Vec<(usize, Othello)> },
}

#[derive(Clone, Debug)]
struct Task {
    id: u64,
    job: Job,
    /// The position the job is about (the root for `go` and `hint`).
    root: Othello,
    /// Deepest depth already streamed as a `search` line.
    reported_depth: u32,
    /// Elapsed ms of the last `nodestats` line.
    stats_ms: u64,
    /// No follow-up searches: a line interrupted this one.
    cancelled: bool,
}

/// The NBoard session state.
#[derive(Clone, Debug)]
pub struct Nboard {
    keys: &'static Keys,
    game: Othello,
    depth: u32,
    contempt: i32,
    version: Option<u32>,
    /// The game clock of the last `set game` (its `TI[]`), if any.
    clock: Option<Duration>,
    /// A budget per move (the command line's `--move-ms`, shared out by [`BUDGET_SHARES`]), if any.
    move_budget: Option<Duration>,
    /// Budget this game's earlier moves left unused (a book move all of its share), for the
    /// moves to come: each gets [`BANK_SPREAD`]th of it on top of its share.
    bank: Duration,
    /// Time used by black and white, from the GGF move times and `move F5/eval/time`.
    used: [Duration; 2],
    /// The opening book answering `go` in its positions at once (`--no-book` leaves it out).
    book: Option<Arc<OthelloBook>>,
    next_id: u64,
    task: Option<Task>,
}

/// The part of the state a refused line must not change (for tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub hash: u64,
    pub history: Vec<Move>,
    pub depth: u32,
    pub contempt: i32,
    pub version: Option<u32>,
    pub clock: Option<Duration>,
    pub used: [Duration; 2],
    pub searching: bool,
}

impl Nboard {
    pub fn new(keys: &'static Keys) -> Nboard {
        Nboard {
            keys,
            game: Othello::new(keys),
            depth: DEFAULT_DEPTH,
            contempt: 0,
            version: None,
            clock: None,
            move_budget: None,
            bank: Duration::ZERO,
            used: [Duration::ZERO; 2],
            book: None,
            next_id: 1,
            task: None,
        }
    }

    /// Start with another default depth (the command line's `--depth`).
    pub fn with_depth(mut self, depth: u32) -> Nboard {
        self.depth = depth.clamp(1, MAX_DEPTH);
        self
    }

    /// Think a set time per move (the command line's `--move-ms`, shared out over the game by
    /// [`BUDGET_SHARES`]); `set depth` still caps the depth, and a game clock, when
    /// the GUI sends one, can only shorten the budget.
    pub fn with_move_budget(mut self, budget: Option<Duration>) -> Nboard {
        self.move_budget = budget;
        self
    }

    /// Answer `go` in the positions of `book` from it, without a search.
    pub fn with_book(mut self, book: Option<Arc<OthelloBook>>) -> Nboard {
        self.book = book;
        self
    }

    /// The current position.
    pub fn game(&self) -> &Othello {
        &self.game
    }

    pub fn depth(&self) -> u32 {
        self.depth
    }

    pub fn contempt(&self) -> i32 {
        self.contempt
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            hash: self.game.hash(),
            history: self.game.history().to_vec(),
            depth: self.depth,
            contempt: self.contempt,
            version: self.version,
            clock: self.clock,
            used: self.used,
            searching: self.task.is_some(),
        }
    }

    fn refuse(&self, msg: String) -> Vec<Effect> {
        vec![
            Effect::Log(format!("nboard: {msg}")),
            Effect::Send(format!("status error: {msg}")),
        ]
    }

    /// The depth to search `pos` to: the set depth, or to the end when few empties are left.
    fn depth_for(&self, pos: &Othello) -> u32 {
        let empties = pos.empties();
        if empties <= self.depth + ENDGAME_EXTRA {
            // Deep enough to reach every game end (passes included): an exact result.
            empties + 2
        } else {
            self.depth
        }
    }

    fn start(&mut self, job: Job, root: Othello, position: Othello, depth: u32) -> Vec<Effect> {
        self.start_timed(job, root, position, depth, None)
    }

    fn start_timed(
        &mut self,
        job: Job,
        root: Othello,
        position: Othello,
        depth: u32,
        time: Option<Duration>,
    ) -> Vec<Effect> {
        let id = self.next_id;
        self.next_id += 1;
        self.task = Some(Task {
            id,
            job,
            root,
            reported_depth: 0,
            stats_ms: 0,
            cancelled: false,
        });
        vec![Effect::Search(SearchRequest {
            id,
            position: AnyGame::Othello(position),
            depth: Some(depth),
            time,
            deadline: None,
        })]
    }

    /// The time manager. With a game clock: the remaining time of the side to move spread over
    /// its remaining moves (a tenth kept back), so a deep `set depth` cannot lose on time. With
    /// `--move-ms`: that budget (its share by [`BUDGET_SHARES`], and a [`BANK_SPREAD`]th of the
    /// time the game's earlier moves left), or the clock's share when it is smaller. Neither: no
    /// limit but the depth.
    pub fn move_time(&self, pos: &Othello) -> Option<Duration> {
        let from_clock = self.clock.map(|clock| {
            let left = clock.saturating_sub(self.used[pos.side_to_move().index()]);
            let moves_left = pos.empties().div_ceil(2) + 2;
            (left * 9 / 10 / moves_left).max(Duration::from_millis(MIN_MOVE_MS))
        });
        let move_budget = self
            .move_share(pos)
            .map(|share| share + (self.bank / BANK_SPREAD).min(share * BANK_MAX_EXTRA));
        match (from_clock, move_budget) {
            (Some(c), Some(b)) => Some(c.min(b)),
            (c, b) => c.or(b),
        }
    }

    /// This move's share of `--move-ms` ([`BUDGET_SHARES`]), if there is a budget.
    fn move_share(&self, pos: &Othello) -> Option<Duration> {
        self.move_budget
            .map(|b| b * budget_percent(pos.empties()) / 100)
    }

    fn go(&mut self) -> Vec<Effect> {
        let pos = self.game.clone();
        if pos.is_over() {
            return self.refuse("go: the game is over".into());
        }
        if pos.move_mask() == 0 {
            return vec![Effect::Send("=== PA".into()), Effect::Send("status".into())];
        }
        if let Some((mv, score)) = self.book.as_ref().and_then(|b| b.reply(&pos)) {
            self.bank += self.move_share(&pos).unwrap_or_default();
            return vec![
                Effect::Send("status xorboard plays its book move".into()),
                Effect::Send(move_line(mv, score, 0.0)),
                Effect::Send("status".into()),
            ];
        }
        let depth = self.depth_for(&pos);
        let mut out = vec![Effect::Send(format!(
            "status xorboard is thinking (depth {depth})"
        ))];
        let time = self.move_time(&pos);
        out.extend(self.start_timed(Job::Go, pos.clone(), pos, depth, time));
        out
    }

    fn hint(&mut self, arg: &str) -> Vec<Effect> {
        let n = match arg.split_whitespace().next() {
            None => 1,
            Some(w) => match w.parse::<usize>() {
                Ok(n) if n >= 1 => n,
                _ => return self.refuse(format!("hint: '{}' is not a count ≥ 1", excerpt(w, 12))),
            },
        };
        let pos = self.game.clone();
        if pos.is_over() {
            return self.refuse("hint: the game is over".into());
        }
        let depth = self.depth_for(&pos);
        let mut out = vec![Effect::Send(format!(
            "status xorboard is analysing (depth {depth})"
        ))];
        let job = Job::Hint {
            n,
            child: None,
            others: Vec::new(),
            found: Vec::new(),
        };
        out.extend(self.start(job, pos.clone(), pos, depth));
        out
    }

    fn analyze(&mut self) -> Vec<Effect> {
        let mut todo = Vec::new();
        let mut g = self.game.clone();
        loop {
            todo.push((g.ply(), g.clone()));
            if g.undo().is_none() {
                break;
            }
        }
        let mut out = vec![Effect::Send("status xorboard is analysing the game".into())];
        out.extend(self.next_analysis(todo));
        out
    }

    /// Report finished positions of an analysis and start the next search, or end it.
    fn next_analysis(&mut self, mut todo: Vec<(usize, Othello)>) -> Vec<Effect> {
        let mut out = Vec::new();
        while let Some((ply, pos)) = todo.first().cloned() {
            if pos.is_over() {
                out.push(Effect::Send(format!(
                    "analysis {ply} {}",
                    disc_text(pos.final_disc_difference() * SCORE_PER_DISC)
                )));
                todo.remove(0);
                continue;
            }
            let depth = self.depth_for(&pos);
            out.extend(self.start(Job::Analyze { todo }, pos.clone(), pos, depth));
            return out;
        }
        self.task = None;
        out.push(Effect::Send("status".into()));
        out
    }

    fn set(&mut self, rest: &str) -> Vec<Effect> {
        let (what, value) = command_word(rest);
        match what.as_str() {
            "depth" => match value.parse::<u32>() {
                Ok(d) if (1..=MAX_DEPTH).contains(&d) => {
                    self.depth = d;
                    Vec::new()
                }
                _ => self.refuse(format!(
                    "set depth: '{}' is not a depth from 1 to {MAX_DEPTH}",
                    excerpt(value, 12)
                )),
            },
            "game" => {
                match parse_ggf(value).and_then(|rec| Ok((rec.to_othello(self.keys)?, rec))) {
                    Ok((g, rec)) => {
                        // Each side's time from the moves' times; sides alternate ply by ply.
                        let mut side = rec.start.map_or(Side::Black, |s| s.side);
                        let mut used = [Duration::ZERO; 2];
                        for i in 0..rec.moves.len() {
                            used[side.index()] +=
                                Duration::from_millis(rec.think_ms_of(i).unwrap_or(0));
                            side = side.opponent();
                        }
                        self.game = g;
                        self.clock = ggf_clock(value);
                        self.used = used;
                        self.bank = Duration::ZERO;
                        Vec::new()
                    }
                    Err(e) => self.refuse(format!("set game: {e}")),
                }
            }
            "contempt" => match value.parse::<f64>() {
                Ok(c) if c.is_finite() && c.abs() <= 6400.0 => {
                    self.contempt = c.round() as i32;
                    Vec::new()
                }
                _ => self.refuse(format!(
                    "set contempt: '{}' is not a number of centidiscs",
                    excerpt(value, 12)
                )),
            },
            _ => vec![Effect::Log(format!(
                "nboard: ignored: set {}",
                excerpt(rest, 40)
            ))],
        }
    }

    fn play(&mut self, text: &str) -> Vec<Effect> {
        let mut parts = text.split('/');
        let sq = parts.next().unwrap_or("").trim();
        let secs = match parts.nth(1).map(str::trim) {
            None | Some("") => 0.0,
            Some(t) => match t.parse::<f64>() {
                Ok(v) if v.is_finite() && v >= 0.0 => v.min(1e9),
                _ => {
                    return self.refuse(format!(
                        "move {}: '{t}' is not a time in seconds",
                        excerpt(text, 20)
                    ));
                }
            },
        };
        let side = self.game.side_to_move();
        match parse_othello_move(sq) {
            Ok(mv) => match self.game.try_play(mv) {
                Ok(_) => {
                    self.used[side.index()] += Duration::from_secs_f64(secs);
                    Vec::new()
                }
                Err(e) => self.refuse(format!("move {}: {e}", excerpt(text, 20))),
            },
            Err(e) => self.refuse(format!("move: {e}")),
        }
    }

    fn info_line(&self, kind: &str, pv: &str, score: i32, depth: u32, exact: bool) -> String {
        let depth_text = if exact {
            format!("{depth}@100%")
        } else {
            depth.to_string()
        };
        format!("{kind} {pv} {} 0 {depth_text}", disc_text(score))
    }
}

/// Engine score → eval text in discs, e.g. `2.00`, `-1.50`.
/// `go`'s answer: `=== F5/eval/seconds`.
fn move_line(mv: Move, score: i32, secs: f64) -> String {
    format!(
        "=== {}/{}/{secs:.2}",
        othello_move_name(mv).to_ascii_uppercase(),
        disc_text(score)
    )
}

fn disc_text(score: i32) -> String {
    format!("{:.2}", score as f64 / SCORE_PER_DISC as f64)
}

/// A PV without spaces, as NBoard wants (`F5-D6-C3`).
fn pv_text(moves: &[Move]) -> String {
    let names: Vec<String> = moves
        .iter()
        .map(|&m| othello_move_name(m).to_ascii_uppercase())
        .collect();
    names.join("-")
}

/// The move to play from a result: the engine's best when legal, else the first legal move.
fn chosen_move(pos: &Othello, info: &SearchInfo) -> Option<Move> {
    if let Some(best) = info.best.filter(|&m| pos.is_legal(m)) {
        return Some(best);
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.first().copied()
}

impl Session for Nboard {
    fn line(&mut self, line: &str, _at: Instant) -> Vec<Effect> {
        let (cmd, rest) = command_word(line);
        match cmd.as_str() {
            "" => Vec::new(),
            "nboard" => match rest.parse::<u32>() {
                Ok(v) => {
                    self.version = Some(v);
                    vec![Effect::Send("set myname xorboard".into())]
                }
                Err(_) => self.refuse(format!(
                    "nboard: '{}' is not a protocol version",
                    excerpt(rest, 12)
                )),
            },
            "set" => self.set(rest),
            "move" => self.play(rest),
            "go" => self.go(),
            "hint" => self.hint(rest),
            "analyze" => self.analyze(),
            "ping" => vec![Effect::Send(
                format!("pong {}", excerpt(rest, 40)).trim_end().to_string(),
            )],
            "learn" => vec![Effect::Send("learned".into())],
            "quit" => vec![Effect::Quit],
            _ if cmd.len() == 2 && rest.is_empty() && parse_othello_move(&cmd).is_ok() => {
                self.play(&cmd)
            }
            _ => vec![Effect::Log(format!(
                "nboard: ignored unknown command '{}'",
                excerpt(line, 40)
            ))],
        }
    }

    fn progress(&mut self, id: u64, info: &SearchInfo) -> Vec<Effect> {
        let Some(task) = self.task.as_mut().filter(|t| t.id == id) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if info.elapsed_ms >= task.stats_ms + 250 {
            task.stats_ms = info.elapsed_ms;
            out.push(Effect::Send(format!(
                "nodestats {} {:.2}",
                info.nodes,
                info.elapsed_ms as f64 / 1000.0
            )));
        }
        let streams = matches!(task.job, Job::Hint { child: None, .. } | Job::Go);
        if streams && info.depth > task.reported_depth && !info.pv.is_empty() {
            task.reported_depth = info.depth;
            let (pv, score, depth, exact) = (pv_text(&info.pv), info.score, info.depth, info.exact);
            out.push(Effect::Send(
                self.info_line("search", &pv, score, depth, exact),
            ));
        }
        out
    }

    fn done(&mut self, id: u64, info: &SearchInfo) -> Vec<Effect> {
        let Some(task) = self.task.take().filter(|t| t.id == id) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        match task.job {
            Job::Go => {
                // What the search left of the move's share (banked time aside) is banked.
                if let Some(share) = self.move_share(&task.root) {
                    self.bank =
                        (self.bank + share).saturating_sub(Duration::from_millis(info.elapsed_ms));
                }
                let mv = chosen_move(&task.root, info);
                let secs = info.elapsed_ms as f64 / 1000.0;
                out.push(Effect::Send(format!("nodestats {} {secs:.2}", info.nodes)));
                out.push(Effect::Send(match mv {
                    Some(m) => move_line(m, info.score, secs),
                    None => "=== PA".into(),
                }));
                out.push(Effect::Send("status".into()));
            }
            Job::Hint {
                n,
                child,
                mut others,
                mut found,
            } => {
                match child {
                    None => {
                        let best = chosen_move(&task.root, info);
                        let pv = if info.pv.first().copied() == best && best.is_some() {
                            info.pv.clone()
                        } else {
                            best.into_iter().collect()
                        };
                        if !pv.is_empty() {
                            out.push(Effect::Send(self.info_line(
                                "search",
                                &pv_text(&pv),
                                info.score,
                                info.depth.max(1),
                                info.exact,
                            )));
                        }
                        if n > 1 {
                            task.root.legal_moves(&mut others);
                            others.retain(|&m| Some(m) != best);
                        }
                    }
                    Some(m) => {
                        let mut pv = vec![m];
                        pv.extend(info.pv.iter().copied());
                        found.push((m, pv_text(&pv), info.clone()));
                    }
                }
                if !task.cancelled
                    && let Some(m) = others.pop()
                {
                    let mut pos = task.root.clone();
                    pos.play(m);
                    let depth = self.depth_for(&task.root).saturating_sub(1).max(1);
                    let job = Job::Hint {
                        n,
                        child: Some(m),
                        others,
                        found,
                    };
                    out.extend(self.start(job, task.root, pos, depth));
                    return out;
                }
                // The other moves, best first (a child's score is the opponent's).
                found.sort_by_key(|(_, _, i)| i.score);
                for (_, pv, i) in found.iter().take(n.saturating_sub(1)) {
                    out.push(Effect::Send(self.info_line(
                        "search",
                        pv,
                        -i.score,
                        i.depth + 1,
                        i.exact,
                    )));
                }
                out.push(Effect::Send("status".into()));
            }
            Job::Analyze { mut todo } => {
                if !todo.is_empty() {
                    let (ply, _) = todo.remove(0);
                    out.push(Effect::Send(format!(
                        "analysis {ply} {}",
                        disc_text(info.score)
                    )));
                }
                if task.cancelled {
                    out.push(Effect::Send("status".into()));
                } else {
                    out.extend(self.next_analysis(todo));
                }
            }
        }
        out
    }

    fn searching(&self) -> Option<u64> {
        self.task.as_ref().map(|t| t.id)
    }

    fn arrival(&self, line: &str) -> Arrival {
        if line.trim().is_empty() {
            Arrival::Queue
        } else {
            Arrival::Interrupt
        }
    }

    fn interrupt(&mut self) -> Vec<Effect> {
        match self.task.as_mut() {
            Some(t) => {
                t.cancelled = true;
                vec![Effect::Stop]
            }
            None => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_done(s: &mut Nboard, effects: &[Effect]) -> Vec<Effect> {
        let mut out = Vec::new();
        for e in effects {
            if let Effect::Search(req) = e {
                let AnyGame::Othello(pos) = &req.position else {
                    panic!("othello position expected")
                };
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                let info = SearchInfo {
                    depth: req.depth.unwrap_or(1),
                    best: moves.first().copied(),
                    pv: moves.first().copied().into_iter().collect(),
                    score: 200,
                    ..SearchInfo::default()
                };
                let next = s.done(req.id, &info);
                out.extend(next.clone());
                out.extend(fake_done(s, &next));
            }
        }
        out
    }

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
    fn go_answers_a_legal_move_and_keeps_the_board() {
        let mut s = Nboard::new(Keys::default_keys());
        let now = Instant::now();
        assert_eq!(sent(&s.line("nboard 2", now)), ["set myname xorboard"]);
        assert!(s.line("set depth 3", now).is_empty());
        let e = s.line("go", now);
        let out = sent(&fake_done(&mut s, &e));
        assert!(out.iter().any(|l| l == "=== D3/2.00/0.00"), "{out:?}");
        assert_eq!(s.game().ply(), 0);
        assert!(s.line("move d3", now).is_empty());
        assert_eq!(s.game().ply(), 1);
    }

    #[test]
    fn go_answers_from_the_book_without_a_search() {
        let keys = Keys::default_keys();
        let book = OthelloBook::parse("f5d6c3 -> d3 -1.25", keys).unwrap();
        let mut s = Nboard::new(keys).with_book(Some(Arc::new(book)));
        let now = Instant::now();
        // The book position reached by another move order, mirrored: f5d6c3 is e6f4c3 turned.
        for m in ["move e6", "move f4", "move c3"] {
            assert!(s.line(m, now).is_empty());
        }
        let out = sent(&s.line("go", now));
        assert_eq!(out.len(), 3, "{out:?}");
        assert!(
            out[1].starts_with("=== ") && out[1].ends_with("/-1.25/0.00"),
            "{out:?}"
        );
        assert!(!s.snapshot().searching, "no search started");
        let mv = parse_othello_move(&out[1][4..6].to_ascii_lowercase()).unwrap();
        assert!(s.game().is_legal(mv));
        assert_eq!(s.game().ply(), 3, "go does not change the board");
        // Off the book, and with the book left out, `go` searches.
        assert!(s.line("move c4", now).is_empty());
        assert!(
            s.line("go", now)
                .iter()
                .any(|e| matches!(e, Effect::Search(_)))
        );
        let mut s = Nboard::new(keys);
        assert!(
            s.line("go", now)
                .iter()
                .any(|e| matches!(e, Effect::Search(_)))
        );
    }

    #[test]
    fn hint_lists_other_moves() {
        let mut s = Nboard::new(Keys::default_keys()).with_depth(2);
        let e = s.line("hint 3", Instant::now());
        let out = sent(&fake_done(&mut s, &e));
        let searches = out.iter().filter(|l| l.starts_with("search ")).count();
        assert_eq!(searches, 3, "{out:?}");
        assert_eq!(out.last().map(String::as_str), Some("status"));
    }

    #[test]
    fn analyze_covers_every_position() {
        let mut s = Nboard::new(Keys::default_keys()).with_depth(2);
        let now = Instant::now();
        for m in ["move f5", "move d6", "move c3"] {
            assert!(s.line(m, now).is_empty());
        }
        let e = s.line("analyze", now);
        let out = sent(&fake_done(&mut s, &e));
        let plies: Vec<&str> = out
            .iter()
            .filter_map(|l| l.strip_prefix("analysis "))
            .map(|l| l.split(' ').next().unwrap_or(""))
            .collect();
        assert_eq!(plies, ["3", "2", "1", "0"]);
        assert!(s.searching().is_none());
    }

    #[test]
    fn a_move_budget_limits_go_and_the_clock_can_shorten_it() {
        let mut s =
            Nboard::new(Keys::default_keys()).with_move_budget(Some(Duration::from_millis(250)));
        let now = Instant::now();
        let opening = Duration::from_millis(250) * budget_percent(60) / 100;
        assert_eq!(s.move_time(s.game()), Some(opening));
        let e = s.line("go", now);
        assert!(e.iter().any(
            |e| matches!(e, Effect::Search(r) if r.time == Some(opening) && r.depth == Some(DEFAULT_DEPTH))
        ));
        // A one-minute clock leaves about 1.7 s a move: the budget stays; a nearly spent one
        // gives less than the budget.
        let ggf = "(;GM[Othello]TI[1:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//59.5];)";
        let mut s =
            Nboard::new(Keys::default_keys()).with_move_budget(Some(Duration::from_millis(250)));
        assert!(s.line(&format!("set game {ggf}"), now).is_empty());
        assert_eq!(
            s.move_time(s.game()),
            Some(Duration::from_millis(250) * budget_percent(59) / 100)
        );
        assert!(s.line("move d6/0.5/20", now).is_empty());
        assert_eq!(
            s.move_time(s.game()),
            Some(Duration::from_millis(MIN_MOVE_MS).max(Duration::from_millis(500) * 9 / 10 / 31))
        );
    }

    #[test]
    fn a_move_budget_banks_what_book_moves_and_quick_searches_leave_for_later_moves() {
        let keys = Keys::default_keys();
        let book = OthelloBook::parse("f5d6c3 -> d3 -1.25", keys).unwrap();
        let mut s = Nboard::new(keys)
            .with_book(Some(Arc::new(book)))
            .with_move_budget(Some(Duration::from_millis(100)));
        let now = Instant::now();
        for m in ["move f5", "move d6", "move c3"] {
            assert!(s.line(m, now).is_empty());
        }
        // A book move spends nothing: its whole share (57 empties: 60 ms) is banked.
        assert!(sent(&s.line("go", now))[1].starts_with("=== D3"));
        assert_eq!(s.bank, Duration::from_millis(60));
        assert!(s.line("move d3", now).is_empty());
        // The next move gets its share and a quarter of the bank.
        let e = s.line("go", now);
        let given = Duration::from_millis(60 + 15);
        assert!(
            e.iter()
                .any(|e| matches!(e, Effect::Search(r) if r.time == Some(given))),
            "{e:?}"
        );
        // The search (done at once here) leaves its whole share: the bank grows by it.
        fake_done(&mut s, &e);
        assert_eq!(s.bank, Duration::from_millis(120));
        // At most twice its share comes from the bank; a new game empties it.
        s.bank = Duration::from_secs(10);
        assert_eq!(s.move_time(s.game()), Some(Duration::from_millis(60 * 3)));
        let start = "(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";
        assert!(s.line(&format!("set game {start}"), now).is_empty());
        assert_eq!(s.bank, Duration::ZERO);
        assert_eq!(s.move_time(s.game()), Some(Duration::from_millis(60)));
    }

    #[test]
    fn the_move_budget_is_shared_out_by_the_empties() {
        let s = Nboard::new(Keys::default_keys()).with_move_budget(Some(Duration::from_millis(90)));
        let mut g = s.game().clone();
        let mut legal = Vec::new();
        let mut seen = Vec::new();
        while g.empties() > 18 {
            let e = g.empties();
            let percent = budget_percent(e);
            assert_eq!(
                s.move_time(&g),
                Some(Duration::from_millis(90 * percent as u64 / 100)),
                "{e} empties"
            );
            if !seen.contains(&percent) {
                seen.push(percent);
            }
            g.legal_moves(&mut legal);
            g.play(legal[0]);
        }
        assert_eq!(seen, [60, 150, 300, 100]);
    }

    #[test]
    fn the_game_clock_caps_go() {
        let mut s = Nboard::new(Keys::default_keys());
        let now = Instant::now();
        assert_eq!(s.move_time(s.game()), None);
        let ggf = "(;GM[Othello]TI[1:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//10.0];)";
        assert!(s.line(&format!("set game {ggf}"), now).is_empty());
        // White: 60 s left, 59 empties → 30 + 2 moves to plan for.
        assert_eq!(s.move_time(s.game()), Some(Duration::from_secs(54) / 32));
        assert!(s.line("move d6/0.5/20", now).is_empty());
        // Black: 50 s left, 58 empties → 29 + 2 moves.
        assert_eq!(s.move_time(s.game()), Some(Duration::from_secs(45) / 31));
        let e = s.line("go", now);
        assert!(e.iter().any(
            |e| matches!(e, Effect::Search(r) if r.time == Some(Duration::from_secs(45) / 31))
        ));
    }

    #[test]
    fn refused_lines_change_nothing() {
        let mut s = Nboard::new(Keys::default_keys());
        let now = Instant::now();
        s.line("move f5", now);
        let before = s.snapshot();
        for bad in [
            "move f5",
            "move z9",
            "set depth 0",
            "set depth x",
            "set game (;GM[Othello]B[A1];)",
            "set contempt nan",
            "hint 0",
            "frobnicate",
        ] {
            let e = s.line(bad, now);
            assert!(e.iter().any(|e| matches!(e, Effect::Log(_))), "{bad}");
            assert_eq!(s.snapshot(), before, "{bad}");
        }
    }
}
