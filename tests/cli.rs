//! The command line as a user meets it: outputs, JSON shapes, one-line errors with exit status 2.

use std::process::{Command, Output};

fn xorboard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xorboard"))
        .args(args)
        .output()
        .expect("run xorboard")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn lesson_json_has_the_articles_hashes() {
    let o = xorboard(&["lesson", "seed-2x2", "--json"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("0x2FB256EE"));
    assert!(out.contains("0x23BB713E"));
    for line in out.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("every line is JSON");
    }
}

#[test]
fn hash_json_ends_with_equal_hash_and_recompute() {
    let o = xorboard(&[
        "hash",
        "--game",
        "othello",
        "--moves",
        "f5d6c3d3c4",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let last: serde_json::Value = serde_json::from_str(stdout(&o).lines().last().unwrap()).unwrap();
    assert_eq!(last["hash"], last["recomputed"]);
    assert!(last["hash"].as_str().unwrap().starts_with("0x"));
    let other = xorboard(&["hash", "--moves", "f5d6c4d3c3", "--json"]);
    let last2: serde_json::Value =
        serde_json::from_str(stdout(&other).lines().last().unwrap()).unwrap();
    assert_eq!(last["hash"], last2["hash"], "transposition");
}

#[test]
fn perft_json_fields() {
    let o = xorboard(&["perft", "--game", "othello", "--depth", "6", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["leaves"], 8200);
    for k in ["game", "depth", "leaves", "seconds", "nps"] {
        assert!(v.get(k).is_some(), "missing {k}");
    }
    let o = xorboard(&["perft", "--depth", "7", "--hash", "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["leaves"], 55092);
    assert!(v["transpositions"].as_u64().unwrap() > 0);
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    for args in [
        vec!["hash", "--moves", "f5f5"],
        vec!["hash", "--moves", "f5zz"],
        vec!["hash", "--game", "gomoku", "--moves", "h8,h8"],
        vec!["hash", "--game", "gomoku", "--size", "40"],
        vec!["perft", "--depth", "99"],
    ] {
        let o = xorboard(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
    let o = xorboard(&["hash", "--moves", "f5f5"]);
    assert_eq!(
        stderr(&o).trim(),
        "error: move 2 'f5': square already occupied"
    );
    // an unknown game is rejected by the argument parser, also with status 2
    let o = xorboard(&["perft", "--game", "chess", "--depth", "1"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn selfplay_with_8_check_bits_has_false_matches_but_no_illegal_moves() {
    // Depth 6 fills the 1 MiB table: about 50 false matches in some 51,000 probes (depth 5 gave
    // 0 to 2, whichever evaluation was built in).
    let o = xorboard(&[
        "selfplay",
        "--games",
        "2",
        "--depth",
        "6",
        "--check-bits",
        "8",
        "--tt-mib",
        "1",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 3, "two games and a summary");
    let last = lines.last().unwrap();
    assert_eq!(last["games"], 2);
    assert_eq!(last["illegal"], 0);
    assert!(last["false_matches"].as_u64().unwrap() > 0, "{last}");
    assert!(last["hit_rate"].as_f64().unwrap() > 0.0);
    let wins = last["a"]["wins"].as_u64().unwrap()
        + last["b"]["wins"].as_u64().unwrap()
        + last["draws"].as_u64().unwrap();
    assert_eq!(wins, 2);
}

#[test]
fn selfplay_gomoku_small_board() {
    let o = xorboard(&[
        "selfplay", "--game", "gomoku", "--size", "9", "--games", "2", "--depth", "2", "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let last: serde_json::Value = serde_json::from_str(stdout(&o).lines().last().unwrap()).unwrap();
    assert_eq!(last["games"], 2);
    assert_eq!(last["illegal"], 0);
    let o = xorboard(&["selfplay", "--games", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let o = xorboard(&["selfplay", "--check-bits", "4"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn compare_json_has_a_row_per_strategy_and_a_summary() {
    let o = xorboard(&[
        "compare", "--game", "othello", "--moves", "f5d6", "--depth", "6", "--tt-kib", "4",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect();
    assert_eq!(rows.len(), 7, "five strategies, no TT, the summary");
    let names: Vec<&str> = rows[..6]
        .iter()
        .map(|r| r["strategy"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["always", "depth", "two-tier", "big", "aging", "no TT"]
    );
    assert_eq!(rows[0]["slots"], 256);
    for key in ["new_slot", "same_position", "replaced", "kept_old"] {
        assert!(rows[0]["stores"][key].is_u64(), "{key}");
    }
    assert_eq!(rows.iter().filter(|r| r["winner"] == true).count(), 1);
    let summary = &rows[6];
    assert!(summary["worst_vs_best"].as_f64().unwrap() >= 1.0);
    assert!(summary["reading"].as_str().unwrap().contains("pressure"));
    // The text form prints the same rows.
    let o = xorboard(&[
        "compare", "--moves", "f5d6", "--depth", "6", "--tt-kib", "4",
    ]);
    let text = stdout(&o);
    assert!(text.contains("★"), "{text}");
    assert!(text.contains("256 slots"), "{text}");
    for bad in [
        vec!["compare", "--depth", "15"],
        vec!["compare", "--tt-kib", "0"],
        vec!["compare", "--moves", "z9"],
    ] {
        let o = xorboard(&bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert_eq!(stderr(&o).lines().count(), 1, "{bad:?}: {}", stderr(&o));
    }
}
