//! Fit the endgame solver's pattern evaluation (`assets/endgame-eval.bin`) to exact scores.
//!
//! ```sh
//! cargo run --release --bin train-endgame-eval -- --games 3000 --out assets/endgame-eval.bin
//! ```
//!
//! 1. Games: each XOT opening (`assets/xot.txt`) is played on by a noisy one-ply policy (the
//!    engine's static evaluation, a random choice among the best three moves) down to
//!    `--solve-at` empties (default 18).
//! 2. Labels: that position is solved exactly; every position of the solver's perfect line gets
//!    its exact score (for the side to move). The positions the policy played through before
//!    (more empties) are kept unlabeled.
//! 3. Fit: least squares by stochastic gradient descent, one weight set per band of empties
//!    (`eval::band`). Bands with exact labels are fitted to them; the higher bands are then fitted
//!    to a depth-limited search that reaches the band below, whose weights are already fitted.
//! 4. Write the weights as little-endian i16 in 1/64 disc.
//!
//! Everything is seeded: the same arguments give the same file. `--data FILE` caches the labeled
//! positions (text) so a refit does not need the solves again.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use xorboard::game::othello::{START_BLACK, START_WHITE, flips, moves};
use xorboard::search::endgame::eval::{
    self, LEGACY_TOPS, N_EXTRA, N_SHAPES, SCALE, Weights, features, layout,
};

const N_BANDS: usize = LEGACY_TOPS.len();

fn band(empties: u32) -> usize {
    LEGACY_TOPS
        .iter()
        .position(|&t| empties <= t as u32)
        .unwrap_or(N_BANDS - 1)
}
use xorboard::search::endgame::{SolveLimits, Solver};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[derive(Clone, Copy)]
struct Sample {
    p: u64,
    o: u64,
    score: f32,
}

fn arg<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn parse_square(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let c = b[0].to_ascii_lowercase().wrapping_sub(b'a');
    let r = b[1].wrapping_sub(b'1');
    (c < 8 && r < 8).then_some((r * 8 + c) as usize)
}

fn play(p: u64, o: u64, x: usize) -> (u64, u64) {
    let f = flips(x, p, o);
    (o ^ f, p | f | (1 << x))
}

/// The positions a playout went through, and the one it stopped at.
type Playout = (Vec<(u64, u64)>, (u64, u64));

/// Play on from an opening with a noisy policy down to `empties`; returns the positions played
/// through (side to move first) and the final one, or `None` if the game ended first.
fn playout(start: (u64, u64), empties: u32, rng: &mut Rng) -> Option<Playout> {
    let (mut p, mut o) = start;
    let mut seen = Vec::new();
    loop {
        let n = 64 - (p | o).count_ones();
        if n == empties {
            return Some((seen, (p, o)));
        }
        let mv = moves(p, o);
        if mv == 0 {
            if moves(o, p) == 0 {
                return None;
            }
            (p, o) = (o, p);
            continue;
        }
        seen.push((p, o));
        let mut scored = Vec::new();
        let mut m = mv;
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            let (cp, co) = play(p, o, x);
            scored.push((-xorboard::search::othello::evaluate(cp, co), x));
        }
        scored.sort_by_key(|b| std::cmp::Reverse(b.0));
        let k = scored.len().min(3);
        let x = scored[(rng.next() % k as u64) as usize].1;
        (p, o) = play(p, o, x);
    }
}

/// Prediction of weights `w` (discs) for a sample.
fn predict(w: &[f32], sm: &Sample, idx: &mut [usize; N_SHAPES * 8]) -> f32 {
    let base = w.len() - N_EXTRA;
    let extra = features(sm.p, sm.o, idx);
    let mut pred: f32 = idx.iter().map(|&i| w[i]).sum();
    for (k, &v) in extra.iter().enumerate() {
        pred += w[base + k] * v as f32;
    }
    pred
}

