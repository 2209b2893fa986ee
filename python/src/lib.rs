//! `meshspec._native`: the formats crate bound for Python. Every reading, verdict, decoding and
//! census is the library's own call, the one the command line makes; this file only turns
//! Python arguments into a [`Context`] and the library's results into Python values (numpy
//! arrays for geometry, made once from the decoded model). The GIL is released while Rust
//! reads, judges and decodes. `Verdict`, `Mesh` and its parts are classes of this module; the
//! exceptions (`Error`, `Refused`) are in `meshspec/`.

use meshspec_formats as ms;
use ms::context::{Context, Relations, SkinWeights, Winding};
use ms::export::NonFinite;
use ms::report::{self, Finding, Severity};
use ms::scene::{Colors, Mesh, Mode};
use ms::unity::files::game::{GameFiles, Select};
use ms::{Entry, Error};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyKeyboardInterrupt, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyList, PyMemoryView, PyString, PyTuple,
};
use pyo3::PyTypeInfo;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

// The command line's allocator: the survey's many small allocations on every core.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

// ---------------------------------------------------------------------------------------------
// Errors: the library's findings as `meshspec.Error` (a ValueError with the message keys).

/// `meshspec.Error` (or `cls`, a subclass) for a finding: its line as the message, its
/// `--json` keys as attributes.
fn finding_err(py: Python<'_>, cls: &str, f: &Finding, findings: Option<&[Finding]>) -> PyErr {
    let made = (|| -> PyResult<PyErr> {
        let class = py.import("meshspec._errors")?.getattr(cls)?;
        let all = match findings {
            Some(fs) => fs
                .iter()
                .map(|f| json_to_py(py, &f.json()))
                .collect::<PyResult<Vec<_>>>()?,
            None => vec![],
        };
        let value = class.call1((f.line(), json_to_py(py, &f.json())?, all))?;
        Ok(PyErr::from_value(value))
    })();
    made.unwrap_or_else(|e| e)
}

fn lib_err(py: Python<'_>, e: &Error) -> PyErr {
    finding_err(py, "Error", &Finding::from_error(e, Severity::Error), None)
}

fn located_err(py: Python<'_>, e: &ms::unity::files::Located) -> PyErr {
    finding_err(py, "Error", &Finding::located(e, Severity::Error), None)
}

