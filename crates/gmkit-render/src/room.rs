//! A room's scene: what is drawn, in which order (GMS1 slots and depths, 2.x layers).

use crate::blit::{Canvas, Place, Refused, Source, gm_rgba};
use crate::{MAX_SIDE, PageCache, RenderError, RenderOptions, Rendered, Stats};
use gmkit_data::DataFile;
use gmkit_data::chunks::room::{
    AssetLayer, BackgroundLayer, Instance, Layer, LayerData, Room, SpriteInstance, Tile, TileLayer,
    TileSource,
};
use gmkit_data::chunks::texture_page_item::TpagRef;
use std::collections::HashMap;

/// Tile-map value bits: the tile index, and the mirror, flip and rotate flags.
const TILE_INDEX: u32 = 0x7FFFF;
const TILE_MIRROR: u32 = 1 << 28;
const TILE_FLIP: u32 = 1 << 29;
const TILE_ROTATE: u32 = 1 << 30;

/// Largest tile map decoded, in cells (64 MiB of values).
pub const MAX_TILE_CELLS: usize = 1 << 24;

/// Rooms enable views with this flag.
const ROOM_ENABLE_VIEWS: u32 = 1;

/// Draws room `index` of `data` (see the crate docs for what is and is not drawn). Pages are
/// decoded into `cache` as draws need them.
pub fn render_room(
    data: &DataFile,
    index: usize,
    cache: &mut PageCache,
    opts: &RenderOptions,
) -> Result<Rendered, RenderError> {
    let rooms = data.rooms.as_ref().map_or(&[][..], |r| &r.rooms[..]);
    let room = rooms
        .get(index)
        .ok_or(RenderError::NoRoom {
            index,
            count: rooms.len(),
        })?
        .as_ref()
        .ok_or(RenderError::Stripped(index))?;
    if room.width == 0 || room.height == 0 {
        return Err(RenderError::Empty {
            index,
            width: room.width,
            height: room.height,
        });
    }
    let scale = opts.scale;
    if !scale.is_finite() || scale <= 0.0 {
        return Err(RenderError::Scale(scale));
    }
    // Saturating float-to-int conversions: a huge scale gives a huge size, refused below.
    let side = |v: u32| ((v as f64 * scale).round() as u32).max(1);
    let (w, h) = (side(room.width), side(room.height));
    let pixels = w as u64 * h as u64;
    if w > MAX_SIDE || h > MAX_SIDE || pixels > opts.max_pixels {
        return Err(RenderError::TooLarge {
            index,
            width: w,
            height: h,
            max_pixels: opts.max_pixels,
            max_side: MAX_SIDE,
        });
    }
    let work = pixels.saturating_mul(opts.work_factor).max(1 << 26);
    let decoded_before = cache.decoded();
    // What the canvas starts as: the clear colour, the room's colour, or the colour of a first
    // layer that covers everything (so a large room is filled once, not once per fill).
    let mut base = opts.clear;
    if room.draw_background_colour {
        let c = gm_rgba(room.background_colour);
        base = [c[0], c[1], c[2], 255];
    }
    if let Some(c) = room.layers.as_deref().and_then(first_opaque_fill) {
        base = c;
    }
    let mut s = Scene {
        scale,
        data,
        room,
        cache,
        canvas: Canvas::filled(w, h, base, work),
        out: Rendered {
            image: image::RgbaImage::new(0, 0),
            stats: Stats::default(),
            skipped: Vec::new(),
            skipped_total: 0,
        },
    };
    match &room.layers {
        Some(layers) => s.layers(layers),
        None => s.gms1(),
    }
    if opts.views && room.flags & ROOM_ENABLE_VIEWS != 0 {
        for v in room.views.iter().filter(|v| v.enabled) {
            let r = v.view.map(|c| (c as f64 * scale).round() as i64);
            s.canvas.outline(r, opts.view_colour);
            s.out.stats.views_drawn += 1;
        }
    }
    s.out.stats.pages_decoded = s.cache.decoded() - decoded_before;
    s.out.image = s.canvas.into_image();
    Ok(s.out)
}

/// The colour of the first layer drawn when it is a visible, opaque, colour-only background
/// layer (it covers whatever was drawn before it).
fn first_opaque_fill(layers: &[Layer]) -> Option<[u8; 4]> {
    let first = layers
        .iter()
        .filter(|l| l.visible)
        .fold(None::<&Layer>, |best, l| match best {
            Some(b) if b.depth >= l.depth => Some(b),
            _ => Some(l),
        })?;
    match &first.data {
        LayerData::Background(b) if b.visible && b.sprite.is_none() => {
            let c = gm_rgba(b.colour);
            (c[3] == 255).then_some(c)
        }
        _ => None,
    }
}

