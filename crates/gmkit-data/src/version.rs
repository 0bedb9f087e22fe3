//! Versions: the bytecode version, the IDE version GEN8 states, and the layout ("format")
//! version inferred from the file itself.
//!
//! Modern files all say IDE `2.0.0.0`, so the layout version is detected: first a floor from the
//! chunks present, then layout checks (one per chunk module, each next to the layout it tests)
//! run until nothing changes.
//!
//! ```
//! use gmkit_data::{FormatVersion, Version};
//! let v = Version::gms2(FormatVersion::new(2023, 4, 0, 0));
//! assert!(v.at_least(2023, 2));
//! assert!(v.non_lts_at_least(2023, 2));
//! assert!(!v.at_least(2024, 6));
//! ```

use crate::chunk::ChunkName;
use crate::chunks::Kind;
use std::fmt;

/// A layout version, named after the first IDE release that used that layout.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FormatVersion {
    /// Major (1, 2, 2022, 2023, 2024, ...).
    pub major: u16,
    /// Minor.
    pub minor: u16,
    /// Release.
    pub release: u16,
    /// Build.
    pub build: u16,
}

impl FormatVersion {
    /// A version from its four parts.
    pub const fn new(major: u16, minor: u16, release: u16, build: u16) -> Self {
        FormatVersion {
            major,
            minor,
            release,
            build,
        }
    }
}

impl fmt::Display for FormatVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let FormatVersion {
            major,
            minor,
            release,
            build,
        } = *self;
        match (release, build) {
            (0, 0) => write!(f, "{major}.{minor}"),
            (r, 0) => write!(f, "{major}.{minor}.{r}"),
            (r, b) => write!(f, "{major}.{minor}.{r}.{b}"),
        }
    }
}

/// Everything known about a file's version.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Version {
    /// Bytecode (WAD) version from GEN8 (13–17).
    pub bytecode: u8,
    /// IDE version as stated in GEN8 (major, minor, release, build).
    pub ide: [u32; 4],
    /// The layout version, detected from the file.
    pub format: FormatVersion,
    /// Whether the file belongs to the 2022 LTS branch (no 2023.x non-LTS features).
    pub lts: bool,
}

impl Version {
    /// A GMS2-era version with the given layout (bytecode 17, IDE 2.0.0.0).
    pub fn gms2(format: FormatVersion) -> Self {
        Version {
            bytecode: 17,
            ide: [2, 0, 0, 0],
            format,
            lts: false,
        }
    }
    /// Layout at least `major.minor`.
    #[inline]
    pub fn at_least(&self, major: u16, minor: u16) -> bool {
        self.format >= FormatVersion::new(major, minor, 0, 0)
    }
    /// Layout at least `major.minor.release.build`.
    #[inline]
    pub fn at_least_full(&self, major: u16, minor: u16, release: u16, build: u16) -> bool {
        self.format >= FormatVersion::new(major, minor, release, build)
    }
    /// Layout at least `major.minor` on the main (non-LTS) branch.
    #[inline]
    pub fn non_lts_at_least(&self, major: u16, minor: u16) -> bool {
        !self.lts && self.at_least(major, minor)
    }
    /// Whether asset pointer lists may hold null slots (assets stripped by the build; 2024.11+,
    /// notes §2.5), and ID references may point at them. Before, a null slot is corruption.
    #[inline]
    pub fn allows_null_slots(&self) -> bool {
        self.at_least(2024, 11)
    }
    /// A GameMaker Studio 2 (or later) file.
    #[inline]
    pub fn is_gms2(&self) -> bool {
        self.format.major >= 2
    }
    /// The GMS1 build number (`1.0.0.N`), if this is a GMS1 file.
    pub fn gms1_build(&self) -> Option<u32> {
        (self.ide[0] == 1).then_some(self.ide[3])
    }
    /// Raises the layout version to at least `v` (never lowers it).
    pub fn raise(&mut self, v: FormatVersion) {
        if v > self.format {
            self.format = v;
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.lts {
            // The LTS branch is ordered by the main-branch layout it matches (2022.9), with the
            // LTS revision in the build field.
            write!(f, "2022.0.{} LTS", self.format.build)?;
        } else {
            write!(f, "{}", self.format)?;
        }
        write!(
            f,
            " (bytecode {}, IDE {}.{}.{}.{})",
            self.bytecode, self.ide[0], self.ide[1], self.ide[2], self.ide[3]
        )
    }
}

/// What raised the detected layout version at one step of the detection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EvidenceSource {
    /// The IDE version GEN8 states (the starting point).
    Gen8,
    /// The presence of a chunk that only exists from some version on.
    ChunkPresent(ChunkName),
    /// A layout check of a chunk: its fields only fit the later layout.
    Layout(ChunkName),
}

