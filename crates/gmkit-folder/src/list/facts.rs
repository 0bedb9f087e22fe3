//! The extra columns of `gmkit ls`, read from the model: names for references, sizes and
//! counts, a sound's type and length (from its audio when the file does not store it).

use super::Item;
use gmkit_data::DataFile;
use gmkit_data::chunks::code::CodeBody;
use gmkit_data::chunks::font::EmSize;
use gmkit_data::chunks::object::Object;
use gmkit_data::chunks::sound::{FLAG_COMPRESSED, FLAG_EMBEDDED};
use gmkit_data::chunks::sprite::Sprite;
use gmkit_media::audio::{AudioGroupFiles, AudioKind};
use serde_json::{Value, json};

/// Fills the columns of `kind` ([`super::columns`]) of `items` (one per slot of the kind's table,
/// as `list_names` made them).
pub(super) fn add(file: &DataFile, groups: &AudioGroupFiles, kind: &str, items: &mut [Item]) {
    let keys = super::columns(kind);
    for item in items.iter_mut() {
        let values = row(file, groups, kind, item.index);
        if let Some(values) = values {
            item.columns = keys.iter().copied().zip(values).collect();
        }
    }
}

/// The column values of entry `i` of `kind`, in [`super::columns`] order (`None` for a null
/// slot or a kind without columns).
fn row(file: &DataFile, groups: &AudioGroupFiles, kind: &str, i: usize) -> Option<Vec<Value>> {
    match kind {
        "sprites" => {
            let s = file.sprites.as_ref()?.sprites.get(i)?.as_ref()?;
            Some(vec![json!(s.width), json!(s.height), json!(s.frames.len())])
        }
        "objects" => {
            let o = file.objects.as_ref()?.objects.get(i)?.as_ref()?;
            let sprite = ref_index(&o.sprite).map(|k| name::<Sprite>(file, k));
            let parent = o.parent_id().map(|k| name::<Object>(file, k as usize));
            let events: usize = o.events.iter().map(Vec::len).sum();
            Some(vec![
                sprite.unwrap_or(Value::Null),
                parent.unwrap_or(Value::Null),
                json!(events),
            ])
        }
        "rooms" => {
            let r = file.rooms.as_ref()?.rooms.get(i)?.as_ref()?;
            Some(vec![
                json!(r.width),
                json!(r.height),
                json!(r.instances.len()),
            ])
        }
        "sounds" => {
            let s = file.sounds.as_ref()?.sounds.get(i)?.as_ref()?;
            // Neither embedded nor compressed: played from a file beside the game (whatever
            // its audio id says).
            let streamed = s.flags & (FLAG_EMBEDDED | FLAG_COMPRESSED) == 0;
            let bytes = (!streamed)
                .then(|| {
                    gmkit_media::audio::sound_bytes(file, groups, i)
                        .ok()
                        .flatten()
                })
                .flatten()
                .filter(|b| !b.is_empty());
            let detected = bytes.as_deref().map(AudioKind::detect);
            let ext = |r: Option<gmkit_data::StringRef>| {
                let t = file.string(r?)?.to_string_lossy().into_owned();
                let e = t.rsplit_once('.')?.1.to_lowercase();
                (!e.is_empty() && e.len() <= 8).then_some(e)
            };
            let kind = match detected {
                Some(AudioKind::Unknown) | None => ext(s.file).or_else(|| ext(s.kind)),
                Some(AudioKind::Blank) => Some("blank".to_owned()),
                Some(k) => Some(k.extension().to_owned()),
            };
            let length = s
                .audio_length
                .map(f64::from)
                .filter(|l| l.is_finite() && *l >= 0.0)
                .or_else(|| bytes.as_deref().and_then(seconds));
            let file_name = s
                .file
                .and_then(|f| file.string(f))
                .map(|f| f.to_string_lossy().into_owned());
            Some(vec![
                kind.map_or(Value::Null, Value::String),
                length.map_or(Value::Null, |l| json!((l * 1000.0).round() / 1000.0)),
                file_name.map_or(Value::Null, Value::String),
            ])
        }
        "code" => {
            let e = file.code.as_ref()?.entries.get(i)?;
            Some(vec![match e.body {
                CodeBody::Shared { parent } => {
                    let root = file.code.as_ref()?.entries.get(parent as usize);
                    match root.and_then(|r| file.string(r.name)) {
                        Some(n) => Value::String(n.to_string_lossy().into_owned()),
                        None => json!(parent),
                    }
                }
                _ => Value::Null,
            }])
        }
        "backgrounds" => {
            let b = file.backgrounds.as_ref()?.backgrounds.get(i)?.as_ref()?;
            let item = b.texture.and_then(|t| {
                file.texture_page_items
                    .as_ref()?
                    .items
                    .get(t.0 as usize)?
                    .as_ref()
            });
            Some(match item {
                Some(it) => vec![json!(it.bounding[0]), json!(it.bounding[1])],
                None => vec![Value::Null, Value::Null],
            })
        }
        "fonts" => {
            let f = file.fonts.as_ref()?.fonts.get(i)?.as_ref()?;
            let font = file
                .string(f.display_name)
                .map(|n| Value::String(n.to_string_lossy().into_owned()));
            let size = match f.em_size {
                EmSize::Int(n) => json!(n),
                EmSize::Float(x) => json!(x),
            };
            Some(vec![font.unwrap_or(Value::Null), size])
        }
        _ => None,
    }
}

/// The name of asset `k` of kind `T` (its index as a number when it has none).
fn name<T: gmkit_data::Asset>(file: &DataFile, k: usize) -> Value {
    match u32::try_from(k)
        .ok()
        .and_then(|k| file.asset_name(gmkit_data::Id::<T>::new(k)))
    {
        Some(n) => Value::String(n),
        None => json!(k),
    }
}

