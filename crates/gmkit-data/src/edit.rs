//! Adding and removing assets while keeping every reference right.
//!
//! Assets are numbered by their position in their chunk's list, and every reference to them
//! (an object's sprite, a room instance's object, the room order, ...) is that number. Removing
//! an asset therefore renumbers every later one: [`DataFile::remove_asset`] does so for every
//! reference the model types (the same enumeration [`DataFile::validate`] checks, see
//! [`crate::walk`]), refuses when something still refers to the asset, and drops it from the
//! lists that merely enumerate assets (room order, texture groups, a room's sequences, a particle
//! system's emitters). [`DataFile::strip_asset`] empties the slot instead, keeping numbering, as
//! GameMaker 2024.11+ does for unused assets.
//!
//! ```
//! use gmkit_data::{Id, chunks::path::Path};
//! let mut data = gmkit_data::sample();
//! data.paths.get_or_insert_with(Default::default);
//! let name = data.strings.as_mut().unwrap().push("path_added");
//! let id: Id<Path> = data.add_asset(Path { name, ..Default::default() })?;
//! assert_eq!(data.find_asset::<Path>("path_added"), Some(id));
//! gmkit_data::build_bytes(&data)?;
//! data.remove_asset(id)?;
//! assert_eq!(data.find_asset::<Path>("path_added"), None);
//! # Ok::<(), gmkit_data::Error>(())
//! ```
//!
//! What is not a typed reference is not renumbered: an asset index that bytecode pushes as a
//! plain integer constant (before 2023.8; later files use typed `pushref` operands, which are
//! renumbered), and the packed asset ids of TAGS. For code before 2023.8, remove assets with
//! `gmkit_gml::assets::remove_asset`, which finds those integers by where they go (the built-in
//! signature tables) and renumbers them or refuses.

use crate::chunk::ChunkName;
use crate::chunks::DataFile;
use crate::error::{Error, ErrorKind, Result};
use crate::refs::{Id, StringRef};
use crate::validate::{element_text, list_field};
use crate::walk::{AssetKind, Site, Slot, Visit, VisitMut, pushref_kind, walk, walk_mut};

/// What [`DataFile::remove_asset`] did: the asset taken out of its table and how the table
/// was renumbered.
#[derive(Debug)]
pub struct Removed<T> {
    /// The removed asset (`None`: the slot was a null slot).
    pub asset: Option<T>,
    /// Old index -> new index of the table's assets (the model's typed references have
    /// already followed it; apply it to indices kept outside the model).
    pub renumbering: crate::Renumbering<T>,
}

/// An asset kind whose table is a list of optional entries (`None`: a stripped asset's null
/// slot), addressed by [`Id<Self>`]. Implemented by every such model type (sprites, sounds,
/// objects, rooms, backgrounds, fonts, paths, scripts, shaders, timelines, sequences, animation
/// curves, audio groups, particle systems and emitters, texture pages and their items).
pub trait Asset: Sized {
    /// The kind of table.
    const KIND: AssetKind;
    /// The table, if the file has its chunk.
    fn table(file: &DataFile) -> Option<&Vec<Option<Self>>>;
    /// The table, mutably.
    fn table_mut(file: &mut DataFile) -> Option<&mut Vec<Option<Self>>>;
    /// The asset's name, where it has one.
    fn name(&self) -> Option<StringRef>;
    /// The asset's name field, where it has one (see [`DataFile::set_name`]).
    fn name_mut(&mut self) -> Option<&mut StringRef> {
        None
    }
}

/// One reference to an asset: what it points at and where it sits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// The kind of entry it points at.
    pub kind: AssetKind,
    /// The index it points at.
    pub target: u32,
    /// The chunk holding it.
    pub chunk: ChunkName,
    /// The element holding it (`object #3 "obj_player"`).
    pub element: String,
    /// The field (`instances[7].object`).
    pub field: String,
}

