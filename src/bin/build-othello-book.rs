//! Build the Othello book (`assets/othello-book.txt`, read by `xorboard::book::OthelloBook`): the
//! engine's own deep searches of its first move after each XOT opening, with either colour, and
//! of its second move after the replies it expects (the list given again, one move on).
//!
//! ```sh
//! # first moves, by the current recipe (searched before the static gate: 250,5,off); about 2.6
//! # hours with two jobs
//! cargo run --release --bin build-othello-book -- --probcut 250,5,off --reply-depths 8,14 \
//!     --jobs 2 --out first.txt
//! # (built in three parts, one session's time each at most: --limit 4400, then --skip 4400
//! # --limit 3200, then --skip 7600; a part's lines are those the whole run gives there)
//! # second moves: every first-move line with its reply played, as openings (24,518 of them);
//! # about 8 hours of one core, built in parts of 2,500 (--skip K*2500 --limit 2500)
//! grep -v '^#' first.txt | awk '{print $1 $3}' > second-openings.txt
//! cargo run --release --bin build-othello-book -- --openings second-openings.txt \
//!     --probcut 250,5,off --reply-depths 8,14 --jobs 2 --out second.txt
//! # the shipped file: its header, the first-move lines, then the second-move lines whose
//! # transcript is not already in it
//! grep -hv '^#' first.txt second.txt | awk '!seen[$1]++'
//! ```
//!
//! For every opening of the XOT list (`assets/xot.txt`, or `--openings FILE` with one
//! transcript a line; `--skip` and `--limit` choose a part of it):
//! - the position after the opening (the engine to move, as black) gets one search to
//!   `--opening-depth` plies (default 16) with Multi-ProbCut at `--probcut` (default `250,5`,
//!   the engine's confidence at a fixed depth, with its static gate; the shipped book was
//!   searched before the gate, `250,5,off`): its best move and score are the book reply;
//! - where the opponent moves first, the replies it is expected to play there are the book move
//!   just found and the engine's choices at the shallower `--reply-depths` (8 and 14 in the
//!   shipped book; the distinct ones, read from the opening's search as it passes them); the
//!   position after each gets a search to `--depth` plies (default 16).
//!
//! The second move is where the deep search pays: at depth 12 against NTest (the twelve fresh
//! 40-game sets of `protocol::nboard::FIXED_DEPTH_PROBCUT`, a throwaway switch searching the
//! first moves to depth 18 at `250,5`), deeper replies to the opponent's first move and deeper
//! first moves together scored 51.1% (215-204-61) where the engine scores 47.8%; deeper first
//! moves alone 47.7% (200-222-58).
//!
//! The first book (session 58: `--depth 20 --probcut 100,5`, 24,543 positions: 10,784 openings
//! and 13,759 positions after the expected replies) took 48 minutes with `--jobs 2`. Its expected
//! replies are NTest's own first move at depth 12 in 824 of 892 XOT openings (92%). Both at depth
//! 12 against NTest, on the twelve fresh sets above: 49.6% (212-216-52) at 2.82 times NTest's
//! think time; on twelve sets that chose nothing (seeds 193, 197, 199, 211, 223, 227, 229, 233,
//! 239, 241, 251, 257) 44.9% (183-232-65) at 2.89 times, where `--no-book` scored 45.0%
//! (187-235-58) at 2.99 times. Set by set, the book scores 0.8 points more (one standard error
//! 0.7): the first-move searches were worth less than the throwaway switch's depth-18 searches
//! of every first move suggested. At equal time (NTest at depth 16 against `nboard --move-ms
//! 64`, the six 40-game sets of `protocol::nboard::BUDGET_SHARES`, two matches side by side):
//! 32.7% (61-144-35) with the book, 30.6% (57-150-33) with `--no-book`, thinking 343 s and 348 s
//! against NTest's 328 s and 317 s. Small gains, both within their noise, both the same way.
//!
//! Session 59, sounder searches: books of the 240 openings of those last twelve sets alone
//! (`--openings` them; the same recipe gives the same lines for an opening in any list), both at
//! depth 12 against NTest on those sets. Both engines are deterministic there: the first book,
//! played again, scored 44.9% (183-232-65) game for game as before, so a difference is the
//! changed book moves' alone.
//! - `--opening-depth 18 --depth 18 --probcut 250,5` (3.0 s a position, 555 positions; 68 of
//!   the 530 positions both books have get another move): 47.0% (194-223-63) at 2.58 times
//!   NTest's think time, set by set 2.1 points above the first book (one standard error 1.5);
//! - `--opening-depth 16 --depth 16 --probcut 250,5` (0.75 s a position, 545 positions): 46.4%
//!   (190-225-65) at 2.60 times, 1.5 points above it (one standard error 1.2).
//!
//! Pruning less (`250,5` against `100,5`), not searching deeper, is what the two recipes share,
//! and with the throwaway switch above the third measurement the same way. The second is now the
//! default. A whole book of it is about 2.6 hours with two jobs, more than a session leaves beside
//! other work, so it was built in three parts (sessions 59 and 60: 59, 42 and 66 minutes with two
//! jobs, the last beside other runs); a part's lines are exactly those the whole run gives for its
//! openings (the builder is deterministic, and the lines come in the list's order). On the twelve
//! sets above, with the first part alone new (102 of their 240 openings): 45.5% (186-229-65) at
//! 2.55 times NTest's think time, 0.6 points above the first book (one standard error 1.0), about
//! the part's share of the 1.5. With the whole book: 46.4% (190-225-65) at 2.58 times, game for
//! game what the book of those openings alone scored. At equal time (NTest at depth 16 against
//! `nboard --move-ms 116`, NTest's own time a move on this session's machine, where 64 left
//! xorboard half NTest's time; the six sets of `protocol::nboard::BUDGET_SHARES`): 36.9%
//! (75-138-27), 620 s against NTest's 639 s.
//!
//! Session 60, one move deeper (a measurement, not kept): the 545 positions of the 240
//! openings' book lines, each with its book reply played, given to this builder as openings
//! (`--openings`, the default recipe; 1,278 positions, 19 minutes of one core), so the book
//! also answers the engine's second move after the replies it expects. On the same twelve sets:
//! 47.6% (196-219-65) at 2.39 times NTest's think time, set by set 1.2 points above the
//! one-move book's 46.4% (one standard error 1.8: within its noise). For every XOT opening it
//! would take about 14 hours of one core: not worth it on this evidence.
//!
//! Session 64, the same again on twelve sets that chose nothing (seeds 337, 349, 359, 373, 383,
//! 397, 409, 421, 433, 443, 457, 463; their 238 openings' 550 book lines, each with its reply, as
//! `--openings`, the default recipe: 1,315 lines in 5.5 minutes with two jobs): 49.2% (204-212-64)
//! at 2.49 times NTest's think time, where the one-move book scores 48.2% (201-218-61); set by set
//! +0.9 (one standard error 1.1). Two measurements, each about one standard error up. On this
//! machine the whole list (every book line with its reply, 24,518 openings:
//! `grep -v '^#' assets/othello-book.txt | awk '{print $1 $3}'`) is about 8 hours of one core,
//! a session's parts away.
//!
//! Session 65, the second move shipped: the same on the twelve other fresh sets (seeds 347, 353,
//! 367, 379, 389, 401, 419, 431, 439, 449, 461, 467; 542 book lines, 1,278 second-move lines)
//! scored 44.9% (186-235-59) where the one-move book scores 41.7% (170-250-60): set by set +3.3
//! (one standard error 2.0). On all 24 sets 47.0% (390-447-123) against 44.9% (370-468-122), +2.1
//! (1.1), three measurements the same way. So the whole list is being built in parts of 2,500 of
//! its 24,518 openings (one job each, about 40 minutes a part here; the same lines whatever
//! `--jobs` is, checked on the 320 lines these parts share with the sets' books), and the shipped
//! file held the parts built so far, in the order its header names: seven of ten.
//! With those seven parts, on the same 24 sets: 46.8% (389-451-120) at 2.40 times NTest's think
//! time, +1.9 (1.0) over the one-move book, what full coverage of the sets' openings gave; at
//! equal time (NTest at depth 16 against `nboard --move-ms 68`, the six sets of seeds 337, 347,
//! 349, 353, 359, 367; 58 ms a move against NTest's 56) 37.1% (71-133-36), where the one-move book
//! scored 33.1% (64-145-31) in session 64 (one standard error of a 240-game score is about 3).
//!
//! Session 66, the whole list: parts 4 to 6 built (6 as two halves of 1,250, `--skip 15000
//! --limit 1250` and `--skip 16250 --limit 1250`; two jobs side by side, about 40 minutes a part),
//! so the book answers the second move after every expected reply: 62,369 lines, none of the seven
//! parts' lines changed. On 24 sets that chose nothing (seeds 479-631, the primes; two matches
//! side by side, nothing else running): 47.5% (402-450-108) at 2.60 times NTest's think time,
//! where the one-move book scores 46.4% (383-452-125) at 2.66 times: set by set +1.1 (one
//! standard error 1.0), the fourth measurement the same way. On the 24 sets above 47.2%
//! (392-445-123): the games of their own openings' book but for one set (seed 367, 5 points more;
//! a position reached by two transcripts keeps the first line's reply). At equal time on the six
//! sets above: `--move-ms 68` 42.1% (82-120-38), but NTest thought 49 ms a move on the quiet
//! machine against our 57; `--move-ms 58`, 50 ms a move against NTest's 49, 35.6% (67-136-37).
//!
//! Also session 66, the third move begun: every second-move line with its reply played (37,851
//! openings, `awk '{print $1 $3}'` of the lines after the file's "Second moves" header), the same
//! recipe, in parts of 2,500 (about 48 minutes a part, two side by side). Parts 0 and 1 (the
//! first 5,000, which hold the first XOT openings' lines) are shipped after the second moves:
//! 70,827 lines. Not measured yet: of the 48 sets above, seed 479's plays some games otherwise
//! (58.8%, 61.3% without them), seed 487's the same games; too few to tell. Sessions 67 and 68
//! built on, each step appended after the earlier lines (none of them changed) and checked by the
//! third-move test; a half is `--limit 1250`, a quarter `--limit 625` (25 and 12-15 minutes each,
//! two side by side). "Six plies from" is the book's own line from the first N XOT openings
//! (and from how many of the 10,784 in all):
//!
//! | parts added | lines after | built | new | six plies from |
//! |---|---|---|---|---|
//! | 2, 3 | 79,255 | 12,038 | 8,428 | the first 2,850 (3,487) |
//! | 4, 5 | 87,652 | 12,057 | 8,397 | the first 4,276 (5,016) |
//! | 6 (two halves) | 91,918 | 6,074 | 4,266 | the first 4,979 (5,700) |
//! | 7, first half (two quarters) | 94,034 | 3,028 | 2,116 | the first 5,331 (6,051) |
//! | 7, second half (two quarters) | 96,179 | 3,044 | 2,145 | the first 5,694 (6,412) |
//! | 8, 9 | 104,669 | 12,101 | 8,490 | the first 7,099 (7,765) |
//! | 10, 11 | 113,064 | 12,038 | 8,395 | the first 8,533 (9,016) |
//! | 12, first half (two quarters) | 115,148 | 2,977 | 2,084 | the first 8,892 (9,321) |
//! | 12, second half (two quarters) | 117,257 | 3,017 | 2,109 | the first 9,247 (9,606) |
//! | 13, 14 (its first 1,150; session 77) | 124,329 | 10,037 | 7,072 | the first 10,443 (10,540) |
//! | 14 (the rest), 15 (`--skip 36650 --limit 600`, `--skip 37250`; session 78) | 126,411 | 2,908 | 2,064 | all but one (10,783) |
//!
//! Measured on the 48 depth-12 sets (both at depth 12, quiet machine, two matches side by side).
//! With parts 0-6: 48.4% (806-869-245), 47.3% with the second-move book; seeds 479-631 48.9%
//! (414-435-111) at 2.61x NTest's think time, +1.4 set by set (SE 0.8); seeds 337-467 47.8%
//! (392-434-134) at 2.68x, +0.6 (SE 0.7). With parts 0 to 12's first half: 48.3% (806-873-241)
//! at 2.52x (1,063 s against 421 s); seeds 479-631 48.6% (411-437-112), -0.3 set by set against
//! parts 0-6 (SE 0.4); seeds 337-467 47.9% (395-436-129), +0.1 (SE 0.5). Parts 7 to 12's first
//! half move the score by less than one standard error; the time ratio is within the machine's
//! noise. Part 12's second half was built after the measurement.
//!
//! Session 73, the whole book (parts 0-12) on one 160-game set (`--shuffle --seed 347`, both at
//! depth 12, deterministic): 52.2% (72-65-23, -0.7 discs a game) at 1.99 times NTest's think time
//! (179 s against 90 s), where `--no-book` scored 45.9% (63-76-21, -2.3 discs) at 2.22 times on
//! the same openings. On the twelve 40-game sets of seeds 337-401 the book engine scored 46.6%
//! (session 72), so a set of 80 openings moves the score by more than the book does on average.
//!
//! Session 78, the whole third-move book (every XOT opening's own lines six plies deep but one),
//! both at depth 12 on the 24 sets of seeds 2001-2024 (two matches side by side, the engine of
//! commit 0cfd195 otherwise): 50.05% (423-422-115, -1.5 discs a game) at 2.56 times NTest's think
//! time (766 s against 299 s; 13 of the 24 sets at 50% or more), where the book of the first
//! 36,650 third-move openings scored 49.7% (419-424-117) at 2.31 times on those sets in session
//! 77: set by set +0.3 (one standard error 0.24). The time ratios of the two days differ by more
//! than the book can explain (NTest itself thought 299 s against 391 s): the machine's noise.
//!
//! Every search is single-threaded with a fresh table of `--hash` MiB, so the same arguments give
//! the same file whatever `--jobs` is. Lines are `<transcript> -> <reply> <score>`, the score in
//! discs for the side to move.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::Parser;
use xorboard::book::{othello_after, transcripts, xot_openings};
use xorboard::commands::tools::{BuildOptions, map_in_parallel, write_output};
use xorboard::game::notation::othello_move_name;
use xorboard::game::othello::Othello;
use xorboard::game::{Game, Move};
use xorboard::search::{Limits, ProbCutSpec, Searcher};
use xorboard::tt::{Policy, Table};
use xorboard::zobrist::Keys;

