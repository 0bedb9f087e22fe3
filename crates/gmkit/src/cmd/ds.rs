//! `gmkit ds`: decode ds_* strings to tagged JSON and encode them back.

use crate::exit;
use crate::io::{read_input, write_atomic};
use gmkit_value::ds::{
    self, DecodeOptions, DsKind, EncodeOptions, ds_data_from_tagged_json, ds_data_to_tagged_json,
};
use std::path::PathBuf;

/// Subcommands of `gmkit ds`.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Decode a ds_* string (ds_map_write, ds_list_write, ...) to tagged JSON
    #[command(after_help = DECODE_HELP)]
    Decode(DecodeArgs),
    /// Encode tagged JSON (as printed by `gmkit ds decode`) to a ds_* string
    #[command(after_help = ENCODE_HELP)]
    Encode(EncodeArgs),
}

const DECODE_HELP: &str = "\
The structure is detected from the magic word (use --kind to require one). The JSON is the
lossless tagged form: {\"map\": [[{\"string\": \"hp\"}, {\"real\": 3}], ...]}; layout details that
differ from the defaults (\"generation\": \"legacy\", \"cesu8\", \"queue_slots\") are kept so that
`gmkit ds encode` writes the same string again.

Examples:
  gmkit ds decode 2F0100000100000000000000000000000000F03F
  gmkit ds decode save.txt --compact
  echo 93010000... | gmkit ds decode -
  gmkit ds decode --html5 --kind map '{\"a\":1}'
  gmkit ds decode save.txt | gmkit ds encode";

const ENCODE_HELP: &str = "\
Reads the tagged JSON printed by `gmkit ds decode` and prints the upper-case hex string, followed
by a newline (-n to omit it). Decoding then encoding gives back the original string.

Examples:
  gmkit ds decode save.txt | gmkit ds encode
  gmkit ds encode --input list.json -o list.txt
  echo '{\"list\": [{\"real\": 1}, {\"string\": \"a\"}]}' | gmkit ds encode";

/// Structure kinds on the command line.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum KindArg {
    /// ds_map (magic 402/403)
    Map,
    /// ds_list (302/303)
    List,
    /// ds_grid (602/603)
    Grid,
    /// ds_queue (202/203)
    Queue,
    /// ds_stack (102/103)
    Stack,
    /// ds_priority (502/503)
    Priority,
}

impl From<KindArg> for DsKind {
    fn from(k: KindArg) -> Self {
        match k {
            KindArg::Map => DsKind::Map,
            KindArg::List => DsKind::List,
            KindArg::Grid => DsKind::Grid,
            KindArg::Queue => DsKind::Queue,
            KindArg::Stack => DsKind::Stack,
            KindArg::Priority => DsKind::Priority,
        }
    }
}

/// Arguments of `gmkit ds decode`.
#[derive(clap::Args)]
pub struct DecodeArgs {
    /// The hex string itself, a file holding it, or `-` for standard input
    pub input: String,
    /// Require this structure (like calling `ds_<kind>_read`)
    #[arg(long, value_enum)]
    pub kind: Option<KindArg>,
    /// Read like the HTML5 runner: unknown kinds as undefined, strings cut at NUL, duplicate
    /// keys last-wins, the legacy JSON form
    #[arg(long)]
    pub html5: bool,
    /// Print the JSON on one line
    #[arg(long)]
    pub compact: bool,
}

/// Arguments of `gmkit ds encode`.
#[derive(clap::Args)]
pub struct EncodeArgs {
    /// Read the JSON from this file instead of standard input (`-` = standard input)
    #[arg(long, short = 'i', default_value = "-")]
    pub input: String,
    /// Write the HTML5 runner's form (queue header, CESU-8, undefined for structs)
    #[arg(long)]
    pub html5: bool,
    /// Write the string to this file (atomically, verified by decoding it back)
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Do not print a newline after the string
    #[arg(long, short = 'n')]
    pub no_newline: bool,
}

/// Runs a subcommand; returns the process exit code ([`crate::exit`]).
pub fn run(c: Command) -> u8 {
    match c {
        Command::Decode(a) => decode(a),
        Command::Encode(a) => encode(a),
    }
}

/// Where a ds_* string argument came from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Standard input (`-`).
    Stdin,
    /// A file.
    File,
    /// The argument itself.
    Text,
}

