//! `hyperplane theory ...`: the learning-theory toolkit (Hoeffding, growth functions,
//! B(N, k), shattering, the VC bound, the coin experiment) as tables or JSON.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use hyperplane::data::read::{read, Format, LabelColumn, ReadOptions};
use hyperplane::data::{Column, RawInput};
use hyperplane::theory::{
    count_dichotomies, hoeffding_delta, hoeffding_epsilon, hoeffding_sample_size, poly_dimension,
    vc_delta, vc_epsilon, vc_sample_size, BigUint, BoundTable, CoinParams, GrowthBound,
    HypothesisSet,
};
use hyperplane::{Error, Result};
use ndarray::Array2;
use serde_json::json;

use crate::outln;
use crate::output::{json_text, table};

/// The learning-theory tools.
#[derive(Subcommand, Debug)]
pub enum TheoryCommand {
    /// Hoeffding + union bound, P[|nu - mu| > eps] <= 2 M exp(-2 eps^2 N): give two of
    /// --eps, --n, --delta and get the third.
    #[command(after_help = "\
Examples:
  hyperplane theory hoeffding --eps 0.1 --n 1000          # delta = 2 exp(-20)
  hyperplane theory hoeffding --eps 0.05 --delta 0.03     # N needed: 840
  hyperplane theory hoeffding --n 1000 --delta 0.05 --m 10   # eps")]
    Hoeffding(HoeffdingArgs),
    /// VC bound, delta = 4 m_H(2N) exp(-eps^2 N / 8): the error bar
    /// Omega = sqrt(8/N ln(4 m_H(2N)/delta)), beside Hoeffding's for one hypothesis.
    #[command(after_help = "\
Examples:
  hyperplane theory vc-bound --dvc 3 --n 10000 --delta 0.05
  hyperplane theory vc-bound --dvc 3 --n 10000 --delta 0.05 --bound binomial")]
    VcBound(VcBoundArgs),
    /// The smallest N with 4 m_H(2N) exp(-eps^2 N / 8) <= delta (for N and every larger
    /// sample), beside the rule of thumb N >= 10 d_vc.
    #[command(after_help = "\
Example (the course's: N = 29,300):
  hyperplane theory sample-size --dvc 3 --eps 0.1 --delta 0.1")]
    SampleSize(SampleSizeArgs),
    /// The growth function m_H(N) of a hypothesis set beside 2^N, its VC dimension and
    /// break point (perceptrons: Cover's 2 sum_{k<=d} C(N-1, k)).
    #[command(after_help = "\
Examples:
  hyperplane theory growth --set intervals --n 6
  hyperplane theory growth --set perceptron --d 2 --n 8")]
    Growth(GrowthArgs),
    /// The bounding function B(N, k) = sum_{i<k} C(N, i) beside its recursion
    /// B(N-1, k) + B(N-1, k-1).
    #[command(after_help = "Example:\n  hyperplane theory bound-table --n-max 6 --k-max 5")]
    BoundTable(BoundTableArgs),
    /// Count the dichotomies a hypothesis set realises on the points of a CSV file
    /// (coordinates only, no label column) out of 2^N: are they shattered?
    #[command(after_help = "\
Examples:
  hyperplane theory shatter --points square.csv --set perceptron   # 14 of 16
  hyperplane theory shatter --points line.csv --set intervals

Perceptrons use as many dimensions as the file has columns; rays and intervals need one
column. At most 20 points (every dichotomy is tested).")]
    Shatter(ShatterArgs),
    /// The coin experiment: nu of the first, a random and the min-heads coin per run,
    /// and P[|nu - 0.5| > eps] beside Hoeffding's 2 exp(-2 eps^2 flips).
    #[command(
        after_help = "Example:\n  hyperplane theory coins --coins 1000 --flips 10 --runs 10000 --seed 1"
    )]
    Coins(CoinsArgs),
}

