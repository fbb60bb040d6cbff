//! The behaviour scenarios of the OLM v1 selection semantics (rows 1–53 and the
//! extra reference tests), each against the fixtures they name.

use olmsat_catalog::load::load_bytes;
use olmsat_encoding::location::Location;
use olmsat_resolver::v1::cluster::{Availability, Serving, NAME_LABEL};
use olmsat_resolver::v1::selector::{LabelSelector, Requirement};
use olmsat_resolver::v1::{
    resolve, Catalog, CatalogContent, ClusterCatalog, ClusterExtension, Gates, InstalledBundle,
    UpgradePolicy,
};
use serde_json::json;

/// An FBC JSON stream builder.
#[derive(Default)]
struct Fbc(Vec<serde_json::Value>);

impl Fbc {
    fn package(mut self, p: &str) -> Self {
        self.0.push(json!({"schema": "olm.package", "name": p}));
        self
    }
    /// `entries`: (bundle, replaces, skips separated by spaces, skipRange)
    fn channel(mut self, p: &str, name: &str, entries: &[(&str, &str, &str, &str)]) -> Self {
        let entries: Vec<_> = entries
            .iter()
            .map(|(n, r, s, sr)| {
                let mut e = json!({"name": n});
                if !r.is_empty() {
                    e["replaces"] = json!(r);
                }
                if !s.is_empty() {
                    e["skips"] = json!(s.split(' ').collect::<Vec<_>>());
                }
                if !sr.is_empty() {
                    e["skipRange"] = json!(sr);
                }
                e
            })
            .collect();
        self.0
            .push(json!({"schema": "olm.channel", "package": p, "name": name, "entries": entries}));
        self
    }
    fn bundle(mut self, p: &str, name: &str, version: &str) -> Self {
        self.0.push(json!({"schema": "olm.bundle", "package": p, "name": name, "image": format!("example.com/{name}"),
            "properties": [{"type": "olm.package", "value": {"packageName": p, "version": version}}]}));
        self
    }
    fn bundle_with(mut self, p: &str, name: &str, version: &str, extra: serde_json::Value) -> Self {
        self.0.push(json!({"schema": "olm.bundle", "package": p, "name": name, "image": format!("example.com/{name}"),
            "properties": [{"type": "olm.package", "value": {"packageName": p, "version": version}}, extra]}));
        self
    }
    fn deprecate(mut self, p: &str, bundles: &[&str]) -> Self {
        let entries: Vec<_> = bundles
            .iter()
            .map(|b| json!({"reference": {"schema": "olm.bundle", "name": b}, "message": format!("bundle {b} is deprecated")}))
            .collect();
        self.0
            .push(json!({"schema": "olm.deprecations", "package": p, "entries": entries}));
        self
    }
    fn content(&self) -> CatalogContent {
        let text: String = self.0.iter().map(|v| format!("{v}\n")).collect();
        let loaded = load_bytes("catalog.json", text.as_bytes());
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        CatalogContent::from_config(&loaded.config, false)
    }
}

/// Fixture G.
fn g() -> Fbc {
    let none = "";
    let mut f = Fbc::default()
        .package("p")
        .channel(
            "p",
            "alpha",
            &[
                ("p.v0.1.0", "", none, ""),
                ("p.v1.0.0", "", none, "<1.0.0"),
                ("p.v1.0.1", "", none, "<1.0.1"),
                ("p.v1.0.2", "", none, "<1.0.2"),
                ("p.v2.0.0", "", none, ">=1.0.0 <2.0.0"),
            ],
        )
        .channel(
            "p",
            "beta",
            &[("p.v0.1.0", "", none, ""), ("p.v1.0.2", "", none, "<1.0.2")],
        )
        .channel("p", "gamma", &[("p.v3.0.0", "", none, ">=2.0.0 <3.0.0")]);
    for v in ["0.1.0", "1.0.0", "1.0.1", "1.0.2", "2.0.0", "3.0.0"] {
        f = f.bundle("p", &format!("p.v{v}"), v);
    }
    f.deprecate("p", &["p.v1.0.0", "p.v1.0.1"])
}

