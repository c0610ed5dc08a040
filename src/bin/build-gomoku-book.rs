//! Build the Gomoku book (`assets/gomoku-book.txt`, read by `xorboard::book::GomokuBook`): the
//! engine's own long searches of the first moves after each Gomocup freestyle opening.
//!
//! ```sh
//! cargo run --release --bin build-gomoku-book -- --jobs 2 --out assets/gomoku-book.txt
//! ```
//!
//! For every opening of `--openings` (default `assets/openings-freestyle15.txt`) and for both
//! colours the engine may have there, the tree of the engine's next `--plies` moves (default 2):
//! - where the engine is to move, one search of `--nodes` nodes (default 16,000,000, about 20
//!   seconds of one thread; a fresh table of `--hash` MiB, default 64, for every search) gives
//!   the book move;
//! - where the opponent is to move, the replies followed are the engine's own choices there at
//!   a 100th, a 25th, a 5th and all of `--nodes` (the distinct ones, one to four): the replies
//!   a strong opponent is likely to play, as this engine sees them.
//!
//! Node budgets make the book reproducible: the same arguments give the same file, whatever
//! `--jobs` is. Lines are `<moves in play order> -> <reply>` in 0-based Piskvork coordinates.
//!
//! Book learning (`--learn`): the book grows where games actually go.
//!
//! ```sh
//! # the shipped book: the book of the openings (as shipped before learning) grown in 4 rounds
//! # on the first 1,905 games of the records (session 90), then in 2 more on all of them
//! git show e6bfdc2:assets/gomoku-book.txt > openings-book.txt
//! head -n 1905 assets/gomoku-learn-games.jsonl > session90-games.jsonl
//! cargo run --release --bin build-gomoku-book -- --learn session90-games.jsonl \
//!     --book openings-book.txt --rounds 4 --jobs 2 --out four-rounds.txt
//! cargo run --release --bin build-gomoku-book -- --learn assets/gomoku-learn-games.jsonl \
//!     --book four-rounds.txt --rounds 2 --jobs 2 --out assets/gomoku-book.txt
//! ```
//!
//! The records are the match referee's game records (`gomoku_match.py --games-out`: one JSON
//! game a line with its `opening`, `moves` and which engine played `black`; `--engine` names
//! this one, `A` by default). Each of `--rounds` rounds (default 3) follows every game through
//! the book as it stands. A game that played something other than the book's reply leaves the
//! count there: the opponent's answer to the book's move is unknown. Otherwise the first
//! position where this engine is to move and the book has no reply is counted. A position that
//! `--min-games` games reach (default 3) gets the same search as a book move (`--nodes`). So
//! each round adds the engine's next own move along the lines its opponents chose.
//!
//! The shipped book (85 positions) took 26 minutes with `--jobs 2` (the first seven shared with
//! a test run). Against Rapfi classical at strength 60, 200 ms a turn, the twelve openings both
//! ways (session 51, 96-game runs): 52, 55 and 57.5 (164.5/288, 57.1%), where the book of the
//! same recipe at 4,000,000 nodes (92 positions; 54 of the 68 positions both books have get
//! the same reply) scored 42 and 46.5 (88.5/192, 46.1%), one run beside the first of these.
//!
//! Measured before (session 50, the 4,000,000-node book, 92 positions), same opponent and turn: the
//! engine scored 42 and 47 (89/192, 46.4%); with the same recipe following three replies (a 25th, a
//! 5th and all of the nodes: 79 positions) 42.5 and 42.5 (44.3%); without a book (`--no-book`)
//! 18/48, 30.5, 41 and 33 (122.5/336, 36.5%), all in the same session, two runs side by side. A
//! throwaway book of the three-reply recipe from timed five-second searches (the replies followed
//! varied more: 104 positions) scored 46, 43 and 50.5 (139.5/288, 48.4%). By opening, that book
//! against no book (16 and 20 games): G08 14 / 13.5, G10 10 / 7, G04 12 / 7.5, G01 4.5 / 4.5, G03
//! 8.5 / 11. Against full strength, side by side: 7.5/48 with that book, 6/48 without.
//!
//! Session 51, two recipes of 4,000,000 nodes measured against the same opponent (96-game runs) and
//! not kept: the engine's next three moves (`--plies 3`, 197 positions) 42/96, where the
//! 4,000,000-node book above, run beside it, scored 42/96 too; the opponent's replies as the
//! engine's best three (the best, then the best with it left out of the root, then with both; a
//! quarter of the nodes for the second and third; `--plies 2`, 192 positions) 42.5 and 45.5
//! (88/192, 45.8%). The second reaches the book's second move more often when the opponent moves
//! first (69% of those games against 56%) but scores the same. Lines lost every time are lost
//! later: after G09 with this engine as white, every game of those runs followed the same 12 plies
//! (book moves 9,8 and 8,8) and was lost by the 32nd, where full-strength Rapfi (1 s a position)
//! reads our moves as drifting by 100 to 250 points from the 13th on.
//!
//! Session 52, the shipped recipe one own ply deeper (`--plies 3`, 175 positions, 50 minutes
//! with `--jobs 2`; its first two plies are the shipped book line for line) against full-strength
//! Rapfi, 200 ms a turn, two 48-game runs side by side with the shipped book: 8 and 8 (16/96,
//! 16.7%) against the shipped book's 9 and 12 (21/96, 21.9%). Full-strength Rapfi plays into the
//! third book move in 27 of 48 games, and those score 3/27: the lines are lost after the book,
//! not in it. Not kept.
//!
//! Session 53, the shipped recipe three times as long (`--nodes 48000000 --hash 256`, 77
//! positions, 72 minutes with `--jobs 2`; 48 of the 62 positions both books have get the same
//! reply) against full-strength Rapfi, 200 ms a turn, two 48-game runs side by side with the
//! shipped book: 5.5 and 4.5 (10/96, 10.4%) against the shipped book's 8 and 6 (14/96, 14.6%).
//! Both followed the book to its second own move in 34-36 of 48 games. What four times the
//! nodes gave from 4M to 16M, three times more does not give again. Not kept.
//!
//! Session 81, the shipped recipe built again with the engine of session 80 (the quiescence
//! search of fours and the open three answered at the horizon, neither in the engine that built
//! the shipped book; 100 positions, 25 minutes with `--jobs 2`; 39 of the 51 positions both books
//! have get the same reply) against full-strength Rapfi, 200 ms a turn, two 96-game runs side by
//! side with the shipped book: 22.5 and 19 (41.5/192, 21.6%) against the shipped book's 26.5 and
//! 20 (46.5/192, 24.2%). Not kept.
//!
//! Session 88, what the shipped book is worth against full-strength Rapfi (200 ms a turn, the
//! twelve openings both ways, 96-game runs two at a time): without it (`piskvork --no-book`) 14.5
//! and 15.5 of 96 (30/192, 15.6%), with it 126.5/480 (26.4%) in the same session (see the session
//! notes in `src/search/gomoku.rs`).
//!
//! Session 90, book learning against full-strength Rapfi classical (200 ms a turn, the twelve
//! openings both ways, 96-game runs two at a time; this machine's engine without learned lines
//! scored 264/1,152, 22.9%, in session 89). The games' lines after the book are few: the first
//! position out of the book where the engine is to move was one of 81 in session 89's 1,521 games,
//! and a 16M-node book reply agreed with the game's 200 ms move at 61% of the visits. Three rounds
//! chosen by a throwaway script (182 positions): 110.5/384 (28.8%). The book shipped then (the
//! recipe's first command, on those games and these 384: 307 positions in four rounds, 33 minutes
//! with `--jobs 2`): 24.5, 29, 29.5, 27.5 and 32.5 of 96 (143/480, 29.8%), 191 of the first 192
//! games through a learned position. Against full strength Rapfi's replies hardly vary, so what
//! is learned is where it takes these openings: against another opponent the learned positions
//! come up less often (against strength 60, which picks among its best moves at random, 43 of 96
//! games; 49/96).
//!
//! Session 91: lines learned at one turn length hold at that length only. Session 90's book
//! (learned from games at 200 ms) at 300 ms a turn: 19/96 (19.8%), where the engine without
//! learned lines scored 18/96, though 71 of the 96 games reached a learned position. Two more
//! rounds on all 2,961 recorded games (the 1,056 of sessions 90 and 91 added: 480 of the shipped
//! engine at 200 ms, 192 at 300 ms, 96 at 100 ms, 288 against strength 30 to 60; 267 positions,
//! 574 learned in all, 25 minutes with `--jobs 2`), the shipped book: at 200 ms 31.5, 29.5 and
//! 30 of 96 (91/288, 31.6%), at 300 ms 25.5 and 20 of 96 (45.5/192, 23.7%), against strength 60
//! 54.5/96 (56.8%). What it learns is where Rapfi goes at the turn lengths it was played at.
//!
//! Session 92: two more rounds (211 positions, 19 minutes with `--jobs 2`) on 384 more games
//! of the shipped book (96 each at 150, 200, 250 and 300 ms a turn) scored 77.5/288 (26.9%) at
//! 200 ms and 24.5/96 (25.5%) at 300 ms, where the shipped book scored 174/576 (30.2%) and
//! 68.5/288 (23.8%). Not kept: past six rounds the lines grow, the points do not.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::Parser;
use xorboard::book::{GOMOKU_BOOK_SIZE, GomokuBook, gomoku_after, gomoku_openings};
use xorboard::commands::tools::{BuildOptions, map_in_parallel, write_output};
use xorboard::game::gomoku::{Gomoku, Rule};
use xorboard::game::notation::to_piskvork;
use xorboard::game::{Game, Move, Side};
use xorboard::search::{Limits, Searcher};
use xorboard::tt::{Policy, Table};
use xorboard::zobrist::Keys;

