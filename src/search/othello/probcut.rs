//! The Multi-ProbCut table of the Othello midgame search: for each stage of the game (a band
//! of empties) and each depth `d`, the shallow depth `d'` whose search predicts a depth-`d`
//! search, and the fitted regression `v_d ≈ slope · v_d' + intercept` with the standard
//! deviation σ of its error, all in centi-discs.
//!
//! The table is fitted by `src/bin/fit-probcut.rs` from the engine's own searches, on the nodes
//! where its depth-12 searches of games from the XOT openings try Multi-ProbCut
//! ([`NodeSampler`]), and shipped in `assets/probcut.txt` (compiled in, so nothing is read at
//! run time). A row per stage and deep depth:
//!
//! ```text
//! # min_empties max_empties deep shallow slope intercept sigma samples
//! 23 28 8 4 0.982 -3.1 312.4 410
//! ```
//!
//! Depths beyond the deepest fitted one use that depth's row with the same gap between the
//! two depths (the error grows with the gap, and changes little with the depth itself).
//!
//! Which positions the table is fitted on matters (session 56). The previous table was fitted on
//! the positions of games played by a one-ply greedy policy (a move in eight at random): lopsided
//! positions, where a shallow search misjudges a deep one more than at the nodes the search tries
//! the cut on. Fitted on those nodes instead, σ is smaller by a fifth on average from 26 to 37
//! empties (at 32-37, depth 8 from 4: 2.15 discs against 2.82; 10 from 4: 2.54 against 3.32) and by
//! a tenth from 38 to 49, about the same from 14 to 25, and larger by a sixth from 50 up (8 from 4:
//! 1.63 against 1.29), where the greedy games are still balanced. NTest's own table (its
//! `mpcJA_25.txt`, through the origin, same pairs) reads 1.60 discs at 32-37 for 8 from 4. The same
//! confidence then cuts more, and as soundly: `nboard` at depth 12 (`220,5`) on 60 positions of our
//! games against NTest searches 14.82M nodes in 1.99 s where the greedy table searched 21.49M in
//! 2.89 s; against NTest, both at depth 12 (the twelve 40-game sets of
//! [`FIXED_DEPTH_PROBCUT`](crate::protocol::nboard::FIXED_DEPTH_PROBCUT)), 44.8% at 2.29 times
//! NTest's think time, at `250,5` (now the fixed-depth confidence) 47.4% at 2.74 times, where the
//! greedy table scored 46.1% at 2.78 times at `220,5`. At equal time (NTest at depth 16 against
//! `nboard --move-ms 64` uncapped, the six 40-game sets of
//! [`BUDGET_SHARES`](crate::protocol::nboard::BUDGET_SHARES), each run beside the greedy table's):
//! 35.6% (70-139-31) against 33.1% (62-143-35); the table fitted on our nodes in games against
//! NTest 35.2% (63-134-43) against 32.5% (61-145-34). So 35.4% of 480 games against 32.8% of 480: a
//! gain of under one standard error of the difference, in the direction the time saved at depth 12
//! predicts.
//! Against the engine with the greedy table, both `nboard --move-ms 64` (80 XOT games,
//! `othello_match.py --shuffle --seed 3` and `4`, side by side): 40-29-11 (56.9%), +0.45 discs a
//! game.
//!
//! Whether σ grows with the size of the score (session 95). NTest's own table does: through the
//! origin on its `mpcJA_30.txt`, depth 8 from 4, the positions whose shallow score is within 3
//! discs of a draw miss by 1.61 discs at 26-37 empties and those beyond 10 discs by 2.36 (38-49
//! empties: 0.98 against 1.56). At the nodes this search tries the cut on it hardly does: the
//! shipped command with `--per-stage 500` (3,180 nodes, a throwaway dump), every stage and depth
//! pooled, the residuals' spread against their row's σ is 0.95 where the predicted deep score is
//! within 3 discs of a draw, 0.94 from 3 to 6, 0.97 from 6 to 10, 1.03 from 10 to 16 and 1.06
//! beyond. Those nodes' σ (8 from 4: 2.43 / 1.92 / 1.62 / 1.51 discs at 32-37 / 38-43 / 44-49 /
//! 50-55 empties) stay 1.2 to 1.7 times NTest's on its positions (1.78 / 1.33 / 1.12 / 0.89).
//! A margin growing with the bound anyway (a throwaway switch: `t·σ` times 0.8 at a draw, plus
//! 0.04 a disc of the bound, at most 1.3) searched 14.5M nodes for 17.2M at depth 12 on 60
//! positions of session 94's games against NTest (44, 38 and 32 empties), the same moves; at
//! equal time (NTest at depth 16 against `nboard --move-ms 58` uncapped, XOT seeds 4001-4024,
//! side by side with the shipped margin) 36.4% (283-544-133) against 35.4% (275-555-130), set by
//! set +3.1 (one standard error 1.9) on the first twelve sets and -1.2 (2.4) on the other twelve;
//! NTest thought 67-68 ms a move, ours 55. Not kept: near a draw it is only a lower confidence,
//! which the games do not reward.

