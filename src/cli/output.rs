//! Output files written safely: a regular file is replaced atomically
//! through a uniquely named temporary file beside it, so a reader or a
//! concurrent run never sees half of one; anything else (a device, a FIFO,
//! standard output) is written straight through, never replaced.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Where one output goes, settled before the run starts.
#[derive(Clone, Debug)]
pub enum Target {
    /// This process's standard output, written before the report.
    Stdout,
    /// A device, FIFO or other non-regular file, written straight through.
    Stream(PathBuf),
    /// A regular file (existing or not), replaced as a whole. Symlinks are
    /// followed, so this is the file they point to.
    File(PathBuf),
}

/// What identifies a target, to refuse the same one for two outputs.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Identity {
    Stdout,
    Inode(u64, u64),
    Path(PathBuf),
}

impl Target {
    /// Settles where `path` goes. `-`, `/dev/stdout` and the like mean
    /// standard output.
    pub fn resolve(path: &Path) -> Result<Target, String> {
        let shown = path.display();
        if is_stdout_alias(path) {
            return Ok(Target::Stdout);
        }
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => Err(format!("{shown}: is a directory; expected a file to write")),
            Ok(meta) if meta.is_file() && !is_special_place(path) => {
                Ok(Target::File(fs::canonicalize(path).map_err(|e| format!("{shown}: cannot write: {e}"))?))
            }
            Ok(_) => Ok(Target::Stream(path.to_path_buf())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                // A dangling symlink names the file to create.
                let target = match fs::read_link(path) {
                    Ok(link) => path.parent().unwrap_or(Path::new(".")).join(link),
                    Err(_) => path.to_path_buf(),
                };
                let parent = match target.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                    _ => PathBuf::from("."),
                };
                let dir = fs::canonicalize(&parent)
                    .map_err(|e| format!("{shown}: cannot write into {}: {e}", parent.display()))?;
                let name = target.file_name().ok_or_else(|| format!("{shown}: expected a file name"))?;
                Ok(Target::File(dir.join(name)))
            }
            Err(e) => Err(format!("{shown}: cannot write: {e}")),
        }
    }

    fn identity(&self) -> Identity {
        match self {
            Target::Stdout => Identity::Stdout,
            Target::Stream(path) | Target::File(path) => match fs::metadata(path) {
                Ok(meta) => Identity::Inode(meta.dev(), meta.ino()),
                Err(_) => Identity::Path(path.clone()),
            },
        }
    }

    /// Writes the whole output with `write`. For a file, nothing replaces
    /// the old one until `write` has finished and the data is on disk.
    pub fn write(&self, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        match self {
            // Buffered, since reports are written in many small pieces.
            Target::Stdout => {
                let mut out = io::BufWriter::new(io::stdout().lock());
                write(&mut out)?;
                out.flush()
            }
            Target::Stream(path) => {
                let mut out = io::BufWriter::new(OpenOptions::new().write(true).open(path)?);
                write(&mut out)?;
                out.flush()
            }
            Target::File(path) => {
                let mut temp = self.temp_file()?;
                let mut out = io::BufWriter::new(temp.as_file_mut());
                write(&mut out)?;
                out.flush()?;
                drop(out);
                temp.as_file().sync_all()?;
                temp.persist(path).map_err(|e| e.error)?;
                Ok(())
            }
        }
    }

    /// A uniquely named temporary file for this target's contents: beside
    /// a file target, so it can be renamed into place, or in the system's
    /// temporary directory for a stream. Dropped, it is removed.
    pub fn temp_file(&self) -> io::Result<tempfile::NamedTempFile> {
        match self {
            Target::File(path) => {
                let dir = path.parent().unwrap_or(Path::new("."));
                // Keep an existing file's permissions; a new file gets the usual rw-r--r--.
                let mode = fs::metadata(path).map(|m| m.permissions().mode()).unwrap_or(0o644);
                tempfile::Builder::new()
                    .prefix(".somaria-")
                    .permissions(fs::Permissions::from_mode(mode))
                    .tempfile_in(dir)
            }
            Target::Stdout | Target::Stream(_) => tempfile::Builder::new().prefix("somaria-").tempfile(),
        }
    }

    /// Puts a finished temporary file (from [`Target::temp_file`]) in place.
    pub fn settle(&self, temp: tempfile::NamedTempFile) -> io::Result<()> {
        match self {
            Target::File(path) => {
                temp.as_file().sync_all()?;
                temp.persist(path).map_err(|e| e.error)?;
                Ok(())
            }
            Target::Stdout | Target::Stream(_) => {
                let mut source = fs::File::open(temp.path())?;
                self.write(|out| io::copy(&mut source, out).map(drop))
            }
        }
    }
}

/// Refuses two outputs that would land on the same file.
pub fn refuse_shared(outputs: &[(&str, &Path, &Target)]) -> Result<(), String> {
    for (i, (flag, path, target)) in outputs.iter().enumerate() {
        for (other_flag, other_path, other) in &outputs[..i] {
            if target.identity() == other.identity() {
                return Err(format!(
                    "{} and {} both name {}; expected a different file for each output",
                    other_flag,
                    flag,
                    if path == other_path {
                        path.display().to_string()
                    } else {
                        format!("{} ({})", other_path.display(), path.display())
                    }
                ));
            }
        }
    }
    Ok(())
}

/// The files a run reads (the model, `--given` state files), so that no
/// output replaces one of them. Every file a command writes is checked by
/// [`Inputs::refuse`] before anything is written: the same path after
/// canonicalising, or the same file (device and inode) through a symlink
/// or a hard link.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    files: Vec<Input>,
}

