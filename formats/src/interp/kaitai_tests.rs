//! Kaitai features the gallery's specs use, read by the interpreter: each spec small, its
//! answers those Kaitai's own reader gives.

use crate::context::Context;

/// The answers to `exprs` over `input` read as spec `text` (its `meta.id` is `id`), each as
/// text (an error as `error: ...`); the reading's own error as the one answer.
fn answers(id: &str, text: &str, input: &[u8], exprs: &[&str]) -> Vec<String> {
    let layout = super::load(&format!("{id}.ksy"), text, None).unwrap();
    match layout.query(input, &Context::new(), exprs) {
        Err(e) => vec![format!("error: {e}")],
        Ok(a) => a
            .into_iter()
            .map(|a| match a {
                Ok(a) => a.to_string(),
                Err(e) => format!("error: {e}"),
            })
            .collect(),
    }
}

/// Why the writer refuses spec `text`, if it does.
fn unwritable(id: &str, text: &str) -> Option<String> {
    super::load(&format!("{id}.ksy"), text, None)
        .unwrap()
        .plan()
        .unwritable
        .clone()
}

#[test]
fn an_instance_of_a_nested_value_sizes_a_later_field() {
    let spec = "meta:\n  id: inst_nested\n  endian: le\nseq:\n  - id: header\n    type: hdr\n  - id: body\n    size: header.len_body\n  - id: tail\n    type: u1\ntypes:\n  hdr:\n    seq:\n      - id: a\n        type: u1\n      - id: b\n        type: u1\n    instances:\n      len_body:\n        value: a + b\n";
    let got = answers(
        "inst_nested",
        spec,
        &[1, 2, 0xaa, 0xbb, 0xcc, 7],
        &["body.size", "tail", "header.len_body"],
    );
    assert_eq!(got, ["3", "7", "3"]);
    // The writer has no reading to ask the instance of: it refuses the spec.
    let why = unwritable("inst_nested", spec).unwrap();
    assert!(why.contains("another value's instances"), "{why}");
}

#[test]
fn an_instance_read_from_the_bytes_is_read_once_where_it_is_first_asked() {
    // Kaitai's lazy instance: `_io.pos` is where the list stands when the condition is first
    // evaluated (after element 0: byte 3), and the value is kept; read anew after each
    // element it would move on (and run out of bytes).
    let spec = "meta:\n  id: inst_once\nseq:\n  - id: entries\n    type: u1\n    repeat: until\n    repeat-until: _ == stop\ninstances:\n  stop:\n    pos: _io.pos + 2\n    type: u1\n";
    let got = answers(
        "inst_once",
        spec,
        &[1, 2, 3, 3, 9],
        &["entries.size", "stop"],
    );
    assert_eq!(got, ["3", "3"]);
    // One used as a size before the fields it lies among (dune_2_pak's `dir_size`).
    let spec = "meta:\n  id: inst_size\n  endian: le\nseq:\n  - id: dir\n    size: dir_size\ninstances:\n  dir_size:\n    pos: 0\n    type: u1\n";
    let got = answers("inst_size", spec, &[3, 4, 5, 6], &["dir.size", "dir[2]"]);
    assert_eq!(got, ["3", "5"]);
}

#[test]
fn what_the_compiled_form_cannot_say_is_answered_while_reading() {
    // The size of bytes read from elsewhere.
    let spec = "meta:\n  id: inst_bytes\nseq:\n  - id: dir\n    size: blob.size\ninstances:\n  blob:\n    pos: 0\n    size: 2\n";
    let got = answers("inst_bytes", spec, &[5, 6, 7], &["dir.size", "dir[1]"]);
    assert_eq!(got, ["2", "6"]);
    // A switch's number (dicom's `value_len`: u2 or u4 as a case), text as a number
    // (`.to_i`), a float turned to an integer.
    let spec = "meta:\n  id: dyn_forms\n  endian: le\nseq:\n  - id: wide\n    type: u1\n  - id: len\n    type:\n      switch-on: wide\n      cases:\n        0: u1\n        1: u2\n  - id: a\n    size: len\n  - id: digits\n    type: str\n    size: 1\n    encoding: ASCII\n  - id: b\n    size: digits.to_i\n  - id: half\n    type: f4\n  - id: c\n    size: (half * 2).to_i\n";
    let mut input = vec![1, 2, 0, 0xaa, 0xbb, b'3', 1, 2, 3];
    input.extend(1.0f32.to_le_bytes());
    input.extend([9, 9]);
    let got = answers(
        "dyn_forms",
        spec,
        &input,
        &["len", "a.size", "b.size", "b[2]", "c.size"],
    );
    assert_eq!(got, ["2", "2", "3", "3", "2"]);
    // The writer cannot ask them: it refuses the spec.
    let why = unwritable("dyn_forms", spec).unwrap();
    assert!(why.contains("dyn_forms.a"), "{why}");
}

