//! `gmkit unpack`, `pack`, `info`, `ls`, `export`, `import`, `diff`, `demo`: thin front ends of
//! `gmkit-folder` (argument parsing, progress, output formats).

use gmkit_folder::{Folder, Game};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::exit;

/// A spinner on a terminal (stderr), nothing when piped.
fn spinner(msg: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new_spinner();
    b.set_style(
        ProgressStyle::with_template("{spinner} {msg} {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    b.enable_steady_tick(std::time::Duration::from_millis(100));
    b.set_message(msg.to_owned());
    b
}

fn fail(cmd: &str, e: impl std::fmt::Display, code: u8) -> u8 {
    eprintln!("gmkit {cmd}: {e}");
    code
}

/// Arguments of `gmkit unpack`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gmkit unpack data.win mygame/          # then edit, git add, ...\n  gmkit pack mygame/ data-modded.win\n  $EDITOR mygame/code/0012_gml_Object_obj_player_Step_0.gml && gmkit pack mygame/ out.win\n\nWrites one JSON file per asset, strings.json, texture pages and audio as files, code as .asm\n(and .gml for every entry whose GML compiles back exactly; pack compiles the edited ones), and manifest.json\n(see the README, \"The folder layout\", and docs/folder.md). audiogroupN.dat files beside FILE go to DIR/audiogroups/.\nDIR must be new or empty."
)]
pub struct UnpackArgs {
    /// The data file (data.win, game.unx, game.droid, game.ios)
    pub file: PathBuf,
    /// The folder to create
    pub dir: PathBuf,
    /// A names file (the game's enums, macros and kinds of values, docs/names-file.md): copied
    /// into the folder as names.gml and used to decompile; pack compiles edited .gml files
    /// with it
    #[arg(long, value_name = "FILE")]
    pub names: Option<PathBuf>,
}

pub fn unpack(a: UnpackArgs) -> u8 {
    let t = Instant::now();
    let mut options = gmkit_folder::UnpackOptions::default();
    if let Some(p) = &a.names {
        match std::fs::read_to_string(p) {
            Ok(text) => options.names_file = Some(text),
            Err(e) => return fail("unpack", format!("{}: {e}", p.display()), exit::IO),
        }
    }
    let bar = spinner("reading");
    let game = match Game::open(&a.file) {
        Ok(g) => g,
        Err(e) => return fail("unpack", format!("{}: {e}", a.file.display()), exit::FAILED),
    };
    bar.set_message("unpacking");
    // Streams to disk: pages are produced as they are written (bounded memory).
    let done = match gmkit_folder::unpack_to_dir_with(&game, &a.dir, &options) {
        Ok(d) => d,
        // Errors about writing (the directory, a file) are I/O; the others are about the game.
        Err(e)
            if e.message.starts_with("cannot")
                || e.message.starts_with("expected a new or empty") =>
        {
            return fail("unpack", e, exit::IO);
        }
        Err(e) => return fail("unpack", e, exit::FAILED),
    };
    bar.finish_and_clear();
    println!(
        "{} → {}: {} files, {:.1} MB, {:.2} s",
        a.file.display(),
        a.dir.display(),
        done.files,
        done.bytes as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
    print_notes(&done.notes);
    exit::OK
}

/// Most notes `unpack` prints one by one; the rest are counted.
const MAX_NOTES_SHOWN: usize = 10;

/// Prints unpack's notes (sprites whose frames stay as stored texture items), one line each.
fn print_notes(notes: &[(String, String)]) {
    for (dir, note) in notes.iter().take(MAX_NOTES_SHOWN) {
        println!("note: {dir}: {}", gmkit_data::text::one_line(note, 300));
    }
    if notes.len() > MAX_NOTES_SHOWN {
        println!(
            "note: {} more sprites keep their frames as stored texture items (see their frames.json)",
            notes.len() - MAX_NOTES_SHOWN
        );
    }
}

/// Arguments of `gmkit pack`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gmkit pack mygame/ data-modded.win\n  gmkit pack --in-place mygame/ data.win   # replaces data.win, keeps data.win.bak\n\nThe folder is read as untrusted input: regular files only (a symbolic link, FIFO or device is\nan error), at most 16 MiB per JSON/.asm/.gml file and 256 MiB per image or audio file.\nWrites FILE and, for the folder's audiogroups/audiogroupN/, audiogroupN.dat beside it - nothing\nelse. Every output is built, written to a temporary file, read back and parsed before any is\nrenamed into place: a folder that cannot be packed gets one error line naming the folder file,\nthe field and what was expected, and nothing is written.\n\n--in-place: an existing output is copied to FILE.bak first; an existing .bak is never\noverwritten (the new backup is FILE.bak.1, FILE.bak.2, ...). Without --in-place, pack refuses\nto replace any existing output."
)]
pub struct PackArgs {
    /// The folder made by `gmkit unpack`
    pub dir: PathBuf,
    /// The data file to write
    pub file: PathBuf,
    /// Replace FILE (and audiogroupN.dat beside it) if it exists; the old one is kept as
    /// FILE.bak (or FILE.bak.1, ... when a backup exists: backups are never overwritten)
    #[arg(long)]
    pub in_place: bool,
}

