//! Image pull spec validation, following `docker/reference.ParseNormalizedNamed`
//! (the check opm applies to bundle and related images).
//!
//! ```text
//! reference   := name [ ":" tag ] [ "@" digest ]
//! name        := [domain "/"] path-component ("/" path-component)*
//! domain      := domain-component ("." domain-component)* [":" port]
//! path-comp.  := [a-z0-9]+ (separator [a-z0-9]+)*   separator := [_.] | "__" | "-"+
//! tag         := [\w][\w.-]{0,127}
//! digest      := algorithm ":" hex{32,}
//! ```

/// Why a pull spec is invalid; the Display text is the Go library's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImageRefError {
    /// Generic grammar violation.
    #[error("invalid reference format")]
    InvalidFormat,
    /// Upper-case letters in the repository path (before any tag).
    #[error("invalid reference format: repository name must be lowercase")]
    Uppercase,
    /// Upper-case letters where only the grammar, not the path check, sees
    /// them.
    #[error("repository name must be lowercase")]
    NameContainsUppercase,
    /// Name longer than 255 characters.
    #[error("repository name must not be more than 255 characters")]
    NameTooLong,
    /// A bare 64-character hex string used as a name.
    #[error("invalid repository name ({0}), cannot specify 64-byte hexadecimal strings")]
    HexName(String),
    /// Digest with a bad algorithm or length.
    #[error("invalid digest format")]
    InvalidDigest,
    /// Known algorithm, wrong length.
    #[error("invalid checksum digest length")]
    DigestLength,
    /// Unknown digest algorithm.
    #[error("unsupported digest algorithm")]
    DigestAlgorithm,
}

/// Check a pull spec; `Ok` when `docker/reference.ParseNormalizedNamed` (the
/// `containers/image` one opm calls) would accept it.
///
/// Its rules, in its order: a 64-character lower-case hex string is refused;
/// the first `/`-separated component is a domain only when it holds a `.` or
/// a `:` or is `localhost` (otherwise the whole name is a path on the default
/// registry); the path up to the first `:` after the domain must be lower
/// case; then the reference grammar above (a domain may hold upper case).
pub fn validate(spec: &str) -> Result<(), ImageRefError> {
    if spec.len() == 64
        && spec
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    {
        return Err(ImageRefError::HexName(spec.to_owned()));
    }
    let (domain, remainder) = split_docker_domain(spec);
    let remote = remainder.split(':').next().unwrap_or(remainder);
    if remote.to_lowercase() != remote {
        return Err(ImageRefError::Uppercase);
    }
    let full = match domain {
        Some(d) => format!("{d}/{remainder}"),
        None => format!("docker.io/{remainder}"),
    };
    if let Err(e) = parse(&full) {
        if e == ImageRefError::InvalidFormat && parse(&full.to_lowercase()).is_ok() {
            return Err(ImageRefError::NameContainsUppercase);
        }
        return Err(e);
    }
    Ok(())
}

/// The domain (when the first component is one) and the rest.
fn split_docker_domain(name: &str) -> (Option<&str>, &str) {
    match name.split_once('/') {
        Some((first, rest)) if first.contains(['.', ':']) || first == "localhost" => {
            (Some(first), rest)
        }
        _ => (None, name),
    }
}

/// The reference grammar (`name [":" tag] ["@" digest]`), then the digest's
/// own checks.
fn parse(spec: &str) -> Result<(), ImageRefError> {
    let (rest, digest) = match spec.split_once('@') {
        Some((r, d)) => (r, Some(d)),
        None => (spec, None),
    };
    // The tag is after the last ':' that follows the last '/'.
    let last_slash = rest.rfind('/').map(|i| i + 1).unwrap_or(0);
    let (name, tag) = match rest[last_slash..].rfind(':') {
        Some(i) => (&rest[..last_slash + i], Some(&rest[last_slash + i + 1..])),
        None => (rest, None),
    };
    if name.is_empty() || !valid_name(name) {
        return Err(ImageRefError::InvalidFormat);
    }
    if let Some(t) = tag {
        if !valid_tag(t) {
            return Err(ImageRefError::InvalidFormat);
        }
    }
    if let Some(d) = digest {
        if !digest_pattern(d) {
            return Err(ImageRefError::InvalidFormat);
        }
    }
    if name.len() > 255 {
        return Err(ImageRefError::NameTooLong);
    }
    if let Some(d) = digest {
        validate_digest(d)?;
    }
    Ok(())
}

/// `[domain "/"] path-component ("/" path-component)*`, either reading.
fn valid_name(name: &str) -> bool {
    let path = |p: &str| p.split('/').all(valid_path_component);
    path(name)
        || name
            .split_once('/')
            .is_some_and(|(d, p)| valid_domain(d) && path(p))
}

/// `domain-component ("." domain-component)* [":" digits]`, where a
/// component is letters (either case), digits and inner `-`.
fn valid_domain(d: &str) -> bool {
    let (host, port) = match d.split_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (d, None),
    };
    if let Some(p) = port {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
    }
    !host.is_empty()
        && host.split('.').all(|c| {
            !c.is_empty()
                && c.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !c.starts_with('-')
                && !c.ends_with('-')
        })
}

