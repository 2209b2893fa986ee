//! Ratios measured in pairs (the measured operation right after its baseline, in every
//! iteration), so that both see the same machine: a shared machine's speed drifts by tens of
//! percent between minutes, and two medians measured apart cannot be compared.

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
