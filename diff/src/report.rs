//! The documents of a [`Diff`]: JSON (and YAML, the same value), text for
//! people, one line per finding, GitHub annotations and SARIF.
//!
//! The findings are the findings system's [`Diagnostic`]s: their levels and
//! places are painted by its text styles, their SARIF log is assembled by it
//! ([`olmsat_findings::report::format::sarif_with_allowed`]); what is the
//! diff's own is the arrangement (per package: changes, then findings) and
//! the head of a finding, `level[rule CODE] package P, channel C, bundle B`.
//!
//! JSON: `{packages:[{name, changes:[{kind, channel?, bundle?, old?, new?}],
//! findings:[{rule, code, severity, channel?, bundle?, detail, file, line,
//! oldFile?, oldLine?, evidence}], allowed?:[…, allowedBy]}]}`, with a
//! top-level `findings` for `new-invalid` findings about no package (left out
//! when there are none). `file`/`line` are the place in NEW whenever the
//! package is still there; `oldFile`/`oldLine` the evidence in OLD beside it;
//! `evidence` holds both places (`file`, `line`).

use std::fmt::Write as _;

use serde::Serialize;

use super::{Change, Diff};
use olmsat_encoding::location::Location;
use olmsat_findings::report::format::{escape_data, escape_property, paint_level, paint_place};
use olmsat_findings::report::Allow;
use olmsat_findings::{Diagnostic, Severity};

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
    #[serde(skip_serializing_if = "Vec::is_empty")]
    allowed: Vec<JsonFinding<'a>>,
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
#[serde(rename_all = "camelCase")]
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
    #[serde(skip_serializing_if = "Option::is_none")]
    old_file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    old_line: Option<u32>,
    evidence: JsonEvidence<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    allowed_by: Option<String>,
}

fn place(l: &Location) -> JsonPlace<'_> {
    JsonPlace {
        file: &l.file,
        line: (l.line > 0).then_some(l.line),
    }
}

/// OLD's evidence when the finding's place is in NEW.
fn beside(f: &Diagnostic) -> Option<&Location> {
    f.old_location.as_ref().filter(|_| f.location.is_some())
}

fn json_finding<'a>(
    f: &'a Diagnostic,
    with_package: bool,
    allow: Option<&Allow>,
) -> JsonFinding<'a> {
    let at = f.place();
    let old = beside(f);
    JsonFinding {
        rule: f.rule.id(),
        code: f.rule.code(),
        severity: f.severity.as_str(),
        package: if with_package {
            f.package.as_deref()
        } else {
            None
        },
        channel: f.channel.as_deref(),
        bundle: f.bundle.as_deref(),
        detail: &f.message,
        file: at.map(|l| &*l.file),
        line: at.map(|l| l.line).filter(|l| *l > 0),
        old_file: old.map(|l| &*l.file),
        old_line: old.map(|l| l.line).filter(|l| *l > 0),
        evidence: JsonEvidence {
            old: f.old_location.as_ref().map(place),
            new: f.location.as_ref().map(place),
        },
        allowed_by: allow.map(ToString::to_string),
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
                findings: p
                    .findings
                    .iter()
                    .map(|f| json_finding(f, false, None))
                    .collect(),
                allowed: p
                    .allowed
                    .iter()
                    .map(|(f, a)| json_finding(f, false, Some(a)))
                    .collect(),
            })
            .collect(),
        findings: diff
            .findings
            .iter()
            .map(|f| json_finding(f, true, None))
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
fn by_severity<'a>(findings: impl IntoIterator<Item = &'a Diagnostic>) -> Vec<&'a Diagnostic> {
    let mut v: Vec<&Diagnostic> = findings.into_iter().collect();
    v.sort_by_key(|f| f.severity);
    v
}

/// Input text, safe on a terminal.
fn safe(text: &str) -> std::borrow::Cow<'_, str> {
    olmsat_io::terminal(text)
}

/// `error[rule R1]`, or `allowed[rule R1]` for a finding an allow covers.
fn level(f: &Diagnostic, allowed: bool) -> String {
    let mut out = format!(
        "{}[{}",
        if allowed {
            "allowed"
        } else {
            f.severity.as_str()
        },
        f.rule.id()
    );
    if let Some(code) = f.rule.code() {
        let _ = write!(out, " {code}");
    }
    out.push(']');
    out
}

/// `package P, channel C, bundle B` (the package only when asked for).
fn context(f: &Diagnostic, with_package: bool) -> Option<String> {
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
    (!ctx.is_empty()).then(|| ctx.join(", "))
}

/// The level painted (allowed findings in the colour of information), then
/// the context: `error[rule R1] channel C, bundle B`.
fn finding_head(f: &Diagnostic, with_package: bool, allowed: bool, color: bool) -> String {
    let shown = if allowed { Severity::Info } else { f.severity };
    let mut out = paint_level(shown, color, &level(f, allowed));
    if let Some(ctx) = context(f, with_package) {
        let _ = write!(out, " {}", safe(&ctx));
    }
    out
}

/// The message, with the allow that covers it.
fn message(f: &Diagnostic, allow: Option<&Allow>) -> String {
    match allow {
        Some(a) => format!("{} (allowed by {a})", f.message),
        None => f.message.clone(),
    }
}

fn write_finding(
    out: &mut String,
    f: &Diagnostic,
    allow: Option<&Allow>,
    indent: &str,
    color: bool,
) {
    let _ = writeln!(
        out,
        "{indent}{}: {}",
        finding_head(f, false, allow.is_some(), color),
        safe(&message(f, allow))
    );
    if let Some(o) = &f.old_location {
        let _ = writeln!(
            out,
            "{indent}    OLD {}",
            paint_place(color, &o.to_string())
        );
    }
    if let Some(n) = &f.location {
        let _ = writeln!(
            out,
            "{indent}    NEW {}",
            paint_place(color, &n.to_string())
        );
    }
}

