//! The report formats, one finding at a time: `text` (with the package,
//! channel and bundle concerned), `short` (as compilers print), GitHub
//! workflow commands, JSON/YAML objects and SARIF 2.1.0.
//!
//! A command arranges the pieces (its summary line, its other fields); the
//! finding itself looks the same in every command.

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};
use serde::Serialize;
use serde_json::{json, Value};

use crate::diagnostic::{Diagnostic, Rule, Severity};
use crate::report::policy::Allow;

/// The report formats (`-o`; with the `clap` feature, the command line's
/// values, whose help texts these are).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Format {
    /// Findings with their context, then a summary.
    Text,
    /// One `file:line: level[rule]: message` line per finding.
    Short,
    /// A JSON object.
    Json,
    /// The JSON object as YAML.
    Yaml,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// GitHub Actions annotations (workflow commands).
    Github,
}

fn severity_style(s: Severity) -> Style {
    let color = match s {
        Severity::Error => AnsiColor::Red,
        Severity::Warning => AnsiColor::Yellow,
        Severity::Info => AnsiColor::Cyan,
    };
    Style::new().bold().fg_color(Some(color.into()))
}

/// Text of the input (names, paths, messages quoting them), safe to print
/// on a terminal: control characters escaped.
fn safe(text: &str) -> std::borrow::Cow<'_, str> {
    olmsat_io::terminal(text)
}

/// `text` (input text, control characters escaped) in the colour of
/// `severity` (bold red errors, yellow warnings, cyan information) when
/// `color`: the level of a finding as every text report shows it.
pub fn paint_level(severity: Severity, color: bool, text: &str) -> String {
    let mut out = String::new();
    paint(&mut out, severity_style(severity), color, text);
    out
}

/// `text` (input text, control characters escaped) in bold when `color`: the
/// place of a finding as every text report shows it.
pub fn paint_place(color: bool, text: &str) -> String {
    let mut out = String::new();
    paint(&mut out, Style::new().bold(), color, text);
    out
}

fn paint(out: &mut String, style: Style, color: bool, text: &str) {
    let text = &*safe(text);
    if color {
        let _ = write!(out, "{}{text}{}", style.render(), style.render_reset());
    } else {
        out.push_str(text);
    }
}

fn head(d: &Diagnostic, color: bool) -> String {
    let mut out = String::new();
    if let Some(loc) = &d.location {
        paint(&mut out, Style::new().bold(), color, &loc.to_string());
        out.push_str(": ");
    }
    let level = format!("{}[{}]", d.severity.as_str(), d.rule);
    paint(&mut out, severity_style(d.severity), color, &level);
    out.push_str(": ");
    out
}

/// A finding as `text` prints it:
/// `file:line: error[rule]: [package "p", channel "c"] message`;
/// with `color`, the place bold, errors red and warnings yellow. Control
/// characters of the input are escaped.
pub fn text(d: &Diagnostic, color: bool) -> String {
    let mut out = head(d, color);
    if let Some(ctx) = d.context() {
        let _ = write!(out, "[{}] ", safe(&ctx));
    }
    out.push_str(&safe(&d.message));
    out
}

/// A finding as `short` prints it: `file:line: level[rule]: message`.
pub fn short(d: &Diagnostic, color: bool) -> String {
    let mut out = head(d, color);
    out.push_str(&safe(&d.message));
    out
}

/// GitHub's escaping of a workflow command's message.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// GitHub's escaping of a workflow command's property value.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// A finding as a GitHub Actions annotation:
/// `::error file=F,line=L,col=C,title=RULE::[context] message`.
pub fn github(d: &Diagnostic) -> String {
    let mut props = Vec::new();
    if let Some(loc) = &d.location {
        props.push(format!("file={}", escape_property(&loc.file)));
        if loc.line > 0 {
            props.push(format!("line={}", loc.line));
            if loc.column > 0 {
                props.push(format!("col={}", loc.column));
            }
        }
    }
    props.push(format!("title={}", escape_property(d.rule.id())));
    let message = match d.context() {
        Some(ctx) => format!("[{ctx}] {}", d.message),
        None => d.message.clone(),
    };
    let line = format!(
        "::{} {}::{}",
        d.severity.as_str(),
        props.join(","),
        escape_data(&message)
    );
    safe(&line).into_owned()
}

