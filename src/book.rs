//! The Othello opening book, keyed by Zobrist hash under all eight symmetries.
//!
//! Built from the named openings in `assets/openings.txt` (NBoard's list: `<moves> ; <name> ; …`).
//! Every position along every named line is stored under its canonical symmetric key (the smallest
//! of its eight symmetric hashes, see [`crate::game::symmetry`]), so a transposition or a rotated
//! or mirrored move order finds the same entry: `f5d6c3d3c4` and `f5d6c4d3c3` are both the Tiger,
//! and so is `e6f4c3c4d3`. Each entry keeps the name of the opening whose *final* position it is
//! (if any) and the book replies, stored in the canonical orientation and mapped back on lookup.
//!
//! [`GomokuBook`] is the Gomoku engine's book, keyed the same way: one reply per position, the
//! engine's own long search of it (`assets/gomoku-book.txt`, built by the `build-gomoku-book`
//! binary from the Gomocup freestyle openings). Piskvork managers rotate and mirror those
//! openings at random; the canonical key finds the entry in any orientation.

use ahash::AHashMap;

use crate::game::gomoku::{Gomoku, Rule};
use crate::game::othello::Othello;
use crate::game::symmetry::Symmetric;
use crate::game::{Game, Move, play_line};
use crate::zobrist::Keys;

#[derive(Clone, Debug, Default)]
struct Entry {
    /// Named openings ending exactly here.
    names: Vec<String>,
    /// Replies that continue some named line, in the canonical orientation.
    replies: Vec<Move>,
}

/// Named openings by canonical position key.
#[derive(Clone, Debug)]
pub struct Book {
    entries: AHashMap<u64, Entry>,
    openings: usize,
}

impl Book {
    /// The book of `assets/openings.txt` for the given keys.
    pub fn othello(keys: &'static Keys) -> Book {
        Self::parse(include_str!("../assets/openings.txt"), keys)
            .expect("assets/openings.txt is well formed")
    }

