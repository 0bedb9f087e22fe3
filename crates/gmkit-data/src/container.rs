//! The FORM container: reading the chunk table, and the parse and build drivers.

use crate::chunk::ChunkName;
use crate::chunks::raw::{RawBody, UnknownChunk};
use crate::chunks::{AnyChunk, DataFile, phase_of};
use crate::error::{Error, ErrorKind, Location, Result, invalid};
use crate::model::Layout;
use crate::options::ParseOptions;
use crate::read::{AddrMap, ReadCtx, Reader, Warning};
use crate::version::{Detect, VersionReport, detect};
use crate::write::{WriteCtx, Writer};
use bytes::Bytes;

/// What a parse found besides the model.
#[derive(Clone, Debug, Default)]
pub struct ParseReport {
    /// Oddities that lenient mode let through.
    pub warnings: Vec<Warning>,
    /// With [`ParseOptions::track_coverage`]: byte ranges `[start, end)` of the file that no
    /// field explains (opaque chunks, non-zero padding, unknown bytes). Empty when exact.
    pub unexplained: Option<Vec<(usize, usize)>>,
    /// The detected version and the evidence for it.
    pub version: VersionReport,
    /// Lenient mode: the chunks that failed to parse, each kept as its bytes in
    /// [`DataFile::unknown`] (and listed by [`DataFile::opaque_chunks`]), with its error.
    /// CODE, VARI and FUNC are kept as bytes together (their occurrence chains are one
    /// structure).
    pub failed_chunks: Vec<Error>,
}

/// The chunk table of a FORM file: (name, body start, body end), plus the FORM end.
/// (name, body start, body end) of each chunk, in file order.
pub(crate) type ChunkTable = Vec<(ChunkName, usize, usize)>;

pub(crate) fn scan(data: &[u8], lenient: bool) -> Result<(ChunkTable, usize)> {
    if data.len() < 8 {
        return Err(Error::at(
            0,
            ErrorKind::Truncated {
                what: "FORM header",
                needed: 8,
                available: data.len(),
            },
        ));
    }
    if &data[0..4] != b"FORM" {
        return Err(Error::at(
            0,
            invalid("magic", "\"FORM\"", format!("{:02X?}", &data[0..4])),
        ));
    }
    let form_len = u32::from_le_bytes([data[4], data[5], data[6], data[7]]) as usize;
    let mut form_end = 8 + form_len;
    if form_end > data.len() {
        if !lenient {
            return Err(Error::at(
                4,
                invalid(
                    "FORM length",
                    format!("at most {} (the file size - 8)", data.len() - 8),
                    form_len,
                ),
            ));
        }
        form_end = data.len();
    }
    let mut chunks: Vec<(ChunkName, usize, usize)> = Vec::new();
    let mut pos = 8;
    while pos < form_end {
        if form_end - pos < 8 {
            return Err(Error::at(
                pos,
                ErrorKind::Truncated {
                    what: "chunk header",
                    needed: 8,
                    available: form_end - pos,
                },
            ));
        }
        let name = ChunkName([data[pos], data[pos + 1], data[pos + 2], data[pos + 3]]);
        let len = u32::from_le_bytes([data[pos + 4], data[pos + 5], data[pos + 6], data[pos + 7]])
            as usize;
        let start = pos + 8;
        let end = start + len;
        if end > form_end {
            return Err(Error::new(
                invalid("chunk length", format!("at most {}", form_end - start), len),
                Location {
                    chunk: Some(name),
                    element: None,
                    offset: pos + 4,
                },
            ));
        }
        if !name.0.iter().all(|b| b.is_ascii_alphanumeric()) {
            return Err(Error::at(
                pos,
                invalid(
                    "chunk name",
                    "four ASCII letters or digits",
                    format!("{:02X?}", name.0),
                ),
            ));
        }
        if chunks.iter().any(|c| c.0 == name) {
            return Err(Error::new(
                invalid("chunk", "each chunk name once", format!("a second {name}")),
                Location {
                    chunk: Some(name),
                    element: None,
                    offset: pos,
                },
            ));
        }
        chunks.push((name, start, end));
        pos = end;
    }
    Ok((chunks, form_end))
}

