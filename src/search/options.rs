//! How a search is run, as one value: [`SearchOptions`]. The searcher hands a copy to every
//! search board it makes ([`Board::configure`](super::Board::configure)), the Lazy SMP helpers'
//! boards included, so every thread of one search searches the same engine. Nothing about how
//! to search lives in thread-locals or globals.

use crate::search::othello::probcut::STATIC_GATE;

/// The switches of one search. `Copy`: each thread gets its own copy.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Count TT statistics (on) or compile the counting out of the hot path.
    pub count_stats: bool,
    /// Key the table by the smallest of the eight symmetric hashes.
    pub symmetry: bool,
    /// Let the game answer exactly: the Othello endgame solver, Gomoku's threat search (off:
    /// the alpha-beta search alone, `selfplay --b-baseline`).
    pub exact: bool,
    /// Which parts of the Gomoku threat search run inside the alpha-beta search (with `exact`).
    pub threats: ThreatParts,
    /// Multi-ProbCut in the midgame, with this confidence (`None`: every node searched in full;
    /// games without a fitted table ignore it).
    pub probcut: Option<ProbCutConfidence>,
    /// Othello: solve the root's moves near the end for their result alone (win, draw or
    /// loss) rather than their disc count, which is cheaper and so starts further from the end
    /// (see `othello::WLD_GAP`). For matches, where only the result counts (`nboard`); off
    /// where people read the scores (`play`, the bench).
    pub win_loss_draw: bool,
    /// Othello, with `win_loss_draw`: how many plies beyond `othello::WLD_GAP` the root's moves
    /// already get probable result solves, each ply further out one selective pass less sure
    /// (`othello::EARLY_RESULT_PLIES`). For a search on the clock (`nboard --move-ms`), where
    /// an iteration that does not finish costs only time the move has anyway; 0 elsewhere,
    /// where one ply gets them, as sure as the outermost
    /// (`othello::FIXED_DEPTH_EARLY_RESULT_PLIES`).
    pub early_result_plies: u8,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            count_stats: true,
            symmetry: false,
            exact: true,
            threats: ThreatParts::default(),
            probcut: Some(ProbCutConfidence::default()),
            win_loss_draw: false,
            early_result_plies: 0,
        }
    }
}

/// How sure a Multi-ProbCut prediction must be to cut a node: with `depth` plies left, the
/// shallow search's predicted score must clear the window by `t = (base + per_depth · depth) /
/// 100` fitted standard deviations. `t` grows with depth, so the costly nodes near the root
/// (whose errors matter most) are cut only on surer predictions. The default, `100,5`, was
/// measured at equal time (Othello selfplay, 40 XOT games, 50 ms a move): against Multi-ProbCut
/// off 33-7 (+9.75 discs a game); against `150,10` and `60,5` 18-18-4 each, so the cheaper
/// fixed-depth searches decided (depth 12 against NTest, 40 games: `100,5` 52.5% in 18.7 s of
/// thinking, `150,10` 35% in 61 s). Checked again at equal time against NTest at depth 16 with
/// `nboard --move-ms 64` and no depth cap on ours (`set depth 60`), the four 40-game XOT sets
/// (the shipped order, `--shuffle --seed 7`, `11`, `13`), beside another match: `100,5` 41.2 /
/// 36.3 / 28.7 / 40.0%, so 36.6%; `150,5` 23.8 / 31.2 / 18.8 / 30.0%, so 26.0%; `70,5` 36.3 /
/// 26.2 / 25.0 / 40.0%, so 31.9%, each thinking 59–63 s against NTest's 60–90 s. Later, on the
/// six sets of [`BUDGET_SHARES`](crate::protocol::nboard::BUDGET_SHARES), the two side by side:
/// `100,5` 29.8% (55-152-33), `130,5` 25.0% (47-167-26), each thinking 367–371 s against
/// NTest's 469–479 s. Yet `130,5` chose better moves on 290 single positions of those games
/// (next to [`crate::search::othello`]'s move-loss table: 0.32 discs lost a move against 0.44):
/// single positions, searched without the table the game before them leaves, do not rank
/// confidences as games do. The same again for a floor of `150,5` on nodes with at most 32
/// empties (where `100,5` lost the most there: 0.66-0.70 discs a move at 30 empties in three
/// runs, the floor 0.29, and 0.40 against 0.65 at 26 empties, solved exactly): 27.9%
/// (54-160-26) against `100,5`'s 33.3% (64-144-32) side by side, each thinking 361–362 s.
/// Pruning more does not pay either: NTest's own rule, a flat 1.0 (`100,0`; 0.37 discs a move
/// on the single positions against 0.40–0.44), scored 27.5% (53-161-26) against `100,5`'s 34.8%
/// (68-141-31) side by side. In four such runs on one day `100,5` scored 31.0, 29.8, 33.3 and
/// 34.8%: 32.2% of 960 games. With the Multi-ProbCut table fitted on the search's own nodes
/// (session 56, see [`probcut`](super::othello::probcut)), whose smaller σ make the same
/// confidence cut more: `130,5` 35.6% (67-136-37) beside `100,5` at 34.4% (61-136-43), so
/// `100,5` stays (35.0% of 480 games in the session).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ProbCutConfidence {
    /// `t` at depth 0, in hundredths of a standard deviation.
    pub base: u16,
    /// What each ply of depth adds to `t`, in hundredths.
    pub per_depth: u16,
    /// The static gate in the game's unit (Othello: centi-discs), or `None` to try every check:
    /// a shallow search is tried only where the static evaluation comes within this of the
    /// bound it must clear (see [`ProbCut`](crate::search::ProbCut) and
    /// [`STATIC_GATE`]).
    pub gate: Option<u16>,
}

