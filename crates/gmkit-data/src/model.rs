//! The whole-file model and the read/write drivers.

use crate::chunk::ChunkName;
use bytes::Bytes;

/// How the chunks sit in the container: order, alignment, and bytes outside any field.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Layout {
    /// Chunk order as in the file (writing follows it; chunks added to the model but missing
    /// here are written after these).
    pub order: Vec<ChunkName>,
    /// Alignment of chunk headers (16 on most platforms, 4 or 1 on some; 1 = no padding).
    pub chunk_align: usize,
    /// Bytes between a chunk's content and the chunk's end that are not zero padding, kept
    /// verbatim (written instead of padding).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]
    pub tails: Vec<(ChunkName, Bytes)>,
    /// Bytes after the end of the FORM container.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]
    pub trailing: Bytes,
    /// Size of the file this model was read from (used to size the output buffer).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub size_hint: usize,
    /// The CODE occurrence chains as read, so that unedited code is written back without
    /// relinking (opaque; not part of equality).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub code_chains: crate::chunks::code::ReadChains,
    /// The file this model was parsed from by [`crate::parse_file`] (its payloads and strings
    /// are views of it): the builders refuse to run once it changed on disk (not part of
    /// equality; `None` for a model parsed from memory or built in code).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub source: Option<std::sync::Arc<crate::Source>>,
    /// The kept values of the file as parsed: every typed reference ([`crate::AssetRef`]) whose
    /// stored value is neither its field's "none" nor an index, with where it sits. A real file
    /// holds a few (e.g. an object's parent stored -1 where GameMaker writes -100);
    /// [`DataFile::validate`](crate::DataFile::validate) accepts a kept value only where this
    /// list has it, so an edit that writes one (e.g. `-5`) is refused. Empty for nearly every
    /// file, and left out of the serde form then.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub kept: Vec<KeptValue>,
}

/// A kept value of a parsed file ([`Layout::kept`]): a typed reference's stored value that is
/// neither "none" nor an index, at `field` of element `index` of chunk `chunk`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KeptValue {
    /// The element's chunk.
    pub chunk: ChunkName,
    /// The element's index in its chunk's list.
    pub index: usize,
    /// The field, e.g. `parent` or `layers[2].assets.tiles[7].asset`.
    pub field: String,
    /// The stored value.
    pub value: i32,
}

impl Layout {
    /// `Ok` unless the model was parsed from a file that has changed on disk since
    /// ([`crate::Source::check`]).
    ///
    /// ```
    /// let data = gmkit_data::sample();
    /// assert!(data.layout.check_source().is_ok());
    /// ```
    pub fn check_source(&self) -> crate::Result<()> {
        self.source.as_ref().map_or(Ok(()), |s| s.check())
    }
}

/// Equal when the files would be laid out the same; the size hint is not part of that.
impl PartialEq for Layout {
    fn eq(&self, o: &Self) -> bool {
        self.order == o.order
            && self.chunk_align == o.chunk_align
            && self.tails == o.tails
            && self.trailing == o.trailing
            && self.kept == o.kept
    }
}

