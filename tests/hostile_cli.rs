//! Hostile input, run as a user runs olmsat: links out of the directories the
//! user named, named pipes, control characters in names, endless standard
//! input, output directories with links in them. Every input is made here,
//! at run time.

mod cli_common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cli_common::Run;

/// The repository root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Run olmsat in `dir`, killed after two minutes (a hang fails the test
/// instead of stopping the run).
fn olmsat_in(dir: &Path, args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_olmsat"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run olmsat");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("olmsat {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Copy the directory tree `from` to `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("list") {
        let e = e.expect("entry");
        let dest = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy_tree(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).expect("copy");
        }
    }
}

#[cfg(unix)]
fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).expect("path");
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

/// A Secret outside the bundle, as a kubeconfig or token file would be.
const SECRET: &str = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\nstringData:\n  token: s3cr3t-TOKEN-value\n";

#[cfg(unix)]
#[test]
fn a_bundle_link_out_of_the_bundle_is_never_read_or_published() {
    let t = tempfile::tempdir().expect("dir");
    let secret = t.path().join("home/.kube/token.yaml");
    std::fs::create_dir_all(secret.parent().expect("parent")).expect("mkdir");
    std::fs::write(&secret, SECRET).expect("write");
    copy_tree(
        &root().join("corpus/bundles/registry-v1/etcd"),
        &t.path().join("tree/etcd"),
    );
    let clean = olmsat_in(t.path(), &["render", "tree/etcd"]);
    assert_eq!(clean.code, 0, "{}", clean.stderr);

    std::os::unix::fs::symlink(&secret, t.path().join("tree/etcd/manifests/zz-creds.yaml"))
        .expect("link");
    let r = olmsat_in(t.path(), &["render", "tree/etcd"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, clean.stdout, "the link's target was rendered");
    assert!(
        r.stderr.contains("warning[symlink-outside-bundle]"),
        "{}",
        r.stderr
    );

    let v = olmsat_in(t.path(), &["bundle", "validate", "tree/etcd"]);
    assert!(
        v.stdout.contains("tree/etcd/manifests/zz-creds.yaml: warning[symlink-outside-bundle]: [package \"etcd\", bundle \"etcdoperator.v0.9.4\"] skipped: symbolic link points outside the bundle ("),
        "{}{}",
        v.stdout,
        v.stderr
    );
    assert!(!v.stdout.contains("s3cr3t") && !v.stderr.contains("s3cr3t"));

    let b = olmsat_in(
        t.path(),
        &["catalog", "from-bundles", "tree", "--output-dir", "out"],
    );
    let written = std::fs::read_to_string(t.path().join("out/etcd/catalog.json"))
        .unwrap_or_else(|e| panic!("{e}: {}{}", b.stdout, b.stderr));
    assert!(written.contains("etcdoperator"), "{written}");
    // The Secret would be there base64-encoded, as an olm.bundle.object.
    assert!(!written.contains("Y3JlZHM"), "the Secret was published");
    assert!(
        b.stdout.contains("warning[symlink-outside-bundle]"),
        "{}",
        b.stdout
    );
}

#[cfg(unix)]
#[test]
fn a_link_to_a_directory_outside_a_bundle_tree_is_not_searched() {
    let t = tempfile::tempdir().expect("dir");
    copy_tree(
        &root().join("corpus/bundles/registry-v1/etcd"),
        &t.path().join("elsewhere/etcd"),
    );
    std::fs::create_dir(t.path().join("tree")).expect("mkdir");
    std::os::unix::fs::symlink(t.path().join("elsewhere"), t.path().join("tree/linked"))
        .expect("link");
    let r = olmsat_in(t.path(), &["bundle", "validate", "tree"]);
    assert!(
        r.stderr.contains("tree/linked: warning[symlink-outside-bundle]: skipped: symbolic link points outside the directory ("),
        "{}",
        r.stderr
    );
}

/// A basic template asking for one bundle image.
const TEMPLATE: &str = "schema: olm.template.basic\nentries:\n- schema: olm.package\n  name: etcd\n  defaultChannel: alpha\n- schema: olm.channel\n  package: etcd\n  name: alpha\n  entries:\n  - name: etcdoperator.v0.9.4\n- schema: olm.bundle\n  image: quay.io/x/etcd:v1\n";

#[test]
fn images_yaml_may_not_name_directories_outside_its_source() {
    let t = tempfile::tempdir().expect("dir");
    copy_tree(
        &root().join("corpus/bundles/registry-v1/etcd"),
        &t.path().join("victim/bundle"),
    );
    std::fs::create_dir(t.path().join("src")).expect("mkdir");
    std::fs::write(t.path().join("basic.yaml"), TEMPLATE).expect("write");
    let victim = t.path().join("victim/bundle");
    for (path, says) in [
        (
            "../victim/bundle",
            "\"../victim/bundle\" leaves src (through `..`)",
        ),
        (
            victim.to_str().expect("UTF-8"),
            "is an absolute path; it must be relative to src",
        ),
    ] {
        std::fs::write(
            t.path().join("src/images.yaml"),
            format!("quay.io/x/etcd:v1: {path}\n"),
        )
        .expect("write");
        let r = olmsat_in(
            t.path(),
            &["render-template", "basic.yaml", "--bundles-from", "src"],
        );
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stdout.is_empty(), "{}", r.stdout);
        assert!(
            r.stderr
                .contains("src/images.yaml: image quay.io/x/etcd:v1: "),
            "{}",
            r.stderr
        );
        assert!(r.stderr.contains(says), "{}", r.stderr);
    }
    // Inside the source, the same bundle renders.
    copy_tree(&victim, &t.path().join("src/etcd"));
    std::fs::write(
        t.path().join("src/images.yaml"),
        "quay.io/x/etcd:v1: etcd\n",
    )
    .expect("write");
    let r = olmsat_in(
        t.path(),
        &["render-template", "basic.yaml", "--bundles-from", "src"],
    );
    assert!(
        r.stdout.contains("etcdoperator.v0.9.4"),
        "{}{}",
        r.stdout,
        r.stderr
    );
}

