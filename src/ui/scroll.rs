//! Text that fits: lines wrapped at word boundaries (never inside a word or a number), text
//! elided at a word boundary, and a scrolling view for the overlays (help, lesson, step,
//! compare) that stays inside its rectangle and says when there is more above or below.

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyCode;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};
use textwrap::{Options, WordSeparator, WordSplitter, WrapAlgorithm};
use unicode_width::UnicodeWidthStr;

use super::theme::Theme;

/// Wrap every line to `width` columns at spaces, keeping each span's style. A word longer
/// than the width is cut only then (a hex key on a very narrow screen). No-break spaces
/// (`\u{a0}`) hold a label to its figure; they are drawn as plain spaces.
pub fn wrap(lines: Vec<Line<'static>>, width: u16) -> Vec<Line<'static>> {
    wrap_keeping(lines, width)
        .into_iter()
        .map(plain_spaces)
        .collect()
}

fn wrap_keeping(lines: Vec<Line<'static>>, width: u16) -> Vec<Line<'static>> {
    let width = width.max(1) as usize;
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        if line.width() <= width {
            out.push(line);
            continue;
        }
        // The line's text, and which style covers which bytes of it.
        let mut text = String::new();
        let mut styles: Vec<(usize, Style)> = Vec::new();
        for span in &line.spans {
            styles.push((text.len(), line.style.patch(span.style)));
            text.push_str(&span.content);
        }
        let indent: String = text.chars().take_while(|c| *c == ' ').collect();
        let opts = Options::new(width)
            .word_separator(WordSeparator::AsciiSpace)
            .wrap_algorithm(WrapAlgorithm::FirstFit)
            .word_splitter(WordSplitter::NoHyphenation)
            .subsequent_indent(&indent)
            .break_words(true);
        for piece in textwrap::wrap(&text, opts) {
            let s: &str = &piece;
            // Pieces borrow from `text` except for the indent added to continuation lines.
            let body = s.strip_prefix(indent.as_str()).unwrap_or(s);
            let start = offset_in(&text, body);
            let mut spans = Vec::new();
            if body.len() != s.len() {
                spans.push(Span::raw(indent.clone()));
            }
            match start {
                Some(start) => {
                    let end = start + body.len();
                    for (k, &(from, style)) in styles.iter().enumerate() {
                        let to = styles.get(k + 1).map_or(text.len(), |n| n.0);
                        let (a, b) = (from.max(start), to.min(end));
                        if a < b {
                            spans.push(Span::styled(text[a..b].to_string(), style));
                        }
                    }
                }
                None => spans.push(Span::styled(
                    body.to_string(),
                    styles.first().map_or(Style::new(), |s| s.1),
                )),
            }
            out.push(Line::from(spans));
        }
    }
    out
}

/// Byte offset of `part` inside `whole`, when `part` is a slice of it.
fn offset_in(whole: &str, part: &str) -> Option<usize> {
    let (w, p) = (whole.as_ptr() as usize, part.as_ptr() as usize);
    (p >= w && p + part.len() <= w + whole.len()).then(|| p - w)
}

/// `text` shortened to `width` columns at a word boundary (ending in `…`), whole when it fits.
/// Words are separated by spaces; a separator ` · ` is dropped with the word after it.
pub fn elide(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let mut cut = String::new();
    for (i, _) in text.match_indices(' ') {
        let head = text[..i].trim_end_matches([' ', '·']).trim_end();
        if head.width() < width {
            cut = head.to_string();
        } else {
            break;
        }
    }
    if cut.is_empty() {
        // One long word: cut it (only on screens narrower than a word).
        let mut s = String::new();
        for c in text.chars() {
            if s.width() + 2 > width {
                break;
            }
            s.push(c);
        }
        cut = s;
    }
    cut.push('…');
    cut
}

/// A line cut to `width` columns at a word boundary, ending in `…` (see [`elide`]), its spans'
/// styles kept: for the panels' fixed-format lines, which must not wrap.
pub fn clip(line: Line<'static>, width: u16) -> Line<'static> {
    plain_spaces(clip_keeping(line, width))
}

/// No-break spaces drawn as plain ones.
fn plain_spaces(mut l: Line<'static>) -> Line<'static> {
    for span in &mut l.spans {
        if span.content.contains('\u{a0}') {
            span.content = span.content.replace('\u{a0}', " ").into();
        }
    }
    l
}

fn clip_keeping(line: Line<'static>, width: u16) -> Line<'static> {
    let width = width as usize;
    if line.width() <= width {
        return line;
    }
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    let short = elide(&text, width);
    let keep = short.strip_suffix('…').unwrap_or(&short).len();
    let mut spans = Vec::new();
    let mut at = 0;
    for span in &line.spans {
        let len = span.content.len();
        if at >= keep {
            break;
        }
        let take = (keep - at).min(len);
        // `keep` is a char boundary of the whole text, so of this span's part too.
        spans.push(Span::styled(
            span.content[..take].to_string(),
            line.style.patch(span.style),
        ));
        at += len;
    }
    spans.push(Span::raw("…"));
    Line::from(spans)
}

/// [`clip`] every line.
pub fn clip_all(lines: Vec<Line<'static>>, width: u16) -> Vec<Line<'static>> {
    lines.into_iter().map(|l| clip(l, width)).collect()
}

/// Draw `lines` (already wrapped to `area`'s width) scrolled by `scroll` lines, clamped; marks
/// `↑ more` / `↓ more` at the right, on the rows just above and below, when lines are hidden.
/// Returns the largest useful scroll offset.
pub fn render(
    lines: &[Line<'static>],
    area: Rect,
    buf: &mut Buffer,
    scroll: u16,
    theme: &Theme,
) -> u16 {
    if area.height == 0 || area.width == 0 {
        return 0;
    }
    let max = (lines.len() as u16).saturating_sub(area.height);
    let top = scroll.min(max);
    let shown: Vec<Line> = lines
        .iter()
        .skip(top as usize)
        .take(area.height as usize)
        .cloned()
        .collect();
    Paragraph::new(shown).render(area, buf);
    let mark = |buf: &mut Buffer, y: u16, text: &str| {
        let w = text.width() as u16;
        if area.width > w {
            buf.set_string(area.right() - w, y, text, theme.keys);
        }
    };
    // The marks sit on the rows around the text (an overlay's frame, or its keys line), so
    // they never hide a word; without such rows, on the text's own first and last rows.
    let bounds = *buf.area();
    let up = if area.y > bounds.y {
        area.y - 1
    } else {
        area.y
    };
    let down = if area.bottom() < bounds.bottom() {
        area.bottom()
    } else {
        area.bottom() - 1
    };
    if top > 0 {
        mark(buf, up, " ↑ more ");
    }
    if top < max {
        mark(buf, down, " ↓ more ");
    }
    max
}

/// The lines a scrolling key moves an overlay by: ↑/k and ↓/j one, PgUp/PgDn ten (`None`
/// for any other key).
pub fn key_lines(code: KeyCode) -> Option<i32> {
    match code {
        KeyCode::Down | KeyCode::Char('j') => Some(1),
        KeyCode::Up | KeyCode::Char('k') => Some(-1),
        KeyCode::PageDown => Some(10),
        KeyCode::PageUp => Some(-10),
        _ => None,
    }
}

/// The offset `from` moved by `by` lines: down at most to `max`, up at most to 0.
pub fn moved(from: u16, by: i32, max: u16) -> u16 {
    let n = by.unsigned_abs().min(u16::MAX as u32) as u16;
    if by < 0 {
        from.saturating_sub(n)
    } else {
        from.saturating_add(n).min(max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn wraps_at_spaces_and_keeps_styles() {
        let bold = Style::new().add_modifier(ratatui::style::Modifier::BOLD);
        let line = Line::from(vec![
            Span::styled("probes 1.92M ", bold),
            Span::raw("hits 41.3% misses 1.13M"),
        ]);
        let out = wrap(vec![line], 16);
        assert_eq!(texts(&out), ["probes 1.92M", "hits 41.3%", "misses 1.13M"]);
        assert_eq!(out[0].spans[0].style, bold);
    }

    #[test]
    fn continuation_lines_keep_the_indent() {
        let out = wrap(vec![Line::raw("  one two three four")], 10);
        assert_eq!(texts(&out), ["  one two", "  three", "  four"]);
    }

    #[test]
    fn clips_at_word_boundaries_keeping_styles() {
        let bold = Style::new().add_modifier(ratatui::style::Modifier::BOLD);
        let line = Line::from(vec![
            Span::styled("fill 1.11M ", bold),
            Span::raw("update 485k replace 58.6k"),
        ]);
        let out = clip(line, 24);
        assert_eq!(out.to_string(), "fill 1.11M update 485k…");
        assert_eq!(out.spans[0].style, bold);
        assert_eq!(clip(Line::raw("short"), 24).to_string(), "short");
    }

    #[test]
    fn elides_at_word_boundaries() {
        assert_eq!(elide("? help · q quit", 40), "? help · q quit");
        assert_eq!(elide("engine thinks about it", 12), "engine…");
        assert_eq!(elide("a · b · c", 6), "a · b…");
        assert_eq!(elide("0x9F3A41C207BDE5A8", 6), "0x9F3…");
    }
}
