//! The alpha-beta searcher shared by both games: iterative deepening over a negamax principal
//! variation search with a transposition table, killer and history move ordering, aspiration
//! windows, and limits by depth, time and nodes.
//!
//! What it promises:
//! - [`Searcher::search`] returns a best move whenever the position has a legal move, and stops
//!   within a few milliseconds of the stop flag being set (it polls every 1024 nodes);
//! - it calls `progress` at most every ~30 ms and after every completed depth, with cumulative
//!   figures, and publishes its TT counters to the table just before;
//! - the TT is probed before anything else at each node and narrows `[alpha, beta]` by its bound
//!   (seed 000); the stored move is used only if it is among the moves generated here;
//! - scores are from the side to move's point of view: Othello in centi-discs internally
//!   ([`SearchStats::score`] rounds to discs), Gomoku in pattern points with wins at
//!   `±(WIN − plies)`.
//!
//! Each game plugs in through [`Searchable`]: move generation with ordering scores, a static
//! evaluation, and an `exact_hook` through which an exact endgame solver can answer small
//! positions. [`threats`] is the Gomoku threat-space search (VCF and VCT) that proves forced
//! wins and losses. [`endgame`] is the exact Othello endgame solver on raw bitboards.

pub mod endgame;
pub mod gomoku;
pub mod options;
pub mod othello;
pub mod picker;
pub mod threats;

pub use options::{ProbCutConfidence, ProbCutSpec, SearchOptions, ThreatParts};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use ahash::AHashMap;

use crate::game::symmetry::SymmetryTracker;
use crate::game::{Game, GameKind, Move};
use crate::tt::{Bound, Entry, Table, TtCounters, TtStats, size_class};
use picker::MovePicker;

/// Tests' random games: one xorshift64 step (shifts 13, 7, 17) of `state`, returning the new
/// state.
#[cfg(test)]
pub(crate) fn test_xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Tests' random games: an item of `items` (not empty) chosen by the next xorshift state.
#[cfg(test)]
pub(crate) fn test_pick<T: Copy>(state: &mut u64, items: &[T]) -> T {
    items[(test_xorshift(state) % items.len() as u64) as usize]
}

/// Deepest ply a search may reach.
pub const MAX_PLY: usize = 128;
/// Bigger than any score.
pub const INF: i32 = 32_000;
/// A win at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins or losses at a known distance.
pub const WIN_BOUND: i32 = WIN - MAX_PLY as i32;
/// Most threads a search may use.
pub const MAX_THREADS: usize = 64;
/// Depths from here up mark results that are exact to the end of the game: such an entry stores
/// `DEPTH_EXACT + empties` (see [`exact_entry_depth`]), above every searched depth, and deeper
/// for a bigger endgame, so the table's strategies keep the costlier solve.
pub const DEPTH_EXACT: u8 = 190;

/// The depth an exact result with `empties` empty squares left is stored with.
pub fn exact_entry_depth(empties: u32) -> u8 {
    DEPTH_EXACT + empties.min(60) as u8
}

/// The depth a searched (not exact) result of `depth` plies is stored with: below
/// [`DEPTH_EXACT`], so it is never taken for an exact one.
pub fn searched_entry_depth(depth: i32) -> u8 {
    depth.clamp(0, DEPTH_EXACT as i32 - 1) as u8
}

/// When to stop. `None` everywhere means "until stopped".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
}

impl Limits {
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    pub fn time(t: Duration) -> Limits {
        Limits {
            time: Some(t),
            ..Limits::default()
        }
    }
}

/// A progress snapshot or the final result of a search.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct SearchStats {
    /// Last completed iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub nps: u64,
    /// Side-to-move view: Othello disc difference (rounded estimate unless `exact`), Gomoku
    /// pattern points, `±(WIN − plies)` for a proven result (see [`score_text`]).
    pub score: i32,
    /// The internal score: Othello in centi-discs, Gomoku as `score`.
    pub raw_score: i32,
    pub best: Option<Move>,
    /// The iteration `best` comes from: `depth`, or `depth + 1` when the next, unfinished
    /// iteration has already found a better move (`pv` is still the completed iteration's line).
    pub best_depth: u32,
    pub pv: Vec<Move>,
    /// Othello: solved to the end; Gomoku: a proven win or loss.
    pub exact: bool,
}

/// A score as text: Othello `+6` / `-2.4` (estimate), Gomoku `+120`, `win in 3`, `loss in 2`
/// (moves of the side to move).
pub fn score_text(kind: GameKind, score: i32) -> String {
    if kind == GameKind::Gomoku && score.abs() >= WIN_BOUND {
        let plies = WIN - score.abs();
        let moves = (plies + 1) / 2;
        return if score > 0 {
            format!("win in {moves}")
        } else {
            format!("loss in {moves}")
        };
    }
    format!("{score:+}")
}

/// A move with its ordering score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Scored {
    pub mv: Move,
    pub score: i32,
}

/// What a game's move generator found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Gen {
    /// The game is over; the exact score for the side to move.
    Terminal(i32),
    /// A move that wins at once, with its score.
    WinNow(Move, i32),
    /// `out` holds the candidate moves.
    Moves,
}

/// A win proven before the alpha-beta search (e.g. by a Gomoku threat-space search).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forced {
    pub best: Move,
    /// The winner's moves and the loser's replies alternating, ending in the win.
    pub line: Vec<Move>,
    pub nodes: u64,
}

/// What a game's analysis of the root (Gomoku: the threat search against the opponent's threats)
/// says before the alpha-beta search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootHint {
    /// Nothing to add: search as usual.
    None,
    /// The result is proven: play `best`; `score` is `±(WIN − plies)` for the side to move.
    Decided {
        best: Move,
        score: i32,
        pv: Vec<Move>,
    },
    /// These root moves are proven to lose: search the others (all, if every candidate is here).
    Exclude(Vec<Move>),
}

/// What a game supplies to the generic search: a fast board of its own to search on.
pub trait Searchable: Game {
    type Board: Board;
    /// The search board of this position (same Zobrist hash as the game).
    fn board(&self) -> Self::Board;

    /// A forced win for the side to move found by a specialised search before the main one.
    /// `budget`: `None` for a fixed, deterministic effort (depth- or node-limited searches),
    /// else the time it may take. Default: none.
    fn forced_win(&self, _budget: Option<Duration>, _stop: &AtomicBool) -> Option<Forced> {
        None
    }
}

