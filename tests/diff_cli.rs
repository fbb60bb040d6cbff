//! `olmsat diff` as a process: exit codes, output formats, standard input and
//! `git:REV:PATH` inputs (from temporary repositories built here).
#![allow(clippy::print_stdout, clippy::print_stderr)] // progress of long corpus runs

use std::path::Path;
use std::process::{Command, Stdio};

use std::io::Write;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn olmsat_in(dir: &Path, args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_olmsat"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("olmsat runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("stdin written");
    let out = child.wait_with_output().expect("olmsat ends");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Package `op`, default channel `default`, channels of `(name, [(entry, replaces)])`;
/// a bundle per entry with version `1.<n>.0` for entry `op.v<n>`.
/// A channel's entries: (name, replaces).
type Entries<'a> = &'a [(&'a str, Option<&'a str>)];

fn catalog(default: &str, channels: &[(&str, Entries<'_>)]) -> String {
    let mut out = format!("---\nschema: olm.package\nname: op\ndefaultChannel: {default}\n");
    let mut bundles = std::collections::BTreeSet::new();
    for (name, entries) in channels {
        out.push_str(&format!(
            "---\nschema: olm.channel\npackage: op\nname: {name}\nentries:\n"
        ));
        for (e, r) in *entries {
            bundles.insert(*e);
            out.push_str(&format!("  - name: {e}\n"));
            if let Some(r) = r {
                out.push_str(&format!("    replaces: {r}\n"));
            }
        }
    }
    for b in bundles {
        let minor = b.trim_start_matches("op.v");
        out.push_str(&format!(
            "---\nschema: olm.bundle\npackage: op\nname: {b}\nimage: quay.io/op/bundle:{minor}\nproperties:\n  - type: olm.package\n    value:\n      packageName: op\n      version: 1.{minor}.0\n"
        ));
    }
    out
}

const V1_V2: &[(&str, Option<&str>)] = &[("op.v1", None), ("op.v2", Some("op.v1"))];
const V1_V3: &[(&str, Option<&str>)] = &[
    ("op.v1", None),
    ("op.v2", Some("op.v1")),
    ("op.v3", Some("op.v2")),
];
const V2_ALONE: &[(&str, Option<&str>)] = &[("op.v2", None)];

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

#[test]
fn exit_codes_follow_the_findings() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "old/op.yaml", &catalog("stable", &[("stable", V1_V2)]));
    write(d, "grown/op.yaml", &catalog("stable", &[("stable", V1_V3)]));
    write(
        d,
        "cut/op.yaml",
        &catalog("stable", &[("stable", V2_ALONE)]),
    );
    write(
        d,
        "moved/op.yaml",
        &catalog("fast", &[("fast", V1_V2), ("stable", V1_V2)]),
    );
    write(
        d,
        "both/op.yaml",
        &catalog("stable", &[("fast", V1_V2), ("stable", V1_V2)]),
    );

    let r = olmsat_in(d, &["diff", "old", "grown"], "");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        r.stdout,
        "package op\n  changes:\n    bundle-added op.v3\n    channel stable: head-changed: op.v2 (1.2.0) -> op.v3 (1.3.0)\n    channel stable: entry-added op.v3\n0 package(s) changed; 0 error(s), 0 warning(s), 0 info\n"
            .replace("0 package(s)", "1 package(s)")
    );

    let r = olmsat_in(d, &["diff", "old", "cut"], "");
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("error[removed-uncovered R2] channel stable, bundle op.v1: op.v1 (1.1.0) was removed from the channel"), "{}", r.stdout);
    assert!(r.stdout.contains("OLD old/op.yaml:"), "{}", r.stdout);

    // A warning fails only with --strict or --fail-on warning.
    let r = olmsat_in(d, &["diff", "both", "moved"], "");
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("warning[default-channel-changed R6] channel fast"),
        "{}",
        r.stdout
    );
    assert_eq!(
        olmsat_in(d, &["diff", "both", "moved", "--strict"], "").code,
        1
    );
    assert_eq!(
        olmsat_in(d, &["diff", "both", "moved", "--fail-on", "warning"], "").code,
        1
    );
    assert_eq!(
        olmsat_in(d, &["diff", "both", "moved", "--fail-on", "error"], "").code,
        0
    );

    // NEW from standard input.
    let r = olmsat_in(
        d,
        &["diff", "old", "-", "-o", "short"],
        &catalog("stable", &[("stable", V2_ALONE)]),
    );
    assert_eq!(r.code, 1);
    // The finding points into NEW (standard input here): the channel stable.
    assert!(r.stdout.starts_with("<stdin>:6:"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("error[removed-uncovered R2] package op, channel stable, bundle op.v1: "),
        "{}",
        r.stdout
    );
}

