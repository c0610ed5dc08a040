//! Rules of both games: Gomoku five detection in every direction and at the edges, overlines under
//! `exact5`, draws; Othello passes and game end on FForum positions; move errors.

use xorboard::game::gomoku::{Gomoku, Rule};
use xorboard::game::notation::{parse_obf, split_gomoku_list, to_obf};
use xorboard::game::othello::Othello;
use xorboard::game::{Game, Move, MoveError, Outcome, Side, play_line};
use xorboard::zobrist::Keys;

fn gomoku(size: usize, rule: Rule, moves: &str) -> Gomoku {
    let mut g = Gomoku::new(size, rule, Keys::default_keys());
    play_line(&mut g, &split_gomoku_list(moves)).unwrap();
    g
}

#[test]
fn five_in_a_row_horizontal_vertical_and_both_diagonals() {
    // black plays the line, white answers far away
    let cases = [
        "a1,a15,b1,b15,c1,c15,d1,d15,e1",      // row, at the bottom edge
        "o11,a15,o12,b15,o13,c15,o14,d15,o15", // column, at the right edge and corner
        "d4,a15,e5,b15,f6,c15,g7,d15,h8",      // diagonal up-right
        "k1,a15,j2,b15,i3,c15,h4,d15,g5",      // anti-diagonal from the bottom edge
        "e1,a15,d1,b15,b1,c15,a1,d15,c1",      // filled out of order: middle stone completes
    ];
    for moves in cases {
        let g = gomoku(15, Rule::Freestyle, moves);
        assert_eq!(g.outcome(), Some(Outcome::Win(Side::Black)), "{moves}");
        assert_eq!(g.winning_line().map(|l| l.len()), Some(5), "{moves}");
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert!(v.is_empty(), "no moves after a win");
    }
}

#[test]
fn four_is_not_five() {
    let g = gomoku(15, Rule::Freestyle, "a1,a15,b1,b15,c1,c15,d1");
    assert_eq!(g.outcome(), None);
}

#[test]
fn white_can_win_too() {
    let g = gomoku(15, Rule::Freestyle, "a1,h8,a3,h9,a5,h10,a7,h11,a9,h12");
    assert_eq!(g.outcome(), Some(Outcome::Win(Side::White)));
}

#[test]
fn overline_wins_freestyle_but_not_exact5() {
    // b1 c1 d1 e1 + f1 + a1 ... build six: a1..f1 with the last stone joining two groups
    let moves = "a1,a15,b1,b15,c1,c15,e1,e15,f1,f15,d1";
    let free = gomoku(15, Rule::Freestyle, moves);
    assert_eq!(free.outcome(), Some(Outcome::Win(Side::Black)));
    assert_eq!(free.winning_line().unwrap().len(), 6);
    let exact = gomoku(15, Rule::Exact5, moves);
    assert_eq!(
        exact.outcome(),
        None,
        "six in a row does not win under exact5"
    );
    // exactly five still wins under exact5
    let five = gomoku(15, Rule::Exact5, "a1,a15,b1,b15,c1,c15,d1,d15,e1");
    assert_eq!(five.outcome(), Some(Outcome::Win(Side::Black)));
}

#[test]
fn full_board_is_a_draw() {
    // 5×5 filled column by column in a pattern with no five: colour by (x / 2 + y) parity
    let mut g = Gomoku::new(5, Rule::Freestyle, Keys::default_keys());
    let mut black = Vec::new();
    let mut white = Vec::new();
    for y in 0..5 {
        for x in 0..5 {
            if ((x / 2) + y) % 2 == 0 {
                black.push(y * 5 + x);
            } else {
                white.push(y * 5 + x);
            }
        }
    }
    // 13 vs 12 or 12 vs 13: black needs the larger set
    if black.len() < white.len() {
        std::mem::swap(&mut black, &mut white);
    }
    for i in 0..25 {
        let cell = if i % 2 == 0 {
            black[i / 2]
        } else {
            white[i / 2]
        };
        assert_eq!(g.outcome(), None);
        g.try_play(Move::at(cell)).unwrap();
    }
    assert_eq!(g.outcome(), Some(Outcome::Draw));
}

