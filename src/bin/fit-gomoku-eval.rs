//! Fit the Gomoku evaluation and move-order weights (`assets/gomoku-eval.txt`,
//! `assets/gomoku-order.txt`; the features are described in `search::gomoku::eval`).
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
//! game's result from its side to move's view (1 win, ½ draw, 0 loss) and the search's own win
//! probability there (its score through the logistic scale).
//!
//! The weights are the logistic regression of those results on the features (Newton's method
//! on features scaled to unit spread, a light ridge), fitted on the games whose index is not a
//! multiple of ten; the others are held out. `--search-weight λ` fits the blend λ·(search's
//! probability) + (1 − λ)·(result) instead, and `--toward-built-in` pulls the ridges towards
//! the built-in weights instead of zero (a weight moves only as far as the data supports). It
//! prints the held-out log-loss and accuracy of the built-in weights (at their best single
//! scale, since they need not be calibrated) and of the fitted ones, and the fitted table;
//! `--write` replaces `assets/gomoku-eval.txt` (build again to use it). The weights are in evaluation units, `eval::SCALE` per logit.
//!
//! The move order is fitted to the moves the engine chose: in every position whose candidates
//! the search orders by their patterns (`GomokuBoard::candidate_patterns`), the chosen cell
//! against the other candidates, a conditional logit on the candidates' pattern features (the
//! side to move's class and levels there, and the opponent's), by Newton's method with the same
//! split. It reports how often each order puts the chosen move first and its mean rank, and
//! `--write` replaces `assets/gomoku-order.txt` (weights in hundredths of a logit).
//!
//! What it has shown (3,000–4,000 games at 8,000 nodes, 51,000–68,000 training positions): the
//! 658 line-set weights fit the held-out results better than the shipped weights (log-loss
//! 0.3140 against 0.3239 with `--toward-built-in --raw-ridge 0.003`; the class-and-level form of
//! the shipped weights refitted on the same games, 0.3208), yet play worse: 39.7% in 58 self-play
//! games of 200 ms turns against the shipped weights and 23/86 (26.7%) against Rapfi at strength
//! 60, where the shipped weights score about 30%. The search-distilled fit (`--search-weight 1`,
//! held-out 0.3499 against 0.3610) scored 41.7% in 96 self-play games. All positions of one
//! game share its result, so a few thousand games are a few thousand independent labels: the
//! line-set table needs many more games, or better labels, than the class-and-level one did.
//!
//! Three times the games did not change that: 10,000 games at 8,000 nodes (171,435 training and
//! 18,758 held-out positions, 63 minutes on one core), fitted as above (`--toward-built-in
//! --raw-ridge 0.003`): held-out log-loss 0.4013 against the built-in weights' 0.4164 (at their
//! best scale, 1.22), and the move order refitted on the same games no better (chosen move first
//! 30.9% against 31.3%, kept). Against Rapfi classical at 200 ms a turn, 48 games each, in the
//! session where the shipped weights scored 50.0% against strength 60 (and 49.0% with another
//! build) and 17.2% of 96 against full strength: the fit 33.3% and 8.3%; the fit divided by
//! 1.22 (the built-in weights' scale, so the search's margins in evaluation units mean what they
//! did) 37.5% and 14.6%. Predicting the game's result better is not what the search needs from
//! its evaluation here.
//!
//! Nor is ranking the engine's own choices better (comparison training, measured with a
//! throwaway tool): 600 games at 60,000 nodes a move (11,643 positions, 5,725 choices where the
//! evaluation scores the chosen move's result), the class-and-level weights fitted so that the
//! evaluation after each candidate ranks the search's choice first (a conditional logit over the
//! children at four times the results' logit scale) jointly with the results' log-loss. Held
//! out, the evaluation after the move put the chosen move first 31.1% of the time (built-in
//! weights 31.3%) at a mean rank of 5.18 (6.00), with a results log-loss of 0.452 (0.448).
//! Against full-strength Rapfi at 200 ms a turn it scored 3/48 and 1/48 (4.2% of 96), where the
//! shipped weights have scored 13.8% of 240. The move order refitted to the same deeper choices
//! (this binary, `--games 600 --nodes 60000`, 12,028 choices) is no better either: held out, the
//! chosen move first 26.6% of the time against the shipped order's 26.7%, mean rank 8.64 (8.76).
//!
//! Nor is knowing who holds the initiative (session 44, a throwaway fit): a bonus per threat mask
//! on top of the shipped evaluation, as Rapfi's classical evaluation has one. The mask is twelve
//! bits: whether the side to move has a cell where its stone makes a five, an open four (or two
//! fours), a four with more, a four, a three with more, an open three (cell classes 12, 11, 9-10,
//! 8, 6-7, 5), and the same for the opponent; 4,096 bonuses, fitted (ridge 10 a mask) together
//! with a scale for the shipped score, which stays the rest of the logit. On 4,000 games of this
//! binary (`--games 4000 --nodes 8000 --jobs 2 --save`, 13 minutes; 75,445 positions) it cut the
//! held-out log-loss from 0.3600 to 0.3294, far more than any refit above. The bonuses are large
//! (a three-three cell of the side to move while the opponent can make an open four and fours:
//! -1,223; both sides able to make an open three: +808). In play it changed nothing: against
//! full-strength Rapfi at 200 ms a turn 8.5/48 and 6/48 (15.1% of 96) where the shipped build,
//! run beside it, scored 8/48 and 6/48 (14.6%), and 24/48 against the shipped build. The search
//! already resolves these threats (forced defences, the four at the horizon, the threat seams),
//! so a leaf that knows them gains nothing.
//!
//! Nor are better games the answer (session 46, a throwaway driver): Rapfi classical at full
//! strength played both sides of 3,000 games, 50 ms a turn, from random openings of two to six
//! stones (seven in ten within three of the centre, the rest around a random cell, so edges and
//! corners come in); 22 minutes on two cores, 80,863 positions, loaded here as `P` lines. Held
//! out, the fit from zero scored a log-loss of 0.4602 and the fit towards the built-in weights
//! (`--toward-built-in --raw-ridge 0.003`) 0.4620, against the built-in weights' 0.4787 (at
//! their best scale, 0.78: on strong games they are too sure). Both make the tempo weight small
//! (59 and 99 against 369). Against Rapfi at strength 60 (48 games, 200 ms a turn), where the
//! shipped weights scored 24.5/48, 18/48 and 20/48 in the same session: the fit from zero
//! 14.5/48, the other 17.5/48, and the same divided by 0.78 (the margins in evaluation units
//! kept) 18.5/48.
//! The move order fitted to Rapfi's 83,133 choices in those games (the position before each
//! move, chosen cell against the other candidates) puts Rapfi's move first 28.5% of the time
//! held out (the shipped order 28.1%; mean rank 6.87 against 7.12) and scored 22/48. Fitted
//! (towards the built-in weights) on the quiet positions alone, in the spirit of fitting an
//! evaluation to the positions a search's leaves reach (no four for either side and no three for
//! the opponent: 10,117 positions), it predicts them much better (held-out log-loss 0.5408
//! against 0.5935) and scored 6.5/48.
//!
//! Nor is Rapfi's judgement as the label (session 47, a throwaway driver): 36,000 of those
//! positions, each searched by full-strength Rapfi for 50 ms (depth about 17; 20 minutes on two
//! cores), its score turned into a win probability by the logistic scale that fits the games'
//! results best (250 Rapfi units a logit; log-loss 0.326 against the results), loaded as the `P`
//! lines' search probability and fitted with `--search-weight 1`. Held out, against those
//! probabilities: the built-in weights 0.4829 (at their best scale, 0.78), the fit from zero
//! 0.4724, the fit towards the built-in weights (`--toward-built-in --raw-ridge 0.003`) 0.4693;
//! the tempo weight again small (52 and 90). The features leave most of Rapfi's view out. Against
//! Rapfi at strength 60 (48 games, 200 ms a turn), where the shipped weights scored 24/48 and
//! 20/48 in the same session: the fit towards the built-in weights 13/48, the same divided by
//! 0.78 13/48.

