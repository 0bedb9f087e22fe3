//! The opened game and every operation the page asks for, each a call into the libraries
//! (`gmkit-folder`, `gmkit-data`, `gmkit-gml`, `gmkit-media`): the same functions `ls`,
//! `export`, `import`, `pack` and `diff` use. Nothing here reads a path named by a request.

use gmkit_data::DataFile;
use gmkit_data::chunks::string_table::Strings;
use gmkit_data::serde_support::StringScope;
use gmkit_folder::Game;
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;

/// Where `POST /api/save` writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Neither `--out` nor `--in-place`: save answers 409 (download still works).
    None,
    /// `--out PATH`.
    Out(PathBuf),
    /// `--in-place`: the opened file (a backup of it is kept, never overwritten).
    InPlace,
}

/// A failure of one request: the HTTP status and one line saying what went wrong.
#[derive(Debug)]
pub struct Failure {
    /// HTTP status code.
    pub status: u16,
    /// What was expected and what was found.
    pub message: String,
    /// Errors at a line of GML (`POST /api/code/...`), when there are.
    pub errors: Vec<LineError>,
}

impl Failure {
    /// A failure with `status` and `message`.
    pub fn new(status: u16, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
            errors: Vec::new(),
        }
    }
    fn not_found(what: impl std::fmt::Display) -> Failure {
        Failure::new(404, format!("{what} does not exist"))
    }
    fn bad(message: impl std::fmt::Display) -> Failure {
        Failure::new(422, message.to_string())
    }
}

/// One compile error of GML text, at its line and column (1-based; 0 when not known).
#[derive(Clone, Debug, serde::Serialize)]
pub struct LineError {
    /// Line (1-based).
    pub line: usize,
    /// Column (1-based).
    pub column: usize,
    /// What was expected and what was found.
    pub message: String,
}

/// Result of one request.
pub type Answer<T> = Result<T, Failure>;

/// Most decoded texture pages kept at once.
const MAX_PAGES: usize = 8;
/// Most produced PNG/audio answers kept at once, and their total size.
const MAX_CACHED: usize = 512;
const MAX_CACHED_BYTES: usize = 128 << 20;

/// A small first-in-first-out cache bounded by entry count and total bytes.
struct Cache<V> {
    map: HashMap<String, (Arc<V>, usize)>,
    order: VecDeque<String>,
    bytes: usize,
    max_entries: usize,
    max_bytes: usize,
}

impl<V> Cache<V> {
    fn new(max_entries: usize, max_bytes: usize) -> Self {
        Cache {
            map: HashMap::new(),
            order: VecDeque::new(),
            bytes: 0,
            max_entries,
            max_bytes,
        }
    }
    fn get(&self, key: &str) -> Option<Arc<V>> {
        self.map.get(key).map(|(v, _)| v.clone())
    }
    fn put(&mut self, key: String, v: Arc<V>, size: usize) {
        if size > self.max_bytes {
            return;
        }
        while self.map.len() >= self.max_entries || self.bytes + size > self.max_bytes {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            if let Some((_, s)) = self.map.remove(&old) {
                self.bytes -= s;
            }
        }
        self.bytes += size;
        self.order.push_back(key.clone());
        self.map.insert(key, (v, size));
    }
    fn clear(&mut self) {
        self.map.clear();
        self.order.clear();
        self.bytes = 0;
    }
}

/// The opened game, its edits and the caches of what was produced from it.
pub struct Studio {
    /// The file given on the command line (never a path from a request).
    path: PathBuf,
    target: Target,
    /// The game as opened.
    original: Game,
    /// The game with the edits made (`None` until the first edit: the same as `original`).
    edited: Option<Game>,
    /// A backup of the save target was taken (once per session).
    backed_up: bool,
    pages: Cache<gmkit_media::Image>,
    /// The room renderer's decoded pages, kept between room pictures (dropped on an edit).
    room_pages: gmkit_render::PageCache,
    produced: Cache<Vec<u8>>,
    tree: Option<Arc<Vec<u8>>>,
    info: Option<Arc<Value>>,
}