fn usage(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

// ---------------------------------------------------------------------------------------------
// Values between the library (JSON, serde) and Python.

fn json_to_py(py: Python<'_>, v: &serde_json::Value) -> PyResult<Py<PyAny>> {
    use serde_json::Value as J;
    Ok(match v {
        J::Null => py.None(),
        J::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        J::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any().unbind(),
            (_, Some(i)) => i.into_pyobject(py)?.into_any().unbind(),
            _ => n
                .as_f64()
                .unwrap_or(f64::NAN)
                .into_pyobject(py)?
                .into_any()
                .unbind(),
        },
        J::String(s) => PyString::new(py, s).into_any().unbind(),
        J::Array(a) => {
            let items = a
                .iter()
                .map(|x| json_to_py(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
        J::Object(m) => {
            let d = PyDict::new(py);
            for (k, x) in m {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}

/// A value serialized without being made text (raw bytes stay bytes) as a Python value.
fn cbor_to_py(py: Python<'_>, v: &ciborium::Value) -> PyResult<Py<PyAny>> {
    use ciborium::Value as C;
    Ok(match v {
        C::Null => py.None(),
        C::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        C::Integer(i) => i128::from(*i).into_pyobject(py)?.into_any().unbind(),
        C::Float(f) => PyFloat::new(py, *f).into_any().unbind(),
        C::Text(s) => PyString::new(py, s).into_any().unbind(),
        C::Bytes(b) => PyBytes::new(py, b).into_any().unbind(),
        C::Tag(_, inner) => cbor_to_py(py, inner)?,
        C::Array(a) => {
            let items = a
                .iter()
                .map(|x| cbor_to_py(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
        C::Map(m) => {
            let d = PyDict::new(py);
            for (k, x) in m {
                d.set_item(cbor_to_py(py, k)?, cbor_to_py(py, x)?)?;
            }
            d.into_any().unbind()
        }
        other => return Err(usage(format!("a value Python can hold, found {other:?}"))),
    })
}

/// A Python value (an edited dump) as the JSON a dump is: raw bytes as hex, non-finite floats
/// as the dump's words, numpy values as the numbers they hold.
fn py_to_json(v: &Bound<'_, PyAny>, at: &str) -> PyResult<serde_json::Value> {
    use serde_json::Value as J;
    let bad = |what: &str| {
        PyTypeError::new_err(format!(
            "dump value at {at}: expected a value a dump holds (dict, list, str, int, float, bool, None, bytes), found {what}"
        ))
    };
    if v.is_none() {
        return Ok(J::Null);
    }
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(J::Bool(b.is_true()));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(J::String(s.extract::<String>()?));
    }
    if let Ok(b) = v.cast::<PyBytes>() {
        return Ok(J::String(ms::rt::serde_as::hex::encode(b.as_bytes())));
    }
    if v.is_instance_of::<PyByteArray>() || v.is_instance_of::<PyMemoryView>() {
        let b = PyBytes::type_object(v.py()).call1((v,))?;
        return Ok(J::String(ms::rt::serde_as::hex::encode(
            b.cast::<PyBytes>()?.as_bytes(),
        )));
    }
    if let Ok(d) = v.cast::<PyDict>() {
        let mut m = serde_json::Map::new();
        for (k, x) in d.iter() {
            let key: String = k.extract().map_err(|_| bad("a key that is not text"))?;
            let here = format!("{at}.{key}");
            m.insert(key, py_to_json(&x, &here)?);
        }
        return Ok(J::Object(m));
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        let mut out = vec![];
        for (i, x) in v.try_iter()?.enumerate() {
            out.push(py_to_json(&x?, &format!("{at}[{i}]"))?);
        }
        return Ok(J::Array(out));
    }
    if v.is_instance_of::<PyFloat>() {
        let f: f64 = v.extract()?;
        return float_json(f, at);
    }
    // Python ints and numpy integers (anything with __index__).
    if let Ok(i) = v.extract::<i128>() {
        if let Ok(u) = u64::try_from(i) {
            return Ok(J::from(u));
        }
        if let Ok(s) = i64::try_from(i) {
            return Ok(J::from(s));
        }
        return Err(bad("an integer beyond 64 bits"));
    }
    // A numpy array or scalar: its Python values.
    if v.hasattr("tolist")? {
        return py_to_json(&v.call_method0("tolist")?, at);
    }
    if let Ok(f) = v.extract::<f64>() {
        return float_json(f, at);
    }
    Err(bad(&v.get_type().name()?.to_string()))
}

fn float_json(f: f64, at: &str) -> PyResult<serde_json::Value> {
    if let Some(n) = serde_json::Number::from_f64(f) {
        return Ok(serde_json::Value::Number(n));
    }
    Ok(serde_json::Value::String(match f {
        f64::INFINITY => "inf".into(),
        f64::NEG_INFINITY => "-inf".into(),
        _ => {
            return Err(usage(format!(
                "dump value at {at}: a NaN needs its bits, as the dump writes it: 'nan:0x7FC00000'"
            )))
        }
    }))
}

// ---------------------------------------------------------------------------------------------
// Inputs and options.

/// The bytes a function reads: a bytes object's own (never copied), a copy of a mutable
/// buffer's, or a file's.
enum Data<'py> {
    Shared(Bound<'py, PyBytes>),
    Owned(Vec<u8>),
}

impl Data<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Data::Shared(b) => b.as_bytes(),
            Data::Owned(v) => v,
        }
    }
}

/// `data` as bytes, and the path it was read from (resources beside it, `unity_version='auto'`).
fn data<'py>(py: Python<'py>, obj: &Bound<'py, PyAny>) -> PyResult<(Data<'py>, Option<PathBuf>)> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok((Data::Shared(b.clone()), None));
    }
    if obj.is_instance_of::<PyByteArray>() || obj.is_instance_of::<PyMemoryView>() {
        let b = PyBytes::type_object(py).call1((obj,))?;
        return Ok((Data::Shared(b.cast_into::<PyBytes>()?), None));
    }
    let path: PathBuf = obj.extract().map_err(|_| {
        PyTypeError::new_err(
            "data: expected bytes, bytearray, memoryview or a path (str or os.PathLike)",
        )
    })?;
    let read = py.detach(|| std::fs::read(&path));
    match read {
        Ok(bytes) => Ok((Data::Owned(bytes), Some(path))),
        Err(e) => Err(finding_err(
            py,
            "Error",
            &Finding::about(path.display().to_string(), "a readable file", e.to_string()),
            None,
        )),
    }
}

/// The layout a LAYOUT argument names: a layout id, or a spec file read at run time
/// (`FILE.ksy`, `FILE.ksy#TYPE`), as on the command line.
fn entry(layout: &str) -> PyResult<&'static Entry> {
    if ms::layouts::is_spec_path(layout) {
        return Entry::interpreted(layout)
            .map_err(|e| usage(ms::layouts::spec_problem(layout, &e)));
    }
    ms::find(layout).ok_or_else(|| {
        let ids: Vec<&str> = ms::layouts::LAYOUTS.iter().map(|e| e.id).collect();
        usage(format!(
            "unknown layout `{layout}`; meshspec.layouts() lists them: {}",
            ids.join(", ")
        ))
    })
}

/// The options a function was called with.
struct Given {
    winding: Option<String>,
    unity_version: Option<String>,
    unity_editor: bool,
    ress: Option<PathBuf>,
    skin_weights: Option<String>,
    strict: bool,
    relations: Option<String>,
}

impl Given {
    fn skin_weights(&self) -> PyResult<SkinWeights> {
        Ok(match self.skin_weights.as_deref() {
            None | Some("4") => SkinWeights::Four,
            Some("1") => SkinWeights::One,
            Some("2") => SkinWeights::Two,
            Some("all") | Some("255") => SkinWeights::All,
            Some(o) => {
                return Err(usage(format!(
                    "skin_weights: expected 1, 2, 4 or 'all', found {o}"
                )))
            }
        })
    }

    fn relations(&self) -> PyResult<Relations> {
        match self.relations.as_deref() {
            None | Some("error") => Ok(Relations::Error),
            Some("warn") => Ok(Relations::Warn),
            Some(o) => Err(usage(format!(
                "relations: expected 'error' or 'warn', found '{o}'"
            ))),
        }
    }

    /// The context the command line makes from the same options (`Usage::context`), checked
    /// against what the layout needs before any byte is read.
    fn context(&self, entry: Option<&Entry>, input: Option<&Path>) -> PyResult<Context> {
        let mut ctx = Context::new();
        ctx.winding = match self.winding.as_deref() {
            None => None,
            Some("d3d") => Some(Winding::D3d),
            Some("gl") => Some(Winding::Gl),
            Some(o) => {
                return Err(usage(format!(
                    "winding: expected 'd3d' or 'gl', found '{o}'"
                )))
            }
        };
        ctx.resource = self.ress.clone();
        ctx.input = input.map(Path::to_path_buf);
        ctx.relations = self.relations()?;
        ctx.strict = self.strict;
        ctx.skin_weights = self.skin_weights()?;
        match self.unity_version.as_deref() {
            Some("auto") => {
                let v = input.and_then(ms::survey::walk::version_folder).ok_or_else(|| {
                    usage("unity_version='auto': no folder above the file is named after a Unity version (and bytes have no folder); give the version, unity_version='2021.3.0f1'")
                })?;
                ctx = ctx.with_param("unity_version", v);
            }
            Some(v) => {
                let n = ms::context::unity_version(v)
                    .map_err(|e| usage(format!("unity_version: {e}")))?;
                ctx = ctx.with_param("unity_version", n);
            }
            None => {}
        }
        if self.unity_editor {
            ctx = ctx.with_param("unity_editor", 1);
        }
        if let Some(e) = entry {
            if let Err(err) = e.args_ok(&ctx) {
                return Err(usage(format!(
                    "layout `{}`: {err} (unity_version='2021.3.0f1', or 'auto' for a path below a folder named after the version)",
                    e.id
                )));
            }
        }
        Ok(ctx)
    }
}

fn given(o: Option<&Bound<'_, PyDict>>) -> PyResult<Given> {
    let mut g = Given {
        winding: None,
        unity_version: None,
        unity_editor: false,
        ress: None,
        skin_weights: None,
        strict: false,
        relations: None,
    };
    let Some(d) = o else { return Ok(g) };
    for (k, v) in d.iter() {
        let key: String = k.extract()?;
        if v.is_none() {
            continue;
        }
        match key.as_str() {
            "winding" => g.winding = Some(v.extract()?),
            "unity_version" => g.unity_version = Some(v.extract()?),
            "unity_editor" => g.unity_editor = v.is_truthy()?,
            "ress" => g.ress = Some(v.extract()?),
            "skin_weights" => g.skin_weights = Some(v.str()?.to_string()),
            "strict" => g.strict = v.is_truthy()?,
            "relations" => g.relations = Some(v.extract()?),
            other => {
                return Err(PyTypeError::new_err(format!(
                    "unexpected keyword argument '{other}' (options: winding, unity_version, unity_editor, ress, skin_weights, strict, relations)"
                )))
            }
        }
    }
    Ok(g)
}

/// What a function on one input starts with: its layout, its bytes, the path they were read
/// from and the context.
struct Call<'py> {
    e: &'static Entry,
    d: Data<'py>,
    path: Option<PathBuf>,
    ctx: Context,
}

fn call<'py>(
    py: Python<'py>,
    layout: &str,
    data: &Bound<'py, PyAny>,
    opts: Option<&Bound<'py, PyDict>>,
) -> PyResult<Call<'py>> {
    let e = entry(layout)?;
    let g = given(opts)?;
    let (d, path) = self::data(py, data)?;
    let ctx = g.context(Some(e), path.as_deref())?;
    Ok(Call { e, d, path, ctx })
}

