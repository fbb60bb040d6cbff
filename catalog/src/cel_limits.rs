//! Bounds on the CEL rules of `olm.constraint` properties.
//!
//! cel-rust (unlike cel-go) has no cost limit and no way to interrupt an
//! evaluation, and both its parser and its evaluator recurse once per operator in
//! a chain such as `1 + 1 + 1 + ...`. A rule of a few kilobytes can therefore
//! overflow the stack, and a short one can run for hours or exhaust memory
//! (`[1, 2, ..., 1000].map(a, [1, 2, ..., 1000].map(b, ...))`). CEL has no
//! unbounded loops, so a static bound is enough; olmsat applies three:
//!
//! 1. before parsing: at most [`MAX_OPERATORS`] operator and punctuation characters
//!    (and `in` keywords), which bounds the parser's recursion;
//! 2. after parsing: an expression tree at most [`MAX_DEPTH`] deep, which bounds
//!    the evaluator's recursion;
//! 3. an estimated evaluation cost, worked out from the rule's shape and the
//!    sizes of the data it runs on ([`DataBounds`]): at most [`MAX_COST`] steps
//!    (node evaluations, list elements built; the per-call limit Kubernetes sets
//!    for CEL validation rules) and at most [`MAX_STRING_BYTES`] bytes of strings
//!    built by concatenation. [`compile`] checks it for the rule alone (data of
//!    size zero), [`estimate`] for the data of one candidate bundle.
//!
//! The estimate is an upper bound for the shapes cel-rust's macros produce: a
//! comprehension runs once per element of the largest list or map its range can
//! be, given the sizes of the literals in the rule and of the data.

use cel::common::ast::{EntryExpr, Expr, IdedExpr, LiteralValue};

/// Most operator and punctuation characters (and `in` keywords) in a rule.
pub const MAX_OPERATORS: usize = 1_000;

/// Deepest expression tree accepted, macros expanded.
pub const MAX_DEPTH: usize = 100;

/// Largest estimated evaluation cost, in steps.
pub const MAX_COST: u64 = 1_000_000;

/// Most bytes of strings a rule may build by concatenation in one evaluation.
pub const MAX_STRING_BYTES: u64 = 64 << 20;

/// Why a CEL rule is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CelError {
    /// The rule does not parse (cel-rust's message).
    #[error("{0}")]
    Syntax(String),
    /// Too many operators to parse safely.
    #[error("the rule has {0} operators and punctuation characters; olmsat accepts at most {MAX_OPERATORS}")]
    TooManyOperators(usize),
    /// The expression tree is too deep to evaluate safely.
    #[error("the rule nests {0} levels deep; olmsat accepts at most {MAX_DEPTH}")]
    TooDeep(usize),
    /// The estimated evaluation cost is over a limit.
    #[error("{0}")]
    TooCostly(Cost),
}

/// An estimated evaluation cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    /// Steps: node evaluations and list or map elements built.
    pub steps: u64,
    /// Bytes of strings built by concatenation or conversion.
    pub string_bytes: u64,
}

impl Cost {
    /// Whether both figures are within olmsat's limits.
    pub fn within_limits(&self) -> bool {
        self.steps <= MAX_COST && self.string_bytes <= MAX_STRING_BYTES
    }
}

impl std::fmt::Display for Cost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.steps > MAX_COST {
            write!(
                f,
                "the rule's estimated evaluation cost ({} steps) exceeds olmsat's limit of {MAX_COST}",
                self.steps
            )
        } else {
            write!(
                f,
                "the rule may build {} bytes of strings; olmsat's limit is {MAX_STRING_BYTES}",
                self.string_bytes
            )
        }
    }
}

/// Sizes of the data a rule runs on: the largest list or map (the `properties`
/// list included) and the longest string anywhere in it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DataBounds {
    /// Largest number of elements of a list or entries of a map.
    pub items: u64,
    /// Longest string, in bytes.
    pub chars: u64,
}