fn strings_of(file: &DataFile) -> &Strings {
    static EMPTY: std::sync::OnceLock<Strings> = std::sync::OnceLock::new();
    file.strings
        .as_ref()
        .unwrap_or_else(|| EMPTY.get_or_init(Strings::default))
}

fn text(file: &DataFile, r: gmkit_data::StringRef) -> String {
    file.string(r)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// An asset's JSON as the folder writes it: string references as their texts.
fn to_json<T: serde::Serialize>(file: &DataFile, v: &T) -> Answer<Value> {
    StringScope::new(strings_of(file))
        .enter(|| serde_json::to_value(v))
        .map_err(|e| Failure::new(500, format!("cannot describe the asset: {e}")))
}

fn png_of(img: &gmkit_media::Image) -> Answer<Vec<u8>> {
    gmkit_media::encode_png(img).map_err(|e| Failure::new(500, format!("cannot encode: {e}")))
}

/// `line L, column C` (the field of a folder error about GML) as numbers.
fn line_column(field: &str) -> (usize, usize) {
    let mut it = field
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse::<usize>().ok());
    (it.next().unwrap_or(0), it.next().unwrap_or(0))
}

impl Studio {
    /// Opens `path` (and the audio group files beside it). Nothing is decoded yet.
    pub fn open(path: PathBuf, target: Target) -> Result<Studio, String> {
        let original = Game::open(&path).map_err(|e| crate::io::file_error(&path, &e))?;
        Ok(Studio {
            path,
            target,
            original,
            edited: None,
            backed_up: false,
            pages: Cache::new(MAX_PAGES, 1 << 30),
            room_pages: gmkit_render::PageCache::default(),
            produced: Cache::new(MAX_CACHED, MAX_CACHED_BYTES),
            tree: None,
            info: None,
        })
    }

    /// The game as it is now (with the edits).
    pub fn game(&self) -> &Game {
        self.edited.as_ref().unwrap_or(&self.original)
    }

    fn file(&self) -> &DataFile {
        &self.game().data
    }

    /// The game to change: a copy of the original on the first edit. Caches are dropped.
    fn edit(&mut self) -> &mut Game {
        self.pages.clear();
        self.room_pages = gmkit_render::PageCache::default();
        self.produced.clear();
        self.tree = None;
        self.edited.get_or_insert_with(|| self.original.clone())
    }

    /// `GET /api/info`: name, version and the evidence for it, bytecode version, chunks, counts.
    pub fn info(&mut self) -> Answer<Arc<Value>> {
        if let Some(i) = &self.info {
            return Ok(i.clone());
        }
        let bytes = gmkit_data::build_bytes(&self.original.data)
            .map_err(|e| Failure::new(500, format!("cannot build the data file: {e}")))?;
        let i = gmkit_folder::info::info(&bytes);
        let mut v = serde_json::to_value(&i).unwrap_or(Value::Null);
        if let Value::Object(m) = &mut v {
            m.insert("evidence".into(), json!(i.version_evidence));
            m.insert(
                "bytecode".into(),
                json!(
                    self.original
                        .data
                        .general
                        .as_ref()
                        .map(|g| g.bytecode_version)
                ),
            );
            m.insert(
                "audio_groups".into(),
                json!(
                    self.original
                        .audio_groups
                        .iter()
                        .map(|g| &g.0)
                        .collect::<Vec<_>>()
                ),
            );
        }
        let v = Arc::new(v);
        self.info = Some(v.clone());
        Ok(v)
    }

