//! The help overlay (`?`): what every panel shows, in a few lines each, and every key.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::command::COMMANDS;
use super::theme::Theme;

/// (heading, lines) of the help text.
pub const SECTIONS: &[(&str, &[&str])] = &[
    (
        "Board",
        &[
            "Your stones and the engine's: ● black moves first, ○ white. Coordinates as in the",
            "game's notation (Othello a1 top-left; Gomoku h8 the centre, rows from the bottom).",
            "+ marks Othello's legal moves, * a hint (t); the last move is highlighted; [ ] is the cursor.",
            "Passes and the end of the game are announced below the board; a won Gomoku",
            "lights the five in a row.",
        ],
    ),
    (
        "Zobrist hash",
        &[
            "Every (cell, colour) has a random 64-bit key, and so does 'white to move'. The hash",
            "of a position is the XOR of the keys of its stones (and the side key). Shown in hex",
            "and as 64 bits; the bits the last move flipped are lit. ✓: the hash kept move by",
            "move equals the one computed from scratch.",
        ],
    ),
    (
        "XOR terms",
        &[
            "What the last moves XORed into the hash: the placed stone's key, one flip key",
            "(K● ⊕ K○) per disc an Othello move turns over, and the side key. XOR is its own",
            "inverse, so undo applies the same terms again.",
        ],
    ),
    (
        "TT (transposition table)",
        &[
            "The engine's memory of positions, indexed by the hash. probes = look-ups; hits =",
            "the position was there; usable = the entry was deep enough to use; clashes = the",
            "bucket's slots held other positions; false matches = another position accepted",
            "because its check bits agreed (fewer check bits, more of these). Every store is one",
            "of: new slot (an empty slot), same position (its entry updated), replaced (another",
            "position evicted) or kept old (the strategy refused the newcomer). hashfull = the",
            "occupied share: slots holding an entry ÷ all slots. The replacement log shows the",
            "bucket, the entry that left and the one that came, with what the strategy compared",
            "(depth d, subtree size s, age a); an endgame result reads 'exact, N empties' (solved to the end from N empty squares).",
            "The bucket number (#4EFB6) is the key's low 32 bits scaled to the number of buckets:",
            "with 2^20 buckets, bits 31 to 12 of the key. hit rate over time; ┃ marks a switch.",
        ],
    ),
    (
        "Strategies (s / S)",
        &[
            "always: the newcomer always wins · depth: keep the deeper search · two-tier: one",
            "depth-preferred + one always-replace slot · big: keep the bigger subtree · aging:",
            "4-way buckets, evict the shallowest oldest. Switching takes effect at once.",
        ],
    ),
    (
        "Search",
        &[
            "Iterative deepening alpha-beta on a background thread: depth/selective depth,",
            "nodes, nodes per second, score (side to move's view), best move, principal",
            "variation, time; one line per depth reached. 'from TT' marks a depth answered",
            "almost entirely from the table (a few nodes: the previous search or a hint stored",
            "it); a PV longer than its depth continues along moves stored in the table.",
            "Othello scores count the empty squares for the winner at the end (as GGF and",
            "NBoard do): 61–2 with one empty square ends 62–2, +60.",
        ],
    ),
    (
        "Teaching lab",
        &[
            "L lesson: seed 000's 2×2 board with its 12 32-bit keys; black on cell 1 gives",
            "0x2FB256EE, then white on cell 4 gives 0x23BB713E, by the full XOR and incrementally.",
            "x step-through: the last move's XOR terms one at a time; the Zobrist panel shows the",
            "hash after each term with the bits that term flips lit.",
            "c compare: this position searched again to one depth under every strategy and without",
            "a TT, by the engine, each on a fresh small table (Othello 16 KiB, Gomoku 4) so the search stores",
            "many times more positions than there are slots (the pressure) and the strategies must",
            "choose; rows against the best (★); :compare DEPTH SIZE for others, [ ] halve or double",
            "the table; xorboard compare prints the same rows. Below: nodes with and without",
            "a TT by depth (seed 001). Collision lab (TT panel): false matches counted exactly",
            "beside the number expected by chance: probes × 4 slots × hashfull ÷ 2^check bits",
            "(:bits N sets the check bits).",
            "b book: the engine's book replies (Othello named and XOT openings, Gomoku Gomocup ones).",
        ],
    ),
    (
        "Keys",
        &[
            "←↑↓→ or hjkl move the cursor · Enter/Space or a click plays · u undo to your turn ·",
            "r redo · n new game · g other game · s/S next/previous strategy · t hint · e engine",
            "moves now (while it thinks) or takes over the side to move · p pause the engine ·",
            "b opening book on/off · x step through the last move · c compare strategies ·",
            "L lesson · Tab next side panel (small screens) · ? this help · q or Ctrl-C quit (Esc",
            "only closes things). In the lesson and the step-through ←/→ or space step and Esc",
            "returns; in the comparison Esc cancels, then closes; ↑↓ scroll every overlay. The",
            "command line keeps its history (↑/↓) and its cursor (←/→, Home/End).",
        ],
    ),
    (
        "Files",
        &[
            ":save FILE and :load FILE: .ggf (Othello GGF), .psq (Gomoku Piskvork), .rif.txt",
            "(Gomoku RIF list), any other name the plain list (Othello transcript, RIF list).",
            "The game is kept after every move; xorboard --resume continues it after a quit or a",
            "crash; xorboard play --load FILE starts from a file.",
        ],
    ),
];

/// The help's lines before wrapping: each section one paragraph under its heading.
fn lines(theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for (heading, text) in SECTIONS {
        lines.push(Line::from(Span::styled(*heading, theme.title)));
        lines.push(Line::from(Span::styled(text.join(" "), theme.info)));
        lines.push(Line::default());
    }
    lines.push(Line::from(Span::styled(
        "Commands (type : first)",
        theme.title,
    )));
    // Each command is kept whole on a line (no-break spaces inside it).
    let commands: Vec<String> = COMMANDS
        .split("  ")
        .map(|c| c.replace(' ', "\u{a0}"))
        .collect();
    lines.push(Line::from(Span::styled(commands.join("  "), theme.info)));
    lines
}

/// Draw the overlay centred in `area` (the whole screen on small terminals), scrolled by
/// `scroll` lines; returns the largest scroll offset.
pub fn render(area: Rect, buf: &mut Buffer, theme: &Theme, scroll: u16) -> u16 {
    if area.width < 10 || area.height < 4 {
        return 0;
    }
    let width = area.width.min(100);
    let text_w = width.saturating_sub(4);
    let lines = super::scroll::wrap(lines(theme), text_w);
    let height = (lines.len() as u16 + 2).min(area.height);
    let popup = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    let title = if lines.len() as u16 + 2 > area.height {
        " Help · ↑↓ PgUp PgDn scroll · any other key closes "
    } else {
        " Help · any key closes "
    };
    let inner = theme.overlay(
        popup,
        buf,
        super::scroll::elide(title, popup.width.saturating_sub(2) as usize),
        theme.title,
    );
    super::scroll::render(&lines, inner, buf, scroll, theme)
}