use std::sync::{LazyLock, Mutex};

/// The fitted table as shipped.
pub const PROBCUT_TABLE: &str = include_str!("../../../assets/probcut.txt");

/// Fewest plies a node must have left for Multi-ProbCut to be tried on it.
pub const MIN_DEPTH: i32 = 2;

/// How near (centi-discs) a node's static evaluation must come to the bound a shallow search
/// must clear for that search to be tried ([`ProbCut::gate`](crate::search::ProbCut)).
///
/// Measured (session 71) on twelve positions of a depth-12 match against NTest (20, 26 and 32
/// plies into four games), each searched to depth 12 by a fresh `nboard --no-book`: at the
/// fixed-depth confidence (`250,5`) the shallow searches were 70% of the 5.64M nodes, and 43%
/// of the checks above beta failed (each a whole shallow search, then the full one). Without a
/// gate 5,636,744 nodes; gate 15 discs 5,456,777; 10 discs 5,043,967; 6 discs 4,344,979; 4 discs
/// 4,023,698; 2 discs 3,811,449; 1 disc 3,779,630; half a disc 3,751,785; 0.01 disc 3,835,929,
/// every one with the same move and score at each position. At `100,5` (the timed confidence):
/// 1,092,245 nodes without, 808,499 with a gate of 1 disc (3 of 12 moves changed, to the
/// moves `250,5` chooses). NTest at depth 12 searched 1,408,497 nodes on the same positions (a
/// build of it printing its node counts, outside this project): a quarter of the ungated tree.
///
/// In games, both at depth 12 against NTest, 96 forty-game XOT sets (see
/// [`FIXED_DEPTH_PROBCUT`](crate::protocol::nboard::FIXED_DEPTH_PROBCUT)): 48.7% against the
/// ungated 48.9% (set by set -0.22, one standard error 0.22), thinking 2.30 against 2.83 times
/// NTest's time with four matches on the two cores; on four sets (seeds 337-353) run side by
/// side with nothing else, 2.40 against 2.72 times (the exact and result solves near the end,
/// which the gate does not touch, are much of the time). At equal time (NTest at depth 16
/// against `nboard --move-ms 58`, side by side with `--probcut 100,5,off`, nothing else
/// running): on twelve 40-game XOT sets (seeds 337-401)
/// 36.2% (147-279-54) against 34.1% (132-285-63), but on twelve more (seeds 409-467) the two
/// evened out: over the 24 sets 35.8% (275-548-137) against 35.4% (265-545-150), both thinking
/// 48-49 ms a move against NTest's 47. No gain at equal time that 960 games can show. Against the
/// ungated engine, `selfplay --game othello --time-ms 50 --b-probcut 100,5,off`, 160 XOT games
/// (opening seeds 1 and 2, side by side): 77-54-29, 57.2%, +0.5 discs a game.
pub const STATIC_GATE: u16 = 100;

