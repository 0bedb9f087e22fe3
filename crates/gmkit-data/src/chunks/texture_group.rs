//! `TGIN`: texture groups (2.2.1+), the lists of texture pages, sprites, fonts and tilesets
//! that load together.
//!
//! Layout: `u32` chunk version (1); a pointer list of groups. Group: name; [2022.9] directory,
//! extension (strings), `i32` load type; pointers to simple `i32` lists: texture pages, sprites,
//! [not 2023.1 non-LTS] spine sprites, fonts, tilesets; then those lists in that order.

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::background::Background;
use crate::chunks::font::Font;
use crate::chunks::sprite::Sprite;
use crate::chunks::texture::TexturePage;
use crate::error::Result;
use crate::read::Reader;
use crate::refs::{Id, StringRef};
use crate::version::{Detect, FormatVersion, Version};
use crate::write::Writer;

/// The `TGIN` chunk: texture groups.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TextureGroups {
    /// Chunk format version (1 in every known file).
    pub version: u32,
    /// The groups, in file order (`None`: null pointer of a stripped group, 2024.11+).
    pub groups: Vec<Option<TextureGroup>>,
}

impl Default for TextureGroups {
    fn default() -> Self {
        TextureGroups {
            version: 1,
            groups: Vec::new(),
        }
    }
}


/// One texture group.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TextureGroup {
    /// Group name.
    pub name: StringRef,
    /// Where external pages of this group live (2022.9+; `None` before).
    pub files: Option<GroupFiles>,
    /// Texture pages of the group (indices into TXTR).
    pub texture_pages: Vec<Id<TexturePage>>,
    /// Sprites of the group.
    pub sprites: Vec<Id<Sprite>>,
    /// Spine sprites of the group (`None` in 2023.1+ non-LTS files, which dropped the list).
    pub spine_sprites: Option<Vec<Id<Sprite>>>,
    /// Fonts of the group.
    pub fonts: Vec<Id<Font>>,
    /// Tilesets of the group (indices into BGND).
    pub tilesets: Vec<Id<Background>>,
}

/// External-file fields of a texture group (2022.9+). An external page is the file
/// `<directory>/<group name>_<index in group><extension>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GroupFiles {
    /// Directory of the external page files.
    pub directory: Option<StringRef>,
    /// File extension of the external page files (such as `.yytex`).
    pub extension: Option<StringRef>,
    /// Load type (0 = in the data file, 1 = dynamic/external).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::load_type"))]
    pub load_type: i32,
}

/// 2022.9+: groups carry directory, extension and load type.
fn has_files(v: &Version) -> bool {
    v.at_least(2022, 9)
}
/// Before 2023.1 (and on the LTS branch) groups carry a spine sprite list.
fn has_spine_list(v: &Version) -> bool {
    !v.non_lts_at_least(2023, 1)
}

impl Chunk for TextureGroups {
    const NAME: ChunkName = ChunkName(*b"TGIN");

