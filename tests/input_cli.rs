//! One input layer: every command that reads a catalog takes every kind of
//! input — a directory, a file, standard input, `git:REV:PATH` and a template
//! file — with the same answer; `--follow` opts in to links that leave a
//! directory.

#[path = "cli_common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{olmsat_in, Run};

/// The real semver template of kairos-operator and the catalog it renders to.
fn templates() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/templates/kairos-operator")
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

/// A repository with the catalog committed at `catalog/`, and the template
/// beside it (`semver.yaml`), with `bundles/` the catalog again (the
/// template's bundle source).
fn workspace() -> tempfile::TempDir {
    let t = tempfile::tempdir().expect("tempdir");
    let catalog = std::fs::read(templates().join("catalog/catalog.yaml")).expect("catalog");
    for dir in ["catalog", "bundles"] {
        std::fs::create_dir(t.path().join(dir)).unwrap();
        std::fs::write(t.path().join(dir).join("catalog.yaml"), &catalog).unwrap();
    }
    std::fs::copy(
        templates().join("semver.yaml"),
        t.path().join("semver.yaml"),
    )
    .unwrap();
    git(t.path(), &["init", "-q"]);
    git(t.path(), &["add", "catalog"]);
    git(t.path(), &["commit", "-q", "-m", "catalog"]);
    t
}

/// Every kind of input naming the same catalog: (argument, standard input).
fn kinds() -> Vec<(&'static str, String)> {
    let text = std::fs::read_to_string(templates().join("catalog/catalog.yaml")).unwrap();
    vec![
        ("catalog", String::new()),
        ("catalog/catalog.yaml", String::new()),
        ("-", text),
        ("git:HEAD:catalog", String::new()),
        ("semver.yaml", String::new()),
    ]
}

/// `text` with the line numbers after `FILE:` dropped (a template's lines
/// are not the catalog's).
fn no_lines(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("FILE:") {
        out.push_str(&rest[..i + 5]);
        rest = rest[i + 5..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

fn run(dir: &Path, args: &[&str], stdin: &str) -> Run {
    let mut all = args.to_vec();
    all.extend(["--bundles-from", "bundles"]);
    olmsat_in(dir, &all, stdin, &[])
}

#[test]
fn every_command_gives_the_same_answer_for_every_kind_of_input() {
    let t = workspace();
    let commands: Vec<Vec<&str>> = vec![
        vec!["list", "packages", "INPUT"],
        vec!["list", "bundles", "INPUT", "kairos-operator"],
        vec!["validate", "INPUT"],
        vec![
            "graph",
            "INPUT",
            "--package",
            "kairos-operator",
            "-o",
            "mermaid",
        ],
        vec![
            "path",
            "INPUT",
            "--package",
            "kairos-operator",
            "--from",
            "kairos-operator.v2.0.1",
        ],
        vec![
            "resolve",
            "--catalog",
            "community=INPUT",
            "--subscribe",
            "kairos-operator",
        ],
        vec!["compare-olm", "INPUT"],
    ];
    for command in &commands {
        let mut answers: Vec<(String, Run)> = Vec::new();
        for (input, stdin) in kinds() {
            let catalog_arg = format!("community={input}");
            let args: Vec<&str> = command
                .iter()
                .map(|a| match *a {
                    "INPUT" => input,
                    "community=INPUT" => catalog_arg.as_str(),
                    other => other,
                })
                .collect();
            let r = run(t.path(), &args, &stdin);
            assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
            answers.push((input.to_owned(), r));
        }
        let (first, want) = &answers[0];
        for (input, r) in &answers[1..] {
            // Locations name the input; the answers are the same.
            let same = |s: &str| {
                let s = s
                    .replace("HEAD:catalog/catalog.yaml", "FILE")
                    .replace(&format!("{input}/catalog.yaml"), "FILE")
                    .replace(input.as_str(), "FILE")
                    .replace("<stdin>", "FILE")
                    .replace("in standard input", "in 1 file(s)");
                no_lines(&s)
            };
            let want = same(
                &want
                    .stdout
                    .replace(&format!("{first}/catalog.yaml"), "FILE"),
            );
            let mut got = same(&r.stdout);
            if *input == "semver.yaml" {
                // Rendering a template may warn about what it wrote (no icon).
                got = got
                    .lines()
                    .filter(|l| !l.contains("warning[template-"))
                    .map(|l| format!("{l}\n"))
                    .collect::<String>()
                    .replace("0 error(s), 1 warning(s)", "0 error(s), 0 warning(s)");
            }
            assert_eq!(got, want, "{command:?}: {input} vs {first}");
        }
    }
}

#[test]
fn render_renders_a_template_with_bundles_from() {
    let t = workspace();
    let r = run(t.path(), &["render", "semver.yaml", "-o", "yaml"], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains("olm.semver"), "{}", r.stdout);
    assert!(r.stdout.contains("schema: olm.channel"), "{}", r.stdout);
    assert!(r.stdout.contains("name: kairos-operator.v2.0.1"));
}

#[test]
fn a_missing_bundle_source_is_named() {
    let t = workspace();
    let r = olmsat_in(
        t.path(),
        &[
            "render-template",
            "semver.yaml",
            "--bundles-from",
            "missing",
        ],
        "",
        &[],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("bundle source missing: no such file or directory"),
        "{}",
        r.stderr
    );
    let r = olmsat_in(
        t.path(),
        &[
            "list",
            "packages",
            "semver.yaml",
            "--bundles-from",
            "missing",
        ],
        "",
        &[],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("bundle source missing"), "{}", r.stderr);
}

#[cfg(unix)]
#[test]
fn follow_opts_in_to_links_that_leave_the_directory() {
    let t = workspace();
    let linked = t.path().join("linked");
    std::fs::create_dir(&linked).unwrap();
    std::os::unix::fs::symlink(
        t.path().join("catalog/catalog.yaml"),
        linked.join("catalog.yaml"),
    )
    .unwrap();
    let r = olmsat_in(t.path(), &["list", "packages", "linked"], "", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains("kairos-operator"), "{}", r.stdout);
    assert!(
        r.stderr.contains("symlink-outside-catalog") || r.stderr.contains("outside"),
        "{}",
        r.stderr
    );
    let r = olmsat_in(
        t.path(),
        &["list", "packages", "linked", "--follow"],
        "",
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("kairos-operator"), "{}", r.stdout);
}
