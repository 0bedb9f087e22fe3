//! Bar 5: the printer writes text its own parser reads back to the same text. Generated trees
//! of every statement and expression kind the decompiler builds: print → parse → print is a
//! fixed point.

use gmkit_gml::ast::{BinaryOp, Case, Expr, Literal, Stmt, UnaryOp, UpdateOp};
use gmkit_gml::{parse, print};
use proptest::prelude::*;

fn name() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "a", "b", "hp", "_x", "i", "self", "other", "global", "obj_a",
    ])
    .prop_map(str::to_string)
}

fn field() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["x", "y", "val", "b"]).prop_map(str::to_string)
}

fn binary() -> impl Strategy<Value = BinaryOp> {
    use BinaryOp::*;
    prop::sample::select(vec![
        Mul, Div, IntDiv, Mod, Add, Sub, BitAnd, BitOr, BitXor, Shl, Shr, Lt, Le, Eq, Ne, Ge, Gt,
        And, Or, Xor, Nullish,
    ])
}

fn literal() -> impl Strategy<Value = Literal> {
    prop_oneof![
        (0i64..100_000).prop_map(Literal::Int),
        (-5i64..5).prop_map(Literal::Int64),
        (0u32..1000).prop_map(|v| Literal::Real(v as f64 / 8.0 + 0.125)),
        "[a-z \"\\\\]{0,6}".prop_map(Literal::String),
        any::<bool>().prop_map(Literal::Bool),
    ]
}

/// A place: a variable, a member or an element.
fn place(e: impl Strategy<Value = Expr> + Clone) -> impl Strategy<Value = Expr> {
    prop_oneof![
        name()
            .prop_filter("assignable", |n| !matches!(
                n.as_str(),
                "self" | "other" | "global"
            ))
            .prop_map(Expr::Ident),
        (name(), field()).prop_map(|(o, f)| Expr::Member(Box::new(Expr::Ident(o)), f)),
        (name(), prop::collection::vec(e, 1..3))
            .prop_filter("assignable", |(n, _)| !matches!(
                n.as_str(),
                "self" | "other" | "global"
            ))
            .prop_map(|(n, i)| Expr::Index(Box::new(Expr::Ident(n)), i)),
    ]
}

fn expr() -> impl Strategy<Value = Expr> + Clone {
    let leaf = prop_oneof![literal().prop_map(Expr::Lit), name().prop_map(Expr::Ident)];
    leaf.prop_recursive(4, 32, 3, |e| {
        prop_oneof![
            (e.clone(), field()).prop_map(|(t, f)| Expr::Member(Box::new(t), f)),
            (name(), prop::collection::vec(e.clone(), 1..3))
                .prop_map(|(n, i)| Expr::Index(Box::new(Expr::Ident(n)), i)),
            (name(), prop::collection::vec(e.clone(), 0..3))
                .prop_map(|(n, a)| Expr::Call(Box::new(Expr::Ident(n)), a)),
            (
                prop::sample::select(vec![UnaryOp::Neg, UnaryOp::Not, UnaryOp::BitNot]),
                e.clone()
            )
                .prop_map(|(o, x)| Expr::Unary(o, Box::new(x))),
            (binary(), e.clone(), e.clone()).prop_map(|(o, l, r)| Expr::Binary(
                o,
                Box::new(l),
                Box::new(r)
            )),
            (e.clone(), e.clone(), e.clone()).prop_map(|(c, a, b)| Expr::Ternary(
                Box::new(c),
                Box::new(a),
                Box::new(b)
            )),
            prop::collection::vec(e.clone(), 0..3).prop_map(Expr::Array),
            e.clone().prop_map(|x| Expr::Paren(Box::new(x))),
            (any::<bool>(), any::<bool>(), place(e.clone())).prop_map(|(inc, prefix, t)| {
                Expr::Update {
                    op: if inc { UpdateOp::Inc } else { UpdateOp::Dec },
                    prefix,
                    target: Box::new(t),
                }
            }),
        ]
    })
}

/// Statements that fit a `for` header.
fn simple() -> impl Strategy<Value = Stmt> {
    let e = expr();
    prop_oneof![
        (
            place(e.clone()),
            prop::option::of(prop::sample::select(vec![
                BinaryOp::Add,
                BinaryOp::Sub,
                BinaryOp::Mul,
                BinaryOp::IntDiv,
                BinaryOp::Mod,
                BinaryOp::BitOr,
                BinaryOp::Nullish,
            ])),
            e.clone()
        )
            .prop_map(|(target, op, value)| Stmt::Assign { target, op, value }),
        (any::<bool>(), any::<bool>(), place(e.clone())).prop_map(|(inc, prefix, target)| {
            Stmt::Update {
                op: if inc { UpdateOp::Inc } else { UpdateOp::Dec },
                prefix,
                target,
            }
        }),
        (name(), prop::collection::vec(e, 0..3))
            .prop_map(|(n, a)| Stmt::Expr(Expr::Call(Box::new(Expr::Ident(n)), a))),
    ]
}

fn stmt() -> impl Strategy<Value = Stmt> {
    let leaf = prop_oneof![
        simple(),
        Just(Stmt::Break),
        Just(Stmt::Continue),
        Just(Stmt::Exit),
        prop::option::of(expr()).prop_map(Stmt::Return),
        (name(), prop::option::of(expr()))
            .prop_filter("a local", |(n, _)| !matches!(
                n.as_str(),
                "self" | "other" | "global"
            ))
            .prop_map(|(n, v)| Stmt::Var(vec![(n, v)])),
    ];
    leaf.prop_recursive(3, 24, 3, |s| {
        let body = prop::collection::vec(s.clone(), 0..3);
        prop_oneof![
            (expr(), body.clone(), prop::option::of(body.clone()))
                .prop_map(|(c, a, b)| Stmt::If(c, a, b)),
            (expr(), body.clone()).prop_map(|(c, b)| Stmt::While(c, b)),
            (
                prop::option::of(simple()),
                prop::option::of(expr()),
                prop::option::of(simple()),
                body.clone()
            )
                .prop_map(|(i, c, st, b)| Stmt::For(
                    i.map(Box::new),
                    c,
                    st.map(Box::new),
                    b
                )),
            (body.clone(), expr()).prop_map(|(b, c)| Stmt::DoUntil(b, c)),
            (expr(), body.clone()).prop_map(|(c, b)| Stmt::Repeat(c, b)),
            (expr(), body.clone()).prop_map(|(c, b)| Stmt::With(c, b)),
            (
                expr(),
                prop::collection::vec((prop::option::of(literal()), body.clone()), 0..3)
            )
                .prop_map(|(v, cases)| Stmt::Switch(
                    v,
                    cases
                        .into_iter()
                        .map(|(l, body)| Case {
                            label: l.map(Expr::Lit),
                            body
                        })
                        .collect()
                )),
            body.prop_map(Stmt::Block),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn print_parse_print_is_a_fixed_point(body in prop::collection::vec(stmt(), 0..4)) {
        let text = print::print_stmts(&body);
        let tree = match parse::parse(&text) {
            Ok(t) => t,
            Err(e) => return Err(TestCaseError::fail(format!("{e}\n{text}"))),
        };
        let again = print::print_stmts(&tree);
        prop_assert_eq!(&again, &text);
    }
}
