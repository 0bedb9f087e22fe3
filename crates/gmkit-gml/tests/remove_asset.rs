//! `gmkit_gml::assets::remove_asset` (issue 17, bar 2): removing an asset from a game whose
//! bytecode pushes asset indices as plain integers (before 2023.8) either refuses, naming the
//! code that uses it, or renumbers every later index so that the code still means the same
//! assets.
//!
//! - Hand-written cases per version family (GMS 1.4, 2.0–2.2, 2.3–2022): `sprite_index = N`,
//!   `draw_sprite(N, ...)`, `instance_create(x, y, N)`, `N.hp`, `with (N)`, a `switch` on
//!   `object_index`, a `? :` stored into `sprite_index`, and an integer passed to a game script.
//! - Every corpus file of both manifests: on a seeded sample of the assets of every kind code
//!   can name (every asset with `GMKIT_REMOVE_ALL=1`), each removal is refused or, in the
//!   rebuilt game, every code entry decompiles to the same text (every asset given a unique
//!   name first, so the decompiler's names say which asset each operand means) and every typed
//!   field refers to an asset of the same name.

mod common;
use common::Asm;
use gmkit_data::chunks::code::{CodeBody, CodeEntries, CodeEntry, Instruction, PushValue};
use gmkit_data::chunks::object::{Object, Objects};
use gmkit_data::chunks::sprite::{Sprite, Sprites};
use gmkit_data::{AssetKind as D, DataFile, Id};
use gmkit_gml::assets::{Certainty, RemoveError, remove_asset};
use gmkit_gml::{Game, decompile, print};
use std::collections::{BTreeMap, HashMap};

const GMS1: (u8, u16, u16) = (14, 1, 0);
const V22: (u8, u16, u16) = (17, 2, 0);
const V23: (u8, u16, u16) = (17, 2, 3);
const V2022: (u8, u16, u16) = (17, 2022, 1);

/// A file of version `v` with sprites `spr_a`, `spr_b`, `spr_c` and objects `obj_a`, `obj_b`,
/// `obj_c`, and one code entry assembled from `asm`.
fn file(v: (u8, u16, u16), asm: &str) -> DataFile {
    let mut a = Asm::new(v.0, v.1, v.2);
    let asm = if v.0 <= 14 {
        asm.replace("pushi.e", "push.e")
    } else {
        asm.to_string()
    };
    let ins = a.asm(&asm);
    let mut s = |n: &str| a.file.strings.as_mut().unwrap().push(n);
    let objects = ["obj_a", "obj_b", "obj_c"].map(|n| {
        Some(Object {
            name: s(n),
            ..Object::default()
        })
    });
    let sprites = ["spr_a", "spr_b", "spr_c"].map(|n| {
        Some(Sprite {
            name: s(n),
            ..Sprite::default()
        })
    });
    let name = s("gml_Object_obj_a_Create_0");
    a.file.objects = Some(Objects {
        objects: objects.to_vec(),
    });
    a.file.sprites = Some(Sprites {
        sprites: sprites.to_vec(),
    });
    a.file.code = Some(CodeEntries {
        entries: vec![CodeEntry {
            name,
            body: CodeBody::Instructions(ins),
            locals_count: 1,
            arguments_count: 0,
            arguments_flag: false,
            execution_offset: 0,
        }],
        empty_body: false,
    });
    a.file
}

fn text(f: &DataFile) -> String {
    let game = Game::new(f);
    let d = decompile::decompile_entry(&game, 0).expect("decompiles");
    print::print_stmts(&d.body)
}

