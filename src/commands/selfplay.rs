//! `xorboard selfplay`: engine-against-engine games, reporting transposition-table reuse over
//! whole games (seed 004's experiment: cache hits against evaluations), illegal moves, false
//! matches, and results.
//!
//! Two engine configurations A and B (B copies A unless `--b-…` options say otherwise) play each
//! opening twice, swapping colours. Each side has its own table, kept across the moves of a game
//! (a new generation per move) and cleared between games. Every move an engine returns is checked
//! by the referee (this command) with the game's own rules; an illegal one forfeits the game and is
//! counted. Othello openings are drawn from the XOT list (`assets/xot.txt`), Gomoku openings from
//! the Gomocup freestyle list on 15×15 (`assets/openings-freestyle15.txt`), or a random stone near
//! the centre on other sizes.
//!
//! `--b-baseline` makes B the plain alpha-beta engine; `--b-weights FILE` (Othello) makes B the
//! same engine evaluating with another pattern weight file, to measure a retrained evaluation
//! against the previous one at equal time. The summary gives A's disc margin over the games.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::Args;
use rand::{RngExt, SeedableRng};
use serde_json::json;

use super::{AnyGame, CommandError, CommandResult, GameArgs};
use crate::game::gomoku::Gomoku;
use crate::game::othello::Othello;
use crate::game::{Game, GameKind, Move, Outcome, Side};
use crate::search::othello::OthelloBoard;
use crate::search::othello::eval::Weights;
use crate::search::{BoardSetup, ProbCutConfidence, ProbCutSpec, SearchOptions};
use crate::search::{Limits, Searchable, Searcher};
use crate::tt::{Policy, Table, TtStats};

#[derive(Args, Debug, Clone)]
pub struct SelfplayArgs {
    #[command(flatten)]
    pub spec: GameArgs,
    /// Number of games (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Time per move in milliseconds (default 100 unless --depth is given).
    #[arg(long, visible_alias = "move-ms")]
    pub time_ms: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Replacement strategy.
    #[arg(long, value_enum, default_value_t = Policy::TwoTier)]
    pub strategy: Policy,
    /// Check bits used to accept a TT hit (8–64); fewer bits, more false matches.
    #[arg(long, default_value_t = 64)]
    pub check_bits: u32,
    /// TT size per engine in MiB.
    #[arg(long, default_value_t = 16)]
    pub tt_mib: usize,
    /// Engine B: time per move in milliseconds (default: A's), e.g. the previous version at
    /// equal time.
    #[arg(long, visible_alias = "b-move-ms")]
    pub b_time_ms: Option<u64>,
    /// Engine B: depth per move (default: A's).
    #[arg(long)]
    pub b_depth: Option<u32>,
    /// Engine B: replacement strategy (default: A's).
    #[arg(long, value_enum)]
    pub b_strategy: Option<Policy>,
    /// Engine B: check bits (default: A's).
    #[arg(long)]
    pub b_check_bits: Option<u32>,
    /// Engine B is the plain alpha-beta engine: no exact answers from the game (no Othello
    /// endgame solver, no Gomoku threat search; Othello also evaluates with the "Engine" issue's
    /// linear evaluation instead of the trained patterns) — to measure what they add.
    #[arg(long)]
    pub b_baseline: bool,
    /// Othello engine B: evaluate with this pattern weight file instead of the built-in one
    /// (e.g. the previous `assets/endgame-eval.bin`, to measure a retrained evaluation).
    #[arg(long, value_name = "FILE")]
    pub b_weights: Option<std::path::PathBuf>,
    /// Multi-ProbCut in the Othello midgame: `off`, or its confidence as BASE,PER_DEPTH in
    /// hundredths of a standard deviation, then the static gate in centi-discs or `off`
    /// (default: the engine's, `100,5,100`).
    #[arg(long, value_name = "SPEC")]
    pub probcut: Option<ProbCutSpec>,
    /// Engine B: Multi-ProbCut (default: A's), e.g. `off`, or `100,5,off` for the engine
    /// before the static gate.
    #[arg(long, value_name = "SPEC")]
    pub b_probcut: Option<ProbCutSpec>,
    /// Symmetry keys for both engines (rotations and mirrors share a table entry).
    #[arg(long)]
    pub symmetry: bool,
    /// Seed for choosing openings.
    #[arg(long, default_value_t = 1)]
    pub opening_seed: u64,
    /// One JSON object per game, then a summary object.
    #[arg(long)]
    pub json: bool,
}

