//! Support vector classification, one pair of classes at a time (LIBSVM's one-vs-one).
//!
//! C-SVC, for classes `a` (`y = +1`) and `b` (`y = -1`) of a pair:
//!
//! ```text
//! primal  min 1/2 ||w||^2 + sum_i C_i xi_i   s.t.  y_i (w.phi(x_i) - rho) >= 1 - xi_i,  xi_i >= 0
//! dual    min 1/2 a^T Q a - e^T a            s.t.  y^T a = 0,  0 <= a_i <= C_i,   Q_ij = y_i y_j K_ij
//! ```
//!
//! with `C_i = C c_i`, `c_i` the row's sample weight times its class weight (rows of
//! weight 0 cannot be support vectors and are left out). nu-SVC replaces `C` by `nu`, a
//! bound on the fraction of margin errors and a lower bound on the fraction of support
//! vectors:
//!
//! ```text
//! dual    min 1/2 a^T Q a   s.t.  y^T a = 0,  e^T a = nu W,  0 <= a_i <= c_i     (W = sum_i c_i)
//! ```
//!
//! solved by the `nu` form of SMO, whose `r` rescales the solution into the C-SVC form
//! (`coef = y a / r`, `rho / r`, objective `/ r^2`, as LIBSVM reports it). `nu` is feasible
//! for a pair when `nu W / 2 <= min(W_a, W_b)`.
//!
//! Each pair is solved as LIBSVM solves it: the class seen first in the rows is the `+1`
//! side (but of the labels `-1` and `1`, `1`) and its rows come first, so the solver takes LIBSVM's steps and its models equal
//! `svm-train`'s; the model stores every pair as `(a, b)` with `a < b` in class order.
//! (scikit-learn sorts the classes before solving: on data whose first row is not of the
//! smallest class its solution differs from LIBSVM's within the tolerance.)

use super::dual::Dual;
use super::kernel::KernelRows;
use super::model::{DualSummary, Platt, Provenance, SupportVectors, SvmModel, SvmType};
use super::probability::{sigmoid_fit, Calibration, FOLDS};
use super::smo::Problem;
use crate::data::{Dataset, Label};
use crate::error::{Error, Result};
use crate::estimator::{Fit, Kind, KindInfo};
use crate::param::Params;
use crate::rng::Rng;
use crate::weights::{row_weights, ClassWeight};
use crate::with_rows;

crate::params! {
    /// C-SVC: the soft-margin kernel classifier (scikit-learn's `SVC`, LIBSVM's `-s 0`).
    #[derive(Clone, Debug, PartialEq)]
    pub struct Svc {
        pub c: f64,
        pub class_weight: ClassWeight,
        pub dual: Dual,
        pub calibration: Calibration,
    }
    schema "svc" {
        /// `C`: the cost of each unit of margin violation `xi_i` (larger: a harder margin)
        c = "1", positive => c;
        /// per-class weights multiplying `C` with the sample weights (`C_i = C c_i`)
        class_weight = "none", "`none`, `balanced`, `LABEL:W,...`" => class_weight;
        ..dual: Dual;
        ..calibration: Calibration;
    }
}

crate::params! {
    /// nu-SVC: the kernel classifier parametrised by `nu` (scikit-learn's `NuSVC`,
    /// LIBSVM's `-s 1`).
    #[derive(Clone, Debug, PartialEq)]
    pub struct NuSvc {
        pub nu: f64,
        pub class_weight: ClassWeight,
        pub dual: Dual,
        pub calibration: Calibration,
    }
    schema "nu-svc" {
        /// `nu` in (0, 1]: an upper bound on the fraction of margin errors, a lower bound on the fraction of support vectors
        nu = "0.5", fraction => nu;
        /// per-class weights multiplying the sample weights (the upper bounds `c_i`)
        class_weight = "none", "`none`, `balanced`, `LABEL:W,...`" => class_weight;
        ..dual: Dual;
        ..calibration: Calibration;
    }
}

impl Default for Svc {
    fn default() -> Self {
        Svc {
            c: 1.0,
            class_weight: ClassWeight::Uniform,
            dual: Dual::default(),
            calibration: Calibration::default(),
        }
    }
}

