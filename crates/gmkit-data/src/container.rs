//! The FORM container: reading the chunk table, and the parse and build drivers.

use crate::chunk::ChunkName;
use crate::chunks::code;
use crate::chunks::raw::{RawBody, UnknownChunk};
use crate::chunks::{AnyChunk, DataFile, KINDS, Kind, MAX_PHASE, kind_of, phase_of};
use crate::error::{Error, ErrorKind, Location, Result, invalid};
use crate::model::Layout;
use crate::options::ParseOptions;
use crate::read::{AddrMap, ReadCtx, Reader, TARGETS, Warning};
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

/// One chunk of the table: its name, its kind when gmkit knows it, and its body.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ChunkEntry {
    /// The chunk's name.
    pub name: ChunkName,
    /// Its kind (`None`: a chunk gmkit does not know).
    pub kind: Option<Kind>,
    /// First byte of the body.
    pub start: usize,
    /// End of the body.
    pub end: usize,
}

/// The chunk table of a FORM file, in file order, with each known chunk found in one step.
#[derive(Clone, Debug)]
pub(crate) struct ChunkTable {
    entries: Vec<ChunkEntry>,
    /// Index in `entries` of each known kind present (`ABSENT` when it is not).
    known: [u32; KINDS],
}

/// A kind without a chunk in [`ChunkTable::known`].
const ABSENT: u32 = u32::MAX;

/// Most files have fewer chunks than this: the table is allocated once.
const USUAL_CHUNKS: usize = 40;

/// Unknown chunk names are checked for duplicates by a linear search up to this many, and
/// through a set beyond (a file of many tiny unknown chunks must not take quadratic time).
const LINEAR_UNKNOWN: usize = 16;

impl Default for ChunkTable {
    fn default() -> Self {
        ChunkTable {
            entries: Vec::new(),
            known: [ABSENT; KINDS],
        }
    }
}

impl ChunkTable {
    /// The chunks in file order.
    #[inline]
    pub(crate) fn entries(&self) -> &[ChunkEntry] {
        &self.entries
    }
    /// (name, body start, body end) of each chunk, in file order.
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = (ChunkName, usize, usize)> + '_ {
        self.entries.iter().map(|c| (c.name, c.start, c.end))
    }
    /// Whether a chunk of a known kind is present.
    #[inline]
    pub(crate) fn has_kind(&self, kind: Kind) -> bool {
        self.known[kind as usize] != ABSENT
    }
    /// The body range of a chunk, if present (one load for a known name given as a constant).
    #[inline]
    pub(crate) fn range(&self, name: &[u8; 4]) -> Option<(usize, usize)> {
        let entry = match kind_of(name) {
            Some(k) => self.entries.get(self.known[k as usize] as usize),
            None => self.entries.iter().find(|c| c.name.0 == *name),
        };
        entry.map(|c| (c.start, c.end))
    }
}

/// Reads the chunk table and the end of the FORM container.
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
    let mut table = ChunkTable {
        // Each chunk takes at least its 8-byte header.
        entries: Vec::with_capacity(USUAL_CHUNKS.min((form_end - 8) / 8)),
        known: [ABSENT; KINDS],
    };
    let mut unknown = 0usize;
    let mut unknown_set: Option<std::collections::HashSet<ChunkName>> = None;
    let mut pos = 8;
    while pos < form_end {
        let Some(header) = data.get(pos..pos + 8).filter(|_| form_end - pos >= 8) else {
            return Err(Error::at(
                pos,
                ErrorKind::Truncated {
                    what: "chunk header",
                    needed: 8,
                    available: form_end - pos,
                },
            ));
        };
        let (name, len) = header.split_at(4);
        let name = ChunkName(name.try_into().unwrap_or_default());
        let len = u32::from_le_bytes(len.try_into().unwrap_or_default()) as usize;
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
        let kind = kind_of(&name.0);
        // Known names are alphanumeric.
        if kind.is_none() && !name.0.iter().all(|b| b.is_ascii_alphanumeric()) {
            return Err(Error::at(
                pos,
                invalid(
                    "chunk name",
                    "four ASCII letters or digits",
                    format!("{:02X?}", name.0),
                ),
            ));
        }
        let index = table.entries.len();
        let seen = match kind {
            Some(k) => {
                let slot = &mut table.known[k as usize];
                let seen = *slot != ABSENT;
                *slot = index as u32;
                seen
            }
            None => {
                unknown += 1;
                if unknown <= LINEAR_UNKNOWN {
                    table.entries.iter().any(|c| c.name == name)
                } else {
                    let set = unknown_set.get_or_insert_with(|| {
                        table
                            .entries
                            .iter()
                            .filter(|c| c.kind.is_none())
                            .map(|c| c.name)
                            .collect()
                    });
                    !set.insert(name)
                }
            }
        };
        if seen {
            return Err(Error::new(
                invalid("chunk", "each chunk name once", format!("a second {name}")),
                Location {
                    chunk: Some(name),
                    element: None,
                    offset: pos,
                },
            ));
        }
        table.entries.push(ChunkEntry {
            name,
            kind,
            start,
            end,
        });
        pos = end;
    }
    Ok((table, form_end))
}

