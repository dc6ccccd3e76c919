//! What the command-line tests share: a `legion serve` process.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// Starts `legion serve --port 0` with `args`; the process and the port it
/// says it listens on. `LEGION_SERVE_BIN` names another `legion` to start
/// (a benchmark's before and after, run by the same client).
pub fn serve(args: &[&str]) -> (Child, u16) {
    let bin =
        std::env::var_os("LEGION_SERVE_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_legion").into());
    let mut child = Command::new(bin)
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start legion serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("its output"))
        .read_line(&mut line)
        .expect("its first line");
    // "Legion is ready: http://127.0.0.1:PORT/ ..."
    let port = line
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no address in '{line}'"));
    (child, port)
}
