//! go-yaml v2's syntax errors, as opm reports them (`yaml: line N: ...`).
//!
//! opm reads a catalog's YAML documents with `sigs.k8s.io/yaml`, which parses
//! them with go-yaml v2 (a port of libyaml). Its scanner refuses tabs in more
//! places than YAML 1.2 (and the general parser olmsat uses) does, and its
//! messages and line numbers are its own. This module finds the errors go-yaml
//! v2's *scanner* would raise in a document ([`scan`]), by walking the
//! document with the same state the scanner keeps (flow level, whether a
//! simple key may start, the block indentation, the pending simple key), and
//! gives go-yaml's words for the parser errors the general parser reports
//! ([`from_saphyr`]).
//!
//! go-yaml's line rule (its `parser.fail`): a scanner error reports the
//! problem's line counted from 1; a parser error reports it counted from 0
//! (a known quirk); when that number is 0 the context's line (counted from 0)
//! is used instead, and when both are 0 there is no `line N: ` at all. Lines
//! count within the document being decoded, from its first line (a `---`
//! line that opens it included).

use std::fmt;

/// A syntax error in go-yaml v2's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoYamlError {
    /// go-yaml's message (`found character that cannot start any token`).
    pub message: String,
    /// The `N` of `line N: `, as go-yaml computes it; `None` when it prints none.
    pub line: Option<usize>,
    /// Where the problem is: line (from 0) and column (from 0, in characters)
    /// in the text given.
    pub at: (usize, usize),
    /// Whether the problem is a tab character (where go-yaml allows none but
    /// YAML 1.2 does).
    pub tab: bool,
}

impl fmt::Display for GoYamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(n) => write!(f, "yaml: line {n}: {}", self.message),
            None => write!(f, "yaml: {}", self.message),
        }
    }
}

/// The kinds of error [`scan`] finds.
const CANNOT_START: &str = "found character that cannot start any token";
const TAB_VIOLATES: &str = "found a tab character that violates indentation";
const TAB_INDENT: &str = "found a tab character where an indentation space is expected";
const MAPPING_VALUES: &str = "mapping values are not allowed in this context";
const BLOCK_ENTRIES: &str = "block sequence entries are not allowed in this context";
const EXPECTED_COLON: &str = "could not find expected ':'";
const QUOTED_EOF: &str = "found unexpected end of stream";
const QUOTED_MARKER: &str = "found unexpected document indicator";

/// A scanner error at `(line, col)` with the context at `ctx_line`, numbered
/// by go-yaml's rule; `shift` is added to every line (1 when an opening `---`
/// line precedes the text).
fn scanner_error(
    message: &str,
    (line, col): (usize, usize),
    ctx_line: usize,
    shift: usize,
    tab: bool,
) -> GoYamlError {
    let (line, ctx_line) = (line + shift, ctx_line + shift);
    let n = if line != 0 {
        Some(line + 1)
    } else if ctx_line != 0 {
        Some(ctx_line)
    } else {
        None
    };
    GoYamlError {
        message: message.to_owned(),
        line: n,
        at: (line - shift, col),
        tab,
    }
}

/// A parser error at `line` (from 0) with its context at `ctx_line`, numbered
/// by go-yaml's rule.
fn parser_error(
    message: String,
    line: usize,
    col: usize,
    ctx_line: usize,
    shift: usize,
) -> GoYamlError {
    let (l, c) = (line + shift, ctx_line + shift);
    let n = if l != 0 {
        Some(l)
    } else if c != 0 {
        Some(c)
    } else {
        None
    };
    GoYamlError {
        message,
        line: n,
        at: (line, col),
        tab: false,
    }
}

/// A possible simple key (an implicit mapping key not yet followed by `:`).
#[derive(Debug, Clone, Copy)]
struct SimpleKey {
    line: usize,
    col: usize,
    index: usize,
    required: bool,
}

/// Why the walk stopped without an error of its own.
enum Stop {
    /// The document ended (or an end marker `...` ended what go-yaml reads).
    End,
    /// Something this walk does not follow (directives, an error go-yaml
    /// words differently): no verdict.
    Unknown,
}

/// The scanner's state over one document.
struct Scanner<'a> {
    b: &'a [u8],
    pos: usize,
    line: usize,
    col: usize,
    /// Characters read (go-yaml's mark index).
    index: usize,
    flow_level: usize,
    simple_key_allowed: bool,
    /// The pending simple key of each flow level (the first for block context).
    keys: Vec<Option<SimpleKey>>,
    indent: isize,
    indents: Vec<isize>,
    shift: usize,
}

