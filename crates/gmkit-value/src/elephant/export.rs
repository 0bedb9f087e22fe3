//! Export strings: `ElephantExportString` / `ElephantImportString` (zlib, then base64).

use super::callbacks::NoCallbacks;
use super::error::{Error, Result};
use super::read::{ReadOptions, read_with};
use super::write::{WriteOptions, write_with};
use crate::Value;
use base64::Engine;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use flate2::{Compression, Decompress, FlushDecompress, Status};
use std::io::Write;

/// The default cap on decompressed size: 256 MiB.
pub const DEFAULT_MAX_DECOMPRESSED: usize = 256 << 20;

/// Standard alphabet; padding written, accepted with or without.
const B64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_encode_padding(true)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// zlib-compresses `bytes` (as `buffer_compress` does) and base64-encodes the result
/// (standard alphabet, `=` padding, no line breaks).
///
/// ```
/// use gmkit_value::elephant::{compress, decompress};
/// let text = compress(b"hello hello hello");
/// assert_eq!(decompress(&text, 1 << 20)?, b"hello hello hello");
/// # Ok::<(), gmkit_value::elephant::Error>(())
/// ```
pub fn compress(bytes: &[u8]) -> String {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), Compression::default());
    z.write_all(bytes).expect("writing to a Vec cannot fail");
    let c = z.finish().expect("writing to a Vec cannot fail");
    B64.encode(c)
}

/// Undoes [`compress`]: base64 (ASCII whitespace ignored), then zlib.
///
/// Never hangs on truncated or corrupt streams; refuses to produce more than
/// `min(max_output, 1032 × compressed size + 1 KiB)` bytes (1032:1 is deflate's largest
/// possible expansion, so no valid stream is refused below `max_output`).
///
/// ```
/// use gmkit_value::elephant::{compress, decompress};
/// let text = compress(&[0u8; 4096]);
/// assert_eq!(decompress(&text, 4096)?.len(), 4096);
/// assert!(decompress(&text, 100).is_err()); // more than asked for
/// assert!(decompress("not base64!", 4096).is_err());
/// # Ok::<(), gmkit_value::elephant::Error>(())
/// ```
pub fn decompress(s: &str, max_output: usize) -> Result<Vec<u8>> {
    let cleaned: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let z = B64.decode(&cleaned).map_err(|e| {
        let offset = match e {
            base64::DecodeError::InvalidByte(o, _)
            | base64::DecodeError::InvalidLastSymbol { offset: o, .. } => o,
            _ => cleaned.len(),
        };
        Error::Base64 {
            offset,
            message: e.to_string(),
        }
    })?;
    inflate(&z, max_output)
}

/// The largest expansion deflate can encode: one 258-byte match per 2 bits at best, i.e. at most
/// 1032 output bytes per compressed byte (RFC 1951). A stream that claims more is corrupt.
pub const DEFLATE_MAX_RATIO: usize = 1032;

/// Bounded streaming inflate of a zlib stream: the output grows as the stream produces it (no
/// fixed ratio guess), up to `min(max_output, DEFLATE_MAX_RATIO × compressed size + 1 KiB)`.
fn inflate(z: &[u8], max_output: usize) -> Result<Vec<u8>> {
    let limit = max_output.min(
        z.len()
            .saturating_mul(DEFLATE_MAX_RATIO)
            .saturating_add(1024),
    );
    let mut d = Decompress::new(true);
    let mut out: Vec<u8> = Vec::with_capacity(z.len().saturating_mul(4).clamp(64, limit.max(64)));
    loop {
        if out.len() == out.capacity() {
            if out.len() >= limit {
                return Err(Error::TooLarge {
                    limit,
                    input: z.len(),
                });
            }
            // Doubling, capped at the limit (+1 so that reaching the limit exactly is not
            // mistaken for more output).
            let grow = out.len().max(4096).min(limit + 1 - out.len());
            out.reserve_exact(grow);
        }
        let pos = (d.total_in() as usize).min(z.len());
        let (before_in, before_out) = (d.total_in(), d.total_out());
        // `None`: the stream is fed whole, but the output may need several calls; `Finish`
        // would ask for all of it in one buffer.
        let status = d
            .decompress_vec(&z[pos..], &mut out, FlushDecompress::None)
            .map_err(|e| Error::Zlib {
                offset: d.total_in() as usize,
                message: e.to_string(),
            })?;
        match status {
            Status::StreamEnd => {
                out.shrink_to_fit();
                return Ok(out);
            }
            _ if d.total_in() == before_in
                && d.total_out() == before_out
                && out.len() < out.capacity() =>
            {
                return Err(Error::Zlib {
                    offset: d.total_in() as usize,
                    message: "incomplete or truncated stream: expected more deflate data and \
                              the Adler-32 trailer"
                        .into(),
                });
            }
            _ => {}
        }
    }
}

/// `ElephantExportString(value)`: the 1.5.1 buffer, zlib-compressed, base64-encoded.
///
/// ```
/// use gmkit_value::{Struct, Value, elephant};
/// let save = Value::from(Struct::new(vec![("gold".into(), Value::Real(12.0))]));
/// let text = elephant::export_string(&save)?;
/// let back = elephant::import_string(&text)?;
/// assert_eq!(back.get("gold"), Some(Value::Real(12.0)));
/// # Ok::<(), gmkit_value::elephant::Error>(())
/// ```
pub fn export_string(value: &Value) -> Result<String> {
    export_string_with(value, &WriteOptions::default())
}

/// [`export_string`] with options (as in Elephant, diffs-only is ignored by exports).
///
/// ```
/// use gmkit_value::{Value, elephant::{self, WriteOptions}};
/// let text = elephant::export_string_with(&Value::from("hi"), &WriteOptions::default())?;
/// assert_eq!(elephant::import_string(&text)?, Value::from("hi"));
/// # Ok::<(), gmkit_value::elephant::Error>(())
/// ```
pub fn export_string_with(value: &Value, opts: &WriteOptions<'_>) -> Result<String> {
    let opts = WriteOptions {
        diffs_only: false,
        ..*opts
    };
    Ok(compress(&write_with(value, &opts, &mut NoCallbacks)?))
}

/// `ElephantImportString(s)` with default options.
///
/// ```
/// use gmkit_value::{Value, elephant};
/// let text = elephant::export_string(&Value::from(vec![Value::Real(1.0), Value::Bool(true)]))?;
/// let v = elephant::import_string(&text)?;
/// assert_eq!(v.get(1), Some(Value::Bool(true)));
/// assert!(elephant::import_string("eJzLSM3JyQcABiwCFQ==").is_err()); // zlib of "hello": no Elephant header
/// # Ok::<(), gmkit_value::elephant::Error>(())
/// ```
pub fn import_string(s: &str) -> Result<Value> {
    import_string_with(s, &ReadOptions::default())
}

/// `ElephantImportString(s)`.
///
/// ```
/// use gmkit_value::{Value, elephant::{self, ReadOptions}};
/// let text = elephant::export_string(&Value::Real(2.5))?;
/// assert_eq!(elephant::import_string_with(&text, &ReadOptions::default())?, Value::Real(2.5));
/// # Ok::<(), gmkit_value::elephant::Error>(())
/// ```
pub fn import_string_with(s: &str, opts: &ReadOptions<'_>) -> Result<Value> {
    let bytes = decompress(s, DEFAULT_MAX_DECOMPRESSED)?;
    read_with(&bytes, opts, &mut NoCallbacks).map(|(v, _)| v)
}
