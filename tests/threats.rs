//! Gomoku threat search: the two tactics puzzles solved and their proofs replayed on the plain
//! Gomoku rules (every defender move, not only the ones the search considered), the pattern
//! probes checked against brute force on random positions, and `solve` verdicts.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use xorboard::game::gomoku::{Gomoku, Rule};
use xorboard::game::notation::split_gomoku_list;
use xorboard::game::{Cell, Game, Move, Outcome, Side, play_line};
use xorboard::search::threats::board::ThreatBoard;
use xorboard::search::threats::{
    self, ProofNode, Status, ThreatLimits, ThreatSearcher, puzzle, threat_counts,
};
use xorboard::zobrist::Keys;

fn load(name: &str) -> puzzle::Puzzle {
    let text = std::fs::read_to_string(format!("tests/data/tactics/{name}")).unwrap();
    puzzle::parse(&text, Keys::default_keys()).unwrap()
}

fn game(size: usize, rule: Rule, moves: &str) -> Gomoku {
    let mut g = Gomoku::new(size, rule, Keys::default_keys());
    play_line(&mut g, &split_gomoku_list(moves)).unwrap();
    g
}

fn names(g: &Gomoku, line: &[Move]) -> Vec<String> {
    line.iter().map(|&m| g.move_name(m)).collect()
}

/// Whether a stone of `side` on the empty `c` makes a winning row: the rule written out again,
/// independently of the game and of the search's tables.
fn wins_with(cells: &[Cell], n: usize, rule: Rule, c: usize, side: Side) -> bool {
    let (x, y) = ((c % n) as i32, (c / n) as i32);
    let own = side.stone();
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
        let mut total = 1;
        for sign in [1, -1] {
            let (mut cx, mut cy) = (x + sign * dx, y + sign * dy);
            while cx >= 0
                && cy >= 0
                && cx < n as i32
                && cy < n as i32
                && cells[(cy * n as i32 + cx) as usize] == own
            {
                total += 1;
                cx += sign * dx;
                cy += sign * dy;
            }
        }
        match rule {
            Rule::Freestyle => total >= 5,
            Rule::Exact5 => total == 5,
        }
    })
}

/// Empty cells where `side` would win at once.
fn fives(cells: &[Cell], n: usize, rule: Rule, side: Side) -> Vec<usize> {
    (0..n * n)
        .filter(|&c| cells[c] == Cell::Empty && wins_with(cells, n, rule, c, side))
        .collect()
}

/// Play a line on the rules and check it ends with the attacker's five.
fn replay_wins(start: &Gomoku, attacker: Side, line: &[Move]) {
    let mut g = start.clone();
    for (i, &m) in line.iter().enumerate() {
        assert_eq!(
            g.outcome(),
            None,
            "game over before move {i} of {:?}",
            names(start, line)
        );
        let side = g.side_to_move();
        assert_eq!(
            side == attacker,
            i % 2 == 0,
            "attacker and defender alternate"
        );
        g.try_play(m).unwrap();
    }
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win(attacker)),
        "line {:?}",
        names(start, line)
    );
}

/// Check a proof tree on the rules. `g` has the attacker to move. Returns defender moves checked.
fn verify_attack(g: &mut Gomoku, attacker: Side, node: &ProofNode) -> usize {
    assert_eq!(g.side_to_move(), attacker);
    g.try_play(node.attacker)
        .expect("the attacker's move is legal");
    let checked = if node.replies.is_empty() {
        assert_eq!(
            g.outcome(),
            Some(Outcome::Win(attacker)),
            "a leaf completes five"
        );
        0
    } else {
        assert_eq!(g.outcome(), None);
        verify_defence(g, attacker, &node.replies)
    };
    g.undo();
    checked
}

