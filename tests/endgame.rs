//! The exact endgame solver against the FForum suites (`tests/data/ffo*.txt`): exact scores and a
//! best move among the listed ones for #1–#19 (14–16 empties) and the quick ones of #20–#39;
//! passes and finished games; window searches; the `solve` command's output and its errors.
//! FFO #40–#49 (20–26 empties) are `#[ignore]`d: run them with `xorboard solve --suite ffo40-49`
//! or `cargo test --release --test endgame -- --ignored`.

use std::process::Command;
use std::sync::atomic::AtomicBool;

use xorboard::commands::solve::{SuiteEntry, parse_suite};
use xorboard::game::notation::parse_obf;
use xorboard::game::{Game, Move};
use xorboard::search::endgame::{Bound, SolveLimits, Solver};
use xorboard::zobrist::Keys;

fn suite(file: &str, ids: &[u32]) -> Vec<SuiteEntry> {
    let text = std::fs::read_to_string(format!("tests/data/{file}")).expect("suite file");
    let all = parse_suite(&text).expect("suite parses");
    all.into_iter()
        .filter(|e| e.id.parse::<u32>().is_ok_and(|n| ids.contains(&n)))
        .collect()
}

fn check(entries: &[SuiteEntry]) {
    assert!(!entries.is_empty());
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(16);
    for e in entries {
        let (p, o) = e.game.player_opponent();
        solver.clear();
        let s = solver
            .solve(p, o, &stop, &SolveLimits::default())
            .expect("no limits");
        assert_eq!(s.score, e.score, "FFO #{} score", e.id);
        assert!(
            e.best.contains(&s.best),
            "FFO #{}: {:?} is not among the best moves {:?}",
            e.id,
            s.best,
            e.best
        );
        // the principal variation is a legal line that ends the game with that score
        let mut g = e.game.clone();
        let side = g.side_to_move();
        for &mv in &s.pv {
            g.try_play(mv).expect("pv move is legal");
        }
        assert!(g.outcome().is_some(), "FFO #{}: pv ends the game", e.id);
        let final_for_side = if g.side_to_move() == side {
            g.final_score()
        } else {
            -g.final_score()
        };
        assert_eq!(
            final_for_side, e.score,
            "FFO #{}: pv replays to the score",
            e.id
        );
    }
}

#[test]
fn ffo_1_to_19_exact() {
    check(&suite("ffo1-39.txt", &(1..=19).collect::<Vec<_>>()));
}

#[test]
fn ffo_quick_ones_of_20_to_39() {
    check(&suite("ffo1-39.txt", &[20, 21, 22, 23, 27, 29]));
}

#[test]
#[ignore = "slow: 20–26 empties; run in release with --ignored"]
fn ffo_40_to_49_exact() {
    check(&suite("ffo40-49.txt", &(40..=49).collect::<Vec<_>>()));
}

fn position(obf: &str) -> (u64, u64, xorboard::game::othello::Othello) {
    let g = parse_obf(obf, Keys::default_keys()).expect("valid OBF");
    let (p, o) = g.player_opponent();
    (p, o, g)
}

#[test]
fn a_side_without_moves_passes() {
    // White (O) to move has no move; black can still play a8 (flipping a7 from a6).
    let board = format!("{}{}{}", "X".repeat(40), "XXXXXXXX", "OXXXXXXX-XXXXXXX");
    let (p, o, g) = position(&format!("{board} O"));
    assert_eq!(g.move_mask(), 0);
    let stop = AtomicBool::new(false);
    let s = Solver::new(1)
        .solve(p, o, &stop, &SolveLimits::default())
        .expect("no limits");
    assert_eq!(s.best, Move::PASS);
    assert_eq!(s.pv.first(), Some(&Move::PASS));
    // black plays a8 and takes a7 back: 64 black discs
    assert_eq!(s.score, -64);
}

