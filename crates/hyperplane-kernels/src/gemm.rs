//! The dense matrix product `C = A B + beta C` (`beta` 0 or 1) on a register tile of fused
//! multiply-adds, for the products of a neural network's passes, in `f32` and `f64`.
//!
//! ```text
//! tile      R rows x 2 vectors of C in 2R registers (AVX2: R = 6, 6 x 16 in f32, 6 x 8
//!           in f64; AVX-512: R = 8, 8 x 32 and 8 x 16)
//! step k    b0, b1 = B[k, j..j+2v]   (two loads)
//!           a_r    = A[i+r, k]        (R broadcasts)
//!           acc_r += a_r * (b0, b1)   (2R fused multiply-adds)
//! element   c_ij = (sum_k a_ik b_kj, fused in the order k = 0, 1, ..., K-1) + beta c_ij
//! ```
//!
//! `B` is not packed: its rows must be contiguous (a layer's weights, a batch's deltas).
//! `A` is read in place when its rows are contiguous; a transposed view (the activations in
//! a weight gradient `a^T delta`) has each tile's rows copied side by side once, for all
//! the tiles of columns.
//!
//! A step `k` whose `R` values of `A` are all zero adds nothing to the tile (its products
//! are zeros, `B` finite) and is skipped: each tile of rows first lists its other steps.
//! Data with many zeros gain most: the pixels of an image's background, one-hot columns,
//! rectified units. On Fashion-MNIST (half the pixels zero) with 6-row tiles a sixth of the
//! steps of a batch's forward product and a third of its weight gradient's are skipped, for
//! 6% and 26% more of the product per second (of the forward product's, 32% with 6 rows and
//! 28% with 8 when the batch's rows come ordered by where their nonzero values start and
//! end, as the network's training passes them: `ZeroSpans` in neural/backprop.rs); a matrix
//! with no zeros pays only the listing (one comparison per value of `A`). Columns past a
//! multiple of the vector width go through masked loads and stores, rows past a multiple of
//! `R` through a shorter tile; every element is the same sum in the same order whichever
//! tile holds it, so splitting `C` into blocks of rows (threads), or tiles of 6 or 8 rows,
//! never changes a bit.
//!
//! The tile keeps both floating-point pipes busy (12 or 16 independent accumulators against
//! a multiply-add latency of 4-5 cycles), and its loads (R + 2 a step against 2R
//! multiply-adds) stay within two a cycle. AVX2's 16 registers hold 6 rows; AVX-512's 32
//! hold 8, whose taller tile loads each row of `B` (from the second-level cache, for a
//! layer's weights) once per 8 rows of `A` instead of 6. Measured on the products of a Fashion-MNIST batch (one thread,
//! `f32`, 100 x 784 x 100 and 784 x 200 x 100): 77 and 71 GFLOP/s against matrixmultiply's
//! 60 and 69, whose packing of both operands costs more than it saves at these sizes.
//!
//! On processors with AVX-512F the tile runs in 512-bit registers, twice the columns a
//! step and 8 rows; columns past a multiple of 32 (`f32`) or 16 (`f64`) that fit in half a
//! register (Fashion-MNIST's 100 hidden units are 3 x 32 + 4) take a 256-bit one, with
//! AVX-512VL's masked loads and stores (in tiles of fewer than 8 rows since the registers
//! shared by rows below; measured here before them). Processors that run a 512-bit operation as two
//! 256-bit halves (AMD Zen 4) then spend half the multiply-adds on them: on Zen 4 the
//! forward product of a batch (104 x 784 x 100, `f32`) took 1-5% less time and its weight
//! gradient 5% less. (AVX2's masked load, `vmaskmovps`, is slow there: the same tile with
//! it took 26-30% longer than the 512-bit one.) Each element is still the one fused sum in
//! the order `k`, so either width gives the same bits (a model trained with either tile is
//! the same model).
//! On an Intel Xeon with two 512-bit multiply-add units, a Fashion-MNIST epoch (`f32`, 2
//! threads) took 0.240 s against 0.343 s with the AVX2 tile (medians of 5 alternating
//! pairs; 1 thread 0.427 against 0.550 s; `f64` 0.450 against 0.546 s).
//!
//! Processors with two 512-bit multiply-add units (AMD Zen 5, Intel Xeon) spend a whole
//! multiply-add on a half register as on a full one, so a register a row for the last few
//! columns costs as much as 16 columns. With 8 rows, columns past a multiple of 32 (`f32`)
//! or 16 (`f64`) that fit in a quarter or a half of a register go with the tile before
//! them, in registers shared by 4 or 2 rows (`tile_tail`: the rows' broadcasts blended
//! into one multiplier, `B`'s last columns repeated in each group of lanes): 2 fused
//! multiply-adds a step for Fashion-MNIST's last 4 hidden units instead of 8. AVX-512 also
//! lists a tile's steps with a compress of the step numbers, a register at a time, where a
//! loop over each mask's bits mispredicted its exit. On Zen 5 (one thread, `f32`) the
//! forward product of a batch's group (104 x 784 x 100, rows ordered by their zeros) took
//! 56.5 us against 72 us, its weight gradient (784 x 104 x 100) 60.5 us against 74 us.
//!
//! [`product`] needs AVX2 and FMA (checked at run time) and returns `false` without
//! touching `C` on other processors or layouts; the caller then uses another product.

use ndarray::{ArrayView2, ArrayViewMut2};

/// Rows of `C` in the tallest tile (AVX-512's; AVX2's has 6).
pub const TILE_ROWS: usize = 8;

/// A floating-point type with a tile: `f32` (eight lanes with AVX2, sixteen with AVX-512)
/// or `f64` (four, eight). Sealed: only this crate implements it, and the tiles themselves
/// are reached only through [`product`].
pub trait Lanes: sealed::Tiles + Copy + 'static {}

impl Lanes for f32 {}
impl Lanes for f64 {}

mod sealed {
    /// The strides of a product (in elements) and its `beta`.
    pub struct Layout {
        pub(crate) k: usize,
        pub(crate) rsa: usize,
        pub(crate) csa: usize,
        pub(crate) rsb: usize,
        pub(crate) rsc: usize,
        pub(crate) accumulate: bool,
    }

    /// The tiles of an element type: a trait other crates cannot name, so [`super::Lanes`]
    /// has no implementation but this crate's.
    pub trait Tiles: Sized {
        /// Every tile of the `m x n` product `c = a b + beta c` (module doc).
        ///
        /// # Safety
        /// AVX2 and FMA present; `a`, `b`, `c` valid for `m`, `n` and the strides of
        /// `layout`, `b`'s and `c`'s columns contiguous.
        unsafe fn tiles(
            m: usize,
            n: usize,
            a: *const Self,
            b: *const Self,
            c: *mut Self,
            layout: &Layout,
        );
    }
}

