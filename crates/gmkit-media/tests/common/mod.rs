//! Shared helpers of the corpus tests.

/// Parses a corpus file leniently (media does not need every chunk to parse strictly); panics
/// naming the file when it does not parse.
pub fn parse(path: &std::path::Path) -> gmkit_data::DataFile {
    let opts = gmkit_data::ParseOptions {
        lenient: true,
        ..Default::default()
    };
    gmkit_data::parse_file_with(path, &opts)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .0
}
