//! Reading a bundle directory: its manifests (every document of every file, with
//! file and line) and its metadata files.
//!
//! Reading never stops at a bad file: unreadable files, invalid YAML and documents
//! that are not objects become diagnostics of the [`BundleDir`], and everything else
//! is still read. Only a directory that cannot be opened at all is an error.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use crate::annotations::Annotations;
use crate::metadata::{self, EntryList};
use crate::yaml::{self, kind_of, MetaFile};
use crate::BundleError;
use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::{Diagnostic, Rule};

/// The manifests directory name.
pub const MANIFESTS: &str = "manifests";
/// The metadata directory name.
pub const METADATA: &str = "metadata";

/// A Kubernetes object read from a manifest file.
#[derive(Debug, Clone)]
pub struct Object {
    /// `apiVersion` (empty when missing or not a string).
    pub api_version: String,
    /// `kind` (empty when missing or not a string).
    pub kind: String,
    /// `metadata.name` (empty when missing or not a string).
    pub name: String,
    /// The whole object as JSON.
    pub value: Value,
    /// Where the object starts.
    pub location: Location,
    /// 0-based position among the file's documents.
    pub document: usize,
}

impl Object {
    /// Build from a parsed document.
    pub fn from_document(d: yaml::Document) -> Object {
        let s = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_owned();
        Object {
            api_version: s(d.value.get("apiVersion")),
            kind: s(d.value.get("kind")),
            name: s(d.value.pointer("/metadata/name")),
            value: d.value,
            location: d.location,
            document: d.index,
        }
    }

    /// The API group of `apiVersion` (empty for the core group).
    pub fn group(&self) -> &str {
        self.api_version
            .rsplit_once('/')
            .map(|(g, _)| g)
            .unwrap_or("")
    }
}

/// One file of `manifests/`.
#[derive(Debug, Clone)]
pub struct ManifestFile {
    /// File name inside `manifests/`.
    pub name: String,
    /// The file (line 0).
    pub location: Location,
    /// The objects it holds, in file order.
    pub objects: Vec<Object>,
    /// Number of non-empty documents (objects plus documents that failed).
    pub documents: usize,
    /// The file's text (empty when it could not be read), for pointing at the line
    /// of a field.
    pub text: Arc<str>,
}

impl ManifestFile {
    /// The location of the first line at or after `from` (1-based) that contains
    /// `needle`, with the column where it starts.
    pub fn find_line(&self, from: u32, needle: &str) -> Option<Location> {
        if needle.is_empty() {
            return None;
        }
        self.text
            .lines()
            .enumerate()
            .skip(from.saturating_sub(1) as usize)
            .find_map(|(i, l)| {
                l.find(needle).map(|c| {
                    let line = olmsat_encoding::location::to_u32(i + 1);
                    self.location
                        .at(line, olmsat_encoding::location::to_u32(c + 1))
                })
            })
    }
}

impl ManifestFile {
    /// The object opm uses from this file: its first document, when that document
    /// is an object.
    pub fn first(&self) -> Option<&Object> {
        self.objects.first().filter(|o| o.document == 0)
    }
}

/// A bundle directory as read.
#[derive(Debug, Clone)]
pub struct BundleDir {
    /// The directory as given.
    pub path: PathBuf,
    /// Whether `manifests/` exists (as a directory).
    pub has_manifests: bool,
    /// Whether `metadata/` exists (as a directory).
    pub has_metadata: bool,
    /// The files of `manifests/`, sorted by name (dot files skipped).
    pub manifests: Vec<ManifestFile>,
    /// Subdirectories of `manifests/`.
    pub manifest_subdirs: Vec<Location>,
    /// `metadata/annotations.yaml`, when present and readable.
    pub annotations: Option<Annotations>,
    /// `metadata/dependencies.yaml`, when present and readable.
    pub dependencies: Option<EntryList>,
    /// `metadata/properties.yaml`, when present and readable.
    pub properties: Option<EntryList>,
    /// `metadata/bundle.yaml` (registry+v2), when present and readable.
    pub bundle_yaml: Option<MetaFile>,
    /// Problems met while reading: unreadable files, invalid YAML, documents that
    /// are not objects, duplicate keys (warnings).
    pub diagnostics: Vec<Diagnostic>,
}