/// Removing `spr_b` (or `obj_b`) from code using `*_c` keeps the text `expected`; removing
/// `*_c`, which the code uses, is refused naming the entry.
#[track_caller]
fn case(v: (u8, u16, u16), kind: D, asm: &str, expected: &str) {
    let f = file(v, asm);
    assert_eq!(text(&f), expected, "the case reads as written for {v:?}");
    let remove = |f: &mut DataFile, i: u32| match kind {
        D::Sprite => remove_asset(f, Id::<Sprite>::new(i)).map(|r| r.renumbered.len()),
        _ => remove_asset(f, Id::<Object>::new(i)).map(|r| r.renumbered.len()),
    };
    let mut g = f.clone();
    let n = remove(&mut g, 1).expect("an unused asset is removed");
    assert!(n > 0, "an operand was renumbered for {v:?}: {expected}");
    assert_eq!(text(&g), expected, "same names after removing #1 for {v:?}");
    let mut g = f.clone();
    match remove(&mut g, 2) {
        Err(RemoveError::InUse { users, .. }) => {
            assert!(!users.is_empty());
            assert!(
                users
                    .iter()
                    .all(|u| u.entry_name == "gml_Object_obj_a_Create_0")
            );
            let e = RemoveError::InUse {
                asset: "x".into(),
                users,
            }
            .to_string();
            assert!(
                e.contains("gml_Object_obj_a_Create_0") && e.contains("offset"),
                "{e}"
            );
        }
        other => panic!("removing a used asset is refused for {v:?}: {other:?}"),
    }
    assert_eq!(text(&g), expected, "a refused removal changes nothing");
}

#[test]
fn sprite_index_assigned_and_compared() {
    for v in [GMS1, V22, V23, V2022] {
        case(
            v,
            D::Sprite,
            "pushi.e 2 / pop.v.i self.sprite_index",
            "sprite_index = spr_c;",
        );
        case(
            v,
            D::Sprite,
            "push.v self.sprite_index / pushi.e 2 / cmp.i.v EQ / pop.v.b self.s",
            "s = sprite_index == spr_c;",
        );
    }
}

#[test]
fn draw_sprite_argument() {
    for v in [GMS1, V22, V23, V2022] {
        case(
            v,
            D::Sprite,
            "push.v self.y / push.v self.x / pushi.e 0 / conv.i.v / pushi.e 2 / conv.i.v / \
             call.i draw_sprite 4 / popz.v",
            "draw_sprite(spr_c, 0, x, y);",
        );
    }
}

#[test]
fn instance_create_argument() {
    for v in [GMS1, V22] {
        case(
            v,
            D::Object,
            "pushi.e 2 / conv.i.v / push.v self.y / push.v self.x / \
             call.i instance_create 3 / popz.v",
            "instance_create(x, y, obj_c);",
        );
    }
    for v in [V23, V2022] {
        case(
            v,
            D::Object,
            "pushi.e 2 / conv.i.v / pushi.e 0 / conv.i.v / push.v self.y / push.v self.x / \
             call.i instance_create_depth 4 / popz.v",
            "instance_create_depth(x, y, 0, obj_c);",
        );
    }
}