    /// `GET /api/tree`: every kind `gmkit ls` knows, its row count and (except for strings,
    /// served by [`Studio::strings`]) each row's index and name, as JSON text.
    pub fn tree(&mut self) -> Answer<Arc<Vec<u8>>> {
        #[derive(serde::Serialize)]
        struct Asset {
            index: usize,
            name: String,
        }
        #[derive(serde::Serialize)]
        struct Kind {
            kind: &'static str,
            count: usize,
            assets: Vec<Asset>,
        }
        #[derive(serde::Serialize)]
        struct Tree {
            kinds: Vec<Kind>,
        }
        if let Some(t) = &self.tree {
            return Ok(t.clone());
        }
        let file = self.file();
        let mut kinds = Vec::new();
        // Names from the typed model (fast on a 1 GB game); the sounds of audio groups are rows
        // of the data file's SOND too, so the counts are `gmkit ls`'s.
        for &kind in gmkit_folder::list::KINDS {
            let (count, assets) = if kind == "strings" {
                (file.strings.as_ref().map_or(0, |s| s.len()), Vec::new())
            } else {
                let names = gmkit_folder::list::names(file, kind)
                    .map_err(|e| Failure::new(500, format!("{kind}: {e}")))?;
                let assets: Vec<Asset> = names
                    .into_iter()
                    .map(|(index, name)| Asset { index, name })
                    .collect();
                (assets.len(), assets)
            };
            kinds.push(Kind {
                kind,
                count,
                assets,
            });
        }
        let v = Arc::new(
            serde_json::to_vec(&Tree { kinds })
                .map_err(|e| Failure::new(500, format!("cannot write the tree: {e}")))?,
        );
        self.tree = Some(v.clone());
        Ok(v)
    }

    fn sprite(&self, i: usize) -> Answer<&gmkit_data::chunks::sprite::Sprite> {
        self.file()
            .sprites
            .as_ref()
            .and_then(|s| s.sprites.get(i)?.as_ref())
            .ok_or_else(|| Failure::not_found(format!("sprite {i}")))
    }

    /// `GET /api/sprites/{i}`: size, origin, bounding box, frames, speed.
    pub fn sprite_json(&self, i: usize) -> Answer<Value> {
        let f = self.file();
        let s = self.sprite(i)?;
        let (speed, speed_type) = s
            .special
            .as_ref()
            .and_then(|h| h.playback)
            .map_or((None, None), |(v, t)| (Some(v), Some(t)));
        Ok(json!({
            "index": i,
            "name": text(f, s.name),
            "width": s.width,
            "height": s.height,
            "origin": {"x": s.origin_x, "y": s.origin_y},
            "bbox": {"left": s.margin_left, "right": s.margin_right,
                     "top": s.margin_top, "bottom": s.margin_bottom, "mode": s.bbox_mode},
            "frames": s.frames.len(),
            "masks": s.masks.len(),
            "speed": speed,
            // 0: frames per second, 1: frames per game frame (GameMaker's playback types).
            "speed_type": speed_type,
            "special_type": s.special.as_ref().map(|h| h.sprite_type),
            "transparent": s.transparent,
            "smooth": s.smooth,
        }))
    }

    /// A decoded texture page, from the bounded cache.
    fn page(&mut self, n: usize) -> Answer<Arc<gmkit_media::Image>> {
        let key = n.to_string();
        if let Some(p) = self.pages.get(&key) {
            return Ok(p);
        }
        let textures = self
            .file()
            .textures
            .as_ref()
            .ok_or_else(|| Failure::not_found(format!("texture page {n}")))?;
        if textures.pages.get(n).is_none_or(Option::is_none) {
            return Err(Failure::not_found(format!("texture page {n}")));
        }
        let img = gmkit_media::decode_page(textures, n)
            .map_err(|e| Failure::bad(format!("texture page {n}: {e}")))?;
        let size = img.pixels().len();
        let img = Arc::new(img);
        self.pages.put(key, img.clone(), size);
        Ok(img)
    }

