//! Self-play at equal time between two settings of the threat search's engine seams (see
//! `xorboard::search::threats::hooks` and `xorboard::search::ThreatParts`), both engines otherwise equal (including the root
//! `forced_win`). `xorboard selfplay --b-baseline` compares against the plain alpha-beta engine;
//! this harness isolates the seams, which `selfplay` cannot switch per engine. Ignored by default:
//!
//! `XB_MS=150 XB_ROUNDS=4 cargo test --release --test threats_selfplay -- --ignored --nocapture`
//!
//! Engine A has the default seams (root analysis and forced defences); engine B has none, or
//! with `XB_B=defence` / `XB_B=root` only that one. Each Gomocup opening of
//! `assets/openings-freestyle15.txt` is played twice per round, colours swapped.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use xorboard::game::gomoku::Gomoku;
use xorboard::game::notation::parse_piskvork;
use xorboard::game::{Game, Outcome, Side};
use xorboard::search::{Limits, Searcher, ThreatParts};
use xorboard::tt::{Policy, Table};

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
#[ignore]
fn seams_against_no_seams_at_equal_time() {
    let ms: u64 = env("XB_MS", 150);
    let rounds: usize = env("XB_ROUNDS", 1);
    // (root analysis, leaf VCF, forced defences)
    let a_parts = (true, false, true);
    let b_parts = match std::env::var("XB_B").as_deref() {
        Ok("defence") => (false, false, true),
        Ok("root") => (true, false, false),
        _ => (false, false, false),
    };
    let text = std::fs::read_to_string("assets/openings-freestyle15.txt").expect("openings");
    let openings: Vec<Vec<_>> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            l.split_whitespace()
                .map(|p| parse_piskvork(15, p).expect("x,y"))
                .collect()
        })
        .collect();
    let (mut a_wins, mut b_wins, mut draws) = (0, 0, 0);
    for _ in 0..rounds {
        for opening in &openings {
            for a_black in [true, false] {
                let mut g = Gomoku::default();
                for &m in opening {
                    g.play(m);
                }
                let mut engines: [Searcher<Gomoku>; 2] = [
                    Searcher::new(Arc::new(Table::new(16, Policy::TwoTier, 64))),
                    Searcher::new(Arc::new(Table::new(16, Policy::TwoTier, 64))),
                ];
                while g.outcome().is_none() {
                    let a = (g.side_to_move() == Side::Black) == a_black;
                    let (root, leaf, defence) = if a { a_parts } else { b_parts };
                    let engine = &mut engines[usize::from(!a)];
                    engine.set_threat_parts(ThreatParts {
                        root,
                        leaf,
                        defence,
                        ..ThreatParts::default()
                    });
                    let r = engine.search(
                        &g,
                        &Limits::time(Duration::from_millis(ms)),
                        &AtomicBool::new(false),
                        &mut |_| {},
                    );
                    let Some(m) = r.best else { break };
                    assert!(g.is_legal(m));
                    g.play(m);
                }
                match g.outcome() {
                    Some(Outcome::Win(w)) if (w == Side::Black) == a_black => a_wins += 1,
                    Some(Outcome::Win(_)) => b_wins += 1,
                    _ => draws += 1,
                }
            }
        }
    }
    eprintln!(
        "{ms} ms/move: A (root analysis + forced defences) {a_wins}, B {b_parts:?} {b_wins}, draws {draws}"
    );
}
