//! The `:` command line: parse one typed line into a [`Cmd`], or a one-line error.
//!
//! Parsing never touches the game; the [`super::app::App`] applies a parsed command, and a line
//! that parses to nothing known changes nothing and leaves an error in the status line.

use ratatui::crossterm::event::KeyCode;

use super::app::Human;
use crate::game::GameKind;
use crate::game::gomoku::Rule;
use crate::tt::Policy;

/// TT sizes the command line accepts, in MiB.
pub const TT_MIB_RANGE: std::ops::RangeInclusive<usize> = 1..=4096;
/// Check bits the command line accepts.
pub const CHECK_BITS_RANGE: std::ops::RangeInclusive<u32> =
    crate::tt::MIN_CHECK_BITS..=crate::tt::MAX_CHECK_BITS;

/// `s` as a number within `range`, if it is one: the check behind every numeric argument of
/// the `:` line and of the command line's range parsers (`crate::commands::parse_within`).
pub fn number_in<T>(s: &str, range: &std::ops::RangeInclusive<T>) -> Option<T>
where
    T: std::str::FromStr + PartialOrd,
{
    s.parse().ok().filter(|n| range.contains(n))
}

/// One command of the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// Anything that is not a command word: a move in the game's notation (`f5`, `h8`, `pa`).
    Move(String),
    New,
    Undo,
    Redo,
    Strategy(Policy),
    TtMib(usize),
    CheckBits(u32),
    /// Switch game; Gomoku may name a size.
    Game(GameKind, Option<usize>),
    Rule(Rule),
    Human(Human),
    /// Engine time per move in ms.
    Time(u64),
    /// Depth limit (`None`: no limit).
    Depth(Option<u32>),
    Hint,
    Pause,
    EngineNow,
    Help,
    Quit,
    /// Save the game to a file (format from the extension).
    Save(String),
    /// Load a game from a file (format from the extension, else the content).
    Load(String),
    /// The opening book: on, off, or toggle.
    Book(Option<bool>),
    /// The strategy comparison, at this depth and table size (KiB; `Some(0)`: the game's own
    /// table size) or the defaults.
    Compare(Option<u32>, Option<usize>),
    /// The lesson screen.
    Lesson,
    /// The step-through of the last move.
    Step,
}

/// The command words, for the help overlay and error messages.
pub const COMMANDS: &str = ":f5 :h8 (a move)  :new  :undo  :redo  :strategy NAME  :tt MIB  \
:bits N  :game othello|gomoku [SIZE]  :rule freestyle|exact5  :human black|white|both|none  \
:time MS  :depth N|off  :hint  :pause  :engine  :save FILE  :load FILE  :book on|off  \
:compare [DEPTH] [SIZE: 16k, 2m, tt]  :lesson  :step  :help  :quit";

/// The `:` line being typed: its text, the cursor (in characters) and where in the history
/// ↑/↓ are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineEdit {
    pub text: String,
    pub cursor: usize,
    /// The history entry shown (an index into it), while browsing with ↑/↓.
    browsing: Option<usize>,
    /// What was typed before browsing began (↓ past the newest entry brings it back).
    draft: String,
}

impl From<&str> for LineEdit {
    fn from(text: &str) -> LineEdit {
        LineEdit {
            text: text.to_string(),
            cursor: text.chars().count(),
            ..LineEdit::default()
        }
    }
}

/// What a key did to the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Still editing.
    Editing,
    /// Enter: run this line.
    Run(String),
    /// Esc, or Backspace on an empty line.
    Cancel,
}

/// Longest line accepted.
const MAX_LINE: usize = 200;

impl LineEdit {
    fn byte(&self, chars: usize) -> usize {
        self.text
            .char_indices()
            .nth(chars)
            .map_or(self.text.len(), |(i, _)| i)
    }

    fn set(&mut self, text: String) {
        self.cursor = text.chars().count();
        self.text = text;
    }

