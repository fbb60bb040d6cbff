//! Catalogs read from a Git revision with gitoxide (no `git` process): the
//! blobs under a path of the revision's tree, sorted by path, each loaded as
//! a catalog file named `REV:PATH`. `.indexignore` files are applied as they
//! are to a directory.
//!
//! A tree read from Git is bounded as a directory on disk is ([`Limits`]):
//! a file over 1 GiB is reported (`file-too-large`) from its object's header
//! and never read; the entries listed, the bytes read and the length of a
//! path are limited, so a tree whose subtrees repeat (a "Git bomb") stops
//! with an error. A symbolic link on the path named is followed inside the
//! revision's tree; links below it are skipped with a warning, as before.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use olmsat_catalog::load::ignore::{self, TreeFile};
use olmsat_catalog::load::{self, FileError, Loaded};
use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::{Diagnostic, Rule};

/// Why a Git input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// No repository contains the directory.
    #[error("git:{rev}:{path}: no Git repository at or above {dir} ({message}); run the command inside the repository")]
    NoRepository {
        /// Revision.
        rev: String,
        /// Path.
        path: String,
        /// The directory searched from.
        dir: String,
        /// gitoxide's message.
        message: String,
    },
    /// The revision does not resolve to a commit or tree.
    #[error("git:{rev}:{path}: unknown revision {rev:?} ({message}); give a branch, tag, commit or e.g. HEAD~1")]
    BadRevision {
        /// Revision.
        rev: String,
        /// Path.
        path: String,
        /// gitoxide's message.
        message: String,
    },
    /// The path is not in the revision's tree.
    #[error("git:{rev}:{path}: no such path in revision {rev}")]
    NoPath {
        /// Revision.
        rev: String,
        /// Path.
        path: String,
    },
    /// A documented limit was passed.
    #[error("git:{rev}:{path}: {what} passes the limit of {limit} {unit} olmsat reads from a Git revision; name a smaller path of the tree")]
    Limit {
        /// Revision.
        rev: String,
        /// Path.
        path: String,
        /// What passed the limit.
        what: String,
        /// The limit.
        limit: u64,
        /// Its unit.
        unit: &'static str,
    },
    /// A symbolic link on the path named that cannot be followed inside the
    /// revision's tree.
    #[error("git:{rev}:{path}: {link} is a symbolic link to {target:?}, {why}")]
    Link {
        /// Revision.
        rev: String,
        /// Path.
        path: String,
        /// The link, relative to the tree's root.
        link: String,
        /// Its target.
        target: String,
        /// Why it is not followed, and what to do.
        why: String,
    },
    /// An object could not be read.
    #[error("git:{rev}:{path}: cannot read {what}: {message}")]
    Read {
        /// Revision.
        rev: String,
        /// Path.
        path: String,
        /// What was being read.
        what: String,
        /// gitoxide's message.
        message: String,
    },
}

/// Bounds on reading a Git revision's tree (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of one file: larger ones are reported (`file-too-large`) and
    /// not read, as on disk.
    pub file_bytes: u64,
    /// Entries (files, directories, links, submodules) listed below the path.
    pub entries: u64,
    /// Bytes of Git objects read, trees and files together.
    pub total_bytes: u64,
    /// Bytes of one path below the path named (Linux's `PATH_MAX`).
    pub path_bytes: usize,
    /// Symbolic links followed on the path named.
    pub link_hops: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            file_bytes: olmsat_encoding::limits::MAX_FILE_BYTES,
            entries: 1_000_000,
            total_bytes: 4 << 30,
            path_bytes: 4096,
            link_hops: 40,
        }
    }
}

/// A file of the revision: its path relative to the input path, and its
/// bytes, or its size when it is over the file limit (not read).
struct File {
    rel: String,
    data: Arc<Vec<u8>>,
    too_large: Option<u64>,
}

impl TreeFile for File {
    fn rel(&self) -> &str {
        &self.rel
    }
    fn data(&self) -> &[u8] {
        &self.data
    }
}

/// What the path named is in the tree.
enum Target {
    Tree(gix::ObjectId),
    Blob(gix::ObjectId),
}

impl GitError {
    /// Whether the path is not in the revision's tree (the revision exists).
    pub fn is_missing_path(&self) -> bool {
        matches!(self, GitError::NoPath { .. })
    }
}

