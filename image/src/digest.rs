//! Content digests as OCI writes them (`sha256:…`, `sha512:…`).

use sha2::{Digest, Sha256, Sha512};

use crate::ImageError;

/// The digest of `bytes` with the algorithm `like` names.
pub(crate) fn digest_of(image: &str, like: &str, bytes: &[u8]) -> Result<String, ImageError> {
    match like.split_once(':').map(|(a, _)| a) {
        Some("sha256") => Ok(format!("sha256:{}", hex(&Sha256::digest(bytes)))),
        Some("sha512") => Ok(format!("sha512:{}", hex(&Sha512::digest(bytes)))),
        _ => Err(ImageError::UnsupportedDigest {
            image: image.to_owned(),
            digest: like.to_owned(),
        }),
    }
}

/// Lower-case hexadecimal.
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}