/// Every legal defender move is either answered in the tree, or lets the attacker win at once:
/// a five point now, or a move making two five points while the defender has no five point.
fn verify_defence(g: &mut Gomoku, attacker: Side, replies: &[(Move, ProofNode)]) -> usize {
    let (n, rule, defender) = (g.size(), g.rule(), attacker.opponent());
    let cells = g.cells().to_vec();
    assert!(
        fives(&cells, n, rule, defender).is_empty(),
        "the defender cannot win at once"
    );
    let empties: Vec<usize> = (0..n * n).filter(|&c| cells[c] == Cell::Empty).collect();
    let double: Vec<usize> = empties
        .iter()
        .copied()
        .filter(|&a| {
            let mut c = cells.clone();
            c[a] = attacker.stone();
            fives(&c, n, rule, attacker).len() >= 2
        })
        .collect();
    let mut checked = 0;
    for &d in &empties {
        checked += 1;
        let m = Move::at(d);
        if let Some((_, child)) = replies.iter().find(|(r, _)| *r == m) {
            g.play(m);
            assert_eq!(g.outcome(), None, "a considered defence does not win");
            checked += verify_attack(g, attacker, child);
            g.undo();
            continue;
        }
        let mut c = cells.clone();
        c[d] = defender.stone();
        let refuted = !fives(&c, n, rule, attacker).is_empty()
            || double.iter().any(|&a| {
                a != d && {
                    let mut c2 = c.clone();
                    c2[a] = attacker.stone();
                    fives(&c2, n, rule, attacker).len() >= 2
                        && fives(&c2, n, rule, defender).is_empty()
                }
            });
        assert!(
            refuted,
            "defender move {} is neither answered nor refuted",
            g.move_name(m)
        );
    }
    checked
}

/// Search, build the proof tree, verify it on the rules, and check the reported line wins.
fn prove(g: &Gomoku, attacker: Side, limits: &ThreatLimits) -> (threats::Found, ProofNode, usize) {
    let stop = AtomicBool::new(false);
    let mut s = ThreatSearcher::default();
    let found = s.search(g, attacker, limits, &stop);
    assert_eq!(found.status, Status::Win);
    let tree = s
        .proof(g, attacker, found.threes, found.depth, 1_000_000, &stop)
        .expect("a proven win has a proof tree");
    let mut start = g.clone();
    if start.side_to_move() != attacker {
        panic!("prove() wants the attacker to move");
    }
    let checked = verify_attack(&mut start, attacker, &tree);
    replay_wins(g, attacker, &found.line);
    assert_eq!(found.line, tree.principal_line());
    (found, tree, checked)
}

#[test]
fn vcf_puzzle_is_solved_and_its_proof_holds_on_the_rules() {
    let p = load("vcf_black.txt");
    assert!(p.is_vcf());
    assert_eq!(p.attacker, Side::Black);
    let t = Instant::now();
    let (found, tree, checked) = prove(&p.game, p.attacker, &ThreatLimits::vcf(20));
    let line = names(&p.game, &found.line);
    eprintln!(
        "vcf_black: {} plies {line:?}, {} nodes, {:?} (search + proof check), {checked} defender moves checked",
        line.len(),
        found.nodes,
        t.elapsed()
    );
    assert_eq!(found.threes, 0, "continuous fours only");
    // a VCF proof is one line: every defence is forced until the final double threat
    assert!(tree.size() <= found.line.len());
    assert_eq!(found.line.len() % 2, 1, "ends with the attacker's five");
    // the puzzle's own proven line also wins on the rules (with the defender's forced last block)
    let mut expect = p.expect.clone();
    let mut g = p.game.clone();
    for &m in &expect {
        g.play(m);
    }
    let mut cells = g.cells().to_vec();
    let f = fives(&cells, g.size(), g.rule(), Side::White);
    assert!(f.is_empty());
    let a = fives(&cells, g.size(), g.rule(), Side::Black);
    assert!(a.len() >= 2, "the expected line ends in a double threat");
    expect.push(Move::at(a[0]));
    cells[a[0]] = Cell::White;
    expect.push(Move::at(fives(&cells, g.size(), g.rule(), Side::Black)[0]));
    replay_wins(&p.game, p.attacker, &expect);
}

#[test]
fn vct_puzzle_is_solved_and_its_proof_holds_on_the_rules() {
    let p = load("vct_game_black_l03_1.txt");
    assert!(!p.is_vcf());
    assert_eq!(p.attacker, Side::Black);
    let t = Instant::now();
    let (found, tree, checked) = prove(&p.game, p.attacker, &ThreatLimits::vct(3, 20));
    eprintln!(
        "vct_game_black_l03_1: {:?}, {} nodes, proof tree {} attacker moves, {:?}, {checked} defender moves checked",
        names(&p.game, &found.line),
        found.nodes,
        tree.size(),
        t.elapsed()
    );
    // the defender has several defences against the standing three: the tree branches
    assert!(tree.replies.iter().any(|(_, n)| n.replies.len() >= 2));
}

