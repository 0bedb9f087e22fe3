//! `EXTN`: extensions (native libraries and their functions) and, per extension, 16 bytes of
//! product-ID data.
//!
//! Layout: a pointer list of extensions, then [product-data eligible: GMS2, or GMS1 build ≥ 1773
//! or = 1559] 16 bytes per extension. Extension: folder name, name, [2023.4] version, class name,
//! then [2022.6] a files-list pointer and an options-list pointer followed by the two pointer
//! lists, else the files pointer list inline. File: file name, cleanup script, init script, u32
//! kind, pointer list of functions. Function: name, u32 id, u32 kind, u32 return type, external
//! name, simple list of u32 argument types. Option: name, value, u32 kind.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, FormatVersion, Version};
use crate::write::Writer;

/// An extension.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Extension {
    /// Folder name.
    pub folder_name: StringRef,
    /// Extension name.
    pub name: StringRef,
    /// Version string (2023.4+).
    pub version: Option<StringRef>,
    /// Class name.
    pub class_name: StringRef,
    /// The extension's files.
    pub files: Vec<ExtensionFile>,
    /// Extension options (2022.6+).
    pub options: Option<Vec<ExtensionOption>>,
}

/// A file of an extension (a native library, GML or JS file).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ExtensionFile {
    /// File name.
    pub file_name: StringRef,
    /// Function called at game end.
    pub cleanup_script: StringRef,
    /// Function called at game start.
    pub init_script: StringRef,
    /// File kind (1 DLL, 2 GML, 3 action library, 4 generic, 5 JS).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::extension_file_kind"))]
    pub kind: u32,
    /// Functions the file exports.
    pub functions: Vec<ExtensionFunction>,
}

/// A function exported by an extension file.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ExtensionFunction {
    /// GML name.
    pub name: StringRef,
    /// Function id.
    pub id: u32,
    /// Kind (calling convention).
    pub kind: u32,
    /// Return type (1 string, 2 double).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::value_type"))]
    pub return_type: u32,
    /// Name in the native library.
    pub external_name: StringRef,
    /// Argument types (1 string, 2 double).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::value_type::list"))]
    pub arguments: Vec<u32>,
}

/// An extension option (2022.6+).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ExtensionOption {
    /// Option name.
    pub name: StringRef,
    /// Option value.
    pub value: StringRef,
    /// Option kind.
    pub kind: u32,
}

/// The `EXTN` chunk.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Extensions {
    /// The extensions (`None`: stripped asset, 2024.11+).
    pub extensions: Vec<Option<Extension>>,
    /// 16 bytes of product-ID data per extension (eligible files only; kept as read). When
    /// writing, missing entries are written as zeros.
    pub product_data: Option<Vec<[u8; 16]>>,
}

/// Whether the chunk ends with 16 bytes of product data per extension.
pub(crate) fn has_product_data(v: &Version) -> bool {
    v.is_gms2() || v.gms1_build().is_some_and(|b| b >= 1773 || b == 1559)
}
/// Whether extensions have an options list and list pointers (2022.6+).
pub(crate) fn has_options(v: &Version) -> bool {
    v.at_least(2022, 6)
}
/// Whether extensions have a version string (2023.4+).
pub(crate) fn has_version(v: &Version) -> bool {
    v.at_least(2023, 4)
}

impl ExtensionFunction {
    fn read(r: &mut Reader) -> Result<Self> {
        let mut f = r.fields::<20>("extension function")?;
        let name = f.string()?;
        let id = f.u32();
        let kind = f.u32();
        let return_type = f.u32();
        let external_name = f.string()?;
        let arguments = r.pointers("function argument")?.collect();
        Ok(ExtensionFunction {
            name,
            id,
            kind,
            return_type,
            external_name,
            arguments,
        })
    }
    fn write(&self, w: &mut Writer) -> Result<()> {
        w.string(self.name);
        w.u32(self.id);
        w.u32(self.kind);
        w.u32(self.return_type);
        w.string(self.external_name);
        w.u32(self.arguments.len() as u32);
        for &a in &self.arguments {
            w.u32(a);
        }
        Ok(())
    }
}

impl ExtensionFile {
    fn read(r: &mut Reader) -> Result<Self> {
        let mut f = r.fields::<16>("extension file")?;
        Ok(ExtensionFile {
            file_name: f.string()?,
            cleanup_script: f.string()?,
            init_script: f.string()?,
            kind: f.u32(),
            functions: r.pointer_list_required("extension function", ExtensionFunction::read)?,
        })
    }
    fn write(&self, w: &mut Writer) -> Result<()> {
        w.string(self.file_name);
        w.string(self.cleanup_script);
        w.string(self.init_script);
        w.u32(self.kind);
        w.pointer_list_required(&self.functions, |w, f| f.write(w))
    }
}