/// A node the search offers to a game's exact answer ([`Board::exact_hook`]).
#[derive(Copy, Clone, Debug)]
pub struct ExactNode<'a> {
    /// Distance from the root.
    pub ply: usize,
    /// Remaining depth of the search.
    pub depth: i32,
    /// The window: the answer is fail-soft for `(alpha, beta)`.
    pub alpha: i32,
    pub beta: i32,
    /// The search's stop flag and deadline, which the answer must honour (giving up with `None`).
    pub stop: &'a AtomicBool,
    pub deadline: Option<Instant>,
}

/// What [`Board::exact_hook`] answers: a fail-soft score for the node's window, and whether it
/// is exact to the end of the game (stored as such) or only probable (a selective endgame
/// search, stored at the node's depth so that a deeper iteration asks again).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct HookAnswer {
    pub score: i32,
    pub exact: bool,
}

/// A Multi-ProbCut rule for one node ([`Board::probcut`]): a search of `shallow` plies
/// predicts the node's full-depth score as `slope · shallow score + intercept`, and the node is
/// cut when that prediction clears the window by `margin` (the confidence times the
/// prediction's standard deviation). Scores in the game's internal unit.
///
/// With a `gate`, a shallow search is only tried where the node's static evaluation already
/// comes within `gate` of the bound it must clear (at least `high_bound - gate` for the cut
/// above beta, at most `low_bound + gate` for the one below alpha). A check that fails costs a
/// whole shallow search and then the full one anyway; one that the static evaluation does not
/// come near seldom succeeds. Skipping a check never cuts anything, so the gate only chooses
/// which cuts are worth their price.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ProbCut {
    pub shallow: i32,
    pub slope: f32,
    pub intercept: f32,
    pub margin: f32,
    pub gate: Option<i32>,
}

impl ProbCut {
    /// The shallow score at or above which the full-depth score is predicted to reach `beta`.
    pub fn high_bound(&self, beta: i32) -> i32 {
        ((beta as f32 + self.margin - self.intercept) / self.slope).ceil() as i32
    }

    /// The shallow score at or below which the full-depth score is predicted to stay at or
    /// below `alpha`.
    pub fn low_bound(&self, alpha: i32) -> i32 {
        ((alpha as f32 - self.margin - self.intercept) / self.slope).floor() as i32
    }
}

/// A game position as the search sees it: make/unmake, move generation with ordering scores,
/// static evaluation. Its `hash` must equal the `Game`'s hash of the same position, since the
/// TT is shared with everything else that looks positions up.
///
/// The items come in groups: the position (hash, make/unmake, moves, evaluation); the shape
/// of the search the game asks for (aspiration, iterations, reductions, extensions, depths,
/// scores); the game's exact answers (solver, root analysis); the options of a search
/// ([`Board::configure`]); and symmetry keys. Move ordering beyond the game's own scores is
/// the searcher's ([`picker`]).
pub trait Board: Send {
    // --- The position ---

    fn hash(&self) -> u64;
    /// 0 for black to move, 1 for white.
    fn side_index(&self) -> usize;
    /// Play a move that `generate` produced (or one `is_legal` accepted).
    fn play(&mut self, mv: Move);
    /// Take back `mv`, the last move played.
    fn undo(&mut self, mv: Move);
    fn is_legal(&mut self, mv: Move) -> bool;

    /// Fill `out` with the candidate moves and a static ordering score each (bigger = first),
    /// or report a finished game or an immediate win. `depth` is the remaining depth (cheap
    /// ordering near the leaves).
    fn generate(&mut self, ply: usize, depth: i32, out: &mut Vec<Scored>) -> Gen;

    /// Static evaluation for the side to move (`ply` from the root, for win distances).
    fn evaluate(&mut self, ply: usize) -> i32;

    // --- The shape of the search ---

    /// Aspiration half-window for iterative deepening (`None`: full window every iteration).
    const ASPIRATION: Option<i32>;
    /// Iterative deepening starts another iteration only while more than this share of the time
    /// is left (an unfinished iteration still yields any better root move it found).
    fn next_iteration(&self) -> f64 {
        0.55
    }
    /// Late move reductions: how many plies shallower the `i`-th move `mv` (0-based, after
    /// sorting, never the first) of a node with `depth` plies left is searched first (the board
    /// is still at the node, `mv` not played); a move that then beats alpha is searched again at
    /// the full depth. Default: 0, every move at the full depth.
    fn late_move_reduction(&mut self, _i: usize, _depth: i32, _mv: Move) -> i32 {
        0
    }

    /// Static futility pruning ("reverse futility"): the margin by which the static evaluation of
    /// a null-window node with `depth` plies left must clear beta for the node to return that
    /// evaluation without searching its moves, or `None` to search it (the default: never). The
    /// game decides where it is safe, e.g. not where the side to move must answer a threat.
    fn futility_margin(&mut self, _depth: i32) -> Option<i32> {
        None
    }

    /// Multi-ProbCut: the rule for a null-window node with `depth` plies left in a search run
    /// with `confidence` (the search's option), or `None` to search it in full. Never for a
    /// node searched to the end of the game (exact results stay exact). Default: never.
    fn probcut(&self, _depth: i32, _confidence: ProbCutConfidence) -> Option<ProbCut> {
        None
    }

    /// Whether this board searches nodes with one ply left itself
    /// ([`Board::search_last_ply`]). Default: no (the search plays the moves).
    fn searches_last_ply(&self) -> bool {
        false
    }

    /// A node with one ply left and these moves (`list`, more than one, scored by the search's
    /// move ordering: bigger first), on a board that [`Board::searches_last_ply`]: searched by
    /// the game itself, faster than playing each move into a static evaluation, with the same
    /// scores. The fail-soft score for `(alpha, beta)` and the best move; `nodes` grows by the
    /// children evaluated. `None` (the default): the search plays the moves.
    fn search_last_ply(
        &mut self,
        _list: &[Scored],
        _alpha: i32,
        _beta: i32,
        _nodes: &mut u64,
    ) -> Option<(i32, Move)> {
        None
    }

    /// At the horizon: whether this node is too forcing for a static evaluation (e.g. a Gomoku
    /// four the side to move must block), so the search goes one more ply instead. Each
    /// extension must need a new forcing move, so chains stay short. None by default.
    fn extend_leaf(&mut self) -> bool {
        false
    }

    /// Whether the game has a quiescence search ([`Board::quiescence_moves`]); without one
    /// (the default) a leaf is its static evaluation and the search asks nothing more.
    const QUIESCENCE: bool = false;