pub fn pack(a: PackArgs) -> u8 {
    let t = Instant::now();
    let exists = |p: &Path| p.symlink_metadata().is_ok();
    if exists(&a.file) && !a.in_place {
        return fail(
            "pack",
            format!(
                "{} exists; pass --in-place to replace it (a .bak copy is kept)",
                a.file.display()
            ),
            exit::USAGE,
        );
    }
    let bar = spinner("reading folder");
    let folder = match Folder::read_dir_lazy(&a.dir) {
        Ok(f) => f,
        Err(e) => return fail("pack", format!("{}/{e}", a.dir.display()), exit::IO),
    };
    bar.set_message("packing");
    let game = match gmkit_folder::pack(&folder) {
        Ok(g) => g,
        Err(e) => return fail("pack", format!("{}/{e}", a.dir.display()), exit::FAILED),
    };
    // The model's payloads are views of the folder's files: checked unchanged before commit.
    let payloads = folder.payload_check();
    drop(folder);
    gmkit_data::release_freed_memory();
    let outputs = match game.output_paths(&a.file) {
        Ok(o) => o,
        Err(e) => return fail("pack", format!("{}/{e}", a.dir.display()), exit::FAILED),
    };
    if !a.in_place
        && let Some(o) = outputs.iter().find(|o| exists(o))
    {
        return fail(
            "pack",
            format!(
                "{} exists (an audio group of the folder is written there); pass --in-place to replace it (a .bak copy is kept)",
                o.display()
            ),
            exit::USAGE,
        );
    }
    bar.set_message("writing");
    let staged = match game.stage_owned(&a.file) {
        Ok(s) => s,
        Err(e) if e.file.is_empty() => {
            return fail("pack", format!("{}: {e}", a.dir.display()), exit::FAILED);
        }
        Err(e) => return fail("pack", e, exit::IO),
    };
    if let Err(e) = payloads.check() {
        return fail("pack", format!("{}/{e}", a.dir.display()), exit::FAILED);
    }
    let backups = match back_up_and_commit(staged, &outputs, true) {
        Ok(b) => b,
        Err(e) => return fail("pack", e, exit::IO),
    };
    bar.finish_and_clear();
    println!(
        "{} → {} ({:.2} s){}",
        a.dir.display(),
        paths_line(&outputs),
        t.elapsed().as_secs_f64(),
        backups_note(&backups)
    );
    exit::OK
}

/// Copies each existing output to a backup (when `back_up`; a backup is never overwritten),
/// then renames the staged files into place. Returns the backups made.
fn back_up_and_commit(
    staged: Vec<gmkit_data::Staged>,
    outputs: &[PathBuf],
    back_up: bool,
) -> Result<Vec<PathBuf>, gmkit_folder::Error> {
    let mut backups = Vec::new();
    if back_up {
        for o in outputs.iter().filter(|o| o.symlink_metadata().is_ok()) {
            backups.push(gmkit_folder::backup(o)?);
        }
    }
    gmkit_folder::commit(staged)?;
    Ok(backups)
}

