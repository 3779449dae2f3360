//! Borrowed data is not copied: every registered kind fits and predicts on a CSR matrix
//! over the test's own slices (int32 indices, f32 values, as scipy lends them) and on
//! dense views (column-major `f64`, row-major and column-major `f32`), while a counting
//! allocator records the most memory allocated at once. A learner that copied the matrix
//! would allocate at least its size.

use std::sync::Mutex;

use hyperplane::data::{CsrView, Dataset, Features, Label};
use hyperplane::estimator::Task;
use hyperplane::neural::MlpModel;
use hyperplane::pipeline::{registry, Learner, Model};
use hyperplane::svm::{SupportVectors, SvmModel};
use hyperplane::{Classifier, Params};
use hyperplane_kernels::alloc::Counting;
use ndarray::{Array2, ShapeBuilder};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Held by each test throughout: the counters are global, and tests run at once.
static MEASURING: Mutex<()> = Mutex::new(());

/// A sparse matrix of `rows` rows of counts 1..=3 in `cols` columns (about `per_row`
/// drawn per row), as scipy's three arrays, with labels and real targets from a linear rule.
fn lent_arrays(rows: usize, cols: usize, per_row: usize) -> Lent {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut indptr, mut indices, mut data) = (vec![0i32], Vec::new(), Vec::new());
    let (mut labels, mut values) = (Vec::new(), Vec::new());
    for _ in 0..rows {
        let mut drawn: Vec<i32> = (0..per_row)
            .map(|_| (next() % cols as u64) as i32)
            .collect();
        drawn.sort_unstable();
        drawn.dedup();
        let mut score = 0.0;
        for &j in &drawn {
            let v = (1 + next() % 3) as f32;
            score += if j % 2 == 0 { v } else { -v } as f64;
            indices.push(j);
            data.push(v);
        }
        indptr.push(indices.len() as i32);
        labels.push(Label::from(if score > 0.0 { "even" } else { "odd" }));
        values.push(score);
    }
    let y = Array2::from_shape_vec((rows, 1), values).unwrap();
    Lent {
        indptr,
        indices,
        data,
        labels,
        y,
    }
}

/// What a host lends: scipy's three CSR arrays, and the targets.
struct Lent {
    indptr: Vec<i32>,
    indices: Vec<i32>,
    data: Vec<f32>,
    labels: Vec<Label>,
    y: Array2<f64>,
}

fn dataset<'a>(x: Features<'a>, labels: &[Label], y: &Array2<f64>, task: Task) -> Dataset<'a> {
    match task {
        Task::Classifier | Task::Novelty => Dataset::new(x, labels).unwrap(),
        Task::Regressor => Dataset::regression(x, y.clone()).unwrap(),
    }
}

/// Rows of the lent matrix a kernel SVM is checked on: its training time grows with the
/// square of the rows, and a few hundred show how it allocates as well as thousands.
const SVM_ROWS: usize = 400;

/// The bytes of a kernel SVM's support vectors: a copy of those rows is what the model is.
fn support_vector_bytes(model: &Model) -> usize {
    match model.downcast_ref::<SvmModel>().map(|m| &m.support_vectors) {
        Some(SupportVectors::Dense { values, .. }) => 8 * values.len(),
        Some(SupportVectors::Sparse(m)) => 8 * m.indptr().len() + 12 * m.nnz(),
        None => 0,
    }
}

/// The bytes a network's training keeps beside the matrix: its weights, their gradient and
/// Adam's two moments, four vectors of the parameters' length.
fn optimiser_state_bytes(model: &Model) -> usize {
    model
        .downcast_ref::<MlpModel>()
        .map_or(0, |m| 4 * 8 * m.params.len())
}

/// Fits and predicts with every kind on the matrix `lend(rows)` lends (its first `rows`
/// rows, and their size in bytes), returning the kinds whose fit or prediction allocated
/// half of that size or more at once (a copy as `f64` would take more than all of it;
/// per-row state such as scores takes a fraction), with what they allocated. A network may
/// also hold its optimiser's state (of its weights, not of the rows). A kernel SVM
/// may also hold its support vectors, and is checked on [`SVM_ROWS`] rows with a kernel
/// cache (a budget, `cache_mb`) below the threshold.
fn copying_kinds<'a>(
    lend: &dyn Fn(usize) -> (Features<'a>, usize),
    rows: usize,
    labels: &[Label],
    y: &Array2<f64>,
) -> Vec<String> {
    let mut copied = Vec::new();
    for info in registry() {
        let mut learner = Learner::from_kind(info.name).unwrap();
        let svm = info.family == "support vector machines";
        let n = if svm { SVM_ROWS } else { rows };
        let (x, matrix_bytes) = lend(n);
        if svm {
            learner
                .set_param(
                    "cache_mb",
                    &format!("{}", matrix_bytes as f64 / 4.0 / 1048576.0),
                )
                .unwrap();
        }
        let y = y.slice(ndarray::s![..n, ..]).to_owned();
        let data = dataset(x.clone(), &labels[..n], &y, info.task);
        let (model, fit_bytes) = Counting::extra_peak(|| learner.fit(&data).unwrap());
        let kept = support_vector_bytes(&model) + optimiser_state_bytes(&model);
        let (_, predict_bytes) = Counting::extra_peak(|| match info.task {
            Task::Classifier | Task::Novelty => model.predict_index(&x).unwrap().len(),
            Task::Regressor => model.predict_values(&x).unwrap().len(),
        });
        for (what, bytes) in [
            ("fit", fit_bytes.saturating_sub(kept)),
            ("predict", predict_bytes),
        ] {
            if bytes >= matrix_bytes / 2 {
                copied.push(format!(
                    "{} {what}: {bytes} bytes at once for a matrix of {matrix_bytes}",
                    info.name
                ));
            }
        }
    }
    copied
}