#[derive(Args, Debug)]
pub struct HoeffdingArgs {
    /// Tolerance eps > 0.
    #[arg(long, allow_negative_numbers = true)]
    eps: Option<f64>,
    /// Sample size N >= 1.
    #[arg(long)]
    n: Option<u64>,
    /// Probability bound delta in (0, 1).
    #[arg(long, allow_negative_numbers = true)]
    delta: Option<f64>,
    /// Number of hypotheses M (union bound).
    #[arg(long, default_value_t = 1)]
    m: u64,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Which stand-in for m_H(2N) the VC tools use.
#[derive(Args, Debug)]
pub struct BoundChoice {
    /// VC dimension d_vc.
    #[arg(long)]
    dvc: u64,
    /// `polynomial` (m_H(N) <= N^d_vc + 1, the course's) or `binomial` (B(N, d_vc + 1)).
    #[arg(long, default_value = "polynomial")]
    bound: String,
}

impl BoundChoice {
    fn growth(&self) -> Result<GrowthBound> {
        match self.bound.as_str() {
            "polynomial" | "poly" => Ok(GrowthBound::Polynomial { dvc: self.dvc }),
            "binomial" => Ok(GrowthBound::Binomial { dvc: self.dvc }),
            other => Err(Error::param(
                "bound",
                other,
                "expected polynomial or binomial",
            )),
        }
    }