#[test]
fn a_finished_game_returns_its_final_score() {
    // white has no disc left: nobody can move; black's 60 discs and the 4 empties make 64
    let (p, o, g) = position(&format!("{}---- O", "X".repeat(60)));
    assert!(g.is_over());
    let stop = AtomicBool::new(false);
    let s = Solver::new(1)
        .solve(p, o, &stop, &SolveLimits::default())
        .expect("no limits");
    assert_eq!(s.best, Move::NONE);
    assert!(s.pv.is_empty());
    assert_eq!(s.score, g.final_disc_difference());
    assert_eq!(s.score, -64);
    // a full board: the disc difference itself
    let board = format!("{}{}", "X".repeat(34), "O".repeat(30));
    let (p, o, _) = position(&format!("{board} X"));
    let s = Solver::new(1)
        .solve(p, o, &stop, &SolveLimits::default())
        .expect("no limits");
    assert_eq!((s.score, s.best), (4, Move::NONE));
}

#[test]
fn window_search_decides_win_loss_draw() {
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(4);
    for e in suite("ffo1-39.txt", &[1, 4, 9]) {
        let (p, o) = e.game.player_opponent();
        let w = solver
            .solve_window(p, o, -1, 1, &stop, &SolveLimits::default())
            .expect("no limits");
        match e.score.signum() {
            1 => assert!(w.bound == Bound::Lower && w.score >= 1 && w.score <= e.score),
            -1 => assert!(w.bound == Bound::Upper && w.score <= -1 && w.score >= e.score),
            _ => assert_eq!((w.bound, w.score), (Bound::Exact, 0)),
        }
    }
}

#[test]
fn selective_window_search_is_close_and_never_taints_exact_results() {
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(4);
    // FFO #40, #43, #44: 20, 23 and 23 empties.
    for e in suite("ffo40-49.txt", &[40, 43, 44]) {
        let (p, o) = e.game.player_opponent();
        for pass in 0..3 {
            let s = solver
                .solve_window_selective(p, o, -64, 64, pass, &stop, &SolveLimits::default())
                .expect("no limits");
            assert_eq!(s.bound, Bound::Exact, "a full window gives a score");
            assert!(
                (s.score - e.score).abs() <= 16,
                "FFO #{} pass {pass}: probable {} against exact {}",
                e.id,
                s.score,
                e.score
            );
            assert!(s.best.cell().is_some(), "FFO #{} pass {pass}: a move", e.id);
        }
        // The selective bounds stay at their own levels: the exact search on the same table
        // still finds the exact score, also in a window just above it.
        let exact = solver
            .solve(p, o, &stop, &SolveLimits::default())
            .expect("no limits");
        assert_eq!(exact.score, e.score, "FFO #{}", e.id);
        let above = solver
            .solve_window(p, o, e.score, e.score + 2, &stop, &SolveLimits::default())
            .expect("no limits");
        assert_eq!(above.bound, Bound::Upper);
        assert_eq!(above.score, e.score);
    }
}

fn xorboard(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_xorboard"))
        .args(args)
        .output()
        .expect("binary runs")
}

#[test]
fn solve_command_prints_json() {
    let obf = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let out = xorboard(&["solve", "--position", obf, "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["score"], 18);
    assert_eq!(v["best"], "g8");
    assert!(v["nodes"].as_u64().is_some_and(|n| n > 0));
    assert!(v["seconds"].as_f64().is_some());
}

#[test]
fn solve_command_from_a_transcript_and_a_finished_game() {
    // the shortest game: black wipes white out after nine moves
    let out = xorboard(&["solve", "--moves", "d3c3b3d2e1d6d7e3f4", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(v["best"].is_null());
    assert_eq!(v["score"], -64);
}

#[test]
fn solve_command_rejects_bad_input_with_one_line() {
    for args in [
        vec!["solve", "--position", "XXXX X"],
        vec!["solve", "--position", &"?".repeat(64)],
        vec!["solve", "--moves", "f5f5"],
        vec!["solve"],
        vec!["solve", "--suite", "no-such-suite"],
        vec![
            "solve",
            "--position",
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
            "--threads",
            "0",
        ],
    ] {
        let out = xorboard(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn solve_command_runs_a_built_in_suite() {
    let out = xorboard(&["solve", "--suite", "ffo1-39", "--ids", "1-3", "--json"]);
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[..3].iter().all(|l| l["ok"] == true));
    assert_eq!(lines[3]["correct"], 3);
}
