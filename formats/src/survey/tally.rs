//! The values one field took, counted exactly up to a cap, then summarised.
//!
//! A tally keeps the `cap` smallest distinct values with their exact counts, and the others as
//! a range with a count. Which values are kept follows from the values alone, not from the
//! order they came in: two runs over the same files in any order, or two tallies merged, give
//! the same tally. (A value among the `cap` smallest overall is never pushed out, so its count
//! is exact; every value pushed out is larger than every value kept.)

use super::value::{exact_keys, order_key, thousands, Value};
use crate::rt::Scalar;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// The values beyond the kept ones: how many, and their range.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Rest {
    /// How many values.
    pub count: u64,
    /// The smallest.
    pub min: Value,
    /// The largest.
    pub max: Value,
}

impl Rest {
    fn add(&mut self, v: Value, n: u64) {
        self.count += n;
        if v < self.min {
            self.min = v;
        } else if v > self.max {
            self.max = v;
        }
    }

    /// [`Rest::add`] for a value a visitor showed (copied only when it becomes an end).
    fn add_scalar(&mut self, s: Scalar<'_>) {
        self.count += 1;
        if self.min.cmp_scalar(&s) == Ordering::Greater {
            self.min = Value::of(s);
        } else if self.max.cmp_scalar(&s) == Ordering::Less {
            self.max = Value::of(s);
        }
    }

    fn merge(a: Option<Rest>, b: Option<Rest>) -> Option<Rest> {
        match (a, b) {
            (Some(mut a), Some(b)) => {
                a.count += b.count;
                a.min = a.min.min(b.min);
                a.max = a.max.max(b.max);
                Some(a)
            }
            (a, b) => a.or(b),
        }
    }
}

/// The values of one field.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// The kept values, sorted, with their counts (a sorted vector: at most `cap` entries,
    /// searched far more often than changed).
    kept: Vec<(Value, u64)>,
    rest: Option<Rest>,
    /// Where the last value was found (a field often holds the same value again).
    hint: usize,
    /// The kept values' order keys ([`Value::order_key`]), when they are all of one kind
    /// (most fields): a dense copy of their order, searched instead of `kept`.
    keys: Keys,
}

/// See [`Tally::keys`].
#[derive(Debug, Clone, Default)]
struct Keys {
    /// The kind of every kept value, if they are all of one.
    kind: Option<u8>,
    keys: Vec<u64>,
}

impl PartialEq for Tally {
    fn eq(&self, o: &Self) -> bool {
        self.kept == o.kept && self.rest == o.rest
    }
}

impl Eq for Tally {}

/// A tally as JSON shows it: the kept values in order, then the rest.
#[derive(serde::Serialize, serde::Deserialize)]
struct TallyForm {
    values: Vec<Counted>,
    rest: Option<Rest>,
}

/// One value and how often it was seen.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counted {
    /// The value.
    pub value: Value,
    /// How often.
    pub count: u64,
}

impl serde::Serialize for Tally {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        TallyForm {
            values: self
                .kept
                .iter()
                .map(|(v, n)| Counted {
                    value: v.clone(),
                    count: *n,
                })
                .collect(),
            rest: self.rest.clone(),
        }
        .serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for Tally {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let f = TallyForm::deserialize(d)?;
        let mut map = BTreeMap::new();
        for c in f.values {
            *map.entry(c.value).or_insert(0) += c.count;
        }
        let kept: Vec<(Value, u64)> = map.into_iter().collect();
        if let (Some(r), Some((last, _))) = (&f.rest, kept.last()) {
            if r.min <= *last {
                return Err(serde::de::Error::custom(
                    "a tally whose rest overlaps its kept values",
                ));
            }
        }
        let mut t = Tally {
            kept,
            rest: f.rest,
            hint: 0,
            keys: Keys::default(),
        };
        t.rekey();
        Ok(t)
    }
}

impl Tally {
    /// Counts one value, keeping at most `cap` distinct values exactly.
    #[inline]
    pub fn add(&mut self, v: Value, cap: usize) {
        self.add_n(v, 1, cap);
    }

    /// Counts the value a visitor showed; it is copied only when it is kept.
    #[inline]
    pub fn add_scalar(&mut self, s: Scalar<'_>, cap: usize) {
        let (kind, key) = order_key(&s);
        if Some(kind) == self.keys.kind {
            let keys = &self.keys.keys;
            // The value found last time, again; one beyond every kept value; a value kept,
            // found in the dense keys; or one to keep.
            let at = if keys.get(self.hint) == Some(&key) {
                Ok(self.hint)
            } else if self.rest.is_some() && keys.last().is_some_and(|l| key > *l) {
                return self.add_rest(s);
            } else {
                keys.binary_search(&key)
            };
            // (The slower ways out of line, so that counting a kept number stays short.)
            return match at {
                Ok(i) if exact_keys(kind) => {
                    self.kept[i].1 += 1;
                    self.hint = i;
                }
                Ok(i) => self.add_shared(i, s, cap),
                Err(i) => self.keep(i, s, key, cap),
            };
        }
        self.add_scalar_searched(s, cap);
    }