impl Default for NuSvc {
    fn default() -> Self {
        NuSvc {
            nu: 0.5,
            class_weight: ClassWeight::Uniform,
            dual: Dual::default(),
            calibration: Calibration::default(),
        }
    }
}

impl Svc {
    pub const KIND: &'static str = "svc";

    /// Fits with probabilities whose cross-validation deals each pair's rows into folds
    /// in the given orders (to reproduce another tool's folds; [`fit`](Fit::fit) shuffles
    /// them by `seed`): one permutation per pair, in the order of the duals, of the
    /// positions of the pair's rows as LIBSVM lists them (the rows of the class seen
    /// first, then the other's, each in row order); fold `f` of `l` positions is
    /// `order[f l / 5 .. (f + 1) l / 5]`.
    pub fn fit_with_fold_orders(&self, data: &Dataset, orders: &[Vec<usize>]) -> Result<SvmModel> {
        self.check_params()?;
        let folds = Folds::Given(orders);
        fit_pairs(
            data,
            &self.dual,
            &self.class_weight,
            Cost::C(self.c),
            Some(folds),
        )
    }
}

impl NuSvc {
    pub const KIND: &'static str = "nu-svc";
}

impl Calibration {
    fn folds(&self) -> Option<Folds<'static>> {
        self.probability.then(|| Folds::Seeded(Rng::new(self.seed)))
    }
}

impl Fit for Svc {
    type Model = SvmModel;
    fn fit(&self, data: &Dataset) -> Result<SvmModel> {
        self.check_params()?;
        fit_pairs(
            data,
            &self.dual,
            &self.class_weight,
            Cost::C(self.c),
            self.calibration.folds(),
        )
    }
}

impl Fit for NuSvc {
    type Model = SvmModel;
    fn fit(&self, data: &Dataset) -> Result<SvmModel> {
        self.check_params()?;
        let folds = self.calibration.folds();
        fit_pairs(
            data,
            &self.dual,
            &self.class_weight,
            Cost::Nu(self.nu),
            folds,
        )
    }
}

/// Probabilities come from folds dealt by row position (a repeated row may land in two
/// folds), so with them the model depends on the rows' order.
impl Kind for Svc {
    const INFO: &'static KindInfo = &KindInfo::classifier(
        Self::KIND,
        super::GROUP,
        "C-SVC: soft-margin kernel SVM by SMO (LIBSVM), one-vs-one over classes",
    );
    fn depends_on_row_order(&self) -> bool {
        self.calibration.probability || self.dual.depends_on_row_order()
    }
    fn class_weight_mut(&mut self) -> Option<&mut ClassWeight> {
        Some(&mut self.class_weight)
    }
    fn width_state(&self, n_features: usize, _n_classes: usize) -> [usize; 3] {
        Dual::width_state(n_features)
    }
}

/// As [`Svc`]'s.
impl Kind for NuSvc {
    const INFO: &'static KindInfo = &KindInfo::classifier(
        Self::KIND,
        super::GROUP,
        "nu-SVC: kernel SVM whose nu bounds the fraction of margin errors",
    );
    fn depends_on_row_order(&self) -> bool {
        self.calibration.probability || self.dual.depends_on_row_order()
    }
    fn class_weight_mut(&mut self) -> Option<&mut ClassWeight> {
        Some(&mut self.class_weight)
    }
    fn width_state(&self, n_features: usize, _n_classes: usize) -> [usize; 3] {
        Dual::width_state(n_features)
    }
}

/// How each pair's rows are dealt into the folds of Platt's cross-validation.
enum Folds<'o> {
    /// Shuffled by one generator, pair after pair.
    Seeded(Rng),
    /// One permutation per pair, given.
    Given(&'o [Vec<usize>]),
}