/// Fixture S.
fn s() -> Fbc {
    let t = "test-package";
    Fbc::default()
        .package(t)
        .channel(
            t,
            "stable",
            &[
                ("t.v2.0.0", "", "", ""),
                ("t.v2.1.0", "t.v2.0.0", "", ""),
                ("t.v2.2.0", "t.v2.1.0", "t.v2.0.0+1", ""),
                ("t.v2.2.1", "", "", ""),
                ("t.v2.3.0", "t.v2.2.0", "t.v2.2.1", ""),
                ("t.v2.4.0", "", "", ">=2.3.0 <2.4.0"),
            ],
        )
        .bundle(t, "t.v2.0.0", "2.0.0")
        .bundle(t, "t.v2.1.0", "2.1.0")
        .bundle(t, "t.v2.2.0", "2.2.0")
        .bundle(t, "t.v2.2.1", "2.2.1")
        .bundle(t, "t.v2.3.0", "2.3.0")
        .bundle(t, "t.v2.4.0", "2.4.0")
        .bundle(t, "t.v2.0.0+1", "2.0.0+1")
}

/// Fixture V: catalog name → content.
fn v_fixture() -> Vec<(&'static str, Fbc)> {
    let one = |versions: &[&str], deprecated: bool| {
        let mut f = Fbc::default().package("p");
        for v in versions {
            f = f.bundle("p", &format!("p.v{v}"), v);
        }
        if deprecated {
            let names: Vec<String> = versions.iter().map(|v| format!("p.v{v}")).collect();
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            f = f.deprecate("p", &refs);
        }
        f
    };
    vec![
        ("a", Fbc::default()),
        ("b", one(&["1.0.0"], true)),
        ("c", one(&["1.0.1"], true)),
        ("d", one(&["1.0.2"], false)),
        ("e", one(&["1.0.3"], true)),
        ("f", one(&["1.0.4", "1.0.5"], false)),
    ]
}

struct Cat {
    meta: ClusterCatalog,
    content: Option<CatalogContent>,
}

fn cat(name: &str, priority: i32, fbc: &Fbc) -> Cat {
    let mut meta = ClusterCatalog::named(name);
    meta.priority = priority;
    Cat {
        meta,
        content: Some(fbc.content()),
    }
}

fn ext(package: &str) -> ClusterExtension {
    ClusterExtension {
        name: "ext".into(),
        namespace: "ns".into(),
        package: package.into(),
        version: String::new(),
        channels: Vec::new(),
        selector: None,
        policy: UpgradePolicy::CatalogProvided,
        installed: None,
        location: Location::new(std::sync::Arc::from("test"), 0),
    }
}

trait With {
    fn version(self, v: &str) -> Self;
    fn channels(self, c: &[&str]) -> Self;
    fn installed(self, name: &str, version: &str) -> Self;
    fn self_certified(self) -> Self;
    fn select(self, catalog: &str) -> Self;
}

impl With for ClusterExtension {
    fn version(mut self, v: &str) -> Self {
        self.version = v.into();
        self
    }
    fn channels(mut self, c: &[&str]) -> Self {
        self.channels = c.iter().map(|x| (*x).to_owned()).collect();
        self
    }
    fn installed(mut self, name: &str, version: &str) -> Self {
        self.installed = Some(InstalledBundle {
            name: name.into(),
            version: version.into(),
            release: None,
        });
        self
    }
    fn self_certified(mut self) -> Self {
        self.policy = UpgradePolicy::SelfCertified;
        self
    }
    fn select(mut self, catalog: &str) -> Self {
        let mut sel = LabelSelector::default();
        sel.match_labels.insert(NAME_LABEL.into(), catalog.into());
        self.selector = Some(sel);
        self
    }
}

/// `bundle@catalog version` or the error text.
fn run(cats: &[Cat], e: &ClusterExtension) -> String {
    let catalogs: Vec<Catalog<'_>> = cats
        .iter()
        .map(|c| Catalog {
            meta: &c.meta,
            content: c.content.as_ref(),
        })
        .collect();
    match resolve(&catalogs, e, Gates::default()).result {
        Ok(r) => format!(
            "{}@{} {}",
            r.bundle,
            r.catalog,
            r.reported_version(Gates::default())
        ),
        Err(e) => e.to_string(),
    }
}

