//! GGF, the Generic Game Format of GGS and NBoard, for Othello.
//!
//! A game is `(;` then properties `KEY[value]` then `;)`. The ones read here: `GM` (must be
//! Othello when present), `TY` (board type: `8`, optionally `8r` for a random start), `BO` (the
//! start: `8`, 64 squares `*` black / `O` white / `-` empty, and the side to move), `PB`/`PW`
//! (names), and the moves `B[F5]` / `W[D6]`, each optionally `B[F5/eval/seconds]`, with `PA` for a
//! pass. A move by the colour not to move is accepted only where the side to move must pass (the
//! pass is then inserted), as some writers leave passes out. Other properties are skipped; `]` and
//! `\` inside a value are escaped with `\`.

use super::{Record, Start, normalise_times};
use crate::game::notation::{othello_move_name, parse_othello_move};
use crate::game::othello::Othello;
use crate::game::{Game, Move, Side};
use crate::zobrist::Keys;

/// One `KEY[value]` of a GGF game, with where the value started (1-based character).
struct Property {
    key: String,
    value: String,
    at: usize,
}

/// Split a GGF game into its properties; stops at `;)`. Text after the first game is ignored.
fn properties(text: &str) -> Result<Vec<Property>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < chars.len() && chars[*i].is_whitespace() {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    if chars.get(i) != Some(&'(') {
        return Err("GGF: a game starts with '(;'".into());
    }
    i += 1;
    skip_ws(&mut i);
    if chars.get(i) != Some(&';') {
        return Err(format!("GGF: expected ';' at character {}", i + 1));
    }
    i += 1;
    let mut out = Vec::new();
    loop {
        skip_ws(&mut i);
        match chars.get(i) {
            None => return Err("GGF: the game is not closed with ';)'".into()),
            Some(')') => return Ok(out),
            Some(';') => {
                let mut j = i + 1;
                while j < chars.len() && chars[j].is_whitespace() {
                    j += 1;
                }
                if chars.get(j) == Some(&')') {
                    return Ok(out);
                }
                return Err(format!("GGF: stray ';' at character {}", i + 1));
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let start = i;
                while i < chars.len() && chars[i].is_ascii_alphabetic() {
                    i += 1;
                }
                let key: String = chars[start..i].iter().collect::<String>().to_uppercase();
                if key.len() > 16 {
                    return Err(format!(
                        "GGF: property name at character {} is too long",
                        start + 1
                    ));
                }
                skip_ws(&mut i);
                if chars.get(i) != Some(&'[') {
                    return Err(format!(
                        "GGF: property {key} at character {} has no '[value]'",
                        start + 1
                    ));
                }
                i += 1;
                let at = i + 1;
                let mut value = String::new();
                loop {
                    match chars.get(i) {
                        None => {
                            return Err(format!(
                                "GGF: the value of {key} at character {at} is not closed with ']'"
                            ));
                        }
                        Some('\\') => {
                            if let Some(&next) = chars.get(i + 1) {
                                value.push(next);
                            }
                            i += 2;
                        }
                        Some(']') => {
                            i += 1;
                            break;
                        }
                        Some(&c) => {
                            value.push(c);
                            i += 1;
                        }
                    }
                }
                out.push(Property { key, value, at });
            }
            Some(c) => return Err(format!("GGF: unexpected '{c}' at character {}", i + 1)),
        }
    }
}

fn disc(c: char) -> Option<Option<Side>> {
    match c {
        '*' | 'X' | 'x' | '#' => Some(Some(Side::Black)),
        'O' | 'o' | '0' => Some(Some(Side::White)),
        '-' | '.' | '_' => Some(None),
        _ => None,
    }
}

/// Parse the `BO[8 <64 squares> <side>]` value.
fn parse_board(value: &str) -> Result<Start, String> {
    let v = value.trim();
    let rest = v
        .strip_prefix('8')
        .filter(|r| r.starts_with(char::is_whitespace))
        .ok_or_else(|| format!("GGF: BO[{}]: only 8×8 boards are supported", shorten(v, 12)))?;
    let mut cells = rest.chars().filter(|c| !c.is_whitespace());
    let (mut black, mut white) = (0u64, 0u64);
    for sq in 0..64 {
        match cells.next().map(|c| (c, disc(c))) {
            Some((_, Some(Some(Side::Black)))) => black |= 1 << sq,
            Some((_, Some(Some(Side::White)))) => white |= 1 << sq,
            Some((_, Some(None))) => {}
            Some((c, None)) => {
                return Err(format!(
                    "GGF: BO: '{c}' at square {} is not *, O or -",
                    sq + 1
                ));
            }
            None => return Err(format!("GGF: BO: only {sq} of 64 squares given")),
        }
    }
    let side = match cells.next() {
        Some('*' | 'X' | 'x' | 'B' | 'b' | '#') => Side::Black,
        Some('O' | 'o' | 'W' | 'w' | '0') => Side::White,
        Some(c) => return Err(format!("GGF: BO: side to move '{c}' is not * or O")),
        None => return Err("GGF: BO: the side to move is missing".into()),
    };
    if let Some(c) = cells.next() {
        return Err(format!("GGF: BO: unexpected '{c}' after the side to move"));
    }
    Ok(Start { black, white, side })
}

fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n).collect();
        t.push('…');
        t
    }
}

/// A move value `F5`, `f5/1.5/0.25`, `PA`: the move and its time in milliseconds.
pub(crate) fn parse_move_value(value: &str) -> Result<(Move, Option<u64>), String> {
    let mut parts = value.trim().split('/');
    let sq = parts.next().unwrap_or("").trim();
    let mv = parse_othello_move(sq).map_err(|e| e.to_string())?;
    let _eval = parts.next();
    let time = match parts.next().map(str::trim) {
        None | Some("") => None,
        Some(t) => match t.parse::<f64>() {
            Ok(s) if s.is_finite() && s >= 0.0 => Some((s * 1000.0).round().min(1e15) as u64),
            _ => return Err(format!("'{t}' is not a time in seconds")),
        },
    };
    Ok((mv, time))
}

/// The game clock of a GGF game (`TI[15:00]`, `TI[1:00:00]`, `TI[300]`; an extension after `/`
/// is ignored), when the game has a readable one.
pub fn ggf_clock(text: &str) -> Option<std::time::Duration> {
    let props = properties(text).ok()?;
    let ti = props.iter().find(|p| p.key == "TI")?;
    let main = ti.value.split('/').next()?.trim();
    if main.is_empty() {
        return None;
    }
    let mut secs = 0u64;
    for part in main.split(':') {
        let v: u64 = part.trim().parse().ok()?;
        secs = secs.checked_mul(60)?.checked_add(v)?;
    }
    Some(std::time::Duration::from_secs(secs))
}

/// Parse the first game of a GGF text into an Othello record, checking every move.
pub fn parse_ggf(text: &str) -> Result<Record, String> {
    let props = properties(text)?;
    let mut rec = Record::new_othello();
    let mut start = Start::STANDARD;
    let mut move_props = Vec::new();
    for p in props {
        match p.key.as_str() {
            "GM" if !p.value.trim().eq_ignore_ascii_case("othello") => {
                return Err(format!(
                    "GGF: GM[{}]: only Othello games are supported",
                    shorten(p.value.trim(), 20)
                ));
            }
            "TY" => {
                let t = p.value.trim().to_ascii_lowercase();
                if t != "8" && t != "8r" {
                    return Err(format!(
                        "GGF: TY[{}]: only the 8×8 game (TY[8]) is supported",
                        shorten(p.value.trim(), 20)
                    ));
                }
            }
            "BO" => start = parse_board(&p.value)?,
            "PB" => rec.black = Some(p.value.trim().to_string()).filter(|s| !s.is_empty()),
            "PW" => rec.white = Some(p.value.trim().to_string()).filter(|s| !s.is_empty()),
            "B" | "W" => move_props.push(p),
            _ => {}
        }
    }
    if start.black & start.white != 0 {
        return Err("GGF: BO: a square holds two discs".into());
    }
    rec.start = (start != Start::STANDARD).then_some(start);
    let mut game =
        Othello::from_bitboards(start.black, start.white, start.side, Keys::default_keys());
    let mut times = Vec::new();
    for (n, p) in move_props.iter().enumerate() {
        let colour = if p.key == "B" {
            Side::Black
        } else {
            Side::White
        };
        let where_ = || format!("GGF: move {} {}[{}]", n + 1, p.key, shorten(&p.value, 20));
        let (mv, time) = parse_move_value(&p.value).map_err(|e| format!("{}: {e}", where_()))?;
        if colour != game.side_to_move() {
            // A writer that leaves passes out: insert the pass where the side to move has none.
            if game.move_mask() == 0 && !game.is_over() && !mv.is_pass() {
                game.play(Move::PASS);
                rec.moves.push(Move::PASS);
                times.push(None);
            } else {
                return Err(format!(
                    "{}: it is {}'s turn (character {})",
                    where_(),
                    game.side_to_move(),
                    p.at
                ));
            }
        }
        game.try_play(mv)
            .map_err(|e| format!("{}: {e} (character {})", where_(), p.at))?;
        rec.moves.push(mv);
        times.push(time);
    }
    rec.think_ms = normalise_times(times);
    Ok(rec)
}

fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | ']' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' | '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The `BO[...]` value of a position: `8 <64 squares> <side>`.
pub fn ggf_board(game: &Othello) -> String {
    use crate::game::Cell;
    let mut s = String::from("8 ");
    for i in 0..64 {
        s.push(match game.cell(i) {
            Cell::Black => '*',
            Cell::White => 'O',
            Cell::Empty => '-',
        });
    }
    s.push(' ');
    s.push(if game.side_to_move() == Side::Black {
        '*'
    } else {
        'O'
    });
    s
}

/// The GGF text of an Othello record, on one line (as NBoard's `set game` carries it).
pub fn write_ggf(rec: &Record) -> Result<String, String> {
    let end = rec.to_othello(Keys::default_keys())?;
    let start = rec.start.unwrap_or(Start::STANDARD);
    let mut game =
        Othello::from_bitboards(start.black, start.white, start.side, Keys::default_keys());
    let result = match end.outcome() {
        None => "?".to_string(),
        Some(_) => {
            let diff = end.final_disc_difference();
            let black = if end.side_to_move() == Side::Black {
                diff
            } else {
                -diff
            };
            format!("{black:+}.000")
        }
    };
    let mut s = format!(
        "(;GM[Othello]PC[xorboard]PB[{}]PW[{}]RE[{result}]TY[8]BO[{}]",
        escape(rec.black.as_deref().unwrap_or("")),
        escape(rec.white.as_deref().unwrap_or("")),
        ggf_board(&game)
    );
    for (i, &mv) in rec.moves.iter().enumerate() {
        let colour = if game.side_to_move() == Side::Black {
            'B'
        } else {
            'W'
        };
        s.push(colour);
        s.push('[');
        s.push_str(&othello_move_name(mv).to_ascii_uppercase());
        if let Some(ms) = rec.think_ms_of(i) {
            s.push_str(&format!("//{}.{:03}", ms / 1000, ms % 1000));
        }
        s.push(']');
        game.play(mv);
    }
    s.push_str(";)");
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nboard_example_parses() {
        let text = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";
        let rec = parse_ggf(text).unwrap();
        assert_eq!(rec.moves.len(), 8);
        assert_eq!(rec.start, None);
        assert_eq!(rec.black.as_deref(), Some("./mEdax"));
        let g = rec.to_othello(Keys::default_keys()).unwrap();
        assert_eq!(g.side_to_move(), Side::Black);
    }

    #[test]
    fn clock() {
        use std::time::Duration;
        assert_eq!(
            ggf_clock("(;GM[Othello]TI[15:00];)"),
            Some(Duration::from_secs(900))
        );
        assert_eq!(
            ggf_clock("(;TI[1:00:00//2:00];)"),
            Some(Duration::from_secs(3600))
        );
        assert_eq!(ggf_clock("(;TI[x];)"), None);
        assert_eq!(ggf_clock("(;GM[Othello];)"), None);
    }

    #[test]
    fn bad_ggf_names_the_place() {
        assert!(parse_ggf("GM[Othello]").unwrap_err().contains("'(;'"));
        let e = parse_ggf("(;GM[Othello]B[F5]W[F5];)").unwrap_err();
        assert!(e.contains("move 2"), "{e}");
        let e = parse_ggf("(;GM[Othello]BO[8 ---];)").unwrap_err();
        assert!(e.contains("BO"), "{e}");
        let e = parse_ggf("(;GM[Othello]B[F5").unwrap_err();
        assert!(e.contains("not closed"), "{e}");
        assert!(parse_ggf("(;GM[Chess];)").is_err());
    }

    #[test]
    fn times_and_names_survive() {
        let mut rec = Record::new_othello();
        let g = {
            let mut g = Othello::default();
            for m in ["f5", "d6", "c3"] {
                g.play_named(m).unwrap();
            }
            g
        };
        rec.moves = g.history().to_vec();
        rec.think_ms = vec![1500, 0, 12];
        rec.black = Some("a]b\\c".into());
        let text = write_ggf(&rec).unwrap();
        assert_eq!(parse_ggf(&text).unwrap(), rec);
    }
}
