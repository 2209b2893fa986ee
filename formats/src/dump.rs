//! Dumps (every field of an input as JSON, unknown bytes as hex) and builds (the file a possibly
//! edited dump describes, with counts and sizes recomputed, judged before it is handed out).

use crate::context::Context;
use crate::rt::{Error, ErrorKind, Result, Root};
use crate::verdict::Verdict;
use serde_json::Value;

/// The version of the dump wrapper written by `dump` and read by `build`.
pub const DUMP_VERSION: u32 = 1;

/// The dump of value `v`, with `notes`: `{meshspec, layout, spec, notes, data}`
/// ([`crate::reading::Reading::dump`] makes it from an input's reading).
pub fn dump_of<T: Root>(v: &T, notes: Vec<String>) -> Result<Value> {
    Ok(wrapped(T::ID, T::SPEC, json(v)?, notes))
}

/// A value as JSON (bytes as hex, non-finite floats as words: `rt::serde_as`).
pub(crate) fn json(v: &impl serde::Serialize) -> Result<Value> {
    serde_json::to_value(v)
        .map_err(|e| Error::new(ErrorKind::Io, 0, "a value JSON can carry", e.to_string()))
}

/// The dump of layout `id` (from spec file `spec`) whose value is `data`, with `notes`.
pub(crate) fn wrapped(id: &str, spec: &str, data: Value, notes: Vec<String>) -> Value {
    serde_json::json!({
        "meshspec": DUMP_VERSION,
        "layout": id,
        "spec": spec,
        "notes": notes,
        "data": data,
    })
}

/// Reads the `data` of a dump, checking that the dump is of the format version this build
/// writes and of layout `id`.
pub fn dump_data<'a>(dump: &'a Value, id: &str) -> Result<&'a Value> {
    let bad = |key: &'static str, expected: String, found: String| {
        Error::unplaced(ErrorKind::Input, expected, found)
            .in_field(key)
            .rooted("dump")
    };
    let obj = dump.as_object().ok_or_else(|| {
        Error::unplaced(ErrorKind::Input, "a dump (an object)", "something else").rooted("dump")
    })?;
    let version = || format!("{DUMP_VERSION} (the dump format version this build reads)");
    match obj.get("meshspec") {
        Some(v) if v.as_u64() == Some(u64::from(DUMP_VERSION)) => {}
        Some(v) => return Err(bad("meshspec", version(), v.to_string())),
        None => return Err(bad("meshspec", version(), "no such key".into())),
    }
    match obj.get("layout").and_then(|l| l.as_str()) {
        Some(l) if l == id => {}
        Some(l) => {
            return Err(bad(
                "layout",
                format!("a dump of layout `{id}`"),
                format!("one of `{l}`"),
            ))
        }
        None => {
            return Err(bad(
                "layout",
                format!("a dump of layout `{id}`"),
                "no such key".into(),
            ))
        }
    }
    obj.get("data")
        .ok_or_else(|| bad("data", "the dump's fields".into(), "no such key".into()))
}

/// A value the dump gave that the writer replaced: a count, size or total recomputed from the
/// data.
#[derive(Debug, Clone, PartialEq)]
pub struct Override {
    /// The field, as the dump names it (`data.num_indices`).
    pub path: String,
    /// What the dump said.
    pub given: Value,
    /// What was written.
    pub written: Value,
}

impl std::fmt::Display for Override {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: the dump gives {}, {} was written (recomputed from the data)",
            self.path, self.given, self.written
        )
    }
}

/// A built file and what was found in it.
#[derive(Debug, Clone)]
pub struct Built {
    /// The bytes (to be written only when the verdict passes).
    pub bytes: Vec<u8>,
    /// The verdict on the bytes, as `check` would give it.
    pub verdict: Verdict,
    /// Values of the dump the writer recomputed differently.
    pub overrides: Vec<Override>,
}

/// How many overridden values a build reports one by one.
const MAX_OVERRIDES: usize = 50;

