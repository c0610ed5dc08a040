//! The model of the game screen and everything that changes it.
//!
//! [`App`] owns the game record, the cursor, the command line, the panels' view models and the
//! engine handle. [`App::update`] takes one [`Event`] at a time (a key, a click, a tick, an engine
//! report) and is the only place the model changes; drawing (`super::view`) only reads it.
//!
//! Promises:
//! - input never panics and a refused key or command changes nothing but the status message;
//! - the engine is reached only through its handle, never waited for: a search is started with a
//!   fresh id, and a result is played only if its id is the current one *and* the position is
//!   still the one that was sent (anything else is dropped as stale);
//! - a move the engine proposes is checked for legality before it is played;
//! - while a study screen has the keys (the lesson `L`, the step-through `x`, the strategy
//!   comparison `c`) the game waits: the engine does not start its move until the screen closes;
//! - with [`Settings::keep`] set, the game is written there (atomically) after every change and on
//!   quit, so `--resume` finds it after a crash or a closed terminal.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect};

use super::command::{self, Cmd, Edit, LineEdit};
use super::compare::{self, CompareView, RunState};
use super::event::Event;
use super::format;
use super::lesson::LessonView;
use super::position::{AnyGameExt, outcome_text, stone_glyph};
use super::search::{Activity, BookMove, SearchView};
use super::step::StepView;
use super::tt::TtView;
use super::view::Tab;
use crate::book::Book;
use crate::commands::{AnyGame, CommandError, GameSpec};
use crate::engine::compare::{self as lab, Plan};
use crate::engine::{Engine, Report};
use crate::game::{Game, GameKind, Move, Side};
use crate::record::{self, Format, Record};
use crate::search::Limits;
use crate::tt::Policy;
use crate::with_game;
use crate::zobrist::{Delta, Keys};

/// Engine time per move when neither `--time-ms` nor `--depth` is given.
pub const DEFAULT_TIME_MS: u64 = 2000;
/// Command lines remembered for ↑/↓.
const HISTORY: usize = 100;
/// How many recent moves the XOR-terms panel can show.
pub const DELTA_ROWS: usize = 8;

/// Who the person at the keyboard plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Human {
    Black,
    White,
    /// Both sides (the engine only gives hints).
    Both,
    /// Neither: the engine plays itself (a demo).
    None,
}

impl Human {
    /// Whether the person moves for `side`.
    pub fn plays(self, side: Side) -> bool {
        match self {
            Human::Black => side == Side::Black,
            Human::White => side == Side::White,
            Human::Both => true,
            Human::None => false,
        }
    }

    /// The person playing exactly `side`.
    pub fn only(side: Side) -> Human {
        match side {
            Side::Black => Human::Black,
            Side::White => Human::White,
        }
    }
}

/// What the person chose on the command line (and may change from the command line `:`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub spec: GameSpec,
    pub human: Human,
    /// Engine time per move; `None` with no depth means [`DEFAULT_TIME_MS`].
    pub time_ms: Option<u64>,
    pub depth: Option<u32>,
    pub tt_mib: usize,
    pub policy: Policy,
    pub check_bits: u32,
    /// The engine plays book replies while an Othello game follows a named opening.
    pub book: bool,
    /// Start from the game in this file (`play --load FILE`).
    pub load: Option<PathBuf>,
    /// Start from the kept game (`play --resume`).
    pub resume: bool,
    /// Where the current game is kept for `--resume` (`None`: not kept, e.g. in tests).
    pub keep: Option<PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            spec: GameSpec::default(),
            human: Human::Black,
            time_ms: None,
            depth: None,
            tt_mib: 64,
            policy: Policy::TwoTier,
            check_bits: 64,
            book: false,
            load: None,
            resume: false,
            keep: None,
        }
    }
}

impl Settings {
    /// The search limits these settings give.
    pub fn limits(&self) -> Limits {
        let time_ms = match (self.time_ms, self.depth) {
            (Some(ms), _) => Some(ms),
            (None, None) => Some(DEFAULT_TIME_MS),
            (None, Some(_)) => None,
        };
        Limits {
            depth: self.depth,
            time: time_ms.map(Duration::from_millis),
            nodes: None,
        }
    }
}

/// What the keyboard is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Keys move the cursor and run actions.
    Normal,
    /// Typing after `:`; holds the line so far and its cursor.
    Command(LineEdit),
    /// The help overlay is open, scrolled by this many lines.
    Help(u16),
    /// The lesson screen (`L`) is open.
    Lesson,
    /// Stepping through the last move's XOR terms (`x`).
    Step,
    /// The strategy comparison (`c`) is open, with its model.
    Compare(Box<CompareView>),
}

