//! Kaitai expressions, the subset the specs use: integer literals, field names, `a.b`, `.size`,
//! `enum::value`, arithmetic, comparison, `and`/`or`/`not` and `c ? a : b`.

use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Int {
        value: i128,
        hex: bool,
    },
    Bool(bool),
    Name(String),
    /// `a.b` (field access, or `.size`)
    Attr(Box<Expr>, String),
    /// `enum_name::value`
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
    Ident(String),
    Op(&'static str),
}

fn lex(s: &str) -> Result<Vec<Tok>, String> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    const OPS: [&str; 24] = [
        "::", "<<", ">>", "<=", ">=", "==", "!=", "+", "-", "*", "/", "%", "&", "|", "^", "<", ">",
        "(", ")", ".", "?", ":", "~", "!",
    ];
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
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
        while self.eat(".") {
            match self.next() {
                Some(Tok::Ident(name)) => e = Expr::Attr(Box::new(e), name),
                other => return Err(format!("expected a name after `.`, found {other:?}")),
            }
        }
        Ok(e)
    }
    fn atom(&mut self) -> Result<Expr, String> {
        match self.next() {
            Some(Tok::Int(v, hex)) => Ok(Expr::Int { value: v, hex }),
            Some(Tok::Ident(w)) if w == "true" => Ok(Expr::Bool(true)),
            Some(Tok::Ident(w)) if w == "false" => Ok(Expr::Bool(false)),
            Some(Tok::Ident(w)) => {
                if self.eat("::") {
                    match self.next() {
                        Some(Tok::Ident(v)) => Ok(Expr::EnumVal(w, v)),
                        other => Err(format!(
                            "expected an enum value after `::`, found {other:?}"
                        )),
                    }
                } else {
                    Ok(Expr::Name(w))
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
                Expr::Name(n) => write!(f, "{n}"),
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
            Expr::Attr(a, _) | Expr::Unary(_, a) => vec![a],
            Expr::Binary(_, a, b) => vec![a, b],
            Expr::Cond(c, a, b) => vec![c, a, b],
            Expr::Int { .. } | Expr::Bool(_) | Expr::Name(_) | Expr::EnumVal(..) => vec![],
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