impl DataFile {
    /// The asset `id`, if it exists (not a null slot).
    ///
    /// ```
    /// use gmkit_data::{Id, chunks::path::Path};
    /// let mut data = gmkit_data::sample();
    /// data.paths.get_or_insert_with(Default::default);
    /// let name = data.intern("path_a");
    /// let id: Id<Path> = data.add_asset(Path { name, ..Default::default() }).unwrap();
    /// assert_eq!(data.asset(id).unwrap().name, name);
    /// assert!(data.asset(Id::<Path>::new(7)).is_none());
    /// ```
    pub fn asset<T: Asset>(&self, id: Id<T>) -> Option<&T> {
        T::table(self)?.get(id.index())?.as_ref()
    }

    /// The asset `id`, mutably.
    ///
    /// ```
    /// use gmkit_data::{Id, chunks::path::Path};
    /// let mut data = gmkit_data::sample();
    /// data.paths.get_or_insert_with(Default::default);
    /// let name = data.intern("path_a");
    /// let id = data.add_asset(Path { name, ..Default::default() }).unwrap();
    /// data.asset_mut(id).unwrap().smooth = true;
    /// assert!(data.asset(id).unwrap().smooth);
    /// ```
    pub fn asset_mut<T: Asset>(&mut self, id: Id<T>) -> Option<&mut T> {
        T::table_mut(self)?.get_mut(id.index())?.as_mut()
    }

    /// The first asset of kind `T` named `name`.
    ///
    /// ```
    /// use gmkit_data::{Id, chunks::path::Path};
    /// let mut data = gmkit_data::sample();
    /// data.paths.get_or_insert_with(Default::default);
    /// let name = data.intern("path_a");
    /// let id = data.add_asset(Path { name, ..Default::default() }).unwrap();
    /// assert_eq!(data.find_asset::<Path>("path_a"), Some(id));
    /// assert_eq!(data.find_asset::<Path>("path_b"), None);
    /// ```
    pub fn find_asset<T: Asset>(&self, name: &str) -> Option<Id<T>> {
        let strings = self.strings.as_ref()?;
        let i = T::table(self)?.iter().position(|a| {
            a.as_ref()
                .and_then(Asset::name)
                .and_then(|n| strings.get(n))
                .is_some_and(|s| s == name)
        })?;
        Some(Id::new(i as u32))
    }

    /// The name of asset `id`, as text.
    ///
    /// ```
    /// use gmkit_data::{Id, chunks::path::Path};
    /// let mut data = gmkit_data::sample();
    /// data.paths.get_or_insert_with(Default::default);
    /// let name = data.intern("path_a");
    /// let id = data.add_asset(Path { name, ..Default::default() }).unwrap();
    /// assert_eq!(data.asset_name(id).as_deref(), Some("path_a"));
    /// ```
    pub fn asset_name<T: Asset>(&self, id: Id<T>) -> Option<String> {
        let n = self.asset(id)?.name()?;
        Some(
            self.strings
                .as_ref()?
                .get(n)?
                .to_string_lossy()
                .into_owned(),
        )
    }

    /// Appends an asset to its table and returns its id. A new room is also appended to the
    /// room order (every room must be listed there). Fails when the file has no such chunk.
    ///
    /// ```
    /// use gmkit_data::{Id, chunks::path::Path};
    /// let mut data = gmkit_data::sample();
    /// data.paths.get_or_insert_with(Default::default);
    /// let name = data.intern("path_a");
    /// let id = data.add_asset(Path { name, ..Default::default() }).unwrap();
    /// assert_eq!(id, Id::new(0));
    /// gmkit_data::build_bytes(&data).unwrap();
    /// ```
    pub fn add_asset<T: Asset>(&mut self, asset: T) -> Result<Id<T>> {
        let Some(table) = T::table_mut(self) else {
            return Err(no_table(T::KIND));
        };
        let index = u32::try_from(table.len())
            .ok()
            .filter(|&i| i < i32::MAX as u32)
            .ok_or_else(|| {
                Error::at(
                    0,
                    ErrorKind::Unwritable {
                        what: T::KIND.name(),
                        reason: "the table is full".into(),
                    },
                )
            })?;
        table.push(Some(asset));
        if T::KIND == AssetKind::Room
            && let Some(g) = self.general.as_mut()
        {
            g.room_order.push(crate::refs::AssetRef::at(index));
        }
        Ok(Id::new(index))
    }

