//! `xorboard solve`: solve a position exactly.
//!
//! Othello (the default): the exact final disc difference for the side to move with perfect play,
//! a best move (`pa` when the side must pass, none when the game is over), a line of perfect play,
//! nodes and time. The position is `--position "<OBF>"` or the start position, plus `--moves`.
//! `--suite` runs a file of FForum-style positions (`<board> <side>; <score>; <best moves>; #id`),
//! checks every score and best move against the file and ends with the totals; the suites
//! `ffo1-39` and `ffo40-49` are built in. A wrong suite answer is an error (exit status 2).
//!
//! Gomoku (`--game gomoku`): threat-space search (VCF, then VCT) for the side to move, then the
//! opponent's threats against every reply. Prints `best` (RIF square), `win` (`true`, `false`, or
//! `null` when unknown within the time), `line` (the attacker's moves and the defender's replies
//! alternating, a line a referee can replay), `nodes` and `seconds`. The position is the start
//! position plus `--moves`, or a puzzle file in the tactics format (`--board FILE`, the attacker to
//! move) plus `--moves`.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::json;

use super::{AnyGame, CommandError, CommandResult, GameArgs, split_moves};
use crate::game::gomoku::Gomoku;
use crate::game::notation::{othello_move_name, parse_obf, parse_othello_move};
use crate::game::othello::Othello;
use crate::game::{Game, GameKind, Move};
use crate::search::endgame::{DEFAULT_TABLE_MIB, Solution, SolveLimits, Solver};
use crate::search::threats;
use crate::zobrist::Keys;

#[derive(Args, Debug, Clone)]
pub struct SolveArgs {
    #[command(flatten)]
    pub spec: GameArgs,
    /// Othello: the position as 64 cells and the side to move, "<64 chars> <X|O>" (X black,
    /// O white, - empty, a1..h8 row by row).
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Moves from the start position (or from the --board position).
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Gomoku: a puzzle file in the tactics format (rows top to bottom, `attacker:` to move).
    #[arg(long)]
    pub board: Option<PathBuf>,
    /// Time limit in milliseconds (Gomoku default: 10000; Othello: none, per position with
    /// --suite).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Othello: run a suite of positions: `ffo1-39`, `ffo40-49` (built in) or a file in the same
    /// format.
    #[arg(long, conflicts_with_all = ["position", "board"])]
    pub suite: Option<String>,
    /// Othello, with --suite: only these ids, e.g. `40,42,45-49`.
    #[arg(long, requires = "suite")]
    pub ids: Option<String>,
    /// Othello: give up after this many nodes (per position with --suite).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Othello: size of the endgame solver's transposition table in MiB.
    #[arg(long, default_value_t = DEFAULT_TABLE_MIB)]
    pub hash_mib: usize,
    /// Search threads (Othello: Lazy SMP on the solver's shared table; the Gomoku threat search
    /// runs on one thread).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Gomoku's default time when `--time-ms` is not given.
const GOMOKU_DEFAULT_MS: u64 = 10_000;

pub fn run(args: &SolveArgs) -> CommandResult {
    match args.spec.game {
        GameKind::Gomoku => run_gomoku(args),
        GameKind::Othello => run_othello(args),
    }
}

/// The Gomoku position the arguments describe.
pub fn gomoku_position(args: &SolveArgs) -> Result<Gomoku, CommandError> {
    if args.position.is_some() {
        return Err("gomoku: --position is for Othello; give --moves or --board".into());
    }
    let mut game = match &args.board {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CommandError(format!("{}: {e}", path.display())))?;
            let puzzle = threats::puzzle::parse(&text, Keys::for_seed(args.spec.seed))
                .map_err(|e| CommandError(format!("{}: {e}", path.display())))?;
            puzzle.game
        }
        None => match args.spec.start()? {
            AnyGame::Gomoku(g) => g,
            AnyGame::Othello(_) => return Err("expected a gomoku game".into()),
        },
    };
    let moves = split_moves(GameKind::Gomoku, &args.moves)?;
    super::play_moves(&mut game, &moves)?;
    Ok(game)
}

fn run_gomoku(args: &SolveArgs) -> CommandResult {
    let game = gomoku_position(args)?;
    let time = Duration::from_millis(args.time_ms.unwrap_or(GOMOKU_DEFAULT_MS));
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let answer = threats::solve(&game, time, &stop);
    let seconds = started.elapsed().as_secs_f64();
    let name = |m: Move| game.move_name(m);
    let line: Vec<String> = answer.line.iter().map(|&m| name(m)).collect();
    if args.json {
        super::print_json(&json!({
            "game": "gomoku",
            "side": game.side_to_move().name(),
            "best": answer.best.map(name),
            "win": answer.win,
            "line": line,
            "nodes": answer.nodes,
            "seconds": seconds,
        }));
    } else {
        let verdict = match answer.win {
            Some(true) => "forced win",
            Some(false) => "forced loss",
            None => "unknown",
        };
        println!("side     {}", game.side_to_move());
        println!("verdict  {verdict}");
        println!(
            "best     {}",
            answer.best.map(name).unwrap_or_else(|| "-".into())
        );
        println!(
            "line     {}",
            if line.is_empty() {
                "-".into()
            } else {
                line.join(" ")
            }
        );
        println!("nodes    {}", answer.nodes);
        println!("seconds  {seconds:.3}");
    }
    Ok(())
}

