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
//! binary from the Gomocup freestyle openings, then grown by book learning: the positions that
//! the engine's recorded match games reached after the book, in `assets/gomoku-learn-games.jsonl`).
//! Piskvork managers rotate and mirror those openings at random; the canonical key finds the
//! entry in any orientation.
//!
//! [`OthelloBook`] is the Othello engine's book of the same kind: one reply per position with
//! its score, the engine's own deep search (`assets/othello-book.txt`, built by the
//! `build-othello-book` binary) of the position after each XOT opening and of the position after
//! the reply it expects there, so it answers the first move of an XOT game with either colour;
//! and, for every opening, the same one move on: its second move after the replies it expects to
//! its first, and the third after those (along its own lines from every XOT opening but one).

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

/// One reply per position by canonical key, in the canonical orientation, with a score where
/// the book has one (what both engines' books keep).
#[derive(Clone, Debug, Default)]
struct Replies(AHashMap<u64, (Move, Option<i32>)>);

impl Replies {
    /// Keep `mv` (legal in `game`) as the reply there, unless the position has one already.
    fn insert<G: Game>(&mut self, game: G, mv: Move, score: Option<i32>) {
        let g = Symmetric::new(game);
        self.0
            .entry(g.tt_key())
            .or_insert((g.move_to_tt(mv), score));
    }

    /// The reply in `game`, in its orientation, whatever the move order, rotation or mirror.
    fn get<G: Game + Clone>(&self, game: &G) -> Option<(Move, Option<i32>)> {
        let g = Symmetric::new(game.clone());
        let &(stored, score) = self.0.get(&g.tt_key())?;
        let mv = g
            .all_moves_from_tt(stored)
            .into_iter()
            .find(|&m| game.is_legal(m))?;
        Some((mv, score))
    }

    fn len(&self) -> usize {
        self.0.len()
    }
}

/// Read a book of `<moves> -> <reply>[ <rest>]` lines (`#` starts a comment): `position` plays
/// the moves, `reply` reads the rest into the move and its score. A bad line gives a one-line
/// error naming it (`what` names the book); a position listed twice keeps its first reply.
fn parse_replies<G: Game + Clone>(
    text: &str,
    what: &str,
    position: impl Fn(&str) -> Result<G, String>,
    reply: impl Fn(&G, &str) -> Result<(Move, Option<i32>), String>,
) -> Result<Replies, String> {
    let mut replies = Replies::default();
    for (n, line) in content_lines(text) {
        let at = |e: String| format!("{what} line {n}: {e}");
        let Some((moves, rest)) = line.split_once("->") else {
            return Err(at("expected '<moves> -> <reply>'".into()));
        };
        let g = position(moves).map_err(at)?;
        let (mv, score) = reply(&g, rest.trim()).map_err(at)?;
        replies.insert(g, mv, score);
    }
    Ok(replies)
}

/// The Gomoku book: one reply per position, for 15×15 freestyle, by canonical position key.
#[derive(Clone, Debug, Default)]
pub struct GomokuBook {
    replies: Replies,
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
        let replies = parse_replies(
            text,
            "gomoku book",
            |moves| gomoku_after(moves, keys),
            |g: &Gomoku, reply| {
                let mv = crate::game::notation::parse_piskvork(GOMOKU_BOOK_SIZE, reply)?;
                g.check_move(mv)
                    .map_err(|e| format!("reply '{reply}': {e}"))?;
                Ok((mv, None))
            },
        )?;
        Ok(GomokuBook { replies })
    }

    /// Number of positions (up to symmetry) with a reply.
    pub fn positions(&self) -> usize {
        self.replies.len()
    }

    /// The book reply in this position, in its orientation: only on a 15×15 freestyle board
    /// (what the book was searched for), whatever the move order, rotation or mirror.
    pub fn reply(&self, game: &Gomoku) -> Option<Move> {
        if game.size() != GOMOKU_BOOK_SIZE || game.rule() != Rule::Freestyle {
            return None;
        }
        self.replies.get(game).map(|(mv, _)| mv)
    }
}

/// The Othello book: one reply per position with the engine's score of it (centi-discs for the
/// side to move), by canonical position key.
#[derive(Clone, Debug, Default)]
pub struct OthelloBook {
    replies: Replies,
}

impl OthelloBook {
    /// The book of `assets/othello-book.txt` (the positions after the XOT openings) for the
    /// given keys.
    pub fn xot(keys: &'static Keys) -> OthelloBook {
        Self::parse(include_str!("../assets/othello-book.txt"), keys)
            .expect("assets/othello-book.txt is well formed")
    }

    /// Parse a book: lines `<transcript> -> <reply> <score>`, the transcript from the standard
    /// start (`f5d6c3d3c4f4c5b3`, passes `pa`), the score in discs for the side to move
    /// (`-1.50`); `#` starts a comment. A bad line gives a one-line error naming it. A position
    /// listed twice keeps its first reply.
    pub fn parse(text: &str, keys: &'static Keys) -> Result<OthelloBook, String> {
        let replies = parse_replies(
            text,
            "othello book",
            |moves| othello_after(moves, keys),
            |g: &Othello, rest| {
                let mut words = rest.split_whitespace();
                let (Some(reply), Some(score), None) = (words.next(), words.next(), words.next())
                else {
                    return Err(format!("expected '<reply> <score>', got '{rest}'"));
                };
                let mv = g
                    .parse_move(reply)
                    .map_err(|e| format!("reply '{reply}': {e}"))?;
                g.check_move(mv)
                    .map_err(|e| format!("reply '{reply}': {e}"))?;
                let discs: f64 = score
                    .parse()
                    .ok()
                    .filter(|d: &f64| d.abs() <= 64.0)
                    .ok_or_else(|| format!("score '{score}' is not a disc count"))?;
                Ok((mv, Some((discs * 100.0).round() as i32)))
            },
        )?;
        Ok(OthelloBook { replies })
    }

