//! Plain move lists: Othello transcripts and Gomoku RIF square lists.
//!
//! Both are text where `#` starts a comment. An Othello transcript is `f5d6c3…` (separators
//! allowed, `pa` for a pass; a pass the list leaves out is inserted where the side to move has no
//! move), optionally preceded by an OBF line giving a start position. A RIF list is squares such
//! as `h8 i9 h9` (columns from `a`, rows counted from the bottom) under an optional header comment
//! `# gomoku 15x15 freestyle` naming the board size and rule (15×15 freestyle when absent). A
//! one-line RIF list is also a valid opening line for `gomoku_match.py --openings`.

use super::{Record, Start, check_gomoku_size};
use crate::game::gomoku::{Gomoku, Rule};
use crate::game::notation::{
    parse_obf, parse_othello_move, parse_rif, rif_name, split_gomoku_list,
    split_othello_transcript, to_obf,
};
use crate::game::othello::Othello;
use crate::game::{Game, GameKind, Move};
use crate::zobrist::Keys;

/// The text of each line with its comment removed, with 1-based line numbers.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
}

/// The words of header comments (`# gomoku 15x15 exact5`, `# othello`), `xorboard` skipped.
fn header_words(text: &str) -> Option<Vec<String>> {
    for line in text.lines() {
        let Some(comment) = line.trim().strip_prefix('#') else {
            continue;
        };
        let words: Vec<String> = comment
            .split_whitespace()
            .map(str::to_ascii_lowercase)
            .skip_while(|w| w == "xorboard")
            .collect();
        if matches!(
            words.first().map(String::as_str),
            Some("gomoku" | "othello")
        ) {
            return Some(words);
        }
    }
    None
}

/// The game a header comment names, if any.
pub(super) fn header_kind(text: &str) -> Option<GameKind> {
    match header_words(text)?.first()?.as_str() {
        "gomoku" => Some(GameKind::Gomoku),
        _ => Some(GameKind::Othello),
    }
}

/// Whether a line is an OBF board (64 board characters, then the side to move).
fn looks_like_obf(line: &str) -> bool {
    let cells: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    cells.len() >= 65
        && cells[..64]
            .iter()
            .all(|c| matches!(c, 'X' | 'x' | 'O' | 'o' | '*' | '-' | '.' | '_' | '0'))
}

/// Transcript or RIF list, for a text without a header.
pub(super) fn guess_list_format(text: &str) -> super::Format {
    use super::Format;
    if content_lines(text)
        .next()
        .is_some_and(|(_, l)| looks_like_obf(l))
    {
        return Format::Transcript;
    }
    let body: Vec<&str> = content_lines(text).map(|(_, l)| l).collect();
    if split_othello_transcript(&body.join(" ")).is_ok()
        && (parse_transcript(text).is_ok() || parse_rif_list(text).is_err())
    {
        return Format::Transcript;
    }
    Format::RifList
}

/// Parse an Othello transcript (optionally after an OBF start line).
pub fn parse_transcript(text: &str) -> Result<Record, String> {
    if header_kind(text) == Some(GameKind::Gomoku) {
        return Err("transcript: the header names a gomoku game".into());
    }
    let mut lines = content_lines(text).peekable();
    let mut rec = Record::new_othello();
    let mut game = Othello::new(Keys::default_keys());
    if let Some(&(n, first)) = lines.peek()
        && looks_like_obf(first)
    {
        game = parse_obf(first, Keys::default_keys()).map_err(|e| format!("line {n}: {e}"))?;
        let s = Start {
            black: game.black(),
            white: game.white(),
            side: game.side_to_move(),
        };
        rec.start = (s != Start::STANDARD).then_some(s);
        lines.next();
    }
    let mut count = 0;
    for (n, line) in lines {
        let squares = split_othello_transcript(line).map_err(|e| format!("line {n}: {e}"))?;
        for sq in squares {
            count += 1;
            let mv = parse_othello_move(&sq)
                .map_err(|e| format!("line {n}: move {count} '{sq}': {e}"))?;
            if !mv.is_pass() && game.move_mask() == 0 && !game.is_over() {
                game.play(Move::PASS);
                rec.moves.push(Move::PASS);
            }
            game.try_play(mv)
                .map_err(|e| format!("line {n}: move {count} '{sq}': {e}"))?;
            rec.moves.push(mv);
        }
    }
    Ok(rec)
}