    /// The PNG of texture page item `r` cut at `size` (`None`: its bounding size), as unpack
    /// cuts it.
    fn item_png(
        &mut self,
        r: gmkit_data::chunks::texture_page_item::TpagRef,
        size: Option<(u32, u32)>,
    ) -> Answer<Vec<u8>> {
        let item = *gmkit_media::frame::item(self.file(), r)
            .ok_or_else(|| Failure::not_found(format!("texture page item {}", r.0)))?;
        let (w, h) = size.unwrap_or((item.bounding[0].into(), item.bounding[1].into()));
        gmkit_media::budget::check_image(w, h).map_err(|e| Failure::bad(e.to_string()))?;
        let n = usize::try_from(item.texture_page)
            .map_err(|_| Failure::bad(format!("item {} names page {}", r.0, item.texture_page)))?;
        let page = self.page(n)?;
        // The item's areas checked as unpack checks them before cutting.
        gmkit_media::frame::check_source(&item, page.width(), page.height())
            .and_then(|()| gmkit_media::frame::check_target(&item, w, h))
            .map_err(|e| Failure::bad(format!("item {}: {e}", r.0)))?;
        let img = gmkit_media::frame::cut(&page, &item, w, h)
            .map_err(|e| Failure::bad(format!("item {}: {e}", r.0)))?;
        png_of(&img)
    }

    /// Memoizes `make` under `key` in the bounded cache of produced answers.
    fn produce(
        &mut self,
        key: String,
        make: impl FnOnce(&mut Self) -> Answer<Vec<u8>>,
    ) -> Answer<Arc<Vec<u8>>> {
        if let Some(v) = self.produced.get(&key) {
            return Ok(v);
        }
        let v = Arc::new(make(self)?);
        let size = v.len();
        self.produced.put(key, v.clone(), size);
        Ok(v)
    }

    /// `GET /api/sprites/{i}/frames/{f}.png`: the frame at the sprite's size, as `gmkit
    /// export` writes `sprites/<sprite>/<f>.png`.
    pub fn frame_png(&mut self, i: usize, f: usize) -> Answer<Arc<Vec<u8>>> {
        self.produce(format!("frame/{i}/{f}"), |s| {
            let sp = s.sprite(i)?;
            let (w, h) = (sp.width, sp.height);
            let r = sp
                .frames
                .get(f)
                .copied()
                .flatten()
                .ok_or_else(|| Failure::not_found(format!("frame {f} of sprite {i}")))?;
            s.item_png(r, Some((w, h)))
        })
    }

    /// `GET /api/textures/{i}.png`: the texture page as PNG.
    pub fn texture_png(&mut self, n: usize) -> Answer<Arc<Vec<u8>>> {
        self.produce(format!("texture/{n}"), |s| {
            let p = s.page(n)?;
            png_of(&p)
        })
    }

    /// `GET /api/backgrounds/{i}.png`: the background (or tile set) image.
    pub fn background_png(&mut self, i: usize) -> Answer<Arc<Vec<u8>>> {
        self.produce(format!("background/{i}"), |s| {
            let r = s
                .file()
                .backgrounds
                .as_ref()
                .and_then(|b| b.backgrounds.get(i)?.as_ref())
                .ok_or_else(|| Failure::not_found(format!("background {i}")))?
                .texture
                .ok_or_else(|| Failure::not_found(format!("the image of background {i}")))?;
            s.item_png(r, None)
        })
    }

    /// `GET /api/fonts/{i}.png`: the font's glyph sheet.
    pub fn font_png(&mut self, i: usize) -> Answer<Arc<Vec<u8>>> {
        self.produce(format!("font/{i}"), |s| {
            let r = s
                .file()
                .fonts
                .as_ref()
                .and_then(|b| b.fonts.get(i)?.as_ref())
                .ok_or_else(|| Failure::not_found(format!("font {i}")))?
                .texture
                .ok_or_else(|| Failure::not_found(format!("the image of font {i}")))?;
            s.item_png(r, None)
        })
    }

    fn sound(&self, i: usize) -> Answer<&gmkit_data::chunks::sound::Sound> {
        self.file()
            .sounds
            .as_ref()
            .and_then(|s| s.sounds.get(i)?.as_ref())
            .ok_or_else(|| Failure::not_found(format!("sound {i}")))
    }