type Step = Result<(), Result<GoYamlError, Stop>>;

fn fail(e: GoYamlError) -> Step {
    Err(Ok(e))
}

impl<'a> Scanner<'a> {
    fn at(&self, i: usize) -> u8 {
        self.b.get(self.pos + i).copied().unwrap_or(0)
    }
    fn c(&self) -> u8 {
        self.at(0)
    }
    fn is_break(c: u8) -> bool {
        c == b'\n' || c == b'\r'
    }
    fn is_blank(c: u8) -> bool {
        c == b' ' || c == b'\t'
    }
    fn is_blankz(c: u8) -> bool {
        Self::is_blank(c) || Self::is_break(c) || c == 0
    }
    fn eof(&self) -> bool {
        self.pos >= self.b.len()
    }
    /// Move past one character (not a line break).
    fn skip(&mut self) {
        if self.eof() {
            return;
        }
        self.pos += 1;
        while self.pos < self.b.len() && (self.b[self.pos] & 0xc0) == 0x80 {
            self.pos += 1;
        }
        self.col += 1;
        self.index += 1;
    }
    /// Move past a line break (`\r\n` is one).
    fn skip_line(&mut self) {
        if self.c() == b'\r' && self.at(1) == b'\n' {
            self.pos += 2;
            self.index += 2;
        } else {
            self.pos += 1;
            self.index += 1;
        }
        self.line += 1;
        self.col = 0;
    }
    fn err(&self, message: &str, ctx_line: usize) -> GoYamlError {
        let tab = self.c() == b'\t';
        scanner_error(message, (self.line, self.col), ctx_line, self.shift, tab)
    }
    fn is_marker(&self) -> bool {
        self.col == 0
            && ((self.c() == b'-' && self.at(1) == b'-' && self.at(2) == b'-')
                || (self.c() == b'.' && self.at(1) == b'.' && self.at(2) == b'.'))
            && Self::is_blankz(self.at(3))
    }

    fn key_slot(&mut self) -> &mut Option<SimpleKey> {
        let n = self.keys.len();
        &mut self.keys[n - 1]
    }

    /// go-yaml drops simple keys that can no longer be keys; a required one is
    /// an error then.
    fn stale_keys(&mut self) -> Step {
        let (line, index) = (self.line, self.index);
        for k in self.keys.iter_mut() {
            if let Some(key) = *k {
                if key.line < line || key.index + 1024 < index {
                    if key.required {
                        return fail(scanner_error(
                            EXPECTED_COLON,
                            (line, self.col),
                            key.line,
                            self.shift,
                            false,
                        ));
                    }
                    *k = None;
                }
            }
        }
        Ok(())
    }

    fn save_key(&mut self) -> Step {
        if self.simple_key_allowed {
            let required = self.flow_level == 0 && self.indent == self.col as isize;
            self.remove_key()?;
            let k = SimpleKey {
                line: self.line,
                col: self.col,
                index: self.index,
                required,
            };
            *self.key_slot() = Some(k);
        }
        Ok(())
    }

    fn remove_key(&mut self) -> Step {
        if let Some(k) = self.key_slot().take() {
            if k.required {
                return fail(scanner_error(
                    EXPECTED_COLON,
                    (self.line, self.col),
                    k.line,
                    self.shift,
                    false,
                ));
            }
        }
        Ok(())
    }

    fn roll_indent(&mut self, col: usize) {
        if self.flow_level == 0 && self.indent < col as isize {
            self.indents.push(self.indent);
            self.indent = col as isize;
        }
    }

    fn unroll_indent(&mut self) {
        if self.flow_level > 0 {
            return;
        }
        while self.indent > self.col as isize {
            self.indent = self.indents.pop().unwrap_or(-1);
        }
    }

    /// Skip white space, comments and line breaks up to the next token.
    fn skip_to_token(&mut self) {
        loop {
            while self.c() == b' '
                || ((self.flow_level > 0 || !self.simple_key_allowed) && self.c() == b'\t')
            {
                self.skip();
            }
            if self.c() == b'#' {
                while !self.eof() && !Self::is_break(self.c()) {
                    self.skip();
                }
            }
            if !self.eof() && Self::is_break(self.c()) {
                self.skip_line();
                if self.flow_level == 0 {
                    self.simple_key_allowed = true;
                }
            } else {
                break;
            }
        }
    }