/// The transcript text: an OBF line when the start is not the standard one, then the moves.
pub fn write_transcript(rec: &Record) -> Result<String, String> {
    let start = rec.to_othello(Keys::default_keys()).map(|mut g| {
        while g.undo().is_some() {}
        g
    })?;
    let mut s = String::new();
    if rec.start.is_some() {
        s.push_str(&to_obf(&start));
        s.push('\n');
    }
    for &mv in &rec.moves {
        s.push_str(&start.move_name(mv));
    }
    s.push('\n');
    Ok(s)
}

/// Parse a Gomoku RIF list with its optional header.
pub fn parse_rif_list(text: &str) -> Result<Record, String> {
    let (mut size, mut rule) = (15, Rule::Freestyle);
    if let Some(words) = header_words(text) {
        if words[0] != "gomoku" {
            return Err("RIF list: the header names an othello game".into());
        }
        for w in &words[1..] {
            match w.as_str() {
                "freestyle" => rule = Rule::Freestyle,
                "exact5" => rule = Rule::Exact5,
                w => {
                    let n = w.split_once('x').map_or(w, |(a, _)| a);
                    if let Ok(v) = n.parse::<usize>() {
                        if w.split_once('x').is_some_and(|(a, b)| a != b) {
                            return Err(format!("RIF list: header: {w} is not a square board"));
                        }
                        check_gomoku_size(v).map_err(|e| format!("RIF list: header: {e}"))?;
                        size = v;
                    } else {
                        return Err(format!(
                            "RIF list: header: '{w}' is neither a size (15x15) nor a rule (freestyle, exact5)"
                        ));
                    }
                }
            }
        }
    }
    let mut rec = Record::new_gomoku(size, rule);
    let mut game = Gomoku::new(size, rule, Keys::default_keys());
    let mut count = 0;
    for (n, line) in content_lines(text) {
        for sq in split_gomoku_list(line) {
            count += 1;
            let mv = parse_rif(size, &sq)
                .and_then(|mv| game.try_play(mv).map(|_| mv))
                .map_err(|e| format!("RIF list: line {n}: move {count} '{sq}': {e}"))?;
            rec.moves.push(mv);
        }
    }
    Ok(rec)
}

/// The RIF list text: the header line, then the squares on one line.
pub fn write_rif_list(rec: &Record) -> Result<String, String> {
    rec.to_gomoku(Keys::default_keys())?;
    let moves: Vec<String> = rec.moves.iter().map(|&m| rif_name(rec.size, m)).collect();
    Ok(format!(
        "# gomoku {0}x{0} {1}\n{2}\n",
        rec.size,
        rec.rule.name(),
        moves.join(" ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcript_errors_name_the_move() {
        let plain = parse_transcript("f5d6c3d3c4").unwrap();
        assert_eq!(plain.moves.len(), 5);
        assert!(parse_transcript("f5f5").unwrap_err().contains("move 2"));
        assert!(parse_transcript("f5\nz9").unwrap_err().contains("line 2"));
    }

    #[test]
    fn rif_header_sets_size_and_rule() {
        let rec = parse_rif_list("# gomoku 9x9 exact5\ne5 d4, f6").unwrap();
        assert_eq!((rec.size, rec.rule, rec.moves.len()), (9, Rule::Exact5, 3));
        assert!(parse_rif_list("# gomoku 30x30\n").is_err());
        assert!(parse_rif_list("# gomoku 9x9\nj1").is_err());
        assert!(parse_rif_list("h8 h8").unwrap_err().contains("move 2"));
    }
}