#[test]
fn cannot_answer_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "old/op.yaml", &catalog("stable", &[("stable", V1_V2)]));
    // OLD invalid (two heads).
    write(
        d,
        "bad/op.yaml",
        &catalog("stable", &[("stable", &[("op.v1", None), ("op.v2", None)])]),
    );
    let r = olmsat_in(d, &["diff", "bad", "old"], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("multiple channel heads found in graph: op.v1, op.v2"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("OLD catalog is invalid (1 error(s)"),
        "{}",
        r.stderr
    );
    // NEW invalid is a finding, not a failure to answer.
    let r = olmsat_in(d, &["diff", "old", "bad"], "");
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("error[new-invalid R0]"), "{}", r.stdout);
    // Unreadable input, malformed Git input, both on standard input, usage.
    assert_eq!(olmsat_in(d, &["diff", "old", "missing"], "").code, 2);
    let r = olmsat_in(d, &["diff", "old", "git:HEAD"], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("a Git input is written git:REV:PATH"),
        "{}",
        r.stderr
    );
    assert_eq!(olmsat_in(d, &["diff", "-", "-"], "").code, 2);
    assert_eq!(olmsat_in(d, &["diff", "old"], "").code, 2);
    assert_eq!(
        olmsat_in(d, &["diff", "old", "old", "-o", "xml"], "").code,
        2
    );
    // An unknown package is "not found".
    let r = olmsat_in(d, &["diff", "old", "old", "--package", "opp"], "");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("package \"opp\" is in neither catalog; packages: op"),
        "{}",
        r.stderr
    );
}

#[test]
fn json_and_yaml_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "old/op.yaml", &catalog("stable", &[("stable", V1_V2)]));
    write(
        d,
        "cut/op.yaml",
        &catalog("stable", &[("stable", V2_ALONE)]),
    );
    let r = olmsat_in(d, &["diff", "old", "cut", "-o", "json"], "");
    assert_eq!(r.code, 1);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let expected = serde_json::json!({
        "packages": [{
            "name": "op",
            "changes": [
                {"kind": "bundle-removed", "bundle": "op.v1"},
                {"kind": "entry-removed", "channel": "stable", "bundle": "op.v1"},
                {"kind": "replaces-changed", "channel": "stable", "bundle": "op.v2", "old": "op.v1"}
            ],
            "findings": [{
                "rule": "removed-uncovered",
                "code": "R2",
                "severity": "error",
                "channel": "stable",
                "bundle": "op.v1",
                "detail": "op.v1 (1.1.0) was removed from the channel and no entry of NEW replaces it, skips it or has a skipRange containing its version: users on it cannot upgrade",
                "file": "cut/op.yaml",
                "line": 6,
                "oldFile": "old/op.yaml",
                "oldLine": 10,
                "evidence": {"old": {"file": "old/op.yaml", "line": 10}, "new": {"file": "cut/op.yaml", "line": 6}}
            }]
        }]
    });
    assert_eq!(v, expected, "{}", r.stdout);
    let again = olmsat_in(d, &["diff", "old", "cut", "-o", "json"], "");
    assert_eq!(again.stdout, r.stdout, "deterministic");
    let y = olmsat_in(d, &["diff", "old", "cut", "-o", "yaml"], "");
    assert_eq!(y.code, 1);
    assert!(
        y.stdout.contains("- rule: removed-uncovered\n")
            || y.stdout.contains("rule: removed-uncovered"),
        "{}",
        y.stdout
    );
    let same = olmsat_in(d, &["diff", "old", "old", "-o", "json"], "");
    assert_eq!(same.code, 0);
    assert_eq!(same.stdout, "{\n  \"packages\": []\n}\n");
}