const BUILT_IN: [(&str, &str); 2] = [
    ("ffo1-39", include_str!("../../assets/ffo1-39.txt")),
    ("ffo40-49", include_str!("../../assets/ffo40-49.txt")),
];

fn run_othello(args: &SolveArgs) -> CommandResult {
    if !(1..=64).contains(&args.threads) {
        return Err(CommandError(format!(
            "--threads {} out of range: 1 to 64",
            args.threads
        )));
    }
    if args.board.is_some() {
        return Err("othello: --board is for Gomoku puzzles; give --position or --moves".into());
    }
    if !(1..=4096).contains(&args.hash_mib) {
        return Err(CommandError(format!(
            "--hash-mib {} out of range: 1 to 4096",
            args.hash_mib
        )));
    }
    let limits = SolveLimits {
        nodes: args.nodes,
        time: args.time_ms.map(Duration::from_millis),
    };
    if let Some(suite) = &args.suite {
        return run_suite(args, suite, &limits);
    }
    let game = othello_position(args)?;
    let mut solver = Solver::new(args.hash_mib);
    solver.set_threads(args.threads);
    let (result, seconds) = solve_one(&mut solver, &game, &limits)?;
    print_solution(&game, &result, seconds, args.json);
    Ok(())
}

/// The Othello position the arguments describe: `--position` (or the start) plus `--moves`.
fn othello_position(args: &SolveArgs) -> Result<Othello, CommandError> {
    let keys = Keys::for_seed(args.spec.seed);
    let mut game = match &args.position {
        Some(obf) => parse_obf(obf, keys)?,
        None if args.moves.trim().is_empty() => {
            return Err(CommandError(
                "othello: give --position \"<64 squares> <X|O>\", --moves TRANSCRIPT or --suite NAME"
                    .into(),
            ));
        }
        None => Othello::new(keys),
    };
    let moves = split_moves(GameKind::Othello, &args.moves)?;
    super::play_moves(&mut game, &moves)?;
    Ok(game)
}

fn solve_one(
    solver: &mut Solver,
    game: &Othello,
    limits: &SolveLimits,
) -> Result<(Solution, f64), CommandError> {
    let (p, o) = game.player_opponent();
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let result = solver.solve(p, o, &stop, limits);
    let seconds = start.elapsed().as_secs_f64();
    result.map(|s| (s, seconds)).map_err(|i| {
        CommandError(format!(
            "solve: stopped by the limit after {} nodes, {seconds:.3} s, before an exact result",
            i.nodes
        ))
    })
}

fn move_text(mv: Move) -> Option<String> {
    (!mv.is_none()).then(|| othello_move_name(mv))
}

fn pv_text(pv: &[Move]) -> String {
    pv.iter()
        .map(|&m| othello_move_name(m))
        .collect::<Vec<_>>()
        .join(" ")
}

fn print_solution(game: &Othello, s: &Solution, seconds: f64, json: bool) {
    let nps = (s.nodes as f64 / seconds.max(1e-9)).round() as u64;
    if json {
        super::print_json(&json!({
            "score": s.score,
            "best": move_text(s.best),
            "nodes": s.nodes,
            "seconds": seconds,
            "empties": game.empties(),
            "nps": nps,
            "pv": pv_text(&s.pv),
        }));
    } else {
        println!(
            "score {:+}  best {}  empties {}  nodes {}  {:.3} s  {:.1} M nodes/s",
            s.score,
            move_text(s.best).unwrap_or_else(|| "none (game over)".into()),
            game.empties(),
            s.nodes,
            seconds,
            nps as f64 / 1e6
        );
        if !s.pv.is_empty() {
            println!("pv {}", pv_text(&s.pv));
        }
    }
}

/// One suite line: the position, its expected score and best moves, and its id.
#[derive(Clone, Debug)]
pub struct SuiteEntry {
    pub id: String,
    pub game: Othello,
    pub score: i32,
    pub best: Vec<Move>,
}

