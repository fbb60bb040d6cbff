//! Running the `olmsat` binary in tests.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[path = "../support/corpus.rs"]
pub(crate) mod support;

/// The real catalogs the repository carries (`corpus/real/fbc`): the CLI tests run
/// from there, naming catalogs by their path in the corpus.
pub(crate) fn corpus() -> PathBuf {
    support::own().join("fbc")
}

/// What a run printed and how it exited.
pub(crate) struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Run `olmsat args...` from directory `dir` (relative paths in `args` are
/// relative to it, and so are the file names it prints), with `stdin` as input.
pub(crate) fn olmsat_in(dir: &Path, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_olmsat"));
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => panic!("running olmsat: {e}"),
    };
    if let Some(mut input) = child.stdin.take() {
        match input.write_all(stdin.as_bytes()) {
            // A command that stops before reading its input (a usage error)
            // may close it first.
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                panic!("writing stdin: {e}")
            }
            _ => {}
        }
    }
    let out = match child.wait_with_output() {
        Ok(o) => o,
        Err(e) => panic!("running olmsat: {e}"),
    };
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Run `olmsat args...` from the corpus directory.
pub(crate) fn olmsat(args: &[&str]) -> Run {
    olmsat_in(&corpus(), args, "", &[])
}

/// A small catalog for standard input: package `p` with channel `stable`
/// holding `entries` (JSON objects), and a bundle per `(name, version)`.
pub(crate) fn catalog(entries: &[&str], bundles: &[(&str, &str)]) -> String {
    let mut text =
        String::from("{\"schema\":\"olm.package\",\"name\":\"p\",\"defaultChannel\":\"stable\"}\n");
    text.push_str(&format!(
        "{{\"schema\":\"olm.channel\",\"package\":\"p\",\"name\":\"stable\",\"entries\":[{}]}}\n",
        entries.join(",")
    ));
    for (n, v) in bundles {
        text.push_str(&format!(
            "{{\"schema\":\"olm.bundle\",\"package\":\"p\",\"name\":\"{n}\",\"image\":\"\",\"properties\":[{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"p\",\"version\":\"{v}\"}}}}]}}\n"
        ));
    }
    text
}
