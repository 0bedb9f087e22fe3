//! One sprite frame drawn at the sprite's full size (what the room renderer samples).

use crate::blit::{Canvas, Place, Source};
use crate::{PageCache, RenderError};
use gmkit_data::DataFile;

/// Draws frame `frame` of sprite `sprite` at the sprite's width × height (transparent outside
/// the part its texture page item stores), decoding its page into `cache` when needed.
pub fn render_sprite_frame(
    data: &DataFile,
    sprite: usize,
    frame: usize,
    cache: &mut PageCache,
) -> Result<image::RgbaImage, RenderError> {
    let err = |m: String| RenderError::Sprite(m);
    let s = data
        .sprites
        .as_ref()
        .and_then(|s| s.sprites.get(sprite)?.as_ref())
        .ok_or_else(|| err(format!("sprite {sprite} does not exist")))?;
    let tpag = s.frames.get(frame).copied().flatten().ok_or_else(|| {
        err(format!(
            "sprite {sprite} has no frame {frame} with an image"
        ))
    })?;
    let item = data
        .texture_page_items
        .as_ref()
        .and_then(|t| t.items.get(tpag.0 as usize)?.as_ref())
        .ok_or_else(|| err(format!("texture page item {} does not exist", tpag.0)))?;
    gmkit_media::budget::check_image(s.width, s.height).map_err(|e| err(e.to_string()))?;
    let page = usize::try_from(item.texture_page).map_err(|_| {
        err(format!(
            "texture page item {} has page {}",
            tpag.0, item.texture_page
        ))
    })?;
    let textures = data
        .textures
        .as_ref()
        .ok_or_else(|| err("the file has no texture pages (TXTR)".into()))?;
    let image = cache.get(textures, page).map_err(err)?;
    let mut canvas = Canvas::new(s.width, s.height, u64::MAX);
    let src = Source {
        page: image,
        item,
        region: [0, 0, s.width as i64, s.height as i64],
    };
    canvas
        .draw(&src, &Place::at(0.0, 0.0))
        .map_err(|e| err(format!("{e:?}")))?;
    Ok(canvas.into_image())
}
