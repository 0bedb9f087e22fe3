//! The hex text layer: two hex digits per byte, upper case on write, any case on read.
//!
//! The reader mirrors GameMaker's: it consumes pairs of hex digits from the start and stops at
//! the first pair that is not two hex digits (so a trailing newline, junk or an unpaired last
//! digit are ignored). Decoding uses a 256-entry lookup table and works on 8-byte blocks.

/// Marks a non-hex character in [`HI`] and [`LO`].
const BAD: u16 = 0x100;

/// High-nibble values (`nibble << 4`) of ASCII characters, [`BAD`] for non-hex characters.
const HI: [u16; 256] = nibble_table(4);
/// Low-nibble values of ASCII characters, [`BAD`] for non-hex characters.
const LO: [u16; 256] = nibble_table(0);

const fn nibble_table(shift: u32) -> [u16; 256] {
    let mut t = [BAD; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = (i as u16) << shift;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'A' as usize + i] = (10 + i as u16) << shift;
        t[b'a' as usize + i] = (10 + i as u16) << shift;
        i += 1;
    }
    t
}

/// Upper-case hex digit pairs of every byte value.
const PAIRS: [[u8; 2]; 256] = {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    let mut t = [[0u8; 2]; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = [DIGITS[i >> 4], DIGITS[i & 15]];
        i += 1;
    }
    t
};

/// Decodes the leading hex pairs of `text`, stopping at the first pair that is not two hex
/// digits. Returns the bytes; their count times two is the number of characters consumed.
///
/// ```
/// use gmkit_value::ds::hex::decode_prefix;
/// assert_eq!(decode_prefix(b"2f01zz00"), vec![0x2F, 0x01]);
/// assert_eq!(decode_prefix(b"ABC"), vec![0xAB]);
/// ```
pub fn decode_prefix(text: &[u8]) -> Vec<u8> {
    let n = text.len() / 2;
    let mut out = vec![0u8; n];
    // Fast path: 8 bytes (16 characters) at a time, one validity check per block.
    let mut done = 0;
    for (dst, src) in out.chunks_exact_mut(8).zip(text.chunks_exact(16)) {
        let mut bad = 0u16;
        for (d, pair) in dst.iter_mut().zip(src.chunks_exact(2)) {
            let v = HI[pair[0] as usize] | LO[pair[1] as usize];
            bad |= v;
            *d = v as u8;
        }
        if bad & BAD != 0 {
            break;
        }
        done += 8;
    }
    // Tail, or the block with the first bad pair: pair by pair.
    let mut len = done;
    for (d, pair) in out[done..].iter_mut().zip(text[2 * done..].chunks_exact(2)) {
        let v = HI[pair[0] as usize] | LO[pair[1] as usize];
        if v & BAD != 0 {
            break;
        }
        *d = v as u8;
        len += 1;
    }
    out.truncate(len);
    out
}

/// Whether `c` is a hex digit of either case.
pub fn is_hex_digit(c: u8) -> bool {
    LO[c as usize] != BAD
}

/// Encodes bytes as upper-case hex, GameMaker's own output.
///
/// ```
/// assert_eq!(gmkit_value::ds::hex::encode(&[0x93, 0x01, 0, 0]), "93010000");
/// ```
pub fn encode(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        let [hi, lo] = PAIRS[b as usize];
        s.push(char::from(hi));
        s.push(char::from(lo));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_all_cases_and_stops_at_junk() {
        let all: Vec<u8> = (0..=255).collect();
        let up = encode(&all);
        assert_eq!(decode_prefix(up.as_bytes()), all);
        assert_eq!(decode_prefix(up.to_lowercase().as_bytes()), all);
        // junk inside a fast block
        let mut t = up.clone().into_bytes();
        t[21] = b'g';
        assert_eq!(decode_prefix(&t), all[..10]);
        assert_eq!(decode_prefix(b""), Vec::<u8>::new());
        assert_eq!(decode_prefix(b"9"), Vec::<u8>::new());
        assert_eq!(decode_prefix("é0".as_bytes()), Vec::<u8>::new());
    }
}
