//! The study screens' flow: the lesson (`L`), the step-through (`x`) and the strategy
//! comparison (`c`) take the keys while open; the engine's move waits until they close.

use super::*;
use crate::ui::scroll;

impl App {
    pub(super) fn lesson_key(&mut self, key: KeyEvent) {
        let (max, at) = (self.drawn.overlay_max_scroll, self.drawn.overlay_scroll);
        let Mode::Lesson(lesson) = &mut self.mode else {
            return;
        };
        if let Some(by) = scroll::key_lines(key.code) {
            lesson.scroll_by(at, by, max);
            return;
        }
        match key.code {
            KeyCode::Right | KeyCode::Char('l' | ' ') | KeyCode::Enter => lesson.next(),
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Backspace => lesson.prev(),
            KeyCode::Home => {
                lesson.pos = 0;
                lesson.follow = true;
            }
            KeyCode::End => {
                lesson.pos = lesson.last();
                lesson.follow = true;
            }
            KeyCode::Esc | KeyCode::Char('L' | 'q') => {
                // The lesson remembers where it was for the next visit.
                self.lesson_at = lesson.pos;
                self.leave_study("back to the game");
            }
            _ => {}
        }
    }

    pub(super) fn step_key(&mut self, key: KeyEvent) {
        let Mode::Step(step) = &mut self.mode else {
            return;
        };
        match key.code {
            KeyCode::Right | KeyCode::Char('l' | ' ') | KeyCode::Enter => step.next(),
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Backspace => step.prev(),
            KeyCode::Home => step.pos = 0,
            KeyCode::End => step.pos = step.last(),
            KeyCode::Esc | KeyCode::Char('x' | 'q') => self.leave_study("step-through closed"),
            _ => {}
        }
    }

    pub(super) fn compare_key(&mut self, key: KeyEvent) {
        let running = self.compare_running.is_some();
        let Mode::Compare(view) = &mut self.mode else {
            return;
        };
        let (depth, kib) = (view.plan.depth, view.plan.kib);
        if let Some(by) = scroll::key_lines(key.code) {
            view.scroll = scroll::moved(view.scroll, by, self.drawn.overlay_max_scroll);
            return;
        }
        match key.code {
            KeyCode::Esc if running => {
                self.stop_compare();
                self.info("comparison cancelled (Esc again closes it)");
            }
            KeyCode::Esc | KeyCode::Char('c' | 'q') => {
                self.stop_compare();
                self.leave_study(if running {
                    "comparison cancelled and closed"
                } else {
                    "comparison closed"
                });
            }
            KeyCode::Char('r') if !running => self.open_compare(Some(depth), Some(kib)),
            KeyCode::Char('[') if !running => {
                self.open_compare(Some(depth), Some((kib / 2).max(lab::MIN_KIB)))
            }
            KeyCode::Char(']') if !running => {
                self.open_compare(Some(depth), Some((kib * 2).min(lab::MAX_KIB)))
            }
            KeyCode::Char('-') if !running && depth > 1 => {
                self.open_compare(Some(depth - 1), Some(kib))
            }
            KeyCode::Char('+' | '=') if !running => self.open_compare(Some(depth + 1), Some(kib)),
            _ => {}
        }
    }

    /// Stop the running comparison, if any; its screen stays, marked cancelled.
    pub(super) fn stop_compare(&mut self) {
        if self.compare_running.take().is_some() {
            self.engine.stop();
            if let Mode::Compare(v) = &mut self.mode {
                v.state = RunState::Cancelled;
                for row in &mut v.rows {
                    row.live = None;
                }
            }
        }
    }

    /// A study screen takes the keys: the engine's move waits until it closes.
    pub(super) fn hold(&mut self, mode: Mode) {
        if self.search_purpose() == Some(Purpose::Move) {
            self.cancel_search();
        }
        self.mode = mode;
    }

