//! # hyperplane-kernels
//!
//! The low-level kernels of [hyperplane](https://example.invalid/hyperplane), and every line
//! of its `unsafe` code; the library and the command line above it deny `unsafe`.
//!
//! | module | what it holds | what its `unsafe` relies on |
//! |---|---|---|
//! | [`gemm`] | `C = A B + beta C` on register tiles (AVX2 / AVX-512), for the neural network | run-time feature checks; offsets inside the views' shapes |
//! | [`csr`] | `x . w` and `out += alpha x` over a CSR row | [`csr::Columns`]: every index checked below `n_cols` once, when built |
//! | [`prefetch`] | hints that memory is read soon | a prefetch reads nothing and cannot fault |
//! | [`simd`] | a closure compiled for the widest vector registers present | run-time feature checks |
//! | [`os`] | huge pages for large buffers, the allocator's thresholds | the range lies inside the buffer; the calls change no content |
//! | [`alloc`] | a global allocator that counts live bytes (for tests) | every call forwarded to the system allocator |
//!
//! The policy: each `unsafe` block states its invariant in a `SAFETY:` comment
//! (`clippy::undocumented_unsafe_blocks` denies one without) and is as small as the
//! operation that needs it, but for the `gemm` tile functions, pointer arithmetic
//! throughout, whose bodies are one block each under the function's contract; each `unsafe fn` documents its contract under `# Safety`, and its body's unsafe
//! operations still sit in blocks of their own (`unsafe_op_in_unsafe_fn`). Traits whose
//! methods carry such a contract are sealed: no other crate can implement them. Every
//! public function is safe to call with any arguments: a contract that arguments break
//! is a panic (a length assertion) or a `false` / `Err`, never undefined behaviour.

// The one crate where `unsafe` is allowed; the workspace's lints deny an unsafe operation
// outside an `unsafe` block (also inside an `unsafe fn`) and a block without its `SAFETY:`.
#![allow(unsafe_code)]

pub mod alloc;
pub mod csr;
pub mod gemm;
pub mod os;
pub mod prefetch;
pub mod simd;
