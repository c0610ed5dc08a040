//! Fit the linear Othello evaluation (`search::othello::WEIGHTS`, the fallback when the pattern
//! weights do not load), and measure the cost of one evaluation of each kind.
//!
//! ```sh
//! cargo run --release --bin fit-linear-eval -- --games 1500   # fit; prints the table
//! cargo run --release --bin fit-linear-eval -- --speed        # ns per evaluation
//! ```
//!
//! Fitting plays games from XOT openings with the engine (depth 4; a quarter of the moves random
//! until 44 empties, for variety), solves each game exactly from 18 empties with the endgame
//! solver, labels every position with that exact final result (side-to-move view) and fits the
//! feature weights of each bucket of empties by ridge least squares. It prints the fitted table
//! (the source of `search::othello::WEIGHTS`) and the error of the old and new weights on the
//! same data. The pattern evaluation the engine uses is fitted by `train-endgame-eval`.
//!
//! `--speed` times, over positions of random games, the linear evaluation, the pattern
//! evaluation read square by square over every instance (how it was first written), built from
//! the set bits, and kept move by move (one move played and taken back per evaluation, as in a
//! search).

// Matrix code reads best with indices.
#![allow(clippy::needless_range_loop)]

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use xorboard::game::Game;
use xorboard::game::othello::{Othello, moves};
use xorboard::search::endgame::{SolveLimits, Solver};
use xorboard::search::othello::{BUCKETS, FEATURES, WEIGHTS, bucket, features};
use xorboard::search::{Limits, Searcher};
use xorboard::tt::{Policy, Table};

struct Sample {
    f: [i32; FEATURES],
    bucket: usize,
    label: f64,
}

/// Fit the linear evaluation, or time the evaluations.
#[derive(clap::Parser)]
#[command(about)]
struct Args {
    /// Games to play for the fit.
    #[arg(long, default_value_t = 1500)]
    games: usize,
    /// Time the evaluations instead of fitting.
    #[arg(long)]
    speed: bool,
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    if args.speed {
        eval_speed();
    } else {
        fit_othello_weights(args.games);
    }
}

