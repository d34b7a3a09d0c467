//! Work split into numbered blocks, done on several threads and taken in block order: what a
//! resumable search needs so that its state is always "everything before block N".

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The blocks finished out of order and the state they extend in order.
struct Ledger<A, R> {
    state: A,
    next: u64,
    waiting: BTreeMap<u64, R>,
}

/// How work is split: `blocks` blocks on `threads` threads (at least one), until done or
/// `stop` is set.
pub(crate) struct Split<'s> {
    pub(crate) blocks: u64,
    pub(crate) threads: usize,
    pub(crate) stop: &'s AtomicBool,
}

/// Does the blocks of `split` and folds their results into
/// `state` in block order: `work(worker, block)` computes a block with a thread's own `worker`
/// (made by `new_worker`), or returns `None` if it saw `stop` before finishing it, `apply` adds a result to the state, and `grown` sees the state each
/// time it grew (from the thread that grew it: keep it short, or throttle it). Setting `stop`
/// ends the work early; the state then holds every block before the first unfinished one, and
/// nothing after it.
pub(crate) fn in_block_order<A: Send, W, R: Send>(
    state: A,
    split: Split<'_>,
    new_worker: impl Fn() -> W + Sync,
    work: impl Fn(&mut W, u64) -> Option<R> + Sync,
    apply: impl Fn(&mut A, R) + Sync,
    grown: impl Fn(&mut A) + Sync,
) -> A {
    let Split {
        blocks,
        threads,
        stop,
    } = split;
    let next_block = AtomicU64::new(0);
    let ledger = Mutex::new(Ledger {
        state,
        next: 0,
        waiting: BTreeMap::new(),
    });
    let thread = || {
        let mut worker = new_worker();
        while !stop.load(Ordering::Relaxed) {
            let block = next_block.fetch_add(1, Ordering::Relaxed);
            if block >= blocks {
                break;
            }
            // An abandoned block (stopped part way) is never applied, nor anything after it.
            let Some(result) = work(&mut worker, block) else {
                break;
            };
            let mut ledger = ledger
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            ledger.waiting.insert(block, result);
            let mut grew = false;
            loop {
                let next = ledger.next;
                let Some(ready) = ledger.waiting.remove(&next) else {
                    break;
                };
                apply(&mut ledger.state, ready);
                ledger.next += 1;
                grew = true;
            }
            if grew {
                grown(&mut ledger.state);
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.max(1) {
            scope.spawn(thread);
        }
        thread();
    });
    ledger
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .state
}
