//! Text forms of moves and positions.
//!
//! - Othello squares `a1`–`h8` (case-insensitive; `a1` top-left), `pa`/`pass` for a pass;
//!   transcripts `f5d6c3…` with or without separators.
//! - OBF boards: 64 characters `X` (black), `O` (white), `-` (empty), row-major from `a1`, then the
//!   side to move `X` or `O`.
//! - Gomoku RIF coordinates: a column letter `a…` and a row number counted from the bottom (`h8` is
//!   the centre of 15×15); lists separated by commas or spaces.
//! - Piskvork protocol coordinates: 0-based `x,y` from the top-left.
//!
//! Every parser returns a one-line error and never panics.

use crate::game::othello::Othello;
use crate::game::{Move, MoveError, Side};
use crate::zobrist::Keys;

/// `f5`, or `pa` for a pass.
pub fn othello_move_name(mv: Move) -> String {
    match mv.cell() {
        Some(c) if c < 64 => format!("{}{}", (b'a' + (c % 8) as u8) as char, c / 8 + 1),
        _ if mv.is_pass() => "pa".to_string(),
        _ => "--".to_string(),
    }
}

/// Parse `f5`, `F5`, `pa`, `pass`, `PS`.
pub fn parse_othello_move(text: &str) -> Result<Move, MoveError> {
    let t = text.trim().to_ascii_lowercase();
    if t == "pa" || t == "pass" || t == "ps" || t == "@@" {
        return Ok(Move::PASS);
    }
    let b = t.as_bytes();
    if b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]) {
        return Ok(Move::at(((b[1] - b'1') * 8 + (b[0] - b'a')) as usize));
    }
    Err(MoveError::Malformed(format!(
        "'{}' is not an Othello square (a1–h8 or pa)",
        text.trim()
    )))
}

/// Split an Othello transcript (`f5d6c3`, `f5 d6 c3`, `F5-D6`, with `pa`/`pass`) into squares.
pub fn split_othello_transcript(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == ',' || c == '-' || c == ';' {
            i += 1;
            continue;
        }
        let rest: String = chars[i..].iter().take(4).collect::<String>().to_lowercase();
        if rest.starts_with("pass") {
            out.push("pa".into());
            i += 4;
        } else if i + 1 < chars.len() {
            let sq: String = chars[i..i + 2].iter().collect();
            if parse_othello_move(&sq).is_err() {
                return Err(format!(
                    "transcript: '{sq}' at character {} is not an Othello square",
                    i + 1
                ));
            }
            out.push(sq.to_lowercase());
            i += 2;
        } else {
            return Err(format!("transcript: stray '{c}' at character {}", i + 1));
        }
    }
    Ok(out)
}

/// Parse an OBF board `<64 chars X/O/-> <X|O>` (also accepts `*`/`x`/`b` for black,
/// `o`/`w` for white, `.` for empty; the side may follow a space or a semicolon-separated tail).
pub fn parse_obf(text: &str, keys: &'static Keys) -> Result<Othello, String> {
    let t = text.trim();
    let t = t.split(';').next().unwrap_or("").trim();
    let mut chars = t.chars().filter(|c| !c.is_whitespace());
    let mut black = 0u64;
    let mut white = 0u64;
    for i in 0..64 {
        match chars.next() {
            Some('X' | 'x' | '*' | 'B' | 'b') => black |= 1 << i,
            Some('O' | 'o' | 'W' | 'w' | '0') => white |= 1 << i,
            Some('-' | '.' | '_') => {}
            Some(c) => return Err(format!("OBF: '{c}' at square {} is not X, O or -", i + 1)),
            None => return Err(format!("OBF: only {i} of 64 squares given")),
        }
    }
    let side = match chars.next() {
        Some('X' | 'x' | '*' | 'B' | 'b') => Side::Black,
        Some('O' | 'o' | 'W' | 'w' | '0') => Side::White,
        Some(c) => return Err(format!("OBF: side to move '{c}' is not X or O")),
        None => {
            return Err("OBF: the side to move (X or O) is missing after the 64 squares".into());
        }
    };
    if let Some(c) = chars.next() {
        return Err(format!("OBF: unexpected '{c}' after the side to move"));
    }
    Ok(Othello::from_bitboards(black, white, side, keys))
}

