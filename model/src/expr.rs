//! Kaitai expressions: integer, float, text and boolean literals, arrays (`[1, 2]`), field
//! names, `a.b`, `a[i]`, method calls (`s.substring(1, 3)`), casts (`x.as<t>`),
//! `sizeof<t>`/`bitsizeof<t>`, `enum::value` (also through types: `t::e::value`), arithmetic,
//! comparison, `and`/`or`/`not` and `c ? a : b`. Parsing accepts the whole language; what each
//! consumer (generator, interpreter) evaluates is its own question, refused where it cannot.

use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Int {
        value: i128,
        hex: bool,
    },
    Bool(bool),
    /// A float literal (`1.5`, `1e3`).
    Float(f64),
    /// A text literal (`"abc"`, `'abc'`).
    Str(String),
    /// An array literal (`[0x1, 2]`).
    Array(Vec<Expr>),
    Name(String),
    /// `a[i]`
    Index(Box<Expr>, Box<Expr>),
    /// `a.name(args)`: a method (`substring`, `to_s`, `to_i`).
    Call(Box<Expr>, String, Vec<Expr>),
    /// `a.as<type>`
    Cast(Box<Expr>, String),
    /// `sizeof<type>` (bytes) or `bitsizeof<type>` (bits).
    SizeOf {
        ty: String,
        bits: bool,
    },
    /// `a.b` (field access, or `.size`)
    Attr(Box<Expr>, String),
    /// `enum_name::value`; the enum's name may be a path through types (`t::e`).
    EnumVal(String, String),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum UnOp {
    Neg,
    Not,
    BitNot,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl BinOp {
    fn prec(self) -> u8 {
        use BinOp::*;
        match self {
            Or => 1,
            And => 2,
            Eq | Ne | Lt | Le | Gt | Ge => 3,
            BitOr => 4,
            BitXor => 5,
            BitAnd => 6,
            Shl | Shr => 7,
            Add | Sub => 8,
            Mul | Div | Rem => 9,
        }
    }
    pub fn text(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Shl => "<<",
            Shr => ">>",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            And => "and",
            Or => "or",
        }
    }
    pub fn is_compare(self) -> bool {
        use BinOp::*;
        matches!(self, Eq | Ne | Lt | Le | Gt | Ge)
    }
    pub fn is_logic(self) -> bool {
        matches!(self, BinOp::And | BinOp::Or)
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Int(i128, bool),
    Float(f64),
    Str(String),
    Ident(String),
    Op(&'static str),
}

fn lex(s: &str) -> Result<Vec<Tok>, String> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    const OPS: [&str; 27] = [
        "::", "<<", ">>", "<=", ">=", "==", "!=", "+", "-", "*", "/", "%", "&", "|", "^", "<", ">",
        "(", ")", ".", "?", ":", "~", "!", "[", "]", ",",
    ];
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'"' || c == b'\'' {
            let (text, end) = string(s, i)?;
            out.push(Tok::Str(text));
            i = end;
        } else if let Some((x, end)) = float(s, i) {
            out.push(Tok::Float(x));
            i = end;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let text: String = s[start..i].chars().filter(|&c| c != '_').collect();
            let (digits, radix, hex) = if let Some(h) = text.strip_prefix("0x") {
                (h, 16, true)
            } else if let Some(bin) = text.strip_prefix("0b") {
                (bin, 2, false)
            } else {
                (text.as_str(), 10, false)
            };
            let v = i128::from_str_radix(digits, radix)
                .map_err(|_| format!("bad number `{}`", &s[start..i]))?;
            out.push(Tok::Int(v, hex));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Ident(s[start..i].to_string()));
        } else if let Some(op) = OPS.iter().find(|op| s[i..].starts_with(**op)) {
            out.push(Tok::Op(op));
            i += op.len();
        } else {
            return Err(format!("unexpected character `{}`", c as char));
        }
    }
    Ok(out)
}

