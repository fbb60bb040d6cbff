//! A catalog image as loader [`Sources`]: every file of its catalog directory,
//! sorted by path, `.indexignore` files applied, each named
//! `IMAGE!/configs/pkg/catalog.json` in locations. The bytes are the layers'
//! own, in memory, shared with the loader (never copied). A catalog
//! directory that is a symbolic link to another directory of the image is
//! read from there.

use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Rule};
use crate::load::{SourceFile, Sources};
use crate::location::Location;
use crate::source::ignore::{self, TreeFile};

use super::{Image, ImageError, Kind, Node};

struct File {
    rel: String,
    data: Arc<Vec<u8>>,
}

impl TreeFile for File {
    fn rel(&self) -> &str {
        &self.rel
    }
    fn data(&self) -> &[u8] {
        &self.data
    }
}

/// The catalog files of a catalog image.
///
/// # Errors
///
/// [`ImageError::WrongKind`] for a bundle image.
pub fn sources(image: &Image) -> Result<Sources<'static>, ImageError> {
    let Kind::Catalog { dir, .. } = &image.kind else {
        return Err(ImageError::WrongKind {
            image: image.name.clone(),
            found: image.kind.name(),
            wanted: "catalog",
        });
    };
    let full = |rel: &str| {
        if dir.is_empty() {
            rel.to_owned()
        } else {
            format!("{dir}/{rel}")
        }
    };
    let name = |rel: &str| image.location_name(&full(rel));
    let mut problems = Vec::new();
    let skipped = |rel: &str, why: &str| {
        Diagnostic::new(Rule::ImageEntrySkipped, format!("skipped: {why}"))
            .at(&Location::new(Arc::from(image.location_name(rel)), 0))
    };
    // The directory may be a symbolic link to another directory of the
    // image: its files are read from there, named by the path the image
    // names.
    let real = image.tree.resolve(dir).unwrap_or_else(|_| dir.clone());
    let prefix = if real.is_empty() {
        String::new()
    } else {
        format!("{real}/")
    };
    for (rel, why) in &image.skipped {
        if rel.starts_with(&prefix) {
            problems.push(skipped(rel, why));
        }
    }
    let mut files = Vec::new();
    for (rel, node) in image.tree.below(&real) {
        match node {
            Node::File(data) => files.push(File {
                rel: rel.to_owned(),
                data: data.clone(),
            }),
            Node::Symlink(target) => problems.push(skipped(
                &full(rel),
                &format!("a symbolic link (to {target}) in an image is not followed"),
            )),
            Node::Dir | Node::Unkept => {}
        }
    }
    let files = ignore::apply(files, &mut problems, &name);
    Ok(Sources {
        files: files
            .into_iter()
            .map(|f| SourceFile::from_shared(name(&f.rel), f.data))
            .collect(),
        problems,
    })
}
