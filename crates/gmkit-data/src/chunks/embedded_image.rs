//! `EMBI`: embedded images (GMS2), named texture page items used by the runner itself.
//!
//! Layout: `u32` chunk version (1); a simple list of (name, TPAG item pointer).

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::texture_page_item::{TexturePageItems, TpagRef};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The `EMBI` chunk: embedded images.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EmbeddedImages {
    /// Chunk format version (1 in every known file).
    pub version: u32,
    /// The images, in file order.
    pub images: Vec<EmbeddedImage>,
}

impl Default for EmbeddedImages {
    fn default() -> Self {
        EmbeddedImages {
            version: 1,
            images: Vec::new(),
        }
    }
}

/// One embedded image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EmbeddedImage {
    /// Image name.
    pub name: StringRef,
    /// The texture page item holding the image (`None`: null pointer).
    pub texture: Option<TpagRef>,
}

impl Chunk for EmbeddedImages {
    const NAME: ChunkName = ChunkName(*b"EMBI");

    fn read(r: &mut Reader) -> Result<Self> {
        let version = r.u32()?;
        let n = r.count("embedded image", 8)?;
        let mut images = Vec::with_capacity(n);
        for i in 0..n {
            let prev = r.set_element("embedded image", i);
            images.push(EmbeddedImage {
                name: r.string()?,
                texture: TexturePageItems::read_ref(r)?,
            });
            r.restore_element(prev);
        }
        Ok(EmbeddedImages { version, images })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.u32(self.version);
        w.u32(self.images.len() as u32);
        for img in &self.images {
            w.string(img.name);
            TexturePageItems::write_ref(w, img.texture);
        }
        Ok(())
    }
}

/// No layout checks in EMBI.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
