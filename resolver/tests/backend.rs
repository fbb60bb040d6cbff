//! The resolver is generic over its SAT backend: any backend gives the
//! default backend's answers, and a failing backend is reported as such.

use std::cell::Cell;
use std::path::Path;
use std::rc::Rc;

use olmsat_catalog::load::load_bytes;
use olmsat_catalog::model::Model;
use olmsat_resolver::cluster;
use olmsat_resolver::resolve::{
    namespaces, resolve, resolve_with, CatalogInput, Input, Options, Outcome, ResolveError,
};
use olmsat_resolver::sat::{BackendError, Lit, Outcome as SatOutcome, SatBackend, Varisat};

/// Varisat, counting the solve calls it answers.
struct Counting {
    inner: Varisat,
    solves: Rc<Cell<usize>>,
}

impl SatBackend for Counting {
    fn new_var(&mut self) -> Lit {
        self.inner.new_var()
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        self.inner.add_clause(lits);
    }
    fn solve(&mut self, assumptions: &[Lit]) -> Result<SatOutcome, BackendError> {
        self.solves.set(self.solves.get() + 1);
        self.inner.solve(assumptions)
    }
}

/// A backend whose solver always fails.
#[derive(Default)]
struct Broken {
    vars: u32,
}

impl SatBackend for Broken {
    fn new_var(&mut self) -> Lit {
        self.vars += 1;
        Lit::positive(self.vars - 1)
    }
    fn add_clause(&mut self, _: &[Lit]) {}
    fn solve(&mut self, _: &[Lit]) -> Result<SatOutcome, BackendError> {
        Err(BackendError("out of order".into()))
    }
}

/// A scenario of `tests/scenarios`: its one catalog and its cluster.
fn scenario(name: &str) -> Input {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/scenarios")
        .join(name);
    let catalogs = std::fs::read_dir(dir.join("catalogs"))
        .expect("catalogs")
        .map(|d| {
            let d = d.expect("catalog").path();
            let file = d.join("catalog.json");
            let bytes = std::fs::read(&file).expect("catalog.json");
            let loaded = load_bytes("catalog.json", &bytes);
            let (model, _) = Model::build(loaded.config);
            let name = d.file_name().expect("name").to_string_lossy().into_owned();
            CatalogInput { name, model }
        })
        .collect();
    let text = std::fs::read_to_string(dir.join("cluster.yaml")).expect("cluster.yaml");
    let cluster = cluster::parse("cluster.yaml", &text).expect("cluster");
    Input {
        catalogs,
        cluster,
        global_namespace: "olm".into(),
        allow_missing_catalogs: false,
    }
}

#[test]
fn another_backend_gives_the_same_answers() {
    let mut seen = (false, false);
    for name in [
        "s05-upgrade-replaces",
        "s07-unsat-explained",
        "s01-gvk-dependency",
    ] {
        let input = scenario(name);
        for ns in namespaces(&input.cluster) {
            let solves = Rc::new(Cell::new(0));
            let backend = Counting {
                inner: Varisat::default(),
                solves: Rc::clone(&solves),
            };
            let default = resolve(&input, &ns, Options::default()).expect("resolves");
            let other = resolve_with(&input, &ns, Options::default(), backend).expect("resolves");
            assert_eq!(default.outcome, other.outcome, "{name} {ns}");
            assert!(solves.get() > 0, "{name} {ns}: the backend was not asked");
            match other.outcome {
                Outcome::Resolved { .. } => seen.0 = true,
                Outcome::Unsatisfiable { .. } => seen.1 = true,
            }
        }
    }
    assert_eq!(seen, (true, true), "both kinds of answer were compared");
}

#[test]
fn a_failing_backend_is_an_error() {
    let input = scenario("s05-upgrade-replaces");
    let ns = namespaces(&input.cluster).remove(0);
    let got = resolve_with(&input, &ns, Options::default(), Broken::default());
    assert_eq!(
        got.map(|r| r.outcome),
        Err(ResolveError::Solver(
            "SAT backend failed: out of order".into()
        ))
    );
}