// Matrix code reads best with indices.
#![allow(clippy::needless_range_loop)]

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use xorboard::game::gomoku::Gomoku;
use xorboard::game::{Game, Move, Outcome, Side};
use xorboard::search::gomoku;
use xorboard::search::gomoku::eval::{self, FEATURES, ORDER_FEATURES, PATTERN_FEATURES};
use xorboard::search::threats::pattern::Packed;
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
    /// Ridge strength on the unscaled weights (logits per feature unit), per sample: holds back
    /// rare indicator features, which the ridge on scaled features hardly does.
    #[arg(long, default_value_t = 0.0)]
    raw_ridge: f64,
    /// The ridges pull towards the built-in weights instead of towards zero: a weight moves
    /// only as far as the data supports (for refitting many rare features, e.g. line sets).
    #[arg(long)]
    toward_built_in: bool,
    /// Weight of the search's own win probability in each position's label (0: the game's
    /// result alone; needs positions played or saved by this build).
    #[arg(long, default_value_t = 0.0)]
    search_weight: f64,
    /// Ridge strength of the move-order fit (per choice).
    #[arg(long, default_value_t = 1e-3)]
    order_ridge: f64,
    /// Save the recorded positions and choices to this file (to fit again with --load).
    #[arg(long)]
    save: Option<String>,
    /// Fit the positions and choices of a --save file instead of playing games.
    #[arg(long)]
    load: Option<String>,
    /// Write the fitted weights to assets/gomoku-eval.txt and assets/gomoku-order.txt.
    #[arg(long)]
    write: bool,
}