impl Folds<'_> {
    /// The order of the `l` rows of pair number `p`.
    fn order(&mut self, p: usize, l: usize) -> Result<Vec<usize>> {
        match self {
            Folds::Seeded(rng) => {
                let mut order: Vec<usize> = (0..l).collect();
                rng.shuffle(&mut order);
                Ok(order)
            }
            Folds::Given(orders) => {
                let order = orders.get(p).ok_or_else(|| {
                    Error::data(format!(
                        "fold orders: {} given, pair {p} has none",
                        orders.len()
                    ))
                })?;
                let mut seen = vec![false; l];
                for &t in order {
                    if t >= l || std::mem::replace(&mut seen[t], true) {
                        return Err(Error::data(format!(
                            "fold order of pair {p}: not a permutation of its {l} rows (position {t})"
                        )));
                    }
                }
                if order.len() != l {
                    return Err(Error::data(format!(
                        "fold order of pair {p}: {} positions for its {l} rows",
                        order.len()
                    )));
                }
                Ok(order.clone())
            }
        }
    }
}

/// The parameter of the box.
#[derive(Clone, Copy)]
enum Cost {
    C(f64),
    Nu(f64),
}

/// One dual's solution: the coefficient `y_t a_t` of each of its rows.
struct PairSolution {
    rows: Vec<usize>,
    coef: Vec<f64>,
    summary: DualSummary,
}

/// Fits every pair of classes `a < b` and assembles the model: support vectors grouped
/// by class, in row order within a class (LIBSVM's and scikit-learn's order).
fn fit_pairs(
    data: &Dataset,
    dual: &Dual,
    class_weight: &ClassWeight,
    cost: Cost,
    mut folds: Option<Folds>,
) -> Result<SvmModel> {
    data.check_fit()?;
    let x = data.x();
    let kernel = dual.kernel_on(data)?;
    let weights = row_weights(data, class_weight)?;
    let k = data.classes().len();
    let mut members = vec![Vec::new(); k];
    for (i, &t) in data.targets().iter().enumerate() {
        if weights[i] > 0.0 {
            members[t].push(i);
        }
    }
    if let Some(c) = members.iter().position(Vec::is_empty) {
        return Err(Error::data(format!(
            "class {} has no row of positive weight: every class needs one (or drop the class)",
            data.classes()[c]
        )));
    }
    let svm_type = match cost {
        Cost::C(_) => SvmType::CSvc,
        Cost::Nu(nu) => {
            check_nu_feasible(nu, data, &members, &weights)?;
            SvmType::NuSvc
        }
    };
    let minus_plus = data.classes() == [Label::Int(-1), Label::Int(1)];
    let mut solutions = Vec::new();
    let mut sigmoids = Platt {
        prob_a: Vec::new(),
        prob_b: Vec::new(),
    };
    with_rows!(x, |m| {
        // the rows' squared norms (rbf), once for every pair
        let kernel_rows = KernelRows::new(m, kernel);
        for a in 0..k {
            for b in a + 1..k {
                // LIBSVM's orientation: the class seen first is the +1 side, its rows
                // first; but labels -1 / +1 put +1 first
                let (first, second) = if minus_plus {
                    (1, 0)
                } else if members[a][0] < members[b][0] {
                    (a, b)
                } else {
                    (b, a)
                };
                let rows: Vec<usize> = members[first]
                    .iter()
                    .chain(&members[second])
                    .copied()
                    .collect();
                let y: Vec<f64> = rows
                    .iter()
                    .map(|&i| {
                        if data.targets()[i] == first {
                            1.0
                        } else {
                            -1.0
                        }
                    })
                    .collect();
                let w: Vec<f64> = rows.iter().map(|&i| weights[i]).collect();
                if let Some(folds) = &mut folds {
                    let order = folds.order(solutions.len(), rows.len())?;
                    let (pa, mut pb) = platt_pair(dual, &kernel_rows, &rows, &y, &w, cost, &order)?;
                    if first != a {
                        // P(a | f_ab) = 1 - P(b | -f_ab) = 1 / (1 + exp(A f_ab - B))
                        pb = -pb;
                    }
                    sigmoids.prob_a.push(pa);
                    sigmoids.prob_b.push(pb);
                }
                let mut s = solve_pair(dual, &kernel_rows, rows, y, &w, cost, (a, b))?;
                if first != a {
                    // f_ab = -f_ba
                    s.coef.iter_mut().for_each(|c| *c = -*c);
                    s.summary.rho = -s.summary.rho;
                }
                solutions.push(s);
            }
        }
        Ok::<(), Error>(())
    })?;
    let mut model = assemble(data, kernel, svm_type, &members, solutions);
    model.probability = folds.map(|_| sigmoids);
    Ok(model)
}

