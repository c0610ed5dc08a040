//! The TT panel: the transposition table's traffic, live.
//!
//! Title: strategy, size, check bits (and how often the strategy was switched). Body: probes,
//! hits, misses, index clashes, false matches and the hit rate; stores split into fills, updates,
//! replacements and rejections; a hit-rate sparkline over time where a `┃` marks each strategy
//! switch; the hashfull gauge; the latest replacement events (victim → newcomer, reason).
//!
//! The collision lab line sets the false matches counted (exactly: the table keeps the full key)
//! beside the number expected by chance: every probe compares the key's check bits with the
//! entries of its bucket — [`SLOTS`] slots, of which the table's current fill holds an entry — and
//! each comparison with another position agrees on `N` random bits with probability `2^-N`. So
//! each probe expects [`expected_per_probe`] false matches, summed over the probes as they come
//! (the fill grows during a game, and the check bits may change): probes × 4 slots × fill / 2^N.
//!
//! [`TtView`] is the panel's model. The engine's counters are cumulative, so the sparkline is
//! built from differences between snapshots taken at least [`SAMPLE_EVERY`] apart; a counter
//! going down means the table was cleared or replaced, and sampling starts again from zero.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::format;
use super::theme::Theme;
use crate::search::DEPTH_EXACT;
use crate::tt::{AGE_WEIGHT, Policy, ReplacementEvent, SLOT_BYTES, SLOTS, TtStats};

/// False matches one probe expects by chance: the entries it compares (`SLOTS` × the share of
/// slots holding an entry) over `2^check_bits`.
pub fn expected_per_probe(check_bits: u32, fill: f64) -> f64 {
    SLOTS as f64 * fill.clamp(0.0, 1.0) / 2f64.powi(check_bits as i32)
}

/// An expected count as text: `≈ 0` below one in a thousand, else three figures.
pub fn expected_text(e: f64) -> String {
    if e <= 0.0 {
        "0".to_string()
    } else if e < 0.001 {
        format!("≈ 0 ({e:.0e})")
    } else if e < 10.0 {
        format!("≈ {e:.2}")
    } else if e < 1000.0 {
        format!("≈ {e:.0}")
    } else {
        format!("≈ {}", format::count(e.round() as u64))
    }
}

/// An entry's depth as text: `d7`, or `exact, 18 empties` for an endgame result searched to the
/// end.
pub fn depth_text(depth: u8) -> String {
    if depth >= DEPTH_EXACT {
        match depth - DEPTH_EXACT {
            1 => "exact, 1 empty".to_string(),
            n => format!("exact, {n} empties"),
        }
    } else {
        format!("d{depth}")
    }
}

/// A subtree size class as an approximate node count (`≈1.3k nodes`).
pub fn size_text(class: u8) -> String {
    if class < 4 {
        return "≈0 nodes".to_string();
    }
    let bits = (class / 4) as u32;
    let frac = (class % 4) as u64;
    let nodes = if bits >= 3 {
        (4 + frac) << (bits - 3)
    } else {
        1u64 << (bits - 1)
    };
    format!("≈{}\u{a0}nodes", format::count(nodes))
}