    /// Apply one key; `history` holds earlier lines, oldest first.
    pub fn key(&mut self, code: KeyCode, ctrl: bool, history: &[String]) -> Edit {
        let len = self.text.chars().count();
        match code {
            KeyCode::Esc => return Edit::Cancel,
            KeyCode::Enter => return Edit::Run(std::mem::take(&mut self.text)),
            KeyCode::Backspace if self.text.is_empty() => return Edit::Cancel,
            KeyCode::Backspace if self.cursor > 0 => {
                let at = self.byte(self.cursor - 1);
                self.text.remove(at);
                self.cursor -= 1;
            }
            KeyCode::Delete if self.cursor < len => {
                let at = self.byte(self.cursor);
                self.text.remove(at);
            }
            KeyCode::Left => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Right => self.cursor = (self.cursor + 1).min(len),
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = len,
            KeyCode::Char('a') if ctrl => self.cursor = 0,
            KeyCode::Char('e') if ctrl => self.cursor = len,
            KeyCode::Char('u') if ctrl => {
                let at = self.byte(self.cursor);
                self.text.replace_range(..at, "");
                self.cursor = 0;
            }
            KeyCode::Up if !history.is_empty() => {
                let i = match self.browsing {
                    None => {
                        self.draft = self.text.clone();
                        history.len() - 1
                    }
                    Some(i) => i.saturating_sub(1),
                };
                self.browsing = Some(i);
                self.set(history[i].clone());
            }
            KeyCode::Down => match self.browsing {
                Some(i) if i + 1 < history.len() => {
                    self.browsing = Some(i + 1);
                    self.set(history[i + 1].clone());
                }
                Some(_) => {
                    self.browsing = None;
                    let draft = std::mem::take(&mut self.draft);
                    self.set(draft);
                }
                None => {}
            },
            KeyCode::Char(c) if !ctrl && len < MAX_LINE => {
                let at = self.byte(self.cursor);
                self.text.insert(at, c);
                self.cursor += 1;
            }
            _ => {}
        }
        Edit::Editing
    }
}

