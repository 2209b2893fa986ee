//! Edits of a dump: at each place of its `data` (a number, text, a list, an object), values a
//! user could write there by mistake or on purpose. What the tests and the fuzz target build
//! with generated and interpreted layouts alike, to compare their writers and their dump
//! readers on values no file holds.

use serde_json::{json, Value};

/// Ways to change one value.
fn edits(v: &Value) -> Vec<Value> {
    match v {
        Value::Number(n) => {
            let i = n.as_i64().unwrap_or(0);
            vec![
                json!(i.saturating_add(1)),
                json!(0),
                json!(-1),
                json!(256),
                json!(65536),
                json!(4294967296u64),
                json!(1.5),
                json!("x"),
                Value::Null,
            ]
        }
        Value::String(s) => vec![
            json!(format!("{s}00")),
            json!(format!("{s}a")),
            json!(""),
            json!("inf"),
            json!(5),
            Value::Null,
        ],
        Value::Bool(b) => vec![json!(!b), Value::Null],
        Value::Null => vec![json!(0), json!("00"), json!([]), json!({})],
        Value::Array(a) => {
            let mut out = vec![json!([]), json!({})];
            if let Some(first) = a.first() {
                let mut longer = a.clone();
                longer.push(first.clone());
                out.push(Value::Array(longer));
                let mut shorter = a.clone();
                shorter.pop();
                out.push(Value::Array(shorter));
            }
            out
        }
        Value::Object(m) => {
            let mut out = vec![json!([]), json!(7)];
            let mut extra = m.clone();
            extra.insert("zz".into(), json!(1));
            out.push(Value::Object(extra));
            if let Some(k) = m.keys().next() {
                let mut fewer = m.clone();
                fewer.remove(k);
                out.push(Value::Object(fewer));
                // A switch's variant renamed (or a struct's first key).
                let mut renamed = serde_json::Map::new();
                for (kk, vv) in m {
                    let key = if kk == k {
                        format!("{kk}X")
                    } else {
                        kk.clone()
                    };
                    renamed.insert(key, vv.clone());
                }
                out.push(Value::Object(renamed));
            }
            out
        }
    }
}

/// Every place in `v`, as JSON pointers below `at`, outermost first.
fn places(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                places(x, format!("{at}/{i}"), out);
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                places(x, format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
}

/// `value` edited at up to `most` of its places, spread over it: each place (a JSON pointer)
/// with the value written there and the whole value edited.
pub fn edited(value: &Value, most: usize) -> Vec<(String, Value, Value)> {
    let mut at = vec![];
    places(value, String::new(), &mut at);
    let step = at.len().div_ceil(most.max(1)).max(1);
    let mut out = vec![];
    for p in at.iter().step_by(step) {
        let Some(v) = value.pointer(p) else { continue };
        for edit in edits(v) {
            let mut d = value.clone();
            if let Some(slot) = d.pointer_mut(p) {
                *slot = edit.clone();
            }
            out.push((p.clone(), edit, d));
        }
    }
    out
}
