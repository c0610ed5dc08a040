//! Short, fixed-width renderings of the figures the panels show (counts, rates, durations, hex).

/// A count with an SI suffix and three significant digits: `987`, `12.3k`, `1.92M`, `4.10G`.
pub fn count(n: u64) -> String {
    const UNITS: [(u64, &str); 4] = [
        (1_000_000_000_000, "T"),
        (1_000_000_000, "G"),
        (1_000_000, "M"),
        (1_000, "k"),
    ];
    for (scale, unit) in UNITS {
        if n >= scale {
            let v = n as f64 / scale as f64;
            return if v >= 100.0 {
                format!("{v:.0}{unit}")
            } else if v >= 10.0 {
                format!("{v:.1}{unit}")
            } else {
                format!("{v:.2}{unit}")
            };
        }
    }
    n.to_string()
}

/// `part / whole` as a percentage with one decimal, or `–` when `whole` is 0.
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "–".to_string()
    } else {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }
}

/// Milliseconds as `850 ms`, `1.4 s`, `12 s`, `3m05s`.
pub fn millis(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms < 10_000 {
        format!("{:.1} s", ms as f64 / 1000.0)
    } else if ms < 60_000 {
        format!("{} s", ms / 1000)
    } else {
        format!("{}m{:02}s", ms / 60_000, (ms / 1000) % 60)
    }
}

/// A 64-bit value as `0x9F3A_41C2_07BD_E5A8` (groups of four hex digits).
pub fn hex_grouped(v: u64) -> String {
    format!(
        "0x{:04X}_{:04X}_{:04X}_{:04X}",
        v >> 48,
        (v >> 32) & 0xFFFF,
        (v >> 16) & 0xFFFF,
        v & 0xFFFF
    )
}

/// A 64-bit key as plain `0x…` with 16 digits.
pub fn hex(v: u64) -> String {
    crate::zobrist::hex(v)
}

/// `text` cut to `width` characters, ending in `…` when cut.
pub fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else if width == 0 {
        String::new()
    } else {
        let mut s: String = text.chars().take(width - 1).collect();
        s.push('…');
        s
    }
}

/// `1 move`, `2 moves`: a count with the right form of its noun.
pub fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// A count with thousands separators: `16,384`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1_000), "1.00k");
        assert_eq!(count(12_345), "12.3k");
        assert_eq!(count(1_920_000), "1.92M");
        assert_eq!(count(640_000), "640k");
        assert_eq!(count(4_100_000_000), "4.10G");
    }

    #[test]
    fn percents_and_times() {
        assert_eq!(percent(413, 1000), "41.3%");
        assert_eq!(percent(1, 0), "–");
        assert_eq!(millis(850), "850 ms");
        assert_eq!(millis(1400), "1.4 s");
        assert_eq!(millis(12_900), "12 s");
        assert_eq!(millis(185_000), "3m05s");
    }

    #[test]
    fn plurals_and_thousands() {
        assert_eq!(plural(1, "move", "moves"), "1 move");
        assert_eq!(plural(0, "move", "moves"), "0 moves");
        assert_eq!(thousands(16_384), "16,384");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }

    #[test]
    fn hex_groups() {
        assert_eq!(hex_grouped(0x9F3A_41C2_07BD_E5A8), "0x9F3A_41C2_07BD_E5A8");
        assert_eq!(hex_grouped(1), "0x0000_0000_0000_0001");
    }
}
