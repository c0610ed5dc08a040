//! The Zobrist panel: the position's 64-bit hash in hex, the check that the incrementally kept
//! hash equals a full recompute, and the 64 bits as a grid (four rows of sixteen, each row beside
//! its four hex digits) with the bits the last move flipped lit. During the step-through (`x`)
//! it shows the intermediate hash after each XOR term instead, with the bits that term flips lit.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::format;
use super::theme::Theme;

/// What the Zobrist panel shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashView {
    /// The incrementally kept hash.
    pub hash: u64,
    /// The hash computed from scratch.
    pub recomputed: u64,
    /// The bits the last move changed (`before ^ after`), 0 at the start.
    pub flipped: u64,
    /// What the last move was, e.g. `● f5`.
    pub last: Option<String>,
    /// The step-through's current step, when it is on (then `hash` is the intermediate value
    /// and `flipped` the bits of the term just applied).
    pub step: Option<StepCaption>,
}

/// The step-through's line in the Zobrist panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepCaption {
    /// What the current step XORed in, in words.
    pub text: String,
    /// Not the last step yet: the hash shown is a value on the way.
    pub intermediate: bool,
}

/// Draw the Zobrist panel.
pub fn render(view: &HashView, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let block = theme.panel_fit(" Zobrist hash ".to_string(), theme.title, area.width);
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.width == 0 || inner.height == 0 {
        return;
    }
    let mut lines = Vec::new();
    let check = if view.step.as_ref().is_some_and(|s| s.intermediate) {
        Span::styled("  … on the way (step-through)", theme.busy)
    } else if view.hash == view.recomputed {
        // 21 columns of hash, then the longest wording that fits.
        let room = (inner.width as usize).saturating_sub(21);
        let text = [
            "  ✓ equals full recompute",
            "  ✓ = full recompute",
            "  ✓ = recompute",
        ]
        .into_iter()
        .find(|t| t.chars().count() <= room)
        .unwrap_or("  ✓");
        Span::styled(text, theme.good)
    } else {
        Span::styled(
            format!("  ✗ full recompute gives {}", format::hex(view.recomputed)),
            theme.bad,
        )
    };
    lines.push(Line::from(vec![
        Span::styled(format::hex_grouped(view.hash), theme.value),
        check,
    ]));
    // Spread the bits out when there is room: "1 0 0 1  1 1 1 1 …" instead of "1001 1111 …".
    let spaced = inner.width >= 48;
    for row in 0..4u32 {
        let top = 63 - row * 16;
        let mut spans = vec![Span::styled(format!("{top:>2} "), theme.dim)];
        for i in 0..16u32 {
            let bit = top - i;
            let mask = 1u64 << bit;
            let (ch, style) = match (view.hash & mask != 0, view.flipped & mask != 0) {
                (true, true) => ("1", theme.bit_flipped),
                (false, true) => ("0", theme.bit_flipped),
                (true, false) => ("1", theme.bit_one),
                (false, false) => ("0", theme.bit_zero),
            };
            spans.push(Span::styled(ch, style));
            if i % 4 == 3 && i != 15 {
                spans.push(Span::raw(if spaced { "  " } else { " " }));
            } else if spaced && i != 15 {
                spans.push(Span::raw(" "));
            }
        }
        spans.push(Span::styled(
            format!("  {:04X}", (view.hash >> (48 - row * 16)) & 0xFFFF),
            theme.value,
        ));
        lines.push(Line::from(spans));
    }
    let note = match (&view.step, &view.last) {
        (Some(step), _) => step.text.clone(),
        (None, Some(last)) => format!(
            "{last} flipped {} of 64 bits (lit)",
            view.flipped.count_ones()
        ),
        (None, None) => "the start position: no move yet".to_string(),
    };
    lines.push(Line::from(Span::styled(note, theme.label)));
    Paragraph::new(super::scroll::clip_all(lines, inner.width)).render(inner, buf);
}
