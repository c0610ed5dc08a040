//! `xorboard solve`: solve a position exactly.
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

use super::{AnyGame, CommandError, CommandResult, GameSpec, split_moves};
use crate::game::gomoku::Gomoku;
use crate::game::{Game, GameKind, Move};
use crate::search::threats;
use crate::zobrist::Keys;

#[derive(Args, Debug, Clone)]
pub struct SolveArgs {
    #[command(flatten)]
    pub spec: GameSpec,
    /// Othello: the position as 64 cells and the side to move, "<64 chars> <X|O>".
    #[arg(long)]
    pub position: Option<String>,
    /// Moves from the start position (or from the --board position).
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Gomoku: a puzzle file in the tactics format (rows top to bottom, `attacker:` to move).
    #[arg(long)]
    pub board: Option<PathBuf>,
    /// Time limit in milliseconds (Gomoku default: 10000).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Search threads (Othello; the Gomoku threat search runs on one thread).
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
        GameKind::Othello => Err(CommandError(
            "othello: use --position \"<64 chars> <X|O>\" (the Othello endgame solver is not on this build yet)"
                .into(),
        )),
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