// ---------------------------------------------------------------------------------------------
// The functions.

/// Every layout: id, description, spec file, the parameters it needs, whether geometry needs a
/// winding; with `spec`, every type of that spec file, its `id` the LAYOUT argument naming it
/// (`FILE.ksy`, `FILE.ksy#TYPE`).
#[pyfunction]
#[pyo3(signature = (spec=None))]
fn layouts(py: Python<'_>, spec: Option<PathBuf>) -> PyResult<Py<PyAny>> {
    let listed: Vec<(String, &'static Entry)> = match spec {
        None => ms::layouts::LAYOUTS
            .iter()
            .map(|e| (e.id.to_string(), e))
            .collect(),
        Some(path) => {
            let file = path.to_string_lossy().into_owned();
            let entries = Entry::of_spec(&file)
                .map_err(|e| usage(ms::layouts::spec_problem(&file, &e)))?;
            entries
                .into_iter()
                .enumerate()
                .map(|(i, e)| match i {
                    0 => (file.clone(), e),
                    _ => (format!("{file}#{}", e.info.name), e),
                })
                .collect()
        }
    };
    let list: Vec<serde_json::Value> = listed
        .iter()
        .map(|(id, e)| {
            serde_json::json!({
                "id": id,
                "description": e.description,
                "spec": e.spec,
                "params": e.params,
                "needs_winding": e.needs_winding(),
            })
        })
        .collect();
    json_to_py(py, &serde_json::Value::from(list))
}

