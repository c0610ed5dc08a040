//! The Othello opening book: the engine plays a book reply while the game follows a named
//! opening (`b`), and the Search panel names the opening.

use super::*;

impl App {
    pub(super) fn set_book(&mut self, on: bool) {
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
    pub(super) fn book(&mut self) -> Option<&Book> {
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
    pub(super) fn book_move(&mut self) -> Option<(Move, usize)> {
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

    pub(super) fn play_book(&mut self, mv: Move, choices: usize) {
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

    pub(super) fn refresh_opening(&mut self) {
        self.book();
        self.opening = match (&self.game, &self.book) {
            (AnyGame::Othello(g), Some((_, book))) => {
                book.current_opening(g).map(|(_, name)| name.to_string())
            }
            _ => None,
        };
    }
}
