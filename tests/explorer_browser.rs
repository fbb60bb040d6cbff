//! The upgrade-graph explorer (`olmsat graph -o html`) in a real browser:
//! headless Chromium, driven through Selenium by `tests/explorer/observe.py`,
//! opens the page from `file://`, clicks every version of every lane and
//! reads the answer and the highlighted steps from the page; each must equal
//! what `olmsat path` says (text, and steps of `-o json`). For the small
//! packages it also checks the page's shortest path (or its "why not"
//! reasons) for every pair of versions against `olmsat path --shortest --to`.
//!
//! Without Chromium, its driver or Python's Selenium, the tests say
//! `skipped: ...: chromium not found` (a failure under
//! `OLMSAT_REQUIRE_ALL`). `OLMSAT_PYTHON` names the Python to use (default
//! `python3`). The time the page takes to become interactive is printed, not
//! asserted.
#![allow(clippy::print_stdout, clippy::print_stderr)] // figures measured in the browser

#[path = "cli_common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{olmsat_in, support};
use serde_json::Value;

fn python() -> String {
    std::env::var("OLMSAT_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

/// Whether the browser test can run; a skip line when not.
fn browser_ready(what: &str) -> bool {
    let found = |p: &str| {
        Command::new(p)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !found("chromium") && !found("chromium-browser") || !found("chromedriver") {
        support::skip(
            what,
            "chromium not found (install chromium and chromium-driver)",
        );
        return false;
    }
    let selenium = Command::new(python())
        .args(["-c", "import selenium"])
        .status()
        .is_ok_and(|s| s.success());
    if !selenium {
        support::skip(
            what,
            "Python's selenium not found (install python3-selenium, or name a Python that has it in OLMSAT_PYTHON)",
        );
        return false;
    }
    true
}

/// Write the page for `args` into `dir`, open it in the browser, and return
/// what it showed.
fn observe(dir: &Path, args: &[&str], extra: &[&str]) -> (PathBuf, Value) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let page = tmp.path().join("graph.html");
    let mut all = vec!["graph"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", "html"]);
    let r = olmsat_in(dir, &all, "", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    std::fs::write(&page, &r.stdout).expect("write the page");
    let out = tmp.path().join("seen.json");
    let script = support::repo_root().join("tests/explorer/observe.py");
    let mut cmd = Command::new(python());
    cmd.arg(&script).arg(&page).arg(&out).args(extra);
    let o = cmd.output().expect("run the browser");
    assert!(
        o.status.success(),
        "the browser run failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(&out).expect("what the page showed");
    let seen: Value = serde_json::from_str(&text).expect("JSON");
    let kept = tmp.keep();
    (kept.join("graph.html"), seen)
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

/// `[from, to, via]` of each step of a `path -o json` answer.
fn json_steps(v: &Value) -> Vec<Value> {
    v["steps"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| serde_json::json!([s["from"], s["to"], s["via"]]))
                .collect()
        })
        .unwrap_or_default()
}

/// Every version clicked shows `olmsat path`'s answer; returns how many.
fn check_clicks(dir: &Path, catalog: &str, seen: &Value) -> usize {
    let mut n = 0;
    for lane in seen["lanes"].as_array().into_iter().flatten() {
        let (package, channel) = (str_of(&lane["package"]), str_of(&lane["channel"]));
        for node in lane["nodes"].as_array().into_iter().flatten() {
            let name = str_of(&node["name"]);
            let args = [
                "path",
                catalog,
                "--package",
                package,
                "--from",
                name,
                "--channel",
                channel,
            ];
            let text = olmsat_in(dir, &args, "", &[]);
            assert_eq!(
                format!("{}\n", str_of(&node["text"])),
                text.stdout,
                "{package} {channel} {name}"
            );
            let mut json_args = args.to_vec();
            json_args.extend_from_slice(&["-o", "json"]);
            let j = olmsat_in(dir, &json_args, "", &[]);
            let doc: Value = serde_json::from_str(&j.stdout).expect("path JSON");
            assert_eq!(
                node["steps"].as_array().cloned().unwrap_or_default(),
                json_steps(&doc),
                "{package} {channel} {name}"
            );
            assert_eq!(node["end"], doc["end"], "{package} {channel} {name}");
            assert_eq!(
                node["marked"].as_u64().unwrap_or(0) > 0,
                !json_steps(&doc).is_empty(),
                "the drawing marks the path's edges: {package} {channel} {name}"
            );
            n += 1;
        }
    }
    n
}

/// The page's shortest path (or reasons) for every pair equals `path --shortest --to`.
fn check_pairs(dir: &Path, catalog: &str, seen: &Value) -> usize {
    let mut n = 0;
    for lane in seen["lanes"].as_array().into_iter().flatten() {
        let (package, channel) = (str_of(&lane["package"]), str_of(&lane["channel"]));
        let names: Vec<&str> = lane["nodes"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|n| str_of(&n["name"]))
            .collect();
        for pair in lane["pairs"].as_array().into_iter().flatten() {
            let s = names[pair["from"].as_u64().unwrap_or(0) as usize];
            let t = names[pair["to"].as_u64().unwrap_or(0) as usize];
            let args = [
                "path",
                catalog,
                "--package",
                package,
                "--from",
                s,
                "--to",
                t,
                "--channel",
                channel,
                "--shortest",
            ];
            let mut json_args = args.to_vec();
            json_args.extend_from_slice(&["-o", "json"]);
            let j = olmsat_in(dir, &json_args, "", &[]);
            let doc: Value = serde_json::from_str(&j.stdout).expect("path JSON");
            let page_steps: Vec<Value> = pair["steps"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|s| serde_json::json!([s[0], s[1], s[2]]))
                .collect();
            assert_eq!(
                page_steps,
                json_steps(&doc),
                "{package} {channel} {s} -> {t}"
            );
            let found = doc["end"] != "noPath";
            assert_eq!(pair["found"].as_bool(), Some(found), "{s} -> {t}");
            if !found {
                let text = olmsat_in(dir, &args, "", &[]).stdout;
                let reasons: Vec<String> = text
                    .lines()
                    .skip_while(|l| *l != "no path")
                    .skip(1)
                    .map(|l| l.trim_start().to_owned())
                    .collect();
                let page: Vec<String> = pair["reasons"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|l| str_of(l).to_owned())
                    .collect();
                assert_eq!(page, reasons, "{package} {channel} {s} -> {t}");
            }
            n += 1;
        }
        for c in lane["clickedPairs"].as_array().into_iter().flatten() {
            assert_eq!(c["mode"], "shortest", "a second click asks for a path: {c}");
        }
    }
    n
}

#[test]
fn explorer_answers_equal_path_in_the_browser() {
    if !browser_ready("the explorer browser test") {
        return;
    }
    let own = support::own().join("fbc");
    let catalog = "community-operators-prod/catalogs/v4.20/clusterpulse";
    let (_, seen) = observe(&own, &[catalog], &["--pairs"]);
    let clicks = check_clicks(&own, catalog, &seen);
    let pairs = check_pairs(&own, catalog, &seen);
    // Two channels, of 6 and 3 versions: every version and every pair.
    assert!(clicks >= 9 && pairs >= 45, "{clicks} clicks, {pairs} pairs");
    let kb = &seen["keyboard"];
    assert_eq!(
        kb["mode"], "olm",
        "Enter on a focused version answers: {kb}"
    );
    println!(
        "explorer: clusterpulse: {clicks} versions clicked, {pairs} pairs checked; interactive after {} ms",
        seen["readyMs"]
    );
    let etcd = support::repo_root().join("corpus/catalogs");
    let (_, seen) = observe(&etcd, &["etcd-example"], &["--pairs"]);
    let clicks = check_clicks(&etcd, "etcd-example", &seen);
    let pairs = check_pairs(&etcd, "etcd-example", &seen);
    assert!(clicks > 0 && pairs > 0);
}

#[test]
fn explorer_on_a_real_80_version_channel_and_the_whole_community_catalog() {
    let Some(full) = support::require_full("the explorer browser test on the full corpus") else {
        return;
    };
    if !browser_ready("the explorer browser test on the full corpus") {
        return;
    }
    let dir = full.join("fbc");
    let scaleops = "certified-operators/catalogs/v4.20/scaleops-operator";
    let (_, seen) = observe(&dir, &[scaleops, "--channel", "stable-v1"], &[]);
    let clicks = check_clicks(&dir, scaleops, &seen);
    assert!(clicks >= 80, "{clicks}");
    println!(
        "explorer: scaleops-operator stable-v1: {clicks} versions clicked; interactive after {} ms",
        seen["readyMs"]
    );
    // The whole community v4.20 catalog: only how soon it is interactive.
    let community = "community-operators-prod/catalogs/v4.20";
    let (page, seen) = observe(&dir, &[community], &["--ready-only"]);
    let size = std::fs::metadata(&page).map(|m| m.len()).unwrap_or(0);
    println!(
        "explorer: community v4.20 catalog ({size} bytes): interactive after {} ms",
        seen["readyMs"]
    );
}
