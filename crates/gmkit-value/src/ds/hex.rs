//! The hex text layer: two hex digits per byte, upper case on write, any case on read.
//!
//! The reader mirrors GameMaker's: it consumes pairs of hex digits from the start and stops at
//! the first pair that is not two hex digits (so a trailing newline, junk or an unpaired last
//! digit are ignored). Decoding uses a 256-entry lookup table and works on 8-byte blocks.

/// Nibble values of ASCII characters; `0xFF` for non-hex characters.
const NIBBLE: [u8; 256] = {
    let mut t = [0xFFu8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'A' as usize + i] = 10 + i as u8;
        t[b'a' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

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
    let mut out = Vec::with_capacity(text.len() / 2);
    let mut blocks = text.chunks_exact(16);
    for block in &mut blocks {
        let mut bytes = [0u8; 8];
        let mut bad = 0u8;
        for (dst, pair) in bytes.iter_mut().zip(block.chunks_exact(2)) {
            let (hi, lo) = (NIBBLE[pair[0] as usize], NIBBLE[pair[1] as usize]);
            bad |= hi | lo;
            *dst = (hi << 4) | (lo & 0x0F);
        }
        if bad & 0xF0 != 0 {
            // A non-hex character in this block: finish pair by pair.
            decode_pairs(block, &mut out);
            return out;
        }
        out.extend_from_slice(&bytes);
    }
    decode_pairs(blocks.remainder(), &mut out);
    out
}

/// Pair-by-pair decoding of a short tail; stops at the first bad pair.
fn decode_pairs(text: &[u8], out: &mut Vec<u8>) {
    for pair in text.chunks_exact(2) {
        let (hi, lo) = (NIBBLE[pair[0] as usize], NIBBLE[pair[1] as usize]);
        if (hi | lo) & 0xF0 != 0 {
            return;
        }
        out.push((hi << 4) | lo);
    }
}

/// Whether `c` is a hex digit of either case.
pub fn is_hex_digit(c: u8) -> bool {
    NIBBLE[c as usize] != 0xFF
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