/// The one-line message in the status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub text: String,
    pub error: bool,
}

/// Why a search runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The engine's own move: played when done.
    Move,
    /// A hint for the person: marked on the board when done.
    Hint,
}

#[derive(Clone, Debug)]
struct Pending {
    id: u64,
    purpose: Purpose,
    hash: u64,
    ply: usize,
}

/// Geometry of the last frame, recorded by the view so clicks map to what was drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Drawn {
    /// Each board cell's rectangle on screen and its cell index.
    pub cells: Vec<(Rect, usize)>,
    /// The open overlay's largest scroll offset (0 when it fits), and the offset drawn.
    pub overlay_max_scroll: u16,
    pub overlay_scroll: u16,
    /// The tab bar's names and their rectangles (tabbed layout only).
    pub tabs: Vec<(Rect, Tab)>,
    /// The tabs the layout offers (empty when every panel is shown).
    pub tab_list: Vec<Tab>,
}

/// One recent move's XOR terms, for the XOR-terms panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeltaRow {
    /// 1-based ply number of the move.
    pub ply: usize,
    /// Who moved.
    pub side: Side,
    /// The move's name (`f5`, `h8`, `pa`).
    pub name: String,
    /// The name of each term's cell, parallel to `delta.terms`.
    pub cells: Vec<String>,
    pub delta: Delta,
    /// The hash of the position after the move computed from scratch.
    pub recomputed: u64,
}

impl DeltaRow {
    /// The incremental hash equals the XOR of the terms and the full recompute.
    pub fn verified(&self) -> bool {
        self.delta.replay() == self.delta.after && self.delta.after == self.recomputed
    }
}

/// The whole model of the game screen.
pub struct App {
    pub settings: Settings,
    pub game: AnyGame,
    /// Moves taken back, the next to redo last.
    pub redo: Vec<Move>,
    pub cursor: usize,
    pub hint: Option<Move>,
    pub mode: Mode,
    pub message: Option<Message>,
    /// A standing announcement on the board: a pass, the end of the game.
    pub notice: Option<String>,
    /// The last moves' XOR terms, newest first.
    pub deltas: Vec<DeltaRow>,
    /// The named Othello opening the game has passed through most recently.
    pub opening: Option<String>,
    pub search: SearchView,
    pub tt: TtView,
    pub paused: bool,
    pub quit: bool,
    pub drawn: Drawn,
    /// The side panel shown when the screen is too narrow for all of them (Tab cycles).
    pub tab: Tab,
    /// The lesson screen's model (kept between visits).
    pub lesson: LessonView,
    /// The step-through's model while it is on.
    pub step: Option<StepView>,
    /// The id of the comparison the engine is running, if one runs.
    compare_running: Option<u64>,
    /// Keeping the game for `--resume` failed once (said once, not after every move).
    keep_failed: bool,
    engine: Engine,
    next_id: u64,
    pending: Option<Pending>,
    /// The Othello opening book (by symmetric hash), built for the game's keys.
    book: Option<(u64, Book)>,
    /// The game `n`, `g` or `:game` replaced (with its redo list and settings), for `u` to
    /// bring back until the person moves in the new one.
    discarded: Option<Discarded>,
    /// Command lines run so far (oldest first), for ↑/↓ on the `:` line.
    history: Vec<String>,
}

/// A game replaced by a new one, kept for undo.
struct Discarded {
    game: AnyGame,
    redo: Vec<Move>,
    spec: GameSpec,
}

impl App {
    /// A new game with these settings; starts the engine thread (and its first search if the
    /// engine moves first).
    ///
    /// `settings.load` and `settings.resume` pick the starting game; a file that cannot be read
    /// is an error here, before the screen changes (a damaged kept game only warns and starts a
    /// new one).
    pub fn new(mut settings: Settings) -> Result<App, CommandError> {
        let (game, note) = starting_game(&mut settings)?;
        let engine = Engine::spawn(settings.tt_mib, settings.policy, settings.check_bits);
        let tt = TtView::new(settings.policy, settings.tt_mib, settings.check_bits);
        let mut app = App {
            cursor: start_cursor(&game),
            game,
            settings,
            redo: Vec::new(),
            hint: None,
            mode: Mode::Normal,
            message: None,
            notice: None,
            deltas: Vec::new(),
            opening: None,
            search: SearchView::default(),
            tt,
            paused: false,
            quit: false,
            drawn: Drawn::default(),
            tab: Tab::default(),
            lesson: LessonView::default(),
            step: None,
            compare_running: None,
            keep_failed: false,
            engine,
            next_id: 1,
            pending: None,
            book: None,
            discarded: None,
            history: Vec::new(),
        };
        app.cursor_to_last();
        app.after_position_change();
        if let Some(note) = note {
            // Whatever the start said (a pass, a book move) gives way to the note about the file.
            app.message = Some(note);
        }
        Ok(app)
    }