/// A finding as its `--json` message object ([`Finding::json`]'s keys and values), made
/// straight into a dict with interned keys: `check` over many small files spends its time here.
fn finding_py(py: Python<'_>, f: &Finding) -> PyResult<Py<PyAny>> {
    let d = PyDict::new(py);
    d.set_item(intern!(py, "severity"), f.severity.word())?;
    d.set_item(intern!(py, "offset"), f.offset)?;
    d.set_item(intern!(py, "resource"), &f.resource)?;
    d.set_item(intern!(py, "path"), &f.path)?;
    d.set_item(intern!(py, "relation"), &f.relation)?;
    d.set_item(intern!(py, "expected"), &f.expected)?;
    d.set_item(intern!(py, "found"), &f.found)?;
    d.set_item(intern!(py, "text"), f.line())?;
    Ok(d.into_any().unbind())
}

/// `meshspec.Verdict`: the one verdict on an input, as `check --json --all` gives it: `ok`
/// (it passes), every finding (dicts with the keys of `check --json`'s messages: severity,
/// offset, resource, path, relation, expected, found, text) and the notes' text. A native
/// class, so a `check` makes no Python frame of its own.
#[pyclass(frozen, get_all, module = "meshspec")]
struct Verdict {
    ok: bool,
    findings: Py<PyList>,
    notes: Py<PyList>,
}

#[pymethods]
impl Verdict {
    fn __bool__(&self) -> bool {
        self.ok
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Verdict(ok={}, findings={}, notes={})",
            if self.ok { "True" } else { "False" },
            self.findings.bind(py).repr()?,
            self.notes.bind(py).repr()?
        ))
    }
}

fn verdict_py(py: Python<'_>, v: &ms::verdict::Verdict) -> PyResult<Verdict> {
    let r = report::Verdict::of(v);
    let findings = r
        .findings
        .iter()
        .map(|f| finding_py(py, f))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(Verdict {
        ok: r.passes(),
        findings: PyList::new(py, findings)?.unbind(),
        notes: PyList::new(py, r.notes)?.unbind(),
    })
}

/// The verdict ``meshspec check LAYOUT FILE --json --all`` gives: structure, field checks,
/// relations and the decoder's checks, each at its severity. Options: ``unity_version``,
/// ``ress``, ``relations`` ('error' or 'warn'), ``strict``.
#[pyfunction]
#[pyo3(signature = (layout, data, **opts))]
fn check(
    py: Python<'_>,
    layout: &str,
    data: &Bound<'_, PyAny>,
    opts: Option<&Bound<'_, PyDict>>,
) -> PyResult<Verdict> {
    let Call { e, d, ctx, .. } = call(py, layout, data, opts)?;
    let bytes = d.bytes();
    let v = py.detach(|| {
        let mut v = e.judge(bytes, &ctx);
        report::bare_hint(e, bytes, &ctx, &mut v.refused);
        v
    });
    verdict_py(py, &v)
}

/// `meshspec dump`'s `data`, raw bytes as bytes.
#[pyfunction]
#[pyo3(signature = (layout, data, **opts))]
fn dump(
    py: Python<'_>,
    layout: &str,
    data: &Bound<'_, PyAny>,
    opts: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let Call { e, d, ctx, .. } = call(py, layout, data, opts)?;
    let bytes = d.bytes();
    let value = py.detach(|| {
        let mut out = None;
        e.value(bytes, &ctx, &mut |v| {
            out = Some(ciborium::Value::serialized(v).map_err(|x| x.to_string()))
        })
        .map(|()| out)
    });
    match value {
        Err(err) => Err(lib_err(py, &err)),
        Ok(Some(Ok(v))) => cbor_to_py(py, &v),
        Ok(Some(Err(why))) => Err(usage(why)),
        Ok(None) => Err(usage("no value")),
    }
}