    /// Every typed reference to entry `index` of `kind` (membership lists such as the room
    /// order included). Bytecode operands count in decoded code entries only (see
    /// [`crate::chunks::code::CodeEntries::decode_all`]).
    ///
    /// ```
    /// use gmkit_data::AssetKind;
    /// let data = gmkit_data::sample();
    /// let name = data.general.as_ref().unwrap().name;
    /// let users = data.references_to(AssetKind::String, name.index());
    /// assert!(users.iter().any(|r| r.field == "name"), "{users:?}");
    /// ```
    pub fn references_to(&self, kind: AssetKind, index: usize) -> Vec<Reference> {
        let mut f = Finder {
            file: self,
            kind: Some(kind),
            index: index as u64,
            lists: true,
            hits: Vec::new(),
        };
        walk(self, &mut f);
        f.hits
    }

    /// Every typed reference of the model, in model order (membership lists included; slots
    /// that refer to nothing left out).
    ///
    /// ```
    /// let data = gmkit_data::sample();
    /// let all = data.references();
    /// assert!(all.iter().all(|r| r.chunk.to_string() == "GEN8"), "{all:?}");
    /// ```
    pub fn references(&self) -> Vec<Reference> {
        let mut f = Finder {
            file: self,
            kind: None,
            index: 0,
            lists: true,
            hits: Vec::new(),
        };
        walk(self, &mut f);
        f.hits
    }

    /// Removes asset `id` and renumbers every later asset of its kind in every typed reference
    /// (see the module documentation). Lists that enumerate assets (room order, texture groups,
    /// a room's sequences, a particle system's emitters) drop their entry for it. Fails, leaving
    /// the model's references unchanged, when anything else still refers to it: the error
    /// names the first referrer. Returns the removed asset (`None` for a null slot) and how
    /// its table was renumbered ([`Removed`]: old index -> new index, for references kept
    /// outside the model; the model's own have already followed it).
    ///
    /// In files with typed `pushref` operands (2023.8+) the code is decoded first, so that
    /// those operands are renumbered too. **Before 2023.8** bytecode pushes asset indices as
    /// plain integers (`sprite_index = 2;`), which no typed field shows: removing an asset there
    /// would shift every later asset of its kind under the code. So in such a file with code,
    /// removing an asset of a kind code can name is refused, pointing to
    /// `gmkit_gml::assets::remove_asset`, which finds those integers by where they go and
    /// renumbers them (or refuses, naming the code that uses the asset).
    /// [`DataFile::remove_asset_ignoring_code`] is the same removal without that check, for
    /// callers that deal with the code themselves.
    ///
    /// ```
    /// use gmkit_data::{Id, chunks::path::Path};
    /// let mut data = gmkit_data::sample();
    /// data.paths.get_or_insert_with(Default::default);
    /// let name = data.intern("path_a");
    /// let id = data.add_asset(Path { name, ..Default::default() }).unwrap();
    /// let removed = data.remove_asset(id).unwrap();
    /// assert_eq!(removed.asset.unwrap().name, name);
    /// assert!(data.paths().next().is_none());
    /// ```
    ///
    /// The renumbering, with two rooms (the room order lists both):
    ///
    /// ```
    /// use gmkit_data::{AssetRef, Id, chunks::room::Room};
    /// let mut data = gmkit_data::sample();
    /// data.rooms.get_or_insert_with(Default::default);
    /// let name = data.intern("rm_first");
    /// let first = data.add_asset(Room { name, ..Default::default() }).unwrap();
    /// let name = data.intern("rm_second");
    /// let second = data.add_asset(Room { name, ..Default::default() }).unwrap();
    /// let removed = data.remove_asset(first).unwrap();
    /// assert!(removed.asset.is_some());
    /// assert_eq!(removed.renumbering.map(second), Some(Id::new(0)));
    /// assert_eq!(removed.renumbering.map(first), None);
    /// assert_eq!(data.general.as_ref().unwrap().room_order, vec![AssetRef::to(Id::new(0))]);
    /// ```
    pub fn remove_asset<T: Asset>(&mut self, id: Id<T>) -> Result<Removed<T>> {
        let kind = T::KIND;
        let entries = self.code.as_ref().map_or(0, |c| c.entries.len());
        if !self.version.at_least(2023, 8) && entries > 0 && code_can_name(kind) {
            return Err(Error::at(
                0,
                ErrorKind::Invalid {
                    what: "asset removal",
                    expected: format!(
                        "a 2023.8+ file (whose code names assets by typed reference); in older \
                         files gmkit_gml::assets::remove_asset renumbers the {} indices the \
                         bytecode pushes as plain integers",
                        kind.name()
                    ),
                    found: format!("a {} file with {entries} code entries", self.version),
                },
            )
            .in_chunk(kind.chunk()));
        }
        self.remove_asset_ignoring_code(id)
    }