/// What the strategy compared to evict this entry, in words.
pub fn compared_text(e: &ReplacementEvent) -> String {
    let (vd, nd) = (depth_text(e.victim_depth), depth_text(e.new_depth));
    if e.reason == "false match" {
        return "false match: the check bits agreed, the keys differ".into();
    }
    // whether the newcomer beat the pair's first entry (and demoted it) or took the second slot
    let demoted = e.reason != "always slot";
    match (e.policy, e.compared) {
        (Policy::Always, _) => "always: the newcomer takes the slot".into(),
        (Policy::Depth, _) => format!("depth: newcomer {nd} ≥ old {vd}"),
        (Policy::TwoTier, Some((_, cd, _, _))) if !demoted => format!(
            "two-tier: newcomer {nd} shallower than the kept {}, so it takes the always slot",
            depth_text(cd)
        ),
        (Policy::Big, Some((_, _, cs, _))) if !demoted => format!(
            "big: newcomer's subtree {} smaller than the kept {}, so it takes the second slot",
            size_text(e.new_size),
            size_text(cs)
        ),
        (Policy::TwoTier, Some((_, cd, _, _))) => format!(
            "two-tier: newcomer {nd} ≥ kept {}, which moved to the second slot over this one",
            depth_text(cd)
        ),
        (Policy::TwoTier, None) => {
            "two-tier: newcomer shallower than the kept entry, so it takes the always slot".into()
        }
        (Policy::Big, Some((_, _, cs, _))) => format!(
            "big: newcomer's subtree {} ≥ kept {}, which moved to the second slot over this one",
            size_text(e.new_size),
            size_text(cs)
        ),
        (Policy::Big, None) => format!(
            "big: newcomer's subtree {} smaller than the kept entry's, so it takes the second slot",
            size_text(e.new_size)
        ),
        (Policy::Aging, _) => {
            let gap = e.new_age.wrapping_sub(e.victim_age) & 63;
            format!(
                "aging: lowest depth − {AGE_WEIGHT}×age in the bucket: {vd}, {} old",
                format::plural(gap as u64, "search", "searches")
            )
        }
    }
}

/// The sparkline's time step.
pub const SAMPLE_EVERY: Duration = Duration::from_millis(200);
/// Samples kept (more than the widest sparkline).
const MAX_SAMPLES: usize = 512;
const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// One bar of the sparkline.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Sample {
    /// Hit rate over the interval, in permille.
    Rate(u16),
    /// The strategy was switched here.
    Switch,
}

/// The most recent strategy switch.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Switch {
    pub from: Policy,
    pub to: Policy,
    pub mid_search: bool,
}

/// The TT panel's model.
#[derive(Clone, Debug)]
pub struct TtView {
    pub policy: Policy,
    pub mib: usize,
    pub check_bits: u32,
    /// The latest snapshot of the counters.
    pub stats: TtStats,
    pub samples: VecDeque<Sample>,
    /// Switches made from this screen.
    pub switches: u32,
    pub last_switch: Option<Switch>,
    /// False matches expected by chance so far (see the module docs).
    pub expected_false: f64,
    /// Probes already counted into `expected_false`.
    expected_probes: u64,
    base_probes: u64,
    base_hits: u64,
    last_sample: Option<Instant>,
}

impl TtView {
    pub fn new(policy: Policy, mib: usize, check_bits: u32) -> TtView {
        TtView {
            policy,
            mib,
            check_bits,
            stats: TtStats::default(),
            samples: VecDeque::new(),
            switches: 0,
            last_switch: None,
            expected_false: 0.0,
            expected_probes: 0,
            base_probes: 0,
            base_hits: 0,
            last_sample: None,
        }
    }

    /// The table was cleared: forget the counters and the sparkline.
    pub fn reset(&mut self) {
        *self = TtView {
            switches: self.switches,
            last_switch: self.last_switch,
            ..TtView::new(self.policy, self.mib, self.check_bits)
        };
    }

    /// A new table of `mib` MiB replaced the old one.
    pub fn resize(&mut self, mib: usize) {
        self.mib = mib;
        self.reset();
    }

    /// The strategy changed (the sparkline gets a mark).
    pub fn switch(&mut self, from: Policy, to: Policy, mid_search: bool) {
        self.policy = to;
        self.switches += 1;
        self.last_switch = Some(Switch {
            from,
            to,
            mid_search,
        });
        self.push(Sample::Switch);
    }

    /// Slots in the table.
    pub fn entries(&self) -> usize {
        (self.mib << 20) / SLOT_BYTES
    }

    /// The share of slots holding an entry: every fill took an empty slot, and only a clear
    /// empties them (which zeroes the counters too).
    pub fn fill(&self) -> f64 {
        (self.stats.fills as f64 / self.entries().max(1) as f64).min(1.0)
    }

