//! Checks a model before it is written: every reference points at an entry of its table, null
//! slots appear only where the version allows them, the room order lists every room, and what
//! the runner is known to refuse is absent: a typed reference ([`crate::AssetRef`], on every
//! field) holding a stored value that is neither its "none" nor an index, unless the file as
//! parsed held that value there ([`crate::Layout::kept`]: only an edit writes a new one); a
//! texture page item reaching outside its page;
//! a child code entry (a nested function) starting outside its parent's code or, in edited code,
//! inside an instruction.
//!
//! [`crate::build_bytes`] runs [`DataFile::validate`] first, so an edit that breaks one of these
//! rules fails with an error naming the chunk, the element (index and name), the field, what was
//! expected and what was found, instead of writing a file the game cannot load.

use crate::chunk::ChunkName;
use crate::chunks::DataFile;
use crate::error::{Error, ErrorKind, Location};
use crate::tables;
use crate::walk::{AssetKind, Elem, KINDS, Site, Slot, Visit, walk};

/// Stops collecting after this many problems.
const MAX_PROBLEMS: usize = 1000;

impl DataFile {
    /// Checks the model (see the module documentation); the first problem found is the error.
    ///
    /// ```
    /// let mut data = gmkit_data::sample();
    /// assert!(data.validate().is_ok());
    /// data.general.as_mut().unwrap().name = gmkit_data::StringRef(9_999_999);
    /// let e = data.validate().unwrap_err();
    /// assert!(e.to_string().contains("field name"), "{e}");
    /// ```
    pub fn validate(&self) -> crate::Result<()> {
        match check(self, 1).into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Every problem [`DataFile::validate`] would report (at most 1,000), in model order.
    ///
    /// ```
    /// let mut data = gmkit_data::sample();
    /// assert!(data.problems().is_empty());
    /// let g = data.general.as_mut().unwrap();
    /// g.name = gmkit_data::StringRef(9_999_999);
    /// g.display_name = gmkit_data::StringRef(9_999_998);
    /// assert_eq!(data.problems().len(), 2);
    /// ```
    pub fn problems(&self) -> Vec<Error> {
        check(self, MAX_PROBLEMS)
    }
}

/// The reference checker: a visitor of [`walk`] with the length of each table.
struct Checker<'a> {
    file: &'a DataFile,
    /// The kept values of the file as parsed, sorted.
    parsed_kept: Vec<(ChunkName, usize, &'a str, i32)>,
    /// Length of each kind's table; `u32::MAX` when the file has none (nothing to check
    /// against: YYC games have no CODE).
    lens: [u32; KINDS],
    limit: usize,
    found: Vec<Error>,
}

impl Checker<'_> {
    /// Refuses kept value `v` at `site` unless the file as parsed held it there.
    #[cold]
    #[inline(never)]
    fn kept(&mut self, kind: AssetKind, site: Site<'_>, v: i32) {
        if self.found.len() >= self.limit {
            return;
        }
        let path = site.path();
        let key = (site.elem.chunk, site.elem.index, path.as_str(), v);
        if self.parsed_kept.binary_search(&key).is_ok() {
            return;
        }
        let e = problem(
            self.file,
            site.elem,
            path,
            format!(
                "no {} (null) or a {} index (a stored value that is neither is kept only where the parsed file held it)",
                kind.name(),
                kind.name()
            ),
            v.to_string(),
        );
        self.found.push(e);
    }

    #[cold]
    #[inline(never)]
    fn out_of_range(&mut self, kind: AssetKind, site: Site<'_>, index: u32) {
        if self.found.len() >= self.limit {
            return;
        }
        let len = self.lens[kind as usize];
        let expected = match len {
            0 => format!(
                "no {} reference (the {} table is empty)",
                kind.name(),
                kind.chunk()
            ),
            n => format!(
                "a {} index below {n} (the {} table's length)",
                kind.name(),
                kind.chunk()
            ),
        };
        let e = problem(
            self.file,
            site.elem,
            site.path(),
            expected,
            index.to_string(),
        );
        self.found.push(e);
    }
}

