#!/usr/bin/env bash
# Runs the kernels crate's unit tests under miri (nightly), which checks every unsafe
# operation they reach for undefined behaviour: once as built for the baseline x86-64
# (the CSR kernels, prefetch, SIMD dispatch, the counting allocator's logic), once with
# AVX2 and FMA enabled so the matrix-product tiles run through miri's AVX2 shims.
#
# What miri cannot run, and why:
# - os::tests::a_large_buffer_is_an_ordinary_vector calls madvise, a foreign function
#   (ignored under miri by its attribute);
# - the AVX-512 tiles: miri has no shims for AVX-512's permutes and compresses, so with
#   AVX-512 the processor runs them natively (gemm's tests compare them bit for bit with
#   the AVX2 tiles on every machine that has AVX-512), and miri checks the AVX2 tiles,
#   whose pointer arithmetic (the strip, the step lists, masked stores) is the same code;
#   only `tile_tail` (the last columns of 4 or 2 rows in one register) is AVX-512's alone.
#
# Needs: rustup toolchain nightly with the miri and rust-src components.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo +nightly miri test -p hyperplane-kernels
RUSTFLAGS="-C target-feature=+avx2,+fma" cargo +nightly miri test -p hyperplane-kernels gemm
