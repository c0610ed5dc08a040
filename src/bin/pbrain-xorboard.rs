//! `pbrain-xorboard`: xorboard's Gomoku brain under the name Piskvork-compatible managers require
//! (`pbrain-*`). The same as `xorboard piskvork`, with the same options.

#![deny(clippy::undocumented_unsafe_blocks)]

use std::process::ExitCode;

use clap::Parser;
use xorboard::commands::piskvork::{self, PiskvorkArgs};

#[derive(Parser, Debug)]
#[command(
    name = "pbrain-xorboard",
    version,
    about = "xorboard's Gomoku engine speaking the Gomocup/Piskvork brain protocol on stdin/stdout"
)]
struct Cli {
    #[command(flatten)]
    args: PiskvorkArgs,
}

fn main() -> ExitCode {
    if let Err(e) = xorboard::cpu::check() {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let cli = Cli::parse();
    match piskvork::run(&cli.args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
