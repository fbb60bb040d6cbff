//! The `validate`, `render` and `list` commands, run as a user runs them.

mod common;

use common::{olmsat, olmsat_stdin, stderr, stdout};

#[test]
fn example_catalog_is_valid() {
    let o = olmsat(&["validate", "corpus/catalogs/etcd-example"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(
        stdout(&o),
        "valid: 2 package(s), 8 bundle(s) in 2 file(s); 0 error(s), 0 warning(s)\n"
    );
}

#[test]
fn timings_give_wall_processor_time_and_peak_memory_per_phase() {
    let o = olmsat(&["validate", "corpus/catalogs/etcd-example", "--timings"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    let phases: Vec<&str> = err
        .lines()
        .filter_map(|l| l.strip_prefix("timing: "))
        .map(|l| l.split_whitespace().next().unwrap_or_default())
        .collect();
    assert_eq!(phases, ["read+parse", "validate", "total"], "{err}");
    for line in err.lines().filter(|l| l.starts_with("timing: ")) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        // timing: <phase> <wall> ms cpu <cpu> ms peak <memory> MB
        assert_eq!(fields.len(), 10, "{line}");
        for number in [fields[2], fields[5], fields[8]] {
            assert!(number.parse::<f64>().is_ok(), "{line}");
        }
        assert_eq!(
            (fields[3], fields[4], fields[6], fields[7], fields[9]),
            ("ms", "cpu", "ms", "peak", "MB"),
            "{line}"
        );
        let peak: f64 = fields[8].parse().unwrap_or_default();
        assert!(peak > 0.0, "{line}");
    }
}

#[test]
fn invalid_examples_report_every_error_as_json() {
    for case in [
        "bundles.yaml",
        "graph-shape.yaml",
        "packages.yaml",
        "syntax.yaml",
        "top-level-array.json",
    ] {
        let path = format!("corpus/catalogs/invalid/{case}");
        let o = olmsat(&["validate", &path, "-o", "json"]);
        assert_eq!(o.status.code(), Some(1), "{case}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        assert_eq!(v["passed"], false);
        insta::assert_snapshot!(case.replace('.', "_"), stdout(&o));
    }
}

#[test]
fn invalid_examples_as_text() {
    let o = olmsat(&["validate", "corpus/catalogs/invalid/graph-shape.yaml"]);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!(stdout(&o));
}

#[test]
fn output_is_deterministic() {
    let a = olmsat(&["validate", "-o", "json", "corpus/catalogs/invalid"]);
    let b = olmsat(&["validate", "-o", "json", "corpus/catalogs/invalid"]);
    assert_eq!(a.stdout, b.stdout);
    let a = olmsat(&["render", "corpus/catalogs/etcd-example", "-o", "yaml"]);
    let b = olmsat(&["render", "corpus/catalogs/etcd-example", "-o", "yaml"]);
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn usage_and_unreadable_input_exit_2() {
    let o = olmsat(&["validate"]);
    assert_eq!(o.status.code(), Some(2));
    let o = olmsat(&["validate", "no/such/dir"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no/such/dir"), "{}", stderr(&o));
    let o = olmsat(&["render", "corpus", "-o", "toml"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn stdin_is_a_catalog() {
    let text =
        std::fs::read(common::root().join("corpus/catalogs/etcd-example/etcd-backup/catalog.json"))
            .expect("read");
    let o = olmsat_stdin(&["validate", "-"], &text);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = olmsat_stdin(
        &["validate", "-o", "json", "-"],
        b"schema: olm.package\nname: x\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["errors"][0]["file"], "<stdin>");
    assert_eq!(v["errors"][0]["message"], "default channel must be set");
}

#[test]
fn render_json_matches_opm_layout() {
    let o = olmsat(&["render", "corpus/catalogs/etcd-example/etcd-backup"]);
    assert_eq!(o.status.code(), Some(0));
    insta::assert_snapshot!(stdout(&o));
}

#[test]
fn render_refuses_broken_input() {
    let o = olmsat(&["render", "corpus/catalogs/invalid/syntax.yaml"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert!(
        stderr(&o).contains("syntax.yaml:11:4: error[parse-error]: error converting YAML to JSON: yaml: line 5: did not find expected '-' indicator"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn list_commands() {
    let o = olmsat(&["list", "packages", "corpus/catalogs/etcd-example"]);
    assert_eq!(o.status.code(), Some(0));
    insta::assert_snapshot!("list_packages", stdout(&o));
    let o = olmsat(&["list", "channels", "corpus/catalogs/etcd-example"]);
    insta::assert_snapshot!("list_channels", stdout(&o));
    let o = olmsat(&["list", "bundles", "corpus/catalogs/etcd-example", "etcd"]);
    insta::assert_snapshot!("list_bundles", stdout(&o));
    let o = olmsat(&[
        "list",
        "channels",
        "corpus/catalogs/invalid/graph-shape.yaml",
        "-o",
        "json",
    ]);
    insta::assert_snapshot!("list_channels_errors_json", stdout(&o));
    let o = olmsat(&["list", "bundles", "corpus/catalogs/etcd-example", "nope"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("unknown package \"nope\""),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_reader_that_leaves_early_ends_the_command_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    // Rendering a large real catalog into a pipe whose reader stops after a few
    // bytes (as `olmsat render ... | head` does): no panic, no error message.
    let Some(corpus) =
        common::support::require_full("a_reader_that_leaves_early_ends_the_command_quietly")
    else {
        return;
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let catalog = corpus.join("fbc/community-operators-prod/catalogs/v4.20");
    let catalog = catalog.to_str().expect("a UTF-8 corpus path");
    for args in [["render", catalog], ["list", "bundles"]] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_olmsat"));
        cmd.args(args).current_dir(&root);
        if args[0] == "list" {
            cmd.arg(catalog);
        }
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("olmsat runs");
        let mut head = [0u8; 16];
        child
            .stdout
            .take()
            .expect("stdout")
            .read_exact(&mut head)
            .expect("some output");
        let out = child.wait_with_output().expect("olmsat ends");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.is_empty(), "{args:?}: {err}");
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            assert_eq!(out.status.signal(), Some(13), "{args:?}: ended by SIGPIPE");
        }
    }
}

#[test]
fn a_file_over_the_size_limit_exits_1_with_its_name_and_the_limit() {
    let d = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        d.path().join("catalog.yaml"),
        "schema: olm.package\nname: p\ndefaultChannel: c\n",
    )
    .expect("write");
    // Sparse: costs no disk space, and olmsat must not read it.
    let f = std::fs::File::create(d.path().join("huge.json")).expect("create");
    f.set_len(olmsat_catalog::load::MAX_FILE_BYTES + 1)
        .expect("set_len");
    drop(f);
    let dir = d.path().to_string_lossy().into_owned();
    let o = olmsat(&["validate", &dir]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains("huge.json: error[file-too-large]: file is 1073741825 bytes, larger than the 1073741824-byte limit olmsat reads"),
        "{out}"
    );
}
