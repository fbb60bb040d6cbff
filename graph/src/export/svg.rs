//! SVG: the DOT drawing ([`super::dot`]) laid out by Graphviz's `dot`
//! program.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

/// Why SVG could not be made.
#[derive(Debug, thiserror::Error)]
pub enum SvgError {
    /// `dot` is not installed.
    #[error(
        "-o svg needs Graphviz's `dot` program, which was not found on PATH; install Graphviz (e.g. `apt-get install graphviz`) or use -o dot"
    )]
    NotInstalled,
    /// `dot` could not be run or failed.
    #[error("running Graphviz's `dot -Tsvg` failed: {0}")]
    Failed(String),
}

/// Pipe DOT text through `dot -Tsvg` (Graphviz, found on `PATH`).
pub fn render(dot_text: &str) -> Result<Vec<u8>, SvgError> {
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => SvgError::NotInstalled,
            _ => SvgError::Failed(e.to_string()),
        })?;
    let mut stdin = child
        .stdin
        .take()
        .ok_or_else(|| SvgError::Failed("no standard input".into()))?;
    let input = dot_text.as_bytes().to_vec();
    // Feed standard input from another thread so a large output cannot block it.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let mut svg = Vec::new();
    let mut stdout = child
        .stdout
        .take()
        .ok_or_else(|| SvgError::Failed("no standard output".into()))?;
    stdout
        .read_to_end(&mut svg)
        .map_err(|e| SvgError::Failed(e.to_string()))?;
    let mut errors = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        let _ = stderr.read_to_string(&mut errors);
    }
    let status = child.wait().map_err(|e| SvgError::Failed(e.to_string()))?;
    match writer.join() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(SvgError::Failed(format!("writing its input: {e}"))),
        Err(_) => return Err(SvgError::Failed("writing its input".into())),
    }
    if !status.success() {
        return Err(SvgError::Failed(format!("{status}: {}", errors.trim())));
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_text_becomes_svg_or_graphviz_is_named() {
        match render("digraph { a -> b }") {
            Ok(svg) => assert!(String::from_utf8_lossy(&svg).contains("<svg")),
            Err(SvgError::NotInstalled) => {
                assert!(SvgError::NotInstalled
                    .to_string()
                    .contains("apt-get install graphviz"))
            }
            Err(e) => panic!("{e}"),
        }
        assert!(matches!(
            render("digraph {"),
            Err(SvgError::Failed(_)) | Err(SvgError::NotInstalled)
        ));
    }
}
