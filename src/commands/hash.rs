//! `xorboard hash`: play a move list and print every XOR term of every move, the hash after each,
//! and at the end the incremental hash beside a full recompute (they must be equal).

use clap::Args;
use serde_json::json;

use super::{CommandError, CommandResult, GameSpec, split_moves};
use crate::game::{Cell, Game};
use crate::with_game;
use crate::zobrist::{Delta, hex};

#[derive(Args, Debug, Clone)]
pub struct HashArgs {
    #[command(flatten)]
    pub spec: GameSpec,
    /// Moves from the start: an Othello transcript (f5d6c3) or Gomoku coordinates (h8,i9).
    #[arg(long, default_value = "")]
    pub moves: String,
    /// One JSON object per move, then one with `hash` and `recomputed`.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &HashArgs) -> CommandResult {
    let moves = split_moves(args.spec.game, &args.moves)?;
    with_game!(args.spec.start()?, g => {
        let mut g = g;
        report(&mut g, &moves, args.json)
    })
}

/// Why a term is there, in words.
pub fn term_reason(from: Cell, to: Cell) -> &'static str {
    match (from, to) {
        (Cell::Empty, _) => "placement",
        (_, Cell::Empty) => "removal",
        _ => "flip",
    }
}

fn report<G: Game>(game: &mut G, moves: &[String], json: bool) -> CommandResult {
    let start = game.hash();
    if json {
        super::print_json(&json!({"ply": 0, "hash": hex(start)}));
    } else {
        println!("start                                  hash {}", hex(start));
    }
    for (i, text) in moves.iter().enumerate() {
        let side = game.side_to_move();
        let delta: Delta = game
            .play_named(text)
            .map_err(|e| CommandError(format!("move {} '{}': {}", i + 1, text, e)))?;
        let name = game.move_name(game.last_move().expect("a move was just played"));
        if json {
            let terms: Vec<_> = delta
                .terms
                .iter()
                .map(|t| {
                    json!({
                        "cell": game.move_name(crate::game::Move::at(t.cell)),
                        "from": t.from.name(),
                        "to": t.to.name(),
                        "key": hex(t.key),
                        "kind": term_reason(t.from, t.to),
                    })
                })
                .collect();
            super::print_json(&json!({
                "ply": i + 1,
                "move": name,
                "side": side.name(),
                "terms": terms,
                "side_key": hex(delta.side_key),
                "hash": hex(delta.after),
            }));
        } else {
            println!("{:>3}. {} {}", i + 1, side, name);
            for t in &delta.terms {
                println!(
                    "       {:<4} {:>5} → {:<5} ^ {}   ({})",
                    game.move_name(crate::game::Move::at(t.cell)),
                    t.from.name(),
                    t.to.name(),
                    hex(t.key),
                    term_reason(t.from, t.to)
                );
            }
            println!(
                "       side              ^ {}   = {}",
                hex(delta.side_key),
                hex(delta.after)
            );
        }
    }
    let hash = game.hash();
    let recomputed = game.recompute_hash();
    if json {
        super::print_json(&json!({
            "moves": moves.len(),
            "hash": hex(hash),
            "recomputed": hex(recomputed),
            "equal": hash == recomputed,
        }));
    } else {
        println!(
            "final hash {}   full recompute {}   {}",
            hex(hash),
            hex(recomputed),
            if hash == recomputed {
                "✓ equal"
            } else {
                "✗ DIFFERENT"
            }
        );
    }
    if hash != recomputed {
        return Err(CommandError(
            "internal error: incremental hash differs from the recompute".into(),
        ));
    }
    Ok(())
}