fn ok(result: &str) -> &str {
    result.split('@').next().unwrap_or_default()
}

fn gcat() -> Vec<Cat> {
    vec![cat("c", 0, &g())]
}

#[test]
fn rows_1_to_15_single_catalog() {
    let c = gcat();
    assert_eq!(ok(&run(&c, &ext("p"))), "p.v3.0.0", "1");
    assert_eq!(
        run(&c, &ext("p").version("4.0.0")),
        r#"no bundles found for package "p" matching version "4.0.0""#,
        "2"
    );
    assert_eq!(
        ok(&run(&c, &ext("p").version(">=1.0.0 <2.0.0"))),
        "p.v1.0.2",
        "3"
    );
    assert_eq!(
        run(&c, &ext("p").channels(&["stable"])),
        r#"no bundles found for package "p" in channels [stable]"#,
        "4"
    );
    assert_eq!(ok(&run(&c, &ext("p").channels(&["beta"]))), "p.v1.0.2", "5");
    assert_eq!(
        run(&c, &ext("p").channels(&["beta"]).version("3.0.0")),
        r#"no bundles found for package "p" matching version "3.0.0" in channels [beta]"#,
        "6"
    );
    assert_eq!(
        run(&c, &ext("p").channels(&["stable"]).version("1.0.0")),
        r#"no bundles found for package "p" matching version "1.0.0" in channels [stable]"#,
        "7"
    );
    assert_eq!(
        ok(&run(&c, &ext("p").channels(&["alpha"]).version("0.1.0"))),
        "p.v0.1.0",
        "8"
    );
    assert_eq!(
        ok(&run(&c, &ext("p").version(">=0.1.0 <=1.0.0"))),
        "p.v0.1.0",
        "9"
    );
    assert_eq!(
        ok(&run(&c, &ext("p").version(">=1.0.0 <=1.0.1"))),
        "p.v1.0.1",
        "10"
    );
    assert_eq!(
        ok(&run(&c, &ext("p").channels(&["beta", "alpha"]))),
        "p.v2.0.0",
        "11"
    );
    assert_eq!(
        ok(&run(&c, &ext("p").installed("p.v0.1.0", "0.1.0"))),
        "p.v1.0.2",
        "12"
    );
    assert_eq!(
        run(
            &c,
            &ext("p")
                .version("<1.0.0 >=2.0.0")
                .installed("p.v0.1.0", "0.1.0")
        ),
        r#"error upgrading from currently installed version "0.1.0": no bundles found for package "p" matching version "<1.0.0 >=2.0.0""#,
        "13"
    );
    assert_eq!(
        ok(&run(
            &c,
            &ext("p")
                .version("<1.0.2")
                .self_certified()
                .installed("p.v1.0.2", "1.0.2")
        )),
        "p.v0.1.0",
        "14"
    );
    assert_eq!(
        run(
            &c,
            &ext("p")
                .version(">0.1.0 <1.0.0")
                .self_certified()
                .installed("p.v1.0.2", "1.0.2")
        ),
        r#"error upgrading from currently installed version "1.0.2": no bundles found for package "p" matching version ">0.1.0 <1.0.0""#,
        "15"
    );
}

#[test]
fn rows_16_17_invalid_inputs() {
    let c = gcat();
    assert_eq!(
        run(&c, &ext("p").version("foobar")),
        r#"desired version range "foobar" is invalid: improper constraint: "foobar""#
    );
    let mut e = ext("p");
    e.selector = Some(LabelSelector {
        match_labels: Default::default(),
        match_expressions: vec![Requirement {
            key: "name".into(),
            operator: "bad".into(),
            values: vec!["x".into()],
        }],
    });
    assert_eq!(
        run(&c, &e),
        r#"desired catalog selector is invalid: "bad" is not a valid label selector operator"#
    );
    let mut e = ext("p");
    e.selector = Some(LabelSelector {
        match_labels: [("".to_owned(), "value".to_owned())].into(),
        match_expressions: Vec::new(),
    });
    assert!(run(&c, &e).starts_with("desired catalog selector is invalid: key: Invalid value:"));
    let mut e = ext("p");
    e.selector = Some(LabelSelector {
        match_labels: [("name".to_owned(), "&value".to_owned())].into(),
        match_expressions: Vec::new(),
    });
    assert!(run(&c, &e)
        .starts_with("desired catalog selector is invalid: values[0][name]: Invalid value:"));
}