    /// The embedded audio of sound `i` (the data file's or its audio group's).
    fn sound_bytes(&self, i: usize) -> Answer<bytes::Bytes> {
        use gmkit_media::audio::{SoundLocation, sound_location};
        let game = self.game();
        let s = self.sound(i)?;
        let (file, index) = match sound_location(&game.data, s) {
            SoundLocation::Builtin { index } => (&game.data, index),
            SoundLocation::Group { group, index } => {
                let f = game
                    .audio_groups
                    .iter()
                    .find(|(stem, _)| gmkit_folder::audio_group_number(stem) == Some(group))
                    .map(|g| &g.1)
                    .ok_or_else(|| {
                        Failure::not_found(format!(
                            "audiogroup{group}.dat beside the game (the audio of sound {i})"
                        ))
                    })?;
                (f, index)
            }
            SoundLocation::NotEmbedded => {
                return Err(Failure::not_found(format!(
                    "embedded audio of sound {i} (it is streamed from a file beside the game)"
                )));
            }
        };
        file.audio
            .as_ref()
            .and_then(|a| a.entries.get(index)?.clone())
            .ok_or_else(|| Failure::not_found(format!("audio entry {index} of sound {i}")))
    }

    /// `GET /api/sounds/{i}`: the sound's fields.
    pub fn sound_json(&self, i: usize) -> Answer<Value> {
        let s = self.sound(i)?;
        let mut v = to_json(self.file(), s)?;
        let audio = self.sound_bytes(i).ok();
        if let Value::Object(m) = &mut v {
            m.insert("index".into(), json!(i));
            m.insert(
                "audio_type".into(),
                json!(audio.as_ref().map(|b| gmkit_folder::layout::audio_ext(b))),
            );
            m.insert("audio_bytes".into(), json!(audio.as_ref().map(|b| b.len())));
            m.insert(
                "seconds".into(),
                json!(
                    audio
                        .as_ref()
                        .and_then(|b| gmkit_folder::audio::duration(b))
                ),
            );
        }
        Ok(v)
    }

    /// `GET /api/sounds/{i}/audio`: the embedded file and its MIME type.
    pub fn sound_audio(&self, i: usize) -> Answer<(bytes::Bytes, &'static str)> {
        let b = self.sound_bytes(i)?;
        let mime = match gmkit_folder::layout::audio_ext(&b) {
            "wav" => "audio/wav",
            "ogg" => "audio/ogg",
            "mp3" => "audio/mpeg",
            _ => "application/octet-stream",
        };
        Ok((b, mime))
    }

    /// `GET /api/strings`.
    pub fn strings(&self) -> Value {
        Value::Array(
            strings_of(self.file())
                .iter()
                .enumerate()
                .map(|(index, s)| json!({"index": index, "text": s.to_string_lossy()}))
                .collect(),
        )
    }

    /// `POST /api/strings/{i}`: through `gmkit import --strings`'s function.
    pub fn set_string(&mut self, i: usize, text: &str) -> Answer<usize> {
        let n = strings_of(self.file()).len();
        if i > n {
            return Err(Failure::bad(format!(
                "expected a string index at most {n}, found {i}"
            )));
        }
        let body = serde_json::to_vec(&json!({ i.to_string(): text }))
            .map_err(|e| Failure::bad(e.to_string()))?;
        let mut file = self.file().clone();
        let changed = gmkit_folder::import::strings(&mut file, "strings", &body)
            .map_err(|e| Failure::bad(e.to_string()))?;
        self.edit().data = file;
        Ok(changed)
    }

    fn code_index(&self, name: &str) -> Answer<usize> {
        let f = self.file();
        f.code
            .as_ref()
            .and_then(|c| {
                c.entries.iter().position(|e| {
                    f.strings
                        .as_ref()
                        .and_then(|s| s.get(e.name))
                        .is_some_and(|t| t == name)
                })
            })
            .ok_or_else(|| Failure::not_found(format!("code entry {}", gmkit_folder::quote(name))))
    }