/// One recorded position: its features and the result for its side to move.
struct Sample {
    f: [i32; FEATURES],
    result: f64,
    held_out: bool,
    /// The cells played from the empty board to this position (so its features can be counted
    /// again by a later build with other features: `P` lines of a --save file).
    cells: Vec<usize>,
    /// The search's win probability for the side to move (its score through the evaluation's
    /// logistic scale), when recorded.
    searched: Option<f64>,
}

impl Sample {
    /// The fitted label: the game's result, or with `search_weight` > 0 a blend with the
    /// search's win probability (softer, so a game's luck weighs less).
    fn label(&self, search_weight: f64) -> f64 {
        match self.searched {
            Some(p) if search_weight > 0.0 => {
                search_weight * p + (1.0 - search_weight) * self.result
            }
            _ => self.result,
        }
    }
}

/// One recorded choice: each candidate's (side to move's, opponent's) packed cell patterns, the
/// one played first.
struct Choice {
    candidates: Vec<(Packed, Packed)>,
    held_out: bool,
}

/// The engine's bound on heuristic scores ([`gomoku::CAP`]) as a float: a search score beyond
/// it is a proven result, and the engine clamps its evaluation to it.
const SCORE_CAP: f64 = gomoku::CAP as f64;

/// Order weights per unit of the fitted logit.
const ORDER_SCALE: f64 = 100.0;

fn main() {
    let args = <Args as clap::Parser>::parse();
    let start = std::time::Instant::now();
    let (samples, choices) = match &args.load {
        Some(path) => load(path),
        None => play_games(&args),
    };
    eprintln!(
        "{} positions, {} choices, {:.0?}",
        samples.len(),
        choices.len(),
        start.elapsed()
    );
    if let Some(path) = &args.save {
        save(path, &samples, &choices);
    }
    let train: Vec<&Sample> = samples.iter().filter(|s| !s.held_out).collect();
    let test: Vec<&Sample> = samples.iter().filter(|s| s.held_out).collect();
    let built_in = eval::weights();
    let prior: [f64; FEATURES] = if args.toward_built_in {
        std::array::from_fn(|i| built_in[i] as f64 / eval::SCALE)
    } else {
        [0.0; FEATURES]
    };
    let w = fit(
        &train,
        args.ridge,
        args.raw_ridge,
        &prior,
        args.search_weight,
    );
    let fitted: [i32; FEATURES] = std::array::from_fn(|i| (w[i] * eval::SCALE).round() as i32);
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
    let train: Vec<&Choice> = choices.iter().filter(|c| !c.held_out).collect();
    let test: Vec<&Choice> = choices.iter().filter(|c| c.held_out).collect();
    let w = fit_order(&train, args.order_ridge);
    let order: [i32; ORDER_FEATURES] = std::array::from_fn(|i| (w[i] * ORDER_SCALE).round() as i32);
    let (old_first, old_rank) = order_quality(eval::order_weights(), &test);
    let (new_first, new_rank) = order_quality(&order, &test);
    println!(
        "held out: {} choices; built-in order: chosen move first {:.1}%, mean rank {old_rank:.2}; \
         fitted: first {:.1}%, mean rank {new_rank:.2}",
        test.len(),
        old_first * 100.0,
        new_first * 100.0
    );
    let order_text = order_file(&order, &args, train.len(), (new_first, new_rank));
    print!("{order_text}");
    if args.write {
        std::fs::write("assets/gomoku-eval.txt", text).expect("write assets/gomoku-eval.txt");
        std::fs::write("assets/gomoku-order.txt", order_text)
            .expect("write assets/gomoku-order.txt");
        eprintln!("wrote assets/gomoku-eval.txt and assets/gomoku-order.txt");
    }
}

