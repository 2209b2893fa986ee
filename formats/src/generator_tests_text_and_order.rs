//! The constructs game files need, end to end: `codegen/fixtures/text_and_order.ksy` uses
//! each (`strz`, a type's own byte order, fixed or computed, `_io.pos`, conditional fields in
//! expressions, `.to_i`, enum `-orig-id`, a list of the type itself), and these tests read,
//! write and break it byte by byte.

use crate::generated::fixtures::text_and_order::*;
use crate::rt::{Codec, ErrorKind, Input, Output};

/// The bytes a value writes.
fn written<T: Codec<Args = ()>>(v: &T) -> crate::rt::Result<Vec<u8>> {
    let mut o = Output::default();
    v.write_out::<false>(&mut o, ())?;
    Ok(o.into_vec())
}

/// The value at the start of `b` (the owned value, made from the view).
fn read<T: Codec<Args = ()>>(b: &[u8]) -> crate::rt::Result<T> {
    let mut i = Input::new(b);
    let (v, _) = T::read_in::<false>(&mut i, ())?;
    Ok(T::own(&v))
}

fn item(value: i64, tag: u8) -> Item {
    Item {
        pad: vec![],
        value,
        tag,
    }
}

pub(crate) fn sample(order: u8, version: u32) -> TextAndOrder {
    TextAndOrder {
        magic: "TAO".into(),
        version,
        pad: None,
        order,
        wide: (version >= 3).then_some(Wide { len_extra: 2 }),
        len_body: 49,
        body: Body {
            name: "héllo".into(),
            kind: Kind::AABB,
            extra: Some(0x0102),
            num_items: 2,
            items: vec![item(-2, 7), item(0x0102_0304_0506_0708, 9)],
        },
        guarded: vec![0xAA; if version >= 3 { 2 } else { 1 }],
        unguarded: None,
        tree: Tree {
            label: 1,
            num_children: 1,
            children: vec![Tree {
                label: 2,
                num_children: 0,
                children: vec![],
            }],
        },
        little: Little {
            word: 0x1122_3344,
            word_be: 0x1122_3344,
        },
    }
}

/// Fills in what the writer recomputes or what padding a position asks for, as the reader
/// would see it: written, read back.
fn normalised(v: &TextAndOrder) -> (Vec<u8>, TextAndOrder) {
    let bytes = written(v).expect("the sample writes");
    let back = read::<TextAndOrder>(&bytes).expect("reads back");
    (bytes, back)
}

fn fix_pads(v: &mut TextAndOrder) {
    // `magic` "TAO\0" and `version` end at 8: 8 bytes of padding to 16 at the top level.
    if v.version >= 2 {
        v.pad = Some(vec![0; 8]);
        v.unguarded = v
            .wide
            .as_ref()
            .map(|w| vec![0x55; usize::from(w.len_extra)]);
    }
    // Inside the body (its own stream): "héllo\0" (7) + kind (4) + extra (2) + count (4) = 17,
    // so the first item is padded by 7 to 24, counted from the body's start, not the file's.
    v.body.items[0].pad = vec![0; 7];
    // item 0 ends at 24 + 9 = 33: the second is padded by 7 to 40.
    v.body.items[1].pad = vec![0; 7];
}

#[test]
fn both_byte_orders_round_trip_with_positions_counted_per_stream() {
    for order in [0u8, 1] {
        let mut v = sample(order, 3);
        fix_pads(&mut v);
        let (bytes, back) = normalised(&v);
        assert_eq!(back, v, "order {order}");
        // The body starts after "TAO\0", version, 8 pad, order, len_extra, len_body: at 23,
        // an odd offset, so padding counted from the file's start would differ.
        let body = 16 + 1 + 2 + 4;
        assert_eq!(
            crate::rt::pod::get::<u32>(&bytes, 19, binrw::Endian::Big),
            49
        );
        let kind = &bytes[body + 7..body + 11];
        if order == 0 {
            assert_eq!(kind, [0, 0, 0, 0x80]);
        } else {
            assert_eq!(kind, [0x80, 0, 0, 0]);
        }
        let value = &bytes[body + 24..body + 32];
        let expected: [u8; 8] = if order == 0 {
            (-2i64).to_le_bytes()
        } else {
            (-2i64).to_be_bytes()
        };
        assert_eq!(value, expected);
        // A type with its own fixed order: `word` little endian, `word_be` big endian.
        let n = bytes.len();
        assert_eq!(
            bytes[n - 8..],
            [0x44, 0x33, 0x22, 0x11, 0x11, 0x22, 0x33, 0x44]
        );
        // Written back identically.
        assert_eq!(written(&back).unwrap(), bytes);
    }
}