    fn code_name(
        &self,
        r: gmkit_data::AssetRef<gmkit_data::chunks::code::CodeEntry>,
    ) -> Option<String> {
        let f = self.file();
        let e = f.code.as_ref()?.entries.get(r.index()?)?;
        Some(text(f, e.name))
    }

    /// The GML of code entry `entry` (decompiled) and its assembly.
    fn code_texts(&self, entry: usize) -> (Option<String>, Option<String>, Option<String>) {
        let f = self.file();
        let asm = gmkit_data::chunks::code::asm::Disassembler::new(f)
            .entry(entry)
            .map_err(|e| e.to_string());
        let game = gmkit_gml::Game::new(f);
        let (gml, note) = match gmkit_gml::decompile::decompile_entry(&game, entry) {
            Ok(d) => {
                let note = (d.failures > 0).then(|| {
                    format!(
                        "{} construct(s) could not be decompiled into structured GML",
                        d.failures
                    )
                });
                (
                    Some(gmkit_gml::print::print_for(&d.body, &game.features)),
                    note,
                )
            }
            Err(e) => (None, Some(format!("decompile: {e}"))),
        };
        let (asm, note) = match asm {
            Ok(a) => (Some(a), note),
            Err(e) => (None, note.or(Some(e))),
        };
        (gml, asm, note)
    }

    /// `GET /api/code/{name}`: GML and assembly.
    pub fn code_json(&self, name: &str) -> Answer<Value> {
        let entry = self.code_index(name)?;
        let root = self
            .file()
            .code
            .as_ref()
            .is_some_and(|c| c.entries[entry].body.is_root());
        if !root {
            return Err(Failure::bad(format!(
                "{} is a child entry (a function inside another entry's code): open its root entry",
                gmkit_folder::quote(name)
            )));
        }
        let (gml, asm, note) = self.code_texts(entry);
        Ok(json!({"name": name, "index": entry, "gml": gml, "asm": asm, "note": note}))
    }

    /// Compiles `gml` into entry `name` of a copy of the file with `gmkit import --code`'s
    /// function: the copy, or the compile errors at their lines.
    fn compile(&self, name: &str, gml: &str) -> Answer<DataFile> {
        self.code_index(name)?;
        let mut file = self.file().clone();
        match gmkit_folder::import::code(&mut file, name, "studio.gml", gml) {
            Ok(()) => Ok(file),
            Err(e) => {
                let (line, column) = line_column(&e.field);
                Err(Failure {
                    status: 422,
                    message: e.message.clone(),
                    errors: vec![LineError {
                        line,
                        column,
                        message: e.message,
                    }],
                })
            }
        }
    }

    /// `POST /api/code/{name}/check`: the compile errors, nothing changed.
    pub fn check_code(&self, name: &str, gml: &str) -> Answer<Vec<LineError>> {
        match self.compile(name, gml) {
            Ok(_) => Ok(Vec::new()),
            Err(f) if !f.errors.is_empty() => Ok(f.errors),
            Err(f) => Err(f),
        }
    }

    /// `POST /api/code/{name}`: applies the GML (422 with the errors when it does not compile).
    pub fn set_code(&mut self, name: &str, gml: &str) -> Answer<()> {
        let file = self.compile(name, gml)?;
        self.edit().data = file;
        Ok(())
    }

    /// `POST /api/sprites/{i}/frames/{f}`: the frame from a PNG, as pack applies an edited
    /// frame PNG.
    pub fn set_frame(&mut self, i: usize, f: usize, png: &[u8]) -> Answer<()> {
        let mut file = self.file().clone();
        gmkit_folder::import::frame(&mut file, i, f, &format!("frame {f} of sprite {i}"), png)
            .map_err(|e| Failure::bad(e.to_string()))?;
        self.edit().data = file;
        Ok(())
    }

