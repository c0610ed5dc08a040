//! xorboard: Othello and Gomoku against an alpha-beta engine, built to show Zobrist hashing at work.
//!
//! The crate is a library with a thin binary (`src/main.rs`). Data flows one way:
//!
//! - [`game`] holds the rules: a [`game::Game`] trait over Othello bitboards and N×N Gomoku, where
//!   every move is a list of [`game::Change`]s and the Zobrist hash ([`zobrist`]) is kept
//!   incrementally from those changes.
//! - [`perft`] enumerates move paths (and memoises them by hash, the first place hashing pays).
//! - [`commands`] holds the headless command-line commands (`perft`, `hash`, …), each printing text
//!   or one JSON object per line.
//!
//! Modules under `game`, `zobrist`, `tt` and `search` know nothing of the UI or of protocols; the
//! terminal UI talks to the engine only through the engine thread's `Command` / `Report` channels.

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
