//! The built-in sample game that `gmkit demo` runs on: a sprite with one frame (on a PNG
//! texture page) and a collision mask, a sound with its embedded WAV, a room, and an object
//! whose create event runs code. Built in code through `gmkit-data`'s public API (the code
//! with its assembler), on top of [`gmkit_data::sample`]; no byte comes from a real game.

use crate::Game;
use gmkit_data::chunks::audio::EmbeddedAudio;
use gmkit_data::chunks::audio_group::{AudioGroup, AudioGroups};
use gmkit_data::chunks::code::{CodeBody, CodeEntries, CodeEntry, asm};
use gmkit_data::chunks::function::{CodeLocals, Functions};
use gmkit_data::chunks::object::{Action, Event, Object, Objects};
use gmkit_data::chunks::room::{Room, Rooms};
use gmkit_data::chunks::sound::{FLAG_EMBEDDED, FLAG_REGULAR, GroupOrPreload, Sound, Sounds};
use gmkit_data::chunks::sprite::{SpecialHeader, Sprite, Sprites};
use gmkit_data::chunks::texture::{PageData, TexturePage, Textures};
use gmkit_data::chunks::texture_page_item::{TexturePageItem, TpagRef};
use gmkit_data::chunks::variable::{Variables, VariablesHeader};
use gmkit_data::{AssetRef, DataFile, Id};

/// Side of the sample sprite, in pixels.
const SIZE: u32 = 32;

/// The code of the object's create event, as assembly text.
pub const CREATE_CODE: &str = "\
pushi.e 3
pop.v.i self.lives
push.s \"Hello from the gmkit sample\"
conv.s.v
call.i show_debug_message(argc=1)
popz.v
";

/// Whether pixel (x, y) of the sample sprite is inside its disc.
fn inside(x: u32, y: u32) -> bool {
    let c = SIZE as i64 / 2;
    let (dx, dy) = (x as i64 - c, y as i64 - c);
    dx * dx + dy * dy < c * c
}

/// The sprite's frame: an orange disc on transparency, as RGBA.
fn frame_pixels() -> Vec<u8> {
    let mut px = Vec::with_capacity((SIZE * SIZE * 4) as usize);
    for y in 0..SIZE {
        for x in 0..SIZE {
            px.extend_from_slice(if inside(x, y) {
                &[240, 140, 40, 255]
            } else {
                &[0, 0, 0, 0]
            });
        }
    }
    px
}

/// The disc as a collision mask (rows of `SIZE / 8` bytes, leftmost pixel in the top bit).
fn mask() -> Vec<u8> {
    let stride = SIZE.div_ceil(8) as usize;
    let mut m = vec![0u8; stride * SIZE as usize];
    for y in 0..SIZE {
        for x in 0..SIZE {
            if inside(x, y) {
                m[y as usize * stride + x as usize / 8] |= 0x80 >> (x % 8);
            }
        }
    }
    m
}

/// A tenth of a second of a 440 Hz square wave: 8-bit mono PCM at 8 kHz, in a RIFF/WAVE file.
fn beep_wav() -> Vec<u8> {
    let rate: u32 = 8000;
    let samples: Vec<u8> = (0..rate / 10)
        .map(|i| {
            if (i * 440 * 2 / rate).is_multiple_of(2) {
                0xB0
            } else {
                0x50
            }
        })
        .collect();
    let mut w = Vec::with_capacity(44 + samples.len());
    w.extend_from_slice(b"RIFF");
    w.extend_from_slice(&(36 + samples.len() as u32).to_le_bytes());
    w.extend_from_slice(b"WAVEfmt ");
    w.extend_from_slice(&16u32.to_le_bytes()); // fmt chunk size
    w.extend_from_slice(&1u16.to_le_bytes()); // PCM
    w.extend_from_slice(&1u16.to_le_bytes()); // mono
    w.extend_from_slice(&rate.to_le_bytes());
    w.extend_from_slice(&rate.to_le_bytes()); // bytes per second
    w.extend_from_slice(&1u16.to_le_bytes()); // block align
    w.extend_from_slice(&8u16.to_le_bytes()); // bits per sample
    w.extend_from_slice(b"data");
    w.extend_from_slice(&(samples.len() as u32).to_le_bytes());
    w.extend_from_slice(&samples);
    w
}