#[test]
fn object_as_instance_field_and_with() {
    for v in [GMS1, V22] {
        case(v, D::Object, "pushi.e 1 / pop.v.i 2.hp", "obj_c.hp = 1;");
        case(
            v,
            D::Object,
            "push.v 2.hp / pop.v.v self.h",
            "h = obj_c.hp;",
        );
    }
    // 2.3+: also checked on the instructions.
    for v in [V23, V2022] {
        let f = file(v, "pushi.e 1 / pop.v.i 2.hp / push.v 2.hp / pop.v.v self.h");
        let mut g = f.clone();
        let r = remove_asset(&mut g, Id::<Object>::new(1)).expect("removed");
        assert_eq!(r.renumbered.len(), 2, "{v:?}");
        assert_eq!(text(&g), text(&f), "{v:?}");
        let ins = g.code.as_ref().unwrap().instructions(0).unwrap();
        assert!(matches!(ins[1], Instruction::Pop { var, .. } if var.instance.0 == 1));
        let mut g = f.clone();
        assert!(matches!(
            remove_asset(&mut g, Id::<Object>::new(2)),
            Err(RemoveError::InUse { users, .. }) if users.len() == 2
        ));
    }
    // 2.3+ `obj.method()`: the object goes through `@@GetInstance@@`.
    for v in [V23, V2022] {
        let f = file(
            v,
            "pushi.e 2 / conv.i.v / call.i @@GetInstance@@ 1 / popz.v",
        );
        let mut g = f.clone();
        let r = remove_asset(&mut g, Id::<Object>::new(1)).expect("removed");
        let got: Vec<(usize, u32)> = r
            .renumbered
            .iter()
            .map(|o| (o.instruction, o.index))
            .collect();
        assert_eq!(got, [(0, 2)], "{v:?}");
        let mut g = f.clone();
        assert!(remove_asset(&mut g, Id::<Object>::new(2)).is_err());
    }
    for v in [GMS1, V22, V23, V2022] {
        case(
            v,
            D::Object,
            "pushi.e 2 / pushenv L1 / L0: / pushi.e 2 / pop.v.i self.hp / L1: / popenv L0",
            "with (obj_c) {\n    hp = 2;\n}",
        );
    }
    // 2.3+: an instance on the stack (`pushi.e -9` marks it).
    for v in [V23, V2022] {
        let f = file(
            v,
            "pushi.e 1 / pushi.e 2 / pushi.e -9 / pop.v.i [stacktop]self.hp",
        );
        let mut g = f.clone();
        let r = remove_asset(&mut g, Id::<Object>::new(1)).expect("removed");
        let got: Vec<(usize, u32)> = r
            .renumbered
            .iter()
            .map(|o| (o.instruction, o.index))
            .collect();
        assert_eq!(got, [(1, 2)], "{v:?}");
        let ins = g.code.as_ref().unwrap().instructions(0).unwrap();
        assert!(matches!(
            ins[1],
            Instruction::Push {
                value: PushValue::Int16(1),
                ..
            }
        ));
        let mut g = f.clone();
        assert!(matches!(
            remove_asset(&mut g, Id::<Object>::new(2)),
            Err(RemoveError::InUse { .. })
        ));
    }
}

#[test]
fn switch_labels_and_conditional_values() {
    for v in [GMS1, V22, V23, V2022] {
        case(
            v,
            D::Object,
            "push.v self.object_index / dup.v 0 / pushi.e 2 / cmp.i.v EQ / bt L1 / \
             b L2 / L1: / pushi.e 1 / pop.v.i self.a / b L2 / L2: / popz.v",
            "switch (object_index) {\n    case obj_c:\n        a = 1;\n        break;\n}",
        );
        // Both arms of a `? :` stored into `sprite_index` (the decompiler does not name them:
        // checked on the instructions).
        let f = file(
            v,
            "push.v self.a / conv.v.b / bf L1 / pushi.e 2 / conv.i.v / b L2 / L1: / \
             pushi.e 0 / conv.i.v / L2: / pop.v.v self.sprite_index",
        );
        let mut g = f.clone();
        let r = remove_asset(&mut g, Id::<Sprite>::new(1)).expect("removed");
        let got: Vec<(usize, u32)> = r
            .renumbered
            .iter()
            .map(|o| (o.instruction, o.index))
            .collect();
        assert_eq!(got, [(3, 2)], "{v:?}");
        let ins = g.code.as_ref().unwrap().instructions(0).unwrap();
        assert!(matches!(
            ins[3],
            Instruction::Push {
                value: PushValue::Int16(1),
                ..
            }
        ));
        assert!(matches!(
            ins[6],
            Instruction::Push {
                value: PushValue::Int16(0),
                ..
            }
        ));
        let mut g = f.clone();
        assert!(matches!(
            remove_asset(&mut g, Id::<Sprite>::new(0)),
            Err(RemoveError::InUse { .. })
        ));
    }
}

