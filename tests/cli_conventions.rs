//! Shell conventions: `-o` is an output format everywhere, directories are
//! `--output-dir`, old spellings are refused with a hint, developer commands
//! stay out of the main help, and standard input is named as such.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn olmsat(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_olmsat"))
        .args(args)
        .output()
        .expect("olmsat runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const BUNDLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/bundles/registry-v1");
const ETCD: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../corpus/catalogs/etcd-example/etcd/catalog.yaml"
);

#[test]
fn from_bundles_writes_to_output_dir_and_reports_in_the_format_of_o() {
    let t = tempfile::tempdir().expect("temp dir");
    let out = t.path().join("catalog");
    let o = olmsat(&[
        "catalog",
        "from-bundles",
        BUNDLES,
        "--output-dir",
        out.to_str().expect("utf-8"),
        "-o",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("a JSON report");
    assert_eq!(report["passed"], true);
    assert!(out.join("etcd/catalog.json").is_file());
}

#[test]
fn from_bundles_refuses_a_directory_given_with_o() {
    let t = tempfile::tempdir().expect("temp dir");
    let dir = t.path().join("catalog");
    let dir = dir.to_str().expect("utf-8");
    let o = olmsat(&["catalog", "from-bundles", BUNDLES, "-o", dir]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains(&format!(
            "-o/--output is the report format (text, json or yaml); give the output directory with --output-dir {dir}"
        )),
        "{err}"
    );
    assert!(!t.path().join("catalog").exists());
}

#[test]
fn from_bundles_refuses_report_with_a_hint() {
    let t = tempfile::tempdir().expect("temp dir");
    let out = t.path().join("catalog");
    let o = olmsat(&[
        "catalog",
        "from-bundles",
        BUNDLES,
        "--output-dir",
        out.to_str().expect("utf-8"),
        "--report",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "olmsat: --report is no longer accepted: give the report format with -o json\n"
    );
    assert!(!out.exists());
}

#[test]
fn synthetic_takes_output_dir_and_refuses_o_with_a_hint() {
    let t = tempfile::tempdir().expect("temp dir");
    let out = t.path().join("syn");
    let out = out.to_str().expect("utf-8");
    let o = olmsat(&["synthetic", "-o", out, "--packages", "1", "--bundles", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        format!(
            "olmsat: -o DIR is no longer accepted: give the directory with --output-dir {out}\n"
        )
    );
    let o = olmsat(&[
        "synthetic",
        "--output-dir",
        out,
        "--packages",
        "1",
        "--bundles",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = olmsat(&["validate", out]);
    assert!(
        text(&o.stdout).contains("1 package(s), 2 bundle(s)"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn synthetic_is_hidden_from_the_main_help() {
    let help = text(&olmsat(&["--help"]).stdout);
    assert!(help.contains("validate"), "{help}");
    assert!(!help.contains("synthetic"), "{help}");
    let o = olmsat(&["synthetic", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stdout).contains("--output-dir"));
}

#[test]
fn validate_names_standard_input() {
    let catalog = std::fs::read(ETCD).expect("the example catalog");
    let mut child = Command::new(env!("CARGO_BIN_EXE_olmsat"))
        .args(["validate", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("olmsat runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&catalog)
        .expect("written");
    let o = child.wait_with_output().expect("olmsat ends");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout),
        "valid: 1 package(s), 6 bundle(s) in standard input; 0 error(s), 0 warning(s)\n"
    );
}

#[test]
fn completions_are_written_for_each_shell() {
    for (shell, marker) in [
        ("bash", "complete -F _olmsat"),
        ("zsh", "#compdef olmsat"),
        ("fish", "complete -c olmsat"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let o = olmsat(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", text(&o.stderr));
        let script = text(&o.stdout);
        assert!(script.contains(marker), "{shell}: {script}");
        assert!(script.contains("from-bundles"), "{shell}");
        assert!(script.contains("output-dir"), "{shell}");
    }
    assert_eq!(olmsat(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn the_man_page_describes_every_command() {
    let o = olmsat(&["man"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let page = text(&o.stdout);
    assert!(page.contains(".TH olmsat 1"), "{page}");
    for command in [
        "validate", "render", "path", "graph", "resolve", "simulate", "bundle",
    ] {
        assert!(page.contains(command), "{command} missing");
    }
}

/// Every command with `-o json` also has `-o yaml`: the same document.
#[test]
fn every_json_output_has_a_yaml_twin() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let catalog = format!("{root}/corpus/catalogs/etcd-example");
    let cluster = format!("{root}/corpus/clusters/etcd-upgrade.yaml");
    let t = tempfile::tempdir().expect("temp dir");
    let commands: Vec<Vec<String>> = vec![
        vec!["list".into(), "packages".into(), catalog.clone()],
        vec!["list".into(), "channels".into(), catalog.clone()],
        vec!["list".into(), "bundles".into(), catalog.clone()],
        vec!["graph".into(), catalog.clone()],
        vec![
            "path".into(),
            catalog.clone(),
            "--package".into(),
            "etcd".into(),
            "--from".into(),
            "etcdoperator.v0.9.0".into(),
        ],
        vec![
            "resolve".into(),
            "--catalog".into(),
            format!("community={catalog}"),
            "-f".into(),
            cluster.clone(),
        ],
        vec![
            "simulate".into(),
            "--catalog".into(),
            format!("community={catalog}"),
            "-f".into(),
            cluster.clone(),
        ],
        vec!["compare-olm".into(), catalog.clone()],
        vec!["validate".into(), catalog.clone()],
    ];
    for (i, args) in commands.iter().enumerate() {
        let run = |format: &str, n: usize| {
            let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
            a.extend(["-o", format]);
            let dir;
            if args[0] == "catalog" {
                dir = t.path().join(format!("out-{i}-{n}"));
                a.extend(["--output-dir", dir.to_str().unwrap()]);
            }
            olmsat(&a)
        };
        let json = run("json", 0);
        let yaml = run("yaml", 1);
        assert_eq!(json.status.code(), yaml.status.code(), "{args:?}");
        assert!(!json.stdout.is_empty(), "{args:?}: {}", text(&json.stderr));
        let from_json: serde_json::Value =
            serde_json::from_slice(&json.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        let from_yaml: serde_json::Value = serde_saphyr::from_str(&text(&yaml.stdout))
            .unwrap_or_else(|e| panic!("{args:?}: {e}\n{}", text(&yaml.stdout)));
        assert_eq!(from_json, from_yaml, "{args:?}");
    }
}

#[path = "support/corpus.rs"]
mod corpus;

/// Long work on a terminal shows a spinner on standard error, then clears it;
/// the same command in a pipe shows nothing.
#[test]
fn a_spinner_on_a_terminal_only() {
    let Some(full) =
        corpus::require_full("the terminal spinner test (needs over a second of work)")
    else {
        return;
    };
    if !corpus::require_tool("script", "the terminal spinner test") {
        return;
    }
    let bundles = full.join("bundles");
    let command = format!(
        "{} bundle validate {} > /dev/null",
        env!("CARGO_BIN_EXE_olmsat"),
        bundles.display()
    );
    // `script` gives the command a terminal and copies what it writes there.
    let o = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("script runs");
    let seen = text(&o.stdout);
    assert!(seen.contains("validating 933 bundle(s)"), "{seen:?}");
    // Cleared at the end: the last thing written erases the line.
    assert!(seen.trim_end().ends_with("\u{1b}[2K"), "{seen:?}");
    // In a pipe: nothing on standard error but the findings' absence.
    let o = olmsat(&["bundle", "validate", bundles.to_str().unwrap()]);
    assert!(
        !text(&o.stderr).contains("validating"),
        "{}",
        text(&o.stderr)
    );
}
