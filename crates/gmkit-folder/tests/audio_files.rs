//! Audio files of the folder (issue 18, "nothing silently ignored"): a file whose bytes are not
//! what its extension says is refused with one line, and a replaced sound's stored length
//! follows the new audio, on the corpus games that have embedded audio.

use gmkit_folder::{Folder, Game, pack, unpack};
use gmkit_media::audio::{SoundLocation, sound_location};
use gmkit_testdata::{corpus_all, need};

/// A 16-bit PCM WAV of `frames` frames at 22 050 Hz, mono.
fn wav(frames: u32) -> Vec<u8> {
    let data = frames * 2;
    let mut b = Vec::new();
    b.extend_from_slice(b"RIFF");
    b.extend_from_slice(&(36 + data).to_le_bytes());
    b.extend_from_slice(b"WAVEfmt ");
    b.extend_from_slice(&16u32.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&22_050u32.to_le_bytes());
    b.extend_from_slice(&44_100u32.to_le_bytes());
    b.extend_from_slice(&2u16.to_le_bytes());
    b.extend_from_slice(&16u16.to_le_bytes());
    b.extend_from_slice(b"data");
    b.extend_from_slice(&data.to_le_bytes());
    b.resize(b.len() + data as usize, 0);
    b
}

fn audio_files<'a>(f: &'a Folder, ext: &str) -> Vec<&'a String> {
    f.files
        .iter()
        .filter(|(p, b)| p.ends_with(ext) && !b.is_empty())
        .map(|(p, _)| p)
        .collect()
}

#[test]
fn audio_files_are_checked_and_replaced_sounds_get_their_length() {
    let files = need!(corpus_all());
    let (mut refused, mut lengths) = (0, 0);
    for (name, bytes) in files {
        let Ok(data) = gmkit_data::parse_bytes(bytes) else {
            continue;
        };
        if data.audio.as_ref().is_none_or(|a| a.entries.is_empty()) {
            continue;
        }
        let folder = unpack(&Game {
            data: data.clone(),
            audio_groups: Vec::new(),
        })
        .unwrap();
        // Text given as a .wav, a WAV given as an .ogg: one line naming the file.
        for (ext, bad, expected) in [
            (".wav", b"just some text\n".to_vec(), "expected a WAV file"),
            (".ogg", wav(10), "expected an Ogg file"),
        ] {
            if let Some(p) = audio_files(&folder, ext).first() {
                let mut f = folder.clone();
                f.insert(p.as_str(), bad);
                let e = pack(&f).expect_err("refused").to_string();
                assert!(
                    e.starts_with(p.as_str()) && e.contains(expected) && !e.contains('\n'),
                    "{name}: {e}"
                );
                refused += 1;
            }
        }
        // Every .wav replaced by 2 s of silence: sounds that store a length now say 2 s.
        let wavs = audio_files(&folder, ".wav");
        let timed = data
            .sounds
            .as_ref()
            .is_some_and(|s| s.sounds.iter().flatten().any(|s| s.audio_length.is_some()));
        if wavs.is_empty() || !timed {
            continue;
        }
        let mut f = folder.clone();
        for p in &wavs {
            f.insert(p.as_str(), wav(44_100));
        }
        let packed = pack(&f).unwrap_or_else(|e| panic!("{name}: {e}")).data;
        let mut n = 0;
        for (old, new) in data
            .sounds
            .as_ref()
            .unwrap()
            .sounds
            .iter()
            .zip(&packed.sounds.as_ref().unwrap().sounds)
        {
            let (Some(old), Some(new)) = (old, new) else {
                continue;
            };
            let SoundLocation::Builtin { index } = sound_location(&data, old) else {
                assert_eq!(old.audio_length, new.audio_length, "{name}");
                continue;
            };
            let was_wav = data.audio.as_ref().unwrap().entries[index]
                .as_ref()
                .is_some_and(|b| b.starts_with(b"RIFF"));
            if was_wav && old.audio_length.is_some() {
                assert_eq!(new.audio_length, Some(2.0), "{name}");
                n += 1;
            } else {
                assert_eq!(old.audio_length, new.audio_length, "{name}");
            }
        }
        lengths += n;
        eprintln!("{name}: {n} replaced sounds got their new length");
    }
    eprintln!("{refused} audio files refused, {lengths} sound lengths updated");
    assert!(refused > 0 && lengths > 0);
}
