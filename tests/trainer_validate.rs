//! `train-endgame-eval --validate`: each band's distance from a data cache's exact labels, and a
//! one-line error (exit status 2) for a line that is not the cache's.

mod common;

use std::process::Command;

use xorboard::game::othello::{START_BLACK, START_WHITE};
use xorboard::search::othello::eval::{SCALE, Weights};

fn validate(cache: &std::path::Path, weights: Option<&std::path::Path>) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_train-endgame-eval"));
    cmd.arg("--validate").arg(cache);
    if let Some(w) = weights {
        cmd.arg("--weights").arg(w);
    }
    cmd.output().expect("run train-endgame-eval")
}

#[test]
fn validate_reports_each_bands_error_against_exact_labels() {
    let dir = common::scratch_dir("validate");
    let w = &Weights::shipped_bands().expect("shipped weights");
    // two labels in the opening band, one in the band of 3 empties; an unlabelled line is skipped
    let late_p: u64 = 0x00ff_ffff_ffff_ff00 & !0x7;
    let late_o: u64 = 0xff00_0000_0000_00ff & !0x0700_0000_0000_0000;
    let (p3, o3) = (late_p, late_o | 0x8000_0000_0000_0000);
    assert_eq!((p3 | o3).count_zeros(), 3);
    let cache = dir.join("cache.txt");
    let text = format!(
        "L {START_BLACK:x} {START_WHITE:x} 0\nL {START_WHITE:x} {START_BLACK:x} 4\n\
         L {p3:x} {o3:x} -10\nU {START_BLACK:x} {START_WHITE:x}\n"
    );
    std::fs::write(&cache, text).expect("write cache");
    let o = validate(&cache, None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "one line per band with labels: {out}");

    let eval = |p: u64, o: u64| w.eval(p, o) as f64 / SCALE as f64;
    let late_error = eval(p3, o3) + 10.0;
    assert!(lines[0].starts_with("band  0..=10:"), "{out}");
    assert!(lines[0].contains("1 exact labels"), "{out}");
    assert!(
        lines[0].contains(&format!("RMS {:.2} discs", late_error.abs())),
        "{out}"
    );
    let openings = [
        eval(START_BLACK, START_WHITE),
        eval(START_WHITE, START_BLACK),
    ];
    let errors = [openings[0], openings[1] - 4.0];
    let rms = ((errors[0].powi(2) + errors[1].powi(2)) / 2.0).sqrt();
    let mean = (errors[0] + errors[1]) / 2.0;
    assert!(
        lines[1].ends_with(&format!("RMS {rms:.2} discs, mean error {mean:+.2}")),
        "{out}"
    );

    // other weights give other figures: every weight negated flips the opening's error
    let negated = dir.join("negated.bin");
    std::fs::write(&negated, common::weights::negated(w).to_bytes()).expect("write weights");
    let o = validate(&cache, Some(&negated));
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    let flipped = (-openings[0] - openings[1] - 4.0) / 2.0;
    assert!(out.contains(&format!("mean error {flipped:+.2}")), "{out}");

    // a line that is not the cache's, or a cache without exact labels: refused, not reported
    let refusals = [
        (
            "L 1 2 3\ngarbage\n".to_string(),
            "not a line of the data cache",
        ),
        (
            format!("U {START_BLACK:x} {START_WHITE:x}\n"),
            "no exact labels",
        ),
    ];
    for (text, reason) in refusals {
        std::fs::write(&cache, text).expect("write cache");
        let o = validate(&cache, None);
        assert_eq!(o.status.code(), Some(2));
        assert!(o.stdout.is_empty());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(reason), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
