//! Suggestions for range texts that blang rejects or misreads.

use super::super::version;
use super::parse::misread_by_blang;
use super::{Op, Range};

/// Suggests a range that blang accepts for a range text that it rejects (or
/// silently misreads, like the hyphen range `1.0.0 - 2.0.0`, `~1.x` or
/// `1.x.x`).
///
/// Handles `v` prefixes (`>=v1.2.3` → `>=1.2.3`), partial versions (`1.2` →
/// `1.2.x`, `>=1.2` → `>=1.2.0`), `~` and `^` ranges (`~1.2.3` → `>=1.2.3
/// <1.3.0`, `^1.2.3` → `>=1.2.3 <2.0.0`), commas (`>=1.0.0, <2.0.0`),
/// hyphen ranges (`1.0.0 - 2.0.0` → `>=1.0.0 <=2.0.0`), `X` / `*` wildcards,
/// `=>` / `=<`, a space between an operator and its version, and versions
/// whose prerelease contains an `x` (`=1.0.0-fix` → `>=1.0.0-fix
/// <1.0.0-fix.0`). Returns `None` when the text is fine as it is or when there
/// is no suggestion (e.g. for `!=1.2.x`, which needs an `||` that blang
/// cannot nest); a returned suggestion always parses with [`Range::parse`].
pub fn hint(text: &str) -> Option<String> {
    if Range::parse(text).is_ok() && !misread_by_blang(text) {
        return None;
    }
    let cleaned = text.replace(',', " ").replace("&&", " ");
    let mut groups = Vec::new();
    for group in cleaned.split("||") {
        let tokens: Vec<&str> = group.split_whitespace().collect();
        if tokens.is_empty() {
            continue;
        }
        let mut out: Vec<String> = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            if i + 2 < tokens.len() && tokens[i + 1] == "-" {
                let low = HintVersion::parse(tokens[i])?;
                let high = HintVersion::parse(tokens[i + 2])?;
                out.extend(low.bounds(HintOp::Op(Op::Ge))?);
                out.extend(high.bounds(HintOp::Op(Op::Le))?);
                i += 3;
                continue;
            }
            let mut token = tokens[i].to_string();
            i += 1;
            while token.chars().all(is_hint_op_char) && i < tokens.len() {
                token.push_str(tokens[i]);
                i += 1;
            }
            out.extend(hint_comparator(&token)?);
        }
        groups.push(out.join(" "));
    }
    if groups.is_empty() {
        return None;
    }
    let suggestion = groups.join(" || ");
    if suggestion != text && Range::parse(&suggestion).is_ok() && !misread_by_blang(&suggestion) {
        Some(suggestion)
    } else {
        None
    }
}

fn is_hint_op_char(c: char) -> bool {
    matches!(c, '<' | '>' | '=' | '!' | '~' | '^')
}

/// What a comparator of a text given to [`hint`] asks for: one of blang's
/// operators, or an npm-style shorthand that blang does not know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HintOp {
    /// A comparison blang knows (also spelled `=>` or `=<`).
    Op(Op),
    /// `~`: the same minor version (npm).
    Tilde,
    /// `^`: the same major version, or minor below 1.0.0 (npm).
    Caret,
}

/// Rewrites one comparator for [`hint`]; keeps it when blang already reads it
/// as written.
fn hint_comparator(token: &str) -> Option<Vec<String>> {
    let op_end = token
        .find(|c: char| !is_hint_op_char(c))
        .unwrap_or(token.len());
    let (op_str, version_str) = token.split_at(op_end);
    if Op::parse(op_str).is_some() && Range::parse(token).is_ok() && !misread_by_blang(token) {
        return Some(vec![token.to_string()]);
    }
    let op = match op_str {
        "=>" => HintOp::Op(Op::Ge),
        "=<" => HintOp::Op(Op::Le),
        "~" => HintOp::Tilde,
        "^" => HintOp::Caret,
        _ => HintOp::Op(Op::parse(op_str)?),
    };
    HintVersion::parse(version_str)?.bounds(op)
}

/// A possibly partial version as people write it in npm-style ranges.
#[derive(Debug, Clone, PartialEq, Eq)]
enum HintVersion {
    /// `*`, `x`, `X`.
    Any,
    /// `1`, `1.x`, `1.*`.
    Major(u64),
    /// `1.2`, `1.2.x`.
    Minor(u64, u64),
    /// A full version, prerelease kept, build metadata dropped.
    Full(semver::Version),
}

/// Whether blang's wildcard arithmetic (Go `int`) handles `n + 1` correctly.
fn fits_go_int(n: u64) -> bool {
    n < i64::MAX as u64
}