/// The OBF text of a position.
pub fn to_obf(game: &Othello) -> String {
    use crate::game::Game;
    let mut s: String = (0..64)
        .map(|i| match game.cell(i) {
            crate::game::Cell::Black => 'X',
            crate::game::Cell::White => 'O',
            crate::game::Cell::Empty => '-',
        })
        .collect();
    s.push(' ');
    s.push(if game.side_to_move() == Side::Black {
        'X'
    } else {
        'O'
    });
    s
}

/// RIF name of a Gomoku cell on a `size`×`size` board: column letter, row from the bottom.
pub fn rif_name(size: usize, mv: Move) -> String {
    match mv.cell() {
        Some(c) if c < size * size => {
            let (x, y) = (c % size, c / size);
            format!("{}{}", (b'a' + x as u8) as char, size - y)
        }
        _ => "--".into(),
    }
}

/// Parse a RIF coordinate (`h8`, `H8`) on a `size`×`size` board.
pub fn parse_rif(size: usize, text: &str) -> Result<Move, MoveError> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || {
        MoveError::Malformed(format!(
            "'{}' is not a cell of the {size}×{size} board (a1–{}{size})",
            text.trim(),
            (b'a' + size as u8 - 1) as char
        ))
    };
    let mut chars = t.chars();
    let col = chars.next().ok_or_else(bad)?;
    if !col.is_ascii_lowercase() {
        return Err(bad());
    }
    let x = (col as u8 - b'a') as usize;
    let row: usize = chars.as_str().parse().map_err(|_| bad())?;
    if x >= size || row == 0 || row > size {
        return Err(bad());
    }
    let y = size - row;
    Ok(Move::at(y * size + x))
}

/// Split a Gomoku move list (`h8,i9 j10` …) into coordinates.
pub fn split_gomoku_list(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace() || c == ';')
        .filter(|s| !s.is_empty())
        .map(|s| s.to_string())
        .collect()
}

/// Piskvork `x,y` (0-based from the top-left) of a cell.
pub fn to_piskvork(size: usize, mv: Move) -> Option<(usize, usize)> {
    mv.cell()
        .filter(|&c| c < size * size)
        .map(|c| (c % size, c / size))
}

/// Parse Piskvork `x,y` into a move on a `size`×`size` board.
pub fn parse_piskvork(size: usize, text: &str) -> Result<Move, String> {
    let mut parts = text.trim().split(',');
    let (Some(xs), Some(ys)) = (parts.next(), parts.next()) else {
        return Err(format!("'{}' is not x,y", text.trim()));
    };
    let x: usize = xs
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a coordinate", xs.trim()))?;
    let y: usize = ys
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a coordinate", ys.trim()))?;
    if x >= size || y >= size {
        return Err(format!("{x},{y} is off the {size}×{size} board"));
    }
    Ok(Move::at(y * size + x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn othello_squares_round_trip() {
        for c in 0..64 {
            let m = Move::at(c);
            assert_eq!(parse_othello_move(&othello_move_name(m)), Ok(m));
        }
        assert_eq!(parse_othello_move("F5"), Ok(Move::at(37)));
        assert!(parse_othello_move("i9").is_err());
        assert!(parse_othello_move("").is_err());
    }

    #[test]
    fn rif_centre_is_h8() {
        assert_eq!(parse_rif(15, "h8"), Ok(Move::at(7 * 15 + 7)));
        assert_eq!(rif_name(15, Move::at(0)), "a15");
        assert_eq!(rif_name(15, Move::at(14 * 15)), "a1");
        assert!(parse_rif(15, "p1").is_err());
        assert!(parse_rif(15, "a0").is_err());
        assert!(parse_rif(15, "a16").is_err());
        assert!(parse_rif(15, "é3").is_err());
    }

    #[test]
    fn piskvork_round_trip() {
        let m = parse_piskvork(15, "7,7").unwrap();
        assert_eq!(rif_name(15, m), "h8");
        assert_eq!(to_piskvork(15, m), Some((7, 7)));
        assert!(parse_piskvork(15, "15,0").is_err());
        assert!(parse_piskvork(15, "a,b").is_err());
    }

    #[test]
    fn transcript_split() {
        assert_eq!(
            split_othello_transcript("f5d6 C3-pass,pa").unwrap(),
            ["f5", "d6", "c3", "pa", "pa"]
        );
        assert!(split_othello_transcript("f5z9").is_err());
        assert!(split_othello_transcript("f5d").is_err());
    }
}