    /// The bound on `m_H(arg)` as a formula, e.g. `(2N)^3 + 1`.
    fn formula(&self, arg: &str) -> String {
        match self.bound.as_str() {
            "binomial" => format!("B({arg}, {})", self.dvc + 1),
            _ if arg.len() > 1 => format!("({arg})^{} + 1", self.dvc),
            _ => format!("{arg}^{} + 1", self.dvc),
        }
    }
}

#[derive(Args, Debug)]
pub struct VcBoundArgs {
    #[command(flatten)]
    bound: BoundChoice,
    /// Sample size N >= 1.
    #[arg(long)]
    n: u64,
    /// Probability bound delta in (0, 1).
    #[arg(long, allow_negative_numbers = true)]
    delta: f64,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct SampleSizeArgs {
    #[command(flatten)]
    bound: BoundChoice,
    /// Tolerance eps > 0.
    #[arg(long, allow_negative_numbers = true)]
    eps: f64,
    /// Probability bound delta in (0, 1).
    #[arg(long, allow_negative_numbers = true)]
    delta: f64,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct GrowthArgs {
    /// rays, intervals, convex or perceptron.
    #[arg(long)]
    set: String,
    /// Largest N shown (1 to 10000).
    #[arg(long)]
    n: u64,
    /// Perceptron dimension (default 2).
    #[arg(long)]
    d: Option<u64>,
    /// Also show the polynomial transform Phi_Q of d inputs: C(Q + d, d) coordinates.
    #[arg(long, value_name = "Q")]
    q: Option<u64>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct BoundTableArgs {
    /// Rows N = 1..=n_max.
    #[arg(long)]
    n_max: u64,
    /// Columns k = 1..=k_max.
    #[arg(long)]
    k_max: u64,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct ShatterArgs {
    /// CSV file of point coordinates, one point per row, no label column.
    #[arg(long, value_name = "FILE")]
    points: PathBuf,
    /// perceptron, rays, intervals or convex.
    #[arg(long)]
    set: String,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct CoinsArgs {
    /// Coins per run.
    #[arg(long, default_value_t = 1000)]
    coins: usize,
    /// Flips per coin (N in Hoeffding).
    #[arg(long, default_value_t = 10)]
    flips: u32,
    /// Independent runs.
    #[arg(long, default_value_t = 10_000)]
    runs: u64,
    /// Seed of the experiment.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Deviations eps to report, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5])]
    eps: Vec<f64>,
    /// Print JSON instead of tables.
    #[arg(long)]
    json: bool,
}

/// Runs one `theory` subcommand.
pub fn theory(cmd: TheoryCommand) -> Result<String> {
    match cmd {
        TheoryCommand::Hoeffding(a) => hoeffding(a),
        TheoryCommand::VcBound(a) => vc_bound(a),
        TheoryCommand::SampleSize(a) => sample_size(a),
        TheoryCommand::Growth(a) => growth(a),
        TheoryCommand::BoundTable(a) => bound_table(a),
        TheoryCommand::Shatter(a) => shatter(a),
        TheoryCommand::Coins(a) => coins(a),
    }
}

/// Six significant decimals, in scientific notation when very small or large.
fn number(x: f64) -> String {
    if x == 0.0 || (1e-4..1e6).contains(&x.abs()) {
        format!("{x:.6}")
    } else {
        format!("{x:.6e}")
    }
}

/// `name  value` lines as an aligned two-column table.
fn pairs(rows: &[(&str, String)]) -> String {
    let mut t = vec![vec!["quantity".to_string(), "value".to_string()]];
    t.extend(rows.iter().map(|(k, v)| vec![k.to_string(), v.clone()]));
    table(&t)
}

fn hoeffding(a: HoeffdingArgs) -> Result<String> {
    let (eps, n, delta, solved) = match (a.eps, a.n, a.delta) {
        (Some(e), Some(n), None) => (e, n, hoeffding_delta(e, n, a.m)?, "delta"),
        (Some(e), None, Some(d)) => (e, hoeffding_sample_size(e, d, a.m)?, d, "n"),
        (None, Some(n), Some(d)) => (hoeffding_epsilon(n, d, a.m)?, n, d, "eps"),
        _ => {
            let given = [a.eps.is_some(), a.n.is_some(), a.delta.is_some()];
            return Err(Error::param(
                "--eps, --n, --delta",
                format!("{} given", given.iter().filter(|g| **g).count()),
                "give exactly two of them; the third is solved for",
            ));
        }
    };
    if a.json {
        return Ok(json_text(&json!({
            "eps": eps, "n": n, "m": a.m, "delta": delta, "solved": solved,
        })));
    }
    let mut out = String::new();
    outln!(
        out,
        "P[|nu - mu| > eps] <= 2 M exp(-2 eps^2 N), solved for {solved}\n"
    );
    out.push_str(&pairs(&[
        ("eps", format!("{eps:.6}")),
        ("N", n.to_string()),
        ("M", a.m.to_string()),
        ("delta", number(delta)),
    ]));
    if delta >= 1.0 {
        outln!(
            out,
            "\nthe bound is vacuous here (delta >= 1): it says nothing."
        );
    }
    Ok(out)
}

fn vc_bound(a: VcBoundArgs) -> Result<String> {
    let g = a.bound.growth()?;
    let omega = vc_epsilon(a.n, a.delta, &g)?;
    let hoeff = hoeffding_epsilon(a.n, a.delta, 1)?;
    let m2n = g.growth(2 * a.n);
    if a.json {
        return Ok(json_text(&json!({
            "dvc": a.bound.dvc, "n": a.n, "delta": a.delta, "bound": a.bound.formula("N"),
            "growth_2n": m2n, "epsilon": omega, "hoeffding_epsilon": hoeff,
        })));
    }
    let mut out = String::new();
    outln!(
        out,
        "VC bound: with probability >= 1 - delta, |E_in - E_out| <= Omega = sqrt(8/N ln(4 m_H(2N)/delta))\n"
    );
    out.push_str(&pairs(&[
        ("d_vc", a.bound.dvc.to_string()),
        ("N", a.n.to_string()),
        ("delta", a.delta.to_string()),
        (
            &format!("m_H(2N) <= {}", a.bound.formula("2N")),
            m2n.to_string(),
        ),
        ("Omega (eps)", format!("{omega:.6}")),
        ("Hoeffding eps, one fixed h", format!("{hoeff:.6}")),
    ]));
    Ok(out)
}

fn sample_size(a: SampleSizeArgs) -> Result<String> {
    let g = a.bound.growth()?;
    let n = vc_sample_size(a.eps, a.delta, &g)?;
    let achieved = vc_delta(a.eps, n, &g)?;
    let thumb = 10 * a.bound.dvc;
    let hoeff = hoeffding_sample_size(a.eps, a.delta, 1)?;
    if a.json {
        return Ok(json_text(&json!({
            "dvc": a.bound.dvc, "eps": a.eps, "delta": a.delta, "bound": a.bound.formula("N"),
            "n": n, "delta_at_n": achieved, "rule_of_thumb": thumb, "hoeffding_n": hoeff,
        })));
    }
    let mut out = String::new();
    outln!(
        out,
        "smallest N with 4 m_H(2N) exp(-eps^2 N / 8) <= delta (and for every larger N)\n"
    );
    out.push_str(&pairs(&[
        ("d_vc", a.bound.dvc.to_string()),
        ("eps", a.eps.to_string()),
        ("delta", a.delta.to_string()),
        ("m_H(N) bound", a.bound.formula("N")),
        ("N (VC bound)", n.to_string()),
        ("bound at N", format!("{achieved:.6}")),
        ("rule of thumb 10 d_vc", thumb.to_string()),
        ("N (Hoeffding, one fixed h)", hoeff.to_string()),
    ]));
    Ok(out)
}

/// Largest `--n` that `growth` tabulates.
const GROWTH_ROWS: u64 = 10_000;

fn growth(a: GrowthArgs) -> Result<String> {
    let set = HypothesisSet::named(&a.set, a.d)?;
    if !(1..=GROWTH_ROWS).contains(&a.n) {
        return Err(Error::param(
            "n",
            a.n,
            format!("must be between 1 and {GROWTH_ROWS}"),
        ));
    }
    let z_dim = match (a.q, set) {
        (Some(q), HypothesisSet::Perceptron { d }) => Some(poly_dimension(d, q)?),
        (Some(q), _) => {
            return Err(Error::param(
                "q",
                q,
                "the transform Phi_Q applies to perceptrons",
            ))
        }
        (None, _) => None,
    };
    let rows: Vec<(u64, BigUint, BigUint)> = (1..=a.n)
        .map(|n| (n, set.growth(n), BigUint::pow2(n as usize)))
        .collect();
    if a.json {
        let rows: Vec<_> = rows
            .iter()
            .map(|(n, g, p)| json!({"n": n, "growth": g, "two_to_n": p, "shattered": g == p}))
            .collect();
        return Ok(json_text(&json!({
            "set": set.to_string(), "d_vc": set.vc_dimension(), "break_point": set.break_point(),
            "z_dimension": z_dim, "rows": rows,
        })));
    }
    let mut out = String::new();
    let show = |v: Option<u64>, none: &str| v.map_or(none.to_string(), |v| v.to_string());
    outln!(
        out,
        "{set}: d_vc = {}, break point = {}",
        show(set.vc_dimension(), "infinite"),
        show(set.break_point(), "none")
    );
    if let (Some(z), Some(q)) = (z_dim, a.q) {
        outln!(
            out,
            "Phi_{q} transform: {z} coordinates (constant included), so d_vc <= {z} in Z-space"
        );
    }
    outln!(out);
    let mut t = vec![vec![
        "N".into(),
        "m_H(N)".into(),
        "2^N".into(),
        "shattered".into(),
    ]];
    for (n, g, p) in &rows {
        let yes = if g == p { "yes" } else { "no" };
        t.push(vec![
            n.to_string(),
            g.to_string(),
            p.to_string(),
            yes.into(),
        ]);
    }
    out.push_str(&table(&t));
    Ok(out)
}

fn bound_table(a: BoundTableArgs) -> Result<String> {
    let t = BoundTable::new(a.n_max, a.k_max)
        .map_err(|e| super::as_flags(e, &[("n_max", "--n-max"), ("k_max", "--k-max")]))?;
    if a.json {
        return Ok(json_text(
            &serde_json::to_value(&t).map_err(|e| Error::data(e.to_string()))?,
        ));
    }
    let grid = |title: &str, cell: &dyn Fn(u64, u64) -> String| {
        let mut rows = vec![std::iter::once(title.to_string())
            .chain((1..=a.k_max).map(|k| format!("k={k}")))
            .collect::<Vec<_>>()];
        for n in 1..=a.n_max {
            rows.push(
                std::iter::once(format!("N={n}"))
                    .chain((1..=a.k_max).map(|k| cell(n, k)))
                    .collect(),
            );
        }
        table(&rows)
    };
    let value = |n, k| t.get(n, k).map_or(String::new(), |c| c.value.to_string());
    let recursion = |n, k| {
        t.get(n, k)
            .and_then(|c| c.recursion.as_ref())
            .map_or("-".to_string(), |r| r.to_string())
    };
    let checked = t.cells.iter().filter(|c| c.recursion.is_some()).count();
    let equal = t
        .cells
        .iter()
        .filter(|c| c.recursion.as_ref() == Some(&c.value))
        .count();
    let mut out = String::new();
    outln!(out, "B(N, k) = sum_{{i<k}} C(N, i)\n");
    out.push_str(&grid("B(N,k)", &value));
    outln!(
        out,
        "\nB(N-1, k) + B(N-1, k-1)  (the recursion's right side; k >= 2)\n"
    );
    out.push_str(&grid("rec", &recursion));
    outln!(
        out,
        "\nB(N, k) <= B(N-1, k) + B(N-1, k-1) holds with equality in {equal} of {checked} cells"
    );
    Ok(out)
}

/// Reads a CSV of coordinates (no label column) into a matrix, one point per row.
fn read_points(path: &std::path::Path) -> Result<Array2<f64>> {
    let opts = ReadOptions {
        format: Some(Format::Csv),
        label: LabelColumn::None,
        ..ReadOptions::default()
    };
    let RawInput::Table(t) = read(path, &opts)?.input else {
        return Err(Error::data(format!(
            "{}: expected a CSV table of coordinates",
            path.display()
        )));
    };
    let mut columns = Vec::with_capacity(t.columns.len());
    for (name, c) in t.names.iter().zip(&t.columns) {
        match c {
            Column::Numeric(v) => columns.push(v),
            Column::Categorical(_) => {
                return Err(Error::data(format!(
                    "{}: column {name} is not numeric; points are numbers only",
                    path.display()
                )))
            }
        }
    }
    Ok(Array2::from_shape_fn(
        (t.n_rows(), columns.len()),
        |(i, j)| columns[j][i],
    ))
}

fn shatter(a: ShatterArgs) -> Result<String> {
    let points = read_points(&a.points)?;
    let set = match a.set.trim().to_ascii_lowercase().as_str() {
        "perceptron" | "perceptrons" => HypothesisSet::perceptron(points.ncols() as u64)?,
        _ => a.set.parse::<HypothesisSet>()?,
    };
    let d = count_dichotomies(points.view(), &set)?;
    if a.json {
        let mut v = serde_json::to_value(&d).map_err(|e| Error::data(e.to_string()))?;
        v["set"] = json!(set.to_string());
        v["growth"] = json!(set.growth(d.n_points as u64));
        return Ok(json_text(&v));
    }
    let mut out = String::new();
    outln!(
        out,
        "{set} realise {} of the 2^{} = {} dichotomies of {} point(s): {}",
        d.realised,
        d.n_points,
        d.possible,
        d.n_points,
        if d.shattered {
            "shattered"
        } else {
            "not shattered"
        }
    );
    outln!(
        out,
        "(growth function m_H({}) = {}, the most on any {} points)",
        d.n_points,
        set.growth(d.n_points as u64),
        d.n_points
    );
    Ok(out)
}

fn coins(a: CoinsArgs) -> Result<String> {
    let e = CoinParams::default()
        .coins(a.coins)
        .flips(a.flips)
        .runs(a.runs)
        .seed(a.seed)
        .eps(a.eps)
        .run()?;
    if a.json {
        return Ok(json_text(
            &serde_json::to_value(&e).map_err(|err| Error::data(err.to_string()))?,
        ));
    }
    let mut out = String::new();
    outln!(
        out,
        "{} runs of {} coins x {} flips (seed {})\n",
        a.runs,
        a.coins,
        a.flips,
        a.seed
    );
    let mut t = vec![vec!["coin".to_string(), "mean nu".to_string()]];
    for c in &e.coins {
        t.push(vec![format!("nu_{}", c.name), format!("{:.5}", c.mean_nu)]);
    }
    out.push_str(&table(&t));
    outln!(
        out,
        "\nP[|nu - 0.5| > eps] against Hoeffding's 2 exp(-2 eps^2 N), N = {}\n",
        a.flips
    );
    let mut t = vec![["eps", "nu_first", "nu_random", "nu_min", "Hoeffding"]
        .map(String::from)
        .to_vec()];
    for r in &e.rows {
        let mut row = vec![format!("{}", r.eps)];
        row.extend(r.probability.iter().map(|p| format!("{p:.4}")));
        row.push(format!("{:.4}", r.hoeffding));
        t.push(row);
    }
    out.push_str(&table(&t));
    let broken: Vec<String> = e
        .rows
        .iter()
        .filter(|r| r.probability[2] > r.hoeffding)
        .map(|r| r.eps.to_string())
        .collect();
    if !broken.is_empty() {
        outln!(
            out,
            "\nnu_min breaks the bound at eps = {}: that coin was chosen after looking at the flips.",
            broken.join(", ")
        );
    }
    Ok(out)
}
