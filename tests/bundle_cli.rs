//! The bundle commands as a user runs them: exit codes, output shapes and files
//! written.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn olmsat(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_olmsat"))
        .args(args)
        .output()
        .unwrap()
}

fn olmsat_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_olmsat"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/bundles")
}

fn fixture(rel: &str) -> String {
    fixtures().join(rel).display().to_string()
}

#[path = "support/corpus.rs"]
mod support;

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dst = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dst);
        } else {
            fs::copy(e.path(), dst).unwrap();
        }
    }
}

const CSV: &str = "manifests/etcdoperator.v0.9.4.clusterserviceversion.yaml";

/// A copy of the etcd fixture at `dir`, with CSV text replacements applied.
fn etcd_copy(dir: &Path, replace: &[(&str, &str)]) {
    copy_dir(&fixtures().join("registry-v1/etcd"), dir);
    let mut text = fs::read_to_string(dir.join(CSV)).unwrap();
    for (a, b) in replace {
        assert!(text.contains(a), "{a}");
        text = text.replace(a, b);
    }
    fs::write(dir.join(CSV), text).unwrap();
}

#[test]
fn validate_valid_bundles_and_trees() {
    let o = olmsat(&["bundle", "validate", &fixture("registry-v1/etcd")]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("valid: 1 bundle(s), 1 valid, 0 invalid"));
    assert!(stdout(&o).contains(
        "registry+v1 (from annotation operators.operatorframework.io.bundle.mediatype.v1"
    ));
    // A directory of bundles is searched.
    let o = olmsat(&["bundle", "validate", &fixtures().display().to_string()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains("valid: 3 bundle(s), 3 valid, 0 invalid"),
        "{out}"
    );
    assert!(out.contains("plain+v0 (from the layout"));
    assert!(out.contains("registry+v2"));
}

#[test]
fn validate_json_shape_and_exit_codes() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("b");
    etcd_copy(&dir, &[]);
    fs::remove_file(dir.join("manifests/etcdclusters.crd.yaml")).unwrap();
    let o = olmsat(&["bundle", "validate", "-o", "json", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["passed"], false);
    let e = &v["errors"][0];
    assert_eq!(
        e["message"],
        "owned CRD etcdclusters.etcd.database.coreos.com/v1beta2, Kind=EtcdCluster not found in bundle \"etcdoperator.v0.9.4\""
    );
    assert_eq!(e["file"], dir.join(CSV).display().to_string());
    assert_eq!(e["line"], 25);
    assert_eq!(e["package"], "etcd");
    assert_eq!(e["bundle"], "etcdoperator.v0.9.4");
    assert_eq!(v["warnings"], serde_json::json!([]));
    let b = &v["bundles"][0];
    assert_eq!(b["mediatype"], "registry+v1");
    assert_eq!(b["passed"], false);
    assert!(b["detectedFrom"]
        .as_str()
        .unwrap()
        .starts_with("annotation "));

    let o = olmsat(&["bundle", "validate", "/nonexistent/bundle"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/bundle"));
}

#[test]
fn validate_reports_invalid_yaml_with_line_and_column() {
    let Some(dir) = support::need(
        "bundles/community-operators-prod/eventing-kogito/1.1.0",
        "validate_reports_invalid_yaml_with_line_and_column",
    ) else {
        return;
    };
    let o = olmsat(&["bundle", "validate", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let want = format!(
        "{}:22:12: error[parse-error]: [package \"eventing-kogito\", bundle \"eventing-kogito.v1.1.0\"] invalid YAML: mapping values are not allowed in this context",
        dir.join("metadata/dependencies.yaml").display()
    );
    assert!(stdout(&o).contains(&want), "{}", stdout(&o));
    let o = olmsat(&["bundle", "validate", "-o", "json", dir.to_str().unwrap()]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["errors"][0]["line"], 22);
    assert_eq!(v["errors"][0]["column"], 12);
}

#[test]
fn render_bundle_and_catalog_together() {
    let t = tempfile::tempdir().unwrap();
    let fbc = t.path().join("etcd.yaml");
    fs::write(
        &fbc,
        "schema: olm.package\nname: etcd\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: etcd\nname: stable\nentries:\n- name: etcdoperator.v0.9.4\n",
    )
    .unwrap();
    let o = olmsat(&[
        "render",
        &fixture("registry-v1/etcd"),
        fbc.to_str().unwrap(),
        "--image-ref-template",
        "quay.io/example/{{.Package}}:v{{.Version}}",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let docs: Vec<Value> = serde_json::Deserializer::from_str(&out)
        .into_iter::<Value>()
        .map(Result::unwrap)
        .collect();
    let schemas: Vec<&str> = docs.iter().map(|d| d["schema"].as_str().unwrap()).collect();
    assert_eq!(schemas, ["olm.package", "olm.channel", "olm.bundle"]);
    assert_eq!(docs[2]["image"], "quay.io/example/etcd:v0.9.4");
    // The rendered catalog is valid.
    let cat = t.path().join("catalog.json");
    fs::write(&cat, &out).unwrap();
    let o = olmsat(&["validate", cat.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));

    // csv metadata instead of bundle objects, YAML output.
    let o = olmsat(&[
        "render",
        &fixture("registry-v1/etcd"),
        "--migrate-level",
        "bundle-object-to-csv-metadata",
        "-o",
        "yaml",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.contains("type: olm.csv.metadata"));
    assert!(!out.contains("olm.bundle.object"));

    // Errors: a bundle without a CSV, a bad template.
    let dir = t.path().join("nocsv");
    etcd_copy(&dir, &[]);
    fs::remove_file(dir.join(CSV)).unwrap();
    let o = olmsat(&["render", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no csv in bundle"));
    let o = olmsat(&[
        "render",
        &fixture("registry-v1/etcd"),
        "--image-ref-template",
        "{{.Tag}}",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown field \".Tag\""));
}

#[test]
fn generate_writes_annotations_and_dockerfile() {
    let t = tempfile::tempdir().unwrap();
    let m = t.path().join("manifests");
    copy_dir(&fixtures().join("registry-v1/etcd/manifests"), &m);
    let args = |channels: &str, overwrite: bool| {
        let mut a = vec![
            "bundle".to_owned(),
            "generate".into(),
            "--directory".into(),
            m.display().to_string(),
            "--package".into(),
            "etcd".into(),
            "--channels".into(),
            channels.into(),
        ];
        if overwrite {
            a.push("--overwrite".into());
        }
        a
    };
    let run = |a: Vec<String>| olmsat(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let o = run(args("alpha,stable", false));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ann = fs::read_to_string(t.path().join("metadata/annotations.yaml")).unwrap();
    assert!(ann.contains("operators.operatorframework.io.bundle.channel.default.v1: alpha"));
    assert!(ann.contains("operators.operatorframework.io.bundle.mediatype.v1: registry+v1"));
    let df = fs::read_to_string(t.path().join("bundle.Dockerfile")).unwrap();
    assert!(df.contains("LABEL operators.operatorframework.io.bundle.package.v1=etcd\n"));
    assert!(df.contains("COPY manifests /manifests/\n"));
    // The result validates.
    let o = olmsat(&["bundle", "validate", t.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // Refuses to replace other annotations, unless told to.
    let o = run(args("beta", false));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("already exists; refusing to overwrite it"));
    let o = run(args("beta", true));
    assert_eq!(o.status.code(), Some(0));
    let ann = fs::read_to_string(t.path().join("metadata/annotations.yaml")).unwrap();
    assert!(ann.contains("channels.v1: beta"));
}

#[test]
fn init_lays_out_bundles_and_never_overwrites() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("kiali-bundle");
    let o = olmsat(&[
        "bundle",
        "init",
        dir.to_str().unwrap(),
        "--from",
        &fixture("registry-v2/kiali/manifests"),
        "-d",
        "--package",
        "kiali",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o)
        .contains("initialised a registry+v2 bundle (format inferred from the manifests)"));
    for f in [
        "manifests/crds.yaml",
        "manifests/deployment.yaml",
        "metadata/bundle.yaml",
        "metadata/annotations.yaml",
        "metadata/dependencies.yaml",
        "Dockerfile",
    ] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    let o = olmsat(&["bundle", "validate", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // A second init would overwrite: refused, nothing changed.
    let o = olmsat(&[
        "bundle",
        "init",
        dir.to_str().unwrap(),
        "--from",
        &fixture("registry-v2/kiali/manifests"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("never overwrites"));

    // Defaults, with the media type given.
    let d2 = t.path().join("defaults");
    let empty = t.path().join("empty");
    fs::create_dir_all(&empty).unwrap();
    let o = olmsat(&[
        "bundle",
        "init",
        "--mediatype",
        "registry+v1",
        "--package",
        "demo",
        d2.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(d2.join("manifests/csv.yaml").is_file());
    let o = olmsat(&["bundle", "validate", d2.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));

    // No manifests and no media type: nothing to infer from.
    let d3 = t.path().join("none");
    let o = olmsat(&["bundle", "init", d3.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unable to infer mediatype when no manifests are present"));
    // An empty --from directory is the same as none.
    let o = olmsat(&[
        "bundle",
        "init",
        d3.to_str().unwrap(),
        "--from",
        empty.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unable to infer mediatype when no manifests are present"));
    // The old two-argument form is refused with the new spelling.
    let o = olmsat(&[
        "bundle",
        "init",
        empty.to_str().unwrap(),
        d3.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&format!(
            "bundle init SRC DIR is no longer accepted: write olmsat bundle init {} --from {}",
            d3.display(),
            empty.display()
        )),
        "{}",
        stderr(&o)
    );
    assert!(!d3.exists());

    // A stream on standard input.
    let d4 = t.path().join("stream");
    let o = olmsat_stdin(
        &["bundle", "init", d4.to_str().unwrap(), "--from", "-"],
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(d4.join("manifests/configmap-settings.yaml").is_file());
    assert!(stdout(&o).contains("plain+v0"));
}

#[test]
fn catalog_from_bundles_builds_a_valid_catalog() {
    let t = tempfile::tempdir().unwrap();
    let tree = t.path().join("operators/etcd");
    etcd_copy(
        &tree.join("0.9.2"),
        &[
            ("name: etcdoperator.v0.9.4", "name: etcdoperator.v0.9.2"),
            ("version: 0.9.4", "version: 0.9.2"),
            ("  replaces: etcdoperator.v0.9.2\n", ""),
            ("  skips:\n  - etcdoperator.v0.9.3\n", ""),
            (
                "olm.skipRange: \">=0.9.0 <0.9.4\"",
                "olm.skipRange: \"<0.9.2\"",
            ),
        ],
    );
    // The newer one in a nested layout.
    etcd_copy(&tree.join("0.9.4/bundle"), &[]);
    let out = t.path().join("catalog");
    let o = olmsat(&[
        "catalog",
        "from-bundles",
        t.path().join("operators").to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "-o",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(r["passed"], true);
    assert_eq!(r["found"], 2);
    assert_eq!(r["bundles"], 2);
    assert_eq!(r["packages"], 1);
    let text = fs::read_to_string(out.join("etcd/catalog.json")).unwrap();
    assert!(text.contains("\"replaces\": \"etcdoperator.v0.9.2\""));
    assert!(text.contains("\"skipRange\": \">=0.9.0 <0.9.4\""));
    let o = olmsat(&["validate", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("valid: 1 package(s), 2 bundle(s)"));

    // The output directory must be empty; YAML on request.
    let o = olmsat(&[
        "catalog",
        "from-bundles",
        t.path().join("operators").to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("must be empty"));
    let out2 = t.path().join("catalog-yaml");
    let o = olmsat(&[
        "catalog",
        "from-bundles",
        t.path().join("operators").to_str().unwrap(),
        "--output-dir",
        out2.to_str().unwrap(),
        "--format",
        "yaml",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(out2.join("etcd/catalog.yaml").is_file());
}

#[test]
fn catalog_from_corpus_package_reports_absent_replaces() {
    let Some(corpus) = support::require_full("catalog_from_corpus_package_reports_absent_replaces")
    else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("out");
    let src = corpus.join("bundles/community-operators-prod/rabbitmq-cluster-operator");
    let o = olmsat(&[
        "catalog",
        "from-bundles",
        src.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "-o",
        "json",
    ]);
    // Replaces-mode edges leave this package with several heads: the written
    // catalog is validated, so the build says so (exit 1), and the catalog is
    // written all the same.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(r["passed"], false);
    assert_eq!(r["bundles"], 27);
    assert_eq!(
        r["absentReplaces"],
        serde_json::json!([{"package": "rabbitmq-cluster-operator", "bundle": "rabbitmq-cluster-operator.v2.19.1", "replaces": "rabbitmq-cluster-operator.v2.19.0"}])
    );
    let heads = r["errors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["rule"] == "multiple-heads")
        .count();
    assert!(heads >= 1, "{r}");
    assert!(r["errors"][0]["file"]
        .as_str()
        .unwrap()
        .ends_with("rabbitmq-cluster-operator/catalog.json"));
    // Text: the findings on standard error, the count in the summary.
    let out_text = t.path().join("out-text");
    let o = olmsat(&[
        "catalog",
        "from-bundles",
        src.to_str().unwrap(),
        "--output-dir",
        out_text.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("error[multiple-heads]: "),
        "{}",
        stderr(&o)
    );
    assert!(!stdout(&o).contains(" 0 error(s)"), "{}", stdout(&o));
    // --no-validate: written, not validated, exit 0.
    let out_nv = t.path().join("out-nv");
    let o = olmsat(&[
        "catalog",
        "from-bundles",
        src.to_str().unwrap(),
        "--output-dir",
        out_nv.to_str().unwrap(),
        "--no-validate",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains(" 0 error(s)"), "{}", stdout(&o));
    assert!(stdout(&o).ends_with(" (not validated)\n"), "{}", stdout(&o));
    // validate says the same of the written catalog.
    let o = olmsat(&["validate", "-o", "json", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["errors"][0]["message"]
        .as_str()
        .unwrap()
        .starts_with("multiple channel heads found in graph"));
}

#[test]
fn validate_over_a_glob_skips_files_with_a_note() {
    let t = tempfile::tempdir().unwrap();
    let readme = t.path().join("README.md");
    fs::write(&readme, "# bundles\n").unwrap();
    let kiali = fixture("registry-v2/kiali");
    let o = olmsat(&["bundle", "validate", &kiali, readme.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(
        stderr(&o),
        format!(
            "olmsat: note: skipped {}: not a directory (bundle validate takes bundle directories)\n",
            readme.display()
        )
    );
    // A lone file is not skipped: there is nothing to validate.
    let o = olmsat(&["bundle", "validate", readme.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    // Nor is a path that does not exist, among others.
    let o = olmsat(&["bundle", "validate", &kiali, "no-such-bundle"]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
}