impl HintVersion {
    fn parse(s: &str) -> Option<HintVersion> {
        let s = s
            .strip_prefix('v')
            .or_else(|| s.strip_prefix('V'))
            .unwrap_or(s);
        let s = s.split('+').next().unwrap_or(s);
        let (core, pre) = match s.find('-') {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        };
        let mut numbers = Vec::new();
        let mut wildcard = false;
        for part in core.split('.') {
            match part {
                "x" | "X" | "*" => wildcard = true,
                _ if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) => {
                    if wildcard {
                        return None;
                    }
                    numbers.push(part.parse::<u64>().ok()?);
                }
                _ => return None,
            }
        }
        if core.split('.').count() > 3 || (pre.is_some() && numbers.len() < 3) {
            return None;
        }
        match numbers.as_slice() {
            [] => Some(HintVersion::Any),
            [major] => Some(HintVersion::Major(*major)),
            [major, minor] => Some(HintVersion::Minor(*major, *minor)),
            [major, minor, patch] => {
                let mut text = format!("{major}.{minor}.{patch}");
                if let Some(p) = pre {
                    text.push('-');
                    text.push_str(p);
                }
                version::parse_strict(&text).ok().map(HintVersion::Full)
            }
            _ => None,
        }
    }

    /// The blang comparators meaning `op self`.
    fn bounds(&self, op: HintOp) -> Option<Vec<String>> {
        let one = |s: String| Some(vec![s]);
        match self {
            HintVersion::Any => match op {
                HintOp::Op(Op::Eq) | HintOp::Op(Op::Ge) | HintOp::Tilde | HintOp::Caret => {
                    one(">=0.0.0".to_string())
                }
                _ => None,
            },
            HintVersion::Major(m) => {
                let m = *m;
                let low = format!("{m}.0.0");
                let next = format!("{}.0.0", m.checked_add(1)?);
                match op {
                    HintOp::Op(Op::Eq) if fits_go_int(m) => one(format!("{m}.x")),
                    HintOp::Op(Op::Ne) => None,
                    HintOp::Op(Op::Eq) | HintOp::Tilde | HintOp::Caret => {
                        Some(vec![format!(">={low}"), format!("<{next}")])
                    }
                    HintOp::Op(Op::Gt) => one(format!(">={next}")),
                    HintOp::Op(Op::Ge) => one(format!(">={low}")),
                    HintOp::Op(Op::Lt) => one(format!("<{low}")),
                    HintOp::Op(Op::Le) => one(format!("<{next}")),
                }
            }
            HintVersion::Minor(m, n) => {
                let (m, n) = (*m, *n);
                let low = format!("{m}.{n}.0");
                let next_minor = format!("{m}.{}.0", n.checked_add(1)?);
                match op {
                    HintOp::Op(Op::Eq) if fits_go_int(n) => one(format!("{m}.{n}.x")),
                    HintOp::Op(Op::Ne) => None,
                    HintOp::Op(Op::Eq) | HintOp::Tilde => {
                        Some(vec![format!(">={low}"), format!("<{next_minor}")])
                    }
                    HintOp::Caret if m > 0 => Some(vec![
                        format!(">={low}"),
                        format!("<{}.0.0", m.checked_add(1)?),
                    ]),
                    HintOp::Caret => Some(vec![format!(">={low}"), format!("<{next_minor}")]),
                    HintOp::Op(Op::Gt) => one(format!(">={next_minor}")),
                    HintOp::Op(Op::Ge) => one(format!(">={low}")),
                    HintOp::Op(Op::Lt) => one(format!("<{low}")),
                    HintOp::Op(Op::Le) => one(format!("<{next_minor}")),
                }
            }
            HintVersion::Full(v) => {
                let text = v.to_string();
                // blang sends any comparator containing an `x` through wildcard
                // expansion, which only keeps `>=` and `<` intact. The next
                // version up from `1.0.0-fix` is `1.0.0-fix.0`.
                let has_x = text.contains('x');
                let successor = format!("{text}.0");
                match op {
                    HintOp::Op(Op::Eq) if has_x => {
                        Some(vec![format!(">={text}"), format!("<{successor}")])
                    }
                    HintOp::Op(Op::Eq) => one(text),
                    HintOp::Op(Op::Ne) if has_x => None,
                    HintOp::Op(Op::Ne) => one(format!("!={text}")),
                    HintOp::Op(Op::Gt) if has_x => one(format!(">={successor}")),
                    HintOp::Op(Op::Gt) => one(format!(">{text}")),
                    HintOp::Op(Op::Ge) => one(format!(">={text}")),
                    HintOp::Op(Op::Lt) => one(format!("<{text}")),
                    HintOp::Op(Op::Le) if has_x => one(format!("<{successor}")),
                    HintOp::Op(Op::Le) => one(format!("<={text}")),
                    HintOp::Tilde => Some(vec![
                        format!(">={text}"),
                        format!("<{}.{}.0", v.major, v.minor.checked_add(1)?),
                    ]),
                    HintOp::Caret => {
                        let upper = if v.major > 0 {
                            format!("{}.0.0", v.major.checked_add(1)?)
                        } else if v.minor > 0 {
                            format!("0.{}.0", v.minor.checked_add(1)?)
                        } else {
                            format!("0.0.{}", v.patch.checked_add(1)?)
                        };
                        Some(vec![format!(">={text}"), format!("<{upper}")])
                    }
                }
            }
        }
    }
}