#[test]
fn no_kind_copies_a_borrowed_csr_matrix() {
    let _alone = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let Lent {
        indptr,
        indices,
        data,
        labels,
        y,
    } = lent_arrays(5_000, 500, 100);
    let lend = |n: usize| {
        let nnz = indptr[n] as usize;
        let x: Features = CsrView::new(500, &indptr[..=n], &indices[..nnz], &data[..nnz])
            .unwrap()
            .into();
        (x, 4 * (n + 1 + 2 * nnz))
    };
    let copied = copying_kinds(&lend, 5_000, &labels, &y);
    assert!(copied.is_empty(), "{}", copied.join("\n"));
}

/// Tall and narrow, so that the `p x p` state of least squares (its triangular factor) is
/// small beside the matrix.
#[test]
fn no_kind_copies_a_borrowed_column_major_matrix() {
    let _alone = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let (rows, cols) = (10_000, 100);
    let Lent {
        indptr,
        indices,
        data,
        labels,
        y,
    } = lent_arrays(rows, cols, 100);
    // Fortran order, as numpy's `order="F"`
    let mut dense = Array2::<f64>::zeros((rows, cols).f());
    for i in 0..rows {
        let (a, b) = (indptr[i] as usize, indptr[i + 1] as usize);
        for k in a..b {
            dense[[i, indices[k] as usize]] = f64::from(data[k]);
        }
    }
    let lend = |n: usize| {
        let x: Features = dense.slice(ndarray::s![..n, ..]).into();
        (x, 8 * n * cols)
    };
    let copied = copying_kinds(&lend, rows, &labels, &y);
    assert!(copied.is_empty(), "{}", copied.join("\n"));
}

/// The tall matrix of [`no_kind_copies_a_borrowed_column_major_matrix`] in `f32`,
/// row-major (numpy's default) and column-major: no kind copies it, in `f32` or widened.
/// Its size is counted as that of its values in `f64`, so that the threshold, half of it,
/// is the size of a copy in `f32` (a kind's own state, such as least squares' `p x p`
/// factor or Newton's Hessian scratch, is the same as with `f64` input).
#[test]
fn no_kind_copies_a_borrowed_f32_matrix() {
    let _alone = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let (rows, cols) = (10_000, 100);
    let lent = lent_arrays(rows, cols, 100);
    for fortran in [false, true] {
        let dense = dense_f32(&lent, rows, cols, fortran);
        let lend = |n: usize| {
            let x = Features::DenseF32(dense.slice(ndarray::s![..n, ..]).into());
            (x, 8 * n * cols)
        };
        let copied = copying_kinds(&lend, rows, &lent.labels, &lent.y);
        assert!(
            copied.is_empty(),
            "column-major {fortran}: {}",
            copied.join("\n")
        );
    }
}

/// The lent CSR matrix's first `rows` rows as a dense `f32` matrix of `cols` columns.
fn dense_f32(lent: &Lent, rows: usize, cols: usize, fortran: bool) -> Array2<f32> {
    let mut dense = Array2::<f32>::zeros((rows, cols).set_f(fortran));
    for i in 0..rows {
        let (a, b) = (lent.indptr[i] as usize, lent.indptr[i + 1] as usize);
        for k in a..b {
            dense[[i, lent.indices[k] as usize]] = lent.data[k];
        }
    }
    dense
}

/// A network trained in `f32` on `f64` rows keeps a copy of them in `f32` (half their
/// size: a batch then reads half the bytes); on `f32` rows it gathers each batch from the
/// caller's matrix itself, and allocates a small part of the matrix's size.
#[test]
fn a_network_in_f32_trains_on_a_borrowed_f32_matrix_without_its_copy() {
    let _alone = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let (rows, cols) = (10_000, 100);
    let lent = lent_arrays(rows, cols, 100);
    let networks = registry().filter(|info| info.family == "neural networks");
    for info in networks {
        let mut learner = Learner::from_kind(info.name).unwrap();
        learner.set_param("dtype", "f32").unwrap();
        learner.set_param("max_iter", "2").unwrap();
        let fit = |x: Features| {
            let data = dataset(x, &lent.labels, &lent.y, info.task);
            let (model, bytes) = Counting::extra_peak(|| learner.fit(&data).unwrap());
            bytes.saturating_sub(optimiser_state_bytes(&model))
        };
        let f32_bytes = 4 * rows * cols;
        for fortran in [false, true] {
            let x32 = dense_f32(&lent, rows, cols, fortran);
            let x64 = x32.mapv(f64::from);
            // the copy of the f64 rows, so the measure sees a copy
            let copying = fit(x64.view().into());
            assert!(copying >= f32_bytes, "{}: {copying} bytes", info.name);
            let lent_f32 = fit(Features::DenseF32(x32.view().into()));
            assert!(
                lent_f32 < f32_bytes / 4,
                "{} (column-major {fortran}): {lent_f32} bytes at once for a matrix of {f32_bytes}",
                info.name
            );
        }
    }
}