    /// Read the next token, or stop.
    fn token(&mut self) -> Step {
        self.skip_to_token();
        self.stale_keys()?;
        self.unroll_indent();
        if self.eof() {
            return Err(Err(Stop::End));
        }
        let c = self.c();
        let next = self.at(1);
        if self.col == 0 && c == b'%' {
            return Err(Err(Stop::Unknown));
        }
        if self.is_marker() {
            // `...` ends what go-yaml reads of the document; a `---` line
            // is not inside a chunk.
            return Err(Err(if c == b'.' { Stop::End } else { Stop::Unknown }));
        }
        let flow = self.flow_level > 0;
        match c {
            b'[' | b'{' => {
                self.save_key()?;
                self.flow_level += 1;
                self.keys.push(None);
                self.simple_key_allowed = true;
                self.skip();
            }
            b']' | b'}' => {
                self.remove_key()?;
                if self.flow_level > 0 {
                    self.flow_level -= 1;
                    self.keys.pop();
                }
                self.simple_key_allowed = false;
                self.skip();
            }
            b',' => {
                self.remove_key()?;
                self.simple_key_allowed = true;
                self.skip();
            }
            b'-' if Self::is_blankz(next) => {
                if !flow {
                    if !self.simple_key_allowed {
                        return fail(self.err(BLOCK_ENTRIES, self.line));
                    }
                    self.roll_indent(self.col);
                }
                self.remove_key()?;
                self.simple_key_allowed = true;
                self.skip();
            }
            b'?' if flow || Self::is_blankz(next) => {
                if !flow {
                    if !self.simple_key_allowed {
                        // go-yaml: "mapping keys are not allowed in this context".
                        return Err(Err(Stop::Unknown));
                    }
                    self.roll_indent(self.col);
                }
                self.remove_key()?;
                self.simple_key_allowed = !flow;
                self.skip();
            }
            b':' if flow || Self::is_blankz(next) => {
                if let Some(k) = self.key_slot().take() {
                    self.roll_indent(k.col);
                    self.simple_key_allowed = false;
                } else {
                    if !flow {
                        if !self.simple_key_allowed {
                            return fail(self.err(MAPPING_VALUES, self.line));
                        }
                        self.roll_indent(self.col);
                    }
                    self.simple_key_allowed = !flow;
                }
                self.skip();
            }
            b'*' | b'&' => {
                self.save_key()?;
                self.simple_key_allowed = false;
                self.skip();
                while self.c().is_ascii_alphanumeric() || self.c() == b'_' || self.c() == b'-' {
                    self.skip();
                }
            }
            b'!' => {
                self.save_key()?;
                self.simple_key_allowed = false;
                while !Self::is_blankz(self.c()) {
                    self.skip();
                }
            }
            b'|' | b'>' if !flow => {
                self.remove_key()?;
                self.simple_key_allowed = true;
                self.block_scalar()?;
            }
            b'\'' | b'"' => {
                self.save_key()?;
                self.simple_key_allowed = false;
                self.quoted(c == b'\'')?;
            }
            _ if starts_plain(c, next, flow) => {
                self.save_key()?;
                self.simple_key_allowed = false;
                self.plain()?;
            }
            _ => return fail(self.err(CANNOT_START, self.line)),
        }
        Ok(())
    }

    fn plain(&mut self) -> Step {
        let start_line = self.line;
        let indent = self.indent + 1;
        let flow = self.flow_level > 0;
        let mut leading_blanks = false;
        loop {
            if self.is_marker() || self.c() == b'#' {
                break;
            }
            while !Self::is_blankz(self.c()) {
                let c = self.c();
                if (c == b':' && Self::is_blankz(self.at(1)))
                    || (flow && matches!(c, b',' | b'?' | b'[' | b']' | b'{' | b'}'))
                {
                    break;
                }
                leading_blanks = false;
                self.skip();
            }
            if !(Self::is_blank(self.c()) || (!self.eof() && Self::is_break(self.c()))) {
                break;
            }
            while Self::is_blank(self.c()) || (!self.eof() && Self::is_break(self.c())) {
                if Self::is_blank(self.c()) {
                    if leading_blanks && (self.col as isize) < indent && self.c() == b'\t' {
                        return fail(self.err(TAB_VIOLATES, start_line));
                    }
                    self.skip();
                } else {
                    leading_blanks = true;
                    self.skip_line();
                }
            }
            if !flow && (self.col as isize) < indent {
                break;
            }
        }
        if leading_blanks {
            self.simple_key_allowed = true;
        }
        Ok(())
    }

