//! Search options are values every thread of a search gets: a Lazy SMP helper searches with the
//! same options as the main thread (they once lived in a thread-local that only the main thread
//! had set, so with `--threads 2` the helpers searched another engine).

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::thread::ThreadId;

use xorboard::game::gomoku::{Gomoku, Rule};
use xorboard::game::notation::split_gomoku_list;
use xorboard::search::gomoku::GomokuBoard;
use xorboard::search::{Board, Limits, SearchOptions, Searcher, ThreatParts};
use xorboard::tt::{Policy, Table};
use xorboard::zobrist::Keys;

#[test]
fn a_helper_thread_searches_with_the_same_options_as_the_main_thread() {
    let mut g = Gomoku::new(15, Rule::Freestyle, Keys::default_keys());
    xorboard::game::play_line(&mut g, &split_gomoku_list("h8,h9,i9,g7,j10")).unwrap();
    // Every switch away from its default, so a helper left with defaults would show.
    let options = SearchOptions {
        count_stats: false,
        symmetry: true,
        exact: true,
        threats: ThreatParts {
            root: false,
            leaf: true,
            defence: false,
            quiescence: false,
        },
        probcut: None,
        win_loss_draw: true,
        early_result_plies: 2,
    };
    let seen: Arc<Mutex<Vec<(ThreadId, ThreatParts, bool)>>> = Arc::default();
    let mut s: Searcher<Gomoku> = Searcher::new(Arc::new(Table::new(4, Policy::Aging, 64)));
    s.set_options(options);
    s.set_threads(2);
    let record = seen.clone();
    s.set_board_setup(Some(Arc::new(move |b: &mut GomokuBoard| {
        let symmetric = b.symmetry().is_some();
        record
            .lock()
            .unwrap()
            .push((std::thread::current().id(), b.threat_parts(), symmetric));
    })));
    let r = s.search(&g, &Limits::depth(4), &AtomicBool::new(false), &mut |_| {});
    assert!(r.best.is_some());
    let seen = seen.lock().unwrap();
    let main = std::thread::current().id();
    assert!(
        seen.iter().any(|(t, ..)| *t == main),
        "the main thread searched"
    );
    assert!(seen.iter().any(|(t, ..)| *t != main), "a helper searched");
    for (_, parts, symmetric) in seen.iter() {
        assert_eq!(*parts, options.threats);
        assert!(*symmetric);
    }
    assert_eq!(s.options(), options);
}
