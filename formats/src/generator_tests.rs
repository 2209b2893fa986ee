//! The generator's constructs, end to end: `codegen/fixtures/features.ksy` uses every one, and
//! these tests read, write and break it byte by byte.

use crate::generated::fixtures::features::*;
use crate::rt::{Codec, ErrorKind, Input, Output, Place, Severity, Span, Spanned};

pub(crate) fn sample() -> Features {
    Features {
        version: 3,
        len_name: 0,
        name: "héllo".into(),
        kind: Kind::NESTED,
        flag: true,
        small: 0x55,
        index_count: 0xABCDEF,
        body: FeaturesBody::Nested(Nested {
            count_a: 1,
            count_b: 2,
            values: vec![-1, 2, -3],
            newer: Some(2.5),
        }),
        num_items: 0,
        items: vec![
            Item {
                value: 1,
                trailer: Some(vec![0xAA, 0xBB]),
            },
            Item {
                value: 2,
                trailer: None,
            },
        ],
        len_blob: 0,
        blob: vec![1, 2, 3],
        extra: Some(0x0102_0304),
        class: 0x415D_9568,
        len_part: 0,
        part: Part { words: vec![7, 8] },
        node: Node {
            tag: 0,
            child: Some(Box::new(Node {
                tag: 3,
                child: None,
            })),
        },
        measured: Measured {
            num_parts: 0,
            parts: vec![5, 6, 7],
            len_gap: 0,
            gap: vec![],
            after: 8,
            len_boxed: 0,
            boxed: Node {
                tag: 3,
                child: None,
            },
        },
        total: 0,
        pair: Some(vec![f32::NAN, -0.0]),
        num_points: 0,
        points: vec![
            Point {
                x: -2,
                kind: Kind::PLAIN,
                weight: 100,
            },
            Point {
                x: 300,
                kind: Kind(7),
                weight: 0,
            },
        ],
        tail: vec![9, 9],
    }
}

fn written<T: Codec<Args = ()>>(v: &T) -> crate::rt::Result<Vec<u8>> {
    let mut o = Output::default();
    v.write_out::<false>(&mut o, ())?;
    Ok(o.into_vec())
}

fn write(v: &Features) -> crate::rt::Result<Vec<u8>> {
    written(v)
}

/// Reads exactly `b` as a `T` (the owned value, made from the view).
fn exact<T: Codec<Args = ()>>(b: &[u8], root: &'static str) -> crate::rt::Result<T> {
    let mut i = Input::new(b);
    let (v, _) = T::read_in::<false>(&mut i, ()).map_err(|e| e.rooted(root))?;
    i.finish().map_err(|e| e.rooted(root))?;
    Ok(T::own(&v))
}

fn read(b: &[u8]) -> crate::rt::Result<Features> {
    exact(b, "features")
}

#[test]
fn counts_and_sizes_are_recomputed_and_everything_reads_back() {
    let bytes = write(&sample()).unwrap();
    let back = read(&bytes).unwrap();
    assert_eq!(back.len_name, 6, "UTF-8 bytes of the name");
    assert_eq!(back.num_items, 2);
    assert_eq!(back.len_blob, 3);
    assert_eq!(back.len_part, 8);
    // A NaN in an optional list survives the dump (compared by bits: NaN is not equal to itself).
    let dump = serde_json::to_value(&back).unwrap();
    assert_eq!(dump["pair"], serde_json::json!(["nan:0x7FC00000", -0.0]));
    let again: Features = serde_json::from_value(dump).unwrap();
    assert_eq!(write(&again).unwrap(), bytes);
    let written_back = write(&back).unwrap();
    let mut back = back;
    back.pair = sample().pair.map(|p| {
        p.iter()
            .map(|x| if x.is_nan() { 0.0 } else { *x })
            .collect()
    });
    // Recomputed counts aside, the value is what was written.
    let mut expected = sample();
    expected.pair = Some(vec![0.0, -0.0]);
    expected.len_name = 6;
    expected.num_items = 2;
    expected.measured.num_parts = 3;
    expected.measured.len_boxed = 1;
    expected.len_blob = 3;
    expected.len_part = 8;
    expected.num_points = 2;
    expected.total = 6 + 3 + 2 * 4;
    assert_eq!(back, expected);
    assert_eq!(written_back, bytes);
    // The layout, byte by byte: magic, version, name, kind, then 32 bits of bit fields.
    assert_eq!(&bytes[..2], b"MS");
    assert_eq!(&bytes[2..4], &[3, 0]);
    assert_eq!(bytes[4], 6);
    assert_eq!(&bytes[5..11], "héllo".as_bytes());
    assert_eq!(bytes[11], 2);
    // flag (bit 0) = 1, small (bits 1-7) = 0x55, index_count (bits 8-31) = 0xABCDEF.
    assert_eq!(&bytes[12..16], &[0x55 << 1 | 1, 0xEF, 0xCD, 0xAB]);
    assert_eq!(back.total_len(), 9);
}

