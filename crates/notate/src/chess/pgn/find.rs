//! Finding the next of a few bytes when it is usually near.
//!
//! Reading PGN jumps from one structural byte to the next: the `}` of a clock comment 16
//! bytes on, the end of a 25-byte tag line, the next `{` after a move. `memchr` is the right
//! tool for long distances, but its dispatch and set-up cost more than the whole search at
//! these distances (a lichess game would call it about 200 times). So the parser searches the
//! first [`NEAR`] bytes 8 at a time in a `u64` ([`find_any`]), and only a longer search goes
//! to `memchr`; the splitter, which looks at every byte of the input, marks the bytes that
//! matter to it 64 at a time ([`structural_bits`]).

/// How far the word-at-a-time search goes before handing over to `memchr`.
const NEAR: usize = 32;

const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The high bit of each byte of `x` that is zero, and nothing else (exact: no false hits).
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7)
}

/// The offset of the first byte of `hay` that is one of `needles` (a far one is found by
/// `memchr` for up to three needles, by a plain search for more).
#[inline]
pub(crate) fn find_any<const N: usize>(needles: [u8; N], hay: &[u8]) -> Option<usize> {
    let splat = needles.map(|b| u64::from_le_bytes([b; 8]));
    let mut i = 0;
    while i < NEAR && i + 8 <= hay.len() {
        let word = u64::from_le_bytes(hay[i..i + 8].try_into().expect("8 bytes"));
        let mut hits = 0;
        for pattern in splat {
            hits |= zero_bytes(word ^ pattern);
        }
        if hits != 0 {
            return Some(i + hits.trailing_zeros() as usize / 8);
        }
        i += 8;
    }
    if i < NEAR {
        // Fewer than 8 bytes left.
        return hay[i..]
            .iter()
            .position(|b| needles.contains(b))
            .map(|n| i + n);
    }
    let rest = &hay[i..];
    let found = match needles.as_slice() {
        [a] => memchr::memchr(*a, rest),
        [a, b] => memchr::memchr2(*a, *b, rest),
        [a, b, c] => memchr::memchr3(*a, *b, *c, rest),
        _ => rest.iter().position(|b| needles.contains(b)),
    };
    found.map(|n| i + n)
}

/// Which of 64 bytes can change the state of the game splitter's scan: `{`, `}`, `;` and
/// newlines (bit `k` for byte `k`). The splitter reads every byte of the input once, on its
/// own thread, and in lichess movetext one of these comes every 10 bytes or so; finding
/// them 64 at a time costs a fraction of a search per byte.
pub(crate) fn structural_bits(block: &[u8; 64]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of every x86_64 processor (the target enables it always).
        unsafe { structural_bits_sse2(block) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        structural_bits_swar(block)
    }
}

/// [`structural_bits`] 8 bytes at a time in a `u64`, for processors other than x86_64.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn structural_bits_swar(block: &[u8; 64]) -> u64 {
    let splat = [b'{', b'}', b'\n', b';'].map(|b| u64::from_le_bytes([b; 8]));
    let mut bits = 0u64;
    for (k, eight) in block.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(eight.try_into().expect("8 bytes"));
        let hits = splat
            .iter()
            .fold(0, |hits, pattern| hits | zero_bytes(word ^ pattern));
        // The high bit of each byte, gathered into the low 8 bits.
        let gathered = ((hits >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56;
        bits |= gathered << (8 * k);
    }
    bits
}

/// [`structural_bits`] 16 bytes at a time. Vectors are built from two `u64` each (the
/// compiler makes that one load), so no pointer is read unchecked.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn structural_bits_sse2(block: &[u8; 64]) -> u64 {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_set_epi64x,
    };
    let (open, close, newline, semicolon) = (
        _mm_set1_epi8(b'{' as i8),
        _mm_set1_epi8(b'}' as i8),
        _mm_set1_epi8(b'\n' as i8),
        _mm_set1_epi8(b';' as i8),
    );
    let mut bits = 0u64;
    for (k, sixteen) in block.chunks_exact(16).enumerate() {
        let lo = i64::from_le_bytes(sixteen[..8].try_into().expect("8 bytes"));
        let hi = i64::from_le_bytes(sixteen[8..].try_into().expect("8 bytes"));
        let v = _mm_set_epi64x(hi, lo);
        let hit = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, open), _mm_cmpeq_epi8(v, close)),
            _mm_or_si128(_mm_cmpeq_epi8(v, newline), _mm_cmpeq_epi8(v, semicolon)),
        );
        bits |= u64::from(_mm_movemask_epi8(hit) as u16) << (16 * k);
    }
    bits
}