/// `a, b, c` of the paths.
fn paths_line(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `; backups: …` when some were made.
fn backups_note(backups: &[PathBuf]) -> String {
    if backups.is_empty() {
        String::new()
    } else {
        format!("; backups: {}", paths_line(backups))
    }
}

/// Arguments of `gmkit info`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gmkit info data.win\n  gmkit info --json data.win\n\nStill prints the chunk table and GEN8's version fields when a chunk fails to parse.\nA file that is not a data file (an image, an archive, the game's .exe) gets one line saying\nwhat was expected and what was found, and nothing else.\nExit status: 0 when the file parsed, 1 when it is not a data file or did not parse, 3 when\nit cannot be read."
)]
pub struct InfoArgs {
    /// The data file
    pub file: PathBuf,
    /// Print JSON
    #[arg(long)]
    pub json: bool,
}

pub fn print_info(name: &str, i: &gmkit_folder::info::Info) {
    println!("{name}");
    println!("  name      {}", i.name.as_deref().unwrap_or("?"));
    println!(
        "  version   {}",
        i.version.as_deref().unwrap_or("? (the file did not parse)")
    );
    for e in &i.version_evidence {
        println!("            - {e}");
    }
    println!("  compiler  {}", i.compiler.as_deref().unwrap_or("?"));
    println!("  size      {} bytes", i.size);
    println!("  chunks");
    for c in &i.chunks {
        println!("    {:4} {:>10} bytes at {}", c.name, c.size, c.offset);
    }
    if !i.counts.is_empty() {
        println!("  assets");
        for (k, n) in &i.counts {
            println!("    {k:20} {n}");
        }
    }
    if let Some(e) = &i.error {
        println!("  error     {e}");
    }
}

pub fn info(a: InfoArgs) -> u8 {
    let bytes = match std::fs::read(&a.file) {
        Ok(b) => b,
        Err(e) => return fail("info", format!("{}: {e}", a.file.display()), exit::IO),
    };
    if let Some(why) = gmkit_folder::info::not_a_data_file(&bytes) {
        return fail("info", format!("{}: {why}", a.file.display()), exit::FAILED);
    }
    let i = gmkit_folder::info::info(&bytes);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&i).unwrap_or_default());
    } else {
        print_info(&a.file.display().to_string(), &i);
    }
    if i.error.is_some() {
        exit::FAILED
    } else {
        exit::OK
    }
}

/// Arguments of `gmkit ls`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gmkit ls data.win sprites          # index, name, width, height, frames\n  gmkit ls data.win objects          # sprite, parent (by name), events\n  gmkit ls data.win rooms            # width, height, instances\n  gmkit ls data.win sounds           # type, length in seconds, file\n  gmkit ls data.win code             # child entries (2.3+ functions) name their root entry\n  gmkit ls --json data.win strings | jq '.[] | select(.name | test(\"Hello\"))'\n\nKINDS: sprites sounds rooms objects scripts code strings fonts textures backgrounds shaders\npaths sequences timelines extensions variables functions audio\n\nThe text form has a header line when the kind has columns; \"-\" is no value (an object\nwithout a sprite). --json gives every column under its name (null for no value)."
)]
pub struct LsArgs {
    /// The data file
    pub file: PathBuf,
    /// What to list
    pub kind: String,
    /// Print JSON
    #[arg(long)]
    pub json: bool,
}

pub fn ls(a: LsArgs) -> u8 {
    if !gmkit_folder::list::KINDS.contains(&a.kind.as_str()) {
        return fail(
            "ls",
            format!(
                "unknown kind {:?}; expected one of: {}",
                a.kind,
                gmkit_folder::list::KINDS.join(" ")
            ),
            exit::USAGE,
        );
    }
    // Sounds read the audio group files beside the data file too (type and length).
    let listed = if a.kind == "sounds" {
        Game::open(&a.file)
            .map_err(|e| crate::io::file_error(&a.file, &e))
            .and_then(|g| gmkit_folder::list::list_game(&g, &a.kind))
    } else {
        gmkit_data::parse_file(&a.file)
            .map_err(|e| crate::io::file_error(&a.file, &e))
            .and_then(|f| gmkit_folder::list::list(&f, &a.kind))
    };
    let items = match listed {
        Ok(v) => v,
        Err(e) => return fail("ls", e, exit::FAILED),
    };
    if a.json {
        // Serialized directly: the columns keep their order.
        let text = serde_json::to_string_pretty(&items).unwrap_or_default();
        return match crate::io::write_stdout(format!("{text}\n").as_bytes()) {
            Ok(()) => exit::OK,
            Err(e) => crate::io::stdout_error("gmkit ls", &e),
        };
    }
    let mut out = String::new();
    for line in ls_table(&a.kind, &items) {
        out.push_str(&line);
        out.push('\n');
    }
    match crate::io::write_stdout(out.as_bytes()) {
        Ok(()) => exit::OK,
        Err(e) => crate::io::stdout_error("gmkit ls", &e),
    }
}

