//! `build-othello-book`: a selection of openings that holds none (`--skip` past the end of the
//! list) is refused with one line and exit status 2, and no book file is written.

mod common;

use std::process::Command;

#[test]
fn a_skip_past_the_last_opening_is_refused_and_writes_nothing() {
    let dir = common::scratch_dir("book-builder");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "f5d6c3\nf5f6e6\n").unwrap();
    let out_file = dir.join("book.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_build-othello-book"))
        .arg("--openings")
        .arg(&openings)
        .args(["--skip", "2", "--out"])
        .arg(&out_file)
        .output()
        .expect("run build-othello-book");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim_end(),
        "error: no openings to build: --skip 2 selects none of the 2 openings"
    );
    assert!(!out_file.exists(), "no book written");
}
