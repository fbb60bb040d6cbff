//! Loading edge cases: ignore files, large streams, hostile and odd files.

use std::fs;
use std::path::Path;

use olmsat_catalog::load::{load_bytes, load_path};

fn write(dir: &Path, rel: &str, text: &[u8]) {
    let p = dir.join(rel);
    fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    fs::write(p, text).expect("write");
}

const PKG: &str = "schema: olm.package\nname: p\ndefaultChannel: c\n";

#[test]
fn indexignore_excludes_paths_scoped_to_its_directory() {
    let d = tempfile::tempdir().expect("tempdir");
    write(d.path(), "a/catalog.yaml", PKG.as_bytes());
    write(d.path(), "a/README.md", b"# not a catalog\n");
    write(d.path(), "a/.indexignore", b"# docs\nREADME.md\n\n*.bak\n");
    write(d.path(), "a/old.bak", b"garbage: [\n");
    write(
        d.path(),
        "b/README.md",
        b"# this one is not ignored: opm parses every file\n",
    );
    let l = load_path(d.path()).expect("load");
    assert_eq!(l.config.packages.len(), 1);
    assert_eq!(l.files, 2, "{:?}", l.diagnostics);
    // b/README.md is parsed and fails, as in opm.
    assert_eq!(l.diagnostics.len(), 1);
    assert!(l.diagnostics[0]
        .location
        .as_ref()
        .expect("loc")
        .file
        .ends_with("b/README.md"));
    assert!(l.diagnostics[0]
        .message
        .contains("missing root schema field"));
}

#[test]
fn streams_of_thousands_of_documents_load() {
    let mut yaml = String::new();
    let mut json = String::new();
    for i in 0..5000 {
        yaml.push_str(&format!("---\nschema: my.thing\nname: t{i}\n"));
        json.push_str(&format!("{{\"schema\":\"my.thing\",\"name\":\"t{i}\"}}\n"));
    }
    let l = load_bytes("big.yaml", yaml.as_bytes());
    assert!(!l.has_errors(), "{:?}", &l.diagnostics[..1]);
    assert_eq!(l.config.others.len(), 5000);
    assert_eq!(l.config.others[4999].location.line, 14999);
    let l = load_bytes("big.json", json.as_bytes());
    assert_eq!(l.config.others.len(), 5000);
    assert_eq!(l.config.others[4999].location.line, 5000);
}

#[test]
fn binary_and_invalid_utf8_are_errors_with_positions() {
    let l = load_bytes("bin", b"schema: x\n\x00\x01\x02");
    assert_eq!(l.diagnostics.len(), 1);
    assert!(l.diagnostics[0].message.contains("not a text file"));
    assert_eq!(l.diagnostics[0].location.as_ref().expect("loc").line, 2);
    let l = load_bytes("latin1", b"schema: olm.package\nname: caf\xe9\n");
    assert!(
        l.diagnostics[0].message.contains("invalid UTF-8"),
        "{:?}",
        l.diagnostics
    );
    assert_eq!(l.diagnostics[0].location.as_ref().expect("loc").line, 2);
}

#[test]
fn bom_empty_files_and_trailing_separators() {
    let mut with_bom = b"\xEF\xBB\xBF".to_vec();
    with_bom.extend_from_slice(PKG.as_bytes());
    assert_eq!(load_bytes("bom", &with_bom).config.packages.len(), 1);
    let l = load_bytes("empty", b"");
    assert!(l.diagnostics.is_empty() && l.config.is_empty());
    let l = load_bytes("trailing", format!("---\n{PKG}---\n").as_bytes());
    assert!(l.diagnostics.is_empty(), "{:?}", l.diagnostics);
    assert_eq!(l.config.packages.len(), 1);
}