/// The text of one cell of `gmkit ls` (`-` for no value; a length in seconds with 2 decimals).
fn ls_cell(key: &str, v: Option<&serde_json::Value>) -> String {
    use serde_json::Value;
    match v {
        None | Some(Value::Null) => "-".to_owned(),
        Some(Value::Number(n)) if key == "length" => {
            format!("{:.2}s", n.as_f64().unwrap_or(0.0))
        }
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// The lines `gmkit ls` prints: index and name, then the kind's columns aligned under a
/// header line (names and texts on one line each: control characters escaped).
fn ls_table(kind: &str, items: &[gmkit_folder::list::Item]) -> Vec<String> {
    let one = |s: &str| gmkit_data::text::one_line(s, 200);
    let cols = gmkit_folder::list::columns(kind);
    if cols.is_empty() {
        return items
            .iter()
            .map(|it| match &it.detail {
                Some(d) => format!("{:5} {}  {d}", it.index, one(&it.name)),
                None => format!("{:5} {}", it.index, one(&it.name)),
            })
            .collect();
    }
    let cells: Vec<Vec<String>> = items
        .iter()
        .map(|it| {
            cols.iter()
                .map(|k| one(&ls_cell(k, it.column(k))))
                .collect()
        })
        .collect();
    let names: Vec<String> = items.iter().map(|it| one(&it.name)).collect();
    let width = |texts: &mut dyn Iterator<Item = &String>, header: &str| {
        texts
            .map(|t| t.chars().count())
            .chain([header.chars().count()])
            .max()
            .unwrap_or(0)
    };
    let name_w = width(&mut names.iter(), "name");
    let widths: Vec<usize> = (0..cols.len())
        .map(|c| width(&mut cells.iter().map(|r| &r[c]), cols[c]))
        .collect();
    let row = |index: &str, name: &str, values: &mut dyn Iterator<Item = &str>| {
        let mut line = format!("{index:>5}  {name:<name_w$}");
        for (v, w) in values.zip(&widths) {
            line.push_str(&format!("  {v:<w$}"));
        }
        line.trim_end().to_owned()
    };
    let mut out = vec![row("index", "name", &mut cols.iter().copied())];
    for ((it, name), values) in items.iter().zip(&names).zip(&cells) {
        out.push(row(
            &it.index.to_string(),
            name,
            &mut values.iter().map(String::as_str),
        ));
    }
    out
}

/// Arguments of `gmkit export`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gmkit export data.win out/ strings            # out/strings.json\n  gmkit export data.win out/ sprites textures sounds audio\n  gmkit export data.win out/                    # everything (like unpack)\n\nKINDS are the folder's top-level names: strings textures audio sprites sounds rooms objects\ncode scripts fonts backgrounds ... An export of a subset cannot be packed; use unpack for that."
)]
pub struct ExportArgs {
    /// The data file
    pub file: PathBuf,
    /// The folder to create
    pub outdir: PathBuf,
    /// Parts to export (default: all)
    pub kinds: Vec<String>,
}

pub fn export(a: ExportArgs) -> u8 {
    let game = match Game::open(&a.file) {
        Ok(g) => g,
        Err(e) => return fail("export", format!("{}: {e}", a.file.display()), exit::FAILED),
    };
    let mut folder = match gmkit_folder::unpack(&game) {
        Ok(f) => f,
        Err(e) => return fail("export", e, exit::FAILED),
    };
    if !a.kinds.is_empty() {
        folder.files.retain(|p, _| {
            let top = p.split('/').next().unwrap_or(p);
            let top = top.strip_suffix(".json").unwrap_or(top);
            a.kinds.iter().any(|k| k == top)
        });
    }
    if let Err(e) = folder.write_dir(&a.outdir) {
        return fail("export", e, exit::IO);
    }
    println!("{} files → {}", folder.files.len(), a.outdir.display());
    exit::OK
}

