//! Complete games over each protocol between two xorboard processes, refereed here: the referee
//! keeps the true position, checks every answer, and saves the finished game as a record that
//! must load back to the same position and hash. Shallow settings keep it fast.

mod common;

use std::time::{Duration, Instant};

use common::Peer;
use xorboard::game::gomoku::{Gomoku, Rule};
use xorboard::game::notation::{parse_piskvork, to_piskvork};
use xorboard::game::othello::Othello;
use xorboard::game::{Game, Move};
use xorboard::record::{self, Format, Record};
use xorboard::zobrist::Keys;

const LIMIT: Duration = Duration::from_secs(30);

/// One Othello game; `engines[0]` plays black. Returns the final position.
fn othello_game(engines: &mut [Peer; 2], opening: &str, ping: &mut u32) -> Othello {
    let keys = Keys::default_keys();
    let mut pos = Othello::new(keys);
    for sq in xorboard::game::notation::split_othello_transcript(opening).unwrap() {
        pos.play_named(&sq).unwrap();
    }
    let ggf = record::to_text(&Record::from_othello(&pos), Format::Ggf).unwrap();
    for e in engines.iter_mut() {
        e.send("nboard 2");
        e.send("set depth 3");
        e.send(&format!("set game {ggf}"));
        *ping += 1;
        e.send(&format!("ping {ping}"));
        let want = format!("pong {ping}");
        e.expect(LIMIT, "pong", |l| l == want);
    }
    while !pos.is_over() {
        let mv = if pos.move_mask() == 0 {
            Move::PASS
        } else {
            let who = pos.side_to_move().index();
            engines[who].send("go");
            let line = engines[who].expect(LIMIT, "===", |l| l.starts_with("=== "));
            let sq = line[4..].split(['/', ' ']).next().unwrap_or("").to_string();
            let mv = pos
                .parse_move(&sq)
                .unwrap_or_else(|e| panic!("{line}: {e} after {:?}", pos.history()));
            assert!(
                pos.is_legal(mv),
                "{line} is illegal after {:?}",
                pos.history()
            );
            mv
        };
        let name = pos.move_name(mv).to_uppercase();
        for e in engines.iter_mut() {
            e.send(&format!("move {name}"));
        }
        pos.play(mv);
    }
    pos
}

#[test]
fn othello_games_over_nboard() {
    let mut engines = [Peer::xorboard(&["nboard"]), Peer::xorboard(&["nboard"])];
    let mut ping = 0;
    let dir = common::scratch_dir("games");
    for (g, opening) in ["f5d6c3d3c4", "f5f6e6f4"].iter().enumerate() {
        for swap in [false, true] {
            if swap {
                engines.swap(0, 1);
            }
            let end = othello_game(&mut engines, opening, &mut ping);
            assert!(end.is_over());
            assert!(end.ply() >= 50, "a whole game: {} plies", end.ply());
            // The finished game as a record, saved and loaded back.
            let path = dir.join(format!("game{g}{swap}.ggf"));
            record::save(&path, &Record::from_othello(&end)).unwrap();
            let back = record::load(&path)
                .unwrap()
                .to_othello(Keys::default_keys())
                .unwrap();
            assert_eq!(back.hash(), end.hash());
            assert_eq!(back.outcome(), end.outcome());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    for e in engines.iter_mut() {
        e.send("quit");
        assert!(e.wait_exit(Duration::from_secs(5)));
    }
}

/// One Gomoku game on `size`×`size` after `opening` (0-based x,y in play order); `black` moves
/// first. Returns the final position.
fn gomoku_game(black_first: bool, size: usize, opening: &[(usize, usize)], turn_ms: u64) -> Gomoku {
    let keys = Keys::default_keys();
    let mut engines = [Peer::xorboard(&["piskvork"]), Peer::xorboard(&["piskvork"])];
    if !black_first {
        engines.swap(0, 1);
    }
    for e in engines.iter_mut() {
        e.send(&format!("START {size}"));
        assert_eq!(e.expect(LIMIT, "OK", |l| !l.starts_with("MESSAGE")), "OK");
        for info in [
            format!("INFO timeout_turn {turn_ms}"),
            "INFO timeout_match 0".to_string(),
            "INFO max_memory 67108864".to_string(),
            "INFO rule 0".to_string(),
            "INFO game_type 1".to_string(),
        ] {
            e.send(&info);
        }
    }
    let mut pos = Gomoku::new(size, Rule::Freestyle, keys);
    for &(x, y) in opening {
        pos.try_play(Move::at(y * size + x)).unwrap();
    }
    let mut first = [true, true];
    while pos.outcome().is_none() {
        let who = pos.side_to_move().index();
        let e = &mut engines[who];
        let t0 = Instant::now();
        if first[who] && pos.stones() == 0 {
            e.send("BEGIN");
        } else if first[who] {
            e.send("BOARD");
            for (k, &m) in pos.history().iter().enumerate() {
                let (x, y) = to_piskvork(size, m).unwrap();
                let own = if k % 2 == who { 1 } else { 2 };
                e.send(&format!("{x},{y},{own}"));
            }
            e.send("DONE");
        } else {
            let (x, y) = to_piskvork(size, pos.last_move().unwrap()).unwrap();
            e.send(&format!("TURN {x},{y}"));
        }
        first[who] = false;
        let line = e.expect(LIMIT, "a move", |l| {
            !l.starts_with("MESSAGE") && !l.starts_with("DEBUG")
        });
        let took = t0.elapsed();
        // The turn's limit is honoured: `turn_ms` idle, plus room for a loaded machine, and
        // well under the 5 s a brain that ignored `INFO timeout_turn` would take.
        assert!(
            took < Duration::from_millis(turn_ms + 2000),
            "{line} took {took:?}"
        );
        let mv = parse_piskvork(size, &line).unwrap_or_else(|err| panic!("{line}: {err}"));
        pos.try_play(mv)
            .unwrap_or_else(|err| panic!("{line}: {err} after {:?}", pos.history()));
    }
    for e in engines.iter_mut() {
        e.send("END");
        assert!(e.wait_exit(Duration::from_secs(10)), "END ends the brain");
    }
    pos
}

#[test]
fn gomoku_games_over_piskvork() {
    let opening = [(5, 5), (5, 4), (6, 6)];
    for black_first in [true, false] {
        let end = gomoku_game(black_first, 10, &opening, 40);
        assert!(end.outcome().is_some());
        // The finished game as a .psq, loaded back.
        let rec = Record::from_gomoku(&end);
        let text = record::to_text(&rec, Format::Psq).unwrap();
        let back = record::from_text(&text, None).unwrap();
        let g = back.to_gomoku(Keys::default_keys()).unwrap();
        assert_eq!(g.hash(), end.hash());
        assert_eq!(g.outcome(), end.outcome());
    }
    // And from an empty board, where the first brain gets BEGIN.
    let end = gomoku_game(true, 9, &[], 40);
    assert!(end.outcome().is_some());
}
