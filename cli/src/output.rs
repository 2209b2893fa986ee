//! Writing the output a command names with `-o`, touching nothing else.
//!
//! - A regular file, or a path where nothing is yet, is replaced atomically: the bytes go to a
//!   new temporary file beside it (a fresh name, never an existing file), which is renamed over
//!   the target once complete, and removed on every failure. The target keeps its permissions.
//!   A file that replaces another is flushed to the disk before the rename (after a power cut
//!   the old file or the new one is there, never an empty one); a new file is not (there is
//!   nothing to lose, and one flush per file was most of `unity export --all`'s time).
//! - A symbolic link is written through: its final target is written as above, the link stays.
//!   A link to nothing is refused.
//! - Anything else (a device such as /dev/null, a FIFO, a socket) and `-` are written as a
//!   stream, in one piece once the output is complete.

use crate::fail::{io_words, Fail};
use std::fs;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Where a command writes.
#[derive(Clone, Debug)]
pub enum Target {
    /// Standard output (`-o -`, or no `-o` where that is allowed).
    Stdout,
    /// A path.
    Path(PathBuf),
}

impl Target {
    /// The target of `-o`; `None` or `-` is standard output.
    pub fn of(o: Option<&Path>) -> Target {
        match o {
            None => Target::Stdout,
            Some(p) if p == Path::new("-") => Target::Stdout,
            Some(p) => Target::Path(p.to_path_buf()),
        }
    }

    /// How the target is named in messages.
    pub fn shown(&self) -> String {
        match self {
            Target::Stdout => "standard output".into(),
            Target::Path(p) => p.display().to_string(),
        }
    }

    /// Usage mistakes about the target, found without writing: a folder, a missing folder,
    /// binary output to a terminal.
    pub fn usage_problems(&self, binary: bool) -> Vec<String> {
        let terminal = "is a terminal; binary output goes to a file (-o FILE) or a pipe";
        match self {
            Target::Stdout => {
                if binary && std::io::stdout().is_terminal() {
                    vec![format!("standard output {terminal}")]
                } else {
                    vec![]
                }
            }
            Target::Path(p) => {
                let shown = p.display();
                match fs::metadata(p) {
                    Ok(m) if m.is_dir() => {
                        vec![format!("-o {shown} is a folder; name a file in it")]
                    }
                    Ok(m) if binary && !m.is_file() && is_terminal_device(p, &m) => {
                        vec![format!("-o {shown} {terminal}")]
                    }
                    Ok(_) => vec![],
                    Err(_) => {
                        let parent = parent_of(p);
                        if fs::symlink_metadata(p).is_ok() {
                            vec![format!("-o {shown} is a link to nothing; name its target")]
                        } else if !parent.is_dir() {
                            vec![format!(
                                "-o {shown}: there is no folder {}",
                                parent.display()
                            )]
                        } else {
                            vec![]
                        }
                    }
                }
            }
        }
    }
}

/// Whether `p` (not a regular file or folder) is a terminal. Only character devices are opened
/// to find out: opening a FIFO would wait for a reader.
fn is_terminal_device(p: &Path, m: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if !m.file_type().is_char_device() {
            return false;
        }
    }
    #[cfg(not(unix))]
    let _ = m;
    fs::OpenOptions::new()
        .write(true)
        .open(p)
        .is_ok_and(|f| f.is_terminal())
}

fn parent_of(p: &Path) -> PathBuf {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `bytes` to `target`, complete or not at all (see the module's rules).
pub fn write(target: &Target, bytes: &[u8]) -> Result<(), Fail> {
    let path = match target {
        Target::Stdout => return crate::term::out_bytes(bytes),
        Target::Path(p) => p,
    };
    let shown = path.display().to_string();
    let cannot = |e: &std::io::Error| Fail::about(&shown, "a writable output", io_words(e));
    // Nothing there (the usual case of a new file) is one look; a link is followed.
    let m = match fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return replace(path, None, bytes).map_err(|e| cannot(&e))
        }
        Err(e) => return Err(cannot(&e)),
        Ok(m) if m.file_type().is_symlink() => match fs::metadata(path) {
            Ok(m) => m,
            Err(_) => {
                return Err(Fail::about(
                    &shown,
                    "a link to an existing file",
                    "a link to nothing",
                ))
            }
        },
        Ok(m) => m,
    };
    if m.is_dir() {
        Err(Fail::about(&shown, "a file", "a folder"))
    } else if m.is_file() {
        // Through any links to the file itself, which is replaced beside where it is.
        let real = fs::canonicalize(path).map_err(|e| cannot(&e))?;
        // A file we may not write is not replaced behind its back (the folder may allow it).
        fs::OpenOptions::new()
            .write(true)
            .open(&real)
            .map_err(|e| cannot(&e))?;
        replace(&real, Some(m.permissions()), bytes).map_err(|e| cannot(&e))
    } else {
        // Opened by its name, so that links such as /dev/stdout lead where they point.
        fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|mut f| f.write_all(bytes).and_then(|_| f.flush()))
            .map_err(|e| cannot(&e))
    }
}

/// Writes a new file beside `path` and renames it over `path`. The temporary file is removed
/// when anything fails (dropping it does). `keep`: the permissions of the file replaced, when
/// there is one (and then the new bytes reach the disk before the rename).
fn replace(path: &Path, keep: Option<fs::Permissions>, bytes: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut b = tempfile::Builder::new();
    b.prefix(&prefix).suffix(".partial");
    #[cfg(unix)]
    {
        // A new output gets the usual permissions (0666 less the umask), not 0600.
        use std::os::unix::fs::PermissionsExt;
        b.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut tmp = b.tempfile_in(parent_of(path))?;
    if let Some(p) = &keep {
        tmp.as_file().set_permissions(p.clone())?;
    }
    tmp.write_all(bytes)?;
    if keep.is_some() {
        tmp.as_file().sync_all()?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