    /// Counts the value `s`, a byte string or text whose order key is that of the kept value
    /// at `i`: that value, if it is the same.
    #[inline(never)]
    fn add_shared(&mut self, i: usize, s: Scalar<'_>, cap: usize) {
        match self.kept.get_mut(i) {
            Some((v, n)) if v.is(&s) => {
                *n += 1;
                self.hint = i;
            }
            _ => self.add_scalar_searched(s, cap),
        }
    }

    /// Keeps the value `s` of order key `key` at `i`, where it belongs among the kept values
    /// (of its kind).
    #[inline(never)]
    fn keep(&mut self, i: usize, s: Scalar<'_>, key: u64, cap: usize) {
        self.kept.insert(i, (Value::of(s), 1));
        self.keys.keys.insert(i, key);
        self.hint = i;
        self.trim(cap);
        self.keys.keys.truncate(self.kept.len());
    }

    /// Counts a value larger than every kept one into the rest.
    #[inline(never)]
    fn add_rest(&mut self, s: Scalar<'_>) {
        if let Some(r) = &mut self.rest {
            r.add_scalar(s);
        }
    }

    /// [`Tally::add_scalar`] for a value of another kind than the kept ones, or that the
    /// dense keys do not tell apart.
    #[inline(never)]
    fn add_scalar_searched(&mut self, s: Scalar<'_>, cap: usize) {
        if let Some((k, n)) = self.kept.get_mut(self.hint) {
            if k.cmp_scalar(&s) == Ordering::Equal {
                *n += 1;
                return;
            }
        }
        if self.rest.is_some()
            && self
                .kept
                .last()
                .is_none_or(|(k, _)| k.cmp_scalar(&s) == Ordering::Less)
        {
            self.add_rest(s);
            return;
        }
        match self.kept.binary_search_by(|(k, _)| k.cmp_scalar(&s)) {
            Ok(i) => {
                self.kept[i].1 += 1;
                self.hint = i;
            }
            Err(i) => {
                self.kept.insert(i, (Value::of(s), 1));
                self.hint = i;
                self.trim(cap);
                self.rekey();
            }
        }
    }

    /// Makes [`Tally::keys`] follow the kept values again.
    fn rekey(&mut self) {
        let k = &mut self.keys;
        k.keys.clear();
        k.kind = None;
        let Some(kind) = self.kept.first().map(|(v, _)| v.order_key().0) else {
            return;
        };
        for (v, _) in &self.kept {
            match v.order_key() {
                (x, key) if x == kind => k.keys.push(key),
                _ => {
                    k.keys.clear();
                    return;
                }
            }
        }
        k.kind = Some(kind);
    }

    fn add_n(&mut self, v: Value, n: u64, cap: usize) {
        if let Some(r) = &mut self.rest {
            // Everything pushed out is larger than everything kept.
            if self.kept.last().is_none_or(|(k, _)| v > *k) {
                r.add(v, n);
                return;
            }
        }
        if self.put(v, n) {
            self.trim(cap);
            self.rekey();
        }
    }

    /// Counts `v` among the kept values; whether it is new there.
    fn put(&mut self, v: Value, n: u64) -> bool {
        match self.kept.binary_search_by(|(k, _)| k.cmp(&v)) {
            Ok(i) => {
                self.kept[i].1 += n;
                false
            }
            Err(i) => {
                self.kept.insert(i, (v, n));
                true
            }
        }
    }

    /// Pushes the largest kept values out until at most `cap` are kept.
    fn trim(&mut self, cap: usize) {
        while self.kept.len() > cap {
            let Some((v, n)) = self.kept.pop() else {
                break;
            };
            match &mut self.rest {
                Some(r) => r.add(v, n),
                None => {
                    self.rest = Some(Rest {
                        count: n,
                        min: v.clone(),
                        max: v,
                    })
                }
            }
        }
    }

