//! Removing an asset from a game whose code holds asset indices as plain integers.
//!
//! [`gmkit_data::DataFile::remove_asset`] renumbers every typed reference of the model, and
//! in 2023.8+ files the typed `pushref` operands of the code. Bytecode before 2023.8 pushes an
//! asset as its index, a plain integer (`sprite_index = spr_wall` is `pushi.e 1 / pop.v.i
//! self.sprite_index`), which only the place it goes makes an asset. [`remove_asset`] finds
//! those integers ([`operands`]: the built-in signature tables the decompiler names values
//! with) and:
//!
//! - refuses ([`RemoveError::InUse`]) when code uses the asset, naming each use (entry and
//!   instruction offset), and when one integer goes where two kinds of asset go, one of them
//!   the removed kind ([`RemoveError::MixedKinds`]);
//! - otherwise removes the asset through gmkit-data (which refuses while a typed reference
//!   remains) and renumbers every later index of its kind in place: the new index is smaller,
//!   so the instruction keeps its form (`pushi.e`, `push.i`, an instance field) and its size,
//!   and no branch offset moves;
//! - reports, without changing them, the integers passed to the game's own scripts or methods
//!   whose parameter has no known kind ([`Removal::unsure`]): they may be asset indices the
//!   game passes on, or plain numbers. A caller that wants to be strict refuses when that list
//!   is not empty.
//!
//! ```
//! use gmkit_data::{Id, chunks::path::Path};
//! use gmkit_gml::assets::{RemoveError, remove_asset};
//! let mut data = gmkit_data::sample();
//! data.paths.get_or_insert_with(Default::default);
//! let name = data.strings.as_mut().unwrap().push("path_unused");
//! let id: Id<Path> = data.add_asset(Path { name, ..Default::default() })?;
//! match remove_asset(&mut data, id) {
//!     Ok(r) => println!("{} code operands renumbered, {} unsure", r.renumbered.len(), r.unsure.len()),
//!     Err(RemoveError::InUse { users, .. }) => users.iter().for_each(|u| println!("used by {u}")),
//!     Err(e) => println!("refused: {e}"),
//! }
//! assert_eq!(data.find_asset::<Path>("path_unused"), None);
//! # Ok::<(), gmkit_data::Error>(())
//! ```

pub mod operands;

pub use operands::{Certainty, Operand, Place, asset_operands};

use crate::game::{AssetKind, Game};
use gmkit_data::chunks::code::{InstanceType, Instruction, PushValue};
use gmkit_data::{Asset, DataFile, Id};
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// What [`remove_asset`] did.
#[derive(Debug)]
pub struct Removal<T> {
    /// The removed asset (`None` for a null slot).
    pub asset: Option<T>,
    /// How the asset's table was renumbered (old index -> new index), for indices kept outside
    /// the model; the model's typed references and the code have already followed it.
    pub renumbering: gmkit_data::Renumbering<T>,
    /// The code operands renumbered (their index as it was before the removal).
    pub renumbered: Vec<Operand>,
    /// Integers that may be indices of the removed asset or of a later one (passed to a
    /// function of the game's own whose parameter has no known kind), left unchanged.
    pub unsure: Vec<Operand>,
}

/// Why [`remove_asset`] refused or failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum RemoveError {
    /// Code uses the asset: the operands that do.
    InUse {
        /// The asset (`sprite #2 "spr_wall"`).
        asset: String,
        /// Every code operand holding its index.
        users: Vec<Operand>,
    },
    /// An integer that code uses as the removed kind of asset and as another kind too:
    /// renumbering it would break the other use.
    MixedKinds {
        /// The asset (`sprite #2 "spr_wall"`).
        asset: String,
        /// The operands, one per kind.
        operands: Vec<Operand>,
    },
    /// gmkit-data refused or failed (a typed reference still uses the asset, no such asset,
    /// undecodable code).
    Data(gmkit_data::Error),
}

impl fmt::Display for RemoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, ops: &[Operand]| -> fmt::Result {
            for (k, o) in ops.iter().take(8).enumerate() {
                write!(f, "{}{o}", if k == 0 { "" } else { "; " })?;
            }
            if ops.len() > 8 {
                write!(f, "; and {} more", ops.len() - 8)?;
            }
            Ok(())
        };
        match self {
            RemoveError::InUse { asset, users } => {
                write!(
                    f,
                    "cannot remove {asset}: expected no code using it, found {} use(s): ",
                    users.len()
                )?;
                list(f, users)
            }
            RemoveError::MixedKinds { asset, operands } => {
                write!(
                    f,
                    "cannot remove {asset}: expected each later index to be one kind of asset, \
                     found integers used as two kinds: "
                )?;
                list(f, operands)
            }
            RemoveError::Data(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RemoveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RemoveError::Data(e) => Some(e),
            _ => None,
        }
    }
}

impl From<gmkit_data::Error> for RemoveError {
    fn from(e: gmkit_data::Error) -> Self {
        RemoveError::Data(e)
    }
}