/// Load the catalog at `path` of revision `rev` of the repository that
/// contains `dir`.
pub fn load(dir: &Path, rev: &str, path: &str) -> Result<Loaded, GitError> {
    load_with(dir, rev, path, &Limits::default())
}

/// [`load`] within `limits`.
pub fn load_with(dir: &Path, rev: &str, path: &str, limits: &Limits) -> Result<Loaded, GitError> {
    let repo = gix::discover(dir).map_err(|e| GitError::NoRepository {
        rev: rev.to_owned(),
        path: path.to_owned(),
        dir: dir.display().to_string(),
        message: e.to_string(),
    })?;
    let bad_rev = |e: &dyn std::fmt::Display| GitError::BadRevision {
        rev: rev.to_owned(),
        path: path.to_owned(),
        message: e.to_string(),
    };
    let id = repo.rev_parse_single(rev).map_err(|e| bad_rev(&e))?;
    let tree = id
        .object()
        .map_err(|e| bad_rev(&e))?
        .peel_to_tree()
        .map_err(|e| bad_rev(&e))?;
    let name = |rel: &str| match (path.is_empty(), rel.is_empty()) {
        (true, _) => format!("{rev}:{rel}"),
        (false, true) => format!("{rev}:{path}"),
        (false, false) => format!("{rev}:{path}/{rel}"),
    };
    let mut reader = Reader {
        repo: &repo,
        rev,
        path,
        limits,
        entries: 0,
        bytes: 0,
        blobs: HashMap::new(),
        trees: HashMap::new(),
    };
    let mut files = Vec::new();
    let mut diagnostics = Vec::new();
    let target = if path.is_empty() {
        Target::Tree(tree.id)
    } else {
        reader.find(tree.id, path)?
    };
    match target {
        Target::Tree(id) => reader.collect(id, &mut files, &mut diagnostics, &name)?,
        Target::Blob(id) => files.push(reader.file(id, String::new())?),
    }
    let files = ignore::apply(files, &mut diagnostics, &name);
    let mut out = Loaded {
        files: files.len(),
        ..Loaded::default()
    };
    let parts: Vec<Loaded> = files
        .par_iter()
        .map(|f| match f.too_large {
            Some(size) => {
                let e = FileError::TooLarge { size };
                Loaded {
                    diagnostics: vec![Diagnostic::new(e.rule(), e.to_string())
                        .at(&Location::new(Arc::from(name(&f.rel)), 0))],
                    ..Loaded::default()
                }
            }
            None => load::load_bytes(&name(&f.rel), &f.data),
        })
        .collect();
    for p in parts {
        out.config.merge(p.config);
        out.diagnostics.extend(p.diagnostics);
    }
    diagnostics.append(&mut out.diagnostics);
    out.diagnostics = diagnostics;
    Ok(out)
}

/// Reads objects of one revision within the limits, counting what it reads.
struct Reader<'a> {
    repo: &'a gix::Repository,
    rev: &'a str,
    path: &'a str,
    limits: &'a Limits,
    /// Entries listed so far.
    entries: u64,
    /// Bytes of objects read so far, each counted every time it is reached.
    bytes: u64,
    /// The files read, by id: a file the tree names many times is read once.
    blobs: HashMap<gix::ObjectId, Arc<Vec<u8>>>,
    /// The trees listed, by id, with their size.
    trees: HashMap<gix::ObjectId, (u64, Listing)>,
}

/// The entries of a tree: mode, object and name.
type Listing = Arc<Vec<(gix::objs::tree::EntryMode, gix::ObjectId, String)>>;

impl<'a> Reader<'a> {
    fn read_err(&self, what: &str, e: &dyn std::fmt::Display) -> GitError {
        GitError::Read {
            rev: self.rev.to_owned(),
            path: self.path.to_owned(),
            what: what.to_owned(),
            message: e.to_string(),
        }
    }

    fn limit(&self, what: String, limit: u64, unit: &'static str) -> GitError {
        GitError::Limit {
            rev: self.rev.to_owned(),
            path: self.path.to_owned(),
            what,
            limit,
            unit,
        }
    }

