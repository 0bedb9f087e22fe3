//! `diff` of two games that decodes only what differs ([`diff_games`]).
//!
//! Both games are unpacked for a comparison ([`Folder::for_diff`]): every JSON, string table and
//! code file as [`crate::unpack`] writes it, but texture pages' PNGs, the images cut from pages
//! (sprite frames, background and font images) and audio files stay deferred: a page's bytes, an
//! image's page bytes with its item and canvas, an audio file's bytes. Each deferred file is then
//! paired with the other game's file at the same path (after the renames [`diff`] finds, which
//! it finds from JSON alone): a pair that must give the same bytes is written as the same empty
//! placeholder on both sides (`diff` skips equal files), any other file is produced as unpack
//! produces it (an asset's images all together, as unpack cuts them, so a frame that cannot be
//! cut leaves none). [`diff`] then gives exactly what it gives for the two whole unpacked games.
//! An unchanged game decodes nothing; an edited string decodes no page; an edited frame decodes
//! the pages of the frames and pages that changed.

use crate::Game;
use crate::diff::{Change, diff, renamed_assets, renamed_path};
use crate::error::{Error, Result};
use crate::folder::{Deferred, Folder};
use crate::frames::{Dirs, same_bytes};
use gmkit_data::DataFile;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// What [`diff_games_counted`] produced to compare the games (the work the shared parts saved).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Texture pages decoded (for a page's PNG or to cut images from it).
    pub pages_decoded: usize,
    /// Assets whose images were cut (both games counted).
    pub assets_cut: usize,
    /// Deferred files compared, both games counted (pages, images, audio).
    pub compared: usize,
    /// Of those, files produced because the other game's differs.
    pub produced: usize,
}

/// [`diff`] of the unpacked games, unpacking only what differs (see the module's notes): the
/// same changes, in the same order, as `diff(&unpack(a)?, &unpack(b)?)`.
pub fn diff_games(a: &Game, b: &Game) -> Result<Vec<Change>> {
    diff_games_counted(a, b).map(|(c, _)| c)
}

/// [`diff_games`] of two data files without audio groups.
pub fn diff_files(a: &DataFile, b: &DataFile) -> Result<Vec<Change>> {
    let game = |d: &DataFile| Game {
        data: d.clone(),
        audio_groups: Vec::new(),
    };
    diff_games(&game(a), &game(b))
}

/// [`diff_games`], and the work it did.
pub fn diff_games_counted(a: &Game, b: &Game) -> Result<(Vec<Change>, Work)> {
    let mut work = Work::default();
    if a == b {
        return Ok((Vec::new(), work));
    }
    let unpack = |g: &Game| -> Result<Folder> {
        let mut f = Folder::for_diff();
        crate::unpack::unpack_game_into(g, &Default::default(), &mut f)?;
        Ok(f)
    };
    let (fa, fb) = rayon::join(|| unpack(a), || unpack(b));
    let (mut fa, mut fb) = (fa?, fb?);
    let renames = renamed_assets(&fa, &fb);
    let (da, db) = (fa.take_deferred(), fb.take_deferred());
    let mut pages_same: HashMap<(usize, usize, usize), bool> = HashMap::new();
    let mut same_page = |x: &[u8], y: &[u8]| {
        *pages_same
            .entry((x.as_ptr() as usize, y.as_ptr() as usize, x.len()))
            .or_insert_with(|| same_bytes(x, y))
    };
    let mut real = [Marks::default(), Marks::default()];
    let mut paired = HashSet::new();
    for (pa, x) in &da {
        let pb = renamed_path(pa, &renames);
        let y = db.get(&pb);
        let same = match (x, y) {
            (Deferred::Shared(u), Some(Deferred::Shared(v))) => same_bytes(u, v),
            (
                Deferred::PagePng {
                    blob: u,
                    record: r,
                    record_path: rp,
                },
                Some(Deferred::PagePng {
                    blob: v,
                    record: s,
                    record_path: sp,
                }),
            ) => r == s && rp == sp && same_page(u, v),
            (Deferred::Frame(u), Some(Deferred::Frame(v))) => {
                u.item == v.item && u.canvas == v.canvas && same_page(&u.blob, &v.blob)
            }
            _ => false,
        };
        if let Some(y) = y {
            paired.insert(pb.clone());
            if !same {
                real[1].mark(&pb, y);
            }
        }
        if !same {
            real[0].mark(pa, x);
        }
    }
    for (pb, y) in &db {
        if !paired.contains(pb) {
            real[1].mark(pb, y);
        }
    }
    // An asset's images are cut together on both sides: its folder in one game and the folder
    // it is paired with in the other.
    let dirs_a: Vec<String> = real[0].assets.iter().cloned().collect();
    let dirs_b: Vec<String> = real[1].assets.iter().cloned().collect();
    for d in dirs_a {
        real[1].assets.insert(renamed_dir(&d, &renames, false));
    }
    for d in dirs_b {
        real[0].assets.insert(renamed_dir(&d, &renames, true));
    }
    let [ma, mb] = real;
    work.compared = da.len() + db.len();
    let (wa, wb) = rayon::join(
        || settle(a, &mut fa, da, &ma),
        || settle(b, &mut fb, db, &mb),
    );
    for w in [wa?, wb?] {
        work.pages_decoded += w.pages_decoded;
        work.assets_cut += w.assets_cut;
        work.produced += w.produced;
    }
    Ok((diff(&fa, &fb), work))
}