/// Platt's `(A, B)` for one pair, in the orientation it is solved in (`y = +1` for the
/// class seen first): each fold's decision values come from a model fitted on the other
/// folds, its rows grouped as LIBSVM groups them (the `+1` side's rows first, in the order
/// of `order`); a fold whose complement holds one side only gets `+-1`.
fn platt_pair<M: crate::data::RowAccess>(
    dual: &Dual,
    kernel_rows: &KernelRows<'_, M>,
    rows: &[usize],
    y: &[f64],
    w: &[f64],
    cost: Cost,
    order: &[usize],
) -> Result<(f64, f64)> {
    let l = rows.len();
    let mut dec = vec![0.0; l];
    let mut dense = vec![0.0; kernel_rows.n_cols()];
    for f in 0..FOLDS {
        let (begin, end) = (f * l / FOLDS, (f + 1) * l / FOLDS);
        let rest: Vec<usize> = order[..begin]
            .iter()
            .chain(&order[end..])
            .copied()
            .collect();
        let n_pos = rest.iter().filter(|&&t| y[t] > 0.0).count();
        let held = &order[begin..end];
        if n_pos == 0 || n_pos == rest.len() {
            let v = match (n_pos, rest.len()) {
                (_, 0) => 0.0,
                (0, _) => -1.0,
                _ => 1.0,
            };
            held.iter().for_each(|&t| dec[t] = v);
            continue;
        }
        // LIBSVM puts +1 first in a two-class problem labelled -1 / +1 (svm_group_classes)
        let grouped: Vec<usize> = rest
            .iter()
            .filter(|&&t| y[t] > 0.0)
            .chain(rest.iter().filter(|&&t| y[t] < 0.0))
            .copied()
            .collect();
        let sub_w: Vec<f64> = grouped.iter().map(|&t| w[t]).collect();
        let s = solve_pair(
            dual,
            kernel_rows,
            grouped.iter().map(|&t| rows[t]).collect(),
            grouped.iter().map(|&t| y[t]).collect(),
            &sub_w,
            cost,
            (0, 1),
        )?;
        let (sv, coef): (Vec<usize>, Vec<f64>) = s
            .rows
            .iter()
            .zip(&s.coef)
            .filter(|(_, &c)| c != 0.0)
            .map(|(&r, &c)| (r, c))
            .unzip();
        let mut k = vec![0.0; sv.len()];
        for &t in held {
            kernel_rows.column::<f64>(rows[t], &sv, &mut dense, &mut k, |_, v| v);
            let value: f64 = coef.iter().zip(&k).map(|(c, v)| c * v).sum();
            dec[t] = value - s.summary.rho;
        }
    }
    let positive: Vec<bool> = y.iter().map(|&v| v > 0.0).collect();
    Ok(sigmoid_fit(&dec, &positive))
}

