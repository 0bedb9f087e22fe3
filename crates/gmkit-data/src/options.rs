//! Parsing options.

/// How to parse a data file.
///
/// ```
/// let opts = gmkit_data::ParseOptions { lenient: true, ..Default::default() };
/// assert!(!opts.track_coverage);
/// ```
#[derive(Clone, Debug, Default)]
pub struct ParseOptions {
    /// Turn integrity checks into warnings for half-broken files (strict by default).
    pub lenient: bool,
    /// Record which byte ranges each field consumed (see [`crate::ParseReport::unexplained`]).
    pub track_coverage: bool,
}