impl BundleDir {
    /// Every object of every manifest file, in file then document order.
    pub fn objects(&self) -> impl Iterator<Item = &Object> {
        self.manifests.iter().flat_map(|m| m.objects.iter())
    }

    /// The objects of a kind.
    pub fn objects_of_kind<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Object> {
        self.objects().filter(move |o| o.kind == kind)
    }

    /// A location naming a file of the bundle by its path relative to the
    /// bundle directory.
    pub fn location_of(&self, rel: &str) -> Location {
        Location::new(Arc::from(self.path.join(rel).display().to_string()), 0)
    }

    /// The directory as shown in messages.
    pub fn display(&self) -> String {
        self.path.display().to_string()
    }
}

/// Whether a directory is a bundle by opm's rule for `render`: it has both
/// `manifests/` and `metadata/` subdirectories.
pub fn is_bundle_dir(path: &Path) -> bool {
    path.join(MANIFESTS).is_dir() && path.join(METADATA).is_dir()
}

/// The files of a bundle directory, wherever they are: on disk, or in memory
/// (the layers of a bundle image). Paths are relative to the bundle directory,
/// `/`-separated.
pub trait BundleFiles {
    /// Whether `rel` is a directory.
    fn is_dir(&self, rel: &str) -> bool;
    /// Whether `rel` is a regular file.
    fn is_file(&self, rel: &str) -> bool;
    /// The entries of the directory `rel`, sorted by name bytes (the order Go's
    /// `os.ReadDir` gives): each name and whether it is a directory.
    fn entries(&self, rel: &str) -> std::io::Result<Vec<(String, bool)>>;
    /// The text of the file `rel` (see [`yaml::read_text`]); `shown` is what
    /// locations call it.
    fn read_text(&self, rel: &str, shown: &Arc<str>) -> Result<String, Box<Diagnostic>>;
}

/// A bundle directory on disk. Files whose real path leaves the bundle (a
/// link to a kubeconfig, say) are skipped with a warning, unless `follow`.
struct Disk<'a> {
    root: &'a Path,
    /// The bundle's real path, when it can be found.
    canonical: Option<PathBuf>,
    follow: bool,
}

impl<'a> Disk<'a> {
    fn new(root: &'a Path, follow: bool) -> Self {
        Disk {
            root,
            canonical: std::fs::canonicalize(root).ok(),
            follow,
        }
    }
}

impl BundleFiles for Disk<'_> {
    fn is_dir(&self, rel: &str) -> bool {
        self.root.join(rel).is_dir()
    }
    fn is_file(&self, rel: &str) -> bool {
        self.root.join(rel).is_file()
    }
    fn entries(&self, rel: &str) -> std::io::Result<Vec<(String, bool)>> {
        Ok(sorted_entries(&self.root.join(rel))?
            .into_iter()
            .map(|(name, path)| (name, path.is_dir()))
            .collect())
    }
    fn read_text(&self, rel: &str, shown: &Arc<str>) -> Result<String, Box<Diagnostic>> {
        let path = self.root.join(rel);
        if let (false, Some(root)) = (self.follow, &self.canonical) {
            if let Ok(target) = std::fs::canonicalize(&path) {
                if !target.starts_with(root) {
                    let d = link_outside(&path, &target, "the bundle");
                    return Err(Box::new(d.at(&Location::new(shown.clone(), 0))));
                }
            }
        }
        yaml::read_text(&path, shown)
    }
}

/// Whether a file was passed over on purpose (not read, and not a file of
/// the bundle), rather than found unreadable.
pub(crate) fn is_skip(d: &Diagnostic) -> bool {
    matches!(
        d.rule,
        Rule::SymlinkOutsideBundle | Rule::SpecialFileSkipped
    )
}

/// Read the bundle directory at `path`.
pub fn read_bundle(path: &Path) -> Result<BundleDir, BundleError> {
    let meta = std::fs::metadata(path).map_err(|e| BundleError::io(path, e))?;
    if !meta.is_dir() {
        return Err(BundleError::NotADirectory {
            path: path.to_path_buf(),
        });
    }
    Ok(read_bundle_files(
        path.to_path_buf(),
        &Disk::new(path, false),
    ))
}