impl Visit for Checker<'_> {
    #[inline]
    fn id<S: Slot>(&mut self, kind: AssetKind, site: Site<'_>, slot: &S) {
        if let Some(i) = slot.get()
            && i >= self.lens[kind as usize]
        {
            self.out_of_range(kind, site, i);
        }
        if let Some(v) = slot.kept() {
            self.kept(kind, site, v);
        }
    }

    #[inline]
    fn list<S: Slot>(&mut self, kind: AssetKind, site: Site<'_>, list: &Vec<S>) {
        let len = self.lens[kind as usize];
        for (k, s) in list.iter().enumerate() {
            let at = Site {
                field: list_field(site.field),
                sub: [k, 0, 0],
                ..site
            };
            if let Some(i) = s.get()
                && i >= len
            {
                self.out_of_range(kind, at, i);
            }
            if let Some(v) = s.kept() {
                self.kept(kind, at, v);
            }
        }
    }
}

/// `field[{}]` for the membership lists the walk names (a small fixed set, so the path stays
/// a static string).
pub(crate) fn list_field(field: &'static str) -> &'static str {
    match field {
        "room_order" => "room_order[{}]",
        "code_ids" => "code_ids[{}]",
        "sequences" => "sequences[{}]",
        "texture_pages" => "texture_pages[{}]",
        "sprites" => "sprites[{}]",
        "spine_sprites" => "spine_sprites[{}]",
        "fonts" => "fonts[{}]",
        "tilesets" => "tilesets[{}]",
        "emitters" => "emitters[{}]",
        other => other,
    }
}

/// An [`ErrorKind::InvalidModel`] about `elem`.
pub(crate) fn problem(
    file: &DataFile,
    elem: &Elem,
    field: String,
    expected: String,
    found: String,
) -> Error {
    Error::new(
        ErrorKind::InvalidModel(Box::new(crate::error::ModelProblem {
            element: element_text(file, elem),
            field,
            expected,
            found,
        })),
        Location {
            chunk: Some(elem.chunk),
            element: Some((elem.kind, elem.index)),
            offset: 0,
        },
    )
}

/// `object #3 "obj_player"` (the name when it resolves).
pub(crate) fn element_text(file: &DataFile, elem: &Elem) -> String {
    let name = elem
        .name
        .and_then(|n| file.strings.as_ref()?.get(n))
        .map(|s| format!(" {:?}", s.to_string_lossy()));
    format!("{} #{}{}", elem.kind, elem.index, name.unwrap_or_default())
}

/// The element that holds a whole table (for table-level problems).
fn table_elem(chunk: &[u8; 4], kind: &'static str, index: usize) -> Elem {
    Elem {
        chunk: ChunkName(*chunk),
        kind,
        index,
        name: None,
    }
}

/// Runs every check, stopping after `limit` problems.
fn check(file: &DataFile, limit: usize) -> Vec<Error> {
    let mut found = alignments(file);
    // Null slots.
    if !file.version.allows_null_slots() {
        let tables = AssetKind::ALL.iter().filter_map(|&k| {
            let i = tables::first_null(file, k)?;
            let chunk = k.chunk().0;
            Some((chunk, k.name(), i))
        });
        let others = tables::other_nulls(file)
            .into_iter()
            .filter_map(|(c, what, i)| Some((*c, what, i?)));
        for (chunk, what, i) in tables.chain(others) {
            found.push(problem(
                file,
                &table_elem(&chunk, what, i),
                "slot".into(),
                format!(
                    "an entry (null slots of stripped assets exist only from 2024.11; this file is {})",
                    file.version
                ),
                "a null slot".into(),
            ));
        }
    }
    // References.
    let mut lens = [u32::MAX; KINDS];
    for k in AssetKind::ALL {
        if let Some(n) = tables::table_len(file, k) {
            lens[k as usize] = u32::try_from(n).unwrap_or(u32::MAX);
        }
    }
    let mut parsed_kept: Vec<_> = file
        .layout
        .kept
        .iter()
        .map(|k| (k.chunk, k.index, k.field.as_str(), k.value))
        .collect();
    parsed_kept.sort_unstable();
    let mut checker = Checker {
        file,
        parsed_kept,
        lens,
        limit: limit.saturating_sub(found.len()),
        found: Vec::new(),
    };
    if checker.limit > 0 {
        walk(file, &mut checker);
    }
    found.append(&mut checker.found);
    // Room order.
    room_order(file, &mut found);
    // What the runner refuses beyond references.
    if found.len() < limit {
        items_on_their_pages(file, &mut found);
        child_code_offsets(file, &mut found);
    }
    found.truncate(limit);
    found
}

/// Alignments the writer pads to (chunk headers, the ends of STRG and TXTR) must be at most
/// [`crate::MAX_ALIGN`]; 0 means none, like 1. The container writer checks these too, before it
/// allocates anything, so even an unchecked build cannot pad a file with gigabytes of zeros.
pub(crate) fn alignments(file: &DataFile) -> Vec<Error> {
    let mut found = Vec::new();
    let values = [
        (
            b"GEN8",
            "layout",
            "chunk_align",
            Some(file.layout.chunk_align),
        ),
        (
            b"STRG",
            "string table",
            "end_align",
            file.strings.as_ref().map(|s| s.end_align),
        ),
        (
            b"TXTR",
            "texture chunk",
            "end_align",
            file.textures.as_ref().map(|t| t.end_align),
        ),
    ];
    for (chunk, what, field, value) in values {
        if let Some(v) = value.filter(|&v| v > crate::MAX_ALIGN) {
            found.push(problem(
                file,
                &table_elem(chunk, what, 0),
                field.into(),
                format!("an alignment of at most {} bytes", crate::MAX_ALIGN),
                v.to_string(),
            ));
        }
    }
    found
}

/// The room order must list every room (a room outside it is unreachable by
/// `room_goto_next`, and the runner starts with the first entry).
fn room_order(file: &DataFile, found: &mut Vec<Error>) {
    let (Some(general), Some(rooms)) = (&file.general, &file.rooms) else {
        return;
    };
    let n = rooms.rooms.len();
    if n == 0 {
        return;
    }
    let mut listed = vec![false; n];
    for &r in &general.room_order {
        if let Some(i) = r.index()
            && let Some(l) = listed.get_mut(i)
        {
            *l = true;
        }
    }
    for (i, room) in rooms.rooms.iter().enumerate() {
        if let (false, Some(room)) = (listed[i], room) {
            let elem = Elem {
                chunk: ChunkName(*b"ROOM"),
                kind: "room",
                index: i,
                name: Some(room.name),
            };
            found.push(problem(
                file,
                &elem,
                "(room order)".into(),
                "every room listed in GEN8's room order".into(),
                format!(
                    "room #{i} missing from the room order ({} entries)",
                    general.room_order.len()
                ),
            ));
        }
    }
}

/// Every kept value of `file` with where it sits (recorded at parse in
/// [`crate::Layout::kept`]).
pub(crate) fn kept_values(file: &DataFile) -> Vec<crate::KeptValue> {
    struct Kept(Vec<crate::KeptValue>);
    impl Kept {
        fn push(&mut self, site: Site<'_>, value: i32) {
            self.0.push(crate::KeptValue {
                chunk: site.elem.chunk,
                index: site.elem.index,
                field: site.path(),
                value,
            });
        }
    }
    impl Visit for Kept {
        fn id<S: Slot>(&mut self, _: AssetKind, site: Site<'_>, slot: &S) {
            if let Some(v) = slot.kept() {
                self.push(site, v);
            }
        }
        fn list<S: Slot>(&mut self, _: AssetKind, site: Site<'_>, list: &Vec<S>) {
            for (k, s) in list.iter().enumerate() {
                if let Some(v) = s.kept() {
                    let at = Site {
                        field: list_field(site.field),
                        sub: [k, 0, 0],
                        ..site
                    };
                    self.push(at, v);
                }
            }
        }
    }
    let mut out = Kept(Vec::new());
    walk(file, &mut out);
    out.0.sort_unstable();
    out.0
}

/// Texture page items must lie inside their page (the page's size from its image header, or
/// its 2022.9 record): a page replaced by a smaller image leaves its items pointing outside it.
fn items_on_their_pages(file: &DataFile, found: &mut Vec<Error>) {
    let (Some(items), Some(textures)) = (&file.texture_page_items, &file.textures) else {
        return;
    };
    let sizes: Vec<Option<(u32, u32)>> = textures
        .pages
        .iter()
        .map(|p| {
            let p = p.as_ref()?;
            Some((p.width()?, p.height()?))
        })
        .collect();
    for (i, item) in items.items.iter().enumerate() {
        let Some(item) = item else { continue };
        let Some(&Some((w, h))) = usize::try_from(item.texture_page)
            .ok()
            .and_then(|p| sizes.get(p))
        else {
            continue;
        };
        let [x, y, iw, ih] = item.source.map(u32::from);
        if x + iw > w || y + ih > h {
            let elem = Elem {
                chunk: ChunkName(*b"TPAG"),
                kind: "texture page item",
                index: i,
                name: None,
            };
            found.push(problem(
                file,
                &elem,
                "source".into(),
                format!(
                    "a rectangle inside texture page {} ({w}×{h})",
                    item.texture_page
                ),
                format!("x {x}, y {y}, width {iw}, height {ih}"),
            ));
        }
    }
}

/// A child code entry starts inside its parent's code: at most at its end, and in a parent
/// whose instructions were edited, at an instruction (a nested function's header not updated
/// after instructions were put in before it would start mid-instruction). Encoded parents are
/// as read, so only their length is checked (no decoding on every build).
fn child_code_offsets(file: &DataFile, found: &mut Vec<Error>) {
    use crate::chunks::code::CodeBody;
    let Some(code) = &file.code else {
        return;
    };
    // Instruction starts of edited parents, computed once each.
    let mut starts: std::collections::HashMap<u32, (Vec<u32>, u32)> = Default::default();
    for (i, e) in code.entries.iter().enumerate() {
        let CodeBody::Shared { parent } = e.body else {
            continue;
        };
        let Some(p) = code.entries.get(parent as usize) else {
            continue; // the walk reports it
        };
        let off = e.execution_offset;
        let bad = match &p.body {
            CodeBody::Encoded(blob) => (off as usize > blob.len())
                .then(|| format!("at most {} (the parent's size)", blob.len())),
            CodeBody::Instructions(v) => {
                let (at, end) = starts.entry(parent).or_insert_with(|| {
                    let mut at = Vec::with_capacity(v.len());
                    let mut pos = 0u32;
                    for ins in v {
                        at.push(pos);
                        pos = pos.saturating_add(ins.size() as u32);
                    }
                    (at, pos)
                });
                (off != *end && at.binary_search(&off).is_err()).then(|| {
                    format!(
                        "the byte offset of an instruction of the parent (code entry #{parent}, \
                         {end} bytes)"
                    )
                })
            }
            CodeBody::Shared { .. } => Some(format!(
                "a root entry as parent (code entry #{parent} is itself a child)"
            )),
        };
        if let Some(expected) = bad {
            let elem = Elem {
                chunk: ChunkName(*b"CODE"),
                kind: "code entry",
                index: i,
                name: Some(e.name),
            };
            found.push(problem(
                file,
                &elem,
                "execution_offset".into(),
                expected,
                off.to_string(),
            ));
        }
    }
}
