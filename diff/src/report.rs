//! Renderings of a [`Diff`]: JSON (and YAML, the same value), text for people,
//! and one line per finding.
//!
//! JSON: `{packages:[{name, changes:[{kind, channel?, bundle?, old?, new?}],
//! findings:[{rule, code, severity, channel?, bundle?, detail, file, line,
//! evidence}]}]}`, with a top-level `findings` for `new-invalid` findings about
//! no package (left out when there are none). `evidence` holds the `old` and
//! `new` places (`file`, `line`) the finding rests on.

use std::fmt::Write as _;

use serde::Serialize;

use super::{Change, Diff, Finding, Level, Rule};
use olmsat_encoding::location::Location;

/// The JSON form of a diff.
#[derive(Serialize)]
pub struct JsonDiff<'a> {
    packages: Vec<JsonPackage<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    findings: Vec<JsonFinding<'a>>,
}

#[derive(Serialize)]
struct JsonPackage<'a> {
    name: &'a str,
    changes: Vec<JsonChange<'a>>,
    findings: Vec<JsonFinding<'a>>,
}

#[derive(Serialize)]
struct JsonChange<'a> {
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    channel: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bundle: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    old: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    new: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonPlace<'a> {
    file: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
}

#[derive(Serialize)]
struct JsonEvidence<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    old: Option<JsonPlace<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    new: Option<JsonPlace<'a>>,
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    rule: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'static str>,
    severity: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    package: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    channel: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bundle: Option<&'a str>,
    detail: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    evidence: JsonEvidence<'a>,
}

fn place(l: &Location) -> JsonPlace<'_> {
    JsonPlace {
        file: &l.file,
        line: (l.line > 0).then_some(l.line),
    }
}

fn json_finding(f: &Finding, with_package: bool) -> JsonFinding<'_> {
    let at = f.location();
    JsonFinding {
        rule: f.rule.name(),
        code: f.rule.code(),
        severity: f.level().as_str(),
        package: if with_package {
            f.package.as_deref()
        } else {
            None
        },
        channel: f.channel.as_deref(),
        bundle: f.bundle.as_deref(),
        detail: &f.detail,
        file: at.map(|l| &*l.file),
        line: at.map(|l| l.line).filter(|l| *l > 0),
        evidence: JsonEvidence {
            old: f.old.as_ref().map(place),
            new: f.new.as_ref().map(place),
        },
    }
}

fn json_change(c: &Change) -> JsonChange<'_> {
    JsonChange {
        kind: c.kind.name(),
        channel: c.channel.as_deref(),
        bundle: c.bundle.as_deref(),
        old: c.old.as_deref(),
        new: c.new.as_deref(),
    }
}

/// The JSON form of `diff` (serialize it with serde).
pub fn json(diff: &Diff) -> JsonDiff<'_> {
    JsonDiff {
        packages: diff
            .packages
            .iter()
            .map(|p| JsonPackage {
                name: &p.name,
                changes: p.changes.iter().map(json_change).collect(),
                findings: p.findings.iter().map(|f| json_finding(f, false)).collect(),
            })
            .collect(),
        findings: diff
            .findings
            .iter()
            .map(|f| json_finding(f, true))
            .collect(),
    }
}

/// `diff` as YAML (the JSON value, as a YAML document).
pub fn yaml(diff: &Diff) -> String {
    let value = serde_json::to_value(json(diff)).unwrap_or(serde_json::Value::Null);
    let mut out = String::new();
    olmsat_encoding::yaml_emit::emit_document(&value, &mut out);
    out
}

/// Errors first, then warnings, then information; in sorted order within each.
fn by_level(findings: &[Finding]) -> Vec<&Finding> {
    let mut v: Vec<&Finding> = findings.iter().collect();
    v.sort_by_key(|f| f.level());
    v
}

fn finding_head(f: &Finding, with_package: bool) -> String {
    let mut out = format!("{}[{}", f.level(), f.rule.name());
    if let Some(code) = f.rule.code() {
        let _ = write!(out, " {code}");
    }
    out.push(']');
    let mut ctx = Vec::new();
    if let (true, Some(p)) = (with_package, &f.package) {
        ctx.push(format!("package {p}"));
    }
    if let Some(c) = &f.channel {
        ctx.push(format!("channel {c}"));
    }
    if let Some(b) = &f.bundle {
        ctx.push(format!("bundle {b}"));
    }
    if !ctx.is_empty() {
        let _ = write!(out, " {}", ctx.join(", "));
    }
    out
}