/// Run `git` in `dir` (tests only: the product reads repositories itself).
fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn git_revisions_as_inputs() {
    if Command::new("git").arg("--version").output().is_err() {
        println!("skipped: no git command to build the test repository");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"]);
    write(
        d,
        "catalogs/v1/op/catalog.yaml",
        &catalog("stable", &[("stable", V1_V2)]),
    );
    // Ignored by .indexignore: not a catalog file.
    write(d, "catalogs/v1/.indexignore", "notes.txt\n");
    write(d, "catalogs/v1/notes.txt", "not yaml: [\n");
    git(d, &["add", "-A"]);
    git(d, &["commit", "-q", "-m", "first"]);
    write(
        d,
        "catalogs/v1/op/catalog.yaml",
        &catalog("stable", &[("stable", V2_ALONE)]),
    );
    git(d, &["commit", "-q", "-am", "drop op.v1"]);
    write(
        d,
        "catalogs/v1/op/catalog.yaml",
        &catalog("stable", &[("stable", V1_V3)]),
    );

    // Two revisions.
    let r = olmsat_in(
        d,
        &[
            "diff",
            "git:HEAD~1:catalogs/v1",
            "git:HEAD:catalogs/v1",
            "-o",
            "short",
        ],
        "",
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.starts_with("HEAD:catalogs/v1/op/catalog.yaml:6: error[removed-uncovered R2] package op, channel stable, bundle op.v1:"),
        "{}",
        r.stdout
    );
    // A revision against the working tree, from a subdirectory.
    let sub = d.join("catalogs");
    let r = olmsat_in(&sub, &["diff", "git:main:catalogs/v1", "v1"], "");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("entry-added op.v1"), "{}", r.stdout);
    // A single file, and the whole tree.
    let r = olmsat_in(
        d,
        &[
            "diff",
            "git:HEAD~1:catalogs/v1/op/catalog.yaml",
            "git:HEAD~1:",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        r.stdout,
        "0 package(s) changed; 0 error(s), 0 warning(s), 0 info\n"
    );
    // Errors: unknown revision, missing path, no repository.
    let r = olmsat_in(d, &["diff", "git:nope:catalogs/v1", "catalogs/v1"], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("unknown revision \"nope\""),
        "{}",
        r.stderr
    );
    // A path the revision does not have is an empty catalog, with a note
    // (a pull request that creates the catalog directory).
    let r = olmsat_in(d, &["diff", "git:HEAD:catalogs/v9", "catalogs/v1"], "");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains(
            "olmsat: note: git:HEAD:catalogs/v9: no such path in revision HEAD; compared as an empty catalog"
        ),
        "{}",
        r.stderr
    );
    assert!(
        r.stdout
            .starts_with("package op\n  changes:\n    package-added\n"),
        "{}",
        r.stdout
    );
    let outside = tempfile::tempdir().unwrap();
    let r = olmsat_in(outside.path(), &["diff", "git:HEAD:x", "git:HEAD:y"], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("no Git repository at or above"),
        "{}",
        r.stderr
    );
}

