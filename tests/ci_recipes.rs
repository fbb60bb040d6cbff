//! The ways users run olmsat outside a terminal, run as they run them: the CI
//! recipes of docs/ci/ (each `olmsat` command of the GitHub Actions workflow
//! and of the GitLab CI jobs, with the variables those systems set) and the
//! pre-commit hooks of .pre-commit-hooks.yaml (through `pre-commit try-repo`),
//! on a Git repository of a catalog made here: a catalog from corpus/
//! committed on `main`, then a change to it — a harmless one, which every
//! step passes, and one that strands users, which the diff steps stop.

mod cli_common;

use std::path::{Path, PathBuf};
use std::process::Command;

use cli_common::support;
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `PATH` with the built `olmsat` first, as an installed one would be.
fn path_with_olmsat() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_olmsat"))
        .parent()
        .expect("the binary's directory")
        .to_owned();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// Run `git` in `dir` (the test repository; olmsat reads repositories itself).
fn git(dir: &Path, args: &[&str]) -> String {
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
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// The example catalog of corpus/ as YAML documents.
fn documents() -> Vec<String> {
    let text =
        std::fs::read_to_string(root().join("corpus/catalogs/etcd-example/etcd/catalog.yaml"))
            .expect("the example catalog");
    text.split("---\n")
        .filter(|d| !d.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

fn join(documents: &[String]) -> String {
    documents
        .iter()
        .map(|d| format!("---\n{d}"))
        .collect::<String>()
}

/// What the pull request does to the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    /// A new package description: nobody's upgrade path changes.
    Harmless,
    /// The `alpha` channel and its first bundle removed: its users have no way on.
    Strands,
}

/// A repository whose `main` has the example catalog in `catalogs/`, cloned
/// (so that `origin/main` is the base, as in a CI checkout), with the change
/// committed in the clone on a branch. Returns (the temporary directory, the
/// clone, the base commit).
fn repository(change: Change) -> (tempfile::TempDir, PathBuf, String) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let origin = dir.path().join("origin");
    std::fs::create_dir_all(origin.join("catalogs/etcd")).expect("made");
    git(&origin, &["init", "-q", "-b", "main"]);
    let docs = documents();
    std::fs::write(origin.join("catalogs/etcd/catalog.yaml"), join(&docs)).expect("written");
    std::fs::copy(
        root().join("corpus/catalogs/etcd-example/etcd-backup/catalog.json"),
        {
            std::fs::create_dir_all(origin.join("catalogs/etcd-backup")).expect("made");
            origin.join("catalogs/etcd-backup/catalog.json")
        },
    )
    .expect("copied");
    git(&origin, &["add", "-A"]);
    git(&origin, &["commit", "-q", "-m", "the catalog"]);
    let base = git(&origin, &["rev-parse", "HEAD"]);
    let clone = dir.path().join("clone");
    git(
        dir.path(),
        &["clone", "-q", origin.to_str().expect("UTF-8"), "clone"],
    );
    git(&clone, &["checkout", "-q", "-b", "change"]);
    write_change(&clone, change);
    git(&clone, &["commit", "-q", "-am", "the change"]);
    (dir, clone, base)
}

/// Make `change` to the catalog in `repo`'s work tree.
fn write_change(repo: &Path, change: Change) {
    let docs: Vec<String> = match change {
        Change::Harmless => documents()
            .into_iter()
            .map(|d| {
                d.replace(
                    "description: Create and maintain highly-available etcd clusters on Kubernetes.",
                    "description: Highly-available etcd clusters on Kubernetes.",
                )
            })
            .collect(),
        Change::Strands => documents()
            .into_iter()
            .filter(|d| !d.contains("name: alpha\n") && !d.contains("name: etcdoperator.v0.6.1\n"))
            .collect(),
    };
    std::fs::write(repo.join("catalogs/etcd/catalog.yaml"), join(&docs)).expect("written");
}

/// A CI file's YAML as data.
fn yaml(path: &str) -> Value {
    let text = std::fs::read_to_string(root().join(path)).expect("the file");
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A YAML scalar as the text a CI system puts in the environment.
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Whether a shell script runs olmsat (a line starting with `olmsat `).
fn runs_olmsat(script: &str) -> bool {
    script
        .lines()
        .any(|l| l.trim_start().starts_with("olmsat "))
}

/// The one way the recipes install olmsat: cargo, from Git, with the
/// lock file, the package that builds the `olmsat` binary.
fn assert_install_line(line: &str) {
    assert!(line.starts_with("cargo install --locked --git "), "{line}");
    assert!(line.ends_with(" olmsat"), "{line}");
    let manifest = std::fs::read_to_string(root().join("cli/Cargo.toml")).expect("cli/Cargo.toml");
    assert!(manifest.starts_with("[package]\nname = \"olmsat\"\n"));
    assert!(manifest.contains("[[bin]]\nname = \"olmsat\"\n"));
    assert!(
        root().join("Cargo.lock").is_file(),
        "--locked needs the lock file"
    );
}

/// What a step printed and how it exited.
struct Ran {
    name: String,
    code: i32,
    stdout: String,
    stderr: String,
}

/// Run `script` with `bash -e` (as both CI systems run a step) in `dir`, with
/// `env` and olmsat on PATH.
fn run_script(name: &str, script: &str, dir: &Path, env: &[(String, String)]) -> Ran {
    let out = Command::new("bash")
        .arg("-e")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .env("PATH", path_with_olmsat())
        .output()
        .expect("bash runs");
    Ran {
        name: name.to_owned(),
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Whether git and bash are here to build the repository and run the steps.
fn tools() -> bool {
    support::require_tool("git", "the CI recipes' test repository")
        && Command::new("bash").arg("-c").arg("true").status().is_ok()
}

/// The olmsat steps of the GitHub Actions workflow, run in order as the job
/// runs them on a pull request (every olmsat step is `!cancelled()`, so a
/// failing one does not stop the next).
fn github_steps(change: Change) -> (tempfile::TempDir, PathBuf, Vec<Ran>) {
    let workflow = yaml("docs/ci/github-actions.yml");
    let (dir, repo, _) = repository(change);
    let env: Vec<(String, String)> = vec![
        ("GITHUB_BASE_REF".into(), "main".into()),
        ("GITHUB_EVENT_NAME".into(), "pull_request".into()),
    ];
    let jobs = workflow["jobs"].as_object().expect("jobs");
    assert_eq!(jobs.len(), 1, "one job");
    let job = jobs.values().next().expect("the job");
    let mut scopes = vec![&workflow["env"], &job["env"]];
    let mut runs = Vec::new();
    let mut installs = 0;
    let mut uploads = Vec::new();
    for step in job["steps"].as_array().expect("steps") {
        scopes.truncate(2);
        scopes.push(&step["env"]);
        let mut step_env = env.clone();
        for scope in &scopes {
            for (k, v) in scope.as_object().into_iter().flatten() {
                let v = scalar(v);
                // Expressions (`${{ vars.OLMSAT_GIT }}`) are the install's business.
                if !v.contains("${{") {
                    step_env.push((k.clone(), v));
                }
            }
        }
        if let Some(uses) = step["uses"].as_str() {
            if uses.starts_with("github/codeql-action/upload-sarif@") {
                uploads.push(scalar(&step["with"]["sarif_file"]));
            }
            continue;
        }
        let script = step["run"].as_str().expect("a run step");
        if script.contains("cargo install") {
            assert_install_line(script.trim());
            installs += 1;
            continue;
        }
        if !runs_olmsat(script) {
            continue;
        }
        assert!(
            !script.contains("${{"),
            "olmsat steps read the environment, not expressions: {script}"
        );
        let name = step["name"].as_str().unwrap_or(script);
        runs.push(run_script(name, script, &repo, &step_env));
    }
    assert_eq!(installs, 1);
    assert_eq!(runs.len(), 4, "validate and diff, each twice");
    // Every SARIF log uploaded was written, and is one.
    assert_eq!(uploads, ["validate.sarif", "diff.sarif"]);
    for file in &uploads {
        let log: Value = serde_json::from_str(
            &std::fs::read_to_string(repo.join(file)).unwrap_or_else(|e| panic!("{file}: {e}")),
        )
        .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(log["version"], "2.1.0", "{file}");
    }
    (dir, repo, runs)
}

fn show(runs: &[Ran]) -> String {
    runs.iter()
        .map(|r| format!("{} -> {}\n{}{}\n", r.name, r.code, r.stdout, r.stderr))
        .collect()
}

#[test]
fn github_actions_passes_a_harmless_pull_request() {
    if !tools() {
        return;
    }
    let (_dir, _repo, runs) = github_steps(Change::Harmless);
    assert!(runs.iter().all(|r| r.code == 0), "{}", show(&runs));
    // The diff saw the change, and found nothing wrong with it.
    let diff: Value = serde_json::from_str(
        &std::fs::read_to_string(_repo.join("diff.sarif")).expect("diff.sarif"),
    )
    .expect("SARIF");
    assert_eq!(diff["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn github_actions_stops_a_pull_request_that_strands_users() {
    if !tools() {
        return;
    }
    let (_dir, repo, runs) = github_steps(Change::Strands);
    let codes: Vec<i32> = runs.iter().map(|r| r.code).collect();
    // The catalog is still valid; the diff's gate fails, its SARIF step does not.
    assert_eq!(codes, [0, 0, 1, 0], "{}", show(&runs));
    assert!(
        runs[2].stdout.lines().any(
            |l| l.starts_with("::error file=catalogs/etcd/catalog.yaml,")
                && l.contains("channel-removed")
        ),
        "{}",
        runs[2].stdout
    );
    let diff: Value = serde_json::from_str(
        &std::fs::read_to_string(repo.join("diff.sarif")).expect("diff.sarif"),
    )
    .expect("SARIF");
    let rules: Vec<&str> = diff["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter_map(|r| r["ruleId"].as_str())
        .collect();
    assert!(rules.contains(&"channel-removed"), "{rules:?}");
}

/// The GitLab CI jobs (hidden jobs are templates), each with its `extends`
/// applied as GitLab applies it: maps merged, everything else replaced.
fn gitlab_jobs() -> (Value, Vec<(String, Value)>) {
    let file = yaml("docs/ci/gitlab-ci.yml");
    let reserved = ["variables", "stages", "default", "include", "workflow"];
    let mut jobs = Vec::new();
    for (name, job) in file.as_object().expect("a map") {
        if name.starts_with('.') || reserved.contains(&name.as_str()) {
            continue;
        }
        let mut merged = match job["extends"].as_str() {
            Some(t) => file[t].clone(),
            None => Value::Object(Default::default()),
        };
        merge(&mut merged, job);
        jobs.push((name.clone(), merged));
    }
    (file["variables"].clone(), jobs)
}

fn merge(into: &mut Value, from: &Value) {
    match (into, from) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                match a.get_mut(k) {
                    Some(x) if x.is_object() && v.is_object() => merge(x, v),
                    _ => {
                        a.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (a, b) => *a = b.clone(),
    }
}

/// Each GitLab job of a merge request pipeline, run as the runner runs it:
/// `before_script` and `script` in one shell, variables set, the install line
/// checked rather than run.
fn gitlab_jobs_run(change: Change) -> (tempfile::TempDir, PathBuf, Vec<Ran>) {
    let (globals, jobs) = gitlab_jobs();
    let (dir, repo, base) = repository(change);
    let predefined: Vec<(String, String)> = vec![
        ("CI_PROJECT_DIR".into(), repo.display().to_string()),
        ("CI_PIPELINE_SOURCE".into(), "merge_request_event".into()),
        ("CI_MERGE_REQUEST_DIFF_BASE_SHA".into(), base),
        ("CI_MERGE_REQUEST_TARGET_BRANCH_NAME".into(), "main".into()),
    ];
    let mut runs = Vec::new();
    let mut installs = 0;
    for (name, job) in &jobs {
        let mut script = String::new();
        for scope in [&globals, &job["variables"]] {
            for (k, v) in scope.as_object().into_iter().flatten() {
                // GitLab expands variables in variables.
                script.push_str(&format!("export {k}=\"{}\"\n", scalar(v)));
            }
        }
        let lines = job["before_script"]
            .as_array()
            .into_iter()
            .flatten()
            .chain(job["script"].as_array().expect("a script"));
        for line in lines {
            let line = line.as_str().expect("a command line");
            if line.contains("cargo install") {
                assert_install_line(line);
                installs += 1;
                continue;
            }
            script.push_str(line);
            script.push('\n');
        }
        assert!(runs_olmsat(&script), "{name} runs olmsat");
        runs.push(run_script(name, &script, &repo, &predefined));
        for artifact in job["artifacts"]["paths"].as_array().into_iter().flatten() {
            let file = artifact.as_str().expect("a path");
            assert!(repo.join(file).is_file(), "{name} keeps {file}");
        }
    }
    assert_eq!(installs, jobs.len(), "each job installs olmsat");
    (dir, repo, runs)
}

#[test]
fn gitlab_ci_passes_a_harmless_merge_request() {
    if !tools() {
        return;
    }
    let (_dir, _repo, runs) = gitlab_jobs_run(Change::Harmless);
    // (Jobs in the order of their names.)
    let names: Vec<&str> = runs.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["olmsat-diff", "olmsat-validate"]);
    assert!(runs.iter().all(|r| r.code == 0), "{}", show(&runs));
}

#[test]
fn gitlab_ci_stops_a_merge_request_that_strands_users() {
    if !tools() {
        return;
    }
    let (_dir, repo, runs) = gitlab_jobs_run(Change::Strands);
    let codes: Vec<i32> = runs.iter().map(|r| r.code).collect();
    // olmsat-diff fails, olmsat-validate passes.
    assert_eq!(codes, [1, 0], "{}", show(&runs));
    assert!(
        runs[0]
            .stdout
            .lines()
            .any(|l| l.starts_with("catalogs/etcd/catalog.yaml:") && l.contains("channel-removed")),
        "{}",
        runs[0].stdout
    );
    let sarif = std::fs::read_to_string(repo.join("diff.sarif")).expect("diff.sarif");
    assert!(sarif.contains("\"ruleId\": \"channel-removed\""), "{sarif}");
}

/// docs/ci.md shows the recipes as they are in docs/ci/.
#[test]
fn ci_md_shows_the_recipe_files() {
    let doc = std::fs::read_to_string(root().join("docs/ci.md")).expect("docs/ci.md");
    for file in ["docs/ci/github-actions.yml", "docs/ci/gitlab-ci.yml"] {
        let text = std::fs::read_to_string(root().join(file)).expect("the recipe");
        assert!(
            doc.contains(&format!("```yaml\n{text}```\n")),
            "docs/ci.md does not show {file} as it is"
        );
    }
}

/// Run `pre-commit try-repo` of this repository's hooks in `repo`.
fn try_repo(repo: &Path, hook: &str, home: &Path) -> Ran {
    let out = Command::new("pre-commit")
        .args([
            "try-repo",
            root().to_str().expect("UTF-8"),
            hook,
            "--all-files",
        ])
        .current_dir(repo)
        .env("PATH", path_with_olmsat())
        .env("PRE_COMMIT_HOME", home)
        .env("PRE_COMMIT_COLOR", "never")
        // try-repo commits uncommitted hooks to a copy of this repository.
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("pre-commit runs");
    Ran {
        name: hook.to_owned(),
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The hooks, on a catalog repository: a valid catalog passes validation, a
/// broken one fails it; a staged change that strands users fails the diff
/// against HEAD, a harmless one passes.
#[test]
fn pre_commit_hooks() {
    if !tools() || !support::require_tool("pre-commit", "the pre-commit hooks' test") {
        return;
    }
    let (dir, repo, _) = repository(Change::Harmless);
    let home = dir.path().join("pre-commit-home");
    let show_one = |r: &Ran| format!("{}\n{}", r.stdout, r.stderr);

    let valid = try_repo(&repo, "olmsat-validate", &home);
    assert_eq!(valid.code, 0, "{}", show_one(&valid));
    assert!(
        valid.stdout.contains("olmsat validate"),
        "{}",
        show_one(&valid)
    );
    let harmless = try_repo(&repo, "olmsat-diff", &home);
    assert_eq!(harmless.code, 0, "{}", show_one(&harmless));

    // Staged: a channel removed with its users.
    write_change(&repo, Change::Strands);
    git(&repo, &["add", "-A"]);
    let strands = try_repo(&repo, "olmsat-diff", &home);
    assert_eq!(strands.code, 1, "{}", show_one(&strands));
    assert!(
        strands.stdout.contains("channel-removed"),
        "{}",
        show_one(&strands)
    );

    // Staged: a catalog opm would refuse (two heads in a channel).
    let broken = documents()
        .into_iter()
        .map(|d| {
            d.replace(
                "- name: etcdoperator.v0.9.5\n  replaces: etcdoperator.v0.9.4\n",
                "- name: etcdoperator.v0.9.5\n",
            )
        })
        .collect::<Vec<_>>();
    std::fs::write(repo.join("catalogs/etcd/catalog.yaml"), join(&broken)).expect("written");
    git(&repo, &["add", "-A"]);
    let invalid = try_repo(&repo, "olmsat-validate", &home);
    assert_eq!(invalid.code, 1, "{}", show_one(&invalid));
    assert!(
        invalid.stdout.contains("error[multiple-heads]"),
        "{}",
        show_one(&invalid)
    );
}
