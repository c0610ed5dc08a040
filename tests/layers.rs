//! The crate's layers point down: nothing outside the command line (`src/commands/`,
//! `src/main.rs`, `src/bin/`) imports `commands` or knows clap, and nothing under `game`,
//! `zobrist`, `tt` or `search` knows the UI, the protocols or the engine thread.

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The lines of files under `src/` (except those `allowed`) that contain any of `needles`.
fn offenders(allowed: &dyn Fn(&str) -> bool, needles: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    sources(Path::new("src"), &mut files);
    let mut found = Vec::new();
    for file in files {
        let name = file.to_string_lossy().replace('\\', "/");
        if allowed(&name) {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("source");
        for (i, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            if needles.iter().any(|n| code.contains(n)) {
                found.push(format!("{name}:{}: {}", i + 1, code));
            }
        }
    }
    found
}

fn command_line(name: &str) -> bool {
    name.starts_with("src/commands") || name == "src/main.rs" || name.starts_with("src/bin/")
}

#[test]
fn only_the_command_line_imports_commands_or_clap() {
    let found = offenders(&command_line, &["crate::commands", "clap::", "use clap"]);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_core_knows_nothing_of_ui_protocols_or_engine_thread() {
    let core = |name: &str| {
        ["src/game", "src/zobrist", "src/tt", "src/search"]
            .iter()
            .any(|p| name.starts_with(p))
    };
    let found = offenders(
        &|name| !core(name),
        &["crate::ui", "crate::protocol", "crate::engine"],
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
}