#[test]
fn malformed_json_streams() {
    let l = load_bytes(
        "t.json",
        b"{\"schema\":\"a\"}\n{\"schema\":\"b\"}\n{\"schema\": ",
    );
    assert!(l.has_errors());
    let e = &l.diagnostics[0];
    // Go's decoder: the third value ends inside an object.
    assert_eq!(e.message, "unexpected EOF", "{e:?}");
    assert_eq!(e.location.as_ref().expect("loc").line, 3);
    assert_eq!(l.config.others.len(), 2);
    // A syntax error in the third value: Go's text, without the offset
    // apimachinery adds only while the stream could still be YAML.
    let l = load_bytes(
        "t.json",
        b"{\"schema\":\"a\"}\n{\"schema\":\"b\"}\n{\"schema\" \"c\"}\n",
    );
    let e = &l.diagnostics[0];
    assert_eq!(
        e.message, "invalid character '\"' after object key",
        "{e:?}"
    );
    let loc = e.location.as_ref().expect("loc");
    assert_eq!((loc.line, loc.column), (3, 11));
    // In the first value, and not YAML either: the offset is given.
    let l = load_bytes("t.json", b"{\"schema\":\"a\",, \"name\": \"x\"}\n");
    let e = &l.diagnostics[0];
    assert_eq!(
        e.message,
        "json: offset 15: invalid character ',' looking for beginning of object key string",
        "{e:?}"
    );
    let l = load_bytes("n.json", b"{\"schema\": 5}");
    assert!(
        l.diagnostics[0].message.contains("to be a string"),
        "{:?}",
        l.diagnostics
    );
    let l = load_bytes("deep.json", "[".repeat(100_000).as_bytes());
    assert!(l.has_errors());
    let ok = format!(
        "{{\"schema\":\"x\",\"a\":{}1{}}}",
        "[".repeat(99),
        "]".repeat(99)
    );
    let l = load_bytes("ok.json", ok.as_bytes());
    assert!(
        !l.has_errors(),
        "100 levels are accepted: {:?}",
        l.diagnostics
    );
    let mut out = Vec::new();
    olmsat_catalog::write::write(&l.config, olmsat_catalog::write::Format::Json, &mut out)
        .expect("write");
    assert!(
        String::from_utf8_lossy(&out).contains("1"),
        "and rendered intact"
    );
    let deep = format!(
        "{{\"schema\":\"x\",\"a\":{}1{}}}",
        "[".repeat(200),
        "]".repeat(200)
    );
    let l = load_bytes("deep2.json", deep.as_bytes());
    assert!(l.has_errors(), "nesting beyond the limit is an error");
}

#[test]
fn hostile_yaml_is_refused() {
    let bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\nschema: x\n";
    let l = load_bytes("bomb.yaml", bomb.as_bytes());
    assert!(l.has_errors(), "alias expansion must be bounded");
    let deep = format!(
        "schema: x\na: {}1{}\n",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    let l = load_bytes("deep.yaml", deep.as_bytes());
    assert!(l.has_errors());
    let tabs = "schema: x\n\tname: y\n";
    assert!(load_bytes("tabs.yaml", tabs.as_bytes()).has_errors());
}

#[test]
fn directories_named_like_files_and_symlinks() {
    let d = tempfile::tempdir().expect("tempdir");
    write(d.path(), "catalog.yaml/inner.yaml", PKG.as_bytes());
    let outside = tempfile::tempdir().expect("tempdir");
    write(
        outside.path(),
        "secret.yaml",
        b"schema: olm.package\nname: secret\ndefaultChannel: c\n",
    );
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(
            outside.path().join("secret.yaml"),
            d.path().join("link.yaml"),
        )
        .expect("symlink");
        std::os::unix::fs::symlink(d.path(), d.path().join("catalog.yaml/loop")).expect("symlink");
        write(
            d.path(),
            "inner/target.yaml",
            b"schema: my.thing\nname: t\n",
        );
        std::os::unix::fs::symlink(
            d.path().join("inner/target.yaml"),
            d.path().join("inside.yaml"),
        )
        .expect("symlink");
    }
    let l = load_path(d.path()).expect("load");
    assert_eq!(l.config.packages.len(), 1, "{:?}", l.diagnostics);
    #[cfg(unix)]
    {
        assert_eq!(
            l.config.others.len(),
            2,
            "links inside the catalog are followed"
        );
        assert!(
            l.diagnostics
                .iter()
                .any(|d| d.message.contains("outside the catalog")),
            "{:?}",
            l.diagnostics
        );
        assert!(
            l.diagnostics.iter().any(|d| d.message.contains("loop")),
            "{:?}",
            l.diagnostics
        );
    }
}

#[test]
fn a_missing_path_is_a_load_error() {
    assert!(load_path(Path::new("/definitely/not/here")).is_err());
}

