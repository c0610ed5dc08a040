//! Game records: save → load gives the same position and the same Zobrist hash in every format;
//! every parser survives random text and random bytes; saving is atomic.

mod common;

use std::fs;
use std::path::Path;

use proptest::prelude::*;
use xorboard::game::AnyGame;
use xorboard::game::gomoku::{Gomoku, Rule};
use xorboard::game::othello::Othello;
use xorboard::game::{Game, GameKind, Move, Side};
use xorboard::record::{self, Format, Record};
use xorboard::zobrist::Keys;

/// Play `choices` (each picks among the legal moves) from `game`, stopping at the end.
fn play_choices<G: Game>(game: &mut G, choices: &[usize]) {
    let mut moves = Vec::new();
    for &c in choices {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        game.play(moves[c % moves.len()]);
    }
}

fn same_game(a: &AnyGame, b: &AnyGame) -> Result<(), String> {
    fn cmp<G: Game>(a: &G, b: &G) -> Result<(), String> {
        if a.hash() != b.hash() || b.hash() != b.recompute_hash() {
            return Err(format!("hash {:x} vs {:x}", a.hash(), b.hash()));
        }
        if a.history() != b.history() || a.side_to_move() != b.side_to_move() {
            return Err("history or side differs".into());
        }
        if (0..a.num_cells()).any(|c| a.cell(c) != b.cell(c)) {
            return Err("cells differ".into());
        }
        if a.outcome() != b.outcome() {
            return Err("outcome differs".into());
        }
        Ok(())
    }
    match (a, b) {
        (AnyGame::Othello(a), AnyGame::Othello(b)) => cmp(a, b),
        (AnyGame::Gomoku(a), AnyGame::Gomoku(b)) => {
            if a.rule() != b.rule() || a.size() != b.size() {
                return Err("size or rule differs".into());
            }
            cmp(a, b)
        }
        _ => Err("kind differs".into()),
    }
}