impl DataBounds {
    /// The bounds of a list of JSON values (walked without recursion).
    pub fn of_json<'a>(values: impl IntoIterator<Item = &'a serde_json::Value>) -> DataBounds {
        let mut b = DataBounds::default();
        let mut stack: Vec<&serde_json::Value> = Vec::new();
        let mut count = 0u64;
        for v in values {
            count += 1;
            stack.push(v);
        }
        b.items = count;
        while let Some(v) = stack.pop() {
            match v {
                serde_json::Value::String(s) => b.chars = b.chars.max(len64(s.len())),
                serde_json::Value::Array(a) => {
                    b.items = b.items.max(len64(a.len()));
                    stack.extend(a.iter());
                }
                serde_json::Value::Object(o) => {
                    b.items = b.items.max(len64(o.len()));
                    for (k, v) in o {
                        b.chars = b.chars.max(len64(k.len()));
                        stack.push(v);
                    }
                }
                _ => {}
            }
        }
        b
    }
}

fn len64(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

/// Compile a rule within olmsat's limits: operator count, then syntax, then
/// depth, then the estimated cost of the rule on its own (data of size zero).
///
/// # Errors
///
/// A [`CelError`] saying which limit the rule exceeds, or cel-rust's parse error.
pub fn compile(rule: &str) -> Result<cel::Program, CelError> {
    let ops = operator_count(rule);
    if ops > MAX_OPERATORS {
        return Err(CelError::TooManyOperators(ops));
    }
    let program = cel::Program::compile(rule).map_err(|e| CelError::Syntax(e.to_string()))?;
    let depth = depth(program.expression());
    if depth > MAX_DEPTH {
        return Err(CelError::TooDeep(depth));
    }
    let cost = estimate(program.expression(), DataBounds::default());
    if !cost.within_limits() {
        return Err(CelError::TooCostly(cost));
    }
    Ok(program)
}

/// Operator and punctuation characters (outside nothing: string literals count
/// too, which only errs on the safe side) plus `in` keywords: each can add a
/// level of recursion to cel-rust's parser.
pub fn operator_count(rule: &str) -> usize {
    let bytes = rule.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut n = bytes
        .iter()
        .filter(|b| b.is_ascii_punctuation() && **b != b'_')
        .count();
    let mut i = 0;
    while let Some(at) = rule[i..].find("in") {
        let start = i + at;
        let end = start + 2;
        let before = start.checked_sub(1).map(|j| bytes[j]);
        let after = bytes.get(end).copied();
        if !before.is_some_and(ident) && !after.is_some_and(ident) {
            n += 1;
        }
        i = end;
    }
    n
}

/// Depth of an expression tree, walked without recursion.
pub fn depth(root: &IdedExpr) -> usize {
    let mut max = 0;
    let mut stack = vec![(root, 1usize)];
    while let Some((e, d)) = stack.pop() {
        max = max.max(d);
        for c in children(e) {
            stack.push((c, d + 1));
        }
    }
    max
}

fn children(e: &IdedExpr) -> Vec<&IdedExpr> {
    match &e.expr {
        Expr::Call(c) => c
            .target
            .as_deref()
            .into_iter()
            .chain(c.args.iter())
            .collect(),
        Expr::Comprehension(c) => vec![
            &c.iter_range,
            &c.accu_init,
            &c.loop_cond,
            &c.loop_step,
            &c.result,
        ],
        Expr::Select(s) => vec![&s.operand],
        Expr::List(l) => l.elements.iter().collect(),
        Expr::Map(m) => entries(&m.entries),
        Expr::Struct(s) => entries(&s.entries),
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => Vec::new(),
    }
}

fn entries(entries: &[cel::common::ast::IdedEntryExpr]) -> Vec<&IdedExpr> {
    let mut out = Vec::new();
    for entry in entries {
        match &entry.expr {
            EntryExpr::MapEntry(me) => {
                out.push(&me.key);
                out.push(&me.value);
            }
            EntryExpr::StructField(f) => out.push(&f.value),
        }
    }
    out
}

/// The estimated cost of evaluating `expr` (a tree at most [`MAX_DEPTH`] deep, as
/// [`compile`] ensures) on data within `data`.
pub fn estimate(expr: &IdedExpr, data: DataBounds) -> Cost {
    let mut scope = Vec::new();
    let e = Estimator { data }.est(expr, &mut scope);
    Cost {
        steps: to_u64(e.steps),
        string_bytes: to_u64(e.bytes),
    }
}

fn to_u64(x: f64) -> u64 {
    if x.is_nan() || x >= u64::MAX as f64 {
        u64::MAX
    } else {
        x.max(0.0) as u64
    }
}

/// Bounds on a value: the largest list or map in it (itself included), the
/// largest strictly inside it, and its longest string; and the cost of computing
/// it.
#[derive(Debug, Clone, Copy, Default)]
struct Est {
    steps: f64,
    bytes: f64,
    items: f64,
    inner: f64,
    chars: f64,
}

impl Est {
    /// The bounds of a part of this value (an element, a field).
    fn part(&self) -> Est {
        Est {
            steps: 0.0,
            bytes: 0.0,
            items: self.inner,
            inner: self.inner,
            chars: self.chars,
        }
    }
}

struct Estimator {
    data: DataBounds,
}

/// Variables in scope (comprehension variables) with the bounds of their values.
type Scope<'a> = Vec<(&'a str, Est)>;

