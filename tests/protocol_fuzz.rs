//! Both protocol readers fed random lines and random bytes: no panic, and a refused line
//! (NBoard: a diagnostic; Piskvork: `ERROR` / `UNKNOWN`) leaves the session's state unchanged.
//! Searches are answered at once by a stand-in that plays the first legal move, so the sessions
//! also walk through their search-result paths.

use std::time::Instant;

use proptest::prelude::*;
use xorboard::game::AnyGame;
use xorboard::game::Game;
use xorboard::protocol::nboard::Nboard;
use xorboard::protocol::piskvork::Piskvork;
use xorboard::protocol::{Effect, SearchInfo, Session};
use xorboard::zobrist::Keys;

/// Answer every search in `effects` (and the searches those answers start) with the first legal
/// move; returns every effect produced.
fn resolve<S: Session>(session: &mut S, effects: Vec<Effect>, out: &mut Vec<Effect>) {
    for e in effects {
        if let Effect::Search(req) = &e {
            let mut moves = Vec::new();
            match &req.position {
                AnyGame::Othello(g) => g.legal_moves(&mut moves),
                AnyGame::Gomoku(g) => g.legal_moves(&mut moves),
            }
            let info = SearchInfo {
                depth: 1,
                best: moves.first().copied(),
                pv: moves.first().copied().into_iter().collect(),
                ..SearchInfo::default()
            };
            assert_eq!(session.searching(), Some(req.id));
            let next = session.done(req.id, &info);
            out.push(e.clone());
            resolve(session, next, out);
        } else {
            out.push(e);
        }
    }
}

fn nboard_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("nboard 2".to_string()),
        "set depth [0-9]{1,3}",
        Just("set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3];)".to_string()),
        "set game \\(;GM\\[Othello\\][A-Z]{1,2}\\[[a-h1-8 */O-]{0,70}\\];\\)",
        "set game .{0,60}",
        "move [a-iA-I][0-9](/[0-9.-]{0,5}){0,2}",
        "move (pa|PA|ps)",
        "[a-h][1-8]",
        "hint [0-9]{1,2}",
        Just("go".to_string()),
        "ping [0-9]{1,3}",
        Just("learn".to_string()),
        Just("analyze".to_string()),
        "set contempt -?[0-9]{1,5}",
        "set [a-z]{1,8} .{0,10}",
        "[a-z ]{0,12}",
        "\\PC{0,40}",
    ]
}

fn piskvork_line() -> impl Strategy<Value = String> {
    prop_oneof![
        "(START|start) [0-9]{1,2}",
        "RECTSTART [0-9]{1,2},[0-9]{1,2}",
        Just("RESTART".to_string()),
        Just("BEGIN".to_string()),
        "TURN [0-9]{1,2},[0-9]{1,2}",
        "turn -?[0-9]{1,3}, ?[0-9]{1,2}",
        Just("BOARD".to_string()),
        Just("SWAP2BOARD".to_string()),
        "[0-9]{1,2},[0-9]{1,2},[0-4]",
        Just("DONE".to_string()),
        "TAKEBACK [0-9]{1,2},[0-9]{1,2}",
        "INFO (timeout_turn|timeout_match|time_left|max_memory|rule|thread_num|game_type|folder|foo) -?[0-9a-z]{1,10}",
        Just("ABOUT".to_string()),
        Just("YXSTOP".to_string()),
        "[A-Z]{1,8}( .{0,10})?",
        "\\PC{0,40}",
    ]
}

fn bytes_line() -> impl Strategy<Value = String> {
    prop::collection::vec(any::<u8>(), 0..60).prop_map(|b| String::from_utf8_lossy(&b).into_owned())
}

fn check_nboard(lines: &[String]) -> Result<(), TestCaseError> {
    let mut s = Nboard::new(Keys::default_keys()).with_depth(2);
    let now = Instant::now();
    for line in lines {
        let before = s.snapshot();
        let effects = s.line(line, now);
        let refused = effects.iter().any(|e| matches!(e, Effect::Log(_)));
        if refused {
            prop_assert_eq!(&s.snapshot(), &before, "line {:?}", line);
        }
        let mut all = Vec::new();
        resolve(&mut s, effects, &mut all);
        for e in &all {
            if let Effect::Send(text) = e {
                prop_assert!(!text.contains('\n'), "multi-line output {:?}", text);
                if let Some(mv) = text.strip_prefix("=== ") {
                    let sq = mv.split('/').next().unwrap_or("");
                    let m = s.game().parse_move(sq);
                    prop_assert!(
                        m.is_ok_and(|m| s.game().is_legal(m)),
                        "{} after {:?}",
                        text,
                        line
                    );
                }
            }
        }
        prop_assert!(s.searching().is_none());
        prop_assert_eq!(s.game().hash(), s.game().recompute_hash());
    }
    Ok(())
}

fn check_piskvork(lines: &[String]) -> Result<(), TestCaseError> {
    let mut s = Piskvork::new(Keys::default_keys(), 16);
    let now = Instant::now();
    for line in lines {
        let before = s.snapshot();
        let effects = s.line(line, now);
        let refused = effects.iter().any(
            |e| matches!(e, Effect::Send(t) if t.starts_with("ERROR") || t.starts_with("UNKNOWN")),
        );
        if refused {
            prop_assert_eq!(&s.snapshot(), &before, "line {:?}", line);
        }
        let mut all = Vec::new();
        resolve(&mut s, effects, &mut all);
        for e in &all {
            if let Effect::Send(text) = e {
                prop_assert!(!text.contains('\n'), "multi-line output {:?}", text);
            }
        }
        prop_assert!(s.searching().is_none());
        if let Some(g) = s.game() {
            prop_assert_eq!(g.hash(), g.recompute_hash());
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn nboard_random_lines(lines in prop::collection::vec(nboard_line(), 1..40)) {
        check_nboard(&lines)?;
    }

    #[test]
    fn nboard_random_bytes(lines in prop::collection::vec(bytes_line(), 1..20)) {
        check_nboard(&lines)?;
    }

    #[test]
    fn piskvork_random_lines(lines in prop::collection::vec(piskvork_line(), 1..60)) {
        check_piskvork(&lines)?;
    }

    #[test]
    fn piskvork_random_lines_after_start(lines in prop::collection::vec(piskvork_line(), 1..60),
                                          size in 5usize..=20) {
        let mut all = vec![format!("START {size}"), "INFO timeout_turn 10".to_string()];
        all.extend(lines);
        check_piskvork(&all)?;
    }

    #[test]
    fn piskvork_random_bytes(lines in prop::collection::vec(bytes_line(), 1..20)) {
        let mut all = vec!["START 15".to_string()];
        all.extend(lines);
        check_piskvork(&all)?;
    }
}