#[test]
fn errors_name_offset_field_path_expected_and_found() {
    let bytes = write(&sample()).unwrap();
    let mut bad = bytes.clone();
    bad[0] = b'X';
    let e = read(&bad).unwrap_err();
    assert_eq!(
        e.to_string(),
        "0x0 features.magic: expected 4D 53, found 58 53"
    );
    let mut bad = bytes.clone();
    bad[2] = 9;
    let e = read(&bad).unwrap_err();
    assert_eq!(
        e.to_string(),
        "0x2 features.version: expected >= 1 and <= 3, found 9"
    );
    // The switch's nested values: count_a + count_b elements.
    let mut bad = bytes.clone();
    bad[11] = 7;
    let e = read(&bad).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Switch);
    assert_eq!(e.path_string(), "features.body");
    // Every prefix that cuts into more than the `repeat: eos` tail is refused with an offset
    // inside the input, never a panic.
    for n in 0..bytes.len() - 2 {
        let e = read(&bytes[..n]).unwrap_err();
        assert!(e.offset.is_some_and(|o| o <= n as u64), "{n}: {e}");
    }
    // A trailing byte after `repeat: eos` is part of the tail, so extend the part instead.
    let e = read(&[&bytes[..], &[1]].concat());
    assert_eq!(e.unwrap().tail, vec![9, 9, 1]);
}

#[test]
fn writers_refuse_what_they_cannot_recompute() {
    let mut v = sample();
    v.class = 1;
    let e = write(&v).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert_eq!(e.path_string(), "class");
    let mut v = sample();
    if let FeaturesBody::Nested(n) = &mut v.body {
        n.count_a = 5; // values must then hold count_a + count_b = 7 elements, not 3
    }
    let e = write(&v).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Inconsistent);
    assert_eq!(e.path_string(), "body.values");
    let mut v = sample();
    v.body = FeaturesBody::Plain(Plain { value: 1.0 });
    let e = write(&v).unwrap_err();
    assert_eq!(e.path_string(), "body");
    let mut v = sample();
    v.version = 1; // `extra` must then be absent (and the nested `newer` too)
    if let FeaturesBody::Nested(n) = &mut v.body {
        n.newer = None;
    }
    let e = write(&v).unwrap_err();
    assert_eq!(e.path_string(), "extra");
    let mut v = sample();
    v.small = 200; // b7
    let e = write(&v).unwrap_err();
    assert_eq!(e.path_string(), "small");
    let mut v = sample();
    v.items[1].trailer = Some(vec![1, 2]); // only elements before the last have one
    let e = write(&v).unwrap_err();
    assert_eq!(e.path_string(), "items[1].trailer");
}

#[test]
fn relations_get_constants_and_warning_only_ones_are_listed() {
    assert_eq!(Features::REL_TOTAL_ADDS_UP.id, "total_adds_up");
    assert_eq!(Features::REL_TOTAL_ADDS_UP.owner, "features");
    let ids: Vec<&str> = Features::RELATIONS.iter().map(|r| r.id).collect();
    assert_eq!(
        ids,
        [
            "total_adds_up",
            "tail_matches_version",
            "items_are_small",
            "blob_fits"
        ]
    );
    // `-severity: warning` makes a relation (and only it) warning-only.
    assert_eq!(
        Features::REL_TAIL_MATCHES_VERSION.severity,
        Severity::Warning
    );
    assert_eq!(Features::REL_TOTAL_ADDS_UP.severity, Severity::Error);
}

fn read_measured(b: &[u8]) -> crate::rt::Result<Measured> {
    exact(b, "measured")
}