#[test]
fn integers_passed_to_game_scripts_are_reported_unchanged() {
    for v in [GMS1, V22, V23, V2022] {
        let f = file(
            v,
            "pushi.e 2 / conv.i.v / call.i scr_mine 1 / popz.v / \
             pushi.e 2 / pop.v.i self.sprite_index",
        );
        let mut g = f.clone();
        let r = remove_asset(&mut g, Id::<Sprite>::new(1)).expect("removed");
        assert_eq!(r.renumbered.len(), 1, "{v:?}");
        assert_eq!(r.unsure.len(), 1, "{v:?}");
        let u = &r.unsure[0];
        assert_eq!(u.certainty, Certainty::Unsure);
        assert_eq!((u.index, u.instruction, u.offset), (2, 0, 0), "{v:?}");
        assert!(u.context.contains("scr_mine"), "{}", u.context);
        assert_eq!(
            text(&g),
            "scr_mine(2);\nsprite_index = spr_c;",
            "the script's argument is left as it was, {v:?}"
        );
    }
}

#[test]
fn typed_references_still_refuse_and_later_files_keep_pushref() {
    // An object whose sprite is spr_b: gmkit-data refuses, nothing changes.
    let mut f = file(V22, "pushi.e 2 / pop.v.i self.sprite_index");
    f.objects.as_mut().unwrap().objects[0]
        .as_mut()
        .unwrap()
        .sprite = gmkit_data::AssetRef::at(1);
    let before = f.clone();
    match remove_asset(&mut f, Id::<Sprite>::new(1)) {
        Err(RemoveError::Data(e)) => assert!(e.to_string().contains("sprite"), "{e}"),
        other => panic!("refused by the typed reference: {other:?}"),
    }
    assert_eq!(text(&f), text(&before));
    assert_eq!(f.sprites, before.sprites);
    // 2023.8+: integers are plain numbers (assets are `pushref`s): not renumbered.
    let mut f = file((17, 2023, 8), "pushi.e 2 / pop.v.i self.sprite_index");
    let r = remove_asset(&mut f, Id::<Sprite>::new(1)).expect("removed");
    assert!(r.renumbered.is_empty() && r.unsure.is_empty());
}

// ---- corpus ----

/// Gives every asset of the kinds code names a unique name (`zzspr_12`), so the decompiler
/// names every asset operand (and only asset operands) by its identity before the removal.
fn rename(f: &mut DataFile) {
    macro_rules! each {
        ($($field:ident . $list:ident => $p:literal),* $(,)?) => {$(
            if let Some(c) = f.$field.as_mut() {
                for (i, a) in c.$list.iter_mut().enumerate() {
                    if let Some(a) = a.as_mut() {
                        a.name = f.strings.as_mut().unwrap().push(format!("zz{}_{i}", $p));
                    }
                }
            }
        )*};
    }
    each!(
        sprites.sprites => "spr", objects.objects => "obj", sounds.sounds => "snd",
        rooms.rooms => "rm", backgrounds.backgrounds => "bg", paths.paths => "pth",
        fonts.fonts => "fnt", timelines.timelines => "tl", shaders.shaders => "sh",
        sequences.sequences => "seq", anim_curves.curves => "ac",
        particle_systems.systems => "ps",
    );
}

/// The kinds tried, their table length, and the name prefix of [`rename`].
fn kinds(f: &DataFile) -> Vec<(D, usize, &'static str)> {
    macro_rules! len {
        ($field:ident . $list:ident) => {
            f.$field.as_ref().map_or(0, |c| c.$list.len())
        };
    }
    vec![
        (D::Sprite, len!(sprites.sprites), "zzspr_"),
        (D::Object, len!(objects.objects), "zzobj_"),
        (D::Sound, len!(sounds.sounds), "zzsnd_"),
        (D::Room, len!(rooms.rooms), "zzrm_"),
        (D::Background, len!(backgrounds.backgrounds), "zzbg_"),
        (D::Path, len!(paths.paths), "zzpth_"),
        (D::Font, len!(fonts.fonts), "zzfnt_"),
        (D::Timeline, len!(timelines.timelines), "zztl_"),
        (D::Shader, len!(shaders.shaders), "zzsh_"),
        (D::Sequence, len!(sequences.sequences), "zzseq_"),
        (D::AnimCurve, len!(anim_curves.curves), "zzac_"),
        (D::ParticleSystem, len!(particle_systems.systems), "zzps_"),
    ]
}