/// One step of the version detection: what the version became, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VersionEvidence {
    /// The layout version after this step.
    pub format: FormatVersion,
    /// Whether this step put the file on the 2022 LTS branch.
    pub lts: bool,
    /// What decided it.
    pub source: EvidenceSource,
}

impl fmt::Display for VersionEvidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.source {
            EvidenceSource::Gen8 => write!(f, "GEN8's IDE version")?,
            EvidenceSource::ChunkPresent(c) => write!(f, "{c} present")?,
            EvidenceSource::Layout(c) => write!(f, "{c} layout")?,
        }
        if self.lts {
            // Named as in `Version`'s display.
            write!(f, " → 2022.0.{} LTS", self.format.build)
        } else {
            write!(f, " → {}", self.format)
        }
    }
}

/// The detected version of a file and the evidence for it, in the order it was found (also
/// attached to parse errors, so a file that fails still says what it looks like).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct VersionReport {
    /// The detected version.
    pub version: Version,
    /// Each step that set or raised it.
    pub evidence: Vec<VersionEvidence>,
}

impl fmt::Display for VersionReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} from ", self.version)?;
        for (i, e) in self.evidence.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

/// Raw access to the file for version checks that run before any chunk is parsed.
pub(crate) struct Detect<'a> {
    pub data: &'a [u8],
    pub chunks: &'a crate::container::ChunkTable,
    /// What the bytecode scan found (it does not depend on the version, so it runs once).
    pub code_flags: std::cell::OnceCell<crate::chunks::code::CodeFlags>,
    /// Whether that scan reads the bytecode. Parsing does not: the CODE reader, which reads
    /// every instruction anyway, reports the features (see `container::parse_from`).
    pub scan_code: bool,
}

impl<'a> Detect<'a> {
    /// Checks of `data`, whose chunk table is `chunks`, reading the bytecode for features when
    /// `scan_code` says so.
    pub fn new(data: &'a [u8], chunks: &'a crate::container::ChunkTable, scan_code: bool) -> Self {
        Detect {
            data,
            chunks,
            code_flags: Default::default(),
            scan_code,
        }
    }
    /// The body range of a chunk.
    #[inline]
    pub fn chunk(&self, name: &[u8; 4]) -> Option<(usize, usize)> {
        self.chunks.range(name)
    }
    /// Whether a chunk is present.
    #[inline]
    pub fn has(&self, name: &[u8; 4]) -> bool {
        self.chunk(name).is_some()
    }
    /// A little-endian u32 at an absolute offset.
    pub fn u32(&self, at: usize) -> Option<u32> {
        let b = self.data.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes(b.try_into().ok()?))
    }
    /// The bytecode version byte of GEN8 (0 when GEN8 is missing).
    pub fn bytecode(&self) -> u8 {
        self.chunk(b"GEN8")
            .and_then(|(s, _)| self.data.get(s + 1).copied())
            .unwrap_or(0)
    }
    /// A little-endian i32 at an absolute offset.
    pub fn i32(&self, at: usize) -> Option<i32> {
        self.u32(at).map(|v| v as i32)
    }
    /// A count at `at` of elements of at least `size` bytes that follow it, bounded by what
    /// fits before `end`: `None` when the count is unreadable or larger than the bytes can hold
    /// (a damaged count must never make a check scan billions of entries).
    pub fn count(&self, at: usize, size: usize, end: usize) -> Option<usize> {
        let n = self.u32(at)? as usize;
        let room = end.checked_sub(at.checked_add(4)?)?;
        (n.checked_mul(size.max(1))? <= room).then_some(n)
    }
}

/// One layout check: may raise the version (or set flags) when its evidence is found.
pub(crate) type Check = fn(&Detect, &mut Version);

/// Detects the version of a file from GEN8 and the chunk table, with the evidence.
pub(crate) fn detect(d: &Detect) -> VersionReport {
    let (mut v, mut evidence) = floor(d);
    fixpoint(d, crate::chunks::CHECKS, &mut v, &mut evidence);
    VersionReport {
        version: v,
        evidence,
    }
}

