//! Editing bytecode: patch one instruction, rebuild, re-parse, and check that exactly that
//! instruction changed, that VARI/FUNC changed only in their occurrence-derived values, and that
//! the rebuilt file round-trips itself.

use gmkit_data::chunks::code::{CodeBody, Instruction, PushValue};
use gmkit_data::{DataFile, build_bytes, parse_bytes};
use gmkit_testdata::{corpus_file, need};

fn chunk(data: &[u8], name: &[u8; 4]) -> (usize, usize) {
    let mut pos = 8;
    while pos + 8 <= data.len() {
        let len = u32::from_le_bytes(data[pos + 4..pos + 8].try_into().unwrap()) as usize;
        if &data[pos..pos + 4] == name {
            return (pos + 8, pos + 8 + len);
        }
        pos += 8 + len;
    }
    panic!("no chunk {}", String::from_utf8_lossy(name));
}

/// Raw `(count, first address)` of every VARI entry, straight from the bytes.
fn vari_occurrences(data: &[u8], bytecode: u8) -> Vec<(u32, i32)> {
    let (s, e) = chunk(data, b"VARI");
    let (mut p, size) = if bytecode >= 15 {
        (s + 12, 20)
    } else {
        (s, 12)
    };
    let rd = |p: usize| u32::from_le_bytes(data[p..p + 4].try_into().unwrap());
    let mut v = Vec::new();
    while p + size <= e && rd(p) != 0 {
        v.push((rd(p + size - 8), rd(p + size - 4) as i32));
        p += size;
    }
    v
}

/// Every instruction of every root entry: (entry, index, instruction).
fn all_instructions(f: &DataFile) -> Vec<(usize, usize, Instruction)> {
    let mut v = Vec::new();
    for (e, entry) in f.code.as_ref().unwrap().entries.iter().enumerate() {
        if let Some(ins) = entry.body.instructions() {
            let ins = ins.expect("the entry decodes");
            v.extend(ins.iter().enumerate().map(|(i, x)| (e, i, *x)));
        }
    }
    v
}

fn instruction_mut(f: &mut DataFile, entry: usize, index: usize) -> &mut Instruction {
    let ins = f
        .code
        .as_mut()
        .unwrap()
        .instructions_mut(entry)
        .expect("a root entry");
    &mut ins[index]
}

/// Rebuilds, re-parses, and checks the result against the edit.
fn rebuild_and_check(
    original: &DataFile,
    edited: &DataFile,
    at: (usize, usize),
    expect: Instruction,
) -> (DataFile, Vec<u8>) {
    let bytes = build_bytes(edited).expect("edited file builds");
    let back = parse_bytes(bytes.clone()).expect("edited file parses");
    let before = all_instructions(original);
    let after = all_instructions(&back);
    assert_eq!(before.len(), after.len());
    let mut changed = 0;
    for (b, a) in before.iter().zip(&after) {
        assert_eq!((b.0, b.1), (a.0, a.1));
        if (a.0, a.1) == at {
            assert_eq!(a.2, expect, "the edited instruction reads back as written");
            changed += 1;
        } else {
            assert_eq!(a.2, b.2, "instruction {}:{} unchanged", a.0, a.1);
        }
    }
    assert_eq!(changed, 1);
    // Entry headers, variables and functions unchanged (the models hold no derived values).
    let (oc, bc) = (original.code.as_ref().unwrap(), back.code.as_ref().unwrap());
    for (o, b) in oc.entries.iter().zip(&bc.entries) {
        assert_eq!(
            (
                o.name,
                o.locals_count,
                o.arguments_count,
                o.execution_offset
            ),
            (
                b.name,
                b.locals_count,
                b.arguments_count,
                b.execution_offset
            )
        );
        if let (CodeBody::Shared { parent: x }, CodeBody::Shared { parent: y }) = (&o.body, &b.body)
        {
            assert_eq!(x, y);
        }
    }
    assert_eq!(original.variables, back.variables);
    assert_eq!(original.functions, back.functions);
    // The rebuilt file round-trips itself.
    assert_eq!(
        build_bytes(&back).unwrap(),
        bytes,
        "build(parse(build(x))) == build(x)"
    );
    (back, bytes)
}