#[test]
fn a_value_held_in_its_own_type_through_a_switch_nests_as_deep_as_allowed() {
    let spec = "meta:\n  id: sw_rec\nseq:\n  - id: tag\n    type: u1\n  - id: body\n    type:\n      switch-on: tag\n      cases:\n        1: sw_rec\n        0: leaf\ntypes:\n  leaf:\n    seq:\n      - id: v\n        type: u1\n";
    let got = answers("sw_rec", spec, &[1, 1, 0, 7], &["body.body.body.v"]);
    assert_eq!(got, ["7"]);
    // A deep input is refused where it nests too deep, not by the stack.
    let mut deep = vec![1u8; 100_000];
    deep.extend([0, 7]);
    let got = answers("sw_rec", spec, &deep, &["tag"]);
    assert!(got[0].contains("levels of nested values"), "{got:?}");
}

#[test]
fn a_value_keeps_its_arguments() {
    // bmp's `header.len_header`: a parameter of the header's type, asked from outside it.
    let spec = "meta:\n  id: keep_args\nseq:\n  - id: n\n    type: u1\n  - id: header\n    type: hdr(n + 1)\n  - id: body\n    size: header.len\ntypes:\n  hdr:\n    params:\n      - id: len\n        type: u1\n    seq:\n      - id: x\n        type: u1\n";
    let got = answers(
        "keep_args",
        spec,
        &[1, 9, 5, 6, 7],
        &["body.size", "header.len", "header.x"],
    );
    assert_eq!(got, ["2", "2", "9"]);
}

#[test]
fn an_element_sees_the_elements_read_before_it() {
    // vlq_base128_le: each group's argument is the previous group's running value.
    let spec = "meta:\n  id: growing\nseq:\n  - id: groups\n    type: 'group(_index != 0 ? groups[_index - 1].total : 0)'\n    repeat: until\n    repeat-until: _.v == 0\ntypes:\n  group:\n    params:\n      - id: before\n        type: u2\n    seq:\n      - id: v\n        type: u1\n    instances:\n      total:\n        value: before + v\n";
    let got = answers(
        "growing",
        spec,
        &[3, 4, 5, 0, 9],
        &["groups.size", "groups[2].total", "groups[3].total"],
    );
    assert_eq!(got, ["4", "12", "12"]);
    // A condition of the whole list does not see it (it is not read yet).
    let bad = "meta:\n  id: growing_bad\nseq:\n  - id: xs\n    type: u1\n    repeat: expr\n    repeat-expr: xs.size\n";
    let e = super::load("growing_bad.ksy", bad, None)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("`xs` is read after this expression"), "{e}");
}

#[test]
fn a_check_names_its_own_field_as_the_value_just_read() {
    // vlq_base128_le's `has_next`: `valid: 'idx == 9 ? false : has_next'`.
    let spec = "meta:\n  id: valid_self\n  bit-endian: be\nseq:\n  - id: last\n    type: u1\n  - id: flag\n    type: b1\n    valid: 'last == 1 ? false : flag'\n  - id: rest\n    type: b7\n";
    assert_eq!(answers("valid_self", spec, &[0, 0x80], &["flag"]), ["true"]);
    assert_eq!(
        answers("valid_self", spec, &[1, 0x00], &["flag"]),
        ["false"]
    );
    let got = answers("valid_self", spec, &[1, 0x80], &["flag"]);
    assert!(got[0].starts_with("error:"), "{got:?}");
}

#[test]
fn a_byte_order_calculated_from_the_values_read_before_is_inherited_inside() {
    // exif/elf/pcap: the body's order from the root's magic; the types inside the body, and a
    // number as a switch's case, take it; an instance read from the bytes too.
    let spec = "meta:\n  id: endian_calc\nseq:\n  - id: magic\n    size: 2\n  - id: body\n    type: body\ntypes:\n  body:\n    meta:\n      endian:\n        switch-on: _root.magic\n        cases:\n          '[0x4d, 0x4d]': be\n          _: le\n    seq:\n      - id: a\n        type: u2\n      - id: inner\n        type: inner\n    types:\n      inner:\n        seq:\n          - id: b\n            type: u2\n          - id: c\n            type:\n              switch-on: 1\n              cases:\n                1: u2\n        instances:\n          at0:\n            pos: 2\n            type: u2\n";
    let exprs = ["body.a", "body.inner.b", "body.inner.c", "body.inner.at0"];
    let be = answers("endian_calc", spec, &[0x4d, 0x4d, 0, 1, 0, 2, 0, 3], &exprs);
    assert_eq!(be, ["1", "2", "3", "1"]);
    let le = answers("endian_calc", spec, &[0x49, 0x49, 1, 0, 2, 0, 3, 0], &exprs);
    assert_eq!(le, ["1", "2", "3", "1"]);
    let why = unwritable("endian_calc", spec).unwrap();
    assert!(
        why.contains("a byte order from the values it is read in"),
        "{why}"
    );
}

