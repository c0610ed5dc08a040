//! The resume file: where it lives and that it keeps the game. One test in its own binary, since
//! it sets environment variables.

use xorboard::game::Move;
use xorboard::record::{self, Record};

#[test]
fn resume_file_follows_xdg_state_home_then_home() {
    let dir = std::env::temp_dir().join(format!("xorboard-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // Safety: this test binary holds this one test, so no other thread reads the environment.
    unsafe {
        std::env::set_var("XDG_STATE_HOME", &dir);
    }
    assert_eq!(record::resume_path(), Some(dir.join("xorboard/last-game")));
    assert_eq!(record::load_resume(), Ok(None));
    let mut rec = Record::new_gomoku(15, Default::default());
    rec.moves = vec![Move::at(112), Move::at(113)];
    let path = record::save_resume(&rec).unwrap();
    assert_eq!(path, dir.join("xorboard/last-game"));
    assert_eq!(record::load_resume(), Ok(Some(rec)));
    record::clear_resume().unwrap();
    assert_eq!(record::load_resume(), Ok(None));

    // A relative XDG_STATE_HOME is ignored (the spec says so); HOME is used instead.
    unsafe {
        std::env::set_var("XDG_STATE_HOME", "relative/dir");
        std::env::set_var("HOME", &dir);
    }
    assert_eq!(
        record::resume_path(),
        Some(dir.join(".local/state/xorboard/last-game"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}