    /// Whether something runs in the background that the screen shows live: a search or a
    /// comparison (the terminal loop then redraws every frame).
    pub fn busy(&self) -> bool {
        self.thinking() || self.compare_running.is_some()
    }

    /// Whether a study screen holds the game (the engine waits).
    pub fn holding(&self) -> bool {
        matches!(self.mode, Mode::Lesson | Mode::Step | Mode::Compare(_))
    }

    /// Whether a search (a move or a hint) is running.
    pub fn thinking(&self) -> bool {
        self.pending.is_some()
    }

    /// Why the running search runs, if one does.
    pub fn search_purpose(&self) -> Option<Purpose> {
        self.pending.as_ref().map(|p| p.purpose)
    }

    /// Feed every report the engine has sent so far into the model; never blocks.
    pub fn drain_engine(&mut self) -> usize {
        let mut n = 0;
        while let Some(report) = self.engine.try_recv() {
            self.update(Event::Engine(report));
            n += 1;
        }
        n
    }

    /// Apply one event to the model.
    pub fn update(&mut self, event: Event) {
        match event {
            Event::Key(key) => self.on_key(key),
            Event::Mouse(mouse) => self.on_mouse(mouse),
            Event::Resize(..) | Event::Tick => {}
            Event::Engine(report) => self.on_report(report, Instant::now()),
        }
    }

