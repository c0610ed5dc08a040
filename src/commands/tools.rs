//! Plumbing shared by the project's build and fitting binaries (`src/bin`): the options every
//! book builder takes, work spread over threads with the results in input order, and writing a
//! generated asset.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The options of the book builders (`build-othello-book`, `build-gomoku-book`), flattened into
/// each one's arguments.
#[derive(clap::Args, Debug, Clone)]
pub struct BuildOptions {
    /// Transposition table of each search, in MiB (a fresh one per search).
    #[arg(long, default_value_t = 64, value_parser = super::parse_tt_mib)]
    pub hash: usize,
    /// Openings searched at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Where to write the book (stdout if absent).
    #[arg(long)]
    pub out: Option<String>,
}

/// The searches whose nodes the fitting tools sample (`fit-probcut --tree-depth`,
/// `train-endgame-eval --tree-games`): `nboard`'s fixed-depth confidence without the static
/// gate, as the shipped Multi-ProbCut table and evaluation were sampled before the gate came, so
/// that their recipes still give the same files.
pub const TREE_SAMPLING: crate::search::ProbCutConfidence =
    crate::protocol::nboard::FIXED_DEPTH_PROBCUT.ungated();

/// `work` applied to every item on `jobs` threads (at least one), each thread taking the next
/// item as it finishes the last; the results in the items' order, so a deterministic `work`
/// gives the same output whatever `jobs` is.
pub fn map_in_parallel<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::with_capacity(items.len()));
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else {
                        break;
                    };
                    let r = work(i, item);
                    done.lock().expect("no panics").push((i, r));
                }
            });
        }
    });
    let mut done = done.into_inner().expect("no panics");
    done.sort_by_key(|d| d.0);
    done.into_iter().map(|(_, r)| r).collect()
}

/// Write `text` to the file `out`, or to stdout without one; a failure is a one-line error.
pub fn write_output(out: Option<&str>, text: &str) -> Result<(), String> {
    match out {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}")),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_input_order_whatever_the_threads() {
        let items: Vec<u64> = (0..200).collect();
        let square = |_: usize, &x: &u64| {
            // Uneven work, so threads finish out of order.
            (0..(x % 7) * 1000).fold(x * x, |a, _| std::hint::black_box(a))
        };
        let want: Vec<u64> = items.iter().map(|x| x * x).collect();
        for jobs in [0, 1, 3] {
            assert_eq!(map_in_parallel(&items, jobs, square), want, "{jobs} jobs");
        }
        assert!(map_in_parallel(&[] as &[u64], 2, square).is_empty());
    }

    #[test]
    fn an_unwritable_output_is_a_one_line_error() {
        let e = write_output(Some("/nonexistent-dir/x.txt"), "x").unwrap_err();
        assert!(e.starts_with("cannot write /nonexistent-dir/x.txt") && !e.contains('\n'));
    }
}
