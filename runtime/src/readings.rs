//! How many times each layout read an input, for the test that every command reads each input
//! once. Counting is off unless [`count`] turns it on; off, a reading costs one relaxed load.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

static ON: AtomicBool = AtomicBool::new(false);
static COUNTS: Mutex<BTreeMap<&'static str, u64>> = Mutex::new(BTreeMap::new());

/// One reading of an input as layout `id` ([`crate::Root::read`] notes its own; the interpreter
/// notes the readings it makes).
pub fn note(id: &'static str) {
    if ON.load(Ordering::Relaxed) {
        if let Ok(mut c) = COUNTS.lock() {
            *c.entry(id).or_default() += 1;
        }
    }
}

/// Turns counting on from now (the counts start at zero); readings on every thread count.
pub fn start() {
    if let Ok(mut c) = COUNTS.lock() {
        c.clear();
    }
    ON.store(true, Ordering::Relaxed);
}

/// The readings since [`start`], by layout id.
pub fn counted() -> BTreeMap<&'static str, u64> {
    COUNTS.lock().map(|c| c.clone()).unwrap_or_default()
}

/// `f`'s result and the readings it made, by layout id (nothing else may count meanwhile).
pub fn count<R>(f: impl FnOnce() -> R) -> (R, BTreeMap<&'static str, u64>) {
    static ONE: Mutex<()> = Mutex::new(());
    let _one = ONE.lock();
    start();
    let r = f();
    ON.store(false, Ordering::Relaxed);
    (r, counted())
}