fn edit_constant(name: &str) {
    let data = need!(corpus_file(name));
    let original = parse_bytes(data.clone()).unwrap();
    assert_eq!(build_bytes(&original).unwrap(), data);
    let (e, i, ins) = all_instructions(&original)
        .into_iter()
        .find(|(_, _, x)| {
            matches!(x, Instruction::Push { value: PushValue::Int16(v), .. } if *v < 1000)
        })
        .expect("an int16 push");
    let Instruction::Push {
        op,
        value: PushValue::Int16(v),
    } = ins
    else {
        unreachable!()
    };
    let new = Instruction::Push {
        op,
        value: PushValue::Int16(v + 1234),
    };
    let mut edited = original.clone();
    *instruction_mut(&mut edited, e, i) = new;
    let (_, bytes) = rebuild_and_check(&original, &edited, (e, i), new);
    // Same size, exactly one word differs (the constant is inline).
    assert_eq!(bytes.len(), data.len());
    let diff: Vec<usize> = (0..data.len()).filter(|&k| data[k] != bytes[k]).collect();
    assert!(
        !diff.is_empty() && diff.len() <= 2 && diff[diff.len() - 1] - diff[0] < 2,
        "{diff:?}"
    );
    assert!(
        new.to_string()
            .starts_with(&format!("{}.e {}", op.mnemonic(), v + 1234))
    );
}

fn edit_variable(name: &str) {
    let data = need!(corpus_file(name));
    let original = parse_bytes(data.clone()).unwrap();
    let bytecode = original.version.bytecode;
    let counts = vari_occurrences(&data, bytecode);
    // A push of variable A (used at least twice), redirected to B (used at least once).
    let (e, i, ins) = all_instructions(&original)
        .into_iter()
        .find(|(_, _, x)| {
            matches!(x, Instruction::Push { value: PushValue::Variable(r), .. }
                if counts[r.variable.index()].0 >= 2)
        })
        .expect("a variable push");
    let Instruction::Push {
        op,
        value: PushValue::Variable(var),
    } = ins
    else {
        unreachable!()
    };
    let a = var.variable.index();
    let b = (0..counts.len())
        .rev()
        .find(|&k| k != a && counts[k].0 >= 1)
        .expect("another used variable");
    let mut r = var;
    r.variable = gmkit_data::Id::new(b as u32);
    let new = Instruction::Push {
        op,
        value: PushValue::Variable(r),
    };
    let mut edited = original.clone();
    *instruction_mut(&mut edited, e, i) = new;
    let (back, bytes) = rebuild_and_check(&original, &edited, (e, i), new);

    // Occurrence-derived values: A lost one occurrence, B gained one, the rest is unchanged.
    let after = vari_occurrences(&bytes, bytecode);
    assert_eq!(after.len(), counts.len());
    for k in 0..counts.len() {
        if k == a {
            assert_eq!(after[k].0, counts[k].0 - 1);
        } else if k == b {
            assert_eq!(after[k].0, counts[k].0 + 1);
            assert!(after[k].1 <= counts[k].1);
        } else {
            assert_eq!(after[k], counts[k], "variable #{k} occurrences unchanged");
        }
    }
    assert_eq!(bytes.len(), data.len());
    // The disassembly names the new variable.
    let vars = back.variables.as_ref().unwrap();
    let strings = back.strings.as_ref().unwrap();
    let b_name = strings.get(vars.variables[b].name).unwrap().to_string();
    let shown = new.display(&back).to_string();
    assert!(shown.ends_with(&format!(".{b_name}")), "{shown}");
}

#[test]
fn edit_constant_bc14() {
    edit_constant("tricking-the-vikings.win");
}

#[test]
fn edit_variable_bc14() {
    edit_variable("tricking-the-vikings.win");
}

#[test]
fn edit_constant_bc16() {
    edit_constant("bubblinaway.win");
}

#[test]
fn edit_variable_bc16() {
    edit_variable("bubblinaway.win");
}

#[test]
fn edit_constant_bc17_shared_blobs() {
    edit_constant("deltarun.win");
}

#[test]
fn edit_variable_bc17_shared_blobs() {
    edit_variable("deltarun.win");
}

#[test]
fn yyc_files_without_bytecode_round_trip() {
    for name in ["123nishith-ma.win", "rcr-wasm.win"] {
        let data = need!(corpus_file(name));
        let f = parse_bytes(data.clone()).unwrap();
        assert!(f.code.is_none() && f.variables.is_none() && f.functions.is_none());
        assert_eq!(build_bytes(&f).unwrap(), data);
    }
}