/// Fit weights (discs) to `train` by stochastic gradient descent; report the RMS error on `test`.
fn fit(train: &[Sample], test: &[Sample], epochs: usize, rng: &mut Rng) -> Vec<f32> {
    let (_, len) = layout();
    let mut w = vec![0f32; len];
    if train.is_empty() {
        return w;
    }
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut idx = [0usize; N_SHAPES * 8];
    let base = len - N_EXTRA;
    for epoch in 0..epochs {
        for i in (1..order.len()).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let lr = 0.003 / (1.0 + epoch as f32 * 0.1);
        for &s in &order {
            let sm = train[s];
            let err = predict(&w, &sm, &mut idx) - sm.score;
            let g = lr * err;
            for &i in &idx {
                w[i] -= g + lr * 1e-3 * w[i];
            }
            let extra = features(sm.p, sm.o, &mut idx);
            for (k, &v) in extra.iter().enumerate() {
                w[base + k] -= g * v as f32 * 0.05;
            }
        }
    }
    let se: f32 = test
        .iter()
        .map(|sm| (predict(&w, sm, &mut idx) - sm.score).powi(2))
        .sum();
    eprintln!(
        "  {} training samples, RMS error {:.2} discs on {} held-out samples",
        train.len(),
        (se / test.len().max(1) as f32).sqrt(),
        test.len()
    );
    w
}