/// One engine's settings.
#[derive(Clone, Debug)]
struct EngineConfig {
    limits: Limits,
    policy: Policy,
    check_bits: u32,
    tt_mib: usize,
    baseline: bool,
    /// Othello: the weight file evaluating instead of the built-in one.
    weights: Option<String>,
    /// Multi-ProbCut's confidence, or off.
    probcut: Option<ProbCutConfidence>,
}

impl EngineConfig {
    fn describe(&self) -> String {
        let limit = match (self.limits.depth, self.limits.time) {
            (Some(d), _) => format!("depth {d}"),
            (None, Some(t)) => format!("{} ms/move", t.as_millis()),
            _ => "unlimited".into(),
        };
        let probcut = match self.probcut {
            Some(c) => format!(
                "probcut t = ({} + {}·depth)/100, gate {}",
                c.base,
                c.per_depth,
                c.gate_text()
            ),
            None => "probcut off".into(),
        };
        format!(
            "{limit}, {}, {} check bits, {} MiB, {probcut}{}",
            self.policy.name(),
            self.check_bits,
            self.tt_mib,
            if self.baseline {
                ", plain alpha-beta (no endgame solver / threat search; Othello: linear evaluation)"
                    .to_string()
            } else {
                match &self.weights {
                    Some(file) => format!(", weights {file}"),
                    None => String::new(),
                }
            }
        )
    }
}

/// Totals over all games.
#[derive(Default, Debug)]
struct Totals {
    games: usize,
    illegal: usize,
    a_wins: usize,
    b_wins: usize,
    draws: usize,
    black_wins: usize,
    white_wins: usize,
    plies: usize,
    /// Othello: A's final disc difference summed over the games.
    a_discs: i64,
    nodes: u64,
    tt: [TtStats; 2],
}

pub fn run(args: &SelfplayArgs) -> CommandResult {
    if args.games == 0 || args.games > 100_000 {
        return Err(CommandError(format!(
            "games {} out of range: 1 to 100000",
            args.games
        )));
    }
    for bits in [Some(args.check_bits), args.b_check_bits]
        .into_iter()
        .flatten()
    {
        if !(8..=64).contains(&bits) {
            return Err(CommandError(format!(
                "check bits {bits} out of range: 8 to 64"
            )));
        }
    }
    if !(1..=4096).contains(&args.tt_mib) {
        return Err(CommandError(format!(
            "tt-mib {} out of range: 1 to 4096",
            args.tt_mib
        )));
    }
    let limits = |time: Option<u64>, depth: Option<u32>| Limits {
        depth,
        time: match (time, depth) {
            (None, None) => Some(Duration::from_millis(100)),
            (t, _) => t.map(Duration::from_millis),
        },
        nodes: None,
    };
    let a = EngineConfig {
        limits: limits(args.time_ms, args.depth),
        policy: args.strategy,
        check_bits: args.check_bits,
        tt_mib: args.tt_mib,
        baseline: false,
        weights: None,
        probcut: args
            .probcut
            .map_or(SearchOptions::default().probcut, |s| s.0),
    };
    let b = EngineConfig {
        limits: if args.b_time_ms.is_some() || args.b_depth.is_some() {
            limits(args.b_time_ms, args.b_depth)
        } else {
            a.limits.clone()
        },
        policy: args.b_strategy.unwrap_or(a.policy),
        check_bits: args.b_check_bits.unwrap_or(a.check_bits),
        tt_mib: a.tt_mib,
        baseline: args.b_baseline,
        weights: args.b_weights.as_ref().map(|f| f.display().to_string()),
        probcut: args.b_probcut.map_or(a.probcut, |s| s.0),
    };
    match args.spec.start()? {
        AnyGame::Othello(g) => {
            let setup = match &args.b_weights {
                Some(file) => {
                    if args.b_baseline {
                        return Err(CommandError(
                            "--b-weights and --b-baseline exclude each other".into(),
                        ));
                    }
                    let bytes = std::fs::read(file).map_err(|e| {
                        CommandError(format!("cannot read {}: {e}", file.display()))
                    })?;
                    let w = Weights::for_engine(&bytes).ok_or_else(|| {
                        CommandError(format!(
                            "{} is not a pattern weight file of this layout",
                            file.display()
                        ))
                    })?;
                    // the search boards hold `&'static` weights: one file per run
                    let w: &'static Weights = Box::leak(Box::new(w));
                    let setup: BoardSetup<Othello> =
                        Arc::new(move |board: &mut OthelloBoard| board.set_weights(w));
                    Some(setup)
                }
                None => None,
            };
            play_all(g, args, &a, &b, othello_openings(args), setup)
        }
        AnyGame::Gomoku(g) => {
            if args.b_weights.is_some() {
                return Err(CommandError(
                    "--b-weights is for Othello (pattern evaluation weights)".into(),
                ));
            }
            let openings = gomoku_opening_moves(&g, args)?;
            play_all(g, args, &a, &b, openings, None)
        }
    }
}

