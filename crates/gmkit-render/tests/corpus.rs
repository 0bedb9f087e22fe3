//! Every room of every corpus file (both manifests) renders without error or panic, within the
//! size limit, through one small page cache per file; a room too large to draw whole is refused
//! with an error, then drawn at the scale that fits. Prints what was drawn and skipped.

use gmkit_render::{PageCache, RenderError, RenderOptions, render_room};

#[test]
fn every_corpus_room_renders() {
    let Some(names) = gmkit_testdata::corpus_names_all() else {
        eprintln!("no corpus (set GMKIT_CORPUS): skipped");
        return;
    };
    let opts = RenderOptions {
        views: true,
        ..Default::default()
    };
    let (mut rooms, mut drawn, mut instances, mut tiles, mut skipped) = (0, 0, 0, 0, 0);
    let mut scaled = 0;
    for name in &names {
        let path = gmkit_testdata::corpus_path(name).expect("corpus present");
        let data = gmkit_data::parse_file(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        // A small budget: pages come and go, the picture must not depend on it.
        let mut cache = PageCache::new(64 << 20);
        let count = data.rooms.as_ref().map_or(0, |r| r.rooms.len());
        for k in 0..count {
            rooms += 1;
            match render_room(&data, k, &mut cache, &opts) {
                Ok(r) => {
                    let room = data.rooms.as_ref().unwrap().rooms[k].as_ref().unwrap();
                    assert_eq!(
                        (r.image.width(), r.image.height()),
                        (room.width, room.height),
                        "{name} room {k}"
                    );
                    assert!(cache.bytes() <= cache.budget(), "{name} room {k}");
                    drawn += 1;
                    instances += r.stats.instances_drawn;
                    tiles += r.stats.tiles_drawn;
                    skipped += r.skipped_total;
                    for s in r.skipped.iter().take(3) {
                        eprintln!("  {name} room {k}: skipped {s}");
                    }
                }
                Err(e @ RenderError::TooLarge { .. }) => {
                    eprintln!("  {name} room {k}: {e}");
                    let room = data.rooms.as_ref().unwrap().rooms[k].as_ref().unwrap();
                    let (w, h) = (room.width as f64, room.height as f64);
                    let side = gmkit_render::MAX_SIDE as f64 / w.max(h);
                    let area = (opts.max_pixels as f64 / (w * h)).sqrt();
                    let small = RenderOptions {
                        scale: side.min(area) * 0.99,
                        ..opts.clone()
                    };
                    let r = render_room(&data, k, &mut cache, &small).unwrap_or_else(|e| {
                        panic!("{name} room {k} at scale {}: {e}", small.scale)
                    });
                    assert!(r.image.width() as u64 * r.image.height() as u64 <= opts.max_pixels);
                    scaled += 1;
                    drawn += 1;
                    instances += r.stats.instances_drawn;
                    tiles += r.stats.tiles_drawn;
                    skipped += r.skipped_total;
                }
                // Nothing to draw: allowed, counted.
                Err(e @ (RenderError::Empty { .. } | RenderError::Stripped(_))) => {
                    eprintln!("  {name} room {k}: {e}");
                }
                Err(e) => panic!("{name} room {k}: {e}"),
            }
        }
    }
    eprintln!(
        "{} files, {rooms} rooms, {drawn} drawn ({scaled} scaled down): {instances} instances, {tiles} tiles, {skipped} items skipped",
        names.len()
    );
    assert!(drawn > 0);
}
