//! Report formats and warning controls of `validate` and `bundle validate`,
//! and the YAML examples of docs/ci.md.

mod cli_common;

use std::path::{Path, PathBuf};

use cli_common::{olmsat_in, Run};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(args: &[&str]) -> Run {
    olmsat_in(&root(), args, "", &[])
}

const SHAPES: &str = "corpus/catalogs/invalid/graph-shape.yaml";

/// A catalog with two warnings and no error.
const WARNED: &str = r#"{"schema":"olm.package","name":"w","defaultChannel":"stable","colour":"red"}
{"schema":"olm.bundle","name":"w.v1.0.0","package":"w","image":"i","properties":[{"type":"olm.package","value":{"packageName":"w","version":"1.0.0"}}]}
{"schema":"olm.channel","name":"stable","package":"w","entries":[{"name":"w.v1.0.0","replaces":"w.v1.0.1"}]}
"#;

#[test]
fn text_names_each_rule() {
    let o = run(&["validate", SHAPES]);
    assert_eq!(o.code, 1);
    assert_eq!(
        o.stdout,
        format!(
            "{SHAPES}:8: error[multiple-heads]: [package \"shapes\", channel \"heads\"] multiple channel heads found in graph: shapes.v1.0.0, shapes.v1.1.0 (skipRange does not link entries for this check: link them with replaces or skips)
{SHAPES}:16: error[replaces-cycle]: [package \"shapes\", channel \"cycle\"] detected cycle in replaces chain of upgrade graph: shapes.v1.1.0 -> shapes.v1.0.0 -> shapes.v1.1.0
{SHAPES}:29: error[stranded-bundles]: [package \"shapes\", channel \"stranded\"] channel contains one or more stranded bundles: shapes.v0.9.0
{SHAPES}:36: error[empty-skip]: [package \"shapes\", channel \"stranded\", bundle \"shapes.v1.1.0\"] skip[1] is empty
invalid: 1 package(s), 4 bundle(s) in 1 file(s); 4 error(s), 0 warning(s)
"
        )
    );
}

#[test]
fn short_is_one_compiler_line_per_finding() {
    let o = run(&["validate", SHAPES, "-o", "short"]);
    assert_eq!(o.code, 1);
    assert_eq!(
        o.stdout,
        format!(
            "{SHAPES}:8: error[multiple-heads]: multiple channel heads found in graph: shapes.v1.0.0, shapes.v1.1.0 (skipRange does not link entries for this check: link them with replaces or skips)
{SHAPES}:16: error[replaces-cycle]: detected cycle in replaces chain of upgrade graph: shapes.v1.1.0 -> shapes.v1.0.0 -> shapes.v1.1.0
{SHAPES}:29: error[stranded-bundles]: channel contains one or more stranded bundles: shapes.v0.9.0
{SHAPES}:36: error[empty-skip]: skip[1] is empty
"
        )
    );
}

#[test]
fn github_annotations() {
    let o = run(&["validate", SHAPES, "-o", "github"]);
    assert_eq!(o.code, 1);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", o.stdout);
    assert_eq!(
        lines[1],
        format!("::error file={SHAPES},line=16,title=replaces-cycle::[package \"shapes\", channel \"cycle\"] detected cycle in replaces chain of upgrade graph: shapes.v1.1.0 -> shapes.v1.0.0 -> shapes.v1.1.0")
    );
    assert_eq!(
        lines[3],
        format!("::error file={SHAPES},line=36,title=empty-skip::[package \"shapes\", channel \"stranded\", bundle \"shapes.v1.1.0\"] skip[1] is empty")
    );
}

#[test]
fn json_and_yaml_carry_the_rule() {
    let o = run(&["validate", SHAPES, "-o", "json"]);
    assert_eq!(o.code, 1);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let rules: Vec<&str> = v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["rule"].as_str())
        .collect();
    assert_eq!(
        rules,
        [
            "multiple-heads",
            "replaces-cycle",
            "stranded-bundles",
            "empty-skip"
        ]
    );
    assert_eq!(v["passed"], false);
    assert_eq!(v["errors"][3]["bundle"], "shapes.v1.1.0");
    let y = run(&["validate", SHAPES, "-o", "yaml"]);
    assert_eq!(y.code, 1);
    let from_yaml: serde_json::Value = serde_saphyr::from_str(&y.stdout).unwrap();
    assert_eq!(from_yaml, v);
}

fn sarif_schema() -> serde_json::Value {
    let text =
        std::fs::read_to_string(root().join("tests/schemas/sarif-schema-2.1.0.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn assert_valid_sarif(log: &serde_json::Value) {
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .build(&sarif_schema())
        .unwrap();
    let errors: Vec<String> = validator.iter_errors(log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn sarif_is_valid_and_places_every_result() {
    let o = run(&["validate", SHAPES, "-o", "sarif"]);
    assert_eq!(o.code, 1);
    let log: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_valid_sarif(&log);
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    let loc = &results[0]["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], SHAPES);
    assert_eq!(loc["region"]["startLine"], 8);
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert!(rules.iter().all(|r| r["help"]["text"].is_string()));
    // Bundle findings too, with columns.
    let b = run(&["bundle", "validate", "corpus/bundles", "-o", "sarif"]);
    assert!(b.code == 0 || b.code == 1, "{}", b.stderr);
    assert_valid_sarif(&serde_json::from_str(&b.stdout).unwrap());
}

#[test]
fn warnings_pass_unless_strict_allowed_or_denied() {
    let v = |args: &[&str]| {
        let mut all = vec!["validate", "-"];
        all.extend_from_slice(args);
        olmsat_in(&root(), &all, WARNED, &[])
    };
    let plain = v(&["-o", "short"]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert_eq!(
        plain.stdout,
        "<stdin>:1:1: warning[unknown-field]: unknown field \"colour\" in olm.package blob; opm ignores it and render drops it\n<stdin>:3: warning[replaces-not-found]: replaces \"w.v1.0.1\", which is not a bundle of package \"w\" in this catalog: its version 1.0.1 is not lower than this entry's 1.0.0, so it is no pruned predecessor\n"
    );
    for strict in ["--strict", "--warnings-as-errors"] {
        let o = v(&[strict, "-o", "short"]);
        assert_eq!(o.code, 1);
        assert!(o.stdout.contains("error[unknown-field]"), "{}", o.stdout);
    }
    assert_eq!(v(&["--fail-on", "warning"]).code, 1);
    assert_eq!(v(&["--fail-on", "error"]).code, 0);
    let denied = v(&["--deny", "replaces-not-found", "-o", "short"]);
    assert_eq!(denied.code, 1);
    assert!(denied.stdout.contains("warning[unknown-field]"));
    assert!(denied.stdout.contains("error[replaces-not-found]"));
    let allowed = v(&[
        "--strict",
        "--allow",
        "unknown-field",
        "--allow",
        "replaces-not-found",
    ]);
    assert_eq!(allowed.code, 0, "{}", allowed.stdout);
    assert!(allowed.stdout.ends_with("0 error(s), 0 warning(s)\n"));
    let unknown = v(&["--allow", "unknown-feild"]);
    assert_eq!(unknown.code, 2);
    assert_eq!(
        unknown.stderr,
        "olmsat: unknown rule \"unknown-feild\" (did you mean \"unknown-field\"?)\n"
    );
    let error_rule = v(&["--allow", "multiple-heads"]);
    assert_eq!(error_rule.code, 2);
}

#[test]
fn settings_file_in_the_current_directory() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".olmsat.yaml"),
        "strict: true\nallow: [unknown-field]\n",
    )
    .unwrap();
    let o = olmsat_in(dir.path(), &["validate", "-", "-o", "short"], WARNED, &[]);
    assert_eq!(o.code, 1);
    assert_eq!(
        o.stdout,
        "<stdin>:3: error[replaces-not-found]: replaces \"w.v1.0.1\", which is not a bundle of package \"w\" in this catalog: its version 1.0.1 is not lower than this entry's 1.0.0, so it is no pruned predecessor\n"
    );
    // The command line wins over the file.
    let o = olmsat_in(
        dir.path(),
        &["validate", "-", "--allow", "replaces-not-found"],
        WARNED,
        &[],
    );
    assert_eq!(o.code, 0, "{}", o.stdout);
    std::fs::write(dir.path().join("other.yaml"), "deny: [no-such-rule]\n").unwrap();
    let o = olmsat_in(
        dir.path(),
        &["validate", "-", "--config", "other.yaml"],
        WARNED,
        &[],
    );
    assert_eq!(o.code, 2);
    assert_eq!(
        o.stderr,
        "olmsat: other.yaml: unknown rule \"no-such-rule\"\n"
    );
}

#[test]
fn colour_on_request_never_in_pipes_or_with_no_color() {
    let always = run(&["validate", SHAPES, "-o", "short", "--color", "always"]);
    assert!(always
        .stdout
        .contains("\u{1b}[1m\u{1b}[31merror[multiple-heads]\u{1b}[0m"));
    let auto = run(&["validate", SHAPES, "-o", "short"]);
    assert!(!auto.stdout.contains('\u{1b}'));
    let no_color = olmsat_in(
        &root(),
        &["validate", SHAPES, "--color", "never"],
        "",
        &[("NO_COLOR", "1")],
    );
    assert!(!no_color.stdout.contains('\u{1b}'));
}

#[test]
fn bundle_validate_shares_the_formats_and_controls() {
    let o = run(&["bundle", "validate", "corpus/bundles", "-o", "short"]);
    for line in o.stdout.lines() {
        assert!(
            line.contains(": error[") || line.contains(": warning["),
            "{line}"
        );
    }
    let j = run(&["bundle", "validate", "corpus/bundles", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&j.stdout).unwrap();
    for e in v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .chain(v["warnings"].as_array().unwrap())
    {
        assert!(e["rule"].is_string(), "{e}");
    }
    let y = run(&["bundle", "validate", "corpus/bundles", "-o", "yaml"]);
    let from_yaml: serde_json::Value = serde_saphyr::from_str(&y.stdout).unwrap();
    assert_eq!(from_yaml, v);
    let bad = run(&["bundle", "validate", "corpus/bundles", "--deny", "nope"]);
    assert_eq!(bad.code, 2);
}

/// The YAML blocks of docs/ci.md parse, and its settings examples are valid
/// settings files (the CI recipes and the pre-commit hooks are run by
/// tests/ci_recipes.rs).
#[test]
fn ci_md_yaml_parses_and_its_settings_are_valid() {
    let doc = std::fs::read_to_string(root().join("docs/ci.md")).unwrap();
    let blocks: Vec<&str> = doc
        .split("```yaml\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .collect();
    assert_eq!(
        blocks.len(),
        5,
        "settings, diff allows, GitHub, GitLab, pre-commit"
    );
    for block in &blocks {
        let _: serde_json::Value =
            serde_saphyr::from_str(block).unwrap_or_else(|e| panic!("{e}\n{block}"));
    }
    let dir = tempfile::tempdir().unwrap();
    let catalogs = dir.path().join("catalogs");
    std::fs::create_dir(&catalogs).unwrap();
    copy_tree(&root().join("corpus/catalogs/etcd-example"), &catalogs);
    std::fs::write(dir.path().join(".olmsat.yaml"), blocks[0]).unwrap();
    let o = olmsat_in(dir.path(), &["validate", "catalogs"], "", &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    std::fs::write(dir.path().join(".olmsat.yaml"), blocks[1]).unwrap();
    let o = olmsat_in(dir.path(), &["diff", "catalogs", "catalogs"], "", &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
}

/// Copy the directory tree `from` into `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dst = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &dst);
        } else {
            std::fs::copy(&p, dst).unwrap();
        }
    }
}
