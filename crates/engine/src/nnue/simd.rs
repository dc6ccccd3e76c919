//! The vector arithmetic of the network: adding and subtracting rows of
//! `i16`, and the dot products of the clipped ReLU and of its square. AVX2 through `std::arch` when
//! the processor has it (checked once), plain loops otherwise; both give
//! the same integers (the tests compare them).

use super::{HIDDEN, QA};

#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    use std::sync::OnceLock;
    static AVX2: OnceLock<bool> = OnceLock::new();
    *AVX2.get_or_init(|| std::arch::is_x86_feature_detected!("avx2"))
}

/// `acc += row`, lane by lane (the trainer's weight limits keep the sums
/// far from overflow; wrapping keeps even a hostile net from panicking).
#[inline]
pub fn add(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the processor has AVX2 (checked above).
        return unsafe { avx2::add(acc, row) };
    }
    for (a, r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*r);
    }
}

/// `acc -= row`, lane by lane.
#[inline]
pub fn sub(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the processor has AVX2 (checked above).
        return unsafe { avx2::sub(acc, row) };
    }
    for (a, r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*r);
    }
}

/// `sum(clamp(acc, 0, QA) * w)`.
#[inline]
pub fn crelu_dot(acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the processor has AVX2 (checked above).
        return unsafe { avx2::crelu_dot(acc, w) };
    }
    portable_crelu_dot(acc, w)
}

/// `sum(clamp(acc, 0, QA)² * w)`, for `w` within ±`SCRELU_W2_MAX` (the
/// reader's check): `clamp(acc) * w` is taken in 16 bits first, as the
/// vector path does, and wraps the same way for weights beyond that.
#[inline]
pub fn screlu_dot(acc: &[i16; HIDDEN], w: &[i16]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the processor has AVX2 (checked above).
        return unsafe { avx2::screlu_dot(acc, w) };
    }
    portable_screlu_dot(acc, w)
}

#[inline]
fn portable_screlu_dot(acc: &[i16; HIDDEN], w: &[i16]) -> i64 {
    acc.iter()
        .zip(w)
        .map(|(&a, &w)| {
            let c = a.clamp(0, QA as i16);
            i64::from(i32::from(c.wrapping_mul(w)) * i32::from(c))
        })
        .sum()
}

#[inline]
fn portable_crelu_dot(acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
    acc.iter()
        .zip(w)
        .map(|(&a, &w)| i32::from(a).clamp(0, QA) * i32::from(w))
        .sum()
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{HIDDEN, QA};
    use std::arch::x86_64::*;

    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn add(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
        for i in (0..HIDDEN).step_by(16) {
            // SAFETY: i + 16 <= HIDDEN; unaligned loads and stores.
            unsafe {
                let p = acc.as_mut_ptr().add(i) as *mut __m256i;
                let r = _mm256_loadu_si256(row.as_ptr().add(i) as *const __m256i);
                _mm256_storeu_si256(p, _mm256_add_epi16(_mm256_loadu_si256(p), r));
            }
        }
    }

    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn sub(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
        for i in (0..HIDDEN).step_by(16) {
            // SAFETY: i + 16 <= HIDDEN; unaligned loads and stores.
            unsafe {
                let p = acc.as_mut_ptr().add(i) as *mut __m256i;
                let r = _mm256_loadu_si256(row.as_ptr().add(i) as *const __m256i);
                _mm256_storeu_si256(p, _mm256_sub_epi16(_mm256_loadu_si256(p), r));
            }
        }
    }

    /// # Safety
    /// The processor must have AVX2; `w` must hold `HIDDEN` values.
    #[target_feature(enable = "avx2")]
    pub unsafe fn crelu_dot(acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
        assert!(w.len() >= HIDDEN);
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for i in (0..HIDDEN).step_by(16) {
            // SAFETY: i + 16 <= HIDDEN <= both lengths; unaligned loads.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i),
                    _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i),
                )
            };
            let clipped = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            // Pairs of i16 products summed into i32: 255 * 32767 * 2 fits.
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(clipped, b));
        }
        let lo = _mm256_castsi256_si128(sum);
        let hi = _mm256_extracti128_si256(sum, 1);
        let s = _mm_add_epi32(lo, hi);
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
        _mm_cvtsi128_si32(s)
    }

    /// # Safety
    /// The processor must have AVX2; `w` must hold `HIDDEN` values.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16; HIDDEN], w: &[i16]) -> i64 {
        assert!(w.len() >= HIDDEN);
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for i in (0..HIDDEN).step_by(16) {
            // SAFETY: i + 16 <= HIDDEN <= both lengths; unaligned loads.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i),
                    _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i),
                )
            };
            let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            // c · w in 16 bits (it fits for |w| <= SCRELU_W2_MAX), then
            // pairs of (c · w) · c summed into i32: each lane gains at most
            // 2 · 255 · 32767 a step, HIDDEN / 16 steps.
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(c, b), c));
        }
        // The eight lanes summed in 64 bits.
        let lo = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(sum));
        let hi = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(sum, 1));
        let s = _mm256_add_epi64(lo, hi);
        let s = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
        _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vector_dot_product_equals_the_plain_one() {
        let mut rng = crate::rng::Rng::new(5);
        for _ in 0..200 {
            let mut acc = [0i16; HIDDEN];
            let mut w = [0i16; HIDDEN];
            for i in 0..HIDDEN {
                acc[i] = (rng.below(2000) as i16) - 700;
                w[i] = (rng.below(1024) as i16) - 512;
            }
            let expected: i32 = (0..HIDDEN)
                .map(|i| i32::from(acc[i]).clamp(0, 255) * i32::from(w[i]))
                .sum();
            assert_eq!(crelu_dot(&acc, &w), expected);
            assert_eq!(portable_crelu_dot(&acc, &w), expected);
            // The square, with weights in the range a squared net keeps.
            let ws: Vec<i16> = w.iter().map(|&x| x / 4).collect();
            let squared: i64 = (0..HIDDEN)
                .map(|i| {
                    let c = i64::from(acc[i]).clamp(0, 255);
                    c * c * i64::from(ws[i])
                })
                .sum();
            assert_eq!(screlu_dot(&acc, &ws), squared);
            assert_eq!(portable_screlu_dot(&acc, &ws), squared);
            // Beyond that range both paths wrap alike (a hostile file that
            // the reader would refuse anyway).
            assert_eq!(screlu_dot(&acc, &w), portable_screlu_dot(&acc, &w));
            let row: [i16; HIDDEN] = std::array::from_fn(|i| w[i]);
            let mut sum = acc;
            add(&mut sum, &row);
            assert!((0..HIDDEN).all(|i| sum[i] == acc[i] + row[i]));
            sub(&mut sum, &row);
            assert_eq!(sum, acc);
        }
    }
}