/// Reads a ds_* string argument: `-` = stdin, an existing file, or the text itself. A directory
/// or an empty file is an error that says so.
pub fn read_ds_arg(arg: &str) -> Result<(String, Source), (u8, String)> {
    let path = std::path::Path::new(arg);
    let source = if arg == "-" {
        Source::Stdin
    } else if path.is_dir() {
        return Err((
            exit::IO,
            format!("{arg} is a directory: expected a ds_* hex string, a file holding one, or -"),
        ));
    } else if path.is_file() {
        Source::File
    } else {
        Source::Text
    };
    let bytes = match source {
        Source::Text => arg.as_bytes().to_vec(),
        _ => read_input(arg).map_err(|e| (exit::IO, format!("{arg}: {e}")))?,
    };
    let text = String::from_utf8(bytes)
        .map_err(|e| (exit::FAILED, format!("{arg}: input is not UTF-8 text: {e}")))?;
    let text = text.trim_end().to_owned();
    if text.is_empty() && source != Source::Text {
        let what = if source == Source::File {
            format!("file {arg} is empty")
        } else {
            "standard input is empty".into()
        };
        return Err((exit::FAILED, format!("{what}: expected a ds_* hex string")));
    }
    Ok((text, source))
}

fn decode(a: DecodeArgs) -> u8 {
    let (text, source) = match read_ds_arg(&a.input) {
        Ok(t) => t,
        Err((code, msg)) => return fail("decode", code, &msg),
    };
    let opts = if a.html5 {
        DecodeOptions::html5()
    } else {
        DecodeOptions::default()
    };
    let data = match ds::decode_with(&text, a.kind.map(Into::into), &opts) {
        Ok(d) => d,
        Err(e) => {
            let not_hex = matches!(e, ds::DsError::NotHex { .. } | ds::DsError::Empty);
            let hint = if not_hex && source == Source::Text {
                format!(" (and no file named {:?} exists)", a.input)
            } else if !a.html5
                && matches!(
                    e,
                    ds::DsError::UnknownKind { .. }
                        | ds::DsError::NegativeCount { .. }
                        | ds::DsError::InvalidUtf8 { .. }
                        | ds::DsError::JsonNotEnabled { .. }
                )
            {
                " (--html5 reads the HTML5 runner's lenient cases)".into()
            } else {
                String::new()
            };
            let origin = match source {
                Source::File => format!("{}: ", a.input),
                _ => String::new(),
            };
            return fail("decode", exit::FAILED, &format!("{origin}{e}{hint}"));
        }
    };
    crate::io::print_json(&ds_data_to_tagged_json(&data), a.compact)
}

fn encode(a: EncodeArgs) -> u8 {
    let j = match crate::io::read_json(&a.input) {
        Ok(j) => j,
        Err((code, e)) => return fail("encode", code, &e),
    };
    let data = match ds_data_from_tagged_json(&j) {
        Ok(d) => d,
        Err(e) => return fail("encode", exit::FAILED, &e.to_string()),
    };
    let opts = EncodeOptions {
        html5: a.html5,
        ..Default::default()
    };
    let hex = match ds::encode_with(&data, &opts) {
        Ok(h) => h,
        Err(e) => return fail("encode", exit::FAILED, &e.to_string()),
    };
    match a.output {
        Some(path) => {
            let verify = |back: &[u8]| {
                let text = std::str::from_utf8(back).map_err(|e| e.to_string())?;
                let again = ds::decode(text, Some(data.value.kind())).map_err(|e| e.to_string())?;
                if again.value == data.value {
                    Ok(())
                } else {
                    Err("the written string decodes to different contents".into())
                }
            };
            if let Err(e) = write_atomic(&path, hex.as_bytes(), verify) {
                return fail("encode", exit::IO, &e);
            }
        }
        None => {
            let nl = if a.no_newline { "" } else { "\n" };
            if let Err(e) = crate::io::write_stdout(format!("{hex}{nl}").as_bytes()) {
                return crate::io::stdout_error("gmkit ds encode", &e);
            }
        }
    }
    exit::OK
}

fn fail(what: &str, code: u8, msg: &str) -> u8 {
    eprintln!("gmkit ds {what}: {msg}");
    code
}
