//! The play flow: the person's moves, undo and redo, new games (the replaced one stays
//! undoable), passes, the end of the game, and when the engine moves.

use super::*;

impl App {
    pub(super) fn move_cursor(&mut self, dx: i32, dy: i32) {
        let (w, h) = (self.game.width() as i32, self.game.height() as i32);
        let x = (self.cursor as i32 % w + dx).clamp(0, w - 1);
        let y = (self.cursor as i32 / w + dy).clamp(0, h - 1);
        self.cursor = (y * w + x) as usize;
    }

    pub(super) fn play_cursor(&mut self) {
        self.play_human(Move::at(self.cursor));
    }

    /// The person plays `mv`, if it is their turn and the move is legal.
    pub(super) fn play_human(&mut self, mv: Move) {
        if let Some(end) = outcome_text(&self.game) {
            return self.error(format!("the game is over ({end}); n starts a new one"));
        }
        let side = self.game.side_to_move();
        if !self.settings.human.plays(side) {
            let what = if self.search_purpose() == Some(Purpose::Move) {
                "it is thinking; e makes it move now"
            } else if self.paused {
                "it is paused; p resumes it, e makes it move"
            } else {
                "e makes it move now"
            };
            return self.error(format!(
                "it is the engine's turn ({} {}): {what}",
                stone_glyph(side),
                side.name()
            ));
        }
        let name = self.game.name(mv);
        match with_game!(&mut self.game, g => g.try_play(mv)) {
            Ok(_) => {
                self.cancel_search();
                self.redo.clear();
                // The person plays on in the new game: the replaced one is gone for good.
                self.discarded = None;
                self.message = None;
                self.notice = None;
                self.after_position_change();
            }
            Err(e) => self.error(format!("{name}: {e}")),
        }
    }

    pub(super) fn undo(&mut self) {
        if let Some(d) = self.discarded.take() {
            return self.bring_back(d);
        }
        if self.game.history().is_empty() {
            return self.error("nothing to undo");
        }
        self.cancel_search();
        let mut undone = 0;
        while let Some(mv) = with_game!(&mut self.game, g => g.undo()) {
            self.redo.push(mv);
            undone += 1;
            if self.resting() {
                break;
            }
        }
        self.notice = None;
        if self.settings.human == Human::None {
            self.paused = true;
            self.info(format!(
                "took back {}; paused (p resumes, r redoes)",
                format::plural(undone, "move", "moves")
            ));
        } else {
            self.info(format!(
                "took back {} (r redoes)",
                format::plural(undone, "move", "moves")
            ));
        }
        self.cursor_to_last();
        self.after_position_change();
    }

    pub(super) fn redo(&mut self) {
        if self.redo.is_empty() {
            return self.error("nothing to redo");
        }
        self.cancel_search();
        let mut redone = 0;
        while let Some(mv) = self.redo.pop() {
            if with_game!(&mut self.game, g => g.try_play(mv)).is_err() {
                self.redo.clear();
                break;
            }
            redone += 1;
            if self.resting() {
                break;
            }
        }
        self.notice = None;
        self.info(format!(
            "replayed {}",
            format::plural(redone, "move", "moves")
        ));
        self.cursor_to_last();
        self.after_position_change();
    }

    /// A position where undo and redo stop: the person's turn (any turn when the person plays
    /// both sides or none), not a forced pass; or the end of the game.
    pub(super) fn resting(&self) -> bool {
        if self.game.outcome().is_some() {
            return true;
        }
        if self.game.must_pass() {
            return false;
        }
        match self.settings.human {
            Human::Both | Human::None => true,
            h => h.plays(self.game.side_to_move()),
        }
    }

    pub(super) fn cursor_to_last(&mut self) {
        if let Some(c) = self.game.last_placement() {
            self.cursor = c;
        }
    }

    /// `u` right after `n`, `g` or `:game`: the replaced game comes back as it was.
    pub(super) fn bring_back(&mut self, d: Discarded) {
        self.cancel_search();
        self.settings.spec = d.spec;
        self.game = d.game;
        self.redo = d.redo;
        self.fresh_views();
        self.cursor_to_last();
        self.info(format!(
            "the previous game is back: {} · {}",
            self.game.label(),
            format::plural(self.game.history().len() as u64, "move", "moves")
        ));
        self.after_position_change();
    }

    /// Start a new game; the one replaced stays undoable (`u`) until the person moves.
    pub(super) fn new_game(&mut self) {
        self.new_game_keeping(self.settings.spec.clone());
    }

    /// After the game itself was replaced: no notice, the cursor at the start, and the engine's
    /// table and the panels that describe it empty.
    pub(super) fn fresh_views(&mut self) {
        self.notice = None;
        self.cursor = start_cursor(&self.game);
        self.engine.clear();
        self.tt.reset();
        self.search = SearchView::default();
    }

    pub(super) fn new_game_keeping(&mut self, previous: GameSpec) {
        let game = match self.settings.spec.start() {
            Ok(g) => g,
            Err(e) => return self.error(e.to_string()),
        };
        self.cancel_search();
        let old = std::mem::replace(&mut self.game, game);
        if !old.history().is_empty() {
            self.discarded = Some(Discarded {
                game: old,
                redo: std::mem::take(&mut self.redo),
                spec: previous,
            });
        }
        self.redo.clear();
        self.fresh_views();
        let back = if self.discarded.is_some() {
            " (u brings the previous game back)"
        } else {
            ""
        };
        self.info(format!("new game: {}{back}", self.game.label()));
        self.after_position_change();
    }

