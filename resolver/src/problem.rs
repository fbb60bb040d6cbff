//! The solver's input, independent of OLM: variables identified by strings and
//! interned to indices, each with constraints that carry the sentence shown when
//! they are part of a conflict.
//!
//! The five constraint kinds are OLM's (`pkg/controller/registry/resolver/solver`):
//! mandatory, prohibited, dependency (ordered: the order is the preference),
//! conflict, and at-most.

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

/// A constraint and the sentence that explains it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint {
    /// What it demands.
    pub kind: ConstraintKind,
    /// The sentence used in explanations (OLM's text).
    pub message: String,
}

/// A variable with its constraints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    /// Unique identifier, e.g. `catalog/ns/channel/bundle`.
    pub id: String,
    /// Constraints on it.
    pub constraints: Vec<Constraint>,
}

/// A whole problem; the order of variables is the order anchors are searched in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Problem {
    /// The variables.
    pub variables: Vec<Variable>,
}

impl Problem {
    /// Add a variable with no constraints; returns its index.
    pub fn add(&mut self, id: impl Into<String>) -> VarIndex {
        self.variables.push(Variable {
            id: id.into(),
            constraints: Vec::new(),
        });
        self.variables.len() - 1
    }

    /// Add a constraint with OLM's default sentence for its kind.
    pub fn constrain(&mut self, subject: VarIndex, kind: ConstraintKind) {
        let message = self.default_message(subject, &kind);
        self.variables[subject]
            .constraints
            .push(Constraint { kind, message });
    }

    /// Add a constraint with a custom sentence.
    pub fn constrain_with(
        &mut self,
        subject: VarIndex,
        kind: ConstraintKind,
        message: impl Into<String>,
    ) {
        self.variables[subject].constraints.push(Constraint {
            kind,
            message: message.into(),
        });
    }

    /// OLM's default `String()` of each constraint kind.
    pub fn default_message(&self, subject: VarIndex, kind: &ConstraintKind) -> String {
        let id = |i: VarIndex| self.variables.get(i).map(|v| v.id.as_str()).unwrap_or("?");
        let s = id(subject);
        match kind {
            ConstraintKind::Mandatory => format!("{s} is mandatory"),
            ConstraintKind::Prohibited => format!("{s} is prohibited"),
            ConstraintKind::Dependency(ds) if ds.is_empty() => {
                format!("{s} has a dependency without any candidates to satisfy it")
            }
            ConstraintKind::Dependency(ds) => format!(
                "{s} requires at least one of {}",
                ds.iter().map(|&d| id(d)).collect::<Vec<_>>().join(", ")
            ),
            ConstraintKind::Conflict(o) => format!("{s} conflicts with {}", id(*o)),
            ConstraintKind::AtMost(n, ids) => format!(
                "{s} permits at most {n} of {}",
                ids.iter().map(|&d| id(d)).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}
