//! Walking a model by kind and finding entries by name, as the `object` crate does for
//! executables: `data.sprites()` yields `(id, sprite, name)` for every sprite, `data.sprite("x")`
//! finds one, and the same pair exists for every asset kind, code entries, variables,
//! functions and strings. Null slots (stripped assets) are skipped; a file without the chunk
//! yields nothing.
//!
//! ```
//! use gmkit_data::chunks::path::Path;
//! let mut data = gmkit_data::sample();
//! data.paths.get_or_insert_with(Default::default);
//! let name = data.intern("path_spiral");
//! let id = data.add_asset(Path { name, ..Default::default() }).unwrap();
//! let (found, _path) = data.path("path_spiral").unwrap();
//! assert_eq!(found, id);
//! let names: Vec<String> = data.paths().map(|(_, _, n)| n.unwrap().to_string()).collect();
//! assert_eq!(names, ["path_spiral"]);
//! ```

use crate::chunks::DataFile;
use crate::chunks::code::CodeEntry;
use crate::chunks::function::Function;
use crate::chunks::variable::Variable;
use crate::edit::Asset;
use crate::refs::{Id, StringRef};
use crate::string::GmStr;

impl DataFile {
    /// The text of string entry `r` (`None` without a string table or for an index past it).
    ///
    /// ```
    /// let data = gmkit_data::sample();
    /// let name = data.general.as_ref().unwrap().name;
    /// assert_eq!(data.string(name).unwrap(), "gmkit sample");
    /// ```
    pub fn string(&self, r: StringRef) -> Option<&GmStr> {
        self.strings.as_ref()?.get(r)
    }

    /// The first string entry holding `text`.
    ///
    /// ```
    /// let data = gmkit_data::sample();
    /// let r = data.find_string("gmkit sample").unwrap();
    /// assert_eq!(data.general.as_ref().unwrap().name, r);
    /// assert!(data.find_string("no such text").is_none());
    /// ```
    pub fn find_string(&self, text: &str) -> Option<StringRef> {
        self.strings.as_ref()?.find(text)
    }

    /// A string entry holding `text`: an existing one (entries are shared, as GameMaker writes
    /// them, and gmkit never changes an entry's text behind a field's back except through
    /// [`crate::chunks::string_table::Strings::set`]) or a new one. Assigning the result to a
    /// field changes that field only. Creates the string table when the model has none.
    ///
    /// ```
    /// let mut data = gmkit_data::sample();
    /// let r = data.intern("a new text");
    /// assert_eq!(data.intern("a new text"), r);
    /// assert_eq!(data.string(r).unwrap(), "a new text");
    /// ```
    pub fn intern(&mut self, text: &str) -> StringRef {
        let strings = self.strings.get_or_insert_with(Default::default);
        match strings.find(text) {
            Some(r) => r,
            None => strings.push(text),
        }
    }

