//! Property tests of the solver on random small problems:
//! - every answer satisfies every constraint (checked directly, not by the encoder);
//! - every "not satisfiable" is confirmed by trying every assignment, and its core is
//!   unsatisfiable on its own and minimal (dropping any member makes it satisfiable);
//! - a second SAT backend (batsat) gives the same verdict and the same preferred
//!   choices.

use batsat::{lbool, BasicSolver, SolverInterface};
use olmsat_resolver::problem::{ConstraintKind, Problem};
use olmsat_resolver::sat::{BackendError, Lit, Outcome, SatBackend, Varisat};
use olmsat_resolver::solve::{solve, AppliedConstraint, SolveError, SolveOptions};
use proptest::prelude::*;

/// batsat behind the same trait.
#[derive(Default)]
struct Batsat {
    solver: BasicSolver,
    vars: Vec<batsat::Var>,
}

fn to_b(vars: &[batsat::Var], l: Lit) -> batsat::Lit {
    batsat::Lit::new(vars[l.var() as usize], l.is_positive())
}

impl SatBackend for Batsat {
    fn new_var(&mut self) -> Lit {
        let v = self.solver.new_var_default();
        self.vars.push(v);
        Lit::positive((self.vars.len() - 1) as u32)
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        let mut c: Vec<batsat::Lit> = lits.iter().map(|&l| to_b(&self.vars, l)).collect();
        self.solver.add_clause_reuse(&mut c);
    }
    fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, BackendError> {
        let a: Vec<batsat::Lit> = assumptions.iter().map(|&l| to_b(&self.vars, l)).collect();
        let r = self.solver.solve_limited(&a);
        if r == lbool::TRUE {
            let model = self.solver.get_model();
            Ok(Outcome::Sat(
                model.iter().map(|v| *v == lbool::TRUE).collect(),
            ))
        } else if r == lbool::FALSE {
            // The conflict holds the negations of the failed assumptions.
            let core: Vec<Lit> = assumptions
                .iter()
                .copied()
                .filter(|&l| self.solver.unsat_core_contains_lit(!to_b(&self.vars, l)))
                .collect();
            Ok(Outcome::Unsat(core))
        } else {
            Err(BackendError("batsat gave up".into()))
        }
    }
}

fn holds(p: &Problem, sel: &[bool], c: &AppliedConstraint) -> bool {
    let v = c.variable;
    match &p.variables[v].constraints[c.constraint].kind {
        ConstraintKind::Mandatory => sel[v],
        ConstraintKind::Prohibited => !sel[v],
        ConstraintKind::Dependency(ds) => !sel[v] || ds.iter().any(|&d| sel[d]),
        ConstraintKind::Conflict(o) => !(sel[v] && sel[*o]),
        ConstraintKind::AtMost(n, ids) => ids.iter().filter(|&&i| sel[i]).count() <= *n,
    }
}

fn all_constraints(p: &Problem) -> Vec<AppliedConstraint> {
    p.variables
        .iter()
        .enumerate()
        .flat_map(|(v, var)| {
            (0..var.constraints.len()).map(move |c| AppliedConstraint {
                variable: v,
                constraint: c,
            })
        })
        .collect()
}

/// Whether some assignment satisfies all of `cs` (brute force).
fn satisfiable(p: &Problem, cs: &[AppliedConstraint]) -> bool {
    let n = p.variables.len();
    (0u32..(1 << n)).any(|bits| {
        let sel: Vec<bool> = (0..n).map(|i| bits & (1 << i) != 0).collect();
        cs.iter().all(|c| holds(p, &sel, c))
    })
}

fn arb_problem() -> impl Strategy<Value = Problem> {
    (2usize..8).prop_flat_map(|n| {
        let kind = prop_oneof![
            3 => Just(0u8), // mandatory
            1 => Just(1u8), // prohibited
            4 => Just(2u8), // dependency
            2 => Just(3u8), // conflict
            1 => Just(4u8), // at most
        ];
        let c = (0..n, kind, prop::collection::vec(0..n, 0..4), 0usize..3);
        prop::collection::vec(c, 1..(2 * n)).prop_map(move |cs| {
            let mut p = Problem::default();
            for i in 0..n {
                p.add(format!("v{i}"));
            }
            for (subject, kind, others, k) in cs {
                let kind = match kind {
                    0 => ConstraintKind::Mandatory,
                    1 => ConstraintKind::Prohibited,
                    2 => ConstraintKind::Dependency(others),
                    3 => ConstraintKind::Conflict(others.first().copied().unwrap_or(0)),
                    _ => ConstraintKind::AtMost(k, others),
                };
                p.constrain(subject, kind);
            }
            p
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn answers_are_correct_and_backends_agree(p in arb_problem()) {
        let all = all_constraints(&p);
        let a = solve(&p, Varisat::default(), SolveOptions::default());
        let b = solve(&p, Batsat::default(), SolveOptions::default());
        match (&a, &b) {
            (Ok(sa), Ok(sb)) => {
                for s in [sa, sb] {
                    let mut sel = vec![false; p.variables.len()];
                    for &v in &s.selected { sel[v] = true; }
                    for c in &all {
                        prop_assert!(holds(&p, &sel, c), "violated {:?}", p.variables[c.variable].constraints[c.constraint]);
                    }
                    for &g in &s.guessed {
                        prop_assert!(sel[g], "a guessed variable is in the answer");
                    }
                }
                prop_assert_eq!(&sa.guessed, &sb.guessed, "the preference search does not depend on the backend");
            }
            (Err(SolveError::NotSatisfiable(ca)), Err(SolveError::NotSatisfiable(cb))) => {
                prop_assert!(!satisfiable(&p, &all), "reported unsatisfiable, but an assignment exists");
                for core in [ca, cb] {
                    prop_assert!(!core.is_empty());
                    prop_assert!(!satisfiable(&p, core), "the core alone must be unsatisfiable");
                    for i in 0..core.len() {
                        let mut less = core.clone();
                        less.remove(i);
                        prop_assert!(satisfiable(&p, &less), "the core must be minimal");
                    }
                }
            }
            _ => prop_assert!(false, "backends disagree: {:?} vs {:?}", a.as_ref().map(|s| &s.selected), b.as_ref().map(|s| &s.selected)),
        }
    }
}