/// The most lines a tag runs on after its first (`[Site` ⏎ `"Here"]`); the splitter counts
/// the same.
pub(crate) const MAX_TAG_LINES: usize = 4;

/// A byte-order mark, read as white space wherever it stands (files joined with `cat`).
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A forum's markers around pasted games (any case): skipped before a game, never tags.
pub(crate) const FORUM_MARKERS: [&[u8]; 2] = [b"[pgn]", b"[/pgn]"];

/// Whether tag text ends inside a tag: its last `[` stands after its last `]` (`[Site`,
/// `[Event "x"] [`); the rest of that tag is on the next line.
pub(crate) fn tag_left_open(text: &[u8]) -> bool {
    memchr::memrchr(b'[', text) > memchr::memrchr(b']', text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn finds_near_and_far() {
        assert_eq!(find_any([b'}'], b"[%clk 0:05:00] } 1... e5"), Some(15));
        assert_eq!(find_any([b'}'], b"}"), Some(0));
        assert_eq!(find_any([b'}'], b""), None);
        assert_eq!(find_any([b'{', b';', b'\n'], b"1. e4 e5 ; x"), Some(9));
        let far = [b"x".repeat(100), b"\n{".to_vec()].concat();
        assert_eq!(find_any([b'{', b';', b'\n'], &far), Some(100));
        assert_eq!(find_any([b'"', b'\\'], b"abc\\\"def\""), Some(3));
        // Bytes with the high bit set are no false hits.
        assert_eq!(
            find_any([0x7d], &[0xfd, 0x80, 0xff, 0x7c, 0x7e, 0, 1, 2, 0x7d]),
            Some(8)
        );
    }

    #[test]
    fn structural_bits_mark_braces_semicolons_and_newlines() {
        let mut block = [b'x'; 64];
        for (k, b) in [
            (0, b'{'),
            (9, b'}'),
            (33, b';'),
            (63, b'\n'),
            (40, b'['),
            (41, 0xfb),
        ] {
            block[k] = b;
        }
        assert_eq!(structural_bits(&block), 1 | 1 << 9 | 1 << 33 | 1 << 63);
        assert_eq!(structural_bits_swar(&block), 1 | 1 << 9 | 1 << 33 | 1 << 63);
    }

    proptest! {
        #[test]
        fn structural_bits_agree_with_a_plain_test(block in proptest::array::uniform32(any::<u8>()),
                                                   more in proptest::array::uniform32(any::<u8>())) {
            let mut all = [0u8; 64];
            all[..32].copy_from_slice(&block);
            all[32..].copy_from_slice(&more);
            let plain = all.iter().enumerate().fold(0u64, |bits, (k, b)| {
                bits | (u64::from(matches!(b, b'{' | b'}' | b';' | b'\n')) << k)
            });
            prop_assert_eq!(structural_bits(&all), plain);
            prop_assert_eq!(structural_bits_swar(&all), plain);
        }


        #[test]
        fn agrees_with_a_plain_search(hay in proptest::collection::vec(any::<u8>(), 0..200),
                                      a in any::<u8>(), b in any::<u8>(), c in any::<u8>()) {
            let plain = |needles: &[u8]| hay.iter().position(|x| needles.contains(x));
            prop_assert_eq!(find_any([a], &hay), plain(&[a]));
            prop_assert_eq!(find_any([a, b], &hay), plain(&[a, b]));
            prop_assert_eq!(find_any([a, b, c], &hay), plain(&[a, b, c]));
        }
    }
}
