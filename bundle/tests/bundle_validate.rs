//! Table tests: one case per validation rule, on temporary copies of the fixture
//! bundles in `corpus/bundles/` with one change each.

mod common;

use common::{bundle, Edit, Edit::*};
use olmsat_bundle::format::{MediaType, Source};
use olmsat_bundle::validate::validate_dir;
use olmsat_versions::range::Range;
use olmsat_versions::version;

const V1: &str = "registry-v1/etcd";
const V2: &str = "registry-v2/kiali";
const PLAIN: &str = "plain-v0/combo";

const MT: &str = "operators.operatorframework.io.bundle.mediatype.v1";
const CH: &str = "operators.operatorframework.io.bundle.channels.v1";
const CSV_FILE: &str = "manifests/etcdoperator.v0.9.4.clusterserviceversion.yaml";

/// One rule: a fixture, the edits that break it, and the exact errors and
/// warnings expected (`{dir}` stands for the bundle directory).
struct Case {
    name: &'static str,
    base: &'static str,
    edits: Vec<Edit>,
    errors: Vec<String>,
    warnings: Vec<String>,
    /// (file relative to the bundle, line, column) of the first error; 0 = any.
    at: Option<(&'static str, u32, u32)>,
}

fn case(name: &'static str, base: &'static str, edits: Vec<Edit>) -> Case {
    Case {
        name,
        base,
        edits,
        errors: Vec::new(),
        warnings: Vec::new(),
        at: None,
    }
}

impl Case {
    fn errors(mut self, e: &[&str]) -> Self {
        self.errors = e.iter().map(|s| (*s).to_owned()).collect();
        self
    }
    fn error(mut self, e: String) -> Self {
        self.errors.push(e);
        self
    }
    fn warnings(mut self, w: &[&str]) -> Self {
        self.warnings = w.iter().map(|s| (*s).to_owned()).collect();
        self
    }
    fn at(mut self, file: &'static str, line: u32, col: u32) -> Self {
        self.at = Some((file, line, col));
        self
    }
}

/// The CSV fixture with `from` replaced by `to`, leaked for `Edit::Write`.
fn csv_with(from: &str, to: &str) -> &'static str {
    let text = std::fs::read_to_string(common::fixtures().join(V1).join(CSV_FILE)).unwrap();
    assert!(text.contains(from), "fixture CSV lacks {from:?}");
    Box::leak(text.replacen(from, to, 1).into_boxed_str())
}

fn annotations(lines: &str) -> &'static str {
    Box::leak(format!("annotations:\n{lines}").into_boxed_str())
}

const FULL_ANN: &str = "  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n  operators.operatorframework.io.bundle.manifests.v1: manifests/\n  operators.operatorframework.io.bundle.metadata.v1: metadata/\n  operators.operatorframework.io.bundle.package.v1: etcd\n";

fn ann_with(extra: &str) -> &'static str {
    annotations(&format!("{FULL_ANN}{extra}"))
}

