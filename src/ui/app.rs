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
//!
//! Split along its seams: `settings` (what the person chose), `play` (moves, undo, new games,
//! when the engine moves), `engine_link` (searches by id, reports, the table's settings),
//! `files` (save, load, the kept game), `book` (the opening books) and `study` (the
//! lesson, step-through and comparison screens, whose state lives in their [`Mode`] variant).

use std::path::{Path, PathBuf};
use std::time::Instant;

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect};

mod book;
mod engine_link;
mod files;
mod play;
mod settings;
mod study;

pub use settings::{DEFAULT_TIME_MS, Human, Settings};

use files::starting_game;
use play::start_cursor;

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
use crate::book::{Book, GomokuBook, OthelloBook};
use crate::engine::compare::{self as lab, Plan};
use crate::engine::{Engine, Report};
use crate::error::Error as CommandError;
use crate::game::{AnyGame, GameSpec};
use crate::game::{Game, GameKind, Move, Side};
use crate::record::{self, Format, Record};
use crate::tt::Policy;
use crate::with_game;
use crate::zobrist::{Delta, Keys};

/// Command lines remembered for ↑/↓.
const HISTORY: usize = 100;
/// How many recent moves the XOR-terms panel can show.
pub const DELTA_ROWS: usize = 8;

/// What the keyboard is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Keys move the cursor and run actions.
    Normal,
    /// Typing after `:`; holds the line so far and its cursor.
    Command(LineEdit),
    /// The help overlay is open, scrolled by this many lines.
    Help(u16),
    /// The lesson screen (`L`) is open, with its model.
    Lesson(Box<LessonView>),
    /// Stepping through the last move's XOR terms (`x`).
    Step(Box<StepView>),
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
    /// The lesson's step when it was last closed (it opens there again).
    lesson_at: usize,
    /// The id of the comparison the engine is running, if one runs.
    compare_running: Option<u64>,
    /// Keeping the game for `--resume` failed once (said once, not after every move).
    keep_failed: bool,
    engine: Engine,
    next_id: u64,
    pending: Option<Pending>,
    /// The Othello opening book (by symmetric hash), built for the game's keys.
    book: Option<(u64, Book)>,
    /// The Gomoku book (the engine's own searches after the Gomocup openings), likewise.
    gomoku_book: Option<(u64, GomokuBook)>,
    /// The Othello book of the engine's deep searches after the XOT openings, likewise.
    othello_book: Option<(u64, OthelloBook)>,
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
    /// The lesson's model while it is open.
    pub fn lesson(&self) -> Option<&LessonView> {
        match &self.mode {
            Mode::Lesson(l) => Some(l),
            _ => None,
        }
    }

    /// The step-through's model while it is open.
    pub fn step(&self) -> Option<&StepView> {
        match &self.mode {
            Mode::Step(s) => Some(s),
            _ => None,
        }
    }

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
            lesson_at: 0,
            compare_running: None,
            keep_failed: false,
            engine,
            next_id: 1,
            pending: None,
            book: None,
            gomoku_book: None,
            othello_book: None,
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
        matches!(
            self.mode,
            Mode::Lesson(_) | Mode::Step(_) | Mode::Compare(_)
        )
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
                // Space pages down as PgDn does.
                let code = match key.code {
                    KeyCode::Char(' ') => KeyCode::PageDown,
                    code => code,
                };
                match code {
                    KeyCode::Char('q') => self.request_quit(),
                    KeyCode::Home => *scroll = 0,
                    KeyCode::End => *scroll = max,
                    code => match super::scroll::key_lines(code) {
                        Some(by) => *scroll = super::scroll::moved(*scroll, by, max),
                        None => self.mode = Mode::Normal,
                    },
                }
            }
            Mode::Lesson(_) => self.lesson_key(key),
            Mode::Step(_) => self.step_key(key),
            Mode::Compare(_) => self.compare_key(key),
            Mode::Normal => self.normal_key(key),
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
            Mode::Command(_) | Mode::Lesson(_) | Mode::Step(_) | Mode::Compare(_) => {}
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

    fn request_quit(&mut self) {
        self.cancel_search();
        self.stop_compare();
        self.keep();
        self.quit = true;
    }
}