    fn quoted(&mut self, single: bool) -> Step {
        let start_line = self.line;
        self.skip();
        loop {
            if self.is_marker() {
                return fail(self.err(QUOTED_MARKER, start_line));
            }
            if self.eof() {
                return fail(self.err(QUOTED_EOF, start_line));
            }
            let c = self.c();
            if Self::is_break(c) {
                self.skip_line();
            } else if single && c == b'\'' {
                if self.at(1) == b'\'' {
                    self.skip();
                    self.skip();
                } else {
                    self.skip();
                    return Ok(());
                }
            } else if !single && c == b'"' {
                self.skip();
                return Ok(());
            } else if !single && c == b'\\' {
                self.skip();
                if !self.eof() && Self::is_break(self.c()) {
                    self.skip_line();
                } else {
                    self.skip();
                }
            } else {
                self.skip();
            }
        }
    }

    fn block_scalar(&mut self) -> Step {
        let start_line = self.line;
        self.skip();
        let mut increment = 0usize;
        for _ in 0..2 {
            match self.c() {
                b'+' | b'-' => self.skip(),
                b'1'..=b'9' if increment == 0 => {
                    increment = usize::from(self.c() - b'0');
                    self.skip();
                }
                _ => {}
            }
        }
        while Self::is_blank(self.c()) {
            self.skip();
        }
        if self.c() == b'#' {
            while !self.eof() && !Self::is_break(self.c()) {
                self.skip();
            }
        }
        if self.eof() {
            return Ok(());
        }
        if !Self::is_break(self.c()) {
            return Err(Err(Stop::Unknown));
        }
        self.skip_line();
        let mut indent: isize = if increment > 0 {
            if self.indent >= 0 {
                self.indent + increment as isize
            } else {
                increment as isize
            }
        } else {
            0
        };
        self.block_breaks(&mut indent, start_line)?;
        while self.col as isize == indent && !self.eof() {
            while !self.eof() && !Self::is_break(self.c()) {
                self.skip();
            }
            if self.eof() {
                break;
            }
            self.skip_line();
            self.block_breaks(&mut indent, start_line)?;
        }
        Ok(())
    }

    fn block_breaks(&mut self, indent: &mut isize, start_line: usize) -> Step {
        let mut max_indent = 0isize;
        loop {
            while (*indent == 0 || (self.col as isize) < *indent) && self.c() == b' ' {
                self.skip();
            }
            max_indent = max_indent.max(self.col as isize);
            if (*indent == 0 || (self.col as isize) < *indent) && self.c() == b'\t' {
                return fail(self.err(TAB_INDENT, start_line));
            }
            if self.eof() || !Self::is_break(self.c()) {
                break;
            }
            self.skip_line();
        }
        if *indent == 0 {
            *indent = max_indent.max(self.indent + 1).max(1);
        }
        Ok(())
    }
}

/// Characters that never start a plain scalar (YAML's indicators but `-`,
/// `?` and `:`, which start one when no blank follows them).
pub fn is_indicator(c: u8) -> bool {
    matches!(
        c,
        b',' | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    )
}

/// Whether `c` (followed by `next`) starts a plain scalar, by go-yaml's rule.
fn starts_plain(c: u8, next: u8, flow: bool) -> bool {
    let indicator = Scanner::is_blankz(c) || matches!(c, b'-' | b'?' | b':') || is_indicator(c);
    !indicator
        || (c == b'-' && !Scanner::is_blank(next))
        || (!flow && (c == b'?' || c == b':') && !Scanner::is_blankz(next))
}

/// The first error go-yaml v2's scanner raises in the YAML document `text`,
/// if this walk can tell: tabs where go-yaml allows none (at the start of a
/// line, after `-`, `?` or a complex `:`, in the indentation of a plain or
/// block scalar), characters that cannot start a token, mapping values and
/// sequence entries out of place, a quoted scalar left open, a required
/// simple key without its `:`. With `opened`, a `---` line (counted by go-yaml)
/// came just before `text`.
pub fn scan(text: &str, opened: bool) -> Option<GoYamlError> {
    let mut s = Scanner {
        b: text.as_bytes(),
        pos: 0,
        line: 0,
        col: 0,
        index: 0,
        flow_level: 0,
        // A document starts after a line break (the stream's start, or the
        // end of its `---` line): a simple key may start.
        simple_key_allowed: true,
        keys: vec![None],
        indent: -1,
        indents: Vec::new(),
        shift: usize::from(opened),
    };
    if text.starts_with('\u{feff}') {
        s.skip();
    }
    loop {
        match s.token() {
            Ok(()) => {}
            Err(Ok(e)) => return Some(e),
            Err(Err(Stop::End | Stop::Unknown)) => return None,
        }
    }
}