/// Arguments of `gmkit import`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gmkit export data.win tr/ strings && $EDITOR tr/strings.json\n  gmkit import data.win --strings tr/strings.json -o data-fr.win\n  gmkit import data.win --page 0=page0.png --in-place\n  gmkit import data.win --sound snd_jump=jump.wav -o out.win\n  gmkit import data.win --code gml_Script_scr_move=scr_move.asm -o out.win\n  gmkit import data.win --code gml_Object_obj_player_Step_0=step.gml -o out.win\n\nstrings JSON: {\"index\": \"text\"}; only the entries present are changed, an index past the end\nadds an entry. The output is written through a temporary file that is read back and parsed.\n\nA sound of an audio group: its audiogroupN.dat beside FILE is read and the changed one written\nbeside the output (the same way, nothing written when any part fails); without --in-place an\nexisting audiogroupN.dat there is not replaced. --in-place keeps FILE.bak and audiogroupN.dat.bak\n(or .bak.1, ...: backups are never overwritten)."
)]
pub struct ImportArgs {
    /// The data file to change
    pub file: PathBuf,
    /// Strings JSON ({"4512": "Bonjour", ...})
    #[arg(long)]
    pub strings: Option<PathBuf>,
    /// Replace texture page N with a PNG (re-encoded in the page's own format): N=FILE.png
    #[arg(long, value_name = "N=PNG")]
    pub page: Vec<String>,
    /// Replace the audio of a sound: NAME=FILE (wav, ogg, ...); a sound of an audio group is
    /// replaced in its audiogroupN.dat, written beside the output
    #[arg(long, value_name = "NAME=FILE")]
    pub sound: Vec<String>,
    /// Replace the instructions of a root code entry with assembly text (as `gmkit unpack`
    /// writes code/*.asm): NAME=FILE.asm
    #[arg(long, value_name = "NAME=FILE")]
    pub code: Vec<String>,
    /// Output file
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Replace FILE (keeps FILE.bak, or FILE.bak.1, ... when a backup exists: backups are
    /// never overwritten)
    #[arg(long)]
    pub in_place: bool,
}

pub fn import(a: ImportArgs) -> u8 {
    let out = match (&a.output, a.in_place) {
        (Some(o), false) => o.clone(),
        (None, true) => a.file.clone(),
        _ => {
            return fail(
                "import",
                "give exactly one of -o OUTPUT or --in-place",
                exit::USAGE,
            );
        }
    };
    if out.exists() && !a.in_place {
        return fail(
            "import",
            format!(
                "{} exists; pass --in-place to replace the input",
                out.display()
            ),
            exit::USAGE,
        );
    }
    let file = match gmkit_data::parse_file(&a.file) {
        Ok(f) => f,
        Err(e) => return fail("import", crate::io::file_error(&a.file, &e), exit::FAILED),
    };
    // The audio groups a sound import changes join the game as their files are needed.
    let mut game = Game {
        data: file,
        audio_groups: Vec::new(),
    };
    let mut changes = 0usize;
    if let Some(p) = &a.strings {
        let bytes = match gmkit_folder::reader::read_input(p) {
            Ok(b) => b,
            Err(e) => return fail("import", e, exit::IO),
        };
        match gmkit_folder::import::strings(&mut game.data, &p.display().to_string(), &bytes) {
            Ok(n) => changes += n,
            Err(e) => return fail("import", e, exit::FAILED),
        }
    }
    for spec in &a.page {
        let Some((n, png)) = spec.split_once('=') else {
            return fail(
                "import",
                format!("--page {spec}: expected N=FILE.png"),
                exit::USAGE,
            );
        };
        let Ok(n) = n.parse::<usize>() else {
            return fail(
                "import",
                format!("--page {spec}: expected a page number before ="),
                exit::USAGE,
            );
        };
        let bytes = match gmkit_folder::reader::read_input(Path::new(png)) {
            Ok(b) => b,
            Err(e) => return fail("import", e, exit::IO),
        };
        if let Err(e) = gmkit_folder::import::page(&mut game.data, n, png, &bytes) {
            return fail("import", e, exit::FAILED);
        }
        changes += 1;
    }
    for spec in &a.sound {
        let Some((name, path)) = spec.split_once('=') else {
            return fail(
                "import",
                format!("--sound {spec}: expected NAME=FILE"),
                exit::USAGE,
            );
        };
        let bytes = match gmkit_folder::reader::read_input(Path::new(path)) {
            Ok(b) => b,
            Err(e) => return fail("import", e, exit::IO),
        };
        if let Err((e, code)) = open_audio_group(&mut game, &a.file, name) {
            return fail("import", e, code);
        }
        if let Err(e) = gmkit_folder::import::game_sound(&mut game, name, bytes) {
            return fail("import", e, exit::FAILED);
        }
        changes += 1;
    }
    for spec in &a.code {
        let Some((name, path)) = spec.split_once('=') else {
            return fail(
                "import",
                format!("--code {spec}: expected NAME=FILE"),
                exit::USAGE,
            );
        };
        let text = match gmkit_folder::reader::read_input(Path::new(path)).and_then(|b| {
            String::from_utf8(b).map_err(|e| {
                gmkit_folder::Error::new(
                    gmkit_data::text::one_line(path, 240),
                    "",
                    format!("expected UTF-8 text: {e}"),
                )
            })
        }) {
            Ok(t) => t,
            Err(e) => return fail("import", e, exit::IO),
        };
        if let Err(e) = gmkit_folder::import::code(&mut game.data, name, path, &text) {
            return fail("import", e, exit::FAILED);
        }
        changes += 1;
    }
    // Written as `gmkit pack` writes: the data file and each changed audio group beside it,
    // every one built, written to a temporary file, read back and parsed before any is renamed
    // into place.
    let exists = |p: &Path| p.symlink_metadata().is_ok();
    let outputs = match game.output_paths(&out) {
        Ok(o) => o,
        Err(e) => return fail("import", e, exit::FAILED),
    };
    if !a.in_place
        && let Some(o) = outputs.iter().skip(1).find(|o| exists(o))
    {
        return fail(
            "import",
            format!(
                "{} exists (the changed audio group is written there); write to another directory, or pass --in-place to replace the input's (a .bak copy is kept)",
                o.display()
            ),
            exit::USAGE,
        );
    }
    let staged = match game.stage_owned(&out) {
        Ok(s) => s,
        Err(e) if e.file.is_empty() => {
            return fail("import", format!("{}: {e}", a.file.display()), exit::FAILED);
        }
        Err(e) => return fail("import", e, exit::IO),
    };
    let backups = match back_up_and_commit(staged, &outputs, a.in_place) {
        Ok(b) => b,
        Err(e) => return fail("import", e, exit::IO),
    };
    println!(
        "{changes} changes → {}{}",
        paths_line(&outputs),
        backups_note(&backups)
    );
    exit::OK
}

/// Opens the `audiogroupN.dat` beside `input` that holds the audio of the sound named `name`
/// into `game` (nothing when the data file holds it, or the group is open already).
/// On error: the message and the exit status.
fn open_audio_group(game: &mut Game, input: &Path, name: &str) -> Result<(), (String, u8)> {
    let Ok(Some(group)) = gmkit_folder::import::sound_group(&game.data, name) else {
        // The data file's own sound, or an error `game_sound` reports.
        return Ok(());
    };
    if game
        .audio_groups
        .iter()
        .any(|(s, _)| gmkit_folder::audio_group_number(s) == Some(group))
    {
        return Ok(());
    }
    let stem = format!("audiogroup{group}");
    let path = match input.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.join(format!("{stem}.dat")),
        _ => PathBuf::from(format!("{stem}.dat")),
    };
    let data = gmkit_data::parse_file(&path).map_err(|e| {
        let code = if matches!(e.kind, gmkit_data::ErrorKind::Io(_)) {
            exit::IO
        } else {
            exit::FAILED
        };
        let message = format!(
            "{} (sound {} lives in {stem}.dat: expected it beside the game)",
            crate::io::file_error(&path, &e),
            gmkit_folder::quote(name)
        );
        (message, code)
    })?;
    game.audio_groups.push((stem, data));
    Ok(())
}