    /// Every asset of kind `T` (null slots skipped), with its id and its name (`None` for the
    /// unnamed kinds, texture pages and their items, or a name that does not resolve).
    ///
    /// ```
    /// use gmkit_data::chunks::texture_page_item::TexturePageItem;
    /// let data = gmkit_data::sample();
    /// assert_eq!(data.assets::<TexturePageItem>().count(), 0);
    /// ```
    pub fn assets<T: Asset + 'static>(
        &self,
    ) -> impl Iterator<Item = (Id<T>, &T, Option<&GmStr>)> + '_ {
        T::table(self)
            .into_iter()
            .flatten()
            .enumerate()
            .filter_map(move |(i, a)| {
                let a = a.as_ref()?;
                let name = a.name().and_then(|n| self.string(n));
                Some((Id::new(i as u32), a, name))
            })
    }

    /// The first asset of kind `T` named `name`, with its id.
    ///
    /// ```
    /// use gmkit_data::chunks::sound::Sound;
    /// let data = gmkit_data::sample();
    /// assert!(data.asset_named::<Sound>("snd_jump").is_none());
    /// ```
    pub fn asset_named<T: Asset + 'static>(&self, name: &str) -> Option<(Id<T>, &T)> {
        self.assets::<T>()
            .find(|(_, _, n)| n.is_some_and(|n| n == name))
            .map(|(id, a, _)| (id, a))
    }

    /// Renames asset `id`, and only it: its name field is pointed at a string entry holding
    /// `name` ([`DataFile::intern`]), so other fields and code that shared its old entry keep
    /// their text. Returns the entry now used; fails for an id with no asset.
    ///
    /// ```
    /// use gmkit_data::chunks::path::Path;
    /// let mut data = gmkit_data::sample();
    /// data.paths.get_or_insert_with(Default::default);
    /// // A path whose name shares its entry with the game's name.
    /// let shared = data.general.as_ref().unwrap().name;
    /// let id = data.add_asset(Path { name: shared, ..Default::default() }).unwrap();
    /// data.set_name(id, "path_renamed").unwrap();
    /// assert_eq!(data.asset_name(id).unwrap(), "path_renamed");
    /// assert_eq!(data.string(data.general.as_ref().unwrap().name).unwrap(), "gmkit sample");
    /// ```
    pub fn set_name<T: Asset>(&mut self, id: Id<T>, name: &str) -> crate::Result<StringRef> {
        let missing = || {
            crate::Error::at(
                0,
                crate::ErrorKind::Invalid {
                    what: T::KIND.name(),
                    expected: format!("an existing {}", T::KIND.name()),
                    found: format!("#{} (no such entry)", id.index()),
                },
            )
            .in_chunk(T::KIND.chunk())
        };
        self.asset(id).ok_or_else(missing)?;
        let r = self.intern(name);
        let slot = self
            .asset_mut(id)
            .and_then(Asset::name_mut)
            .ok_or_else(|| {
                crate::Error::at(
                    0,
                    crate::ErrorKind::Invalid {
                        what: T::KIND.name(),
                        expected: "a kind of asset with a name".into(),
                        found: format!("{} #{}", T::KIND.name(), id.index()),
                    },
                )
            })?;
        *slot = r;
        Ok(r)
    }

    /// Every code entry with its index and name.
    ///
    /// ```
    /// let data = gmkit_data::sample();
    /// assert_eq!(data.code_entries().count(), 0);
    /// ```
    pub fn code_entries(&self) -> impl Iterator<Item = (usize, &CodeEntry, Option<&GmStr>)> + '_ {
        let entries = self.code.as_ref().map(|c| &c.entries[..]).unwrap_or(&[]);
        entries
            .iter()
            .enumerate()
            .map(move |(i, e)| (i, e, self.string(e.name)))
    }

    /// The code entry named `name` (`gml_Object_obj_player_Step_0`), with its index (for
    /// [`crate::chunks::code::CodeEntries::instructions`]).
    ///
    /// ```
    /// let data = gmkit_data::sample();
    /// assert!(data.code_entry("gml_Script_main").is_none());
    /// ```
    pub fn code_entry(&self, name: &str) -> Option<(usize, &CodeEntry)> {
        self.code_entries()
            .find(|(_, _, n)| n.is_some_and(|n| n == name))
            .map(|(i, e, _)| (i, e))
    }

    /// Every variable of VARI with its index and name.
    ///
    /// ```
    /// let data = gmkit_data::sample();
    /// assert_eq!(data.variables().count(), 0);
    /// ```
    pub fn variables(&self) -> impl Iterator<Item = (usize, &Variable, Option<&GmStr>)> + '_ {
        let all = self
            .variables
            .as_ref()
            .map(|c| &c.variables[..])
            .unwrap_or(&[]);
        all.iter()
            .enumerate()
            .map(move |(i, v)| (i, v, self.string(v.name)))
    }

    /// The first variable named `name`, with its index.
    ///
    /// ```
    /// let data = gmkit_data::sample();
    /// assert!(data.variable("hp").is_none());
    /// ```
    pub fn variable(&self, name: &str) -> Option<(usize, &Variable)> {
        self.variables()
            .find(|(_, _, n)| n.is_some_and(|n| n == name))
            .map(|(i, v, _)| (i, v))
    }

    /// Every function of FUNC with its index and name.
    ///
    /// ```
    /// let data = gmkit_data::sample();
    /// assert_eq!(data.functions().count(), 0);
    /// ```
    pub fn functions(&self) -> impl Iterator<Item = (usize, &Function, Option<&GmStr>)> + '_ {
        let all = self
            .functions
            .as_ref()
            .map(|c| &c.functions[..])
            .unwrap_or(&[]);
        all.iter()
            .enumerate()
            .map(move |(i, f)| (i, f, self.string(f.name)))
    }

    /// The function named `name`, with its index.
    ///
    /// ```
    /// let data = gmkit_data::sample();
    /// assert!(data.function("show_debug_message").is_none());
    /// ```
    pub fn function(&self, name: &str) -> Option<(usize, &Function)> {
        self.functions()
            .find(|(_, _, n)| n.is_some_and(|n| n == name))
            .map(|(i, f, _)| (i, f))
    }

    /// Every string entry with its reference.
    ///
    /// ```
    /// let data = gmkit_data::sample();
    /// assert!(data.strings().any(|(_, s)| s == "gmkit sample game"));
    /// ```
    pub fn strings(&self) -> impl Iterator<Item = (StringRef, &GmStr)> + '_ {
        self.strings
            .iter()
            .flat_map(|s| s.iter())
            .enumerate()
            .map(|(i, s)| (StringRef(i as u32), s))
    }
}