    /// At the horizon (`depth` plies past it, 0 or less), after [`Board::extend_leaf`] said no
    /// and the static evaluation did not already decide the node: the forcing moves of a
    /// quiescence search that the static evaluation cannot see through (Gomoku: fours of the
    /// side to move, whose reply is forced), best first into `out`. The search stands pat on
    /// the static evaluation and tries these against it. False: the node is its static
    /// evaluation. Asked only where [`Board::QUIESCENCE`] is true.
    fn quiescence_moves(&mut self, _depth: i32, _out: &mut Vec<Scored>) -> bool {
        false
    }

    /// At the horizon, after [`Board::extend_leaf`] said no and the static evaluation did not
    /// already decide the node: the moves of a node whose side to move must answer a threat
    /// (Gomoku: the opponent's open three, a square that would give it two five points), best
    /// first into `out`. True: the node does not stand pat (its static evaluation would score
    /// a threat that wins as if it were not there); its value is the best of these moves, as a
    /// chess quiescence search answers a check with every evasion. Asked only where
    /// [`Board::QUIESCENCE`] is true, before [`Board::quiescence_moves`]. Default: never.
    fn quiescence_evasions(&mut self, _depth: i32, _out: &mut Vec<Scored>) -> bool {
        false
    }

    /// The iteration depth from which the search sees every line to the end of the game, so its
    /// score is exact (Othello: the number of empties — passes are single replies, which are
    /// extended). `None`: never (Gomoku results are exact only as proven wins or losses).
    fn exact_depth(&self) -> Option<u32> {
        None
    }

    /// The deepest iteration worth running (e.g. Othello: the end of the game).
    fn max_depth(&self) -> u32 {
        MAX_PLY as u32 / 2
    }

    /// The user-facing score of an internal one.
    fn display_score(raw: i32) -> i32 {
        raw
    }

    // --- The game's exact answers ---

    /// Answer the node exactly if this game can (e.g. an Othello endgame solver for few
    /// empties): a fail-soft score for the node's window; `nodes` grows by the work done.
    /// Default: never.
    fn exact_hook(&mut self, _node: &ExactNode<'_>, _nodes: &mut u64) -> Option<HookAnswer> {
        None
    }

    /// Whether [`Board::exact_hook`] answers a node at `ply` with `depth` plies left. At such a
    /// node only an exact table entry stands in for the answer: a searched one (an estimate
    /// left by the previous move's deeper search, two plies further from the root then) would
    /// otherwise cut the node and starve the solves the hook is there for. Default: never.
    fn exact_hook_due(&self, _ply: usize, _depth: i32) -> bool {
        false
    }

    /// Analyse the root before iterative deepening, given the candidate moves the search would
    /// try (within the search's limits, which the time spent here counts against); `nodes` grows
    /// by the work done. Only the main thread asks, and only with exact answers on. Default:
    /// nothing.
    fn root_hint(
        &mut self,
        _candidates: &[Move],
        _limits: &Limits,
        _stop: &AtomicBool,
        _nodes: &mut u64,
    ) -> RootHint {
        RootHint::None
    }

    /// Switch off the game's own exact answers on this board (see [`Searcher::set_exact_hook`]),
    /// e.g. Gomoku's threat-based move generation. Default: nothing to switch.
    fn disable_exact_answers(&mut self) {}

    // --- The options of a search ---

    /// Set this board up for a search run with `options` (every thread's board gets the same):
    /// symmetry keys and the game's exact answers as asked, then whatever else of them the game
    /// reads ([`Board::read_options`]). Games override `read_options`, not this.
    fn configure(&mut self, options: &SearchOptions) {
        if options.symmetry {
            self.enable_symmetry();
        }
        if !options.exact {
            self.disable_exact_answers();
        }
        self.read_options(options);
    }

    /// The game's own part of [`Board::configure`] (e.g. Gomoku's threat seams). Default:
    /// nothing.
    fn read_options(&mut self, _options: &SearchOptions) {}

    /// Working state the game keeps from one search to the next on one searcher (the Gomoku
    /// threat searcher and its table; `()` for a game without any), not options: each thread's
    /// searcher has its own.
    type Scratch: Default + Send;

    /// Take the searcher's scratch for this search. Default: drop it.
    fn attach_scratch(&mut self, _scratch: Self::Scratch) {}

    /// Give the scratch back at the end of the search. Default: a fresh one.
    fn detach_scratch(&mut self) -> Self::Scratch {
        Self::Scratch::default()
    }

    /// The search's shared table, handed to every thread's board before the search: a game
    /// may keep its own table in the table's reserved memory ([`Table::reserved`]; the Othello
    /// endgame solver's), so that it comes out of the configured budget and is shared by all
    /// threads. Default: nothing.
    fn use_table(&mut self, _table: &Arc<Table>) {}

    // --- Symmetry keys ---

    /// Turn on symmetry keys: keep the eight symmetric hashes incrementally and use the smallest
    /// as the table key ([`Board::tt_key`]), mapping stored moves through the transform.
    fn enable_symmetry(&mut self);

    /// The symmetry tracker that [`Board::enable_symmetry`] switched on, if any.
    fn symmetry(&self) -> Option<&SymmetryTracker>;

    /// The key under which this position is stored in the table: the hash, or with symmetry
    /// keys on, the smallest of the eight symmetric hashes.
    #[inline]
    fn tt_key(&self) -> u64 {
        self.symmetry().map_or_else(|| self.hash(), |s| s.key())
    }

    /// A move into the orientation the table key stands for (identity without symmetry keys).
    fn move_to_tt(&self, mv: Move) -> Move {
        self.symmetry().map_or(mv, |s| s.move_to_tt(mv))
    }

    /// A move read from the table back into this position's orientation.
    fn move_from_tt(&self, mv: Move) -> Move {
        self.symmetry().map_or(mv, |s| s.move_from_tt(mv))
    }
}

/// Where the searcher keeps transpositions.
pub enum TtStore {
    /// No table (the bench's `none` row).
    None,
    /// The shared fixed-size table.
    Table(Arc<Table>),
    /// Seed 000's design: an unbounded hash map that never replaces (the bench's `map` row).
    Map(Box<AHashMap<u64, Entry>>),
}

impl TtStore {
    fn table(&self) -> Option<&Arc<Table>> {
        match self {
            TtStore::Table(t) => Some(t),
            _ => None,
        }
    }