fn write_finding(out: &mut String, f: &Finding, indent: &str) {
    let _ = writeln!(out, "{indent}{}: {}", finding_head(f, false), f.detail);
    if let Some(o) = &f.old {
        let _ = writeln!(out, "{indent}    OLD {o}");
    }
    if let Some(n) = &f.new {
        let _ = writeln!(out, "{indent}    NEW {n}");
    }
}

/// The summary line: counts of packages and findings per level.
pub fn summary(diff: &Diff) -> String {
    format!(
        "{} package(s) changed; {} error(s), {} warning(s), {} info",
        diff.packages.len(),
        diff.count(Level::Error),
        diff.count(Level::Warning),
        diff.count(Level::Info)
    )
}

/// `diff` for people: per package, the changes in a compact form, then the
/// findings (errors first) with their evidence; then a summary line.
pub fn text(diff: &Diff) -> String {
    let mut out = String::new();
    for f in by_level(&diff.findings) {
        write_finding(&mut out, f, "");
    }
    for p in &diff.packages {
        let _ = writeln!(out, "package {}", p.name);
        if !p.changes.is_empty() {
            let _ = writeln!(out, "  changes:");
            for c in &p.changes {
                let _ = writeln!(out, "    {c}");
            }
        }
        if !p.findings.is_empty() {
            let _ = writeln!(out, "  findings:");
            for f in by_level(&p.findings) {
                write_finding(&mut out, f, "    ");
            }
        }
    }
    let _ = writeln!(out, "{}", summary(diff));
    out
}

/// One line per finding (errors first), `file:line: level[rule code] package
/// P, channel C, bundle B: detail`; no changes, no summary.
pub fn short(diff: &Diff) -> String {
    let mut all: Vec<&Finding> = diff.all_findings().collect();
    all.sort_by_key(|f| f.level());
    let mut out = String::new();
    for f in all {
        if let Some(l) = f.location() {
            let _ = write!(out, "{l}: ");
        }
        let _ = writeln!(out, "{}: {}", finding_head(f, true), f.detail);
    }
    out
}

/// One GitHub Actions annotation per finding (`::error file=F,line=L,title=RULE::message`),
/// errors first; information findings as `::notice`.
pub fn github(diff: &Diff) -> String {
    use olmsat_findings::report::format::{escape_data, escape_property};
    let mut all: Vec<&Finding> = diff.all_findings().collect();
    all.sort_by_key(|f| f.level());
    let mut out = String::new();
    for f in all {
        let command = match f.level() {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Info => "notice",
        };
        let mut props = Vec::new();
        if let Some(l) = f.location() {
            props.push(format!("file={}", escape_property(&l.file)));
            if l.line > 0 {
                props.push(format!("line={}", l.line));
            }
        }
        let title = match f.rule.code() {
            Some(code) => format!("{} ({code})", f.rule.name()),
            None => f.rule.name().to_owned(),
        };
        props.push(format!("title={}", escape_property(&title)));
        let head = finding_head(f, true);
        let context = head.split_once(']').map_or("", |(_, c)| c.trim());
        let message = if context.is_empty() {
            f.detail.clone()
        } else {
            format!("[{context}] {}", f.detail)
        };
        let _ = writeln!(
            out,
            "::{command} {}::{}",
            props.join(","),
            escape_data(&message)
        );
    }
    out
}

/// A SARIF 2.1.0 log of the diff's findings by olmsat `version` (information
/// findings at level `note`).
pub fn sarif(diff: &Diff, version: &str) -> serde_json::Value {
    use olmsat_findings::report::format::{sarif_log, SarifResult, SarifRule};
    let mut all: Vec<&Finding> = diff.all_findings().collect();
    all.sort_by_key(|f| f.level());
    let mut rules: Vec<Rule> = all.iter().map(|f| f.rule).collect();
    rules.sort_by_key(|r| r.name());
    rules.dedup();
    let level = |l: Level| match l {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Info => "note",
    };
    let described: Vec<SarifRule<'_>> = rules
        .iter()
        .map(|r| SarifRule {
            id: r.name(),
            name: Some(r.code().unwrap_or(r.name())),
            summary: r.summary(),
            help: r.help(),
            level: level(r.level()),
        })
        .collect();
    let results: Vec<SarifResult<'_>> = all
        .iter()
        .map(|f| SarifResult {
            rule: rules.iter().position(|r| *r == f.rule).unwrap_or(0),
            level: level(f.level()),
            message: f.detail.clone(),
            location: f.location().map(|l| (&*l.file, l.line, 0)),
            package: f.package.as_deref(),
            channel: f.channel.as_deref(),
            bundle: f.bundle.as_deref(),
        })
        .collect();
    sarif_log(&described, &results, version)
}