#[test]
fn a_byte_order_without_a_case_is_refused_where_the_value_starts() {
    let mut v = sample(1, 3);
    fix_pads(&mut v);
    let (mut bytes, _) = normalised(&v);
    bytes[16] = 2;
    let e = read::<TextAndOrder>(&bytes[..]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Switch);
    assert_eq!(e.offset, Some(23));
    assert_eq!(e.expected, "`is_be` to be one of 0, 1 (the byte order)");
    assert_eq!(e.found, "2");
    assert_eq!(e.path_string(), "body");
    // The writer refuses the same value.
    let mut w = v.clone();
    w.order = 2;
    let e = written(&w).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Switch);
}

#[test]
fn padding_follows_the_position_it_is_written_at() {
    let mut v = sample(0, 3);
    fix_pads(&mut v);
    // Stored bytes of the length the position needs are kept, whatever they hold.
    v.body.items[1].pad = vec![0xAB; 7];
    let (bytes, back) = normalised(&v);
    assert_eq!(back.body.items[1].pad, vec![0xAB; 7]);
    // A pad of another length (as a dump edited elsewhere leaves it) is written as the zeros
    // its position needs, counted from the body's start (17 bytes in: 7 to 24), not the file's
    // (23 + 17 = 40, a multiple of 8, where it would be empty).
    v.body.items[0].pad = vec![];
    let (again, back) = normalised(&v);
    assert_eq!(back.body.items[0].pad, vec![0; 7]);
    assert_eq!(again, bytes, "the fixed pads were zeros already");
    // And a pad the position makes shorter loses its stored bytes.
    v.body.items[1].pad = vec![0xAB; 9];
    let (_, back) = normalised(&v);
    assert_eq!(back.body.items[1].pad, vec![0; 7]);
}

#[test]
fn conditional_fields_in_expressions_read_when_present_and_fail_when_absent() {
    // Version 1: no `wide`; `guarded` falls back to 1 byte, `unguarded` is not read.
    let mut v1 = sample(0, 1);
    fix_pads(&mut v1);
    let (bytes, back) = normalised(&v1);
    assert_eq!(back.guarded, vec![0xAA]);
    assert!(back.unguarded.is_none() && back.wide.is_none());
    assert_eq!(back.body.extra, Some(0x0102), "kind.to_i >= 0x80000000");
    assert!(!bytes.is_empty());
    // Version 2: `unguarded` reads `wide.len_extra`, but `wide` needs version 3.
    let mut v2 = sample(0, 2);
    fix_pads(&mut v2);
    v2.unguarded = Some(vec![]);
    let e = written(&v2).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert_eq!(
        e.expected,
        "`wide` to be present where an expression reads it"
    );
    assert_eq!(e.path_string(), "unguarded");
    let mut bytes2 = bytes.clone();
    // Make the version-1 file claim version 2 and add the padding: the reader fails the same way.
    bytes2[7] = 2;
    bytes2.splice(8..8, [0u8; 8]);
    let e = read::<TextAndOrder>(&bytes2[..]).unwrap_err();
    assert_eq!(
        e.expected,
        "`wide` to be present where an expression reads it"
    );
    assert_eq!(e.offset, Some(0));
}

#[test]
fn enum_values_keep_their_source_names() {
    assert_eq!(Kind::AABB.orig_id(), Some("AABB"));
    assert_eq!(Kind::PPTR_OBJECT.orig_id(), Some("PPtr<Object>"));
    assert_eq!(Kind::PLAIN.orig_id(), None);
    assert_eq!(Kind(0x8000_0001).orig_id(), None);
    assert_eq!(Kind::PPTR_OBJECT.name(), Some("pptr_object"));
}

#[test]
fn text_without_its_terminator_is_refused() {
    let e = read::<TextAndOrder>(&b"TA"[..]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Eof);
    assert_eq!(e.to_string(), "0x0 magic: expected text ended by a NUL byte, found end of input after 2 bytes without one");
    let mut v = sample(0, 1);
    v.body.name = "a\0b".into();
    let e = written(&v).unwrap_err();
    assert_eq!(e.path_string(), "body.name");
    assert_eq!(e.kind, ErrorKind::Inconsistent);
}

#[test]
fn a_tree_of_lists_nests_at_most_the_bounded_depth() {
    fn chain(depth: usize) -> Vec<u8> {
        let mut out = vec![];
        for i in 0..depth {
            out.extend([i as u8, u8::from(i + 1 < depth)]);
        }
        out
    }
    let ok = chain(crate::rt::input::MAX_NESTING as usize);
    let t = read::<Tree>(&ok[..]).unwrap();
    assert_eq!(t.children[0].label, 1);
    let deep = chain(crate::rt::input::MAX_NESTING as usize + 2);
    let e = read::<Tree>(&deep[..]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Count);
    assert!(e.expected.contains("levels of nested values"), "{e}");
}