use sealed::{Layout, Tiles};

/// `impl Tiles` for an element type, from its AVX2, AVX-512 and masked half-width vectors.
macro_rules! tiles_of {
    ($($e:ty: $narrow:ident, $wide:ident, $half:ident;)*) => {$(
        impl Tiles for $e {
            unsafe fn tiles(
                m: usize,
                n: usize,
                a: *const $e,
                b: *const $e,
                c: *mut $e,
                layout: &Layout,
            ) {
                // SAFETY: the caller's contract (`Tiles::tiles`) is that of `tiles_widest`.
                #[cfg(target_arch = "x86_64")]
                unsafe {
                    simd::tiles_widest::<simd::$narrow, simd::$wide, simd::$half>(
                        m, n, a, b, c, layout,
                    )
                };
                #[cfg(not(target_arch = "x86_64"))]
                unreachable!(
                    "no tile without AVX2 ({m} x {n}, {a:?}, {b:?}, {c:?}, {})",
                    layout.k
                )
            }
        }
    )*};
}

tiles_of! {
    f32: F32, F32x16, F32x8;
    f64: F64, F64x8, F64x4;
}

/// `c = a b + beta c` with `beta = 1` when `accumulate`, else `0` (`c`'s values unread);
/// `false`, with `c` untouched, when the processor lacks AVX2 or FMA, when `b`'s or `c`'s
/// rows are not contiguous, when a stride is negative, or when `k` needs more than 32 bits
/// (the steps of a tile are listed as `u32`).
pub fn product<T: Lanes>(
    a: ArrayView2<T>,
    b: ArrayView2<T>,
    accumulate: bool,
    mut c: ArrayViewMut2<T>,
) -> bool {
    let (m, k) = a.dim();
    let n = b.ncols();
    assert_eq!(b.nrows(), k, "the inner dimensions of a product");
    assert_eq!(c.dim(), (m, n), "the shape of a product");
    if m == 0 || n == 0 {
        return true;
    }
    let strides = [a.strides(), b.strides(), c.strides()];
    if strides.iter().flat_map(|s| s.iter()).any(|&s| s < 0)
        || (n > 1 && (c.strides()[1] != 1 || (k > 0 && b.strides()[1] != 1)))
        || u32::try_from(k).is_err()
        || !has_fma()
    {
        return false;
    }
    let layout = Layout {
        k,
        rsa: a.strides()[0] as usize,
        csa: a.strides()[1] as usize,
        rsb: b.strides()[0] as usize,
        rsc: c.strides()[0] as usize,
        accumulate,
    };
    // SAFETY: the processor has AVX2 and FMA; every tile reads `a[i.., ..k]` and
    // `b[..k, j..]` and writes `c[i.., j..]` within the views' shapes (masked past `n`),
    // through their non-negative strides, and `b`'s and `c`'s columns are contiguous.
    unsafe { T::tiles(m, n, a.as_ptr(), b.as_ptr(), c.as_mut_ptr(), &layout) };
    true
}