    /// [`DataFile::remove_asset`] without its check for old bytecode: renumbers the model's
    /// typed references (and 2023.8+ `pushref` operands) only. Before 2023.8 the plain integer
    /// asset indices in code are left as they are, so the caller must renumber them (as
    /// `gmkit_gml::assets::remove_asset` does) or know the code does not use the kind.
    ///
    /// ```
    /// use gmkit_data::{Id, chunks::path::Path};
    /// let mut data = gmkit_data::sample();
    /// data.paths.get_or_insert_with(Default::default);
    /// let name = data.intern("path_a");
    /// let id = data.add_asset(Path { name, ..Default::default() }).unwrap();
    /// assert!(data.remove_asset_ignoring_code(id).unwrap().asset.is_some());
    /// ```
    pub fn remove_asset_ignoring_code<T: Asset>(&mut self, id: Id<T>) -> Result<Removed<T>> {
        let kind = T::KIND;
        let i = id.index();
        let len = T::table(self).ok_or_else(|| no_table(kind))?.len();
        if i >= len {
            return Err(no_such(kind, i, len));
        }
        if self.version.at_least(2023, 8)
            && (0..=13).any(|t| pushref_kind(&self.version, t) == Some(kind))
            && let Some(code) = self.code.as_mut()
        {
            code.decode_all()?;
        }
        let name = self.asset(id).and_then(Asset::name);
        let removed = T::table_mut(self).map(|t| t.remove(i)).unwrap_or(None);
        // Checked with the asset out of its table, so that its own fields do not count.
        if let Err(e) = self.refuse_if_referenced(kind, i, name) {
            if let Some(t) = T::table_mut(self) {
                t.insert(i, removed);
            }
            return Err(e);
        }
        self.renumber_after(kind, i);
        Ok(Removed {
            asset: removed,
            renumbering: crate::Renumbering::new(id, len),
        })
    }

    /// Removes code entry `index` and renumbers every later code entry in every typed
    /// reference (a child entry's parent, a script's code, object events, room and instance
    /// creation code, GLOB, timelines, ...); its code-locals record (FUNC) goes with it. Fails,
    /// leaving the model unchanged, while anything still refers to it (a root entry's
    /// children name it as their parent: remove them first): the error names the first
    /// referrer.
    pub fn remove_code_entry(&mut self, index: usize) -> Result<()> {
        let len = crate::tables::table_len(self, AssetKind::Code).unwrap_or(0);
        if index >= len {
            return Err(no_such(AssetKind::Code, index, len));
        }
        let Some(name) = self.code.as_ref().map(|c| c.entries[index].name) else {
            return Err(no_such(AssetKind::Code, index, 0));
        };
        self.refuse_if_referenced(AssetKind::Code, index, Some(name))?;
        if let Some(code) = self.code.as_mut() {
            code.entries.remove(index);
        }
        if let Some(locals) = self.functions.as_mut().and_then(|f| f.code_locals.as_mut()) {
            locals.retain(|l| l.code_name != name);
        }
        self.renumber_after(AssetKind::Code, index);
        Ok(())
    }

