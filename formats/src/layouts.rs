//! The table of layouts the command line offers, and what each one means beyond its bytes.
//!
//! The table itself is generated ([`crate::generated::LAYOUTS`]); each entry's type implements
//! [`Semantics`] by hand in its family module. A spec that declares a new layout does not
//! compile until its family says what the layout means (even if only "nothing more").

use crate::context::{Context, Relations};
use crate::rt::{Error, ErrorKind, Result, Root};
use crate::scene::Scene;

/// What a layout means beyond its bytes.
pub trait Semantics: Root {
    /// Relations between fields that the reader does not enforce, each violation with its path.
    fn relations(&self, _ctx: &Context) -> Vec<Error> {
        Vec::new()
    }

    /// Relations the spec marks `-severity: warning` that do not hold: a stored value the
    /// document says may be stale, where it also says which value wins. Reported by `check`,
    /// never failing it, whatever the relation mode.
    fn warnings(&self, _ctx: &Context) -> Vec<Error> {
        Vec::new()
    }

    /// What a reader of a dump or an export should know (for example that a field's encoding is
    /// not established).
    fn notes(&self, _ctx: &Context) -> Vec<String> {
        Vec::new()
    }

    /// The geometry, in the common model.
    fn scene(&self, _ctx: &Context) -> Result<Scene> {
        Err(Error::unplaced(
            ErrorKind::Unsupported,
            "a layout with geometry",
            format!("`{}`, which holds none by itself", Self::ID),
        ))
    }
}

/// The outcome of checking one input.
#[derive(Debug, Clone, Default)]
pub struct Checked {
    /// Violated relations.
    pub relations: Vec<Error>,
    /// Violated warning-only relations (they never fail a check).
    pub warnings: Vec<Error>,
    /// Notes for the reader.
    pub notes: Vec<String>,
}

impl Checked {
    /// Whether the input passes under the context's relation mode.
    pub fn passes(&self, ctx: &Context) -> bool {
        self.relations.is_empty() || ctx.relations == Relations::Warn
    }
}

/// The version of the dump wrapper written by `dump` and read by `build`.
pub const DUMP_VERSION: u32 = 1;

/// One layout of the table: its id, its description and type-erased operations.
#[derive(Clone, Copy)]
pub struct Entry {
    /// The layout id the command line takes.
    pub id: &'static str,
    /// One line of description.
    pub description: &'static str,
    /// The spec file.
    pub spec: &'static str,
    /// The dump paths of the fields the spec marks unknown.
    pub unknown: &'static [&'static str],
    check: fn(&[u8], &Context) -> Result<Checked>,
    dump: fn(&[u8], &Context) -> Result<serde_json::Value>,
    build: fn(&serde_json::Value, &Context) -> Result<Vec<u8>>,
    scene: fn(&[u8], &Context) -> Result<Scene>,
    args_ok: fn(&Context) -> Result<()>,
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry").field("id", &self.id).finish()
    }
}

fn check<T: Semantics>(input: &[u8], ctx: &Context) -> Result<Checked> {
    let v = T::from_bytes(input, ctx)?;
    Ok(Checked {
        relations: v.relations(ctx),
        warnings: v.warnings(ctx),
        notes: v.notes(ctx),
    })
}

fn dump<T: Semantics>(input: &[u8], ctx: &Context) -> Result<serde_json::Value> {
    let v = T::from_bytes(input, ctx)?;
    let data = serde_json::to_value(&v)
        .map_err(|e| Error::new(ErrorKind::Io, 0, "a value JSON can carry", e.to_string()))?;
    Ok(serde_json::json!({
        "meshspec": DUMP_VERSION,
        "layout": T::ID,
        "spec": T::SPEC,
        "notes": v.notes(ctx),
        "data": data,
    }))
}

/// Reads the `data` of a dump, checking that the dump is of the format version this build
/// writes and of layout `id`.
fn dump_data<'a>(dump: &'a serde_json::Value, id: &str) -> Result<&'a serde_json::Value> {
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

fn build<T: Semantics>(dump: &serde_json::Value, ctx: &Context) -> Result<Vec<u8>> {
    let data = dump_data(dump, T::ID)?;
    let v: T = serde_path_to_error::deserialize(data).map_err(|e| {
        Error::unplaced(
            ErrorKind::Input,
            format!("a valid value at data.{}", e.path()),
            e.inner().to_string(),
        )
        .rooted("dump")
    })?;
    let bytes = v.to_bytes(ctx)?;
    // Never hand out a file that does not read back to itself.
    let again = T::from_bytes(&bytes, ctx)
        .and_then(|back| back.to_bytes(ctx))
        .map_err(|e| {
            Error::unplaced(
                ErrorKind::Inconsistent,
                "the written file to read back",
                e.to_string(),
            )
        })?;
    if again != bytes {
        return Err(Error::unplaced(
            ErrorKind::Inconsistent,
            "the written file to read back to the same bytes",
            "different bytes",
        ));
    }
    Ok(bytes)
}

fn scene<T: Semantics>(input: &[u8], ctx: &Context) -> Result<Scene> {
    T::from_bytes(input, ctx)?.scene(ctx)
}

impl Entry {
    /// The entry of layout `T`.
    pub const fn of<T: Semantics>() -> Entry {
        Entry {
            id: T::ID,
            description: T::DESCRIPTION,
            spec: T::SPEC,
            unknown: T::UNKNOWN,
            check: check::<T>,
            dump: dump::<T>,
            build: build::<T>,
            scene: scene::<T>,
            args_ok: args_ok::<T>,
        }
    }

    /// Reads `input` (which must be consumed exactly) and checks its relations.
    pub fn check(&self, input: &[u8], ctx: &Context) -> Result<Checked> {
        (self.check)(input, ctx)
    }

    /// Every field of `input`, wrapped with the layout id and notes.
    pub fn dump(&self, input: &[u8], ctx: &Context) -> Result<serde_json::Value> {
        (self.dump)(input, ctx)
    }

    /// The bytes of a (possibly edited) dump, with counts and sizes recomputed. The result is
    /// read back before it is returned.
    pub fn build(&self, dump: &serde_json::Value, ctx: &Context) -> Result<Vec<u8>> {
        (self.build)(dump, ctx)
    }

    /// The geometry of `input`.
    pub fn scene(&self, input: &[u8], ctx: &Context) -> Result<Scene> {
        (self.scene)(input, ctx)
    }
}

// Queries the command line asks before it reads any input (usage checks).

fn args_ok<T: Semantics>(ctx: &Context) -> Result<()> {
    T::args(ctx).map(drop)
}

/// The layouts whose files do not record which way their triangles wind (a .meshbin: see
/// [`crate::meshbin`]).
const WINDING_NOT_RECORDED: &[&str] = &[<crate::generated::meshbin::Meshbin as Root>::ID];

impl Entry {
    /// Whether `ctx` gives every parameter the layout needs (`unity_version`): the check the
    /// reader makes first, without any input.
    pub fn args_ok(&self, ctx: &Context) -> Result<()> {
        (self.args_ok)(ctx)
    }

    /// Whether decoding this layout's geometry, or building one from geometry, needs
    /// [`Context::winding`].
    pub fn needs_winding(&self) -> bool {
        WINDING_NOT_RECORDED.contains(&self.id)
    }
}

/// The layout with id `id`.
pub fn find(id: &str) -> Option<&'static Entry> {
    crate::generated::LAYOUTS.iter().find(|e| e.id == id)
}