/// The kind of code operand that indexes a table of `kind`, if code can name it.
pub fn code_kind(kind: gmkit_data::AssetKind) -> Option<AssetKind> {
    use gmkit_data::AssetKind as D;
    Some(match kind {
        D::Sprite => AssetKind::Sprite,
        D::Sound => AssetKind::Sound,
        D::Room => AssetKind::Room,
        D::Background => AssetKind::Background,
        D::Path => AssetKind::Path,
        D::Script => AssetKind::Script,
        D::Font => AssetKind::Font,
        D::Timeline => AssetKind::Timeline,
        D::Object => AssetKind::Object,
        D::Shader => AssetKind::Shader,
        D::Sequence => AssetKind::Sequence,
        D::AnimCurve => AssetKind::AnimCurve,
        D::ParticleSystem => AssetKind::ParticleSystem,
        _ => return None,
    })
}

/// Removes asset `id` like [`DataFile::remove_asset`], and in files before 2023.8 also
/// renumbers the asset indices the code pushes as plain integers, or refuses while code uses
/// the asset (see the module documentation). On an error the file is unchanged (except that
/// code entries may have been decoded, which writes the same bytes).
pub fn remove_asset<T: Asset>(file: &mut DataFile, id: Id<T>) -> Result<Removal<T>, RemoveError> {
    let removed = id.index();
    let what = || match file.asset_name(id) {
        Some(n) => format!("{} #{removed} {n:?}", T::KIND.name()),
        None => format!("{} #{removed}", T::KIND.name()),
    };
    let len = T::table(file).map_or(0, Vec::len);
    let mut renumber = Vec::new();
    let mut unsure = Vec::new();
    if let Some(kind) = code_kind(T::KIND) {
        let ops = {
            let game = Game::new(file);
            asset_operands(&game)
        };
        // Each pushed integer's kinds, to refuse one used as two kinds.
        let mut kinds: HashMap<(usize, usize, Place), Vec<&Operand>> = HashMap::new();
        for o in ops.iter().filter(|o| o.certainty == Certainty::Typed) {
            let v = kinds.entry((o.entry, o.instruction, o.place)).or_default();
            if !v.iter().any(|p| p.kind == o.kind) {
                v.push(o);
            }
        }
        let users: Vec<Operand> = ops
            .iter()
            .filter(|o| o.certainty == Certainty::Typed && o.kind == kind)
            .filter(|o| o.index as usize == removed)
            .cloned()
            .collect();
        if !users.is_empty() {
            return Err(RemoveError::InUse {
                asset: what(),
                users,
            });
        }
        let mut mixed = Vec::new();
        let mut later: BTreeMap<(usize, usize, Place), Operand> = BTreeMap::new();
        for o in &ops {
            if o.index as usize <= removed || o.index as usize >= len {
                continue;
            }
            match o.certainty {
                Certainty::Typed if o.kind == kind => {
                    let all = &kinds[&(o.entry, o.instruction, o.place)];
                    if all.len() > 1 {
                        mixed.extend(all.iter().map(|&p| p.clone()));
                    }
                    later
                        .entry((o.entry, o.instruction, o.place))
                        .or_insert_with(|| o.clone());
                }
                Certainty::Unsure => {}
                Certainty::Typed => {}
            }
        }
        if !mixed.is_empty() {
            return Err(RemoveError::MixedKinds {
                asset: what(),
                operands: mixed,
            });
        }
        let mut seen = std::collections::HashSet::new();
        for o in ops {
            if o.certainty == Certainty::Unsure
                && (removed..len).contains(&(o.index as usize))
                && !later.contains_key(&(o.entry, o.instruction, o.place))
                && seen.insert((o.entry, o.instruction))
            {
                unsure.push(Operand { kind, ..o });
            }
        }
        renumber = later.into_values().collect();
        // Decode the entries to change before anything changes, so that nothing fails later.
        if let Some(code) = file.code.as_mut() {
            for o in &renumber {
                code.instructions_mut(o.entry)?;
            }
        }
    }
    let gmkit_data::Removed { asset, renumbering } = file.remove_asset_ignoring_code(id)?;
    if let Some(code) = file.code.as_mut() {
        for o in &renumber {
            let ins = code.instructions_mut(o.entry)?;
            if let Some(x) = ins.get_mut(o.instruction) {
                decrement(x, o.place);
            }
        }
    }
    Ok(Removal {
        asset,
        renumbering,
        renumbered: renumber,
        unsure,
    })
}

/// Lowers the index `place` of `x` holds by one (it is above the removed index, so at least 1:
/// the instruction keeps its form and size).
fn decrement(x: &mut Instruction, place: Place) {
    match (place, x) {
        (Place::Immediate, Instruction::Push { value, .. }) => match value {
            PushValue::Int16(v) => *v -= 1,
            PushValue::Int32(v) => *v -= 1,
            PushValue::Int64(v) => *v -= 1,
            _ => {}
        },
        (Place::InstanceField, Instruction::Pop { var, .. })
        | (
            Place::InstanceField,
            Instruction::Push {
                value: PushValue::Variable(var),
                ..
            },
        ) => var.instance = InstanceType(var.instance.0 - 1),
        _ => {}
    }
}
