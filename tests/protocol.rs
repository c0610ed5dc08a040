//! The protocols through the real binary and the real engine: scripted NBoard and Piskvork
//! sessions, the `pbrain-` name, `END` and `ping` while thinking.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::Peer;
use xorboard::game::gomoku::{Gomoku, Rule};
use xorboard::game::notation::parse_piskvork;
use xorboard::game::othello::Othello;
use xorboard::game::{Cell, Game};
use xorboard::record::parse_ggf;
use xorboard::zobrist::Keys;

const GGF: &str = "(;GM[Othello]PC[test]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4];)";
const LIMIT: Duration = Duration::from_secs(20);

fn othello_after_ggf() -> Othello {
    parse_ggf(GGF)
        .unwrap()
        .to_othello(Keys::default_keys())
        .unwrap()
}

/// `=== F5/1.00/0.1` → the move, checked legal in `pos`.
fn check_answer(pos: &Othello, line: &str) {
    let text = line.strip_prefix("=== ").expect("=== answer");
    let sq = text.split(['/', ' ']).next().unwrap();
    let mv = pos.parse_move(sq).unwrap_or_else(|e| panic!("{line}: {e}"));
    assert!(pos.is_legal(mv), "{line} is not legal");
}

#[test]
fn nboard_scripted_session_answers_pong_move_pong() {
    // The whole script at once: `ping 2` arrives while `go` thinks.
    let script = format!("nboard 2\nset depth 20\nset game {GGF}\nping 1\ngo\nping 2\n");
    let t0 = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_xorboard"))
        .arg("nboard")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(script.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let took = t0.elapsed();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = |p: &str| lines.iter().position(|l| l.starts_with(p));
    let (p1, mv, p2) = (at("pong 1"), at("=== "), at("pong 2"));
    assert!(
        p1.is_some() && p1 < mv && mv < p2,
        "order pong 1, ===, pong 2: {lines:?}"
    );
    check_answer(&othello_after_ggf(), lines[mv.unwrap()]);
    // Depth 20 would take hours: the ping stopped the search (well under a second idle).
    assert!(took < Duration::from_secs(30), "{took:?}");
    assert!(out.status.success());
}

#[test]
fn nboard_interactive_session() {
    let mut p = Peer::xorboard(&["nboard"]);
    p.send("nboard 2");
    p.expect(LIMIT, "set myname", |l| l.starts_with("set myname"));
    p.send("set depth 4");
    p.send(&format!("set game {GGF}"));
    p.send("ping 1");
    p.expect(LIMIT, "pong 1", |l| l == "pong 1");
    let mut pos = othello_after_ggf();
    p.send("go");
    let answer = p.expect(LIMIT, "===", |l| l.starts_with("=== "));
    check_answer(&pos, &answer);
    // The engine waits for `move`: the position is unchanged until then.
    let sq = answer[4..].split('/').next().unwrap().to_string();
    p.send(&format!("move {sq}"));
    pos.play_named(&sq).unwrap();
    p.send("hint 3");
    p.expect(LIMIT, "search line", |l| l.starts_with("search "));
    p.expect(LIMIT, "status after hint", |l| l == "status");
    p.send("go");
    check_answer(&pos, &p.expect(LIMIT, "===", |l| l.starts_with("=== ")));
    p.send("learn");
    p.expect(LIMIT, "learned", |l| l == "learned");
    // A bad line is refused and changes nothing: the next answer is for the same position.
    p.send("move z9");
    p.send("set game (;GM[Othello]B[A1];)");
    p.send("go");
    check_answer(&pos, &p.expect(LIMIT, "===", |l| l.starts_with("=== ")));
    p.send("quit");
    assert!(p.wait_exit(Duration::from_secs(5)), "quit ends the engine");
}

/// FFO #40 (20 empties, black to move) from the built-in suite, and its exact score.
fn ffo40() -> (Othello, i32) {
    let text = std::fs::read_to_string("assets/ffo40-49.txt").expect("ffo data");
    let suite = xorboard::commands::solve::parse_suite(&text).expect("suite parses");
    let e = suite.into_iter().find(|e| e.id == "40").expect("#40");
    (e.game, e.score)
}

/// The eval of `go` on FFO #40 at depth 10, where the root's moves are solved.
fn ffo40_eval(args: &[&str]) -> String {
    use xorboard::record::{self, Format, Record};
    let (pos, _) = ffo40();
    let ggf = record::to_text(&Record::from_othello(&pos), Format::Ggf).unwrap();
    let mut p = Peer::xorboard(args);
    p.send("nboard 2");
    p.send("set depth 10");
    p.send(&format!("set game {ggf}"));
    p.send("go");
    let line = p.expect(Duration::from_secs(120), "===", |l| l.starts_with("=== "));
    check_answer(&pos, &line);
    p.send("quit");
    assert!(p.wait_exit(Duration::from_secs(5)));
    line.split('/').nth(1).unwrap().to_string()
}

#[test]
fn nboard_solves_the_root_for_the_result_unless_asked_for_the_exact_score() {
    let (_, score) = ffo40();
    assert_eq!(score, 38, "black wins FFO #40 by 38");
    assert_eq!(ffo40_eval(&["nboard"]), "65.00", "a proven win");
    assert_eq!(
        ffo40_eval(&["nboard", "--exact-endgame"]),
        format!("{score}.00")
    );
}

/// A reply `x,y` that is free in `game`; plays it there.
fn play_reply(game: &mut Gomoku, line: &str) {
    let mv = parse_piskvork(game.size(), line).unwrap_or_else(|e| panic!("{line}: {e}"));
    game.try_play(mv).unwrap_or_else(|e| panic!("{line}: {e}"));
}

fn piskvork_move(p: &mut Peer) -> String {
    p.expect(LIMIT, "a move", |l| {
        !l.starts_with("MESSAGE") && !l.starts_with("DEBUG")
    })
}

#[test]
fn piskvork_scripted_session() {
    let keys = Keys::default_keys();
    let mut p = Peer::xorboard(&["piskvork"]);
    p.send("START 15");
    assert_eq!(piskvork_move(&mut p), "OK");
    for info in [
        "INFO timeout_turn 200",
        "INFO timeout_match 100000",
        "INFO max_memory 83886080",
        "INFO rule 0",
    ] {
        p.send(info);
    }
    let mut game = Gomoku::new(15, Rule::Freestyle, keys);
    p.send("BEGIN");
    play_reply(&mut game, &piskvork_move(&mut p));
    // Answer with the first free field from the top-left.
    let free = (0..225).find(|&c| game.cell(c) == Cell::Empty).unwrap();
    let (x, y) = (free % 15, free / 15);
    play_reply(&mut game, &format!("{x},{y}"));
    p.send(&format!("TURN {x},{y}"));
    play_reply(&mut game, &piskvork_move(&mut p));

    p.send("RESTART");
    assert_eq!(piskvork_move(&mut p), "OK");
    p.send("BOARD");
    for l in ["7,7,2", "8,8,1", "7,8,2"] {
        p.send(l);
    }
    p.send("DONE");
    let mut g2 = Gomoku::new(15, Rule::Freestyle, keys);
    for xy in ["7,7", "8,8", "7,8"] {
        play_reply(&mut g2, xy);
    }
    play_reply(&mut g2, &piskvork_move(&mut p));

    p.send("FOO");
    assert!(piskvork_move(&mut p).starts_with("UNKNOWN"));
    p.send("TURN 99,99");
    assert!(piskvork_move(&mut p).starts_with("ERROR"));
    p.send("ABOUT");
    assert!(piskvork_move(&mut p).starts_with("name=\"xorboard\""));
    p.send("END");
    assert!(p.wait_exit(Duration::from_secs(2)), "END ends the brain");
}

#[test]
fn piskvork_end_while_thinking_exits_at_once() {
    let mut p = Peer::xorboard(&["piskvork"]);
    p.send("START 20");
    assert_eq!(piskvork_move(&mut p), "OK");
    p.send("INFO timeout_turn 60000");
    p.send("BEGIN");
    std::thread::sleep(Duration::from_millis(100));
    let t0 = Instant::now();
    p.send("END");
    // Milliseconds on an idle machine, against the turn's 60 s.
    assert!(
        p.wait_exit(Duration::from_secs(10)),
        "END ends the brain mid-search"
    );
    assert!(t0.elapsed() < Duration::from_secs(10));
}

#[test]
fn piskvork_turn_time_is_honoured() {
    let mut p = Peer::xorboard(&["piskvork"]);
    p.send("START 15");
    assert_eq!(piskvork_move(&mut p), "OK");
    // The latest limit counts: a brain that kept the first would think a minute a move.
    p.send("INFO timeout_turn 60000");
    p.send("INFO timeout_turn 300");
    p.send("ABOUT");
    piskvork_move(&mut p);
    let mut game = Gomoku::new(15, Rule::Freestyle, Keys::default_keys());
    let mut command = "BEGIN".to_string();
    for i in 0..4 {
        let t0 = Instant::now();
        p.send(&command);
        let reply = piskvork_move(&mut p);
        let took = t0.elapsed();
        play_reply(&mut game, &reply);
        // ~300 ms idle; the bound allows a loaded machine and is far below a minute
        assert!(took < Duration::from_secs(6), "move {i} took {took:?}");
        let free = (0..225).find(|&c| game.cell(c) == Cell::Empty).unwrap();
        let xy = format!("{},{}", free % 15, free / 15);
        play_reply(&mut game, &xy);
        command = format!("TURN {xy}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn piskvork_stays_within_max_memory() {
    let mut p = Peer::xorboard(&["piskvork", "--hash", "256"]);
    p.send("START 20");
    assert_eq!(piskvork_move(&mut p), "OK");
    p.send("INFO max_memory 41943040");
    p.send("INFO timeout_turn 300");
    let mut game = Gomoku::new(20, Rule::Freestyle, Keys::default_keys());
    let mut command = "BEGIN".to_string();
    for _ in 0..4 {
        p.send(&command);
        play_reply(&mut game, &piskvork_move(&mut p));
        let free = (0..400).find(|&c| game.cell(c) == Cell::Empty).unwrap();
        let xy = format!("{},{}", free % 20, free / 20);
        play_reply(&mut game, &xy);
        command = format!("TURN {xy}");
    }
    let peak = p.peak_rss_kib().expect("VmHWM");
    assert!(peak < 40 * 1024, "peak {peak} KiB over the 40 MiB allowed");
}

#[test]
fn pbrain_name_runs_the_brain() {
    // The separate binary…
    let mut p = Peer::spawn(env!("CARGO_BIN_EXE_pbrain-xorboard"), &[]);
    p.send("ABOUT");
    assert!(p.expect(LIMIT, "about", |_| true).contains("xorboard"));
    drop(p);
    // …and the main binary under any name pbrain-* (the name it is started by decides). A
    // symbolic link, not a copy: a copy just written can fail to start ("text file busy") while
    // another test thread forks with the copy's write handle still open.
    let dir = common::scratch_dir("pbrain");
    let link = dir.join("pbrain-xorboard-link");
    let _ = std::fs::remove_file(&link);
    #[cfg(unix)]
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_xorboard"), &link).unwrap();
    #[cfg(not(unix))]
    std::fs::copy(env!("CARGO_BIN_EXE_xorboard"), &link).unwrap();
    {
        let mut p = Peer::spawn(link.to_str().unwrap(), &[]);
        p.send("START 10");
        assert_eq!(p.expect(LIMIT, "OK", |_| true), "OK");
        p.send("END");
        assert!(p.wait_exit(Duration::from_secs(2)));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