#[test]
fn sizeof_offsets_use_the_bytes_a_field_took() {
    // `after` is documented at 2 + parts._sizeof: right after the parts and an empty gap.
    let ok = read_measured(&[3, 5, 0, 6, 0, 7, 0, 0, 8, 1, 3]).unwrap();
    assert_eq!((ok.parts.clone(), ok.after), (vec![5, 6, 7], 8));
    let none = read_measured(&[0, 0, 8, 1, 3]).unwrap();
    assert!(none.parts.is_empty());
    // A gap moves `after` away from its documented offset: refused on reading and on writing.
    let e = read_measured(&[3, 5, 0, 6, 0, 7, 0, 1, 0xAA, 8, 1, 3]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "0x9 measured.after: expected the field at offset 0x8 (2 + parts._sizeof), found it at offset 0x9"
    );
    let mut v = ok.clone();
    v.gap = vec![0xAA];
    let e = written(&v).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Offset);
    assert_eq!(e.path_string(), "after");
}

#[test]
fn a_measured_part_that_cannot_be_written_is_refused_at_its_own_path() {
    // `len_boxed` is recomputed by measuring `boxed`; a node whose tag is invalid must be
    // reported at `boxed.tag` and at its real offset, not under `len_boxed`.
    let mut v = read_measured(&[3, 5, 0, 6, 0, 7, 0, 0, 8, 1, 3]).unwrap();
    v.boxed.tag = 5;
    let e = written(&v).unwrap_err();
    assert_eq!(
        e.to_string(),
        "0xA boxed.tag: expected one of 0, 3, found 5"
    );
}

#[test]
fn recursive_values_nest_only_so_deep() {
    // A chain of nodes: tag 0 says a child follows, tag 3 ends it.
    let chain = |children: usize| {
        let mut b = vec![0u8; children];
        b.push(3);
        b
    };
    let read_node = |b: &[u8]| exact::<Node>(b, "node");
    let max = crate::rt::input::MAX_NESTING as usize;
    let mut depth = 0;
    let mut n = read_node(&chain(max)).unwrap();
    while let Some(c) = n.child {
        n = *c;
        depth += 1;
    }
    assert_eq!(depth, max);
    // One level more is refused with an error, not a stack overflow; a long input of zeros
    // (which once nested as deep as it was long) too.
    for len in [max + 1, 100_000] {
        let e = read_node(&chain(len)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Count, "{e}");
        assert_eq!(e.offset, Some(max as u64 + 1));
    }
    // The counter is restored after an error: the same thread reads a chain again.
    assert!(read_node(&chain(max)).is_ok());
}

#[test]
fn lists_of_number_only_types_are_blocks_with_exact_errors() {
    let bytes = write(&sample()).unwrap();
    // The two points are the 8 bytes before the 2-byte tail: x (s2), kind, weight.
    let at = bytes.len() - 2 - 8;
    assert_eq!(&bytes[at..at + 8], &[0xFE, 0xFF, 1, 100, 0x2C, 0x01, 7, 0]);
    assert_eq!(
        read(&bytes).unwrap().points[1].kind,
        Kind(7),
        "unnamed enum values are kept"
    );
    let mut bad = bytes.clone();
    bad[at + 4 + 3] = 101;
    let e = read(&bad).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "0x{:X} features.points[1].weight: expected <= 100, found 101",
            at + 7
        )
    );
    let mut v = sample();
    v.points[0].weight = 200;
    let e = write(&v).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "0x{:X} points[0].weight: expected <= 100, found 200",
            at + 3
        )
    );
    // A point cut short: the list is refused before anything is allocated for it.
    let mut cut = bytes[..at + 1].to_vec();
    cut[at - 1] = 2;
    let e = read(&cut).unwrap_err();
    assert_eq!(
        (e.offset, e.path_string()),
        (Some(at as u64), "features.points".to_string())
    );
    // A single point read on its own at the end of its input falls back to field-by-field
    // reading and names the field it ends in.
    let e = exact::<Point>(&[1, 0, 1][..], "point").unwrap_err();
    assert_eq!(
        e.to_string(),
        "0x3 point.weight: expected u1 (1 byte), found end of input after 0 bytes"
    );
}

/// Reads `b` located: the view and where every field lies.
/// The checks pass's findings on bytes `b`, as their lines.
fn checked(b: &[u8]) -> Vec<String> {
    let (v, p) = located(b);
    let mut out = vec![];
    Features::checks(&v, &Place::root(&p, "features"), &mut out);
    out.iter()
        .map(|e| format!("{} {}", e.severity.word(), e))
        .collect()
}

