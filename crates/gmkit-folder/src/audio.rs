//! Audio files of the folder: checked against their extension at pack, and the sound fields
//! that follow from the audio (its length) recomputed when the audio was replaced.
//!
//! Unpack names each audio entry by what its bytes are ([`crate::layout::audio_ext`]), so a
//! file whose bytes are not what its extension says was put there by hand: pack refuses it with
//! one line naming the file, what was expected and what was found, and writes nothing. A
//! `.bin` entry holds anything (unpack writes it for bytes of no known type); a `.null` entry (a
//! stripped slot) is empty.
//!
//! A sound of 2024.6 and later stores its length in seconds
//! ([`gmkit_data::chunks::sound::Sound::audio_length`]), in hundredths, measured by GameMaker on
//! the file it imported (it differs from the embedded audio's own length by up to 0.06 s in the
//! corpus, so it cannot be recomputed for audio left as it was). Unpack records a hash of every
//! audio entry in the manifest ([`RECORD`]); at pack, a sound whose audio entry no longer has its
//! hash gets the new audio's length ([`duration`]: WAV, frames of its `data` chunk over its
//! sample rate; Ogg, the last page's granule position over the Vorbis sample rate, or 48 kHz
//! less the pre-skip for Opus), rounded to hundredths. The sound's file type string (`".ogg"` ...) is left as it is:
//! GameMaker keeps the imported file's type there even when it stores the audio in another
//! (an `.mp3` compressed to Ogg), so it is not derived from the bytes.

use crate::Game;
use crate::error::{Error, Result};
use crate::folder::Folder;
use gmkit_data::DataFile;
use gmkit_media::audio::{SoundLocation, sound_location};

/// The file types unpack writes (extension → what the bytes must be).
const TYPES: &[(&str, &str)] = &[
    ("wav", "a WAV file (bytes starting with RIFF)"),
    ("ogg", "an Ogg file (bytes starting with OggS)"),
    (
        "mp3",
        "an MP3 file (bytes starting with ID3 or an MPEG frame)",
    ),
];

/// Checks that audio file `path` holds what its extension says.
pub(crate) fn check_file(path: &str, bytes: &[u8]) -> Result<()> {
    let ext = path.rsplit_once('.').map_or("", |s| s.1);
    if ext == "bin" {
        return Ok(());
    }
    if ext == "null" {
        if bytes.is_empty() {
            return Ok(());
        }
        return Err(Error::new(
            path,
            "",
            format!(
                "expected an empty file (a .null entry is a stripped slot), found {} bytes (name the file .wav, .ogg or .mp3 after its type)",
                bytes.len()
            ),
        ));
    }
    let Some((_, expected)) = TYPES.iter().find(|t| t.0 == ext) else {
        return Err(Error::new(
            path,
            "",
            "expected an audio file named .wav, .ogg, .mp3, .bin (any bytes) or .null (stripped)",
        ));
    };
    let got = crate::layout::audio_ext(bytes);
    if got == ext {
        return Ok(());
    }
    Err(Error::new(
        path,
        "",
        format!("expected {expected}, found {}", what(bytes)),
    ))
}

