//! A catalog image as loader [`Sources`]: every file of its catalog directory,
//! sorted by path, `.indexignore` files applied, each named
//! `IMAGE!/configs/pkg/catalog.json` in locations. The bytes are the layers'
//! own, in memory, shared with the loader (never copied). A catalog
//! directory that is a symbolic link to another directory of the image is
//! read from there.

use std::sync::Arc;

use crate::load::ignore::{self, TreeFile};
use crate::load::{SourceFile, Sources};
use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::{Diagnostic, Rule};

use olmsat_image::{Image, ImageError, Kind, Node};

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
        notes: image.notes.clone(),
    })
}

#[cfg(test)]
mod image_tests {
    use std::collections::BTreeMap;
    use std::sync::Arc;

    use olmsat_image::memory::{layout, open_files, tar_of};
    use olmsat_image::{Image, ImageError, Kind, Node, Options, Transport, CONFIGS_LABEL};

    use super::sources;
    use crate::load::Content;

    fn open(files: BTreeMap<String, Vec<u8>>) -> Result<Image, ImageError> {
        open_files(files, Transport::Oci, None, &Options::default())
    }

    const PACKAGE: &str = r#"{"schema":"olm.package","name":"p"}"#;

    #[test]
    fn a_catalog_directory_linked_to_another_directory_is_read_from_there() {
        // The link comes in a later layer than the files it leads to, and
        // the files lie outside the directories read at first.
        let files = tar_of(&[("data/catalog/p/catalog.json", Some(PACKAGE))], true);
        for link in [
            "->/data/catalog",
            "->data/catalog",
            "->./data/../data/catalog",
        ] {
            let l = tar_of(&[("configs", Some(link))], true);
            for labels in [vec![(CONFIGS_LABEL, "/configs")], vec![]] {
                let image = open(layout(&[files.clone(), l.clone()], &labels)).unwrap();
                assert_eq!(
                    image.kind,
                    Kind::Catalog {
                        dir: "configs".into(),
                        labelled: !labels.is_empty()
                    }
                );
                let sources = sources(&image).unwrap();
                let names: Vec<&str> = sources.files.iter().map(|f| &*f.name).collect();
                assert_eq!(names, ["oci:fuzz!/configs/p/catalog.json"], "{link}");
                assert!(sources.problems.is_empty(), "{:?}", sources.problems);
            }
        }
    }

    #[test]
    fn the_loader_shares_the_bytes_of_the_image() {
        let l = tar_of(&[("configs/p/catalog.json", Some(PACKAGE))], true);
        let image = open(layout(&[l], &[])).unwrap();
        let Some(Node::File(kept)) = image.tree.get("configs/p/catalog.json") else {
            panic!("a kept file");
        };
        let sources = sources(&image).unwrap();
        let Content::Shared(given) = &sources.files[0].content else {
            panic!("shared bytes");
        };
        assert!(Arc::ptr_eq(kept, given), "the same buffer, not a copy");
    }

    #[test]
    fn a_root_opaque_whiteout_hides_the_lower_layers_catalog() {
        let lower = tar_of(&[("configs/a/catalog.json", Some(PACKAGE))], true);
        let upper = tar_of(
            &[
                (".wh..wh..opq", Some("")),
                ("configs/b/catalog.json", Some(PACKAGE)),
            ],
            true,
        );
        let image = open(layout(&[lower, upper], &[])).unwrap();
        let sources = sources(&image).unwrap();
        let names: Vec<&str> = sources.files.iter().map(|f| &*f.name).collect();
        assert_eq!(names, ["oci:fuzz!/configs/b/catalog.json"]);
    }
}
