//! Solving a [`Problem`] the way OLM's solver does, deterministically.
//!
//! 1. Every constraint is guarded by an activation literal that is *assumed*, so an
//!    unsatisfiable problem yields the constraints responsible (the failed
//!    assumptions), which are then shrunk by deletion until each one is needed.
//! 2. Preference search: a queue of choices, one per anchor (mandatory variable) in
//!    input order; guessing a variable pushes one choice per dependency of it (its
//!    candidates in preference order) to the back of the queue, so the search is
//!    breadth-first; a choice already satisfied by a guess needs no new guess; on a
//!    conflict the last guess is undone (with the choices it introduced) and its
//!    next candidate tried. The earliest candidate of each dependency wins, greedily.
//! 3. Minimisation: with the guesses fixed and every variable that is false in the
//!    found model kept false, the number of other true variables is minimised
//!    (at most 0, 1, 2, … until satisfiable).
//!
//! OLM checks each guess with unit propagation and only solves fully at the end;
//! solving fully at each guess gives the same first solution (the search order is
//! unchanged; only dead subtrees are pruned earlier). A guess the last model already
//! satisfies needs no solver call at all.

use std::collections::{HashSet, VecDeque};
use std::time::Instant;

use crate::problem::{ConstraintKind, Problem, VarIndex};
use crate::sat::{BackendError, Lit, Outcome, SatBackend};

/// A constraint of the problem, by variable and position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AppliedConstraint {
    /// The constraint's subject.
    pub variable: VarIndex,
    /// Its position among the subject's constraints.
    pub constraint: usize,
}

/// Why no solution was returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The constraints cannot all hold; this set (minimal: every member needed)
    /// cannot hold together.
    #[error("constraints not satisfiable")]
    NotSatisfiable(Vec<AppliedConstraint>),
    /// The time limit passed.
    #[error("gave up: the time limit passed before the search finished")]
    TimedOut,
    /// The SAT backend failed.
    #[error(transparent)]
    Backend(#[from] BackendError),
}

/// The chosen variables and how the search went.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Solution {
    /// True variables, ascending.
    pub selected: Vec<VarIndex>,
    /// Variables chosen by the preference search, in the order they were guessed.
    pub guessed: Vec<VarIndex>,
    /// Statistics.
    pub stats: Stats,
}

/// Counters for reports and benchmarks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// SAT variables (problem variables, activation literals, auxiliaries).
    pub sat_variables: usize,
    /// Clauses added.
    pub clauses: usize,
    /// Solve calls made.
    pub solve_calls: usize,
}

/// Options for one solve.
#[derive(Debug, Clone, Copy, Default)]
pub struct SolveOptions {
    /// Give up after this instant.
    pub deadline: Option<Instant>,
}

struct Encoded<B: SatBackend> {
    backend: B,
    var_lits: Vec<Lit>,
    /// (activation literal, constraint) for every constraint.
    activations: Vec<(Lit, AppliedConstraint)>,
    stats: Stats,
    deadline: Option<Instant>,
}

impl<B: SatBackend> Encoded<B> {
    fn new_lit(&mut self) -> Lit {
        self.stats.sat_variables += 1;
        self.backend.new_var()
    }