/// Opening move lists (as names) for Othello: XOT lines in a seeded random order.
fn othello_openings(args: &SelfplayArgs) -> Vec<Vec<String>> {
    let lines = crate::book::xot_openings();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.opening_seed);
    (0..args.games.div_ceil(2))
        .map(|_| {
            let line = lines[rng.random_range(0..lines.len())];
            crate::game::notation::split_othello_transcript(line).unwrap_or_default()
        })
        .collect()
}

/// Opening move lists for Gomoku: the Gomocup list on 15×15, a random stone near the centre
/// otherwise.
fn gomoku_opening_moves(g: &Gomoku, args: &SelfplayArgs) -> Result<Vec<Vec<String>>, CommandError> {
    let n = args.games.div_ceil(2);
    let size = g.size();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.opening_seed);
    if size == 15 {
        let list: Vec<Vec<String>> = crate::book::gomoku_openings(
            include_str!("../../assets/openings-freestyle15.txt"),
            g.keys(),
        )
        .map_err(CommandError)?
        .iter()
        .map(|opening| opening.history().iter().map(|&m| g.move_name(m)).collect())
        .collect();
        return Ok((0..n).map(|i| list[i % list.len()].clone()).collect());
    }
    let c = size / 2;
    Ok((0..n)
        .map(|_| {
            let x = c + rng.random_range(0..3) - 1;
            let y = c + rng.random_range(0..3) - 1;
            vec![g.move_name(Move::at(y * size + x))]
        })
        .collect())
}