/// The alignment of chunk headers after the first: 16, 4 or 1 (always a power of two).
fn infer_chunk_align(chunks: &[ChunkEntry]) -> usize {
    // The low bits set in any header position.
    let low = chunks.iter().skip(1).fold(0, |acc, c| acc | (c.start - 8));
    [16, 4]
        .into_iter()
        .find(|a| low & (a - 1) == 0)
        .unwrap_or(1)
}

/// Parses a data file held in `src`.
pub(crate) fn parse(src: &Bytes, opts: &ParseOptions) -> Result<(DataFile, ParseReport)> {
    parse_from(src, opts, None)
}

/// Parses a data file held in `src`, mapped from `file` when given (see `ReadCtx::file`).
///
/// Version detection reads no bytecode for the instructions that reveal a version: they are
/// taken as absent, and the CODE reader, which checks every instruction anyway, says whether
/// they are. Should one show up after all (or the parse fail, or CODE not be read by its
/// scan), the file is parsed again with the whole bytecode scanned first, so the result is
/// always what a full scan gives.
pub(crate) fn parse_from(
    src: &Bytes,
    opts: &ParseOptions,
    file: Option<std::fs::File>,
) -> Result<(DataFile, ParseReport)> {
    parse_scanning(src, opts, file, false).map(|(m, r, _)| (m, r))
}

/// [`parse_from`], with version detection scanning the bytecode first when `scan_code` says
/// so; also says whether the file had to be parsed again.
fn parse_scanning(
    src: &Bytes,
    opts: &ParseOptions,
    file: Option<std::fs::File>,
    scan_code: bool,
) -> Result<(DataFile, ParseReport, bool)> {
    let data: &[u8] = src;
    let (chunks, form_end) = scan(data, opts.lenient)?;
    let det = Detect::new(data, &chunks, scan_code);
    let version = detect(&det);
    let unverified = det.code_flags.get().map_or(0, |f| f.unverified);
    if unverified == 0 {
        return read_chunks(src, opts, &mut { file }, chunks, form_end, version)
            .map(|(m, r, _)| (m, r, false));
    }
    // The file comes back for a second reading (reads beside payloads go through it).
    let mut file = file;
    if let Ok((model, report, seen)) = read_chunks(src, opts, &mut file, chunks, form_end, version)
    {
        let seen = match seen {
            Some(seen) => seen,
            // CODE was not read by its scan: look at the bytecode now.
            None => {
                let (chunks, _) = scan(data, opts.lenient)?;
                let det = Detect::new(data, &chunks, true);
                code::scan_features(&det, unverified, true).found
            }
        };
        if seen & unverified == 0 {
            return Ok((model, report, false));
        }
    }
    let (chunks, form_end) = scan(data, opts.lenient)?;
    let version = detect(&Detect::new(data, &chunks, true));
    read_chunks(src, opts, &mut file, chunks, form_end, version).map(|(m, r, _)| (m, r, true))
}