    /// Number of positions (up to symmetry) with a reply.
    pub fn positions(&self) -> usize {
        self.replies.len()
    }

    /// The book reply in this position and its score (centi-discs for the side to move), in
    /// its orientation, whatever the move order, rotation or mirror.
    pub fn reply(&self, game: &Othello) -> Option<(Move, i32)> {
        self.replies
            .get(game)
            .map(|(mv, score)| (mv, score.unwrap_or(0)))
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
    transcripts(include_str!("../assets/xot.txt"))
}

/// The start of the fitting tools' game `index` (`fit-probcut`, `train-endgame-eval
/// --tree-games`): every seventh XOT opening ([`xot_openings`]), so a run's games spread over the
/// list (seven is prime to its 10,784 lines, so the first 10,784 games all differ).
pub fn spread_xot_opening(openings: &[&str], index: usize, keys: &'static Keys) -> Othello {
    othello_after(openings[index * 7 % openings.len()], keys).expect("legal XOT opening")
}

/// The transcripts of an openings file in the XOT format: one a line, `#` comment lines and
/// text after `;` left out.
pub fn transcripts(text: &str) -> Vec<&str> {
    text.lines()
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
    fn othello_book_finds_its_positions_by_symmetry_and_transposition() {
        let book = OthelloBook::parse("# a comment\nf5d6c3d3c4 -> f4 -1.50\n", keys()).unwrap();
        assert_eq!(book.positions(), 1);
        let tiger = othello_after("f5d6c3d3c4", keys()).unwrap();
        let f4 = tiger.parse_move("f4").unwrap();
        assert_eq!(book.reply(&tiger), Some((f4, -150)));
        // Transposed (f5d6c4d3c3) and mirrored on the diagonal (e6f4c3c4d3): the same position,
        // the reply mapped to each orientation.
        let transposed = othello_after("f5d6c4d3c3", keys()).unwrap();
        assert_eq!(book.reply(&transposed), Some((f4, -150)));
        let mirrored = othello_after("e6f4c3c4d3", keys()).unwrap();
        let d6 = mirrored.parse_move("d6").unwrap();
        assert_eq!(book.reply(&mirrored), Some((d6, -150)));
        assert_eq!(
            book.reply(&othello_after("f5d6c3d3", keys()).unwrap()),
            None
        );
    }

    #[test]
    fn the_shipped_othello_book_answers_every_xot_opening() {
        let book = OthelloBook::xot(keys());
        let xot = xot_openings();
        assert_eq!(xot.len(), 10_784);
        for line in xot {
            let g = othello_after(line, keys()).unwrap();
            let (mv, score) = book.reply(&g).unwrap_or_else(|| panic!("{line}: no reply"));
            assert!(g.is_legal(mv) && score.abs() <= 6400, "{line}");
        }
        assert!(
            book.positions() > 2 * 10_784,
            "and the replies after the expected first moves"
        );
    }

    /// How many plies the book answers in a row from `line`, up to `plies`.
    fn book_plies(book: &OthelloBook, line: &str, plies: usize) -> usize {
        let mut g = othello_after(line, keys()).unwrap();
        for ply in 0..plies {
            match book.reply(&g) {
                Some((mv, _)) if g.is_legal(mv) => g.play(mv),
                _ => return ply,
            }
        }
        plies
    }

    /// Follows the shipped book's own replies `plies` plies from `line`, each in the book.
    fn follow_the_book(book: &OthelloBook, line: &str, plies: usize) {
        assert_eq!(
            book_plies(book, line, plies),
            plies,
            "{line}: plies in the book"
        );
    }

    #[test]
    fn the_shipped_othello_book_answers_second_moves_along_its_own_lines() {
        // From each XOT opening, the book's reply, the reply it expects, its second move and
        // the reply it expects to that: four plies, each in the book.
        let book = OthelloBook::xot(keys());
        for line in xot_openings() {
            follow_the_book(&book, line, 4);
        }
    }

    #[test]
    fn the_shipped_othello_book_answers_third_moves_along_its_own_lines() {
        // Six plies from every XOT opening but one: after f5d6c4f3e3f4c6g5 f6 c5 g6 f7 the
        // position is one an earlier line reaches too, whose reply (h6, not e6) the book keeps,
        // and no third-move line continues from h6.
        let book = OthelloBook::xot(keys());
        let short: Vec<&str> = xot_openings()
            .into_iter()
            .filter(|line| book_plies(&book, line, 6) < 6)
            .collect();
        assert_eq!(short, ["f5d6c4f3e3f4c6g5"]);
        follow_the_book(&book, "f5d6c4f3e3f4c6g5", 5);
    }

    #[test]
    fn bad_othello_books_give_one_line_errors() {
        for (text, what) in [
            ("f5d6c3", "expected"),
            ("f5d6d6 -> c3 0.5", "line 1"),
            ("# fine\nf5d6 -> a1 0.5", "line 2: reply 'a1'"),
            ("f5d6 -> c3", "expected '<reply> <score>'"),
            ("f5d6 -> c3 many", "score 'many'"),
            ("f5d6 -> c3 99", "score '99'"),
            ("f5d6 -> c3 1 2", "expected '<reply> <score>'"),
        ] {
            let e = OthelloBook::parse(text, keys()).unwrap_err();
            assert!(e.contains(what) && !e.contains('\n'), "{text}: {e}");
        }
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