/// Read a bundle directory whose files are `files`; `path` is what messages
/// and locations call it (a file `rel` is shown as `path.join(rel)`).
pub fn read_bundle_files(path: PathBuf, files: &dyn BundleFiles) -> BundleDir {
    let mut dir = BundleDir {
        has_manifests: files.is_dir(MANIFESTS),
        has_metadata: files.is_dir(METADATA),
        path,
        manifests: Vec::new(),
        manifest_subdirs: Vec::new(),
        annotations: None,
        dependencies: None,
        properties: None,
        bundle_yaml: None,
        diagnostics: Vec::new(),
    };
    if dir.has_manifests {
        let (m, subdirs, diags) = manifest_files_in(&dir.path, MANIFESTS, files);
        dir.manifests = m;
        dir.manifest_subdirs = subdirs;
        dir.diagnostics.extend(diags);
    }
    if dir.has_metadata {
        read_metadata(&mut dir, files);
    }
    dir
}

/// The files of a directory of manifests (not recursive; dot files skipped),
/// sorted by name, with every object they hold; the subdirectories found; and the
/// problems met.
pub fn read_manifest_files(mdir: &Path) -> (Vec<ManifestFile>, Vec<Location>, Vec<Diagnostic>) {
    manifest_files_in(mdir, "", &Disk::new(mdir, false))
}

fn manifest_files_in(
    root: &Path,
    mdir: &str,
    tree: &dyn BundleFiles,
) -> (Vec<ManifestFile>, Vec<Location>, Vec<Diagnostic>) {
    let mut files = Vec::new();
    let mut subdirs = Vec::new();
    let mut diags = Vec::new();
    let join = |name: &str| {
        if mdir.is_empty() {
            name.to_owned()
        } else {
            format!("{mdir}/{name}")
        }
    };
    let shown_of = |rel: &str| -> Arc<str> {
        if rel.is_empty() {
            Arc::from(root.display().to_string())
        } else {
            Arc::from(root.join(rel).display().to_string())
        }
    };
    let entries = match tree.entries(mdir) {
        Ok(e) => e,
        Err(e) => {
            let loc = Location::new(shown_of(mdir), 0);
            diags.push(
                Diagnostic::new(Rule::Unreadable, format!("cannot read directory: {e}")).at(&loc),
            );
            return (files, subdirs, diags);
        }
    };
    for (name, is_dir) in entries {
        if name.starts_with('.') {
            continue;
        }
        let rel = join(&name);
        let shown = shown_of(&rel);
        let location = Location::new(shown.clone(), 0);
        if is_dir {
            subdirs.push(location);
            continue;
        }
        match tree.read_text(&rel, &shown) {
            Ok(text) => {
                let (file, mut d) = manifest_file(name, &shown, &text);
                diags.append(&mut d);
                files.push(file);
            }
            Err(d) if is_skip(&d) => diags.push(*d),
            Err(d) => {
                diags.push(*d);
                files.push(ManifestFile {
                    name,
                    location,
                    objects: Vec::new(),
                    documents: 0,
                    text: Arc::from(""),
                });
            }
        }
    }
    (files, subdirs, diags)
}

/// Parse the text of one manifest file called `name` (shown as `shown`).
pub fn manifest_file(
    name: String,
    shown: &Arc<str>,
    text: &str,
) -> (ManifestFile, Vec<Diagnostic>) {
    let (docs, mut diags) = yaml::documents(shown, text);
    let documents = docs.len() + diags.iter().filter(|d| d.is_error()).count();
    let mut objects = Vec::with_capacity(docs.len());
    for d in docs {
        if !d.value.is_object() {
            if !d.value.is_null() {
                diags.push(
                    Diagnostic::new(
                        Rule::NotKubernetesObject,
                        format!(
                            "not a Kubernetes object: the document is a {}",
                            kind_of(&d.value)
                        ),
                    )
                    .at(&d.location),
                );
            }
            continue;
        }
        objects.push(Object::from_document(d));
    }
    (
        ManifestFile {
            name,
            location: Location::new(shown.clone(), 0),
            objects,
            documents,
            text: Arc::from(text),
        },
        diags,
    )
}

/// Entries of a directory sorted by file name bytes (the order Go's `os.ReadDir`
/// gives).
fn sorted_entries(path: &Path) -> std::io::Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(path)? {
        let e = e?;
        out.push((e.file_name().to_string_lossy().into_owned(), e.path()));
    }
    out.sort();
    Ok(out)
}

