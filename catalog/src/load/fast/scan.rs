//! Byte scans the fast JSON reader spends most of its time in: runs of
//! whitespace (a pretty-printed catalog is almost half indentation) and the
//! end of a string. On x86-64 they look at 16 bytes at a time with SSE2 (part
//! of every x86-64 processor); elsewhere at 8, in a `u64`.

/// Whether `c` is JSON whitespace.
#[inline]
fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\n' | b'\r' | b'\t')
}

/// Whether `c` ends the plain part of a JSON string: a quote, a backslash or a
/// control character.
#[inline]
fn is_stop(c: u8) -> bool {
    c == b'"' || c == b'\\' || c < 0x20
}

/// The 16-byte scans, for builds where every processor they run on has SSE2
/// (every x86-64 build, unless told otherwise).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };

    /// The 16 bytes of `b` from `i`, when there are that many.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn load16(b: &[u8], i: usize) -> Option<__m128i> {
        let chunk: &[u8; 16] = b.get(i..i.checked_add(16)?)?.try_into().ok()?;
        // SAFETY: `chunk` is 16 readable bytes, and an unaligned load has no
        // alignment requirement.
        Some(unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) })
    }

    /// Every byte of a vector set to `c`.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn splat(c: u8) -> __m128i {
        _mm_set1_epi8(i8::from_ne_bytes([c]))
    }

    /// The bits of a byte mask (one per byte, lowest byte first).
    #[inline]
    #[target_feature(enable = "sse2")]
    fn bits(mask: __m128i) -> u32 {
        u32::from_ne_bytes(_mm_movemask_epi8(mask).to_ne_bytes())
    }

    /// Whitespace 16 bytes at a time: `Ok(offset)` of the first other byte, or
    /// `Err(offset)` where fewer than 16 bytes are left, all whitespace before.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) fn whitespace_run(b: &[u8]) -> Result<usize, usize> {
        let mut i = 0;
        while let Some(v) = load16(b, i) {
            let ws = _mm_or_si128(
                _mm_or_si128(
                    _mm_cmpeq_epi8(v, splat(b' ')),
                    _mm_cmpeq_epi8(v, splat(b'\n')),
                ),
                _mm_or_si128(
                    _mm_cmpeq_epi8(v, splat(b'\r')),
                    _mm_cmpeq_epi8(v, splat(b'\t')),
                ),
            );
            let other = !bits(ws) & 0xffff;
            if other != 0 {
                return Ok(i + other.trailing_zeros() as usize);
            }
            i += 16;
        }
        Err(i)
    }

    /// String stops 16 bytes at a time: `Ok(offset)` of the first, or
    /// `Err(offset)` where fewer than 16 bytes are left, none a stop before.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) fn string_stop(b: &[u8]) -> Result<usize, usize> {
        let mut i = 0;
        while let Some(v) = load16(b, i) {
            // A byte is at most 0x1f (unsigned) when its maximum with 0x1f is
            // 0x1f.
            let control = _mm_cmpeq_epi8(_mm_max_epu8(v, splat(0x1f)), splat(0x1f));
            let stops = _mm_or_si128(
                _mm_or_si128(
                    _mm_cmpeq_epi8(v, splat(b'"')),
                    _mm_cmpeq_epi8(v, splat(b'\\')),
                ),
                control,
            );
            let found = bits(stops);
            if found != 0 {
                return Ok(i + found.trailing_zeros() as usize);
            }
            i += 16;
        }
        Err(i)
    }
}

/// The length of the run of JSON whitespace `b` starts with.
#[inline]
pub(super) fn whitespace_run(b: &[u8]) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    // SAFETY: this build's processors all have SSE2 (the `cfg` above).
    let mut i = match unsafe { sse2::whitespace_run(b) } {
        Ok(found) => return found,
        Err(rest) => rest,
    };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    let mut i = 0;
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        // Spaces, eight at a time (indentation); anything else byte by byte.
        let other = u64::from_le_bytes(word) ^ 0x2020_2020_2020_2020;
        let spaces = (other.trailing_zeros() / 8) as usize;
        if spaces == 8 {
            i += 8;
            continue;
        }
        i += spaces;
        if !is_ws(b[i]) {
            return i;
        }
        i += 1;
    }
    i + b[i..].iter().take_while(|&&c| is_ws(c)).count()
}

/// The offset of the first `"`, `\` or control character in `b` (its length
/// when there is none).
#[inline]
pub(super) fn string_stop(b: &[u8]) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    // SAFETY: this build's processors all have SSE2 (the `cfg` above).
    let mut i = match unsafe { sse2::string_stop(b) } {
        Ok(found) => return found,
        Err(rest) => rest,
    };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    let mut i = 0;
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        let quote = x ^ (LO * u64::from(b'"'));
        let slash = x ^ (LO * u64::from(b'\\'));
        // Each term flags exactly its lowest matching byte (higher flags may be
        // false, from borrows), so the lowest flag of all is the first stop.
        let hits = ((quote.wrapping_sub(LO) & !quote)
            | (slash.wrapping_sub(LO) & !slash)
            | (x.wrapping_sub(LO * 0x20) & !x))
            & HI;
        if hits != 0 {
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i + b[i..].iter().take_while(|&&c| !is_stop(c)).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Bytes the scans care about, and others, at every offset of a vector.
    fn bytes() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(
            prop_oneof![
                4 => Just(b' '),
                1 => Just(b'\n'),
                1 => Just(b'\t'),
                1 => Just(b'\r'),
                1 => Just(b'"'),
                1 => Just(b'\\'),
                1 => 0u8..0x20,
                2 => any::<u8>(),
            ],
            0..80,
        )
    }

    proptest! {
        /// Both scans agree with the byte-by-byte definition, whatever the
        /// length (the vector, word and byte paths) and content.
        #[test]
        fn scans_match_the_definition(b in bytes(), start in 0usize..20) {
            let b = &b[start.min(b.len())..];
            prop_assert_eq!(whitespace_run(b), b.iter().take_while(|&&c| is_ws(c)).count());
            prop_assert_eq!(
                string_stop(b),
                b.iter().position(|&c| is_stop(c)).unwrap_or(b.len())
            );
        }
    }

    #[test]
    fn scans_of_long_runs() {
        for n in 0..40 {
            for tail in ["", "x", "\"a\"", " \n", "\t ", "\u{1}", "é"] {
                let s = format!("{}{tail}", " \n".repeat(n));
                let expected = s.bytes().take_while(|&c| is_ws(c)).count();
                assert_eq!(whitespace_run(s.as_bytes()), expected, "{s:?}");
                let s = format!("{}{tail}", "aé".repeat(n));
                let expected = s.bytes().position(is_stop).unwrap_or(s.len());
                assert_eq!(string_stop(s.as_bytes()), expected, "{s:?}");
            }
        }
    }
}