/// The shallow depth that predicts a depth-`deep` search: about half of it, keeping the
/// parity of `deep` (an Othello evaluation swings with the side to move at the leaves).
///
/// Measured and not kept: NTest's pairs (its `kMPCCuts`: about a third, 12 from 4, 16 from 6),
/// `deep - 2 * ((deep + 1) / 3)`, with a table refitted by the shipped command (7 minutes).
/// `nboard --probcut 100,5` at depth 14 on 60 positions of our games against NTest (20 each at
/// 44, 38 and 32 empties) searched a quarter fewer nodes (206k / 262k / 176k a position against
/// 248k / 377k / 226k), but at equal time (NTest at depth 16 against `--move-ms 64` uncapped, the
/// six 40-game XOT sets of [`BUDGET_SHARES`](crate::protocol::nboard::BUDGET_SHARES), one match
/// beside another) it scored 26.7% (48-160-32) where this pairing, run the same day, scored
/// 31.0% (61-152-27). The same with the shallow searches made without Multi-ProbCut inside
/// them, as NTest makes them: 1.3 times the nodes of this pairing, 26.7% (52-164-24). With
/// this pairing, shallow searches without Multi-ProbCut inside cost three times the nodes
/// (885k / 1,348k / 611k). The shallower, cheaper prediction misreads more than the nodes it
/// saves are worth. Again with the static gate (session 74, a throwaway switch), both at depth
/// 12 against NTest on eleven 40-game XOT sets (seeds 337-397): shallow searches without
/// Multi-ProbCut inside 47.0% (176-202-62) at 2.51 times NTest's think time, the shipped search
/// 47.0% (178-204-58) at 2.12 times: the sounder predictions buy nothing at a fixed depth.
pub fn shallow_depth(deep: i32) -> i32 {
    deep - 2 * ((deep + 2) / 4)
}

/// Collects positions where the search tries Multi-ProbCut, for fitting the table on the
/// nodes it is used at (`fit-probcut --tree-depth`): one node in `keep_one_in` (chosen by its
/// hash, so a search keeps the same ones whatever the order) with at least [`SAMPLED_DEPTH`]
/// plies left. Installed on a search board by
/// [`OthelloBoard::sample_probcut_nodes`](super::OthelloBoard::sample_probcut_nodes); boards
/// without one pay a single check.
pub struct NodeSampler {
    keep_one_in: u64,
    positions: Mutex<Vec<(u64, u64)>>,
}

/// Fewest plies left at a node [`NodeSampler`] keeps.
pub const SAMPLED_DEPTH: i32 = 3;

impl NodeSampler {
    /// A sampler keeping about one tried node in `keep_one_in` (rounded up to a power of two).
    pub fn new(keep_one_in: u64) -> NodeSampler {
        NodeSampler {
            keep_one_in: keep_one_in.max(1).next_power_of_two(),
            positions: Mutex::new(Vec::new()),
        }
    }

    /// A node with `depth` plies left whose Multi-ProbCut rule was looked up: `(player,
    /// opponent)` bitboards, the side to move first.
    #[inline]
    pub fn offer(&self, hash: u64, player: u64, opponent: u64, depth: i32) {
        if depth >= SAMPLED_DEPTH && (hash >> 32) & (self.keep_one_in - 1) == 0 {
            self.positions
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((player, opponent));
        }
    }

