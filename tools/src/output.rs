//! Writing an output file the way a user means it: [`write_file`].
//!
//! Every file the tools write on request (`grim-encode -o`/`--svg`, `grim-bench`'s CSV, SVG
//! and campaign files) goes through [`write_file`], which decides by what is at the path:
//!
//! | at the path | what happens |
//! | --- | --- |
//! | nothing | a new regular file, written atomically |
//! | a regular file | replaced atomically, keeping its permission bits |
//! | a symlink | followed (chains too); its final target is handled by this table |
//! | a character or block device, a FIFO, a socket | written through, never replaced |
//! | a directory | an error; nothing is written |
//!
//! *Atomically* means: the bytes go to a temporary file in the same directory, which is
//! flushed, synced and renamed over the target only when every byte was written, so a failed
//! write leaves the previous file exactly as it was and no temporary behind. That is right for
//! a regular file — a designer's previous CNF is never replaced by half of a new one — and
//! wrong for anything else: renaming over `/dev/null` replaced the system's `/dev/null` with a
//! regular file (issue 38), renaming over a FIFO cuts off its reader, and renaming over a
//! symlink replaces the link instead of writing where it points. A device or FIFO cannot be
//! written atomically at all, so those are written through, as a shell's `>` would.
//!
//! Rejected: `O_TRUNC` writes for regular files too. They are simpler, but a full disk or an
//! interrupt halfway leaves a truncated file where the previous good one was.
//! Known limit: replacing a regular file gives it a new inode, so another hard link to the old
//! file keeps the old contents (as with every editor that saves atomically).

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// How many symlinks [`write_file`] follows before it gives up, as Linux's `ELOOP` limit.
const MAX_SYMLINK_HOPS: usize = 40;

/// Writes `path` through `write`, atomically for regular files and new paths, through for
/// devices and FIFOs, following symlinks to their target (the [module](self) table).
///
/// `write` may be called with a buffered writer; it is flushed (and for a regular file synced)
/// before the call returns. On any error — from `write`, from the file system, or a directory
/// at `path` — a regular file at the target keeps its previous contents and no temporary file
/// is left. A device or FIFO may have received part of the bytes (nothing else is possible).
pub fn write_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let target = resolve_symlinks(path)?;
    match fs::metadata(&target) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => write_atomically(&target, None, write),
        Err(e) => Err(e),
        Ok(meta) if meta.is_dir() => Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "it is a directory; name a file to write",
        )),
        Ok(meta) if meta.is_file() => write_atomically(&target, Some(meta.permissions()), write),
        // A device, FIFO or socket: opened for writing as it is, never created or replaced.
        Ok(_) => {
            let file = OpenOptions::new().write(true).open(&target)?;
            let mut out = BufWriter::new(file);
            write(&mut out)?;
            out.flush()
        }
    }
}

/// A scratch file for output that must be assembled before it is written (the streamed CNF
/// export: its clauses go here while the model is built, then behind the comments and header
/// into the output, `grim_levels::encode::StreamedExport`): empty, open for reading and
/// writing, and already unlinked, so that nothing is left behind however the process ends
/// (an error, Ctrl-C, a kill); the disk space comes back when the file is closed.
///
/// Where: beside `output`'s final target when that is a regular file or a new path (the same
/// file system as the output, which needs the same space anyway); else — standard output, a
/// device, a FIFO — in [`std::env::temp_dir`] (`TMPDIR`). Named `.NAME.grim-scratch.PID.N`,
/// created exclusively.
pub fn scratch_file(output: Option<&Path>) -> io::Result<File> {
    let beside = match output {
        Some(path) => {
            let target = resolve_symlinks(path)?;
            match fs::metadata(&target) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => Some(target),
                Ok(meta) if meta.is_file() => Some(target),
                _ => None,
            }
        }
        None => None,
    };
    let (dir, name) = match &beside {
        Some(target) => (
            parent_dir(target),
            target
                .file_name()
                .map_or_else(|| OsString::from("out"), |n| n.to_os_string()),
        ),
        None => (std::env::temp_dir(), OsString::from("grim-encode")),
    };
    let mut tries = 0;
    loop {
        let mut scratch_name = OsString::from(".");
        scratch_name.push(&name);
        scratch_name.push(format!(".grim-scratch.{}.{tries}", std::process::id()));
        let path = dir.join(scratch_name);
        match OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => {
                // Unlinked at once: the open handle keeps the data (POSIX). Other systems
                // cannot unlink an open file; there the scratch file stays behind (known
                // limit, not built there).
                #[cfg(unix)]
                fs::remove_file(&path)?;
                return Ok(file);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 100 => tries += 1,
            Err(e) => return Err(e),
        }
    }
}

/// The path `path` finally names after following every symlink in its last component (and in
/// the last component of each link's target). A dangling link resolves to the path it points
/// to, where [`write_file`] then creates the file, as a shell's `>` would. Directories along
/// the way are left to the operating system (a rename within a directory reached through a
/// symlinked directory is still a rename in the real directory).
fn resolve_symlinks(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_SYMLINK_HOPS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                current = if link.is_absolute() {
                    link
                } else {
                    parent_dir(&current).join(link)
                };
            }
            Ok(_) => return Ok(current),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(current),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_SYMLINK_HOPS} symbolic links to follow (a loop?)"
    )))
}