/// `meshspec build`: the bytes of a (possibly edited) dump, refused unless they pass `check`.
#[pyfunction]
#[pyo3(signature = (layout, dump, **opts))]
fn build<'py>(
    py: Python<'py>,
    layout: &str,
    dump: &Bound<'py, PyAny>,
    opts: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let e = entry(layout)?;
    let g = given(opts)?;
    let ctx = g.context(Some(e), None)?;
    let mut value = py_to_json(dump, "data")?;
    // The data alone (what `dump` returns), or a whole dump (`meshspec dump --json`'s).
    if value.get("meshspec").is_none() || value.get("data").is_none() {
        value = serde_json::json!({
            "meshspec": ms::dump::DUMP_VERSION,
            "layout": e.id,
            "data": value,
        });
    }
    let built = py
        .detach(|| e.build(&value, &ctx))
        .map_err(|err| lib_err(py, &err))?;
    if !built.verdict.passes() {
        let v = report::Verdict::of(&built.verdict);
        let first = v
            .findings
            .iter()
            .find(|f| f.severity == Severity::Error)
            .cloned()
            .unwrap_or_else(|| Finding::about("build", "a file that passes `check`", "a failure"));
        return Err(finding_err(py, "Refused", &first, Some(&v.findings)));
    }
    Ok(PyBytes::new(py, &built.bytes))
}

// --- geometry ---------------------------------------------------------------------------------

fn non_finite(s: Option<&str>) -> PyResult<NonFinite> {
    match s {
        None | Some("refuse") => Ok(NonFinite::Refuse),
        Some("zero") => Ok(NonFinite::Zero),
        Some(o) => Err(usage(format!(
            "non_finite: expected 'refuse' or 'zero', found '{o}'"
        ))),
    }
}

/// A decoded mesh as the exporters write it, and what preparing it changed.
struct Ready {
    mesh: Mesh,
    notes: Vec<String>,
}

fn ready(scene: ms::scene::Scene, policy: NonFinite) -> ms::Result<Vec<Ready>> {
    scene
        .meshes
        .into_iter()
        .map(|m| ms::export::prepared(m, policy).map(|(mesh, notes)| Ready { mesh, notes }))
        .collect()
}

fn arr<'py, T: numpy::Element, const N: usize>(
    py: Python<'py>,
    v: Vec<[T; N]>,
) -> PyResult<Py<PyAny>> {
    let n = v.len();
    let flat: Vec<T> = v.into_flattened();
    Ok(PyArray1::from_vec(py, flat)
        .reshape([n, N])?
        .into_any()
        .unbind())
}

fn mode(m: Mode) -> u32 {
    match m {
        Mode::Points => 0,
        Mode::Lines => 1,
        Mode::LineStrip => 3,
        Mode::Triangles => 4,
    }
}

/// `meshspec.Primitive`: one primitive: `indices` (numpy uint32), `mode` (glTF's: 0 points,
/// 1 lines, 3 line strip, 4 triangles) and `material` (its name, or None).
#[pyclass(frozen, get_all, module = "meshspec")]
struct Primitive {
    indices: Py<PyAny>,
    mode: u32,
    material: Option<String>,
}

/// `meshspec.Skin`: `joints` (uint16, (n, 4)), `weights` (float32, (n, 4), summing to 1 as
/// exported), `inverse_bind_matrices` (float32, (joints, 16), column-major as glTF stores
/// them) and `joint_names`.
#[pyclass(frozen, get_all, module = "meshspec")]
struct Skin {
    joints: Py<PyAny>,
    weights: Py<PyAny>,
    inverse_bind_matrices: Py<PyAny>,
    joint_names: Py<PyList>,
}

/// `meshspec.MorphTarget`: displacements of positions (and normals) per vertex.
#[pyclass(frozen, get_all, module = "meshspec")]
struct MorphTarget {
    name: String,
    positions: Py<PyAny>,
    normals: Option<Py<PyAny>>,
    default_weight: f32,
}

/// `meshspec.Mesh`: one mesh in glTF's frame, as `meshspec export` writes it (normals of
/// unit length, colours clamped, weights summing to 1): numpy arrays, made once from the
/// decoded model. `positions` float32 (n, 3); `normals` (n, 3), `tangents` (n, 4) and
/// `colors` ((n, 4): uint8 or float32) or None; `uvs` one float32 (n, 2) array per texture
/// coordinate set; `primitives`; `materials` (names); `skin` or None; `morph_targets`;
/// `notes` (what preparing the mesh changed). Native classes, so a mesh costs no Python frame.
#[pyclass(frozen, get_all, name = "Mesh", module = "meshspec")]
struct PyMesh {
    name: String,
    layout: String,
    positions: Py<PyAny>,
    normals: Option<Py<PyAny>>,
    tangents: Option<Py<PyAny>>,
    colors: Option<Py<PyAny>>,
    uvs: Py<PyList>,
    primitives: Py<PyList>,
    materials: Py<PyList>,
    skin: Option<Py<Skin>>,
    morph_targets: Py<PyList>,
    notes: Py<PyList>,
}