/// `fn sprites()` / `fn sprite(name)` for each kind.
macro_rules! by_kind {
    ($($all:ident $one:ident : $ty:ty, $what:literal;)*) => {
        impl DataFile {
            $(
                #[doc = concat!("Every ", $what, " with its id and name ([`DataFile::assets`]).")]
                ///
                /// ```
                /// let data = gmkit_data::sample();
                #[doc = concat!("assert_eq!(data.", stringify!($all), "().count(), 0);")]
                /// ```
                pub fn $all(&self) -> impl Iterator<Item = (Id<$ty>, &$ty, Option<&GmStr>)> + '_ {
                    self.assets::<$ty>()
                }

                #[doc = concat!("The first ", $what, " named `name`, with its id ([`DataFile::asset_named`]).")]
                ///
                /// ```
                /// let data = gmkit_data::sample();
                #[doc = concat!("assert!(data.", stringify!($one), "(\"no_such_name\").is_none());")]
                /// ```
                pub fn $one(&self, name: &str) -> Option<(Id<$ty>, &$ty)> {
                    self.asset_named::<$ty>(name)
                }
            )*
        }
    };
}

by_kind! {
    sounds sound: crate::chunks::sound::Sound, "sound";
    audio_groups audio_group: crate::chunks::audio_group::AudioGroup, "audio group";
    sprites sprite: crate::chunks::sprite::Sprite, "sprite";
    backgrounds background: crate::chunks::background::Background, "background (or tileset)";
    paths path: crate::chunks::path::Path, "path";
    scripts script: crate::chunks::script::Script, "script";
    shaders shader: crate::chunks::shader::Shader, "shader";
    fonts font: crate::chunks::font::Font, "font";
    timelines timeline: crate::chunks::timeline::Timeline, "timeline";
    objects object: crate::chunks::object::Object, "object";
    anim_curves anim_curve: crate::chunks::anim_curve::AnimCurve, "animation curve";
    sequences sequence: crate::chunks::sequence::Sequence, "sequence";
    rooms room: crate::chunks::room::Room, "room";
    particle_systems particle_system: crate::chunks::particle_system::ParticleSystem, "particle system";
    particle_emitters particle_emitter: crate::chunks::particle_emitter::ParticleEmitter, "particle emitter";
}

impl DataFile {
    /// Every texture page item with its id (they have no names).
    ///
    /// ```
    /// let data = gmkit_data::sample();
    /// assert_eq!(data.texture_page_items().count(), 0);
    /// ```
    pub fn texture_page_items(
        &self,
    ) -> impl Iterator<
        Item = (
            Id<crate::chunks::texture_page_item::TexturePageItem>,
            &crate::chunks::texture_page_item::TexturePageItem,
        ),
    > + '_ {
        self.assets().map(|(id, a, _)| (id, a))
    }

    /// Every texture page with its id (they have no names).
    ///
    /// ```
    /// let data = gmkit_data::sample();
    /// assert_eq!(data.texture_pages().count(), 0);
    /// ```
    pub fn texture_pages(
        &self,
    ) -> impl Iterator<
        Item = (
            Id<crate::chunks::texture::TexturePage>,
            &crate::chunks::texture::TexturePage,
        ),
    > + '_ {
        self.assets().map(|(id, a, _)| (id, a))
    }
}