/// Parse a suite in the FForum format (`#` lines and blank lines are skipped).
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |what: &str| format!("suite line {}: {what}", i + 1);
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        if fields.len() < 4 {
            return Err(at("expected `<board> <side>; <score>; <best moves>; #id`"));
        }
        let game = parse_obf(fields[0], Keys::default_keys()).map_err(|e| at(&e))?;
        let score: i32 = fields[1]
            .trim_start_matches('+')
            .parse()
            .map_err(|_| at(&format!("score '{}' is not a number", fields[1])))?;
        let best = fields[2]
            .split(',')
            .map(|m| parse_othello_move(m).map_err(|e| at(&e.to_string())))
            .collect::<Result<Vec<_>, _>>()?;
        let id = fields[3]
            .trim_start_matches('#')
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_string();
        if id.is_empty() {
            return Err(at("missing #id"));
        }
        out.push(SuiteEntry {
            id,
            game,
            score,
            best,
        });
    }
    Ok(out)
}

/// Parse `40,42,45-49` into a predicate on numeric ids.
fn parse_ids(text: &str) -> Result<Vec<(u32, u32)>, CommandError> {
    text.split(',')
        .map(|part| {
            let part = part.trim();
            let bad = || CommandError(format!("--ids: '{part}' is not an id or a range a-b"));
            let (a, b) = match part.split_once('-') {
                Some((a, b)) => (
                    a.trim().parse().map_err(|_| bad())?,
                    b.trim().parse().map_err(|_| bad())?,
                ),
                None => {
                    let a: u32 = part.parse().map_err(|_| bad())?;
                    (a, a)
                }
            };
            Ok((a, b))
        })
        .collect()
}

fn run_suite(args: &SolveArgs, suite: &str, limits: &SolveLimits) -> CommandResult {
    let text = match BUILT_IN.iter().find(|(name, _)| *name == suite) {
        Some((_, text)) => text.to_string(),
        None => std::fs::read_to_string(suite).map_err(|e| {
            CommandError(format!(
                "--suite '{suite}': not a built-in suite (ffo1-39, ffo40-49) and not a readable file: {e}"
            ))
        })?,
    };
    let mut entries = parse_suite(&text)?;
    if let Some(ids) = &args.ids {
        let ranges = parse_ids(ids)?;
        entries.retain(|e| {
            e.id.parse::<u32>()
                .is_ok_and(|n| ranges.iter().any(|&(a, b)| (a..=b).contains(&n)))
        });
    }
    if entries.is_empty() {
        return Err(CommandError(format!(
            "--suite '{suite}': no positions to solve"
        )));
    }
    let mut solver = Solver::new(args.hash_mib);
    solver.set_threads(args.threads);
    let (mut total_nodes, mut total_seconds, mut wrong) = (0u64, 0f64, Vec::new());
    if !args.json {
        println!(
            "{:>4} {:>3} {:>6} {:>6} {:>5} {:>4} {:>14} {:>9} {:>7}",
            "id", "emp", "score", "expect", "best", "ok", "nodes", "seconds", "Mn/s"
        );
    }
    for e in &entries {
        solver.clear();
        let (s, seconds) = solve_one(&mut solver, &e.game, limits)?;
        let ok = s.score == e.score && e.best.contains(&s.best);
        if !ok {
            wrong.push(e.id.clone());
        }
        total_nodes += s.nodes;
        total_seconds += seconds;
        let nps = s.nodes as f64 / seconds.max(1e-9);
        if args.json {
            super::print_json(&json!({
                "id": e.id,
                "empties": e.game.empties(),
                "score": s.score,
                "expected": e.score,
                "best": move_text(s.best),
                "expected_best": e.best.iter().map(|&m| othello_move_name(m)).collect::<Vec<_>>(),
                "ok": ok,
                "nodes": s.nodes,
                "seconds": seconds,
                "nps": nps.round() as u64,
            }));
        } else {
            println!(
                "{:>4} {:>3} {:>+6} {:>+6} {:>5} {:>4} {:>14} {:>9.3} {:>7.1}",
                e.id,
                e.game.empties(),
                s.score,
                e.score,
                move_text(s.best).unwrap_or_else(|| "--".into()),
                if ok { "yes" } else { "NO" },
                s.nodes,
                seconds,
                nps / 1e6
            );
        }
    }
    let nps = total_nodes as f64 / total_seconds.max(1e-9);
    if args.json {
        super::print_json(&json!({
            "total": entries.len(),
            "correct": entries.len() - wrong.len(),
            "nodes": total_nodes,
            "seconds": total_seconds,
            "nps": nps.round() as u64,
        }));
    } else {
        println!(
            "total {} positions, {} correct, {} nodes, {:.3} s, {:.1} M nodes/s",
            entries.len(),
            entries.len() - wrong.len(),
            total_nodes,
            total_seconds,
            nps / 1e6
        );
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(CommandError(format!(
            "suite '{suite}': wrong score or best move on #{}",
            wrong.join(", #")
        )))
    }
}