fn fit_othello_weights(games: usize) {
    let openings = xorboard::book::xot_openings();
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(64);
    let table = Arc::new(Table::new(8, Policy::TwoTier, 64));
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut samples = Vec::new();
    let start = std::time::Instant::now();
    for gi in 0..games {
        let line = openings[(next() % openings.len() as u64) as usize];
        let mut g = Othello::default();
        let names = xorboard::game::notation::split_othello_transcript(line).expect("xot line");
        xorboard::game::play_line(&mut g, &names).expect("legal opening");
        let mut s: Searcher<Othello> = Searcher::new(table.clone());
        let mut recorded: Vec<([i32; FEATURES], usize, bool)> = Vec::new();
        let (label, side_at_label) = loop {
            let (p, o) = g.player_opponent();
            let black = g.side_to_move() == xorboard::game::Side::Black;
            if g.is_over() {
                break (g.final_disc_difference() as f64, black);
            }
            if g.empties() <= 18 {
                let sol = solver
                    .solve(p, o, &stop, &SolveLimits::default())
                    .expect("solve");
                // Positions along the perfect line carry the same exact result.
                let mut h = g.clone();
                for &mv in &sol.pv {
                    let (hp, ho) = h.player_opponent();
                    let (mp, mo) = (moves(hp, ho), moves(ho, hp));
                    if mp | mo != 0 && mp != 0 {
                        let hb = h.side_to_move() == xorboard::game::Side::Black;
                        recorded.push((features(hp, ho, mp, mo), bucket(h.empties()), hb));
                    }
                    h.play(mv);
                }
                break (sol.score as f64, black);
            }
            let (mp, mo) = (moves(p, o), moves(o, p));
            if mp != 0 {
                recorded.push((features(p, o, mp, mo), bucket(g.empties()), black));
            }
            let mut legal = Vec::new();
            g.legal_moves(&mut legal);
            let mv = if g.empties() > 44 && next() % 4 == 0 {
                legal[(next() % legal.len() as u64) as usize]
            } else {
                s.search(&g, &Limits::depth(4), &stop, &mut |_| {})
                    .best
                    .expect("a move")
            };
            g.play(mv);
        };
        for (f, b, black) in recorded {
            let y = if black == side_at_label {
                label
            } else {
                -label
            };
            samples.push(Sample {
                f,
                bucket: b,
                label: y * 100.0,
            });
        }
        if gi % 100 == 99 {
            eprintln!(
                "{} games, {} samples, {:.0?}",
                gi + 1,
                samples.len(),
                start.elapsed()
            );
        }
    }
    // Ridge least squares per bucket; sparse buckets borrow from their neighbours.
    let mut fitted = [[0i32; FEATURES]; BUCKETS];
    for (b, out) in fitted.iter_mut().enumerate() {
        let mut xtx = [[0f64; FEATURES]; FEATURES];
        let mut xty = [0f64; FEATURES];
        let mut n = 0;
        for smp in samples.iter().filter(|s| s.bucket.abs_diff(b) <= 1) {
            let wgt = if smp.bucket == b { 1.0 } else { 0.25 };
            for i in 0..FEATURES {
                xty[i] += wgt * smp.f[i] as f64 * smp.label;
                for j in 0..FEATURES {
                    xtx[i][j] += wgt * (smp.f[i] * smp.f[j]) as f64;
                }
            }
            n += 1;
        }
        if n < 200 {
            *out = WEIGHTS[b];
            continue;
        }
        for (i, row) in xtx.iter_mut().enumerate() {
            row[i] += 50.0;
        }
        let w = solve(xtx, xty);
        for i in 0..FEATURES {
            out[i] = w[i].round() as i32;
        }
    }
    let rmse = |w: &[[i32; FEATURES]; BUCKETS], b: usize| {
        let (mut e, mut n) = (0.0, 0);
        for s in samples.iter().filter(|s| s.bucket == b) {
            let pred: f64 = (0..FEATURES).map(|i| (w[b][i] * s.f[i]) as f64).sum();
            let pred = pred.clamp(-6300.0, 6300.0);
            e += (pred - s.label).powi(2);
            n += 1;
        }
        ((e / n.max(1) as f64).sqrt() / 100.0, n)
    };
    println!("bucket  samples  rmse-old  rmse-new (discs)");
    for b in 0..BUCKETS {
        let (old, n) = rmse(&WEIGHTS, b);
        let (new, _) = rmse(&fitted, b);
        println!("{b:>6} {n:>8} {old:>9.2} {new:>9.2}");
    }
    println!("pub static WEIGHTS: [[i32; FEATURES]; BUCKETS] = [");
    for w in &fitted {
        println!("    {w:?},");
    }
    println!("];");
}

/// Gaussian elimination with partial pivoting.
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    for c in 0..FEATURES {
        let p = (c..FEATURES)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .expect("rows");
        a.swap(c, p);
        b.swap(c, p);
        for r in 0..FEATURES {
            if r != c && a[c][c] != 0.0 {
                let k = a[r][c] / a[c][c];
                for j in c..FEATURES {
                    a[r][j] -= k * a[c][j];
                }
                b[r] -= k * b[c];
            }
        }
    }
    std::array::from_fn(|i| if a[i][i] == 0.0 { 0.0 } else { b[i] / a[i][i] })
}