    /// Adds another tally of the same field (the result is the tally of both runs' values).
    pub fn merge(&mut self, other: Tally, cap: usize) {
        for (v, n) in other.kept {
            self.put(v, n);
        }
        self.rest = Rest::merge(self.rest.take(), other.rest);
        self.trim(cap);
        // A value kept by one side may be larger than the other side's rest: the merged
        // tally pushes those out too, so that the rest stays above everything kept.
        // (Adding a value above the rest's least leaves that least as it is.)
        if let Some(r) = &mut self.rest {
            while self.kept.last().is_some_and(|(k, _)| *k > r.min) {
                let (v, n) = self.kept.pop().expect("checked above");
                r.add(v, n);
            }
        }
        self.rekey();
    }

    /// How many values were counted.
    pub fn count(&self) -> u64 {
        self.kept.iter().map(|k| k.1).sum::<u64>() + self.rest.as_ref().map_or(0, |r| r.count)
    }

    /// The values counted exactly, smallest first.
    pub fn kept(&self) -> impl Iterator<Item = (&Value, u64)> {
        self.kept.iter().map(|(v, n)| (v, *n))
    }

    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty() && self.rest.is_none()
    }

    /// The values beyond the kept ones.
    pub fn rest(&self) -> Option<&Rest> {
        self.rest.as_ref()
    }

    /// The one value every count was of, if there was exactly one.
    pub fn constant(&self) -> Option<&Value> {
        match (self.kept.len(), &self.rest) {
            (1, None) => self.kept.first().map(|k| &k.0),
            _ => None,
        }
    }

    /// The tally in the documents' style: the most common values with their counts, then the
    /// others as a range: `0 on 15,928; 1 to 5 on 221`. `top` values are named at most.
    pub fn describe(&self, top: usize) -> String {
        if self.count() == 0 {
            return "none".into();
        }
        let mut by_count: Vec<(&Value, u64)> = self.kept().collect();
        by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let named = &by_count[..top.min(by_count.len())];
        let mut parts: Vec<String> = vec![];
        // A few values named, in order of how common they are...
        let mut i = 0;
        while i < named.len() {
            parts.push(format!("{} on {}", named[i].0, thousands(named[i].1)));
            i += 1;
        }
        // ...and the others (kept but not named, and the rest) as one range.
        let mut others: Vec<(&Value, u64)> = by_count[named.len()..].to_vec();
        others.sort_by(|a, b| a.0.cmp(b.0));
        let mut n: u64 = others.iter().map(|o| o.1).sum();
        let mut lo = others.first().map(|o| o.0.clone());
        let mut hi = others.last().map(|o| o.0.clone());
        let mut distinct = others.len().to_string();
        if let Some(r) = &self.rest {
            n += r.count;
            lo = Some(lo.map_or(r.min.clone(), |l| l.min(r.min.clone())));
            hi = Some(hi.map_or(r.max.clone(), |h| h.max(r.max.clone())));
            distinct = format!("{} or more", others.len() + 1 + usize::from(r.min != r.max));
        }
        if let (Some(lo), Some(hi)) = (lo, hi) {
            let what = if lo == hi {
                lo.to_string()
            } else {
                format!("{lo} to {hi} ({distinct} values)")
            };
            let other = if parts.is_empty() {
                ""
            } else {
                "other values "
            };
            parts.push(format!("{other}{what} on {}", thousands(n)));
        }
        parts.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(vals: &[u64], cap: usize) -> Tally {
        let mut t = Tally::default();
        for v in vals {
            t.add(Value::U(*v), cap);
        }
        t
    }

    #[test]
    fn exact_up_to_the_cap_then_a_range() {
        let t = tally(&[0, 0, 0, 5, 1, 1], 8);
        assert_eq!(t.count(), 6);
        assert!(t.rest().is_none());
        assert_eq!(t.describe(1), "0 on 3; other values 1 to 5 (2 values) on 3");
        assert_eq!(t.describe(3), "0 on 3; 1 on 2; 5 on 1");
        let t = tally(&[9, 0, 7, 0, 3, 8, 0, 1], 2);
        assert_eq!(
            t.kept().collect::<Vec<_>>(),
            [(&Value::U(0), 3), (&Value::U(1), 1)]
        );
        let r = t.rest().unwrap();
        assert_eq!((r.count, &r.min, &r.max), (4, &Value::U(3), &Value::U(9)));
        assert_eq!(
            t.describe(1),
            "0 on 3; other values 1 to 9 (3 or more values) on 5"
        );
        assert_eq!(tally(&[4; 7], 2).constant(), Some(&Value::U(4)));
        assert_eq!(tally(&[4, 5], 1).constant(), None);
    }

    #[test]
    fn scalars_count_as_their_values() {
        let vals: Vec<u64> = (0..300).map(|i| (i * 7919) % 53).collect();
        for cap in [1, 5, 64] {
            let mut t = Tally::default();
            for v in &vals {
                t.add_scalar(Scalar::U(*v), cap);
            }
            assert_eq!(t, tally(&vals, cap), "cap {cap}");
        }
    }

    /// The dense keys count as values do: numbers (signed, floats by their bits: -0 before 0,
    /// NaNs apart), byte strings (told apart whole where their first bytes are the same), and
    /// a field whose values are of several kinds.
    #[test]
    fn dense_keys_count_as_values_do() {
        let floats = [
            0.0,
            -0.0,
            1.5,
            -1.5,
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e-300,
            -1e300,
        ];
        let short: [&[u8]; 8] = [
            &[1, 2, 3],
            &[0, 0, 0],
            &[255; 3],
            &[0],
            &[0, 0],
            &[255; 8],
            &[255; 9],
            &[255, 255, 255, 255, 255, 255, 255, 255, 0],
        ];
        let mut scalars: Vec<Scalar<'_>> = vec![];
        for i in 0..400u64 {
            scalars.push(Scalar::F(floats[(i * 7) as usize % floats.len()]));
            scalars.push(Scalar::I((i as i64 * 7919) % 41 - 20));
            scalars.push(Scalar::Bytes(short[(i * 3) as usize % short.len()]));
            if i % 7 == 0 {
                scalars.push(Scalar::Bool(i % 2 == 0));
                scalars.push(Scalar::Str(["", "a", "ab"][i as usize % 3]));
            }
            if i % 50 == 0 {
                scalars.push(Scalar::U(i));
                scalars.push(Scalar::Bytes(&[1, 2, 3, 4, 5, 6, 7, 8, 9]));
            }
        }
        // Floats; byte strings of one length; of several, whose first bytes are the same in
        // some (the keys tie); then several kinds (no keys, unless the kept values are of
        // one kind).
        let picks: [&dyn Fn(&Scalar<'_>) -> bool; 4] = [
            &|s| matches!(s, Scalar::F(_)),
            &|s| matches!(s, Scalar::Bytes(b) if b.len() == 3),
            &|s| matches!(s, Scalar::Bytes(_)),
            &|_| true,
        ];
        for cap in [1, 3, 12, 64] {
            for (k, only) in picks.iter().enumerate() {
                let mut fast = Tally::default();
                let mut slow = Tally::default();
                for (i, s) in scalars.iter().filter(|s| only(s)).enumerate() {
                    fast.add_scalar(*s, cap);
                    slow.add(Value::of(*s), cap);
                    // (A value counted without a scalar keeps the keys right.)
                    if i % 97 == 0 {
                        fast.add(Value::Absent, cap);
                        slow.add(Value::Absent, cap);
                    }
                }
                assert_eq!(fast, slow, "cap {cap}, pick {k}");
                let (a, b) = scalars.split_at(scalars.len() / 3);
                let mut left = Tally::default();
                let mut right = Tally::default();
                a.iter()
                    .filter(|s| only(s))
                    .for_each(|s| left.add_scalar(*s, cap));
                b.iter()
                    .filter(|s| only(s))
                    .for_each(|s| right.add_scalar(*s, cap));
                left.merge(right, cap);
                let mut all = Tally::default();
                scalars
                    .iter()
                    .filter(|s| only(s))
                    .for_each(|s| all.add(Value::of(*s), cap));
                assert_eq!(left, all, "cap {cap}, pick {k}, merged");
            }
        }
    }

    #[test]
    fn order_does_not_matter_and_merging_equals_one_run() {
        let vals: Vec<u64> = (0..200).map(|i| (i * 7919) % 37).collect();
        let one = tally(&vals, 5);
        let mut rev = vals.clone();
        rev.reverse();
        assert_eq!(tally(&rev, 5), one);
        for split in [0, 1, 50, 199] {
            let mut a = tally(&vals[..split], 5);
            a.merge(tally(&vals[split..], 5), 5);
            assert_eq!(a, one, "split at {split}");
        }
        // A side that never overflowed, merged with one that did.
        let mut a = tally(&[1, 10], 2);
        a.merge(tally(&[0, 2, 3, 4], 2), 2);
        assert_eq!(a, tally(&[1, 10, 0, 2, 3, 4], 2));
    }

    #[test]
    fn tallies_survive_json() {
        let t = tally(&[9, 0, 7, 0, 3], 2);
        let j = serde_json::to_string(&t).unwrap();
        assert_eq!(
            j,
            r#"{"values":[{"value":{"u":0},"count":2},{"value":{"u":3},"count":1}],"rest":{"count":2,"min":{"u":7},"max":{"u":9}}}"#
        );
        assert_eq!(serde_json::from_str::<Tally>(&j).unwrap(), t);
    }
}
