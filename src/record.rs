//! Game records: save a game to a file and load it back, in the formats other programs use.
//!
//! | format | game | what it holds |
//! |---|---|---|
//! | [`Format::Transcript`] | Othello | `f5d6c3…` (passes as `pa`), optionally preceded by an OBF start line |
//! | [`Format::Ggf`] | Othello | Generic Game Format, as NBoard and GGS write it: `BO[8 …]` start, `B[F5]`/`W[D6]` moves, `PA` passes, `PB`/`PW` names, move times |
//! | [`Format::Psq`] | Gomoku | Piskvork's `.psq`: `Piskvorky WxH, A:B, S` then 1-based `x,y,ms` lines |
//! | [`Format::RifList`] | Gomoku | RIF squares `h8 i9 h9 …` under a `# gomoku 15x15 freestyle` header line |
//!
//! A [`Record`] is one game: its kind, board size and rule, an optional Othello start position, the
//! moves, and optionally think times and player names. [`Record::to_game`] replays it into an
//! [`AnyGame`], so a saved and reloaded game has the same position *and* the same Zobrist hash.
//!
//! What the module promises:
//! - every parser returns `Err` with one line naming the input and the place (`game.psq: line 4:
//!   '16,1,0' is off the 15×15 board`), never panics, and checks every move by replaying it;
//! - [`save`] writes a temporary file in the same directory and renames it over the target, so the
//!   target is either the old file or the complete new one, never a torn mix;
//! - the resume file ([`resume_path`], `$XDG_STATE_HOME/xorboard/last-game`, else
//!   `~/.local/state/xorboard/last-game`) is written the same way, in a format that keeps
//!   everything needed to continue (GGF for Othello, a RIF list with its header for Gomoku).

mod ggf;
mod lists;
mod psq;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::game::AnyGame;
use crate::game::gomoku::{self, Gomoku, Rule};
use crate::game::othello::{self, Othello};
use crate::game::{Game, GameKind, Move, Side};
use crate::zobrist::Keys;

pub use ggf::{ggf_clock, parse_ggf, write_ggf};
pub use lists::{parse_rif_list, parse_transcript, write_rif_list, write_transcript};
pub use psq::{parse_psq, write_psq};

/// Files larger than this are refused on load (no game record comes near it).
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// An Othello start position other than the standard one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Start {
    pub black: u64,
    pub white: u64,
    pub side: Side,
}

impl Start {
    /// The standard start position.
    pub const STANDARD: Start = Start {
        black: othello::START_BLACK,
        white: othello::START_WHITE,
        side: Side::Black,
    };
}

/// One game, as saved in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub kind: GameKind,
    /// Board size: 8 for Othello, the Gomoku board's width and height.
    pub size: usize,
    /// Gomoku rule (Othello records carry the default and ignore it).
    pub rule: Rule,
    /// Othello only: a start position other than the standard one.
    pub start: Option<Start>,
    /// The moves from the start, passes included.
    pub moves: Vec<Move>,
    /// Think time per move in milliseconds: empty, or one entry per move.
    pub think_ms: Vec<u64>,
    /// Player names, when the file has them.
    pub black: Option<String>,
    pub white: Option<String>,
}

impl Record {
    /// An Othello game from the standard start, no moves yet.
    pub fn new_othello() -> Record {
        Record {
            kind: GameKind::Othello,
            size: 8,
            rule: Rule::Freestyle,
            start: None,
            moves: Vec::new(),
            think_ms: Vec::new(),
            black: None,
            white: None,
        }
    }

    /// An empty Gomoku board.
    pub fn new_gomoku(size: usize, rule: Rule) -> Record {
        Record {
            kind: GameKind::Gomoku,
            size,
            rule,
            ..Record::new_othello()
        }
    }

    /// The record of an Othello game: its start position (if not the standard one) and history.
    pub fn from_othello(game: &Othello) -> Record {
        let mut start = game.clone();
        while start.undo().is_some() {}
        let s = Start {
            black: start.black(),
            white: start.white(),
            side: start.side_to_move(),
        };
        Record {
            start: (s != Start::STANDARD).then_some(s),
            moves: game.history().to_vec(),
            ..Record::new_othello()
        }
    }