/// The directory a relative name beside `path` lives in (`.` for a bare file name).
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `path` (a regular file or nothing) through a temporary file beside it, renamed over
/// it once complete; `keep` is the old file's permissions, given to the new one.
///
/// The temporary name is `.NAME.grim-tmp.PID` next to `path` (same directory, so the rename
/// cannot cross file systems), created exclusively so that an existing file of that name is
/// never truncated.
fn write_atomically(
    path: &Path,
    keep: Option<fs::Permissions>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidInput, "the output path names no file")
    })?;
    let mut tmp_name = OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".grim-tmp.{}", std::process::id()));
    let tmp = parent_dir(path).join(tmp_name);
    let file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
    let result = (|| {
        let mut out = BufWriter::new(file);
        write(&mut out)?;
        let file: File = out.into_inner().map_err(|e| e.into_error())?;
        if let Some(permissions) = keep {
            file.set_permissions(permissions)?;
        }
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory for one test, removed by the caller.
    fn scratch(test: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("grim-output-{test}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = scratch("failed");
        let path = dir.join("out.txt");
        fs::write(&path, "old").unwrap();
        let err = write_file(&path, |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("boom"))
        });
        assert!(err.is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(
            entries(&dir),
            ["out.txt"],
            "a temporary file was left behind"
        );
        write_file(&path, |w| w.write_all(b"new")).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(entries(&dir), ["out.txt"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_new_path_becomes_a_regular_file_and_a_bare_name_works() {
        let dir = scratch("new");
        let path = dir.join("fresh.cnf");
        write_file(&path, |w| w.write_all(b"p cnf 0 0\n")).unwrap();
        assert!(fs::symlink_metadata(&path).unwrap().file_type().is_file());
        assert_eq!(fs::read_to_string(&path).unwrap(), "p cnf 0 0\n");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn replacing_a_regular_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("mode");
        let path = dir.join("out.txt");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        write_file(&path, |w| w.write_all(b"new")).unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640, "mode {mode:o} after replacing");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_directory_is_refused_and_left_alone() {
        let dir = scratch("dir");
        let err = write_file(&dir, |w| w.write_all(b"x")).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::IsADirectory, "{err}");
        assert!(entries(&dir).is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_written_through_to_its_target_atomically_and_stays_a_link() {
        let dir = scratch("symlink");
        fs::create_dir(dir.join("sub")).unwrap();
        let target = dir.join("sub/real.txt");
        fs::write(&target, "old").unwrap();
        // A chain: link2 -> link1 -> sub/real.txt (relative targets, resolved beside each link).
        std::os::unix::fs::symlink("sub/real.txt", dir.join("link1")).unwrap();
        std::os::unix::fs::symlink("link1", dir.join("link2")).unwrap();
        write_file(&dir.join("link2"), |w| w.write_all(b"new")).unwrap();
        for link in ["link1", "link2"] {
            let meta = fs::symlink_metadata(dir.join(link)).unwrap();
            assert!(meta.file_type().is_symlink(), "{link} was replaced");
        }
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        // A failed write through the link leaves the target as it was, and no temporary.
        let err = write_file(&dir.join("link2"), |_| Err(io::Error::other("boom")));
        assert!(err.is_err());
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(entries(&dir.join("sub")), ["real.txt"]);
        // A dangling link creates its target.
        std::os::unix::fs::symlink("sub/later.txt", dir.join("dangling")).unwrap();
        write_file(&dir.join("dangling"), |w| w.write_all(b"made")).unwrap();
        assert!(
            fs::symlink_metadata(dir.join("dangling"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            fs::read_to_string(dir.join("sub/later.txt")).unwrap(),
            "made"
        );
        // A loop is an error, not a hang.
        std::os::unix::fs::symlink("loop-b", dir.join("loop-a")).unwrap();
        std::os::unix::fs::symlink("loop-a", dir.join("loop-b")).unwrap();
        assert!(write_file(&dir.join("loop-a"), |w| w.write_all(b"x")).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_to_dev_null_leaves_dev_null_a_device() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("devnull");
        let link = dir.join("sink");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        write_file(&link, |w| w.write_all(&[b'x'; 100_000])).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let null = fs::symlink_metadata("/dev/null").unwrap().file_type();
        assert!(
            null.is_char_device(),
            "/dev/null is no longer a character device"
        );
        assert_eq!(entries(&dir), ["sink"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// `mknod` needs root; as another user the device-node case is covered through the
    /// symlink to `/dev/null` above, and this test says it was skipped.
    #[cfg(unix)]
    #[test]
    fn a_device_node_is_written_through_and_stays_a_device() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("mknod");
        let node = dir.join("mynull");
        let made = std::process::Command::new("mknod")
            .args(["-m", "666"])
            .arg(&node)
            .args(["c", "1", "3"])
            .output();
        if !matches!(&made, Ok(o) if o.status.success()) {
            eprintln!("note: a_device_node_is_written_through: skipped: mknod failed (not root?)");
            fs::remove_dir_all(&dir).unwrap();
            return;
        }
        write_file(&node, |w| w.write_all(b"p cnf 1 1\n1 0\n")).unwrap();
        let kind = fs::symlink_metadata(&node).unwrap().file_type();
        assert!(kind.is_char_device(), "the node became {kind:?}");
        assert_eq!(entries(&dir), ["mynull"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_through_to_its_reader() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("fifo");
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !matches!(made, Ok(s) if s.success()) {
            eprintln!("note: a_fifo_is_written_through: skipped: mkfifo is not available");
            fs::remove_dir_all(&dir).unwrap();
            return;
        }
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(&fifo).unwrap())
        };
        write_file(&fifo, |w| w.write_all(b"through the pipe\n")).unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe\n");
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(entries(&dir), ["pipe"]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