    /// Take in a snapshot; `force` samples the hit rate now (a search just finished).
    pub fn absorb(&mut self, stats: &TtStats, now: Instant, force: bool) {
        if stats.probes < self.base_probes || stats.hits < self.base_hits {
            self.base_probes = 0;
            self.base_hits = 0;
        }
        if stats.probes < self.expected_probes {
            self.expected_probes = 0;
            self.expected_false = 0.0;
        }
        self.stats = stats.clone();
        // The probes since the last snapshot met the table about as full as it is now.
        let new = stats.probes - self.expected_probes;
        self.expected_false += new as f64 * expected_per_probe(self.check_bits, self.fill());
        self.expected_probes = stats.probes;
        let due = force
            || self
                .last_sample
                .is_none_or(|t| now.duration_since(t) >= SAMPLE_EVERY);
        let probes = stats.probes - self.base_probes;
        if due && probes > 0 {
            let hits = stats.hits - self.base_hits;
            self.push(Sample::Rate((hits * 1000 / probes).min(1000) as u16));
            self.base_probes = stats.probes;
            self.base_hits = stats.hits;
            self.last_sample = Some(now);
        }
    }

    fn push(&mut self, s: Sample) {
        if self.samples.len() == MAX_SAMPLES {
            self.samples.pop_front();
        }
        self.samples.push_back(s);
    }

    fn title(&self) -> String {
        let mut t = format!(
            " TT · {} · {} MiB · {} check bits ",
            self.policy.name(),
            self.mib,
            self.check_bits
        );
        if self.switches > 0 {
            t.push_str(&format!("· ⇄ {} ", self.switches));
        }
        t
    }
}

