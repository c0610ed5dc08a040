//! `xorboard lesson seed-2x2`: the worked example of seed 000, step by step.

use clap::{Args, ValueEnum};
use serde_json::json;

use super::CommandResult;
use crate::lesson::{STATES, SeedExample, hex32};

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum LessonName {
    /// A 2×2 board with 32-bit keys: black on cell 1, then white on cell 4.
    #[value(name = "seed-2x2")]
    Seed2x2,
}

#[derive(Args, Debug, Clone)]
pub struct LessonArgs {
    /// Which lesson.
    #[arg(value_enum, default_value = "seed-2x2")]
    pub lesson: LessonName,
    /// One JSON object per step.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &LessonArgs) -> CommandResult {
    match args.lesson {
        LessonName::Seed2x2 => seed_2x2(args.json),
    }
    Ok(())
}

fn seed_2x2(json: bool) {
    let ex = SeedExample::new();
    let hash1_steps = ex.full_steps([1, 0, 0, 0]);
    let hash2_steps = ex.full_steps([1, 0, 0, 2]);
    let inc_steps = ex.incremental_steps();
    if json {
        for (cell, row) in ex.keys.iter().enumerate() {
            super::print_json(&json!({
                "kind": "key",
                "cell": cell + 1,
                "empty": hex32(row[0]),
                "black": hex32(row[1]),
                "white": hex32(row[2]),
            }));
        }
        for (label, steps) in [
            ("hash1 full", &hash1_steps),
            ("hash2 full", &hash2_steps),
            ("hash2 incremental", &inc_steps),
        ] {
            for s in steps {
                super::print_json(&json!({
                    "kind": "step", "computation": label, "what": s.what,
                    "key": s.key, "value": s.value,
                }));
            }
        }
        super::print_json(&json!({
            "kind": "result",
            "hash1": hex32(ex.hash1_full()),
            "hash2": hex32(ex.hash2_full()),
            "hash2_incremental": hex32(ex.hash2_incremental()),
            "equal": ex.hash2_full() == ex.hash2_incremental(),
        }));
        return;
    }
    println!("Lesson 1 — Zobrist hashing on a 2×2 board (seed 000)\n");
    println!("Every (cell, state) gets a random 32-bit key, the empty state included:\n");
    println!(
        "  cell  {:>10}  {:>10}  {:>10}",
        STATES[0], STATES[1], STATES[2]
    );
    for (cell, row) in ex.keys.iter().enumerate() {
        println!(
            "  {:>4}  {}  {}  {}",
            cell + 1,
            hex32(row[0]),
            hex32(row[1]),
            hex32(row[2])
        );
    }
    let show = |title: &str, steps: &[crate::lesson::Step]| {
        println!("\n{title}");
        for s in steps {
            match &s.key {
                Some(k) => println!("  ^ {k}   {:<22} = {}", s.what, s.value),
                None => println!("    {:<35} {}", s.what, s.value),
            }
        }
    };
    show(
        "Black on cell 1: hash1 = XOR of every cell's key",
        &hash1_steps,
    );
    show("White on cell 4, from scratch: hash2", &hash2_steps);
    show(
        "White on cell 4, incrementally: hash2 = hash1 ^ K[4][empty] ^ K[4][white]",
        &inc_steps,
    );
    println!(
        "\nBoth ways give {}: a move costs two XORs, whatever the size of the board.",
        hex32(ex.hash2_incremental())
    );
}