#[test]
fn relations_stated_as_expressions_are_checked_from_the_spec_alone() {
    let ok = write(&sample()).unwrap();
    assert!(checked(&ok).is_empty(), "{:?}", checked(&ok));
    // The second item's value too large (a per-element check, `_` the element), and a blob of
    // 20 bytes (placed at its length, a warning by its -severity).
    let mut v = sample();
    v.items[1].value = 5000;
    v.blob = vec![9; 20];
    let bad = write(&v).unwrap();
    let (view, pos) = located(&bad);
    let item = Place::root(&pos, "features").items().at(1).span().start;
    let len_blob = Place::root(&pos, "features").len_blob().span().start;
    assert_eq!(
        checked(&bad),
        [
            format!("error 0x{item:X} features.items[1]: expected _.value < 1000 or _index > version with version = 3 (relation `items_are_small`), found _.value = 5000"),
            format!("warning 0x{len_blob:X} features.len_blob: expected len_blob <= 16 and version > 0 with version = 3 (relation `blob_fits`), found 20"),
        ]
    );
    // `_index` is the element's index: past the version's count, an element passes.
    drop(view);
    v.items.extend((0..3).map(|_| Item {
        value: 7000,
        trailer: None,
    }));
    // (Every item but the last has a trailer, as the items' argument says.)
    let last = v.items.len() - 1;
    for (i, item) in v.items.iter_mut().enumerate() {
        item.trailer = (i < last).then(|| vec![0, 0]);
    }
    v.blob = vec![];
    let lines = checked(&write(&v).unwrap());
    let at: Vec<&str> = lines
        .iter()
        .map(|l| {
            l.split(": expected")
                .next()
                .unwrap()
                .rsplit(' ')
                .next()
                .unwrap()
        })
        .collect();
    assert_eq!(
        at,
        [
            "features.items[1]",
            "features.items[2]",
            "features.items[3]"
        ]
    );
}

fn located(b: &[u8]) -> (FeaturesRef<'_>, FeaturesPos) {
    let mut i = Input::new(b);
    let (v, p) = Features::read_in::<true>(&mut i, ()).unwrap();
    i.finish().unwrap();
    (v, p.expect("a located read records positions"))
}

#[test]
fn the_located_reader_records_where_every_field_lies() {
    let bytes = write(&sample()).unwrap();
    let (view, pos) = located(&bytes);
    assert_eq!(pos._span, Span::new(0, bytes.len() as u64));
    assert_eq!(pos.magic, Span::new(0, 2));
    assert_eq!(pos.version, Span::new(2, 4));
    assert_eq!(pos.name, Span::new(5, 11));
    assert_eq!(&bytes[pos.name.range()], view.name.as_bytes());
    // Bit fields share the bytes of their group.
    assert_eq!(
        (pos.flag, pos.index_count),
        (Span::new(12, 16), Span::new(12, 16))
    );
    // A list of fixed-size values is base and stride; its elements are computed.
    let at = bytes.len() as u64 - 2 - 8;
    assert_eq!(pos.points.span(), Span::new(at, at + 8));
    assert_eq!(pos.points.get(1).weight, Span::new(at + 7, at + 8));
    // Variable-size elements keep their own positions, nested values theirs.
    assert_eq!(pos.items.items.len(), 2);
    assert_eq!(pos.items.items[0].trailer.unwrap().len(), 2);
    assert!(pos.items.items[1].trailer.is_none());
    assert_eq!(pos.node.child.as_ref().unwrap().tag.len(), 1);
    // Places name the path in the spec's ids and the offset the reader saw.
    let root = Place::root(&pos, "features");
    let e = root
        .points()
        .at(1)
        .weight()
        .error(ErrorKind::Invalid, "x", "y");
    assert_eq!(
        e.to_string(),
        format!(
            "0x{:X} features.points[1].weight: expected x, found y",
            at + 7
        )
    );
    let e = root.items().at(0).trailer().some().unwrap().violates(
        Features::REL_TOTAL_ADDS_UP,
        "a",
        "b",
    );
    assert_eq!(e.relation_id(), Some("total_adds_up"));
    assert_eq!(e.path_string(), "features.items[0].trailer");
}

