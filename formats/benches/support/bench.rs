//! What the benches share: one-closure benchmarks, and ratios measured in pairs (the measured
//! operation right after its baseline, in every iteration), so that both see the same machine:
//! a shared machine's speed drifts by tens of percent between minutes, and two medians
//! measured apart cannot be compared.

// Each bench uses some of these.
#![allow(dead_code)]

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId};
use std::fmt::Display;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Benchmarks `f` as `function/parameter` in `g`, its result kept from the optimiser.
pub fn time<O>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    function: &str,
    parameter: impl Display,
    mut f: impl FnMut() -> O,
) {
    g.bench_function(BenchmarkId::new(function, parameter), |b| {
        b.iter(|| black_box(f()))
    });
}

/// Benchmarks `measured` as `function/parameter` in `g`, each iteration running `baseline`
/// right before it; the time reported is `measured`'s. Gives each iteration's ratio, measured
/// ÷ baseline (for [`report`]).
pub fn paired<A, B>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    function: &str,
    parameter: impl Display,
    mut baseline: impl FnMut() -> A,
    mut measured: impl FnMut() -> B,
) -> Vec<f64> {
    let mut ratios = vec![];
    g.bench_function(BenchmarkId::new(function, parameter), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let t = Instant::now();
                black_box(baseline());
                let base = t.elapsed();
                let t = Instant::now();
                black_box(measured());
                let d = t.elapsed();
                total += d;
                ratios.push(d.as_secs_f64() / base.as_secs_f64());
            }
            total
        })
    });
    ratios
}

/// Prints the median and quartiles of `ratios` (each measured ÷ baseline) after `label`.
pub fn report(label: &str, ratios: &mut [f64]) {
    ratios.sort_by(f64::total_cmp);
    if ratios.is_empty() {
        return;
    }
    let at = |q: f64| ratios[((ratios.len() - 1) as f64 * q).round() as usize];
    eprintln!(
        "{label}, {} pairs: median {:.2}×, quartiles {:.2}–{:.2}×",
        ratios.len(),
        at(0.5),
        at(0.25),
        at(0.75)
    );
}

/// Benchmarks `f` over every item of `items` as `function/parameter` in `g`, each result kept
/// from the optimiser.
pub fn each<'a, I, O>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    function: &str,
    parameter: impl Display,
    items: &'a [I],
    f: impl Fn(&'a I) -> O,
) {
    time(g, function, parameter, || {
        for i in items {
            black_box(f(i));
        }
    });
}
