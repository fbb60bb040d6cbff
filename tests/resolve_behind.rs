//! Subscriptions that stay behind (`tests/behind/`): an installed CSV that is
//! not its channel's head, for which OLM plans nothing. `resolve` and
//! `simulate` say why in one line, with a hint, in text and JSON.

mod common;

use common::olmsat;
use serde_json::Value;

const CATALOGS: &str = "tests/behind/catalogs";
const CLUSTER: &str = "tests/behind/cluster.yaml";

/// The gizmo line: its installed CSV is in another channel only.
const GIZMO: &str = "subscription gizmo stays at gizmo.v1.0.0 (channel stable, whose head is gizmo.v2.0.0): gizmo.v1.0.0 is not in channel stable; nothing in channel stable takes gizmo.v1.0.0: no entry replaces it, none skips it, no skipRange contains its version 1.0.0";
const GIZMO_HINT: &str = "channel legacy (head gizmo.v1.1.0; OLM v0 reaches it in 1 step) takes it: set spec.channel of subscription gizmo to it";
/// The widget line: OLM v0's walk goes on, but the next step needs an API
/// nothing provides.
const WIDGET: &str = "subscription widget stays at widget.v1.0.0 (channel stable, whose head is widget.v1.1.0): OLM v0 would take it to widget.v1.1.0 next, but this resolution passes community/olm/stable/widget.v1.1.0 over: bundle widget.v1.1.0 requires an operator providing an API with group: example.com, version: v1, kind: Gadget";

fn json(o: &std::process::Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}):\n{}\n{}",
            common::stdout(o),
            common::stderr(o)
        )
    })
}

#[test]
fn resolve_says_why_a_subscription_stays_behind() {
    let o = olmsat(&["resolve", "--catalogs", CATALOGS, "-f", CLUSTER]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    assert_eq!(
        common::stdout(&o).lines().collect::<Vec<_>>(),
        [
            "namespace operators: resolved, nothing to install or upgrade",
            &format!("  stays behind: {GIZMO}"),
            &format!("    hint: {GIZMO_HINT}"),
            &format!("  stays behind: {WIDGET}"),
        ]
    );
}

#[test]
fn resolve_json_carries_the_reasons() {
    let o = olmsat(&[
        "resolve",
        "--catalogs",
        CATALOGS,
        "-f",
        CLUSTER,
        "-o",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let v = json(&o);
    let behind = v["namespaces"][0]["behind"].as_array().expect("behind");
    assert_eq!(behind.len(), 2, "{behind:#?}");
    let gizmo = &behind[0];
    assert_eq!(gizmo["subscription"], "gizmo");
    assert_eq!(gizmo["package"], "gizmo");
    assert_eq!(gizmo["channel"], "stable");
    assert_eq!(gizmo["installed"], "gizmo.v1.0.0");
    assert_eq!(gizmo["head"], "gizmo.v2.0.0");
    assert_eq!(gizmo["hint"], GIZMO_HINT);
    assert!(GIZMO.ends_with(gizmo["reason"].as_str().expect("reason")));
    // The path's reasons as data, as `olmsat path -o json` has them.
    assert_eq!(gizmo["why"]["notInChannel"], true);
    assert_eq!(gizmo["why"]["nothingTakesIt"], true);
    assert_eq!(gizmo["why"]["otherChannels"][0]["channel"], "legacy");
    let widget = &behind[1];
    assert_eq!(widget["subscription"], "widget");
    assert!(widget.get("hint").is_none());
    assert!(WIDGET.ends_with(widget["reason"].as_str().expect("reason")));
}

#[test]
fn simulate_says_it_in_the_final_state() {
    let o = olmsat(&["simulate", "--catalogs", CATALOGS, "-f", CLUSTER]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let text = common::stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..4],
        [
            "namespace operators: converged after 0 step(s)",
            &format!("  stays behind: {GIZMO}"),
            &format!("    hint: {GIZMO_HINT}"),
            &format!("  stays behind: {WIDGET}"),
        ]
    );
    let o = olmsat(&[
        "simulate",
        "--catalogs",
        CATALOGS,
        "-f",
        CLUSTER,
        "-o",
        "json",
    ]);
    let v = json(&o);
    let behind = v["namespaces"][0]["behind"].as_array().expect("behind");
    let names: Vec<&str> = behind
        .iter()
        .map(|b| b["subscription"].as_str().expect("name"))
        .collect();
    assert_eq!(names, ["gizmo", "widget"]);
}

#[test]
fn an_operator_that_upgrades_does_not_stay_behind() {
    // Once gizmo follows channel legacy, OLM upgrades it: no line for it.
    let cluster = std::fs::read_to_string(common::root().join(CLUSTER))
        .expect("cluster")
        .replace(
            "spec: {name: gizmo, channel: stable,",
            "spec: {name: gizmo, channel: legacy,",
        );
    let o = common::olmsat_stdin(
        &["resolve", "--catalogs", CATALOGS, "-f", "-"],
        cluster.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let text = common::stdout(&o);
    assert!(
        text.contains("gizmo.v1.1.0  upgrade from gizmo.v1.0.0"),
        "{text}"
    );
    assert!(!text.contains("subscription gizmo stays"), "{text}");
    assert!(text.contains("subscription widget stays"), "{text}");
}