#[derive(Clone, Debug)]
struct Input {
    /// How a message names it, such as "the model file m.toml".
    named: String,
    /// What an output would replace, such as "the model".
    replaced: &'static str,
    identity: Identity,
    canonical: Option<PathBuf>,
}

impl Inputs {
    /// The inputs of a command that reads only its model: `model`, or for
    /// `-`, the file standard input reads it from.
    pub fn of_model(model: &Path) -> Inputs {
        let mut inputs = Inputs::default();
        if model == Path::new("-") {
            inputs.add(Path::new("/dev/stdin"), "the file standard input reads the model from".into(), "the model");
        } else {
            inputs.add(model, format!("the model file {}", model.display()), "the model");
        }
        inputs
    }

    /// Adds a state file read by `--given`.
    pub fn add_state_file(&mut self, path: &Path) {
        self.add(path, format!("the state file {}", path.display()), "the state file");
    }

    /// Adds `path` when it is a regular file (a device or a pipe is not
    /// replaced by writing to it, and a file that is not there is read by
    /// no one).
    fn add(&mut self, path: &Path, named: String, replaced: &'static str) {
        let Ok(meta) = fs::metadata(path) else { return };
        if meta.is_file() {
            let identity = Identity::Inode(meta.dev(), meta.ino());
            self.files.push(Input { named, replaced, identity, canonical: fs::canonicalize(path).ok() });
        }
    }

    /// Refuses `path`, given as `flag`, when writing it would replace an
    /// input. Standard output is never an input's file.
    pub fn refuse(&self, flag: &str, path: &Path) -> Result<(), String> {
        if is_stdout_alias(path) {
            return Ok(());
        }
        let identity = fs::metadata(path).ok().map(|meta| Identity::Inode(meta.dev(), meta.ino()));
        let canonical = canonical_output(path);
        for input in &self.files {
            let same_file = identity.as_ref() == Some(&input.identity);
            let same_path = canonical.is_some() && canonical == input.canonical;
            if same_file || same_path {
                return Err(format!(
                    "{flag} {} names {}; expected a different file, so the output does not replace {}",
                    path.display(),
                    input.named,
                    input.replaced
                ));
            }
        }
        Ok(())
    }

    /// Refuses each of `outputs` that would replace an input.
    pub fn refuse_all(&self, outputs: &[(&str, &Path, &Target)]) -> Result<(), String> {
        outputs.iter().try_for_each(|(flag, path, _)| self.refuse(flag, path))
    }

    /// Refuses, before a run that writes a family of files in `dir` whose
    /// names are not known until it ends (`STEM.1`, `STEM.2`, ...; one
    /// picture per step), every file already in `dir` whose name `member`
    /// accepts and that is an input. A file the run creates is new, so it
    /// is not an input; one already there is checked here. An empty `dir`
    /// is the current folder.
    pub fn refuse_family(&self, flag: &str, dir: &Path, member: impl Fn(&[u8]) -> bool) -> Result<(), String> {
        let listed = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        let Ok(entries) = fs::read_dir(listed) else { return Ok(()) };
        for entry in entries.flatten() {
            let name = entry.file_name();
            if member(name.as_bytes()) {
                self.refuse(flag, &dir.join(name))?;
            }
        }
        Ok(())
    }
}

/// `path` made absolute with its folder's symlinks resolved (the file
/// itself too, when it exists); `None` when its folder cannot be resolved.
fn canonical_output(path: &Path) -> Option<PathBuf> {
    if let Ok(canonical) = fs::canonicalize(path) {
        return Some(canonical);
    }
    let name = path.file_name()?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(fs::canonicalize(parent).ok()?.join(name))
}

/// Whether `path` means this process's standard output.
pub fn is_stdout_alias(path: &Path) -> bool {
    path == Path::new("-")
        || path == Path::new("/dev/stdout")
        || path == Path::new("/dev/fd/1")
        || path == Path::new("/proc/self/fd/1")
}

/// Paths under /dev and /proc are written through even when they lead to a
/// regular file (such as /dev/stderr redirected to a log): replacing that
/// file would cut off the process that opened it.
fn is_special_place(path: &Path) -> bool {
    path.starts_with("/dev") || path.starts_with("/proc")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_are_replaced_whole_and_devices_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("out.txt");
        let target = Target::resolve(&file).unwrap();
        assert!(matches!(target, Target::File(_)));
        target.write(|out| out.write_all(b"first")).unwrap();
        target.write(|out| out.write_all(b"second")).unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "second");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file is left");
        assert!(matches!(Target::resolve(Path::new("/dev/null")).unwrap(), Target::Stream(_)));
        assert!(matches!(Target::resolve(Path::new("-")).unwrap(), Target::Stdout));
        assert!(Target::resolve(dir.path()).is_err());
    }

    #[test]
    fn a_symlink_is_followed_and_stays_a_symlink() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.cnf");
        let link = dir.path().join("link.cnf");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        Target::resolve(&link).unwrap().write(|out| out.write_all(b"new")).unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
    }

    #[test]
    fn the_same_file_twice_is_refused_even_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("a.cnf");
        fs::write(&real, "").unwrap();
        let link = dir.path().join("b.cnf");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let (a, b) = (Target::resolve(&real).unwrap(), Target::resolve(&link).unwrap());
        assert!(refuse_shared(&[("--dimacs", &real, &a), ("--proof", &link, &b)]).is_err());
        let other = dir.path().join("c.cnf");
        let c = Target::resolve(&other).unwrap();
        assert!(refuse_shared(&[("--dimacs", &real, &a), ("--proof", &other, &c)]).is_ok());
    }
}
