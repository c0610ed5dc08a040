//! The `xorboard` binary: parses the command line and hands over to the library.

#![deny(clippy::undocumented_unsafe_blocks)]

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use xorboard::commands::{self, CommandResult};

#[derive(Parser, Debug)]
#[command(
    name = "xorboard",
    version,
    about = "Othello and Gomoku against an alpha-beta engine, with live Zobrist hashing panels"
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// With no subcommand, the game's options (as for `xorboard play`).
    #[command(flatten)]
    play: commands::play::PlayArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The game in the terminal (the default): play Othello or Gomoku against the engine.
    Play(commands::play::PlayArgs),
    /// The TT replacement experiment: fixed positions, every strategy and size, node counts.
    Bench(commands::bench::BenchArgs),
    /// Compare the replacement strategies on one position at a table pressure where they differ.
    Compare(commands::compare::CompareArgs),
    /// Count move paths to a depth (convention A: a pass is a ply, a finished game one leaf).
    Perft(commands::perft::PerftArgs),
    /// Print each move's Zobrist XOR terms and the hash after it.
    Hash(commands::hash::HashArgs),
    /// Lessons: the worked example of the seed article, step by step.
    Lesson(commands::lesson::LessonArgs),
    /// Engine-against-engine games with TT reuse statistics over whole games.
    Selfplay(commands::selfplay::SelfplayArgs),
    /// Solve a position: Gomoku threat search (forced win / loss), Othello exact endgame.
    Solve(commands::solve::SolveArgs),
    /// Othello engine for GUIs and referees: the NBoard protocol on stdin/stdout.
    Nboard(commands::nboard::NboardArgs),
    /// Gomoku brain for Piskvork/Gomocup managers (also run as `pbrain-xorboard`).
    Piskvork(commands::piskvork::PiskvorkArgs),
}

/// Run as `pbrain-…` (a copy or link of this binary): managers require that name for the brain.
#[derive(Parser, Debug)]
#[command(name = "pbrain-xorboard", version)]
struct PbrainCli {
    #[command(flatten)]
    args: commands::piskvork::PiskvorkArgs,
}

fn called_as_pbrain() -> bool {
    std::env::args_os()
        .next()
        .and_then(|a| {
            std::path::Path::new(&a)
                .file_name()
                .map(|n| n.to_string_lossy().to_ascii_lowercase())
        })
        .is_some_and(|n| n.starts_with("pbrain-"))
}

fn main() -> ExitCode {
    if let Err(e) = xorboard::cpu::check() {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    if called_as_pbrain() {
        return finish(commands::piskvork::run(&PbrainCli::parse().args));
    }
    let cli = Cli::parse();
    let result: CommandResult = match &cli.command {
        None => commands::play::run(&cli.play),
        Some(Command::Play(a)) => commands::play::run(a),
        Some(Command::Bench(a)) => commands::bench::run(a),
        Some(Command::Compare(a)) => commands::compare::run(a),
        Some(Command::Perft(a)) => commands::perft::run(a),
        Some(Command::Hash(a)) => commands::hash::run(a),
        Some(Command::Lesson(a)) => commands::lesson::run(a),
        Some(Command::Selfplay(a)) => commands::selfplay::run(a),
        Some(Command::Solve(a)) => commands::solve::run(a),
        Some(Command::Nboard(a)) => commands::nboard::run(a),
        Some(Command::Piskvork(a)) => commands::piskvork::run(a),
    };
    finish(result)
}

fn finish(result: CommandResult) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