    /// Removes FUNC entry `index` and renumbers every later function in every decoded code
    /// entry's operands (all code is decoded first). Fails, leaving the model's references
    /// unchanged, while code still calls or pushes it: the error names the first such
    /// instruction.
    pub fn remove_function(&mut self, index: usize) -> Result<()> {
        let len = crate::tables::table_len(self, AssetKind::Function).unwrap_or(0);
        if index >= len {
            return Err(no_such(AssetKind::Function, index, len));
        }
        if let Some(code) = self.code.as_mut() {
            code.decode_all()?;
        }
        let Some(name) = self.functions.as_ref().map(|f| f.functions[index].name) else {
            return Err(no_such(AssetKind::Function, index, 0));
        };
        self.refuse_if_referenced(AssetKind::Function, index, Some(name))?;
        if let Some(funcs) = self.functions.as_mut() {
            funcs.functions.remove(index);
        }
        self.renumber_after(AssetKind::Function, index);
        Ok(())
    }

    /// An error naming the first typed reference to entry `index` of `kind` (named `name`),
    /// if there is one.
    fn refuse_if_referenced(
        &self,
        kind: AssetKind,
        index: usize,
        name: Option<StringRef>,
    ) -> Result<()> {
        let mut f = Finder {
            file: self,
            kind: Some(kind),
            index: index as u64,
            lists: false,
            hits: Vec::new(),
        };
        walk(self, &mut f);
        let Some(first) = f.hits.first() else {
            return Ok(());
        };
        let n = f.hits.len();
        let what = match name.and_then(|n| self.strings.as_ref()?.get(n)) {
            Some(s) => format!("{} #{index} {:?}", kind.name(), s.to_string_lossy()),
            None => format!("{} #{index}", kind.name()),
        };
        Err(Error::new(
            ErrorKind::InvalidModel(Box::new(crate::error::ModelProblem {
                element: first.element.clone(),
                field: first.field.clone(),
                expected: format!("no reference to {what}, which is being removed"),
                found: format!("a reference to it ({n} in all)"),
            })),
            crate::error::Location {
                chunk: Some(first.chunk),
                ..Default::default()
            },
        ))
    }

    /// After entry `removed` of `kind` left its table: every later entry's references move
    /// down by one, and so do the parsed file's kept values of that chunk.
    fn renumber_after(&mut self, kind: AssetKind, removed: usize) {
        walk_mut(
            self,
            &mut Renumber {
                kind,
                removed: removed as u32,
            },
        );
        let chunk = kind.chunk();
        self.layout.kept.retain_mut(|k| {
            if k.chunk != chunk || k.index < removed {
                return true;
            }
            if k.index == removed {
                return false;
            }
            k.index -= 1;
            true
        });
    }

    /// Empties the slot of asset `id` (a stripped asset: later assets keep their numbers, and
    /// references to the slot stay valid). Only files whose version allows null slots
    /// ([`crate::Version::allows_null_slots`], 2024.11+) can hold one; use
    /// [`DataFile::remove_asset`] for older files.
    ///
    /// ```
    /// use gmkit_data::{Id, chunks::path::Path};
    /// let mut data = gmkit_data::sample();
    /// data.paths.get_or_insert_with(Default::default);
    /// let name = data.intern("path_a");
    /// let id = data.add_asset(Path { name, ..Default::default() }).unwrap();
    /// // The sample is a 2.0 file: no null slots before 2024.11.
    /// assert!(data.strip_asset(id).is_err());
    /// ```
    pub fn strip_asset<T: Asset>(&mut self, id: Id<T>) -> Result<Option<T>> {
        let kind = T::KIND;
        if !self.version.allows_null_slots() {
            return Err(Error::at(
                0,
                ErrorKind::Invalid {
                    what: "null slot",
                    expected: "a 2024.11+ file (earlier versions have no null slots)".into(),
                    found: format!("a {} file", self.version),
                },
            )
            .in_chunk(kind.chunk()));
        }
        let table = T::table_mut(self).ok_or_else(|| no_table(kind))?;
        let len = table.len();
        match table.get_mut(id.index()) {
            Some(slot) => Ok(slot.take()),
            None => Err(no_such(kind, id.index(), len)),
        }
    }
}

