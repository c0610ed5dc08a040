//! The help overlay (`?`): what every panel shows, in a few lines each, and every key.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

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
            "index's slots held other positions; false matches = another position accepted",
            "because its check bits agreed (fewer check bits, more of these). Stores: fill (empty",
            "slot), update (same position), replace (evicts another, listed below with the",
            "reason), reject (the strategy kept the old entry). hit rate over time; ┃ marks a",
            "strategy switch. hashfull = share of slots used this search.",
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
            "variation, time; one line per depth reached.",
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
            "a TT, in the background (table fills live; Esc cancels), and nodes with and without",
            "a TT by depth (seed 001). Collision lab (TT panel): false matches counted exactly",
            "beside the number expected by chance: probes × 4 slots × fill / 2^check bits (:bits N).",
            "b book: the engine plays replies from the named Othello openings (Search: source book).",
        ],
    ),
    (
        "Keys",
        &[
            "←↑↓→ or hjkl move the cursor · Enter/Space or a click plays · u undo to your turn ·",
            "r redo · n new game · g other game · s/S next/previous strategy · t hint · e engine",
            "moves now (while it thinks) or takes over the side to move · p pause the engine ·",
            "b opening book on/off · x step through the last move · c compare strategies ·",
            "L lesson · ? this help · q, Esc or Ctrl-C quit. In the lesson and the step-through",
            "←/→ or space step and Esc returns; in the comparison Esc cancels, then closes.",
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

/// Draw the overlay centred in `area`, scrolled by `scroll` lines.
pub fn render(area: Rect, buf: &mut Buffer, theme: &Theme, scroll: u16) {
    let width = area.width.saturating_sub(4).min(94);
    let mut lines = Vec::new();
    for (heading, text) in SECTIONS {
        lines.push(Line::from(Span::styled(*heading, theme.title)));
        for t in *text {
            lines.push(Line::from(Span::styled(*t, theme.info)));
        }
        lines.push(Line::default());
    }
    lines.push(Line::from(Span::styled(
        "Commands (type : first)",
        theme.title,
    )));
    lines.push(Line::from(Span::styled(COMMANDS, theme.info)));
    let height = (lines.len() as u16 + 4).min(area.height.saturating_sub(2));
    let popup = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    let inner = theme.overlay(
        popup,
        buf,
        " Help · j/k scroll · any other key closes ".to_string(),
        theme.title,
    );
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .scroll((scroll, 0))
        .render(inner, buf);
}