/// Reads the chunks of a file whose chunk table and version are known; also returns the
/// version features of all its bytecode when CODE's scan read every instruction. `file` (see
/// `ReadCtx::file`) is taken, and given back when the reading succeeds (without it, reads
/// beside payloads go through the map: still right, only less frugal).
fn read_chunks(
    src: &Bytes,
    opts: &ParseOptions,
    file: &mut Option<std::fs::File>,
    chunks: ChunkTable,
    form_end: usize,
    version: VersionReport,
) -> Result<(DataFile, ParseReport, Option<u8>)> {
    let mut report = ParseReport {
        version,
        ..Default::default()
    };
    let version = report.version.version;
    let chunk_align = infer_chunk_align(chunks.entries());
    let mut model = DataFile {
        version,
        layout: Layout {
            order: chunks.entries().iter().map(|c| c.name).collect(),
            chunk_align,
            tails: Vec::new(),
            trailing: src.slice(form_end..),
            size_hint: src.len(),
            code_chains: Default::default(),
            source: None,
            kept: Vec::new(),
        },
        ..Default::default()
    };
    let mut covered: Vec<(u32, u32)> = Vec::new();
    if opts.track_coverage {
        covered.reserve(chunks.entries().len() + 1);
        covered.push((0, 8));
        covered.extend(
            chunks
                .entries()
                .iter()
                .map(|c| ((c.start - 8) as u32, c.start as u32)),
        );
    }
    let mut ctx = ReadCtx {
        version,
        options: opts.clone(),
        targets: Default::default(),
        chunks,
        function_ends: Default::default(),
        code_features: Default::default(),
        code_chains: Default::default(),
        file: file.take(),
    };
    let count = ctx.chunks.entries().len();
    let kept_before = crate::refs::kept_read_count();
    // Chunk indices grouped by phase, in file order within a phase (a counting sort; on the
    // stack for the usual number of chunks).
    const PHASES: usize = MAX_PHASE as usize + 1;
    let mut starts = [0usize; PHASES + 1];
    for c in ctx.chunks.entries() {
        starts[phase_of(c.kind) as usize + 1] += 1;
    }
    for p in 0..PHASES {
        starts[p + 1] += starts[p];
    }
    let mut small = [0u32; USUAL_CHUNKS];
    let mut large = Vec::new();
    let order: &mut [u32] = if count <= USUAL_CHUNKS {
        &mut small[..count]
    } else {
        large.resize(count, 0);
        &mut large
    };
    // No phase of a file smaller than two offloadable chunks can offload one.
    let may_offload = src.len() >= 2 * OFFLOAD_MIN;
    let mut next = starts;
    for (i, c) in ctx.chunks.entries().iter().enumerate() {
        let p = phase_of(c.kind) as usize;
        order[next[p]] = i as u32;
        next[p] += 1;
    }
    for phase in 0..PHASES {
        // Chunks of one phase only depend on earlier phases (and may be read in parallel);
        // targets they publish become visible to the next phases only.
        let group = &order[starts[phase]..starts[phase + 1]];
        let mut pending: [Option<AddrMap>; TARGETS] = Default::default();
        if may_offload && let Some(k) = offload(ctx.chunks.entries(), group) {
            // One large chunk on a second thread while this one reads the rest; merged in
            // file order as if read one after the other.
            let big = group[k] as usize;
            let (theirs, mut results) = std::thread::scope(|s| {
                let theirs = s.spawn(|| read_chunk(src, &ctx, big, chunk_align, opts));
                let mine: Vec<Result<ChunkRead>> = group
                    .iter()
                    .filter(|&&i| i as usize != big)
                    .map(|&i| read_chunk(src, &ctx, i as usize, chunk_align, opts))
                    .collect();
                (theirs.join(), mine)
            });
            results.insert(
                k,
                theirs.unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            );
            for (res, &i) in results.into_iter().zip(group) {
                match res {
                    Ok(done) => {
                        model.store(done.chunk);
                        model.layout.tails.extend(done.tail);
                        covered.extend(done.coverage);
                        report.warnings.extend(done.warnings);
                        for (t, map) in done.published {
                            pending[t as usize] = Some(map);
                        }
                    }
                    Err(e) => keep_failed(
                        &mut model,
                        &mut report,
                        src,
                        ctx.chunks.entries()[i as usize],
                        e,
                        opts.lenient,
                    )?,
                }
            }
        } else {
            for &i in group {
                let i = i as usize;
                let c = ctx.chunks.entries()[i];
                // One chunk at a time, read straight into its field.
                let mut r = Reader::new(src, &ctx, c.name, c.start, c.end, opts.track_coverage);
                let read = match c.kind {
                    Some(kind) => model.read_into(kind, &mut r),
                    None => RawBody::read(&mut r).map(|body| {
                        model.unknown.push(UnknownChunk { name: c.name, body });
                    }),
                };
                if let Err(e) = read {
                    drop(r);
                    keep_failed(
                        &mut model,
                        &mut report,
                        src,
                        c,
                        e.in_chunk(c.name),
                        opts.lenient,
                    )?;
                    continue;
                }
                model
                    .layout
                    .tails
                    .extend(chunk_tail(src, &mut r, i + 1 == count, chunk_align));
                if opts.track_coverage {
                    covered.extend(r.take_coverage());
                }
                if !r.warnings.is_empty() {
                    report.warnings.append(&mut r.warnings);
                }
                if !r.published.is_empty() {
                    for (t, map) in r.published.drain(..) {
                        pending[t as usize] = Some(map);
                    }
                }
            }
        }
        for (t, map) in pending.into_iter().enumerate() {
            if let Some(map) = map {
                ctx.targets[t] = map;
            }
        }
    }
    model.layout.code_chains = crate::chunks::code::ReadChains(ctx.code_chains.take());
    let chunks = &ctx.chunks;
    if !report.failed_chunks.is_empty() {
        keep_bytecode_together(&mut model, src, chunks);
    }
    // Tails in file order, whatever order the chunks were read in.
    if model.layout.tails.len() > 1 {
        model
            .layout
            .tails
            .sort_by_key(|(name, _)| chunks.entries().iter().position(|c| c.name == *name));
    }
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
    let seen = ctx.code_features.get().copied();
    *file = ctx.file.take();
    if crate::refs::kept_read_count() != kept_before {
        model.layout.kept = crate::validate::kept_values(&model);
    }
    Ok((model, report, seen))
}