/// The games, `args.jobs` at a time; samples and choices in game order.
fn play_games(args: &Args) -> (Vec<Sample>, Vec<Choice>) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    type Game = (Vec<Sample>, Vec<Choice>);
    let mut per_game: Vec<(usize, Game)> = std::thread::scope(|scope| {
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
    let (mut samples, mut choices) = (Vec::new(), Vec::new());
    for (_, (s, c)) in per_game {
        samples.extend(s);
        choices.extend(c);
    }
    (samples, choices)
}

/// Write the samples and choices: one line each, `S held result features…` and
/// `C held mine,theirs …` (the chosen candidate first).
fn save(path: &str, samples: &[Sample], choices: &[Choice]) {
    let mut out = String::new();
    for s in samples {
        let cells: Vec<String> = s.cells.iter().map(|c| c.to_string()).collect();
        let searched = s.searched.map_or(String::new(), |p| format!(" {p:.4}"));
        out.push_str(&format!(
            "P {} {} {}{searched}\n",
            u8::from(s.held_out),
            s.result,
            cells.join(",")
        ));
    }
    for c in choices {
        let cands: Vec<String> = c
            .candidates
            .iter()
            .map(|(m, t)| format!("{m},{t}"))
            .collect();
        out.push_str(&format!("C {} {}\n", u8::from(c.held_out), cands.join(" ")));
    }
    std::fs::write(path, out).expect("write the samples file");
}

/// Read a [`save`]d file.
fn load(path: &str) -> (Vec<Sample>, Vec<Choice>) {
    let text = std::fs::read_to_string(path).expect("read the samples file");
    let (mut samples, mut choices) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let mut parts = line.split(' ');
        let kind = parts.next();
        let held_out = parts.next() == Some("1");
        match kind {
            Some("S") => {
                let result = parts.next().and_then(|r| r.parse().ok()).expect("a result");
                let values: Vec<i32> = parts.map(|v| v.parse().expect("a feature")).collect();
                let f = values.try_into().expect("every feature");
                samples.push(Sample {
                    f,
                    result,
                    held_out,
                    cells: Vec::new(),
                    searched: None,
                });
            }
            Some("P") => {
                let result = parts.next().and_then(|r| r.parse().ok()).expect("a result");
                let cells: Vec<usize> = parts
                    .next()
                    .unwrap_or("")
                    .split(',')
                    .filter(|c| !c.is_empty())
                    .map(|c| c.parse().expect("a cell"))
                    .collect();
                let searched = parts.next().map(|p| p.parse().expect("a probability"));
                let mut g = Gomoku::default();
                for &c in &cells {
                    g.play(Move::at(c));
                }
                // this build's features of the position (none where it is not evaluated)
                if let Some(f) = g.board().eval_features() {
                    samples.push(Sample {
                        f,
                        result,
                        held_out,
                        cells,
                        searched,
                    });
                }
            }
            Some("C") => {
                let candidates = parts
                    .map(|p| {
                        let (m, t) = p.split_once(',').expect("mine,theirs");
                        (m.parse().expect("packed"), t.parse().expect("packed"))
                    })
                    .collect();
                choices.push(Choice {
                    candidates,
                    held_out,
                });
            }
            _ => panic!("unreadable line in {path}: {line}"),
        }
    }
    (samples, choices)
}