#[test]
fn solve_finds_both_puzzle_wins_quickly() {
    for name in ["vcf_black.txt", "vct_game_black_l03_1.txt"] {
        let p = load(name);
        let stop = AtomicBool::new(false);
        let t = Instant::now();
        let answer = threats::solve(&p.game, std::time::Duration::from_secs(5), &stop);
        eprintln!(
            "solve {name}: {:?} {:?}",
            names(&p.game, &answer.line),
            t.elapsed()
        );
        assert_eq!(answer.win, Some(true), "{name}");
        assert_eq!(answer.best, answer.line.first().copied());
        replay_wins(&p.game, p.attacker, &answer.line);
    }
}

/// A random position: `stones` stones dropped alternately into a `spread`×`spread` square at the
/// centre of the board, stopping before anything wins. The side to move is whoever is next.
fn random_position(
    rng: &mut ChaCha8Rng,
    size: usize,
    rule: Rule,
    stones: usize,
    spread: usize,
) -> Gomoku {
    let mut g = Gomoku::new(size, rule, Keys::default_keys());
    let lo = (size - spread) / 2;
    let mut tries = 0;
    while g.stones() < stones && tries < 10 * stones {
        tries += 1;
        let (x, y) = (
            lo + rng.random_range(0..spread),
            lo + rng.random_range(0..spread),
        );
        let c = g.index(x, y);
        if g.cells()[c] != Cell::Empty || g.wins_at(c, g.side_to_move()) {
            continue;
        }
        g.play(Move::at(c));
    }
    g
}

/// Every win found on random positions is a proof that holds on the rules, both rules, two sizes.
#[test]
fn random_wins_are_real_proofs() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let stop = AtomicBool::new(false);
    let mut searcher = ThreatSearcher::new(16);
    let (mut wins, mut vct_wins, mut no_wins, mut checked) = (0, 0, 0, 0);
    for i in 0..140 {
        let rule = if i % 2 == 0 {
            Rule::Freestyle
        } else {
            Rule::Exact5
        };
        let size = if i % 3 == 0 { 11 } else { 15 };
        let g = random_position(&mut rng, size, rule, 12 + i % 17, 8);
        let me = g.side_to_move();
        let limits = ThreatLimits::vct(2, 10).with_nodes(20_000);
        let found = searcher.search(&g, me, &limits, &stop);
        match found.status {
            Status::Win => {
                let tree = searcher.proof(&g, me, found.threes, found.depth, 400, &stop);
                let Some(tree) = tree else { continue }; // too big to check here
                let mut h = g.clone();
                checked += verify_attack(&mut h, me, &tree);
                replay_wins(&g, me, &found.line);
                wins += 1;
                if found.threes > 0 {
                    vct_wins += 1;
                }
            }
            Status::NoWin => no_wins += 1,
            Status::Unknown => {}
        }
    }
    eprintln!(
        "random positions: {wins} wins verified ({vct_wins} needing threes), {no_wins} without a win, {checked} defender moves checked"
    );
    assert!(
        wins >= 30 && vct_wins >= 8 && no_wins >= 15,
        "{wins} {vct_wins} {no_wins}"
    );
}

/// The padded board's probes agree with the rules: fives, and the five points a stone creates.
#[test]
fn probes_agree_with_the_rules_on_random_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut compared = 0;
    for i in 0..120 {
        let rule = if i % 2 == 0 {
            Rule::Freestyle
        } else {
            Rule::Exact5
        };
        let size = [7, 11, 15, 20][i % 4];
        let g = random_position(&mut rng, size, rule, 10 + i % 40, size.min(9));
        let board = ThreatBoard::from_game(&g);
        assert_eq!(board.hash(), g.hash());
        let n = g.size();
        let cells = g.cells().to_vec();
        for side in [Side::Black, Side::White] {
            let before = fives(&cells, n, rule, side);
            for c in (0..n * n).filter(|&c| cells[c] == Cell::Empty) {
                let p = board.probe(board.sq_of(c), side);
                assert_eq!(p.five, wins_with(&cells, n, rule, c, side), "five at {c}");
                if p.five || !before.is_empty() {
                    continue;
                }
                let mut after = cells.clone();
                after[c] = side.stone();
                let created = fives(&after, n, rule, side).len();
                assert_eq!(
                    p.five_points as usize,
                    created,
                    "five points of {c} on\n{}",
                    picture(&g)
                );
                let mut listed = Vec::new();
                board.five_points_of(board.sq_of(c), side, &mut listed);
                let mut listed: Vec<usize> =
                    listed.into_iter().map(|sq| board.cell_of(sq)).collect();
                listed.sort();
                assert_eq!(listed, fives(&after, n, rule, side));
                compared += 1;
            }
        }
    }
    assert!(compared > 10_000, "{compared}");
}