/// Text round trip (explicit and detected format) and file round trip through `save`/`load`.
fn round_trips(game: &AnyGame, dir: &Path, tag: &str) -> Result<(), String> {
    let keys = Keys::default_keys();
    let rec = Record::from_game(game);
    let kind = rec.kind;
    for format in Format::ALL.into_iter().filter(|f| f.kind() == kind) {
        let text = record::to_text(&rec, format)?;
        for hint in [Some(format), None] {
            let back =
                record::from_text(&text, hint).map_err(|e| format!("{format}: {e}\n{text}"))?;
            same_game(game, &back.to_game(keys)?)
                .map_err(|e| format!("{format} {hint:?}: {e}\n{text}"))?;
        }
        let ext = match format {
            Format::Ggf => "ggf",
            Format::Psq => "psq",
            Format::Transcript => "txt",
            Format::RifList => "rif.txt",
        };
        let path = dir.join(format!("{tag}.{ext}"));
        record::save(&path, &rec)?;
        let loaded = record::load(&path)?;
        same_game(game, &loaded.to_game(keys)?).map_err(|e| format!("file {format}: {e}"))?;
    }
    // The resume file keeps everything, whatever the game.
    let resume = dir.join(format!("{tag}-resume/last-game"));
    record::save_resume_at(&resume, &rec)?;
    let back = record::load_resume_at(&resume)?.ok_or("resume file missing")?;
    same_game(game, &back.to_game(keys)?).map_err(|e| format!("resume: {e}"))?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn othello_round_trips(prefix in prop::collection::vec(0usize..64, 0..30),
                           choices in prop::collection::vec(0usize..64, 0..70),
                           custom_start in any::<bool>()) {
        let keys = Keys::default_keys();
        let mut game = Othello::new(keys);
        if custom_start {
            // Start from a position reached by other moves, with no history (as a GGF BO[] gives).
            play_choices(&mut game, &prefix);
            game = Othello::from_bitboards(game.black(), game.white(), game.side_to_move(), keys);
        }
        play_choices(&mut game, &choices);
        let dir = common::scratch_dir("record-othello");
        let r = round_trips(&AnyGame::Othello(game), &dir, "o");
        let _ = fs::remove_dir_all(&dir);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn gomoku_round_trips(size in 5usize..=25, exact in any::<bool>(),
                          choices in prop::collection::vec(0usize..625, 0..120)) {
        let rule = if exact { Rule::Exact5 } else { Rule::Freestyle };
        let mut game = Gomoku::new(size, rule, Keys::default_keys());
        play_choices(&mut game, &choices);
        let dir = common::scratch_dir("record-gomoku");
        let r = round_trips(&AnyGame::Gomoku(game), &dir, "g");
        let _ = fs::remove_dir_all(&dir);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn parsers_survive_random_text(text in "\\PC{0,200}") {
        for format in Format::ALL {
            let _ = record::from_text(&text, Some(format));
        }
        let _ = record::from_text(&text, None);
    }

    #[test]
    fn parsers_survive_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        for format in Format::ALL {
            let _ = record::from_text(&text, Some(format));
        }
        let _ = record::from_text(&text, None);
    }

    #[test]
    fn parsers_survive_mutated_records(pos in 0usize..400, byte in any::<u8>(), cut in any::<bool>(),
                                       which in 0usize..4) {
        let samples = [
            "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//1.5]W[F6]B[D3]W[C5];)",
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,3120\n9,8,10\npbrain-a.zip\n-1\n",
            "# gomoku 9x9 exact5\ne5 d4 f6 c3\n",
            "---------------------------OX------XO--------------------------- X\nf5d6c3\n",
        ];
        prop_assert!(record::from_text(samples[which], None).is_ok(), "sample {which} must parse");
        let mut bytes = samples[which].as_bytes().to_vec();
        let at = pos % bytes.len();
        if cut { bytes.truncate(at) } else { bytes[at] = byte }
        let text = String::from_utf8_lossy(&bytes);
        for format in Format::ALL {
            if let Ok(rec) = record::from_text(&text, Some(format)) {
                // Whatever parses must replay.
                prop_assert!(rec.to_game(Keys::default_keys()).is_ok());
            }
        }
    }
}

#[test]
fn transpositions_and_passes_survive_transcripts() {
    // A real game with passes: black plays the whole board, white has to pass in between.
    let keys = Keys::default_keys();
    let mut seen_pass = false;
    for seed in 0..200usize {
        let mut g = Othello::new(keys);
        let choices: Vec<usize> = (0..80).map(|i| (i * 7 + seed * 13) % 17).collect();
        play_choices(&mut g, &choices);
        if !g.history().contains(&Move::PASS) {
            continue;
        }
        seen_pass = true;
        let rec = Record::from_othello(&g);
        // Without the passes written, the loader puts them back.
        let text: String = g
            .history()
            .iter()
            .filter(|m| !m.is_pass())
            .map(|&m| g.move_name(m))
            .collect();
        let back = record::from_text(&text, Some(Format::Transcript)).unwrap();
        assert_eq!(back.moves, rec.moves);
        assert_eq!(back.to_othello(keys).unwrap().hash(), g.hash());
    }
    assert!(seen_pass, "no game with a pass among the samples");
}

#[test]
fn save_is_atomic_and_leaves_no_temporary_files() {
    let dir = common::scratch_dir("record-atomic");
    let path = dir.join("game.ggf");
    let mut rec = Record::new_othello();
    rec.moves = vec![Move::at(37)];
    record::save(&path, &rec).unwrap();
    let first = fs::read_to_string(&path).unwrap();
    rec.moves.push(Move::at(43));
    record::save(&path, &rec).unwrap();
    let second = fs::read_to_string(&path).unwrap();
    assert_ne!(first, second);
    let names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");

    // A record that does not replay is refused, and the file keeps its old content.
    rec.moves.push(Move::at(0));
    assert!(record::save(&path, &rec).is_err());
    assert_eq!(fs::read_to_string(&path).unwrap(), second);
    // A wrong extension for the game is refused.
    assert!(record::save(&dir.join("x.psq"), &Record::new_othello()).is_err());
    // A directory that does not exist: an error naming the path, nothing created.
    let e = record::save(&dir.join("no/such/dir/g.ggf"), &Record::new_othello()).unwrap_err();
    assert!(e.contains("no/such/dir"), "{e}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn load_errors_name_the_file_and_line() {
    let dir = common::scratch_dir("record-errors");
    let path = dir.join("bad.psq");
    fs::write(&path, "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n").unwrap();
    let e = record::load(&path).unwrap_err();
    assert!(e.contains("bad.psq") && e.contains("line 3"), "{e}");
    assert!(!e.contains('\n'));
    let e = record::load(&dir.join("missing.ggf")).unwrap_err();
    assert!(e.contains("missing.ggf"), "{e}");
    assert!(record::load(&dir).is_err());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn loaded_records_know_their_game() {
    let rec = record::from_text("# gomoku 20x20 exact5\nj10 k11", None).unwrap();
    assert_eq!(
        (rec.kind, rec.size, rec.rule),
        (GameKind::Gomoku, 20, Rule::Exact5)
    );
    let g = rec.to_gomoku(Keys::default_keys()).unwrap();
    assert_eq!(g.side_to_move(), Side::Black);
    let rec = record::from_text("f5d6c3d3c4f4", None).unwrap();
    assert_eq!(rec.kind, GameKind::Othello);
}
