//! Shared helpers of the corpus tests.

/// Corpus files gmkit-data cannot parse yet (a CODE chunk problem, not a media one): media
/// tests skip them by name, so any other parse failure still fails the test.
pub const UNPARSABLE: &[&str] = &["teatree.win"];

/// Parses a corpus file leniently (media does not need the code chunks to parse strictly).
/// `None` for a file listed in [`UNPARSABLE`] that still fails; panics for any other failure.
pub fn parse(path: &std::path::Path) -> Option<gmkit_data::DataFile> {
    let opts = gmkit_data::ParseOptions {
        lenient: true,
        ..Default::default()
    };
    match gmkit_data::parse_file_with(path, &opts) {
        Ok((f, _)) => Some(f),
        Err(e) => {
            let name = path.file_name().unwrap().to_string_lossy();
            assert!(
                UNPARSABLE.contains(&name.as_ref()),
                "{}: {e}",
                path.display()
            );
            eprintln!("skipping {name}: gmkit-data cannot parse it yet: {e}");
            None
        }
    }
}