#[pymethods]
impl PyMesh {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Mesh(name={}, layout={}, vertices={}, primitives={})",
            self.name.clone().into_pyobject(py)?.repr()?,
            self.layout.clone().into_pyobject(py)?.repr()?,
            self.positions.bind(py).len()?,
            self.primitives.bind(py).len()
        ))
    }
}

/// One mesh as a `meshspec.Mesh` of numpy arrays.
fn mesh_py(py: Python<'_>, r: Ready) -> PyResult<Py<PyAny>> {
    let m = r.mesh;
    let colors = match m.colors {
        None => None,
        Some(Colors::Rgba8(c)) => Some(arr(py, c)?),
        Some(Colors::Float(c)) => Some(arr(py, c)?),
    };
    let uvs = m
        .uvs
        .into_iter()
        .map(|u| arr(py, u))
        .collect::<PyResult<Vec<_>>>()?;
    let materials: Vec<String> = m.materials.iter().map(|x| x.name.clone()).collect();
    let primitives = m
        .primitives
        .into_iter()
        .map(|p| {
            Py::new(
                py,
                Primitive {
                    indices: PyArray1::from_vec(py, p.indices).into_any().unbind(),
                    mode: mode(p.mode),
                    material: p.material.and_then(|i| materials.get(i).cloned()),
                },
            )
        })
        .collect::<PyResult<Vec<_>>>()?;
    let skin = m
        .skin
        .map(|s| {
            Py::new(
                py,
                Skin {
                    joints: arr(py, s.joints)?,
                    weights: arr(py, s.weights)?,
                    inverse_bind_matrices: arr(py, s.inverse_bind_matrices)?,
                    joint_names: PyList::new(py, s.joint_names)?.unbind(),
                },
            )
        })
        .transpose()?;
    let morph_targets = m
        .morph_targets
        .into_iter()
        .map(|t| {
            Py::new(
                py,
                MorphTarget {
                    name: t.name,
                    positions: arr(py, t.positions)?,
                    normals: t.normals.map(|v| arr(py, v)).transpose()?,
                    default_weight: t.default_weight,
                },
            )
        })
        .collect::<PyResult<Vec<_>>>()?;
    let mesh = PyMesh {
        name: m.name,
        layout: m.origin.layout,
        positions: arr(py, m.positions)?,
        normals: m.normals.map(|v| arr(py, v)).transpose()?,
        tangents: m.tangents.map(|v| arr(py, v)).transpose()?,
        colors,
        uvs: PyList::new(py, uvs)?.unbind(),
        primitives: PyList::new(py, primitives)?.unbind(),
        materials: PyList::new(py, materials)?.unbind(),
        skin,
        morph_targets: PyList::new(py, morph_targets)?.unbind(),
        notes: PyList::new(py, r.notes)?.unbind(),
    };
    Ok(Py::new(py, mesh)?.into_any())
}