#[test]
fn sarif_github_and_rule_controls() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "old/op.yaml", &catalog("stable", &[("stable", V1_V2)]));
    write(
        d,
        "new/op.yaml",
        &catalog("stable", &[("stable", V2_ALONE)]),
    );
    // GitHub annotations: one line per finding.
    let r = olmsat_in(d, &["diff", "old", "new", "-o", "github"], "");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("::error file=new/op.yaml,line=6,"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains(",title=removed-uncovered (R2)::[package op, channel stable, bundle op.v1] "),
        "{}",
        r.stdout
    );
    // SARIF, valid against the 2.1.0 schema.
    let r = olmsat_in(d, &["diff", "old", "new", "-o", "sarif"], "");
    assert_eq!(r.code, 1, "{}", r.stderr);
    let log: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/schemas/sarif-schema-2.1.0.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .build(&schema)
        .unwrap();
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "removed-uncovered");
    assert_eq!(result["level"], "error");
    assert_eq!(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "new/op.yaml"
    );
    assert_eq!(
        result["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "old/op.yaml"
    );
    let rule = &log["runs"][0]["tool"]["driver"]["rules"][0];
    assert_eq!(rule["id"], "removed-uncovered");
    assert!(rule["help"]["text"].is_string());
    // --allow of an error rule keeps its findings, shown as allowed, and
    // they fail nothing; --deny makes a rule's findings errors.
    let r = olmsat_in(
        d,
        &[
            "diff",
            "old",
            "new",
            "--allow",
            "removed-uncovered",
            "-o",
            "short",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("allowed[removed-uncovered R2] package op, channel stable, bundle op.v1: ")
            && r.stdout.ends_with(" (allowed by removed-uncovered)\n"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("error["), "{}", r.stdout);
    write(
        d,
        "moved/op.yaml",
        &catalog("fast", &[("stable", V1_V2), ("fast", V1_V2)]),
    );
    let r = olmsat_in(d, &["diff", "old", "moved"], "");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("warning[default-channel-changed R6]"),
        "{}",
        r.stdout
    );
    let r = olmsat_in(
        d,
        &["diff", "old", "moved", "--deny", "default-channel-changed"],
        "",
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("error[default-channel-changed R6]"),
        "{}",
        r.stdout
    );
    let r = olmsat_in(d, &["diff", "old", "moved", "--warnings-as-errors"], "");
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    // An unknown rule is a usage error naming the closest.
    let r = olmsat_in(
        d,
        &["diff", "old", "new", "--allow", "removed-uncoverd"],
        "",
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("unknown rule \"removed-uncoverd\" (did you mean \"removed-uncovered\"?)"),
        "{}",
        r.stderr
    );
    // new-invalid cannot be allowed: NEW must load.
    let r = olmsat_in(d, &["diff", "old", "new", "--allow", "new-invalid"], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("rule \"new-invalid\" reports errors"),
        "{}",
        r.stderr
    );
}

#[test]
fn templates_are_inputs_rendered_in_memory() {
    let templates = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/templates");
    let new = std::fs::read_to_string(templates.join("kairos-operator/semver.yaml")).unwrap();
    // The template before 2.2.0 was added.
    let old: String = new
        .lines()
        .filter(|l| !l.contains("kairos-operator:2.2.0"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(old, new);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("old.yaml"), &old).unwrap();
    let from = templates.join("kairos-operator/catalog");
    let from = from.to_str().unwrap();
    let r = olmsat_in(
        &templates,
        &[
            "diff",
            dir.path().join("old.yaml").to_str().unwrap(),
            "kairos-operator/semver.yaml",
            "--bundles-from",
            from,
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains(
            "channel candidate-v2: head-changed: kairos-operator.v2.1.1 (2.1.1) -> kairos-operator.v2.2.0 (2.2.0)"
        ),
        "{}",
        r.stdout
    );
    // Dropping the head from the template: users on it are stranded.
    let r = olmsat_in(
        &templates,
        &[
            "diff",
            "kairos-operator/semver.yaml",
            dir.path().join("old.yaml").to_str().unwrap(),
            "--bundles-from",
            from,
            "-o",
            "short",
        ],
        "",
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("error[removed-uncovered R2] package kairos-operator, channel candidate-v2, bundle kairos-operator.v2.2.0"),
        "{}",
        r.stdout
    );
    // Without the bundle source the template cannot render: exit 2, said where.
    let r = olmsat_in(
        &templates,
        &[
            "diff",
            "kairos-operator/semver.yaml",
            "kairos-operator/catalog",
        ],
        "",
    );
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("not available offline"), "{}", r.stderr);
}

#[test]
fn settings_file_and_scoped_allows_apply_to_diff() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "old/op.yaml", &catalog("stable", &[("stable", V1_V2)]));
    write(
        d,
        "new/op.yaml",
        &catalog("stable", &[("stable", V2_ALONE)]),
    );
    // An allow for another package hides nothing here.
    write(d, ".olmsat.yaml", "allow: [removed-uncovered@other]\n");
    let r = olmsat_in(d, &["diff", "old", "new"], "");
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    // Allowing every error rule of the diff, for this package and channel,
    // in the settings file: exit 0, the finding shown as allowed.
    write(
        d,
        ".olmsat.yaml",
        "allow:\n  - removed-uncovered@op/stable\n",
    );
    let r = olmsat_in(d, &["diff", "old", "new"], "");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains(
            "  allowed:\n    allowed[removed-uncovered R2] channel stable, bundle op.v1: "
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains(" (allowed by removed-uncovered@op/stable)\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .ends_with("1 package(s) changed; 0 error(s), 0 warning(s), 0 info, 1 allowed\n"),
        "{}",
        r.stdout
    );
    // JSON lists it under the package's `allowed`, SARIF as a suppressed result.
    let r = olmsat_in(d, &["diff", "old", "new", "-o", "json"], "");
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["packages"][0]["findings"], serde_json::json!([]));
    assert_eq!(
        v["packages"][0]["allowed"][0]["allowedBy"],
        "removed-uncovered@op/stable"
    );
    let r = olmsat_in(d, &["diff", "old", "new", "-o", "sarif"], "");
    assert_eq!(r.code, 0);
    let log: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        log["runs"][0]["results"][0]["suppressions"][0]["justification"],
        "allowed by removed-uncovered@op/stable"
    );
    let r = olmsat_in(d, &["diff", "old", "new", "-o", "github"], "");
    assert!(
        r.stdout.starts_with("::notice file=")
            && r.stdout
                .contains("title=removed-uncovered (R2)%2C allowed::"),
        "{}",
        r.stdout
    );
    // The command line denies what the file allows.
    let r = olmsat_in(
        d,
        &["diff", "old", "new", "--deny", "removed-uncovered"],
        "",
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    // strict in a settings file makes warnings fail; --config names it.
    write(
        d,
        "moved/op.yaml",
        &catalog("fast", &[("stable", V1_V2), ("fast", V1_V2)]),
    );
    assert_eq!(olmsat_in(d, &["diff", "old", "moved"], "").code, 0);
    write(d, "ci/strict.yaml", "strict: true\n");
    let r = olmsat_in(
        d,
        &["diff", "old", "moved", "--config", "ci/strict.yaml"],
        "",
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("error[default-channel-changed R6]"),
        "{}",
        r.stdout
    );
    // A settings file naming an unknown rule cannot be followed.
    write(d, "ci/bad.yaml", "allow: [channel-removd]\n");
    let r = olmsat_in(d, &["diff", "old", "moved", "--config", "ci/bad.yaml"], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("ci/bad.yaml: unknown rule \"channel-removd\""),
        "{}",
        r.stderr
    );
}