/// Build the Gomoku book from the engine's own searches.
#[derive(Parser, Debug)]
#[command(name = "build-gomoku-book")]
struct Args {
    /// Openings, one per line: `x,y` moves in play order (black first); `#` starts a comment.
    #[arg(long, default_value = "assets/openings-freestyle15.txt")]
    openings: String,
    /// Nodes for the search of a book move.
    #[arg(long, default_value_t = 16_000_000)]
    nodes: u64,
    /// The engine's own moves in the book after each opening.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=4))]
    plies: u32,
    /// Learn from games instead: match records (`gomoku_match.py --games-out`, one JSON game a
    /// line) of the engine's games; the book of `--book` grows by the positions they reach.
    #[arg(long, num_args = 1..)]
    learn: Vec<String>,
    /// With `--learn`: the book to extend (the output has its lines, then the learned ones).
    #[arg(long, default_value = "assets/gomoku-book.txt")]
    book: String,
    /// With `--learn`: the records' label of this engine (`A` or `B`).
    #[arg(long, default_value = "A")]
    engine: String,
    /// With `--learn`: a position is searched when this many games reach it.
    #[arg(long, default_value_t = 3)]
    min_games: usize,
    /// With `--learn`: rounds, each one own move further (numbered on from the book's own).
    #[arg(long, default_value_t = 3)]
    rounds: u32,
    #[command(flatten)]
    build: BuildOptions,
}

