//! What a data file is: name, version and why, chunk table, asset counts, VM or YYC. Works
//! from the raw chunk table, so it still says all it can when a chunk fails to parse.

use gmkit_data::DataFile;
use serde::Serialize;

/// One chunk of the container.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ChunkInfo {
    /// Four-letter name.
    pub name: String,
    /// Offset of the chunk header in the file.
    pub offset: usize,
    /// Size of the chunk body in bytes.
    pub size: usize,
}

/// The summary of a data file (`gmkit info`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Info {
    /// File size in bytes.
    pub size: usize,
    /// Game name (GEN8 display name), when GEN8 parsed.
    pub name: Option<String>,
    /// Detected version, as `2023.4 (bytecode 17, IDE 2.0.0.0)`.
    pub version: Option<String>,
    /// What the version rests on, one fact per line.
    pub version_evidence: Vec<String>,
    /// `VM` (bytecode in CODE) or `YYC` (compiled to native code: CODE absent or empty).
    pub compiler: Option<String>,
    /// The chunks in file order.
    pub chunks: Vec<ChunkInfo>,
    /// Asset counts by kind (sprites, sounds, rooms, ...), kinds in a fixed order.
    pub counts: Vec<(String, usize)>,
    /// Why the file did not parse (the chunk is named), when it did not.
    pub error: Option<String>,
}

fn le32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

/// The chunk table read straight from the FORM header (stops at the first inconsistency).
pub fn chunk_table(b: &[u8]) -> Vec<ChunkInfo> {
    let mut out = Vec::new();
    if b.get(0..4) != Some(b"FORM") {
        return out;
    }
    let end = (le32(b, 4).unwrap_or(0) as usize)
        .saturating_add(8)
        .min(b.len());
    let mut pos = 8;
    while pos + 8 <= end {
        let name = String::from_utf8_lossy(&b[pos..pos + 4]).into_owned();
        let Some(len) = le32(b, pos + 4) else { break };
        let len = len as usize;
        if pos + 8 + len > end {
            break;
        }
        out.push(ChunkInfo {
            name,
            offset: pos,
            size: len,
        });
        pos += 8 + len;
    }
    out
}

/// Asset counts of a parsed file, by kind.
pub fn counts(f: &DataFile) -> Vec<(String, usize)> {
    fn some<T>(v: &[Option<T>]) -> usize {
        v.iter().filter(|x| x.is_some()).count()
    }
    let mut c: Vec<(&str, Option<usize>)> = vec![
        ("sprites", f.sprites.as_ref().map(|x| some(&x.sprites))),
        ("sounds", f.sounds.as_ref().map(|x| some(&x.sounds))),
        (
            "backgrounds",
            f.backgrounds.as_ref().map(|x| some(&x.backgrounds)),
        ),
        ("paths", f.paths.as_ref().map(|x| some(&x.paths))),
        ("scripts", f.scripts.as_ref().map(|x| some(&x.scripts))),
        ("shaders", f.shaders.as_ref().map(|x| some(&x.shaders))),
        ("fonts", f.fonts.as_ref().map(|x| some(&x.fonts))),
        (
            "timelines",
            f.timelines.as_ref().map(|x| some(&x.timelines)),
        ),
        ("objects", f.objects.as_ref().map(|x| some(&x.objects))),
        ("rooms", f.rooms.as_ref().map(|x| some(&x.rooms))),
        (
            "sequences",
            f.sequences.as_ref().map(|x| some(&x.sequences)),
        ),
        ("code", f.code.as_ref().map(|x| x.entries.len())),
        ("variables", f.variables.as_ref().map(|x| x.variables.len())),
        ("functions", f.functions.as_ref().map(|x| x.functions.len())),
        ("strings", f.strings.as_ref().map(|x| x.len())),
        ("textures", f.textures.as_ref().map(|x| some(&x.pages))),
        (
            "texture_page_items",
            f.texture_page_items.as_ref().map(|x| some(&x.items)),
        ),
        ("audio", f.audio.as_ref().map(|x| some(&x.entries))),
        (
            "extensions",
            f.extensions.as_ref().map(|x| some(&x.extensions)),
        ),
    ];
    c.retain(|x| x.1.is_some());
    c.into_iter()
        .map(|(k, n)| (k.to_owned(), n.unwrap_or(0)))
        .collect()
}