/// The first version each of these chunks exists in (§1.2 of the format notes), latest first.
const FLOORS: [(&[u8; 4], Kind, FormatVersion); 6] = [
    (b"UILR", Kind::UiLayers, FormatVersion::new(2024, 13, 0, 0)),
    (
        b"PSEM",
        Kind::ParticleEmitters,
        FormatVersion::new(2023, 2, 0, 0),
    ),
    (
        b"FEAT",
        Kind::FeatureFlags,
        FormatVersion::new(2022, 8, 0, 0),
    ),
    (b"FEDS", Kind::FilterEffects, FormatVersion::new(2, 3, 6, 0)),
    (b"SEQN", Kind::Sequences, FormatVersion::new(2, 3, 0, 0)),
    (b"TGIN", Kind::TextureGroups, FormatVersion::new(2, 2, 1, 0)),
];

/// The version GEN8 states, raised to the floor of the chunks present.
fn floor(d: &Detect) -> (Version, Vec<VersionEvidence>) {
    let mut v = Version {
        bytecode: d.bytecode(),
        ..Default::default()
    };
    if let Some((start, _)) = d.chunk(b"GEN8") {
        for i in 0..4 {
            v.ide[i] = d.u32(start + 44 + 4 * i).unwrap_or(0);
        }
    }
    v.format = if v.ide[0] >= 2 {
        FormatVersion::new(2, 0, 0, 0)
    } else {
        FormatVersion::new(1, 0, 0, v.ide[3].min(u16::MAX as u32) as u16)
    };
    let mut evidence = Vec::with_capacity(4);
    evidence.push(VersionEvidence {
        format: v.format,
        lts: false,
        source: EvidenceSource::Gen8,
    });
    // Floors from chunk presence.
    if let Some((n, _, f)) = FLOORS.iter().find(|(_, k, _)| d.chunks.has_kind(*k)) {
        v.raise(*f);
        evidence.push(VersionEvidence {
            format: v.format,
            lts: v.lts,
            source: EvidenceSource::ChunkPresent(ChunkName(**n)),
        });
    }
    (v, evidence)
}