/// Arguments of `gmkit diff`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gmkit diff data.win data-modded.win\n  gmkit diff data.win mygame/            # a data file against an unpacked folder\n  gmkit diff --json a.win b.win\n\nOne line per change, old -> new:\n  sprite spr_x: width 32 → 48\n  sprite spr_hero: renamed spr_player → spr_hero\n  sprite spr_x frame 1: 210 pixels changed\n  texture page 2: 210 pixels changed (changed sprite frames are on it)\n  code gml_Object_obj_player_Step_0: 1 instruction changed\n  string 4512: \"Hello\" → \"Bonjour\"\n--json: a list of {asset, what} with field, old and new for a changed value or a rename.\n\nExit status: 0 when equal, 1 when they differ, 3 on I/O errors."
)]
pub struct DiffArgs {
    /// A data file or an unpacked folder
    pub a: PathBuf,
    /// A data file or an unpacked folder
    pub b: PathBuf,
    /// Print JSON
    #[arg(long)]
    pub json: bool,
}

fn load(p: &Path) -> Result<Folder, String> {
    if p.is_dir() {
        // diff compares page images too: read them with the folder.
        Folder::read_dir(p)
            .and_then(|mut f| f.materialize().map(|()| f))
            .map_err(|e| format!("{}/{e}", p.display()))
    } else {
        let g = Game::open(p).map_err(|e| format!("{}: {e}", p.display()))?;
        gmkit_folder::unpack(&g).map_err(|e| e.to_string())
    }
}