/// Removes entry `i` of `kind`: (operands renumbered, unsure operands reported).
fn remove_kind(
    f: &mut DataFile,
    kind: D,
    i: u32,
) -> Result<(Vec<gmkit_gml::assets::Operand>, usize), RemoveError> {
    use gmkit_data::chunks::*;
    fn n<T>(r: gmkit_gml::assets::Removal<T>) -> (Vec<gmkit_gml::assets::Operand>, usize) {
        assert_eq!(
            r.renumbering.map(r.renumbering.removed()),
            None,
            "the renumbering drops the removed asset"
        );
        (r.renumbered, r.unsure.len())
    }
    match kind {
        D::Sprite => remove_asset(f, Id::<sprite::Sprite>::new(i)).map(n),
        D::Object => remove_asset(f, Id::<object::Object>::new(i)).map(n),
        D::Sound => remove_asset(f, Id::<sound::Sound>::new(i)).map(n),
        D::Room => remove_asset(f, Id::<room::Room>::new(i)).map(n),
        D::Background => remove_asset(f, Id::<background::Background>::new(i)).map(n),
        D::Path => remove_asset(f, Id::<path::Path>::new(i)).map(n),
        D::Font => remove_asset(f, Id::<font::Font>::new(i)).map(n),
        D::Timeline => remove_asset(f, Id::<timeline::Timeline>::new(i)).map(n),
        D::Shader => remove_asset(f, Id::<shader::Shader>::new(i)).map(n),
        D::Sequence => remove_asset(f, Id::<sequence::Sequence>::new(i)).map(n),
        D::AnimCurve => remove_asset(f, Id::<anim_curve::AnimCurve>::new(i)).map(n),
        D::ParticleSystem => remove_asset(f, Id::<particle_system::ParticleSystem>::new(i)).map(n),
        _ => unreachable!(),
    }
}

/// Every typed reference as (field, kind, the target's name), counted.
fn typed_refs(f: &DataFile) -> HashMap<(String, String), usize> {
    let game = Game::new(f);
    let mut out = HashMap::new();
    for r in f.references() {
        let target = gmkit_gml::assets::code_kind(r.kind)
            .and_then(|k| game.asset_name(k, r.target as usize))
            .map_or_else(|| format!("{:?} #{}", r.kind, r.target), str::to_string);
        // List positions shift when an entry leaves a list: compare without them.
        let field: String = r
            .field
            .split('[')
            .map(|p| p.split_once(']').map_or(p, |(_, rest)| rest))
            .collect::<Vec<_>>()
            .join("[]");
        *out.entry((field, target)).or_default() += 1;
    }
    out
}

/// The decompiled text of every root entry (`None`: it does not decompile).
fn texts(f: &DataFile, only: impl Fn(usize) -> bool) -> Vec<Option<String>> {
    let game = Game::new(f);
    let n = f.code.as_ref().map_or(0, |c| c.entries.len());
    (0..n)
        .map(|i| {
            let root = f.code.as_ref()?.entries[i].body.is_root();
            if !root || !only(i) {
                return None;
            }
            let d = decompile::decompile_entry(&game, i).ok()?;
            Some(print::print_stmts(&d.body))
        })
        .collect()
}