fn cases() -> Vec<Case> {
    let strict_err = version::parse_strict("v0.9.4").unwrap_err();
    let range_err = Range::parse("=>0.9.0").unwrap_err();
    vec![
        // registry+v1
        case("valid registry+v1", V1, vec![]),
        case("manifests directory missing", V1, vec![Remove("manifests")])
            .errors(&["Unable to locate manifests directory"]),
        case("metadata directory missing", V1, vec![Remove("metadata")])
            .errors(&["Unable to locate metadata directory"]),
        case("annotations file missing", V1, vec![Remove("metadata/annotations.yaml")])
            .errors(&["Could not find annotations file"]),
        case(
            "annotations missing",
            V1,
            vec![Write(
                "metadata/annotations.yaml",
                annotations("  operators.operatorframework.io.bundle.package.v1: etcd\n  operators.operatorframework.io.bundle.channels.v1: alpha\n"),
            )],
        )
        .errors(&[
            "Missing annotation \"operators.operatorframework.io.bundle.manifests.v1\"",
            "Missing annotation \"operators.operatorframework.io.bundle.mediatype.v1\"",
            "Missing annotation \"operators.operatorframework.io.bundle.metadata.v1\"",
        ]),
        case(
            "package and channels missing",
            V1,
            vec![Write(
                "metadata/annotations.yaml",
                annotations("  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n  operators.operatorframework.io.bundle.manifests.v1: manifests/\n  operators.operatorframework.io.bundle.metadata.v1: metadata/\n"),
            )],
        )
        .errors(&[
            "Missing annotation \"operators.operatorframework.io.bundle.channels.v1\"",
            "Missing annotation \"operators.operatorframework.io.bundle.package.v1\"",
        ]),
        case(
            "manifests annotation with the wrong value",
            V1,
            vec![Write(
                "metadata/annotations.yaml",
                annotations("  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n  operators.operatorframework.io.bundle.manifests.v1: manifest/\n  operators.operatorframework.io.bundle.metadata.v1: metadata/\n  operators.operatorframework.io.bundle.package.v1: etcd\n  operators.operatorframework.io.bundle.channels.v1: alpha\n"),
            )],
        )
        .errors(&["Expecting annotation \"operators.operatorframework.io.bundle.manifests.v1\" to have value \"manifests/\" instead of \"manifest/\""])
        .at("metadata/annotations.yaml", 3, 55),
        case(
            "empty channels",
            V1,
            vec![Write("metadata/annotations.yaml", ann_with("  operators.operatorframework.io.bundle.channels.v1: ' , '\n"))],
        )
        .errors(&["Expecting annotation \"operators.operatorframework.io.bundle.channels.v1\" to have non-empty value"]),
        case(
            "unknown media type",
            V1,
            vec![Write(
                "metadata/annotations.yaml",
                annotations("  operators.operatorframework.io.bundle.mediatype.v1: helm\n  operators.operatorframework.io.bundle.manifests.v1: manifests/\n  operators.operatorframework.io.bundle.metadata.v1: metadata/\n  operators.operatorframework.io.bundle.package.v1: etcd\n  operators.operatorframework.io.bundle.channels.v1: alpha\n"),
            )],
        )
        .errors(&["Expecting annotation \"operators.operatorframework.io.bundle.mediatype.v1\" to have value \"registry+v1\" instead of \"helm\""]),
        case(
            "default channel not among the channels",
            V1,
            vec![Write(
                "metadata/annotations.yaml",
                ann_with("  operators.operatorframework.io.bundle.channels.v1: alpha,stable\n  operators.operatorframework.io.bundle.channel.default.v1: beta\n"),
            )],
        )
        .warnings(&["default channel \"beta\" is not one of the bundle's channels (alpha, stable); the catalog's default channel must name a channel some bundle of the package is in"]),
        case(
            "annotation that is not a string",
            V1,
            vec![Write("metadata/annotations.yaml", ann_with("  operators.operatorframework.io.bundle.channels.v1: alpha\n  com.example/flag: true\n"))],
        )
        .errors(&["annotation \"com.example/flag\" must be a string, found a boolean (quote it)"])
        .at("metadata/annotations.yaml", 7, 21),
        case(
            "duplicate key in annotations",
            V1,
            vec![Write("metadata/annotations.yaml", ann_with("  operators.operatorframework.io.bundle.channels.v1: alpha\n  operators.operatorframework.io.bundle.channels.v1: stable\n"))],
        )
        .warnings(&["duplicate mapping key; the last value is used"]),
        case(
            "two ClusterServiceVersions",
            V1,
            vec![Write(
                "manifests/zz-other.csv.yaml",
                "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: etcdoperator.v0.9.5\nspec:\n  version: 0.9.5\n",
            )],
        )
        .errors(&["more than one ClusterServiceVersion is found in bundle"])
        .at("manifests/zz-other.csv.yaml", 1, 0),
        case("no ClusterServiceVersion", V1, vec![Remove(CSV_FILE)]).errors(&["no csv in bundle"]),
        case("owned CRD missing", V1, vec![Remove("manifests/etcdclusters.crd.yaml")])
            .errors(&["owned CRD etcdclusters.etcd.database.coreos.com/v1beta2, Kind=EtcdCluster not found in bundle \"etcdoperator.v0.9.4\""])
            .at(CSV_FILE, 25, 7),
        case(
            "CRD present but not owned",
            V1,
            vec![Write(
                "manifests/foos.crd.yaml",
                "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: foos.example.com\nspec:\n  group: example.com\n  names: {kind: Foo, plural: foos}\n  scope: Namespaced\n  versions:\n  - {name: v1, served: true, storage: true}\n",
            )],
        )
        .warnings(&["CRD foos.example.com/v1, Kind=Foo is present in bundle \"etcdoperator.v0.9.4\" but not defined in CSV"]),
        case(
            "CRD name not plural.group",
            V1,
            vec![Write(
                "manifests/foos.crd.yaml",
                "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: foo.example.com\nspec:\n  group: example.com\n  names: {kind: Foo, plural: foos}\n  versions:\n  - {name: v1}\n",
            )],
        )
        .errors(&["CustomResourceDefinition name \"foo.example.com\" must be spec.names.plural + \".\" + spec.group (\"foos.example.com\")"])
        .warnings(&["CRD foo.example.com/v1, Kind=Foo is present in bundle \"etcdoperator.v0.9.4\" but not defined in CSV"]),
        case(
            "unsupported kind",
            V1,
            vec![Write("manifests/deployment.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n")],
        )
        .errors(&["Deployment is not supported type for registryV1 bundle: {dir}/manifests/deployment.yaml"]),
        case(
            "object without a kind",
            V1,
            vec![Write("manifests/cm.yaml", "apiVersion: v1\nmetadata:\n  name: c\n")],
        )
        .errors(&["not a Kubernetes object: kind is missing or not a string"]),
        case(
            "multi-document manifest",
            V1,
            vec![Write("manifests/cms.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n")],
        )
        .warnings(&["file holds 2 documents; opm and OLM read only the first document of each manifest file"]),
        case("subdirectory of manifests", V1, vec![Mkdir("manifests/extra")])
            .warnings(&["subdirectory of manifests/ is ignored: registry+v1 manifests are read non-recursively"]),
        case(
            "invalid YAML in a manifest",
            V1,
            vec![Write("manifests/bad.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [a\n")],
        )
        .errors(&["invalid YAML: unclosed bracket '['"])
        .at("manifests/bad.yaml", 4, 9),
        case("version not strict semver", V1, vec![Write(CSV_FILE, csv_with("version: 0.9.4", "version: v0.9.4"))])
            .error(format!("spec.version \"v0.9.4\" is not a valid semantic version: {strict_err} (opm reads it leniently as \"0.9.4\")"))
            .at(CSV_FILE, 11, 3),
        case("version missing", V1, vec![Write(CSV_FILE, csv_with("  version: 0.9.4\n", ""))])
            .errors(&["ClusterServiceVersion \"etcdoperator.v0.9.4\" has no spec.version"]),
        case("version of the wrong type", V1, vec![Write(CSV_FILE, csv_with("version: 0.9.4", "version: 1.5"))])
            .errors(&[
                "ClusterServiceVersion \"etcdoperator.v0.9.4\" has no spec.version",
                "ClusterServiceVersion \"etcdoperator.v0.9.4\": spec.version must be a string, found a number",
            ]),
        case("invalid skipRange", V1, vec![Write(CSV_FILE, csv_with(">=0.9.0 <0.9.4", "=>0.9.0"))])
            .error(format!("invalid skipRange \"=>0.9.0\": {range_err} (blang/semver would accept \">=0.9.0\")"))
            .at(CSV_FILE, 6, 5),
        case("misspelled skipRange annotation", V1, vec![Write(CSV_FILE, csv_with("olm.skipRange", "olm.skiprange"))])
            .warnings(&["CSV annotation \"olm.skiprange\" looks like a misspelling of \"olm.skipRange\"; OLM ignores it"]),
        case("invalid olm.properties annotation", V1, vec![Write(CSV_FILE, csv_with("'[{\"type\"", "'[{\"typo\""))])
            .errors(&["invalid olm.properties annotation: property[0]: type must be set"]),
        case("replaces not a valid name", V1, vec![Write(CSV_FILE, csv_with("replaces: etcdoperator.v0.9.2", "replaces: EtcdOperator.v0.9.2"))])
            .errors(&["spec.replaces \"EtcdOperator.v0.9.2\" is not a valid ClusterServiceVersion name: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"]),
        case("replaces itself", V1, vec![Write(CSV_FILE, csv_with("replaces: etcdoperator.v0.9.2", "replaces: etcdoperator.v0.9.4"))])
            .errors(&["spec.replaces names the ClusterServiceVersion itself (\"etcdoperator.v0.9.4\")"])
            .at(CSV_FILE, 12, 3),
        case("empty skip", V1, vec![Write(CSV_FILE, csv_with("  - etcdoperator.v0.9.3\n", "  - etcdoperator.v0.9.3\n  - \"\"\n"))])
            .errors(&["skip[1] is empty"]),
        case("invalid CSV name", V1, vec![Write(CSV_FILE, csv_with("name: etcdoperator.v0.9.4", "name: etcdoperator.v0.9.4+1"))])
            .errors(&["invalid ClusterServiceVersion name \"etcdoperator.v0.9.4+1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"]),
        case("required CRD name without a group", V1, vec![Write(CSV_FILE, csv_with("name: certificates.cert-manager.io", "name: certificates"))])
            .errors(&["couldn't parse plural.group from crd name: certificates"]),
        case("invalid related image", V1, vec![Write(CSV_FILE, csv_with("image: quay.io/coreos/etcd:v3.4.0", "image: oci://quay.io/coreos/etcd:v3.4.0"))])
            .errors(&["spec.relatedImages[0].image: invalid image pull spec \"oci://quay.io/coreos/etcd:v3.4.0\": invalid reference format"])
            .at(CSV_FILE, 45, 5),
        case(
            "dependencies: every check",
            V1,
            vec![Write(
                "metadata/dependencies.yaml",
                "dependencies:\n- type: olm.package\n  value:\n    packageName: ''\n    version: '=>1.0'\n- type: olm.gvk\n  value: {kind: K, version: v1}\n- type: olm.label\n  value: {}\n- type: olm.bogus\n  value: {}\n- type: olm.constraint\n  value:\n    failureMessage: x\n    cel: {rule: ''}\n    package: {packageName: p, versionRange: '>=1.0.0'}\n",
            )],
        )
        .errors(&[
            "Package name is empty",
            "Invalid semver format version",
            "API Group is empty",
            "Label information is missing",
            "unsupported dependency type olm.bogus",
            "olm.constraint: a constraint needs exactly one of cel, gvk, package, all, any or not; found cel, package",
            "olm.constraint.cel: The CEL expression is missing",
        ])
        .at("metadata/dependencies.yaml", 2, 0),
        case(
            "invalid YAML in dependencies.yaml",
            V1,
            vec![Write(
                "metadata/dependencies.yaml",
                "dependencies:\n  - type: olm.gvk\n    value:\n      group: a\n  - type: olm.gvk\n      value:\n        group: b\n",
            )],
        )
        .errors(&["invalid YAML: mapping values are not allowed in this context"])
        .at("metadata/dependencies.yaml", 6, 12),
        case(
            "properties.yaml with a dependencies key",
            V1,
            vec![Write("metadata/properties.yaml", "dependencies:\n- type: olm.package\n  value: {packageName: p, version: 1.0.0}\n")],
        )
        .warnings(&["properties.yaml has no properties list, so it declares nothing (found dependencies); dependencies belong in metadata/dependencies.yaml"]),
        case(
            "properties.yaml entries",
            V1,
            vec![Write(
                "metadata/properties.yaml",
                "properties:\n- type: olm.channels\n  value: {name: stable}\n- type: relatedImage\n  image: quay.io/x:1\n- type: olm.package\n  value: [1]\n- value: 1\n",
            )],
        )
        .errors(&[
            "parse property[2] of type \"olm.package\": json: cannot unmarshal array into Go value of type property.Package",
            "properties[3]: type must be set",
        ])
        .warnings(&[
            "property type \"olm.channels\" is in the olm.* namespace but OLM does not define it; OLM ignores it",
            "property \"relatedImage\" has no value; catalogs require one (it renders as null)",
        ]),
        case(
            "plain+v0 declared but a CSV present",
            V1,
            vec![Write("metadata/annotations.yaml", annotations("  operators.operatorframework.io.bundle.mediatype.v1: plain+v0\n"))],
        )
        .errors(&["Expecting annotation \"operators.operatorframework.io.bundle.mediatype.v1\" to have value \"registry+v1\" instead of \"plain+v0\""]),
        case(
            "channel listed twice",
            V1,
            vec![Write("metadata/annotations.yaml", ann_with("  operators.operatorframework.io.bundle.channels.v1: alpha,stable,alpha\n"))],
        )
        .warnings(&["channel \"alpha\" is listed twice"]),
        case(
            "owned CRD listed twice",
            V1,
            vec![Write(
                CSV_FILE,
                csv_with(
                    "    - name: etcdbackups.etcd.database.coreos.com\n",
                    "    - name: etcdclusters.etcd.database.coreos.com\n      version: v1beta2\n      kind: EtcdCluster\n    - name: etcdbackups.etcd.database.coreos.com\n",
                ),
            )],
        )
        .errors(&["duplicate CRD etcdclusters.etcd.database.coreos.com/v1beta2, Kind=EtcdCluster in bundle \"etcdoperator.v0.9.4\""]),
        case(
            "CRD without versions",
            V1,
            vec![Write(
                "manifests/etcdbackups.crd.yml",
                "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata:\n  name: etcdbackups.etcd.database.coreos.com\nspec:\n  group: etcd.database.coreos.com\n  names: {kind: EtcdBackup, plural: etcdbackups}\n",
            )],
        )
        .errors(&[
            "CustomResourceDefinition \"etcdbackups.etcd.database.coreos.com\" has no versions",
            "owned CRD etcdbackups.etcd.database.coreos.com/v1beta2, Kind=EtcdBackup not found in bundle \"etcdoperator.v0.9.4\"",
        ]),
        case("invalid release", V1, vec![Write(CSV_FILE, csv_with("  version: 0.9.4\n", "  version: 0.9.4\n  release: 'a..b'\n"))])
            .errors(&["spec.release: invalid release \"a..b\": segment 1: Prerelease is empty"])
            .at(CSV_FILE, 12, 3),
        case("bundle.yaml in a registry+v1 bundle", V1, vec![Write("metadata/bundle.yaml", "name: x\nversion: 1.0.0\n")])
            .warnings(&["metadata/bundle.yaml belongs to registry+v2 bundles; it is ignored in a registry+v1 bundle"]),
        case("dependencies.yaml without a list", V1, vec![Write("metadata/dependencies.yaml", "# nothing yet\n")])
            .warnings(&["dependencies.yaml has no dependencies list; it declares nothing"]),
        case(
            "nested constraints",
            V1,
            vec![Write(
                "metadata/dependencies.yaml",
                "dependencies:\n- type: olm.constraint\n  value:\n    failureMessage: x\n    all:\n      constraints:\n      - gvk: {group: g, kind: K}\n      - not: {constraints: []}\n      - 3\n",
            )],
        )
        .errors(&[
            "olm.constraint.all.constraints[0].gvk: API Version is empty",
            "olm.constraint.all.constraints[1].not: constraints must be a non-empty list",
            "olm.constraint.all.constraints[2]: value must be a mapping, found a number",
        ]),
        // plain+v0
        case("valid plain+v0", PLAIN, vec![]),
        case("plain: manifests missing", PLAIN, vec![Remove("manifests")])
            .errors(&["Unable to locate manifests directory"]),
        case("plain: not flat", PLAIN, vec![Mkdir("manifests/sub")])
            .errors(&["manifests directory must be flat: subdirectories are not allowed"]),
        case(
            "plain: no objects",
            PLAIN,
            vec![Remove("manifests/00_namespace.yaml"), Remove("manifests/01_rbac.yaml"), Write("manifests/02_deployment.json", "")],
        )
        .errors(&["manifests directory holds no Kubernetes objects; a plain+v0 bundle needs at least one"]),
        case("plain: object without a name", PLAIN, vec![Write("manifests/00_namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {}\n")])
            .errors(&["not a Kubernetes object: metadata.name is missing or not a string"])
            .at("manifests/00_namespace.yaml", 1, 0),
        case("plain: a document that is a list", PLAIN, vec![Write("manifests/03_list.yaml", "- a\n- b\n")])
            .errors(&["not a Kubernetes object: the document is a sequence"]),
        case("plain: invalid JSON", PLAIN, vec![Write("manifests/02_deployment.json", "{\"apiVersion\": \"apps/v1\",\n \"kind\": }\n")])
            .errors(&["invalid JSON: expected value"])
            .at("manifests/02_deployment.json", 2, 10),
        // registry+v2
        case("valid registry+v2", V2, vec![]),
        case("v2: no Deployment", V2, vec![Remove("manifests/deployment.yaml")])
            .errors(&["no Deployment in manifests/; a registry+v2 bundle needs at least one"]),
        case(
            "v2: a CSV",
            V2,
            vec![Write("manifests/csv.yaml", "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata: {name: k.v1.9.1}\n")],
        )
        .errors(&["registry+v2 bundles are CSV-less, but the bundle holds ClusterServiceVersion \"k.v1.9.1\""]),
        case("v2: bundle.yaml missing", V2, vec![Remove("metadata/bundle.yaml")])
            .errors(&["Could not find metadata/bundle.yaml"]),
        case(
            "v2: bundle.yaml without name, bad version",
            V2,
            vec![Write("metadata/bundle.yaml", "version: 1.9\ndisplayName: Kiali\n")],
        )
        .errors(&[
            "bundle.yaml: missing required field \"name\"",
            "bundle.yaml: version must be a non-empty string, found a number",
        ]),
        case(
            "v2: bundle.yaml version not semver",
            V2,
            vec![Write("metadata/bundle.yaml", "name: k\nversion: '1.9'\n")],
        )
        .errors(&["bundle.yaml: version \"1.9\" is not a valid semantic version: No Major.Minor.Patch elements found"]),
        case("v2: not flat", V2, vec![Mkdir("manifests/sub")])
            .errors(&["manifests directory must be flat: subdirectories are not allowed"]),
        case(
            "v2: bundle.yaml media type",
            V2,
            vec![Write("metadata/bundle.yaml", "operators.operatorframework.io.bundle.mediatype: registry+v1\nname: k\nversion: 1.9.1\n")],
        )
        .errors(&["bundle.yaml: operators.operatorframework.io.bundle.mediatype must be \"registry+v2\""]),
        case(
            "v2: media type annotation missing",
            V2,
            vec![Write("metadata/annotations.yaml", "annotations:\n  operators.operatorframework.io.bundle.package.v1: kiali\n")],
        )
        .errors(&["Missing annotation \"operators.operatorframework.io.bundle.mediatype.v1\""]),
        case(
            "v2: unversioned media type key",
            V2,
            vec![Write("metadata/annotations.yaml", "annotations:\n  operators.operatorframework.io.bundle.mediatype: registry+v2\n")],
        ),
    ]
}