#[test]
fn color_applies_to_diff_text() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "old/op.yaml", &catalog("stable", &[("stable", V1_V2)]));
    write(
        d,
        "new/op.yaml",
        &catalog("stable", &[("stable", V2_ALONE)]),
    );
    let plain = olmsat_in(d, &["diff", "old", "new"], "");
    assert!(
        !plain.stdout.contains('\u{1b}'),
        "not a terminal: no colour"
    );
    let never = olmsat_in(d, &["diff", "old", "new", "--color", "never"], "");
    assert_eq!(never.stdout, plain.stdout);
    let always = olmsat_in(d, &["diff", "old", "new", "--color", "always"], "");
    assert_eq!(always.code, 1);
    assert!(
        always
            .stdout
            .contains("\u{1b}[1m\u{1b}[31merror[removed-uncovered R2]\u{1b}[0m channel stable"),
        "{:?}",
        always.stdout
    );
    let short = olmsat_in(
        d,
        &["diff", "old", "new", "-o", "short", "--color", "always"],
        "",
    );
    assert!(short.stdout.starts_with("\u{1b}[1m"), "{:?}", short.stdout);
}

/// D15: a finding points into NEW (the working tree) when OLD is a Git
/// revision, with OLD's evidence beside it.
#[test]
fn d15_findings_point_into_new() {
    if Command::new("git").arg("--version").output().is_err() {
        println!("skipped: no git command to build the test repository");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"]);
    write(
        d,
        "catalog/op/catalog.yaml",
        &catalog("stable", &[("stable", V1_V2)]),
    );
    git(d, &["add", "-A"]);
    git(d, &["commit", "-q", "-m", "first"]);
    write(
        d,
        "catalog/op/catalog.yaml",
        &catalog("stable", &[("stable", V2_ALONE)]),
    );
    let r = olmsat_in(
        d,
        &["diff", "git:HEAD:catalog", "catalog", "-o", "github"],
        "",
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.starts_with(
            "::error file=catalog/op/catalog.yaml,line=6,title=removed-uncovered (R2)::"
        ),
        "{}",
        r.stdout
    );
    let r = olmsat_in(
        d,
        &["diff", "git:HEAD:catalog", "catalog", "-o", "json"],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let f = &v["packages"][0]["findings"][0];
    assert_eq!(f["rule"], "removed-uncovered");
    assert_eq!(f["file"], "catalog/op/catalog.yaml");
    assert_eq!(f["line"], 6, "the channel stable in NEW");
    assert_eq!(f["oldFile"], "HEAD:catalog/op/catalog.yaml");
    assert_eq!(f["oldLine"], 10, "the entry op.v1 in OLD");
    let r = olmsat_in(
        d,
        &["diff", "git:HEAD:catalog", "catalog", "-o", "sarif"],
        "",
    );
    let log: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let result = &log["runs"][0]["results"][0];
    assert_eq!(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "catalog/op/catalog.yaml"
    );
    assert_eq!(
        result["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "HEAD%3Acatalog/op/catalog.yaml"
    );
    assert_eq!(
        result["relatedLocations"][0]["physicalLocation"]["region"]["startLine"],
        10
    );
}

#[path = "support/corpus.rs"]
mod corpus;

/// A catalog repository's history replayed as its CI runs `diff`: one commit
/// per case, built from real catalogs of the corpus (community-operators-prod
/// v4.20), each diffed against its parent (issues 31 and 35).
#[test]
fn history_replay_of_real_catalog_changes() {
    let Some(full) = corpus::require_full("the history replay of diff") else {
        return;
    };
    if Command::new("git").arg("--version").output().is_err() {
        println!("skipped: no git command to build the test repository");
        return;
    }
    let real = full.join("fbc/community-operators-prod/catalogs/v4.20");
    let read = |p: &str| std::fs::read_to_string(real.join(p).join("catalog.yaml")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"]);
    write(d, "README", "catalogs\n");
    git(d, &["add", "-A"]);
    git(d, &["commit", "-q", "-m", "before the catalogs"]);
    let ci = |rev_old: &str, rev_new: &str, extra: &[&str]| {
        let old = format!("git:{rev_old}:catalogs/v4.20");
        let new = format!("git:{rev_new}:catalogs/v4.20");
        let mut args = vec!["diff", old.as_str(), new.as_str(), "-o", "short"];
        args.extend_from_slice(extra);
        olmsat_in(d, &args, "")
    };
    // 1. The pull request that creates the catalog directory (35.4): the base
    //    has no such path; it is an empty catalog, with a note.
    let hive = read("hive-operator");
    write(d, "catalogs/v4.20/hive-operator/catalog.yaml", &hive);
    write(
        d,
        "catalogs/v4.20/kubernaut-operator/catalog.yaml",
        &read("kubernaut-operator"),
    );
    git(d, &["add", "-A"]);
    git(d, &["commit", "-q", "-m", "catalogs/v4.20"]);
    let r = ci("HEAD~1", "HEAD", &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("compared as an empty catalog"),
        "{}",
        r.stderr
    );
    // 2. Dropping the replaces of alpha's first entry strands the clusters on
    //    the pruned predecessor it names (31.1): olm-stuck, at the entry in NEW.
    let cut = hive.replacen("  replaces: hive-operator.v1.2.4351-9dd47f8\n", "", 1);
    assert_ne!(cut, hive);
    write(d, "catalogs/v4.20/hive-operator/catalog.yaml", &cut);
    git(
        d,
        &["commit", "-q", "-am", "hive-operator: drop a replaces"],
    );
    let r = ci("HEAD~1", "HEAD", &[]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.starts_with("HEAD:catalogs/v4.20/hive-operator/catalog.yaml:")
            && r.stdout.contains("error[olm-stuck R8] package hive-operator, channel alpha, bundle hive-operator.v1.2.4351-9dd47f8: hive-operator.v1.2.4351-9dd47f8 is a pruned predecessor"),
        "{}",
        r.stdout
    );
    // 3. The revert is fine.
    write(d, "catalogs/v4.20/hive-operator/catalog.yaml", &hive);
    git(d, &["commit", "-q", "-am", "revert"]);
    assert_eq!(ci("HEAD~1", "HEAD", &[]).code, 0);
    // 4. A package removed on purpose (35.5): an error, accepted for exactly
    //    that package by the settings file, shown as allowed.
    std::fs::remove_dir_all(d.join("catalogs/v4.20/kubernaut-operator")).unwrap();
    git(d, &["commit", "-q", "-am", "remove kubernaut-operator"]);
    let r = ci("HEAD~1", "HEAD", &[]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("error[package-removed R3] package kubernaut-operator"),
        "{}",
        r.stdout
    );
    write(
        d,
        "ci.yaml",
        "allow: [package-removed@kubernaut-operator]\n",
    );
    let r = ci("HEAD~1", "HEAD", &["--config", "ci.yaml"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("allowed[package-removed R3] package kubernaut-operator"),
        "{}",
        r.stdout
    );
    // The same allow hides nothing of another package.
    let r = ci("HEAD~3", "HEAD~2", &["--config", "ci.yaml"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    // 5. A channel retired whose every entry stays reachable elsewhere (35.1):
    //    a warning naming where its users switch, and CI passes.
    let next = "---\nentries:\n- name: hive-operator.v1.2.5274-c04833d\nname: alpha-next\npackage: hive-operator\nschema: olm.channel\n";
    write(
        d,
        "catalogs/v4.20/hive-operator/catalog.yaml",
        &format!("{hive}{next}"),
    );
    git(d, &["commit", "-q", "-am", "hive-operator: alpha-next"]);
    assert_eq!(ci("HEAD~1", "HEAD", &[]).code, 0);
    write(d, "catalogs/v4.20/hive-operator/catalog.yaml", &hive);
    git(
        d,
        &["commit", "-q", "-am", "hive-operator: retire alpha-next"],
    );
    let r = ci("HEAD~1", "HEAD", &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("warning[channel-retired")
            && r.stdout.contains("channel alpha-next")
            && r.stdout.contains("alpha"),
        "{}",
        r.stdout
    );
}
