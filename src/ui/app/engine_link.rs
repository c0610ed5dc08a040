//! The link to the engine thread: searches started and stopped by id, reports taken in (a
//! stale one changes nothing), results played or shown as hints, and the table's settings.

use super::*;

impl App {
    pub(super) fn set_policy(&mut self, policy: Policy) {
        let mid_search = self.thinking();
        let from = self.settings.policy;
        self.engine.set_policy(policy);
        self.settings.policy = policy;
        self.tt.switch(from, policy, mid_search);
        let when = if mid_search {
            " (switched mid-search)"
        } else {
            ""
        };
        self.info(format!(
            "strategy {}: {}{when}",
            policy.name(),
            policy.describe()
        ));
    }

    pub(super) fn set_tt_mib(&mut self, mib: usize) {
        // A new table cannot be swapped in under a running search: stop it, resize, and let
        // `advance` restart the engine's move if it was thinking.
        self.cancel_search();
        self.engine.set_tt_mib(mib);
        self.settings.tt_mib = mib;
        self.tt.resize(mib);
        self.info(format!("transposition table {mib} MiB (empty)"));
        self.advance();
    }

    pub(super) fn set_check_bits(&mut self, bits: u32) {
        self.engine.set_check_bits(bits);
        self.settings.check_bits = bits;
        self.tt.check_bits = bits;
        let note = if bits < 64 {
            " — fewer bits: other positions may be accepted (false matches)"
        } else {
            ""
        };
        self.info(format!("{bits} check bits{note}"));
    }

    pub(super) fn start_search(&mut self, purpose: Purpose) {
        self.cancel_search();
        let id = self.next_id;
        self.next_id += 1;
        self.engine
            .search(id, self.game.clone(), self.settings.limits());
        self.pending = Some(Pending {
            id,
            purpose,
            hash: self.game.hash(),
            ply: self.game.history().len(),
        });
        let side = self.game.side_to_move();
        self.search.start(match purpose {
            Purpose::Move => Activity::Thinking(side),
            Purpose::Hint => Activity::Hinting(side),
        });
    }

    /// Stop the running search, if any, and forget it: its reports become stale.
    pub(super) fn cancel_search(&mut self) {
        if self.pending.take().is_some() {
            self.engine.stop();
            self.search.activity = if self.paused {
                Activity::Paused
            } else {
                Activity::Idle
            };
        }
    }

    pub(super) fn on_report(&mut self, report: Report, now: Instant) {
        match report {
            Report::Progress { id, search, tt } => {
                // A stopped search's last snapshots change nothing (paused means still).
                if !self.is_current(id) {
                    return;
                }
                self.tt.absorb(&tt, now, false);
                {
                    let game = &self.game;
                    self.search.absorb(&search, game.kind(), |m| game.name(m));
                }
            }
            Report::Done { id, search, tt } => {
                let current = self.is_current(id);
                // A stopped search's final counters are taken in, but not while paused.
                if current || !self.paused {
                    self.tt.absorb(&tt, now, true);
                }
                if !current {
                    return;
                }
                let game = &self.game;
                self.search.absorb(&search, game.kind(), |m| game.name(m));
                let Some(p) = self.pending.take() else {
                    return;
                };
                self.search.finish(if self.paused {
                    Activity::Paused
                } else {
                    Activity::Idle
                });
                if p.hash != self.game.hash() || p.ply != self.game.history().len() {
                    return;
                }
                self.finish(p.purpose, search.best);
            }
            Report::CompareProgress { .. }
            | Report::CompareRow { .. }
            | Report::CompareDone { .. } => self.on_compare(&report),
            Report::Error(e) => {
                self.error(format!("engine: {e}"));
                if self.pending.take().is_some() {
                    self.search.finish(Activity::Idle);
                }
            }
        }
    }

    pub(super) fn is_current(&self, id: u64) -> bool {
        self.pending.as_ref().is_some_and(|p| p.id == id)
    }

    pub(super) fn finish(&mut self, purpose: Purpose, best: Option<Move>) {
        let Some(mv) = best else {
            return self.error("the engine found no move");
        };
        let name = self.game.name(mv);
        match purpose {
            Purpose::Hint => {
                self.hint = Some(mv);
                if let Some(c) = mv.cell() {
                    self.cursor = c;
                }
                let score = self.search.score.clone();
                self.info(format!(
                    "hint: {name} (score {score}) — the cursor is on it, Enter plays it"
                ));
            }
            Purpose::Move => {
                if self.paused {
                    return;
                }
                let side = self.game.side_to_move();
                match with_game!(&mut self.game, g => g.try_play(mv)) {
                    Ok(_) => {
                        self.redo.clear();
                        self.notice = None;
                        let found = match self.search.best_unfinished {
                            Some(d) => format!("; found in unfinished depth {d}"),
                            None => String::new(),
                        };
                        self.info(format!(
                            "engine {} played {name} (score {}, depth {}{found})",
                            stone_glyph(side),
                            self.search.score,
                            self.search.depth
                        ));
                        self.after_position_change();
                    }
                    Err(e) => {
                        self.paused = true;
                        self.search.activity = Activity::Paused;
                        self.error(format!(
                            "the engine proposed {name}, which is not legal here ({e}); paused"
                        ));
                    }
                }
            }
        }
    }
}