#[test]
fn contents_with_a_condition_or_a_repeat_are_checked_where_they_are() {
    let spec = "meta:\n  id: contents_vary\nseq:\n  - id: has\n    type: u1\n  - id: magic\n    contents: [0xca, 0xfe]\n    if: has == 1\n  - id: marks\n    contents: 'ab'\n    repeat: expr\n    repeat-expr: 2\n  - id: end\n    type: u1\n";
    let got = answers(
        "contents_vary",
        spec,
        &[1, 0xca, 0xfe, b'a', b'b', b'a', b'b', 9],
        &["end", "marks.size"],
    );
    assert_eq!(got, ["9", "2"]);
    let got = answers(
        "contents_vary",
        spec,
        &[0, b'a', b'b', b'a', b'b', 9],
        &["end", "magic"],
    );
    assert_eq!(got, ["9", "null"]);
    // Other bytes where they are present are refused.
    let got = answers(
        "contents_vary",
        spec,
        &[0, b'a', b'b', b'a', b'x', 9],
        &["end"],
    );
    assert!(got[0].starts_with("error:"), "{got:?}");
    let why = unwritable("contents_vary", spec).unwrap();
    assert!(
        why.contains("a contents field with a condition or a repeat"),
        "{why}"
    );
}

#[test]
fn a_fixed_size_is_known_before_its_field_and_io_pos_is_an_argument() {
    // dbf: `header_terminator._sizeof` of a contents field read later; utf8_string:
    // `_io.pos` passed to a type.
    let spec = "meta:\n  id: sizeof_later\nseq:\n  - id: a\n    size: 3 - term._sizeof\n  - id: term\n    contents: [0x0d]\n  - id: p\n    type: at(_io.pos)\ntypes:\n  at:\n    params:\n      - id: where\n        type: u1\n    seq:\n      - id: v\n        type: u1\n    instances:\n      here:\n        value: where\n";
    let got = answers(
        "sizeof_later",
        spec,
        &[1, 2, 0x0d, 7],
        &["a.size", "p.here", "p.v"],
    );
    assert_eq!(got, ["2", "3", "7"]);
}

#[test]
fn a_value_instance_that_is_another_value_is_asked_for_its_fields() {
    // android_bootldr_qcom: `img_header: value: _root.img_headers[idx]`, then
    // `size: img_header.len_body`; mcap/pif: the fixed size of another value's field.
    let spec = "meta:\n  id: inst_value\nseq:\n  - id: headers\n    type: hdr\n    repeat: expr\n    repeat-expr: 2\n  - id: bodies\n    type: body(_index)\n    repeat: expr\n    repeat-expr: 2\n  - id: tail\n    size: _root.one.len._sizeof + one.pad._sizeof\n  - id: one\n    type: hdr\ntypes:\n  hdr:\n    seq:\n      - id: len\n        type: u1\n      - id: pad\n        type: u1\n  body:\n    params:\n      - id: idx\n        type: u1\n    seq:\n      - id: data\n        size: header.len\n    instances:\n      header:\n        value: _root.headers[idx]\n";
    let input = [1, 0, 2, 0, 0xa, 0xb, 0xc, 1, 2, 5, 6];
    let got = answers(
        "inst_value",
        spec,
        &input,
        &[
            "bodies[0].data.size",
            "bodies[1].data[1]",
            "tail.size",
            "one.pad",
        ],
    );
    assert_eq!(got, ["1", "12", "2", "6"]);
}

