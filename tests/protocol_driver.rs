//! The protocol driver with a stand-in thinker whose searches never end by themselves: lines
//! that arrive mid-search are still seen (NBoard `ping`), Piskvork's hard deadline stops a
//! search, and `END` ends the session at once.

use std::io::Cursor;
use std::time::{Duration, Instant};

use xorboard::game::AnyGame;
use xorboard::game::Game;
use xorboard::protocol::nboard::Nboard;
use xorboard::protocol::piskvork::Piskvork;
use xorboard::protocol::{self, SearchInfo, SearchRequest, ThinkReport, Thinker};
use xorboard::zobrist::Keys;

/// Searches "forever": answers only after `stop`, with the first legal move.
#[derive(Default)]
struct Endless {
    running: Option<(SearchRequest, Instant)>,
    stopped: bool,
    searches: usize,
}

impl Thinker for Endless {
    fn search(&mut self, request: SearchRequest) {
        self.running = Some((request, Instant::now()));
        self.stopped = false;
        self.searches += 1;
    }
    fn stop(&mut self) {
        self.stopped = true;
    }
    fn poll(&mut self, wait: Duration) -> Option<ThinkReport> {
        let (req, t0) = self.running.as_ref()?;
        if !self.stopped {
            std::thread::sleep(wait);
            return Some(ThinkReport::Progress(
                req.id,
                SearchInfo {
                    elapsed_ms: t0.elapsed().as_millis() as u64,
                    ..SearchInfo::default()
                },
            ));
        }
        let mut moves = Vec::new();
        match &req.position {
            AnyGame::Othello(g) => g.legal_moves(&mut moves),
            AnyGame::Gomoku(g) => g.legal_moves(&mut moves),
        }
        let info = SearchInfo {
            depth: 1,
            best: moves.first().copied(),
            pv: moves.first().copied().into_iter().collect(),
            elapsed_ms: t0.elapsed().as_millis() as u64,
            ..SearchInfo::default()
        };
        let id = req.id;
        self.running = None;
        Some(ThinkReport::Done(id, info))
    }
    fn set_tt_mib(&mut self, _mib: usize) {}
    fn set_threads(&mut self, _threads: usize) {}
}

fn run_script<S: protocol::Session>(session: &mut S, script: &str) -> (Vec<String>, Duration) {
    let mut thinker = Endless::default();
    let mut out = Vec::new();
    let t0 = Instant::now();
    protocol::run(
        session,
        &mut thinker,
        Cursor::new(script.as_bytes().to_vec()),
        &mut out,
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    (text.lines().map(str::to_string).collect(), t0.elapsed())
}

#[test]
fn nboard_ping_interrupts_go() {
    let mut s = Nboard::new(Keys::default_keys());
    let script = "nboard 2\nset depth 30\nset game (;GM[Othello]PC[test]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)\nping 1\ngo\nping 2\n";
    let (lines, took) = run_script(&mut s, script);
    let pos = |p: &str| lines.iter().position(|l| l.starts_with(p));
    let (p1, mv, p2) = (pos("pong 1"), pos("=== "), pos("pong 2"));
    assert!(p1 < mv && mv < p2 && p2.is_some(), "{lines:?}");
    let answer = &lines[mv.unwrap()][4..];
    let sq = answer.split('/').next().unwrap();
    let m = s.game().parse_move(sq).unwrap();
    assert!(s.game().is_legal(m), "{answer}");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn piskvork_deadline_stops_the_search() {
    let mut s = Piskvork::new(Keys::default_keys(), 8);
    let script = "START 15\nINFO timeout_turn 200\nBEGIN\n";
    let t0 = Instant::now();
    let (lines, _) = run_script(&mut s, script);
    let took = t0.elapsed();
    assert_eq!(lines.first().map(String::as_str), Some("OK"), "{lines:?}");
    assert!(lines.last().is_some_and(|l| l.contains(',')), "{lines:?}");
    // It thinks until the deadline (170 ms of the 200), not forever: the upper bound allows a
    // loaded machine.
    assert!(
        took >= Duration::from_millis(100)
            && took < Duration::from_millis(200) + Duration::from_secs(3),
        "{took:?}"
    );
}

#[test]
fn piskvork_end_quits_mid_search() {
    let mut s = Piskvork::new(Keys::default_keys(), 8);
    let script = "START 15\nINFO timeout_turn 60000\nBEGIN\nEND\n";
    let (lines, took) = run_script(&mut s, script);
    assert_eq!(lines, ["OK"], "nothing after END");
    // milliseconds idle, against the turn's 60 s
    assert!(took < Duration::from_secs(10), "{took:?}");
}