/// The summary line: counts of packages and findings per level (and of the
/// allowed findings, when there are some).
pub fn summary(diff: &Diff) -> String {
    let mut out = format!(
        "{} package(s) changed; {} error(s), {} warning(s), {} info",
        diff.packages.len(),
        diff.count(Severity::Error),
        diff.count(Severity::Warning),
        diff.count(Severity::Info)
    );
    let allowed = diff.all_allowed().count();
    if allowed > 0 {
        let _ = write!(out, ", {allowed} allowed");
    }
    out
}

/// `diff` for people: per package, the changes in a compact form, then the
/// findings (errors first) with their evidence, then the allowed findings;
/// then a summary line. With `color`, levels and places are painted as in
/// every text report. Input text is escaped for the terminal.
pub fn text(diff: &Diff, color: bool) -> String {
    let mut out = String::new();
    for f in by_severity(&diff.findings) {
        write_finding(&mut out, f, None, "", color);
    }
    for p in &diff.packages {
        let _ = writeln!(out, "package {}", safe(&p.name));
        if !p.changes.is_empty() {
            let _ = writeln!(out, "  changes:");
            for c in &p.changes {
                let _ = writeln!(out, "    {}", safe(&c.to_string()));
            }
        }
        if !p.findings.is_empty() {
            let _ = writeln!(out, "  findings:");
            for f in by_severity(&p.findings) {
                write_finding(&mut out, f, None, "    ", color);
            }
        }
        if !p.allowed.is_empty() {
            let _ = writeln!(out, "  allowed:");
            for (f, a) in &p.allowed {
                write_finding(&mut out, f, Some(a), "    ", color);
            }
        }
    }
    let _ = writeln!(out, "{}", summary(diff));
    out
}

/// Every finding (errors first), then every allowed finding, each with the
/// allow that covers it.
fn every(diff: &Diff) -> Vec<(&Diagnostic, Option<&Allow>)> {
    by_severity(diff.all_findings())
        .into_iter()
        .map(|f| (f, None))
        .chain(diff.all_allowed().map(|(f, a)| (f, Some(a))))
        .collect()
}

/// One line per finding (errors first, allowed ones last), `file:line:
/// level[rule code] package P, channel C, bundle B: detail`; no changes, no
/// summary.
pub fn short(diff: &Diff, color: bool) -> String {
    let mut out = String::new();
    for (f, allow) in every(diff) {
        if let Some(l) = f.place() {
            let _ = write!(out, "{}: ", paint_place(color, &l.to_string()));
        }
        let _ = writeln!(
            out,
            "{}: {}",
            finding_head(f, true, allow.is_some(), color),
            safe(&message(f, allow))
        );
    }
    out
}

/// One GitHub Actions annotation per finding (`::error file=F,line=L,title=RULE (CODE)::message`),
/// errors first; information and allowed findings as `::notice`.
pub fn github(diff: &Diff) -> String {
    let mut out = String::new();
    for (f, allow) in every(diff) {
        let command = match (allow, f.severity) {
            (None, Severity::Error) => "error",
            (None, Severity::Warning) => "warning",
            _ => "notice",
        };
        let mut props = Vec::new();
        if let Some(l) = f.place() {
            props.push(format!("file={}", escape_property(&l.file)));
            if l.line > 0 {
                props.push(format!("line={}", l.line));
            }
        }
        let mut title = match f.rule.code() {
            Some(code) => format!("{} ({code})", f.rule.id()),
            None => f.rule.id().to_owned(),
        };
        if allow.is_some() {
            title.push_str(", allowed");
        }
        props.push(format!("title={}", escape_property(&title)));
        let detail = message(f, allow);
        let message = match context(f, true) {
            Some(ctx) => format!("[{ctx}] {detail}"),
            None => detail,
        };
        let line = format!("::{command} {}::{}", props.join(","), escape_data(&message));
        let _ = writeln!(out, "{}", safe(&line));
    }
    out
}

/// The diff as `format` (the findings system's formats), by olmsat
/// `version` (SARIF names it); `color` paints text and short lines.
///
/// # Errors
///
/// A JSON document cannot be made (it always can for a diff's values).
pub fn render(
    diff: &Diff,
    format: olmsat_findings::report::Format,
    color: bool,
    version: &str,
) -> Result<String, serde_json::Error> {
    use olmsat_findings::report::Format;
    Ok(match format {
        Format::Text => text(diff, color),
        Format::Short => short(diff, color),
        Format::Github => github(diff),
        Format::Yaml => yaml(diff),
        Format::Sarif => serde_json::to_string_pretty(&sarif(diff, version))? + "\n",
        Format::Json => serde_json::to_string_pretty(&json(diff))? + "\n",
    })
}

/// A SARIF 2.1.0 log of the diff's findings by olmsat `version`, as the
/// findings system assembles every SARIF log: errors first, information at
/// level `note`, the evidence in OLD as a related location, allowed findings
/// with an external suppression.
pub fn sarif(diff: &Diff, version: &str) -> serde_json::Value {
    let findings: Vec<Diagnostic> = by_severity(diff.all_findings())
        .into_iter()
        .cloned()
        .collect();
    let allowed: Vec<(Diagnostic, Allow)> = diff.all_allowed().cloned().collect();
    olmsat_findings::report::format::sarif_with_allowed(&findings, &allowed, version)
}