#[test]
fn bit_fields_with_conditional_ones_are_read_bit_by_bit() {
    // rtcp_payload: a flag, then fields of one width or another by it, sharing bytes.
    let be = "meta:\n  id: bits_cond_be\n  bit-endian: be\nseq:\n  - id: t\n    type: b1\n  - id: s2\n    type: b2\n    if: not t\n  - id: s1\n    type: b1\n    if: t\n  - id: rest\n    type: b13\n    if: not t\n  - id: list\n    type: b14\n    if: t\n  - id: after\n    type: u1\n";
    // 0b0_10_00000 0b00000101: t = 0, s2 = 2, rest = 5.
    let got = answers(
        "bits_cond_be",
        be,
        &[0b0100_0000, 0b0000_0101, 9],
        &["t", "s2", "s1", "rest", "after"],
    );
    assert_eq!(got, ["false", "2", "null", "5", "9"]);
    // 0b1_1_000000 0b00000011: t = 1, s1 = 1, list = 3.
    let got = answers(
        "bits_cond_be",
        be,
        &[0b1100_0000, 0b0000_0011, 9],
        &["s1", "list", "s2"],
    );
    assert_eq!(got, ["true", "3", "null"]);
    let le = be
        .replace("bits_cond_be", "bits_cond_le")
        .replace("bit-endian: be", "bit-endian: le");
    // Little endian: from the lowest bit. t = 0 (bit 0), s2 = 0b11 (bits 1-2), rest = 1.
    let got = answers(
        "bits_cond_le",
        &le,
        &[0b0000_1110, 0, 9],
        &["t", "s2", "rest", "after"],
    );
    assert_eq!(got, ["false", "3", "1", "9"]);
    // `_io.eof` is false while bits of the last byte are left (Kaitai's expr_io_eof_bits).
    let eof = "meta:\n  id: bits_eof\nseq:\n  - id: a\n    type: b4\n  - id: b\n    type: b4\n    if: not _io.eof\n";
    assert_eq!(answers("bits_eof", eof, &[0x5a], &["b"]), ["10"]);
    let why = unwritable("bits_cond_le", &le).unwrap();
    assert!(why.contains("a conditional or repeated bit field"), "{why}");
}

#[test]
fn a_repeated_bit_field_takes_its_elements_one_after_another_in_the_bits() {
    let spec = "meta:\n  id: bits_rep\nseq:\n  - id: nibbles\n    type: b4\n    repeat: expr\n    repeat-expr: 3\n  - id: after\n    type: u1\n  - id: flags\n    type: b1\n    repeat: eos\n";
    // 0x12 0x3f: nibbles 1, 2, 3 (the last 4 bits skipped), then 9, then 8 flags.
    let got = answers(
        "bits_rep",
        spec,
        &[0x12, 0x3f, 9, 0b1010_0000],
        &["nibbles", "after", "flags.size", "flags[0]", "flags[1]"],
    );
    assert_eq!(got, ["[1, 2, 3]", "9", "8", "true", "false"]);
    let why = unwritable("bits_rep", spec).unwrap();
    assert!(why.contains("a conditional or repeated bit field"), "{why}");
}

#[test]
fn a_type_read_through_size_eos_counts_io_pos_from_where_it_starts() {
    let spec = "meta:\n  id: eos_pos\nseq:\n  - id: skip\n    type: u1\n  - id: rest\n    type: tail\n    size-eos: true\ntypes:\n  tail:\n    seq:\n      - id: a\n        type: u1\n      - id: b\n        size: _io.pos + 1\n";
    let got = answers("eos_pos", spec, &[0, 1, 2, 3], &["rest.a", "rest.b.size"]);
    assert_eq!(got, ["1", "2"]);
}

/// A sized switch (glTF's chunks: the length, the type, then a part of that length read as
/// the type's case) is written back: dump then build gives the bytes back, and an edit that
/// no longer fills the stated size is refused at the part, never written.
#[test]
fn a_sized_switch_is_written_back_within_its_size() {
    let spec = "meta:\n  id: sized_sw\n  endian: le\nseq:\n  - id: chunks\n    type: chunk\n    repeat: eos\ntypes:\n  chunk:\n    seq:\n      - id: len_data\n        type: u4\n      - id: kind\n        type: u1\n      - id: data\n        size: len_data\n        type:\n          switch-on: kind\n          cases:\n            1: text_chunk\n            2: words\n  text_chunk:\n    seq:\n      - id: text\n        type: str\n        size-eos: true\n        encoding: UTF-8\n  words:\n    seq:\n      - id: items\n        type: u2\n        repeat: eos\n";
    assert_eq!(unwritable("sized_sw", spec), None);
    let input: &[u8] = &[
        3, 0, 0, 0, 1, b'a', b'b', b'c', //
        4, 0, 0, 0, 2, 1, 0, 2, 0,
    ];
    let e = crate::layouts::Entry::interpret("sized_sw.ksy", spec, None).unwrap();
    let ctx = Context::new();
    assert!(e.judge(input, &ctx).passes());
    assert_eq!(e.read(input, &ctx).write_back(&ctx).unwrap(), input);
    let dump = e.dump(input, &ctx).unwrap();
    let built = e.build(&dump, &ctx).unwrap();
    assert_eq!(built.bytes, input);
    assert!(built.verdict.passes());
    // The text made longer than the 3 bytes `len_data` states: refused, at the part.
    let mut edited = dump.clone();
    edited["data"]["chunks"][0]["data"]["TextChunk"]["text"] = "abcd".into();
    let err = e.build(&edited, &ctx).unwrap_err();
    assert!(
        err.to_string().contains("a part of 3 bytes") && err.to_string().contains("chunks[0].data"),
        "{err}"
    );
}