/// One render in progress.
struct Scene<'a> {
    /// The drawing scale (room coordinates × scale = picture coordinates).
    scale: f64,
    data: &'a DataFile,
    room: &'a Room,
    cache: &'a mut PageCache,
    canvas: Canvas,
    out: Rendered,
}

/// What a texture-frame draw needs besides the placement.
struct Frame {
    tpag: TpagRef,
    /// The frame's full size (a sprite's size; a background's bounding size when `None`).
    size: Option<(u32, u32)>,
    /// The part of the frame drawn (all of it when `None`).
    region: Option<[i64; 4]>,
}

impl Scene<'_> {
    /// Draws a frame; `Err` says why it could not be.
    fn frame(&mut self, f: &Frame, at: &Place) -> Result<(), String> {
        let item = self
            .data
            .texture_page_items
            .as_ref()
            .and_then(|t| t.items.get(f.tpag.0 as usize)?.as_ref())
            .ok_or_else(|| format!("texture page item {} does not exist", f.tpag.0))?;
        let page = usize::try_from(item.texture_page).map_err(|_| {
            format!(
                "texture page item {} has page {}",
                f.tpag.0, item.texture_page
            )
        })?;
        let textures = self
            .data
            .textures
            .as_ref()
            .ok_or("the file has no texture pages (TXTR)")?;
        let (fw, fh) = f
            .size
            .unwrap_or((item.bounding[0].into(), item.bounding[1].into()));
        let region = f.region.unwrap_or([0, 0, fw as i64, fh as i64]);
        let image = self.cache.get(textures, page)?;
        let s = self.scale;
        let at = &Place {
            x: at.x * s,
            y: at.y * s,
            scale: (at.scale.0 * s, at.scale.1 * s),
            ..*at
        };
        let src = Source {
            page: image,
            item,
            region,
        };
        match self.canvas.draw(&src, at) {
            Ok(_) => Ok(()),
            Err(Refused::NotFinite) => {
                Err("a position, scale or angle is not a finite number".into())
            }
            Err(Refused::WorkLimit) => Err("the render's work limit is spent".into()),
        }
    }

    /// The frame `frame` (wrapped to the frame count) of sprite `sprite`, with its origin.
    fn sprite_frame(&self, sprite: usize, frame: f64) -> Result<(Frame, (f64, f64)), String> {
        let s = self
            .data
            .sprites
            .as_ref()
            .and_then(|s| s.sprites.get(sprite)?.as_ref())
            .ok_or_else(|| format!("sprite {sprite} does not exist"))?;
        if s.frames.is_empty() {
            return Err(format!(
                "sprite {sprite} has no texture frames (Spine, SWF or vector sprites are not drawn)"
            ));
        }
        let n = s.frames.len() as i64;
        let k = if frame.is_finite() {
            (frame.floor() as i64).rem_euclid(n)
        } else {
            0
        };
        let tpag = s.frames[k as usize]
            .ok_or_else(|| format!("sprite {sprite} frame {k} has no image"))?;
        Ok((
            Frame {
                tpag,
                size: Some((s.width, s.height)),
                region: None,
            },
            (s.origin_x as f64, s.origin_y as f64),
        ))
    }

    fn name_of(&self, r: gmkit_data::StringRef) -> String {
        name_in(self.data, r)
    }

    /// An instance: its object's sprite as the default Draw event draws it.
    fn instance(&mut self, k: usize, inst: &Instance) {
        let what = || format!("instance {k} (id {})", inst.instance_id);
        let Some(oi) = inst.object.index() else {
            self.out.skip(what, "refers to no object");
            return;
        };
        let Some(obj) = self
            .data
            .objects
            .as_ref()
            .and_then(|o| o.objects.get(oi)?.as_ref())
        else {
            self.out.skip(what, format!("object {oi} does not exist"));
            return;
        };
        let Some(si) = obj.sprite.index().filter(|_| obj.visible) else {
            self.out.stats.instances_without_sprite += 1;
            return;
        };
        let frame = inst.image.map_or(0.0, |(_, i)| i as f64);
        let r = self.sprite_frame(si, frame).and_then(|(f, pivot)| {
            let at = Place {
                pivot,
                scale: (inst.scale_x as f64, inst.scale_y as f64),
                angle: inst.rotation as f64,
                tint: gm_rgba(inst.colour),
                ..Place::at(inst.x as f64, inst.y as f64)
            };
            self.frame(&f, &at)
        });
        let data = self.data;
        self.out.tally(
            r,
            |s| &mut s.instances_drawn,
            || format!("{} of {}", what(), name_in(data, obj.name)),
        );
    }

    /// A legacy tile: a rectangle of a background (GMS1) or of a sprite's first frame (2.x
    /// asset layers).
    fn legacy_tile(&mut self, k: usize, t: &Tile) {
        let what = || format!("tile {k} (id {})", t.instance_id);
        let from_sprite = matches!(t.source, TileSource::Sprite(_));
        let Some(src) = t.source.index() else {
            let kind = if from_sprite { "sprite" } else { "background" };
            self.out.skip(
                what,
                format!("refers to no {kind} ({})", t.source.to_stored()),
            );
            return;
        };
        let frame = if from_sprite {
            self.sprite_frame(src, 0.0).map(|(f, _)| f)
        } else {
            self.background_frame(src)
        };
        let r = frame.and_then(|mut f| {
            f.region = Some([
                t.source_x as i64,
                t.source_y as i64,
                t.width as i64,
                t.height as i64,
            ]);
            let at = Place {
                scale: (t.scale_x as f64, t.scale_y as f64),
                tint: gm_rgba(t.colour),
                ..Place::at(t.x as f64, t.y as f64)
            };
            self.frame(&f, &at)
        });
        self.out.tally(r, |s| &mut s.tiles_drawn, what);
    }

    /// A background's (tile set's) image.
    fn background_frame(&self, bg: usize) -> Result<Frame, String> {
        let b = self
            .data
            .backgrounds
            .as_ref()
            .and_then(|b| b.backgrounds.get(bg)?.as_ref())
            .ok_or_else(|| format!("background {bg} does not exist"))?;
        let tpag = b
            .texture
            .ok_or_else(|| format!("background {bg} has no image"))?;
        Ok(Frame {
            tpag,
            size: None,
            region: None,
        })
    }

    /// The room's size as floats.
    fn room_size(&self) -> (f64, f64) {
        (self.room.width as f64, self.room.height as f64)
    }

    /// Scale that stretches a `w × h` frame over the room.
    fn stretch(&self, w: f64, h: f64) -> (f64, f64) {
        let (rw, rh) = self.room_size();
        if w > 0.0 && h > 0.0 {
            (rw / w, rh / h)
        } else {
            (1.0, 1.0)
        }
    }

    /// The full size of a frame.
    fn frame_size(&self, f: &Frame) -> Option<(u32, u32)> {
        f.size.or_else(|| {
            let it = self
                .data
                .texture_page_items
                .as_ref()?
                .items
                .get(f.tpag.0 as usize)?
                .as_ref()?;
            Some((it.bounding[0].into(), it.bounding[1].into()))
        })
    }

    // ---------------------------------------------------------------------------------------
    // GMS1 rooms

    fn gms1(&mut self) {
        let room = self.room;
        for (k, b) in room.backgrounds.iter().enumerate() {
            if b.enabled && !b.foreground {
                self.gms1_background(k);
            }
        }
        // Tiles and instances by depth, higher first; tiles first at equal depth.
        let objects = self.data.objects.as_ref();
        let depth_of = |i: &Instance| {
            i.object
                .index()
                .and_then(|o| objects?.objects.get(o)?.as_ref())
                .map_or(0, |o| o.depth)
        };
        let mut order: Vec<(i32, u8, usize)> = room
            .tiles
            .iter()
            .enumerate()
            .map(|(k, t)| (t.depth, 0, k))
            .chain(
                room.instances
                    .iter()
                    .enumerate()
                    .map(|(k, i)| (depth_of(i), 1, k)),
            )
            .collect();
        order.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        for (_, kind, k) in order {
            if kind == 0 {
                self.legacy_tile(k, &room.tiles[k]);
            } else {
                self.instance(k, &room.instances[k]);
            }
        }
        for (k, b) in room.backgrounds.iter().enumerate() {
            if b.enabled && b.foreground {
                self.gms1_background(k);
            }
        }
    }

    fn gms1_background(&mut self, k: usize) {
        let room = self.room;
        let b = &room.backgrounds[k];
        let what = || format!("background slot {k}");
        let Some(bi) = b.background.index() else {
            return;
        };
        let r = self.background_frame(bi).and_then(|f| {
            let (w, h) = self.frame_size(&f).unwrap_or((0, 0));
            let scale = if b.stretch {
                self.stretch(w as f64, h as f64)
            } else {
                (1.0, 1.0)
            };
            let at = Place {
                scale,
                tile: (b.tiled_x, b.tiled_y),
                ..Place::at(b.x as f64, b.y as f64)
            };
            self.frame(&f, &at)
        });
        self.out.tally(r, |s| &mut s.backgrounds_drawn, what);
    }

    // ---------------------------------------------------------------------------------------
    // 2.x rooms

    fn layers(&mut self, layers: &[Layer]) {
        let mut order: Vec<&Layer> = layers.iter().collect();
        order.sort_by_key(|l| std::cmp::Reverse(l.depth));
        let room = self.room;
        let ids: HashMap<u32, usize> = room
            .instances
            .iter()
            .enumerate()
            .map(|(k, i)| (i.instance_id, k))
            .collect();
        for l in order {
            if !l.visible {
                self.out.stats.layers_hidden += 1;
                continue;
            }
            self.out.stats.layers_drawn += 1;
            match &l.data {
                LayerData::Background(b) => self.background_layer(l, b),
                LayerData::Instances(list) => {
                    for id in list {
                        match ids.get(id) {
                            Some(&k) => self.instance(k, &room.instances[k]),
                            None => {
                                let name = self.name_of(l.name);
                                self.out.skip(
                                    || format!("layer \"{name}\" instance id {id}"),
                                    "no instance of the room has that id",
                                )
                            }
                        }
                    }
                }
                LayerData::Assets(a) => self.asset_layer(l, a),
                LayerData::Tiles(t) => self.tile_layer(l, t),
                LayerData::Path | LayerData::Effect(_) => {}
            }
        }
    }

    fn background_layer(&mut self, l: &Layer, b: &BackgroundLayer) {
        if !b.visible {
            return;
        }
        let tint = gm_rgba(b.colour);
        let Some(si) = b.sprite.index() else {
            self.canvas.fill(tint);
            self.out.stats.backgrounds_drawn += 1;
            return;
        };
        let r = self
            .sprite_frame(si, b.first_frame as f64)
            .and_then(|(f, _)| {
                let (w, h) = f.size.unwrap_or((0, 0));
                let scale = if b.stretch {
                    self.stretch(w as f64, h as f64)
                } else {
                    (1.0, 1.0)
                };
                let at = Place {
                    scale,
                    tile: (b.tiled_h, b.tiled_v),
                    tint,
                    ..Place::at(l.x_offset as f64, l.y_offset as f64)
                };
                self.frame(&f, &at)
            });
        let data = self.data;
        self.out.tally(
            r,
            |s| &mut s.backgrounds_drawn,
            || format!("layer \"{}\" background", name_in(data, l.name)),
        );
    }

    fn asset_layer(&mut self, l: &Layer, a: &AssetLayer) {
        for (k, t) in a.legacy_tiles.iter().enumerate() {
            self.legacy_tile(k, t);
        }
        let nine = a.nine_slices.iter().flatten();
        for (k, s) in a.sprites.iter().chain(nine).enumerate() {
            self.sprite_instance(l, k, s);
        }
        let name = self.name_of(l.name);
        let not_drawn = [
            ("sequence", a.sequences.as_ref().map_or(0, Vec::len)),
            (
                "particle system",
                a.particle_systems.as_ref().map_or(0, Vec::len),
            ),
            ("text item", a.text_items.as_ref().map_or(0, Vec::len)),
        ];
        for (kind, n) in not_drawn {
            for k in 0..n {
                self.out.skip(
                    || format!("layer \"{name}\" {kind} {k}"),
                    format!("{kind}s are not drawn"),
                );
            }
        }
    }

    fn sprite_instance(&mut self, l: &Layer, k: usize, s: &SpriteInstance) {
        let r = s
            .asset
            .index()
            .ok_or_else(|| match s.asset.kept() {
                Some(v) => format!("refers to no sprite ({v})"),
                None => "refers to no sprite".to_owned(),
            })
            .and_then(|si| self.sprite_frame(si, s.frame_index as f64))
            .and_then(|(f, pivot)| {
                let at = Place {
                    pivot,
                    scale: (s.scale_x as f64, s.scale_y as f64),
                    angle: s.rotation as f64,
                    tint: gm_rgba(s.colour),
                    ..Place::at(s.x as f64, s.y as f64)
                };
                self.frame(&f, &at)
            });
        let data = self.data;
        self.out.tally(
            r,
            |s| &mut s.sprites_drawn,
            || format!("layer \"{}\" sprite {k}", name_in(data, l.name)),
        );
    }

    fn tile_layer(&mut self, l: &Layer, t: &TileLayer) {
        let name = self.name_of(l.name);
        let what = || format!("layer \"{name}\" tile map");
        if let Err(e) = self.tile_map(l, t) {
            self.out.skip(what, e);
        }
    }

    /// Draws the cells of a tile map that fall inside the room.
    fn tile_map(&mut self, l: &Layer, t: &TileLayer) -> Result<(), String> {
        let Some(bi) = t.tileset.index() else {
            return Ok(());
        };
        let b = self
            .data
            .backgrounds
            .as_ref()
            .and_then(|b| b.backgrounds.get(bi)?.as_ref())
            .ok_or_else(|| format!("tile set {bi} does not exist"))?;
        let ts = b
            .tileset
            .as_ref()
            .ok_or_else(|| format!("background {bi} is not a tile set"))?;
        let tpag = b
            .texture
            .ok_or_else(|| format!("tile set {bi} has no image"))?;
        let (tw, th) = (ts.tile_width as i64, ts.tile_height as i64);
        if tw == 0 || th == 0 || ts.columns == 0 {
            return Err(format!(
                "tile set {bi} has {tw}×{th} tiles in {} columns",
                ts.columns
            ));
        }
        let n = t.tile_count();
        let cells = (t.width as usize).checked_mul(t.height as usize);
        if cells != Some(n) || n > MAX_TILE_CELLS {
            return Err(format!(
                "{} × {} grid holding {n} tiles (at most {MAX_TILE_CELLS} drawn)",
                t.width, t.height
            ));
        }
        let tiles = t.tiles().map_err(|e| e.to_string())?;
        let (ox, oy) = (l.x_offset as f64, l.y_offset as f64);
        if !ox.is_finite() || !oy.is_finite() {
            return Err("the layer's offset is not a finite number".into());
        }
        let [sep_x, sep_y] = ts.separation.unwrap_or([0, 0]).map(i64::from);
        let (bx, by) = (ts.output_border_x as i64, ts.output_border_y as i64);
        let stride_x = tw + 2 * bx + sep_x;
        let stride_y = th + 2 * by + sep_y;
        let fpt = ts.frames_per_tile.max(1) as usize;
        // Only the cells that can touch the room.
        let (rw, rh) = self.room_size();
        let span = |o: f64, size: i64, room: f64, count: u32| {
            let first = (((-o) / size as f64).floor() as i64 - 1).clamp(0, count as i64);
            let last = (((room - o) / size as f64).ceil() as i64 + 1).clamp(0, count as i64);
            first..last
        };
        let cols = span(ox, tw, rw, t.width);
        let rows = span(oy, th, rh, t.height);
        let mut bad = 0usize;
        for row in rows {
            for col in cols.clone() {
                let v = tiles[row as usize * t.width as usize + col as usize];
                let idx = (v & TILE_INDEX) as usize;
                if idx == 0 {
                    continue;
                }
                let id = ts
                    .tile_ids
                    .get(idx.saturating_mul(fpt))
                    .map_or(idx, |&i| i as usize);
                if id >= ts.tile_count.max(1) as usize && !ts.tile_ids.is_empty() {
                    bad += 1;
                    continue;
                }
                let (c, r) = (
                    (id % ts.columns as usize) as i64,
                    (id / ts.columns as usize) as i64,
                );
                let f = Frame {
                    tpag,
                    size: None,
                    region: Some([c * stride_x + bx, r * stride_y + by, tw, th]),
                };
                let at = Place {
                    flags: (
                        v & TILE_MIRROR != 0,
                        v & TILE_FLIP != 0,
                        v & TILE_ROTATE != 0,
                    ),
                    ..Place::at(ox + (col * tw) as f64, oy + (row * th) as f64)
                };
                match self.frame(&f, &at) {
                    Ok(()) => self.out.stats.tiles_drawn += 1,
                    Err(e) => return Err(e),
                }
            }
        }
        if bad > 0 {
            return Err(format!(
                "{bad} cells name a tile past the tile set's {}",
                ts.tile_count
            ));
        }
        Ok(())
    }
}

/// The text of string `r` (for messages), or `string N` when the table has no such entry.
fn name_in(data: &DataFile, r: gmkit_data::StringRef) -> String {
    data.string(r)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| format!("string {}", r.0))
}