fn infer_chunk_align(chunks: &[(ChunkName, usize, usize)]) -> usize {
    let headers = chunks.iter().skip(1).map(|c| c.1 - 8);
    let mut align = 16;
    for h in headers {
        while h % align != 0 {
            align /= 4;
        }
        if align == 1 {
            break;
        }
    }
    align.max(1)
}

/// Parses a data file held in `src`.
pub(crate) fn parse(src: &Bytes, opts: &ParseOptions) -> Result<(DataFile, ParseReport)> {
    parse_from(src, opts, None)
}

/// Parses a data file held in `src`, mapped from `file` when given (see `ReadCtx::file`).
pub(crate) fn parse_from(
    src: &Bytes,
    opts: &ParseOptions,
    file: Option<std::fs::File>,
) -> Result<(DataFile, ParseReport)> {
    let data: &[u8] = src;
    let (chunks, form_end) = scan(data, opts.lenient)?;
    let version_report = detect(&Detect {
        data,
        chunks: &chunks,
        code_flags: Default::default(),
    });
    let version = version_report.version;
    let mut ctx = ReadCtx {
        version,
        options: opts.clone(),
        targets: Default::default(),
        chunks: chunks.clone(),
        function_ends: Default::default(),
        file,
    };
    let chunk_align = infer_chunk_align(&chunks);
    let mut file = DataFile {
        version,
        layout: Layout {
            order: chunks.iter().map(|c| c.0).collect(),
            chunk_align,
            tails: Vec::new(),
            trailing: src.slice(form_end..),
            size_hint: data.len(),
        },
        ..Default::default()
    };
    let mut report = ParseReport {
        version: version_report.clone(),
        ..Default::default()
    };
    let mut covered: Vec<(u32, u32)> = Vec::new();
    if opts.track_coverage {
        covered.push((0, 8));
        covered.extend(chunks.iter().map(|c| ((c.1 - 8) as u32, c.1 as u32)));
    }
    let mut by_phase: Vec<usize> = (0..chunks.len()).collect();
    by_phase.sort_by_key(|&i| (phase_of(&chunks[i].0), i));
    let mut k = 0;
    while k < by_phase.len() {
        // Chunks of one phase only depend on earlier phases: read them in parallel.
        let phase = phase_of(&chunks[by_phase[k]].0);
        let group_end = by_phase[k..]
            .iter()
            .position(|&i| phase_of(&chunks[i].0) != phase)
            .map_or(by_phase.len(), |n| k + n);
        let group = &by_phase[k..group_end];
        let read_one = |&i: &usize| {
            read_chunk(src, &ctx, &chunks, i, chunk_align, opts).or_else(|e| {
                if !opts.lenient {
                    return Err(e);
                }
                // Lenient: keep the chunk as its bytes and read on.
                let (name, start, end) = chunks[i];
                Ok(ChunkRead {
                    chunk: AnyChunk::Unknown(UnknownChunk {
                        name,
                        body: RawBody(src.slice(start..end)),
                    }),
                    tail: None,
                    coverage: Vec::new(),
                    warnings: Vec::new(),
                    published: Vec::new(),
                    failed: Some(e),
                })
            })
        };
        // Targets published by this phase become visible to the next phases only.
        let mut published = Vec::new();
        let mut absorb = |done: ChunkRead| {
            file.store(done.chunk);
            if let Some(tail) = done.tail {
                file.layout.tails.push(tail);
            }
            covered.extend(done.coverage);
            report.warnings.extend(done.warnings);
            published.extend(done.published);
            report.failed_chunks.extend(done.failed);
        };
        if group.len() > 1 && data.len() >= PARALLEL_MIN_SIZE {
            use rayon::prelude::*;
            let results: Vec<Result<ChunkRead>> = group.par_iter().map(read_one).collect();
            for res in results {
                absorb(res.map_err(|e| with_version(e, &version_report))?);
            }
        } else {
            // One chunk at a time: no list of every chunk model read (small files).
            for i in group {
                absorb(read_one(i).map_err(|e| with_version(e, &version_report))?);
            }
        }
        for (t, map) in published {
            ctx.targets[t as usize] = map;
        }
        k = group_end;
    }
    if !report.failed_chunks.is_empty() {
        keep_bytecode_together(&mut file, src, &chunks);
    }
    // Tails in file order, whatever order the chunks were read in.
    file.layout
        .tails
        .sort_by_key(|(name, _)| chunks.iter().position(|c| c.0 == *name));
    if opts.track_coverage {
        covered.sort_unstable();
        let mut gaps = Vec::new();
        let mut at = 0usize;
        for (s, e) in covered {
            let (s, e) = (s as usize, e as usize);
            if s > at {
                gaps.push((at, s));
            }
            at = at.max(e);
        }
        if at < form_end {
            gaps.push((at, form_end));
        }
        report.unexplained = Some(gaps);
    }
    Ok((file, report))
}

