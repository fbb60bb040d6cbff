//! Hostile CEL rules in `olm.constraint`: refused quickly with OLM-style errors,
//! never a stack overflow, a hang or unbounded memory.

use std::time::Instant;

use olmsat_catalog::declcfg::Property;
use olmsat_encoding::rawjson::to_raw;
use olmsat_resolver::entry::Entry;
use olmsat_resolver::predicate::parse_constraint;
use serde_json::json;

fn constraint(rule: &str) -> String {
    json!({"cel": {"rule": rule}, "failureMessage": "hostile"}).to_string()
}

fn list(n: usize) -> String {
    let items: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    format!("[{}]", items.join(","))
}

fn entry(properties: usize) -> Entry {
    let properties: Vec<Property> = (0..properties)
        .map(|i| Property {
            type_: "example.thing".into(),
            value: to_raw(&json!({"i": i})),
        })
        .collect();
    Entry {
        name: "a.v1.0.0".into(),
        package: "a".into(),
        channel: "stable".into(),
        catalog: 0,
        default_channel: true,
        version: semver::Version::parse("1.0.0").ok(),
        replaces: None,
        skips: Vec::new(),
        skip_range: None,
        values: Entry::interpret(&properties),
        properties,
        location: None,
    }
}

fn refused(rule: &str, why: &str) {
    let started = Instant::now();
    let err = parse_constraint(&constraint(rule)).expect_err("refused");
    assert!(
        err.to_string().starts_with(
            "convert olm.constraint to resolver predicate: olmsat refuses this CEL rule: "
        ),
        "{}",
        err.to_string()
    );
    assert!(err.to_string().contains(why), "{}", err.to_string());
    assert!(started.elapsed().as_secs() < 2, "{:?}", started.elapsed());
}

#[test]
fn operator_chains_that_would_overflow_the_stack_are_refused() {
    refused(&format!("{}1 == 1", "1 + ".repeat(30_000)), "operators");
    refused(&format!("{}1 == 1", "1 + ".repeat(500)), "levels deep");
    refused(
        &format!("properties{}.size() > 0", ".a".repeat(400)),
        "levels deep",
    );
}

#[test]
fn comprehensions_that_would_run_for_hours_are_refused() {
    let l = list(100);
    refused(
        &format!("{l}.all(a, {l}.all(b, {l}.all(c, {l}.all(d, a + b + c + d >= 0))))"),
        "estimated evaluation cost",
    );
    refused(
        &format!("{l}.map(a, {l}.map(b, {l}.map(c, [a, b, c]))).size() > 0"),
        "estimated evaluation cost",
    );
}

#[test]
fn string_doubling_is_refused() {
    // CEL has no variables to double a string with, but a comprehension can
    // build one large string per element.
    let s = format!("'{}'", "x".repeat(30_000));
    refused(
        &format!("{}.map(i, {s} + {s} + {s}).size() > 0", list(800)),
        "bytes of strings",
    );
}

#[test]
fn the_cost_on_each_candidate_is_checked_before_evaluating() {
    let l = list(100);
    let rule = format!("properties.exists(p, {l}.exists(a, {l}.exists(b, p.value.i == a * b)))");
    let p = parse_constraint(&constraint(&rule)).expect("cheap on its own");
    assert!(p.matches(&entry(3)).is_ok());
    assert!(p.matches(&entry(0)).is_ok());
    let started = Instant::now();
    let err = p
        .matches(&entry(500))
        .expect_err("too costly on this bundle");
    assert!(
        err.to_string().starts_with(
            "convert olm.constraint to resolver predicate: olmsat refuses to evaluate CEL rule"
        ),
        "{}",
        err.to_string()
    );
    assert!(
        err.to_string().contains("\"a.v1.0.0\""),
        "{}",
        err.to_string()
    );
    assert!(started.elapsed().as_secs() < 2, "{:?}", started.elapsed());
}

#[test]
fn ordinary_rules_are_unaffected() {
    let rule = "properties.exists(p, p.type == 'example.thing' && p.value.i == 2)";
    let p = parse_constraint(&constraint(rule)).expect("compiles");
    assert!(p.matches(&entry(3)).expect("evaluates"));
    assert!(!p.matches(&entry(2)).expect("evaluates"));
}
