//! `olmsat render-template`, `olmsat convert-template`, and template files given
//! to `validate`, `graph` and `path`, as a process.

#[path = "cli_common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use common::{olmsat_in, Run};

/// The real templates and their catalogs, in the repository.
fn templates() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/templates")
}

fn run(args: &[&str]) -> Run {
    olmsat_in(&templates(), args, "", &[])
}

fn run_stdin(args: &[&str], stdin: &str) -> Run {
    olmsat_in(&templates(), args, stdin, &[])
}

const MIGRATE: [&str; 2] = ["--migrate-level", "bundle-object-to-csv-metadata"];

#[test]
fn basic_template_renders_its_committed_catalog_byte_for_byte() {
    for (pkg, file) in [
        ("nfs-provisioner-operator", "basic-template.yaml"),
        ("libredb-studio-operator", "basic.yaml"),
    ] {
        let t = format!("{pkg}/{file}");
        let cat = format!("{pkg}/catalog");
        let mut args = vec![
            "render-template",
            "basic",
            &t,
            "--bundles-from",
            &cat,
            "-o",
            "yaml",
        ];
        args.extend(MIGRATE);
        let r = run(&args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let want = std::fs::read_to_string(templates().join(&cat).join("catalog.yaml")).unwrap();
        assert_eq!(r.stdout, want, "{pkg}");
        // Same bytes as `render` writes for the catalog.
        let rendered = run(&["render", &cat, "-o", "yaml"]);
        assert_eq!(rendered.stdout, r.stdout);
        // Deterministic.
        assert_eq!(run(&args).stdout, r.stdout);
    }
}

#[test]
fn type_detection_and_argument_forms() {
    let t = "kairos-operator/semver.yaml";
    let cat = "kairos-operator/catalog";
    let detected = run(&[
        "render-template",
        t,
        "--bundles-from",
        cat,
        MIGRATE[0],
        MIGRATE[1],
    ]);
    assert_eq!(detected.code, 0, "{}", detected.stderr);
    let text = std::fs::read_to_string(templates().join(t)).unwrap();
    for args in [
        vec!["render-template", "semver", t],
        vec!["render-template", "semver"],
        vec!["render-template", "semver", "-"],
        vec!["render-template"],
    ] {
        let mut a = args.clone();
        a.extend(["--bundles-from", cat, MIGRATE[0], MIGRATE[1]]);
        let r = run_stdin(&a, &text);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert_eq!(r.stdout, detected.stdout, "{args:?}");
    }
    let r = run(&["render-template", "composite", t]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "olmsat: invalid template type \"composite\", must be one of: [basic semver substitutes]\n"
    );
    let r = run_stdin(&["render-template"], "entries: []\n");
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "olmsat: <stdin>:1: auto-detecting template type: template input missing required 'schema' field\n"
    );
    let r = run_stdin(&["render-template"], "schema: olm.foo\n");
    assert!(r
        .stderr
        .contains("auto-detecting template type: unknown template schema: olm.foo"));
    let r = run(&["render-template", t, "-o", "xml"]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "olmsat: invalid --output value \"xml\", expected (json|yaml|mermaid)\n"
    );
}

/// A template named on the command line that is a pipe (`<(…)`,
/// `/dev/stdin`) is read as a stream, as every named path is.
#[cfg(target_os = "linux")]
#[test]
fn a_named_pipe_is_read_as_the_template() {
    let t = "kairos-operator/semver.yaml";
    let cat = "kairos-operator/catalog";
    let from_file = run(&[
        "render-template",
        "semver",
        t,
        "--bundles-from",
        cat,
        MIGRATE[0],
        MIGRATE[1],
    ]);
    let text = std::fs::read_to_string(templates().join(t)).unwrap();
    let args = [
        "render-template",
        "semver",
        "/dev/stdin",
        "--bundles-from",
        cat,
        MIGRATE[0],
        MIGRATE[1],
    ];
    let r = run_stdin(&args, &text);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, from_file.stdout);
}