#[test]
fn loading_one_package_builds_only_its_blobs() {
    use olmsat_catalog::load::{load_bytes_selected, Select};
    let text = r#"{"schema":"olm.package","name":"a","defaultChannel":"s"}
{"schema":"olm.channel","package":"a","name":"s","entries":[{"name":"a.v1"}]}
{"schema":"olm.bundle","package":"a","name":"a.v1","image":"x","properties":[]}
{"schema":"olm.package","name":"b","defaultChannel":"s"}
{"schema":"olm.bundle","package":"b","name":"b.v1","properties":5}
{"schema":"x.other","package":"a","name":"kept"}
{"schema":"x.other","name":"no package"}
"#;
    let all = load_bytes("c.json", text.as_bytes());
    assert!(all.has_errors(), "b.v1's properties are not a list");
    assert_eq!(all.config.packages.len(), 2);
    let only = load_bytes_selected("c.json", text.as_bytes(), &Select::Package("a".into()));
    assert!(!only.has_errors(), "{:?}", only.diagnostics);
    let names = |v: &[String]| v.join(",");
    assert_eq!(
        names(
            &only
                .config
                .packages
                .iter()
                .map(|p| p.name.clone())
                .collect::<Vec<_>>()
        ),
        "a"
    );
    assert_eq!(only.config.channels.len(), 1);
    assert_eq!(only.config.bundles.len(), 1);
    assert_eq!(
        only.config.others.len(),
        1,
        "blobs of other schemas of package a"
    );
    // Syntax errors are still reported, whatever package the broken text was.
    let broken = format!("{text}{{\"schema\": \"olm.bundle\", \"package\": \"b\",");
    let only = load_bytes_selected("c.json", broken.as_bytes(), &Select::Package("a".into()));
    assert!(only.has_errors());
    assert_eq!(only.config.bundles.len(), 1);
}

#[test]
fn nan_like_json_tokens() {
    // Not JSON: as with opm, the file is then read as YAML, where `NaN` and
    // `Infinity` are plain strings.
    for token in ["NaN", "Infinity", "-Infinity"] {
        let text = format!("{{\"schema\":\"x.y\",\"name\":\"n\",\"v\":{token}}}\n");
        let l = load_bytes("n.json", text.as_bytes());
        assert!(!l.has_errors(), "{token}: {:?}", l.diagnostics);
        assert!(l.config.others[0]
            .blob
            .get()
            .contains(&format!("\"{token}\"")));
    }
    // Numbers beyond float64: opm's decoder refuses them, and so does olmsat
    // (rendering them would silently give null).
    for token in ["1e999", "-1e999", "1E+400"] {
        let text = format!("{{\"schema\":\"x.y\",\"name\":\"n\",\"v\":[0,{token}]}}\n");
        let l = load_bytes("n.json", text.as_bytes());
        assert_eq!(
            l.diagnostics
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            vec![format!(
                "n.json:1:1: error[parse-error]: json: cannot unmarshal number {token} into Go value of type float64"
            )]
        );
    }
    let l = load_bytes("n.json", b"{\"schema\":\"x.y\",\"v\":1e-999}\n");
    assert!(!l.has_errors(), "underflow is zero in Go too");
}

#[test]
fn package_selection_reads_escaped_names() {
    use olmsat_catalog::load::{load_bytes_selected, Select};
    let text = r#"{"schema":"olm.bundle","package":"\u0061","name":"a.v1","image":"x","properties":[]}
{"schema":"olm.bundle","Package":"a","name":"a.v2","image":"x","properties":[]}
{"schema":"olm.bundle","package":"ab","name":"ab.v1","image":"x","properties":[]}
"#;
    let only = load_bytes_selected("c.json", text.as_bytes(), &Select::Package("a".into()));
    let names: Vec<&str> = only
        .config
        .bundles
        .iter()
        .map(|b| b.name.as_str())
        .collect();
    assert_eq!(names, vec!["a.v1", "a.v2"]);
}