/// A chunk that failed to read: strict mode returns the error (with the detected version);
/// lenient mode keeps the chunk as its bytes and reads on.
fn keep_failed(
    model: &mut DataFile,
    report: &mut ParseReport,
    src: &Bytes,
    c: ChunkEntry,
    e: Error,
    lenient: bool,
) -> Result<()> {
    if !lenient {
        return Err(with_version(e, &report.version));
    }
    model.unknown.push(UnknownChunk {
        name: c.name,
        body: RawBody(src.slice(c.start..c.end)),
    });
    report.failed_chunks.push(e);
    Ok(())
}

/// Detects the version of a file from its chunk table (read leniently).
pub(crate) fn detect_version(data: &[u8]) -> Result<VersionReport> {
    let (chunks, _) = scan(data, true)?;
    Ok(detect(&Detect::new(data, &chunks, true)))
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
        if let Some((start, end)) = chunks.range(name)
            && was_typed
        {
            let name = ChunkName(**name);
            file.unknown.push(UnknownChunk {
                name,
                body: RawBody(src.slice(start..end)),
            });
            file.layout.tails.retain(|t| t.0 != name);
        }
    }
}

/// A chunk whose reading is worth a second thread: both it and the rest of its phase hold at
/// least this many bytes of metadata (a new thread may take from 0.1 to over 1 ms to start
/// running on a virtual machine; measured on the 2-vCPU machine of the README's figures).
const OFFLOAD_MIN: usize = 256 << 10;

/// The position in `group` (indices into `entries`) of the chunk to read on a second thread,
/// if any: the largest one other than CODE (whose reading keeps a table per thread, see
/// `code::spare_slots`), when it and the rest of the group each hold at least
/// [`OFFLOAD_MIN`] bytes of metadata (texture and audio chunks count as nothing: their
/// payloads are not read). Only ooo-kaizo of the corpus qualifies (ROOM 1.2 MB beside CODE
/// 0.5 MB): 2.7 → 2.0 ms a parse.
fn offload(entries: &[ChunkEntry], group: &[u32]) -> Option<usize> {
    let work = |c: &ChunkEntry| match &c.name.0 {
        b"TXTR" | b"AUDO" => 0,
        _ => c.end - c.start,
    };
    let total: usize = group.iter().map(|&i| work(&entries[i as usize])).sum();
    let k = (0..group.len())
        .filter(|&k| &entries[group[k] as usize].name.0 != b"CODE")
        .max_by_key(|&k| work(&entries[group[k] as usize]))?;
    let w = work(&entries[group[k] as usize]);
    (w >= OFFLOAD_MIN && total - w >= OFFLOAD_MIN).then_some(k)
}

/// One chunk as read on its own (possibly on another thread), with what its reader found.
struct ChunkRead {
    chunk: AnyChunk,
    tail: Option<(ChunkName, Bytes)>,
    coverage: Vec<(u32, u32)>,
    warnings: Vec<Warning>,
    published: Vec<(crate::read::Target, AddrMap)>,
}