    fn clause(&mut self, c: &[Lit]) {
        self.stats.clauses += 1;
        self.backend.add_clause(c);
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, SolveError> {
        if self.deadline.is_some_and(|d| Instant::now() > d) {
            return Err(SolveError::TimedOut);
        }
        self.stats.solve_calls += 1;
        Ok(self.backend.solve(assumptions)?)
    }

    /// `guard → at most n of xs` (sequential counter).
    fn at_most(&mut self, guard: Lit, n: usize, xs: &[Lit]) {
        if xs.len() <= n {
            return;
        }
        if n == 0 {
            for &x in xs {
                self.clause(&[!guard, !x]);
            }
            return;
        }
        // s[i][j]: at least j+1 of xs[0..=i] are true (one direction suffices).
        let mut prev: Vec<Lit> = Vec::new();
        for (i, &x) in xs.iter().enumerate() {
            let last = i + 1 == xs.len();
            if i > 0 {
                // Overflow: x with n already counted before it.
                self.clause(&[!guard, !x, !prev[n - 1]]);
            }
            if last {
                break;
            }
            let cur: Vec<Lit> = (0..n).map(|_| self.new_lit()).collect();
            self.clause(&[!x, cur[0]]);
            if i > 0 {
                for j in 0..n {
                    self.clause(&[!prev[j], cur[j]]);
                    if j > 0 {
                        self.clause(&[!x, !prev[j - 1], cur[j]]);
                    }
                }
            }
            prev = cur;
        }
    }
}

/// Solve `problem` with `backend`. The constraints' origins play no part.
pub fn solve<O, B: SatBackend>(
    problem: &Problem<O>,
    backend: B,
    options: SolveOptions,
) -> Result<Solution, SolveError> {
    let mut enc = Encoded {
        backend,
        var_lits: Vec::with_capacity(problem.variables.len()),
        activations: Vec::new(),
        stats: Stats::default(),
        deadline: options.deadline,
    };
    for _ in &problem.variables {
        let l = enc.new_lit();
        enc.var_lits.push(l);
    }
    for (vi, v) in problem.variables.iter().enumerate() {
        let x = enc.var_lits[vi];
        for (ci, c) in v.constraints.iter().enumerate() {
            let m = enc.new_lit();
            enc.activations.push((
                m,
                AppliedConstraint {
                    variable: vi,
                    constraint: ci,
                },
            ));
            match &c.kind {
                ConstraintKind::Mandatory => enc.clause(&[!m, x]),
                ConstraintKind::Prohibited => enc.clause(&[!m, !x]),
                ConstraintKind::Dependency(ds) => {
                    let mut cl = vec![!m, !x];
                    cl.extend(ds.iter().map(|&d| enc.var_lits[d]));
                    enc.clause(&cl);
                }
                ConstraintKind::Conflict(y) => {
                    let y = enc.var_lits[*y];
                    enc.clause(&[!m, !x, !y]);
                }
                ConstraintKind::AtMost(n, ids) => {
                    let xs: Vec<Lit> = ids.iter().map(|&i| enc.var_lits[i]).collect();
                    enc.at_most(m, *n, &xs);
                }
            }
        }
    }
    let base: Vec<Lit> = enc.activations.iter().map(|(m, _)| *m).collect();

    // 1. Are the constraints satisfiable at all?
    let mut model = match enc.solve(&base)? {
        Outcome::Sat(m) => m,
        Outcome::Unsat(core) => {
            return Err(SolveError::NotSatisfiable(minimal_core(
                &mut enc, &base, core,
            )?))
        }
    };

    // 2. Preference search.
    let guesses = preference_search(problem, &mut enc, &base, &mut model)?;

    // 3. Minimise the extra true variables.
    let guessed: HashSet<VarIndex> = guesses.iter().copied().collect();
    let mut fixed = base.clone();
    let mut extras = Vec::new();
    for (vi, &l) in enc.var_lits.iter().enumerate() {
        if guessed.contains(&vi) {
            fixed.push(l);
        } else if model.get(l.var() as usize).copied().unwrap_or(false) {
            extras.push(l);
        } else {
            fixed.push(!l);
        }
    }
    let mut best = None;
    for w in 0..=extras.len() {
        let guard = enc.new_lit();
        enc.at_most(guard, w, &extras);
        let mut assumptions = fixed.clone();
        assumptions.push(guard);
        if let Outcome::Sat(m) = enc.solve(&assumptions)? {
            best = Some(m);
            break;
        }
    }
    let model = best.ok_or_else(|| BackendError("no model after minimisation".into()))?;
    let selected = enc
        .var_lits
        .iter()
        .enumerate()
        .filter(|(_, l)| model.get(l.var() as usize).copied().unwrap_or(false))
        .map(|(i, _)| i)
        .collect();
    Ok(Solution {
        selected,
        guessed: guesses,
        stats: enc.stats,
    })
}

/// Shrink a failed core by deletion: drop each member whose removal keeps the rest
/// unsatisfiable. Members are tried in a fixed order, so the result is deterministic.
fn minimal_core<B: SatBackend>(
    enc: &mut Encoded<B>,
    _base: &[Lit],
    core: Vec<Lit>,
) -> Result<Vec<AppliedConstraint>, SolveError> {
    let by_lit: std::collections::HashMap<Lit, AppliedConstraint> =
        enc.activations.iter().copied().collect();
    let mut members: Vec<(AppliedConstraint, Lit)> = core
        .into_iter()
        .filter_map(|l| by_lit.get(&l).map(|c| (*c, l)))
        .collect();
    members.sort();
    members.dedup();
    let mut i = 0;
    while i < members.len() {
        let trial: Vec<Lit> = members
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, (_, l))| *l)
            .collect();
        match enc.solve(&trial)? {
            Outcome::Unsat(smaller) => {
                let keep: HashSet<Lit> = smaller.into_iter().collect();
                members = members
                    .into_iter()
                    .enumerate()
                    .filter(|(j, (_, l))| *j != i && keep.contains(l))
                    .map(|(_, m)| m)
                    .collect();
                // Members before i stay needed; continue at the same position.
                i = i.min(members.len());
            }
            Outcome::Sat(_) => i += 1,
        }
    }
    Ok(members.into_iter().map(|(c, _)| c).collect())
}

