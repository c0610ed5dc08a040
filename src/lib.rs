//! xorboard: Othello and Gomoku against an alpha-beta engine, built to show Zobrist hashing at work.
//!
//! The crate is a library with a thin binary (`src/main.rs`). Its layers, from the bottom:
//!
//! - [`game`] holds the rules: a [`game::Game`] trait over Othello bitboards and N×N Gomoku, where
//!   every move is a list of [`game::Change`]s and the Zobrist hash ([`zobrist`]) is kept
//!   incrementally from those changes. [`game::othello::bitboard`] is the one Othello bit kernel
//!   (moves, flips, final score, stability; SIMD with portable fallbacks) that the rules, perft,
//!   the midgame search and the exact solver all call. [`game::registry`] is the one place that
//!   lists the games ([`game::GameKind`], [`game::AnyGame`], [`with_game!`], [`game::GameSpec`]);
//!   [`error`] is the crate's one-line error.
//! - [`storage`] is the memory and slot machinery under both transposition tables: [`tt`] (the
//!   teaching table, keyed by Zobrist hash) and the endgame solver's table.
//! - [`search`] is the alpha-beta searcher ([`search::Searcher`], options as values given to
//!   every thread, a move picker), each game's search board, the Othello evaluations and exact
//!   endgame solver, and the Gomoku threat search.
//! - [`engine`] runs a searcher on a thread (`Command` in, `Report` out); [`ui`] is the screen,
//!   [`protocol`] the NBoard and Piskvork engine protocols, [`record`] game files.
//! - [`commands`] holds the command line (`play`, `perft`, `hash`, `bench`, `solve`, …), each
//!   printing text or one JSON object per line, and the clap adapters of the crate's enums.
//!   Nothing outside `commands/`, `main.rs` and `bin/` imports it (`tests/layers.rs` checks).
//!
//! Modules under `game`, `zobrist`, `tt`, `storage` and `search` know nothing of the UI or of
//! protocols; the terminal UI talks to the engine only through the engine thread's `Command` /
//! `Report` channels.
//!
//! # Adding a placement game (say Hex or Connect Four)
//!
//! The files a new game touches, in the order to write them:
//!
//! 1. `src/game/<name>.rs` (new): the rules as a [`game::Game`] — cells, legal moves, `Change`
//!    lists, outcome, notation of a move; and `pub mod <name>;` in `src/game.rs`. If the board
//!    has more cells than [`zobrist::MAX_CELLS`], raise it in `src/zobrist.rs`.
//! 2. `src/game/registry.rs`: a [`game::GameKind`] variant (and its `name`), an
//!    [`game::AnyGame`] variant, an arm of [`with_game!`], and an arm of `GameSpec::start`
//!    (plus any option of its own, as Gomoku's `size` and `rule`).
//! 3. `src/search/<name>.rs` (new): the game's [`search::Searchable`] and search
//!    [`search::Board`] (make/unmake, move generation with ordering scores, evaluation); and
//!    `pub mod <name>;` in `src/search.rs` (and its case in `score_text` if its scores need one).
//! 4. `src/engine.rs`: a `Searcher` for the new game beside the Othello and Gomoku ones, and its
//!    arm where a `Position` is searched.
//! 5. The command line: `src/commands/values.rs` (the `GameKind` value), `split_moves` in
//!    `src/commands.rs` (its move-list notation, in `src/game/notation.rs`), and the commands that
//!    treat games differently: `perft`, `bench` (its position set), `solve`, `selfplay`.
//! 6. The screen: `src/ui/position.rs` (what panels ask of any game), `src/ui/board.rs` (how its
//!    cells are drawn and clicked), `src/ui/app.rs` and `src/ui/command.rs` (choosing it),
//!    `src/ui/compare.rs` (its default depths).
//! 7. Optional: `src/record.rs` (a file format), `src/protocol/` (an engine protocol),
//!    `tests/` (rules, perft and Zobrist tests read data files, as for the two games here).
//!
//! Everything the compiler does not point to is in the list above: the `match`es on
//! [`game::GameKind`] and [`game::AnyGame`] are exhaustive, so adding the variants in step 2 makes
//! the compiler list the remaining places.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod book;
pub mod commands;
pub mod cpu;
pub mod engine;
pub mod error;
pub mod game;
pub mod lesson;
pub mod perft;
pub mod protocol;
pub mod record;
pub mod search;
pub mod storage;
pub mod tt;
pub mod ui;
pub mod zobrist;

pub use error::Error;