/// Reads chunk `i` of the table (on a worker thread).
fn read_chunk(
    src: &Bytes,
    ctx: &ReadCtx,
    i: usize,
    chunk_align: usize,
    opts: &ParseOptions,
) -> Result<ChunkRead> {
    let entries = ctx.chunks.entries();
    let c = entries[i];
    let mut r = Reader::new(src, ctx, c.name, c.start, c.end, opts.track_coverage);
    let chunk = DataFile::read_any(&mut r).map_err(|e| e.in_chunk(c.name))?;
    let tail = chunk_tail(src, &mut r, i + 1 == entries.len(), chunk_align);
    Ok(ChunkRead {
        chunk,
        tail,
        coverage: r.take_coverage(),
        warnings: std::mem::take(&mut r.warnings),
        published: std::mem::take(&mut r.published),
    })
}

/// What is left of a chunk after its content: `None` when it is the zero padding up to the
/// next aligned chunk header (none after the last chunk), else the bytes, kept verbatim.
#[inline]
fn chunk_tail(
    src: &Bytes,
    r: &mut Reader,
    last: bool,
    chunk_align: usize,
) -> Option<(ChunkName, Bytes)> {
    let (start, end) = (r.chunk_start(), r.chunk_end());
    let content_end = r.pos().clamp(start, end);
    // `chunk_align` is a power of two (see `infer_chunk_align`).
    let padded_end = if last {
        content_end
    } else {
        (content_end + chunk_align - 1) & !(chunk_align - 1)
    };
    let is_padding = end == padded_end && src[content_end..end].iter().all(|&b| b == 0);
    if is_padding {
        r.mark_range(content_end, end);
        None
    } else {
        Some((r.chunk_name(), src.slice(content_end..end)))
    }
}

/// Writes a model back to bytes.
pub(crate) fn build(file: &DataFile) -> Result<Vec<u8>> {
    let out = build_with(file, false)?.finish()?;
    // The payloads were copied from the source: they are what was read if it is unchanged.
    file.layout.check_source()?;
    Ok(out)
}

/// Builds the file in parts, large payloads kept as views (see [`crate::Built`]).
pub(crate) fn build_parts(file: &DataFile) -> Result<crate::Built> {
    let mut built = build_with(file, true)?.finish_parts()?;
    built.source = file.layout.source.clone();
    Ok(built)
}