/// Whether the processor has AVX2 and FMA.
fn has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the processor has AVX-512F and AVX-512VL (the tile in 512-bit registers, the
/// last few columns in 256-bit ones with AVX-512's masks).
#[cfg(target_arch = "x86_64")]
fn has_avx512() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use std::arch::x86_64::*;

    use super::{Layout, TILE_ROWS};

    /// An element of a tile: `f32` or `f64`.
    pub trait Element: Copy {
        /// The element 0.
        const ZERO: Self;
        /// Whether `self` is zero (either sign).
        fn is_zero(self) -> bool;
        /// Whether every value of `row` is zero (either sign), without a branch.
        fn all_zero(row: &[Self; TILE_ROWS]) -> bool;
    }

    /// `impl Element` for `f32` and `f64`.
    macro_rules! element {
        ($($e:ty),*) => {$(
            impl Element for $e {
                const ZERO: $e = 0.0;
                #[inline(always)]
                fn is_zero(self) -> bool {
                    self == 0.0
                }
                #[inline(always)]
                fn all_zero(row: &[$e; TILE_ROWS]) -> bool {
                    row.iter().fold(0, |bits, v| bits | v.to_bits() << 1) == 0
                }
            }
        )*};
    }

    element!(f32, f64);

    /// The vector operations of a tile on one element type and register width.
    ///
    /// # Safety (of every method)
    /// The processor has the register width's target features (AVX2 and FMA; AVX-512F and
    /// AVX-512VL for the 512-bit types and the masked ones), and every pointer is valid for
    /// the lanes the method reads or writes (`WIDTH` elements, or those its mask or count
    /// names). The tile functions below call them only from `tiles_avx2` / `tiles_avx512`,
    /// compiled for those features, on addresses inside the product's views.
    pub trait Vector {
        /// The element.
        type E: Element;
        /// A register of elements.
        type R: Copy;
        /// Elements a register holds.
        const WIDTH: usize;
        /// Rows of a tile: `2 ROWS` accumulators, two registers of `B` and a broadcast
        /// within the registers (16 with AVX2, 32 with AVX-512), at most [`TILE_ROWS`].
        const ROWS: usize;
        unsafe fn zero() -> Self::R;
        unsafe fn splat(v: *const Self::E) -> Self::R;
        unsafe fn load(p: *const Self::E) -> Self::R;
        /// The first `w` elements from `p`, zeros after (nothing read past them).
        unsafe fn load_first(p: *const Self::E, w: usize) -> Self::R;
        unsafe fn store(p: *mut Self::E, v: Self::R);
        /// The first `w` elements of `v` to `p` (nothing written past them).
        unsafe fn store_first(p: *mut Self::E, w: usize, v: Self::R);
        unsafe fn add(a: Self::R, b: Self::R) -> Self::R;
        /// `a * b + c`, rounded once.
        unsafe fn fma(a: Self::R, b: Self::R, c: Self::R) -> Self::R;
        /// The lanes of the `WIDTH` elements from `p` that are not zero (NaN included), as
        /// the bits of a mask.
        unsafe fn nonzero(p: *const Self::E) -> u32;
        /// Whether one register can hold a few columns of several rows ([`tile_tail`]):
        /// AVX-512's masks.
        const TAILS: bool = false;
        /// `a` with the lanes of `mask` taken from `b`.
        unsafe fn blend(a: Self::R, b: Self::R, mask: u32) -> Self::R {
            let _ = (a, b, mask);
            unreachable!("no lane masks without AVX-512")
        }
        /// The lanes of `mask` from the elements at `p + lane`, zeros in the others; nothing
        /// else read.
        unsafe fn load_lanes(p: *const Self::E, mask: u32) -> Self::R {
            let _ = (p, mask);
            unreachable!("no lane masks without AVX-512")
        }
        /// The lanes of `mask` of `v` to `p + lane`; nothing else written.
        unsafe fn store_lanes(p: *mut Self::E, mask: u32, v: Self::R) {
            let _ = (p, mask, v);
            unreachable!("no lane masks without AVX-512")
        }
        /// Writes `kk + l` for each lane `l` of `mask`, ascending, to `out` and returns how
        /// many; writes `WIDTH` values from `out` (those past the count are left over).
        unsafe fn compress_steps(kk: u32, mask: u32, out: *mut u32) -> usize {
            let _ = (kk, mask, out);
            unreachable!("no lane masks without AVX-512")
        }
        /// The `t` elements from `p` in each group of `lanes` lanes (a power of two, at
        /// least `t`), zeros after them; nothing else read.
        unsafe fn load_spread(p: *const Self::E, t: usize, lanes: usize) -> Self::R {
            let _ = (p, t, lanes);
            unreachable!("no lane masks without AVX-512")
        }
    }

    /// `f32` in eight lanes (AVX2).
    pub struct F32;

    /// `f64` in four lanes (AVX2).
    pub struct F64;

    /// `f32` in sixteen lanes (AVX-512).
    pub struct F32x16;

    /// `f64` in eight lanes (AVX-512).
    pub struct F64x8;

    /// `f32` in eight lanes with AVX-512's masks (AVX-512VL).
    pub struct F32x8;

    /// `f64` in four lanes with AVX-512's masks (AVX-512VL).
    pub struct F64x4;

    /// The lane mask of the first `w` of `lanes` 32-bit lanes.
    #[inline(always)]
    unsafe fn mask32(w: usize) -> __m256i {
        // SAFETY: the caller runs with AVX2 (every tile function's target features).
        unsafe {
            _mm256_cmpgt_epi32(
                _mm256_set1_epi32(w as i32),
                _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
            )
        }
    }

    /// The lane mask of the first `w` of four 64-bit lanes.
    #[inline(always)]
    unsafe fn mask64(w: usize) -> __m256i {
        // SAFETY: the caller runs with AVX2 (every tile function's target features).
        unsafe { _mm256_cmpgt_epi64(_mm256_set1_epi64x(w as i64), _mm256_setr_epi64x(0, 1, 2, 3)) }
    }

    /// The mask register of the first `w` (at most 16) lanes.
    #[inline(always)]
    fn first_lanes(w: usize) -> u16 {
        ((1u32 << w) - 1) as u16
    }

    /// `impl Vector` from the intrinsics of each operation (`$mask(w)`: the mask of the
    /// first `w` lanes, as the masked load and store take it).
    macro_rules! vector {
        ($name:ident: $e:ty, $r:ty, $width:literal, rows $rows:literal, mask $mask:expr,
         zero $zero:path, set1 $set1:path, load $load:path, store $store:path,
         add $add:path, fma $fma:path,
         load_first |$lp:ident, $lm:ident| $load_first:expr,
         store_first |$sp:ident, $sm:ident, $sv:ident| $store_first:expr,
         nonzero |$v:ident| $nonzero:expr
         $(, tails $mask_type:ty: blend $blend:path, load $load_lanes:path,
             store $store_lanes:path,
             spread |$xp:ident, $xt:ident, $xl:ident| $spread:expr,
             compress |$ck:ident, $cm:ident, $co:ident| $compress:expr)?) => {
            impl Vector for $name {
                type E = $e;
                type R = $r;
                const WIDTH: usize = $width;
                const ROWS: usize = $rows;
                #[inline(always)]
                unsafe fn zero() -> $r {
                    // SAFETY: `Vector`'s contract (its target features; pointers valid for the lanes).
                    unsafe { $zero() }
                }
                #[inline(always)]
                unsafe fn splat(v: *const $e) -> $r {
                    // SAFETY: `Vector`'s contract (its target features; pointers valid for the lanes).
                    unsafe { $set1(*v) }
                }
                #[inline(always)]
                unsafe fn load(p: *const $e) -> $r {
                    // SAFETY: `Vector`'s contract (its target features; pointers valid for the lanes).
                    unsafe { $load(p) }
                }
                #[inline(always)]
                unsafe fn load_first($lp: *const $e, w: usize) -> $r {
                    // SAFETY: `Vector`'s contract (its target features; pointers valid for the lanes).
                    unsafe {
                        let $lm = $mask(w);
                        $load_first
                    }
                }
                #[inline(always)]
                unsafe fn store(p: *mut $e, v: $r) {
                    // SAFETY: `Vector`'s contract (its target features; pointers valid for the lanes).
                    unsafe { $store(p, v) }
                }
                #[inline(always)]
                unsafe fn store_first($sp: *mut $e, w: usize, $sv: $r) {
                    // SAFETY: `Vector`'s contract (its target features; pointers valid for the lanes).
                    unsafe {
                        let $sm = $mask(w);
                        $store_first
                    }
                }
                #[inline(always)]
                unsafe fn add(a: $r, b: $r) -> $r {
                    // SAFETY: `Vector`'s contract (its target features; pointers valid for the lanes).
                    unsafe { $add(a, b) }
                }
                #[inline(always)]
                unsafe fn fma(a: $r, b: $r, c: $r) -> $r {
                    // SAFETY: `Vector`'s contract (its target features; pointers valid for the lanes).
                    unsafe { $fma(a, b, c) }
                }
                #[inline(always)]
                unsafe fn nonzero(p: *const $e) -> u32 {
                    // SAFETY: `Vector`'s contract (its target features; pointers valid for the lanes).
                    unsafe {
                        let $v = $load(p);
                        $nonzero
                    }
                }
                $(
                    const TAILS: bool = true;
                    #[inline(always)]
                    unsafe fn blend(a: $r, b: $r, mask: u32) -> $r {
                        // SAFETY: `Vector`'s contract (its target features; pointers valid for the lanes).
                        unsafe { $blend(a, mask as $mask_type, b) }
                    }
                    #[inline(always)]
                    unsafe fn load_lanes(p: *const $e, mask: u32) -> $r {
                        // SAFETY: `Vector`'s contract (its target features; pointers valid for the lanes).
                        unsafe { $load_lanes(mask as $mask_type, p) }
                    }
                    #[inline(always)]
                    unsafe fn store_lanes(p: *mut $e, mask: u32, v: $r) {
                        // SAFETY: `Vector`'s contract (its target features; pointers valid for the lanes).
                        unsafe { $store_lanes(p, mask as $mask_type, v) }
                    }
                    #[inline(always)]
                    unsafe fn load_spread($xp: *const $e, $xt: usize, $xl: usize) -> $r {
                        // SAFETY: `Vector`'s contract (its target features; pointers valid for the lanes).
                        unsafe { $spread }
                    }
                    #[inline(always)]
                    unsafe fn compress_steps($ck: u32, $cm: u32, $co: *mut u32) -> usize {
                        // SAFETY: `Vector`'s contract (its target features; pointers valid for the lanes).
                        unsafe {
                            $compress;
                            $cm.count_ones() as usize
                        }
                    }
                )?
            }
        };
    }

    vector!(F32: f32, __m256, 8, rows 6, mask mask32,
        zero _mm256_setzero_ps, set1 _mm256_set1_ps, load _mm256_loadu_ps,
        store _mm256_storeu_ps, add _mm256_add_ps, fma _mm256_fmadd_ps,
        load_first |p, m| _mm256_maskload_ps(p, m),
        store_first |p, m, v| _mm256_maskstore_ps(p, m, v),
        nonzero |v| _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_NEQ_UQ>(v, _mm256_setzero_ps())) as u32);

    vector!(F64: f64, __m256d, 4, rows 6, mask mask64,
        zero _mm256_setzero_pd, set1 _mm256_set1_pd, load _mm256_loadu_pd,
        store _mm256_storeu_pd, add _mm256_add_pd, fma _mm256_fmadd_pd,
        load_first |p, m| _mm256_maskload_pd(p, m),
        store_first |p, m, v| _mm256_maskstore_pd(p, m, v),
        nonzero |v| _mm256_movemask_pd(_mm256_cmp_pd::<_CMP_NEQ_UQ>(v, _mm256_setzero_pd())) as u32);

    vector!(F32x16: f32, __m512, 16, rows 8, mask first_lanes,
    zero _mm512_setzero_ps, set1 _mm512_set1_ps, load _mm512_loadu_ps,
    store _mm512_storeu_ps, add _mm512_add_ps, fma _mm512_fmadd_ps,
    load_first |p, m| _mm512_maskz_loadu_ps(m, p),
    store_first |p, m, v| _mm512_mask_storeu_ps(p, m, v),
    nonzero |v| u32::from(_mm512_cmp_ps_mask::<_CMP_NEQ_UQ>(v, _mm512_setzero_ps())),
    tails u16: blend _mm512_mask_mov_ps, load _mm512_maskz_loadu_ps,
        store _mm512_mask_storeu_ps,
        spread |p, t, lanes| _mm512_permutexvar_ps(
            _mm512_and_si512(
                _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                _mm512_set1_epi32(lanes as i32 - 1),
            ),
            _mm512_maskz_loadu_ps(first_lanes(t), p),
        ),
        compress |kk, mask, out| _mm512_storeu_si512(
            out.cast(),
            _mm512_maskz_compress_epi32(
                mask as u16,
                _mm512_add_epi32(
                    _mm512_set1_epi32(kk as i32),
                    _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                ),
            ),
        ));

    vector!(F32x8: f32, __m256, 8, rows 8, mask first_lanes,
        zero _mm256_setzero_ps, set1 _mm256_set1_ps, load _mm256_loadu_ps,
        store _mm256_storeu_ps, add _mm256_add_ps, fma _mm256_fmadd_ps,
        load_first |p, m| _mm256_maskz_loadu_ps(m as u8, p),
        store_first |p, m, v| _mm256_mask_storeu_ps(p, m as u8, v),
        nonzero |v| u32::from(_mm256_cmp_ps_mask::<_CMP_NEQ_UQ>(v, _mm256_setzero_ps())));

    vector!(F64x4: f64, __m256d, 4, rows 8, mask first_lanes,
        zero _mm256_setzero_pd, set1 _mm256_set1_pd, load _mm256_loadu_pd,
        store _mm256_storeu_pd, add _mm256_add_pd, fma _mm256_fmadd_pd,
        load_first |p, m| _mm256_maskz_loadu_pd(m as u8, p),
        store_first |p, m, v| _mm256_mask_storeu_pd(p, m as u8, v),
        nonzero |v| u32::from(_mm256_cmp_pd_mask::<_CMP_NEQ_UQ>(v, _mm256_setzero_pd())));

    vector!(F64x8: f64, __m512d, 8, rows 8, mask first_lanes,
    zero _mm512_setzero_pd, set1 _mm512_set1_pd, load _mm512_loadu_pd,
    store _mm512_storeu_pd, add _mm512_add_pd, fma _mm512_fmadd_pd,
    load_first |p, m| _mm512_maskz_loadu_pd(m as u8, p),
    store_first |p, m, v| _mm512_mask_storeu_pd(p, m as u8, v),
    nonzero |v| u32::from(_mm512_cmp_pd_mask::<_CMP_NEQ_UQ>(v, _mm512_setzero_pd())),
    tails u8: blend _mm512_mask_mov_pd, load _mm512_maskz_loadu_pd,
        store _mm512_mask_storeu_pd,
        spread |p, t, lanes| _mm512_permutexvar_pd(
            _mm512_and_si512(
                _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7),
                _mm512_set1_epi64(lanes as i64 - 1),
            ),
            _mm512_maskz_loadu_pd(first_lanes(t) as u8, p),
        ),
        compress |kk, mask, out| _mm256_storeu_si256(
            out.cast(),
            _mm256_maskz_compress_epi32(
                mask as u8,
                _mm256_add_epi32(
                    _mm256_set1_epi32(kk as i32),
                    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                ),
            ),
        ));

    /// Every tile of the `m x n` product (module doc), tiles of rows outside, of columns
    /// inside. When `A`'s rows are not contiguous (a transposed view), each tile of rows
    /// first copies its rows of `A` into a strip, `strip[6 k + r] = A[i + r, k]`, so that
    /// the tiles of columns read them from a few cache lines rather than one line (and
    /// page) per `k`. Each tile of rows lists its steps `k` where `A` is not all zero
    /// (while copying the strip, or by [`nonzero_steps`]); its tiles take only those when
    /// some are left out.
    ///
    /// # Safety
    /// AVX2 and FMA present; `a`, `b`, `c` valid for the shapes and strides of `layout`.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn tiles_avx2<V: Vector>(
        m: usize,
        n: usize,
        a: *const V::E,
        b: *const V::E,
        c: *mut V::E,
        layout: &Layout,
    ) {
        // SAFETY: the contract above: AVX2 and FMA present, the pointers valid for `layout`.
        unsafe { tiles::<V, V>(m, n, a, b, c, layout) }
    }

    /// [`tiles_avx2`] in AVX-512's registers, twice as wide (each element the same sum).
    ///
    /// # Safety
    /// AVX-512F present; `a`, `b`, `c` valid for the shapes and strides of `layout`.
    #[target_feature(enable = "avx512f,avx512vl,avx2,fma")]
    pub unsafe fn tiles_avx512<V: Vector, H: Vector<E = V::E>>(
        m: usize,
        n: usize,
        a: *const V::E,
        b: *const V::E,
        c: *mut V::E,
        layout: &Layout,
    ) {
        // SAFETY: the contract above: AVX-512F/VL present, the pointers valid for `layout`.
        unsafe { tiles::<V, H>(m, n, a, b, c, layout) }
    }

    /// [`tiles_avx512`] on `W` when the processor has AVX-512F, else [`tiles_avx2`] on `N`.
    ///
    /// # Safety
    /// AVX2 and FMA present; `a`, `b`, `c` valid for the shapes and strides of `layout`.
    pub unsafe fn tiles_widest<N: Vector, W: Vector<E = N::E>, H: Vector<E = N::E>>(
        m: usize,
        n: usize,
        a: *const N::E,
        b: *const N::E,
        c: *mut N::E,
        layout: &Layout,
    ) {
        // SAFETY: AVX-512F/VL checked just now for the wider tile; AVX2, FMA and the pointers
        // by the contract above.
        unsafe {
            if super::has_avx512() {
                tiles_avx512::<W, H>(m, n, a, b, c, layout)
            } else {
                tiles_avx2::<N>(m, n, a, b, c, layout)
            }
        }
    }

    /// The body of [`tiles_avx2`] and [`tiles_avx512`], compiled into each.
    #[inline(always)]
    unsafe fn tiles<V: Vector, H: Vector<E = V::E>>(
        m: usize,
        n: usize,
        a: *const V::E,
        b: *const V::E,
        c: *mut V::E,
        layout: &Layout,
    ) {
        // SAFETY: the contract of `tiles_avx2` / `tiles_avx512`: the target features of `V` and
        // `H`, and `a`, `b`, `c` valid for `m`, `n` and `layout`, so every offset below stays
        // inside them: rows `i + r < m`, steps `kk < k`, columns `j + w <= n`.
        unsafe {
            let cols = 2 * V::WIDTH;
            let k = layout.k;
            // columns past the last multiple of `cols` that fit in one of `H`'s registers
            let half = H::WIDTH < V::WIDTH;
            let mut strip: Vec<V::E> = Vec::new();
            if layout.csa != 1 {
                strip.resize(k * TILE_ROWS, V::E::ZERO);
            }
            // the last `tail` columns, past the last whole tile, that one register holds for
            // `per` rows at once in a full tile of rows ([`tile_tail`]); `B`'s rows of them
            // packed, `per` times each, one register a step
            let tail = n % cols;
            let per = match tail {
                _ if !V::TAILS || n < cols || m < V::ROWS => 0,
                1.. if tail <= V::WIDTH / 4 => 4,
                1.. if tail <= V::WIDTH / 2 => 2,
                _ => 0,
            };
            let mut packed: Vec<V::R> = Vec::new();
            if let Some(lanes) = V::WIDTH.checked_div(per) {
                packed.reserve(k);
                let from = b.add(n - tail);
                // a loop, not a closure: the closure would be compiled without AVX-512 and call
                // each intrinsic
                for kk in 0..k {
                    packed.push(V::load_spread(from.add(kk * layout.rsb), tail, lanes));
                }
            }
            // the steps `k` of a tile of rows whose values of `A` are not all zero
            let mut steps: Vec<u32> = Vec::with_capacity(k);
            for i in (0..m).step_by(V::ROWS) {
                let rows = (m - i).min(V::ROWS);
                let a = a.add(i * layout.rsa);
                steps.clear();
                let (a, rsa, csa) = if layout.csa == 1 {
                    nonzero_steps::<V>(a, rows, layout.rsa, k, &mut steps);
                    (a, layout.rsa, 1)
                } else {
                    let to = strip.as_mut_ptr();
                    // written in place of `push`, one step at a time, taken or not (no branch)
                    let out = steps.as_mut_ptr();
                    let mut count = 0;
                    for kk in 0..k {
                        let from = a.add(kk * layout.csa);
                        let mut row = [V::E::ZERO; TILE_ROWS];
                        if layout.rsa == 1 && rows == V::ROWS {
                            // side by side: a copy of a constant length
                            for (r, v) in row.iter_mut().enumerate().take(V::ROWS) {
                                *v = *from.add(r);
                            }
                        } else {
                            for (r, v) in row.iter_mut().enumerate().take(rows) {
                                *v = *from.add(r * layout.rsa);
                            }
                        }
                        to.add(kk * TILE_ROWS)
                            .cast::<[V::E; TILE_ROWS]>()
                            .write_unaligned(row);
                        *out.add(count) = kk as u32;
                        count += usize::from(!V::E::all_zero(&row));
                    }
                    // SAFETY: the first `count <= k` steps were written, within the capacity
                    steps.set_len(count);
                    (strip.as_ptr(), 1, TILE_ROWS)
                };
                let listed = steps.len() < k;
                let c = c.add(i * layout.rsc);
                let fused = per > 0 && rows == V::ROWS;
                // the columns of the plain tiles: all, or those before the tile with the tail
                let plain = if fused { n - tail - cols } else { n };
                if fused {
                    let at = Strip { a, rsa, csa };
                    let (b, c) = (b.add(plain), c.add(plain));
                    let tail = Tail {
                        packed: &packed,
                        width: tail,
                    };
                    match (per, listed) {
                        (4, true) => tile_tail::<V, 4, true>(&at, &steps, b, &tail, c, layout),
                        (4, false) => tile_tail::<V, 4, false>(&at, &[], b, &tail, c, layout),
                        (_, true) => tile_tail::<V, 2, true>(&at, &steps, b, &tail, c, layout),
                        (_, false) => tile_tail::<V, 2, false>(&at, &[], b, &tail, c, layout),
                    }
                }
                for j in (0..plain).step_by(cols) {
                    let w = (n - j).min(cols);
                    let (b, c) = (b.add(j), c.add(j));
                    let at = Strip { a, rsa, csa };
                    macro_rules! tile {
                        ($v:ty, $r:literal, $n:literal, $masked:literal) => {
                            if listed {
                                tile::<$v, $r, $n, $masked, true>(&at, &steps, b, c, w, layout)
                            } else {
                                tile::<$v, $r, $n, $masked, false>(&at, &[], b, c, w, layout)
                            }
                        };
                        ($r:literal, $n:literal, $masked:literal) => {
                            tile!(V, $r, $n, $masked)
                        };
                        ($r:literal) => {
                            if half && w <= H::WIDTH {
                                tile!(H, $r, 1, true)
                            } else if w == cols {
                                tile!($r, 2, false)
                            } else if w > V::WIDTH {
                                tile!($r, 2, true)
                            } else {
                                tile!($r, 1, true)
                            }
                        };
                    }
                    match rows {
                        8 => tile!(8),
                        7 => tile!(7),
                        6 => tile!(6),
                        5 => tile!(5),
                        4 => tile!(4),
                        3 => tile!(3),
                        2 => tile!(2),
                        _ => tile!(1),
                    }
                }
            }
        }
    }

    /// `steps` = the `k` (ascending) at which some of the `rows` rows of `A` from `a` (row
    /// stride `rsa`, columns contiguous) is not zero.
    #[inline(always)]
    unsafe fn nonzero_steps<V: Vector>(
        a: *const V::E,
        rows: usize,
        rsa: usize,
        k: usize,
        steps: &mut Vec<u32>,
    ) {
        // SAFETY: `a` holds `rows` rows of `k` values at stride `rsa` (the caller's tile of
        // rows), and `steps` has room for `whole + WIDTH` steps past those it holds, so each
        // compressed store stays inside it.
        unsafe {
            let whole = k - k % V::WIDTH;
            // AVX-512: each register's steps written at once, compressed (no branch a step)
            steps.reserve(whole + V::WIDTH);
            let out = steps.as_mut_ptr();
            let mut count = steps.len();
            for kk in (0..whole).step_by(V::WIDTH) {
                let mut lanes = 0;
                for r in 0..rows {
                    lanes |= V::nonzero(a.add(r * rsa + kk));
                }
                if V::TAILS {
                    count += V::compress_steps(kk as u32, lanes, out.add(count));
                    continue;
                }
                while lanes != 0 {
                    *out.add(count) = (kk + lanes.trailing_zeros() as usize) as u32;
                    count += 1;
                    lanes &= lanes - 1;
                }
            }
            // SAFETY: the first `count <= whole` steps were written, within the capacity
            steps.set_len(count);
            for kk in whole..k {
                if (0..rows).any(|r| !(*a.add(r * rsa + kk)).is_zero()) {
                    steps.push(kk as u32);
                }
            }
        }
    }

    /// The last columns of `B` for [`tile_tail`]: `width` of them, packed so that step `k`
    /// reads one register, `packed[k]`, holding them once per group of lanes.
    struct Tail<'p, R> {
        packed: &'p [R],
        width: usize,
    }

    /// A tile of all [`TILE_ROWS`] rows and `2 WIDTH + t` columns, `t <= WIDTH / PER`: the
    /// whole registers as [`tile`] has them, and the last `t` columns of `PER` rows in one
    /// register, lane group `q` (of `WIDTH / PER` lanes) for row `q` of the group, its
    /// multiplier the rows' broadcasts blended together. Fashion-MNIST's 100 hidden units
    /// (`f32`: 3 x 32 + 4) take two registers of 4 rows for their last 4 columns, 2 fused
    /// multiply-adds a step where a register a row (masked) takes 8. Every element is the
    /// same fused sum in the order `k` as in [`tile`].
    #[inline(always)]
    unsafe fn tile_tail<V: Vector, const PER: usize, const LISTED: bool>(
        strip: &Strip<V::E>,
        steps: &[u32],
        b: *const V::E,
        tail: &Tail<V::R>,
        c: *mut V::E,
        layout: &Layout,
    ) {
        // SAFETY: the caller's tile: `strip` and `b` valid for every step, `c` for the tile's `R`
        // rows and `2 WIDTH + tail.width` columns, `tail.packed` one register per step.
        unsafe {
            const R: usize = TILE_ROWS;
            let groups = R / PER;
            let lanes = V::WIDTH / PER;
            let mut acc = [[V::zero(); 2]; R];
            let mut tacc = [V::zero(); R / 2];
            each_step::<V::E, LISTED>(strip, steps, b, layout, |kk, a, b| {
                let bk = [V::load(b), V::load(b.add(V::WIDTH))];
                let bt = *tail.packed.get_unchecked(kk);
                let mut blended = [V::zero(); R / 2];
                for (r, acc) in acc.iter_mut().enumerate() {
                    let ar = V::splat(a.add(r * strip.rsa));
                    for (acc, &bk) in acc.iter_mut().zip(&bk) {
                        *acc = V::fma(ar, bk, *acc);
                    }
                    let (g, q) = (r / PER, r % PER);
                    blended[g] = if q == 0 {
                        ar
                    } else {
                        V::blend(blended[g], ar, lane_mask(q * lanes, lanes))
                    };
                }
                for (tacc, &blended) in tacc.iter_mut().zip(&blended).take(groups) {
                    *tacc = V::fma(blended, bt, *tacc);
                }
            });
            store_tile::<V, R, 2, false>(&acc, c, [V::WIDTH; 2], layout);
            for r in 0..R {
                // row `r`'s lanes of its group's register, stored from where lane 0 would go
                // (the lanes before are masked: nothing there is read or written)
                let q = r % PER;
                let mask = lane_mask(q * lanes, tail.width);
                let at = c.add(r * layout.rsc + 2 * V::WIDTH).wrapping_sub(q * lanes);
                let mut x = tacc[r / PER];
                if layout.accumulate {
                    x = V::add(x, V::load_lanes(at, mask));
                }
                V::store_lanes(at, mask, x);
            }
        }
    }

    /// `f(k, a, b)` for each step `k` of a tile, in order (those in `steps` when `LISTED`,
    /// else `0..K`), with `a` its first row's value of `A` and `b` its row of `B`.
    #[inline(always)]
    unsafe fn each_step<E, const LISTED: bool>(
        strip: &Strip<E>,
        steps: &[u32],
        b: *const E,
        layout: &Layout,
        mut f: impl FnMut(usize, *const E, *const E),
    ) {
        // SAFETY: `strip` and `b` valid for every step `kk < layout.k` (the caller's tile).
        unsafe {
            let mut at = |kk: usize| f(kk, strip.a.add(kk * strip.csa), b.add(kk * layout.rsb));
            if LISTED {
                steps.iter().for_each(|&kk| at(kk as usize));
            } else {
                (0..layout.k).for_each(at);
            }
        }
    }

    /// The mask of `count` lanes from lane `first`.
    #[inline(always)]
    fn lane_mask(first: usize, count: usize) -> u32 {
        ((1u32 << count) - 1) << first
    }

    /// A tile's rows of `A`: element `(r, k)` at `a + r rsa + k csa`.
    struct Strip<E> {
        a: *const E,
        rsa: usize,
        csa: usize,
    }

    /// One tile: `R` rows of `C` from `c`, `w` columns in `N` registers a row (all
    /// `N V::WIDTH` columns unless `MASKED`), over the steps `k = 0, ..., K-1`, or only
    /// those in `steps` when `LISTED`.
    #[inline(always)]
    unsafe fn tile<
        V: Vector,
        const R: usize,
        const N: usize,
        const MASKED: bool,
        const LISTED: bool,
    >(
        strip: &Strip<V::E>,
        steps: &[u32],
        b: *const V::E,
        c: *mut V::E,
        w: usize,
        layout: &Layout,
    ) {
        // SAFETY: the caller's tile: `strip` and `b` valid for every step, `c` for `R` rows of `w`
        // columns (masked past `w`).
        unsafe {
            let widths = [w.min(V::WIDTH), w.saturating_sub(V::WIDTH)];
            let mut acc = [[V::zero(); N]; R];
            each_step::<V::E, LISTED>(strip, steps, b, layout, |_, a, b| {
                let mut bk = [V::zero(); N];
                for (v, bk) in bk.iter_mut().enumerate() {
                    let p = b.add(v * V::WIDTH);
                    *bk = if MASKED {
                        V::load_first(p, widths[v])
                    } else {
                        V::load(p)
                    };
                }
                for (r, acc) in acc.iter_mut().enumerate() {
                    let ar = V::splat(a.add(r * strip.rsa));
                    for (acc, &bk) in acc.iter_mut().zip(&bk) {
                        *acc = V::fma(ar, bk, *acc);
                    }
                }
            });
            store_tile::<V, R, N, MASKED>(&acc, c, widths, layout);
        }
    }

    /// A tile's `R` rows of `C` from `c`: its accumulators plus `beta c`, register `v` of
    /// a row on `widths[v]` columns when `MASKED`, else whole.
    #[inline(always)]
    unsafe fn store_tile<V: Vector, const R: usize, const N: usize, const MASKED: bool>(
        acc: &[[V::R; N]; R],
        c: *mut V::E,
        widths: [usize; 2],
        layout: &Layout,
    ) {
        // SAFETY: `c` valid for `R` rows at stride `rsc`, `widths` (or whole registers) a row.
        unsafe {
            for (r, acc) in acc.iter().enumerate() {
                for (v, &x) in acc.iter().enumerate() {
                    let c = c.add(r * layout.rsc + v * V::WIDTH);
                    let mut x = x;
                    if MASKED {
                        if layout.accumulate {
                            x = V::add(x, V::load_first(c, widths[v]));
                        }
                        V::store_first(c, widths[v], x);
                    } else {
                        if layout.accumulate {
                            x = V::add(x, V::load(c));
                        }
                        V::store(c, x);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use ndarray::{Array2, ShapeBuilder};

    use super::*;

    /// `a b + beta c` by sums in `f64`.
    fn reference(a: &Array2<f64>, b: &Array2<f64>, beta: f64, c: &Array2<f64>) -> Array2<f64> {
        Array2::from_shape_fn(c.dim(), |(i, j)| {
            (0..a.ncols()).map(|k| a[[i, k]] * b[[k, j]]).sum::<f64>() + beta * c[[i, j]]
        })
    }

    fn values(rows: usize, cols: usize, seed: usize) -> Array2<f64> {
        Array2::from_shape_fn((rows, cols), |(i, j)| {
            (((i * 31 + j * 17 + seed * 7) % 23) as f64 - 11.0) / 8.0
        })
    }

    #[test]
    fn every_tile_shape_and_layout_gives_the_product() {
        if !has_fma() {
            return;
        }
        // rows past a multiple of 6, columns past a multiple of 16 and 8, k of 0 and 1
        for (m, k, n) in [(13, 7, 21), (6, 1, 16), (1, 0, 3), (20, 33, 5), (7, 4, 32)] {
            for transposed in [false, true] {
                let a = values(m, k, 1);
                let a_store = if transposed {
                    // `a` as the transpose of a row-major matrix: column-major
                    let mut t = Array2::zeros((m, k).f());
                    t.assign(&a);
                    t
                } else {
                    a.clone()
                };
                let b = values(k, n, 2);
                let c0 = values(m, n, 3);
                for accumulate in [false, true] {
                    let expected = reference(&a, &b, f64::from(u8::from(accumulate)), &c0);
                    let mut c = c0.clone();
                    assert!(product(a_store.view(), b.view(), accumulate, c.view_mut()));
                    // the values are multiples of 1/8 with short sums: exact in f64 and f32
                    assert_eq!(c, expected, "{m}x{k}x{n}, transposed {transposed}");
                    let mut c32 = c0.mapv(|v| v as f32);
                    let (a32, b32) = (a_store.mapv(|v| v as f32), b.mapv(|v| v as f32));
                    assert!(product(a32.view(), b32.view(), accumulate, c32.view_mut()));
                    assert_eq!(c32, expected.mapv(|v| v as f32));
                }
            }
        }
    }

    #[test]
    fn steps_where_a_is_zero_are_left_out_exactly() {
        if !has_fma() {
            return;
        }
        // zero columns of `a` in some tiles of rows (the first tile's rows with either
        // height, 6 or 8; the short last tile's, 12..15 or 8..15), a -0.0 among them, and a
        // zero column in only some rows of a tile (not skipped)
        let (m, k, n) = (15, 21, 19);
        let mut a = values(m, k, 4);
        for kk in [0, 3, 4, 5, 8, 9, 10, 11, 12, 20] {
            a.slice_mut(ndarray::s![0..8, kk]).fill(0.0);
        }
        for kk in [3, 4, 11, 20] {
            a.slice_mut(ndarray::s![8..15, kk]).fill(0.0);
        }
        a[[2, 3]] = -0.0;
        a.slice_mut(ndarray::s![6..9, 7]).fill(0.0);
        let b = values(k, n, 5);
        let c0 = values(m, n, 6);
        let expected = reference(&a, &b, 1.0, &c0);
        let mut t = Array2::zeros((m, k).f());
        t.assign(&a);
        for a_store in [a.clone(), t] {
            let mut c = c0.clone();
            assert!(product(a_store.view(), b.view(), true, c.view_mut()));
            assert_eq!(c, expected);
            let mut c32 = c0.mapv(|v| v as f32);
            let (a32, b32) = (a_store.mapv(|v| v as f32), b.mapv(|v| v as f32));
            assert!(product(a32.view(), b32.view(), true, c32.view_mut()));
            assert_eq!(c32, expected.mapv(|v| v as f32));
        }
        // a whole column of `a` zero: the product leaves those rows' sums to `c`
        let zero = Array2::<f64>::zeros((7, 3));
        let mut c = c0.slice(ndarray::s![0..7, 0..4]).to_owned();
        assert!(product(
            zero.view(),
            values(3, 4, 7).view(),
            true,
            c.view_mut()
        ));
        assert_eq!(c, c0.slice(ndarray::s![0..7, 0..4]));
    }

    #[test]
    fn a_block_of_rows_gives_the_same_bits_as_the_whole() {
        if !has_fma() {
            return;
        }
        let a = Array2::from_shape_fn((19, 50), |(i, j)| ((i * 7 + j) as f32).sin());
        let b = Array2::from_shape_fn((50, 21), |(i, j)| ((i + 3 * j) as f32).cos());
        let mut whole = Array2::zeros((19, 21));
        assert!(product(a.view(), b.view(), false, whole.view_mut()));
        let mut parts = Array2::zeros((19, 21));
        for (start, end) in [(0, 4), (4, 11), (11, 19)] {
            let block = parts.slice_mut(ndarray::s![start..end, ..]);
            assert!(product(
                a.slice(ndarray::s![start..end, ..]),
                b.view(),
                false,
                block
            ));
        }
        assert_eq!(whole, parts);
    }

    /// `c = a b + beta c` through [`simd::tiles_avx2`] and, where the processor has
    /// AVX-512F, through [`simd::tiles_avx512`], for `f32` and `f64`.
    #[cfg(target_arch = "x86_64")]
    fn both_widths<T: Lanes + PartialEq + std::fmt::Debug>(
        a: ArrayView2<T>,
        b: &Array2<T>,
        accumulate: bool,
        c: &Array2<T>,
        narrow: unsafe fn(usize, usize, *const T, *const T, *mut T, &Layout),
        wide: unsafe fn(usize, usize, *const T, *const T, *mut T, &Layout),
    ) -> Option<(Array2<T>, Array2<T>)> {
        if !(has_fma() && has_avx512()) {
            return None;
        }
        let layout = Layout {
            k: a.ncols(),
            rsa: a.strides()[0] as usize,
            csa: a.strides()[1] as usize,
            rsb: b.strides()[0] as usize,
            rsc: c.strides()[0] as usize,
            accumulate,
        };
        let (m, n) = c.dim();
        let (mut c2, mut c5) = (c.clone(), c.clone());
        // SAFETY: AVX2, FMA and AVX-512F present; the views' shapes and strides as `product`
        // passes them.
        unsafe {
            narrow(m, n, a.as_ptr(), b.as_ptr(), c2.as_mut_ptr(), &layout);
            wide(m, n, a.as_ptr(), b.as_ptr(), c5.as_mut_ptr(), &layout);
        }
        Some((c2, c5))
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn wide_registers_give_the_same_bits_as_narrow_ones() {
        // values with long sums (rounding in every step), a fifth of them zero (skipped
        // steps), column counts past multiples of 16, 8 and 4, rows past multiples of 6
        let value = |i: usize, j: usize, seed: usize| {
            let h = (i * 7919 + j * 104_729 + seed * 1_299_709) % 1009;
            if h.is_multiple_of(5) {
                0.0
            } else {
                ((h as f64) * 0.618_034).sin()
            }
        };
        let mut compared = 0;
        // (the last columns of whole tiles of 8 rows in registers shared by 4 or 2 rows:
        // 100 = 3 x 32 + 4 and 6 x 16 + 4, 34 = 32 + 2 and 2 x 16 + 2, 40 = 32 + 8)
        for (m, k, n) in [
            (13, 200, 100),
            (6, 33, 37),
            (20, 784, 10),
            (7, 5, 3),
            (16, 50, 34),
            (24, 30, 40),
        ] {
            let a = Array2::from_shape_fn((m, k), |(i, j)| value(i, j, 1));
            let mut t = Array2::zeros((m, k).f());
            t.assign(&a);
            let b = Array2::from_shape_fn((k, n), |(i, j)| value(i, j, 2));
            let c = Array2::from_shape_fn((m, n), |(i, j)| value(i, j, 3));
            for a in [a.view(), t.view()] {
                for accumulate in [false, true] {
                    let wide = both_widths(
                        a,
                        &b,
                        accumulate,
                        &c,
                        simd::tiles_avx2::<simd::F64>,
                        simd::tiles_avx512::<simd::F64x8, simd::F64x4>,
                    );
                    let Some((c2, c5)) = wide else { return };
                    assert_eq!(c2.mapv(f64::to_bits), c5.mapv(f64::to_bits), "{m}x{k}x{n}");
                    let (a32, b32, c32) = (
                        a.mapv(|v| v as f32),
                        b.mapv(|v| v as f32),
                        c.mapv(|v| v as f32),
                    );
                    let (c2, c5) = both_widths(
                        a32.view(),
                        &b32,
                        accumulate,
                        &c32,
                        simd::tiles_avx2::<simd::F32>,
                        simd::tiles_avx512::<simd::F32x16, simd::F32x8>,
                    )
                    .expect("the same processor");
                    assert_eq!(c2.mapv(f32::to_bits), c5.mapv(f32::to_bits), "{m}x{k}x{n}");
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 24);
    }

    #[test]
    fn columns_that_are_not_contiguous_are_left_to_another_product() {
        let b = values(4, 3, 0);
        let mut c = Array2::zeros((2, 4));
        assert!(!product(values(2, 3, 1).view(), b.t(), false, c.view_mut()));
        assert_eq!(c, Array2::<f64>::zeros((2, 4)));
    }
}