/// Whether `new` differs from `old` only by integer literals that each moved down by one from
/// an index above `removed` that the removal renumbered in this entry (`moved`: the old
/// indices): the code still means the same assets, which the decompiler prints as numbers.
fn numbers_followed(old: &str, new: &str, removed: u32, moved: &[u32]) -> bool {
    /// The text without its numbers, and the numbers.
    fn split(line: &str) -> (String, Vec<u64>) {
        let mut text = String::new();
        let mut nums = Vec::new();
        let mut cur: Option<u64> = None;
        let mut prev_ident = false;
        for c in line.chars() {
            match (c.to_digit(10), cur) {
                (Some(d), Some(n)) => cur = Some(n.saturating_mul(10).saturating_add(d as u64)),
                (Some(d), None) if !prev_ident => cur = Some(d as u64),
                _ => {
                    if let Some(n) = cur.take() {
                        nums.push(n);
                        text.push('#');
                    }
                    text.push(c);
                    prev_ident = c.is_alphanumeric() || c == '_';
                }
            }
        }
        if let Some(n) = cur {
            nums.push(n);
            text.push('#');
        }
        (text, nums)
    }
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    if moved.is_empty() || a.len() != b.len() {
        return false;
    }
    let mut any = false;
    for (x, y) in a.iter().zip(&b) {
        if x == y {
            continue;
        }
        let ((tx, nx), (ty, ny)) = (split(x), split(y));
        if tx != ty || nx.len() != ny.len() {
            return false;
        }
        for (p, q) in nx.iter().zip(&ny) {
            if p == q {
                continue;
            }
            let ok = *p > u64::from(removed)
                && p - 1 == *q
                && u32::try_from(*p).is_ok_and(|p| moved.contains(&p));
            if !ok {
                return false;
            }
            any = true;
        }
    }
    any
}

#[test]
fn numbers_followed_accepts_only_renumbered_literals() {
    let old = "_font = global.lang == \"en\" ? 2 : 1;";
    assert!(numbers_followed(
        old,
        "_font = global.lang == \"en\" ? 1 : 0;",
        0,
        &[1, 2]
    ));
    // Not renumbered by the removal, or not moved by one, or a name that changed.
    assert!(!numbers_followed(
        old,
        "_font = global.lang == \"en\" ? 1 : 0;",
        0,
        &[2]
    ));
    assert!(!numbers_followed(
        old,
        "_font = global.lang == \"en\" ? 0 : 1;",
        0,
        &[1, 2]
    ));
    assert!(!numbers_followed(
        "return zzobj_35;",
        "return zzobj_36;",
        0,
        &[35, 36]
    ));
    assert!(!numbers_followed(old, old, 0, &[1, 2]));
}