#[test]
fn semver_render_errors_are_wrapped_and_located() {
    let r = run_stdin(
        &["render-template", "semver"],
        "schema: olm.semver\ninvalid: 1\n",
    );
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr, "olmsat: <stdin>:1: rendering template: render: unable to read file: error unmarshaling JSON: while decoding JSON: json: unknown field \"invalid\"\n");
}

#[test]
fn an_image_found_nowhere_names_image_line_sources_and_fix() {
    let r = run(&[
        "render-template",
        "dotvirt-operator/semver.yaml",
        "--bundles-from",
        "dotvirt-operator/catalog",
        MIGRATE[0],
        MIGRATE[1],
    ]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stdout, "");
    assert!(r.stderr.starts_with(
        "olmsat: dotvirt-operator/semver.yaml:11: rendering template: bundle image \"quay.io/community-operator-pipeline-prod/dotvirt-operator:0.0.35\" not available offline (searched: dotvirt-operator/catalog)\n  hint: "
    ), "{}", r.stderr);
    assert!(r.stderr.contains("--bundles-from"));
}

#[test]
fn rendered_catalog_is_validated_unless_asked_not_to() {
    // A channel entry with no bundle: written, then reported (exit 1).
    let text = std::fs::read_to_string(templates().join("libredb-studio-operator/basic.yaml"))
        .unwrap()
        .replace(
            "  - name: libredb-studio-operator.v0.9.59\n",
            "  - name: libredb-studio-operator.v0.9.59\n  - name: libredb-studio-operator.v1.0.0\n    replaces: libredb-studio-operator.v0.9.59\n",
        );
    let args = [
        "render-template",
        "--bundles-from",
        "libredb-studio-operator/catalog",
        MIGRATE[0],
        MIGRATE[1],
    ];
    let r = run_stdin(&args, &text);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.contains("libredb-studio-operator.v1.0.0"));
    assert!(r.stderr.contains("error["), "{}", r.stderr);
    let mut quiet = args.to_vec();
    quiet.push("--no-validate");
    let r = run_stdin(&quiet, &text);
    assert_eq!(r.code, 0);
    assert_eq!(r.stderr, "");
}