/// A finding as a JSON (or YAML) object; context fields that do not apply are
/// left out.
#[derive(Debug, Serialize)]
pub struct JsonFinding<'a> {
    /// The rule's identifier.
    pub rule: &'static str,
    /// The message.
    pub message: &'a str,
    /// The file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<&'a str>,
    /// The line (1-based).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The column (1-based).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// The package concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<&'a str>,
    /// The channel concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<&'a str>,
    /// The bundle concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bundle: Option<&'a str>,
}

impl<'a> From<&'a Diagnostic> for JsonFinding<'a> {
    fn from(d: &'a Diagnostic) -> Self {
        let loc = d.location.as_ref();
        let line = loc.map(|l| l.line).filter(|l| *l > 0);
        JsonFinding {
            rule: d.rule.id(),
            message: &d.message,
            file: loc.map(|l| &*l.file),
            line,
            column: loc
                .filter(|_| line.is_some())
                .map(|l| l.column)
                .filter(|c| *c > 0),
            package: d.package.as_deref(),
            channel: d.channel.as_deref(),
            bundle: d.bundle.as_deref(),
        }
    }
}

/// A serializable value as a YAML document (go-yaml's layout, keys sorted).
pub fn yaml<T: Serialize>(value: &T) -> Result<String, serde_json::Error> {
    let v = serde_json::to_value(value)?;
    let mut out = String::new();
    olmsat_encoding::yaml_emit::emit_document(&v, &mut out);
    Ok(out)
}

/// The URI reference SARIF wants for a path: forward slashes, characters
/// outside RFC 3986's unreserved set and `/` percent-encoded; absolute paths
/// become `file://` URIs.
pub fn sarif_uri(path: &str) -> String {
    let slashed = path.replace('\\', "/");
    let mut out = String::new();
    let absolute = slashed.starts_with('/');
    if absolute {
        out.push_str("file://");
    } else if slashed.len() > 1 && slashed.as_bytes()[1] == b':' {
        out.push_str("file:///");
    }
    for b in slashed.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(char::from(b))
            }
            b':' if !absolute && out.starts_with("file:///") => out.push(':'),
            _ => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

fn sarif_level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A rule as a SARIF log describes it.
#[derive(Debug, Clone)]
pub struct SarifRule<'a> {
    /// Its id (`ruleId`).
    pub id: &'a str,
    /// A name beside the id, when it has one.
    pub name: Option<&'a str>,
    /// One sentence.
    pub summary: &'a str,
    /// How to fix what it finds.
    pub help: &'a str,
    /// Its default level (`error`, `warning`, `note`).
    pub level: &'static str,
}