    /// Parse an openings file; a bad line gives a one-line error naming it.
    pub fn parse(text: &str, keys: &'static Keys) -> Result<Book, String> {
        let mut entries: AHashMap<u64, Entry> = AHashMap::new();
        let mut openings = 0;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut cols = line.split(';').map(str::trim);
            let (Some(moves), Some(name)) = (cols.next(), cols.next()) else {
                return Err(format!(
                    "openings line {}: expected '<moves> ; <name>'",
                    n + 1
                ));
            };
            let moves = crate::game::notation::split_othello_transcript(moves)
                .map_err(|e| format!("openings line {}: {e}", n + 1))?;
            let mut g = Symmetric::new(Othello::new(keys));
            for text in &moves {
                let mv = g
                    .parse_move(text)
                    .map_err(|e| format!("openings line {}: {e}", n + 1))?;
                g.check_move(mv)
                    .map_err(|e| format!("openings line {} '{text}': {e}", n + 1))?;
                let stored = g.move_to_tt(mv);
                let e = entries.entry(g.tt_key()).or_default();
                if !e.replies.contains(&stored) {
                    e.replies.push(stored);
                }
                g.play(mv);
            }
            let e = entries.entry(g.tt_key()).or_default();
            let name = name.to_string();
            if !e.names.contains(&name) {
                e.names.push(name);
            }
            openings += 1;
        }
        Ok(Book { entries, openings })
    }

    /// Number of named lines read.
    pub fn openings(&self) -> usize {
        self.openings
    }

    /// Number of distinct positions (up to symmetry) in the book.
    pub fn positions(&self) -> usize {
        self.entries.len()
    }

    /// The name of the opening whose final position this is (up to symmetry and transposition).
    pub fn name_of(&self, game: &Othello) -> Option<&str> {
        let g = Symmetric::new(game.clone());
        self.entries
            .get(&g.tt_key())
            .and_then(|e| e.names.first())
            .map(String::as_str)
    }

    /// The most recent named opening passed through in this game, with the ply where it ended.
    pub fn current_opening(&self, game: &Othello) -> Option<(usize, &str)> {
        let mut g = Symmetric::new(Othello::new(game.keys()));
        let mut found = None;
        for (i, &mv) in game.history().iter().enumerate() {
            g.play(mv);
            if let Some(name) = self.entries.get(&g.tt_key()).and_then(|e| e.names.first()) {
                found = Some((i + 1, name.as_str()));
            }
        }
        found
    }

    /// Book replies in this position (legal moves continuing a named line), in its orientation.
    pub fn replies(&self, game: &Othello) -> Vec<Move> {
        let g = Symmetric::new(game.clone());
        let Some(e) = self.entries.get(&g.tt_key()) else {
            return Vec::new();
        };
        let mut out: Vec<Move> = e
            .replies
            .iter()
            .flat_map(|&m| g.all_moves_from_tt(m))
            .filter(|&m| game.is_legal(m))
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

/// The Gomoku book: one reply per position, for 15×15 freestyle, by canonical position key.
#[derive(Clone, Debug, Default)]
pub struct GomokuBook {
    /// The reply by canonical key, in the canonical orientation.
    entries: AHashMap<u64, Move>,
}

/// The board size and rule the Gomoku book is built for.
pub const GOMOKU_BOOK_SIZE: usize = 15;

impl GomokuBook {
    /// The book of `assets/gomoku-book.txt` for the given keys.
    pub fn freestyle(keys: &'static Keys) -> GomokuBook {
        Self::parse(include_str!("../assets/gomoku-book.txt"), keys)
            .expect("assets/gomoku-book.txt is well formed")
    }

    /// Parse a book: lines `<moves in play order, black first> -> <reply>`, moves as 0-based
    /// Piskvork `x,y` on 15×15; `#` starts a comment. A bad line gives a one-line error naming
    /// it. A position listed twice keeps its first reply.
    pub fn parse(text: &str, keys: &'static Keys) -> Result<GomokuBook, String> {
        let mut entries = AHashMap::new();
        for (n, line) in content_lines(text) {
            let at = |e: String| format!("gomoku book line {n}: {e}");
            let Some((moves, reply)) = line.split_once("->") else {
                return Err(at("expected '<moves> -> <reply>'".into()));
            };
            let g = Symmetric::new(gomoku_after(moves, keys).map_err(at)?);
            let reply_text = reply.trim();
            let mv =
                crate::game::notation::parse_piskvork(GOMOKU_BOOK_SIZE, reply_text).map_err(at)?;
            g.check_move(mv)
                .map_err(|e| at(format!("reply '{reply_text}': {e}")))?;
            entries.entry(g.tt_key()).or_insert(g.move_to_tt(mv));
        }
        Ok(GomokuBook { entries })
    }

    /// Number of positions (up to symmetry) with a reply.
    pub fn positions(&self) -> usize {
        self.entries.len()
    }

    /// The book reply in this position, in its orientation: only on a 15×15 freestyle board
    /// (what the book was searched for), whatever the move order, rotation or mirror.
    pub fn reply(&self, game: &Gomoku) -> Option<Move> {
        if game.size() != GOMOKU_BOOK_SIZE || game.rule() != Rule::Freestyle {
            return None;
        }
        let g = Symmetric::new(game.clone());
        let stored = *self.entries.get(&g.tt_key())?;
        g.all_moves_from_tt(stored)
            .into_iter()
            .find(|&m| game.is_legal(m))
    }
}

/// Play Gomoku moves (0-based Piskvork `x,y`, whitespace-separated, black first) on an empty
/// 15×15 freestyle board, the book's; a bad or illegal move gives a one-line error naming it.
pub fn gomoku_after(moves: &str, keys: &'static Keys) -> Result<Gomoku, String> {
    let mut g = Gomoku::new(GOMOKU_BOOK_SIZE, Rule::Freestyle, keys);
    for text in moves.split_whitespace() {
        let mv = crate::game::notation::parse_piskvork(GOMOKU_BOOK_SIZE, text)?;
        g.check_move(mv).map_err(|e| format!("'{text}': {e}"))?;
        g.play(mv);
    }
    Ok(g)
}

/// The XOT openings shipped in `assets/xot.txt` (compiled in): one transcript of eight moves
/// from the standard start each, such as `f5d6c3d3c4f4c5b3`; `#` comment lines and text after
/// `;` are left out.
pub fn xot_openings() -> Vec<&'static str> {
    include_str!("../assets/xot.txt")
        .lines()
        .map(|l| l.split(';').next().unwrap_or("").trim())
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect()
}

/// The positions of a Gomoku openings file (`assets/openings-freestyle15.txt`): one opening a
/// line, moves as for [`gomoku_after`], `#` starting a comment. A bad line gives a one-line
/// error naming it.
pub fn gomoku_openings(text: &str, keys: &'static Keys) -> Result<Vec<Gomoku>, String> {
    content_lines(text)
        .map(|(n, line)| gomoku_after(line, keys).map_err(|e| format!("openings line {n}: {e}")))
        .collect()
}

/// The lines of a text file with their comments (`#` on) cut, blank ones left out, each with its
/// 1-based line number.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(n, line)| {
        let line = line.split('#').next().unwrap_or("").trim();
        (!line.is_empty()).then_some((n + 1, line))
    })
}