/// A float literal starting at `i` (digits with a fraction or an exponent), and where it ends.
fn float(s: &str, i: usize) -> Option<(f64, usize)> {
    let b = s.as_bytes();
    let digits = |mut j: usize| {
        while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'_') {
            j += 1;
        }
        j
    };
    if !b[i].is_ascii_digit() || s[i..].starts_with("0x") || s[i..].starts_with("0b") {
        return None;
    }
    let mut j = digits(i);
    let mut is_float = false;
    if j + 1 < b.len() && b[j] == b'.' && b[j + 1].is_ascii_digit() {
        j = digits(j + 1);
        is_float = true;
    } else if j < b.len()
        && b[j] == b'.'
        && !b
            .get(j + 1)
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
    {
        // `24000.`: a float with no digits after its point (not a method: `1.to_s`).
        j += 1;
        is_float = true;
    }
    if j < b.len() && matches!(b[j], b'e' | b'E') {
        let mut k = j + 1;
        if k < b.len() && matches!(b[k], b'+' | b'-') {
            k += 1;
        }
        if k < b.len() && b[k].is_ascii_digit() {
            j = digits(k);
            is_float = true;
        }
    }
    if !is_float {
        return None;
    }
    let text: String = s[i..j].chars().filter(|&c| c != '_').collect();
    text.parse().ok().map(|x| (x, j))
}

/// A text literal starting at `i` and where it ends: `"..."` takes escapes (`\n`, `\t`,
/// `\\`, `\"`, `\xNN`, `\uNNNN`, octal `\NNN`), `'...'` is verbatim.
fn string(s: &str, i: usize) -> Result<(String, usize), String> {
    let quote = s.as_bytes()[i] as char;
    let mut out = String::new();
    let mut chars = s[i + 1..].char_indices();
    while let Some((k, c)) = chars.next() {
        if c == quote {
            return Ok((out, i + 1 + k + 1));
        }
        if c != '\\' || quote == '\'' {
            out.push(c);
            continue;
        }
        let Some((_, e)) = chars.next() else { break };
        let mut hex = |n: usize| -> Result<char, String> {
            let digits: String = (0..n)
                .filter_map(|_| chars.next().map(|(_, c)| c))
                .collect();
            u32::from_str_radix(&digits, 16)
                .ok()
                .and_then(char::from_u32)
                .ok_or_else(|| format!("bad escape `\\{e}{digits}`"))
        };
        out.push(match e {
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            'a' => '\u{7}',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'v' => '\u{b}',
            'e' => '\u{1b}',
            'x' => hex(2)?,
            'u' => hex(4)?,
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                let rest = chars.as_str();
                let more: String = rest.chars().take(2).take_while(|c| c.is_digit(8)).collect();
                for c in more.chars() {
                    v = v * 8 + c.to_digit(8).unwrap_or(0);
                    chars.next();
                }
                char::from_u32(v).unwrap_or('\0')
            }
            other => other,
        });
    }
    Err("text literal without its closing quote".into())
}

