//! The solver's input, independent of OLM: variables identified by strings and
//! interned to indices, each with constraints that carry an origin: what the
//! constraint stands for, which the solver never looks at.
//!
//! The five constraint kinds are OLM's (`pkg/controller/registry/resolver/solver`):
//! mandatory, prohibited, dependency (ordered: the order is the preference),
//! conflict, and at-most.
//!
//! The origin type is the caller's: the resolver gives each constraint a typed
//! origin (which Subscription, which requirement of which bundle, …) and renders
//! sentences from it; a plain [`Problem`] carries a `String`, the sentence
//! itself, and [`Problem::constrain`] fills in OLM's default sentence for the
//! kind.

/// Index of a variable in a [`Problem`].
pub type VarIndex = usize;

/// What a constraint demands of its variable (the subject).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConstraintKind {
    /// The subject is in the solution; also an anchor of the preference search.
    Mandatory,
    /// The subject is not in the solution.
    Prohibited,
    /// If the subject is in the solution, so is at least one of these, preferred in
    /// this order.
    Dependency(Vec<VarIndex>),
    /// Not both the subject and this variable.
    Conflict(VarIndex),
    /// At most `n` of these variables (whatever the subject).
    AtMost(usize, Vec<VarIndex>),
}

/// A constraint and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint<O = String> {
    /// What it demands.
    pub kind: ConstraintKind,
    /// What it stands for, for explanations (for `O = String`, the sentence).
    pub origin: O,
}

/// A variable with its constraints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable<O = String> {
    /// Unique identifier, e.g. `catalog/ns/channel/bundle`.
    pub id: String,
    /// Constraints on it.
    pub constraints: Vec<Constraint<O>>,
}

/// A whole problem; the order of variables is the order anchors are searched in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem<O = String> {
    /// The variables.
    pub variables: Vec<Variable<O>>,
}

impl<O> Default for Problem<O> {
    fn default() -> Self {
        Problem {
            variables: Vec::new(),
        }
    }
}

impl<O> Problem<O> {
    /// Add a variable with no constraints; returns its index.
    pub fn add(&mut self, id: impl Into<String>) -> VarIndex {
        self.variables.push(Variable {
            id: id.into(),
            constraints: Vec::new(),
        });
        self.variables.len() - 1
    }

    /// Add a constraint with its origin.
    pub fn constrain_with(
        &mut self,
        subject: VarIndex,
        kind: ConstraintKind,
        origin: impl Into<O>,
    ) {
        self.variables[subject].constraints.push(Constraint {
            kind,
            origin: origin.into(),
        });
    }

    /// The identifier of variable `i` (`?` when there is none).
    pub fn id(&self, i: VarIndex) -> &str {
        self.variables.get(i).map(|v| v.id.as_str()).unwrap_or("?")
    }

    /// OLM's default `String()` of each constraint kind.
    pub fn default_message(&self, subject: VarIndex, kind: &ConstraintKind) -> String {
        let s = self.id(subject);
        let list = |ds: &[VarIndex]| {
            ds.iter()
                .map(|&d| self.id(d))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match kind {
            ConstraintKind::Mandatory => format!("{s} is mandatory"),
            ConstraintKind::Prohibited => format!("{s} is prohibited"),
            ConstraintKind::Dependency(ds) if ds.is_empty() => {
                format!("{s} has a dependency without any candidates to satisfy it")
            }
            ConstraintKind::Dependency(ds) => format!("{s} requires at least one of {}", list(ds)),
            ConstraintKind::Conflict(o) => format!("{s} conflicts with {}", self.id(*o)),
            ConstraintKind::AtMost(n, ids) => format!("{s} permits at most {n} of {}", list(ids)),
        }
    }
}

impl Problem<String> {
    /// Add a constraint with OLM's default sentence for its kind.
    pub fn constrain(&mut self, subject: VarIndex, kind: ConstraintKind) {
        let message = self.default_message(subject, &kind);
        self.constrain_with(subject, kind, message);
    }
}
