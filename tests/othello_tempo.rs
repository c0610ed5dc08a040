//! The Othello pattern evaluation values having the move evenly: a search's score must not swing
//! with the parity of its depth (what the score panel showed before the trainer labelled with
//! two searches one ply apart and fitted a side-to-move correction per band), and
//! `selfplay --b-weights` really plays engine B with the other weights.

mod common;

use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use xorboard::game::othello::{Othello, START_BLACK, START_WHITE, flips, moves};
use xorboard::game::play_line;
use xorboard::search::othello::eval::{Indices, SCALE, Weights};
use xorboard::search::othello::pattern_search;
use xorboard::search::{Limits, Searcher};
use xorboard::tt::{Policy, Table};
use xorboard::zobrist::Keys;

fn weights() -> &'static Weights {
    Weights::builtin().expect("the shipped weight file loads")
}

/// Positions from seeded playouts after XOT openings: a one-ply policy with the shipped
/// weights, a random choice among the best three moves.
fn playout_positions(games: usize) -> Vec<(u64, u64)> {
    let xot = xorboard::book::xot_openings();
    let mut rng = 0x7E3D_05A1_u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let play = |p: u64, o: u64, x: usize| {
        let f = flips(x, p, o);
        (o ^ f, p | f | (1 << x))
    };
    let mut out = Vec::new();
    for g in 0..games {
        let (mut p, mut o) = (START_BLACK, START_WHITE);
        for sq in xot[(g * 131) % xot.len()].as_bytes().chunks(2) {
            let x = (sq[1] - b'1') as usize * 8 + (sq[0] - b'a') as usize;
            (p, o) = play(p, o, x);
        }
        loop {
            let m = moves(p, o);
            if m == 0 {
                if moves(o, p) == 0 {
                    break;
                }
                (p, o) = (o, p);
                continue;
            }
            out.push((p, o));
            let mut scored: Vec<(i32, usize)> = (0..64)
                .filter(|&x| m & (1 << x) != 0)
                .map(|x| {
                    let (cp, co) = play(p, o, x);
                    (-weights().eval(cp, co), x)
                })
                .collect();
            scored.sort_by_key(|s| std::cmp::Reverse(s.0));
            let k = scored.len().min(3) as u64;
            let x = scored[(next() % k) as usize].1;
            (p, o) = play(p, o, x);
        }
    }
    out
}

/// `v2 - (v1 + v3) / 2` in discs for 1-, 2-, 3-ply searches: about twice the evaluation's
/// overvaluation of the side to move.
fn parity_gap(p: u64, o: u64) -> f64 {
    let v = |d: u32| {
        let mut ind = Indices::new(p, o);
        pattern_search(weights(), &mut ind, 0, p, o, d, -i32::MAX, i32::MAX, 2) as f64
            / SCALE as f64
    };
    v(2) - (v(1) + v(3)) / 2.0
}

#[test]
fn midgame_bands_have_no_parity_gap() {
    let positions = playout_positions(120);
    // (from, to) empties: the search-labelled midgame bands, in three groups
    for (lo, hi) in [(27, 34), (35, 42), (43, 54)] {
        let gaps: Vec<f64> = positions
            .iter()
            .filter(|&&(p, o)| (lo..=hi).contains(&(p | o).count_zeros()))
            .map(|&(p, o)| parity_gap(p, o))
            .collect();
        assert!(gaps.len() > 300, "{lo}..={hi}: {} positions", gaps.len());
        let mean = gaps.iter().sum::<f64>() / gaps.len() as f64;
        // the weights labelled by one 4-ply search had +2.3 to +12.7 discs here
        assert!(
            mean.abs() < 1.0,
            "{lo}..={hi} empties: parity gap {mean:+.2} discs over {} positions",
            gaps.len()
        );
    }
}

#[test]
fn engine_score_does_not_swing_with_depth_parity() {
    let lines = ["", "f5d6", "f5d6c4d3c2b3b4b5", "f5f6d3c5c6e3c4b4"];
    let (mut signed, mut n) = (0.0, 0);
    for line in lines {
        let mut g = Othello::new(Keys::default_keys());
        let moves = xorboard::game::notation::split_othello_transcript(line).expect("line");
        play_line(&mut g, &moves).expect("legal line");
        let mut searcher: Searcher<Othello> =
            Searcher::new(Arc::new(Table::new(16, Policy::TwoTier, 64)));
        let mut scores = [None; 9];
        searcher.search(&g, &Limits::depth(8), &AtomicBool::new(false), &mut |s| {
            if let Some(slot) = scores.get_mut(s.depth as usize) {
                *slot = Some(s.raw_score as f64 / 100.0);
            }
        });
        for d in 5..=8 {
            let (Some(a), Some(b)) = (scores[d - 1], scores[d]) else {
                panic!("{line:?}: depth {d} not reported: {scores:?}");
            };
            signed += if d % 2 == 0 { b - a } else { a - b };
            n += 1;
        }
    }
    let mean = signed / n as f64;
    // the weights labelled by one 4-ply search: even depths about 13 discs above odd ones
    assert!(
        mean.abs() < 3.0,
        "even-depth scores exceed odd-depth ones by {mean:+.2} discs on average"
    );
}

fn xorboard(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_xorboard"))
        .args(args)
        .output()
        .expect("run xorboard")
}

fn summary(o: &std::process::Output) -> serde_json::Value {
    let out = String::from_utf8_lossy(&o.stdout);
    serde_json::from_str(out.lines().last().expect("a summary line")).expect("JSON")
}

#[test]
fn selfplay_b_weights_plays_engine_b_with_the_file() {
    let dir = common::scratch_dir("tempo");
    let w = weights();
    // the same weights: the engines are the same, each opening is played twice with colours
    // swapped, so the margins cancel
    let same = dir.join("same.bin");
    std::fs::write(&same, w.to_bytes()).expect("write");
    let args = [
        "selfplay",
        "--games",
        "2",
        "--depth",
        "3",
        "--json",
        "--b-weights",
    ];
    let o = xorboard(&[&args[..], &[same.to_str().expect("path")]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = summary(&o);
    assert_eq!(s["a_disc_margin"], 0, "{s}");
    // every weight negated: B wants to lose
    let negated = dir.join("negated.bin");
    std::fs::write(&negated, common::weights::negated(w).to_bytes()).expect("write");
    let o = xorboard(&[&args[..], &[negated.to_str().expect("path")]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = summary(&o);
    assert_eq!(s["a"]["wins"], 2, "{s}");
    assert!(s["a_disc_margin"].as_i64().expect("margin") > 20, "{s}");
    // not a weight file, a missing file, the wrong game: one-line errors, exit status 2
    for extra in [
        vec!["--b-weights", "Cargo.toml"],
        vec!["--b-weights", "/no/such/file.bin"],
        vec![
            "--game",
            "gomoku",
            "--b-weights",
            same.to_str().expect("path"),
        ],
    ] {
        let o = xorboard(&[&["selfplay", "--games", "2", "--depth", "2"][..], &extra].concat());
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr).trim().lines().count(), 1);
    }
    std::fs::remove_dir_all(&dir).ok();
}
