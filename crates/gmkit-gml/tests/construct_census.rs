//! Issue 16, bar 3 ("compiles to the bytecode GameMaker emits"), measured on the corpus: for
//! each construct new code may use and each version family, the root entries whose decompiled
//! text uses it, and how many of them compile back to GameMaker's own instructions. GameMaker
//! compiled every one of these entries, so an identical entry is the construct compiled as
//! GameMaker compiles it. The constructs are found in the parsed tree with
//! [`gmkit_gml::visit::Visitor`].
//!
//! `cargo test --release -p gmkit-gml --test construct_census -- --nocapture` prints the table.

use gmkit_gml::ast::{Expr, Function, Stmt};
use gmkit_gml::compile::{Names, compile_entry_with_children};
use gmkit_gml::lex::{Tok, lex};
use gmkit_gml::visit::{Visitor, walk_expr, walk_function, walk_stmt};
use gmkit_gml::{Family, Game, decompile, parse, print};
use std::collections::{BTreeMap, BTreeSet};

/// The constructs one entry uses.
#[derive(Default)]
struct Uses {
    found: BTreeSet<&'static str>,
    /// Inside a `try` block (for escapes leaving it).
    in_try: usize,
}

impl Visitor for Uses {
    fn visit_stmt(&mut self, s: &Stmt) {
        let what = match s {
            Stmt::Var(_) => Some("var (new local)"),
            Stmt::GlobalVar(_) => Some("globalvar"),
            Stmt::Static(_) => Some("static"),
            Stmt::Break | Stmt::Continue | Stmt::Return(_) | Stmt::Exit | Stmt::Throw(_)
                if self.in_try > 0 =>
            {
                Some("break/continue/return/exit/throw in try")
            }
            Stmt::Try {
                finally: Some(_), ..
            } => Some("try/finally"),
            Stmt::Try { .. } => Some("try/catch"),
            _ => None,
        };
        self.found.extend(what);
        if let Stmt::Try {
            body,
            catch,
            finally,
        } = s
        {
            self.in_try += 1;
            self.visit_block(body);
            self.in_try -= 1;
            if let Some((_, b)) = catch {
                self.visit_block(b);
            }
            if let Some(b) = finally {
                self.visit_block(b);
            }
            return;
        }
        walk_stmt(self, s)
    }

    fn visit_function(&mut self, f: &Function) {
        self.found.insert(match (f.constructor, &f.name) {
            (true, _) => "constructor",
            (false, Some(_)) => "named function",
            (false, None) => "anonymous function / method",
        });
        // A function's own escapes are not the enclosing try's.
        let outer = std::mem::take(&mut self.in_try);
        walk_function(self, f);
        self.in_try = outer;
    }

    fn visit_expr(&mut self, e: &Expr) {
        let what = match e {
            Expr::Struct(_) => Some("struct literal"),
            Expr::New(..) => Some("new"),
            Expr::Member(o, _) if matches!(&**o, Expr::Ident(g) if g == "global") => {
                Some("global.name")
            }
            _ => None,
        };
        self.found.extend(what);
        walk_expr(self, e)
    }
}

#[derive(Default, Clone, Copy)]
struct Cell {
    used: usize,
    identical: usize,
}

#[test]
fn every_construct_compiles_as_gamemaker_compiled_it() {
    let corpus = gmkit_testdata::need!(gmkit_testdata::corpus_all());
    let mut table: BTreeMap<&'static str, BTreeMap<Family, Cell>> = BTreeMap::new();
    let mut misses: BTreeMap<Family, usize> = BTreeMap::new();
    for (_, bytes) in corpus {
        let Ok(file) = gmkit_data::parse_bytes(bytes) else {
            continue;
        };
        let Some(code) = file.code.as_ref().filter(|c| !c.entries.is_empty()) else {
            continue;
        };
        let game = Game::new(&file);
        let names = Names::new(&game);
        let family = game.features.family();
        for i in 0..code.entries.len() {
            if !code.entries[i].body.is_root() {
                continue;
            }
            let (Ok(orig), Ok(d)) = (code.instructions(i), decompile::decompile_entry(&game, i))
            else {
                continue;
            };
            let text = print::print_stmts(&d.body);
            let Ok(tree) = parse::parse(&text) else {
                continue;
            };
            let mut uses = Uses::default();
            uses.visit_block(&tree);
            // Accessors and template strings are gone from the tree (calls of the functions
            // they compile to): found in the text.
            for t in lex(&text).expect("parsed text lexes") {
                if let Tok::Punct(p @ ("[|" | "[?" | "[#" | "[$" | "[@")) = t.tok {
                    uses.found.insert(p);
                }
            }
            if text.contains("$\"") {
                uses.found.insert("template string");
            }
            let same = compile_entry_with_children(&game, &names, i, &tree)
                .is_ok_and(|(ins, _)| ins.as_slice() == orig.as_ref());
            if !same {
                *misses.entry(family).or_default() += 1;
            }
            for c in uses.found {
                let cell = table.entry(c).or_default().entry(family).or_default();
                cell.used += 1;
                cell.identical += usize::from(same);
            }
        }
    }
    let families: BTreeSet<Family> = table.values().flat_map(|m| m.keys().copied()).collect();
    print!("{:42}", "construct (entries identical / using it)");
    for f in &families {
        print!(" {:>13}", f.label());
    }
    println!();
    for (c, row) in &table {
        print!("{c:42}");
        for f in &families {
            match row.get(f) {
                Some(x) => print!(" {:>13}", format!("{}/{}", x.identical, x.used)),
                None => print!(" {:>13}", "-"),
            }
        }
        println!();
    }
    // Every entry using a construct compiles back identical but for the few entries that miss
    // for other reasons (corpus_roundtrip lists them): at most those per family.
    for (c, row) in &table {
        for (f, x) in row {
            let allowed = misses.get(f).copied().unwrap_or(0);
            assert!(
                x.used - x.identical <= allowed,
                "{c} in {}: {} of {} identical",
                f.label(),
                x.identical,
                x.used
            );
        }
    }
    // The constructs the corpus must show for the measurement to mean something.
    for c in [
        "var (new local)",
        "[|",
        "[?",
        "global.name",
        "named function",
    ] {
        assert!(table.contains_key(c), "no corpus entry uses {c}");
    }
}