/// The index a reference field holds, whatever its model type (a stored `i32` with negative
/// values for "none", an `Option` of an id, or a typed reference that serializes as its index
/// or `{"index": N}`): read through its serde form.
fn ref_index(field: &impl serde::Serialize) -> Option<usize> {
    match serde_json::to_value(field).ok()? {
        Value::Number(n) => usize::try_from(n.as_u64()?).ok(),
        Value::Object(o) => usize::try_from(o.get("index")?.as_u64()?).ok(),
        _ => None,
    }
}

/// The playing time of an audio file, in seconds: WAV from its format and data chunks, Ogg
/// (Vorbis or Opus) from its last page's granule position; `None` for other types or a file
/// whose headers do not say.
pub(super) fn seconds(b: &[u8]) -> Option<f64> {
    match AudioKind::detect(b) {
        AudioKind::Wav => wav_seconds(b),
        AudioKind::Ogg => ogg_seconds(b),
        _ => None,
    }
}

fn le_u32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

/// RIFF chunks after the `WAVE` tag: `fmt ` gives the bytes per second, `data` the length.
fn wav_seconds(b: &[u8]) -> Option<f64> {
    let (mut at, mut rate, mut data) = (12usize, None, None);
    while let (Some(id), Some(len)) = (b.get(at..at + 4), le_u32(b, at + 4)) {
        let body = at + 8;
        match id {
            b"fmt " => rate = le_u32(b, body + 8),
            b"data" => data = Some(len.min(b.len().saturating_sub(body) as u32)),
            _ => {}
        }
        if rate.is_some() && data.is_some() {
            break;
        }
        at = body
            .checked_add(len as usize)?
            .checked_add(len as usize & 1)?;
    }
    let rate = rate.filter(|r| *r > 0)?;
    Some(f64::from(data?) / f64::from(rate))
}

/// An Ogg stream's length: the granule position of its last page over the sample rate of its
/// identification header (Vorbis: its own rate; Opus: 48 kHz less the pre-skip).
fn ogg_seconds(b: &[u8]) -> Option<f64> {
    let segments = *b.get(26)? as usize;
    let packet = b.get(27 + segments..)?;
    let (rate, skip) = if packet.starts_with(b"\x01vorbis") {
        (le_u32(packet, 12)?, 0)
    } else if packet.starts_with(b"OpusHead") {
        let skip = u16::from_le_bytes(packet.get(10..12)?.try_into().ok()?);
        (48_000, u64::from(skip))
    } else {
        return None;
    };
    if rate == 0 {
        return None;
    }
    let last = b.windows(4).rposition(|w| w == b"OggS")?;
    let granule = u64::from_le_bytes(b.get(last + 6..last + 14)?.try_into().ok()?);
    if granule == u64::MAX {
        return None;
    }
    Some(granule.saturating_sub(skip) as f64 / f64::from(rate))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wav(rate: u32, channels: u16, bits: u16, samples: u32) -> Vec<u8> {
        let block = u32::from(channels) * u32::from(bits / 8);
        let data = samples * block;
        let mut v = b"RIFF".to_vec();
        v.extend((36 + data).to_le_bytes());
        v.extend(b"WAVEfmt ");
        v.extend(16u32.to_le_bytes());
        v.extend(1u16.to_le_bytes());
        v.extend(channels.to_le_bytes());
        v.extend(rate.to_le_bytes());
        v.extend((rate * block).to_le_bytes());
        v.extend((block as u16).to_le_bytes());
        v.extend(bits.to_le_bytes());
        v.extend(b"data");
        v.extend(data.to_le_bytes());
        v.resize(v.len() + data as usize, 0);
        v
    }

    #[test]
    fn wav_length_is_data_over_byte_rate() {
        assert_eq!(seconds(&wav(22050, 1, 16, 11025)), Some(0.5));
        assert_eq!(seconds(&wav(44100, 2, 16, 44100)), Some(1.0));
        // A truncated data chunk counts only the bytes present.
        let mut w = wav(8000, 1, 8, 8000);
        w.truncate(w.len() - 4000);
        assert_eq!(seconds(&w), Some(0.5));
        // No fmt chunk, no rate: no length.
        assert_eq!(seconds(b"RIFF\x04\0\0\0WAVE"), None);
        // A chunk length past the end stops the walk without a panic.
        assert_eq!(seconds(b"RIFF\x04\0\0\0WAVEjunk\xff\xff\xff\xff"), None);
    }

    #[test]
    fn ogg_length_is_last_granule_over_rate() {
        let page = |granule: u64, packet: &[u8]| {
            let mut p = b"OggS\0\0".to_vec();
            p.extend(granule.to_le_bytes());
            p.extend([0u8; 12]);
            p.push(1);
            p.push(packet.len() as u8);
            p.extend(packet);
            p
        };
        let mut ident = b"\x01vorbis".to_vec();
        ident.extend(0u32.to_le_bytes());
        ident.push(2);
        ident.extend(44100u32.to_le_bytes());
        let mut f = page(0, &ident);
        f.extend(page(88200, b"audio"));
        assert_eq!(seconds(&f), Some(2.0));
        let mut opus = b"OpusHead\x01\x02".to_vec();
        opus.extend(312u16.to_le_bytes());
        let mut f = page(0, &opus);
        f.extend(page(48_312, b"audio"));
        assert_eq!(seconds(&f), Some(1.0));
        assert_eq!(seconds(b"OggS"), None);
    }
}
