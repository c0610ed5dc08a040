//! Everything that can change the screen's model, as one enum: the terminal's input, the clock,
//! and the engine's reports. [`super::app::App::update`] takes one at a time.

use ratatui::crossterm::event::{self as ct, KeyEvent, MouseEvent};

use crate::engine::Report;

// Events are handled one at a time as they arrive, never queued in bulk, so the size of the
// largest variant (an engine report) costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
pub enum Event {
    Key(KeyEvent),
    Mouse(MouseEvent),
    /// The terminal changed size (the next frame is drawn at the new size).
    Resize(u16, u16),
    /// The frame clock: nothing happened, but time passed.
    Tick,
    /// A progress snapshot, result or error from the engine thread.
    Engine(Report),
}

impl Event {
    /// The UI's event for a terminal event, if it is one the UI uses.
    pub fn from_terminal(e: ct::Event) -> Option<Event> {
        match e {
            ct::Event::Key(k) if k.kind != ct::KeyEventKind::Release => Some(Event::Key(k)),
            ct::Event::Mouse(m) => Some(Event::Mouse(m)),
            ct::Event::Resize(w, h) => Some(Event::Resize(w, h)),
            _ => None,
        }
    }
}
