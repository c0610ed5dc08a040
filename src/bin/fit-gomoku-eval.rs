//! Fit the Gomoku evaluation weights (`assets/gomoku-eval.txt`; the features are described in
//! `search::gomoku::eval`).
//!
//! ```sh
//! cargo run --release --bin fit-gomoku-eval -- --games 800 --nodes 4000 --jobs 2 --write
//! ```
//!
//! Plays freestyle 15×15 games with the engine as built (a node budget per move and one thread
//! per game with its own table, so a run is reproducible whatever `--jobs` is). Game `i` starts
//! from a random opening drawn from seed `i`: two to six stones within three cells of the centre,
//! colours alternating, black first. Every position the evaluation scores with its features
//! (`GomokuBoard::eval_features`: undecided, no five point on the board) is recorded with the
//! game's result from its side to move's view (1 win, ½ draw, 0 loss).
//!
//! The weights are the logistic regression of those results on the features (Newton's method
//! on features scaled to unit spread, a light ridge), fitted on the games whose index is not a
//! multiple of ten; the others are held out. It prints the held-out log-loss and accuracy of the
//! built-in weights (at their best single scale, since they need not be calibrated) and of the
//! fitted ones, and the fitted table; `--write` replaces `assets/gomoku-eval.txt` (build again
//! to use it). The weights are in evaluation units, `eval::SCALE` per logit.

// Matrix code reads best with indices.
#![allow(clippy::needless_range_loop)]

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use xorboard::game::gomoku::Gomoku;
use xorboard::game::{Game, Move, Outcome, Side};
use xorboard::search::gomoku::eval::{self, FEATURES};
use xorboard::search::{Limits, Searchable, Searcher};
use xorboard::tt::{Policy, Table};

/// Fit the Gomoku evaluation from self-play.
#[derive(clap::Parser)]
#[command(about)]
struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 800)]
    games: usize,
    /// Search nodes per move.
    #[arg(long, default_value_t = 4000)]
    nodes: u64,
    /// Games played at once (the result does not depend on it).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Ridge strength (per sample, on the scaled features).
    #[arg(long, default_value_t = 1e-4)]
    ridge: f64,
    /// Write the fitted weights to assets/gomoku-eval.txt.
    #[arg(long)]
    write: bool,
}

/// One recorded position: its features and the result for its side to move.
struct Sample {
    f: [i32; FEATURES],
    result: f64,
    held_out: bool,
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    let start = std::time::Instant::now();
    let samples = play_games(&args);
    eprintln!(
        "{} games, {} positions, {:.0?}",
        args.games,
        samples.len(),
        start.elapsed()
    );
    let train: Vec<&Sample> = samples.iter().filter(|s| !s.held_out).collect();
    let test: Vec<&Sample> = samples.iter().filter(|s| s.held_out).collect();
    let w = fit(&train, args.ridge);
    let fitted: [i32; FEATURES] = std::array::from_fn(|i| (w[i] * eval::SCALE).round() as i32);
    let built_in = eval::weights();
    let built_in_scale = best_scale(built_in, &train);
    let (old_loss, old_acc) = score(built_in, built_in_scale, &test);
    let (new_loss, new_acc) = score(&fitted, 1.0, &test);
    println!(
        "held out: {} positions; built-in weights (scale {built_in_scale:.2}): log-loss {old_loss:.4}, \
         accuracy {:.1}%; fitted: log-loss {new_loss:.4}, accuracy {:.1}%",
        test.len(),
        old_acc * 100.0,
        new_acc * 100.0
    );
    let text = weights_file(&fitted, &args, train.len(), (new_loss, new_acc));
    print!("{text}");
    if args.write {
        std::fs::write("assets/gomoku-eval.txt", text).expect("write assets/gomoku-eval.txt");
        eprintln!("wrote assets/gomoku-eval.txt");
    }
}