/// Parse a command line (without the leading `:`).
pub fn parse(line: &str) -> Result<Cmd, String> {
    let mut words = line.split_whitespace();
    let Some(head) = words.next() else {
        return Err("empty command (try :help)".to_string());
    };
    let args: Vec<&str> = words.collect();
    let word = head.to_ascii_lowercase();
    // The rest of the line after the command word, spaces kept (file names).
    let rest = line.trim_start()[head.len()..].trim();
    let no_args = |cmd: Cmd| {
        if args.is_empty() {
            Ok(cmd)
        } else {
            Err(format!(":{word} takes no argument"))
        }
    };
    let one_arg = |what: &str| -> Result<&str, String> {
        match args.as_slice() {
            [a] => Ok(*a),
            [] => Err(format!(":{word} needs {what}")),
            _ => Err(format!(":{word} takes one argument, {what}")),
        }
    };
    match word.as_str() {
        "new" | "n" => no_args(Cmd::New),
        "undo" | "u" => no_args(Cmd::Undo),
        "redo" | "r" => no_args(Cmd::Redo),
        "hint" | "t" => no_args(Cmd::Hint),
        "pause" | "p" => no_args(Cmd::Pause),
        "engine" | "e" | "go" => no_args(Cmd::EngineNow),
        "help" | "h" | "?" => no_args(Cmd::Help),
        "quit" | "q" | "exit" => no_args(Cmd::Quit),
        "strategy" | "policy" | "s" => {
            let names = Policy::ALL.map(Policy::name).join(", ");
            let a = one_arg(&format!("a strategy ({names})"))?;
            a.to_ascii_lowercase()
                .parse::<Policy>()
                .map(Cmd::Strategy)
                .map_err(|_| format!("unknown strategy '{a}': one of {names}"))
        }
        "tt" => {
            let a = one_arg("a size in MiB")?;
            number_in(a, &TT_MIB_RANGE).map(Cmd::TtMib).ok_or_else(|| {
                format!(
                    "TT size '{a}' not accepted: a whole number of MiB, {} to {}",
                    TT_MIB_RANGE.start(),
                    TT_MIB_RANGE.end()
                )
            })
        }
        "bits" | "check-bits" => {
            let a = one_arg("a number of check bits")?;
            number_in(a, &CHECK_BITS_RANGE)
                .map(Cmd::CheckBits)
                .ok_or_else(|| {
                    format!(
                        "check bits '{a}' not accepted: {} to {}",
                        CHECK_BITS_RANGE.start(),
                        CHECK_BITS_RANGE.end()
                    )
                })
        }
        "game" => {
            let kind = match args.first().map(|a| a.to_ascii_lowercase()).as_deref() {
                Some("othello" | "reversi") => GameKind::Othello,
                Some("gomoku" | "five") => GameKind::Gomoku,
                Some(other) => {
                    return Err(format!("unknown game '{other}': othello or gomoku"));
                }
                None => return Err(":game needs othello or gomoku".to_string()),
            };
            match (kind, &args[1..]) {
                (_, []) => Ok(Cmd::Game(kind, None)),
                (GameKind::Gomoku, [size]) => {
                    let n = size
                        .parse::<usize>()
                        .map_err(|_| format!("board size '{size}' is not a number (5 to 25)"))?;
                    if (crate::game::gomoku::MIN_SIZE..=crate::game::gomoku::MAX_SIZE).contains(&n)
                    {
                        Ok(Cmd::Game(kind, Some(n)))
                    } else {
                        Err(format!("board size {n} out of range: 5 to 25"))
                    }
                }
                (GameKind::Othello, _) => Err("othello takes no size".to_string()),
                _ => Err(":game gomoku takes at most a size".to_string()),
            }
        }
        "rule" => match one_arg("freestyle or exact5")?
            .to_ascii_lowercase()
            .as_str()
        {
            "freestyle" => Ok(Cmd::Rule(Rule::Freestyle)),
            "exact5" => Ok(Cmd::Rule(Rule::Exact5)),
            other => Err(format!("unknown rule '{other}': freestyle or exact5")),
        },
        "human" => match one_arg("black, white, both or none")?
            .to_ascii_lowercase()
            .as_str()
        {
            "black" => Ok(Cmd::Human(Human::Black)),
            "white" => Ok(Cmd::Human(Human::White)),
            "both" => Ok(Cmd::Human(Human::Both)),
            "none" => Ok(Cmd::Human(Human::None)),
            other => Err(format!(
                "unknown player '{other}': black, white, both or none"
            )),
        },
        "time" => {
            let a = one_arg("milliseconds per move")?;
            number_in(a, &(10..=3_600_000))
                .map(Cmd::Time)
                .ok_or_else(|| format!("time '{a}' not accepted: milliseconds, 10 to 3600000"))
        }
        "depth" => {
            let a = one_arg("a depth or off")?;
            if a.eq_ignore_ascii_case("off") {
                return Ok(Cmd::Depth(None));
            }
            number_in(a, &(1..=64))
                .map(|d| Cmd::Depth(Some(d)))
                .ok_or_else(|| format!("depth '{a}' not accepted: 1 to 64, or off"))
        }
        "save" | "w" | "write" => {
            if rest.is_empty() {
                Err(format!(
                    ":{word} needs a file name (.ggf, .psq, .rif.txt, or any other for the plain list)"
                ))
            } else {
                Ok(Cmd::Save(rest.to_string()))
            }
        }
        "load" | "open" => {
            if rest.is_empty() {
                Err(format!(":{word} needs a file name"))
            } else {
                Ok(Cmd::Load(rest.to_string()))
            }
        }
        "book" | "b" => match args.as_slice() {
            [] => Ok(Cmd::Book(None)),
            [a] if a.eq_ignore_ascii_case("on") => Ok(Cmd::Book(Some(true))),
            [a] if a.eq_ignore_ascii_case("off") => Ok(Cmd::Book(Some(false))),
            _ => Err(format!(":{word} takes on or off")),
        },
        "compare" | "c" => {
            let depth = |a: &str| {
                number_in(a, &(1..=64))
                    .ok_or_else(|| format!("depth '{a}' not accepted: a whole number of plies"))
            };
            match args.as_slice() {
                [] => Ok(Cmd::Compare(None, None)),
                [a] => Ok(Cmd::Compare(Some(depth(a)?), None)),
                [a, b] => Ok(Cmd::Compare(Some(depth(a)?), Some(compare_size(b)?))),
                _ => Err(format!(
                    ":{word} takes a depth and a table size (16k, 2m, tt)"
                )),
            }
        }
        "lesson" => no_args(Cmd::Lesson),
        "step" | "x" => no_args(Cmd::Step),
        _ if args.is_empty() => Ok(Cmd::Move(head.to_string())),
        _ => Err(format!("unknown command ':{head}' (? lists the commands)")),
    }
}

