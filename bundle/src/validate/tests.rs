use super::entries::constraint_errors;
use super::*;

#[test]
fn object_names() {
    assert!(object_name_error("etcd.v0.9.2").is_none());
    assert!(object_name_error("a+b").is_some());
    assert!(object_name_error("A").is_some());
    assert!(object_name_error("a..b").is_some());
    assert!(object_name_error("").is_some());
}

#[test]
fn cel_rules_must_parse() {
    let bad: Value = serde_json::from_str(r#"{"cel":{"rule":"properties.exists(p, "}}"#).unwrap();
    let e = constraint_errors(&bad);
    assert!(
        e.iter().any(|m| m.contains("invalid CEL expression")),
        "{e:?}"
    );
    let ok: Value =
        serde_json::from_str(r#"{"cel":{"rule":"properties.exists(p, p.type == 'olm.gvk')"}}"#)
            .unwrap();
    assert!(constraint_errors(&ok).is_empty());
}

#[test]
fn constraints() {
    let ok: Value = serde_json::from_str(
        r#"{"failureMessage":"x","any":{"constraints":[{"package":{"packageName":"a","versionRange":">=1.0.0"}},{"gvk":{"group":"g","version":"v1","kind":"K"}}]}}"#,
    )
    .unwrap();
    assert!(constraint_errors(&ok).is_empty());
    let bad: Value =
        serde_json::from_str(r#"{"cel":{"rule":""},"gvk":{"group":"g"},"all":{"constraints":[]}}"#)
            .unwrap();
    let e = constraint_errors(&bad);
    assert!(e[0].contains("found cel, gvk, all"), "{e:?}");
    assert!(e
        .iter()
        .any(|m| m.ends_with("The CEL expression is missing")));
    assert!(e.iter().any(|m| m.ends_with("API Version is empty")));
    assert!(e
        .iter()
        .any(|m| m.ends_with("constraints must be a non-empty list")));
}

#[test]
fn csv_properties_annotation() {
    assert_eq!(
        csv_annotation_properties(r#"[{"type":"olm.maxOpenShiftVersion","value":"4.10"}]"#)
            .unwrap()
            .len(),
        1
    );
    assert!(csv_annotation_properties("{").is_err());
    assert!(csv_annotation_properties(r#"[{"value":1}]"#).is_err());
}
