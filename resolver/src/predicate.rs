//! Dependency predicates: what a bundle's `olm.gvk.required`,
//! `olm.package.required`, `olm.label.required` and `olm.constraint` properties ask
//! of another bundle, evaluated against one candidate at a time as OLM v0 does, with
//! OLM's predicate texts.

use std::fmt;
use std::sync::Arc;

use olmsat_catalog::cel_limits::{self, CelError, DataBounds};
use olmsat_catalog::property::{types, Gvk, PropertyValue};
use olmsat_versions::range::{Range, RangeError};
use serde::Deserialize;
use serde_json::Value;

use crate::entry::Entry;

/// The largest `olm.constraint` value accepted (operator-framework/api's limit).
pub const MAX_CONSTRAINT_SIZE: usize = 2 << 16;

/// Deepest nesting of `all`/`any`/`not` accepted. Each level is three levels of
/// JSON (`{"not":{"constraints":[...]}}`), and values are also refused beyond
/// [`MAX_CONSTRAINT_JSON_DEPTH`], which allows 38 such levels; this bound guards
/// the conversion itself.
pub const MAX_CONSTRAINT_DEPTH: usize = 64;

/// Deepest JSON nesting of an `olm.constraint` value accepted (below serde_json's
/// recursion limit of 128, so the refusal has olmsat's own words). Go's decoder
/// allows 10,000 levels; real constraints nest a few.
pub const MAX_CONSTRAINT_JSON_DEPTH: usize = 120;

/// A requirement one bundle places on another.
#[derive(Debug, Clone)]
pub enum Predicate {
    /// Provides this API (`olm.gvk` equal).
    Gvk(Gvk),
    /// Is of this package with a version in this range.
    Package {
        /// Package name.
        name: String,
        /// The range, as parsed.
        range: Range,
    },
    /// Carries this `olm.label`.
    Label(String),
    /// All of these.
    All(Vec<Predicate>),
    /// Any of these.
    Any(Vec<Predicate>),
    /// None of these.
    Not(Vec<Predicate>),
    /// A CEL rule over the candidate's properties.
    Cel(Arc<CelRule>),
}

/// A compiled CEL rule with its failure message.
pub struct CelRule {
    /// The rule text.
    pub rule: String,
    /// The constraint's failureMessage.
    pub failure_message: String,
    program: cel::Program,
}

impl fmt::Debug for CelRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CelRule").field("rule", &self.rule).finish()
    }
}

/// A predicate that cannot be built (a resolution error, as in OLM).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PredicateError {
    /// The value is over OLM's size limit.
    #[error("parse olm.constraint: olm.constraint value is greater than max constraint size {MAX_CONSTRAINT_SIZE} bytes")]
    TooLarge,
    /// The JSON is nested deeper than olmsat reads.
    #[error("parse olm.constraint: value nested {0} levels deep; olmsat accepts at most {MAX_CONSTRAINT_JSON_DEPTH} (about 38 levels of all, any and not)")]
    JsonTooDeep(usize),
    /// Not JSON (serde_json's text).
    #[error("parse olm.constraint: {0}")]
    NotJson(String),
    /// Compound constraints nested deeper than olmsat follows.
    #[error("parse olm.constraint: constraints nested deeper than {MAX_CONSTRAINT_DEPTH} levels")]
    TooDeep,
    /// JSON that does not decode into OLM's constraint type (Go's text).
    #[error("parse olm.constraint: json: {0}")]
    Decode(String),
    /// A package constraint's version range that does not parse.
    #[error("{CONVERT_PREFIX}{0}")]
    Range(RangeError),
    /// A CEL rule that does not compile.
    #[error("{CONVERT_PREFIX}{0}")]
    Cel(CelCompileError),
    /// A constraint with no gvk, package, cel, all, any or not.
    #[error("{CONVERT_PREFIX}constraint is empty")]
    Empty,
    /// A CEL rule whose estimated cost on a bundle is over olmsat's limits.
    #[error(
        "{CONVERT_PREFIX}olmsat refuses to evaluate CEL rule {rule:?} on bundle {bundle:?}: {cost}"
    )]
    TooCostly {
        /// The rule.
        rule: String,
        /// The bundle it was to be evaluated on.
        bundle: String,
        /// The estimate, in words.
        cost: String,
    },
    /// A CEL rule whose value is not a boolean.
    #[error("{CONVERT_PREFIX}cel expressions must have type Bool: {0:?}")]
    NotBool(String),
}