#[test]
fn rows_18_to_21_selectors_and_priorities() {
    let two = vec![cat("a", 0, &Fbc::default()), cat("b", 0, &g())];
    assert_eq!(
        run(&two, &ext("p").select("a")),
        r#"no bundles found for package "p""#,
        "18"
    );
    let both = vec![cat("a", 0, &g()), cat("b", 0, &g())];
    assert_eq!(run(&both, &ext("p").select("b")), "p.v3.0.0@b 3.0.0", "19");
    let a = Fbc::default()
        .package("p")
        .channel("p", "alpha", &[("p.v1.0.0", "", "", "")])
        .bundle("p", "p.v1.0.0", "1.0.0");
    let b = Fbc::default()
        .package("p")
        .channel("p", "alpha", &[("p.v1.1.0", "", "", "")])
        .bundle("p", "p.v1.1.0", "1.1.0");
    assert_eq!(
        run(&[cat("a", 1, &a), cat("b", 0, &b)], &ext("p")),
        "p.v1.0.0@a 1.0.0",
        "20"
    );
    let three = vec![cat("a", 1, &g()), cat("b", 0, &g()), cat("c", 1, &g())];
    assert_eq!(
        run(&three, &ext("p").version(">=1.0.0 <=1.0.1")),
        r#"found bundles for package "p" matching version ">=1.0.0 <=1.0.1" in multiple catalogs with the same priority [a b c]"#,
        "21"
    );
}

#[test]
fn rows_22_to_25_variations_between_catalogs() {
    let cats: Vec<Cat> = v_fixture().iter().map(|(n, f)| cat(n, 0, f)).collect();
    assert_eq!(
        run(&cats, &ext("p").version(">=1.0.0 <=1.0.3")),
        "p.v1.0.2@d 1.0.2"
    );
    assert_eq!(
        run(&cats, &ext("p").version(">=1.0.0 <=1.0.1")),
        r#"found bundles for package "p" matching version ">=1.0.0 <=1.0.1" in multiple catalogs with the same priority [b c]"#
    );
    assert_eq!(
        run(&cats, &ext("p").version(">=1.0.0 <=1.0.4")),
        r#"found bundles for package "p" matching version ">=1.0.0 <=1.0.4" in multiple catalogs with the same priority [d f]"#
    );
    assert_eq!(
        run(&cats, &ext("p").version(">=1.0.4 <=1.0.5")),
        "p.v1.0.5@f 1.0.5"
    );
    // The chosen catalog's deprecation blob comes back (none for d).
    let catalogs: Vec<Catalog<'_>> = cats
        .iter()
        .map(|c| Catalog {
            meta: &c.meta,
            content: c.content.as_ref(),
        })
        .collect();
    let r = resolve(
        &catalogs,
        &ext("p").version(">=1.0.0 <=1.0.3"),
        Gates::default(),
    )
    .result
    .unwrap();
    assert_eq!(r.deprecations, None);
}

#[test]
fn rows_26_to_28_availability_and_serving() {
    let mut x = cat("x", 0, &g());
    let mut y = cat("y", 0, &g());
    x.meta.availability = Availability::Unavailable;
    y.meta.availability = Availability::Unavailable;
    assert_eq!(
        run(&[x, y], &ext("p").version(">=1.0.0")),
        r#"no bundles found for package "p" matching version ">=1.0.0""#,
        "26"
    );
    let mut off = cat("off", 0, &g());
    off.meta.availability = Availability::Unavailable;
    assert_eq!(
        ok(&run(
            &[cat("on", 1, &g()), off],
            &ext("p").version(">=1.0.0")
        )),
        "p.v3.0.0",
        "27"
    );
    let mut a = cat("a", 0, &g());
    a.meta.serving = Serving::No;
    assert_eq!(
        run(&[a, cat("b", 0, &g())], &ext("p")),
        r#"error walking catalogs: error getting package "p" from catalog "a": catalog "a" is not being served"#,
        "28"
    );
    // Offline: a ClusterCatalog without content is not being served.
    let missing = Cat {
        meta: ClusterCatalog::named("a"),
        content: None,
    };
    assert_eq!(
        run(&[missing], &ext("p")),
        r#"error walking catalogs: error getting package "p" from catalog "a": catalog "a" is not being served"#
    );
}