impl ExtensionOption {
    fn read(r: &mut Reader) -> Result<Self> {
        let mut f = r.fields::<12>("extension option")?;
        Ok(ExtensionOption {
            name: f.string()?,
            value: f.string()?,
            kind: f.u32(),
        })
    }
    fn write(&self, w: &mut Writer) -> Result<()> {
        w.string(self.name);
        w.string(self.value);
        w.u32(self.kind);
        Ok(())
    }
}

impl Extension {
    fn read(r: &mut Reader) -> Result<Self> {
        let v = *r.version();
        let folder_name = r.string()?;
        let name = r.string()?;
        let version = if has_version(&v) {
            Some(r.string()?)
        } else {
            None
        };
        let class_name = r.string()?;
        let (files, options) = if has_options(&v) {
            let files_at = r.u32()?;
            let options_at = r.u32()?;
            r.seek(files_at as usize)?;
            let files = r.pointer_list_required("extension file", ExtensionFile::read)?;
            r.seek(options_at as usize)?;
            let options = r.pointer_list_required("extension option", ExtensionOption::read)?;
            (files, Some(options))
        } else {
            (
                r.pointer_list_required("extension file", ExtensionFile::read)?,
                None,
            )
        };
        Ok(Extension {
            folder_name,
            name,
            version,
            class_name,
            files,
            options,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        let v = *w.version();
        w.string(self.folder_name);
        w.string(self.name);
        if has_version(&v) {
            match self.version {
                Some(s) => w.string(s),
                None => {
                    return Err(
                        w.unwritable("extension", "no version string (required from 2023.4)")
                    );
                }
            }
        }
        w.string(self.class_name);
        if has_options(&v) {
            let slots = w.pos();
            w.u32(0);
            w.u32(0);
            let p = w.pos32();
            w.patch_u32(slots, p);
            w.pointer_list_required(&self.files, |w, f| f.write(w))?;
            let p = w.pos32();
            w.patch_u32(slots + 4, p);
            let options = self.options.as_deref().unwrap_or(&[]);
            w.pointer_list_required(options, |w, o| o.write(w))
        } else {
            w.pointer_list_required(&self.files, |w, f| f.write(w))
        }
    }
}

impl Chunk for Extensions {
    const NAME: ChunkName = ChunkName(*b"EXTN");

    fn read(r: &mut Reader) -> Result<Self> {
        let extensions = r.pointer_list_elements("extension", Extension::read)?;
        r.check_nulls("extension pointer", &extensions)?;
        let product_data = if has_product_data(r.version()) {
            let at = r.pos();
            r.check_count(at, "extension product data", extensions.len(), 16)?;
            let mut v = Vec::with_capacity(extensions.len());
            for _ in 0..extensions.len() {
                let b = r.bytes_ref(16, "extension product data")?;
                let mut id = [0u8; 16];
                id.copy_from_slice(b);
                v.push(id);
            }
            Some(v)
        } else {
            None
        };
        Ok(Extensions {
            extensions,
            product_data,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.pointer_list(&self.extensions, |_| {}, |w, e| e.write(w))?;
        if has_product_data(w.version()) {
            let data = self.product_data.as_deref().unwrap_or(&[]);
            for i in 0..self.extensions.len() {
                w.bytes(data.get(i).unwrap_or(&[0; 16]));
            }
        }
        Ok(())
    }
}

/// EXTN layout checks: 2022.6 (files/options list pointers) and 2023.4 (version string).
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    let Some((start, end)) = d.chunk(b"EXTN") else {
        return;
    };
    let Some(n) = d.u32(start) else { return };
    let n = n as usize;
    if n == 0 || n.saturating_mul(4) > end.saturating_sub(start + 4) {
        return;
    }
    let Some(first) = d.u32(start + 4).map(|p| p as usize) else {
        return;
    };
    if first == 0 {
        return;
    }
    if v.at_least(2, 3) && !v.at_least(2022, 6) {
        let next = if n >= 2 {
            d.u32(start + 8).map(|p| p as usize)
        } else {
            None
        };
        let files_ok = d.u32(first + 12).map(|p| p as usize) == Some(first + 20);
        let options = d.u32(first + 16).map(|p| p as usize).unwrap_or(0);
        if files_ok && options > start && options < end {
            // Walk the options: count, pointers, 12-byte records.
            let walked = d.u32(options).and_then(|k| {
                let k = k as usize;
                (k <= (end - options) / 16).then(|| options + 4 + 16 * k)
            });
            let ok = match (walked, next) {
                (Some(e), Some(next)) => e == next,
                (Some(e), None) => {
                    let after = e + 16 * n;
                    after <= end && after.next_multiple_of(16) >= end
                }
                _ => false,
            };
            if ok {
                v.raise(FormatVersion::new(2022, 6, 0, 0));
            }
        }
    }
    if v.at_least(2022, 6) && !v.at_least(2023, 4)
        && let (Some(a), Some(b)) = (d.u32(first + 12), d.u32(first + 16))
            && a > b {
                v.raise(FormatVersion::new(2023, 4, 0, 0));
            }
}