/// Runs the layout checks until a fixpoint (at most 64 passes).
fn fixpoint(
    d: &Detect,
    checks: &[(&[u8; 4], Check)],
    v: &mut Version,
    evidence: &mut Vec<VersionEvidence>,
) {
    // A check is a function of the file and the version it is
    // given, so the checks after the last one that changed the version in a pass saw the final
    // version of that pass and changed nothing: when the next pass reaches them without a change
    // of its own, they would see that same version again, and the fixpoint is reached (exactly
    // what running the whole pass again would find, at the cost of the checks up to that one).
    let mut rerun = checks.len();
    for _ in 0..64 {
        let mut last_change = None;
        for (k, (name, check)) in checks.iter().enumerate() {
            if k >= rerun && last_change.is_none() {
                break;
            }
            let step = *v;
            check(d, v);
            if *v != step {
                evidence.push(VersionEvidence {
                    format: v.format,
                    lts: v.lts,
                    source: EvidenceSource::Layout(ChunkName(**name)),
                });
                last_change = Some(k);
            }
        }
        match last_change {
            Some(k) => rerun = k + 1,
            None => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixpoint as first written: every check in every pass, until a pass changes nothing.
    fn every_check(d: &Detect, checks: &[(&[u8; 4], Check)], start: Version) -> VersionReport {
        let (mut v, mut evidence) = (start, Vec::new());
        for _ in 0..64 {
            let before = v;
            for (name, check) in checks {
                let step = v;
                check(d, &mut v);
                if v != step {
                    evidence.push(VersionEvidence {
                        format: v.format,
                        lts: v.lts,
                        source: EvidenceSource::Layout(ChunkName(**name)),
                    });
                }
            }
            if v == before {
                break;
            }
        }
        VersionReport {
            version: v,
            evidence,
        }
    }

    /// [`fixpoint`] from `start`.
    fn short_passes(d: &Detect, checks: &[(&[u8; 4], Check)], start: Version) -> VersionReport {
        let (mut v, mut evidence) = (start, Vec::new());
        fixpoint(d, checks, &mut v, &mut evidence);
        VersionReport {
            version: v,
            evidence,
        }
    }

    /// A made-up check: rule `K`, stated by four bytes of the file, raises the minor version to
    /// one of two levels when it is at least one of two others (so rules late in the list can
    /// enable early ones, a rule can raise again in a later pass, and the fixpoint takes
    /// several passes).
    fn rule<const K: usize>(d: &Detect, v: &mut Version) {
        let Some(&[when_a, to_a, when_b, to_b]) = d.data.get(4 * K..4 * K + 4) else {
            return;
        };
        let m = v.format.minor;
        for (when, to) in [(when_b, to_b), (when_a, to_a)] {
            if m >= u16::from(when % 8) {
                v.raise(FormatVersion::new(2, u16::from(to % 8), 0, 0));
                return;
            }
        }
    }

    /// Stopping a pass where the previous one stopped changing finds what running every check
    /// again finds, in made-up check lists that need up to eight passes.
    #[test]
    fn short_passes_find_what_full_passes_find() {
        let checks: [(&[u8; 4], Check); 8] = [
            (b"R000", rule::<0>),
            (b"R001", rule::<1>),
            (b"R002", rule::<2>),
            (b"R003", rule::<3>),
            (b"R004", rule::<4>),
            (b"R005", rule::<5>),
            (b"R006", rule::<6>),
            (b"R007", rule::<7>),
        ];
        let mut rng = gmkit_testdata::Rng(0x0DE7_EC7F_1C5E_D001);
        let mut most = 0;
        for _ in 0..20_000 {
            let data: Vec<u8> = (0..32).map(|_| rng.next() as u8).collect();
            let no_chunks = crate::container::ChunkTable::default();
            let d = Detect::new(&data, &no_chunks, true);
            let start = Version::gms2(FormatVersion::new(2, 0, 0, 0));
            let fast = short_passes(&d, &checks, start);
            assert_eq!(fast, every_check(&d, &checks, start), "rules {data:?}");
            most = most.max(fast.evidence.len());
        }
        assert!(most >= 4, "the rules never chained");
    }

    /// The same on every corpus file, and on copies whose GEN8 states other IDE versions.
    #[test]
    fn short_passes_agree_on_the_corpus() {
        let corpus = gmkit_testdata::need!(gmkit_testdata::corpus());
        for (name, data) in &corpus {
            let Ok((chunks, _)) = crate::container::scan(data, true) else {
                continue;
            };
            let gen8 = chunks.range(b"GEN8").map(|r| r.0);
            let ides: [[u32; 4]; 4] = [[0; 4], [2, 0, 0, 0], [1, 0, 0, 9999], [2024, 0, 0, 0]];
            for ide in std::iter::once(None).chain(ides.map(Some)) {
                let mut data = data.clone();
                if let (Some(ide), Some(at)) = (ide, gen8)
                    && data.len() >= at + 60
                {
                    for (i, part) in ide.iter().enumerate() {
                        let p = at + 44 + 4 * i;
                        data[p..p + 4].copy_from_slice(&part.to_le_bytes());
                    }
                }
                let d = Detect::new(&data, &chunks, true);
                let (start, floor_evidence) = floor(&d);
                let fast = detect(&d);
                let mut full = every_check(&d, crate::chunks::CHECKS, start);
                full.evidence.splice(0..0, floor_evidence);
                assert_eq!(fast, full, "{name}, IDE {ide:?}");
            }
        }
    }

    /// Each floor names its chunk and that chunk's kind.
    #[test]
    fn floors_name_their_kind() {
        for (name, kind, _) in FLOORS {
            assert_eq!(crate::chunks::kind_of(name), Some(kind));
        }
    }

    /// A count is only accepted when its elements fit before the end: the work of any check
    /// that walks a list is bounded by the bytes of the chunk, not by the count.
    #[test]
    fn counts_are_bounded_by_the_bytes() {
        let mut data = vec![0u8; 4 + 4 * 10];
        let d = |data: &[u8], n: u32| {
            let mut v = data.to_vec();
            v[..4].copy_from_slice(&n.to_le_bytes());
            let no_chunks = crate::container::ChunkTable::default();
            let det = Detect::new(&v, &no_chunks, true);
            (
                det.count(0, 4, v.len()),
                det.count(0, 8, v.len()),
                det.count(0, 0, v.len()),
            )
        };
        assert_eq!(d(&data, 10), (Some(10), None, Some(10)));
        assert_eq!(d(&data, 5), (Some(5), Some(5), Some(5)));
        // Size 0 counts as 1 byte per element.
        assert_eq!(d(&data, 11), (None, None, Some(11)));
        assert_eq!(d(&data, 41), (None, None, None));
        assert_eq!(d(&data, u32::MAX), (None, None, None));
        data.truncate(2);
        let no_chunks = crate::container::ChunkTable::default();
        let det = Detect::new(&data, &no_chunks, true);
        assert_eq!(det.count(0, 4, 2), None);
        assert_eq!(det.count(0, 4, 100), None);
    }
}
