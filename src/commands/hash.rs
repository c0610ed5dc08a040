//! `xorboard hash`: play a move list and print every XOR term of every move, the hash after each,
//! and at the end the incremental hash beside a full recompute (they must be equal).

use clap::Args;
use serde_json::json;

use super::{CommandError, CommandResult, GameArgs, split_moves};
use crate::game::{Cell, Game};
use crate::with_game;
use crate::zobrist::{Delta, hex};

#[derive(Args, Debug, Clone)]
pub struct HashArgs {
    #[command(flatten)]
    pub spec: GameArgs,
    /// Moves from the start: an Othello transcript (f5d6c3) or Gomoku coordinates (h8,i9).
    #[arg(long, default_value = "")]
    pub moves: String,
    /// One JSON object per move, then one with `hash` and `recomputed`.
    #[arg(long)]
    pub json: bool,
    /// Instead: measure the cost per move of the incremental update against a full recompute,
    /// over random games from the start.
    #[arg(long)]
    pub cost: bool,
}

pub fn run(args: &HashArgs) -> CommandResult {
    if args.cost {
        return with_game!(args.spec.start()?, g => cost(g, args.json));
    }
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

/// Time `play` + `undo` (which keep the hash incrementally) against `recompute_hash` over the
/// positions of random games, and print ns per move for each.
fn cost<G: Game>(start: G, json: bool) -> CommandResult {
    use rand::{RngExt, SeedableRng};
    use std::hint::black_box;
    use std::time::Instant;

    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    // Random games, capped at 60 plies so Othello and Gomoku compare like with like.
    let mut games: Vec<Vec<crate::game::Move>> = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..200 {
        let mut g = start.clone();
        let mut line = Vec::new();
        while line.len() < 60 {
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            g.play(mv);
            line.push(mv);
        }
        games.push(line);
    }
    let plies: usize = games.iter().map(Vec::len).sum();
    let rounds = 20;

    let t = Instant::now();
    for _ in 0..rounds {
        for line in &games {
            let mut g = start.clone();
            for &mv in line {
                g.play(mv);
                black_box(g.hash());
            }
        }
    }
    let play_ns = t.elapsed().as_nanos() as f64 / (rounds * plies) as f64;

    let t = Instant::now();
    for _ in 0..rounds {
        for line in &games {
            let mut g = start.clone();
            for &mv in line {
                g.play(mv);
                black_box(g.recompute_hash());
            }
        }
    }
    let recompute_ns = t.elapsed().as_nanos() as f64 / (rounds * plies) as f64 - play_ns;

    // The XOR terms alone, from the Delta of each move.
    let mut deltas = Vec::with_capacity(plies);
    for line in &games {
        let mut g = start.clone();
        for &mv in line {
            deltas.push(g.try_play(mv).map_err(|e| CommandError(e.to_string()))?);
        }
    }
    let t = Instant::now();
    for _ in 0..rounds {
        for d in &deltas {
            black_box(d.replay());
        }
    }
    let xor_ns = t.elapsed().as_nanos() as f64 / (rounds * plies) as f64;
    let name = start.kind().name();
    if json {
        super::print_json(&json!({
            "game": name,
            "plies": plies * rounds,
            "play_with_incremental_hash_ns": play_ns,
            "incremental_terms_ns": xor_ns,
            "full_recompute_ns": recompute_ns,
            "ratio": recompute_ns / xor_ns.max(1e-9),
        }));
    } else {
        println!(
            "{name}: over {} plies of random games\n  play with incremental hash: {play_ns:7.1} ns/move\n  the XOR terms alone:        {xor_ns:7.1} ns/move\n  full recompute:             {recompute_ns:7.1} ns/move  ({:.0}× the XOR terms)",
            plies * rounds,
            recompute_ns / xor_ns.max(1e-9)
        );
    }
    Ok(())
}