    /// The record of a Gomoku game.
    pub fn from_gomoku(game: &Gomoku) -> Record {
        Record {
            moves: game.history().to_vec(),
            ..Record::new_gomoku(game.size(), game.rule())
        }
    }

    /// The record of a game of either kind.
    pub fn from_game(game: &AnyGame) -> Record {
        match game {
            AnyGame::Othello(g) => Record::from_othello(g),
            AnyGame::Gomoku(g) => Record::from_gomoku(g),
        }
    }

    /// Replay an Othello record; the error names the first bad move.
    pub fn to_othello(&self, keys: &'static Keys) -> Result<Othello, String> {
        if self.kind != GameKind::Othello {
            return Err(format!(
                "this record holds a {} game, not othello",
                self.kind
            ));
        }
        let mut g = match self.start {
            None => Othello::new(keys),
            Some(s) => {
                if s.black & s.white != 0 {
                    return Err("start position: a square holds two discs".into());
                }
                Othello::from_bitboards(s.black, s.white, s.side, keys)
            }
        };
        replay(&mut g, &self.moves)?;
        Ok(g)
    }

    /// Replay a Gomoku record; the error names the size or the first bad move.
    pub fn to_gomoku(&self, keys: &'static Keys) -> Result<Gomoku, String> {
        if self.kind != GameKind::Gomoku {
            return Err(format!(
                "this record holds a {} game, not gomoku",
                self.kind
            ));
        }
        let mut g = Gomoku::try_new(self.size, self.rule, keys)?;
        replay(&mut g, &self.moves)?;
        Ok(g)
    }

    /// Replay the record into a game of its kind.
    pub fn to_game(&self, keys: &'static Keys) -> Result<AnyGame, String> {
        Ok(match self.kind {
            GameKind::Othello => AnyGame::Othello(self.to_othello(keys)?),
            GameKind::Gomoku => AnyGame::Gomoku(self.to_gomoku(keys)?),
        })
    }

    /// The think time of move `i`, when known.
    pub fn think_ms_of(&self, i: usize) -> Option<u64> {
        self.think_ms.get(i).copied()
    }
}

/// Play checked moves; on error the game is left at the last good move and the error names the move.
fn replay<G: Game>(game: &mut G, moves: &[Move]) -> Result<(), String> {
    for (i, &mv) in moves.iter().enumerate() {
        game.try_play(mv)
            .map_err(|e| format!("move {} '{}': {e}", i + 1, game.move_name(mv)))?;
    }
    Ok(())
}

/// A file format for game records.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Othello move transcript (`f5d6c3…`), with an optional OBF start line.
    Transcript,
    /// Othello GGF (`(;GM[Othello]…BO[8 …]B[F5]W[D6]…;)`).
    Ggf,
    /// Gomoku Piskvork `.psq`.
    Psq,
    /// Gomoku RIF square list (`h8 i9 h9`) with a `# gomoku 15x15 freestyle` header.
    RifList,
}

