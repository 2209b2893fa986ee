//! The generator's fixtures (`codegen/fixtures/*.ksy`: every construct of the subset, each
//! feature of the runtime the generated code calls), read and written by their generated
//! code and by the interpreter: the same errors, warnings, positions, census, dumps and
//! bytes, on samples, on every prefix and changed byte of them, and on edited dumps.

use super::json::{Owned, Parser};
use super::read::Reader;
use super::write::Writer;
use super::{check, walk, Layout};
use crate::fuzzing::edits::edited;
use crate::generated::fixtures::{features, text_and_order, unity_names};
use crate::rt::{Codec, Error, FieldInfo, Input, Output, Path, Place, Scalar, Span, Visitor};
use std::collections::BTreeMap;

fn fixture(id: &str) -> &'static Layout {
    let file = format!("codegen/fixtures/{id}.ksy");
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(&file),
    )
    .unwrap();
    super::load(&file, &text, None).unwrap()
}

/// Every visitor call, as text.
#[derive(Default)]
struct Calls(Vec<String>);

impl Visitor for Calls {
    fn enter(&mut self, f: &'static FieldInfo) -> bool {
        self.0.push(format!("enter {}", f.id));
        true
    }
    fn present(&mut self) {
        self.0.push("present".into());
    }
    fn leaf(&mut self, f: &'static FieldInfo, v: Scalar<'_>) {
        self.0.push(format!("leaf {} {v:?}", f.id));
    }
    fn index(&mut self, i: usize) -> bool {
        self.0.push(format!("index {i}"));
        true
    }
    fn value(&mut self, v: Scalar<'_>) {
        self.0.push(format!("value {v:?}"));
    }
    fn leave(&mut self) {
        self.0.push("leave".into());
    }
}

fn lines(es: &[Error]) -> Vec<String> {
    es.iter()
        .map(|e| format!("{} {e} {:?}", e.severity, e.kind))
        .collect()
}

/// What generated code gives for a type, as the interpreter's results are compared with it.
struct Generated<T: Codec> {
    args: T::Args,
    root: &'static str,
}

impl<T> Generated<T>
where
    T: Codec + serde::Serialize + serde::de::DeserializeOwned,
{
    /// The write of owned value `v`: its bytes and the walk of its positions, or the error.
    fn write(&self, v: &T) -> Result<(Vec<u8>, Vec<String>), String> {
        let mut out = Output::default();
        let pos = v
            .write_out::<true>(&mut out, self.args)
            .map_err(|e| e.to_string())?;
        let mut walked = vec![];
        if let Some(p) = pos {
            crate::rt::Walk::walk(&p, &mut Path::root(self.root), &mut |p, s, f, l| {
                walked.push(format!("{p} {}..{} {} {l}", s.start, s.end, f.id))
            });
        }
        Ok((out.into_vec(), walked))
    }

    /// Compares everything for `bytes`; whether they read.
    fn compare(&self, l: &'static Layout, params: &BTreeMap<String, i128>, bytes: &[u8]) -> bool {
        let plan = l.plan();
        let mut input = Input::new(bytes);
        let g = T::read_in::<true>(&mut input, self.args)
            .map_err(|e| e.rooted(self.root))
            .and_then(|(v, p)| {
                let w = input.finish().map_err(|e| e.rooted(self.root))?;
                let w: Vec<Error> = w.into_iter().map(|e| e.rooted(self.root)).collect();
                Ok((v, p.unwrap_or_default(), w))
            });
        let i = Reader { plan, loc: true }.parse(l.ty, bytes, params);
        let ((gv, gp, mut gw), (iv, ip, mut iw)) = match (g, i) {
            (Ok(g), Ok(i)) => (g, i),
            (Err(a), Err(b)) => {
                assert_eq!(a.to_string(), b.to_string(), "{} bytes", bytes.len());
                assert_eq!(a.kind, b.kind);
                return false;
            }
            (g, i) => panic!(
                "{} bytes: generated {:?}, interpreted {:?}",
                bytes.len(),
                g.err(),
                i.err()
            ),
        };
        T::checks(&gv, &Place::root(&gp, self.root), &mut gw);
        check::checks(plan, l.ty, &iv, &ip, &mut Path::root(self.root), &mut iw);
        assert_eq!(lines(&gw), lines(&iw));
        let mut gwalk = vec![];
        crate::rt::Walk::walk(
            &gp,
            &mut Path::root(self.root),
            &mut |p, s: Span, f, leaf| {
                gwalk.push(format!("{p} {}..{} {} {leaf}", s.start, s.end, f.id))
            },
        );
        let mut iwalk = vec![];
        if let super::Pos::Struct(sp) = &ip {
            walk::walk(
                plan,
                &l.program.infos,
                sp,
                &mut Path::root(self.root),
                &mut |p, s, f, leaf| {
                    iwalk.push(format!("{p} {}..{} {} {leaf}", s.start, s.end, f.id))
                },
            );
        }
        assert_eq!(gwalk, iwalk);
        let (mut gc, mut ic) = (Calls::default(), Calls::default());
        T::visit(&gv, &mut gc);
        walk::visit(plan, &l.program.infos, l.ty, &iv, &mut ic);
        assert_eq!(gc.0, ic.0);
        let owned = T::own(&gv);
        let gd = serde_json::to_value(&owned).unwrap();
        let interp = Owned {
            plan,
            ty: l.ty,
            v: &iv,
        };
        assert_eq!(gd, serde_json::to_value(&interp).unwrap());
        assert_eq!(self.write(&owned), self.interp_write(l, params, &iv));
        true
    }

    fn interp_write(
        &self,
        l: &'static Layout,
        params: &BTreeMap<String, i128>,
        v: &super::Val<'_>,
    ) -> Result<(Vec<u8>, Vec<String>), String> {
        let plan = l.plan();
        let args = super::read::root_args(&plan.types[l.ty], params).unwrap();
        let mut out = Output::default();
        let pos = Writer { plan, loc: true }
            .write_type(&mut out, l.ty, v, &args)
            .map_err(|e| e.to_string())?;
        let mut walked = vec![];
        if let super::Pos::Struct(sp) = &pos {
            walk::walk(
                plan,
                &l.program.infos,
                sp,
                &mut Path::root(self.root),
                &mut |p, s, f, leaf| {
                    walked.push(format!("{p} {}..{} {} {leaf}", s.start, s.end, f.id))
                },
            );
        }
        Ok((out.into_vec(), walked))
    }

    /// Dumps of `v` edited at many places: read by serde and by the interpreter alike, and
    /// what both accept written alike.
    fn edits(&self, l: &'static Layout, params: &BTreeMap<String, i128>, v: &T) -> usize {
        let plan = l.plan();
        let dump = serde_json::to_value(v).unwrap();
        let mut n = 0;
        for (p, _, d) in edited(&dump, 200) {
            let g = serde_path_to_error::deserialize::<_, T>(&d)
                .map_err(|e| format!("{}: {}", e.path(), e.inner()));
            let i = Parser { plan }
                .value(l.ty, &d)
                .map_err(|r| format!("{}: {}", r.path, r.why));
            match (g, i) {
                (Ok(g), Ok(i)) => {
                    assert_eq!(self.write(&g), self.interp_write(l, params, &i), "{p}")
                }
                (g, i) => assert_eq!(g.err(), i.err(), "{p}"),
            }
            n += 1;
        }
        n
    }
}

