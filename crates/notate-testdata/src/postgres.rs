//! A PostgreSQL server of a test's own: `initdb` into a temporary directory and `pg_ctl
//! start` on a free port of the loopback, from Debian's `postgresql` package (`.ci/run`
//! installs it), stopped and removed when dropped. For the tests of the stores and of
//! `notate serve`; a test that needs it fails, never skips, when the server is not installed.
//!
//! ```no_run
//! let server = notate_testdata::postgres::Server::start();
//! assert!(server.url.starts_with("postgres://notate@127.0.0.1:"));
//! ```

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A new empty directory for one server.
fn temp_dir() -> PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("notate-postgres-{}-{call}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A PostgreSQL server of the test's own, in a temporary directory on a free port.
pub struct Server {
    data: PathBuf,
    dir: PathBuf,
    bin: PathBuf,
    /// `postgres://notate@127.0.0.1:PORT/postgres` (trusted: no password).
    pub url: String,
}

/// Runs a server program, as the `postgres` user when the test runs as root (PostgreSQL
/// refuses to run as root).
fn pg_command(bin: &Path, program: &str, as_postgres: bool) -> Command {
    if as_postgres {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(bin.join(program));
        c
    } else {
        Command::new(bin.join(program))
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

impl Server {
    /// Starts a server (panics, naming what is missing, when it cannot).
    pub fn start() -> Server {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .ok()
            .and_then(|versions| {
                versions
                    .filter_map(|v| Some(v.ok()?.path().join("bin")))
                    .filter(|b| b.join("initdb").is_file())
                    .max()
            })
            .expect(
                "no PostgreSQL server under /usr/lib/postgresql: install Debian's postgresql \
                 package (.ci/run does)",
            );
        let root = is_root();
        let dir = temp_dir();
        if root {
            let status = Command::new("chown")
                .args(["-R", "postgres:"])
                .arg(&dir)
                .status()
                .unwrap();
            assert!(status.success());
        }
        let data = dir.join("data");
        let status = pg_command(&bin, "initdb", root)
            .arg("-D")
            .arg(&data)
            .args(["-A", "trust", "-U", "notate", "-E", "UTF8", "--no-sync"])
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "initdb failed");
        // A free port, asked of the system and let go before the server takes it: another
        // test may take it meanwhile, so a server that cannot start tries another port.
        let mut attempts = 0;
        let port = loop {
            attempts += 1;
            let port = TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port();
            let options = format!(
                "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
                dir.display()
            );
            let status = pg_command(&bin, "pg_ctl", root)
                .arg("-D")
                .arg(&data)
                .args(["-o", &options, "-l"])
                .arg(dir.join("log"))
                .args(["-w", "start"])
                .stdout(Stdio::null())
                .status()
                .unwrap();
            if status.success() {
                break port;
            }
            assert!(
                attempts < 5,
                "pg_ctl start failed: {}",
                std::fs::read_to_string(dir.join("log")).unwrap_or_default()
            );
        };
        Server {
            data,
            dir,
            bin,
            url: format!("postgres://notate@127.0.0.1:{port}/postgres"),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = pg_command(&self.bin, "pg_ctl", is_root())
            .arg("-D")
            .arg(&self.data)
            .args(["-m", "immediate", "stop"])
            .stdout(Stdio::null())
            .status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