    fn no_path(&self) -> GitError {
        GitError::NoPath {
            rev: self.rev.to_owned(),
            path: self.path.to_owned(),
        }
    }

    /// The size of object `id`, from its header.
    fn size(&self, id: gix::ObjectId, what: &str) -> Result<u64, GitError> {
        Ok(self
            .repo
            .find_header(id)
            .map_err(|e| self.read_err(what, &e))?
            .size())
    }

    /// Count `size` bytes against the total, before they are read.
    fn count(&mut self, size: u64) -> Result<(), GitError> {
        self.bytes = self.bytes.saturating_add(size);
        if self.bytes > self.limits.total_bytes {
            return Err(self.limit(
                "the bytes of the objects read".into(),
                self.limits.total_bytes,
                "bytes",
            ));
        }
        Ok(())
    }

    /// The entries of the tree `id` (`what` names it in errors).
    fn listing(&mut self, id: gix::ObjectId, what: &str) -> Result<Listing, GitError> {
        if let Some((size, listing)) = self.trees.get(&id).cloned() {
            self.count(size)?;
            return Ok(listing);
        }
        let size = self.size(id, what)?;
        if size > self.limits.file_bytes {
            return Err(self.limit(
                format!("the tree object of {what:?} ({size} bytes)"),
                self.limits.file_bytes,
                "bytes",
            ));
        }
        self.count(size)?;
        let tree = self
            .repo
            .find_object(id)
            .and_then(|o| o.try_into_tree())
            .map_err(|e| self.read_err(what, &e))?;
        let mut listing = Vec::new();
        for entry in tree.iter() {
            let entry = entry.map_err(|e| self.read_err(what, &e))?;
            listing.push((
                entry.mode(),
                entry.object_id(),
                entry.filename().to_string(),
            ));
        }
        let listing = Arc::new(listing);
        self.trees.insert(id, (size, listing.clone()));
        Ok(listing)
    }

    /// The file `id` at `rel`: its bytes, or its size alone when it is over
    /// the file limit (read from the object's header; the file is not read).
    fn file(&mut self, id: gix::ObjectId, rel: String) -> Result<File, GitError> {
        if let Some(data) = self.blobs.get(&id).cloned() {
            self.count(data.len() as u64)?;
            return Ok(File {
                rel,
                data,
                too_large: None,
            });
        }
        let what = if rel.is_empty() { self.path } else { &rel };
        let size = self.size(id, what)?;
        if size > self.limits.file_bytes {
            return Ok(File {
                rel,
                data: Arc::default(),
                too_large: Some(size),
            });
        }
        self.count(size)?;
        let data = self
            .repo
            .find_object(id)
            .map_err(|e| self.read_err(what, &e))?
            .detach()
            .data;
        let data = Arc::new(data);
        self.blobs.insert(id, data.clone());
        Ok(File {
            rel,
            data,
            too_large: None,
        })
    }