/// Detects the version of a file from its chunk table (read leniently).
pub(crate) fn detect_version(data: &[u8]) -> Result<VersionReport> {
    let (chunks, _) = scan(data, true)?;
    Ok(detect(&Detect {
        data,
        chunks: &chunks,
        code_flags: Default::default(),
    }))
}

/// Attaches the detected version and its evidence to a chunk's parse error.
fn with_version(mut e: Error, version: &VersionReport) -> Error {
    e.version = Some(Box::new(version.clone()));
    e
}

/// CODE, VARI and FUNC are written together (the occurrence chains run through CODE and end in
/// VARI/FUNC): when one of them is kept as bytes, the others are too.
fn keep_bytecode_together(file: &mut DataFile, src: &Bytes, chunks: &ChunkTable) {
    const GROUP: [&[u8; 4]; 3] = [b"CODE", b"VARI", b"FUNC"];
    if !file.unknown.iter().any(|c| GROUP.contains(&&c.name.0)) {
        return;
    }
    let (code, vari, func) = (
        file.code.take(),
        file.variables.take(),
        file.functions.take(),
    );
    let present = [code.is_some(), vari.is_some(), func.is_some()];
    for (name, was_typed) in GROUP.iter().zip(present) {
        if let Some(&(name, start, end)) = chunks.iter().find(|c| c.0.0 == **name)
            && was_typed
        {
            file.unknown.push(UnknownChunk {
                name,
                body: RawBody(src.slice(start..end)),
            });
            file.layout.tails.retain(|t| t.0 != name);
        }
    }
}

/// Files smaller than this are read on one thread (spawning costs more than it saves).
const PARALLEL_MIN_SIZE: usize = 1 << 40;

/// One chunk as read, with what its reader found.
struct ChunkRead {
    chunk: AnyChunk,
    tail: Option<(ChunkName, Bytes)>,
    coverage: Vec<(u32, u32)>,
    warnings: Vec<Warning>,
    published: Vec<(crate::read::Target, AddrMap)>,
    /// Lenient mode: why the chunk is kept as bytes.
    failed: Option<Error>,
}

