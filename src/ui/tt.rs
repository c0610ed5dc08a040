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
use crate::tt::{Policy, SLOT_BYTES, SLOTS, TtStats};

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
    let block = theme.panel(view.title(), theme.title);
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.width == 0 || inner.height == 0 {
        return;
    }
    let s = &view.stats;
    let l = |t: &str| Span::styled(t.to_string(), theme.label);
    let v = |t: String| Span::styled(t, theme.value);
    let mut lines = vec![
        Line::from(vec![
            l("probes "),
            v(format::count(s.probes)),
            l("  hits "),
            v(format::count(s.hits)),
            l(" "),
            v(format::percent(s.hits, s.probes)),
            l("  misses "),
            v(format::count(s.misses)),
        ]),
        Line::from({
            let mut spans = vec![
                l("usable "),
                v(format::count(s.usable_hits)),
                l("  clashes "),
                v(format::count(s.clashes)),
                l("  false matches "),
                Span::styled(
                    format::count(s.false_matches),
                    if s.false_matches > 0 {
                        theme.bad
                    } else {
                        theme.value
                    },
                ),
            ];
            if s.torn > 0 {
                spans.push(l("  torn "));
                spans.push(v(format::count(s.torn)));
            }
            spans
        }),
        Line::from(vec![
            l("collision lab: false matches "),
            v(format::count(s.false_matches)),
            l(" vs "),
            v(expected_text(view.expected_false)),
            l(" expected"),
            Span::styled(
                format!(
                    " = Σ probes × {SLOTS} slots × fill ({:.1}% now) / 2^{}",
                    view.fill() * 100.0,
                    view.check_bits
                ),
                theme.dim,
            ),
        ]),
        Line::from(vec![
            l("fill "),
            v(format::count(s.fills)),
            l("  update "),
            v(format::count(s.updates)),
            l("  replace "),
            v(format::count(s.replacements)),
            l("  reject "),
            v(format::count(s.rejected)),
        ]),
    ];
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
    // Hashfull gauge.
    let pct = format!(" {:.1}%", s.hashfull.min(1000) as f64 / 10.0);
    let label = "hashfull ";
    let bar = (inner.width as usize)
        .saturating_sub(label.len() + pct.len())
        .min(40);
    let filled = (s.hashfull.min(1000) as usize * bar + 500) / 1000;
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
        lines.push(Line::from(Span::styled(
            format!("  {}: {}", sw.to.name(), sw.to.describe()),
            theme.dim,
        )));
    }
    if !s.events.is_empty() {
        let wide = inner.width >= 72;
        lines.push(Line::from(l(
            "replaced: bucket  victim (key depth age) → newcomer  why",
        )));
        for e in &s.events {
            let key = |k: u64| {
                if wide {
                    format!("{k:016X}")
                } else {
                    format!("{:08X}…", k >> 32)
                }
            };
            lines.push(Line::from(vec![
                Span::styled("↺ ", theme.spark_switched),
                Span::styled(format!("#{:05X} ", e.bucket), theme.dim),
                Span::styled(
                    format!(
                        "{} d{} a{}",
                        key(e.victim_key),
                        e.victim_depth,
                        e.victim_age
                    ),
                    theme.info,
                ),
                l(" → "),
                Span::styled(
                    format!("{} d{} a{}", key(e.new_key), e.new_depth, e.new_age),
                    theme.value,
                ),
                Span::styled(format!("  {}", e.reason), theme.label),
            ]));
        }
    }
    Paragraph::new(lines).render(inner, buf);
}