fn play_all<G: Searchable>(
    start: G,
    args: &SelfplayArgs,
    a: &EngineConfig,
    b: &EngineConfig,
    openings: Vec<Vec<String>>,
    b_setup: Option<BoardSetup<G>>,
) -> CommandResult {
    let configs = [a, b];
    let tables: [Arc<Table>; 2] =
        configs.map(|c| Arc::new(Table::new(c.tt_mib, c.policy, c.check_bits)));
    let mut searchers: [Searcher<G>; 2] = [
        Searcher::new(tables[0].clone()),
        Searcher::new(tables[1].clone()),
    ];
    for s in &mut searchers {
        s.set_symmetry(args.symmetry);
    }
    for (s, c) in searchers.iter_mut().zip(configs) {
        s.set_probcut(c.probcut);
    }
    searchers[1].set_exact_hook(!args.b_baseline);
    searchers[1].set_board_setup(b_setup);
    let stop = AtomicBool::new(false);
    let mut totals = Totals::default();
    let began = Instant::now();
    if !args.json {
        println!(
            "{} self-play, {} games\n  A: {}\n  B: {}",
            start.kind(),
            args.games,
            a.describe(),
            b.describe()
        );
    }
    for game_no in 0..args.games {
        let opening = &openings[game_no / 2];
        // even games: A plays black; odd games: B plays black
        let a_side = if game_no % 2 == 0 {
            Side::Black
        } else {
            Side::White
        };
        let mut g = start.clone();
        crate::game::play_line(&mut g, opening)
            .map_err(|e| CommandError(format!("opening {}: {e}", game_no / 2 + 1)))?;
        for t in &tables {
            t.clear();
        }
        for s in &mut searchers {
            s.reset_ordering();
        }
        let mut illegal_by = None;
        let mut nodes = 0;
        while g.outcome().is_none() {
            let side = g.side_to_move();
            let engine = usize::from(side != a_side);
            tables[engine].new_search();
            let result = searchers[engine].search(&g, &configs[engine].limits, &stop, &mut |_| {});
            nodes += result.nodes;
            let mv = result.best.unwrap_or(Move::NONE);
            if g.try_play(mv).is_err() {
                illegal_by = Some(engine);
                break;
            }
        }
        totals.games += 1;
        totals.plies += g.ply();
        totals.nodes += nodes;
        let winner_engine = match (illegal_by, g.outcome()) {
            (Some(e), _) => {
                totals.illegal += 1;
                Some(1 - e)
            }
            (None, Some(Outcome::Win(side))) => {
                if side == Side::Black {
                    totals.black_wins += 1;
                } else {
                    totals.white_wins += 1;
                }
                Some(usize::from(side != a_side))
            }
            _ => None,
        };
        match winner_engine {
            Some(0) => totals.a_wins += 1,
            Some(_) => totals.b_wins += 1,
            None => totals.draws += 1,
        }
        let score = match start.kind() {
            GameKind::Othello => {
                g.final_score()
                    * if g.side_to_move() == Side::Black {
                        1
                    } else {
                        -1
                    }
            }
            GameKind::Gomoku => 0,
        };
        if illegal_by.is_none() {
            totals.a_discs += i64::from(if a_side == Side::Black { score } else { -score });
        }
        if args.json {
            super::print_json(&json!({
                "game": game_no + 1,
                "opening": opening.join(""),
                "a_plays": a_side.name(),
                "plies": g.ply(),
                "result": match g.outcome() {
                    Some(o) => o.to_string(),
                    None => "forfeit (illegal move)".into(),
                },
                "black_disc_margin": (start.kind() == GameKind::Othello).then_some(score),
                "winner": winner_engine.map(|e| ["A", "B"][e]),
                "nodes": nodes,
            }));
        } else {
            println!(
                "  game {:>3}: A {:<5} {:>3} plies  {:<22} nodes {:>11}",
                game_no + 1,
                a_side.name(),
                g.ply(),
                match (illegal_by, g.outcome()) {
                    (Some(e), _) => format!("{} played illegally", ["A", "B"][e]),
                    (None, Some(o)) if start.kind() == GameKind::Othello =>
                        format!("{o} ({score:+} black)"),
                    (None, Some(o)) => o.to_string(),
                    (None, None) => "unfinished".into(),
                },
                nodes
            );
        }
        for (i, t) in tables.iter().enumerate() {
            searchers[i].tt_stats();
            let s = t.stats();
            totals.tt[i].add_counts(&s);
        }
    }
    let seconds = began.elapsed().as_secs_f64();
    let tt = {
        let mut s = totals.tt[0].clone();
        s.add_counts(&totals.tt[1]);
        s
    };
    let hit_rate = tt.hits as f64 / tt.probes.max(1) as f64;
    let usable = tt.usable_hits as f64 / tt.probes.max(1) as f64;
    if args.json {
        super::print_json(&json!({
            "games": totals.games,
            "illegal": totals.illegal,
            "hit_rate": hit_rate,
            "usable_hit_rate": usable,
            "probes": tt.probes,
            "hits": tt.hits,
            "false_matches": tt.false_matches,
            "clashes": tt.clashes,
            "replaced": tt.replacements,
            "nodes": totals.nodes,
            "plies": totals.plies,
            "seconds": seconds,
            "a": {"wins": totals.a_wins, "config": a.describe()},
            "b": {"wins": totals.b_wins, "config": b.describe()},
            "draws": totals.draws,
            "a_disc_margin": (start.kind() == GameKind::Othello).then_some(totals.a_discs),
            "black": {"wins": totals.black_wins},
            "white": {"wins": totals.white_wins},
        }));
    } else {
        println!(
            "\n{} games in {:.1} s, {} plies, {} nodes ({:.0} evaluations per ply)",
            totals.games,
            seconds,
            totals.plies,
            totals.nodes,
            totals.nodes as f64 / totals.plies.max(1) as f64
        );
        let margin = if start.kind() == GameKind::Othello {
            format!(
                ", A {:+} discs ({:+.2} a game)",
                totals.a_discs,
                totals.a_discs as f64 / totals.games.max(1) as f64
            )
        } else {
            String::new()
        };
        println!(
            "A {} – B {} – draws {}{margin}   (black won {}, white won {})   illegal moves {}",
            totals.a_wins,
            totals.b_wins,
            totals.draws,
            totals.black_wins,
            totals.white_wins,
            totals.illegal
        );
        println!(
            "TT over whole games: {} probes, {} hits ({:.1}%), {} usable ({:.1}%), {} false matches, {} clashes, {} replacements",
            tt.probes,
            tt.hits,
            100.0 * hit_rate,
            tt.usable_hits,
            100.0 * usable,
            tt.false_matches,
            tt.clashes,
            tt.replacements
        );
    }
    Ok(())
}