/// `nu W / 2 <= min(W_a, W_b)` for every pair, or an error naming the largest feasible nu.
fn check_nu_feasible(
    nu: f64,
    data: &Dataset,
    members: &[Vec<usize>],
    weights: &[f64],
) -> Result<()> {
    let totals: Vec<f64> = members
        .iter()
        .map(|m| m.iter().map(|&i| weights[i]).sum())
        .collect();
    for a in 0..totals.len() {
        for b in a + 1..totals.len() {
            let (wa, wb) = (totals[a], totals[b]);
            if nu * (wa + wb) / 2.0 > wa.min(wb) {
                return Err(Error::param(
                    "nu",
                    nu,
                    format!(
                        "infeasible for classes {} and {}: at most 2 min(W_a, W_b) / (W_a + W_b) = {:.6} with their weights {wa} and {wb}",
                        data.classes()[a],
                        data.classes()[b],
                        2.0 * wa.min(wb) / (wa + wb)
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn solve_pair<M: crate::data::RowAccess>(
    dual: &Dual,
    kernel_rows: &KernelRows<'_, M>,
    rows: Vec<usize>,
    y: Vec<f64>,
    w: &[f64],
    cost: Cost,
    classes: (usize, usize),
) -> Result<PairSolution> {
    let l = rows.len();
    let (problem, nu) = match cost {
        Cost::C(c) => (
            Problem {
                p: vec![-1.0; l],
                c: w.iter().map(|&wi| c * wi).collect(),
                y: y.clone(),
                alpha: vec![0.0; l],
            },
            false,
        ),
        Cost::Nu(nu) => {
            // a feasible start: each side's a sums to nu W / 2, filled in row order
            let total: f64 = w.iter().sum();
            let mut left = [nu * total / 2.0; 2];
            let alpha = (0..l)
                .map(|t| {
                    let side = usize::from(y[t] < 0.0);
                    let a = w[t].min(left[side]);
                    left[side] -= a;
                    a
                })
                .collect();
            (
                Problem {
                    p: vec![0.0; l],
                    c: w.to_vec(),
                    y: y.clone(),
                    alpha,
                },
                true,
            )
        }
    };
    let upper = problem.c.clone();
    let sol = dual.solve::<_, f32>(kernel_rows, rows.clone(), y.clone(), problem, nu)?;
    // nu: divide by r into the C-SVC form
    let r = if nu { sol.r } else { 1.0 };
    let coef: Vec<f64> = (0..l).map(|t| y[t] * sol.alpha[t] / r).collect();
    let summary = DualSummary {
        classes: Some(classes),
        objective: sol.objective / (r * r),
        rho: sol.rho / r,
        n_support: sol.alpha.iter().filter(|&&a| a > 0.0).count(),
        n_bounded_support: (0..l)
            .filter(|&t| sol.alpha[t] > 0.0 && sol.alpha[t] >= upper[t])
            .count(),
        iterations: sol.iterations,
        warning: sol.warning(),
    };
    Ok(PairSolution {
        rows,
        coef,
        summary,
    })
}

fn assemble(
    data: &Dataset,
    kernel: super::kernel::Kernel,
    svm_type: SvmType,
    members: &[Vec<usize>],
    solutions: Vec<PairSolution>,
) -> SvmModel {
    let n = data.n_samples();
    let k = members.len();
    let mut is_sv = vec![false; n];
    for s in &solutions {
        for (&row, &c) in s.rows.iter().zip(&s.coef) {
            is_sv[row] |= c != 0.0;
        }
    }
    let mut support = Vec::new();
    let mut n_support = Vec::with_capacity(k);
    for m in members {
        let before = support.len();
        support.extend(m.iter().copied().filter(|&i| is_sv[i]));
        n_support.push(support.len() - before);
    }
    let mut position = vec![usize::MAX; n];
    for (p, &row) in support.iter().enumerate() {
        position[row] = p;
    }
    let mut dual_coef = vec![vec![0.0; support.len()]; k.saturating_sub(1)];
    let targets = data.targets();
    let mut duals = Vec::with_capacity(solutions.len());
    for s in solutions {
        let (a, b) = s.summary.classes.unwrap_or((0, 1));
        for (&row, &c) in s.rows.iter().zip(&s.coef) {
            if c != 0.0 {
                // LIBSVM's layout: class a's coefficients in row b - 1, class b's in row a
                let line = if targets[row] == a { b - 1 } else { a };
                dual_coef[line][position[row]] = c;
            }
        }
        duals.push(s.summary);
    }
    SvmModel {
        svm_type,
        kernel,
        classes: data.classes().to_vec(),
        n_features: data.n_features(),
        support_vectors: SupportVectors::select(&kernel, data.x(), &support),
        support,
        n_support,
        dual_coef,
        duals,
        probability: None,
        provenance: Provenance::Fitted,
    }
}
