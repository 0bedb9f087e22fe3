//! `SHDR`: shaders: source texts for the GLSL ES / GLSL / HLSL9 back ends and compiled blobs for
//! HLSL11 and console targets.
//!
//! Layout: a pointer list (null entries 2024.11+). Shader: name; u32 type with the top bit set;
//! six strings (GLSL ES vertex/fragment, GLSL vertex/fragment, HLSL9 vertex/fragment); HLSL11
//! vertex and pixel blob pointers; simple list of vertex-attribute names; \[bytecode > 13\] i32
//! shader version, then (pointer, length) pairs for PSSL vertex/pixel and PS Vita Cg
//! vertex/pixel, [version ≥ 2] PS3 Cg vertex/pixel. Then each present blob in that order,
//! 8-aligned (PS3: 16). HLSL11 blobs have no length and a recorded length of 0 means the same:
//! such a blob runs to the next blob or to the end of the shader (next shader or chunk end),
//! so it includes the alignment zeros that follow it.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, FormatVersion, Version};
use crate::write::Writer;
use bytes::Bytes;

/// A compiled shader blob.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShaderBlob {
    /// The bytes (for blobs without a recorded length: up to the next blob or the shader's end,
    /// alignment zeros included).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]
    pub data: Bytes,
    /// Whether the length is recorded (false: the length field holds 0, or there is no length
    /// field as for HLSL11).
    pub length_recorded: bool,
}

/// A shader asset.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Shader {
    /// Asset name.
    pub name: StringRef,
    /// Shader type (1 GLSL ES, 2 GLSL, 3 HLSL9, 4 HLSL11, 5 PSSL, 6 Cg PS Vita, 7 Cg PS3), stored
    /// with the top bit set.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::shader_type"))]
    pub shader_type: u32,
    /// GLSL ES vertex source.
    pub glsl_es_vertex: Option<StringRef>,
    /// GLSL ES fragment source.
    pub glsl_es_fragment: Option<StringRef>,
    /// GLSL vertex source.
    pub glsl_vertex: Option<StringRef>,
    /// GLSL fragment source.
    pub glsl_fragment: Option<StringRef>,
    /// HLSL9 vertex source.
    pub hlsl9_vertex: Option<StringRef>,
    /// HLSL9 fragment source.
    pub hlsl9_fragment: Option<StringRef>,
    /// Vertex attribute names.
    pub vertex_attributes: Vec<StringRef>,
    /// Shader version (bytecode > 13; `None` before).
    pub version: Option<i32>,
    /// Compiled HLSL11 vertex shader.
    pub hlsl11_vertex: Option<ShaderBlob>,
    /// Compiled HLSL11 pixel shader.
    pub hlsl11_pixel: Option<ShaderBlob>,
    /// Console blobs, in file order: PSSL vertex, PSSL pixel, Cg PS Vita vertex, Cg PS Vita
    /// pixel, and (shader version ≥ 2) Cg PS3 vertex, Cg PS3 pixel. Empty when the file has no
    /// shader version.
    pub console: Vec<Option<ShaderBlob>>,
}

/// The `SHDR` chunk.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Shaders {
    /// The shaders (`None`: stripped asset, 2024.11+).
    pub shaders: Vec<Option<Shader>>,
}

/// Whether shaders carry the version and console blob block (bytecode > 13).
pub(crate) fn has_console_block(v: &Version) -> bool {
    v.bytecode > 13
}

/// Number of console (pointer, length) pairs for a shader version.
fn console_slots(version: i32) -> usize {
    if version >= 2 { 6 } else { 4 }
}

/// Alignment of console blob `i` (PS3 Cg blobs: 16).
fn console_align(i: usize) -> usize {
    if i >= 4 { 16 } else { 8 }
}

/// A blob to read: pointer, recorded length (None = no length field), alignment.
type BlobSlot = (u32, Option<u32>, usize);

fn read_blobs(
    r: &mut Reader,
    slots: &[BlobSlot],
    shader_end: usize,
) -> Result<Vec<Option<ShaderBlob>>> {
    let mut out = Vec::with_capacity(slots.len());
    for (i, &(ptr, len, align)) in slots.iter().enumerate() {
        if ptr == 0 {
            if len.is_some_and(|l| l != 0) {
                return Err(r.invalid(
                    "shader blob length",
                    "0 for an absent blob",
                    len.unwrap_or(0),
                ));
            }
            out.push(None);
            continue;
        }
        r.align(align)?;
        if ptr as usize != r.pos() {
            return Err(r.invalid(
                "shader blob pointer",
                format!(
                    "blobs stored in order, aligned to {align} (next at {})",
                    r.pos()
                ),
                ptr,
            ));
        }
        let length_recorded = len.is_some_and(|l| l != 0);
        let n = match len {
            Some(l) if l != 0 => l as usize,
            _ => {
                let next = slots[i + 1..]
                    .iter()
                    .find(|s| s.0 != 0)
                    .map_or(shader_end, |s| s.0 as usize);
                next.checked_sub(ptr as usize).ok_or_else(|| {
                    r.invalid("shader blob pointer", "blobs in increasing order", ptr)
                })?
            }
        };
        out.push(Some(ShaderBlob {
            data: r.bytes(n, "shader blob")?,
            length_recorded,
        }));
    }
    Ok(out)
}