const SIZE: usize = GOMOKU_BOOK_SIZE;

/// How the comment line before a learned round's lines starts (the round's number follows).
const LEARNED_ROUND: &str = "# Learned, round ";

fn main() {
    let args = Args::parse();
    if !args.learn.is_empty() {
        if let Err(e) = learn(&args) {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
        return;
    }
    let openings = match read_openings(&args.openings) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let done = map_in_parallel(&openings, args.build.jobs, |i, opening| {
        let mut builder = Builder {
            nodes: args.nodes,
            hash_mib: args.build.hash,
            lines: Vec::new(),
        };
        // The engine to move at the opening, then the opponent.
        builder.own(opening, args.plies);
        builder.opponent(opening, args.plies);
        eprintln!("opening {}: {} book moves", i + 1, builder.lines.len());
        builder.lines
    });
    let mut text = format!(
        "# The Gomoku book: built by `build-gomoku-book --openings {} --nodes {} --plies {}`.\n\
         # <moves in play order, black first> -> <the engine's reply>, 0-based Piskvork x,y.\n",
        args.openings, args.nodes, args.plies
    );
    for line in done.into_iter().flatten() {
        text.push_str(&line);
        text.push('\n');
    }
    if let Err(e) = write_output(args.build.out.as_deref(), &text) {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

fn read_openings(path: &str) -> Result<Vec<Gomoku>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    gomoku_openings(&text, Keys::default_keys()).map_err(|e| format!("{path}: {e}"))
}

/// One game of a match record: the moves from the empty board in play order, and whether this
/// engine played black.
#[derive(Debug)]
struct Record {
    moves: Vec<Move>,
    /// Moves of the opening (placed by the match, not chosen by either engine).
    opening: usize,
    engine_black: bool,
}

/// The games of a `gomoku_match.py --games-out` file (fields `opening`, `moves`, `black`).
fn read_records(path: &str, engine: &str) -> Result<Vec<Record>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    parse_records(&text, path, engine)
}

/// The games of a match record's text (`path` names it in errors).
fn parse_records(text: &str, path: &str, engine: &str) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let at = || format!("{path}:{}", n + 1);
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{}: {e}", at()))?;
        let field = |name: &str| {
            v.get(name)
                .and_then(|f| f.as_str())
                .ok_or_else(|| format!("{}: no field '{name}'", at()))
        };
        let opening = field("opening")?;
        let text = format!("{opening} {}", field("moves")?);
        let game =
            gomoku_after(&text, Keys::default_keys()).map_err(|e| format!("{}: {e}", at()))?;
        records.push(Record {
            moves: game.history().to_vec(),
            opening: opening.split_whitespace().count(),
            engine_black: field("black")? == engine,
        });
    }
    Ok(records)
}