/// Nanoseconds per evaluation over positions of random games, for each way of evaluating.
fn eval_speed() {
    use std::hint::black_box;
    use std::time::Instant;
    use xorboard::game::othello::{START_BLACK, START_WHITE, flips};
    use xorboard::search::othello::eval::{Indices, N_FEATURES, Weights, indices};
    use xorboard::search::othello::evaluate;

    let w = Weights::builtin().expect("weights");
    // positions (black, white, side) and a legal move of each
    let mut pos = Vec::new();
    let mut rng = 0x0123_4567_89AB_CDEFu64;
    while pos.len() < 20_000 {
        let (mut b, mut wh, mut side) = (START_BLACK, START_WHITE, 0usize);
        loop {
            let (p, o) = if side == 0 { (b, wh) } else { (wh, b) };
            let m = moves(p, o);
            if m == 0 {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mut mm = m;
            for _ in 0..rng % m.count_ones() as u64 {
                mm &= mm - 1;
            }
            let sq = mm.trailing_zeros() as usize;
            pos.push((b, wh, side, sq));
            let f = flips(sq, p, o);
            let (np, no) = (p | f | (1 << sq), o ^ f);
            (b, wh) = if side == 0 { (np, no) } else { (no, np) };
            side ^= 1;
        }
    }
    // the squares of every instance with their powers of 3, recovered from single discs
    let mut base = [0u32; N_FEATURES];
    indices(0, 0, &mut base);
    let mut inst: Vec<Vec<(u64, u32)>> = vec![Vec::new(); N_FEATURES];
    for q in 0..64 {
        let mut one = [0u32; N_FEATURES];
        indices(1 << q, 0, &mut one);
        for f in 0..N_FEATURES {
            if one[f] != base[f] {
                inst[f].push((1 << q, one[f] - base[f]));
            }
        }
    }
    let time = |name: &str, f: &mut dyn FnMut(u64, u64, usize, usize) -> i32| {
        // blocks of 250 positions, each timed five times and counted at its fastest: the
        // machine is shared, and a block is short enough to often run without a preemption
        let mut sum = 0i64;
        let mut total = 0f64;
        for block in pos.chunks(250) {
            let mut best = f64::MAX;
            for _ in 0..5 {
                let start = Instant::now();
                for &(b, wh, side, sq) in block {
                    sum += f(b, wh, side, sq) as i64;
                }
                best = best.min(start.elapsed().as_nanos() as f64);
            }
            total += best;
        }
        let ns = total / pos.len() as f64;
        println!("{name:<40} {ns:>7.1} ns/eval   (checksum {sum})");
    };
    let po = |b: u64, wh: u64, side: usize| if side == 0 { (b, wh) } else { (wh, b) };
    time("linear (baseline)", &mut |b, wh, s, _| {
        let (p, o) = po(b, wh, s);
        evaluate(black_box(p), black_box(o))
    });
    time("patterns, square by square", &mut |b, wh, s, _| {
        let (p, o) = po(b, wh, s);
        let (p, o) = (black_box(p), black_box(o));
        let mut idx = [0u32; N_FEATURES];
        for (f, sq) in inst.iter().enumerate() {
            let mut i = base[f];
            for &(bit, pw) in sq {
                i += pw * ((p & bit != 0) as u32 + 2 * (o & bit != 0) as u32);
            }
            idx[f] = i;
        }
        black_box(&idx);
        // the weight lookups are the same in every variant: time them once, below
        idx[0] as i32
    });
    time("patterns, indices from set bits", &mut |b, wh, s, _| {
        let (p, o) = po(b, wh, s);
        let mut idx = [0u32; N_FEATURES];
        indices(black_box(p), black_box(o), &mut idx);
        black_box(&idx);
        idx[0] as i32
    });
    time("patterns, full eval from scratch", &mut |b, wh, s, _| {
        let (p, o) = po(b, wh, s);
        w.eval(black_box(p), black_box(o))
    });
    // kept indices follow the games: new ones only when a game starts; per evaluation one move
    // is played, evaluated and taken back, then played again to reach the next position
    let mut kept: Option<(u64, u64, Indices)> = None;
    time("patterns, kept: play + eval + undo", &mut |b, wh, s, sq| {
        if kept.as_ref().is_none_or(|k| (k.0, k.1) != (b, wh)) {
            kept = Some((b, wh, Indices::new(b, wh)));
        }
        let Some((kb, kw, ind)) = kept.as_mut() else {
            return 0;
        };
        let (p, o) = po(b, wh, s);
        let f = flips(sq, p, o);
        let (np, no) = (p | f | (1 << sq), o ^ f);
        ind.play(s, sq, f);
        let mob = (
            moves(no, np).count_ones() as i32,
            moves(np, no).count_ones() as i32,
        );
        let e = w.eval_indices(ind, s ^ 1, (np | no).count_zeros(), mob);
        ind.undo(s, sq, f);
        ind.play(s, sq, f);
        (*kb, *kw) = if s == 0 { (np, no) } else { (no, np) };
        e
    });
}