#[test]
fn graph_reading_keeps_versions_and_checks_what_it_reads() {
    use olmsat_catalog::load::{load_bytes_selected, Select};
    use olmsat_catalog::model::Model;
    let head = r#"{"schema":"olm.package","name":"a","defaultChannel":"s"}
{"schema":"olm.channel","package":"a","name":"s","entries":[{"name":"a.v1"},{"name":"a.v2","replaces":"a.v1"}]}
{"schema":"olm.bundle","package":"a","name":"a.v1","image":"x","properties":[{"type":"olm.gvk","value":{"group":"g","kind":"K","version":"v1"}},{"type":"olm.package","value":{"packageName":"a","version":"1.0.0"}},{"type":"olm.deprecated","value":{}}]}
"#;
    // The second bundle's image and related images are broken: the full
    // reader refuses them, the graph reader does not read them.
    let text = format!(
        "{head}{}",
        r#"{"schema":"olm.bundle","package":"a","name":"a.v2","image":5,"relatedImages":{"x":1},"properties":[{"type":"olm.package","value":{"packageName":"a","version":"2.0.0"}}]}
"#
    );
    let full = load_bytes_selected("c.json", text.as_bytes(), &Select::Package("a".into()));
    assert!(full.has_errors());
    let lean = load_bytes_selected("c.json", text.as_bytes(), &Select::PackageGraph("a".into()));
    assert!(!lean.has_errors(), "{:?}", lean.diagnostics);
    let (model, _) = Model::build(lean.config);
    let p = model.package("a").unwrap();
    let v1 = p.bundle("a.v1").unwrap();
    assert_eq!(
        v1.version.as_ref().map(ToString::to_string).as_deref(),
        Some("1.0.0")
    );
    assert!(v1.legacy_deprecated());
    assert_eq!(v1.properties.len(), 2, "olm.gvk is not kept");
    assert!(v1.image.is_empty());
    assert_eq!(
        p.bundle("a.v2")
            .and_then(|b| b.version.as_ref())
            .map(ToString::to_string)
            .as_deref(),
        Some("2.0.0")
    );
    // Built for graphs, the model keeps the versions and the legacy mark but
    // not the olm.package property; its problems are still reported.
    use olmsat_catalog::load::blob::BundleReading;
    let broken = text.replace("\"version\":\"2.0.0\"", "\"version\":\"two\"");
    let lean = load_bytes_selected(
        "c.json",
        broken.as_bytes(),
        &Select::PackageGraph("a".into()),
    );
    let (model, diags) = Model::build_reading(lean.config, BundleReading::Graph);
    let p = model.package("a").unwrap();
    let v1 = p.bundle("a.v1").unwrap();
    assert_eq!(
        v1.version.as_ref().map(ToString::to_string).as_deref(),
        Some("1.0.0")
    );
    assert!(v1.legacy_deprecated());
    let types: Vec<&str> = v1.properties.iter().map(|p| p.type_.as_str()).collect();
    assert_eq!(types, ["olm.deprecated"]);
    assert_eq!(v1.values.len(), 1);
    let v2 = p.bundle("a.v2").unwrap();
    assert!(v2.version.is_none() && v2.properties.is_empty() && v2.values.is_empty());
    assert!(
        diags.iter().any(|d| d
            .message
            .starts_with("error parsing bundle \"a.v2\" version \"two\"")),
        "{diags:?}"
    );
    // Properties are read, so their problems are still errors, worded as the
    // full reader words them.
    for broken in [
        r#"[{"type":5,"value":{}}]"#,
        r#"["olm.package"]"#,
        r#"{"type":"olm.package"}"#,
    ] {
        let text = format!(
            "{head}{{\"schema\":\"olm.bundle\",\"package\":\"a\",\"name\":\"a.v2\",\"properties\":{broken}}}\n"
        );
        let messages = |select: &Select| -> Vec<String> {
            load_bytes_selected("c.json", text.as_bytes(), select)
                .diagnostics
                .iter()
                .map(ToString::to_string)
                .collect()
        };
        let lean = messages(&Select::PackageGraph("a".into()));
        assert_eq!(lean.len(), 1, "{broken}: {lean:?}");
        assert_eq!(lean, messages(&Select::Package("a".into())), "{broken}");
    }
    // A property without a type or a value loads, as in opm, in both
    // readings (the full one warns about it).
    for odd in [r#"[{"type":"","value":{}}]"#, r#"[{"type":"olm.gvk"}]"#] {
        let text = format!(
            "{head}{{\"schema\":\"olm.bundle\",\"package\":\"a\",\"name\":\"a.v2\",\"properties\":{odd}}}\n"
        );
        for select in [
            Select::PackageGraph("a".into()),
            Select::Package("a".into()),
        ] {
            let loaded = load_bytes_selected("c.json", text.as_bytes(), &select);
            assert!(!loaded.has_errors(), "{odd}: {:?}", loaded.diagnostics);
        }
    }
}