#[test]
fn disassembly_names_functions() {
    let data = need!(corpus_file("deltarun.win"));
    let f = parse_bytes(data).unwrap();
    let code = f.code.as_ref().unwrap();
    let call = (0..code.entries.len())
        .flat_map(|e| code.instructions(e).unwrap().into_owned())
        .find(|x| matches!(x, Instruction::Call { .. }))
        .unwrap();
    let text = call.display(&f).to_string();
    assert!(
        text.starts_with("call.i ") && text.contains("(argc="),
        "{text}"
    );
    // Every child entry sees its parent's instructions from its execution offset.
    for (i, e) in code.entries.iter().enumerate() {
        if let CodeBody::Shared { .. } = e.body {
            assert!(!code.instructions(i).unwrap().is_empty(), "child entry {i}");
        }
    }
}

#[test]
fn edit_constant_2025_stripped_objects() {
    edit_constant("teatree.win");
}

#[test]
fn edit_variable_2025_stripped_objects() {
    edit_variable("teatree.win");
}

/// Every `call` of stripped code in `f`: (entry, index, instruction).
fn calls_by_name(f: &DataFile) -> Vec<(usize, usize, Instruction)> {
    all_instructions(f)
        .into_iter()
        .filter(|(_, _, x)| matches!(x, Instruction::CallByName { .. }))
        .collect()
}

/// 2025 builds strip unused objects: the calls in their code hold the callee's name (a STRG
/// index) instead of an occurrence link. They read as `CallByName`, keep their
/// operand exactly, and can be edited: renamed to a new string, or given another argc.
#[test]
fn calls_of_stripped_code_keep_their_names() {
    let data = need!(corpus_file("teatree.win"));
    let original = parse_bytes(data.clone()).unwrap();
    let calls = calls_by_name(&original);
    assert!(!calls.is_empty(), "teatree.win has calls by name");
    let strings = original.strings.as_ref().unwrap();
    for &(_, _, ins) in &calls {
        let Instruction::CallByName { name, .. } = ins else {
            unreachable!()
        };
        // The operand names a function (FUNC may list it too, e.g. `lerp`, but this call is on
        // no occurrence chain).
        assert!(strings.get(name).is_some());
        assert!(
            ins.display(&original)
                .to_string()
                .starts_with("call.i [name]")
        );
    }
    // The operand is stored as is: the word after the call is the name's STRG index.
    let (e, i, ins) = calls[0];
    let Instruction::CallByName { t, argc, name } = ins else {
        unreachable!()
    };
    let code = original.code.as_ref().unwrap();
    let CodeBody::Encoded(blob) = &code.entries[e].body else {
        panic!("entry {e} is an encoded root");
    };
    let off: usize = code.instructions(e).unwrap()[..i]
        .iter()
        .map(|x| x.size())
        .sum();
    assert_eq!(
        u32::from_le_bytes(blob.bytes()[off + 4..off + 8].try_into().unwrap()),
        name.0
    );

    // Edit 1: point the call at a new string.
    let mut edited = original.clone();
    let new_name = edited
        .strings
        .as_mut()
        .unwrap()
        .push("gmkit_renamed_function");
    let new = Instruction::CallByName {
        t,
        argc,
        name: new_name,
    };
    *instruction_mut(&mut edited, e, i) = new;
    let bytes = build_bytes(&edited).unwrap();
    let back = parse_bytes(bytes.clone()).unwrap();
    assert_eq!(back.code.as_ref().unwrap().instructions(e).unwrap()[i], new);
    assert_eq!(calls_by_name(&back).len(), calls.len());
    assert_eq!(build_bytes(&back).unwrap(), bytes);
    assert_eq!(
        back.strings
            .as_ref()
            .unwrap()
            .get(new_name)
            .unwrap()
            .to_string(),
        "gmkit_renamed_function"
    );

    // Edit 2: another argument count; nothing else changes.
    let mut edited = original.clone();
    let new = Instruction::CallByName {
        t,
        argc: argc + 1,
        name,
    };
    *instruction_mut(&mut edited, e, i) = new;
    rebuild_and_check(&original, &edited, (e, i), new);
}

