//! `olmsat graph` as a process.

#[path = "cli_common/mod.rs"]
mod common;

use common::{corpus, olmsat, olmsat_in};

const AWS: &str = "aws-load-balancer-operator/catalog/v4.20";

#[test]
fn dot_has_a_cluster_per_package_and_channel() {
    let r = olmsat(&["graph", AWS]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("digraph upgrades {\n"));
    assert_eq!(r.stdout.matches("subgraph cluster_0_").count(), 4);
    assert!(r
        .stdout
        .contains("label=\"channel stable-v1\\nhead: aws-load-balancer-operator.v1.3.2\""));
    // Same input, same bytes.
    assert_eq!(olmsat(&["graph", AWS]).stdout, r.stdout);
}

#[test]
fn mermaid_in_opm_style() {
    let r = olmsat(&["graph", AWS, "--channel", "stable-v1.3", "-o", "mermaid"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "graph LR");
    assert!(lines[1..4].iter().all(|l| l.starts_with("  classDef ")));
    assert!(r
        .stdout
        .contains("    subgraph aws-load-balancer-operator-stable-v1.3[\"stable-v1.3\"]\n"));
    assert!(r.stdout.contains("aws-load-balancer-operator-stable-v1.3-aws-load-balancer-operator.v1.3.0[\"aws-load-balancer-operator.v1.3.0\"]-- \"skipRange(<1.3.2)\" --> aws-load-balancer-operator-stable-v1.3-aws-load-balancer-operator.v1.3.2[\"aws-load-balancer-operator.v1.3.2\"]"));
}

#[test]
fn minimum_edge() {
    let r = olmsat(&[
        "graph",
        AWS,
        "-o",
        "mermaid",
        "--minimum-edge",
        "aws-load-balancer-operator.v1.3.0",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains("v1.2.0"), "{}", r.stdout);
    let r = olmsat(&["graph", AWS, "--minimum-edge", "nope"]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr, "olmsat: unknown minimum edge name: \"nope\"\n");
}

#[test]
fn json_has_nodes_and_edges_with_provenance() {
    let r = olmsat(&["graph", AWS, "--channel", "stable-v1.1", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = match serde_json::from_str(&r.stdout) {
        Ok(v) => v,
        Err(e) => panic!("{e}: {}", r.stdout),
    };
    let ch = &v["packages"][0]["channels"][0];
    assert_eq!(ch["name"], "stable-v1.1");
    assert_eq!(ch["head"], "aws-load-balancer-operator.v1.1.1");
    assert!(ch["deprecated"].is_string());
    assert_eq!(ch["edges"][0]["kind"], "replaces");
    assert_eq!(
        ch["edges"][0]["file"],
        "aws-load-balancer-operator/catalog/v4.20/catalog.yaml"
    );
}

#[test]
fn highlight_and_unknown_starts() {
    let r = olmsat(&[
        "graph",
        AWS,
        "--channel",
        "stable-v1",
        "--highlight-from",
        "aws-load-balancer-operator.v1.1.0",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("OLM v0 from aws-load-balancer-operator.v1.1.0: reaches the head aws-load-balancer-operator.v1.3.2 in 1 step"));
    assert!(r.stdout.contains("penwidth=3"));
    let r = olmsat(&["graph", AWS, "--highlight-from", "nope"]);
    assert_eq!(r.code, 1);
    assert!(r
        .stderr
        .starts_with("olmsat: cannot highlight a path: unknown bundle \"nope\""));
    let r = olmsat(&["graph", AWS, "--package", "aws"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("unknown package \"aws\""));
}

#[test]
fn svg_needs_graphviz() {
    // No `dot` on an empty PATH: a clear message and exit code 2.
    let empty = std::env::temp_dir();
    let r = olmsat_in(
        &corpus(),
        &["graph", AWS, "--channel", "stable-v1.1", "-o", "svg"],
        "",
        &[("PATH", &empty.display().to_string())],
    );
    if r.code == 0 {
        println!("note: a `dot` program is in the temporary directory; skipping");
        return;
    }
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("needs Graphviz's `dot` program"),
        "{}",
        r.stderr
    );
    // With Graphviz installed, SVG comes out.
    let r = olmsat(&["graph", AWS, "--channel", "stable-v1.1", "-o", "svg"]);
    if r.code == 2 && r.stderr.contains("needs Graphviz") {
        common::support::skip(
            "the SVG check",
            "Graphviz `dot` is not installed (CI installs it; see .ci/run)",
        );
        return;
    }
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("<svg"));
}