/// The dependency properties of a bundle, each of which becomes one
/// requirement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RequirementProperty {
    /// `olm.gvk.required`: a provider of an API.
    GvkRequired,
    /// `olm.package.required`: a package in a version range.
    PackageRequired,
    /// `olm.label.required`: a bundle with a label.
    LabelRequired,
    /// `olm.constraint`: a compound or CEL constraint.
    Constraint,
}

impl RequirementProperty {
    /// The property's type, e.g. `olm.package.required`.
    pub fn type_name(self) -> &'static str {
        match self {
            RequirementProperty::GvkRequired => types::GVK_REQUIRED,
            RequirementProperty::PackageRequired => types::PACKAGE_REQUIRED,
            RequirementProperty::LabelRequired => types::LABEL_REQUIRED,
            RequirementProperty::Constraint => types::CONSTRAINT,
        }
    }
}

impl fmt::Display for RequirementProperty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.type_name())
    }
}

impl serde::Serialize for RequirementProperty {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.type_name())
    }
}

/// One dependency property of a bundle, as a predicate.
#[derive(Debug, Clone)]
pub struct Requirement {
    /// The property it comes from.
    pub property: RequirementProperty,
    /// What it asks of a candidate.
    pub predicate: Predicate,
}

/// A dependency property of a bundle that cannot be turned into a predicate
/// (a resolution error, as in OLM).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequirementError {
    /// OLM's error for the property, as OLM words it (`parse olm.constraint:
    /// …`, `convert olm.constraint to resolver predicate: …`).
    #[error(transparent)]
    Predicate(#[from] PredicateError),
    /// A version range that does not parse: OLM's error whole (for
    /// `olm.package.required` blang's own text, for `olm.constraint` that text
    /// after OLM's `convert olm.constraint to resolver predicate: `), then
    /// olmsat's context in parentheses.
    #[error("{} (bundle {bundle:?}, {property} for {package:?})", olm_range_error(*.property, .source))]
    Range {
        /// The bundle (CSV name) that carries the property.
        bundle: String,
        /// The property.
        property: RequirementProperty,
        /// The package the range is about.
        package: String,
        /// blang's error for the range.
        source: RangeError,
    },
}

/// OLM's error for a version range that does not parse, in `property`.
fn olm_range_error(property: RequirementProperty, source: &RangeError) -> String {
    match property {
        RequirementProperty::Constraint => format!("{CONVERT_PREFIX}{source}"),
        _ => source.to_string(),
    }
}

/// The prefix OLM gives every error of turning an `olm.constraint` into a predicate.
const CONVERT_PREFIX: &str = "convert olm.constraint to resolver predicate: ";

/// Why an `olm.constraint` cannot be turned into a predicate: OLM's text, or
/// a version range that does not parse (which [`for_properties`] places in
/// its bundle).
enum ConstraintError {
    Predicate(PredicateError),
    Range { package: String, source: RangeError },
}

impl From<PredicateError> for ConstraintError {
    fn from(e: PredicateError) -> Self {
        ConstraintError::Predicate(e)
    }
}

impl From<ConstraintError> for PredicateError {
    fn from(e: ConstraintError) -> Self {
        match e {
            ConstraintError::Predicate(e) => e,
            ConstraintError::Range { source, .. } => PredicateError::Range(source),
        }
    }
}

/// Why a CEL rule cannot be compiled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CelCompileError {
    /// The rule does not parse.
    #[error("ERROR: <input>: {0}")]
    Syntax(String),
    /// The rule is beyond olmsat's limits.
    #[error("olmsat refuses this CEL rule: {0}")]
    Refused(CelError),
    /// The rule names a function or variable the environment does not
    /// declare (the Go checker's error).
    #[error("ERROR: <input>: undeclared reference to '{0}' (in container '')")]
    Undeclared(String),
}