#[test]
fn row_29_and_validation_dependencies() {
    for property in ["olm.package.required", "olm.gvk.required", "olm.constraint"] {
        let mut f = g();
        // Replace p.v3.0.0 (a later blob with the same name wins).
        f = f.bundle_with(
            "p",
            "p.v3.0.0",
            "3.0.0",
            json!({"type": property, "value": {}}),
        );
        assert_eq!(
            run(&[cat("c", 0, &f)], &ext("p")),
            format!(
                r#"validating bundle "p.v3.0.0": bundle "p.v3.0.0" has a dependency declared via property "{property}" which is currently not supported"#
            )
        );
    }
    // Properties on bundles that are not chosen do not matter.
    let f = g().bundle_with(
        "p",
        "p.v2.0.0",
        "2.0.0",
        json!({"type": "olm.package.required", "value": {}}),
    );
    assert_eq!(ok(&run(&[cat("c", 0, &f)], &ext("p"))), "p.v3.0.0");
}

#[test]
fn rows_30_to_35_successors() {
    let c = vec![cat("c", 0, &s())];
    let t = || ext("test-package");
    assert_eq!(
        ok(&run(&c, &t().installed("t.v2.0.0", "2.0.0"))),
        "t.v2.1.0",
        "30"
    );
    assert_eq!(
        ok(&run(&c, &t().installed("t.v2.2.1", "2.2.1"))),
        "t.v2.3.0",
        "31"
    );
    assert_eq!(
        ok(&run(&c, &t().installed("t.v2.3.0", "2.3.0"))),
        "t.v2.4.0",
        "32"
    );
    assert_eq!(
        ok(&run(&c, &t().installed("t.v2.0.0+1", "2.0.0+1"))),
        "t.v2.2.0",
        "33"
    );
    assert_eq!(
        run(&c, &t().installed("t.v9.0.0", "9.0.0")),
        r#"error upgrading from currently installed version "9.0.0": no bundles found for package "test-package""#,
        "34"
    );
    let p = "package1";
    let f = Fbc::default()
        .package(p)
        .channel(
            p,
            "c",
            &[
                ("package1.v0.0.1", "", "", ""),
                ("package1.v0.0.2", "package1.v0.0.1", "", ""),
                ("package1.v0.0.3", "package1.v0.0.2", "", ""),
                ("package1.v0.0.4", "", "package1.v0.0.1", ""),
                ("package1.v0.0.5", "", "", "<=0.0.1"),
            ],
        )
        .bundle(p, "package1.v0.0.1", "0.0.1")
        .bundle(p, "package1.v0.0.2", "0.0.2")
        .bundle(p, "package1.v0.0.3", "0.0.3")
        .bundle(p, "package1.v0.0.4", "0.0.4")
        .bundle(p, "package1.v0.0.5", "0.0.5");
    assert_eq!(
        ok(&run(
            &[cat("c", 0, &f)],
            &ext(p).installed("package1.v0.0.1", "0.0.1")
        )),
        "package1.v0.0.5",
        "35"
    );
    // Without the 0.0.4 and 0.0.5 edges, 0.0.3 (two hops away) is still not reachable.
    assert_eq!(
        ok(&run(
            &[cat("c", 0, &f)],
            &ext(p)
                .installed("package1.v0.0.1", "0.0.1")
                .version("<0.0.4")
        )),
        "package1.v0.0.2"
    );
}