#[cfg(unix)]
#[test]
fn named_pipes_are_skipped_not_waited_on() {
    let t = tempfile::tempdir().expect("dir");
    // In a catalog directory.
    copy_tree(
        &root().join("corpus/catalogs/etcd-example"),
        &t.path().join("catalog"),
    );
    mkfifo(&t.path().join("catalog/etcd/zz-pipe.yaml"));
    let r = olmsat_in(t.path(), &["validate", "catalog"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("catalog/etcd/zz-pipe.yaml: warning[special-file-skipped]: skipped: a named pipe, not a regular file (olmsat reads regular files only)"),
        "{}",
        r.stdout
    );
    // In a bundle's manifests.
    copy_tree(
        &root().join("corpus/bundles/registry-v1/etcd"),
        &t.path().join("bundle"),
    );
    mkfifo(&t.path().join("bundle/manifests/zz-pipe.yaml"));
    let r = olmsat_in(t.path(), &["bundle", "validate", "bundle"]);
    assert!(
        r.stdout.contains("warning[special-file-skipped]"),
        "{}",
        r.stdout
    );
    // As the images.yaml of a bundle source.
    std::fs::write(t.path().join("basic.yaml"), TEMPLATE).expect("write");
    std::fs::create_dir(t.path().join("src")).expect("mkdir");
    copy_tree(
        &root().join("corpus/bundles/registry-v1/etcd"),
        &t.path().join("src/etcd"),
    );
    mkfifo(&t.path().join("src/images.yaml"));
    let r = olmsat_in(
        t.path(),
        &["render-template", "basic.yaml", "--bundles-from", "src"],
    );
    assert_ne!(r.code, 0);
    assert!(
        !r.stdout.contains("etcdoperator.v0.9.4"),
        "{}{}",
        r.stdout,
        r.stderr
    );
    // A pipe named on the command line is the user's: read as a stream.
    let cat =
        std::fs::read(root().join("corpus/catalogs/etcd-example/etcd/catalog.yaml")).expect("read");
    let pipe = t.path().join("named-pipe");
    mkfifo(&pipe);
    let writer = {
        let pipe = pipe.clone();
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open(pipe)
                .expect("open pipe");
            let _ = f.write_all(&cat);
        })
    };
    let r = olmsat_in(t.path(), &["list", "packages", "named-pipe"]);
    writer.join().expect("writer");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("etcd"), "{}", r.stdout);
}

/// A catalog whose channel and bundle names hold terminal escapes.
const ESCAPES: &str = "{\"schema\":\"olm.package\",\"name\":\"evil\",\"defaultChannel\":\"stable\\u001b]0;pwned\\u0007\"}\n{\"schema\":\"olm.channel\",\"package\":\"evil\",\"name\":\"stable\\u001b]0;pwned\\u0007\",\"entries\":[{\"name\":\"evil.v1.0.0\\u001b[2J\"}]}\n{\"schema\":\"olm.bundle\",\"name\":\"evil.v1.0.0\\u001b[2J\",\"package\":\"evil\",\"image\":\"quay.io/x/evil:v1\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"evil\",\"version\":\"1.0.0\"}}]}\n";

