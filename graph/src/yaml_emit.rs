//! A YAML emitter for JSON values that reproduces go-yaml v2's output, which is what
//! opm writes through `sigs.k8s.io/yaml`:
//!
//! - block style; sequences under a mapping key are not indented; empty
//!   collections as `[]` / `{}`;
//! - mapping keys in go-yaml's order (natural order: digit runs compared as
//!   numbers, non-letters before letters);
//! - a string is plain unless it would read back as another type (then
//!   double-quoted) or plain style cannot hold it (then single-, else
//!   double-quoted); strings with line breaks are literal blocks where possible;
//! - plain and quoted scalars are folded at spaces once a line passes column 80,
//!   as go-yaml's emitter does (keys are never folded);
//! - floats as Go's `strconv.FormatFloat(f, 'g', -1, 64)`.
//!
//! Output always reads back as the same JSON value.

use std::cmp::Ordering;

use serde_json::Value;

const BEST_WIDTH: usize = 80;
const BEST_INDENT: usize = 2;

/// Emit one document (without the `---` line) into `out`.
pub fn emit_document(v: &Value, out: &mut String) {
    let mut e = Emitter { out, column: 0 };
    match v {
        Value::Object(m) if !m.is_empty() => e.map(m, 0),
        Value::Array(a) if !a.is_empty() => e.seq(a, 0),
        other => {
            e.scalar(other, BEST_INDENT, false);
            e.newline();
        }
    }
}

struct Emitter<'o> {
    out: &'o mut String,
    column: usize,
}