/// Incremental play and undo on the padded board equal a board rebuilt from the game.
#[test]
fn board_play_and_undo_match_a_fresh_board() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for size in [5, 9, 15, 25] {
        let start = random_position(&mut rng, size, Rule::Freestyle, size, size.min(7));
        let mut g = start.clone();
        let mut b = ThreatBoard::from_game(&g);
        for _ in 0..size * 2 {
            let empties: Vec<usize> = (0..size * size)
                .filter(|&c| g.cells()[c] == Cell::Empty)
                .collect();
            let c = empties[rng.random_range(0..empties.len())];
            if g.wins_at(c, g.side_to_move()) {
                continue;
            }
            g.play(Move::at(c));
            b.play(b.sq_of(c));
            let fresh = ThreatBoard::from_game(&g);
            assert_eq!(b.hash(), g.hash());
            for sq in (0..size * size).map(|c| fresh.sq_of(c)) {
                for side in [Side::Black, Side::White] {
                    for d in 0..4 {
                        assert_eq!(b.entry(sq, side, d), fresh.entry(sq, side, d));
                    }
                }
            }
        }
        while b.played() > 0 {
            b.undo();
        }
        let fresh = ThreatBoard::from_game(&start);
        assert_eq!(b.hash(), start.hash());
        for sq in (0..size * size).map(|c| fresh.sq_of(c)) {
            assert_eq!(b.probe(sq, Side::Black), fresh.probe(sq, Side::Black));
        }
    }
}

fn picture(g: &Gomoku) -> String {
    let n = g.size();
    (0..n)
        .map(|y| {
            (0..n)
                .map(|x| g.cells()[y * n + x].symbol())
                .collect::<String>()
                + "\n"
        })
        .collect()
}

#[test]
fn solve_proves_a_loss_against_two_open_threes() {
    // black: open threes d4-e4-f4 and h8-h9-h10; white (to move) has nothing
    let g = game(15, Rule::Freestyle, "h8,a1,h9,o1,h10,a15,d4,o15,e4,a8,f4");
    let stop = AtomicBool::new(false);
    let t = Instant::now();
    let answer = threats::solve(&g, std::time::Duration::from_secs(20), &stop);
    eprintln!(
        "loss: best {:?} line {:?} nodes {} {:?}",
        answer.best.map(|m| g.move_name(m)),
        names(&g, &answer.line),
        answer.nodes,
        t.elapsed()
    );
    assert_eq!(answer.win, Some(false));
    // the line is white's move, then black's winning attack
    let mut after = g.clone();
    after.play(answer.line[0]);
    replay_wins(&after, Side::Black, &answer.line[1..]);
}

#[test]
fn solve_sees_an_open_four_and_a_forced_block() {
    let stop = AtomicBool::new(false);
    // white h8-h11 with h7 and h12 open: black to move cannot stop five
    let g = game(15, Rule::Freestyle, "a1,h8,c1,h9,a15,h10,o15,h11");
    let lost = threats::solve(&g, std::time::Duration::from_secs(5), &stop);
    assert_eq!(lost.win, Some(false));
    let mut after = g.clone();
    after.play(lost.line[0]);
    replay_wins(&after, Side::White, &lost.line[1..]);
    // black blocked h12 already: black must block h7, and nothing more is known
    let g = game(15, Rule::Freestyle, "a1,h8,c1,h9,a15,h10,h12,h11");
    let answer = threats::solve(&g, std::time::Duration::from_secs(5), &stop);
    assert_eq!(answer.win, None);
    assert_eq!(answer.best.map(|m| g.move_name(m)).as_deref(), Some("h7"));
}

#[test]
fn solve_without_threats_is_unknown() {
    let g = game(15, Rule::Freestyle, "h8,i9");
    let stop = AtomicBool::new(false);
    let answer = threats::solve(&g, std::time::Duration::from_secs(2), &stop);
    assert_eq!(
        (answer.best, answer.win, answer.line.len()),
        (None, None, 0)
    );
}

#[test]
fn exact5_refuses_a_win_through_an_overline() {
    // black c8 d8 e8 f8 with b8 and g8 empty, but a8 black: b8 makes six under exact5
    let moves = "a8,a1,c8,a3,d8,a5,e8,a13,f8";
    let free = game(15, Rule::Freestyle, moves);
    let exact = game(15, Rule::Exact5, moves);
    let (fb, eb) = (
        threat_counts(&free, Side::Black),
        threat_counts(&exact, Side::Black),
    );
    assert_eq!((fb.fives, eb.fives), (2, 1));
    // white to move blocks g8 and, under exact5, black has no five left
    let stop = AtomicBool::new(false);
    let mut s = ThreatSearcher::default();
    for (g, wins) in [(&free, true), (&exact, false)] {
        let mut g = g.clone();
        g.play_named("g8").unwrap();
        let found = s.search(&g, Side::Black, &ThreatLimits::vcf(4), &stop);
        assert_eq!(found.status == Status::Win, wins, "{:?}", g.rule());
    }
}