    fn read(r: &mut Reader) -> Result<Self> {
        let v = *r.version();
        let version = r.u32()?;
        let ptrs = r.pointer_list("texture group")?;
        let mut groups = Vec::with_capacity(ptrs.len());
        let lists = if has_spine_list(&v) { 5 } else { 4 };
        for (i, &p) in ptrs.iter().enumerate() {
            if p == 0 {
                groups.push(None);
                continue;
            }
            let prev = r.set_element("texture group", i);
            r.expect_element_at(p, "texture group pointer")?;
            let name = r.string()?;
            let files = if has_files(&v) {
                Some(GroupFiles {
                    directory: r.string_opt()?,
                    extension: r.string_opt()?,
                    load_type: r.i32()?,
                })
            } else {
                None
            };
            let mut list_ptrs = [0u32; 5];
            for lp in list_ptrs.iter_mut().take(lists) {
                *lp = r.u32()?;
            }
            let mut out: [Vec<i32>; 5] = Default::default();
            for k in 0..lists {
                if list_ptrs[k] as usize != r.pos() {
                    return Err(r.invalid(
                        "id list pointer",
                        format!("lists stored right after the group (next at {})", r.pos()),
                        list_ptrs[k],
                    ));
                }
                let n = r.count("id list", 4)?;
                let mut ids = Vec::with_capacity(n);
                for _ in 0..n {
                    ids.push(r.i32()?);
                }
                out[k] = ids;
            }
            let [pages, sprites, a, b, c] = out;
            let (spine_sprites, fonts, tilesets) = if lists == 5 {
                (Some(a), b, c)
            } else {
                (None, a, b)
            };
            fn ids<T>(list: Vec<i32>) -> Vec<Id<T>> {
                list.into_iter().map(|x| Id::new(x as u32)).collect()
            }
            groups.push(Some(TextureGroup {
                name,
                files,
                texture_pages: ids(pages),
                sprites: ids(sprites),
                spine_sprites: spine_sprites.map(ids),
                fonts: ids(fonts),
                tilesets: ids(tilesets),
            }));
            r.restore_element(prev);
        }
        Ok(TextureGroups { version, groups })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        let v = *w.version();
        w.u32(self.version);
        w.pointer_list(
            &self.groups,
            |_| {},
            |w, g| {
                w.string(g.name);
                if has_files(&v) {
                    let f = g.files.unwrap_or(GroupFiles {
                        directory: None,
                        extension: None,
                        load_type: 0,
                    });
                    w.string_opt(f.directory);
                    w.string_opt(f.extension);
                    w.i32(f.load_type);
                }
                fn stored<T>(list: &[Id<T>]) -> Vec<i32> {
                    list.iter().map(|x| x.0 as i32).collect()
                }
                let pages = stored(&g.texture_pages);
                let tilesets = stored(&g.tilesets);
                let sprites = stored(&g.sprites);
                let spine = stored(g.spine_sprites.as_deref().unwrap_or(&[]));
                let fonts = stored(&g.fonts);
                let mut lists: Vec<&Vec<i32>> = vec![&pages, &sprites];
                if has_spine_list(&v) {
                    lists.push(&spine);
                }
                lists.push(&fonts);
                lists.push(&tilesets);
                let slots = w.pos();
                w.zeros(lists.len() * 4);
                for (k, list) in lists.iter().enumerate() {
                    let p = w.pos32();
                    w.patch_u32(slots + 4 * k, p);
                    w.u32(list.len() as u32);
                    for &id in list.iter() {
                        w.i32(id);
                    }
                }
                Ok(())
            },
        )
    }
}

/// TGIN checks. 2022.9 (needs 2.3): the first group's second word is not the pointer to its
/// first list (directory, extension and load type were inserted). 2023.1 non-LTS (needs 2022.9):
/// the word after the 4th list pointer is not above it, i.e. it is already the first list's
/// count (the spine list was removed).
///
/// Also 2024.11 (needs 2.3): a null pointer in the list (stripped asset).
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    crate::chunks::audio_group::detect_stripped(d, v, b"TGIN", 4);
    let Some((start, _end)) = d.chunk(b"TGIN") else {
        return;
    };
    let Some(n) = d.u32(start + 4) else { return };
    let Some(p0) = d.u32(start + 8) else { return };
    if n == 0 || p0 == 0 {
        return;
    }
    let p0 = p0 as usize;
    if v.at_least(2, 3) && !v.at_least(2022, 9)
        && let Some(second) = d.u32(p0 + 4)
            && second as usize != p0 + 24 {
                v.raise(FormatVersion::new(2022, 9, 0, 0));
            }
    if v.at_least(2022, 9) && !v.non_lts_at_least(2023, 1) && !v.lts
        && let (Some(fourth), Some(next)) = (d.u32(p0 + 28), d.u32(p0 + 32))
            && next <= fourth {
                v.raise(FormatVersion::new(2023, 1, 0, 0));
            }
}