#[test]
fn mermaid_output() {
    let r = run(&[
        "render-template",
        "kairos-operator/semver.yaml",
        "--bundles-from",
        "kairos-operator/catalog",
        MIGRATE[0],
        MIGRATE[1],
        "-o",
        "mermaid",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("candidate-v2"), "{}", r.stdout);
    assert!(r.stdout.contains("kairos-operator.v2.1.1"), "{}", r.stdout);
}

#[test]
fn convert_template_round_trips() {
    let r = run(&[
        "convert-template",
        "basic",
        "nfs-provisioner-operator/catalog",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["schema"], "olm.template.basic");
    let bundles: Vec<&serde_json::Value> = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["schema"] == "olm.bundle")
        .collect();
    assert_eq!(bundles.len(), 2);
    assert_eq!(
        bundles[0].as_object().unwrap().len(),
        2,
        "only schema and image"
    );
    let back = run_stdin(
        &[
            "render-template",
            "--bundles-from",
            "nfs-provisioner-operator/catalog",
            "-o",
            "yaml",
            MIGRATE[0],
            MIGRATE[1],
        ],
        &r.stdout,
    );
    assert_eq!(back.code, 0, "{}", back.stderr);
    let want =
        std::fs::read_to_string(templates().join("nfs-provisioner-operator/catalog/catalog.yaml"))
            .unwrap();
    assert_eq!(back.stdout, want);
    let r = run(&[
        "convert-template",
        "semver",
        "nfs-provisioner-operator/catalog",
    ]);
    assert_eq!(r.code, 2);
}

#[test]
fn validate_graph_and_path_read_an_explicit_template() {
    let t = "kairos-operator/semver.yaml";
    let from = ["--bundles-from", "kairos-operator/catalog"];
    let r = run(&["validate", t, from[0], from[1]]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("valid: 1 package(s), 4 bundle(s)"),
        "{}",
        r.stdout
    );
    let r = run(&["graph", t, from[0], from[1], "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("candidate-v2"));
    let r = run(&[
        "path",
        t,
        "--package",
        "kairos-operator",
        "--from",
        "kairos-operator.v2.0.1",
        from[0],
        from[1],
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("kairos-operator.v2.0.1 -> kairos-operator.v2.2.0"),
        "{}",
        r.stdout
    );
    // Without the source the template cannot render: nothing is guessed.
    let r = run(&["validate", t]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("not available offline"));
}

/// The `olm.channel` documents of a JSON catalog stream.
fn channel_docs(json: &str) -> Vec<serde_json::Value> {
    serde_json::Deserializer::from_str(json)
        .into_iter::<serde_json::Value>()
        .map(|d| d.expect("olmsat writes JSON"))
        .filter(|d| d["schema"] == "olm.channel")
        .collect()
}

#[test]
fn legacy_semver_linking_reproduces_a_catalog_rendered_by_old_opm() {
    let t = "clusterpulse/semver.yaml";
    let cat = "clusterpulse/catalog";
    let committed = run(&["render", cat]);
    assert_eq!(committed.code, 0, "{}", committed.stderr);
    let mut args = vec!["render-template", t, "--bundles-from", cat];
    args.extend(MIGRATE);
    let edge = run(&args);
    assert_eq!(edge.code, 0, "{}", edge.stderr);
    assert_ne!(channel_docs(&edge.stdout), channel_docs(&committed.stdout));
    args.extend(["--semver-linking", "legacy"]);
    let legacy = run(&args);
    assert_eq!(legacy.code, 0, "{}", legacy.stderr);
    assert_eq!(
        channel_docs(&legacy.stdout),
        channel_docs(&committed.stdout)
    );
    let r = run(&["render-template", t, "--semver-linking", "old"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("invalid value 'old' for '--semver-linking"),
        "{}",
        r.stderr
    );
}

#[test]
fn validation_findings_follow_strict_allow_and_deny() {
    // A skipRange that matches no other bundle: a warning of the validation.
    let text = std::fs::read_to_string(templates().join("libredb-studio-operator/basic.yaml"))
        .unwrap()
        .replace(
            "  - name: libredb-studio-operator.v0.9.59\n",
            "  - name: libredb-studio-operator.v0.9.59\n    skipRange: '>=1.1.0 <1.2.0'\n",
        );
    let base = [
        "render-template",
        "--bundles-from",
        "libredb-studio-operator/catalog",
        MIGRATE[0],
        MIGRATE[1],
    ];
    let with = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        run_stdin(&a, &text)
    };
    let r = with(&[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("warning[skiprange-matches-nothing]"),
        "{}",
        r.stderr
    );
    let r = with(&["--strict"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let r = with(&["--deny", "skiprange-matches-nothing"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("error[skiprange-matches-nothing]"),
        "{}",
        r.stderr
    );
    let r = with(&["--strict", "--allow", "skiprange-matches-nothing"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        !r.stderr.contains("skiprange-matches-nothing"),
        "{}",
        r.stderr
    );
    let r = with(&["--allow", "skiprange-matches-nothin"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("did you mean"), "{}", r.stderr);
}

/// Issue 31.9: a `--bundles-from` path that does not exist is named, not an
/// empty bundle image.
#[test]
fn a_missing_bundle_source_is_named_by_its_path() {
    let r = run(&[
        "render-template",
        "nfs-provisioner-operator/basic-template.yaml",
        "--bundles-from",
        "/no/such/bundles",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("bundle source /no/such/bundles: no such file or directory"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("bundle image \"\""), "{}", r.stderr);
}