/// Build the Othello book from the engine's own searches.
#[derive(Parser, Debug)]
#[command(name = "build-othello-book")]
struct Args {
    /// Openings, one transcript a line (`#` comments, text after `;` ignored); default the XOT
    /// list compiled into the engine.
    #[arg(long)]
    openings: Option<String>,
    /// Depth of the searches after the opponent's expected first moves.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    /// Depth of the search of the position after the opening.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=60))]
    opening_depth: u32,
    /// Multi-ProbCut of the book searches: `off` or BASE,PER_DEPTH[,GATE|off] (the shipped
    /// book: `250,5,off`, before the static gate).
    #[arg(long, default_value = "250,5")]
    probcut: ProbCutSpec,
    /// Shallower depths whose choices where the opponent moves first are followed too.
    #[arg(long, value_delimiter = ',')]
    reply_depths: Vec<u32>,
    /// Leave out the first N openings (with `--limit`, a book built in parts).
    #[arg(long, default_value_t = 0)]
    skip: usize,
    /// Only the first N openings (after `--skip`): a quick look at the recipe, or one part.
    #[arg(long)]
    limit: Option<usize>,
    #[command(flatten)]
    build: BuildOptions,
}

fn main() {
    let args = Args::parse();
    let keys = Keys::default_keys();
    let text = match &args.openings {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(t) => Some(t),
            Err(e) => fail(format!("cannot read {path}: {e}")),
        },
        None => None,
    };
    let lines: Vec<&str> = match &text {
        Some(t) => transcripts(t),
        None => xot_openings(),
    };
    if let Some(d) = args.reply_depths.iter().find(|&&d| d >= args.opening_depth) {
        fail(format!(
            "--reply-depths {d}: must be shallower than --opening-depth {}",
            args.opening_depth
        ));
    }
    let mut openings = Vec::new();
    for (n, line) in lines
        .iter()
        .enumerate()
        .skip(args.skip)
        .take(args.limit.unwrap_or(usize::MAX))
    {
        match othello_after(line, keys) {
            Ok(g) => openings.push((line.to_string(), g)),
            Err(e) => fail(format!("opening {}: {e}", n + 1)),
        }
    }
    if openings.is_empty() {
        fail(format!(
            "no openings to build: --skip {}{} selects none of the {} openings",
            args.skip,
            args.limit
                .map_or(String::new(), |n| format!(" --limit {n}")),
            lines.len()
        ));
    }
    let done = map_in_parallel(&openings, args.build.jobs, |i, (transcript, game)| {
        let lines = book_lines(&args, transcript, game);
        if (i + 1).is_multiple_of(100) {
            eprintln!("{} of {} openings", i + 1, openings.len());
        }
        lines
    });
    let spec = match args.probcut.0 {
        Some(c) => c.to_string(),
        None => "off".into(),
    };
    let depths: Vec<String> = args.reply_depths.iter().map(u32::to_string).collect();
    let mut part = String::new();
    if args.skip > 0 {
        part.push_str(&format!(" --skip {}", args.skip));
    }
    if let Some(n) = args.limit {
        part.push_str(&format!(" --limit {n}"));
    }
    let mut text = format!(
        "# The Othello book: built by `build-othello-book{part} --opening-depth {} --depth {} \
         --probcut {spec}{}`.\n\
         # <transcript> -> <the engine's reply> <its score in discs for the side to move>.\n",
        args.opening_depth,
        args.depth,
        if depths.is_empty() {
            String::new()
        } else {
            format!(" --reply-depths {}", depths.join(","))
        }
    );
    for line in done.into_iter().flatten() {
        text.push_str(&line);
        text.push('\n');
    }
    if let Err(e) = write_output(args.build.out.as_deref(), &text) {
        fail(e);
    }
}