    pub(super) fn switch_game(&mut self, kind: GameKind, size: Option<usize>) {
        let before = self.settings.spec.clone();
        self.settings.spec.game = kind;
        if let Some(n) = size {
            self.settings.spec.size = n;
        }
        if let Err(e) = self.settings.spec.start() {
            self.settings.spec = before;
            return self.error(e.to_string());
        }
        self.new_game_keeping(before);
    }

    pub(super) fn set_human(&mut self, human: Human) {
        self.settings.human = human;
        if self.search_purpose() == Some(Purpose::Move) && human.plays(self.game.side_to_move()) {
            self.cancel_search();
        }
        self.info(match human {
            Human::Black | Human::White => format!("you play {}", stone_glyph_name(human)),
            Human::Both => "you play both sides".to_string(),
            Human::None => "the engine plays both sides".to_string(),
        });
        self.advance();
    }

    pub(super) fn hint(&mut self) {
        if let Some(end) = outcome_text(&self.game) {
            return self.error(format!("the game is over ({end})"));
        }
        if !self.settings.human.plays(self.game.side_to_move()) {
            return self.error("hints are for your turn");
        }
        self.info("looking for a hint…");
        self.start_search(Purpose::Hint);
    }

    /// `e`: while the engine thinks about its move, move now; otherwise the engine takes over
    /// the side to move and the person gets the other side.
    pub(super) fn engine_now(&mut self) {
        if self.search_purpose() == Some(Purpose::Move) {
            self.engine.stop();
            return self.info("moving now: the engine plays its best move so far");
        }
        if let Some(end) = outcome_text(&self.game) {
            return self.error(format!("the game is over ({end})"));
        }
        let side = self.game.side_to_move();
        self.cancel_search();
        self.paused = false;
        if self.settings.human != Human::None {
            self.settings.human = Human::only(side.opponent());
        }
        self.info(format!(
            "the engine plays {} {} now; you play {} {}",
            stone_glyph(side),
            side.name(),
            stone_glyph(side.opponent()),
            side.opponent().name()
        ));
        self.advance();
    }

    pub(super) fn toggle_pause(&mut self) {
        self.paused = !self.paused;
        if self.paused {
            // Paused means still: a hint being searched stops too, so no counter keeps rising.
            self.cancel_search();
            self.search.activity = Activity::Paused;
            self.info("paused: the engine will not move (p resumes)");
        } else {
            if self.search.activity == Activity::Paused {
                self.search.activity = Activity::Idle;
            }
            self.info("resumed");
            self.advance();
        }
    }

    pub(super) fn after_position_change(&mut self) {
        self.hint = None;
        self.advance();
        self.refresh_deltas();
        self.keep();
    }

    /// Play forced passes, announce the end, and start the engine if it is its turn.
    pub(super) fn advance(&mut self) {
        let mut passed = None;
        while self.game.must_pass() {
            let side = self.game.side_to_move();
            if with_game!(&mut self.game, g => g.try_play(Move::PASS)).is_err() {
                break;
            }
            passed = Some(side);
        }
        if let Some(side) = passed {
            self.notice = Some(format!(
                "{} {} has no move and passes",
                stone_glyph(side),
                side.name()
            ));
            self.refresh_deltas();
        }
        if let Some(end) = outcome_text(&self.game) {
            self.notice = Some(format!("game over: {end} (n: new game)"));
            return;
        }
        let side = self.game.side_to_move();
        if !self.paused
            && !self.holding()
            && !self.settings.human.plays(side)
            && self.search_purpose() != Some(Purpose::Move)
        {
            if let Some((mv, choices)) = self.book_move() {
                self.cancel_search();
                return self.play_book(mv, choices);
            }
            self.cancel_search();
            self.start_search(Purpose::Move);
        }
    }

    /// Recompute the XOR terms of the last [`DELTA_ROWS`] moves from the game record.
    pub(super) fn refresh_deltas(&mut self) {
        let mut g = self.game.clone();
        let keys = with_game!(&g, x => x.keys());
        let mut rows = Vec::with_capacity(DELTA_ROWS);
        while rows.len() < DELTA_ROWS {
            let after = g.hash();
            let recomputed = g.recompute_hash();
            let Some(mv) = with_game!(&mut g, x => x.undo()) else {
                break;
            };
            let changes = with_game!(&g, x => x.changes(mv));
            rows.push(DeltaRow {
                ply: g.history().len() + 1,
                side: g.side_to_move(),
                name: g.name(mv),
                cells: changes.iter().map(|c| g.name(Move::at(c.cell))).collect(),
                delta: Delta::new(keys, g.hash(), &changes, after),
                recomputed,
            });
        }
        self.deltas = rows;
        self.refresh_opening();
    }
}

pub(super) fn stone_glyph_name(human: Human) -> String {
    let side = if human == Human::White {
        Side::White
    } else {
        Side::Black
    };
    format!("{} {}", stone_glyph(side), side.name())
}

/// Where the cursor starts: f5 in Othello (the usual first move), the centre in Gomoku.
pub(super) fn start_cursor(game: &AnyGame) -> usize {
    match game {
        AnyGame::Othello(_) => 4 * 8 + 5,
        AnyGame::Gomoku(g) => g.index(g.size() / 2, g.size() / 2),
    }
}