/// Reads chunk `i` of the table.
fn read_chunk(
    src: &Bytes,
    ctx: &ReadCtx,
    chunks: &[(ChunkName, usize, usize)],
    i: usize,
    chunk_align: usize,
    opts: &ParseOptions,
) -> Result<ChunkRead> {
    let (name, start, end) = chunks[i];
    let last = i + 1 == chunks.len();
    let mut r = Reader::new(src, ctx, name, start, end, opts.track_coverage);
    let chunk = DataFile::read_any(&mut r).map_err(|e| e.in_chunk(name))?;
    let content_end = r.pos().clamp(start, end);
    let tail = &src[content_end..end];
    let is_padding = tail.iter().all(|&b| b == 0)
        && if last {
            tail.is_empty()
        } else {
            end == content_end.next_multiple_of(chunk_align)
        };
    let tail = if is_padding {
        r.mark_range(content_end, end);
        None
    } else {
        Some((name, src.slice(content_end..end)))
    };
    Ok(ChunkRead {
        chunk,
        tail,
        coverage: r.take_coverage(),
        warnings: std::mem::take(&mut r.warnings),
        published: std::mem::take(&mut r.published),
        failed: None,
    })
}

/// Writes a model back to bytes.
pub(crate) fn build(file: &DataFile) -> Result<Vec<u8>> {
    build_with(file, false)?.finish()
}

/// Builds the file in parts, large payloads kept as views (see [`crate::Built`]).
pub(crate) fn build_parts(file: &DataFile) -> Result<crate::Built> {
    build_with(file, true)?.finish_parts()
}

/// Writes every chunk; the caller resolves the references.
fn build_with(file: &DataFile, by_reference: bool) -> Result<Writer> {
    // The file's chunk order, less chunks removed from the model, plus chunks added to it.
    let present = file.present_chunks();
    let mut order: Vec<ChunkName> = file.layout.order.clone();
    order.retain(|n| present.contains(n));
    for &name in &present {
        if !order.contains(&name) {
            order.push(name);
        }
    }
    // An unmodified model writes exactly the size it was read from; edits rarely grow it much.
    // In parts, the payloads kept as views are not in the writer's buffer. Sized once, the
    // buffer is never copied to grow (pages reserved but not written cost nothing).
    let size = if by_reference {
        file.layout
            .size_hint
            .saturating_sub(viewed_payload_bytes(file))
    } else {
        file.layout.size_hint
    };
    let capacity = size.max(64) + size / 256;
    let mut w = Writer::new(
        capacity,
        size,
        WriteCtx {
            version: file.version,
            code: crate::chunks::code::WriteState::for_file(file),
        },
        by_reference,
    );
    w.bytes(b"FORM");
    w.u32(0);
    let align = file.layout.chunk_align.max(1);
    for (i, &name) in order.iter().enumerate() {
        w.set_chunk(name);
        let header = w.pos();
        w.bytes(&name.0);
        w.u32(0);
        file.write_chunk(name, &mut w)
            .map_err(|e| e.in_chunk(name))?;
        match file.layout.tails.iter().find(|t| t.0 == name) {
            Some((_, tail)) => w.bytes(tail),
            None if i + 1 < order.len() => w.align(align),
            None => {}
        }
        let len = w.pos() - header - 8;
        let len = u32::try_from(len).map_err(|_| w.unwritable("chunk", "larger than 4 GiB"))?;
        w.patch_u32(header + 4, len);
    }
    let form_len =
        u32::try_from(w.pos() - 8).map_err(|_| w.unwritable("FORM", "larger than 4 GiB"))?;
    w.patch_u32(4, form_len);
    w.bytes(&file.layout.trailing);
    Ok(w)
}

/// Bytes of the payloads that building in parts keeps as views ([`Writer::payload`]).
fn viewed_payload_bytes(file: &DataFile) -> usize {
    use crate::chunks::texture::PageData;
    let viewed = |n: usize| if n >= crate::write::SEGMENT_MIN { n } else { 0 };
    let pages = file.textures.iter().flat_map(|t| t.pages.iter().flatten());
    let textures: usize = pages
        .map(|p| match &p.data {
            PageData::Embedded(blob) => viewed(blob.len()),
            PageData::External { .. } => 0,
        })
        .sum();
    let audio: usize = file
        .audio
        .iter()
        .flat_map(|a| a.entries.iter().flatten())
        .map(|e| viewed(e.len()))
        .sum();
    textures + audio
}