fn differences(path: &mut String, given: &Value, written: &Value, out: &mut Vec<Override>) {
    if out.len() >= MAX_OVERRIDES {
        return;
    }
    match (given, written) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, bv) in b {
                let at = path.len();
                path.push('.');
                path.push_str(k);
                // A count the dump left out (`#[serde(default)]`) is recomputed silently.
                if let Some(av) = a.get(k) {
                    differences(path, av, bv, out);
                }
                path.truncate(at);
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (av, bv)) in a.iter().zip(b).enumerate() {
                let at = path.len();
                path.push_str(&format!("[{i}]"));
                differences(path, av, bv, out);
                path.truncate(at);
            }
        }
        // The same number written another way (`1` and `1.0`) is the same value.
        (Value::Number(a), Value::Number(b)) if a.as_f64() == b.as_f64() => {}
        (a, b) if a != b => out.push(Override {
            path: path.clone(),
            given: a.clone(),
            written: b.clone(),
        }),
        _ => {}
    }
}

/// What a build does with a layout's values, whichever source reads and writes them (a
/// generated type, or the interpreter of a spec).
pub(crate) trait Values {
    /// A value of the layout.
    type V;
    /// The layout id a dump must name.
    fn id(&self) -> &str;
    /// The value a dump's `data` describes, or why it is not one (placed in the dump).
    fn parse(&self, data: &Value) -> Result<Self::V>;
    /// The bytes of a value (read back by the writer before they are returned).
    fn write(&self, v: &Self::V, ctx: &Context) -> Result<Vec<u8>>;
    /// The value of bytes.
    fn read(&self, bytes: &[u8], ctx: &Context) -> Result<Self::V>;
    /// The value as a dump's `data`.
    fn json(&self, v: &Self::V) -> Result<Value>;
}

/// The values of generated type `T`.
struct Typed<T>(std::marker::PhantomData<T>);

impl<T: Root> Values for Typed<T> {
    type V = T;
    fn id(&self) -> &str {
        T::ID
    }
    fn parse(&self, data: &Value) -> Result<T> {
        serde_path_to_error::deserialize(data).map_err(|e| {
            Error::unplaced(
                ErrorKind::Input,
                format!("a valid value at data.{}", e.path()),
                e.inner().to_string(),
            )
            .rooted("dump")
        })
    }
    fn write(&self, v: &T, ctx: &Context) -> Result<Vec<u8>> {
        v.to_bytes(ctx)
    }
    fn read(&self, bytes: &[u8], ctx: &Context) -> Result<T> {
        T::from_bytes(bytes, ctx)
    }
    fn json(&self, v: &T) -> Result<Value> {
        json(v)
    }
}

/// Builds the file `dump` describes and judges it with `judge`; the read-back value is compared
/// with the dump to name what the writer recomputed.
pub fn build<T: Root>(
    dump: &Value,
    ctx: &Context,
    judge: impl FnOnce(&[u8], &Context) -> Verdict,
) -> Result<Built> {
    build_with(&Typed::<T>(std::marker::PhantomData), dump, ctx, judge)
}

/// [`build`] for any source of values.
pub(crate) fn build_with<S: Values>(
    source: &S,
    dump: &Value,
    ctx: &Context,
    judge: impl FnOnce(&[u8], &Context) -> Verdict,
) -> Result<Built> {
    let data = dump_data(dump, source.id())?;
    let v = source.parse(data)?;
    let bytes = source.write(&v, ctx)?;
    // Never hand out a file that does not read back to itself.
    let back = source.read(&bytes, ctx).map_err(|e| {
        Error::unplaced(
            ErrorKind::Inconsistent,
            "the written file to read back",
            e.to_string(),
        )
    })?;
    if source.write(&back, ctx)? != bytes {
        return Err(Error::unplaced(
            ErrorKind::Inconsistent,
            "the written file to read back to the same bytes",
            "different bytes",
        ));
    }
    let mut overrides = vec![];
    if let Ok(written) = source.json(&back) {
        differences(&mut "data".to_string(), data, &written, &mut overrides);
    }
    let verdict = judge(&bytes, ctx);
    Ok(Built {
        bytes,
        verdict,
        overrides,
    })
}