/// A comparison table size in KiB: `16k`, `512`, `2m`, or `tt` (0: the game's own size).
fn compare_size(a: &str) -> Result<usize, String> {
    use crate::engine::compare::{MAX_KIB, MIN_KIB};
    let lower = a.to_ascii_lowercase();
    if lower == "tt" {
        return Ok(0);
    }
    let (digits, scale) = if let Some(d) = lower.strip_suffix('m') {
        (d, 1024)
    } else {
        (lower.strip_suffix('k').unwrap_or(&lower), 1)
    };
    match digits.parse::<usize>() {
        Ok(n) if (MIN_KIB..=MAX_KIB).contains(&n.saturating_mul(scale)) => Ok(n * scale),
        _ => Err(format!(
            "table size '{a}' not accepted: KiB like 16k, MiB like 2m (1k to 64m), or tt"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_has_a_cursor_and_a_history() {
        let history = vec!["strategy depth".to_string(), "tt 16".to_string()];
        let mut l = LineEdit::default();
        for c in "f6".chars() {
            l.key(KeyCode::Char(c), false, &history);
        }
        // ← then a character inserts before the cursor; Delete removes at it.
        l.key(KeyCode::Left, false, &history);
        l.key(KeyCode::Char('5'), false, &history);
        assert_eq!((l.text.as_str(), l.cursor), ("f56", 2));
        l.key(KeyCode::Delete, false, &history);
        assert_eq!(l.text, "f5");
        l.key(KeyCode::Home, false, &history);
        l.key(KeyCode::Backspace, false, &history);
        assert_eq!(l.text, "f5", "nothing before the cursor");
        // ↑ walks back through the history, ↓ forward and back to what was typed.
        l.key(KeyCode::Up, false, &history);
        assert_eq!(l.text, "tt 16");
        l.key(KeyCode::Up, false, &history);
        assert_eq!(l.text, "strategy depth");
        l.key(KeyCode::Up, false, &history);
        assert_eq!(l.text, "strategy depth", "stops at the oldest");
        l.key(KeyCode::Down, false, &history);
        l.key(KeyCode::Down, false, &history);
        assert_eq!((l.text.as_str(), l.cursor), ("f5", 2));
        assert_eq!(
            l.key(KeyCode::Enter, false, &history),
            Edit::Run("f5".into())
        );
        let mut empty = LineEdit::default();
        assert_eq!(empty.key(KeyCode::Backspace, false, &[]), Edit::Cancel);
        assert_eq!(empty.key(KeyCode::Up, false, &[]), Edit::Editing);
    }

    #[test]
    fn commands_of_the_issue() {
        assert_eq!(parse("f5"), Ok(Cmd::Move("f5".into())));
        assert_eq!(parse(" h8 "), Ok(Cmd::Move("h8".into())));
        assert_eq!(parse("new"), Ok(Cmd::New));
        assert_eq!(parse("undo"), Ok(Cmd::Undo));
        assert_eq!(
            parse("strategy two-tier"),
            Ok(Cmd::Strategy(Policy::TwoTier))
        );
        assert_eq!(parse("tt 64"), Ok(Cmd::TtMib(64)));
        assert_eq!(parse("bits 16"), Ok(Cmd::CheckBits(16)));
        assert_eq!(parse("game gomoku"), Ok(Cmd::Game(GameKind::Gomoku, None)));
        assert_eq!(
            parse("game gomoku 19"),
            Ok(Cmd::Game(GameKind::Gomoku, Some(19)))
        );
        assert_eq!(parse("quit"), Ok(Cmd::Quit));
        assert_eq!(parse("depth off"), Ok(Cmd::Depth(None)));
        assert_eq!(
            parse("save my game.ggf"),
            Ok(Cmd::Save("my game.ggf".into()))
        );
        assert_eq!(parse("load g.psq"), Ok(Cmd::Load("g.psq".into())));
        assert_eq!(parse("book"), Ok(Cmd::Book(None)));
        assert_eq!(parse("book ON"), Ok(Cmd::Book(Some(true))));
        assert_eq!(parse("book off"), Ok(Cmd::Book(Some(false))));
        assert_eq!(parse("compare"), Ok(Cmd::Compare(None, None)));
        assert_eq!(parse("compare 6"), Ok(Cmd::Compare(Some(6), None)));
        assert_eq!(parse("compare 6 64k"), Ok(Cmd::Compare(Some(6), Some(64))));
        assert_eq!(parse("compare 6 2M"), Ok(Cmd::Compare(Some(6), Some(2048))));
        assert_eq!(parse("compare 6 tt"), Ok(Cmd::Compare(Some(6), Some(0))));
        assert_eq!(parse("lesson"), Ok(Cmd::Lesson));
        assert_eq!(parse("step"), Ok(Cmd::Step));
    }

    #[test]
    fn bad_lines_are_one_line_errors() {
        for bad in [
            "",
            "strategy",
            "strategy fastest",
            "tt 0",
            "tt lots",
            "tt 99999",
            "bits 7",
            "bits 65",
            "game chess",
            "game othello 8",
            "game gomoku 4",
            "new now",
            "frobnicate the board",
            "time 1",
            "depth 0",
            "human martian",
            "save",
            "load  ",
            "book maybe",
            "compare deep",
            "compare 0",
            "compare 6 0k",
            "compare 6 huge",
            "compare 6 65m",
            "compare 6 1k 2",
            "lesson 2",
        ] {
            let e = parse(bad).expect_err(bad);
            assert!(!e.is_empty() && !e.contains('\n'), "{bad}: {e}");
        }
    }
}