/// Play a transcript (for tests and tools); a bad move gives the usual one-line error.
pub fn othello_after(transcript: &str, keys: &'static Keys) -> Result<Othello, String> {
    let mut g = Othello::new(keys);
    let moves = crate::game::notation::split_othello_transcript(transcript)?;
    play_line(&mut g, &moves)?;
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> &'static Keys {
        Keys::default_keys()
    }

    #[test]
    fn reads_every_named_opening() {
        let b = Book::othello(keys());
        assert_eq!(b.openings(), 86);
        assert!(b.positions() > 86);
    }

    #[test]
    fn tiger_by_transposition_and_symmetry() {
        let b = Book::othello(keys());
        for line in ["f5d6c3d3c4", "f5d6c4d3c3", "e6f4c3c4d3", "d3c5f6f5e6"] {
            let g = othello_after(line, keys()).unwrap();
            assert_eq!(b.name_of(&g), Some("Tiger"), "{line}");
        }
    }

    #[test]
    fn current_opening_is_the_deepest_named_one() {
        let b = Book::othello(keys());
        let g = othello_after("f5d6c5f4e3c6d3f6e6d7", keys()).unwrap();
        assert_eq!(b.current_opening(&g), Some((10, "Rose")));
        let g = othello_after("f5d6c5f4e3c6d3f6e6d7a1", keys());
        assert!(g.is_err(), "a1 is illegal there");
    }

    #[test]
    fn replies_are_legal_and_follow_lines() {
        let b = Book::othello(keys());
        let start = Othello::new(keys());
        let r = b.replies(&start);
        assert_eq!(r.len(), 4, "all four symmetric first moves are book moves");
        let g = othello_after("e6", keys()).unwrap();
        for m in b.replies(&g) {
            assert!(g.is_legal(m));
        }
        assert!(!b.replies(&g).is_empty());
    }

    #[test]
    fn gomoku_book_finds_its_positions_in_any_orientation() {
        let book = GomokuBook::freestyle(keys());
        assert!(
            book.positions() >= 24,
            "two colours of twelve openings at least"
        );
        let line = "7,7 7,6 7,5 8,5 8,3";
        let text = format!("{line} -> 6,4");
        let small = GomokuBook::parse(&text, keys()).unwrap();
        let play = |moves: &[(usize, usize)]| {
            let mut g = Gomoku::new(15, Rule::Freestyle, keys());
            for &(x, y) in moves {
                g.play(Move::at(y * 15 + x));
            }
            g
        };
        let moves = [(7, 7), (7, 6), (7, 5), (8, 5), (8, 3)];
        assert_eq!(small.reply(&play(&moves)), Some(Move::at(4 * 15 + 6)));
        // Mirrored left-right (x -> 14 - x), black's stones in another order.
        let mirrored = [(7, 7), (7, 6), (6, 3), (6, 5), (7, 5)];
        assert_eq!(small.reply(&play(&mirrored)), Some(Move::at(4 * 15 + 8)));
        // Not a book position, not the book's board size or rule.
        assert_eq!(small.reply(&play(&moves[..4])), None);
        let mut g = Gomoku::new(15, Rule::Exact5, keys());
        for &(x, y) in &moves {
            g.play(Move::at(y * 15 + x));
        }
        assert_eq!(small.reply(&g), None);
    }

    #[test]
    fn bad_gomoku_books_give_one_line_errors() {
        for (text, what) in [
            ("7,7 7,6 6,6", "expected"),
            ("7,7 7,7 -> 6,6", "line 1"),
            ("# fine\n7,7 -> 15,0", "line 2"),
            ("7,7 -> 7,7", "reply"),
        ] {
            let e = GomokuBook::parse(text, keys()).unwrap_err();
            assert!(e.contains(what) && !e.contains('\n'), "{text}: {e}");
        }
    }

    #[test]
    fn gomoku_openings_are_read_with_line_numbers_in_errors() {
        let list = gomoku_openings(include_str!("../assets/openings-freestyle15.txt"), keys());
        assert_eq!(list.map(|l| l.len()), Ok(12), "the Gomocup list");
        let e = gomoku_openings("7,7 7,6\n# c\n7,7 7,7 # dup\n", keys()).unwrap_err();
        assert!(
            e.starts_with("openings line 3:") && !e.contains('\n'),
            "{e}"
        );
    }

    #[test]
    fn bad_files_give_one_line_errors() {
        assert!(Book::parse("f5d6 Tiger", keys()).is_err());
        let e = Book::parse("f5a1 ; Nonsense", keys()).unwrap_err();
        assert!(e.contains("line 1"), "{e}");
    }
}
