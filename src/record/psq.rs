//! Piskvork's `.psq` game record for Gomoku.
//!
//! ```text
//! Piskvorky 15x15, 11:11, 0      header: board W×H (square boards only here), levels, who started
//! 8,8,0                          one move per line: 1-BASED x,y from the top-left, think time ms
//! 9,7,3120
//! pbrain-a.zip                   anything else ends the moves (names, result code…)
//! ```
//!
//! Moves alternate from the first (black). Piskvork's reader stops at the first line that is not
//! three integers, and so does this one. The format has no rule field: a game under exactly-five
//! is written with a trailing `rule=exact5` line (ignored by Piskvork), read back here.

use super::{Record, check_gomoku_size, normalise_times};
use crate::game::Game;
use crate::game::Move;
use crate::game::gomoku::{Gomoku, Rule};
use crate::zobrist::Keys;

fn three_ints(line: &str) -> Option<(i64, i64, i64)> {
    let mut it = line.split(',').map(|p| p.trim().parse::<i64>());
    let (Some(Ok(x)), Some(Ok(y)), Some(Ok(ms)), None) =
        (it.next(), it.next(), it.next(), it.next())
    else {
        return None;
    };
    Some((x, y, ms))
}

/// Parse a `.psq` text, checking every move.
pub fn parse_psq(text: &str) -> Result<Record, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let (_, header) = lines.next().ok_or("psq: the file is empty")?;
    let rest = header
        .get(..9)
        .filter(|p| p.eq_ignore_ascii_case("piskvorky"))
        .and_then(|_| header.get(9..))
        .ok_or("psq: line 1 does not start with 'Piskvorky'")?;
    let dims = rest.split(',').next().unwrap_or("").trim();
    let (w, h) = dims
        .split_once(['x', 'X'])
        .and_then(|(w, h)| {
            Some((
                w.trim().parse::<usize>().ok()?,
                h.trim().parse::<usize>().ok()?,
            ))
        })
        .ok_or_else(|| format!("psq: line 1: '{dims}' is not a board size WxH"))?;
    if w != h {
        return Err(format!("psq: line 1: the {w}x{h} board is not square"));
    }
    check_gomoku_size(w).map_err(|e| format!("psq: line 1: {e}"))?;
    let mut moves: Vec<(usize, i64, i64, i64)> = Vec::new();
    let mut rule = Rule::Freestyle;
    let mut in_moves = true;
    for (n, line) in lines {
        if in_moves && let Some((x, y, ms)) = three_ints(line) {
            moves.push((n, x, y, ms));
            continue;
        }
        in_moves = false;
        match line.to_ascii_lowercase().replace(' ', "").as_str() {
            "rule=exact5" => rule = Rule::Exact5,
            "rule=freestyle" => rule = Rule::Freestyle,
            _ => {}
        }
    }
    let mut rec = Record::new_gomoku(w, rule);
    let mut game = Gomoku::new(w, rule, Keys::default_keys());
    let mut times = Vec::new();
    for (count, &(n, x, y, ms)) in moves.iter().enumerate() {
        let at = || format!("psq: line {n}: move {} '{x},{y}'", count + 1);
        if x < 1 || y < 1 || x > w as i64 || y > w as i64 {
            return Err(format!("{}: off the {w}×{w} board (1-based)", at()));
        }
        let mv = Move::at((y as usize - 1) * w + (x as usize - 1));
        game.try_play(mv).map_err(|e| format!("{}: {e}", at()))?;
        rec.moves.push(mv);
        times.push(u64::try_from(ms).ok());
    }
    rec.think_ms = normalise_times(times);
    Ok(rec)
}

/// The `.psq` text of a Gomoku record.
pub fn write_psq(rec: &Record) -> Result<String, String> {
    rec.to_gomoku(Keys::default_keys())?;
    let n = rec.size;
    let mut s = format!("Piskvorky {n}x{n}, 11:11, 0\n");
    for (i, &mv) in rec.moves.iter().enumerate() {
        let c = mv.cell().unwrap_or(0);
        s.push_str(&format!(
            "{},{},{}\n",
            c % n + 1,
            c / n + 1,
            rec.think_ms_of(i).unwrap_or(0)
        ));
    }
    if rec.rule == Rule::Exact5 {
        s.push_str("rule=exact5\n");
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piskvork_header_and_one_based_moves() {
        let rec =
            parse_psq("Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,7,3120\r\npbrain-a.zip\r\n-1\r\n")
                .unwrap();
        assert_eq!(rec.size, 15);
        assert_eq!(rec.moves, [Move::at(7 * 15 + 7), Move::at(6 * 15 + 8)]);
        assert_eq!(rec.think_ms, [0, 3120]);
    }

    #[test]
    fn bad_psq_names_the_line() {
        assert!(parse_psq("").is_err());
        assert!(
            parse_psq("Piskvorky 15x16, 1:1, 0")
                .unwrap_err()
                .contains("square")
        );
        let e = parse_psq("Piskvorky 15x15, 1:1, 0\n8,8,0\n16,1,0").unwrap_err();
        assert!(e.contains("line 3") && e.contains("off"), "{e}");
        let e = parse_psq("Piskvorky 15x15, 1:1, 0\n8,8,0\n8,8,0").unwrap_err();
        assert!(e.contains("occupied"), "{e}");
        assert!(parse_psq("Piskvorky 3x3, 1:1, 0").is_err());
    }
}