    /// `POST /api/sounds/{i}/audio`: the sound's audio, in the data file or in the audio group
    /// file holding it ([`gmkit_folder::import::game_sound`]; saved with the game's files).
    pub fn set_sound(&mut self, i: usize, audio: Vec<u8>) -> Answer<()> {
        let name = text(self.file(), self.sound(i)?.name);
        let mut game = self.game().clone();
        gmkit_folder::import::game_sound(&mut game, &name, audio)
            .map_err(|e| Failure::bad(e.to_string()))?;
        *self.edit() = game;
        Ok(())
    }

    /// `GET /api/objects/{i}`: properties, parent and sprite by name, events with their code.
    pub fn object_json(&self, i: usize) -> Answer<Value> {
        let f = self.file();
        let objects = f.objects.as_ref().map(|o| &o.objects[..]).unwrap_or(&[]);
        let o = objects
            .get(i)
            .and_then(Option::as_ref)
            .ok_or_else(|| Failure::not_found(format!("object {i}")))?;
        let object_name = |k: Option<usize>| {
            k.and_then(|k| objects.get(k)?.as_ref())
                .map(|o| text(f, o.name))
        };
        let sprite_name = |k: Option<usize>| {
            k.and_then(|k| f.sprites.as_ref()?.sprites.get(k)?.as_ref())
                .map(|s| text(f, s.name))
        };
        let mut events = Vec::new();
        for (t, list) in o.events.iter().enumerate() {
            for ev in list {
                let kind = gmkit_gml::project::event_name(t as u32).unwrap_or("Event");
                let name = match (t, object_name(Some(ev.subtype as usize))) {
                    // Collision events name the other object (as GameMaker's project does).
                    (4, Some(other)) => format!("{kind}_{other}"),
                    _ => format!("{kind}_{}", ev.subtype),
                };
                let code = ev.actions.iter().find_map(|a| self.code_name(a.code_id));
                let (gml, asm, note) = match code.as_deref().map(|c| self.code_index(c)) {
                    Some(Ok(k)) => self.code_texts(k),
                    _ => (None, None, None),
                };
                events.push(json!({
                    "name": name, "type": t, "subtype": ev.subtype,
                    "code": code, "gml": gml, "asm": asm, "note": note,
                }));
            }
        }
        Ok(json!({
            "index": i,
            "name": text(f, o.name),
            "sprite": sprite_name(o.sprite.index()),
            "sprite_index": o.sprite.index(),
            "parent": object_name(o.parent.index()),
            "parent_index": o.parent.index(),
            "mask": sprite_name(o.mask_sprite.index()),
            "visible": o.visible,
            "solid": o.solid,
            "persistent": o.persistent,
            "depth": o.depth,
            "physics": o.physics.enabled,
            "events": events,
        }))
    }

    /// `GET /api/scripts/{i}`: the script and its code entry's name.
    pub fn script_json(&self, i: usize) -> Answer<Value> {
        let f = self.file();
        let s = f
            .scripts
            .as_ref()
            .and_then(|s| s.scripts.get(i)?.as_ref())
            .ok_or_else(|| Failure::not_found(format!("script {i}")))?;
        Ok(json!({
            "index": i,
            "name": text(f, s.name),
            "code": self.code_name(s.code_id),
            "constructor": s.constructor,
        }))
    }