/// `--learn`: rounds of (the first position out of the book where the engine is to move, in
/// every game that followed the book so far; those reached by `--min-games` games or more
/// searched; their replies added to the book). A game leaves the count once the book's reply
/// differs from the move it played: what the opponent answers to the book's move is unknown.
fn learn(args: &Args) -> Result<(), String> {
    let mut records = Vec::new();
    for path in &args.learn {
        records.extend(read_records(path, &args.engine)?);
    }
    let mut text = std::fs::read_to_string(&args.book)
        .map_err(|e| format!("cannot read {}: {e}", args.book))?;
    let rounds_before = learned_rounds(&text);
    for round in rounds_before + 1..=rounds_before + args.rounds {
        let book = GomokuBook::parse(&text, Keys::default_keys())?;
        let chosen = positions_reached(&book, &records, args.min_games);
        eprintln!("round {round}: {} positions", chosen.len());
        let done = map_in_parallel(&chosen, args.build.jobs, |_, game| {
            let mut builder = Builder {
                nodes: args.nodes,
                hash_mib: args.build.hash,
                lines: Vec::new(),
            };
            builder.own(game, 1);
            builder.lines
        });
        text.push_str(&format!(
            "{LEARNED_ROUND}{round}: `build-gomoku-book --learn <records> --min-games {} \
             --nodes {}`.\n",
            args.min_games, args.nodes
        ));
        for line in done.into_iter().flatten() {
            text.push_str(&line);
            text.push('\n');
        }
    }
    write_output(args.build.out.as_deref(), &text)
}

/// How many learned rounds a book's text already has: new rounds are numbered on from there.
fn learned_rounds(book_text: &str) -> u32 {
    book_text
        .lines()
        .filter(|line| line.starts_with(LEARNED_ROUND))
        .count() as u32
}

/// The first position out of `book` where the engine is to move, of every record that followed
/// the book up to there, kept when `min_games` records or more reach it; in the order the records
/// first reach them, each as the first record reaching it played it.
fn positions_reached(book: &GomokuBook, records: &[Record], min_games: usize) -> Vec<Gomoku> {
    let mut reached: Vec<(u64, Gomoku, usize)> = Vec::new();
    for record in records {
        let mut game = Gomoku::new(SIZE, Rule::Freestyle, Keys::default_keys());
        for &mv in &record.moves {
            let engine_to_move = (game.side_to_move() == Side::Black) == record.engine_black;
            if engine_to_move && game.history().len() >= record.opening {
                match book.reply(&game) {
                    Some(reply) if reply == mv => {}
                    Some(_) => break,
                    // Not over: a record's moves are legal, so none follows the end.
                    None => {
                        let hash = game.hash();
                        match reached.iter_mut().find(|(h, _, _)| *h == hash) {
                            Some(entry) => entry.2 += 1,
                            None => reached.push((hash, game.clone(), 1)),
                        }
                        break;
                    }
                }
            }
            game.play(mv);
        }
    }
    reached
        .into_iter()
        .filter(|(_, _, games)| *games >= min_games)
        .map(|(_, game, _)| game)
        .collect()
}