struct Parser {
    toks: Vec<Tok>,
    i: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i)
    }
    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.i).cloned();
        self.i += 1;
        t
    }
    fn eat(&mut self, op: &str) -> bool {
        match self.peek() {
            Some(Tok::Op(o)) if *o == op => {
                self.i += 1;
                true
            }
            _ => false,
        }
    }
    fn binop(&self) -> Option<BinOp> {
        use BinOp::*;
        Some(match self.peek()? {
            Tok::Op(o) => match *o {
                "+" => Add,
                "-" => Sub,
                "*" => Mul,
                "/" => Div,
                "%" => Rem,
                "<<" => Shl,
                ">>" => Shr,
                "&" => BitAnd,
                "|" => BitOr,
                "^" => BitXor,
                "==" => Eq,
                "!=" => Ne,
                "<" => Lt,
                "<=" => Le,
                ">" => Gt,
                ">=" => Ge,
                _ => return None,
            },
            Tok::Ident(w) if w == "and" => And,
            Tok::Ident(w) if w == "or" => Or,
            _ => return None,
        })
    }
    fn expr(&mut self) -> Result<Expr, String> {
        let c = self.binary(0)?;
        if self.eat("?") {
            let a = self.expr()?;
            if !self.eat(":") {
                return Err("expected `:` in `c ? a : b`".into());
            }
            let b = self.expr()?;
            return Ok(Expr::Cond(Box::new(c), Box::new(a), Box::new(b)));
        }
        Ok(c)
    }
    fn binary(&mut self, min: u8) -> Result<Expr, String> {
        let mut lhs = self.unary()?;
        while let Some(op) = self.binop() {
            if op.prec() <= min {
                break;
            }
            self.i += 1;
            let rhs = self.binary(op.prec())?;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }
    fn unary(&mut self) -> Result<Expr, String> {
        if self.eat("-") {
            return Ok(Expr::Unary(UnOp::Neg, Box::new(self.unary()?)));
        }
        // Kaitai's unary plus: the value itself.
        if self.eat("+") {
            return self.unary();
        }
        if self.eat("~") {
            return Ok(Expr::Unary(UnOp::BitNot, Box::new(self.unary()?)));
        }
        if self.peek() == Some(&Tok::Ident("not".into())) {
            self.i += 1;
            return Ok(Expr::Unary(UnOp::Not, Box::new(self.unary()?)));
        }
        self.postfix()
    }
    fn postfix(&mut self) -> Result<Expr, String> {
        let mut e = self.atom()?;
        loop {
            if self.eat("[") {
                let i = self.expr()?;
                if !self.eat("]") {
                    return Err("expected `]`".into());
                }
                e = Expr::Index(Box::new(e), Box::new(i));
                continue;
            }
            if !self.eat(".") {
                return Ok(e);
            }
            match self.next() {
                Some(Tok::Ident(name)) if name == "as" && self.eat("<") => {
                    e = Expr::Cast(Box::new(e), self.type_name()?);
                }
                Some(Tok::Ident(name)) => {
                    if self.eat("(") {
                        let args = self.list(")")?;
                        e = Expr::Call(Box::new(e), name, args);
                    } else {
                        e = Expr::Attr(Box::new(e), name)
                    }
                }
                other => return Err(format!("expected a name after `.`, found {other:?}")),
            }
        }
    }
    /// Expressions separated by commas up to `close` (already opened).
    fn list(&mut self, close: &str) -> Result<Vec<Expr>, String> {
        let mut out = vec![];
        if self.eat(close) {
            return Ok(out);
        }
        loop {
            out.push(self.expr()?);
            if self.eat(close) {
                return Ok(out);
            }
            if !self.eat(",") {
                return Err(format!("expected `,` or `{close}`"));
            }
            // A trailing comma (`[1, 2,]`).
            if self.eat(close) {
                return Ok(out);
            }
        }
    }
    /// A type name up to `>` (after `<`): `u4`, `a::b`, `str`.
    fn type_name(&mut self) -> Result<String, String> {
        let mut out = String::new();
        loop {
            match self.next() {
                Some(Tok::Op(">")) if !out.is_empty() => return Ok(out),
                Some(Tok::Ident(w)) => out.push_str(&w),
                Some(Tok::Op("::")) => out.push_str("::"),
                other => return Err(format!("expected a type name in `<...>`, found {other:?}")),
            }
        }
    }
    fn atom(&mut self) -> Result<Expr, String> {
        match self.next() {
            Some(Tok::Int(v, hex)) => Ok(Expr::Int { value: v, hex }),
            Some(Tok::Float(x)) => Ok(Expr::Float(x)),
            Some(Tok::Str(t)) => Ok(Expr::Str(t)),
            Some(Tok::Op("[")) => Ok(Expr::Array(self.list("]")?)),
            Some(Tok::Ident(w)) if w == "true" => Ok(Expr::Bool(true)),
            Some(Tok::Ident(w)) if w == "false" => Ok(Expr::Bool(false)),
            Some(Tok::Ident(w)) if (w == "sizeof" || w == "bitsizeof") && self.eat("<") => {
                Ok(Expr::SizeOf {
                    ty: self.type_name()?,
                    bits: w == "bitsizeof",
                })
            }
            Some(Tok::Ident(w)) => {
                let mut path = vec![w];
                while self.eat("::") {
                    match self.next() {
                        Some(Tok::Ident(v)) => path.push(v),
                        other => {
                            return Err(format!(
                                "expected an enum value after `::`, found {other:?}"
                            ))
                        }
                    }
                }
                match path.len() {
                    1 => Ok(Expr::Name(path.remove(0))),
                    _ => {
                        let v = path.pop().unwrap_or_default();
                        Ok(Expr::EnumVal(path.join("::"), v))
                    }
                }
            }
            Some(Tok::Op("(")) => {
                let e = self.expr()?;
                if !self.eat(")") {
                    return Err("expected `)`".into());
                }
                Ok(e)
            }
            other => Err(format!("expected a value, found {other:?}")),
        }
    }
}