/// A few words on what `b` is.
fn what(b: &[u8]) -> String {
    use gmkit_media::audio::AudioKind;
    match AudioKind::detect(b) {
        _ if b.is_empty() => "an empty file".into(),
        AudioKind::Unknown => {
            let head = &b[..b.len().min(24)];
            match std::str::from_utf8(head) {
                Ok(t) if t.chars().all(|c| !c.is_control() || c.is_whitespace()) => {
                    format!("text ({})", crate::quote(t))
                }
                _ => format!(
                    "bytes {}",
                    head.iter()
                        .take(8)
                        .map(|x| format!("{x:02x}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            }
        }
        k => format!("{} audio", k.extension().to_uppercase()),
    }
}

/// The length in seconds of a WAV or Ogg (Vorbis, Opus) file, when its headers say.
pub fn duration(b: &[u8]) -> Option<f64> {
    if b.starts_with(b"RIFF") && b.get(8..12) == Some(b"WAVE") {
        wav_duration(b)
    } else if b.starts_with(b"OggS") {
        ogg_duration(b)
    } else {
        None
    }
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(*b.get(at..)?.first_chunk()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(*b.get(at..)?.first_chunk()?))
}

fn wav_duration(b: &[u8]) -> Option<f64> {
    let mut at = 12usize;
    let mut format: Option<(u32, u16)> = None;
    while at.checked_add(8)? <= b.len() {
        let id = &b[at..at + 4];
        let size = u32_at(b, at + 4)? as usize;
        let body = at + 8;
        match id {
            b"fmt " => format = Some((u32_at(b, body + 4)?, u16_at(b, body + 12)?)),
            b"data" => {
                let (rate, align) = format?;
                if rate == 0 || align == 0 {
                    return None;
                }
                // A data chunk cut short by the file's end counts what is there.
                let size = size.min(b.len() - body);
                return Some((size / align as usize) as f64 / f64::from(rate));
            }
            _ => {}
        }
        at = body.checked_add(size)?.checked_add(size & 1)?;
    }
    None
}

fn ogg_duration(b: &[u8]) -> Option<f64> {
    // The first page's first packet says the codec and rate.
    let segments = *b.get(26)? as usize;
    let packet = b.get(27 + segments..)?;
    let (rate, preskip) = if packet.get(1..7) == Some(b"vorbis") && packet.first() == Some(&1) {
        (u32_at(packet, 12)?, 0u64)
    } else if packet.starts_with(b"OpusHead") {
        (48_000, u64::from(u16_at(packet, 10)?))
    } else {
        return None;
    };
    if rate == 0 {
        return None;
    }
    // The last page's granule position: samples at the end of the stream.
    let last = b.windows(4).rposition(|w| w == b"OggS")?;
    let granule = u64::from_le_bytes(*b.get(last + 6..)?.first_chunk()?);
    if granule == u64::MAX {
        return None;
    }
    Some(granule.saturating_sub(preskip) as f64 / f64::from(rate))
}

/// Key, in the manifest's `"audio"` section, of the record of the audio entries as unpacked:
/// their FNV-1a 64-bit hashes in entry order, separated by spaces (`-` for a stripped entry).
pub const RECORD: &str = "fnv1a64";

/// The [`RECORD`] of a data file's audio entries.
pub fn record(entries: &[Option<bytes::Bytes>]) -> String {
    entries
        .iter()
        .map(|e| {
            e.as_ref()
                .map_or("-".to_owned(), |b| crate::gml::fnv1a64(b))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Which audio entries of `file` (packed from the folder under `prefix`) differ from the ones
/// unpacked, by the manifest's [`RECORD`] (none when the manifest has no record).
fn replaced(folder: &Folder, prefix: &str, file: &DataFile) -> Vec<bool> {
    let manifest = folder
        .get(&format!("{prefix}{}", crate::layout::MANIFEST))
        .and_then(|m| serde_json::from_slice::<serde_json::Value>(m).ok());
    let Some(rec) = manifest
        .as_ref()
        .and_then(|m| m.get("audio")?.get(RECORD)?.as_str())
    else {
        return Vec::new();
    };
    let rec: Vec<&str> = rec.split_ascii_whitespace().collect();
    let entries = file.audio.as_ref().map_or(&[][..], |a| &a.entries[..]);
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| match (e, rec.get(i)) {
            (Some(b), Some(h)) => crate::gml::fnv1a64(b) != *h,
            (Some(_), None) => true,
            (None, _) => false,
        })
        .collect()
}

/// Updates the stored length (2024.6+) of every sound whose audio (in the data file or an
/// audio group's file of `game`, packed from `folder`) was replaced: the new audio's
/// [`duration`], to hundredths of a second as GameMaker stores it.
pub(crate) fn update_sounds(folder: &Folder, game: &mut Game) {
    let Game { data, audio_groups } = game;
    if !data
        .sounds
        .as_ref()
        .is_some_and(|s| s.sounds.iter().flatten().any(|s| s.audio_length.is_some()))
    {
        return;
    }
    let own = replaced(folder, "", data);
    let groups: Vec<(u32, &DataFile, Vec<bool>)> = audio_groups
        .iter()
        .filter_map(|(name, f)| {
            let n = crate::audio_group_number(name)?;
            let prefix = format!("{}/{name}/", crate::layout::AUDIO_GROUPS);
            Some((n, f, replaced(folder, &prefix, f)))
        })
        .collect();
    let Some(sounds) = data.sounds.as_ref() else {
        return;
    };
    let mut updates: Vec<(usize, f32)> = Vec::new();
    for (k, s) in sounds.sounds.iter().enumerate() {
        let Some(s) = s else { continue };
        let (file, flags, index) = match sound_location(data, s) {
            SoundLocation::Builtin { index } => (&*data, &own, index),
            SoundLocation::Group { group, index } => match groups.iter().find(|g| g.0 == group) {
                Some(g) => (g.1, &g.2, index),
                None => continue,
            },
            SoundLocation::NotEmbedded => continue,
        };
        if s.audio_length.is_none() || flags.get(index) != Some(&true) {
            continue;
        }
        let bytes = file.audio.as_ref().and_then(|a| a.entries.get(index));
        if let Some(Some(b)) = bytes
            && let Some(d) = duration(b)
        {
            updates.push((k, ((d * 100.0).round() / 100.0) as f32));
        }
    }
    for (k, length) in updates {
        if let Some(Some(s)) = data.sounds.as_mut().and_then(|x| x.sounds.get_mut(k)) {
            s.audio_length = Some(length);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wav(rate: u32, channels: u16, frames: u32) -> Vec<u8> {
        let align = channels * 2;
        let data = frames * u32::from(align);
        let mut b = Vec::new();
        b.extend_from_slice(b"RIFF");
        b.extend_from_slice(&(36 + data).to_le_bytes());
        b.extend_from_slice(b"WAVEfmt ");
        b.extend_from_slice(&16u32.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&channels.to_le_bytes());
        b.extend_from_slice(&rate.to_le_bytes());
        b.extend_from_slice(&(rate * u32::from(align)).to_le_bytes());
        b.extend_from_slice(&align.to_le_bytes());
        b.extend_from_slice(&16u16.to_le_bytes());
        b.extend_from_slice(b"data");
        b.extend_from_slice(&data.to_le_bytes());
        b.resize(b.len() + data as usize, 0);
        b
    }

    #[test]
    fn wav_length_is_frames_over_rate() {
        assert_eq!(duration(&wav(22_050, 2, 44_100)), Some(2.0));
        assert_eq!(duration(&wav(44_100, 1, 11_025)), Some(0.25));
        assert_eq!(duration(b"RIFF\0\0\0\0WAVE"), None);
    }

    #[test]
    fn ogg_length_is_the_last_granule_over_rate() {
        let page = |granule: u64, packet: &[u8]| {
            let mut p = b"OggS\0\0".to_vec();
            p.extend_from_slice(&granule.to_le_bytes());
            p.extend_from_slice(&[0; 12]);
            p.push(1);
            p.push(packet.len() as u8);
            p.extend_from_slice(packet);
            p
        };
        let mut id = b"\x01vorbis".to_vec();
        id.extend_from_slice(&0u32.to_le_bytes());
        id.push(2);
        id.extend_from_slice(&44_100u32.to_le_bytes());
        let mut b = page(0, &id);
        b.extend(page(88_200, b"audio"));
        assert_eq!(duration(&b), Some(2.0));
        let mut opus = b"OpusHead\x01\x02".to_vec();
        opus.extend_from_slice(&312u16.to_le_bytes());
        let mut b = page(0, &opus);
        b.extend(page(48_312, b"audio"));
        assert_eq!(duration(&b), Some(1.0));
    }

    #[test]
    fn a_file_not_of_its_type_is_one_line() {
        let e = check_file("audio/0003.wav", b"hello, I am text\n").unwrap_err();
        let s = e.to_string();
        assert!(
            s.starts_with("audio/0003.wav")
                && s.contains("expected a WAV file")
                && s.contains("found text"),
            "{s}"
        );
        let e = check_file("audio/0001.ogg", &wav(8000, 1, 8)).unwrap_err();
        assert!(e.to_string().contains("found WAV audio"), "{e}");
        assert!(check_file("audio/0001.ogg", b"OggS\0\x02").is_ok());
        assert!(check_file("audio/0001.wav", &wav(8000, 1, 8)).is_ok());
        assert!(check_file("audio/0001.bin", b"anything").is_ok());
        assert!(check_file("audio/0001.null", b"").is_ok());
        assert!(check_file("audio/0001.null", b"x").is_err());
        assert!(check_file("audio/0001.txt", b"x").is_err());
    }
}