#[test]
fn corpus_removals_keep_every_reference() {
    let corpus = gmkit_testdata::need!(gmkit_testdata::corpus_all());
    let all = std::env::var_os("GMKIT_REMOVE_ALL").is_some();
    let per_kind = 3;
    let mut totals: BTreeMap<&str, usize> = BTreeMap::new();
    let mut mismatches = Vec::new();
    for (name, bytes) in corpus {
        let Ok(mut f) = gmkit_data::parse_bytes(bytes) else {
            continue;
        };
        rename(&mut f);
        let old_texts = texts(&f, |_| true);
        let old_refs = typed_refs(&f);
        let mut rng = gmkit_testdata::Rng(0x5EED_0000 ^ name.len() as u64 ^ 0x9E37_79B9);
        let mut file_counts: BTreeMap<&str, usize> = BTreeMap::new();
        for (kind, len, prefix) in kinds(&f) {
            let picks: Vec<usize> = if all {
                (0..len).collect()
            } else {
                (0..per_kind.min(len)).map(|_| rng.below(len)).collect()
            };
            for i in picks {
                *file_counts.entry("tried").or_default() += 1;
                let mut g = f.clone();
                let renumbered = match remove_kind(&mut g, kind, i as u32) {
                    Err(RemoveError::InUse { users, .. }) => {
                        assert!(!users.is_empty());
                        *file_counts.entry("refused: used by code").or_default() += 1;
                        continue;
                    }
                    Err(RemoveError::MixedKinds { .. }) => {
                        *file_counts.entry("refused: mixed kinds").or_default() += 1;
                        continue;
                    }
                    Err(RemoveError::Data(_)) => {
                        *file_counts.entry("refused: typed reference").or_default() += 1;
                        continue;
                    }
                    Err(e) => panic!("{name}: {e}"),
                    Ok((ops, unsure)) => {
                        *file_counts.entry("removed").or_default() += 1;
                        *file_counts.entry("operands renumbered").or_default() += ops.len();
                        *file_counts.entry("unsure operands reported").or_default() += unsure;
                        ops
                    }
                };
                let bytes = gmkit_data::build_bytes(&g)
                    .unwrap_or_else(|e| panic!("{name}: {kind:?} #{i} removed, rebuild: {e}"));
                let back = gmkit_data::parse_bytes(bytes)
                    .unwrap_or_else(|e| panic!("{name}: {kind:?} #{i} removed, reparse: {e}"));
                // Code: entries naming an asset of the kind, or changed, read the same.
                let changed = |e: usize| {
                    let (a, b) = (f.code.as_ref().unwrap(), back.code.as_ref().unwrap());
                    old_texts[e].as_deref().is_some_and(|t| t.contains(prefix))
                        || a.instructions(e).ok() != b.instructions(e).ok()
                };
                let new_texts = texts(&back, changed);
                for (e, t) in new_texts.iter().enumerate() {
                    if let Some(t) = t
                        && old_texts[e].as_ref() != Some(t)
                    {
                        let old = old_texts[e].as_deref().unwrap_or("");
                        // Operands the removal renumbered where the decompiler prints a number
                        // (a `? :` into a local): the number moved down with its asset.
                        let moved: Vec<u32> = renumbered
                            .iter()
                            .filter(|o| o.entry == e)
                            .map(|o| o.index)
                            .collect();
                        if numbers_followed(old, t, i as u32, &moved) {
                            *file_counts
                                .entry("renumbered where the decompiler prints numbers")
                                .or_default() += 1;
                            continue;
                        }
                        let diff: Vec<String> = old
                            .lines()
                            .zip(t.lines())
                            .filter(|(a, b)| a != b)
                            .take(2)
                            .map(|(a, b)| format!("{a:?} -> {b:?}"))
                            .collect();
                        mismatches.push(format!(
                            "{name}: removing {kind:?} #{i} changed {}: {}",
                            Game::new(&back).code_name(e),
                            diff.join("; ")
                        ));
                    }
                }
                // Typed fields: each reference of the new file is one of the old file's.
                let mut left = old_refs.clone();
                for (k, n) in typed_refs(&back) {
                    let have = left.entry(k.clone()).or_default();
                    if *have < n {
                        mismatches.push(format!(
                            "{name}: removing {kind:?} #{i}: field {} now refers to {}",
                            k.0, k.1
                        ));
                    }
                    *have = have.saturating_sub(n);
                }
            }
        }
        println!("{name}: {file_counts:?}");
        for (k, n) in file_counts {
            *totals.entry(k).or_default() += n;
        }
    }
    println!("total: {totals:?}; mismatches: {}", mismatches.len());
    for m in mismatches.iter().take(40) {
        println!("  {m}");
    }
    assert!(mismatches.is_empty(), "{} mismatches", mismatches.len());
    assert!(
        totals.get("removed").copied().unwrap_or(0) > 0,
        "some removals happen"
    );
}

/// Shapes no compiler writes (a deep stack kept across many branches, calls taking more
/// arguments than the stack holds, `dup`s of everything) are followed within bounds and
/// still find the operand they end in.
#[test]
fn hostile_shapes_stay_bounded() {
    let mut asm = String::new();
    for _ in 0..2000 {
        asm.push_str("pushi.e 2 / ");
    }
    for k in 0..2000 {
        asm.push_str(&format!("push.v self.a / bt L{k} / dup.v 255 / "));
    }
    asm.push_str("callv.v 65535 / call.i draw_sprite 65535 / ");
    for k in 0..2000 {
        asm.push_str(&format!("L{k}: / "));
    }
    asm.push_str("pushi.e 2 / pop.v.i self.sprite_index");
    let f = file(V22, &asm);
    let mut g = f.clone();
    let r = remove_asset(&mut g, Id::<Sprite>::new(1)).expect("removed");
    assert!(
        r.renumbered
            .iter()
            .any(|o| o.context.contains("sprite_index"))
    );
}