/// go-yaml's words for the general parser's error `e` in the document `text`,
/// for the parser errors whose place both parsers agree on (a block mapping
/// or sequence broken off, a node missing, a flow collection left open, an
/// alias to an unknown anchor). Scanner errors are [`scan`]'s.
pub fn from_saphyr(text: &str, e: &serde_saphyr::Error, opened: bool) -> Option<GoYamlError> {
    let shift = usize::from(opened);
    match e.without_snippet() {
        serde_saphyr::Error::ExternalMessage { source, .. } => {
            let serde_saphyr::ExternalMessageSource::Parser(scan) = &**source else {
                return None;
            };
            use serde_saphyr::granit_parser::ErrorKind;
            let m = scan.marker();
            let (line, col) = (m.line().saturating_sub(1), m.col());
            let message = match scan.kind() {
                ErrorKind::ExpectedBlockMappingKey => "did not find expected key",
                ErrorKind::ExpectedBlockSequenceEntry => "did not find expected '-' indicator",
                ErrorKind::ExpectedNodeContent => "did not find expected node content",
                ErrorKind::UnclosedFlowCollection { open } => {
                    // Found at the end of the document, where go-yaml's
                    // stream end starts a new line.
                    let end = text.matches('\n').count()
                        + usize::from(!text.is_empty() && !text.ends_with('\n'));
                    let message = if *open == '[' {
                        "did not find expected ',' or ']'"
                    } else {
                        "did not find expected ',' or '}'"
                    };
                    // (Placed at the bracket left open.)
                    let mut e = parser_error(message.to_owned(), end, 0, 0, shift);
                    e.at = (line, col);
                    return Some(e);
                }
                _ => return None,
            };
            Some(parser_error(message.to_owned(), line, col, 0, shift))
        }
        serde_saphyr::Error::UnknownAnchor { location } => {
            // The alias's name, read from the text (`*name`).
            let at = usize::try_from(location.span().offset()).ok()?;
            let (start, _) = text.char_indices().nth(at)?;
            let name: String = text[start..]
                .strip_prefix('*')?
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                .collect();
            Some(GoYamlError {
                message: format!("unknown anchor '{name}' referenced"),
                line: None,
                at: (
                    usize::try_from(location.line())
                        .unwrap_or(1)
                        .saturating_sub(1),
                    usize::try_from(location.column())
                        .unwrap_or(1)
                        .saturating_sub(1),
                ),
                tab: false,
            })
        }
        serde_saphyr::Error::AliasError { error, .. } => from_saphyr(text, error, opened),
        _ => None,
    }
}