impl Format {
    pub const ALL: [Format; 4] = [
        Format::Transcript,
        Format::Ggf,
        Format::Psq,
        Format::RifList,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Format::Transcript => "transcript",
            Format::Ggf => "ggf",
            Format::Psq => "psq",
            Format::RifList => "rif-list",
        }
    }

    /// The game this format holds.
    pub fn kind(self) -> GameKind {
        match self {
            Format::Transcript | Format::Ggf => GameKind::Othello,
            Format::Psq | Format::RifList => GameKind::Gomoku,
        }
    }

    /// The format an extension names, if it names one unambiguously (`.ggf`, `.psq`, `.rif.txt`).
    pub fn from_extension(path: &Path) -> Option<Format> {
        let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
        if name.ends_with(".ggf") {
            Some(Format::Ggf)
        } else if name.ends_with(".psq") {
            Some(Format::Psq)
        } else if name.ends_with(".rif.txt") || name.ends_with(".riflist") {
            Some(Format::RifList)
        } else {
            None
        }
    }

    /// The format to save `kind` in at `path`: the extension's if it fits the game, otherwise the
    /// game's plain-text format (transcript or RIF list).
    pub fn for_path(path: &Path, kind: GameKind) -> Result<Format, String> {
        match Format::from_extension(path) {
            Some(f) if f.kind() == kind => Ok(f),
            Some(f) => Err(format!(
                "{}: a .{} file holds {} games, not {kind}",
                path.display(),
                f.name(),
                f.kind()
            )),
            None => Ok(Format::plain(kind)),
        }
    }

    /// The plain-text format of a game kind.
    pub fn plain(kind: GameKind) -> Format {
        match kind {
            GameKind::Othello => Format::Transcript,
            GameKind::Gomoku => Format::RifList,
        }
    }

    /// The format that keeps everything of a game of `kind` (used for the resume file).
    pub fn lossless(kind: GameKind) -> Format {
        match kind {
            GameKind::Othello => Format::Ggf,
            GameKind::Gomoku => Format::RifList,
        }
    }

    /// Guess the format of a text from its content.
    pub fn detect(text: &str) -> Format {
        let t = text.trim_start_matches('\u{feff}').trim_start();
        if t.starts_with('(') {
            return Format::Ggf;
        }
        if t.get(..9)
            .is_some_and(|p| p.eq_ignore_ascii_case("piskvorky"))
        {
            return Format::Psq;
        }
        if let Some(kind) = lists::header_kind(t) {
            return Format::plain(kind);
        }
        lists::guess_list_format(t)
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The text of a record in a format; an error if the format cannot hold the game.
pub fn to_text(record: &Record, format: Format) -> Result<String, String> {
    if format.kind() != record.kind {
        return Err(format!(
            "the {format} format holds {} games, not {}",
            format.kind(),
            record.kind
        ));
    }
    match format {
        Format::Transcript => write_transcript(record),
        Format::Ggf => write_ggf(record),
        Format::Psq => write_psq(record),
        Format::RifList => write_rif_list(record),
    }
}

/// Parse a record in a given format (or the detected one), checking every move.
pub fn from_text(text: &str, format: Option<Format>) -> Result<Record, String> {
    let text = text.trim_start_matches('\u{feff}');
    match format.unwrap_or_else(|| Format::detect(text)) {
        Format::Transcript => parse_transcript(text),
        Format::Ggf => parse_ggf(text),
        Format::Psq => parse_psq(text),
        Format::RifList => parse_rif_list(text),
    }
}

/// Save a record at `path` atomically, in the format the extension names (`.ggf`, `.psq`) or else
/// the game's plain-text format.
pub fn save(path: &Path, record: &Record) -> Result<(), String> {
    let format = Format::for_path(path, record.kind)?;
    save_as(path, record, format)
}

/// Save a record at `path` atomically in the given format.
pub fn save_as(path: &Path, record: &Record, format: Format) -> Result<(), String> {
    let text = to_text(record, format).map_err(|e| format!("{}: {e}", path.display()))?;
    write_atomic(path, &text)
}

/// Load a record from `path`: the format comes from the extension, else from the content.
pub fn load(path: &Path) -> Result<Record, String> {
    let text = read_text(path)?;
    from_text(&text, Format::from_extension(path)).map_err(|e| format!("{}: {e}", path.display()))
}

/// Read a text file of reasonable size; invalid UTF-8 is replaced, not refused.
fn read_text(path: &Path) -> Result<String, String> {
    let meta = fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{}: not a regular file", path.display()));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "{}: {} bytes is too large for a game record (limit {MAX_FILE_BYTES})",
            path.display(),
            meta.len()
        ));
    }
    let bytes = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Write `contents` to `path` through a temporary file in the same directory and a rename, so