impl ProbCutConfidence {
    /// The confidence `t` for a node with `depth` plies left, in standard deviations.
    pub fn t(&self, depth: i32) -> f32 {
        (self.base as f32 + self.per_depth as f32 * depth.max(0) as f32) / 100.0
    }

    /// The same confidence without a static gate: every check is tried.
    pub const fn ungated(self) -> ProbCutConfidence {
        ProbCutConfidence { gate: None, ..self }
    }

    /// The gate as a command line gives it: its value, or `off`.
    pub fn gate_text(&self) -> String {
        self.gate.map_or_else(|| "off".into(), |g| g.to_string())
    }
}

/// As a command line gives it: `BASE,PER_DEPTH,GATE` or `BASE,PER_DEPTH,off`.
impl std::fmt::Display for ProbCutConfidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{},{}", self.base, self.per_depth, self.gate_text())
    }
}

/// Multi-ProbCut as given on a command line: `off`, or `BASE,PER_DEPTH[,GATE]` — the confidence
/// in hundredths of a standard deviation, then the static gate in the game's unit or `off`
/// (default: [`STATIC_GATE`]; see
/// [`ProbCutConfidence`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ProbCutSpec(pub Option<ProbCutConfidence>);

impl std::str::FromStr for ProbCutSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<ProbCutSpec, String> {
        if s.trim() == "off" {
            return Ok(ProbCutSpec(None));
        }
        let bad =
            || format!("probcut {s:?}: expected `off` or BASE,PER_DEPTH[,GATE|off] (e.g. 100,5)");
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let (base, per_depth, gate) = match parts[..] {
            [base, per_depth] => (base, per_depth, None),
            [base, per_depth, gate] => (base, per_depth, Some(gate)),
            _ => return Err(bad()),
        };
        let gate = match gate {
            None => Some(STATIC_GATE),
            Some("off") => None,
            Some(g) => Some(g.parse().map_err(|_| bad())?),
        };
        Ok(ProbCutSpec(Some(ProbCutConfidence {
            base: base.parse().map_err(|_| bad())?,
            per_depth: per_depth.parse().map_err(|_| bad())?,
            gate,
        })))
    }
}

impl Default for ProbCutConfidence {
    fn default() -> Self {
        ProbCutConfidence {
            base: 100,
            per_depth: 5,
            gate: Some(STATIC_GATE),
        }
    }
}

/// The Gomoku engine's threat answers, separately switchable for measuring each: the three seams
/// of the threat search (see [`hooks`](super::threats::hooks)) and the quiescence search of fours
/// (see [`Board::quiescence_moves`](super::Board::quiescence_moves)).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ThreatParts {
    /// Root analysis: replies that lose to the opponent's threat win are left out (on).
    pub root: bool,
    /// Leaf VCF: a short VCF at the horizon turns a leaf into a proven win (off: it costs more
    /// than it finds).
    pub leaf: bool,
    /// Forced defences: at nodes where the opponent threatens two five points, only the moves
    /// that do not lose at once are searched (on).
    pub defence: bool,
    /// Quiescence: at the horizon the side to move's fours near its last stone are searched,
    /// each with its forced block, against the static evaluation (on; leaf VCF's cheaper
    /// successor, inside the main search).
    pub quiescence: bool,
}

impl Default for ThreatParts {
    fn default() -> Self {
        ThreatParts {
            root: true,
            leaf: false,
            defence: true,
            quiescence: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(s: &str) -> Result<Option<ProbCutConfidence>, String> {
        s.parse::<ProbCutSpec>().map(|p| p.0)
    }

    #[test]
    fn a_probcut_spec_reads_its_confidence_and_gate() {
        let with = |gate| ProbCutConfidence {
            base: 250,
            per_depth: 5,
            gate,
        };
        assert_eq!(spec("off"), Ok(None));
        assert_eq!(spec("250,5"), Ok(Some(with(Some(STATIC_GATE)))));
        assert_eq!(spec(" 250 , 5 , off "), Ok(Some(with(None))));
        assert_eq!(spec("250,5,40"), Ok(Some(with(Some(40)))));
        for bad in [
            "", "250", "250,", "250,5,", "250,5,-1", "250,5,on", "1,2,3,4", "a,5",
        ] {
            let err = spec(bad).unwrap_err();
            assert!(err.starts_with("probcut"), "{bad:?}: {err}");
        }
        // What a book or a report writes reads back the same.
        for c in [with(None), with(Some(40)), ProbCutConfidence::default()] {
            assert_eq!(spec(&c.to_string()), Ok(Some(c)));
        }
        assert_eq!(with(Some(40)).ungated(), with(None));
    }
}