/// A xorshift step.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Game `index`: its random opening, then the engine with `nodes` per move for both sides.
fn play_game(index: usize, nodes: u64) -> (Vec<Sample>, Vec<Choice>) {
    let mut rng = 0x9E37_79B9_7F4A_7C15u64 ^ (index as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D);
    for _ in 0..4 {
        xorshift(&mut rng);
    }
    let mut g = Gomoku::default();
    let mut cells: Vec<usize> = Vec::new();
    let opening = 2 + (xorshift(&mut rng) % 5) as usize;
    while g.stones() < opening {
        let (x, y) = (
            4 + (xorshift(&mut rng) % 7) as usize,
            4 + (xorshift(&mut rng) % 7) as usize,
        );
        let c = g.index(x, y);
        if g.cells()[c] == xorboard::game::Cell::Empty {
            g.play(Move::at(c));
            cells.push(c);
        }
    }
    let stop = AtomicBool::new(false);
    let table = Arc::new(Table::new(16, Policy::TwoTier, 64));
    let mut searcher: Searcher<Gomoku> = Searcher::new(table);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let held_out = index.is_multiple_of(10);
    let mut recorded: Vec<([i32; FEATURES], Side, Vec<usize>, f64)> = Vec::new();
    let mut choices = Vec::new();
    let mut candidates = Vec::new();
    while g.outcome().is_none() {
        let mut board = g.board();
        let features = board.eval_features();
        let ordered = board.candidate_patterns(&mut candidates);
        let stats = searcher.search(&g, &limits, &stop, &mut |_| {});
        let best = stats.best.expect("a move in an unfinished game");
        if let Some(f) = features {
            let searched =
                sigmoid(f64::from(stats.score).clamp(-SCORE_CAP, SCORE_CAP) / eval::SCALE);
            recorded.push((f, g.side_to_move(), cells.clone(), searched));
        }
        if let Some(chosen) = candidates.iter().position(|c| c.0 == best)
            && ordered
            && candidates.len() > 1
        {
            candidates.swap(0, chosen);
            choices.push(Choice {
                candidates: candidates.iter().map(|&(_, m, t)| (m, t)).collect(),
                held_out,
            });
        }
        g.play(best);
        cells.extend(best.cell());
    }
    let winner = match g.outcome() {
        Some(Outcome::Win(s)) => Some(s),
        _ => None,
    };
    let samples = recorded
        .into_iter()
        .map(|(f, side, cells, searched)| Sample {
            f,
            result: match winner {
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
            held_out,
            cells,
            searched: Some(searched),
        })
        .collect();
    (samples, choices)
}

/// A candidate's order features (side to move's pattern features, then the opponent's), as
/// (index, count) pairs.
fn order_features((mine, theirs): (Packed, Packed)) -> Vec<(usize, f64)> {
    let mut f = [0; ORDER_FEATURES];
    eval::add_pattern_features(mine, &mut f[..PATTERN_FEATURES]);
    eval::add_pattern_features(theirs, &mut f[PATTERN_FEATURES..]);
    f.iter()
        .enumerate()
        .filter(|&(_, &n)| n != 0)
        .map(|(i, &n)| (i, n as f64))
        .collect()
}

/// The conditional logit of the chosen candidates (each choice's first), in logits per feature:
/// Newton's method with step halving (some patterns, such as a four-three, are nearly always
/// chosen, so the unregularised optimum lies far out).
fn fit_order(choices: &[&Choice], ridge: f64) -> [f64; ORDER_FEATURES] {
    let sparse: Vec<Vec<Vec<(usize, f64)>>> = choices
        .iter()
        .map(|c| c.candidates.iter().map(|&p| order_features(p)).collect())
        .collect();
    let mut w = [0f64; ORDER_FEATURES];
    let (mut loss, mut grad, mut hess) = order_terms(&sparse, &w, ridge);
    for round in 0..40 {
        let step = solve(hess, grad);
        let mut t = 1.0;
        let mut next = w;
        let mut terms = None;
        for _ in 0..30 {
            next = std::array::from_fn(|i| w[i] - t * step[i]);
            let trial = order_terms(&sparse, &next, ridge);
            if trial.0 <= loss {
                terms = Some(trial);
                break;
            }
            t /= 2.0;
        }
        let Some(trial) = terms else { break };
        let size = t * step.iter().map(|d| d * d).sum::<f64>().sqrt();
        w = next;
        (loss, grad, hess) = trial;
        eprintln!("order newton {round}: training loss {loss:.5}, step {size:.2e}");
        if size < 1e-6 {
            break;
        }
    }
    w
}

/// The order fit's mean loss (negative log-likelihood of the chosen moves plus the ridge), its
/// gradient and Hessian at `w`.
#[allow(clippy::type_complexity)]
fn order_terms(
    sparse: &[Vec<Vec<(usize, f64)>>],
    w: &[f64; ORDER_FEATURES],
    ridge: f64,
) -> (
    f64,
    [f64; ORDER_FEATURES],
    [[f64; ORDER_FEATURES]; ORDER_FEATURES],
) {
    let n = sparse.len().max(1) as f64;
    let mut grad = [0f64; ORDER_FEATURES];
    let mut hess = [[0f64; ORDER_FEATURES]; ORDER_FEATURES];
    let mut loss = 0.0;
    for cands in sparse {
        let scores: Vec<f64> = cands
            .iter()
            .map(|f| f.iter().map(|&(i, v)| w[i] * v).sum())
            .collect();
        let top = scores.iter().copied().fold(f64::MIN, f64::max);
        let exp: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
        let total: f64 = exp.iter().sum();
        loss += total.ln() - (scores[0] - top);
        let mut mean = [0f64; ORDER_FEATURES];
        for (f, e) in cands.iter().zip(&exp) {
            let p = e / total;
            for &(i, v) in f {
                mean[i] += p * v;
                for &(j, u) in f {
                    hess[i][j] += p * v * u;
                }
            }
        }
        for i in 0..ORDER_FEATURES {
            grad[i] += mean[i];
            for j in 0..ORDER_FEATURES {
                hess[i][j] -= mean[i] * mean[j];
            }
        }
        for &(i, v) in &cands[0] {
            grad[i] -= v;
        }
    }
    let mut penalty = 0.0;
    for i in 0..ORDER_FEATURES {
        grad[i] = grad[i] / n + ridge * w[i];
        for j in 0..ORDER_FEATURES {
            hess[i][j] /= n;
        }
        hess[i][i] += ridge;
        penalty += ridge / 2.0 * w[i] * w[i];
    }
    (loss / n + penalty, grad, hess)
}

/// How often order weights `w` put the chosen move first, and its mean rank (1 = first; ties
/// count against it).
fn order_quality(w: &[i32; ORDER_FEATURES], choices: &[&Choice]) -> (f64, f64) {
    let score = |p: (Packed, Packed)| -> i64 {
        order_features(p)
            .iter()
            .map(|&(i, v)| w[i] as i64 * v as i64)
            .sum()
    };
    let (mut first, mut ranks) = (0usize, 0usize);
    for c in choices {
        let chosen = score(c.candidates[0]);
        let rank = 1 + c.candidates[1..]
            .iter()
            .filter(|&&p| score(p) >= chosen)
            .count();
        first += usize::from(rank == 1);
        ranks += rank;
    }
    let n = choices.len().max(1) as f64;
    (first as f64 / n, ranks as f64 / n)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The logit of a sample under integer weights `w` (evaluation units) times `scale`.
fn logit(w: &[i32; FEATURES], scale: f64, s: &Sample) -> f64 {
    let v: f64 = (0..FEATURES).map(|i| (w[i] * s.f[i]) as f64).sum();
    // the engine clamps its heuristic scores
    v.clamp(-SCORE_CAP, SCORE_CAP) * scale / eval::SCALE
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

/// Logistic regression of the results on the features, in logits per feature unit, with the
/// ridges pulling towards `prior` (same units).
fn fit(
    samples: &[&Sample],
    ridge: f64,
    raw_ridge: f64,
    prior: &[f64; FEATURES],
    search_weight: f64,
) -> [f64; FEATURES] {
    let n = samples.len().max(1) as f64;
    // unit spread (root mean square) per feature; constant-zero features keep scale 1
    let spread: [f64; FEATURES] = std::array::from_fn(|i| {
        let ms = samples.iter().map(|s| (s.f[i] as f64).powi(2)).sum::<f64>() / n;
        if ms > 0.0 { ms.sqrt() } else { 1.0 }
    });
    let x = |s: &Sample, i: usize| s.f[i] as f64 / spread[i];
    let prior: [f64; FEATURES] = std::array::from_fn(|i| prior[i] * spread[i]);
    let mut w = prior;
    let mut nonzero: Vec<(usize, f64)> = Vec::with_capacity(FEATURES);
    for round in 0..30 {
        let mut grad = vec![0f64; FEATURES];
        let mut hess = vec![vec![0f64; FEATURES]; FEATURES];
        let mut loss = 0.0;
        for s in samples {
            nonzero.clear();
            nonzero.extend((0..FEATURES).filter(|&i| s.f[i] != 0).map(|i| (i, x(s, i))));
            let z: f64 = nonzero.iter().map(|&(i, xi)| w[i] * xi).sum();
            let p = sigmoid(z);
            let pc = p.clamp(1e-12, 1.0 - 1e-12);
            let y = s.label(search_weight);
            loss -= y * pc.ln() + (1.0 - y) * (1.0 - pc).ln();
            let r = p - y;
            let h = (p * (1.0 - p)).max(1e-9);
            for &(i, xi) in &nonzero {
                grad[i] += r * xi;
                let row = &mut hess[i];
                for &(j, xj) in &nonzero {
                    row[j] += h * xi * xj;
                }
            }
        }
        for i in 0..FEATURES {
            let raw = raw_ridge / (spread[i] * spread[i]);
            grad[i] = grad[i] / n + (ridge + raw) * (w[i] - prior[i]);
            for j in 0..FEATURES {
                hess[i][j] /= n;
            }
            hess[i][i] += ridge + raw;
        }
        let step = solve_dense(hess, grad);
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

/// Gaussian elimination with partial pivoting (see [`solve_dense`]).
fn solve<const N: usize>(a: [[f64; N]; N], b: [f64; N]) -> [f64; N] {
    let x = solve_dense(a.iter().map(|row| row.to_vec()).collect(), b.to_vec());
    std::array::from_fn(|i| x[i])
}

/// Gaussian elimination with partial pivoting; an unknown without a pivot is 0.
fn solve_dense(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .expect("rows");
        a.swap(c, p);
        b.swap(c, p);
        let d = a[c][c];
        if d.abs() < 1e-15 {
            continue;
        }
        let pivot_row = a[c].clone();
        for r in 0..n {
            if r != c {
                let k = a[r][c] / d;
                if k != 0.0 {
                    for j in c..n {
                        a[r][j] -= k * pivot_row[j];
                    }
                    b[r] -= k * b[c];
                }
            }
        }
    }
    (0..n)
        .map(|i| {
            if a[i][i].abs() < 1e-15 {
                0.0
            } else {
                b[i] / a[i][i]
            }
        })
        .collect()
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
         # Fitted by: cargo run --release --bin fit-gomoku-eval -- --games {} --nodes {} --ridge {} --raw-ridge {}{} --write\n\
         # {positions} training positions; held-out log-loss {loss:.4}, accuracy {:.1}%.\n",
        eval::SCALE,
        args.games,
        args.nodes,
        args.ridge,
        args.raw_ridge,
        args.load
            .as_ref()
            .map_or(String::new(), |f| format!(" --load {f}")),
        accuracy * 100.0
    );
    for (name, v) in eval::feature_names().iter().zip(w) {
        out.push_str(&format!("{name} {v}\n"));
    }
    out
}

/// The move-order file: a header saying how it was made, then `name weight` lines.
fn order_file(
    w: &[i32; ORDER_FEATURES],
    args: &Args,
    choices: usize,
    (first, rank): (f64, f64),
) -> String {
    let mut out = format!(
        "# Gomoku move-order weights (see src/search/gomoku/eval.rs), hundredths of a logit: a\n\
         # candidate cell's value is the side to move's class and level weights of its stone there\n\
         # plus the opponent's. Fitted to the engine's choices by: cargo run --release --bin\n\
         # fit-gomoku-eval -- --games {} --nodes {} --order-ridge {} --write\n\
         # {choices} training choices; held out: chosen move first {:.1}%, mean rank {rank:.2}.\n",
        args.games,
        args.nodes,
        args.order_ridge,
        first * 100.0
    );
    for (name, v) in eval::order_feature_names().iter().zip(w) {
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
                    cells: Vec::new(),
                    searched: None,
                }
            })
            .collect();
        let refs: Vec<&Sample> = samples.iter().collect();
        let w = fit(&refs, 1e-6, 0.0, &[0.0; FEATURES], 0.0);
        assert!((w[1] - 2.0).abs() < 0.5, "{w:?}");
        assert!((w[2] + 1.0).abs() < 0.3, "{w:?}");
    }
}