impl Shader {
    fn read(r: &mut Reader, shader_end: usize) -> Result<Self> {
        let name = r.string()?;
        let at = r.pos();
        let raw_type = r.u32()?;
        if raw_type & 0x8000_0000 == 0 {
            return Err(r.error_at(
                at,
                crate::error::invalid("shader type", "a value with the top bit set", raw_type),
            ));
        }
        let mut s = Shader {
            name,
            shader_type: raw_type & 0x7FFF_FFFF,
            glsl_es_vertex: r.string_opt()?,
            glsl_es_fragment: r.string_opt()?,
            glsl_vertex: r.string_opt()?,
            glsl_fragment: r.string_opt()?,
            hlsl9_vertex: r.string_opt()?,
            hlsl9_fragment: r.string_opt()?,
            ..Default::default()
        };
        let mut slots: Vec<BlobSlot> = vec![(r.u32()?, None, 8), (r.u32()?, None, 8)];
        let n = r.count("vertex attribute", 4)?;
        s.vertex_attributes.reserve(n);
        for _ in 0..n {
            s.vertex_attributes.push(r.string()?);
        }
        if has_console_block(r.version()) {
            let version = r.i32()?;
            s.version = Some(version);
            for i in 0..console_slots(version) {
                slots.push((r.u32()?, Some(r.u32()?), console_align(i)));
            }
        }
        let mut blobs = read_blobs(r, &slots, shader_end)?.into_iter();
        s.hlsl11_vertex = blobs.next().flatten();
        s.hlsl11_pixel = blobs.next().flatten();
        s.console = blobs.collect();
        Ok(s)
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.string(self.name);
        w.u32(self.shader_type | 0x8000_0000);
        w.string_opt(self.glsl_es_vertex);
        w.string_opt(self.glsl_es_fragment);
        w.string_opt(self.glsl_vertex);
        w.string_opt(self.glsl_fragment);
        w.string_opt(self.hlsl9_vertex);
        w.string_opt(self.hlsl9_fragment);
        // (pointer slot, blob, alignment)
        let mut pending: Vec<(usize, &ShaderBlob, usize)> = Vec::new();
        for b in [&self.hlsl11_vertex, &self.hlsl11_pixel] {
            if let Some(b) = b {
                pending.push((w.pos(), b, 8));
            }
            w.u32(0);
        }
        w.u32(self.vertex_attributes.len() as u32);
        for &a in &self.vertex_attributes {
            w.string(a);
        }
        if has_console_block(w.version()) {
            let version = self.version.unwrap_or(2);
            w.i32(version);
            let slots = console_slots(version);
            if self.console.len() > slots {
                return Err(w.unwritable(
                    "shader",
                    format!(
                        "{} console blobs for shader version {version}",
                        self.console.len()
                    ),
                ));
            }
            for i in 0..slots {
                match self.console.get(i).and_then(Option::as_ref) {
                    Some(b) => {
                        pending.push((w.pos(), b, console_align(i)));
                        w.u32(0);
                        let len = if b.length_recorded {
                            u32::try_from(b.data.len())
                                .map_err(|_| w.unwritable("shader blob", "larger than 4 GiB"))?
                        } else {
                            0
                        };
                        w.u32(len);
                    }
                    None => {
                        w.u32(0);
                        w.u32(0);
                    }
                }
            }
        }
        for (slot, b, align) in pending {
            w.align(align);
            let p = w.pos32();
            w.patch_u32(slot, p);
            w.bytes(&b.data);
        }
        Ok(())
    }
}

impl Chunk for Shaders {
    const NAME: ChunkName = ChunkName(*b"SHDR");

    fn read(r: &mut Reader) -> Result<Self> {
        let ptrs = r.pointer_list("shader")?;
        let mut shaders = Vec::with_capacity(ptrs.len());
        for (i, &p) in ptrs.iter().enumerate() {
            if p == 0 {
                shaders.push(None);
                continue;
            }
            let end = ptrs[i + 1..]
                .iter()
                .find(|&&q| q != 0)
                .map_or(r.chunk_end(), |&q| q as usize);
            let prev = r.set_element("shader", i);
            r.seek(p as usize)?;
            shaders.push(Some(Shader::read(r, end)?));
            r.restore_element(prev);
        }
        r.check_nulls("shader pointer", &shaders)?;
        Ok(Shaders { shaders })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.pointer_list(&self.shaders, |_| {}, |w, s| s.write(w))
    }
}

/// 2024.11: null shader pointers (stripped SDF shaders).
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    if v.is_gms2() && crate::chunks::object::has_null_entry(d, b"SHDR") {
        v.raise(FormatVersion::new(2024, 11, 0, 0));
    }
}