struct Choice {
    index: usize,
    candidates: Vec<VarIndex>,
}

struct Guess {
    /// `None` when the choice was already satisfied or had no candidate left.
    var: Option<VarIndex>,
    index: usize,
    children: usize,
    candidates: Vec<VarIndex>,
}

/// OLM's breadth-first preference search (`solver/search.go`).
fn preference_search<O, B: SatBackend>(
    problem: &Problem<O>,
    enc: &mut Encoded<B>,
    base: &[Lit],
    model: &mut Vec<bool>,
) -> Result<Vec<VarIndex>, SolveError> {
    let mut choices: VecDeque<Choice> = problem
        .variables
        .iter()
        .enumerate()
        .filter(|(_, v)| {
            v.constraints
                .iter()
                .any(|c| c.kind == ConstraintKind::Mandatory)
        })
        .map(|(i, _)| Choice {
            index: 0,
            candidates: vec![i],
        })
        .collect();
    let mut guesses: Vec<Guess> = Vec::new();
    let mut assumed: HashSet<VarIndex> = HashSet::new();
    // `None` after a backtrack: the level's satisfiability is known from before.
    let mut sat = true;
    loop {
        if !sat {
            let Some(g) = guesses.pop() else {
                // Cannot happen: the base level was satisfiable.
                return Err(BackendError("preference search lost the base model".into()).into());
            };
            if let Some(v) = g.var {
                assumed.remove(&v);
            }
            for _ in 0..g.children {
                choices.pop_back();
            }
            // Undoing a real guess returns to a level known to be satisfiable (the
            // search only descends from satisfiable levels); undoing a guess that
            // assumed nothing leaves the level unsatisfiable: keep backtracking.
            sat = g.var.is_some();
            choices.push_front(Choice {
                index: if g.var.is_some() {
                    g.index + 1
                } else {
                    g.index
                },
                candidates: g.candidates,
            });
            continue;
        }
        let Some(c) = choices.pop_front() else {
            break;
        };
        let mut g = Guess {
            var: c.candidates.get(c.index).copied(),
            index: c.index,
            children: 0,
            candidates: c.candidates,
        };
        if g.candidates.iter().any(|v| assumed.contains(v)) {
            g.var = None;
        }
        let Some(v) = g.var else {
            guesses.push(g);
            continue;
        };
        for constraint in &problem.variables[v].constraints {
            if let ConstraintKind::Dependency(ds) = &constraint.kind {
                if !ds.is_empty() {
                    g.children += 1;
                    choices.push_back(Choice {
                        index: 0,
                        candidates: ds.clone(),
                    });
                }
            }
        }
        assumed.insert(v);
        guesses.push(g);
        let lit = enc.var_lits[v];
        if model.get(lit.var() as usize).copied().unwrap_or(false) {
            continue; // the current model already agrees
        }
        let mut assumptions = base.to_vec();
        assumptions.extend(
            guesses
                .iter()
                .filter_map(|g| g.var)
                .map(|v| enc.var_lits[v]),
        );
        match enc.solve(&assumptions)? {
            Outcome::Sat(m) => *model = m,
            Outcome::Unsat(_) => sat = false,
        }
    }
    Ok(guesses.iter().filter_map(|g| g.var).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::ConstraintKind::*;
    use crate::sat::Varisat;

    fn ids(p: &Problem, sel: &[VarIndex]) -> Vec<String> {
        let mut v: Vec<String> = sel.iter().map(|&i| p.variables[i].id.clone()).collect();
        v.sort();
        v
    }

    fn run(p: &Problem) -> Result<Vec<String>, Vec<String>> {
        match solve(p, Varisat::default(), SolveOptions::default()) {
            Ok(s) => Ok(ids(p, &s.selected)),
            Err(SolveError::NotSatisfiable(core)) => {
                let mut m: Vec<String> = core
                    .iter()
                    .map(|c| {
                        p.variables[c.variable].constraints[c.constraint]
                            .origin
                            .clone()
                    })
                    .collect();
                m.sort();
                Err(m)
            }
            Err(e) => panic!("{e}"),
        }
    }

    fn problem(vars: &[&str]) -> Problem {
        let mut p = Problem::default();
        for v in vars {
            p.add(*v);
        }
        p
    }

    #[test]
    fn mandatory_and_dependency_prefers_first_candidate() {
        let mut p = problem(&["a", "b", "c"]);
        p.constrain(0, Mandatory);
        p.constrain(0, Dependency(vec![1, 2]));
        assert_eq!(run(&p), Ok(vec!["a".into(), "b".into()]));
        p.constrain(1, Prohibited);
        assert_eq!(run(&p), Ok(vec!["a".into(), "c".into()]));
    }

    #[test]
    fn unsatisfiable_core_is_minimal() {
        let mut p = problem(&["a", "b", "x"]);
        p.constrain(0, Mandatory);
        p.constrain(0, Dependency(vec![1]));
        p.constrain(1, Prohibited);
        p.constrain(2, Mandatory); // unrelated
        assert_eq!(
            run(&p),
            Err(vec![
                "a is mandatory".into(),
                "a requires at least one of b".into(),
                "b is prohibited".into()
            ])
        );
    }

    #[test]
    fn preference_beats_size() {
        // OLM's "result size larger than minimum due to preference":
        // a -> (x | y), b -> y; x preferred for a, so {a, b, x, y} not {a, b, y}.
        let mut p = problem(&["a", "b", "x", "y"]);
        p.constrain(0, Mandatory);
        p.constrain(1, Mandatory);
        p.constrain(0, Dependency(vec![2, 3]));
        p.constrain(1, Dependency(vec![3]));
        assert_eq!(
            run(&p),
            Ok(vec!["a".into(), "b".into(), "x".into(), "y".into()])
        );
    }

    #[test]
    fn minimises_extras() {
        // c is neither guessed nor needed: it stays out.
        let mut p = problem(&["a", "b", "c"]);
        p.constrain(0, Mandatory);
        p.constrain(0, Dependency(vec![1]));
        p.constrain(2, Dependency(vec![1]));
        assert_eq!(run(&p), Ok(vec!["a".into(), "b".into()]));
    }

    #[test]
    fn backtracks_to_next_candidate_on_conflict() {
        let mut p = problem(&["a", "b", "c", "d"]);
        p.constrain(0, Mandatory);
        p.constrain(0, Dependency(vec![1, 2]));
        p.constrain(1, Dependency(vec![3]));
        p.constrain(3, Prohibited);
        assert_eq!(run(&p), Ok(vec!["a".into(), "c".into()]));
    }

    #[test]
    fn at_most_is_enforced() {
        for n in 0..4 {
            let mut p = problem(&["s", "a", "b", "c", "d"]);
            p.constrain(0, Mandatory);
            p.constrain(0, AtMost(n, vec![1, 2, 3, 4]));
            for v in 1..5 {
                p.constrain(v, Mandatory);
            }
            let r = run(&p);
            assert_eq!(r.is_ok(), n >= 4, "n={n}: {r:?}");
        }
        let mut p = problem(&["s", "a", "b"]);
        p.constrain(0, Mandatory);
        p.constrain_with(0, AtMost(1, vec![1, 2]), "a and b provide k");
        p.constrain(1, Mandatory);
        p.constrain(2, Mandatory);
        assert_eq!(
            run(&p),
            Err(vec![
                "a and b provide k".into(),
                "a is mandatory".into(),
                "b is mandatory".into()
            ])
        );
    }

    #[test]
    fn conflict_makes_second_choice() {
        let mut p = problem(&["a", "b", "x", "y"]);
        p.constrain(0, Mandatory);
        p.constrain(1, Mandatory);
        p.constrain(0, Dependency(vec![2, 3]));
        p.constrain(1, Dependency(vec![2]));
        p.constrain(1, Conflict(3));
        p.constrain(2, Conflict(3));
        assert_eq!(run(&p), Ok(vec!["a".into(), "b".into(), "x".into()]));
    }
}
