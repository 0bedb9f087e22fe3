//! `gmkit render room`: draw a room as its first frame shows it (library: gmkit-render).

use gmkit_render::{PageCache, RenderOptions, render_room, room_by_name_or_index};
use std::path::PathBuf;

/// What to render.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Draw a room (backgrounds, tiles, asset layers, instances) to a PNG
    #[command(
        after_help = "Examples:\n  gmkit render room rm_lvl1 data.win -o lvl1.png\n  gmkit render room 3 data.win -o room3.png --views --json\n  gmkit render room rm_world data.win -o world.png --scale 0.25\n\nNot drawn: what code draws (Draw events, creation code), shaders and effects, particles,\nsequences, text items, animation past the first frame. See docs/render.md.\nExit status: 0 when drawn (items that could not be drawn are listed on stderr), 1 when the\nroom does not exist or is too large, 3 on I/O errors."
    )]
    Room(RoomArgs),
}

/// Arguments of `gmkit render room`.
#[derive(clap::Args)]
pub struct RoomArgs {
    /// The room: its name, or its index
    pub room: String,
    /// The data file (data.win, game.unx, ...)
    pub file: PathBuf,
    /// The PNG to write
    #[arg(short, long)]
    pub out: PathBuf,
    /// Outline the room's enabled views
    #[arg(long)]
    pub views: bool,
    /// Draw at this scale (e.g. 0.25 for a room too large to draw whole)
    #[arg(long, default_value_t = 1.0)]
    pub scale: f64,
    /// Print what was drawn as JSON ({width, height, instances_drawn, tiles_drawn, ...})
    #[arg(long)]
    pub json: bool,
}

/// Runs `gmkit render`.
pub fn run(c: Command) -> u8 {
    match c {
        Command::Room(a) => room(a),
    }
}

fn room(a: RoomArgs) -> u8 {
    let data = match gmkit_data::parse_file(&a.file) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{}", crate::io::file_error(&a.file, &e));
            return crate::exit::FAILED;
        }
    };
    let Some(index) = room_by_name_or_index(&data, &a.room) else {
        let n = data.rooms.as_ref().map_or(0, |r| r.rooms.len());
        eprintln!(
            "{}: no room named or numbered {:?} (the file has {n} rooms; `gmkit ls {} rooms` lists them)",
            a.file.display(),
            a.room,
            a.file.display()
        );
        return crate::exit::FAILED;
    };
    let opts = RenderOptions {
        views: a.views,
        scale: a.scale,
        ..Default::default()
    };
    let start = std::time::Instant::now();
    let r = match render_room(&data, index, &mut PageCache::default(), &opts) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{}: {e}", a.file.display());
            return crate::exit::FAILED;
        }
    };
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let png = match gmkit_render::encode_png(&r.image) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{}: {e}", a.out.display());
            return crate::exit::FAILED;
        }
    };
    if let Err(e) = crate::io::write_atomic(&a.out, &png, |_| Ok(())) {
        eprintln!("{e}");
        return crate::exit::IO;
    }
    for s in &r.skipped {
        eprintln!("not drawn: {s}");
    }
    if r.skipped_total > r.skipped.len() {
        eprintln!("not drawn: {} more", r.skipped_total - r.skipped.len());
    }
    let s = &r.stats;
    if a.json {
        let j = serde_json::json!({
            "room": index,
            "width": r.image.width(),
            "height": r.image.height(),
            "instances_drawn": s.instances_drawn,
            "instances_without_sprite": s.instances_without_sprite,
            "tiles_drawn": s.tiles_drawn,
            "sprites_drawn": s.sprites_drawn,
            "backgrounds_drawn": s.backgrounds_drawn,
            "layers_drawn": s.layers_drawn,
            "layers_hidden": s.layers_hidden,
            "views_drawn": s.views_drawn,
            "pages_decoded": s.pages_decoded,
            "skipped_total": r.skipped_total,
            "skipped": r.skipped.iter().map(|k| serde_json::json!({"item": k.item, "reason": k.reason})).collect::<Vec<_>>(),
            "ms": ms,
        });
        return crate::io::print_json(&j, false);
    }
    println!(
        "room {index} ({}×{}) → {}: {} instances, {} tiles, {} sprites, {} backgrounds, {} not drawn ({ms:.0} ms)",
        r.image.width(),
        r.image.height(),
        a.out.display(),
        s.instances_drawn,
        s.tiles_drawn,
        s.sprites_drawn,
        s.backgrounds_drawn,
        r.skipped_total
    );
    crate::exit::OK
}
