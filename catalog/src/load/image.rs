//! A catalog image as loader [`Sources`]: every file of its catalog directory,
//! sorted by path, `.indexignore` files applied, each named
//! `IMAGE!/configs/pkg/catalog.json` in locations. The bytes are the layers'
//! own, in memory.

use std::sync::Arc;

use crate::load::ignore::{self, TreeFile};
use crate::load::{SourceFile, Sources};
use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::{Diagnostic, Rule};

use olmsat_image::{Image, ImageError, Kind, Node};

struct File {
    rel: String,
    data: Arc<[u8]>,
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
    let prefix = if dir.is_empty() {
        String::new()
    } else {
        format!("{dir}/")
    };
    for (rel, why) in &image.skipped {
        if rel.starts_with(&prefix) {
            problems.push(skipped(rel, why));
        }
    }
    let mut files = Vec::new();
    for (rel, node) in image.tree.below(dir) {
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