/// Parses one expression.
pub fn parse(s: &str) -> Result<Expr, String> {
    let toks = lex(s)?;
    let mut p = Parser { toks, i: 0 };
    let e = p.expr()?;
    if p.i != p.toks.len() {
        return Err(format!(
            "unexpected `{:?}` after the expression",
            p.toks[p.i]
        ));
    }
    Ok(e)
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn go(e: &Expr, f: &mut fmt::Formatter<'_>, parent: u8) -> fmt::Result {
            match e {
                Expr::Int { value, hex: true } => write!(f, "0x{value:X}"),
                Expr::Int { value, .. } => write!(f, "{value}"),
                Expr::Bool(b) => write!(f, "{b}"),
                Expr::Float(x) => write!(f, "{x:?}"),
                Expr::Str(t) => write!(f, "{t:?}"),
                Expr::Array(items) => {
                    f.write_str("[")?;
                    for (k, x) in items.iter().enumerate() {
                        if k > 0 {
                            f.write_str(", ")?;
                        }
                        go(x, f, 0)?;
                    }
                    f.write_str("]")
                }
                Expr::Name(n) => write!(f, "{n}"),
                Expr::Index(a, i) => {
                    go(a, f, 100)?;
                    f.write_str("[")?;
                    go(i, f, 0)?;
                    f.write_str("]")
                }
                Expr::Call(a, n, args) => {
                    go(a, f, 100)?;
                    write!(f, ".{n}(")?;
                    for (k, x) in args.iter().enumerate() {
                        if k > 0 {
                            f.write_str(", ")?;
                        }
                        go(x, f, 0)?;
                    }
                    f.write_str(")")
                }
                Expr::Cast(a, t) => {
                    go(a, f, 100)?;
                    write!(f, ".as<{t}>")
                }
                Expr::SizeOf { ty, bits } => {
                    write!(f, "{}sizeof<{ty}>", if *bits { "bit" } else { "" })
                }
                Expr::Attr(a, n) => {
                    go(a, f, 100)?;
                    write!(f, ".{n}")
                }
                Expr::EnumVal(e, v) => write!(f, "{e}::{v}"),
                Expr::Unary(op, a) => {
                    f.write_str(match op {
                        UnOp::Neg => "-",
                        UnOp::Not => "not ",
                        UnOp::BitNot => "~",
                    })?;
                    go(a, f, 100)
                }
                Expr::Binary(op, a, b) => {
                    let p = op.prec();
                    if p < parent {
                        f.write_str("(")?;
                    }
                    go(a, f, p)?;
                    write!(f, " {} ", op.text())?;
                    go(b, f, p + 1)?;
                    if p < parent {
                        f.write_str(")")?;
                    }
                    Ok(())
                }
                Expr::Cond(c, a, b) => {
                    if parent > 0 {
                        f.write_str("(")?;
                    }
                    go(c, f, 1)?;
                    f.write_str(" ? ")?;
                    go(a, f, 1)?;
                    f.write_str(" : ")?;
                    go(b, f, 1)?;
                    if parent > 0 {
                        f.write_str(")")?;
                    }
                    Ok(())
                }
            }
        }
        go(self, f, 0)
    }
}