    /// Back to the game; the engine moves if it is its turn.
    pub(super) fn leave_study(&mut self, note: &str) {
        self.mode = Mode::Normal;
        if !note.is_empty() {
            self.info(note);
        }
        self.advance();
    }

    pub(super) fn open_lesson(&mut self) {
        let mut lesson = LessonView::default();
        lesson.pos = self.lesson_at.min(lesson.last());
        self.hold(Mode::Lesson(Box::new(lesson)));
        self.info("lesson 1: → or space steps, Esc returns to the game");
    }

    pub(super) fn open_step(&mut self) {
        let Some(delta) = with_game!(&self.game, g => g.last_delta()) else {
            return self.error("no move yet to step through");
        };
        let mut before = self.game.clone();
        let Some(mv) = with_game!(&mut before, g => g.undo()) else {
            return self.error("no move yet to step through");
        };
        let cells = delta
            .terms
            .iter()
            .map(|t| self.game.name(Move::at(t.cell)))
            .collect();
        let step = StepView::new(
            self.game.history().len(),
            before.side_to_move(),
            before.name(mv),
            cells,
            delta,
        );
        self.hold(Mode::Step(Box::new(step)));
        // On small screens the step-through is the XOR-terms tab: show it.
        self.tab = Tab::Xor;
        self.info("step-through: → applies the next XOR term, Esc or x leaves");
    }

    /// Start a comparison at `depth` on tables of `kib` KiB (0: the game's table size); the
    /// defaults for the game where not given (the last comparison's depth and size on a rerun).
    pub(super) fn open_compare(&mut self, depth: Option<u32>, kib: Option<usize>) {
        if let Some(end) = outcome_text(&self.game) {
            return self.error(format!("the game is over ({end}): nothing to search"));
        }
        let kind = self.game.kind();
        let max = lab::max_depth(kind);
        let (d0, k0) = lab::defaults(kind);
        let depth = depth.unwrap_or(d0);
        if depth > max {
            return self.error(format!(
                "comparison depth {depth} too deep for {kind}: 1 to {max}"
            ));
        }
        let game_kib = self.settings.tt_mib * 1024;
        let kib = match kib {
            Some(0) => game_kib.min(lab::MAX_KIB),
            Some(k) => k,
            None => k0,
        };
        let note = if (depth, kib) == (d0, k0) {
            format!("the defaults for {kind}: a table small enough that strategies must choose")
        } else if kib == game_kib {
            "the game's own table size (:tt)".to_string()
        } else {
            "as asked (:compare DEPTH SIZE; [ ] halve / double the table, - + the depth)".into()
        };
        let mut plan = Plan::new(depth, kib, self.settings.check_bits);
        plan.chart = Some(self.settings.policy);
        self.cancel_search();
        self.stop_compare();
        let id = self.next_id;
        self.next_id += 1;
        self.engine.compare(id, self.game.clone(), plan.clone());
        self.compare_running = Some(id);
        let game_slots = self.settings.tt_mib * (1 << 20) / crate::tt::SLOT_BYTES;
        let view = CompareView::new(
            id,
            kind,
            plan,
            compare::describe(&self.game),
            note,
            game_slots,
        );
        self.hold(Mode::Compare(Box::new(view)));
        self.info(format!(
            "comparing every strategy at depth {depth} on {kib} KiB tables: Esc cancels"
        ));
    }

    pub(super) fn on_compare(&mut self, report: &Report) {
        let game = &self.game;
        let Mode::Compare(view) = &mut self.mode else {
            return;
        };
        if !view.absorb(report, |m| game.name(m)) {
            return;
        }
        if let Report::CompareDone { cancelled, .. } = report {
            self.compare_running = None;
            if !*cancelled {
                let outcomes = view.outcomes();
                let text =
                    compare::reading(&outcomes).unwrap_or_else(|| "comparison done".to_string());
                self.info(format!("{text} (r again, Esc closes)"));
            }
        }
    }
}