/// Two data files: only what differs is unpacked ([`gmkit_folder::diff::diff_games`]).
fn diff_games(a: &Path, b: &Path) -> Result<Vec<gmkit_folder::diff::Change>, String> {
    let open = |p: &Path| Game::open(p).map_err(|e| format!("{}: {e}", p.display()));
    let (x, y) = rayon::join(|| open(a), || open(b));
    gmkit_folder::diff::diff_games(&x?, &y?).map_err(|e| e.to_string())
}

pub fn diff(a: DiffArgs) -> u8 {
    let changes = if a.a.is_dir() || a.b.is_dir() {
        let (x, y) = rayon::join(|| load(&a.a), || load(&a.b));
        match (x, y) {
            (Ok(x), Ok(y)) => gmkit_folder::diff::diff(&x, &y),
            (Err(e), _) | (_, Err(e)) => return fail("diff", e, exit::IO),
        }
    } else {
        match diff_games(&a.a, &a.b) {
            Ok(c) => c,
            Err(e) => return fail("diff", e, exit::IO),
        }
    };
    let text = if a.json {
        // Serialized directly: each change's keys keep their order.
        format!(
            "{}\n",
            serde_json::to_string_pretty(&changes).unwrap_or_default()
        )
    } else {
        changes.iter().map(|c| format!("{c}\n")).collect()
    };
    let printed = match crate::io::write_stdout(text.as_bytes()) {
        Ok(()) => exit::OK,
        Err(e) => crate::io::stdout_error("gmkit diff", &e),
    };
    if printed != exit::OK {
        printed
    } else if changes.is_empty() {
        exit::OK
    } else {
        exit::FAILED
    }
}