/// Why `bytes` are not a GameMaker data file, in one line (what was expected, what was
/// found), or `None` when they start as one: a `FORM` container whose first chunk header is
/// inside the file. Say this instead of summarizing a file that is something else (an image,
/// an archive, the game's executable, a text file).
///
/// ```
/// use gmkit_folder::info::not_a_data_file;
/// assert_eq!(not_a_data_file(b"FORM\x08\0\0\0GEN8\0\0\0\0"), None);
/// let why = not_a_data_file(b"\x89PNG\r\n\x1a\n....").unwrap();
/// assert_eq!(why, "expected a GameMaker data file (data.win, game.unx, ...: a FORM container), found a PNG image");
/// ```
pub fn not_a_data_file(bytes: &[u8]) -> Option<String> {
    const EXPECTED: &str =
        "expected a GameMaker data file (data.win, game.unx, ...: a FORM container)";
    if bytes.starts_with(b"FORM") {
        let declared = le32(bytes, 4).unwrap_or(0) as usize;
        return if bytes.len() < 16 || declared < 8 {
            Some(format!(
                "{EXPECTED}, found a FORM header with no chunk in it ({} bytes)",
                bytes.len()
            ))
        } else {
            None
        };
    }
    let at = |i: usize, m: &[u8]| bytes.get(i..i + m.len()) == Some(m);
    let found = if bytes.is_empty() {
        "an empty file".to_owned()
    } else if at(0, b"\x89PNG") {
        "a PNG image".to_owned()
    } else if at(0, b"PK\x03\x04") {
        "a ZIP archive (an APK or a packaged game: its data file is inside)".to_owned()
    } else if at(0, b"MZ") {
        "a Windows executable (the game's data.win is usually the file beside it)".to_owned()
    } else if at(0, b"\x7fELF") {
        "an ELF executable (the game's game.unx is usually beside it, in assets/)".to_owned()
    } else if at(0, b"RIFF") || at(0, b"OggS") {
        "an audio file".to_owned()
    } else if at(0, b"GIF8") || at(0, b"\xff\xd8\xff") {
        "an image".to_owned()
    } else if std::str::from_utf8(&bytes[..bytes.len().min(512)]).is_ok_and(|t| {
        !t.chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    }) {
        let head: String = bytes[..bytes.len().min(16)]
            .iter()
            .map(|&b| b as char)
            .take_while(|c| !c.is_control())
            .collect();
        format!("text ({head:?}...)")
    } else {
        let hex: Vec<String> = bytes.iter().take(4).map(|b| format!("{b:02X}")).collect();
        format!("bytes {} instead of \"FORM\"", hex.join(" "))
    };
    Some(format!("{EXPECTED}, found {found}"))
}

/// Summarizes a data file's bytes.
pub fn info(bytes: &[u8]) -> Info {
    let chunks = chunk_table(bytes);
    let mut info = Info {
        size: bytes.len(),
        name: None,
        version: None,
        version_evidence: Vec::new(),
        compiler: None,
        counts: Vec::new(),
        error: None,
        chunks,
    };
    // GEN8's own fields, read raw: they survive any later chunk failing.
    if let Some(g) = info.chunks.iter().find(|c| c.name == "GEN8") {
        let body = g.offset + 8;
        if let Some(&bc) = bytes.get(body + 1) {
            info.version_evidence
                .push(format!("GEN8 bytecode version {bc}"));
        }
        let ide: Option<Vec<u32>> = (0..4).map(|i| le32(bytes, body + 44 + 4 * i)).collect();
        if let Some(ide) = ide {
            info.version_evidence.push(format!(
                "GEN8 IDE version {}.{}.{}.{}",
                ide[0], ide[1], ide[2], ide[3]
            ));
        }
    }
    let names: Vec<&str> = info.chunks.iter().map(|c| c.name.as_str()).collect();
    info.version_evidence
        .push(format!("chunks present: {}", names.join(" ")));
    // Only a game's main data file (with GEN8) is VM or YYC; an `audiogroupN.dat` is neither.
    if info.chunks.iter().any(|c| c.name == "GEN8") {
        info.compiler = Some(
            match info.chunks.iter().find(|c| c.name == "CODE") {
                Some(c) if c.size > 0 => "VM",
                _ => "YYC",
            }
            .to_owned(),
        );
    }
    // The detector's own steps (GEN8, chunks present, per-chunk layout checks): they are known
    // even when a chunk later fails to parse.
    match gmkit_data::detect_version(bytes) {
        Ok(report) => {
            info.version = Some(report.version.to_string());
            info.version_evidence
                .extend(report.evidence.iter().map(|e| format!("decided by {e}")));
        }
        Err(e) => info
            .version_evidence
            .push(format!("layout version not detected: {e}")),
    }
    match gmkit_data::parse_bytes(bytes.to_vec()) {
        Ok(f) => {
            info.version = Some(f.version.to_string());
            if let (Some(g), Some(s)) = (&f.general, &f.strings) {
                info.name = s
                    .get(g.display_name)
                    .map(|n| n.to_string_lossy().into_owned());
            }
            info.counts = counts(&f);
        }
        Err(e) => info.error = Some(e.to_string()),
    }
    info
}