    #[inline]
    fn probe<const C: bool>(&self, key: u64, c: &mut TtCounters) -> Option<Entry> {
        match self {
            TtStore::None => None,
            TtStore::Table(t) => t.probe::<C>(key, c),
            TtStore::Map(m) => {
                let r = m.get(&key).copied();
                if C {
                    c.probes += 1;
                    if r.is_some() {
                        c.hits += 1;
                    } else {
                        c.misses += 1;
                    }
                }
                r
            }
        }
    }

    #[inline]
    fn store<const C: bool>(&mut self, e: Entry, c: &mut TtCounters) {
        match self {
            TtStore::None => {}
            TtStore::Table(t) => {
                t.store::<C>(e, c);
            }
            TtStore::Map(m) => {
                let old = m.insert(e.key, e);
                if C {
                    if old.is_some() {
                        c.updates += 1;
                    } else {
                        c.fills += 1;
                    }
                }
            }
        }
    }
}

const HISTORY_CAP: i32 = 60_000;
/// Nodes between polls of the clock and the stop flag.
const POLL_MASK: u64 = 1023;
const PROGRESS_EVERY: Duration = Duration::from_millis(30);

/// What one search is allowed and has done so far (reset by each `search`).
struct Run<'a> {
    stop: &'a AtomicBool,
    progress: &'a mut dyn FnMut(&SearchStats),
    start: Instant,
    deadline: Option<Instant>,
    node_limit: u64,
    last_progress: Instant,
    stopped: bool,
    /// Result of the last completed iteration.
    best: SearchStats,
    /// Lazy SMP: nodes of the helper threads (helpers add to it, the main thread reads it).
    helper_nodes: &'a AtomicU64,
    /// Helpers: nodes already added to `helper_nodes`.
    published_nodes: u64,
}

/// The searcher of one game type. Keeps its TT handle, history and killers between searches.
pub struct Searcher<G: Searchable> {
    tt: TtStore,
    counters: TtCounters,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    lists: Vec<Vec<Scored>>,
    pv: Vec<Vec<Move>>,
    nodes: u64,
    seldepth: usize,
    root_depth: i32,
    threads: usize,
    /// How to search; every thread's board gets a copy.
    options: SearchOptions,
    /// The game's working state kept from one search to the next on this searcher (the Gomoku
    /// threat searcher and its table), lent to each search's board.
    scratch: <G::Board as Board>::Scratch,
    /// 0 for the main thread, i for the i-th Lazy SMP helper.
    helper: usize,
    /// Applied to every search board before the search (see [`Searcher::set_board_setup`]).
    board_setup: Option<BoardSetup<G>>,
    _game: std::marker::PhantomData<fn() -> G>,
}

/// A change made to each search board before a search, e.g. other evaluation weights.
pub type BoardSetup<G> = Arc<dyn Fn(&mut <G as Searchable>::Board) + Send + Sync>;

impl<G: Searchable> Searcher<G> {
    /// A searcher using the shared table.
    pub fn new(tt: Arc<Table>) -> Self {
        Self::with_store(TtStore::Table(tt))
    }

    /// A searcher with any transposition store (the bench compares them).
    pub fn with_store(tt: TtStore) -> Self {
        let cells = crate::zobrist::MAX_CELLS + 1;
        Searcher {
            tt,
            counters: TtCounters::default(),
            killers: vec![[Move::NONE; 2]; MAX_PLY + 2],
            history: vec![0; 2 * cells],
            lists: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            threads: 1,
            options: SearchOptions::default(),
            scratch: Default::default(),
            helper: 0,
            board_setup: None,
            _game: std::marker::PhantomData,
        }
    }

    /// The options every thread of the next search runs with.
    pub fn options(&self) -> SearchOptions {
        self.options
    }

    /// Replace all options at once (the setters below change one each).
    pub fn set_options(&mut self, options: SearchOptions) {
        self.options = options;
    }

    /// Count TT statistics (default) or compile the counting out of the hot path.
    pub fn set_counting(&mut self, on: bool) {
        self.options.count_stats = on;
    }

    /// Key the table by the smallest of the eight symmetric hashes (rotations and mirrors of
    /// one position share an entry; stored moves are mapped through the transform).
    pub fn set_symmetry(&mut self, on: bool) {
        self.options.symmetry = on;
    }

    /// Switch the Gomoku threat search's seams in the alpha-beta search (see
    /// [`ThreatParts`]); the helpers of a multi-threaded search get the same.
    pub fn set_threat_parts(&mut self, parts: ThreatParts) {
        self.options.threats = parts;
    }

    /// Let the game answer exactly: nodes through [`Board::exact_hook`] (the Othello endgame
    /// solver), the root through [`Searchable::forced_win`] and [`Board::root_hint`], and the
    /// moves through the game's own rules ([`Board::disable_exact_answers`]) — for Gomoku, the
    /// threat search.
    /// Default on; off to test (or to play against) the alpha-beta search alone.
    pub fn set_exact_hook(&mut self, on: bool) {
        self.options.exact = on;
    }

    /// Multi-ProbCut with this confidence, or off (`None`); games without a table ignore it.
    pub fn set_probcut(&mut self, confidence: Option<ProbCutConfidence>) {
        self.options.probcut = confidence;
    }

    /// Win/loss/draw solves at the root's moves near the end (see
    /// [`SearchOptions::win_loss_draw`]), from the next search on.
    pub fn set_win_loss_draw(&mut self, on: bool) {
        self.options.win_loss_draw = on;
    }

    /// Probable result solves this many plies before the win/loss/draw ones (see
    /// [`SearchOptions::early_result_plies`]), from the next search on.
    pub fn set_early_result_plies(&mut self, plies: u8) {
        self.options.early_result_plies = plies;
    }

    /// Change every search board before searching (helpers' boards too), e.g. to evaluate with
    /// other weights than the built-in ones (`selfplay --b-weights`); `None` for the plain board.
    pub fn set_board_setup(&mut self, setup: Option<BoardSetup<G>>) {
        self.board_setup = setup;
    }