/// Compares the sample `v`'s bytes, every prefix and every byte changed.
fn every_input<T>(
    gen: &Generated<T>,
    l: &'static Layout,
    params: &BTreeMap<String, i128>,
    v: &T,
) -> usize
where
    T: Codec + serde::Serialize + serde::de::DeserializeOwned,
{
    let (bytes, _) = gen.write(v).unwrap();
    assert!(gen.compare(l, params, &bytes), "the sample reads");
    let mut read = 1;
    for n in 0..bytes.len() {
        read += usize::from(gen.compare(l, params, &bytes[..n]));
        let mut changed = bytes.clone();
        changed[n] ^= 0xFF;
        read += usize::from(gen.compare(l, params, &changed));
        changed[n] ^= 0x7E;
        read += usize::from(gen.compare(l, params, &changed));
    }
    read + gen.edits(l, params, v)
}

#[test]
fn features_read_and_write_the_same_generated_and_interpreted() {
    let l = fixture("features");
    let gen = Generated::<features::Features> {
        args: (),
        root: "features",
    };
    let v = crate::generator_tests::sample();
    let n = every_input(&gen, l, &BTreeMap::new(), &v);
    assert!(n > 500, "{n}");
}

#[test]
fn text_and_order_read_and_write_the_same_generated_and_interpreted() {
    let l = fixture("text_and_order");
    let gen = Generated::<text_and_order::TextAndOrder> {
        args: (),
        root: "text_and_order",
    };
    let mut n = 0;
    for order in [0, 1, 2] {
        for version in [1, 2, 3] {
            let v = crate::generator_tests_text_and_order::sample(order, version);
            let Ok((bytes, _)) = gen.write(&v) else {
                continue;
            };
            // Read back, so that the pads the positions ask for are the ones written.
            let mut input = Input::new(&bytes);
            let (view, _) = text_and_order::TextAndOrder::read_in::<false>(&mut input, ()).unwrap();
            n += every_input(&gen, l, &BTreeMap::new(), &Codec::own(&view));
        }
    }
    assert!(n > 500, "{n}");
}

#[test]
fn unity_names_read_and_write_the_same_generated_and_interpreted() {
    use unity_names::*;
    let l = fixture("unity_names");
    let mut n = 0;
    for version in [30400u32, 40000, 20170300] {
        let newer = version >= 40000;
        let v = UnityNames {
            name: AlignedString {
                len_value: 2,
                value: "ab".into(),
                pad: vec![0; 2],
            },
            num_sub_meshes: 1,
            sub_meshes: vec![SubMesh {
                first_byte: 6,
                base_vertex: (version >= 20170300).then_some(7),
                topology: 0,
            }],
            use_16bit_indices: (version < 30500).then_some(1),
            stream_compression: newer.then_some(0),
            is_readable: 1,
            pad_is_readable: vec![0; if newer { 2 } else { 3 }],
            lod_slope: 1.0,
            lod_bias: 0.5,
            pose: vec![1.0, 2.0, 3.0, 4.0],
        };
        let gen = Generated::<UnityNames> {
            args: (version,),
            root: "unity_names",
        };
        let params = BTreeMap::from([("unity_version".to_string(), i128::from(version))]);
        n += every_input(&gen, l, &params, &v);
    }
    assert!(n > 500, "{n}");
}