fn read_meta(dir: &mut BundleDir, files: &dyn BundleFiles, names: &[&str]) -> Option<MetaFile> {
    let rel = names
        .iter()
        .map(|n| format!("{METADATA}/{n}"))
        .find(|r| files.is_file(r))?;
    let shown: Arc<str> = Arc::from(dir.path.join(&rel).display().to_string());
    let text = match files.read_text(&rel, &shown) {
        Ok(t) => t,
        Err(d) => {
            dir.diagnostics.push(*d);
            return None;
        }
    };
    match yaml::meta_file(&shown, &text) {
        Ok((m, warnings)) => {
            dir.diagnostics.extend(warnings);
            Some(m)
        }
        Err(d) => {
            dir.diagnostics.push(*d);
            None
        }
    }
}

fn read_metadata(dir: &mut BundleDir, files: &dyn BundleFiles) {
    if let Some(m) = read_meta(dir, files, &["annotations.yaml", "annotations.yml"]) {
        let (a, diags) = Annotations::from_meta(&m);
        dir.diagnostics.extend(diags);
        dir.annotations = Some(a);
    }
    if let Some(m) = read_meta(dir, files, &["dependencies.yaml", "dependencies.yml"]) {
        let (l, diags) = metadata::entries(&m, metadata::DEPENDENCIES_KEY);
        dir.diagnostics.extend(diags);
        dir.dependencies = Some(l);
    }
    if let Some(m) = read_meta(dir, files, &["properties.yaml", "properties.yml"]) {
        let (l, diags) = metadata::entries(&m, metadata::PROPERTIES_KEY);
        dir.diagnostics.extend(diags);
        dir.properties = Some(l);
    }
    dir.bundle_yaml = read_meta(dir, files, &["bundle.yaml", "bundle.yml"]);
}

/// The bundle directories found under a directory, with the links passed over.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FoundBundles {
    /// The bundle directories, sorted by path.
    pub dirs: Vec<PathBuf>,
    /// Symbolic links to directories outside the root, not followed
    /// (warnings of [`Rule::SymlinkOutsideBundle`]).
    pub skipped: Vec<Diagnostic>,
}

/// Find the bundle directories under `root`, recursively: every directory that has
/// a `manifests/` subdirectory (nested layouts such as `<version>/bundle/` and
/// `<version>/certification/` included). A bundle directory is not searched further.
/// `root` itself may be a bundle (and may be a link). Links to directories
/// inside `root` are not followed (their targets are reached directly); links
/// that leave it are skipped and reported unless `follow` is set.
pub fn find_bundles(root: &Path, follow: bool) -> Result<FoundBundles, BundleError> {
    let meta = std::fs::metadata(root).map_err(|e| BundleError::io(root, e))?;
    if !meta.is_dir() {
        return Err(BundleError::NotADirectory {
            path: root.to_path_buf(),
        });
    }
    let mut out = FoundBundles::default();
    let mut stack = vec![root.to_path_buf()];
    let canonical_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    // Directories already searched, by canonical path: a directory reached
    // twice (through links that are followed) is searched once.
    let mut seen = std::collections::BTreeSet::new();
    while let Some(dir) = stack.pop() {
        if !seen.insert(std::fs::canonicalize(&dir).unwrap_or_else(|_| dir.clone())) {
            continue;
        }
        if dir.join(MANIFESTS).is_dir() {
            out.dirs.push(dir);
            continue;
        }
        let entries = sorted_entries(&dir).map_err(|e| BundleError::io(&dir, e))?;
        for (name, path) in entries.into_iter().rev() {
            if name.starts_with('.') || !path.is_dir() {
                continue;
            }
            let is_link =
                std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
            if is_link {
                match std::fs::canonicalize(&path) {
                    Ok(t) if t.starts_with(&canonical_root) => continue,
                    Ok(t) if !follow => {
                        out.skipped.push(link_outside(&path, &t, "the directory"));
                        continue;
                    }
                    _ => {}
                }
            }
            stack.push(path);
        }
    }
    out.dirs.sort();
    out.skipped.sort();
    Ok(out)
}

