//! Every identifier and runtime path the generated code uses, in one table (as binrw's derive
//! keeps its `sanitization.rs`), so emitters never spell them by hand.

use meshspec_model::{camel, Confidence, Endian, Field, Prim, Spec, Type, TypeEndian};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

/// The runtime crate, by the path that resolves both inside `meshspec-formats` and in a user's
/// crate that depends on `meshspec-runtime` alone.
pub const RUNTIME: &str = "::meshspec_runtime";

/// The runtime crate, as a path.
pub fn rt() -> TokenStream {
    quote!(::meshspec_runtime)
}

/// A path inside the runtime as text, for attributes that take a path as a string
/// (`#[serde(with = "...")]`).
pub fn rt_str(rest: &str) -> String {
    format!("{RUNTIME}::{rest}")
}

/// The serde derives, with the attribute that points them at the runtime's re-export of serde
/// (so a user's crate needs no `serde` dependency of its own).
pub fn serde_derives() -> (TokenStream, TokenStream) {
    let rt = rt();
    let krate = rt_str("serde");
    (
        quote!(#rt::serde::Serialize, #rt::serde::Deserialize),
        quote!(#[serde(crate = #krate)]),
    )
}

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// The Rust identifier of a spec id (raw when it is a keyword).
pub fn ident(id: &str) -> Ident {
    if KEYWORDS.contains(&id) {
        Ident::new_raw(id, Span::call_site())
    } else {
        Ident::new(id, Span::call_site())
    }
}

/// The names [`rt::Place`] uses for itself: a field with one of these ids would hide them.
pub const PLACE_RESERVED: &[&str] = &[
    "at",
    "some",
    "unboxed",
    "violates",
    "error",
    "span",
    "get",
    "field_path",
    "field",
    "root",
];

/// The fields a value of `t` keeps ([`Type::stored`]), as the identifiers that bind them.
pub fn stored(t: &Type) -> impl Iterator<Item = Ident> + '_ {
    t.stored().map(|f| ident(&f.id))
}

/// A local holding a field's recorded position.
pub fn pos_local(f: &Field) -> Ident {
    format_ident!("_p_{}", f.id)
}

/// A local holding how many bytes a field took (for `name._sizeof`).
pub fn sizeof_local(id: &str) -> Ident {
    format_ident!("_sizeof_{}", id)
}

/// The owned type of a spec type.
pub fn owned(t: &Type) -> Ident {
    format_ident!("{}", t.rust)
}

/// The borrowed view of a spec type.
pub fn view(t: &Type) -> Ident {
    format_ident!("{}Ref", t.rust)
}

/// The positions of a spec type.
pub fn pos(t: &Type) -> Ident {
    format_ident!("{}Pos", t.rust)
}

/// The owned enum of a switch field.
pub fn switch_owned(t: &Type, f: &Field) -> Ident {
    format_ident!("{}{}", t.rust, camel(&f.id))
}

/// The view enum of a switch field.
pub fn switch_view(t: &Type, f: &Field) -> Ident {
    format_ident!("{}{}Ref", t.rust, camel(&f.id))
}

/// The positions enum of a switch field.
pub fn switch_pos(t: &Type, f: &Field) -> Ident {
    format_ident!("{}{}Pos", t.rust, camel(&f.id))
}

/// The trait of [`rt::Place`]'s accessors for the positions of a spec type (a trait, because
/// the runtime's type cannot take inherent methods from another crate).
pub fn place(t: &Type) -> Ident {
    format_ident!("{}Place", t.rust)
}

/// A type of the spec by name.
pub fn ty<'s>(spec: &'s Spec, name: &str) -> &'s Type {
    spec.ty(name).expect("the model resolved every type name")
}

/// binrw's name of a byte order.
pub fn order(e: Endian) -> TokenStream {
    let rt = rt();
    match e {
        Endian::Le => quote!(#rt::Endian::Little),
        Endian::Be => quote!(#rt::Endian::Big),
    }
}

/// binrw's byte order of a number of type `t`: its own suffix, else the type's `meta: endian`
/// (a computed one is the `_endian` local the reader and writer set first), else the file's.
pub fn endian(spec: &Spec, t: &Type, p: Prim) -> TokenStream {
    if let Some(e) = p.endian {
        return order(e);
    }
    match &t.endian {
        Some(TypeEndian::Fixed(e)) => order(*e),
        Some(TypeEndian::Switch { .. }) => quote!(_endian),
        // Refused before (gaps.rs).
        Some(TypeEndian::Inherit) => quote!(_endian),
        None => order(spec.endian),
    }
}

/// The Rust type of a number.
pub fn prim(p: Prim) -> Ident {
    format_ident!("{}", p.rust())
}

/// The Rust type of a bit field.
pub fn bits_value(n: u32) -> Ident {
    format_ident!(
        "{}",
        match n {
            1 => "bool",
            2..=8 => "u8",
            9..=16 => "u16",
            17..=32 => "u32",
            _ => "u64",
        }
    )
}

/// The type of an enum of the spec, by name.
pub fn enum_ty(spec: &Spec, name: &str) -> Ident {
    format_ident!(
        "{}",
        spec.enum_def(name)
            .expect("the model resolved every enum name")
            .rust
    )
}

/// The runtime's confidence word, as an `Option`.
pub fn confidence(c: Option<Confidence>) -> TokenStream {
    let rt = rt();
    super::option(c.map(|c| {
        let v = format_ident!("{}", c.title());
        quote!(#rt::Confidence::#v)
    }))
}

/// A relation's constant (`REL_TOTAL_ADDS_UP`).
pub fn rule(id: &str) -> Ident {
    format_ident!("REL_{}", id.to_ascii_uppercase())
}

/// An enum value's constant.
pub fn enum_value(id: &str) -> Ident {
    format_ident!("{}", id.to_ascii_uppercase())
}