    fn info(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            text: text.into(),
            error: false,
        });
    }

    fn error(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            text: text.into(),
            error: true,
        });
    }

    // ---- keys and mouse -------------------------------------------------------------------

    fn on_key(&mut self, key: KeyEvent) {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && key.code == KeyCode::Char('c') {
            self.request_quit();
            return;
        }
        match &mut self.mode {
            Mode::Command(line) => match line.key(key.code, ctrl, &self.history) {
                Edit::Editing => {}
                Edit::Cancel => self.mode = Mode::Normal,
                Edit::Run(text) => {
                    self.mode = Mode::Normal;
                    if !text.trim().is_empty() && self.history.last() != Some(&text) {
                        self.history.push(text.clone());
                        if self.history.len() > HISTORY {
                            self.history.remove(0);
                        }
                    }
                    self.run_command(&text);
                }
            },
            Mode::Help(scroll) => {
                let max = self.drawn.overlay_max_scroll;
                match key.code {
                    KeyCode::Char('q') => self.request_quit(),
                    KeyCode::Down | KeyCode::Char('j') => *scroll = (*scroll + 1).min(max),
                    KeyCode::Up | KeyCode::Char('k') => *scroll = scroll.saturating_sub(1),
                    KeyCode::PageDown | KeyCode::Char(' ') => *scroll = (*scroll + 10).min(max),
                    KeyCode::PageUp => *scroll = scroll.saturating_sub(10),
                    KeyCode::Home => *scroll = 0,
                    KeyCode::End => *scroll = max,
                    _ => self.mode = Mode::Normal,
                }
            }
            Mode::Lesson => self.lesson_key(key),
            Mode::Step => self.step_key(key),
            Mode::Compare(_) => self.compare_key(key),
            Mode::Normal => self.normal_key(key),
        }
    }

    fn lesson_key(&mut self, key: KeyEvent) {
        let (max, at) = (self.drawn.overlay_max_scroll, self.drawn.overlay_scroll);
        match key.code {
            KeyCode::Down | KeyCode::Char('j') => self.lesson.scroll_by(at, 1, max),
            KeyCode::Up | KeyCode::Char('k') => self.lesson.scroll_by(at, -1, max),
            KeyCode::PageDown => self.lesson.scroll_by(at, 10, max),
            KeyCode::PageUp => self.lesson.scroll_by(at, -10, max),
            KeyCode::Right | KeyCode::Char('l' | ' ') | KeyCode::Enter => self.lesson.next(),
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Backspace => self.lesson.prev(),
            KeyCode::Home => {
                self.lesson.pos = 0;
                self.lesson.follow = true;
            }
            KeyCode::End => {
                self.lesson.pos = self.lesson.last();
                self.lesson.follow = true;
            }
            KeyCode::Esc | KeyCode::Char('L' | 'q') => self.leave_study("back to the game"),
            _ => {}
        }
    }

    fn step_key(&mut self, key: KeyEvent) {
        let Some(step) = self.step.as_mut() else {
            return self.leave_study("");
        };
        match key.code {
            KeyCode::Right | KeyCode::Char('l' | ' ') | KeyCode::Enter => step.next(),
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Backspace => step.prev(),
            KeyCode::Home => step.pos = 0,
            KeyCode::End => step.pos = step.last(),
            KeyCode::Esc | KeyCode::Char('x' | 'q') => {
                self.step = None;
                self.leave_study("step-through closed");
            }
            _ => {}
        }
    }

    fn compare_key(&mut self, key: KeyEvent) {
        let running = self.compare_running.is_some();
        let Mode::Compare(view) = &mut self.mode else {
            return;
        };
        let (depth, kib) = (view.plan.depth, view.plan.kib);
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => view.scroll = view.scroll.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                view.scroll = (view.scroll + 1).min(self.drawn.overlay_max_scroll)
            }
            KeyCode::PageUp => view.scroll = view.scroll.saturating_sub(10),
            KeyCode::PageDown => {
                view.scroll = (view.scroll + 10).min(self.drawn.overlay_max_scroll)
            }
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
    fn stop_compare(&mut self) {
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

    fn normal_key(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Left | KeyCode::Char('h') => self.move_cursor(-1, 0),
            KeyCode::Right | KeyCode::Char('l') => self.move_cursor(1, 0),
            KeyCode::Up | KeyCode::Char('k') => self.move_cursor(0, -1),
            KeyCode::Down | KeyCode::Char('j') => self.move_cursor(0, 1),
            KeyCode::Enter | KeyCode::Char(' ') => self.play_cursor(),
            KeyCode::Char(':') => self.mode = Mode::Command(LineEdit::default()),
            KeyCode::Char('u') => self.undo(),
            KeyCode::Char('r') => self.redo(),
            KeyCode::Char('n') => self.new_game(),
            KeyCode::Char('s') => self.set_policy(self.settings.policy.next()),
            KeyCode::Char('S') => self.set_policy(self.settings.policy.prev()),
            KeyCode::Char('t') => self.hint(),
            KeyCode::Char('e') => self.engine_now(),
            KeyCode::Char('p') => self.toggle_pause(),
            KeyCode::Char('g') => {
                let other = match self.game.kind() {
                    GameKind::Othello => GameKind::Gomoku,
                    GameKind::Gomoku => GameKind::Othello,
                };
                self.switch_game(other, None);
            }
            KeyCode::Char('?') => self.mode = Mode::Help(0),
            KeyCode::Tab | KeyCode::BackTab => {
                let list = if self.drawn.tab_list.is_empty() {
                    Tab::ALL.to_vec()
                } else {
                    self.drawn.tab_list.clone()
                };
                self.tab = self.tab.next_in(&list, key.code == KeyCode::BackTab);
            }
            KeyCode::Char('L') => self.open_lesson(),
            KeyCode::Char('x') => self.open_step(),
            KeyCode::Char('c') => self.open_compare(None, None),
            KeyCode::Char('b') => self.set_book(!self.settings.book),
            KeyCode::Char('q') => self.request_quit(),
            // Esc closes things; on the game itself it never quits (a second Esc after closing
            // an overlay must not end the game).
            KeyCode::Esc => self.info("q quits · ? help"),
            _ => {}
        }
    }

    fn on_mouse(&mut self, mouse: MouseEvent) {
        if mouse.kind != MouseEventKind::Down(MouseButton::Left) {
            return;
        }
        match self.mode {
            Mode::Help(_) => self.mode = Mode::Normal,
            Mode::Command(_) | Mode::Lesson | Mode::Step | Mode::Compare(_) => {}
            Mode::Normal => {
                let at = Position::new(mouse.column, mouse.row);
                if let Some(&(_, tab)) = self.drawn.tabs.iter().find(|(r, _)| r.contains(at)) {
                    self.tab = tab;
                    return;
                }
                let hit = self.drawn.cells.iter().find(|(r, _)| r.contains(at));
                if let Some(&(_, cell)) = hit {
                    self.cursor = cell;
                    self.play_cursor();
                }
            }
        }
    }

    fn move_cursor(&mut self, dx: i32, dy: i32) {
        let (w, h) = (self.game.width() as i32, self.game.height() as i32);
        let x = (self.cursor as i32 % w + dx).clamp(0, w - 1);
        let y = (self.cursor as i32 / w + dy).clamp(0, h - 1);
        self.cursor = (y * w + x) as usize;
    }

    fn play_cursor(&mut self) {
        self.play_human(Move::at(self.cursor));
    }

    // ---- the command line -----------------------------------------------------------------

    /// Run one command-line line (without the `:`); a bad line only sets an error message.
    pub fn run_command(&mut self, line: &str) {
        let cmd = match command::parse(line) {
            Ok(cmd) => cmd,
            Err(e) => return self.error(e),
        };
        match cmd {
            Cmd::Move(text) => match with_game!(&self.game, g => g.parse_move(&text)) {
                Ok(mv) => self.play_human(mv),
                Err(_) if text.chars().all(|c| c.is_ascii_alphabetic()) => {
                    self.error(format!("unknown command ':{text}' (? lists the commands)"))
                }
                Err(e) => self.error(e.to_string()),
            },
            Cmd::New => self.new_game(),
            Cmd::Undo => self.undo(),
            Cmd::Redo => self.redo(),
            Cmd::Strategy(p) => self.set_policy(p),
            Cmd::TtMib(mib) => self.set_tt_mib(mib),
            Cmd::CheckBits(bits) => self.set_check_bits(bits),
            Cmd::Game(kind, size) => self.switch_game(kind, size),
            Cmd::Rule(rule) => {
                let before = self.settings.spec.clone();
                self.settings.spec.rule = rule;
                if self.game.kind() == GameKind::Gomoku {
                    self.new_game_keeping(before);
                }
                self.info(format!("rule {} (for Gomoku)", rule.name()));
            }
            Cmd::Human(h) => self.set_human(h),
            Cmd::Time(ms) => {
                self.settings.time_ms = Some(ms);
                self.info(format!("engine time {ms} ms per move"));
            }
            Cmd::Depth(d) => {
                self.settings.depth = d;
                match d {
                    Some(d) => self.info(format!("engine depth limit {d}")),
                    None => self.info("no depth limit"),
                }
            }
            Cmd::Hint => self.hint(),
            Cmd::Pause => self.toggle_pause(),
            Cmd::EngineNow => self.engine_now(),
            Cmd::Help => self.mode = Mode::Help(0),
            Cmd::Quit => self.request_quit(),
            Cmd::Save(path) => self.save(&path),
            Cmd::Load(path) => self.load(&path),
            Cmd::Book(on) => self.set_book(on.unwrap_or(!self.settings.book)),
            Cmd::Compare(depth, kib) => self.open_compare(depth, kib),
            Cmd::Lesson => self.open_lesson(),
            Cmd::Step => self.open_step(),
        }
    }

    // ---- actions ----------------------------------------------------------------------------

    fn request_quit(&mut self) {
        self.cancel_search();
        self.stop_compare();
        self.keep();
        self.quit = true;
    }

    // ---- the study screens: lesson, step-through, comparison ------------------------------

    /// A study screen takes the keys: the engine's move waits until it closes.
    fn hold(&mut self, mode: Mode) {
        if self.search_purpose() == Some(Purpose::Move) {
            self.cancel_search();
        }
        self.mode = mode;
    }

    /// Back to the game; the engine moves if it is its turn.
    fn leave_study(&mut self, note: &str) {
        self.mode = Mode::Normal;
        if !note.is_empty() {
            self.info(note);
        }
        self.advance();
    }

    fn open_lesson(&mut self) {
        self.hold(Mode::Lesson);
        self.info("lesson 1: → or space steps, Esc returns to the game");
    }

    fn open_step(&mut self) {
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
        self.step = Some(StepView::new(
            self.game.history().len(),
            before.side_to_move(),
            before.name(mv),
            cells,
            delta,
        ));
        self.hold(Mode::Step);
        // On small screens the step-through is the XOR-terms tab: show it.
        self.tab = Tab::Xor;
        self.info("step-through: → applies the next XOR term, Esc or x leaves");
    }

    /// Start a comparison at `depth` on tables of `kib` KiB (0: the game's table size); the
    /// defaults for the game where not given (the last comparison's depth and size on a rerun).
    fn open_compare(&mut self, depth: Option<u32>, kib: Option<usize>) {
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

    fn on_compare(&mut self, report: &Report) {
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

    // ---- the opening book ---------------------------------------------------------------------

    fn set_book(&mut self, on: bool) {
        self.settings.book = on;
        if !on {
            return self.info("opening book off: the engine searches every move");
        }
        if self.game.kind() != GameKind::Othello {
            return self.info("opening book on (Othello only: Gomoku has no book here)");
        }
        self.info(
            "opening book on: the engine plays a book reply while the game follows a named opening",
        );
        if self.search_purpose() == Some(Purpose::Move) && self.book_move().is_some() {
            self.cancel_search();
        }
        self.advance();
    }

    /// The book, built for the game's keys when first needed.
    fn book(&mut self) -> Option<&Book> {
        let AnyGame::Othello(g) = &self.game else {
            return None;
        };
        let keys = g.keys();
        if self
            .book
            .as_ref()
            .is_none_or(|(seed, _)| *seed != keys.seed)
        {
            self.book = Some((keys.seed, Book::othello(keys)));
        }
        self.book.as_ref().map(|(_, b)| b)
    }

    /// A book reply for the side to move (chosen at random among the book's), and how many
    /// there were; `None` with the book off, outside Othello or off the book.
    fn book_move(&mut self) -> Option<(Move, usize)> {
        if !self.settings.book {
            return None;
        }
        let AnyGame::Othello(g) = &self.game else {
            return None;
        };
        let g = g.clone();
        let replies = self.book()?.replies(&g);
        if replies.is_empty() {
            return None;
        }
        let pick = rand::random_range(0..replies.len());
        Some((replies[pick], replies.len()))
    }

    fn play_book(&mut self, mv: Move, choices: usize) {
        let name = self.game.name(mv);
        let side = self.game.side_to_move();
        match with_game!(&mut self.game, g => g.try_play(mv)) {
            Ok(_) => {
                self.redo.clear();
                self.notice = None;
                self.refresh_opening();
                self.search.book(BookMove {
                    side,
                    mv: name.clone(),
                    choices,
                    opening: self.opening.clone(),
                });
                self.info(format!(
                    "engine {} played {name} from the book (one of {choices} book replies)",
                    stone_glyph(side)
                ));
                self.after_position_change();
            }
            Err(e) => self.error(format!(
                "the book proposed {name}, which is not legal here ({e})"
            )),
        }
    }

    // ---- files: save, load, the kept game ---------------------------------------------------

    fn save(&mut self, path: &str) {
        let path = expand_home(path);
        let rec = Record::from_game(&self.game);
        let format = match Format::for_path(&path, rec.kind) {
            Ok(f) => f,
            Err(e) => return self.error(e),
        };
        match record::save_as(&path, &rec, format) {
            Ok(()) => self.info(format!(
                "saved {} to {} ({format})",
                format::plural(rec.moves.len() as u64, "move", "moves"),
                path.display()
            )),
            Err(e) => self.error(e),
        }
    }

    fn load(&mut self, path: &str) {
        let path = expand_home(path);
        let game = match record::load(&path)
            .and_then(|rec| rec.to_game(Keys::for_seed(self.settings.spec.seed)))
        {
            Ok(g) => g,
            Err(e) => return self.error(load_error(&e, &path, self.game.kind())),
        };
        let n = game.history().len();
        self.install(game);
        self.info(format!(
            "loaded {} · {} from {}",
            self.game.label(),
            format::plural(n as u64, "move", "moves"),
            path.display()
        ));
    }

    /// Make `game` the game being played (a loaded or resumed one).
    fn install(&mut self, game: AnyGame) {
        self.cancel_search();
        self.discarded = None;
        self.settings.spec.game = game.kind();
        if let AnyGame::Gomoku(g) = &game {
            self.settings.spec.size = g.size();
            self.settings.spec.rule = g.rule();
        }
        self.game = game;
        self.redo.clear();
        self.notice = None;
        self.cursor = start_cursor(&self.game);
        self.cursor_to_last();
        self.engine.clear();
        self.tt.reset();
        self.search = SearchView::default();
        self.after_position_change();
    }

    /// Write the game where it is kept for `--resume` (nothing before the first move, so a fresh
    /// start does not wipe the kept game until a move is made).
    fn keep(&mut self) {
        let Some(path) = self.settings.keep.clone() else {
            return;
        };
        if self.game.history().is_empty() {
            return;
        }
        if let Err(e) = record::save_resume_at(&path, &Record::from_game(&self.game))
            && !self.keep_failed
        {
            self.keep_failed = true;
            self.error(format!("cannot keep the game for --resume: {e}"));
        }
    }

    /// The person plays `mv`, if it is their turn and the move is legal.
    fn play_human(&mut self, mv: Move) {
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

    fn undo(&mut self) {
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

    fn redo(&mut self) {
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
    fn resting(&self) -> bool {
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

    fn cursor_to_last(&mut self) {
        if let Some(c) = self.game.last_placement() {
            self.cursor = c;
        }
    }

    /// `u` right after `n`, `g` or `:game`: the replaced game comes back as it was.
    fn bring_back(&mut self, d: Discarded) {
        self.cancel_search();
        self.settings.spec = d.spec;
        self.game = d.game;
        self.redo = d.redo;
        self.notice = None;
        self.cursor = start_cursor(&self.game);
        self.cursor_to_last();
        self.engine.clear();
        self.tt.reset();
        self.search = SearchView::default();
        self.info(format!(
            "the previous game is back: {} · {}",
            self.game.label(),
            format::plural(self.game.history().len() as u64, "move", "moves")
        ));
        self.after_position_change();
    }

    /// Start a new game; the one replaced stays undoable (`u`) until the person moves.
    fn new_game(&mut self) {
        self.new_game_keeping(self.settings.spec.clone());
    }

    fn new_game_keeping(&mut self, previous: GameSpec) {
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
        self.notice = None;
        self.cursor = start_cursor(&self.game);
        self.engine.clear();
        self.tt.reset();
        self.search = SearchView::default();
        let back = if self.discarded.is_some() {
            " (u brings the previous game back)"
        } else {
            ""
        };
        self.info(format!("new game: {}{back}", self.game.label()));
        self.after_position_change();
    }

    fn switch_game(&mut self, kind: GameKind, size: Option<usize>) {
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

    fn set_policy(&mut self, policy: Policy) {
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

    fn set_tt_mib(&mut self, mib: usize) {
        // A new table cannot be swapped in under a running search: stop it, resize, and let
        // `advance` restart the engine's move if it was thinking.
        self.cancel_search();
        self.engine.set_tt_mib(mib);
        self.settings.tt_mib = mib;
        self.tt.resize(mib);
        self.info(format!("transposition table {mib} MiB (empty)"));
        self.advance();
    }

    fn set_check_bits(&mut self, bits: u32) {
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

    fn set_human(&mut self, human: Human) {
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

    fn hint(&mut self) {
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
    fn engine_now(&mut self) {
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

    fn toggle_pause(&mut self) {
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

    // ---- the position and the engine ---------------------------------------------------------

    fn after_position_change(&mut self) {
        self.hint = None;
        self.advance();
        self.refresh_deltas();
        self.keep();
    }

    /// Play forced passes, announce the end, and start the engine if it is its turn.
    fn advance(&mut self) {
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

    fn start_search(&mut self, purpose: Purpose) {
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
    fn cancel_search(&mut self) {
        if self.pending.take().is_some() {
            self.engine.stop();
            self.search.activity = if self.paused {
                Activity::Paused
            } else {
                Activity::Idle
            };
        }
    }

    fn on_report(&mut self, report: Report, now: Instant) {
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

    fn is_current(&self, id: u64) -> bool {
        self.pending.as_ref().is_some_and(|p| p.id == id)
    }

    fn finish(&mut self, purpose: Purpose, best: Option<Move>) {
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
                        self.info(format!(
                            "engine {} played {name} (score {}, depth {})",
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

    /// Recompute the XOR terms of the last [`DELTA_ROWS`] moves from the game record.
    fn refresh_deltas(&mut self) {
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

    fn refresh_opening(&mut self) {
        self.book();
        self.opening = match (&self.game, &self.book) {
            (AnyGame::Othello(g), Some((_, book))) => {
                book.current_opening(g).map(|(_, name)| name.to_string())
            }
            _ => None,
        };
    }
}

fn stone_glyph_name(human: Human) -> String {
    let side = if human == Human::White {
        Side::White
    } else {
        Side::Black
    };
    format!("{} {}", stone_glyph(side), side.name())
}

/// The game to start with: a loaded file, the kept game, or a new one; and a note for the
/// status line. Settings follow the game found (kind, Gomoku size and rule).
fn starting_game(settings: &mut Settings) -> Result<(AnyGame, Option<Message>), CommandError> {
    let keys = Keys::for_seed(settings.spec.seed);
    let adopt = |settings: &mut Settings, game: &AnyGame| {
        settings.spec.game = game.kind();
        if let AnyGame::Gomoku(g) = game {
            settings.spec.size = g.size();
            settings.spec.rule = g.rule();
        }
    };
    let note = |text: String, error: bool| Some(Message { text, error });
    if let Some(path) = settings.load.clone() {
        let game = record::load(&path)
            .and_then(|rec| rec.to_game(keys))
            .map_err(|e| CommandError(one_line(&e, &path)))?;
        adopt(settings, &game);
        let text = format!(
            "loaded {} · {} from {}",
            game.label(),
            format::plural(game.history().len() as u64, "move", "moves"),
            path.display()
        );
        return Ok((game, note(text, false)));
    }
    let kept = settings.keep.clone();
    if settings.resume {
        let Some(path) = kept else {
            return Err(CommandError(
                "--resume: no place for the kept game (set HOME or XDG_STATE_HOME)".into(),
            ));
        };
        let found = record::load_resume_at(&path).and_then(|r| match r {
            Some(rec) => rec.to_game(keys).map(Some),
            None => Ok(None),
        });
        return match found {
            Ok(Some(game)) => {
                adopt(settings, &game);
                let text = format!(
                    "resumed {} · {} (kept in {})",
                    game.label(),
                    format::plural(game.history().len() as u64, "move", "moves"),
                    path.display()
                );
                Ok((game, note(text, false)))
            }
            Ok(None) => Ok((
                settings.spec.start()?,
                note("no kept game to resume: a new game".into(), false),
            )),
            Err(e) => Ok((
                settings.spec.start()?,
                note(
                    format!("cannot resume: {}; a new game", one_line(&e, &path)),
                    true,
                ),
            )),
        };
    }
    let game = settings.spec.start()?;
    let hint = kept
        .as_deref()
        .and_then(|p| record::load_resume_at(p).ok().flatten())
        .filter(|rec| !rec.moves.is_empty())
        .map(|rec| {
            format!(
                "the game kept from last time ({}, {}): xorboard --resume continues it; \
                 your first move here replaces it",
                rec.kind,
                format::plural(rec.moves.len() as u64, "move", "moves")
            )
        });
    Ok((game, hint.and_then(|t| note(t, false))))
}

/// An error about a file as one line that names the file once.
fn one_line(e: &str, path: &Path) -> String {
    let shown = path.display().to_string();
    let text = if e.contains(&shown) {
        e.to_string()
    } else {
        format!("{shown}: {e}")
    };
    text.lines().next().unwrap_or_default().to_string()
}

/// A `:load` failure as one printable line that names the formats of the game being played
/// (the file's own bytes are never echoed raw: a binary file is called binary, other
/// characters that cannot be shown become `?`).
fn load_error(e: &str, path: &Path, kind: GameKind) -> String {
    let formats = match kind {
        GameKind::Othello => "Othello: .ggf, or a transcript like f5d6c3",
        GameKind::Gomoku => "Gomoku: .psq (Piskvork), .rif.txt, or a list like h8,i9",
    };
    let binary = std::fs::read(path).ok().is_some_and(|bytes| {
        std::str::from_utf8(&bytes).is_err()
            || bytes
                .iter()
                .any(|&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t'))
    });
    let shown = path.display().to_string();
    if binary {
        return format!("{shown}: not a game record: the file is binary, not text ({formats})");
    }
    let detail = one_line(e, path);
    let detail = detail
        .strip_prefix(&format!("{shown}: "))
        .unwrap_or(&detail);
    let printable: String = detail
        .chars()
        .map(|c| {
            if c.is_control() || c == '\u{fffd}' {
                '?'
            } else {
                c
            }
        })
        .collect();
    if printable.starts_with("No such file") || printable.contains("not a regular file") {
        return format!("{shown}: {printable}");
    }
    format!("{shown}: not a game record ({formats}): {printable}")
}

/// `~/x` → `$HOME/x`; anything else as typed.
fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(path),
    }
}

/// Where the cursor starts: f5 in Othello (the usual first move), the centre in Gomoku.
fn start_cursor(game: &AnyGame) -> usize {
    match game {
        AnyGame::Othello(_) => 4 * 8 + 5,
        AnyGame::Gomoku(g) => g.index(g.size() / 2, g.size() / 2),
    }
}