#[test]
fn threat_counts_see_fours_and_threes() {
    let g = game(15, Rule::Freestyle, "h8,a1,h9,a3,h10");
    let black = threat_counts(&g, Side::Black);
    assert_eq!(black.fours, 4, "h6, h7, h11 and h12 make fours");
    assert_eq!(black.open_fours, 2);
    assert_eq!(
        black.threes, 0,
        "every three-making square here makes a four"
    );
    let two = game(15, Rule::Freestyle, "h8,a1,h9");
    let c = threat_counts(&two, Side::Black);
    assert_eq!(
        (c.threes, c.fours),
        (4, 0),
        "h6, h7, h10 and h11 make threes"
    );
    assert_eq!(black.fives, 0);
    assert_eq!(threat_counts(&g, Side::White), Default::default());
    assert!(threats::threats_exist(&g, Side::Black));
    assert!(!threats::threats_exist(&g, Side::White));
}

#[test]
fn puzzle_errors_are_one_line() {
    let keys = Keys::default_keys();
    let board = ". . . . .\n. x . . .\n. . o . .\n. . . . .\n. . . . .\n";
    let p = puzzle::parse(&format!("attacker: x\nboard:\n{board}"), keys).unwrap();
    assert_eq!(p.attacker, Side::Black);
    assert_eq!(p.game.side_to_move(), Side::Black);
    for (text, needle) in [
        (format!("board:\n{board}"), "attacker"),
        (format!("attacker: z\nboard:\n{board}"), "attacker must be"),
        (
            "attacker: x\nboard:\n. . .\n. . .\n. . .\n".to_string(),
            "size",
        ),
        (
            format!("attacker: x\nboard:\n{}", board.replace(". x", ". q")),
            "not a cell",
        ),
        (
            format!("attacker: x\nboard:\n{}", board.replace(". . o", "o o o")),
            "must be to move",
        ),
        (
            format!("attacker: x\nexpect: z99\nboard:\n{board}"),
            "expect",
        ),
        (
            format!(
                "attacker: x\nboard:\n{}",
                board.replace(". . o . .", ". . o .")
            ),
            "row 3",
        ),
        (
            format!("attacker: x\nlimit: many\nboard:\n{board}"),
            "not a number",
        ),
    ] {
        match puzzle::parse(&text, keys) {
            Ok(_) => panic!("accepted: {text}"),
            Err(err) => assert!(err.contains(needle) && !err.contains('\n'), "{err}"),
        }
    }
    // the attacker with one stone fewer is white, to move
    let p = puzzle::parse(
        &format!("attacker: o\nboard:\n{}", board.replace(". . o", ". . .")),
        keys,
    )
    .unwrap();
    assert_eq!(p.attacker, Side::White);
    assert_eq!(p.game.side_to_move(), Side::White);
    // a board that already has five is refused
    let five = "x x x x x\no o o o .\n. . . . .\n. . . . .\n. . . . .\n";
    match puzzle::parse(&format!("attacker: o\nboard:\n{five}"), keys) {
        Ok(_) => panic!("accepted a finished board"),
        Err(err) => assert!(err.contains("winning row"), "{err}"),
    }
}

#[test]
fn solve_command_prints_a_replayable_line() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xorboard"))
        .args([
            "solve",
            "--game",
            "gomoku",
            "--board",
            "tests/data/tactics/vct_game_black_l03_1.txt",
            "--json",
            "--time-ms",
            "5000",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["win"], serde_json::Value::Bool(true));
    let p = load("vct_game_black_l03_1.txt");
    let line: Vec<Move> = v["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| p.game.parse_move(m.as_str().unwrap()).unwrap())
        .collect();
    assert_eq!(v["best"].as_str(), Some(p.game.move_name(line[0]).as_str()));
    replay_wins(&p.game, Side::Black, &line);
    for k in ["nodes", "seconds"] {
        assert!(v[k].is_number(), "{k}");
    }
    // bad input: one line on stderr, status 2
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xorboard"))
        .args(["solve", "--game", "gomoku", "--moves", "h8,h8"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim().lines().count(),
        1
    );
}
