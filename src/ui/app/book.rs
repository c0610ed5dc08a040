//! The opening books (`b`): in Othello the engine plays a book reply while the game follows a
//! named opening, and the Search panel names the opening; off the named lines it answers the
//! first move after an XOT opening, the second after the reply it expects (and, along its own
//! lines from the first openings, the third) from its own deep searches ([`OthelloBook`]). In
//! Gomoku (15×15 freestyle) it answers the positions after the Gomocup openings from its own long
//! searches ([`GomokuBook`]).

use super::*;

impl App {
    pub(super) fn set_book(&mut self, on: bool) {
        self.settings.book = on;
        if !on {
            return self.info("opening book off: the engine searches every move");
        }
        if self.game.kind() == GameKind::Othello {
            self.info("opening book on: replies along named openings and after XOT openings");
        } else {
            self.info(
                "opening book on: after a Gomocup opening (15×15 freestyle) the engine answers from its own long searches",
            );
        }
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
        Some(built_for(&mut self.book, g.keys(), Book::othello))
    }

    /// The Othello book of deep searches, built for the game's keys when first needed.
    fn othello_book(&mut self) -> Option<&OthelloBook> {
        let AnyGame::Othello(g) = &self.game else {
            return None;
        };
        Some(built_for(
            &mut self.othello_book,
            g.keys(),
            OthelloBook::xot,
        ))
    }

    /// The Gomoku book, built for the game's keys when first needed.
    fn gomoku_book(&mut self) -> Option<&GomokuBook> {
        let AnyGame::Gomoku(g) = &self.game else {
            return None;
        };
        Some(built_for(
            &mut self.gomoku_book,
            g.keys(),
            GomokuBook::freestyle,
        ))
    }

    /// A book reply for the side to move (in Othello chosen at random among the book's), and
    /// how many there were; `None` with the book off or off the book.
    pub(super) fn book_move(&mut self) -> Option<(Move, usize)> {
        if !self.settings.book {
            return None;
        }
        let g = match &self.game {
            AnyGame::Othello(g) => g.clone(),
            AnyGame::Gomoku(g) => {
                let g = g.clone();
                return self.gomoku_book()?.reply(&g).map(|m| (m, 1));
            }
        };
        let replies = self.book()?.replies(&g);
        if replies.is_empty() {
            return self.othello_book()?.reply(&g).map(|(m, _)| (m, 1));
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
                let of = if choices > 1 {
                    format!(" (one of {choices} book replies)")
                } else {
                    String::new()
                };
                self.info(format!(
                    "engine {} played {name} from the book{of}",
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

/// The book in `slot`, built again by `build` when it is missing or was built for other keys
/// (books are keyed by Zobrist hashes, so by the keys' seed).
fn built_for<'a, B>(
    slot: &'a mut Option<(u64, B)>,
    keys: &'static Keys,
    build: fn(&'static Keys) -> B,
) -> &'a B {
    if slot.as_ref().is_none_or(|(seed, _)| *seed != keys.seed) {
        *slot = Some((keys.seed, build(keys)));
    }
    &slot.as_ref().expect("just built").1
}
