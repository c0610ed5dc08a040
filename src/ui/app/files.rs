//! Files: `:save`, `:load`, the game kept for `--resume`, and the game to start with.

use super::*;

impl App {
    pub(super) fn save(&mut self, path: &str) {
        let path = expand_home(path);
        let rec = Record::from_game(&self.game);
        let format = match Format::for_path(&path, rec.kind) {
            Ok(f) => f,
            Err(e) => return self.error(e),
        };
        match record::save_as(&path, &rec, format) {
            Ok(()) => self.info(format!(
                "saved {} to {} ({format})",
                format::plural(rec.moves.len() as u64, "move", "moves"),
                path.display()
            )),
            Err(e) => self.error(e),
        }
    }

    pub(super) fn load(&mut self, path: &str) {
        let path = expand_home(path);
        let game = match record::load(&path)
            .and_then(|rec| rec.to_game(Keys::for_seed(self.settings.spec.seed)))
        {
            Ok(g) => g,
            Err(e) => return self.error(load_error(&e, &path, self.game.kind())),
        };
        let n = game.history().len();
        self.install(game);
        self.info(format!(
            "loaded {} · {} from {}",
            self.game.label(),
            format::plural(n as u64, "move", "moves"),
            path.display()
        ));
    }

    /// Make `game` the game being played (a loaded or resumed one).
    pub(super) fn install(&mut self, game: AnyGame) {
        self.cancel_search();
        self.discarded = None;
        self.settings.spec.game = game.kind();
        if let AnyGame::Gomoku(g) = &game {
            self.settings.spec.size = g.size();
            self.settings.spec.rule = g.rule();
        }
        self.game = game;
        self.redo.clear();
        self.fresh_views();
        self.cursor_to_last();
        self.after_position_change();
    }

    /// Write the game where it is kept for `--resume` (nothing before the first move, so a fresh
    /// start does not wipe the kept game until a move is made).
    pub(super) fn keep(&mut self) {
        let Some(path) = self.settings.keep.clone() else {
            return;
        };
        if self.game.history().is_empty() {
            return;
        }
        if let Err(e) = record::save_resume_at(&path, &Record::from_game(&self.game))
            && !self.keep_failed
        {
            self.keep_failed = true;
            self.error(format!("cannot keep the game for --resume: {e}"));
        }
    }
}

/// The game to start with: a loaded file, the kept game, or a new one; and a note for the
/// status line. Settings follow the game found (kind, Gomoku size and rule).
pub(super) fn starting_game(
    settings: &mut Settings,
) -> Result<(AnyGame, Option<Message>), CommandError> {
    let keys = Keys::for_seed(settings.spec.seed);
    let adopt = |settings: &mut Settings, game: &AnyGame| {
        settings.spec.game = game.kind();
        if let AnyGame::Gomoku(g) = game {
            settings.spec.size = g.size();
            settings.spec.rule = g.rule();
        }
    };
    let note = |text: String, error: bool| Some(Message { text, error });
    if let Some(path) = settings.load.clone() {
        let game = record::load(&path)
            .and_then(|rec| rec.to_game(keys))
            .map_err(|e| CommandError(one_line(&e, &path)))?;
        adopt(settings, &game);
        let text = format!(
            "loaded {} · {} from {}",
            game.label(),
            format::plural(game.history().len() as u64, "move", "moves"),
            path.display()
        );
        return Ok((game, note(text, false)));
    }
    let kept = settings.keep.clone();
    if settings.resume {
        let Some(path) = kept else {
            return Err(CommandError(
                "--resume: no place for the kept game (set HOME or XDG_STATE_HOME)".into(),
            ));
        };
        let found = record::load_resume_at(&path).and_then(|r| match r {
            Some(rec) => rec.to_game(keys).map(Some),
            None => Ok(None),
        });
        return match found {
            Ok(Some(game)) => {
                adopt(settings, &game);
                let text = format!(
                    "resumed {} · {} (kept in {})",
                    game.label(),
                    format::plural(game.history().len() as u64, "move", "moves"),
                    path.display()
                );
                Ok((game, note(text, false)))
            }
            Ok(None) => Ok((
                settings.spec.start()?,
                note("no kept game to resume: a new game".into(), false),
            )),
            Err(e) => Ok((
                settings.spec.start()?,
                note(
                    format!("cannot resume: {}; a new game", one_line(&e, &path)),
                    true,
                ),
            )),
        };
    }
    let game = settings.spec.start()?;
    let hint = kept
        .as_deref()
        .and_then(|p| record::load_resume_at(p).ok().flatten())
        .filter(|rec| !rec.moves.is_empty())
        .map(|rec| {
            format!(
                "the game kept from last time ({}, {}): xorboard --resume continues it; \
                 your first move here replaces it",
                rec.kind,
                format::plural(rec.moves.len() as u64, "move", "moves")
            )
        });
    Ok((game, hint.and_then(|t| note(t, false))))
}

/// An error about a file as one line that names the file once.
pub(super) fn one_line(e: &str, path: &Path) -> String {
    let shown = path.display().to_string();
    let text = if e.contains(&shown) {
        e.to_string()
    } else {
        format!("{shown}: {e}")
    };
    text.lines().next().unwrap_or_default().to_string()
}

/// A `:load` failure as one printable line that names the formats of the game being played
/// (the file's own bytes are never echoed raw: a binary file is called binary, other
/// characters that cannot be shown become `?`).
pub(super) fn load_error(e: &str, path: &Path, kind: GameKind) -> String {
    let formats = match kind {
        GameKind::Othello => "Othello: .ggf, or a transcript like f5d6c3",
        GameKind::Gomoku => "Gomoku: .psq (Piskvork), .rif.txt, or a list like h8,i9",
    };
    let binary = std::fs::read(path).ok().is_some_and(|bytes| {
        std::str::from_utf8(&bytes).is_err()
            || bytes
                .iter()
                .any(|&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t'))
    });
    let shown = path.display().to_string();
    if binary {
        return format!("{shown}: not a game record: the file is binary, not text ({formats})");
    }
    let detail = one_line(e, path);
    let detail = detail
        .strip_prefix(&format!("{shown}: "))
        .unwrap_or(&detail);
    let printable: String = detail
        .chars()
        .map(|c| {
            if c.is_control() || c == '\u{fffd}' {
                '?'
            } else {
                c
            }
        })
        .collect();
    if printable.starts_with("No such file") || printable.contains("not a regular file") {
        return format!("{shown}: {printable}");
    }
    format!("{shown}: not a game record ({formats}): {printable}")
}

/// `~/x` → `$HOME/x`; anything else as typed.
pub(super) fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(path),
    }
}
