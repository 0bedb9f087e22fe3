//! `gmkit elephant`: Elephant buffers and export strings ↔ tagged JSON.

use crate::exit;
use crate::io::{read_input, write_atomic};
use gmkit_value::elephant::{self, NoCallbacks, ReadOptions, SchemaRegistry, WriteOptions, tagged};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

const DECODE_HELP: &str = "Examples:
  gmkit elephant decode save.bin
  gmkit elephant decode --string save.txt --compact
  gmkit elephant decode --schemas schemas.json save.bin > save.json

The output is Elephant's tagged JSON: {\"f64\":1.5}, {\"string\":\"hi\"}, {\"array\":[..]},
{\"struct\":[[name,value],..]}, {\"constructed\":{\"constructor\":..,\"version\":..,\"verbose\":..,
\"fields\":[..]}} and {\"ref\":id} for shared or circular references.";

const ENCODE_HELP: &str = "Examples:
  gmkit elephant decode save.bin | gmkit elephant encode -o save2.bin
  gmkit elephant encode --input save.json --string > save.txt
  gmkit elephant encode --schemas schemas.json --input save.json -o save.bin

Writes Elephant 1.5.1; decode → encode reproduces 1.5.1 data byte for byte.";

/// Subcommands of `gmkit elephant`.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Decode an Elephant buffer (or export string) to tagged JSON
    #[command(after_help = DECODE_HELP)]
    Decode {
        /// Input file, or - for standard input
        #[arg(default_value = "-")]
        file: String,
        /// The input is an export string (base64 of zlib), as ElephantExportString writes
        #[arg(long)]
        string: bool,
        /// Schemas for non-verbose constructed structs (JSON: {"Ctor": {"v1": {"field": code}}})
        #[arg(long, value_name = "FILE")]
        schemas: Option<PathBuf>,
        /// Also accept 1.0.0 / 1.1.0 data ("ATMC" header, no footer)
        #[arg(long)]
        legacy: bool,
        /// One line instead of pretty-printed JSON
        #[arg(long)]
        compact: bool,
    },
    /// Encode tagged JSON as an Elephant 1.5.1 buffer (or export string)
    #[command(after_help = ENCODE_HELP)]
    Encode {
        /// Read the JSON from this file instead of standard input
        #[arg(long, value_name = "FILE")]
        input: Option<String>,
        /// Write an export string (base64 of zlib) instead of binary
        #[arg(long)]
        string: bool,
        /// Write to this file (atomically, after checking that it decodes again)
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Schemas for non-verbose constructed structs
        #[arg(long, value_name = "FILE")]
        schemas: Option<PathBuf>,
    },
}

/// Runs a `gmkit elephant` subcommand; returns the exit code.
pub fn run(c: Command) -> u8 {
    match c {
        Command::Decode {
            file,
            string,
            schemas,
            legacy,
            compact,
        } => decode(&file, string, schemas, legacy, compact),
        Command::Encode {
            input,
            string,
            output,
            schemas,
        } => encode(input.as_deref().unwrap_or("-"), string, output, schemas),
    }
}

fn load_schemas(path: Option<PathBuf>) -> Result<SchemaRegistry, u8> {
    let Some(p) = path else {
        return Ok(SchemaRegistry::new());
    };
    let text = std::fs::read_to_string(&p).map_err(|e| {
        eprintln!("gmkit elephant: {}: {e}", p.display());
        exit::IO
    })?;
    SchemaRegistry::from_json_str(&text).map_err(|e| {
        eprintln!("gmkit elephant: {}: {e}", p.display());
        exit::FAILED
    })
}

fn read(file: &str) -> Result<Vec<u8>, u8> {
    read_input(file).map_err(|e| {
        eprintln!("gmkit elephant: {file}: {e}");
        exit::IO
    })
}

fn decode(file: &str, string: bool, schemas: Option<PathBuf>, legacy: bool, compact: bool) -> u8 {
    let run = || -> Result<(), u8> {
        let reg = load_schemas(schemas)?;
        let input = read(file)?;
        let opts = ReadOptions {
            schemas: Some(&reg),
            legacy_atmc: legacy,
            ..Default::default()
        };
        let fail = |e: elephant::Error| {
            eprintln!("gmkit elephant decode: {file}: {e}");
            exit::FAILED
        };
        let bytes = if string {
            let s = std::str::from_utf8(&input).map_err(|_| {
                eprintln!("gmkit elephant decode: {file}: an export string must be ASCII text");
                exit::FAILED
            })?;
            elephant::decompress(s, elephant::DEFAULT_MAX_DECOMPRESSED).map_err(fail)?
        } else {
            input
        };
        let (value, _) = elephant::read_with(&bytes, &opts, &mut NoCallbacks).map_err(fail)?;
        match crate::io::print_json(&tagged::to_tagged(&value, Some(&reg)), compact) {
            exit::OK => Ok(()),
            code => Err(code),
        }
    };
    match run() {
        Ok(()) => exit::OK,
        Err(c) => c,
    }
}

fn encode(input: &str, string: bool, output: Option<PathBuf>, schemas: Option<PathBuf>) -> u8 {
    let run = || -> Result<(), u8> {
        let reg = load_schemas(schemas)?;
        let json = crate::io::read_json(input).map_err(|(code, e)| {
            eprintln!("gmkit elephant encode: {e}");
            code
        })?;
        let value = tagged::from_tagged(&json).map_err(|e| {
            eprintln!("gmkit elephant encode: {input}: {e}");
            exit::FAILED
        })?;
        let opts = WriteOptions::with_schemas(&reg);
        let fail = |e: elephant::Error| {
            eprintln!("gmkit elephant encode: {e}");
            exit::FAILED
        };
        let bytes = if string {
            let mut s = elephant::export_string_with(&value, &opts).map_err(fail)?;
            s.push('\n');
            s.into_bytes()
        } else {
            elephant::write_with(&value, &opts, &mut NoCallbacks).map_err(fail)?
        };
        match output {
            Some(path) => write_atomic(&path, &bytes, |written| {
                let ropts = ReadOptions::with_schemas(&reg);
                let raw;
                let buf = if string {
                    let s = std::str::from_utf8(written).map_err(|e| e.to_string())?;
                    raw = elephant::decompress(s, elephant::DEFAULT_MAX_DECOMPRESSED)
                        .map_err(|e| e.to_string())?;
                    &raw[..]
                } else {
                    written
                };
                let (back, _) = elephant::read_with(buf, &ropts, &mut NoCallbacks)
                    .map_err(|e| format!("written data does not decode: {e}"))?;
                if back != value {
                    return Err("written data decodes to a different value".into());
                }
                Ok(())
            })
            .map_err(|e| {
                eprintln!("gmkit elephant encode: {e}");
                exit::IO
            }),
            None => {
                let mut out = std::io::stdout().lock();
                if !string && out.is_terminal() {
                    eprintln!(
                        "gmkit elephant encode: refusing to write binary data to a terminal; \
                         use -o FILE, redirect the output, or --string"
                    );
                    return Err(exit::USAGE);
                }
                out.write_all(&bytes)
                    .and_then(|_| out.flush())
                    .map_err(|e| crate::io::stdout_error("gmkit elephant encode", &e))
            }
        }
    };
    match run() {
        Ok(()) => exit::OK,
        Err(c) => c,
    }
}