fn to_file(bands: &[Vec<f32>]) -> Vec<u8> {
    let mut out = Vec::new();
    for w in bands {
        for &x in w {
            let v = (x * SCALE as f32).round().clamp(-32000.0, 32000.0) as i16;
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out
}

/// Depth-limited negamax with the (partly fitted) evaluation at the leaves, in 1/64 disc.
fn search(w: &Weights, p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let mv = moves(p, o);
    if mv == 0 {
        if moves(o, p) == 0 {
            let d = p.count_ones() as i32 - o.count_ones() as i32;
            let e = 64 - (p | o).count_ones() as i32;
            let s = if d > 0 {
                d + e
            } else if d < 0 {
                d - e
            } else {
                0
            };
            return s * SCALE;
        }
        return -search(w, o, p, depth, -beta, -alpha);
    }
    if depth == 0 {
        return w.eval(p, o);
    }
    let mut best = i32::MIN + 1;
    let mut m = mv;
    while m != 0 {
        let x = m.trailing_zeros() as usize;
        m &= m - 1;
        let (cp, co) = play(p, o, x);
        let v = -search(w, cp, co, depth - 1, -beta, -alpha);
        if v > best {
            best = v;
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = arg(&args, "--games", 0);
    let solve_at: u32 = arg(&args, "--solve-at", 18);
    let out: String = arg(&args, "--out", "assets/endgame-eval.bin".to_string());
    let data: String = arg(&args, "--data", String::new());
    let epochs: usize = arg(&args, "--epochs", 25);
    let mut rng = Rng(0x005E_ED0F_E7A1);

    let xot = std::fs::read_to_string("assets/xot.txt").expect("run from the crate root");
    let openings: Vec<&str> = xot
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();

    let mut labeled: Vec<Sample> = Vec::new();
    let mut unlabeled: Vec<(u64, u64)> = Vec::new();
    let cached = (!data.is_empty())
        .then(|| std::fs::read_to_string(&data).ok())
        .flatten();
    if let Some(text) = cached {
        for line in text.lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            let p = u64::from_str_radix(f[1], 16).expect("cache");
            let o = u64::from_str_radix(f[2], 16).expect("cache");
            match f[0] {
                "L" => labeled.push(Sample {
                    p,
                    o,
                    score: f[3].parse().expect("cache"),
                }),
                _ => unlabeled.push((p, o)),
            }
        }
        eprintln!(
            "read {} labeled, {} unlabeled positions from {data}",
            labeled.len(),
            unlabeled.len()
        );
    }
    let first: usize = arg(&args, "--first", 0);
    let (old_labeled, old_unlabeled) = (labeled.len(), unlabeled.len());
    if games > 0 {
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(32);
        let started = std::time::Instant::now();
        for g in first..first + games {
            let line = openings[g % openings.len()];
            let (mut p, mut o) = (START_BLACK, START_WHITE);
            let mut ok = true;
            for sq in line.as_bytes().chunks(2) {
                let Some(x) = std::str::from_utf8(sq).ok().and_then(parse_square) else {
                    ok = false;
                    break;
                };
                if moves(p, o) & (1 << x) == 0 {
                    ok = false;
                    break;
                }
                (p, o) = play(p, o, x);
            }
            if !ok {
                continue;
            }
            let Some((seen, (sp, so))) = playout((p, o), solve_at, &mut rng) else {
                continue;
            };
            unlabeled.extend(
                seen.into_iter()
                    .filter(|&(a, b)| 64 - (a | b).count_ones() <= 30),
            );
            let Ok(s) = solver.solve(sp, so, &stop, &SolveLimits::default()) else {
                continue;
            };
            let (mut p, mut o, mut v) = (sp, so, s.score);
            labeled.push(Sample {
                p,
                o,
                score: v as f32,
            });
            for mv in &s.pv {
                match mv.cell() {
                    Some(x) => (p, o) = play(p, o, x),
                    None => (p, o) = (o, p),
                }
                v = -v;
                if moves(p, o) | moves(o, p) != 0 {
                    labeled.push(Sample {
                        p,
                        o,
                        score: v as f32,
                    });
                }
            }
            if (g - first) % 200 == 199 {
                eprintln!(
                    "{} games, {} labeled, {:.0} s",
                    g + 1,
                    labeled.len(),
                    started.elapsed().as_secs_f64()
                );
            }
        }
        if !data.is_empty() {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&data)
                .expect("data file");
            for s in &labeled[old_labeled..] {
                writeln!(f, "L {:x} {:x} {}", s.p, s.o, s.score).expect("write");
            }
            for &(p, o) in &unlabeled[old_unlabeled..] {
                writeln!(f, "U {p:x} {o:x}").expect("write");
            }
        }
    }

    // bands with exact labels, each fitted on the samples of its band and of `--pool` empties
    // around it (more data per weight); every 10th game's samples are held out
    let pool: u32 = arg(&args, "--pool", 0);
    let held =
        |s: &Sample| (s.p ^ s.o.rotate_left(17)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60 == 0;
    let mut bands: Vec<Vec<f32>> = vec![Vec::new(); N_BANDS];
    let top_exact = band(solve_at);
    for (b, slot) in bands.iter_mut().enumerate().take(top_exact + 1) {
        let range: Vec<u32> = (0..=64).filter(|&n| band(n) == b).collect();
        let (lo, hi) = (range[0].saturating_sub(pool), range[range.len() - 1] + pool);
        eprintln!("band {b} (exact labels, trained on {lo}..={hi} empties)");
        let train: Vec<Sample> = labeled
            .iter()
            .copied()
            .filter(|s| (lo..=hi).contains(&(64 - (s.p | s.o).count_ones())) && !held(s))
            .collect();
        let test: Vec<Sample> = labeled
            .iter()
            .copied()
            .filter(|s| band(64 - (s.p | s.o).count_ones()) == b && held(s))
            .collect();
        *slot = fit(&train, &test, epochs, &mut rng);
    }
    // higher bands: labels from a search down into the band below
    for b in top_exact + 1..N_BANDS {
        let below = bands[b - 1].clone();
        for slot in bands.iter_mut().skip(b) {
            *slot = below.clone();
        }
        let w = Weights::from_bytes(&to_file(&bands)).expect("layout");
        let s: Vec<Sample> = unlabeled
            .iter()
            .filter(|&&(p, o)| band(64 - (p | o).count_ones()) == b)
            .map(|&(p, o)| {
                let n = 64 - (p | o).count_ones();
                // reach the top of the band below
                let depth = (1..=8).find(|d| band(n - d) < b).unwrap_or(8);
                let v = search(&w, p, o, depth, -i32::MAX, i32::MAX);
                Sample {
                    p,
                    o,
                    score: v as f32 / SCALE as f32,
                }
            })
            .collect();
        eprintln!("band {b} (search labels)");
        if s.len() >= 1000 {
            let (test, train): (Vec<Sample>, Vec<Sample>) = s.iter().partition(|x| held(x));
            bands[b] = fit(&train, &test, epochs, &mut rng);
        }
    }
    let bytes = to_file(&bands);
    assert!(Weights::from_bytes(&bytes).is_some());
    std::fs::write(&out, bytes).expect("write weights");
    eprintln!("wrote {out} ({} bands)", N_BANDS);
    let _ = eval::shape_sizes();
}