impl Emitter<'_> {
    fn put(&mut self, c: char) {
        self.out.push(c);
        if c == '\n' {
            self.column = 0;
        } else {
            self.column += 1;
        }
    }

    fn put_str(&mut self, s: &str) {
        for c in s.chars() {
            self.put(c);
        }
    }

    fn newline(&mut self) {
        self.put('\n');
    }

    fn pad_to(&mut self, col: usize) {
        while self.column < col {
            self.put(' ');
        }
    }

    /// A block mapping whose keys start at column `ind` (the cursor is already there
    /// for the first key).
    fn map(&mut self, m: &serde_json::Map<String, Value>, ind: usize) {
        let keys = sort_go_yaml_keys(m.keys().collect());
        for (i, k) in keys.into_iter().enumerate() {
            if i > 0 {
                self.pad_to(ind);
            }
            self.key(k);
            self.put(':');
            self.value_after_key(&m[k], ind);
        }
    }

    fn key(&mut self, k: &str) {
        let style = match choose_style(k, true) {
            Style::Literal => Style::Double,
            s => s,
        };
        self.write_scalar(k, style, 0, false);
    }

    fn value_after_key(&mut self, v: &Value, ind: usize) {
        match v {
            Value::Object(m) if !m.is_empty() => {
                self.newline();
                self.pad_to(ind + BEST_INDENT);
                self.map(m, ind + BEST_INDENT);
            }
            Value::Array(a) if !a.is_empty() => {
                self.newline();
                self.pad_to(ind);
                self.seq(a, ind);
            }
            other => {
                self.scalar(other, ind + BEST_INDENT, true);
                self.newline();
            }
        }
    }

    /// A block sequence whose dashes are at column `ind` (cursor already there).
    fn seq(&mut self, a: &[Value], ind: usize) {
        for (i, v) in a.iter().enumerate() {
            if i > 0 {
                self.pad_to(ind);
            }
            self.put('-');
            match v {
                Value::Object(m) if !m.is_empty() => {
                    self.put(' ');
                    self.map(m, ind + BEST_INDENT);
                }
                Value::Array(inner) if !inner.is_empty() => {
                    self.put(' ');
                    self.seq(inner, ind + BEST_INDENT);
                }
                other => {
                    self.scalar(other, ind + BEST_INDENT, true);
                    self.newline();
                }
            }
        }
    }

    /// A scalar value preceded by one space; `indent` is where folded lines continue.
    fn scalar(&mut self, v: &Value, indent: usize, allow_breaks: bool) {
        self.put(' ');
        match v {
            Value::Null => self.put_str("null"),
            Value::Bool(b) => self.put_str(if *b { "true" } else { "false" }),
            Value::Number(n) => {
                let s = if n.is_i64() || n.is_u64() {
                    n.to_string()
                } else {
                    go_float_g(n.as_f64().unwrap_or(0.0))
                };
                self.put_str(&s);
            }
            Value::String(s) => {
                let style = choose_style(s, false);
                self.write_scalar(s, style, indent, allow_breaks);
            }
            Value::Array(_) => self.put_str("[]"),
            Value::Object(_) => self.put_str("{}"),
        }
    }

    fn write_scalar(&mut self, s: &str, style: Style, indent: usize, allow_breaks: bool) {
        match style {
            Style::Plain => self.write_plain(s, indent, allow_breaks),
            Style::Single => self.write_single(s, indent, allow_breaks),
            Style::Double => self.write_double(s, indent, allow_breaks),
            Style::Literal => self.write_literal(s, indent),
        }
    }

    fn break_line(&mut self, indent: usize) {
        self.newline();
        self.pad_to(indent);
    }

    fn write_plain(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                let next_space = chars.get(i + 1) == Some(&' ');
                if allow_breaks && !spaces && self.column > BEST_WIDTH && !next_space {
                    self.break_line(indent);
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
    }

    fn write_single(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        self.put('\'');
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                let next_space = chars.get(i + 1) == Some(&' ');
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i != 0
                    && i + 1 != chars.len()
                    && !next_space
                {
                    self.break_line(indent);
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                if c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                spaces = false;
            }
        }
        self.put('\'');
    }

    fn write_double(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        self.put('"');
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if !is_printable(c) || c == '\u{feff}' || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                match c {
                    '\0' => self.put('0'),
                    '\u{7}' => self.put('a'),
                    '\u{8}' => self.put('b'),
                    '\t' => self.put('t'),
                    '\n' => self.put('n'),
                    '\u{b}' => self.put('v'),
                    '\u{c}' => self.put('f'),
                    '\r' => self.put('r'),
                    '\u{1b}' => self.put('e'),
                    '"' => self.put('"'),
                    '\\' => self.put('\\'),
                    '\u{85}' => self.put('N'),
                    '\u{a0}' => self.put('_'),
                    '\u{2028}' => self.put('L'),
                    '\u{2029}' => self.put('P'),
                    c => {
                        let n = c as u32;
                        let esc = if n <= 0xff {
                            format!("x{n:02X}")
                        } else if n <= 0xffff {
                            format!("u{n:04X}")
                        } else {
                            format!("U{n:08X}")
                        };
                        self.put_str(&esc);
                    }
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i != 0
                    && i + 1 != chars.len()
                {
                    self.break_line(indent);
                    if chars.get(i + 1) == Some(&' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.put('"');
    }

    fn write_literal(&mut self, s: &str, indent: usize) {
        self.put('|');
        if s.starts_with([' ', '\n']) {
            self.put(char::from(b'0' + BEST_INDENT as u8));
        }
        let trailing = s.len() - s.trim_end_matches('\n').len();
        if s.is_empty() || trailing == 0 {
            self.put('-');
        } else if trailing >= 2 || s.len() == 1 {
            self.put('+');
        }
        self.newline();
        let mut at_line_start = true;
        for c in s.chars() {
            if c == '\n' {
                self.newline();
                at_line_start = true;
            } else {
                if at_line_start {
                    self.pad_to(indent);
                    at_line_start = false;
                }
                self.put(c);
            }
        }
        // The caller writes the final newline of the node; a literal's content
        // already ended with one when the string did, so undo the doubled break.
        if s.ends_with('\n') && self.out.ends_with('\n') {
            self.out.pop();
            self.column = 1; // not at line start: the caller's newline ends the line
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

fn is_printable(c: char) -> bool {
    let n = c as u32;
    n == 0x0A
        || (0x20..=0x7E).contains(&n)
        || (0xA0..=0xD7FF).contains(&n)
        || ((0xE000..=0xFFFD).contains(&n) && n != 0xFEFF)
}

fn is_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// go-yaml v2's style choice for a string (`simple_key`: a mapping key).
fn choose_style(s: &str, simple_key: bool) -> Style {
    let requested = if s.contains('\n') {
        Style::Literal
    } else if !resolves_to_non_string(s) && !is_base60_float(s) {
        Style::Plain
    } else {
        Style::Double
    };
    let a = analyze(s);
    let mut style = requested;
    if style == Style::Plain && (!a.block_plain_allowed || (s.is_empty() && simple_key)) {
        style = Style::Single;
    }
    if style == Style::Single && !a.single_quoted_allowed {
        style = Style::Double;
    }
    if style == Style::Literal && (!a.block_allowed || simple_key) {
        style = Style::Double;
    }
    style
}

struct Analysis {
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

/// go-yaml's `yaml_emitter_analyze_scalar`, for the block context.
fn analyze(s: &str) -> Analysis {
    if s.is_empty() {
        return Analysis {
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let chars: Vec<char> = s.chars().collect();
    let mut block_indicators = s.starts_with("---") || s.starts_with("...");
    let (mut leading_space, mut leading_break, mut trailing_space, mut trailing_break) =
        (false, false, false, false);
    let (mut break_space, mut space_break, mut previous_space, mut previous_break) =
        (false, false, false, false);
    let (mut line_breaks, mut special) = (false, false);
    let mut preceded_by_whitespace = true;
    let n = chars.len();
    for i in 0..n {
        let c = chars[i];
        let followed_by_whitespace = i + 1 >= n || chars[i + 1] == ' ' || chars[i + 1] == '\t';
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => block_indicators = true,
                '?' | ':' | '-' if followed_by_whitespace => block_indicators = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_whitespace => block_indicators = true,
                '#' if preceded_by_whitespace => block_indicators = true,
                _ => {}
            }
        }
        if !is_printable(c) {
            special = true;
        }
        if c == ' ' {
            if i == 0 {
                leading_space = true;
            }
            if i + 1 == n {
                trailing_space = true;
            }
            if previous_break {
                break_space = true;
            }
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            line_breaks = true;
            if i == 0 {
                leading_break = true;
            }
            if i + 1 == n {
                trailing_break = true;
            }
            if previous_space {
                space_break = true;
            }
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = matches!(
            c,
            ' ' | '\t' | '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}'
        );
    }
    let mut a = Analysis {
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks || block_indicators {
        a.block_plain_allowed = false;
    }
    a
}

/// Whether go-yaml v2's `resolve` gives a plain scalar a tag other than `!!str`.
fn resolves_to_non_string(s: &str) -> bool {
    const MAP: &[&str] = &[
        "", "~", "null", "Null", "NULL", "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true",
        "True", "TRUE", "n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE",
        ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf",
        "-.Inf", "-.INF", "<<",
    ];
    if MAP.contains(&s) {
        return true;
    }
    let Some(first) = s.chars().next() else {
        return true;
    };
    match first {
        '.' => s.parse::<f64>().is_ok() && go_parse_float_ok(s),
        '0'..='9' | '+' | '-' => {
            if is_timestamp(s) {
                return true;
            }
            let plain = s.replace('_', "");
            if go_parse_int(&plain) || is_yaml_style_float(&plain) {
                return true;
            }
            let bin = plain
                .strip_prefix("0b")
                .or_else(|| plain.strip_prefix("-0b"));
            bin.is_some_and(|b| !b.is_empty() && b.bytes().all(|c| c == b'0' || c == b'1'))
        }
        _ => false,
    }
}

/// `strconv.ParseFloat` accepts the forms Rust does plus hex floats, infinities
/// and underscores; for strings starting with '.' only decimal forms matter.
fn go_parse_float_ok(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
}

/// `strconv.ParseInt(s, 0, 64)` or `ParseUint(s, 0, 64)` succeeds.
fn go_parse_int(s: &str) -> bool {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let unsigned_ok = !s.starts_with(['+', '-']) || s.starts_with('+');
    let (digits, radix) =
        if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (h, 16)
        } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
            (b, 2)
        } else if let Some(o) = body.strip_prefix("0o").or_else(|| body.strip_prefix("0O")) {
            (o, 8)
        } else if body.len() > 1 && body.starts_with('0') {
            (&body[1..], 8)
        } else {
            (body, 10)
        };
    if digits.is_empty() {
        return false;
    }
    let neg = s.starts_with('-');
    match u64::from_str_radix(digits, radix) {
        Ok(v) => {
            if neg {
                v <= 1u64 << 63
            } else {
                v <= i64::MAX as u64 || unsigned_ok
            }
        }
        Err(_) => false,
    }
}

/// go-yaml's `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_yaml_style_float(s: &str) -> bool {
    let b = s.strip_prefix(['+', '-']).unwrap_or(s).as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if b.first() == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e') | Some(b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+') | Some(b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// go-yaml's `isBase60Float`: `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`.
fn is_base60_float(s: &str) -> bool {
    let b = s.strip_prefix(['+', '-']).unwrap_or(s).as_bytes();
    if b.first().is_none_or(|c| !c.is_ascii_digit()) {
        return false;
    }
    let mut i = 1;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while i < b.len() && b[i] == b':' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() && i - start < 2 {
            i += 1;
        }
        let g = &b[start..i];
        let ok = match g.len() {
            1 => true,
            2 => g[0] <= b'5',
            _ => false,
        };
        if !ok {
            return false;
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
    }
    i == b.len()
}

/// go-yaml v2's `parseTimestamp`: `time.Parse` with the layouts
/// `2006-1-2T15:4:5.999999999Z07:00` (also with `t`), `2006-1-2 15:4:5.999999999`
/// (no zone) and `2006-1-2`.
fn is_timestamp(s: &str) -> bool {
    fn num(b: &[u8], i: &mut usize, min: usize, max: usize) -> Option<u32> {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() && *i - start < max {
            *i += 1;
        }
        if *i - start < min {
            return None;
        }
        std::str::from_utf8(&b[start..*i]).ok()?.parse().ok()
    }
    fn lit(b: &[u8], i: &mut usize, c: u8) -> Option<()> {
        (b.get(*i) == Some(&c)).then(|| *i += 1)
    }
    fn parse(s: &str) -> Option<()> {
        let b = s.as_bytes();
        let mut i = 0;
        let year = num(b, &mut i, 4, 4)?;
        lit(b, &mut i, b'-')?;
        let month = num(b, &mut i, 1, 2)?;
        lit(b, &mut i, b'-')?;
        let day = num(b, &mut i, 1, 2)?;
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        if day == 0 || day > days {
            return None;
        }
        if i == b.len() {
            return Some(());
        }
        let zoned = match b[i] {
            b'T' | b't' => true,
            b' ' => false,
            _ => return None,
        };
        i += 1;
        let h = num(b, &mut i, 1, 2)?;
        lit(b, &mut i, b':')?;
        let m = num(b, &mut i, 1, 2)?;
        lit(b, &mut i, b':')?;
        let sec = num(b, &mut i, 1, 2)?;
        if h > 23 || m > 59 || sec > 59 {
            return None;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            num(b, &mut i, 1, 9)?;
        }
        if !zoned {
            return (i == b.len()).then_some(());
        }
        match b.get(i)? {
            b'Z' => (i + 1 == b.len()).then_some(()),
            b'+' | b'-' => {
                i += 1;
                let zh = num(b, &mut i, 2, 2)?;
                lit(b, &mut i, b':')?;
                let zm = num(b, &mut i, 2, 2)?;
                (i == b.len() && zh < 24 && zm < 60).then_some(())
            }
            _ => None,
        }
    }
    parse(s).is_some()
}

/// Sort keys in go-yaml's order ([`go_yaml_key_cmp`]), stably. For some keys
/// with digit runs that order is not a total order; Go's sort accepts that,
/// while the standard library's may panic. This merge sort never does, and
/// gives one answer for one input (where the order is inconsistent, not
/// necessarily go-yaml's).
pub fn sort_go_yaml_keys<S: AsRef<str>>(mut keys: Vec<S>) -> Vec<S> {
    if keys.len() <= 1 {
        return keys;
    }
    let right = keys.split_off(keys.len() / 2);
    let (left, right) = (sort_go_yaml_keys(keys), sort_go_yaml_keys(right));
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut right = right.into_iter().peekable();
    for l in left {
        while let Some(r) =
            right.next_if(|r| go_yaml_key_cmp(r.as_ref(), l.as_ref()) == Ordering::Less)
        {
            out.push(r);
        }
        out.push(l);
    }
    out.extend(right);
    out
}

/// go-yaml v2's key order (`keyList.Less`) for string keys.
pub fn go_yaml_key_cmp(a: &str, b: &str) -> Ordering {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    let mut i = 0;
    while i < ar.len() && i < br.len() {
        if ar[i] == br[i] {
            i += 1;
            continue;
        }
        let al = ar[i].is_alphabetic();
        let bl = br[i].is_alphabetic();
        if al && bl {
            return ar[i].cmp(&br[i]);
        }
        if al || bl {
            return if bl {
                Ordering::Less
            } else {
                Ordering::Greater
            };
        }
        let (mut an, mut bn) = (0i64, 0i64);
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i;
            while j > 0 && ar[j - 1].is_ascii_digit() {
                j -= 1;
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && ar[ai].is_ascii_digit() {
            an = an
                .wrapping_mul(10)
                .wrapping_add(i64::from(ar[ai] as u8 - b'0'));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && br[bi].is_ascii_digit() {
            bn = bn
                .wrapping_mul(10)
                .wrapping_add(i64::from(br[bi] as u8 - b'0'));
            bi += 1;
        }
        if an != bn {
            return an.cmp(&bn);
        }
        if ai != bi {
            return ai.cmp(&bi);
        }
        return ar[i].cmp(&br[i]);
    }
    ar.len().cmp(&br.len())
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 64)` with go-yaml's names for infinities.
pub fn go_float_g(f: f64) -> String {
    if f.is_nan() {
        return ".nan".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.to_owned();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.to_owned();
    }
    let e = format!("{f:e}"); // shortest round-trip digits: d.ddddde[-]x
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mant.starts_with('-');
    let digits: String = mant.chars().filter(char::is_ascii_digit).collect();
    let sign = if neg { "-" } else { "" };
    // strconv: with the shortest representation, %e is used when the exponent is
    // below -4 or at least 6.
    if !(-4..6).contains(&exp) {
        return exp_form(sign, &digits, exp);
    }
    // fixed notation
    if exp < 0 {
        let zeros = "0".repeat((-exp - 1) as usize);
        format!("{sign}0.{zeros}{digits}")
    } else {
        let int_len = (exp + 1) as usize;
        if digits.len() <= int_len {
            format!("{sign}{digits}{}", "0".repeat(int_len - digits.len()))
        } else {
            format!("{sign}{}.{}", &digits[..int_len], &digits[int_len..])
        }
    }
}

fn exp_form(sign: &str, digits: &str, exp: i32) -> String {
    let (first, rest) = digits.split_at(1);
    let mant = if rest.is_empty() {
        first.to_owned()
    } else {
        format!("{first}.{rest}")
    };
    let esign = if exp < 0 { '-' } else { '+' };
    let ea = exp.unsigned_abs();
    format!("{sign}{mant}e{esign}{ea:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn emit(v: &Value) -> String {
        let mut s = String::new();
        emit_document(v, &mut s);
        s
    }

    #[test]
    fn block_style() {
        let v = json!({"entries": [{"name": "a", "skips": ["x", "z"]}], "name": "c", "empty": [], "m": {"k": 1}});
        assert_eq!(
            emit(&v),
            "empty: []\nentries:\n- name: a\n  skips:\n  - x\n  - z\nm:\n  k: 1\nname: c\n"
        );
    }

    #[test]
    fn quoting_like_go_yaml() {
        let cases = [
            ("true", "\"true\""),
            ("1.0", "\"1.0\""),
            ("0755", "\"0755\""),
            ("", "\"\""),
            ("2021-07-27T07:54:10Z", "\"2021-07-27T07:54:10Z\""),
            ("2025-07-15T09:40:30", "2025-07-15T09:40:30"),
            ("2025-07-15 09:40:30", "\"2025-07-15 09:40:30\""),
            ("2025-7-5", "\"2025-7-5\""),
            ("2025-02-30", "2025-02-30"),
            (">=1.0.0 <2.0.0", "'>=1.0.0 <2.0.0'"),
            ("a: b", "'a: b'"),
            ("- x", "'- x'"),
            ("-x", "-x"),
            ("1_000", "\"1_000\""),
            ("yes", "\"yes\""),
            ("y", "\"y\""),
            ("1e3", "\"1e3\""),
            ("1:20", "\"1:20\""),
            ("tab\there", "\"tab\\there\""),
            ("etcdoperator.v0.9.4", "etcdoperator.v0.9.4"),
            ("quay.io/a/b:1.0", "quay.io/a/b:1.0"),
            ("it's", "it's"),
            ("'q'", "'''q'''"),
            ("trailing ", "'trailing '"),
            ("v1.2.3", "v1.2.3"),
            ("0.9.4", "0.9.4"),
        ];
        for (s, want) in cases {
            assert_eq!(emit(&json!({ "k": s })), format!("k: {want}\n"), "{s:?}");
        }
    }

    #[test]
    fn folds_long_plain_scalars() {
        let s = "ClusterPool represents a pool of clusters that should be kept ready to be given out to users. Clusters are removed from the pool once claimed and then automatically replaced with a new one.";
        let out = emit(&json!({ "description": s }));
        assert_eq!(
            out,
            "description: ClusterPool represents a pool of clusters that should be kept ready to\n  be given out to users. Clusters are removed from the pool once claimed and then\n  automatically replaced with a new one.\n"
        );
    }

    #[test]
    fn literal_blocks() {
        assert_eq!(emit(&json!({"d": "a\nb"})), "d: |-\n  a\n  b\n");
        assert_eq!(emit(&json!({"d": "a\n\nb\n"})), "d: |\n  a\n\n  b\n");
        assert_eq!(emit(&json!({"d": "a\n\n"})), "d: |+\n  a\n\n");
        assert_eq!(emit(&json!(["a\nb"])), "- |-\n  a\n  b\n");
        assert_eq!(emit(&json!({"d": " a\nb"})), "d: |2-\n   a\n  b\n");
        assert_eq!(emit(&json!({"d": "a \nb"})), "d: \"a \\nb\"\n");
    }

    #[test]
    fn key_order_is_natural() {
        let keys = sort_go_yaml_keys(vec!["a10", "a2", "b", "A", "_x", "a"]);
        assert_eq!(keys, vec!["_x", "A", "a", "a2", "a10", "b"]);
    }

    proptest::proptest! {
        /// Keys of digits and zeros, where go-yaml's order is not a total
        /// order: sorting never panics, keeps every key, and gives one answer.
        #[test]
        fn key_sort_tolerates_the_order(keys in proptest::collection::vec("[0a.]{0,2}[0-9]{0,3}[a-]{0,1}", 0..60)) {
            let sorted = sort_go_yaml_keys(keys.clone());
            let mut a = sorted.clone();
            let mut b = keys.clone();
            a.sort();
            b.sort();
            proptest::prop_assert_eq!(a, b);
            proptest::prop_assert_eq!(sorted, sort_go_yaml_keys(keys));
        }
    }

    #[test]
    fn floats_like_go() {
        assert_eq!(go_float_g(1.5), "1.5");
        assert_eq!(go_float_g(1e6), "1e+06");
        assert_eq!(go_float_g(123456.0), "123456");
        assert_eq!(go_float_g(0.0001), "0.0001");
        assert_eq!(go_float_g(0.00001), "1e-05");
        assert_eq!(go_float_g(1234567.5), "1.2345675e+06");
    }

    #[test]
    fn round_trips_through_yaml_parser() {
        let v = json!({"a": ["x\ny ", "\ttab", "q'uote", "c: d", "#h", "ünï", "\u{1}", "a\n\n", " lead\n"], "b": {"c": [[1, 2], []]}, "n": null, "f": 1.5,
            "long": "word ".repeat(40), "longq": format!("'{}", "word ".repeat(40))});
        let text = emit(&v);
        let back: crate::rawjson::Transcoded = serde_saphyr::from_str(&text).unwrap();
        let back: Value = serde_json::from_str(&back.0).unwrap();
        assert_eq!(back, v, "{text}");
    }
}