    /// What `path` names in the tree `root`, following the symbolic links
    /// on the way inside the tree.
    fn find(&mut self, root: gix::ObjectId, path: &str) -> Result<Target, GitError> {
        let mut parts: Vec<String> = path.split('/').map(str::to_owned).collect();
        let mut hops = 0usize;
        'restart: loop {
            // The directories entered so far, below the root: name and tree.
            let mut trail: Vec<(String, gix::ObjectId)> = Vec::new();
            for (i, part) in parts.iter().enumerate() {
                match part.as_str() {
                    "" | "." => continue,
                    ".." => {
                        trail.pop().ok_or_else(|| self.no_path())?;
                        continue;
                    }
                    _ => {}
                }
                let dir = trail.last().map_or(root, |(_, id)| *id);
                let here = trail
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .chain([part.as_str()])
                    .collect::<Vec<_>>()
                    .join("/");
                let listing = self.listing(dir, &here)?;
                let Some(&(mode, id, _)) = listing.iter().find(|(_, _, n)| n == part) else {
                    return Err(self.no_path());
                };
                let rest = &parts[i + 1..];
                if mode.is_tree() {
                    trail.push((part.clone(), id));
                } else if mode.is_blob() {
                    if rest.iter().any(|p| !p.is_empty() && p != ".") {
                        return Err(self.no_path());
                    }
                    return Ok(Target::Blob(id));
                } else if mode.is_link() {
                    hops += 1;
                    let target = self.link_text(id, &here)?;
                    if hops > self.limits.link_hops {
                        let why = format!(
                            "the last of more than {} symbolic links followed from {}; is there a link loop?",
                            self.limits.link_hops, self.path
                        );
                        return Err(self.link(here, target, why));
                    }
                    let outside = "which leads outside the repository's tree; olmsat reads only the revision's own files: name a path inside the tree";
                    if target.starts_with('/') {
                        return Err(self.link(here, target, outside.into()));
                    }
                    // Climbing above the root through the link's `..`.
                    let mut depth = trail.len() as isize;
                    for c in target.split('/') {
                        match c {
                            "" | "." => {}
                            ".." => depth -= 1,
                            _ => depth += 1,
                        }
                        if depth < 0 {
                            return Err(self.link(here, target, outside.into()));
                        }
                    }
                    // The link's directory, its target, then the rest.
                    let mut next: Vec<String> = trail.iter().map(|(n, _)| n.clone()).collect();
                    next.extend(target.split('/').map(str::to_owned));
                    next.extend(rest.iter().cloned());
                    parts = next;
                    continue 'restart;
                } else {
                    // A submodule: not in this repository.
                    return Err(self.no_path());
                }
            }
            return Ok(Target::Tree(trail.last().map_or(root, |(_, id)| *id)));
        }
    }

    fn link(&self, link: String, target: String, why: String) -> GitError {
        GitError::Link {
            rev: self.rev.to_owned(),
            path: self.path.to_owned(),
            link,
            target,
            why,
        }
    }

    /// The target of the symbolic link `id` (at most `path_bytes` long).
    fn link_text(&mut self, id: gix::ObjectId, what: &str) -> Result<String, GitError> {
        let size = self.size(id, what)?;
        if size > self.limits.path_bytes as u64 {
            return Err(self.limit(
                format!("the target of the symbolic link {what:?} ({size} bytes)"),
                self.limits.path_bytes as u64,
                "bytes",
            ));
        }
        self.count(size)?;
        let data = self
            .repo
            .find_object(id)
            .map_err(|e| self.read_err(what, &e))?
            .detach()
            .data;
        Ok(String::from_utf8_lossy(&data).into_owned())
    }

    /// Every blob below the tree `root` (recursively), with paths relative
    /// to it, sorted by path. Symbolic links and submodules are skipped with
    /// a warning.
    fn collect(
        &mut self,
        root: gix::ObjectId,
        files: &mut Vec<File>,
        diagnostics: &mut Vec<Diagnostic>,
        name: &dyn Fn(&str) -> String,
    ) -> Result<(), GitError> {
        // Trees are read when they are reached, not when they are listed: a
        // tree listed many times is never held many times.
        let mut stack: Vec<(gix::ObjectId, String)> = vec![(root, String::new())];
        while let Some((id, prefix)) = stack.pop() {
            let what = if prefix.is_empty() {
                self.path
            } else {
                &prefix
            }
            .to_owned();
            let listing = self.listing(id, &what)?;
            for (mode, oid, file_name) in listing.iter() {
                let (mode, oid) = (*mode, *oid);
                let rel = if prefix.is_empty() {
                    file_name.clone()
                } else {
                    format!("{prefix}/{file_name}")
                };
                self.entries += 1;
                if self.entries > self.limits.entries {
                    return Err(self.limit(
                        "the tree's entries (files, directories, links)".into(),
                        self.limits.entries,
                        "entries",
                    ));
                }
                if rel.len() > self.limits.path_bytes {
                    return Err(self.limit(
                        format!("the path {:?}", rel.chars().take(80).collect::<String>()),
                        self.limits.path_bytes as u64,
                        "bytes",
                    ));
                }
                if mode.is_tree() {
                    stack.push((oid, rel));
                } else if mode.is_blob() {
                    files.push(self.file(oid, rel)?);
                } else {
                    let what = if mode.is_link() {
                        "a symbolic link"
                    } else {
                        "a submodule"
                    };
                    diagnostics.push(
                        Diagnostic::new(
                            Rule::GitEntrySkipped,
                            format!("skipped: {what} in a Git tree is not read"),
                        )
                        .at(&Location::new(Arc::from(name(&rel)), 0)),
                    );
                }
            }
        }
        files.sort_by(|a, b| a.rel.cmp(&b.rel));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::path::Path;
    use std::process::{Command, Stdio};

    use super::*;

    /// Run `git` in `dir` with `input` on its standard input; its output,
    /// trimmed. `None` when there is no `git` to build test repositories.
    fn git(dir: &Path, args: &[&str], input: &str) -> Option<String> {
        let mut child = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(["-c", "commit.gpgsign=false", "-c", "core.symlinks=true"])
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .ok()?;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("written");
        let out = child.wait_with_output().expect("git ran");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Some(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    }

    /// A new repository, or `None` (a skip line) without `git`.
    #[allow(clippy::print_stdout)] // the skip line
    fn repo() -> Option<tempfile::TempDir> {
        let d = tempfile::tempdir().expect("dir");
        if git(d.path(), &["init", "-q", "-b", "main"], "").is_none() {
            println!("skipped: no git command to build the test repository");
            return None;
        }
        Some(d)
    }

    /// A tree of `entries` (`MODE TYPE ID\tNAME` lines).
    fn mktree(dir: &Path, entries: &[String]) -> String {
        let mut text = entries.join("\n");
        text.push('\n');
        git(dir, &["mktree"], &text).expect("git")
    }

    /// Make `tree` the commit of `main` (and so `HEAD`).
    fn commit(dir: &Path, tree: &str) {
        let c = git(dir, &["commit-tree", tree, "-m", "t"], "").expect("git");
        git(dir, &["update-ref", "refs/heads/main", &c], "").expect("git");
    }

    const PACKAGE: &str = "{\"schema\":\"olm.package\",\"name\":\"p\"}\n";

    /// A tree whose 10 entries are all the tree below it, 9 levels deep over
    /// 10 files: 10⁹ paths in a few kilobytes.
    fn bomb(dir: &Path, leaf: &str) -> String {
        let blob = git(dir, &["hash-object", "-w", "--stdin"], leaf).expect("git");
        let mut tree = mktree(
            dir,
            &(0..10)
                .map(|i| format!("100644 blob {blob}\tf{i}.json"))
                .collect::<Vec<_>>(),
        );
        for _ in 0..8 {
            tree = mktree(
                dir,
                &(0..10)
                    .map(|i| format!("040000 tree {tree}\td{i}"))
                    .collect::<Vec<_>>(),
            );
        }
        tree
    }

    #[test]
    fn a_git_bomb_stops_at_the_entry_limit() {
        let Some(d) = repo() else { return };
        let tree = bomb(d.path(), PACKAGE);
        commit(d.path(), &tree);
        let limits = Limits {
            entries: 20_000,
            ..Limits::default()
        };
        let e = load_with(d.path(), "HEAD", "", &limits)
            .expect_err("refused")
            .to_string();
        assert_eq!(
            e,
            "git:HEAD:: the tree's entries (files, directories, links) passes the limit of 20000 entries olmsat reads from a Git revision; name a smaller path of the tree"
        );
        // The default limit: the same error, at a million entries.
        let e = load(d.path(), "HEAD", "d3")
            .expect_err("refused")
            .to_string();
        assert!(e.contains("passes the limit of 1000000 entries"), "{e}");
    }

    #[test]
    fn the_bytes_read_are_bounded() {
        let Some(d) = repo() else { return };
        let tree = bomb(d.path(), &format!("{}\n", "x".repeat(1000)));
        commit(d.path(), &tree);
        let limits = Limits {
            total_bytes: 100_000,
            ..Limits::default()
        };
        let e = load_with(d.path(), "HEAD", "d0/d0", &limits)
            .expect_err("refused")
            .to_string();
        assert_eq!(
            e,
            "git:HEAD:d0/d0: the bytes of the objects read passes the limit of 100000 bytes olmsat reads from a Git revision; name a smaller path of the tree"
        );
        let limits = Limits {
            path_bytes: 10,
            ..Limits::default()
        };
        let e = load_with(d.path(), "HEAD", "d0/d0", &limits)
            .expect_err("refused")
            .to_string();
        assert_eq!(
            e,
            "git:HEAD:d0/d0: the path \"d9/d9/d9/d0\" passes the limit of 10 bytes olmsat reads from a Git revision; name a smaller path of the tree"
        );
    }

    #[test]
    fn a_blob_over_the_file_limit_is_refused_by_its_header() {
        let Some(d) = repo() else { return };
        // A loose object whose header says 1.1 GiB, with two bytes after it:
        // reading it would fail, and allocate 1.1 GiB first.
        let id = "1111111111111111111111111111111111111111";
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(b"blob 1181116006\0{}").expect("compressed");
        let objects = d.path().join(".git/objects/11");
        std::fs::create_dir_all(&objects).expect("dir");
        std::fs::write(objects.join(&id[2..]), z.finish().expect("compressed")).expect("written");
        let small = git(d.path(), &["hash-object", "-w", "--stdin"], PACKAGE).expect("git");
        let tree = mktree(
            d.path(),
            &[
                format!("100644 blob {id}\tbig.json"),
                format!("100644 blob {small}\tp.json"),
            ],
        );
        commit(d.path(), &tree);
        let too_large =
            "file is 1181116006 bytes, larger than the 1073741824-byte limit olmsat reads";
        let loaded = load(d.path(), "HEAD", "").expect("loads");
        assert_eq!(loaded.files, 2);
        assert_eq!(loaded.config.packages.len(), 1, "the other file loads");
        let d0 = &loaded.diagnostics[0];
        assert_eq!(d0.message, too_large);
        assert_eq!(d0.rule, Rule::FileTooLarge);
        assert_eq!(
            &*d0.location.as_ref().expect("located").file,
            "HEAD:big.json"
        );
        let loaded = load(d.path(), "HEAD", "big.json").expect("loads");
        assert_eq!(loaded.diagnostics.len(), 1);
        assert_eq!(loaded.diagnostics[0].message, too_large);
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_named_is_followed_inside_the_tree() {
        let Some(d) = repo() else { return };
        let p = d.path();
        std::fs::create_dir_all(p.join("catalogs/v1/op")).expect("dir");
        std::fs::write(p.join("catalogs/v1/op/catalog.json"), PACKAGE).expect("written");
        let link = |target: &str, at: &str| {
            std::os::unix::fs::symlink(target, p.join(at)).expect("link");
        };
        link("catalogs/v1", "linked");
        link("linked/op", "chained");
        link("../v1/op", "catalogs/v1/self");
        link("../outside", "up");
        link("/etc", "abs");
        link("loop2", "loop1");
        link("loop1", "loop2");
        git(p, &["add", "-A"], "").expect("git");
        git(p, &["commit", "-q", "-m", "t"], "").expect("git");

        let loaded = load(p, "HEAD", "linked").expect("followed");
        assert_eq!(loaded.config.packages.len(), 1);
        let names: Vec<&str> = loaded
            .diagnostics
            .iter()
            .map(|d| &*d.location.as_ref().expect("located").file)
            .collect();
        // Links below the path named are skipped, as before.
        assert_eq!(names, ["HEAD:linked/self"]);
        for path in [
            "chained",
            "chained/catalog.json",
            "linked/op/catalog.json",
            "catalogs/v1/self",
            "linked/../v1/op",
        ] {
            let loaded = load(p, "HEAD", path).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(loaded.config.packages.len(), 1, "{path}");
        }
        let err = |path: &str| load(p, "HEAD", path).expect_err(path).to_string();
        assert_eq!(
            err("up"),
            "git:HEAD:up: up is a symbolic link to \"../outside\", which leads outside the repository's tree; olmsat reads only the revision's own files: name a path inside the tree"
        );
        assert!(
            err("abs/passwd").starts_with(
                "git:HEAD:abs/passwd: abs is a symbolic link to \"/etc\", which leads outside"
            ),
            "{}",
            err("abs/passwd")
        );
        assert!(
            err("loop1").contains("is a symbolic link to \"loop2\", the last of more than 40 symbolic links followed from loop1; is there a link loop?")
                || err("loop1").contains("is a symbolic link to \"loop1\", the last of more than 40"),
            "{}",
            err("loop1")
        );
        assert_eq!(
            err("linked/nope"),
            "git:HEAD:linked/nope: no such path in revision HEAD"
        );
    }
}