/// Writes every chunk; the caller resolves the references.
fn build_with(file: &DataFile, by_reference: bool) -> Result<Writer> {
    file.layout.check_source()?;
    if let Some(e) = crate::validate::alignments(file).into_iter().next() {
        return Err(e);
    }
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
            read_chains: file.layout.code_chains.0.clone(),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Version detection that reads no bytecode at all, leaving every feature to the CODE
    /// reader to confirm, gives every corpus file the version, evidence and model that the full
    /// scan gives (files whose version a feature settles are parsed again; in today's corpus
    /// other evidence always settles it, so the next test builds such a file).
    #[test]
    fn detection_without_bytecode_gives_what_the_full_scan_gives() {
        let Some(files) = gmkit_testdata::corpus() else {
            return;
        };
        for (name, bytes) in files {
            let src = Bytes::from(bytes);
            let opts = ParseOptions::default();
            let (full, full_report, full_again) = parse_scanning(&src, &opts, None, true).unwrap();
            assert!(!full_again, "{name}");
            let (m, report, _) = parse_scanning(&src, &opts, None, false).unwrap();
            assert_eq!(m.version, full.version, "{name}");
            assert_eq!(
                format!("{}", report.version),
                format!("{}", full_report.version),
                "{name}"
            );
            assert!(
                crate::build_bytes(&m).unwrap() == src[..],
                "{name}: rebuilt differently"
            );
        }
    }

    /// A feature only the CODE reader sees makes the file parse again, with the version the
    /// full scan gives: a 2.3.2 file given one `chknullish` is 2.3.7.
    #[test]
    fn a_feature_only_the_code_reader_sees_parses_the_file_again() {
        use crate::chunks::code::{DataType, ExtendedKind, Instruction};
        use crate::version::FormatVersion;
        let Some(bytes) = gmkit_testdata::corpus_file("dieback.win") else {
            return;
        };
        let mut m = crate::parse_bytes(Bytes::from(bytes)).unwrap();
        let nullish = FormatVersion::new(2, 3, 7, 0);
        assert!(m.version.format < nullish && m.version.bytecode >= 15);
        let code = m.code.as_mut().unwrap();
        let entry = (0..code.entries.len())
            .find(|&i| {
                code.instructions(i).is_ok_and(|ins| !ins.is_empty())
                    && code.instructions_mut(i).is_ok()
            })
            .unwrap();
        code.instructions_mut(entry)
            .unwrap()
            .push(Instruction::Extended {
                kind: ExtendedKind::CHKNULLISH,
                t: DataType::Int16,
                operand: None,
            });
        let built = Bytes::from(crate::build_bytes(&m).unwrap());
        let opts = ParseOptions::default();
        let (full, _, again) = parse_scanning(&built, &opts, None, true).unwrap();
        assert!(full.version.format >= nullish);
        // Scanning the bytecode first finds it at once.
        assert!(!again);
        let (spec, _, again) = parse_scanning(&built, &opts, None, false).unwrap();
        assert!(again);
        assert_eq!(spec.version, full.version);
    }

    /// A FORM of empty chunks with the given names.
    fn form(names: &[[u8; 4]]) -> Vec<u8> {
        let mut v = b"FORM".to_vec();
        v.extend_from_slice(&((names.len() * 8) as u32).to_le_bytes());
        for n in names {
            v.extend_from_slice(n);
            v.extend_from_slice(&0u32.to_le_bytes());
        }
        v
    }

    /// Distinct unknown names (more than the linear search covers).
    fn unknown_names(n: usize) -> Vec<[u8; 4]> {
        (0..n)
            .map(|i| {
                let d = |k: usize| b"0123456789"[(i / 10usize.pow(k as u32)) % 10];
                [b'Z', d(2), d(1), d(0)]
            })
            .collect()
    }

    #[test]
    fn table_finds_known_and_unknown_chunks() {
        let mut names = unknown_names(40);
        names.insert(3, *b"GEN8");
        names.push(*b"STRG");
        let data = form(&names);
        let (table, end) = scan(&data, false).unwrap();
        assert_eq!(end, data.len());
        assert_eq!(table.entries().len(), names.len());
        assert_eq!(table.range(b"GEN8"), Some((8 + 3 * 8 + 8, 8 + 3 * 8 + 8)));
        assert_eq!(table.range(b"STRG"), Some((data.len(), data.len())));
        assert_eq!(table.range(b"Z039"), Some((8 + 40 * 8 + 8, 8 + 40 * 8 + 8)));
        assert_eq!(table.range(b"CODE"), None);
        assert_eq!(table.range(b"Z040"), None);
        assert_eq!(table.entries()[3].kind, kind_of(b"GEN8"));
        assert_eq!(table.entries()[0].kind, None);
    }

    /// More chunks than the usual table holds (the phase order goes to the heap): all read, in
    /// file order, and written back byte for byte.
    #[test]
    fn many_unknown_chunks_read_in_order() {
        let names = unknown_names(USUAL_CHUNKS + 10);
        let data = form(&names);
        let (file, _) = parse(&Bytes::from(data.clone()), &ParseOptions::default()).unwrap();
        let read: Vec<ChunkName> = file.unknown.iter().map(|c| c.name).collect();
        let expected: Vec<ChunkName> = names.iter().map(|n| ChunkName(*n)).collect();
        assert_eq!(read, expected);
        assert_eq!(build(&file).unwrap(), data);
    }

    /// A second chunk of a name is refused at its header, known or not, before or after the
    /// unknown names go through a set.
    #[test]
    fn a_name_twice_is_refused_where_it_repeats() {
        for (dup, at) in [
            (*b"Z002", 5),
            (*b"Z002", 30),
            (*b"Z020", 30),
            (*b"GEN8", 30),
        ] {
            let mut names = unknown_names(40);
            names[1] = *b"GEN8";
            names.insert(at, dup);
            let e = scan(&form(&names), false).unwrap_err();
            assert_eq!(e.location.offset, 8 + 8 * at, "{dup:?} at {at}: {e}");
            assert_eq!(e.location.chunk, Some(ChunkName(dup)));
        }
        let names = unknown_names(1000);
        assert_eq!(scan(&form(&names), false).unwrap().0.entries().len(), 1000);
    }
}