/// readers see either the old file or the whole new one.
pub fn write_atomic(path: &Path, contents: &str) -> Result<(), String> {
    let name = path
        .file_name()
        .ok_or_else(|| format!("{}: not a file name", path.display()))?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let tmp = dir.join(format!(
        ".{}.{}-{}.tmp",
        name.to_string_lossy(),
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(contents.as_bytes())?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(format!("{}: cannot save: {e}", path.display()));
    }
    Ok(())
}

/// Where the current game is kept between sessions: `$XDG_STATE_HOME/xorboard/last-game`, else
/// `$HOME/.local/state/xorboard/last-game`; `None` when neither variable gives an absolute path.
pub fn resume_path() -> Option<PathBuf> {
    let abs = |v: std::ffi::OsString| {
        let p = PathBuf::from(v);
        p.is_absolute().then_some(p)
    };
    if let Some(state) = std::env::var_os("XDG_STATE_HOME").and_then(abs) {
        return Some(state.join("xorboard").join("last-game"));
    }
    std::env::var_os("HOME")
        .and_then(abs)
        .map(|home| home.join(".local/state/xorboard/last-game"))
}

/// Keep `record` in the resume file (atomically, creating the directory); returns the path.
pub fn save_resume(record: &Record) -> Result<PathBuf, String> {
    let path = resume_path().ok_or("no place for the resume file: set HOME or XDG_STATE_HOME")?;
    save_resume_at(&path, record)?;
    Ok(path)
}

/// Keep `record` at an explicit resume path (creating its directory).
pub fn save_resume_at(path: &Path, record: &Record) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    save_as(path, record, Format::lossless(record.kind))
}

/// The game kept by [`save_resume`], if there is one.
pub fn load_resume() -> Result<Option<Record>, String> {
    match resume_path() {
        Some(path) => load_resume_at(&path),
        None => Ok(None),
    }
}

/// The game kept at an explicit resume path; `Ok(None)` when there is no file.
pub fn load_resume_at(path: &Path) -> Result<Option<Record>, String> {
    if !path.exists() {
        return Ok(None);
    }
    let text = read_text(path)?;
    from_text(&text, None)
        .map(Some)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Forget the kept game (no error when there is none).
pub fn clear_resume() -> Result<(), String> {
    match resume_path() {
        Some(path) if path.exists() => {
            fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))
        }
        _ => Ok(()),
    }
}

/// Gomoku board sizes a record may name.
fn check_gomoku_size(size: usize) -> Result<(), String> {
    if (gomoku::MIN_SIZE..=gomoku::MAX_SIZE).contains(&size) {
        Ok(())
    } else {
        Err(format!(
            "board size {size} out of range: {} to {}",
            gomoku::MIN_SIZE,
            gomoku::MAX_SIZE
        ))
    }
}

/// Think times kept only when some move has one: then every move has an entry.
fn normalise_times(times: Vec<Option<u64>>) -> Vec<u64> {
    if times.iter().any(Option::is_some) {
        times.into_iter().map(|t| t.unwrap_or(0)).collect()
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_decides_when_it_fits() {
        let p = Path::new("a/b.ggf");
        assert_eq!(Format::for_path(p, GameKind::Othello), Ok(Format::Ggf));
        assert!(Format::for_path(p, GameKind::Gomoku).is_err());
        assert_eq!(
            Format::for_path(Path::new("x.txt"), GameKind::Gomoku),
            Ok(Format::RifList)
        );
        assert_eq!(
            Format::for_path(Path::new("x"), GameKind::Othello),
            Ok(Format::Transcript)
        );
    }

    #[test]
    fn detect_by_content() {
        assert_eq!(Format::detect("(;GM[Othello];)"), Format::Ggf);
        assert_eq!(Format::detect("Piskvorky 15x15, 11:11, 0\n"), Format::Psq);
        assert_eq!(
            Format::detect("# gomoku 15x15 freestyle\nh8"),
            Format::RifList
        );
        assert_eq!(Format::detect("f5d6c3"), Format::Transcript);
        assert_eq!(Format::detect("h8 i9 j10"), Format::RifList);
    }
}