#[test]
fn reader_and_writer_record_the_same_positions_and_the_view_owns_to_the_value() {
    let bytes = write(&sample()).unwrap();
    let (view, read_pos) = located(&bytes);
    let mut o = Output::default();
    let write_pos = view.own().write_out::<true>(&mut o, ()).unwrap().unwrap();
    assert_eq!(o.into_vec(), bytes);
    assert_eq!(read_pos, write_pos);
    assert_eq!(
        write(&view.own()).unwrap(),
        write(&read(&bytes).unwrap()).unwrap()
    );
    // The plain reader records nothing.
    let mut i = Input::new(&bytes);
    assert!(Features::read_in::<false>(&mut i, ()).unwrap().1.is_none());
}

/// The leaf spans of a value's positions, with their paths.
fn leaves<P: crate::rt::Walk>(pos: &P, root: &'static str) -> Vec<(String, Span)> {
    let mut out = vec![];
    let mut path = crate::rt::Path::root(root);
    pos.walk(&mut path, &mut |p, span, _info, leaf| {
        if leaf {
            out.push((p.to_string(), span));
        }
    });
    out
}

#[test]
fn the_walk_attributes_every_byte_to_a_field() {
    let bytes = write(&sample()).unwrap();
    let (_, pos) = located(&bytes);
    let leaves = leaves(&pos, "features");
    let mut covered = vec![false; bytes.len()];
    for (_, s) in &leaves {
        for b in &mut covered[s.range()] {
            *b = true;
        }
    }
    assert!(covered.iter().all(|&c| c), "bytes no field accounts for");
    // Fields come in order with their paths, elements of lists by index.
    let paths: Vec<&str> = leaves.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        &paths[..3],
        ["features.magic", "features.version", "features.len_name"]
    );
    assert!(paths.contains(&"features.points[1].weight"));
    assert!(paths.contains(&"features.items[0].trailer"));
    assert!(paths.contains(&"features.node.child.tag"));
    let (p, s) = leaves
        .iter()
        .find(|(p, _)| p == "features.points[1].weight")
        .unwrap();
    assert_eq!((p.as_str(), s.len()), ("features.points[1].weight", 1));
}

#[test]
fn the_visitor_sees_every_value_with_the_specs_facts() {
    struct Tally(Vec<String>, Vec<(String, String)>);
    impl crate::rt::Visitor for Tally {
        fn enter(&mut self, f: &'static crate::rt::FieldInfo) -> bool {
            // No `leave` follows a field the visitor skips.
            if f.id == "body" {
                return false;
            }
            self.0.push(f.id.to_string());
            true
        }
        fn value(&mut self, v: crate::rt::Scalar<'_>) {
            let at = self.0.join(".");
            self.1.push((at, format!("{v:?}")));
        }
        fn leave(&mut self) {
            self.0.pop();
        }
    }
    let bytes = write(&sample()).unwrap();
    let (view, _) = located(&bytes);
    let mut t = Tally(vec![], vec![]);
    Features::visit(&view, &mut t);
    assert!(t.0.is_empty(), "every enter has its leave");
    let get = |k: &str| -> Vec<&str> {
        t.1.iter()
            .filter(|(p, _)| p == k)
            .map(|(_, v)| v.as_str())
            .collect()
    };
    assert_eq!(get("version"), ["U(3)"]);
    assert_eq!(get("name"), ["Str(\"héllo\")"]);
    assert_eq!(get("points.weight"), ["U(100)", "U(0)"]);
    assert_eq!(get("tail"), ["U(9)", "U(9)"]);
    assert_eq!(get("magic"), ["Bytes([77, 83])"]);
    // A skipped field is not looked into.
    assert!(get("body.values").is_empty());
    assert_eq!(Features::INFO.fields[1].id, "version");
    assert_eq!(Features::INFO.fields[1].ty, "u2");
}

#[test]
fn a_layouts_signature_is_its_constants_at_fixed_offsets() {
    use crate::generated::sws_mesh::{MeshBone, SwsMesh};
    use crate::rt::Root;
    // The managed byte and the class constant after the id.
    assert_eq!(
        SwsMesh::SIGNATURE,
        &[(0, &[1u8][..]), (5, &0x415D_9568u32.to_le_bytes()[..])]
    );
    let mut b = vec![0u8; 16];
    b[0] = 1;
    b[5..9].copy_from_slice(&0x415D_9568u32.to_le_bytes());
    assert!(SwsMesh::claims(&b));
    assert!(!SwsMesh::claims(&b[..8]), "cut inside a constant");
    assert!(!MeshBone::claims(&b));
    // A layout with no constants claims nothing.
    assert!(!crate::generated::meshbin::Meshbin::claims(&b));
}