/// The deferred files of one side to produce for real: files by path, assets (whose images are
/// cut together) by folder.
#[derive(Default)]
struct Marks {
    files: HashSet<String>,
    assets: BTreeSet<String>,
}

impl Marks {
    fn mark(&mut self, path: &str, d: &Deferred) {
        match d {
            Deferred::Frame(_) => {
                self.assets
                    .insert(path.rsplit_once('/').map_or("", |s| s.0).to_owned());
            }
            _ => {
                self.files.insert(path.to_owned());
            }
        }
    }
}

/// The folder paired with asset folder `dir` in the other game (`back`: from `b`'s to `a`'s).
fn renamed_dir(dir: &str, renames: &[(String, String)], back: bool) -> String {
    let probe = format!("{dir}/");
    let mapped = if back {
        renames.iter().find_map(|(old, new)| {
            probe
                .strip_prefix(&format!("{new}/"))
                .map(|rest| format!("{old}/{rest}"))
        })
    } else {
        Some(renamed_path(&probe, renames))
    };
    mapped
        .as_deref()
        .and_then(|m| m.strip_suffix('/'))
        .unwrap_or(dir)
        .to_owned()
}

/// Puts one side's deferred files into `folder`: those marked produced as unpack produces them,
/// the others as empty placeholders (equal to the other side's).
fn settle(
    game: &Game,
    folder: &mut Folder,
    deferred: BTreeMap<String, Deferred>,
    marks: &Marks,
) -> Result<Work> {
    use rayon::prelude::*;
    let mut work = Work::default();
    // Images: by data file (prefix) and kind, the assets to cut.
    let mut cut: BTreeMap<String, HashMap<crate::frames::Kind, Vec<(usize, String)>>> =
        BTreeMap::new();
    let mut pages = Vec::new();
    let mut files = Vec::new();
    for (p, d) in deferred {
        match d {
            Deferred::Frame(f) => {
                let dir = p.rsplit_once('/').map_or("", |s| s.0);
                if marks.assets.contains(dir) {
                    let prefix = prefix_of(&p);
                    let list = cut
                        .entry(prefix.to_owned())
                        .or_default()
                        .entry(f.kind)
                        .or_default();
                    if !list.iter().any(|(i, _)| *i == f.asset) {
                        list.push((f.asset, dir.to_owned()));
                    }
                    work.produced += 1;
                } else {
                    files.push((p, Vec::new()));
                }
            }
            Deferred::Shared(b) if marks.files.contains(&p) => {
                work.produced += 1;
                files.push((p, b.to_vec()));
            }
            Deferred::PagePng {
                blob,
                record,
                record_path,
            } => {
                if marks.files.contains(&p) {
                    work.produced += 1;
                    pages.push((p, blob, record, record_path));
                } else {
                    files.push((record_path, crate::unpack::pretty(&record)));
                    files.push((p, Vec::new()));
                }
            }
            Deferred::Shared(_) => files.push((p, Vec::new())),
            other @ (Deferred::Disk(_) | Deferred::Text(..)) => {
                work.produced += 1;
                files.extend(other.produce(&p)?);
            }
        }
    }
    work.pages_decoded += pages.len();
    let produced: Vec<Vec<(String, Vec<u8>)>> = pages
        .par_iter()
        .map(|(p, blob, record, record_path)| crate::pages::produce(blob, record, record_path, p))
        .collect();
    files.extend(produced.into_iter().flatten());
    for (prefix, kinds) in cut {
        let file = data_of(game, &prefix)?;
        let dirs: Dirs = kinds
            .into_iter()
            .map(|(kind, assets)| {
                let n = assets.iter().map(|(i, _)| i + 1).max().unwrap_or(0);
                let mut list = vec![None; n];
                for (i, dir) in assets {
                    list[i] = Some(dir);
                }
                work.assets_cut += list.iter().flatten().count();
                (kind, list)
            })
            .collect();
        let mut scratch = Folder::default();
        work.pages_decoded += crate::frames::unpack(file, &dirs, &mut scratch)?;
        // The images cut (an asset that could not be cut has none); its record stays the
        // deferred one (diff reads only its items, the same).
        files.extend(
            std::mem::take(&mut scratch.files)
                .into_iter()
                .filter(|(p, _)| !p.ends_with(crate::frames::FRAMES_RECORD)),
        );
    }
    folder.files.extend(files);
    Ok(work)
}

/// The data file prefix of a path: `audio_groups/NAME/` for an audio group's file, else empty.
fn prefix_of(path: &str) -> &str {
    let group = format!("{}/", crate::layout::AUDIO_GROUPS);
    match path.strip_prefix(&group).and_then(|r| r.split_once('/')) {
        Some((name, _)) => &path[..group.len() + name.len() + 1],
        None => "",
    }
}

/// The data file of `game` unpacked under `prefix`.
fn data_of<'g>(game: &'g Game, prefix: &str) -> Result<&'g DataFile> {
    if prefix.is_empty() {
        return Ok(&game.data);
    }
    let group = format!("{}/", crate::layout::AUDIO_GROUPS);
    let name = prefix
        .strip_prefix(&group)
        .and_then(|r| r.strip_suffix('/'))
        .unwrap_or(prefix);
    game.audio_groups
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, d)| d)
        .ok_or_else(|| Error::new(prefix, "", "expected an audio group of the game"))
}