    /// The positions kept so far (a node tried more than once is kept more than once), and the
    /// sampler emptied.
    pub fn take(&self) -> Vec<(u64, u64)> {
        std::mem::take(&mut *self.positions.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Plays each of `starts` on by the engine at `depth` (Multi-ProbCut at `confidence`, a new
/// searcher and a cleared `tt_mib` table per game) until at most `until` empties are left, and
/// returns the nodes a [`NodeSampler`] keeping one in `keep_one_in` saw, game after game (a node
/// tried more than once is there more than once). Each game depends on its start alone, so the
/// nodes of a list of starts are those of its parts one after the other: what `fit-probcut
/// --tree-depth` fits the table on and `train-endgame-eval --tree-games` fits the evaluation on.
pub fn sample_tree_nodes(
    starts: &[crate::game::othello::Othello],
    depth: u32,
    confidence: crate::search::ProbCutConfidence,
    keep_one_in: u64,
    until: u32,
    tt_mib: usize,
) -> Vec<(u64, u64)> {
    use crate::game::Game;
    use crate::search::{Limits, Searcher};
    use crate::tt::{Policy, Table};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    let sampler = Arc::new(NodeSampler::new(keep_one_in));
    let table = Arc::new(Table::new(tt_mib, Policy::TwoTier, 64));
    let stop = AtomicBool::new(false);
    let mut legal = Vec::new();
    for start in starts {
        let mut g = start.clone();
        table.clear();
        let mut s: Searcher<crate::game::othello::Othello> = Searcher::new(table.clone());
        let mut options = s.options();
        options.probcut = Some(confidence);
        options.count_stats = false;
        s.set_options(options);
        let tree_sampler = sampler.clone();
        s.set_board_setup(Some(Arc::new(move |b| {
            b.sample_probcut_nodes(tree_sampler.clone())
        })));
        while !g.is_over() && g.empties() > until {
            g.legal_moves(&mut legal);
            let mv = if legal.len() > 1 {
                let r = s.search(&g, &Limits::depth(depth), &stop, &mut |_| {});
                r.best.unwrap_or(legal[0])
            } else {
                legal[0]
            };
            g.play(mv);
        }
    }
    sampler.take()
}

/// One fitted pair of depths at one stage.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Row {
    pub min_empties: u32,
    pub max_empties: u32,
    pub deep: i32,
    pub shallow: i32,
    pub slope: f32,
    pub intercept: f32,
    pub sigma: f32,
    pub samples: u32,
}

impl Row {
    /// The row as a line of the table file.
    pub fn line(&self) -> String {
        format!(
            "{} {} {} {} {:.4} {:.1} {:.1} {}",
            self.min_empties,
            self.max_empties,
            self.deep,
            self.shallow,
            self.slope,
            self.intercept,
            self.sigma,
            self.samples
        )
    }
}

/// The rows, looked up by empties and depth.
#[derive(Clone, Debug)]
pub struct Table {
    rows: Vec<Row>,
    /// `by_empties[e]`: the rows of the stage holding `e` empties, by deep depth from
    /// [`MIN_DEPTH`].
    by_empties: Vec<Vec<Row>>,
}

impl Table {
    /// Parse a table file; an error names the line that is wrong.
    pub fn parse(text: &str) -> Result<Table, String> {
        let mut rows = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split_whitespace().collect();
            let bad = || format!("probcut table line {}: {line:?}", i + 1);
            if f.len() != 8 {
                return Err(bad());
            }
            let int = |k: usize| f[k].parse::<i64>().map_err(|_| bad());
            let real = |k: usize| f[k].parse::<f32>().map_err(|_| bad());
            let row = Row {
                min_empties: int(0)? as u32,
                max_empties: int(1)? as u32,
                deep: int(2)? as i32,
                shallow: int(3)? as i32,
                slope: real(4)?,
                intercept: real(5)?,
                sigma: real(6)?,
                samples: int(7)? as u32,
            };
            let sane = row.min_empties <= row.max_empties
                && row.max_empties <= 60
                && row.deep >= MIN_DEPTH
                && (0..row.deep).contains(&row.shallow)
                && row.slope > 0.0
                && row.sigma >= 0.0;
            if !sane {
                return Err(bad());
            }
            rows.push(row);
        }
        let mut by_empties = vec![Vec::new(); 61];
        for (e, stage) in by_empties.iter_mut().enumerate() {
            let mut mine: Vec<Row> = rows
                .iter()
                .filter(|r| (r.min_empties..=r.max_empties).contains(&(e as u32)))
                .copied()
                .collect();
            mine.sort_by_key(|r| r.deep);
            // Only an unbroken run of depths from MIN_DEPTH is usable by index.
            let run = mine
                .iter()
                .enumerate()
                .take_while(|(k, r)| r.deep == MIN_DEPTH + *k as i32)
                .count();
            mine.truncate(run);
            *stage = mine;
        }
        Ok(Table { rows, by_empties })
    }

    /// The table shipped in `assets/probcut.txt`.
    pub fn builtin() -> &'static Table {
        static TABLE: LazyLock<Table> =
            LazyLock::new(|| Table::parse(PROBCUT_TABLE).expect("assets/probcut.txt parses"));
        &TABLE
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The rule for a node with `empties` empties and `depth` plies left: `(shallow depth,
    /// slope, intercept, sigma)`, or `None` if this stage has no fitted rows or the depth is
    /// too shallow.
    ///
    /// Beyond the deepest fitted depth the gap stays that row's six plies. Measured and not kept
    /// (session 49): a gap of four there (the stage's deepest row with that gap, 9 from 5), a
    /// surer and only slightly dearer prediction (`nboard --probcut 100,5` on the 60 positions
    /// of [`shallow_depth`]: depth 16 in 7.24 s against 6.94 s, 55.7M nodes against 50.2M; a gap
    /// of two 10.75 s). At equal time (NTest at depth 16 against `--move-ms 64` uncapped, the six
    /// 40-game sets of [`BUDGET_SHARES`](crate::protocol::nboard::BUDGET_SHARES), side by side):
    /// 30.6% (60-153-27) where the six-ply gap scored 34.0% (70-147-23).
    pub fn rule(&self, empties: u32, depth: i32) -> Option<(i32, f32, f32, f32)> {
        if depth < MIN_DEPTH {
            return None;
        }
        let stage = self.by_empties.get(empties as usize)?;
        let last = stage.last()?;
        match stage.get((depth - MIN_DEPTH) as usize) {
            Some(r) => Some((r.shallow, r.slope, r.intercept, r.sigma)),
            None => Some((
                depth - (last.deep - last.shallow),
                last.slope,
                last.intercept,
                last.sigma,
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_nodes_of_a_list_of_starts_are_those_of_its_parts_in_turn() {
        let keys = crate::zobrist::Keys::default_keys();
        let starts: Vec<_> = ["f5d6c3d3c4", "f5f6e6f4e3", "f5d6c5f4e3"]
            .iter()
            .map(|line| crate::book::othello_after(line, keys).expect("legal"))
            .collect();
        let sample = |starts: &[crate::game::othello::Othello]| {
            sample_tree_nodes(
                starts,
                6,
                crate::search::ProbCutConfidence::default(),
                1,
                44,
                1,
            )
        };
        let together = sample(&starts);
        let mut in_parts = sample(&starts[..1]);
        in_parts.extend(sample(&starts[1..]));
        assert!(!together.is_empty());
        assert!(
            together
                .iter()
                .all(|&(p, o)| p & o == 0 && (p | o).count_zeros() + 6 > 44)
        );
        assert_eq!(together, in_parts);
    }

    #[test]
    fn the_shipped_table_parses_and_covers_the_midgame() {
        let t = Table::builtin();
        assert!(!t.rows().is_empty());
        for e in 14..=55 {
            for d in MIN_DEPTH..=14 {
                let (shallow, slope, _, sigma) = t.rule(e, d).expect("a rule");
                assert!((0..d).contains(&shallow), "e {e} d {d} shallow {shallow}");
                assert!(slope > 0.0 && sigma > 0.0);
            }
        }
        assert_eq!(t.rule(30, MIN_DEPTH - 1), None);
    }

    #[test]
    fn a_bad_line_is_named() {
        let err = Table::parse("# ok\n20 25 4 2 1.0 0.0 abc 10\n").unwrap_err();
        assert!(err.contains("line 2"), "{err}");
        assert!(Table::parse("20 25 4 5 1.0 0.0 100 10\n").is_err());
    }

    #[test]
    fn the_shallow_depth_keeps_parity_and_halves() {
        for d in MIN_DEPTH..40 {
            let s = shallow_depth(d);
            assert!((0..d).contains(&s));
            assert_eq!((d - s) % 2, 0);
        }
        assert_eq!(shallow_depth(8), 4);
    }

    #[test]
    fn deeper_than_the_table_keeps_the_gap() {
        let t = Table::parse("20 30 2 0 1.0 0.0 100 5\n20 30 3 1 1.1 2.0 120 5\n").unwrap();
        assert_eq!(t.rule(25, 3), Some((1, 1.1, 2.0, 120.0)));
        assert_eq!(t.rule(25, 9), Some((7, 1.1, 2.0, 120.0)));
        assert_eq!(t.rule(31, 3), None);
    }
}