/// A finding as a SARIF log places it.
#[derive(Debug, Clone)]
pub struct SarifResult<'a> {
    /// The index of its rule in the rule list.
    pub rule: usize,
    /// Its level (`error`, `warning`, `note`).
    pub level: &'static str,
    /// Its message.
    pub message: String,
    /// Where: file, line and column (0: unknown).
    pub location: Option<(&'a str, u32, u32)>,
    /// The evidence before a change (a diff's OLD), as a related location.
    pub related: Option<(&'a str, u32, u32)>,
    /// Why the finding fails nothing (the allow that covers it), as an
    /// external suppression.
    pub suppressed_by: Option<String>,
    /// The package, channel and bundle concerned.
    pub package: Option<&'a str>,
    /// See `package`.
    pub channel: Option<&'a str>,
    /// See `package`.
    pub bundle: Option<&'a str>,
}

/// A place as SARIF results hold it: file, line, column.
fn sarif_place(l: &olmsat_encoding::Location) -> (&str, u32, u32) {
    (&l.file, l.line, l.column)
}

/// A SARIF physical location: the file's URI and, when known, its region.
fn physical((file, line, column): (&str, u32, u32)) -> Value {
    let mut physical = json!({
        "artifactLocation": {"uri": sarif_uri(file)},
    });
    if line > 0 {
        let mut region = json!({"startLine": line});
        if column > 0 {
            region["startColumn"] = json!(column);
        }
        physical["region"] = region;
    }
    physical
}

/// A SARIF 2.1.0 log by olmsat `version` of `results` under `rules`: the one
/// envelope every command's SARIF shares.
pub fn sarif_log(rules: &[SarifRule<'_>], results: &[SarifResult<'_>], version: &str) -> Value {
    let rule_objects: Vec<Value> = rules
        .iter()
        .map(|r| {
            let mut o = json!({"id": r.id});
            if let Some(name) = r.name {
                o["name"] = json!(name);
            }
            o["shortDescription"] = json!({"text": r.summary});
            o["fullDescription"] = json!({"text": r.summary});
            o["help"] = json!({
                "text": r.help,
                "markdown": format!("{}\n\n**How to fix:** {}", r.summary, r.help),
            });
            o["defaultConfiguration"] = json!({"level": r.level});
            o
        })
        .collect();
    let results: Vec<Value> = results
        .iter()
        .map(|f| {
            let mut result = json!({
                "ruleId": rules.get(f.rule).map(|r| r.id).unwrap_or_default(),
                "ruleIndex": f.rule,
                "level": f.level,
                "message": {"text": f.message},
            });
            if let Some(place) = f.location {
                result["locations"] = json!([{"physicalLocation": physical(place)}]);
            }
            if let Some(place) = f.related {
                result["relatedLocations"] = json!([{
                    "id": 0,
                    "physicalLocation": physical(place),
                    "message": {"text": "before the change"},
                }]);
            }
            if let Some(why) = &f.suppressed_by {
                result["suppressions"] = json!([{"kind": "external", "justification": why}]);
            }
            let mut props = serde_json::Map::new();
            for (k, v) in [
                ("package", f.package),
                ("channel", f.channel),
                ("bundle", f.bundle),
            ] {
                if let Some(v) = v {
                    props.insert(k.to_owned(), json!(v));
                }
            }
            if !props.is_empty() {
                result["properties"] = Value::Object(props);
            }
            result
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "olmsat",
                "version": version,
                "rules": rule_objects,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

/// A SARIF 2.1.0 log of `findings` by olmsat `version`: the rules that have
/// findings (with their help), and a result per finding with its place.
pub fn sarif(findings: &[Diagnostic], version: &str) -> Value {
    sarif_with_allowed(findings, &[], version)
}

/// A SARIF 2.1.0 log of `findings` and of the findings a policy `allowed`
/// (each a result with an external suppression naming its allow), by olmsat
/// `version`. A rule with a code (a diff's `R0`–`R10`) has it as its `name`;
/// a finding with evidence before the change has it as a related location.
pub fn sarif_with_allowed(
    findings: &[Diagnostic],
    allowed: &[(Diagnostic, Allow)],
    version: &str,
) -> Value {
    let all = findings
        .iter()
        .map(|d| (d, None))
        .chain(allowed.iter().map(|(d, a)| (d, Some(a))));
    let mut rules: Vec<Rule> = all.clone().map(|(d, _)| d.rule).collect();
    rules.sort_by_key(|r| r.id());
    rules.dedup();
    let described: Vec<SarifRule<'_>> = rules
        .iter()
        .map(|r| SarifRule {
            id: r.id(),
            name: r.code(),
            summary: r.summary(),
            help: r.help(),
            level: sarif_level(r.default_severity()),
        })
        .collect();
    let results: Vec<SarifResult<'_>> = all
        .map(|(d, allow)| SarifResult {
            rule: rules.iter().position(|r| *r == d.rule).unwrap_or(0),
            level: sarif_level(d.severity),
            message: match d.context() {
                Some(ctx) => format!("[{ctx}] {}", d.message),
                None => d.message.clone(),
            },
            location: d.place().map(sarif_place),
            related: d
                .old_location
                .as_ref()
                .filter(|_| d.location.is_some())
                .map(sarif_place),
            suppressed_by: allow.map(|a| format!("allowed by {a}")),
            package: d.package.as_deref(),
            channel: d.channel.as_deref(),
            bundle: d.bundle.as_deref(),
        })
        .collect();
    sarif_log(&described, &results, version)
}

/// [`Findings`](crate::report::Findings) as JSON/YAML: whether the run passed, the errors, the
/// warnings.
#[derive(Debug, serde::Serialize)]
pub struct FindingsDocument<'a> {
    /// Whether no error remains.
    pub passed: bool,
    /// The errors.
    pub errors: Vec<JsonFinding<'a>>,
    /// The warnings.
    pub warnings: Vec<JsonFinding<'a>>,
}

impl<'a> FindingsDocument<'a> {
    /// The document of `findings`: as `validate -o json|yaml` prints them.
    pub fn new(findings: &'a crate::report::Findings) -> Self {
        FindingsDocument {
            passed: findings.passed(),
            errors: findings.errors().map(Into::into).collect(),
            warnings: findings.warnings().map(Into::into).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use olmsat_encoding::location::Location;

    fn heads() -> Diagnostic {
        Diagnostic::new(
            Rule::MultipleHeads,
            "multiple channel heads found in graph: a, b",
        )
        .at(&Location::new(std::sync::Arc::from("dir/c.yaml"), 4).at(4, 3))
        .package("p")
        .channel("stable")
    }

    #[test]
    fn text_and_short_lines() {
        assert_eq!(
            text(&heads(), false),
            "dir/c.yaml:4:3: error[multiple-heads]: [package \"p\", channel \"stable\"] multiple channel heads found in graph: a, b"
        );
        assert_eq!(text(&heads(), false), heads().to_string());
        assert_eq!(
            short(&heads(), false),
            "dir/c.yaml:4:3: error[multiple-heads]: multiple channel heads found in graph: a, b"
        );
        assert_eq!(
            short(&heads(), true),
            "\u{1b}[1mdir/c.yaml:4:3\u{1b}[0m: \u{1b}[1m\u{1b}[31merror[multiple-heads]\u{1b}[0m: multiple channel heads found in graph: a, b"
        );
    }

    #[test]
    fn github_annotations_escape_as_github_does() {
        assert_eq!(
            github(&heads()),
            "::error file=dir/c.yaml,line=4,col=3,title=multiple-heads::[package \"p\", channel \"stable\"] multiple channel heads found in graph: a, b"
        );
        let d = Diagnostic::new(Rule::UnknownField, "100% bad\r\nfield: x, y")
            .at(&Location::new(std::sync::Arc::from("a,b:c%.yaml"), 0));
        assert_eq!(
            github(&d),
            "::warning file=a%2Cb%3Ac%25.yaml,title=unknown-field::100%25 bad%0D%0Afield: x, y"
        );
    }

    #[test]
    fn sarif_uris_are_uri_references() {
        assert_eq!(sarif_uri("dir/a b.yaml"), "dir/a%20b.yaml");
        assert_eq!(sarif_uri("/abs/x#1.json"), "file:///abs/x%231.json");
        assert_eq!(sarif_uri("C:\\cat\\x.json"), "file:///C:/cat/x.json");
    }

    #[test]
    fn sarif_lists_the_rules_found_and_places_results() {
        let w = Diagnostic::new(Rule::UnknownField, "u");
        let log = sarif(&[heads(), w], "0.1.0");
        let run = &log["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        assert_eq!(rules.len(), 2);
        assert_eq!(rules[0]["id"], "multiple-heads");
        assert_eq!(run["results"][1]["ruleIndex"], 1);
        assert_eq!(run["results"][1].get("locations"), None);
        let region = &run["results"][0]["locations"][0]["physicalLocation"]["region"];
        assert_eq!(region, &json!({"startLine": 4, "startColumn": 3}));
    }

    #[test]
    fn json_findings_leave_out_what_does_not_apply() {
        let v = serde_json::to_value(JsonFinding::from(&heads())).unwrap();
        assert_eq!(
            v,
            json!({"rule": "multiple-heads", "message": "multiple channel heads found in graph: a, b",
                   "file": "dir/c.yaml", "line": 4, "column": 3, "package": "p", "channel": "stable"})
        );
        assert_eq!(
            yaml(&json!({"rule": "x", "line": 2})).unwrap(),
            "line: 2\nrule: x\n"
        );
    }
}