/// Arguments of `gmkit demo`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gmkit demo                      # the built-in sample (a sprite, a sound, a room, an object with code)\n  gmkit demo data.win             # the same steps on a real file\n  gmkit demo --dir mygame/        # unpack into mygame/ (new or empty)\n\nShows info, unpacks into a folder (by default a new one in the system's temporary directory),\nshows a few lines of decompiled GML from it, packs it back and compares with the input. The\nfolder stays where it is, for you to open, edit and pack: the last lines say where."
)]
pub struct DemoArgs {
    /// A data file (default: the built-in sample)
    pub file: Option<PathBuf>,
    /// Where to unpack (new or empty; default: gmkit-demo-<process id> in the temporary
    /// directory). The folder is left in place.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Most lines of GML `gmkit demo` shows.
const DEMO_GML_LINES: usize = 8;

/// The `.gml` file `gmkit demo` shows: an object event's if there is one, else the first.
fn demo_gml(folder: &Folder) -> Option<(&str, &[u8])> {
    let gml = |p: &&String| p.ends_with(".gml");
    let pick = folder
        .files
        .keys()
        .filter(gml)
        .find(|p| p.contains("Object") || p.starts_with("objects/"))
        .or_else(|| folder.files.keys().find(gml))?;
    Some((pick.as_str(), folder.get(pick)?))
}

pub fn demo(a: DemoArgs) -> u8 {
    let (name, bytes) = match &a.file {
        Some(p) => match std::fs::read(p) {
            Ok(b) => (p.display().to_string(), b),
            Err(e) => return fail("demo", format!("{}: {e}", p.display()), exit::IO),
        },
        None => {
            let built = gmkit_folder::sample::sample_data()
                .and_then(|d| gmkit_data::build_bytes(&d).map_err(|e| e.to_string()));
            match built {
                Ok(b) => ("<built-in sample>".to_owned(), b),
                Err(e) => return fail("demo", format!("the built-in sample: {e}"), exit::FAILED),
            }
        }
    };
    if let Some(why) = gmkit_folder::info::not_a_data_file(&bytes) {
        return fail("demo", format!("{name}: {why}"), exit::FAILED);
    }
    print_info(&name, &gmkit_folder::info::info(&bytes));
    let data = match gmkit_data::parse_bytes(bytes.clone()) {
        Ok(d) => d,
        Err(e) => return fail("demo", e, exit::FAILED),
    };
    let dir = a
        .dir
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join(format!("gmkit-demo-{}", std::process::id())));
    let t = Instant::now();
    let folder = match gmkit_folder::unpack(&Game {
        data,
        audio_groups: Vec::new(),
    }) {
        Ok(f) => f,
        Err(e) => return fail("demo", e, exit::FAILED),
    };
    if let Err(e) = folder.write_dir(&dir) {
        return fail("demo", e, exit::IO);
    }
    println!(
        "\nunpack → {} ({} files, {:.1} ms):",
        dir.display(),
        folder.files.len(),
        t.elapsed().as_secs_f64() * 1e3
    );
    const SHOWN: usize = 40;
    for p in folder.files.keys().take(SHOWN) {
        println!("  {p}");
    }
    if folder.files.len() > SHOWN {
        println!("  ... {} more", folder.files.len() - SHOWN);
    }
    match demo_gml(&folder) {
        Some((path, text)) => {
            let text = String::from_utf8_lossy(text);
            let lines: Vec<&str> = text.lines().collect();
            println!("\n{path} (decompiled GML; edit it and pack):");
            for l in lines.iter().take(DEMO_GML_LINES) {
                println!("  {l}");
            }
            if lines.len() > DEMO_GML_LINES {
                println!("  ... {} more lines", lines.len() - DEMO_GML_LINES);
            }
        }
        None => println!("\n(no decompiled GML: the game has no bytecode, e.g. YYC)"),
    }
    let t = Instant::now();
    let back = Folder::read_dir(&dir).and_then(|f| gmkit_folder::pack(&f));
    let game = match back {
        Ok(g) => g,
        Err(e) => return fail("demo", e, exit::FAILED),
    };
    let out = match gmkit_data::build_bytes(&game.data) {
        Ok(o) => o,
        Err(e) => return fail("demo", e, exit::FAILED),
    };
    let same = out == bytes;
    println!(
        "\npack → {} bytes ({:.1} ms): {}",
        out.len(),
        t.elapsed().as_secs_f64() * 1e3,
        if same {
            "byte-identical to the input"
        } else {
            "DIFFERENT from the input"
        }
    );
    let d = dir.display();
    println!("\nThe folder stays at {d}: edit a file there, then");
    println!(
        "  gmkit pack {d} out.win && gmkit diff {name_arg} out.win",
        name_arg = match &a.file {
            Some(p) => p.display().to_string(),
            None => d.to_string(),
        }
    );
    if same { exit::OK } else { exit::FAILED }
}