/// The warning for a link at `path` to `target`, outside `what`.
fn link_outside(path: &Path, target: &Path, what: &str) -> Diagnostic {
    Diagnostic::new(
        Rule::SymlinkOutsideBundle,
        format!(
            "skipped: symbolic link points outside {what} ({})",
            target.display()
        ),
    )
    .at(&Location::new(Arc::from(path.display().to_string()), 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }

    #[test]
    fn reads_manifests_and_metadata() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        write(r, "manifests/b.yml", "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: s}\n");
        write(
            r,
            "manifests/a.json",
            "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"x\"}}",
        );
        write(r, "manifests/.hidden", "not: read");
        write(r, "manifests/c.yaml", "- 1\n");
        write(r, "manifests/d.yaml", "a: [\n");
        fs::create_dir_all(r.join("manifests/sub")).unwrap();
        write(
            r,
            "metadata/annotations.yaml",
            "annotations:\n  operators.operatorframework.io.bundle.package.v1: p\n",
        );
        write(
            r,
            "metadata/dependencies.yaml",
            "dependencies:\n- type: olm.gvk\n  value: {group: g, kind: K, version: v1}\n",
        );
        let b = read_bundle(r).unwrap();
        assert!(b.has_manifests && b.has_metadata);
        let names: Vec<&str> = b.manifests.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["a.json", "b.yml", "c.yaml", "d.yaml"]);
        assert_eq!(b.manifests[1].objects.len(), 2);
        assert_eq!(b.manifests[1].objects[1].location.line, 7);
        assert_eq!(b.manifests[1].first().unwrap().kind, "ConfigMap");
        assert_eq!(b.manifests[0].objects[0].group(), "");
        assert_eq!(b.manifest_subdirs.len(), 1);
        assert_eq!(b.diagnostics.iter().filter(|d| d.is_error()).count(), 2);
        assert_eq!(b.annotations.unwrap().package(), Some("p"));
        assert_eq!(b.dependencies.unwrap().entries.len(), 1);
    }

    #[test]
    fn missing_directory_is_an_error() {
        let t = tempfile::tempdir().unwrap();
        assert!(read_bundle(&t.path().join("nope")).is_err());
        write(t.path(), "f", "x");
        assert!(matches!(
            read_bundle(&t.path().join("f")),
            Err(BundleError::NotADirectory { .. })
        ));
    }

    #[test]
    fn finds_nested_bundles() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        for d in [
            "p/1.0/manifests",
            "p/2.0/bundle/manifests",
            "p/2.0/bundle/manifests/x/manifests",
            "q/3.0/certification/manifests",
            "q/tests/scorecard",
        ] {
            fs::create_dir_all(r.join(d)).unwrap();
        }
        // Links inside the tree are not followed (no loops, no duplicates); links
        // out of it are skipped with a warning, or followed once with `follow`.
        #[cfg(unix)]
        {
            let outside = tempfile::tempdir().unwrap();
            fs::create_dir_all(outside.path().join("r/9.0/manifests")).unwrap();
            std::os::unix::fs::symlink(r.join("p"), r.join("p/loop")).unwrap();
            std::os::unix::fs::symlink(r.join("q"), r.join("p/to-q")).unwrap();
            std::os::unix::fs::symlink(outside.path().join("r"), r.join("r")).unwrap();
            std::os::unix::fs::symlink(outside.path().join("r"), r.join("r2")).unwrap();
            let rel = |found: &FoundBundles| -> Vec<String> {
                found
                    .dirs
                    .iter()
                    .map(|p| p.strip_prefix(r).unwrap().display().to_string())
                    .collect()
            };
            let found = find_bundles(r, true).unwrap();
            assert_eq!(
                rel(&found),
                ["p/1.0", "p/2.0/bundle", "q/3.0/certification", "r/9.0"]
            );
            assert!(found.skipped.is_empty());
            let found = find_bundles(r, false).unwrap();
            assert_eq!(
                rel(&found),
                ["p/1.0", "p/2.0/bundle", "q/3.0/certification"]
            );
            let skipped: Vec<String> = found.skipped.iter().map(|d| d.to_string()).collect();
            assert_eq!(skipped.len(), 2, "{skipped:?}");
            assert!(
                skipped[0].contains("warning[symlink-outside-bundle]: skipped: symbolic link points outside the directory"),
                "{skipped:?}"
            );
            for l in ["p/loop", "p/to-q", "r", "r2"] {
                fs::remove_file(r.join(l)).unwrap();
            }
        }
        let found: Vec<String> = find_bundles(r, false)
            .unwrap()
            .dirs
            .iter()
            .map(|p| p.strip_prefix(r).unwrap().display().to_string())
            .collect();
        assert_eq!(found, ["p/1.0", "p/2.0/bundle", "q/3.0/certification"]);
    }
}