impl fmt::Display for Predicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn join(f: &mut fmt::Formatter<'_>, ps: &[Predicate], sep: &str) -> fmt::Result {
            for (i, p) in ps.iter().enumerate() {
                if i > 0 {
                    f.write_str(sep)?;
                }
                write!(f, "{p}")?;
            }
            Ok(())
        }
        match self {
            Predicate::Gvk(g) => write!(
                f,
                "providing an API with group: {}, version: {}, kind: {}",
                g.group, g.version, g.kind
            ),
            Predicate::Package { name, range } => {
                write!(
                    f,
                    "with package: {name} and with version in range: {}",
                    range.as_str()
                )
            }
            Predicate::Label(l) => write!(f, "with label: {l}"),
            Predicate::All(ps) => join(f, ps, " and "),
            Predicate::Any(ps) => join(f, ps, " or "),
            // OLM's quirk: the first element gets no "not".
            Predicate::Not(ps) => join(f, ps, " and not "),
            Predicate::Cel(c) => write!(
                f,
                "with constraint: {:?} and message: {:?}",
                c.rule, c.failure_message
            ),
        }
    }
}

impl Predicate {
    /// A short rendering for summaries: an API as `group/version Kind`, a
    /// package as `package name range`, the rest in OLM's words.
    ///
    /// ```
    /// use olmsat_resolver::predicate::Predicate;
    /// use olmsat_catalog::property::Gvk;
    /// let p = Predicate::Gvk(Gvk {
    ///     group: "cert-manager.io".into(),
    ///     version: "v1".into(),
    ///     kind: "Certificate".into(),
    /// });
    /// assert_eq!(p.brief(), "`cert-manager.io/v1 Certificate`");
    /// ```
    pub fn brief(&self) -> String {
        match self {
            Predicate::Gvk(g) if g.group.is_empty() => format!("`{} {}`", g.version, g.kind),
            Predicate::Gvk(g) => format!("`{}/{} {}`", g.group, g.version, g.kind),
            Predicate::Package { name, range } => {
                format!("package `{name}` in range `{}`", range.as_str())
            }
            Predicate::Label(l) => format!("label `{l}`"),
            Predicate::Cel(c) if !c.failure_message.is_empty() => {
                format!("`{}` ({})", c.rule, c.failure_message)
            }
            other => format!("an operator {other}"),
        }
    }
}

/// A requirement by what it is, not by how it prints: OLM prints a one-element
/// `not` with the text of its inner predicate, so two different requirements
/// can share a text. Candidate lists are shared under this key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PredicateKey {
    /// Provides this API.
    Gvk(Gvk),
    /// Of this package, in this range.
    Package(String, Range),
    /// Carries this label.
    Label(String),
    /// All of these.
    All(Vec<PredicateKey>),
    /// Any of these.
    Any(Vec<PredicateKey>),
    /// None of these.
    Not(Vec<PredicateKey>),
    /// A CEL rule and its failure message.
    Cel(String, String),
}

impl Predicate {
    /// The requirement's identity (see [`PredicateKey`]).
    pub fn key(&self) -> PredicateKey {
        let keys = |ps: &[Predicate]| ps.iter().map(Predicate::key).collect();
        match self {
            Predicate::Gvk(g) => PredicateKey::Gvk(g.clone()),
            Predicate::Package { name, range } => {
                PredicateKey::Package(name.clone(), range.clone())
            }
            Predicate::Label(l) => PredicateKey::Label(l.clone()),
            Predicate::All(ps) => PredicateKey::All(keys(ps)),
            Predicate::Any(ps) => PredicateKey::Any(keys(ps)),
            Predicate::Not(ps) => PredicateKey::Not(keys(ps)),
            Predicate::Cel(c) => PredicateKey::Cel(c.rule.clone(), c.failure_message.clone()),
        }
    }

    /// Whether `e` satisfies the predicate.
    pub fn matches(&self, e: &Entry) -> Result<bool, PredicateError> {
        Ok(match self {
            Predicate::Gvk(g) => e
                .values
                .iter()
                .any(|v| matches!(v, PropertyValue::Gvk(x) if x == g)),
            Predicate::Package { name, range } => e.values.iter().any(|v| match v {
                PropertyValue::Package {
                    package_name,
                    version,
                    ..
                } if package_name == name => olmsat_versions::version::parse_strict(version)
                    .ok()
                    .or_else(|| e.version.clone())
                    .is_some_and(|v| range.matches(&v)),
                _ => false,
            }),
            Predicate::Label(l) => e
                .values
                .iter()
                .any(|v| matches!(v, PropertyValue::Label(x) if x == l)),
            Predicate::All(ps) => {
                for p in ps {
                    if !p.matches(e)? {
                        return Ok(false);
                    }
                }
                true
            }
            Predicate::Any(ps) => {
                for p in ps {
                    if p.matches(e)? {
                        return Ok(true);
                    }
                }
                false
            }
            Predicate::Not(ps) => {
                for p in ps {
                    if p.matches(e)? {
                        return Ok(false);
                    }
                }
                true
            }
            Predicate::Cel(c) => c.evaluate(e)?,
        })
    }
}