fn fail(msg: String) -> ! {
    eprintln!("error: {msg}");
    std::process::exit(2);
}

/// The book lines of one opening: the engine's reply to it, then its reply after each move
/// the opponent is expected to play there.
fn book_lines(args: &Args, transcript: &str, game: &Othello) -> Vec<String> {
    let mut lines = Vec::new();
    let Some((best, score, shallower)) = search(args, game, args.opening_depth, &args.reply_depths)
    else {
        return lines;
    };
    lines.push(format!("{transcript} -> {} {}", name(best), discs(score)));
    let mut expected = vec![best];
    for mv in shallower {
        if !expected.contains(&mv) {
            expected.push(mv);
        }
    }
    for mv in expected {
        let mut after = game.clone();
        after.play(mv);
        if let Some((reply, score, _)) = search(args, &after, args.depth, &[]) {
            lines.push(format!(
                "{transcript}{} -> {} {}",
                name(mv),
                name(reply),
                discs(score)
            ));
        }
    }
    lines
}

/// The engine's move in `game` and its score (centi-discs) at `depth`, one thread, a fresh
/// table, with its choices after the iterations of `shallower` depths on the way (what searches
/// to those depths alone would choose: the same iterations on the same fresh table); `None`
/// where the side to move must pass or the game is over.
fn search(
    args: &Args,
    game: &Othello,
    depth: u32,
    shallower: &[u32],
) -> Option<(Move, i32, Vec<Move>)> {
    let table = Arc::new(Table::new(args.build.hash, Policy::TwoTier, 64));
    let mut searcher: Searcher<Othello> = Searcher::new(table);
    searcher.set_probcut(args.probcut.0);
    let mut choices: Vec<Option<Move>> = vec![None; shallower.len()];
    let result = searcher.search(
        game,
        &Limits::depth(depth),
        &AtomicBool::new(false),
        // A snapshot whose move comes from its last completed iteration.
        &mut |s| {
            if s.best_depth == s.depth
                && let Some(i) = shallower.iter().position(|&d| d == s.depth)
            {
                choices[i] = s.best;
            }
        },
    );
    let playable = |m: &Move| game.is_legal(*m) && !m.is_pass();
    let best = result.best.filter(playable)?;
    let choices = choices.into_iter().flatten().filter(playable).collect();
    Some((best, result.raw_score, choices))
}

fn name(mv: Move) -> String {
    othello_move_name(mv)
}

fn discs(centi: i32) -> String {
    format!("{:.2}", centi as f64 / 100.0)
}