#[test]
fn rows_36_to_44_derived_upgrades() {
    let c = gcat();
    assert_eq!(
        ok(&run(&c, &ext("p").installed("p.v1.0.0", "1.0.0"))),
        "p.v2.0.0",
        "36"
    );
    assert_eq!(
        ok(&run(
            &c,
            &ext("p").channels(&["beta"]).installed("p.v1.0.0", "1.0.0")
        )),
        "p.v1.0.2",
        "37"
    );
    assert_eq!(
        ok(&run(&c, &ext("p").installed("p.v2.0.0", "2.0.0"))),
        "p.v3.0.0",
        "38"
    );
    assert_eq!(
        ok(&run(&c, &ext("p").installed("p.v3.0.0", "3.0.0"))),
        "p.v3.0.0",
        "39"
    );
    assert_eq!(
        run(
            &c,
            &ext("p").version("<3.0.0").installed("p.v3.0.0", "3.0.0")
        ),
        r#"error upgrading from currently installed version "3.0.0": no bundles found for package "p" matching version "<3.0.0""#,
        "40"
    );
    assert_eq!(
        run(
            &c,
            &ext("p").channels(&["gamma"]).installed("p.v1.0.2", "1.0.2")
        ),
        r#"error upgrading from currently installed version "1.0.2": no bundles found for package "p" in channels [gamma]"#,
        "41"
    );
    assert_eq!(
        ok(&run(&c, &ext("p").installed("p.v0.5.0", "0.5.0"))),
        "p.v1.0.2",
        "42"
    );
    assert_eq!(
        ok(&run(
            &c,
            &ext("p")
                .version(">=1.0.2 <2.0.0")
                .installed("p.v1.0.0", "1.0.0")
        )),
        "p.v1.0.2",
        "43"
    );
    assert_eq!(
        run(&c, &ext("p").version("2.x").installed("p.v0.1.0", "0.1.0")),
        r#"error upgrading from currently installed version "0.1.0": no bundles found for package "p" matching version "2.x""#,
        "44"
    );
}

#[test]
fn rows_45_to_48_prereleases_and_releases() {
    let f = Fbc::default()
        .package("p")
        .bundle("p", "p.v1.0.0", "1.0.0")
        .bundle("p", "p.v1.1.0-rc.1", "1.1.0-rc.1");
    let c = vec![cat("c", 0, &f)];
    assert_eq!(ok(&run(&c, &ext("p"))), "p.v1.1.0-rc.1", "45");
    assert_eq!(ok(&run(&c, &ext("p").version(">=1.0.0"))), "p.v1.0.0", "46");
    assert_eq!(
        ok(&run(&c, &ext("p").version(">=1.0.0-0"))),
        "p.v1.1.0-rc.1",
        "47"
    );
    let f = Fbc::default()
        .package("p")
        .bundle("p", "p.v1.0.0", "1.0.0")
        .bundle("p", "p.v1.0.0-1", "1.0.0+1")
        .bundle("p", "p.v1.0.0-2", "1.0.0+2");
    assert_eq!(
        run(&[cat("c", 0, &f)], &ext("p").version("1.0.0")),
        "p.v1.0.0-2@c 1.0.0+2",
        "48"
    );
}

#[test]
fn rows_49_to_51_grammar_and_skip_ranges() {
    let c = gcat();
    // 49: admission would reject the hyphen range; Masterminds reads >= 1.2, <= 1.4.
    assert_eq!(
        run(&c, &ext("p").version("1.2 - 1.4")),
        r#"no bundles found for package "p" matching version "1.2 - 1.4""#
    );
    assert_eq!(ok(&run(&c, &ext("p").version("0.1 - 1.0"))), "p.v1.0.2");
    assert_eq!(
        run(&c, &ext("p").version("1.0.0 || foo")),
        r#"desired version range "1.0.0 || foo" is invalid: improper constraint: " foo""#
    );
    // 51: an unparseable skipRange (a partial version blang rejects) makes no edge.
    let f = Fbc::default()
        .package("p")
        .channel(
            "p",
            "s",
            &[("p.v1.0.0", "", "", ""), ("p.v1.3.0", "", "", "<1.3")],
        )
        .bundle("p", "p.v1.0.0", "1.0.0")
        .bundle("p", "p.v1.3.0", "1.3.0");
    assert_eq!(
        ok(&run(
            &[cat("c", 0, &f)],
            &ext("p").installed("p.v1.0.0", "1.0.0")
        )),
        "p.v1.0.0"
    );
}