/// A call by name pointing past the string table is refused when parsing.
#[test]
fn call_by_name_outside_the_string_table_is_an_error() {
    let data = need!(corpus_file("teatree.win"));
    let original = parse_bytes(data.clone()).unwrap();
    let (e, i, ins) = calls_by_name(&original)[0];
    let Instruction::CallByName { t, argc, .. } = ins else {
        unreachable!()
    };
    let mut edited = original.clone();
    let n = original.strings.as_ref().unwrap().len() as u32;
    *instruction_mut(&mut edited, e, i) = Instruction::CallByName {
        t,
        argc,
        name: gmkit_data::StringRef(n + 5),
    };
    let bytes = build_bytes(&edited).unwrap();
    let err = parse_bytes(bytes).unwrap_err().to_string();
    assert!(
        err.contains("call operand") && err.contains("CODE"),
        "{err}"
    );
}

/// 2024.13+ games end the chain of a script passed by value on the STRG index of
/// `gml_GlobalScript_<name>` instead of the function's name. No corpus file has one, so this
/// makes one through the model from real files: every used function gets such an ending; the
/// file parses strictly, keeps the endings, explains every byte, rebuilds byte-identical, and
/// survives an edit.
#[test]
fn chains_ending_on_a_global_script_name() {
    for file in ["teatree.win", "deltarun.win", "ooo-kaizo.win"] {
        let data = need!(corpus_file(file));
        let original = parse_bytes(data).unwrap();
        let mut edited = original.clone();
        let used: std::collections::BTreeSet<usize> = all_instructions(&original)
            .iter()
            .filter_map(|(_, _, x)| x.function().map(|f| f.index()))
            .collect();
        assert!(!used.is_empty(), "{file}");
        let mut ends = Vec::new();
        for &k in &used {
            let s = edited.strings.as_mut().unwrap();
            let fname = s
                .get(original.functions.as_ref().unwrap().functions[k].name)
                .unwrap()
                .to_string();
            let end = s.push(format!("gml_GlobalScript_{fname}"));
            edited.functions.as_mut().unwrap().functions[k].chain_end = Some(end);
            ends.push((k, end));
        }
        let bytes = build_bytes(&edited).unwrap();
        let (back, report) = gmkit_data::parse_bytes_with(
            bytes.clone(),
            &gmkit_data::ParseOptions {
                lenient: false,
                track_coverage: true,
            },
        )
        .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(report.unexplained.as_deref(), Some(&[][..]), "{file}");
        assert!(back.opaque_chunks().is_empty());
        assert_eq!(
            back.functions, edited.functions,
            "{file}: chain endings read back"
        );
        assert_eq!(build_bytes(&back).unwrap(), bytes, "{file}: byte-identical");
        // The raw last occurrence holds the global script's name (FUNC's first address and
        // the chain, read independently of the library).
        let fs = chunk(&bytes, b"FUNC").0;
        for &(k, end) in ends.iter().take(20) {
            let rd = |p: usize| u32::from_le_bytes(bytes[p..p + 4].try_into().unwrap());
            let (count, first) = (rd(fs + 4 + 12 * k + 4), rd(fs + 4 + 12 * k + 8) as usize);
            let mut at = first;
            for _ in 1..count {
                at += (rd(at) & 0x07FF_FFFF) as usize;
            }
            assert_eq!(rd(at) & 0xFF_FFFF, end.0, "{file}: function #{k}");
        }
        // An edit (a patched constant) keeps the endings.
        let (e, i, ins) = all_instructions(&back)
            .into_iter()
            .find(|(_, _, x)| {
                matches!(
                    x,
                    Instruction::Push {
                        value: PushValue::Int16(_),
                        ..
                    }
                )
            })
            .unwrap();
        let Instruction::Push { op, .. } = ins else {
            unreachable!()
        };
        let new = Instruction::Push {
            op,
            value: PushValue::Int16(4321),
        };
        let mut again = back.clone();
        *instruction_mut(&mut again, e, i) = new;
        rebuild_and_check(&back, &again, (e, i), new);

        // An ending that is neither the name nor a global script is refused.
        let mut bad = original.clone();
        let other = bad.strings.as_mut().unwrap().push("not_a_global_script");
        bad.functions.as_mut().unwrap().functions[ends[0].0].chain_end = Some(other);
        let err = parse_bytes(build_bytes(&bad).unwrap())
            .unwrap_err()
            .to_string();
        assert!(err.contains("last occurrence"), "{file}: {err}");
    }
}