/// Declares every chunk once: module, `DataFile` field, dispatch and version checks.
macro_rules! chunk_list {
    ($($name:literal => $field:ident : $module:ident :: $ty:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// A whole data file: one optional typed model per chunk, plus the container layout.
        ///
        /// Parse with [`crate::parse_bytes`], edit the fields, write with [`crate::build_bytes`].
        #[derive(Clone, Debug, Default, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct DataFile {
            /// The detected version (decides the layout written).
            pub version: crate::version::Version,
            /// Container details: chunk order, alignment, unexplained bytes.
            pub layout: crate::model::Layout,
            $(
                #[doc = concat!("The `", stringify!($name), "` chunk, if present.")]
                pub $field: Option<$module::$ty>,
            )*
            /// Chunks gmkit does not know, kept verbatim.
            pub unknown: Vec<crate::chunks::raw::UnknownChunk>,
        }

        /// Any one chunk, as read (parsed in parallel, then stored in its field).
        #[allow(clippy::large_enum_variant)]
        pub(crate) enum AnyChunk {
            $($ty($module::$ty),)*
            Unknown(crate::chunks::raw::UnknownChunk),
        }

        /// Layout checks of every chunk module, run by the version detection.
        pub(crate) const CHECKS: &[(&[u8; 4], crate::version::Check)] = &[$(($name, $module::detect)),*];

        /// The chunks gmkit knows, in registration order (an index into per-kind tables).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub(crate) enum Kind {
            $($ty,)*
        }

        /// Number of [`Kind`]s.
        pub(crate) const KINDS: usize = [$(Kind::$ty),*].len();

        /// The kind of a chunk name (`None`: a chunk gmkit does not know). Folds to a constant
        /// when the name is one.
        #[inline(always)]
        pub(crate) fn kind_of(name: &[u8; 4]) -> Option<Kind> {
            match name {
                $($name => Some(Kind::$ty),)*
                _ => None,
            }
        }

        /// Reading phase of each kind (see [`crate::chunk::Chunk::PHASE`]).
        const PHASES: [u8; KINDS] = [$(<$module::$ty as crate::chunk::Chunk>::PHASE),*];

        /// The highest reading phase (unknown chunks are read in phase 2).
        pub(crate) const MAX_PHASE: u8 = {
            let mut max = 2;
            let mut i = 0;
            while i < KINDS {
                if PHASES[i] > max {
                    max = PHASES[i];
                }
                i += 1;
            }
            max
        };

        /// Reading phase of a chunk kind (unknown chunks: 2).
        #[inline]
        pub(crate) fn phase_of(kind: Option<Kind>) -> u8 {
            match kind {
                Some(k) => PHASES[k as usize],
                None => 2,
            }
        }

        impl DataFile {
            /// Reads one chunk body.
            pub(crate) fn read_any(r: &mut crate::read::Reader) -> crate::error::Result<AnyChunk> {
                let name = r.chunk_name();
                Ok(match &name.0 {
                    $($name => AnyChunk::$ty(<$module::$ty as crate::chunk::Chunk>::read(r)?),)*
                    _ => AnyChunk::Unknown(crate::chunks::raw::UnknownChunk {
                        name,
                        body: crate::chunks::raw::RawBody::read(r)?,
                    }),
                })
            }

            /// Reads one chunk body of a known kind straight into its field (left `None` when
            /// the read fails).
            pub(crate) fn read_into(&mut self, kind: Kind, r: &mut crate::read::Reader) -> crate::error::Result<()> {
                match kind {
                    $(Kind::$ty => self.$field = Some(<$module::$ty as crate::chunk::Chunk>::read(r)?),)*
                }
                Ok(())
            }

            /// Stores a chunk read by [`DataFile::read_any`] in its field.
            pub(crate) fn store(&mut self, chunk: AnyChunk) {
                match chunk {
                    $(AnyChunk::$ty(c) => self.$field = Some(c),)*
                    AnyChunk::Unknown(c) => self.unknown.push(c),
                }
            }

            /// Writes one chunk body; false if the model has no such chunk.
            pub(crate) fn write_chunk(&self, name: crate::chunk::ChunkName, w: &mut crate::write::Writer) -> crate::error::Result<bool> {
                match &name.0 {
                    $($name => match &self.$field {
                        Some(c) => crate::chunk::Chunk::write(c, w).map(|_| true),
                        // Kept as bytes (lenient parse of a chunk that failed).
                        None => match self.unknown.iter().find(|c| c.name == name) {
                            Some(c) => { c.body.write(w); Ok(true) }
                            None => Ok(false),
                        },
                    },)*
                    _ => match self.unknown.iter().find(|c| c.name == name) {
                        Some(c) => { c.body.write(w); Ok(true) }
                        None => Ok(false),
                    },
                }
            }

            /// The model field (`objects`) that holds the chunk named `name` (`OBJT`); `None`
            /// for a chunk the model does not know.
            ///
            /// ```
            /// use gmkit_data::{ChunkName, DataFile};
            /// assert_eq!(DataFile::chunk_field(ChunkName(*b"OBJT")), Some("objects"));
            /// assert_eq!(DataFile::chunk_field(ChunkName(*b"ZZZZ")), None);
            /// ```
            pub fn chunk_field(name: crate::chunk::ChunkName) -> Option<&'static str> {
                match &name.0 {
                    $($name => Some(stringify!($field)),)*
                    _ => None,
                }
            }

            /// Names of the chunks present in the model, in registration order.
            pub(crate) fn present_chunks(&self) -> Vec<crate::chunk::ChunkName> {
                let mut v = Vec::new();
                $(if self.$field.is_some() { v.push(crate::chunk::ChunkName(*$name)); })*
                v.extend(self.unknown.iter().map(|c| c.name));
                v
            }

            /// Names of the chunks whose model still carries uninterpreted bytes (unknown chunks
            /// included). Empty when every chunk is fully typed.
            ///
            /// ```
            /// assert!(gmkit_data::sample().opaque_chunks().is_empty());
            /// ```
            pub fn opaque_chunks(&self) -> Vec<crate::chunk::ChunkName> {
                let mut v = Vec::new();
                $(if self.$field.as_ref().is_some_and(crate::chunk::Chunk::is_opaque) {
                    v.push(<$module::$ty as crate::chunk::Chunk>::NAME);
                })*
                v.extend(self.unknown.iter().map(|c| c.name));
                v
            }
        }
    };
}
pub(crate) use chunk_list;