    /// `GET /api/rooms/{i}`: size, colour, views, backgrounds, instances (objects by name).
    pub fn room_json(&self, i: usize) -> Answer<Value> {
        let f = self.file();
        let r = f
            .rooms
            .as_ref()
            .and_then(|s| s.rooms.get(i)?.as_ref())
            .ok_or_else(|| Failure::not_found(format!("room {i}")))?;
        let object = |k: Option<usize>| {
            k.and_then(|k| f.objects.as_ref()?.objects.get(k)?.as_ref())
                .map(|o| text(f, o.name))
        };
        let instances: Vec<Value> = r
            .instances
            .iter()
            .map(|n| {
                json!({
                    "id": n.instance_id, "x": n.x, "y": n.y,
                    "object": object(n.object.index()), "object_index": n.object.index(),
                    "scale_x": n.scale_x, "scale_y": n.scale_y, "rotation": n.rotation,
                    "colour": n.colour,
                    "creation_code": self.code_name(n.creation_code),
                })
            })
            .collect();
        let views: Vec<Value> = r
            .views
            .iter()
            .filter(|v| v.enabled)
            .map(|v| json!({"view": v.view, "port": v.port}))
            .collect();
        Ok(json!({
            "index": i,
            "name": text(f, r.name),
            "width": r.width,
            "height": r.height,
            "speed": r.speed,
            "persistent": r.persistent,
            "background_colour": r.background_colour,
            "draw_background_colour": r.draw_background_colour,
            "creation_code": self.code_name(r.creation_code),
            "layers": r.layers.as_ref().map(|l| l.len()),
            "tiles": r.tiles.len(),
            "views": views,
            "instances": instances,
        }))
    }

    /// `GET /api/rooms/{i}.png`: the room drawn ([`super::render_room`]).
    pub fn room_png(&mut self, i: usize) -> Answer<Arc<Vec<u8>>> {
        self.produce(format!("room/{i}"), |s| {
            let game = s.edited.as_ref().unwrap_or(&s.original);
            super::render_room(game, i, &mut s.room_pages)
        })
    }

    /// `GET /api/diff`: `gmkit diff` of the game as opened against the game now
    /// ([`gmkit_folder::diff::diff_games`]).
    pub fn diff(&self) -> Answer<Value> {
        let Some(edited) = &self.edited else {
            return Ok(json!({"text": "", "changes": 0}));
        };
        // Only what differs is unpacked (unchanged pages, frames and audio are compared, not
        // decoded): the same lines as `gmkit diff` of the two unpacked games.
        let changes = gmkit_folder::diff::diff_games(&self.original, edited)
            .map_err(|e| Failure::new(500, e.to_string()))?;
        let text: String = changes.iter().map(|c| format!("{c}\n")).collect();
        Ok(json!({"text": text, "changes": changes.len()}))
    }

    /// `GET /api/download`: the data file as it is now.
    pub fn build(&self) -> Answer<Vec<u8>> {
        gmkit_data::build_bytes(self.file())
            .map_err(|e| Failure::new(500, format!("cannot build the data file: {e}")))
    }

    /// The file name offered for a download (the opened file's name, no directory).
    pub fn download_name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| {
                !n.is_empty()
                    && n.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
            })
            .unwrap_or_else(|| "data.win".to_owned())
    }

    /// `POST /api/save`: writes the target through temporary files renamed into place (the
    /// audio group files beside it too); the first save keeps a backup of each file it
    /// replaces (never overwriting an existing backup). Returns what it wrote (file names).
    pub fn save(&mut self) -> Answer<Value> {
        let target = match &self.target {
            Target::None => {
                return Err(Failure::new(
                    409,
                    "no save target: start gmkit studio with --out PATH or --in-place (or download)",
                ));
            }
            Target::Out(p) => p.clone(),
            Target::InPlace => self.path.clone(),
        };
        let game = self.game();
        let outputs = game
            .output_paths(&target)
            .map_err(|e| Failure::new(500, e.to_string()))?;
        let staged = game
            .stage(&target)
            .map_err(|e| Failure::new(500, e.to_string()))?;
        let mut backups = 0;
        if !self.backed_up {
            for o in outputs.iter().filter(|o| o.symlink_metadata().is_ok()) {
                gmkit_folder::backup(o).map_err(|e| Failure::new(500, e.to_string()))?;
                backups += 1;
            }
        }
        gmkit_folder::commit(staged).map_err(|e| Failure::new(500, e.to_string()))?;
        self.backed_up = true;
        let names: Vec<String> = outputs
            .iter()
            .filter_map(|o| o.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .collect();
        Ok(json!({"saved": names, "backups": backups}))
    }
}