/// The error go-yaml v2 reports for the YAML document `text`, given the
/// general parser's verdict on it (`parsed`: its error, if any), when go-yaml's
/// words for it are known: the first of [`scan`]'s and [`from_saphyr`]'s
/// (when go-yaml's scanner stops in the document, that is its error). For
/// a document the general parser accepts, only the tabs go-yaml refuses are
/// reported (the walk is looked at only for what the two parsers are known to
/// judge differently). With `opened`, a `---` line came just before `text`.
pub fn go_yaml_error(
    text: &str,
    opened: bool,
    parsed: Option<&serde_saphyr::Error>,
) -> Option<GoYamlError> {
    let Some(e) = parsed else {
        // Only tabs are looked for here.
        memchr::memchr(b'\t', text.as_bytes())?;
        return scan(text, opened).filter(|s| s.tab);
    };
    let scanned = scan(text, opened);
    let mapped = from_saphyr(text, e, opened);
    match (scanned, mapped) {
        (Some(s), Some(m)) => Some(if s.at <= m.at { s } else { m }),
        (s, m) => s.or(m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::yaml::{options, DuplicateKeys};

    /// go-yaml's text for `text`, with the general parser's verdict.
    fn go(text: &str) -> Option<String> {
        let parsed = serde_saphyr::from_str_with_options::<serde_json::Value>(
            text,
            options(DuplicateKeys::Refuse),
        );
        go_yaml_error(text, false, parsed.as_ref().err()).map(|e| e.to_string())
    }

    #[test]
    fn tabs_go_yaml_refuses() {
        let cannot = "found character that cannot start any token";
        for (text, want) in [
            // After a sequence dash: a simple key may start, so no tab.
            ("a: 1\nb:\n-\tname: x\n", format!("yaml: line 3: {cannot}")),
            // A tab-only line, a tab-indented comment after a quoted value.
            ("a: \"1\"\n\t\nb: 2\n", format!("yaml: line 2: {cannot}")),
            ("a: '1'\n\t# c\n", format!("yaml: line 2: {cannot}")),
            // After a key whose value starts on the next line.
            ("a:\n\tb: 1\n", format!("yaml: line 2: {cannot}")),
            // On the document's first line: no line at all.
            ("\ta: 1\n", format!("yaml: {cannot}")),
            // After a plain scalar, in its indentation.
            (
                "a: 1\n\t# c\n",
                "yaml: line 2: found a tab character that violates indentation".to_owned(),
            ),
            (
                "a:\n  b: x\n  \tc: 2\n",
                "yaml: line 3: found a tab character that violates indentation".to_owned(),
            ),
            // In a block scalar's indentation.
            (
                "a: |\n  x\n\ty\n",
                "yaml: line 3: found a tab character where an indentation space is expected"
                    .to_owned(),
            ),
        ] {
            assert_eq!(go(text).as_deref(), Some(want.as_str()), "{text:?}");
        }
    }

    #[test]
    fn tabs_go_yaml_allows() {
        for text in [
            // After a simple key's `:`, inside and after values, before comments.
            "a:\tb\n",
            "a: b\tc\t# x\n",
            "a: \"b\"\t\n",
            "a: [1,\t2]\n",
            "a: {\n\tb: 1}\n",
            "a: |\n  x\ty\n  \tz\n",
            "a: \"x\n\ty\"\n",
            "a: 1\n...\n\tb\n",
            // In a plain scalar's continuation, past its indentation.
            "a:\n  b: x\n   \ty\n",
        ] {
            assert_eq!(go(text), None, "{text:?}");
        }
    }

    #[test]
    fn an_opening_separator_line_is_counted() {
        let e = go_yaml_error("a: 1\nb:\n-\tx\n", true, None).expect("refused");
        assert_eq!(
            e.to_string(),
            "yaml: line 4: found character that cannot start any token"
        );
        let e = go_yaml_error("\ta: 1\n", true, None).expect("refused");
        assert_eq!(
            e.to_string(),
            "yaml: line 2: found character that cannot start any token"
        );
    }

    #[test]
    fn other_errors_in_go_yamls_words() {
        for (text, want) in [
            (
                "a: b: c\n",
                "yaml: mapping values are not allowed in this context",
            ),
            (
                "x: 1\na: b: c\n",
                "yaml: line 2: mapping values are not allowed in this context",
            ),
            (
                "x: 1\ny: @a\n",
                "yaml: line 2: found character that cannot start any token",
            ),
            (
                "x: 1\ny:\n  a: 1\n b: 2\n",
                "yaml: line 3: did not find expected key",
            ),
            ("x: 1\n- a\n", "yaml: line 1: did not find expected key"),
            (
                "x: 1\ny:\n  - a\n  b: 1\n",
                "yaml: line 3: did not find expected '-' indicator",
            ),
            (
                "x: 1\ny: [1, 2\n",
                "yaml: line 2: did not find expected ',' or ']'",
            ),
            (
                "x: 1\ny: {a: 1\n",
                "yaml: line 2: did not find expected ',' or '}'",
            ),
            ("x: 1\ny: *a\n", "yaml: unknown anchor 'a' referenced"),
            (
                "x: a\ny\nz: 1\n",
                "yaml: line 3: could not find expected ':'",
            ),
            (
                "x: 1\ny: 'abc\n",
                "yaml: line 3: found unexpected end of stream",
            ),
            (
                "x: 1\n- a: b: c\n",
                "yaml: line 1: did not find expected key",
            ),
        ] {
            assert_eq!(go(text).as_deref(), Some(want), "{text:?}");
        }
    }

    #[test]
    fn valid_documents_have_no_error() {
        for text in [
            "a: 1\n",
            "a:\n- b: 1\n  c: [x, y]\n- 'q': \"r\"\n",
            "a: &x 1\nb: *x\n",
            "? a\n: b\n",
            "a: >-\n  folded\n  text\n\nb: |2\n    keep\n",
            "a: !!str 1\n",
        ] {
            assert_eq!(go(text), None, "{text:?}");
            assert_eq!(scan(text, false), None, "{text:?}");
        }
    }
}