impl Expr {
    /// The expressions directly inside this one, left to right.
    pub fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Attr(a, _) | Expr::Unary(_, a) | Expr::Cast(a, _) => vec![a],
            Expr::Binary(_, a, b) | Expr::Index(a, b) => vec![a, b],
            Expr::Cond(c, a, b) => vec![c, a, b],
            Expr::Array(items) => items.iter().collect(),
            Expr::Call(a, _, args) => std::iter::once(&**a).chain(args).collect(),
            Expr::Int { .. }
            | Expr::Bool(_)
            | Expr::Float(_)
            | Expr::Str(_)
            | Expr::SizeOf { .. }
            | Expr::Name(_)
            | Expr::EnumVal(..) => vec![],
        }
    }

    /// Calls `visit` on the expression and every expression inside it, outermost first, left
    /// to right.
    pub fn walk(&self, visit: &mut dyn FnMut(&Expr)) {
        visit(self);
        for c in self.children() {
            c.walk(visit);
        }
    }

    /// The fields whose measured size the expression uses (`name._sizeof`).
    pub fn sizeof_names(&self, out: &mut Vec<String>) {
        self.walk(&mut |e| {
            if let Expr::Attr(a, n) = e {
                if let (Expr::Name(f), "_sizeof") = (&**a, n.as_str()) {
                    out.push(f.clone());
                }
            }
        });
    }

    /// Whether `pred` holds for the expression or any expression inside it.
    pub fn any(&self, pred: &dyn Fn(&Expr) -> bool) -> bool {
        pred(self) || self.children().iter().any(|c| c.any(pred))
    }

    /// Whether the expression reads the stream's position (`_io.pos`, Kaitai's own syntax).
    pub fn uses_io(&self) -> bool {
        self.any(&|e| matches!(e, Expr::Name(n) if n == "_io"))
    }

    /// Whether the expression reads `_io.size`.
    pub fn uses_io_size(&self) -> bool {
        self.any(&|e| matches!(e, Expr::Attr(a, n) if n == "size" && matches!(&**a, Expr::Name(b) if b == "_io")))
    }

    /// The plain names the expression reads (fields, parameters, instances), outermost first.
    pub fn names(&self) -> Vec<String> {
        let mut out = vec![];
        self.walk(&mut |e| {
            if let Expr::Name(n) = e {
                out.push(n.clone());
            }
        });
        out
    }

    /// The integer value, when the expression is a literal.
    pub fn literal(&self) -> Option<i128> {
        match self {
            Expr::Int { value, .. } => Some(*value),
            Expr::Unary(UnOp::Neg, a) => a.literal().map(|v| -v),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_and_printing() {
        let e = parse("22 + 76 * num_bones").unwrap();
        assert_eq!(e.to_string(), "22 + 76 * num_bones");
        let e = parse("(a + b) * 24").unwrap();
        assert_eq!(e.to_string(), "(a + b) * 24");
        let e = parse("x.size == 3 and not y ? 1 : 0x1F").unwrap();
        assert_eq!(e.to_string(), "x.size == 3 and not y ? 1 : 0x1F");
        assert_eq!(
            parse("topology::quads").unwrap(),
            Expr::EnumVal("topology".into(), "quads".into())
        );
        assert!(parse("1 +").is_err());
    }

    #[test]
    fn the_whole_language_parses_and_prints_back() {
        for (text, printed) in [
            ("[0x1, 2, 3]", "[0x1, 2, 3]"),
            ("\"abc\" + 'd\\e'", "\"abc\" + \"d\\\\e\""),
            ("1.5e3 + 2.25", "1500.0 + 2.25"),
            ("a[1].b.substring(0, 2)", "a[1].b.substring(0, 2)"),
            (
                "x.as<u4> + sizeof<t::u> * bitsizeof<b3>",
                "x.as<u4> + sizeof<t::u> * bitsizeof<b3>",
            ),
            ("e_root::animal::cat", "e_root::animal::cat"),
            ("s.to_s(\"UTF-8\").length", "s.to_s(\"UTF-8\").length"),
        ] {
            assert_eq!(parse(text).unwrap().to_string(), printed, "{text}");
        }
        assert_eq!(parse("\"\\x41\\n\"").unwrap(), Expr::Str("A\n".into()));
        assert_eq!(
            parse("t::e::v").unwrap(),
            Expr::EnumVal("t::e".into(), "v".into())
        );
        assert_eq!(parse("1.0").unwrap(), Expr::Float(1.0));
        assert_eq!(parse("24000.").unwrap(), Expr::Float(24000.0));
        assert_eq!(parse("x / 1500.").unwrap().to_string(), "x / 1500.0");
        assert_eq!(parse("+1").unwrap(), parse("1").unwrap());
        assert_eq!(parse("a ? -1 : +1").unwrap().to_string(), "a ? -1 : 1");
        assert_eq!(parse("a.b").unwrap().to_string(), "a.b");
    }

    #[test]
    fn sizeof_names_are_collected() {
        let e = parse("22 + 76 * n + parts._sizeof + (c ? head._sizeof : 0)").unwrap();
        assert_eq!(
            e.to_string(),
            "22 + 76 * n + parts._sizeof + (c ? head._sizeof : 0)"
        );
        let mut names = vec![];
        e.sizeof_names(&mut names);
        assert_eq!(names, vec!["parts".to_string(), "head".to_string()]);
    }
}
