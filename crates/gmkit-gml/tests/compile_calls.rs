//! Method calls on a call's or an array element's result (spec `gml-bytecode.md` §6.2):
//! GML → the instructions GameMaker emits, by version.

mod common;
use common::compiles_to;

/// 2023.1 and 2024.4: a chain on a variable is instance-first at every step (`dup.v N 1`,
/// `dup.v 0`, `push.v stacktop.m`; corpus 2024.4, ooo-kaizo's cutscene chains).
#[test]
fn chain_on_a_variable_is_instance_first() {
    let want = "push.v self.a / pushi.e 1 / conv.i.v / dup.v 1 1 / dup.v 0 / \
                push.v stacktop.b / callv.v 1 / pushi.e 2 / conv.i.v / dup.v 1 1 / dup.v 0 / \
                push.v stacktop.c / callv.v 1 / popz.v";
    compiles_to(17, 2023, 1, "a.b(1).c(2);", want);
    compiles_to(
        17,
        2024,
        4,
        "a.b(1).c(2);",
        &want.replace("push.v self.a", "push.v builtin.a"),
    );
}

/// A chain that starts with a call: in 2024.4 (corpus: ooo-kaizo) every argument of the
/// chain is pushed first (the right-most call's deepest), then the inner call, `dup.v 0`,
/// `pushi.e -9`, `push.v [stacktop]self.m`; in 2.3 and 2023.8 (corpus: gml-simpledraw's
/// `variable_struct_get(brushes, brush).draw(…)`) instance-first.
#[test]
fn chain_on_a_call_by_version() {
    compiles_to(
        17,
        2024,
        4,
        "f(1).m(2);",
        "pushi.e 2 / conv.i.v / pushi.e 1 / conv.i.v / call.i f 1 / dup.v 0 / pushi.e -9 / \
         push.v [stacktop]0.m / callv.v 1 / popz.v",
    );
    compiles_to(
        17,
        2024,
        4,
        "f(1).m(2).n(3);",
        "pushi.e 3 / conv.i.v / pushi.e 2 / conv.i.v / pushi.e 1 / conv.i.v / call.i f 1 / \
         dup.v 0 / pushi.e -9 / push.v [stacktop]0.m / callv.v 1 / \
         dup.v 0 / pushi.e -9 / push.v [stacktop]0.n / callv.v 1 / popz.v",
    );
    let instance_first = "pushi.e 1 / conv.i.v / call.i f 1 / pushi.e 2 / conv.i.v / \
                          dup.v 1 1 / dup.v 0 / push.v stacktop.m / callv.v 1 / popz.v";
    compiles_to(17, 2023, 8, "f(1).m(2);", instance_first);
    compiles_to(17, 2, 3, "f(1).m(2);", instance_first);
}

/// Calling an array element: a bare array's call has `@@This@@` as its self; an element of a
/// qualified array (`self.`, `global.`, an instance) is its own self (`dup.v 0`); `self.a[…]`
/// takes `@@This@@` and `-9` as the array's owner.
#[test]
fn calling_array_elements() {
    compiles_to(
        17,
        2023,
        1,
        "a[0](1);",
        "pushi.e 1 / conv.i.v / call.i @@This@@ 0 / pushi.e -1 / pushi.e 0 / \
         push.v [array]0.a / callv.v 1 / popz.v",
    );
    compiles_to(
        17,
        2023,
        1,
        "self.a[0](1);",
        "pushi.e 1 / conv.i.v / call.i @@This@@ 0 / pushi.e -9 / pushi.e 0 / \
         push.v [array]0.a / dup.v 0 / callv.v 1 / popz.v",
    );
    compiles_to(
        17,
        2023,
        1,
        "global.a[0](1);",
        "pushi.e 1 / conv.i.v / pushi.e -5 / pushi.e 0 / push.v [array]0.a / dup.v 0 / \
         callv.v 1 / popz.v",
    );
    // The result of an element's call, then an element of its member.
    compiles_to(
        17,
        2023,
        1,
        "a[0](1).b[2](3);",
        "pushi.e 3 / conv.i.v / pushi.e 1 / conv.i.v / call.i @@This@@ 0 / pushi.e -1 / \
         pushi.e 0 / push.v [array]0.a / callv.v 1 / pushi.e -9 / pushi.e 2 / \
         push.v [array]0.b / dup.v 0 / callv.v 1 / popz.v",
    );
    // A method of an element: the element is the instance (instance-first form).
    compiles_to(
        17,
        2023,
        1,
        "a[0].b(1);",
        "pushi.e -1 / pushi.e 0 / push.v [array]0.a / pushi.e 1 / conv.i.v / dup.v 1 1 / \
         dup.v 0 / push.v stacktop.b / callv.v 1 / popz.v",
    );
}

/// `new C(..)` where `C` is an instance variable holding a constructor: read as a builtin
/// variable, like a called variable (corpus 2.3.2: vendaval's `new Configuration(c)`).
#[test]
fn new_on_an_instance_variable() {
    compiles_to(
        17,
        2,
        3,
        "v = new C(1);",
        "pushi.e 1 / conv.i.v / push.v builtin.C / call.i @@NewGMLObject@@ 2 / pop.v.v self.v",
    );
}