/// Whether bytecode can name an asset of `kind` by its index (a plain integer before 2023.8).
fn code_can_name(kind: AssetKind) -> bool {
    !matches!(
        kind,
        AssetKind::String
            | AssetKind::TexturePageItem
            | AssetKind::TexturePage
            | AssetKind::Code
            | AssetKind::Variable
            | AssetKind::Function
            | AssetKind::ParticleEmitter
            | AssetKind::Audio
    )
}

fn no_table(kind: AssetKind) -> Error {
    Error::at(
        0,
        ErrorKind::Invalid {
            what: "asset table",
            expected: format!("the {} chunk", kind.chunk()),
            found: "none in this file".into(),
        },
    )
}

fn no_such(kind: AssetKind, i: usize, len: usize) -> Error {
    Error::at(
        0,
        ErrorKind::Invalid {
            what: kind.name(),
            expected: format!("an index below {len}"),
            found: i.to_string(),
        },
    )
    .in_chunk(kind.chunk())
}

/// Finds the references to one entry (or every reference, when `kind` is `None`).
struct Finder<'a> {
    file: &'a DataFile,
    kind: Option<AssetKind>,
    index: u64,
    /// Whether membership lists count.
    lists: bool,
    hits: Vec<Reference>,
}

impl Finder<'_> {
    #[inline]
    fn wants(&self, kind: AssetKind, i: u32) -> bool {
        match self.kind {
            Some(k) => k == kind && u64::from(i) == self.index,
            None => true,
        }
    }
    #[cold]
    fn hit(&mut self, kind: AssetKind, target: u32, site: Site<'_>) {
        self.hits.push(Reference {
            kind,
            target,
            chunk: site.elem.chunk,
            element: element_text(self.file, site.elem),
            field: site.path(),
        });
    }
}

impl Visit for Finder<'_> {
    fn id<S: Slot>(&mut self, kind: AssetKind, site: Site<'_>, slot: &S) {
        if let Some(i) = slot.get()
            && self.wants(kind, i)
        {
            self.hit(kind, i, site);
        }
    }
    fn list<S: Slot>(&mut self, kind: AssetKind, site: Site<'_>, list: &Vec<S>) {
        if self.lists {
            for (k, s) in list.iter().enumerate() {
                if let Some(i) = s.get()
                    && self.wants(kind, i)
                {
                    self.hit(
                        kind,
                        i,
                        Site {
                            field: list_field(site.field),
                            sub: [k, 0, 0],
                            ..site
                        },
                    );
                }
            }
        }
    }
}

/// Renumbers references after entry `removed` of `kind` left its table.
struct Renumber {
    kind: AssetKind,
    removed: u32,
}

impl VisitMut for Renumber {
    fn id<S: Slot>(&mut self, kind: AssetKind, _: Site<'_>, slot: &mut S) {
        if kind == self.kind
            && let Some(i) = slot.get()
            && i > self.removed
        {
            slot.set(i - 1);
        }
    }
    fn list<S: Slot>(&mut self, kind: AssetKind, _: Site<'_>, list: &mut Vec<S>) {
        if kind != self.kind {
            return;
        }
        list.retain(|s| s.get() != Some(self.removed));
        for s in list.iter_mut() {
            if let Some(i) = s.get()
                && i > self.removed
            {
                s.set(i - 1);
            }
        }
    }
}
