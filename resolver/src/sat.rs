//! The SAT backend seam: literals, and the three operations the resolver needs.
//!
//! The resolver never talks to a solver crate directly; any incremental solver with
//! assumptions and failed-assumption cores fits behind [`SatBackend`].

use std::fmt;

/// A literal: a variable (0-based) and a polarity.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lit(u32);

impl Lit {
    /// The positive literal of variable `var`.
    pub fn positive(var: u32) -> Lit {
        Lit(var << 1)
    }

    /// The variable.
    pub fn var(self) -> u32 {
        self.0 >> 1
    }

    /// Whether this is the positive literal of its variable.
    pub fn is_positive(self) -> bool {
        self.0 & 1 == 0
    }

    /// The opposite literal.
    pub fn negate(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        self.negate()
    }
}

impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_positive() {
            write!(f, "x{}", self.var())
        } else {
            write!(f, "¬x{}", self.var())
        }
    }
}

/// The answer to one solve call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Satisfiable: the value of every variable, by index.
    Sat(Vec<bool>),
    /// Unsatisfiable under the assumptions: a subset of the assumptions that is
    /// already unsatisfiable (not necessarily minimal).
    Unsat(Vec<Lit>),
}

/// A failure of the backend itself (not an unsatisfiable problem).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("SAT backend failed: {0}")]
pub struct BackendError(pub String);

/// An incremental SAT solver with assumptions.
pub trait SatBackend {
    /// A fresh variable's positive literal.
    fn new_var(&mut self) -> Lit;
    /// Add a clause (a disjunction of literals) permanently.
    fn add_clause(&mut self, lits: &[Lit]);
    /// Solve with the literals of `assumptions` forced true for this call only.
    fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, BackendError>;
}

/// [`SatBackend`] over the varisat CDCL solver.
pub struct Varisat {
    solver: varisat::Solver<'static>,
    vars: u32,
}

impl Default for Varisat {
    fn default() -> Self {
        Varisat {
            solver: varisat::Solver::new(),
            vars: 0,
        }
    }
}

fn to_varisat(l: Lit) -> varisat::Lit {
    varisat::Lit::from_index(l.var() as usize, l.is_positive())
}

fn from_varisat(l: varisat::Lit) -> Lit {
    let v = crate::index_u32(l.var().index());
    if l.is_positive() {
        Lit::positive(v)
    } else {
        !Lit::positive(v)
    }
}

impl SatBackend for Varisat {
    fn new_var(&mut self) -> Lit {
        use varisat::ExtendFormula;
        let v = self.solver.new_var();
        self.vars += 1;
        from_varisat(v.positive())
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        use varisat::ExtendFormula;
        let c: Vec<varisat::Lit> = lits.iter().copied().map(to_varisat).collect();
        self.solver.add_clause(&c);
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, BackendError> {
        let a: Vec<varisat::Lit> = assumptions.iter().copied().map(to_varisat).collect();
        self.solver.assume(&a);
        match self.solver.solve() {
            Ok(true) => {
                let mut values = vec![false; self.vars as usize];
                for l in self.solver.model().unwrap_or_default() {
                    if let Some(v) = values.get_mut(l.var().index()) {
                        *v = l.is_positive();
                    }
                }
                Ok(Outcome::Sat(values))
            }
            Ok(false) => Ok(Outcome::Unsat(
                self.solver
                    .failed_core()
                    .unwrap_or_default()
                    .iter()
                    .copied()
                    .map(from_varisat)
                    .collect(),
            )),
            Err(e) => Err(BackendError(e.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assumptions_and_cores() {
        let mut s = Varisat::default();
        let a = s.new_var();
        let b = s.new_var();
        let c = s.new_var();
        s.add_clause(&[!a, !b]);
        match s.solve(&[a, b, c]).unwrap() {
            Outcome::Unsat(core) => {
                let mut core = core;
                core.sort();
                assert_eq!(core, vec![a, b]);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(s.solve(&[a]).unwrap(), Outcome::Sat(m) if m[0] && !m[1]));
    }
}