#[test]
fn control_characters_in_names_never_reach_the_terminal() {
    let t = tempfile::tempdir().expect("dir");
    std::fs::write(t.path().join("evil.json"), ESCAPES).expect("write");
    let raw =
        |r: &Run| r.stdout.contains(['\u{1b}', '\u{7}']) || r.stderr.contains(['\u{1b}', '\u{7}']);

    let v = olmsat_in(t.path(), &["validate", "evil.json"]);
    assert_eq!(v.code, 0, "{}", v.stdout);
    assert!(!raw(&v), "{:?}", v.stdout);
    assert!(
        v.stdout.contains("warning[control-character-in-name]: [package \"evil\", channel \"stable\\u{1b}]0;pwned\\u{7}\"] channel name \"stable\\u{1b}]0;pwned\\u{7}\" holds control characters; they are shown escaped"),
        "{}",
        v.stdout
    );
    assert_eq!(
        v.stdout.matches("control-character-in-name").count(),
        2,
        "{}",
        v.stdout
    );

    for args in [
        &["list", "channels", "evil.json"][..],
        &["list", "bundles", "evil.json"],
        &[
            "path",
            "evil.json",
            "--package",
            "evil",
            "--from",
            "nothing\u{1b}[2J",
        ],
        &[
            "graph",
            "evil.json",
            "--package",
            "evil",
            "--channel",
            "no\u{7}such",
        ],
    ] {
        let r = olmsat_in(t.path(), args);
        assert!(!raw(&r), "{args:?}: {:?} {:?}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains("\\x1b") || r.stderr.contains("\\x1b") || r.stderr.contains("\\x07"),
            "{args:?}: {:?} {:?}",
            r.stdout,
            r.stderr
        );
    }
    // Data formats escape as JSON does.
    let j = olmsat_in(t.path(), &["list", "channels", "evil.json", "-o", "json"]);
    assert!(j.stdout.contains("\\u001b"), "{}", j.stdout);
}

#[cfg(target_os = "linux")]
#[test]
fn endless_standard_input_is_refused_within_the_limit() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_olmsat"))
        .args(["validate", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run olmsat");
    let mut input = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let block = vec![b' '; 1 << 20];
        // 1 GiB and 2 MiB: past the limit; olmsat stops reading there.
        for _ in 0..1026 {
            if input.write_all(&block).is_err() {
                break;
            }
        }
    });
    let out = child.wait_with_output().expect("output");
    writer.join().expect("writer");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("larger than the 1073741824-byte limit olmsat reads"),
        "{stderr}"
    );
    // The largest child's peak memory: the limit plus a small constant (the
    // buffer is never copied into a larger one).
    // SAFETY: getrusage fills the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) },
        0
    );
    let peak_kib = usage.ru_maxrss;
    assert!(
        peak_kib < (1 << 20) + (256 << 10),
        "peak {} MiB for a 1 GiB limit",
        peak_kib >> 10
    );
}

#[cfg(unix)]
#[test]
fn split_output_stays_in_its_directory_and_shortens_long_names() {
    let t = tempfile::tempdir().expect("dir");
    let long = "p".repeat(60);
    // A package name of 300 characters is not a DNS label (an error), but
    // the graph can still be drawn per package.
    let name = format!("{long}{long}{long}{long}{long}");
    let cat =
        std::fs::read_to_string(root().join("corpus/catalogs/etcd-example/etcd/catalog.yaml"))
            .expect("read")
            .replace("etcd", &name);
    std::fs::write(t.path().join("catalog.yaml"), cat).expect("write");
    let victim = t.path().join("precious.txt");
    std::fs::write(&victim, "keep").expect("write");
    std::fs::create_dir(t.path().join("out")).expect("mkdir");
    std::os::unix::fs::symlink(&victim, t.path().join("out/index.md")).expect("link");
    let r = olmsat_in(
        t.path(),
        &["graph", "catalog.yaml", "-o", "dot", "--split", "out"],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(std::fs::read_to_string(&victim).expect("read"), "keep");
    let index = std::fs::read_to_string(t.path().join("out/index.md")).expect("index");
    let mut names: Vec<String> = std::fs::read_dir(t.path().join("out"))
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.iter().all(|n| n.len() <= 200), "{names:?}");
    assert!(index.contains(&names[1]), "{index}");
    // The same input gives the same names.
    let again = olmsat_in(
        t.path(),
        &["graph", "catalog.yaml", "-o", "dot", "--split", "out"],
    );
    assert_eq!(again.stdout, r.stdout);
}