    /// Search with this many threads (Lazy SMP: helpers share the table; needs a `Table` store).
    ///
    /// What a second thread buys depends on the game (two-core machine, nothing else running):
    /// - Gomoku, 200 ms a turn: two threads against one 30-18 in 48 games (session 45); against
    ///   Rapfi classical at full strength (one thread) 39/192 (20.3%; four 48-game runs, session
    ///   54), where one thread scored 14/96 (14.6%) alone on the machine the same day and 87/528
    ///   (16.5%) in all runs: within two standard errors of either.
    /// - Othello (session 54), `nboard --move-ms 64`: two threads against one 33-35-12 (48.8%) in
    ///   80 XOT games (`othello_match.py --shuffle --seed 5`). Time to depth 14 and 16
    ///   (`--probcut 100,5`, 60 positions of our games against NTest at 44, 38 and 32 empties)
    ///   1.96 and 6.21 s against 2.08 and 6.41 s on one thread, with 1.8 times the nodes: the
    ///   helpers' table entries save the main thread little. Against NTest at depth 16 (the six
    ///   equal-time sets of `protocol::nboard::BUDGET_SHARES`, alone on the machine) two threads
    ///   scored 30.8% (55-147-38), thinking 352 s against NTest's 328 s, where one thread, alone
    ///   on the machine the same day, scored 35.2% (68-139-33), 353 s against 345 s. Measured and not kept (throwaway switches): helpers searching the root's moves
    ///   in the main thread's order (no rotated first move) 40.6% (48-78-34) of 160 games
    ///   against one thread; odd helpers kept an iteration ahead of the main thread 50.6%
    ///   (67-65-28) of 160, time to depth 16 5.82 s; with the main thread also taking a deeper
    ///   iteration a helper completed (and stopping once one completes the search's depth)
    ///   5.47 s. A bigger table (256 MiB) did not help either (6.60 s).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, MAX_THREADS);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The table, if this searcher uses one.
    pub fn table(&self) -> Option<&Arc<Table>> {
        self.tt.table()
    }

    /// The transposition store.
    pub fn store_ref(&self) -> &TtStore {
        &self.tt
    }

    /// Replace the transposition store.
    pub fn set_store(&mut self, tt: TtStore) {
        self.tt = tt;
    }

    /// TT statistics of this searcher's store: the table's snapshot, or (map and none) this
    /// searcher's own counts.
    pub fn tt_stats(&mut self) -> TtStats {
        self.publish();
        match &self.tt {
            TtStore::Table(t) => t.stats(),
            _ => {
                let mut s = TtStats::default();
                self.counters.add_to(&mut s);
                s
            }
        }
    }