impl Estimator {
    fn est<'a>(&self, e: &'a IdedExpr, scope: &mut Scope<'a>) -> Est {
        match &e.expr {
            Expr::Literal(l) => {
                let chars = match l {
                    LiteralValue::String(s) => s.len() as f64,
                    LiteralValue::Bytes(b) => b.len() as f64,
                    _ => 0.0,
                };
                Est {
                    steps: 1.0,
                    chars,
                    ..Est::default()
                }
            }
            Expr::Ident(name) => {
                let bound = scope
                    .iter()
                    .rev()
                    .find(|(n, _)| n == name)
                    .map(|(_, b)| *b)
                    .unwrap_or(Est {
                        items: self.data.items as f64,
                        inner: self.data.items as f64,
                        chars: self.data.chars as f64,
                        ..Est::default()
                    });
                Est {
                    steps: 1.0,
                    bytes: 0.0,
                    ..bound
                }
            }
            Expr::Select(s) => {
                let o = self.est(&s.operand, scope);
                Est {
                    steps: o.steps + 1.0,
                    bytes: o.bytes,
                    ..o.part()
                }
            }
            Expr::List(l) => self.collection(l.elements.iter(), scope),
            Expr::Map(m) => self.collection(entries(&m.entries).into_iter(), scope),
            Expr::Struct(s) => self.collection(entries(&s.entries).into_iter(), scope),
            Expr::Call(c) => self.call(c, scope),
            Expr::Comprehension(c) => {
                let range = self.est(&c.iter_range, scope);
                let init = self.est(&c.accu_init, scope);
                let n = range.items;
                let element = range.part();
                let depth = scope.len();
                scope.push((c.iter_var.as_str(), element));
                if let Some(v) = &c.iter_var2 {
                    scope.push((v.as_str(), element));
                }
                // map and filter start from an empty list and append one element
                // per iteration; the other macros fold into a boolean or a count.
                let appends = matches!(&c.accu_init.expr, Expr::List(l) if l.elements.is_empty());
                let provisional = Est {
                    steps: 0.0,
                    bytes: 0.0,
                    items: if appends { init.items + n } else { init.items },
                    inner: init.inner,
                    chars: init.chars,
                };
                scope.push((c.accu_var.as_str(), provisional));
                let step = self.est(&c.loop_step, scope);
                scope.pop();
                let accu = Est {
                    steps: 0.0,
                    bytes: 0.0,
                    items: provisional.items.max(step.items),
                    inner: provisional.inner.max(step.inner),
                    chars: provisional.chars.max(step.chars),
                };
                scope.push((c.accu_var.as_str(), accu));
                let cond = self.est(&c.loop_cond, scope);
                let result = self.est(&c.result, scope);
                scope.truncate(depth);
                Est {
                    steps: range.steps + init.steps + n * (cond.steps + step.steps) + result.steps,
                    bytes: range.bytes + init.bytes + n * (cond.bytes + step.bytes) + result.bytes,
                    items: result.items,
                    inner: result.inner,
                    chars: result.chars,
                }
            }
            Expr::Unspecified => Est {
                steps: 1.0,
                ..Est::default()
            },
        }
    }

    /// A list, map or struct literal: its elements, plus one step per element.
    fn collection<'a>(
        &self,
        elements: impl Iterator<Item = &'a IdedExpr>,
        scope: &mut Scope<'a>,
    ) -> Est {
        let mut out = Est {
            steps: 1.0,
            ..Est::default()
        };
        let mut n = 0.0;
        for el in elements {
            let x = self.est(el, scope);
            n += 1.0;
            out.steps += x.steps + 1.0;
            out.bytes += x.bytes;
            out.inner = out.inner.max(x.items);
            out.chars = out.chars.max(x.chars);
        }
        out.items = out.inner.max(n);
        out
    }

    fn call<'a>(&self, c: &'a cel::common::ast::CallExpr, scope: &mut Scope<'a>) -> Est {
        let accu_first = matches!(
            c.target.as_deref().or(c.args.first()).map(|a| &a.expr),
            Some(Expr::Ident(name)) if scope.iter().any(|(n, _)| n == name) && name.starts_with('@')
        );
        let args: Vec<Est> = c
            .target
            .as_deref()
            .into_iter()
            .chain(c.args.iter())
            .map(|a| self.est(a, scope))
            .collect();
        let steps = 1.0 + args.iter().map(|a| a.steps).sum::<f64>();
        let bytes = args.iter().map(|a| a.bytes).sum::<f64>();
        let first = args.first().copied().unwrap_or_default();
        let max_of = |xs: &[Est]| {
            xs.iter().fold(Est::default(), |m, x| Est {
                items: m.items.max(x.items),
                inner: m.inner.max(x.inner),
                chars: m.chars.max(x.chars),
                ..m
            })
        };
        match c.func_name.as_str() {
            "_+_" => {
                let second = args.get(1).copied().unwrap_or_default();
                if accu_first {
                    // A macro appending to its accumulator: cel-rust appends in
                    // place, one element per iteration.
                    Est {
                        steps: steps + 1.0,
                        bytes,
                        items: first.items + 1.0,
                        inner: first.inner.max(second.inner),
                        chars: first.chars.max(second.chars),
                    }
                } else {
                    // Concatenation copies both sides.
                    Est {
                        steps: steps + first.items + second.items,
                        bytes: bytes + first.chars + second.chars,
                        items: first.items + second.items,
                        inner: first.inner.max(second.inner),
                        chars: first.chars + second.chars,
                    }
                }
            }
            "_?_:_" => {
                let branches = max_of(args.get(1..).unwrap_or(&[]));
                let cond = first;
                let costliest = |f: fn(&Est) -> f64| {
                    args.get(1..)
                        .unwrap_or(&[])
                        .iter()
                        .map(f)
                        .fold(0.0, f64::max)
                };
                Est {
                    steps: 1.0 + cond.steps + costliest(|a| a.steps),
                    bytes: cond.bytes + costliest(|a| a.bytes),
                    ..branches
                }
            }
            // Access to a part of a value: bounded by the value.
            "_[_]" => Est {
                steps,
                bytes,
                ..first.part()
            },
            "dyn" => Est {
                steps,
                bytes,
                ..first
            },
            // Conversions to strings or bytes copy their argument.
            "string" | "bytes" => Est {
                steps,
                bytes: bytes + first.chars + 32.0,
                chars: first.chars + 32.0,
                ..Est::default()
            },
            // Everything else CEL offers a rule returns a scalar.
            _ => Est {
                steps,
                bytes,
                ..Est::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(n: usize) -> String {
        format!(
            "[{}]",
            (0..n).map(|i| i.to_string()).collect::<Vec<_>>().join(",")
        )
    }

    #[test]
    fn ordinary_rules_compile_and_are_cheap() {
        let rule = "properties.exists(p, p.type == 'olm.package' && p.value.packageName == 'etcd' && semver_compare(p.value.version, '0.9.0') >= 0)";
        let p = compile(rule).expect("compiles");
        let data = DataBounds {
            items: 50,
            chars: 1 << 20,
        };
        let cost = estimate(p.expression(), data);
        assert!(cost.within_limits(), "{cost:?}");
        assert!(cost.steps < 5_000, "{cost:?}");
    }

    #[test]
    fn operator_chains_are_refused_before_parsing() {
        let rule = format!("{}1 == 1", "1 + ".repeat(20_000));
        assert_eq!(
            compile(&rule).err(),
            Some(CelError::TooManyOperators(20_002))
        );
        let rule = format!("1 {}", "in [1] ".repeat(600));
        assert!(matches!(compile(&rule), Err(CelError::TooManyOperators(_))));
        // Words containing "in" are not the keyword.
        assert_eq!(operator_count("inside in_x xin in"), 1);
    }

    #[test]
    fn the_worst_chains_under_the_operator_limit_parse_and_are_refused_as_too_deep() {
        let n = MAX_OPERATORS - 2;
        for rule in [
            format!("{}1 == 1", "1+".repeat(n)),
            format!("properties{} == 1", ".a".repeat(n)),
            format!("{}true", "!".repeat(n)),
            format!("{}1 > 0", "-".repeat(n)),
            format!("{}1 == 1", "1*".repeat(n)),
            format!("{}false", "true?true:".repeat(n / 2)),
        ] {
            match compile(&rule) {
                Err(CelError::TooDeep(_) | CelError::Syntax(_)) | Ok(_) => {}
                other => panic!("{}...: {other:?}", &rule[..20]),
            }
        }
        let rule = format!("{}1 == 1", "1+".repeat(200));
        assert_eq!(compile(&rule).err(), Some(CelError::TooDeep(202)));
    }

    #[test]
    fn nested_comprehensions_over_literals_are_refused() {
        let l = list(200);
        let rule = format!("{l}.map(a, {l}.map(b, {l}.map(c, a + b + c))).size() > 0");
        assert!(matches!(compile(&rule), Err(CelError::TooCostly(_))));
        let rule = format!("{l}.all(a, {l}.all(b, {l}.all(c, a + b + c > 0)))");
        assert!(matches!(compile(&rule), Err(CelError::TooCostly(_))));
        let small = list(10);
        let rule = format!("{small}.map(a, {small}.map(b, a + b)).size() == 10");
        assert!(compile(&rule).is_ok());
    }

    #[test]
    fn string_doubling_is_refused() {
        let big = format!("'{}'", "a".repeat(60_000));
        let rule = format!("{}.map(x, {big} + {big}).size() > 0", list(700));
        let err = compile(&rule).expect_err("refused");
        assert!(err.to_string().contains("bytes of strings"), "{err}");
    }

    #[test]
    fn the_data_counts() {
        let l = list(100);
        let rule =
            format!("properties.exists(p, {l}.exists(a, {l}.exists(b, p.type == string(a + b))))");
        let p = compile(&rule).expect("cheap without data");
        let few = DataBounds {
            items: 3,
            chars: 10,
        };
        assert!(estimate(p.expression(), few).within_limits());
        let many = DataBounds {
            items: 10_000,
            chars: 10,
        };
        assert!(!estimate(p.expression(), many).within_limits());
        let json: Vec<serde_json::Value> = vec![
            serde_json::json!({"type": "a", "value": {"list": [1, 2, 3, 4], "s": "hello"}}),
            serde_json::json!({"type": "b", "value": null}),
        ];
        assert_eq!(
            DataBounds::of_json(&json),
            DataBounds { items: 4, chars: 5 }
        );
    }
}