#[test]
fn rows_52_53_deprecation_before_priority() {
    let x = Fbc::default()
        .package("p")
        .bundle("p", "p.v2.0.0", "2.0.0")
        .deprecate("p", &["p.v2.0.0"]);
    let y = Fbc::default().package("p").bundle("p", "p.v1.0.0", "1.0.0");
    assert_eq!(
        run(&[cat("x", 0, &x), cat("y", 0, &y)], &ext("p")),
        "p.v1.0.0@y 1.0.0",
        "52"
    );
    assert_eq!(
        run(&[cat("x", 5, &x), cat("y", 0, &y)], &ext("p")),
        "p.v1.0.0@y 1.0.0",
        "53"
    );
}

#[test]
fn more_reference_tests() {
    // TestPackageDoesNotExist
    let empty = vec![
        cat("a", 0, &Fbc::default()),
        cat("b", 0, &Fbc::default()),
        cat("c", 0, &Fbc::default()),
    ];
    assert_eq!(
        run(&empty, &ext("p")),
        r#"no bundles found for package "p""#
    );
    // Installed version unparseable: reported only when some catalog has the package.
    assert_eq!(
        run(&gcat(), &ext("p").installed("p.bad", "invalid")),
        "error walking catalogs: error finding upgrade edges: failed to get version and release of installed bundle: No Major.Minor.Patch elements found"
    );
    assert_eq!(
        run(&empty, &ext("p").installed("p.bad", "invalid")),
        r#"error upgrading from currently installed version "invalid": no bundles found for package "p""#
    );
    // Under SelfCertified it is never parsed.
    assert_eq!(
        ok(&run(
            &gcat(),
            &ext("p").installed("p.bad", "invalid").self_certified()
        )),
        "p.v3.0.0"
    );
    // A bundle stored under another package's directory is found by its package field.
    let f = Fbc::default().package("q").bundle("p", "p.v1.0.0", "1.0.0");
    assert_eq!(ok(&run(&[cat("c", 0, &f)], &ext("p"))), "p.v1.0.0");
    // An explicit release on the installed bundle: its name is absent from the
    // catalog and no bundle has its version and release, so nothing qualifies.
    let mut e = ext("test-package");
    e.installed = Some(InstalledBundle {
        name: "t.v2.0.0-x".into(),
        version: "2.0.0".into(),
        release: Some("2".into()),
    });
    assert_eq!(
        run(&[cat("c", 0, &s())], &e),
        r#"error upgrading from currently installed version "2.0.0": no bundles found for package "test-package""#
    );
    // With release 1 it stays on t.v2.0.0+1 (2.0.0 with release 1 in legacy form).
    e.installed = Some(InstalledBundle {
        name: "t.v2.0.0-x".into(),
        version: "2.0.0".into(),
        release: Some("1".into()),
    });
    assert_eq!(ok(&run(&[cat("c", 0, &s())], &e)), "t.v2.0.0+1");
}

#[test]
fn explanation_names_the_filter_that_emptied_the_set() {
    let c = gcat();
    let catalogs: Vec<Catalog<'_>> = c
        .iter()
        .map(|c| Catalog {
            meta: &c.meta,
            content: c.content.as_ref(),
        })
        .collect();
    let out = resolve(
        &catalogs,
        &ext("p").version("<3.0.0").installed("p.v3.0.0", "3.0.0"),
        Gates::default(),
    );
    let ex = out.explanation;
    let steps: Vec<(String, usize, usize)> = ex
        .steps
        .iter()
        .map(|s| (s.filter.describe().to_owned(), s.before, s.after))
        .collect();
    assert_eq!(
        steps,
        [
            ("catalogs selected".to_owned(), 1, 1),
            ("package present".to_owned(), 1, 6),
            ("version range".to_owned(), 6, 5),
            ("successors of the installed bundle".to_owned(), 5, 0),
            ("deprecation ordering".to_owned(), 0, 0),
            ("catalog priority".to_owned(), 0, 0),
        ]
    );
    assert_eq!(
        ex.emptied_by.map(|f| f.describe()),
        Some("successors of the installed bundle")
    );
    assert_eq!(
        ex.nearest_miss.as_deref(),
        Some("2.0.0 is in range but not a successor of the installed 3.0.0: nothing replaces, skips or skipRange-matches p.v3.0.0 in channels alpha, beta, gamma")
    );
}