/// Builds the sample data file model. Fails only if the model API rejects it (a bug).
pub fn sample_data() -> Result<DataFile, String> {
    let mut data = gmkit_data::sample();
    let strings = data.strings.get_or_insert_with(Default::default);
    let spr_name = strings.push("spr_ball");
    let snd_name = strings.push("snd_beep");
    let snd_kind = strings.push(".wav");
    let snd_file = strings.push("snd_beep.wav");
    let group_name = strings.push("audiogroup_default");
    let obj_name = strings.push("obj_ball");
    let room_name = strings.push("rm_start");
    let code_name = strings.push("gml_Object_obj_ball_Create_0");

    // The texture page and the frame's texture page item.
    let image = gmkit_media::Image::new(SIZE, SIZE, frame_pixels()).map_err(|e| e.to_string())?;
    let png = gmkit_media::encode_png(&image).map_err(|e| e.to_string())?;
    data.textures = Some(Textures {
        pages: vec![Some(TexturePage {
            data: PageData::Embedded(png.into()),
            ..Default::default()
        })],
        end_align: 4,
    });
    let side = SIZE as u16;
    let items = data.texture_page_items.get_or_insert_with(Default::default);
    items.items.push(Some(TexturePageItem {
        source: [0, 0, side, side],
        target: [0, 0, side, side],
        bounding: [side, side],
        texture_page: 0,
    }));
    let frame = TpagRef(items.items.len() as u32 - 1);

    // The chunks the assets go to.
    data.sprites = Some(Sprites::default());
    data.sounds = Some(Sounds::default());
    data.audio_groups = Some(AudioGroups {
        groups: vec![Some(AudioGroup {
            name: group_name,
            path: None,
        })],
    });
    data.audio = Some(EmbeddedAudio {
        entries: vec![Some(beep_wav().into())],
    });
    data.objects = Some(Objects::default());
    data.rooms = Some(Rooms::default());
    data.code = Some(CodeEntries::default());
    data.variables = Some(Variables {
        header: Some(VariablesHeader::default()),
        ..Default::default()
    });
    data.functions = Some(Functions {
        code_locals: Some(Vec::new()),
        ..Default::default()
    });

    let err = |e: gmkit_data::Error| e.to_string();
    let sprite: Id<Sprite> = data
        .add_asset(Sprite {
            name: spr_name,
            width: SIZE,
            height: SIZE,
            margin_right: SIZE as i32 - 1,
            margin_bottom: SIZE as i32 - 1,
            origin_x: SIZE as i32 / 2,
            origin_y: SIZE as i32 / 2,
            special: Some(Box::new(SpecialHeader {
                version: 1,
                sprite_type: 0,
                playback: Some((15.0, 0)),
                ..Default::default()
            })),
            frames: vec![Some(frame)],
            masks: vec![mask().into()],
            ..Default::default()
        })
        .map_err(err)?;
    data.add_asset(Sound {
        name: snd_name,
        flags: FLAG_EMBEDDED | FLAG_REGULAR,
        kind: Some(snd_kind),
        file: Some(snd_file),
        effects: 0,
        volume: 1.0,
        pitch: 0.0,
        group: GroupOrPreload::Group(AssetRef::at(0)),
        audio_id: AssetRef::at(0),
        audio_length: None,
    })
    .map_err(err)?;

    // The object's create event runs code entry 0.
    let instructions = asm::assemble(CREATE_CODE, &mut data).map_err(|e| e.to_string())?;
    if let Some(code) = data.code.as_mut() {
        code.entries.push(CodeEntry {
            name: code_name,
            body: CodeBody::Instructions(instructions),
            locals_count: 0,
            arguments_count: 0,
            arguments_flag: false,
            execution_offset: 0,
        });
    }
    if let Some(locals) = data.functions.as_mut().and_then(|f| f.code_locals.as_mut()) {
        locals.push(CodeLocals {
            code_name,
            locals: Vec::new(),
        });
    }
    let mut events = vec![Vec::new(); 15];
    events[0].push(Event {
        subtype: 0,
        actions: vec![Action {
            library_id: 1,
            action_id: 603,
            kind: 7,
            apply_to_usable: true,
            exe_type: 2,
            code_id: AssetRef::at(0),
            argument_count: 1,
            who: gmkit_data::chunks::object::action::AppliesTo::Itself,
            ..Default::default()
        }],
    });
    data.add_asset(Object {
        name: obj_name,
        sprite: AssetRef::to(sprite),
        visible: true,
        parent: AssetRef::NONE,
        mask_sprite: AssetRef::NONE,
        events,
        ..Default::default()
    })
    .map_err(err)?;
    data.add_asset(Room {
        name: room_name,
        width: 320,
        height: 240,
        background_colour: 0x00_40_30_20,
        draw_background_colour: true,
        creation_code: AssetRef::NONE,
        meters_per_pixel: 0.1,
        layers: Some(Vec::new()),
        ..Default::default()
    })
    .map_err(err)?;
    Ok(data)
}

/// The sample as a [`Game`] (no audio group files).
pub fn sample() -> Result<Game, String> {
    Ok(Game {
        data: sample_data()?,
        audio_groups: Vec::new(),
    })
}