/// The games, `args.jobs` at a time; samples in game order.
fn play_games(args: &Args) -> Vec<Sample> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut per_game: Vec<(usize, Vec<Sample>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..args.jobs.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= args.games {
                            break out;
                        }
                        out.push((i, play_game(i, args.nodes)));
                        if i % 50 == 49 {
                            eprintln!("game {}", i + 1);
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("worker"))
            .collect()
    });
    per_game.sort_by_key(|(i, _)| *i);
    per_game.into_iter().flat_map(|(_, s)| s).collect()
}

/// A xorshift step.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Game `index`: its random opening, then the engine with `nodes` per move for both sides.
fn play_game(index: usize, nodes: u64) -> Vec<Sample> {
    let mut rng = 0x9E37_79B9_7F4A_7C15u64 ^ (index as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D);
    for _ in 0..4 {
        xorshift(&mut rng);
    }
    let mut g = Gomoku::default();
    let opening = 2 + (xorshift(&mut rng) % 5) as usize;
    while g.stones() < opening {
        let (x, y) = (
            4 + (xorshift(&mut rng) % 7) as usize,
            4 + (xorshift(&mut rng) % 7) as usize,
        );
        let c = g.index(x, y);
        if g.cells()[c] == xorboard::game::Cell::Empty {
            g.play(Move::at(c));
        }
    }
    let stop = AtomicBool::new(false);
    let table = Arc::new(Table::new(16, Policy::TwoTier, 64));
    let mut searcher: Searcher<Gomoku> = Searcher::new(table);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut recorded: Vec<([i32; FEATURES], Side)> = Vec::new();
    while g.outcome().is_none() {
        if let Some(f) = g.board().eval_features() {
            recorded.push((f, g.side_to_move()));
        }
        let best = searcher
            .search(&g, &limits, &stop, &mut |_| {})
            .best
            .expect("a move in an unfinished game");
        g.play(best);
    }
    let winner = match g.outcome() {
        Some(Outcome::Win(s)) => Some(s),
        _ => None,
    };
    recorded
        .into_iter()
        .map(|(f, side)| Sample {
            f,
            result: match winner {
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
            held_out: index.is_multiple_of(10),
        })
        .collect()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The logit of a sample under integer weights `w` (evaluation units) times `scale`.
fn logit(w: &[i32; FEATURES], scale: f64, s: &Sample) -> f64 {
    let v: f64 = (0..FEATURES).map(|i| (w[i] * s.f[i]) as f64).sum();
    // the engine clamps its heuristic scores
    v.clamp(-20_000.0, 20_000.0) * scale / eval::SCALE
}

/// Mean log-loss and the share of decided games whose winner the sign predicts.
fn score(w: &[i32; FEATURES], scale: f64, samples: &[&Sample]) -> (f64, f64) {
    let (mut loss, mut right, mut decided) = (0.0, 0usize, 0usize);
    for s in samples {
        let z = logit(w, scale, s);
        let p = sigmoid(z).clamp(1e-9, 1.0 - 1e-9);
        loss -= s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln();
        if s.result != 0.5 {
            decided += 1;
            right += usize::from((z > 0.0) == (s.result > 0.5));
        }
    }
    (
        loss / samples.len().max(1) as f64,
        right as f64 / decided.max(1) as f64,
    )
}

/// The single scale of `w` with the least log-loss on `samples` (a grid, 0.01 … 4).
fn best_scale(w: &[i32; FEATURES], samples: &[&Sample]) -> f64 {
    (1..=400)
        .map(|k| k as f64 / 100.0)
        .min_by(|&a, &b| score(w, a, samples).0.total_cmp(&score(w, b, samples).0))
        .unwrap_or(1.0)
}

/// Logistic regression of the results on the features, in logits per feature unit.
fn fit(samples: &[&Sample], ridge: f64) -> [f64; FEATURES] {
    let n = samples.len().max(1) as f64;
    // unit spread (root mean square) per feature; constant-zero features keep scale 1
    let spread: [f64; FEATURES] = std::array::from_fn(|i| {
        let ms = samples.iter().map(|s| (s.f[i] as f64).powi(2)).sum::<f64>() / n;
        if ms > 0.0 { ms.sqrt() } else { 1.0 }
    });
    let x = |s: &Sample, i: usize| s.f[i] as f64 / spread[i];
    let mut w = [0f64; FEATURES];
    for round in 0..30 {
        let mut grad = [0f64; FEATURES];
        let mut hess = [[0f64; FEATURES]; FEATURES];
        let mut loss = 0.0;
        for s in samples {
            let z: f64 = (0..FEATURES).map(|i| w[i] * x(s, i)).sum();
            let p = sigmoid(z);
            let pc = p.clamp(1e-12, 1.0 - 1e-12);
            loss -= s.result * pc.ln() + (1.0 - s.result) * (1.0 - pc).ln();
            let r = p - s.result;
            let h = (p * (1.0 - p)).max(1e-9);
            for i in 0..FEATURES {
                let xi = x(s, i);
                if xi == 0.0 {
                    continue;
                }
                grad[i] += r * xi;
                for j in 0..FEATURES {
                    hess[i][j] += h * xi * x(s, j);
                }
            }
        }
        for i in 0..FEATURES {
            grad[i] = grad[i] / n + ridge * w[i];
            for j in 0..FEATURES {
                hess[i][j] /= n;
            }
            hess[i][i] += ridge;
        }
        let step = solve(hess, grad);
        let size: f64 = step.iter().map(|d| d * d).sum::<f64>().sqrt();
        for i in 0..FEATURES {
            w[i] -= step[i];
        }
        eprintln!(
            "newton {round}: training log-loss {:.5}, step {size:.2e}",
            loss / n
        );
        if size < 1e-7 {
            break;
        }
    }
    std::array::from_fn(|i| w[i] / spread[i])
}

/// Gaussian elimination with partial pivoting.
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    for c in 0..FEATURES {
        let p = (c..FEATURES)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .expect("rows");
        a.swap(c, p);
        b.swap(c, p);
        let d = a[c][c];
        if d.abs() < 1e-15 {
            continue;
        }
        for r in 0..FEATURES {
            if r != c {
                let k = a[r][c] / d;
                if k != 0.0 {
                    for j in c..FEATURES {
                        a[r][j] -= k * a[c][j];
                    }
                    b[r] -= k * b[c];
                }
            }
        }
    }
    std::array::from_fn(|i| {
        if a[i][i].abs() < 1e-15 {
            0.0
        } else {
            b[i] / a[i][i]
        }
    })
}

/// The weights file: a header saying how it was made, then `name weight` lines.
fn weights_file(
    w: &[i32; FEATURES],
    args: &Args,
    positions: usize,
    (loss, accuracy): (f64, f64),
) -> String {
    let mut out = format!(
        "# Gomoku evaluation weights (see src/search/gomoku/eval.rs), evaluation units ({} = one logit).\n\
         # Fitted by: cargo run --release --bin fit-gomoku-eval -- --games {} --nodes {} --ridge {} --write\n\
         # {positions} training positions; held-out log-loss {loss:.4}, accuracy {:.1}%.\n",
        eval::SCALE,
        args.games,
        args.nodes,
        args.ridge,
        accuracy * 100.0
    );
    for (name, v) in eval::feature_names().iter().zip(w) {
        out.push_str(&format!("{name} {v}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logistic_fit_recovers_a_known_rule() {
        // result decided by the sign of 2·f[1] − f[2] (plus the tempo constant)
        let mut rng = 7u64;
        let samples: Vec<Sample> = (0..4000)
            .map(|_| {
                let mut f = [0; FEATURES];
                f[0] = 1;
                f[1] = (xorshift(&mut rng) % 7) as i32;
                f[2] = (xorshift(&mut rng) % 13) as i32;
                let z = 2.0 * f[1] as f64 - f[2] as f64;
                let p = sigmoid(z);
                let u = (xorshift(&mut rng) % 10_000) as f64 / 10_000.0;
                Sample {
                    f,
                    result: f64::from(u8::from(u < p)),
                    held_out: false,
                }
            })
            .collect();
        let refs: Vec<&Sample> = samples.iter().collect();
        let w = fit(&refs, 1e-6);
        assert!((w[1] - 2.0).abs() < 0.5, "{w:?}");
        assert!((w[2] + 1.0).abs() < 0.3, "{w:?}");
    }
}