struct Builder {
    nodes: u64,
    hash_mib: usize,
    lines: Vec<String>,
}

impl Builder {
    /// The engine's move in `game` with `nodes` nodes (a fresh table, one thread).
    fn best(&self, game: &Gomoku, nodes: u64) -> Option<Move> {
        if game.outcome().is_some() {
            return None;
        }
        let table = Arc::new(Table::new(self.hash_mib, Policy::TwoTier, 64));
        let mut searcher: Searcher<Gomoku> = Searcher::new(table);
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        searcher
            .search(game, &limits, &AtomicBool::new(false), &mut |_| {})
            .best
    }

    fn own(&mut self, game: &Gomoku, plies: u32) {
        let Some(mv) = self.best(game, self.nodes) else {
            return;
        };
        let text = |m: &Move| to_piskvork(SIZE, *m).map(|(x, y)| format!("{x},{y}"));
        let line: Vec<String> = game.history().iter().filter_map(text).collect();
        self.lines.push(format!(
            "{} -> {}",
            line.join(" "),
            text(&mv).unwrap_or_default()
        ));
        if plies > 1 {
            let mut next = game.clone();
            next.play(mv);
            self.opponent(&next, plies - 1);
        }
    }

    fn opponent(&mut self, game: &Gomoku, plies: u32) {
        let mut replies: Vec<Move> = Vec::new();
        for nodes in [
            self.nodes / 100,
            self.nodes / 25,
            self.nodes / 5,
            self.nodes,
        ] {
            if let Some(r) = self.best(game, nodes)
                && !replies.contains(&r)
            {
                replies.push(r);
            }
        }
        for r in replies {
            let mut next = game.clone();
            next.play(r);
            self.own(&next, plies);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learning_counts_the_first_position_out_of_the_book_of_games_that_followed_it() {
        // An opening with no symmetry, so the book's reply reads the same in every game.
        let book = GomokuBook::parse("7,7 9,6 -> 8,8\n", Keys::default_keys()).unwrap();
        let game = |moves: &str, black: &str| {
            format!(r#"{{"opening": "7,7 9,6", "moves": "{moves}", "black": "{black}"}}"#)
        };
        let text = [
            // The engine (A) is black: the book's 8,8, then out of the book after 9,9.
            game("8,8 9,9 6,6", "A"),
            game("8,8 9,9 5,5", "A"),
            game("8,8 9,9 6,6 4,4", "A"),
            // Left the book: the opponent's answer to 8,8 is unknown, nothing counted.
            game("8,9 9,9 6,6", "A"),
            // The engine is white: out of the book at once.
            game("8,8 9,9", "B"),
        ]
        .join("\n");
        let records = parse_records(&text, "games", "A").unwrap();
        let after = |moves| gomoku_after(moves, Keys::default_keys()).unwrap().hash();
        let hashes = |min| -> Vec<u64> {
            positions_reached(&book, &records, min)
                .iter()
                .map(|g| g.hash())
                .collect()
        };
        assert_eq!(hashes(3), vec![after("7,7 9,6 8,8 9,9")]);
        assert_eq!(
            hashes(1),
            vec![after("7,7 9,6 8,8 9,9"), after("7,7 9,6 8,8")]
        );
        let bad = parse_records("{\"opening\": \"7,7\"}", "games", "A").unwrap_err();
        assert_eq!(bad, "games:1: no field 'moves'");
    }

    #[test]
    fn learned_rounds_are_numbered_on_from_the_books_own() {
        assert_eq!(learned_rounds("7,7 9,6 -> 8,8\n"), 0);
        let book = [
            "# Openings".to_string(),
            "7,7 9,6 -> 8,8".to_string(),
            format!("{LEARNED_ROUND}1: ..."),
            "7,7 9,6 8,8 9,9 -> 6,6".to_string(),
            format!("{LEARNED_ROUND}2: ..."),
        ]
        .join("\n");
        assert_eq!(learned_rounds(&book), 2);
    }
}
