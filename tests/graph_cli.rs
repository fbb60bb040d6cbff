//! `olmsat graph` as a process.
#![allow(clippy::print_stdout, clippy::print_stderr)] // progress of long corpus runs

#[path = "cli_common/mod.rs"]
mod common;

use common::{corpus, olmsat, olmsat_in};

const AWS: &str = "aws-load-balancer-operator/catalog/v4.20";

#[test]
fn dot_has_a_cluster_per_package_and_channel() {
    // Every edge, drawn as before the folded view.
    let r = olmsat(&["graph", AWS, "--edges", "all"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("digraph upgrades {\n"));
    assert_eq!(r.stdout.matches("subgraph cluster_0_").count(), 4);
    assert!(r
        .stdout
        .contains("label=\"channel stable-v1\\nhead: aws-load-balancer-operator.v1.3.2\""));
    // Same input, same bytes.
    assert_eq!(olmsat(&["graph", AWS, "--edges", "all"]).stdout, r.stdout);
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

#[test]
fn default_view_folds_implied_edges_with_a_note() {
    let r = olmsat(&["graph", AWS, "--channel", "stable-v1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r
        .stdout
        .starts_with("digraph upgrades {\n  // 11 edges folded; `--edges all` shows them\n"));
    assert!(r.stdout.contains(
        "label=\"channel stable-v1\\nhead: aws-load-balancer-operator.v1.3.2\\n11 edges folded\";"
    ));
    assert!(r.stdout.ends_with(
        "  label=\"11 edges folded; `--edges all` shows them\";\n  labelloc=b; labeljust=l;\n}\n"
    ));
    // Versions left to right; the bundle name is in the tooltip.
    assert!(r.stdout.contains("      n0_0_2 [label=\"1.2.0\", tooltip=\"aws-load-balancer-operator.v1.2.0\\nskipRange <1.2.0\"];\n"));
    assert!(r.stdout.contains("      n0_0_4 -> n0_0_5 [style=invis];\n"));
    // Every replaces edge and OLM's step from each bundle (the head's range).
    let drawn: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.contains(" -> n0_0_") && !l.contains("invis"))
        .map(|l| l.split(" [").next().unwrap_or_default().trim())
        .collect();
    assert_eq!(
        drawn,
        vec![
            "n0_0_0 -> n0_0_1",
            "n0_0_0 -> n0_0_5",
            "n0_0_1 -> n0_0_2",
            "n0_0_1 -> n0_0_5",
            "n0_0_2 -> n0_0_3",
            "n0_0_2 -> n0_0_5",
            "n0_0_3 -> n0_0_4",
            "n0_0_3 -> n0_0_5",
            "n0_0_4 -> n0_0_5",
        ]
    );
    // Every edge, drawn as before.
    let all = olmsat(&["graph", AWS, "--channel", "stable-v1", "--edges", "all"]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    assert_eq!(all.stdout.matches("label=\"replaces\", tooltip").count(), 5);
    assert_eq!(all.stdout.matches("label=\"skipRange\\n").count(), 15);
    assert!(!all.stdout.contains("folded"));
}

#[test]
fn edges_by_kind_and_unknown_kinds() {
    let r = olmsat(&[
        "graph",
        AWS,
        "--channel",
        "stable-v1",
        "--edges",
        "skipRange",
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap_or_default();
    let edges = v["packages"][0]["channels"][0]["edges"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(edges.len(), 15);
    assert!(edges.iter().all(|e| e["kind"] == "skipRange"));
    assert!(v.get("folded").is_none() && v.get("note").is_none());
    let r = olmsat(&["graph", AWS, "--edges", "replaces,skiprange"]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: invalid value 'replaces,skiprange' for '--edges <folded|all|KINDS>': unknown edge kind \"skiprange\": use all, folded, or kinds among replaces, skips, skipRange separated by commas\n\nFor more information, try '--help'.\n"
    );
}

#[test]
fn json_counts_folded_edges_and_has_a_legend() {
    let r = olmsat(&["graph", AWS, "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap_or_default();
    assert_eq!(v["folded"], 16);
    assert_eq!(v["note"], "16 edges folded; `--edges all` shows them");
    let folded: Vec<&serde_json::Value> = v["packages"][0]["channels"]
        .as_array()
        .map(|a| a.iter().map(|c| &c["folded"]).collect())
        .unwrap_or_default();
    assert_eq!(folded, vec![11, 1, 2, 2]);
    assert_eq!(
        v["legend"]["edges"],
        serde_json::json!({
            "replaces": "solid #333333",
            "skips": "dashed #3465A4",
            "skipRange": "dotted #6B6B6B",
            "olmPath": "bold #D62728",
        })
    );
    assert_eq!(v["legend"]["nodes"]["head"], "double border");
    // Every edge and no legend: the drawing as it always was.
    let r = olmsat(&["graph", AWS, "-o", "json", "--edges", "all", "--no-legend"]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap_or_default();
    let keys: Vec<&String> = v
        .as_object()
        .map(|o| o.keys().collect())
        .unwrap_or_default();
    assert_eq!(keys, vec!["packages"]);
    assert!(v["packages"][0]["channels"][0].get("folded").is_none());
}

#[test]
fn legend_in_dot_but_not_in_mermaid() {
    let r = olmsat(&["graph", AWS, "--channel", "stable-v1.1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The version chain ranks the nodes; upgrade edges between versions do
    // not (Graphviz would lay out every rank they span).
    for line in r.stdout.lines().filter(|l| l.contains(" -> n")) {
        assert!(
            line.contains("style=invis") || line.contains("[constraint=false, "),
            "{line}"
        );
    }
    for line in [
        "  subgraph cluster_legend {\n",
        "    legend_n0 [label=\"head\", peripheries=2];\n",
        "    legend_n3 [label=\"deprecated\", style=\"rounded,filled\", fillcolor=\"#E8960F\"];\n",
        "    legend_e1 -> legend_e2 [xlabel=\"skips\", style=dashed, color=\"#3465A4\", fontcolor=\"#3465A4\"];\n",
        "    legend_e3 -> legend_e4 [xlabel=\"OLM v0 path\", color=\"#D62728\", fontcolor=\"#D62728\", penwidth=3];\n",
        "    legend_n6 [label=\"deprecated channel\\n(its box)\", style=\"rounded,filled\", fillcolor=\"#DCD0FF\"];\n",
        "    legend_n7 [label=\"deprecated package\\n(its box)\", style=\"rounded,filled\", fillcolor=\"#D9D9D9\"];\n",
    ] {
        assert!(r.stdout.contains(line), "{line}");
    }
    let r = olmsat(&["graph", AWS, "--channel", "stable-v1.1", "--no-legend"]);
    assert!(!r.stdout.contains("legend"));
    // Mermaid keeps opm's layout whatever the view: every edge, no legend.
    let m = olmsat(&["graph", AWS, "-o", "mermaid"]);
    assert_eq!(m.code, 0, "{}", m.stderr);
    assert!(!m.stdout.contains("legend"));
    let all = olmsat(&["graph", AWS, "-o", "mermaid", "--edges", "all"]);
    assert_eq!(m.stdout, all.stdout);
}

#[test]
fn split_writes_a_file_per_package_or_channel_and_an_index() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("pictures");
    let d = dir.display().to_string();
    let r = olmsat(&["graph", AWS, "--split", &d]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, format!("wrote 1 file and {d}/index.md\n"));
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    assert_eq!(
        read("index.md"),
        "# Upgrade graphs\n\n- [aws-load-balancer-operator](aws-load-balancer-operator.dot): 14 nodes, 16 edges (16 folded)\n"
    );
    assert_eq!(
        read("aws-load-balancer-operator.dot"),
        olmsat(&["graph", AWS]).stdout
    );
    let r = olmsat(&[
        "graph",
        AWS,
        "--split",
        &d,
        "--split-channels",
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, format!("wrote 4 files and {d}/index.md\n"));
    assert_eq!(
        read("index.md"),
        "# Upgrade graphs\n\n\
         - [aws-load-balancer-operator, channel stable-v1](aws-load-balancer-operator.stable-v1.json): 6 nodes, 9 edges (11 folded)\n\
         - [aws-load-balancer-operator, channel stable-v1.1](aws-load-balancer-operator.stable-v1.1.json): 2 nodes, 1 edges (1 folded)\n\
         - [aws-load-balancer-operator, channel stable-v1.2](aws-load-balancer-operator.stable-v1.2.json): 3 nodes, 3 edges (2 folded)\n\
         - [aws-load-balancer-operator, channel stable-v1.3](aws-load-balancer-operator.stable-v1.3.json): 3 nodes, 3 edges (2 folded)\n"
    );
    assert_eq!(
        read("aws-load-balancer-operator.stable-v1.2.json"),
        olmsat(&["graph", AWS, "--channel", "stable-v1.2", "-o", "json"]).stdout
    );
    // A directory that cannot be made.
    let file = tmp.path().join("a-file");
    std::fs::write(&file, "").expect("write");
    let under = file.join("x").display().to_string();
    let r = olmsat(&["graph", AWS, "--split", &under]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        format!("olmsat: cannot create the directory {under}: Not a directory (os error 20)\n")
    );
    // --split-channels needs --split.
    let r = olmsat(&["graph", AWS, "--split-channels"]);
    assert_eq!(r.code, 2);
}

#[test]
fn split_svg_has_an_html_index() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let d = tmp.path().display().to_string();
    let r = olmsat(&["graph", AWS, "--split", &d, "--split-channels", "-o", "svg"]);
    if r.code == 2 && r.stderr.contains("needs Graphviz") {
        common::support::skip("the split SVG check", "Graphviz `dot` is not installed");
        return;
    }
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, format!("wrote 4 files and {d}/index.html\n"));
    let index = std::fs::read_to_string(tmp.path().join("index.html")).unwrap_or_default();
    assert!(index.contains("<li><a href=\"aws-load-balancer-operator.stable-v1.svg\">aws-load-balancer-operator, channel stable-v1</a>: 6 nodes, 9 edges (11 folded)</li>\n"), "{index}");
    let svg = std::fs::read_to_string(tmp.path().join("aws-load-balancer-operator.stable-v1.svg"))
        .unwrap_or_default();
    assert!(svg.contains("<svg"));
}

#[test]
fn opendatahub_operator_fast_fits_on_a_screen() {
    // 304 edges, mostly skipRange edges from every older bundle.
    let Some(dir) = common::support::need(
        "fbc/community-operators-prod/catalogs/v4.20/opendatahub-operator",
        "opendatahub_operator_fast_fits_on_a_screen",
    ) else {
        return;
    };
    let d = dir.display().to_string();
    let all = olmsat(&[
        "graph",
        &d,
        "--channel",
        "fast",
        "-o",
        "json",
        "--edges",
        "all",
    ]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    let v: serde_json::Value = serde_json::from_str(&all.stdout).unwrap_or_default();
    assert_eq!(
        v["packages"][0]["channels"][0]["edges"]
            .as_array()
            .map(Vec::len),
        Some(304)
    );
    let r = olmsat(&["graph", &d, "--channel", "fast", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap_or_default();
    let ch = &v["packages"][0]["channels"][0];
    assert_eq!(ch["edges"].as_array().map(Vec::len), Some(52));
    assert_eq!(ch["folded"], 252);
    assert_eq!(v["note"], "252 edges folded; `--edges all` shows them");
    let kinds = |k: &str| {
        ch["edges"]
            .as_array()
            .map(|a| a.iter().filter(|e| e["kind"] == k).count())
    };
    // The replaces chain, OLM's skipRange to 2.28.0 from each older bundle,
    // and the pruned 2.9.0's skips: to 2.28.0 (OLM's step) and to 2.11.0
    // (nothing else leads there).
    assert_eq!(kinds("replaces"), Some(29));
    assert_eq!(kinds("skipRange"), Some(21));
    assert_eq!(kinds("skips"), Some(2));
    let r = olmsat(&["graph", &d, "--channel", "fast", "-o", "svg"]);
    if r.code == 2 && r.stderr.contains("needs Graphviz") {
        common::support::skip(
            "the opendatahub SVG size",
            "Graphviz `dot` is not installed",
        );
        return;
    }
    assert_eq!(r.code, 0, "{}", r.stderr);
    let width: f64 = r
        .stdout
        .split("<svg width=\"")
        .nth(1)
        .and_then(|s| s.split("pt\"").next())
        .and_then(|s| s.parse().ok())
        .unwrap_or(f64::MAX);
    assert!(width < 2400.0, "{width}");
}

#[test]
fn html_explorer_is_one_offline_page_with_the_path_answers() {
    let r = olmsat(&["graph", AWS, "--channel", "stable-v1", "-o", "html"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let page = &r.stdout;
    assert!(page.starts_with("<!DOCTYPE html>\n"), "{page}");
    assert!(page.ends_with("</html>\n"));
    // One file: no script, style or picture from elsewhere, no network.
    for bad in [
        "<script src",
        "<link",
        "http://",
        "https://",
        "@import",
        "url(http",
    ] {
        assert!(!page.contains(bad), "{bad} in the page");
    }
    assert_eq!(
        page.matches("<script").count(),
        2,
        "the data and the script"
    );
    // The answers of `olmsat path`, precomputed.
    assert!(page.contains("id=\"olmsat-data\""));
    let path = olmsat(&[
        "path",
        AWS,
        "--package",
        "aws-load-balancer-operator",
        "--from",
        "aws-load-balancer-operator.v1.0.0",
        "--channel",
        "stable-v1",
    ]);
    let summary = path.stdout.lines().last().unwrap_or_default();
    assert!(summary.starts_with("reaches the head"), "{}", path.stdout);
    assert!(page.contains(summary), "{summary}");
    // Same input, same bytes.
    assert_eq!(
        olmsat(&["graph", AWS, "--channel", "stable-v1", "-o", "html"]).stdout,
        r.stdout
    );
}

#[test]
fn html_explorer_escapes_hostile_names() {
    let evil = "x</script><script>alert(1)</script><img src=x onerror=alert(2)>";
    let text = common::catalog(
        &[
            &format!("{{\"name\":\"{evil}\"}}"),
            &format!("{{\"name\":\"b\",\"replaces\":\"{evil}\"}}"),
        ],
        &[(evil, "1.0.0"), ("b", "1.1.0")],
    );
    let r = common::olmsat_in(&common::corpus(), &["graph", "-", "-o", "html"], &text, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.matches("<script").count(), 2, "{}", r.stdout);
    assert!(!r.stdout.contains("<img"));
    assert!(!r.stdout.contains("alert(1)</script>"));
    assert!(r.stdout.contains("x&lt;/script&gt;"));
    assert!(r.stdout.contains("x\\u003c/script\\u003e"));
}

#[test]
fn split_html_writes_a_page_per_package_and_an_index() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let d = tmp.path().display().to_string();
    let r = olmsat(&["graph", AWS, "--split", &d, "-o", "html"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, format!("wrote 1 file and {d}/index.html\n"));
    let index = std::fs::read_to_string(tmp.path().join("index.html")).unwrap_or_default();
    assert!(index.contains("<li><a href=\"aws-load-balancer-operator.html\">aws-load-balancer-operator</a>: 14 nodes, 16 edges (16 folded)</li>\n"), "{index}");
    let page = std::fs::read_to_string(tmp.path().join("aws-load-balancer-operator.html"))
        .unwrap_or_default();
    assert_eq!(page, olmsat(&["graph", AWS, "-o", "html"]).stdout);
}