#[test]
fn every_rule() {
    let mut failures = Vec::new();
    for c in cases() {
        let (_t, dir) = bundle(c.base, &c.edits);
        let r = validate_dir(&dir).unwrap();
        let shown = dir.display().to_string();
        let fix = |v: &[String]| -> Vec<String> {
            let mut v: Vec<String> = v.iter().map(|s| s.replace("{dir}", &shown)).collect();
            v.sort();
            v.dedup();
            v
        };
        let mut got_e: Vec<String> = r.errors.iter().map(|d| d.message.clone()).collect();
        got_e.sort();
        let mut got_w: Vec<String> = r.warnings.iter().map(|d| d.message.clone()).collect();
        got_w.sort();
        if got_e != fix(&c.errors) {
            failures.push(format!(
                "{}: errors\n  got:  {got_e:#?}\n  want: {:#?}",
                c.name,
                fix(&c.errors)
            ));
        }
        if got_w != fix(&c.warnings) {
            failures.push(format!(
                "{}: warnings\n  got:  {got_w:#?}\n  want: {:#?}",
                c.name,
                fix(&c.warnings)
            ));
        }
        if let Some((file, line, col)) = c.at {
            let want_file = dir.join(file).display().to_string();
            let first = r
                .errors
                .iter()
                .find(|d| d.location.as_ref().is_some_and(|l| *l.file == *want_file));
            match first.and_then(|d| d.location.clone()) {
                Some(l) if l.line == line && (col == 0 || l.column == col) => {}
                other => failures.push(format!(
                    "{}: location: got {other:?}, want {want_file}:{line}:{col}",
                    c.name
                )),
            }
        }
        for d in r.errors.iter().chain(&r.warnings) {
            if d.location.is_none() {
                failures.push(format!("{}: diagnostic without a location: {d}", c.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn diagnostics_name_package_and_bundle() {
    let (_t, dir) = bundle(V1, &[Remove("manifests/etcdclusters.crd.yaml")]);
    let r = validate_dir(&dir).unwrap();
    assert_eq!(r.package.as_deref(), Some("etcd"));
    assert_eq!(r.bundle.as_deref(), Some("etcdoperator.v0.9.4"));
    let d = &r.errors[0];
    assert_eq!(d.package.as_deref(), Some("etcd"));
    assert_eq!(d.bundle.as_deref(), Some("etcdoperator.v0.9.4"));
}

#[test]
fn detection_says_why() {
    let (_t, dir) = bundle(V1, &[]);
    let r = validate_dir(&dir).unwrap();
    assert_eq!(r.detection.media_type, MediaType::RegistryV1);
    assert!(matches!(r.detection.source, Source::Annotation { key, .. } if key == MT));

    // No annotations at all: the layout decides, and the missing annotations are reported.
    let (_t, dir) = bundle(
        V1,
        &[Write(
            "metadata/annotations.yaml",
            annotations(&format!(
                "  {CH}: alpha\n  operators.operatorframework.io.bundle.package.v1: etcd\n"
            )),
        )],
    );
    let r = validate_dir(&dir).unwrap();
    assert_eq!(r.detection.media_type, MediaType::RegistryV1);
    assert!(matches!(r.detection.source, Source::Layout(_)));
    assert!(r.detection.describe().contains("ClusterServiceVersion"));

    let (_t, dir) = bundle(PLAIN, &[]);
    let r = validate_dir(&dir).unwrap();
    assert_eq!(r.detection.media_type, MediaType::PlainV0);

    let (_t, dir) = bundle(V2, &[Remove("metadata/annotations.yaml")]);
    let r = validate_dir(&dir).unwrap();
    assert_eq!(r.detection.media_type, MediaType::RegistryV2);
    assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
    assert_eq!(r.errors[0].message, "Could not find annotations file");
}