fn valid_path_component(c: &str) -> bool {
    let b = c.as_bytes();
    if b.is_empty() || !is_alnum(b[0]) || !is_alnum(b[b.len() - 1]) {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if is_alnum(b[i]) {
            i += 1;
            continue;
        }
        // a separator run: "_", ".", "__" or one or more "-"
        let start = i;
        if b[i] == b'-' {
            while i < b.len() && b[i] == b'-' {
                i += 1;
            }
        } else if b[i] == b'_' && i + 1 < b.len() && b[i + 1] == b'_' {
            i += 2;
        } else if b[i] == b'_' || b[i] == b'.' {
            i += 1;
        } else {
            return false;
        }
        if i == start || i >= b.len() || !is_alnum(b[i]) {
            return false;
        }
    }
    true
}

fn is_alnum(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

fn valid_tag(t: &str) -> bool {
    let b = t.as_bytes();
    !b.is_empty()
        && b.len() <= 128
        && (b[0].is_ascii_alphanumeric() || b[0] == b'_')
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-'))
}

/// `algorithm ":" hex{32,}` as the reference grammar has it.
fn digest_pattern(d: &str) -> bool {
    let Some((alg, hex)) = d.split_once(':') else {
        return false;
    };
    let alg_ok = !alg.is_empty()
        && alg.split(['+', '.', '-', '_']).all(|c| {
            let b = c.as_bytes();
            !b.is_empty()
                && b[0].is_ascii_alphabetic()
                && b.iter().all(|x| x.is_ascii_alphanumeric())
        });
    alg_ok && hex.len() >= 32 && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The digest library's checks: a known algorithm, then the length, then
/// lower-case hex.
fn validate_digest(d: &str) -> Result<(), ImageRefError> {
    let (alg, hex) = d.split_once(':').unwrap_or((d, ""));
    let want = match alg {
        "sha256" => 64,
        "sha384" => 96,
        "sha512" => 128,
        _ => return Err(ImageRefError::DigestAlgorithm),
    };
    if hex.len() != want {
        return Err(ImageRefError::DigestLength);
    }
    if hex.bytes().any(|b| b.is_ascii_uppercase()) {
        return Err(ImageRefError::InvalidDigest);
    }
    Ok(())
}

/// Like [`validate`], but an empty pull spec is accepted (opm does not check it).
pub fn validate_if_set(spec: &str) -> Result<(), ImageRefError> {
    if spec.is_empty() {
        Ok(())
    } else {
        validate(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_real_pull_specs() {
        for s in [
            "quay.io/operatorhubio/etcd:v0.9.4",
            "registry.redhat.io/rhtpa/operator-bundle@sha256:8b5e2f0a5cbf2d3a6c6d0c7b1e8a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c",
            "localhost:5000/foo/bar:1.0",
            "busybox",
            "docker.io/library/busybox:latest",
            "my-registry.example.com:443/ns/img__x.y-z:tag_1.2-3",
            "Quay.io/foo/bar",
            "LocalHost.example:5000/a/b",
            "a_b.c/x",
        ] {
            assert_eq!(validate(s), Ok(()), "{s}");
        }
    }

    #[test]
    fn rejects_bad_specs() {
        assert_eq!(validate("Quay.io/foo/Bar:1"), Err(ImageRefError::Uppercase));
        assert_eq!(validate("foo/Bar"), Err(ImageRefError::Uppercase));
        // Upper case in a first component that is no registry host: it is
        // a path component, and must be lower case.
        assert_eq!(validate("UPPER/case"), Err(ImageRefError::Uppercase));
        assert_eq!(validate("UPPER/case:v1"), Err(ImageRefError::Uppercase));
        assert_eq!(validate("Upper"), Err(ImageRefError::Uppercase));
        // A tag may hold upper case; a bracketed IPv6 host is not in the grammar.
        assert_eq!(validate("foo/bar:V1"), Ok(()));
        assert_eq!(
            validate("[::1]:5000/a/b"),
            Err(ImageRefError::InvalidFormat)
        );
        assert_eq!(validate("foo bar"), Err(ImageRefError::InvalidFormat));
        assert_eq!(validate("foo:"), Err(ImageRefError::InvalidFormat));
        assert_eq!(
            validate("foo@sha256:abc"),
            Err(ImageRefError::InvalidFormat)
        );
        assert_eq!(
            validate("foo@sha256:0123456789abcdef0123456789abcdef"),
            Err(ImageRefError::DigestLength)
        );
        assert_eq!(
            validate("foo@md5:0123456789abcdef0123456789abcdef"),
            Err(ImageRefError::DigestAlgorithm)
        );
        assert_eq!(validate("-foo"), Err(ImageRefError::InvalidFormat));
        assert_eq!(validate("foo//bar"), Err(ImageRefError::InvalidFormat));
        assert!(matches!(
            validate("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"),
            Err(ImageRefError::HexName(_))
        ));
    }
}
