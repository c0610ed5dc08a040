//! The terminal game: play Othello or Gomoku against the engine while panels show the Zobrist
//! hash, each move's XOR terms, the transposition table's traffic and the search, live.
//!
//! Shape (the event-driven ratatui pattern): [`event::Event`] is everything that can happen —
//! a key, a click, a resize, a tick, an engine report; [`app::App::update`] changes the model;
//! [`view::draw`] only draws it, one file per panel (`board`, `hash`, `deltas`, `tt`, `search`,
//! `status`, `help`; the study screens `lesson`, `step`, `compare`). The engine runs on its own thread behind `crate::engine::Engine`: the loop
//! here drains its reports with `try_recv` every frame and never waits on it, redraws at least
//! 25 times a second while it thinks, and answers keys as they come.
//!
//! The terminal is restored on every exit path: normal quit, error, and panic (ratatui's hook,
//! chained after ours, which also turns mouse reporting off).

pub mod app;
pub mod board;
pub mod command;
pub mod compare;
pub mod deltas;
pub mod event;
pub mod format;
pub mod hash;
pub mod help;
pub mod lesson;
pub mod position;
pub mod scroll;
pub mod search;
pub mod status;
pub mod step;
pub mod theme;
pub mod tt;
pub mod view;

use std::io;
use std::time::{Duration, Instant};

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self as ct, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;

use self::app::{App, Drawn, Settings};
use self::event::Event;
use self::theme::{ColorMode, Theme};
use crate::error::Error as CommandError;

/// Time between frames while the engine thinks (25 frames a second).
pub const FRAME: Duration = Duration::from_millis(40);
/// How long to wait for input when nothing is moving.
const IDLE_POLL: Duration = Duration::from_millis(50);

/// Run the game until the person quits.
pub fn run(settings: Settings) -> Result<(), CommandError> {
    let theme = Theme::new(ColorMode::detect());
    // Bad options fail here, before the screen changes.
    let mut app = App::new(settings)?;
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(io::stdout(), DisableMouseCapture);
        previous(info);
    }));
    let mut terminal = ratatui::try_init()
        .map_err(|e| CommandError(format!("cannot use this terminal for the game: {e}")))?;
    let _ = execute!(io::stdout(), EnableMouseCapture);
    let result = event_loop(&mut terminal, &mut app, &theme);
    let _ = execute!(io::stdout(), DisableMouseCapture);
    ratatui::restore();
    result.map_err(|e| CommandError(format!("terminal error: {e}")))
}

fn event_loop(terminal: &mut DefaultTerminal, app: &mut App, theme: &Theme) -> io::Result<()> {
    let mut dirty = true;
    let mut last_draw = Instant::now();
    loop {
        if app.drain_engine() > 0 {
            dirty = true;
        }
        if app.quit {
            return Ok(());
        }
        let frame_due = app.busy() && last_draw.elapsed() >= FRAME;
        if dirty || frame_due {
            app.update(Event::Tick);
            let mut drawn = Drawn::default();
            terminal.draw(|f| drawn = view::draw(f, app, theme))?;
            app.drawn = drawn;
            last_draw = Instant::now();
            dirty = false;
        }
        let timeout = if app.busy() {
            FRAME.saturating_sub(last_draw.elapsed())
        } else {
            IDLE_POLL
        };
        if ct::poll(timeout)? {
            // Take every event already queued before drawing again (key repeat, pastes).
            loop {
                if let Some(e) = Event::from_terminal(ct::read()?) {
                    app.update(e);
                    dirty = true;
                }
                if app.quit || !ct::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
    }
}