    /// Forget history and killers (a new game).
    pub fn reset_ordering(&mut self) {
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [Move::NONE; 2]);
    }

    fn publish(&mut self) {
        if let TtStore::Table(t) = &self.tt {
            t.publish(&mut self.counters);
        }
    }

    /// Iterative deepening from `game`. `progress` gets cumulative stats at most every ~30 ms
    /// and after each completed depth. Returns the final stats (`best` is `Some` if any legal
    /// move exists).
    pub fn search(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&SearchStats),
    ) -> SearchStats {
        match &mut self.tt {
            TtStore::Table(t) => t.new_search(),
            TtStore::Map(m) => m.clear(),
            TtStore::None => {}
        }
        let helper_nodes = AtomicU64::new(0);
        let table = match (&self.tt, self.threads) {
            (TtStore::Table(t), n) if n > 1 => t.clone(),
            _ => return self.search_inner(game, limits, stop, progress, &helper_nodes),
        };
        // Lazy SMP: helpers search the same root on the shared table until the main thread ends.
        let helpers_stop = AtomicBool::new(false);
        let options = self.options;
        let board_setup = self.board_setup.clone();
        let mut result = std::thread::scope(|scope| {
            for i in 1..self.threads {
                let (table, helpers_stop, helper_nodes) =
                    (table.clone(), &helpers_stop, &helper_nodes);
                let board_setup = board_setup.clone();
                let helper_limits = Limits {
                    depth: limits.depth,
                    time: None,
                    nodes: None,
                };
                scope.spawn(move || {
                    let mut h: Searcher<G> = Searcher::new(table);
                    h.helper = i;
                    h.options = options;
                    h.board_setup = board_setup;
                    h.search_inner(
                        game,
                        &helper_limits,
                        helpers_stop,
                        &mut |_| {},
                        helper_nodes,
                    );
                });
            }
            let r = self.search_inner(game, limits, stop, progress, &helper_nodes);
            helpers_stop.store(true, Relaxed);
            r
        });
        result.nodes = self.nodes + helper_nodes.load(Relaxed);
        result.nps = (result.nodes as f64 / (result.elapsed_ms.max(1) as f64 / 1000.0)) as u64;
        result
    }

    fn search_inner(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&SearchStats),
        helper_nodes: &AtomicU64,
    ) -> SearchStats {
        let start = Instant::now();
        let mut run = Run {
            stop,
            progress,
            start,
            deadline: limits.time.map(|t| start + t),
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            last_progress: start,
            stopped: false,
            best: SearchStats::default(),
            helper_nodes,
            published_nodes: 0,
        };
        self.nodes = 0;
        self.seldepth = 0;
        for h in self.history.iter_mut() {
            *h /= 4;
        }
        let mut g = game.board();
        g.configure(&self.options);
        if let TtStore::Table(t) = &self.tt {
            g.use_table(t);
        }
        if let Some(setup) = &self.board_setup {
            setup(&mut g);
        }
        g.attach_scratch(std::mem::take(&mut self.scratch));
        let result = self.search_root(&mut g, game, limits, &mut run);
        self.scratch = g.detach_scratch();
        result
    }

    /// Iterative deepening on the board `g` of `game`.
    fn search_root(
        &mut self,
        g: &mut G::Board,
        game: &G,
        limits: &Limits,
        run: &mut Run<'_>,
    ) -> SearchStats {
        let stop = run.stop;
        let max_depth = limits
            .depth
            .unwrap_or(u32::MAX)
            .clamp(1, g.max_depth().max(1))
            .min(MAX_PLY as u32 - 8);

        let exact_depth = g.exact_depth();
        // Root moves.
        let mut root = Vec::new();
        match g.generate(0, max_depth as i32, &mut root) {
            Gen::Terminal(s) => {
                run.best.score = <G::Board as Board>::display_score(s);
                run.best.raw_score = s;
                run.best.exact = true;
                return self.finish(run);
            }
            Gen::WinNow(mv, s) => {
                run.best.depth = 1;
                run.best.best = Some(mv);
                run.best.pv = vec![mv];
                run.best.score = <G::Board as Board>::display_score(s);
                run.best.raw_score = s;
                run.best.exact = true;
                self.nodes = 1;
                return self.finish(run);
            }
            Gen::Moves => {}
        }
        if self.helper == 0 && self.options.exact {
            // Threat budget: a fifth of the time, at most 300 ms; fixed effort without a clock.
            let budget = limits.time.map(|t| (t / 5).min(Duration::from_millis(300)));
            if let Some(f) = game.forced_win(budget, stop) {
                let score = WIN - f.line.len() as i32;
                self.nodes += f.nodes;
                run.best.depth = f.line.len().div_ceil(2) as u32;
                run.best.best = Some(f.best);
                run.best.pv = f.line;
                run.best.score = <G::Board as Board>::display_score(score);
                run.best.raw_score = score;
                run.best.exact = true;
                return self.finish(run);
            }
            let candidates: Vec<Move> = root.iter().map(|s| s.mv).collect();
            match g.root_hint(&candidates, limits, stop, &mut self.nodes) {
                RootHint::None => {}
                RootHint::Decided { best, score, pv } => {
                    run.best.depth = 1;
                    run.best.best = Some(best);
                    run.best.pv = pv;
                    run.best.score = <G::Board as Board>::display_score(score);
                    run.best.raw_score = score;
                    run.best.exact = true;
                    return self.finish(run);
                }
                RootHint::Exclude(losing) => {
                    if root.iter().any(|s| !losing.contains(&s.mv)) {
                        root.retain(|s| !losing.contains(&s.mv));
                    }
                }
            }
        }
        root.sort_by_key(|s| std::cmp::Reverse(s.score));
        // The TT move of an earlier search goes first.
        if let Some(e) = self.tt.probe::<false>(g.tt_key(), &mut self.counters)
            && e.key == g.tt_key()
            && let Some(i) = root
                .iter()
                .position(|s| s.mv == g.move_from_tt(e.mv) && !e.mv.is_none())
        {
            root[..=i].rotate_right(1);
        }
        run.best.best = root.first().map(|s| s.mv);
        run.best.pv = run.best.best.into_iter().collect();

        let mut prev: Option<i32> = None;
        // Helpers start one depth later every other thread, so threads spread over two depths.
        let first = 1 + (self.helper % 2) as u32;
        for depth in first.min(max_depth)..=max_depth {
            self.root_depth = depth as i32;
            if self.helper > 0 && root.len() > 1 {
                // Helpers open with another root move, filling the table where the main
                // thread will look next.
                let i = (self.helper + depth as usize) % root.len();
                root.swap(0, i);
            }
            let score = self.aspiration(g, &mut root, depth as i32, prev, run);
            if run.stopped {
                break;
            }
            prev = Some(score);
            let mut pv = self.pv[0].clone();
            self.extend_pv(g, &mut pv);
            let proven = score.abs() >= WIN_BOUND;
            run.best.depth = depth;
            run.best.score = <G::Board as Board>::display_score(score);
            run.best.raw_score = score;
            run.best.best = pv.first().copied().or(run.best.best);
            run.best.pv = pv;
            let solved = exact_depth.is_some_and(|d| depth >= d);
            run.best.exact = proven || solved;
            self.report(run);
            if solved || score >= WIN_BOUND {
                break;
            }
            if let (Some(d), Some(t)) = (run.deadline, limits.time)
                && Instant::now() + t.mul_f64(g.next_iteration()) > d
            {
                break;
            }
        }
        self.finish(run)
    }

    fn finish(&mut self, run: &mut Run<'_>) -> SearchStats {
        if self.helper > 0 {
            run.helper_nodes
                .fetch_add(self.nodes - run.published_nodes, Relaxed);
            run.published_nodes = self.nodes;
        }
        let s = self.snapshot(run);
        self.publish();
        s
    }

    /// The result so far with this thread's node count and timing; `best_depth` is at least the
    /// completed depth (only a move found inside the unfinished next iteration sets it higher).
    fn snapshot(&self, run: &Run<'_>) -> SearchStats {
        let mut s = run.best.clone();
        s.best_depth = s.best_depth.max(s.depth);
        let el = run.start.elapsed();
        s.nodes = self.nodes
            + if self.helper == 0 {
                run.helper_nodes.load(Relaxed)
            } else {
                0
            };
        s.seldepth = self.seldepth as u32;
        s.elapsed_ms = el.as_millis() as u64;
        s.nps = (s.nodes as f64 / el.as_secs_f64().max(1e-6)) as u64;
        s
    }

    fn report(&mut self, run: &mut Run<'_>) {
        self.publish();
        if self.helper > 0 {
            run.helper_nodes
                .fetch_add(self.nodes - run.published_nodes, Relaxed);
            run.published_nodes = self.nodes;
            run.last_progress = Instant::now();
            return;
        }
        let s = self.snapshot(run);
        (run.progress)(&s);
        run.last_progress = Instant::now();
    }

    /// Follow TT moves past the end of a (cut-short) PV.
    fn extend_pv(&mut self, g: &mut G::Board, pv: &mut Vec<Move>) {
        let mut played = Vec::new();
        for &mv in pv.iter() {
            if !g.is_legal(mv) {
                break;
            }
            g.play(mv);
            played.push(mv);
        }
        if played.len() == pv.len() {
            while pv.len() < 32 {
                let Some(e) = self.tt.probe::<false>(g.tt_key(), &mut self.counters) else {
                    break;
                };
                let mv = g.move_from_tt(e.mv);
                if e.key != g.tt_key() || e.mv.is_none() || !g.is_legal(mv) {
                    break;
                }
                g.play(mv);
                played.push(mv);
                pv.push(mv);
            }
        }
        pv.truncate(played.len());
        while let Some(mv) = played.pop() {
            g.undo(mv);
        }
    }

    fn aspiration(
        &mut self,
        g: &mut G::Board,
        root: &mut [Scored],
        depth: i32,
        prev: Option<i32>,
        run: &mut Run<'_>,
    ) -> i32 {
        let (mut alpha, mut beta, mut delta) = match (<G::Board as Board>::ASPIRATION, prev) {
            (Some(d), Some(p)) if depth >= 4 && p.abs() < WIN_BOUND => (p - d, p + d, d),
            _ => (-INF, INF, INF),
        };
        loop {
            let s = self.root_search(g, root, depth, alpha, beta, run);
            if run.stopped {
                return s;
            }
            if s <= alpha && alpha > -INF {
                alpha = (s - delta).max(-INF);
            } else if s >= beta && beta < INF {
                beta = (s + delta).min(INF);
            } else {
                return s;
            }
            delta = delta.saturating_mul(2);
            if delta > 2000 {
                alpha = if s <= alpha + delta { -INF } else { alpha };
                beta = if s >= beta - delta { INF } else { beta };
            }
        }
    }

    fn root_search(
        &mut self,
        g: &mut G::Board,
        root: &mut [Scored],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        run: &mut Run<'_>,
    ) -> i32 {
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_i = 0;
        self.pv[0].clear();
        let before = self.nodes;
        for (i, mv) in root.iter().map(|s| s.mv).enumerate() {
            g.play(mv);
            let s = if i == 0 {
                -self.pvs(g, depth - 1, 1, -beta, -alpha, run)
            } else {
                let s = -self.pvs(g, depth - 1, 1, -alpha - 1, -alpha, run);
                if s > alpha && s < beta && !run.stopped {
                    -self.pvs(g, depth - 1, 1, -beta, -alpha, run)
                } else {
                    s
                }
            };
            g.undo(mv);
            if run.stopped {
                break;
            }
            if s > best {
                best = s;
                best_i = i;
                if s > alpha {
                    alpha = s;
                    self.set_pv(0, mv);
                    if i > 0 || depth == 1 {
                        // A new best found inside this iteration is good to play if stopped.
                        run.best.best = Some(mv);
                        run.best.best_depth = depth as u32;
                    }
                }
                if alpha >= beta {
                    break;
                }
            }
        }
        if run.stopped {
            return best;
        }
        root[..=best_i].rotate_right(1);
        let bound = Bound::of_window(best, alpha0, beta);
        let e = Entry {
            key: g.tt_key(),
            score: to_tt(best, 0),
            mv: g.move_to_tt(root[0].mv),
            depth: searched_entry_depth(depth),
            bound,
            age: 0,
            size: size_class(self.nodes - before),
        };
        self.store(e);
        best
    }

    #[inline]
    fn store(&mut self, e: Entry) {
        if self.options.count_stats {
            self.tt.store::<true>(e, &mut self.counters);
        } else {
            self.tt.store::<false>(e, &mut self.counters);
        }
    }

    #[inline]
    fn probe(&mut self, key: u64) -> Option<Entry> {
        if self.options.count_stats {
            self.tt.probe::<true>(key, &mut self.counters)
        } else {
            self.tt.probe::<false>(key, &mut self.counters)
        }
    }

    fn set_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    fn poll(&mut self, run: &mut Run<'_>) {
        if run.stop.load(Relaxed) || self.nodes >= run.node_limit {
            run.stopped = true;
            return;
        }
        let now = Instant::now();
        if let Some(d) = run.deadline
            && now >= d
        {
            run.stopped = true;
            return;
        }
        if now.duration_since(run.last_progress) >= PROGRESS_EVERY {
            self.report(run);
        }
    }

    fn pvs(
        &mut self,
        g: &mut G::Board,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        run: &mut Run<'_>,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & POLL_MASK == 0 {
            self.poll(run);
        }
        if run.stopped {
            return 0;
        }
        self.pv[ply].clear();
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        // Leaves are never stored, so probing them would only cost a cache miss.
        if ply >= MAX_PLY || (depth <= 0 && ply + 8 >= MAX_PLY) {
            return g.evaluate(ply);
        }
        if depth <= 0 && !g.extend_leaf() {
            return if <G::Board as Board>::QUIESCENCE {
                self.quiescence(g, depth, ply, alpha, beta, run)
            } else {
                g.evaluate(ply)
            };
        }
        let key = g.tt_key();
        let mut tt_move = Move::NONE;
        if let Some(e) = self.probe(key) {
            tt_move = if e.mv.is_none() {
                Move::NONE
            } else {
                g.move_from_tt(e.mv)
            };
            if e.depth as i32 >= depth
                && (e.depth >= DEPTH_EXACT || !(self.options.exact && g.exact_hook_due(ply, depth)))
            {
                let s = from_tt(e.score as i32, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => {
                        alpha = alpha.max(s);
                        alpha >= beta
                    }
                    Bound::Upper => {
                        beta = beta.min(s);
                        alpha >= beta
                    }
                };
                if cut {
                    self.counters.usable_hits += self.options.count_stats as u64;
                    return s;
                }
            }
        }
        if self.options.exact
            && let Some(answer) = g.exact_hook(
                &ExactNode {
                    ply,
                    depth,
                    alpha,
                    beta,
                    stop: run.stop,
                    deadline: run.deadline,
                },
                &mut self.nodes,
            )
        {
            let s = answer.score;
            let bound = Bound::of_window(s, alpha, beta);
            self.store(Entry {
                key,
                score: to_tt(s, ply),
                mv: Move::NONE,
                depth: if answer.exact {
                    exact_entry_depth(g.exact_depth().unwrap_or(0))
                } else {
                    searched_entry_depth(depth)
                },
                bound,
                age: 0,
                size: 0,
            });
            return s;
        }
        if beta - alpha == 1
            && beta.abs() < WIN_BOUND
            && let Some(margin) = g.futility_margin(depth)
        {
            // Static futility: the side to move is so far ahead that its moves are not searched.
            let e = g.evaluate(ply);
            if e.abs() < WIN_BOUND && e - margin >= beta {
                return e;
            }
        }
        if beta - alpha == 1
            && let Some(confidence) = self.options.probcut
            && let Some(cut) = g.probcut(depth, confidence)
        {
            // Multi-ProbCut: a shallow null-window search at the bound that predicts a cut,
            // where the static evaluation comes near enough to it (the rule's gate).
            let near = cut.gate.map(|gate| (g.evaluate(ply), gate));
            let high = cut.high_bound(beta);
            if high < INF && near.is_none_or(|(e, gate)| e >= high - gate) {
                let v = self.pvs(g, cut.shallow, ply, high - 1, high, run);
                if run.stopped {
                    return 0;
                }
                if v >= high {
                    return beta;
                }
            }
            let low = cut.low_bound(alpha);
            if low > -INF && near.is_none_or(|(e, gate)| e <= low + gate) {
                let v = self.pvs(g, cut.shallow, ply, low, low + 1, run);
                if run.stopped {
                    return 0;
                }
                if v <= low {
                    return alpha;
                }
            }
            // The shallow searches left a move in the table where there was none.
            if tt_move.is_none()
                && let Some(e) = self.probe(key)
                && !e.mv.is_none()
            {
                tt_move = g.move_from_tt(e.mv);
            }
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let r = g.generate(ply, depth, &mut list);
        let result = match r {
            Gen::Terminal(s) => s,
            Gen::WinNow(mv, s) => {
                self.pv[ply].clear();
                self.pv[ply].push(mv);
                s
            }
            Gen::Moves if depth == 1 && list.len() > 1 && g.searches_last_ply() => {
                // The picker's scores (table move, killers, history) order the game's own search.
                let side = g.side_index();
                let cells = self.history.len() / 2;
                MovePicker::new(
                    &mut list,
                    tt_move,
                    self.killers[ply],
                    &self.history[side * cells..(side + 1) * cells],
                );
                match g.search_last_ply(&list, alpha, beta, &mut self.nodes) {
                    Some((s, mv)) => {
                        self.seldepth = self.seldepth.max(ply + 1);
                        self.store_last_ply(g, ply, s, mv, alpha, beta);
                        s
                    }
                    None => self.search_moves(g, &mut list, tt_move, depth, ply, alpha, beta, run),
                }
            }
            Gen::Moves => self.search_moves(g, &mut list, tt_move, depth, ply, alpha, beta, run),
        };
        self.lists[ply] = list;
        result
    }

    /// A leaf: its static evaluation, or better for the side to move where one of the game's
    /// quiescence moves ([`Board::quiescence_moves`]) beats it (fail-soft); a leaf that must
    /// answer a threat ([`Board::quiescence_evasions`]) is the best of its answers instead.
    fn quiescence(
        &mut self,
        g: &mut G::Board,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        run: &mut Run<'_>,
    ) -> i32 {
        let stand = g.evaluate(ply);
        if stand.abs() >= WIN_BOUND {
            return stand;
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let best = if g.quiescence_evasions(depth, &mut list) {
            // no stand-pat: the node's value is its best answer
            self.best_reply(g, &list, depth, ply, -INF, (alpha, beta), run)
        } else if stand >= beta {
            stand
        } else if g.quiescence_moves(depth, &mut list) {
            self.best_reply(g, &list, depth, ply, stand, (alpha.max(stand), beta), run)
        } else {
            stand
        };
        self.lists[ply] = list;
        best
    }

    /// The best of `best` (a stand-pat, or `-INF`) and the quiescence moves of `list`, each
    /// searched on the window, fail-soft; 0 once the search is stopped.
    #[allow(clippy::too_many_arguments)]
    fn best_reply(
        &mut self,
        g: &mut G::Board,
        list: &[Scored],
        depth: i32,
        ply: usize,
        mut best: i32,
        (mut alpha, beta): (i32, i32),
        run: &mut Run<'_>,
    ) -> i32 {
        for &Scored { mv, .. } in list {
            g.play(mv);
            let s = -self.pvs(g, depth - 1, ply + 1, -beta, -alpha, run);
            g.undo(mv);
            if run.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    self.set_pv(ply, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The table entry and PV of a node the game searched itself ([`Board::search_last_ply`]).
    fn store_last_ply(
        &mut self,
        g: &G::Board,
        ply: usize,
        best: i32,
        best_move: Move,
        alpha: i32,
        beta: i32,
    ) {
        if best > alpha && !best_move.is_none() {
            self.pv[ply].clear();
            self.pv[ply].push(best_move);
        }
        let killers = self.killers[ply];
        if best >= beta && best_move != killers[0] {
            self.killers[ply] = [best_move, killers[0]];
        }
        self.store_result(g, ply, 1, best, best_move, (alpha, beta), 0);
    }

    /// Stores a searched node's result: its bound against the window `(alpha, beta)` it was
    /// searched with, its best move in the table's orientation, and `size` (the size class of
    /// the subtree, 0 when not measured).
    #[allow(clippy::too_many_arguments)]
    fn store_result(
        &mut self,
        g: &G::Board,
        ply: usize,
        depth: i32,
        best: i32,
        best_move: Move,
        (alpha, beta): (i32, i32),
        size: u8,
    ) {
        let bound = Bound::of_window(best, alpha, beta);
        self.store(Entry {
            key: g.tt_key(),
            score: to_tt(best, ply),
            mv: if best_move.is_none() {
                best_move
            } else {
                g.move_to_tt(best_move)
            },
            depth: searched_entry_depth(depth),
            bound,
            age: 0,
            size,
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        g: &mut G::Board,
        list: &mut [Scored],
        tt_move: Move,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        run: &mut Run<'_>,
    ) -> i32 {
        let alpha0 = alpha;
        let side = g.side_index();
        let cells = self.history.len() / 2;
        let killers = self.killers[ply];
        let picker = MovePicker::new(
            list,
            tt_move,
            killers,
            &self.history[side * cells..(side + 1) * cells],
        );
        let ext = (picker.len() == 1 && (ply as i32) < 2 * self.root_depth + 4) as i32;
        let before = self.nodes;
        let mut best = -INF;
        let mut best_move = Move::NONE;
        for (i, mv) in picker.enumerate() {
            // Late moves of a game that asks for it are searched shallower first; one that
            // beats alpha is searched again at the full depth.
            let r = if ext == 0 && i > 0 {
                g.late_move_reduction(i, depth, mv)
            } else {
                0
            };
            g.play(mv);
            let d = depth - 1 + ext;
            let s = if i == 0 {
                -self.pvs(g, d, ply + 1, -beta, -alpha, run)
            } else {
                let reduced =
                    (r > 0).then(|| -self.pvs(g, d - r, ply + 1, -alpha - 1, -alpha, run));
                let s = match reduced {
                    Some(s) if s <= alpha || run.stopped => s,
                    _ => -self.pvs(g, d, ply + 1, -alpha - 1, -alpha, run),
                };
                if s > alpha && s < beta && !run.stopped {
                    -self.pvs(g, d, ply + 1, -beta, -alpha, run)
                } else {
                    s
                }
            };
            g.undo(mv);
            if run.stopped {
                return 0;
            }
            if s > best {
                best = s;
                best_move = mv;
                if s > alpha {
                    alpha = s;
                    self.set_pv(ply, mv);
                    if alpha >= beta {
                        if mv != killers[0] && mv != tt_move {
                            self.killers[ply] = [mv, killers[0]];
                        }
                        if let Some(c) = mv.cell() {
                            let h = &mut self.history[side * cells + c];
                            *h += depth * depth;
                            if *h > HISTORY_CAP {
                                for v in self.history.iter_mut() {
                                    *v /= 2;
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        let size = size_class(self.nodes - before);
        self.store_result(g, ply, depth, best, best_move, (alpha0, beta), size);
        best
    }
}

/// A score as stored: wins counted from this node rather than from the root.
#[inline]
fn to_tt(s: i32, ply: usize) -> i16 {
    let s = if s >= WIN_BOUND {
        s + ply as i32
    } else if s <= -WIN_BOUND {
        s - ply as i32
    } else {
        s
    };
    s.clamp(-INF, INF) as i16
}

#[inline]
fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= WIN_BOUND {
        s - ply as i32
    } else if s <= -WIN_BOUND {
        s + ply as i32
    } else {
        s
    }
}