#[test]
fn gomoku_errors_change_nothing() {
    let mut g = gomoku(15, Rule::Freestyle, "h8");
    let h = g.hash();
    assert_eq!(g.play_named("h8").unwrap_err(), MoveError::Occupied);
    assert!(g.play_named("z99").is_err());
    assert!(g.try_play(Move::PASS).is_err());
    assert_eq!(g.hash(), h);
    assert_eq!(g.ply(), 1);
    let err = play_line(&mut g, &["i9".into(), "h8".into()]).unwrap_err();
    assert_eq!(err, "move 2 'h8': square already occupied");
    assert_eq!(g.ply(), 1, "a failed line leaves the game as it was");
}

fn ffo_positions() -> Vec<(Othello, i32)> {
    include_str!("data/ffo1-39.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split(';');
            let board = parts.next().unwrap();
            let score: i32 = parts.next().unwrap().trim().parse().unwrap();
            (parse_obf(board, Keys::default_keys()).unwrap(), score)
        })
        .collect()
}

#[test]
fn obf_round_trips() {
    for (g, _) in ffo_positions() {
        let back = parse_obf(&to_obf(&g), Keys::default_keys()).unwrap();
        assert_eq!(back.hash(), g.hash());
    }
    assert!(parse_obf("XO", Keys::default_keys()).is_err());
    assert!(parse_obf(&format!("{} Z", "-".repeat(64)), Keys::default_keys()).is_err());
    assert!(parse_obf(&format!("{}Q X", "-".repeat(63)), Keys::default_keys()).is_err());
}

/// Play every FForum position to the end, always taking the first legal move: passes appear
/// exactly when a side has no move, and the game ends exactly when neither has.
#[test]
fn othello_passes_and_game_end_on_ffo_positions() {
    let mut passes = 0;
    for (mut g, _) in ffo_positions() {
        let mut moves = Vec::new();
        loop {
            g.legal_moves(&mut moves);
            let (p, o) = g.player_opponent();
            let mine = xorboard::game::othello::moves(p, o);
            let theirs = xorboard::game::othello::moves(o, p);
            if moves.is_empty() {
                assert_eq!((mine, theirs), (0, 0));
                assert!(g.is_over());
                break;
            }
            if moves == [Move::PASS] {
                assert_eq!(mine, 0);
                assert_ne!(theirs, 0);
                passes += 1;
                // a square is refused while a pass is due
                let empty = (0..64)
                    .find(|&c| g.cell(c) == xorboard::game::Cell::Empty)
                    .unwrap();
                assert_eq!(g.check_move(Move::at(empty)), Err(MoveError::MustPass));
            } else {
                assert_eq!(g.check_move(Move::PASS), Err(MoveError::PassNotAllowed));
            }
            assert_eq!(g.outcome(), None);
            g.try_play(moves[0]).unwrap();
        }
        let out = g.outcome().unwrap();
        let (b, w) = (g.black().count_ones(), g.white().count_ones());
        let expected = match b.cmp(&w) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::Black),
            std::cmp::Ordering::Less => Outcome::Win(Side::White),
            std::cmp::Ordering::Equal => Outcome::Draw,
        };
        assert_eq!(out, expected);
        assert_eq!(g.try_play(Move::PASS), Err(MoveError::GameOver));
    }
    assert!(passes > 0, "some FFO playout must contain a pass");
}

#[test]
fn othello_errors_name_the_move() {
    let mut g = Othello::default();
    assert_eq!(
        play_line(&mut g, &["f5".into(), "f5".into()]).unwrap_err(),
        "move 2 'f5': square already occupied"
    );
    assert_eq!(
        play_line(&mut g, &["a1".into()]).unwrap_err(),
        "move 1 'a1': flips no disc"
    );
    assert!(
        play_line(&mut g, &["k9".into()])
            .unwrap_err()
            .starts_with("move 1 'k9'")
    );
    assert_eq!(g.ply(), 0);
}
