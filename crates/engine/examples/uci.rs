//! The engine's protocol (docs/PROTOCOL.md) on standard input and output,
//! built without the server: a search change can be built and matched in
//! about a minute instead of the whole `legion` binary's several.
//!
//! ```sh
//! cargo build --release -p legion-engine --example uci
//! legion match --engine1 "cmd:target/release/examples/uci" --engine2 "cmd:legion uci" --nodes 20000 ...
//! target/release/examples/uci bench [DEPTH]   # as `legion bench`, the network
//! ```
//!
//! It has the `legion` binary's allocator, so its speed is the same.

use std::io::{self, Write};

use legion_engine::{bench, eval::Weights, nnue};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => legion_engine::uci::run(io::stdin().lock(), Box::new(io::stdout())),
        Some("bench") => run_bench(args.get(1)),
        Some(other) => Err(io::Error::other(format!(
            "unknown argument {other:?}: none (the protocol) or `bench [DEPTH]`"
        ))),
    };
    if let Err(e) = result {
        let _ = writeln!(io::stderr(), "uci: {e}");
        std::process::exit(1);
    }
}

fn run_bench(depth: Option<&String>) -> io::Result<()> {
    let depth = match depth {
        None => bench::DEFAULT_DEPTH,
        Some(d) => d
            .parse()
            .ok()
            .filter(|d| (1..=30).contains(d))
            .ok_or_else(|| io::Error::other(format!("depth {d:?}: a number from 1 to 30")))?,
    };
    let net = nnue::embedded().map_err(io::Error::other)?;
    let r = bench::run(depth, &Weights::tuned(), Some(net), 1);
    let ms = r.time.as_millis().max(1);
    // Written, not printed: a closed pipe (`| head -1`) is an error to
    // report, not a panic.
    let mut out = io::stdout().lock();
    writeln!(out, "nodes {}", r.nodes)?;
    writeln!(out, "nps {}", r.nodes as u128 * 1000 / ms)?;
    writeln!(out, "time {ms} ms")?;
    Ok(())
}