/// Draw the TT panel.
pub fn render(view: &TtView, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let block = theme.panel_fit(view.title(), theme.title, area.width);
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.width == 0 || inner.height == 0 {
        return;
    }
    let s = &view.stats;
    let l = |t: &str| Span::styled(t.to_string(), theme.label);
    let v = |t: String| Span::styled(t, theme.value);
    // A label and its figure never part at a line break (a no-break space joins them).
    let nb = |t: &str| t.replace(' ', "\u{a0}");
    let lv = |label: &str, value: String| {
        vec![
            l(&nb(label)),
            Span::styled("\u{a0}".to_string(), theme.label),
            v(value),
        ]
    };
    let sep = || Span::styled("  ", theme.label);
    let join = |parts: Vec<Vec<Span<'static>>>| {
        let mut spans = Vec::new();
        for (i, p) in parts.into_iter().enumerate() {
            if i > 0 {
                spans.push(sep());
            }
            spans.extend(p);
        }
        Line::from(spans)
    };
    let mut false_part = lv("false matches", format::count(s.false_matches));
    if s.false_matches > 0 {
        false_part[2].style = theme.bad;
    }
    let mut second = vec![
        lv("usable", format::count(s.usable_hits)),
        lv("clashes", format::count(s.clashes)),
        false_part,
    ];
    if s.torn > 0 {
        second.push(lv("torn", format::count(s.torn)));
    }
    let mut lines = vec![
        join(vec![
            lv("probes", format::count(s.probes)),
            lv(
                "hits",
                format!(
                    "{} ({})",
                    format::count(s.hits),
                    format::percent(s.hits, s.probes)
                )
                .replace(' ', "\u{a0}"),
            ),
            lv("misses", format::count(s.misses)),
        ]),
        join(second),
        join(vec![
            vec![l("stores:")],
            lv("new slot", format::count(s.fills)),
            lv("same position", format::count(s.updates)),
            lv("replaced", format::count(s.replacements)),
            lv("kept old", format::count(s.rejected)),
        ]),
        Line::from(vec![
            l("collision lab: "),
            v(format!("{} false", format::count(s.false_matches))),
            l(" vs "),
            v(format!("{} expected", expected_text(view.expected_false))),
            Span::styled(
                format!(
                    " = probes × {SLOTS} slots × hashfull ÷\u{a0}2^{}",
                    view.check_bits
                ),
                theme.dim,
            ),
        ]),
    ];
    lines = super::scroll::wrap(lines, inner.width);
    // Sparkline: as many of the latest samples as fit after the label.
    let label = "hit rate ";
    let room = (inner.width as usize).saturating_sub(label.len());
    let skip = view.samples.len().saturating_sub(room);
    let mut spark = vec![l(label)];
    if view.samples.is_empty() {
        spark.push(Span::styled("(no probes yet)", theme.dim));
    }
    for sample in view.samples.iter().skip(skip) {
        spark.push(match *sample {
            Sample::Rate(pm) => Span::styled(
                BARS[(pm as usize * BARS.len() / 1001).min(BARS.len() - 1)].to_string(),
                theme.spark,
            ),
            Sample::Switch => Span::styled("┃", theme.spark_switched),
        });
    }
    lines.push(Line::from(spark));
    // Hashfull gauge: the occupied share, the figure the collision lab uses.
    let pct = format!(" {:.1}%", view.fill() * 100.0);
    let label = "hashfull ";
    let bar = (inner.width as usize)
        .saturating_sub(label.len() + pct.len())
        .min(40);
    let filled = ((view.fill() * bar as f64).round() as usize).min(bar);
    lines.push(Line::from(vec![
        l(label),
        Span::styled("█".repeat(filled), theme.gauge),
        Span::styled("░".repeat(bar - filled), theme.dim),
        v(pct),
    ]));
    if let Some(sw) = view.last_switch {
        lines.push(Line::from(vec![
            Span::styled("┃ ", theme.spark_switched),
            l("switched "),
            v(format!("{} → {}", sw.from.name(), sw.to.name())),
            l(if sw.mid_search {
                " mid-search"
            } else {
                " between searches"
            }),
        ]));
        lines.extend(super::scroll::wrap(
            vec![Line::from(Span::styled(
                format!("  {}: {}", sw.to.name(), sw.to.describe()),
                theme.dim,
            ))],
            inner.width,
        ));
    }
    if !s.events.is_empty() {
        let wide = inner.width >= 72;
        let mut log = vec![Line::from(l(
            "replaced (bucket: out → in, what the strategy compared)",
        ))];
        for e in &s.events {
            let key = |k: u64| {
                if wide {
                    format!("{k:016X}")
                } else {
                    format!("{:08X}…", k >> 32)
                }
            };
            log.push(Line::from(vec![
                Span::styled("↺\u{a0}", theme.spark_switched),
                Span::styled(format!("#{:05X} ", e.bucket), theme.dim),
                Span::styled(
                    format!("{}\u{a0}{}", key(e.victim_key), depth_text(e.victim_depth)),
                    theme.info,
                ),
                l(" → "),
                Span::styled(
                    format!("{}\u{a0}{}", key(e.new_key), depth_text(e.new_depth)),
                    theme.value,
                ),
                Span::styled(format!(" · {}", compared_text(e)), theme.label),
            ]));
        }
        lines.extend(super::scroll::wrap(log, inner.width));
    }
    Paragraph::new(super::scroll::clip_all(lines, inner.width)).render(inner, buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::exact_entry_depth;

    #[test]
    fn depths_read_as_plies_or_as_an_exact_endgame() {
        assert_eq!(depth_text(7), "d7");
        assert_eq!(depth_text(exact_entry_depth(18)), "exact, 18 empties");
        assert_eq!(depth_text(exact_entry_depth(1)), "exact, 1 empty");
        // an exact result outranks every searched depth, and a bigger endgame outranks a smaller
        assert!(exact_entry_depth(0) > crate::search::MAX_PLY as u8);
        assert!(exact_entry_depth(20) > exact_entry_depth(12));
    }
}