/// The dependency predicates of a bundle's properties, in property order.
pub fn for_properties(e: &Entry) -> Result<Vec<Predicate>, RequirementError> {
    Ok(requirements(e)?.into_iter().map(|r| r.predicate).collect())
}

/// The requirements of a bundle's dependency properties, in property order,
/// each with the property it comes from.
pub fn requirements(e: &Entry) -> Result<Vec<Requirement>, RequirementError> {
    let mut out = Vec::new();
    for (v, p) in e.values.iter().zip(e.properties.iter()) {
        let (property, predicate) = match v {
            PropertyValue::GvkRequired(g) => {
                (RequirementProperty::GvkRequired, Predicate::Gvk(g.clone()))
            }
            PropertyValue::PackageRequired {
                package_name,
                version_range,
            } => {
                let range =
                    Range::parse(version_range).map_err(|source| RequirementError::Range {
                        bundle: e.name.clone(),
                        property: RequirementProperty::PackageRequired,
                        package: package_name.clone(),
                        source,
                    })?;
                let predicate = Predicate::Package {
                    name: package_name.clone(),
                    range,
                };
                (RequirementProperty::PackageRequired, predicate)
            }
            PropertyValue::LabelRequired(l) => (
                RequirementProperty::LabelRequired,
                Predicate::Label(l.clone()),
            ),
            PropertyValue::Constraint => {
                let predicate = constraint(p.value.get()).map_err(|err| match err {
                    ConstraintError::Predicate(inner) => RequirementError::Predicate(inner),
                    ConstraintError::Range { package, source } => RequirementError::Range {
                        bundle: e.name.clone(),
                        property: RequirementProperty::Constraint,
                        package,
                        source,
                    },
                })?;
                (RequirementProperty::Constraint, predicate)
            }
            _ => continue,
        };
        out.push(Requirement {
            property,
            predicate,
        });
    }
    Ok(out)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConstraint {
    #[serde(rename = "failureMessage", default)]
    failure_message: String,
    #[serde(default)]
    cel: Option<RawCel>,
    #[serde(default)]
    gvk: Option<RawGvk>,
    #[serde(default)]
    package: Option<RawPackage>,
    #[serde(default)]
    all: Option<RawCompound>,
    #[serde(default)]
    any: Option<RawCompound>,
    #[serde(default)]
    not: Option<RawCompound>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCel {
    rule: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGvk {
    #[serde(default)]
    group: String,
    #[serde(default)]
    version: String,
    #[serde(default)]
    kind: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPackage {
    #[serde(rename = "packageName")]
    package_name: String,
    #[serde(rename = "versionRange")]
    version_range: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCompound {
    constraints: Vec<Value>,
}

/// Parse an `olm.constraint` value into one predicate, with OLM's errors
/// (`parse olm.constraint: ...`, `convert olm.constraint to resolver predicate: ...`).
pub fn parse_constraint(json: &str) -> Result<Predicate, PredicateError> {
    Ok(constraint(json)?)
}

/// [`parse_constraint`], with a version range that does not parse kept apart.
fn constraint(json: &str) -> Result<Predicate, ConstraintError> {
    if json.len() > MAX_CONSTRAINT_SIZE {
        return Err(PredicateError::TooLarge.into());
    }
    let depth = olmsat_encoding::rawjson::max_depth(json);
    if depth > MAX_CONSTRAINT_JSON_DEPTH {
        return Err(PredicateError::JsonTooDeep(depth).into());
    }
    let v: Value =
        serde_json::from_str(json).map_err(|e| PredicateError::NotJson(e.to_string()))?;
    convert(&v, 0)
}

fn convert(v: &Value, depth: usize) -> Result<Predicate, ConstraintError> {
    if depth > MAX_CONSTRAINT_DEPTH {
        return Err(PredicateError::TooDeep.into());
    }
    let raw: RawConstraint =
        serde_json::from_value(v.clone()).map_err(|e| PredicateError::Decode(go_json_error(&e)))?;
    let children = |c: &RawCompound| -> Result<Vec<Predicate>, ConstraintError> {
        c.constraints
            .iter()
            .map(|x| convert(x, depth + 1))
            .collect()
    };
    if let Some(g) = raw.gvk {
        return Ok(Predicate::Gvk(Gvk {
            group: g.group,
            version: g.version,
            kind: g.kind,
        }));
    }
    if let Some(p) = raw.package {
        let range = Range::parse(&p.version_range).map_err(|source| ConstraintError::Range {
            package: p.package_name.clone(),
            source,
        })?;
        return Ok(Predicate::Package {
            name: p.package_name,
            range,
        });
    }
    if let Some(c) = raw.cel {
        return Ok(Predicate::Cel(Arc::new(
            CelRule::compile(&c.rule, &raw.failure_message).map_err(PredicateError::Cel)?,
        )));
    }
    if let Some(c) = raw.all {
        return Ok(Predicate::All(children(&c)?));
    }
    if let Some(c) = raw.any {
        return Ok(Predicate::Any(children(&c)?));
    }
    if let Some(c) = raw.not {
        return Ok(Predicate::Not(children(&c)?));
    }
    Err(PredicateError::Empty.into())
}

/// serde's "unknown field `x`, expected one of ..." as Go's `unknown field "x"`.
fn go_json_error(e: &serde_json::Error) -> String {
    let s = e.to_string();
    if let Some(rest) = s.strip_prefix("unknown field `") {
        if let Some((name, _)) = rest.split_once('`') {
            return format!("unknown field {name:?}");
        }
    }
    match s.find(" at line ") {
        Some(i) => s[..i].to_owned(),
        None => s,
    }
}

/// CEL functions and operators a rule may use: CEL's standard library plus OLM's
/// `semver_compare`. Anything else is rejected when the rule is compiled, as the Go
/// checker does.
const KNOWN_FUNCTIONS: &[&str] = &[
    "semver_compare",
    "size",
    "contains",
    "startsWith",
    "endsWith",
    "matches",
    "int",
    "uint",
    "double",
    "string",
    "bytes",
    "bool",
    "type",
    "dyn",
    "has",
    "all",
    "exists",
    "exists_one",
    "map",
    "filter",
    "duration",
    "timestamp",
    "max",
    "min",
    "in",
    "@in",
    "@not_strictly_false",
    "!_",
    "-_",
    "_!=_",
    "_%_",
    "_&&_",
    "_*_",
    "_+_",
    "_-_",
    "_/_",
    "_<=_",
    "_<_",
    "_==_",
    "_>=_",
    "_>_",
    "_?_:_",
    "_[_]",
    "_||_",
];

impl CelRule {
    /// Compile a rule; unknown functions are rejected (the Go checker's
    /// `undeclared reference`).
    pub fn compile(rule: &str, failure_message: &str) -> Result<CelRule, CelCompileError> {
        let program = cel_limits::compile(rule).map_err(|e| match e {
            CelError::Syntax(e) => CelCompileError::Syntax(e),
            limit => CelCompileError::Refused(limit),
        })?;
        let refs = program.references();
        let mut unknown: Vec<&str> = refs
            .functions()
            .into_iter()
            .filter(|f| !KNOWN_FUNCTIONS.contains(f))
            .collect();
        unknown.sort_unstable();
        if let Some(f) = unknown.first() {
            return Err(CelCompileError::Undeclared((*f).to_owned()));
        }
        let bound = comprehension_variables(program.expression());
        let mut vars: Vec<&str> = refs
            .variables()
            .into_iter()
            .filter(|v| *v != "properties" && !bound.contains(*v))
            .collect();
        vars.sort_unstable();
        if let Some(v) = vars.first() {
            return Err(CelCompileError::Undeclared((*v).to_owned()));
        }
        Ok(CelRule {
            rule: rule.to_owned(),
            failure_message: failure_message.to_owned(),
            program,
        })
    }

    /// Evaluate against a candidate: evaluation errors count as false; a result that
    /// is not a boolean is an error (the Go checker rejects such rules up front), and
    /// so is a rule whose estimated cost on this candidate's properties exceeds
    /// olmsat's limits (see [`cel_limits`]).
    pub fn evaluate(&self, e: &Entry) -> Result<bool, PredicateError> {
        let props: Vec<Value> = e
            .properties
            .iter()
            .map(|p| {
                let value: Value = serde_json::from_str(p.value.get()).unwrap_or(Value::Null);
                serde_json::json!({"type": p.type_, "value": value})
            })
            .collect();
        let cost = cel_limits::estimate(self.program.expression(), DataBounds::of_json(&props));
        if !cost.within_limits() {
            return Err(PredicateError::TooCostly {
                rule: self.rule.clone(),
                bundle: e.name.clone(),
                cost: cost.to_string(),
            });
        }
        let mut ctx = cel::Context::default();
        let Ok(list) = cel::to_value(&props) else {
            return Ok(false);
        };
        ctx.add_variable_from_value("properties", list);
        if ctx
            .add_function("semver_compare", |a: Arc<String>, b: Arc<String>| -> i64 {
                semver_compare(&a, &b)
            })
            .is_err()
        {
            return Ok(false);
        }
        match self.program.execute(&ctx) {
            Ok(cel::Value::Bool(b)) => Ok(b),
            Ok(_) => Err(PredicateError::NotBool(self.rule.clone())),
            Err(_) => Ok(false),
        }
    }
}

/// Names bound by comprehensions (the `p` of `properties.exists(p, ...)`), which
/// cel-rust lists among a program's variable references. Walks the tree without
/// recursion.
fn comprehension_variables(
    root: &cel::common::ast::IdedExpr,
) -> std::collections::BTreeSet<String> {
    use cel::common::ast::{EntryExpr, Expr};
    let mut out = std::collections::BTreeSet::new();
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        match &e.expr {
            Expr::Comprehension(c) => {
                out.insert(c.iter_var.clone());
                if let Some(v) = &c.iter_var2 {
                    out.insert(v.clone());
                }
                out.insert(c.accu_var.clone());
                stack.extend([
                    &c.iter_range,
                    &c.accu_init,
                    &c.loop_cond,
                    &c.loop_step,
                    &c.result,
                ]);
            }
            Expr::Call(c) => {
                stack.extend(c.target.as_deref());
                stack.extend(c.args.iter());
            }
            Expr::Select(s) => stack.push(&s.operand),
            Expr::List(l) => stack.extend(l.elements.iter()),
            Expr::Map(m) => {
                for entry in &m.entries {
                    if let EntryExpr::MapEntry(me) = &entry.expr {
                        stack.push(&me.key);
                        stack.push(&me.value);
                    }
                }
            }
            Expr::Struct(s) => {
                for entry in &s.entries {
                    match &entry.expr {
                        EntryExpr::StructField(f) => stack.push(&f.value),
                        EntryExpr::MapEntry(me) => {
                            stack.push(&me.key);
                            stack.push(&me.value);
                        }
                    }
                }
            }
            Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
        }
    }
    out
}

/// OLM's `semver_compare`: both sides parsed leniently (a `v` prefix and short
/// versions allowed), compared ignoring build metadata. An unparseable side makes
/// the CEL evaluation fail, which the caller treats as "no match"; here it sorts
/// as equal-and-invalid, so callers check with [`olmsat_versions::version::parse_tolerant`].
fn semver_compare(a: &str, b: &str) -> i64 {
    match (
        olmsat_versions::version::parse_tolerant(a),
        olmsat_versions::version::parse_tolerant(b),
    ) {
        (Ok(x), Ok(y)) => match olmsat_versions::version::compare(&x, &y) {
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Greater => 1,
        },
        // cel-rust functions cannot fail with this signature; a sentinel that no
        // comparison against -1/0/1 accepts keeps "parse failure" from matching.
        _ => i64::MIN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use olmsat_catalog::declcfg::Property;
    use olmsat_encoding::rawjson::to_raw;
    use proptest::prelude::*;
    use serde_json::json;

    /// Bundle `foo.v1.0.0` with this one property.
    fn bundle(type_: &str, value: serde_json::Value) -> Entry {
        let properties = vec![Property {
            type_: type_.to_owned(),
            value: to_raw(&value),
        }];
        Entry {
            name: "foo.v1.0.0".into(),
            package: "foo".into(),
            channel: "stable".into(),
            catalog: 0,
            default_channel: true,
            version: semver::Version::parse("1.0.0").ok(),
            replaces: None,
            skips: Vec::new(),
            skip_range: None,
            values: Entry::interpret(&properties),
            properties,
            location: None,
        }
    }

    fn package_required(range: &str) -> Entry {
        bundle(
            types::PACKAGE_REQUIRED,
            json!({"packageName": "bar", "versionRange": range}),
        )
    }

    fn constraint(range: &str) -> Entry {
        bundle(
            types::CONSTRAINT,
            json!({"failureMessage": "bar 1.x", "all": {"constraints": [
                {"gvk": {"group": "g", "version": "v1", "kind": "K"}},
                {"package": {"packageName": "bar", "versionRange": range}},
            ]}}),
        )
    }

    fn error(e: &Entry) -> String {
        match requirements(e) {
            Ok(r) => panic!("a requirement: {r:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_bad_range_is_olms_error_whole_then_where() {
        assert_eq!(
            error(&package_required("^1.0.0")),
            r#"Could not parse Range "^1.0.0": Could not parse comparator "^" in "^1.0.0" (bundle "foo.v1.0.0", olm.package.required for "bar")"#
        );
        assert_eq!(
            error(&constraint("^1.0.0")),
            r#"convert olm.constraint to resolver predicate: Could not parse Range "^1.0.0": Could not parse comparator "^" in "^1.0.0" (bundle "foo.v1.0.0", olm.constraint for "bar")"#
        );
        // Without a bundle to name, OLM's text alone.
        let value = json!({"package": {"packageName": "bar", "versionRange": "^1.0.0"}});
        let err = parse_constraint(&value.to_string()).expect_err("a bad range");
        assert_eq!(
            err.to_string(),
            r#"convert olm.constraint to resolver predicate: Could not parse Range "^1.0.0": Could not parse comparator "^" in "^1.0.0""#
        );
    }

    #[test]
    fn requirements_say_which_property_they_come_from() {
        let r = requirements(&package_required(">=1.0.0")).expect("valid");
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].property, RequirementProperty::PackageRequired);
        assert_eq!(r[0].property.to_string(), "olm.package.required");
        let r = requirements(&constraint(">=1.0.0")).expect("valid");
        assert_eq!(r[0].property, RequirementProperty::Constraint);
        assert!(matches!(r[0].predicate, Predicate::All(_)));
    }

    /// Range texts, mostly malformed: operators from blang, npm and
    /// Masterminds, partial and wildcard versions, separators.
    fn range_text() -> impl Strategy<Value = String> {
        prop_oneof![
            "[\\^~=<>!v ]{0,3}[0-9xX*.v-]{1,9}([ ,|]{1,3}[\\^~=<>!]{0,2}[0-9.x*]{0,6}){0,2}",
            "\\PC{0,12}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn olms_range_error_is_a_prefix_of_olmsats(text in range_text()) {
            let Err(olm) = Range::parse(&text) else {
                return Ok(());
            };
            let olm = olm.to_string();
            let ours = error(&package_required(&text));
            prop_assert!(ours.starts_with(&olm), "{ours:?} does not start with {olm:?}");
            let ours = error(&constraint(&text));
            let olm = format!("{CONVERT_PREFIX}{olm}");
            prop_assert!(ours.starts_with(&olm), "{ours:?} does not start with {olm:?}");
            // The whole resolution error says the same.
            let resolve = crate::resolve::ResolveError::from(
                requirements(&package_required(&text)).expect_err("a bad range"),
            );
            prop_assert!(resolve.to_string().starts_with(&Range::parse(&text).expect_err("bad").to_string()));
        }
    }

    #[test]
    fn requirements_with_the_same_text_have_different_keys() {
        let x = Gvk {
            group: "g".into(),
            version: "v1".into(),
            kind: "K".into(),
        };
        let gvk = Predicate::Gvk(x.clone());
        let not = Predicate::Not(vec![Predicate::Gvk(x)]);
        // OLM prints a one-element `not` as its inner predicate ...
        assert_eq!(gvk.to_string(), not.to_string());
        // ... but they are different requirements.
        assert_ne!(gvk.key(), not.key());
        let any = Predicate::Any(vec![gvk.clone()]);
        let all = Predicate::All(vec![gvk.clone()]);
        assert_eq!(any.to_string(), all.to_string());
        assert_ne!(any.key(), all.key());
        assert_eq!(gvk.key(), gvk.clone().key());
    }
}