/// `meshspec export`'s geometry, as arrays: every mesh of an input that passes its verdict.
#[pyfunction]
#[pyo3(signature = (layout, data, non_finite=None, **opts))]
fn meshes(
    py: Python<'_>,
    layout: &str,
    data: &Bound<'_, PyAny>,
    non_finite: Option<&str>,
    opts: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<Py<PyAny>>> {
    let policy = self::non_finite(non_finite)?;
    let Call { e, d, path, ctx } = call(py, layout, data, opts)?;
    if e.needs_winding() && ctx.winding.is_none() {
        return Err(usage(format!(
            "layout `{}` needs winding='d3d' or winding='gl': its files do not record whether a Direct3D or an OpenGL build wrote them",
            e.id
        )));
    }
    let stem = path
        .as_deref()
        .and_then(|p| p.file_stem())
        .and_then(|s| s.to_str())
        .unwrap_or("mesh")
        .to_string();
    let bytes = d.bytes();
    let decoded = py.detach(|| {
        let mut scene = e
            .decode(bytes, &ctx)
            .map_err(|err| {
                let mut err = Some(err);
                report::bare_hint(e, bytes, &ctx, &mut err);
                err.expect("still an error")
            })?
            .scene;
        scene.label(e.id, &stem);
        ready(scene, policy)
    });
    let list = decoded.map_err(|err| lib_err(py, &err))?;
    list.into_iter().map(|r| mesh_py(py, r)).collect()
}

// --- explain ----------------------------------------------------------------------------------

/// `meshspec explain`'s rows, every element of every list.
#[pyfunction]
#[pyo3(signature = (layout, data, at=None, field=None, depth=None, **opts))]
fn explain(
    py: Python<'_>,
    layout: &str,
    data: &Bound<'_, PyAny>,
    at: Option<u64>,
    field: Option<String>,
    depth: Option<usize>,
    opts: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<Py<PyAny>>> {
    let Call { e, d, ctx, .. } = call(py, layout, data, opts)?;
    let bytes = d.bytes();
    let sel = ms::explain::Select {
        at,
        field,
        depth,
        elements: usize::MAX,
    };
    let x = py.detach(|| {
        let reading = e.read(bytes, &ctx);
        let census = |v: &mut dyn ms::rt::Visitor| reading.census(v);
        let walk = |f: &mut ms::reading::WalkFn<'_>| reading.walk(f);
        let i = ms::explain::Input {
            entry: e,
            bytes,
            walk: &walk,
            base: 0,
            census: &census,
        };
        ms::explain::explain(&i, &sel)
    });
    let x = x.map_err(|err| lib_err(py, &err))?;
    x.rows
        .iter()
        .map(|r| {
            let d = PyDict::new(py);
            d.set_item("offset", r.start)?;
            d.set_item("size", r.end - r.start)?;
            d.set_item("path", &r.path)?;
            d.set_item("type", r.ty())?;
            d.set_item("value", &r.value)?;
            d.set_item("confidence", r.confidence.map(|c| c.word()))?;
            Ok(d.into_any().unbind())
        })
        .collect()
}

// --- survey -----------------------------------------------------------------------------------

struct Stop(AtomicBool);

impl ms::survey::Progress for Stop {
    fn done(&self, _: u64) {}
    fn stop(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// `meshspec survey --json`'s document; Ctrl-C stops it between files.
#[pyfunction]
#[pyo3(signature = (paths, layout=None, ext=None, unity_version=None, relations=None, strict=false, jobs=None, cap=None))]
#[allow(clippy::too_many_arguments)]
fn survey(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    layout: Option<&str>,
    ext: Option<String>,
    unity_version: Option<&str>,
    relations: Option<String>,
    strict: bool,
    jobs: Option<usize>,
    cap: Option<usize>,
) -> PyResult<Py<PyAny>> {
    let paths: Vec<PathBuf> = match paths.extract::<PathBuf>() {
        Ok(p) => vec![p],
        Err(_) => paths.extract()?,
    };
    if let Some(p) = ms::survey::walk::missing(&paths).into_iter().next() {
        return Err(usage(format!("{}: no such file or folder", p.display())));
    }
    let g = Given {
        winding: None,
        unity_version: None,
        unity_editor: false,
        ress: None,
        skin_weights: None,
        strict,
        relations,
    };
    let o = ms::survey::Options {
        layout: layout.map(entry).transpose()?,
        ext,
        unity_version: match unity_version {
            None => ms::survey::UnityVersion::None,
            Some("auto") => ms::survey::UnityVersion::Auto,
            Some(v) => ms::survey::UnityVersion::Given(
                ms::context::unity_version(v).map_err(|e| usage(format!("unity_version: {e}")))?,
            ),
        },
        relations: g.relations()?,
        strict,
        cap: cap.unwrap_or(ms::survey::DEFAULT_CAP).max(1),
        threads: match jobs {
            Some(0) => return Err(usage("jobs: expected at least 1 thread, found 0")),
            j => j,
        },
        ..ms::survey::Options::default()
    };
    let stop = Stop(AtomicBool::new(false));
    std::thread::scope(|s| {
        let (o, paths, stop) = (&o, &paths, &stop);
        let worker = s.spawn(move || ms::survey::survey(paths, o, stop));
        // The survey runs on every core without the GIL; this thread looks for Ctrl-C.
        loop {
            if worker.is_finished() {
                break;
            }
            py.detach(|| std::thread::sleep(std::time::Duration::from_millis(20)));
            if let Err(e) = py.check_signals() {
                stop.0.store(true, Ordering::Relaxed);
                py.detach(|| worker.join()).ok();
                return Err(e);
            }
        }
        let report = py
            .detach(|| worker.join())
            .map_err(|_| PyKeyboardInterrupt::new_err("the survey stopped"))?;
        json_to_py(py, &report.document())
    })
}

// --- Unity game files -------------------------------------------------------------------------

/// Unity game files opened together (bundles, serialized files, folders of them).
#[pyclass(frozen, module = "meshspec._native")]
struct GameSet {
    g: GameFiles,
}

#[pyfunction]
#[pyo3(signature = (paths, unity_version=None))]
fn unity_open(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    unity_version: Option<&str>,
) -> PyResult<GameSet> {
    let paths: Vec<PathBuf> = match paths.extract::<PathBuf>() {
        Ok(p) => vec![p],
        Err(_) => paths.extract()?,
    };
    let version = unity_version
        .map(|v| {
            ms::context::unity_version(v)
                .ok()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| {
                    usage(format!(
                        "unity_version: expected a Unity version such as 2021.3.0f1, found '{v}'"
                    ))
                })
        })
        .transpose()?;
    let mut g = py.detach(|| GameFiles::open_each(&paths, u64::MAX));
    g.unity_version = version;
    // A file named (not a folder) that cannot be opened is refused, as on the command line.
    if let Some(e) = g.failed.first() {
        if paths.len() == 1 && !paths[0].is_dir() {
            return Err(located_err(py, e));
        }
    }
    Ok(GameSet { g })
}

#[pymethods]
impl GameSet {
    /// `meshspec unity list --json`'s rows.
    fn objects(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let rows = self.g.list(None);
        json_to_py(
            py,
            &serde_json::to_value(&rows).map_err(|e| usage(e.to_string()))?,
        )
    }

    /// The files under the folders that could not be opened, as findings.
    fn failed(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.g
            .failed
            .iter()
            .map(|e| json_to_py(py, &Finding::located(e, Severity::Error).json()))
            .collect()
    }

    /// The meshes `name` or `path_id` select (every mesh without either), decoded on every
    /// core; the first that cannot be decoded is raised.
    #[pyo3(signature = (name=None, path_id=None, non_finite=None, **opts))]
    fn meshes(
        &self,
        py: Python<'_>,
        name: Option<String>,
        path_id: Option<i64>,
        non_finite: Option<&str>,
        opts: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let g = given(opts)?;
        if g.winding.is_some() || g.unity_version.is_some() {
            return Err(usage("winding and unity_version are not options of a game file's meshes (the version is the file's; unity_version goes to meshspec.unity.open)"));
        }
        let policy = self::non_finite(non_finite)?;
        let user = g.context(None, None)?;
        let targets = match (name, path_id) {
            (Some(n), _) => self.g.select(&Select::MeshName(n)),
            (None, Some(id)) => self.g.select(&Select::PathId(id)),
            (None, None) => self.g.meshes(),
        };
        let files = &self.g;
        let decoded: Result<Vec<Vec<Ready>>, PyErrLater> = py.detach(|| {
            targets
                .par_iter()
                .map(|&r| {
                    let input = files.input(r, &user).map_err(PyErrLater::Located)?;
                    let d = input.decode().map_err(PyErrLater::Located)?;
                    let mut scene = d.scene;
                    scene.label(
                        <ms::generated::unity_mesh::UnityMesh as ms::rt::Root>::ID,
                        &input.mesh.name(),
                    );
                    ready(scene, policy).map_err(PyErrLater::Lib)
                })
                .collect()
        });
        let decoded = decoded.map_err(|e| match e {
            PyErrLater::Located(l) => located_err(py, &l),
            PyErrLater::Lib(l) => lib_err(py, &l),
        })?;
        decoded
            .into_iter()
            .flatten()
            .map(|r| mesh_py(py, r))
            .collect()
    }
}

/// An error found without the GIL, raised once it is held.
enum PyErrLater {
    Located(ms::unity::files::Located),
    Lib(Error),
}

// --- benchmark hook ---------------------------------------------------------------------------

/// Seconds the library's own verdict takes over `inputs` (layout id, bytes), `rounds` times:
/// the Rust side of the benchmark, without Python in the loop.
#[pyfunction]
fn _judge_seconds(py: Python<'_>, inputs: Vec<(String, Vec<u8>)>, rounds: usize) -> PyResult<f64> {
    let es = inputs
        .iter()
        .map(|(l, b)| Ok((entry(l)?, b.as_slice())))
        .collect::<PyResult<Vec<_>>>()?;
    let ctx = Context::new();
    Ok(py.detach(|| {
        let t = std::time::Instant::now();
        for _ in 0..rounds {
            for (e, b) in &es {
                let mut v = e.judge(b, &ctx);
                report::bare_hint(e, b, &ctx, &mut v.refused);
                std::hint::black_box(report::Verdict::of(&v));
            }
        }
        t.elapsed().as_secs_f64()
    }))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(layouts, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(dump, m)?)?;
    m.add_function(wrap_pyfunction!(build, m)?)?;
    m.add_function(wrap_pyfunction!(meshes, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(survey, m)?)?;
    m.add_function(wrap_pyfunction!(unity_open, m)?)?;
    m.add_function(wrap_pyfunction!(_judge_seconds, m)?)?;
    m.add_class::<GameSet>()?;
    m.add_class::<Verdict>()?;
    m.add_class::<PyMesh>()?;
    m.add_class::<Primitive>()?;
    m.add_class::<Skin>()?;
    m.add_class::<MorphTarget>()?;
    Ok(())
}
